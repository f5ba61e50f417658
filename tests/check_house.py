#!/usr/bin/env python3
"""The house rules a newcomer can keep, checked.

1. Layers: every #include "..." in src/, bench/ and the shared C/GLSL headers of shaders/ goes
   from a layer to one it may use (ALLOWED below; docs/architecture.md draws it).
2. No circles: no two files (a .c with its .h counting as one) include each other, directly or
   through others; no two .c files call functions the other defines, directly or through others.
3. No function in src/, bench/ or shaders/ (C, headers, GLSL) is longer than 80 lines.
4. No line of code, script or build file is wider than 100 columns.
5. Every model of the manifest has a row in the README's model table and a section of
   docs/models.md whose heading names it.
6. The C code is as .clang-format lays it out (clang-format --dry-run finds nothing to change).
7. Every number of models that README.md, python/README.md and docs/*.md state ("ten models",
   "10 published models") is the manifest's; a part is not a total ("the three Shiffman models",
   "the first five models").
8. The README is a front page: at most 300 lines (the option list, limits and depth: docs/).

usage: check_house.py SOURCE_DIR        (exit 1 and one line per breach when a rule is broken)
"""
import os
import re
import subprocess
import sys

# Who may include whom. Each layer may include itself; the public header (src/boids*.h) is the
# API every layer above it uses.
ALLOWED = {
    "public": {"public"},                   # (and the library's own view, under BOIDS_INTERNAL:
                                            # INTERNAL_VIEW below)
    "manifest": {"public"},                 # the built-in models' folders: list.h, model.h
    "shared": {"public"},                   # shaders/boids_shared.h: the GPU's layout
    "draw": set(),                          # shaders/boids_draw.h: the renderer's palette
    "base": {"public"},                     # errors, parsing, output files, the thread pool
    "core": {"public", "base", "shared", "manifest"},  # definitions, parameters, scenarios
    "rules": {"public"},                    # the rules, one source for C and GLSL, and its lanes
    "oracle": {"public", "core", "rules"},  # the models' float64 oracles: no backend (the
                                            # registry reads a loaded model's from core)
    "paper": {"public", "core", "rules"},   # the papers' cases: test code, through the API (and
                                            # core's rng for random cases)
    "cpu": {"public", "base", "core", "shared", "rules"},
    "gl": {"public", "base", "core"},       # the GL context, programs, checks, timers
    "gpu": {"public", "base", "core", "shared", "gl"},
    "world": {"public", "base", "core", "shared", "cpu", "gpu"},
    "render": {"public", "base", "core", "shared", "draw", "gl"},
    "app/cli": {"public", "base", "core"},
    "app": {"public", "base", "core", "render", "app/cli", "oracle"},  # (boids check: oracles)
    "app/viewer": {"public", "base", "core", "draw", "render", "app", "app/cli"},
    "app/experiment": {"public", "base", "core", "app", "app/cli"},
    "app/main": {"public", "base", "core", "render", "app", "app/cli", "app/viewer",
                 "app/experiment"},
    "bench": {"public", "base", "core", "render", "app", "bench"},
}
CHECKED_DIRS = ("src", "bench")
FUNCTION_LINES = 80
# Files whose functions the length rule covers: C sources and headers, and the shaders (GLSL lays
# a function out as C does: its body from a '{' in column 0 to a '}' in column 0).
FUNCTION_SUFFIXES = (".c", ".h", ".glsl", ".comp", ".vert", ".frag")
COLUMNS = 100
# Files whose lines the width rule covers: code, shaders, scripts and build files (not JSON,
# whose strings cannot be wrapped, nor Markdown, whose tables cannot).
WIDTH_SUFFIXES = (".c", ".h", ".glsl", ".comp", ".vert", ".frag", ".sh", ".py", ".cmake",
                  "CMakeLists.txt")
WIDTH_DIRS = ("src", "bench", "tests", "shaders", "cmake", "scripts", ".ci", "python",
              "examples")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# The one header of another layer a public header may include: the library's own view of its
# models and parameter blocks, right under `#ifdef BOIDS_INTERNAL`, which only builds of the
# library define (a program built against the installed headers never reads it).
INTERNAL_VIEW = "core/manifest.h"


def layer_of_file(rel):
    """The layer of a file, from its path relative to the source tree (None: not layered)."""
    parts = rel.split("/")
    if rel in ("shaders/boids_shared.h",):
        return "shared"
    if rel == "shaders/boids_draw.h":
        return "draw"
    if parts[0] == "bench":
        return "bench"
    if parts[0] != "src":
        return None
    if len(parts) == 2:
        return "public" if re.match(r"boids\w*\.h$", parts[1]) else None
    if parts[1] == "models":  # a model's folder: its lines are the API's, its walks the CPU's
        if parts[-1] in ("oracle.c", "oracle.h", "oracle_geometry.c"):
            return "oracle"
        if parts[-1] in ("paper.c", "paper.h", "papers.c"):
            return "paper"
        if len(parts) == 3 or parts[-1] == "model.h":
            return "manifest"
        return {"rules.h": "rules", "walk.c": "cpu"}.get(parts[-1])
    if parts[1] == "app":
        if len(parts) == 3:
            return "app/main" if parts[2] == "main.c" else "app"
        return "app/" + parts[2]
    return parts[1]


def layer_of_include(name, including_rel):
    """The layer of what `#include "name"` in including_rel names, or None where unknown."""
    for candidate in (os.path.join(os.path.dirname(including_rel), name), "src/" + name,
                      "shaders/" + name, "bench/" + name):
        if os.path.exists(os.path.join(ROOT, candidate)):
            return layer_of_file(os.path.normpath(candidate))
    # Generated at build time: the lists in GLSL (cmake/glsl_gen.c), the folders' model.h
    # (cmake/model_folders.cmake).
    if name == "boids_generated.glsl":
        return "public"
    if name == "boids_model_folders.h":
        return "manifest"
    return None


def module(rel):
    """A .c and its .h are one module."""
    return re.sub(r"\.[ch]$", "", rel)


def tracked(dirs):
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others",
                          "--exclude-standard", "--"] + list(dirs),
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return [f for f in out if f and os.path.exists(os.path.join(ROOT, f))]


def check_layers(files, breaches):
    edges = {}
    for rel in files:
        layer = layer_of_file(rel)
        if not rel.endswith((".c", ".h")) or (layer is None and not rel.startswith("src/")):
            continue
        if layer is None:
            breaches.append(f"{rel}: in no layer (tests/check_house.py says which paths are which)")
            continue
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            previous = ""
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    previous = line if line.strip() else previous
                    continue
                target = layer_of_include(m.group(1), rel)
                internal, previous = previous.strip() == "#ifdef BOIDS_INTERNAL", line
                if layer == "public" and m.group(1) == INTERNAL_VIEW and internal:
                    target = "public"
                if target is None:
                    breaches.append(f"{rel}:{number}: includes \"{m.group(1)}\", in no layer")
                elif target != layer and target not in ALLOWED[layer]:
                    breaches.append(f"{rel}:{number}: {layer} may not include {target} "
                                    f"(\"{m.group(1)}\")")
                for candidate in (os.path.join(os.path.dirname(rel), m.group(1)),
                                  "src/" + m.group(1), "bench/" + m.group(1)):
                    if os.path.exists(os.path.join(ROOT, candidate)):
                        a, b = module(rel), module(os.path.normpath(candidate))
                        if a != b:
                            edges.setdefault(a, set()).add(b)
                        break
    return edges


DEFINED = re.compile(r"^(?!static\b)[a-z][\w \*]*?\b(boids_\w+)\(", re.M)
CALLED = re.compile(r"\b(boids_\w+)\s*\(")


def call_edges(files):
    """An edge from each .c file to each other one that defines a function it calls (whatever
    header declares it: a file that calls back into its caller is a circle even where both
    share one header)."""
    texts = {rel: open(os.path.join(ROOT, rel), encoding="utf-8").read()
             for rel in files if rel.endswith(".c")}
    defined_in, edges = {}, {}
    for rel, text in texts.items():
        for m in DEFINED.finditer(text):
            defined_in.setdefault(m.group(1), module(rel))
    for rel, text in texts.items():
        for m in CALLED.finditer(text):
            home = defined_in.get(m.group(1))
            if home and home != module(rel):
                edges.setdefault(module(rel), set()).add(home)
    return edges


def check_circles(edges, breaches, kind="include"):
    """Depth-first search for a path back to where it started."""
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                cycle = path[path.index(nxt):] + [nxt]
                breaches.append(f"{kind} circle: " + " -> ".join(cycle))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])


def functions(text):
    """(name, first line, lines) of every function defined at the top level of a C or GLSL file:
    its body runs from a '{' in column 0 to the next '}' in column 0."""
    lines = text.split("\n")
    found, start, name = [], None, None
    for i, line in enumerate(lines):
        if start is None and line.startswith("{"):
            signature, j = "", i - 1
            while j >= 0 and lines[j].strip() and not lines[j].startswith(("}", "#")) \
                    and not lines[j].rstrip().endswith(";"):
                signature = lines[j] + " " + signature
                if "(" in lines[j] and not lines[j].startswith(" "):
                    break
                j -= 1
            m = re.search(r"(\w+)\s*\(", signature)
            if m and "=" not in signature.split("(")[0]:
                start, name = i, m.group(1)
        elif start is not None and line.startswith("}"):
            found.append((name, start + 1, i - start + 1))
            start = None
    return found


def check_functions(files, breaches):
    for rel in files:
        if not rel.endswith(FUNCTION_SUFFIXES):
            continue
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            for name, line, length in functions(f.read()):
                if length > FUNCTION_LINES:
                    breaches.append(f"{rel}:{line}: {name}() is {length} lines "
                                    f"(at most {FUNCTION_LINES})")


def check_width(breaches):
    for rel in tracked(WIDTH_DIRS) + tracked(["CMakeLists.txt"]):
        if not (rel.endswith(WIDTH_SUFFIXES) or rel == ".ci/run"):
            continue
        with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                if len(line.rstrip("\n")) > COLUMNS:
                    breaches.append(f"{rel}:{number}: {len(line.rstrip())} columns "
                                    f"(at most {COLUMNS})")


def check_models(breaches):
    names = manifest_models()
    if not names:
        breaches.append("src/models: no model found in the manifest's folders")
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    with open(os.path.join(ROOT, "docs/models.md"), encoding="utf-8") as f:
        headings = [h for h in f.read().split("\n") if h.startswith("## ")]
    for name in names:
        if not re.search(r"^\| `" + re.escape(name) + "`", readme, re.M):
            breaches.append(f"README.md: the model table has no row for {name}")
        if not any(re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", h) for h in headings):
            breaches.append(f"docs/models.md: no section (## heading) names {name}")


NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                "seventeen", "eighteen", "nineteen", "twenty"]
# A number, the words that may stand between it and "models" in a total ("ten published
# models"), "models"; a word of any other kind makes it a part ("three Shiffman models").
MODEL_COUNT = re.compile(r"\b(\d+|" + "|".join(NUMBER_WORDS) + r")((?:\s+(?:published|boid|"
                         r"flocking|different|distinct))*)\s+models\b", re.I)
PART = re.compile(r"\b(first|last|other|more|fewer|new|old|older)\s+$", re.I)


def manifest_models():
    """The models of the manifest: the M( rows of every folder's model.h (src/models/list.h)."""
    names = []
    for rel in sorted(tracked(["src/models"])):
        if rel.endswith("/model.h"):
            with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                names += re.findall(r'^\s*M\(\w+, "([\w-]+)"', f.read(), re.M)
    return names


def check_model_counts(breaches):
    count = len(manifest_models())
    docs = ["README.md", "python/README.md"] + sorted(
        "docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    for rel in docs:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            text = f.read()
        for m in MODEL_COUNT.finditer(text):
            if PART.search(text[max(0, m.start() - 20):m.start()]):
                continue
            word = m.group(1).lower()
            said = int(word) if word.isdigit() else NUMBER_WORDS.index(word)
            if said != count:
                line = text.count("\n", 0, m.start()) + 1
                breaches.append(f"{rel}:{line}: \"{' '.join(m.group(0).split())}\" says {said}; "
                                f"the manifest (src/models/*/model.h) has {count} models")


def check_format(breaches):
    files = [f for f in tracked(["src", "bench", "tests", "examples", "cmake"])
             if f.endswith((".c", ".h"))]
    try:
        done = subprocess.run(["clang-format", "--dry-run", "--Werror"] + files, cwd=ROOT,
                              capture_output=True, text=True)
    except FileNotFoundError:
        breaches.append("clang-format is not installed (scripts/install-deps.sh --test)")
        return
    for line in done.stderr.split("\n"):
        if "warning:" in line or "error:" in line:
            breaches.append(line.strip() + " (clang-format -i FILE)")


README_LINES = 300


def check_front_page(breaches):
    """The README is a front page: at most README_LINES lines (depth goes to docs/)."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        n = len(f.read().splitlines())
    if n > README_LINES:
        breaches.append(f"README.md: {n} lines, at most {README_LINES} (move depth to docs/)")


def main():
    global ROOT
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[-1].strip())
    ROOT = os.path.abspath(sys.argv[1])
    files = tracked(CHECKED_DIRS) + ["shaders/boids_shared.h", "shaders/boids_draw.h"]
    function_files = sorted(set(files + tracked(["shaders"])))
    results = {}
    for rule, check in (("layers", lambda b: results.setdefault("edges", check_layers(files, b))),
                        ("circles", lambda b: (check_circles(results["edges"], b),
                                               check_circles(call_edges(files), b, "call"))),
                        ("functions", lambda b: check_functions(function_files, b)),
                        ("width", check_width),
                        ("models", check_models),
                        ("format", check_format),
                        ("model counts", check_model_counts),
                        ("front page", check_front_page)):
        breaches = []
        check(breaches)
        for b in breaches:
            print("FAIL " + b)
        print(("ok   " if not breaches else "FAIL ") + f"{rule}: {len(breaches)} breaches")
        results[rule] = len(breaches)
    sys.exit(1 if any(results.get(r) for r in ("layers", "circles", "functions", "width",
                                                "models", "format", "model counts",
                                                "front page")) else 0)


if __name__ == "__main__":
    main()
