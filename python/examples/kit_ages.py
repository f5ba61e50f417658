"""The kit paper's question: do predators catch the young and the old (c_maxspeed = 200)?
usage: kit_ages.py [RUNS] [OUT.png] [BACKEND]"""
import sys
from matplotlib.figure import Figure  # draws to a file: no display, no GUI toolkit
import numpy as np
import boids
if {"-h", "--help"} & set(sys.argv[1:]): sys.exit(print(__doc__))  # noqa: E701
args = sys.argv[1:] + [None] * 3
runs, out, backend = int(args[0] or 120), args[1] or "kit_ages.png", args[2] or "auto"
t = boids.experiment("kit", runs=runs, params={"c_maxspeed": 200, "stop_after_catches": 3},
                     backend=backend, frames=False)
ages = np.asarray(t.events["age"])
ax = Figure().subplots()
ax.hist(ages, bins=10, range=(0, 1), color="tab:blue", edgecolor="white")
ax.axhline(len(ages) / 10, ls="--", color="gray", label="uniform ages"), ax.legend()
ax.set(xlabel="age of the caught boid", ylabel="catches",
       title=f"kit, c_maxspeed = 200: {len(ages)} catches in {runs} runs")
ax.figure.savefig(out, dpi=100)
print(f"{np.mean(np.abs(ages - 0.5) > 0.25):.0%} of {len(ages)} caught boids are aged under "
      "0.25 or over 0.75 (uniform ages: 50 %)")
