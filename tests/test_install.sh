#!/usr/bin/env bash
# The library as a user gets it: `cmake --install` into a scratch prefix puts libboids.so (with
# its SONAME), libboids.a, the public headers under include/boids/ (and no GPU layout), boids.pc
# and CMake's package; a small program (tests/consumer) builds against it with pkg-config, with
# the static library, and with find_package(boids CONFIG), and runs on both backends; every
# installed program (`boids`, `boids-bench`: the static library inside) finds every library it
# links and runs, and the tests' libboids_internal.so is not installed.
# usage: test_install.sh BUILD_DIR path/to/gpu_info
source "$(dirname "$0")/lib.sh"
build=$1 src=$(cd "$(dirname "$0")" && pwd)/consumer
gpu_setup "$2"
prefix=$tmp/prefix
if cmake --install "$build" --prefix "$prefix" >"$tmp/install.out" 2>&1; then ok "installed"
else bad "cmake --install: $(tail -5 "$tmp/install.out")"; finish; exit; fi
lib=$(dirname "$(find "$prefix" -name 'libboids.so.*.*.*' | head -1)")
for f in "$prefix/include/boids/boids.h" "$lib/libboids.a" "$lib/pkgconfig/boids.pc" \
         "$lib/cmake/boids/boidsConfig.cmake"; do
  [ -f "$f" ] && ok "${f#"$prefix"/}" || bad "missing: ${f#"$prefix"/}"
done
soname=$(readelf -d "$lib/libboids.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libboids.so.0 ] && [ -L "$lib/libboids.so.0" ] && ok "SONAME $soname" ||
  bad "SONAME '$soname'"
if ls "$prefix/include/boids" | grep -q shared || grep -rq "BOIDS_BIND_" "$prefix/include"; then
  bad "the installed headers show the GPU's layout"
else ok "the installed headers hold no GPU layout"; fi
# The ABI does not follow the models: no installed header names one (their folders, their ids),
# and the public ones are the six of src/ (tests/test_example_model.sh adds a model and compares).
ls "$prefix/include/boids" >"$tmp/headers"
names=$(sed -n 's/^ *M([A-Z_0-9]*, "\([^"]*\)".*/\1/p' "$(dirname "$0")"/../src/models/*/model.h)
if [ "$(tr '\n' ' ' <"$tmp/headers")" != \
     "boids.h boids_attributes.h boids_errors.h boids_models.h boids_params.h boids_values.h " ]
then bad "the installed headers: $(tr '\n' ' ' <"$tmp/headers")"
elif grep -rE 'BOIDS_MODEL_[A-Z]|BOIDS_BLOCKS?_|model_folders' "$prefix/include" >"$tmp/named"
then bad "an installed header names the models: $(head -3 "$tmp/named")"
else ok "the six public headers, none naming a model ($(echo "$names" | wc -l) built in)"; fi
"$prefix/bin/boids" --version | grep -q "^boids " && ok "the installed boids runs" ||
  bad "the installed boids does not run"
# A model folder loaded by the installed program: compiled against PREFIX/share/boids/include.
mkdir -p "$tmp/models" && cp -r "$(dirname "$0")/../examples/drag" "$tmp/models/"
if XDG_CACHE_HOME=$tmp/cache "$prefix/bin/boids" --model-dir "$tmp/models/drag" --model drag \
     --headless --backend cpu -n 300 --steps 3 >"$tmp/load.out" 2>&1 &&
   grep -q "model drag, backend cpu" "$tmp/load.out"; then
  ok "the installed boids loads a model folder (its headers in share/boids/include)"
else bad "the installed boids and a model folder: $(head -c 600 "$tmp/load.out")"; fi
# Every installed program finds every library it links: one that linked libboids.so.0 would find
# the prefix's (its RUNPATH), where the loader does not look (boids-bench once had no RUNPATH and
# could not start); none may link libboids_internal.so, the tests' library, which is not installed.
find "$prefix" -name 'libboids_internal*' | grep -q . && bad "libboids_internal.so is installed" ||
  ok "libboids_internal.so is not installed"
for exe in "$prefix"/bin/*; do
  ldd "$exe" >"$tmp/ldd.out" 2>/dev/null || continue # the scripts
  if grep -q -e 'not found' -e libboids_internal "$tmp/ldd.out"; then
    bad "${exe#"$prefix"/}: $(grep -e 'not found' -e libboids_internal "$tmp/ldd.out")"
  elif grep -q libboids "$tmp/ldd.out" &&
    [ "$(realpath "$(sed -n 's/.*libboids.* => \(.*\) (0x.*/\1/p' "$tmp/ldd.out")")" != \
      "$(realpath "$lib/libboids.so.0")" ]; then bad "${exe#"$prefix"/}: $(cat "$tmp/ldd.out")"
  else ok "${exe#"$prefix"/} finds every library it links"; fi
done
if (cd / && "$prefix/bin/boids-bench" --models kit --sizes 100 --backends cpu --starts random \
  --repeats 1 --seconds 0.01 >"$tmp/bench.out" 2>&1) && grep -q "^kit  *cpu  " "$tmp/bench.out"
then ok "the installed boids-bench runs"
else bad "the installed boids-bench: $(tail -c 300 "$tmp/bench.out")"; fi

export PKG_CONFIG_PATH=$lib/pkgconfig
backends=(cpu)
[ $gpu = 1 ] && backends+=(gpu)
# shellcheck disable=SC2046 # pkg-config's flags are words
if cc -std=c17 -Wall -Werror "$src/consumer.c" -o "$tmp/c_pc" $(pkg-config --cflags --libs boids) \
     -lm -Wl,-rpath,"$(pkg-config --variable=libdir boids)" 2>"$tmp/cc.err"; then
  ok "built with pkg-config, the rpath from its libdir (as the README says)"
else bad "pkg-config build: $(head -5 "$tmp/cc.err")"; fi
static_libs=$(pkg-config --static --libs boids | sed 's/-lboids\b//')
# shellcheck disable=SC2086 # a list of flags
if cc -std=c17 "$src/consumer.c" -o "$tmp/c_static" $(pkg-config --cflags boids) \
     "$lib/libboids.a" $static_libs 2>"$tmp/cc.err"; then ok "built with the static library"
else bad "static build: $(head -5 "$tmp/cc.err")"; fi
if cmake -S "$src" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cm.out" 2>&1 &&
   cmake --build "$tmp/cmake" >>"$tmp/cm.out" 2>&1; then ok "built with find_package(boids)"
else bad "find_package build: $(tail -8 "$tmp/cm.out")"; fi
for exe in c_pc c_static cmake/consumer; do
  for be in "${backends[@]}"; do
    [ -x "$tmp/$exe" ] || continue
    if "$tmp/$exe" $be >"$tmp/run.out" 2>&1; then ok "$exe on $be: $(cat "$tmp/run.out")"
    else bad "$exe on $be: $(head -c 300 "$tmp/run.out")"; fi
  done
done
ldd "$tmp/c_static" | grep -q libboids && bad "the static build links libboids.so" ||
  ok "the static build needs no libboids.so"
finish
