#!/usr/bin/env bash
# CLI contract of rbdiff for bad input: exit status, and a message on stderr
# of the form "rbdiff <cmd>: ..." that names the offending file/line/field or
# value.  Usage: errors.sh RBDIFF TMPDIR
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

# nothing at PATH after a refused command
absent() {
    n=$((n + 1))
    if [ -e "$1" ]; then echo "FAIL: $1 exists after a refused command"; fails=$((fails + 1)); fi
}

expect 2 "rbdiff: unknown command 'frobnicate' (valid: methods, models, eval" -- "$RBDIFF" frobnicate
expect 2 "Usage: rbdiff" -- "$RBDIFF"
expect 2 "rbdiff sweep: unknown option '--bogus'" -- "$RBDIFF" sweep --bogus 1
expect 2 "rbdiff eval: option '--model' needs a value" -- "$RBDIFF" eval rnea --model

# unknown method names list the valid ones
expect 2 "rbdiff eval: unknown method 'nosuch' (valid: " -- "$RBDIFF" eval nosuch --model autotree:N=3 --state /dev/null
expect 2 "rnea" -- "$RBDIFF" eval nosuch --model autotree:N=3 --state /dev/null
expect 2 "rbdiff time: --methods: methods: unknown method 'idsvaa' (valid: " -- "$RBDIFF" time --N 3 --methods idsvaa
expect 2 "rbdiff crossover: unknown method 'foo'" -- "$RBDIFF" crossover foo bar

# bad model specs
expect 2 "rbdiff models: model spec 'autotree:N=3,foo=1': unknown key 'foo'" -- "$RBDIFF" models describe autotree:N=3,foo=1
expect 2 "rbdiff models: model spec 'nonsense': unknown kind" -- "$RBDIFF" models describe nonsense
expect 2 "rbdiff sweep: --model: model: 'bogus:1' is not a model spec" -- "$RBDIFF" sweep --model bogus:1 --out "$TMP/r0"
absent "$TMP/r0"

# N < 1, bf < 1: refused before anything is written
expect 2 "rbdiff sweep: --N: N: 0 is out of range (N >= 1)" -- "$RBDIFF" sweep --N 0 --out "$TMP/r1"
absent "$TMP/r1"
expect 2 "rbdiff sweep: --bf: bf: 0.5 is out of range (bf >= 1)" -- "$RBDIFF" sweep --N 3 --bf 0.5 --out "$TMP/r2"
absent "$TMP/r2"
expect 2 "rbdiff time: --N: N: 'ten' is not a whole number" -- "$RBDIFF" time --N ten

# config files: unreadable, unknown key, bad value (file:line)
expect 1 "rbdiff sweep: $TMP/missing.conf: cannot read config: No such file or directory" -- \
    "$RBDIFF" sweep --config "$TMP/missing.conf" --out "$TMP/r3"
absent "$TMP/r3"
printf 'N = 1, 2\nbogus = 3\n' >"$TMP/bad1.conf"
expect 2 "rbdiff sweep: $TMP/bad1.conf:2: unknown key 'bogus' (valid: name, methods" -- \
    "$RBDIFF" sweep --config "$TMP/bad1.conf" --out "$TMP/r4"
absent "$TMP/r4"
printf '# a sweep\nbf = 1, 2\n\nN = 5, 0\n' >"$TMP/bad2.conf"
expect 2 "rbdiff sweep: $TMP/bad2.conf:4: N: 0 is out of range (N >= 1)" -- \
    "$RBDIFF" sweep --config "$TMP/bad2.conf" --out "$TMP/r5"
absent "$TMP/r5"

# unwritable results directory (a path under a regular file)
touch "$TMP/plainfile"
expect 1 "rbdiff sweep: cannot create directory '$TMP/plainfile': a file of that name exists" -- \
    "$RBDIFF" sweep --N 1 --batches 1 --batch-ms 0.1 --warmup-ms 0 --out "$TMP/plainfile/sub"
absent "$TMP/plainfile/sub"

# eval: state file with a vector of the wrong length names file:line and field
printf '# state\nq 0.1 0.2\nv 0 0 0\na 0 0 0\n' >"$TMP/short.state"
expect 1 "rbdiff eval: $TMP/short.state:2: field 'q' has 2 values, the model needs 3 (nq = 3)" -- \
    "$RBDIFF" eval rnea --model autotree:N=3 --state "$TMP/short.state"
printf 'q 0.1 0.2 0.3\nv 0 0 0\n' >"$TMP/noa.state"
expect 1 "rbdiff eval: $TMP/noa.state: field 'a' is missing" -- \
    "$RBDIFF" eval rnea --model autotree:N=3 --state "$TMP/noa.state"

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
