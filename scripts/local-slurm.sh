#!/usr/bin/env bash
# A real single-node Slurm on localhost, for the Slurm features' tests (schedlab sweep --slurm, convert --from
# sacct): munge, MariaDB, slurmdbd, slurmctld and slurmd from the Debian packages (scripts/bootstrap.sh), without
# systemd, everything under one directory, loopback only.
#
#   eval "$(scripts/local-slurm.sh up)"    # starts it (5-15 s) and prints the `export SLURM_CONF=...` a shell needs
#   scripts/local-slurm.sh reset-ids       # restarts slurmctld without its state: job ids are given again from the first
#   scripts/local-slurm.sh down            # stops the processes it started (by their pid) and removes the directory
#
# The directory is $SCHEDLAB_SLURM_DIR (default /tmp/schedlab-slurm). Needs root (SlurmUser=root, as on these
# machines). One node named after `hostname`, which must resolve to 127.0.0.1, with its CPUs; a partition "debug".
# Ports 16817-16819 unless SCHEDLAB_SLURM_PORT (the first of three) is set.
set -euo pipefail
dir=${SCHEDLAB_SLURM_DIR:-/tmp/schedlab-slurm}
port=${SCHEDLAB_SLURM_PORT:-16817}
cmd=${1:-}

log() { echo "local-slurm: $*" >&2; }

stop_all() {
  for p in slurmd slurmctld slurmdbd mariadbd munged; do
    f="$dir/run/$p.pid"
    if [ -f "$f" ]; then
      pid=$(cat "$f")
      if kill "$pid" 2>/dev/null; then
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
      fi
      rm -f "$f"
    fi
  done
  if [ -L /run/mysqld/mysqld.sock ] && [ "$(readlink /run/mysqld/mysqld.sock)" = "$dir/run/mysqld.sock" ]; then
    rm -f /run/mysqld/mysqld.sock
  fi
}

wait_for() {  # wait_for WHAT SECONDS COMMAND...
  local what=$1 secs=$2; shift 2
  for _ in $(seq $((secs * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  log "$what did not come up in $secs s; logs in $dir/log"
  tail -n 20 "$dir"/log/*.log >&2 || true
  return 1
}

case "$cmd" in
up)
  [ "$(id -u)" = 0 ] || { log "needs root (SlurmUser=root)"; exit 1; }
  for b in munged mariadbd mariadb-install-db slurmdbd slurmctld slurmd sacctmgr; do
    command -v "$b" >/dev/null || { log "$b is missing: run scripts/bootstrap.sh"; exit 1; }
  done
  host=$(hostname)
  case "$(getent hosts "$host" | awk '{print $1; exit}')" in
    127.*) ;;
    *) log "the host name $host must resolve to 127.0.0.1 (add '127.0.0.1 $host' to /etc/hosts)"; exit 1 ;;
  esac
  [ -d "$dir" ] && stop_all
  rm -rf "$dir"
  mkdir -p "$dir"/{munge,db,run,log,spool/ctld,spool/d,state}
  chmod 755 "$dir" "$dir/munge"

  # munge: its own key and socket (the socket's directory must be 755).
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"
  wait_for munged 10 test -S "$dir/munge/munge.socket"

  # MariaDB on a socket only; slurmdbd finds it at /run/mysqld/mysqld.sock.
  mariadb-install-db --datadir="$dir/db" --user=root --auth-root-authentication-method=normal >"$dir/log/mariadb-install.log" 2>&1
  mariadbd --datadir="$dir/db" --user=root --skip-networking --socket="$dir/run/mysqld.sock" \
    --pid-file="$dir/run/mariadbd.pid" --log-error="$dir/log/mariadb.log" >/dev/null 2>&1 &
  wait_for mariadb 30 test -S "$dir/run/mysqld.sock"
  mkdir -p /run/mysqld
  ln -sfn "$dir/run/mysqld.sock" /run/mysqld/mysqld.sock
  wait_for mariadb 30 mariadb -S "$dir/run/mysqld.sock" -e "select 1"
  mariadb -S "$dir/run/mysqld.sock" -e "create user if not exists 'slurm'@'localhost' identified by 'slurm';
    grant all on slurm_acct_db.* to 'slurm'@'localhost'; flush privileges;"

  cpus=$(nproc)
  cat >"$dir/slurm.conf" <<EOF
ClusterName=schedlab
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$((port + 1))
SlurmdPort=$((port + 2))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/d
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$port
AccountingStoragePass=$dir/munge/munge.socket
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  cat >"$dir/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
DbdHost=$host
DbdAddr=127.0.0.1
DbdPort=$port
SlurmUser=root
CommunicationParameters=NoInAddrAny
PidFile=$dir/run/slurmdbd.pid
LogFile=$dir/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=slurm
StorageLoc=slurm_acct_db
EOF
  chmod 600 "$dir/slurmdbd.conf"
  export SLURM_CONF="$dir/slurm.conf"
  slurmdbd
  wait_for slurmdbd 30 sacctmgr -n list cluster
  sacctmgr -i add cluster schedlab >/dev/null 2>&1 || true
  slurmctld -i
  wait_for slurmctld 30 scontrol ping
  slurmd
  wait_for "the node" 30 bash -c "sinfo -h -o %t | grep -qx idle"
  log "up in $dir ($cpus CPUs on $host)"
  echo "export SLURM_CONF=$dir/slurm.conf"
  ;;
reset-ids)
  # slurmctld (and slurmd) restarted without the saved state: job ids start from the first again while the
  # accounting keeps the earlier jobs, as after a lost state or a cycled id range (MaxJobId). For the test of
  # sacct's rows of a JobID given again.
  export SLURM_CONF="$dir/slurm.conf"
  for p in slurmd slurmctld; do
    pid=$(cat "$dir/run/$p.pid")
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$dir/run/$p.pid"
  done
  rm -rf "${dir:?}"/state/* "$dir"/spool/d/*
  slurmctld -i
  wait_for slurmctld 30 scontrol ping
  slurmd
  wait_for "the node" 60 bash -c "sinfo -h -o %t | grep -qx idle"
  ;;
down)
  stop_all
  rm -rf "$dir"
  ;;
*)
  echo "usage: eval \"\$(scripts/local-slurm.sh up)\" | scripts/local-slurm.sh reset-ids | scripts/local-slurm.sh down" >&2
  exit 2
  ;;
esac
