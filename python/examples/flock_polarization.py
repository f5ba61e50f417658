"""A 100k flock on the GPU: polarization over time, plotted.
usage: flock_polarization.py [BOIDS] [STEPS] [OUT.png] [BACKEND]"""
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import boids

args = sys.argv[1:] + [None] * 4
count, steps = int(args[0] or 100_000), int(args[1] or 600)
out, backend = args[2] or "polarization.png", args[3] or "gpu"
with boids.World(model="shiffman-per-second", count=count, backend=backend, seed=1) as w:
    t, p = [], []
    for k in range(0, steps + 1, 20):
        w.step(20 if k else 0)
        m = w.metrics()[0]  # computed where the world lives: only these numbers come back
        t.append(k * w.info["dt"]), p.append(m.polarization)
    print(f"{w}: polarization {p[0]:.3f} -> {p[-1]:.3f}")
plt.plot(t, p), plt.xlabel("time (s)"), plt.ylabel("polarization"), plt.ylim(0, 1)
plt.title(f"{count} boids, shiffman-per-second"), plt.savefig(out, dpi=100)
