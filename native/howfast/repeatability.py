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
from collections.abc import Mapping
from pathlib import Path

import polars as pl

from . import fmt, headlines, stats
from .checks import checked
from .store import ResultSet

#: The share of figures inside the first interval the book aims for.
GOAL = 0.90

_SCHEMA = {
    "subject": pl.String, "figure": pl.String, "first": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
    "second": pl.Float64, "inside": pl.Boolean,
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
        b_sum = stats.summarize(b_table, by).drop_nulls("median").select(*by, "metric", pl.col("median").alias("b"))
        joined = a_sum.join(b_sum, on=[*by, "metric"], how="inner", nulls_equal=True)
        for row in joined.iter_rows(named=True):
            label = f"{name} {' '.join(str(row[k]) for k in by)} {row['metric']}"
            a = stats.Estimate.from_row(row)
            rows.append(_row(first.subject, label, a, stats.Estimate.exact(float(row["b"]))))
    return pl.DataFrame(rows, schema=_SCHEMA)


def _row(subject: str, label: str, a: stats.Estimate, b: stats.Estimate) -> dict[str, object]:
    return {
        "subject": subject, "figure": label, "first": a.median, "lo": a.lo, "hi": a.hi, "second": b.median,
        "inside": a.lo <= b.median <= a.hi,
    }  # fmt: skip


def share_inside(table: pl.DataFrame) -> tuple[int, int]:
    """(figures whose second median fell inside the first interval, figures compared)."""
    if "inside" not in table.columns:
        raise ValueError("table must be made by headline_figures or every_figure (an 'inside' column)")
    return int(table["inside"].sum()), table.height


def sentence(table: pl.DataFrame, *, what: str = "headline figure") -> str:
    """'For 11 of 13 headline figures (85 %), the second run's median fell inside the
    first run's interval; the goal is 90 %.'"""
    inside, total = share_inside(table)
    if total == 0:
        return f"No {what} could be compared between the two runs."
    share = inside / total
    verdict = "meets" if share >= GOAL else "misses"
    return (
        f"For {fmt.exact(inside)} of {fmt.count(total, what)} ({fmt.share(share, 2)}), the second run's median "
        f"fell inside the first run's interval; this {verdict} the goal of {fmt.share(GOAL, 2)}."
    )


def record(table: pl.DataFrame, *, what: str = "headline figure", load: float | None = None) -> Path:
    """Keep the outcome of a repeatability run beside this machine's sets
    (``<results>/<machine>/<profile>/repeatability.json``) for the preface to show."""
    from .store import set_dir

    inside, total = share_inside(table)
    path = set_dir("fsync").parent / "repeatability.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    subjects = sorted(set(table["subject"].to_list())) if "subject" in table.columns else []
    kept = {"inside": inside, "total": total, "what": what, "when": when, "load": load, "subjects": subjects}
    path.write_text(json.dumps(kept, indent=2) + "\n")
    return path


def words(machine: str | None = None, profile: str | None = None) -> str:
    """The last repeatability run of this (or the named) machine and profile in one
    sentence, for the preface; how to make one when there is none."""
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
    return (
        f"Measured twice back to back ({kept.get('when')}{busy}), this machine put the second median inside the "
        f"first run's interval for {fmt.exact(inside)} of {fmt.count(total, what)} ({fmt.share(inside / total, 2)}; "
        f"the goal is {fmt.share(GOAL, 2)})."
    )


checked(globals())
