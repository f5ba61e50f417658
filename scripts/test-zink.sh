#!/usr/bin/env bash
# Runs the GPU tests of a build on a second OpenGL driver: zink (GL over Vulkan) on lavapipe
# (Vulkan on the CPU), both from Debian's Mesa. The tests' bitwise checks are turned off
# (BOIDS_TEST_EXACT=0), so they compare the GPU with the CPU as they would on a real GPU: one step
# within a tolerance, long runs through their statistics; first, test_scenarios runs with the
# bitwise checks the driver earns (zink over lavapipe rounds as IEEE does). Fails when zink cannot
# be had, rather than quietly testing another driver.
# usage: scripts/test-zink.sh [BUILD_DIR]   (default build/release; scripts/install-deps.sh --test
#        installs mesa-vulkan-drivers)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
runtime=$(mktemp -d)
trap 'rm -rf "$runtime"' EXIT
export LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink XDG_RUNTIME_DIR=$runtime BOIDS_TEST_EXACT=0
export BOIDS_REQUIRE_GPU=1
renderer=$("$build/tests/gpu_info" renderer)
case "$renderer" in
  zink*) echo "driver: $renderer" ;;
  *)
    echo "scripts/test-zink.sh: asked for zink, got '$renderer'" \
      "(is mesa-vulkan-drivers installed?)" >&2
    exit 1
    ;;
esac
# zink over lavapipe rounds as IEEE does too: the presets' GPU dumps equal the CPU's bit for bit.
BOIDS_TEST_EXACT= ctest --test-dir "$build" -R '^test_scenarios$' --output-on-failure
# Then every GPU test, comparing as on a real GPU, but for those whose driver-dependent part the
# others already cover, which would double this stage (CI has 30 minutes in all):
# - test_golden (its GPU hashes need the bitwise checks test_scenarios just made), test_papers
#   (the papers' numbers, which the longruns' statistics bound on the GPU too);
# - test_figures, test_readme (the documents' numbers and commands, checked by the first stage);
# - test_python, test_install, test_example_model (the library's C calls, which the C tests make
#   on this driver, seen from Python, an install and a second build);
# - the longruns of shiffman-processing, shiffman-noc and mean, whose rules files (shiffman,
#   allocation) the longruns of shiffman-per-second and priority run here.
skip='^test_(golden|papers|figures|readme|python|install|example_model)$'
skip+='|^test_longrun_(shiffman-processing|shiffman-noc|mean)$'
ctest --test-dir "$build" -L gpu -E "$skip" --output-on-failure -j 2 --timeout 900
