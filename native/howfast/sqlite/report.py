"""Tables, figures and chart data for the SQLite section, from stored results.

Everything here reads what ``experiments.measure`` stored and the seeds' figures in
``data/reference/sqlite.csv``; nothing measures. Code compares client ids; a reader
sees ``CLIENT_NAMES``.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from .. import claims, fmt, reference, stats, tables
from ..checks import checked
from .experiments import (
    ALL_CLIENTS,
    C_API,
    C_API_REPREPARE,
    PYTHON,
    PYTHON_EXECUTEMANY,
)

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "inserts": "SQLite insert",
    "fsync_baseline": "plain fsync baseline",
    "cli_check": "sqlite3 shell cross-check",
    "client_cost": "client-cost",
    "rows_land": "rows-reach-the-file",
}

SECONDS_PER_DAY = 86_400
#: How the section names a configuration.
SYNC_LABELS = {"normal": "NORMAL", "off": "OFF", "full": "FULL"}
SEED_MACHINES = {"laptop": "laptop (seeds)", "phone": "phone (seed 001)"}
#: This machine's clients in the charts (named so that they sort, and colour, first).
OURS = {C_API: "C API (here)", PYTHON: "Python (here)"}
#: The words for each client id.
CLIENT_NAMES = {
    C_API: "C API",
    PYTHON: "Python sqlite3",
    PYTHON_EXECUTEMANY: "Python sqlite3, executemany",
    C_API_REPREPARE: "C API, INSERT prepared per transaction",
}


def client_name(client: str) -> str:
    return CLIENT_NAMES.get(client, client)


def config_label(synchronous: str, batch_size: int) -> str:
    rows = "1 row" if batch_size == 1 else f"{batch_size:,} rows"
    return f"synchronous {SYNC_LABELS.get(synchronous, synchronous)}, {rows} per transaction"


def seed_rates() -> pl.DataFrame:
    """The seeds' sqlite-bench rates (rows/s) as printed by the tool: machine,
    synchronous, batch_size, rows_per_s."""
    ref = reference.load("sqlite")
    return ref.filter(
        (pl.col("metric") == "rows_per_s") & (pl.col("figure_type") == "measured") & (pl.col("row_size") == 1000)
    ).select("machine", "synchronous", "batch_size", pl.col("value").alias("rows_per_s"), "source")


def seed_figure(metric: str, **where: object) -> float:
    """One of seed 003's derived figures (us_per_row, rows_4kb_per_day, ...)."""
    ref = reference.load("sqlite").filter(pl.col("metric") == metric)
    for key, value in where.items():
        ref = ref.filter(pl.col(key).is_null() if value is None else pl.col(key) == value)
    if ref.height != 1:
        raise KeyError(f"expected one reference row for {metric} {where}, found {ref.height}")
    return float(ref["value"][0])


def _rates(metrics: pl.DataFrame, row_size: int = 1000) -> pl.DataFrame:
    summary = stats.summarize(metrics.filter(pl.col("row_size") == row_size), ["client", "synchronous", "batch_size"])
    return summary.filter(pl.col("metric") == "rows_per_s")


def rate(metrics: pl.DataFrame, client: str, synchronous: str, batch_size: int, row_size: int = 1000) -> float:
    """Median rows/s of one configuration."""
    return stats.pick(
        _rates(metrics, row_size), "rows_per_s", client=client, synchronous=synchronous, batch_size=batch_size
    )


def per_row_us(metrics: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """CPU time per row: the inserting thread's user + system time over the loop,
    divided by the rows, median over repetitions (columns `by` + ``us_per_row``). Time
    another process holds the CPU does not count, so on a shared machine this is the
    steady way to compare what the clients themselves cost."""
    cpu = metrics.filter(pl.col("metric") == "cpu_us_per_row")
    return cpu.group_by(by, maintain_order=True).agg(pl.col("value").median().alias("us_per_row"))


def _range(low: pl.Expr, high: pl.Expr) -> pl.Expr:
    """'slowest–fastest' with three significant figures, as the prose prints numbers."""
    return pl.concat_str(
        low.map_elements(fmt.num, return_dtype=pl.String),
        pl.lit("–"),
        high.map_elements(fmt.num, return_dtype=pl.String),
    )


def seed_cell(x: float | None) -> str:
    """A laptop or phone cell of the rates table: the seed's rows/s, or why there is none
    (the seeds ran neither FULL nor, on the phone, OFF)."""
    return "not run" if x is None else fmt.num(x)


def seed_cells(table: pl.DataFrame) -> pl.DataFrame:
    """The rates table with its laptop and phone columns as text (``seed_cell``), so a
    configuration the seeds did not run says so instead of 'n/a'."""
    return table.with_columns(
        pl.col(c).map_elements(seed_cell, return_dtype=pl.String, skip_nulls=False)
        for c in ("laptop rows/s", "phone rows/s")
        if c in table.columns
    )


#: The rates table's seed columns, shown in a table of their own so that neither is too wide.
SEED_COLUMNS = ["laptop rows/s", "phone rows/s"]
#: What the two rates tables share, to tell their rows apart.
RATE_KEYS = ["synchronous", "rows per transaction"]


def split_rates(table: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``seed_cells``' table as two: this machine's columns, then the seeds' printed figures
    for the configurations they ran (a row the seeds ran on neither machine is left out)."""
    seeds = [c for c in SEED_COLUMNS if c in table.columns]
    ours = table.drop(seeds)
    theirs = table.select(*RATE_KEYS, *seeds)
    if seeds:
        theirs = theirs.filter(~pl.all_horizontal(pl.col(c) == seed_cell(None) for c in seeds))
    return ours, theirs


def _same_runs(summary: pl.DataFrame, clients: tuple[str, ...], by: list[str]) -> bool:
    """Whether, in every case of `by`, all of `clients` ran the same number of times (then
    a table gives one run count per row, else one per figure)."""
    counts = (
        summary.filter(pl.col("client").is_in(list(clients)))
        .group_by(by)
        .agg(pl.col("repetitions").n_unique().alias("n"), pl.len().alias("clients"))
    )
    return bool(counts.height) and bool(((counts["n"] == 1) & (counts["clients"] == len(clients))).all())


def _ratio_cell(a: stats.Estimate | None, b: stats.Estimate | None) -> str | None:
    """a / b by the medians with the range it can take within the two intervals
    ('1.2× (0.99–1.6×)', ``claims.ratio_interval``); None where either did not run."""
    c = claims.compare(a, b)
    if c.ratio is None:
        return None
    ends = claims.ratio_interval(c, median=False)
    head = f"{fmt.num(c.ratio, 2)}×"  # no verdict reads the median ratio; its ends keep their side of 1
    return head if "–" not in ends else f"{head} ({ends})"


def rate_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """One row per configuration (1000-byte rows): this machine's rows/s through the C
    API and through Python's sqlite3, each the median with the interval of that median
    ('25,700 (24,300–30,900)', the unstable mark past ±`target`), the run count (one
    column when both clients ran as often, else in each cell), the ratio of the two
    medians with the range it can take within the two intervals, and the seeds' laptop
    and phone (printed figures). Unsupported clients say why. (The client's cost per row
    is measured in memory: ``client_cost_table``.)"""
    summary = _rates(metrics)
    configs = metrics.filter(pl.col("row_size") == 1000).select("synchronous", "batch_size").unique(maintain_order=True)
    one_count = _same_runs(summary, (C_API, PYTHON), ["synchronous", "batch_size"])
    rows = []
    for sync, batch in configs.iter_rows():
        c = estimate(metrics, C_API, sync, batch)
        py = estimate(metrics, PYTHON, sync, batch)
        rows.append(
            {
                "synchronous": sync,
                "batch_size": batch,
                "C API rows/s": tables.figure(c, target, fmt.num, runs=not one_count),
                "Python rows/s": tables.figure(py, target, fmt.num, runs=not one_count),
                "runs": None if c is None else c.runs,
                "C API / Python": _ratio_cell(c, py),
            }
        )
    schema = {"synchronous": pl.String, "batch_size": pl.Int64, "C API rows/s": pl.String,
              "Python rows/s": pl.String, "runs": pl.Int64, "C API / Python": pl.String}  # fmt: skip
    table = pl.DataFrame(rows, schema=schema).with_columns(pl.col("batch_size").cast(configs.schema["batch_size"]))
    seeds = seed_rates()
    for machine, name in (("laptop", "laptop rows/s"), ("phone", "phone rows/s")):
        part = seeds.filter(pl.col("machine") == machine).select(
            "synchronous", pl.col("batch_size").cast(configs.schema["batch_size"]), pl.col("rows_per_s").alias(name)
        )
        table = table.join(part, on=["synchronous", "batch_size"], how="left", maintain_order="left")
    table = table.with_columns(
        pl.col("synchronous").replace_strict(SYNC_LABELS, default=pl.col("synchronous")).alias("synchronous"),
        pl.col("batch_size").alias("rows per transaction"),
    ).drop("batch_size")
    columns = [
        "synchronous",
        "rows per transaction",
        "C API rows/s",
        "Python rows/s",
        *(["runs"] if one_count else []),
        "C API / Python",
        "laptop rows/s",
        "phone rows/s",
    ]
    missing = stats.unsupported(metrics, ["client"])
    if missing.height:
        notes = "; ".join(f"{client_name(r['client'])}: {r['note']}" for r in missing.iter_rows(named=True))
        table = table.with_columns(pl.lit(notes).alias("unsupported"))
        columns.append("unsupported")
    return table.select(columns)


def versus_bars(metrics: pl.DataFrame) -> pl.DataFrame:
    """Chart data: rows/s per configuration for this machine's two clients (median, the
    interval of the median ``lo``–``hi``, runs) and the seeds' single printed runs
    (lo = hi = the run, no run count)."""
    summary = _rates(metrics)
    ours = summary.select(
        pl.struct("synchronous", "batch_size")
        .map_elements(lambda s: config_label(s["synchronous"], s["batch_size"]), return_dtype=pl.String)
        .alias("configuration"),
        pl.col("client").replace_strict(OURS, default=pl.col("client")).alias("who"),
        "median",
        "lo",
        "hi",
        pl.col("repetitions").cast(pl.Int64),
    )
    seeds = seed_rates().select(
        pl.struct("synchronous", "batch_size")
        .map_elements(lambda s: config_label(s["synchronous"], s["batch_size"]), return_dtype=pl.String)
        .alias("configuration"),
        pl.col("machine").replace_strict(SEED_MACHINES).alias("who"),
        pl.col("rows_per_s").alias("median"),
        pl.col("rows_per_s").alias("lo"),
        pl.col("rows_per_s").alias("hi"),
        pl.lit(None, dtype=pl.Int64).alias("repetitions"),
    )
    return pl.concat([ours, seeds])


def configuration_order(metrics: pl.DataFrame) -> list[str]:
    configs = metrics.filter(pl.col("row_size") == 1000).select("synchronous", "batch_size").unique(maintain_order=True)
    return [config_label(s, b) for s, b in configs.iter_rows()]


def _factor_cell(a: stats.Estimate | None, b: stats.Estimate | None) -> str | None:
    """a / b with the range it can take within the two intervals, every figure through
    ``fmt.factor`` (``claims.ratio_interval``), as ``plain_fsync_sentence`` gives it: '140×
    (120–160×)'; None where either did not run."""
    c = claims.compare(a, b)
    return None if c.ratio is None else claims.ratio_interval(c)


def batched_4k(metrics: pl.DataFrame) -> stats.Estimate | None:
    """Rows of 4 KiB inserted per second, NORMAL, 1,000 per transaction, C API, with its interval."""
    return estimate(metrics, C_API, "normal", 1000, row_size=4096)


def plain_fsync_sentence(batched: stats.Estimate | None, plain: stats.Estimate | None) -> str:
    """Batched 4 KiB rows (`batched`: rows/s, NORMAL, 1,000 per transaction, C API) against
    the baseline's plain write + fsync per 4 KiB row (`plain`: pairs per second), from
    ``claims.compare`` and in ``claims.versus``' words with the range of the ratio, the
    figure the derived table gives: 'win' only where the batched rows were clearly faster."""
    c = claims.compare(batched, plain)
    if c.direction == claims.MISSING:
        return "How batched rows compare with a plain write and fsync per row could not be measured here."
    words = claims.versus(c, "a plain write and fsync per row", more="faster", less="slower", same=SAME_SPEED,
                          span=True)  # fmt: skip
    if c.direction == claims.HIGHER:
        return f"So batching and WAL win here: 4 KiB rows went in {words}."
    return f"So batching and WAL did not win here: 4 KiB rows went in {words}."


def _maybe(f: Callable[..., float], *args: object, **kwargs: object) -> float | None:
    """``f(*args, **kwargs)``, or None when the case was not measured (unsupported here)."""
    try:
        return f(*args, **kwargs)
    except KeyError:
        return None


def _div(a: float | None, b: float | None, scale: float = 1.0) -> float | None:
    return None if a is None or b is None or b == 0 else scale * a / b


def _mul(a: float | None, b: float) -> float | None:
    return None if a is None else a * b


def derived(metrics: pl.DataFrame, baseline: pl.DataFrame) -> dict[str, float | None]:
    """Seed 003's derived figures recomputed from this machine's medians (C API client);
    None where a case could not run here."""
    normal_1 = _maybe(lambda: rate(metrics, C_API, "normal", 1))
    normal_k = _maybe(lambda: rate(metrics, C_API, "normal", 1000))
    full_1 = _maybe(lambda: rate(metrics, C_API, "full", 1))
    full_k = _maybe(lambda: rate(metrics, C_API, "full", 1000))
    big_1 = _maybe(lambda: rate(metrics, C_API, "normal", 1, row_size=4096))
    big_k = _maybe(lambda: rate(metrics, C_API, "normal", 1000, row_size=4096))
    fsync_per_s = _maybe(lambda: stats.pick(stats.summarize(baseline, ["method"]), "writes_per_s"))
    return {
        "us_per_row_normal_1": _div(1.0, normal_1, 1e6),
        "us_per_row_normal_1000": _div(1.0, normal_k, 1e6),
        "us_per_row_full_1": _div(1.0, full_1, 1e6),
        "us_per_row_full_1000": _div(1.0, full_k, 1e6),
        # Seed 003's arithmetic: the batched rate of 1000-byte rows, times a day.
        "rows_per_day_seed_method": _mul(normal_k, SECONDS_PER_DAY),
        # The same with rows that really are 4 KiB.
        "rows_4k_per_day": _mul(big_k, SECONDS_PER_DAY),
        "rows_4k_per_day_batch_1": _mul(big_1, SECONDS_PER_DAY),
        "rows_4k_per_day_plain_fsync": _mul(fsync_per_s, SECONDS_PER_DAY),
        "bytes_4k_per_day": _mul(big_k, 4096 * SECONDS_PER_DAY),
        "fsync_per_s": fsync_per_s,
        "speedup_vs_plain_fsync": _div(big_k, fsync_per_s),
    }


def _inverse(e: stats.Estimate | None, scale: float = 1e6) -> stats.Estimate | None:
    """`scale` / a rate, its interval turned round with it (rows/s -> µs per row)."""
    if e is None or e.lo <= 0:
        return None
    return stats.Estimate(scale / e.median, scale / e.hi, scale / e.lo, e.runs, e.confidence)


def derived_table(metrics: pl.DataFrame, baseline: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Seed 003's figures beside the same quantities from this machine, as text
    (durations, counts in words, factors). This machine's figures carry the interval of
    the median they are computed from, turned round or scaled with it, and its run count
    (the unstable mark past ±`target`); the last line's factor, a ratio of two medians,
    the range it can take within their two intervals. Where there is no figure, the cell
    says why."""
    time, count, factor = fmt.duration_us, fmt.num, fmt.ratio
    normal_k = estimate(metrics, C_API, "normal", 1000)
    big_k = estimate(metrics, C_API, "normal", 1000, row_size=4096)
    plain = baseline_estimate(baseline)

    def per_day(e: stats.Estimate | None) -> stats.Estimate | None:
        return None if e is None else e.scaled(SECONDS_PER_DAY)

    # (quantity, this machine's figure (an estimate, or a cell already written), the seed's, how shown, how found)
    rows: list[tuple[str, stats.Estimate | str | None, float | None, Callable[[float], str], str]] = [
        (
            f"time per row, synchronous {sync.upper()}, {fmt.count(batch, 'row')} per transaction",
            _inverse(estimate(metrics, C_API, sync, batch)),
            seed,
            time,
            how,
        )
        for sync, batch, seed, how in (
            ("normal", 1, seed_figure("us_per_row", batch_size=1), "1 / rows per second"),
            ("normal", 1000, seed_figure("us_per_row", batch_size=1000), "1 / rows per second"),
            ("full", 1, None, "a sync of the log at every commit"),
            ("full", 1000, None, "a sync of the log per 1,000 rows"),
        )
    ]
    rows += [
        (
            "rows a day, 1,000-byte rows, NORMAL, 1,000 per transaction (the seed's arithmetic)",
            per_day(normal_k),
            seed_figure("rows_4kb_per_day", batch_size=1000),
            count,
            "rows per second × 86,400",
        ),
        (
            "rows of 4 KiB a day, NORMAL, 1,000 per transaction",
            per_day(big_k),
            None,
            count,
            "measured with 4,096-byte rows",
        ),
        (
            "rows of 4 KiB a day, one write + fsync each",
            per_day(plain),
            seed_figure("rows_4kb_per_day", batch_size=None),
            count,
            "fsyncs per second × 86,400",
        ),
        (
            "batched SQLite over plain fsync",
            _factor_cell(big_k, plain),
            seed_figure("speedup_vs_fsync_only"),
            factor,
            "ratio of the two lines above (range: within their two intervals)",
        ),
    ]

    def ours(figure: stats.Estimate | str | None, how: Callable[[float], str]) -> str:
        if figure is None:
            return "not measured here"
        return figure if isinstance(figure, str) else tables.figure(figure, target, how)

    return pl.DataFrame(
        [
            (q, ours(figure, how), "not in the seed" if seed is None else how(seed), note)
            for q, figure, seed, how, note in rows
        ],
        schema={"quantity": pl.String, "this machine": pl.String, "seed 003": pl.String, "how": pl.String},
        orient="row",
    )


#: What a client adds when the runs show nothing above the C API loop's CPU time (not 'none
#: measured', which would read as a figure that was not measured).
NONE_BEYOND_NOISE = "none beyond noise"


def adds_cell(mine: stats.Estimate | None, base: stats.Estimate | None, *, itself: bool = False) -> str:
    """What a client adds in CPU µs per row over the C API loop, for a table, worded as
    ``client_adds`` words it: 'baseline' for the C API itself; the difference of the medians
    where the client's interval lies above the loop's; with '(intervals overlap)' where the two
    intervals overlap and the difference is above zero; 'none beyond noise' otherwise (a
    difference below zero is the sign of noise, not a client that saves time); n/a when
    either did not run."""
    if itself:
        return "baseline"
    if mine is None or base is None:
        return fmt.NA
    added = mine.median - base.median
    c = claims.compare(mine, base)
    if c.direction == claims.HIGHER:
        return fmt.num(added)
    if c.direction != claims.LOWER and added > 0:
        return f"{fmt.num(added)} (intervals overlap)"
    return NONE_BEYOND_NOISE


def client_cost_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """In memory: per client variant, rows/s and the inserting thread's CPU time per row
    (see ``per_row_us``), each the median with the interval of that median (the unstable
    mark past ±`target`), the run count both come from, and what the client adds to the
    CPU time per row over the C API loop (``adds_cell``). Cases that could not run keep
    their row and say why."""
    cases = metrics.select("client", "batch_size").unique(maintain_order=True)
    summary = stats.summarize(metrics, ["client", "batch_size"])

    def pick(metric: str, client: str, batch: int) -> stats.Estimate | None:
        try:
            return stats.estimate(summary, metric, client=client, batch_size=batch)
        except (KeyError, pl.exceptions.PolarsError):
            return None

    rows = []
    for client, batch in cases.iter_rows():
        rate = pick("rows_per_s", client, batch)
        cpu = pick("cpu_us_per_row", client, batch)
        base = pick("cpu_us_per_row", C_API, batch)
        rows.append(
            {
                "client": client,
                "batch_size": batch,
                "rows/s": tables.figure(rate, target, fmt.num, runs=False),
                "CPU µs per row": tables.figure(cpu, target, fmt.num, runs=False),
                "runs": None if rate is None else rate.runs,
                "adds (µs/row)": adds_cell(cpu, base, itself=client == C_API and cpu is not None),
            }
        )
    schema = {"client": pl.String, "batch_size": cases.schema["batch_size"], "rows/s": pl.String,
              "CPU µs per row": pl.String, "runs": pl.Int64, "adds (µs/row)": pl.String}  # fmt: skip
    table = pl.DataFrame(rows, schema=schema)
    order = {c: i for i, c in enumerate(ALL_CLIENTS)}
    columns = [
        "client",
        pl.col("batch_size").alias("rows per transaction"),
        "rows/s",
        "CPU µs per row",
        "runs",
        "adds (µs/row)",
    ]
    missing = stats.unsupported(metrics, ["client", "batch_size"])
    if missing.height:
        table = table.join(missing, on=["client", "batch_size"], how="left")
        columns.append(pl.col("note").alias("unsupported"))
    table = table.sort(pl.col("batch_size"), pl.col("client").replace_strict(order, default=len(order)))
    return table.with_columns(pl.col("client").replace_strict(CLIENT_NAMES, default=pl.col("client"))).select(columns)


def client_cost_us(metrics: pl.DataFrame, client: str, batch_size: int) -> float:
    """What `client` adds per row over the C API loop (µs; see ``per_row_us``)."""
    typical = per_row_us(metrics, ["client", "batch_size"]).filter(pl.col("batch_size") == batch_size)
    values = dict(zip(typical["client"], typical["us_per_row"]))
    if client not in values or C_API not in values:
        raise KeyError(f"no typical time per row for {client!r} and {C_API!r} at batch_size={batch_size}")
    return values[client] - values[C_API]


def _cpu_pair(metrics: pl.DataFrame, client: str, batch_size: int) -> tuple[stats.Estimate | None, ...]:
    """`client`'s and the C API loop's CPU µs per row in memory, each with its interval."""
    summary = stats.summarize(metrics, ["client", "batch_size"]) if metrics.height else metrics
    try:
        mine = stats.estimate(summary, "cpu_us_per_row", client=client, batch_size=batch_size)
        base = stats.estimate(summary, "cpu_us_per_row", client=C_API, batch_size=batch_size)
    except (KeyError, pl.exceptions.PolarsError):
        mine = base = None
    return mine, base


def client_adds(
    metrics: pl.DataFrame, client: str, batch_size: int, *, verb: str = "added", per: str = "row", why: str = ""
) -> str:
    """What `client` adds in CPU time per row over the C API loop (difference of the
    medians, as the table gives it), worded by ``claims.compare`` on the two clients'
    CPU-time intervals: a bare figure only where the runs do not overlap; `why` (what
    the client does that may cost it, with its own leading punctuation) follows only there."""
    mine, base = _cpu_pair(metrics, client, batch_size)
    if mine is None or base is None:
        return f"{verb} an amount of CPU time per {per} that could not be measured here"
    added = mine.median - base.median
    c = claims.compare(mine, base)
    if c.direction == claims.HIGHER:
        return f"{verb} {_us(added)} of CPU time per {per}{why}"
    if c.direction == claims.LOWER:
        return f"{verb} no CPU time per {per} at all: its runs used less than the C API loop's"
    if added > 0:
        return (
            f"{verb} {_us(added)} of CPU time per {per} by the medians, though its intervals overlap the C API loop's"
        )
    return f"{verb} no CPU time per {per} that the runs can show"


#: A client's added CPU time below this share of a row's time is said to vanish against it.
VANISHES = 0.01
#: From this share of a row's time on, a client's added CPU time is said to weigh; between
#: ``VANISHES`` and this it is a small part.
WEIGHS = 0.10


def _us(us: float) -> str:
    """'0.581 µs': a CPU time per row in the client table's unit (µs), whatever its size."""
    return f"{fmt.num(us)} µs"


def share_verdict(share: float) -> str:
    """What a client's added time is against a row's time, by ``VANISHES`` and ``WEIGHS``:
    'under 1 %: there it vanishes', 'a small part of it', 'there it weighs'."""
    if not isinstance(share, (int, float)) or isinstance(share, bool) or share < 0:
        raise ValueError(f"share is a fraction of at least 0, got {share!r}")
    if share < VANISHES:
        return f"under {fmt.share(VANISHES, 2)}: there it vanishes"
    if share < WEIGHS:
        return f"under {fmt.share(WEIGHS, 2)}: a small part of it"
    return "there it weighs"


def _added(metrics: pl.DataFrame, client: str, batch_size: int) -> float | None:
    """What `client` adds in CPU µs per row over the C API loop (difference of the medians)
    where its interval lies wholly above the loop's (``claims.compare`` higher); else None."""
    mine, base = _cpu_pair(metrics, client, batch_size)
    if claims.compare(mine, base).direction != claims.HIGHER:
        return None
    return mine.median - base.median


def weight_words(share: float) -> str:
    """What a share of a row's time amounts to, by ``VANISHES`` and ``WEIGHS``, said once:
    'too little to matter', 'a small part of it', 'enough to weigh'."""
    if not isinstance(share, (int, float)) or isinstance(share, bool) or share < 0:
        raise ValueError(f"share is a fraction of at least 0, got {share!r}")
    if share < VANISHES:
        return "too little to matter"
    if share < WEIGHS:
        return "a small part of it"
    return "enough to weigh"


def _share_words(added: float, row: stats.Estimate | None, lead: str, what: str) -> str:
    """'with one row per transaction it added 2.12 µs, 1.6 % of a one-row commit that waits
    for a flush (131 µs here): a small part of it': the added time (`added`, µs per row) and
    the row's time it is a share of, each quoted in its own clause."""
    if row is None or row.median <= 0:
        return f"{lead} it added {_us(added)}; {what} could not be measured here"
    time = 1e6 / row.median
    share = added / time
    said = f"{lead} it added {_us(added)}, {fmt.share(share, 2)} of {what} ({fmt.duration_us(time)} here)"
    return f"{said}: {weight_words(share)}"


def client_weight_sentence(
    metrics: pl.DataFrame,
    full_1: stats.Estimate | None,
    normal_1000: stats.Estimate | None,
    normal_1: stats.Estimate | None = None,
) -> str:
    """What Python's added CPU time per row weighs against the disk's time per row: a one-row
    FULL commit (`full_1`, rows/s) and a batched NORMAL row on the disk (`normal_1000`, rows/s,
    1,000 per transaction). Quoted only where ``client_adds`` finds a clear cost (its
    interval above the C loop's); the share 'vanishes' below ``VANISHES``. Where a one-row
    NORMAL commit (`normal_1`, rows/s) was measured, the one-row cost's share of it too."""
    one, big = _added(metrics, PYTHON, 1), _added(metrics, PYTHON, 1000)
    if one is None and big is None:
        return "The runs show no client cost to weigh against the disk."
    parts = []
    if one is not None:
        parts.append(
            _share_words(one, full_1, "with one row per transaction", "a one-row commit that waits for a flush")
        )
        if normal_1 is not None and normal_1.median > 0:
            time = 1e6 / normal_1.median
            parts[-1] += (
                f", and {fmt.share(one / time, 2)} of a one-row NORMAL commit, which does not wait for one "
                f"({fmt.duration_us(time)} here): {weight_words(one / time)}"
            )
    if big is not None:
        parts.append(
            _share_words(
                big, normal_1000, "in transactions of 1,000", "a batched row on this machine's disk with NORMAL"
            )
        )
    return f"Python's extra CPU time per row, set beside the disk: {'; '.join(parts)}."


def client_rule(metrics: pl.DataFrame, full_1: stats.Estimate | None, normal_1: stats.Estimate | None = None) -> str:
    """The closing rule on the client: Python's clear added CPU time per row with one row per
    transaction against a one-row FULL commit (`full_1`, rows/s), the pair
    ``client_weight_sentence`` weighs first, in its words (``weight_words``). The added time
    carries the range the two CPU-time intervals allow, and is set against the commit's
    interval (``claims.compare``): 'matters less' only where it lies clearly below and its
    share does not weigh; then where the client does weigh comes from the C loop's own
    in-memory rate (``_fast_rows_words``). Where a one-row NORMAL commit (`normal_1`, rows/s)
    was measured, the same added time's share of it follows (``_normal_share_words``)."""
    added = _added(metrics, PYTHON, 1)
    adds = client_adds(metrics, PYTHON, 1)
    if added is None:
        return f"The runs show no client cost to weigh: with one row per transaction Python {adds}."
    if full_1 is None or full_1.lo <= 0:
        return (
            f"With one row per transaction Python {adds}; what a commit that waits for the disk takes could not be "
            "measured here."
        )
    mine, base = _cpu_pair(metrics, PYTHON, 1)
    cost = stats.Estimate(added, mine.lo - base.hi, mine.hi - base.lo, min(mine.runs, base.runs))
    commit = _inverse(full_1)
    c = claims.compare(cost, commit)
    share = added / commit.median
    said = (
        f"with one row per transaction Python {adds}, {fmt.share(share, 2)} of a one-row FULL commit's "
        f"{fmt.duration_us(commit.median)}"
    )
    normal = _normal_share_words(added, normal_1)
    if c.direction == claims.LOWER and share < WEIGHS:
        return (
            f"The client matters less than the commit: {said}, {weight_words(share)}.{normal}"
            f"{_fast_rows_words(metrics)}"
        )
    if c.direction == claims.LOWER:
        return (
            f"The client cost less than the commit, but not little: {said}, {weight_words(share)}; so a leaner "
            f"client may shorten even commits that wait for a disk.{normal}"
        )
    if c.direction == claims.HIGHER:
        return f"Here the client cost more than a commit: {said}.{normal}"
    if c.direction == claims.SAME_WORD:
        return f"Here the client cost about as much as a commit: {said}.{normal}"
    return (
        f"Here the runs cannot tell whether the client cost more or less than a commit: {said}; the intervals "
        f"overlap.{normal}"
    )


def _normal_share_words(added: float, normal_1: stats.Estimate | None) -> str:
    """' Against a one-row NORMAL commit, which does not wait for a flush (14.5 µs here), the same
    time is 13 %: enough to weigh.': `added` (µs per row) as a share of the time a one-row
    NORMAL transaction took (`normal_1`, rows/s), in ``weight_words``; '' where it was not measured."""
    if normal_1 is None or normal_1.median <= 0:
        return ""
    time = 1e6 / normal_1.median
    share = added / time
    return (
        f" Against a one-row NORMAL commit, which does not wait for a flush ({fmt.duration_us(time)} here), the "
        f"same time is {fmt.share(share, 2)}: {weight_words(share)}."
    )


def _fast_rows_words(metrics: pl.DataFrame) -> str:
    """Where the client weighs, from the client-cost run itself: the C loop's rate in memory
    in transactions of 1,000 (``memory_estimate``) and Python's clear added CPU time per row
    there, as a share of the C loop's time per row at that rate (``weight_words``); the advice
    to reach for C follows only where that share weighs."""
    mem = memory_estimate(metrics, 1000)
    more = _added(metrics, PYTHON, 1000)
    if mem is None or mem.median <= 0:
        return " How fast rows must come for the client to weigh, this run could not measure."
    if more is None:
        return (
            f" Even in memory, where the C loop inserted {fmt.num(mem.median)} rows per second in transactions of "
            "1,000, Python's cost per row did not show clearly."
        )
    row = 1e6 / mem.median
    share = more / row
    said = (
        f"in memory the C loop inserted {fmt.num(mem.median)} rows per second in transactions of 1,000, "
        f"{fmt.duration_us(row)} a row, and Python added {_us(more)} of CPU time per row, {fmt.share(share, 2)} "
        f"of that: {weight_words(share)}"
    )
    if share < WEIGHS:
        return f" Even where rows come fast the client stayed light: {said}."
    return (
        f" Reach for C when rows come about as fast as the C loop inserted them in memory, not to speed up commits "
        f"that wait for a disk: {said}."
    )


#: The shell table's ratio: the median of per-round ratios (the same estimate the sentence
#: below it quotes), named so no reader takes it for the ratio of the two medians.
SHELL_RATIO = "C API / shell, per round"


def cli_table(metrics: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """The sqlite3 shell beside the C API loop on the same jobs (synchronous NORMAL): each
    side's rows/s, the median with the interval of that median (the unstable mark past
    ±`target`); the median of the per-round ratios with its interval, as the sentence
    gives it ('1.2× (0.9–1.5×)'); and the rounds (each side ran once per round)."""
    summary = stats.summarize(metrics, ["tool", "batch_size"])
    table = metrics.select("batch_size").unique(maintain_order=True)
    batches = table["batch_size"].to_list()
    for tool, name in (("howfast", "C API"), ("sqlite3", "sqlite3 shell")):
        cells = [
            tables.figure_of(summary, "rows_per_s", target=target, show=fmt.num, runs=False, tool=tool, batch_size=b)
            for b in batches
        ]
        table = table.with_columns(pl.Series(f"{name} rows/s", cells, dtype=pl.String))
    ratios = shell_ratios(metrics)
    table = table.with_columns(
        pl.Series(
            SHELL_RATIO,
            [claims.ratio_interval(ratios[b]) if b in ratios else None for b in batches],
            pl.String,
        ),
        pl.Series("rounds", [ratios[b].runs if b in ratios else None for b in batches], pl.Int64),
    )
    missing = stats.unsupported(metrics, ["tool"])
    if missing.height:
        table = table.with_columns(pl.lit("; ".join(missing["note"].unique().to_list())).alias("unsupported"))
    return table.rename({"batch_size": "rows per transaction"})


def wal_sizes(metrics: pl.DataFrame) -> dict[str, float]:
    """File sizes of the C API, NORMAL, batch-1000 run: database + WAL right after the
    loop, and the database after the final checkpoint (what sqlite-bench prints)."""
    summary = stats.summarize(metrics.filter(pl.col("row_size") == 1000), ["client", "synchronous", "batch_size"])
    where = {"client": C_API, "synchronous": "normal", "batch_size": 1000}
    return {
        "db_plus_wal": stats.pick(summary, "db_plus_wal_bytes", **where),
        "file_size": stats.pick(summary, "file_size", **where),
        "rows": float(
            metrics.filter(
                (pl.col("client") == C_API)
                & (pl.col("synchronous") == "normal")
                & (pl.col("batch_size") == 1000)
                & (pl.col("row_size") == 1000)
            )["rows"][0]
        ),
    }


def headline(
    inserts_metrics: pl.DataFrame, baseline: pl.DataFrame, client_metrics: pl.DataFrame
) -> dict[str, float | None]:
    """Every number the section's prose quotes, by name; None where a case did not run.

    ``c_<sync>_<batch>`` / ``py_<sync>_<batch>``: median rows/s of the C API and Python
    clients; ``laptop_...``/``phone_...``: the seeds' runs; the keys of ``derived``;
    ``mem_c_<batch>``: the C API in memory (rows/s)."""
    out: dict[str, float | None] = {}
    for client, key in ((C_API, "c"), (PYTHON, "py")):
        for sync in SYNC_LABELS:
            for batch in (1, 1000):
                out[f"{key}_{sync}_{batch}"] = _maybe(rate, inserts_metrics, client, sync, batch)
    for row in seed_rates().iter_rows(named=True):
        out[f"{row['machine']}_{row['synchronous']}_{row['batch_size']}"] = row["rows_per_s"]
    out.update(derived(inserts_metrics, baseline))
    out["seed_expected_us"] = seed_figure("expected_latency_per_row") * 1e3
    out["seed_us_per_row_1"] = seed_figure("us_per_row", batch_size=1)
    out["seed_us_per_row_1000"] = seed_figure("us_per_row", batch_size=1000)
    out["seed_rows_per_day"] = seed_figure("rows_4kb_per_day", batch_size=1000)
    out["seed_plain_fsync_per_day"] = seed_figure("rows_4kb_per_day", batch_size=None)
    out["seed_speedup"] = seed_figure("speedup_vs_fsync_only")
    for batch in (1, 1000):
        out[f"mem_c_{batch}"] = _maybe(
            stats.pick,
            stats.summarize(client_metrics, ["client", "batch_size"]),
            "rows_per_s",
            client=C_API,
            batch_size=batch,
        )
    sizes = _maybe(lambda: wal_sizes(inserts_metrics))
    out["bytes_per_row"] = None if sizes is None else fmt.quotient(sizes["file_size"], sizes["rows"])
    ref = reference.load("sqlite").filter(
        (pl.col("machine") == "laptop")
        & (pl.col("batch_size") == 1000)
        & (pl.col("synchronous") == "normal")
        & (pl.col("figure_type") == "measured")
    )
    seed = dict(zip(ref["metric"], ref["value"]))
    out["seed_bytes_per_row"] = seed["file_size"] / seed["rows"]
    return out


class Numbers:
    """Formats the headline numbers for prose; a number that could not be measured
    here reads "n/a" instead of breaking the page."""

    MISSING = "n/a"

    def __init__(self, values: dict[str, float | None]) -> None:
        self.values = values

    def get(self, key: str) -> float | None:
        if key not in self.values:
            raise KeyError(f"no headline number {key!r}; known: {sorted(self.values)}")
        return self.values[key]

    def _show(self, key: str, how: Callable[[float], str]) -> str:
        value = self.get(key)
        return self.MISSING if value is None else how(value)

    def num(self, key: str) -> str:
        return self._show(key, fmt.num)

    def us(self, key: str) -> str:
        """A value already in µs, as a duration."""
        return self._show(key, fmt.duration_us)

    def per_row(self, key: str) -> str:
        """Rows per second shown as the time per row."""
        return self._show(key, lambda v: fmt.duration_us(1e6 / v))

    def words(self, key: str) -> str:
        """A large count, in words from a million on ('20.6 billion'), through ``fmt.num``."""
        return self._show(key, fmt.num)

    def ratio(self, top: str, bottom: str) -> str:
        a, b = self.get(top), self.get(bottom)
        return self.MISSING if a is None or b is None or b == 0 else fmt.ratio(a / b)

    def cost(self, key: str) -> str:
        """An added time in µs; 'no measurable time' when the difference is not above zero."""
        return self._show(key, lambda v: fmt.duration_us(v) if v > 0 else "no measurable time")

    def factor(self, key: str) -> str:
        return self._show(key, fmt.ratio)

    def size(self, key: str) -> str:
        return self._show(key, fmt.size)


def support_sentence(inserts_metrics: pl.DataFrame, versions: dict[str, str | None]) -> str:
    """Which SQLite the clients ran against (`versions`, as stored with the results), or
    why they could not run."""
    missing = stats.unsupported(inserts_metrics, ["client"])
    ran = inserts_metrics.filter(pl.col("metric") != "unsupported")["client"].unique().to_list()
    v = versions
    if not missing.height:
        if v[C_API] == v[PYTHON]:
            return (
                f"Both clients called the same library, SQLite {v[C_API]}, so any difference between "
                "them is the client's."
            )
        return (
            f"The C API loop called SQLite {v[C_API]}, Python's sqlite3 module SQLite {v[PYTHON]}: "
            "different libraries, so part of any difference between them is the library's."
        )
    why = "; ".join(f"{client_name(r['client'])}: {r['note']}" for r in missing.iter_rows(named=True))
    if ran:
        return f"Not every client could run here ({why}); its numbers read n/a below."
    return f"SQLite could not run here ({why}), so this machine's numbers below read n/a."


def commit_latencies(
    samples: pl.DataFrame | None, row_size: int = 1000, batch_size: int = 1, client: str = C_API
) -> pl.DataFrame:
    """Per-transaction latencies of one client at one batch size, labelled by the
    synchronous setting (empty when nothing was measured: `samples` None)."""
    if samples is None or samples.height == 0:
        return pl.DataFrame()
    picked = samples.filter(
        (pl.col("client") == client) & (pl.col("row_size") == row_size) & (pl.col("batch_size") == batch_size)
    )
    return picked.with_columns(
        pl.col("synchronous")
        .replace_strict(SYNC_LABELS, default=pl.col("synchronous"))
        .map_elements(lambda s: f"synchronous {s}", return_dtype=pl.String)
        .alias("setting")
    )


def commit_latency_chart(samples: pl.DataFrame | None, title: str = "", reasons: pl.DataFrame | None = None) -> object:
    """The survival chart of 1-row transactions (C API); when none were measured, a
    chart that says why (`reasons`: the runs' unsupported rows)."""
    import altair as alt

    from .. import charts

    data = commit_latencies(samples)
    if data.height == 0:
        why = "; ".join(sorted(set(reasons["note"].drop_nulls()))) if reasons is not None and "note" in reasons else ""
        text = f"No transactions were measured here: {why or 'SQLite could not run'}."
        return (
            alt.Chart(pl.DataFrame({"text": [text]}), title=title)
            .mark_text(align="left", fontSize=13)
            .encode(text="text:N", x=alt.value(0))
            .properties(width=520, height=40)
        )
    return charts.latency_survival(data, "setting", title=title)


def rows_per_run(metrics: pl.DataFrame, batch_size: int, synchronous: str = "normal", row_size: int = 1000) -> int:
    """How many rows one repetition inserted (as asked; the runs check they all landed)."""
    rows = metrics.filter(
        (pl.col("batch_size") == batch_size) & (pl.col("synchronous") == synchronous) & (pl.col("row_size") == row_size)
    )["rows"]
    if rows.len() == 0:
        raise KeyError(f"no case with batch_size={batch_size}, synchronous={synchronous}, row_size={row_size}")
    return int(rows[0])


def run_sizes(metrics: pl.DataFrame) -> str:
    """'10,000 rows one at a time (300 with synchronous FULL, where every row waits for a
    flush), or 30,000 rows in transactions of 1,000': what one repetition inserted per
    configuration (1,000-byte rows), naming every setting whose runs were of another size."""
    rows = metrics.filter((pl.col("row_size") == 1000) & pl.col("rows").is_not_null()) if metrics.height else metrics
    if rows.height == 0:
        return "no rows, since SQLite could not run here"
    parts = []
    for batch, how in ((1, "one at a time"), (1000, "in transactions of 1,000")):
        sizes = rows.filter(pl.col("batch_size") == batch).select("synchronous", "rows").unique(maintain_order=True)
        if sizes.height == 0:
            continue
        normal = sizes.filter(pl.col("synchronous") == "normal")["rows"]
        main = int(normal[0]) if normal.len() else int(sizes["rows"][0])
        others = [
            f"{fmt.num(int(n))} with synchronous {SYNC_LABELS.get(sync, sync)}"
            + (", where every row waits for a flush" if sync == "full" and batch == 1 else "")
            for sync, n in sizes.iter_rows()
            if int(n) != main
        ]
        parts.append(f"{fmt.num(main)} rows {how}" + (f" ({'; '.join(others)})" if others else ""))
    return ", or ".join(parts)


def shell_runs_sentence(shell: pl.DataFrame, inserts: pl.DataFrame, facts: dict | None = None) -> str:
    """The C loop's figures in the shell table come from runs of their own (alternated
    with the shell's, of their own size): each beside the rates table's figure for the
    same configuration (NORMAL, 1,000-byte rows), with ``claims.compare`` on the two
    intervals, so no reader takes the two values of one quantity for a contradiction. The disk
    is named as the machine's `facts` show it (``storage.report.disk_drift_words``)."""
    if shell.height == 0 or "tool" not in shell.columns:
        return ""
    summary = stats.summarize(shell, ["tool", "batch_size"])
    said, apart = [], False
    for batch, words in ((1, "one row per transaction"), (1000, "1,000 rows per transaction")):
        here = stats.estimate_or_none(summary, "rows_per_s", tool="howfast", batch_size=batch)
        there = estimate(inserts, C_API, "normal", batch) if inserts.height else None
        if here is None or there is None:
            continue
        c = claims.compare(here, there)
        overlap = c.direction in (claims.SAME_WORD, claims.UNCLEAR)
        apart = apart or not overlap
        sized = shell.filter((pl.col("tool") == "howfast") & (pl.col("batch_size") == batch))
        size = f" (runs of {fmt.num(int(sized['rows'][0]))} rows)" if "rows" in sized.columns and sized.height else ""
        said.append(
            f"{words}{size}, {fmt.num(here.median)} rows per second against {fmt.num(there.median)}, "
            f"{'intervals overlapping' if overlap else 'intervals apart'}"
        )
    if not said:
        return ""
    from ..storage.report import disk_drift_words

    why = (
        " Where the intervals lie apart, the same loop ran at another moment and with another run size"
        f"{disk_drift_words(facts)}; either may move a median."
        if apart
        else ""
    )
    return (
        "The C loop's figures in this table come from its own runs, alternated with the shell's, not from the "
        f"rates table's: {'; '.join(said)}.{why} The rates table's are the figures this section quotes; these "
        "serve only the ratio with the shell, run beside them."
    )


def seed_guess(machine: str) -> float:
    """Seed 001's guess of SQLite rows per second, written before it measured."""
    guesses = reference.load("guesses").filter((pl.col("benchmark") == "sqlite_guess") & (pl.col("machine") == machine))
    if guesses.height != 1:
        raise KeyError(f"expected one SQLite guess for {machine!r}, found {guesses.height}")
    return float(guesses["value"][0])


def landed(metrics: pl.DataFrame) -> list[dict]:
    """The stored read-back check (``rows_land``), one dict per client."""
    found = []
    for (client,), rows in metrics.group_by(["client"], maintain_order=True):
        values = dict(zip(rows["metric"], rows["value"]))
        if "unsupported" in values:
            found.append({"client": client, "note": rows["note"].drop_nulls()[0]})
            continue
        reader = next(m.removeprefix("read_back_with_") for m in values if m.startswith("read_back_with_"))
        found.append(
            {
                "client": client,
                "rows asked": int(values["rows_asked"]),
                "rows found": int(values["rows_found"]),
                "exact bytes": int(values["exact_bytes"]),
                "read back with": reader,
                "quick_check": "ok" if values["quick_check_ok"] else "failed",
            }
        )
    return found


def landed_sentence(found: list[dict]) -> str:
    """What the read-back check found (``landed``), as a sentence."""
    parts = []
    for f in found:
        if "note" in f:
            parts.append(f"the {client_name(f['client'])} client could not run ({f['note']})")
        else:
            parts.append(
                f"of {fmt.num(f['rows asked'])} distinct rows written through the "
                f"{client_name(f['client'])} client, {fmt.num(f['rows found'])} were found and "
                f"{fmt.num(f['exact bytes'])} held exactly their bytes when read back through the "
                f"{client_name(f['read back with'])} client (quick_check: {f['quick_check']})"
            )
    text = "; ".join(parts)
    return f"A last check that the rows really land: {text}."


# --- Words decided by data: claims over the intervals, like with like against the seeds ---


def estimate(
    metrics: pl.DataFrame, client: str, synchronous: str, batch_size: int, row_size: int = 1000
) -> stats.Estimate | None:
    """Rows/s of one configuration as a median with its interval; None where it did not run."""
    return stats.estimate_or_none(
        _rates(metrics, row_size), "rows_per_s", client=client, synchronous=synchronous, batch_size=batch_size
    )


def baseline_estimate(baseline: pl.DataFrame) -> stats.Estimate | None:
    """The SQLite run's own plain 4 KiB write + fsync, writes per second with its interval."""
    if baseline.height == 0:
        return None
    return stats.estimate_or_none(stats.summarize(baseline, ["method"]), "writes_per_s")


SAME_SPEED = "about as fast as"


def _per_row(e: stats.Estimate | None) -> str:
    return fmt.NA if e is None else fmt.duration_us(1e6 / e.median)


def seed_rows() -> int:
    """How many rows each of the seeds' sqlite-bench runs inserted (1,000,000)."""
    ref = reference.load("sqlite").filter((pl.col("metric") == "rows") & (pl.col("figure_type") == "measured"))
    sizes = {int(v) for v in ref["value"].to_list()}
    if len(sizes) != 1:
        raise KeyError(f"the seeds' runs do not share one size: {sorted(sizes)}")
    return sizes.pop()


def bytes_per_row_sentence(ours: float | None, seed: float | None) -> str:
    """Whether this machine's database file held as many bytes per row as the seed laptop's
    (`ours`, `seed`: file size over rows, single figures without a spread): within
    ``claims.SAME`` of each other, as the same table and rows should give, or apart, with
    the possible reasons worded as such; a sentence saying so where either is missing."""
    for name, value in (("ours", ours), ("seed", seed)):
        if value is not None and not value > 0:
            raise ValueError(f"{name} is a number of bytes per row above 0, got {value!r}")
    if ours is None or seed is None:
        return "How many bytes per row this file held beside the laptop's was not measured here."
    ratio = ours / seed
    if fmt.num(ours) == fmt.num(seed):
        return "The two are the same, as the same table and the same rows should give."
    if 1 / claims.SAME <= ratio <= claims.SAME:
        return (
            f"The two lie within {fmt.share(claims.SAME - 1)} of each other, as the same table and the same rows "
            "should give."
        )
    more = "more" if ratio > 1 else "fewer"
    return (
        f"The two differ: this file held {fmt.ratio(ratio)} the laptop's bytes per row: {more}, for the same table "
        "and the same rows. The library's version, its page size or the number of rows per run may account for "
        "it; this page does not measure which."
    )


def derived_runs_words(metrics: pl.DataFrame) -> str:
    """How this machine's runs (C loop, 1,000-byte rows) differ from the seeds' in size, per
    synchronous setting and batch size (``rows_per_run`` against ``seed_rows``), each size
    that differs named (``fmt.exact``), then in client and library (always): 'the runs with
    NORMAL with 1,000 rows per transaction inserted the seeds' 1,000,000 rows; the others
    other numbers (NORMAL with one row per transaction: 10,000 rows a run; …), …'."""
    n_seed = seed_rows()
    same, other = [], []
    if metrics.height and {"batch_size", "synchronous", "row_size", "rows"} <= set(metrics.columns):
        ran = metrics.filter(pl.col("rows").is_not_null())
        if "client" in ran.columns:  # the C loop's runs: the Go and Python clients size theirs apart
            ran = ran.filter(pl.col("client") == C_API)
        settings = [s for s in SYNC_LABELS if s in set(ran["synchronous"].to_list())]
        for sync in settings:
            for batch, what in ((1, "one row"), (1000, "1,000 rows")):
                try:
                    n = rows_per_run(ran, batch, sync)
                except KeyError:
                    continue
                label = f"{SYNC_LABELS[sync]} with {what} per transaction"
                (same if n == n_seed else other).append((label, n))
    library = "all differ in client and library as the section said above"
    if not same and not other:
        return "this machine's inserts did not run here"
    sizes = "; ".join(f"{label}: {fmt.exact(n)} rows a run" for label, n in other)
    if not same:
        return f"the runs differ from the seeds' {fmt.exact(n_seed)} rows in size ({sizes}), and {library}"
    if not other:
        return (
            f"the runs inserted the seeds' {fmt.exact(n_seed)} rows each, but differ in client and library as the "
            "section said above"
        )
    return (
        f"the runs with {fmt.listed([label for label, _ in same])} inserted the seeds' {fmt.exact(n_seed)} rows; the "
        f"others other numbers ({sizes}), and {library}"
    )


def seed_sentence(metrics: pl.DataFrame, version: str | None = None) -> str:
    """The C loop against the seeds' laptop and phone (WAL, NORMAL), like with like, decided
    per batch size: a comparison only where this profile's runs with that batch size
    inserted as many rows as the seeds' runs did; 'not comparable (N rows against
    1,000,000)' for the others. Where nothing compares, which batch sizes the full profile
    runs at the seeds' size, from its plan (``plan.FULL``). Either way it names what differs
    besides the machine (client and library)."""
    from .plan import FULL

    if metrics.height == 0:
        return "The seeds' runs could not be set beside this machine's: the inserts did not run here."
    seeds = seed_rates().filter(pl.col("synchronous") == "normal")
    n_seed = seed_rows()
    ours = {}
    for batch in (1, 1000):
        try:
            ours[batch] = rows_per_run(metrics, batch)
        except KeyError:
            ours[batch] = None
    if not any(ours.values()):
        return "The seeds' runs could not be set beside this machine's: the inserts did not run here."
    client = (
        "sqlite-bench's Go code with its own copy of SQLite, preparing its INSERT in every transaction, against "
        f"our C loop on the system's SQLite{' ' + version if version else ''}"
    )
    parts, compared = [], False
    for batch in (1, 1000):
        n = ours[batch]
        if n is None:
            continue
        what = "one row per transaction" if batch == 1 else "1,000 rows per transaction"
        if n != n_seed:
            parts.append(f"with {what}, not comparable ({fmt.exact(n)} rows per run against {fmt.exact(n_seed)})")
            continue
        mine = estimate(metrics, C_API, "normal", batch)
        said = []
        for machine in ("laptop", "phone"):
            row = seeds.filter((pl.col("machine") == machine) & (pl.col("batch_size") == batch))
            if row.height == 0 or mine is None:
                continue
            theirs = float(row["rows_per_s"][0])
            c = claims.compare(mine, stats.Estimate.exact(theirs))
            said.append(
                claims.versus(c, f"the {machine} ({fmt.num(theirs)})", more="faster", less="slower", same=SAME_SPEED)
            )
        if said:
            compared = True
            parts.append(f"with {what}, at the seeds' size, the C loop was {' and '.join(said)}")
        else:
            parts.append(f"with {what}, at the seeds' size, but with no figure to set beside theirs")
    text = f"Against the seeds' runs of {fmt.exact(n_seed)} rows (synchronous NORMAL): " + "; ".join(parts) + "."
    if not compared:
        full = [b for b, n in zip(FULL.batch_sizes, FULL.rows) if n == n_seed]
        if full:
            sizes = " and ".join("one row" if b == 1 else f"{fmt.exact(b)} rows" for b in full)
            text += (
                f" A table of another size has a B-tree of another depth and another log to checkpoint, so this page "
                f"gives no ratio between the machines here; the full profile inserts the seeds' {fmt.exact(n_seed)} "
                f"rows with {sizes} per transaction and compares those."
            )
        else:
            text += (
                " A table of another size has a B-tree of another depth and another log to checkpoint, so this page "
                "gives no ratio between the machines."
            )
    return f"{text} What differs besides the machine{' and the size' if not compared else ''} is the client: {client}."


def off_sentence(
    off_1: stats.Estimate | None,
    normal_1: stats.Estimate | None,
    off_1000: stats.Estimate | None,
    normal_1000: stats.Estimate | None,
) -> str:
    """OFF against NORMAL (C loop, rows/s), one row and 1,000 rows per transaction, in
    ``claims.compare``'s words; where OFF was not clearly faster or slower (the intervals
    overlap, or it was about as fast), a closing sentence for those batch sizes only: NORMAL
    does not sync at commit either, which may leave OFF little to save."""
    if off_1 is None and off_1000 is None:
        return "Dropping the syncs altogether (OFF) could not be measured here."
    parts, level = [], []
    for off, normal, what in ((off_1, normal_1, "one row"), (off_1000, normal_1000, "1,000 rows")):
        if off is None:
            continue
        c = claims.compare(off, normal)
        versus = (
            ""
            if c.direction == claims.MISSING
            else f", {claims.versus(c, 'NORMAL', more='faster', less='slower', same=SAME_SPEED)}"
        )
        parts.append(f"{fmt.num(off.median)} rows per second with {what} per transaction{versus}")
        if c.direction in (claims.UNCLEAR, claims.SAME_WORD):
            level.append(what)
    tail = (
        f" With {' and with '.join(level)} per transaction, OFF was not clearly faster than NORMAL, perhaps "
        "because NORMAL too skips the sync at commit and syncs only before a checkpoint."
        if level
        else ""
    )
    return f"Dropping the syncs altogether (OFF) gave {'; and '.join(parts)}.{tail}"


def baseline_sentence(baseline: pl.DataFrame, fsync_runs: pl.DataFrame | None = None) -> str:
    """Which run the SQLite section's plain write + fsync comes from, and, from the fsync
    chapter's runs of the same pair (`fsync_runs`: ``fsync.report.four_kib_runs``, with
    ``writes/s``, ``lo``, ``hi``, ``repetitions``, ``prose``), both ranges and why they differ:
    other files, other counts, other moments. ``claims.compare`` says whether this run's
    interval lies apart from all of them."""
    e = baseline_estimate(baseline)
    if e is None:
        return "A plain 4 KiB write + fsync could not be measured beside the inserts here."
    writes = int(baseline["writes"][0]) if "writes" in baseline.columns else None
    count = fmt.count(writes, "write") if writes is not None else "a run of writes"
    head = (
        f"In this section's own baseline run ({count} of 4 KiB per repetition, each appended to a new file and "
        f"fsynced, measured beside the inserts) this machine managed {fmt.num(e.median)} plain write + fsync pairs "
        f"per second ({fmt.span(e.lo, e.hi)}, {fmt.count(e.runs, 'run')}), {fmt.duration_us(1e6 / e.median)} each."
    )
    why = (
        "They are other runs: other files, another number of writes per run, another moment on a disk whose "
        "speed drifts. The SQLite figures below are set beside this section's own baseline, measured in the "
        "same session as the inserts."
    )
    if fsync_runs is None or fsync_runs.height == 0:
        return (
            f"{head} The fsync chapter measures the same pair in runs of its own, with other counts and at other "
            f"moments; its table of the runs gives each of its figures. {why}"
        )
    rows = fsync_runs.sort("writes/s").to_dicts()

    def est(row: dict) -> stats.Estimate:
        return stats.Estimate(row["writes/s"], row["lo"], row["hi"], int(row["repetitions"]))

    low, high = rows[0], rows[-1]
    there = (
        f"{fmt.num(low['writes/s'])} ({fmt.span(low['lo'], low['hi'])}, {low['prose']}) to "
        f"{fmt.num(high['writes/s'])} ({fmt.span(high['lo'], high['hi'])}, {high['prose']})"
        if len(rows) > 1
        else f"{fmt.num(low['writes/s'])} ({fmt.span(low['lo'], low['hi'])}, {low['prose']})"
    )
    directions = {claims.compare(e, est(r)).direction for r in rows}
    if directions == {claims.LOWER}:
        where = " This run's interval lies below every one of them."
    elif directions == {claims.HIGHER}:
        where = " This run's interval lies above every one of them."
    else:
        where = ""
    return (
        f"{head} The fsync chapter's {fmt.count(len(rows), 'measurement')} of the same pair gave "
        f"{there} per second at the median.{where} {why}"
    )


def batch_sentence(batched: stats.Estimate | None, single: stats.Estimate | None) -> str:
    """1,000 rows per transaction against one, NORMAL, C loop (rows/s both), from
    ``claims.compare``: 'raised' only where the batched interval lies above."""
    c = claims.compare(batched, single)
    if c.direction == claims.MISSING:
        return "What batching 1,000 rows per transaction changes could not be measured here."
    words = claims.versus(c, "one row per transaction", more="faster", less="slower", same=SAME_SPEED)
    if c.direction == claims.HIGHER:
        return (
            f"Batching 1,000 rows per transaction raised that to {fmt.num(batched.median)} rows per second ({words})."
        )
    return (
        f"Batching 1,000 rows per transaction gave {fmt.num(batched.median)} rows per second, {words}: here "
        "batching bought nothing the runs can show."
    )


def normal_commit_sentence(normal: stats.Estimate | None, plain: stats.Estimate | None) -> str:
    """A one-row NORMAL commit (C API, rows/s) against the baseline's plain write + fsync
    (writes/s), from ``claims.compare``: NORMAL does not flush at commit. Only where the
    commit was clearly faster is it 'the number that surprises', with what it may cost
    instead, worded as a possibility (this page does not trace a commit's calls)."""
    c = claims.compare(normal, plain)
    if c.direction == claims.MISSING:
        return "How a one-row NORMAL commit compares with that could not be measured here."
    took = _per_row(normal)
    if c.direction == claims.HIGHER:
        return (
            f"Yet a NORMAL commit took {took} on average, {fmt.factor(c.ratio)}× as many per second, and that is "
            "the number that surprises: it does not flush at commit (only before checkpoints). What it costs "
            "instead may be a handful of system calls (file locks, and writes of the log's new pages into the page "
            "cache) plus SQLite's own work; this page does not trace them."
        )
    words = claims.versus(c, "the plain pair", more="faster", less="slower", same="about as fast as")
    return (
        f"A NORMAL commit, which does not flush at commit (only before checkpoints), took {took} on average: here it "
        f"was {words}. This page does not trace where its time went."
    )


def normal_rule(normal: stats.Estimate | None, plain: stats.Estimate | None) -> str:
    """The closing rule on NORMAL: one-row NORMAL commits per second (C API) against the
    baseline's plain write + fsync pairs per second, in ``claims.versus``'s words; the
    commit's skipped flush is named as buying the rate only where NORMAL was clearly faster."""
    tail = " What that buys is safety against a crashed program, not against a power cut."
    c = claims.compare(normal, plain)
    if c.direction == claims.MISSING:
        return (
            "In WAL mode with NORMAL a commit does not flush; how its rate compares with plain write + fsync pairs "
            f"could not be measured here.{tail}"
        )
    other = f"the {fmt.num(plain.median)} plain write + fsync pairs per second of the baseline run"
    words = claims.versus(c, other, more="faster", less="slower", same=SAME_SPEED, span=True)
    if c.direction == claims.HIGHER:
        return (
            f"In WAL mode with NORMAL a commit does not flush, and one thread committed {fmt.num(normal.median)} "
            f"one-row transactions per second here, {words}.{tail}"
        )
    return (
        f"In WAL mode with NORMAL a commit does not flush, yet one thread committed {fmt.num(normal.median)} one-row "
        f"transactions per second here, {words}: skipping the flush did not show in the rate.{tail}"
    )


#: Why a FULL commit can beat the plain pair although it does more work, once a checkpoint
#: has reset the log: the two syncs then differ.
FULL_VERSUS_PLAIN = (
    "Both write and then sync, but not the same way. SQLite syncs its log with fdatasync, and once a "
    "checkpoint has reset the log it writes over blocks the file already holds, so a sync need not commit "
    "new blocks or a new file size to the file system's journal; the plain pair appends to a new file, so "
    "each of its fsyncs commits both. This page does not measure how much of the gap that explains; the two "
    "also ran at different moments, on a disk whose speed drifts."
)

#: SQLite's default page size and a WAL frame (a page and its 24-byte frame header), and the
#: log size at which SQLite checkpoints by default (``PRAGMA wal_autocheckpoint``).
PAGE_BYTES = 4096
WAL_FRAME_BYTES = PAGE_BYTES + 24
AUTOCHECKPOINT_PAGES = 1000


def checkpoint_in_run(metrics: pl.DataFrame, synchronous: str = "full", batch_size: int = 1) -> bool | None:
    """Whether SQLite's log reached the autocheckpoint (1,000 pages) during the runs of one
    configuration (C API, 1,000-byte rows), from the database and log's size before the
    final checkpoint (``db_plus_wal_bytes``): a log that never reached 1,000 frames holds
    fewer than 1,000 frames' bytes, and a reset log is reused from its start, so its file
    keeps the size it reached. None when the size was not stored."""
    if metrics.height == 0 or "metric" not in metrics.columns:
        return None
    rows = metrics.filter(
        (pl.col("metric") == "db_plus_wal_bytes")
        & (pl.col("client") == C_API)
        & (pl.col("synchronous") == synchronous)
        & (pl.col("batch_size") == batch_size)
        & (pl.col("row_size") == 1000)
    )["value"].drop_nulls()
    if rows.len() == 0:
        return None
    # without a checkpoint the database file holds at most its first page (WAL mode writes it)
    return float(rows.min()) >= AUTOCHECKPOINT_PAGES * WAL_FRAME_BYTES + PAGE_BYTES


def _full_versus_plain(checkpointed: bool | None) -> str:
    """Why FULL can beat the plain pair: the reason that holds once a checkpoint reset the log
    (`checkpointed`), and none where the log only grew (both then append and sync) or where
    the run does not say."""
    if checkpointed:
        return FULL_VERSUS_PLAIN
    if checkpointed is None:
        return (
            "Whether a checkpoint reset SQLite's log during these runs is not recorded, so this page cannot say "
            "whether the two syncs did the same work, and does not explain the gap; the two also ran at different "
            "moments, on a disk whose speed drifts."
        )
    return (
        f"These runs never filled the log to the {fmt.exact(AUTOCHECKPOINT_PAGES)} pages that start a checkpoint, "
        "so every FULL commit appended to a log that only grew, as the plain pair appends to a new file: both "
        "extend a file and sync it, and this page has not found what makes the gap. The two also ran at different "
        "moments, on a disk whose speed drifts."
    )


def full_commit_sentence(
    full: stats.Estimate | None,
    plain: stats.Estimate | None,
    batched: stats.Estimate | None,
    normal_batched: stats.Estimate | None,
    checkpointed: bool | None = None,
) -> str:
    """FULL, one row per transaction, against the plain write + fsync of the same run;
    FULL batched against NORMAL batched. Words from ``claims.compare``; a reason only
    where the work explains the direction: where FULL was faster, the reused log's cheaper
    sync only when a checkpoint reset the log in those runs (`checkpointed`, from
    ``checkpoint_in_run``)."""
    if full is None:
        first = "With FULL, every commit waits for the disk; how long could not be measured here."
    else:
        first = (
            f"With FULL, every commit waits for the disk: {fmt.num(full.median)} rows per second, {_per_row(full)} "
            "each on average"
        )
        c = claims.compare(full, plain)
        if c.direction == claims.MISSING:
            first += "."
        elif c.direction == claims.LOWER:
            words = claims.versus(c, "the plain write + fsync", more="faster", less="slower", same=SAME_SPEED)
            first += f", {words}: a commit is a sync and SQLite's own work besides."
        elif c.direction == claims.HIGHER:
            first += (
                f", {claims.versus(c, 'the plain write + fsync', more='faster', less='slower')} of the "
                f"baseline run. {_full_versus_plain(checkpointed)}"
            )
        else:
            words = claims.versus(c, "the plain write + fsync", more="faster", less="slower", same=SAME_SPEED)
            first += f", {words}: one sync per commit either way."
    c2 = claims.compare(batched, normal_batched)
    if c2.direction == claims.MISSING:
        second = "Batch the rows and the flush is shared; by how much could not be measured here."
    else:
        second = (
            f"Batch the rows and the flush is shared: at 1,000 rows per transaction FULL inserted "
            f"{fmt.num(batched.median)} rows per second, "
            f"{claims.versus(c2, 'NORMAL', more='faster', less='slower', same='about as fast as')}."
        )
    return f"{first} {second}"


def cost_cell(us: float | None) -> str:
    """A client's added CPU time per row for a table: 'baseline' for the C API itself, a
    difference below zero 'none beyond noise' (the sign of noise, not a client that saves time)."""
    if us is None:
        return fmt.NA
    if us == 0:
        return "baseline"
    return NONE_BEYOND_NOISE if us < 0 else fmt.num(us)


def memory_estimate(client_metrics: pl.DataFrame, batch_size: int) -> stats.Estimate | None:
    """The C loop's rows/s in memory (the client-cost run, tmpfs, NORMAL), with its interval."""
    return stats.estimate_or_none(
        stats.summarize(client_metrics, ["client", "batch_size"]), "rows_per_s", client=C_API, batch_size=batch_size
    )


def memory_rates_sentence(memory: stats.Estimate | None, disk: stats.Estimate | None) -> str:
    """The C loop's batched rate in memory against the same loop on the disk (rows/s both,
    NORMAL, 1,000 rows per transaction), from ``claims.compare``; where memory is not
    clearly faster, the page says why wall-clock rates cannot settle the clients."""
    c = claims.compare(memory, disk)
    if c.direction == claims.MISSING:
        return "How that compares with the same loop on the disk could not be measured here."
    other = f"the same loop on the disk, batched the same way, at {fmt.num(disk.median)} rows per second"
    head = f"The batched {fmt.num(memory.median)} rows per second in memory"
    words = claims.versus(c, other, more="faster", less="slower", same=SAME_SPEED, span=True)
    if c.direction == claims.HIGHER:
        return (
            f"{head} are {words}. A file system in memory may be why, as it saves the disk's writes; this run does "
            "not measure where the difference goes."
        )
    return (
        f"{head} are {words}, measured in another minute, although no disk is involved here: with NORMAL a batched "
        "commit hardly waits for the disk, and on a shared machine a loop's wall-clock rate moves with whatever "
        "else runs. That is why the clients are compared by CPU time."
    )


def shell_ratios(metrics: pl.DataFrame) -> dict[int, stats.Estimate]:
    """Per batch size, the median of the per-round ratios C loop / shell (rows/s), with
    its interval: the two ran one after the other in each round."""
    rows = metrics.filter(pl.col("metric") == "rows_per_s") if metrics.height else metrics
    if rows.height == 0 or not {"howfast", "sqlite3"} <= set(rows["tool"].unique().to_list()):
        return {}
    wide = rows.pivot(on="tool", index=["batch_size", "repetition"], values="value").drop_nulls(["howfast", "sqlite3"])
    out = {}
    for batch in sorted(wide["batch_size"].unique().to_list()):
        part = wide.filter(pl.col("batch_size") == batch)
        ratios = [r for r in (part["howfast"] / part["sqlite3"]).to_list() if r and r > 0]
        if ratios:
            lo, hi, level = stats.median_interval(ratios)
            out[int(batch)] = stats.Estimate(float(pl.Series(ratios).median()), lo, hi, len(ratios), level)
    return out


#: With 1,000 rows per transaction the loop is expected at or a little below the shell (which
#: makes its rows with generate_series, no client work per row): a per-round ratio interval
#: wholly below 1 but not below this is called expected, not a warning.
SHELL_EXPECTED_DEFICIT = 0.8


def shell_check_sentence(metrics: pl.DataFrame) -> str:
    """The shell cross-check's verdicts from ``claims.crosscheck`` over the per-round
    ratios: with one row per transaction the loop must not be slower than the shell
    (which compiles every statement); with big batches (no client work per row in the
    shell) the loop is expected at or a little below the shell (down to
    ``SHELL_EXPECTED_DEFICIT``). The ratios are the table's, with the same digits."""
    ratios = shell_ratios(metrics)
    one, big = ratios.get(1), ratios.get(1000)
    if one is None or big is None:
        return "Without both tools, this check could not run here."
    v1, vk = claims.crosscheck(one), claims.crosscheck(big)

    def said(v: claims.Verdict, e: stats.Estimate) -> str:
        span = f"median per round {fmt.factor(e.median)}×, interval {claims.ratio_interval(e, median=False)}"
        if v.outcome == "agrees":
            return f"agrees with the shell ({span})"
        if v.outcome == "ours higher":
            return f"is faster than the shell ({span})"
        if v.outcome == "ours lower":
            return f"is slower than the shell ({span})"
        return f"cannot be told apart from the shell on this machine ({span}: the interval holds 1)"

    first = f"With one row per transaction the C loop {said(v1, one)}"
    if v1.outcome == "ours lower":
        first += ", although the shell compiles every statement: read the loop's numbers on this machine with care."
    elif v1.outcome == "ours higher":
        first += ", as it should be against a client that compiles every statement."
    else:
        first += "; so the loop is at least not clearly slower than a client that compiles every statement."
    second = f"With 1,000 rows per transaction it {said(vk, big)}"
    if vk.outcome == "ours lower" and big.lo >= SHELL_EXPECTED_DEFICIT:
        second += (
            ": the shell makes its rows with generate_series, no client work per row, while the loop binds and "
            "steps each row from C, so a loop a little below the shell is what to expect."
        )
    elif vk.outcome == "agrees":
        second += ": where the shell does no work per row, the loop adds little of its own to SQLite's time."
    elif vk.outcome == "inconclusive":
        second += ": this machine's noise between rounds leaves that half of the check open."
    else:
        second += ": where the two should agree they do not, so read the loop's batched numbers with care."
    return f"{first} {second}"


def python_rates_sentence(metrics: pl.DataFrame, versions: dict | None = None) -> str:
    """The Python client against the C loop per configuration, from ``claims.compare``:
    how many were clearly slower, and how many the disk's noise leaves open. Where Python
    was clearly faster, the possible causes: the disk's drift between runs, and the two
    SQLite libraries where `versions` (client id -> SQLite version) shows they differ."""
    if metrics.height == 0:
        return "Neither client could run here, so there is nothing to compare."
    configs = metrics.filter(pl.col("row_size") == 1000).select("synchronous", "batch_size").unique(maintain_order=True)
    verdicts = []
    for sync, batch in configs.iter_rows():
        c = claims.compare(estimate(metrics, PYTHON, sync, batch), estimate(metrics, C_API, sync, batch))
        if c.direction != claims.MISSING:
            verdicts.append(c.direction)
    if not verdicts:
        return "Neither client could run here, so there is nothing to compare."
    n = len(verdicts)
    slower, faster = verdicts.count(claims.LOWER), verdicts.count(claims.HIGHER)
    text = f"Python was clearly slower than the C loop in {slower} of {fmt.count(n, 'configuration')}"
    if faster:
        v = versions or {}
        libraries = (
            f", or the two SQLite libraries ({v[C_API]} for the C loop, {v[PYTHON]} for Python)"
            if v.get(C_API) and v.get(PYTHON) and v[C_API] != v[PYTHON]
            else ""
        )
        text += (
            f", clearly faster in {faster} (which need not be a faster client: the disk's drift between runs"
            f"{libraries} may explain it; this run cannot say which)"
        )
    rest = n - slower - faster
    if rest:
        text += f"; in {rest} the intervals overlap, the disk's noise hiding the client's cost"
    return text + ". The next table measures the clients where there is no disk."


def full_rule(batched: stats.Estimate | None, normal: stats.Estimate | None) -> str:
    """The closing rule on batched FULL against batched NORMAL."""
    c = claims.compare(batched, normal)
    if c.direction == claims.MISSING:
        return "by how much could not be measured here."
    words = claims.versus(c, "NORMAL", more="faster", less="slower", same=SAME_SPEED)
    return f"at 1,000 rows per transaction, FULL was {words}."


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
