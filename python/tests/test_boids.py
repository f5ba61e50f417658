"""The Python package against the library it wraps (run by ctest's test_python, or
`PYTHONPATH=python python3 -m pytest python/tests` after a build)."""
import ctypes.util
import multiprocessing
import os
import pickle
import re
import signal
import subprocess
import sys
import threading
import time
import warnings

import numpy as np
import pytest

import boids

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")
BACKENDS = ["cpu", "gpu"]


def test_every_ctypes_mirror_is_checked_against_the_library():
    import ctypes
    from boids import _lib
    structs = {v for v in vars(_lib).values()
               if isinstance(v, type) and issubclass(v, ctypes.Structure)}
    assert structs == set(_lib.MIRRORS)  # a mirror left out would go unchecked

    def mirror(fields):
        return type("Mirror", (ctypes.Structure,), {"_fields_": fields})
    metrics = list(_lib.Metrics._fields_)
    _lib.check_mirror(mirror(metrics), "boids_metrics")  # the real one passes
    with pytest.raises(ImportError, match=r"has catches at byte 16, the mirror at 12"):
        _lib.check_mirror(mirror([f for f in metrics if f[0] != "groups"]), "boids_metrics")
    short = mirror(metrics[:-1])  # milling left out
    with pytest.raises(ImportError, match=rf"is {ctypes.sizeof(_lib.Metrics)} bytes, the mirror "
                                          rf"{ctypes.sizeof(short)}"):
        _lib.check_mirror(short, "boids_metrics")
    with pytest.raises(ImportError, match=r"has no field polarisation"):
        _lib.check_mirror(mirror(metrics[:4] + [("polarisation", ctypes.c_double)]),
                          "boids_metrics")


def _field_reference(s, size, r_max, bins, ranks):
    """boids_world_field's measures of one replica of a torus, every pair in float64: C(r) of
    the velocities, gamma(n) of the n-th nearest (distance, then id), pairs per bin."""
    p = np.stack([s["x"], s["y"]], axis=1).astype(np.float64)
    v = np.stack([s["vx"], s["vy"]], axis=1).astype(np.float64)
    size = np.asarray(size, dtype=np.float64)
    d = p[None, :, :] - p[:, None, :]  # d[i, j]: from i to j, the minimum image
    d = np.where(d > size / 2, d - size, np.where(d < -size / 2, d + size, d))
    d2 = (d * d).sum(axis=2)
    u = v - v.mean(axis=0)
    uu = (u * u).sum(axis=1).mean()
    i, j = np.triu_indices(len(p), 1)
    near = d2[i, j] < r_max * r_max
    k = np.minimum((np.sqrt(d2[i, j][near]) * (bins / r_max)).astype(np.int64), bins - 1)
    pairs = np.bincount(k, minlength=bins).astype(np.float64)
    sums = np.bincount(k, weights=(u[i[near]] * u[j[near]]).sum(axis=1), minlength=bins)
    c = np.divide(sums, pairs * uu, out=np.zeros(bins), where=pairs > 0)
    np.fill_diagonal(d2, np.inf)  # (itself last: never among the nearest)
    order = np.argsort(d2, axis=1, kind="stable")[:, :ranks]  # ties: the lower id first
    heading = v.mean(axis=0) / np.linalg.norm(v.mean(axis=0))
    gamma = []
    for n in range(ranks):
        to = d[np.arange(len(p)), order[:, n]]
        to /= np.linalg.norm(to, axis=1)[:, None]
        least = np.linalg.eigh(to.T @ to)[1][:, 0]  # (eigh: ascending eigenvalues)
        gamma.append(float(least @ heading) ** 2)
    return pairs, c, np.array(gamma)


def test_field_measures():
    # two pairs across the seam of a 200 x 100 torus, one pair faster than the mean, one
    # slower: C is 1 within a pair (1 px), -1 across (9 to 11 px), its zero 5.5 px
    for backend in BACKENDS:
        with boids.World(count=4, world=(200, 100), backend=backend) as w:
            w.set_state(x=[5, 6, 195, 196], y=[50] * 4, vx=[30, 30, 10, 10], vy=[0] * 4)
            f = w.field(r_max=40, bins=40)
            assert len(f) == 1 and f[0]["step"] == 0 and f[0]["alive"] == 4
            f = f[0]
            assert abs(f["xi"] - 5.5) < 1e-12 and abs(f["xi_speed"] - 5.5) < 1e-12, f
            assert f["c_velocity"][1] == 1 and f["c_velocity"][10] == -1
            assert list(f["pairs"][[1, 9, 10, 11]]) == [2, 1, 2, 1] and f["pairs"].sum() == 6
            assert f["ranks"] == 3 and list(f["n"]) == [1, 2, 3]  # at most alive - 1
            assert f["diameter"] == 11  # unwrapped across the seam
            # from 1 px on, the same zero after the bin at 1.5 px; from 2 px, C is never positive
            assert w.field(r_max=40, bins=40, xi_from=1)[0]["xi"] == 5.5
            assert w.field(r_max=40, bins=40, xi_from=2)[0]["xi"] == 0
    with boids.World(count=4, backend="cpu") as w:
        for bad, key in ((999, "bins"), (True, "bins"), (-1, "bins"), (1.5, "bins")):
            with pytest.raises(boids.Error) as e:
                w.field(bins=bad)
            assert e.value.key == key and "bins" in str(e.value), e.value
        for kwargs, key in (({"ranks": 33}, "ranks"), ({"r_max": -1}, "r_max"),
                            ({"r_max": float("nan")}, "r_max"), ({"margin": 1}, "margin"),
                            ({"margin": "0.1"}, "margin"), ({"flock": "herd"}, "flock"),
                            ({"xi_from": -1}, "xi_from")):
            with pytest.raises(boids.Error) as e:
                w.field(**kwargs)
            assert e.value.key == key, (kwargs, e.value)
        # a float's range, refused as given: 1e-50 was taken as 0 (half the world), 1e300 was
        # refused as "inf"
        for value in (1e-50, 1e300, 10**400):
            with pytest.raises(boids.Error) as e:
                w.field(r_max=value)
            assert e.value.key == "r_max" and repr(value) in str(e.value), e.value
    # every length as asked, trimmed; the tables
    with boids.World(model="kit", count=400, backend="cpu", seed=3) as w:
        w.step(3)
        for kwargs, bins, ranks in (({}, 64, 20), ({"bins": 30, "ranks": 7, "r_max": 90}, 30, 7)):
            f = w.field(**kwargs)[0]
            assert (f["bins"], f["ranks"], f["step"]) == (bins, ranks, 3)
            assert all(len(f[k]) == bins for k in ("r", "pairs", "c_velocity", "c_speed"))
            assert len(f["n"]) == len(f["gamma"]) == ranks and list(f["n"]) == list(
                range(1, ranks + 1))
            assert np.allclose(f["r"], (np.arange(bins) + 0.5) * f["dr"])
            assert np.isclose(f["dr"] * bins, f["r_max"])
            assert len(f["correlation"]) == bins and len(f["anisotropy"]) == ranks
        table = w.field(frames=False)[0]["correlation"]
        assert isinstance(table, boids.Table) and table.dtype.names == (
            "r", "pairs", "c_velocity", "c_speed")
        assert np.array_equal(table["c_velocity"], w.field()[0]["c_velocity"])
    # against every pair in float64: a random flock, a flocked one
    with boids.World(count=300, world=(400, 300), backend="cpu", seed=9) as w:
        for steps in (0, 60):
            w.step(steps)
            f = w.field(r_max=120, bins=24, ranks=10)[0]
            pairs, c, gamma = _field_reference(w.state(), (400, 300), 120.0, 24, 10)
            assert np.array_equal(f["pairs"], pairs)
            assert np.max(np.abs(f["c_velocity"] - c)) < 1e-9
            assert np.max(np.abs(f["gamma"] - gamma)) < 1e-9, (f["gamma"], gamma)
    # two lines flying across themselves, one up, one down: as one flock V = 0 (gamma 0); each
    # group its own flock, in its own frame: gamma 1
    with boids.World(count=40, world=(1000, 1000), backend="cpu") as w:
        x = [100 + 10 * (i % 20) + (0 if i < 20 else 500) for i in range(40)]
        vy = [(1 if i < 20 else -1) * (40 + i % 20 % 3) for i in range(40)]
        w.set_state(x=x, y=[500] * 40, vx=[0] * 40, vy=vy)
        one, two = w.field(ranks=5)[0], w.field(ranks=5, flock="group")[0]
        assert np.all(one["gamma"] == 0) and np.allclose(two["gamma"], 1, atol=1e-12)
    readme = open(os.path.join(HERE, "..", "README.md"), encoding="utf-8").read()
    shown = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if ".field(" in b]
    assert len(shown) == 1, "python/README.md shows field() once"
    exec(compile(shown[0], "python/README.md", "exec"), {})  # it runs


def test_models_and_their_parameters():
    names = boids.models()
    assert "kit" in names and "shiffman-per-second" in names and len(names) == len(set(names))
    kit = boids.model_params("kit")
    assert kit["c_maxspeed"]["unit"] == "px/s" and kit["c_maxspeed"]["max"] > 0
    assert boids.model_params("adams")["max_speed"]["default"] == 6  # adams' preset, not 180
    with pytest.raises(boids.Error) as e:
        boids.model_params("no-such-model")
    assert e.value.id == "MODEL_UNKNOWN"


@pytest.mark.parametrize("backend", BACKENDS)
def test_state_metrics_and_params(backend):
    with boids.World(model="kit", count=3000, backend=backend, seed=5) as w:
        assert w.info["backend"] == backend and w.count == 3000 and w.model == "kit"
        w.step(20)
        s = w.state()
        assert list(s) == ["x", "y", "vx", "vy", "swarm", "age", "alive"]
        assert s["x"].dtype == np.float32 and s["alive"].dtype == np.uint32
        assert all(len(v) == 3000 for v in s.values()) and np.isfinite(s["vx"]).all()
        twice = w.state(["x", "age", "x"])  # once killed the interpreter
        assert list(twice) == ["x", "age"] and np.array_equal(twice["x"], s["x"])
        m = w.metrics()
        assert len(m) == 1 and m["step"][0] == 20 and 0 <= m["polarization"][0] <= 1
        assert m["alive"][0] == (s["alive"] == 1).sum()
        assert w.params["c_maxspeed"] == boids.model_params("kit")["c_maxspeed"]["default"]
        w.params["c_maxspeed"] = 200
        assert w.params["c_maxspeed"] == 200
        assert len(w.predators()["x"]) == w.info["predators"]
        w.step(5)  # the GPU times the first step of each call but the world's first
        w.finish()  # and its timings count once their steps are done
        profile = w.profile()
        assert "steer" in profile and profile["steer"][1] > 0
        gl = profile["gl_per_step"]  # kit's one clear a step: its catches' count, 16 bytes
        assert (gl["dispatches"] > 0 and gl["clears"] == 1) if w.info["backend"] == "gpu" \
            else gl == {"dispatches": 0, "barriers": 0, "clears": 0}


def test_the_backends_agree():
    states = []
    for backend in BACKENDS:
        with boids.World(model="hybrid", count=4000, backend=backend, seed=2) as w:
            w.step(25)
            states.append(w.state())
    # bit for bit where the driver rounds as IEEE does (llvmpipe, zink: tests/test_python.sh
    # measures it); a real GPU rounds its own way
    exact = os.environ.get("BOIDS_GPU_EXACT") == "1"
    for k in ("x", "y", "vx", "vy"):
        if exact:
            assert np.array_equal(states[0][k], states[1][k]), k
        else:
            assert np.max(np.abs(states[0][k] - states[1][k])) < 0.05


def test_set_state_round_trip_and_what_it_refuses():
    with boids.World(model="kit", count=100, backend="cpu") as w:
        s = w.state()
        s["x"] = np.linspace(10, 20, 100)  # float64 in: converted
        w.set_state(x=s["x"], age=np.full(100, 0.25))
        back = w.state()
        assert np.allclose(back["x"], s["x"]) and np.all(back["age"] == np.float32(0.25))
        assert w.steps == 0
        bad = s["vx"].copy()
        bad[7] = np.nan
        with pytest.raises(boids.Error) as e:
            w.set_state(vx=bad)
        assert e.value.index == 7 and e.value.id.startswith("STATE")
        with pytest.raises(boids.Error) as e:
            w.set_state(x=np.zeros(99))
        assert e.value.id == "ARGUMENT" and e.value.key == "x"
        with pytest.raises(boids.Error) as e:
            w.set_state(bias=np.zeros(100))  # adams' attribute, not kit's
        assert e.value.key == "bias"
        with pytest.raises(boids.Error):
            w.set_state(swarm=np.full(100, -1))
        with pytest.raises(boids.Error):
            w.set_state(age=np.array(["a"] * 100))
        assert np.allclose(w.state()["x"], s["x"])  # nothing written by the refusals


def test_bad_settings_raise_with_the_library_s_id_and_key():
    cases = [(dict(model="nope"), "MODEL_UNKNOWN", None),
             (dict(params={"max_speed": 2e9}), "PARAM_RANGE", "max_speed"),
             (dict(params={"max_speed": "fast"}), "PARAM_NOT_NUMBER", "max_speed"),
             (dict(params={"no_such": 1}), None, "no_such"),
             (dict(backend="tpu"), "ARGUMENT", "backend"),
             (dict(count=-5), None, "count")]
    for kwargs, id, key in cases:
        with pytest.raises(boids.Error) as e:
            boids.World(**{"backend": "cpu", **kwargs})
        if id:
            assert e.value.id == id, kwargs
        if key:
            assert e.value.key == key, kwargs
    with pytest.raises(boids.Error) as e:
        boids.World(scenario="/no/such/file.ini", backend="cpu")
    assert "no/such/file.ini" in str(e.value)
    # whole through pickle, as a process pool's or a cluster's worker hands it back
    back = pickle.loads(pickle.dumps(e.value))
    assert type(back) is boids.Error and str(back) == str(e.value)
    assert (back.id, back.key, back.path, back.line, back.index, back.detail) == (
        e.value.id, e.value.key, e.value.path, e.value.line, e.value.index, e.value.detail)


def test_a_closed_world_raises_and_params_keep_their_checks():
    w = boids.World(count=50, backend="cpu")
    with pytest.raises(boids.Error) as e:
        w.params["min_speed"] = 1e6  # above max_speed
    assert "min_speed" in (e.value.key + e.value.related)
    with pytest.raises(boids.Error):
        w.step(-1)
    w.close()
    for call in (lambda: w.step(1), w.state, w.metrics, w.field, lambda: w.params["max_speed"]):
        with pytest.raises(boids.Error) as e:
            call()
        assert e.value.id == "WORLD_CLOSED"
    # a notebook asks a closed world for its picture: nothing to show (IPython's None), so it
    # shows repr(w) instead of a formatter's traceback
    assert w._repr_png_() is None and repr(w) == "<boids.World (closed)>"
    w.close()  # twice is fine



def test_the_library_and_program_asked_for_or_an_error(tmp_path):
    # a wrong BOIDS_LIBRARY or BOIDS_PROGRAM was passed over silently for another one
    env = dict(os.environ, BOIDS_LIBRARY=str(tmp_path / "nowhere.so"))
    done = subprocess.run([sys.executable, "-c", "import boids"], env=env, capture_output=True,
                          text=True)
    assert done.returncode != 0 and "BOIDS_LIBRARY=" in done.stderr and "nowhere.so" in \
        done.stderr, done.stderr
    # a library that is not this one (libm, say): an ImportError naming it, not ctypes' bare
    # AttributeError on the first symbol looked up
    other = ctypes.util.find_library("m")
    env = dict(os.environ, BOIDS_LIBRARY=other)
    done = subprocess.run([sys.executable, "-c", "import boids"], env=env, capture_output=True,
                          text=True)
    assert done.returncode != 0 and f"BOIDS_LIBRARY={other} is not libboids" in done.stderr \
        and "AttributeError" not in done.stderr, done.stderr
    for program, says in ((tmp_path / "nowhere", "is not a program"),
                          ("/bin/true", "wrote no runs.csv")):  # exits 0, writes nothing
        os.environ["BOIDS_PROGRAM"], before = str(program), os.environ.get("BOIDS_PROGRAM")
        try:
            with pytest.raises(boids.Error) as e:
                boids.experiment("kit", runs=1, steps=2, backend="cpu")
            assert says in str(e.value), e.value
        finally:
            if before is None:
                del os.environ["BOIDS_PROGRAM"]
            else:
                os.environ["BOIDS_PROGRAM"] = before
    # World(boids=N), the command line's name, is count's other name
    with boids.World(boids=20, backend="cpu") as w:
        assert w.count == 20
    with pytest.raises(boids.Error):
        boids.World(boids=20, count=30, backend="cpu")


def test_values_that_would_put_nan_in_the_state_are_refused():
    # gregoire-chate divides by v_0 and by r_a - r_e: once taken, step() went on and the state
    # stayed NaN
    w = boids.World(model="gregoire-chate", count=50, backend="cpu")
    for key, value in (("equilibrium", 0.8), ("attraction_radius", 0.5)):
        with pytest.raises(boids.Error) as e:
            w.params[key] = value
        assert e.value.id == "PARAM_CONFLICT" and "attraction_radius" in e.value.key
    w.params["min_speed"] = 0
    for value in (0, 1e-40):
        with pytest.raises(boids.Error) as e:
            w.params["max_speed"] = value
        assert e.value.id == "PARAM_CONFLICT" and e.value.key == "max_speed"
    w.step(5)
    assert all(np.isfinite(a).all() for a in w.state(["x", "y", "vx", "vy"]).values())
    w.close()

def test_close_waits_for_a_step_on_another_thread():
    # close() from one thread while another stepped freed the world under the step (SIGSEGV)
    w = boids.World(count=100000, backend="cpu", seed=3)
    started, done = threading.Event(), []

    def stepper():
        started.set()
        w.step(400)  # a second or more
        done.append(True)

    t = threading.Thread(target=stepper)
    t.start()
    started.wait()
    time.sleep(0.1)
    w.close()
    t.join()
    assert done == [True]
    with pytest.raises(boids.Error) as e:
        w.step(1)
    assert e.value.id == "WORLD_CLOSED"


def test_a_world_too_dear_for_its_size_warns():
    with pytest.warns(boids.CostWarning, match="others a step"):
        boids.World(model="kit", count=20_000, world=(5963, 3354), backend="cpu").close()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        boids.World(model="kit", count=200, backend="cpu").close()


def test_a_scenario_and_kit_s_catches_as_events():
    with boids.World(scenario="kit", backend="cpu", seed=1) as w:
        assert w.count == 35 and w.info["size"] == (4000, 4000)
        w.step(2000)
        ev = w.events()
        assert len(ev) > 0 and np.all(ev.kind == boids.EVENT_CATCH)
        assert np.all((ev.value[:, 0] >= 0) & (ev.value[:, 0] <= 1))  # the caught boids' ages
        assert len(w.events()) == 0  # taken
        assert w.metrics()["catches"][0] == len(ev)


def test_experiment_gives_the_command_s_tables(tmp_path):
    t = boids.experiment("kit", runs=3, sweep={"c_maxspeed": [50, 200]}, backend="cpu",
                         params={"stop_after_catches": 2}, out=str(tmp_path / "py"),
                         frames=False)
    assert len(t.runs) == 6 and set(t.runs["c_maxspeed"]) == {50, 200}
    assert len(t.events) == 12 and np.all(t.events["age"] <= 1)
    cmd = [os.environ.get("BOIDS_PROGRAM", "boids"), "experiment", "kit", "--runs", "3",
           "--backend", "cpu", "--sweep", "c_maxspeed=50,200", "--set", "stop_after_catches=2",
           "--out", str(tmp_path / "cli")]
    subprocess.run(cmd, check=True, capture_output=True)
    for table in ("runs.csv", "events.csv"):
        assert (tmp_path / "py" / table).read_bytes() == (tmp_path / "cli" / table).read_bytes()
    # its repr: no metrics table is "no metrics", not 0 rows; no out= names no directory (it
    # read "0 metrics rows in None")
    assert repr(t) == f"<boids experiment: 6 runs, 12 events, no metrics in {tmp_path / 'py'}>"
    t = boids.experiment("kit", runs=1, steps=10, metrics_every=5, backend="cpu", frames=False)
    assert repr(t) == "<boids experiment: 1 runs, 0 events, 3 metrics rows>"
    with pytest.raises(boids.Error) as e:
        boids.experiment("kit", runs=1, sweep={"no_such": [1, 2]}, backend="cpu")
    assert "no_such" in str(e.value)


def test_experiment_sweeps_world_settings():
    t = boids.experiment("vicsek", runs=1, steps=5, count=100, backend="cpu", frames=False,
                         sweep={"neighbours": ["metric", "nearest:7"], "dims": [2, 3],
                                "boids": [100, 400]})
    assert len(t.runs) == 8 and set(t.runs["neighbours"]) == {"metric", "nearest:7"}
    assert set(t.runs["dims"]) == {2, 3} and set(t.runs["alive"]) == {100, 400}
    with pytest.raises(boids.Error, match="model cannot be swept"):
        boids.experiment("vicsek", runs=1, sweep={"model": ["kit", "vicsek"]}, backend="cpu")
    # one value holding --sweep's own syntax was split into several ("1,2" two runs, "0:1:5" five)
    for values in (["1,2"], ["0:1:5"], [0.5, "1,2"]):
        with pytest.raises(boids.Error) as e:
            boids.experiment("vicsek", runs=1, steps=2, sweep={"eta": values}, backend="cpu")
        assert e.value.key == "eta" and "several values" in str(e.value), e.value


def test_experiment_field_columns():
    t = boids.experiment("vicsek", runs=2, steps=20, count=200, backend="cpu", frames=False,
                         metrics_every=10, field=(0, 32, 10))
    for table in (t.metrics, t.runs):
        assert table.dtype.names[-4:] == ("xi", "xi_speed", "n_c", "diameter")
        assert np.all(table["xi"] >= 0) and np.all(table["n_c"] <= 10)
    assert len(t.metrics) == 6 and len(t.runs) == 2
    with pytest.raises(boids.Error, match="--metrics-every"):
        boids.experiment("vicsek", runs=1, steps=5, backend="cpu", field=0)
    grouped = boids.experiment("vicsek", runs=1, steps=10, count=200, backend="cpu", frames=False,
                               metrics_every=10, field=(0, 32, 10, "group", "from:0.5"))
    assert grouped.runs.dtype.names[-4:] == ("xi", "xi_speed", "n_c", "diameter")
    for bad in (True, "0", (0, 1.5), (0, 1, 2, 3), (0, "herd"), (0, "from:-1"), (0, "from:x")):
        with pytest.raises(boids.Error) as e:
            boids.experiment("vicsek", runs=1, steps=5, metrics_every=5, field=bad)
        assert e.value.id == "ARGUMENT"


def test_the_examples_run(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.path.dirname(boids.__path__[0]),
                                                       env.get("PYTHONPATH")]))
    runs = [("kit_ages.py", "8", str(tmp_path / "ages.png"), "cpu"),
            ("flock_polarization.py", "3000", "40", str(tmp_path / "pol.png"), "gpu")]
    for script, *args in runs:
        done = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args], env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        png = [a for a in args if a.endswith(".png")][0]
        assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    assert "aged under 0.25 or over 0.75" in subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "kit_ages.py"), "4", str(tmp_path / "a.png"),
         "cpu"], env=env, capture_output=True, text=True).stdout


def test_the_readme_s_example_runs_and_pictures_are_current(tmp_path):
    """Each `$ PYTHONPATH=python /usr/bin/python3 python/examples/...` of the README, run again:
    it prints the line the README shows, and draws its picture as the README's (png_diff, the
    suite's picture comparison, given as $BOIDS_PNG_DIFF)."""
    root = os.path.join(HERE, "..", "..")
    lines = open(os.path.join(root, "README.md"), encoding="utf-8").read().split("\n")
    prefix = "$ PYTHONPATH=python /usr/bin/python3 "
    shown = [(lines[i][len(prefix):].split(), lines[i + 1]) for i in range(len(lines) - 1)
             if lines[i].startswith(prefix + "python/examples/")]
    assert len(shown) >= 2
    env = dict(os.environ, PYTHONPATH=os.path.dirname(boids.__path__[0]))
    for (script, *args), printed in shown:
        pictures = [a for a in args if a.endswith(".png")]
        run_args = [str(tmp_path / os.path.basename(a)) if a in pictures else a for a in args]
        done = subprocess.run([sys.executable, os.path.join(root, script), *run_args], env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == printed.strip(), script
        png_diff = os.environ.get("BOIDS_PNG_DIFF")
        for a in pictures:
            assert png_diff, "BOIDS_PNG_DIFF names the picture comparison"
            cmp = subprocess.run([png_diff, os.path.join(root, a),
                                  str(tmp_path / os.path.basename(a))],
                                 capture_output=True, text=True)
            assert cmp.returncode == 0, f"{a}: {cmp.stdout}{cmp.stderr}"


def test_the_readme_s_one_liner():
    # (as the README's environment runs it; test_python_install runs the install itself)
    root = os.path.join(HERE, "..", "..")
    readme = open(os.path.join(root, "README.md"), encoding="utf-8").read().split("\n")
    one = [l for l in readme if l.startswith("env/bin/python -c ")]
    assert len(one) == 1
    command = one[0].replace("env/bin/python", sys.executable, 1)
    done = subprocess.run(command, shell=True, cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.path.join(root, "python")})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    header = lines[0].split()  # a named table: its columns, then a row each
    assert header == ["step", "polarization", "groups"], done.stdout
    rows = [l.split() for l in lines[1:] if l.strip() and not l.startswith("[")]
    steps = [int(r[len(r) - len(header)]) for r in rows]  # (a pandas frame's index first)
    assert steps == [0, 100, 200, 300], done.stdout


def test_run_gives_the_metrics_over_time():
    with boids.World(model="kit", backend="cpu", seed=2) as w, \
            boids.World(model="kit", backend="cpu", seed=2) as v:
        t = w.run(30, every=12, frames=False)
        assert list(t.step) == [0, 12, 24, 30] and list(t.replica) == [0, 0, 0, 0]
        assert np.allclose(t.time, t.step * w.info["dt"])
        for k, step in enumerate(t.step):  # each row is metrics() at its step
            v.step(int(step) - v.steps)
            m = v.metrics(frames=False)[0]
            assert all(t[name][k] == m[name] for name in m.dtype.names), (step, t[k], m)
        assert w.steps == 30 and len(w.run(0)) == 1  # run(0): the current step's row
        # named tables: a pandas frame by default (the set-up installs pandas), a Table that
        # prints its column names without (numpy's record array printed bare tuples)
        frame = w.run(4, every=2)
        assert list(frame["step"]) == [30, 32, 34] and "polarization" in frame.columns
        assert w.metrics()["polarization"][0] == frame["polarization"][2]
        head = repr(w.run(2, frames=False)).splitlines()
        assert head[0].split()[:4] == ["step", "time", "replica", "alive"], head
        assert head[-1] == "[3 rows x 12 columns]" and len(head) == 5, head
        assert repr(v.metrics(frames=False)).splitlines()[0].split()[0] == "step"
        for bad in ({"steps": 1.5}, {"steps": -1}, {"steps": 3, "every": 0},
                    {"steps": 3, "every": True}):
            with pytest.raises(boids.Error) as e:
                w.run(**bad)
            assert e.value.id == "ARGUMENT"
        assert w.steps == 36  # the refused calls stepped nothing


def test_a_row_of_a_table_prints_its_column_names():
    with boids.World(count=50, backend="cpu", seed=3) as w:
        m = w.metrics(frames=False)
        row = m[0]  # numpy printed a bare tuple: (0, 50, 1, 0, 0.0834..., ...)
        assert repr(row).startswith("Row(step=0, alive=50, groups=") and str(row) == repr(row)
        assert f"polarization={m['polarization'][0]:.6g}, " in repr(row)
        # still a numpy record: by name, as an attribute, by position, as a tuple
        assert isinstance(row, np.record) and row.dtype.names == m.dtype.names
        assert row["polarization"] == row.polarization == row[4] == m["polarization"][0]
        assert tuple(row) == np.asarray(m).tolist()[0] and m.polarization[0] == m[0].polarization
        t = w.run(2, frames=False)
        rows = [t[1], t[1:][0], t[[2]][0], t[t.step == 2][0]] + list(t)  # rows however taken
        assert all(repr(r).startswith("Row(step=") for r in rows), rows
        assert float(np.mean(t["polarization"])) == pytest.approx(np.mean(t.polarization))
        assert repr(t).splitlines()[0].split()[0] == "step"  # the table prints as before
    plain = np.zeros(2, dtype=[("a", np.uint32), ("b", np.float64)])
    assert repr(plain.view(boids.Table)[1]) == "Row(a=0, b=0)" and boids.Row is type(m[0])
    assert repr(plain.view(np.recarray).view(boids.Table)[0]) == "Row(a=0, b=0)"
    with boids.World(count=50, backend="cpu", seed=3) as w:  # with pandas: a DataFrame
        frame = w.metrics()
        if boids.tables.have_pandas():  # [0] is pandas' KeyError there; these read both
            assert frame["polarization"][0] == frame.iloc[0]["polarization"] == m[0].polarization


def test_the_package_readme_names_every_world_argument_and_its_example_runs(monkeypatch,
                                                                               capsys):
    import inspect
    readme = open(os.path.join(HERE, "..", "README.md"), encoding="utf-8").read()
    arguments = [a for a in inspect.signature(boids.World).parameters]
    missing = [a for a in arguments if f"`{a}`" not in readme and f"`{a}=" not in readme]
    assert not missing, missing  # (neighbours= was in docs/library.md only)
    examples = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "World(" in b]
    assert examples, "python/README.md shows no World"
    for pandas in (True, False):  # its indexing reads a pandas frame and a boids.Table alike
        monkeypatch.setattr(boids.tables, "have_pandas", lambda: pandas)
        exec(compile(examples[0], "python/README.md", "exec"), {})
        assert 0 <= float(capsys.readouterr().out) <= 1


def _in_forked_child(w, q):
    answers = []
    for what in ("inherited", "new-gpu", "new-cpu"):
        try:
            if what == "inherited":
                w.step(1)
            else:
                with boids.World(count=300, backend=what[4:]) as mine:
                    mine.step(2)
            answers.append("ok")
        except boids.Error as e:
            answers.append(e.id)
    q.put(answers)


@pytest.mark.parametrize("backend", BACKENDS)
def test_forked_child_answers_at_once(backend):
    # multiprocessing's default on Linux forks: once it hung for ever on a GPU parent
    ctx = multiprocessing.get_context("fork")
    with boids.World(count=500, backend=backend) as w:
        q = ctx.Queue()
        child = ctx.Process(target=_in_forked_child, args=(w, q))
        child.start()
        answers = q.get(timeout=120)
        child.join(60)
        # a GPU parent has its context open: the child may not open the GPU either
        assert answers == ["FORKED", "FORKED" if backend == "gpu" else "ok", "ok"], answers
        w.step(1)  # the parent's world is untouched


def test_step_takes_whole_numbers_and_stops_at_ctrl_c():
    with boids.World(count=20000, backend="cpu", seed=3) as w:
        for bad in (1.9, "3", True, None):
            with pytest.raises(boids.Error) as e:
                w.step(bad)
            assert e.value.id == "ARGUMENT"
        w.step(np.int64(2))
        assert w.info["steps"] == 2
        # Ctrl-C half a second in: KeyboardInterrupt long before the 10^6 steps, the world usable
        timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            w.step(10**6)
        timer.join()
        taken = w.info["steps"]
        assert 2 < taken < 10**6
        w.step(1)
        assert w.info["steps"] == taken + 1


def test_ctrl_c_stops_inside_one_long_step():
    # 200 000 boids each seeing nearly all the others: one step is 4e10 pairs, seconds of C even
    # on many cores; Ctrl-C 0.3 s in stops it inside, undone, and the world steps on
    radii = {"sep_radius": 10, "align_radius": 200, "cohesion_radius": 200}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", boids.CostWarning)
        w = boids.World(count=200000, backend="cpu", seed=3, world=(400, 400), params=radii)
    with w:
        before = w.state()
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            w.step(3)
        timer.join()
        assert w.steps == 0  # stopped inside the first step, which is undone
        assert all(np.array_equal(before[k], v) for k, v in w.state().items())
        w.params.update({"align_radius": 5, "cohesion_radius": 5})
        w.step(1)
        assert w.steps == 1


def test_inputs_are_never_taken_silently():
    with boids.World(model="kit", count=200, backend="cpu") as w:
        speed = w.params["max_speed"]
        for key, value in (("max_speed\0junk", 1), ("max_speed", "160\0garbage")):
            with pytest.raises(boids.Error) as e:
                w.params[key] = value
            assert e.value.id == "ARGUMENT" and "NUL" in e.value.message
        with pytest.raises(boids.Error):
            w.params.update({"max_speed": speed / 2, "nope": 1})  # all or nothing
        with pytest.raises(boids.Error):
            w.params.update({"max_speed": speed / 2, "min_speed": -5})
        assert w.params["max_speed"] == speed
    with pytest.raises(boids.Error) as e:
        boids.World(scenario="kit\0/etc/passwd")
    assert e.value.id == "ARGUMENT"
    for bad in ({"runs": 2.7}, {"steps": "3"}):
        with pytest.raises(boids.Error) as e:
            boids.experiment("kit", **bad)
        assert e.value.id == "ARGUMENT"
    with pytest.raises(boids.Error):  # a scenario named like a flag is a file, not --help
        boids.experiment("--help", runs=1)
    # a world setting given as a model parameter was applied or dropped without a word
    with pytest.raises(boids.Error) as e:
        boids.World(count=100, backend="cpu", params={"steps": 5})
    assert e.value.id == "PARAM_UNKNOWN" and e.value.key == "steps"
    # a path longer than a path may be was cut, and could open another file
    with pytest.raises(boids.Error) as e:
        boids.World(scenario="/tmp/" + "a" * 5000 + ".ini")
    assert e.value.id == "FILE_OPEN" and "longer than" in e.value.message
    # True was one boid, a text obstacle a bare ValueError, a sphere in a flat world kept its z,
    # a flat dims over a 3D world dropped the depth, and a valid world setting given as a
    # parameter said "not a parameter" where an invalid one gave the setting's range error
    for kwargs, error, key in (
            ({"count": True}, "ARGUMENT", "count"),
            ({"seed": False}, "ARGUMENT", "seed"),
            ({"obstacles": [(50, 50)]}, "ARGUMENT", "obstacles"),
            ({"obstacles": [("a", 1, 2)]}, "ARGUMENT", "obstacles"),
            ({"obstacles": ["50,50"]}, "SCENARIO_VALUE", "obstacle"),
            ({"obstacles": [(50, 50, 500, 5)]}, "DEF_OBSTACLE", "obstacle"),
            ({"world": (300, 300, 300), "dims": 2}, "SCENARIO_VALUE", "depth"),
            ({"params": {"neighbours": "nearest:0"}}, "PARAM_UNKNOWN", "neighbours"),
            ({"params": {"neighbours": "nearest:7"}}, "PARAM_UNKNOWN", "neighbours")):
        with pytest.raises(boids.Error) as e:
            boids.World(backend="cpu", **kwargs)
        assert (e.value.id, e.value.key) == (error, key), (kwargs, e.value)
    with boids.World(count=10, backend="cpu", obstacles=["50,50,5", (60, 60, 4)]) as w:
        assert w.info["obstacles"] == 2  # the CLI's text, as the docstring says, and numbers
    with boids.World(count=3, backend="cpu") as w:
        x = w.state()["x"]
        masked = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
        with pytest.raises(boids.Error) as e:  # the masked 2.0 was written as a position
            w.set_state(x=masked)
        assert e.value.id == "ARGUMENT" and "masked" in e.value.message
        assert (w.state()["x"] == x).all()
        w.set_state(x=np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 0, 0]))  # nothing masked
        assert list(w.state()["x"]) == [1.0, 2.0, 3.0]


@pytest.mark.parametrize("dims", [2, 3])
def test_a_world_as_a_picture(dims, tmp_path):
    import matplotlib.image
    pictures = []
    for backend in BACKENDS:
        with boids.World(count=3000, backend=backend, seed=4, dims=dims) as w:
            w.step(3)
            if dims == 2:  # every boid in the top-left quarter: the picture's rows run down
                width, height = w.info["size"]
                s = w.state()
                w.set_state(x=s["x"] * 0.25, y=s["y"] * 0.25)
            rgb = w.image(320, 180)
            assert rgb.shape == (180, 320, 3) and rgb.dtype == np.uint8
            w.save_png(tmp_path / f"{backend}.png", 320, 180)
            png = w._repr_png_()
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
            pictures.append(rgb)
        read = np.round(matplotlib.image.imread(tmp_path / f"{backend}.png") * 255)
        assert np.array_equal(read.astype(np.uint8)[..., :3], rgb)  # the PNG is the array
        drawn = np.any(rgb != rgb[90, 160], axis=2)  # (the centre is background in 2D)
        assert drawn.mean() > 0.002, backend
        if dims == 2:  # nothing but the world's border outside the top-left quarter
            inner = drawn[4:-4, 4:-4]
            assert inner[:40, :80].sum() > 50 * inner[60:, 100:].sum(), backend
    if os.environ.get("BOIDS_GPU_EXACT") == "1":  # the same bits, the same picture
        assert np.array_equal(pictures[0], pictures[1])
    with boids.World(count=10, backend="cpu") as w:
        for bad in ((0, 10), (10, 16385), (True, 10), (1.5, 10)):
            with pytest.raises(boids.Error) as e:
                w.image(*bad)
            assert e.value.id == "ARGUMENT"
        with pytest.raises(boids.Error):
            w.save_png(tmp_path / "no" / "such" / "dir.png")


def test_a_3d_world_has_z_and_vz():
    """A world with a depth: its size and dims, the columns z and vz, a flat world without them."""
    with boids.World(count=2000, world=(400, 300, 200), backend="cpu", seed=3) as w:
        assert w.info["dims"] == 3 and w.info["size"] == (400, 300, 200)
        assert "z" in w.columns() and "vz" in w.columns()
        s = w.state()
        assert (s["z"] >= 0).all() and (s["z"] < 200).all() and s["vz"].std() > 1
        w.set_state(z=np.full(2000, 50, dtype=np.float32), vz=np.zeros(2000, dtype=np.float32))
        w.step(5)
        s = w.state(["z", "vz"])
        assert (s["z"] == 50).all() and (s["vz"] == 0).all()  # the plane stays the plane
    with boids.World(count=1000, dims=3, backend="cpu") as w:
        assert w.info["dims"] == 3 and w.info["size"][0] == w.info["size"][2]
        assert w.info["world_cells"] == w.info["grid"] and len(w.info["cell"]) == 3
    # a torus with more cells of the radius than the grid may hold folds them onto it
    with boids.World(count=3000, world=(75000, 75000), backend="cpu") as w:
        i = w.info
        assert all(f > g for f, g in zip(i["world_cells"], i["grid"]))
        assert all(abs(f * c - s) < 1e-3 * s for f, c, s in zip(i["world_cells"], i["cell"],
                                                                 i["size"]))
    # a 3D world's obstacles are spheres (x, y, z, r); a circle's (x, y, r) has no z there
    with boids.World(count=500, world=(300, 300, 300), obstacles=[(150, 150, 150, 40)],
                     backend="cpu") as w:
        assert w.info["obstacles"] == 1
        w.step(3)
    with pytest.raises(boids.Error) as e:
        boids.World(count=500, world=(300, 300, 300), obstacles=[(150, 150, 40)], backend="cpu")
    assert "no centre z" in str(e.value)
    with boids.World(count=1000, backend="cpu") as w:
        assert w.info["dims"] == 2 and "z" not in w.columns()
        with pytest.raises(boids.Error) as e:
            w.state(["z"])
        assert e.value.key == "z"
    # kit in 3D: its predators have z and vz, in the box; a flat world's have neither
    with boids.World(model="kit", count=300, world=(2000, 2000, 1000), backend="cpu", seed=4) as w:
        w.step(3)
        p = w.predators()
        assert set(p) == {"x", "y", "vx", "vy", "z", "vz"} and len(p["z"]) == w.info["predators"]
        assert (p["z"] >= 0).all() and (p["z"] < 1000).all() and (p["vz"] != 0).any()
    with boids.World(model="kit", count=35, backend="cpu") as w:
        assert set(w.predators()) == {"x", "y", "vx", "vy"}
