#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time (CI: 60 s each) from a seed corpus made here from
# the shipped scenarios and small states; any crash, leak, sanitizer report, timeout (10 s an
# input) or memory above 2 GiB fails, and the input that did it is left in DIR/crash-*.
# usage: tests/fuzz/run.sh BUILD_DIR SECONDS
set -euo pipefail
build=$(realpath "$1") seconds=${2:-60}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ini" "$work/csv" "$work/pred"
cp "$repo"/scenarios/*.ini "$work/ini/"
printf 'model = kit\nobstacle = 1,2,3\nlayout = centre\n' >"$work/ini/extra.ini"
printf 'id,x,y,vx,vy,swarm\n0,1,2,3,4,0\n1,5.5,6e1,-7,8,1\n' >"$work/csv/a.csv"
printf '\xef\xbb\xbfid,x,y,vx,vy,swarm,age,alive\r\n1,1,2,3,4,0,0.5,1\r\n0,"5",6,7,8,0,0.25,0\r\n' >"$work/csv/b.csv"
printf 'id,x,y,vx,vy\n0,1,2,3,4\n1,5,6,7,8\n' >"$work/pred/a.csv"
status=0
for t in fuzz_scenario:ini fuzz_state_csv:csv fuzz_predators_csv:pred; do
  exe=$build/tests/fuzz/${t%%:*} corpus=$work/${t##*:}
  echo "== ${t%%:*}: $seconds s"
  if ! (cd "$work" && "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 "$corpus" 2>&1 | tail -12); then
    status=1
  fi
  if ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* >/dev/null 2>&1; then
    echo "FAIL ${t%%:*}: $(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null)"
    mkdir -p "$build/fuzz-findings" && cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$build/fuzz-findings/" 2>/dev/null || true
    status=1
  fi
done
exit $status
