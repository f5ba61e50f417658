#!/usr/bin/env bash
# Golden hashes: every preset in scenarios/ runs 300 steps from seed 1 on the CPU backend and on
# the GPU backend, and the SHA-256 of the dumped state must equal the one in tests/golden.txt. A
# change that alters any model's results, even one made identically on both backends, shows up
# here.
#
# The stored hashes are the CPU reference's; on a driver that rounds as IEEE does and never fuses
# multiply-adds (llvmpipe, zink over lavapipe: measured by tests/gpu_info) the GPU's dump is the
# same bytes. Elsewhere (real GPUs, the emulated GPU numerics, BOIDS_TEST_EXACT=0) the GPU cannot
# match bit for bit: its run's observables at the end (polarization, mean nearest neighbour, mean
# speed) are held to the spread of the CPU's ensemble of the same run, 10 runs from seeds 1 to 10
# (tests/ensemble.h states the bound), stored in tests/golden-ensemble.txt: the CPU is the same
# on every machine, and seed 1's observables, which every run here measures, must equal the
# stored ones, so a stale ensemble fails. That check is shown to
# fail on a wrong rule (shiffman-per-second with cohesion's sign flipped, or its separation radius
# a fifth short, on the GPU) wherever the GPU runs.
#
# Changing a hash is allowed only on purpose, with the reason in the commit message: then
# `scripts/golden.sh path/to/boids LABEL...` writes the new ones.
# usage: test_golden.sh path/to/boids path/to/scenarios path/to/gpu_info
set -u
boids=$(realpath "$1")
dir=$(realpath "$2")
source "$(dirname "$0")/lib.sh"

# The runs and their hashes: tests/golden.txt, one line each (label, hash, preset and options;
# options after --steps 300 win), written by scripts/golden.sh, never by hand. Every preset as it
# is, and a few settings the presets leave alone (swarms at another count, the static bias of
# Adams' scouts, mean allocation's set-length reading, kit long enough for its catches), Vicsek's
# vectorial noise and both noises in 3D, Couzin's flat world and its other readings of the paper,
# and topological neighbours (nearest:K) in a Reynolds walk, Vicsek in 3D and Couzin. kit-flock
# and vicsek-flock run with a fifth of their 100 000 boids, to keep CI short (couzin-school and
# gregoire-chate-flock too, the latter in a box a fifth the area: the same density).
golden=$(grep -v '^#' "$(dirname "$0")/golden.txt")
ensembles=$(grep -v '^#' "$(dirname "$0")/golden-ensemble.txt")

gpu_setup "$3"
# Under the emulated GPU numerics (BOIDS_GPU_NUMERICS=perturbed: CI's second stage) the CPU half
# is the suite's, bit for bit (the emulation touches only the GPU's shaders): only the GPU runs.
cpu_half=1
[ "${BOIDS_GPU_NUMERICS:-}" = perturbed ] && [ $gpu = 1 ] && cpu_half=0

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

# cpu_ensemble NAME: the CPU's observables of the golden run from seeds 1 to 10, one line each in
# $tmp/NAME.ensemble, from tests/golden-ensemble.txt
cpu_ensemble() {
  echo "$ensembles" | awk -v n="$1" '$1 == n { print $3, $4, $5 }' >"$tmp/$1.ensemble"
  [ "$(wc -l <"$tmp/$1.ensemble")" = $members ]
}
# stored_seed1 NAME: whether the CPU's golden run (seed 1) measured what the stored ensemble's
# seed 1 holds, to the digit
stored_seed1() {
  local got want
  got=$(observables "$tmp/$1.cpu.met.csv")
  want=$(echo "$ensembles" | awk -v n="$1" '$1 == n && $2 == 1 { print $3, $4, $5 }')
  [ "$got" = "$want" ] && return 0
  bad "$1: seed 1's observables on the CPU are '$got', tests/golden-ensemble.txt holds '$want'" \
    "(stale: scripts/golden.sh BOIDS $1 writes it anew)"
  return 1
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

# Every preset in scenarios/ must have a stored hash: scripts/golden.sh writes a new one's (the
# CPU's hash, which the GPU must then match).
for f in "$dir"/*.ini; do
  name=$(basename "$f" .ini)
  echo "$golden" | grep -q "^$name " && continue
  if "$boids" "$f" --headless --steps 300 --seed 1 --backend cpu --dump "$tmp/new.csv" \
       >"$tmp/new.out" 2>&1; then
    bad "$name: no golden hash stored for this preset; write it with scripts/golden.sh BOIDS $name"
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
    [ $be = cpu ] && [ $cpu_half = 0 ] && continue
    # shellcheck disable=SC2086 # $opts is a list of options
    if ! run "$name" $be "$f" $opts; then
      bad "$name on $be: run failed: $(head -c 300 "$tmp/$name.$be.out")"
      continue
    fi
    got=$(sha256sum "$tmp/$name.$be.csv" | cut -d' ' -f1)
    [ $be = cpu ] && stored_seed1 "$name" && ok "$name: its stored ensemble's seed 1 is the CPU's"
    if [ $be = gpu ] && [ "$exact" = 0 ]; then
      if ! cpu_ensemble "$name"; then
        bad "$name: no ensemble of $members seeds in tests/golden-ensemble.txt"
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
  cpu_ensemble shiffman-per-second || bad "shiffman-per-second: no stored CPU ensemble"
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
