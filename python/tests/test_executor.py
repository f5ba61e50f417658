"""boids.experiment(executor=...): the runs as shards on any concurrent.futures-like executor
(a process or thread pool, a dask.distributed Client), merged into the local run's tables byte
for byte."""
import concurrent.futures as cf
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest

import boids
from boids.experiment import _submit, run_shard

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TABLES = ("runs.csv", "events.csv", "metrics.csv")
# 3 runs x 2 x 2 combinations: 12 runs, so 12 shards by default; catches, metrics rows and a
# sweep in every table
SETUP = dict(runs=3, sweep={"c_maxspeed": [50, 200], "c_view_radius": [10, 20]}, backend="cpu",
             params={"stop_after_catches": 2}, metrics_every=100, frames=False)


class Counting:
    """An executor that hands each call to another and keeps what it was given."""

    def __init__(self, executor):
        self.executor, self.calls, self.futures = executor, [], []

    def submit(self, fn, *args, **kwargs):
        self.calls.append((fn, args))
        self.futures.append(self.executor.submit(fn, *args, **kwargs))
        return self.futures[-1]


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """The tables of one local run (one `boids experiment` process, its own pool of threads)."""
    out = tmp_path_factory.mktemp("local") / "tables"
    t = boids.experiment("kit", out=str(out), **SETUP)
    assert len(t.runs) == 12 and len(t.events) == 24 and len(t.metrics) > 12
    return out


def same_tables(a, b):
    for name in TABLES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def shard_numbers(calls):
    assert all(fn is run_shard for fn, _ in calls)
    return sorted((args[3], args[4]) for _, args in calls)


@pytest.mark.parametrize("pool", [lambda: cf.ProcessPoolExecutor(2),
                                  lambda: cf.ThreadPoolExecutor(3)], ids=["process", "thread"])
def test_an_executor_s_shards_are_the_local_tables(pool, local, tmp_path):
    with pool() as executor:
        counting = Counting(executor)
        t = boids.experiment("kit", out=str(tmp_path / "sharded"), executor=counting, **SETUP)
    assert shard_numbers(counting.calls) == [(i, 12) for i in range(1, 13)]  # one a run
    for _, args in counting.calls:
        options = args[2]
        assert options[options.index("--jobs") + 1] == "1"  # the executor is the pool
    same_tables(local, tmp_path / "sharded")
    assert len(t.runs) == 12 and t.directory == str(tmp_path / "sharded")


def test_a_scenario_file_travels_as_its_text(local, tmp_path):
    # a file the workers cannot see: its text goes with each task, and the tables are the same
    scenario = tmp_path / "my kit.ini"
    shutil.copy(os.path.join(SOURCE, "scenarios", "kit.ini"), scenario)
    with cf.ThreadPoolExecutor(2) as executor:
        counting = Counting(executor)
        t = boids.experiment(str(scenario), executor=counting, shards=5, jobs=2, **SETUP)
    assert shard_numbers(counting.calls) == [(i, 5) for i in range(1, 6)]
    assert all(args[1] == scenario.read_bytes() for _, args in counting.calls)
    assert all(args[2][args[2].index("--jobs") + 1] == "2" for _, args in counting.calls)
    assert t.directory is None and len(t.runs) == 12 and len(t.events) == 24
    # a worker on another machine: the path is not there, the text is
    files = run_shard("/no/such/dir/kit.ini", scenario.read_bytes(), ["--runs", "3", "--backend",
                      "cpu", "--set", "stop_after_catches=2"], 2, 3)
    assert sorted(files) == ["events.csv", "manifest.ini", "runs.csv"]
    assert files["runs.csv"].count(b"\n") == 2  # the header and run 1 of 0..2
    # its errors name the scenario as the client does, not the worker's temporary copy
    with pytest.raises(boids.Error) as e:
        run_shard("/client/bad.ini", b"model = kit\nmax_speed = -3\n", ["--runs", "1"], 1, 1)
    assert e.value.message.startswith("/client/bad.ini:2: max_speed")
    assert "shard 1/1 on " in e.value.detail


class DaskCounting(Counting):
    """Counting, for a dask Client: its submit's `pure` passed on."""

    def __init__(self, client):
        super().__init__(client)
        self.pure = []

    def submit(self, fn, *args, pure=None):
        self.pure.append(pure)
        self.calls.append((fn, args))
        self.futures.append(self.executor.submit(fn, *args, pure=pure))
        return self.futures[-1]


def failed_at_once(counting, fn, args):
    """A future that holds an error from the start, kept as counting's call."""
    failed = cf.Future()
    failed.set_exception(boids.Error("EXPERIMENT", "shard 2 broke"))
    counting.calls.append((fn, args))
    counting.futures.append(failed)
    return failed


class SecondFails(Counting):
    """Counting, but shard 2 fails at once."""

    def submit(self, fn, *args, **kwargs):
        if args[3] == 2:
            return failed_at_once(self, fn, args)
        return super().submit(fn, *args, **kwargs)


class DaskSecondFails(DaskCounting):
    """DaskCounting, but shard 2 fails at once."""

    def submit(self, fn, *args, pure=None):
        if args[3] == 2:
            return failed_at_once(self, fn, args)
        return super().submit(fn, *args, pure=pure)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # tornado's, in Debian 12
def test_a_dask_cluster_s_shards_are_the_local_tables(local, tmp_path):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        pytest.skip("dask.distributed is not installed (Debian: python3-distributed)")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        counting = DaskCounting(client)
        boids.experiment("kit", out=str(tmp_path / "dask"), executor=counting, shards=4,
                         **SETUP)
        assert shard_numbers(counting.calls) == [(i, 4) for i in range(1, 5)]
        assert counting.pure == [False] * 4  # each call a task of its own
        assert _submit(client).keywords == {"pure": False}  # as dask's own Client says it
        same_tables(local, tmp_path / "dask")
        # a failed shard cancels the others; the same experiment at once after it runs whole
        # (dask took an equal call for the cancelled task, and raised CancelledError)
        failing = DaskSecondFails(client)
        with pytest.raises(boids.Error, match="shard 2 broke"):
            boids.experiment("kit", executor=failing, shards=4, **SETUP)
        assert len(failing.calls) == 4 and failing.pure == [False] * 3
        boids.experiment("kit", out=str(tmp_path / "again"), executor=DaskCounting(client),
                         shards=4, **SETUP)
        same_tables(local, tmp_path / "again")
        with pytest.raises(boids.Error) as e:
            boids.experiment("kit", runs=2, backend="cpu", params={"max_speed": -3},
                             executor=client)
        assert "max_speed" in e.value.message and "-3" in e.value.message


def test_mpi4py_futures_as_the_docs_run_it(local, tmp_path):
    # docs/experiments.md's way: `mpiexec -n N python -m mpi4py.futures script.py`, rank 0 the
    # script, the other ranks the shards
    import subprocess
    import sys
    mpiexec = shutil.which("mpiexec")
    try:
        import mpi4py.futures  # noqa: F401
    except ImportError:
        mpiexec = None
    if not mpiexec:
        pytest.skip("mpi4py or mpiexec is not installed (Debian: python3-mpi4py openmpi-bin)")
    script = tmp_path / "experiment.py"
    script.write_text("import boids\n"
                      "from mpi4py.futures import MPIPoolExecutor\n\n"
                      "if __name__ == '__main__':\n"
                      "    with MPIPoolExecutor() as pool:\n"
                      f"        boids.experiment('kit', executor=pool, out='mpi', **{SETUP!r})\n")
    package = os.path.dirname(os.path.dirname(os.path.abspath(boids.__file__)))
    # Open MPI's settings (others ignore them): as root (a container, CI), more ranks than cores
    env = dict(os.environ, PYTHONPATH=package, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    done = subprocess.run([mpiexec, "-n", "3", sys.executable, "-m", "mpi4py.futures",
                           str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    same_tables(local, tmp_path / "mpi")


def test_a_failing_shard_raises_the_program_s_message(tmp_path):
    # through processes: the worker's boids.Error comes back whole (it pickles)
    with cf.ProcessPoolExecutor(2) as executor:
        counting = Counting(executor)
        with pytest.raises(boids.Error) as e:
            boids.experiment("kit", runs=4, backend="cpu", params={"max_speed": -3},
                             out=str(tmp_path / "bad"), executor=counting)
    assert e.value.id == "EXPERIMENT" and len(counting.calls) == 4
    assert e.value.message == "--set max_speed: -3 is outside [0, 1000000] px/s"
    assert "shard " in e.value.detail
    assert not (tmp_path / "bad").exists()
    # one shard fails at once while the others are slow: they are not waited for but cancelled
    with cf.ThreadPoolExecutor(1) as executor:
        counting = SecondFails(executor)
        start = time.monotonic()
        with pytest.raises(boids.Error, match="shard 2 broke"):
            boids.experiment("kit", runs=6, backend="cpu", count=1000, steps=200, shards=6,
                             executor=counting)
        took = time.monotonic() - start
    assert len(counting.calls) == 6
    assert all(f.cancelled() for f in counting.futures[2:]), "the pending shards ran on"
    assert took < 5


def test_ctrl_c_cancels_the_pending_shards():
    # one worker, 8 shards of a few tenths of a second each: Ctrl-C half a second in finds the
    # later ones waiting; each is cancelled, none started after it
    with cf.ThreadPoolExecutor(1) as executor:
        counting = Counting(executor)
        timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            boids.experiment("kit", runs=8, backend="cpu", count=1000, steps=400, shards=8,
                             executor=counting)
        timer.join()
        started = [f for f in counting.futures if not f.cancelled()]
    assert len(counting.calls) == 8 and 1 <= len(started) < 8
    assert counting.futures[:len(started)] == started  # the first few ran; the rest never did


# A terminal's Ctrl-C: SIGINT to the whole process group, the client, its process pool's workers
# and the shards' programs. The child prints what became of each shard.
CTRL_C_CHILD = """
import concurrent.futures as cf, json, signal, sys
import boids
signal.signal(signal.SIGINT, signal.default_int_handler)  # (a background job's is ignored)
futures = []
class Keeping:
    def __init__(self, ex): self.ex = ex
    def submit(self, *a, **k):
        futures.append(self.ex.submit(*a, **k)); return futures[-1]
try:
    with cf.ProcessPoolExecutor(2) as ex:
        boids.experiment("shiffman-per-second", runs=12, backend="cpu", count=2000, steps=20000,
                         shards=12, executor=Keeping(ex))
    print(json.dumps({"raised": None}))
except KeyboardInterrupt:
    ends = []
    for f in futures:
        if f.cancelled():
            ends.append(["cancelled", ""])
        elif f.exception() is None:
            ends.append(["ran", ""])
        else:
            e = f.exception()
            ends.append([getattr(e, "id", type(e).__name__), getattr(e, "detail", str(e))])
    print(json.dumps({"raised": "KeyboardInterrupt", "ends": ends}))
"""


def test_ctrl_c_of_a_process_pool_starts_no_shard_after_it(tmp_path):
    # A process pool hands each worker a call ahead, which cancel() cannot reach: those shards
    # started after the Ctrl-C and ran to the end (18-46 s). Now a worker whose shard a signal
    # interrupted starts no other of that experiment; no shard runs to its end (each takes
    # seconds, the signal comes a second in), none names a directory to resume (removed).
    (tmp_path / "child.py").write_text(CTRL_C_CHILD)
    child = subprocess.Popen([sys.executable, str(tmp_path / "child.py")], cwd=tmp_path,
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(1.5)
    os.killpg(child.pid, signal.SIGINT)
    out, _ = child.communicate(timeout=120)
    got = json.loads(out)
    assert got["raised"] == "KeyboardInterrupt", got
    ends = got["ends"]
    assert len(ends) == 12 and not any(end == "ran" for end, _ in ends), ends
    started = [why for end, why in ends if end == "INTERRUPTED"]
    assert started and all("interrupted" in why and "--resume" not in why for why in started)
    assert any("not started" in why for why in started) or len(started) <= 2, ends
    assert not _programs_of(child.pid)


def _programs(field, value):
    """The boids programs still running (zombies are ended) whose /proc stat field `field` (after
    the name: 1 the parent, 3 the session) is value."""
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{pid}/stat").read()
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[field]) == value and fields[0] != "Z" and b"experiment" in cmd[1:2]:
            left.append(int(pid))
    return left


def _programs_of(session):
    return _programs(3, session)


def _running(pids):
    """Those of pids still running (not ended, not zombies)."""
    left = []
    for pid in pids:
        try:
            if open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
                left.append(pid)
        except OSError:
            pass
    return left


def test_a_worker_killed_outright_leaves_no_shard_or_directory(tmp_path):
    # kill -9 of a worker: its shard's program stops too (it ran on as an orphan) and its
    # temporary directory is removed by the next shard on the machine (it stayed)
    shards = []

    def kill(worker):
        shards.extend(_programs(1, worker))  # its children, the shard's program
        os.kill(worker, signal.SIGKILL)

    with cf.ProcessPoolExecutor(1) as executor:
        future = executor.submit(os.getpid)
        worker = future.result()
        with pytest.raises(cf.process.BrokenProcessPool):
            timer = threading.Timer(1.5, kill, (worker,))
            timer.start()
            boids.experiment("shiffman-per-second", runs=1, backend="cpu", count=2000, steps=40000,
                             executor=executor)
        timer.join()
    orphans = glob.glob(os.path.join(tempfile.gettempdir(), f"boids-shard-{worker}-*"))
    assert shards and orphans, "the dead worker's program and directory (the shard was running)"
    for _ in range(100):  # it stops within a second of its SIGTERM
        if not _running(shards):
            break
        time.sleep(0.1)
    assert not _running(shards), "the killed worker's shard runs on"
    with cf.ThreadPoolExecutor(1) as executor:
        boids.experiment("kit", runs=1, backend="cpu", count=100, steps=10, executor=executor)
    assert not any(os.path.exists(d) for d in orphans)


def test_the_shards_arguments_are_checked_before_any_runs(tmp_path):
    counting = Counting(None)  # submits nothing: every refusal comes first
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    cases = [(dict(shards=3), "shards"),  # without an executor
             (dict(executor=counting, shards=0), "shards"),
             (dict(executor=counting, shards=2.5), "shards"),
             (dict(executor=counting, out=str(tmp_path / "full")), "out"),
             (dict(executor=counting, out=str(tmp_path / "no" / "such")), "out")]
    for kwargs, key in cases:
        with pytest.raises(boids.Error) as e:
            boids.experiment("kit", runs=2, backend="cpu", **kwargs)
        assert e.value.id == "ARGUMENT" and e.value.key == key, kwargs
    assert counting.calls == []


def test_loaded_model_on_a_process_pool(tmp_path, monkeypatch):
    """A model folder loaded by the client (boids.load_model) runs in an experiment on a
    ProcessPoolExecutor: its files travel with each shard as bytes (a remote worker need not see
    the client's disk), the shard's program loads them from a folder of its own, and the merged
    tables equal the local run's byte for byte."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "models" / "spring"
    shutil.copytree(os.path.join(SOURCE, "examples", "spring"), folder)
    assert boids.load_model(str(folder)) == ["spring"]
    assert boids.load_model(str(folder)) == ["spring"]  # once per process
    assert "spring" in boids.models() and "stiffness" in boids.model_params("spring")
    with boids.World(model="spring", count=300, backend="cpu", seed=2) as w:
        w.step(5)
        assert w.params["stiffness"] == 2.0
    scenario = tmp_path / "spring.ini"
    scenario.write_text("model = spring\nboids = 400\nsteps = 20\n")
    setup = dict(runs=2, sweep={"stiffness": [1, 4]}, backend="cpu", frames=False,
                 metrics_every=10)
    local = boids.experiment(str(scenario), out=str(tmp_path / "local"), **setup)
    assert len(local.runs) == 4
    with cf.ProcessPoolExecutor(2) as pool:
        counting = Counting(pool)
        boids.experiment(str(scenario), out=str(tmp_path / "pool"), executor=counting, **setup)
    models = [args[6] for _, args in counting.calls]
    assert all(m[0][0] == "spring" and b"spring_pair" in m[0][1]["rules.h"] for m in models)
    same_tables(tmp_path / "local", tmp_path / "pool")
