#!/usr/bin/env bash
# rbdiff pair (issue 31), small and quick:
#  - false alarms: two builds of the same commit (the program and a copy of
#    it, each its own worker process) are paired on 5 methods x 4 models;
#    at least 95% of the cells (19 of 20) must say "same" (no SLOWER, no
#    faster): a byte-identical copy can differ by a few % on one cell in
#    every round (README.md "Tracking a regression"), and the criterion is
#    the issue's 95%, not 100%;
#  - power: rbdiff_test_slow (each SLOW_METHOD call costs 5% more,
#    tests/CMakeLists.txt) against rbdiff_test_ref (the same program with
#    0%): SLOW_METHOD must be SLOWER on every model and no other method
#    SLOWER, and pair must exit 1;
#  - bad input is refused with 2 and a message naming it.
# Timing noise on a shared machine can beat any threshold for a while (a CI
# run once saw idsva's slowed cells read 0.89-0.99 with quartiles 0.8-1.3),
# so each timed assertion gets up to five fresh attempts, a few seconds
# apart, and attempts too noisy to judge are not counted (attempt() below);
# a broken pair fails every counted attempt, and the criterion of each
# attempt is unchanged.  The full-size measurements are in README.md ("Tracking a
# regression").
# Usage: pair.sh RBDIFF RBDIFF_TEST_REF RBDIFF_TEST_SLOW SLOW_METHOD TMPDIR
set -u
RBDIFF=$1 REF=$2 SLOW=$3 METHOD=$4 TMP=$5
rm -rf "$TMP"
mkdir -p "$TMP"
fails=0
cp "$RBDIFF" "$TMP/rbdiff-copy"
methods="$METHOD,fdsva,rneacr,rnea"
timing=(--N 10,30 --bf 1,2 --rounds 18 --batch-ms 3 --warmup-ms 5 --counters no)
# the power check takes 24 rounds: a 5% slow-down then needs 17 of 24 rounds
# slower (sign test p <= 0.05) rather than 13 of 18, which one loaded
# stretch of a few rounds cannot undo as easily
common=(--methods "$methods" "${timing[@]}" --rounds 24)

verdicts() {  # verdicts CSV METHOD|!METHOD|any VERDICT|any: rows of pair.csv, read by column name
    python3 - "$@" <<'PY'
import csv, sys
path, m, v = sys.argv[1:4]
try:
    rows = list(csv.DictReader(open(path)))
except OSError:
    rows = []
def want(r):
    mm = m == "any" or (r["method"] != m[1:] if m.startswith("!") else r["method"] == m)
    return mm and (v == "any" or r["verdict"] == v)
print(sum(1 for r in rows if want(r)))
PY
}

spread() {  # spread CSV: the median over pair.csv's cells of the interquartile range of the per-round ratios
    python3 - "$1" <<'PY'
import csv, statistics, sys
try:
    rows = list(csv.DictReader(open(sys.argv[1])))
    print(f"{statistics.median(float(r['ratio_q3']) - float(r['ratio_q1']) for r in rows):.3f}")
except (OSError, ValueError, KeyError, statistics.StatisticsError):
    print("nan")
PY
}

# A timed check is judged only in an attempt quiet enough to judge it: on a
# quiet machine the per-round ratios of a cell spread by 0.01-0.03 between
# quartiles; while another tenant of the host loads it, by 0.1-0.5, where
# neither a 5% slow-down nor a false alarm can be told from noise.  An
# attempt whose median spread is over NOISY (0.06) is not counted; up to five
# counted attempts, within a budget of BUDGET seconds.  Passing once is
# passing; a counted attempt failing every time fails; a budget spent with
# no attempt quiet enough is a skip (exit 77), said in one line, never a pass.
NOISY=0.06 BUDGET=240
skipped=0
attempt() {   # attempt NAME CHECK_FUNCTION
    local counted=0 i=0 start=$SECONDS sp
    while [ $counted -lt 5 ] && [ $((SECONDS - start)) -lt $BUDGET ]; do
        i=$((i + 1))
        "$2" "$TMP/$1-$i" && { echo "ok: $1 (attempt $i)"; return 0; }
        sp=$(spread "$TMP/$1-$i/pair.csv")
        if python3 -c "import sys; sys.exit(0 if float('$sp') > $NOISY else 1)"; then
            echo "  attempt $i of $1 failed while the machine was noisy (median quartile spread $sp > $NOISY): not counted"
            sleep 15
        else
            counted=$((counted + 1))
            echo "  attempt $i of $1 failed (median quartile spread $sp)"
            sleep $((2 * counted))
        fi
    done
    if [ $counted -gt 0 ]; then
        echo "FAIL: $1"; fails=$((fails + 1))
    else
        echo "SKIP: $1: the machine stayed too noisy for $BUDGET s to judge a 5% difference"; skipped=$((skipped + 1))
    fi
}

same_commit() {
    "$RBDIFF" pair --build A="$RBDIFF" --build B="$TMP/rbdiff-copy" --methods "$methods,crba" "${timing[@]}" \
        --out "$1" >"$1.out" 2>"$1.err"
    local st=$?
    local cells same
    cells=$(verdicts "$1/pair.csv" any any)
    same=$(verdicts "$1/pair.csv" any same)
    echo "  same commit: $same of $cells cells the same, exit $st"
    [ "$cells" -eq 20 ] && [ $((100 * same)) -ge $((95 * cells)) ] && { [ $st -eq 0 ] || [ "$same" -lt "$cells" ]; } ||
        { cat "$1.out" "$1.err"; return 1; }
}

slowed() {
    "$RBDIFF" pair --build ref="$REF" --build slow="$SLOW" "${common[@]}" --out "$1" >"$1.out" 2>"$1.err"
    local st=$?
    local flagged wrong
    flagged=$(verdicts "$1/pair.csv" "$METHOD" SLOWER)
    wrong=$(verdicts "$1/pair.csv" "!$METHOD" SLOWER)
    echo "  slowed $METHOD: flagged on $flagged of 4 models, other methods flagged: $wrong, exit $st"
    [ "$flagged" -eq 4 ] && [ "$wrong" -eq 0 ] && [ $st -eq 1 ] || { cat "$1.out" "$1.err"; return 1; }
}

attempt same-commit same_commit
attempt slowed slowed

refuse() {   # refuse WHAT PATTERN ARGS...
    local what=$1 pat=$2
    shift 2
    "$RBDIFF" pair "$@" >"$TMP/r.out" 2>"$TMP/r.err"
    local st=$?
    if [ $st -eq 2 ] && grep -q -- "$pat" "$TMP/r.err" && [ ! -s "$TMP/r.out" ] && [ ! -e "$TMP/nothing" ]; then
        echo "ok: refused $what"
    else
        echo "FAIL: $what: exit $st (want 2), stderr:"; cat "$TMP/r.err"; fails=$((fails + 1))
    fi
}
refuse "one build" "at least two --build" --build A="$RBDIFF" --methods idsva --N 5 --out "$TMP/nothing"
refuse "a build without =" "want LABEL=PATH" --build "$RBDIFF" --build B="$RBDIFF" --methods idsva --N 5
refuse "a label twice" "given twice" --build A="$RBDIFF" --build A="$RBDIFF" --methods idsva --N 5
refuse "a missing program" "nonexistent" --build A="$RBDIFF" --build B="$TMP/nonexistent" --methods idsva --N 5 --out "$TMP/nothing"
refuse "a program that is no rbdiff" "no worker started" --build A="$RBDIFF" --build B=/bin/true --methods idsva --N 5 --out "$TMP/nothing"
refuse "an unknown reference" "not a --build label" --build A="$RBDIFF" --build B="$RBDIFF" --reference C --methods idsva --N 5
refuse "no methods" "methods LIST is required" --build A="$RBDIFF" --build B="$RBDIFF" --N 5
refuse "a bad model" "autotree" --build A="$RBDIFF" --build B="$RBDIFF" --methods idsva --model autotree:N=0 --out "$TMP/nothing"
refuse "a bad threshold" "threshold" --build A="$RBDIFF" --build B="$RBDIFF" --methods idsva --N 5 --threshold -1

if [ $fails -gt 0 ]; then echo "$fails pair checks failed"; exit 1; fi
if [ $skipped -gt 0 ]; then echo "$skipped timed pair checks skipped (too noisy), the rest passed"; exit 77; fi
echo "all pair checks passed"
