#!/usr/bin/env bash
# The example model of docs/writing-a-model.md (examples/drag), added as the guide says and
# checked, so that the guide cannot rot: a copy of the source tree gets the folder
# (src/models/drag/) and its one line in src/models/list.h, and nothing else; the copy builds
# with warnings as errors; test_dims holds it to its oracle; the model is there (--help, --set
# drag); a lone boid slows as the drag says, v_k = v_0 (1 - c_d dt)^k, on both backends; a
# flock's dumps agree between the backends (bit for bit where the driver rounds as IEEE does, else
# within a tolerance); a program built against an install of the library without it runs,
# unchanged, on the library with it (the ABI: the same public headers), and runs drag by name; and
# every code block the guide quotes is in the file it names, word for word.
# usage: test_example_model.sh SOURCE_DIR BUILD_DIR path/to/gpu_info
source "$(dirname "$0")/lib.sh"
src=$1 build=$2/example/build
gpu_setup "$3"

# The copy: the tree as it is on disk (no build, no .git), then the guide's steps. Times are kept
# (list.h's too: the line is always the same), so a rebuild compiles only what changed.
tree=$2/example/tree
rm -rf "$tree" && mkdir -p "$tree"
tar -C "$src" --exclude=./build --exclude=./.git -cf - . | tar -C "$tree" -xf -
cp -rp "$src/examples/drag" "$tree/src/models/drag"
list=$tree/src/models/list.h
last='    /\* (a new folder.s line goes above this one) \*/'
sed -i "s|^\($last\)\$|    F(DRAG, A) \\\\\n\1|" "$list"
touch -r "$src/src/models/list.h" "$list"
diff "$src/src/models/list.h" "$list" >"$tmp/list.diff"
[ "$(grep -c '^>' "$tmp/list.diff")" = 1 ] && ! grep -q '^<' "$tmp/list.diff" &&
  ok "the guide's one line in src/models/list.h" ||
  bad "src/models/list.h did not take the guide's one line: $(cat "$tmp/list.diff")"

if cmake -S "$tree" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBOIDS_WERROR=ON \
     -DBOIDS_BUILD_TESTS=ON -DBOIDS_BUILD_BENCH=OFF >"$tmp/cfg" 2>&1 &&
   cmake --build "$build" --target boids boids_shared test_dims -j 2 >"$tmp/build" 2>&1; then
  ok "a build with the example model"
else
  bad "the example model does not build: $(tail -n 20 "$tmp/cfg" "$tmp/build")"
  finish
  exit
fi
boids=$build/src/boids
"$boids" --help all | grep -q "^  drag " && ok "--help all lists drag" ||
  bad "--help all has no drag"
# the guide's 12th model keeps --help within test_cli's 100 lines (a line a model once passed it)
"$boids" --help >"$tmp/help"
grep -q "gregoire-chate, drag" "$tmp/help" && [ "$(wc -l <"$tmp/help")" -le 100 ] &&
  ok "--help names drag among the models, in $(wc -l <"$tmp/help") lines" ||
  bad "--help with drag: $(wc -l <"$tmp/help") lines, $(tail -2 "$tmp/help")"

# Its preset and picture (the guide's steps 7 and 9): scripts/figures.sh --model draws the one
# picture in seconds (the gallery takes minutes; there was no way to draw one).
printf '; the example model\nmodel = drag\nsteps = 60\n' >"$tree/scenarios/drag.ini"
rm -f "$tree/docs/models/drag.png"
if bash "$tree/scripts/figures.sh" --model drag "$boids" >"$tmp/fig" 2>&1 &&
   python3 - "$tree/docs/models/drag.png" <<'PY'
import struct, sys
head = open(sys.argv[1], "rb").read(24)
sys.exit(0 if head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (640, 360)
         else 1)
PY
then ok "scripts/figures.sh --model drag draws docs/models/drag.png (640x360) alone"
else bad "scripts/figures.sh --model drag: $(cat "$tmp/fig")"; fi

# A lone boid, nothing to steer by: each step takes c_d v dt off its velocity.
printf 'id,x,y,vx,vy,swarm\n0,500,500,100,0,0\n' >"$tmp/one.csv"
for be in cpu gpu; do
  [ $be = gpu ] && [ $gpu = 0 ] && continue
  "$boids" --model drag --init "$tmp/one.csv" --world 1000x1000 --dt 0.1 --steps 20 \
    --set drag=0.5 --set min_speed=0 --headless --backend $be --dump "$tmp/one.$be.csv" \
    >"$tmp/out" 2>&1 || bad "lone boid on $be: $(head -c 300 "$tmp/out")"
  vx=$(awk -F, 'NR == 2 { print $4 }' "$tmp/one.$be.csv")
  if awk -v vx="$vx" 'BEGIN { want = 100 * 0.95 ^ 20; d = vx - want;
                               exit !(d < 1e-3 && d > -1e-3) }'
  then ok "a lone boid on $be slows to 100 x 0.95^20 px/s ($vx)"
  else bad "a lone boid on $be: vx $vx, expected $(awk 'BEGIN { print 100 * 0.95 ^ 20 }')"; fi
done

# A flock: the two backends agree.
for be in cpu gpu; do
  [ $be = gpu ] && [ $gpu = 0 ] && continue
  "$boids" --model drag -n 3000 --steps 30 --headless --backend $be --dump "$tmp/flock.$be.csv" \
    >"$tmp/out" 2>&1 || bad "a flock on $be: $(head -c 300 "$tmp/out")"
done
if [ $gpu = 1 ] && [ "$exact" = 1 ]; then
  cmp -s "$tmp/flock.cpu.csv" "$tmp/flock.gpu.csv" && ok "a flock: gpu = cpu bit for bit" ||
    bad "a flock: gpu and cpu differ"
elif [ $gpu = 1 ]; then
  # Rounding differs by an ulp here and there; 30 steps keep it far below a pixel.
  paste -d, "$tmp/flock.cpu.csv" "$tmp/flock.gpu.csv" | awk -F, -v n=6 '
    NR > 1 { for (k = 2; k <= 5; ++k) { d = $k - $(k + n); if (d < 0) d = -d; if (d > m) m = d } }
    END { exit !(m < 0.5) }' &&
    ok "a flock: gpu within 0.5 of cpu" ||
    bad "a flock: gpu far from cpu"
fi

# The ABI holds when a model is added: a program built against an install of the library without
# drag runs, unchanged, on the library with it (and asks it for drag by name), and the two
# installs' public headers are the same files.
if cmake --install "$2" --prefix "$tmp/before" >"$tmp/inst" 2>&1 &&
   cmake --install "$build" --prefix "$tmp/after" >>"$tmp/inst" 2>&1; then
  diff -r "$tmp/before/include" "$tmp/after/include" >"$tmp/hdiff" &&
    ok "the public headers are the same with drag added ($(ls "$tmp/after/include/boids" |
      tr '\n' ' '))" || bad "a model added changed the public headers: $(head -5 "$tmp/hdiff")"
  libdir() { dirname "$(find "$1" -name 'libboids.so.0' | head -1)"; }
  before=$(libdir "$tmp/before") after=$(libdir "$tmp/after")
  # shellcheck disable=SC2046 # pkg-config's flags are words
  if cc -std=c17 -Wall -Werror "$src/tests/consumer/consumer.c" -o "$tmp/consumer" -lm \
       $(PKG_CONFIG_PATH=$before/pkgconfig pkg-config --cflags --libs boids) \
       -Wl,-rpath,"$before" 2>"$tmp/cc.err"; then
    if "$tmp/consumer" cpu drag >"$tmp/c.out" 2>&1; then
      bad "the library without drag knows drag: $(cat "$tmp/c.out")"
    else ok "the consumer, on the library it was built against, has no drag"; fi
    for model in shiffman-per-second couzin; do
      LD_LIBRARY_PATH=$after "$tmp/consumer" cpu $model >"$tmp/c.out" 2>&1 &&
        ok "a consumer built before drag, on the library with it: $(cat "$tmp/c.out")" ||
        bad "a consumer built before drag, $model on the library with it: $(cat "$tmp/c.out")"
    done
    LD_LIBRARY_PATH=$after "$tmp/consumer" cpu drag drag=0.5 max_speed=90 >"$tmp/c.out" 2>&1 &&
      grep -q "model drag" "$tmp/c.out" &&
      ok "it runs drag, its parameters by name: $(cat "$tmp/c.out")" ||
      bad "a consumer built before drag cannot run it: $(cat "$tmp/c.out")"
  else bad "the consumer against the install: $(head -5 "$tmp/cc.err")"; fi
else bad "cmake --install: $(tail -5 "$tmp/inst")"; fi

# The same folder loaded at run time (boids --model-dir) by the program built without it, from a
# copy outside any source tree: the same model, so the same flock, bit for bit, on each backend.
mkdir -p "$tmp/models" && cp -r "$src/examples/drag" "$tmp/models/drag"
for be in cpu gpu; do
  [ $be = gpu ] && [ $gpu = 0 ] && continue
  XDG_CACHE_HOME=$tmp/cache "$2/src/boids" --model-dir "$tmp/models/drag" --model drag -n 3000 \
    --steps 30 --headless --backend $be --dump "$tmp/loaded.$be.csv" >"$tmp/out" 2>&1 ||
    bad "drag loaded, on $be: $(head -c 300 "$tmp/out")"
  cmp -s "$tmp/flock.$be.csv" "$tmp/loaded.$be.csv" &&
    ok "drag loaded at run time = drag built in, bit for bit, on $be" ||
    bad "drag loaded at run time differs from drag built in on $be"
done

# Its oracle (oracle.c, in the folder): test_dims holds every registered model to its own, the
# new one among them, flat and 3D, on both backends, with the plane and the turned axes.
"$build/tests/test_dims" >"$tmp/dims" 2>&1
rc=$?
drag=$(grep -c ' drag ' "$tmp/dims")
if [ $rc = 0 ] && [ "$drag" -ge 8 ]; then ok "test_dims holds drag to its oracle ($drag cases)"
elif [ $rc = 77 ]; then skip "test_dims: no GL context"
else
  bad "test_dims with drag (exit $rc, $drag cases): $(grep -E 'CHECK|FAIL' "$tmp/dims" | head -5)"
fi

# The guide's quotes: a block after <!-- quote: FILE --> is in FILE as written (line ends aside).
doc=$src/docs/writing-a-model.md
quotes=0
while IFS= read -r file; do
  quotes=$((quotes + 1))
  awk -v f="$file" '
    $0 == "<!-- quote: " f " -->" { on = 1; next }
    on && /^ *```/ { if (in_block) exit; in_block = 1; next }
    on && in_block { sub(/^   /, ""); print }' "$doc" >"$tmp/quote"
  if [ -s "$tmp/quote" ] && python3 - "$tmp/quote" "$src/$file" <<'PY'
import re, sys
# Line by line, without the blanks and macro continuations at the ends of the lines.
def lines(path):
    return "\n".join(re.sub(r"[ \\]*$", "", l) for l in open(path).read().split("\n"))
sys.exit(0 if lines(sys.argv[1]).strip("\n") in lines(sys.argv[2]) else 1)
PY
  then ok "the guide quotes $file as it is"
  else bad "the guide's quote of $file is not in it: $(head -3 "$tmp/quote")"; fi
done < <(sed -n 's/^<!-- quote: \(.*\) -->$/\1/p' "$doc")
[ "$quotes" -ge 3 ] && ok "the guide quotes the example ($quotes blocks)" ||
  bad "the guide quotes the example $quotes times"
finish
