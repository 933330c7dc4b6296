#!/usr/bin/env bash
# The documented GNU parallel path of a distributed sweep (harness/README.md,
# "Distributed sweeps"): one shard of tests/data/shard-sweep.conf per core,
# pinned, then `rbdiff merge`; the merged set must hold every cell exactly
# once and agree with an unsharded run on everything that is not a timing
# (shardcheck.py).  Then, on a slower copy of the config, one shard is killed
# (SIGKILL) mid-run: `--halt now,fail=1` stops the others (SIGTERM: they end
# after the measurement in progress), and the same command run again
# resumes every shard; the merged set is complete and the rows finished
# before the stop are in it unchanged.  Exit 77 (CTest: skipped) with the
# reason when GNU parallel is not installed.
# Usage: parallel.sh RBDIFF SRCDIR TMPDIR
set -u
RBDIFF=$1
SRC=$2
TMP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
if ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
    echo "SKIP: GNU parallel not found: the package parallel is not installed (scripts/setup installs it)"
    exit 77
fi
rm -rf "$TMP"
mkdir -p "$TMP"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
start=$(date +%s)
export RBD_CACHE_DIR=$TMP/cache OPENBLAS_NUM_THREADS=1
CONF=$SRC/tests/data/shard-sweep.conf
n=$(nproc)
"$RBDIFF" sweep --config "$CONF" --out "$TMP/all" >/dev/null 2>"$TMP/err" || { fail "unsharded sweep"; cat "$TMP/err"; }
# the README's command: one shard per core, each pinned to its job slot's core
shards() {   # shards CONF DIR: exit status of parallel
    seq 1 $n | parallel -j$n --halt now,fail=1 --term-seq TERM,60000,KILL,25 \
        "$RBDIFF"' sweep --config '"$1"' --shard {}/'$n' --pin $(({%} - 1)) --out '"$2"'/{}'
}

# ---- 1. one shard per core, merged, compared with the unsharded run
t0=$(date +%s)
shards "$CONF" "$TMP/s" >/dev/null 2>"$TMP/err" || { fail "parallel: status $?"; cat "$TMP/err"; }
"$RBDIFF" merge "$TMP/merged" "$TMP"/s/* >/dev/null 2>"$TMP/err" || { fail "merge"; cat "$TMP/err"; }
python3 "$HERE/shardcheck.py" "$TMP/all" "$TMP/merged" $(printf -- '--shard %s ' "$TMP"/s/*) ||
    fail "the merged set differs from the unsharded run"
echo "$n shards + merge: $(($(date +%s) - t0)) s"

# ---- 2. a shard killed mid-run, --halt stops the rest, the rerun resumes
t0=$(date +%s)
sed 's/^batches = .*/batches = 100/' "$CONF" >"$TMP/slow.conf"
shards "$TMP/slow.conf" "$TMP/s2" >/dev/null 2>"$TMP/err2" &
ppid=$!
victim=""
for t in $(seq 1 300); do
    ok=1
    for k in $(seq 1 "$n"); do [ "$(tail -n +2 "$TMP/s2/$k/timings.csv" 2>/dev/null | wc -l)" -ge 1 ] || ok=0; done
    # shard 1's rbdiff, by the exact command line this test gave it
    victim=$(pgrep -f -x -- "$RBDIFF sweep --config $TMP/slow.conf --shard 1/$n --pin [0-9]+ --out $TMP/s2/1")
    [ "$ok" = 1 ] && [ -n "$victim" ] && break
    sleep 0.1
done
if [ -n "$victim" ]; then kill -KILL "$victim"; else fail "shard 1 of the slow run was not found running"; fi
wait "$ppid"
st=$?
[ "$st" != 0 ] || fail "parallel succeeded although shard 1 was killed"
for k in $(seq 1 "$n"); do cp "$TMP/s2/$k/timings.csv" "$TMP/kept$k.csv"; done
total=$(($(cat "$TMP"/kept*.csv | grep -vc '^method,')))
[ "$total" -lt "$(($(wc -l <"$TMP/all/timings.csv") - 1))" ] || fail "the kill came too late: every row was on disk"
# --halt stopped the other shards: none of them runs on
[ -z "$(pgrep -f -- "--out $TMP/s2/")" ] || fail "a shard still runs after parallel halted"
shards "$TMP/slow.conf" "$TMP/s2" >/dev/null 2>"$TMP/err3" || { fail "the rerun: status $?"; cat "$TMP/err3"; }
# every shard was stopped mid-run and resumed: it kept rows and measured the rest
resumed=$(grep -cE "rbdiff sweep: [1-9][0-9]* measured, [1-9][0-9]* already present" "$TMP/err3")
[ "$resumed" = "$n" ] || { fail "$resumed of $n shards resumed (kept rows and measured the rest)"; cat "$TMP/err3"; }
"$RBDIFF" merge "$TMP/merged2" "$TMP"/s2/* >/dev/null 2>"$TMP/err" || { fail "merge after the rerun"; cat "$TMP/err"; }
keep=()
for k in $(seq 1 "$n"); do keep+=(--keep "$TMP/kept$k.csv"); done
python3 "$HERE/shardcheck.py" "$TMP/all" "$TMP/merged2" "${keep[@]}" --skip batches $(printf -- '--shard %s ' "$TMP"/s2/*) ||
    fail "after the kill and the rerun the merged set is incomplete or lost rows"
echo "kill + --halt + rerun: $(($(date +%s) - t0)) s ($total rows kept over the stop)"
echo "parallel test: $(($(date +%s) - start)) s in all"
[ "$fails" -eq 0 ] && echo "parallel checks passed"
[ "$fails" -eq 0 ]
