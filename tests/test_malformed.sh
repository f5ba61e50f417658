#!/usr/bin/env bash
# What an adversary tried, kept as tests: output paths that a rename would destroy, signals in the
# middle of a run, malformed scenario and state files, numbers at and past their bounds. Each
# gives a clear message (naming the flag, or the file and line) and its exit status, or the
# documented behaviour; nothing is left half-written and no raw control byte reaches the terminal.
# usage: test_malformed.sh path/to/boids
set -u
boids=$(realpath "$1")
source "$(dirname "$0")/lib.sh"
cd "$tmp"
# expect CODE NAME PATTERN -- command...: exit status and a pattern in stderr
expect() {
  local code=$1 name=$2 pattern=$3
  shift 4
  "$@" >out 2>err
  local rc=$?
  if [ "$rc" != "$code" ]; then bad "$name: exit $rc, expected $code: $(head -c 300 err)"
  elif [ -n "$pattern" ] && ! grep -q -- "$pattern" err; then
    bad "$name: stderr lacks '$pattern': $(head -c 300 err)"
  else ok "$name"; fi
}
run=(-n 50 --steps 2 --backend cpu --headless)
kit=(--model kit -n 35 --world 2000x2000 --steps 2 --backend cpu --headless)

# --- worlds the model cannot move in, grids the world cannot have: refused before anything -----
expect 0 "a world whose positions lie a step apart: said, with the size that keeps them" \
  "note: a world 1000000 px wide: positions there are 0.0625 px apart.*a world under 65536 px" \
  -- "$boids" --model gregoire-chate --world 1000000x1000000 "${run[@]}"
expect 0 "the same in an experiment" "note: a world 1000000 px wide" -- "$boids" experiment \
  --model gregoire-chate --world 1000000x1000000 --runs 1 --steps 2 --backend cpu --out big
expect 2 "a swept cell_size below half the radius, before the directory" \
  "cell_size = 0.1: cell_size: 0.1 px is below half" -- \
  "$boids" experiment --model gregoire-chate --sweep cell_size=0.1,2 --runs 1 --steps 2 --out cs
[ ! -e cs ] && ok "no directory made for it" || bad "the refused sweep made cs/"

# --- output files never destroy what they replace ---------------------------------------------
mkfifo fifo
mkdir adir
echo keep >real.csv
ln -s real.csv link.csv
ln -s adir dirlink
for flag in --dump --metrics --screenshot --events --dump-predators; do
  args=("${run[@]}")
  case $flag in --events | --dump-predators) args=("${kit[@]}") ;; esac
  expect 2 "$flag /dev/null is refused (a device)" "$flag: /dev/null: is a device" -- \
    "$boids" "${args[@]}" $flag /dev/null
  expect 2 "$flag FIFO is refused" "$flag: fifo: is a FIFO" -- "$boids" "${args[@]}" $flag fifo
  expect 2 "$flag directory is refused" "$flag: adir: is a directory" -- \
    "$boids" "${args[@]}" $flag adir
  expect 2 "$flag a symlink to a directory is refused" "is a directory" -- \
    "$boids" "${args[@]}" $flag dirlink
  expect 2 "$flag '' is refused" "$flag: an empty name" -- "$boids" "${args[@]}" $flag ""
  expect 2 "$flag /proc/self/x is refused" "$flag: /proc/self/x: is in /proc" -- \
    "$boids" "${args[@]}" $flag /proc/self/x
  # a name as long as the file system allows (255) is written: the temporary name is short
  long=$(printf "${flag#--}%.0s" $(seq 1 30) | head -c 255)
  expect 0 "$flag a name of 255 characters is written" "" -- "$boids" "${args[@]}" $flag "$long"
  [ -f "$long" ] && ok "$flag: the 255-character file is there" ||
    bad "$flag: no file of the long name"
  rm -f "$long"
  expect 2 "$flag a name longer than the file system allows is refused" "$flag:" -- \
    "$boids" "${args[@]}" $flag "$(printf 'n%.0s' $(seq 1 256))"
done
[ -c /dev/null ] && [ -p fifo ] &&
  ok "/dev/null and the FIFO are still what they were" ||
  bad "a special file was replaced"
"$boids" "${run[@]}" --dump link.csv >/dev/null 2>&1
[ -L link.csv ] && head -1 real.csv | grep -q '^id,x,y' &&
  ok "a symlink to a file is written through (the link stays)" ||
  bad "symlink: $(ls -la link.csv real.csv)"
ls -A | grep -q boids-tmp &&
  bad "temporary files left: $(ls -A | grep boids-tmp)" ||
  ok "no temporary file left by the refusals"
expect 2 "--frames on a file" "--frames" -- "$boids" "${run[@]}" --frames real.csv
"$boids" "${run[@]}" --frames shots/deeper --size 64x64 >/dev/null 2>&1 &&
  [ -f shots/deeper/frame_000001.png ] &&
  ok "--frames makes a missing directory (and its parents)" || bad "--frames shots/deeper"

# --- signals: no .tmp, no half-written output, the exit status says so ------------------------
for sig in INT TERM; do
  mkdir "sig$sig"
  "$boids" -n 20000 --steps 100000 --backend cpu --headless --dump "sig$sig/d.csv" \
    --metrics "sig$sig/m.csv" --frames "sig$sig/f" --size 160x90 >"sig$sig/out" 2>"sig$sig/err" &
  pid=$!
  for i in $(seq 1 300); do [ -f "sig$sig/f/frame_000003.png" ] && break; sleep 0.05; done
  kill -$sig $pid
  wait $pid
  rc=$?
  want=$((128 + $(kill -l $sig)))
  leftovers=$(find "sig$sig" -name '*boids-tmp*' | wc -l)
  if [ $rc = $want ] && [ ! -e "sig$sig/d.csv" ] && [ ! -e "sig$sig/m.csv" ] &&
    [ "$leftovers" = 0 ] &&
    grep -q "interrupted after" "sig$sig/err" &&
    grep -q "make a video: ffmpeg .*sig$sig/f/frame_%06d.png" "sig$sig/out"; then
    frames=$(ls "sig$sig/f" | wc -l)
    ok "SIG$sig: exit $rc, no state or metrics written, no temporary file, $frames whole frames, \
and the ffmpeg line for them"
  else
    files=$(ls "sig$sig")
    bad "SIG$sig: exit $rc (want $want), leftovers $leftovers, $files, $(cat "sig$sig/err")"
  fi
done

# --- scenario files mean exactly what they say ------------------------------------------------
long=$(printf 'a%.0s' $(seq 1 200))
printf 'model = adams\n%s = 3\n' "$long" >longkey.ini
expect 2 "a 200-character key is one unknown key" \
  "longkey.ini:2: aaaaaaaaaa.*: no such key for model adams" -- "$boids" longkey.ini "${run[@]}"
printf 'model = adams\nvisual_range = 40 ; %s = 3\n' "$long" >longline.ini
expect 0 "a long comment after a value is a comment" "" -- "$boids" longline.ini "${run[@]}"
printf 'model = adams\nvisual_range = 40\n   protected_range = 9\n' >indent.ini
"$boids" indent.ini "${run[@]}" --dump indent.csv >/dev/null 2>&1
expect 2 "an indented line is its own key (set twice is an error)" \
  "indent2.ini:3: visual_range: already set on line 2" -- \
  sh -c "printf 'model = adams\nvisual_range = 40\n   visual_range = 9\n' >indent2.ini;
         '$boids' indent2.ini ${run[*]}"
expect 2 "key: value" "colon.ini:1: not a 'key = value' line" -- \
  sh -c "printf 'model: adams\n' >colon.ini; '$boids' colon.ini ${run[*]}"
expect 2 "a repeated key" "dup.ini:2: boids: already set on line 1" -- \
  sh -c "printf 'boids = 10\nboids = 20\n' >dup.ini; '$boids' dup.ini ${run[*]}"
expect 2 "an empty [section]" "sect.ini:2: sections are not used here" -- \
  sh -c "printf 'boids = 10\n[]\n' >sect.ini; '$boids' sect.ini ${run[*]}"
expect 2 "a directory" "adir: is a directory" -- "$boids" adir "${run[@]}"
# a path past PATH_MAX was cut to its first 4095 bytes, which may name another file
expect 2 "a scenario path of 5000 bytes" "a path of 5000 bytes: longer than the 4095" -- \
  "$boids" "$(head -c 4996 /dev/zero | tr '\0' a).ini" "${run[@]}"
expect 2 "/dev/zero (no hang)" "/dev/zero: larger than" -- timeout 20 "$boids" /dev/zero "${run[@]}"
printf 'model = adams\nboids = 33\nvisual_range = 30\n' |
  "$boids" /dev/stdin --steps 1 --backend cpu --headless --dump pipe.csv >pipe.out 2>&1
[ "$(($(wc -l <pipe.csv) - 1))" = 33 ] && grep -q "model adams" pipe.out &&
  ok "a pipe (/dev/stdin) keeps every key" ||
  bad "pipe: $(head -2 pipe.out)"
printf 'steps = 1\n\nboids = 4294967295\n' >big.ini
expect 2 "a scenario value's error names file, line and key" \
  "^boids: big.ini:3: boids: 4294967295 exceeds" -- "$boids" big.ini --backend cpu --headless
printf '; a comment\nmodel = nope\n' >model.ini
expect 2 "an unknown model on line 2 says line 2" "model.ini:2: model: unknown model 'nope'" -- \
  "$boids" model.ini --headless
expect 2 "a mistyped model gets a guess" "--model: unknown model 'vicsk': did you mean vicsek?" \
  -- "$boids" --model vicsk --headless
expect 2 "a mistyped layout gets a guess" "unknown layout 'center': did you mean centre?" \
  -- "$boids" --layout center "${run[@]}"
expect 2 "a mistyped --help topic gets a guess" "vicsk: no such topic: did you mean vicsek?" \
  -- "$boids" --help vicsk
expect 2 "--world 800X600 says the x is lower-case" "'800X600' is not WxH.*(a lower-case x" \
  -- "$boids" --world 800X600 "${run[@]}"
expect 2 "a stray '--' gets no guess (it was --dt)" "^boids: unknown option '--' (see --help)$" \
  -- "$boids" -- "${run[@]}"
printf 'boids = 10\x00\n' >nul.ini
expect 2 "a NUL byte in a scenario" "nul.ini:1: a NUL byte" -- \
  "$boids" nul.ini --headless --backend cpu

# --- state files ------------------------------------------------------------------------------
printf 'id,x,y,vx,vy,swarm\n0,1,2\x003,4,0\n' >nul.csv
expect 2 "a NUL byte in a state" "nul.csv:2: a NUL byte" -- \
  "$boids" --init nul.csv --world 100x100 --backend cpu --headless
printf '\xef\xbb\xbfid,x,y,vx,vy,swarm\r\n0,1,2,3,4,0\r\n' >bom.csv
expect 0 "a BOM and CRLF are accepted" "" -- \
  "$boids" --init bom.csv --world 100x100 --steps 1 --backend cpu --headless
printf 'id,x,y,vx,vy,swarm\r0,1,2,3,4,0\r' >cr.csv
expect 2 "CR-only line ends" "cr.csv:1: a carriage return inside a line" -- \
  "$boids" --init cr.csv --world 100x100 --backend cpu --headless
(printf 'id,x,y,vx,vy,swarm\n0,'; head -c 3000000 /dev/zero | tr '\0' '7') >endless.csv
expect 2 "an endless line" "endless.csv:2: a line longer than" -- \
  "$boids" --init endless.csv --backend cpu --headless
printf 'id,x,y,vx,vy,swarm\n0,1,2,3\x1b[31m,4,0\n' >esc.csv
"$boids" --init esc.csv --world 100x100 --backend cpu --headless 2>err
[ $? = 2 ] && ! grep -q $'\x1b' err && grep -q "esc.csv:2" err &&
  ok "control bytes are not echoed to the terminal" ||
  bad "control bytes: $(cat -v err)"
# what --dump writes, --init reads: a boid far out of a bounded world is held at +-2e7 px
printf 'id,x,y,vx,vy,swarm\n0,19999990,50,1000000,0,0\n1,50,50,0,0,0\n' >far.csv
far=(--world 100x100 --set edges=bounded --set max_speed=1000000 --set min_speed=0
     --backend cpu --headless)
"$boids" --init far.csv "${far[@]}" --steps 100 --dump far2.csv >/dev/null 2>&1 &&
  "$boids" --init far2.csv "${far[@]}" --steps 1 --dump far3.csv >/dev/null 2>&1 &&
  grep -q '^0,20000000,' far3.csv &&
  ok "a boid drifting out of a bounded world is held at 2e7 px, and the dump reads back" ||
  bad "far: $(cat far2.csv)"

# --- messages and numbers --------------------------------------------------------------------
expect 2 "a range error prints the value exactly" \
  "--set align_weight: 1000.0001 is outside \[-1000, 1000\]" -- \
  "$boids" --set align_weight=1000.0001 "${run[@]}"
expect 2 "--set KEY VALUE says what --set wants" \
  "--set takes KEY=VALUE as one argument: --set align_weight=2" -- \
  "$boids" --set align_weight 2
expect 2 "--size 1e30x1" "--size: '1e30x1'" -- "$boids" --size 1e30x1 "${run[@]}" --screenshot s.png
expect 2 "--size 0x10" "--size" -- "$boids" --size 0x10 "${run[@]}"
expect 2 "--world 1e30x1" "--world" -- "$boids" --world 1e30x1 "${run[@]}"
expect 2 "--steps -1" "--steps" -- "$boids" --steps -1 --backend cpu
expect 2 "--seed 1e3" "--seed" -- "$boids" --seed 1e3 --backend cpu
expect 2 "--obstacle nan" "--obstacle" -- "$boids" --obstacle nan,1,1 "${run[@]}"

# --- what the second adversary found (issue 21's reproducers) -----------------------------------
# stop_within SECONDS SIGNAL NAME -- command...: the command gets SIGNAL once it has run a second,
# and must exit 128+N within SECONDS of it (a step at most longer), leaving no temporary file.
stop_within() {
  local limit=$1 sig=$2 name=$3
  shift 4
  mkdir -p "stop_$sig"
  (cd "stop_$sig" && exec "$@" >out 2>err) &
  local pid=$!
  sleep 1
  local t0
  t0=$(date +%s%N)
  kill -"$sig" $pid
  wait $pid
  local rc=$? took=$((($(date +%s%N) - t0) / 1000000))
  if [ $rc = $((128 + $(kill -l "$sig"))) ] && [ $took -le $((limit * 1000)) ] &&
    ! ls -A "stop_$sig" | grep -q boids-tmp; then ok "$name: SIG$sig, exit $rc after $took ms"
  else
    local err
    err=$(tail -c 300 "stop_$sig/err")
    bad "$name: SIG$sig: exit $rc after $took ms (limit ${limit} s): $err"
  fi
  rm -rf "stop_$sig"
}
stop_within 5 INT "a plain headless GPU run of 100 000" -- \
  "$boids" -n 100000 --headless --backend gpu --steps 100000
stop_within 5 TERM "a plain headless CPU run of 100 000" -- \
  "$boids" -n 100000 --headless --backend cpu --steps 100000
stop_within 8 INT "kit with 20 000 boids, a 950 px view" -- \
  "$boids" --model kit -n 20000 --world 5963x3354 --headless --backend cpu
# a CPU step of seconds (kit at 100 000: about 8 s on 2 cores) stops inside the step
stop_within 3 INT "kit with 100 000 boids on the CPU, inside its first step" -- \
  "$boids" --model kit -n 100000 --world 13333x7500 --headless --backend cpu --steps 5
stop_within 3 TERM "an experiment of kit at 100 000 on the CPU, inside a step" -- \
  "$boids" experiment kit -n 100000 --runs 2 --steps 5 --backend cpu --out e
stop_within 5 INT "--warmup 4294967295 (no wrap, and interruptible)" -- \
  "$boids" -n 100 --headless --backend cpu --warmup 4294967295 --steps 1 --frames f --size 32x32
stop_within 5 TERM "a run with --dump at the signal" -- \
  "$boids" -n 20000 --headless --backend cpu --steps 1000000 --dump d.csv
# timeout(1) signals the process and then its process group: still one graceful stop
timeout --preserve-status -s INT 2 "$boids" -n 20000 --headless --backend cpu \
  --steps 1000000 >out 2>err
rc=$?
[ $rc = 130 ] && grep -q "interrupted after" err &&
  ok "timeout -s INT: a graceful stop (exit 130)" ||
  bad "timeout: $rc $(cat err)"
expect 2 "--init /dev/zero fails at once" "/dev/zero:1: a NUL byte" -- \
  timeout 10 "$boids" --init /dev/zero "${run[@]}"
expect 2 "an unknown option is named, with the nearest" \
  "unknown option '--step' (did you mean --steps?" -- \
  "$boids" --step 100 "${run[@]}"
expect 2 "--fps 1e-9" "--fps: '1e-9' is not a number in \[0.1, 1000\]" -- \
  "$boids" --fps 1e-9 "${run[@]}"
printf 'id,x,y,vx,vy,swarm,age,age\n0,1,1,1,1,0,0.5,0.6\n' >twice.csv
expect 2 "a state column twice" "twice.csv:1: column 'age' twice" -- \
  "$boids" --init twice.csv --model kit "${run[@]:2}"
printf 'model = adams\rboids = 10\rvisual_range = 30\r' >cronly.ini
"$boids" cronly.ini --steps 1 --backend cpu --headless >out 2>err &&
  grep -q "model adams" out && grep -q "^  10 boids" out &&
  ok "a scenario with CR-only line ends" || bad "CR-only scenario: $(cat err out)"
printf 'model = adams\nboids = 1\x1b[31m0\x07\n' >esc.ini
"$boids" esc.ini "${run[@]}" 2>err
[ $? = 2 ] && ! grep -q $'\x1b' err && ! grep -q $'\x07' err &&
  grep -q "esc.ini:2: a control byte (0x1b)" err &&
  ok "a scenario's control bytes are refused, never echoed" ||
  bad "scenario control bytes: $(cat -v err)"
printf 'model = kit\nc_maxspeed = 50\n' >ages.ini
"$boids" ages.ini --set min_speed=140 "${run[@]:2}" 2>err
[ $? = 2 ] && grep -q "^boids: --set min_speed, ages.ini:2: c_maxspeed" err &&
  ok "a relation names what the user set first (--set min_speed), then the file's keys" ||
  bad "blame: $(cat err)"
"$boids" --model kit --steps 0 --backend cpu --headless >out 2>err
grep -q "^  35 boids in 1 swarm, world 4000x4000 px" out &&
  ok "--model kit is the paper's world" ||
  bad "--model kit: $(cat out err)"
# (the note comes before the wait; the run is stopped once it has said so, but its summary still
# measures the flock, which in so dense a world takes a while: 30 000 boids keep that to seconds)
"$boids" --model kit -n 30000 --world 7303x4108 --steps 0 --backend cpu --headless >out 2>err &
pid=$!
for _ in $(seq 1 200); do grep -q "note: each agent" err && break; sleep 0.05; done
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
grep -q "note: each agent looks at about" err &&
  ok "a world whose radii reach most of it says so before the wait" ||
  bad "no cost note: $(cat err)"
# the note names the scenario of kit at a flock's scale (its manifest row's), which runs
hint=$(sed -n 's/.*(\(scenarios\/[a-z-]*\.ini\) is this model at a flock.s scale)$/\1/p' err)
[ "$hint" = scenarios/kit-flock.ini ] &&
  "$boids" "$(basename "$hint")" -n 300 --steps 1 --backend cpu --headless >/dev/null 2>&1 &&
  ok "the cost note names $hint, and it runs" || bad "the note's scenario: '$hint' $(cat err)"
(cd / && "$boids" kit.ini --steps 1 --backend cpu --headless) >out 2>err &&
  grep -q "model kit" out &&
  ok "a bare preset name finds the scenarios from another directory" ||
  bad "bare preset: $(cat err)"
# where it looked, as real paths (never a placeholder such as PREFIX)
expect 2 "a missing preset names the directories it looked in" \
  "no_such_preset: no such file here, nor a preset of that name in /.*/scenarios" -- \
  "$boids" no_such_preset --steps 1 --backend cpu --headless
"$boids" "${run[@]}" --frames hint/ --size 32x32 >out 2>err
grep -q "'hint/frame_%06d.png'" out && ! grep -q "hint//" out &&
  ok "the ffmpeg hint has no double slash" ||
  bad "hint: $(cat out err)"
mkdir frames_old && touch frames_old/frame_000001.png
expect 2 "--frames into a sequence whose first frame is gone" "already holds frames" -- \
  "$boids" "${run[@]}" --frames frames_old
mkdir fifo_frames && mkfifo fifo_frames/frame_000000.png
expect 2 "--frames into a directory holding a FIFO frame, before the run" \
  "already holds frames" -- \
  "$boids" "${run[@]}" --frames fifo_frames
# a mistyped parameter gets a "did you mean", as a mistyped flag does
"$boids" --headless -n 10 --steps 1 --set align_wieght=2 >out 2>err
rc=$?
[ $rc = 2 ] && grep -q "did you mean align_weight?" err &&
  ok "--set align_wieght: exit 2, did you mean align_weight?" ||
  bad "--set align_wieght: exit $rc: $(cat err)"
# control bytes in a flag's value or a file name are echoed escaped, never raw
"$boids" --headless -n 10 --steps 1 --set $'max\x1b[31m_speed=1' >out 2>err
rc=$?
[ $rc = 2 ] && ! grep -q $'\x1b' err && grep -qF 'max\x1b[31m_speed' err &&
  ok "an ESC in --set's key is written as \\x1b" || bad "ESC in --set: exit $rc: $(cat -v err)"
"$boids" --headless -n 10 --steps 1 --set $'max_speed=1\x07' >out 2>err
rc=$?
[ $rc = 2 ] && ! grep -q $'\x07' err && grep -qF '\x07' err &&
  ok "a BEL in --set's value is written as \\x07" || bad "BEL in --set: exit $rc: $(cat -v err)"
"$boids" --headless -n 10 --steps 1 --init $'no\x1bsuch.csv' >out 2>err
rc=$?
[ $rc != 0 ] && ! grep -q $'\x1b' err && grep -qF 'no\x1bsuch.csv' err &&
  ok "an ESC in a file name is written as \\x1b" || bad "ESC in a name: exit $rc: $(cat -v err)"
# a full disk (a 64 KiB tmpfs in a mount namespace): the experiment says so, not a stale errno
if unshare --mount true 2>/dev/null; then
  mkdir full
  unshare --mount sh -c 'mount -t tmpfs -o size=64k tmpfs full && "$@"' sh \
    "$boids" experiment kit --runs 400 --metrics-every 1 --steps 100 --backend cpu \
    --out full/e >out 2>err
  rc=$?
  [ $rc != 0 ] && grep -q "No space left on device\|is the disk full" err &&
    ! grep -q "Inappropriate ioctl" err &&
    ok "a full disk during an experiment: exit $rc, said as such" ||
    bad "a full disk: exit $rc: $(tail -3 err)"
fi
# --- 3D worlds: their sizes, cameras and states, refused by name --------------------------------
expect 2 "--world with a fourth size is refused" "--world: '1x2x3x4'" -- \
  "$boids" "${run[@]}" --world 1x2x3x4
expect 2 "--world with a zero depth is refused" "--world: '100x100x0'" -- \
  "$boids" "${run[@]}" --world 100x100x0
expect 2 "--dims 4 is refused" "--dims" -- "$boids" "${run[@]}" --dims 4
expect 2 "--camera with five numbers is refused" "--camera" -- \
  "$boids" "${run[@]}" --dims 3 --camera 1,2,3,4,5
expect 2 "--camera with the eye on its target is refused" "--camera" -- \
  "$boids" "${run[@]}" --dims 3 --camera 1,2,3,1,2,3
expect 2 "--camera with a field of view of 180 is refused" "--camera" -- \
  "$boids" "${run[@]}" --dims 3 --camera 0,0,0,1,1,1,180
"$boids" --model kit -n 35 --world 2000x2000x2000 --steps 2 --backend cpu --headless \
  --dump-predators deep-predators.csv >/dev/null 2>&1
head -1 deep-predators.csv | grep -q '^id,x,y,z,vx,vy,vz$' &&
  ok "a 3D world's predators have the columns z and vz" ||
  bad "3D predators: $(head -1 deep-predators.csv 2>&1)"
expect 2 "3D predators into a flat world are refused" "holds 3D predators" -- \
  "$boids" "${kit[@]}" --predators deep-predators.csv
printf 'id,x,y,vx,vy,vz\n0,1,2,3,4,5\n' >vz-late.csv
expect 2 "a predators' vz after the fixed columns is refused, naming it" \
  "column 'vz' (column 6)" -- \
  "$boids" "${kit[@]}" --dims 3 --predators vz-late.csv
"$boids" "${run[@]}" --dims 3 --dump deep.csv >/dev/null 2>&1
head -1 deep.csv | grep -q '^id,x,y,z,vx,vy,vz,swarm' &&
  ok "a 3D world's dump has the columns z and vz" || bad "3D dump: $(head -1 deep.csv)"
expect 2 "a 3D state into a flat world is refused" "is a 3D state" -- \
  "$boids" "${run[@]}" --init deep.csv
sed '3s/^\([0-9]*\),\([^,]*\),\([^,]*\),[^,]*,/\1,\2,\3,nan,/' deep.csv >nan.csv
expect 2 "a 3D state with a NaN z is refused, naming its line" "nan.csv:3" -- \
  "$boids" "${run[@]}" --dims 3 --init nan.csv
expect 0 "a 3D state read back steps on" "" -- "$boids" "${run[@]}" --dims 3 --init deep.csv
printf 'id,x,y,vx,vy,swarm,z\n0,1,2,3,4,0,5\n' >z-late.csv
expect 2 "a state's z after the fixed columns is refused, naming it" "column 'z' (column 7)" -- \
  "$boids" "${run[@]}" --dims 3 --init z-late.csv
# a 3D world's obstacles are spheres, X,Y,Z,R: a circle's X,Y,R or a centre past the depth is
# refused, naming the flag or the file's line
expect 2 "a circle in a 3D world is refused" "--obstacle 50,50,10: obstacle 0 has no centre z" -- \
  "$boids" "${run[@]}" --world 100x100x100 --obstacle 50,50,10
expect 2 "a sphere past the depth is refused" "centre z 120 is outside the 3D world's \[0, 100)" \
  -- "$boids" "${run[@]}" --world 100x100x100 --obstacle 50,50,120,10
printf 'world = 100x100x100\nobstacle = 50,50,50,10\nobstacle = 20,20,10\n' >spheres.ini
expect 2 "a scenario's circle in 3D names its line" "spheres.ini:3" -- \
  "$boids" spheres.ini -n 50 --steps 2 --backend cpu --headless
expect 2 "five numbers are no obstacle" "--obstacle" -- \
  "$boids" "${run[@]}" --obstacle 1,2,3,4,5
expect 0 "a sphere steps on" "" -- "$boids" "${run[@]}" --world 100x100x100 --obstacle 50,50,50,10
# ... and a flat world's are circles: a sphere there kept its z without a word, and --dims 2
# dropped a 3D world's depth without one
expect 2 "a sphere in a flat world is refused" "--obstacle 50,50,500,5: obstacle 0 is a sphere" \
  -- "$boids" "${run[@]}" --obstacle 50,50,500,5
printf 'obstacle = 50,50,50,10\n' >sphere-flat.ini
expect 2 "a scenario's sphere in a flat world names its line" "sphere-flat.ini:1: obstacle" -- \
  "$boids" sphere-flat.ini -n 50 --steps 2 --backend cpu --headless
expect 0 "the scenario's sphere with --dims 3" "" -- \
  "$boids" sphere-flat.ini -n 50 --steps 2 --backend cpu --headless --dims 3 --world 100x100
expect 2 "--dims 2 with a 3D --world is refused, naming both" "--dims, --world: .*300 px deep" \
  -- "$boids" "${run[@]}" --world 300x300x300 --dims 2
expect 0 "--dims 2 flattens a model's own 3D world" "" -- \
  "$boids" --model couzin -n 50 --steps 2 --backend cpu --headless --dims 2
# options that did nothing without a word: a camera over a flat world, a video not an MP4, and
# --model over a scenario of another model (which replaced every setting of the file)
expect 2 "--orbit over a flat world is refused" "--orbit: the world is flat" -- \
  "$boids" "${run[@]}" --orbit 10
expect 2 "--camera over a flat world is refused" "--camera: the world is flat" -- \
  "$boids" "${run[@]}" --camera 1,2,3,4,5,6
expect 2 "--video x.avi is refused" "--video x.avi: the video is an MP4" -- \
  "$boids" "${run[@]}" --video x.avi
expect 2 "--model over another model's scenario is refused" "scenario of model kit" -- \
  "$boids" "$(dirname "$0")/../scenarios/kit.ini" --model vicsek "${run[@]}"
# a model's own world, for another number of boids, keeps its density and its dimension (it
# became the default world: one boid per 1000 px^2, flat)
"$boids" --model vicsek -n 100 --steps 0 --backend cpu --headless >out 2>&1
grep -q "100 boids in 1 swarm, world 4.9964x4.9964 px" out &&
  ok "--model vicsek -n 100: the paper's density, 4 a unit area" || bad "vicsek -n 100: $(cat out)"
"$boids" --model couzin -n 1000 --steps 0 --backend cpu --headless >out 2>&1
grep -q "1000 boids in 1 swarm, 3D world 215.443x215.443x215.443 px" out &&
  ok "--model couzin -n 1000: its cube, at its density" || bad "couzin -n 1000: $(cat out)"

# progress: on a terminal only (script(1) gives the run a terminal). It shows after a second: the
# runs last several (the sanitizers' build takes a tenth of the steps in as long: 300 took it a
# minute and a half each)
long_steps=300
[ "${BOIDS_TEST_SANITIZED:-0}" = 1 ] && long_steps=30
if command -v script >/dev/null; then
  script -qec "'$boids' -n 200000 --steps $long_steps --backend cpu --headless" /dev/null \
    >tty.out 2>&1
  grep -q "steps/s" tty.out && grep -q "left" tty.out &&
    ok "a long run shows its progress on a terminal" ||
    bad "no progress on a terminal: $(tail -c 300 tty.out | cat -v)"
fi
"$boids" -n 200000 --steps $long_steps --backend cpu --headless >out 2>err
! grep -q $'\r' err && ok "and none when not on one" ||
  bad "progress in a log: $(cat -v err | head -c 200)"

finish
