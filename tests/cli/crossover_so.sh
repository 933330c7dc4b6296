#!/usr/bin/env bash
# The sweep's second-order crossover searches (harness/measure/sweep_crossovers.c):
# a pair with a second-order method searches up to so_nv_max only, a
# first-order pair over the whole crossover_range; every search writes its
# row (IDSVA-SO against central differences, FD-SO with and without AZA).
# Usage: crossover_so.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
cat > "$TMP/x.conf" <<'CONF'
N = 2, 4
bf = 1
methods = idsva
so_methods = idsva-so
so_nv_max = 6
crossover = idsva rneacr
crossover = idsva-so id2-fd
crossover = fdsva-so-aza fdsva-so-dmm
crossover_range = 2:20
batches = 3
CONF
"$RBDIFF" sweep --config "$TMP/x.conf" --counters no --out "$TMP/r" >"$TMP/out" 2>&1 || fail "sweep: $(cat "$TMP/out")"
csv="$TMP/r/crossover.csv"
python3 - "$csv" <<'PY' || fails=$((fails + 1))
import csv, sys
rows = {(r["A"], r["B"]): r for r in csv.DictReader(open(sys.argv[1]))}
want = {("idsva", "rneacr"): "2:20", ("idsva-so", "id2-fd"): "2:6", ("fdsva-so-aza", "fdsva-so-dmm"): "2:6"}
bad = 0
for k, rng in want.items():
    r = rows.get(k)
    if not r:
        print(f"FAIL: no crossover row for {k}"); bad += 1
    elif r["range"] != rng or r["status"] not in ("found", "at-lo", "none") and not r["status"].startswith("unresolved"):
        print(f"FAIL: {k}: range {r['range']} (want {rng}), status {r['status']}"); bad += 1
    else:
        print(f"{k[0]} vs {k[1]}: range {r['range']}, {r['status']} N_cross {r['N_cross']}")
sys.exit(1 if bad else 0)
PY
[ "$fails" -eq 0 ]
