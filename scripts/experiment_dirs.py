"""What the figure scripts (vicsek-figure.py, couzin-figure.py, field-figure.py) share: the
experiment directories they keep (a finished one is reused only as it is), the runs' numbers
stored in the repository (--store, --stored), the --sizes argument and how a figure lands on
disk."""
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


def stored_args(ap):
    """--store FILE and --stored FILE (Stored)."""
    ap.add_argument("--store", metavar="FILE",
                    help="after the whole figure, write every run's numbers to FILE (what "
                    "--stored reads; scripts/figures.sh --update keeps them in tests/figures/)")
    ap.add_argument("--stored", metavar="FILE",
                    help="take the runs' numbers from FILE, but for a few runs the script makes "
                    "again, which must give FILE's numbers exactly: the figure in seconds")


class Stored:
    """The numbers of a figure's runs, kept in a file: what a check of the figure needs without
    making every run again. The CPU backend gives the same bits on every machine, so a run's
    numbers are data, like the golden hashes (tests/golden.txt). With --stored FILE a script takes
    each run's numbers from FILE, and makes again only the runs it names to `check`, whose
    numbers must equal FILE's to the last bit: a FILE that a change of results left stale stops
    the script, naming the run (scripts/figures.sh --update writes it anew). With --store FILE it
    makes every run and writes their numbers there. A line: the run's key, then its numbers as
    Python's repr (which reads back the same double)."""

    def __init__(self, a, who):
        self.who, self.path, self.out, self.got = who, a.stored, a.store, {}
        self.table = None
        if a.stored:
            self.table = {}
            try:
                with open(a.stored) as f:
                    for n, line in enumerate(f, 1):
                        if line.startswith("#"):
                            continue
                        key, _, values = line.rstrip("\n").partition("\t")
                        if not values:
                            sys.exit(f"{who}: {a.stored}:{n}: not 'KEY<tab>NUMBERS'")
                        self.table[key] = [float(v) for v in values.split()]
            except OSError as e:
                sys.exit(f"{who}: --stored {a.stored}: {e.strerror}")
            except ValueError:
                sys.exit(f"{who}: {a.stored}:{n}: a number that is not one")
        self.checked = 0

    @property
    def active(self):
        """Whether the numbers come from the file."""
        return self.table is not None

    def take(self, key):
        """The stored numbers of the run `key`."""
        if key not in self.table:
            sys.exit(f"{self.who}: {self.path} has no run '{key}' (stale: scripts/figures.sh "
                     "--update writes it anew)")
        return self.table[key]

    def check(self, key, numbers):
        """A run made again: its numbers must be the stored ones, bit for bit."""
        want = self.take(key)
        if [float(x) for x in numbers] != want:
            sys.exit(f"{self.who}: the run '{key}' gives {[float(x) for x in numbers]}, "
                     f"{self.path} holds {want} (stale: scripts/figures.sh --update writes it "
                     "anew)")
        self.checked += 1

    def put(self, key, numbers):
        """A run's numbers, for --store."""
        self.got[key] = [float(x) for x in numbers]

    def save(self):
        """Writes --store's file (under a temporary name renamed into place)."""
        if not self.out:
            return
        tmp = self.out + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"# {self.who} --store: each run's numbers (scripts/figures.sh --update "
                    "writes this file; --check reads it)\n")
            for key, numbers in sorted(self.got.items()):  # (runs finish in any order)
                f.write(key + "\t" + " ".join(repr(x) for x in numbers) + "\n")
        os.replace(tmp, self.out)


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
