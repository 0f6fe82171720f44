"""vbc/results.py — a run directory and a sweep's table as NumPy structured arrays (and pandas
DataFrames when pandas imports). The files are those of docs/results.md: summary.json,
series.csv, convergence.csv; a sweep's table.csv (docs/sweep-format.md)."""
import csv
import json
import os

import numpy as np

from ._lib import BadInput

try:
    import pandas as _pd
except ImportError:  # optional: the structured arrays are always there
    _pd = None


def _column(values):
    """A CSV column as float64 when every non-empty field is a number (empty: NaN), else str."""
    try:
        return np.array([float(v) if v != "" else np.nan for v in values], np.float64)
    except ValueError:
        return np.array(values, dtype=str)


def read_csv(path):
    """A CSV file with a header row as a NumPy structured array, one field per column."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise BadInput(f"{path}: expected a readable CSV file, got: {e.strerror}") from None
    if not rows:
        raise BadInput(f"{path}: expected a header row, got an empty file")
    header, body = rows[0], rows[1:]
    for i, r in enumerate(body):
        if len(r) != len(header):
            raise BadInput(f"{path}: line {i + 2}: expected {len(header)} fields, got {len(r)}")
    columns = [_column([r[k] for r in body]) for k in range(len(header))]
    dtype = [(name, c.dtype if c.dtype.kind == "f" else f"U{max(1, c.dtype.itemsize // 4)}")
             for name, c in zip(header, columns)]
    out = np.zeros(len(body), dtype=dtype)
    for name, c in zip(header, columns):
        out[name] = c
    return out


def _frame(array):
    return _pd.DataFrame.from_records(array) if _pd is not None else None


class Results:
    """A run directory: .summary (dict), .series and .convergence (structured arrays),
    .series_frame and .convergence_frame (DataFrames, None without pandas). close() lets go of
    the data; any later access raises BadInput."""

    def __init__(self, run_dir):
        self.dir = run_dir
        self._data = {}
        self._closed = False

    def _get(self, name, loader):
        if self._closed:
            raise BadInput(f"{self.dir}: expected open results, got closed ones (Results.close() "
                           "was called); load the directory again")
        if name not in self._data:
            self._data[name] = loader()
        return self._data[name]

    @property
    def summary(self):
        def load():
            path = os.path.join(self.dir, "summary.json")
            try:
                with open(path, encoding="utf-8") as f:
                    return json.load(f)
            except OSError as e:
                raise BadInput(f"{path}: expected a readable file, got: {e.strerror}") from None
            except ValueError as e:
                raise BadInput(f"{path}: expected JSON, got: {e}") from None
        return self._get("summary", load)

    @property
    def series(self):
        return self._get("series", lambda: read_csv(os.path.join(self.dir, "series.csv")))

    @property
    def convergence(self):
        return self._get("convergence",
                         lambda: read_csv(os.path.join(self.dir, "convergence.csv")))

    @property
    def series_frame(self):
        return _frame(self.series)

    @property
    def convergence_frame(self):
        return _frame(self.convergence)

    def close(self):
        self._data = {}
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"vbc.results.load({self.dir!r})"


def _directory(what, path):
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise BadInput(f"{what}: expected a directory (str or os.PathLike), got "
                       f"{type(path).__name__}")
    if not os.path.isdir(path):
        raise BadInput(f"{path}: expected a directory, got "
                       f"{'a file' if os.path.exists(path) else 'nothing (no such directory)'}")
    return path


def load(run_dir):
    """The results of one run (vbc run, vbc.run, a sweep's case directory). A directory without
    summary.json (a run that has not finished, or no run at all) is BadInput."""
    run_dir = _directory("results.load", run_dir)
    if not os.path.isfile(os.path.join(run_dir, "summary.json")):
        unfinished = os.path.exists(os.path.join(run_dir, "series.csv.part"))
        raise BadInput(f"{run_dir}: expected a run directory with summary.json, got "
                       f"{'an unfinished run (series.csv.part)' if unfinished else 'none'}")
    results = Results(run_dir)
    results.summary  # read now: a broken summary.json is reported here
    return results


def table(sweep_dir):
    """A sweep's table.csv as a structured array (a DataFrame with pandas: pass frame=True)."""
    sweep_dir = _directory("results.table", sweep_dir)
    path = os.path.join(sweep_dir, "table.csv")
    if not os.path.isfile(path):
        raise BadInput(f"{sweep_dir}: expected a sweep directory with table.csv (vbc sweep writes "
                       "it when every case is done), got none")
    return read_csv(path)


def table_frame(sweep_dir):
    """table(sweep_dir) as a pandas DataFrame (None without pandas)."""
    return _frame(table(sweep_dir))
