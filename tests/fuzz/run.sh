#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time (CI: 20 s each, two at a time) from a seed corpus
# made here from the shipped scenarios and small states; any crash, leak, sanitizer report,
# timeout (10 s an input) or memory above 2 GiB fails, and the input that did it is copied to
# BUILD_DIR/fuzz-findings.
# usage: tests/fuzz/run.sh BUILD_DIR SECONDS
set -euo pipefail
build=$(realpath "$1") seconds=${2:-60}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ini" "$work/csv" "$work/pred" "$work/exp"
cp "$repo"/scenarios/*.ini "$work/ini/"
printf 'model = kit\nobstacle = 1,2,3\nlayout = centre\n' >"$work/ini/extra.ini"
printf 'id,x,y,vx,vy,swarm\n0,1,2,3,4,0\n1,5.5,6e1,-7,8,1\n' >"$work/csv/a.csv"
{ printf '\xef\xbb\xbfid,x,y,vx,vy,swarm,age,alive\r\n1,1,2,3,4,0,0.5,1\r\n'
  printf '0,"5",6,7,8,0,0.25,0\r\n'; } >"$work/csv/b.csv"
printf 'id,x,y,vx,vy\n0,1,2,3,4\n1,5,6,7,8\n' >"$work/pred/a.csv"
# what the adversaries found, so the next one starts there: CR-only lines, control bytes, the
# model's world overridden, a column twice, a NUL
printf 'model = adams\rboids = 10\rvisual_range = 30\r' >"$work/ini/cr.ini"
printf 'model = adams\nboids = 1\x1b[31m0\x07\n' >"$work/ini/esc.ini"
printf 'model = kit\nboids = 20000\nsteps = 5\nstop_after_catches = 3\nmin_speed = 140\n' \
  >"$work/ini/kitworld.ini"
printf 'id,x,y,vx,vy,swarm,age,age\n0,1,1,1,1,0,0.5,0.6\n' >"$work/csv/twice.csv"
printf 'id,x,y,vx,vy,swarm\n0,1,2\0003,4,0\n' >"$work/csv/nul.csv"
# the Python package's adversary: a NUL in a key and in a value (which C once cut the text at),
# a world setting among the model's parameters, a path past PATH_MAX
printf 'model = kit\nmax_speed\000junk = 1\nmax_speed = 160\000garbage\nsteps = 5\n' \
  >"$work/ini/python_nul.ini"
{ printf 'model = hybrid\nscenario = /'; head -c 5000 /dev/zero | tr '\0' a; printf '\n'; } \
  >"$work/ini/python_long.ini"
# experiment tables (runs, events, metrics, split at 0xFF): a whole run, garbage, a duplicate
head="run,seed,c_maxspeed"
{ printf '%s,steps,stop,catches,alive,polarization,' "$head"
  printf 'mean_nn,mean_speed,min_speed,max_speed,groups\n'
  printf '0,1,0,120,catches,1,34,0.5,10,100,50,150,3\n7,garbage\n'
  printf '0,1,0,120,catches,1,34,0.5,10,100,50,150,3\n\377'
  printf '%s,step,time,boid,age,predator\n0,1,0,119,9.52,4,0.5,0\n\377' "$head"
  printf '%s,step,time,alive,polarization,' "$head"
  printf 'mean_nn,mean_speed,min_speed,max_speed,groups,catches\n'
  printf '0,1,0,0,0,35,0.1,50,100,50,150,5,0\n'; } >"$work/exp/a.tables"
# a sweep of max_speed (Python's sweep={"max_speed": ...}): its column is param_max_speed
{ printf 'run,seed,param_max_speed,steps,stop,catches,alive,polarization,'
  printf 'mean_nn,mean_speed,min_speed,max_speed,groups\n0,1,150,3,steps,0,30,0.1,9,100,50,150,4\n'
  printf '\377run,seed,param_max_speed,step,time,boid,age,predator\n\377'
  printf 'run,seed,param_max_speed,step,time,alive,polarization,mean_nn,mean_speed,min_speed,'
  printf 'max_speed,groups,catches\n0,1,150,0,0,30,0.1,9,100,50,150,4,0\n'
} >"$work/exp/sweep.tables"
# fuzz NAME CORPUS: one target in its own directory (the crash files it leaves are its own, and
# its inputs' scratch files, $TMPDIR: removed with $work), its output in $work/NAME.log; fails on
# a finding, which is copied to BUILD_DIR/fuzz-findings.
fuzz() {
  local exe=$build/tests/fuzz/$1 dir=$work/run-$1 status=0
  mkdir -p "$dir/tmp"
  (cd "$dir" && TMPDIR=$dir/tmp "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 "$2" >"$work/$1.log" 2>&1) || status=1
  if ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* >/dev/null 2>&1; then
    echo "FAIL $1: $(ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* 2>/dev/null |
      tr '\n' ' ')" >>"$work/$1.log"
    mkdir -p "$build/fuzz-findings" &&
      cp "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* "$build/fuzz-findings/" \
        2>/dev/null || true
    status=1
  fi
  return $status
}
# two targets at a time (the machine's two cores: each target runs one process), then their
# outputs in order
status=0
targets=(fuzz_scenario:ini fuzz_state_csv:csv fuzz_predators_csv:pred fuzz_experiment_tables:exp)
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pids=()
  for t in "${targets[@]:i:2}"; do
    fuzz "${t%%:*}" "$work/${t##*:}" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
  for t in "${targets[@]:i:2}"; do
    echo "== ${t%%:*}: $seconds s"
    tail -12 "$work/${t%%:*}.log"
  done
done
exit $status
