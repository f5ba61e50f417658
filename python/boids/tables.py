"""The package's tables: a pandas DataFrame where pandas is installed (scripts/install-deps.sh
installs Debian's python3-pandas), else a Table, a numpy record array that prints as a table with
its column names (numpy's own repr shows bare tuples), and whose rows (table[0]) are Rows, numpy
records that print with them too.

Code that runs either way reads a column first: table["polarization"][0] (a DataFrame's [0] is a
column's name, a KeyError; its first row is table.iloc[0])."""
import numpy as np

_SHOWN = 10  # rows shown at each end of a long table


def _cell(v):
    if isinstance(v, (float, np.floating)):
        return f"{v:.6g}"
    return str(v)


class Row(np.record):
    """A row of a Table: a numpy record (row["step"], row.step, row[0], tuple(row)) that prints
    with its column names, Row(step=0, alive=100, ...), where numpy's shows a bare tuple."""

    def __repr__(self):
        if self.dtype.names is None:
            return super().__repr__()
        return "Row(" + ", ".join(f"{k}={_cell(self[k])}" for k in self.dtype.names) + ")"

    __str__ = __repr__


class Table(np.recarray):
    """A numpy record array (columns as fields: t["step"], t.step) that prints with its column
    names, as do its rows (t[0], a Row)."""

    # np.recarray makes its dtype's scalar type np.record whenever the array is made or its dtype
    # set; a Table makes it Row, so that numpy itself hands out Rows (t[0], t[1:][0], iteration)
    def __array_finalize__(self, obj):
        super().__array_finalize__(obj)
        self._rows_are_rows()

    def __setattr__(self, attr, value):
        super().__setattr__(attr, value)
        if attr == "dtype":
            self._rows_are_rows()

    def _rows_are_rows(self):
        if self.dtype.names is not None and self.dtype.type is not Row:
            np.ndarray.__setattr__(self, "dtype", np.dtype((Row, self.dtype)))

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
