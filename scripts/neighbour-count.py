#!/usr/bin/python3
"""The mean number of neighbours of a flat flock on a torus: over the agents, how many others lie
closer than RADIUS (the minimum image across the wrap). One measure for both sides of
scripts/peer-mason.sh (our --dump and the MASON driver's dump) and for tests/test_peer_mason.sh.

usage: scripts/neighbour-count.py STATE.csv WIDTH HEIGHT [RADIUS]     (RADIUS default 15)

STATE.csv has a header naming columns x and y (boids --dump writes id,x,y,vx,vy,swarm); prints
the mean with 4 decimals. Plain Python (no numpy): a grid of cells at least RADIUS wide, each
agent against the 3x3 cells about its own; a million agents take about a minute."""
import csv
import math
import sys


def read_xy(path):
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        ix, iy = header.index("x"), header.index("y")
        return [(float(r[ix]), float(r[iy])) for r in rows if r]


def mean_neighbours(points, width, height, radius):
    nx, ny = max(1, int(width // radius)), max(1, int(height // radius))
    if nx < 3 or ny < 3:  # a world under 3 cells wide: every pair, each once
        cells = {(0, 0): points}
        nx = ny = 1
    else:
        cells = {}
        for p in points:
            key = (int(p[0] / width * nx) % nx, int(p[1] / height * ny) % ny)
            cells.setdefault(key, []).append(p)
    r2, hw, hh, total = radius * radius, width / 2, height / 2, 0
    for (cx, cy), own in cells.items():
        near = []
        for ox in ((-1, 0, 1) if nx > 1 else (0,)):
            for oy in ((-1, 0, 1) if ny > 1 else (0,)):
                near += cells.get(((cx + ox) % nx, (cy + oy) % ny), [])
        for x, y in own:
            for u, v in near:
                dx, dy = abs(u - x), abs(v - y)
                if dx > hw:
                    dx = width - dx
                if dy > hh:
                    dy = height - dy
                if dx * dx + dy * dy < r2:
                    total += 1
            total -= 1  # itself
    return total / len(points) if points else math.nan


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.split("\n\n")[1])
    points = read_xy(sys.argv[1])
    width, height = float(sys.argv[2]), float(sys.argv[3])
    radius = float(sys.argv[4]) if len(sys.argv) == 5 else 15.0
    print(f"{mean_neighbours(points, width, height, radius):.4f}")


if __name__ == "__main__":
    main()
