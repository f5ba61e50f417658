"""What reading a world's state into numpy costs, against a plain numpy copy of the same bytes.

usage: PYTHONPATH=python python3 bench/state_read.py [BOIDS] [BACKEND...]   (default 1000000,
cpu gpu). Prints, per backend, the median of 7 reads of World.state() (every column, one read of
the world) and its ratio to numpy copying the same number of bytes."""
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


count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
for backend in sys.argv[2:] or ["cpu", "gpu"]:
    with boids.World(count=count, backend=backend, seed=1) as w:
        w.step(5)
        w.finish()
        state = w.state()
        nbytes = sum(a.nbytes for a in state.values())
        source = np.ones(nbytes // 4, dtype=np.float32)
        read = median_seconds(w.state)
        copy = median_seconds(lambda: source.copy())
        print(f"{backend}: {count} boids, {nbytes / 1e6:.0f} MB: state() {read * 1e3:.1f} ms, "
              f"numpy copy {copy * 1e3:.1f} ms: {read / copy:.1f} copies ({w.info['renderer']})")
