"""boids.experiment(): many runs over seeds and sweeps, by the `boids experiment` program.

The program is $BOIDS_PROGRAM, or the one beside the library (the package's boids/_bin/boids after
`pip install ./python`, the build tree's src/boids, or PREFIX/bin/boids of an install), or `boids`
on PATH. Running it, rather than a second runner here,
gives the command's own bits: the same tables, the same seeds, GPU runs batched as replicas.

With an executor (a process pool, a dask.distributed Client, mpi4py.futures' MPIPoolExecutor),
the runs are split into shards: each is a call of run_shard on a worker, which runs
`boids experiment ... --shard I/K` there (the program found by the same rules, on that machine)
and hands back the shard's files; `boids experiment-merge` joins them here, byte for byte the
tables of one local run.
"""
import functools
import inspect
import math
import numbers
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import uuid

import numpy as np

from . import _lib
from .tables import Table, have_pandas


def _program():
    given = os.environ.get("BOIDS_PROGRAM")
    if given:  # the one asked for, or an error naming it: never another one in its place
        if os.access(given, os.X_OK) and os.path.isfile(given):
            return given
        raise _lib.Error("PROGRAM_MISSING", f"BOIDS_PROGRAM={given} is not a program (unset it "
                         "to take the one beside the library, or boids on PATH)")
    lib_dir = os.path.dirname(os.path.realpath(_lib.path)) if os.sep in _lib.path else ""
    for candidate in (lib_dir and os.path.join(lib_dir, "boids"),
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
    metrics (with metrics_every; with field, its rows and the runs' have xi, xi_speed, n_c and
    diameter too), as numpy record arrays or pandas frames; directory is where the program wrote
    them when out= was given (None otherwise)."""

    def __init__(self, directory, frames):
        self.directory = directory
        self.runs = _table(os.path.join(directory, "runs.csv"), frames)
        self.events = _table(os.path.join(directory, "events.csv"), frames)
        self.metrics = _table(os.path.join(directory, "metrics.csv"), frames)

    def __repr__(self):
        def n(t):
            return 0 if t is None else len(t)
        # (no metrics table: "no metrics" rather than 0 rows; no out=: no directory, rather than
        # "in None")
        metrics = "no metrics" if self.metrics is None else f"{n(self.metrics)} metrics rows"
        where = f" in {self.directory}" if self.directory else ""
        return (f"<boids experiment: {n(self.runs)} runs, {n(self.events)} events, "
                f"{metrics}{where}>")


def _value(v):
    return repr(v) if isinstance(v, float) else str(v)


def _whole(value, name):
    """A whole number as text: 2.7 runs or "3" steps are errors, not 2 or 3."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _lib.Error("ARGUMENT", f"{name}: {value!r} is not a whole number", key=name)
    return str(int(value))


def _field(field):
    """field= as --field's R[,BINS[,RANKS]][,FLOCK][,from:X]: r_max (px), or (r_max, bins[,
    ranks]), then "replica", "swarm" or "group" and "from:X" (xi from X px on) where given."""
    parts = list(field) if isinstance(field, (tuple, list)) else [field]
    words = []
    while len(parts) > 1 and isinstance(parts[-1], str):
        words.insert(0, parts.pop())
    fine = all(w in ("replica", "swarm", "group") or _from_ok(w) for w in words)
    if not 1 <= len(parts) <= 3 or isinstance(parts[0], bool) or len(words) > 2 \
            or not isinstance(parts[0], numbers.Real) or not fine:
        raise _lib.Error("ARGUMENT", f"field: {field!r} is not r_max or (r_max, bins[, ranks]"
                         "[, flock][, 'from:X'])", key="field")
    return ",".join([_value(float(parts[0]))] + [_whole(p, "field") for p in parts[1:]] + words)


def _from_ok(word):
    """Whether word is "from:X" with X a distance >= 0."""
    try:
        return word.startswith("from:") and 0 <= float(word[5:]) < math.inf
    except ValueError:
        return False


def _options(runs, sweep, backend, jobs, steps, seed, params, metrics_every, count, field=None):
    """The command line after `boids experiment SCENARIO`, each argument checked."""
    args = ["--runs", _whole(runs, "runs"), "--backend", _lib.encoded(backend, "backend").decode()]
    for key, values in sweep.items():
        texts = [_value(v) for v in values]
        for text in texts:  # --sweep's own syntax inside one value: it split into several
            if "," in text or (":" in text and key != "neighbours"):
                raise _lib.Error("ARGUMENT", f"sweep: {key}'s value {text!r} holds a "
                                 f"{',' if ',' in text else ':'}, which --sweep would read as "
                                 "several values: give each value as an item of the list "
                                 "(numpy.linspace for a range)", key=key)
        args += ["--sweep", f"{key}=" + ",".join(texts)]
    for key, value in (params or {}).items():
        args += ["--set", f"{key}={_value(value)}"]
    for flag, value, name in (("--jobs", jobs, "jobs"), ("--steps", steps, "steps"),
                              ("--seed", seed, "seed"),
                              ("--metrics-every", metrics_every, "metrics_every"),
                              ("--boids", count, "count")):
        if value is not None:
            args += [flag, _whole(value, name)]
    if field is not None:
        args += ["--field", _field(field)]
    for arg in args:
        _lib.encoded(arg, "experiment")
    return args


STOP_WAIT = 5.0  # seconds a program is given to stop as it does after Ctrl-C (it takes about 1)
# what the program exits with when a signal stopped it (128 + N), or Popen's -N when one killed it
_SIGNALLED = {128 + s for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}


def _model_path(folders=None):
    """BOIDS_MODEL_PATH for a program: the model folders given, else those this process loaded
    (boids.load_model), before any the environment names."""
    folders = list(_lib.loaded_folders if folders is None else folders)
    if os.environ.get("BOIDS_MODEL_PATH"):
        folders.append(os.environ["BOIDS_MODEL_PATH"])
    return ":".join(folders)


def _model_files(folder):
    """A model folder's files, {name: bytes}: what a worker writes into a folder of its own."""
    return os.path.basename(folder), _files(folder)


def _run(cmd, interrupted=None, models=None):
    """Runs the program; its refusal or failure raises boids.Error with its own last line, and a
    signal's end the id INTERRUPTED with the message `interrupted` where given (the program's
    names a directory to resume, which a temporary one will not be). The program stops with
    this process (BOIDS_PARENT_PID: a worker killed outright leaves none running). On
    KeyboardInterrupt the program is sent SIGINT too (a terminal's Ctrl-C has reached it
    already: the two are one) and given STOP_WAIT seconds to stop as it does, keeping its
    finished runs, before the KeyboardInterrupt goes on."""
    env = dict(os.environ, BOIDS_PARENT_PID=str(os.getpid()))
    path = _model_path(models)
    if path:
        env["BOIDS_MODEL_PATH"] = path
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env) as p:
        try:
            _, err = p.communicate()
        except KeyboardInterrupt:
            p.send_signal(signal.SIGINT)
            try:
                p.communicate(timeout=STOP_WAIT)
            except subprocess.TimeoutExpired:
                p.kill()
            raise
    if p.returncode != 0:
        lines = [l for l in err.splitlines() if l.strip()]
        message = lines[-1] if lines else f"exit status {p.returncode}"
        if message.startswith("boids: "):
            message = message[len("boids: "):]
        signalled = p.returncode in _SIGNALLED or p.returncode < 0
        if signalled and interrupted is not None:
            message = interrupted
        raise _lib.Error("INTERRUPTED" if signalled else "EXPERIMENT", message)


def _files(directory):
    """A directory's files as {name: bytes} (not its .lock)."""
    out = {}
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not name.startswith(".") and os.path.isfile(path):
            with open(path, "rb") as f:
                out[name] = f.read()
    return out


def _temp_dir(kind):
    """A new temporary directory boids-KIND-PID-XXXX, after removing those of its kind whose
    process has ended (a worker killed outright cannot remove its own)."""
    base = tempfile.gettempdir()
    for name in os.listdir(base):
        m = re.fullmatch(rf"boids-{kind}-(\d+)-\w+", name)
        if not m or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            shutil.rmtree(os.path.join(base, name), ignore_errors=True)
        except OSError:  # another user's process: alive
            pass
    return tempfile.mkdtemp(prefix=f"boids-{kind}-{os.getpid()}-", dir=base)


_interrupted = set()  # the experiments a signal interrupted in this process (run_shard's ids)


def run_shard(scenario, scenario_text, options, shard, shards, experiment=None, models=None):
    """Shard `shard` of `shards` (1 <= shard <= shards) of an experiment, on the machine that
    calls it (an executor's worker): runs `boids experiment SCENARIO OPTIONS --shard
    SHARD/SHARDS` into a temporary directory and returns its files, {name: bytes}, so that the
    worker and its client need no shared disk. scenario_text, when not None, is the scenario
    file's bytes, written to a temporary file named as scenario; else scenario is a preset's
    name or a path on this machine. Raises boids.Error with the program's last line.
    experiment: an id shared by the experiment's shards; once a signal (Ctrl-C) has interrupted
    one of them in this process, the others that reach it do not start (a process pool hands
    its workers a call ahead, which the client can no longer cancel) but raise INTERRUPTED.
    models: the model folders the client loaded (boids.load_model), as (name, {file: bytes})
    pairs, written into folders of the shard's own, which the program loads."""
    where = f"shard {shard}/{shards} on {socket.gethostname()}"
    if experiment is not None and experiment in _interrupted:
        raise _lib.Error("INTERRUPTED", f"{where}: not started: the experiment was interrupted")
    temp = _temp_dir("shard")
    try:
        name = scenario
        if scenario_text is not None:
            scenario = os.path.join(temp, os.path.basename(scenario) or "scenario.ini")
            with open(scenario, "wb") as f:
                f.write(scenario_text)
        folders = []
        for folder, files in models or ():
            folders.append(os.path.join(temp, "models", folder))
            os.makedirs(folders[-1])
            for file, data in files.items():
                with open(os.path.join(folders[-1], os.path.basename(file)), "wb") as f:
                    f.write(data)
        out = os.path.join(temp, "shard")
        try:
            _run([_program(), "experiment", scenario, *options, "--shard", f"{shard}/{shards}",
                  "--out", out], interrupted=f"{where}: interrupted (a shard is run whole "
                  "again: nothing of it is kept)", models=folders)
        except KeyboardInterrupt:
            _interrupted.add(experiment)
            raise
        except _lib.Error as e:  # the client's name for the scenario, not this temporary one
            if e.id == "INTERRUPTED":
                _interrupted.add(experiment)
            message = e.message.replace(scenario, name)
            raise _lib.Error(e.id, message, detail=f"{where}: {message}") from None
        return _files(out)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def _results(futures):
    """The futures' results, in order; the first failure, in the order they end, raises."""
    if not all(hasattr(f, "add_done_callback") for f in futures):
        return [f.result() for f in futures]
    ended = queue.Queue()
    for k, f in enumerate(futures):
        f.add_done_callback(lambda _, k=k: ended.put(k))
    results = [None] * len(futures)
    for _ in futures:
        k = ended.get()
        results[k] = futures[k].result()
    return results


def _submit(executor):
    """executor.submit, with pure=False where it takes that: a dask Client takes equal calls for
    one task, and a rerun just after a cancel (a failed shard, Ctrl-C) met the cancelled one."""
    try:
        pure = "pure" in inspect.signature(executor.submit).parameters
    except (TypeError, ValueError):  # a submit that does not say
        pure = False
    return functools.partial(executor.submit, pure=False) if pure else executor.submit


def _sharded(executor, program, scenario, options, shards, directory):
    """The experiment as `shards` tasks of the executor, merged into directory."""
    text = None
    if os.path.isfile(scenario):  # shipped: a remote worker may not see this disk
        with open(scenario, "rb") as f:
            text = f.read()
    submit, futures, experiment = _submit(executor), [], uuid.uuid4().hex
    models = [_model_files(folder) for folder in _lib.loaded_folders] or None
    try:
        for shard in range(1, shards + 1):
            futures.append(submit(run_shard, scenario, text, options, shard, shards, experiment,
                                  models))
        results = _results(futures)
    except BaseException:  # a failed shard, Ctrl-C: the others are not waited for
        for f in futures:
            f.cancel()
        raise
    temp = _temp_dir("shards")
    try:
        parts = []
        for shard, files in enumerate(results, 1):
            parts.append(os.path.join(temp, str(shard)))
            os.mkdir(parts[-1])
            for name, data in files.items():
                with open(os.path.join(parts[-1], os.path.basename(name)), "wb") as f:
                    f.write(data)
        _run([program, "experiment-merge", directory, *parts])
    finally:
        shutil.rmtree(temp, ignore_errors=True)


MAX_SHARDS = 64  # the default's cap: tasks enough to balance a few dozen workers


def _shard_count(shards, runs, sweep):
    if shards is None:
        total = int(runs)
        for values in sweep.values():
            total *= len(values)
        return max(1, min(total, MAX_SHARDS))
    _whole(shards, "shards")
    if not 1 <= shards <= 1000000:
        raise _lib.Error("ARGUMENT", f"shards: {shards} is not in [1, 1000000]", key="shards")
    return int(shards)


def _check_out(out):
    """out as the merge will take it: new or empty (checked before any shard runs)."""
    if os.path.isdir(out) and not os.listdir(out):
        return
    if os.path.lexists(out):
        raise _lib.Error("ARGUMENT", f"out: {out}: exists, and is not an empty directory "
                         f"(an experiment needs a new or empty one)", key="out")
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise _lib.Error("ARGUMENT", f"out: {out}: no directory {parent} to make it in",
                         key="out")


def experiment(scenario, runs=1, sweep=None, backend="auto", jobs=None, steps=None, seed=None,
               params=None, metrics_every=None, count=None, out=None, frames=None,
               executor=None, shards=None, field=None):
    """Runs `boids experiment SCENARIO` and returns its tables (Tables).

    scenario       a scenario file or an installed preset's name ("kit")
    runs           runs per combination of the sweeps; run k has seed seed + k
    sweep          {parameter: [values]} (every combination, the first varying slowest)
    params         {parameter: value} over the scenario, as --set
    metrics_every  steps between rows of the metrics table (None: no metrics table)
    field          the field measures xi, xi_speed, n_c and diameter (World.field()) as
                   columns of the metrics and runs tables (--field; needs metrics_every): r_max
                   in px (0: half the world's shortest side), or (r_max, bins[, ranks][, flock]
                   [, "from:X"]), flock "replica", "swarm" or "group" (World.field()'s), xi from
                   X px on (World.field()'s xi_from); None: none
    jobs           runs at once on the CPU backend (--jobs): without an executor, one
                   `boids experiment` process runs them on its own pool of `jobs` threads
                   (default one per core), the local pool; with one, each shard's (default 1)
    out            a directory for the tables (kept); None: a temporary one, removed
    frames         pandas DataFrames (default: where pandas is installed) or boids.Tables
    executor       None: the local pool above; else any concurrent.futures.Executor-like
                   object (.submit(fn, *args) returning a future with .result()): a
                   ProcessPoolExecutor, a dask.distributed Client, mpi4py.futures'
                   MPIPoolExecutor. The runs are split into `shards` tasks, each a call of
                   run_shard that runs `boids experiment ... --shard I/K` on its worker (which
                   needs this package and the program, not this machine's disk: a scenario
                   file is sent as its text) and returns its files; `boids experiment-merge`
                   joins them here, byte for byte the tables of a local run.
    shards         the number of tasks (with an executor only): default the total number of
                   runs (runs x each sweep's length), at most MAX_SHARDS (64); more balance
                   more workers, each costs a start of the program (about 0.1 s). On the GPU
                   backend a shard's runs of a combination are one world's replicas: fewer,
                   larger shards batch more.
    Raises boids.Error with the program's message when it refuses or fails (a shard's: the
    first to fail, the others cancelled where the executor can)."""
    if frames is None:
        frames = have_pandas()
    scenario = str(scenario)
    if scenario.startswith("-"):  # once a bare word in argv: "--help" returned empty tables
        scenario = os.path.join(os.curdir, scenario)
    _lib.encoded(scenario, "scenario")
    sweep = {key: list(values) for key, values in (sweep or {}).items()}
    if executor is None and shards is not None:
        raise _lib.Error("ARGUMENT", "shards: only with an executor (the local run is one "
                         "process)", key="shards")
    if executor is not None and jobs is None:
        jobs = 1  # the executor is the pool
    options = _options(runs, sweep, backend, jobs, steps, seed, params, metrics_every, count,
                       field)
    program = _program()
    if executor is not None:
        shards = _shard_count(shards, runs, sweep)
        if out is not None:
            _check_out(out)
    temp = None if out is not None else _temp_dir("experiment")
    directory = out if out is not None else os.path.join(temp, "tables")
    try:
        if executor is None:  # (a temporary directory's resume is no use: it is removed)
            _run([program, "experiment", scenario, *options, "--out", directory],
                 interrupted=None if temp is None else "interrupted: nothing kept (with out=DIR "
                 "the finished runs are kept, and `boids experiment --resume DIR` runs the "
                 "rest)")
        else:
            _sharded(executor, program, scenario, options, shards, directory)
        if not os.path.isfile(os.path.join(directory, "runs.csv")):  # (were empty Tables)
            raise _lib.Error("EXPERIMENT", f"{program} exited 0 but wrote no runs.csv: is it "
                             "boids (BOIDS_PROGRAM)?")
        tables = Tables(directory, frames)
        if temp is not None:
            tables.directory = None  # removed below: the tables are in memory
        return tables
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
