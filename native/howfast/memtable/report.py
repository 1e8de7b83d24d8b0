"""Tables and chart data for the memtables chapter, built from stored results and from
seed 002's Go figures (data/reference/memtable.csv)."""

from __future__ import annotations

import altair as alt
import polars as pl

from .. import charts, claims, fmt, machine, reference, stats
from ..checks import checked
from ..crosscheck import ratio_estimate, round_ratios, side_by_side
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


def best_mode(metrics: pl.DataFrame) -> pl.DataFrame:
    """Per capacity and O_DSYNC setting: the flush mode with the most records/s (median)."""
    s = _summary(metrics, ["capacity", "dsync", "mode", "buffers"]).filter(pl.col("metric") == "records_per_s")
    return (
        s.sort("median", descending=True)
        .group_by(["capacity", "dsync"], maintain_order=True)
        .first()
        .sort("dsync", "capacity")
    )


def sweep_table(metrics: pl.DataFrame, dsync: bool) -> pl.DataFrame:
    """One row per capacity: records/s of each flush mode (median), flushes/s and ns per
    record of the fastest, the seed's Go figures, and our blocking writer over the seed's
    (like with like: the seed's design is the blocking one)."""
    rows = metrics.filter(pl.col("dsync") == dsync)
    s = _summary(rows, ["capacity", "mode", "buffers"])
    rate = (
        rows.select("capacity")
        .unique()
        .sort("capacity")
        .join(
            s.filter(pl.col("metric") == "records_per_s").pivot(on="mode", index="capacity", values="median"),
            on="capacity",
            how="left",
        )
    )
    for mode in MODES:
        if mode not in rate.columns:
            rate = rate.with_columns(pl.lit(None, dtype=pl.Float64).alias(mode))
    best = best_mode(rows).select("capacity", pl.col("mode").alias("best"), "buffers")
    chosen = s.join(best, left_on=["capacity", "mode", "buffers"], right_on=["capacity", "best", "buffers"])
    extra = chosen.filter(pl.col("metric").is_in(["flushes_per_s", "ns_per_op"])).pivot(
        on="metric", index="capacity", values="median"
    )
    for column in ("flushes_per_s", "ns_per_op"):
        if column not in extra.columns:
            extra = extra.with_columns(pl.lit(None, dtype=pl.Float64).alias(column))
    seed = (
        seed_figures()
        .filter(pl.col("dsync") == dsync)
        .select("capacity", pl.col("records_per_s").alias("seed records/s"), pl.col("ns_per_op").alias("seed ns/op"))
    )
    table = rate.join(extra, on="capacity", how="left").join(seed, on="capacity", how="left").sort("capacity")
    deep = rows.filter(pl.col("mode") == DEEP).select("capacity", "buffers").unique()
    table = table.join(deep.rename({"buffers": "deep buffers"}), on="capacity", how="left")
    table = table.with_columns(
        pl.max_horizontal(*MODES).alias("best records/s"),
    ).with_columns((pl.col(BLOCKING) / pl.col("seed records/s")).alias("blocking / seed"))
    missing = (
        stats.unsupported(rows, ["capacity", "mode"])
        .group_by("capacity", maintain_order=True)
        .agg((pl.concat_str(pl.col("mode").str.join(", "), pl.lit(": "), pl.col("note").first())).alias("unsupported"))
    )
    if missing.height:
        table = table.join(missing, on="capacity", how="left")
    return table.select(
        pl.col("capacity").map_elements(fmt.size, return_dtype=pl.String).alias("capacity"),
        pl.col(BLOCKING).alias(MODE_NAMES[BLOCKING]),
        pl.col(DOUBLE).alias(MODE_NAMES[DOUBLE]),
        pl.col(DEEP).alias(MODE_NAMES[DEEP]),
        "deep buffers",
        pl.col("flushes_per_s").alias("flushes/s"),
        pl.col("ns_per_op").alias("ns/record"),
        "seed records/s",
        "seed ns/op",
        "blocking / seed",
        *(["unsupported"] if missing.height else []),
    )


#: The seed's line in the sweep chart's legend (short: a legend label is never cut).
SEED_SERIES = "seed 002 (Go)"


def sweep_curves(metrics: pl.DataFrame) -> pl.DataFrame:
    """Long data for the seed's chart: MB/s and ns per record against capacity (KiB),
    ours per flush mode (median and range) beside the seed's Go run."""
    s = _summary(metrics, ["capacity", "dsync", "mode"]).filter(pl.col("metric").is_in(["mb_per_s", "ns_per_op"]))
    ours = s.select(
        "capacity",
        "dsync",
        "metric",
        "median",
        "min",
        "max",
        pl.col("mode").replace_strict(MODE_NAMES).alias("series"),
    )
    seed = (
        seed_figures()
        .unpivot(index=["capacity", "dsync"], on=["mb_per_s", "ns_per_op"], variable_name="metric", value_name="median")
        .with_columns(pl.col("median").alias("min"), pl.col("median").alias("max"), pl.lit(SEED_SERIES).alias("series"))
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
    band = base.mark_area(opacity=0.15).encode(y=alt.Y("min:Q", scale=alt.Scale(type="log")), y2="max:Q")
    line = base.mark_line(point=True).encode(
        y=alt.Y("median:Q", scale=alt.Scale(type="log"), title=y_title, axis=y_axis),
        strokeDash=dash,
        tooltip=[
            alt.Tooltip("series:N"),
            alt.Tooltip("kib:Q", title="KiB"),
            alt.Tooltip("median:Q", format=",.4~g"),
            alt.Tooltip("min:Q", format=",.4~g"),
            alt.Tooltip("max:Q", format=",.4~g"),
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
    """Bars of records/s per buffer count (median), rules from slowest to fastest run."""
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
            alt.Tooltip("min:Q", format=",.4~g"),
            alt.Tooltip("max:Q", format=",.4~g"),
        ],
    )
    spread = base.mark_rule(color="#333").encode(x="min:Q", x2="max:Q")
    return (bars + spread).properties(height=alt.Step(24))


def variant_table(metrics: pl.DataFrame, group: str) -> pl.DataFrame:
    """One row per variant of a group: records/s (median, range), MB/s, per-record
    latency percentiles (µs) and, for the log, records per fdatasync."""
    rows = metrics.filter(pl.col("group") == group)
    s = _summary(rows, ["variant"])
    wide = s.pivot(on="metric", index="variant", values="median")
    rng = s.filter(pl.col("metric") == "records_per_s").select(
        "variant", pl.col("min").alias("slowest run"), pl.col("max").alias("fastest run")
    )
    table = (
        rows.select("variant")
        .unique(maintain_order=True)
        .join(wide, on="variant", how="left")
        .join(rng, on="variant", how="left")
    )
    columns = ["variant", "records_per_s", "slowest run", "fastest run", "mb_per_s", *LATENCY_COLUMNS]
    if group == "durability":  # the log's group commit: records per fdatasync
        columns.append("records_per_sync")
    # every column, also when no variant could run here (their cells then read n/a)
    table = table.with_columns([pl.lit(None, dtype=pl.Float64).alias(c) for c in columns if c not in table.columns])
    table = table.select(columns).rename(
        {"records_per_s": "records/s", "mb_per_s": "MB/s", "records_per_sync": "records per fdatasync"}, strict=False
    )
    missing = stats.unsupported(rows, ["variant"]).rename({"note": "unsupported"})
    if missing.height:
        table = table.join(missing, on="variant", how="left")
    return table.with_columns(variant_names())


def depth_bars(metrics: pl.DataFrame) -> pl.DataFrame:
    """records/s per buffer count at the depth capacity, with O_DSYNC."""
    rows = metrics.filter(pl.col("group") == "depth")
    s = _summary(rows, ["variant"]).filter(pl.col("metric") == "records_per_s")
    return s.select(variant_names().alias("label"), "median", "min", "max", pl.lit("records/s").alias("what"))


def fio_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Ours beside fio (same bytes, O_DIRECT, block size = capacity, same depth): MB/s
    medians and ranges, the median and range of the per-repetition ratios, and the
    median share of our run spent filling the first buffer, before any write."""
    by = ["capacity", "dsync", "flush", "buffers"]
    keyed = metrics.with_columns(
        pl.struct("mode", "buffers")
        .map_elements(lambda r: mode_name(r["mode"], r["buffers"]), return_dtype=pl.String)
        .alias("flush")
    )
    cases = side_by_side(keyed, by, "mb_per_s", unit="MB/s")
    fill = (
        keyed.filter((pl.col("tool") == "howfast") & (pl.col("metric") == "first_fill_share"))
        .group_by(by)
        .agg(pl.col("value").median().alias("first fill"))
    )
    cases = cases.join(fill, on=by, how="left", maintain_order="left")  # empty where ours could not run
    return (
        cases.rename({"howfast / fio": "ours / fio"})
        .sort("dsync", "capacity")
        .with_columns(
            pl.col("capacity").map_elements(fmt.size, return_dtype=pl.String),
            pl.when(pl.col("dsync")).then(pl.lit("yes")).otherwise(pl.lit("no")).alias("dsync"),
            pl.col("buffers").alias("writes in flight"),
        )
        .drop("buffers")
        .rename({"dsync": "O_DSYNC"})
    )


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
        "The table gives that share for every row (first fill); the fewer flushes a run has, the more of it "
        "goes to the start."
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


def where_table(facts: dict, plan, metrics: pl.DataFrame) -> pl.DataFrame:
    caps = sorted(metrics["capacity"].unique().to_list())
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
                "repetitions per case",
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
                str(int(metrics["repetition"].max()) + 1),
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


def versus(c: claims.Comparison, obj: str, *, more: str, less: str, same: str) -> str:
    """`c` in words with what it compares against (`obj`), the ratio after it: '1.3× faster
    than the unpinned one', 'about as fast as the unpinned one (0.99×)', 'not clearly faster
    or slower than the unpinned one (0.77× by the medians, but the runs overlap)', 'not
    compared with the unpinned one: one of the two could not run here'."""
    if not isinstance(c, claims.Comparison):
        raise TypeError(f"c must be a claims.Comparison, got {type(c).__name__}")
    if c.direction == claims.HIGHER:
        return f"{fmt.ratio(c.ratio)} {more} than {obj}"
    if c.direction == claims.LOWER:
        return f"{fmt.ratio(1 / c.ratio)} {less} than {obj}"
    if c.direction == claims.SAME_WORD:
        return f"{same} {obj} ({fmt.num(c.ratio, 3)}×)"
    if c.direction == claims.UNCLEAR:
        return f"not clearly {more} or {less} than {obj} ({fmt.num(c.ratio, 2)}× by the medians, but the runs overlap)"
    return f"not compared with {obj}: one of the two could not run here"


def _rate_versus(c: claims.Comparison, obj: str) -> str:
    return versus(c, obj, more="faster", less="slower", same="about as fast as")


def dsync_effect(c: claims.Comparison, *, short: bool = False) -> str:
    """What O_DSYNC did to a rate, to follow 'with O_DSYNC it ran ', for every outcome of
    claims.compare(with, without): slower, faster (which O_DSYNC cannot cause: it only adds
    a wait to each flush), about as fast, unclear, or not measured."""
    if not isinstance(c, claims.Comparison):
        raise TypeError(f"c must be a claims.Comparison, got {type(c).__name__}")
    if c.direction == claims.LOWER:
        return f"{fmt.ratio(1 / c.ratio)} slower than without it"
    if c.direction == claims.HIGHER:
        why = (
            " (the disk's drift between runs, larger than what O_DSYNC costs there)"
            if short
            else ", although O_DSYNC only adds a wait to each flush: at this size that wait was smaller than "
            "how far this disk's speed moved between runs"
        )
        return f"{fmt.ratio(c.ratio)} faster than without it{why}"
    if c.direction == claims.SAME_WORD:
        return f"about as fast as without it ({fmt.num(c.ratio, 3)}×)"
    if c.direction == claims.UNCLEAR:
        return (
            f"not clearly slower or faster than without it ({fmt.num(c.ratio, 2)}× by the medians, "
            "but the runs overlap)"
        )
    return "not compared with the run without it: one of the two could not run here"


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


def dsync_summary(metrics: pl.DataFrame) -> str:
    """The closing section's sentence on O_DSYNC: what it cost the blocking writer and the
    fastest mode at the smallest capacity, and the fastest mode at the largest, each word
    from claims.compare; the lead says where it cost, as the comparisons found."""
    rows = metrics.filter(pl.col("metric") == "records_per_s")
    if rows.height == 0:
        return "O_DSYNC could not be measured here."
    caps = sorted(rows["capacity"].unique().to_list())
    small, large = caps[0], caps[-1]
    blocking = dsync_comparison(metrics, small, BLOCKING)
    small_best, large_best = dsync_comparison(metrics, small), dsync_comparison(metrics, large)
    slower = [c.direction == claims.LOWER for c in (small_best, large_best)]
    if all(slower):
        more_at_small = small_best.hi is not None and large_best.lo is not None and small_best.hi < large_best.lo
        lead = (
            "O_DSYNC cost the fastest mode most where flushes are small"
            if more_at_small
            else "O_DSYNC cost the fastest mode at every size measured"
        )
    elif slower[0]:
        lead = "O_DSYNC cost the fastest mode where flushes are small, not clearly at the largest size"
    elif slower[1]:
        lead = "O_DSYNC cost the fastest mode at the largest size, not clearly at the smallest"
    else:
        lead = "On this disk O_DSYNC did not clearly slow the fastest mode"
    return (
        f"{lead}: at {fmt.size(small)} the blocking writer ran {dsync_effect(blocking, short=True)} and the "
        f"fastest mode {dsync_effect(small_best, short=True)}; at {fmt.size(large)} the fastest mode ran "
        f"{dsync_effect(large_best, short=True)}."
    )


def blocking_gain(metrics: pl.DataFrame, obj: str) -> str:
    """The blocking writer at the largest capacity without O_DSYNC against the smallest
    (`obj`), in words from claims.compare."""
    rows = metrics.filter((pl.col("metric") == "records_per_s") & ~pl.col("dsync") & (pl.col("mode") == BLOCKING))
    if rows.height == 0:
        return _rate_versus(claims.compare(None, None), obj)
    caps = sorted(rows["capacity"].unique().to_list())
    large = _estimate(rows, "records_per_s", capacity=caps[-1])
    small = _estimate(rows, "records_per_s", capacity=caps[0])
    return _rate_versus(claims.compare(large, small), obj)


def dsync_device_words(facts: dict) -> str:
    """What O_DSYNC asks of this disk: every segment write lands in new space (appended, or
    in preallocated blocks not yet written), so the file's metadata changes with it and
    the kernel ends the write as an fdatasync would; what that means for the disk's write
    cache comes from its measured mode (machine.write_cache_words)."""
    return (
        "Every segment write here lands in new space (appended, or in preallocated blocks not yet written), "
        "so it changes the file's metadata, and with O_DSYNC the kernel ends each write as an fdatasync "
        "would: it commits that metadata and makes the device put the data where it survives a power cut. "
        f"This disk reports its write cache as {machine.write_cache_words(facts)}."
    )


def pin_comparison(metrics: pl.DataFrame, flush: str, obj: str) -> str:
    """'1.2× faster than <obj>' / 'about as fast as <obj> (0.99×)' / ...: the pinned writer
    of `flush` ('blocking' or 'uring') against its unpinned twin, from claims.compare."""
    pinned = _estimate(metrics, "records_per_s", variant=f"{flush}_pinned")
    unpinned = _estimate(metrics, "records_per_s", variant=f"{flush}_unpinned")
    return _rate_versus(claims.compare(pinned, unpinned), obj)


def depth_comparison(metrics: pl.DataFrame, obj: str) -> str:
    """The fastest buffer count with O_DSYNC (by the median) against one buffer (the
    blocking flush, `obj`), in words from claims.compare."""
    rows = metrics.filter((pl.col("group") == "depth") & (pl.col("metric") == "records_per_s"))
    if rows.height == 0:
        return _rate_versus(claims.compare(None, None), obj)
    top = rows.group_by("variant").agg(pl.col("value").median()).sort("value", descending=True).row(0, named=True)
    best = _estimate(rows, "records_per_s", variant=top["variant"])
    one = _estimate(rows, "records_per_s", variant="depth_1")
    return _rate_versus(claims.compare(best, one), obj)


def repeat_sentence(sweep: pl.DataFrame, variants: pl.DataFrame, capacity: int) -> str:
    """The same configuration measured by more than one experiment (the sweep's case at
    the variants' capacity, the unpinned writers, the durability table's 'no log'): which
    figures, and whether they differ (claims.compare of the lowest and highest)."""
    groups = (
        (
            "blocking",
            [
                ("the sweep", _estimate(sweep, "records_per_s", capacity=capacity, dsync=False, mode=BLOCKING)),
                ("the pinning table's unpinned run", _estimate(variants, "records_per_s", variant="blocking_unpinned")),
            ],
        ),
        (
            MODE_NAMES[DOUBLE],
            [
                ("the sweep", _estimate(sweep, "records_per_s", capacity=capacity, dsync=False, mode=DOUBLE)),
                ("the pinning table's unpinned run", _estimate(variants, "records_per_s", variant="uring_unpinned")),
                ("the durability table's no-log run", _estimate(variants, "records_per_s", variant=NO_LOG)),
            ],
        ),
    )
    parts = []
    for mode, runs in groups:
        found = [(who, e) for who, e in runs if e is not None]
        if len(found) < 2:
            continue
        shown = [f"{fmt.num(e.median)} records/s in {who}" for who, e in found]
        figures = ", ".join(shown[:-1]) + " and " + shown[-1]
        parts.append(f"the {fmt.size(capacity)} {mode} writer made {figures} ({_apart_words(found)})")
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


def _apart_words(found: list[tuple[str, Estimate]]) -> str:
    """How far apart the runs of one configuration in several experiments are: the same
    within their ranges, apart by the medians only, or apart with nothing changed but the
    moment (claims.compare of the highest and the lowest)."""
    low = min(found, key=lambda r: r[1].median)
    high = max(found, key=lambda r: r[1].median)
    c = claims.compare(high[1], low[1])
    if c.direction == claims.SAME_WORD:
        return "the same within their ranges"
    if c.direction == claims.UNCLEAR:
        return f"{fmt.ratio(c.ratio)} apart by the medians, but their runs overlap"
    return (
        f"{fmt.ratio(c.ratio)} apart with nothing changed but the moment they ran: "
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
        parts.append(
            f"{mode_name(mode, buffers)} made {fmt.num(there.median)} records/s in the sweep and "
            f"{fmt.num(ours.median)} here ({_apart_words(found)})"
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
    return versus(claims.compare(handoff, copy), obj, more="more", less="less", same="about as much as")


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
        f"{fmt.ratio(worst)}; the words above call one variant faster than another only where their runs "
        "do not overlap."
        if worst
        else "The pinning variants could not run here."
    )
    return out


def fio_sentence(metrics: pl.DataFrame) -> str:
    """Ours against fio per case, each verdict from claims.crosscheck on the interval of the
    per-round ratios (runs made one after the other): agrees, slower, faster, inconclusive."""
    rows = metrics.filter(pl.col("metric") == "mb_per_s")
    segments = "segment_bytes" in rows.columns and rows["segment_bytes"].n_unique() > 1
    by = ["capacity", "dsync", "mode", "buffers", *(["segment_bytes"] if segments else [])]
    if rows.height == 0 or not {"howfast", "fio"} <= set(rows["tool"].unique().to_list()):
        why = charts.reasons(metrics.filter(pl.col("tool") == "fio"))
        return f"fio could not run here ({why or 'no result'}), so there is no cross-check."
    ratios = round_ratios(rows, by, "mb_per_s", theirs="fio")
    groups: dict[str, list[str]] = {"agrees": [], "ours lower": [], "ours higher": [], "inconclusive": []}
    for key, part in ratios.sort(*by).group_by(by, maintain_order=True):
        capacity, dsync, mode, buffers = key[:4]
        verdict = claims.crosscheck(ratio_estimate(part["r"].to_list()))
        r = verdict.ratio
        case = f"{mode_name(mode, buffers)} at {fmt.size(capacity)}{' with O_DSYNC' if dsync else ''}"
        if segments:
            case += f" in {fmt.size(key[4])} segments"
        groups[verdict.outcome].append(f"{case} ({fmt.ratio(r.median)}, {fmt.num(r.lo, 2)}–{fmt.ratio(r.hi)})")
    lead = {
        "agrees": "agreed with fio, the whole range of its ratios within 0.9–1.1×",
        "ours lower": "was clearly slower than fio, the whole range of its ratios below 1",
        "ours higher": "was clearly faster than fio, the whole range of its ratios above 1",
        "inconclusive": "was inconclusive, its ratios straddling 1 or leaving the band",
    }
    parts = [f"{lead[k]}: {'; '.join(v)}" for k, v in groups.items() if v]
    return (
        "Against fio at the same block size and depth (ours / fio, median and range of the rounds), ours "
        + (". Ours ".join(parts))
        + "."
    )


def fio_steadiness(metrics: pl.DataFrame) -> str:
    """How far the same fio job moved between repetitions: the noise floor of the comparison."""
    rows = metrics.filter((pl.col("tool") == "fio") & (pl.col("metric") == "mb_per_s"))
    if rows.height == 0:
        why = charts.reasons(metrics.filter(pl.col("tool") == "fio"))
        return f"fio could not run here ({why or 'no result'}), so how steady the disk is went unmeasured."
    spread = stats.summarize(rows, ["capacity", "dsync", "mode", "buffers"]).filter(pl.col("repetitions") > 1)
    if spread.height == 0:
        return "Each fio job ran once, so how steady the disk is went unmeasured."
    worst = spread.sort("spread").row(-1, named=True)
    return (
        f"The disk itself is not steady: the same fio job ({fmt.size(worst['capacity'])} writes"
        f"{' with O_DSYNC' if worst['dsync'] else ''}) ran between {fmt.num(worst['min'])} and "
        f"{fmt.num(worst['max'])} MB/s from one repetition to the next, {fmt.ratio(worst['spread'])} apart, "
        "so one pair of runs says little on its own."
    )


def fio_short(table: pl.DataFrame) -> str:
    """'0.95× to 1.1×' over the io_uring rows (what the peak mode is compared with)."""
    r = table.filter(pl.col("flush") != MODE_NAMES[BLOCKING])["ours / fio"].drop_nulls()
    return f"{fmt.ratio(r.min())} to {fmt.ratio(r.max())}" if r.len() else "n/a"


def plateau_sentence(metrics: pl.DataFrame) -> str:
    """Where the fastest mode's MB/s without O_DSYNC stops growing with the capacity, read
    by claims.curve from each capacity's interval: still rising, levels off, flat, or
    collapses."""
    rows = metrics.filter((pl.col("metric") == "mb_per_s") & ~pl.col("dsync"))
    if rows.height == 0:
        return "The sweep could not run here."
    points = []
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
    shape = claims.curve(points)
    if shape.kind == "rising":
        return (
            f"Without O_DSYNC, the fastest mode's throughput was still rising at the largest capacity measured, "
            f"{fmt.size(points[-1][0])}; the full profile goes further."
        )
    if shape.kind == "knee":
        gain = round(claims.FLAT_GAIN * 100)
        return (
            f"Without O_DSYNC, the fastest mode's throughput levels off from {fmt.size(shape.x)}: no larger "
            f"capacity was clearly more than {gain} % faster (the interval of its median wholly above that "
            "margin), so past that point a larger memtable buys little."
        )
    if shape.kind == "flat":
        return (
            "Without O_DSYNC, no capacity's fastest mode was clearly faster than at the smallest, "
            f"{fmt.size(points[0][0])}: the runs of every size overlap with its runs."
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


def seed_small_words(metrics: pl.DataFrame) -> str:
    """This machine's blocking writer at the smallest capacity without O_DSYNC against the
    seed's figure there (claims.compare; the seed's figure is one printed number), and the
    seed's time per flush, from its flushes per second."""
    rows = metrics.filter(pl.col("metric") == "records_per_s")
    if rows.height == 0:
        return "This machine's sweep could not run, so it is not compared with the seed's."
    small = int(rows["capacity"].min())
    ours = _estimate(metrics, "records_per_s", capacity=small, dsync=False, mode=BLOCKING)
    seed = seed_figures().filter((pl.col("capacity") == small) & ~pl.col("dsync"))
    if seed.height == 0:
        return f"The seed did not measure {fmt.size(small)}, so the smallest memtables are not compared."
    theirs = Estimate.exact(float(seed["records_per_s"][0]))
    per_flush = fmt.duration_us(1e6 / float(seed["flushes_per_s"][0]))
    words = _rate_versus(claims.compare(ours, theirs), "the seed's")
    return (
        f"One flush took its disk about {per_flush}; at {fmt.size(small)}, where a flush's round trip sets the "
        f"pace, this machine's blocking writer was {words}."
    )


def queue_wait_us(queue_depth: int, records_per_s: float | None) -> float | None:
    """Little's law: how long a full queue of `queue_depth` records takes to drain (µs)."""
    return None if not records_per_s else queue_depth / records_per_s * 1e6


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
#: The breakdown table's measured columns, in order.
BREAKDOWN_COLUMNS = (
    "MB/s",
    "records / flush",
    "record work µs",
    "flush work µs",
    "buffer wait µs",
    "checksums µs",
    "flushes / submit",
    "in flight",
    "writer CPU",
    "writer sleeps",
    "writer vol. cs",
    "writer invol. cs",
    "producer cs",
)
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


def breakdown_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Per case (medians over the clocked runs): MB/s, records per flush, the writer's
    work per flush (per-record part and per-flush part) against its wait for a free
    buffer, the producers' checksums, flushes per io_uring submission, CPU and how often
    the threads slept or were switched out, per flush."""
    runs = _clocked_runs(metrics)
    if "ns_per_op" not in runs.columns:  # nothing ran: every column, and why on each case's row
        missing = stats.unsupported(metrics, ["capacity", "dsync"])
        return pl.DataFrame(
            {
                "capacity": [fmt.size(c) for c in missing["capacity"]],
                "O_DSYNC": ["yes" if d else "no" for d in missing["dsync"]],
                **{c: pl.Series([None] * missing.height, dtype=pl.Float64) for c in BREAKDOWN_COLUMNS},
                "note": missing["note"],
            }
        )
    per_flush = pl.col("records_per_flush") / 1e3  # ns per record -> µs per flush
    table = (
        runs.select(
            "capacity",
            "dsync",
            pl.col("mb_per_s").alias("MB/s"),
            pl.col("records_per_flush").alias("records / flush"),
            (_sum(RECORD_WORK) * per_flush).alias("record work µs"),
            (_sum(FLUSH_WORK) * per_flush).alias("flush work µs"),
            (pl.col("t_buffer_wait") * per_flush).alias("buffer wait µs"),
            (pl.col("hash_ns_per_record") * per_flush).alias("checksums µs"),
            pl.col("flushes_per_submit").alias("flushes / submit"),
            pl.col("mean_depth").alias("in flight"),
            pl.col("writer_cpu_share").alias("writer CPU"),
            (pl.col("completion_waits_per_flush") + pl.col("writer_waits_per_flush")).alias("writer sleeps"),
            pl.col("writer_voluntary_per_flush").alias("writer vol. cs"),
            pl.col("writer_involuntary_per_flush").alias("writer invol. cs"),
            (pl.col("producer_voluntary_per_flush") + pl.col("producer_involuntary_per_flush")).alias("producer cs"),
        )
        .group_by("capacity", "dsync")
        .median()
        .sort("dsync", "capacity")
    )
    return table.with_columns(
        pl.col("capacity").map_elements(fmt.size, return_dtype=pl.String),
        pl.when(pl.col("dsync")).then(pl.lit("yes")).otherwise(pl.lit("no")).alias("dsync"),
    ).rename({"dsync": "O_DSYNC"})


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
        for part in ("t_buffer_wait", "t_submit", "t_drain"):
            v = out[f"{key}_{part}"]
            out[f"{key}_{part}_share"] = None if v is None or not ns else v / ns
        work = [out[f"{key}_{p}"] for p in RECORD_WORK]
        out[f"{key}_record_work"] = None if any(w is None for w in work) else sum(work)
        out[f"{key}_record_work_share"] = (
            None if out[f"{key}_record_work"] is None or not ns else out[f"{key}_record_work"] / ns
        )
        waits = (out[f"{key}_completion_waits_per_flush"], out[f"{key}_writer_waits_per_flush"])
        out[f"{key}_sleeps_per_flush"] = None if None in waits else sum(waits)
    return out | {f"cost_{k}": v for k, v in counter_cost(metrics).items()}


def pace_sentence(numbers: dict[str, object]) -> str:
    """Whether the writer's own work or its wait for the disk took more of the run at the
    smallest capacity without O_DSYNC (from breakdown_numbers)."""
    work, wait = numbers.get("small_record_work_share"), numbers.get("small_t_buffer_wait_share")
    if work is None or wait is None:
        return "The breakdown could not run here."
    per_record = fmt.duration_us(numbers["small_record_work"] / 1e3)
    if wait > work:
        return (
            f"The lesson of a small memtable: the writer's work per record, {per_record}, is not what sets "
            f"the pace. It waited for the disk ({fmt.share(wait)} of the run) longer than it worked on "
            f"records ({fmt.share(work)}): what matters is keeping the disk's queue full."
        )
    return (
        f"Here the writer's work per record, {per_record}, set the pace: it worked on records for "
        f"{fmt.share(work)} of the run and waited for the disk only {fmt.share(wait)}; the disk's queue "
        "matters as well."
    )


def counter_cost_sentence(metrics: pl.DataFrame) -> str:
    """What the counters' clocks cost, from runs with them on and off side by side."""
    c = counter_cost(metrics)
    if c["ratio"] is None:
        return "Runs without the clocks could not be compared here, so their cost went unmeasured."
    rows = metrics.filter(pl.col("metric") == "records_per_s")
    wide = rows.pivot(on="counters", index=["capacity", "dsync", "repetition"], values="value")
    values = (wide["true"] / wide["false"]).drop_nulls().to_list()
    lo, hi, level = stats.median_interval(values)
    paired = claims.compare(Estimate(c["ratio"], lo, hi, len(values), level), Estimate.exact(1.0))
    verdict = _rate_versus(paired, "the runs without clocks")
    return (
        f"Paired run by run, the clocked runs were {verdict}; the paired ratios ranged from "
        f"{fmt.ratio(c['lo'])} to {fmt.ratio(c['hi'])}, the noise of this disk."
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


def fio_segment_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """``fio_table`` once per segment size (the chapter's first, then Memtable's default),
    with the column *segment* after the capacity."""
    if "segment_bytes" not in metrics.columns:
        return fio_table(metrics)
    parts = [
        fio_table(metrics.filter(pl.col("segment_bytes") == seg)).with_columns(pl.lit(fmt.size(seg)).alias("segment"))
        for seg in metrics["segment_bytes"].unique(maintain_order=True).to_list()
    ]
    table = pl.concat(parts, how="diagonal")
    order = [c for c in table.columns if c != "segment"]
    at = order.index("capacity") + 1
    return table.select(*order[:at], "segment", *order[at:])


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


def ratio_span(lo: float, hi: float) -> str:
    """An interval of ratios, two significant digits, more where an end would otherwise
    show as 1 though it is not 1 (an interval wholly above 1 never reads '1–1.5')."""
    if lo is None or hi is None:
        return fmt.NA

    def end(x: float) -> str:
        for digits in (2, 3, 4):
            text = fmt.num(x, digits)
            if text != "1" or x == 1:
                return text
        return text

    return f"{end(lo)}–{end(hi)}"


def segment_goal_sentence(metrics: pl.DataFrame) -> str:
    """The fio table's rows with Memtable's default segment size in words: how many
    rollovers a run had (fio writes one file in every row), ours / fio with its interval and
    the table's verdict, where those intervals lie against ``SEGMENT_GOAL``, and the same
    flushes into one segment file, run by run, with the verdict of that ratio."""
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

    def interval(row: dict, table: bool = True) -> str:  # as the fio table prints it, or exact at 1
        shown = fmt.span(row["min"], row["max"], 2) if table else ratio_span(row["min"], row["max"])
        return f"{fmt.ratio(row['median'])} ({shown})"

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
            f"{TABLE_VERDICT_WORDS[row['crosscheck']]}"
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
    if one.height:
        text += (
            " Into one segment file for the whole run, the same flushes reached "
            + " and ".join(f"{interval(row)} {setting(row['dsync'])}" for row in one.iter_rows(named=True))
            + "."
        )
    if cost.height:
        text += (
            " Run by run, ours into the default files against ours into one file ran "
            + "; ".join(
                f"{setting(row['dsync'])} at {interval(row, table=False)}: {SEGMENT_COST_WORDS[row['crosscheck']]}"
                for row in cost.iter_rows(named=True)
            )
            + (
                f". With {fmt.count(rollovers, 'rollover')} in a run, these rows say little about what a rollover "
                "costs; the rollover experiment above measures that."
                if rollovers is not None and rollovers <= 1
                else "."
            )
        )
    return text


_ROLLOVER_KEYS = ["dsync", "segments_ahead", "segment_bytes"]
#: The rollover table's columns, in order.
ROLLOVER_COLUMNS = [
    "O_DSYNC",
    "segment files made",
    "segment",
    "rollovers",
    "records/s",
    "records/s range",
    "writer's wait µs",
    "making a file µs",
    "per rollover µs",
    "per rollover range",
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


def rollover_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Per O_DSYNC setting, maker and segment size (medians over the rounds): rollovers,
    records/s and its range, the writer's wait per segment file, the time making one took,
    and the cost per rollover with its range; a *note* where the case could not run."""
    runs = rollover_rounds(metrics)
    if runs.height == 0:  # nothing ran: every column, and why on each case's row
        missing = stats.unsupported(metrics, _ROLLOVER_KEYS)
        numbers = ["rollovers", "records/s", "writer's wait µs", "making a file µs", "per rollover µs"]
        return pl.DataFrame(
            {
                "O_DSYNC": ["yes" if d else "no" for d in missing["dsync"]],
                "segment files made": [ahead_name(a) for a in missing["segments_ahead"]],
                "segment": [fmt.size(b) for b in missing["segment_bytes"]],
                **{c: pl.Series([None] * missing.height, dtype=pl.Float64) for c in numbers},
                "records/s range": pl.Series([fmt.NA] * missing.height, dtype=pl.String),
                "per rollover range": pl.Series([fmt.NA] * missing.height, dtype=pl.String),
                "note": missing["note"],
            }
        ).select(*ROLLOVER_COLUMNS, "note")
    table = (
        runs.group_by(_ROLLOVER_KEYS)
        .agg(
            pl.col("rollovers").median().alias("rollovers"),
            pl.col("records_per_s").median().alias("records/s"),
            pl.col("records_per_s").min().alias("lo"),
            pl.col("records_per_s").max().alias("hi"),
            pl.col("wait_us").median().alias("writer's wait µs"),
            (pl.col("make_ms").median() * 1e3).alias("making a file µs"),
            pl.col("per_rollover_us").median().alias("per rollover µs"),
            pl.col("per_rollover_us").min().alias("cost lo"),
            pl.col("per_rollover_us").max().alias("cost hi"),
        )
        .sort("dsync", "segments_ahead", "segment_bytes")
    )
    return table.select(
        pl.when(pl.col("dsync")).then(pl.lit("yes")).otherwise(pl.lit("no")).alias("O_DSYNC"),
        pl.col("segments_ahead").map_elements(ahead_name, return_dtype=pl.String).alias("segment files made"),
        pl.col("segment_bytes").map_elements(fmt.size, return_dtype=pl.String).alias("segment"),
        "rollovers",
        "records/s",
        pl.struct("lo", "hi")
        .map_elements(lambda r: fmt.span(r["lo"], r["hi"]), return_dtype=pl.String)
        .alias("records/s range"),
        "writer's wait µs",
        "making a file µs",
        "per rollover µs",
        pl.struct("cost lo", "cost hi")
        .map_elements(lambda r: signed_span(r["cost lo"], r["cost hi"]), return_dtype=pl.String)
        .alias("per rollover range"),
    )


def rollover_numbers(metrics: pl.DataFrame, segment: int | None = None) -> dict[str, float | None]:
    """For the prose, with O_DSYNC at `segment` bytes (default: Memtable's default size),
    medians over the rounds: the time making a segment file took when the writer made it
    (``make_writer_ms``) and when the helper did (``make_helper_ms``); the writer's wait per
    file in each case (``wait_writer_us``, ``wait_helper_us``); the cost per rollover in
    each case (``cost_writer_us``, ``cost_helper_us``); records/s with the helper at that
    size over records/s into one segment (``helper_vs_one``). None where not measured."""
    from .plan import DEFAULT_SEGMENT_BYTES

    segment = DEFAULT_SEGMENT_BYTES if segment is None else segment
    runs = rollover_rounds(metrics).filter(pl.col("dsync"))
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


def rollover_sentence(metrics: pl.DataFrame, segment: int | None = None) -> str:
    """The rollover experiment in words, with O_DSYNC at `segment` bytes (default:
    Memtable's default size), in the table's µs: what making a file took and what the
    writer waited per rollover, by who made the files (longer or shorter only where the
    rounds' intervals do not overlap); then the run's time per rollover, called a cost only
    where every round's was above zero; then records/s with the helper against the run
    into a single file."""
    from .plan import DEFAULT_SEGMENT_BYTES

    segment = DEFAULT_SEGMENT_BYTES if segment is None else segment
    n = rollover_numbers(metrics, segment)
    size = fmt.size(segment)
    if n["make_writer_ms"] is None and n["make_helper_ms"] is None:
        why = charts.reasons(metrics)
        return f"The rollover experiment could not run here ({why or f'no O_DSYNC runs with {size} files'})."

    def us(x: float | None) -> str:
        return f"{fmt.num(x)} µs" if x is not None else fmt.NA

    runs = rollover_rounds(metrics).filter(pl.col("dsync"))
    at = runs.filter(pl.col("segment_bytes") == segment)
    writer, helper = at.filter(pl.col("segments_ahead") == 0), at.filter(pl.col("segments_ahead") > 0)
    make = claims.compare(_rounds_estimate(helper["make_ms"]), _rounds_estimate(writer["make_ms"]))
    wait = claims.compare(_rounds_estimate(helper["wait_us"]), _rounds_estimate(writer["wait_us"]))
    text = (
        f"With O_DSYNC, making a {size} file took {us(_us_from_ms(n['make_writer_ms']))} when the writer made "
        f"its files itself (the mean over all of a run's files, the first one included, which no rollover "
        f"waits for), and the writer waited {us(n['wait_writer_us'])} at each rollover. Made ahead by the "
        f"helper, a file took {us(_us_from_ms(n['make_helper_ms']))}"
        + (" (the helper shares the disk and the CPUs with the writes)" if make.direction == claims.HIGHER else "")
        + f", and the writer waited {us(n['wait_helper_us'])} per rollover, "
        + versus(wait, "when it made its own files", more="longer", less="shorter", same="about as long as")
        + "."
    )
    parts = []
    for label, rows in (("made by the writer", writer), ("made ahead", helper)):
        cost = rows["per_rollover_us"].drop_nulls()
        if cost.len() == 0:
            continue
        lo, hi, mid = float(cost.min()), float(cost.max()), float(cost.median())
        if lo > 0:
            parts.append(
                f"with files {label}, each rollover cost the run {us(mid)} ({us(lo)} to {us(hi)} over the rounds)"
            )
        elif hi < 0:
            parts.append(
                f"with files {label}, every round ran faster than into a single file (by "
                f"{us(-hi)} to {us(-lo)} per rollover), so no cost shows here"
            )
        else:
            parts.append(
                f"with files {label}, the run's time per rollover beyond the single file's ran from "
                f"{signed(lo)} to {signed(hi)} µs over the rounds, so against this disk's noise the cost is "
                "inconclusive here"
            )
    if parts:
        text += " Against the run into a single file, " + "; ".join(parts) + "."
    if helper.height:
        whole = runs.filter((pl.col("segments_ahead") > 0) & (pl.col("segment_bytes") == runs["segment_bytes"].max()))
        rate = claims.compare(_rounds_estimate(helper["records_per_s"]), _rounds_estimate(whole["records_per_s"]))
        text += f" In records per second, {size} files made ahead ran " + _rate_versus(rate, "into one file") + "."
    return text


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
