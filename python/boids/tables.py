"""The package's tables: a pandas DataFrame where pandas is installed (scripts/install-deps.sh
installs Debian's python3-pandas), else a Table, a numpy record array that prints as a table with
its column names (numpy's own repr shows bare tuples).

Code that runs either way reads a column first: table["polarization"][0]."""
import numpy as np

_SHOWN = 10  # rows shown at each end of a long table


def _cell(v):
    if isinstance(v, (float, np.floating)):
        return f"{v:.6g}"
    return str(v)


class Table(np.recarray):
    """A numpy record array (columns as fields: t["step"], t.step) that prints with its column
    names."""

    def __repr__(self):
        if self.ndim != 1 or self.dtype.names is None:
            return super().__repr__()
        names = list(self.dtype.names)
        n = len(self)
        picked = list(range(n)) if n <= 2 * _SHOWN else (
            list(range(_SHOWN)) + [None] + list(range(n - _SHOWN, n)))
        rows = [["..."] * len(names) if i is None else [_cell(self[k][i]) for k in names]
                for i in picked]
        widths = [max([len(h)] + [len(r[c]) for r in rows]) for c, h in enumerate(names)]
        lines = ["  ".join(h.rjust(w) for h, w in zip(names, widths))]
        lines += ["  ".join(v.rjust(w) for v, w in zip(r, widths)) for r in rows]
        lines.append(f"[{n} row{'' if n == 1 else 's'} x {len(names)} columns]")
        return "\n".join(lines)

    __str__ = __repr__


def have_pandas():
    try:
        import pandas  # noqa: F401
        return True
    except ImportError:
        return False


def named(rec, frames=None):
    """rec, a numpy structured array, as a pandas DataFrame (frames=True; None: where pandas is
    installed) or a Table."""
    if frames is None:
        frames = have_pandas()
    if frames:
        try:
            import pandas
        except ImportError:
            raise ImportError("frames=True needs pandas (Debian: apt-get install python3-pandas; "
                              "scripts/install-deps.sh installs it); frames=False gives a numpy "
                              "table") from None
        return pandas.DataFrame.from_records(np.asarray(rec))
    return np.asarray(rec).view(Table)
