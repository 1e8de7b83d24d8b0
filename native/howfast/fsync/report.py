"""Tables, chart data and sentences for the fsync chapter, from its stored results.

Code compares the methods' ids (``experiments.METHODS``); what a reader sees is
``METHOD_NAMES``, applied by ``named`` as the last step before a table or chart.
"""

from __future__ import annotations

import polars as pl

from .. import fmt, reference, stats
from ..charts import THIS_MACHINE
from ..checks import checked
from ..crosscheck import side_by_side

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


def method_table(metrics: pl.DataFrame, layout: str) -> pl.DataFrame:
    """One row per method: latency percentiles (median over repetitions, µs) and
    durable writes per second (median, min, max); unsupported methods say why."""
    rows = metrics.filter(pl.col("layout") == layout)
    summary = stats.summarize(rows, ["method"])
    medians = summary.filter(pl.col("metric").is_in(LATENCY_COLUMNS)).pivot(
        on="metric", index="method", values="median"
    )
    rate = summary.filter(pl.col("metric") == "writes_per_s").select(
        "method",
        pl.col("median").alias("writes/s"),
        pl.col("min").alias("slowest run"),
        pl.col("max").alias("fastest run"),
    )
    table = medians.join(rate, on="method", how="left", maintain_order="left")
    missing = stats.unsupported(rows, ["method"])
    if missing.height:
        table = pl.concat([table, missing.rename({"note": "unsupported"})], how="diagonal")
    return named(
        table.select(
            [
                "method",
                *LATENCY_COLUMNS,
                "writes/s",
                "slowest run",
                "fastest run",
                *(["unsupported"] if "unsupported" in table.columns else []),
            ]
        )
    )


def layout_comparison(metrics: pl.DataFrame) -> pl.DataFrame:
    """Median p50 latency (µs) per method for a growing file and for overwrites."""
    summary = stats.summarize(metrics, ["method", "layout"])
    return named(summary.filter(pl.col("metric") == "p50").select("method", "layout", "median", "min", "max"))


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
    """This machine's median write+fsync p50 beside the articles' fsync latencies (µs)."""
    summary = stats.summarize(metrics, ["method", "layout"])
    words = {"append": "growing file", "overwrite": "rewritten file"}
    ours = summary.filter((pl.col("method") == "fsync") & (pl.col("metric") == "p50")).select(
        label=pl.concat_str(pl.lit(f"{THIS_MACHINE}: 4 KiB write + fsync, "), pl.col("layout").replace_strict(words)),
        latency_us=pl.col("median"),
        this_machine=pl.lit(True),
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
        return f"Every case's slowest and fastest repetitions were within {fmt.ratio(stats.WIDE_SPREAD)} of each other."
    worst = named(wide).row(0, named=True)
    name = ", ".join(str(worst[k]) for k in by)
    return (
        f"{wide.height} of {summary.filter(pl.col('metric') == metric).height} cases varied by more than "
        f"{fmt.ratio(stats.WIDE_SPREAD)} between repetitions (worst: {name}, {fmt.ratio(worst['spread'])}), "
        "so read their medians as rough."
    )


def fio_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Ours beside fio per method, in durable writes per second."""
    return named(side_by_side(metrics, ["method"], "writes_per_s", unit="writes/s"))


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
