"""Repeatability as a test of the instrument: measure twice, and ask for how many figures
the second median falls inside the first's interval.

With honest intervals (``stats.median_interval``), a machine that stays the same between
two runs puts most second medians inside the first intervals; a busy or drifting machine
does not. ``howfast repeatability`` measures subjects twice back to back (or reads two
stored machines' sets) and prints the table and the share.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Mapping
from pathlib import Path

import polars as pl

from . import fmt, headlines, stats
from .checks import checked
from .store import ResultSet

#: The share of figures inside the first interval the book aims for.
GOAL = 0.90
#: A share of figures inside below what a steady machine gives is called a change between
#: the runs only when a steady machine would give so few this rarely (one-sided).
SIGNIFICANCE = 0.05

_SCHEMA = {
    "subject": pl.String, "figure": pl.String, "first": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
    "second": pl.Float64, "inside": pl.Boolean, "first_runs": pl.Int64, "second_runs": pl.Int64,
    "expected": pl.Float64,
}  # fmt: skip


def headline_figures(first: Mapping[str, ResultSet], second: Mapping[str, ResultSet]) -> pl.DataFrame:
    """For every headline quantity (``headlines.QUANTITIES``) whose subject both mappings
    (subject -> set) hold: the first set's median and interval, the second's median, and
    whether it fell inside (``inside``). A quantity either set cannot read is left out."""
    rows = []
    for q in headlines.QUANTITIES:
        if q.subject not in first or q.subject not in second:
            continue
        try:
            a, b = q.read(first[q.subject]), q.read(second[q.subject])
        except KeyError:
            continue
        if a is None or b is None:
            continue
        rows.append(_row(q.subject, q.label, a, b))
    return pl.DataFrame(rows, schema=_SCHEMA)


def every_figure(first: ResultSet, second: ResultSet) -> pl.DataFrame:
    """The same for every metric of every case of two sets of one subject (an experiment
    or case only one holds is left out)."""
    if first.subject != second.subject:
        raise ValueError(f"two sets of one subject are needed, got {first.subject} and {second.subject}")
    rows = []
    for name in first.experiments:
        if name not in second.experiments:
            continue
        a_table, b_table = first.table(name), second.table(name)
        by = [c for c in a_table.columns if c not in headlines.store_columns()]
        if by != [c for c in b_table.columns if c not in headlines.store_columns()]:
            continue
        a_sum = stats.summarize(a_table, by).drop_nulls("median")
        b_sum = (
            stats.summarize(b_table, by)
            .drop_nulls("median")
            .select(*by, "metric", pl.col("median").alias("b"), pl.col("repetitions").alias("b_runs"))
        )
        joined = a_sum.join(b_sum, on=[*by, "metric"], how="inner", nulls_equal=True)
        for row in joined.iter_rows(named=True):
            label = f"{name} {' '.join(str(row[k]) for k in by)} {row['metric']}"
            a = stats.Estimate.from_row(row)
            b = float(row["b"])
            rows.append(_row(first.subject, label, a, stats.Estimate(b, b, b, int(row["b_runs"]))))
    return pl.DataFrame(rows, schema=_SCHEMA)


def _row(subject: str, label: str, a: stats.Estimate, b: stats.Estimate) -> dict[str, object]:
    return {
        "subject": subject, "figure": label, "first": a.median, "lo": a.lo, "hi": a.hi, "second": b.median,
        "inside": a.lo <= b.median <= a.hi, "first_runs": a.runs, "second_runs": b.runs,
        "expected": expected_inside(a.runs, b.runs),
    }  # fmt: skip


def expected_inside(first_runs: int, second_runs: int) -> float:
    """The chance that a perfectly steady machine (every run an independent draw from one
    continuous distribution, whatever its shape) puts the median of `second_runs` runs
    inside the order-statistics interval (``stats.median_interval``) of `first_runs` runs.

    It is below the interval's own confidence, because the second median is itself
    uncertain: 0.6 for 3 runs and 3 runs (min–max), about 0.85 for 30 and 30. So a 90 %
    goal is out of reach for any instrument with these intervals; the test of the
    machine is whether it puts as many inside as a steady machine would (``verdict``).

    With n first runs whose interval is the k-th smallest to the k-th largest, a second
    median t lies inside when k <= (runs of the n below t) <= n - k, a binomial count. For
    an odd count m = 2a - 1 of second runs, t is Beta(a, a) distributed, and the average
    over t has a closed form in Beta functions; for an even m (the mean of the two middle
    runs) it is integrated numerically over their joint density."""
    for name, value in (("first_runs", first_runs), ("second_runs", second_runs)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= stats.MAX_RUNS:
            raise ValueError(f"{name} is a number of runs from 1 to {stats.MAX_RUNS:,}, got {value!r}")
    n, m = first_runs, second_runs
    k, _ = stats.interval_ranks(n)
    counts = range(k, n - k + 1)
    if m % 2:
        a = (m + 1) / 2

        def log_beta(x: float, y: float) -> float:
            return math.lgamma(x) + math.lgamma(y) - math.lgamma(x + y)

        return min(1.0, sum(
            math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                     + log_beta(a + i, a + n - i) - log_beta(a, a))
            for i in counts
        ))  # fmt: skip
    return _even_median_inside(n, m // 2, counts)


def _even_median_inside(n: int, j: int, counts: range, steps: int = 600) -> float:
    """The average, over the mean t of the j-th and (j+1)-th smallest of 2j uniform runs,
    of the chance that k..n-k of n uniform runs lie below t (midpoint rule on a grid)."""
    import numpy as np

    edges = (np.arange(steps) + 0.5) / steps
    u, v = np.meshgrid(edges, edges, indexing="ij")
    below = u < v
    log_norm = math.lgamma(2 * j + 1) - 2 * math.lgamma(j)
    with np.errstate(divide="ignore"):
        density = np.where(below, np.exp(log_norm + (j - 1) * (np.log(u) + np.log1p(-v))), 0.0)
    t = (u + v) / 2
    with np.errstate(divide="ignore"):
        log_t, log_rest = np.log(t), np.log1p(-t)
    inside = sum(
        np.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_t + (n - i) * log_rest)
        for i in counts
    )
    weight = density.sum()
    return float((density * inside).sum() / weight) if weight > 0 else 0.0


def verdict(table: pl.DataFrame) -> str:
    """'steady' when the figures inside are as many as a steady machine would give
    (``expected_inside`` per figure), 'changed' when so few that a steady machine would
    give as few less than ``SIGNIFICANCE`` of the time (one-sided, the exact distribution
    of a sum of unequal coin flips), 'none' for an empty table."""
    inside, total = share_inside(table)
    if total == 0:
        return "none"
    chances = table["expected"].to_list() if "expected" in table.columns else [None] * total
    if any(c is None for c in chances):
        raise ValueError("table must carry each figure's expected chance (made by headline_figures or every_figure)")
    # the distribution of the number inside: a convolution of one coin per figure
    dist = [1.0]
    for p in chances:
        dist = [(dist[i] if i < len(dist) else 0.0) * (1 - p) + (dist[i - 1] * p if i > 0 else 0.0)
                for i in range(len(dist) + 1)]  # fmt: skip
    return "changed" if sum(dist[: inside + 1]) < SIGNIFICANCE else "steady"


def share_inside(table: pl.DataFrame) -> tuple[int, int]:
    """(figures whose second median fell inside the first interval, figures compared)."""
    if "inside" not in table.columns:
        raise ValueError("table must be made by headline_figures or every_figure (an 'inside' column)")
    return int(table["inside"].cast(pl.Boolean).sum() or 0), table.height


def sentence(table: pl.DataFrame, *, what: str = "headline figure") -> str:
    """'For 11 of 13 headline figures (85 %), the second run's median fell inside the
    first run's interval; this misses the goal of 90 %. A steady machine would put about
    78 % inside with these run counts: this machine did not put clearly fewer inside.'"""
    inside, total = share_inside(table)
    if total == 0:
        return f"No {what} could be compared between the two runs."
    share = inside / total
    goal = "meets" if share >= GOAL else "misses"
    return (
        f"For {fmt.exact(inside)} of {fmt.count(total, what)} ({fmt.share(share, 2)}), the second run's median "
        f"fell inside the first run's interval; this {goal} the goal of {fmt.share(GOAL, 2)}. " + steady_words(table)
    )


def steady_words(table: pl.DataFrame) -> str:
    """What a steady machine would have given with the same run counts, and whether this
    one put clearly fewer inside ('changed') or not ('steady'): ``verdict``, a one-sided
    test, so 'steady' also covers a machine that put more inside than expected."""
    found = verdict(table)
    if found == "none":
        return ""
    expected = float(table["expected"].mean())  # type: ignore[arg-type]
    said = (
        "this machine did not put clearly fewer inside"
        if found == "steady"
        else "this machine put clearly fewer inside: it may have changed between the runs, or its runs within a set "
        "were not independent, and this test cannot say which"
    )
    return f"A perfectly steady machine would put about {fmt.share(expected, 2)} inside with these run counts: {said}."


def record(table: pl.DataFrame, *, what: str = "headline figure", load: float | None = None) -> Path:
    """Keep the outcome of a repeatability run beside this machine's sets
    (``<results>/<machine>/<profile>/repeatability.json``) for the preface to show."""
    from .store import set_dir

    inside, total = share_inside(table)
    path = set_dir("fsync").parent / "repeatability.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    subjects = sorted(set(table["subject"].to_list())) if "subject" in table.columns else []
    expected = float(table["expected"].mean()) if total else None  # type: ignore[arg-type]
    kept = {
        "inside": inside, "total": total, "what": what, "when": when, "load": load, "subjects": subjects,
        "expected": expected, "verdict": verdict(table),
    }  # fmt: skip
    path.write_text(json.dumps(kept, indent=2) + "\n")
    return path


def words(machine: str | None = None, profile: str | None = None) -> str:
    """The last repeatability run of this (or the named) machine and profile, for the
    preface: the share of second medians inside, then what a steady machine would have
    given and whether this one put clearly fewer inside (``verdict``), the test the preface names; how
    to make one when there is none. No fixed goal is quoted: a steady machine itself puts
    only ``expected_inside`` of them inside."""
    from .store import set_dir

    path = set_dir("fsync", machine=machine, profile=profile).parent / "repeatability.json"
    try:
        kept = json.loads(path.read_text())
        inside, total, what = int(kept["inside"]), int(kept["total"]), str(kept["what"])
    except (OSError, ValueError, KeyError, TypeError):
        return "Repeatability has not been measured on this machine yet: run `howfast repeatability`."
    if total == 0:
        return f"The last repeatability run ({kept.get('when')}) compared no {what}."
    load = kept.get("load")
    busy = f", load average {fmt.num(float(load), 2)} at the start" if isinstance(load, (int, float)) else ""
    said = (
        f"Measured twice back to back ({kept.get('when')}{busy}), this machine put the second median inside the "
        f"first run's interval for {fmt.exact(inside)} of {fmt.count(total, what)} ({fmt.share(inside / total, 2)})."
    )
    expected, found = kept.get("expected"), kept.get("verdict")
    if isinstance(expected, (int, float)) and found in ("steady", "changed"):
        said += (
            f" A perfectly steady machine would put about {fmt.share(float(expected), 2)} inside with the same "
            "run counts"
            + (
                ": this one did not put clearly fewer inside."
                if found == "steady"
                else ": it put clearly fewer. It may have changed between the runs, or its runs within a set were "
                "not independent; this test cannot say which."
            )
        )
    else:
        said += " This record does not say what a steady machine would have given, so it cannot be read as a test."
    return said


checked(globals())
