#!/usr/bin/env bash
# A headless machine (a GPU server: no X, no GLFW, no PLplot) runs every simulation. The program,
# the benchmark and libboids link neither GLFW nor PLplot nor any X or Wayland library: they are
# loaded when a window or a figure is first asked for (src/base/library.h). Then, in a mount
# namespace where libglfw.so.3 and libplplot.so.17 are empty files (as if not installed): a run,
# a GPU run where a context exists, a run that asks for a window (the message names the library
# and its package, and the run goes on headless), an experiment (its tables written, the figure's
# failure named) and the benchmark. Skips (77) that half, saying why, where no mount namespace
# can be made (not root); CI is root and sets BOIDS_REQUIRE_NAMESPACE=1, so there it fails.
# usage: test_headless.sh path/to/boids path/to/boids-bench|none path/to/libboids.so scenarios
#        gpu_info   (none: a build without the benchmark, whose checks are left out)
source "$(dirname "$0")/lib.sh"
boids=$(realpath "$1")
bench=$([ "$2" = none ] && echo none || realpath "$2")
lib=$(realpath "$3")
scenarios=$(realpath "$4")
gpu_setup "$5"
optional='libglfw|libplplot|libX11|libxcb|libwayland|libXrandr|libXi|libXcursor|libcairo'

# 1. What the loader brings: no optional library, directly or through another
for f in "$boids" "$bench" "$lib"; do
  [ "$f" = none ] && continue
  # (without the preload of the sanitizers' stage, which brings Mesa's driver and its X libraries)
  found=$(env -u LD_PRELOAD ldd "$f" | grep -E "$optional" | awk '{print $1}' | tr '\n' ' ')
  [ -z "$found" ] && ok "$(basename "$f") needs no GLFW, PLplot, X or Wayland library" ||
    bad "$(basename "$f") links $found"
done

# 2. The same programs where GLFW and PLplot are not installed
soname_file() { readlink -f "$(ldconfig -p | awk -v n="$1" '$1 == n {print $NF; exit}')"; }
glfw=$(soname_file libglfw.so.3)
plplot=$(soname_file libplplot.so.17)
if [ ! -f "$glfw" ] || [ ! -f "$plplot" ]; then
  bad "libglfw.so.3 ($glfw) or libplplot.so.17 ($plplot) not found to hide"
  finish
  exit
fi
# hidden CMD...: CMD where both libraries are empty files (a private mount namespace)
hidden() {
  unshare --mount sh -c 'mount --bind /dev/null "$1" && mount --bind /dev/null "$2" &&
    shift 2 && exec "$@"' hide "$glfw" "$plplot" "$@"
}
if ! hidden true 2>"$tmp/unshare.err"; then
  why="no mount namespace here: $(head -c 200 "$tmp/unshare.err")"
  if [ "${BOIDS_REQUIRE_NAMESPACE:-0}" = 1 ]; then bad "BOIDS_REQUIRE_NAMESPACE=1, but $why"
  else skip "$why"; fi
  finish
  exit
fi
[ "$(hidden sh -c 'wc -c <"$1"' sh "$glfw")" = 0 ] && ok "GLFW hidden ($glfw is empty)" ||
  bad "GLFW not hidden"

cd "$tmp"
hidden "$boids" --headless -n 500 --steps 20 --backend cpu >out 2>err &&
  grep -q "^  20 steps" out && ok "a headless run without GLFW and PLplot" ||
  bad "headless run: $(cat err)"
if [ "$gpu" = 1 ]; then
  hidden "$boids" --headless -n 500 --steps 20 --backend gpu >out 2>err &&
    grep -q "^  20 steps" out && ok "a GPU run without GLFW and PLplot" ||
    bad "GPU run: $(cat err)"
fi
# a display, so the program asks for a window; GLFW's absence must be named, then run headless
DISPLAY=:99 hidden "$boids" -n 500 --steps 20 --backend cpu >out 2>err
rc=$?
want="a window needs libglfw.so.3, which does not load (apt install libglfw3)"
[ $rc = 0 ] && grep -qF "$want" err &&
  grep -q "running headless" err && grep -q "^  20 steps" out &&
  ok "a window asked for without GLFW: named, then headless" ||
  bad "window without GLFW: exit $rc: $(cat err)"
hidden "$boids" experiment "$scenarios/kit.ini" --runs 2 --steps 300 --metrics-every 50 \
  --backend cpu --out ex >out 2>err
rc=$?
[ $rc = 0 ] && [ -s ex/runs.csv ] && [ -s ex/metrics.csv ] && [ ! -e ex/metrics.png ] &&
  grep -q "a figure needs libplplot.so.17, which does not load (apt install libplplot17)" err &&
  ok "an experiment without PLplot: its tables written, the figure's failure named" ||
  bad "experiment without PLplot: exit $rc: $(cat err); $(ls ex)"
if [ "$bench" != none ]; then
  hidden "$bench" --models kit --sizes 35 --backends cpu --starts random --repeats 1 \
    --seconds 0.05 --out b >out 2>&1
  rc=$?
  [ $rc = 0 ] && [ -s b/bench.csv ] && grep -q "libplplot.so.17" out &&
    ok "the benchmark without PLplot: its table written, the figure's failure named" ||
    bad "benchmark without PLplot: exit $rc: $(tail -3 out)"
fi
finish
