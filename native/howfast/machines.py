"""Machines compared: results of several machines in one results folder.

Each machine's sets live under ``<results>/<machine>/`` (``howfast import`` puts a
bundle from another machine there). Two things read them side by side:

* ``compare(a, b)``: every metric of every subject both machines have, medians over the
  repetitions and the ratio b / a, for ``howfast compare``;
* ``beside`` and ``chart``: what a chapter adds when more than one machine is stored,
  a column per other machine in its main table and a chart of its headline numbers. With
  only this machine stored they add nothing.

Whether more is better is not stored with a metric; it is read from its unit: a time
(ns, µs, ms) is better lower, a rate (anything per second) better higher; any other unit
(bytes, a share, a count, seconds of a run) is compared without saying which is better.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from . import headlines as headlines_registry
from . import store
from .checks import checked
from .headlines import Quantity
from .profiles import PROFILES, current_profile
from .stats import summarize
from .tables import Table

#: columns of a stored table that are not a case's parameters
NOT_CASE = ("repetition", "metric", "value", "unit", "note", "profile", "measured_at")
#: units of a time: lower is better
TIMES = ("ns", "us", "µs", "ms")


class UnknownMachine(ValueError):
    """No results are stored for the machine asked for."""


def direction(unit: str | None) -> str | None:
    """'lower' for a time, 'higher' for a rate (per second), None when the unit does
    not tell which is better."""
    if unit in TIMES:
        return "lower"
    if unit and unit.endswith("/s"):
        return "higher"
    return None


def shown(value: float | None, unit: str | None) -> str:
    """A median as a reader sees it: a time as a duration, anything else with its unit."""
    from . import fmt

    if value is None:
        return fmt.NA
    if unit in TIMES:
        return fmt.duration_us(value * {"ns": 1e-3, "ms": 1e3}.get(unit, 1.0))
    return f"{fmt.num(value)} {unit}".strip()


def this_machine() -> str:
    from .machine import machine_id

    return machine_id()


def stored_machines() -> list[str]:
    """Every machine with a stored set, this one first when it has one."""
    here = this_machine()
    found = store.machines()
    return sorted(found, key=lambda m: (m != here, m))


def _sets(machine: str) -> list[tuple[str, str]]:
    found = store.stored(machine)
    if not found:
        known = ", ".join(store.machines()) or "none"
        raise UnknownMachine(
            f"no stored results for machine {machine!r} in {store.results_dir()} (machines stored: {known})"
        )
    return found


def _preference(folder: str) -> tuple[float, str]:
    order = [current_profile().name, "full", "quick", *PROFILES]
    base = folder.split("+")[0]
    return (order.index(base) if base in order else len(order)) + (0 if "+" not in folder else 0.5), folder


def _pick_folder(candidates: Sequence[str], profile: str | None) -> str | None:
    if profile is not None:
        return profile if profile in candidates else None
    return min(candidates, key=_preference) if candidates else None


def case_columns(table: pl.DataFrame) -> list[str]:
    """The parameters of a stored experiment's cases."""
    return [c for c in table.columns if c not in NOT_CASE]


def _case_text(frame: pl.DataFrame, case: Sequence[str]) -> pl.Expr:
    if not case:
        return pl.lit("")
    return pl.concat_str([pl.lit(f"{c}=") + pl.col(c).cast(pl.String).fill_null("-") for c in case], separator=" ")


def _side(table: pl.DataFrame, case: list[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Medians (min, max) of the supported metrics, and the unsupported cases with why."""
    summary = summarize(table.filter(pl.col("metric") != "unsupported"), case)
    notes = table.filter(pl.col("metric") == "unsupported")
    reasons = (
        notes.group_by(case, maintain_order=True).agg(pl.col("note").drop_nulls().first())
        if notes.height
        else pl.DataFrame(schema={**{c: table.schema[c] for c in case}, "note": pl.String})
    )
    return summary.select(*case, "metric", "unit", "median", "min", "max"), reasons


def _experiment(a: store.ResultSet, b: store.ResultSet, experiment: str, names: tuple[str, str]) -> pl.DataFrame:
    ta, tb = a.table(experiment), b.table(experiment)
    case = [c for c in case_columns(ta) if c in tb.columns]
    tb = tb.with_columns(pl.col(c).cast(ta.schema[c], strict=False) for c in case if tb.schema[c] != ta.schema[c])
    (sa, na), (sb, nb) = _side(ta, case), _side(tb, case)
    keys = [*case, "metric"]
    joined = sa.join(sb, on=keys, how="full", coalesce=True, nulls_equal=True, suffix="_b").rename(
        {"median": "a", "min": "a_min", "max": "a_max", "median_b": "b", "min_b": "b_min", "max_b": "b_max"}
    )
    joined = joined.with_columns(pl.coalesce("unit", "unit_b").alias("unit")).drop("unit_b")
    if case:
        joined = joined.join(na.rename({"note": "note_a"}), on=case, how="left", nulls_equal=True)
        joined = joined.join(nb.rename({"note": "note_b"}), on=case, how="left", nulls_equal=True)
        both = na.join(nb, on=case, how="inner", nulls_equal=True, suffix="_b")
        both = both.select(*case, pl.lit("unsupported").alias("metric"), pl.col("note").alias("note_a"), "note_b")
        joined = pl.concat([joined, both], how="diagonal_relaxed")
    else:
        joined = joined.with_columns(note_a=pl.lit(None, pl.String), note_b=pl.lit(None, pl.String))
    first, second = names
    note = (
        pl.when(pl.col("note_a").is_not_null() & pl.col("note_b").is_not_null())
        .then(pl.format(f"{first}: {{}}; {second}: {{}}", "note_a", "note_b"))
        .when(pl.col("note_a").is_not_null())
        .then(pl.format(f"{first}: {{}}", "note_a"))
        .when(pl.col("note_b").is_not_null())
        .then(pl.format(f"{second}: {{}}", "note_b"))
        .when(pl.col("a").is_null())
        .then(pl.lit(f"{first} has no such case"))
        .when(pl.col("b").is_null())
        .then(pl.lit(f"{second} has no such case"))
    )
    return joined.select(
        pl.lit(a.subject).alias("subject"),
        pl.lit(experiment).alias("experiment"),
        _case_text(joined, case).alias("case"),
        "metric",
        pl.col("unit").fill_null(""),
        "a",
        "a_min",
        "a_max",
        "b",
        "b_min",
        "b_max",
        note.alias("note"),
    )


def _verdict(names: tuple[str, str]) -> pl.Expr:
    """Which machine is ahead: the one whose whole range (slowest to fastest repetition)
    is better than the other's; 'ranges overlap' when neither is."""
    higher = pl.col("better") == "higher"
    a_ahead = pl.when(higher).then(pl.col("a_min") > pl.col("b_max")).otherwise(pl.col("a_max") < pl.col("b_min"))
    b_ahead = pl.when(higher).then(pl.col("b_min") > pl.col("a_max")).otherwise(pl.col("b_max") < pl.col("a_min"))
    return (
        pl.when(pl.col("better").is_null() | pl.col("a").is_null() | pl.col("b").is_null())
        .then(pl.lit(None, pl.String))
        .when(a_ahead)
        .then(pl.lit(names[0]))
        .when(b_ahead)
        .then(pl.lit(names[1]))
        .otherwise(pl.lit("ranges overlap"))
    )


def compare(a: str, b: str, profile: str | None = None, subjects: Sequence[str] | None = None) -> pl.DataFrame:
    """Two machines' stored results side by side: one row per subject, experiment, case
    and metric that either has, with the medians over the repetitions (``a``, ``b``,
    and their slowest and fastest, ``a_min`` ...), ``ratio`` = b / a, ``better``
    ('lower', 'higher' or null: see the module) and ``ahead`` (the machine ahead, or
    'ranges overlap'). A case one machine could not run, or does not have, keeps its
    row with null for that machine and the reason in ``note``.

    `profile` names the profile folder to compare (``quick``); by default, for each
    subject, the folder both machines have, this run's profile first, then full, quick.
    """
    if a == b:
        raise ValueError(f"compare needs two different machines, got {a!r} twice")
    wanted = [store.check_subject(s) for s in subjects] if subjects else list(store.SUBJECTS)
    sets_a, sets_b = _sets(a), _sets(b)
    parts = []
    for subject in wanted:
        common = sorted({f for f, s in sets_a if s == subject} & {f for f, s in sets_b if s == subject})
        folder = _pick_folder(common, profile)
        if folder is None:
            continue
        left, right = store.load_stored(subject, a, folder), store.load_stored(subject, b, folder)
        for experiment in [e for e in left.experiments if e in right.experiments]:
            parts.append(_experiment(left, right, experiment, (a, b)).with_columns(pl.lit(folder).alias("profile")))
    if not parts:
        folders = {m: sorted({f for f, _ in sets}) for m, sets in ((a, sets_a), (b, sets_b))}
        raise ValueError(
            f"machines {a!r} and {b!r} have no results in common "
            f"({'; '.join(f'{m}: ' + ', '.join(f) for m, f in folders.items())}"
            f"{f', asked for profile {profile}' if profile else ''})"
        )
    frame = pl.concat(parts, how="diagonal_relaxed")
    frame = frame.with_columns(
        ratio=pl.when(pl.col("a") != 0).then(pl.col("b") / pl.col("a")),
        better=pl.col("unit").map_elements(direction, return_dtype=pl.String),
    )
    return frame.with_columns(ahead=_verdict((a, b))).select(
        "subject",
        "profile",
        "experiment",
        "case",
        "metric",
        "unit",
        "a",
        "b",
        "ratio",
        "better",
        "ahead",
        "a_min",
        "a_max",
        "b_min",
        "b_max",
        "note",
    )


# --- in the book: this machine beside the other stored machines -----------------------


def others(data: store.ResultSet) -> dict[str, store.ResultSet]:
    """The other stored machines' sets of `data`'s subject, by the name a column gives
    them: the machine's name, with the profile when it is not `data`'s. Each machine's set
    of the same profile folder is preferred, else its best other one; a machine without
    a readable set of the subject is left out. Empty when only this machine is stored."""
    here = this_machine()
    folder = data.path.parent.name
    found: dict[str, store.ResultSet] = {}
    for machine in store.machines():
        if machine == here:
            continue
        folders = [f for f, s in store.stored(machine) if s == data.subject]
        chosen = folder if folder in folders else _pick_folder(folders, None)
        if chosen is None:
            continue
        try:
            other = store.load_stored(data.subject, machine, chosen)
        except store.MissingResults:  # a set in an older shape, or removed meanwhile
            continue
        found[machine if chosen == folder else f"{machine}, {chosen}"] = other
    return found


def beside(
    table: Table,
    data: store.ResultSet,
    build: Callable[[store.ResultSet], pl.DataFrame],
    *,
    on: str | Sequence[str],
    columns: Sequence[str],
) -> Table:
    """`table` (built from `data`) with, for every other stored machine, its value of each
    of `columns`, right after this machine's, headed ``column (machine)``. `build` makes the
    same frame from another machine's set (usually the lambda that built `table`); rows
    match on `on`, and a row the other machine lacks reads n/a. `table` as it is when only
    this machine is stored."""
    built = {name: build(other) for name, other in others(data).items()}
    return table.beside(built, on=[on] if isinstance(on, str) else list(on), columns=list(columns))


#: A chapter's own quantity for its chart of machines: ``Headline(label, subject, experiment,
#: metric, where)`` is ``headlines.pick`` (the registry's one kind of quantity). A chart may
#: also name a registry quantity by its id ("fsync", "seq_read", ...).
Headline = headlines_registry.pick


def _quantity(pick: Quantity | str) -> Quantity:
    return headlines_registry.get(pick) if isinstance(pick, str) else pick


def headlines(sets: Sequence[store.ResultSet], picks: Sequence[Quantity | str]) -> pl.DataFrame:
    """For this machine and every other stored one: each headline's median (with its
    interval, ``lo``–``hi``), and how many times as fast as this machine it is
    (``relative``; a time turned round so that more is faster). Each other machine's set of
    a subject is opened once, whatever the number of headlines. Empty when only this
    machine is stored."""
    from . import fmt

    quantities = [_quantity(p) for p in picks]
    by_subject = {s.subject: s for s in sets}
    beside: dict[str, dict[str, store.ResultSet]] = {}
    rows: list[dict[str, Any]] = []
    for q in quantities:
        if q.subject not in by_subject:
            raise ValueError(f"headline {q.label!r}: no results set of {q.subject} was given")
        data = by_subject[q.subject]
        if q.subject not in beside:
            beside[q.subject] = {"this machine": data, **others(data)}
        machines = beside[q.subject]
        if len(machines) == 1:
            continue
        mine = headlines_registry.read(q, data).estimate
        unit = headlines_registry.unit_of(q, data)
        better = direction(unit)
        if unit is not None and better is None:
            raise ValueError(f"headline {q.label!r}: its unit {unit!r} does not say whether more is better")
        for name, other in machines.items():
            e = mine if other is data else headlines_registry.read(q, other).estimate
            value = None if e is None else e.median
            ours = None if mine is None else mine.median
            relative = fmt.quotient(value, ours) if better == "higher" else fmt.quotient(ours, value)
            rows.append(
                {
                    "headline": q.label,
                    "machine": name,
                    "value": value,
                    "lo": None if e is None else e.lo,
                    "hi": None if e is None else e.hi,
                    "unit": unit,
                    "shown": shown(value, unit),
                    "relative": relative,
                    "this_machine": other is data,
                }
            )
    schema = {
        "headline": pl.String,
        "machine": pl.String,
        "value": pl.Float64,
        "lo": pl.Float64,
        "hi": pl.Float64,
        "unit": pl.String,
        "shown": pl.String,
        "relative": pl.Float64,
        "this_machine": pl.Boolean,
    }
    return pl.DataFrame(rows, schema=schema)


def compare_headlines(a: str, b: str) -> pl.DataFrame:
    """The registry's headline quantities (``howfast.headlines``, the numbers card's rows)
    for two stored machines: each median with its interval, and how `b` compares with `a`
    in ``claims.versus``'s words ('1.3× faster than a', 'not clearly ... than a (…)', 'not
    measured here, so not compared with a'). What ``howfast compare`` prints first."""
    from . import claims
    from .stats import Estimate

    if a == b:
        raise ValueError(f"compare needs two different machines, got {a!r} twice")
    _sets(a), _sets(b)  # UnknownMachine for a machine with nothing stored
    left = headlines_registry.table(a, measure=False)
    right = headlines_registry.table(b, measure=False)
    rows = []
    for x, y in zip(left.iter_rows(named=True), right.iter_rows(named=True), strict=True):
        ea = None if x["value"] is None else Estimate(x["value"], x["lo"], x["hi"], x["runs"] or 1)
        eb = None if y["value"] is None else Estimate(y["value"], y["lo"], y["hi"], y["runs"] or 1)
        more, less = ("slower", "faster") if direction(x["unit"]) == "lower" else ("faster", "slower")
        words = claims.versus(claims.compare(eb, ea), a, more=more, less=less)
        rows.append({"id": x["id"], "label": x["label"], "unit": x["unit"], "a": x["value"], "a_lo": x["lo"],
                     "a_hi": x["hi"], "b": y["value"], "b_lo": y["lo"], "b_hi": y["hi"],
                     "b against a": words, "note": x["reason"] or y["reason"] or ""})  # fmt: skip
    schema = {"id": pl.String, "label": pl.String, "unit": pl.String, "a": pl.Float64, "a_lo": pl.Float64,
              "a_hi": pl.Float64, "b": pl.Float64, "b_lo": pl.Float64, "b_hi": pl.Float64, "b against a": pl.String,
              "note": pl.String}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def chart(sets: store.ResultSet | Sequence[store.ResultSet], picks: Sequence[Quantity | str]) -> Any:
    """The chapter's headline numbers, this machine beside every other stored machine
    (``charts.machines``); None, so a cell shows nothing, when only this machine is stored."""
    from . import charts

    frame = headlines([sets] if isinstance(sets, store.ResultSet) else list(sets), picks)
    return charts.machines(frame) if frame.height else None


checked(globals(), only=("DataFrame", "str", "int", "float"))


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
