#!/usr/bin/env bash
# `rbdiff compare` flags a deliberately slowed build (issue 8): the rbdiff
# under test (optimised) against the same sources built with -O0 must fail
# the comparison; two runs of the same build must pass it.  Timing noise on
# a shared machine can exceed any threshold for a moment, so each timed
# assertion gets up to three fresh attempts (a broken compare fails all of
# them); the thresholds are generous (100%: -O0 costs IDSVA 4-10x).  The
# instruction counts under valgrind, when it is installed, are exact and
# get a single attempt.
# Usage: regression.sh RBDIFF SOURCE_DIR TMPDIR
set -u
RBDIFF=$1
SRC=$2
TMP=$3
mkdir -p "$TMP"
rm -rf "$TMP"/run-*
fails=0
slow_bin="$TMP/o0-build"
echo "== the slowed build (-O0) in $slow_bin"
if ! { cmake -S "$SRC" -B "$slow_bin" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O0 -DRBD_TESTS=OFF \
         -DRBD_SANITIZE=OFF -DRBD_NATIVE=OFF >"$TMP/o0.log" 2>&1 &&
       cmake --build "$slow_bin" -j2 --target rbdiff >>"$TMP/o0.log" 2>&1; }; then
    echo "FAIL: could not build the -O0 rbdiff"; tail -20 "$TMP/o0.log"; exit 1
fi
SLOW="$slow_bin/rbdiff"
sweep() {   # sweep BINARY DIR
    "$1" sweep --methods idsva,rnea --base no --N 30 --bf 1 --batches 9 --batch-ms 3 --warmup-ms 5 \
        --counters no --out "$2" >/dev/null 2>"$2.err"
}
expect() {  # expect STATUS LABEL BASE NEW [compare flags]
    local want=$1 label=$2 base=$3 new=$4
    shift 4
    "$RBDIFF" compare "$base" "$new" "$@" >"$TMP/cmp.out" 2>&1
    local got=$?
    [ "$got" -eq "$want" ] && return 0
    echo "  attempt: $label exited $got, wanted $want"; cat "$TMP/cmp.out"
    return 1
}

ok=0
for try in 1 2 3; do
    d="$TMP/run-$try"
    sweep "$RBDIFF" "$d-fast" && sweep "$SLOW" "$d-slow" || { echo "FAIL: sweep"; cat "$d"-*.err; exit 1; }
    if expect 1 "compare O2 O0" "$d-fast" "$d-slow" --threshold 100 && grep -q "REGRESSION (time)" "$TMP/cmp.out" &&
       expect 1 "compare O2 O0 (JSON)" "$d-fast/benchmarks.json" "$d-slow/benchmarks.json" --threshold 100; then
        ok=1; break
    fi
done
[ $ok -eq 1 ] || { echo "FAIL: the -O0 build was not flagged in 3 attempts"; fails=$((fails + 1)); }
if ! grep -q "2 compared (2 by rank test)" "$TMP/cmp.out"; then
    echo "FAIL: the verdicts did not come from the rank test on the batches"; cat "$TMP/cmp.out"; fails=$((fails + 1))
fi

ok=0
for try in 1 2 3; do
    d="$TMP/run-same-$try"
    sweep "$RBDIFF" "$d-a" && sweep "$RBDIFF" "$d-b" || { echo "FAIL: sweep"; exit 1; }
    if expect 0 "compare O2 O2" "$d-a" "$d-b" --threshold 100; then ok=1; break; fi
done
[ $ok -eq 1 ] || { echo "FAIL: the same build failed against itself in 3 attempts"; fails=$((fails + 1)); }

# valgrind 3.19 cannot run AVX-512 code: a -march=native build on such a CPU
# dies under it with SIGILL, so probe the binary once.
if command -v valgrind >/dev/null &&
   ! valgrind --tool=none -q "$RBDIFF" run idsva --model autotree:N=10 --calls 2 >/dev/null 2>&1; then
    echo "note: valgrind cannot run this build (native ISA beyond its emulation); instruction-count comparison not tested"
elif command -v valgrind >/dev/null; then
    echo "== instruction counts (callgrind)"
    ins() { "$SRC/scripts/instructions" --rbdiff "$1" --methods idsva --N 10 --calls 20 --out "$2" >/dev/null 2>"$2.err" ||
            { echo "FAIL: scripts/instructions with $1"; cat "$2.err"; fails=$((fails + 1)); }; }
    ins "$RBDIFF" "$TMP/ins-fast"
    ins "$RBDIFF" "$TMP/ins-fast2"
    ins "$SLOW" "$TMP/ins-slow"
    if ! expect 1 "compare instructions O2 O0" "$TMP/ins-fast" "$TMP/ins-slow/instructions.csv" ||
       ! grep -q "REGRESSION (instructions)" "$TMP/cmp.out"; then
        echo "FAIL: instruction counts did not flag the -O0 build"; fails=$((fails + 1))
    fi
    # repeatable: the same binary counts the same instructions per call to
    # within 1e-3 (measured: 1e-4; libc paths depend a little on addresses)
    if ! expect 0 "compare instructions O2 O2" "$TMP/ins-fast" "$TMP/ins-fast2/instructions.csv" ||
       ! awk '$1 == "idsva/bf:1/N:10" { r = $6 } END { exit !(r > 0.999 && r < 1.001) }' "$TMP/cmp.out"; then
        echo "FAIL: instruction counts of one build differ between runs"; cat "$TMP/cmp.out"; fails=$((fails + 1))
    fi
else
    echo "note: valgrind not installed; instruction-count comparison not tested"
fi
[ "$fails" -eq 0 ] && echo "regression checks passed"
[ "$fails" -eq 0 ]
