"""Summaries over repetitions: the median, the interval it lies in, min and max.

The interval of a median is distribution-free (order statistics): with n runs sorted, the
true median lies between the k-th smallest and the k-th largest with a probability given by
the binomial distribution, whatever the shape of the noise. ``median_interval`` picks the
narrowest such pair that reaches ``CONFIDENCE``; with fewer than six runs no pair does, and
the interval is min to max, with the confidence it really has (75 % for three runs, 94 %
for five), stored beside it. Every word the book chooses from two figures (``claims``)
reads these intervals, never the medians alone."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from .checks import checked

#: The most runs a case can have (far more than any profile asks for): bounds the interval's work.
MAX_RUNS = 100_000

#: The confidence the interval of a median aims for.
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Estimate:
    """A measured figure: the median of its runs and the interval the median lies in."""

    median: float
    lo: float
    hi: float
    runs: int = 1
    confidence: float | None = None

    def __post_init__(self) -> None:
        for name in ("median", "lo", "hi"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
        if not self.lo <= self.median <= self.hi:
            raise ValueError(f"lo <= median <= hi must hold, got {self.lo}, {self.median}, {self.hi}")

    @classmethod
    def exact(cls, value: float) -> Estimate:
        """A figure known without spread (a seed's printed number, a constant)."""
        return cls(float(value), float(value), float(value), 1, None)

    @classmethod
    def from_row(cls, row: Mapping[str, object]) -> Estimate:
        """From a row of ``summarize`` (lo/hi, else min/max)."""
        lo = row.get("lo", row.get("min"))
        hi = row.get("hi", row.get("max"))
        return cls(float(row["median"]), float(lo), float(hi), int(row.get("repetitions") or 1),  # type: ignore[arg-type]
                   row.get("confidence"))  # type: ignore[arg-type]  # fmt: skip

    @property
    def half_width(self) -> float:
        """Half the interval's width as a share of the median (0.1: ±10 %)."""
        return (self.hi - self.lo) / 2 / abs(self.median) if self.median else math.inf

    def scaled(self, factor: float) -> Estimate:
        """The same figure in another unit (a positive factor)."""
        if not factor > 0:
            raise ValueError(f"factor must be positive, got {factor!r}")
        return Estimate(self.median * factor, self.lo * factor, self.hi * factor, self.runs, self.confidence)


#: A case whose slowest repetition is this many times its fastest gets a warning.
WIDE_SPREAD = 1.5


#: Up to this many runs the ranks come from exact binomial sums; beyond, from its normal approximation.
EXACT_RANKS = 2000


def interval_ranks(n: int, confidence: float = CONFIDENCE) -> tuple[int, float]:
    """(k, level): the k-th smallest and k-th largest of n sorted runs bracket the median
    with probability `level`, the largest k whose level reaches `confidence`; k = 1 (min
    and max) with its own, lower, level when no k does (n < 6 at 95 %)."""
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_RUNS:
        raise ValueError(f"n is a number of runs, from 1 to {MAX_RUNS:,}, got {n!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence is a probability between 0 and 1, got {confidence!r}")

    if n > EXACT_RANKS:  # the binomial's normal approximation: exact sums of 2**n would not end
        from statistics import NormalDist

        normal, half, spread = NormalDist(), n / 2, math.sqrt(n) / 2
        k = max(1, math.floor(half - normal.inv_cdf((1 + confidence) / 2) * spread))
        return k, 1 - 2 * normal.cdf((k - 0.5 - half) / spread)
    # P(X_(k) <= median <= X_(n-k+1)) = 1 - 2 P(Binom(n, 1/2) <= k-1), summed as it grows
    total, term, below = 2**n, 1, 0  # term = C(n, i); below = sum of C(n, j) for j < k
    best, best_level = 1, 1 - 2 / total
    for k in range(1, (n + 1) // 2 + 1):
        below += term
        term = term * (n - k + 1) // k
        level = 1 - 2 * below / total
        if level < confidence:
            break
        best, best_level = k, level
    return best, best_level


def median_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(lo, hi, level): the order-statistics interval of the median of `values`."""
    data = sorted(float(v) for v in values)
    if not data:
        raise ValueError("values must hold at least one run")
    k, level = interval_ranks(len(data), confidence)
    return data[k - 1], data[len(data) - k], level


def summarize(metrics: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    """Median, the interval of the median (``lo``, ``hi`` and its ``confidence``), min,
    max and spread (max/min) of each metric across repetitions. A case the machine could
    not run keeps one row, metric ``unsupported`` with no values, so that ``pick`` can
    tell it from a case that does not exist."""
    keys = [*by, "metric", "unit"]
    summary = metrics.group_by(keys, maintain_order=True).agg(
        median=pl.col("value").median(),
        min=pl.col("value").min(),
        max=pl.col("value").max(),
        repetitions=pl.len(),
        _runs=pl.col("value").drop_nulls().sort(),
    )
    bounds = [_bounds(runs) for runs in summary["_runs"].to_list()]
    return summary.drop("_runs").with_columns(
        lo=pl.Series([b[0] for b in bounds], dtype=pl.Float64),
        hi=pl.Series([b[1] for b in bounds], dtype=pl.Float64),
        confidence=pl.Series([b[2] for b in bounds], dtype=pl.Float64),
        spread=pl.col("max") / pl.col("min"),
    )


def _bounds(runs: Sequence[float] | None) -> tuple[float | None, float | None, float | None]:
    return median_interval(runs) if runs else (None, None, None)


def estimate(summary: pl.DataFrame, metric: str, **where: object) -> Estimate | None:
    """The median of one metric for the one case matching `where`, with its interval
    (an ``Estimate``); None when this machine could not run that case; KeyError as
    ``pick``."""
    rows = _where(summary, where)
    found = rows.filter(pl.col("metric") == metric)
    if found.height == 1:
        return Estimate.from_row(found.row(0, named=True))
    if found.height == 0 and rows.filter(pl.col("metric") == "unsupported").height:
        return None
    raise KeyError(f"expected one row for {metric} {where}, found {found.height}")


def estimate_or_none(summary: pl.DataFrame, metric: str, **where: object) -> Estimate | None:
    """``estimate``, with None also where no case matches `where` (a case this run did not
    have, as well as one this machine could not run); a column `where` names that
    `summary` lacks (ValueError) or more than one matching case (KeyError) is still a
    mistake in the asking."""
    if "metric" not in summary.columns:
        raise ValueError("summary must come from stats.summarize (it has no metric column)")
    unknown = [key for key in where if key not in summary.columns]
    if unknown:
        raise ValueError(f"no column {unknown[0]!r}; the cases have {', '.join(summary.columns)}")
    if _where(summary, where).filter(pl.col("metric") == metric).height == 0:
        return None
    return estimate(summary, metric, **where)


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


def stability(estimate: Estimate | None, target: float | None) -> str:
    """'' for a figure whose interval is within ±`target` of its median (or with no
    target, or no figure), else 'unstable: ±35 %', the half-width it stayed at; a lopsided
    interval, one side reaching more than ``LOPSIDED`` times as far as the other, gives
    each side: 'unstable: −94 %/+6 %' (a slow run far below a tight cluster), leaving out a
    side that rounds to 0 %: 'unstable: +137 %'."""
    if estimate is not None and not isinstance(estimate, Estimate):
        raise TypeError(f"estimate must be a stats.Estimate or None, got {type(estimate).__name__}")
    if target is not None and not 0 < target < 1:
        raise ValueError(f"target is a share of the median between 0 and 1, got {target!r}")
    if estimate is None or target is None or estimate.runs < 2 or estimate.half_width <= target:
        return ""
    width = estimate.half_width
    if estimate.median > 0:
        below = (estimate.median - estimate.lo) / estimate.median
        above = (estimate.hi - estimate.median) / estimate.median
        if width > 1 or max(below, above) > LOPSIDED * min(below, above):
            # a lopsided interval (one slow run far below a tight cluster) says how far each side reaches
            # a side that rounds to 0 % is left out: 'unstable: +137 %', not '−0 %/+137 %'
            shown = [(sign, _percent(share, target)) for sign, share in (("−", below), ("+", above)) if share > 0]
            sides = [f"{sign}{text} %" for sign, text in shown if float(text) > 0]
            return "unstable: " + "/".join(sides)
    if not math.isfinite(width) or width > 1:
        return "unstable: wider than ±100 %"
    return f"unstable: ±{_percent(width, target)} %"


#: An interval is written by its two sides when one reaches this many times as far as the
#: other: '±45 %' for an interval reaching −67 % and +22 % would say neither.
LOPSIDED = 1.5


def _percent(share: float, target: float) -> str:
    """A share in whole percents, with the decimals it takes for a share just past the
    target (±10.1 % against ±10 %) not to read as the target itself."""
    percent, digits = share * 100, 0
    while digits < 3 and 0 < round(percent, digits) <= target * 100 < percent:
        digits += 1
    return f"{round(percent, digits):.{digits}f}"


def mark_unstable(summary: pl.DataFrame, target: float | None) -> pl.DataFrame:
    """`summary` (``summarize``) with a column ``stability``: 'unstable: ±35 %' where the
    interval of the median stayed wider than ±`target` (the profile's), else ''."""
    if target is not None and not 0 < target < 1:
        raise ValueError(f"target is a share of the median between 0 and 1, got {target!r}")
    marks = [
        stability(Estimate.from_row(row), target) if row.get("median") is not None else ""
        for row in summary.iter_rows(named=True)
    ]
    return summary.with_columns(stability=pl.Series(marks, dtype=pl.String))


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
