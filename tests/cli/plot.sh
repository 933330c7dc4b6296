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

# compare: a run against itself passes
if ! "$RBDIFF" compare "$TMP/synth" "$TMP/synth" >"$TMP/out" 2>&1; then echo "FAIL: compare synth synth"; fails=$((fails + 1)); fi
[ "$fails" -eq 0 ] && echo "plot checks passed"
[ "$fails" -eq 0 ]
