"""Tables and chart data for the fsync chapter, built from stored results."""

from __future__ import annotations

import polars as pl

from . import reference, stats
from .charts import THIS_MACHINE
from .fsync import BLOCK_SIZES, GROUP_COMMIT, LATENCY
from .results import load

LATENCY_COLUMNS = ["p50", "p90", "p99", "p99.9", "max"]


def latency() -> pl.DataFrame:
    return load(LATENCY)


def method_table(metrics: pl.DataFrame, layout: str) -> pl.DataFrame:
    """One row per method: latency percentiles (median over repetitions, µs) and
    durable writes per second (median, min, max); unsupported methods say why."""
    rows = metrics.filter(pl.col("layout") == layout)
    summary = stats.summarize(rows, ["method"])
    medians = summary.filter(pl.col("metric").is_in(LATENCY_COLUMNS)).pivot(
        on="metric", index="method", values="median"
    )
    rate = summary.filter(pl.col("metric") == "writes_per_s").select(
        "method", pl.col("median").alias("writes/s"), pl.col("min").alias("slowest run"),
        pl.col("max").alias("fastest run"),
    )
    table = medians.join(rate, on="method", how="left", maintain_order="left")
    missing = stats.unsupported(rows, ["method"])
    if missing.height:
        table = pl.concat([table, missing.rename({"note": "unsupported"})], how="diagonal")
    return table.select(["method", *LATENCY_COLUMNS, "writes/s", "slowest run", "fastest run",
                         *(["unsupported"] if "unsupported" in table.columns else [])])


def layout_comparison(metrics: pl.DataFrame) -> pl.DataFrame:
    """Median p50 latency (µs) per method for a growing file and for overwrites."""
    summary = stats.summarize(metrics, ["method", "layout"])
    return summary.filter(pl.col("metric") == "p50").select("method", "layout", "median", "min", "max")


def block_size_curves(metrics: pl.DataFrame, metric: str) -> pl.DataFrame:
    summary = stats.summarize(metrics, ["method", "block_size"])
    return summary.filter(pl.col("metric") == metric).with_columns(kib=pl.col("block_size") / 1024)


def group_commit_curves(metrics: pl.DataFrame) -> pl.DataFrame:
    """Records per second and sync-batch p50 latency (µs) against records per fsync."""
    summary = stats.summarize(metrics, ["records_per_sync"])
    return summary.filter(pl.col("metric").is_in(["records_per_s", "p50"])).with_columns(
        quantity=pl.when(pl.col("metric") == "records_per_s")
        .then(pl.lit("durable records per second"))
        .otherwise(pl.lit("time until a batch is durable (p50, µs)"))
    )


def versus_reference(metrics: pl.DataFrame) -> pl.DataFrame:
    """This machine's median write+fsync p50 beside the articles' fsync latencies (µs)."""
    summary = stats.summarize(metrics, ["method", "layout"])
    ours = summary.filter((pl.col("method") == "write + fsync") & (pl.col("metric") == "p50")).select(
        label=pl.concat_str(pl.lit(f"{THIS_MACHINE}: 4 KiB write + fsync, "), pl.col("layout"), pl.lit(" file")),
        latency_us=pl.col("median"),
        this_machine=pl.lit(True),
    )
    ours = ours.with_columns(
        label=pl.col("label").str.replace("append file", "growing file").str.replace("overwrite file", "rewritten file")
    )
    ref = reference.in_us(reference.load("fsync").filter(pl.col("metric") == "latency"))
    theirs = ref.select(
        label=pl.concat_str(pl.col("device"), pl.lit(" — seed "), pl.col("source").str.slice(0, 3)),
        latency_us=pl.col("value"),
        this_machine=pl.lit(False),
    )
    return pl.concat([ours, theirs])


def spread_sentence(metrics: pl.DataFrame, by: list[str], metric: str = "writes_per_s") -> str:
    """A sentence on how much repetitions disagreed, naming the worst cases."""
    summary = stats.summarize(metrics, by)
    wide = stats.wide_spreads(summary, metric, by).sort("spread", descending=True)
    if wide.height == 0:
        return f"Every case's repetitions agreed within {stats.WIDE_SPREAD}× of each other."
    worst = wide.row(0, named=True)
    name = ", ".join(str(worst[k]) for k in by)
    return (
        f"{wide.height} of {summary.filter(pl.col('metric') == metric).height} cases varied by more than "
        f"{stats.WIDE_SPREAD}× between repetitions (worst: {name}, {worst['spread']:.1f}×), so read their "
        "medians as rough."
    )


def block_sizes() -> pl.DataFrame:
    return load(BLOCK_SIZES)


def group_commit() -> pl.DataFrame:
    return load(GROUP_COMMIT)


def fio_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Ours beside fio per method, in durable writes per second."""
    from .crosscheck import side_by_side

    return side_by_side(metrics, ["method"], "writes_per_s", unit="writes/s")
