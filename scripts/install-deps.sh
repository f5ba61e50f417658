#!/usr/bin/env bash
# Installs the Debian 12 packages that building and running boids need, and with --test those the
# test suite needs too (as root; apt-get runs only when something is missing, so a ready machine
# needs no root). Another apt holding the package lock is waited for, up to 10 minutes.
# usage: scripts/install-deps.sh [--test]
set -euo pipefail
run=(
  cmake gcc make pkg-config python3 python3-glad   # build; glad generates the GL/EGL loader
  libglfw3-dev libcglm-dev libstb-dev libdeflate-dev # window, math, PNG (stb's writer,
                                                     # libdeflate's zlib)
  libegl-dev libegl1-mesa-dev libgl1-mesa-dri      # headless EGL and Mesa (llvmpipe without a GPU)
  libplplot-dev plplot-driver-cairo                # the experiments' plots (PNG through cairo)
  python3-numpy python3-matplotlib python3-pandas  # the Python package (its tables) and examples
  python3-venv python3-pip python3-setuptools      # its install with pip into a venv
)
test=(
  glslang-tools xvfb xdotool                       # shader validation; windows without a
                                                   # display, keys for them
  mesa-vulkan-drivers                              # lavapipe: zink's Vulkan, the GPU tests'
                                                   # second driver
  slurmctld slurmd slurm-client munge              # the Slurm test: a one-node cluster on localhost
  clang libclang-rt-14-dev                         # the fuzz targets (libFuzzer) in CI
  clang-format                                     # the house style (tests/check_house.py)
  python3-pytest                                   # the Python package's tests
  python3-distributed                              # its executor tests: a dask LocalCluster,
  python3-mpi4py openmpi-bin                       # mpi4py.futures under mpiexec
)
packages=("${run[@]}")
case "${1:-}" in
  --test) packages+=("${test[@]}") ;;
  "") ;;
  *) echo "usage: scripts/install-deps.sh [--test]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  as_root=()
  [ "$(id -u)" -ne 0 ] && as_root=(sudo)
  wait_lock=(-o DPkg::Lock::Timeout=600)
  "${as_root[@]}" apt-get "${wait_lock[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get "${wait_lock[@]}" \
    install -y -qq --no-install-recommends "${missing[@]}"
fi
