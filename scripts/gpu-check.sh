#!/usr/bin/env bash
# Checks and measures a GPU with this repository's build, in one command and under 8 minutes:
#   device  the EGL devices, the one taken and why, the renderer and the driver's limits (largest
#           storage block, workgroups, loop limit), whether it rounds as IEEE does;
#   tests   the GPU tests on the tolerance path a real GPU takes (BOIDS_TEST_EXACT=0), a missing
#           GPU a failure, the check mode on;
#   bench   the steady flock (shiffman-per-second at the default density, 600 steps in) at 1M and
#           10M boids on the GPU and on the CPU with every core: ns per boid-step, steps/s, the
#           walk's candidates per boid, the GL commands a step and the GPU's passes (boids-bench);
#   cells   the same steady flock at 10M on the GPU with cells of half the radius (blocks of 5 cells
#           an axis: fewer candidates), beside the bench's rows;
#   peer    FLAME GPU 2's circles benchmark (1M agents in 3D, Spatial3D messages) where its bundle
#           is carried (scripts/build-peer-flamegpu.sh builds it; build/peers/flamegpu, or
#           BOIDS_PEER=DIR) and an NVIDIA driver runs it, beside our 3D world at its density and
#           radius (boids-bench --dims 3c): both in ns per agent-step and per candidate;
#   scale   the GPU alone on the 3D cube at 10M and on 10^8 boids in 2D, 100 steps in, as far as
#           the budget goes;
# and writes a report to a folder: report.txt (all of the above), bench.csv (boids-bench's rows),
# device.txt, tests.log, and binaries/ (the driver's binaries of the steering programs). Each
# stage runs under a time limit within the whole budget.
#
# It needs the build (build/release, or --build DIR): carried over from another machine (its
# tests find libboids_internal.so beside themselves, the programs hold the static library, and
# the tests find their scenarios there; they need libdeflate and the GPU's EGL, not GLFW, PLplot
# or X, which load only for a window or a figure), or built here when cmake and the packages are
# present. Where the build was made in another directory, the paths its CTest files name are
# rewritten to this checkout's.
#
# usage: scripts/gpu-check.sh [--out DIR] [--build DIR] [--small] [--budget SECONDS]
#   --out DIR      the report's folder (default gpu-check-DATE-TIME)
#   --small        sizes a software driver runs in a minute, a few tests: what CI runs, so this
#                  script cannot rot (its numbers say nothing of a GPU)
#   --budget S     the whole run's time limit in seconds (default 470)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out="gpu-check-$(date +%Y%m%d-%H%M%S)"
build=build/release
small=0
budget=470
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --small) small=1; shift ;;
    --budget) budget=$2; shift 2 ;;
    *) echo "usage: scripts/gpu-check.sh [--out DIR] [--build DIR] [--small] [--budget S]" >&2
       exit 2 ;;
  esac
done
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
start=$(date +%s)
deadline=$((start + budget))
report=$out/report.txt
: >"$report"
say() { echo "[$(($(date +%s) - start)) s] $*" | tee -a "$report"; }
# stage NAME SECONDS CMD...: CMD into $out/NAME.log within min(SECONDS, the time left).
stage() {
  local name=$1 secs=$2 left rc t0
  shift 2
  left=$((deadline - $(date +%s)))
  [ "$secs" -gt "$left" ] && secs=$left
  if [ "$secs" -lt 5 ]; then say "SKIPPED $name: out of time"; return 124; fi
  t0=$(date +%s)
  timeout -k 5 "$secs" "$@" >"$out/$name.log" 2>&1
  rc=$?
  say "$name: exit $rc in $(($(date +%s) - t0)) s$([ $rc = 124 ] && echo ' (out of time)')"
  return $rc
}
failed=0

# ---- the build ---------------------------------------------------------------------------------
if [ ! -x "$build/src/boids" ] || [ ! -x "$build/tests/gpu_info" ]; then
  if command -v cmake >/dev/null && [ "$build" = build/release ]; then
    say "no build in $build: building it (cmake --preset release)"
    stage build 400 bash -c "cmake --preset release && cmake --build --preset release" ||
      { say "FAILED: the build (see $out/build.log)"; exit 1; }
  else
    say "FAILED: no build in $build, and no cmake here to make one: carry build/release over"
    exit 1
  fi
fi
build=$(cd "$build" && pwd)
made_in=$(sed -n 's|^# Source directory: \(.*\)/tests$|\1|p' "$build/tests/CTestTestfile.cmake" \
  2>/dev/null)
built_at=$(sed -n 's|^# Build directory: \(.*\)/tests$|\1|p' "$build/tests/CTestTestfile.cmake" \
  2>/dev/null)
if [ -n "$made_in" ] && { [ "$made_in" != "$root" ] || [ "$built_at" != "$build" ]; }; then
  say "the build was made in $made_in ($built_at): its CTest files now name $root ($build)"
  find "$build" -name 'CTestTestfile.cmake' -o -name '*_tests.cmake' | while read -r f; do
    sed -i "s|$built_at|$build|g; s|$made_in|$root|g" "$f"
  done
fi
missing=$(ldd "$build/src/boids" "$build/bench/boids-bench" "$build/tests/gpu_info" 2>/dev/null |
  grep 'not found' | sort -u | tr -s ' \t\n' ' ')
[ -n "$missing" ] && say "WARNING: libraries not found: $missing"

# ---- the device --------------------------------------------------------------------------------
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
command -v nvidia-smi >/dev/null &&
  say "nvidia-smi: $(timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total \
    --format=csv,noheader 2>&1 | head -3 | tr '\n' ';')"
export BOIDS_REQUIRE_GPU=1 BOIDS_GPU_CHECKS=1
if ! stage device 60 "$build/tests/gpu_info"; then
  say "FAILED: no GPU context: $(tail -3 "$out/device.log" | tr '\n' ' ')"
  exit 1
fi
"$build/tests/gpu_info" devices >>"$out/device.log" 2>&1
cp "$out/device.log" "$out/device.txt"
sed 's/^/  /' "$out/device.txt" | tee -a "$report"
# The driver's binaries of the steering programs (NVIDIA's hold readable assembly: instructions
# per candidate, what changed between two builds), flat, for the report's folder.
mkdir -p "$out/binaries"
for s in steer_shiffman-per-second steer_adams steer_hybrid steer_priority steer_kit hunt; do
  "$build/tests/gpu_info" binary "$s.comp" 2 "$out/binaries/$s.bin" >>"$out/binaries.log" 2>&1
done
say "program binaries: $(ls "$out/binaries" | wc -l) in binaries/ ($(tail -1 "$out/binaries.log"))"

# ---- the tests on the tolerance path ------------------------------------------------------------
export BOIDS_TEST_EXACT=0
# Not these: a window (no display), the install, the Python package, the documents, a second
# build: what they add on a GPU the others hold.
skip='^test_(window|viewer|recording|install|python|readme|figures|example_model)$'
only=()
[ $small = 1 ] && only=(-R '^test_(agreement|gpu_limits|metrics)$')
if command -v ctest >/dev/null; then
  stage tests 300 ctest --test-dir "$build" -L gpu -E "$skip" "${only[@]}" -j "$(nproc)" \
    --timeout 240 --output-on-failure
  rc=$?
  passed=$(grep -cE 'Test +#[0-9]+: .* Passed' "$out/tests.log")
  broken=$(grep -E 'Test +#[0-9]+: .*(Failed|Timeout|Not Run|Exception)' "$out/tests.log" |
    sed -E 's/.*(test_[a-z_-]+).*/\1/' | tr '\n' ' ')
  say "tests: $passed passed; failed: ${broken:-none}"
  [ $rc = 0 ] || failed=1
else
  say "SKIPPED tests: no ctest on this machine (cmake's package has it)"
fi

# ---- the steady flock --------------------------------------------------------------------------
unset BOIDS_GPU_CHECKS # the check mode queries every binding: no timing with it
if [ $small = 1 ]; then
  sizes=5000,20000 warm=50 secs=0.2
else
  sizes=1000000,10000000 warm=600 secs=1
fi
stage bench 360 "$build/bench/boids-bench" --models shiffman-per-second --sizes "$sizes" \
  --backends gpu,cpu --starts steady --warmup-steps $warm --repeats 3 --seconds $secs \
  --out "$out/bench" || failed=1
# A bench.csv's rows: ns per boid-step, steps/s, the walk's candidates and neighbours per boid,
# the GPU's buffers a boid, the GL commands a step, and the GPU's passes.
report_rows() {
  # (the renderer's name holds commas: the columns after it are counted from the end)
  awk -F, 'function v(k) { return c[k] > c["renderer"] ? $(c[k] + NF - nh) : $c[k] }
    NR == 1 { nh = NF; for (i = 1; i <= NF; ++i) c[$i] = i; next }
    { ns = $c["ns_median"]; n = $c["boids"]
      f = "  %-4s %9d boids%s  %9.3f ns per boid-step  %9.1f steps/s"
      d3 = $c["depth"] > 0 ? " (3D)" : ""
      printf f, $c["backend"], n, d3, ns, 1e9 / (ns * n)
      printf "  %5.1f candidates (%.4f ns each), %4.1f neighbours", v("candidates"),
        ns / v("candidates"), v("neighbours")
      if ($c["backend"] == "gpu") {
        printf "  %.0f B a boid", v("device_bytes") / n
        printf "  %g dispatches  ms per step: grid %.3f scan %.3f scatter %.3f", v("dispatches"),
          $c["grid_ms"], $c["scan_ms"], $c["scatter_ms"]
        printf " reorder %.3f steer %.3f", $c["reorder_ms"], $c["steer_ms"]
      }
      printf "\n" }' "$1" | tee -a "$report"
}
if [ -f "$out/bench/bench.csv" ]; then
  cp "$out/bench/bench.csv" "$out/bench.csv"
  say "the steady flock ($warm steps in), shiffman-per-second:"
  report_rows "$out/bench.csv"
fi

# ---- the same steady flock on a grid of cells of half the radius (boids-bench --cells 2: blocks of
# 5 cells an axis, a quarter fewer candidates; on llvmpipe no faster, its SIMD lanes walking each
# of 5 rows as long as the longest): whether a GPU's warps gain ---------------------------------
[ $small = 1 ] && half_size=20000 || half_size=10000000
stage cells 120 "$build/bench/boids-bench" --models shiffman-per-second --sizes $half_size \
  --backends gpu --starts steady --warmup-steps $warm --repeats 3 --seconds $secs --cells 2 \
  --out "$out/cells" || failed=1
if [ -f "$out/cells/bench.csv" ]; then
  say "the same on cells of half the radius (--cells 2):"
  report_rows "$out/cells/bench.csv"
fi

# ---- a peer in the same run: FLAME GPU 2's circles benchmark (3D, one agent per unit volume,
# radius 2, its agents in bins of the radius), 1M agents for 200 steps, 3 seeds; and ours at the
# same density and radius from a uniform start, as theirs ---------------------------------------
peer=${BOIDS_PEER:-build/peers/flamegpu}
if [ $small = 1 ] || [ ! -x "$peer/circles-single" ] || [ ! -e /proc/driver/nvidia/version ]; then
  say "SKIPPED peer: it needs FLAME GPU 2's bundle in $peer (scripts/build-peer-flamegpu.sh) and" \
    "NVIDIA's driver$([ $small = 1 ] && echo '; not with --small')"
else
  stage peer 150 env LD_LIBRARY_PATH="$peer" "$peer/circles-single" --agents 1000000 \
    --width 100 --radius 2 --steps 200 --repetitions 3 || failed=1
  stage peer-ours 150 "$build/bench/boids-bench" --models shiffman-per-second --sizes 1000000 \
    --dims 3c --backends gpu --starts random --repeats 3 --seconds 1 --out "$out/peer-ours" ||
    failed=1
  say "a peer: FLAME GPU 2's circles (Spatial3D, 1M agents, 200 steps), and ours at its density:"
  awk -F, '/^GPU,/ { for (i = 1; i <= NF; ++i) c[$i] = i; next }
    c["s_step_mean"] && $1 !~ /^#/ {
      ms = $c["s_step_mean"] * 1e3; n = $c["agent_count"]; m = $c["mean_message_count"]
      printf "  FLAME GPU 2 on %s, seed %d: %.3f ms a step, %.3f ns per agent-step, %.1f messages",
        $c["GPU"], $c["repeat"], ms, ms * 1e6 / n, m
      printf " read (%.4f ns each)\n", ms * 1e6 / n / m }' "$out/peer.log" | tee -a "$report"
  [ -f "$out/peer-ours/bench.csv" ] && report_rows "$out/peer-ours/bench.csv"
fi

# ---- at scale: the 3D cube at 10M, and 10^8 boids in 2D (the GPU alone; last, so that what the
# budget leaves decides whether they run) ------------------------------------------------------
if [ $small = 1 ]; then
  scale=("3 50000" "2 200000")
else
  scale=("3 10000000" "2 100000000")
fi
for s in "${scale[@]}"; do
  set -- $s
  stage "scale-$1d-$2" 240 "$build/bench/boids-bench" --models shiffman-per-second --sizes "$2" \
    --dims "$1" --backends gpu --starts steady --warmup-steps 100 --repeats 3 --seconds $secs \
    --out "$out/scale-$1d-$2" || failed=1
  if [ -f "$out/scale-$1d-$2/bench.csv" ]; then
    say "at scale, $1D, $2 boids (100 steps in):"
    report_rows "$out/scale-$1d-$2/bench.csv"
  fi
done
say "done in $(($(date +%s) - start)) s: $out/report.txt, bench.csv, device.txt, tests.log"
exit $failed
