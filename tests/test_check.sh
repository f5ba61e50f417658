#!/usr/bin/env bash
# `boids check MODEL`: every model passes it on both backends, flat and 3D, metric and nearest:K
# (bit for bit where the driver rounds as IEEE does), and its oracle's step on each; it fails,
# naming the difference, where bit for bit is demanded of a driver that does not round so (the
# emulated GPU numerics), and passes there within the CPU's spread; bad usage exits 2; without
# OpenGL it checks the CPU and says so.
# usage: test_check.sh path/to/boids path/to/gpu_info
source "$(dirname "$0")/lib.sh"
boids=$(realpath "$1")
gpu_setup "$2"
small=(--boids 200 --steps 20)
for m in $("$boids" --help all | sed -n 's/^model \([a-z0-9-]*\) (.*/\1/p'); do
  "$boids" check "$m" "${small[@]}" >"$tmp/out" 2>&1
  rc=$?
  lines=$(grep -c '^  \(flat\|3D\) *\(metric\|nearest\)' "$tmp/out")
  bitwise=$(grep -c 'gpu == cpu bit for bit' "$tmp/out")
  oracle=$(grep -c '^  \(flat\|3D\) oracle *\(cpu\|gpu\) agrees with its oracle' "$tmp/out")
  if [ $rc = 0 ] && grep -q "^boids check: $m passes" "$tmp/out" && [ "$lines" -ge 2 ] &&
     [ "$oracle" = $((2 + 2 * gpu)) ] &&
     { [ "$gpu" = 0 ] || [ "$exact" != 1 ] || [ "$bitwise" = "$lines" ]; }; then
    ok "boids check $m passes ($lines configurations$([ "$exact" = 1 ] && echo ", bit for bit"),\
 $oracle against its oracle)"
  else
    bad "boids check $m: exit $rc: $(cat "$tmp/out")"
  fi
done
if [ "$gpu" = 1 ]; then
  BOIDS_GPU_NUMERICS=perturbed "$boids" check couzin "${small[@]}" --bitwise >"$tmp/out" 2>&1
  rc=$?
  [ $rc = 1 ] && grep -q "gpu != cpu: [0-9]* of 200 boids differ" "$tmp/out" &&
    grep -q "^boids check: couzin FAILS" "$tmp/out" &&
    ok "--bitwise under the emulated GPU numerics: exit 1, the boids that differ named" ||
    bad "--bitwise, perturbed: exit $rc: $(cat "$tmp/out")"
  BOIDS_GPU_NUMERICS=perturbed "$boids" check vicsek "${small[@]}" >"$tmp/out" 2>&1
  rc=$?
  [ $rc = 0 ] && [ "$(grep -c "gpu within the cpu's spread over 8 seeds" "$tmp/out")" = 4 ] &&
    ok "the emulated GPU numerics: within the CPU's spread, 4 configurations" ||
    bad "perturbed, within the spread: exit $rc: $(cat "$tmp/out")"
fi
# no hardware GPU: the device platform has none
if [ "$gpu" = 0 ] || [ "$("$2" software)" = 1 ]; then
  BOIDS_EGL_PLATFORM=device "$boids" check kit "${small[@]}" >"$tmp/out" 2>&1
  rc=$?
  [ $rc = 0 ] && grep -q "on the cpu alone (no OpenGL 4.3" "$tmp/out" &&
    grep -q "passes (4 configurations.*): the gpu was not checked" "$tmp/out" &&
    ok "no OpenGL: the CPU alone checked, and said" || bad "no OpenGL: exit $rc: $(cat "$tmp/out")"
fi
for bad_args in "" "vicsk" "kit --steps 0" "kit --boids x" "kit --frobnicate" "kit couzin"; do
  # shellcheck disable=SC2086 # the words of each case
  "$boids" check $bad_args >"$tmp/out" 2>&1
  rc=$?
  [ $rc = 2 ] && grep -q "^usage: boids check MODEL" "$tmp/out" &&
    ok "boids check $bad_args: exit 2 with the usage" || bad "check '$bad_args': exit $rc"
done
finish
