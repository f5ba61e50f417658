# What the shell tests share (source "$(dirname "$0")/lib.sh" at the top): a scratch directory
# $tmp removed at exit, and the tally: ok "what held", bad "what did not", skip "what could not be
# checked here, and why", and finish as the last command (prints the counts; its status is the
# script's: 1 where a check failed or none ran at all, 77 (ctest's skip where the test says so)
# where every one was skipped, else 0). A script that checks nothing never passes.
# In the sanitizers' build ctest sets BOIDS_TEST_SANITIZED=1 (tests/CMakeLists.txt): there a script
# leaves out what only repeats a run for statistics (an ensemble's other members, a run made longer
# or larger than its code needs), which the suite without the sanitizers checks in full; every
# code path still runs once under them.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Mesa's shader cache stays where the environment puts it when a test points XDG_CACHE_HOME at
# its scratch directory (for the models' own cache): llvmpipe takes seconds to compile a program,
# and a cache emptied for each test made test_model_load twice as slow, with nothing gained.
if [ -z "${MESA_SHADER_CACHE_DIR:-}" ] && [ -n "${XDG_CACHE_HOME:-${HOME:-}}" ]; then
  export MESA_SHADER_CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/mesa_shader_cache"
fi
pass=0
fail=0
skipped=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $1"; }
finish() {
  echo "$pass passed, $fail failed, $skipped skipped"
  if [ "$fail" != 0 ]; then return 1; fi
  if [ "$pass" = 0 ] && [ "$skipped" = 0 ]; then
    echo "FAIL no check ran"
    return 1
  fi
  if [ "$pass" = 0 ]; then return 77; fi
  return 0
}
# gpu_setup PATH/TO/gpu_info: sets gpu (1 when a GL 4.3 context exists) and exact (1 when the GPU
# must equal the CPU bit for bit: a driver that rounds as IEEE does, see tests/gpu_exact.h; 0
# where the checks compare within tolerances and statistics), and ensemble, the path of the tool
# beside gpu_info that compares a GPU run with the CPU's ensemble (tests/ensemble_tool.c). With
# BOIDS_REQUIRE_GPU=1 a missing context is a failure.
gpu_setup() {
  ensemble=$(dirname "$1")/ensemble
  gpu=1
  exact=$("$1" exact 2>"$tmp/gpu_info.err") || gpu=0
  if [ $gpu = 0 ]; then
    exact=0
    if [ "${BOIDS_REQUIRE_GPU:-0}" = 1 ]; then
      bad "no GPU backend but BOIDS_REQUIRE_GPU=1: $(head -c 300 "$tmp/gpu_info.err")"
    else skip "the GPU half: no GL 4.3 context ($(head -c 200 "$tmp/gpu_info.err"))"; fi
  fi
  local renderer bitwise
  renderer=$("$1" renderer 2>/dev/null || echo none)
  bitwise=$([ "$exact" = 1 ] && echo on || echo off)
  echo "GPU: $renderer, bitwise checks: $bitwise"
}
# plots_setup: sets plots (1 when PLplot, which draws the figures, loads on this machine; boids
# loads it at first use, and runs without it write their tables and say so). With
# BOIDS_REQUIRE_PLOTS=1 (CI, whose install has it) a missing PLplot is a failure.
plots_setup() {
  plots=1
  if ! ldconfig -p 2>/dev/null | grep -q 'libplplot\.so\.17 '; then
    plots=0
    if [ "${BOIDS_REQUIRE_PLOTS:-0}" = 1 ]; then
      bad "no libplplot.so.17 but BOIDS_REQUIRE_PLOTS=1"
    else skip "the figures' checks: no PLplot (libplplot17)"; fi
  fi
}
