"""Tables, chart data and sentences for the RocksDB section, from stored results and
seed 000's db_bench figures (data/reference/rocksdb.csv)."""

from __future__ import annotations

import altair as alt
import polars as pl

from .. import claims, fmt, reference, stats
from ..charts import HIGHLIGHT, PALETTE, THIS_MACHINE
from ..checks import checked
from .experiments import TESTS, WRITE_TESTS

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "db_bench_tests": "db_bench",
    "disk_write": "disk-write",
    "vs_db_bench": "db_bench cross-check",
}

SEED_MACHINE = "laptop, seed 000"
#: Columns of the comparison table, and the metric behind each.
COLUMNS = {
    "ops/s": "ops_per_s",
    "µs/op": "micros_per_op",
    "MiB/s": "mb_per_s",
    "p50 µs": "latency_p50",
    "p99 µs": "latency_p99",
    "p99.9 µs": "latency_p99_9",
}


def seed_figures() -> pl.DataFrame:
    """Seed 000's four db_bench runs, one row per (test, metric). The seed's threads are
    not printed; they follow from operations / entries for the read tests (16 each)."""
    ref = reference.load("rocksdb").filter(
        (pl.col("machine") == "laptop") & (pl.col("benchmark") == "rocksdb_db_bench")
    )
    ops = ref.filter(pl.col("metric") == "operations").select(
        "test", threads=(pl.col("value") / pl.col("entries")).round(0).cast(pl.Int64)
    )
    return ref.select("test", "entries", "compressed_value_size", "metric", "value", "unit").join(
        ops, on="test", how="left"
    )


def _ours_wide(metrics: pl.DataFrame) -> pl.DataFrame:
    """Median over repetitions of each table metric, one row per test."""
    summary = stats.summarize(metrics, ["test", "entries", "threads"])
    wanted = summary.filter(pl.col("metric").is_in([*COLUMNS.values(), "keys_found", "operations"]))
    if wanted.height == 0:
        return pl.DataFrame()
    return wanted.pivot(on="metric", index=["test", "entries", "threads"], values="median")


def comparison_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Two rows per test, this machine (medians) and the seed's laptop: keys in the
    database, threads, db_bench's summary figures and percentiles, and the share of
    reads that found their key. Unsupported rows say why."""
    ours = _ours_wide(metrics)
    rows = []
    if ours.height:
        found = (pl.col("keys_found") / pl.col("operations")) if "keys_found" in ours.columns else pl.lit(None)
        rows.append(
            ours.select(
                "test",
                machine=pl.lit(THIS_MACHINE),
                keys=pl.col("entries").cast(pl.Int64),
                threads=pl.col("threads").cast(pl.Int64),
                **{k: pl.col(v) for k, v in COLUMNS.items()},
                found=found.cast(pl.Float64),
            )
        )
    seed = seed_figures()
    wide = seed.pivot(on="metric", index=["test", "entries", "threads"], values="value")
    rows.append(
        wide.select(
            "test",
            machine=pl.lit(SEED_MACHINE),
            keys=pl.col("entries").cast(pl.Int64),
            threads=pl.col("threads").fill_null(1).cast(pl.Int64),
            **{k: pl.col(v) for k, v in COLUMNS.items()},
            # db_bench prints each reader's found count out of its own reads
            found=(pl.col("keys_found") / pl.col("entries")).cast(pl.Float64),
        )
    )
    order = pl.DataFrame({"test": list(TESTS), "order": range(len(TESTS))})
    table = pl.concat(rows, how="diagonal").join(order, on="test", how="left")
    table = table.sort(["order", "machine"], descending=[False, True]).drop("order")
    table = table.with_columns(found=pl.when(pl.col("test").str.starts_with("read")).then(pl.col("found")))
    missing = stats.unsupported(metrics, ["test"])
    if missing.height:
        table = pl.concat(
            [table, missing.with_columns(machine=pl.lit(THIS_MACHINE)).rename({"note": "unsupported"})], how="diagonal"
        )
    return table


def versus_frame(metrics: pl.DataFrame, metric: str = "ops_per_s") -> pl.DataFrame:
    """For a grouped bar chart: each test's median, min and max on this machine, and the
    seed's single figure (min = max = median)."""
    summary = stats.summarize(metrics, ["test"]).filter(pl.col("metric") == metric)
    ours = summary.select("test", group=pl.lit(THIS_MACHINE), median="median", min="min", max="max")
    seed = (
        seed_figures()
        .filter(pl.col("metric") == metric)
        .select("test", group=pl.lit(SEED_MACHINE), median="value", min="value", max="value")
    )
    return pl.concat([ours, seed])


def crosscheck_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Ours beside db_bench on the same sequence: median ops/s, and their ratio. When
    db_bench could not run, its column is empty and ``note`` says why."""
    summary = stats.summarize(metrics, ["test", "threads", "tool"]).filter(pl.col("metric") == "ops_per_s")
    tests = metrics.select("test", "threads").unique(maintain_order=True)
    wide = tests
    for tool in ("howfast", "db_bench"):
        part = summary.filter(pl.col("tool") == tool).select("test", pl.col("median").alias(f"{tool} ops/s"))
        wide = wide.join(part, on="test", how="left")
    wide = wide.with_columns((pl.col("howfast ops/s") / pl.col("db_bench ops/s")).alias("howfast / db_bench"))
    missing = stats.unsupported(metrics, ["test", "tool"])
    if missing.height:
        notes = missing.group_by("test", maintain_order=True).agg(
            note=pl.concat_str(pl.col("tool"), pl.lit(": "), pl.col("note")).unique().str.join("; ")
        )
        wide = wide.join(notes, on="test", how="left")
    return wide


def write_rates(metrics: pl.DataFrame, disk_metrics: pl.DataFrame) -> pl.DataFrame:
    """Per write test (and the writer of readwhilewriting): user data accepted per second,
    bytes RocksDB handed to the kernel per second (WAL, flushes, compactions), the write
    amplification, the disk's own sequential bandwidth, and the user rate that bandwidth
    could sustain at that amplification."""
    summary = stats.summarize(metrics, ["test"])
    wanted = summary.filter(
        pl.col("metric").is_in(["user_write_mb_per_s", "file_write_mb_per_s", "write_amplification"])
    )
    if wanted.height == 0:
        return pl.DataFrame(schema={"test": pl.String})
    wide = wanted.pivot(on="metric", index="test", values="median").filter(
        pl.col("test").is_in([*WRITE_TESTS, "readwhilewriting"])
    )
    bandwidth = disk_bandwidth(disk_metrics)
    return wide.select(
        "test",
        user_mb_per_s="user_write_mb_per_s",
        file_mb_per_s="file_write_mb_per_s",
        write_amplification="write_amplification",
        disk_mb_per_s=pl.lit(bandwidth, dtype=pl.Float64),
        sustainable_user_mb_per_s=pl.lit(bandwidth, dtype=pl.Float64) / pl.col("write_amplification"),
    )


def disk_bandwidth(disk_metrics: pl.DataFrame) -> float | None:
    """Median sequential write bandwidth of the disk (MB/s), or None if not measured."""
    rows = disk_metrics.filter(pl.col("metric") == "mb_per_s") if "metric" in disk_metrics.columns else disk_metrics
    return float(rows["value"].median()) if rows.height else None


def unsupported_reason(metrics: pl.DataFrame) -> str | None:
    """Why this machine measured nothing, if it did not."""
    missing = stats.unsupported(metrics, ["test"])
    if missing.height and metrics.filter(pl.col("metric") == "ops_per_s").height == 0:
        return str(missing["note"][0])
    return None


def ratio_to_seed(metrics: pl.DataFrame, test: str, metric: str = "ops_per_s") -> float | None:
    """This machine's median over the seed laptop's figure, or None."""
    frame = versus_frame(metrics, metric).filter(pl.col("test") == test)
    ours = frame.filter(pl.col("group") == THIS_MACHINE)["median"]
    seed = frame.filter(pl.col("group") == SEED_MACHINE)["median"]
    if ours.len() != 1 or seed.len() != 1:
        return None
    return float(ours[0] / seed[0])


def versus_laptop(ratio: float) -> str:
    """'1.2× the laptop's rate', '0.8× the laptop's rate', or below half 'the laptop's rate ÷ 19'."""
    if ratio <= 0:
        raise ValueError(f"ratio must be positive, got {ratio}")
    return f"{fmt.ratio(ratio)} the laptop's rate" if ratio >= 0.5 else f"the laptop's rate ÷ {fmt.num(1 / ratio, 2)}"


def headline(metrics: pl.DataFrame, compression: str | None = None) -> str:
    """Each test's ops/s here, then ``seed_comparison``: a ratio to seed 000's laptop only
    for a test run like the seed's, 'not comparable' otherwise."""
    reason = unsupported_reason(metrics)
    if reason:
        return f"RocksDB could not be measured on this machine: {reason}."
    summary = stats.summarize(metrics, ["test"])
    parts = []
    for test in TESTS:
        rows = summary.filter((pl.col("test") == test) & (pl.col("metric") == "ops_per_s"))
        if rows.height != 1:
            continue
        parts.append(f"{test} {fmt.num(float(rows['median'][0]))} ops/s")
    return "This machine ran " + ", ".join(parts) + ". " + seed_comparison(metrics, compression)


def _setup(metrics: pl.DataFrame, test: str) -> tuple[int | None, int | None]:
    """(keys in the database, threads) of one test as run here."""
    rows = metrics.filter(pl.col("test") == test)
    if rows.height == 0:
        return None, None
    return int(rows["entries"][0]), int(rows["threads"][0])


def seed_comparison(metrics: pl.DataFrame, compression: str | None = None) -> str:
    """This machine against seed 000's laptop, like with like: a test is compared (by
    ``claims.compare``) only where it ran on as many keys, with as many threads and the
    same compression as the seed's; otherwise the sentence says 'not comparable' and
    names what differs besides the machine. The tool differs always (db_bench there, our
    loop through the library here), which the cross-check measures."""
    seed = seed_figures()
    seed_compression = str(seed_compression_name()).lower()
    same_compression = compression is not None and compression.lower() == seed_compression
    compared, differs = [], []
    for test in TESTS:
        entries, threads = _setup(metrics, test)
        rows = seed.filter(pl.col("test") == test)
        if entries is None or rows.height == 0:
            continue
        seed_entries, seed_threads = int(rows["entries"][0]), rows["threads"][0]
        seed_threads = 1 if seed_threads is None or test in WRITE_TESTS else int(seed_threads)
        why = []
        if entries != seed_entries:
            why.append(f"{fmt.num(entries)} keys here against {fmt.num(seed_entries)}")
        if test not in WRITE_TESTS and threads != seed_threads:
            why.append(f"{fmt.count(threads, 'thread')} against {fmt.exact(seed_threads)}")
        if why or not same_compression:
            differs.append(f"{test}: {', '.join(why) or 'the compression'}")
            continue
        ours = stats.estimate(stats.summarize(metrics.filter(pl.col("test") == test), ["test"]), "ops_per_s", test=test)
        theirs = rows.filter(pl.col("metric") == "ops_per_s")["value"]
        if ours is None or theirs.len() != 1:
            continue
        c = claims.compare(ours, stats.Estimate.exact(float(theirs[0])))
        words = claims.versus(c, f"the laptop's {fmt.num(float(theirs[0]))} ops/s", **claims.RATE_WORDS)
        compared.append(f"{test} was {words}")
    text = ""
    if compared:
        text += "Run like the seed's, " + "; ".join(compared) + ". "
    if differs:
        text += (
            "Against seed 000's laptop these figures are not comparable, and this page gives no ratio. Besides "
            f"the machine, the tests differ in size or threads ({'; '.join(differs)})"
        )
        if compression is not None and not same_compression:
            text += f", in compression ({seed_compression} on the laptop, {compression} here)"
        text += ", and in the tool (db_bench there, our loop through the same library here)."
    return text.strip()


def seed_compression_name() -> str:
    """The compression seed 000's db_bench used ('Snappy')."""
    ref = reference.load("rocksdb").filter(pl.col("benchmark") == "rocksdb_db_bench")["compression"].drop_nulls()
    return str(ref[0]) if ref.len() else "unknown"


def crosscheck_sentence(metrics: pl.DataFrame) -> str:
    table = crosscheck_table(metrics)
    ratios = table["howfast / db_bench"].drop_nulls()
    if ratios.len() == 0:
        notes = table["note"].drop_nulls() if "note" in table.columns else pl.Series([], dtype=pl.String)
        note = notes[0] if notes.len() else "no result"
        return f"There is no cross-check on this machine ({note})."
    return (
        f"Test by test, our loop ran at {fmt.ratio(float(ratios.min()))} to {fmt.ratio(float(ratios.max()))} "
        "of db_bench's rate."
    )


def disk_estimate(disk_metrics: pl.DataFrame) -> stats.Estimate | None:
    """The disk's sequential write bandwidth (MB/s) in this subject's own runs: the median
    with the interval of the median and the run count; None if not measured."""
    if "metric" not in disk_metrics.columns:
        return None
    values = [float(v) for v in disk_metrics.filter(pl.col("metric") == "mb_per_s")["value"].drop_nulls().to_list()]
    if not values:
        return None
    lo, hi, level = stats.median_interval(values)
    return stats.Estimate(float(pl.Series(values).median()), lo, hi, len(values), level)


def disk_direct(disk_metrics: pl.DataFrame) -> bool:
    """Whether every run of the disk probe wrote with O_DIRECT: False where any run recorded
    ``direct_io`` below 1 (it fell back to buffered writes with an fdatasync after each
    block); True otherwise, as for runs stored before the probe recorded it."""
    if not isinstance(disk_metrics, pl.DataFrame):
        raise TypeError(f"disk_metrics must be a polars DataFrame, got {type(disk_metrics).__name__}")
    if disk_metrics.height == 0 or not {"metric", "value"} <= set(disk_metrics.columns):
        return True
    direct = disk_metrics.filter(pl.col("metric") == "direct_io")["value"].drop_nulls()
    return not (direct.len() and float(direct.min()) < 1)


def _disk_kind(disk_metrics: pl.DataFrame) -> str:
    """How the disk probe wrote: with O_DIRECT, or buffered with an fdatasync after each block."""
    if not disk_direct(disk_metrics):
        return "sequential 1 MiB buffered writes with an fdatasync after each, for want of O_DIRECT"
    return "sequential 1 MiB O_DIRECT writes"


def write_sentence(metrics: pl.DataFrame, disk_metrics: pl.DataFrame) -> str:
    """What the write tests asked of the disk, against what one stream of 1 MiB writes
    reached on it (not the most the disk can take): the disk's
    figure with its interval and runs (this subject's own runs), and the share of it that
    fillseq's file traffic used, read at both ends of the disk's interval: the disk unlikely
    to hold the writer back when even the interval's low end leaves the traffic below half
    (the CPU's work a possibility, unmeasured), the disk a possibility when even its high end
    puts it at half or more, undecided between."""
    reason = unsupported_reason(metrics)
    if reason:
        return f"The write tests did not run here ({reason}), so there is nothing to set against the disk."
    rates = write_rates(metrics, disk_metrics)
    fill = rates.filter(pl.col("test") == "fillseq")
    over = rates.filter(pl.col("test") == "overwrite")
    if fill.height != 1 or over.height != 1 or "file_mb_per_s" not in fill.columns:
        return "The bytes RocksDB wrote to its files could not be counted here (no /proc/self/io)."
    f, o = fill.row(0, named=True), over.row(0, named=True)
    text = (
        f"While fillseq accepted {fmt.num(f['user_mb_per_s'])} MB/s of keys and values, RocksDB handed "
        f"{fmt.num(f['file_mb_per_s'])} MB/s to the kernel ({fmt.ratio(f['write_amplification'])} the user data: "
        f"the write-ahead log, the flushed memtables and any compaction); overwrite wrote "
        f"{fmt.ratio(o['write_amplification'])} its user data (medians over the runs)."
    )
    disk = disk_estimate(disk_metrics)
    if disk is None or disk.lo <= 0:
        return text + " The disk's own bandwidth was not measured here, so there is nothing to set it against."
    traffic = f["file_mb_per_s"]
    most, least = traffic / disk.lo, traffic / disk.hi
    low, high = fmt.num(100 * least, 2), fmt.num(100 * most, 2)
    shares = low if low == high else f"{low}–{high}"
    spread = f"{fmt.span(disk.lo, disk.hi)}, " if disk.lo != disk.hi else ""
    text += (
        f" In this subject's own runs the disk took {fmt.num(disk.median)} MB/s of {_disk_kind(disk_metrics)} "
        f"({spread}{fmt.count(disk.runs, 'run')})"
    )
    text += f", so the file traffic of fillseq is {shares} % of what that one stream of 1 MiB writes reached: "
    if most < 0.5:
        return text + (
            "the disk is unlikely to be what holds the writer back. The work each write costs the CPU (a system "
            "call to append to the log, a skip-list insert) may be, but this run does not measure where the CPU "
            "time goes."
        )
    if least >= 0.5:
        return text + (
            "the disk may be what holds the writer back, though this run does not measure where the writer's time goes."
        )
    return text + "whether the disk or the CPU holds the writer back, the disk's interval cannot say."


PERCENTILE_LABELS = {
    "latency_p50": "p50",
    "latency_p75": "p75",
    "latency_p99": "p99",
    "latency_p99_9": "p99.9",
    "latency_p99_99": "p99.99",
}


def percentile_frame(metrics: pl.DataFrame) -> pl.DataFrame:
    """db_bench's latency percentiles per test (µs): this machine's medians over
    repetitions and the seed laptop's histogram figures."""
    names = list(PERCENTILE_LABELS)
    ours = (
        stats.summarize(metrics, ["test"])
        .filter(pl.col("metric").is_in(names))
        .select("test", "metric", machine=pl.lit(THIS_MACHINE), latency_us="median")
    )
    seed = (
        seed_figures()
        .filter(pl.col("metric").is_in(names))
        .select("test", "metric", machine=pl.lit(SEED_MACHINE), latency_us="value")
    )
    frame = pl.concat([ours, seed])
    return frame.with_columns(percentile=pl.col("metric").replace_strict(PERCENTILE_LABELS)).drop("metric")


def percentile_chart(frame: pl.DataFrame, title: str = "") -> alt.FacetChart:
    """One small panel per test: latency at each percentile, one line per machine (log scale)."""
    order = list(PERCENTILE_LABELS.values())
    base = (
        alt.Chart(frame, title=title)
        .mark_line(point=True)
        .encode(
            x=alt.X("percentile:O", sort=order, title="percentile", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("latency_us:Q", scale=alt.Scale(type="log"), title="latency (µs, log scale)"),
            color=alt.Color(
                "machine:N",
                title=None,
                sort=[THIS_MACHINE, SEED_MACHINE],
                scale=alt.Scale(range=[HIGHLIGHT, PALETTE[0]]),
            ),
            tooltip=[
                alt.Tooltip("test:N"),
                alt.Tooltip("machine:N"),
                alt.Tooltip("percentile:O"),
                alt.Tooltip("latency_us:Q", format=",.3~g", title="µs"),
            ],
        )
        .properties(width=240, height=160)
    )
    return base.facet(facet=alt.Facet("test:N", sort=list(TESTS), title=None), columns=2)


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
