"""Tables and chart data for the storing-data chapter, from stored results and the
seeds' figures."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import altair as alt
import polars as pl

from .. import charts, claims, fmt, machine, reference, stats, tables
from ..charts import THIS_MACHINE
from ..checks import checked
from ..crosscheck import side_by_side
from .experiments import PARALLEL_JOBS

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "ram_vs_disk": "RAM-versus-disk",
    "matrix": "read/write matrix",
    "page_cache": "page-cache",
    "block_sizes": "block-size sweep",
    "queue_depth": "queue-depth",
    "parallel": "parallel-jobs",
    "vs_fio": "fio cross-check",
}

CASE = ["engine", "pattern", "op", "fsync", "direct", "block_size"]
LAPTOP = "laptop, WD SN750 (seed 000)"
#: The words for the RAM-against-disk cases (medium, what).
MEDIUM_NAMES = {
    ("ram", "copy"): "RAM, memcpy",
    ("disk", "read"): "disk read, O_DIRECT",
    ("disk", "write"): "disk write, O_DIRECT",
}


def _row_label(with_size: bool = True) -> pl.Expr:
    """'io_uring random write + fsync' ('... write' without the fsync: a '- fsync' would wrap in a
    chart's label as a hyphen), plus the block size when it is not 256 KiB."""
    what = (
        pl.when(pl.col("op") == "read")
        .then(pl.lit("read"))
        .when(pl.col("fsync"))
        .then(pl.lit("write + fsync"))
        .otherwise(pl.lit("write"))
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
    return s.select(*by, pl.col("median").alias(name))


def interval_cell(lo: float | str | None, hi: float | str | None, mark: str = "") -> str | None:
    """The interval of a median as a table cell ('677–1,140'; ends already formatted are
    kept), with the unstable mark after it where the interval stayed wider than the
    profile's target ('258–508; unstable: ±33 %'); None for a case not measured here."""
    if lo is None or hi is None:
        return None
    text = _shared_unit(lo, hi) if isinstance(lo, str) and isinstance(hi, str) else fmt.span(lo, hi)
    return text + (f"; {mark}" if mark else "")


def _shared_unit(lo: str, hi: str) -> str:
    """'60.7–73.8 µs' for '60.7 µs' and '73.8 µs': a unit both ends share is written once,
    as ``tables.figure`` writes it; ends with different units keep theirs."""
    lo_head, _, lo_word = lo.rpartition(" ")
    hi_head, _, hi_word = hi.rpartition(" ")
    if lo_head and hi_head and lo_word == hi_word and not lo_word[:1].isdigit():
        return f"{lo_head}–{hi}"
    return f"{lo}–{hi}"


def _with_interval(metrics: pl.DataFrame, by: list[str], metric: str, name: str, target: float | None) -> pl.DataFrame:
    """Per case of `by`: the median of `metric` (column `name`), the interval of that median
    with its unstable mark (``interval``) and the run count (``runs``)."""
    s = tables.with_intervals(stats.summarize(metrics, by).filter(pl.col("metric") == metric), target)
    cells = [interval_cell(r["lo"], r["hi"], r["stability"]) for r in s.iter_rows(named=True)]
    return s.select(
        *by,
        pl.col("median").alias(name),
        pl.Series("interval", cells, dtype=pl.String),
        pl.col("runs").cast(pl.Int64),
    )


def seed_matrix() -> pl.DataFrame:
    """The laptop's 19 rows: ops/s and MB/s per (engine, pattern, op, fsync, block size).
    MB/s is 10^6 bytes a second, as on the rest of the page: a row whose printed 'MB/s'
    is its ops/s times its block size in MiB (``mib_rows``: the 1 MiB row printed 248 ops/s
    and '248MB/s') was MiB/s, and is converted."""
    ref = reference.load("disk_matrix").filter(
        (pl.col("benchmark") == "disk_matrix") & (pl.col("figure_type") == "measured")
    )
    ref = ref.with_columns(fsync=pl.col("fsync").fill_null(False).cast(pl.Boolean))
    wide = ref.pivot(on="metric", index=["engine", "pattern", "op", "fsync", "block_size"], values="value")
    mib = mib_rows(wide)
    wide = wide.with_columns(
        pl.when(mib).then(pl.col("mb_per_s") * (1 << 20) / 1e6).otherwise(pl.col("mb_per_s")).alias("mb_per_s")
    )
    return wide.rename({"ops_per_s": "laptop ops/s", "mb_per_s": "laptop MB/s"})


def mib_rows(wide: pl.DataFrame) -> pl.Series:
    """Per row of a seed's ops/s and 'MB/s' (``ops_per_s``, ``mb_per_s``, ``block_size``):
    whether its 'MB/s' was MiB/s, that is within 1 % of ops/s × block size / 2^20 and more
    than 2 % from ops/s × block size / 10^6 (the seed rounds its ops/s to two figures)."""
    ops, mb, size = wide["ops_per_s"].cast(pl.Float64), wide["mb_per_s"].cast(pl.Float64), wide["block_size"]
    binary, decimal = ops * size / (1 << 20), ops * size / 1e6
    return (((mb - binary).abs() <= 0.01 * binary) & ((mb - decimal).abs() > 0.02 * decimal)).fill_null(False)


def matrix_table(metrics: pl.DataFrame, direct: bool, target: float | None = None) -> pl.DataFrame:
    """This machine's matrix (buffered or O_DIRECT) beside the laptop's figures: per row
    the median ops/s and MB/s (one set of runs: ops/s is MB/s over the block size), the
    interval of the MB/s median with the unstable mark where it stayed wider than
    ±`target` (``ResultSet.target``), and the run count."""
    rows = metrics.filter(pl.col("direct") == direct)
    by = ["engine", "pattern", "op", "fsync", "block_size"]
    ours = _medians(rows, by, "ops_per_s", "ops/s").join(_with_interval(rows, by, "mb_per_s", "MB/s", target), on=by)
    missing = stats.unsupported(rows, by)
    if missing.height:  # the cases this machine could not run keep their row (and the laptop's figures)
        ours = pl.concat([ours, missing], how="diagonal_relaxed")
    order = rows.select(by).unique(maintain_order=True).with_row_index("_order")
    ours = ours.join(order, on=by, how="left").sort("_order").drop("_order")
    table = ours.join(seed_matrix(), on=by, how="left", maintain_order="left")
    table = table.with_columns(_row_label())
    # the seed's list is set beside the buffered rows only: it ran plain calls, not O_DIRECT
    cols = ["row", "ops/s", "MB/s", "interval", "runs", *([] if direct else ["laptop ops/s", "laptop MB/s"])]
    return table.select(cols + (["note"] if "note" in table.columns else []))


def matrix_bars(metrics: pl.DataFrame) -> pl.DataFrame:
    """MB/s per row, this machine (buffered, as the seed ran it: median, the interval of the
    median, runs) beside the laptop (one printed figure, no interval)."""
    rows = metrics.filter(~pl.col("direct"))
    by = ["engine", "pattern", "op", "fsync", "block_size"]
    s = stats.summarize(rows, by).filter(pl.col("metric") == "mb_per_s").with_columns(_row_label())
    ours = s.select(
        "row",
        pl.lit(THIS_MACHINE).alias("machine"),
        "median",
        "lo",
        "hi",
        pl.col("repetitions").cast(pl.Int64),
    )
    seed = seed_matrix().with_columns(_row_label()).filter(pl.col("row").is_in(ours["row"].implode()))
    theirs = seed.filter(pl.col("laptop MB/s").is_not_null()).select(
        "row",
        pl.lit(LAPTOP).alias("machine"),
        pl.col("laptop MB/s").alias("median"),
        pl.col("laptop MB/s").alias("lo"),
        pl.col("laptop MB/s").alias("hi"),
        pl.lit(None, dtype=pl.Int64).alias("repetitions"),
    )
    return pl.concat([ours, theirs]).drop_nulls("median")


def direct_vs_buffered(metrics: pl.DataFrame) -> pl.DataFrame:
    """Median MB/s of each 256 KiB row, buffered and O_DIRECT, with the interval of each
    median (``lo``, ``hi``) and its run count, which the chart's rule and tooltip show."""
    rows = metrics.filter(pl.col("block_size") == 262144)
    s = stats.summarize(rows, CASE).filter(pl.col("metric") == "mb_per_s")
    return s.with_columns(
        _row_label(), mode=pl.when(pl.col("direct")).then(pl.lit("O_DIRECT")).otherwise(pl.lit("buffered (page cache)"))
    ).select("row", "mode", "median", "lo", "hi", "repetitions")


#: How the page-cache table names its three cases (direct, cache).
PAGE_CACHE_NAMES = {
    (True, "n/a"): "O_DIRECT: from the device",
    (False, "cold"): "buffered, cache dropped first",
    (False, "warm"): "buffered, already in the page cache",
}


def page_cache_rows(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """The three ways of reading the same file: MB/s and the median time per read, each
    the median with the interval of that median ('836 (505–1,560)', with the unstable
    mark past ±`target`), and the run count both come from; a case this machine could not
    run keeps its row, n/a and the reason."""
    s = stats.summarize(metrics, ["direct", "cache"])
    cases = metrics.select("direct", "cache").unique(maintain_order=True)
    rows = []
    for direct, cache in cases.iter_rows():
        mb = stats.estimate_or_none(s, "mb_per_s", direct=direct, cache=cache)
        p50 = stats.estimate_or_none(s, "p50", direct=direct, cache=cache)
        rows.append(
            {
                "direct": direct,
                "cache": cache,
                "how": PAGE_CACHE_NAMES[(direct, cache)],
                "MB/s": tables.figure(mb, target, fmt.num, runs=False),
                "p50 per read": tables.figure(p50, target, fmt.duration_us, runs=False),
                "runs": None if mb is None else mb.runs,
            }
        )
    schema = {"direct": pl.Boolean, "cache": pl.String, "how": pl.String, "MB/s": pl.String,
              "p50 per read": pl.String, "runs": pl.Int64}  # fmt: skip
    out = pl.DataFrame(rows, schema=schema)
    columns = ["how", "MB/s", "p50 per read", "runs"]
    missing = stats.unsupported(metrics, ["direct", "cache"])
    if missing.height:
        out = out.join(missing, on=["direct", "cache"], how="left", maintain_order="left")
        columns.append(pl.col("note").alias("unsupported"))
    return out.select(columns)


def ram_vs_disk(metrics: pl.DataFrame) -> pl.DataFrame:
    """MB/s of a memory copy and of O_DIRECT sequential disk I/O (the median, with the
    interval of that median as ``lo``, ``hi`` and its ``repetitions``), beside the seed's
    ladder (printed figures: no interval)."""
    s = stats.summarize(metrics, ["medium", "what"]).filter(pl.col("metric") == "mb_per_s")
    ours = s.select(
        pl.concat_str(
            pl.lit("here: "),
            pl.struct("medium", "what").map_elements(
                lambda r: MEDIUM_NAMES[(r["medium"], r["what"])], return_dtype=pl.String
            ),
        ).alias("label"),
        pl.col("median").alias("mb_per_s"),
        pl.lit(True).alias("this_machine"),
        pl.col("lo").cast(pl.Float64),
        pl.col("hi").cast(pl.Float64),
        pl.col("repetitions").cast(pl.Int64),
    )
    ladder = reference.load("system").filter(
        (pl.col("benchmark") == "memory_hierarchy")
        & (pl.col("metric") == "throughput")
        & pl.col("level").is_in(["RAM", "SSD", "HDD"])
    )
    factor = {"GB/s": 1e3, "MB/s": 1.0, "TB/s": 1e6}
    theirs = ladder.select(
        pl.concat_str(pl.lit("seed 000 table: "), pl.col("level")).alias("label"),
        (pl.col("value") * pl.col("unit").replace_strict(factor, return_dtype=pl.Float64)).alias("mb_per_s"),
        pl.lit(False).alias("this_machine"),
    )
    return pl.concat([ours, theirs], how="diagonal_relaxed")


def ram_vs_disk_chart(frame: pl.DataFrame, title: str = "Higher is faster") -> alt.TopLevelMixin:
    """``charts.versus`` of ``ram_vs_disk``, with a black rule over the interval of each of
    this machine's medians (the seed's printed figures get none), each label after the end
    of its bar or of its rule, whichever reaches further, so no rule strikes a figure."""
    has_lo = "lo" in frame.columns and "hi" in frame.columns
    frame = frame.with_columns(
        text_at=pl.max_horizontal("mb_per_s", "hi") if has_lo else pl.col("mb_per_s"),
    )
    chart = charts.versus(frame, label="label", value="mb_per_s", unit="MB/s", title=title)
    spans = frame.filter(pl.col("this_machine") & pl.col("lo").is_not_null()) if has_lo else frame.clear()
    if spans.height == 0:
        return chart
    chart = chart.copy(deep=True)
    chart.layer[1] = chart.layer[1].encode(x=alt.X("text_at:Q"))
    sort = frame.sort("mb_per_s")["label"].to_list()
    rule = (
        alt.Chart(spans)
        .mark_rule(color="black", strokeWidth=1.5)
        .encode(y=alt.Y("label:N", sort=sort), x=alt.X("lo:Q"), x2=alt.X2("hi:Q"))
    )
    return chart + rule


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


def job_words(name: str) -> str:
    """A parallel job's name in the matrix's words: 'sync sequential write' for the seed's
    'sync sequential write - fsync' (a '- fsync' reads as a hyphen where it wraps)."""
    return name.replace(" - fsync", "")


#: The latency percentiles of the parallel-jobs table, in the seed's order.
PERCENTILES = ("p50", "p90", "p99", "p99.99")


def parallel_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Seed 001's figures for this machine, one line per job and figure (the latency
    percentiles, then the MB/s of each direction): the median, the interval of that median
    with the unstable mark past ±`target` ('60.7 µs–73.8 µs; unstable: ±15 %'), and the
    run count. A long table: eight figures with intervals in one line do not fit the page."""
    by = ["op", "fsync"]
    s = stats.summarize(metrics, by)
    names = {(op, fsync): job_words(name) for name, op, fsync in PARALLEL_JOBS}
    rows = []
    cases = metrics.filter(pl.col("metric") != "unsupported").select(by).unique(maintain_order=True)
    for op, fsync in cases.iter_rows():
        figures = [(p, f"latency {p}", fmt.duration_us) for p in PERCENTILES]
        if op == "readwrite":
            figures += [("read_mb_per_s", "read MB/s", fmt.num), ("write_mb_per_s", "write MB/s", fmt.num)]
        else:
            figures.append(("mb_per_s", f"{'read' if op == 'read' else 'write'} MB/s", fmt.num))
        for metric, what, show in figures:
            e = stats.estimate_or_none(s, metric, op=op, fsync=fsync)
            rows.append(
                {
                    "job": names[(op, fsync)],
                    "figure": what,
                    "median": fmt.NA if e is None else show(e.median),
                    "interval": None
                    if e is None
                    else interval_cell(show(e.lo), show(e.hi), stats.stability(e, target)),
                    "runs": None if e is None else e.runs,
                }
            )
    schema = {"job": pl.String, "figure": pl.String, "median": pl.String, "interval": pl.String, "runs": pl.Int64}
    return pl.DataFrame(rows, schema=schema)


#: How many I/Os a percentile needs before it differs from the slowest one (p99.99: 1 in 10,000).
P9999_IOS = 10_000


def percentile_note(metrics: pl.DataFrame) -> str:
    """What the tail percentiles of a short run are: with n I/Os per run (jobs × blocks
    per job's file), a p99.99 below 10,000 I/Os is in effect the slowest I/O, and a p99
    lies among the slowest few; '' when the runs are long enough or the sizes unknown."""
    rows = metrics.filter(pl.col("metric") != "unsupported") if "metric" in metrics.columns else metrics
    if rows.height == 0 or not {"jobs", "file_size", "block_size"} <= set(rows.columns):
        return ""
    sizes = rows.select("jobs", "file_size", "block_size").drop_nulls().unique()
    if sizes.height != 1:
        return ""
    jobs, file_size, block = sizes.row(0)
    per_job = int(file_size) // int(block)
    n = int(jobs) * per_job
    if n <= 0 or n >= P9999_IOS:
        return ""
    above = n - math.ceil(0.99 * n) + 1  # the I/Os at or above the p99 (nearest rank)
    runs = (
        f"Each run made {fmt.count(n, 'I/O')} ({fmt.count(int(jobs), 'job')} of "
        f"{fmt.count(per_job, 'block')} of {fmt.size(int(block))} each)"
    )
    if above <= 1:
        return (
            f"{runs}, so its p99 and its p99.99 are both in effect its slowest I/O: read those columns as the "
            "slowest moment of a short run, not as rare events."
        )
    return (
        f"{runs}, so its p99.99 is in effect its slowest I/O and its p99 one of its {fmt.exact(above)} slowest: "
        "read those columns as the tail of a short run, not as rare events (a p99.99 needs about "
        f"{fmt.exact(P9999_IOS)} I/Os to differ from the slowest one)."
    )


def parallel_sentence(
    metrics: pl.DataFrame,
    single: Rate | None,
    *,
    single_nosync: Rate | None = None,
) -> str:
    """Eight buffered writers with an fsync after each 1 MiB block, together (MB/s), against
    the matrix's one writer with an fsync after each 256 KiB block, from ``claims.compare``;
    the sentence names both differences (writers and block size) and does not split them.
    `single_nosync`, the matrix's one buffered writer without fsync, is named where it was
    clearly faster than the writers without fsync together."""
    try:
        many = rate(stats.summarize(metrics, ["op", "fsync"]), "mb_per_s", op="write", fsync=True)
    except KeyError:
        many = None
    if many is None:
        return "The parallel writers with an fsync after each block could not run here."
    rows = metrics.filter((pl.col("op") == "write") & pl.col("fsync"))
    jobs = int(rows["jobs"].drop_nulls()[0]) if "jobs" in rows.columns and rows["jobs"].drop_nulls().len() else 8
    block = fmt.size(int(rows["block_size"][0])) if "block_size" in rows.columns else "1 MiB"
    head = (
        f"With {fmt.count(jobs, 'writer')}, each calling fsync after every {block} block, the writers together "
        f"wrote {fmt.num(many.median)} MB/s"
    )
    if single is None:
        first = f"{head}; the single writer to set beside them could not be measured here."
    else:
        words = _versus(
            many, single, f"the matrix's one writer with 256 KiB blocks at {fmt.num(single.median)} MB/s", span=True
        )
        if compare(many, single) == "faster":
            first = (
                f"{head}, {words}. Two things differ, the number of writers and the block size, and this page does "
                "not separate them: syncs in flight together can share the file system's journal commits and the "
                "device's cache flushes, and a bigger block spreads each sync over more bytes."
            )
        else:
            first = (
                f"{head}, {words}: neither more syncs in flight nor bigger blocks gained beyond the intervals of "
                "the medians here."
            )
    return f"{first}{_parallel_nosync(metrics, many, jobs, single_nosync)}"


def _parallel_nosync(metrics: pl.DataFrame, synced: Rate, jobs: int, single: Rate | None = None) -> str:
    """The same writers without fsync against with it, from ``claims.compare``; where the
    unsynced ones are not clearly faster, what may have held them back, as possibilities
    (the page does not measure why), and, where `single` (one buffered writer without
    fsync) was clearly faster than all of them together, that too."""
    try:
        free = rate(stats.summarize(metrics, ["op", "fsync"]), "mb_per_s", op="write", fsync=False)
    except KeyError:
        free = None
    if free is None:
        return ""
    words = _versus(free, synced, "with them", span=True)
    if compare(free, synced) == "faster":
        return f" Without the fsyncs the same writers wrote {fmt.num(free.median)} MB/s, {words}."
    head = (
        f" Without the fsyncs the same writers wrote {fmt.num(free.median)} MB/s, {words}, the interval of "
        f"their median spanning {fmt.num(free.low)} to {fmt.num(free.high)} MB/s"
    )
    if single is not None and compare(single, free) == "faster":
        head += (
            f", below the {fmt.num(single.median)} MB/s of the matrix's one buffered writer without fsync (256 KiB "
            "blocks)"
        )
    return (
        f"{head}. This page does not measure why: {fmt.count(jobs, 'thread')} copying at once may compete for the "
        "machine's CPUs with each other and with everything else it runs, and the kernel may have begun writing "
        "their dirty pages back, or made them wait for that, while they ran."
    )


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
    joined = lat.join(mb, on=["machine", "job"]).with_columns(
        pl.col("job").map_elements(job_words, return_dtype=pl.String)
    )
    return joined.select("machine", "job", "p50", "p90", "p99", "p99.99", "MB/s")


def _fio_size() -> pl.Expr:
    """', 256 KiB, QD 32, O_DIRECT': what tells the fio cross-check's rows apart besides the engine."""
    return pl.concat_str(
        pl.lit(", "),
        (pl.col("block_size") // 1024).cast(pl.String),
        pl.lit(" KiB"),
        pl.when(pl.col("queue_depth") > 1)
        .then(pl.concat_str(pl.lit(", QD "), pl.col("queue_depth").cast(pl.String)))
        .otherwise(pl.lit("")),
        pl.when(pl.col("direct")).then(pl.lit(", O_DIRECT")).otherwise(pl.lit(", buffered")),
    )


#: The fio table's column of the median per-round ratio, named so that no reader takes it
#: for the ratio of the two medians beside it (rounds pair differently from medians).
FIO_RATIO = "howfast / fio, per round"


def fio_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Ours beside fio per row: each side's median MB/s with the interval of that median
    ('551 (429–1,080)', the unstable mark past ±`target`), the median per-round ratio with
    its interval ('1.9× (1.019–2.8)'), the verdict, the number of rounds (each side ran
    once per round) and the median per-round ratio of the mean time per I/O. The ratio,
    its interval and the mean-latency ratio are the very estimates the sentence below the
    table quotes (medians of per-round ratios), so the table and the text give one value each."""
    by = ["engine", "pattern", "op", "fsync", "direct", "block_size", "queue_depth"]
    table = side_by_side(metrics, by, "mb_per_s", unit="MB/s")
    table = table.with_columns(pl.concat_str(_row_label(with_size=False), _fio_size()).alias("row"))
    rounds: dict[str, int] = {}
    ratio_cells: dict[str, str] = {}
    if metrics.height and "tool" in metrics.columns:
        from ..crosscheck import round_ratios
        from ..fsync.report import _ratio_estimates, with_round_ratios

        labelled = metrics.with_columns(pl.concat_str(_row_label(with_size=False), _fio_size()).alias("row"))
        table = with_round_ratios(table, labelled, "row", "mb_per_s")
        # the ratio cell through claims.ratio_interval, as the sentence below the table writes it
        ratio_cells = {k: ratio_words(e) for k, e in _ratio_estimates(labelled, "mb_per_s", key="row").items()}
        paired = round_ratios(labelled, ["row"], "mb_per_s")
        rounds = dict(paired.group_by("row").len().iter_rows())
        summary = stats.summarize(labelled, ["row", "tool"])
        for tool in ("howfast", "fio"):
            cells = [
                tables.figure_of(summary, "mb_per_s", target=target, show=fmt.num, runs=False, row=key, tool=tool)
                for key in table["row"].to_list()
            ]
            table = table.with_columns(pl.Series(f"{tool} MB/s", cells, dtype=pl.String))
    if "howfast / fio" in table.columns:
        ratio = [ratio_cells.get(k) for k in table["row"].to_list()]
        table = table.with_columns(pl.Series(FIO_RATIO, ratio, dtype=pl.String))
    table = table.with_columns(
        pl.Series("rounds", [rounds.get(k) for k in table["row"].to_list()], dtype=pl.Int64),
    )
    keep = ["row", "howfast MB/s", "fio MB/s", FIO_RATIO, "verdict", "rounds", "mean latency, howfast / fio", "note"]
    return table.select([c for c in keep if c in table.columns])


#: ``fio_table`` in two tables narrow enough for the column (``fsync.report.split_table``):
#: each side's MB/s with the rounds, then the per-round ratios and the verdict.
FIO_FIGURES = ["howfast MB/s", "fio MB/s", "rounds"]
FIO_RATIOS = [FIO_RATIO, "verdict", "mean latency, howfast / fio"]


# --- What the chapter says: the sentences whose wording depends on what was measured ---


@dataclass(frozen=True)
class Rate:
    """One case's median with the interval of that median (``stats.summarize``'s lo–hi:
    with few repetitions, the slowest and fastest run) and its run count."""

    median: float
    low: float
    high: float
    runs: int = 1

    def estimate(self) -> stats.Estimate:
        return stats.Estimate(self.median, self.low, self.high, self.runs)


def rate(summary: pl.DataFrame, metric: str, **where: object) -> Rate | None:
    """`metric` of the one case matching `where` in a ``stats.summarize`` frame; None when
    this machine could not run it (KeyError when there is no such case, as ``stats.pick``)."""
    e = stats.estimate(summary, metric, **where)
    return None if e is None else Rate(e.median, e.lo, e.hi, e.runs)


def rate_words(r: Rate | None, unit: str = "MB/s") -> str:
    """A rate for the prose, with the interval of its median and the run count:
    '3,390 MB/s (3,100–3,500, 3 runs)'; 'not measured here' for None."""
    if r is None:
        return "not measured here"
    if r.runs <= 1 or r.low == r.high:
        return f"{fmt.num(r.median)} {unit} ({fmt.count(r.runs, 'run')})"
    return f"{fmt.num(r.median)} {unit} ({fmt.span(r.low, r.high)}, {fmt.count(r.runs, 'run')})"


def median_factor(x: float | None) -> str:
    """A median ratio for a reader: two significant digits ('1.1', '0.82', '13'); 'n/a' when
    not measured. No verdict reads a median ratio (they read the interval's ends, which
    ``fmt.factor`` keeps on their side of 1), so '1' for 0.99999 hides nothing."""
    if x is None:
        return fmt.NA
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x < 0:
        raise ValueError(f"x is a ratio, a finite number of at least 0, got {x!r}")
    return fmt.num(x, 2)


def ratio_words(r: claims.Comparison | stats.Estimate | None, *, way: str = "as measured") -> str:
    """``claims.ratio_interval`` with its median through ``median_factor``: '1× (0.97–1.05×)'
    rather than '0.99999× (0.97–1.05×)'; the range's ends as ``claims.ratio_interval`` gives them."""
    whole = claims.ratio_interval(r, way=way)
    if whole == fmt.NA:
        return whole
    mid = r.ratio if isinstance(r, claims.Comparison) else r.median
    if way == "inverted" or (way == "larger" and mid < 1):
        mid = 1 / mid
    ends = claims.ratio_interval(r, way=way, median=False)
    head = f"{median_factor(mid)}×"
    return head if "–" not in ends else f"{head} ({ends})"


def latency_cell(x: float | None) -> str:
    """'0.84×': the fio table's median ratio of mean times per I/O (``median_factor``)."""
    return fmt.NA if x is None else f"{median_factor(x)}×"


def _e(r: Rate | None) -> stats.Estimate | None:
    return None if r is None else r.estimate()


#: claims' directions in the words of a rate.
_DIRECTION = {claims.HIGHER: "faster", claims.LOWER: "slower", claims.SAME_WORD: "same", claims.UNCLEAR: "unclear"}


def compare(a: Rate | None, b: Rate | None) -> str:
    """``claims.compare`` of two rates in a rate's words: 'faster' or 'slower' only where
    the intervals do not overlap, 'same' where the ratio's whole range lies within
    ``claims.SAME`` of 1, 'unclear' otherwise, 'missing' when either did not run here."""
    c = claims.compare(_e(a), _e(b))
    return _DIRECTION.get(c.direction, "missing")


def _versus(a: Rate | None, b: Rate | None, other: str, *, span: bool = False) -> str:
    """``claims.versus`` for two rates, `b` named `other`: '1.3× faster than pread', with
    `span` '40× faster than the disk read (35–46×)'."""
    return claims.versus(claims.compare(_e(a), _e(b)), other, **claims.RATE_WORDS, span=span)


def measured_sentence(facts: dict) -> str:
    """Where the chapter's files went: a scratch directory on the file system mounted at
    ``mount_point`` (its type), the disk in the words of ``machine``, its rotational flag
    and write-cache mode. The scratch directory's own name is random and not shown."""
    mount = facts.get("mount_point")
    where = f"the file system mounted at {mount}" if mount else "a file system whose mount point was not recorded"
    return (
        f"Files were written to and read from a scratch directory on {where} ({facts.get('filesystem')}) "
        f"on {machine.disk_words(facts)}. Its rotational flag: {machine.rotational_words(facts)}. Its write "
        f"cache: {machine.write_cache_words(facts)}."
    )


def sweep_rate(metrics: pl.DataFrame, op: str, block_size: int) -> Rate | None:
    """The block-size sweep's MB/s for `op` at `block_size` (O_DIRECT, sync, one at a time),
    with the interval of its median; None where that size did not run."""
    return next(
        (Rate(e.median, e.lo, e.hi, e.runs) for x, e in _points(metrics, "block_size", "mb_per_s", op=op)
         if int(x) == block_size),
        None,
    )  # fmt: skip


def _other_run_words(memcpy: Rate | None, disk: Rate | None, other: Rate | None, name: str) -> str:
    """Where another run of the same disk read (`other`, named `name`) lies apart from `disk`
    (``claims.compare``: the intervals do not overlap), that run's figure and the ratio it
    gives against memory, and why `disk` is the one quoted; '' where the two runs agree or
    either is missing."""
    if compare(other, disk) not in ("faster", "slower") or compare(memcpy, other) == "missing":
        return ""
    against = _versus(memcpy, other, "that run", span=True)
    return (
        f" {name[0].upper()}{name[1:]} ran the same sequential O_DIRECT read at {fmt.num(other.median)} MB/s, "
        f"its interval apart from this one's; memory was {against}. This section quotes the run made beside the "
        "memory copy."
    )


def _tighter_run_words(
    memcpy: Rate | None, disk: Rate | None, other: Rate | None, name: str, target: float | None
) -> str:
    """' That disk figure's interval is wide (unstable: −15 %/+103 %); the block-size sweep ran the same
    sequential O_DIRECT read at 1,610 MB/s (1,460–1,700, 7 runs), a tighter interval, and memory was 11×
    faster than that run (10–12×).': where `disk` is unstable at `target` (``stats.stability``)
    and `other`'s interval is narrower for its median (``stats.Estimate.half_width``); ''
    otherwise, or where either is missing."""
    if disk is None or other is None or target is None:
        return ""
    mark = stats.stability(disk.estimate(), target)
    if not mark or not other.estimate().half_width < disk.estimate().half_width:
        return ""
    against = ""
    if compare(memcpy, other) != "missing":
        against = f", and memory was {_versus(memcpy, other, 'that run', span=True)}"
    return (
        f" That disk figure's interval is wide ({mark}); {name} ran the same sequential O_DIRECT read at "
        f"{rate_words(other)}, a tighter interval{against}."
    )


def memory_sentence(
    memcpy: Rate | None,
    disk: Rate | None,
    read_p50_us: float | None = None,
    *,
    other: Rate | None = None,
    other_name: str = "the block-size sweep",
    target: float | None = None,
) -> str:
    """How memory compared with the disk in bandwidth (MB/s both), from ``claims.compare``;
    the latency side from this page's own single 4 KiB read (`read_p50_us`, the median
    latency at queue depth 1) where it was measured. `other` is another run of the same
    disk read (`other_name`): where its interval lies apart from `disk`'s, its figure and
    the ratio it gives are named too (``_other_run_words``); where they overlap but `disk`'s
    interval is unstable at this profile's `target` (``stats.stability``) and `other`'s is
    not, the tighter run is named (``_tighter_run_words``)."""
    more = _other_run_words(memcpy, disk, other, other_name) or _tighter_run_words(
        memcpy, disk, other, other_name, target
    )
    if read_p50_us is None:
        latency = "a memory access takes nanoseconds, a read from a disk tens of microseconds or more."
    else:
        latency = (
            "a memory access takes nanoseconds (the CPU chapter measures how many), while one 4 KiB read from this "
            f"disk, alone in flight, took {fmt.duration_us(read_p50_us)} at the median (the queue-depth sweep below)."
        )
    outcome = compare(memcpy, disk)
    if outcome == "missing":
        return (
            f"How much faster memory is in bandwidth could not be measured here; in latency the gap is wide: {latency}"
        )
    if outcome == "faster":
        return (
            f"Here memory was {_versus(memcpy, disk, 'the disk read', span=True)} in bandwidth; in latency: "
            f"{latency}{more}"
        )
    return (
        f"Here the disk read was {_versus(disk, memcpy, 'the memory copy')}, "
        f"but only in bandwidth; in latency the gap stays wide: {latency}{more}"
    )


def memory_rule(
    memcpy: Rate | None, disk: Rate | None, *, other: Rate | None = None, read_p50_us: float | None = None
) -> str:
    """The closing rule about memory against this disk's sequential reads (`disk`, the
    figure ``memory_sentence`` sets beside the memory copy), in ``claims.versus``' words for
    every outcome; where the block-size sweep's run of the same read (`other`) lies apart
    from it, the ratio that run gives too. Latency is named only with this page's own
    figure for it (`read_p50_us`, the median time of one 4 KiB read alone in flight); this
    page does not time a memory access, so that side is the CPU chapter's. The advice to
    keep hot data in RAM is given only where memory was clearly faster."""
    latency = ""
    if read_p50_us is not None:
        latency = (
            f" In latency, one 4 KiB read from this disk, alone in flight, took {fmt.duration_us(read_p50_us)} at "
            "the median, where a memory access takes nanoseconds (the CPU chapter measures how many)."
        )
    outcome = compare(memcpy, disk)
    if outcome == "missing":
        return f"How memory compares with this disk in bandwidth could not be measured here.{latency}"
    also = ""
    if outcome == "faster" and compare(other, disk) in ("faster", "slower") and compare(memcpy, other) == "faster":
        sweep = ratio_words(claims.compare(_e(memcpy), _e(other)))
        also = f"; against the block-size sweep's run of the same read, {sweep}"
    words = _versus(memcpy, disk, "sequential reads from this disk", span=True)
    advice = " Keep hot data in RAM." if outcome == "faster" else ""
    return f"In bandwidth memory was {words}{also}.{advice}{latency}"


def write_sync_sentence(nosync: Rate | None, synced: Rate | None) -> str:
    """Buffered sequential 256 KiB writes without and with an fsync after each (MB/s, sync
    engine, appending to a new file), from ``claims.compare``: the sync is named as what
    costs only where the writes without it were clearly faster."""
    c = claims.compare(_e(nosync), _e(synced))
    if c.direction == claims.MISSING:
        return "Buffered writes with and without an fsync after each could not both be measured here."
    head = (
        f"Buffered writes without fsync ({fmt.num(nosync.median)} MB/s for sync sequential, appending to a new "
        "file) return once the data is in the page cache; the disk sees it later. With an fsync after each "
        f"256 KiB write the same loop managed {fmt.num(synced.median)} MB/s, so the writes without it were "
        f"{_versus(nosync, synced, 'those with it', span=True)}"
    )
    if c.direction == claims.HIGHER:
        return f"{head}: the sync is what costs, and the writes without it may measure little more than memory."
    return f"{head}: here the intervals show no cost of the sync to weigh."


def durability_rule(nosync: Rate | None, synced: Rate | None) -> str:
    """The closing rule on what durability costs, in ``write_sync_sentence``'s words."""
    c = claims.compare(_e(nosync), _e(synced))
    if c.direction == claims.MISSING:
        return "What durability costs a buffered write could not be measured here."
    words = _versus(nosync, synced, "the same write with one", span=True)
    if c.direction == claims.HIGHER:
        return f"A buffered write without fsync lands in the page cache; here it was {words}: durability is what costs."
    return (
        f"A buffered write without fsync lands in the page cache, yet here it was {words}: these runs show no "
        "cost of durability to weigh."
    )


def page_cache_p50s(metrics: pl.DataFrame) -> dict[str, stats.Estimate | None]:
    """The median time per read of the page-cache experiment's three cases, 'warm', 'cold'
    and 'direct' (µs, each with the interval of that median)."""
    s = stats.summarize(metrics, ["direct", "cache"])
    cases = {"warm": (False, "warm"), "cold": (False, "cold"), "direct": (True, "n/a")}
    return {k: stats.estimate_or_none(s, "p50", direct=d, cache=c) for k, (d, c) in cases.items()}


def read_ahead_sentence(
    read_ahead_kb: float | None,
    block: int,
    *,
    cold_p50: stats.Estimate | None = None,
    warm_p50: stats.Estimate | None = None,
    direct_p50: stats.Estimate | None = None,
) -> str:
    """What read-ahead may do for a buffered sequential reader of `block`-byte reads, with
    this device's read-ahead (`read_ahead_kb`, KiB; None when not reported), worded as a
    possibility. Where the uncached buffered read's median time (`cold_p50`) lies clearly
    below the O_DIRECT read's (`direct_p50`, ``claims.compare`` lower: the intervals apart),
    at least half the uncached reads did not wait for a whole read from the device, and a
    cached read's time (`warm_p50`) is set beside it. The window is named where it is
    smaller than one read."""
    if not isinstance(block, int) or isinstance(block, bool) or block <= 0:
        raise ValueError(f"block is a read size in bytes, got {block!r}")
    if read_ahead_kb is None:
        window = "an amount this kernel did not report"
    else:
        window = fmt.size(int(read_ahead_kb * 1024))
    text = (
        "What may help a buffered read is read-ahead: the kernel sees a sequential reader and reads ahead (up to "
        f"{window} here) in large requests while the program is still busy with the previous block, so some "
        "read calls may find their data already cached."
    )
    if claims.compare(cold_p50, direct_p50).direction == claims.LOWER:
        warm = claims.compare(cold_p50, warm_p50).direction
        beside = ""
        if warm in (claims.SAME_WORD, claims.UNCLEAR):
            beside = f", and close to the {_us_span(warm_p50)} of a read the page cache answered"
        text += (
            f" Here the median uncached read took {_us_span(cold_p50)}, clearly less than the "
            f"{_us_span(direct_p50)} of an O_DIRECT read from the device{beside}: so at least half of the uncached "
            "reads did not wait "
            "for a whole read from the device, which read-ahead would explain; this page does not trace where "
            "their data came from."
        )
    else:
        text += " This page does not measure how many do."
    if read_ahead_kb is not None and read_ahead_kb * 1024 < block:
        text += (
            f" Here the read-ahead window is smaller than one {fmt.size(block)} read, so each read asks for more "
            "than the kernel reads ahead of it."
        )
    return text


def _us_span(e: stats.Estimate) -> str:
    """'7.87 µs (7.83–7.91 µs)': a median time with the interval of that median."""
    return f"{fmt.duration_us(e.median)} ({fmt.duration_us(e.lo)}–{fmt.duration_us(e.hi)})"


def engine_sentence(
    uring: Rate | None,
    sync: Rate | None,
    *,
    buffered_uring: Rate | None = None,
    buffered_sync: Rate | None = None,
    buffered_aio: Rate | None = None,
    cache_cold: Rate | None = None,
) -> str:
    """io_uring against pread, sequential O_DIRECT reads of 256 KiB at queue depth 1, then
    the same reads buffered (``buffered_engines_words``, with aio where given, and the
    page-cache table's run of the buffered pread read, `cache_cold`)."""
    text = _direct_engine_sentence(uring, sync)
    more = buffered_engines_words(
        buffered_uring,
        buffered_sync,
        aio=buffered_aio,
        either=compare(uring, sync) in ("same", "unclear"),
        cache_cold=cache_cold,
    )
    return f"{text} {more}" if more else text


def _rate_versus(a: Rate, b: Rate, other: str) -> str:
    """``claims.versus`` for two rates, with the median ratio through ``median_factor``
    where the intervals overlap or agree ('not clearly faster or slower than pread (1× by
    the medians, but the intervals overlap)'); a clear ratio with its range ('3.1× faster
    than pread (1.3–5.4×)')."""
    c = claims.compare(_e(a), _e(b))
    return claims.versus(c, other, **claims.RATE_WORDS, span=True, median=median_factor)


def buffered_engines_words(
    uring: Rate | None,
    sync: Rate | None,
    *,
    aio: Rate | None = None,
    either: bool = True,
    cache_cold: Rate | None = None,
) -> str:
    """io_uring (and aio, where it ran) against pread for buffered sequential 256 KiB reads
    at queue depth 1, from ``claims.compare``. Where one differed: if the page-cache
    table's run of the same pread read (`cache_cold`) lies apart from this one
    (``claims.compare`` higher or lower), that the same case disagreed between two runs, so
    the engine is not named as the cause; otherwise the engine as a possible cause. 'either'
    only after O_DIRECT reads that showed no difference (`either`). Empty when pread or both
    other engines did not run."""
    others = [(name, r) for name, r in (("io_uring", uring), ("aio", aio)) if compare(r, sync) != "missing"]
    if not others:
        return ""
    items = [f"{name} at {fmt.num(r.median)} MB/s" for name, r in others] + [f"pread at {fmt.num(sync.median)} MB/s"]
    items[0] = items[0].replace(" at ", " read at ", 1)
    figures = ", ".join(items[:-1]) + " and " + items[-1]  # fmt.listed would take the figures' commas for items'
    outcomes = [compare(r, sync) for _, r in others]
    said = "; ".join(f"{name} {_rate_versus(r, sync, 'pread')}" for name, r in others)
    if all(o in ("same", "unclear") for o in outcomes):
        return f"Buffered, the engines did not clearly differ{' either' if either else ''}: {figures}; {said}."
    head = f"Buffered, the engines did differ: {figures}; {said}."
    if compare(sync, cache_cold) in ("faster", "slower"):
        return (
            f"{head} But this buffered pread read disagreed with the page-cache table's run of the same read "
            f"({fmt.num(cache_cold.median)} MB/s, the intervals apart; see one quantity, several runs, below), so "
            "this page cannot say the engine is why."
        )
    return f"{head} The engine may be why; this page does not measure what in it makes the gap."


def _direct_engine_sentence(uring: Rate | None, sync: Rate | None) -> str:
    outcome = compare(uring, sync)
    if outcome == "missing":
        which = " and ".join(n for n, r in (("io_uring", uring), ("pread", sync)) if r is None)
        return (
            "Whether the engine matters at queue depth 1 could not be measured here: the O_DIRECT sequential "
            f"read through {which} did not run."
        )
    both = f"io_uring read sequentially at {fmt.num(uring.median)} MB/s"
    if outcome in ("same", "unclear"):
        return (
            f"And with O_DIRECT at queue depth 1 the engine made no difference to reads that the intervals can "
            f"show: io_uring read sequentially at {fmt.num(uring.median)} MB/s and pread at {fmt.num(sync.median)} "
            f"MB/s, io_uring {_rate_versus(uring, sync, 'pread')}."
        )
    if outcome == "faster":
        return (
            f"At queue depth 1 the engine made some difference to reads: with O_DIRECT, {both}, "
            f"{_versus(uring, sync, f'the {fmt.num(sync.median)} MB/s of pread', span=True)}."
        )
    words = _versus(sync, uring, f"io_uring's {fmt.num(uring.median)} MB/s", span=True)
    return (
        f"At queue depth 1 io_uring bought reads nothing: with O_DIRECT, pread read sequentially at "
        f"{fmt.num(sync.median)} MB/s, {words}."
    )


def fsync_engines_sentence(summary: pl.DataFrame, reads: str | None = None) -> str:
    """aio and io_uring against pwrite, each write followed by an fsync at queue depth 1
    (256 KiB, sequential and random, buffered and O_DIRECT), from ``claims.compare`` on the
    intervals: the rows where an engine differed, and the honest word that the engines end
    in the same calls, so a gap is not explained by them. `reads` is what ``engine_sentence``
    found for reads (``compare``'s word: 'same', 'unclear', 'faster', ...): 'either' only
    follows a read outcome that showed no difference too. Drift is ruled out only where
    the compared cases ran equally often (every round ran each of them)."""
    if reads is not None and reads not in (*_DIRECTION.values(), "missing"):
        raise ValueError(f"reads is one of compare's words {sorted(_DIRECTION.values())} or 'missing', got {reads!r}")
    faster, slower, overlap, uneven, narrow = [], [], 0, False, 0
    for direct in (False, True):
        for pattern, engine, base, other in _engine_pairs(summary, fsync=True, direct=direct):
            outcome = compare(other, base)
            if outcome == "missing":
                continue
            mode = "O_DIRECT" if direct else "buffered"
            if outcome in ("faster", "slower"):
                row = f"{engine} {pattern}, {mode} ({fmt.num(other.median)} against {fmt.num(base.median)} MB/s)"
                if _narrow(other, base):
                    narrow += 1
                    row = row[:-1] + ", by little)"
                (faster if outcome == "faster" else slower).append(row)
                uneven = uneven or other.runs != base.runs
            else:
                overlap += 1
    if not (faster or slower or overlap):
        return "Whether the engine matters for writes with an fsync could not be measured here."
    if not (faster or slower):
        either = " (as with the O_DIRECT reads)" if reads in ("same", "unclear") else ""
        return (
            "With an fsync after every write the engines did not differ beyond the intervals of their medians"
            f"{either}: in all {fmt.count(overlap, 'pair')} of rows (aio or io_uring against pwrite) the intervals "
            "overlap."
        )
    said = []
    if faster:
        said.append(f"{fmt.listed(faster)} {'was' if len(faster) == 1 else 'were'} faster than pwrite + fsync")
    if slower:
        said.append(f"{fmt.listed(slower)} {'was' if len(slower) == 1 else 'were'} slower than pwrite + fsync")
    rest = f"; in the other {fmt.count(overlap, 'pair')} of rows the intervals overlap" if overlap else ""
    split = len(faster) + len(slower)
    total = split + overlap
    if uneven:
        when = (
            " The cases run in rounds, but the rounds added for unclear cases ran only some of them, so the engines "
            "compared here did not run equally often nor share every moment: drift on this disk may explain part "
            "of a gap."
        )
    else:
        when = (
            " The cases run in rounds, one run of each case per round, and the engines compared here ran equally "
            "often, so a slow minute of the disk should fall on every engine alike: drift is an unlikely cause of "
            "a gap whose intervals stay apart, though this page cannot rule it out."
        )
    if narrow == split:
        # every split is narrow (its intervals' near ends within claims.SAME of each other): a marginal finding
        said = [part.replace(", by little)", ")") for part in said]
        head = (
            f"With an fsync after every write the engines barely differed: of {fmt.count(total, 'comparison')} "
            f"(aio or io_uring against pwrite, each pair of rows), only {fmt.exact(split)} split, and by little; "
            f"among that many comparisons a narrow split may be chance: {'; '.join(said)}{rest}."
        )
    else:
        head = f"With an fsync after every write the engines did differ: {'; '.join(said)}{rest}."
    return (
        f"{head} Every engine issues "
        "the same calls at queue depth 1: a write to a new file opened with the same flags, then a full fsync "
        "(pwrite and fsync; aio_write and aio_fsync with O_SYNC; io_uring's write linked to an fsync without its "
        f"datasync flag), the next write only after it.{when} This page has not explained the gap; where the fsync "
        "runs in another thread (glibc's aio helper, io_uring's kernel worker) is one difference left to test."
    )


def _engine_pairs(summary: pl.DataFrame, **where: object) -> Iterator[tuple[str, str, Rate, Rate]]:
    """(pattern, engine, pwrite's rate, the engine's rate) of the engine matrix's 256 KiB
    writes matching `where` (fsync, direct), sequential then random, aio then io_uring;
    a pair that did not both run is left out."""
    for pattern in ("sequential", "random"):
        case = {"pattern": pattern, "op": "write", "block_size": 262144, **where}
        try:
            base = rate(summary, "mb_per_s", engine="sync", **case)
        except KeyError:
            continue
        for engine in ("aio", "io_uring"):
            try:
                other = rate(summary, "mb_per_s", engine=engine, **case)
            except KeyError:
                continue
            yield pattern, engine, base, other


def nosync_engines_sentence(summary: pl.DataFrame) -> str:
    """aio and io_uring against pwrite for buffered 256 KiB writes without an fsync at queue
    depth 1 (sequential and random), from ``claims.compare`` on the intervals: 'Buffered writes
    without an fsync did differ between the engines: aio sequential wrote 2,810 MB/s, 2.1×
    slower than pwrite's 5,790 MB/s (1.9–2.3×); …' with the possible causes as possibilities,
    or that the intervals overlap in every pair; a sentence saying so where no pair ran."""
    differ, overlap = [], 0
    for pattern, engine, base, other in _engine_pairs(summary, fsync=False, direct=False):
        outcome = compare(other, base)
        if outcome in ("faster", "slower"):
            differ.append(
                f"{engine} {pattern} wrote {fmt.num(other.median)} MB/s, "
                f"{_versus(other, base, f'pwrite at {fmt.num(base.median)} MB/s', span=True)}"
            )
        elif outcome != "missing":
            overlap += 1
    if not (differ or overlap):
        return "Buffered writes without an fsync could not be set beside pwrite's for any engine here."
    if not differ:
        return (
            "Buffered writes without an fsync did not differ between the engines beyond the intervals of their "
            f"medians: in all {fmt.count(overlap, 'pair')} of rows (aio or io_uring against pwrite) the intervals "
            "overlap."
        )
    rest = f"; in the other {fmt.count(overlap, 'pair')} of rows the intervals overlap" if overlap else ""
    return (
        f"Buffered writes without an fsync did differ between the engines: {'; '.join(differ)}{rest}. Such a write "
        "only copies into the page cache, so what each engine adds per request (glibc's aio helper thread, "
        "io_uring's submission and completion) may weigh here, as may writeback of earlier dirty pages falling on "
        "one engine's runs more than another's; this page does not measure which."
    )


def _narrow(a: Rate, b: Rate) -> bool:
    """Whether two rates whose intervals do not overlap lie apart by little: the near ends
    of their intervals within ``claims.SAME`` of each other."""
    near = a.low / b.high if a.median > b.median else b.low / a.high
    return near <= claims.SAME


def page_cache_rates(metrics: pl.DataFrame) -> dict[str, Rate | None]:
    """MB/s of the page-cache experiment's three cases: 'warm', 'cold', 'direct'."""
    s = stats.summarize(metrics, ["direct", "cache"])
    return {
        "warm": rate(s, "mb_per_s", direct=False, cache="warm"),
        "cold": rate(s, "mb_per_s", direct=False, cache="cold"),
        "direct": rate(s, "mb_per_s", direct=True, cache="n/a"),
    }


def page_cache_sentence(
    warm: Rate | None,
    cold: Rate | None,
    direct: Rate | None,
    memcpy: Rate | None = None,
    buffer: int | None = None,
    *,
    matrix_cold: Rate | None = None,
    matrix_direct: Rate | None = None,
    facts: dict | None = None,
) -> str:
    """What the page cache was worth: a cached read, and an uncached buffered read, each
    against O_DIRECT; every word from ``claims.compare`` on the intervals. Where the cached
    read was clearly faster than the chapter's memcpy (`memcpy`, of a `buffer`-byte buffer),
    one possible reason why a copy out of the page cache can beat a copy of memory, offered
    only where the measuring machine's caches (`facts`, ``claims.cache_words``) put that
    buffer in RAM, or hedged where no facts say. `matrix_cold` and `matrix_direct` are the
    engine matrix's runs of the same uncached buffered read and of its O_DIRECT read: where
    this table's read beat O_DIRECT but the matrix's was clearly slower than the matrix's own
    O_DIRECT read, the sentence says so; each run is compared only within itself."""
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
            f"{_versus(warm, direct, 'the O_DIRECT read from the device')}."
        )
    if warm is not None and compare(warm, memcpy) == "faster":
        size = f"a {fmt.size(buffer)} buffer" if buffer else "a large buffer"
        first += (
            f" That is {_versus(warm, memcpy, f'the memcpy of {size} above ({fmt.num(memcpy.median)} MB/s)')}, "
            "though both copy memory."
        )
        caches = machine.caches(facts) if facts is not None else []
        if buffer is not None and caches and claims.cache_level(buffer, caches) is not None:
            first += f"{_memcpy_buffer_words(buffer, facts)} This page does not measure why the cached read was faster."
        else:
            placed = buffer is not None and caches
            memcpy_ram = (
                f"the memcpy's {fmt.size(buffer)} buffer "
                f"{claims.cache_words(buffer, caches, virtual=machine.virtual(facts))}, so that copy reads and "
                "writes RAM for every byte"
                if placed
                else "a large memcpy may read and write RAM for every byte"
            )
            first += (
                " One possible reason: each 256 KiB read lands in the same small buffer, which may stay in the CPU's "
                f"caches, so that only the source comes from RAM, while {memcpy_ram}; this page does not measure the "
                f"caches' part.{'' if placed else _memcpy_buffer_words(buffer, facts)}"
            )
    outcome = compare(cold, direct)
    uncached = "a buffered read of a file that is not cached"
    if outcome == "missing":
        if cold is None:
            second = "How a buffered read of a file that is not cached compares could not be measured here."
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
        if compare(matrix_cold, matrix_direct) == "slower":
            second += (
                f" Yet in the engine matrix's runs the same read made {fmt.num(matrix_cold.median)} MB/s, slower than "
                f"the matrix's own O_DIRECT read ({fmt.num(matrix_direct.median)} MB/s): the same pair disagreed "
                "between two runs (see one quantity, several runs, below), so read this row as what this run saw, "
                "not as a rule."
            )
    elif outcome in ("same", "unclear"):
        second = (
            f"The middle row: {uncached} ({fmt.num(cold.median)} MB/s) was "
            f"{_versus(cold, direct, 'O_DIRECT')} at queue depth 1, although it copies every byte once more: "
            "the extra copy did not make it clearly slower."
        )
    else:
        second = (
            f"{uncached.capitalize()} ran at {fmt.num(cold.median)} MB/s, slower than O_DIRECT "
            f"({fmt.num(direct.median)} MB/s): the extra copy through the page cache may cost more here than "
            "read-ahead saves, though this run measures neither part."
        )
    return f"{first} {second}"


def _memcpy_buffer_words(buffer: int | None, facts: dict | None) -> str:
    """' That memcpy's 64 MiB buffer is larger than every cache (the L3 is 32 MiB, shared by
    2 CPUs) and is served from RAM.': where the chapter's memcpy buffer (`buffer`, bytes) lies
    in the cache topology the measuring machine recorded (`facts`, ``claims.cache_words``);
    '' without the buffer's size or the facts."""
    if buffer is None or facts is None:
        return ""
    where = claims.cache_words(buffer, machine.caches(facts), virtual=machine.virtual(facts))
    return f" That memcpy's {fmt.size(buffer)} buffer {where}."


def random_read_sentence(
    summary: pl.DataFrame,
    memcpy: Rate | None = None,
    cached: Rate | None = None,
    *,
    sequential: str | None = None,
    buffer: int | None = None,
    facts: dict | None = None,
) -> str:
    """Random 256 KiB reads (sync engine) through the page cache against O_DIRECT, from
    ``claims.compare`` on the matrix's intervals (`summary`: ``stats.summarize`` by ``CASE``):
    read-ahead has no sequence to follow, so the words say what the runs showed, set against
    what the sequential uncached read did (`sequential`: ``compare``'s word for it against
    O_DIRECT, as ``page_cache_sentence`` read it; 'no such gain' and 'too' only after one that
    was faster). Where the buffered reads were slower, the extra copy's share of the gap is
    priced at the rate of a read the page cache answers (`cached`, MB/s: the same copy into
    the same small buffer, with its system call, so at most what the copy costs), and beside
    it at the chapter's memcpy rate (`memcpy`), whose `buffer` (bytes) is placed in the
    measuring machine's caches (`facts`, ``claims.cache_words``): the memcpy rate is read as a
    bound only where that buffer is served from RAM. So the copy is not offered as the cause
    of a gap it cannot fill."""
    if sequential is not None and sequential not in (*_DIRECTION.values(), "missing"):
        raise ValueError(
            f"sequential is one of compare's words {sorted(_DIRECTION.values())} or 'missing', got {sequential!r}"
        )
    block = 262144
    where = {"engine": "sync", "pattern": "random", "op": "read", "fsync": False, "block_size": block}
    try:
        buffered = rate(summary, "mb_per_s", direct=False, **where)
        direct = rate(summary, "mb_per_s", direct=True, **where)
    except KeyError:
        buffered = direct = None
    outcome = compare(buffered, direct)
    if outcome == "missing":
        return "Whether random reads gain from the page cache could not be measured here."
    ran = f"through the page cache, random 256 KiB reads ran at {fmt.num(buffered.median)} MB/s"
    if outcome in ("same", "unclear"):  # versus adds a bracket of its own: the O_DIRECT figure goes before it
        ran += f" and with O_DIRECT at {fmt.num(direct.median)} MB/s"
        words = claims.versus(
            claims.compare(_e(buffered), _e(direct)), "with O_DIRECT", **claims.RATE_WORDS, median=median_factor
        )
    else:
        words = _versus(buffered, direct, f"with O_DIRECT ({fmt.num(direct.median)} MB/s)")
    try:
        sequential_buffered = rate(summary, "mb_per_s", direct=False, **(where | {"pattern": "sequential"}))
    except KeyError:
        sequential_buffered = None
    inverted = ""
    if compare(buffered, sequential_buffered) == "faster":
        inverted = (
            f" In the same matrix run, buffered sequential reads ({fmt.num(sequential_buffered.median)} MB/s) were "
            f"{_versus(sequential_buffered, buffered, 'these random ones', span=True)}, the reverse of what "
            "read-ahead should give; this run cannot say why."
        )
    if outcome == "faster":
        if sequential == "faster":
            lead = "Random reads gained here too"
        elif sequential in ("same", "unclear", "slower"):
            lead = "Random reads gained here, unlike the sequential uncached read above, which did not clearly gain"
        else:
            lead = "Random reads gained here"
        return (
            f"{lead}: {ran}, {words}, although with no sequence to follow read-ahead should have little to offer; "
            f"this page does not measure why.{inverted}"
        )
    head = f"Random reads showed no such gain here: {ran}" if sequential == "faster" else f"{ran[0].upper()}{ran[1:]}"
    if outcome != "slower":
        return f"{head}, {words}.{inverted}"
    gap = block / buffered.median - block / direct.median  # µs per read (MB/s = bytes per µs)
    priced = memcpy is not None and memcpy.median > 0
    buffer_words = _memcpy_buffer_words(buffer, facts) if priced else ""
    caches = machine.caches(facts) if facts is not None else []
    from_ram = bool(caches) and buffer is not None and claims.cache_level(buffer, caches) is None
    if cached is not None and cached.median > 0:
        per_read = block / cached.median
        share = _copy_share(cached, buffered, direct, block)
        dearer = f" ({fmt.duration_us(block / memcpy.median)} at this chapter's memcpy rate)" if priced else ""
        copy = (
            f"the extra copy costs at most what a read the page cache answers took, about "
            f"{fmt.duration_us(per_read)} per read{dearer}, which {share} a gap of {fmt.duration_us(gap)} "
            "per read, and this page does not measure the rest"
        )
    elif not priced:
        copy = "the extra copy is one cost, and this page does not measure how much of the gap it explains"
    elif from_ram:
        per_read = block / memcpy.median
        share = _copy_share(memcpy, buffered, direct, block)
        copy = (
            f"the extra copy, at most about {fmt.duration_us(per_read)} per read at this chapter's memcpy rate "
            f"(a copy from RAM to RAM, which may be dearer than one into a small buffer), {share} a gap of "
            f"{fmt.duration_us(gap)} per read, and this page does not measure the rest"
        )
    else:
        copy = (
            f"at this chapter's memcpy rate the extra copy would take about "
            f"{fmt.duration_us(block / memcpy.median)} per read, against a gap of {fmt.duration_us(gap)} per read, "
            "and this page does not measure how much of the gap the copy explains"
        )
    return (
        f"{head}, {words}. With no sequence to follow, read-ahead should have little to offer (one that fetches "
        f"pages nobody asked for would be one cause of the gap). {copy[0].upper()}{copy[1:]}.{buffer_words}"
        f"{inverted}"
    )


def _copy_share(copy: Rate, buffered: Rate, direct: Rate, block: int) -> str:
    """How much of the gap per read between a buffered and an O_DIRECT read (µs, `block`
    bytes each) a copy at rate `copy` (MB/s) could take, from ``claims.compare`` of the
    copy's time per read against half the gap, each with the range its intervals allow:
    'could explain most of' (above half), 'can explain only part of' (below), 'is, within
    these intervals, either most or only part of' (they overlap, or a rate's reaches zero)."""
    unclear = "is, within these intervals, either most or only part of"
    if min(copy.low, buffered.low, direct.low) <= 0:
        return unclear
    took = stats.Estimate(block / copy.median, block / copy.high, block / copy.low, copy.runs)
    half = stats.Estimate(
        (block / buffered.median - block / direct.median) / 2,
        (block / buffered.high - block / direct.low) / 2,
        (block / buffered.low - block / direct.high) / 2,
        min(buffered.runs, direct.runs),
    )
    if half.lo <= 0:
        return unclear
    c = claims.compare(took, half)
    if c.direction == claims.HIGHER:
        return "could explain most of"
    if c.direction == claims.LOWER:
        return "can explain only part of"
    return unclear


def _points(metrics: pl.DataFrame, by: str, metric: str, **where: object) -> list[tuple[float, stats.Estimate]]:
    """(x, Estimate) of `metric` along `by`, for the rows matching `where`, x increasing."""
    rows = metrics
    for k, v in where.items():
        rows = rows.filter(pl.col(k) == v)
    if rows.height == 0:
        return []
    summary = stats.summarize(rows, [by])
    found = ((x, stats.estimate_or_none(summary, metric, **{by: x})) for x in sorted(summary[by].unique().to_list()))
    return [(x, e) for x, e in found if e is not None]


def block_size_sentence(metrics: pl.DataFrame) -> str:
    """Where reads and writes stop gaining MB/s with bigger blocks: ``claims.curve`` over
    the block sizes' intervals; where a bigger block than the best one has its whole
    interval below the best's, that the curve fell clearly past it (``_fell_words``). What
    may bind small and large blocks follows only a knee or a curve still rising, as a
    possibility (the sweep does not measure the two limits apart); the closing advice on
    bigger blocks follows only a curve still rising."""
    found = {op: _points(metrics, "block_size", "mb_per_s", op=op) for op in ("read", "write")}
    if not any(found.values()):
        why = charts.reasons(metrics)
        return f"The sweep could not run here ({why or 'no result'}), so where the device saturates is not known."
    parts, shapes = [], []
    for op, points in found.items():
        name = "reads" if op == "read" else "writes"
        if not points:
            parts.append(f"{name} could not be measured here")
            continue
        shape = claims.curve(points)
        shapes.append(shape.kind)
        best = max(points, key=lambda p: p[1].median)
        peak = f"{fmt.num(best[1].median)} MB/s at {fmt.size(best[0])}"
        fell = _fell_words(points, best) if shape.kind in ("knee", "flat") else ""
        if shape.kind == "knee":
            at = next((e for x, e in points if x == shape.x), None)
            still, clear = "", ""
            past = _past_knee(points, shape.x)
            if past is not None and past[0] == "clear" and at is not None:
                x, e = past[1], past[2]
                spans = (interval_cell(fmt.num(e.lo), fmt.num(e.hi)), interval_cell(fmt.num(at.lo), fmt.num(at.hi)))
                clear = (
                    f", yet past it the rate still gained clearly, if little: the {fmt.size(int(x))} block's interval "
                    f"lies wholly above the {fmt.size(int(shape.x))} block's ({spans[0]} against {spans[1]} MB/s)"
                )
            elif at is not None and best[0] > shape.x and best[1].median > at.median * (1 + claims.FLAT_GAIN):
                still = f", though the medians still rose, from {fmt.num(at.median)} MB/s at {fmt.size(shape.x)}"
            parts.append(
                f"{name} stop gaining clearly from {fmt.size(shape.x)} blocks: no bigger block's interval starts more "
                f"than a tenth above the top of that size's{clear} (best median: {peak}{still}){fell}"
            )
        elif shape.kind == "rising":
            parts.append(f"{name} were still gaining at {fmt.size(points[-1][0])}, the largest block measured ({peak})")
        elif shape.kind == "collapse":
            parts.append(f"{name} fell clearly past their best ({peak}), below half of it at {fmt.size(shape.x)}")
        elif shape.kind == "flat":
            parts.append(f"{name} gained nothing clear from bigger blocks (best: {peak}){fell}")
        else:
            parts.append(f"{name}: too few block sizes to tell")
    text = "; ".join(parts)
    text = f"{text[0].upper()}{text[1:]}."
    if "knee" in shapes:
        text += (
            " One possible reading of such a knee, which this sweep does not test: small blocks may be bound by "
            "the time each request takes, and blocks past the knee by the device's bandwidth."
        )
    elif "rising" in shapes:
        text += (
            " Small blocks may be bound by the time each request takes; this sweep did not reach the block size "
            "where bandwidth takes over."
        )
    if "rising" in shapes:
        text += (
            " Where a curve still rises, a program that wants bandwidth must use bigger blocks or keep several "
            "requests in flight."
        )
    return text


def _past_knee(points: list[tuple[float, stats.Estimate]], knee_x: float) -> tuple[str, float, stats.Estimate] | None:
    """What a curve did past its knee at `knee_x` (``claims.curve``'s knee, no later point more
    than a tenth above it): ('clear', x, e) for the later point with the highest median among
    those whose whole interval lies above the knee's (``claims.compare`` higher); else
    ('medians', x, e) for the later point with the highest median where that median lies more
    than ``claims.SAME`` above the knee's; None where neither holds or the knee is not a point."""
    at = next((e for x, e in points if x == knee_x), None)
    later = [(x, e) for x, e in points if x > knee_x]
    if at is None or not later:
        return None
    clear = [(x, e) for x, e in later if claims.compare(e, at).direction == claims.HIGHER]
    if clear:
        x, e = max(clear, key=lambda p: p[1].median)
        return ("clear", x, e)
    x, e = max(later, key=lambda p: p[1].median)
    if e.median > at.median * claims.SAME:
        return ("medians", x, e)
    return None


def _fell_words(points: list[tuple[float, stats.Estimate]], best: tuple[float, stats.Estimate]) -> str:
    """', and fell clearly past it: at 2 MiB (1,800 MB/s) and 4 MiB (1,700 MB/s) the whole interval
    lies below the best 1 MiB block's': the bigger blocks than the best (`best`, by the median) whose
    interval's top lies below its interval's bottom; '' where there are none."""
    below = [(x, e) for x, e in points if x > best[0] and e.hi < best[1].lo]
    if not below:
        return ""
    at = fmt.listed([f"{fmt.size(int(x))} ({fmt.num(e.median)} MB/s)" for x, e in below])
    return (
        f", and fell clearly past it: at {at} the whole interval lies below the best {fmt.size(int(best[0]))} block's"
    )


def page_cache_rule(
    warm: Rate | None,
    cold: Rate | None,
    direct: Rate | None,
    matrix_cold: Rate | None = None,
    matrix_direct: Rate | None = None,
) -> str:
    """The closing rule on the page cache, from ``claims.compare`` against O_DIRECT:
    repeated reads (`warm`, a read the cache answers) and uncached sequential reads, each run
    against its own O_DIRECT read: the page-cache table's (`cold` against `direct`) and the
    engine matrix's (`matrix_cold` against `matrix_direct`); 'fast' for those only where
    every run was clearly faster than its O_DIRECT read."""
    if compare(warm, direct) == "faster":
        first = (
            "Here the page cache made repeated reads cheap: a read it answered was "
            f"{_versus(warm, direct, 'an O_DIRECT read', span=True)}"
        )
    elif compare(warm, direct) == "missing":
        first = "What the page cache makes of repeated reads could not be measured here"
    else:
        first = f"Here a read the page cache answered was {_versus(warm, direct, 'O_DIRECT')}"
    runs = [o for o in (compare(cold, direct), compare(matrix_cold, matrix_direct)) if o != "missing"]
    if not runs:
        second = ""
    elif all(o == "faster" for o in runs):
        second = "; uncached sequential reads through it beat O_DIRECT too, in every run"
    elif any(o == "faster" for o in runs):
        second = (
            "; for uncached sequential reads its help was not steady: one run beat O_DIRECT, another did not, and "
            "this page cannot say why"
        )
    else:
        second = "; uncached sequential reads through it did not clearly beat O_DIRECT"
    return f"{first}{second}. A database that bypasses it with O_DIRECT must do its own caching and read-ahead."


def single_read_p50(metrics: pl.DataFrame) -> float | None:
    """The median p50 latency (µs) of a lone 4 KiB random read (queue depth 1), or None."""
    points = _points(metrics, "queue_depth", "p50", op="read")
    return next((e.median for x, e in points if x == 1), None)


def _spanned(e: stats.Estimate | None, unit: str = "", show=fmt.num) -> str:
    """A figure for the prose with the interval of its median and its run count:
    '8,250 reads per second (6,100–9,000, 3 runs)'; '55.1 µs (50.2–60.3 µs, 3 runs)'."""
    if e is None:
        return fmt.NA
    head = f"{show(e.median)} {unit}".rstrip()
    if e.runs <= 1 and e.lo == e.hi:
        return f"{head} (1 run)"
    if show(e.lo) == show(e.hi):
        return f"{head} (no spread, {fmt.count(e.runs, 'run')})"
    return f"{head} ({interval_cell(show(e.lo), show(e.hi))}, {fmt.count(e.runs, 'run')})"


def queue_depth_sentence(metrics: pl.DataFrame) -> str:
    """What more requests in flight bought for 4 KiB random reads: the shape from
    ``claims.curve`` over the depths' intervals, and what the p99 did; then the random
    writes' lines, where the sweep ran them (``_queue_depth_writes``)."""
    points = _points(metrics, "queue_depth", "ops_per_s", op="read")
    if not points:
        why = charts.reasons(metrics)
        return (
            f"The queue-depth sweep could not run here ({why or 'no result'}), so how much more requests in flight "
            "help is not known."
        )
    (d1, one), (dn, last) = points[0], points[-1]
    p50_one = next((e.median for x, e in _points(metrics, "queue_depth", "p50", op="read") if x == 1), None)
    p50_at_one = next((e for x, e in _points(metrics, "queue_depth", "p50", op="read") if x == 1), None)
    if d1 == 1 and p50_one is not None and one.median > 0:
        mean = 1e6 / one.median
        above = (
            claims.compare(stats.Estimate(mean, 1e6 / one.hi, 1e6 / one.lo, one.runs), p50_at_one)
            if one.lo > 0
            else claims.compare(None, None)
        )
        weigh = (
            "; the average lies clearly above the median (the intervals do not overlap), so slow reads may weigh in it"
            if above.direction == claims.HIGHER
            else ""
        )
        start = (
            f"One 4 KiB random read at a time gave {_spanned(one, 'reads per second')}, "
            f"{fmt.duration_us(mean)} each on average; the median read took "
            f"{_spanned(p50_at_one, show=fmt.duration_us)}{weigh}."
        )
    elif d1 == 1:
        start = f"One 4 KiB random read at a time gave {_spanned(one, 'reads per second')}."
    else:
        start = f"With {fmt.exact(int(d1))} 4 KiB random reads in flight the device gave {_spanned(one, 'per second')}."
    shape = claims.curve(points)
    best_x, best = max(points, key=lambda p: p[1].median)
    writes = _queue_depth_writes(metrics)
    p99 = _points(metrics, "queue_depth", "p99", op="read")
    tail = ""
    if len(p99) >= 2:
        tail = (
            f" The p99 latency went from {_spanned(p99[0][1], show=fmt.duration_us)} at depth "
            f"{fmt.exact(int(p99[0][0]))} to {_spanned(p99[-1][1], show=fmt.duration_us)} at "
            f"{fmt.exact(int(p99[-1][0]))}."
        )
    if shape.kind == "flat" or len(points) < 2:
        return (
            f"{start} More in flight did not help beyond the intervals of the medians: the best median was "
            f"{_spanned(best, 'per second')} at {fmt.count(int(best_x), 'request')} in flight.{tail}{writes}"
        )
    gain = _over_single(best, one, "the single read's rate")
    if shape.kind == "rising":
        grew = _over_single(last, one, "the single read's")
        return (
            f"{start} With more in flight the rate rose, as it may when the device works on several requests at "
            f"once, and it was still rising at "
            f"{fmt.exact(int(dn))}, the largest depth measured: {_spanned(last, 'per second')}, "
            f"{grew}. No knee within this range.{tail}{writes}"
        )
    if shape.kind == "knee":
        at_knee = next((e for x, e in p99 if x == shape.x), None)
        deeper = claims.compare(p99[-1][1], at_knee) if p99 else claims.compare(None, None)
        waiting = (
            f" Past that depth, extra requests may mostly have waited: the p99 at {fmt.exact(int(p99[-1][0]))} was "
            f"{claims.ratio_interval(deeper)} the knee's (at {fmt.exact(int(shape.x))})."
            if deeper.direction == claims.HIGHER
            else ""
        )
        at_x = next((e for x, e in points if x == shape.x), None)
        past = claims.compare(best, at_x) if at_x is not None and best_x > shape.x else claims.compare(None, None)
        moved = (
            f"from {_spanned(at_x, 'per second')} at {fmt.exact(int(shape.x))} to {_spanned(best)} at "
            f"{fmt.exact(int(best_x))}, {gain}"
        )
        if past.direction == claims.HIGHER:
            settled = (
                f" Past it the rate still gained clearly, but little: {moved}; the best depth's interval lies "
                "wholly above the knee's yet starts less than a tenth above the top of it."
            )
        elif past.direction == claims.UNCLEAR and best.median > at_x.median * claims.SAME:
            settled = (
                f" The medians still rose past it, {moved}; that rise lies within the intervals of the medians: "
                "whether the device levels off there, this run cannot tell."
            )
        else:
            settled = f" The best median, {_spanned(best, 'per second')} at {fmt.exact(int(best_x))}, is {gain}."
        return (
            f"{start} With more in flight the rate rose, as it may when the device works on several requests at "
            f"once, and the gains shrink from "
            f"{fmt.count(int(shape.x), 'request')} in flight: no deeper queue's interval starts more than a tenth "
            f"above the top of that depth's.{settled}{waiting}{tail}{writes}"
        )
    return (
        f"{start} The rate peaked at {_spanned(best, 'per second')} with {fmt.exact(int(shape.peak_x))} in flight, "
        f"{gain}, and fell below half of that peak at {fmt.exact(int(shape.x))}.{tail}{writes}"
    )


def _over_single(rate_at: stats.Estimate, single: stats.Estimate, other: str) -> str:
    """A depth's rate against the single read's (`other` names it), in ``claims.versus``'
    words with the range the ratio can take: '2.6× higher than the single read's rate
    (2.4–2.8×)', 'slightly higher than … (1.04×; 1.01–1.07×)', 'not clearly higher or lower
    than … (1× by the medians, but the intervals overlap)'."""
    c = claims.compare(rate_at, single)
    return claims.versus(c, other, more="higher", less="lower", span=True, median=median_factor)


def _queue_depth_writes(metrics: pl.DataFrame) -> str:
    """' The random writes (the chart's other lines) went from 9,000 per second at depth 1 to
    70,000 at 64, and their rate levels off from queue depth 8.': the writes' shape from
    ``claims.curve`` in ``claims.curve_words``; '' where the sweep ran no writes."""
    points = _points(metrics, "queue_depth", "ops_per_s", op="write")
    if len(points) < 2:
        return ""
    (d1, first), (dn, last) = points[0], points[-1]
    found = claims.curve(points)
    shape = claims.curve_words(found, x_words="queue depth", fmt_x=lambda x: fmt.exact(int(x)))
    if found.kind in ("rising", "flat"):
        shape = "is " + shape if found.kind == "rising" else "was " + shape
    settled = ""
    if found.kind == "knee":
        shape += ": no deeper queue's interval starts more than a tenth above the top of that depth's"
        at = next((e for x, e in points if x == found.x), None)
        past = _past_knee(points, found.x)
        if past is not None and at is not None:
            kind, x, e = past
            moved = (
                f"from {_spanned(at, 'per second')} at {fmt.exact(int(found.x))} to {_spanned(e)} at "
                f"{fmt.exact(int(x))}"
            )
            if kind == "clear":
                settled = (
                    f" Past it their rate still gained clearly, but little: {moved}; the interval at "
                    f"{fmt.exact(int(x))} lies wholly above the one at {fmt.exact(int(found.x))} yet starts less "
                    "than a tenth above the top of it."
                )
            else:
                settled = (
                    f" Their medians still rose past it, {moved}; that rise lies within the intervals of the "
                    "medians: whether the writes level off there, this run cannot tell."
                )
    return (
        f" The random writes (the chart's other lines) went from {_spanned(first, 'per second')} at depth "
        f"{fmt.exact(int(d1))} to {_spanned(last)} at {fmt.exact(int(dn))}; their rate {shape}.{settled}"
    )


def fsync_rule(buffered_fsync: float | None, buffered: float | None, direct_fsync: float | None) -> str:
    """The closing rule on what durability costs: the same sync sequential 256 KiB writes the
    engine-matrix paragraph quotes (through the page cache, with and without an fsync each),
    and the O_DIRECT figure named as such, so no quantity gets a second, unnamed value."""
    direct = "" if direct_fsync is None else f" ({fmt.num(direct_fsync)} MB/s with O_DIRECT and an fsync after each)"
    if buffered_fsync is not None and buffered is not None:
        return (
            f"Sequential 256 KiB writes through the page cache reached {fmt.num(buffered)} MB/s without an "
            f"fsync and {fmt.num(buffered_fsync)} MB/s with one after each write{direct}."
        )
    if buffered_fsync is not None:
        return f"Sequential 256 KiB writes with an fsync each reached {fmt.num(buffered_fsync)} MB/s{direct}."
    if direct_fsync is not None:
        return (
            f"Sequential 256 KiB writes with an fsync each reached {fmt.num(direct_fsync)} MB/s with O_DIRECT and an "
            "fsync after each."
        )
    return "What 256 KiB writes with an fsync each reach could not be measured here."


def block_size_chart(metrics: pl.DataFrame) -> alt.TopLevelMixin:
    """MB/s and I/Os per second against block size; a chart that says why when nothing ran."""
    mb = block_size_curves(metrics, "mb_per_s")
    if mb.height == 0:
        return charts.unavailable(charts.reasons(metrics))
    # x in bytes, labelled as sizes ('4 MiB', not '4,096' KiB)
    return _stacked_curves(
        [(mb, "MB/s (log scale)"), (block_size_curves(metrics, "ops_per_s"), "I/Os per second (log scale)")],
        x="block_size",
        x_title="block size (log scale)",
        sizes=True,
    )


def _stacked_curves(
    curves: list[tuple[pl.DataFrame, str]], *, x: str, x_title: str, sizes: bool = False
) -> alt.VConcatChart:
    """The curves of one sweep (each a frame of medians by direction with its y title),
    one line chart each over the same `x`, stacked, each as wide as the column (no fixed
    width, no hconcat); with `sizes`, x is a size in bytes and every tick is labelled as
    one ('4 MiB', ``_every_x_label``)."""

    def one(frame: pl.DataFrame, y_title: str) -> alt.LayerChart:
        labels = charts.SIZE_LABEL if sizes else charts.TICK_LABEL
        chart = charts.lines(
            frame, x=x, y="median", color="direction", x_title=x_title, y_title=y_title, x_labels=labels
        )
        return _every_x_label(chart) if sizes else chart

    return alt.vconcat(*(one(frame, y_title) for frame, y_title in curves))


def _every_x_label(chart: alt.LayerChart) -> alt.LayerChart:
    """``charts.lines`` with every x tick labelled: its flush first and last labels and its
    greedy overlap test dropped the last size (4 MiB) of eleven ticks in the column's width,
    so the labels are centred on their ticks and none is hidden. (The shared chart could do
    this itself where its ticks are few enough to fit.)"""
    chart = chart.copy(deep=True)
    for layer in chart.layer:
        x = layer["encoding"]["x"]
        axis = x["axis"]
        x["axis"] = alt.Axis(values=axis["values"], labelExpr=axis["labelExpr"], labelFlush=False, labelOverlap=False)
    return chart


def queue_depth_chart(metrics: pl.DataFrame) -> alt.TopLevelMixin:
    """I/Os per second and p99 latency against queue depth; a chart that says why when nothing ran."""
    rate_curves = queue_depth_curves(metrics, "ops_per_s")
    if rate_curves.height == 0:
        return charts.unavailable(charts.reasons(metrics))
    return _stacked_curves(
        [
            (rate_curves, "I/Os per second (log scale)"),
            (queue_depth_curves(metrics, "p99"), "p99 latency (µs, log scale)"),
        ],
        x="queue_depth",
        x_title="requests in flight (log scale)",
    )


def fio_sentence(metrics: pl.DataFrame) -> str:
    """The cross-check's verdict per row (``claims.crosscheck`` over the per-round ratios
    ours / fio of MB/s), with an explanation only where the time per I/O agrees with it;
    each median ratio through ``median_factor``, as the table gives it. Then the rows whose
    mean time per I/O (the per-round ratios ours / fio) lies clearly off fio's where the
    rates agree or cannot tell (``_latency_words``)."""
    by = ["engine", "pattern", "op", "fsync", "direct", "block_size", "queue_depth"]
    if metrics.height == 0 or "tool" not in metrics.columns:
        return "The comparison with fio could not run here (no result)."
    labelled = metrics.with_columns(pl.concat_str(_row_label(with_size=False), _fio_size()).alias("method")).drop(by)
    from ..fsync.report import _ratio_estimates, crosscheck_sentence

    text = crosscheck_sentence(labelled, "mb_per_s", {}, per="I/O", median=median_factor)
    rates = _ratio_estimates(labelled, "mb_per_s")
    return text + _latency_words(rates, _ratio_estimates(labelled, "mean"))


def _latency_words(rates: dict[str, stats.Estimate], times: dict[str, stats.Estimate]) -> str:
    """' Per I/O the tools part where the rates do not: on X, our loop's mean time per I/O was
    0.84× fio's (0.8–0.88×) ...': the rows whose rate verdict (`rates`, ours / fio) agrees or
    is inconclusive while the mean time per I/O (`times`, ours / fio) is clearly off fio's
    (``claims.crosscheck`` ours higher or lower); '' where there are none."""
    off = []
    for method, r in rates.items():
        t = times.get(method)
        if t is None or claims.crosscheck(r).outcome not in ("agrees", "inconclusive"):
            continue
        if claims.crosscheck(t).outcome in ("ours higher", "ours lower"):
            verdict = "agrees with" if claims.crosscheck(r).outcome == "agrees" else "cannot be told apart from"
            off.append(f"on {method} it was {ratio_words(t)} of fio's, where the rate {verdict} fio's")
    if not off:
        return ""
    return (
        f" The mean time per I/O does not always follow the rate: {fmt.listed(off)}. This page does not measure "
        "why; the two tools may start and stop an I/O's clock at different points."
    )


#: The key of a quantity this chapter can measure in more than one run: one case of the loop.
SAME_KEY = ("engine", "pattern", "op", "fsync", "direct", "cache", "block_size", "queue_depth")
#: What a case is when a run's table does not carry the column (one at a time, sync engine).
SAME_DEFAULTS = {"engine": "sync", "pattern": "sequential", "fsync": False, "direct": True, "cache": "n/a",
                 "queue_depth": 1}  # fmt: skip


def quantity_words(key: dict) -> str:
    """'sync sequential read, 1 MiB, O_DIRECT' (', QD 32' past one in flight; 'page cache'
    for a read the cache answers): one case of the loop as the same-quantity table names
    it, in the words of the fio cross-check's rows."""
    op = key["op"] if key["op"] == "read" else ("write + fsync" if key["fsync"] else "write")
    mode = "O_DIRECT" if key["direct"] else "buffered"
    if not key["direct"] and key["op"] == "read" and key.get("cache") == "warm":
        mode = "page cache"
    depth = "" if int(key["queue_depth"]) == 1 else f", QD {fmt.exact(int(key['queue_depth']))}"
    return f"{key['engine']} {key['pattern']} {op}, {fmt.size(int(key['block_size']))}{depth}, {mode}"


def _case_runs(
    metrics: pl.DataFrame | None, run: str, fixed: dict | None = None
) -> list[tuple[tuple, str, list, int | None]]:
    """Per case of `metrics` (its MB/s rows; our loop's only, in a cross-check): the case's
    ``SAME_KEY`` (columns the table lacks from `fixed`, then ``SAME_DEFAULTS``), `run`, the
    MB/s of each repetition, and the file size the case ran on (None where the table does
    not record one, or its runs used more than one)."""
    if metrics is None or metrics.height == 0 or "metric" not in metrics.columns:
        return []
    rows = metrics.filter(pl.col("metric") == "mb_per_s")
    if "tool" in rows.columns:
        rows = rows.filter(pl.col("tool") == "howfast")
    fixed = fixed or {}
    present = [k for k in SAME_KEY if k in rows.columns and k not in fixed]
    out = []
    groups = rows.group_by(present, maintain_order=True) if present else [((), rows)]
    for values, part in groups:
        key = dict(SAME_DEFAULTS) | fixed | dict(zip(present, values if isinstance(values, tuple) else (values,)))
        if "op" not in key or "block_size" not in key:
            continue
        if key["direct"] or key["op"] != "read":
            key["cache"] = "n/a"
        runs = part["value"].drop_nulls().to_list()
        sizes = part["file_size"].drop_nulls().unique().to_list() if "file_size" in part.columns else []
        if runs:
            out.append((tuple(key[k] for k in SAME_KEY), run, runs, int(sizes[0]) if len(sizes) == 1 else None))
    return out


def same_quantity_runs(
    ram: pl.DataFrame,
    matrix: pl.DataFrame,
    page_cache: pl.DataFrame,
    sweep: pl.DataFrame,
    fio: pl.DataFrame,
    target: float | None = None,
    *,
    queue_depth: pl.DataFrame | None = None,
    large_block: int = 1 << 20,
) -> pl.DataFrame:
    """Each quantity this chapter measures in more than one run, found from the cases'
    parameters (engine, pattern, op, fsync, O_DIRECT, cache, block size, queue depth): per
    run, MB/s (median), the interval of that median (with the unstable mark past ±`target`)
    and the run count. `ram`'s disk cases are sync O_DIRECT sequential I/O of `large_block`
    bytes; the fio cross-check gives our loop's half only. ``file_size`` is the file each
    run's case used (None where its table does not say): the runs may differ in file size,
    and do differ in repetitions and moment."""
    ram_cases = []
    if ram is not None and ram.height and "medium" in ram.columns:
        for what in ("read", "write"):
            disk = ram.filter((pl.col("medium") == "disk") & (pl.col("what") == what))
            ram_cases += _case_runs(disk.drop("medium", "what"), "RAM vs disk",
                                    {"op": what, "block_size": large_block, "engine": "sync",
                                     "pattern": "sequential", "direct": True})  # fmt: skip
    found = [
        *ram_cases,
        *_case_runs(matrix, "engine matrix"),
        *_case_runs(page_cache, "page-cache table"),
        *_case_runs(sweep, "block-size sweep"),
        *_case_runs(queue_depth, "queue-depth sweep"),
        *_case_runs(fio, "fio cross-check, ours"),
    ]
    sources: dict[tuple, set[str]] = {}
    for key, run, _, _ in found:
        sources.setdefault(key, set()).add(run)
    order = [k for k in dict.fromkeys(key for key, _, _, _ in found) if len(sources[k]) > 1]
    rows = []
    for key in order:
        for k, run, values, file_size in found:
            if k != key:
                continue
            lo, hi, level = stats.median_interval(values)
            e = stats.Estimate(float(pl.Series(values).median()), lo, hi, len(values), level)
            rows.append(
                {
                    "quantity": quantity_words(dict(zip(SAME_KEY, key))),
                    "run": run,
                    "MB/s": e.median,
                    "interval": interval_cell(lo, hi, stats.stability(e, target)),
                    "runs": len(values),
                    "lo": lo,
                    "hi": hi,
                    "file_size": file_size,
                }
            )
    schema = {
        "quantity": pl.String,
        "run": pl.String,
        "MB/s": pl.Float64,
        "interval": pl.String,
        "runs": pl.Int64,
        "lo": pl.Float64,
        "hi": pl.Float64,
        "file_size": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema)


#: The same-quantity table's runs as a sentence names them, where 'the' + the run reads badly.
SAME_RUN_PROSE = {
    "RAM vs disk": "the RAM-against-disk runs",
    "fio cross-check, ours": "our half of the fio cross-check",
}


def disk_drift_words(facts: dict | None = None) -> str:
    """Where the runs' moments differ, what kind of disk they shared, from the facts
    (``machine.virtual`` or a virtual ``device_kind``): 'on a virtual disk, which other guests
    of the host may share' or '' when the facts show no virtual disk (or none were kept)."""
    if facts is None:
        return ""
    if machine.virtual(facts) or "virtual" in str(facts.get("device_kind", "")):
        return " on a virtual disk, which other guests of the host may share"
    return ""


def _apart_rows(part: pl.DataFrame) -> tuple[dict, dict] | None:
    """Of one quantity's runs, the two whose intervals lie furthest apart: the run whose
    interval starts highest and the one whose interval ends lowest, where the first starts
    above the second's end (their intervals do not overlap); None where every pair overlaps."""
    rows = [r for r in part.iter_rows(named=True) if r.get("lo") is not None and r.get("hi") is not None]
    if len(rows) < 2:
        return None
    high = max(rows, key=lambda r: r["lo"])
    low = min(rows, key=lambda r: r["hi"])
    return (low, high) if high["lo"] > low["hi"] else None


def _also_apart(table: pl.DataFrame, widest: str | None) -> str:
    """' Other quantities whose runs' intervals lie apart: X (1,370 MB/s in the RAM-against-disk runs against
    2,030 MB/s in the block-size sweep).': every quantity besides `widest` with two runs whose
    intervals do not overlap (``_apart_rows``); '' where there is none."""
    said = []
    for (quantity,), part in table.group_by(["quantity"], maintain_order=True):
        pair = _apart_rows(part)
        if quantity == widest or pair is None:
            continue
        low, high = pair
        said.append(
            f"{quantity} ({fmt.num(low['MB/s'])} MB/s in {SAME_RUN_PROSE.get(low['run'], 'the ' + low['run'])} "
            f"against {fmt.num(high['MB/s'])} MB/s in {SAME_RUN_PROSE.get(high['run'], 'the ' + high['run'])})"
        )
    if not said:
        return ""
    return f" Other quantities whose runs' intervals lie apart: {fmt.listed(said)}."


def fio_apart_sentence(table: pl.DataFrame) -> str:
    """' On io_uring sequential read, 256 KiB, O_DIRECT (2,290 MB/s in our half of the cross-check
    against 1,170 MB/s in our other runs), our half of the fio cross-check lies apart from every
    other run of ours of the same case …': the quantities of the same-quantity `table`
    (``same_quantity_runs``) whose cross-check row's interval lies wholly above or wholly below
    the interval of each of our other runs of that case; there our own loop moved between runs,
    so a verdict of faster or slower than fio on that row is not a finding about fio. Where
    there is none, a sentence saying that our half overlaps our other runs (or has none to
    set beside it)."""
    run = "fio cross-check, ours"
    said, compared = [], 0
    for (quantity,), part in table.group_by(["quantity"], maintain_order=True):
        ours = part.filter(pl.col("run") == run)
        others = part.filter((pl.col("run") != run) & pl.col("lo").is_not_null() & pl.col("hi").is_not_null())
        if ours.height != 1 or others.height == 0 or ours["lo"][0] is None or ours["hi"][0] is None:
            continue
        compared += 1
        row = ours.row(0, named=True)
        above = row["lo"] > float(others["hi"].max())
        below = row["hi"] < float(others["lo"].min())
        if not (above or below):
            continue
        low, high = float(others["MB/s"].min()), float(others["MB/s"].max())
        figure = fmt.num(low) if fmt.num(low) == fmt.num(high) else interval_cell(fmt.num(low), fmt.num(high))
        where = (
            f"in {SAME_RUN_PROSE.get(others['run'][0], 'the ' + others['run'][0])}"
            if others.height == 1
            else "in our other runs, at the median"
        )
        said.append(f"{quantity} ({fmt.num(row['MB/s'])} MB/s in the cross-check against {figure} MB/s {where})")
    if not said:
        return (
            "Our half of the fio cross-check overlaps at least one other run of ours of each case it shares."
            if compared
            else "Our half of the fio cross-check has no other run of ours of the same case to set beside it."
        )
    rows = "that row" if len(said) == 1 else "those rows"
    return (
        f" On {fmt.listed(said)}, our half of the fio cross-check lies apart from every other run of ours of the "
        f"same case, their intervals not overlapping. Our own loop's rate moved between runs there, so the verdict "
        f"on {rows} holds for those rounds only, and where it finds ours faster or slower than fio, that is not a "
        "finding about fio."
    )


def same_quantity_sentence(table: pl.DataFrame, facts: dict | None = None, busy: bool | None = None) -> str:
    """Why the runs of one quantity give different figures: the widest gap between two
    runs' medians, and from ``claims.compare`` on their intervals (the table's ``lo``,
    ``hi``, ``runs``) whether the runs disagree at all or only their medians differ; then
    every other quantity whose runs' intervals do not overlap (``_also_apart``). The
    disk is named as the machine's `facts` show it (``disk_drift_words``), and the machine
    as busy only where the noise checks found it so (`busy`: ``book.busy``)."""
    if table.height == 0:
        return ""
    text = _widest_gap_sentence(table, facts, busy)
    widest = None
    gap = 1.0
    for (quantity,), part in table.group_by(["quantity"], maintain_order=True):
        ratio = float(part["MB/s"].max()) / float(part["MB/s"].min())
        if ratio > gap:
            widest, gap = quantity, ratio
    also = _also_apart(table, widest)
    each = " Each figure in the text comes from the run of its own section."
    if also and each in text:
        head, _, tail = text.rpartition(each)
        return f"{head}{also}{each}{tail}"
    return text + also


def _widest_gap_sentence(table: pl.DataFrame, facts: dict | None, busy: bool | None) -> str:
    """``same_quantity_sentence``'s first part: the widest gap and what may explain it."""
    widest, gap = None, 1.0
    for (quantity,), part in table.group_by(["quantity"], maintain_order=True):
        ratio = float(part["MB/s"].max()) / float(part["MB/s"].min())
        if ratio > gap:
            widest, gap = (quantity, part), ratio
    text = (
        f"This chapter measures {fmt.count(table['quantity'].n_unique(), 'quantity', 'quantities')} in more than "
        "one run. "
    )
    why = (
        "The runs use the same loop but not the same file (each run reads or writes a file of its own size), "
        f"not as many repetitions, and not the same minute{disk_drift_words(facts)}: any of these may move a "
        "median. Each figure in the text comes from the run of its own section."
    )
    if widest is None:
        return text + "Their runs gave the same medians. " + why
    quantity, part = widest
    ordered = part.sort("MB/s")
    lo, hi = ordered.row(0, named=True), ordered.row(-1, named=True)

    def named(run: str) -> str:
        return SAME_RUN_PROSE.get(run, f"the {run}")

    def est(row: dict) -> stats.Estimate | None:
        if row.get("lo") is None or row.get("hi") is None:
            return None
        return stats.Estimate(row["MB/s"], row["lo"], row["hi"], int(row.get("runs") or 1))

    text += (
        f"The widest gap: {quantity}, {fmt.num(lo['MB/s'])} MB/s in {named(lo['run'])} against "
        f"{fmt.num(hi['MB/s'])} MB/s in {named(hi['run'])}"
    )
    c = claims.compare(est(hi), est(lo))
    size = lo.get("file_size")
    if size is not None and size == hi.get("file_size"):
        # the same case on files of the same size: nothing in the cases' parameters tells the two runs apart
        rest = (
            f"The two ran the same loop on files of the same size ({fmt.size(int(size))}); they differed in "
            f"repetitions and in the minute they ran{disk_drift_words(facts)}."
        )
        runs = {lo["run"], hi["run"]}
        if "engine matrix" in runs and not quantity.endswith("O_DIRECT"):
            rest += (
                " Writeback of the dirty pages that the engine matrix's buffered write cases left in the page cache "
                "may have slowed its run."
            )
        rest += " Each figure in the text comes from the run of its own section."
        if c.direction == claims.HIGHER:
            return (
                f"{text}, and their intervals do not overlap: the same case disagreed {fmt.factor(gap)}× between "
                f"the two runs, and this page cannot say why. {rest}"
            )
        why = rest
    if c.direction == claims.HIGHER:
        return f"{text}, and their intervals do not overlap: the two runs really differed. {why}"
    if c.direction == claims.MISSING:
        return f"{text}. {why}"
    where = " on a machine the noise checks found busy" if busy else ""
    return (
        f"{text}, but their intervals overlap, so even these two runs do not clearly disagree: with so few "
        f"repetitions{where}, their medians alone can differ by that much. {why}"
    )


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
