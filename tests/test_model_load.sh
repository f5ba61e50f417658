#!/usr/bin/env bash
# A model folder loaded at run time (boids --model-dir, boids check DIR; src/world/model_load.c):
# examples/spring, a model with a per-pair rule and no walk of its own, loaded from a copy outside
# the tree and checked on both backends; its compile cached and taken from the cache; compiled
# again after an edit; two folders in one process; the pair walk and the Reynolds walk give the
# same bits (examples/reynolds_pairs); and the mistakes a user makes said with the
# file and line: a syntax error in rules.h (the C compiler's and the GLSL compiler's messages), a
# model name that is taken, a default out of its range, no C compiler, a folder that is none.
# (test_example_model.sh holds examples/drag loaded = built in, bit for bit.)
# usage: test_model_load.sh SOURCE_DIR path/to/boids path/to/gpu_info
source "$(dirname "$0")/lib.sh"
src=$1 boids=$2
gpu_setup "$3"
export XDG_CACHE_HOME=$tmp/cache
mkdir -p "$tmp/m"
cp -r "$src/examples/spring" "$src/examples/drag" "$tmp/m/"

# Checked on both backends: bit for bit where the driver rounds as IEEE does.
"$boids" check "$tmp/m/spring" --boids 1500 --steps 40 >"$tmp/check" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q "compiled in" "$tmp/check" && grep -q "spring passes" "$tmp/check"; then
  ok "boids check DIR: spring compiled, loaded and passes ($(grep -c 'bit for bit\|within' \
"$tmp/check") lines)"
else bad "boids check spring (exit $rc): $(tail -n 8 "$tmp/check")"; fi
[ $gpu = 1 ] && { grep -q "3D nearest:7 *gpu == cpu bit for bit\|3D nearest:7 *gpu within" \
  "$tmp/check" && ok "spring: flat and 3D, metric and nearest:K on the gpu" ||
  bad "spring: a configuration missing: $(cat "$tmp/check")"; }

# A folder's oracle (oracle.c): drag's agrees on both backends; one that says otherwise fails
# the check (exit 1, the difference named).
"$boids" check "$tmp/m/drag" --boids 300 --steps 10 >"$tmp/check" 2>&1
[ $? = 0 ] && [ "$(grep -c 'agrees with its oracle' "$tmp/check")" = $((2 + 2 * gpu)) ] &&
  ok "boids check DIR: drag agrees with its folder's oracle.c, flat and 3D" ||
  bad "drag's oracle: $(tail -n 6 "$tmp/check")"
mkdir -p "$tmp/wrong" && cp -r "$tmp/m/drag" "$tmp/wrong/"
sed -i 's/boids_d3_mul(v, p->drag.drag)/boids_d3_mul(v, 2 * p->drag.drag)/' \
  "$tmp/wrong/drag/oracle.c"
"$boids" check "$tmp/wrong/drag" --boids 300 --steps 10 >"$tmp/check" 2>&1
[ $? = 1 ] && grep -q "flat oracle *cpu DIFFERS from its oracle" "$tmp/check" &&
  grep -q "$tmp/wrong/drag/oracle.c and rules.h say different things" "$tmp/check" &&
  grep -q "^boids check: drag FAILS" "$tmp/check" &&
  ok "an oracle that disagrees: boids check fails, exit 1" ||
  bad "a wrong oracle: $(tail -n 6 "$tmp/check")"
# An oracle.c whose oracle has another row's id: none, and the check says why.
mkdir -p "$tmp/noor" && cp -r "$tmp/m/drag" "$tmp/noor/" &&
  sed -i 's/boids_oracle_DRAG/boids_oracle_DRAGGED/' "$tmp/noor/drag/oracle.c"
"$boids" check "$tmp/noor/drag" --boids 300 --steps 5 >"$tmp/check" 2>&1
grep -q "no oracle: $tmp/noor/drag/oracle.c defines none for drag: boids_oracle_<ID>" \
  "$tmp/check" && ok "an oracle.c that defines none for the model: said so" ||
  bad "an oracle under another id: $(grep -i oracle "$tmp/check" | head -3)"

# Cached: the second load compiles nothing.
run() { "$boids" "$@" --headless --backend cpu -n 500 --steps 5 >"$tmp/out" 2>&1; }
fails() { "$boids" "$@" --headless --backend cpu -n 500 --steps 5; }
run --model-dir "$tmp/m/spring" --model spring
grep -q "loaded model spring from $tmp/m/spring: from the cache" "$tmp/out" &&
  ok "the second load comes from the cache" || bad "not from the cache: $(head -3 "$tmp/out")"
ls "$XDG_CACHE_HOME/boids/models/" | grep -q '^spring-[0-9a-f]*\.so$' &&
  [ "$(stat -c %a "$XDG_CACHE_HOME/boids/models")" = 700 ] &&
  ok "the cache: one object per folder, in a directory of the user's own (700)" ||
  bad "the cache: $(ls -la "$XDG_CACHE_HOME/boids/models")"

# Edited after it was cached: compiled again, and the edit counts.
sed -i 's/"max_speed=150"/"max_speed=120"/' "$tmp/m/spring/model.h"
run --model-dir "$tmp/m/spring" --model spring
grep -q "loaded model spring from .*: compiled in" "$tmp/out" && grep -q "max_speed\|speed" \
  "$tmp/out" && ok "an edited folder is compiled again" || bad "edited: $(head -3 "$tmp/out")"

# A model like the others: --help NAME lists its parameters, each once, its own before the
# obstacles'.
"$boids" --model-dir "$tmp/m/spring" --help spring >"$tmp/help" 2>&1
[ "$(grep -c '^  stiffness ' "$tmp/help")" = 1 ] && [ "$(grep -c '^  radius ' "$tmp/help")" = 1 ] &&
  grep -A30 '^  stiffness' "$tmp/help" | grep -q '^  obstacles ' &&
  ok "--help spring: its parameters, each once, before the obstacles'" ||
  bad "--help spring: $(head -c 600 "$tmp/help")"

# Two folders in one process, and BOIDS_MODEL_PATH.
BOIDS_MODEL_PATH=$tmp/m/drag run --model-dir "$tmp/m/spring" --model drag &&
  grep -q "loaded model drag" "$tmp/out" && grep -q "loaded model spring" "$tmp/out" &&
  grep -q "model drag, backend cpu" "$tmp/out" &&
  ok "two folders in one process (BOIDS_MODEL_PATH and --model-dir)" ||
  bad "two folders: $(head -5 "$tmp/out")"

# The two walks agree: examples/reynolds_pairs gathers shiffman-per-second's sums on the pair
# walk, and steps as it does on the Reynolds walk, bit for bit, flat and 3D, on each backend.
for be in cpu gpu; do
  [ $be = gpu ] && [ $gpu = 0 ] && continue
  for dims in 2 3; do
    for m in reynolds-pairs shiffman-per-second; do
      "$boids" --model-dir "$src/examples/reynolds_pairs" --model $m --backend $be --dims $dims \
        -n 3000 --swarms 2 --steps 25 --headless --dump "$tmp/$m.csv" >"$tmp/out" 2>&1 ||
        bad "$m on $be in ${dims}D: $(head -c 300 "$tmp/out")"
    done
    cmp -s "$tmp/reynolds-pairs.csv" "$tmp/shiffman-per-second.csv" &&
      ok "the pair walk's Reynolds sums = the Reynolds walk's, bit for bit, $be, ${dims}D" ||
      bad "reynolds-pairs and shiffman-per-second differ on $be in ${dims}D"
  done
done

# Ctrl-C as a folder compiles: the compilers stop with the program (a SIGINT to the program
# alone: it stops them), which exits 130 within a second, and the cache holds nothing half-made
# (the next load compiles it whole).
mkdir -p "$tmp/int" && cp -r "$tmp/m/drag" "$tmp/int/"
echo "/* edited */" >>"$tmp/int/drag/rules.h"
XDG_CACHE_HOME=$tmp/intcache "$boids" --model-dir "$tmp/int/drag" --model drag --headless \
  --backend cpu -n 10 --steps 1 >"$tmp/int.out" 2>&1 &
pid=$!
sleep 0.5
t0=$(date +%s%N)
kill -INT $pid # the program alone (a terminal's Ctrl-C reaches its compilers too)
wait $pid
rc=$? ms=$((($(date +%s%N) - t0) / 1000000))
if [ $rc = 130 ] && [ $ms -lt 1000 ] &&
   grep -q "compiling the model folder was interrupted" "$tmp/int.out" &&
   [ -z "$(ls -A "$tmp/intcache/boids/models")" ]; then
  ok "Ctrl-C as a folder compiles: exit 130 in $ms ms, nothing left in the cache"
else bad "Ctrl-C as a folder compiles: exit $rc in $ms ms: $(cat "$tmp/int.out"; \
ls -A "$tmp/intcache/boids/models")"; fi

# An experiment of a loaded model: its manifest names the folder (model_dir, before the model),
# so the shards' merge and --resume, in processes that were told nothing of it, find the model.
printf 'model_dir = m/spring\nmodel = spring\nboids = 300\nsteps = 10\n' >"$tmp/spring.ini"
exp() { "$boids" experiment "$tmp/spring.ini" --runs 2 --sweep stiffness=1,3 --backend cpu "$@"; }
if exp --out "$tmp/exp" >"$tmp/exp.out" 2>&1 && exp --shard 1/2 --out "$tmp/s1" >/dev/null 2>&1 &&
   exp --shard 2/2 --out "$tmp/s2" >/dev/null 2>&1 &&
   "$boids" experiment-merge "$tmp/merged" "$tmp/s1" "$tmp/s2" >"$tmp/merge.out" 2>&1 &&
   grep -q "^model_dir = $tmp/m/spring$" "$tmp/exp/manifest.ini" &&
   cmp -s "$tmp/exp/runs.csv" "$tmp/merged/runs.csv" &&
   "$boids" experiment --resume "$tmp/exp" >"$tmp/resume.out" 2>&1; then
  ok "an experiment of spring: sweep, shards merged = one run, --resume (model_dir in the manifest)"
  grep -q "loaded model spring from .*m/spring: from the cache" "$tmp/exp.out" &&
    ok "a scenario's model_dir says what its load did" ||
    bad "a scenario's model_dir load, unsaid: $(head -3 "$tmp/exp.out")"
  echo "/* edited */" >>"$tmp/m/spring/rules.h"
  "$boids" experiment --resume "$tmp/exp" >"$tmp/resume.out" 2>&1
  rc=$?
  [ $rc = 2 ] && grep -q "was edited after the experiment started" "$tmp/resume.out" &&
    ok "--resume after the model's folder was edited: refused, exit 2" ||
    bad "--resume of an edited folder: exit $rc: $(tail -n 3 "$tmp/resume.out")"
else
  bad "an experiment of spring: $(tail -n 3 "$tmp/exp.out" "$tmp/merge.out" "$tmp/resume.out" \
2>/dev/null)"
fi

# The mistakes, each with a clear message and a non-zero exit.
expect() { # expect WHAT PATTERN COMMAND...: fails, and says PATTERN
  local what=$1 pat=$2
  shift 2
  if "$@" >"$tmp/err" 2>&1; then bad "$what: accepted"
  elif grep -q -- "$pat" "$tmp/err"; then ok "$what: $(grep -m1 -- "$pat" "$tmp/err" | cut -c1-150)"
  else bad "$what: $(head -c 400 "$tmp/err")"; fi
}
cp -r "$tmp/m/spring" "$tmp/syntax" && mv "$tmp/syntax" "$tmp/m/sprung"
sed -i 's/spring_/sprung_/g; s/SPRING/SPRUNG/g; s/"spring"/"sprung"/; s/, spring,/, sprung,/' \
  "$tmp/m/sprung/model.h" "$tmp/m/sprung/rules.h"
sed -i 's/spring\./sprung./g' "$tmp/m/sprung/rules.h"
run --model-dir "$tmp/m/sprung" --model sprung && ok "a renamed copy loads as a model of its own" ||
  bad "the renamed copy: $(head -c 400 "$tmp/out")"
line=$(grep -n 'lane_f k = PARAM' "$tmp/m/sprung/rules.h" | cut -d: -f1)
sed -i "${line}s/;\$//" "$tmp/m/sprung/rules.h"
expect "a syntax error in rules.h (C)" "its C does not compile: rules.h:$((line + 1)):" \
  fails --model-dir "$tmp/m/sprung" --model sprung
grep -q "^$tmp/m/sprung/rules.h:$((line + 1)):" "$tmp/err" &&
  ok "the compiler's whole messages too" || bad "the compiler's messages: $(head -5 "$tmp/err")"
# A call to a function that is not there (GLSL's max for the lanes' MAX): an error at its line,
# not a load that fails on an undefined symbol.
sed -i "${line}s/\$/;/; ${line}s/PARAM(sprung.stiffness)/max(PARAM(sprung.stiffness), 0.0f)/" \
  "$tmp/m/sprung/rules.h"
expect "a call to no function" "its C does not compile: rules.h:$line:.*implicit declaration" \
  fails --model-dir "$tmp/m/sprung" --model sprung
cp -r "$tmp/m/drag" "$tmp/drag2" && mv "$tmp/drag2" "$tmp/m/dragged" &&
  rm "$tmp/m/dragged/oracle.c" # (its names are drag's)
sed -i 's/DRAG/DRAGGED/g; s/drag_/dragged_/g; s/, drag, 0/, dragged, 0/; s/drag\./dragged./g' \
  "$tmp/m/dragged/model.h" "$tmp/m/dragged/rules.h"
sed -i 's/X(DRAGGED, drag,/X(DRAGGED, dragged,/' "$tmp/m/dragged/model.h"
expect "a model name that is taken" "model name 'drag' is taken" \
  fails --model-dir "$tmp/m/drag" --model-dir "$tmp/m/dragged" --model drag
sed -i 's/"drag", PER_SECOND/"dragged", PER_SECOND/' "$tmp/m/dragged/model.h"
sed -i 's/0, 100, 5, 0.5f, 0, 0.5f,/0, 1, 5, 0.5f, 0, 7,/' \
  "$tmp/m/dragged/model.h"
expect "a default out of its range" "default 7 is outside its range \[0, 1\]" \
  fails --model-dir "$tmp/m/dragged" --model dragged
# The names a copy of an example keeps by mistake, each named (what a new user met).
variant() { # variant NAME SED FILE: a copy of dragged (its default mended) in $tmp/v/NAME/dragged
  rm -rf "$tmp/v/$1" && mkdir -p "$tmp/v/$1" && cp -r "$tmp/m/dragged" "$tmp/v/$1/" &&
    sed -i 's/0, 1, 5, 0.5f, 0, 7,/0, 1, 5, 0.5f, 0, 0.5f,/' "$tmp/v/$1/dragged/model.h" &&
    sed -i "$2" "$tmp/v/$1/dragged/$3"
}
variant range 's/0, 1, 5, 0.5f, 0, 0.5f,/1, 0, 5, 0.5f, 0, 0.5f,/' model.h
expect "a range whose min is above its max" \
  "drag's range is empty (its min above its max): \[1, 0\]" \
  fails --model-dir "$tmp/v/range/dragged" --model dragged
variant column 's/, dragged, 0, 0,/, drag, 0, 0,/' model.h
expect "the example's rules column kept" "has 'drag' in its rules column (the fifth)" \
  fails --model-dir "$tmp/v/column/dragged" --model dragged
variant steer 's/dragged_steer/drag_steer/' rules.h
expect "the example's steer function kept" "does rules.h define dragged_radii and dragged_steer" \
  fails --model-dir "$tmp/v/steer/dragged" --model dragged
expect "a built-in model's folder name" "is a built-in model's" \
  fails --model-dir "$src/src/models/couzin"
expect "a folder without rules.h" "a model folder has a model.h and a rules.h" \
  fails --model-dir "$src/docs"
mkdir -p "$tmp/m/fresh" && cp "$tmp/m/spring/"* "$tmp/m/fresh/" &&
  sed -i 's/spring/fresh/g; s/SPRING/FRESH/g' "$tmp/m/fresh/model.h" "$tmp/m/fresh/rules.h"
BOIDS_CC=no-such-cc expect "no C compiler" "no C compiler found (no-such-cc, on PATH)" \
  fails --model-dir "$tmp/m/fresh" --model fresh
BOIDS_CC=/bin/false expect "a compiler that fails and says nothing" \
  "the compiler (/bin/false) failed and printed nothing" fails --model-dir "$tmp/m/fresh"
BOIDS_CC=/bin/true expect "a compiler that makes nothing" \
  "the compiler (/bin/true) succeeded but made no object" fails --model-dir "$tmp/m/fresh"
BOIDS_MODEL_PATH=$tmp/nope:$tmp/m/drag run --model drag &&
  grep -q "warning: BOIDS_MODEL_PATH: .*nope.*(passed over)" "$tmp/out" &&
  ok "a BOIDS_MODEL_PATH entry that is no folder: a warning, the others loaded" ||
  bad "BOIDS_MODEL_PATH with a missing folder: $(head -c 400 "$tmp/out")"

# The GLSL compiler's message names the folder's file: an error only GLSL sees.
if [ $gpu = 1 ]; then
  mkdir -p "$tmp/g" && cp -r "$tmp/m/fresh" "$tmp/g/fresh"
  line=$(grep -n 'lane_f k = PARAM' "$tmp/g/fresh/rules.h" | cut -d: -f1)
  sed -i "${line}a #ifdef GL_core_profile\\nglsl_only_error;\\n#endif" "$tmp/g/fresh/rules.h"
  "$boids" --model-dir "$tmp/g/fresh" --model fresh --headless --backend gpu -n 500 --steps 2 \
    >"$tmp/err" 2>&1 && bad "a GLSL error: accepted" ||
    { grep -q "failed: $tmp/g/fresh/rules.h:$((line + 2))(.*glsl_only_error" "$tmp/err" &&
      ok "a syntax error only GLSL sees: the driver's message, as rules.h:$((line + 2))" ||
      bad "the GLSL error: $(head -c 600 "$tmp/err")"; }
fi
finish
