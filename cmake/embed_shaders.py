#!/usr/bin/env python3
"""Embed GLSL shaders into the binary as C strings.

Each top-level shader (given on the command line, or every *.comp of a directory given there) is
expanded: `#include "file"` is replaced by that file's text, recursively, found next to the
including file or else in the include directories, with `#line` directives so that a
driver's error message points at the right file and line. GLSL #line takes a source-string
number, not a name, so every file gets a number and the legend that maps numbers back to file
names is embedded next to the source (the loader prints it with any info log).

`#include <...>` lines (the C side of the shared C/GLSL header) are blanked: they are never GLSL.
A missing include or an include cycle is a hard error.

Usage: embed_shaders.py OUT_C OUT_DIR INCLUDE_DIRS SHADER_OR_DIR [SHADER_OR_DIR...]
  OUT_C         generated C file with boids_shader_embedded() and boids_shader_include()
  OUT_DIR       where the expanded sources are also written (glslangValidator checks them)
  INCLUDE_DIRS  directories searched for includes, separated by ';' (the shaders' own and the
                generated ones: cmake/glsl_gen.c writes its output there)
"""
import os
import re
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$')
SYSTEM_INCLUDE_RE = re.compile(r'^\s*#\s*include\s+<[^>]+>\s*$')
VERSION_RE = re.compile(r'^\s*#\s*version\b')


INCLUDE_DIRS = []


def find_include(name, including):
    """The file an #include names: next to the including file, else in INCLUDE_DIRS."""
    for d in [os.path.dirname(including)] + INCLUDE_DIRS:
        candidate = os.path.join(d, name)
        if os.path.isfile(candidate):
            return candidate
    return os.path.join(os.path.dirname(including), name)  # reported missing by expand()


def include_key(path):
    """An included file's name as an #include names it: its path within the include directory
    that holds it (the deepest, where one lies within another)."""
    best = None
    for d in INCLUDE_DIRS:
        rel = os.path.relpath(path, os.path.normpath(d))
        if not rel.startswith(".." + os.sep) and (best is None or len(rel) < len(best)):
            best = rel
    return best if best is not None else os.path.basename(path)


def expand(path, files, stack):
    """Return the expanded lines of `path`; `files` maps path -> source-string number."""
    path = os.path.normpath(path)
    if path in stack:
        raise SystemExit("embed_shaders: include cycle: " + " -> ".join(stack + [path]))
    if not os.path.isfile(path):
        where = stack[-1] if stack else "command line"
        raise SystemExit(f"embed_shaders: {where}: cannot find include '{path}'")
    if path not in files:
        files[path] = len(files)
    num = files[path]
    out = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for lineno, line in enumerate(lines, start=1):
        m = INCLUDE_RE.match(line)
        if m:
            inc = find_include(m.group(1), path)
            out.extend(expand(inc, files, stack + [path]))
            out.append(f"#line {lineno + 1} {num}")
        elif SYSTEM_INCLUDE_RE.match(line):
            out.append("")
        elif VERSION_RE.match(line):
            # #version must be the first line of the final string; main() hoists it.
            out.append(line)
        else:
            out.append(line)
    return [f"#line 1 {num}"] + out


def c_string(text):
    out = []
    for line in text.split("\n"):
        esc = line.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'    "{esc}\\n"')
    return "\n".join(out)


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    out_c, out_dir = sys.argv[1], sys.argv[2]
    INCLUDE_DIRS.extend(d for d in sys.argv[3].split(";") if d)
    tops = []
    for arg in sys.argv[4:]:
        if os.path.isdir(arg):
            tops.extend(sorted(os.path.join(arg, f) for f in os.listdir(arg)
                               if f.endswith(".comp")))
        else:
            tops.append(arg)
    os.makedirs(out_dir, exist_ok=True)
    for old in os.listdir(out_dir):  # a shader that is gone must not linger in the checks
        os.remove(os.path.join(out_dir, old))
    entries = []
    included = {}
    for top in tops:
        files = {}
        lines = expand(top, files, [])
        version = [l for l in lines if VERSION_RE.match(l)]
        if len(version) != 1:
            raise SystemExit(f"embed_shaders: {top}: needs exactly one #version line")
        body = [l if not VERSION_RE.match(l) else "" for l in lines]
        text = "\n".join([version[0].strip()] + body) + "\n"
        legend = "; ".join(f"{n} = {os.path.basename(p)}" for p, n in files.items())
        name = os.path.basename(top)
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(text)
        entries.append((name, text, legend))
        for p in files:
            if p != os.path.normpath(top):
                included[include_key(p)] = p

    with open(out_c + ".tmp", "w", encoding="utf-8") as f:
        f.write("/* Generated by cmake/embed_shaders.py; do not edit. */\n")
        f.write("#include <string.h>\n#include \"gl/shader_sources.h\"\n\n")
        f.write("static const boids_shader_source sources[] = {\n")
        for name, text, legend in entries:
            f.write(f'  {{"{name}", "{legend}",\n{c_string(text)}}},\n')
        f.write("};\n\n")
        f.write("const boids_shader_source *boids_shader_embedded(const char *name)\n{\n")
        f.write("    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; ++i)\n")
        f.write("        if (strcmp(sources[i].name, name) == 0) return &sources[i];\n")
        f.write("    return NULL;\n}\n\n")
        f.write("static const boids_shader_source includes[] = {\n")
        for key in sorted(included):
            with open(included[key], encoding="utf-8") as inc:
                f.write(f'  {{"{key}", "",\n{c_string(inc.read().rstrip(chr(10)))}}},\n')
        f.write("};\n\n")
        f.write("const boids_shader_source *boids_shader_include(const char *name)\n{\n")
        f.write("    for (size_t i = 0; i < sizeof includes / sizeof includes[0]; ++i)\n")
        f.write("        if (strcmp(includes[i].name, name) == 0) return &includes[i];\n")
        f.write("    return NULL;\n}\n")
    os.replace(out_c + ".tmp", out_c)


if __name__ == "__main__":
    main()
