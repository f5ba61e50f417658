"""What reading a world's state into numpy costs, against numpy moving the same bytes.

usage: PYTHONPATH=python python3 bench/state_read.py [BOIDS] [BACKEND...]   (default 1000000,
cpu gpu). Prints, per backend, the median of 7 reads of World.state() (every column, one read of
the world) and its ratio to two references: numpy copying the same number of bytes, and numpy
putting the same columns in id order itself (out[ids] = column, each float column, and a copy of
the swarms), which is the work a read in id order cannot avoid."""
import sys
import time

import numpy as np

import boids


def median_seconds(f, repeats=7):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return sorted(times)[len(times) // 2]


def numpy_scatter(columns, ids):
    out = {}
    for name, c in columns.items():
        out[name] = np.empty_like(c)
        if name == "swarm":
            out[name][:] = c
        else:
            out[name][ids] = c
    return out


count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
ids = np.random.default_rng(1).permutation(count)
for backend in sys.argv[2:] or ["cpu", "gpu"]:
    with boids.World(count=count, backend=backend, seed=1) as w:
        w.step(5)
        w.finish()
        state = w.state()
        nbytes = sum(a.nbytes for a in state.values())
        source = np.ones(nbytes // 4, dtype=np.float32)
        read = median_seconds(w.state)
        copy = median_seconds(lambda: source.copy())
        scatter = median_seconds(lambda: numpy_scatter(state, ids))
        print(f"{backend}: {count} boids, {nbytes / 1e6:.0f} MB: state() {read * 1e3:.1f} ms; "
              f"numpy copy {copy * 1e3:.1f} ms: {read / copy:.1f} copies; numpy's own scatter "
              f"by id {scatter * 1e3:.1f} ms: {read / scatter:.2f} of it ({w.info['renderer']})")
