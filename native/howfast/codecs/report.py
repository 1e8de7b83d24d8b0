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

from .. import claims, fmt, reference, stats, tables
from .. import crosscheck as general
from ..checks import checked
from ..stats import Estimate
from . import experiments
from .plan import Plan

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "compress": "compression",
    "sort": "sorting",
    "python_sort": "Python sorting",
    "serial": "serialization",
    "python_serial": "Python serialization",
    "vs_zstd": "zstd -b cross-check",
    "vs_lz4": "lz4 -b cross-check",
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


def speed_table(summary: pl.DataFrame, input_name: str, block: int, target: float | None = None) -> pl.DataFrame:
    """One row per codec and level on one input and block size: compression and
    decompression MB/s, each the median with its interval (marked where it stayed wider
    than ±`target`), the ratio (the same in every run: no interval) and the run count, which
    all three share (one measurement gives them); n/a where the codec could not run."""
    rows = []
    cases = summary.filter((pl.col("input") == input_name) & (pl.col("block") == block))
    for codec, level in cases.select("codec", "level").unique(maintain_order=True).iter_rows():
        where = {"codec": codec, "level": level, "input": input_name, "block": block}
        speed = stats.estimate(summary, "compress_mb_per_s", **where)
        back = stats.estimate(summary, "decompress_mb_per_s", **where)
        rows.append({
            "codec": label(codec, level),
            "compress MB/s": tables.figure(speed, target, runs=False),
            "decompress MB/s": tables.figure(back, target, runs=False),
            "ratio": stats.pick(summary, "ratio", **where),
            "runs": None if speed is None else speed.runs,
        })  # fmt: skip
    schema = {"codec": pl.String, "compress MB/s": pl.String, "decompress MB/s": pl.String, "ratio": pl.Float64,
              "runs": pl.Int64}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def ratio_table(summary: pl.DataFrame, block: int) -> pl.DataFrame:
    """The ratio of every codec and level (rows) on every input (columns), one block size,
    as text: the ratio (the same in every run), or 'not run' where this profile did not
    run that codec on that input (the slowest levels run on fewer inputs) or the codec
    could not run here."""
    cases = summary.filter(pl.col("block") == block)
    part = cases.filter((pl.col("metric") == "ratio") & pl.col("median").is_not_null())
    if cases.height == 0:
        return pl.DataFrame(schema={"codec": pl.String})
    named = pl.struct("codec", "level").map_elements(lambda r: label(r["codec"], r["level"]), return_dtype=pl.String)
    # every codec and level with a case at this block size gets a row, one that could not run too
    rows = cases.select("codec", "level").unique(maintain_order=True).select(codec=named)
    inputs = cases["input"].unique(maintain_order=True).to_list()
    if part.height:
        part = part.with_columns(codec=named, shown=pl.col("median").map_elements(fmt.num, return_dtype=pl.String))
        wide = part.pivot(on="input", index="codec", values="shown")
        rows = rows.join(wide, on="codec", how="left", maintain_order="left")
    rows = rows.with_columns(pl.lit(None, dtype=pl.String).alias(i) for i in inputs if i not in rows.columns)
    return rows.select("codec", *inputs).with_columns(pl.col(i).fill_null(NOT_RUN) for i in inputs)


#: A cell of a codec the profile did not run on an input (or that could not run here).
NOT_RUN = "not run"


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
    """Compression MB/s (the median, ``lo``–``hi`` the interval of that median, ``runs``)
    and ratio per codec, level and input (one block size), with whether the point is on
    its input's frontier (chosen by the medians)."""
    part = summary.filter((pl.col("block") == block) & pl.col("metric").is_in(["compress_mb_per_s", "ratio"]))
    wide = part.pivot(on="metric", index=["codec", "level", "input"], values="median")
    if not {"compress_mb_per_s", "ratio"} <= set(wide.columns):
        return pl.DataFrame(schema={"codec": pl.String, "input": pl.String, "MB/s": pl.Float64, "ratio": pl.Float64,
                                    "frontier": pl.Boolean, "library": pl.String, "lo": pl.Float64,
                                    "hi": pl.Float64, "runs": pl.Int64})  # fmt: skip
    bounds = part.filter(pl.col("metric") == "compress_mb_per_s").select(
        "codec", "level", "input", "lo", "hi", pl.col("repetitions").cast(pl.Int64).alias("runs")
    )
    wide = (
        wide.join(bounds, on=["codec", "level", "input"], how="left", maintain_order="left")
        .drop_nulls(["compress_mb_per_s", "ratio"])
        .with_columns(
            library=pl.col("codec").replace_strict(CODEC_NAMES, return_dtype=pl.String),
            codec=pl.struct("codec", "level").map_elements(
                lambda r: label(r["codec"], r["level"]), return_dtype=pl.String
            ),
        )
        .rename({"compress_mb_per_s": "MB/s"})
    )
    on = set()
    for name, group in wide.group_by("input"):
        on |= {(name[0], c) for c in frontier(list(group.select("codec", "MB/s", "ratio").iter_rows()))}
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


#: napkin-math's rule of thumb holds where the measured factor lies within this factor of its figure.
RULE_ROOM = 2.0


def rule_verdict(factor: Estimate, napkin_factor: float) -> str:
    """How the measured cost of a further 1× of ratio (`factor`, a median with its interval)
    stands to napkin-math's `napkin_factor`, allowing the rule its factor of two
    (``RULE_ROOM``): 'steeper' where the whole interval lies above twice the figure,
    'gentler' where it lies below half of it, 'holds' where it lies within both, else
    'unclear'."""
    if not napkin_factor > 0:
        raise ValueError(f"napkin_factor must be positive, got {napkin_factor}")
    if factor.lo > RULE_ROOM * napkin_factor:
        return "steeper"
    if factor.hi < napkin_factor / RULE_ROOM:
        return "gentler"
    if napkin_factor / RULE_ROOM <= factor.lo and factor.hi <= RULE_ROOM * napkin_factor:
        return "holds"
    return "unclear"


def rule_sentence(factor: Estimate | None, napkin_factor: float | None, on: str = "") -> str:
    """Whether napkin-math's rule of thumb (each further 1× of ratio costs about 10× speed)
    holds here, from the interval of the measured factor (``rule_verdict``); `on` names the
    input the frontier was read on ('the book's sources, each codec on one buffer')."""
    if factor is None:
        return "This machine's frontier has too few codecs, or too narrow a range of ratios, to test the rule of thumb."
    measured = f"{fmt.factor(factor.median)}× ({claims.ratio_interval(factor, median=False)} over the rounds)"
    if napkin_factor is None:
        return f"Here each further 1× of ratio costs {measured} of compression speed."
    theirs = f"napkin-math's {fmt.ratio(napkin_factor)}"
    verdict = {
        "holds": f"within a factor of two of {theirs}: the rule holds here",
        "steeper": f"steeper than {theirs} by more than a factor of two: ratio costs more speed here than the rule "
        "says",
        "gentler": f"gentler than {theirs} by more than a factor of two: ratio costs less speed here than the rule "
        "says",
        "unclear": f"not clearly within a factor of two of {theirs} nor clearly beyond it (the rounds reach across "
        "a factor of two)",
    }[rule_verdict(factor, napkin_factor)]
    where = f" on {on}," if on else ""
    return (
        f"Along this machine's frontier{where} each further 1× of ratio costs {measured} of compression speed, "
        f"{verdict}."
    )


def levels_sentence(
    slow: Estimate | None, fast: Estimate | None, codec: str, levels: tuple[int, int], what: str, single: bool = False
) -> str:
    """How much slower `codec` compresses `what` at its higher level than at its lower one
    (`levels`: higher, lower), in words the two intervals allow; 'shows the trade inside one
    library' only where the higher level is clearly slower: 'zstd shows the trade inside
    one library: at level 19 it compresses the book's sources 98× slower than at level 1
    (80–120×).' `single`: the higher level's figure was one pass (``one_pass_runs``)."""
    high, low = levels
    c = claims.compare(slow, fast)
    if c.direction == claims.MISSING:
        return f"{codec} did not run at both level {high} and level {low} here, so its levels are not compared."
    said = claims.versus(c, f"at level {low}", more="faster", less="slower", same="about as fast as", span=True)
    one = f"; its figure at level {high} is one pass, with no slices to pick the fastest from" if single else ""
    if c.direction == claims.LOWER:
        return f"{codec} shows the trade inside one library: at level {high} it compresses {what} {said}{one}."
    tail = {
        claims.HIGHER: ", which this run cannot explain",
        claims.SAME_WORD: ": no trade of speed for ratio shows here",
        claims.UNCLEAR: ": this run cannot say what the higher level costs in speed",
    }[c.direction]
    return f"At level {high} {codec} compresses {what} {said}{tail}{one}."


def _ranked(summary: pl.DataFrame, input_name: str, block: int, metric: str) -> list[tuple[str, int]]:
    """Every (codec, level) with a median `metric` on `input_name` in blocks of `block`
    bytes, the highest median first."""
    rows = summary.filter(
        (pl.col("input") == input_name)
        & (pl.col("block") == block)
        & (pl.col("metric") == metric)
        & pl.col("median").is_not_null()
    ).sort("median", descending=True)
    return [(str(r["codec"]), int(r["level"])) for r in rows.iter_rows(named=True)]


def fastest_codec(
    summary: pl.DataFrame, input_name: str, block: int, metric: str = "compress_mb_per_s"
) -> tuple[tuple[str, int] | None, tuple[str, int] | None]:
    """The (codec, level) with the highest median `metric` on `input_name` in blocks of
    `block` bytes (0: one buffer), and the runner-up by the medians; None for each that
    did not run (``fastest_sentence`` says whether the first is clearly ahead)."""
    found = _ranked(summary, input_name, block, metric)
    return (found[0] if found else None), (found[1] if len(found) > 1 else None)


def fastest_sentence(summary: pl.DataFrame, input_name: str, block: int, what: str) -> str:
    """Which codec compressed `what` fastest, from the medians, tested against every other
    codec with ``claims.compare``: 'The fastest codec on the book's sources was lz4, at
    …, 1.6× faster than snappy (1.4–1.8×).' only where it is clearly ahead of them all
    (the runner-up by the medians named); otherwise 'by the medians', naming each codec
    whose interval it does not clear."""
    ranked = _ranked(summary, input_name, block, "compress_mb_per_s")
    if not ranked:
        return f"No codec could compress {what} here."
    where = {"input": input_name, "block": block}
    figures = [stats.estimate(summary, "compress_mb_per_s", codec=c, level=lv, **where) for c, lv in ranked]
    top, first = ranked[0], figures[0]
    if len(ranked) == 1:
        return f"Only {label(*top)} compressed {what} here, at {quoted(first)}."
    against = [claims.compare(first, other) for other in figures[1:]]
    if all(c.direction == claims.HIGHER for c in against):
        said = claims.versus(against[0], label(*ranked[1]), **claims.RATE_WORDS, span=True)
        return f"The fastest codec compressing {what} was {label(*top)}, at {quoted(first)}, {said}."
    near = [
        f"{label(*key)}, at {quoted(other)}"
        for key, other, c in zip(ranked[1:], figures[1:], against, strict=True)
        if c.direction != claims.HIGHER
    ]
    return (
        f"The fastest codec compressing {what} by the medians was {label(*top)}, at {quoted(first)}, not clearly "
        f"ahead of {fmt.listed(near)}: the intervals overlap."
    )


#: Blocks and one buffer compress 'about the same' when their ratios lie within this factor.
BLOCKS_SAME = 1.02


def blocks_sentence(summary: pl.DataFrame, codec: str, level: int, input_name: str, block: int) -> str:
    """What independent blocks of `block` bytes cost in ratio against one whole buffer. A
    ratio is the same in every run (its interval is a point), so the verdict comes from
    r = whole / blocks against a band: within ``BLOCKS_SAME`` either way 'almost nothing',
    above it 'costs ratio', below it a higher ratio in blocks, which this run cannot explain."""
    where = {"codec": codec, "level": level, "input": input_name}
    blocks = stats.estimate(summary, "ratio", block=block, **where)
    whole = stats.estimate(summary, "ratio", block=0, **where)
    if blocks is None or whole is None or not blocks.median > 0:
        return f"{label(codec, level)} did not run here, so blocks and one buffer are not compared."
    r = whole.median / blocks.median
    name = f"{label(codec, level)} on the {input_name} input"
    both = f"{fmt.num(blocks.median)}× in blocks against {fmt.num(whole.median)}× as one buffer"
    if 1 / BLOCKS_SAME <= r <= BLOCKS_SAME:
        return (
            f"{fmt.size(block)} blocks cost {name} almost nothing in ratio ({both}): its matches may lie mostly "
            "near each other."
        )
    if r > BLOCKS_SAME:
        return (
            f"Cutting the input into {fmt.size(block)} blocks costs ratio: {name} reaches {fmt.num(whole.median)}× "
            f"as one buffer and {fmt.num(blocks.median)}× in blocks (each block starts with an empty history)."
        )
    return (
        f"{name} reaches a higher ratio in {fmt.size(block)} blocks ({fmt.num(blocks.median)}×) than as one "
        f"buffer ({fmt.num(whole.median)}×); this run cannot say why."
    )


# ---- cross-check ---------------------------------------------------------------------------------


def versus_table(metrics: pl.DataFrame, tool: str, metric: str) -> pl.DataFrame:
    """Ours beside `tool` (zstd or lz4) per codec, level and input, for one metric."""
    table = general.side_by_side(metrics, ["codec", "level", "input"], metric, unit="MB/s", tool=tool)
    return table.with_columns(
        codec=pl.struct("codec", "level").map_elements(lambda r: label(r["codec"], r["level"]), return_dtype=pl.String)
    ).drop("level")


#: The cross-check's goal: at least this share of the tool's speed at the same level.
GOAL = 0.9


#: The directions of a cross-check as a reader reads them.
DIRECTIONS = {"compress_mb_per_s": "compress", "decompress_mb_per_s": "decompress"}


#: Ours and a tool did the same work when their compression ratios lie within this share of each other.
SAME_WORK = 0.01


def work_apart(metrics: pl.DataFrame, tool: str) -> dict[tuple[str, int, str], tuple[float, float]]:
    """The cases (codec, level, input) of a cross-check's `metrics` where ours and `tool`
    did not do the same work: the median compression ratios the two sides stored differ
    by more than ``SAME_WORK``, so their compressed sizes differ and their speeds do not
    compare. Each maps to both medians (ours, the tool's). A case where either side stored
    no ratio is not in it (nothing shows the work differed). The one 'same work?' rule of
    the cross-check's table and of its sentences."""
    if metrics.height == 0 or not {"tool", "metric", "value"} <= set(metrics.columns):
        return {}
    ratios = metrics.filter(pl.col("metric") == "ratio")
    if ratios.height == 0:
        return {}
    apart: dict[tuple[str, int, str], tuple[float, float]] = {}
    summary = stats.summarize(ratios, ["codec", "level", "input", "tool"])
    for (codec, level, input_name), part in summary.group_by(["codec", "level", "input"], maintain_order=True):
        medians = {row["tool"]: row["median"] for row in part.iter_rows(named=True)}
        ours, theirs = medians.get("howfast"), medians.get(tool)
        if ours is not None and theirs is not None and theirs > 0 and abs(ours / theirs - 1) > SAME_WORK:
            apart[(str(codec), int(level), str(input_name))] = (float(ours), float(theirs))  # type: ignore[call-overload]
    return apart


def _apart_verdict(pair: tuple[float, float], tool: str) -> str:
    """A row's verdict where the two sides did not do the same work (``work_apart``)."""
    return f"not the same work: ratio {fmt.num(pair[0])}× here, {fmt.num(pair[1])}× in {tool}"


def _apart_why() -> str:
    """Why the sentences leave a case out (``work_apart``), as one clause."""
    return f"not the same work (the two compression ratios lie more than {fmt.share(SAME_WORK)} apart)"


def crosscheck_table(runs: dict[str, pl.DataFrame], target: float | None = None) -> pl.DataFrame:
    """Ours beside each tool (`runs`: tool name -> its cross-check's metrics) per codec,
    level, input and direction: each side's median MB/s with its interval (marked where it
    stayed wider than ±`target`), the median of the per-round ratios ours / tool with the
    interval of that median, the rounds that ran both, and the verdict that interval
    supports (``claims.crosscheck``); where the two sides' compression ratios (stored per
    run) differ by more than ``SAME_WORK``, the verdict is 'not the same work' instead,
    with both ratios: their compressed sizes differ, so their speeds do not compare. A
    tool that could not run gives no rows."""
    for tool, metrics in runs.items():
        if not isinstance(tool, str) or not isinstance(metrics, pl.DataFrame):
            raise TypeError(f"crosscheck_table(): runs maps a tool's name to its metrics (a DataFrame), got {tool!r}")
    by = ["codec", "level", "input"]
    rows = []
    for tool, metrics in runs.items():
        if metrics.height == 0 or "tool" not in metrics.columns:
            continue
        summary = stats.summarize(metrics, [*by, "tool"])
        apart = work_apart(metrics, tool)
        for metric, direction in DIRECTIONS.items():
            ratios = general.round_ratios(metrics, by, metric, theirs=tool)
            for key, part in ratios.group_by(by, maintain_order=True):
                where = dict(zip(by, key))
                ratio = general.ratio_estimate(part["r"].to_list())
                sides = [_side(summary, who, metric, where) for who in ("howfast", tool)]
                codec = label(str(where["codec"]), int(where["level"]))  # type: ignore[call-overload]
                pair = apart.get((str(where["codec"]), int(where["level"]), str(where["input"])))  # type: ignore[call-overload]
                verdict = claims.crosscheck(ratio).outcome if pair is None else _apart_verdict(pair, tool)
                rows.append({
                    "case": f"{codec}, {where['input']}, {direction}",
                    "howfast MB/s": tables.figure(sides[0], target, runs=False),
                    "tool MB/s": tables.figure(sides[1], target, runs=False),
                    "per-round ratio": claims.ratio_interval(ratio),
                    "rounds": ratio.runs, "verdict": verdict,
                })  # fmt: skip
    schema = {c: pl.String for c in ("case", "howfast MB/s", "tool MB/s", "per-round ratio")}
    schema |= {"rounds": pl.Int64, "verdict": pl.String}
    return pl.DataFrame(rows, schema=schema)


def _side(summary: pl.DataFrame, tool: str, metric: str, where: dict[str, object]) -> Estimate | None:
    rows = summary.filter((pl.col("tool") == tool) & (pl.col("metric") == metric))
    for key, value in where.items():
        rows = rows.filter(pl.col(key) == value)
    return Estimate.from_row(rows.row(0, named=True)) if rows.height == 1 else None


def agreement_sentence(metrics: pl.DataFrame, tool: str) -> str:
    """The verdicts of ours beside `tool` (``versus_table``, both directions) in one
    sentence (``crosscheck.verdicts_sentence``), as the cross-check's table gives them: a
    case where the two did not do the same work (``work_apart``) gets no verdict and is
    only counted, with why."""
    if metrics.height == 0 or "tool" not in metrics.columns:
        return general.verdicts_sentence(pl.DataFrame(), tool)
    table = pl.concat([versus_table(metrics, tool, metric) for metric in DIRECTIONS], how="diagonal")
    if "verdict" not in table.columns:
        return general.verdicts_sentence(table, tool)
    apart = {(label(codec, level), input_name) for codec, level, input_name in work_apart(metrics, tool)}
    out = pl.Series([(c, i) in apart for c, i in zip(table["codec"], table["input"])], dtype=pl.Boolean)
    left_out = table.filter(out & pl.col("verdict").is_not_null()).height
    kept = table.filter(~out)
    if left_out == 0:
        return general.verdicts_sentence(kept, tool)
    if kept["verdict"].drop_nulls().len() == 0:
        if left_out == 1:
            return f"The one case that ran both gets no verdict against {tool}: it is {_apart_why()}."
        return (
            f"None of the {fmt.count(left_out, 'case')} that ran both gets a verdict against {tool}: "
            f"each is {_apart_why()}."
        )
    judged = kept["verdict"].drop_nulls().len()
    counted = "; ".join(general.verdict_parts(kept, tool))
    other = "the other case is" if left_out == 1 else f"the other {fmt.count(left_out, 'case')} are"
    return f"Of the {fmt.count(judged + left_out, 'case')} that ran both, {counted}; {other} left out, {_apart_why()}."


def unpartnered(compress: pl.DataFrame, vs: pl.DataFrame) -> list[tuple[str, int, str]]:
    """The (codec, level, input) cases our loop ran in a cross-check (`vs`) that the main
    runs (`compress`) have no figure for as one buffer: a set measured with a plan whose
    cross-check ran a slow level on an input the main runs skip holds such a case."""
    if vs.height == 0 or "tool" not in vs.columns:
        return []
    ours = vs.filter((pl.col("tool") == "howfast") & pl.col("metric").is_in(list(DIRECTIONS)))
    cases = ours.select("codec", "level", "input").unique(maintain_order=True)
    have: set[tuple[str, int, str]] = set()
    if compress.height and {"codec", "level", "input", "block", "metric", "value"} <= set(compress.columns):
        main = compress.filter(
            (pl.col("block") == 0) & (pl.col("metric") == "compress_mb_per_s") & pl.col("value").is_not_null()
        )
        have = {(str(c), int(lv), str(i)) for c, lv, i in main.select("codec", "level", "input").iter_rows()}
    return [(str(c), int(lv), str(i)) for c, lv, i in cases.iter_rows() if (str(c), int(lv), str(i)) not in have]


def _case_words(cases: Sequence[tuple[str, int, str]]) -> str:
    """'zstd -19 on the binary input and lz4 on the csv input'."""
    return fmt.listed([f"{label(c, lv)} on the {i} input" for c, lv, i in cases])


def again_sentence(compress: pl.DataFrame, vs: pl.DataFrame, tool: str) -> str:
    """Our half of a cross-check is the main runs' loop again, later, on one buffer: its
    figures (per case and direction) against the main runs' figure for the same codec,
    level and input as one buffer, summed up by what their intervals allow (about the
    same, not told apart, clearly apart: each of those named with its ratio,
    ``claims.again_words``); a case with no main-run partner (``unpartnered``) is named."""
    nothing = f"Our loop did not run beside {tool} here, so every figure of ours on this page is the main runs'."
    if vs.height == 0 or "tool" not in vs.columns:
        return nothing
    main = compress_summary(compress.filter(pl.col("block") == 0)) if compress.height else pl.DataFrame()
    again = stats.summarize(vs.filter(pl.col("tool") == "howfast"), ["codec", "level", "input"])
    same, overlap, apart = 0, 0, []
    for row in again.filter(pl.col("metric").is_in(list(DIRECTIONS))).iter_rows(named=True):
        if main.height == 0 or row["median"] is None:
            continue
        found = main.filter(
            (pl.col("codec") == row["codec"]) & (pl.col("level") == row["level"]) & (pl.col("input") == row["input"])
            & (pl.col("metric") == row["metric"])
        )  # fmt: skip
        if found.height != 1 or found["median"][0] is None:
            continue
        c = claims.compare(Estimate.from_row(row), Estimate.from_row(found.row(0, named=True)))
        if c.direction == claims.SAME_WORD:
            same += 1
        elif c.direction == claims.UNCLEAR:
            overlap += 1
        elif c.direction in (claims.HIGHER, claims.LOWER):
            verb = "compressing" if row["metric"] == "compress_mb_per_s" else "decompressing"
            words = claims.again_words(c, higher="faster", lower="slower", way="larger")
            apart.append(f"{label(str(row['codec']), int(row['level']))} {verb} the {row['input']} input, {words}")
    alone = unpartnered(compress, vs)
    lone = (
        f" {_case_words(alone)} {'has' if len(alone) == 1 else 'have'} no partner in the main runs, which did not "
        f"run {'it' if len(alone) == 1 else 'them'} as one buffer: {'its' if len(alone) == 1 else 'their'} figures "
        f"beside {tool} stand alone."
        if alone
        else ""
    )
    total = same + overlap + len(apart)
    if total == 0:
        if not alone:
            return nothing
        return f"Our half of the {tool} cross-check is the main runs' loop again, later, on one buffer.{lone}"
    counts = []
    if same:
        counts.append(f"{same} {'is' if same == 1 else 'are'} about the same as there")
    if overlap:
        counts.append(f"{overlap} {'is' if overlap == 1 else 'are'} not told apart from it (the intervals overlap)")
    if apart:
        counts.append(f"{len(apart)} {'differs' if len(apart) == 1 else 'differ'}")
    named = f" {'It is' if len(apart) == 1 else 'They are'} {fmt.listed(apart)}." if apart else ""
    counted = fmt.listed(counts) + "." + named
    head = (
        f"Our half of the {tool} cross-check is the main runs' loop again, later, on the same input as one buffer. "
        f"Of its {fmt.count(total, 'figure')} with a main-run figure to set beside (a case and a direction each), "
    )
    why = (
        " Same code, same bytes: where the two differ, the cause may be other work on the CPU at the moment each ran, "
        "or the cross-check's longer slices, which its fastest slice filters less; this run cannot say which."
        if apart
        else ""
    )
    return (
        head + counted + lone + why
        + f" The chapter's other figures are the main runs'; these serve only as {tool}'s partner in its ratio."
    )  # fmt: skip


def goal_sentence(metrics: pl.DataFrame, tool: str, goal: float = GOAL) -> str:
    """Whether every case and direction reaches `goal` × the tool's speed, from the interval
    of the per-round ratios ours / tool: met (the interval's low end at or above it), missed
    (its high end below it), or not decided by the rounds; counted, each case that misses
    named with its ratio."""
    if not 0 < goal <= 1:
        raise ValueError(f"goal must be a share in (0, 1], got {goal}")
    met, missed, open_, left_out = [], [], [], 0
    apart = work_apart(metrics, tool)
    for metric, direction in (("compress_mb_per_s", "compressing"), ("decompress_mb_per_s", "decompressing")):
        rows = metrics.filter(pl.col("metric") == metric) if metrics.height else metrics
        if rows.height == 0 or not {"howfast", tool} <= set(rows["tool"].unique().to_list()):
            continue
        wide = rows.pivot(on="tool", index=["codec", "level", "input", "repetition"], values="value")
        wide = wide.with_columns(r=pl.col("howfast") / pl.col(tool)).drop_nulls("r")
        for (codec, level, input_name), part in wide.group_by(["codec", "level", "input"], maintain_order=True):
            if (str(codec), int(level), str(input_name)) in apart:  # type: ignore[call-overload]
                left_out += 1
                continue
            e = general.ratio_estimate(part["r"].to_list())
            what = f"{label(str(codec), int(level))} {direction} the {input_name} input"  # type: ignore[arg-type]
            if e.lo >= goal:
                met.append(what)
            elif e.hi < goal:
                missed.append(f"{what} ({claims.ratio_interval(e)} of {tool}'s speed)")
            else:
                open_.append(what)
    if not (met or missed or open_):
        if left_out == 1:
            return f"Against that goal, the one case that ran both cannot be judged: it is {_apart_why()}."
        if left_out:
            return (
                f"Against that goal, none of the {fmt.count(left_out, 'case')} that ran both can be judged: "
                f"each is {_apart_why()}."
            )
        return f"The comparison with {tool} could not run here."
    share = fmt.share(goal)
    reach, short, told = (f"at least {share} of {tool}'s speed", f"short of {share} of {tool}'s speed",
                          f"from {share} of {tool}'s speed over these rounds")  # fmt: skip
    groups = [g for g in (met, open_, missed) if g]
    total = len(met) + len(missed) + len(open_)
    if total == 1:
        one = groups[0][0]
        verdict = f"reaches {reach}" if met else f"falls {short}" if missed else f"cannot be told {told}"
        said = f"Against that goal, the one case judged, {one}, {verdict}"
    elif len(groups) == 1:
        verdict = (
            f"reach {reach}" if met else f"fall {short}: {fmt.listed(missed)}" if missed else f"cannot be told {told}"
        )
        every = "both cases" if total == 2 else f"all {fmt.count(total, 'case')}"
        said = f"Against that goal, {every} judged (a codec, an input and a direction each) "
        said += verdict
    else:
        parts = []
        if met:
            parts.append(f"{len(met)} {'reaches' if len(met) == 1 else 'reach'} {reach}")
        if open_:
            parts.append(f"{len(open_)} cannot be told {told}")
        if missed:
            parts.append(f"{len(missed)} {'falls' if len(missed) == 1 else 'fall'} {short}: {fmt.listed(missed)}")
        said = (
            f"Against that goal, of the {fmt.count(total, 'case')} judged (a codec, an input and a direction each), "
            + "; ".join(parts)
        )
    if left_out:
        said += f"; {fmt.count(left_out, 'more case')} {'is' if left_out == 1 else 'are'} left out, {_apart_why()}"
    return said + "."


def above_sentence(table: pl.DataFrame) -> str:
    """Why a cross-check row may lie clearly above its tool, said only where the verdicts of
    the cross-check's table (``crosscheck_table``) hold one ('ours higher'); '' otherwise."""
    if table.height == 0 or "verdict" not in table.columns:
        return ""
    if "ours higher" not in table["verdict"].drop_nulls().to_list():
        return ""
    return (
        "A row clearly above its tool is not explained here: the tools' benchmarks go through their command lines' "
        "own settings, which this page does not match one by one, and on a shared CPU fewer, longer timed runs may "
        "meet more of any other work on the CPU than our several slices do."
    )


# ---- sorting -------------------------------------------------------------------------------------


#: What the timer of a sort holds, by the kind of sort (``experiments.native_sort`` copies the
#: input back outside the timer; ``experiments.python_sort`` times the call, which returns a
#: new sorted array).
SORT_TIMED = {
    "algorithm": "the sort alone, in place",
    "library": "the call: a new output array and the sort",
}


def sort_table(native: pl.DataFrame, python: pl.DataFrame, n: int, target: float | None = None) -> pl.DataFrame:
    """MB/s of every sort on every order, `n` elements, one row each: the median, the
    interval of that median (marked where it stayed wider than ±`target`) and the run count."""
    schema = {"sort": pl.String, "order": pl.String, "MB/s": pl.Float64, "interval": pl.String, "runs": pl.Int64,
              "timed": pl.String}  # fmt: skip
    rows = []
    for frame, key in ((native, "algorithm"), (python, "library")):
        timed = SORT_TIMED[key]
        part = frame.filter((pl.col("n") == n) & (pl.col("metric") == "mb_per_s")) if frame.height else frame
        if part.height == 0:
            continue
        for row in stats.summarize(part, [key, "order"]).iter_rows(named=True):
            e = Estimate.from_row(row)
            mark = stats.stability(e, target)
            rows.append({
                "sort": SORT_NAMES.get(str(row[key]), str(row[key])),
                "order": ORDER_NAMES.get(str(row["order"]), str(row["order"])),
                "MB/s": e.median, "interval": fmt.span(e.lo, e.hi) + (f"; {mark}" if mark else ""), "runs": e.runs,
                "timed": timed,
            })  # fmt: skip
    sorts, orders = list(SORT_NAMES.values()), list(ORDER_NAMES.values())
    rows.sort(key=lambda r: (_rank(sorts, r["sort"]), _rank(orders, r["order"])))
    return pl.DataFrame(rows, schema=schema)


def _rank(known: list[str], name: str) -> int:
    return known.index(name) if name in known else len(known)


def sort_bars(native: pl.DataFrame, python: pl.DataFrame, n: int) -> pl.DataFrame:
    """Median MB/s per sort and order with the interval of that median (``lo``, ``hi``) and
    the run count (``repetitions``), for ``charts.grouped_bars``."""
    parts = []
    for frame, key in ((native, "algorithm"), (python, "library")):
        part = frame.filter((pl.col("n") == n) & (pl.col("metric") == "mb_per_s")) if frame.height else frame
        if part.height:
            s = stats.summarize(part, [key, "order"]).rename({key: "sort"})
            parts.append(s.select("sort", "order", "median", "lo", "hi", pl.col("repetitions").cast(pl.Int64)))
    if not parts:
        return pl.DataFrame(schema={"sort": pl.String, "order": pl.String, "median": pl.Float64, "lo": pl.Float64,
                                    "hi": pl.Float64, "repetitions": pl.Int64})  # fmt: skip
    return pl.concat(parts).with_columns(
        pl.col("sort").replace_strict(SORT_NAMES, return_dtype=pl.String),
        pl.col("order").replace_strict(ORDER_NAMES, return_dtype=pl.String),
    )


#: A sort whose orders lie within this factor of each other (the whole range of the ratio of
#: any two, through their intervals) runs at about the same speed on every order.
ORDER_EVEN = 1.5


def order_sentence(native: pl.DataFrame, algorithm: str, n: int) -> str:
    """How much a native sort's speed depends on the order of its input: 'within 1.12×'
    where the highest interval end of any order over the lowest of any order (the largest
    ratio any two orders can take) stays within ``ORDER_EVEN``; otherwise its slowest and
    fastest order by the medians, compared through their intervals (``claims.compare``):
    'depends on the order' where they are clearly apart, 'cannot say' where they overlap."""
    part = native.filter((pl.col("n") == n) & (pl.col("algorithm") == algorithm) & (pl.col("metric") == "mb_per_s"))
    name = SORT_NAMES.get(algorithm, algorithm)
    if part.height == 0:
        return f"{name} did not run here."
    medians = stats.summarize(part, ["order"]).drop_nulls("median").sort("median")
    if medians.height < 2:
        return f"{name} ran on one order only here, so how its speed depends on the order is not seen."
    slow, fast = medians.row(0, named=True), medians.row(-1, named=True)
    c = claims.compare(Estimate.from_row(fast), Estimate.from_row(slow))
    ends = (
        f"{ORDER_NAMES[str(slow['order'])]} ({fmt.num(slow['median'])} MB/s) and "
        f"{ORDER_NAMES[str(fast['order'])]} ({fmt.num(fast['median'])} MB/s)"
    )
    lowest = float(medians["lo"].min())
    widest = float(medians["hi"].max()) / lowest if lowest > 0 else math.inf
    if widest <= ORDER_EVEN:
        return (
            f"{name} runs within {fmt.num(widest, 3)}× of the same speed on every order, from "
            f"{fmt.num(slow['median'])} MB/s ({ORDER_NAMES[str(slow['order'])]}) to {fmt.num(fast['median'])} MB/s "
            f"({ORDER_NAMES[str(fast['order'])]})."
        )
    if c.direction == claims.HIGHER and c.hi is not None and c.hi <= ORDER_EVEN:
        return (
            f"The slowest and fastest orders of {name} differ clearly but by at most {fmt.num(c.hi, 3)}×, between "
            f"{ends}; another order's interval is too wide to say every order lies within {fmt.num(ORDER_EVEN)}×."
        )
    if c.direction == claims.HIGHER:
        return f"The speed of {name} depends on the order: {claims.ratio_interval(c, way='larger')} between {ends}."
    return (
        f"The speeds of {name} lie {fmt.factor(c.ratio or 1.0)}× apart by the medians, between {ends}, but the "
        "intervals overlap: this run cannot say its speed depends on the order."
    )


def sort_estimate(
    native: pl.DataFrame, algorithm: str, order: str, n: int, metric: str = "mb_per_s"
) -> Estimate | None:
    """One native sort's figure with its interval; None when it did not run."""
    part = native.filter(pl.col("n") == n)
    if part.height == 0:
        return None
    return stats.estimate(stats.summarize(part, ["algorithm", "order"]), metric, algorithm=algorithm, order=order)


def per_byte_sentence(sort: Estimate | None, codec: Estimate | None, sort_what: str, codec_what: str) -> str:
    """A sort's MB/s against a codec's compression MB/s, per byte of input, in the words the
    two intervals allow: 'Per byte, std::sort of a million random integers is 2.1× faster
    than zstd -1 compressing the book's sources (1.8–2.5×).'"""
    said = claims.versus(claims.compare(sort, codec), codec_what, **claims.RATE_WORDS, span=True)
    if sort is None or codec is None:
        return f"Per byte, {sort_what} is not set beside {codec_what}: the two did not both run here."
    return f"Per byte, {sort_what} runs {said}."


#: napkin-math rounds its figures for memorising (500 MiB/s, 1 GiB/s, 100 MiB/s): a figure of
#: ours within this factor of one, either way, is within its rounding.
NAPKIN_ROUNDING = 1.25


def versus_napkin(ours: Estimate | None, figure: float | None, what: str) -> str:
    """'std::sort of random integers runs at 44 MB/s (30.4–65), 3.2× slower than
    napkin-math's 210 MB/s (2.7–4.6×)': the median with its interval, against
    napkin-math's printed figure (one number, no interval), in ``claims.versus``'s words;
    a verdict only where our whole interval lies beyond the figure's rounding
    (``NAPKIN_ROUNDING`` either way), otherwise that the two cannot be told apart."""
    if ours is None:
        return f"{what} did not run here."
    shown = f"{fmt.num(ours.median)} MB/s" + (
        "" if fmt.num(ours.lo) == fmt.num(ours.hi) else f" ({fmt.span(ours.lo, ours.hi)})"
    )
    if figure is None:
        return f"{what} runs at {shown}; napkin-math has no such row."
    theirs = f"napkin-math's {fmt.num(figure)} MB/s"
    rounded = Estimate(float(figure), figure / NAPKIN_ROUNDING, figure * NAPKIN_ROUNDING)
    c = claims.compare(ours, rounded)
    if c.direction in (claims.HIGHER, claims.LOWER):
        words = claims.versus(claims.compare(ours, Estimate.exact(figure)), theirs, **claims.RATE_WORDS, span=True)
        return f"{what} runs at {shown}, {words}."
    ratio = fmt.factor(ours.median / figure)
    return (
        f"{what} runs at {shown}, not clearly faster or slower than {theirs} once its rounding (about a quarter "
        f"either way) is allowed for ({ratio}× by the medians)."
    )


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


def serial_table(native: pl.DataFrame, python: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """One row per library and operation: MB/s of text or dump (the median), the interval of
    that median (marked where it stayed wider than ±`target`), records/s (the same runs'
    median counted in records), bytes per record of the format, and the run count."""
    parts = [f for f in (native, python) if f.height]
    schema = {"library": pl.String, "operation": pl.String, "MB/s": pl.Float64, "interval": pl.String,
              "records/s": pl.Float64, "bytes per record": pl.Float64, "runs": pl.Int64}  # fmt: skip
    if not parts:
        return pl.DataFrame(schema=schema)
    summary = stats.summarize(pl.concat(parts, how="diagonal"), ["library", "operation"])
    rows = []
    for library, operation in summary.select("library", "operation").unique(maintain_order=True).iter_rows():
        where = {"library": library, "operation": operation}
        rate = stats.estimate(summary, "mb_per_s", **where)
        mark = "" if rate is None else stats.stability(rate, target)
        rows.append({
            "library": SERIAL_NAMES.get(library, library), "operation": OPERATION_NAMES.get(operation, operation),
            "MB/s": None if rate is None else rate.median,
            "interval": fmt.NA if rate is None else fmt.span(rate.lo, rate.hi) + (f"; {mark}" if mark else ""),
            "records/s": stats.pick(summary, "records_per_s", **where),
            "bytes per record": stats.pick(summary, "bytes_per_record", **where),
            "runs": None if rate is None else rate.runs,
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


def _records(e: Estimate) -> str:
    """'100 million records per second (90–110 million)'."""
    head = f"{fmt.num(e.median)} records per second"
    return head if fmt.num(e.lo) == fmt.num(e.hi) else f"{head} ({tables.span_text(fmt.num(e.lo), fmt.num(e.hi))})"


def records_sentence(dump: Estimate | None, parsers: dict[str, Estimate | None]) -> str:
    """Reading the dump against parsing the JSON with each of `parsers` (a parser's name ->
    its records per second), counted in records per second, each with its interval, in
    the words the two intervals allow (``claims.versus``)."""
    ran = {name: e for name, e in parsers.items() if e is not None}
    if dump is None or not ran:
        return "The dump and a JSON parser did not both run here, so they are not compared in records."
    each = [f"with {name} {_records(e)}" for name, e in ran.items()]
    parsed = each[0] if len(each) == 1 else ", ".join(each[:-1]) + " and " + each[-1]
    said, odd = [], False
    for name, e in ran.items():
        c = claims.compare(dump, e)
        odd = odd or c.direction == claims.LOWER
        said.append(claims.versus(c, name, **claims.RATE_WORDS, span=True))
    return (
        f"Counted in records rather than bytes, reading the dump handles {_records(dump)} and parsing the JSON "
        f"{parsed}: the dump reads {fmt.listed(said)}" + (", which this run cannot explain." if odd else ".")
    )


def json_sentence(dump: Estimate | None, parsers: dict[str, Estimate | None]) -> str:
    """Whether this machine shows napkin-math's gap between JSON and a binary dump: reading
    the dump against every JSON parse that ran (`parsers`: a parser's name -> its records
    per second), counted in records (``claims.compare``). The gap shows only where the dump
    is clearly faster than each; the sentence names the parse with the highest median, 'the
    fastest measured' only where it is clearly ahead of every other parse, 'the fastest by
    the medians' where not; where the gap does not show, it names the fastest parse the
    dump does not clear. Why a parser is slower is said as a possibility (this run does not
    time its steps apart)."""
    ran = {name: e for name, e in parsers.items() if e is not None}
    lead = "JSON is the slow row of napkin-math's table"
    if dump is None or not ran:
        return f"{lead}; the dump and a JSON parser did not both run here, so this machine does not test that."
    ranked = sorted(ran.items(), key=lambda kv: kv[1].median, reverse=True)
    name, fastest = ranked[0]
    if len(ranked) == 1:
        top = f"the only JSON parse measured, {name}"
    elif all(claims.compare(fastest, e).direction == claims.HIGHER for _, e in ranked[1:]):
        top = f"the fastest JSON parse measured, {name}"
    else:
        top = f"the fastest JSON parse by the medians, {name}"
    against = [(n, claims.compare(dump, e)) for n, e in ranked]
    if all(c.direction == claims.HIGHER for _, c in against):
        return (
            f"{lead}, and it is here too: counted in records, reading the dump is "
            f"{claims.versus(against[0][1], top, **claims.RATE_WORDS, span=True)}. A parser "
            "must look at every byte to find where each value ends and turn digits into numbers, where a dump copies "
            "them: that may be much of the gap, though this run does not time those steps apart."
        )
    near, c = next((n, c) for n, c in against if c.direction != claims.HIGHER)
    said = claims.versus(c, top if near == name else f"parsing with {near}", **claims.RATE_WORDS)
    return (
        f"{lead}, but here, counted in records, reading the dump is {said}: this run does not show that gap on this "
        "machine."
    )


def breakeven_mb_per_s(compress_mb_per_s: float, ratio: float) -> float:
    """The link or disk speed below which compressing first (then sending the smaller
    bytes, one after the other) is faster than sending raw: C × (1 − 1/ratio)."""
    if not compress_mb_per_s > 0 or not ratio > 0:
        raise ValueError(f"compress_mb_per_s and ratio must be positive, got {compress_mb_per_s}, {ratio}")
    return compress_mb_per_s * max(0.0, 1 - 1 / ratio)


def pays_sentence(compress: Estimate | None, ratio: float | None, bandwidth: Estimate | str | None, link: str) -> str:
    """Whether compressing before `link` (measured at `bandwidth` MB/s, a median with its
    interval; ``Estimate.exact`` for a printed figure; text: why its figure could not be
    read) saves time when the bytes are compressed, then sent, one after the other
    (``breakeven_mb_per_s``; decompression not counted), from the intervals: it pays where
    the link's whole interval lies below the break-even speed's (the compression speed's
    interval times 1 − 1/ratio), it does not where it lies above, and otherwise the runs
    cannot say."""
    if compress is None or ratio is None:
        return f"The codec did not run here, so whether it pays before {link} is not known."
    if isinstance(bandwidth, str):
        return f"{link[0].upper() + link[1:]} is not compared: {bandwidth}."
    if bandwidth is None:
        return f"{link[0].upper() + link[1:]} has no stored measurement on this machine, so it is not compared."
    if ratio <= 1:
        return f"The input does not shrink, so compressing before {link} never pays."
    lo, mid, hi = (breakeven_mb_per_s(x, ratio) for x in (compress.lo, compress.median, compress.hi))
    edge = f"{fmt.num(mid)} MB/s" + ("" if fmt.num(lo) == fmt.num(hi) else f" ({fmt.span(lo, hi)})")
    speed = f"{fmt.num(bandwidth.median)} MB/s" + (
        "" if fmt.num(bandwidth.lo) == fmt.num(bandwidth.hi) else f" ({fmt.span(bandwidth.lo, bandwidth.hi)})"
    )
    below = f"the {edge} below which compressing first saves time"
    if bandwidth.hi < lo:
        return f"Compressing first pays before {link}: at {speed} it is slower than {below}."
    if bandwidth.lo > hi:
        return (f"Compressing first does not pay for speed before {link}: at {speed} it is faster than {below} (it "
                "may still pay in the bytes it saves).")  # fmt: skip
    return (f"Whether compressing first pays before {link} is not clear from these runs: at {speed} it lies within "
            f"reach of {below}.")  # fmt: skip


#: Where a link speed is read from: the chapter whose stored set holds it, for a reason's words.
LINK_CHAPTERS = {"tcp": "networks", "disk": "storing-data"}


def link_speeds() -> dict[str, Estimate | str]:
    """This machine's measured TCP stream over loopback and one writer's durable sequential
    write (one sync job, 256 KiB writes, an fsync after each: the storing-data chapter's
    engine matrix, one job as zstd runs on one core), in MB/s, each the median with its
    interval, read from their stored sets; never measured from here. Where a set could
    not be read, the reason in words instead."""
    from .. import headlines, store

    out: dict[str, Estimate | str] = {}
    for key in LINK_CHAPTERS:
        try:
            if key == "tcp":
                q = headlines.get("tcp")
                found = q.read(store.load(q.subject))
                found = None if found is None else found.scaled(125.0)  # Gbit/s to MB/s
            else:
                found = _one_writer(store.load("storage").table("matrix"))
        except (store.MissingResults, store.Busy, KeyError, ValueError) as e:
            out[key] = link_reason(key, e)
            continue
        out[key] = found if found is not None else link_reason(key, None)
    return out


def link_reason(key: str, error: BaseException | None) -> str:
    """Why a link speed could not be read: the chapter's set and what went wrong."""
    if key not in LINK_CHAPTERS:
        raise ValueError(f"key must be one of {', '.join(LINK_CHAPTERS)}, got {key!r}")
    chapter = LINK_CHAPTERS[key]
    if error is None:
        return f"the {chapter} chapter's stored set holds no such run"
    detail = str(error).split("\n")[0].strip()
    return f"the {chapter} chapter's stored set could not be read ({detail or type(error).__name__})"


def _one_writer_rows(matrix: pl.DataFrame) -> pl.DataFrame | None:
    """The engine matrix's runs of one sync job writing sequentially through the page cache
    with an fsync after each write; None when the matrix lacks the columns to tell."""
    need = {"engine", "pattern", "op", "fsync", "jobs", "direct", "metric", "value"}
    if not need <= set(matrix.columns):
        return None
    return matrix.filter(
        (pl.col("engine") == "sync") & (pl.col("pattern") == "sequential") & (pl.col("op") == "write")
        & pl.col("fsync") & (pl.col("jobs") == 1) & ~pl.col("direct") & (pl.col("metric") == "mb_per_s")
    )  # fmt: skip


def _one_writer(matrix: pl.DataFrame) -> Estimate | None:
    """One sync job writing sequentially through the page cache with an fsync after each
    write, MB/s, from the storing-data chapter's engine matrix; None when it did not run."""
    rows = _one_writer_rows(matrix)
    if rows is None or rows.height == 0:
        return None
    return stats.estimate(stats.summarize(rows, ["engine"]), "mb_per_s", engine="sync")


def one_writer_block(matrix: pl.DataFrame) -> int | None:
    """The write size of that one writer's runs, as the engine matrix recorded it; None when
    it did not run, the matrix has no ``block_size`` or its runs used more than one."""
    rows = _one_writer_rows(matrix)
    if rows is None or rows.height == 0 or "block_size" not in rows.columns:
        return None
    sizes = rows["block_size"].drop_nulls().unique().to_list()
    return int(sizes[0]) if len(sizes) == 1 else None


def link_block(planned: int) -> int:
    """The write size of the one writer ``link_speeds`` reads, from the storing-data
    chapter's stored set; `planned` (the storage plan's matrix block size) where that set
    cannot be read or does not say."""
    from .. import store

    try:
        found = one_writer_block(store.load("storage").table("matrix"))
    except (store.MissingResults, store.Busy, KeyError, ValueError):
        found = None
    return planned if found is None else found


def disk_link_words(block: int) -> str:
    """What the disk link of ``pays_sentence`` is: 'one writer's durable sequential write to
    this disk (256 KiB writes, an fsync after each, durable as far as this machine's disk
    acknowledges it)'."""
    if block <= 0:
        raise ValueError(f"block is a write size in bytes, got {block!r}")
    return (
        f"one writer's durable sequential write to this disk ({fmt.size(block)} writes, an fsync after each, durable "
        "as far as this machine's disk acknowledges it)"
    )


def slow_pass_seconds(metrics: pl.DataFrame, plan: Plan, sizes: dict[str, int | None] | None = None) -> float | None:
    """The longest compression pass of `plan`'s slow levels on its slow inputs in the stored
    runs `metrics` (any block size: a pass compresses the whole input), in seconds: the
    input's size each run recorded (else `sizes`, the sizes the set's details record) over
    the median speed. None where no such run has both."""
    need = {"codec", "level", "input", "block", "metric", "value"}
    if metrics.height == 0 or not need <= set(metrics.columns) or not plan.slow_levels:
        return None
    slow = pl.lit(False)
    for codec, level in plan.slow_levels:
        slow = slow | ((pl.col("codec") == codec) & (pl.col("level") == level))
    rows = metrics.filter(slow & pl.col("input").is_in(list(plan.slow_inputs)))
    if rows.height == 0:
        return None
    summary = compress_summary(rows)
    longest = None
    for codec, level, input_name, block in rows.select("codec", "level", "input", "block").unique().iter_rows():
        where = {"codec": codec, "level": level, "input": input_name, "block": block}
        speed = _pick(summary, "compress_mb_per_s", **where)
        got = _pick(summary, "input_bytes", **where) or (sizes or {}).get(str(input_name))
        if speed and got:
            longest = max(longest or 0.0, got / (speed * 1e6))
    return longest


def not_run_sentence(plan: Plan, extra: Sequence[tuple[str, int, str]] = (), longest: float | None = None) -> str:
    """What a 'not run' cell of the ratio table means on this profile: the slowest levels on
    fewer inputs where `plan` runs them so, otherwise only a codec that could not run.
    `extra`: the cases a cross-check ran that the main runs have no figure for
    (``unpartnered``), so that the cross-check's table does not seem to contradict it.
    `longest`: the longest pass of those levels here in seconds (``slow_pass_seconds``),
    said where known."""
    if longest is not None and (not math.isfinite(longest) or longest <= 0):
        raise ValueError(f"longest must be a positive number of seconds, got {longest!r}")
    skipped = [i for i in plan.inputs if i not in plan.slow_inputs]
    also = (
        f" The cross-check below also ran {_case_words(extra)}, beside the tool only: the main runs have no figure "
        f"for {'it' if len(extra) == 1 else 'them'}."
        if extra
        else ""
    )
    if plan.slow_levels and skipped:
        levels = fmt.listed([label(c, lv) for c, lv in plan.slow_levels])
        inputs = fmt.listed(list(plan.slow_inputs))
        took = "" if longest is None else f" (a pass took up to {fmt.duration_us(longest * 1e6)} here)"
        return (
            f"This profile's main runs run {levels} on the {inputs} "
            f"{'input' if len(plan.slow_inputs) == 1 else 'inputs'} only{took}: 'not run' in "
            "their other cells means that; anywhere else, that the codec could not run here." + also
        )
    return (
        "This profile runs every codec and level on every input: a 'not run' cell is a codec that could not run here."
        + also
    )


def loopback_note(tcp: Estimate | str | None) -> str:
    """What the loopback comparison leaves out, said only where it was made."""
    if not isinstance(tcp, Estimate):
        return "The slower a real link is than the compression, the more compressing first pays."
    return (
        "Loopback moves bytes between two processes through memory; a real network link is likely slower, which "
        "would move the verdict towards compressing."
    )


def log_cost(size_bytes: float, compress_mb_per_s: float | None, ratio: float | None) -> dict[str, float | None]:
    """A log of `size_bytes`: seconds to compress it on one core and the bytes left to ship."""
    if not size_bytes > 0:
        raise ValueError(f"size_bytes must be positive, got {size_bytes}")
    if compress_mb_per_s is None or ratio is None or not compress_mb_per_s > 0 or not ratio > 0:
        return {"seconds": None, "shipped": None}
    return {"seconds": size_bytes / (compress_mb_per_s * 1e6), "shipped": size_bytes / ratio}


def log_sentence(size_bytes: float, fast: Estimate | None, fast_ratio: float | None, slow: Estimate | None,
                 slow_ratio: float | None, levels: tuple[int, int], sample: int | None = None) -> str:  # fmt: skip
    """A log of `size_bytes` compressed at two levels of zstd (`levels`: fast, slow): the
    time on one core, with the interval carried through from the speed's, and the bytes
    left to ship (binary units, as the page's sizes), worked out from the speeds and
    ratios measured on a `sample` of that many bytes (said where given)."""
    if not size_bytes > 0:
        raise ValueError(f"size_bytes must be positive, got {size_bytes}")
    if sample is not None and not sample > 0:
        raise ValueError(f"sample must be a positive number of bytes, got {sample}")

    def part(e: Estimate | None, ratio: float | None) -> tuple[str, str] | None:
        if e is None or ratio is None or not ratio > 0:
            return None
        return _duration(*(size_bytes / (x * 1e6) for x in (e.median, e.hi, e.lo))), fmt.size(size_bytes / ratio)

    log = f"a {fmt.size(size_bytes)} JSON log"
    one, other = part(fast, fast_ratio), part(slow, slow_ratio)
    if one is None and other is None:
        return f"zstd did not run on the JSON log here, so what compressing {log} costs is not known."
    basis = (
        ""
        if sample is None
        else f" (worked out from the speed and ratio measured on {fmt.size(sample)} of the json input: a longer log "
        "may compress at another speed and ratio)"
    )
    if one is None or other is None:
        level, (took, left) = (levels[1], other) if one is None else (levels[0], one)  # type: ignore[misc]
        missing = levels[0] if one is None else levels[1]
        return (f"Compressing {log} with zstd at level {level} would take {took} on one core of this machine and "
                f"leave {left} to ship{basis}; level {missing} could not run here.")  # fmt: skip
    return (f"Compressing {log} with zstd on one core of this machine would take {one[0]} at level {levels[0]} and "
            f"leave {one[1]} to ship; at level {levels[1]} it would take {other[0]} and leave {other[1]}"
            f"{basis}.")  # fmt: skip


def _duration(median: float, lo: float, hi: float) -> str:
    """Seconds as words, the interval after them in the same unit: '1.5 s (1.3–3.4)',
    '30 minutes (12–36)'; one value where the ends read alike."""
    scale, unit = (60.0, "minutes") if median >= 120 else (1.0, "s")
    shown = [fmt.num(x / scale, 2) for x in (median, lo, hi)]
    return f"{shown[0]} {unit}" + ("" if shown[1] == shown[2] else f" ({shown[1]}–{shown[2]})")


def seconds_words(s: float | None) -> str:
    """A duration in seconds as words: '0.52 s', '3.1 minutes'."""
    if s is None:
        return fmt.NA
    if not math.isfinite(s) or s < 0:
        raise ValueError(f"s must be a finite duration, got {s!r}")
    return f"{fmt.num(s / 60, 2)} minutes" if s >= 120 else f"{fmt.num(s, 2)} s"


def one_pass_runs(metrics: pl.DataFrame, input_name: str, block: int) -> dict[tuple[str, int], tuple[int, int]]:
    """The (codec, level) whose compression of `input_name` in blocks of `block` bytes was
    one pass in some of its runs, each with (runs that were one pass, runs), read from the
    stored runs: a run whose fastest-slice rate equals its whole-run mean to the last digit
    had one timed pass (``experiments._passes`` keeps the first pass as the measurement
    when it alone takes half the time), or slices so alike that the fastest filters nothing."""
    need = {"codec", "level", "input", "block", "repetition", "metric", "value"}
    if metrics.height == 0 or not need <= set(metrics.columns):
        return {}
    rows = metrics.filter(
        (pl.col("input") == input_name) & (pl.col("block") == block)
        & pl.col("metric").is_in(["compress_mb_per_s", "compress_mean_mb_per_s"])
    )  # fmt: skip
    if rows.height == 0:
        return {}
    wide = rows.pivot(on="metric", index=["codec", "level", "repetition"], values="value")
    if not {"compress_mb_per_s", "compress_mean_mb_per_s"} <= set(wide.columns):
        return {}
    wide = wide.drop_nulls(["compress_mb_per_s", "compress_mean_mb_per_s"])
    out: dict[tuple[str, int], tuple[int, int]] = {}
    for (codec, level), part in wide.group_by(["codec", "level"], maintain_order=True):
        one = sum(
            math.isclose(a, b, rel_tol=1e-12) for a, b in zip(part["compress_mb_per_s"], part["compress_mean_mb_per_s"])
        )
        if one:
            out[(str(codec), int(level))] = (int(one), part.height)  # type: ignore[call-overload]
    return out


def single_pass_sentence(metrics: pl.DataFrame, input_name: str, block: int, size: int | None = None) -> str:
    """The codecs whose compression of `input_name` in blocks of `block` bytes was one pass
    with no slices (``one_pass_runs``, from the stored runs), each with the time of that
    pass (the input's size each run recorded, else `size`, the size the set's details
    record for it, over the median speed); where none was, that every codec ran in slices
    there. Every other input and block size in `metrics` is checked too
    (``one_pass_elsewhere``): one-pass runs there are named after, and 'every codec's
    compression here' is said only where none of the stored runs was one pass."""
    if not _passes_stored(metrics):
        return (
            "These runs did not store what tells a run of one pass from a run in slices, so this page cannot say "
            "which codecs ran in slices."
        )
    found = one_pass_runs(metrics, input_name, block)
    elsewhere = one_pass_elsewhere(metrics, input_name, block)
    if not found:
        if not elsewhere:
            return "Every codec's compression here, on every input, in blocks and as one buffer, ran in slices."
        return (
            f"On the {input_name} input in blocks of {fmt.size(block)}, every codec's compression ran in slices; "
            f"elsewhere {_elsewhere_words(elsewhere)}, with no slices to pick the fastest from, so those runs "
            "filter nothing out."
        )
    summary = compress_summary(metrics.filter((pl.col("input") == input_name) & (pl.col("block") == block)))
    slow = []
    for (codec, level), (one, runs) in sorted(found.items(), key=lambda kv: _median_or_inf(summary, *kv[0])):
        where = {"codec": codec, "level": level, "input": input_name, "block": block}
        speed, got = _pick(summary, "compress_mb_per_s", **where), _pick(summary, "input_bytes", **where) or size
        took = f"{fmt.duration_us(got / (speed * 1e6) * 1e6)} per pass" if speed and got else ""
        share = "" if one == runs else f"in {one} of its {fmt.count(runs, 'run')}"
        aside = ", ".join(x for x in (took, share) if x)
        slow.append(f"{label(codec, level)}" + (f" ({aside})" if aside else ""))
    sizes = {_pick(summary, "input_bytes", codec=c, level=lv, input=input_name, block=block) or size for c, lv in found}
    on = f", on {fmt.size(sizes.pop())} of the {input_name} input" if len(sizes) == 1 and None not in sizes else ""
    return (
        f"A pass that alone takes half of that or more is the measurement by itself, one pass with no slices to "
        f"pick the fastest from: here {fmt.listed(slow)}{on}, so their figures filter nothing out."
        + (f" Elsewhere {_elsewhere_words(elsewhere)} too." if elsewhere else "")
    )


def _passes_stored(metrics: pl.DataFrame) -> bool:
    """Whether the stored runs hold both rates ``one_pass_runs`` compares, in some run."""
    need = {"metric", "value"}
    if metrics.height == 0 or not need <= set(metrics.columns):
        return False
    have = metrics.filter(pl.col("value").is_not_null())["metric"]
    return bool(have.is_in(["compress_mean_mb_per_s"]).any() and have.is_in(["compress_mb_per_s"]).any())


def one_pass_elsewhere(metrics: pl.DataFrame, input_name: str, block: int) -> list[tuple[str, int, str, int]]:
    """The (codec, level, input, block) cases other than `input_name` in blocks of `block`
    whose compression was one pass in some of their runs (``one_pass_runs``, every input and
    block size the stored runs hold), in the order the runs hold them."""
    if metrics.height == 0 or not {"input", "block"} <= set(metrics.columns):
        return []
    out = []
    for other, size in metrics.select("input", "block").unique(maintain_order=True).iter_rows():
        if (other, size) == (input_name, block):
            continue
        out += [(codec, level, str(other), int(size)) for codec, level in one_pass_runs(metrics, str(other), int(size))]
    return out


#: The most one-pass cases elsewhere named one by one; the rest are counted.
ELSEWHERE_NAMED = 4


def _elsewhere_words(cases: Sequence[tuple[str, int, str, int]]) -> str:
    """'zstd -19 on the json input as one buffer was one pass in at least one run' (at most
    ``ELSEWHERE_NAMED`` named, the rest counted)."""
    words = [
        f"{label(c, lv)} on the {i} input " + ("as one buffer" if b == 0 else f"in blocks of {fmt.size(b)}")
        for c, lv, i, b in cases
    ]
    if len(words) > ELSEWHERE_NAMED:
        words = words[: ELSEWHERE_NAMED - 1] + [fmt.count(len(words) - ELSEWHERE_NAMED + 1, "more case")]
    return f"{fmt.listed(words)} {'was' if len(cases) == 1 else 'were'} one pass in at least one run"


def _pick(summary: pl.DataFrame, metric: str, **where: object) -> float | None:
    """``stats.pick``, None also where the runs stored no such metric."""
    try:
        return stats.pick(summary, metric, **where)
    except KeyError:
        return None


def _median_or_inf(summary: pl.DataFrame, codec: str, level: int) -> float:
    found = summary.filter(
        (pl.col("codec") == codec) & (pl.col("level") == level) & (pl.col("metric") == "compress_mb_per_s")
    )["median"].drop_nulls()
    return float(found[0]) if found.len() else math.inf


#: Two inputs whose speeds are clearly apart by more than this factor (the low end of the
#: larger over the smaller) show that the input decides much of a codec's speed.
DEMO_MUCH = 1.5


def demo_sentence(summary: pl.DataFrame, level: int, block: int, table_input: str, target: float | None = None) -> str:
    """What the one short run above the speed table is, against the main runs: zstd at
    `level` on the json input and on `table_input` (the table's), each the median with its
    interval; where the two are clearly apart, that the input decides much of a codec's
    speed where the low end of their ratio exceeds ``DEMO_MUCH``, that it changes it where
    not; and what an 'unstable' mark means only where the page marks figures (`target`)."""
    json = _compress(summary, level, "json", block)
    other = _compress(summary, level, table_input, block)
    if json is None or other is None:
        return "That one short run is JSON; the main runs did not measure it beside the table's input here."
    c = claims.compare(json, other)
    if c.direction in (claims.HIGHER, claims.LOWER):
        low = c.lo if c.direction == claims.HIGHER else 1 / c.hi  # type: ignore[operator]
        said = "decides much of" if low > DEMO_MUCH else "changes"
        gap = f"{claims.ratio_interval(c, way='larger')} apart: the input {said} a codec's speed"
    elif c.direction == claims.SAME_WORD:
        gap = "about the same"
    else:
        gap = "and the intervals do not tell them apart"
    marked = target is not None and any(stats.stability(e, target) for e in (json, other))
    pieces = f"in {fmt.size(block)} blocks" if block else "each input as one buffer"
    unstable = "; where a figure is marked unstable its runs disagreed widely" if marked else ""
    return (
        f"That one short run compressed JSON lines, which repeat their keys line after line; the speed table below "
        f"is the {table_input} input's. In the main runs, {pieces}, zstd -{level} compressed the json input at "
        f"{quoted(json)} and the {table_input} input at {quoted(other)}, {gap}{unstable}."
    )


def _compress(summary: pl.DataFrame, level: int, input_name: str, block: int) -> Estimate | None:
    try:
        return stats.estimate(summary, "compress_mb_per_s", codec="zstd", level=level, input=input_name, block=block)
    except KeyError:
        return None


def napkin_table(
    rows: list[tuple[str, float | None, Estimate | None, str]], target: float | None = None
) -> pl.DataFrame:
    """napkin-math's rows beside this machine's: (row, napkin-math's printed MB/s, ours,
    what ours is) -> the printed figure as it is (one number), ours as the median with its
    interval (marked where it stayed wider than ±`target`), and the run count of ours."""
    out = [
        {
            "napkin-math row": row,
            "napkin-math MB/s": figure,
            "this machine MB/s": tables.figure(ours, target, runs=False),
            "runs": None if ours is None else ours.runs,
            "ours is": what,
        }
        for row, figure, ours, what in rows
    ]
    schema = {"napkin-math row": pl.String, "napkin-math MB/s": pl.Float64, "this machine MB/s": pl.String,
              "runs": pl.Int64, "ours is": pl.String}  # fmt: skip
    return pl.DataFrame(out, schema=schema)


def quoted(estimate: Estimate | None, unit: str = "MB/s") -> str:
    """A figure as a sentence quotes it: '182 ns (121–263)', the interval of the median
    after the unit; a single value without a parenthesis; n/a when not measured."""
    if estimate is None:
        return fmt.NA
    head = f"{fmt.num(estimate.median)} {unit}"
    lo, hi = fmt.num(estimate.lo), fmt.num(estimate.hi)
    return head if lo == hi else f"{head} ({tables.span_text(lo, hi)})"


def interval_rule_words(confidence: float = stats.CONFIDENCE) -> str:
    """How a figure's interval is read, from the statistics the book uses: '95 % confidence
    from 6 runs up; under 6, the slowest to the fastest run' (the fewest runs whose median
    interval reaches `confidence`: ``headlines.first_confident_runs``)."""
    from .. import headlines

    if not 0 < confidence < 1:
        raise ValueError(f"confidence is a probability between 0 and 1, got {confidence!r}")
    runs = headlines.first_confident_runs(confidence)
    return (
        f"{fmt.share(confidence)} confidence from {fmt.count(runs, 'run')} up; under {fmt.exact(runs)}, the slowest "
        "to the fastest run"
    )


def inputs_described() -> pl.DataFrame:
    return pl.DataFrame({"input": list(experiments.INPUTS), "what it is": list(experiments.INPUTS.values())})


# every public function above refuses bad arguments with a clear exception
checked(globals())
