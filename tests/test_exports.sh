#!/usr/bin/env bash
# libboids.so exports the API and nothing else: its defined dynamic symbols (nm -D) are exactly
# the functions src/boids.h declares, each marked BOIDS_API. It fails naming every symbol exported
# that boids.h does not mark (an internal boids_ function, one of glad's GL pointers), every mark
# the library does not export, and every declaration of boids.h left without its mark.
# A declaration of boids.h is a line at its first column that begins with a lower-case word or
# BOIDS_API, other than a typedef (clang-format's layout); its name is the last word before the
# line's first "(" (a function), or before its ";" or "[" (data).
# usage: test_exports.sh path/to/libboids.so path/to/boids.h
source "$(dirname "$0")/lib.sh"
lib=$1 header=$2
name_of() { sed -E 's/^([^(;[]*[^A-Za-z0-9_(;[])?([A-Za-z_][A-Za-z0-9_]*) *[(;[].*/\2/'; }
grep -E '^[a-z]' "$header" | grep -Ev '^(typedef |extern "C")' >"$tmp/unmarked"
if [ -s "$tmp/unmarked" ]; then
  while read -r line; do bad "boids.h declares $(echo "$line" | name_of) without BOIDS_API"
  done <"$tmp/unmarked"
else ok "every declaration of boids.h is marked BOIDS_API"; fi
grep -E '^BOIDS_API ' "$header" | sed 's/^BOIDS_API //' | name_of | sort -u >"$tmp/api"
if ! nm -D --defined-only "$lib" >"$tmp/nm.out" 2>"$tmp/nm.err"; then
  bad "nm -D $lib: $(head -3 "$tmp/nm.err")"
  finish
  exit
fi
awk 'NF { sub(/@.*/, "", $NF); print $NF }' "$tmp/nm.out" | sort -u >"$tmp/exported"
comm -13 "$tmp/api" "$tmp/exported" >"$tmp/extra"
comm -23 "$tmp/api" "$tmp/exported" >"$tmp/missing"
while read -r sym; do bad "exported, not BOIDS_API in boids.h: $sym"; done <"$tmp/extra"
while read -r sym; do bad "BOIDS_API in boids.h, not exported: $sym"; done <"$tmp/missing"
[ -s "$tmp/extra" ] || [ -s "$tmp/missing" ] ||
  ok "$(basename "$lib") exports the $(wc -l <"$tmp/api") functions boids.h marks, nothing else"
finish
