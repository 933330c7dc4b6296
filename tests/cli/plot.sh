#!/usr/bin/env bash
# `rbdiff plot` on the synthetic results of tests/data: every figure is
# rendered as a non-empty PNG and SVG; a results set without those methods
# skips the figures with a note and still succeeds.
# Usage: plot.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$TMP"
mkdir -p "$TMP"
fails=0
"$here/../data/make-synthetic-results.sh" "$TMP/synth"
if ! "$RBDIFF" plot "$TMP/synth" >"$TMP/out" 2>"$TMP/err"; then
    echo "FAIL: rbdiff plot on synthetic results"; cat "$TMP/err"; exit 1
fi
for f in fig2_id fig2_fd fig3_frames fig4_pin26 fig6_pin26fd fig7_times fig7_speedup fig5_id fig5_fd times_all accuracy_dtau_dq accuracy_dtau_dv accuracy_dqdd_dq accuracy_dqdd_dv; do
    for ext in png svg; do
        if [ ! -s "$TMP/synth/plots/$f.$ext" ]; then echo "FAIL: $f.$ext missing or empty"; fails=$((fails + 1)); fi
    done
done
# PNG magic number
if [ "$(head -c 8 "$TMP/synth/plots/fig2_id.png" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
    echo "FAIL: fig2_id.png is not a PNG"; fails=$((fails + 1))
fi
# the crossover of crossover.csv reaches the Fig. 7 scripts
if ! grep -q "N = 57" "$TMP/synth/plots/fig7_times.svg"; then echo "FAIL: crossover N not marked"; fails=$((fails + 1)); fi
# an unresolved search is marked as its bracket, and the axis reaches past it
if ! grep -q "unresolved in \[40, 60\]" "$TMP/synth/plots/fig7_speedup.svg"; then echo "FAIL: unresolved bracket not marked"; fails=$((fails + 1)); fi

# Fig. 5: one cluster per robot, ordered by nv, in the data gnuplot reads
if [ "$(awk '!/^#/ { printf "%s ", $1 }' "$TMP/synth/plots/data/fig5_id.dat")" != "ur5 hyq+ff " ]; then
    echo "FAIL: fig5_id.dat robots"; cat "$TMP/synth/plots/data/fig5_id.dat"; fails=$((fails + 1))
fi

# Fig. 5 with a second build (--with, scripts/run's clang pass): per method a
# time and a ratio label for each build (2 + 3 x 2 x 2 fields), both in the key
"$RBDIFF" plot "$TMP/synth" --with "$TMP/synth" --out "$TMP/with" >"$TMP/out" 2>"$TMP/err" ||
    { echo "FAIL: plot --with"; cat "$TMP/err"; fails=$((fails + 1)); }
if [ "$(awk '!/^#/ { print NF; exit }' "$TMP/with/data/fig5_id.dat")" != 14 ]; then
    echo "FAIL: fig5_id.dat with two builds"; cat "$TMP/with/data/fig5_id.dat"; fails=$((fails + 1))
fi
if ! grep -q "idsva,build(2)" "$TMP/with/fig5_id.svg"; then echo "FAIL: the second build not in Fig. 5's key"; fails=$((fails + 1)); fi
# the labels: the ratio to the first method of the same build, pin26 / idsva on ur5 (synthetic costs: 1.30)
if [ "$(awk '$1 == "ur5" { print $8 " " $10; exit }' "$TMP/with/data/fig5_id.dat")" != "1.30x 1.30x" ]; then
    echo "FAIL: fig5 ratio label"; cat "$TMP/with/data/fig5_id.dat"; fails=$((fails + 1))
fi

# only the base algorithm measured: the paper's figures are skipped with a note
mkdir -p "$TMP/base"
head -1 "$TMP/synth/timings.csv" >"$TMP/base/timings.csv"
grep '^rnea,' "$TMP/synth/timings.csv" >>"$TMP/base/timings.csv"
if ! "$RBDIFF" plot "$TMP/base" >"$TMP/out" 2>"$TMP/err"; then echo "FAIL: plot with missing data failed"; cat "$TMP/err"; fails=$((fails + 1)); fi
for note in "plot fig2_id: skipped (no timings for idsva rneacr)" "plot fig5_id: skipped (no robot timings for idsva)" "plot accuracy: skipped (no $TMP/base/accuracy.csv)"; do
    if ! grep -qF "$note" "$TMP/out"; then echo "FAIL: no note '$note'"; cat "$TMP/out"; fails=$((fails + 1)); fi
done
if [ ! -s "$TMP/base/plots/times_all.png" ]; then echo "FAIL: times_all.png missing"; fails=$((fails + 1)); fi

# every series at one N (a peer timed at N = 10 only, the second-order
# audit at N = 10): drawn in a range around it, without gnuplot's "empty x
# range" warning
mkdir -p "$TMP/oneN"
for t in timings accuracy; do
    head -1 "$TMP/synth/$t.csv" >"$TMP/oneN/$t.csv"
    grep -E '"autotree:N=10,[^"]*",[0-9.]+,10,' "$TMP/synth/$t.csv" >>"$TMP/oneN/$t.csv"
done
if [ "$(wc -l <"$TMP/oneN/accuracy.csv")" -lt 2 ] || [ "$(wc -l <"$TMP/oneN/timings.csv")" -lt 2 ]; then
    echo "FAIL: no N = 10 rows in the synthetic set"; fails=$((fails + 1))
fi
if ! "$RBDIFF" plot "$TMP/oneN" >"$TMP/out" 2>"$TMP/err"; then echo "FAIL: plot at one N failed"; cat "$TMP/err"; fails=$((fails + 1)); fi
if grep -i "warning" "$TMP/err"; then echo "FAIL: gnuplot warned on figures at one N"; fails=$((fails + 1)); fi
for f in fig2_id times_all accuracy_dtau_dq; do
    if [ ! -s "$TMP/oneN/plots/$f.svg" ]; then echo "FAIL: $f.svg at one N missing"; fails=$((fails + 1)); fi
done

# One colour per method within every figure and across them (issue 29): the
# synthetic set plus two versions of a Pinocchio and a MuJoCo function,
# pinocchio-cg, MuJoCo's mj_forward beside rneacr (their reds were 3.8
# apart in CIELAB) and seven names the method table does not know (there
# were six spare colours, hashed).  A stand-in gnuplot records what each
# figure is handed; per figure, a method (its legend title without the bf)
# has one colour, two methods colours at least 10 apart in CIELAB, and a
# method the same colour in every figure.
mkdir -p "$TMP/pal"
cp "$TMP/synth/accuracy.csv" "$TMP/synth/crossover.csv" "$TMP/pal/"
awk -F, 'NR == 1 { print; next } { print } $1 == "idsva" { o = $0
    n = split("pinocchio@4.1.0.computeRNEADerivatives pinocchio@3.7.0.computeRNEADerivatives " \
              "pinocchio-cg@4.1.0.computeRNEADerivatives mujoco@4.0.0.fd_forward mujoco@2.2.2.fd_forward " \
              "mujoco@4.0.0.forward mine-a mine-b mine-c mine-d mine-e mine-f mine-g", p, " ")
    for (i = 1; i <= n; i++) { l = o; sub(/^idsva/, p[i], l); print l } }' "$TMP/synth/timings.csv" >"$TMP/pal/timings.csv"
printf '#!/bin/sh\nprintf "%%s\\t%%s\\n" "$(basename "$3")" "$2" >>"%s"\n' "$TMP/pal/gnuplot.log" >"$TMP/pal/gnuplot"
chmod +x "$TMP/pal/gnuplot"
"$RBDIFF" plot "$TMP/pal" --with "$TMP/pal" --gnuplot "$TMP/pal/gnuplot" --out "$TMP/pal/plots" >"$TMP/out" 2>"$TMP/err" ||
    { echo "FAIL: plot with a stand-in gnuplot"; cat "$TMP/err"; fails=$((fails + 1)); }
python3 - "$TMP/pal/gnuplot.log" <<'PY' || fails=$((fails + 1))
import math, re, sys
def lab(h):
    c = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
    xyz = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    f = [u ** (1 / 3) if u > 0.008856 else 7.787 * u + 16 / 116 for u in xyz]
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))
bad, every, nfig = [], {}, 0
for line in open(sys.argv[1]):
    v = dict(re.findall(r"(\w+)='([^']*)'", line))
    if "colors" not in v:
        continue
    fig, nfig = v["outbase"].rsplit("/", 1)[-1], nfig + 1
    mine = {}
    for t, c in zip(v["titles"].split(), v["colors"].split()):
        key = re.sub(r",?bf=[0-9.]+$", "", t)
        if t == "-" or not key:
            continue
        if mine.setdefault(key, c) != c:
            bad.append(f"{fig}: {key} in {mine[key]} and {c}")
        if not fig.startswith("fig5") and every.setdefault(key, (c, fig))[0] != c:
            bad.append(f"{key}: {every[key][0]} in {every[key][1]}, {c} in {fig}")
    keys = sorted(mine)
    for i, a in enumerate(keys):
        for b in keys[:i]:
            d = math.dist(lab(mine[a]), lab(mine[b]))
            if d < 10:
                bad.append(f"{fig}: {a} {mine[a]} and {b} {mine[b]} only {d:.1f} apart")
for b in bad:
    print("FAIL: colours:", b)
if nfig < 10 or "mujoco@2.2.2.fd_forward" not in every or "mine-g" not in every:
    print(f"FAIL: colours: {nfig} figures recorded, the peers' versions or the unknown names not among them")
    bad.append(1)
sys.exit(1 if bad else 0)
PY

# compare: a run against itself passes
if ! "$RBDIFF" compare "$TMP/synth" "$TMP/synth" >"$TMP/out" 2>&1; then echo "FAIL: compare synth synth"; fails=$((fails + 1)); fi
[ "$fails" -eq 0 ] && echo "plot checks passed"
[ "$fails" -eq 0 ]
