# shellcheck shell=bash
# A one-node Slurm cluster on this machine, for tests/cli/slurm.sh (sourced).
# Debian's slurm-wlm and munge; slurmctld and slurmd on localhost with a
# config written into a fresh directory (CLUSTER, under /tmp: the munge
# socket's path must be short), free ports, its own state, spool, pid and
# log files, no cgroups (proctrack/linuxproc, task/none).  cluster_start
# exports SLURM_CONF, which every Slurm command (and job) reads;
# cluster_stop cancels the jobs, stops the three daemons by their pids and
# removes CLUSTER.  cluster_start returns 77 with a reason in CLUSTER_WHY
# when the packages are missing.

CLUSTER=""
CLUSTER_WHY=""

cluster_log() { [ -n "$CLUSTER" ] && tail -n 20 "$CLUSTER"/log/* 2>/dev/null; }

cluster_start() {
    local c
    for c in munged munge slurmctld slurmd sbatch squeue scontrol scancel; do
        command -v "$c" >/dev/null 2>&1 ||
            { CLUSTER_WHY="$c not found: the packages slurm-wlm and munge are not installed (scripts/setup installs them)"; return 77; }
    done
    # the daemons run as whoever runs the test (SlurmUser = SlurmdUser =
    # this user): root or not, slurmd then starts this user's jobs
    CLUSTER=$(mktemp -d /tmp/rbd-slurm.XXXXXX) || { CLUSTER_WHY="mktemp failed"; return 1; }
    chmod 711 "$CLUSTER"    # munged wants the socket's directory searchable by all
    mkdir -p "$CLUSTER/munge" "$CLUSTER/state" "$CLUSTER/spool" "$CLUSTER/log"
    chmod 711 "$CLUSTER/munge"
    dd if=/dev/urandom of="$CLUSTER/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$CLUSTER/munge/munge.key"
    # the daemons run in the foreground as this shell's children: a test
    # killed outright (CTest's timeout) takes them along; cluster_stop ends
    # them by these pids
    munged -F --socket="$CLUSTER/munge/socket" --key-file="$CLUSTER/munge/munge.key" \
        --pid-file="$CLUSTER/munge/munged.pid" --log-file="$CLUSTER/log/munged.log" \
        --seed-file="$CLUSTER/munge/seed" >>"$CLUSTER/log/munged.out" 2>&1 &
    echo $! >"$CLUSTER/munged.pid"
    local t
    for t in $(seq 1 50); do [ -S "$CLUSTER/munge/socket" ] && break; sleep 0.1; done
    [ -S "$CLUSTER/munge/socket" ] || { CLUSTER_WHY="munged did not start: $(tail -n 3 "$CLUSTER/log/munged.log")"; return 1; }
    local ports node ctld_port d_port
    ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
    read -r ctld_port d_port <<<"$ports"
    # the node as slurmd sees it: the real CPU count and memory
    node=$(slurmd -C | head -1)
    local name=${node%% *}
    name=${name#NodeName=}
    cat >"$CLUSTER/slurm.conf" <<EOF
ClusterName=rbdtest
SlurmctldHost=$name(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$CLUSTER/munge/socket
StateSaveLocation=$CLUSTER/state
SlurmdSpoolDir=$CLUSTER/spool
SlurmctldPidFile=$CLUSTER/state/slurmctld.pid
SlurmdPidFile=$CLUSTER/state/slurmd.pid
SlurmctldLogFile=$CLUSTER/log/slurmctld.log
SlurmdLogFile=$CLUSTER/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
KillWait=5
MinJobAge=600
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$name Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$CLUSTER/slurm.conf
    slurmctld -D -i >>"$CLUSTER/log/slurmctld.out" 2>&1 &
    echo $! >"$CLUSTER/slurmctld.pid"
    slurmd -D -N "$name" >>"$CLUSTER/log/slurmd.out" 2>&1 &
    echo $! >"$CLUSTER/slurmd.pid"
    for t in $(seq 1 100); do
        [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && return 0
        sleep 0.2
    done
    CLUSTER_WHY="the node did not come up idle: $(sinfo -h -o '%T %E' 2>&1)"
    return 1
}

cluster_stop() {
    [ -n "$CLUSTER" ] && [ -d "$CLUSTER" ] || return 0
    local f t
    if [ -f "$CLUSTER/slurmctld.pid" ]; then
        scancel --quiet --user="$(id -un)" 2>/dev/null
        for t in $(seq 1 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
    fi
    for f in slurmd.pid slurmctld.pid munged.pid; do
        [ -f "$CLUSTER/$f" ] || continue
        local pid
        pid=$(cat "$CLUSTER/$f")
        kill "$pid" 2>/dev/null
        # gone, or a zombie (our child, not reaped yet)
        for t in $(seq 1 50); do
            [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null || echo gone)" = R ] ||
                [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null || echo gone)" = S ] || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    rm -rf "$CLUSTER"
    CLUSTER=""
}

# job_state ID: Slurm's state of a job or array task (COMPLETED, CANCELLED...)
job_state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }

# job_wait ID SECONDS: until the job has ended (any end state), which it
# leaves in $st.  Not in a $(...) subshell: a signal's trap (cluster_stop)
# then runs within one short sleep.
job_wait() {
    local t
    for t in $(seq 1 $(($2 * 5))); do
        st=$(job_state "$1")
        case "$st" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED|BOOT_FAIL|DEADLINE)
            return 0 ;; esac
        sleep 0.2
    done
    st="${st:-unknown}-after-${2}s"
    return 1
}
