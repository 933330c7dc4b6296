#!/usr/bin/env bash
# rbdiff compare's exit status: 0 for a run against itself, 1 and a
# REGRESSION mark for a 3x slow-down.  (The bad-input contract of every
# command lives in tests/catalog/.)  Usage: compare.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
rm -rf "$TMP"
mkdir -p "$TMP"
fails=0
n=0

# expect STATUS PATTERN -- command...: the command's status must be STATUS
# and its stderr must contain PATTERN (fixed string).
expect() {
    local want=$1 pat=$2
    shift 3
    n=$((n + 1))
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" != "$want" ] || { [ -n "$pat" ] && ! grep -qF -- "$pat" "$TMP/err"; }; then
        echo "FAIL: $*"
        echo "  want status $want and stderr containing: $pat"
        echo "  got status $got, stderr:"
        sed 's/^/    /' "$TMP/err"
        fails=$((fails + 1))
    fi
}

# compare: a regression is exit status 1, the same run against itself 0
"$RBDIFF" sweep --N 1,2 --batches 3 --batch-ms 1 --warmup-ms 0 --counters no --out "$TMP/base" >/dev/null 2>&1
n=$((n + 1))
if ! "$RBDIFF" compare "$TMP/base" "$TMP/base" >/dev/null 2>&1; then echo "FAIL: compare of a run with itself"; fails=$((fails + 1)); fi
# a slowed copy: every time x3 (same rows otherwise)
mkdir -p "$TMP/slow"
python3 - "$TMP/base/timings.csv" "$TMP/slow/timings.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
w = csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n")
w.writerow(rows[0])
for r in rows[1:]:
    for k in range(6, 11):
        r[k] = "%.6g" % (3 * float(r[k]))
    w.writerow(r)
PY
expect 1 "" -- "$RBDIFF" compare "$TMP/base" "$TMP/slow"
n=$((n + 1))
if ! grep -q REGRESSION "$TMP/out"; then echo "FAIL: compare did not mark a 3x slow-down as REGRESSION"; fails=$((fails + 1)); fi

echo "$n checks, $fails failed"
[ "$fails" -eq 0 ]
