"""The source articles' figures: ``data/reference/<subject>.csv``.

Every row names its seed file (``source``), the machine it was measured on
(``machine``, described in ``machines.csv``), the figure (``metric``, ``value``,
``unit``) and the figure as the article printed it (``quoted``).
"""

from __future__ import annotations

from functools import lru_cache

import polars as pl

from .checks import checked
from .paths import reference_dir

__all__ = ["REQUIRED", "in_us", "load", "machines", "pl", "subjects"]

REQUIRED = ("source", "machine", "benchmark", "metric", "value", "unit", "quoted")

_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def subjects() -> list[str]:
    """The subjects with a reference file."""
    return sorted(p.stem for p in reference_dir().glob("*.csv") if p.stem != "machines")


def load(subject: str) -> pl.DataFrame:
    """One subject's figures, joined with the machines' names."""
    path = reference_dir() / f"{subject}.csv"
    if subject == "machines" or not path.is_file():
        raise ValueError(f"no reference subject {subject!r}; known: {', '.join(subjects())}")
    names = reference_dir() / "machines.csv"
    return _joined(str(path), path.stat().st_mtime_ns, str(names), names.stat().st_mtime_ns)


@lru_cache(maxsize=64)
def _joined(path: str, _changed: int, names_path: str, _names_changed: int) -> pl.DataFrame:
    """A figures file joined with the machines' names, read once per version of the two
    files (a page looks up dozens of figures; the modification times make an edit count)."""
    frame = pl.read_csv(path, infer_schema_length=None)
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise ValueError(f"{path} lacks required columns {missing}")
    names = pl.read_csv(names_path).select("machine", pl.col("name").alias("machine_name"))
    return frame.with_columns(pl.col("value").cast(pl.Float64)).join(names, on="machine", how="left")


def machines() -> pl.DataFrame:
    return pl.read_csv(reference_dir() / "machines.csv")


def in_us(frame: pl.DataFrame) -> pl.DataFrame:
    """Durations converted to microseconds (rows in other units are dropped)."""
    factors = pl.DataFrame({"unit": list(_TO_US), "factor": list(_TO_US.values())})
    return (
        frame.join(factors, on="unit", how="inner")
        .with_columns(value=pl.col("value") * pl.col("factor"), unit=pl.lit("us"))
        .drop("factor")
    )


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
