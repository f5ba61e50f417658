#!/usr/bin/env bash
# The README's commands as written: every `build/release/src/boids ...` line of its code blocks
# runs, in order (later ones use what earlier ones wrote), in a scratch directory that sees the
# checkout's build/ and scenarios/, without a display (so the window examples run headless, as the
# README says they do there); and `cmake --install build/release --prefix ~/.local` puts a boids
# that runs on the PATH. The setup lines (install-deps, ctest), the install into /usr/local and the
# Slurm script are left out: CI runs the first, the last has a test of its own.
# usage: test_readme.sh SOURCE_DIR BUILD_DIR
set -u
src=$(realpath "$1")
build=$(realpath "$2")
source "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/build" "$tmp/home"
ln -s "$build" "$tmp/build/release"
ln -s "$src/scenarios" "$tmp/scenarios"
mapfile -t cmds < <(awk '/^```/{inb = !inb; next} inb' "$src/README.md" |
                    grep -E '^(build/release/src/boids |cmake --install build/release --prefix)')
[ ${#cmds[@]} -ge 10 ] || bad "only ${#cmds[@]} commands found in the README"
cd "$tmp" || exit 1
for c in "${cmds[@]}"; do
  c=${c%%  #*} # the comment after the command
  c=${c%"${c##*[! ]}"}
  if env -u DISPLAY -u WAYLAND_DISPLAY HOME="$tmp/home" bash -c "$c" >.cmd.out 2>.cmd.err; then
    ok "$c"
  else
    bad "$c: exit $?: $(tail -c 400 .cmd.err)"
  fi
done
# the install holds the benchmark and the Slurm scripts too, and a bare preset name finds its scenarios
for f in boids-bench boids-slurm-experiment boids-slurm-local; do
  [ -x "$tmp/home/.local/bin/$f" ] && ok "cmake --install puts $f on the PATH" || bad "no $f installed"
done
if (cd / && PATH="$tmp/home/.local/bin:$PATH" boids kit.ini --headless --steps 2 --backend cpu >"$tmp/.kit.out" 2>&1) &&
  grep -q "model kit" "$tmp/.kit.out"; then ok "the installed boids finds kit.ini from /"
else bad "installed bare preset: $(cat "$tmp/.kit.out")"; fi
# what the install put on the PATH runs from anywhere (its shaders are inside)
if [ -x "$tmp/home/.local/bin/boids" ] && (cd / && PATH="$tmp/home/.local/bin:$PATH" boids --headless -n 100 --steps 2 \
     >"$tmp/.install.out" 2>&1) && [ -f "$tmp/home/.local/share/boids/scenarios/kit.ini" ]; then
  ok "the installed boids runs from / on the PATH, with its scenarios in share/boids"
else
  bad "install: $(cat "$tmp/.install.out" 2>/dev/null)"
fi
# the README's option list is --help's, line for line (both follow from app/options.h)
boids="$build/src/boids"
readme_opts=$(awk '/^## Command line/ { c = 1 } c && /^```/ { n++; next } c && n == 1 && NR > 0' "$src/README.md" |
              sed -n '/^  --backend/,$p')
help_opts=$("$boids" --help | sed -n '/^  --backend/,/^Examples:/p' | sed '/^Examples:/d;/^$/d')
if [ -n "$readme_opts" ] && [ "$readme_opts" = "$help_opts" ]; then ok "the README's options are --help's"
else bad "the README's option list differs from --help's: $(diff <(echo "$readme_opts") <(echo "$help_opts") | head -5)"; fi
# the examples' outputs are what they say
[ "$(ls out/frame_*.png 2>/dev/null | wc -l)" = 300 ] && ok "out/ holds 300 frames" || bad "out/: $(ls out | wc -l) files"
[ -s fig10/runs.csv ] && ls fig10/*.png >/dev/null 2>&1 && ok "fig10: runs.csv and plots" || bad "fig10: $(ls fig10)"
finish
