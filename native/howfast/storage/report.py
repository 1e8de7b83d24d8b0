"""Tables and chart data for the storing-data chapter, from stored results and the
seeds' figures."""

from __future__ import annotations

from dataclasses import dataclass

import altair as alt
import polars as pl

from .. import charts, fmt, reference, stats
from ..charts import THIS_MACHINE
from ..checks import checked
from ..crosscheck import agreement_sentence, side_by_side
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
    missing = stats.unsupported(rows, by)
    if missing.height:  # the cases this machine could not run keep their row (and the laptop's figures)
        ours = pl.concat([ours, missing], how="diagonal_relaxed")
    order = rows.select(by).unique(maintain_order=True).with_row_index("_order")
    ours = ours.join(order, on=by, how="left").sort("_order").drop("_order")
    table = ours.join(seed_matrix(), on=by, how="left", maintain_order="left")
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


#: How the page-cache table names its three cases (direct, cache).
PAGE_CACHE_NAMES = {
    (True, "n/a"): "O_DIRECT: from the device",
    (False, "cold"): "buffered, cache dropped first",
    (False, "warm"): "buffered, already in the page cache",
}


def page_cache_rows(metrics: pl.DataFrame) -> pl.DataFrame:
    """The three ways of reading the same file: MB/s (median, slowest, fastest run) and the
    median time per read; a case this machine could not run keeps its row, with the reason."""
    s = stats.summarize(metrics, ["direct", "cache"])
    cases = metrics.select("direct", "cache").unique(maintain_order=True)
    mb = s.filter(pl.col("metric") == "mb_per_s").select(
        "direct",
        "cache",
        pl.col("median").alias("MB/s"),
        pl.col("min").alias("MB/s min"),
        pl.col("max").alias("MB/s max"),
    )
    p50 = s.filter(pl.col("metric") == "p50").select("direct", "cache", pl.col("median").alias("p50 per read (µs)"))
    out = (
        cases.join(mb, on=["direct", "cache"], how="left", maintain_order="left")
        .join(p50, on=["direct", "cache"], how="left", maintain_order="left")
        .with_columns(
            how=pl.struct("direct", "cache").map_elements(
                lambda r: PAGE_CACHE_NAMES[(r["direct"], r["cache"])], return_dtype=pl.String
            )
        )
    )
    columns = ["how", "MB/s", "MB/s min", "MB/s max", "p50 per read (µs)"]
    missing = stats.unsupported(metrics, ["direct", "cache"])
    if missing.height:
        out = out.join(missing, on=["direct", "cache"], how="left", maintain_order="left")
        columns.append(pl.col("note").alias("unsupported"))
    return out.select(columns)


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


def saturation_block_size(metrics: pl.DataFrame, op: str, share: float = 0.9) -> tuple[int, float] | tuple[None, None]:
    """The smallest block size reaching `share` of the best MB/s for `op`, and that best;
    (None, None) when no block size of `op` could run here."""
    curve = block_size_curves(metrics, "mb_per_s").filter(pl.col("op") == op).sort("block_size")
    if curve.height == 0:
        return None, None
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
    for column in ("read_mb_per_s", "write_mb_per_s"):
        if column not in wide.columns:
            wide = wide.with_columns(pl.lit(None, dtype=pl.Float64).alias(column))
    throughput = pl.struct("op", "mb_per_s", "read_mb_per_s", "write_mb_per_s").map_elements(
        lambda r: (
            f"read {fmt.num(r['read_mb_per_s'])} / write {fmt.num(r['write_mb_per_s'])}"
            if r["op"] == "readwrite"
            else fmt.num(r["mb_per_s"])
        ),
        return_dtype=pl.String,
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
        .with_columns(
            pl.struct("direction", "value")
            .map_elements(
                lambda r: fmt.num(r["value"]) if r["direction"] is None else f"{r['direction']} {fmt.num(r['value'])}",
                return_dtype=pl.String,
            )
            .alias("shown")
        )
        .group_by(["machine", "job"], maintain_order=True)
        .agg(pl.col("shown").str.join(" / ").alias("MB/s"))
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


# --- What the chapter says: the sentences whose wording depends on what was measured ---


@dataclass(frozen=True)
class Rate:
    """One case's median with its slowest and fastest repetition."""

    median: float
    low: float
    high: float


def rate(summary: pl.DataFrame, metric: str, **where: object) -> Rate | None:
    """`metric` of the one case matching `where` in a ``stats.summarize`` frame; None when
    this machine could not run it (KeyError when there is no such case, as ``stats.pick``)."""
    median = stats.pick(summary, metric, **where)
    if median is None:
        return None
    row = summary.filter(pl.col("metric") == metric)
    for key, value in where.items():
        row = row.filter(pl.col(key) == value)
    return Rate(median, float(row["min"][0]), float(row["max"][0]))


def compare(a: Rate | None, b: Rate | None) -> str:
    """'faster' when every run of `a` beat every run of `b`, 'slower' for the reverse,
    'same' when their ranges overlap (no difference beyond the noise), 'missing' when
    either could not be measured here."""
    if a is None or b is None:
        return "missing"
    if a.low > b.high:
        return "faster"
    if a.high < b.low:
        return "slower"
    return "same"


def memory_sentence(memcpy_mb: float | None, disk_mb: float | None) -> str:
    """How much faster memory was than the disk, in bandwidth (MB/s both)."""
    latency = "a memory access takes nanoseconds, a disk read tens or hundreds of microseconds."
    if memcpy_mb is None or disk_mb is None:
        return (
            f"How much faster memory is in bandwidth could not be measured here; in latency the gap is wide: {latency}"
        )
    if memcpy_mb > disk_mb:
        return (
            f"Memory is {fmt.ratio_of(memcpy_mb, disk_mb)} faster here, and the gap in latency is far wider "
            f"than the gap in bandwidth: {latency}"
        )
    return (
        f"Here the disk read kept pace with the memory copy ({fmt.ratio_of(disk_mb, memcpy_mb)} its rate), "
        f"but only in bandwidth; in latency the gap stays wide: {latency}"
    )


def memory_rule(memcpy_mb: float | None, disk_mb: float | None) -> str:
    """The closing rule about memory against this disk."""
    if memcpy_mb is None or disk_mb is None:
        return "How far memory leads this disk in bandwidth could not be measured here; in latency it leads by far."
    if memcpy_mb > disk_mb:
        return f"Memory is about {fmt.ratio_of(memcpy_mb, disk_mb)} faster than this disk in bandwidth."
    return "In bandwidth this disk kept pace with memory here; in latency it does not."


def engine_sentence(uring: Rate | None, sync: Rate | None) -> str:
    """io_uring against pread, sequential O_DIRECT reads of 256 KiB at queue depth 1."""
    outcome = compare(uring, sync)
    if outcome == "missing":
        which = " and ".join(n for n, r in (("io_uring", uring), ("pread", sync)) if r is None)
        return (
            "Whether the engine matters at queue depth 1 could not be measured here: the O_DIRECT sequential "
            f"read through {which} did not run."
        )
    both = f"io_uring read sequentially at {fmt.num(uring.median)} MB/s"
    if outcome == "same":
        return (
            f"And at queue depth 1 the engine hardly matters: with O_DIRECT, {both} and `pread` at "
            f"{fmt.num(sync.median)} MB/s, within the spread of their repetitions."
        )
    if outcome == "faster":
        return (
            f"At queue depth 1 the engine made some difference: with O_DIRECT, {both}, "
            f"{fmt.ratio_of(uring.median, sync.median)} the {fmt.num(sync.median)} MB/s of `pread`."
        )
    return (
        f"At queue depth 1 io_uring bought nothing: with O_DIRECT, `pread` read sequentially at "
        f"{fmt.num(sync.median)} MB/s, {fmt.ratio_of(sync.median, uring.median)} io_uring's "
        f"{fmt.num(uring.median)} MB/s."
    )


def page_cache_rates(metrics: pl.DataFrame) -> dict[str, Rate | None]:
    """MB/s of the page-cache experiment's three cases: 'warm', 'cold', 'direct'."""
    s = stats.summarize(metrics, ["direct", "cache"])
    return {
        "warm": rate(s, "mb_per_s", direct=False, cache="warm"),
        "cold": rate(s, "mb_per_s", direct=False, cache="cold"),
        "direct": rate(s, "mb_per_s", direct=True, cache="n/a"),
    }


def page_cache_sentence(warm: Rate | None, cold: Rate | None, direct: Rate | None) -> str:
    """What the page cache was worth: a cached read, and an uncached buffered read, each
    against O_DIRECT."""
    if warm is None:
        first = "A read from the page cache could not be measured here."
    elif direct is None:
        first = (
            f"When the page cache already holds the file, reading it ran at {fmt.num(warm.median)} MB/s; the "
            "O_DIRECT rate to set beside it could not be measured here."
        )
    else:
        first = (
            f"When the page cache already holds the file, reading it ran at {fmt.num(warm.median)} MB/s, "
            f"{fmt.ratio_of(warm.median, direct.median)} the O_DIRECT rate."
        )
    outcome = compare(cold, direct)
    uncached = "a buffered read of a file that is *not* cached"
    if outcome == "missing":
        if cold is None:
            second = "How a buffered read of a file that is *not* cached compares could not be measured here."
        else:
            second = (
                f"{uncached.capitalize()} ran at {fmt.num(cold.median)} MB/s; whether that beats O_DIRECT at "
                "queue depth 1 could not be measured here."
            )
    elif outcome == "faster":
        second = (
            f"The middle row is the surprise: {uncached} ({fmt.num(cold.median)} MB/s) beat O_DIRECT "
            f"({fmt.num(direct.median)} MB/s) at queue depth 1, although it copies every byte once more."
        )
    elif outcome == "same":
        second = (
            f"The middle row is the surprise: {uncached} ({fmt.num(cold.median)} MB/s) kept up with O_DIRECT "
            f"({fmt.num(direct.median)} MB/s) at queue depth 1, although it copies every byte once more."
        )
    else:
        second = (
            f"{uncached.capitalize()} ran at {fmt.num(cold.median)} MB/s, slower than O_DIRECT "
            f"({fmt.num(direct.median)} MB/s): here read-ahead did not make up for the extra copy through "
            "the page cache."
        )
    return f"{first} {second}"


def block_size_sentence(metrics: pl.DataFrame, share: float = 0.9) -> str:
    """Where reads and writes reached `share` of their best rate."""
    found = {op: saturation_block_size(metrics, op, share) for op in ("read", "write")}
    if all(knee is None for knee, _ in found.values()):
        why = charts.reasons(metrics)
        return f"The sweep could not run here ({why or 'no result'}), so where the device saturates is not known."
    parts = []
    for op, (knee, best) in found.items():
        name = "reads" if op == "read" else "writes"
        if knee is None:
            parts.append(f"{name} could not be measured here")
        else:
            rate_text = f"({fmt.num(best)} MB/s)"
            parts.append(f"{name} reached {fmt.share(share)} of their best rate {rate_text} at {fmt.size(knee)} blocks")
    text = "; ".join(parts)
    return (
        f"{text[0].upper()}{text[1:]}. Below that size, a program that wants bandwidth must keep several "
        "requests in flight."
    )


def queue_depth_sentence(metrics: pl.DataFrame) -> str:
    """What more requests in flight bought for 4 KiB random reads."""
    s = stats.summarize(metrics, ["op", "queue_depth"])
    reads = s.filter((pl.col("metric") == "ops_per_s") & (pl.col("op") == "read")).sort("queue_depth")
    if reads.height == 0:
        why = charts.reasons(metrics)
        return (
            f"The queue-depth sweep could not run here ({why or 'no result'}), so how much more requests in flight "
            "help is not known."
        )
    one = reads.row(0, named=True)
    best = reads.sort("median").row(-1, named=True)
    if one["queue_depth"] == 1:
        start = f"One 4 KiB random read at a time gave {fmt.num(one['median'])} reads per second."
    else:
        start = (
            f"With {fmt.num(one['queue_depth'])} 4 KiB random reads in flight the device gave "
            f"{fmt.num(one['median'])} reads per second."
        )
    if (
        best["queue_depth"] == one["queue_depth"]
        or compare(Rate(best["median"], best["min"], best["max"]), Rate(one["median"], one["min"], one["max"]))
        == "same"
    ):
        return (
            f"{start} More in flight did not help beyond the spread of the repetitions: the best was "
            f"{fmt.num(best['median'])} per second at {fmt.num(best['queue_depth'])} in flight."
        )
    return (
        f"{start} With more in flight the device works on several at once: the best was "
        f"{fmt.num(best['median'])} per second at {fmt.num(best['queue_depth'])} in flight, "
        f"{fmt.ratio_of(best['median'], one['median'])} as many. Past the knee, extra depth only adds waiting, "
        "which the p99 curve shows."
    )


def fsync_rule(direct_mb: float | None, buffered_mb: float | None) -> str:
    """The closing rule on what durability costs: 256 KiB writes with an fsync each."""
    if direct_mb is not None:
        return f"256 KiB writes with an `fsync` each reached {fmt.num(direct_mb)} MB/s with O_DIRECT."
    if buffered_mb is not None:
        return f"256 KiB writes with an `fsync` each reached {fmt.num(buffered_mb)} MB/s through the page cache."
    return "What 256 KiB writes with an `fsync` each reach could not be measured here."


def _side_by_side(left: alt.TopLevelMixin, right: alt.TopLevelMixin) -> alt.HConcatChart:
    return left.properties(width=300) | right.properties(width=300)


def block_size_chart(metrics: pl.DataFrame) -> alt.TopLevelMixin:
    """MB/s and I/Os per second against block size; a chart that says why when nothing ran."""
    mb = block_size_curves(metrics, "mb_per_s")
    if mb.height == 0:
        return charts.unavailable(charts.reasons(metrics))
    x = "block size (KiB, log scale)"
    return _side_by_side(
        charts.lines(mb, x="kib", y="median", color="direction", x_title=x, y_title="MB/s (log scale)"),
        charts.lines(
            block_size_curves(metrics, "ops_per_s"),
            x="kib",
            y="median",
            color="direction",
            x_title=x,
            y_title="I/Os per second (log scale)",
        ),
    )


def queue_depth_chart(metrics: pl.DataFrame) -> alt.TopLevelMixin:
    """I/Os per second and p99 latency against queue depth; a chart that says why when nothing ran."""
    rate_curves = queue_depth_curves(metrics, "ops_per_s")
    if rate_curves.height == 0:
        return charts.unavailable(charts.reasons(metrics))
    x = "requests in flight (log scale)"
    return _side_by_side(
        charts.lines(
            rate_curves,
            x="queue_depth",
            y="median",
            color="direction",
            x_title=x,
            y_title="I/Os per second (log scale)",
        ),
        charts.lines(
            queue_depth_curves(metrics, "p99"),
            x="queue_depth",
            y="median",
            color="direction",
            x_title=x,
            y_title="p99 latency (µs, log scale)",
        ),
    )


def fio_sentence(table: pl.DataFrame) -> str:
    """How far ours and fio's figures were apart (``fio_table``)."""
    return agreement_sentence(table)


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
