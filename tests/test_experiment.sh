#!/usr/bin/env bash
# `boids experiment` as researchers use it: a run's rows depend only on its seed and parameters
# (the same tables whatever --jobs, --batch or the shards, shards run as processes side by side
# and merged); Ctrl-C keeps every finished run and --resume finishes the rest, equal to a run in
# one go (a noisy model's too: its runs' noise is their own seed's); the kit paper's finding
# (figure 10): with c_maxspeed = 200 the caught ages skew to the
# extremes, and without individuality they are uniform; the plots are PNGs; bad input exits 2,
# naming what is wrong, before any run.
# usage: test_experiment.sh path/to/boids path/to/scenarios path/to/gpu_info
set -u
boids=$(realpath "$1")
kit=$(realpath "$2")/kit.ini
gpu_info=$(realpath "$3")
source "$(dirname "$0")/lib.sh"
cd "$tmp"
same() { # same NAME DIR1 DIR2: the three tables equal
  local t
  for t in runs events metrics; do
    if ! cmp -s "$2/$t.csv" "$3/$t.csv"; then
      bad "$1: $t.csv differs: $(diff "$2/$t.csv" "$3/$t.csv" | head -3)"
      return
    fi
  done
  local runs catches rows
  runs=$(($(wc -l <"$2/runs.csv") - 1))
  catches=$(($(wc -l <"$2/events.csv") - 1))
  rows=$(($(wc -l <"$2/metrics.csv") - 1))
  ok "$1 ($runs runs, $catches catches, $rows metrics rows)"
}
gpu_setup "$gpu_info"
plots_setup
backends="cpu"
[ $gpu = 1 ] && backends="cpu gpu"

exp=("$kit" --runs 12 --sweep c_maxspeed=0,200 --set stop_after_catches=3 --metrics-every 50)

# --- a run's rows depend on nothing but its seed and parameters ---------------------------------
"$boids" experiment "${exp[@]}" --backend cpu --jobs 1 --out cpu1 >/dev/null
"$boids" experiment "${exp[@]}" --backend cpu --jobs 2 --out cpu2 >/dev/null
same "cpu: --jobs 1 = --jobs 2" cpu1 cpu2
for be in $backends; do
  for i in 1 2 3; do
    "$boids" experiment "${exp[@]}" --backend "$be" --jobs 1 --shard $i/3 --out "sh_$be$i" \
      >/dev/null &
  done
  wait
  "$boids" experiment-merge "merged_$be" "sh_${be}3" "sh_${be}1" "sh_${be}2" >/dev/null
  "$boids" experiment "${exp[@]}" --backend "$be" --out "whole_$be" >/dev/null
  same "$be: 3 shards run as processes side by side, merged = one run" "merged_$be" "whole_$be"
done
if [ "$backends" = "cpu gpu" ]; then
  # batches cut across combinations
  "$boids" experiment "${exp[@]}" --backend gpu --batch 5 --out gpu5 >/dev/null
  same "gpu: --batch 5 = one batch per combination" gpu5 whole_gpu
  # The runs themselves are the same on both backends where the driver rounds as IEEE does.
  # Everywhere the runs' lengths (steps to the third catch) agree as samples of one distribution:
  # per combination, the means of the GPU's 12 runs and the CPU's within Welch's bound
  # (tests/ensemble.h; no slack: whole steps). The check fails on a wrong rule: a GPU whose
  # predators flee the nearest boid (attack's sign flipped).
  if [ "$exact" = 1 ]; then
    cmp -s whole_cpu/events.csv whole_gpu/events.csv &&
      ok "the same catches on both backends (bitwise driver)" ||
      bad "catches differ between backends on a driver that rounds as IEEE does"
  fi
  same_lengths() { # DIR: its runs' steps and the CPU's, per combination, within the bound
    local v all=0
    for v in 0 200; do
      # shellcheck disable=SC2046 # each run's steps a separate argument
      "$ensemble" same "steps, c_maxspeed $v" 0 \
        $(awk -F, -v v=$v 'NR > 1 && $3 == v { print $4 }' "$1/runs.csv") -- \
        $(awk -F, -v v=$v 'NR > 1 && $3 == v { print $4 }' whole_cpu/runs.csv) || all=1
    done
    return $all
  }
  same_lengths whole_gpu && ok "runs of the same length on both backends, as statistics" ||
    bad "steps to the third catch differ between backends beyond their spread"
  # (statistics only: the sanitizers' build leaves it out, tests/lib.sh)
  if [ "${BOIDS_TEST_SANITIZED:-0}" != 1 ]; then
    "$boids" experiment "${exp[@]}" --backend gpu --set attack_factor=-100 --out fleeing \
      >/dev/null
    same_lengths fleeing && bad "a GPU whose predators flee passes the runs' comparison" ||
      ok "a GPU whose predators flee fails the runs' comparison"
  fi
fi
runs_header='run,seed,c_maxspeed,steps,stop,catches,alive,polarization,'
runs_header+='mean_nn,mean_speed,min_speed,max_speed,groups,milling'
head -1 whole_cpu/runs.csv | grep -qx "$runs_header" &&
  ok "runs.csv header" || bad "runs.csv header: $(head -1 whole_cpu/runs.csv)"
head -1 whole_cpu/events.csv | grep -qx 'run,seed,c_maxspeed,step,time,boid,age,predator' &&
  ok "events.csv header" ||
  bad "events.csv header"
# seeds S..S+R-1 for each combination; each run stopped after 3 catches, its last catch the step
# before its end
awk -F, 'NR > 1 && ($2 != 1 + $1 % 12 || $5 != "catches" || $6 != 3) { exit 1 }' \
  whole_cpu/runs.csv &&
  ok "runs: seeds 1..12 per combination, each stopped at 3 catches" ||
  bad "runs.csv: $(sed -n 2,3p whole_cpu/runs.csv)"
awk -F, 'NR == FNR { if (FNR > 1) last[$1] = $4; next } FNR > 1 && $4 != last[$1] + 1 { exit 1 }' \
  whole_cpu/events.csv whole_cpu/runs.csv &&
  ok "a run ends the step after its last catch" ||
  bad "steps vs catches"
for png in ages metrics; do
  [ "$plots" = 1 ] || break
  if [ "$(head -c 8 "whole_cpu/$png.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
    [ "$(stat -c %s "whole_cpu/$png.png")" -gt 5000 ]; then
    ok "$png.png is a PNG"
  else bad "$png.png"; fi
done

# --- Ctrl-C, then --resume -------------------------------------------------------------------
# (400 runs: the signal comes once 40 have finished, 50 here, leaving room for a machine several
# times faster; the rest run twice more, resumed and in one go: 1500 cost a CI stage half a minute;
# under the sanitizers, whose runs are slower, 100 and 10)
bigruns=400
[ "${BOIDS_TEST_SANITIZED:-0}" = 1 ] && bigruns=100
big=("$kit" --runs $bigruns --set stop_after_catches=3 --metrics-every 100 --backend cpu --jobs 2)
"$boids" experiment "${big[@]}" --out cut >cut.out 2>cut.err &
pid=$!
for i in $(seq 1 200); do
  [ -f cut/runs.csv ] && [ "$(wc -l <cut/runs.csv)" -gt $((bigruns / 10)) ] && break
  sleep 0.02
done
kill -INT $pid
wait $pid
rc=$?
rows=$(($(wc -l <cut/runs.csv) - 1))
if [ $rc = 130 ] && [ "$rows" -lt $bigruns ] && grep -q -- "--resume cut" cut.err; then
  ok "Ctrl-C: exit 130 after $rows of $bigruns runs, with the command that finishes them"
else bad "Ctrl-C: exit $rc, $rows rows, stderr: $(cat cut.err)"; fi
# a run cut off in the middle of its rows (a crash, not a Ctrl-C) is left out by --resume too
echo "$((bigruns - 1)),$bigruns,12" >>cut/metrics.csv
printf '%s' "$((bigruns - 1)),$bigruns,9" >>cut/runs.csv
"$boids" experiment --resume cut --jobs 2 >/dev/null || bad "--resume failed"
"$boids" experiment "${big[@]}" --out uncut >/dev/null
same "--resume after Ctrl-C = the experiment in one go" cut uncut
# kill -9 before the first run is on disk: the tables hold their headers (they were once still
# buffered, 0 bytes, which --resume refused and a new run there sent to --resume), and --resume
# finishes the experiment; tables left empty (a kill as they were made) read as no runs done
# (a run lasts about a second, well past the kill; the sanitizers' build is slower, a fifth does)
k9steps=1500
[ "${BOIDS_TEST_SANITIZED:-0}" = 1 ] && k9steps=300
k9=(vicsek -n 5000 --world 35x35 --runs 2 --steps $k9steps --metrics-every 500 --backend cpu
  --jobs 1)
"$boids" experiment "${k9[@]}" --out k9 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do [ -s k9/manifest.ini ] && break; sleep 0.02; done
sleep 0.2
kill -KILL $pid
wait $pid 2>/dev/null
heads=$(head -qn1 k9/runs.csv k9/events.csv k9/metrics.csv 2>/dev/null | grep -c '^run,seed,')
"$boids" experiment --resume k9 >out 2>err && "$boids" experiment "${k9[@]}" --out k9_whole \
  >/dev/null 2>&1
if [ "$heads" = 3 ] && [ "$(wc -l <k9/runs.csv)" = 3 ]; then
  same "kill -9 before the first run's sync: headers on disk, --resume = one go" k9 k9_whole
else
  bad "kill -9 before the first sync: $heads headers, --resume: $(cat err)"
fi
: >k9/runs.csv && : >k9/events.csv && : >k9/metrics.csv
"$boids" experiment --resume k9 >out 2>err && same "empty tables: --resume runs them all" k9 \
  k9_whole || bad "empty tables: --resume: $(cat err)"
# kill -9 as the manifest was written: its lock and the manifest's temporary file were all the
# directory held, which --resume refused ("manifest.ini: cannot open") and a new run called not
# empty; --resume now says to start again there, and a new run does, the temporary file removed
mkdir k9m && touch k9m/.lock && echo "model = vicsek" >k9m/.boids-tmp-Xa9b2c
"$boids" experiment --resume k9m >out 2>err
rc=$?
if [ $rc = 2 ] && grep -q "k9m has no manifest.ini: no experiment was started.*--out k9m" err &&
   "$boids" experiment "${k9[@]}" --steps 20 --out k9m >out 2>&1 && [ -s k9m/manifest.ini ] &&
   ! ls -A k9m | grep -q boids-tmp; then
  ok "killed as the manifest was written: --resume says to start again, --out there does"
else
  bad "killed as the manifest was written: --resume exit $rc: $(cat err); $(ls -A k9m)"
fi
# --resume of a finished experiment says so ("0 runs in 0.00 s" said nothing)
"$boids" experiment --resume k9m >out 2>err &&
  grep -q "every run was done already: k9m/runs.csv, events.csv, metrics.csv are whole" out &&
  ok "--resume of a finished experiment says every run was done" ||
  bad "--resume of a finished experiment: $(cat out err)"

# --- the paper's finding (docs/models.md (kit), figure 10): 100 runs of 3 catches ----
# chi-square of the 10-bin histogram of caught ages against uniform, 9 degrees of freedom: above
# 21.67 is p < 0.01. The share of ages beyond 0.25 of 0.5 is 0.5 for uniform ages.
ages() { # ages DIR: "share chi2"
  awk -F, 'NR > 1 { a = $6; b = int(a * 10); if (b > 9) b = 9; h[b]++; n++;
                    if (a < 0.25 || a > 0.75) x++ }
           END { for (i = 0; i < 10; ++i) c += (h[i] - n / 10) ^ 2 / (n / 10);
                 printf "%.3f %.2f %d", x / n, c, n }' "$1/events.csv"
}
# (under the sanitizers 10 runs, and the statistics left out: tests/lib.sh)
kruns=100
[ "${BOIDS_TEST_SANITIZED:-0}" = 1 ] && kruns=10
"$boids" experiment "$kit" --runs $kruns --set c_maxspeed=200 --set stop_after_catches=3 \
  --backend cpu --out skew >/dev/null
"$boids" experiment "$kit" --runs $kruns --set c_maxspeed=0 --set c_view_radius=0 \
  --set c_view_angle=0 --set stop_after_catches=3 --backend cpu --out flat >/dev/null
if [ $kruns = 100 ]; then
  read -r share chi n <<<"$(ages skew)"
  if awk -v s="$share" -v c="$chi" 'BEGIN { exit !(s > 0.6 && c > 21.67) }'; then
    finding="$n catches, $share of the ages beyond 0.25 of 0.5 (> 0.6), chi-square $chi"
    ok "c_maxspeed 200: $finding (p < 0.01)"
  else bad "c_maxspeed 200: share $share, chi-square $chi"; fi
  read -r share chi n <<<"$(ages flat)"
  if awk -v c="$chi" 'BEGIN { exit !(c < 21.67) }'; then
    ok "no individuality: $n catches, share $share, chi-square $chi (p > 0.01: uniform)"
  else bad "no individuality: chi-square $chi"; fi
fi

# --- bad input: exit 2, naming it, before any run ----------------------------------------------
expect2() { # NAME PATTERN ARGS...
  local name=$1 pattern=$2
  shift 2
  "$boids" experiment "$@" >out 2>err
  local rc=$?
  if [ $rc = 2 ] && grep -q -- "$pattern" err && [ ! -e never ]; then ok "$name"
  else bad "$name: exit $rc: $(cat err)"; fi
}
expect2 "unknown sweep key" "--sweep nope=1,2: no such parameter" \
  "$kit" --runs 2 --out never --sweep nope=1,2
expect2 "a range without a count" "--sweep c_maxspeed=1:2" \
  "$kit" --runs 2 --out never --sweep c_maxspeed=1:2
expect2 "a swept value out of range" "--sweep c_maxspeed=-5" \
  "$kit" --runs 2 --out never --sweep c_maxspeed=-5
expect2 "a combination the model refuses" "c_maxspeed = 1000" \
  "$kit" --runs 2 --out never --sweep c_maxspeed=0,1000
expect2 "shard 3/2" "--shard: '3/2'" "$kit" --runs 2 --out never --shard 3/2
expect2 "no --runs" "--runs" "$kit" --out never
mkdir other && touch other/notes.txt
expect2 "a directory holding something else" "not empty (it holds notes.txt)" \
  "$kit" --runs 2 --out other
expect2 "a directory holding an experiment" "--resume skew" "$kit" --runs 2 --out skew
expect2 "an output of a single run" "--dump is not an experiment option" \
  "$kit" --runs 2 --out never --dump x.csv
expect2 "--resume with other options" "--resume takes only" --resume skew --runs 3
"$boids" experiment-merge never skew flat >out 2>err
[ $? = 2 ] && grep -q "not a shard of the experiment" err && [ ! -e never ] &&
  ok "merging different experiments" ||
  bad "merge: $(cat err)"

# --- the folder is a small database that never lies (issue 21's reproducers) --------------------
small=("$kit" --runs 30 --set stop_after_catches=3 --metrics-every 50 --backend cpu --jobs 2)
"$boids" experiment "${small[@]}" --out ref >/dev/null
refuse() { # NAME PATTERN DIR: --resume DIR exits 2 naming PATTERN
  "$boids" experiment --resume "$3" >out 2>err
  local rc=$?
  [ $rc = 2 ] && grep -q -- "$2" err && ok "$1" || bad "$1: exit $rc: $(cat err)"
}
cp -r ref empty && : >empty/runs.csv
refuse "an empty runs.csv is refused" "runs.csv:1: no header" empty
cp -r ref garbage && echo "7,garbage" >>garbage/runs.csv
refuse "'7,garbage' in runs.csv is refused, naming its line" "runs.csv:32: " garbage
cp -r ref dup && sed -n 5p ref/runs.csv >>dup/runs.csv
refuse "a run twice in runs.csv is refused" "runs.csv:32: run .* again" dup
"$boids" experiment "$kit" --runs 30 --set stop_after_catches=2 \
  --backend cpu --out another >/dev/null
cp -r ref foreign && tail -n +2 another/runs.csv | head -3 >>foreign/runs.csv
refuse "a foreign experiment's rows are refused" "runs.csv:32: " foreign
cp -r ref edited && sed -i 's/^max_speed = .*/max_speed = 99/' edited/manifest.ini
refuse "a manifest edited after the start (max_speed) is refused" "was edited after" edited
cp -r ref edited2 && sed -i 's/^metrics_every = .*/metrics_every = 7/' edited2/manifest.ini
refuse "a manifest edited after the start (metrics_every) is refused" "was edited after" edited2
cp -r ref edited3 && sed -i '/^fingerprint = /d; s/^max_speed = .*/max_speed = 99/' \
  edited3/manifest.ini
refuse "a manifest edited with its fingerprint deleted is refused" "has no fingerprint" edited3
cp -r ref alive && awk -F, -v OFS=, 'NR == 2 { $6 = 99999 } { print }' ref/runs.csv >alive/runs.csv
refuse "alive = 99999 in a world of 35 boids is refused" "runs.csv:2: " alive
cp -r ref cutrows && head -n 20 ref/metrics.csv >cutrows/metrics.csv
"$boids" experiment --resume cutrows >out 2>err &&
  grep -q "rows were cut short" err &&
  same "a run whose metrics rows were cut short runs again" cutrows ref ||
  bad "cut metrics rows: $(cat err)"
# two --resume of one directory at once: the second is refused
cp -r ref twice && sed -i '$d' twice/runs.csv && sed -i '$d' twice/runs.csv
(exec 9>twice/.lock && flock 9 && sleep 3) &
sleep 0.5
"$boids" experiment --resume twice >out 2>err
rc=$?
wait
[ $rc = 2 ] && grep -q "in use by another boids experiment" err &&
  ok "a second process on one directory is refused" ||
  bad "lock: exit $rc: $(cat err)"
# a finished experiment leaves no lock file (it stayed), and a resumed one neither
"$boids" experiment --resume twice >/dev/null 2>&1
[ ! -e ref/.lock ] && [ ! -e twice/.lock ] && [ ! -e k9/.lock ] &&
  ok "finished and resumed experiments leave no .lock" ||
  bad "a .lock stays: $(ls -d ref/.lock twice/.lock k9/.lock 2>&1)"
# a disk that fills (a file-size limit, its signal ignored: the write fails): the experiment stops
# at once, and --resume later finishes it right
(trap '' XFSZ; ulimit -f 12; exec "$boids" experiment "${small[@]}" --out full) >out 2>err
rc=$?
done_rows=$(($(wc -l <full/runs.csv) - 1))
[ $rc = 1 ] && [ "$done_rows" -lt 30 ] &&
  ok "a full disk stops the experiment (exit 1, $done_rows runs kept)" ||
  bad "full disk: exit $rc, $done_rows runs: $(cat err)"
"$boids" experiment --resume full >/dev/null 2>err &&
  same "--resume after a full disk = the experiment in one go" full ref ||
  bad "resume after a full disk: $(cat err)"
# SIGKILL at any moment leaves it resumable (a killed --resume included); the stale temporary
# files go
cp -r ref killed && sed -i '15,$d' killed/runs.csv
for delay in 0.05 0.2 0.4; do
  "$boids" experiment --resume killed >/dev/null 2>&1 &
  sleep $delay
  kill -KILL $! 2>/dev/null
  wait
done
"$boids" experiment --resume killed >/dev/null 2>err &&
  same "SIGKILL at any moment, then --resume = the experiment in one go" killed ref &&
  ! ls -A killed | grep -q boids-tmp &&
  ok "no temporary file stays" ||
  bad "killed: $(cat err); $(ls -A killed)"
# merge: a shard relabelled as another, an empty events.csv
for i in 1 2; do "$boids" experiment "${small[@]}" --shard $i/2 --out "part$i" >/dev/null; done
# shard 1's runs, said to be 2's
cp -r part1 relabelled && sed -i 's|^shard = 1/2|shard = 2/2|' relabelled/manifest.ini
"$boids" experiment-merge mrg part1 relabelled >out 2>err
[ $? = 2 ] && grep -q "relabelled/runs.csv:2: not a row of run" err && [ ! -e mrg ] &&
  ok "merge refuses a relabelled shard, naming its file and line, and leaves no OUT" ||
  bad "relabelled: $(cat err); $(ls)"
cp -r part2 noevents && : >noevents/events.csv
"$boids" experiment-merge mrg part1 noevents >out 2>err
[ $? = 2 ] && grep -q "events.csv:1: no header" err && [ ! -e mrg ] &&
  ok "merge refuses an empty events.csv" ||
  bad "empty events: $(cat err)"
"$boids" experiment-merge mrg part1 part2 >/dev/null &&
  same "the two shards merged = one run" mrg ref
# checked before anything is made
expect2 "--runs beyond 10^7, before DIR is made" \
  "--runs: '20000000' is not a whole number in \[1, 10000000\]" \
  "$kit" --runs 20000000 --out never
expect2 "an empty sweep" "--sweep c_maxspeed=: no values" \
  "$kit" --runs 2 --out never --sweep c_maxspeed=
"$boids" experiment "$kit" --runs 2 --out $'never\nx' >out 2>err
[ $? = 2 ] && grep -q "control character" err && [ ! -e $'never\nx' ] &&
  ok "a newline in an argument is refused" ||
  bad "newline: $(cat err)"
expect2 "a run's option is no experiment's" "--warmup is not an experiment option" \
  "$kit" --runs 2 --out never --warmup 10
"$boids" experiment "$kit" --runs 1 --sweep c_maxspeed=0:200:1024 --steps 2 \
  --backend cpu --out wide >/dev/null &&
  "$boids" experiment --resume wide >out 2>err &&
  ok "a sweep of 1024 values: the manifest reads back" ||
  bad "1024 values: $(cat err)"
# a swept parameter named like a metric (max_speed) gets its own column name: no two alike
"$boids" experiment "$(dirname "$kit")/hybrid.ini" --runs 1 -n 30 \
  --sweep max_speed=150,170 --steps 3 --metrics-every 1 --backend cpu --out dupname >/dev/null 2>err
twice=$(for t in runs metrics; do head -1 "dupname/$t.csv" | tr , '\n' | sort | uniq -d; done)
[ -z "$twice" ] && head -1 dupname/runs.csv | grep -q '^run,seed,param_max_speed,.*,max_speed,' &&
  "$boids" experiment --resume dupname >/dev/null 2>>err &&
  ok "sweeping max_speed: param_max_speed beside the metric max_speed, and --resume reads it" ||
  bad "sweeping max_speed: columns twice: '$twice', $(head -1 dupname/runs.csv) $(cat err)"
# --field: xi, xi_speed, n_c, diameter after the columns of metrics.csv and runs.csv, kept by
# --resume, checked row by row; a merge refuses shards with and without them; none without
# --metrics-every
fx=(-n 200 --runs 2 --steps 20 --metrics-every 10 --backend cpu)
"$boids" experiment "${fx[@]}" --field 0,32,10,from:2 --out field >/dev/null 2>err &&
  grep -qx 'field = 0,32,10,from:2' field/manifest.ini &&
  head -1 field/metrics.csv | grep -q ',milling,xi,xi_speed,n_c,diameter$' &&
  head -1 field/runs.csv | grep -q ',milling,xi,xi_speed,n_c,diameter$' &&
  awk -F, 'NF != 17 { exit 1 }' field/metrics.csv field/runs.csv &&
  [ "$(wc -l <field/metrics.csv)" = 7 ] &&
  ok "--field: xi, xi_speed, n_c, diameter after the tables' columns; its manifest line" ||
  bad "--field: $(head -2 field/metrics.csv) $(cat err)"
cp -r field field_cut && sed -i '$d' field_cut/runs.csv
"$boids" experiment --resume field_cut >/dev/null 2>err &&
  same "--field: --resume runs the rest with the field measures" field_cut field ||
  bad "--field resume: $(cat err)"
cp -r field field_short && awk -F, -v OFS=, 'NR == 3 { NF -= 4 } { print }' field/metrics.csv \
  >field_short/metrics.csv
refuse "--field: a metrics row without the field measures is refused" "metrics.csv:3: " field_short
"$boids" experiment "${fx[@]}" --field 0,32,10,from:2 --shard 1/2 --out field_sh1 >/dev/null
"$boids" experiment "${fx[@]}" --shard 2/2 --out plain_sh2 >/dev/null
"$boids" experiment-merge never field_sh1 plain_sh2 >out 2>err
[ $? = 2 ] && grep -q "not a shard of the experiment" err && [ ! -e never ] &&
  ok "--field: merge refuses shards with and without the field measures" ||
  bad "--field merge: $(cat err)"
expect2 "--field without --metrics-every" "--field .*--metrics-every" \
  -n 200 --runs 2 --field 0 --out never
"$boids" experiment "$kit" --runs 1 --shard 1/3 --backend cpu --out tiny >out 2>err
grep -q "no runs in this shard" out && ! grep -q "runs 1..0" out &&
  ok "an empty shard says so" ||
  bad "empty shard: $(cat out)"
"$boids" experiment "$kit" --runs 3 --steps 0 --metrics-every 1 --backend cpu --out point >out 2>err
# (without PLplot: nothing drawn, and its note alone on stderr)
[ $? = 0 ] && if [ "$plots" = 1 ]; then [ ! -s err ] && grep -q "metrics.png: not drawn" out
else grep -q "no plots" err && [ "$(grep -vc 'no plots' err)" = 0 ]; fi &&
  ok "one point in time: no plot, no PLplot errors" ||
  bad "one point: $(cat err)"
# stop_after_catches K takes exactly K catches a run, whatever the step they come in (the paper's
# finding's experiment above, the same command)
[ "$(($(wc -l <skew/events.csv) - 1))" = $((3 * kruns)) ] &&
  ok "$kruns runs of stop_after_catches = 3: exactly $((3 * kruns)) catches" ||
  bad "$(($(wc -l <skew/events.csv) - 1)) catches for $kruns runs of 3"

# a 3D experiment: its worlds are the default cube, each run's as a world of its own; the GPU's
# runs, as the replicas of one world, are the CPU's (bit for bit on a bitwise driver; the metrics
# then differ only by the GPU's float sums against the CPU's double ones: within 1e-4 of the
# larger of 1 and the value, so the counts, alive and groups, must be equal)
for be in cpu gpu; do
  "$boids" experiment --dims 3 -n 500 --runs 4 --steps 100 --metrics-every 50 --backend $be \
    --out deep_$be >/dev/null 2>deep_$be.err ||
    bad "a 3D experiment on the $be: $(tail -2 deep_$be.err)"
done
[ "$(wc -l <deep_cpu/runs.csv)" = 5 ] && ok "a 3D experiment: 4 runs" ||
  bad "a 3D experiment: $(cat deep_cpu/runs.csv)"
if [ "$exact" = 1 ]; then
  close_tables() { # A B: the same rows and columns, numbers within the bound above
    paste -d '\n' "$1" "$2" | awk -F, 'NR % 2 { n = split($0, a, ","); next }
      { if (NF != n) exit 1
        for (i = 1; i <= NF; ++i) {
          if (a[i] == $i) continue
          if (a[i] !~ /^-?[0-9.e+-]+$/ || $i !~ /^-?[0-9.e+-]+$/) exit 1
          d = a[i] - $i; m = a[i] < 0 ? -a[i] : a[i]; if (m < 1) m = 1
          if ((d < 0 ? -d : d) > 1e-4 * m) { print "line " NR / 2 ": " a[i] " vs " $i; exit 1 } } }'
  }
  close_runs() { # NAME DIR_CPU DIR_GPU: their runs and metrics tables close, else NAME fails
    close_tables "$2/runs.csv" "$3/runs.csv" && close_tables "$2/metrics.csv" "$3/metrics.csv" &&
      ok "$1" || bad "$1: the GPU's tables differ from the CPU's"
  }
  close_tables deep_cpu/runs.csv deep_gpu/runs.csv &&
    close_tables deep_cpu/metrics.csv deep_gpu/metrics.csv &&
    [ "$(wc -l <deep_cpu/metrics.csv)" = "$(wc -l <deep_gpu/metrics.csv)" ] &&
    ok "a 3D experiment: the GPU's tables are the CPU's" || bad "a 3D experiment: the tables differ"
fi

# --- world settings swept: each a column, each combination the run its flags would make ----------
# (`--sweep boids=... --sweep neighbours=...` once failed as "no such parameter")
ws=(--model vicsek --runs 2 --steps 40 --metrics-every 20 --sweep boids=100,400
  --sweep neighbours=metric,nearest:7 --sweep dims=2,3)
"$boids" experiment "${ws[@]}" --backend cpu --out ws_cpu >/dev/null 2>ws.err &&
  head -1 ws_cpu/runs.csv | grep -q '^run,seed,boids,neighbours,dims,steps,' &&
  [ "$(wc -l <ws_cpu/runs.csv)" = 17 ] &&
  ok "boids, neighbours and dims swept: 16 runs, 3 columns" ||
  bad "world settings swept: $(head -2 ws_cpu/runs.csv) $(cat ws.err)"
same_as_run() { # RUN ROW-PREFIX FLAGS...: the run's metrics rows = the single command's
  local run=$1 prefix=$2
  shift 2
  "$boids" "$@" --steps 40 --metrics single.csv --metrics-every 20 --backend cpu --headless \
    >/dev/null 2>&1
  if cmp -s <(awk -F, -v r="$run" 'NR > 1 && $1 == r' ws_cpu/metrics.csv) \
    <(tail -n +2 single.csv | sed "s/^/$prefix,/"); then
    ok "run $run = boids $*"
  else bad "run $run differs from boids $*"; fi
}
same_as_run 0 0,1,100,metric,2 --model vicsek -n 100 --dims 2 --seed 1
same_as_run 7 7,2,100,nearest:7,3 --model vicsek -n 100 --neighbours nearest:7 --dims 3 --seed 2
same_as_run 13 13,2,400,nearest:7,2 --model vicsek -n 400 --neighbours nearest:7 --dims 2 --seed 2
# the model's own world follows the count at its density (4 particles a unit area); a world
# given is kept (vicsek.ini's 31.6 x 31.6: 100 particles are a tenth as dense)
for w in own given; do
  scenario=(--model vicsek)
  [ $w = given ] && scenario=("$(dirname "$kit")/vicsek.ini")
  "$boids" experiment "${scenario[@]}" --runs 1 --steps 0 --sweep boids=100,400 --backend cpu \
    --out "ws_$w" >/dev/null 2>&1
done
nn() { awk -F, -v n="$2" 'NR > 1 && $3 == n { print $9 }' "ws_$1/runs.csv"; }
awk -v a="$(nn own 100)" -v b="$(nn given 100)" -v c="$(nn own 400)" \
  'BEGIN { exit !(b > 2.5 * a && c > 0.8 * a && c < 1.25 * a) }' &&
  ok "a swept count: the model's own world keeps its density, a given one its size (mean nn" \
    "$(nn own 100) and $(nn own 400); $(nn given 100) in the given world)" ||
  bad "mean nearest-neighbour distances: $(nn own 100) $(nn own 400) $(nn given 100)"
for i in 1 2; do
  "$boids" experiment "${ws[@]}" --backend cpu --shard $i/2 --out "ws_sh$i" >/dev/null 2>&1
done
"$boids" experiment-merge ws_merged ws_sh2 ws_sh1 >/dev/null || bad "merging ws_sh1, ws_sh2"
same "world settings swept: 2 shards merged = one run" ws_merged ws_cpu
"$boids" experiment --resume ws_cpu >out 2>err && grep -q "0 to do" out &&
  ok "--resume reads the manifest of a sweep over world settings back" ||
  bad "--resume ws_cpu: $(cat out err)"
"$boids" experiment vicsek -n 50 --runs 1 --steps 10 --sweep world=10x10,20x20x20 \
  --backend cpu --out ws_world >/dev/null 2>&1
awk -F, 'NR == 2 && $3 == "10x10" { a = 1 } NR == 3 && $3 == "20x20x20" { b = 1 }
  END { exit !(a && b) }' ws_world/runs.csv && ok "the world's size swept, flat and 3D" ||
  bad "world sweep: $(cat ws_world/runs.csv)"
if [ $gpu = 1 ]; then
  "$boids" experiment "${ws[@]}" --backend gpu --out ws_gpu >/dev/null 2>&1
  if [ "$exact" = 1 ]; then
    close_runs "world settings swept: the GPU's replicas (a batch per count) are the CPU's runs" \
      ws_cpu ws_gpu
  else
    [ "$(wc -l <ws_gpu/runs.csv)" = 17 ] && ok "world settings swept on the GPU: 16 runs" ||
      bad "world settings swept on the GPU: $(wc -l <ws_gpu/runs.csv) lines"
  fi
fi
# a sweep of the count: each row is bounded by its own run's boids, not the experiment's base
# count (gregoire-chate's preset has 256): shards merge, --resume reads its rows back, and a row
# claiming more boids alive than its run has is refused by name
gc=(--model gregoire-chate --sweep boids=64,1000 --runs 2 --steps 20 --metrics-every 10
  --backend cpu)
"$boids" experiment "${gc[@]}" --out gc_whole >/dev/null 2>&1
for i in 1 2; do "$boids" experiment "${gc[@]}" --shard $i/2 --out "gc_sh$i" >/dev/null 2>&1; done
"$boids" experiment-merge gc_merged gc_sh1 gc_sh2 >out 2>err &&
  same "a swept count: 2 shards merged = one run" gc_merged gc_whole ||
  bad "a swept count: the shards do not merge: $(cat err)"
"$boids" experiment --resume gc_whole >out 2>err && grep -q "0 to do" out &&
  ok "a swept count: --resume reads the finished rows back" ||
  bad "a swept count: --resume: $(cat err)"
cp -r gc_sh1 gc_lie && sed -i '2s/^\(0,1,64,20,steps,0,\)64,/\1256,/' gc_lie/runs.csv
"$boids" experiment-merge never gc_lie gc_sh2 >out 2>err
[ $? = 2 ] && grep -q "gc_lie/runs.csv:2: .*run 0 (64 boids" err && [ ! -e never ] &&
  ok "a row claiming 256 alive of its run's 64 boids is refused, naming the file and line" ||
  bad "a row claiming 256 alive of 64: $(sed -n 2p gc_lie/runs.csv) $(cat err)"
expect2 "the model cannot be swept" "--sweep model=kit,vicsek: model cannot be swept" \
  "$kit" --runs 2 --out never --sweep model=kit,vicsek
expect2 "a swept setting's bad value" "--sweep neighbours=metric,nearest:40: .*nearest:K" \
  "$kit" --runs 2 --out never --sweep neighbours=metric,nearest:40
expect2 "a combination no world takes, before any run" "neighbours = nearest:7: .*kit walks" \
  "$kit" --runs 2 --out never --sweep neighbours=metric,nearest:7
expect2 "dims 2 over a swept 3D world" "world = 9x9x9: depth: dims 2 is a flat world" \
  vicsek --dims 2 --runs 2 --out never --sweep world=9x9,9x9x9
expect2 "a count that is not whole" "--sweep boids=10:20:4: '13.3333" \
  vicsek --runs 2 --out never --sweep boids=10:20:4

# a noisy model (vicsek): a run's noise is its own seed's, alone or as a replica of any batch, so
# its tables are the same whatever --batch, and on a bitwise driver the GPU's are the CPU's
vx=(vicsek -n 200 --world 7.07x7.07 --runs 6 --steps 60 --sweep eta=1,4 --metrics-every 20)
"$boids" experiment "${vx[@]}" --backend cpu --out vx_cpu >/dev/null
if [ $gpu = 1 ]; then
  "$boids" experiment "${vx[@]}" --backend gpu --out vx_gpu >/dev/null
  "$boids" experiment "${vx[@]}" --backend gpu --batch 4 --out vx_gpu4 >/dev/null
  same "vicsek on the gpu: --batch 4 = one batch per combination" vx_gpu4 vx_gpu
  if [ "$exact" = 1 ]; then
    close_runs "vicsek: the GPU's replicas are the CPU's runs, noise and all" vx_cpu vx_gpu
  fi
fi

finish
