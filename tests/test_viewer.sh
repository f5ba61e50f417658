#!/usr/bin/env bash
# The window path under Xvfb: `boids` opens a window, draws, ends after --steps and exits 0, and
# its --screenshot (the window with the HUD and panel) decodes at the window's size with the
# flock drawn. Also: --frames into a file is an error before anything runs.
# usage: test_viewer.sh path/to/boids path/to/png_probe
set -u
boids=$(realpath "$1")
probe=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

if ! command -v xvfb-run >/dev/null; then
  echo "SKIP: xvfb-run is not installed"
  [ "${BOIDS_REQUIRE_GPU:-0}" = 1 ] && { echo "0 passed, 1 failed"; exit 1; }
  exit 77
fi
for be in gpu cpu; do
  (cd "$tmp" && xvfb-run -a -s "-screen 0 1400x900x24" "$boids" -n 800 --swarms 2 --steps 30 \
     --backend "$be" --screenshot "$tmp/shot_$be.png") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc = 0 ] && grep -q "window closed" "$tmp/out" && grep -q "30 steps" "$tmp/out"; then
    ok "$be: window opened, ran 30 steps, closed, exit 0"
  else
    bad "$be: window run: exit $rc: $(head -c 400 "$tmp/err") $(head -c 400 "$tmp/out")"
  fi
  read -r w h lit < <("$probe" "$tmp/shot_$be.png" 2>/dev/null || echo 0 0 0)
  if [ "$w" = 1280 ] && [ "$h" = 720 ] && [ "$lit" -gt 5000 ]; then
    ok "$be: screenshot ${w}x${h} with $lit pixels drawn (flock, HUD, panel)"
  else
    bad "$be: screenshot ${w}x${h}, $lit pixels drawn"
  fi
done
ls "$tmp" | grep -q '\.tmp$' && bad "temporary files left" || ok "no temporary files left"

# --frames in a window records from the start: one frame per step.
mkdir "$tmp/wf"
(cd "$tmp" && xvfb-run -a -s "-screen 0 1400x900x24" "$boids" -n 300 --steps 12 --frames "$tmp/wf" \
   --size 320x180) >"$tmp/out" 2>&1
n=$(ls "$tmp/wf" | grep -c '^frame_.*\.png$')
[ "$n" = 12 ] && ok "window with --frames: 12 frames for 12 steps" || bad "window with --frames: $n frames: $(tail -c 300 "$tmp/out")"
# A directory that holds a sequence already: refused before the run.
"$boids" --headless -n 10 --steps 3 --frames "$tmp/wf" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "already holds" "$tmp/err" && ok "--frames into an old sequence: exit 2" || bad "old sequence: exit $rc $(cat "$tmp/err")"
mkdir "$tmp/zf"
"$boids" --headless -n 10 --steps 5 --frame-steps 10 --frames "$tmp/zf" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "no frame" "$tmp/err" && ok "--frames that makes no frame: exit 2" || bad "no frame: exit $rc $(cat "$tmp/err")"
# A display that cannot be opened: headless instead, with a note.
DISPLAY=:12345 WAYLAND_DISPLAY= "$boids" -n 50 --steps 3 --backend cpu >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && grep -q "running headless" "$tmp/err" && grep -q "3 steps" "$tmp/out" && ok "no display after all: runs headless" || bad "display fallback: exit $rc $(cat "$tmp/err")"

# --frames into a file (not a directory) is an error before anything runs
touch "$tmp/afile"
"$boids" --headless -n 10 --steps 1 --frames "$tmp/afile" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q -- "--frames" "$tmp/err" && ! grep -q "steps" "$tmp/out"; then
  ok "--frames on a file: exit 2 before the run"
else
  bad "--frames on a file: exit $rc, $(cat "$tmp/err")"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
