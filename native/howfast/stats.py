"""Summaries over repetitions: median with min and max, and how wide the spread is."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

#: A case whose slowest repetition is this many times its fastest gets a warning.
WIDE_SPREAD = 1.5


def summarize(metrics: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    """Median, min, max and spread (max/min) of each metric across repetitions."""
    measured = metrics.filter(pl.col("metric") != "unsupported")
    keys = [*by, "metric", "unit"]
    return (
        measured.group_by(keys, maintain_order=True)
        .agg(
            median=pl.col("value").median(),
            min=pl.col("value").min(),
            max=pl.col("value").max(),
            repetitions=pl.len(),
        )
        .with_columns(spread=pl.col("max") / pl.col("min"))
    )


def pick(summary: pl.DataFrame, metric: str, **where: object) -> float:
    """The median of one metric for the one case matching `where` (KeyError if none)."""
    rows = summary.filter(pl.col("metric") == metric)
    for key, value in where.items():
        rows = rows.filter(pl.col(key) == value)
    if rows.height != 1:
        raise KeyError(f"expected one row for {metric} {where}, found {rows.height}")
    return float(rows["median"][0])


def wide_spreads(summary: pl.DataFrame, metric: str, by: Sequence[str], threshold: float = WIDE_SPREAD) -> pl.DataFrame:
    """The cases whose max/min for `metric` exceeds `threshold`."""
    return summary.filter((pl.col("metric") == metric) & (pl.col("spread") > threshold)).select(
        [*by, "median", "min", "max", "spread"]
    )


def unsupported(metrics: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    """The cases this machine could not run, with the reason."""
    return metrics.filter(pl.col("metric") == "unsupported").select([*by, "note"]).unique(maintain_order=True)
