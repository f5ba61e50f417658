#!/usr/bin/env bash
# Every embedded shader, as expanded into the build tree, passes glslangValidator; and the build
# embedded a steering program for every model the program knows (the manifest's list).
# usage: test_glslang.sh glslangValidator RESOLVED_DIR path/to/boids
set -u
validator=$1
dir=$2
boids=$3
pass=0
fail=0
for f in "$dir"/*; do
  if out=$("$validator" "$f" 2>&1); then pass=$((pass + 1)); echo "ok   $(basename "$f")"
  else fail=$((fail + 1)); echo "FAIL $(basename "$f"): $out"; fi
done
# The models, from --help's "model NAME (...)" lines.
for m in $("$boids" --help | sed -n 's/^model \([a-z0-9-]*\) (.*/\1/p'); do
  if [ -f "$dir/steer_$m.comp" ]; then pass=$((pass + 1)); echo "ok   model $m has steer_$m.comp"
  else fail=$((fail + 1)); echo "FAIL model $m has no steering program"; fi
done
[ "$pass" -ge 10 ] || { fail=$((fail + 1)); echo "FAIL only $pass checks: is $dir empty?"; }
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
