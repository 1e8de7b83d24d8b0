"""Tables for the book: a polars frame shown as a Markdown pipe table.

Quarto renders Markdown output as a real table (with a caption from ``tbl-cap``); a
Jupyter front end shows the same Markdown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import polars as pl

from . import claims, fmt, stats
from .checks import checked


class Table:
    def __init__(self, frame: pl.DataFrame, formats: Mapping[str, Callable[[Any], str]] | None = None) -> None:
        if not isinstance(frame, pl.DataFrame):
            raise TypeError(f"Table(): frame must be a polars DataFrame, got {type(frame).__name__}")
        if formats is not None and not isinstance(formats, Mapping):
            raise TypeError(f"Table(): formats must be a mapping of column to function, got {type(formats).__name__}")
        if frame.width == 0:
            raise ValueError("a table needs at least one column")
        self.frame = frame
        self.formats = dict(formats or {})
        unknown = set(self.formats) - set(frame.columns)
        if unknown:
            raise ValueError(f"formats name columns the table lacks: {sorted(unknown)}")

    def _cell(self, column: str, value: Any) -> str:
        if value is None:  # a number not measured here; a note with nothing to say
            return fmt.NA if self.frame.schema[column].is_numeric() else ""
        if column in self.formats:
            return self.formats[column](value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            return fmt.num(value)
        if isinstance(value, int):
            return f"{value:,}"
        return str(value).replace("|", "\\|")

    def beside(self, others: Mapping[str, pl.DataFrame], *, on: list[str], columns: list[str]) -> Table:
        """This table with, from each of `others` (a frame of the same shape, by the name
        that heads its columns), the values of `columns`, each right after its own column
        as ``column (name)`` and formatted like it; rows match on `on`, and a row an other
        frame lacks reads n/a. This table itself when `others` is empty."""
        missing = [c for c in [*on, *columns] if c not in self.frame.columns]
        if missing:
            raise ValueError(f"beside: the table has no column {missing[0]!r}; it has {', '.join(self.frame.columns)}")
        if not others:
            return self
        if self.frame.select(on).is_duplicated().any():
            raise ValueError(f"beside: the columns {on} do not tell the table's rows apart")
        frame, formats, order = self.frame, dict(self.formats), {c: [c] for c in self.frame.columns}
        for name, other in others.items():
            lacking = [c for c in [*on, *columns] if c not in other.columns]
            if lacking:
                raise ValueError(f"beside: the frame of {name!r} has no column {lacking[0]!r}")
            renamed = {c: f"{c} ({name})" for c in columns}
            part = (
                other.with_columns(pl.col(c).cast(frame.schema[c], strict=False) for c in on)
                .unique(subset=on, keep="first", maintain_order=True)
                .select([*on, *columns])
                .rename(renamed)
            )
            frame = frame.join(part, on=on, how="left", nulls_equal=True, maintain_order="left")
            for column, new in renamed.items():
                order[column].append(new)
                if column in formats:
                    formats[new] = formats[column]
        return Table(frame.select([c for group in order.values() for c in group]), formats)

    def markdown(self) -> str:
        header = "| " + " | ".join(self.frame.columns) + " |"
        align = "|" + "|".join("---:" if dtype.is_numeric() else ":---" for dtype in self.frame.dtypes) + "|"
        body = [
            "| " + " | ".join(self._cell(c, v) for c, v in zip(self.frame.columns, row)) + " |"
            for row in self.frame.iter_rows()
        ]
        return "\n".join([header, align, *body])

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return self.markdown()


def table(frame: pl.DataFrame, formats: Mapping[str, Callable[[Any], str]] | None = None) -> Table:
    return Table(frame, formats)


def figure(
    estimate: stats.Estimate | None,
    target: float | None = None,
    show: Callable[[float], str] | None = None,
    *,
    runs: bool = True,
) -> str:
    """A figure for a table cell: its median, the interval of the median and the run
    count ('120 (115–126, 9 runs)'; '120 (no spread, 3 runs)' when both ends show alike),
    then '; unstable: ±35 %' where the interval stayed
    wider than ±`target` (the profile's: ``ResultSet.target``); n/a when not measured.
    With ``runs=False`` the count is left out ('120 (115–126)'), for a table that gives it
    in a column of its own."""
    if estimate is None:
        return fmt.NA
    if not isinstance(estimate, stats.Estimate):
        raise TypeError(f"estimate must be a stats.Estimate or None, got {type(estimate).__name__}")
    if show is None:
        show = fmt.num
    if not isinstance(runs, bool):
        raise TypeError(f"runs must be True or False, got {type(runs).__name__}")
    mark = stats.stability(estimate, target)
    count = f", {fmt.count(estimate.runs, 'run')}" if runs else ""
    if estimate.lo == estimate.hi == estimate.median and estimate.runs <= 1:
        body = f"{show(estimate.median)} (1 run)" if runs else show(estimate.median)
    elif show(estimate.lo) == show(estimate.hi):  # '100 (100–100)' says less than this
        body = f"{show(estimate.median)} (no spread{count})"
    else:
        body = f"{show(estimate.median)} ({span_text(show(estimate.lo), show(estimate.hi))}{count})"
    return body + (f"; {mark}" if mark else "")


def figure_of(
    summary: pl.DataFrame,
    metric: str,
    *,
    target: float | None = None,
    show: Callable[[float], str] | None = None,
    runs: bool = True,
    **where: object,
) -> str:
    """``figure`` of the one case of `summary` (``stats.summarize``) matching `where`:
    n/a where that case did not run here or is not in `summary` at all
    (``stats.estimate_or_none``)."""
    return figure(stats.estimate_or_none(summary, metric, **where), target, show, runs=runs)


def ratio_figure(ratio: stats.Estimate | None) -> str:
    """A cross-check's per-round ratio for a table cell, with the interval of its median
    and the number of rounds in one bracket, as ``figure`` gives the runs: '0.95×
    (0.86–0.98×, 3 rounds)'; '2× (3 rounds)' where both ends read alike; n/a when not
    measured. A table that says the rounds here needs no column of its own for them."""
    if ratio is not None and not isinstance(ratio, stats.Estimate):
        raise TypeError(f"ratio must be a stats.Estimate or None, got {type(ratio).__name__}")
    text = claims.ratio_interval(ratio)
    if ratio is None or text == fmt.NA:
        return fmt.NA
    rounds = fmt.count(ratio.runs, "round")
    return f"{text[:-1]}, {rounds})" if text.endswith(")") else f"{text} ({rounds})"


def span_text(lo: str, hi: str) -> str:
    """'25–50 µs' for '25 µs' and '50 µs', '8.64–11.2 billion': a unit or scale word both
    ends share is written once; ends with different words keep theirs."""
    lo_head, _, lo_word = lo.rpartition(" ")
    hi_head, _, hi_word = hi.rpartition(" ")
    if lo_head and hi_head and lo_word == hi_word and not lo_word[:1].isdigit():
        return f"{lo_head}–{hi}"
    return f"{lo}–{hi}"


def with_intervals(summary: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """A ``stats.summarize`` frame with the columns ``interval`` (the interval of the
    median as text), ``runs`` and ``stability`` ('unstable: ±35 %' or '')."""
    if "median" not in summary.columns or "repetitions" not in summary.columns:
        raise ValueError("summary must come from stats.summarize (median, lo, hi, repetitions)")
    marked = stats.mark_unstable(summary, target)
    lo, hi = ("lo", "hi") if "lo" in summary.columns else ("min", "max")
    text = [fmt.span(a, b) for a, b in zip(marked[lo].to_list(), marked[hi].to_list())]
    return marked.with_columns(interval=pl.Series(text, dtype=pl.String), runs=pl.col("repetitions"))


def unstable_words(target: float | None) -> str:
    """How a page marks a wide interval: against the profile's target, or not at all for
    a profile that runs a fixed count."""
    if target is None:
        return "this profile runs a fixed number of repetitions, so no figure is marked for a wide interval"
    if not 0 < target < 1:
        raise ValueError(f"target is a share of the median between 0 and 1, got {target!r}")
    return (
        f"a figure whose interval stayed wider than the profile's target (±{fmt.num(target * 100)} %: half the "
        "interval's span, against the median; a lopsided interval may reach further on one side and pass) is marked "
        '"unstable"'
    )


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
