"""The compress-encode-sort chapter's tables, chart data and sentences: every word that
depends on a measurement is decided here, from intervals (``stats``, ``claims``).

Rates on this page are decimal MB/s (10^6 bytes per second, as the disk chapters and the
``zstd``/``lz4`` tools print them); napkin-math's figures, printed in MiB/s and GiB/s, are
converted to MB/s where they stand beside ours.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from .. import claims, fmt, reference, stats
from .. import crosscheck as general
from ..checks import checked
from ..stats import Estimate
from . import experiments

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "compress": "compression",
    "sort": "sorting",
    "python_sort": "Python sorting",
    "serial": "serialization",
    "python_serial": "Python serialization",
    "vs_zstd": "zstd -b and lz4 -b cross-check",
}

#: How a reader sees each codec id.
CODEC_NAMES = {"zstd": "zstd", "lz4": "lz4", "lz4hc": "lz4 HC", "snappy": "snappy", "zlib": "zlib", "brotli": "brotli"}
#: How a reader sees each sort id.
SORT_NAMES = {
    "std_sort": "std::sort",
    "std_stable_sort": "std::stable_sort",
    "radix_lsd": "LSD radix sort (ours)",
    "numpy.sort": "numpy.sort",
    "polars.sort": "polars sort",
}
ORDER_NAMES = {"random": "random", "sorted": "sorted", "reversed": "reversed", "few_unique": "16 distinct values"}

#: napkin-math's version the book compares with (the README table the issue quotes) and its units.
NAPKIN_MACHINE = "napkin_e2236"
_TO_MB = {"MiB/s": 2**20 / 1e6, "GiB/s": 2**30 / 1e6, "MB/s": 1.0, "GB/s": 1e3}


def label(codec: str, level: int) -> str:
    """'zstd -3', 'lz4', 'lz4 HC -9', 'snappy', 'zlib -6', 'brotli -11'."""
    if codec not in CODEC_NAMES:
        raise ValueError(f"codec must be one of {', '.join(CODEC_NAMES)}; got {codec!r}")
    return CODEC_NAMES[codec] + (f" -{level}" if codec not in ("lz4", "snappy") else "")


def napkin(benchmark: str, metric: str = "throughput", machine: str = NAPKIN_MACHINE) -> float | None:
    """napkin-math's figure for one row of its table in MB/s (throughputs) or as printed
    (latencies, the rule of thumb); None when that version has no such cell."""
    frame = reference.load("napkin_math").filter(
        (pl.col("benchmark") == benchmark) & (pl.col("metric") == metric) & (pl.col("machine") == machine)
    )
    if frame.height == 0:
        return None
    row = frame.row(0, named=True)
    return float(row["value"]) * _TO_MB.get(row["unit"], 1.0) if metric == "throughput" else float(row["value"])


def napkin_quoted(benchmark: str, metric: str = "throughput", machine: str = NAPKIN_MACHINE) -> str:
    """napkin-math's cell as its README prints it ('500 MiB/s'); 'n/a' when it has none."""
    frame = reference.load("napkin_math").filter(
        (pl.col("benchmark") == benchmark) & (pl.col("metric") == metric) & (pl.col("machine") == machine)
    )
    return " ".join(str(frame["quoted"][0]).split()) if frame.height else fmt.NA


# ---- compression ---------------------------------------------------------------------------------


def compress_summary(metrics: pl.DataFrame) -> pl.DataFrame:
    """Medians and intervals per (codec, level, input, block)."""
    return stats.summarize(metrics, ["codec", "level", "input", "block"])


def speed_table(summary: pl.DataFrame, input_name: str, block: int) -> pl.DataFrame:
    """One row per codec and level on one input and block size: compression and
    decompression MB/s (medians) and the ratio; null where it could not run."""
    rows = []
    cases = summary.filter((pl.col("input") == input_name) & (pl.col("block") == block))
    for codec, level in cases.select("codec", "level").unique(maintain_order=True).iter_rows():
        where = {"codec": codec, "level": level, "input": input_name, "block": block}
        rows.append({
            "codec": label(codec, level),
            "compress MB/s": stats.pick(summary, "compress_mb_per_s", **where),
            "decompress MB/s": stats.pick(summary, "decompress_mb_per_s", **where),
            "ratio": stats.pick(summary, "ratio", **where),
        })  # fmt: skip
    schema = {"codec": pl.String, "compress MB/s": pl.Float64, "decompress MB/s": pl.Float64, "ratio": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def ratio_table(summary: pl.DataFrame, block: int) -> pl.DataFrame:
    """The ratio of every codec and level (rows) on every input (columns), one block size."""
    part = summary.filter((pl.col("metric") == "ratio") & (pl.col("block") == block))
    if part.height == 0:
        return pl.DataFrame(schema={"codec": pl.String})
    part = part.with_columns(
        codec=pl.struct("codec", "level").map_elements(lambda r: label(r["codec"], r["level"]), return_dtype=pl.String)
    )
    return part.pivot(on="input", index="codec", values="median")


def frontier(points: Sequence[tuple[str, float, float]]) -> list[str]:
    """The names of the (name, speed, ratio) points no other point beats on both speed and
    ratio, fastest first: the speed-against-ratio frontier."""
    for p in points:
        if len(p) != 3 or not (p[1] > 0 and p[2] > 0):
            raise ValueError(f"each point is (name, speed > 0, ratio > 0), got {p!r}")
    kept = [
        p
        for p in points
        if not any(q[1] >= p[1] and q[2] >= p[2] and q != p and (q[1] > p[1] or q[2] > p[2]) for q in points)
    ]
    return [p[0] for p in sorted(kept, key=lambda p: -p[1])]


def chart_frame(summary: pl.DataFrame, block: int) -> pl.DataFrame:
    """Compression MB/s and ratio per codec, level and input (one block size), with
    whether the point is on its input's frontier."""
    wide = summary.filter((pl.col("block") == block) & pl.col("metric").is_in(["compress_mb_per_s", "ratio"])).pivot(
        on="metric", index=["codec", "level", "input"], values="median"
    )
    if not {"compress_mb_per_s", "ratio"} <= set(wide.columns):
        return pl.DataFrame(schema={"codec": pl.String, "input": pl.String, "MB/s": pl.Float64, "ratio": pl.Float64,
                                    "frontier": pl.Boolean, "library": pl.String})  # fmt: skip
    wide = (
        wide.drop_nulls(["compress_mb_per_s", "ratio"])
        .with_columns(
            library=pl.col("codec").replace_strict(CODEC_NAMES, return_dtype=pl.String),
            codec=pl.struct("codec", "level").map_elements(
                lambda r: label(r["codec"], r["level"]), return_dtype=pl.String
            ),
        )
        .rename({"compress_mb_per_s": "MB/s"})
    )
    on = set()
    for name, part in wide.group_by("input"):
        on |= {(name[0], c) for c in frontier(list(part.select("codec", "MB/s", "ratio").iter_rows()))}
    return wide.with_columns(
        frontier=pl.struct("input", "codec").map_elements(
            lambda r: (r["input"], r["codec"]) in on, return_dtype=pl.Boolean
        )
    )


def cost_per_ratio_step(metrics: pl.DataFrame, input_name: str, block: int) -> Estimate | None:
    """How many times slower compression gets for each further 1× of ratio on one input:
    per repetition, a least-squares line through log10(compression MB/s) against ratio over
    the frontier's codecs (chosen by the medians), 10^-slope; the median over repetitions
    with its interval. None with fewer than two frontier points or a flat ratio."""
    summary = compress_summary(metrics)
    frame = chart_frame(summary, block).filter((pl.col("input") == input_name) & pl.col("frontier"))
    if frame.height < 2 or float(frame["ratio"].max() - frame["ratio"].min()) < 0.2:  # type: ignore[operator]
        return None
    chosen = set(frame["codec"].to_list())
    rows = metrics.filter(
        (pl.col("input") == input_name) & (pl.col("block") == block)
        & pl.col("metric").is_in(["compress_mb_per_s", "ratio"])
    ).with_columns(
        codec=pl.struct("codec", "level").map_elements(lambda r: label(r["codec"], r["level"]), return_dtype=pl.String)
    ).filter(pl.col("codec").is_in(chosen))  # fmt: skip
    wide = rows.pivot(on="metric", index=["codec", "repetition"], values="value").drop_nulls()
    factors = []
    for _, part in wide.group_by("repetition"):
        if part.height >= 2:
            slope = np.polyfit(part["ratio"].to_numpy(), np.log10(part["compress_mb_per_s"].to_numpy()), 1)[0]
            factors.append(float(10 ** (-slope)))
    if not factors:
        return None
    lo, hi, level = stats.median_interval(factors)
    return Estimate(float(np.median(factors)), lo, hi, len(factors), level)


def rule_sentence(factor: Estimate | None, napkin_factor: float | None) -> str:
    """Whether napkin-math's rule of thumb (each further 1× of ratio costs about 10× speed)
    holds here, from the interval of the measured factor."""
    if factor is None:
        return "This machine's frontier has too few codecs, or too narrow a range of ratios, to test the rule of thumb."
    measured = f"{fmt.ratio(factor.median)} ({fmt.num(factor.lo, 2)}–{fmt.ratio(factor.hi)} over the rounds)"
    if napkin_factor is None:
        return f"Here each further 1× of ratio costs {measured} of compression speed."
    c = claims.compare(factor, Estimate.exact(napkin_factor), same=2.0)
    if c.direction == claims.SAME_WORD:
        verdict = f"within a factor of two of napkin-math's {fmt.ratio(napkin_factor)}: the rule holds here"
    elif c.direction == claims.HIGHER:
        verdict = (
            f"steeper than napkin-math's {fmt.ratio(napkin_factor)}: ratio costs more speed here than the rule says"
        )
    elif c.direction == claims.LOWER:
        verdict = (
            f"gentler than napkin-math's {fmt.ratio(napkin_factor)}: ratio costs less speed here than the rule says"
        )
    else:
        verdict = (
            f"not clearly steeper or gentler than napkin-math's {fmt.ratio(napkin_factor)} (the rounds overlap it)"
        )
    return f"Along this machine's frontier each further 1× of ratio costs {measured} of compression speed, {verdict}."


def blocks_sentence(summary: pl.DataFrame, codec: str, level: int, input_name: str, block: int) -> str:
    """What independent blocks of `block` bytes cost in ratio against one whole buffer."""
    where = {"codec": codec, "level": level, "input": input_name}
    blocks = stats.estimate(summary, "ratio", block=block, **where)
    whole = stats.estimate(summary, "ratio", block=0, **where)
    if blocks is None or whole is None:
        return f"{label(codec, level)} did not run here, so blocks and one buffer are not compared."
    c = claims.compare(whole, blocks, same=1.02)
    name = f"{label(codec, level)} on the {input_name} input"
    if c.direction == claims.HIGHER:
        return (
            f"Cutting the input into {fmt.size(block)} blocks costs ratio: {name} reaches {fmt.num(whole.median)}× "
            f"as one buffer and {fmt.num(blocks.median)}× in blocks (each block starts with an empty history)."
        )
    if c.direction == claims.LOWER:
        return (
            f"{name} reaches a higher ratio in {fmt.size(block)} blocks ({fmt.num(blocks.median)}×) than as one "
            f"buffer ({fmt.num(whole.median)}×): the library picks its parameters by the input's size, and those "
            "it picks for small inputs find more here."
        )
    return (f"{fmt.size(block)} blocks cost {name} almost nothing in ratio ({fmt.num(blocks.median)}× against "
            f"{fmt.num(whole.median)}× as one buffer): its matches are mostly near each other.")  # fmt: skip


# ---- cross-check ---------------------------------------------------------------------------------


def versus_table(metrics: pl.DataFrame, tool: str, metric: str) -> pl.DataFrame:
    """Ours beside `tool` (zstd or lz4) per codec, level and input, for one metric."""
    table = general.side_by_side(metrics, ["codec", "level", "input"], metric, unit="MB/s", tool=tool)
    return table.with_columns(
        codec=pl.struct("codec", "level").map_elements(lambda r: label(r["codec"], r["level"]), return_dtype=pl.String)
    ).drop("level")


#: The cross-check's goal: at least this share of the tool's speed at the same level.
GOAL = 0.9


def goal_sentence(metrics: pl.DataFrame, tool: str, goal: float = GOAL) -> str:
    """Whether every case and direction reaches `goal` × the tool's speed, from the interval
    of the per-round ratios ours / tool: met (the interval's low end at or above it), missed
    (its high end below it), or not decided by the rounds."""
    if not 0 < goal <= 1:
        raise ValueError(f"goal must be a share in (0, 1], got {goal}")
    met, missed, open_ = [], [], []
    for metric, direction in (("compress_mb_per_s", "compressing"), ("decompress_mb_per_s", "decompressing")):
        rows = metrics.filter(pl.col("metric") == metric) if metrics.height else metrics
        if rows.height == 0 or not {"howfast", tool} <= set(rows["tool"].unique().to_list()):
            continue
        wide = rows.pivot(on="tool", index=["codec", "level", "input", "repetition"], values="value")
        wide = wide.with_columns(r=pl.col("howfast") / pl.col(tool)).drop_nulls("r")
        for (codec, level, input_name), part in wide.group_by(["codec", "level", "input"], maintain_order=True):
            e = general.ratio_estimate(part["r"].to_list())
            what = f"{label(str(codec), int(level))} {direction} the {input_name} input"  # type: ignore[arg-type]
            (met if e.lo >= goal else missed if e.hi < goal else open_).append(what)
    if not (met or missed or open_):
        return f"The comparison with {tool} could not run here."

    def both(items: list[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    def verb(items: list[str], one: str, many: str) -> str:
        return one if len(items) == 1 else many

    parts = []
    if met:
        parts.append(f"{both(met)} {verb(met, 'reaches', 'reach')} at least {fmt.num(goal)} of {tool}'s speed")
    if missed:
        parts.append(f"{both(missed)} {verb(missed, 'falls', 'fall')} short of {fmt.num(goal)} of it")
    if open_:
        parts.append(f"{both(open_)} cannot be told from {fmt.num(goal)} of it over these rounds")
    return "Against that goal, " + "; ".join(parts) + "."


# ---- sorting -------------------------------------------------------------------------------------


def sort_table(native: pl.DataFrame, python: pl.DataFrame, n: int) -> pl.DataFrame:
    """MB/s and ns per element of every sort (rows) on every order, `n` elements."""
    parts = []
    for frame, key in ((native, "algorithm"), (python, "library")):
        if frame.height == 0:
            continue
        s = stats.summarize(frame.filter(pl.col("n") == n), [key, "order"]).rename({key: "sort"})
        parts.append(s.select("sort", "order", "metric", "median"))
    if not parts:
        return pl.DataFrame(schema={"sort": pl.String})
    long = pl.concat(parts).filter(pl.col("metric") == "mb_per_s")
    wide = long.pivot(on="order", index="sort", values="median")
    wide = wide.rename({o: ORDER_NAMES[o] for o in wide.columns if o in ORDER_NAMES})
    return wide.with_columns(pl.col("sort").replace_strict(SORT_NAMES, return_dtype=pl.String))


def sort_bars(native: pl.DataFrame, python: pl.DataFrame, n: int) -> pl.DataFrame:
    """Median, min and max MB/s per sort and order, for ``charts.grouped_bars``."""
    parts = []
    for frame, key in ((native, "algorithm"), (python, "library")):
        part = frame.filter((pl.col("n") == n) & (pl.col("metric") == "mb_per_s")) if frame.height else frame
        if part.height:
            s = stats.summarize(part, [key, "order"]).rename({key: "sort"})
            parts.append(s.select("sort", "order", "median", "min", "max"))
    if not parts:
        return pl.DataFrame(schema={"sort": pl.String, "order": pl.String, "median": pl.Float64, "min": pl.Float64,
                                    "max": pl.Float64})  # fmt: skip
    return pl.concat(parts).with_columns(
        pl.col("sort").replace_strict(SORT_NAMES, return_dtype=pl.String),
        pl.col("order").replace_strict(ORDER_NAMES, return_dtype=pl.String),
    )


def order_sentence(native: pl.DataFrame, algorithm: str, n: int) -> str:
    """How much a native sort's speed depends on the order of its input."""
    part = native.filter((pl.col("n") == n) & (pl.col("algorithm") == algorithm) & (pl.col("metric") == "mb_per_s"))
    name = SORT_NAMES.get(algorithm, algorithm)
    if part.height == 0:
        return f"{name} did not run here."
    medians = stats.summarize(part, ["order"]).sort("median")
    slow, fast = medians.row(0, named=True), medians.row(-1, named=True)
    spread = fast["median"] / slow["median"]
    if spread <= 1.5:
        return f"{name} runs within {fmt.num(spread, 2)}× of the same speed on every order."
    return (f"{name}'s speed depends on the order: {fmt.num(spread, 2)}× between "
            f"{ORDER_NAMES[str(slow['order'])]} ({fmt.num(slow['median'])} MB/s) and "
            f"{ORDER_NAMES[str(fast['order'])]} ({fmt.num(fast['median'])} MB/s).")  # fmt: skip


def sort_estimate(
    native: pl.DataFrame, algorithm: str, order: str, n: int, metric: str = "mb_per_s"
) -> Estimate | None:
    """One native sort's figure with its interval; None when it did not run."""
    part = native.filter(pl.col("n") == n)
    if part.height == 0:
        return None
    return stats.estimate(stats.summarize(part, ["algorithm", "order"]), metric, algorithm=algorithm, order=order)


def versus_napkin(ours: Estimate | None, figure: float | None, what: str) -> str:
    """'std::sort of random integers runs at 160 MB/s, 1.3× slower than napkin-math's 210 MB/s'."""
    if ours is None:
        return f"{what} did not run here."
    if figure is None:
        return f"{what} runs at {fmt.num(ours.median)} MB/s; napkin-math has no such row."
    c = claims.compare(ours, Estimate.exact(figure))
    words = claims.phrase(c, more="faster", less="slower")
    if c.direction in (claims.HIGHER, claims.LOWER) and c.ratio is not None and 1 / 1.5 < c.ratio < 1.5:
        times = c.ratio if c.direction == claims.HIGHER else 1 / c.ratio
        words = f"{fmt.num(times, 3)}× {'faster' if c.direction == claims.HIGHER else 'slower'} than"
    return (f"{what} runs at {fmt.num(ours.median)} MB/s ({fmt.num(ours.lo)}–{fmt.num(ours.hi)}), "
            f"{words} napkin-math's {fmt.num(figure)} MB/s.")  # fmt: skip


# ---- serialization ------------------------------------------------------------------------------

SERIAL_NAMES = {
    "simdjson": "simdjson (C++)",
    "rapidjson": "RapidJSON (C++)",
    "binary": "length-prefixed dump (C++)",
    "json": "json (Python)",
    "orjson": "orjson (Python)",
    "msgspec": "msgspec JSON (Python)",
    "msgpack": "msgspec MessagePack (Python)",
}
OPERATION_NAMES = {"parse": "parse", "write": "write", "read": "read back"}


def serial_table(native: pl.DataFrame, python: pl.DataFrame) -> pl.DataFrame:
    """One row per library and operation: MB/s of text or dump, records/s and bytes per
    record (medians over the repetitions)."""
    parts = [f for f in (native, python) if f.height]
    schema = {"library": pl.String, "operation": pl.String, "MB/s": pl.Float64, "records/s": pl.Float64,
              "bytes per record": pl.Float64}  # fmt: skip
    if not parts:
        return pl.DataFrame(schema=schema)
    summary = stats.summarize(pl.concat(parts, how="diagonal"), ["library", "operation"])
    rows = []
    for library, operation in summary.select("library", "operation").unique(maintain_order=True).iter_rows():
        where = {"library": library, "operation": operation}
        rows.append({
            "library": SERIAL_NAMES.get(library, library), "operation": OPERATION_NAMES.get(operation, operation),
            "MB/s": stats.pick(summary, "mb_per_s", **where),
            "records/s": stats.pick(summary, "records_per_s", **where),
            "bytes per record": stats.pick(summary, "bytes_per_record", **where),
        })  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def serial_estimate(frame: pl.DataFrame, library: str, operation: str, metric: str = "mb_per_s") -> Estimate | None:
    """One serialization case's figure with its interval; None when it did not run."""
    if (
        frame.height == 0
        or frame.filter((pl.col("library") == library) & (pl.col("operation") == operation)).height == 0
    ):
        return None
    return stats.estimate(
        stats.summarize(frame, ["library", "operation"]), metric, library=library, operation=operation
    )


# ---- what it means for a design ---------------------------------------------------------------


def breakeven_mb_per_s(compress_mb_per_s: float, ratio: float) -> float:
    """The link or disk speed below which compressing first (then sending the smaller
    bytes, one after the other) is faster than sending raw: C × (1 − 1/ratio)."""
    if not compress_mb_per_s > 0 or not ratio > 0:
        raise ValueError(f"compress_mb_per_s and ratio must be positive, got {compress_mb_per_s}, {ratio}")
    return compress_mb_per_s * max(0.0, 1 - 1 / ratio)


def pays_sentence(
    compress_mb_per_s: float | None, ratio: float | None, bandwidth_mb_per_s: float | None, link: str
) -> str:
    """Whether compressing before `link` (measured at `bandwidth_mb_per_s`) saves time."""
    if compress_mb_per_s is None or ratio is None:
        return f"The codec did not run here, so whether it pays before {link} is not known."
    if bandwidth_mb_per_s is None:
        return f"{link[0].upper() + link[1:]} has no stored measurement on this machine, so it is not compared."
    edge = breakeven_mb_per_s(compress_mb_per_s, ratio)
    if ratio <= 1:
        return f"The input does not shrink, so compressing before {link} never pays."
    if bandwidth_mb_per_s < edge:
        return (
            f"Compressing pays before {link}: at {fmt.num(bandwidth_mb_per_s)} MB/s it is slower than the "
            f"{fmt.num(edge)} MB/s below which compressing first saves time."
        )
    return (f"Compressing does not pay for speed before {link}: at {fmt.num(bandwidth_mb_per_s)} MB/s it is faster "
            f"than the {fmt.num(edge)} MB/s below which compressing first saves time "
            "(it may still pay in bytes stored).")  # fmt: skip


#: The registry's quantities a link speed is read from, and the factor to MB/s.
LINKS = {"tcp": ("tcp", 125.0), "disk": ("seq_write", 1.0)}


def link_speeds() -> dict[str, float | None]:
    """This machine's measured TCP stream and durable sequential write in MB/s, read from
    their stored sets (the networks and storing-data chapters) where those exist; never
    measured from here (None when not stored)."""
    from .. import headlines, store

    out: dict[str, float | None] = {}
    for key, (quantity, factor) in LINKS.items():
        q = headlines.get(quantity)
        try:
            found = q.read(store.load(q.subject))
        except (store.MissingResults, KeyError):
            found = None
        out[key] = None if found is None else found.median * factor
    return out


def log_cost(size_bytes: float, compress_mb_per_s: float | None, ratio: float | None) -> dict[str, float | None]:
    """A log of `size_bytes`: seconds to compress it on one core and the bytes left to ship."""
    if not size_bytes > 0:
        raise ValueError(f"size_bytes must be positive, got {size_bytes}")
    if compress_mb_per_s is None or ratio is None or not compress_mb_per_s > 0 or not ratio > 0:
        return {"seconds": None, "shipped": None}
    return {"seconds": size_bytes / (compress_mb_per_s * 1e6), "shipped": size_bytes / ratio}


def seconds_words(s: float | None) -> str:
    """A duration in seconds as words: '0.52 s', '3.1 minutes'."""
    if s is None:
        return fmt.NA
    if not math.isfinite(s) or s < 0:
        raise ValueError(f"s must be a finite duration, got {s!r}")
    return f"{fmt.num(s / 60, 2)} minutes" if s >= 120 else f"{fmt.num(s, 2)} s"


def inputs_described() -> pl.DataFrame:
    return pl.DataFrame({"input": list(experiments.INPUTS), "what it is": list(experiments.INPUTS.values())})


# every public function above refuses bad arguments with a clear exception
checked(globals())
