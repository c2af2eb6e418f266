#!/bin/bash
# A one-node Slurm cluster on this machine, for trying scripts/slurm/tune.sbatch without a
# cluster: no systemd, everything (config, state, logs, pid files) in one folder.
#
#   sudo scripts/slurm/setup_local_slurm.sh install    # Debian/Ubuntu: slurmctld slurmd munge
#   sudo scripts/slurm/setup_local_slurm.sh start DIR  # writes DIR/slurm.conf, starts the daemons
#   export SLURM_CONF=DIR/slurm.conf                   # then sbatch, srun, squeue, scontrol work
#   sudo scripts/slurm/setup_local_slurm.sh stop DIR   # stops the daemons this script started
#
# Needs root (slurmd starts jobs as their users; munged needs its key). The node is this
# machine, declared with twice its cores (at least 4: `config_overrides` lets slurmd accept
# that), so that a 3-island run with --cpus-per-task=1 fits on a two-core machine; the islands
# then share the real cores.
set -euo pipefail

command=${1:?usage: setup_local_slurm.sh install | start DIR | stop DIR}

case $command in
install)
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge
    ;;
start)
    dir=$(realpath -m "${2:?start needs a folder}")
    mkdir -p "$dir/state" "$dir/spool" "$dir/log"
    host=$(hostname -s)
    cpus=$(( $(nproc) * 2 > 4 ? $(nproc) * 2 : 4 ))
    memory=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
    cat > "$dir/slurm.conf" <<CONF
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
# No cgroups: a container or a plain VM has what these need.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdParameters=config_overrides
JobRequeue=1
SchedulerType=sched/builtin
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
    # munged: the packaged key, its own runtime folder, run as the munge user.
    if ! munge -n > /dev/null 2>&1; then
        mkdir -p /run/munge && chown munge:munge /run/munge
        runuser -u munge -- /usr/sbin/munged
        echo started > "$dir/munged.started"
    fi
    /usr/sbin/slurmctld -f "$dir/slurm.conf"
    /usr/sbin/slurmd -f "$dir/slurm.conf"
    export SLURM_CONF=$dir/slurm.conf
    for _ in $(seq 1 50); do
        if sinfo -h -o %t 2> /dev/null | grep -qx idle; then
            break
        fi
        sleep 0.2
    done
    sinfo
    echo "export SLURM_CONF=$dir/slurm.conf"
    ;;
stop)
    dir=$(realpath -m "${2:?stop needs a folder}")
    for daemon in slurmd slurmctld; do
        if [[ -f $dir/$daemon.pid ]]; then
            kill "$(cat "$dir/$daemon.pid")" 2> /dev/null || true
        fi
    done
    if [[ -f $dir/munged.started ]]; then
        kill "$(cat /run/munge/munged.pid)" 2> /dev/null || true
        rm -f "$dir/munged.started"
    fi
    ;;
*)
    echo "usage: setup_local_slurm.sh install | start DIR | stop DIR" >&2
    exit 2
    ;;
esac
