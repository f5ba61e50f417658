#!/usr/bin/python3
"""Couzin et al. 2002's collective states and collective memory, made again with boids.

usage: scripts/couzin-figure.py [--out DIR] [--boids PROGRAM] [--quick]
                               [--store FILE | --stored FILE]

The paper's group (scenarios/couzin.ini: 100 individuals in 3D, r_r = 1, delta r_a = 14,
alpha = 270 degrees, theta = 40 degrees/s, s = 3, sigma = 0.05, tau = 0.1) over the width of
the zone of orientation, delta r_o, measured by the group polarization p_group (the
polarization metric) and the group angular momentum m_group (the milling metric), each a run's
mean over the second half of its steps (sampled every 50):

  states      `boids experiment` from random starts, delta r_o from 0 to 15, 3000 steps a run,
              10 runs a value (seeds 1 to 10)
  memory      chains of runs, each starting from the last one's final state (`--init` of the
              previous `--dump`): delta r_o up from 0 to 15 in steps of 1, then down to 0 again,
              1000 steps a value, 10 chains (the paper's test of collective memory)

Each run is classed by our thresholds: highly parallel (p >= 0.95), dynamic parallel (0.5 <= p <
0.95), torus (p < 0.5, m >= 0.5), swarm (both below 0.5); a value's state is its runs' majority.

DIR (default couzin-figure) keeps every experiment and chain link: a second call reuses what is
finished, so Ctrl-C loses nothing done. It receives couzin.csv (one row per point), couzin.png
(both panels), couzin.md (the states' boundaries, as the docs show them) and couzin-torus.png
(the preset's torus, close up, seen along its axis). --quick: 2 runs and 2
chains, for a try (30 s). --store FILE writes every run's and link's p and m there; --stored
FILE takes them from it and makes again one run of the states and the first two links of one
chain, which must give their stored numbers to the bit (scripts/figures.sh --check does so with
tests/figures/couzin.tsv). Needs Debian's python3-numpy and python3-matplotlib
(scripts/install-deps.sh).
"""
import argparse
import concurrent.futures
import csv
import os
import subprocess
import sys
import time

import numpy as np

from experiment_dirs import Stored, complete_rows, plan_of, prepare, save_png, stored_args

EVERY = 50
STATE_WIDTHS = [0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 15]
STATE_RUNS, STATE_STEPS = 10, 3000
UP = list(range(0, 16))
CHAIN = UP + UP[-2::-1]  # 0, 1, ..., 15, 14, ..., 0
CHAINS, LINK_STEPS = 10, 1000
STATES = ("swarm", "torus", "dynamic parallel", "highly parallel")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="couzin-figure")
    ap.add_argument("--boids", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "..", "build", "release", "src", "boids"))
    ap.add_argument("--quick", action="store_true", help="2 runs and 2 chains: a try")
    stored_args(ap)
    a = ap.parse_args()
    prepare(ap, a)
    a.runs = Stored(a, "couzin-figure.py")
    runs = 2 if a.quick else STATE_RUNS
    chains = 2 if a.quick else CHAINS
    started = time.monotonic()
    try:
        torus_picture(a)
        states = state_sweep(a, runs)
        memory = hysteresis(a, chains)
    except KeyboardInterrupt:
        print(f"\nstopped: what finished stays in {a.out}; run the same command to go on",
              file=sys.stderr)
        return 130
    a.runs.save()
    write_tables(a.out, states, memory, time.monotonic() - started)
    return 0


def run(cmd):
    """Runs one command of the program, quietly; Ctrl-C (exit 130) goes on up."""
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL)
    if r.returncode == 130:
        raise KeyboardInterrupt
    if r.returncode != 0:
        sys.exit(f"couzin-figure.py: {' '.join(cmd)} failed ({r.returncode})")


def torus_picture(a):
    """couzin-torus.png: the preset's group after its 3000 steps (delta r_o = 2: a torus), moved
    to the box's centre (its final state shifted through the wrap) and seen from 32 units along
    its axis of rotation (the direction of sum r_i x v_i about its centre), each drawn 1 long
    (r_r is 1)."""
    d = os.path.join(a.out, "torus")
    os.makedirs(d, exist_ok=True)
    state, centred = os.path.join(d, "state.csv"), os.path.join(d, "centred.csv")
    if not os.path.exists(state):
        run([a.boids, "couzin", "--headless", "--backend", "cpu", "--threads", "1",
             "--dump", state + ".part"])
        os.replace(state + ".part", state)
    with open(state, newline="") as f:
        rows = list(csv.DictReader(f))
    p = np.array([[float(r[k]) for k in "xyz"] for r in rows])
    v = np.array([[float(r["v" + k]) for k in "xyz"] for r in rows])
    size = 100.0  # the preset's box
    turn = 2 * np.pi * p / size  # the centre on a torus: each axis' circular mean
    c = np.arctan2(np.sin(turn).mean(0), np.cos(turn).mean(0)) % (2 * np.pi) * size / (2 * np.pi)
    r = (p - c + size / 2) % size - size / 2  # offsets from it, minimum image
    axis = np.cross(r, v).sum(0)
    axis /= np.linalg.norm(axis)
    with open(centred, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        for row, off in zip(rows, r):
            w.writerow(dict(row, **{k: f"{size / 2 + o:.7g}" for k, o in zip("xyz", off)}))
    eye = size / 2 + 32 * axis
    run([a.boids, "couzin", "--init", centred, "--headless", "--backend", "cpu", "--steps", "1",
         "--boid-size", "1",
         "--size", "640x360", "--camera", ",".join(f"{x:.4f}" for x in (*eye, 50, 50, 50, 40)),
         "--screenshot", os.path.join(a.out, "couzin-torus.png")])


def state_sweep(a, runs):
    """{delta r_o: (p per run, m per run)} from random starts, by `boids experiment`. With
    --stored, the stored numbers, and one run made again (seed 1 at delta r_o = 2) that must give
    its own."""
    def key(w, seed):
        return f"states orientation_width={w:g} seed={seed}"
    if a.runs.active:
        p, m = state_runs(a, "states-check", 1, [2])[2]
        a.runs.check(key(2, 1), [p[0], m[0]])
        return {w: tuple(np.array([a.runs.take(key(w, s))[k] for s in range(1, runs + 1)])
                         for k in (0, 1)) for w in STATE_WIDTHS}
    result = state_runs(a, "states", runs, STATE_WIDTHS)
    for w, (p, m) in result.items():
        for seed in range(1, runs + 1):
            a.runs.put(key(w, seed), [p[seed - 1], m[seed - 1]])
    return result


def state_runs(a, name, runs, widths):
    """The experiment itself (reused where its directory holds it finished): state_sweep's
    numbers for these widths."""
    out = os.path.join(a.out, name)
    done = os.path.join(out, "runs.csv")
    if os.path.exists(out):
        plan_of(out, {"runs": runs, "steps": STATE_STEPS, "version": a.version},
                "couzin-figure.py")
    if not (os.path.exists(done) and complete_rows(done) == runs * len(widths)):
        vary = ["--sweep", "orientation_width=" + ",".join(f"{w:g}" for w in widths)] \
            if len(widths) > 1 else ["--set", f"orientation_width={widths[0]:g}"]
        cmd = [a.boids, "experiment", "--resume", out] if os.path.exists(out) else \
            [a.boids, "experiment", "couzin", "--runs", str(runs), "--steps", str(STATE_STEPS),
             "--metrics-every", str(EVERY), "--backend", "cpu", *vary, "--out", out]
        print(f"{name}: delta r_o over {len(widths)} values x {runs} runs", flush=True)
        run(cmd)
    acc = {}
    with open(os.path.join(out, "metrics.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if int(row["step"]) < STATE_STEPS // 2:
                continue
            w = float(row["orientation_width"]) if len(widths) > 1 else widths[0]
            s = acc.setdefault((w, int(row["seed"])), [0.0, 0.0, 0])
            s[0] += float(row["polarization"])
            s[1] += float(row["milling"])
            s[2] += 1
    result = {}
    for w in widths:
        per = [(p / k, m / k) for (x, _), (p, m, k) in sorted(acc.items()) if x == w]
        if len(per) != runs:
            sys.exit(f"couzin-figure.py: {out}: {len(per)} runs at delta r_o {w}, not {runs}")
        result[w] = (np.array([x[0] for x in per]), np.array([x[1] for x in per]))
    return result


def hysteresis(a, chains):
    """[(direction, delta r_o, p per chain, m per chain)] along the chain, the chains run at once
    (one per core), each link from the state the one before it left."""
    base = os.path.join(a.out, "memory")
    os.makedirs(base, exist_ok=True)
    stamp = os.path.join(base, "version")
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read().strip() != a.version:
                sys.exit(f"couzin-figure.py: {base} was made by boids {f.read().strip()}, not "
                         f"{a.version}: give another --out, or remove it")
    else:
        with open(stamp, "w") as f:
            f.write(a.version + "\n")
    def key(c, k):
        return f"memory chain={c + 1} link={k}"
    if a.runs.active:  # the stored links, and chain 1's first two made again
        for k, numbers in enumerate(one_chain(a, base, 0, 2)):
            a.runs.check(key(0, k), numbers)
        per_chain = [[a.runs.take(key(c, k)) for k in range(len(CHAIN))] for c in range(chains)]
    else:
        print(f"memory: {chains} chains of {len(CHAIN)} runs (delta r_o 0 to 15 and back)",
              flush=True)
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            per_chain = list(pool.map(lambda c: one_chain(a, base, c), range(chains)))
        for c, links in enumerate(per_chain):
            for k, numbers in enumerate(links):
                a.runs.put(key(c, k), numbers)
    rows = []
    for k, w in enumerate(CHAIN):
        direction = "up" if k < len(UP) else "down"
        rows.append((direction, w, np.array([c[k][0] for c in per_chain]),
                     np.array([c[k][1] for c in per_chain])))
    return rows


def one_chain(a, base, c, links=len(CHAIN)):
    """Chain c's first `links` links, each (p, m): link k runs from link k-1's final state (the
    first from the preset's random start, seed c + 1), with seed 1000 (c + 1) + k for its
    noise."""
    d = os.path.join(base, f"chain{c + 1:02d}")
    os.makedirs(d, exist_ok=True)
    out = []
    for k, w in enumerate(CHAIN[:links]):
        state, metrics = os.path.join(d, f"{k:02d}.csv"), os.path.join(d, f"{k:02d}.metrics.csv")
        if not (os.path.exists(state) and os.path.exists(metrics)):
            cmd = [a.boids, "couzin", "--headless", "--backend", "cpu", "--threads", "1",
                   "--steps", str(LINK_STEPS), "--seed", str(1000 * (c + 1) + k if k else c + 1),
                   "--set", f"orientation_width={w:g}", "--metrics", metrics + ".part",
                   "--metrics-every", str(EVERY), "--dump", state + ".part"]
            if k:
                cmd += ["--init", os.path.join(d, f"{k - 1:02d}.csv")]
            run(cmd)
            os.replace(metrics + ".part", metrics)
            os.replace(state + ".part", state)  # last: a link is done once its state is
        p = m = n = 0
        with open(metrics, newline="") as f:
            for row in csv.DictReader(f):
                if int(row["step"]) >= LINK_STEPS // 2:
                    p, m, n = p + float(row["polarization"]), m + float(row["milling"]), n + 1
        out.append((p / n, m / n))
    return out


def state_of(p, m):
    """A run's state by our thresholds."""
    if p >= 0.95:
        return "highly parallel"
    if p >= 0.5:
        return "dynamic parallel"
    return "torus" if m >= 0.5 else "swarm"


def majority(ps, ms):
    votes = [state_of(p, m) for p, m in zip(ps, ms)]
    return max(STATES, key=votes.count), votes


def write_tables(out, states, memory, seconds):
    with open(os.path.join(out, "couzin.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["part", "direction", "delta_r_o", "runs", "p_mean", "p_sd", "m_mean", "m_sd",
                    "state", "state_share"])
        rows = [("states", "", x, p, m) for x, (p, m) in states.items()]
        rows += [("memory", d, x, p, m) for d, x, p, m in memory]
        for part, direction, x, p, m in rows:
            state, votes = majority(p, m)
            w.writerow([part, direction, f"{x:g}", len(p), f"{p.mean():.4f}",
                        f"{p.std(ddof=1):.4f}", f"{m.mean():.4f}", f"{m.std(ddof=1):.4f}", state,
                        f"{votes.count(state) / len(votes):.2f}"])
    plot(out, states, memory)
    lines = ["From random starts (each value's majority of runs; p_group and m_group their means):",
             "", "| delta r_o | " + " | ".join(f"{x:g}" for x in states) + " |",
             "|---|" + "---|" * len(states)]
    lines.append("| p_group | " + " | ".join(f"{p.mean():.2f}" for p, _ in states.values()) + " |")
    lines.append("| m_group | " + " | ".join(f"{m.mean():.2f}" for _, m in states.values()) + " |")
    lines.append("| state | " + " | ".join(short(majority(p, m)[0]) for p, m in states.values()) +
                 " |")
    lines += ["", "Collective memory (delta r_o up from 0, then down from 15; the chains' majority "
              "at each value):", "", "| delta r_o | " + " | ".join(str(x) for x in UP) + " |",
              "|---|" + "---|" * len(UP)]
    up = {x: majority(p, m)[0] for d, x, p, m in memory if d == "up"}
    down = {x: majority(p, m)[0] for d, x, p, m in memory if d == "down"}
    down[UP[-1]] = up[UP[-1]]
    lines.append("| up | " + " | ".join(short(up[x]) for x in UP) + " |")
    lines.append("| down | " + " | ".join(short(down[x]) for x in UP) + " |")
    pairs = {}  # (state up, state down): the widths where the sweeps differ so
    for x in UP:
        if up[x] != down[x]:
            pairs.setdefault((up[x], down[x]), []).append(str(x))
    memory_text = "; ".join(f"at delta r_o = {', '.join(xs)}, {u} on the way up and {d} on the "
                            "way down" for (u, d), xs in pairs.items())
    lines += ["", "States: " + boundaries(states) + ".", "",
              "Memory: " + (f"the two sweeps differ {memory_text}" if pairs
                            else "the two sweeps agree everywhere") + "."]
    lines.append("")
    lines.append("(S swarm, T torus, DP dynamic parallel, HP highly parallel)")
    with open(os.path.join(out, "couzin.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"({seconds:.0f} s on the CPU backend; {out}/couzin.png, couzin.csv, couzin.md, "
          "couzin-torus.png)")


def short(state):
    return {"swarm": "S", "torus": "T", "dynamic parallel": "DP", "highly parallel": "HP"}[state]


def boundaries(states):
    """Where the majority state changes along delta r_o, from random starts."""
    seq = [(x, majority(p, m)[0]) for x, (p, m) in states.items()]
    parts = [f"{seq[0][1]} at delta r_o = {seq[0][0]:g}"]
    for (x0, s0), (x1, s1) in zip(seq, seq[1:]):
        if s1 != s0:
            parts.append(f"{s1} from {x1:g}")
    return ", ".join(parts)


def plot(out, states, memory):
    from matplotlib.figure import Figure  # draws to a file: no display, no GUI toolkit
    fig = Figure(figsize=(10, 4.2))
    ax, bx = fig.subplots(1, 2)
    xs = list(states)
    for k, (label, mark) in enumerate((("p_group (polarization)", "o"),
                                       ("m_group (milling)", "s"))):
        ax.errorbar(xs, [states[x][k].mean() for x in xs],
                    yerr=[states[x][k].std(ddof=1) for x in xs], marker=mark, ms=4, lw=0.8,
                    capsize=2, label=label)
    ax.set(xlabel="delta r_o", ylabel="the runs' mean (bars: their standard deviation)",
           ylim=(0, 1.02), title="states from random starts")
    ax.legend(frameon=False, loc="center right")
    for k, (label, colour) in enumerate((("p_group", "C0"), ("m_group", "C1"))):
        for direction, style, mark in (("up", "-", "^"), ("down", "--", "v")):
            pts = [(x, p, m) for d, x, p, m in memory if d == direction]
            bx.plot([x for x, _, _ in pts], [(p if k == 0 else m).mean() for _, p, m in pts],
                    style, color=colour, marker=mark, ms=4, lw=0.8, label=f"{label}, {direction}")
    bx.set(xlabel="delta r_o", ylabel="the chains' mean", ylim=(0, 1.02),
           title="collective memory: up from 0, then down")
    bx.legend(frameon=False, loc="center right", fontsize="small")
    fig.suptitle("Couzin et al. 2002 (N = 100, delta r_a = 14), by boids")
    save_png(fig, out, "couzin.png")


if __name__ == "__main__":
    sys.exit(main())
