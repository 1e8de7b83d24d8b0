"""Tables, chart data and sentences for the fsync chapter, from its stored results.

Code compares the methods' ids (``experiments.METHODS``); what a reader sees is
``METHOD_NAMES``, applied by ``named`` as the last step before a table or chart.
"""

from __future__ import annotations

from collections.abc import Callable

import altair as alt
import polars as pl

from .. import charts, claims, fmt, reference, stats, tables
from ..charts import THIS_MACHINE
from ..checks import checked
from ..crosscheck import ratio_estimate

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "latency": "write + fsync latency",
    "block_sizes": "block-size sweep",
    "group_commit": "group-commit",
    "vs_fio": "fio cross-check",
}

LATENCY_COLUMNS = ["p50", "p90", "p99", "p99.9", "max"]

#: The words for each method id, in the order the chapter introduces them.
METHOD_NAMES = {
    "none": "write, no sync",
    "fsync": "write + fsync",
    "fdatasync": "write + fdatasync",
    "dsync": "O_DSYNC write",
    "direct": "O_DIRECT write, no sync",
    "direct_dsync": "O_DIRECT | O_DSYNC write",
}
LAYOUT_NAMES = {"append": "growing file", "overwrite": "rewriting blocks"}


def named(frame: pl.DataFrame) -> pl.DataFrame:
    """Method and layout ids replaced by the words the chapter uses."""
    if "method" in frame.columns:
        frame = frame.with_columns(pl.col("method").replace_strict(METHOD_NAMES, default=pl.col("method")))
    if "layout" in frame.columns:
        frame = frame.with_columns(pl.col("layout").replace_strict(LAYOUT_NAMES, default=pl.col("layout")))
    return frame


def method_estimates(metrics: pl.DataFrame, layout: str) -> dict[str, dict[str, stats.Estimate]]:
    """Per method id (in the order measured) that ran here, per metric, the median over
    repetitions with the interval of that median."""
    rows = metrics.filter(pl.col("layout") == layout) if metrics.height else metrics
    if rows.height == 0:
        return {}
    summary = stats.summarize(rows, ["method"]).filter(pl.col("metric") != "unsupported")
    out: dict[str, dict[str, stats.Estimate]] = {}
    for row in summary.iter_rows(named=True):
        if row["median"] is not None:
            out.setdefault(row["method"], {})[row["metric"]] = stats.Estimate.from_row(row)
    return out


def _figure(e: stats.Estimate | None, target: float | None, show=fmt.num) -> str:
    """``tables.figure`` without the run count (the table gives it in a column), a time's
    interval written with its unit once where both ends share it: '939 µs (658 µs–1.92 ms)',
    '2.94 µs (2.91–2.96 µs)'."""
    if e is None or show is not fmt.duration_us or e.lo == e.hi:
        return tables.figure(e, target, show, runs=False)
    mark = stats.stability(e, target)
    return f"{fmt.duration_us(e.median)} ({_duration_span(e.lo, e.hi)})" + (f"; {mark}" if mark else "")


def _duration_span(lo: float, hi: float) -> str:
    """Two times as a range, the unit once where both ends share it: '2.91–2.96 µs', '658 µs–1.92 ms'."""
    a, b = fmt.duration_us(lo), fmt.duration_us(hi)
    unit_a, unit_b = a.rsplit(" ", 1)[-1], b.rsplit(" ", 1)[-1]
    return f"{a.rsplit(' ', 1)[0]}–{b}" if unit_a == unit_b else f"{a}–{b}"


def _runs_cell(found: dict[str, stats.Estimate]) -> int | None:
    counts = {e.runs for e in found.values()}
    return max(counts) if counts else None


def method_table(metrics: pl.DataFrame, layout: str, target: float | None = None) -> pl.DataFrame:
    """One row per method: durable writes per second and the p50 latency per write, each
    the median over repetitions with the interval of that median (``tables.figure``,
    marked unstable where the interval stayed wider than ±`target`), and the run count;
    a method this machine could not run reads n/a, with the reason in ``unsupported``."""
    rows = metrics.filter(pl.col("layout") == layout) if metrics.height else metrics
    found = method_estimates(metrics, layout)
    missing = stats.unsupported(rows, ["method"]) if rows.height else pl.DataFrame()
    why = {r["method"]: r["note"] for r in missing.iter_rows(named=True)} if missing.height else {}
    order = rows["method"].unique(maintain_order=True).to_list() if rows.height else []
    table = pl.DataFrame(
        [
            {
                "method": m,
                "writes/s": _figure(found.get(m, {}).get("writes_per_s"), target),
                "p50": _figure(found.get(m, {}).get("p50"), target, fmt.duration_us),
                "runs": _runs_cell(found.get(m, {})),
                "unsupported": why.get(m),
            }
            for m in order
        ],
        schema={
            "method": pl.String,
            "writes/s": pl.String,
            "p50": pl.String,
            "runs": pl.Int64,
            "unsupported": pl.String,
        },
    )
    if table["unsupported"].null_count() == table.height:
        table = table.drop("unsupported")
    return named(table)


#: The latency percentiles of ``tail_table``: the slow writes, beyond the p50 of ``method_table``.
#: (A run's p99.9 and slowest write rest on its one or two slowest writes: their medians over a
#: few runs have intervals too wide to read; the survival chart shows that far tail, pooled.)
TAIL_COLUMNS = ["p90", "p99"]


def tail_table(metrics: pl.DataFrame, layout: str, target: float | None = None) -> pl.DataFrame:
    """One row per method that ran here: each run's p90 and p99 latency per write, the median
    over the runs with the interval of that median (the same runs as ``method_table``'s)."""
    found = method_estimates(metrics, layout)
    table = pl.DataFrame(
        [
            {"method": m, **{c: _figure(e.get(c), target, fmt.duration_us) for c in TAIL_COLUMNS}}
            for m, e in found.items()
        ],
        schema={"method": pl.String, **{c: pl.String for c in TAIL_COLUMNS}},
    )
    return named(table)


def runs_words(metrics: pl.DataFrame) -> str:
    """How many runs (repetitions) each case of `metrics` had: '3', or '3 to 12' where the
    stopping rule added rounds to some cases; 'none' when nothing ran."""
    if metrics.height == 0 or "repetition" not in metrics.columns:
        return "none"
    keys = [c for c in metrics.columns if c not in ("repetition", "metric", "value", "unit", "note", "measured_at")]
    ran = metrics.filter(pl.col("metric") != "unsupported") if "metric" in metrics.columns else metrics
    if ran.height == 0:
        return "none"
    counts = ran.group_by(keys).agg(pl.col("repetition").n_unique())["repetition"]
    lo, hi = int(counts.min()), int(counts.max())
    return fmt.exact(lo) if lo == hi else f"{fmt.exact(lo)} to {fmt.exact(hi)}"


#: Significant digits a chart's data keeps: more than any label or tooltip shows, no float noise
#: ('2.4690000000000003') in the page's source.
CHART_DIGITS = 4


def _chart_rounded(frame: pl.DataFrame, columns: list[str]) -> pl.DataFrame:
    """`frame` with its float `columns` rounded to ``CHART_DIGITS`` significant digits."""
    return frame.with_columns(
        pl.col(c).cast(pl.Float64).round_sig_figs(CHART_DIGITS) for c in columns if c in frame.columns
    )


def distribution(samples: pl.DataFrame) -> pl.DataFrame:
    """``charts.survival`` of `samples` per method (named as the chapter names them): latency
    (µs) against the share of writes slower, both rounded for the page (``CHART_DIGITS``)."""
    return _chart_rounded(charts.survival(named(samples), "method"), ["latency_us", "share_slower"])


def distribution_chart(samples: pl.DataFrame | None, layout: str = "append") -> alt.Chart:
    """``charts.latency_survival`` per method over the `samples` of `layout`, drawn from
    ``distribution``'s rounded frame; with no samples (None, or none of `layout`), the chart
    that says so."""
    if samples is not None and samples.height and "layout" in samples.columns:
        samples = samples.filter(pl.col("layout") == layout)
    if samples is None or samples.height == 0:
        return charts.latency_survival(None, "method", why="no write of this layout kept its samples")
    return charts.latency_survival(named(samples), "method").properties(data=distribution(samples))


def layout_comparison(metrics: pl.DataFrame) -> pl.DataFrame:
    """Median p50 latency (µs) per method for a growing file and for overwrites, with the
    interval of each median (``lo``, ``hi``) and the run count, for ``charts.grouped_bars``
    (rounded to ``CHART_DIGITS``)."""
    summary = stats.summarize(metrics, ["method", "layout"])
    frame = summary.filter(pl.col("metric") == "p50").select("method", "layout", "median", "lo", "hi", "repetitions")
    return named(_chart_rounded(frame, ["median", "lo", "hi"]))


def block_size_curves(metrics: pl.DataFrame, metric: str) -> pl.DataFrame:
    summary = stats.summarize(metrics, ["method", "block_size"])
    return named(summary.filter(pl.col("metric") == metric).with_columns(kib=pl.col("block_size") / 1024))


def group_commit_curves(metrics: pl.DataFrame) -> pl.DataFrame:
    """Records per second and sync-batch p50 latency (µs) against records per fsync."""
    summary = stats.summarize(metrics, ["records_per_sync"])
    return summary.filter(pl.col("metric").is_in(["records_per_s", "p50"])).with_columns(
        quantity=pl.when(pl.col("metric") == "records_per_s")
        .then(pl.lit("durable records per second"))
        .otherwise(pl.lit("time until a batch is durable (p50, µs)"))
    )


def versus_reference(metrics: pl.DataFrame) -> pl.DataFrame:
    """This machine's median write+fsync p50 (µs) with the interval of that median
    (``lo``, ``hi``) beside the articles' fsync latencies, printed figures without spread
    (``lo`` = ``hi`` = the figure)."""
    summary = stats.summarize(metrics, ["method", "layout"])
    words = {"append": "growing file", "overwrite": "rewritten file"}
    ours = summary.filter((pl.col("method") == "fsync") & (pl.col("metric") == "p50")).select(
        label=pl.concat_str(pl.lit(f"{THIS_MACHINE}, "), pl.col("layout").replace_strict(words)),
        latency_us=pl.col("median").cast(pl.Float64),
        lo=pl.col("lo").cast(pl.Float64),
        hi=pl.col("hi").cast(pl.Float64),
        this_machine=pl.lit(True),
    )
    ref = reference.in_us(reference.load("fsync").filter(pl.col("metric") == "latency"))
    estimate = (pl.col("figure_type") == "estimate") & ~pl.col("device").str.contains("(", literal=True)
    theirs = ref.select(
        label=pl.concat_str(
            pl.col("device"),
            pl.when(estimate).then(pl.lit(" (estimate)")).otherwise(pl.lit("")),
            pl.lit(" — seed "),
            pl.col("source").str.slice(0, 3),
        ),
        latency_us=pl.col("value").cast(pl.Float64),
        lo=pl.col("value").cast(pl.Float64),
        hi=pl.col("value").cast(pl.Float64),
        this_machine=pl.lit(False),
    )
    return pl.concat([ours, theirs])


def _bar_text(frame: pl.DataFrame) -> list[str]:
    """Each bar's label as the prose writes numbers ('1,000', never '1k': a k beside µs reads
    as a unit); this machine's with the interval of its median: '939 (800–1,100)'."""
    out = []
    for row in frame.iter_rows(named=True):
        value = fmt.num(row["latency_us"])
        lo, hi = row.get("lo"), row.get("hi")
        ranged = row.get("this_machine") and lo is not None and hi is not None and lo != hi
        out.append(f"{value} ({fmt.span(lo, hi)})" if ranged else value)
    return out


#: The reference chart's title: what it sets side by side, with no 'better' that would rank drives.
REFERENCE_TITLE = "fsync latency: this machine, then the figures the articles printed"


def reference_chart(frame: pl.DataFrame) -> alt.LayerChart:
    """``charts.versus`` of ``versus_reference``: this machine's bars first, then the
    articles' figures in their order (grouped, not sorted across: the page does not rank
    drives), this machine's with a rule over the interval of the median, every bar labelled
    after its end (after the rule's, for this machine) with its figure as the prose writes
    it, this machine's with its interval."""
    if {"lo", "hi"} <= set(frame.columns):
        frame = frame.with_columns(
            lo=pl.col("lo").fill_null(pl.col("latency_us")), hi=pl.col("hi").fill_null(pl.col("latency_us"))
        )
    else:
        frame = frame.with_columns(lo=pl.col("latency_us"), hi=pl.col("latency_us"))
    frame = frame.with_columns(
        bar_text=pl.Series(_bar_text(frame), dtype=pl.String),
        text_at=pl.max_horizontal("latency_us", "hi"),
    )
    chart = charts.versus(frame, label="label", value="latency_us", unit="µs per durable write", title=REFERENCE_TITLE)
    chart = chart.copy(deep=True)
    # this machine's bars first, then the articles' in their order: grouped, not ranked across
    ours = frame.filter(pl.col("this_machine"))["label"].to_list()
    sort = ours + [label for label in frame["label"].to_list() if label not in ours]
    y = alt.Y("label:N", sort=sort, title=None, axis=alt.Axis(labelLimit=0))
    chart.layer[0] = chart.layer[0].encode(y=y)
    chart.layer[1] = chart.layer[1].encode(y=alt.Y("label:N", sort=sort), x=alt.X("text_at:Q"),
                                           text=alt.Text("bar_text:N"))  # fmt: skip
    rule = (
        alt.Chart(frame)
        .transform_filter(alt.datum.this_machine)
        .mark_rule(color="#333", strokeWidth=1.5)
        .encode(y=alt.Y("label:N", sort=sort), x=alt.X("lo:Q"), x2=alt.X2("hi:Q"))
    )
    chart.layer = [*chart.layer, rule]  # the layers share the data charts.versus gave the whole chart
    return chart


def spread_sentence(
    metrics: pl.DataFrame, by: list[str], target: float | None = None, metric: str = "writes_per_s"
) -> str:
    """How many cases kept an interval of the median of `metric` with half its width more than
    `target` of the median (the profile's; the tables mark them unstable), naming the widest; with no target (a
    fixed-count profile), how many cases' slowest and fastest repetitions were more than
    ``stats.WIDE_SPREAD`` apart."""
    summary = stats.summarize(metrics, by)
    cases = summary.filter((pl.col("metric") == metric) & pl.col("median").is_not_null())
    if cases.height == 0:
        return ""
    if target is None:
        wide = stats.wide_spreads(summary, metric, by).sort("spread", descending=True)
        if wide.height == 0:
            return (
                f"Every case's slowest and fastest repetitions were within {fmt.ratio(stats.WIDE_SPREAD)} of "
                "each other."
            )
        worst = named(wide).row(0, named=True)
        name = ", ".join(str(worst[k]) for k in by)
        return (
            f"{wide.height} of {cases.height} cases varied by more than {fmt.ratio(stats.WIDE_SPREAD)} between "
            f"repetitions (worst: {name}, {fmt.ratio(worst['spread'])}), so read their medians as rough."
        )
    widths = [(row, stats.Estimate.from_row(row).half_width) for row in named(cases).iter_rows(named=True)]
    wide = [(row, w) for row, w in widths if w > target]
    runs = cases["repetitions"]
    counted = (
        f"{fmt.count(int(runs.min()), 'run')} each"
        if runs.min() == runs.max()
        else f"{fmt.exact(int(runs.min()))} to {fmt.exact(int(runs.max()))} runs each"
    )
    rate = "writes per second" if metric == "writes_per_s" else metric
    if not wide:
        return (
            f"After {counted}, every case's interval of the median {rate} had half its width within "
            f"{fmt.num(100 * target)} % of the median."
        )
    row, width = max(wide, key=lambda p: p[1])
    name = ", ".join(str(row[k]) for k in by)
    few = " (with fewer than six runs an interval is the slowest to the fastest run)" if int(runs.min()) < 6 else ""
    many = f"all {cases.height}" if len(wide) == cases.height else f"{len(wide)} of {cases.height}"
    # the widest case's mark as the table prints it ('±35 %', or each side of a lopsided interval)
    mark = stats.stability(stats.Estimate.from_row(row), target).removeprefix("unstable: ")
    # a lopsided interval can reach further on one side than the widest reaches on either
    far, reach = max(((r, _reach(r)) for r, _ in wide), key=lambda p: p[1])
    further = ""
    if far is not row and reach > _reach(row):
        far_name = ", ".join(str(far[k]) for k in by)
        e = stats.Estimate.from_row(far)
        sign = "−" if e.median - e.lo >= e.hi - e.median else "+"
        further = f" ({far_name} reaches further on one side: {sign}{fmt.num(100 * reach, 2)} %)"
    return (
        f"After {counted}, {many} cases kept an interval of the median {rate} with half its width more than "
        f"{fmt.num(100 * target)} % of the median{few}; the widest from end to end, {name}, {mark}{further}. "
        "The table marks them unstable: read those medians as rough."
    )


def _reach(row: dict) -> float:
    """How far the interval of a ``summarize`` row's median reaches on its longer side, as a
    share of the median: 0.26 for −26 %/+11 %."""
    e = stats.Estimate.from_row(row)
    return max(e.median - e.lo, e.hi - e.median) / abs(e.median) if e.median else 0.0


def headline_sentence(metrics: pl.DataFrame, target: float | None = None) -> str:
    """The latency run's headline, appending to a new file: write + fsync's p50, p99, mean
    and durable writes per second, then the same loop without the sync; each rate with the
    interval of its median (and its unstable mark)."""
    found = method_estimates(metrics, "append")
    ours, bare = found.get("fsync", {}), found.get("none", {})
    if not {"p50", "p99", "mean", "writes_per_s"} <= set(ours):
        return "In the latency run, appending to a new file, write + fsync could not be measured here."
    rate = ours["writes_per_s"]
    text = (
        f"In the latency run, appending to a new file, a 4 KiB write + fsync took {_us(ours['p50'])} at the "
        f"median and {_us(ours['p99'])} at the 99th percentile. Counting every write, slow ones included, the "
        f"mean took {_us(ours['mean'])}, and one thread made {fmt.num(rate.median)} writes durable per second "
        f"({_spread(rate, target, runs=True)})."
    )
    if {"p50", "writes_per_s"} <= set(bare):
        text += (
            f" Without the sync the same loop ran {fmt.num(bare['writes_per_s'].median)} writes per second "
            f"({_spread(bare['writes_per_s'], target)}), the median write taking {_us(bare['p50'])}."
        )
    else:
        text += " The same loop without the sync could not be measured here."
    return text


def _spread(e: stats.Estimate, target: float | None, *, runs: bool = False) -> str:
    """'374–555' or '18,600–317,000; unstable: ±84 %': the interval of a median in a
    parenthesis of the prose, with its unstable mark ('374–555 over 3 runs' with `runs`)."""
    mark = stats.stability(e, target)
    count = f" over {fmt.count(e.runs, 'run')}" if runs else ""
    return f"{fmt.span(e.lo, e.hi)}{count}" + (f"; {mark}" if mark else "")


#: The fio table's column of the median per-round ratio, named so that no reader takes it
#: for the ratio of the two medians beside it (rounds pair differently from medians).
FIO_RATIO = "howfast / fio, per round"


#: The fio table's column of the mean time per write, ours over fio's, per round.
FIO_TIME = "mean time, howfast / fio"


def fio_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Ours beside fio per method: each tool's durable writes per second (the median over
    its runs with the interval of that median, marked unstable past ±`target`), the median
    of the per-round ratios ours / fio with its interval and the verdict it supports
    (``claims.crosscheck``), the mean time per write ours / fio the same way, and the
    rounds behind them (each round is one run of each tool). The ratios are the very
    estimates ``fio_sentence`` quotes, so the table and the text give one value each. A
    method fio could not run reads n/a, with the reason in ``note``."""
    schema = {
        "method": pl.String,
        "howfast writes/s": pl.String,
        "fio writes/s": pl.String,
        FIO_RATIO: pl.String,
        "verdict": pl.String,
        FIO_TIME: pl.String,
        "rounds": pl.Int64,
        "note": pl.String,
    }
    if metrics.height == 0 or not {"method", "tool", "metric"} <= set(metrics.columns):
        return pl.DataFrame(schema=schema)
    summary = stats.summarize(metrics, ["method", "tool"])
    rates = _ratio_estimates(metrics, "writes_per_s")
    speed = _ratio_estimates(metrics, "mean", invert=True)  # fio / ours per round: turned round below
    notes = (
        metrics.filter(pl.col("metric") == "unsupported")
        .group_by("method", maintain_order=True)
        .agg(pl.col("note").first())
        if "note" in metrics.columns
        else pl.DataFrame(schema={"method": pl.String, "note": pl.String})
    )
    why = dict(zip(notes["method"].to_list(), notes["note"].to_list()))

    def side(method: str, tool: str) -> str:
        return tables.figure_of(
            summary, "writes_per_s", target=target, show=fmt.num, runs=False, method=method, tool=tool
        )

    rows = []
    for method in metrics["method"].unique(maintain_order=True).to_list():
        r, t = rates.get(method), speed.get(method)
        time = None if t is None else stats.Estimate(1 / t.median, 1 / t.hi, 1 / t.lo, t.runs, t.confidence)
        rows.append(
            {
                "method": method,
                "howfast writes/s": side(method, "howfast"),
                "fio writes/s": side(method, "fio"),
                FIO_RATIO: _ratio_cell(r),
                "verdict": None if r is None else claims.crosscheck(r).outcome,
                FIO_TIME: _ratio_cell(time),
                "rounds": None if r is None else r.runs,
                "note": why.get(method),
            }
        )
    table = pl.DataFrame(rows, schema=schema)
    if table["note"].null_count() == table.height:
        table = table.drop("note")
    return named(table)


#: ``fio_table`` in two tables narrow enough for the column: each tool's figures with the
#: rounds behind them, then the per-round ratios and the verdict.
FIO_FIGURES = ["howfast writes/s", "fio writes/s", "rounds"]
FIO_RATIOS = [FIO_RATIO, "verdict", FIO_TIME]


def split_table(
    table: pl.DataFrame, key: str, first: list[str], second: list[str]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A wide cross-check table as two: `key` and the `first` columns, then `key`, the
    `second` columns and ``note`` where the table has one (columns it lacks are left out)."""
    one = [key, *(c for c in first if c in table.columns)]
    two = [key, *(c for c in second if c in table.columns), *(["note"] if "note" in table.columns else [])]
    return table.select(one), table.select(two)


def _ratio_cell(r: stats.Estimate | None) -> str:
    """'1.1× (0.99–1.5×)': a median per-round ratio (``median_factor``) with its interval
    (``claims.ratio_interval``, so an end near 1 keeps its side); n/a when the rounds did not run."""
    ends = claims.ratio_interval(r, median=False)
    if r is None or "–" not in ends:  # not measured, or the two ends read alike: one figure
        return ends
    return f"{median_factor(r.median)}× ({ends})"


def median_factor(x: float | None) -> str:
    """A median ratio as the fio table and sentence give it: ``fmt.factor``, except that one
    within rounding of 1 at two significant digits reads 'about 1' ('about 1' for 0.9997, not
    '0.9997'): no verdict reads the median (verdicts read the interval's ends, which keep
    their side of each line), and such a median lies well inside ``claims.AGREES``; n/a
    when not measured."""
    if x is None:
        return fmt.NA
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"x must be a number (a ratio), got {type(x).__name__}")
    shown = fmt.factor(x)
    return "about 1" if shown != "1" and fmt.num(x, 2) == "1" else shown


# --- What the chapter says: every qualitative word from claims, over the intervals ---


def estimate(metrics: pl.DataFrame, by: list[str], metric: str, **where: object) -> stats.Estimate | None:
    """The median of `metric` for the case `where` with its interval; None when that case
    did not run here (or is not in `metrics` at all)."""
    if metrics.height == 0 or "metric" not in metrics.columns:
        return None
    return stats.estimate_or_none(stats.summarize(metrics, by), metric, **where)


def _us(e: stats.Estimate | None) -> str:
    return fmt.duration_us(None if e is None else e.median)


def _us_in(e: stats.Estimate | None) -> str:
    """'994 µs (800 µs–1.1 ms)': a median time with the interval of that median; n/a when
    not measured."""
    return _figure(e, None, fmt.duration_us)


def sync_cost_sentence(
    fsync_p50: stats.Estimate | None,
    none_p50: stats.Estimate | None,
    fsync_rate: stats.Estimate | None = None,
    none_rate: stats.Estimate | None = None,
) -> str:
    """How a write with fsync compares with one without (p50 latency per write, µs), then,
    where both rates are given, how many writes per second the loop made without the sync
    against with it: the rate counts every write, slow ones included, and is what the
    chapter's second guess asks about."""
    c = claims.compare(fsync_p50, none_p50)
    if c.direction == claims.MISSING:
        text = "How a write with the sync compares with one without could not be measured here."
    else:
        said = claims.versus(c, "one without", more="slower", less="faster", same="about as fast as")
        if c.direction in (claims.HIGHER, claims.LOWER):
            said += f" at the median ({_within(c)})"
        text = f"A write with the sync was {said}."
    rate = claims.compare(none_rate, fsync_rate)
    if rate.direction == claims.MISSING:
        return text
    if rate.direction in (claims.HIGHER, claims.LOWER):
        made = (
            f"it made {fmt.factor(rate.ratio)}× as many writes per second as the loop with it "
            f"({claims.ratio_interval(rate, median=False)} within the two intervals)"
        )
    else:
        made = "its rate was " + claims.versus(
            rate, "the loop's with it", more="higher", less="lower", same="about the same as"
        )
    return (
        f"{text} The loop's rate, which counts every write, slow ones included, answers the second guess: "
        f"without the sync {made}."
    )


def turns_words(a: stats.Estimate | None, b: stats.Estimate | None, what: str = "cases") -> str:
    """When two cases ran: with as many runs each, 'the two methods' runs took turns on a
    disk whose speed drifts' (one run of each per round); otherwise the rounds added for
    unclear cases ran only one of them, so the two did not share every moment."""
    if a is not None and b is not None and a.runs == b.runs:
        return f"the two {what}' runs took turns on a disk whose speed drifts"
    runs = " against ".join(fmt.count(e.runs, "run") for e in (a, b) if e is not None)
    return (
        f"the two {what} did not run equally often ({runs}): the rounds added for unclear cases ran only some "
        "cases, so the two did not share every moment on a disk whose speed drifts"
    )


def fdatasync_sentence(
    append_fsync: stats.Estimate | None,
    append_fdatasync: stats.Estimate | None,
    rewrite_fsync: stats.Estimate | None,
    rewrite_fdatasync: stats.Estimate | None,
) -> str:
    """fdatasync against fsync (p50 per 4 KiB write) for a growing file and for rewrites:
    the word from ``claims.compare`` on the intervals, the reason from what each call must
    commit in that layout."""
    parts = []
    grow = claims.compare(append_fdatasync, append_fsync)
    if grow.direction == claims.MISSING:
        parts.append("Appending, fdatasync and fsync could not both be measured here.")
    else:
        said = (
            f"Appending to a new file, write + fdatasync took {_us_in(append_fdatasync)} at the median and "
            f"write + fsync {_us_in(append_fsync)}: fdatasync was "
            f"{claims.versus(grow, 'fsync', more='slower', less='faster', same='about as fast as')}."
        )
        why = (
            " A growing file may leave fdatasync nothing to skip: every write changes the file's size and may "
            "allocate a block, and both calls may have to commit that metadata (on ext4, a journal commit) "
            "before they return."
        )
        if grow.direction == claims.HIGHER:
            why += (
                f" So the gap is not work fdatasync adds; {turns_words(append_fdatasync, append_fsync, 'methods')}, "
                "and this page does not measure what moved it."
            )
        elif grow.direction == claims.LOWER:
            why += " That it was faster anyway is more than the work explains; this page does not measure why."
        parts.append(said + why)
    rewrite = claims.compare(rewrite_fdatasync, rewrite_fsync)
    if rewrite.direction == claims.MISSING:
        parts.append("Rewriting, the two could not both be measured here.")
    else:
        said = (
            f"Rewriting blocks that already exist, fdatasync took {_us_in(rewrite_fdatasync)} and fsync "
            f"{_us_in(rewrite_fsync)}: fdatasync was "
            f"{claims.versus(rewrite, 'fsync', more='slower', less='faster', same='about as fast as')}."
        )
        if rewrite.direction == claims.LOWER:
            said += " Here it has something to skip: the timestamps a rewrite changes, which fsync must commit."
        elif rewrite.direction == claims.HIGHER:
            said += (
                " fdatasync does no more work than fsync here, so the calls do not explain this gap; "
                f"{turns_words(rewrite_fdatasync, rewrite_fsync, 'methods')}, and this page does not measure what "
                "moved it."
            )
        else:
            said += (
                " It may skip the timestamps a rewrite changes, but on this machine that saving does not show "
                "beyond the intervals of the two medians."
            )
        parts.append(said)
    return " ".join(parts)


def _runs_range(points: list[tuple[float, stats.Estimate]]) -> str:
    """'8 runs', or '5 to 8 runs' where the points rest on different numbers of runs."""
    counts = [e.runs for _, e in points]
    low, high = min(counts), max(counts)
    return fmt.count(low, "run") if low == high else f"{fmt.exact(low)} to {fmt.count(high, 'run')}"


def batch_sentence(group: pl.DataFrame) -> str:
    """What batching did to durable records per second, the shape of the curve from
    ``claims.curve`` over the batch sizes' intervals."""
    summary = stats.summarize(group, ["records_per_sync"]) if group.height else group
    points = []
    if group.height:
        for n in sorted(summary["records_per_sync"].unique().to_list()):
            e = stats.estimate(summary, "records_per_s", records_per_sync=n)
            if e is not None:
                points.append((n, e))
    if len(points) < 2:
        return "Group commit could not be measured across batch sizes here."
    (n1, one), (nbig, big) = points[0], points[-1]
    wait = stats.estimate(summary, "p50", records_per_sync=nbig)
    more = claims.versus(claims.compare(big, one), "with one", more="more", less="fewer", same="about as many as")
    shape = claims.curve(points)
    text = (
        f"With {fmt.count(n1, 'record')} per fsync, {fmt.num(one.median)} records per second became durable "
        f"({fmt.span(one.lo, one.hi)}); with {fmt.exact(int(nbig))} per fsync, {fmt.num(big.median)} "
        f"({fmt.span(big.lo, big.hi)}), {more}, while each batch took {_us_in(wait)} to become durable."
    )
    if shape.kind == "knee":
        at = stats.estimate(summary, "records_per_s", records_per_sync=shape.x)
        text += (
            f" The rate stops rising by more than a tenth from {fmt.count(int(shape.x), 'record')} per fsync: no "
            "bigger batch's interval starts more than a tenth above the top of that one's"
        )
        # the best median past the knee, not the last: a curve that dips at the end still rose to its best
        past = [(n, e) for n, e in points if n > shape.x]
        best_n, best = max(past, key=lambda p: p[1].median, default=(None, None))
        # a bigger batch whose interval lies wholly above the knee's: the rate still rose, if by less than a tenth
        clear = [(n, e) for n, e in past if claims.compare(e, at).direction == claims.HIGHER]
        maybe = f"; with {_runs_range(points)} per batch size the curve may level off there or keep rising"
        if at is not None and clear:
            clear_n, top = max(clear, key=lambda p: p[1].median)
            text += (
                f", though it still rose: at {fmt.exact(int(clear_n))} per fsync, {fmt.num(top.median)} "
                f"({fmt.span(top.lo, top.hi)}), an interval wholly above that of {fmt.exact(int(shape.x))} "
                f"({fmt.num(at.median)}, {fmt.span(at.lo, at.hi)}) but starting less than a tenth above its top{maybe}"
            )
        elif at is not None and best is not None and best.median > at.median * (1 + claims.FLAT_GAIN):
            text += (
                f", though the medians still rose from {fmt.num(at.median)} to {fmt.num(best.median)}"
                f"{'' if best_n == nbig else f' (at {fmt.exact(int(best_n))} per fsync)'}{maybe}"
            )
        text += "."
        first_wait = stats.estimate(summary, "p50", records_per_sync=n1)
        knee_wait = stats.estimate(summary, "p50", records_per_sync=shape.x)
        longer = claims.compare(knee_wait, first_wait)
        if longer.direction == claims.HIGHER and longer.lo >= 2:
            text += (
                f" A batch of {fmt.exact(int(shape.x))} took {_us_in(knee_wait)} against {_us_in(first_wait)} for one "
                "record: from there on the writes, not the flush, may fill most of each batch's time, whether "
                "through the bytes or through a cost paid per write call; this run does not measure which."
            )
    elif shape.kind == "rising":
        text += (
            " The rate was still rising at the largest batch measured: the flushes, not the bytes, may still set "
            "the pace."
        )
    elif shape.kind == "collapse":
        text += (
            f" Past {fmt.count(int(shape.peak_x), 'record')} per fsync the rate fell clearly "
            f"(at {fmt.exact(int(shape.x))} it was below half the best): bigger batches cost more than they saved here."
        )
    elif claims.compare(big, one).direction in (claims.LOWER, claims.SAME_WORD):
        text += (
            " No batch size was clearly faster than one record per fsync: on this disk the flush may not be what "
            "costs, though this run cannot say what does."
        )
    else:
        text += (
            " No batch size was clearly faster than one record per fsync, but the intervals overlap too widely to "
            "say whether the flush is what costs on this disk."
        )
    return text


def no_sync_sentence(sweep: pl.DataFrame) -> str:
    """Where in the block-size sweep 'write, no sync' was not clearly faster (MB/s) than a
    line that syncs, block size by block size (``claims.compare``), with the p50 per write of
    the same runs beside it. MB/s counts every write of a run (a mean), so where the median
    write without a sync was still clearly faster, a tail of stalled writes is the possible
    cause the sentence names; otherwise writeback of dirty pages. Empty where it was clearly
    faster at every size (or the sweep has no such pair)."""
    if sweep.height == 0 or not {"block_size", "method", "metric"} <= set(sweep.columns):
        return ""
    summary = stats.summarize(sweep, ["method", "block_size"])
    synced = [m for m in METHOD_NAMES if m not in ("none", "direct") and m in summary["method"].to_list()]
    clauses, medians = [], []
    for size in sorted(summary["block_size"].unique().to_list()):
        none = stats.estimate_or_none(summary, "mb_per_s", method="none", block_size=size)
        if none is None:
            continue
        none_p50 = stats.estimate_or_none(summary, "p50", method="none", block_size=size)
        beside, timed, here = [], [], []
        for m in synced:
            e = stats.estimate_or_none(summary, "mb_per_s", method=m, block_size=size)
            c = claims.compare(none, e)
            if c.direction in (claims.HIGHER, claims.MISSING):
                continue
            how = {claims.LOWER: "less than", claims.SAME_WORD: "about the same as"}.get(
                c.direction, "not clearly different from"
            )
            beside.append(f"{how} {METHOD_NAMES[m]}'s {fmt.num(e.median)} ({fmt.span(e.lo, e.hi)})")
            p50 = stats.estimate_or_none(summary, "p50", method=m, block_size=size)
            t = claims.compare(none_p50, p50)
            here.append(t.direction)
            if t.direction != claims.MISSING:
                # the other's interval only beside a clear ratio: an unclear one brings its own parenthesis
                other = _us_in(p50) if t.direction in (claims.HIGHER, claims.LOWER) else _us(p50)
                timed.append(claims.versus(t, f"{METHOD_NAMES[m]}'s {other}", **claims.TIME_WORDS))  # type: ignore[arg-type]
        medians += here
        if beside:
            clause = (
                f"at {fmt.size(size)} it made {fmt.num(none.median)} MB/s ({fmt.span(none.lo, none.hi)}), "
                f"{fmt.listed(beside)}"
            )
            if timed:
                but = "yet" if all(d == claims.LOWER for d in here) else "and"
                clause += f", {but} its median write took {_us_in(none_p50)}, {fmt.listed(timed)}"
            clauses.append(clause)
    if not clauses:
        return ""
    text = (
        f"Writing without a sync did not always make clearly more MB/s than writing with one: {'; '.join(clauses)}. "
        "MB/s counts every write of a run (the bytes over the run's whole time, so it follows the mean time per "
        "write), while the p50 is the median write of the same runs."
    )
    if medians and all(d == claims.LOWER for d in medians):
        return text + (
            " With the median write clearly faster and the rate not, a tail of slow writes may hold the mean "
            "down: writes stalled while the kernel throttles a writer that has dirtied too many pages, say, or "
            "writeback of the dirty pages that earlier runs without a sync left behind; this page does not measure "
            "which."
        )
    return text + (
        " This page cannot say why; writeback of the dirty pages that earlier runs without a sync left in the page "
        "cache may have slowed those runs."
    )


def block_sentence(sweep: pl.DataFrame, method: str = "fsync") -> str:
    """The block-size sweep for `method`: bytes made durable per second at the smallest and
    the largest block, and whether the time per write grew much less than the bytes (the
    flush's fixed cost dominates small writes) or with them, from ``claims.compare``; then
    ``no_sync_sentence`` where the line without a sync was not clearly above the others."""
    text = _block_sentence(sweep, method)
    extra = no_sync_sentence(sweep)
    return f"{text} {extra}" if extra else text


def _block_sentence(sweep: pl.DataFrame, method: str) -> str:
    if sweep.height == 0 or "block_size" not in sweep.columns:
        return "The block-size sweep could not run here."
    summary = stats.summarize(sweep.filter(pl.col("method") == method), ["block_size"])
    sizes = sorted(summary["block_size"].unique().to_list()) if summary.height else []
    if len(sizes) < 2:
        return "The block-size sweep did not measure two block sizes here."
    small, large = sizes[0], sizes[-1]
    mb = {b: stats.estimate(summary, "mb_per_s", block_size=b) for b in (small, large)}
    p50 = {b: stats.estimate(summary, "p50", block_size=b) for b in (small, large)}
    if None in (*mb.values(), *p50.values()):
        return "The block-size sweep could not measure both ends here."
    name = f"{method} after each write" if method in ("fsync", "fdatasync") else METHOD_NAMES.get(method, method)
    text = (
        f"In the block-size sweep (appending, {name}), {fmt.size(small)} blocks made "
        f"{fmt.num(mb[small].median)} MB/s ({fmt.span(mb[small].lo, mb[small].hi)}) durable and "
        f"{fmt.size(large)} blocks {fmt.num(mb[large].median)} MB/s ({fmt.span(mb[large].lo, mb[large].hi)})."
    )
    more = claims.compare(mb[large], mb[small])
    longer = claims.compare(p50[large], p50[small])
    factor = large / small
    if more.direction == claims.LOWER:
        return text + (
            f" The bigger blocks made fewer bytes durable per second ({fmt.factor(more.ratio)}× by the medians, "
            "with intervals apart): here the time per write grew faster than the bytes, no fixed cost per flush "
            "showed."
        )
    if more.direction == claims.SAME_WORD:
        return text + (
            f" The bigger blocks did not clearly make more bytes durable per second (about the same, "
            f"{fmt.factor(more.ratio)}× by the medians): the time per write grew about as fast as the bytes. Under a "
            "model of one fixed cost per flush plus a cost per byte, the bytes, not the fixed cost, may cost most at "
            "these sizes."
        )
    if more.direction != claims.HIGHER:
        return text + (
            f" The bigger blocks did not clearly make more bytes durable per second ({fmt.factor(more.ratio)}× by "
            "the medians, but the intervals overlap): these intervals cannot say whether a fixed cost per flush or "
            "the bytes dominate."
        )
    text += (
        f" One {fmt.size(large)} durable write took {_us_in(p50[large])} at the median against "
        f"{_us_in(p50[small])} for {fmt.size(small)}: {fmt.exact(round(factor))}× the bytes for "
        f"{fmt.ratio(longer.ratio)} the time (at most {fmt.ratio(longer.hi)} within the intervals)."
    )
    share = fixed_share(longer, factor)
    if share is None:
        return text
    if longer.hi < 1 or longer.lo > factor:
        return text + (
            f" That time ratio lies wholly outside 1–{fmt.exact(round(factor))}×, so a model of one fixed cost per "
            "flush plus a cost per byte does not fit these runs."
        )
    lo, hi = share
    model = (
        "Under a model of one fixed cost per flush plus a cost per byte (a model this run does not test), "
        "the fixed part"
    )
    of = f"of a {fmt.size(small)} write's time"
    spread = _percent_range(lo, hi)
    if lo > 0.5:
        within = "" if spread == fmt.share(lo, 2) else f" ({spread} within the intervals)"
        return text + (
            f" {model} would be at least {fmt.share(lo, 2)} {of}{within}: bigger writes may spread a fixed cost per "
            "flush over more bytes."
        )
    if hi < 0.5:
        within = "" if spread == fmt.share(hi, 2) else f" ({spread} within the intervals)"
        return text + (
            f" {model} would be at most {fmt.share(hi, 2)} {of}{within}: at these sizes the bytes, not the flush, "
            "may cost most."
        )
    return text + (
        f" {model} could be {spread} {of} (the time grew by "
        f"{claims.ratio_interval(longer, median=False)} against {fmt.exact(round(factor))}× the bytes): whether the "
        "flush's fixed cost or the bytes dominate, these intervals do not say."
    )


def fixed_share(longer: claims.Comparison, factor: float) -> tuple[float, float] | None:
    """The share of the smaller write's time a fixed cost per write would take, under a model
    of a fixed cost plus a cost per byte, from `longer` (the larger write's time against the
    smaller's, with the range it can take within the intervals) and `factor` (how many times
    the bytes). With t = F + c·b, a time ratio r for k times the bytes gives F/t_small =
    (k − r)/(k − 1); the range comes from the ends of r, clipped to 0–1 (a ratio above k or
    below 1 does not fit the model at all). None when the ratio was not measured."""
    if not isinstance(longer, claims.Comparison):
        raise TypeError(f"longer must be a claims.Comparison, got {type(longer).__name__}")
    if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not factor > 1:
        raise ValueError(f"factor is how many times the bytes, above 1, got {factor!r}")
    if longer.lo is None or longer.hi is None:
        return None

    def clip(x: float) -> float:
        return min(max(x, 0.0), 1.0)

    return clip((factor - longer.hi) / (factor - 1)), clip((factor - longer.lo) / (factor - 1))


def _percent_range(lo: float, hi: float) -> str:
    """'99 %' or '23–34 %': a range of shares, two significant digits, the unit once."""
    low, high = fmt.share(lo, 2), fmt.share(hi, 2)
    return low if low == high else f"{low.removesuffix(' %')}–{high}"


#: What one run of the chapter's '4 KiB write + fsync' did, by experiment.
FOUR_KIB_RUNS = {
    "latency": "latency run: appends to a new file",
    "overwrite": "latency run: rewrites a written, synced file",
    "block_sizes": "block-size sweep: appends to a new file",
    "group_commit": "group commit, 1 record per fsync: appends",
    "vs_fio": "fio cross-check, ours: rewrites a laid-out file",
}


#: The same runs as a sentence names them.
FOUR_KIB_PROSE = {
    "latency": "the latency run's appends",
    "overwrite": "the latency run's rewrites",
    "block_sizes": "the block-size sweep's 4 KiB appends",
    "group_commit": "group commit's appends at 1 record per fsync",
    "vs_fio": "our side of the fio cross-check",
}

#: What each of those runs does to the file: grows it, or rewrites written blocks.
FOUR_KIB_LAYOUTS = {
    "latency": "append",
    "overwrite": "overwrite",
    "block_sizes": "append",
    "group_commit": "append",
    "vs_fio": "overwrite",
}


def four_kib_runs(latency: pl.DataFrame, sweep: pl.DataFrame, group: pl.DataFrame, fio: pl.DataFrame) -> pl.DataFrame:
    """Every run of this chapter that made 4 KiB writes durable one fsync at a time: what
    it did to the file, writes per repetition, repetitions, and durable writes per second
    (median, with the interval of the median)."""
    rows = []

    def add(key: str, frame: pl.DataFrame, metric: str, writes_column: str, **where: object) -> None:
        if frame.height == 0:
            return
        part = frame
        for k, v in where.items():
            if k not in part.columns:
                return
            part = part.filter(pl.col(k) == v)
        part = part.filter(pl.col("metric") == metric)
        if part.height == 0:
            return
        values = part["value"].drop_nulls().to_list()
        if not values:
            return
        lo, hi, _ = stats.median_interval(values)
        writes = part[writes_column][0] if writes_column in part.columns else None
        rows.append(
            {
                "run": FOUR_KIB_RUNS[key],
                "writes per repetition": None if writes is None else int(writes),
                "repetitions": len(values),
                "writes/s": float(pl.Series(values).median()),
                "interval": fmt.span(lo, hi),
                "layout": FOUR_KIB_LAYOUTS[key],
                "prose": FOUR_KIB_PROSE[key],
                "lo": lo,
                "hi": hi,
            }
        )

    add("latency", latency, "writes_per_s", "writes", method="fsync", layout="append")
    add("overwrite", latency, "writes_per_s", "writes", method="fsync", layout="overwrite")
    add("block_sizes", sweep, "writes_per_s", "writes", method="fsync", block_size=4096)
    if group.height and "syncs" in group.columns:
        group = group.with_columns(pl.col("syncs").alias("records"))
    add("group_commit", group, "records_per_s", "records", records_per_sync=1)
    add("vs_fio", fio, "writes_per_s", "writes", method="fsync", tool="howfast")
    schema = {
        "run": pl.String,
        "writes per repetition": pl.Int64,
        "repetitions": pl.Int64,
        "writes/s": pl.Float64,
        "interval": pl.String,
        "layout": pl.String,
        "prose": pl.String,
        "lo": pl.Float64,
        "hi": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)


#: The columns of ``four_kib_table``, what a reader sees of ``four_kib_runs``.
FOUR_KIB_SHOWN = ["measured in", "writes per run", "writes/s", "interval", "runs", "note"]


def four_kib_table(runs: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """``four_kib_runs`` as the chapter shows it: per measurement, the writes each run
    makes, the median durable writes per second (a number) with the interval of that
    median and the run count beside it, and ``note``: 'unstable: ±35 %' where the
    interval stayed wider than ±`target`."""
    marks = [
        stats.stability(stats.Estimate(r["writes/s"], r["lo"], r["hi"], r["repetitions"]), target)
        for r in runs.iter_rows(named=True)
    ]
    return runs.select(
        pl.col("run").alias("measured in"),
        pl.col("writes per repetition").alias("writes per run"),
        "writes/s",
        "interval",
        pl.col("repetitions").alias("runs"),
        pl.Series("note", marks, dtype=pl.String),
    )


def _prose(row: dict) -> str:
    return row.get("prose") or row["run"]


def other_appends(runs: pl.DataFrame) -> list[tuple[str, stats.Estimate | None]]:
    """Every measurement in ``four_kib_runs`` that appends 4 KiB writes with an fsync each,
    other than the latency run itself, as (words, durable writes per second): what
    ``layout_rule`` sets beside the latency run's rewrites."""
    if runs.height == 0:
        return []
    return [
        (r["prose"], stats.Estimate(r["writes/s"], r["lo"], r["hi"], int(r["repetitions"])))
        for r in runs.iter_rows(named=True)
        if r.get("layout") == "append" and r["run"] != FOUR_KIB_RUNS["latency"]
    ]


#: What an append does to a file that a rewrite may not, as the chapter words it.
LAYOUT_WHY = (
    "an append changes the file's size and allocates blocks on every write, metadata each sync must commit, while a "
    "rewrite of written, synced blocks allocates nothing and may change no metadata at all when the write falls "
    "within the same tick of the filesystem's clock."
)


def _layout_words(sides: set[str]) -> str:
    """The end of ``four_kib_sentence``'s clause on the layout, once every append's interval
    lies on one side of every rewrite's (`sides`, the one direction of append against
    rewrite): below, the work an append adds may be why; above, the opposite of what that
    work predicts, which the page does not explain."""
    if sides == {claims.LOWER}:
        return (
            "below every rewrite's, so the layout separates the two groups. What each write does to the file may be "
            f"why: {LAYOUT_WHY}"
        )
    if sides == {claims.HIGHER}:
        return (
            "above every rewrite's: appends were the faster group, the opposite of what the work each write does "
            "predicts; this page does not explain it."
        )
    raise ValueError(f"sides must be one direction, higher or lower, got {sides!r}")


def four_kib_sentence(table: pl.DataFrame) -> str:
    """Why the chapter's runs of the same 4 KiB write + fsync give different rates: the
    range, then whether runs that do the same thing to the file (``layout``) differ clearly
    (``claims.compare`` on their intervals), which the layout cannot explain."""
    if table.height < 2:
        return ""
    ordered = table.sort("writes/s")
    lo, hi = ordered.row(0, named=True), ordered.row(-1, named=True)
    runs = fmt.count(table.height, "measurement")
    if lo["writes/s"] == hi["writes/s"]:
        return f"The chapter makes 4 KiB writes durable one fsync at a time in {runs}, at the same median rate."
    text = (
        f"The chapter makes 4 KiB writes durable one fsync at a time in {runs}, and their median rates range "
        f"from {fmt.num(lo['writes/s'])} ({_prose(lo)}) to {fmt.num(hi['writes/s'])} ({_prose(hi)}) durable "
        "writes per second."
    )
    rows = table.to_dicts()

    def est(row: dict) -> stats.Estimate:
        return stats.Estimate(row["writes/s"], row["lo"], row["hi"], row["repetitions"], 0.0)

    pairs = [
        (b, a, claims.compare(est(b), est(a)))
        for a in rows
        for b in rows
        if a is not b and a.get("layout") is not None and a.get("layout") == b.get("layout")
    ]
    apart = [p for p in pairs if p[2].direction == claims.HIGHER]
    appends = [r for r in rows if r.get("layout") == "append"]
    rewrites = [r for r in rows if r.get("layout") == "overwrite"]
    sides = {claims.compare(est(a), est(w)).direction for a in appends for w in rewrites}
    if apart:
        fast, slow, c = max(apart, key=lambda p: p[2].ratio)
        sizes = ""
        if fast["writes per repetition"] != slow["writes per repetition"]:
            sizes = (
                f" ({fmt.exact(slow['writes per repetition'])} against {fmt.exact(fast['writes per repetition'])} "
                "writes per run)"
            )
        text += (
            f" Measurements that do the same thing to the file differ too: {_prose(slow)} made "
            f"{fmt.num(slow['writes/s'])} per second ({fmt.span(slow['lo'], slow['hi'])}) and {_prose(fast)} "
            f"{fmt.num(fast['writes/s'])} ({fmt.span(fast['lo'], fast['hi'])}), {fmt.ratio(c.ratio)} as many, "
            f"with intervals that do not overlap. The two differ in how many writes a run makes{sizes} and in "
            "when each ran, on a disk whose speed drifts; this page does not measure which of those moved the rate."
        )
    elif pairs:
        agree = all(p[2].direction == claims.SAME_WORD for p in pairs)
        text += (
            " Measurements that do the same thing to the file agree within their intervals"
            if agree
            else " Measurements that do the same thing to the file do not clearly differ (their intervals overlap)"
        )
        if sides in ({claims.HIGHER}, {claims.LOWER}):
            text += f"; and every append's interval lies {_layout_words(sides)}"
        else:
            text += (
                ", nor does the layout separate them here: not every append's interval lies on one side of every "
                "rewrite's."
            )
    else:
        text += (
            " They differ in what each write does to the file, in how many writes a run makes, and in when they ran."
        )
        if sides in ({claims.HIGHER}, {claims.LOWER}):
            text += f" Every append's interval lies {_layout_words(sides)}"
        else:
            text += " This page does not measure which of those moved the rate."
    return text + (
        " Each figure in the text says which measurement it comes from; the headline is the latency run's growing file."
    )


def reference_sentence(
    ours: stats.Estimate | None,
    laptop_us: float,
    facts: dict,
    mean: stats.Estimate | None = None,
    laptop_per_s: float | None = None,
) -> str:
    """This machine's durable append beside seed 000's laptop (about 660 µs per fsync on a
    WD SN750): the two figures side by side with the statistic each is (ours the median
    `ours`, and the mean `mean` where given; the seed's names none, and its own rate
    `laptop_per_s`, fsyncs per second, is a mean time of 1 / rate), and why they are not
    comparable as drives."""
    if ours is None:
        here = "this machine's write + fsync could not be measured"
    else:
        here = f"this machine's 4 KiB write + fsync (growing file, latency run) took {_us_in(ours)} at the median (p50)"
        if mean is not None:
            here += f" and {_us_in(mean)} on average (the mean, which the slow writes weigh in)"
    rate = (
        ""
        if laptop_per_s is None or laptop_per_s <= 0
        else (
            f"; the same sentence's {fmt.num(laptop_per_s)} fsyncs per second would be "
            f"{fmt.duration_us(1e6 / laptop_per_s)} per fsync on average"
        )
    )
    text = (
        f"The laptop of seed 000 printed about {fmt.duration_us(laptop_us)} per fsync on its NVMe drive, one "
        f"figure without a spread that does not say which statistic it is (a median, a mean or one run){rate}; "
        f"{here}. "
        "The two are not comparable as drives. The seed does not say what its program wrote (block size, "
        "growing or rewritten file) or its drive's write-cache mode; here it is "
        f"{write_cache_short(facts)}."
    )
    if "virtual" in str(facts.get("device_kind", "")):
        text += (
            " And this disk is virtual: its flush ends wherever the hypervisor decides (its own cache, a host's "
            "disk, network storage), so this machine's figure is what a program here waits for, not what a "
            "medium takes."
        )
    return text


def estimates_sentence(ref: pl.DataFrame) -> str:
    """What the reference chart's estimates are (rows of ``reference.load('fsync')`` whose
    latency ``figure_type`` is 'estimate'): rules of thumb an article cites, not measurements,
    named as the chart labels them, and not comparable with this machine's figures; empty
    when the chart shows none."""
    if ref.height == 0 or not {"metric", "figure_type", "device", "source", "value", "unit"} <= set(ref.columns):
        return ""
    rows = reference.in_us(ref.filter((pl.col("metric") == "latency") & (pl.col("figure_type") == "estimate")))
    if rows.height == 0:
        return ""
    named_rows = [
        f"'{r['device']}{'' if '(' in r['device'] else ' (estimate)'} — seed {r['source'][:3]}' "
        f"({fmt.duration_us(r['value'])})"
        for r in rows.iter_rows(named=True)
    ]
    one = rows.height == 1
    return (
        f"{'The bar' if one else 'The bars'} {fmt.listed(named_rows)} {'is an estimate' if one else 'are estimates'}, "
        "not measurements: rules of thumb the article cites for a kind of drive, with no machine, file or write "
        f"behind {'it' if one else 'them'}, so {'it is' if one else 'they are'} not comparable with this machine's "
        "figures either and give a scale only."
    )


def _ratio_estimates(
    metrics: pl.DataFrame, metric: str, invert: bool = False, key: str = "method"
) -> dict[str, stats.Estimate]:
    """Per `key` (the method), the median of the per-round ratios ours / fio of `metric`
    (fio / ours with `invert`), with its order-statistics interval."""
    rows = metrics.filter(pl.col("metric") == metric) if metrics.height else metrics
    if rows.height == 0 or not {"howfast", "fio"} <= set(rows["tool"].unique().to_list()):
        return {}
    wide = rows.pivot(on="tool", index=[key, "repetition"], values="value").drop_nulls(["howfast", "fio"])
    out = {}
    for value in wide[key].unique(maintain_order=True).to_list():
        part = wide.filter(pl.col(key) == value)
        ratios = (part["fio"] / part["howfast"] if invert else part["howfast"] / part["fio"]).to_list()
        ratios = [r for r in ratios if r and r > 0]
        if ratios:
            out[value] = ratio_estimate(ratios)
    return out


def fio_sentence(metrics: pl.DataFrame) -> str:
    """The fio cross-check's verdict per method: ``crosscheck_sentence`` over durable writes per second."""
    return crosscheck_sentence(metrics, "writes_per_s", METHOD_NAMES, per="write")


def crosscheck_sentence(
    metrics: pl.DataFrame,
    metric: str,
    names: dict,
    *,
    per: str = "I/O",
    median: Callable[[float], str] = median_factor,
) -> str:
    """A cross-check's verdict per case (column ``method``; ``names`` gives its words):
    ``claims.crosscheck`` over the per-round ratios ours / fio of `metric`, and what the
    mean time per `per` says about where a gap lies; an explanation only where both
    figures agree with it. `median` writes each median ratio as the page's table does."""
    rates = _ratio_estimates(metrics, metric)
    if not rates:
        notes = metrics["note"].drop_nulls().unique().to_list() if "note" in metrics.columns else []
        return f"The comparison with fio could not run here ({'; '.join(notes) or 'no result'})."
    speed = _ratio_estimates(metrics, "mean", invert=True)  # fio's time / ours: above 1, ours is quicker per I/O
    groups: dict[str, list[str]] = {}
    explained = set()
    leads: list[tuple[str, int]] = []  # a clear verdict whose tools' own runs overlap: (name, rounds)
    for method, r in rates.items():
        verdict = claims.crosscheck(r)
        name = names.get(method, method)
        # the median ratio and its interval, both as measured (ours / fio), as the table gives them
        quoted = f"{name} ({median(r.median)}× of fio's rate, {claims.ratio_interval(r, median=False)})"
        if verdict.outcome in ("ours higher", "ours lower"):
            text = quoted
            per_io = speed.get(method)
            if per_io is not None:
                timed = claims.crosscheck(per_io)
                if timed.outcome == verdict.outcome and _same_factor(r, per_io):
                    text += f", with a mean time per {per} {fmt.factor(1 / per_io.median)}× fio's"
                    explained.add("inside")
                elif timed.outcome == verdict.outcome:
                    text += f", with a mean time per {per} {fmt.factor(1 / per_io.median)}× fio's"
                    explained.add("partly")
                elif timed.outcome == "agrees":
                    text += (
                        f", yet with a mean time per {per} that agrees with fio's ({fmt.factor(1 / per_io.median)}×)"
                    )
                    explained.add("outside")
                else:
                    text += f", with a mean time per {per} {fmt.factor(1 / per_io.median)}× fio's"
        else:
            text = quoted
        lead = verdict.outcome in ("ours higher", "ours lower") and _tools_overlap(metrics, metric, method)
        groups.setdefault(f"{verdict.outcome}, lead" if lead else verdict.outcome, []).append(text)
        if lead:
            leads.append((name, r.runs))
    heads = {
        "agrees": "agrees with fio on",
        "ours higher": "is faster than fio on",
        "ours lower": "is slower than fio on",
        "inconclusive": "cannot be told apart from fio on this machine on",
    }
    # a clear verdict that rests on the pairing within rounds alone is said as such from its first word
    lead_heads = {"ours higher, lead": "ran faster than fio on", "ours lower, lead": "ran slower than fio on"}
    said = [f"{heads[o]} {fmt.listed(groups[o])}" for o in heads if o in groups]
    led = [f"{lead_heads[o]} {fmt.listed(groups[o])}" for o in lead_heads if o in groups]
    opening = f"Over {_rounds_words(rates)} of alternating runs, compared by the ratio of rates within each round"
    if said:
        text = f"{opening}, our loop {'. It '.join(said)}."
        text += "".join(f" By the per-round pairing only, our loop {words}." for words in led)
    else:
        text = f"{opening}: by that pairing only, our loop {'; it '.join(led)}."
    if "inside" in explained:
        text += (
            f" Where the time per {per} differs from fio's by about the same factor as the rate, that suggests the "
            "gap lies in the I/O itself, not in anything fio does before or after it; this page does not measure "
            "its cause."
        )
    if "partly" in explained:
        text += (
            f" Where the time per {per} leans the same way as the rate but by a factor outside the rate's range, "
            "part of the gap may lie in the I/O and part in what each tool counts around it."
        )
    if "outside" in explained:
        text += (
            f" Where the rates differ but the times per {per} agree, the gap may lie outside the I/O: fio's "
            "rate divides by a runtime that also holds its own set-up."
        )
    if leads:
        most = max(r.runs for r in rates.values())
        fewer = [(name, n) for name, n in leads if n < most]
        one = len(leads) == 1
        text += (
            f" The {'verdict' if one else 'verdicts'} on {fmt.listed([name for name, _ in leads])} "
            f"{'rests' if one else 'rest'} on the pairing within rounds alone: taken apart, each tool's runs "
            "overlap (the intervals of the two medians in the table above)"
        )
        if fewer:
            lead_names = {name for name, _ in leads}
            counted = []
            for name, n in fewer:
                alike = [names.get(m, m) for m, e in rates.items() if e.runs == n and names.get(m, m) not in lead_names]
                counted.append(f"{fmt.count(n, 'round')} on {name}" + (f", as on {fmt.listed(alike)}" if alike else ""))
            text += (
                f", and {'it rests' if one else 'some rest'} on fewer rounds than some rows "
                f"({'; '.join(counted)}; against up to {fmt.exact(most)})"
            )
        text += "; read it as a lead, not a finding." if one else "; read them as leads, not findings."
    return text


def _tools_overlap(metrics: pl.DataFrame, metric: str, method: str) -> bool:
    """Whether ours and fio's runs of `method`, taken apart, leave the two medians' intervals
    of `metric` overlapping (``claims.compare`` neither higher nor lower)."""
    summary = stats.summarize(metrics.filter((pl.col("method") == method) & (pl.col("metric") == metric)), ["tool"])
    ours = stats.estimate_or_none(summary, metric, tool="howfast")
    theirs = stats.estimate_or_none(summary, metric, tool="fio")
    return claims.compare(ours, theirs).direction in (claims.SAME_WORD, claims.UNCLEAR)


def _rounds_words(rates: dict[str, stats.Estimate]) -> str:
    """'5 rounds', or '5 to 11 rounds' where the cases ran different numbers of rounds."""
    counts = [r.runs for r in rates.values()]
    low, high = min(counts), max(counts)
    return fmt.count(low, "round") if low == high else f"{fmt.exact(low)} to {fmt.count(high, 'round')}"


def agrees_band() -> str:
    """'0.9–1.1×': the band a cross-check's whole interval must lie within to agree
    (``claims.AGREES``)."""
    low, high = claims.AGREES
    return f"{fmt.factor(low)}–{fmt.factor(high)}×"


def factor_cell(x: float | None) -> str:
    """'1.03×': a ratio in a table cell, through the formatter the sentences use
    (``fmt.factor``); n/a when not measured."""
    return fmt.NA if x is None else f"{fmt.factor(x)}×"


def _same_factor(rate: stats.Estimate, per_io: stats.Estimate) -> bool:
    """Whether the rate ratio ours / fio and the time ratio fio / ours tell the same factor:
    their intervals meet, allowing the cross-check's own agreement band."""
    slack = claims.AGREES[1]
    return per_io.lo <= rate.hi * slack and rate.lo <= per_io.hi * slack


def fio_rounds_sentence(metrics: pl.DataFrame) -> str:
    """How much the fio verdicts can be trusted: the rounds behind each interval and the
    confidence of that interval; empty when the comparison did not run."""
    rates = _ratio_estimates(metrics, "writes_per_s")
    if not rates:
        return ""
    # each count of rounds with the confidence of its interval (``stats.median_interval``'s level)
    levels = sorted({(e.runs, e.confidence) for e in rates.values()})
    if len(levels) == 1:
        runs, confidence = levels[0]
        level = fmt.num(100 * confidence, 2)
        if runs <= 3:
            return (
                f"With {fmt.count(runs, 'round')}, each interval runs from the lowest to the highest ratio, and it "
                f"holds the median ratio with {level} % confidence only: read a verdict as a lead, not a proof."
            )
        return f"Each interval holds the median ratio of its {fmt.count(runs, 'round')} with {level} % confidence."
    said = fmt.listed([f"{fmt.num(100 * c, 2)} % with {fmt.count(n, 'round')}" for n, c in levels])
    text = f"Each interval holds the median ratio with a confidence set by its rounds: {said}."
    few = [n for n, _ in levels if n <= 3]
    if few:
        text += (
            f" With {fmt.count(max(few), 'round')} or fewer an interval runs from the lowest to the highest ratio: "
            "read those verdicts as leads, not proofs."
        )
    return text


def with_round_ratios(table: pl.DataFrame, metrics: pl.DataFrame, key: str, metric: str) -> pl.DataFrame:
    """A ``side_by_side`` table whose ratio columns hold the estimates the sentences quote:
    per row (`key`, the same column in `metrics`) the median per-round ratio of `metric`,
    its interval (ends shown as ``claims.ratio_interval``), and the mean-latency ratio."""
    rates = _ratio_estimates(metrics, metric, key=key)
    speed = _ratio_estimates(metrics, "mean", invert=True, key=key)
    keys = table[key].to_list()
    table = table.with_columns(
        pl.Series("howfast / fio", [rates[k].median if k in rates else None for k in keys], pl.Float64),
        pl.Series(
            "ratio range",
            [claims.ratio_interval(rates[k], median=False) if k in rates else None for k in keys],
            pl.String,
        ),
    )
    if "mean latency, howfast / fio" in table.columns:
        table = table.with_columns(
            pl.Series(
                "mean latency, howfast / fio", [1 / speed[k].median if k in speed else None for k in keys], pl.Float64
            )
        )
    return table


def _within(c: claims.Comparison) -> str:
    """'60–140× within the two intervals': the range a clear ratio can take, turned the way
    the ratio is read."""
    way = "inverted" if c.direction == claims.LOWER else "as measured"
    return f"{claims.ratio_interval(c, way=way, median=False)} within the two intervals"


def batch_rule(big: stats.Estimate | None, one: stats.Estimate | None, batch: int | None = None) -> str:
    """The closing rule on group commit: the largest batch's durable records per second
    (`batch` records per fsync, when given) against one record per fsync. 'The lever' only
    where the whole range of the ratio lies beyond ``claims.SAME``; a clear gain nearer 1 is
    told as slight (``claims.versus``). Where batching did not pay, that the flush may not
    be what limits the rate is a possibility: the runs do not measure what does."""
    c = claims.compare(big, one)
    if c.direction == claims.MISSING:
        return "What batching buys could not be measured here."
    size = "" if batch is None else f" of {fmt.exact(int(batch))} records per fsync"
    if c.direction == claims.HIGHER and c.lo is not None and c.lo > claims.SAME:
        return (
            f"Batching is the lever. On the same disk, group commit{size} made records durable {fmt.factor(c.ratio)}× "
            f"faster than one fsync per record at the median ({_within(c)}); the price is that a record waits "
            "for its batch."
        )
    words = claims.versus(c, "one fsync per record", more="faster", less="slower", same="about as fast as", span=True)
    if c.direction == claims.HIGHER:  # clear, but the near end of the ratio within claims.SAME of 1
        return (
            f"Batching paid here, though by little: the largest batch{size} made records durable "
            f"{words}; the price is that a record waits for its batch."
        )
    if c.direction == claims.LOWER:
        return (
            f"Batching did not pay here: the largest batch{size} made records durable {words}. On this disk the "
            "flush may not be what limits the rate; this run does not measure what does."
        )
    if c.direction == claims.SAME_WORD:
        return (
            f"Batching bought nothing here: the largest batch{size} made records durable {words}. On this disk the "
            "flush may not be what limits the rate; this run does not measure what does."
        )
    return (
        f"Whether batching pays on this disk the runs cannot tell: the largest batch{size} made records durable "
        f"{words}."
    )


def direct_rule(
    direct: stats.Estimate | None, direct_dsync: stats.Estimate | None, supported: bool, reason: str = ""
) -> str:
    """The closing rule on O_DIRECT: durable-or-not 4 KiB writes per second with O_DIRECT and
    no sync (`direct`) against O_DIRECT | O_DSYNC (`direct_dsync`), both appending; where
    O_DIRECT could not run (`supported` false) the rule says so with the probe's `reason`.
    That a write without O_DSYNC is not durable is what the flag means, not a measurement;
    whether it was faster here comes from ``claims.compare``."""
    if not isinstance(supported, bool):
        raise TypeError(f"supported must be True or False, got {type(supported).__name__}")
    if not isinstance(reason, str):
        raise TypeError(f"reason must be text, got {type(reason).__name__}")
    tail = (
        "Without O_DSYNC (or a sync after it) an O_DIRECT write skips the page cache but is not durable: "
        "skipping the cache is not durability."
    )
    if not supported:
        why = f" ({reason.strip()})" if reason.strip() else ""
        return f"O_DIRECT could not run here{why}, so this run cannot say what it costs. {tail}"
    if direct is None:
        return f"An O_DIRECT write without a sync was not measured here, so this run cannot say what it costs. {tail}"
    c = claims.compare(direct, direct_dsync)
    if c.direction == claims.MISSING:
        return (
            f"Here an O_DIRECT write without a sync ran at {fmt.num(direct.median)} writes/s "
            f"({fmt.span(direct.lo, direct.hi)}); O_DIRECT | O_DSYNC was not measured beside it. {tail}"
        )
    words = claims.versus(
        c, "an O_DIRECT | O_DSYNC write", more="faster", less="slower", same="about as fast as", span=True
    )
    if c.direction == claims.HIGHER:
        return (
            f"Here an O_DIRECT write without O_DSYNC ran {words}; only that flag differs between the two loops. {tail}"
        )
    return (
        f"Here an O_DIRECT write without O_DSYNC ran {words}: leaving out the sync did not make it clearly "
        f"faster on this disk. {tail}"
    )


def layout_rule(
    rewrite: stats.Estimate | None,
    append: stats.Estimate | None,
    other_appends: list[tuple[str, stats.Estimate | None]] | None = None,
) -> str:
    """The closing rule on logs written ahead of time and reused: durable 4 KiB writes per second (the
    latency run) rewriting a file against appending to a new one, each figure with its
    interval. `other_appends` are the chapter's other measurements that append ((words,
    estimate)): where one of them is not clearly below the rewrites, the gap between the
    layouts is no larger than the drift between measurements, and the rule says so instead
    of quoting a factor as the disk's."""
    c = claims.compare(rewrite, append)
    if c.direction == claims.MISSING:
        return (
            "Whether a log file written ahead of time and reused is cheaper to sync than a growing one could not be "
            "measured here."
        )
    words = claims.versus(c, "appending to a new one", more="faster", less="slower", same="about as fast as", span=True)
    figures = (
        f" The latency run's medians: {fmt.num(rewrite.median)} durable writes per second rewriting "
        f"({fmt.span(rewrite.lo, rewrite.hi)}), {fmt.num(append.median)} appending ({fmt.span(append.lo, append.hi)})."
    )
    if c.direction == claims.HIGHER:
        rival = next(
            (
                (name, e)
                for name, e in other_appends or []
                if e is not None and claims.compare(rewrite, e).direction != claims.HIGHER
            ),
            None,
        )
        if rival is None:
            return (
                "A log file written in full ahead of time (filled and synced) and then reused is cheaper to sync "
                "than one that grows: in the latency run, "
                f"rewriting a file made 4 KiB writes durable {words}.{figures}"
            )
        name, e = rival
        return (
            f"Within the latency run, rewrites were faster, with intervals apart: rewriting a file made 4 KiB "
            f"writes durable {words}.{figures} Across runs the gap is no larger than the drift between "
            f"measurements: {name} made {fmt.num(e.median)} per second ({fmt.span(e.lo, e.hi)}), not clearly "
            "fewer than those rewrites. A log written in full ahead of time (filled and synced) and reused may "
            "save a growing file's metadata commit on every sync; on this disk that saving does not stand out "
            "from the drift, so no factor here is the disk's."
        )
    if c.direction == claims.LOWER:
        return (
            f"Rewriting a file made 4 KiB writes durable {words} in the latency run: the opposite of what the work "
            f"predicts, which this page does not explain; do not read it as a rule.{figures}"
        )
    return (
        f"Rewriting a file made 4 KiB writes durable {words} in the latency run: on this machine the metadata of a "
        f"growing file does not show beyond the intervals; on a disk where a journal commit costs more, it can."
        f"{figures}"
    )


def commit_rule(
    p50: stats.Estimate | None, runs: pl.DataFrame, elsewhere: tuple[str, stats.Estimate | None] | None = None
) -> str:
    """The closing rule on one commit at a time: the latency run's median 4 KiB write +
    fsync, and the range of durable writes per second over the chapter's runs of the pair
    (``four_kib_runs``: appending and rewriting), so the rule quotes no ceiling another run
    of the page beat. `elsewhere`: (words, estimate) of another page's run of the same pair
    (the SQLite section's baseline), named with its interval where it lies outside that
    range by the medians ('clearly' outside only where ``claims.compare`` puts it below, or
    above, every one of those runs' intervals), so the two pages' figures are not read as one."""
    if runs.height == 0:
        return "One durable write at a time could not be measured here."
    rates = runs["writes/s"].to_list()
    lo, hi = min(rates), max(rates)
    if runs.height == 1 or fmt.num(lo) == fmt.num(hi):
        made = f"made {fmt.num(hi)} durable writes per second at the median"
        day = f"{_per_day(hi, hi)} a day"
        subject = "its measurement" if runs.height == 1 else _measurements(runs)
    else:
        made = f"made {fmt.num(lo)} to {fmt.num(hi)} durable writes per second at the median"
        day = f"{_per_day(lo, hi)} a day"
        subject = _measurements(runs)
    head = (
        f"On this machine, in the latency run's growing file, one durable 4 KiB write at a time took about "
        f"{_us(p50)} at the median ({_duration_span(p50.lo, p50.hi)}), and {subject} {made}"
        if p50 is not None
        else f"On this machine, one durable 4 KiB write at a time: {subject} {made}"
    )
    other = ""
    if elsewhere is not None and elsewhere[1] is not None:
        name, e = elsewhere
        if e.median < lo or e.median > hi:
            side = "below" if e.median < lo else "above"
            clear = claims.LOWER if side == "below" else claims.HIGHER
            said = (
                f" {name[:1].upper()}{name[1:]} made {fmt.num(e.median)} per second ({fmt.span(e.lo, e.hi)}, "
                f"{fmt.count(e.runs, 'run')})"
            )
            near = [
                r
                for r in runs.iter_rows(named=True)
                if claims.compare(e, stats.Estimate(r["writes/s"], r["lo"], r["hi"], int(r["repetitions"]))).direction
                != clear
            ]
            if not near:
                other = f"{said}, clearly {side} that range"
            else:
                r = near[0]
                other = (
                    f"{said}, {side} that range by the medians but not clearly {side} it: its interval overlaps "
                    f"that of {_prose(r)} ({fmt.span(r['lo'], r['hi'])})"
                )
            other += ", in a run of its own: another file, another moment on a disk whose speed drifts."
    return (
        f"{head}. A single-threaded program that commits every record gets about that many commits per second "
        f"({day}), however fast its CPU is.{other}"
    )


def _per_day(lo: float, hi: float) -> str:
    """Durable writes per second as a day's worth, to two significant digits (the rates behind
    it vary by more than that): 'about 550 to 930 million', 'about 80 million'; the scale word
    once where both ends share it."""
    a, b = fmt.num(lo * 86400, 2), fmt.num(hi * 86400, 2)
    if a == b:
        return f"about {b}"
    word_a, word_b = a.rpartition(" ")[2], b.rpartition(" ")[2]
    if " " in a and word_a == word_b:
        a = a.rpartition(" ")[0]
    return f"about {a} to {b}"


def _measurements(runs: pl.DataFrame) -> str:
    """'the chapter's 5 measurements of a 4 KiB write + fsync (3 appending, 2 rewriting)': how
    many runs the range covers, and what each did to the file, so no rewrite is counted as an
    append."""
    kinds = runs["layout"].to_list() if "layout" in runs.columns else []
    appends, rewrites = kinds.count("append"), kinds.count("overwrite")
    split = ""
    if appends and rewrites:
        split = f" ({fmt.exact(appends)} appending, {fmt.exact(rewrites)} rewriting)"
    elif rewrites:
        split = " (all rewriting)"
    elif appends:
        split = " (all appending)"
    return f"the chapter's {fmt.count(runs.height, 'measurement')} of a 4 KiB write + fsync{split}"


def write_cache_short(facts: dict) -> str:
    """The disk's write-cache mode and FUA in a few words, for a table whose text above says
    what they mean: 'write back, without FUA'."""
    mode, fua = facts.get("write_cache"), facts.get("fua")
    if not mode:
        return "not reported (no block device, or the kernel does not say)"
    return mode + ("" if fua is None else (", with FUA" if fua else ", without FUA"))


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
