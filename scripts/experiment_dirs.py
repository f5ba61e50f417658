"""What the figure scripts (vicsek-figure.py, couzin-figure.py, field-figure.py) share: the
experiment directories they keep (a finished one is reused only as it is), the --sizes argument
and how a figure lands on disk."""
import argparse
import os
import subprocess
import sys


def prepare(ap, a):
    """Checks the arguments every figure script has: a.boids names a program (a.version becomes
    its version) and the directory a.out exists or can be made; a clear error through ap if not."""
    if not os.access(a.boids, os.X_OK):
        ap.error(f"--boids: {a.boids} is not a program (build it: README, or name it)")
    a.version = subprocess.run([a.boids, "--version"], capture_output=True,
                               text=True).stdout.split()[-1]
    try:
        os.makedirs(a.out, exist_ok=True)
    except OSError as e:
        ap.error(f"--out {a.out}: {e.strerror}")


def complete_rows(path):
    """The rows of a table that end in a newline (a cut-off last line is no run), header aside."""
    with open(path, newline="") as f:
        return sum(1 for line in f if line.endswith("\n")) - 1


def plan_of(out, want, who):
    """Refuses (exits, naming the script `who`) an experiment directory made with another plan or
    another version of the program than this call's: want maps manifest keys to values."""
    have = {}
    with open(os.path.join(out, "manifest.ini")) as f:
        for line in f:
            key, eq, value = line.partition("=")
            if eq and not key.startswith(";"):
                have[key.strip()] = value.split(";")[0].strip()
    for key, value in want.items():
        if have.get(key) != str(value):
            sys.exit(f"{who}: {out} holds an experiment with {key} = {have.get(key)}, not {value}: "
                     "give another --out, or remove it")


def save_png(fig, out, name):
    """A matplotlib figure as out/name, at 80 dpi, without the library's version in its metadata
    (the same bytes on any machine with the same fonts), under a temporary name renamed into
    place."""
    tmp = os.path.join(out, f".{name}.tmp")
    fig.tight_layout()
    fig.savefig(tmp, dpi=80, format="png", metadata={"Software": None})
    os.replace(tmp, os.path.join(out, name))


def sizes_arg(text):
    """--sizes N,N,...: whole numbers."""
    try:
        return [int(n) for n in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of whole numbers such as 100,400")
