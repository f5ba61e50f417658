#!/usr/bin/env bash
# The README's first command ends here: the viewer in a window where there is a display; without
# one, a headless run that still shows a result, a PNG sequence of the flock (every 10th step of
# 600) in a new ./boids-frames-DATE-TIME, and the ffmpeg command that makes it a video. Arguments
# go to boids.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
boids="$here/build/release/src/boids"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$boids" "$@"
fi
frames="boids-frames-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$frames"
echo "no display: running headless, writing frames to $(pwd)/$frames"
exec "$boids" --headless --steps 600 --frame-steps 10 --frames "$frames" --size 1280x720 "$@"
