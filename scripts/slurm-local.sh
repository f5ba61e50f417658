#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying scripts/slurm-experiment.sh without a
# cluster (and for its test): Debian's munge, slurmctld and slurmd (scripts/install-deps.sh --test
# installs them), run as root with a configuration of their own in DIR, on ports of their own.
#
#   sudo scripts/slurm-local.sh start DIR     starts it; prints the SLURM_CONF line to export
#   sudo scripts/slurm-local.sh stop DIR      stops it and removes DIR
#
#   eval "$(sudo scripts/slurm-local.sh start /tmp/slurm-boids)"
#   scripts/slurm-experiment.sh --wait 4 ages scenarios/kit.ini --runs 100 --backend cpu
#   sudo scripts/slurm-local.sh stop /tmp/slurm-boids
#
# Exits 2 with a reason where the daemons cannot start (not root, not installed, a port taken).
set -euo pipefail
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# = 2 ] || { usage >&2; exit 2; }
action=$1 dir=$2
fail() { echo "$0: $*" >&2; exit 2; }

stop() {
  export SLURM_CONF="$dir/slurm.conf"
  if [ -f "$dir/run/slurmctld.pid" ]; then
    timeout 10 scontrol shutdown >/dev/null 2>&1 || true
    sleep 1
  fi
  for f in "$dir/munged.pid" "$dir"/run/*.pid; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  rm -rf "$dir"
}

case "$action" in
  stop) [ -f "$dir/slurm.conf" ] || fail "$dir holds no cluster of this script's"; stop; exit 0 ;;
  start) ;;
  *) usage >&2; exit 2 ;;
esac
for p in munged mungekey slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$p" >/dev/null ||
    fail "$p is not installed (scripts/install-deps.sh --test installs Slurm and munge)"
done
[ "$(id -u)" = 0 ] || fail "the daemons run as root here: run it with sudo"
[ -e "$dir" ] && fail "$dir exists already: choose a new directory"
mkdir -p "$dir/state" "$dir/spool" "$dir/run"
chmod 755 "$dir" # munged wants its socket's directories open to all
up=$(cd "$dir/.." && pwd)
while [ "$up" != / ]; do # and every directory above it (mktemp -d makes a closed one)
  [ "$(( 0$(stat -c %a "$up") & 1 ))" = 1 ] ||
    { rm -rf "$dir"; fail "munged needs every directory above $dir open to all: chmod o+x $up"; }
  up=$(dirname "$up")
done
trap 'stop' ERR
port=$((20000 + $$ % 20000))
export SLURM_CONF="$dir/slurm.conf"
mungekey -c -k "$dir/munge.key" -f >/dev/null 2>&1 &&
  chmod 400 "$dir/munge.key" || fail "mungekey failed"
munged --socket="$dir/munge.sock" --key-file="$dir/munge.key" --log-file="$dir/munged.log" \
  --pid-file="$dir/munged.pid" --seed-file="$dir/munged.seed" ||
  fail "munged does not start: $(tail -3 "$dir/munged.log" 2>/dev/null)"
cat >"$SLURM_CONF" <<CONF
ClusterName=boidslocal
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF" ||
  fail "slurmctld does not start: $(tail -3 "$dir/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" -N localhost ||
  fail "slurmd does not start: $(tail -3 "$dir/slurmd.log" 2>/dev/null)"
for _ in $(seq 1 50); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -o %t 2>/dev/null | grep -q idle ||
  fail "the node never became idle: $(sinfo 2>&1 | tail -2); $(tail -3 "$dir/slurmd.log")"
trap - ERR
echo "# a one-node Slurm cluster on localhost: $(sinfo -h -o '%P %D %t %c CPUs');" \
  "stop it with: $0 stop $dir" >&2
echo "export SLURM_CONF=$SLURM_CONF"
