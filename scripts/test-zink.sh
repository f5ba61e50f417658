#!/usr/bin/env bash
# Runs the GPU tests of a build on a second OpenGL driver: zink (GL over Vulkan) on lavapipe
# (Vulkan on the CPU), both from Debian's Mesa. zink over lavapipe rounds as IEEE does (measured by
# tests/gpu_exact.h's probe), so the tests hold it to the CPU bit for bit, as on llvmpipe: a second
# driver's compiler, memory model and scheduling under the strongest checks. (The tolerance path a
# real GPU takes runs in CI under the emulated GPU numerics, BOIDS_GPU_NUMERICS=perturbed, on
# llvmpipe.) Fails when zink cannot be had, rather than quietly testing another driver.
# usage: scripts/test-zink.sh [BUILD_DIR]   (default build/release; scripts/install-deps.sh --test
#        installs mesa-vulkan-drivers)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
runtime=$(mktemp -d)
trap 'rm -rf "$runtime"' EXIT
export LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink XDG_RUNTIME_DIR=$runtime
export BOIDS_REQUIRE_GPU=1 BOIDS_TEST_EXACT=
renderer=$("$build/tests/gpu_info" renderer)
case "$renderer" in
  zink*) echo "driver: $renderer, bitwise checks: $("$build/tests/gpu_info" exact)" ;;
  *)
    echo "scripts/test-zink.sh: asked for zink, got '$renderer'" \
      "(is mesa-vulkan-drivers installed?)" >&2
    exit 1
    ;;
esac
# The default tier's GPU tests (the full tier's figures and long runs are statistical: the other
# stages cover them), but those whose driver-dependent part the others cover, which would double
# this stage: the golden hashes and the papers' numbers (test_golden, test_papers,
# test_experiment: minutes of steps whose every state test_scenarios and test_agreement hold to
# the CPU's bits here), the documents' commands (test_readme), the library seen from Python, an
# install and a second build (test_python, test_install, test_example_model); the field
# measures, which a GPU world takes on the host from its state read back (test_field); and
# `boids check` (test_check), whose GPU comparisons (every model flat and 3D, metric and nearest,
# against the CPU and its oracle) are test_agreement's, test_dims' and test_nearest's, which run
# here: on lavapipe its two minutes were the compiling of every model's programs once more.
skip='^test_(golden|papers|experiment|readme|python|install|example_model|field|check)$'
# A test that fails is run once more, and fails the stage only if it fails again: once in CI,
# test_kit died of SIGSEGV 0.17 s in, before its first line (zink's start, or ours: unknown), and
# it did not come back in 150 runs here, under load, with a cold shader cache, nor under
# AddressSanitizer. Both tries stay in the log, and tests/test.h now prints the test and a
# backtrace when a test process crashes, so a second sighting says where.
ctest --test-dir "$build" -L gpu -LE '^full$' -E "$skip" --output-on-failure -j 2 --timeout 900 \
  --repeat until-pass:2
