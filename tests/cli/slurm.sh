#!/usr/bin/env bash
# The documented Slurm path of a distributed sweep (harness/README.md,
# "Distributed sweeps") on a real one-node cluster (slurmcluster.sh):
# scripts/run-slurm submits scripts/sweep.sbatch as a 4-task array of
# tests/data/shard-sweep.conf and the merge job; the merged set must hold
# every cell exactly once and agree with an unsharded run of the same config
# on everything that is not a timing (shardcheck.py).  Then, on a slower
# copy of the config, one array task is cancelled (scancel) mid-run and
# requeued (scontrol requeue, and run-slurm --merge-after for the merge):
# the merged set is complete again and the rows the task had finished
# before the cancel are in it unchanged.  The cluster is stopped and its
# files removed on every exit.  Exit 77 (CTest: skipped) with the reason
# when slurm-wlm/munge are missing.  Runs as root or as any user (the
# daemons run as that user; tried as root and as nobody).
# Usage: slurm.sh RBDIFF SRCDIR TMPDIR
set -u
RBDIFF=$1
SRC=$2
TMP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/slurmcluster.sh"
rm -rf "$TMP"
mkdir -p "$TMP"
trap cluster_stop EXIT
trap 'exit 130' INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
start=$(date +%s)

cluster_start
rc=$?
if [ $rc = 77 ]; then echo "SKIP: no Slurm cluster: $CLUSTER_WHY"; exit 77; fi
if [ $rc != 0 ]; then echo "FAIL: the Slurm cluster did not come up: $CLUSTER_WHY"; cluster_log; exit 1; fi
echo "cluster up in $(($(date +%s) - start)) s: $(sinfo -h -o '%n %c CPUs %m MB %T')"

export RBD_CACHE_DIR=$TMP/cache OPENBLAS_NUM_THREADS=1 RBD_BIN=$RBDIFF
CONF=$SRC/tests/data/shard-sweep.conf
"$RBDIFF" sweep --config "$CONF" --out "$TMP/all" >/dev/null 2>"$TMP/err" || { fail "unsharded sweep"; cat "$TMP/err"; }
submit() {   # submit OUT CONF: run-slurm as documented; sets jid, mid
    "$SRC/scripts/run-slurm" --no-build --config "$2" --shards 4 --out "$1" >"$TMP/submit" 2>&1 ||
        { fail "run-slurm"; cat "$TMP/submit"; return 1; }
    jid=$(awk '$1 == "array" { print $2 }' "$TMP/submit")
    mid=$(awk '$1 == "merge" { print $2 }' "$TMP/submit")
}
logs() { tail -n 5 "$1"-shards/slurm-*.out 2>/dev/null; }

# ---- 1. the array, the merge, the comparison with the unsharded run
t0=$(date +%s)
if submit "$TMP/merged" "$CONF"; then
    job_wait "$mid" 120
    [ "$st" = COMPLETED ] || { fail "merge job $mid: $st"; logs "$TMP/merged"; cluster_log; }
    for k in 1 2 3 4; do
        s=$(job_state "${jid}_$k")
        [ "$s" = COMPLETED ] || fail "array task ${jid}_$k: $s"
        grep -q "\"shard\": \"$k/4\"" "$TMP/merged-shards/$k/meta.json" 2>/dev/null || fail "shard $k: meta.json does not say $k/4"
    done
    python3 "$HERE/shardcheck.py" "$TMP/all" "$TMP/merged" $(printf -- '--shard %s ' "$TMP"/merged-shards/[1-4]) ||
        fail "the merged set differs from the unsharded run"
    [ "$(grep -c '"shard": "[1-4]/4"' "$TMP/merged/meta.json")" = 4 ] || fail "merged meta.json does not list the 4 shards"
    echo "array of 4 + merge: $(($(date +%s) - t0)) s"
fi

# ---- 2. one task cancelled mid-run and requeued
t0=$(date +%s)
sed 's/^batches = .*/batches = 100/; s/^name = .*/name = shard-test-slow/' "$CONF" >"$TMP/slow.conf"
if submit "$TMP/merged2" "$TMP/slow.conf"; then
    shard=$TMP/merged2-shards/1
    # mid-run: the task running, with at least one finished row on disk
    for t in $(seq 1 300); do
        [ "$(tail -n +2 "$shard/timings.csv" 2>/dev/null | wc -l)" -ge 1 ] && break
        sleep 0.1
    done
    [ "$(job_state "${jid}_1")" = RUNNING ] || fail "task ${jid}_1 is $(job_state "${jid}_1"), not running, when cancelled"
    scancel "${jid}_1"
    job_wait "${jid}_1" 60
    [ "$st" = CANCELLED ] || fail "cancelled task ${jid}_1: $st"
    cp "$shard/timings.csv" "$TMP/kept.csv"
    kept=$(($(wc -l <"$TMP/kept.csv") - 1))
    [ "$kept" -ge 1 ] && [ "$kept" -lt 6 ] ||
        fail "the cancel did not stop shard 1 mid-run ($kept of its 6 rows on disk)"
    # the merge job depended on every task succeeding: cancelled with it
    job_wait "$mid" 30
    [ "$st" = CANCELLED ] || fail "the first merge job is $st after a task was cancelled (want CANCELLED)"
    [ ! -e "$TMP/merged2/timings.csv" ] || fail "a merge ran without shard 1"
    scontrol requeue "${jid}_1" || fail "scontrol requeue ${jid}_1"
    # Slurm holds a requeued job ~2 minutes before it is eligible; not here
    scontrol update jobid="${jid}_1" StartTime=now || fail "scontrol update StartTime"
    "$SRC/scripts/run-slurm" --merge-after "${jid}_1" --config "$TMP/slow.conf" --shards 4 \
        --out "$TMP/merged2" >"$TMP/submit" 2>&1 || { fail "run-slurm --merge-after"; cat "$TMP/submit"; }
    mid=$(awk '$1 == "merge" { print $2 }' "$TMP/submit")
    job_wait "$mid" 120
    [ "$st" = COMPLETED ] || { fail "second merge job $mid: $st"; logs "$TMP/merged2"; cluster_log; }
    [ "$(job_state "${jid}_1")" = COMPLETED ] || fail "requeued task ${jid}_1: $(job_state "${jid}_1")"
    grep -q "already present" "$TMP/merged2-shards/slurm-${jid}_1.out" ||
        fail "the requeued task did not resume (its log: $(tail -n 3 "$TMP/merged2-shards/slurm-${jid}_1.out"))"
    python3 "$HERE/shardcheck.py" "$TMP/all" "$TMP/merged2" --keep "$TMP/kept.csv" --skip batches \
        $(printf -- '--shard %s ' "$TMP"/merged2-shards/[1-4]) ||
        fail "after the cancel and requeue the merged set is incomplete or lost rows"
    echo "cancel + requeue: $(($(date +%s) - t0)) s ($kept rows of shard 1 kept)"
fi

echo "slurm test: $(($(date +%s) - start)) s in all"
[ "$fails" -eq 0 ] && echo "slurm checks passed"
[ "$fails" -eq 0 ]
