"""Summaries over repetitions: median with min and max, and how wide the spread is."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from .checks import checked

#: A case whose slowest repetition is this many times its fastest gets a warning.
WIDE_SPREAD = 1.5


def summarize(metrics: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    """Median, min, max and spread (max/min) of each metric across repetitions. A case the
    machine could not run keeps one row, metric ``unsupported`` with no values, so that
    ``pick`` can tell it from a case that does not exist."""
    keys = [*by, "metric", "unit"]
    return (
        metrics.group_by(keys, maintain_order=True)
        .agg(
            median=pl.col("value").median(),
            min=pl.col("value").min(),
            max=pl.col("value").max(),
            repetitions=pl.len(),
        )
        .with_columns(spread=pl.col("max") / pl.col("min"))
    )


def _where(frame: pl.DataFrame, where: dict[str, object]) -> pl.DataFrame:
    for key, value in where.items():
        if key not in frame.columns:
            raise KeyError(f"no column {key!r}; the cases have {', '.join(frame.columns)}")
        frame = frame.filter(pl.col(key) == value)
    return frame


def pick(summary: pl.DataFrame, metric: str, **where: object) -> float | None:
    """The median of one metric for the one case matching `where`; None when this machine
    could not run that case (its row says unsupported); KeyError when no case or more
    than one matches (a mistake in the asking, not in the machine)."""
    rows = _where(summary, where)
    found = rows.filter(pl.col("metric") == metric)
    if found.height == 1:
        return float(found["median"][0])
    if found.height == 0 and rows.filter(pl.col("metric") == "unsupported").height:
        return None
    raise KeyError(f"expected one row for {metric} {where}, found {found.height}")


def wide_spreads(summary: pl.DataFrame, metric: str, by: Sequence[str], threshold: float = WIDE_SPREAD) -> pl.DataFrame:
    """The cases whose max/min for `metric` exceeds `threshold`."""
    return summary.filter((pl.col("metric") == metric) & (pl.col("spread") > threshold)).select(
        [*by, "median", "min", "max", "spread"]
    )


def reasons(metrics: pl.DataFrame) -> list[str]:
    """The distinct reasons, in order, why cases of `metrics` could not run here."""
    if "note" not in metrics.columns:
        return []
    notes = metrics.filter(pl.col("metric") == "unsupported")["note"].drop_nulls().unique(maintain_order=True)
    return notes.to_list()


def unsupported(metrics: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    """The cases this machine could not run, with the reason."""
    return metrics.filter(pl.col("metric") == "unsupported").select([*by, "note"]).unique(maintain_order=True)


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
