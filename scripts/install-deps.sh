#!/usr/bin/env bash
# Installs the Debian 12 packages the build, the program and the tests need (as root; apt-get
# runs only when something is missing, so a ready machine needs no root).
set -euo pipefail
packages=(
  cmake gcc make pkg-config python3 python3-glad   # build; glad generates the GL/EGL loader
  libglfw3-dev libcglm-dev libstb-dev libdeflate-dev # window, math, PNG (stb's writer, libdeflate's zlib)
  libegl-dev libegl1-mesa-dev libgl1-mesa-dri      # headless EGL and Mesa (llvmpipe without a GPU)
  glslang-tools xvfb xdotool                       # shader validation; windows without a display, keys for them
  libplplot-dev plplot-driver-cairo                # the experiments' plots (PNG through cairo)
  slurmctld slurmd slurm-client munge              # the Slurm test: a one-node cluster on localhost
  clang libclang-rt-14-dev                         # the fuzz targets (libFuzzer) in CI
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  as_root=()
  [ "$(id -u)" -ne 0 ] && as_root=(sudo)
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
