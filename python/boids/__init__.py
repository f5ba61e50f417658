"""boids from Python: the flocking simulator's library (libboids) with numpy arrays.

    import boids
    with boids.World(model="kit", count=100_000, backend="gpu", seed=7) as w:
        w.step(300)
        s = w.state()                  # dict of numpy arrays, in id order: x, y, vx, vy, swarm,
                                       # and the model's attributes (kit: age, alive)
        print(w.metrics()["polarization"][0], w.params["c_maxspeed"])
        w.save_png("kit.png")          # the picture; a notebook shows a World as one

Everything goes through the C library: the models, their parameters and range checks, the
backends (the GPU through OpenGL 4.3, or the CPU reference). Errors raise boids.Error with the
library's stable error id, key, file and line. boids.experiment() runs `boids experiment` and
returns its tables, locally or as shards on an executor (a process pool, dask, MPI).
"""
import contextlib
import ctypes
import math
import numbers
import os
import sys
import tempfile
import threading
import warnings

import numpy as np

from . import _lib
from ._lib import Error
from .tables import Row, Table, named
from .experiment import experiment

__all__ = ["World", "Error", "CostWarning", "experiment", "models", "model_params", "load_model",
           "EVENT_TOOL", "EVENT_CATCH", "library_path", "Table", "Row"]

EVENT_TOOL, EVENT_CATCH = 1, 2


class CostWarning(UserWarning):
    """A world whose radii reach most of it: a step costs far more than its size suggests."""
library_path = _lib.path
# A call of fewer neighbour checks than this (a few milliseconds) runs on the calling thread.
_LONG_CALL = 1 << 22
_FIXED = {"x": np.float32, "y": np.float32, "vx": np.float32, "vy": np.float32,
          "swarm": np.uint32}


def _model_index(name):
    for i in range(_lib.lib.boids_model_count()):
        if _lib.text(_lib.lib.boids_model_name(i)) == name:
            return i
    raise Error("MODEL_UNKNOWN", f"unknown model {name!r} (boids.models() lists them)",
                key="model")


def load_model(path):
    """Loads the model folder at path (model.h, rules.h: docs/writing-a-model.md) into this
    process, with no rebuild: its CPU rules compiled by the system's C compiler (cached in the
    user's ~/.cache/boids/models), its GPU program from the same rules.h. Returns the names of
    its models (a folder may hold several), which World and model_params then take like the
    built-in ones, and experiment in a scenario file (model = NAME); an experiment's program, and
    its shards on an executor's workers (the folder's files travel with them), load it too. Says
    on stderr what it did and how long it took. Loading a folder again returns the same names;
    an error raises boids.Error naming the folder's file and line (the compiler's whole messages
    go to stderr)."""
    info = _lib.ModelLoadInfo()
    _lib.check(_lib.lib.boids_model_load(os.fsencode(path), ctypes.byref(info)))
    names = [_lib.text(_lib.lib.boids_model_name(info.first + k)) for k in range(info.models)]
    folder = os.path.realpath(path)
    if folder not in _lib.loaded_folders:
        _lib.loaded_folders.append(folder)
    if info.object:
        how = "compiled" if info.compiled else "from the cache"
        print(f"boids: loaded model {', '.join(names)} from {path}: {how} in "
              f"{info.seconds:.2f} s ({_lib.text(info.object)})", file=sys.stderr)
    return names


def models():
    """The models' names, in the manifest's order (then those loaded: load_model)."""
    return [_lib.text(_lib.lib.boids_model_name(i)) for i in range(_lib.lib.boids_model_count())]


def model_params(model):
    """The model's parameters, in table order: name -> dict(unit, min, max, default,
    description); default is the model's (its preset's value where it sets one)."""
    m = _model_index(model)
    n = ctypes.c_size_t()
    table = _lib.lib.boids_model_params(m, ctypes.byref(n))
    out = {}
    for k in range(n.value):
        p = table[k]
        d = ctypes.c_float()
        _lib.check(_lib.lib.boids_model_param_default(m, p.name, ctypes.byref(d)))
        out[_lib.text(p.name)] = {"unit": _lib.text(p.unit), "min": p.min, "max": p.max,
                                  "default": d.value, "description": _lib.text(p.description)}
    return out


def _attributes(model_index):
    """The model's attributes: name -> numpy dtype."""
    bits = _lib.lib.boids_model_attributes(model_index)
    out = {}
    for a in range(_lib.lib.boids_attribute_count()):
        if bits & (1 << a):
            info = _lib.lib.boids_attribute_info_of(a).contents
            out[_lib.text(info.name)] = np.uint32 if info.is_uint else np.float32
    return out


def _setting(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (tuple, list)) and len(value) in (2, 3):  # a world: WxH or WxHxD
        return "x".join(repr(v) for v in value)
    return str(value)


def _side(v, name):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 1 <= v <= 16384:
        raise Error("ARGUMENT", f"{name}: {v!r} is not a whole number in [1, 16384]", key=name)
    return int(v)


def _obstacle_text(i, o):
    """Obstacle i as the command line takes it: its text "x,y,r" or "x,y,z,r", or a sequence
    of those numbers."""
    if isinstance(o, str):
        return o
    parts = list(o) if isinstance(o, (tuple, list, np.ndarray)) else []
    if len(parts) not in (3, 4) or not all(isinstance(c, numbers.Real) and not isinstance(c, bool)
                                           for c in parts):
        raise Error("ARGUMENT", f"obstacles[{i}]: {o!r} is not (x, y, r), (x, y, z, r) or such "
                    f"a text, 'x,y,r'", key="obstacles")
    return ",".join(repr(float(c)) for c in parts)


# The world's own settings as a scenario file names them, and World's argument for each: never a
# model's parameter (core/options.h's BOIDS_WORLD_SETTINGS, with backend and threads).
_WORLD_KEYS = {k: f"World({v}=...)" for k, v in {
    "model": "model", "boids": "count", "count": "count", "swarms": "swarms", "world": "world",
    "dims": "dims", "dt": "dt", "seed": "seed", "layout": "layout", "neighbours": "neighbours",
    "cell_size": "cell_size", "obstacle": "obstacles", "obstacles": "obstacles",
    "backend": "backend", "threads": "threads"}.items()}
_WORLD_KEYS["steps"] = "step(steps) or run(steps)"


class Params:
    """A world's parameters by their --set names: read, and set with the same checks."""

    def __init__(self, world):
        self._world = world

    def keys(self):
        return list(model_params(self._world.model))

    def __iter__(self):
        return iter(self.keys())

    def __len__(self):
        return len(self.keys())

    def __contains__(self, key):
        return key in self.keys()

    def __getitem__(self, key):
        out = ctypes.c_float()
        _lib.check(self._world._call(_lib.lib.boids_world_get_param,
                                     _lib.encoded(key, "parameter"), ctypes.byref(out)))
        return out.value

    def __setitem__(self, key, value):
        _lib.check(self._world._call(_lib.lib.boids_world_set_param,
                                     _lib.encoded(key, "parameter"),
                                     _lib.encoded(_setting(value), str(key))))

    def items(self):
        return [(k, self[k]) for k in self.keys()]

    def update(self, values):
        """Sets them all or none: an unknown name or a bad value leaves every one as it was."""
        values = dict(values)
        known = set(self.keys())
        for k in values:
            if k not in known:
                raise Error("PARAM_UNKNOWN", f"{k!r}: the model has no parameter of that name",
                            key=str(k))
        before = {k: self[k] for k in values}
        try:
            for k, v in values.items():
                self[k] = v
        except Error:
            for k, v in before.items():
                self[k] = v
            raise

    def __repr__(self):
        return "Params(" + ", ".join(f"{k}={v:g}" for k, v in self.items()) + ")"


class World:
    """A world of one model on one backend.

    scenario   a scenario file, or an installed preset's name ("kit"); None: the default world
    model      the model's name (boids.models()); brings its preset parameters and world
    count      boids (boids= too: the command line's name); swarms, world=(width, height) or
               (width, height, depth) for a 3D world, dims (2 or 3), dt, layout, neighbours
               ("metric", or "nearest:7": each boid flocks with its 7 nearest), cell_size (the
               grid's cells in px, at least half the model's largest radius), obstacles as the
               CLI takes them: (x, y, r) circles, (x, y, z, r) spheres in a 3D world
    backend    "auto" (the GPU where it is hardware, else the CPU), "gpu" or "cpu"
    seed       the random initial state's seed
    params     {name: value} as --set takes them (boids.model_params(model) lists them)
    """

    def __init__(self, scenario=None, model=None, count=None, backend="auto", seed=None,
                 params=None, swarms=None, world=None, dt=None, layout=None, obstacles=(),
                 threads=None, dims=None, neighbours=None, cell_size=None, boids=None):
        if boids is not None:  # the CLI's and the scenario files' name (boids=100 was a TypeError)
            if count is not None and count != boids:
                raise Error("ARGUMENT", f"boids={boids!r} and count={count!r}: one name, one "
                            "count (boids is count's other name)", key="count")
            count = boids
        numbers_given = {"count": count, "swarms": swarms, "dims": dims, "dt": dt, "seed": seed,
                         "threads": threads, "cell_size": cell_size}
        for name, v in numbers_given.items():
            if isinstance(v, bool):  # True was taken as 1 (count=True made one boid)
                raise Error("ARGUMENT", f"{name}: {v!r} is not a number", key=name)
        for key in params or {}:
            if key in _WORLD_KEYS:  # (the library would take it as the world's setting)
                raise Error("PARAM_UNKNOWN", f"params: {key!r} is not a model's parameter but "
                            f"the world's own setting: {_WORLD_KEYS[key]}", key=key)
        settings = [("model", model), ("boids", count), ("swarms", swarms), ("world", world),
                    ("dims", dims),
                    ("dt", dt), ("layout", layout), ("seed", seed), ("backend", backend),
                    ("threads", threads), ("neighbours", neighbours), ("cell_size", cell_size)]
        settings += [("obstacle", _obstacle_text(i, o)) for i, o in enumerate(obstacles)]
        settings += list((params or {}).items())
        settings = [(k, _setting(v)) for k, v in settings if v is not None]
        keys, keep_k = _lib.strings([k for k, _ in settings])
        values, keep_v = _lib.strings([v for _, v in settings])
        handle = ctypes.c_void_p()
        # calls take turns with close(): one on another thread ends before the world goes
        self._guard, self._busy = threading.Condition(), 0
        scen = None if scenario is None else _lib.encoded(scenario, "scenario")
        try:
            _lib.check(_lib.lib.boids_world_open(scen, keys, values, len(settings),
                                                 ctypes.byref(handle)))
        except Error as e:  # name the argument the caller wrote, not the scenario key
            if e.key == "boids":
                e.key, e.message = "count", e.message.replace("boids:", "count:", 1)
                e.args = (e.message,)
            raise
        self._w = handle
        info = self._info()
        model = _lib.text(_lib.lib.boids_model_name(info.model))
        # params are the model's parameters; a world setting (steps, boids, seed, ...) taken
        # as one was once applied to the world or ignored without a word (steps: World steps
        # only when asked)
        known = model_params(model)
        for key in params or {}:
            if key not in known:
                self.close()
                raise Error("PARAM_UNKNOWN", f"params: {key!r} is not a parameter of {model} "
                            f"(boids.model_params({model!r}) lists them; the world's own "
                            f"settings are World's arguments, and steps are step()'s or "
                            f"run()'s)", key=key)
        self._warn_of_cost(info)
        self.model = _lib.text(_lib.lib.boids_model_name(info.model))
        self._attributes = _attributes(info.model)
        self._depth = {"z": np.float32, "vz": np.float32} if info.dims == 3 else {}
        self.params = Params(self)

    def _warn_of_cost(self, info):
        # as the program's note: the grid's cells are as large as the largest radius
        seen = self._call(_lib.lib.boids_world_neighbors_per_agent)
        checks = seen * (info.count + info.predators)
        if checks > 2e8:
            warnings.warn(f"each agent looks at about {seen:.0f} others a step ({checks:.3g} "
                          f"checks in all), since the grid's cells are as large as the largest "
                          f"radius ({info.cell_w:.0f}x{info.cell_h:.0f} px): a step may take "
                          f"seconds; a smaller radius or fewer agents goes faster",
                          CostWarning, stacklevel=3)

    # -- life ----------------------------------------------------------------------------------
    def close(self):
        """Frees the world (and its GPU memory); any later call raises boids.Error. A call
        under way on another thread ends first (a long step: Ctrl-C there, or let it finish)."""
        guard = getattr(self, "_guard", None)
        if guard is None:  # __init__ failed before the world was made
            return
        with guard:
            handle, self._w = getattr(self, "_w", None), None  # no call begins from now on
            while self._busy:
                guard.wait()
        if handle:
            _lib.lib.boids_world_destroy(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _step_cost(self):
        """A step's neighbour checks, as the library estimates them."""
        return self.count * (1.0 + self._call(_lib.lib.boids_world_neighbors_per_agent))

    def _stoppable(self, call, *args, cost):
        """call(world, *args), a C call that may run long (cost: about that many neighbour
        checks), checked. Python runs its signal handlers between bytecodes, never inside a C
        call, so from the main thread a long call runs on a helper thread while this one waits:
        Ctrl-C raises KeyboardInterrupt here, boids_world_interrupt stops the call (a CPU step
        within a few hundred boids, undone), and once it has returned the world is let run
        again. Short calls (a few milliseconds) and calls from other threads are made directly."""
        if cost < _LONG_CALL or threading.current_thread() is not threading.main_thread():
            _lib.check(self._call(call, *args))
            return
        with self._using() as handle:
            self._stoppable_call(handle, call, *args)

    @staticmethod
    def _stoppable_call(handle, call, *args):
        failed, returned = [], threading.Event()

        def work():  # the library's last error is per thread: read it on this one
            try:
                _lib.check(call(handle, *args))
            except Error as e:
                failed.append(e)
            finally:
                returned.set()

        # (waited for on an Event: a Thread.join that KeyboardInterrupt breaks can take the
        # thread for finished while it runs, in CPython 3.11)
        threading.Thread(target=work, name="boids call", daemon=True).start()
        try:
            while not returned.wait(0.1):
                pass
        except KeyboardInterrupt:
            _lib.lib.boids_world_interrupt(handle, True)
            try:
                while not returned.is_set():
                    try:
                        returned.wait()
                    except KeyboardInterrupt:  # a second Ctrl-C: the call is stopping already
                        pass
            finally:
                _lib.lib.boids_world_interrupt(handle, False)
            raise
        if failed:
            raise failed[0]

    def _handle(self):
        if not getattr(self, "_w", None):
            raise Error("WORLD_CLOSED", "the world is closed")
        return self._w

    @contextlib.contextmanager
    def _using(self):
        """The world's handle, which close() on another thread leaves until this ends."""
        with self._guard:
            handle = self._handle()
            self._busy += 1
        try:
            yield handle
        finally:
            with self._guard:
                self._busy -= 1
                self._guard.notify_all()

    def _call(self, fn, *args):
        """fn(world, *args), a C call that close() on another thread waits for."""
        with self._using() as handle:
            return fn(handle, *args)

    def _info(self):
        buf = ctypes.create_string_buffer(_lib.lib.boids_world_info_size())
        self._call(_lib.lib.boids_world_get_info, buf)
        return _lib.WorldInfo.from_buffer_copy(buf.raw[:ctypes.sizeof(_lib.WorldInfo)])

    # -- what it is ----------------------------------------------------------------------------
    @property
    def info(self):
        """count, swarms, size ((width, height), or with depth in 3D), dims, backend, renderer,
        device, steps, replicas, predators, dt, seed; the grid's cells along each axis (grid),
        their size in px (cell) and the world's cells of that size (world_cells: more than the
        grid's where a torus too large for it folds its cells onto it)."""
        i = self._info()
        three = i.dims == 3
        size = (i.width, i.height, i.depth) if three else (i.width, i.height)
        return {"model": self.model, "count": i.count, "swarms": i.swarms,
                "size": size, "dims": i.dims, "backend": "gpu" if i.backend == 0 else "cpu",
                "renderer": _lib.text(i.renderer), "device": _lib.text(i.device),
                "steps": i.steps, "replicas": i.replicas,
                "predators": i.predators, "obstacles": i.obstacles, "dt": i.dt, "seed": i.seed,
                "threads": i.threads,
                "grid": (i.grid_w, i.grid_h, i.grid_d) if three else (i.grid_w, i.grid_h),
                "cell": (i.cell_w, i.cell_h, i.cell_d) if three else (i.cell_w, i.cell_h),
                "world_cells": (i.fine_w, i.fine_h, i.fine_d) if three else (i.fine_w, i.fine_h)}

    @property
    def count(self):
        return self._info().count

    @property
    def steps(self):
        return self._info().steps

    def __repr__(self):
        if not getattr(self, "_w", None):
            return "<boids.World (closed)>"
        i = self.info
        return (f"<boids.World {self.model}: {i['count']} boids on {i['renderer']}, "
                f"{i['steps']} steps>")

    # -- running -------------------------------------------------------------------------------
    def step(self, steps=1):
        """Advances the world `steps` steps (a whole number); on the GPU they are queued, not
        waited for. Ctrl-C raises KeyboardInterrupt within about a second, even inside one long
        CPU step: the steps before it are kept, the one under way is undone (`steps` says how
        many were taken), and the world is usable."""
        if isinstance(steps, bool) or not isinstance(steps, numbers.Integral):
            raise Error("ARGUMENT", f"steps: {steps!r} is not a whole number", key="steps")
        steps = int(steps)
        if not 0 <= steps < 2**32:
            raise Error("ARGUMENT", f"steps: {steps} is not in [0, 2^32)", key="steps")
        self._stoppable(_lib.lib.boids_world_step, steps, cost=steps * self._step_cost())

    def run(self, steps, every=1, frames=None):
        """Steps `steps` steps and returns the metrics over time, as the command line's --metrics
        writes them: a row per replica at the world's current step, every `every` steps after
        it, and the last. Columns: step, time (step x dt), replica, then metrics()'s. A pandas
        DataFrame where pandas is installed (frames=False: a boids.Table, a numpy record array
        that prints with its column names). Ctrl-C raises KeyboardInterrupt as step() does, the
        steps done kept; the rows so far are on the exception (.rows)."""
        for value, name in ((steps, "steps"), (every, "every")):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise Error("ARGUMENT", f"{name}: {value!r} is not a whole number", key=name)
        if every < 1:
            raise Error("ARGUMENT", f"every: {every} is not a whole number above 0", key="every")
        if not 0 <= steps < 2**32:
            raise Error("ARGUMENT", f"steps: {steps} is not in [0, 2^32)", key="steps")
        dt, end, samples = self._info().dt, self.steps + int(steps), []

        def sample():
            m = self.metrics(frames=False)
            rows = np.zeros(len(m), dtype=[("step", np.uint64), ("time", np.float64),
                                           ("replica", np.uint32)] + m.dtype.descr[1:])
            for name in m.dtype.names:
                rows[name] = m[name]
            rows["time"] = rows["step"] * dt
            rows["replica"] = np.arange(len(m))
            samples.append(rows)

        def table():
            return named(np.concatenate(samples), frames)

        try:
            sample()
            while self.steps < end:
                self.step(min(int(every), end - self.steps))
                sample()
        except KeyboardInterrupt as e:
            e.rows = table()
            raise
        return table()

    def finish(self):
        """Waits until the steps asked for are done (for timing)."""
        self._call(_lib.lib.boids_world_finish)

    # -- the state -----------------------------------------------------------------------------
    def columns(self):
        """The state's columns and their dtypes: x, y, vx, vy, swarm, in a 3D world z and vz,
        then the attributes."""
        return {**_FIXED, **self._depth, **self._attributes}

    def state(self, columns=None):
        """The state in id order as {column: numpy array}, from one read of the world; a column
        named twice is read once."""
        dtypes = self.columns()
        names = list(dtypes) if columns is None else list(dict.fromkeys(columns))
        for n in names:
            if n not in dtypes:
                raise Error("ARGUMENT", f"no column {n!r} (the columns: {', '.join(dtypes)})",
                            key=n)
        count = self.count
        arrays = {n: np.empty(count, dtype=dtypes[n]) for n in names}
        cnames, keep = _lib.strings(names)
        ptrs = (ctypes.c_void_p * max(len(names), 1))(*[a.ctypes.data for a in arrays.values()])
        _lib.check(self._call(_lib.lib.boids_world_read_columns, cnames, ptrs, len(names)))
        return arrays

    def set_state(self, state=None, **columns):
        """Writes columns (a dict, or keywords), keeping the others; the library checks every
        value (finite, in range) and names the first bad boid. The step count starts again."""
        columns = {**(state or {}), **columns}
        dtypes, count = self.columns(), self.count
        arrays = {}
        for n, values in columns.items():
            if n not in dtypes:
                raise Error("ARGUMENT", f"no column {n!r} (the columns: {', '.join(dtypes)})",
                            key=n)
            if np.ma.isMaskedArray(values):  # np.asarray would write the masked values as data
                masked = int(np.ma.count_masked(values))
                if masked:
                    raise Error("ARGUMENT", f"{n}: a masked array with {masked} masked value"
                                f"{'s' if masked > 1 else ''} (fill them first: .filled(v))", key=n)
                values = np.ma.getdata(values)
            a = np.asarray(values)
            if a.shape != (count,):
                raise Error("ARGUMENT", f"{n}: shape {a.shape}, the world has ({count},)", key=n)
            if a.dtype.kind not in "biuf":
                raise Error("ARGUMENT", f"{n}: {a.dtype} is not numbers", key=n)
            if dtypes[n] == np.uint32 and a.size and not (
                    np.all(np.isfinite(a)) and np.all(a >= 0) and np.all(a < 2**32)
                    and np.all(a == np.floor(a))):
                raise Error("ARGUMENT", f"{n}: not whole numbers in [0, 2^32)", key=n)
            arrays[n] = np.ascontiguousarray(a, dtype=dtypes[n])
        if not arrays:
            return
        cnames, keep = _lib.strings(list(arrays))
        ptrs = (ctypes.c_void_p * len(arrays))(*[a.ctypes.data for a in arrays.values()])
        _lib.check(self._call(_lib.lib.boids_world_write_columns, cnames, ptrs, len(arrays)))

    def predators(self):
        """The predators (models with predators) as {x, y, vx, vy: numpy arrays}, and z, vz in
        a 3D world."""
        info = self._info()
        fields = [f for f, _ in _lib.Predator._fields_]
        buf = np.empty(info.predators, dtype=[(k, np.float32) for k in fields])
        _lib.check(self._call(_lib.lib.boids_world_read_predators,
                              buf.ctypes.data_as(ctypes.POINTER(_lib.Predator)), info.predators))
        keep = fields if info.dims == 3 else ["x", "y", "vx", "vy"]
        return {k: buf[k].copy() for k in keep}

    def metrics(self, frames=None):
        """One row per replica: step, alive, groups, catches, polarization, mean_nn,
        mean_speed, min_speed, max_speed, milling. A pandas DataFrame where pandas is installed
        (frames=False: a boids.Table, whose rows, m[0], are boids.Rows that print their column
        names); m["polarization"][0] reads either."""
        n = self._info().replicas
        out = (_lib.Metrics * n)()
        self._stoppable(_lib.lib.boids_world_metrics, out, n, cost=8 * self._step_cost())
        names = [f for f, _ in _lib.Metrics._fields_]
        types = [np.uint64, np.uint32, np.uint32, np.uint32] + [np.float64] * (len(names) - 4)
        rec = np.zeros(n, dtype=list(zip(names, types)))
        for k, m in enumerate(out):
            rec[k] = tuple(getattr(m, f) for f in names)
        return named(rec, frames)

    def field(self, r_max=0, bins=0, ranks=0, margin=0, flock="replica", xi_from=0,
              frames=None):
        """The measures field studies make of real flocks, of each replica's living boids (its
        own mean velocity taken out), exact in double precision, with the minimum image where
        the world wraps (boids_world_field). A list with one dict a replica:

        step, alive   the world's step count; the living boids measured
        r_max, dr     px: the pairs counted lie within r_max, in `bins` bins of width dr
        xi, xi_speed  px, the first zero of C(r) of the velocities' fluctuations (Cavagna et
                      al. 2010), of the speeds' (from xi_from on); 0: none within r_max
        n_c, ranks    the first n where gamma(n) falls to within `margin` of 1/d after it was
                      above (0: none up to ranks); the ranks measured (the options', at most
                      alive - 1)
        diameter      px, the largest flock's size L: the largest distance between two of its
                      boids (on a torus, unwrapped about its first: while it spans under half)
        r             numpy array of the bins' centres, px; pairs, c_velocity, c_speed: the pairs
                      in each bin (float64) and C(r) there (1 at r = 0; 0 in a bin of no pair)
        n, gamma      1..ranks, and gamma(n) = (W(n).V)^2 of each boid's n-th nearest
                      (Ballerini et al. 2008): 1/d where they lie alike in every direction
        correlation   r, pairs, c_velocity, c_speed as one table; anisotropy: n and gamma; pandas
                      DataFrames where pandas is installed (frames=False: boids.Tables)

        r_max (px; 0: half the world's shortest side), bins (at most 256; 0: 64), ranks (at most
        32; 0: 20), margin (in [0, 1); 0: 0.02) as the library takes them: a bad one raises
        boids.Error naming it. flock: what a flock is, its own means taken out and only its
        pairs and neighbours counted: "replica" (the default), "swarm" (each swarm) or "group"
        (each group, as metrics() counts them); several flocks' C and M(n) are summed, M(n) in
        each flock's frame (docs/models.md, "Field measures"). xi_from (px, >= 0): xi is C's first
        fall to 0 at r >= xi_from, after C was positive there (a hard core's fleeing pairs
        anti-correlate at contact); 0: from r = 0, where C is 1. Every pair within r_max is
        counted, so a large r_max over a dense flock costs N x its neighbours within r_max;
        Ctrl-C raises KeyboardInterrupt as step() does, and the world is usable."""
        for value, name in ((bins, "bins"), (ranks, "ranks")):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
                    or not 0 <= value < 2**32:
                raise Error("ARGUMENT", f"{name}: {value!r} is not a whole number >= 0", key=name)
        for value, name in ((r_max, "r_max"), (margin, "margin"), (xi_from, "xi_from")):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise Error("ARGUMENT", f"{name}: {value!r} is not a number", key=name)
            # the library takes floats: a value beyond them is refused as given (1e300 was
            # refused as "inf"), and one too small for them is not 0, which for r_max means half
            # the world (1e-50 was taken so)
            try:
                given = float(value)
            except OverflowError:
                given = math.inf
            single = ctypes.c_float(given).value if math.isfinite(given) else given
            if given != 0 and (single == 0 or not math.isfinite(single)):
                raise Error("ARGUMENT", f"{name}: {value!r} is not a float's (1e-45 to 3.4e38 "
                            "in size, or 0)", key=name)
        flocks = ("replica", "swarm", "group")
        if flock not in flocks:
            raise Error("ARGUMENT", f"flock: {flock!r} is not one of {', '.join(flocks)}",
                        key="flock")
        info = self._info()
        n = info.replicas
        options = _lib.FieldOptions(float(r_max), int(bins), int(ranks), float(margin),
                                    flocks.index(flock), float(xi_from))
        out = (_lib.Field * n)()
        self._stoppable(_lib.lib.boids_world_field, ctypes.byref(options), out, n,
                        cost=self._field_cost(info, float(r_max)))
        return [self._field_entry(f, frames) for f in out]

    @staticmethod
    def _field_cost(info, r_max):
        """The pairs a field() call looks at, about: each boid's within r_max of its replica
        (the cells about it, a square or a cube of side 2 r_max)."""
        sides = [info.width, info.height] + ([info.depth] if info.dims == 3 else [])
        r = r_max if r_max > 0 else 0.5 * min(sides)
        share = float(np.prod([min(1.0, 2 * r / side) for side in sides]))
        return info.count * (1.0 + share * info.count / max(info.replicas, 1))

    @staticmethod
    def _field_entry(f, frames):
        bins, ranks = f.bins, f.ranks
        entry = {"step": f.step, "alive": f.alive, "xi": f.xi, "xi_speed": f.xi_speed,
                 "n_c": f.n_c, "diameter": f.diameter, "dr": f.dr, "r_max": f.r_max,
                 "ranks": ranks, "bins": bins,
                 "r": (np.arange(bins) + 0.5) * f.dr}
        for name in ("pairs", "c_velocity", "c_speed", "gamma"):
            entry[name] = np.ctypeslib.as_array(getattr(f, name))[:ranks if name == "gamma"
                                                                  else bins].copy()
        entry["n"] = np.arange(1, ranks + 1)
        for table, columns in (("correlation", ("r", "pairs", "c_velocity", "c_speed")),
                               ("anisotropy", ("n", "gamma"))):
            rec = np.zeros(len(entry[columns[0]]),
                           dtype=[(c, entry[c].dtype) for c in columns])
            for c in columns:
                rec[c] = entry[c]
            entry[table] = named(rec, frames)
        return entry

    # -- pictures ------------------------------------------------------------------------------
    def image(self, width=640, height=360):
        """The world as the program's --frames draw it, whole: a numpy array of shape (height,
        width, 3), uint8 RGB, top row first. Either backend, headless (it needs OpenGL 4.3: the
        GPU or Mesa's software rasterizer); drawn from a read of the state."""
        width, height = _side(width, "width"), _side(height, "height")
        rgb = np.empty((height, width, 3), dtype=np.uint8)
        _lib.check(self._call(_lib.lib.boids_world_image, width, height, rgb.ctypes.data))
        return rgb

    def save_png(self, path, width=640, height=360):
        """image() written to path as a PNG, whole or not at all."""
        width, height = _side(width, "width"), _side(height, "height")
        raw = os.fsencode(path)
        if b"\0" in raw:
            raise Error("ARGUMENT", f"path: {path!r} holds a NUL character", key="path")
        _lib.check(self._call(_lib.lib.boids_world_save_png, width, height, raw))

    def _repr_png_(self):
        """A notebook shows a World as its picture (640 x 360). A closed world has none: None,
        IPython's "nothing to show", and the notebook shows repr(w) instead of a traceback."""
        try:
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "world.png")
                self.save_png(path)
                with open(path, "rb") as f:
                    return f.read()
        except Error as e:
            if e.id == "WORLD_CLOSED":  # (closed before the call, or by another thread)
                return None
            raise

    def events(self):
        """The events since the last call, in (step, kind, subject, other) order: kind
        (EVENT_CATCH: subject the boid, other the predator, age and distance), step,
        subject, other, value (4 floats). Raises boids.Error EVENTS_LOST when some were lost
        (raise the world's event capacity or take them more often)."""
        ev = _lib.Events()
        status = self._call(_lib.lib.boids_world_take_events, ctypes.byref(ev))
        err = _lib.last_error() if status != 0 else None
        dtype = [("kind", np.uint32), ("step", np.uint32), ("subject", np.uint32),
                 ("other", np.uint32), ("value", np.float32, (4,))]
        if ev.count:
            raw = ctypes.string_at(ev.events, ev.count * ctypes.sizeof(_lib.Event))
            rec = np.frombuffer(raw, dtype=dtype).copy()
        else:
            rec = np.zeros(0, dtype=dtype)
        if err is not None:
            raise err
        return rec.view(np.recarray)

    def profile(self):
        """Mean milliseconds per step of each pass (GPU timer queries, or the CPU's clock):
        {pass: (ms, samples)}, "step" for their sum, and "gl_per_step": the GPU's dispatches,
        barriers and buffer clears a step (zeros on the CPU). The GPU's newest steps count once
        they are done: finish() first for all of them."""
        p = _lib.Profile()
        self._call(_lib.lib.boids_world_get_profile, ctypes.byref(p))
        out = {_lib.text(_lib.lib.boids_pass_name(k)): (p.ms[k], p.samples[k])
               for k in range(_lib.PASSES)}
        out["step"] = (p.step_ms, max(p.samples))
        out["gl_per_step"] = {"dispatches": p.dispatches_per_step,
                              "barriers": p.barriers_per_step, "clears": p.clears_per_step}
        return out
