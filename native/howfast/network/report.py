"""Tables, chart data and sentences for the networks chapter, from its stored results.

Code compares stable ids (tools "howfast", "wrk"; experiments' case columns); what a
reader sees is mapped here, as the last step before a table or chart. Every sentence
that depends on the data is built here and tested on each of its branches.
"""

from __future__ import annotations

import polars as pl

from .. import fmt, reference, stats
from ..charts import THIS_MACHINE
from ..checks import checked
from ..crosscheck import side_by_side, span
from ..design import estimates

LATENCY_COLUMNS = ["p50", "p90", "p99", "p99.9", "max"]

#: The open loop's knee: the highest offered rate whose p99 stays within this factor of
#: the p99 at the lightest load, while the server keeps up (answers ≥ KEEP_UP of it).
KNEE_FACTOR = 5.0
KEEP_UP = 0.95
#: "What it means": the target, in requests per second.
TARGET_RATE = 1_000_000

IO_THREAD_NAMES = {1: "io-threads off", 2: "io-threads on"}


def _medians(metrics: pl.DataFrame, by: list[str], names: list[str]) -> pl.DataFrame:
    summary = stats.summarize(metrics, by)
    return summary.filter(pl.col("metric").is_in(names)).pivot(on="metric", index=by, values="median")


def bulk_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Gbit/s per stream count: median and the range over repetitions."""
    summary = stats.summarize(metrics, ["streams"]).filter(pl.col("metric") == "gbit_per_s")
    return summary.select(
        "streams",
        pl.col("median").alias("Gbit/s"),
        span("min", "max").alias("range"),
    ).sort("streams")


def ping_pong_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Round trips per second and their latency per connection count (medians)."""
    wide = _medians(metrics, ["connections"], ["round_trips_per_s", "p50", "p99", "p99.9"])
    return wide.select("connections", pl.col("round_trips_per_s").alias("round trips/s"), "p50", "p99", "p99.9").sort(
        "connections"
    )


def closed_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Our server under the closed loop, per connection count: medians."""
    wide = _medians(metrics, ["connections"], ["req_per_s", "mb_per_s", "errors", *LATENCY_COLUMNS])
    return wide.select(
        "connections",
        pl.col("req_per_s").alias("req/s"),
        pl.col("mb_per_s").alias("MB/s"),
        *LATENCY_COLUMNS,
        "errors",
    ).sort("connections")


def closed_curve(metrics: pl.DataFrame) -> pl.DataFrame:
    summary = stats.summarize(metrics, ["connections"]).filter(pl.col("metric") == "req_per_s")
    return summary.with_columns(series=pl.lit("requests per second")).sort("connections")


def open_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """Offered rate against what came back and its latency (medians)."""
    wide = _medians(metrics, ["share", "rate"], ["sent_per_s", "req_per_s", "errors", "p50", "p99", "p99.9", "max"])
    return wide.select(
        pl.col("rate").alias("offered req/s"),
        pl.col("share").alias("share of the closed loop's best"),
        pl.col("req_per_s").alias("answered req/s"),
        "p50",
        "p99",
        "p99.9",
        "max",
        "errors",
    ).sort("offered req/s")


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


def knee(metrics: pl.DataFrame) -> dict | None:
    """The highest offered rate at which p99 stayed within ``KNEE_FACTOR`` of the lightest
    load's p99 and the server answered at least ``KEEP_UP`` of the offered rate; None when
    no rate did (or nothing was measured)."""
    table = open_table(metrics) if metrics.height else pl.DataFrame()
    if table.height == 0 or "p99" not in table.columns:
        return None
    table = table.drop_nulls(["p99", "answered req/s"])
    if table.height == 0:
        return None
    base = float(table["p99"][0])
    best = None
    for row in table.iter_rows(named=True):
        fine = row["p99"] <= KNEE_FACTOR * base and row["answered req/s"] >= KEEP_UP * row["offered req/s"]
        if not fine:
            break
        best = row
    if best is None:
        return None
    return {"rate": float(best["offered req/s"]), "p99": float(best["p99"]), "base_p99": base}


def knee_sentence(point: dict | None, best_closed: float | None) -> str:
    if point is None:
        return (
            "Even the lightest offered load did not stay within the knee's bounds here, so this run "
            "shows no knee; read the curve instead."
        )
    text = (
        f"Up to about {fmt.num(point['rate'])} requests per second offered, the server kept up and its p99 "
        f"stayed at {fmt.duration_us(point['p99'])} or less (within {fmt.ratio(KNEE_FACTOR)} of the "
        f"{fmt.duration_us(point['base_p99'])} at the lightest load): that is the knee."
    )
    if best_closed:
        text += f" It sits at {fmt.share(point['rate'] / best_closed, 2)} of the closed loop's best rate."
    return text


def machines_for(rate: float | None, target: float = TARGET_RATE) -> int | None:
    """How many machines serving `rate` each reach `target` requests per second."""
    return estimates.machines_for(target, rate)


# ---- this machine beside the reference machines ---------------------------------------


def http_versus_reference(best: float | None) -> pl.DataFrame:
    """Our best hello-world req/s beside the laptop's and the phone's runs."""
    ref = reference.load("http").filter((pl.col("metric") == "req_per_s") & (pl.col("test") == "hello_world"))
    theirs = ref.select(
        label=pl.concat_str(
            pl.col("machine"),
            pl.lit(", "),
            pl.col("concurrency").cast(pl.String),
            pl.lit(" conns — seed "),
            pl.col("source").str.slice(0, 3),
        ),
        req_per_s=pl.col("value"),
        this_machine=pl.lit(False),
    )
    guess = reference.load("guesses").filter((pl.col("subject") == "http") & (pl.col("metric") == "req_per_s"))
    guessed = guess.select(
        label=pl.concat_str(pl.col("machine"), pl.lit(", guessed — seed "), pl.col("source").str.slice(0, 3)),
        req_per_s=pl.col("value"),
        this_machine=pl.lit(False),
    )
    ours = pl.DataFrame(
        {"label": [f"{THIS_MACHINE}: our server, best closed loop"], "req_per_s": [best], "this_machine": [True]},
        schema={"label": pl.String, "req_per_s": pl.Float64, "this_machine": pl.Boolean},
    ).drop_nulls("req_per_s")
    return pl.concat([ours, theirs, guessed])


def reference_value(subject: str, /, **where: object) -> float | None:
    frame = reference.load(subject)
    for k, v in where.items():
        frame = frame.filter(pl.col(k) == v)
    return float(frame["value"][0]) if frame.height else None


def seed_bytes_per_response() -> float | None:
    """Bytes per response the laptop's load generator read (seed 000: MB read / requests)."""
    read = reference_value("http", machine="laptop", metric="read_mb", test="hello_world")
    count = reference_value("http", machine="laptop", metric="requests", test="hello_world")
    return None if read is None or not count else read * 1e6 / count


def tcp_versus_reference(bulk_one: float | None, ping_best: float | None) -> pl.DataFrame:
    """Our 1-stream Gbit/s and best round trips/s beside seed 000's TCP figures."""
    gbit = reference_value("network", machine="laptop", benchmark="tcp", metric="bandwidth")
    ops = reference_value("network", machine="laptop", benchmark="tcp", metric="ops_per_s")
    return pl.DataFrame(
        {
            "figure": ["bulk, Gbit/s (1 stream)", "request/response, round trips/s"],
            "this machine": [bulk_one, ping_best],
            "laptop (seed 000)": [gbit, ops],
        },
        schema={"figure": pl.String, "this machine": pl.Float64, "laptop (seed 000)": pl.Float64},
    )


# ---- Redis ----------------------------------------------------------------------------


def suite_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """The redis-benchmark suite: this machine's median req/s and p50 beside the laptop's."""
    wide = _medians(metrics, ["test"], ["req_per_s", "p50", "p99"])
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
        .drop("needed")
        .unique("test", keep="first")
    )
    table = wide.join(laptop, on="test", how="left", maintain_order="left")
    return table.select(
        pl.col("test").str.to_uppercase().alias("test"),
        pl.col("req_per_s").alias("req/s"),
        pl.col("laptop").alias("laptop req/s (seed 000)"),
        (pl.col("req_per_s") / pl.col("laptop")).alias("this / laptop"),
        "p50",
        "p99",
    )


def redis_py_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """GETs on one connection per pipeline size: redis-py beside redis-benchmark (C)."""
    summary = stats.summarize(metrics, ["client", "pipeline"])
    ops = summary.filter(pl.col("metric") == "ops_per_s").pivot(on="client", index="pipeline", values="median")
    for col in ("redis-py", "redis-benchmark"):
        if col not in ops.columns:
            ops = ops.with_columns(pl.lit(None, dtype=pl.Float64).alias(col))
    return ops.select(
        "pipeline",
        pl.col("redis-py").alias("redis-py commands/s"),
        pl.col("redis-benchmark").alias("redis-benchmark commands/s"),
        (1e6 / pl.col("redis-py")).alias("redis-py µs/command"),
        (1e6 / pl.col("redis-benchmark")).alias("redis-benchmark µs/command"),
        (1e6 / pl.col("redis-py") - 1e6 / pl.col("redis-benchmark")).alias("Python's extra µs/command"),
    ).sort("pipeline")


def pack_cost(metrics: pl.DataFrame) -> float | None:
    """Median µs redis-py spends packing one command (no network)."""
    summary = stats.summarize(metrics.filter(pl.col("client") == "redis-py"), ["client"])
    return stats.pick(summary, "pack_us", client="redis-py")


def gap_sentence(table: pl.DataFrame, pack_us: float | None) -> str:
    """Why redis-py is slower than redis-benchmark on one connection, from the table."""
    rows = table.drop_nulls(["redis-py commands/s", "redis-benchmark commands/s"])
    if rows.height == 0:
        return "redis-py and redis-benchmark did not both run here, so their gap is not measured."
    single = rows.row(0, named=True)
    deep = rows.row(rows.height - 1, named=True)
    py_us, c_us = single["redis-py µs/command"], single["redis-benchmark µs/command"]
    text = (
        f"One GET at a time, redis-py managed {fmt.num(single['redis-py commands/s'])} commands per second and "
        f"redis-benchmark {fmt.num(single['redis-benchmark commands/s'])}: a redis-py call took "
        f"{fmt.compared(py_us, c_us, more='longer', less='less time', same='about as long as')} the C client's."
    )
    if py_us >= c_us * 1.1:
        text += f" The difference, {fmt.duration_us(py_us - c_us)} per call, is what the Python side adds."
    else:
        text += " One command at a time, the round trip itself dominates, and the client's own cost hides in it."
    if deep["pipeline"] != single["pipeline"]:
        text += (
            f" With pipelines of {fmt.num(deep['pipeline'])} the round trip is shared, and what is left is the "
            f"per-command work on each side: {fmt.duration_us(deep['redis-py µs/command'])} per command in "
            f"redis-py against {fmt.duration_us(deep['redis-benchmark µs/command'])} in redis-benchmark."
        )
    if pack_us is not None:
        text += (
            f" Packing one command into bytes alone takes redis-py {fmt.duration_us(pack_us)} of Python, "
            "before any parsing of the reply."
        )
    return text


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
    ).select("series", "clients", "median", "min", "max")


def scaling_reference() -> pl.DataFrame:
    """Seed 004's Redis GET/SET curves (16-vCPU VM) in the same shape."""
    ref = reference.load("kv_threads").filter(
        (pl.col("metric") == "ops_per_s") & (pl.col("server") == "redis") & pl.col("op").is_in(["GET", "SET"])
    )
    return ref.select(
        series=pl.concat_str(pl.lit("seed 004 VM: "), pl.col("op")),
        clients=pl.col("clients").cast(pl.Int64),
        median=pl.col("value"),
        min=pl.col("value"),
        max=pl.col("value"),
    ).sort("series", "clients")


def io_threads_sentence(metrics: pl.DataFrame) -> str:
    """What switching Redis io-threads on did at the most clients measured."""
    summary = stats.summarize(metrics, ["io_threads", "clients", "op"])
    if summary.filter(pl.col("metric") == "req_per_s").height == 0:
        return "The client-scaling runs did not run here."
    most = int(summary["clients"].max())
    off = stats.pick(summary, "req_per_s", io_threads=1, clients=most, op="GET")
    on = summary.filter((pl.col("io_threads") > 1) & (pl.col("clients") == most) & (pl.col("op") == "GET"))
    on_rate = stats.pick(on, "req_per_s") if on.height else None
    return (
        f"With {fmt.num(most)} clients, GET with io-threads on ran "
        f"{fmt.compared(on_rate, off, more='faster', less='slower', same='about as fast as')} with them off."
    )


# ---- cross-checks ---------------------------------------------------------------------


def crosscheck_table(metrics: pl.DataFrame, by: list[str], metric: str, unit: str, tool: str) -> pl.DataFrame:
    return side_by_side(metrics, by, metric, unit=unit, tool=tool, rounds=True)


def generator_cost(metrics: pl.DataFrame) -> dict[str, float | None]:
    """Median CPU µs per request each load generator used, by tool id."""
    summary = stats.summarize(metrics, ["tool"])
    out: dict[str, float | None] = {}
    for tool in ("howfast", "wrk"):
        rows = summary.filter((pl.col("tool") == tool) & (pl.col("metric") == "cpu_us_per_request"))
        out[tool] = float(rows["median"][0]) if rows.height else None
    return out


def generator_sentence(cost: dict[str, float | None], cpus: int | None, ratio: float | None) -> str:
    """The two load generators' own CPU per request, and whether it explains their gap
    (`ratio`: our rate / wrk's, median of the paired runs)."""
    ours, wrk = cost.get("howfast"), cost.get("wrk")
    if ours is None or wrk is None:
        return "The two generators' own CPU costs were not both measured here."
    text = (
        f"Each generator's own CPU per request, measured: ours {fmt.duration_us(ours)}, wrk "
        f"{fmt.duration_us(wrk)}; wrk spent "
        f"{fmt.compared(wrk, ours, more='more', less='less', same='about as much as')} ours."
    )
    small = cpus is not None and cpus <= 4
    heavier_is_slower = ratio is not None and (
        (wrk >= 1.1 * ours and ratio >= 1.1) or (ours >= 1.1 * wrk and ratio <= 1 / 1.1)
    )
    if small and heavier_is_slower:
        text += (
            f" On {fmt.num(cpus)} logical CPUs the generator and the server share the cores, so the heavier "
            "generator leaves the server less CPU, which goes some way to explain the gap."
        )
    elif ratio is not None and not 1 / 1.1 < ratio < 1.1:
        text += (
            " That does not explain the gap: the lighter generator was not the faster one. On a machine this busy, "
            "the ranges say more than the medians; run the chapter on an idle machine before trusting either."
        )
    return text


def load_sentence(details: dict) -> str:
    """What else was running: the 1-minute load average against the CPU count."""
    start, end, cpus = details.get("load_average_start"), details.get("load_average_end"), details.get("cpus")
    if start is None or end is None or not cpus:
        return "The machine's load while measuring was not recorded."
    busy = max(start, end) / cpus
    text = (
        f"The 1-minute load average was {fmt.num(start, 2)} when the measurements began and "
        f"{fmt.num(end, 2)} when they ended, on {fmt.num(cpus)} logical CPUs."
    )
    if busy > 1:
        text += (
            " More threads wanted to run than there were CPUs, so other programs competed with ours: a thread "
            "that waits for a CPU adds milliseconds to the requests it carries, and the tails below show it."
        )
    elif busy > 0.5:
        text += " Other programs used a good share of the CPUs; expect noisier tails than on an idle machine."
    else:
        text += " The machine was mostly idle apart from our own threads."
    return text


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
