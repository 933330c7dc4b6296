#!/usr/bin/env bash
# rbdiff anchors over repeated runs: each of our figures is the median over
# the runs (Pinocchio's are medians over runs too), one run gives the same
# table as before, a missing run is an error naming it, and the header
# names the runs' CPU and output mode from their meta.json.
# Usage: anchors.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
rm -rf "$TMP"
mkdir -p "$TMP"/a "$TMP"/b "$TMP"/c
hdr='method,kind,model,bf,N,nv,median_ns,min_ns,q1_ns,q3_ns,iqr_ns,batches,calls_per_batch,instructions,cycles,nq,fp_ops,flops'
row() { echo "idsva,ID,\"autotree:N=10,bf=1,skew=0,taper=1\",1,10,10,$1,$1,$1,$1,0,11,100,,,10,,"; }
{ echo "$hdr"; row 2000; } >"$TMP/a/timings.csv"
{ echo "$hdr"; row 4000; } >"$TMP/b/timings.csv"
{ echo "$hdr"; row 9000; } >"$TMP/c/timings.csv"
fails=0
cell() { grep -E '^\| idsva \| autoTree bf=1 \| 10 \|' | awk -F'|' '{gsub(/ /, "", $6); print $6}'; }
one=$("$RBDIFF" anchors "$TMP/a" --no-write | cell)
two=$("$RBDIFF" anchors "$TMP/a" "$TMP/b" --no-write | cell)
three=$("$RBDIFF" anchors "$TMP/a" "$TMP/b" "$TMP/c" --no-write | cell)
[ "$one" = "2" ] || { echo "FAIL: one run: idsva at N = 10 shows '$one' us, want 2"; fails=$((fails + 1)); }
[ "$two" = "3" ] || { echo "FAIL: two runs: '$two' us, want the median 3"; fails=$((fails + 1)); }
[ "$three" = "4" ] || { echo "FAIL: three runs: '$three' us, want the median 4"; fails=$((fails + 1)); }
"$RBDIFF" anchors "$TMP/a" "$TMP/nope" --no-write >/dev/null 2>"$TMP/err"
st=$?
[ $st -eq 2 ] && grep -qF "$TMP/nope" "$TMP/err" ||
    { echo "FAIL: a missing run: status $st, stderr: $(cat "$TMP/err")"; fails=$((fails + 1)); }
"$RBDIFF" anchors "$TMP/a" "$TMP/b" >/dev/null 2>&1 && [ -f "$TMP/a/vs-pinocchio.md" ] && [ ! -f "$TMP/b/vs-pinocchio.md" ] &&
    grep -qF "median over 2 runs" "$TMP/a/vs-pinocchio.md" ||
    { echo "FAIL: two runs: the table goes to the first run, naming both"; fails=$((fails + 1)); }
"$RBDIFF" anchors "$TMP/a" "$TMP/b" "$TMP/c" --out "$TMP/all.md" >/dev/null 2>&1 && grep -qF "median over 3 runs" "$TMP/all.md" ||
    { echo "FAIL: --out FILE gets the table"; fails=$((fails + 1)); }
# the header says what the runs' meta.json files say: CPU and output mode
meta() { printf '{"cpu_model": "%s", "method_options": {"zeros_preset": %s}}\n' "$1" "$2" >"$3/meta.json"; }
meta "CPU X" true "$TMP/a"; meta "CPU X" true "$TMP/b"; meta "CPU Y" false "$TMP/c"
"$RBDIFF" anchors "$TMP/a" "$TMP/b" --no-write | grep -qF "; CPU: CPU X; ID outputs: cleared once and reused" ||
    { echo "FAIL: two runs on CPU X with zeros_preset: header"; fails=$((fails + 1)); }
"$RBDIFF" anchors "$TMP/a" "$TMP/c" --no-write |
    grep -qF "; CPU: not the same in every run, or not recorded; ID outputs: not the same in every run" ||
    { echo "FAIL: runs on two CPUs, two output modes: header"; fails=$((fails + 1)); }
[ $fails -eq 0 ] && echo "anchors: 8 checks passed"
exit $((fails > 0))
