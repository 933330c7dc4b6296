#!/usr/bin/env bash
# The sweep's second-order crossover searches (harness/measure/sweep_crossovers.c):
# a pair with a second-order method searches up to so_nv_max only, a
# first-order pair over the whole crossover_range; every search writes its
# row (IDSVA-SO against central differences, FD-SO with and without AZA).
# Then `rbdiff plot` draws one figure per second-order search
# (plots/so_xo_A_vs_B) and `rbdiff report` puts it and the rows into the
# second-order section: the figure marks each row's N_cross, bracket or
# note, its probe points are crossover_probes.csv's ratios, and the
# report's table has the rows of crossover.csv: figure and table agree.
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
"$RBDIFF" plot "$TMP/r" >"$TMP/plot.out" 2>&1 || fail "plot: $(cat "$TMP/plot.out")"
"$RBDIFF" report "$TMP/r" >"$TMP/report.out" 2>&1 || fail "report: $(cat "$TMP/report.out")"
python3 - "$TMP/r" <<'PY' || fails=$((fails + 1))
import csv, os, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/crossover.csv")))
probes = list(csv.DictReader(open(f"{d}/crossover_probes.csv")))
report = open(f"{d}/report.md").read()
so_sec = report[report.index("## Second order"):]
bad = 0
def fail(msg):
    global bad
    print("FAIL:", msg); bad += 1
for r in rows:
    A, B, bf = r["A"], r["B"], r["bf"]
    svg = f"{d}/plots/so_xo_{A}_vs_{B}.svg"
    first_order = (A, B) == ("idsva", "rneacr")
    if first_order:
        if os.path.exists(svg): fail(f"a second-order crossover figure for the first-order pair {A}, {B}")
        continue
    if not os.path.exists(svg): fail(f"no {svg}"); continue
    text = open(svg).read()
    st = r["status"]
    if st in ("found", "at-lo"): mark = f"bf = {bf}: N = {int(float(r['N_cross']))} (line)"
    elif st.startswith("unresolved"): mark = f"bf = {bf}: unresolved in [{r['bracket_lo']}, {r['bracket_hi']}]"
    else: mark = f"bf = {bf}: {A} not faster up to N = {r['bracket_hi']}"
    if mark not in text: fail(f"{svg}: the row's mark '{mark}' ({st}) is not on the figure")
    n = r["N_cross"] if r["N_cross"] else "-"
    if n != "-": n = "%.0f" % float(n)
    line = f"| this run | {A} vs {B} | {bf} | {n} | [{r['bracket_lo']}, {r['bracket_hi']}] | {st} |"
    if line not in so_sec: fail(f"report.md's second-order section lacks {line}")
    if f"](plots/so_xo_{A}_vs_{B}.svg)" not in so_sec: fail(f"report.md does not show so_xo_{A}_vs_{B}")
    dat = f"{d}/plots/data/xo_probes_{A}_vs_{B}_bf{bf}.dat"
    pr = {}
    for p in probes:
        if (p["A"], p["B"], p["bf"]) == (A, B, bf): pr.setdefault(int(p["N"]), []).append(float(p["ratio_BA"]))
    if pr and not os.path.exists(dat): fail(f"no {dat}"); continue
    for l in (open(dat) if pr else []):
        if l.startswith("#"): continue
        f = l.split()
        got = pr.get(int(f[0]), [])
        if not any(abs(float(f[3]) - q) <= 1e-5 * q for q in got):
            fail(f"{dat}: N = {f[0]} ratio {f[3]}, crossover_probes.csv {got}")
    print(f"{A} vs {B} bf {bf}: figure, probes and report agree ({st})")
sys.exit(1 if bad else 0)
PY
[ "$fails" -eq 0 ]
