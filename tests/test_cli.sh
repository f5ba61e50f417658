#!/usr/bin/env bash
# The program as a user drives it: --init then --dump round-trips a state exactly (on both
# backends); kit's catches, events, ages and predators files; bad CSV input and bad flags exit 2
# with a message naming the file and line or the flag; a --dump that cannot be written fails
# before any simulation and destroys nothing; a world of no boids measures nothing.
# usage: test_cli.sh path/to/boids path/to/gpu_info
set -u
boids=$(realpath "$1")
gpu_info=$(realpath "$2")
source "$(dirname "$0")/lib.sh"

# GPU available? (skip the GPU half only where no GL 4.3 context exists at all)
gpu_setup "$gpu_info"
backends="cpu"
[ $gpu = 1 ] && backends="cpu gpu"

# expect_exit CODE NAME PATTERN -- command...: exit code and a stderr pattern
expect() {
  local code=$1 name=$2 pattern=$3
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" != "$code" ]; then
    bad "$name: exit $rc, expected $code; stderr: $(head -c 300 "$tmp/err")"
  elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/err"; then
    bad "$name: stderr lacks '$pattern': $(head -c 300 "$tmp/err")"
  else
    ok "$name"
  fi
}

# --- round trips ------------------------------------------------------------------------------
for be in $backends; do
  "$boids" -n 500 --swarms 3 --seed 42 --steps 20 --backend "$be" --dump "$tmp/a_$be.csv" >/dev/null
  "$boids" --init "$tmp/a_$be.csv" --steps 0 --backend "$be" --dump "$tmp/b_$be.csv" >/dev/null
  if cmp -s "$tmp/a_$be.csv" "$tmp/b_$be.csv"; then ok "$be: --init then --dump round-trips exactly"
  else bad "$be: --init then --dump changed the state"; fi
  lines=$(wc -l <"$tmp/a_$be.csv")
  [ "$lines" = 501 ] && ok "$be: dump has a header and 500 rows" || bad "$be: dump has $lines lines"
  head -1 "$tmp/a_$be.csv" | grep -qx 'id,x,y,vx,vy,swarm' &&
    ok "$be: dump header" ||
    bad "$be: dump header"
done
# The state written and re-read is the same bits: continue 10 steps from the dump and from a
# straight 30-step run: identical.
"$boids" -n 500 --seed 42 --steps 30 --backend cpu --dump "$tmp/straight.csv" >/dev/null
"$boids" -n 500 --seed 42 --steps 20 --backend cpu --dump "$tmp/mid.csv" >/dev/null
"$boids" --init "$tmp/mid.csv" --steps 10 --backend cpu --dump "$tmp/resumed.csv" >/dev/null
cmp -s "$tmp/straight.csv" "$tmp/resumed.csv" && ok "resume from a dump = straight run" ||
  bad "resume from a dump differs"
# Rows in any order, extra columns ignored.
{ echo "id,x,y,vx,vy,swarm,age"; echo "1,10,20,1,2,0,5"; echo "0,30,40,-1,-2,0,7"; } \
  >"$tmp/extra.csv"
"$boids" --init "$tmp/extra.csv" --steps 0 --backend cpu --world 100x100 \
  --dump "$tmp/extra_out.csv" >/dev/null 2>&1
if [ "$(sed -n 2p "$tmp/extra_out.csv")" = "0,30,40,-1,-2,0" ]; then
  ok "rows in any order, extra column ignored"
else bad "reordered rows: $(cat "$tmp/extra_out.csv" 2>/dev/null)"; fi
if [ "$backends" = "cpu gpu" ]; then
  "$boids" -n 300 --seed 5 --steps 15 --backend cpu --dump "$tmp/c15.csv" >/dev/null
  "$boids" -n 300 --seed 5 --steps 15 --backend gpu --dump "$tmp/g15.csv" >/dev/null
  if [ "$exact" = 1 ]; then
    cmp -s "$tmp/c15.csv" "$tmp/g15.csv" && ok "gpu and cpu dumps identical (bitwise driver)" ||
      bad "gpu and cpu dumps differ on a driver that rounds as IEEE does"
  fi
fi

# --- kit: ages and alive flags, predators, catches, obstacles ------------------------------------
kit="$(dirname "$(realpath "$0")")/../scenarios/kit.ini"
for be in $backends; do
  # The acceptance run: stops after three catches and writes them with their ages.
  "$boids" "$kit" --headless --seed 7 --set c_maxspeed=200 --set stop_after_catches=3 \
    --backend "$be" --events "$tmp/ev_$be.csv" --dump "$tmp/kit_$be.csv" \
    --dump-predators "$tmp/pred_$be.csv" >"$tmp/kit_$be.out"
  rows=$(($(wc -l <"$tmp/ev_$be.csv") - 1))
  if head -1 "$tmp/ev_$be.csv" | grep -qx 'step,time,boid,age,predator' && [ "$rows" = 3 ] &&
    grep -q "3 catches, stopped after [0-9]* steps" "$tmp/kit_$be.out"; then
    ok "$be: kit stops after 3 catches, --events has them"
  else bad "$be: kit stop/events: $rows rows; $(grep catch "$tmp/kit_$be.out")"; fi
  # the summary's ages are the file's, and each caught boid is dead in the dump with that age
  ages=$(tail -n +2 "$tmp/ev_$be.csv" | awk -F, '{printf "%s%.3f", (NR > 1 ? ", " : ""), $4}')
  grep -q "ages $ages\$" "$tmp/kit_$be.out" &&
    ok "$be: summary ages = --events ages" ||
    bad "$be: summary ages, events say $ages"
  dead=$(awk -F, 'NR > 1 && $8 == 0 {print $1}' "$tmp/kit_$be.csv" | sort -n | tr '\n' ' ')
  caught=$(tail -n +2 "$tmp/ev_$be.csv" | cut -d, -f3 | sort -n | tr '\n' ' ')
  head -1 "$tmp/kit_$be.csv" | grep -qx 'id,x,y,vx,vy,swarm,age,alive' && [ "$dead" = "$caught" ] &&
    ok "$be: the dump's dead (alive = 0) are the caught boids" ||
    bad "$be: dead '$dead' vs caught '$caught'"
  # --init and --predators round-trip the kit state exactly
  "$boids" "$kit" --init "$tmp/kit_$be.csv" --predators "$tmp/pred_$be.csv" --steps 0 \
    --backend "$be" --dump "$tmp/kit2_$be.csv" --dump-predators "$tmp/pred2_$be.csv" >/dev/null
  cmp -s "$tmp/kit_$be.csv" "$tmp/kit2_$be.csv" &&
    cmp -s "$tmp/pred_$be.csv" "$tmp/pred2_$be.csv" &&
    ok "$be: kit --init/--predators then --dump/--dump-predators round-trips" ||
    bad "$be: kit round trip changed the state"
done
# The same catches on both backends where the GPU rounds as IEEE does; elsewhere trajectories
# part (test_kit and test_experiment compare the catches as statistics).
if [ "$backends" = "cpu gpu" ] && [ "$exact" = 1 ]; then
  cmp -s "$tmp/ev_cpu.csv" "$tmp/ev_gpu.csv" && ok "the same catches on both backends" ||
    bad "catches differ between backends"
fi
# --events where nothing is caught (a model without predators, kit without any): the table's
# header alone, as the user asked for a file (none was written, without a word)
for world in "-n 10" "$kit --set predators=0"; do
  rm -f "$tmp/none.csv"
  # shellcheck disable=SC2086 # the world's words are separate arguments
  "$boids" $world --steps 2 --backend cpu --headless --events "$tmp/none.csv" >"$tmp/out" 2>&1
  [ "$(cat "$tmp/none.csv" 2>/dev/null)" = "step,time,boid,age,predator" ] &&
    grep -q "no catches .*: the header alone written to $tmp/none.csv" "$tmp/out" &&
    ok "--events without catches ($world): the header alone, said" ||
    bad "--events without catches ($world): $(cat "$tmp/none.csv" "$tmp/out" 2>&1 | head -c 300)"
done
# a predators file sets the number of predators; --set predators must then agree
head -3 "$tmp/pred_cpu.csv" >"$tmp/two.csv"
"$boids" "$kit" --predators "$tmp/two.csv" --steps 1 --backend cpu \
  --dump-predators "$tmp/two_out.csv" >/dev/null
[ "$(wc -l <"$tmp/two_out.csv")" = 3 ] &&
  ok "--predators sets the number of predators" ||
  bad "--predators count: $(cat "$tmp/two_out.csv")"
expect 2 "--predators disagrees with --set predators" "--set predators" \
  -- "$boids" "$kit" --predators "$tmp/two.csv" --set predators=3 --backend cpu
printf 'id,x,y,vx,vy\n0,10,10,1,1\n1,10,abc,1,1\n' >"$tmp/pbad.csv"
expect 2 "bad predators file names line 3" "pbad.csv:3" \
  -- "$boids" "$kit" --predators "$tmp/pbad.csv" --backend cpu
printf 'id,x,y,vx,vy\n0,10,10,1,1\n1,5000,10,1,1\n' >"$tmp/pout.csv"
expect 2 "a predator outside the world names line 3" "pout.csv:3" \
  -- "$boids" "$kit" --predators "$tmp/pout.csv" --backend cpu
expect 2 "--predators for a model without predators" "--predators" \
  -- "$boids" --predators "$tmp/two.csv" --backend cpu -n 10
expect 2 "--events into a missing directory" "--events" \
  -- "$boids" "$kit" --backend cpu --events "$tmp/no/such/e.csv"
expect 2 "--dump-predators into a missing directory" "--dump-predators" \
  -- "$boids" "$kit" --backend cpu --dump-predators "$tmp/no/such/p.csv"
expect 2 "--obstacle 1,2" "--obstacle" -- "$boids" --obstacle 1,2 -n 10 --backend cpu
expect 2 "--obstacle with a negative radius" "--obstacle" \
  -- "$boids" --obstacle 1,2,-3 -n 10 --backend cpu
expect 2 "--obstacle outside the world names it" "^boids: --obstacle 500,20,5: " \
  -- "$boids" --obstacle 500,20,5 --world 100x100 -n 10 --backend cpu
# a number that is not a float: the message's centre is the float, and says what was given
# (it printed "(100000000, 2)" beside --obstacle 99999999,2,3 without a word)
expect 2 "--obstacle 99999999,2,3: the centre as given and exactly" \
  "centre (100000000, 2) is outside .* (99999999 reads as the float 100000000)$" \
  -- "$boids" --obstacle 99999999,2,3 -n 10 --backend cpu
{ echo "world = 1000x1000";
  for i in $(seq 1 300); do echo "obstacle = $i,$i,2"; done;
  echo "obstacle = 1,1000,2"; } >"$tmp/obs.ini"
expect 2 "a scenario's obstacle outside the world names its line (301 obstacles)" \
  "obs.ini:302: obstacle" -- "$boids" "$tmp/obs.ini" -n 10 --backend cpu
sed -i '$d' "$tmp/obs.ini"
expect 0 "a scenario with 300 obstacles" "" -- "$boids" "$tmp/obs.ini" -n 10 --steps 2 --backend cpu

# --- --metrics: a row every K steps and one for the last state ------------------------------------
for be in $backends; do
  "$boids" -n 2000 --steps 250 --metrics-every 100 --backend "$be" \
    --metrics "$tmp/met_$be.csv" >/dev/null
  if head -1 "$tmp/met_$be.csv" |
    grep -qx 'step,time,alive,polarization,mean_nn,mean_speed,min_speed,max_speed,groups,catches,'\
'milling' &&
    [ "$(cut -d, -f1 "$tmp/met_$be.csv" | tail -n +2 | tr '\n' ' ')" = "0 100 200 250 " ]; then
    ok "$be: --metrics writes rows at steps 0, 100, 200 and the last, 250"
  else bad "$be: --metrics: $(cat "$tmp/met_$be.csv")"; fi
done
if [ "$backends" = "cpu gpu" ]; then
  # The same run on both backends. Step 0 is the same state on both: the same observables to the
  # rounding of the GPU's float sums (1e-5, relative), and so is every row on a bitwise driver.
  # Everywhere each observable of the later rows is held to the spread of the CPU's ensemble: 10
  # runs from seeds 1 to 10 (member 0 is the run above; tests/ensemble.h states the bound), with
  # the slack of the metrics' rounding on one state (none for the counts).
  same_rows() { # FILE_A FILE_B LAST_ROW_CHECKED: the rows within 1e-5
    paste -d, "$1" "$2" | tail -n +2 | head -n "$3" | awk -F, '{
      for (k = 3; k <= NF / 2; ++k) { a = $k; b = $(k + NF / 2); d = a - b; if (d < 0) d = -d;
        m = (a < 0 ? -a : a); if (d > 1e-5 * (m > 1 ? m : 1)) exit 1 } }'
  }
  rows=$(($(wc -l <"$tmp/met_cpu.csv") - 1))
  [ "$exact" = 1 ] && checked=$rows || checked=1
  same_rows "$tmp/met_cpu.csv" "$tmp/met_gpu.csv" $checked &&
    ok "--metrics: the same observables on both backends ($checked of $rows rows within 1e-5)" ||
    bad "--metrics differ between backends: $(paste -d'|' "$tmp/met_cpu.csv" "$tmp/met_gpu.csv" |
      head -3)"
fi
# The GPU's run against the CPU's ensemble: statistics, which the sanitizers' build leaves to the
# suite without them (nine more runs of the code the run above walks, and 48 checks of the
# spread: two thirds of this test's time there).
if [ "$backends" = "cpu gpu" ] && [ "${BOIDS_TEST_SANITIZED:-0}" = 1 ]; then
  skip "--metrics: the GPU's run against the CPU ensemble (checked where not sanitized)"
elif [ "$backends" = "cpu gpu" ]; then
  for ((m = 1; m < 10; ++m)); do
    "$boids" -n 2000 --seed $((1 + m)) --steps 250 --metrics-every 100 --backend cpu \
      --metrics "$tmp/met_cpu$m.csv" >/dev/null || bad "ensemble member $m did not run"
  done
  # in_spread GPU_METRICS_FILE: every observable of every row after the first within the spread
  in_spread() {
    local row col all=0 names
    IFS=, read -r -a names <"$1"
    # the kind of each column 3..10: alive, polarization, mean_nn, mean/min/max speed, groups,
    # catches
    local kinds=(- - - count polarization measure measure measure measure count count)
    for ((row = 3; row <= rows + 1; ++row)); do
      for col in 3 4 5 6 7 8 9 10; do
        # shellcheck disable=SC2046 # the values are separate arguments
        "$ensemble" check "${names[col - 1]}@$(sed -n "${row}p" "$1" | cut -d, -f1)" \
          "${kinds[col]}" "$(sed -n "${row}p" "$1" | cut -d, -f$col)" \
          $(for f in "$tmp/met_cpu.csv" "$tmp"/met_cpu[0-9].csv; do
            sed -n "${row}p" "$f" | cut -d, -f$col; done) >>"$tmp/spread.log" 2>&1 || all=1
      done
    done
    return $all
  }
  if in_spread "$tmp/met_gpu.csv"; then
    ok "--metrics: every observable of the GPU's run within the CPU ensemble's spread"
  else
    bad "--metrics: the GPU's run left the CPU ensemble's spread: $(grep '> ' "$tmp/spread.log")"
  fi
  # ... a check that fails on a wrong rule: the GPU with cohesion's sign flipped
  "$boids" -n 2000 --steps 250 --metrics-every 100 --backend gpu --set cohesion_weight=-1 \
    --metrics "$tmp/met_wrong.csv" >/dev/null
  : >"$tmp/spread.log"
  in_spread "$tmp/met_wrong.csv" &&
    bad "--metrics: a GPU with cohesion flipped is within the spread" ||
    ok "--metrics: a GPU with cohesion flipped leaves the spread"
fi
expect 2 "--metrics-every 0" "--metrics-every" \
  -- "$boids" -n 10 --metrics "$tmp/m.csv" --metrics-every 0 --backend cpu
# --- --field: the field measures' columns; --field-profile: the last state's profiles -------------
"$boids" -n 2000 --steps 20 --metrics-every 10 --backend cpu --metrics "$tmp/fm.csv" \
  --field 60,30,8 --field-profile "$tmp/fp.csv" >/dev/null
if head -1 "$tmp/fm.csv" | grep -q ',milling,xi,xi_speed,n_c,diameter$' &&
  [ "$(awk -F, 'NR > 1 && NF == 15' "$tmp/fm.csv" | wc -l)" = 3 ]; then
  ok "--field: xi, xi_speed, n_c and diameter after --metrics' columns, in each of its 3 rows"
else bad "--field: $(cat "$tmp/fm.csv")"; fi
# the profile's gamma(n) gives the n_c of the metrics' last row: its first n within 0.02 of 1/2
# (or below) after it was above
n_c=$(tail -1 "$tmp/fm.csv" | cut -d, -f14)
first=$(awk -F, '$2 == "gamma" && $4 > 0.52 { up = 1 }
  $2 == "gamma" && $4 <= 0.52 && up { print $3; exit }' "$tmp/fp.csv")
if head -1 "$tmp/fp.csv" | grep -qx 'step,measure,x,value' &&
  [ "$(grep -c ',pairs,' "$tmp/fp.csv")" = 30 ] &&
  [ "$(grep -c '^20,gamma,' "$tmp/fp.csv")" = 8 ] &&
  [ "${first:-0}" = "$n_c" ]; then
  ok "--field-profile: 30 bins of pairs, gamma(1..8) at step 20, its n_c the metrics' ($n_c)"
else bad "--field-profile: n_c $n_c, gamma's first n $first: $(head -3 "$tmp/fp.csv")"; fi
expect 2 "--field without --metrics or --field-profile: refused" "^boids: --field measures for" \
  -- "$boids" -n 10 --steps 1 --backend cpu --headless --field 10
expect 2 "--field with 300 bins: refused" "^boids: --field: '10,300' is not R\[,BINS" \
  -- "$boids" -n 10 --steps 1 --backend cpu --headless --metrics "$tmp/m.csv" --field 10,300
expect 2 "--field with a flock of no such kind: refused" "^boids: --field: '10,herd' is not" \
  -- "$boids" -n 10 --steps 1 --backend cpu --headless --metrics "$tmp/m.csv" --field 10,herd
expect 2 "--field 1e-50, too small for a float (not 0: half the world): refused" \
  "^boids: --field: '1e-50' is not R.*a positive R a float holds" \
  -- "$boids" -n 10 --steps 1 --backend cpu --headless --metrics "$tmp/m.csv" --field 1e-50
expect 2 "--field's message says what a BINS or RANKS of 0 means (5,0 is taken: 64 bins)" \
  "BINS in \[1, 256\] (0 or left out: 64), RANKS in \[1, 32\] (0 or left out: 20)" \
  -- "$boids" -n 10 --steps 1 --backend cpu --headless --metrics "$tmp/m.csv" --field 5,300
"$boids" -n 300 --swarms 3 --steps 5 --backend cpu --headless --metrics "$tmp/fs.csv" \
  --field 60,swarm >/dev/null && [ "$(tail -1 "$tmp/fs.csv" | awk -F, '{ print NF }')" = 15 ] &&
  ok "--field R,swarm: each swarm a flock" || bad "--field 60,swarm: $(cat "$tmp/fs.csv")"
# Ctrl-C in the middle of a field measure (400 000 boids, 300 px: seconds of pairs, the first row
# at step 0) ends the run as any Ctrl-C does: exit 130, said (it was exit 1, an error)
# (not under the sanitizers, whose start alone may outlast the 1.5 s)
fi_runs=("--metrics $tmp/fi.csv" "--field-profile $tmp/fi.prof.csv")
[ "${BOIDS_TEST_SANITIZED:-0}" = 1 ] && fi_runs=() &&
  skip "Ctrl-C in a field measure: timed for a build without the sanitizers"
for out in "${fi_runs[@]}"; do
  # shellcheck disable=SC2086 # $out is a flag and its file
  "$boids" -n 400000 --steps 1 --backend cpu --headless $out --field 300 >/dev/null \
    2>"$tmp/fi.err" &
  pid=$!
  sleep 1.5
  kill -INT $pid
  wait $pid
  rc=$?
  [ $rc = 130 ] && grep -q "^boids: interrupted: .*field measures of 400000 boids were stopped" \
    "$tmp/fi.err" && ok "Ctrl-C in a field measure (${out%% *}): exit 130, said" ||
    bad "Ctrl-C in a field measure (${out%% *}): exit $rc: $(cat "$tmp/fi.err")"
done
# from:X (either side of the flock): xi from X px on, so 0 or at least X, in every row
"$boids" -n 300 --swarms 3 --steps 20 --backend cpu --headless --metrics "$tmp/ff.csv" \
  --field 60,30,8,from:20,swarm >/dev/null &&
  "$boids" -n 300 --swarms 3 --steps 20 --backend cpu --headless --metrics "$tmp/ff2.csv" \
    --field 60,30,8,swarm,from:20 >/dev/null && cmp -s "$tmp/ff.csv" "$tmp/ff2.csv" &&
  awk -F, 'NR > 1 && !($12 == 0 || $12 >= 20) { exit 1 }' "$tmp/ff.csv" &&
  ok "--field R,BINS,RANKS,from:X,FLOCK: xi 0 or from X px on, the words in either order" ||
  bad "--field from:20: $(cat "$tmp/ff.csv")"
expect 2 "--field from:-1: refused" "^boids: --field: '10,from:-1' is not" \
  -- "$boids" -n 10 --steps 1 --backend cpu --headless --metrics "$tmp/m.csv" --field 10,from:-1
expect 2 "--field -1: refused" "^boids: --field: '-1' is not" \
  -- "$boids" -n 10 --steps 1 --backend cpu --headless --metrics "$tmp/m.csv" --field -1
expect 2 "--metrics into a missing directory" "--metrics" \
  -- "$boids" -n 10 --metrics "$tmp/no/such/m.csv" --backend cpu

# --- bad CSV: exit 2 naming the file and line ---------------------------------------------------
printf 'id,x,y,vx,swarm\n0,1,2,3,0\n' >"$tmp/hdr.csv"
expect 2 "bad header names line 1" "hdr.csv:1" -- "$boids" --init "$tmp/hdr.csv" --backend cpu
printf 'id,x,y,vx,vy,swarm\n0,1,2,3,4,0\n1,1,abc,3,4,0\n' >"$tmp/num.csv"
expect 2 "non-number names line 3" "num.csv:3" -- "$boids" --init "$tmp/num.csv" --backend cpu
printf 'id,x,y,vx,vy,swarm\n0,1,2,3,4,0\n1,1,2,3\n' >"$tmp/short.csv"
expect 2 "short row names line 3" "short.csv:3" -- "$boids" --init "$tmp/short.csv" --backend cpu
printf 'id,x,y,vx,vy,swarm\n0,1,2,3,4,0\n0,5,6,7,8,0\n' >"$tmp/dup.csv"
expect 2 "duplicate id names line 3" "dup.csv:3" -- "$boids" --init "$tmp/dup.csv" --backend cpu
printf 'id,x,y,vx,vy,swarm\n0,1,2,nan,4,0\n' >"$tmp/nan.csv"
expect 2 "NaN names line 2" "nan.csv:2" -- "$boids" --init "$tmp/nan.csv" --backend cpu
printf 'id,x,y,vx,vy,swarm\n0,1,2,3,4,0\n5,1,2,3,4,0\n' >"$tmp/gap.csv"
expect 2 "id out of range names line 3" "gap.csv:3" -- "$boids" --init "$tmp/gap.csv" --backend cpu
printf 'id,x,y,vx,vy,swarm\n0,-5,2,3,4,0\n' >"$tmp/out.csv"
expect 2 "position outside the world names line 2" "out.csv:2" \
  -- "$boids" --init "$tmp/out.csv" --world 100x100 --backend cpu
printf 'id,x,y,vx,vy,swarm\n0,10,10,3e38,0,0\n1,12,10,3e38,0,0\n' >"$tmp/fast.csv"
expect 2 "absurd velocity names line 2" "fast.csv:2" \
  -- "$boids" --init "$tmp/fast.csv" --world 100x100 --backend cpu
printf 'id,x,y,vx,vy,swarm\n0,10,10,1,1,4294967295\n' >"$tmp/swarm.csv"
expect 2 "huge swarm names line 2" "swarm.csv:2" -- "$boids" --init "$tmp/swarm.csv" --backend cpu
printf 'id,x,y,vx,vy,swarm\n0,10,10,0x10,1,0\n' >"$tmp/hex.csv"
expect 2 "hex number names line 2" "hex.csv:2" -- "$boids" --init "$tmp/hex.csv" --backend cpu
expect 2 "missing init file" "nope.csv" -- "$boids" --init "$tmp/nope.csv" --backend cpu
expect 2 "--boids disagrees with the file" "--boids" \
  -- "$boids" --init "$tmp/a_cpu.csv" -n 7 --backend cpu
# --swarms as -n: the file's (3 here), or refused (7 was taken, with four swarms empty)
expect 2 "--swarms above the file's: refused" "a_cpu.csv has 3 swarms but --swarms asks for 7" \
  -- "$boids" --init "$tmp/a_cpu.csv" --swarms 7 --backend cpu
expect 2 "--swarms below the file's: refused" "a_cpu.csv has 3 swarms but --swarms asks for 2" \
  -- "$boids" --init "$tmp/a_cpu.csv" --swarms 2 --backend cpu
expect 0 "--swarms as the file's: taken" "" \
  -- "$boids" --init "$tmp/a_cpu.csv" --swarms 3 -n 500 --steps 0 --backend cpu

# --- bad flags: exit 2 naming the flag ----------------------------------------------------------
expect 2 "--boids abc" "--boids" -- "$boids" --boids abc
expect 2 "-n -5" "-n" -- "$boids" -n -5
expect 2 "--world 10" "--world" -- "$boids" --world 10
expect 2 "--world 0x100" "--world" -- "$boids" --world 0x100
expect 2 "--dt 0" "--dt" -- "$boids" --dt 0
expect 2 "--backend foo" "--backend" -- "$boids" --backend foo
expect 2 "--model foo" "--model" -- "$boids" --model foo
expect 2 "--set unknown key" "nope" -- "$boids" --set nope=1 --backend cpu
expect 2 "--set out of range" "max_speed" -- "$boids" --set max_speed=-1 --backend cpu
expect 2 "--set no value" "--set" -- "$boids" --set max_speed --backend cpu
expect 2 "--set min above max" "min_speed" -- "$boids" --set min_speed=500 --backend cpu -n 10
expect 2 "unknown option" "--frobnicate" -- "$boids" --frobnicate
expect 2 "-n10: did you mean -n 10" "^boids: unknown option '-n10' (did you mean -n 10? see" \
  -- "$boids" -n10
expect 2 "-n=10: did you mean -n 10" "^boids: unknown option '-n=10' (did you mean -n 10? see" \
  -- "$boids" -n=10
expect 2 "missing value" "--steps" -- "$boids" --steps
expect 2 "--swarms 0" "--swarms" -- "$boids" --swarms 0
expect 2 "--swarms 2000" "--swarms" -- "$boids" --swarms 2000 -n 10 --backend cpu
expect 2 "--dt 2" "--dt:" -- "$boids" --dt 2 -n 10 --backend cpu
# no display, no --headless: the run goes on headless and says so, in a log too (only a terminal
# was told)
expect 0 "no display: headless, said where stderr is a file" \
  "^boids: no display (DISPLAY is not set): running headless" \
  -- env -u DISPLAY -u WAYLAND_DISPLAY "$boids" -n 10 --steps 1 --backend cpu
# a frame-based model steps one frame whatever dt says: a headless run's --dt and a sweep of dt
# are refused (a sweep's combinations were equal), a per-second model's taken
expect 2 "--dt for a frame-based model, headless" "^boids: --dt: vicsek steps by frames" \
  -- "$boids" --model vicsek -n 10 --dt 0.5 --headless --steps 1 --backend cpu
expect 2 "--sweep dt= for a frame-based model" "^boids experiment: --sweep dt=0.5,1: vicsek" \
  -- "$boids" experiment vicsek -n 10 --sweep dt=0.5,1 --runs 1 --steps 1 --out "$tmp/never"
# the same dt from a scenario file (it was taken), where it is not the model's own: the presets'
# dt = 1 (a step is the unit of the metrics' time) stays
printf 'model = vicsek\nboids = 10\ndt = 0.5\n' >"$tmp/vdt.ini"
expect 2 "a frame-based model's dt in a scenario, headless: refused naming file and line" \
  "^boids: .*vdt.ini:3: dt: vicsek steps by frames.*other than its own (1)" \
  -- "$boids" "$tmp/vdt.ini" --headless --steps 1 --backend cpu
expect 2 "... and in an experiment" "vdt.ini:3: dt: vicsek steps by frames" \
  -- "$boids" experiment "$tmp/vdt.ini" --runs 1 --steps 1 --out "$tmp/never"
expect 0 "the vicsek preset's own dt = 1, headless" "" \
  -- "$boids" "$(dirname "$kit")/vicsek.ini" -n 10 --headless --steps 1 --backend cpu
expect 0 "--dt for a per-second model" "" \
  -- "$boids" -n 10 --dt 0.05 --headless --steps 1 --backend cpu
expect 2 "-n beyond the maximum names -n" "^boids: -n: 300000000 exceeds the maximum" \
  -- "$boids" -n 300000000 --backend cpu
expect 2 "--boids beyond the maximum names --boids" "^boids: --boids: 300000000 exceeds" \
  -- "$boids" --boids 300000000 --backend cpu
# a number beyond a float, or one that would read as 0, says so (both were "not a decimal number",
# or 1e-50 silently 0)
expect 2 "--set 1e40: beyond a float's range" "max_speed: '1e40' is beyond a float's range" \
  -- "$boids" --set max_speed=1e40 -n 10 --steps 1 --headless --backend cpu
expect 2 "--set 1e-50: would read as 0" "max_speed: '1e-50' is too small for a float" \
  -- "$boids" --set max_speed=1e-50 -n 10 --steps 1 --headless --backend cpu
expect 2 "--sweep A:B:1 with A != B (only A ran)" "a count in \[2, .*1 where A = B" \
  -- "$boids" experiment -n 10 --sweep align_weight=0:2:1 --runs 1 --out "$tmp/never"
expect 2 "--set making min above max" "--set max_speed" \
  -- "$boids" --set max_speed=16 -n 10 --backend cpu
expect 2 "--set hex" "--set" -- "$boids" --set max_speed=0x10 --backend cpu
expect 2 "--set inf" "--set" -- "$boids" --set max_speed=inf --backend cpu
expect 2 "--headless=no" "--headless" -- "$boids" --headless=no
expect 2 "--threads with the GPU" "--threads" -- "$boids" --threads 2 --backend gpu
expect 2 "a world a step crosses names --world" "--world" \
  -- "$boids" --world 3x3 -n 10 --backend cpu
# ... with its whole size: a 3D world's depth was left out ("3x3", "10000000x3")
expect 2 "a 3D world a step crosses: WxHxD" "step is not below the world size 3x3x10000000$" \
  -- "$boids" --world 3x3x1e7 -n 10 --backend cpu
expect 2 "a 3D world a step crosses: WxHxD, long along x" \
  "step is not below the world size 10000000x3x3$" -- "$boids" --world 1e7x3x3 -n 10 --backend cpu

# --- an option that would do nothing is refused, naming what it needs ---------------------------
# (each was taken with exit 0: a headless run without a picture has nothing to size or frame)
quiet=(-n 10 --steps 1 --backend cpu --headless)
for flag in "--size 64x48" "--boid-size 12" "--view 0,0,10,10"; do
  expect 2 "headless, no picture: $flag refused" \
    "^boids: ${flag% *} .* pictures of --frames, --video and --screenshot, .* makes none" \
    -- "$boids" "${quiet[@]}" $flag
done
for flag in "--fps 24" "--frame-steps 2"; do
  expect 2 "headless, no frames: $flag refused" \
    "^boids: ${flag% *} .* frames of --frames and --video, and this headless run records none" \
    -- "$boids" "${quiet[@]}" $flag
done
expect 2 "--frame-steps with a --screenshot alone: refused" "^boids: --frame-steps spaces" \
  -- "$boids" "${quiet[@]}" --frame-steps 2 --screenshot "$tmp/shot.png"
expect 2 "--orbit in 3D without --frames or --video: refused" "^boids: --orbit turns the view" \
  -- "$boids" "${quiet[@]}" --dims 3 --orbit 10 --screenshot "$tmp/shot.png"
expect 2 "--camera in 3D without a picture: refused" "^boids: --camera places the eye" \
  -- "$boids" "${quiet[@]}" --dims 3 --camera 1,2,3,4,5,6
expect 2 "--view in a 3D world: refused, naming --camera" \
  "^boids: --view: the world is 3D.*--camera" \
  -- "$boids" "${quiet[@]}" --dims 3 --view 0,0,10,10 --screenshot "$tmp/shot.png"
expect 2 "no display: a headless run, --size refused" "^boids: --size sizes" \
  -- env -u DISPLAY -u WAYLAND_DISPLAY "$boids" -n 10 --steps 1 --backend cpu --size 64x48
expect 2 "--metrics-every without --metrics: refused" \
  "^boids: --metrics-every spaces the rows of --metrics FILE.csv, and this run writes none" \
  -- "$boids" "${quiet[@]}" --metrics-every 5
expect 2 "--layout with --init: refused" \
  "^boids: --layout: --init gives the whole start, and the layout lays out a random one" \
  -- "$boids" --init "$tmp/a_cpu.csv" --layout centre --steps 1 --backend cpu --headless
expect 2 "kit: --layout with --init and --predators: refused" "^boids: --layout: --init with" \
  -- "$boids" "$kit" --init "$tmp/kit_cpu.csv" --predators "$tmp/pred_cpu.csv" --layout uniform \
  --steps 1 --backend cpu --headless
# ... and taken where they do something: kit's layout still places the predators
expect 0 "kit: --layout with --init, the predators random: taken" "" \
  -- "$boids" "$kit" --init "$tmp/kit_cpu.csv" --layout uniform --steps 1 --backend cpu --headless
if [ $gpu = 1 ]; then
  expect 0 "--size, --view and --boid-size with a --screenshot: taken" "" \
    -- "$boids" "${quiet[@]}" --size 64x48 --view 0,0,10,10 --boid-size 12 \
    --screenshot "$tmp/shot.png"
  expect 0 "--fps and --frame-steps with --frames: taken" "" \
    -- "$boids" "${quiet[@]}" --steps 2 --size 32x32 --fps 24 --frame-steps 2 --frames "$tmp/fr"
fi

# --- --dump that cannot be written: error before the run, nothing destroyed -------------------
expect 2 "--dump into a missing directory" "--dump" \
  -- "$boids" -n 10 --backend cpu --dump "$tmp/no/such/dir/x.csv"
mkdir "$tmp/adir"
expect 2 "--dump to a directory" "is a directory" -- "$boids" -n 10 --backend cpu --dump "$tmp/adir"
echo keep >"$tmp/keep.csv"
"$boids" --init "$tmp/nan.csv" --backend cpu --dump "$tmp/keep.csv" >/dev/null 2>&1
[ "$(cat "$tmp/keep.csv")" = keep ] &&
  ok "a failed run leaves an existing dump file alone" ||
  bad "existing dump file overwritten"
ls "$tmp" | grep -q '\.tmp\.' && bad "temporary files left behind" ||
  ok "no temporary files left behind"

# --- no GL 4.3 context: one line, non-zero, a hint. On a machine without a hardware GPU the EGL
# device platform has none (llvmpipe is skipped there), which makes the failure real.
# (Mesa's probe of the device platform leaks an allocation in a driver it unloads again, out of
# reach of a suppression by name: leak checks are off for this one run of the sanitizer build.)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  BOIDS_EGL_PLATFORM=device "$boids" -n 10 --steps 1 --backend gpu --headless >"$tmp/out" \
  2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ]; then
  skip "no-GL path not exercised: this machine has a hardware GPU"
elif [ "$rc" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q -- "--backend cpu" "$tmp/err"; then
  ok "no GL context: exit 1, one line: $(cat "$tmp/err")"
else
  bad "no GL context: exit $rc, stderr: $(cat "$tmp/err")"
fi

# --- a bad BOIDS_* setting is the user's to fix: exit 2 naming the variable, no "try --backend
# cpu" as if the GPU had failed; and --backend auto refuses it too, not taking it for no GPU.
# (" -1" was taken as no limit at all, "hots" without a word, exit 1 for the others; with
# --backend cpu, or auto taking the CPU, every one passed unseen, and BOIDS_GPU_CHECKS=yes or
# BOIDS_GL_DEBUG=2 anywhere.)
settings=("BOIDS_GPU_LIMIT_BLOCK_BYTES= -1" BOIDS_GPU_LIMIT_BLOCK_BYTES=0
  BOIDS_GPU_LIMIT_BLOCK_BYTES=99999999999999999999 BOIDS_GPU_LIMIT_GROUPS_X=0
  BOIDS_GPU_LIMIT_TEXELS=0 BOIDS_EGL_PLATFORM=bogus BOIDS_EGL_DEVICE=abc "BOIDS_EGL_DEVICE= 0"
  BOIDS_GPU_NUMERICS=bogus
  BOIDS_GPU_READ=hots BOIDS_GPU_CHECKS=yes BOIDS_GL_DEBUG=2)
backends=(cpu)
[ $gpu = 1 ] && backends=(cpu gpu auto)
for be in "${backends[@]}"; do
  for setting in "${settings[@]}"; do
    env "$setting" "$boids" -n 10 --steps 1 --backend "$be" --dump "$tmp/env.csv" \
      >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc = 2 ] && grep -q "^boids: ${setting%%=*}: '" "$tmp/err" &&
      ! grep -q -- "--backend cpu" "$tmp/err" && [ ! -e "$tmp/env.csv" ]; then
      ok "$setting, --backend $be: exit 2, $(head -c 100 "$tmp/err")"
    else bad "$setting, --backend $be: exit $rc: $(head -c 300 "$tmp/err")"; fi
  done
done
expect 2 "BOIDS_GPU_READ=hots in an experiment on the CPU: refused" "BOIDS_GPU_READ: 'hots'" \
  -- env BOIDS_GPU_READ=hots "$boids" experiment --backend cpu -n 10 --steps 1 --runs 1 \
  --out "$tmp/env_cpu_exp"
[ -e "$tmp/env_cpu_exp" ] && bad "a refused experiment made its directory"
if [ $gpu = 1 ]; then
  expect 2 "BOIDS_EGL_PLATFORM=bogus with --backend auto: refused" \
    "BOIDS_EGL_PLATFORM: 'bogus'" -- env BOIDS_EGL_PLATFORM=bogus "$boids" -n 10 --steps 1
  expect 2 "BOIDS_GPU_LIMIT_GROUPS_X=x in an experiment: refused" "BOIDS_GPU_LIMIT_GROUPS_X: 'x'" \
    -- env BOIDS_GPU_LIMIT_GROUPS_X=x "$boids" experiment --backend gpu -n 10 --steps 1 --runs 1 \
    --out "$tmp/env_exp"
fi

# --backend auto (the default): the CPU where OpenGL runs on the CPU or is missing, saying so
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  BOIDS_EGL_PLATFORM=device "$boids" -n 10 --steps 1 >"$tmp/out" 2>&1
if [ $? = 0 ] && grep -q "backend cpu (auto: no OpenGL 4.3 context here: .*no hardware device" \
  "$tmp/out"; then
  ok "auto without OpenGL: the CPU, said"
elif grep -q "backend gpu (auto:" "$tmp/out"; then ok "auto: a hardware GPU here"
else bad "auto without OpenGL: $(head -2 "$tmp/out")"; fi
"$boids" -n 10 --steps 1 >"$tmp/out" 2>&1
if [ $gpu = 1 ] && [ "$("$gpu_info" software)" = 1 ]; then
  grep -q "backend cpu (auto: .* runs on the CPU" "$tmp/out" &&
    ok "auto on a software rasterizer: the CPU, said" ||
    bad "auto on a software rasterizer: $(head -1 "$tmp/out")"
elif [ $gpu = 1 ]; then
  grep -q "backend gpu (auto: " "$tmp/out" &&
    ok "auto on a GPU: the GPU" ||
    bad "auto on a GPU: $(head -1 "$tmp/out")"
fi

# --- help and version ----------------------------------------------------------------------------
expect 0 "--help" "" -- "$boids" --help
grep -q "shiffman-per-second" "$tmp/out" && ok "--help lists the model" ||
  bad "--help lacks the model"
[ "$(wc -l <"$tmp/out")" -le 100 ] && ok "--help is a screen or two ($(wc -l <"$tmp/out") lines)" ||
  bad "--help is $(wc -l <"$tmp/out") lines"
expect 0 "--help kit" "" -- "$boids" --help kit
grep -q "^  c_maxspeed " "$tmp/out" && grep -q "^  max_speed  *150 " "$tmp/out" &&
  ok "--help kit lists its parameters with its defaults" || bad "--help kit: $(head -3 "$tmp/out")"
expect 0 "--help all" "" -- "$boids" --help all
grep -q "^  drag \|^  c_maxspeed " "$tmp/out" && grep -q "^Viewer keys and mouse" "$tmp/out" &&
  ok "--help all lists every model's parameters and the keys" || bad "--help all lacks them"
expect 2 "--help nope names the topics" "no such topic (the models: shiffman-per-second" -- \
  "$boids" --help nope
expect 0 "--version" "" -- "$boids" --version
# an empty world runs, and its summary invents no per-boid time and no flock
"$boids" -n 0 --steps 3 --backend cpu --headless >"$tmp/out" 2>"$tmp/err" &&
  grep -q "no boid alive" "$tmp/out" && ! grep -q "per boid-step\|polarization" "$tmp/out" &&
  ok "0 boids: the summary says there is nothing to measure" ||
  bad "0 boids: $(cat "$tmp/out" "$tmp/err")"
# one boid has no nearest neighbour: the summary says so (it printed "0.00 px"); its --metrics
# row keeps mean_nn 0, beside alive 1
"$boids" -n 1 --steps 3 --backend cpu --headless --metrics "$tmp/one.csv" >"$tmp/out" 2>"$tmp/err"
grep -q "polarization 1.000, no nearest neighbour (one boid), 1 group" "$tmp/out" &&
  ! grep -q "mean nearest neighbour" "$tmp/out" &&
  [ "$(tail -1 "$tmp/one.csv" | cut -d, -f3,5)" = "1,0" ] &&
  ok "1 boid: no nearest neighbour, said; mean_nn 0 in --metrics" ||
  bad "1 boid: $(cat "$tmp/out" "$tmp/err"; tail -1 "$tmp/one.csv")"

finish
