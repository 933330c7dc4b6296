#!/usr/bin/env bash
# The table-assembly step of scripts/compiler-matrix (scripts/matrix-table) on
# synthetic paired rounds (made-up cost models, not measurements): per build
# t_AZA = 100 N + X N^2 and t_DMM = 100 N + N^3 (the loop flavour 1.5 x that),
# +-3% noise per batch, so AZA overtakes DMM at N = X.  Three builds measured
# (a native group of two, an x86-64 group of one with its ~twin), one skipped;
# each crossover must land within 3% of X inside a bracket of significant grid
# points; AZA never faster on the grid and always faster are "> N" and "<= N";
# the figures are drawn from the table's rows; a malformed builds.tsv is refused.
# Usage: matrix.sh SOURCE_DIR TMPDIR
set -u
SRC=$1
TMP=$2
. "$(dirname "$0")/lib.sh"
scratch "$TMP" "$TMP/table3/native" "$TMP/table3/x86-64"
printf 'gcc-12-native\tgcc-12\t12.2.0\tnative\t-march=native\tok\n' >"$TMP/builds.tsv"
printf 'clang-14-native\tclang-14\t14.0.6\tnative\t-march=native\tok\n' >>"$TMP/builds.tsv"
printf 'gcc-12-x86-64\tgcc-12\t12.2.0\tx86-64\t-march=x86-64\tok\n' >>"$TMP/builds.tsv"
printf 'clang-99-x86-64\tclang-99\t-\tx86-64\t-\tskipped: clang-99 not found\n' >>"$TMP/builds.tsv"
python3 - "$TMP" <<'PY'
import csv, random, sys
random.seed(7)
d = sys.argv[1]
# build -> X per bf (the crossover N of fdsva-dmm); 0.5: AZA faster everywhere, 1e4: never
cross = {"native": {"gcc-12-native": {1: 40, 2: 90}, "clang-14-native": {1: 0.5, 2: 150}},
         "x86-64": {"gcc-12-x86-64": {1: 1e4, 2: 70}, "gcc-12-x86-64~twin": {1: 60, 2: 60}}}
grid = [2, 5, 10, 20, 50, 100, 200, 300]
for isa, builds in cross.items():
    with open("%s/table3/%s/pair_samples.csv" % (d, isa), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["method", "model", "build", "round", "ns_per_call", "instructions_per_call"])
        for b, xs in builds.items():
            for bf, X in xs.items():
                for N in grid:
                    for rd in range(12):
                        aza, dmm = 100 * N + X * N * N, 100 * N + N ** 3
                        for m, t in (("fdsva-aza", aza), ("fdsva-dmm", dmm), ("fdsva-dmm-loop", 1.5 * dmm)):
                            w.writerow([m, "autotree:N=%d,bf=%d,skew=0,taper=1" % (N, bf), b, rd,
                                        "%.3f" % (t * random.uniform(0.97, 1.03)), ""])
PY
"$SRC/scripts/matrix-table" "$TMP" fdsva-aza >"$TMP/out" 2>"$TMP/err" || { fail "matrix-table failed"; cat "$TMP/err"; }
check() {   # check BUILD DMM BF STATUS [X]: table3.csv's row, read by column name
    python3 - "$TMP/table3.csv" "$@" <<'PY' || fail "table3.csv: $*"
import csv, sys
path, b, dmm, bf, status = sys.argv[1:6]
x = float(sys.argv[6]) if len(sys.argv) > 6 else None
rows = [r for r in csv.DictReader(open(path)) if (r["build"], r["dmm"], r["bf"]) == (b, dmm, bf)]
if len(rows) != 1:
    sys.exit("%d rows" % len(rows))
r = rows[0]
print("  %s %s bf %s: %s %s [%s, %s]" % (b, dmm, bf, r["status"], r["N_cross"], r["bracket_lo"], r["bracket_hi"]))
ok = r["status"] == status
if x is not None:
    n, lo, hi = float(r["N_cross"]), float(r["bracket_lo"]), float(r["bracket_hi"])
    ok = ok and abs(n / x - 1) < 0.03 and lo < n <= hi
sys.exit(0 if ok else 1)
PY
}
check gcc-12-native fdsva-dmm 1 found 40
check gcc-12-native fdsva-dmm 2 found 90
check clang-14-native fdsva-dmm 2 found 150
check gcc-12-x86-64 fdsva-dmm 2 found 70
check clang-14-native fdsva-dmm 1 below-grid
check gcc-12-x86-64 fdsva-dmm 1 above-grid
rows=$(($(wc -l <"$TMP/table3.csv") - 1))
[ "$rows" -eq 12 ] || fail "table3.csv has $rows rows, expected 3 builds x 2 flavours x 2 bf = 12 (no ~twin)"
grep -q 'twin' "$TMP/table3.csv" "$TMP/table3_ratios.csv" "$TMP/table3.md" && fail "the ~twin build is in the tables"
md="$TMP/table3.md"
grep -q '^| compiler | ISA | fdsva-dmm, bf = 1 | fdsva-dmm, bf = 2 | fdsva-dmm-loop, bf = 1 | fdsva-dmm-loop, bf = 2 |' "$md" ||
    fail "table3.md header"
grep -q '^| clang-14 14.0.6 | native | <= 2 | 1[45][0-9] \[100, 200\] |' "$md" || { fail "clang native row"; grep '^| clang-14' "$md"; }
grep -q '^| gcc-12 12.2.0 | x86-64 | > 300 | ' "$md" || { fail "gcc x86-64 row"; grep '^| gcc-12 12.2.0 | x86' "$md"; }
grep -q '^| clang-99 - | x86-64 | - | - | - | - |' "$md" || fail "skipped build row"
grep -q 'clang-99-x86-64 (clang-99): skipped: clang-99 not found' "$md" || fail "skip note"
grep -q 'no headline timings' "$md" || fail "the missing pair/ is not said"
if command -v gnuplot >/dev/null; then
    for e in png svg; do
        for f in table3 table3_ratios; do [ -s "$TMP/plots/$f.$e" ] || fail "plots/$f.$e missing"; done
    done
    # the bar figure's points are the table's N_cross (same rows, same numbers)
    python3 - "$TMP" <<'PY' || fail "plots/data/table3.dat disagrees with table3.csv"
import csv, sys
d = sys.argv[1]
want = sorted(round(float(r["N_cross"]), 3) for r in csv.DictReader(open(d + "/table3.csv")) if r["N_cross"])
got = [float(l.split()[1]) for l in open(d + "/plots/data/table3.dat") if l.strip() and not l.startswith("#")]
have = sorted(round(x, 3) for x in got)
sys.exit(0 if all(any(abs(w - h) <= 1e-3 * w for h in have) for w in want) else 1)
PY
fi
printf 'gcc-12-native\tgcc-12\tok\n' >"$TMP/bad.tsv"
mkdir -p "$TMP/bad" && cp "$TMP/bad.tsv" "$TMP/bad/builds.tsv"
"$SRC/scripts/matrix-table" "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
st=$?
{ [ $st -eq 2 ] && grep -q 'builds.tsv:1: 3 fields, want 6' "$TMP/bad.err"; } || { fail "malformed builds.tsv: exit $st"; cat "$TMP/bad.err"; }
passed "matrix-table checks passed"
