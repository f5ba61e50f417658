#!/usr/bin/python3
"""Cavagna et al. 2010's scale-free correlations and Ballerini et al. 2008's topological range,
measured on gregoire-chate flocks with boids' field measures (docs/models.md, "Field measures").

usage: scripts/field-figure.py [--out DIR] [--boids PROGRAM] [--sizes N,N,...] [--quick]
                              [--store FILE | --stored FILE]

Every run starts a formed flock in open space: N particles uniform in a cube at the centre of a
periodic world much larger than the flock, all heading along x (a state written here, numpy's
generator seeded by the run's seed, given to `--init`), and runs on the CPU backend, one thread,
two runs at a time, with `--field` every EVERY steps and `--field-profile` at the end (KINDS
holds each kind of run's neighbours, alpha, beta, eta, start and steps).

  xi against L   ordered flocks (the preset: alpha 3, beta 1, eta 0.3, metric neighbours) of N =
                 100, 300, 1000 (--sizes adds 3000, 10000), RUNS seeds each, in 3D: each run's
                 mean xi (C's first zero from r_e on: `from:0.5`) and diameter L over its second
                 half; the least-squares line xi = a L + b over the runs, a's spread over the
                 seeds (the line through each seed's flocks) and Pearson's r. The disordered
                 regime: eta = 3, the same N at one density in a torus of their own (a gas: the
                 box is the flock, L its side), where xi stays bounded.
  gamma(n)       flocks of N_B at two densities a factor 2 apart (the pair force's lengths r_c,
                 r_e, r_a times 2^(-1/3), the metric range r_0 = 1 kept, the start twice as
                 dense), under metric neighbours (the preset) and under nearest:7 (alpha 1.75,
                 beta 5, eta 0.2, Bialek et al.'s alpha and beta), RUNS seeds each: gamma(n) of
                 each group (`group` flocks) at the end, its mean over the seeds, each run's n_c.

DIR (default field-figure) keeps every run (a second call reuses the finished ones, so Ctrl-C
loses nothing done). It receives field.csv (one row per run), field-xi.png and field-gamma.png
(the figures) and field.md (the numbers, as docs/models.md shows them). --quick: N up to 300,
2 seeds, a third of the steps, N_B 300: a try in seconds. --store FILE writes every run's
numbers there; --stored FILE takes them from it and makes two runs again (seed 1 of the smallest
ordered flock and of the sparse nearest:7 one), which must give their stored numbers to the bit
(scripts/figures.sh --check does so with tests/figures/field.tsv).
Needs Debian's python3-numpy and python3-matplotlib (scripts/install-deps.sh).
"""
import argparse
import concurrent.futures
import csv
import math
import os
import subprocess
import sys
import time

import numpy as np

from experiment_dirs import Stored, prepare, save_png, sizes_arg, stored_args

EVERY, RUNS = 250, 3  # --quick: 2 runs, a third of the steps, N_B 300
DIMS = 3
V0 = 0.05
SIZES = (100, 300, 1000, 3000, 10000)
DEFAULT_SIZES = (100, 300, 1000)
# R: half the world's shortest side; xi from r_e on; each group a flock (a gas: the box)
FIELD = "0,128,20,{flock},from:0.5"
# Each kind of run: its neighbours, alpha, beta, eta, the start's density (particles a unit
# volume in its cube: near the flock's own, else a metric flock clumps into several and a
# nearest:7 one bursts apart) and steps. ordered and gas: xi against L; metric and nearest:7:
# gamma(n). nearest:7 flocks hold together at Bialek et al.'s alpha and beta (a metric one jams
# there), metric ones at the preset's (where nearest:7 falls apart).
KINDS = {"ordered": ("metric", 3, 1, 0.3, 50, 3000),
         "gas": ("metric", 3, 1, 3.0, None, 3000),  # uniform over a box at GAS_DENSITY
         "metric": ("metric", 3, 1, 0.3, 50, 2000),
         "nearest:7": ("nearest:7", 1.75, 5, 0.2, 10, 2000)}
GAS_DENSITY = 1.0
N_B = 1000
SPARSE = {"core_radius": 0.2, "equilibrium": 0.5, "attraction_radius": 0.8}
DENSER = 2 ** (-1 / 3)  # the lengths' factor that doubles a 3D flock's density


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="field-figure")
    ap.add_argument("--boids", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "..", "build", "release", "src", "boids"))
    ap.add_argument("--sizes", type=sizes_arg, help="xi against L's N, among 100,300,1000,3000,"
                    "10000 (default 100,300,1000)")
    ap.add_argument("--quick", action="store_true", help="N up to 300, 2 seeds: a try")
    stored_args(ap)
    a = ap.parse_args()
    sizes = list(DEFAULT_SIZES)
    if a.sizes:
        unknown = set(a.sizes) - set(SIZES)
        if unknown:
            ap.error(f"--sizes: {sorted(unknown)} not among {', '.join(map(str, SIZES))}")
        sizes = sorted(set(a.sizes))
    runs = 2 if a.quick else RUNS
    a.cut, a.n_b = (3, 300) if a.quick else (1, N_B)
    if a.quick:
        sizes = [n for n in sizes if n <= 300]
    prepare(ap, a)
    started = time.monotonic()
    plan = [run_spec(a, "ordered", n, seed) for n in sizes for seed in range(1, runs + 1)]
    plan += [run_spec(a, "gas", n, seed) for n in sizes for seed in range(1, runs + 1)]
    plan += [run_spec(a, f"{dens}-{nb}", a.n_b, seed) for dens in ("sparse", "dense")
             for nb in ("metric", "nearest:7") for seed in range(1, runs + 1)]
    a.runs = Stored(a, "field-figure.py")
    again = {plan[0]["dir"]} | {s["dir"] for s in plan
                                if s["kind"] == "sparse-nearest:7" and s["seed"] == 1}
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda spec: measured(a, spec, spec["dir"] in again), plan))
    except KeyboardInterrupt:
        print(f"\nstopped: the finished runs stay in {a.out}; run the same command to go on",
              file=sys.stderr)
        return 130
    a.runs.save()
    write_tables(a, results, time.monotonic() - started)
    return 0


def run_spec(a, kind, n, seed):
    """What one run is: its directory, world, parameters, neighbours and steps."""
    dense = kind.startswith("dense-")
    nb, alpha, beta, eta, start, steps = KINDS[kind.split("-", 1)[1] if "-" in kind else kind]
    params = {"alpha": alpha, "beta": beta, "eta": eta}
    params.update({k: v * (DENSER if dense else 1.0) for k, v in SPARSE.items()})
    side = (n / start / (2 if dense else 1)) ** (1 / DIMS) if start else 0
    if kind == "gas":  # the whole box, at GAS_DENSITY
        world = [(n / GAS_DENSITY) ** (1 / DIMS)] * DIMS
    elif nb == "metric":  # a metric flock stretches along its way: about 0.5 N^0.6 long
        along = max(40.0, 1.5 * n**0.6)
        world = [along] + [along if n <= 1000 else along / 2] * 2  # 3D cells stay few
    else:  # a nearest:7 flock is a ball of its start's density
        world = [max(40.0, 8 * side)] * DIMS
    steps //= a.cut
    return {"kind": kind, "n": n, "seed": seed, "params": params, "world": world, "side": side,
            "neighbours": nb, "steps": steps,
            "dir": os.path.join(a.out, f"{kind.replace(':', '')}-N{n}-seed{seed}-{steps}")}


def start_state(spec, path):
    """The run's start: a flock in a cube at the world's centre heading along +x (a gas: uniform
    over the box, headings uniform), from numpy's generator seeded by the seed."""
    rng = np.random.default_rng(spec["seed"])
    n, w = spec["n"], np.array(spec["world"])
    if spec["kind"] == "gas":
        pos = rng.uniform(0, 1, (n, DIMS)) * w
        v = rng.normal(size=(n, DIMS))
        v *= V0 / np.linalg.norm(v, axis=1)[:, None]
    else:
        pos = (w - spec["side"]) / 2 + rng.uniform(0, spec["side"], (n, DIMS))
        v = np.tile([V0, 0.0, 0.0], (n, 1))
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["id", "x", "y", "z", "vx", "vy", "vz", "swarm"])
        for i in range(n):
            out.writerow([i, *(f"{c:.9g}" for c in pos[i]), *(f"{c:.9g}" for c in v[i]), 0])


def run(a, spec):
    """One run (reused where finished): its metrics rows from half its steps on and the gamma(n)
    of its last state."""
    d = spec["dir"]
    metrics, profile = os.path.join(d, "metrics.csv"), os.path.join(d, "profile.csv")
    if not os.path.exists(profile):
        os.makedirs(d, exist_ok=True)
        start = os.path.join(d, "start.csv")
        start_state(spec, start)
        world = "x".join(f"{c:.6g}" for c in spec["world"])
        flock = "replica" if spec["kind"] == "gas" else "group"
        cmd = [a.boids, "--model", "gregoire-chate", "--init", start, "--world", world,
               "--seed", str(spec["seed"]), "--neighbours", spec["neighbours"], "--steps",
               str(spec["steps"]), "--headless", "--backend", "cpu", "--threads", "1", "--metrics",
               metrics, "--metrics-every", str(EVERY), "--field",
               FIELD.format(flock=flock), "--field-profile",
               profile + ".tmp"]
        for k, v in spec["params"].items():
            cmd += ["--set", f"{k}={v:.9g}"]
        print(f"{spec['kind']}: {spec['n']} particles, seed {spec['seed']}, {spec['steps']} steps",
              flush=True)
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL)
        if r.returncode == 130:
            raise KeyboardInterrupt
        if r.returncode != 0:
            sys.exit(f"field-figure.py: {' '.join(cmd)} failed ({r.returncode})")
        os.replace(profile + ".tmp", profile)  # the run's mark of being done
    with open(metrics, newline="") as f:
        rows = [r for r in csv.DictReader(f) if int(r["step"]) >= spec["steps"] // 2]
    with open(profile, newline="") as f:
        gamma = [float(r["value"]) for r in csv.DictReader(f) if r["measure"] == "gamma"]
    mean = {k: float(np.mean([float(r[k]) for r in rows]))
            for k in ("xi", "diameter", "polarization", "groups", "mean_nn")}
    return dict(spec, **mean, n_c=int(rows[-1]["n_c"]), gamma=np.array(gamma))


NUMBERS = ("xi", "diameter", "polarization", "groups", "mean_nn", "n_c")


def measured(a, spec, again):
    """run's result, or with --stored the stored numbers (the run made again where `again`, which
    must give them)."""
    key = os.path.basename(spec["dir"])
    if not a.runs.active:
        r = run(a, spec)
        a.runs.put(key, [r[k] for k in NUMBERS] + list(r["gamma"]))
        return r
    if again:
        r = run(a, spec)
        a.runs.check(key, [r[k] for k in NUMBERS] + list(r["gamma"]))
    numbers = a.runs.take(key)
    r = dict(spec, **dict(zip(NUMBERS, numbers)), gamma=np.array(numbers[len(NUMBERS):]))
    r["n_c"] = int(r["n_c"])
    return r


def fit(points):
    """The least-squares line xi = a L + b through (L, xi) points: (a, b, Pearson's r)."""
    x, y = np.array([p[0] for p in points]), np.array([p[1] for p in points])
    a, b = np.polyfit(x, y, 1)
    return a, b, float(np.corrcoef(x, y)[0, 1])


def slope_spread(runs):
    """The spread (standard deviation) of the slope over the seeds: each seed's line through its
    flocks of every size."""
    seeds = sorted({r["seed"] for r in runs})
    slopes = [fit([(r["diameter"], r["xi"]) for r in runs if r["seed"] == s])[0] for s in seeds]
    return float(np.std(slopes, ddof=1)) if len(slopes) > 1 else math.nan


def write_tables(a, results, seconds):
    out = a.out
    keys = ("kind", "n", "seed", "polarization", "groups", "mean_nn", "diameter", "xi", "n_c")
    with open(os.path.join(out, "field.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(list(keys) + ["gamma"])
        for r in results:
            w.writerow([r[k] if isinstance(r[k], (str, int)) else f"{r[k]:.6g}" for k in keys] +
                       [" ".join(f"{g:.4f}" for g in r["gamma"])])
    ordered = [r for r in results if r["kind"] == "ordered"]
    gas = [r for r in results if r["kind"] == "gas"]
    slope, icept, rr = fit([(r["diameter"], r["xi"]) for r in ordered])
    spread = slope_spread(ordered)
    lines = ["xi against the flock's size L (each run's mean over its second half; 3D):", "",
             "| regime | N | runs | polarization | groups | L | xi | xi / L |",
             "|---|---|---|---|---|---|---|---|"]
    for kind, rows in (("ordered", ordered), ("disordered", gas)):
        for n in sorted({r["n"] for r in rows}):
            s = [r for r in rows if r["n"] == n]
            L = np.mean([r["diameter"] if kind == "ordered" else r["world"][0] for r in s])
            xi = np.mean([r["xi"] for r in s])
            lines.append(f"| {kind} | {n} | {len(s)} | "
                         f"{np.mean([r['polarization'] for r in s]):.2f} | "
                         f"{np.mean([r['groups'] for r in s]):.1f} | {L:.1f} | {xi:.2f} | "
                         f"{xi / L:.3f} |")
    ga, gb, gr = fit([(r["world"][0], r["xi"]) for r in gas])
    lines += ["", f"Correlations: in ordered flocks xi = {slope:.3f} L "
              f"{'+' if icept >= 0 else '-'} {abs(icept):.2f} (the slope {slope:.3f} +- "
              f"{spread:.3f} over the seeds, r = {rr:.3f}; Cavagna et al.'s starlings: about "
              f"0.35 L); disordered (eta = {KINDS['gas'][3]:g}, L the box's side) xi = {ga:.3f} L "
              f"{'+' if gb >= 0 else '-'} {abs(gb):.2f} (r = {gr:.3f}).", ""]
    lines += [f"gamma(n) of flocks of {a.n_b} at two densities (the mean over the seeds of each "
              "run's last state, its groups):", "",
              "| density | neighbours | nearest neighbour | groups | gamma(1..8) | n_c per run |",
              "|---|---|---|---|---|---|"]
    for dens in ("sparse", "dense"):
        for nb in ("metric", "nearest:7"):
            s = [r for r in results if r["kind"] == f"{dens}-{nb}"]
            g = np.mean([r["gamma"] for r in s], axis=0)
            lines.append(f"| {dens} | {nb} | {np.mean([r['mean_nn'] for r in s]):.3f} | "
                         f"{np.mean([r['groups'] for r in s]):.1f} | "
                         + " ".join(f"{v:.2f}" for v in g[:8]) + " | "
                         + ", ".join(str(r["n_c"]) for r in s) + " |")
    parts = []
    for nb in ("metric", "nearest:7"):
        each = []
        for dens in ("sparse", "dense"):
            s = [r for r in results if r["kind"] == f"{dens}-{nb}"]
            n_c = np.array([r["n_c"] for r in s], dtype=float)
            each.append(f"{dens} {n_c.mean():.1f} +- {n_c.std(ddof=1) if len(s) > 1 else 0:.1f} "
                        f"(nearest neighbour {np.mean([r['mean_nn'] for r in s]):.3f})")
        parts.append(f"{nb}: " + ", ".join(each))
    lines += ["", "Anisotropy: n_c over the seeds, " + "; ".join(parts) +
              "; Ballerini et al.'s starlings: n_c about 6.5 whatever the density."]
    plot(a, ordered, gas, results, (slope, icept))
    with open(os.path.join(out, "field.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"({seconds:.0f} s; {out}/field-xi.png, field-gamma.png, field.csv, field.md)")


def plot(a, ordered, gas, results, line):
    out = a.out
    from matplotlib.figure import Figure  # draws to a file: no display, no GUI toolkit
    fig = Figure(figsize=(6, 4.2))
    ax = fig.subplots()
    ax.plot([r["diameter"] for r in ordered], [r["xi"] for r in ordered], "o", ms=4,
            label="ordered flocks (L: diameter)")
    ax.plot([r["world"][0] for r in gas], [r["xi"] for r in gas], "x", ms=5,
            label="disordered, eta = %g (L: the box)" % KINDS["gas"][3])
    top = max([r["diameter"] for r in ordered] + [r["world"][0] for r in gas])
    ax.plot([0, top], [line[1], line[0] * top + line[1]], "-", lw=0.8, color="C0")
    ax.plot([0, top], [0, 0.35 * top], ":", lw=0.8, color="gray", label="xi = 0.35 L (starlings)")
    ax.set(xlabel="L", ylabel="xi (first zero of C from r_e on)",
           title="xi against L (Cavagna et al. 2010), gregoire-chate in 3D")
    ax.legend(frameon=False, fontsize=8)
    save_png(fig, out, "field-xi.png")
    fig = Figure(figsize=(6, 4.2))
    bx = fig.subplots()
    marks = {"metric": "o-", "nearest:7": "s--"}
    for dens, color in (("sparse", "C0"), ("dense", "C3")):
        for nb in ("metric", "nearest:7"):
            s = [r for r in results if r["kind"] == f"{dens}-{nb}"]
            g = np.mean([r["gamma"] for r in s], axis=0)
            bx.plot(np.arange(1, len(g) + 1), g, marks[nb], ms=3, lw=0.8, color=color,
                    label=f"{dens}, {nb}")
    bx.axhline(1 / DIMS, color="gray", lw=0.8, ls=":")
    bx.set(xlabel="n", ylabel="gamma(n) (dotted: 1/3, no anisotropy)", ylim=(0, 1),
           title=f"gamma(n) (Ballerini et al. 2008), gregoire-chate, N = {a.n_b}, 3D")
    bx.legend(frameon=False, fontsize=8)
    save_png(fig, out, "field-gamma.png")


if __name__ == "__main__":
    sys.exit(main())
