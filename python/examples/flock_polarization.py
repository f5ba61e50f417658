"""A 100k flock on the GPU: polarization over time, plotted.
usage: flock_polarization.py [BOIDS] [STEPS] [OUT.png] [BACKEND]"""
import sys
from matplotlib.figure import Figure  # draws to a file: no display, no GUI toolkit
import boids
if {"-h", "--help"} & set(sys.argv[1:]): sys.exit(print(__doc__))  # noqa: E701
args = sys.argv[1:] + [None] * 4
count, steps = int(args[0] or 100_000), int(args[1] or 600)
out, backend = args[2] or "polarization.png", args[3] or "gpu"
with boids.World(model="shiffman-per-second", count=count, backend=backend, seed=1) as w:
    t, p = [], []
    for k in range(0, steps + 1, 20):
        w.step(20 if k else 0)
        m = w.metrics()  # computed where the world lives: only these numbers come back
        t.append(k * w.info["dt"]), p.append(m["polarization"][0])
    print(f"{w}: polarization {p[0]:.3f} -> {p[-1]:.3f}")
ax = Figure().subplots()
ax.plot(t, p), ax.set(xlabel="time (s)", ylabel="polarization", ylim=(0, 1),
                      title=f"{count} boids, shiffman-per-second")
ax.figure.savefig(out, dpi=100)
