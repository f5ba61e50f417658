#!/usr/bin/env bash
# A `boids experiment` on a Slurm cluster: a job array of K tasks, task I running shard I/K of the
# runs into OUT.shards/I, then a job that waits for the whole array and merges the shards into
# OUT (`boids experiment-merge`), which is then what one `boids experiment ... --out OUT` would
# have written.
#
#   scripts/slurm-experiment.sh [--wait] [--sbatch "OPTIONS"] K OUT EXPERIMENT-ARGUMENTS...
#
#   scripts/slurm-experiment.sh 8 ages scenarios/kit.ini --runs 1000 --set c_maxspeed=200 \
#       --set stop_after_catches=3 --backend cpu
#
# --wait         block until the merge has finished; exit with its status
# --sbatch OPTS  more sbatch options for every job (a partition, a time limit, --gres=gpu:1, ...)
# BOIDS          the program the jobs run (default: build/release/src/boids of this checkout, or
#                the boids installed beside this script)
#
# The jobs start in the current directory (Slurm's default), so OUT and the scenario may be
# relative paths on a filesystem the nodes share. Each task's log is OUT.shards/slurm-I.out. A
# task that fails leaves its shard resumable (`boids experiment --resume OUT.shards/I`) and the
# merge job is cancelled (its dependency can no longer be met).
set -euo pipefail

wait_flag=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --wait) wait_flag=(--wait); shift ;;
    --sbatch) read -r -a extra <<<"${2:?--sbatch needs its options}"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ $# -lt 3 ]; then
  echo "usage: $0 [--wait] [--sbatch \"OPTIONS\"] K OUT EXPERIMENT-ARGUMENTS..." >&2
  exit 2
fi
shards=$1 out=$2
shift 2
if ! [[ "$shards" =~ ^[1-9][0-9]*$ ]]; then
  echo "$0: K must be a whole number >= 1, not '$shards'" >&2
  exit 2
fi
# the boids of this checkout's build, or (installed as boids-slurm-experiment) the one beside it
here=$(cd "$(dirname "$0")" && pwd)
default="$here/../build/release/src/boids"
[ -x "$default" ] || default="$here/boids"
boids=$(realpath "${BOIDS:-$default}")
[ -x "$boids" ] || { echo "$0: no program at $boids (build it, or set BOIDS)" >&2; exit 2; }
nocluster="see the README's Experiments: scripts/slurm-local.sh starts a one-node cluster to try it"
command -v sbatch >/dev/null ||
  { echo "$0: Slurm's sbatch is not installed here; $nocluster" >&2; exit 2; }
# A controller that answers, before anything is made (sbatch would fail with raw messages after).
if ! timeout 20 scontrol ping 2>/dev/null | grep -q "is UP"; then
  echo "$0: no Slurm controller answers here (scontrol ping); $nocluster" >&2
  exit 2
fi
if [ -e "$out" ] || [ -e "$out.shards" ]; then
  echo "$0: $out or $out.shards exists already: choose a new OUT" >&2
  exit 2
fi
mkdir -p "$out.shards"
# A submission that fails leaves nothing of this script's behind: a retry starts clean.
submitted=0
trap '[ $submitted = 0 ] && rm -rf "$out.shards"' EXIT

# The task's command, quoted for the shell Slurm starts it in; the task id stays for that shell.
args=$(printf '%q ' "$@")
task="$(printf '%q' "$boids") experiment $args --shard \${SLURM_ARRAY_TASK_ID}/$shards"
task+=" --out $(printf '%q' "$out.shards")/\${SLURM_ARRAY_TASK_ID}"
if ! array=$(sbatch --parsable "${extra[@]}" --job-name=boids-experiment --array="1-$shards" \
  --output="$out.shards/slurm-%a.out" --wrap="$task" 2>"$out.shards/sbatch.err"); then
  echo "$0: sbatch refused the job array: $(tr '\n' ' ' <"$out.shards/sbatch.err")" >&2
  exit 1
fi
array=${array%%;*}
submitted=1
dirs=""
for i in $(seq 1 "$shards"); do dirs="$dirs $(printf '%q' "$out.shards/$i")"; done
merge="$(printf '%q' "$boids") experiment-merge $(printf '%q' "$out")$dirs"
echo "job array $array: $shards shards into $out.shards/"
status=0
merge_job=$(sbatch --parsable "${extra[@]}" "${wait_flag[@]}" \
  --job-name=boids-merge --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes --output="$out.shards/slurm-merge.out" --wrap="$merge") || status=$?
merge_job=${merge_job%%;*}
if [ ${#wait_flag[@]} -gt 0 ]; then
  cat "$out.shards/slurm-merge.out" 2>/dev/null || true
  [ $status = 0 ] && echo "merge job $merge_job finished: the experiment is in $out" ||
    echo "$0: the merge (job $merge_job) failed: see $out.shards/slurm-merge.out" >&2
  exit $status
fi
if [ $status = 0 ]; then
  echo "merge job $merge_job writes $out once the array is done" \
    "(squeue -j $array,$merge_job to watch)"
else
  echo "$0: sbatch refused the merge job; the shards still run:" \
    "boids experiment-merge $out $out.shards/* joins them" >&2
  exit 1
fi
