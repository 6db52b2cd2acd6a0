#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying arena-array.sbatch
# and for the test tests/tournament/slurm_cluster.rs. Not for production: no
# accounting, no cgroups, every job runs as the submitting user on this host.
#
#   deploy/slurm/local-cluster.sh start STATE_DIR   # prints the slurm.conf path
#   SLURM_CONF=STATE_DIR/slurm.conf sbatch ...       # use it
#   deploy/slurm/local-cluster.sh stop STATE_DIR
#
# start installs slurm-wlm and munge (apt-get, as root) when missing, starts
# munged as the munge user unless one already answers, then slurmctld and
# slurmd with STATE_DIR/slurm.conf, and waits until the node is idle. It
# records the process ids it started in STATE_DIR/pids; stop ends exactly
# those (and nothing else), so a munged that was already running is left
# alone. Ports: SLURMCTLD_PORT (default 6817) and SLURMD_PORT (default 6818).
#
# Why these settings (there is no systemd and no cgroup setup on a plain
# container or CI machine): ProctrackType=proctrack/linuxproc and
# TaskPlugin=task/none keep every cgroup plugin out; no accounting, so no
# slurmdbd (there is no sacct: ask `scontrol show job`);
# batch_sched_delay=0,sched_min_interval=0 start array tasks at once instead
# of one every few seconds.
set -euo pipefail

usage() {
    echo "usage: $0 start|stop|status STATE_DIR" >&2
    exit 2
}
(($# == 2)) || usage
action=$1
state=$(mkdir -p "$2" && cd "$2" && pwd)
conf=$state/slurm.conf
pids=$state/pids

die() {
    echo "local-cluster: $*" >&2
    exit 1
}

install_missing() {
    local missing=()
    command -v slurmctld >/dev/null || missing+=(slurm-wlm)
    command -v munged >/dev/null || missing+=(munge)
    ((${#missing[@]})) || return 0
    [[ $(id -u) == 0 ]] || die "needs ${missing[*]} and root to install them"
    command -v apt-get >/dev/null || die "needs ${missing[*]} (no apt-get to install them)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

munge_answers() {
    munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1
}

start_munge() {
    if munge_answers; then
        return 0
    fi
    [[ -r /etc/munge/munge.key ]] || die "no /etc/munge/munge.key (create it with mungekey as root)"
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    chmod 0755 /run/munge
    runuser -u munge -- /usr/sbin/munged
    local pid
    for _ in $(seq 50); do
        if munge_answers && [[ -s /run/munge/munged.pid ]]; then
            pid=$(cat /run/munge/munged.pid)
            echo "$pid munged" >>"$pids"
            return 0
        fi
        sleep 0.1
    done
    die "munged did not start (see /var/log/munge/munged.log)"
}

write_conf() {
    local host cpus
    host=$(hostname -s)
    cpus=$(nproc)
    mkdir -p "$state/ctld" "$state/spool"
    cat >"$conf" <<EOF
ClusterName=arena-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
ReturnToService=2
MinJobAge=600
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

# Starts a daemon in the foreground (-D) in the background, so that its
# process id is known, and records it.
start_daemon() {
    local name=$1
    shift
    setsid "$@" </dev/null >>"$state/$name.out" 2>&1 &
    echo "$! $name" >>"$pids"
}

wait_idle() {
    local node
    node=$(hostname -s)
    for _ in $(seq 150); do
        if SLURM_CONF=$conf sinfo -h -n "$node" -o %T 2>/dev/null | grep -qx idle; then
            return 0
        fi
        sleep 0.2
    done
    echo "--- slurmctld.log" >&2
    tail -n 20 "$state/slurmctld.log" >&2 || true
    echo "--- slurmd.log" >&2
    tail -n 20 "$state/slurmd.log" >&2 || true
    echo "local-cluster: the node did not become idle in 30 s" >&2
    return 1
}

# The recorded processes that still run, as "PID NAME" (a recorded id now
# used by another program is left out).
recorded() {
    [[ -f $pids ]] || return 0
    local pid name
    while read -r pid name; do
        if [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "$name"; then
            echo "$pid $name"
        fi
    done <"$pids"
}

stop() {
    local pid name left
    while read -r pid name; do
        kill -TERM "$pid" 2>/dev/null || true
    done < <(recorded)
    for _ in $(seq 50); do
        left=$(recorded)
        [[ -z $left ]] && break
        sleep 0.1
    done
    while read -r pid name; do
        [[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null || true
    done < <(recorded)
    rm -f "$pids"
}

case $action in
start)
    [[ -n $(recorded) ]] && die "a cluster from $state is running; stop it first"
    rm -f "$pids"
    install_missing
    [[ $(id -u) == 0 ]] || die "start it as root (the daemons run as root and munged as munge)"
    start_munge
    write_conf
    start_daemon slurmctld slurmctld -D -c -f "$conf"
    start_daemon slurmd slurmd -D -f "$conf"
    if ! wait_idle; then
        stop
        exit 1
    fi
    echo "$conf"
    ;;
stop)
    stop
    ;;
status)
    recorded
    ;;
*)
    usage
    ;;
esac
