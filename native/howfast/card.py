"""The numbers card: one row per headline quantity of the book, read from the stored results.

The quantities, how each is read (the median with its interval) and the seeds' figures
beside them live in one place, ``howfast.headlines``; this module only lays them out. A
case this machine could not run has no value and a reason; a subject with no stored set
for another machine has no values and says so. The laptop and phone columns show the
seeds' figures exactly as printed (converted to the row's unit), with the article and the
kind of figure; the comparison with the laptop is made only like with like, its words
from ``claims``, and otherwise reads "not comparable" with the reason.

``headlines()`` is one machine's card as data; ``card()`` puts the stored machines side
by side (this machine first); ``rows_for_page()`` and ``display()`` make it readable (used
by the chapter and by ``howfast card``).
"""

from __future__ import annotations

import math
import re

import altair as alt
import polars as pl

from . import charts, claims, fmt, stats, store
from . import headlines as headlines_registry
from .checks import checked
from .headlines import Quantity
from .stats import Estimate

#: The subjects the card reads (rocksdb has no headline number).
SUBJECTS = headlines_registry.SUBJECTS

#: The reference machines of the seeds, as the card's columns name them.
REFERENCE_MACHINES = headlines_registry.REFERENCE_MACHINES

#: The card's rows: the registry's quantities marked for the card (``howfast.headlines``).
HEADLINES: tuple[Quantity, ...] = tuple(q for q in headlines_registry.QUANTITIES if q.card)

IDS = tuple(h.id for h in HEADLINES)


def unstored(subjects: tuple[str, ...] = SUBJECTS) -> list[str]:
    """The subjects this machine has no (readable) stored set of for the current profile:
    the card measures them when it is made."""
    missing = []
    for subject in subjects:
        try:
            store.load(subject)
        except store.MissingResults:
            missing.append(subject)
    return missing


def _this_machine() -> str:
    return headlines_registry.this_machine()


def headlines(machine: str | None = None, profile: str | None = None, *, measure: bool = True) -> pl.DataFrame:
    """One row per card quantity for `machine` (this one by default) and `profile` (the
    current one): ``headlines.table`` over the card's quantities (the median with its
    interval, its unit, why it is missing, which run it is, where the book measured it, and
    the laptop's and phone's figures with their kind and comparability). This machine's
    missing subjects are measured first (on the current profile) unless `measure` is False."""
    return headlines_registry.table(machine, profile, measure=measure, quantities=list(HEADLINES))


def machines_in_order(*, include_here: bool = True) -> list[str]:
    """The stored machines, this one first (also when it has nothing stored, with
    `include_here`)."""
    here = _this_machine()
    stored = store.machines()
    first = [here] if include_here or here in stored else []
    return [*first, *(m for m in stored if m != here)]


#: The columns a machine gets in the card: its value, interval and runs, why it is missing, when.
_PER_MACHINE = ("lo", "hi", "runs", "target", "reason")
#: The seed columns of the card (per reference machine).
_SEED_PARTS = ("", " kind", " article", " quoted", " differs", " comparable", " why not", " converted")

#: A seed column's cell where the articles have no figure for the row.
NO_SEED_FIGURE = "not measured in the articles"
#: The napkin-math column's cell where its table has no like row.
NO_NAPKIN_FIGURE = "no like row in its table"


def card(machines: list[str] | None = None, *, measure: bool = True) -> pl.DataFrame:
    """The card: id, label, unit, note, run, section, one value column per machine (this
    machine first; all stored machines when none are named), then the laptop's and phone's
    figures. Each machine also gets ``<machine> lo``/``hi``/``runs`` (the median's interval),
    ``<machine> reason`` (why a value is missing) and ``<machine> measured`` (when, and on
    which profile)."""
    names = machines_in_order(include_here=measure) if machines is None else list(dict.fromkeys(machines))
    if not names:
        raise ValueError("machines must name at least one machine")
    known = set(store.machines()) | {_this_machine()}
    unknown = [m for m in names if m not in known]
    if unknown:
        raise ValueError(
            f"unknown machine {unknown[0]!r}: the stored machines are {', '.join(sorted(known)) or 'none'}"
        )
    base = refs = None
    for name in names:
        rows = headlines(None if name == _this_machine() else name, measure=measure)
        cols = rows.select(
            "id",
            pl.col("value").alias(name),
            *[pl.col(part).alias(f"{name} {part}") for part in _PER_MACHINE],
            pl.concat_str(
                pl.col("measured_at").str.slice(0, 10), pl.lit(", "), pl.col("profile"), pl.lit(" profile")
            ).alias(f"{name} measured"),
        )
        if base is None:
            base = rows.select("id", "label", "unit", "note", "run", "section").join(cols, on="id", how="left")
            refs = rows.select("id", *[f"{m}{part}" for m in REFERENCE_MACHINES for part in _SEED_PARTS])
        else:
            base = base.join(cols, on="id", how="left")
    return base.join(refs, on="id", how="left")


def value_columns(frame: pl.DataFrame) -> list[str]:
    """The machines of a card, in its order."""
    return [c for c in frame.columns if f"{c} reason" in frame.columns]


def stamp_line(frame: pl.DataFrame, machine: str) -> str:
    """When (and on which profiles) a machine's numbers of the card were measured."""
    seen = frame[f"{machine} measured"].drop_nulls().unique().sort().to_list()
    return "measured " + "; ".join(seen) if seen else "nothing stored"


def display(value: float | None, unit: str, digits: int = 3) -> str:
    """A card value as a reader sees it: a duration in its best unit, else number + unit
    (`digits` significant digits for a number that is not a time)."""
    if value is None:
        return fmt.NA
    if unit == "ns":
        return fmt.duration_us(value / 1e3)
    if unit == "µs":
        return fmt.duration_us(value)
    return f"{fmt.num(value, digits)} {unit}"


def digits_for(lo: float | None, hi: float | None) -> int:
    """Three significant digits, more (up to six) where the interval's ends would round alike.
    The card itself keeps three (``spread`` says how narrow such an interval is): a fourth
    digit would claim a precision the runs' spread across moments does not have."""
    if lo is None or hi is None or lo == hi:
        return 3
    return next((d for d in (3, 4, 5, 6) if fmt.num(lo, d) != fmt.num(hi, d)), 3)


def _exact_number(x: float) -> str:
    """Every digit a seed printed: 184501.84 -> '184,501.84', 2.5 -> '2.5'."""
    text = f"{x:,.3f}".rstrip("0").rstrip(".")
    return text


def seed_display(value: float | None, unit: str) -> str:
    """A seed's figure with every digit it printed (not rounded to three figures): a
    duration in its best unit, else number + unit."""
    if value is None:
        return fmt.NA
    if unit in TIMES:
        us = value / 1e3 if unit == "ns" else value
        for limit, factor, name in ((1, 1e3, "ns"), (1e3, 1.0, "µs"), (1e6, 1e-3, "ms"), (math.inf, 1e-6, "s")):
            if us < limit:
                return f"{_exact_number(us * factor)} {name}"
    return f"{_exact_number(value)} {unit}"


def spread(
    lo: float | None,
    hi: float | None,
    runs: int | None,
    unit: str,
    median: float | None = None,
    target: float | None = None,
) -> str:
    """The interval of a median and its run count, three significant digits: '98.1–120 µs,
    5 runs'; ends that round alike say how narrow it is ('within ±0.1 %, 3 runs'); with the
    `median` and the profile's `target`, a wider interval gets its mark ('658 µs–1.92 ms,
    3 runs; unstable: −30 %/+104 %'); '' unmeasured."""
    if lo is None or hi is None:
        return ""
    if lo != hi and display(lo, unit) == display(hi, unit):
        mid = median if median is not None else (lo + hi) / 2
        half = max(hi - mid, mid - lo) / mid if mid else 0.0
        bound = next((b for b in (0.1, 0.5, 1.0) if 100 * half <= b), 2.0)
        ends = f"within ±{fmt.num(bound)} %"
    elif unit in TIMES:
        ends = f"{display(lo, unit)}–{display(hi, unit)}"
    else:
        ends = f"{fmt.span(lo, hi)} {unit}"
    said = f"{ends}, {fmt.count(int(runs or 1), 'run')}"
    if median is not None and target is not None:
        mark = stats.stability(Estimate(median, lo, hi, int(runs or 1)), target)
        said += f"; {mark}" if mark else ""
    return said


def link(section: str, base: str = "chapters/") -> str:
    """A section path relative to a page in `base` ('storing-data.qmd#sec-...')."""
    return section.removeprefix(base)


#: Units in which less is faster (a time per operation).
TIMES = ("ns", "µs")


def _estimate(row: dict, machine: str) -> Estimate | None:
    if row[machine] is None:
        return None
    lo, hi = row.get(f"{machine} lo"), row.get(f"{machine} hi")
    lo = row[machine] if lo is None else lo
    hi = row[machine] if hi is None else hi
    return Estimate(row[machine], lo, hi, int(row.get(f"{machine} runs") or 1))


#: Rows whose ratio is the setup's, not the machine's alone (Redis: redis-benchmark shares the
#: server's CPUs here, as the networks chapter says): the words say so.
SETUP_RATIOS = ("redis",)


def against(row: dict, machine: str, seed: str = "laptop") -> str:
    """How `machine`'s figure of a card row compares with the seed's (`seed`: laptop or
    phone), in words from ``claims`` with the ratio's range: '3.1× faster than the laptop (2.8–3.4×)',
    'this setup: 4.2× slower than the laptop (…)' for a row of ``SETUP_RATIOS``, 'not clearly faster or
    slower than the laptop (…)', 'not comparable: <why>', 'not comparable (the laptop column says why)'
    for a figure the seed printed that cannot be set beside ours (``seed_cell`` shows it), or 'no
    laptop figure'."""
    if seed not in REFERENCE_MACHINES:
        raise ValueError(f"seed must be one of {REFERENCE_MACHINES}, got {seed!r}")
    if row.get(seed) is None:
        return f"not comparable (the {seed} column says why)" if row.get(f"{seed} why not") else f"no {seed} figure"
    if not row.get(f"{seed} comparable"):
        return f"not comparable: {row[f'{seed} why not']}"
    more, less = ("slower", "faster") if row["unit"] in TIMES else ("faster", "slower")
    c = claims.compare(_estimate(row, machine), Estimate.exact(row[seed]))
    said = claims.versus(c, f"the {seed}", more=more, less=less, span=True)
    return f"this setup: {said}" if row.get("id") in SETUP_RATIOS else said


def versus_laptop(frame: pl.DataFrame, machine: str) -> pl.DataFrame:
    """The like-with-like rows only (the laptop's figure measured, the setups comparable):
    how many times the laptop's figure a machine's is, turned so that above 1 always means
    faster (times are inverted), with the interval of that factor and the words of
    ``claims.compare``; rows without both figures, or not comparable, are left out."""
    out = []
    for row in frame.iter_rows(named=True):
        if row[machine] is None or row["laptop"] is None or not row.get("laptop comparable", True):
            continue
        e = _estimate(row, machine)
        time = row["unit"] in TIMES
        lo, hi = (row["laptop"] / e.hi, row["laptop"] / e.lo) if time else (e.lo / row["laptop"], e.hi / row["laptop"])
        times = row["laptop"] / e.median if time else e.median / row["laptop"]
        label = f"{row['label']} (this setup)" if row.get("id") in SETUP_RATIOS else row["label"]
        out.append({"label": label, "times": times, "lo": lo, "hi": hi, "verdict": _verdict(e, row["laptop"], time),
                    "words": against(row, machine)})  # fmt: skip
    schema = {"label": pl.String, "times": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "verdict": pl.String,
              "words": pl.String}  # fmt: skip
    return pl.DataFrame(out, schema=schema)


#: The ratio chart's colours by ``claims.compare``'s verdict against the laptop's figure.
VERDICTS = {"faster": charts.HIGHLIGHT, "slower": charts.REFERENCE, "not settled": "#bdbdbd"}


def _verdict(e: Estimate, laptop: float, time: bool) -> str:
    """'faster' or 'slower' where ``claims.compare`` finds the interval clear of the
    laptop's figure (for a time, lower is faster), else 'not settled'."""
    direction = claims.compare(e, Estimate.exact(laptop)).direction
    if direction == claims.HIGHER:
        return "slower" if time else "faster"
    if direction == claims.LOWER:
        return "faster" if time else "slower"
    return "not settled"


def _ticks(domain: list[float]) -> list[float]:
    steps = [m * 10**e for e in range(-4, 5) for m in (1, 2, 5)]
    return [t for t in steps if domain[0] <= t <= domain[1]]


def ratio_chart(ratios: pl.DataFrame, machine: str) -> alt.LayerChart:
    """Points on a log scale around 1, with the interval of each factor: right of the
    line, faster than the laptop; coloured faster, slower or not settled by
    ``claims.compare`` (the interval clear of the laptop's figure or not). Only
    like-with-like rows (``versus_laptop``)."""
    top = max(2.0, float(ratios["hi"].max()), 1 / float(ratios["lo"].min()))
    domain = [1 / top / 1.2, top * 1.2]
    base = alt.Chart(ratios, title=f"{machine} against the laptop").encode(
        y=alt.Y("label:N", sort=ratios["label"].to_list(), title=None, axis=alt.Axis(labelLimit=200)),
    )
    scale = alt.Scale(type="log", domain=domain)
    axis = alt.Axis(labelExpr=charts.TICK_LABEL, values=_ticks(domain))
    x = alt.X("times:Q", scale=scale, title="times the laptop's speed (log; right: faster)", axis=axis)
    bars = base.mark_rule(color="#555").encode(x=alt.X("lo:Q", scale=scale, axis=axis), x2="hi:Q")
    points = base.mark_point(filled=True, size=90).encode(
        x=x,
        color=alt.Color(
            "verdict:N",
            scale=alt.Scale(domain=list(VERDICTS), range=list(VERDICTS.values())),
            legend=alt.Legend(title="against the laptop", orient="bottom"),
        ),
        tooltip=[alt.Tooltip("label:N"), alt.Tooltip("times:Q", format=".3~g"), alt.Tooltip("words:N")],
    )
    rule = alt.Chart(pl.DataFrame({"one": [1.0]})).mark_rule(color="#333").encode(x="one:Q")
    return alt.layer(rule, bars, points).properties(height=alt.Step(28))


def seed_cell(row: dict, seed: str) -> str:
    """A seed's figure as the card shows it: every digit printed, the article, and the kind
    when it is not a measurement ('40,000 req/s (seed 001, rounded)'); a figure the article
    printed in another unit in the row's unit (four digits; a rounded one at the digits it
    printed, ``printed_digits``) with the figure as printed
    ('1,917 MB/s (seed 000, printed as 1827.80 MiB/sec)'); a figure that cannot be set beside
    ours (``Quantity.no_seed``) as the registry words it; NO_SEED_FIGURE when none."""
    if row.get(seed) is None:
        if row.get(f"{seed} why not"):  # a figure the seed printed that cannot be set beside ours
            return str(row[f"{seed} why not"])
        return NO_NAPKIN_FIGURE if seed == "napkin" else NO_SEED_FIGURE
    kind = row[f"{seed} kind"]
    if row.get(f"{seed} converted") and row["unit"] not in TIMES:
        digits = printed_digits(str(row[f"{seed} quoted"])) if kind == "rounded" else 4
        shown = f"{fmt.num(row[seed], min(digits, 4))} {row['unit']}"
        quoted = " ".join(str(row[f"{seed} quoted"]).split())  # the README pads its table's cells
        said = f"{shown} ({row[f'{seed} article']}, printed as {quoted}"
    else:
        said = f"{seed_display(row[seed], row['unit'])} ({row[f'{seed} article']}"
    return said + (")" if kind == "measured" else f", {kind})")


def printed_digits(quoted: str) -> int:
    """The significant digits of the first number in a figure as printed: '35 GiB/s' -> 2,
    '1 GiB/s' -> 1, '~300MB/s' -> 1 (a rounded figure's trailing zeros are not digits it
    claims), '1827.80 MiB/sec' -> 6; 3 when it prints no number. A rounded figure converted
    to the row's unit is shown at this precision, so it claims no more than the seed did."""
    found = re.search(r"\d[\d,]*(?:\.\d+)?", quoted)
    if found is None:
        return 3
    text = found.group().replace(",", "")
    if "." in text:
        whole, part = text.split(".")
        digits = (whole.lstrip("0") + part) if whole.strip("0") else part.lstrip("0")
    else:
        digits = text.strip("0")
    return max(1, len(digits))


def rows_for_page(frame: pl.DataFrame, *, notes: bool = True) -> pl.DataFrame:
    """The card as the book shows it: the number (a link to the section that measured it),
    each machine's median in its unit with its interval and runs (or n/a), the laptop's and
    phone's figures as the seeds print them (article; kind when not a measurement), how this
    machine compares with the laptop (like with like only), and what was measured."""
    names = value_columns(frame)
    rows = []
    for row in frame.iter_rows(named=True):
        out = {"number": f"[{row['label']}]({link(row['section'])})"}
        for n in names:
            value = display(row[n], row["unit"])
            ends = spread(row[f"{n} lo"], row[f"{n} hi"], row[f"{n} runs"], row["unit"], row[n],
                          row.get(f"{n} target"))  # fmt: skip
            out[n] = f"{value} ({ends})" if ends else value
        out["laptop"] = seed_cell(row, "laptop")
        out["phone"] = seed_cell(row, "phone")
        out["napkin-math"] = seed_cell(row, "napkin")
        out["against the laptop"] = against(row, names[0])
        if notes:
            out["what was measured"] = measured_words(row)
        rows.append(out)
    columns = ["number", *names, "laptop", "phone", "napkin-math", "against the laptop"]
    columns += ["what was measured"] if notes else []
    return pl.DataFrame(rows, schema=dict.fromkeys(columns, pl.String))


#: How a seed machine opens a sentence of 'what was measured'.
_SEED_NAMES = {"laptop": "Laptop", "phone": "Phone", "napkin": "napkin-math"}


def notes_for_page(frame: pl.DataFrame) -> pl.DataFrame:
    """The card's second table, for a page too narrow for one: each number and what was
    measured (``measured_words``), for ``rows_for_page(frame, notes=False)``."""
    rows = [{"number": row["label"], "what was measured": measured_words(row)} for row in frame.iter_rows(named=True)]
    return pl.DataFrame(rows, schema={"number": pl.String, "what was measured": pl.String})


def measured_words(row: dict) -> str:
    """A card row's 'what was measured': the note, then what differs for each seed machine
    as a sentence of its own ('Laptop: …. Phone: …'; one sentence when both say the same),
    and, for a seed other than the laptop (whose comparison has a column), why its figure is
    not comparable: 'for the same reason' when it is the laptop's."""
    said = {m: row[f"{m} differs"] for m in REFERENCE_MACHINES if row.get(f"{m} differs") and row.get(m) is not None}
    if len(said) > 1 and len(set(said.values())) == 1:
        parts = [f"Laptop and phone: {next(iter(said.values()))}"]
    else:
        parts = [d if d.startswith(_SEED_NAMES[m]) else f"{_SEED_NAMES[m]}: {d}" for m, d in said.items()]
    laptop_why = row.get("laptop why not") if row.get("laptop") is not None else None
    for m in REFERENCE_MACHINES[1:]:
        why = row.get(f"{m} why not")
        if row.get(m) is None or row.get(f"{m} comparable") is not False or not why:
            continue
        whose = "napkin-math's" if m == "napkin" else f"The {m}'s"
        if why == laptop_why:
            parts.append(f"{whose} figure is not comparable either, for the same reason")
        else:
            parts.append(f"{whose} figure is not comparable: {why}")
    return ". ".join([row["note"], *parts]) + ("." if parts else "")


def other_runs(id_: str, *, measure: bool = False) -> pl.DataFrame:
    """Card quantity `id_` as every run of the book measures it (``headlines.other_runs``),
    this machine: the run, its median with the range it lies in, and how it compares with
    the run the card quotes (words from ``claims.compare``). Empty when no other run
    measures it."""
    main = headlines_registry.get(id_)
    extra = headlines_registry.other_runs(id_)
    if not extra:
        return pl.DataFrame(schema=dict.fromkeys(["run", "median", "against the card's run"], pl.String))
    rows = headlines_registry.table(measure=measure, quantities=[main, *extra])
    card_run = headlines_registry.estimate_of(rows, id_)
    out = []
    for row in rows.iter_rows(named=True):
        e = headlines_registry.estimate_of(rows, row["id"])
        more, less = ("slower", "faster") if row["unit"] in TIMES else ("faster", "slower")
        if row["id"] == id_:
            words = "the card's run"
        elif e is None:
            words = f"not measured here: {row['reason']}"
        else:
            words = claims.versus(claims.compare(e, card_run), "the card's run", more=more, less=less, span=True)
        ends = spread(row["lo"], row["hi"], row["runs"], row["unit"], row["value"], row.get("target"))
        name = headlines_registry.get(row["id"]).run_name or row["label"]
        run = f"{name} (the card quotes it)" if row["id"] == id_ else f"{name}: {row['run']}"
        value = display(row["value"], row["unit"])
        out.append({"run": run, "median": value + (f" ({ends})" if ends else ""), "against the card's run": words})
    return pl.DataFrame(out, schema=dict.fromkeys(["run", "median", "against the card's run"], pl.String))


def runs_note(frame: pl.DataFrame) -> str:
    """Which run each number is, and why that one (markdown list)."""
    return "\n".join(f"- The {row['label']} comes from {row['run']}." for row in frame.iter_rows(named=True))


def reasons_note(frame: pl.DataFrame) -> str:
    """The numbers that read n/a, each with its reason (empty when every one was measured)."""
    names = value_columns(frame)
    lines = [
        f"- {row['label']} ({n}): {row[f'{n} reason']}"
        for row in frame.iter_rows(named=True)
        for n in names
        if row[n] is None
    ]
    if not lines:
        return ""
    return (
        "::: {.callout-warning}\n## Not measured on this machine\n\n"
        + "\n".join(lines)
        + "\n\nThese numbers read n/a in the card, and the sentences built on them say so.\n:::\n"
    )


def runs_words(frame: pl.DataFrame, machine: str) -> str:
    """How many runs each of `machine`'s numbers rests on: '3 runs per number', '3 to 11
    runs per number'; 'no runs' when none was measured."""
    runs = frame.filter(pl.col(machine).is_not_null())[f"{machine} runs"].drop_nulls()
    if runs.len() == 0:
        return "no measured number"
    least, most = int(runs.min()), int(runs.max())
    if least == most:
        return f"{fmt.count(least, 'run')} per number"
    return f"{fmt.exact(least)} to {fmt.exact(most)} runs per number"


def spread_sentence(frame: pl.DataFrame, machine: str, busy: list[str], silent: list[str] | None = None) -> str:
    """How far to trust the card's intervals: the run counts (``runs_words``), how many of
    `machine`'s numbers are marked unstable (an interval wider than its profile's target,
    ``stats.stability``), which numbers come from a set measured on a busy machine (`busy`:
    the subjects whose sets ``book.busy`` finds busy), which from a set that recorded no
    noise evidence (`silent`: the subjects whose ``book.noise_summary`` has no rows; how
    busy the machine was for them is not known), the others quiet enough, then how to read
    a number and a comparison."""
    silent = list(silent or [])
    for name, subjects in (("busy", busy), ("silent", silent)):
        unknown = [b for b in subjects if b not in SUBJECTS]
        if unknown:
            raise ValueError(f"{name} must name the card's subjects ({', '.join(SUBJECTS)}), got {unknown[0]!r}")
    both = [b for b in silent if b in busy]
    if both:
        raise ValueError(f"silent names a subject busy by its noise evidence, which it has: {both[0]!r}")
    measured = [row for row in frame.iter_rows(named=True) if row[machine] is not None]
    wide = sum(1 for row in measured if stats.stability(_estimate(row, machine), row.get(f"{machine} target")))
    held = any(row.get(f"{machine} target") is not None for row in measured)
    loud = [row["label"] for row in measured if headlines_registry.get(row["id"]).subject in busy]
    mute = [row["label"] for row in measured if headlines_registry.get(row["id"]).subject in silent]
    if not loud and not mute:
        where = "Every number's set was measured on a machine quiet enough by its noise evidence."
    elif len(loud) == len(measured):
        where = "Every number's set was measured on a busy machine by its noise evidence."
    elif len(mute) == len(measured):
        where = (
            "No number's set recorded noise evidence, so how busy the machine was while they were measured is not "
            "known."
        )
    else:
        said = []
        if loud:
            said.append(
                f"the sets behind {fmt.count(len(loud), 'number')} ({fmt.listed(loud)}) were measured on a busy "
                "machine by their noise evidence"
            )
        if mute:
            said.append(
                f"the sets behind {fmt.count(len(mute), 'number')} ({fmt.listed(mute)}) recorded no noise evidence, "
                "so how busy the machine was for them is not known"
            )
        if len(loud) + len(mute) < len(measured):
            said.append(
                "the others were measured on a machine quiet enough by theirs" if mute
                else "the others on a machine quiet enough"
            )  # fmt: skip
        where = "; ".join(said) + "."
        where = where[0].upper() + where[1:]
    if not measured:
        return "No number of this machine's was measured, so the card has no interval to read."
    if not held:
        state = "its profile holds no interval to a target, so the card marks none unstable"
    elif wide == 0:
        state = "every interval ended within its profile's target"
    else:
        state = (
            f"{fmt.exact(wide)} of {fmt.count(len(measured), 'number')} stayed wider than their profile's target "
            "(marked unstable)"
        )
    return (
        f'With {runs_words(frame, machine)}, {state}. {where} Read a number as "somewhere in its interval", and a '
        "comparison as settled only where the intervals do not overlap (the words of the comparison column are "
        "chosen that way)."
    )


def _ns_to_stream(seq_read: Estimate, size: int = 4096) -> Estimate:
    """The time, in ns, to stream `size` bytes at `seq_read` (MB/s), with its interval."""
    return Estimate(size * 1e3 / seq_read.median, size * 1e3 / seq_read.hi, size * 1e3 / seq_read.lo, seq_read.runs)


def wait_words(seq_read: Estimate | None, fsync: Estimate | None) -> str:
    """Whether a durable 4 KiB write (`fsync`, µs) clearly takes longer than streaming 4 KiB
    at the sequential read rate (`seq_read`, MB/s), by ``claims.compare``; '' when either
    was not measured (the durable-write sentence says so)."""
    if seq_read is None or fsync is None or seq_read.lo <= 0:
        return ""
    c = claims.compare(fsync.scaled(1e3), _ns_to_stream(seq_read))
    if c.direction == claims.HIGHER:
        return "Waiting is not cheap: one durable 4 KiB write takes longer than streaming 4 KiB does."
    if c.direction == claims.LOWER:
        return "Waiting was cheap here: one durable 4 KiB write took less time than streaming 4 KiB."
    if c.direction == claims.SAME_WORD:
        return "Here one durable 4 KiB write takes about as long as streaming 4 KiB."
    return (
        "Whether one durable 4 KiB write takes longer than streaming 4 KiB is not settled here: the intervals overlap."
    )


def cpu_words(syscall: Estimate | None, seq_read: Estimate | None, fsync: Estimate | None) -> str:
    """The lead-in to the system call's cost: whether it is clearly cheaper, clearly dearer or
    neither (``claims.compare``) next to streaming 4 KiB and one durable 4 KiB write; 'As for
    the CPU' when it or both others were not measured."""
    if syscall is None:
        return "As for the CPU"
    stream = None if seq_read is None or seq_read.lo <= 0 else _ns_to_stream(seq_read)
    wait = None if fsync is None else fsync.scaled(1e3)
    found = {
        name: claims.compare(syscall, other).direction
        for name, other in (("streaming 4 KiB", stream), ("waiting", wait))
        if other is not None
    }
    if not found:
        return "As for the CPU"
    cheap = [n for n, d in found.items() if d == claims.LOWER]
    dear = [n for n, d in found.items() if d == claims.HIGHER]
    open_ = [n for n, d in found.items() if d not in (claims.LOWER, claims.HIGHER)]
    if len(cheap) == len(found):
        return "And the CPU is cheap next to both" if len(cheap) == 2 else f"And the CPU is cheap next to {cheap[0]}"
    clauses = []
    if cheap:
        clauses.append(f"cheap next to {cheap[0]}")
    if dear:
        clauses.append(f"dearer here than {fmt.listed(dear)}")
    if open_:
        clauses.append(f"not clearly cheaper or dearer here than {' or '.join(open_)}")
    return "The CPU is " + ", though ".join(clauses)


def estimate_in(frame: pl.DataFrame, id_: str, machine: str) -> tuple[Estimate | None, float | None]:
    """A card row's figure for `machine` as an Estimate (None: not measured), with the
    target its profile holds intervals to."""
    rows = frame.filter(pl.col("id") == id_)
    if rows.height != 1:
        raise KeyError(f"the card has no row {id_!r}")
    row = rows.row(0, named=True)
    return _estimate(row, machine), row.get(f"{machine} target")


def figure_words(e: Estimate | None, unit: str, target: float | None = None) -> str:
    """A figure in a sentence with its interval, run count and mark: '854 ns (592 ns–1.03 µs,
    3 runs; unstable: …)'; n/a when not measured."""
    if e is None:
        return fmt.NA
    ends = spread(e.lo, e.hi, e.runs, unit, e.median, target)
    return f"{display(e.median, unit)} ({ends})"


def durable_sentence(latency: Estimate | None, rate: Estimate | None, target: float | None = None) -> str:
    """What one durable 4 KiB write costs, as the fsync chapter's latency run measured it:
    the median wait with its interval, then the rate one thread reached counting every write
    (its own metric, not 1 ÷ the median), and how 1 ÷ the median (with the range its
    interval gives) compares with it (``claims.compare``)."""
    if latency is None:
        return "A durable 4 KiB write could not be measured here, so the card has no wait to set beside streaming."
    text = f"One durable 4 KiB write takes {figure_words(latency, 'µs', target)} at the median"
    if rate is None:
        return text + "; the rate of durable writes was not stored with it."
    text += (
        f". Counting every write, slow ones included, one thread made {fmt.num(rate.median)} writes durable a second "
        f"({fmt.span(rate.lo, rate.hi)}, {fmt.count(rate.runs, 'run')}"
        + (f"; {mark}" if (mark := stats.stability(rate, target)) else "")
        + ")"
    )
    if latency.lo <= 0:
        return text + "."
    naive = Estimate(1e6 / latency.median, 1e6 / latency.hi, 1e6 / latency.lo, latency.runs)
    inverse = f"1 ÷ the median ({fmt.num(naive.median)} a second, {fmt.span(naive.lo, naive.hi)} over its interval)"
    direction = claims.compare(naive, rate).direction
    if direction == claims.HIGHER:
        return text + f". {inverse[0].upper()}{inverse[1:]} would overstate it: the slow writes count in the rate."
    if direction == claims.LOWER:
        return text + f", more than {inverse}: the mean wait was shorter than the median."
    if direction == claims.SAME_WORD:
        return text + f", about {inverse}: the slow writes weighed little."
    return text + f". Set beside {inverse}, it is neither clearly higher nor lower: the two intervals overlap."


def stream_words(seq_read: Estimate | None, latency: Estimate | None) -> str:
    """How much the disk streams in the time of one durable write (MB/s × µs = bytes), in
    the decimal unit that suits it, at the two medians and over the two intervals: 'about
    1.2 MB at the two medians (0.85–1.6 MB within their intervals)'."""
    if seq_read is None or latency is None:
        return "an amount this machine could not measure"
    median, lo, hi = seq_read.median * latency.median, seq_read.lo * latency.lo, seq_read.hi * latency.hi
    scale, unit = next(
        ((f, u) for f, u in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")) if median >= f * 0.9995), (1, "bytes")
    )
    return (
        f"about {fmt.num(median / scale, 2)} {unit} at the two medians "
        f"({fmt.span(lo / scale, hi / scale, 2)} {unit} within their intervals)"
    )


def request_sentence(http: Estimate | None, syscall: Estimate | None, target: float | None = None) -> str:
    """The hello-world server's time per request at the connection count with the highest
    median rate (the card's row), carried from the rate's interval, and how many system
    calls fit in it (the range from both intervals)."""
    if http is None:
        return "The hello-world server did not run here, so the card cannot set a request against a system call."
    each = Estimate(1e9 / http.median, 1e9 / http.hi, 1e9 / http.lo, http.runs)
    text = (
        "At the connection count with the highest median rate, our hello-world server answers a request every "
        f"{figure_words(each, 'ns', target)} on average (all its threads together, from the rate's interval)"
    )
    if syscall is None:
        return text + "; the system call was not measured here, so the two are not set side by side."
    calls = each.median / syscall.median
    least, most = each.lo / syscall.hi, each.hi / syscall.lo
    return text + (
        f", the time of about {fmt.num(calls, 2)} system calls ({fmt.num(least, 2)} to {fmt.num(most, 2)} within "
        "the two intervals)."
    )


checked(globals())
