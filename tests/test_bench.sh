#!/usr/bin/env bash
# The benchmark as a user meets it: it says its matrix and its estimated time before it starts,
# writes every row as it comes, and Ctrl-C keeps the rows measured so far (exit 130); --dims 3
# measures every model in 3D, kit too; a run that would measure nothing says why and exits 2,
# writing nothing.
# usage: test_bench.sh path/to/boids-bench
source "$(dirname "$0")/lib.sh"
bench=$1
"$bench" --models shiffman-per-second --sizes 1000,10000,100000 --backends cpu --starts random \
  --out "$tmp/b" >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 1 300); do
  [ -f "$tmp/b/bench.csv" ] && [ "$(wc -l <"$tmp/b/bench.csv")" -ge 2 ] && break
  sleep 0.1
done
kill -INT "$pid"
wait "$pid"
rc=$?
banner="^3 measurements (1 model x 3 sizes x backends cpu x starts random), at least"
grep -q "$banner" "$tmp/out" && ok "the matrix and its time, before the first measurement" ||
  bad "no banner: $(head -3 "$tmp/out")"
[ "$rc" = 130 ] && ok "Ctrl-C: exit 130" || bad "Ctrl-C: exit $rc"
rows=$(($(wc -l <"$tmp/b/bench.csv") - 1))
[ "$rows" -ge 1 ] && [ "$rows" -lt 3 ] && grep -q "interrupted after $rows of 3" "$tmp/out" &&
  ok "the $rows rows measured before Ctrl-C are kept" ||
  bad "rows after Ctrl-C: $rows, $(tail -2 "$tmp/out")"
# cpu-brute (O(N^2)) is listed but measured only up to 20 000: the plan says so, not a silent gap
"$bench" --models shiffman-per-second --sizes 100,30000 --backends cpu-brute --starts random \
  --repeats 1 --seconds 0.05 >"$tmp/brute" 2>&1
grep -q "^1 measurements (" "$tmp/brute" &&
  grep -q "(cpu-brute, O(N^2), runs up to 20000 boids: not at 30000)" "$tmp/brute" &&
  ok "cpu-brute past 20 000: said, and not planned" || bad "cpu-brute: $(head -4 "$tmp/brute")"
# every model runs in 3D, kit among them: --dims 3 measures kit's 3D world (it once stayed flat)
"$bench" --models kit --sizes 1000 --backends cpu --starts random --repeats 1 --seconds 0.02 \
  --dims 3 --out "$tmp/kit3" >"$tmp/kit3.out" 2>&1
depth=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; ++i) if ($i == "depth") c = i} NR == 2 {print $c}' \
  "$tmp/kit3/bench.csv" 2>/dev/null)
awk -v d="${depth:-0}" 'BEGIN {exit !(d > 0)}' && ok "kit with --dims 3: a 3D world, $depth deep" ||
  bad "kit with --dims 3: depth '$depth': $(tail -c 300 "$tmp/kit3.out")"
# a run that measures nothing says why and exits 2 (bad usage), with no output directory: no empty
# bench.csv, bench.json or bench.png
nothing() { # nothing WHAT PATTERN ARGS...: the run of ARGS measures nothing, says PATTERN
  local what=$1 pattern=$2 rc
  shift 2
  "$bench" --sizes 100 --repeats 1 --seconds 0.02 --out "$tmp/none" "$@" >"$tmp/none.out" 2>&1
  rc=$?
  [ "$rc" = 2 ] && [ ! -e "$tmp/none" ] && grep -q -- "$pattern" "$tmp/none.out" &&
    ok "nothing to measure ($what): said, exit 2, nothing written" ||
    bad "$what: exit $rc, $(ls "$tmp/none" 2>&1 | tr '\n' ' '), $(tail -c 300 "$tmp/none.out")"
  rm -rf "$tmp/none"
}
nothing "cpu-brute past its limit" "nothing to measure: cpu-brute (O(N^2)) runs up to 20000" \
  --models shiffman-per-second --backends cpu-brute --sizes 100000
nothing "no such start" "--starts: 'stedy' is none of random, steady" \
  --models shiffman-per-second --backends cpu --starts stedy
nothing "kit with nearest neighbours" "nothing to measure: kit has no nearest:K reading" \
  --models kit --backends cpu --neighbours nearest:7
# with no GL context (libglvnd given no EGL vendor) a GPU-only matrix is empty here: exit 1
__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json "$bench" --models vicsek --sizes 100 \
  --backends gpu --out "$tmp/none" >"$tmp/none.out" 2>&1
rc=$?
if ! grep -q "GPU rows skipped" "$tmp/none.out"; then
  skip "a GPU-only matrix without GL: a context was made all the same (rc $rc)"
elif [ "$rc" = 1 ] && [ ! -e "$tmp/none" ] && grep -q "nothing to measure here" "$tmp/none.out"
then ok "nothing to measure here (no GL context): said, exit 1, nothing written"
else bad "a GPU-only matrix without GL: exit $rc, $(tail -c 300 "$tmp/none.out")"; fi
finish
