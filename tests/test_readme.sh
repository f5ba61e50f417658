#!/usr/bin/env bash
# The commands the README and docs/*.md show, as written: every `build/release/src/boids ...`,
# `build/release/bench/boids-bench ...` and `scripts/NAME.py ...` line of their code blocks runs,
# in order (later ones use what earlier ones wrote), in a scratch directory that sees the
# checkout's build/, scenarios/ and scripts/, without a display (so the window examples run
# headless, as the README says they do there). The README's commands share one scratch directory;
# each document's get one of their own. A benchmark runs cut to a smoke run (`--quick --models
# shiffman-per-second` appended: the whole matrix takes an hour), and a figure's script with
# `--quick` (test_figures runs them whole); each is run as printed, so a script that lost its
# mode bits fails here. The README's `cmake --install build/release --prefix ~/.local` puts a
# boids that runs on the PATH. Left out: the setup lines (install-deps, ctest) and CI's
# commands, which CI runs; the install into /usr/local; ffmpeg; and the Slurm scripts, which
# test_slurm runs. Then: the
# option list of docs/reference.md is --help's, and every relative link of the README and docs/
# finds its file and heading.
# usage: test_readme.sh SOURCE_DIR BUILD_DIR
set -u
src=$(realpath "$1")
build=$(realpath "$2")
source "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/home"
# scratch DIR: a directory that sees the checkout's build/release, scenarios/, scripts/ and
# examples/
scratch() {
  mkdir -p "$1/build"
  ln -s "$build" "$1/build/release"
  ln -s "$src/scenarios" "$1/scenarios"
  ln -s "$src/scripts" "$1/scripts"
  ln -s "$src/examples" "$1/examples"
}
# commands FILE: the commands of FILE's code blocks that this test runs, in order
commands() {
  local runs='build/release/src/boids |build/release/bench/boids-bench |scripts/[a-z-]+\.py '
  awk '/^```/{inb = !inb; next} inb' "$1" |
    grep -E "^($runs|cmake --install build/release --prefix)"
}
# run_all FILE DIR: runs FILE's commands in DIR, an ok or a FAIL each; ran is their number
run_all() {
  local c run cmds t0
  mapfile -t cmds < <(commands "$1")
  ran=${#cmds[@]}
  for c in "${cmds[@]}"; do
    c=${c%%  #*} # the comment after the command
    c=${c%"${c##*[! ]}"}
    run=$c
    case "$c" in
      build/release/bench/boids-bench\ *) run="$c --quick --models shiffman-per-second" ;;
      scripts/*.py\ *) # a figure's script: once, wherever it is shown again
        grep -qxF -- "$c" "$tmp/.scripts_ran" 2>/dev/null && continue
        echo "$c" >>"$tmp/.scripts_ran"
        run="$c --quick" ;;
    esac
    t0=$SECONDS
    if (cd "$2" && env -u DISPLAY -u WAYLAND_DISPLAY HOME="$tmp/home" bash -c "$run" \
      >.cmd.out 2>.cmd.err); then
      ok "${1#"$src"/}: $c ($((SECONDS - t0)) s)"
    else
      bad "${1#"$src"/}: $c: exit $?: $(tail -c 400 "$2/.cmd.err")"
    fi
  done
}
scratch "$tmp"
run_all "$src/README.md" "$tmp"
[ "$ran" -ge 10 ] || bad "only $ran commands found in the README"
docs_ran=0
for doc in "$src"/docs/*.md; do
  [ -n "$(commands "$doc")" ] || continue
  dir="$tmp/docs-$(basename "$doc" .md)"
  scratch "$dir"
  run_all "$doc" "$dir"
  docs_ran=$((docs_ran + ran))
done
[ "$docs_ran" -ge 1 ] || bad "no commands found in docs/*.md"
cd "$tmp" || exit 1
# the install holds the benchmark and the Slurm scripts too, and a bare preset name finds its
# scenarios
installed=$tmp/home/.local/bin
for f in boids-bench boids-slurm-experiment boids-slurm-local; do
  [ -x "$installed/$f" ] && ok "cmake --install puts $f on the PATH" || bad "no $f installed"
done
if (cd / && PATH="$installed:$PATH" boids kit.ini --headless --steps 2 --backend cpu \
  >"$tmp/.kit.out" 2>&1) && grep -q "model kit" "$tmp/.kit.out"; then
  ok "the installed boids finds kit.ini from /"
else bad "installed bare preset: $(cat "$tmp/.kit.out")"; fi
# what the install put on the PATH runs from anywhere (its shaders are inside)
if [ -x "$installed/boids" ] &&
  (cd / && PATH="$installed:$PATH" boids --headless -n 100 --steps 2 >"$tmp/.install.out" 2>&1) &&
  [ -f "$tmp/home/.local/share/boids/scenarios/kit.ini" ]; then
  ok "the installed boids runs from / on the PATH, with its scenarios in share/boids"
else
  bad "install: $(cat "$tmp/.install.out" 2>/dev/null)"
fi
# the option list of docs/reference.md (its Command line's first block) is --help's, line for line
# (both follow from src/app/cli/options.h)
boids="$build/src/boids"
ref_opts=$(awk '/^## Command line/ { c = 1 } c && /^```/ { n++; next } c && n == 1 && NR > 0' \
  "$src/docs/reference.md" | sed -n '/^  --backend/,$p')
help_opts=$("$boids" --help | sed -n '/^  --backend/,/^Examples:/p' | sed '/^Examples:/d;/^$/d')
if [ -n "$ref_opts" ] && [ "$ref_opts" = "$help_opts" ]; then
  ok "docs/reference.md's options are --help's"
else
  bad "docs/reference.md's option list differs from --help's: \
$(diff <(echo "$ref_opts") <(echo "$help_opts") | head -5)"
fi
# the examples' outputs are what they say
[ "$(ls out/frame_*.png 2>/dev/null | wc -l)" = 300 ] && ok "out/ holds 300 frames" ||
  bad "out/: $(ls out | wc -l) files"
[ -s fig10/runs.csv ] && ls fig10/*.png >/dev/null 2>&1 && ok "fig10: runs.csv and plots" ||
  bad "fig10: $(ls fig10)"
# every relative link of the README and docs/*.md finds its file, and its heading where it names
# one (GitHub's anchors: the heading in lower case, punctuation dropped, blanks as hyphens)
if links=$(python3 - "$src" <<'PY'
import os, re, sys
root = sys.argv[1]
docs = sorted(f for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))

def anchors(path):
    out, inb = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            inb = not inb
        elif not inb and re.match(r"#+ ", line):
            out.add(re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-"))
    return out

bad = []
for f in ["README.md"] + ["docs/" + d for d in docs]:
    text = open(os.path.join(root, f), encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for url in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", url) or url.startswith("<"):
            continue
        path, _, frag = url.partition("#")
        target = os.path.join(root, f)
        if path:
            target = os.path.normpath(os.path.join(root, os.path.dirname(f), path))
        if not os.path.exists(target):
            bad.append(f"{f}: {url}: no such file")
        elif frag and target.endswith(".md") and frag not in anchors(target):
            bad.append(f"{f}: {url}: no such heading")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
); then ok "every relative link of the README and docs/ finds its file and heading"
else bad "broken links: $links"; fi
finish
