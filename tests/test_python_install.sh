#!/usr/bin/env bash
# The Python package as a researcher installs it: a virtual environment that sees Debian's numpy
# (python3 -m venv --system-site-packages) and `pip install --no-build-isolation` of python/ (a
# copy: pip builds in the folder it is given), which carries this build's library and program;
# no network (--no-index). Then, from outside the source tree, with no PYTHONPATH, BOIDS_LIBRARY
# or BOIDS_PROGRAM: `import boids` loads the library inside the environment, boids.experiment runs
# the program inside it, World.run gives its table, and both examples draw their figures. A
# package asked for without a build is refused, naming what is missing.
# usage: test_python_install.sh SOURCE_DIR BUILD_DIR
source "$(dirname "$0")/lib.sh"
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
py=/usr/bin/python3
if ! "$py" -c "import venv, ensurepip, numpy, matplotlib, pandas, setuptools" 2>/dev/null; then
  bad "$py lacks venv, pip, numpy, matplotlib, pandas or setuptools (scripts/install-deps.sh)"
  finish
  exit
fi
unset PYTHONPATH BOIDS_LIBRARY BOIDS_PROGRAM
mkdir -p "$tmp/repo/src" "$tmp/elsewhere"
cp -r "$src/python" "$tmp/repo/"
cp "$src/src/boids.h" "$tmp/repo/src/"
rm -rf "$tmp/repo/python/build" "$tmp/repo/python/"*.egg-info
"$py" -m venv --system-site-packages "$tmp/env" >"$tmp/venv.out" 2>&1 ||
  bad "venv: $(tail -3 "$tmp/venv.out")"
pip=("$tmp/env/bin/python" -m pip install -q --no-build-isolation --no-index)
BOIDS_BUILD_DIR=$tmp/nowhere "${pip[@]}" "$tmp/repo/python" >"$tmp/none.out" 2>&1
grep -q "there is none at $tmp/nowhere/src/libboids.so.0" "$tmp/none.out" &&
  ok "without a build, pip install says which files are missing" ||
  bad "install without a build: $(tail -3 "$tmp/none.out")"
if BOIDS_BUILD_DIR=$build "${pip[@]}" "$tmp/repo/python" >"$tmp/pip.out" 2>&1; then
  ok "pip install --no-build-isolation into a venv with the system's packages"
else
  bad "pip install: $(tail -5 "$tmp/pip.out")"
  finish
  exit
fi
cd "$tmp/elsewhere" || exit 1
"$tmp/env/bin/python" - "$tmp/env" >"$tmp/use.out" 2>&1 <<'PY'
import sys, importlib
import boids
env = sys.argv[1]
assert boids.library_path.startswith(env), boids.library_path
program = importlib.import_module("boids.experiment")._program()
assert program.startswith(env), program
print("library", boids.library_path)
print("program", program)
w = boids.World(count=500, backend="cpu", seed=3)
t = w.run(25, every=10)
assert list(t["step"]) == [0, 10, 20, 25] and list(t.columns[:3]) == ["step", "time", "replica"]
assert abs(t.time[1] - 10 * w.info["dt"]) < 1e-9 and (t.alive == 500).all()
tables = boids.experiment("kit", runs=2, steps=50, backend="cpu")
assert len(tables.runs) == 2, tables
print("run and experiment ok")
PY
[ $? = 0 ] &&
  ok "outside the tree: the environment's library and program, World.run, boids.experiment" ||
  bad "the installed package: $(tail -5 "$tmp/use.out")"
examples=$src/python/examples
"$tmp/env/bin/python" "$examples/kit_ages.py" 4 "$tmp/ages.png" cpu >"$tmp/ex1.out" 2>&1 &&
  "$tmp/env/bin/python" "$examples/flock_polarization.py" 2000 60 "$tmp/pol.png" cpu \
    >"$tmp/ex2.out" 2>&1 &&
  [ "$(head -c 4 "$tmp/ages.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] &&
  [ "$(head -c 4 "$tmp/pol.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] &&
  ok "both examples run from the installed package and draw their PNGs" ||
  bad "examples: $(tail -3 "$tmp/ex1.out" "$tmp/ex2.out")"
finish
