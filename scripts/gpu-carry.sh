#!/usr/bin/env bash
# Packs what scripts/gpu-check.sh needs of a build into build/carry, small enough to travel to a
# lent GPU machine with the checkout (the device tool sends 64 MiB in all, the working tree
# included): the programs, the libraries, the test programs and their CTest files, without the
# object files, the static archives, the example model's build or old test output. Prints the
# sizes, and the command to run there.
#
# usage: scripts/gpu-carry.sh [BUILD_DIR]   (default build/release; built first if stale)
# then, on the GPU machine, carry build/carry (and build/peers/flamegpu for the peer) and run
#   scripts/gpu-check.sh --build build/carry --out gpu-check-results
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
carry=build/carry
limit=$((64 * 1024 * 1024))
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "gpu-carry: no build in $build (cmake --preset release)" >&2
  exit 1
fi
if ! cmake --build "$build" -j "$(nproc)" >/dev/null; then
  echo "gpu-carry: the build failed" >&2
  exit 1
fi
rm -rf "$carry.tmp"
mkdir -p "$carry.tmp"
# (the current library only: an older libboids.so.0.N.M left in the folder is not linked)
current=$(readlink "$build/src/libboids.so.0")
(cd "$build" && tar cf - --exclude=CMakeFiles --exclude=./example --exclude='*.a' \
  --exclude=./Testing --exclude=bench_smoke --exclude='libboids.so.0.*' .) |
  (cd "$carry.tmp" && tar xf -)
cp -P "$build/src/$current" "$carry.tmp/src/"
rm -rf "$carry"
mv "$carry.tmp" "$carry"
# (a folder that is not there counts 0: the peer's bundle is built on request only)
bytes() { { du -sb "$@" 2>/dev/null || true; } | awk '{ s += $1 } END { print s + 0 }'; }
tree=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
peer=build/peers/flamegpu
total=$(($(bytes "$carry") + tree + $(bytes "$peer")))
awk -v c="$(bytes "$carry")" -v t="$tree" -v p="$(bytes "$peer")" -v n="$carry" -v q="$peer" \
  'BEGIN { m = 1048576; printf "gpu-carry: %s %.1f MiB, the checkout %.1f MiB, %s %.1f MiB:", n,
    c / m, t / m, q, p / m; printf " %.1f of 64 MiB\n", (c + t + p) / m }'
if [ "$total" -gt "$limit" ]; then
  echo "gpu-carry: over the 64 MiB a GPU machine is lent with" >&2
  exit 1
fi
echo "carry: $carry$([ -d "$peer" ] && echo " $peer"); run: scripts/gpu-check.sh --build $carry"
