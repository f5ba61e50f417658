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
check() { # FILE [DEFINES...]: one source, as the program compiles it with those definitions
  local f=$1 out; shift
  if out=$("$validator" "$@" "$f" 2>&1); then pass=$((pass + 1)); echo "ok   $(basename "$f") $*"
  else fail=$((fail + 1)); echo "FAIL $(basename "$f") $*: $out"; fi
}
for f in "$dir"/*; do
  check "$f"
  # a steering program's variant for a world of nearest:K (src/gpu/gpu_backend.c), flat and 3D
  case $(basename "$f") in steer_*.comp)
    check "$f" -l -DBOIDS_NEAREST=1
    check "$f" -l -DBOIDS_NEAREST=1 -DBOIDS_DIMS=3 ;;
  esac
done
# The models, from --help all's "model NAME (...)" headings (--help's never had them: this
# loop once checked no model).
for m in $("$boids" --help all | sed -n 's/^model \([a-z0-9-]*\) (.*/\1/p'); do
  if [ -f "$dir/steer_$m.comp" ]; then pass=$((pass + 1)); echo "ok   model $m has steer_$m.comp"
  else fail=$((fail + 1)); echo "FAIL model $m has no steering program"; fi
done
[ "$pass" -ge 10 ] || { fail=$((fail + 1)); echo "FAIL only $pass checks: is $dir empty?"; }
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
