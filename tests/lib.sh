# What the shell tests share (source "$(dirname "$0")/lib.sh" at the top): a scratch directory
# $tmp removed at exit, and the tally: ok "what held", bad "what did not", and finish as the last
# command (prints the counts; its status is the script's).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
}
