#!/usr/bin/env bash
# The Python package's tests (python/tests, pytest) against this build's library and program,
# with the first python3 that has numpy and pytest: Debian's /usr/bin/python3 (what
# scripts/install-deps.sh --test installs them for), else the one on PATH. Another interpreter on
# PATH (pyenv's, a venv's) may lack them, so none is assumed.
# BOIDS_GPU_EXACT (gpu_info exact: 1 where the driver rounds as IEEE does) makes the backends'
# agreement bitwise there.
# usage: test_python.sh SOURCE_DIR libboids.so boids png_diff gpu_info (paths)
src=$1
export BOIDS_LIBRARY=$2 BOIDS_PROGRAM=$3 BOIDS_PNG_DIFF=$4
BOIDS_GPU_EXACT=$("$5" exact 2>/dev/null) || BOIDS_GPU_EXACT=0
export BOIDS_GPU_EXACT
export PYTHONPATH=$1/python${PYTHONPATH:+:$PYTHONPATH}
for py in /usr/bin/python3 "$(command -v python3)"; do
  [ -x "$py" ] && "$py" -c "import numpy, pytest, matplotlib, pandas" 2>/dev/null && break
  py=
done
if [ -z "$py" ]; then
  echo "FAIL no python3 with numpy, pytest, matplotlib, pandas (scripts/install-deps.sh --test)"
  exit 1
fi
echo "python: $py ($("$py" --version 2>&1))"
exec "$py" -m pytest -q -p no:cacheprovider "$src/python/tests"
