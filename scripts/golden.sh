#!/usr/bin/env bash
# Writes golden hashes into tests/golden.txt (tests/test_golden.sh checks them): the SHA-256 of
# `boids PRESET.ini --headless --steps 300 --seed 1 [OPTIONS] --backend cpu --dump FILE`.
#
#   scripts/golden.sh path/to/boids           adds a line for each preset of scenarios/ that has
#                                             none (a new model's, a new scenario's)
#   scripts/golden.sh path/to/boids LABEL...  writes those labels' hashes anew: a change of
#                                             results made on purpose (say why in the commit)
#
# The file is replaced whole once every run has finished (a failed run changes nothing).
set -euo pipefail
boids=$(realpath "$1")
shift
root=$(cd "$(dirname "$0")/.." && pwd)
file=$root/tests/golden.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# hash PRESET [OPTIONS...]: the CPU's hash of the golden run.
hash() {
  local preset=$1
  shift
  "$boids" "$root/scenarios/$preset.ini" --headless --steps 300 --seed 1 "$@" --backend cpu \
    --dump "$tmp/run.csv" >"$tmp/run.out" 2>&1 ||
    { echo "golden.sh: $preset $*: the run failed: $(head -c 300 "$tmp/run.out")" >&2; exit 1; }
  sha256sum "$tmp/run.csv" | cut -d' ' -f1
}

cp "$file" "$tmp/golden.txt"
changed=0
if [ $# = 0 ]; then
  for f in "$root"/scenarios/*.ini; do
    name=$(basename "$f" .ini)
    grep -q "^$name " "$file" && continue
    printf '%-19s %s %s\n' "$name" "$(hash "$name")" "$name" >>"$tmp/golden.txt"
    echo "added $name"
    changed=$((changed + 1))
  done
else
  for label in "$@"; do
    line=$(grep "^$label " "$file") || { echo "golden.sh: no label $label in $file" >&2; exit 2; }
    read -r _ old preset opts <<<"$line"
    # shellcheck disable=SC2086 # $opts is a list of options
    new=$(hash "$preset" $opts)
    [ "$new" = "$old" ] && { echo "$label: unchanged"; continue; }
    sed -i "s/^\($label  *\)$old /\1$new /" "$tmp/golden.txt"
    echo "$label: $old -> $new"
    changed=$((changed + 1))
  done
fi
[ $changed = 0 ] || mv "$tmp/golden.txt" "$file"
echo "$changed line(s) written to tests/golden.txt"
