#!/usr/bin/env bash
# scripts/slurm-experiment.sh against a real Slurm: the one-node cluster on localhost of
# scripts/slurm-local.sh (Debian's munge, slurmctld and slurmd with a configuration of their own
# in a temporary directory, on ports of their own), the job array submitted and waited for, and
# the merge of its shards compared with the same experiment run in one go: the same tables, byte
# for byte. Without a cluster, the script refuses at once and leaves nothing behind. Skips (77),
# saying why, only where the daemons cannot start (and fails there under BOIDS_REQUIRE_SLURM=1).
# usage: test_slurm.sh path/to/boids path/to/repository
set -u
boids=$(realpath "$1")
repo=$(realpath "$2")
# CI sets BOIDS_REQUIRE_SLURM=1: there a cluster that cannot start is a failure, not a skip
skip() {
  echo "SKIP: $1"
  [ "${BOIDS_REQUIRE_SLURM:-0}" = 1 ] && { echo "FAIL: BOIDS_REQUIRE_SLURM=1"; exit 1; }
  exit 77
}
# no cluster (nothing answers at SLURM_CONF): a clear refusal, no OUT.shards left behind
nowhere=$(mktemp -d)
printf 'ClusterName=none\nSlurmctldHost=localhost\nSlurmctldPort=9\n' >"$nowhere/slurm.conf"
(cd "$nowhere" && SLURM_CONF="$nowhere/slurm.conf" BOIDS="$boids" \
  timeout 60 bash "$repo/scripts/slurm-experiment.sh" 2 out \
  "$repo/scenarios/kit.ini" --runs 2 >"$nowhere/out.txt" 2>&1)
rc=$?
if [ $rc = 2 ] && grep -q "Slurm" "$nowhere/out.txt" && [ "$(wc -l <"$nowhere/out.txt")" = 1 ] &&
  ! grep -q "fatal" "$nowhere/out.txt" &&
  [ ! -e "$nowhere/out.shards" ] && [ ! -e "$nowhere/out" ]; then
  echo "ok   without a cluster: exit 2, one clear line, nothing created"
else
  echo "FAIL without a cluster: exit $rc: $(cat "$nowhere/out.txt"); $(ls "$nowhere")"
  rm -rf "$nowhere"
  exit 1
fi
rm -rf "$nowhere"

tmp=$(mktemp -d)
chmod 755 "$tmp" # munged wants the directories above its socket open to all
cluster="$tmp/cluster"
cleanup() {
  [ -f "$cluster/slurm.conf" ] && bash "$repo/scripts/slurm-local.sh" stop "$cluster"
  rm -rf "$tmp"
}
trap cleanup EXIT
# the one-node cluster of docs/experiments.md (scripts/slurm-local.sh), started the way it says
if ! conf=$(bash "$repo/scripts/slurm-local.sh" start "$cluster" 2>"$tmp/start.err"); then
  skip "$(tail -1 "$tmp/start.err")"
fi
cat "$tmp/start.err"
eval "$conf"
mkdir -p "$tmp/work"
cd "$tmp/work"
args=("$repo/scenarios/kit.ini" --runs 10 --sweep c_maxspeed=0,200 --set stop_after_catches=3
      --metrics-every 100 --backend cpu --jobs 1)
start=$(date +%s)
if ! BOIDS="$boids" timeout 300 bash "$repo/scripts/slurm-experiment.sh" \
    --wait 3 sharded "${args[@]}"; then
  echo "FAIL: the job array or its merge failed"
  for f in sharded.shards/slurm-*.out; do echo "--- $f"; cat "$f"; done
  exit 1
fi
echo "the array and the merge took $(($(date +%s) - start)) s"
"$boids" experiment "${args[@]}" --out whole >/dev/null ||
  { echo "FAIL: the unsharded experiment failed"; exit 1; }
fail=0
for t in runs events metrics; do
  if cmp -s "sharded/$t.csv" "whole/$t.csv"; then
    echo "ok   $t.csv: the merge of 3 Slurm shards = one run" \
      "($(($(wc -l <"whole/$t.csv") - 1)) rows)"
  else echo "FAIL $t.csv differs"; diff "sharded/$t.csv" "whole/$t.csv" | head -5; fail=1; fi
done
for i in 1 2 3; do
  grep -q "^shard = $i/3$" "sharded.shards/$i/manifest.ini" &&
    echo "ok   task $i ran shard $i/3" ||
    { echo "FAIL shard $i"; fail=1; }
done
[ -f sharded/ages.png ] && echo "ok   the merge drew ages.png" ||
  { echo "FAIL no ages.png"; fail=1; }
exit $fail
