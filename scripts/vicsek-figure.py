#!/usr/bin/python3
"""Vicsek et al. 1995's figure 2, made again with `boids experiment`, and its exponents.

usage: scripts/vicsek-figure.py [--out DIR] [--backend cpu|gpu|auto] [--boids PROGRAM]
                                [--sizes N,N,...] [--quick] [--store FILE | --stored FILE]

Figure 2a: the order parameter v_a = |sum v_i| / (N v) (the polarization) against the noise eta
at the density rho = N / L^2 = 4, for the paper's system sizes N = 40, 100, 400, 4000, 10000
(L = 3.1, 5, 10, 31.6, 50; 10000 only with --sizes: it takes 10 minutes here). Figure 2b: v_a
against rho in the box L = 20 at eta = 2. Each point is the mean over runs (seeds 1, 2, ...) of
a run's mean v_a over its second half (sampled every 50 steps; 3000 steps, 8000 at L = 31.6 and
20 000 at L = 50, which take longer to order). On the GPU a point's runs are the replicas of one
world.

The exponents, as the paper estimates them: v_a ~ ((eta_c - eta) / eta_c)^beta below the
transition (the largest N), v_a ~ ((rho - rho_c) / rho_c)^delta above it, each the slope of a
least-squares line in log-log through the 5 points nearest the critical value on the ordered
side, with eta_c (rho_c) chosen where that line is straightest (the paper chose them to
straighten its lines); their uncertainty is the spread of the whole estimate over bootstrap
resamples of the runs (with 3 runs a point, an underestimate).

DIR (default vicsek-figure) receives a directory per experiment (kept: a second call reuses the
finished ones and finishes an interrupted one with --resume, so Ctrl-C loses nothing finished),
vicsek.csv (one row per point), vicsek.png (both panels) and vicsek.md (the numbers, as the
README shows them). --quick: three sizes up to 400, 2 runs a point and half the densities up to
3, for a try (20 s). --store FILE writes every run's mean there; --stored FILE takes them from it
and makes one run an experiment again, which must give its stored mean to the bit (the figure
in a minute: scripts/figures.sh --check does so with tests/figures/vicsek.tsv).
Needs Debian's python3-numpy and python3-matplotlib (scripts/install-deps.sh).
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import time

import numpy as np

from experiment_dirs import (Stored, complete_rows, plan_of, prepare, save_png, sizes_arg,
                             stored_args)

EVERY = 50
# figure 2a: (N, L, runs, steps). A larger box takes longer to order from a random start (the
# heading's news crosses it at v = 0.03 per step): 3000 steps up to L = 10, 8000 at L = 31.6, and
# 20 000 at L = 50, which is not run unless asked for (--sizes): it alone would take 10 minutes.
SIZES = [(40, 3.1, 20, 3000), (100, 5, 20, 3000), (400, 10, 10, 3000), (4000, 31.6, 3, 8000),
         (10000, 50, 2, 20000)]
DEFAULT_SIZES = (40, 100, 400, 4000)
ETAS = [round(0.25 * k, 2) for k in range(21)]  # 0 to 5, as the paper's axis
# figure 2b: densities in L = 20 at eta = 2
L_B, ETA_B, RUNS_B, STEPS_B = 20, 2.0, 4, 3000
# (dense below 1, where the transition is at this size, so a fit near it has its points)
RHOS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 8.0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="vicsek-figure")
    ap.add_argument("--backend", default="cpu", choices=("cpu", "gpu", "auto"))
    ap.add_argument("--boids", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "..", "build", "release", "src", "boids"))
    ap.add_argument("--sizes", type=sizes_arg,
                    help="figure 2a's N, among 40,100,400,4000,10000 (default 40,100,400,4000)")
    ap.add_argument("--quick", action="store_true",
                    help="N up to 400, 2 runs a point, half the densities up to 3: a try in 20 s "
                    "(its beta comes from N = 400)")
    stored_args(ap)
    a = ap.parse_args()
    sizes = [s for s in SIZES if s[0] in DEFAULT_SIZES]
    if a.quick:
        sizes = SIZES[:3]
    if a.sizes:
        want = set(a.sizes)
        unknown = want - {s[0] for s in SIZES}
        if unknown:
            ap.error(f"--sizes: {sorted(unknown)} not among the paper's 40 100 400 4000 10000")
        sizes = [s for s in SIZES if s[0] in want]
    rhos = [r for r in RHOS[::2] if r <= 3] if a.quick else RHOS
    runs_b = 2 if a.quick else RUNS_B
    prepare(ap, a)
    a.runs = Stored(a, "vicsek-figure.py")
    started = time.monotonic()
    try:
        rows = []
        for n, L, runs, steps in sizes:
            runs = 2 if a.quick else runs
            va = sweep(a, f"fig2a-N{n}", n, L, runs, ETAS, steps)
            for eta, v in zip(ETAS, va):
                rows.append(("2a", n, L, eta, n / L**2, v, steps))
        for rho in rhos:
            n = round(rho * L_B**2)
            va = sweep(a, f"fig2b-N{n}", n, L_B, runs_b, [ETA_B], STEPS_B)
            rows.append(("2b", n, L_B, ETA_B, n / L_B**2, va[0], STEPS_B))
    except KeyboardInterrupt:
        print(f"\nstopped: the finished experiments stay in {a.out}; run the same command to go on",
              file=sys.stderr)
        return 130
    a.runs.save()
    write_tables(a.out, rows, time.monotonic() - started, a.backend)
    return 0


def sweep(a, name, n, L, runs, etas, steps):
    """One experiment (a world of n particles in L x L over the noises etas, `steps` steps): per
    eta, the per-run means of v_a over the second half, as an array of runs. With --stored, the
    stored means, and one run made again (seed 1 at the middle noise) that must give its own."""
    def key(eta, seed):
        return f"{name} eta={eta:g} seed={seed}"
    if a.runs.active:
        eta = etas[len(etas) // 2]
        a.runs.check(key(eta, 1), [run(a, name + "-check", n, L, 1, [eta], steps)[0][0]])
        return [np.array([a.runs.take(key(e, s))[0] for s in range(1, runs + 1)]) for e in etas]
    va = run(a, name, n, L, runs, etas, steps)
    for eta, per_run in zip(etas, va):
        for seed, v in enumerate(per_run, 1):
            a.runs.put(key(eta, seed), [v])
    return va


def run(a, name, n, L, runs, etas, steps):
    """The experiment itself (reused where its directory holds it finished): sweep's arrays."""
    out = os.path.join(a.out, name)
    cmd = [a.boids, "experiment", "vicsek", "-n", str(n), "--world", f"{L}x{L}",
           "--steps", str(steps), "--runs", str(runs), "--metrics-every", str(EVERY),
           "--backend", a.backend]
    cmd += ["--sweep", "eta=" + ",".join(str(e) for e in etas)] if len(etas) > 1 else \
        ["--set", f"eta={etas[0]}"]
    done = os.path.join(out, "runs.csv")
    if os.path.exists(out):
        want = {"boids": n, "runs": runs, "steps": steps, "world": f"{L:g}x{L:g}",
                "version": a.version}
        plan_of(out, want if a.backend == "auto" else dict(want, backend=a.backend),
                "vicsek-figure.py")
    if os.path.exists(done) and complete_rows(done) == runs * len(etas):
        pass  # finished before
    else:
        if os.path.exists(out):
            cmd = [a.boids, "experiment", "--resume", out]
        else:
            cmd += ["--out", out]
        print(f"{name}: {n} particles in {L} x {L}, {len(etas)} noise{'s' * (len(etas) > 1)} x "
              f"{runs} runs", flush=True)
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL)
        if r.returncode == 130:
            raise KeyboardInterrupt
        if r.returncode != 0:
            sys.exit(f"vicsek-figure.py: {' '.join(cmd)} failed ({r.returncode})")
    return time_means(os.path.join(out, "metrics.csv"), etas, runs, len(etas) > 1, steps // 2)


def time_means(path, etas, runs, swept, start):
    """Per eta, an array of each run's mean v_a over its steps from `start` on."""
    acc = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if int(row["step"]) < start:
                continue
            key = (float(row["eta"]) if swept else etas[0], int(row["seed"]))
            s = acc.setdefault(key, [0.0, 0])
            s[0] += float(row["polarization"])
            s[1] += 1
    out = []
    for eta in etas:
        per_run = [s / k for (e, _), (s, k) in sorted(acc.items()) if math.isclose(e, eta)]
        if len(per_run) != runs:
            sys.exit(f"vicsek-figure.py: {path}: {len(per_run)} runs at eta {eta}, not {runs}")
        out.append(np.array(per_run))
    return out


FIT_POINTS = 5


def straightest_fit(x, va, above, lo, hi):
    """The exponent of va ~ ((x - c) / c)^e (above: x > c; else c > x), c in (lo, hi) chosen
    where the log-log line through the FIT_POINTS points nearest c on the ordered side is
    straightest (largest r^2: the same number of points for every c, so a shorter line is not
    favoured; the first c of the largest): (e, c). Every c at once, each line in closed form (the
    bootstrap fits 200 resamples of 400 lines)."""
    c = np.linspace(lo, hi, 400)[:, None]
    t = (x - c) / c if above else (c - x) / c
    t = np.where((t > 0) & (va > 0), t, np.inf)
    use = np.argsort(t, axis=1, kind="stable")[:, :FIT_POINTS]
    ok = np.isfinite(np.take_along_axis(t, use, 1)).all(1)
    if not ok.any():
        return math.nan, math.nan
    use = use[ok]
    lx = np.log(np.take_along_axis(t[ok], use, 1))
    ly = np.log(np.maximum(va, 1e-300)[use])
    dx, dy = lx - lx.mean(1, keepdims=True), ly - ly.mean(1, keepdims=True)
    slope = (dx * dy).sum(1) / (dx * dx).sum(1)
    r2 = 1 - ((dy - slope[:, None] * dx) ** 2).sum(1) / (dy * dy).sum(1)
    best = np.argmax(np.where(np.isnan(r2), -np.inf, r2))
    return slope[best], c[ok, 0][best]


def exponent(x, per_run, above, lo, hi, resamples=200):
    """The straightest fit of the run means, and its bootstrap spread over the runs."""
    mean = np.array([r.mean() for r in per_run])
    e, c = straightest_fit(x, mean, above, lo, hi)
    rng = np.random.default_rng(1)
    boot = []
    for _ in range(resamples):
        m = np.array([rng.choice(r, size=len(r)).mean() for r in per_run])
        boot.append(straightest_fit(x, m, above, lo, hi))
    boot = np.array(boot)
    ok = np.isfinite(boot[:, 0])
    spread = (np.std(boot[ok, 0]), np.std(boot[ok, 1])) if ok.sum() > 1 else (math.nan,) * 2
    return e, spread[0], c, spread[1]


def apart(x, sx, y, sy):
    """How far an estimate lies from the paper's, in combined standard deviations."""
    if not (math.isfinite(x) and math.isfinite(sx)):
        return "not estimated"
    z = abs(x - y) / math.hypot(sx, sy)
    side = "below" if x < y else "above"
    return f"ours {z:.1f} combined standard deviations {side} it"


def write_tables(out, rows, seconds, backend):
    with open(os.path.join(out, "vicsek.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["figure", "N", "L", "eta", "rho", "steps", "runs", "va_mean", "va_sd"])
        for fig, n, L, eta, rho, v, steps in rows:
            w.writerow([fig, n, L, eta, f"{rho:.4g}", steps, len(v), f"{v.mean():.4f}",
                        f"{v.std(ddof=1) if len(v) > 1 else 0:.4f}"])
    a = [r for r in rows if r[0] == "2a"]
    b = [r for r in rows if r[0] == "2b"]
    sizes = sorted({r[1] for r in a})
    big = [r for r in a if r[1] == sizes[-1]]
    eta = np.array([r[3] for r in big])
    beta = exponent(eta, [r[5] for r in big], False, 2.0, 5.0)
    rho = np.array([r[4] for r in b])
    delta = exponent(rho, [r[5] for r in b], True, 0.05, 2.0)
    plot(out, a, b, sizes)
    lines = ["Figure 2a (rho = 4), v_a at eta = 0 to 5 (each run's mean over its second half, the "
             "mean of the runs):", "",
             "| N | L | steps | runs | " + " | ".join(f"eta {e:g}" for e in (0, 1, 2, 3, 4, 5)) +
             " |", "|---|---|---|---|" + "---|" * 6]
    for n in sizes:
        pts = {r[3]: r[5] for r in a if r[1] == n}
        first = next(r for r in a if r[1] == n)
        lines.append(f"| {n} | {first[2]:g} | {first[6]} | {len(pts[0.0])} | " +
                     " | ".join(f"{pts[float(e)].mean():.3f}" for e in (0, 1, 2, 3, 4, 5)) + " |")
    few = f"not estimated: fewer than {FIT_POINTS} points on the ordered side"
    if math.isfinite(beta[0]):
        lines += ["", f"beta = {beta[0]:.2f} +- {beta[1]:.2f} (N = {sizes[-1]}, eta_c = "
                  f"{beta[2]:.2f} +- {beta[3]:.2f}); the paper: beta = 0.45 +- 0.07, "
                  f"{apart(beta[0], beta[1], 0.45, 0.07)}."]
    else:
        lines += ["", f"beta: {few}."]
    if delta and math.isfinite(delta[0]):
        lines += ["", f"delta = {delta[0]:.2f} +- {delta[1]:.2f} (L = {L_B}, eta = {ETA_B:g}, "
                  f"rho_c = {delta[2]:.2f} +- {delta[3]:.2f}); the paper: delta = 0.35 +- 0.06, "
                  f"{apart(delta[0], delta[1], 0.35, 0.06)}."]
    else:
        lines += ["", f"delta: {few} (--quick has fewer densities)."]
    with open(os.path.join(out, "vicsek.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"({seconds:.0f} s on the {backend} backend; {out}/vicsek.png, vicsek.csv, vicsek.md)")


def plot(out, a, b, sizes):
    from matplotlib.figure import Figure  # draws to a file: no display, no GUI toolkit
    fig = Figure(figsize=(10, 4.2))
    ax, bx = fig.subplots(1, 2)
    marks = "s+x^o"
    for k, n in enumerate(sizes):
        pts = [r for r in a if r[1] == n]
        ax.errorbar([r[3] for r in pts], [r[5].mean() for r in pts],
                    yerr=[r[5].std(ddof=1) if len(r[5]) > 1 else 0 for r in pts],
                    marker=marks[k % 5], ms=5, lw=0.8, capsize=2, label=f"N = {n}")
    ax.set(xlabel="eta", ylabel="v_a (bars: the runs' standard deviation)", ylim=(0, 1.02),
           xlim=(0, 5.1), title="2a: rho = 4 (L = sqrt(N / 4))")
    ax.legend(frameon=False)
    if b:
        bx.errorbar([r[4] for r in b], [r[5].mean() for r in b],
                    yerr=[r[5].std(ddof=1) for r in b], marker="o", ms=4, lw=0.8, capsize=2)
    bx.set(xlabel="rho", ylabel="v_a", ylim=(0, 1.02), title=f"2b: L = {L_B}, eta = {ETA_B:g}")
    fig.suptitle("Vicsek et al. 1995, figure 2, by boids experiment")
    save_png(fig, out, "vicsek.png")


if __name__ == "__main__":
    sys.exit(main())
