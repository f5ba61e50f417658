#!/usr/bin/env bash
# The figures the README and docs/ show that seeded commands reproduce, made again from those
# commands: the kit paper's finding (the numbers between the README's `figures:kit` markers, and
# docs/kit-ages.png), the gallery of the models (docs/models/NAME.png, each scenario's flock
# after its own `steps`, on the CPU backend, so the same flock on any machine) and the viewer
# (docs/viewer.png: its window under Xvfb, HUD, panel and legend, 12 000 boids in 3 swarms after
# 900 steps on the CPU; only the HUD's frame rate and times differ from one machine to another)
# and a 3D flock (docs/flock-3d.png: 30 000 boids in the default cube after 900 steps on the CPU,
# the export's default camera), and Vicsek et al.'s figure 2 (scripts/vicsek-figure.py: its
# numbers between the `figures:vicsek` markers of docs/models.md, its exponents between the
# README's `figures:vicsek-exponents`, and docs/vicsek-figure.png), and Couzin et al.'s states
# and collective memory (scripts/couzin-figure.py: its tables between the `figures:couzin`
# markers of docs/models.md, its summary between the README's `figures:couzin-states`,
# docs/couzin-figure.png, and the preset's torus close up, docs/couzin-torus.png), and the field
# measures' tests, Cavagna et al.'s xi against L and Ballerini et al.'s gamma(n)
# (scripts/field-figure.py: its tables between the `figures:field` markers of docs/models.md, its
# summary between the README's `figures:field-summary`, docs/field-xi.png, docs/field-gamma.png).
#
#   scripts/figures.sh --update [BOIDS]
#       rewrites them in place (after a change of results), and the numbers of every run of the
#       three papers' figures in tests/figures/ (about 15 minutes on 2 cores)
#   scripts/figures.sh --model NAME [BOIDS]
#       draws one model's picture alone, docs/models/NAME.png from scenarios/NAME.ini, in place
#       (a new model's, or one whose results changed on purpose: seconds, not the gallery's
#       minutes); test_figures then holds it to the command as it holds the others
#   scripts/figures.sh --check [BOIDS [PNG_DIFF]]
#       makes them in a scratch directory and compares: the numbers exactly, the pictures pixel
#       by pixel (within what another rasterizer may draw differently); exit 1 naming what
#       differs (test_figures runs this). The papers' figures take their runs' numbers from
#       tests/figures/ (the CPU's, the same bits on every machine, as the golden hashes) and
#       make a few runs of each again, which must give the stored numbers to the bit: a change
#       of results fails here, naming the run, until --update writes them anew (3 minutes)
#
# BOIDS defaults to build/release/src/boids; --check also needs png_diff
# (build/release/tests/png_diff).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
case "$mode" in
  --update | --check) ;;
  --model) model=${2:-} && shift ;;
  *) sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
boids=$(realpath "${2:-$root/build/release/src/boids}")
# picture INI PNG: the gallery's picture of a preset, its flock after its own `steps` (--warmup)
picture() {
  local steps
  steps=$(sed -n 's/^steps *= *\([0-9]*\).*/\1/p' "$1")
  "$boids" "$1" --headless --backend cpu --warmup "${steps:-600}" --steps 1 --size 640x360 \
    --screenshot "$2" >/dev/null
}
if [ "$mode" = --model ]; then
  ini=$root/scenarios/$model.ini
  if [ -z "$model" ] || [ ! -f "$ini" ]; then
    echo "figures.sh: --model ${model:-(none)}: no preset scenarios/$model.ini" >&2
    exit 2
  fi
  mkdir -p "$root/docs/models"
  picture "$ini" "$root/docs/models/$model.png"
  echo "figures.sh: wrote docs/models/$model.png from scenarios/$model.ini"
  exit 0
fi
png_diff=${3:-$root/build/release/tests/png_diff}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
kit=$root/scenarios/kit.ini

# made WHAT: how long it took, on stderr (what to shorten when CI runs long)
made() { echo "figures.sh: $1: $((SECONDS - t_part)) s" >&2; t_part=$SECONDS; }
t_part=$SECONDS
# --- the kit paper's finding --------------------------------------------------------------------
run() { "$boids" experiment "$kit" --runs 100 --backend cpu "$@" >/dev/null; }
(cd "$work" &&
  run --set c_maxspeed=200 --set stop_after_catches=3 --out skew &&
  run --set c_maxspeed=0 --set c_view_radius=0 --set c_view_angle=0 --set stop_after_catches=3 \
    --out flat &&
  run --sweep c_maxspeed=20,50,200 --out fig10 &&
  run --sweep obstacles=4,20,40 --out fig11)

# ages FILE [COMBO_COLUMN VALUE]: "share-of-extremes catches chi2 p bins..." of the caught ages
# (column 6 + the sweeps' columns), against uniform ages over 10 bins (9 degrees of freedom).
ages() {
  awk -F, -v col="$2" -v want="$3" -v agecol="$4" '
    # the upper regularized incomplete gamma Q(a, x) = P(chi2 > 2x) for a = k/2: its series
    # below x = a + 1, its continued fraction (Lentz) above, where 1 - P would cancel
    function absv(v) { return v < 0 ? -v : v }
    function q(a, x,   sum, term, n, bb, c, d, h, an, del) {
      if (x <= 0) return 1
      if (x < a + 1) {
        sum = term = 1 / a
        for (n = 1; n < 500; ++n) {
          term *= x / (a + n); sum += term; if (term < sum * 1e-15) break
        }
        return 1 - sum * exp(-x + a * log(x) - lgamma(a))
      }
      bb = x + 1 - a; c = 1e300; d = 1 / bb; h = d
      for (n = 1; n < 500; ++n) {
        an = -n * (n - a); bb += 2
        d = an * d + bb; if (absv(d) < 1e-300) d = 1e-300
        c = bb + an / c; if (absv(c) < 1e-300) c = 1e-300
        d = 1 / d; del = d * c; h *= del
        if (absv(del - 1) < 1e-15) break
      }
      return exp(-x + a * log(x) - lgamma(a)) * h
    }
    function lgamma(z,   c, x, t, s, i) { # Lanczos, g = 7
      split("0.99999999999980993 676.5203681218851 -1259.1392167224028 771.32342877765313 " \
            "-176.61502916214059 12.507343278686905 -0.13857109526572012 9.9843695780195716e-6 " \
            "1.5056327351493116e-7", c, " ")
      x = c[1]; t = z + 6.5
      for (i = 1; i < 9; ++i) x += c[i + 1] / (z - 1 + i)
      return 0.5 * log(2 * 3.141592653589793) + (z - 0.5) * log(t) - t + log(x)
    }
    NR > 1 && (col == "" || $col == want) {
      a = $agecol; b = int(a * 10); if (b > 9) b = 9; h[b]++; n++; if (a < 0.25 || a > 0.75) x++
    }
    END {
      for (i = 0; i < 10; ++i) c += (h[i] - n / 10) ^ 2 / (n / 10)
      printf "%.0f %d %.1f %.2g", 100 * x / n, n, c, q(4.5, c / 2)
      for (i = 0; i < 10; ++i) printf " %d", h[i]
      printf "\n"
    }' "$1"
}
read -r s_share s_n s_chi s_p s_bins <<<"$(ages "$work/skew/events.csv" "" "" 6)"
read -r f_share f_n f_chi f_p f_bins <<<"$(ages "$work/flat/events.csv" "" "" 6)"
shares() { # DIR VALUES...: the share of extremes per swept value (column 3)
  local dir=$1 v out=""
  shift
  for v in "$@"; do out="$out$(ages "$dir/events.csv" 3 "$v" 7 | cut -d' ' -f1) %, "; done
  echo "${out%, }"
}
fig10=$(shares "$work/fig10" 20 50 200)
fig11=$(shares "$work/fig11" 4 20 40)
median=$(awk -F, 'NR > 1 { print $3 }' "$work/skew/runs.csv" | sort -n |
  awk '{ s[NR] = $1 } END { print (NR % 2 ? s[(NR + 1) / 2] : (s[NR / 2] + s[NR / 2 + 1]) / 2) }')
row() { echo "| $1 | $(echo "$2" | sed 's/ / | /g') |"; }
cat >"$work/fragment" <<EOF
<!-- figures:kit begin (scripts/figures.sh writes this; test_figures checks it) -->
With \`c_maxspeed = 200\` and 100 runs of 3 catches, $s_share % of the $s_n caught boids are aged
below 0.25 or above 0.75 (uniform ages would give 50 %), and the 10-bin histogram is far from
uniform (chi-square $s_chi with 9 degrees of freedom, p = $s_p). Without individuality
(\`c_maxspeed = c_view_radius = c_view_angle = 0\`) $f_share % are, and the ages are uniform
(chi-square $f_chi, p = $f_p). The figure above is the paper's figure 10 (\`--sweep
c_maxspeed=20,50,200\`, 100 runs each, 4 catches each as in its table 1): of the caught,
$fig10 are young or old. Its figure 11 (\`--sweep obstacles=4,20,40\`): $fig11.
Histograms of the first two (catches per tenth of the age range):

| ages | 0-.1 | .1-.2 | .2-.3 | .3-.4 | .4-.5 | .5-.6 | .6-.7 | .7-.8 | .8-.9 | .9-1 |
|---|---|---|---|---|---|---|---|---|---|---|
$(row '`c_maxspeed = 200`' "$s_bins")
$(row 'no individuality' "$f_bins")

Our runs take a median $median steps to their third catch.
<!-- figures:kit end -->
EOF

made "the kit paper's finding"
# --- the gallery --------------------------------------------------------------------------------
# Its runs go on beside the parts below (each of its runs takes every core, the parts below mostly
# one: Python, the viewer's window, short runs): test_figures was the full tier's longest test.
mkdir -p "$work/models"
t_gallery=$SECONDS
(for ini in "$root"/scenarios/*.ini; do
  picture "$ini" "$work/models/$(basename "$ini" .ini).png"
done) &
gallery=$!
# --- the viewer -----------------------------------------------------------------------------------
(cd "$work" && xvfb-run -a -s "-screen 0 1400x900x24" "$boids" -n 12000 --swarms 3 --steps 900 \
  --backend cpu --screenshot "$work/viewer.png" >/dev/null 2>&1) ||
  { echo "FAIL the viewer's picture: its window did not run (xvfb-run, a GL context)"; exit 1; }

made "the viewer"
# --- a 3D flock ---------------------------------------------------------------------------------
"$boids" --dims 3 -n 30000 --backend cpu --headless --warmup 900 --steps 1 --size 960x540 \
  --screenshot "$work/flock-3d.png" >/dev/null

made "a 3D flock"
# --- Vicsek et al.'s figure 2 --------------------------------------------------------------------
py=
for p in /usr/bin/python3 python3; do # Debian's, which has numpy and matplotlib
  command -v "$p" >/dev/null && "$p" -c "import numpy, matplotlib" 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] ||
  { echo "FAIL no python3 with numpy and matplotlib (scripts/install-deps.sh)"; exit 1; }
# Each figure's runs: made and stored (--update), or taken from the stored numbers with a few
# made again, which must give them to the bit (--check; scripts/experiment_dirs.py, Stored)
stored=$root/tests/figures
runs() { # NAME: the figure script's options for its runs' numbers
  [ "$mode" = --update ] && echo "--store $work/$1.tsv" || echo "--stored $stored/$1.tsv"
}
# shellcheck disable=SC2046 # runs gives two words
"$py" "$root/scripts/vicsek-figure.py" --boids "$boids" --out "$work/vicsek" $(runs vicsek) \
  >/dev/null
marked() { # NAME FILE: FILE's lines as the markers NAME frame them
  echo "<!-- figures:$1 begin (scripts/figures.sh writes this; test_figures checks it) -->"
  cat "$2"
  echo "<!-- figures:$1 end -->"
}
marked vicsek "$work/vicsek/vicsek.md" >"$work/vicsek-fragment"
grep -E '^(beta|delta) = ' "$work/vicsek/vicsek.md" | sed '1!s/^/\n/' >"$work/vicsek-exponents"
marked vicsek-exponents "$work/vicsek-exponents" >"$work/vicsek-exponents-fragment"
made "Vicsek et al.'s figure 2"
# --- Couzin et al.'s states and collective memory ------------------------------------------------
# shellcheck disable=SC2046
"$py" "$root/scripts/couzin-figure.py" --boids "$boids" --out "$work/couzin" $(runs couzin) \
  >/dev/null
marked couzin "$work/couzin/couzin.md" >"$work/couzin-fragment"
grep -E '^(States|Memory): ' "$work/couzin/couzin.md" | sed '1!s/^/\n/' >"$work/couzin-states"
marked couzin-states "$work/couzin-states" >"$work/couzin-states-fragment"
made "Couzin et al.'s states and memory"
# --- Cavagna et al.'s and Ballerini et al.'s tests ------------------------------------------------
# shellcheck disable=SC2046
"$py" "$root/scripts/field-figure.py" --boids "$boids" --out "$work/field" $(runs field) \
  >/dev/null
marked field "$work/field/field.md" >"$work/field-fragment"
grep -E '^(Correlations|Anisotropy): ' "$work/field/field.md" | sed '1!s/^/\n/' \
  >"$work/field-summary"
marked field-summary "$work/field-summary" >"$work/field-summary-fragment"

made "the field measures' tests"
wait "$gallery" || { echo "FAIL the gallery's pictures: a preset did not run"; exit 1; }
echo "figures.sh: the gallery, beside the parts above: $((SECONDS - t_gallery)) s" >&2
# --- in place, or compared ------------------------------------------------------------------------
between() { # NAME FILE: the fragment of FILE between the markers NAME, the markers included
  sed -n "/<!-- figures:$1 begin/,/<!-- figures:$1 end -->/p" "$2"
}
# fragments: NAME FILE FRAGMENT
fragments=(
  "kit README.md $work/fragment"
  "vicsek docs/models.md $work/vicsek-fragment"
  "vicsek-exponents README.md $work/vicsek-exponents-fragment"
  "couzin docs/models.md $work/couzin-fragment"
  "couzin-states README.md $work/couzin-states-fragment"
  "field docs/models.md $work/field-fragment"
  "field-summary README.md $work/field-summary-fragment"
)
if [ "$mode" = --update ]; then
  for f in "${fragments[@]}"; do
    read -r name file frag <<<"$f"
    awk -v frag="$frag" -v name="$name" '
      index($0, "<!-- figures:" name " begin") {
        while ((getline l < frag) > 0) print l
        skip = 1; next
      }
      index($0, "<!-- figures:" name " end -->") { skip = 0; next }
      !skip' "$root/$file" >"$work/updated"
    cp "$work/updated" "$root/$file"
  done
  cp "$work/fig10/ages.png" "$root/docs/kit-ages.png"
  cp "$work"/models/*.png "$root/docs/models/"
  cp "$work/viewer.png" "$root/docs/viewer.png"
  cp "$work/flock-3d.png" "$root/docs/flock-3d.png"
  cp "$work/vicsek/vicsek.png" "$root/docs/vicsek-figure.png"
  cp "$work/couzin/couzin.png" "$root/docs/couzin-figure.png"
  cp "$work/couzin/couzin-torus.png" "$root/docs/couzin-torus.png"
  cp "$work/field/field-xi.png" "$root/docs/field-xi.png"
  cp "$work/field/field-gamma.png" "$root/docs/field-gamma.png"
  mkdir -p "$stored"
  cp "$work"/vicsek.tsv "$work"/couzin.tsv "$work"/field.tsv "$stored/"
  echo "updated the README's kit, Vicsek and Couzin figures, docs/models.md's Vicsek and Couzin" \
    "numbers, docs/kit-ages.png, docs/models/*.png, docs/viewer.png, docs/flock-3d.png," \
    "docs/vicsek-figure.png, docs/couzin-figure.png, docs/couzin-torus.png, docs/field-xi.png," \
    "docs/field-gamma.png, and the figures' runs in tests/figures/"
  exit 0
fi
status=0
for f in "${fragments[@]}"; do
  read -r name file frag <<<"$f"
  if ! diff -u <(between "$name" "$root/$file") "$frag"; then
    echo "FAIL $file's $name figures are not what the commands give (scripts/figures.sh --update)"
    status=1
  else
    echo "ok   $file's $name figures are what the commands give"
  fi
done
compare() { # NAME COMMITTED MADE
  local verdict
  if verdict=$("$png_diff" "$2" "$3"); then echo "ok   $1: $verdict"
  else echo "FAIL $1: $verdict (scripts/figures.sh --update draws it again)"; status=1; fi
}
compare docs/kit-ages.png "$root/docs/kit-ages.png" "$work/fig10/ages.png"
compare docs/viewer.png "$root/docs/viewer.png" "$work/viewer.png"
compare docs/flock-3d.png "$root/docs/flock-3d.png" "$work/flock-3d.png"
compare docs/vicsek-figure.png "$root/docs/vicsek-figure.png" "$work/vicsek/vicsek.png"
compare docs/couzin-figure.png "$root/docs/couzin-figure.png" "$work/couzin/couzin.png"
compare docs/couzin-torus.png "$root/docs/couzin-torus.png" "$work/couzin/couzin-torus.png"
compare docs/field-xi.png "$root/docs/field-xi.png" "$work/field/field-xi.png"
compare docs/field-gamma.png "$root/docs/field-gamma.png" "$work/field/field-gamma.png"
for f in "$work"/models/*.png; do
  name=docs/models/$(basename "$f")
  compare "$name" "$root/$name" "$f"
done
for f in "$root"/docs/models/*.png; do
  name=docs/models/$(basename "$f")
  [ -f "$work/models/$(basename "$f")" ] || { echo "FAIL $name: no scenario draws it"; status=1; }
done
exit $status
