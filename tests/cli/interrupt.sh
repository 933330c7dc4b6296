#!/usr/bin/env bash
# Interruption and resumption of `rbdiff sweep` (issue 9): a sweep killed
# with SIGINT and with SIGKILL in the middle keeps every finished row on disk
# and valid; a rerun into the same directory completes the set without
# measuring a finished row again (its line stays byte for byte), and a line
# cut short by a kill is dropped and measured again.
# Usage: interrupt.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
n=0
check() { n=$((n + 1)); if ! eval "$1"; then fail "$2"; fi; }

# Every registered method and the base algorithms, 5 small models: a few
# seconds in all, each row a few ms.
SWEEP=(sweep --N 1:5 --bf 1 --batches 3 --batch-ms 4 --warmup-ms 0 --pool 4 --counters no)

# rows DIR: validates timings.csv against its own header (the columns named
# below must be there; every row has as many fields as the header, a
# non-empty key, whole numbers >= 1 and finite times >= 0, no duplicate key);
# prints the number of data rows, or exits 1 naming the bad line.
rows() {
    python3 - "$1/timings.csv" <<'PY'
import csv, math, sys
text = open(sys.argv[1], newline="").read()
if not text.endswith("\n"):
    print("last line has no newline (cut short)", file=sys.stderr); sys.exit(1)
rows = list(csv.reader(text[:-1].split("\n")))
head = rows[0]
need_int = ["N", "nv", "batches", "calls_per_batch"]
need_num = ["median_ns", "min_ns", "q1_ns", "q3_ns", "iqr_ns"]
if head[:3] != ["method", "kind", "model"] or any(c not in head for c in need_int + need_num):
    print("bad header", head, file=sys.stderr); sys.exit(1)
seen = set()
for k, r in enumerate(rows[1:], 2):
    ok = len(r) == len(head) and all(r[:3])
    try:
        ok = ok and all(int(r[head.index(c)]) >= 1 for c in need_int)
        ok = ok and all(math.isfinite(float(r[head.index(c)])) and float(r[head.index(c)]) >= 0 for c in need_num)
    except ValueError:
        ok = False
    if not ok or tuple(r[:3]) in seen:
        print("line %d invalid or duplicate: %s" % (k, r), file=sys.stderr); sys.exit(1)
    seen.add(tuple(r[:3]))
print(len(rows) - 1)
PY
}

# The complete set, uninterrupted.
"$RBDIFF" "${SWEEP[@]}" --out "$TMP/full" >/dev/null 2>"$TMP/full.err"
check '[ $? = 0 ]' "the uninterrupted sweep failed: $(cat "$TMP/full.err")"
total=$(rows "$TMP/full") || { fail "reference run: invalid timings.csv"; total=0; }
check '[ "$total" -ge 16 ]' "the reference sweep has only $total rows"
keys() { python3 -c 'import csv,sys; print("\n".join(sorted("|".join(r[:3]) for r in list(csv.reader(open(sys.argv[1])))[1:])))' "$1/timings.csv"; }

# start_and_kill SIGNAL DIR: starts the sweep, waits for >= 3 rows, sends
# SIGNAL; sets status and seen (rows on disk just before the signal).
start_and_kill() {
    local sig=$1 dir=$2
    "$RBDIFF" "${SWEEP[@]}" --out "$dir" >/dev/null 2>"$dir.err" &
    local pid=$! t=0
    seen=0
    while [ $t -lt 600 ]; do
        if [ -f "$dir/timings.csv" ]; then
            seen=$(($(wc -l <"$dir/timings.csv") - 1))
            [ "$seen" -ge 3 ] && break
        fi
        sleep 0.01
        t=$((t + 1))
    done
    kill -s "$sig" $pid
    wait $pid
    status=$?
}

for sig in INT KILL; do
    dir=$TMP/$sig
    start_and_kill $sig "$dir"
    if [ $sig = INT ]; then
        check '[ $status = 130 ]' "SIGINT: exit status $status, want 130"
        check 'grep -q "interrupted; every finished row is in" "$dir.err"' "SIGINT: no 'interrupted' message: $(cat "$dir.err")"
    else
        check '[ $status = 137 ]' "SIGKILL: exit status $status, want 137"
    fi
    got=$(rows "$dir") || { fail "$sig: timings.csv invalid after the kill"; got=0; }
    check '[ "$got" -ge "$seen" ] && [ "$got" -lt "$total" ]' \
        "$sig: $got rows on disk after the kill ($seen seen before it, $total in all): not in the middle"
    if [ $sig = KILL ]; then
        # a kill in the middle of a write: the last line cut short
        printf 'aba,base,"autotree:N=9,bf=1' >>"$dir/timings.csv"
    fi
    cp "$dir/timings.csv" "$dir.before"
    "$RBDIFF" "${SWEEP[@]}" --out "$dir" >/dev/null 2>"$dir.err2"
    check '[ $? = 0 ]' "$sig: the rerun failed: $(cat "$dir.err2")"
    check 'grep -q "$((total - got)) measured, $got already present, $total rows" "$dir.err2"' \
        "$sig: the rerun did not measure exactly the $((total - got)) missing rows: $(cat "$dir.err2")"
    if [ $sig = KILL ]; then
        check 'grep -q "dropped a truncated line" "$dir.err2"' "SIGKILL: the cut line was not reported as dropped"
        head -n $((got + 1)) "$dir.before" >"$dir.before.whole"
        mv "$dir.before.whole" "$dir.before"
    fi
    final=$(rows "$dir") || { fail "$sig: timings.csv invalid after the rerun"; final=0; }
    check '[ "$final" = "$total" ]' "$sig: $final rows after the rerun, want $total"
    check 'cmp -s "$dir.before" <(head -c "$(wc -c <"$dir.before")" "$dir/timings.csv")' \
        "$sig: the rows finished before the kill changed in the rerun"
    check '[ "$(keys "$dir")" = "$(keys "$TMP/full")" ]' "$sig: the resumed set differs from the uninterrupted one"
    check 'python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$dir/meta.json"' "$sig: meta.json is not valid JSON"
    check '[ -z "$(find "$dir" -name "*.tmp*")" ]' "$sig: a temporary file was left in $dir"
done

echo "$n checks, $fails failed"
[ "$fails" -eq 0 ]
