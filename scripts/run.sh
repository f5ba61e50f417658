#!/usr/bin/env bash
# The README's first command ends here: the viewer in a window where there is a display; without
# one, a headless run that still shows a result, a PNG sequence of the flock (every 10th step of
# 600) in a new ./boids-frames-DATE-TIME, and the ffmpeg command that makes it a video. Arguments
# go to boids.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
boids="$here/build/release/src/boids"
why="no display"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  # a display that is set may still not open (a stale DISPLAY, no X server): try it, one step
  probe=$(timeout 30 "$boids" -n 1 --steps 1 --backend cpu 2>&1 || true)
  case "$probe" in *"no window"*) ;; *) exec "$boids" "$@" ;; esac
  why="the display ${DISPLAY:-$WAYLAND_DISPLAY} does not open"
fi
frames="boids-frames-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$frames"
echo "$why: running headless, writing frames to $(pwd)/$frames"
exec "$boids" --headless --steps 600 --frame-steps 10 --frames "$frames" --size 1280x720 "$@"
