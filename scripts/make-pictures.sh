#!/usr/bin/env bash
# Draws docs/models/NAME.png for every scenario in scenarios/: the scenario's flock after its own
# `steps` (a steady flock, not the random start), 640x360, on the CPU backend (the same flock on
# any machine: the pictures change only when a model's results do).
# usage: scripts/make-pictures.sh [path/to/boids]   (default build/release/src/boids)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
boids=${1:-$root/build/release/src/boids}
out=$root/docs/models
mkdir -p "$out"
for ini in "$root"/scenarios/*.ini; do
  name=$(basename "$ini" .ini)
  echo "== $name"
  # the scenario's steps run first (--warmup takes them from the file's own `steps`)
  steps=$(sed -n 's/^steps *= *\([0-9]*\).*/\1/p' "$ini")
  "$boids" "$ini" --headless --backend cpu --warmup "${steps:-600}" --steps 1 --size 640x360 \
    --screenshot "$out/$name.png" | grep -E "polarization|screenshot"
done
