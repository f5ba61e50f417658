#!/usr/bin/env bash
# Golden hashes: every preset in scenarios/ runs 300 steps from seed 1 on the CPU backend and on
# the GPU backend, and the SHA-256 of the dumped state must equal the value stored below. A change
# that alters any model's results, even one made identically on both backends, shows up here.
#
# The stored hashes are the CPU reference's; on a driver that rounds as IEEE does and never fuses
# multiply-adds (llvmpipe, zink over lavapipe: measured by tests/gpu_info) the GPU's dump is the
# same bytes. Elsewhere (real GPUs, the emulated GPU numerics, BOIDS_TEST_EXACT=0) the GPU cannot
# match bit for bit: its run's observables at the end (polarization, mean nearest neighbour, mean
# speed) are held to the spread of the CPU's ensemble of the same run, 10 runs from seeds 1 to 10
# (tests/ensemble.h states the bound). That check is shown to
# fail on a wrong rule (shiffman-per-second with cohesion's sign flipped, or its separation radius
# a fifth short, on the GPU) wherever the GPU runs.
#
# Changing a hash is allowed only on purpose, with the reason in the commit message. After such a
# change the test prints the new hash of every preset that differs.
# usage: test_golden.sh path/to/boids path/to/scenarios path/to/gpu_info
set -u
boids=$(realpath "$1")
dir=$(realpath "$2")
source "$(dirname "$0")/lib.sh"

# label  sha256 of `boids PRESET.ini --headless --steps 300 --seed 1 [OPTIONS] --dump FILE`
#        PRESET [OPTIONS]
# A line that ends in \ goes on on the next (the shell joins the two).
# Every preset as it is, and a few settings the presets leave alone (swarms at another count, the
# static bias of Adams' scouts, mean allocation's set-length reading, kit long enough for its
# catches: options after --steps 300 win), Vicsek's vectorial noise and both noises in 3D, Couzin's
# flat world and its other readings of the paper, and topological neighbours (nearest:K) in a
# Reynolds walk, Vicsek in 3D and Couzin. kit-flock and vicsek-flock run with a fifth of their
# 100 000 boids, to keep CI short (couzin-school too); kit-flock in the default world for 20 000,
# which it had before its file gave its world (a count over kit's own world now scales that world
# instead).
golden="
adams                 74179d61a750743401813ecfc8f237373281fc39156437f94e1e59647afdccf9 adams
adams-scouts          8e1f5fee875193eabd978fd65ea26c20a52547b050ab20d413ab3e5fd2d41650 adams-scouts
kit                   6d43d2f034c9c88e27b7e48f4d5f578a56fc064044cb0c18d62ccdc3d4e50a5f kit
kit-flock             d911d787bac76afd1e2a60f6fc4eab02b0a1f93930af7ee5ce21b7b4b08ad720 \
  kit-flock -n 20000 --world 5963x3354
hybrid-old            abcd64aa1b1cb7621cd491135adf27175a62a9ff389bc05822cf1685c6578498 hybrid-old
hybrid                ced1fcfbd6833e78aa04070fe28449cececb91a22633871ef795554a0872c27e hybrid
hybrid-swarms         4293a8cb03b2b3e3f022a9b65fa0cd7690ab92f22abe7a7047fc2a753800d314 \
  hybrid-swarms
mean                  48cb54eba7a3828753ce7e62150719d474de4560f3c2c09429f7f0d5a0412527 mean
priority              913b4bd7d60858156f8aa7f6cdf09648a411c1dafeeecfbaa0c4ccb4a54e7ad2 priority
shiffman-noc          b96165bdba4cb9ba18310b47f42bf0d8e3ccf4eda10b4ec7060d8833098d7953 shiffman-noc
shiffman-per-second   897f291061ebfe799f863a9a8c7c678a3dc60b990a0552a328b80034e6904a4c \
  shiffman-per-second
shiffman-swarms       56f0fd50cbb4e171179fb9a3b6a0ed104bc1fd49fac80236220b716bbaa077a1 \
  shiffman-swarms
shiffman-processing   2b4181001b3616d3d35a5a031062982c46a3ed4351061b3fbfce707410d5eb8b \
  shiffman-processing
sps-3-swarms          e8b9052a798d0fe470f7ba8cf70da17041316b9bc510f4c2f916892f30596a7a \
  shiffman-per-second -n 5000 --swarms 3
hybrid-3-swarms       3e8c1c8823a2d6933fb13f12887240cee4b0982e0b44f00ddd7375809da9c237 \
  hybrid -n 5000 --swarms 3
adams-static-bias     e8d9263e07a377f24bcced0939ed57dabdd5d1e6622c905bdb6af8b3eb81a1ce \
  adams-scouts -n 5000 --set dynamic_bias=0 --set include_protected=1
mean-set-length       654af80416fd194ff940621365811d3aadcf0fc36124022b9be977aa494ac3cb \
  mean -n 5000 --swarms 2 --set mean_set_length=1
kit-catches           09aac2178f7d58726f82bbb3177030663fd582877afed5f377251e7427038423 \
  kit --steps 2000
vicsek                bd9875cf1e34db74cf34beb24cff7c99ac082a39ef5d9e578c51f028629af4d1 vicsek
vicsek-flock          1fe6d25cbbe0209e93520fa6597c5d69161e2069627ee8617b6b95af19162b19 \
  vicsek-flock -n 20000
vicsek-vectorial      f0b0e6ed17d5dda6d62d25a9c38e4fff81059a2824dc7bbbe78ac099bf72ec47 \
  vicsek --set vectorial=1 --set eta=0.5
vicsek-3d             b9bfcfc0e3125a2a95481dc147cc8bb01897e2d820059b9de6005b618b8b8766 \
  vicsek --world 10x10x10 --set eta=1.5
vicsek-3d-vectorial   b1cebac74149f3ddf6283da88034c773e53578005524f33de1d5910e35c35816 \
  vicsek --world 10x10x10 --set vectorial=1 --set eta=0.5
couzin                8c1c74293d95dfaf69c63dad8cd4a499b03100ed2557e36b4da47c0ada267f19 couzin
couzin-school         655ef85c2529823078c3f883b1e776fe56484ddb971f546e43efc3d05e89164d \
  couzin-school -n 20000
couzin-flat           e4dd074c0bcbcc2f353c0ca96b4757907099975f78a3940f5b1a5a355766ad49 \
  couzin --world 40x40
couzin-readings       7bdc96cfc9ea69e7f197bf464d7c2be505e12c2d5a10ece9a5dbf5fbf055a619 \
  couzin --set own_heading=0 --set blind_repulsion=0 --set noise=0.5
sps-nearest           bb7d9c06a3b2166e608147d3173eb3e240876813e5b7638a5964e94204b13594 \
  shiffman-swarms -n 1000 --neighbours nearest:7
vicsek-3d-nearest     31a54f72561fe17895f9bb4061a12245d257a5bdef68222d139cfb4a9ce0b6b1 \
  vicsek -n 800 --world 6x6x6 --set eta=1 --neighbours nearest:6
couzin-nearest        096b05a5d321b2995dd7866cb75fb304b69977ebe940bd7513de46a7d68f058f \
  couzin --neighbours nearest:7
"

gpu_setup "$3"

members=10
# run NAME BACKEND PRESET_FILE [OPTIONS...]: the golden run (300 steps from seed 1; options after
# --steps 300 win), its dump in $tmp/NAME.BACKEND.csv, its observables at the start and the end in
# $tmp/NAME.BACKEND.met.csv, its output in $tmp/NAME.BACKEND.out.
run() {
  local name=$1 be=$2 f=$3
  shift 3
  "$boids" "$f" --headless --steps 300 --seed 1 "$@" --backend "$be" --dump "$tmp/$name.$be.csv" \
    --metrics "$tmp/$name.$be.met.csv" --metrics-every 1000000 >"$tmp/$name.$be.out" 2>&1
}
# The last row's polarization, mean nearest neighbour and mean speed of a --metrics file.
observables() { tail -1 "$1" | cut -d, -f4,5,6 | tr , ' '; }

# cpu_ensemble NAME PRESET_FILE [OPTIONS...]: the CPU's runs of the golden run from seeds 2 to 10
# (member 0, seed 1, is the run itself), their observables one line each in $tmp/NAME.ensemble
# (member 0's first).
cpu_ensemble() {
  local name=$1 f=$2 m
  shift 2
  observables "$tmp/$name.cpu.met.csv" >"$tmp/$name.ensemble"
  for ((m = 1; m < members; ++m)); do
    run "$name.m" cpu "$f" "$@" --seed $((1 + m)) || return 1
    observables "$tmp/$name.m.cpu.met.csv" >>"$tmp/$name.ensemble"
  done
}

# within_spread NAME GPU_RUN: whether the GPU run's observables (its --metrics file's last row) lie
# within the CPU ensemble's spread, each, with the slack of the metrics' own rounding.
within_spread() {
  local name=$1 met=$2 k all=0
  read -r -a g <<<"$(observables "$met")"
  local labels=(polarization mean_nn mean_speed) kinds=(polarization measure measure)
  for k in 0 1 2; do
    # shellcheck disable=SC2046 # the values are separate arguments
    "$ensemble" check "${labels[k]}" "${kinds[k]}" "${g[k]}" \
      $(cut -d' ' -f$((k + 1)) "$tmp/$name.ensemble") || all=1
  done
  return $all
}

# Every preset in scenarios/ must have a stored hash. For a new one the test prints the line to
# paste into the table above: the CPU's hash, which the GPU must then match.
for f in "$dir"/*.ini; do
  name=$(basename "$f" .ini)
  echo "$golden" | grep -q "^$name " && continue
  if "$boids" "$f" --headless --steps 300 --seed 1 --backend cpu --dump "$tmp/new.csv" \
       >"$tmp/new.out" 2>&1; then
    line=$(printf '%-21s %s %s' "$name" "$(sha256sum "$tmp/new.csv" | cut -d' ' -f1)" "$name")
    bad "$name: no golden hash stored for this preset; paste into tests/test_golden.sh:"
    echo "$line"
  else
    bad "$name: no golden hash stored, and it does not run: $(head -c 300 "$tmp/new.out")"
  fi
done

while read -r name want preset opts; do
  [ -z "$name" ] && continue
  f="$dir/$preset.ini"
  if [ ! -f "$f" ]; then bad "$name: preset file $preset.ini missing"; continue; fi
  for be in cpu gpu; do
    [ $be = gpu ] && [ $gpu = 0 ] && continue
    # shellcheck disable=SC2086 # $opts is a list of options
    if ! run "$name" $be "$f" $opts; then
      bad "$name on $be: run failed: $(head -c 300 "$tmp/$name.$be.out")"
      continue
    fi
    got=$(sha256sum "$tmp/$name.$be.csv" | cut -d' ' -f1)
    if [ $be = gpu ] && [ "$exact" = 0 ]; then
      # shellcheck disable=SC2086
      if ! cpu_ensemble "$name" "$f" $opts; then
        bad "$name: the CPU's ensemble did not run"
      elif within_spread "$name" "$tmp/$name.gpu.met.csv"; then
        ok "$name on gpu: observables within the CPU ensemble's spread (no bitwise hash here)"
      else
        bad "$name on gpu: observables beyond the CPU ensemble's spread"
      fi
    elif [ "$got" = "$want" ]; then
      ok "$name on $be: $got"
    else
      bad "$name on $be: hash $got, stored $want"
    fi
  done
done <<<"$golden"

# The ensemble check fails on a wrong rule: shiffman-per-second on the GPU with cohesion's sign
# flipped, or the separation radius a fifth short (25 -> 20 px), leaves the CPU's spread.
if [ $gpu = 1 ]; then
  sps=$dir/shiffman-per-second.ini
  [ -s "$tmp/shiffman-per-second.ensemble" ] && [ "$exact" = 0 ] ||
    cpu_ensemble shiffman-per-second "$sps" || bad "shiffman-per-second: no CPU ensemble"
  for wrong in "cohesion_weight=-1" "sep_radius=20"; do
    if ! run wrong gpu "$sps" --set "$wrong"; then
      bad "wrong rule $wrong: run failed: $(head -c 300 "$tmp/wrong.gpu.out")"
    elif within_spread shiffman-per-second "$tmp/wrong.gpu.met.csv"; then
      bad "a GPU with $wrong passes the ensemble check"
    else
      ok "a GPU with $wrong fails the ensemble check"
    fi
  done
fi

finish
