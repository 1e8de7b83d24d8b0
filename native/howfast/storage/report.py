"""Tables and chart data for the storing-data chapter, from stored results and the
seeds' figures."""

from __future__ import annotations

import polars as pl

from .. import reference, stats
from ..charts import THIS_MACHINE
from ..crosscheck import side_by_side
from .experiments import PARALLEL_JOBS

CASE = ["engine", "pattern", "op", "fsync", "direct", "block_size"]
LAPTOP = "laptop, WD SN750 (seed 000)"
#: The words for the RAM-against-disk cases (medium, what).
MEDIUM_NAMES = {
    ("ram", "copy"): "RAM (memcpy)",
    ("disk", "read"): "disk, O_DIRECT sequential read",
    ("disk", "write"): "disk, O_DIRECT sequential write",
}


def _row_label(with_size: bool = True) -> pl.Expr:
    """'io_uring random write + fsync', plus the block size when it is not 256 KiB."""
    what = (
        pl.when(pl.col("op") == "read")
        .then(pl.lit("read"))
        .when(pl.col("fsync"))
        .then(pl.lit("write + fsync"))
        .otherwise(pl.lit("write - fsync"))
    )
    kib = pl.col("block_size") // 1024
    size = (
        pl.when(pl.col("block_size") >= 1048576)
        .then(pl.concat_str(pl.lit(" ("), (kib // 1024).cast(pl.String), pl.lit(" MiB)")))
        .otherwise(pl.concat_str(pl.lit(" ("), kib.cast(pl.String), pl.lit(" KiB)")))
    )
    size = pl.when(pl.col("block_size") != 262144).then(size).otherwise(pl.lit("")) if with_size else pl.lit("")
    return pl.concat_str(pl.col("engine"), pl.lit(" "), pl.col("pattern"), pl.lit(" "), what, size).alias("row")


def _medians(metrics: pl.DataFrame, by: list[str], metric: str, name: str) -> pl.DataFrame:
    s = stats.summarize(metrics, by).filter(pl.col("metric") == metric)
    return s.select(
        *by, pl.col("median").alias(name), pl.col("min").alias(f"{name} min"), pl.col("max").alias(f"{name} max")
    )


def seed_matrix() -> pl.DataFrame:
    """The laptop's 19 rows: ops/s and MB/s per (engine, pattern, op, fsync, block size)."""
    ref = reference.load("disk_matrix").filter(
        (pl.col("benchmark") == "disk_matrix") & (pl.col("figure_type") == "measured")
    )
    ref = ref.with_columns(fsync=pl.col("fsync").fill_null(False).cast(pl.Boolean))
    return ref.pivot(on="metric", index=["engine", "pattern", "op", "fsync", "block_size"], values="value").rename(
        {"ops_per_s": "laptop ops/s", "mb_per_s": "laptop MB/s"}
    )


def matrix_table(metrics: pl.DataFrame, direct: bool) -> pl.DataFrame:
    """This machine's matrix (buffered or O_DIRECT) beside the laptop's figures."""
    rows = metrics.filter(pl.col("direct") == direct)
    by = ["engine", "pattern", "op", "fsync", "block_size"]
    ours = _medians(rows, by, "ops_per_s", "ops/s").join(_medians(rows, by, "mb_per_s", "MB/s"), on=by)
    table = ours.join(seed_matrix(), on=by, how="left", maintain_order="left")
    missing = stats.unsupported(rows, by)
    if missing.height:
        table = pl.concat([table, missing], how="diagonal")
    table = table.with_columns(_row_label())
    cols = ["row", "ops/s", "MB/s", "MB/s min", "MB/s max", "laptop ops/s", "laptop MB/s"]
    return table.select(cols + (["note"] if "note" in table.columns else []))


def matrix_bars(metrics: pl.DataFrame) -> pl.DataFrame:
    """MB/s per row, this machine (buffered, as the seed ran it) beside the laptop."""
    table = matrix_table(metrics, direct=False)
    ours = table.select(
        "row",
        pl.lit(THIS_MACHINE).alias("machine"),
        pl.col("MB/s").alias("median"),
        pl.col("MB/s min").alias("min"),
        pl.col("MB/s max").alias("max"),
    )
    theirs = table.filter(pl.col("laptop MB/s").is_not_null()).select(
        "row",
        pl.lit(LAPTOP).alias("machine"),
        pl.col("laptop MB/s").alias("median"),
        pl.col("laptop MB/s").alias("min"),
        pl.col("laptop MB/s").alias("max"),
    )
    return pl.concat([ours, theirs]).drop_nulls("median")


def direct_vs_buffered(metrics: pl.DataFrame) -> pl.DataFrame:
    """Median MB/s of each 256 KiB row, buffered and O_DIRECT."""
    rows = metrics.filter(pl.col("block_size") == 262144)
    s = stats.summarize(rows, CASE).filter(pl.col("metric") == "mb_per_s")
    return s.with_columns(
        _row_label(), mode=pl.when(pl.col("direct")).then(pl.lit("O_DIRECT")).otherwise(pl.lit("buffered (page cache)"))
    ).select("row", "mode", "median", "min", "max")


def page_cache_rows(metrics: pl.DataFrame) -> pl.DataFrame:
    s = stats.summarize(metrics, ["direct", "cache"])
    mb = s.filter(pl.col("metric") == "mb_per_s")
    p50 = s.filter(pl.col("metric") == "p50").select("direct", "cache", pl.col("median").alias("p50 per read (µs)"))
    names = {
        (True, "n/a"): "O_DIRECT: from the device",
        (False, "cold"): "buffered, cache dropped first",
        (False, "warm"): "buffered, already in the page cache",
    }
    out = mb.join(p50, on=["direct", "cache"]).with_columns(
        how=pl.struct("direct", "cache").map_elements(
            lambda r: names[(r["direct"], r["cache"])], return_dtype=pl.String
        )
    )
    return out.select(
        "how",
        pl.col("median").alias("MB/s"),
        pl.col("min").alias("MB/s min"),
        pl.col("max").alias("MB/s max"),
        "p50 per read (µs)",
    )


def ram_vs_disk(metrics: pl.DataFrame) -> pl.DataFrame:
    """MB/s of a memory copy and of O_DIRECT sequential disk I/O, beside the seed's ladder."""
    s = stats.summarize(metrics, ["medium", "what"]).filter(pl.col("metric") == "mb_per_s")
    ours = s.select(
        pl.concat_str(
            pl.lit(f"{THIS_MACHINE}: "),
            pl.struct("medium", "what").map_elements(
                lambda r: MEDIUM_NAMES[(r["medium"], r["what"])], return_dtype=pl.String
            ),
        ).alias("label"),
        pl.col("median").alias("mb_per_s"),
        pl.lit(True).alias("this_machine"),
    )
    ladder = reference.load("system").filter(
        (pl.col("benchmark") == "memory_hierarchy")
        & (pl.col("metric") == "throughput")
        & pl.col("level").is_in(["RAM", "SSD", "HDD"])
    )
    factor = {"GB/s": 1e3, "MB/s": 1.0, "TB/s": 1e6}
    theirs = ladder.select(
        pl.concat_str(pl.lit("seed 000 ladder: "), pl.col("level")).alias("label"),
        (pl.col("value") * pl.col("unit").replace_strict(factor, return_dtype=pl.Float64)).alias("mb_per_s"),
        pl.lit(False).alias("this_machine"),
    )
    return pl.concat([ours, theirs])


def block_size_curves(metrics: pl.DataFrame, metric: str) -> pl.DataFrame:
    s = stats.summarize(metrics, ["op", "block_size"]).filter(pl.col("metric") == metric)
    return s.with_columns(kib=pl.col("block_size") / 1024, direction=pl.concat_str(pl.lit("O_DIRECT "), pl.col("op")))


def saturation_block_size(metrics: pl.DataFrame, op: str, share: float = 0.9) -> tuple[int, float]:
    """The smallest block size reaching `share` of the best MB/s for `op`, and that best."""
    curve = block_size_curves(metrics, "mb_per_s").filter(pl.col("op") == op).sort("block_size")
    best = float(curve["median"].max())
    first = curve.filter(pl.col("median") >= share * best)["block_size"][0]
    return int(first), best


def queue_depth_curves(metrics: pl.DataFrame, metric: str) -> pl.DataFrame:
    s = stats.summarize(metrics, ["op", "queue_depth"]).filter(pl.col("metric") == metric)
    return s.with_columns(direction=pl.concat_str(pl.lit("4 KiB random "), pl.col("op")))


def parallel_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Seed 001's table for this machine: 8 jobs, latency percentiles (µs) and MB/s."""
    by = ["op", "fsync"]
    s = stats.summarize(metrics, by)
    wide = s.pivot(on="metric", index=by, values="median")
    names = {(op, fsync): name for name, op, fsync in PARALLEL_JOBS}
    wide = wide.with_columns(
        job=pl.struct(by).map_elements(lambda r: names[(r["op"], r["fsync"])], return_dtype=pl.String)
    )
    throughput = (
        (
            pl.when(pl.col("op") == "readwrite")
            .then(
                pl.format(
                    "read {} / write {}",
                    pl.col("read_mb_per_s").round(0).cast(pl.Int64),
                    pl.col("write_mb_per_s").round(0).cast(pl.Int64),
                )
            )
            .otherwise(pl.col("mb_per_s").round(0).cast(pl.Int64).cast(pl.String))
        )
        if "read_mb_per_s" in wide.columns
        else pl.col("mb_per_s").round(0).cast(pl.Int64).cast(pl.String)
    )
    return wide.select("job", "p50", "p90", "p99", "p99.99", throughput.alias("MB/s"))


def seed_parallel() -> pl.DataFrame:
    """Seed 001's laptop and phone rows in the same shape."""
    ref = reference.load("disk_fio_parallel")
    lat = (
        ref.filter(pl.col("metric").str.starts_with("latency"))
        .pivot(on="metric", index=["machine", "job"], values="value")
        .rename({"latency_p50": "p50", "latency_p90": "p90", "latency_p99": "p99", "latency_p99_99": "p99.99"})
    )
    mb = (
        ref.filter(pl.col("metric") == "mb_per_s")
        .group_by(["machine", "job"], maintain_order=True)
        .agg(
            pl.when(pl.col("direction").is_null())
            .then(pl.col("value").round(0).cast(pl.String))
            .otherwise(pl.concat_str(pl.col("direction"), pl.lit(" "), pl.col("value").round(1).cast(pl.String)))
            .str.join(" / ")
            .alias("MB/s")
        )
    )
    return lat.join(mb, on=["machine", "job"]).select("machine", "job", "p50", "p90", "p99", "p99.99", "MB/s")


def fio_table(metrics: pl.DataFrame) -> pl.DataFrame:
    by = ["engine", "pattern", "op", "fsync", "direct", "block_size", "queue_depth"]
    table = side_by_side(metrics, by, "mb_per_s", unit="MB/s")
    label = _row_label(with_size=False)
    size = pl.concat_str(
        pl.lit(", "),
        (pl.col("block_size") // 1024).cast(pl.String),
        pl.lit(" KiB"),
        pl.when(pl.col("queue_depth") > 1)
        .then(pl.concat_str(pl.lit(", QD "), pl.col("queue_depth").cast(pl.String)))
        .otherwise(pl.lit("")),
        pl.when(pl.col("direct")).then(pl.lit(", O_DIRECT")).otherwise(pl.lit(", buffered")),
    )
    return table.with_columns(pl.concat_str(label, size).alias("row")).select(
        "row", *[c for c in table.columns if c not in by]
    )
