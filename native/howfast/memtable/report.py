"""Tables and chart data for the memtables chapter, built from stored results and from
seed 002's Go figures (data/reference/memtable.csv)."""

from __future__ import annotations

import re

import altair as alt
import polars as pl

from .. import charts, claims, fmt, machine, reference, stats, tables
from ..checks import checked
from ..crosscheck import paired_ratios, ratio_estimate, round_ratios, verdicts_sentence
from ..stats import Estimate
from .experiments import BLOCKING, DEEP, DOUBLE, LOG, MODES, NO_LOG

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "sweep": "memtable-size sweep",
    "variants": "writer-variant",
    "vs_fio": "fio cross-check",
    "rollover": "segment-rollover",
    "breakdown": "time-breakdown",
    "crash": "crash-recovery",
    "powercut": "power-cut",
}

SEED = "seed 002: Go, Ryzen 7 9800X3D"
LATENCY_COLUMNS = ["p50", "p99", "p99.9"]

#: The words for the ids that the experiments store.
MODE_NAMES = {BLOCKING: "blocking", DOUBLE: "io_uring ×2", DEEP: "io_uring, deep"}
VARIANT_NAMES = {
    "blocking_unpinned": "blocking, unpinned",
    "blocking_pinned": "blocking, pinned",
    "uring_unpinned": "io_uring ×2, unpinned",
    "uring_pinned": "io_uring ×2, pinned",
    "depth_1": "blocking (1 buffer)",
    NO_LOG: "no log",
    "dsync_segments": "O_DSYNC segments",
    LOG: "log (group commit)",
    "log_dsync": "log + O_DSYNC segments",
}
CRASH_MODE_NAMES = {
    "log_uring2_dsync": "log, io_uring ×2, O_DSYNC",
    "log_blocking": "log, blocking",
    "log_uring4": "log, io_uring ×4",
    "flush_each_uring": "no log, flush() per batch, io_uring",
    "flush_each_blocking": "no log, flush() per batch, blocking",
}
POWERCUT_MODE_NAMES = {
    "log_blocking": "log, blocking",
    "log_uring2": "log, io_uring ×2",
    "log_deep": "log, io_uring ×8",
    "nolog_blocking": "no log, flush(), blocking",
    "nolog_uring2": "no log, flush(), io_uring ×2",
    "nolog_deep": "no log, flush(), io_uring ×8",
    "log_uring2_dsync": "log, io_uring ×2, O_DSYNC",
    "nolog_uring2_dsync": "no log, flush(), io_uring ×2, O_DSYNC",
}


def mode_name(mode: str, buffers: int) -> str:
    """'io_uring ×8' for the deep mode, the mode's name otherwise."""
    return f"io_uring ×{buffers}" if mode == DEEP else MODE_NAMES.get(mode, mode)


def variant_name(variant: str) -> str:
    """'io_uring ×8' for depth_8 (as the deep mode is named), the variant's name otherwise."""
    if variant.startswith("depth_") and variant != "depth_1":
        return f"io_uring ×{variant.removeprefix('depth_')}"
    return VARIANT_NAMES.get(variant, variant)


def variant_names(column: str = "variant") -> pl.Expr:
    return pl.col(column).map_elements(variant_name, return_dtype=pl.String)


def seed_figures() -> pl.DataFrame:
    """Seed 002's raw go test lines: one row per capacity and O_DSYNC setting."""
    raw = reference.load("memtable").filter(pl.col("table") == "raw_stats")
    wide = raw.filter(pl.col("capacity_bytes").is_not_null()).pivot(
        on="metric", index=["capacity_bytes", "dsync"], values="value"
    )
    return wide.select(
        pl.col("capacity_bytes").alias("capacity"),
        "dsync",
        "records_per_s",
        "ns_per_op",
        "flushes_per_s",
        (pl.col("records_per_s") * 16384 / 1e6).alias("mb_per_s"),
    ).sort("dsync", "capacity")


def _summary(metrics: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    return stats.summarize(metrics, by)


def runs_text(counts: list[int]) -> str:
    """The run count of a table row's figures: '3' when they all have the same, '3–5'
    when they differ, n/a when none was measured."""
    found = sorted({int(c) for c in counts if c})
    if not found:
        return fmt.NA
    return str(found[0]) if len(found) == 1 else f"{found[0]}–{found[-1]}"


def _cell(estimate: Estimate | None, target: float | None, show=fmt.num) -> str:
    """A table cell: the median with the interval of the median, and the unstable mark
    where that interval stayed wider than ±`target` (tables.figure, the count left to a
    column of its own)."""
    if estimate is not None and estimate.lo == estimate.hi:  # every run alike (a count of 0): no spread to show
        return show(estimate.median)
    return tables.figure(estimate, target, show, runs=False)


def short_factor(x: float | None) -> str:
    """A ratio's median without its '×': ``fmt.factor``, cut to three significant digits
    where it needs more (0.9001 -> '0.9'; 1.13 -> '1.13'; 0.83 -> '0.83'). A median is not
    what a verdict reads (that is its interval, whose ends keep ``fmt.factor``'s digits),
    so it need not be told from a line it sits next to; 'n/a' when not measured."""
    shown = fmt.factor(x)
    if x is None or " " in shown or len(re.sub(r"[^0-9]", "", shown).lstrip("0")) <= 3:
        return shown
    return fmt.num(x, 3)


def _ratio_cell(estimate: Estimate | None) -> str:
    """A ratio with its interval, '24× (22–26×)': the median through short_factor, the
    ends as ``claims.ratio_interval`` gives them; n/a when not measured."""
    ends = claims.ratio_interval(estimate, median=False)
    if estimate is None or "–" not in ends:
        return claims.ratio_interval(estimate)
    return f"{short_factor(estimate.median)}× ({ends})"


def _signed_cell(estimate: Estimate | None) -> str:
    """A figure that may be negative, with its interval: '−25.9 (−84.6 to 593)' (a dash
    between two ends that may carry a minus would read as one). No unstable mark: a
    difference near zero has no meaningful relative width; whether its interval includes
    zero is what the reader needs."""
    if estimate is None:
        return fmt.NA
    if estimate.lo == estimate.hi == estimate.median:
        return signed(estimate.median)
    return f"{signed(estimate.median)} ({signed_span(estimate.lo, estimate.hi)})"


def _values_estimate(values: list[float]) -> Estimate | None:
    """The median of some runs' values with the interval of that median; None without any."""
    v = [float(x) for x in values if x is not None and x == x]
    if not v:
        return None
    lo, hi, level = stats.median_interval(v)
    return Estimate(float(pl.Series(v).median()), lo, hi, len(v), level)


def best_mode(metrics: pl.DataFrame) -> pl.DataFrame:
    """Per capacity and O_DSYNC setting: the flush mode with the most records/s (median)."""
    s = _summary(metrics, ["capacity", "dsync", "mode", "buffers"]).filter(pl.col("metric") == "records_per_s")
    return (
        s.sort("median", descending=True)
        .group_by(["capacity", "dsync"], maintain_order=True)
        .first()
        .sort("dsync", "capacity")
    )


def sweep_table(metrics: pl.DataFrame, dsync: bool, target: float | None = None) -> pl.DataFrame:
    """One row per capacity: records/s of each flush mode, each the median with the
    interval of the median and, where that interval stayed wider than ±`target`, the
    unstable mark; the deep mode's buffer count; the run count of the row's figures; and the
    seed's Go figure (one printed number, no spread), beside ours and never divided by it:
    the language, the disk, the clock and the producers (the seed's 8 goroutines with
    GOMAXPROCS=8 and its writer locked to an OS thread, ours plan.producers threads on this
    machine's CPUs: seed_setup_words) differ besides the machine. Time per record and
    flushes per second are these rates turned round, so the table leaves them to the chart
    and the prose."""
    rows = metrics.filter(pl.col("dsync") == dsync)
    rates = rows.filter(pl.col("metric") == "records_per_s")
    seed = seed_figures().filter(pl.col("dsync") == dsync)
    seed_rate = dict(zip(seed["capacity"].to_list(), seed["records_per_s"].to_list()))
    missing = stats.unsupported(rows, ["capacity", "mode"])
    out = []
    for cap in sorted(rows["capacity"].unique().to_list()):
        at = rates.filter(pl.col("capacity") == cap)
        ests = {mode: _estimate(at, "records_per_s", mode=mode) for mode in MODES}
        deep = at.filter(pl.col("mode") == DEEP)["buffers"]
        theirs = seed_rate.get(cap)
        why = missing.filter(pl.col("capacity") == cap)
        out.append(
            {
                "capacity": fmt.size(cap),
                **{MODE_NAMES[m]: _cell(e, target) for m, e in ests.items()},
                "deep buffers": int(deep[0]) if deep.len() else None,
                "runs": runs_text([e.runs for e in ests.values() if e is not None]),
                "seed records/s": theirs,
                "unsupported": "; ".join(
                    f"{MODE_NAMES.get(r['mode'], r['mode'])}: {r['note']}" for r in why.iter_rows(named=True)
                )
                or None,
            }
        )
    schema = {"capacity": pl.String, **{MODE_NAMES[m]: pl.String for m in MODES}, "deep buffers": pl.Int64,
              "runs": pl.String, "seed records/s": pl.Float64, "unsupported": pl.String}  # fmt: skip
    table = pl.DataFrame(out, schema=schema)
    return table if missing.height else table.drop("unsupported")


#: The seed's line in the sweep chart's legend (short: a legend label is never cut).
SEED_SERIES = "seed 002 (Go)"


def sweep_curves(metrics: pl.DataFrame) -> pl.DataFrame:
    """Long data for the seed's chart: MB/s and ns per record against capacity (KiB),
    ours per flush mode (the median, the interval of the median ``lo``–``hi`` and the run
    count ``repetitions``) beside the seed's Go run (one printed figure: lo = hi = median).
    Our ns per record is the records/s estimate turned round (1e9 / records/s, its interval
    with it, as time_per_op), so it never disagrees with the tables' records/s."""
    s = _summary(metrics, ["capacity", "dsync", "mode"])
    rates = s.filter(pl.col("metric") == "records_per_s").filter(pl.col("lo") > 0)
    times = rates.with_columns(
        pl.lit("ns_per_op").alias("metric"),
        (1e9 / pl.col("median")).alias("median"),
        (1e9 / pl.col("hi")).alias("lo"),
        (1e9 / pl.col("lo")).alias("hi"),
    )
    s = pl.concat([s.filter(pl.col("metric") == "mb_per_s"), times.select(s.columns)])
    ours = s.select(
        "capacity",
        "dsync",
        "metric",
        "median",
        "lo",
        "hi",
        pl.col("repetitions").cast(pl.Int64),
        pl.col("mode").replace_strict(MODE_NAMES).alias("series"),
    )
    seed = (
        seed_figures()
        .unpivot(index=["capacity", "dsync"], on=["mb_per_s", "ns_per_op"], variable_name="metric", value_name="median")
        .with_columns(
            pl.col("median").alias("lo"),
            pl.col("median").alias("hi"),
            pl.lit(1, dtype=pl.Int64).alias("repetitions"),
            pl.lit(SEED_SERIES).alias("series"),
        )
    )
    both = pl.concat([ours, seed.select(ours.columns)])
    return both.with_columns(
        kib=pl.col("capacity") / 1024,
        sync=pl.when(pl.col("dsync")).then(pl.lit("O_DSYNC")).otherwise(pl.lit("no O_DSYNC")),
    )


_SIZE_LABEL = (
    "datum.value >= 1048576 ? datum.value / 1048576 + ' GiB' : "
    "datum.value >= 1024 ? datum.value / 1024 + ' MiB' : datum.value + ' KiB'"
)


def _sweep_panel(
    data: pl.DataFrame, metric: str, title: str, y_title: str, series: list[str], colors: list[str]
) -> alt.LayerChart:
    part = data.filter(pl.col("metric") == metric)
    ticks = [64 * 4**i for i in range(10) if 64 * 4**i <= float(data["kib"].max())]
    x = alt.X(
        "kib:Q",
        scale=alt.Scale(type="log", base=2),
        title="memtable capacity (log scale)",
        axis=alt.Axis(values=ticks, labelExpr=_SIZE_LABEL, labelOverlap=True),
    )
    color = alt.Color(
        "series:N",
        title=None,
        scale=alt.Scale(domain=series, range=colors),
        legend=alt.Legend(orient="bottom", columns=2, symbolType="stroke", symbolStrokeWidth=3, symbolOpacity=1),
    )
    dash = alt.StrokeDash(
        "series:N", scale=alt.Scale(domain=series, range=[[1, 0]] * (len(series) - 1) + [[5, 3]]), legend=None
    )
    y_axis = alt.Axis(labelExpr=charts.DECADE_LABEL)
    base = alt.Chart(part, title=title).encode(x=x, color=color)
    band = base.mark_area(opacity=0.15).encode(y=alt.Y("lo:Q", scale=alt.Scale(type="log")), y2="hi:Q")
    line = base.mark_line(point=True).encode(
        y=alt.Y("median:Q", scale=alt.Scale(type="log"), title=y_title, axis=y_axis),
        strokeDash=dash,
        tooltip=[
            alt.Tooltip("series:N"),
            alt.Tooltip("kib:Q", title="KiB"),
            alt.Tooltip("median:Q", format=",.4~g"),
            alt.Tooltip("lo:Q", title="interval from", format=",.4~g"),
            alt.Tooltip("hi:Q", title="interval to", format=",.4~g"),
            alt.Tooltip("repetitions:Q", title="runs"),
        ],
    )
    return alt.layer(band, line).properties(height=200)


def sweep_chart(metrics: pl.DataFrame) -> alt.VConcatChart:
    """The seed's chart as four log-log panels stacked (each as wide as the column): MB/s
    and ns per record against capacity, without and with O_DSYNC; ours per flush mode
    beside the seed's Go memtable."""
    data = sweep_curves(metrics)
    present = set(data["series"].to_list())
    ours = [MODE_NAMES[m] for m in MODES if MODE_NAMES[m] in present]
    series = [*ours, SEED_SERIES]
    colors = [*charts.PALETTE[: len(ours)], charts.REFERENCE]
    panels = []
    for dsync in (False, True):
        part = data.filter(pl.col("dsync") == dsync)
        title = "with O_DSYNC" if dsync else "without O_DSYNC"
        panels.append(_sweep_panel(part, "mb_per_s", f"Throughput, {title}", "MB/s", series, colors))
        panels.append(_sweep_panel(part, "ns_per_op", f"Time per record, {title}", "ns per record", series, colors))
    return alt.vconcat(*panels).resolve_scale(color="shared", strokeDash="shared")


def depth_chart(metrics: pl.DataFrame) -> alt.LayerChart:
    """Bars of records/s per buffer count (median), rules over the interval of the median."""
    data = depth_bars(metrics)
    if data.height == 0:
        return charts.unavailable(charts.reasons(metrics.filter(pl.col("group") == "depth")), "Higher is better")
    order = data["label"].to_list()
    base = alt.Chart(data, title="Higher is better").encode(
        y=alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labelLimit=320))
    )
    bars = base.mark_bar(color=charts.PALETTE[0]).encode(
        x=alt.X("median:Q", title="records per second (median)"),
        tooltip=[
            alt.Tooltip("label:N"),
            alt.Tooltip("median:Q", format=",.4~g"),
            alt.Tooltip("lo:Q", title="interval from", format=",.4~g"),
            alt.Tooltip("hi:Q", title="interval to", format=",.4~g"),
            alt.Tooltip("repetitions:Q", title="runs"),
        ],
    )
    spread = base.mark_rule(color="#333").encode(x="lo:Q", x2="hi:Q")
    return (bars + spread).properties(height=alt.Step(24))


def variant_table(metrics: pl.DataFrame, group: str, target: float | None = None) -> pl.DataFrame:
    """One row per variant of a group: records/s and the per-record latency percentiles
    (µs), each the median over the runs with the interval of the median and the unstable
    mark where it stayed wider than ±`target`; for the log, records per fdatasync; the run
    count (every figure of a row comes from the same runs). MB/s is records/s times the
    record size, so the table leaves it out."""
    rows = metrics.filter(pl.col("group") == group)
    figures = {"records_per_s": "records/s", **{c: f"{c} µs" for c in LATENCY_COLUMNS}}
    if group == "durability":  # the log's group commit: records per fdatasync
        figures["records_per_sync"] = "per fdatasync"
    out = []
    for variant in rows["variant"].unique(maintain_order=True).to_list():
        at = rows.filter(pl.col("variant") == variant)
        ests = {metric: _estimate(at, metric) for metric in figures}
        rate = ests["records_per_s"]
        cells = {name: _cell(ests[m], target) for m, name in figures.items()}
        if "records_per_sync" in figures and ests["records_per_sync"] is None and rate is not None:
            cells["per fdatasync"] = "none: no log"  # a run without the log calls no fdatasync
        out.append(
            {
                "variant": variant,
                **cells,
                "runs": runs_text([rate.runs] if rate is not None else []),
            }
        )
    schema = {"variant": pl.String, **dict.fromkeys(figures.values(), pl.String), "runs": pl.String}
    table = pl.DataFrame(out, schema=schema)
    missing = stats.unsupported(rows, ["variant"]).rename({"note": "unsupported"})
    if missing.height:
        table = table.join(missing, on="variant", how="left")
    return table.with_columns(variant_names())


def depth_bars(metrics: pl.DataFrame) -> pl.DataFrame:
    """records/s per buffer count at the depth capacity, with O_DSYNC: the median, the
    interval of the median (``lo``–``hi``) and the run count."""
    rows = metrics.filter(pl.col("group") == "depth")
    s = _summary(rows, ["variant"]).filter(pl.col("metric") == "records_per_s")
    return s.select(
        variant_names().alias("label"), "median", "lo", "hi", "repetitions", pl.lit("records/s").alias("what")
    )


def _fio_keyed(metrics: pl.DataFrame) -> pl.DataFrame:
    return metrics.with_columns(
        pl.struct("mode", "buffers")
        .map_elements(lambda r: mode_name(r["mode"], r["buffers"]), return_dtype=pl.String)
        .alias("flush")
    )


def fio_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Ours beside fio (same bytes, O_DIRECT, block size = capacity, same depth), per case:
    each side's MB/s (the median with the interval of the median, the unstable mark where
    it stayed wider than ±`target`), ours / fio as the median of the per-round ratios with
    the interval of that median and its verdict (claims.crosscheck; a leaning, LEANING_VERDICTS,
    where the rounds give that interval less than 95 % confidence), the rounds, and the
    share of our run spent filling the first buffer, before any write (%, with its
    interval). The flush's name gives the writes in flight (blocking: one); a *note* says
    why where a side could not run."""
    by = ["capacity", "dsync", "flush", "buffers"]
    keyed = _fio_keyed(metrics)
    ratios = round_ratios(keyed, by, "mb_per_s", theirs="fio")
    missing = stats.unsupported(keyed, [*by, "tool"])
    out = []
    for key in keyed.select(by).unique(maintain_order=True).sort("dsync", "capacity", "buffers").iter_rows():
        where = dict(zip(by, key))
        at = keyed
        for k, v in where.items():
            at = at.filter(pl.col(k) == v)
        ours = _estimate(at, "mb_per_s", tool="howfast")
        theirs = _estimate(at, "mb_per_s", tool="fio")
        r = ratios
        for k, v in where.items():
            r = r.filter(pl.col(k) == v)
        ratio = ratio_estimate(r["r"].to_list()) if r.height else None
        fill = _estimate(at, "first_fill_share", tool="howfast")
        why = missing
        for k, v in where.items():
            why = why.filter(pl.col(k) == v)
        out.append(
            {
                "capacity": fmt.size(where["capacity"]),
                "O_DSYNC": "yes" if where["dsync"] else "no",
                "flush": where["flush"],
                "ours MB/s": _cell(ours, target),
                "fio MB/s": _cell(theirs, target),
                "ours / fio": _ratio_cell(ratio),
                "verdict": _verdict_cell(ratio, r.height),
                "rounds": r.height if r.height else None,
                "first fill %": _cell(fill.scaled(100) if fill is not None else None, None),
                "note": "; ".join(f"{w['tool']}: {w['note']}" for w in why.iter_rows(named=True)) or None,
            }
        )
    schema = {"capacity": pl.String, "O_DSYNC": pl.String, "flush": pl.String, "ours MB/s": pl.String,
              "fio MB/s": pl.String, "ours / fio": pl.String, "verdict": pl.String, "rounds": pl.Int64,
              "first fill %": pl.String, "note": pl.String}  # fmt: skip
    table = pl.DataFrame(out, schema=schema)
    return table if table["note"].drop_nulls().len() else table.drop("note")


def _verdict_cell(ratio: Estimate | None, rounds: int) -> str:
    """A cross-check table's verdict: claims.crosscheck of the ratio's interval, a leaning
    (LEANING_VERDICTS) where `rounds` give that interval less than 95 % confidence; n/a
    without a ratio."""
    if ratio is None:
        return fmt.NA
    verdict = claims.crosscheck(ratio).outcome
    if stats.interval_ranks(rounds)[1] < stats.CONFIDENCE:
        return LEANING_VERDICTS.get(verdict, verdict)
    return verdict


def fio_ratio_range(metrics: pl.DataFrame) -> str:
    """'0.77× to 1.2×': the lowest and highest median ours / fio over the io_uring cases
    (what the peak mode is compared with), each the median of its per-round ratios."""
    by = ["capacity", "dsync", "mode", "buffers", *(["segment_bytes"] if "segment_bytes" in metrics.columns else [])]
    rows = metrics.filter(pl.col("mode") != BLOCKING)
    if rows.height == 0 or not {"howfast", "fio"} <= set(rows["tool"].unique().to_list()):
        return fmt.NA
    r = round_ratios(rows, by, "mb_per_s", theirs="fio").group_by(by).agg(pl.col("r").median())["r"]
    return f"{short_factor(r.min())}× to {short_factor(r.max())}×" if r.len() else fmt.NA


def fio_peak(metrics: pl.DataFrame) -> Estimate | None:
    """fio's fastest case by the median (MB/s), with the interval of that median."""
    rows = metrics.filter((pl.col("tool") == "fio") & (pl.col("metric") == "mb_per_s"))
    if rows.height == 0:
        return None
    by = ["capacity", "dsync", "mode", "buffers", *(["segment_bytes"] if "segment_bytes" in rows.columns else [])]
    top = rows.group_by(by).agg(pl.col("value").median()).sort("value").row(-1, named=True)
    return _estimate(rows, "mb_per_s", **{k: top[k] for k in by})


def first_fill_sentence(metrics: pl.DataFrame) -> str:
    """The case where filling the first buffer took the largest share of our run."""
    rows = metrics.filter((pl.col("tool") == "howfast") & pl.col("metric").is_in(["first_fill_ms", "first_fill_share"]))
    if rows.height == 0:
        why = charts.reasons(metrics.filter(pl.col("tool") == "howfast"))
        return f"The memtable could not run here ({why or 'no result'}), so there is no first fill to time."
    case = ["capacity", "dsync", "mode", "buffers", "records", "record_size"]
    wide = rows.group_by(*case, "metric").agg(pl.col("value").median()).pivot(on="metric", index=case, values="value")
    worst = wide.sort("first_fill_share").row(-1, named=True)
    flushes = worst["records"] * worst["record_size"] // worst["capacity"]
    return (
        f"Before its first write, the memtable has to fill a buffer, and fio has nothing to fill: with "
        f"{fmt.size(worst['capacity'])} buffers ({mode_name(worst['mode'], worst['buffers'])}"
        f"{', O_DSYNC' if worst['dsync'] else ''}) that took {fmt.duration_us(worst['first_fill_ms'] * 1e3)}, "
        f"{fmt.share(worst['first_fill_share'], 2)} of a run of {fmt.count(int(flushes), 'flush', 'flushes')}. "
        "The table of each side's MB/s gives that share for every row (first fill %); the fewer flushes a run "
        "has, the more of it goes to the start."
    )


def crash_table(metrics: pl.DataFrame, powercut: pl.DataFrame | None = None) -> pl.DataFrame:
    """Per mode: crash points, records acknowledged before the kill, keys recovered,
    partial records skipped, and problems found (lost or damaged records); with
    `powercut`, the power-cut states' rows after the SIGKILL ones (column *crash*), with
    what the states did to the writes not yet durable."""
    table = _sigkill_table(metrics)
    if powercut is None:
        return table
    table = table.with_columns(pl.lit("SIGKILL").alias("crash"))
    cut = powercut_table(powercut).with_columns(pl.lit("power cut").alias("crash"))
    both = pl.concat([table, cut], how="diagonal")
    return both.select("crash", pl.all().exclude("crash", "lost or damaged"), "lost or damaged")


def powercut_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Per mode: crash states checked, records acknowledged before the cut (summed over
    the states), keys recovered, partial records skipped, writes not yet durable that
    the states dropped, kept and tore, and problems found."""
    return _crash_rows(metrics, pl.col("states").sum(), POWERCUT_MODE_NAMES, writes=True)


def powercut_numbers(metrics: pl.DataFrame) -> dict[str, int]:
    """Totals over every mode's power-cut states, for the prose: states, the fewest per
    mode, modes, records acknowledged, writes not yet durable and what became of them,
    partial records skipped, problems."""
    table = powercut_table(metrics)
    done = table.filter(pl.col("crash points").is_not_null())
    if done.height == 0:
        return {
            "states": 0,
            "fewest": 0,
            "modes": 0,
            "acknowledged": 0,
            "dropped": 0,
            "kept": 0,
            "torn": 0,
            "skipped": 0,
            "problems": 0,
        }
    return {
        "states": int(done["crash points"].sum()),
        "fewest": int(done["crash points"].min()),
        "modes": done.height,
        "acknowledged": int(done["acknowledged records"].sum()),
        "dropped": int(done["writes dropped"].sum()),
        "kept": int(done["writes kept"].sum()),
        "torn": int(done["writes torn"].sum()),
        "skipped": int(done["partial records skipped"].sum()),
        "problems": int(done["lost or damaged"].sum()),
    }


def _sigkill_table(metrics: pl.DataFrame) -> pl.DataFrame:
    return _crash_rows(metrics, pl.len(), CRASH_MODE_NAMES, writes=False)


def _crash_rows(metrics: pl.DataFrame, points: pl.Expr, names: dict[str, str], *, writes: bool) -> pl.DataFrame:
    """One row per mode of a crash experiment (SIGKILL: one crash point a repetition;
    power cuts: `points` counts the states), with what the writes not yet durable became
    when `writes`, and a row with the reason for each mode that could not run."""
    done = metrics.filter(pl.col("metric") != "unsupported")
    wide = done.pivot(on="metric", index=["mode", "repetition"], values="value")
    summed = [
        ("acknowledged", "acknowledged records"),
        ("recovered_keys", "keys recovered"),
        ("newer", "newer than acknowledged"),
        ("torn", "partial records skipped"),
        *([("dropped_writes", "writes dropped"), ("kept_writes", "writes kept"), ("torn_writes", "writes torn")]
          if writes else []),
        ("problems", "lost or damaged"),
    ]  # fmt: skip
    table = wide.group_by("mode", maintain_order=True).agg(
        points.cast(pl.Int64).alias("crash points"),
        *[pl.col(metric).sum().cast(pl.Int64).alias(column) for metric, column in summed],
    )
    missing = stats.unsupported(metrics, ["mode"])
    if missing.height:
        table = pl.concat([table, missing.rename({"note": "unsupported"})], how="diagonal")
    return table.with_columns(pl.col("mode").replace_strict(names, default=pl.col("mode")))


def pick(metrics: pl.DataFrame, metric: str, **where: object) -> float:
    """Median of one metric for the one case matching `where`."""
    by = list(where)
    return stats.pick(stats.summarize(metrics, by), metric, **where)


def ratio_range(table: pl.DataFrame, column: str) -> tuple[float, float] | None:
    values = table[column].drop_nulls()
    return (float(values.min()), float(values.max())) if values.len() else None


# ---- numbers for the prose (None when the machine could not run the case) ----------------


def _median(metrics: pl.DataFrame, metric: str, **where: object) -> float | None:
    rows = metrics.filter(pl.col("metric") == metric)
    for key, value in where.items():
        rows = rows.filter(pl.col(key) == value)
    values = rows["value"].drop_nulls()
    return float(values.median()) if values.len() else None


def where_table(facts: dict, plan, metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Where the segment files went and what the machine offered; the sweep's run count
    per case (as stored: the stopping rule may have added rounds to some) and the
    half-width the profile aims for in each interval."""
    caps = sorted(metrics["capacity"].unique().to_list())
    rates = metrics.filter(pl.col("metric") == "records_per_s")
    counts = rates.group_by("capacity", "dsync", "mode").len()["len"].to_list() if rates.height else []
    return pl.DataFrame(
        {
            "fact": [
                "scratch directory",
                "filesystem",
                "block device",
                "O_DIRECT",
                "io_uring",
                "logical CPUs",
                "write cache",
                "record size",
                "capacities",
                "producer threads",
                "profile",
                "runs per case (sweep)",
                "interval aimed for",
            ],
            "value": [
                facts["scratch_dir"],
                facts["filesystem"],
                machine.disk_words(facts),
                facts["o_direct_reason"],
                facts["io_uring_reason"],
                str(facts["logical_cpus"]),
                machine.write_cache_words(facts),
                fmt.size(plan.record_size),
                f"{fmt.size(caps[0])} … {fmt.size(caps[-1])} ({len(caps)} sizes)",
                str(plan.producers),
                str(metrics["profile"][0]),
                runs_text(counts),
                f"±{fmt.num(100 * target)} % of each median" if target else "none (a fixed run count)",
            ],
        }
    )


def _best(metrics: pl.DataFrame, capacity: int, dsync: bool) -> tuple[float | None, str]:
    rows = metrics.filter(
        (pl.col("capacity") == capacity) & (pl.col("dsync") == dsync) & (pl.col("metric") == "records_per_s")
    )
    if rows.height == 0:
        return None, "n/a"
    s = rows.group_by("mode", "buffers").agg(pl.col("value").median()).sort("value", descending=True)
    top = s.row(0, named=True)
    return float(top["value"]), mode_name(top["mode"], top["buffers"])


def best_modes_words(dsync_mode: str, plain_mode: str) -> str:
    """'the mode with the highest median was io_uring ×8 with O_DSYNC and io_uring ×2 without
    it', or one phrase where the two are the same mode: 'the mode with the highest median,
    with O_DSYNC and without it, was io_uring ×2'. The medians alone pick the mode: the
    intervals of the runners-up may overlap it."""
    if dsync_mode == plain_mode:
        return f"the mode with the highest median, with O_DSYNC and without it, was {dsync_mode}"
    return f"the mode with the highest median was {dsync_mode} with O_DSYNC and {plain_mode} without it"


def sweep_numbers(metrics: pl.DataFrame) -> dict[str, object]:
    """The figures the sweep's prose quotes."""
    caps = sorted(metrics["capacity"].unique().to_list())
    small, large = caps[0], caps[-1]
    out: dict[str, object] = {"small": small, "large": large}
    for name, cap in (("small", small), ("large", large)):
        for suffix, dsync in (("", False), ("_dsync", True)):
            out[f"{name}_blocking{suffix}"] = _median(
                metrics, "records_per_s", capacity=cap, dsync=dsync, mode=BLOCKING
            )
            out[f"{name}_best{suffix}"], out[f"{name}_best_mode{suffix}"] = _best(metrics, cap, dsync)
    out["small_flushes"] = _median(metrics, "flushes_per_s", capacity=small, dsync=False, mode=BLOCKING)
    mb = stats.summarize(metrics, ["capacity", "dsync", "mode", "buffers"]).filter(pl.col("metric") == "mb_per_s")
    if mb.height:
        top = mb.sort("median", descending=True).row(0, named=True)
        out |= {
            "peak_mb": top["median"],
            "peak_capacity": top["capacity"],
            "peak_mode": mode_name(top["mode"], top["buffers"]) + (" and O_DSYNC" if top["dsync"] else ""),
        }
    else:
        out |= {"peak_mb": None, "peak_capacity": large, "peak_mode": "n/a"}
    seed = seed_figures().filter(pl.col("capacity") <= 2 * 1024 * 1024)
    out["seed_flushes"] = float(seed["flushes_per_s"].median())
    return out


# ---- words decided by the intervals (claims), never by two medians alone --------------------


def _estimate(metrics: pl.DataFrame, metric: str, **where: object) -> Estimate | None:
    """The median of one metric over the runs matching `where`, with the interval it lies
    in (stats.median_interval); None when no run matches."""
    rows = metrics.filter(pl.col("metric") == metric)
    for key, value in where.items():
        rows = rows.filter(pl.col(key) == value)
    values = [float(v) for v in rows["value"].drop_nulls().to_list() if v == v]
    if not values:
        return None
    lo, hi, level = stats.median_interval(values)
    return Estimate(float(pl.Series(values).median()), lo, hi, len(values), level)


def _best_estimate(metrics: pl.DataFrame, capacity: int, dsync: bool) -> tuple[Estimate | None, str]:
    """records/s of the fastest flush mode (by the median) at one capacity and O_DSYNC setting."""
    rows = metrics.filter(
        (pl.col("capacity") == capacity) & (pl.col("dsync") == dsync) & (pl.col("metric") == "records_per_s")
    )
    if rows.height == 0:
        return None, fmt.NA
    top = (
        rows.group_by("mode", "buffers").agg(pl.col("value").median()).sort("value", descending=True).row(0, named=True)
    )
    est = _estimate(rows, "records_per_s", mode=top["mode"], buffers=top["buffers"])
    return est, mode_name(top["mode"], top["buffers"])


def figure_words(estimate: Estimate | None, target: float | None = None, unit: str = "") -> str:
    """A figure for the prose, its unit before the brackets: '18,600 records per second
    (17,000–19,500, 3 runs)', with '; unstable: ±35 %' inside them where the interval stayed
    wider than ±`target`; n/a when not measured."""
    if estimate is None:
        return fmt.NA
    head = fmt.num(estimate.median) + (f" {unit}" if unit else "")
    if estimate.lo == estimate.hi == estimate.median:
        return f"{head} (1 run)" if estimate.runs <= 1 else f"{head} ({fmt.count(estimate.runs, 'run')}, all alike)"
    mark = stats.stability(estimate, target)
    inside = f"{fmt.span(estimate.lo, estimate.hi)}, {fmt.count(estimate.runs, 'run')}" + (f"; {mark}" if mark else "")
    return f"{head} ({inside})"


def sweep_figure(metrics: pl.DataFrame, capacity: int, dsync: bool, mode: str, target: float | None = None) -> str:
    """records/s of one flush mode at one capacity and O_DSYNC setting, as figure_words
    ('18,600 records per second (17,000–19,500, 3 runs)')."""
    est = _estimate(metrics, "records_per_s", capacity=capacity, dsync=dsync, mode=mode)
    return figure_words(est, target, "records per second")


def dsync_effect(c: claims.Comparison, *, short: bool = False, mode: str = BLOCKING, other: str = "without it") -> str:
    """What O_DSYNC did to a rate, to follow 'with O_DSYNC it ran ', for every outcome of
    claims.compare(with, without): slower, faster, about as fast, unclear, or not measured.
    `other` names the run without O_DSYNC ('without it'; 'the fastest without it, io_uring
    ×2' where that is another mode). Faster reads by `mode`, the flush mode of the run with
    O_DSYNC: for the blocking flush and double buffering O_DSYNC only adds a wait to each
    flush, so a gain may be the disk's drift; the deep mode also submits its flushes
    differently with O_DSYNC (a sealed flush may wait on the ring for others,
    native/src/memtable/flush_uring.cpp; with two buffers it never does), so there a gain
    may come from that batching as well as from drift. Neither cause is measured: both are
    worded as possibilities."""
    if not isinstance(c, claims.Comparison):
        raise TypeError(f"c must be a claims.Comparison, got {type(c).__name__}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if not other.strip():
        raise ValueError("other must name the run without O_DSYNC, got ''")
    if c.direction == claims.MISSING:
        named = "the run without it" if other == "without it" else other
        return f"not compared with {named}: one of the two could not run here"
    said = claims.versus(c, other, **claims.RATE_WORDS)
    if c.direction in (claims.UNCLEAR, claims.SAME_WORD) and c.ratio is not None:
        # no verdict turns on where this median lies against 1, so it needs no more than three digits
        said = said.replace(f"({fmt.factor(c.ratio)}×", f"({short_factor(c.ratio)}×", 1)
    if c.direction == claims.HIGHER:
        if mode == DEEP:
            said += (
                " (with O_DSYNC its flushes may also share a submission, so batching as well as the disk's drift "
                "may explain it)"
                if short
                else ", and with O_DSYNC its flushes may also share a submission (@sec-memtable-small), so a faster "
                "run can come from that batching as well as from the disk's drift; the sweep cannot tell which"
            )
        else:
            said += (
                " (O_DSYNC only adds a wait, so this may be the disk's drift between runs)"
                if short
                else ", although O_DSYNC only adds a wait to each flush: at this size that wait may have been smaller "
                "than how far this disk's speed moved between runs, which this sweep cannot tell apart"
            )
    return said


def dsync_words(metrics: pl.DataFrame, capacity: int, mode: str | None = None, *, short: bool = False) -> str:
    """dsync_effect of dsync_comparison at one capacity: of `mode`, or of the fastest mode of
    each setting when `mode` is None (a gain then read by the mode of the fastest run with
    O_DSYNC)."""
    c = dsync_comparison(metrics, capacity, mode)
    if mode is None:
        rows = metrics.filter(
            (pl.col("capacity") == capacity) & pl.col("dsync") & (pl.col("metric") == "records_per_s")
        )
        top = rows.group_by("mode").agg(pl.col("value").median()).sort("value", descending=True)
        mode = str(top["mode"][0]) if top.height and top["mode"][0] in MODES else BLOCKING
    return dsync_effect(c, short=short, mode=mode)


def dsync_comparison(metrics: pl.DataFrame, capacity: int, mode: str | None = None) -> claims.Comparison:
    """records/s with O_DSYNC against without, at one capacity: of `mode` (blocking,
    io_uring ×2, deep), or of the fastest mode of each setting when `mode` is None."""
    if mode is None:
        with_, _ = _best_estimate(metrics, capacity, True)
        without, _ = _best_estimate(metrics, capacity, False)
    else:
        with_ = _estimate(metrics, "records_per_s", capacity=capacity, dsync=True, mode=mode)
        without = _estimate(metrics, "records_per_s", capacity=capacity, dsync=False, mode=mode)
    return claims.compare(with_, without)


def fastest_dsync_words(metrics: pl.DataFrame, capacity: int, *, short: bool = True) -> str:
    """The mode with the highest median records/s with O_DSYNC against the one without it,
    at one capacity, as a clause with its subject: 'the fastest mode, io_uring ×2, ran 1.2×
    slower than without it' where one mode has the highest median in both settings, 'the
    fastest mode with O_DSYNC, io_uring ×8, ran 1.2× slower than the fastest without it,
    io_uring ×2' where they differ (the medians pick them; dsync_comparison compares them),
    and a reason where either setting could not run."""
    with_, with_mode = _best_estimate(metrics, capacity, True)
    without, plain_mode = _best_estimate(metrics, capacity, False)
    c = claims.compare(with_, without)
    if c.direction == claims.MISSING:
        return "the fastest modes were not compared: one of the two settings could not run here"
    rows = metrics.filter((pl.col("capacity") == capacity) & pl.col("dsync") & (pl.col("metric") == "records_per_s"))
    # the mode of the top row of _best_estimate, for dsync_effect's reading of a gain
    top = rows.group_by("mode", "buffers").agg(pl.col("value").median()).sort("value", descending=True)
    mode = str(top["mode"][0]) if top["mode"][0] in MODES else BLOCKING
    if with_mode == plain_mode:
        return f"the fastest mode, {with_mode}, ran {dsync_effect(c, short=short, mode=mode)}"
    other = f"the fastest without it, {plain_mode}"
    if c.direction == claims.HIGHER:  # two modes: the mode itself is a cause the disk's drift does not cover
        said = claims.versus(c, other, **claims.RATE_WORDS) + (
            " (two different modes, so the gain may come from the mode as well as from the disk's drift)"
        )
    else:
        said = dsync_effect(c, short=short, mode=mode, other=other)
    return f"the fastest mode with O_DSYNC, {with_mode}, ran {said}"


def dsync_summary(metrics: pl.DataFrame) -> str:
    """The closing section's sentence on O_DSYNC: what it cost the blocking writer and the
    fastest mode at the smallest capacity, and the fastest mode at the largest, each word
    from claims.compare (the fastest mode of each setting by the median, both named where
    they differ: fastest_dsync_words); the lead says where it cost, as the comparisons
    found, and which comparisons could not be made."""
    rows = metrics.filter(pl.col("metric") == "records_per_s")
    if rows.height == 0:
        return "O_DSYNC could not be measured here."
    caps = sorted(rows["capacity"].unique().to_list())
    small, large = caps[0], caps[-1]
    small_best, large_best = dsync_comparison(metrics, small), dsync_comparison(metrics, large)
    slower = [c.direction == claims.LOWER for c in (small_best, large_best)]
    missing = [c.direction == claims.MISSING for c in (small_best, large_best)]
    if all(slower):
        more_at_small = small_best.hi is not None and large_best.lo is not None and small_best.hi < large_best.lo
        lead = (
            "O_DSYNC cost the fastest mode most where flushes are small"
            if more_at_small
            else "O_DSYNC cost the fastest mode at both the smallest and the largest size"
        )
    elif all(missing):
        lead = "O_DSYNC could not be set against runs without it at either size"
    elif slower[0]:
        lead = "O_DSYNC cost the fastest mode where flushes are small, " + (
            "and could not be compared at the largest size" if missing[1] else "not clearly at the largest size"
        )
    elif slower[1]:
        lead = "O_DSYNC cost the fastest mode at the largest size, " + (
            "and could not be compared at the smallest" if missing[0] else "not clearly at the smallest"
        )
    elif any(missing):
        lead = "On this disk O_DSYNC did not clearly slow the fastest mode at the one size where both settings ran"
    else:
        lead = "On this disk O_DSYNC did not clearly slow the fastest mode"
    return (
        f"{lead}: at {fmt.size(small)} the blocking writer ran {dsync_words(metrics, small, BLOCKING, short=True)} "
        f"and {fastest_dsync_words(metrics, small)}; at {fmt.size(large)} {fastest_dsync_words(metrics, large)}."
    )


def blocking_gain(metrics: pl.DataFrame, obj: str) -> str:
    """The blocking writer at the largest capacity without O_DSYNC against the smallest
    (`obj`, e.g. 'with the small one'), in words from claims.compare; where either could
    not run, words that do not repeat `obj`."""
    rows = metrics.filter((pl.col("metric") == "records_per_s") & ~pl.col("dsync") & (pl.col("mode") == BLOCKING))
    if rows.height == 0:
        return "not compared, as the blocking writer could not run here"
    caps = sorted(rows["capacity"].unique().to_list())
    if len(caps) < 2:
        return "not compared, as the blocking writer ran at one size"
    large = _estimate(rows, "records_per_s", capacity=caps[-1])
    small = _estimate(rows, "records_per_s", capacity=caps[0])
    c = claims.compare(large, small)
    if c.direction == claims.MISSING:
        return "not compared, as one of the two sizes could not run here"
    return claims.versus(c, obj, **claims.RATE_WORDS)


def dsync_device_words(facts: dict) -> str:
    """What O_DSYNC asks of this disk: every segment write lands in new space (appended, or
    in preallocated blocks not yet written), so the file's metadata changes with it and
    the kernel ends the write as an fdatasync would; what that means for the disk's write
    cache comes from its measured mode (machine.write_cache_words)."""
    return (
        "Every segment write here lands in new space (appended, or in preallocated blocks not yet written), "
        "so it changes the file's metadata, and with O_DSYNC the kernel ends each write as an fdatasync "
        "would: it commits that metadata and asks the device to put the data where it survives a power cut. "
        f"This disk reports its write cache as {machine.write_cache_words(facts)}."
    )


def pin_comparison(metrics: pl.DataFrame, flush: str, obj: str) -> str:
    """'1.2× faster than <obj>' / 'about as fast as <obj> (0.99×)' / ...: the pinned writer
    of `flush` ('blocking' or 'uring') against its unpinned twin, from claims.compare."""
    pinned = _estimate(metrics, "records_per_s", variant=f"{flush}_pinned")
    unpinned = _estimate(metrics, "records_per_s", variant=f"{flush}_unpinned")
    return claims.versus(claims.compare(pinned, unpinned), obj, **claims.RATE_WORDS)


def depth_comparison(metrics: pl.DataFrame, obj: str) -> str:
    """The fastest buffer count with O_DSYNC (by the median) against one buffer (the
    blocking flush, `obj`), in words from claims.compare; where one buffer has the highest
    median, the next against it ('no buffer count beat …; the next, …, was …')."""
    rows = metrics.filter((pl.col("group") == "depth") & (pl.col("metric") == "records_per_s"))
    if rows.height == 0:
        return claims.versus(claims.compare(None, None), obj, **claims.RATE_WORDS)
    ranked = rows.group_by("variant").agg(pl.col("value").median()).sort("value", descending=True)
    top = ranked.row(0, named=True)
    one = _estimate(rows, "records_per_s", variant="depth_1")
    if top["variant"] == "depth_1":
        if ranked.height < 2:
            return f"no other buffer count ran, so none is compared with {obj}"
        second = ranked.row(1, named=True)["variant"]
        c = claims.compare(_estimate(rows, "records_per_s", variant=second), one)
        return f"no buffer count beat {obj}; the next, {variant_name(second)}, was " + claims.versus(
            c, obj, **claims.RATE_WORDS
        )
    best = _estimate(rows, "records_per_s", variant=top["variant"])
    return claims.versus(claims.compare(best, one), obj, **claims.RATE_WORDS)


def repeat_sentence(sweep: pl.DataFrame, variants: pl.DataFrame, capacity: int) -> str:
    """The same configuration measured by more than one experiment (the sweep's case at
    the variants' capacity, the unpinned writers, the durability table's 'no log'): which
    figures, and whether they differ (claims.compare of the lowest and highest)."""
    sources = {
        "blocking": [
            ("the sweep", sweep, {"capacity": capacity, "dsync": False, "mode": BLOCKING}),
            ("the pinning table's unpinned run", variants, {"variant": "blocking_unpinned"}),
        ],
        MODE_NAMES[DOUBLE]: [
            ("the sweep", sweep, {"capacity": capacity, "dsync": False, "mode": DOUBLE}),
            ("the pinning table's unpinned run", variants, {"variant": "uring_unpinned"}),
            ("the durability table's no-log run", variants, {"variant": NO_LOG}),
        ],
    }
    parts = []
    for mode, runs in sources.items():
        found = [
            (who, _estimate(frame, "records_per_s", **where), _records(frame, **where)) for who, frame, where in runs
        ]
        found = [(who, e, n) for who, e, n in found if e is not None]
        if len(found) < 2:
            continue
        shown = [f"{fmt.num(e.median)} records/s in {who}" for who, e, _ in found]
        # the figures' thousands separators are no commas between items: a plain list, never '; and'
        figures = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        same_work = len({n for _, _, n in found}) == 1
        words = _apart_words([(who, e) for who, e, _ in found], same_work=same_work)
        parts.append(f"the {fmt.size(capacity)} {mode} writer made {figures} ({words})")
    if not parts:
        return (
            f"The {fmt.size(capacity)} configurations that several experiments share could not run here, "
            "so their runs are not set side by side."
        )
    return (
        "One configuration, several experiments: " + "; ".join(parts) + ". That is why this page compares "
        "figures only within one table, between runs made close together, and quotes the sweep's figure "
        "for a capacity."
    )


def _records(metrics: pl.DataFrame, **where: object) -> tuple[int, ...]:
    """The records per run of the runs matching `where` (what a run wrote), as a sorted tuple."""
    rows = metrics
    for key, value in where.items():
        rows = rows.filter(pl.col(key) == value)
    if "records" not in rows.columns:
        return ()
    return tuple(sorted(int(r) for r in rows["records"].drop_nulls().unique().to_list()))


def _apart_words(found: list[tuple[str, Estimate]], *, same_work: bool = True) -> str:
    """How far apart the runs of one configuration in several experiments are: the same
    within their intervals, apart by the medians only, or apart (claims.compare of the
    highest and the lowest): with nothing changed but the moment when the runs wrote the
    same records (`same_work`), else with the moment and the run's length both changed."""
    low = min(found, key=lambda r: r[1].median)
    high = max(found, key=lambda r: r[1].median)
    c = claims.compare(high[1], low[1])
    if c.direction == claims.SAME_WORD:
        return "the same within their intervals"
    if c.direction == claims.UNCLEAR:
        if c.ratio <= claims.SAME:  # the medians within the factor that 'the same' allows (claims.SAME)
            return "alike by the medians, but with intervals too wide to call them the same"
        return f"{fmt.factor(c.ratio)}× apart by the medians, but their intervals overlap"
    if not same_work:
        return f"{fmt.factor(c.ratio)}× apart, at another moment and with runs of another length"
    return (
        f"{fmt.factor(c.ratio)}× apart with nothing changed but the moment they ran: "
        "this disk's speed moves from minute to minute"
    )


def depth_repeat_sentence(sweep: pl.DataFrame, variants: pl.DataFrame) -> str:
    """The depth experiment's cases that the O_DSYNC sweep also ran (the same capacity,
    records and buffer count: one buffer, two, and the sweep's deep count): both figures and
    whether they differ, so the page does not show two values for one case without a word."""
    rows = variants.filter((pl.col("group") == "depth") & (pl.col("metric") == "records_per_s"))
    if rows.height == 0:
        return "The buffer counts could not run here, so they are not set beside the sweep."
    capacity = int(rows["capacity"][0])
    parts = []
    for buffers in sorted({int(b) for b in rows["buffers"].unique().to_list()}):
        ours = _estimate(rows, "records_per_s", buffers=buffers)
        same = sweep.filter(
            (pl.col("capacity") == capacity) & pl.col("dsync") & (pl.col("buffers") == buffers)
            & (pl.col("metric") == "records_per_s")
        )  # fmt: skip
        if ours is None or same.height == 0:
            continue
        mode = str(same["mode"][0])
        there = _estimate(same, "records_per_s", mode=mode)
        if there is None:
            continue
        found = [("the sweep", there), ("this experiment", ours)]
        same_work = _records(same, mode=mode) == _records(rows, buffers=buffers)
        parts.append(
            f"{mode_name(mode, buffers)} made {fmt.num(there.median)} records/s in the sweep and "
            f"{fmt.num(ours.median)} here ({_apart_words(found, same_work=same_work)})"
        )
    if not parts:
        return "The sweep ran none of these buffer counts at this capacity, so no case has two figures."
    return (
        f"The O_DSYNC sweep ran some of the same cases at {fmt.size(capacity)}, at another moment: "
        + "; ".join(parts)
        + ". The buffer counts here ran close together in one experiment: compare them with each other, and "
        "quote the sweep's tables for a capacity's rate."
    )


def handoff_comparison(metrics: pl.DataFrame, obj: str) -> str:
    """Taking a record from the queue against framing and copying it (`obj`), per record,
    at the smallest breakdown capacity without O_DSYNC (claims.compare over the clocked runs)."""
    rows = metrics.filter(pl.col("counters") & ~pl.col("dsync"))
    handoff = copy = None
    if rows.height:
        small = int(rows["capacity"].min())
        handoff = _estimate(rows, "t_handoff", capacity=small)
        copy = _estimate(rows, "t_copy", capacity=small)
    c = claims.compare(handoff, copy)
    if c.direction == claims.MISSING:
        return f"a time not measured here, so it is not compared with {obj}"
    return claims.versus(c, obj, more="more", less="less", same="about as much as")


def variant_numbers(metrics: pl.DataFrame) -> dict[str, object]:
    """The figures the variants' prose quotes."""

    def rate(variant: str) -> float | None:
        return _median(metrics, "records_per_s", variant=variant)

    out: dict[str, object] = {
        "unpinned_blocking": rate("blocking_unpinned"),
        "pinned_blocking": rate("blocking_pinned"),
        "unpinned_uring": rate("uring_unpinned"),
        "pinned_uring": rate("uring_pinned"),
        "depth_blocking": rate("depth_1"),
        "depth_double": rate("depth_2"),
        "plain_rate": rate(NO_LOG),
        "wal_rate": rate(LOG),
        "plain_p50": _median(metrics, "p50", variant=NO_LOG),
        "plain_mean": _median(metrics, "mean", variant=NO_LOG),  # per run; Little's law needs the mean
        "wal_p50": _median(metrics, "p50", variant=LOG),
        "wal_batch": _median(metrics, "records_per_sync", variant=LOG),
    }
    depth = metrics.filter((pl.col("group") == "depth") & (pl.col("metric") == "records_per_s"))
    if depth.height:
        top = depth.group_by("variant").agg(pl.col("value").median()).sort("value", descending=True).row(0, named=True)
        out["depth_best"], out["depth_best_label"] = top["value"], variant_name(top["variant"])
    else:
        out["depth_best"], out["depth_best_label"] = None, "n/a"
    pin = stats.summarize(metrics.filter(pl.col("group") == "pinning"), ["variant"]).filter(
        pl.col("metric") == "records_per_s"
    )
    worst = pin["spread"].max() if pin.height else None
    out["pin_sentence"] = (
        f"Between repetitions of the same variant, the slowest and fastest run differed by up to "
        f"{fmt.ratio(worst)}; the words above call one variant faster than another only where the "
        "intervals of their medians do not overlap."
        if worst
        else "The pinning variants could not run here."
    )
    return out


def fio_sentence(metrics: pl.DataFrame) -> str:
    """Ours against fio per case, each verdict from claims.crosscheck on the interval of the
    per-round ratios (runs made one after the other): agrees, slower, faster, inconclusive;
    a case whose rounds give that interval less than 95 % confidence counts as a leaning
    (as the table's verdict column), grouped apart from the clear verdicts, and the caveat
    gives each round count's interval and confidence (_rounds_caveat)."""
    rows = metrics.filter(pl.col("metric") == "mb_per_s")
    segments = "segment_bytes" in rows.columns and rows["segment_bytes"].n_unique() > 1
    by = ["capacity", "dsync", "mode", "buffers", *(["segment_bytes"] if segments else [])]
    if rows.height == 0 or not {"howfast", "fio"} <= set(rows["tool"].unique().to_list()):
        why = charts.reasons(metrics.filter(pl.col("tool") == "fio"))
        return f"fio could not run here ({why or 'no result'}), so there is no cross-check."
    ratios = round_ratios(rows, by, "mb_per_s", theirs="fio")
    kinds = ["agrees", "ours lower", "ours higher", "leans to agree", "leans lower", "leans higher", "inconclusive"]
    groups: dict[str, list[str]] = {k: [] for k in kinds}
    for key, part in ratios.sort(*by).group_by(by, maintain_order=True):
        capacity, dsync, mode, buffers = key[:4]
        verdict = claims.crosscheck(ratio_estimate(part["r"].to_list()))
        r = verdict.ratio
        case = f"{mode_name(mode, buffers)} at {fmt.size(capacity)}{' with O_DSYNC' if dsync else ''}"
        if segments:
            case += f" in {_segment_of(rows, capacity, buffers, key[4])} segments"
        outcome = verdict.outcome
        if stats.interval_ranks(part.height)[1] < stats.CONFIDENCE:
            outcome = LEANING_VERDICTS.get(outcome, outcome)
        groups[outcome].append(f"{case} ({short_factor(r.median)}×)")
    total = sum(len(v) for v in groups.values())
    band = f"{fmt.num(claims.AGREES[0])}–{fmt.ratio(claims.AGREES[1])}"
    lead = {
        "agrees": f"agreed with fio, the interval within {band}",
        "ours lower": "were clearly slower than fio, the interval wholly below 1",
        "ours higher": "were clearly faster than fio, the interval wholly above 1",
        "leans to agree": f"leaned towards agreement with fio, the interval within {band}",
        "leans lower": "leaned slower than fio, the interval below 1",
        "leans higher": "leaned faster than fio, the interval above 1",
        "inconclusive": "were inconclusive, the interval including 1 and leaving the band",
    }
    parts = [
        f"{fmt.count(len(v), 'case')} {lead[k] if len(v) > 1 else lead[k].replace('were ', 'was ', 1)}"
        + ("" if k == "inconclusive" else f": {', '.join(v)}")
        for k, v in groups.items()
        if v
    ]
    counts = ratios.group_by(by).len()["len"].to_list()
    caveat = _rounds_caveat(counts)
    faster = (
        ""
        if not groups["ours higher"] and not groups["leans higher"]
        else " For the same bytes the memtable does strictly more work than fio (it copies every record into its "
        "buffer and indexes it before the flush), so "
        + ("a clearly faster verdict" if groups["ours higher"] else "a leaning towards faster")
        + " may point at this disk's speed drifting "
        "between the alternated runs, or at a difference in how the two submit their writes; these runs cannot "
        "separate the two."
    )
    return (
        f"Against fio at the same block size and depth (the verdict column reads the interval of the median of "
        f"each case's per-round ratios), of {fmt.count(total, 'case')}, "
        + "; ".join(parts)
        + "."
        + caveat
        + faster
        + fio_depth_words(metrics)
    )


def _rank_words(k: int) -> str:
    """'the lowest ratio to the highest' (k = 1), 'the 2nd lowest ratio to the 2nd highest'."""
    if k == 1:
        return "the lowest ratio to the highest"
    nth = f"{k}{'nd' if k == 2 else 'rd' if k == 3 else 'th'}"
    return f"the {nth} lowest ratio to the {nth} highest"


def _rounds_caveat(counts: list[int]) -> str:
    """After fio_sentence: per round count of its cases, which ratios bound each interval and
    the confidence they give the median (stats.interval_ranks); empty where every count
    reaches 95 %, for the verdicts are then findings and the table's caption says so."""
    if not counts or any(not isinstance(k, int) or k < 1 for k in counts):
        raise ValueError(f"counts are round counts of 1 or more, got {counts!r}")
    levels = {k: stats.interval_ranks(k) for k in sorted(set(counts))}
    if all(level >= stats.CONFIDENCE for _, level in levels.values()):
        return ""
    sure = fmt.num(100 * stats.CONFIDENCE)
    words = []
    for k, (rank, level) in levels.items():
        held = f"holds the median with {fmt.num(100 * level, 2)} % confidence"
        if level < stats.CONFIDENCE:
            held += f", not {sure} %, so those verdicts are leanings"
        if len(levels) == 1:
            words.append(f"with {k} rounds per case, each interval is {_rank_words(rank)}, which {held}")
        else:
            cases = fmt.count(counts.count(k), "case")
            words.append(f"with {fmt.count(k, 'round')} ({cases}), each interval is {_rank_words(rank)}, which {held}")
    text = "; ".join(words)
    return " " + text[0].upper() + text[1:] + "."


def _segment_of(rows: pl.DataFrame, capacity: int, buffers: int, segment: int) -> str:
    """The size of our segment files in a fio cross-check case, as the fio table's segment
    column gives it (segment_label: larger than set where the buffers need it); the size
    set where the runs stored no length."""
    ours = rows.filter(
        (pl.col("tool") == "howfast")
        & (pl.col("capacity") == capacity)
        & (pl.col("buffers") == buffers)
        & (pl.col("segment_bytes") == segment)
    )
    if ours.height == 0 or not {"records", "record_size"} <= set(ours.columns):
        return fmt.size(segment)
    run = int(ours["records"][0]) * int(ours["record_size"][0])
    size = file_bytes(int(capacity), int(buffers), run, int(segment))
    return fmt.size(max(size, int(segment)))


def fio_depth_limited(metrics: pl.DataFrame) -> list[dict]:
    """The fio cross-check's cases where fio with several writes in flight (io_uring at its
    iodepth) was not clearly faster than fio with one at a time (psync) at the same block
    size and O_DSYNC setting (claims.compare of the two MB/s intervals: lower, the same or
    unclear): there fio's deeper job, not the disk, may set fio's figure. Each a dict of
    capacity, dsync, buffers, the direction (claims.compare's), and the
    two estimates (deep, one), as the fio table's rows give them: both from the rows of one
    segment size (ours; fio writes one file in every row), and a deep row without a depth-1
    row of its segment size is left out."""
    rows = metrics.filter((pl.col("tool") == "fio") & (pl.col("metric") == "mb_per_s"))
    if rows.height == 0:
        return []
    keys = ["capacity", "dsync", *(["segment_bytes"] if "segment_bytes" in rows.columns else [])]
    found = []
    for key in rows.filter(pl.col("buffers") > 1).select(*keys, "buffers").unique().sort(keys).iter_rows(named=True):
        at = rows
        for k in keys:
            at = at.filter(pl.col(k) == key[k])
        deep, single = at.filter(pl.col("buffers") == key["buffers"]), at.filter(pl.col("buffers") == 1)
        a = _values_estimate(deep["value"].to_list())
        b = _values_estimate(single["value"].to_list())
        if a is None or b is None:
            continue
        c = claims.compare(a, b)
        if c.direction != claims.HIGHER:
            found.append({**key, "direction": c.direction, "deep": a, "one": b})
    return found


def fio_job_name(capacity: int, buffers: int, dsync: bool = False) -> str:
    """fio's own job in the cross-check, named by what fio ran: '1 MiB blocks at iodepth 32
    (io_uring)' or '1 MiB blocks one at a time (psync)', with O_DSYNC where set."""
    if not isinstance(capacity, int) or isinstance(capacity, bool) or capacity < 1:
        raise ValueError(f"capacity must be a positive whole number of bytes, got {capacity!r}")
    if not isinstance(buffers, int) or isinstance(buffers, bool) or buffers < 1:
        raise ValueError(f"buffers must be a positive whole number, got {buffers!r}")
    how = "one at a time (psync)" if buffers == 1 else f"at iodepth {buffers} (io_uring)"
    return f"{fmt.size(capacity)} blocks {how}" + (" with O_DSYNC" if dsync else "")


def fio_depth_words(metrics: pl.DataFrame) -> str:
    """' fio with several writes in flight … was not clearly faster than fio one write at a
    time … at 1 MiB at iodepth 32 (1,660 against 1,900 MB/s by the medians), …': the cases of
    fio_depth_limited (those clearly slower said so), and as a possibility what follows: fio's
    deep job, not the disk, may limit fio's figure there, so ours above fio need not be ours
    above the disk; '' where fio's deeper job was clearly faster at every block size."""
    found = fio_depth_limited(metrics)
    if not found:
        return ""
    cases = [
        f"{fmt.size(int(f['capacity']))}{' with O_DSYNC' if f['dsync'] else ''} at iodepth {int(f['buffers'])} "
        f"({fmt.num(f['deep'].median)} against {fmt.num(f['one'].median)} MB/s by the medians"
        + ("; clearly slower" if f["direction"] == claims.LOWER else "")
        + ")"
        for f in found
    ]
    return (
        " fio with several writes in flight (io_uring at the iodepth of our buffer count) was not clearly faster "
        "than fio one write at a time (psync) with the same blocks at "
        + fmt.listed(cases)
        + ". More writes in flight should let a disk go at least as fast, so at those sizes fio's deep job, not "
        "the disk, may be what limits fio's figure, and ours above fio there need not mean ours above what the "
        "disk can take."
    )


def fio_steadiness(metrics: pl.DataFrame) -> str:
    """How far the same fio job moved between repetitions (the job with the widest spread,
    named by its size, mode and depth): the noise floor of the comparison; unsteady only
    where that spread (max/min) exceeds stats.WIDE_SPREAD."""
    rows = metrics.filter((pl.col("tool") == "fio") & (pl.col("metric") == "mb_per_s"))
    if rows.height == 0:
        why = charts.reasons(metrics.filter(pl.col("tool") == "fio"))
        return f"fio could not run here ({why or 'no result'}), so how steady the disk is went unmeasured."
    spread = stats.summarize(rows, ["capacity", "dsync", "mode", "buffers"]).filter(pl.col("repetitions") > 1)
    if spread.height == 0:
        return "Each fio job ran once, so how steady the disk is went unmeasured."
    worst = spread.sort("spread").row(-1, named=True)
    depth = int(worst["buffers"])
    job = (
        f"{fmt.size(worst['capacity'])} writes{' with O_DSYNC' if worst['dsync'] else ''}, as "
        f"{mode_name(worst['mode'], depth)}, {fmt.count(depth, 'write')} in flight at most"
    )
    moved = (
        f"ran between {fmt.num(worst['min'])} and {fmt.num(worst['max'])} MB/s from one repetition to the next, "
        f"{fmt.ratio(worst['spread'])} apart"
    )
    if worst["spread"] > stats.WIDE_SPREAD:
        return (
            f"The disk itself is not steady: the same fio job ({job}) {moved}, more than the "
            f"{fmt.ratio(stats.WIDE_SPREAD)} this book calls a wide spread, so one pair of runs says little on its own."
        )
    return (
        f"The disk was fairly steady here: the fio job that moved most between repetitions ({job}) {moved}, "
        f"within the {fmt.ratio(stats.WIDE_SPREAD)} this book calls a wide spread; still, a pair of runs can "
        "differ by that much."
    )


def plateau_sentence(metrics: pl.DataFrame, profile: str = "") -> str:
    """Where the fastest mode's MB/s without O_DSYNC stops growing with the capacity, read
    by claims.curve from each capacity's interval: still rising (pointing to the full
    profile unless `profile` is 'full'), levels off, none clearly above the smallest (and
    which sizes were clearly below it), or collapses."""
    rows = metrics.filter((pl.col("metric") == "mb_per_s") & ~pl.col("dsync"))
    if rows.height == 0:
        return "The sweep could not run here."
    points, names = [], []
    for cap in sorted(rows["capacity"].unique().to_list()):
        at = rows.filter(pl.col("capacity") == cap)
        top = (
            at.group_by("mode", "buffers")
            .agg(pl.col("value").median())
            .sort("value", descending=True)
            .row(0, named=True)
        )
        est = _estimate(at, "mb_per_s", mode=top["mode"], buffers=top["buffers"])
        if est is not None:
            points.append((cap, est))
            names.append(mode_name(top["mode"], top["buffers"]))
    shape = claims.curve(points)
    return _plateau_words(shape, points, profile) + fastest_modes_words(
        [(x, name) for (x, _), name in zip(points, names)]
    )


def fastest_modes_words(fastest: list[tuple[int, str]]) -> str:
    """' The fastest mode (by the median) was io_uring ×32 at 64 KiB to 1 MiB, io_uring ×8 at
    4 MiB and io_uring ×2 at 1 GiB.': which mode the plateau sentence read at each capacity,
    one run of capacities per mode, where it changes; one phrase where it is the same mode at
    every capacity; '' without capacities."""
    if not fastest:
        return ""
    spans: list[tuple[int, int, str]] = []
    for cap, name in fastest:
        if spans and spans[-1][2] == name:
            spans[-1] = (spans[-1][0], cap, name)
        else:
            spans.append((cap, cap, name))
    if len(spans) == 1:
        return f" The fastest mode (by the median) was {spans[0][2]} at every capacity."

    def where(a: int, b: int) -> str:
        return f"at {fmt.size(a)}" if a == b else f"from {fmt.size(a)} to {fmt.size(b)}"

    return (
        " The fastest mode (by the median), whose curve these words read, changes with the capacity: "
        + fmt.listed([f"{name} {where(a, b)}" for a, b, name in spans])
        + "."
    )


def _plateau_words(shape: claims.Shape, points: list[tuple[int, Estimate]], profile: str) -> str:
    if shape.kind == "rising":
        further = "" if profile.split("+")[0] == "full" else "; the full profile goes further"
        return (
            f"Without O_DSYNC, the fastest mode's throughput was still rising at the largest capacity measured, "
            f"{fmt.size(points[-1][0])}{further}."
        )
    if shape.kind == "knee":
        gain = round(claims.FLAT_GAIN * 100)
        first_x, first = points[0]
        knee = next(e for x, e in points if x == shape.x)
        if claims.compare(knee, first).direction != claims.HIGHER:
            # 'near its ceiling at the smallest size' only if no later point is clearly more than
            # FLAT_GAIN above the first one (curve reads the knee against later points only)
            gained = [fmt.size(x) for x, e in points[1:] if e.lo > first.hi * (1 + claims.FLAT_GAIN)]
            if gained:
                return (
                    f"Without O_DSYNC, the fastest mode ran clearly more than {gain} % faster than at the "
                    f"smallest size, {fmt.size(first_x)}, at {fmt.listed(gained)} (the interval of its median "
                    f"wholly above that margin), so it was not near its ceiling there; yet {fmt.size(shape.x)} "
                    f"was not clearly faster than {fmt.size(first_x)}, and no larger capacity was clearly more "
                    f"than {gain} % faster than {fmt.size(shape.x)}, whose interval is wide. So this sweep "
                    "cannot place where a larger memtable stops paying."
                )
            above = [fmt.size(x) for x, e in points[1:] if claims.compare(e, first).direction == claims.HIGHER]
            return (
                "Without O_DSYNC, the fastest mode was already near its ceiling at the smallest size, "
                f"{fmt.size(first_x)}: {fmt.size(shape.x)} was not clearly faster, and from there no larger "
                f"capacity was clearly more than {gain} % faster (the interval of its median wholly above that "
                "margin), so a larger memtable buys little"
                + (
                    f" (at {fmt.listed(above)} its interval did lie wholly above the smallest size's, but none was "
                    f"clearly more than {gain} % above {fmt.size(shape.x)})"
                    if above
                    else ""
                )
                + "."
            )
        return (
            f"Without O_DSYNC, the fastest mode's throughput levels off from {fmt.size(shape.x)}: no larger "
            f"capacity was clearly more than {gain} % faster (the interval of its median wholly above that "
            "margin), so past that point a larger memtable buys little."
        )
    if shape.kind == "flat":
        first = points[0][1]
        slower = [fmt.size(x) for x, e in points[1:] if claims.compare(e, first).direction == claims.LOWER]
        return (
            "Without O_DSYNC, no capacity's fastest mode was clearly faster than at the smallest, "
            f"{fmt.size(points[0][0])}: none had an interval wholly above its own"
            + (f" (at {fmt.listed(slower)} it was clearly slower)" if slower else "")
            + "."
        )
    if shape.kind == "collapse":
        return (
            f"Without O_DSYNC, the fastest mode's throughput peaked at {fmt.size(shape.peak_x)} and fell below "
            f"half of that at {fmt.size(shape.x)}."
        )
    return "The sweep has too few capacities to tell how throughput grows with them."


def seed_flush_rates(limit: int = 2 * 1024 * 1024) -> dict[str, float]:
    """The seed's median flushes per second at capacities up to `limit`, without and with O_DSYNC."""
    seed = seed_figures().filter(pl.col("capacity") <= limit)
    return {
        "limit": limit,
        "plain": float(seed.filter(~pl.col("dsync"))["flushes_per_s"].median()),
        "dsync": float(seed.filter(pl.col("dsync"))["flushes_per_s"].median()),
    }


def seed_flush_words(limit: int = 2 * 1024 * 1024) -> str:
    """The seed's flushes per second at every capacity up to `limit`, without and with
    O_DSYNC, as the range of its printed figures (one run each), so the prose says how
    alike they were rather than one rate for all sizes."""
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"limit must be a positive whole number of bytes, got {limit!r}")
    seed = seed_figures().filter(pl.col("capacity") <= limit)
    if seed.height == 0:
        return f"The seed measured no capacity up to {fmt.size(limit)}."
    caps = sorted(seed["capacity"].unique().to_list())

    def spread(dsync: bool) -> str:
        v = seed.filter(pl.col("dsync") == dsync)["flushes_per_s"]
        return fmt.NA if v.len() == 0 else fmt.span(float(v.min()), float(v.max()))

    steady = all(
        part.len() > 0 and float(part.max()) <= claims.SAME * float(part.min())
        for part in (seed.filter(pl.col("dsync") == d)["flushes_per_s"] for d in (False, True))
    )
    words = (
        f"each setting's figures lie within {fmt.factor(claims.SAME)}× of each other, so up to there its flush "
        "rate hardly moved with the size"
        if steady
        else "its flush rate moved with the size"
    )
    return (
        f"The seed's own machine flushed {spread(False)} times per second without O_DSYNC and {spread(True)} with "
        f"it at each capacity from {fmt.size(caps[0])} to {fmt.size(caps[-1])} (its printed figures, one run each): "
        f"{words}."
    )


def seed_converge_words() -> str:
    """How close the seed's O_DSYNC rate came to its rate without O_DSYNC at its smallest
    and its largest capacity (its own printed figures, one run each)."""
    seed = seed_figures()
    caps = sorted(seed["capacity"].unique().to_list())

    def kept(cap: int) -> float:
        at = seed.filter(pl.col("capacity") == cap)
        return float(at.filter(pl.col("dsync"))["records_per_s"][0] / at.filter(~pl.col("dsync"))["records_per_s"][0])

    small, large = kept(caps[0]), kept(caps[-1])
    verb = "converge" if large > small else "do not converge"
    return (
        f"{verb}: with O_DSYNC its memtable kept {fmt.share(small, 2)} of its rate at {fmt.size(caps[0])} "
        f"and {fmt.share(large, 2)} at {fmt.size(caps[-1])}"
    )


#: Producer goroutines in the seed's sweep (its benchmark source; plan.py notes it too).
SEED_PRODUCERS = 8


def seed_setup() -> dict[str, object]:
    """How the seed's sweep ran, from its stored lines (data/reference/memtable.csv):
    GOMAXPROCS, whether its writer goroutine was locked to an OS thread (``pinned``), and
    its producer goroutines."""
    raw = reference.load("memtable").filter(pl.col("table") == "raw_stats")
    procs = raw["gomaxprocs"].drop_nulls() if "gomaxprocs" in raw.columns else pl.Series([], dtype=pl.Int64)
    pinned = raw["pinned"].drop_nulls() if "pinned" in raw.columns else pl.Series([], dtype=pl.Boolean)
    return {
        "gomaxprocs": int(procs.max()) if procs.len() else None,
        "locked": bool(pinned.cast(pl.String).str.to_lowercase().eq("true").all()) if pinned.len() else None,
        "producers": SEED_PRODUCERS,
    }


def seed_setup_words(producers: int, cpus: int) -> str:
    """What differs in how the two sweeps ran, besides the machine: the seed's producer
    goroutines, GOMAXPROCS and its writer locked to an OS thread, against our `producers`
    threads on `cpus` logical CPUs."""
    for name, value in (("producers", producers), ("cpus", cpus)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    seed = seed_setup()
    procs = f" with GOMAXPROCS={seed['gomaxprocs']}" if seed["gomaxprocs"] else ""
    locked = " and its writer goroutine locked to one OS thread (LockOSThread)" if seed["locked"] else ""
    return (
        f"the seed's sweep ran {seed['producers']} producer goroutines{procs}{locked}, ours "
        f"{fmt.count(producers, 'producer thread')} on {fmt.count(cpus, 'logical CPU')}"
    )


def seed_small_words(metrics: pl.DataFrame, producers: int, cpus: int) -> str:
    """At the smallest capacity without O_DSYNC, the blocking writer's flushes per second
    on the seed's disk (its printed figure) and on this one (the median with its interval),
    each with the time per flush it means, and no ratio of the two: the language, the disk
    and the producers (seed_setup_words, with our `producers` threads on `cpus` CPUs) differ
    besides the machine."""
    rows = metrics.filter(pl.col("metric") == "records_per_s")
    if rows.height == 0:
        return "This machine's sweep could not run, so it is not set beside the seed's."
    small = int(rows["capacity"].min())
    seed = seed_figures().filter((pl.col("capacity") == small) & ~pl.col("dsync"))
    if seed.height == 0:
        return f"The seed did not measure {fmt.size(small)}, so the smallest memtables are not set side by side."
    theirs = float(seed["flushes_per_s"][0])
    head = (
        f"At {fmt.size(small)}, the seed's blocking writer flushed "
        f"{fmt.num(theirs)} times per second on its disk (its printed figure: about "
        f"{fmt.duration_us(1e6 / theirs)} a flush)"
    )
    ours = _estimate(metrics, "flushes_per_s", capacity=small, dsync=False, mode=BLOCKING)
    if ours is None or ours.lo <= 0:
        return head + f"; this machine's blocking writer did not run at {fmt.size(small)}."
    per_flush = time_per_op(ours, 1)
    return (
        head + f", this machine's {figure_words(ours, None, 'flushes per second')}: about "
        f"{fmt.duration_us(per_flush.median)} a flush. Two figures, not a ratio: the language (Go there, C++ "
        f"here) and the disk differ as well as the machine, and {seed_setup_words(producers, cpus)}."
    )


def best_mode_sentence(metrics: pl.DataFrame, capacity: int, dsync: bool, target: float | None = None) -> str:
    """The fastest flush mode at one capacity and O_DSYNC setting by the median, its figure
    with the interval, and whether it is ahead of every other mode by the intervals or only
    by the medians (claims.compare against the runner-up)."""
    rows = metrics.filter(
        (pl.col("capacity") == capacity) & (pl.col("dsync") == dsync) & (pl.col("metric") == "records_per_s")
    )
    setting = "with O_DSYNC" if dsync else "without O_DSYNC"
    if rows.height == 0:
        return f"No flush mode could run at {fmt.size(capacity)} {setting} here."
    ranked = rows.group_by("mode", "buffers").agg(pl.col("value").median()).sort("value", descending=True)
    ests = [(mode_name(m, b), _estimate(rows, "records_per_s", mode=m, buffers=b)) for m, b, _ in ranked.iter_rows()]
    (name, best), rest = ests[0], ests[1:]
    text = f"The fastest mode at {fmt.size(capacity)} {setting}, {name}, made " + figure_words(
        best, target, "durable records per second" if dsync else "records per second"
    )
    if not rest:
        return text + ", the only mode that ran."
    second_name, second = rest[0]
    c = claims.compare(best, second)
    if c.direction == claims.HIGHER:
        return text + f", {claims.versus(c, f'the next, {second_name}', **claims.RATE_WORDS)}."
    return text + f", ahead of {second_name} only by the medians: their intervals overlap."


def _peak_summary(metrics: pl.DataFrame) -> pl.DataFrame | None:
    """The sweep's cases by median MB/s, highest first; None without any."""
    rows = metrics.filter(pl.col("metric") == "mb_per_s")
    if rows.height == 0:
        return None
    by = ["capacity", "dsync", "mode", "buffers"]
    return _summary(rows, by).filter(pl.col("metric") == "mb_per_s").sort("median", descending=True)


def _peak_row(metrics: pl.DataFrame) -> dict | None:
    """The sweep's case with the highest median MB/s (its summary row); None without any."""
    summary = _peak_summary(metrics)
    return None if summary is None else summary.row(0, named=True)


def peak(metrics: pl.DataFrame) -> tuple[Estimate | None, str, list[str]]:
    """The sweep's case with the highest median MB/s: its figure, its name ('io_uring ×8
    at 4 MiB', ' with O_DSYNC' where so), and the names of the other cases whose intervals
    reach into its own (not clearly slower); where the top has O_DSYNC, a rival without it
    says so ('io_uring ×8 at 4 MiB without O_DSYNC'), lest it read as the top's own name."""
    summary = _peak_summary(metrics)
    if summary is None:
        return None, fmt.NA, []

    def name(row: dict, plain: str = "") -> str:
        return f"{mode_name(row['mode'], row['buffers'])} at {fmt.size(row['capacity'])}" + (
            " with O_DSYNC" if row["dsync"] else plain
        )

    top = summary.row(0, named=True)
    plain = " without O_DSYNC" if top["dsync"] else ""
    rivals = [name(r, plain) for r in summary.slice(1).iter_rows(named=True) if r["hi"] >= top["lo"]]
    return Estimate.from_row(top), name(top), rivals


def peak_sentence(metrics: pl.DataFrame, target: float | None = None) -> str:
    """The sweep's case with the highest median MB/s, in records/s with its interval (MB/s
    in the brackets: peak_rate_words), and whether it is the top by its interval or only by
    the medians (other cases' MB/s intervals reaching it); where the top case has O_DSYNC
    and is clear of every other case, what may explain it, by its mode (as dsync_effect)."""
    est, name, rivals = peak(metrics)
    if est is None:
        return "The sweep could not run here, so it has no fastest case."
    text = f"The sweep's highest median throughput was that of {name}, {peak_rate_words(metrics, target)}"
    if not rivals:
        text += ", clearly above every other case."
    else:
        shown = ", ".join(rivals[:3]) + (f" and {len(rivals) - 3} more" if len(rivals) > 3 else "")
        text += (
            f", but only by the medians: the intervals of {fmt.count(len(rivals), 'other case')} reach into its "
            f"own ({shown}), so they are not clearly slower."
        )
    top = _peak_row(metrics)
    if top is not None and top["dsync"] and not rivals:  # only a top clear of every other case needs a reason
        if top["mode"] == DEEP:
            text += (
                " With O_DSYNC the deep mode's flushes may also share a submission (@sec-memtable-small), so a case "
                "with it at the top can come from that batching as well as from how far this disk's speed moved "
                "between runs; the sweep cannot tell which."
            )
        else:
            text += (
                " O_DSYNC only adds a wait to each flush, so a case with it at the top may show how far this "
                "disk's speed moved between runs rather than a gain from O_DSYNC; the sweep cannot tell which."
            )
    return text


def _fio_peak_name(metrics: pl.DataFrame) -> str:
    """fio's fastest case by the median, by fio's own job and the mode it ran beside: '4 MiB
    blocks at iodepth 8 (io_uring) with O_DSYNC beside our io_uring ×8'."""
    rows = metrics.filter((pl.col("tool") == "fio") & (pl.col("metric") == "mb_per_s"))
    by = ["capacity", "dsync", "mode", "buffers", *(["segment_bytes"] if "segment_bytes" in rows.columns else [])]
    top = rows.group_by(by).agg(pl.col("value").median()).sort("value").row(-1, named=True)
    segments = "segment_bytes" in rows.columns and rows["segment_bytes"].n_unique() > 1
    return (
        f"{fio_job_name(int(top['capacity']), int(top['buffers']), bool(top['dsync']))} beside our "
        f"{mode_name(top['mode'], top['buffers'])}"
        + (
            f" in {_segment_of(metrics, top['capacity'], top['buffers'], top['segment_bytes'])} segments"
            if segments
            else ""
        )
    )


def peak_rate_words(metrics: pl.DataFrame, target: float | None = None) -> str:
    """The sweep's case with the highest median MB/s in the tables' unit: its records/s with
    the interval and runs, and its MB/s at the median inside the brackets ('18,600 records
    per second (17,000–19,500, 3 runs; 305 MB/s at the median)'); n/a without it."""
    top = _peak_row(metrics)
    if top is None:
        return fmt.NA
    where = {k: top[k] for k in ("capacity", "dsync", "mode", "buffers")}
    rate = _estimate(metrics, "records_per_s", **where)
    if rate is None:
        return f"{fmt.num(top['median'])} MB/s at the median"
    return figure_words(rate, target, "records per second")[:-1] + f"; {fmt.num(top['median'])} MB/s at the median)"


def bandwidth_words(sweep: pl.DataFrame, fio_runs: pl.DataFrame, target: float | None = None) -> str:
    """The RocksDB section's comparison with this page's own writes on the same disk: the
    sweep's case with the highest median MB/s and fio's fastest case, each named (its mode
    gives its writes in flight) and with its interval; a reason for each that could not run."""
    ours, name, _ = peak(sweep)
    theirs = fio_peak(fio_runs)
    if ours is None and theirs is None:
        return "Neither the memtable sweep nor fio could run here, so neither is set beside it."
    parts = [
        f"the memtable sweep's highest median on the same disk was {figure_words(ours, target, 'MB/s')}, {name}"
        if ours is not None
        else "the memtable sweep could not run here",
        f"fio's fastest job in the fio table above, {_fio_peak_name(fio_runs)}, wrote "
        f"{figure_words(theirs, target, 'MB/s')}"
        if theirs is not None
        else "fio could not run here",
    ]
    text = ", and ".join(parts) + "."
    if theirs is not None:
        text += " Neither need be the most this disk can take: fio's figure is what its jobs reached, and " + (
            "in some rows of the fio table fio with several writes in flight was not clearly faster than one "
            "at a time, where its deep job, not the disk, may have been the limit."
            if fio_depth_limited(fio_runs)
            else "the disk may take more with other jobs."
        )
    return text[0].upper() + text[1:]


def fio_pattern_estimate(fio_runs: pl.DataFrame, capacity: int = 1024 * 1024) -> Estimate | None:
    """fio's MB/s in the fio table for one stream of `capacity` O_DIRECT writes, one at a
    time (its blocking row without O_DSYNC; the chapter's segment size where the rows have
    several), with the interval of the median; None where fio did not run it."""
    if not isinstance(capacity, int) or isinstance(capacity, bool) or capacity < 1:
        raise ValueError(f"capacity must be a positive whole number, got {capacity!r}")
    if not {"tool", "capacity", "dsync", "mode", "metric"} <= set(fio_runs.columns):
        return None
    rows = fio_runs.filter(
        (pl.col("tool") == "fio")
        & (pl.col("capacity") == capacity)
        & ~pl.col("dsync")
        & (pl.col("mode") == BLOCKING)
        & (pl.col("metric") == "mb_per_s")
    )
    if "segment_bytes" in rows.columns and rows.height:
        rows = rows.filter(pl.col("segment_bytes") == rows["segment_bytes"].max())
    return _values_estimate(rows["value"].to_list()) if rows.height else None


def disk_pattern_words(
    disk: Estimate | None, fio_runs: pl.DataFrame, target: float | None = None, *, direct: bool = True
) -> str:
    """The RocksDB section's disk figure (`disk`: its own runs of one stream of 1 MiB
    O_DIRECT writes) beside the fio table's blocking 1 MiB row without O_DSYNC, the same
    pattern measured at another moment (claims.versus of the two intervals), and which one
    the section quotes and why; a reason where either did not run. `direct` is whether the
    section's runs wrote with O_DIRECT (rocksdb report's ``disk_direct``): where they fell
    back to buffered writes with an fdatasync after each block, the two figures are not the
    same pattern and are not compared."""
    if not isinstance(direct, bool):
        raise TypeError(f"direct must be True or False, got {type(direct).__name__}")
    theirs = fio_pattern_estimate(fio_runs)
    if disk is None:
        return "This section's own disk runs did not run here, so it quotes no disk figure."
    if theirs is None:
        return "The fio table above has no run of that pattern here, so this section's own figure is the only one."
    if not direct:
        return (
            "The fio table above measured one stream of 1 MiB O_DIRECT writes one at a time without O_DSYNC, at "
            f"{figure_words(theirs, target, 'MB/s')}; this section's own runs could not use O_DIRECT and wrote "
            "through the page cache with an fdatasync after each block, not the same pattern, so the two figures "
            "are not compared. This section quotes its own, as it ran beside RocksDB's runs."
        )
    c = claims.compare(disk, theirs)
    return (
        "The fio table above measured the same pattern, one stream of 1 MiB O_DIRECT writes one at a time without "
        f"O_DSYNC, at {figure_words(theirs, target, 'MB/s')}; this section's own figure was "
        + claims.versus(c, "that", span=True, **claims.RATE_WORDS)
        + ". This section quotes its own, as it ran beside RocksDB's runs, at the moments they ran; the fio "
        "table's ran beside the memtable's."
    )


def _flush_wait_words(sweep: pl.DataFrame, capacity: int) -> tuple[str, claims.Comparison]:
    """The fastest io_uring mode at `capacity` without O_DSYNC against the blocking writer
    there (claims.compare of records/s), with the io_uring mode's name."""
    rows = sweep.filter((pl.col("capacity") == capacity) & ~pl.col("dsync") & (pl.col("metric") == "records_per_s"))
    uring = rows.filter(pl.col("mode") != BLOCKING)
    if uring.height == 0:
        return "io_uring", claims.compare(None, _estimate(rows, "records_per_s", mode=BLOCKING))
    top = uring.group_by("mode", "buffers").agg(pl.col("value").median()).sort("value", descending=True).row(0)
    best = _estimate(uring, "records_per_s", mode=top[0], buffers=top[1])
    return mode_name(top[0], top[1]), claims.compare(best, _estimate(rows, "records_per_s", mode=BLOCKING))


def flush_wait_tally(sweep: pl.DataFrame) -> dict[str, list[int]]:
    """At every capacity of the sweep without O_DSYNC where both ran, the fastest io_uring
    mode (by the median) against the blocking writer (claims.compare of records/s): the
    capacities where it was clearly faster ('faster'), not clearly different ('unclear',
    overlapping or about the same) and clearly slower ('slower'), each list ascending."""
    plain = sweep.filter(~pl.col("dsync")) if "dsync" in sweep.columns else sweep
    plain = plain.filter(pl.col("metric") == "records_per_s")
    tally: dict[str, list[int]] = {"faster": [], "unclear": [], "slower": []}
    for capacity in sorted(int(c) for c in plain["capacity"].unique().to_list()):
        _, c = _flush_wait_words(plain, capacity)
        if c.direction == claims.MISSING:
            continue
        key = {claims.HIGHER: "faster", claims.LOWER: "slower"}.get(c.direction, "unclear")
        tally[key].append(capacity)
    return tally


def flush_wait_sentence(sweep: pl.DataFrame) -> str:
    """The closing section's point on the flush, from every capacity (flush_wait_tally):
    how many sizes the fastest io_uring mode was clearly faster than the blocking writer, not
    clearly different, clearly slower (each size named), then the lesson that tally allows;
    never a lesson from one size."""
    tally = flush_wait_tally(sweep)
    total = sum(len(v) for v in tally.values())
    if total == 0:
        return (
            "The sweep did not run both io_uring and the blocking writer at any capacity without O_DSYNC, so not "
            "waiting for the flush is not compared here."
        )
    words = {"faster": "clearly faster", "unclear": "not clearly faster or slower", "slower": "clearly slower"}
    parts = [
        f"{words[key]} at " + (f"{len(caps)} ({fmt.listed([fmt.size(c) for c in caps])})" if caps else "none")
        for key, caps in tally.items()
    ]
    head = (
        "Without O_DSYNC, set against the blocking writer at "
        + (f"each of the {total} capacities" if total > 1 else "the only capacity")
        + f" where both ran, the fastest io_uring mode there (by the median) was {fmt.listed(parts)}."
    )
    faster, slower = len(tally["faster"]), len(tally["slower"])
    if faster == total:
        lesson = (
            "The flush is a round trip; on this disk, not waiting for it paid at every size measured: do not wait "
            "for it."
        )
    elif faster and not slower:
        lesson = (
            "So on this disk not waiting for the flush paid wherever the intervals could tell, and cost at no size; "
            "at the others this disk's noise hides whatever difference there was."
        )
    elif slower and not faster:
        lesson = "So on this disk not waiting for the flush paid at no size, and cost at some."
    elif faster and slower:
        lesson = "So on this disk whether not waiting for the flush pays depends on the size."
    else:
        lesson = "So on this disk the intervals cannot tell whether not waiting for the flush pays at any size."
    return f"{head} {lesson}"


def peak_bullet(sweep: pl.DataFrame, fio_runs: pl.DataFrame, target: float | None = None) -> str:
    """The closing section's point on the flush: io_uring against the blocking writer at
    every capacity without O_DSYNC (flush_wait_sentence); the case of the sweep's highest
    median without O_DSYNC, its records/s with its interval (MB/s in the brackets); and the
    io_uring flushes against fio (the medians of the per-round ratios); a reason where the
    sweep or fio could not run."""
    plain = sweep.filter(~pl.col("dsync")) if "dsync" in sweep.columns else sweep
    est, name, _ = peak(plain)
    if est is None:
        return "The sweep could not run here, so this machine gives no figure for the fastest flush."
    lead = flush_wait_sentence(plain)
    text = f"{lead} The highest median of the sweep without O_DSYNC, {name}, made {peak_rate_words(plain, target)}"
    spread = fio_ratio_range(fio_runs)
    if spread == fmt.NA:
        return text + "; fio could not run beside it here."
    return (
        text + f", and the io_uring flushes reached {spread} of what fio managed on the same disk with the same "
        "block size and depth (medians of the per-round ratios; the fio table above gives each one's interval "
        "and verdict)."
    )


def split_sentence(fio_runs: pl.DataFrame, numbers: dict[str, object]) -> str:
    """The RocksDB section's summary of this page's memtable: at the smallest breakdown
    capacity whether waiting for the disk or working on records took more of the writer's
    run (pace_sentence's comparison), and the io_uring flushes' MB/s against fio's
    (fio_ratio_range); a reason for each that could not run."""
    work, wait = numbers.get("small_record_work_share_est"), numbers.get("small_t_buffer_wait_share_est")
    small = numbers.get("small")
    if work is None or wait is None or not small:
        pace = "the breakdown of the writer's time could not run here"
    else:
        c = claims.compare(wait, work)
        at = f"at {fmt.size(int(small))} the writer spent {_share_span(wait)} of its run waiting for the disk"
        pace = at + {
            claims.HIGHER: f", more than the {_share_span(work)} it worked on records",
            claims.LOWER: f", less than the {_share_span(work)} it worked on records",
        }.get(c.direction, f" and {_share_span(work)} working on records, intervals that overlap")
    spread = fio_ratio_range(fio_runs)
    flush = (
        f"the io_uring flushes reached {spread} of fio's MB/s with the same block size and depth"
        if spread != fmt.NA
        else "fio could not run beside the flushes"
    )
    return f"The experiments above show the split: {pace}, and {flush}."


def log_share(metrics: pl.DataFrame) -> Estimate | None:
    """records/s with the log (group commit) over records/s without any durability, round
    by round (the two ran in the same rounds): the median of those ratios with the interval
    of that median; None where either could not run."""
    rows = metrics.filter(pl.col("group") == "durability")
    ratios = round_ratios(rows, ["group"], "records_per_s", on="variant", ours=LOG, theirs=NO_LOG)
    return ratio_estimate(ratios["r"].to_list()) if ratios.height else None


def log_share_words(metrics: pl.DataFrame) -> str:
    """'33 % of the speed (the median of the per-round ratios …, the interval of that median
    29–41 %, 3 rounds)': log_share in words, which is not the quotient of the two rates'
    medians; a reason when either side could not run."""
    est = log_share(metrics)
    if est is None:
        return "a share that could not be measured here (the log or the run without it did not run)"
    span = f"{fmt.num(100 * est.lo, 2)}–{fmt.num(100 * est.hi, 2)} %"
    return (
        f"{fmt.num(100 * est.median, 2)} % of the speed (the median of the per-round ratios of records/s with the "
        f"log to without it, the interval of that median {span}, {fmt.count(est.runs, 'round')})"
    )


def queue_share_words(wait: Estimate | None, mean: Estimate | None) -> str:
    """Little's law (records in the queue = records leaving per second × their MEAN wait)
    read against a full queue: `wait` is how long a full queue takes to drain, with the
    interval its rate's interval gives it (queue_figures), `mean` the measured mean wait
    from hand-over to acknowledgement with the interval of its median over the runs. The
    share wait/mean spans wait.lo/mean.hi to wait.hi/mean.lo (wider than either interval:
    the two are not paired run by run), and a verdict needs the whole span past a line: a
    full queue accounts for part of the mean (below 0.9; the rest may lie elsewhere on a
    record's path), about all of it (within 0.9–1.1), or more than it (above 1.1; the
    queue may not have stayed full); a span across a line decides nothing. Each cause is
    a possibility. Without the mean, it says that Little's law needs it and gives no
    verdict (a median cannot stand in for it: a heavy tail moves the mean, not the median)."""
    for name, value in (("wait", wait), ("mean", mean)):
        if value is not None and not isinstance(value, Estimate):
            raise TypeError(f"{name} must be a stats.Estimate or None, got {type(value).__name__}")
    if wait is not None and mean is None:
        return (
            "Little's law relates a queue's length to the mean wait, which this run does not give, and a median "
            "cannot stand in for it (a heavy tail moves the mean, not the median), so how full the queue was is "
            "not worked out here."
        )
    if wait is None or mean is None or mean.median <= 0:
        return "Without both figures, the queue's share of the wait is not worked out here."
    median, lo = wait.median / mean.median, wait.lo / mean.hi
    hi = wait.hi / mean.lo if mean.lo > 0 else None
    span = (
        f"{fmt.factor(lo)}–{fmt.factor(hi)}× within the two intervals"  # fmt.factor: exact beside 0.9 and 1.1
        if hi is not None
        else f"from {fmt.factor(lo)}× up, the mean's interval reaching 0"
    )
    if hi is not None and hi < 0.9:
        return (
            f"A full queue would account for {fmt.share(median, 2)} of the mean wait "
            f"({fmt.num(100 * lo, 2)}–{fmt.share(hi, 2)} within the two intervals): by Little's "
            "law, more records were between hand-over and acknowledgement on average than the queue holds, so the "
            "rest may lie elsewhere on a record's path (the hand-over, the batch it is copied with, its "
            "acknowledgement), which this run does not time."
        )
    if hi is not None and lo >= 0.9 and hi <= 1.1:
        return (
            f"A full queue accounts for about the whole mean wait, {claims.ratio_interval(Estimate(median, lo, hi))} "
            "of it, as it would if the producers kept the queue full; this run cannot say that they did."
        )
    if lo > 1.1:
        return (
            f"That is {fmt.ratio(median)} the mean wait ({span}): by Little's law, fewer records than the "
            "queue's depth waited on average, so the queue may not have stayed full."
        )
    return (
        f"A full queue would take {fmt.ratio(median)} the mean wait by the medians, but {span}, a span "
        "that reaches across 0.9 or 1.1, so this run cannot say whether a full queue accounts for part of the "
        "mean wait, about all of it or more."
    )


def queue_wait_us(queue_depth: int, records_per_s: float | None) -> float | None:
    """Little's law: how long a full queue of `queue_depth` records takes to drain (µs)."""
    return None if not records_per_s else queue_depth / records_per_s * 1e6


def queue_figures(metrics: pl.DataFrame, queue_depth: int) -> tuple[Estimate | None, Estimate | None]:
    """For queue_share_words, of the variant without durability: how long a full queue of
    `queue_depth` records takes to drain at its records/s (µs; the interval from the
    rate's, its ends swapped: the faster end drains sooner), and its mean wait (µs) with
    the interval of that median over the runs; None for either that did not run."""
    if isinstance(queue_depth, bool) or not isinstance(queue_depth, int):
        raise TypeError(f"queue_depth must be an int, got {type(queue_depth).__name__}")
    if queue_depth < 1:
        raise ValueError(f"queue_depth must be at least 1, got {queue_depth}")
    rate = _estimate(metrics, "records_per_s", variant=NO_LOG)
    mean = _estimate(metrics, "mean", variant=NO_LOG)
    wait = None
    if rate is not None and rate.lo > 0:
        wait = Estimate(
            queue_depth / rate.median * 1e6,
            queue_depth / rate.hi * 1e6,
            queue_depth / rate.lo * 1e6,
            rate.runs,
            rate.confidence,
        )
    return wait, mean


# ---- where the writer's time goes (the breakdown) -------------------------------------------

#: The writer's time in the order the chart stacks it: a name for readers, and the
#: counters (ns per record, see experiments.WRITER_TIME) that make it up.
WRITER_PARTS: dict[str, tuple[str, ...]] = {
    "hand-off from the queue": ("t_handoff",),
    "framing and copying records": ("t_copy",),
    "index and acknowledgements": ("t_index", "t_ack"),
    "preparing and submitting flushes": ("t_seal", "t_submit", "t_reap"),
    "waiting for a free buffer": ("t_buffer_wait",),
    "waiting for records": ("t_idle",),
    "the last flushes, at the end": ("t_drain",),
    "other": ("t_log", "t_other"),
}
#: The breakdown's three tables, their measured columns in order: where the writer's time
#: went per flush (µs), how the flushes went to the kernel, and how the threads were switched.
BREAKDOWN_PARTS = {
    "time": (
        "MB/s",
        "records / flush",
        "record work µs/flush",
        "flush work µs/flush",
        "buffer wait µs/flush",
        "checksums µs/flush",
    ),
    "threads": ("flushes / submit", "in flight", "writer CPU %"),
    "switches": ("writer sleeps", "writer vol. cs", "writer invol. cs", "producer cs"),
}
BREAKDOWN_COLUMNS = tuple(c for part in BREAKDOWN_PARTS.values() for c in part)
#: Per-record work of the writer (scales with records), and its work per flush.
RECORD_WORK = ("t_handoff", "t_copy", "t_index", "t_ack")
FLUSH_WORK = ("t_seal", "t_submit", "t_reap")


def _case_label(capacity: int, dsync: bool) -> str:
    return fmt.size(capacity) + (", O_DSYNC" if dsync else "")


def _clocked_runs(metrics: pl.DataFrame) -> pl.DataFrame:
    """One row per clocked run (counters on): every metric a column."""
    rows = metrics.filter(pl.col("counters") & (pl.col("metric") != "unsupported"))
    if rows.height == 0:
        return pl.DataFrame(
            schema={"capacity": pl.Int64, "dsync": pl.Boolean, "records": pl.Int64, "repetition": pl.Int64}
        )
    return rows.pivot(on="metric", index=["capacity", "dsync", "records", "repetition"], values="value")


def _sum(columns: tuple[str, ...]) -> pl.Expr:
    return pl.sum_horizontal(pl.col(c) for c in columns)


def breakdown_frame(metrics: pl.DataFrame) -> pl.DataFrame:
    """The writer's time by part, as its share of the run (median over the clocked runs),
    one row per case and part, in the chart's order."""
    runs = _clocked_runs(metrics)
    if "ns_per_op" not in runs.columns:
        return pl.DataFrame(schema={"case": pl.String, "part": pl.String, "share": pl.Float64, "order": pl.Int64})
    parts = [(_sum(cols) / pl.col("ns_per_op")).alias(name) for name, cols in WRITER_PARTS.items()]
    shares = runs.select("capacity", "dsync", *parts).group_by("capacity", "dsync").median()
    long = shares.unpivot(index=["capacity", "dsync"], variable_name="part", value_name="share")
    order = {name: i for i, name in enumerate(WRITER_PARTS)}
    return long.sort("dsync", "capacity").select(
        pl.struct("capacity", "dsync")
        .map_elements(lambda r: _case_label(r["capacity"], r["dsync"]), return_dtype=pl.String)
        .alias("case"),
        "part",
        pl.col("share").clip(lower_bound=0.0),
        pl.col("part").replace_strict(order, return_dtype=pl.Int64).alias("order"),
    )


def breakdown_chart(frame: pl.DataFrame, why: str = "") -> alt.Chart:
    """Stacked bars: what the writer did with its time, per capacity and O_DSYNC setting
    (`why` says why there are none, when the cases could not run here)."""
    if frame.height == 0:
        return charts.unavailable(f"the breakdown could not run here: {why or 'no result'}")
    cases = frame["case"].unique(maintain_order=True).to_list()
    return (
        alt.Chart(frame, title="Share of the run, by what the writer thread was doing")
        .mark_bar()
        .encode(
            y=alt.Y("case:N", sort=cases, title=None),
            x=alt.X("share:Q", stack="normalize", title="share of the writer's time", axis=alt.Axis(format="%")),
            color=alt.Color(
                "part:N", sort=list(WRITER_PARTS), title=None, legend=alt.Legend(orient="bottom", columns=2)
            ),
            order=alt.Order("order:Q"),
            tooltip=[alt.Tooltip("case:N"), alt.Tooltip("part:N"), alt.Tooltip("share:Q", format=".1%")],
        )
        .properties(height=alt.Step(26))
    )


def breakdown_table(metrics: pl.DataFrame, part: str = "time", target: float | None = None) -> pl.DataFrame:
    """Per case, over the clocked runs, one of the breakdown's two tables (``part``):
    *time*: MB/s, records per flush (the capacity's, exact), the writer's work per flush
    (per-record part and per-flush part) against its wait for a free buffer, and the
    producers' checksums of those records, all in µs per flush; *threads*: flushes per
    io_uring submission, flushes in flight at a completion, the writer's CPU as a share of
    the run (%); *switches*: how often the threads slept or were switched out, per flush. Each figure is the median with
    the interval of the median (the unstable mark where it stayed wider than ±`target`);
    ``runs`` counts the clocked runs."""
    if part not in BREAKDOWN_PARTS:
        raise ValueError(f"part is one of {', '.join(BREAKDOWN_PARTS)}, got {part!r}")
    columns = BREAKDOWN_PARTS[part]
    runs = _clocked_runs(metrics)
    if "ns_per_op" not in runs.columns:  # nothing ran: every column, and why on each case's row
        missing = stats.unsupported(metrics, ["capacity", "dsync"])
        return pl.DataFrame(
            {
                "capacity": [fmt.size(c) for c in missing["capacity"]],
                "O_DSYNC": ["yes" if d else "no" for d in missing["dsync"]],
                **{c: pl.Series([fmt.NA] * missing.height, dtype=pl.String) for c in columns},
                "runs": pl.Series([fmt.NA] * missing.height, dtype=pl.String),
                "note": missing["note"],
            }
        )
    per_flush = pl.col("records_per_flush") / 1e3  # ns per record -> µs per flush
    values = runs.select(
        "capacity",
        "dsync",
        pl.col("mb_per_s").alias("MB/s"),
        pl.col("records_per_flush").alias("records / flush"),
        (_sum(RECORD_WORK) * per_flush).alias("record work µs/flush"),
        (_sum(FLUSH_WORK) * per_flush).alias("flush work µs/flush"),
        (pl.col("t_buffer_wait") * per_flush).alias("buffer wait µs/flush"),
        (pl.col("hash_ns_per_record") * per_flush).alias("checksums µs/flush"),
        pl.col("flushes_per_submit").alias("flushes / submit"),
        pl.col("mean_depth").alias("in flight"),
        (pl.col("writer_cpu_share") * 100).alias("writer CPU %"),
        (pl.col("completion_waits_per_flush") + pl.col("writer_waits_per_flush")).alias("writer sleeps"),
        pl.col("writer_voluntary_per_flush").alias("writer vol. cs"),
        pl.col("writer_involuntary_per_flush").alias("writer invol. cs"),
        (pl.col("producer_voluntary_per_flush") + pl.col("producer_involuntary_per_flush")).alias("producer cs"),
    )
    out = []
    cases = values.sort("dsync", "capacity").group_by(["capacity", "dsync"], maintain_order=True)
    for (capacity, dsync), rows in cases:
        cells: dict[str, object] = {"capacity": fmt.size(capacity), "O_DSYNC": "yes" if dsync else "no"}
        for column in columns:
            est = _values_estimate(rows[column].to_list())
            cells[column] = (
                fmt.num(est.median, 4) if column == "records / flush" and est is not None else _cell(est, target)
            )
        cells["runs"] = str(rows.height)
        out.append(cells)
    return pl.DataFrame(out, schema={"capacity": pl.String, "O_DSYNC": pl.String,
                                     **dict.fromkeys(columns, pl.String), "runs": pl.String})  # fmt: skip


def rollovers_per_run(capacity: int, buffers: int, run_bytes: int, segment_bytes: int) -> int:
    """Segment rollovers in one benchmark run, as native/src/memtable/memtable_bench.cpp
    sizes its files: a file is no larger than the run writes, and holds
    max(1, segment_bytes // capacity, buffers) flushes."""
    for name, value in (("capacity", capacity), ("buffers", buffers), ("run_bytes", run_bytes),
                        ("segment_bytes", segment_bytes)):  # fmt: skip
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    flushes = -(-run_bytes // capacity)
    if segment_bytes >= flushes * capacity:
        return 0
    slots = max(1, segment_bytes // capacity, buffers)
    return -(-flushes // slots) - 1


def file_bytes(capacity: int, buffers: int, run_bytes: int, segment_bytes: int) -> int:
    """The size of one segment file in a benchmark run, as rollovers_per_run sizes it:
    max(1, segment // capacity, buffers) flushes of `capacity`, the segment first cut to what
    the run writes (1 GiB buffers, two of them, make 2 GiB files from a 1 GiB segment)."""
    for name, value in (("capacity", capacity), ("buffers", buffers), ("run_bytes", run_bytes),
                        ("segment_bytes", segment_bytes)):  # fmt: skip
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    flushes = -(-run_bytes // capacity)
    segment = min(segment_bytes, flushes * capacity)
    return max(1, segment // capacity, buffers) * capacity


def segment_sentence(segment_bytes: int, frames: dict[str, pl.DataFrame]) -> str:
    """Whether the runs of each experiment in `frames` (a reader's name, 'the sweep', and
    its stored runs) stayed in their first segment file of `segment_bytes`, from what each
    run stored (records × record size, capacity and buffers; rows stored with another
    ``segment_bytes`` are left to the fio table's own words, and fio's own runs, which write
    one file, are not ours): every run did, or the cases that rolled over, with their
    rollovers per run."""
    if not isinstance(segment_bytes, int) or isinstance(segment_bytes, bool) or segment_bytes < 1:
        raise ValueError(f"segment_bytes must be a positive whole number, got {segment_bytes!r}")
    size = fmt.size(segment_bytes)
    need = {"capacity", "buffers", "records", "record_size"}
    rolled, seen, larger = [], False, False
    for label, frame in frames.items():
        if not need <= set(frame.columns):
            continue
        rows = frame.filter(pl.col("tool") == "howfast") if "tool" in frame.columns else frame  # fio: one file
        if "segment_bytes" in rows.columns:
            rows = rows.filter(pl.col("segment_bytes").is_null() | (pl.col("segment_bytes") == segment_bytes))
        keys = ["capacity", "buffers", "records", "record_size"] + (["mode"] if "mode" in rows.columns else [])
        cases = rows.select(keys).drop_nulls(["capacity", "buffers", "records", "record_size"]).unique()
        for case in cases.sort("capacity", "buffers").iter_rows(named=True):
            seen = True
            run = int(case["records"]) * int(case["record_size"])
            n = rollovers_per_run(int(case["capacity"]), int(case["buffers"]), run, segment_bytes)
            larger |= file_bytes(int(case["capacity"]), int(case["buffers"]), run, segment_bytes) > segment_bytes
            if n:
                mode = case.get("mode")
                buffers, capacity = int(case["buffers"]), int(case["capacity"])
                name = mode_name(mode, buffers) if mode else fmt.count(buffers, "buffer")
                files = fmt.size(file_bytes(capacity, buffers, run, segment_bytes))
                rolled.append(f"{name} runs at {fmt.size(capacity)} in {label} "
                              f"({files} files, {fmt.count(n, 'rollover')} per run)")  # fmt: skip
    lead = f"The runs above wrote into segment files of up to {size}"
    if larger:
        lead = (
            f"The runs above wrote into segment files of up to {size}, or larger where a run's buffers held more "
            "than that, for a file holds at least one flush per buffer"
        )
    if not seen:
        return (
            f"The runs above wrote into segment files of up to {size}; the runs stored no sizes here, so whether "
            "one left its first file is not known."
        )
    if not rolled:
        return f"{lead}, each large enough for all that its run wrote, so a run never left its first one."
    return (
        f"{lead}. Most runs wrote no more than one file holds and never left their first one, but "
        f"{fmt.count(len(rolled), 'case')} wrote more and rolled over to new files: "
        + fmt.listed(rolled)
        + "; their figures include those rollovers, whose cost the experiment below measures."
    )


def deep_capacity(metrics: pl.DataFrame) -> int | None:
    """The largest capacity at which the sweep ran the deep mode (without O_DSYNC); None
    where it ran it nowhere."""
    rows = metrics.filter((pl.col("mode") == DEEP) & ~pl.col("dsync") & (pl.col("metric") == "records_per_s"))
    return int(rows["capacity"].max()) if rows.height else None


def no_deep_words(metrics: pl.DataFrame, max_buffer_bytes: int) -> str:
    """The capacities where the sweep has no deep case (nothing run, nothing refused) and
    why: where `max_buffer_bytes` (the plan's most memory for buffers) leaves room for no
    more than two buffers, double buffering is the deepest mode; empty where every capacity
    has a deep case."""
    if not isinstance(max_buffer_bytes, int) or isinstance(max_buffer_bytes, bool) or max_buffer_bytes < 1:
        raise ValueError(f"max_buffer_bytes must be a positive whole number, got {max_buffer_bytes!r}")
    if metrics.height == 0:
        return ""
    has = set(metrics.filter(pl.col("mode") == DEEP)["capacity"].unique().to_list())
    caps = [int(c) for c in sorted(metrics["capacity"].unique().to_list()) if c not in has]
    if not caps:
        return ""
    capped = [c for c in caps if max_buffer_bytes // c <= 2]
    other = [c for c in caps if c not in capped]
    parts = []
    if capped:
        sizes = fmt.listed([fmt.size(c) for c in capped])
        parts.append(
            f"At {sizes} the sweep has no deep case (n/a in its column): the buffers may take "
            f"{fmt.size(max_buffer_bytes)} at most (max_buffer_bytes), room for no more than two of that size, "
            "so io_uring ×2 is the deepest mode there."
        )
    if other:
        parts.append(f"At {fmt.listed([fmt.size(c) for c in other])} the sweep ran no deep case.")
    return " ".join(parts)


def bytes_per_case(metrics: pl.DataFrame) -> dict[int, int]:
    """Bytes one run wrote, per capacity (records × record size, as the runs stored them;
    the plan's byte count is clamped to its flush counts, so it is not the figure)."""
    if not {"capacity", "records", "record_size"} <= set(metrics.columns):
        return {}
    rows = metrics.select("capacity", "records", "record_size").drop_nulls().unique()
    return {int(c): int(n) * int(r) for c, n, r in rows.sort("capacity").iter_rows()}


def _sizes_by_capacity(sizes: dict[int, int], caps: list[int], every: list[int] | None = None) -> str:
    """'8 MiB at 64 KiB, 32 MiB at 1 MiB and 64 MiB at 16 MiB'; where alike, '1 GiB at 1 MiB
    and 16 MiB', or '128 MiB at every capacity' only when `caps` are all of `every` (the
    capacities the sentence speaks of; `caps` itself when not given)."""
    whole = caps if every is None else every
    if len(caps) > 1 and len({sizes[c] for c in caps}) == 1:
        where = "every capacity" if set(caps) == set(whole) else fmt.listed([fmt.size(c) for c in caps])
        return f"{fmt.size(sizes[caps[0]])} at {where}"
    parts = [f"{fmt.size(sizes[c])} at {fmt.size(c)}" for c in caps]
    return fmt.listed(parts)


def _bytes_against_sweep(ours: dict[int, int], theirs: dict[int, int]) -> str:
    """'1 GiB at every capacity; the sweep wrote less (128 MiB at 64 KiB), and as much at
    1 MiB and 16 MiB': the bytes of `ours` per capacity, then what the sweep (`theirs`)
    wrote at the same capacities, grouped into less, as much and more, each group's
    capacities named (with the sweep's bytes where they differ from ours)."""
    caps = sorted(ours)
    common = [c for c in caps if c in theirs]
    text = _sizes_by_capacity(ours, caps)
    if not common:
        return text + ", at capacities the sweep did not run"
    groups = {
        word: [c for c in common if test(ours[c], theirs[c])]
        for word, test in (("less", int.__gt__), ("as much", int.__eq__), ("more", int.__lt__))
    }
    said = [
        f"as much at {'every capacity' if found == caps else fmt.listed([fmt.size(c) for c in found])}"
        if word == "as much"
        else f"{word} ({_sizes_by_capacity(theirs, found, caps)})"
        for word, found in groups.items()
        if found
    ]
    joined = said[0] if len(said) == 1 else ", ".join(said[:-1]) + ", and " + said[-1]
    return text + "; the sweep wrote " + joined


def breakdown_bytes_words(breakdown: pl.DataFrame, sweep: pl.DataFrame) -> str:
    """How many bytes a breakdown run wrote against a sweep run of the same capacity,
    from the stored runs: more, as many, or fewer (each capacity named where they differ
    in direction), and why the breakdown's MB/s are not the sweep's."""
    ours = bytes_per_case(breakdown)
    if not ours:
        return "The breakdown could not run here."
    return (
        f"Each run here wrote {_bytes_against_sweep(ours, bytes_per_case(sweep))}. They ran at another moment, "
        "and half of them carry the clocks, so their MB/s differ from the sweep's at the same capacity: they are "
        "here to show where the time goes, the sweep's to give the rate."
    )


def fio_bytes_words(fio_runs: pl.DataFrame, sweep: pl.DataFrame) -> str:
    """How many bytes a run of ours in the fio cross-check wrote against a sweep run of the
    same capacity, from the stored runs (the chapter's segment size only): more, as many or
    fewer (each capacity named, as breakdown_bytes_words), and which table to quote."""
    rows = fio_runs.filter(pl.col("tool") == "howfast") if "tool" in fio_runs.columns else fio_runs
    if "segment_bytes" in rows.columns and rows.height:
        rows = rows.filter(pl.col("segment_bytes") == rows["segment_bytes"].max())
    ours = bytes_per_case(rows)
    if not ours:
        return "The memtable did not run beside fio here, so its bytes are not set beside the sweep's."
    text = f"The memtable's runs here wrote {_bytes_against_sweep(ours, bytes_per_case(sweep))}"
    return (
        text + ". They ran at another moment, next to fio, so their MB/s are not the sweep's for the same "
        "capacity: for a memtable's rate, the sweep's tables are the ones to quote, and this table only for ours "
        "against fio."
    )


def copy_time(breakdown: pl.DataFrame, capacity: int) -> Estimate | None:
    """The writer's time framing and copying one record (µs) at `capacity` without O_DSYNC,
    over the breakdown's clocked runs (deep io_uring mode); None where not measured."""
    rows = breakdown.filter(pl.col("counters") & ~pl.col("dsync")) if "counters" in breakdown.columns else breakdown
    est = _estimate(rows, "t_copy", capacity=capacity) if rows.height else None
    return est.scaled(1e-3) if est is not None else None


def wait_against_copy(variants: pl.DataFrame, breakdown: pl.DataFrame, capacity: int) -> str:
    """The median wait of a record without the log (the durability table's run at
    `capacity`, double-buffered io_uring) beside the writer's time copying one, from the
    breakdown's clocked runs in its deep mode (at the same capacity without O_DSYNC where
    measured, else at its smallest): both figures with their modes, never divided, for they
    come from different runs and modes."""
    wait = _median(variants, "p50", variant=NO_LOG)
    if wait is None:
        return "Without the log, a record's wait could not be measured here."
    head = f"Even without the log, a record waited {fmt.duration_us(wait)} at the median"
    same = copy_time(breakdown, capacity)
    if same is not None:
        return (
            head + f" at {fmt.size(capacity)} with double buffering; the breakdown below timed the writer framing and "
            f"copying one at the same capacity without O_DSYNC at {fmt.duration_us(same.median)}, in its own clocked "
            "runs in the deep io_uring mode, a different run and mode, so the two are not divided."
        )
    runs = breakdown.filter(pl.col("metric") == "t_copy")
    if "counters" in runs.columns:
        runs = runs.filter(pl.col("counters") & ~pl.col("dsync"))
    if runs.height == 0:
        return head + "; the writer's time copying a record could not be measured here."
    small = int(runs["capacity"].min())
    other = copy_time(breakdown, small)
    return (
        head + f" at {fmt.size(capacity)} with double buffering; the breakdown below measured the writer's time "
        f"framing and copying one only at other sizes: {fmt.duration_us(other.median)} at {fmt.size(small)} in the "
        "deep io_uring mode, a different size and mode, so the two are not divided."
    )


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    return value


def rocksdb_threads_words(test: str, threads: int, cpus: int) -> str:
    """How many readers a db_bench read test ran against this machine's `cpus` logical
    CPUs, to follow its description ('reads uniformly random keys '): rocksdb.threads_for
    gives readrandom one thread per CPU and readwhilewriting one per CPU but one for its
    writer, each at least one and at most as many as the laptop ran; the words say which
    of those held here."""
    if test not in ("readrandom", "readwhilewriting"):
        raise ValueError(f"test must be 'readrandom' or 'readwhilewriting', got {test!r}")
    threads, cpus = _whole("threads", threads), _whole("cpus", cpus)
    counted = fmt.count(threads, "thread" if test == "readrandom" else "reader thread")
    per_cpu = cpus if test == "readrandom" else cpus - 1
    if test == "readrandom" and threads == per_cpu:
        return f"on one thread per logical CPU ({counted}), as the laptop did"
    if test == "readwhilewriting" and threads == per_cpu:
        return f"on every logical CPU but one ({counted})"
    if threads < per_cpu:
        return f"on {counted}, as many as the laptop ran, though this machine has {fmt.count(cpus, 'logical CPU')}"
    return f"on {counted}, though this machine has {fmt.count(cpus, 'logical CPU')}"


def read_threads_words(ours: int, seed: int, ours_readers: int | None = None, seed_readers: int | None = None) -> str:
    """The opening of the paragraph on why the read tests differ from the laptop's: two
    reasons where the two machines ran different thread counts, the second alone where
    they ran the same; it ends so that "`readrandom` found only …" can follow. `ours` and
    `seed` are readrandom's threads; with `ours_readers` and `seed_readers`
    (readwhilewriting's reader threads) each test's counts are named."""
    ours, seed = _whole("ours", ours), _whole("seed", seed)
    if ours_readers is None or seed_readers is None:
        if ours_readers is not None or seed_readers is not None:
            raise ValueError("ours_readers and seed_readers are given together or not at all")
        if ours != seed:
            return (
                f"The read tests differ even more, for two reasons. The laptop spread them over "
                f"{fmt.count(seed, 'thread')}, this machine over {ours}. And the laptop's"
            )
        both = fmt.count(ours, "thread")
        return f"The read tests differ even more, although both machines ran them on {both}: the laptop's"
    ours_readers, seed_readers = _whole("ours_readers", ours_readers), _whole("seed_readers", seed_readers)
    if (ours, ours_readers) != (seed, seed_readers):
        return (
            f"The read tests differ even more, for two reasons. The laptop ran `readrandom` on "
            f"{fmt.count(seed, 'thread')} and `readwhilewriting` with {fmt.count(seed_readers, 'reader thread')}; "
            f"this machine ran `readrandom` on {fmt.count(ours, 'thread')} and `readwhilewriting` with "
            f"{fmt.count(ours_readers, 'reader thread')}. And the laptop's"
        )
    return (
        f"The read tests differ even more, although both machines ran `readrandom` on {fmt.count(ours, 'thread')} "
        f"and `readwhilewriting` with {fmt.count(ours_readers, 'reader thread')}: the laptop's"
    )


def storage_chapter_words(direct: bool) -> str:
    """How the storage chapter's sequential 1 MiB O_DIRECT writes stand to this page's disk
    probe: the same kind of write where the probe used O_DIRECT, whose figures may differ
    (perhaps by the disk's drift, unmeasured); not comparable where it fell back to
    buffered writes."""
    if not isinstance(direct, bool):
        raise TypeError(f"direct must be True or False, got {type(direct).__name__}")
    if direct:
        return (
            "The storage chapter measures the same kind of write in runs of its own, at other "
            "moments, so its figures can differ from this one (this disk's speed can drift between runs): each page "
            "quotes its own run."
        )
    return (
        "The storage chapter measures sequential 1 MiB writes with O_DIRECT, not the buffered "
        "ones this probe fell back to, in runs of its own at other moments, so the two are not comparable: each "
        "page quotes its own run."
    )


def filesystem_words(facts: dict) -> str:
    """Whether the ext4 behaviour the design was tuned on applies to this run: by the
    filesystem the facts give for the segment files' directory."""
    fs = facts.get("filesystem")
    if not isinstance(fs, str) or not fs or fs == "unknown":
        return (
            "This run did not record which filesystem held its segment files, so whether these ext4 costs apply "
            "is not known."
        )
    if fs == "ext4":
        return "This run's segment files went to ext4 as well."
    return f"This run's segment files went to {fs}, where these ext4 costs may not apply."


def tear_words(facts: dict) -> str:
    """How the power-cut model tears a write in progress (at powercut.SECTOR boundaries),
    beside this device's logical block size where the facts give it."""
    from .powercut import SECTOR  # imported here: powercut loads the native module

    block = facts.get("logical_block_size")
    text = (
        "a write in progress may reach the disk only in part; the model below tears it at "
        f"{fmt.size_adjective(SECTOR)} boundaries"
    )
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        return text + " (this run did not read the device's logical block size)"
    if block == SECTOR:
        return text + ", this device's logical block size"
    than = "finer" if block > SECTOR else "coarser"
    return text + f", {than} than this device's logical block size of {fmt.size(block)}"


def rocksdb_cache_words(data_bytes: float, memory_bytes: float, compression: str) -> str:
    """Whether db_bench's database could stay in the page cache (under a quarter of
    memory), with its share, and what a read then pays for: finding the key, and
    decompressing its block only where a compression is set (not 'none' or 'n/a'). Whether
    reads hit the cache is not measured, and the words say so."""
    for name, value in (("data_bytes", data_bytes), ("memory_bytes", memory_bytes)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
            raise ValueError(f"{name} must be a positive number of bytes, got {value!r}")
    share = fmt.share(data_bytes / memory_bytes, 2)
    if data_bytes < memory_bytes / 4:
        work = "finding the key" + (
            "" if compression in ("none", "n/a", "") else f" and decompressing its block ({compression})"
        )
        return (
            f"a database this small can stay in the page cache ({share} of memory), where a read pays only for "
            f"{work}; whether reads hit the cache is not measured."
        )
    return (
        f"a database this large ({share} of memory) may not stay in the page cache, so many reads may wait for "
        "the disk; whether they did is not measured."
    )


def rocksdb_tail_words(metrics: pl.DataFrame) -> str:
    """readwhilewriting's p99 read time against readrandom's (claims.compare of the medians'
    intervals; each is one operation's time on one thread), with what may explain a longer
    tail; a reason where either did not run."""
    rr = _estimate(metrics, "latency_p99", test="readrandom")
    rw = _estimate(metrics, "latency_p99", test="readwhilewriting")
    c = claims.compare(rw, rr)
    if c.direction == claims.MISSING:
        return "The two read tests did not both run here, so their tails are not compared."
    said = claims.versus(c, "readrandom's", more="longer", less="shorter", same="about as long as")
    if c.direction == claims.HIGHER:
        return (
            f"Reads alongside a writer had a longer tail: their p99 was {said}. They share the CPUs with the "
            "writer and with the background threads, which may be why."
        )
    return f"Reads alongside a writer did not have a clearly longer tail here: their p99 was {said}."


def counter_cost(metrics: pl.DataFrame) -> dict[str, float | None]:
    """Records/s with the counters' clocks on over off, run by run (each pair ran one after
    the other): the median ratio and its range over every case and round."""
    if "counters" not in metrics.columns:
        return {"ratio": None, "lo": None, "hi": None}
    r = round_ratios(metrics, ["capacity", "dsync"], "records_per_s", on="counters", ours=True, theirs=False)["r"]
    if r.len() == 0:
        return {"ratio": None, "lo": None, "hi": None}
    return {"ratio": float(r.median()), "lo": float(r.min()), "hi": float(r.max())}


def breakdown_numbers(metrics: pl.DataFrame) -> dict[str, object]:
    """The figures the breakdown's prose quotes, for the smallest and the largest capacity
    without O_DSYNC (None where they could not be measured)."""
    runs = _clocked_runs(metrics)
    caps = sorted(runs["capacity"].unique().to_list()) if "ns_per_op" in runs.columns else []
    out: dict[str, object] = {"small": caps[0] if caps else None, "large": caps[-1] if caps else None}
    names = (
        "t_handoff",
        "t_copy",
        "t_index",
        "t_ack",
        "t_submit",
        "t_buffer_wait",
        "t_drain",
        "hash_ns_per_record",
        "ns_per_op",
        "records_per_flush",
        "flushes_per_submit",
        "mean_depth",
        "writer_cpu_share",
        "producer_cpu_share",
        "records_per_batch",
        "writer_voluntary_per_flush",
        "writer_involuntary_per_flush",
        "completion_waits_per_flush",
        "writer_waits_per_flush",
        "producer_waits_per_flush",
    )
    for key, cap, dsync in (
        ("small", out["small"], False),
        ("small_dsync", out["small"], True),
        ("large", out["large"], False),
    ):
        rows = runs.filter((pl.col("capacity") == cap) & (pl.col("dsync") == dsync)) if cap else runs.clear()
        for name in names:
            values = rows[name].drop_nulls() if name in rows.columns else pl.Series([], dtype=pl.Float64)
            out[f"{key}_{name}"] = float(values.median()) if values.len() else None
        ns = out[f"{key}_ns_per_op"]
        per_flush = out[f"{key}_records_per_flush"]
        out[f"{key}_flushes"] = float(rows["records"].median()) / per_flush if per_flush else None
        # each share the median of the runs' shares, as the breakdown chart gives it (a median part
        # over a median run is another figure, and the page would show two values of one quantity)
        for part, columns in (("t_buffer_wait", ("t_buffer_wait",)), ("t_submit", ("t_submit",)),
                              ("t_drain", ("t_drain",)), ("flush_work", FLUSH_WORK)):  # fmt: skip
            if rows.height and "ns_per_op" in rows.columns and set(columns) <= set(rows.columns):
                shares = rows.select((_sum(columns) / pl.col("ns_per_op")).alias("s"))["s"].drop_nulls()
                out[f"{key}_{part}_share"] = float(shares.median()) if shares.len() else None
            else:
                out[f"{key}_{part}_share"] = None
        # the median of the runs' sums, as the breakdown table gives it per flush (a sum of the
        # parts' medians is another figure, and the page would show two values of one quantity)
        work = rows.select(_sum(RECORD_WORK)).to_series() if set(RECORD_WORK) <= set(rows.columns) else None
        out[f"{key}_record_work"] = float(work.median()) if work is not None and work.len() else None
        out[f"{key}_record_work_share"] = (
            None if out[f"{key}_record_work"] is None or not ns else out[f"{key}_record_work"] / ns
        )
        if "ns_per_op" in rows.columns and rows.height:
            shares = rows.select(
                (_sum(RECORD_WORK) / pl.col("ns_per_op")).alias("work"),
                (pl.col("t_buffer_wait") / pl.col("ns_per_op")).alias("wait"),
            )
            out[f"{key}_record_work_share_est"] = _values_estimate(shares["work"].to_list())
            out[f"{key}_t_buffer_wait_share_est"] = _values_estimate(shares["wait"].to_list())
            for name in ("record_work_share", "t_buffer_wait_share"):  # one figure per quantity on the page:
                est = out[f"{key}_{name}_est"]  # the median of the runs' shares, as the pace sentence gives it
                out[f"{key}_{name}"] = est.median if isinstance(est, Estimate) else None
        else:
            out[f"{key}_record_work_share_est"] = out[f"{key}_t_buffer_wait_share_est"] = None
        waits = (out[f"{key}_completion_waits_per_flush"], out[f"{key}_writer_waits_per_flush"])
        out[f"{key}_sleeps_per_flush"] = None if None in waits else sum(waits)
    return out | {f"cost_{k}": v for k, v in counter_cost(metrics).items()}


def pace_sentence(numbers: dict[str, object]) -> str:
    """Whether the writer's wait for a free buffer or its work on records took more of the
    run at the smallest capacity without O_DSYNC (from breakdown_numbers): longer only
    where the intervals of the two shares over the clocked runs do not overlap
    (claims.compare); neither set the pace clearly otherwise."""
    work, wait = numbers.get("small_record_work_share_est"), numbers.get("small_t_buffer_wait_share_est")
    if work is None or wait is None:
        return "The breakdown could not run here."
    per_record = (
        f"{fmt.duration_us(numbers['small_record_work'] / 1e3)} (the median over the runs of each run's sum of "
        "the four parts above, not the sum of their medians)"
    )
    c = claims.compare(wait, work)
    if c.direction == claims.HIGHER:
        return (
            f"The lesson of a small memtable: the writer's work per record, {per_record}, is not what sets "
            f"the pace. It spent {_share_span(wait)} of the run waiting for the disk, longer than the "
            f"{_share_span(work)} it worked on records (medians over the clocked runs, with their intervals)."
        )
    if c.direction == claims.LOWER:
        return (
            f"Here the writer's work per record, {per_record}, set the pace: it worked on records for "
            f"{_share_span(work)} of the run and waited for the disk only {_share_span(wait)}."
        )
    return (
        f"Neither clearly set the pace here: the writer worked on records for {_share_span(work)} of the run "
        f"({per_record} per record) and waited for the disk {_share_span(wait)}, intervals that overlap."
    )


def _share_span(est: Estimate) -> str:
    """'47 % (40–52 %)': a share with the interval of its median."""
    return f"{fmt.num(100 * est.median, 2)} % ({fmt.num(100 * est.lo, 2)}–{fmt.num(100 * est.hi, 2)} %)"


def counter_cost_sentence(metrics: pl.DataFrame) -> str:
    """What the counters' clocks cost, from runs with them on and off side by side."""
    c = counter_cost(metrics)
    if c["ratio"] is None:
        return "Runs without the clocks could not be compared here, so their cost went unmeasured."
    rows = metrics.filter(pl.col("metric") == "records_per_s")
    wide = rows.pivot(on="counters", index=["capacity", "dsync", "repetition"], values="value")
    values = (wide["true"] / wide["false"]).drop_nulls().to_list()
    lo, hi, level = stats.median_interval(values)
    median = Estimate(c["ratio"], lo, hi, len(values), level)
    paired = claims.compare(median, Estimate.exact(1.0))
    other = "the runs without clocks"
    verdict = (
        f"{claims.RATE_WORDS['same']} {other}"  # the ratio follows with its interval
        if paired.direction == claims.SAME_WORD
        else claims.versus(paired, other, **claims.RATE_WORDS)
    )
    return (
        f"Paired run by run, the clocked runs were {verdict}: the median of the {len(values)} paired ratios was "
        f"{claims.ratio_interval(median)} with the interval of that median ({fmt.num(100 * level, 2)} % "
        f"confidence), while single pairs ranged from {short_factor(c['lo'])}× to {short_factor(c['hi'])}×, a "
        "spread that may be this disk's drift between runs."
    )


# ---- segment rollover ------------------------------------------------------------------------------

#: What the memtable should reach with its default segment size, as a share of fio's MB/s
#: (a target, not a measurement).
SEGMENT_GOAL = 0.95
#: Who made the rollover experiment's segment files, by ``segments_ahead``.
AHEAD_NAMES = {0: "by the writer, when needed"}


def ahead_name(ahead: int) -> str:
    """'by the writer, when needed' for 0, 'ahead, by a helper (2 ready)' otherwise."""
    return AHEAD_NAMES.get(ahead, f"ahead, by a helper ({ahead} ready)")


def fio_segment_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """``fio_table`` once per segment size (the chapter's first, then Memtable's default),
    with the column *segment* after the capacity: the size of one of our segment files in
    that row (segment_label)."""
    if "segment_bytes" not in metrics.columns:
        return fio_table(metrics, target)
    parts = []
    for seg in metrics["segment_bytes"].unique(maintain_order=True).to_list():
        rows = metrics.filter(pl.col("segment_bytes") == seg)
        labels = {}
        ours = _fio_keyed(rows.filter(pl.col("tool") == "howfast"))
        if {"records", "record_size"} <= set(ours.columns):
            cases = ours.select("capacity", "dsync", "flush", "buffers", "records", "record_size").unique()
            for case in cases.iter_rows(named=True):
                run = int(case["records"]) * int(case["record_size"])
                key = (fmt.size(case["capacity"]), "yes" if case["dsync"] else "no", case["flush"])
                labels[key] = segment_label(int(case["capacity"]), int(case["buffers"]), run, int(seg))
        table = fio_table(rows, target)
        parts.append(
            table.with_columns(
                pl.Series(
                    "segment",
                    [labels.get(k, fmt.size(seg)) for k in table.select("capacity", "O_DSYNC", "flush").iter_rows()],
                    dtype=pl.String,
                )
            )
        )
    table = pl.concat(parts, how="diagonal")
    order = [c for c in table.columns if c != "segment"]
    at = order.index("capacity") + 1
    return table.select(*order[:at], "segment", *order[at:])


def segment_label(capacity: int, buffers: int, run_bytes: int, segment_bytes: int) -> str:
    """The segment size a run actually wrote into, as file_bytes gives it, where its buffers
    made the file larger than `segment_bytes` (a file holds at least one flush per buffer):
    '2 GiB (1 GiB set; 2 buffers of 1 GiB)'; else the size set, '1 GiB'."""
    size = file_bytes(capacity, buffers, run_bytes, segment_bytes)
    if size <= segment_bytes:
        return fmt.size(segment_bytes)
    return f"{fmt.size(size)} ({fmt.size(segment_bytes)} set; {buffers} buffers of {fmt.size(capacity)})"


def segment_ratios(metrics: pl.DataFrame, segment: int | None = None) -> pl.DataFrame:
    """The deep io_uring rows of the fio cross-check with segment files of `segment` bytes
    (default: Memtable's default size): per O_DSYNC setting, ours / fio run by run (the
    median, the interval of the median as the fio table gives it in ``min`` and ``max``,
    rounds, the table's verdict in ``crosscheck``) and the verdict against ``SEGMENT_GOAL``:
    *meets* when the whole interval reaches it, *misses* when it lies wholly below,
    *inconclusive* otherwise."""
    from .plan import DEFAULT_SEGMENT_BYTES

    segment = DEFAULT_SEGMENT_BYTES if segment is None else segment
    schema = {"dsync": pl.Boolean, "capacity": pl.Int64, "median": pl.Float64, "min": pl.Float64,
              "max": pl.Float64, "rounds": pl.UInt32, "crosscheck": pl.String, "verdict": pl.String}  # fmt: skip
    if "segment_bytes" not in metrics.columns:
        return pl.DataFrame(schema=schema)
    rows = metrics.filter(
        (pl.col("segment_bytes") == segment) & (pl.col("mode") == DEEP) & (pl.col("metric") == "mb_per_s")
    )
    if rows.height == 0 or not {"howfast", "fio"} <= set(rows["tool"].unique().to_list()):
        return pl.DataFrame(schema=schema)
    wide = rows.pivot(on="tool", index=["dsync", "capacity", "repetition"], values="value")
    ratios = wide.select("dsync", "capacity", (pl.col("howfast") / pl.col("fio")).alias("r")).drop_nulls("r")
    return (
        _interval_rows(ratios, ["dsync", "capacity"])
        .with_columns(
            pl.when(pl.col("min") >= SEGMENT_GOAL)
            .then(pl.lit("meets"))
            .when(pl.col("max") < SEGMENT_GOAL)
            .then(pl.lit("misses"))
            .otherwise(pl.lit("inconclusive"))
            .alias("verdict")
        )
        .sort("dsync")
        .cast(schema)
    )


def segment_cost(metrics: pl.DataFrame) -> pl.DataFrame:
    """Per O_DSYNC setting, at the capacity of the default-segment rows: our MB/s with
    Memtable's default segment size over ours with one segment file per run (the chapter's
    size), round by round: the median, the interval of the median (``min``, ``max``) and its
    crosscheck verdict (empty when either did not run)."""
    from .plan import DEFAULT_SEGMENT_BYTES

    schema = {"dsync": pl.Boolean, "median": pl.Float64, "min": pl.Float64, "max": pl.Float64, "rounds": pl.UInt32,
              "crosscheck": pl.String}  # fmt: skip
    if "segment_bytes" not in metrics.columns:
        return pl.DataFrame(schema=schema)
    default = metrics.filter(pl.col("segment_bytes") == DEFAULT_SEGMENT_BYTES)["capacity"].unique()
    rows = metrics.filter(
        (pl.col("tool") == "howfast")
        & (pl.col("mode") == DEEP)
        & (pl.col("metric") == "mb_per_s")
        & pl.col("capacity").is_in(default.to_list())
    ).with_columns(
        pl.when(pl.col("segment_bytes") == DEFAULT_SEGMENT_BYTES)
        .then(pl.lit("d"))
        .otherwise(pl.lit("one"))
        .alias("seg")
    )
    if set(rows["seg"].unique().to_list()) != {"d", "one"}:
        return pl.DataFrame(schema=schema)
    wide = rows.pivot(on="seg", index=["dsync", "repetition"], values="value", aggregate_function="first")
    ratios = wide.select("dsync", (pl.col("d") / pl.col("one")).alias("r")).drop_nulls("r")
    return _interval_rows(ratios, ["dsync"]).sort("dsync").cast(schema)


def _interval_rows(ratios: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Per group of `by`, the per-round ratios ``r`` as the fio table shows them: the median,
    the interval of that median (``min``, ``max``: crosscheck.ratio_estimate, the whole range
    with few rounds), the rounds, and the crosscheck verdict of that interval (``crosscheck``)."""
    rows = []
    for key, part in ratios.group_by(by, maintain_order=True):
        est = ratio_estimate(part["r"].to_list())
        rows.append({**dict(zip(by, key)), "median": est.median, "min": est.lo, "max": est.hi,
                     "rounds": est.runs, "crosscheck": claims.crosscheck(est).outcome})  # fmt: skip
    schema = {**{k: ratios.schema[k] for k in by}, "median": pl.Float64, "min": pl.Float64, "max": pl.Float64,
              "rounds": pl.UInt32, "crosscheck": pl.String}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


#: The fio table's verdict of a row, in a sentence about that row.
TABLE_VERDICT_WORDS = {
    "agrees": "agrees in the table: the interval lies within 0.9–1.1×",
    "ours lower": "ours lower in the table: the interval lies wholly below 1",
    "ours higher": "ours higher in the table: the interval lies wholly above 1",
    "inconclusive": "inconclusive in the table: the interval includes 1 and leaves 0.9–1.1×",
}
#: The same where the rounds give the interval less than 95 % confidence: the table's leaning.
TABLE_LEANING_WORDS = {
    "agrees": "leans to agree in the table: the interval lies within 0.9–1.1×",
    "ours lower": "leans lower in the table: the interval lies below 1",
    "ours higher": "leans higher in the table: the interval lies above 1",
    "inconclusive": TABLE_VERDICT_WORDS["inconclusive"],
}
#: Where the intervals of ours / fio lie against ``SEGMENT_GOAL``, by verdict.
GOAL_WORDS = {
    "meets": "lies wholly at or above it, so the default size meets it",
    "misses": "lies wholly below it, so the default size misses it",
    "inconclusive": "lies on both sides of it, so whether the default size meets it is not decided here",
}
#: Ours with the default segment size over ours with one segment file, by crosscheck verdict.
SEGMENT_COST_WORDS = {
    "agrees": "about as fast as into one file, the interval within 0.9–1.1×",
    "ours lower": "slower than into one file, the interval wholly below 1",
    "ours higher": "faster than into one file, the interval wholly above 1",
    "inconclusive": "not clearly slower or faster than into one file, the interval including 1",
}
#: The same below 95 % confidence (fewer than six rounds): a direction is a leaning.
SEGMENT_COST_LEANINGS = SEGMENT_COST_WORDS | {
    "agrees": "leaning to about as fast as into one file, the interval within 0.9–1.1×",
    "ours lower": "leaning slower than into one file, the interval wholly below 1",
    "ours higher": "leaning faster than into one file, the interval wholly above 1",
}


#: A crosscheck verdict of ours into the default files against ours into one file, as the
#: direction claims.compare would give it (for setting it beside the rollover experiment).
_COST_DIRECTIONS = {"ours lower": claims.LOWER, "ours higher": claims.HIGHER, "agrees": claims.SAME_WORD,
                    "inconclusive": claims.UNCLEAR}  # fmt: skip


def rollover_agreement(cost_verdict: str, rate: claims.Comparison) -> str:
    """Whether the fio table's runs (ours into the default files against one file, its
    crosscheck verdict `cost_verdict`) and the rollover experiment (`rate`: rollover_rate)
    tell the same about the default files: 'agree' (the same clear direction, or both about
    the same), 'disagree' (both clear, and different), 'one could not tell' (one clear, the
    other unclear), 'neither clear' (both unclear); 'missing' where the rollover experiment
    did not run."""
    if cost_verdict not in _COST_DIRECTIONS:
        raise ValueError(f"cost_verdict must be one of {sorted(_COST_DIRECTIONS)}, got {cost_verdict!r}")
    if not isinstance(rate, claims.Comparison):
        raise TypeError(f"rate must be a claims.Comparison, got {type(rate).__name__}")
    if rate.direction == claims.MISSING:
        return "missing"
    ours = _COST_DIRECTIONS[cost_verdict]
    unclear = [d == claims.UNCLEAR for d in (ours, rate.direction)]
    if all(unclear):
        return "neither clear"
    if any(unclear):
        return "one could not tell"
    return "agree" if ours == rate.direction else "disagree"


def _sure(rounds: int | None) -> bool:
    """Whether `rounds` rounds give the interval of the median 95 % confidence; a row without
    a count (None) is taken as its verdict says."""
    return rounds is None or stats.interval_ranks(int(rounds))[1] >= stats.CONFIDENCE


def segment_goal_sentence(metrics: pl.DataFrame, rollover: pl.DataFrame | None = None) -> str:
    """The fio table's rows with Memtable's default segment size in words: how many
    rollovers a run had (fio writes one file in every row), ours / fio with its interval and
    the table's verdict, where those intervals lie against ``SEGMENT_GOAL``, and the same
    flushes into one segment file, run by run, with the verdict of that ratio; with the
    rollover experiment's runs (`rollover`), what it found for the default files made ahead
    at each setting, and whether the two experiments agree (rollover_agreement)."""
    from .plan import DEFAULT_SEGMENT_BYTES

    r = segment_ratios(metrics)
    size = fmt.size(DEFAULT_SEGMENT_BYTES)
    if r.height == 0:
        why = charts.reasons(metrics)
        return f"The default {size} segments could not be compared with fio here ({why or 'no result'})."
    capacity = int(r["capacity"][0])
    others = metrics.filter((pl.col("capacity") == capacity) & (pl.col("segment_bytes") != DEFAULT_SEGMENT_BYTES))
    one = segment_ratios(metrics, int(others["segment_bytes"].max())) if others.height else r.clear()
    one = one.filter(pl.col("capacity") == capacity)
    cost = segment_cost(metrics)

    def setting(dsync: bool) -> str:
        return "with O_DSYNC" if dsync else "without O_DSYNC"

    def interval(row: dict, table: bool = True) -> str:  # as the fio table prints it (exact at 1)
        return claims.ratio_interval(Estimate.from_row(row))

    text = ""
    rollovers: int | None = None
    ours = metrics.filter(
        (pl.col("segment_bytes") == DEFAULT_SEGMENT_BYTES)
        & (pl.col("tool") == "howfast")
        & (pl.col("capacity") == capacity)
    )
    if {"records", "record_size"} <= set(ours.columns) and ours.height:
        run = int(ours["records"][0]) * int(ours["record_size"][0])
        rollovers = max(-(-run // DEFAULT_SEGMENT_BYTES) - 1, 0)
        text += (
            f"In those rows the memtable wrote {fmt.size(run)} per run into {size} files, "
            f"{fmt.count(rollovers, 'rollover')} per run, and fio, as in every row, one file. "
        )
    rows = list(r.iter_rows(named=True))
    text += (
        f"Against fio, the deep io_uring mode at {fmt.size(capacity)} flushes reached "
        + "; ".join(
            f"{interval(row)} {setting(row['dsync'])} over {fmt.count(row['rounds'], 'round')}, "
            f"{(TABLE_VERDICT_WORDS if _sure(row['rounds']) else TABLE_LEANING_WORDS)[row['crosscheck']]}"
            for row in rows
        )
        + ". "
    )
    goals = {row["verdict"] for row in rows}
    target = f"The target this book sets for the default size is at least {fmt.ratio(SEGMENT_GOAL)} of fio's MB/s"
    if len(goals) == 1:
        both = "the interval" if len(rows) == 1 else "each interval"
        text += f"{target}: {both} {GOAL_WORDS[goals.pop()]}."
    else:
        text += f"{target}: " + "; ".join(f"{setting(row['dsync'])}, the interval {GOAL_WORDS[row['verdict']]}"
                                          for row in rows) + "."  # fmt: skip
    few = [int(row["rounds"]) for row in rows if not _sure(row["rounds"])]
    if few:
        level = min(stats.interval_ranks(k)[1] for k in few)
        text += (
            f" With {runs_text(few)} {'round' if runs_text(few) == '1' else 'rounds'}, such an interval is the lowest "
            f"ratio to the highest and holds the median with {fmt.num(100 * level, 2)} % confidence, not "
            f"{fmt.num(100 * stats.CONFIDENCE)} %, so those readings are leanings, not findings."
        )
    if one.height:
        text += (
            " Into one segment file for the whole run, the same flushes reached "
            + " and ".join(f"{interval(row)} {setting(row['dsync'])}" for row in one.iter_rows(named=True))
            + "."
        )
    if cost.height:
        rows = list(cost.iter_rows(named=True))
        levels = [stats.interval_ranks(int(row["rounds"]))[1] for row in rows]
        text += (
            " Run by run, ours into the default files against ours into one file ran "
            + "; ".join(
                f"{setting(row['dsync'])} at {interval(row, table=False)}: "
                + (SEGMENT_COST_WORDS if level >= stats.CONFIDENCE else SEGMENT_COST_LEANINGS)[row["crosscheck"]]
                for row, level in zip(rows, levels)
            )
            + "."
        )
        if min(levels) < stats.CONFIDENCE and few and runs_text([int(row["rounds"]) for row in rows]) == runs_text(few):
            text += " These run-by-run intervals rest on as few rounds, so a direction there is a leaning too."
        elif min(levels) < stats.CONFIDENCE:
            text += (
                f" With {runs_text([int(row['rounds']) for row in rows])} rounds, such an interval holds the median "
                f"with {fmt.num(100 * min(levels), 2)} % confidence, not {fmt.num(100 * stats.CONFIDENCE)} %, so a "
                "direction there is a leaning."
            )
        if any(row["crosscheck"] == "ours higher" for row in rows):
            text += (
                " A rollover only adds work, so a faster run into the default files may show how far the disk "
                "drifted between runs rather than a gain; these runs cannot say which."
            )
        if rollovers is not None and rollovers <= 1:
            text += (
                f" With {fmt.count(rollovers, 'rollover')} in a run, these rows say little about what a rollover "
                "costs; the rollover experiment above measures that."
            )
        if rollover is not None:
            deep = metrics.filter(
                (pl.col("segment_bytes") == DEFAULT_SEGMENT_BYTES)
                & (pl.col("mode") == DEEP)
                & (pl.col("capacity") == capacity)
            )
            text += _rollover_beside_words(rows, rollover, int(deep["buffers"][0]) if deep.height else None)
    return text


def _rollover_beside_words(cost_rows: list[dict], rollover: pl.DataFrame, buffers: int | None = None) -> str:
    """After segment_goal_sentence's run-by-run ratios (from the fio table's runs, whose deep
    mode kept `buffers` buffers): what the rollover experiment found for the default files
    made ahead against one file, per setting, and whether the two agree (rollover_agreement),
    naming how their buffer counts differ; where a row's rounds give its interval less than
    95 % confidence, its direction is a leaning and said as one; '' where it did not run."""
    from .plan import DEFAULT_SEGMENT_BYTES

    said, found_all = [], set()
    for row in cost_rows:
        rate = rollover_rate(rollover, DEFAULT_SEGMENT_BYTES, dsync=bool(row["dsync"]))
        found = rollover_agreement(row["crosscheck"], rate)
        if found == "missing":
            continue
        leaning = not _sure(row.get("rounds")) and row["crosscheck"] != "inconclusive"
        if leaning and found == "one could not tell":
            found = "neither clear"  # these runs only lean; the rollover experiment could not tell
        found_all.add(found)
        setting = "with O_DSYNC" if row["dsync"] else "without O_DSYNC"
        verdict = {
            "agree": "the two experiments agree",
            "disagree": "the two experiments disagree",
            "one could not tell": "one of the two experiments could not tell",
            "neither clear": "neither experiment finds a clear difference",
        }[found]
        if leaning:
            verdict = {
                "agree": "it points the way these runs only lean",
                "disagree": "it points against the way these runs lean",
                "neither clear": "neither experiment finds a clear difference (these runs only lean)",
            }[found]
        said.append(
            f"{setting}, its {fmt.size(DEFAULT_SEGMENT_BYTES)} files made ahead ran "
            + claims.versus(rate, "one file", **claims.RATE_WORDS)
            + f": {verdict}"
        )
    if not said:
        return ""
    theirs = rollover["buffers"].drop_nulls().unique().sort().to_list() if "buffers" in rollover.columns else []
    if buffers is not None and len(theirs) == 1 and int(theirs[0]) != buffers:
        how = f"with {fmt.count(int(theirs[0]), 'buffer')} where these rows kept {buffers}, and at another moment"
        differ = f"their buffers ({int(theirs[0])} against {buffers})"
    else:
        how = "with its own flushes and buffers and at another moment"
        differ = "their flushes and buffers"
    return (
        " Those ratios come from the fio table's runs; the rollover experiment above, "
        + how
        + ", found: "
        + "; ".join(said)
        + "."
        + (
            f" Where they disagree, these runs cannot say which holds for the default files: the two experiments "
            f"differ in {differ}, and this disk's speed may have moved between them."
            if "disagree" in found_all
            else ""
        )
        + (
            f" Where one could not tell, the clear finding rests on one experiment alone; the two differ in {differ}."
            if "one could not tell" in found_all
            else ""
        )
    )


_ROLLOVER_KEYS = ["dsync", "segments_ahead", "segment_bytes"]
#: The rollover table's columns, in order.
ROLLOVER_COLUMNS = [
    "O_DSYNC",
    "segment files made",
    "segment",
    "rollovers",
    "records/s",
    "writer's wait µs",
    "making a file µs",
    "per rollover µs",
    "rounds",
]


def rollover_rounds(metrics: pl.DataFrame) -> pl.DataFrame:
    """The rollover experiment run by run: elapsed time, rollovers, records/s, the writer's
    wait per segment file and the time making one took, and the cost per rollover: how
    much longer the run took than the one into a single segment (same O_DSYNC setting,
    same maker, same round), divided by its rollovers (null without rollovers)."""
    wanted = ["elapsed_ms", "rollovers", "records_per_s", "wait_us", "make_ms"]
    runs = metrics.filter(pl.col("metric").is_in(wanted))
    if runs.height == 0:
        return pl.DataFrame(
            schema={
                **{k: metrics.schema.get(k, pl.Int64) for k in _ROLLOVER_KEYS},
                "repetition": pl.Int64,
                **{m: pl.Float64 for m in wanted},
                "per_rollover_us": pl.Float64,
            }  # fmt: skip
        )
    wide = runs.pivot(on="metric", index=[*_ROLLOVER_KEYS, "repetition"], values="value")
    group = ["dsync", "segments_ahead", "repetition"]
    base = (
        wide.sort("segment_bytes")
        .group_by(group)
        .agg(
            pl.col("elapsed_ms").sort_by("segment_bytes").last().alias("base_ms"),
            pl.col("rollovers").sort_by("segment_bytes").last().alias("base_rollovers"),
        )
    )
    joined = wide.join(base, on=group, how="left")
    extra = pl.col("rollovers") - pl.col("base_rollovers")
    return joined.with_columns(
        pl.when(extra > 0)
        .then((pl.col("elapsed_ms") - pl.col("base_ms")) * 1e3 / extra)
        .otherwise(None)
        .alias("per_rollover_us")
    ).drop("base_ms", "base_rollovers")


def per_rollover_spread(runs: pl.DataFrame) -> dict[int, list[tuple[int, float, Estimate]]]:
    """From rollover_rounds at one O_DSYNC setting: per maker (segments_ahead), the segment
    sizes whose runs rolled over, each (segment bytes, rollovers per run, the run's time per
    rollover beyond the single file's with the interval of its median), but only for the
    makers where two sizes' intervals do not overlap: a cost per rollover would be about the
    same at every size, so there the figure does not behave as one. {} where every maker's
    intervals overlap."""
    out: dict[int, list[tuple[int, float, Estimate]]] = {}
    rolled = runs.filter(pl.col("per_rollover_us").is_not_null())
    for (ahead,), part in rolled.sort("segments_ahead").group_by(["segments_ahead"], maintain_order=True):
        found = []
        for (seg,), at in part.sort("segment_bytes").group_by(["segment_bytes"], maintain_order=True):
            est = _values_estimate(at["per_rollover_us"].to_list())
            if est is not None:
                found.append((int(seg), float(at["rollovers"].median()), est))
        apart = any(a.lo > b.hi or b.lo > a.hi for i, (_, _, a) in enumerate(found) for _, _, b in found[i + 1 :])
        if apart:
            out[int(ahead)] = found
    return out


def per_rollover_scaling_words(runs: pl.DataFrame) -> str:
    """' At the other segment sizes the same figure …': where per_rollover_spread finds the
    run's time per rollover differing between segment sizes (intervals that do not overlap),
    each size's figure with its rollovers, and that the figure does not behave as a cost per
    rollover here, with the possible causes as possibilities; '' where it held steady."""
    spread = per_rollover_spread(runs)
    if not spread:
        return ""
    said = []
    for ahead, found in spread.items():
        figures = [
            f"{signed(est.median)} µs at {fmt.size(seg)} ({signed(est.lo)} to {signed(est.hi)}; "
            f"{fmt.count(int(n), 'rollover')})"
            for seg, n, est in found
        ]
        said.append(f"with files {'made by the writer' if ahead == 0 else 'made ahead'}, " + ", ".join(figures))
    return (
        " That figure changed with the segment size more than its intervals allow: "
        + "; ".join(said)
        + ". A cost per rollover would be about the same at every size, so the run's extra time did not grow in "
        "step with its rollovers, and the figure does not behave as a cost per rollover here. A rollover's wait "
        "may overlap flushes already in flight, and this disk's speed moves between rounds; these runs cannot "
        "say which."
    )


def signed(x: float | None) -> str:
    """``fmt.num`` with a minus sign, not a hyphen, before a negative number: '−25.9'."""
    if x is None:
        return fmt.NA
    return f"−{fmt.num(-x)}" if x < 0 else fmt.num(x)


def signed_span(lo: float | None, hi: float | None) -> str:
    """A range whose ends may be negative: '−84.6 to 593' (a dash between them would read as
    a minus); 'n/a' when unmeasured."""
    if lo is None or hi is None:
        return fmt.NA
    return f"{signed(lo)} to {signed(hi)}"


def rollover_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Per O_DSYNC setting, maker and segment size: rollovers per run; records/s, the
    writer's wait per segment file and the time making one took (µs), each the median over
    the rounds with the interval of the median (and the unstable mark where it stayed wider
    than ±`target`); the cost per rollover (µs) with its interval (signed, no mark: a
    difference near zero has no relative width); the rounds; a *note* where the case could
    not run."""
    runs = rollover_rounds(metrics)
    if runs.height == 0:  # nothing ran: every column, and why on each case's row
        missing = stats.unsupported(metrics, _ROLLOVER_KEYS)
        texts = ["records/s", "writer's wait µs", "making a file µs", "per rollover µs", "rounds"]
        return pl.DataFrame(
            {
                "O_DSYNC": ["yes" if d else "no" for d in missing["dsync"]],
                "segment files made": [ahead_name(a) for a in missing["segments_ahead"]],
                "segment": [fmt.size(b) for b in missing["segment_bytes"]],
                "rollovers": pl.Series([None] * missing.height, dtype=pl.Float64),
                **{c: pl.Series([fmt.NA] * missing.height, dtype=pl.String) for c in texts},
                "note": missing["note"],
            }
        ).select(*ROLLOVER_COLUMNS, "note")
    out = []
    for key, part in runs.sort(*_ROLLOVER_KEYS).group_by(_ROLLOVER_KEYS, maintain_order=True):
        dsync, ahead, segment = key
        make = _values_estimate(part["make_ms"].to_list())
        out.append(
            {
                "O_DSYNC": "yes" if dsync else "no",
                "segment files made": ahead_name(ahead),
                "segment": fmt.size(segment),
                "rollovers": float(part["rollovers"].median()),
                "records/s": _cell(_values_estimate(part["records_per_s"].to_list()), target),
                "writer's wait µs": _cell(_values_estimate(part["wait_us"].to_list()), target)
                if part["rollovers"].max() > 0
                else "none: no rollover",
                "making a file µs": _cell(make.scaled(1e3) if make is not None else None, target),
                "per rollover µs": _signed_cell(_values_estimate(part["per_rollover_us"].to_list()))
                if part["per_rollover_us"].drop_nulls().len()
                else "none: no rollover",
                "rounds": str(part.height),
            }
        )
    return pl.DataFrame(
        out,
        schema={
            "O_DSYNC": pl.String,
            "segment files made": pl.String,
            "segment": pl.String,
            "rollovers": pl.Float64,
            **{c: pl.String for c in ROLLOVER_COLUMNS[4:]},
        },  # fmt: skip
    )


def rollover_numbers(
    metrics: pl.DataFrame, segment: int | None = None, *, dsync: bool = True
) -> dict[str, float | None]:
    """For the prose, with O_DSYNC (or without it: `dsync`) at `segment` bytes (default: Memtable's default size),
    medians over the rounds: the time making a segment file took when the writer made it
    (``make_writer_ms``) and when the helper did (``make_helper_ms``); the writer's wait per
    file in each case (``wait_writer_us``, ``wait_helper_us``); the cost per rollover in
    each case (``cost_writer_us``, ``cost_helper_us``); records/s with the helper at that
    size over records/s into one segment (``helper_vs_one``). None where not measured."""
    from .plan import DEFAULT_SEGMENT_BYTES

    segment = DEFAULT_SEGMENT_BYTES if segment is None else segment
    runs = rollover_rounds(metrics).filter(pl.col("dsync") == dsync)
    out: dict[str, float | None] = dict.fromkeys(
        [
            "make_writer_ms",
            "make_helper_ms",
            "wait_writer_us",
            "wait_helper_us",
            "cost_writer_us",
            "cost_helper_us",
            "helper_vs_one",
        ]  # fmt: skip
    )
    if runs.height == 0:
        return out

    def median(frame: pl.DataFrame, column: str) -> float | None:
        v = frame[column].drop_nulls()
        return float(v.median()) if v.len() else None

    at = runs.filter(pl.col("segment_bytes") == segment)
    for label, rows in (("writer", at.filter(pl.col("segments_ahead") == 0)),
                        ("helper", at.filter(pl.col("segments_ahead") > 0))):  # fmt: skip
        out[f"make_{label}_ms"] = median(rows, "make_ms")
        out[f"wait_{label}_us"] = median(rows, "wait_us")
        out[f"cost_{label}_us"] = median(rows, "per_rollover_us")
    helper = runs.filter(pl.col("segments_ahead") > 0)
    if helper.height:
        one = helper.filter(pl.col("segment_bytes") == helper["segment_bytes"].max())
        out["helper_vs_one"] = fmt.quotient(median(helper.filter(pl.col("segment_bytes") == segment), "records_per_s"),
                                            median(one, "records_per_s"))  # fmt: skip
    return out


def _us_from_ms(ms: float | None) -> float | None:
    return None if ms is None else ms * 1e3


def _rounds_estimate(values: pl.Series) -> Estimate | None:
    """The median of per-round values with the interval of that median; None without any."""
    v = [float(x) for x in values.drop_nulls().to_list()]
    if not v:
        return None
    lo, hi, level = stats.median_interval(v)
    return Estimate(float(pl.Series(v).median()), lo, hi, len(v), level)


def rollover_rate(metrics: pl.DataFrame, segment: int | None = None, *, dsync: bool = True) -> claims.Comparison:
    """The rollover experiment's records/s with files of `segment` bytes (default:
    Memtable's default size) made ahead by the helper against the helper's run into a
    single file, at one O_DSYNC setting (claims.compare of the rounds' intervals)."""
    from .plan import DEFAULT_SEGMENT_BYTES

    segment = DEFAULT_SEGMENT_BYTES if segment is None else segment
    runs = rollover_rounds(metrics).filter((pl.col("dsync") == dsync) & (pl.col("segments_ahead") > 0))
    if runs.height == 0:
        return claims.compare(None, None)
    helper = runs.filter(pl.col("segment_bytes") == segment)
    whole = runs.filter(pl.col("segment_bytes") == runs["segment_bytes"].max())
    if helper.height == 0 or whole.height == 0 or segment == runs["segment_bytes"].max():
        return claims.compare(None, None)
    return claims.compare(_rounds_estimate(helper["records_per_s"]), _rounds_estimate(whole["records_per_s"]))


def rollover_sentence(metrics: pl.DataFrame, segment: int | None = None, *, dsync: bool = True) -> str:
    """The rollover experiment in words at one O_DSYNC setting (`dsync`), at `segment`
    bytes (default: Memtable's default size), in the table's µs: what making a file took and
    what the writer waited per rollover, by who made the files (longer or shorter only where
    the rounds' intervals do not overlap); then the run's time per rollover, called a cost
    only where the interval of its median lies above zero; then records/s with the helper
    against the run into a single file (rollover_rate)."""
    from .plan import DEFAULT_SEGMENT_BYTES

    segment = DEFAULT_SEGMENT_BYTES if segment is None else segment
    n = rollover_numbers(metrics, segment, dsync=dsync)
    size = fmt.size(segment)
    setting = "With O_DSYNC" if dsync else "Without O_DSYNC"
    if n["make_writer_ms"] is None and n["make_helper_ms"] is None:
        why = charts.reasons(metrics)
        runs_with = "O_DSYNC runs" if dsync else "runs without O_DSYNC"
        return f"The rollover experiment could not run here ({why or f'no {runs_with} with {size} files'})."

    def us(x: float | None) -> str:
        return f"{fmt.num(x)} µs" if x is not None else fmt.NA

    runs = rollover_rounds(metrics).filter(pl.col("dsync") == dsync)
    at = runs.filter(pl.col("segment_bytes") == segment)
    writer, helper = at.filter(pl.col("segments_ahead") == 0), at.filter(pl.col("segments_ahead") > 0)
    make = claims.compare(_rounds_estimate(helper["make_ms"]), _rounds_estimate(writer["make_ms"]))
    wait = claims.compare(_rounds_estimate(helper["wait_us"]), _rounds_estimate(writer["wait_us"]))
    text = (
        f"{setting}, making a {size} file took {us(_us_from_ms(n['make_writer_ms']))} when the writer made "
        f"its files itself (the mean over all of a run's files, the first one included, which no rollover "
        f"waits for), and the writer waited {us(n['wait_writer_us'])} at each rollover. Made ahead by the "
        f"helper, a file took {us(_us_from_ms(n['make_helper_ms']))}"
        + (" (the helper shares the disk and the CPUs with the writes)" if make.direction == claims.HIGHER else "")
        + f", and the writer waited {us(n['wait_helper_us'])} per rollover, "
        + claims.versus(wait, "when it made its own files", more="longer", less="shorter", same="about as long as")
        + "."
    )
    parts, unclear = [], False
    for label, rows in (("made by the writer", writer), ("made ahead", helper)):
        cost = _values_estimate(rows["per_rollover_us"].to_list())
        if cost is None:
            continue
        lo, hi, mid = cost.lo, cost.hi, cost.median
        rounds = fmt.count(cost.runs, "round")
        if lo > 0:
            parts.append(
                f"with files {label}, the run took {us(mid)} longer per rollover ({us(lo)} to {us(hi)}, the "
                f"interval of the median over {rounds})"
            )
        elif lo == hi:
            parts.append(f"with files {label}, every round took as long as into a single file, so no cost shows here")
        elif hi < 0:
            parts.append(
                f"with files {label}, the run into them was faster than into a single file (by {us(-hi)} to "
                f"{us(-lo)} per rollover, the interval over {rounds}), so no cost shows here"
            )
        else:
            unclear = True
            parts.append(
                f"with files {label}, the run's time per rollover beyond the single file's lies between "
                f"{signed(lo)} and {signed(hi)} µs (the interval of the median over {rounds}), inconclusive here"
            )
    if parts:
        text += " Against the run into a single file, " + "; ".join(parts) + "."
        if unclear:
            text += " An interval that includes zero cannot tell a rollover's cost from this disk's noise."
        text += per_rollover_scaling_words(runs)
    rate = rollover_rate(metrics, segment, dsync=dsync)
    if rate.direction != claims.MISSING:
        text += (
            f" In records per second, {size} files made ahead ran "
            + claims.versus(rate, "into one file", **claims.RATE_WORDS)
            + "."
        )
    return text


# ---- the RocksDB section's figures with their intervals ----------------------------------------
# (built here from the rocksdb subject's stored runs, beside rocksdb.report's tables, which give medians)


def rocksdb_versus_frame(metrics: pl.DataFrame, metric: str = "ops_per_s") -> pl.DataFrame:
    """For the grouped bar chart of db_bench's tests: this machine's median per test with
    the interval of the median (``lo``, ``hi``) and the run count, beside seed 000's
    single printed figure (lo = hi = median, one run)."""
    from ..rocksdb import report as rocksdb_report

    summary = _summary(metrics, ["test"]).filter(pl.col("metric") == metric)
    ours = summary.select(
        "test", group=pl.lit(rocksdb_report.THIS_MACHINE), median="median", lo="lo", hi="hi",
        repetitions=pl.col("repetitions").cast(pl.Int64),
    )  # fmt: skip
    seed = (
        rocksdb_report.seed_figures()
        .filter(pl.col("metric") == metric)
        .select(
            "test", group=pl.lit(rocksdb_report.SEED_MACHINE), median="value", lo="value", hi="value",
            repetitions=pl.lit(1, dtype=pl.Int64),
        )
    )  # fmt: skip
    return pl.concat([ours, seed])


def time_per_op(ops_per_s: Estimate | None, threads: int) -> Estimate | None:
    """One thread's time per operation (µs) from the operations per second of all
    `threads`: threads / ops/s, the interval turned round with it (the highest rate gives
    the shortest time). Derived from the same estimate as the rate beside it, so the two
    never disagree, which a median of per-run times would where the runs are few (with
    two, each median is a mean, and a mean of rates is not the inverse of a mean of times).
    None when not measured or not positive."""
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise ValueError(f"threads must be a positive whole number, got {threads!r}")
    if ops_per_s is None or ops_per_s.lo <= 0:
        return None
    us = threads * 1e6
    return Estimate(us / ops_per_s.median, us / ops_per_s.hi, us / ops_per_s.lo, ops_per_s.runs, ops_per_s.confidence)


def rocksdb_rates(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Per test, this machine's ops/s as the median with the interval of the median (and
    the unstable mark where it stayed wider than ±`target`), its run count, and time/op,
    one thread's time per operation derived from that ops/s (``time_per_op``, with its
    interval; no mark of its own: it is the rate's, turned round), to set in the
    comparison table beside the medians of the other columns."""
    rows = metrics.filter(pl.col("metric") == "ops_per_s")
    out = []
    for test in rows["test"].unique(maintain_order=True).to_list():
        est = _estimate(rows, "ops_per_s", test=test)
        threads = int(rows.filter(pl.col("test") == test)["threads"][0])
        out.append(
            {
                "test": test,
                "ops/s": _cell(est, target),
                "runs": runs_text([est.runs] if est else []),
                "time/op": _cell(time_per_op(est, threads), None, fmt.duration_us),
            }
        )
    return pl.DataFrame(out, schema={"test": pl.String, "ops/s": pl.String, "runs": pl.String, "time/op": pl.String})


def with_rocksdb_rates(table: pl.DataFrame, rates: pl.DataFrame) -> pl.DataFrame:
    """The RocksDB comparison table (rows of this machine and of seed 000's laptop, a
    numeric ``ops/s`` and, if present, ``time/op`` in µs) with this machine's ops/s and
    time/op as rocksdb_rates gives them (median and interval) and a ``runs`` column after
    ops/s; the laptop's figures as printed ('µs' for time/op), its runs 'printed'."""
    from ..rocksdb import report as rocksdb_report

    cells = {r["test"]: r for r in rates.iter_rows(named=True)}
    ops, runs, per_op = [], [], []
    for row in table.iter_rows(named=True):
        ours = row["machine"] == rocksdb_report.THIS_MACHINE and row["test"] in cells
        ops.append(cells[row["test"]]["ops/s"] if ours else fmt.num(row["ops/s"]))
        runs.append(cells[row["test"]]["runs"] if ours else "printed")
        if "time/op" in table.columns:
            per_op.append(cells[row["test"]].get("time/op", fmt.NA) if ours else fmt.duration_us(row["time/op"]))
    at = table.columns.index("ops/s")
    shown = table.with_columns(pl.Series("ops/s", ops, dtype=pl.String), pl.Series("runs", runs, dtype=pl.String))
    if "time/op" in table.columns:
        shown = shown.with_columns(pl.Series("time/op", per_op, dtype=pl.String))
    order = [c for c in table.columns if c != "runs"]
    return shown.select(*order[: at + 1], "runs", *order[at + 1 :])


#: A cross-check verdict read from fewer rounds than give 95 % confidence: a leaning.
LEANING_VERDICTS = {"ours higher": "leans higher", "ours lower": "leans lower", "agrees": "leans to agree"}


def db_bench_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Our loop against db_bench, per test, one thread each: each side's ops/s (the median
    with the interval of the median, the unstable mark where it stayed wider than
    ±`target`), ours / db_bench as the median of the per-round ratios with the interval of
    that median, its verdict (claims.crosscheck; a leaning, ``LEANING_VERDICTS``, where the
    rounds give that interval less than 95 % confidence) and the rounds; a *note* where a
    side could not run."""
    by = ["test", "threads"]
    paired = paired_ratios(metrics, by, "ops_per_s", tool="db_bench", rounds=True)
    ratios = round_ratios(metrics, by, "ops_per_s", theirs="db_bench")
    missing = stats.unsupported(metrics, ["test", "tool"])
    out = []
    for test, threads in metrics.select(by).unique(maintain_order=True).iter_rows():
        at = metrics.filter((pl.col("test") == test) & (pl.col("threads") == threads))
        r = ratios.filter((pl.col("test") == test) & (pl.col("threads") == threads))["r"].to_list()
        verdict = paired.filter((pl.col("test") == test) & (pl.col("threads") == threads))["verdict"]
        verdict_cell = verdict[0] if verdict.len() else fmt.NA
        if verdict.len() and stats.interval_ranks(len(r))[1] < stats.CONFIDENCE:
            verdict_cell = LEANING_VERDICTS.get(verdict_cell, verdict_cell)
        why = missing.filter(pl.col("test") == test)
        out.append(
            {
                "test": test,
                "threads": int(threads),
                "ours ops/s": _cell(_estimate(at, "ops_per_s", tool="howfast"), target),
                "db_bench ops/s": _cell(_estimate(at, "ops_per_s", tool="db_bench"), target),
                "ours / db_bench": _ratio_cell(ratio_estimate(r) if r else None),
                "verdict": verdict_cell,
                "rounds": len(r) or None,
                "note": "; ".join(f"{w['tool']}: {w['note']}" for w in why.iter_rows(named=True)) or None,
            }
        )
    schema = {"test": pl.String, "threads": pl.Int64, "ours ops/s": pl.String, "db_bench ops/s": pl.String,
              "ours / db_bench": pl.String, "verdict": pl.String, "rounds": pl.Int64, "note": pl.String}  # fmt: skip
    table = pl.DataFrame(out, schema=schema)
    return table if table["note"].drop_nulls().len() else table.drop("note")


def db_bench_range_sentence(metrics: pl.DataFrame) -> str:
    """The lowest and highest of the tests' ours / db_bench, each the median of its
    per-round ratios (as the cross-check table gives them); the reason when none ran."""
    ratios = round_ratios(metrics, ["test", "threads"], "ops_per_s", theirs="db_bench")
    if ratios.height == 0:
        why = charts.reasons(metrics)
        return f"There is no cross-check on this machine ({why or 'no result'})."
    r = ratios.group_by("test", "threads").agg(pl.col("r").median())["r"]
    if r.len() == 1:
        return f"Our loop ran at {short_factor(r[0])}× of db_bench's rate (the median of the per-round ratios)."
    return (
        f"Test by test, our loop ran at {short_factor(r.min())}× to {short_factor(r.max())}× of db_bench's rate "
        "(each the median of its per-round ratios, as the table gives it)."
    )


def db_bench_verdict_words(metrics: pl.DataFrame) -> str:
    """The cross-check's verdicts in words, and what they can bear, each case by its own
    rounds: the cases with six rounds or more (an interval of the median at 95 %) as
    findings, crosscheck.verdicts_sentence; those with fewer as leanings (the interval is the
    lowest ratio to the highest, held with the confidence its rounds give), said as such; a
    reason when nothing ran both."""
    by = ["test", "threads"]
    paired = paired_ratios(metrics, by, "ops_per_s", tool="db_bench", rounds=True)
    if paired.height == 0:
        return crosscheck_words_none(metrics)
    sure_level = pl.col("rounds").map_elements(lambda k: stats.interval_ranks(int(k))[1], return_dtype=pl.Float64)
    paired = paired.with_columns(sure_level.alias("level"))
    sure = paired.filter(pl.col("level") >= stats.CONFIDENCE)
    few = paired.filter(pl.col("level") < stats.CONFIDENCE)
    if few.height == 0:
        return (
            verdicts_sentence(paired.drop("rounds", "level"), tool="db_bench")
            + f" Each rests on {runs_text(paired['rounds'].to_list())} rounds."
        )
    leanings = _leaning_words(few)
    if sure.height == 0:
        rounds = runs_text(few["rounds"].to_list())
        return (
            f"With only {rounds} {'round' if rounds == '1' else 'rounds'} per case, each interval runs from the "
            f"lowest ratio to the highest and {_held(few)}, not {fmt.num(100 * stats.CONFIDENCE)} %, so the "
            "verdict column gives leanings, not findings: " + leanings + "."
        )
    found = verdicts_sentence(sure.drop("rounds", "level"), tool="db_bench").replace(
        "that ran both",
        f"with {runs_text(sure['rounds'].to_list())} rounds ({fmt.listed(sure['test'].to_list())})",
        1,
    )
    rounds = runs_text(few["rounds"].to_list())
    return (
        found + f" The other {fmt.count(few.height, 'case')} ({fmt.listed(few['test'].to_list())}) had only {rounds} "
        f"{'round' if rounds == '1' else 'rounds'}: there the interval runs from the lowest ratio to the highest "
        f"and {_held(few)}, not {fmt.num(100 * stats.CONFIDENCE)} %, so those verdicts are leanings, not "
        "findings: " + leanings + "."
    )


def _held(few: pl.DataFrame) -> str:
    """'holds the median with 75 % confidence', or per round count where they differ."""
    counts = sorted({int(k) for k in few["rounds"].to_list()})
    if len(counts) == 1:
        return f"holds the median with {fmt.num(100 * stats.interval_ranks(counts[0])[1], 2)} % confidence"
    levels = [f"{fmt.num(100 * stats.interval_ranks(k)[1], 2)} % at {fmt.count(k, 'round')}" for k in counts]
    return f"holds the median with a confidence of {fmt.listed(levels)}"


def _leaning_words(few: pl.DataFrame) -> str:
    """'1 case leaned slower and 1 case did not lean either way': the leanings by verdict."""
    words = {
        "ours higher": "leaned faster than db_bench",
        "ours lower": "leaned slower",
        "agrees": "leaned towards agreement (within 0.9–1.1×)",
        "inconclusive": "did not lean either way",
    }
    n = {k: int(few.filter(pl.col("verdict") == k).height) for k in words}
    return fmt.listed([f"{fmt.count(v, 'case')} {words[k]}" for k, v in n.items() if v])


def crosscheck_words_none(metrics: pl.DataFrame) -> str:
    """Why there is no db_bench verdict: the reason each side could not run, or no result."""
    why = charts.reasons(metrics)
    return f"Our loop and db_bench did not both run here ({why or 'no result'}), so there is no verdict."


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
