"""boids.experiment(): many runs over seeds and sweeps, by the `boids experiment` program.

The program is $BOIDS_PROGRAM, or the one beside the library (the package's boids/_bin/boids after
`pip install ./python`, the build tree's src/boids, or PREFIX/bin/boids of an install), or `boids`
on PATH. Running it, rather than a second runner here,
gives the command's own bits: the same tables, the same seeds, GPU runs batched as replicas.
"""
import numbers
import os
import shutil
import subprocess
import tempfile

import numpy as np

from . import _lib
from .tables import Table, have_pandas


def _program():
    lib_dir = os.path.dirname(os.path.realpath(_lib.path)) if os.sep in _lib.path else ""
    for candidate in (os.environ.get("BOIDS_PROGRAM"),
                      lib_dir and os.path.join(lib_dir, "boids"),
                      lib_dir and os.path.join(lib_dir, "..", "bin", "boids")):
        if candidate and os.access(candidate, os.X_OK) and os.path.isfile(candidate):
            return candidate
    found = shutil.which("boids")
    if found:
        return found
    raise _lib.Error("PROGRAM_MISSING", "boids.experiment needs the boids program: set "
                     "BOIDS_PROGRAM, or put it on PATH")


def _table(path, frames):
    """A CSV the program wrote, as a pandas frame or a boids.Table."""
    if not os.path.exists(path):
        return None
    if frames:
        import pandas
        return pandas.read_csv(path)
    with open(path, encoding="utf-8") as f:
        header = f.readline().strip().split(",")
        rows = sum(1 for _ in f)
    if rows == 0:
        return np.zeros(0, dtype=[(h, np.float64) for h in header]).view(Table)
    data = np.genfromtxt(path, delimiter=",", names=True, dtype=None, encoding="utf-8")
    return np.atleast_1d(data).view(Table)


class Tables:
    """An experiment's tables: runs (one row a run), events (kit's catches: age, distance),
    metrics (with metrics_every), as numpy record arrays or pandas frames; directory is where
    the program wrote them when out= was given (None otherwise)."""

    def __init__(self, directory, frames):
        self.directory = directory
        self.runs = _table(os.path.join(directory, "runs.csv"), frames)
        self.events = _table(os.path.join(directory, "events.csv"), frames)
        self.metrics = _table(os.path.join(directory, "metrics.csv"), frames)

    def __repr__(self):
        def n(t):
            return 0 if t is None else len(t)
        return (f"<boids experiment: {n(self.runs)} runs, {n(self.events)} events, "
                f"{n(self.metrics)} metrics rows in {self.directory}>")


def _value(v):
    return repr(v) if isinstance(v, float) else str(v)


def _whole(value, name):
    """A whole number as text: 2.7 runs or "3" steps are errors, not 2 or 3."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _lib.Error("ARGUMENT", f"{name}: {value!r} is not a whole number", key=name)
    return str(int(value))


def _options(runs, sweep, backend, jobs, steps, seed, params, metrics_every, count):
    """The command line after `boids experiment SCENARIO`, each argument checked."""
    args = ["--runs", _whole(runs, "runs"), "--backend", _lib.encoded(backend, "backend").decode()]
    for key, values in sweep.items():
        args += ["--sweep", f"{key}=" + ",".join(_value(v) for v in values)]
    for key, value in (params or {}).items():
        args += ["--set", f"{key}={_value(value)}"]
    for flag, value, name in (("--jobs", jobs, "jobs"), ("--steps", steps, "steps"),
                              ("--seed", seed, "seed"),
                              ("--metrics-every", metrics_every, "metrics_every"),
                              ("--boids", count, "count")):
        if value is not None:
            args += [flag, _whole(value, name)]
    for arg in args:
        _lib.encoded(arg, "experiment")
    return args


def _run(cmd):
    """Runs the program; its refusal or failure raises boids.Error with its own last line."""
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        lines = [l for l in done.stderr.splitlines() if l.strip()]
        message = lines[-1] if lines else f"exit status {done.returncode}"
        if message.startswith("boids: "):
            message = message[len("boids: "):]
        raise _lib.Error("EXPERIMENT", message)


def experiment(scenario, runs=1, sweep=None, backend="auto", jobs=None, steps=None, seed=None,
               params=None, metrics_every=None, count=None, out=None, frames=None):
    """Runs `boids experiment SCENARIO` and returns its tables (Tables).

    scenario       a scenario file or an installed preset's name ("kit")
    runs           runs per combination of the sweeps; run k has seed seed + k
    sweep          {parameter: [values]} (every combination, the first varying slowest)
    params         {parameter: value} over the scenario, as --set
    metrics_every  steps between rows of the metrics table (None: no metrics table)
    out            a directory for the tables (kept); None: a temporary one, removed
    frames         pandas DataFrames (default: where pandas is installed) or boids.Tables
    Raises boids.Error with the program's message when it refuses or fails."""
    if frames is None:
        frames = have_pandas()
    scenario = str(scenario)
    if scenario.startswith("-"):  # once a bare word in argv: "--help" returned empty tables
        scenario = os.path.join(os.curdir, scenario)
    _lib.encoded(scenario, "scenario")
    sweep = {key: list(values) for key, values in (sweep or {}).items()}
    options = _options(runs, sweep, backend, jobs, steps, seed, params, metrics_every, count)
    program = _program()
    temp = None if out is not None else tempfile.mkdtemp(prefix="boids-experiment-")
    directory = out if out is not None else os.path.join(temp, "tables")
    try:
        _run([program, "experiment", scenario, *options, "--out", directory])
        tables = Tables(directory, frames)
        if temp is not None:
            tables.directory = None  # removed below: the tables are in memory
        return tables
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
