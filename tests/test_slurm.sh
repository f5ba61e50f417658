#!/usr/bin/env bash
# scripts/slurm-experiment.sh against a real Slurm: a one-node cluster on localhost (Debian's
# munge, slurmctld and slurmd, started here with a configuration of their own in a temporary
# directory, on ports of their own), the job array submitted and waited for, and the merge of its
# shards compared with the same experiment run in one go: the same tables, byte for byte.
# Skips (77), saying why, only where the daemons cannot start.
# usage: test_slurm.sh path/to/boids path/to/repository
set -u
boids=$(realpath "$1")
repo=$(realpath "$2")
skip() { echo "SKIP: $1"; exit 77; }
for p in munged mungekey slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$p" >/dev/null || skip "$p is not installed (scripts/install-deps.sh installs Slurm and munge)"
done
[ "$(id -u)" = 0 ] || skip "the test cluster's daemons run as root here, and this is not root"

tmp=$(mktemp -d)
chmod 755 "$tmp" # munged wants its socket's directories open to all
port=$((20000 + $$ % 20000))
export SLURM_CONF="$tmp/slurm.conf"
cleanup() {
  if [ -f "$tmp/run/slurmctld.pid" ]; then timeout 10 scontrol shutdown >/dev/null 2>&1; sleep 1; fi
  [ -f "$tmp/munged.pid" ] && kill "$(cat "$tmp/munged.pid")" 2>/dev/null
  for f in "$tmp"/run/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/run" "$tmp/work"
mungekey -c -k "$tmp/munge.key" -f >/dev/null 2>&1 && chmod 400 "$tmp/munge.key" || skip "mungekey failed"
munged --socket="$tmp/munge.sock" --key-file="$tmp/munge.key" --log-file="$tmp/munged.log" \
  --pid-file="$tmp/munged.pid" --seed-file="$tmp/munged.seed" || skip "munged does not start: $(tail -3 "$tmp/munged.log" 2>/dev/null)"
cat >"$SLURM_CONF" <<EOF
ClusterName=boidstest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" || skip "slurmctld does not start: $(tail -3 "$tmp/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" -N localhost || skip "slurmd does not start: $(tail -3 "$tmp/slurmd.log" 2>/dev/null)"
for i in $(seq 1 50); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -o %t 2>/dev/null | grep -q idle || skip "the node never became idle: $(sinfo 2>&1 | tail -2); $(tail -3 "$tmp/slurmd.log")"
echo "a one-node Slurm cluster on localhost: $(sinfo -h -o '%P %D %t %c CPUs')"

cd "$tmp/work"
args=("$repo/scenarios/kit.ini" --runs 10 --sweep c_maxspeed=0,200 --set stop_after_catches=3 --metrics-every 100
      --backend cpu --jobs 1)
start=$(date +%s)
if ! BOIDS="$boids" timeout 300 bash "$repo/scripts/slurm-experiment.sh" --wait 3 sharded "${args[@]}"; then
  echo "FAIL: the job array or its merge failed"
  for f in sharded.shards/slurm-*.out; do echo "--- $f"; cat "$f"; done
  exit 1
fi
echo "the array and the merge took $(($(date +%s) - start)) s"
"$boids" experiment "${args[@]}" --out whole >/dev/null || { echo "FAIL: the unsharded experiment failed"; exit 1; }
fail=0
for t in runs events metrics; do
  if cmp -s "sharded/$t.csv" "whole/$t.csv"; then echo "ok   $t.csv: the merge of 3 Slurm shards = one run ($(($(wc -l <"whole/$t.csv") - 1)) rows)"
  else echo "FAIL $t.csv differs"; diff "sharded/$t.csv" "whole/$t.csv" | head -5; fail=1; fi
done
for i in 1 2 3; do
  grep -q "^shard = $i/3$" "sharded.shards/$i/manifest.ini" && echo "ok   task $i ran shard $i/3" || { echo "FAIL shard $i"; fail=1; }
done
[ -f sharded/ages.png ] && echo "ok   the merge drew ages.png" || { echo "FAIL no ages.png"; fail=1; }
exit $fail
