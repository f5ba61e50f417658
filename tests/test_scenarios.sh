#!/usr/bin/env bash
# Scenario files: every preset in scenarios/ runs on both backends (the issue's own command,
# shortened), the GPU and the CPU agree on it bit for bit where the driver rounds as IEEE does, a
# file named after a model is the world --model gives, options override the file, a dump of
# Adams' scouts round-trips their bias, and a bad file is an error naming the file, line and key.
# usage: test_scenarios.sh path/to/boids path/to/scenarios path/to/gpu_info
set -u
boids=$(realpath "$1")
dir=$(realpath "$2")
source "$(dirname "$0")/lib.sh"

gpu_setup "$3"

for f in "$dir"/*.ini; do
  name=$(basename "$f" .ini)
  for be in cpu gpu; do
    [ $be = gpu ] && [ $gpu = 0 ] && continue
    if "$boids" "$f" --headless --steps 30 -n 3000 --backend $be \
        --dump "$tmp/$name.$be.csv" >"$tmp/out" 2>&1; then
      ok "$name on $be"
    else
      bad "$name on $be: $(head -c 300 "$tmp/out")"
    fi
  done
  if [ "$exact" = 1 ]; then
    cmp -s "$tmp/$name.cpu.csv" "$tmp/$name.gpu.csv" &&
      ok "$name: gpu = cpu bit for bit" ||
      bad "$name: gpu and cpu differ"
  fi
done

# A file named after a model is that model's own world, as --model gives it: the same parameters,
# swarms, dimensions, layout, neighbours, dt and steps; its count may be smaller, the world then
# the model's at that count (scaled to keep the model's density). An experiment's manifest.ini
# holds the world as resolved and every parameter: the file's, and --model's at the file's count,
# agree line for line, the world's sides within the rounding of a written size (1e-3). Variants
# (three swarms, Adams' scouts) live in files of their own names.
models=$("$boids" --help 2>/dev/null | awk '/^The models/ { on = 1; next } on && /^$/ { exit }
  on && /^  [a-z]/ { gsub(/,/, " "); for (i = 1; i <= NF; ++i) print $i }')
# resolved OUT ARGS...: the world and parameters `boids experiment ARGS` runs (one run), in OUT
resolved() {
  local out=$1
  shift
  rm -rf "$tmp/exp"
  "$boids" experiment "$@" --runs 1 --backend cpu --out "$tmp/exp" >"$tmp/exp.out" 2>&1 &&
    grep -v -E '^(;|command |fingerprint )' "$tmp/exp/manifest.ini" >"$out"
}
# differences FILE MODEL: the keys of two resolved worlds that differ, "key: a, b" a line
differences() {
  awk -F' = ' '
    FNR == NR { a[$1] = $2; next }
    { b[$1] = $2 }
    function near(x, y) { return x == y || (y > 0 && x / y > 0.999 && x / y < 1.001) }
    function world_same(x, y,   p, q, k) {
      if (split(x, p, "x") != split(y, q, "x")) return 0
      for (k in p) if (!near(p[k] + 0, q[k] + 0)) return 0
      return 1
    }
    END {
      for (k in a) {
        if (!(k in b)) print k ": " a[k] ", (none)"
        else if (k == "world" ? !world_same(a[k], b[k]) : a[k] != b[k])
          print k ": " a[k] ", " b[k]
      }
      for (k in b) if (!(k in a)) print k ": (none), " b[k]
    }' "$1" "$2" | sort
}
same_named=0
for m in $models; do
  f=$dir/$m.ini
  [ -f "$f" ] || continue
  same_named=$((same_named + 1))
  if ! resolved "$tmp/file.ini" "$f" --steps 1; then
    bad "$m.ini: its experiment did not run: $(head -c 300 "$tmp/exp.out")"
    continue
  fi
  n=$(sed -n 's/^boids = //p' "$tmp/file.ini")
  if ! resolved "$tmp/model.ini" --model "$m" -n "$n" --steps 1 ||
    ! resolved "$tmp/steps.ini" --model "$m" -n 2; then
    bad "--model $m: its experiment did not run: $(head -c 300 "$tmp/exp.out")"
    continue
  fi
  # steps, which the runs above cut to 1: the file's own (none: the model's) and the model's
  want=$(sed -n 's/^steps = //p' "$tmp/steps.ini")
  own=$(sed -n 's/^steps *= *\([0-9]*\).*/\1/p' "$f")
  diff=$(differences "$tmp/file.ini" "$tmp/model.ini")
  [ "${own:-$want}" = "$want" ] || diff="steps: $own, $want${diff:+$'\n'}$diff"
  if [ -z "$diff" ]; then
    ok "$m.ini is the world of --model $m ($n boids)"
  else
    bad "$m.ini differs from --model $m at $n boids (key: file, --model): ${diff//$'\n'/; }"
  fi
done
[ $same_named -gt 0 ] || bad "no scenario file is named after a model (models: ${models//$'\n'/ })"

# Options override the file: -n and --model.
"$boids" "$dir/hybrid.ini" -n 123 --steps 1 --headless --backend cpu >"$tmp/out" 2>&1
grep -q "model hybrid" "$tmp/out" && grep -q "123 boids" "$tmp/out" &&
  ok "-n overrides the file" ||
  bad "-n override: $(cat "$tmp/out")"
"$boids" "$dir/hybrid.ini" --model mean -n 50 --steps 1 --headless --backend cpu >"$tmp/out" 2>&1
grep -q "model mean" "$tmp/out" && ok "--model overrides the file" || bad "--model override"

# Adams' dynamic bias (its scouts') is state: it is dumped, and a dump resumed continues exactly.
"$boids" "$dir/adams-scouts.ini" -n 2000 --steps 40 --headless --backend cpu \
  --dump "$tmp/a40.csv" >/dev/null 2>&1
"$boids" "$dir/adams-scouts.ini" -n 2000 --steps 20 --headless --backend cpu \
  --dump "$tmp/a20.csv" >/dev/null 2>&1
"$boids" "$dir/adams-scouts.ini" --init "$tmp/a20.csv" --steps 20 --headless \
  --backend cpu --dump "$tmp/a2020.csv" >/dev/null 2>&1
head -1 "$tmp/a40.csv" | grep -qx 'id,x,y,vx,vy,swarm,bias' &&
  ok "adams dumps carry the bias" ||
  bad "adams dump header: $(head -1 "$tmp/a40.csv")"
cmp -s "$tmp/a40.csv" "$tmp/a2020.csv" &&
  ok "adams resumed from a dump = straight run" ||
  bad "adams resume differs"

# Bad files: exit 2 naming the file and line.
expect2() {
  local name=$1 pattern=$2 file=$3
  "$boids" "$file" --headless --steps 1 --backend cpu >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc = 2 ] && grep -q -- "$pattern" "$tmp/err"; then ok "$name"
  else bad "$name: exit $rc: $(cat "$tmp/err")"; fi
}
printf 'model = adams\nboids = 100\nwarp_speed = 9\n' >"$tmp/unknown.ini"
expect2 "unknown key names line 3" \
  "unknown.ini:3: warp_speed: no such key for model adams" "$tmp/unknown.ini"
# a misspelt world key: the guess is the world's key, and the list names the world's keys too
printf 'model = adams\nwolrd = 100x100\n' >"$tmp/wolrd.ini"
expect2 "a misspelt world key: did you mean world, the world's keys listed" \
  "wolrd.ini:2: wolrd: no such key for model adams: did you mean world? (.*; world: model, \
model_dir, boids" \
  "$tmp/wolrd.ini"
printf '; comment\nmodel = hybrid\nmax_speed = fast\n' >"$tmp/value.ini"
expect2 "bad value names line 3" "value.ini:3: max_speed" "$tmp/value.ini"
printf 'max_speed = 5\nmodel = nosuch\n' >"$tmp/model.ini"
expect2 "unknown model names line 2" "model.ini:2" "$tmp/model.ini"
printf 'model = adams\n[world]\nboids = 5\n' >"$tmp/section.ini"
expect2 "a section is an error naming its line" "section.ini:2: sections are not used" \
  "$tmp/section.ini"
printf 'model = hybrid\nmin_speed = 500\n' >"$tmp/cross.ini"
expect2 "min above max names the file" "cross.ini" "$tmp/cross.ini"
printf 'model = adams\nthis is not ini\n' >"$tmp/syntax.ini"
expect2 "a line without '=' names its line" "syntax.ini:2" "$tmp/syntax.ini"
expect2 "a missing file" "nope.ini" "$tmp/nope.ini"
# An error about a value the file gave names the file, line and key, never a flag the user did
# not type (the program maps the error's id and key to where the value came from).
printf 'model = adams\n; many boids\nboids = 4294967295\n' >"$tmp/count.ini"
expect2 "too many boids names the file's line and key" \
  "count.ini:3: boids: 4294967295 exceeds the maximum" "$tmp/count.ini"
printf 'dt = 2\nmodel = hybrid\n' >"$tmp/dt.ini"
expect2 "a bad dt names the file's line" "dt.ini:1: dt: 2 s is outside (0, 1]" "$tmp/dt.ini"
printf 'model = hybrid\nworld = 3x3\n' >"$tmp/step.ini"
expect2 "a world a step crosses names the file's line" "step.ini:2: world" "$tmp/step.ini"
"$boids" "$tmp/count.ini" -n 50 --steps 1 --headless --backend cpu >"$tmp/out" 2>&1 &&
  ok "-n overrides the file's bad count" ||
  bad "-n over the file's count: $(cat "$tmp/out")"

finish
