#!/usr/bin/env bash
# Writes golden hashes into tests/golden.txt (tests/test_golden.sh checks them): the SHA-256 of
# `boids PRESET.ini --headless --steps 300 --seed 1 [OPTIONS] --backend cpu --dump FILE`; and
# each run's CPU ensemble into tests/golden-ensemble.txt: the observables after those 300 steps
# (polarization, mean nearest neighbour, mean speed) from seeds 1 to 10, which a GPU that cannot
# match the hash bit for bit must lie among (stored, as the CPU is the same on every machine, so
# that CI does not run 300 CPU runs to rebuild them).
#
#   scripts/golden.sh path/to/boids           adds a line for each preset of scenarios/ that has
#                                             none (a new model's, a new scenario's)
#   scripts/golden.sh path/to/boids LABEL...  writes those labels' hashes and ensembles anew: a
#                                             change of results made on purpose (say why in the
#                                             commit)
#
# The files are replaced whole once every run has finished (a failed run changes nothing).
set -euo pipefail
boids=$(realpath "$1")
shift
root=$(cd "$(dirname "$0")/.." && pwd)
file=$root/tests/golden.txt
efile=$root/tests/golden-ensemble.txt
members=10
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

# ensemble LABEL PRESET [OPTIONS...]: the label's lines of tests/golden-ensemble.txt, "LABEL SEED
# POLARIZATION MEAN_NN MEAN_SPEED" for seeds 1 to 10 (the --metrics file's last row; the seed
# after the options wins, as in tests/test_golden.sh).
ensemble() {
  local label=$1 preset=$2 seed
  shift 2
  for ((seed = 1; seed <= members; ++seed)); do
    "$boids" "$root/scenarios/$preset.ini" --headless --steps 300 "$@" --seed $seed --backend cpu \
      --metrics "$tmp/run.met.csv" --metrics-every 1000000 >"$tmp/run.out" 2>&1 ||
      { echo "golden.sh: $preset $* --seed $seed: failed: $(head -c 300 "$tmp/run.out")" >&2
        exit 1; }
    echo "$label $seed $(tail -1 "$tmp/run.met.csv" | cut -d, -f4,5,6 | tr , ' ')"
  done
}
# set_ensemble LABEL PRESET [OPTIONS...]: replaces the label's lines in the scratch copy
set_ensemble() {
  ensemble "$@" >"$tmp/lines"
  grep -v "^$1 " "$tmp/golden-ensemble.txt" >"$tmp/rest" || true
  cat "$tmp/rest" "$tmp/lines" >"$tmp/golden-ensemble.txt"
}

cp "$file" "$tmp/golden.txt"
cp "$efile" "$tmp/golden-ensemble.txt"
changed=0
if [ $# = 0 ]; then
  for f in "$root"/scenarios/*.ini; do
    name=$(basename "$f" .ini)
    grep -q "^$name " "$file" && continue
    printf '%-19s %s %s\n' "$name" "$(hash "$name")" "$name" >>"$tmp/golden.txt"
    set_ensemble "$name" "$name"
    echo "added $name"
    changed=$((changed + 1))
  done
else
  for label in "$@"; do
    line=$(grep "^$label " "$file") || { echo "golden.sh: no label $label in $file" >&2; exit 2; }
    read -r _ old preset opts <<<"$line"
    # shellcheck disable=SC2086 # $opts is a list of options
    new=$(hash "$preset" $opts)
    set_ensemble "$label" "$preset" $opts
    changed=$((changed + 1))
    [ "$new" = "$old" ] && { echo "$label: hash unchanged, ensemble written"; continue; }
    sed -i "s/^\($label  *\)$old /\1$new /" "$tmp/golden.txt"
    echo "$label: $old -> $new"
  done
fi
[ $changed = 0 ] || {
  # the ensembles in golden.txt's order, so that a rewrite shows as a small diff
  awk 'NR == FNR { if ($0 !~ /^#/) order[$1] = ++n; next }
       /^#/ { print "0 0 " $0; next } { print order[$1], $2, $0 }' \
    "$tmp/golden.txt" "$tmp/golden-ensemble.txt" | sort -s -n -k1,1 -k2,2 | cut -d' ' -f3- \
    >"$tmp/sorted"
  mv "$tmp/golden.txt" "$file"
  mv "$tmp/sorted" "$efile"
}
echo "$changed label(s) written to tests/golden.txt and tests/golden-ensemble.txt"
