#!/usr/bin/env bash
# Recording flags: --video pipes raw frames to ffmpeg (a stand-in ffmpeg on PATH records what it
# was given, so the pipe's protocol is checked byte for byte; the real ffmpeg too when it is
# installed), says how to install ffmpeg when there is none, and keeps or removes the video
# whole; --fps sets the printed ffmpeg command's rate; --warmup K runs K unrecorded steps first
# (the state equals K more --steps); --view and --boid-size change what a frame shows.
# usage: test_recording.sh path/to/boids path/to/png_probe
set -u
boids=$(realpath "$1")
probe=$(realpath "$2")
source "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
run() { "$boids" --headless --backend cpu -n 1500 "$@" >out 2>err; }

# A stand-in ffmpeg: records its arguments and stdin, writes a file at its last argument.
mkdir fake broken none
cat >fake/ffmpeg <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$FAKE_DIR/args"
cat >"$FAKE_DIR/stdin"
for a in "$@"; do last=$a; done
echo "a video" >"$last"
EOF
cat >broken/ffmpeg <<'EOF'
#!/bin/sh
echo "ffmpeg: Unknown encoder 'libx264'" >&2
cat >/dev/null
exit 1
EOF
chmod +x fake/ffmpeg broken/ffmpeg
export FAKE_DIR=$tmp

# 1. Frames through the pipe: 10 frames of 64x48 RGBA, the rate and size on ffmpeg's command line.
PATH=$tmp/fake:$PATH run --steps 20 --frame-steps 2 --size 64x48 --fps 24 --video v.mp4
rc=$?
bytes=$(stat -c %s stdin 2>/dev/null || echo 0)
if [ $rc = 0 ] && [ "$bytes" = $((64 * 48 * 4 * 10)) ] && grep -qx 24 args && grep -qx 64x48 args &&
   grep -qx rgba args && [ "$(cat v.mp4)" = "a video" ] &&
   grep -q "10 frames of 64x48 at 24 frames/s" out; then
  ok "--video: 10 frames, $bytes bytes of RGBA piped, -framerate 24 -s 64x48, renamed into place"
else
  bad "--video: rc $rc, $bytes bytes, args $(tr '\n' ' ' <args 2>/dev/null) $(cat err)"
fi
# the summary leads with the simulation's own time; the drawing and the files come after it
timing=$(grep -m1 -A1 "^  20 steps" out)
grep -q "^  20 steps.*: the simulation .* ms per step, .* ns per boid-step" <<<"$timing" &&
  grep -q "^  with the drawing (.* ms per frame) and the files: .* s in all" <<<"$timing" &&
  ok "an export's summary leads with the simulation's time, then the whole run's" ||
  bad "export summary: $timing"
ls -A | grep -q 'boids-tmp' &&
  bad "--video left a temporary file" ||
  ok "--video left no temporary file"

# 2. No ffmpeg: exit 2 before the run, saying how to install it; nothing written.
rm -f v.mp4
PATH=$tmp/none run --steps 4 --video v.mp4
rc=$?
if [ $rc = 2 ] && grep -q -- "--video: ffmpeg is not installed.*apt install ffmpeg" err &&
   [ ! -e v.mp4 ] && ! grep -q "steps of" out; then
  ok "no ffmpeg: exit 2, says 'apt install ffmpeg', no run, no file"
else
  bad "no ffmpeg: rc $rc: $(cat err)"
fi

# 3. ffmpeg fails: exit 1 naming the file, the older video kept, no temporary file.
echo "older video" >v.mp4
PATH=$tmp/broken:$PATH run --steps 4 --size 32x32 --video v.mp4
rc=$?
if [ $rc = 1 ] && grep -q "v.mp4: ffmpeg failed (exit status 1)" err &&
   [ "$(cat v.mp4)" = "older video" ] && ! ls -A | grep -q 'boids-tmp'; then
  ok "ffmpeg fails: exit 1, the older v.mp4 kept, no temporary file"
else
  bad "ffmpeg fails: rc $rc, v.mp4 '$(cat v.mp4)': $(cat err)"
fi

# 3b. An ffmpeg that stalls (never reads): one Ctrl-C still ends boids at once (its blocked write
# gives up), ffmpeg is stopped, no temporary file stays.
mkdir stall
printf '#!/bin/sh\necho $$ >"$FAKE_DIR/stall.pid"\nexec sleep 600\n' >stall/ffmpeg
chmod +x stall/ffmpeg
PATH=$tmp/stall:$PATH "$boids" --headless --backend cpu -n 1500 --steps 100000 \
  --size 256x256 --video s.mp4 >out 2>err &
pid=$!
sleep 2
t0=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$?
took=$((($(date +%s%N) - t0) / 1000000))
spid=$(cat stall.pid 2>/dev/null || echo 0)
if [ $rc = 130 ] && [ $took -lt 5000 ] && ! kill -0 "$spid" 2>/dev/null &&
   ! ls -A | grep -q 'boids-tmp' && [ ! -e s.mp4 ]; then
  ok "a stalled ffmpeg: Ctrl-C ends boids in $took ms, ffmpeg stopped, nothing left"
else
  left="ffmpeg $spid $(kill -0 "$spid" 2>/dev/null && echo alive), $(ls -A)"
  bad "a stalled ffmpeg: exit $rc after $took ms, $left: $(cat err)"
  kill "$spid" 2>/dev/null
fi

# 3c. Ctrl-C while recording: the stream ends after the frame in flight and ffmpeg finishes the
# file, which keeps every frame encoded (it was once removed); exit 130 all the same.
rm -f stdin
PATH=$tmp/fake:$PATH "$boids" --headless --backend cpu -n 1500 --steps 1000000 --size 64x48 \
  --video c.mp4 >out 2>err &
pid=$!
for _ in $(seq 1 100); do
  [ "$(stat -c %s stdin 2>/dev/null || echo 0)" -gt 100000 ] && break
  sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
bytes=$(stat -c %s stdin 2>/dev/null || echo 0)
frames=$((bytes / (64 * 48 * 4)))
if [ $rc = 130 ] && [ $((bytes % (64 * 48 * 4))) = 0 ] && [ "$frames" -gt 0 ] &&
   [ "$(cat c.mp4 2>/dev/null)" = "a video" ] && grep -q "c.mp4 keeps the $frames frames" err &&
   ! ls -A | grep -q 'boids-tmp'; then
  ok "Ctrl-C while recording: exit 130, c.mp4 kept with its $frames whole frames"
else
  bad "Ctrl-C while recording: exit $rc, $bytes bytes, c.mp4 '$(cat c.mp4 2>&1)': $(cat err)"
fi

# 3d. The same at 1920x1080, through an ffmpeg that takes its input 64 KiB at a time, slowly
# (about 30 MB/s), as a real encoder does: the signal comes in the middle of a frame of 8 MB,
# which is finished, and the video is kept (a frame of 640x360 or more was once always cut there
# and the video removed, while the message said it kept its frames).
mkdir slow
cat >slow/ffmpeg <<'EOF'
#!/bin/sh
for a in "$@"; do last=$a; done
exec python3 -c '
import sys, time
n = 0
while True:
    b = sys.stdin.buffer.read1(65536)
    if not b:
        break
    n += len(b)
    time.sleep(0.002)
open(sys.argv[1], "w").write("%d bytes\n" % n)
' "$last"
EOF
chmod +x slow/ffmpeg
PATH=$tmp/slow:$PATH "$boids" --headless --backend cpu -n 1500 --steps 1000000 --size 1920x1080 \
  --video hd.mp4 >out 2>err &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
frame=$((1920 * 1080 * 4))
got=$(cut -d' ' -f1 hd.mp4 2>/dev/null)
got=${got:-0}
if [ $rc = 130 ] && [ "$got" -gt 0 ] && [ $((got % frame)) = 0 ] &&
   grep -q "hd.mp4 keeps the $((got / frame)) frames" err && ! ls -A | grep -q 'boids-tmp'; then
  ok "Ctrl-C while recording 1920x1080: exit 130, hd.mp4 kept with its $((got / frame)) frames"
else
  bad "Ctrl-C while recording 1920x1080: exit $rc, $got bytes piped, $(ls hd.mp4 2>&1): $(cat err)"
fi

# 3e. An ffmpeg that exits 0 without writing: a failure, not "20 frames encoded".
mkdir empty
printf '#!/bin/sh\ncat >/dev/null\nfor a in "$@"; do last=$a; done\n: >"$last"\n' >empty/ffmpeg
chmod +x empty/ffmpeg
PATH=$tmp/empty:$PATH run --steps 20 --size 32x32 --video e.mp4
rc=$?
if [ $rc = 1 ] && grep -q "e.mp4: ffmpeg ended without writing the video" err &&
   ! grep -q "frames of" out && [ ! -e e.mp4 ] && ! ls -A | grep -q 'boids-tmp'; then
  ok "an ffmpeg that writes nothing: exit 1, said, no e.mp4"
else
  bad "an ffmpeg that writes nothing: exit $rc, $(ls e.mp4 2>&1): $(cat err)"
fi

# 3f. An ffmpeg that takes seconds to finish after its last frame (a real one encodes the frames
# it looks ahead at): the wait is said, then its end, and the video kept (it was silent).
mkdir lag
printf '#!/bin/sh\ncat >/dev/null\nsleep 1.5\nfor a in "$@"; do last=$a; done\necho v >"$last"\n' \
  >lag/ffmpeg
chmod +x lag/ffmpeg
PATH=$tmp/lag:$PATH run --steps 12 --size 32x32 --video l.mp4
rc=$?
if [ $rc = 0 ] && grep -q "finishing l.mp4: ffmpeg encodes the last of its 12 frames$" err &&
   grep -q "ffmpeg finished l.mp4 in [0-9.]* s" err && [ "$(cat l.mp4)" = v ]; then
  ok "an ffmpeg slow to finish: the wait and its end said on stderr, l.mp4 kept"
else
  bad "an ffmpeg slow to finish: exit $rc, $(ls l.mp4 2>&1): $(cat err)"
fi

# 4. A video path that is a directory: refused before the run.
mkdir vdir.mp4
PATH=$tmp/fake:$PATH run --steps 4 --video vdir.mp4
rc=$?
[ $rc = 2 ] && grep -q -- "--video: vdir.mp4: is a directory" err &&
  ok "--video DIR: exit 2 before the run" ||
  bad "--video DIR: rc $rc: $(cat err)"

# 5. --fps in the printed ffmpeg command; the default 30.
run --steps 4 --size 64x48 --frames f1
grep -q "ffmpeg -framerate 30 " out && ok "--frames prints ffmpeg at 30 frames/s by default" ||
  bad "default fps: $(grep ffmpeg out)"
run --steps 4 --size 64x48 --frames f2 --fps 12.5
grep -q "ffmpeg -framerate 12.5 " out && ok "--fps 12.5 in the printed ffmpeg command" ||
  bad "--fps: $(grep ffmpeg out)"
for v in 0 -3 abc 1001; do
  run --steps 4 --fps "$v" --frames f3
  rc=$?
  [ $rc = 2 ] && grep -q -- "--fps" err &&
    ok "--fps $v: exit 2 naming --fps" ||
    bad "--fps $v: rc $rc $(cat err)"
done

# 6. --warmup K then --steps S leaves the state of K + S steps; its frames start after the warm-up.
run --seed 5 --steps 30 --dump plain.csv
run --seed 5 --warmup 20 --steps 10 --size 64x48 --frames f4 --dump warm.csv
if cmp -s plain.csv warm.csv && [ "$(ls f4 | wc -l)" = 10 ] && grep -q "^  10 steps" out; then
  ok "--warmup 20 --steps 10 == --steps 30, 10 frames, 10 steps timed"
else
  bad "--warmup: $(cmp plain.csv warm.csv) frames $(ls f4 | wc -l) $(head -3 out)"
fi

# 7. --view and --boid-size change the picture: a quarter of the world zoomed in lights more
# pixels per boid; larger boids light more pixels; a view of an empty region lights none.
run --seed 3 --steps 2 --size 320x180 --screenshot all.png
read -r _ _ lit_all < <("$probe" all.png)
run --seed 3 --steps 2 --size 320x180 --boid-size 24 --screenshot big.png
read -r _ _ lit_big < <("$probe" big.png)
run --seed 3 --steps 2 --size 320x180 --view 5000,5000,100,100 --screenshot empty.png
read -r _ _ lit_empty < <("$probe" empty.png)
run --seed 3 --steps 2 --size 320x180 --view 0,0,400,225 --screenshot zoom.png --dump zoom.csv
read -r _ _ lit_zoom < <("$probe" zoom.png)
inside=$(awk -F, 'NR > 1 && $2 < 400 && $3 < 225' zoom.csv | wc -l)
# per boid in view, the zoomed frame (4.7x the scale) lights several times the pixels
if [ "$lit_big" -gt $((lit_all * 2)) ] && [ "$lit_empty" = 0 ] && [ "$inside" -gt 0 ] &&
   [ $((lit_zoom * 1500)) -gt $((lit_all * inside * 3)) ]; then
  zoomed="a zoomed --view $lit_zoom px for $inside boids"
  ok "--boid-size 24 lights $lit_big px (default $lit_all); an empty --view 0; $zoomed"
else
  counts="all $lit_all big $lit_big empty $lit_empty zoom $lit_zoom for $inside boids"
  bad "--view/--boid-size: $counts"
fi
for v in 1,2,3 1,2,3,0 1,2,3,x "1,2,3,4,5" ""; do
  run --steps 1 --view "$v" --screenshot x.png
  rc=$?
  [ $rc = 2 ] && grep -q -- "--view" err &&
    ok "--view '$v': exit 2 naming --view" ||
    bad "--view '$v': rc $rc $(cat err)"
done
run --steps 1 --boid-size 0 --screenshot x.png
[ $? = 2 ] && grep -q -- "--boid-size" err &&
  ok "--boid-size 0: exit 2" ||
  bad "--boid-size 0: $(cat err)"

# 8. The real ffmpeg, where installed: a playable H.264 file with the frames asked for.
if command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null; then
  run --steps 24 --size 161x91 --fps 24 --video real.mp4
  rc=$?
  n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries \
        stream=nb_read_frames,codec_name,width -of csv=p=0 real.mp4 2>/dev/null)
  [ $rc = 0 ] && [ "$n" = "h264,162,24" ] &&
    ok "real ffmpeg: h264, odd width padded to 162, 24 frames" ||
    bad "real ffmpeg: rc $rc, ffprobe '$n': $(cat err)"
else
  skip "ffmpeg is not installed: the real encoder is not tried (the stand-in checks the pipe)"
fi

finish
