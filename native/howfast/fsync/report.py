"""Tables, chart data and sentences for the fsync chapter, from its stored results.

Code compares the methods' ids (``experiments.METHODS``); what a reader sees is
``METHOD_NAMES``, applied by ``named`` as the last step before a table or chart.
"""

from __future__ import annotations

import polars as pl

from .. import claims, fmt, machine, reference, stats
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


# --- What the chapter says: every qualitative word from claims, over the intervals ---


def estimate(metrics: pl.DataFrame, by: list[str], metric: str, **where: object) -> stats.Estimate | None:
    """The median of `metric` for the case `where` with its interval; None when that case
    did not run here (or is not in `metrics` at all)."""
    if metrics.height == 0 or "metric" not in metrics.columns:
        return None
    summary = stats.summarize(metrics, by)
    try:
        return stats.estimate(summary, metric, **where)
    except KeyError:
        return None


def versus(c: claims.Comparison, other: str, *, more: str, less: str, same: str) -> str:
    """``claims.phrase`` with what is compared put before the phrase's parenthesis:
    'not clearly slower or faster than fsync (1.1× by the medians, but the runs overlap)'."""
    words = claims.phrase(c, more=more, less=less, same=same)
    if words.endswith(")") and " (" in words:
        head, rest = words.split(" (", 1)
        return f"{head} {other} ({rest}"
    return f"{words} {other}"


def _us(e: stats.Estimate | None) -> str:
    return fmt.duration_us(None if e is None else e.median)


def sync_cost_sentence(fsync_p50: stats.Estimate | None, none_p50: stats.Estimate | None) -> str:
    """How a write with fsync compares with one without (p50 latency per write, µs)."""
    c = claims.compare(fsync_p50, none_p50)
    if c.direction == claims.MISSING:
        return "How a write with the sync compares with one without could not be measured here."
    return (
        f"A write with the sync was {versus(c, 'one without', more='slower', less='faster', same='about as fast as')}."
    )


def fdatasync_sentence(
    append_fsync: stats.Estimate | None,
    append_fdatasync: stats.Estimate | None,
    rewrite_fsync: stats.Estimate | None,
    rewrite_fdatasync: stats.Estimate | None,
) -> str:
    """fdatasync against fsync (p50 per 4 KiB write) for a growing file and for rewrites:
    the word from ``claims.compare`` on the intervals, the reason from what each call must
    commit in that layout."""
    parts = []
    grow = claims.compare(append_fdatasync, append_fsync)
    if grow.direction == claims.MISSING:
        parts.append("Appending, fdatasync and fsync could not both be measured here.")
    else:
        said = (
            f"Appending to a new file, write + fdatasync took {_us(append_fdatasync)} at the median and "
            f"write + fsync {_us(append_fsync)}: fdatasync was "
            f"{versus(grow, 'fsync', more='slower', less='faster', same='about as fast as')}."
        )
        why = (
            " A growing file leaves fdatasync nothing to skip: every write changes the file's size and may "
            "allocate a block, and both calls must commit that metadata (on ext4, a journal commit) before "
            "they return."
        )
        if grow.direction == claims.HIGHER:
            why += (
                " So the gap is not work fdatasync adds; the two methods' repetitions ran one after the "
                "other, not at once, and this disk's speed drifts between them."
            )
        elif grow.direction == claims.LOWER:
            why += " That it was faster anyway is more than the work explains; read it as this disk's drift."
        parts.append(said + why)
    rewrite = claims.compare(rewrite_fdatasync, rewrite_fsync)
    if rewrite.direction == claims.MISSING:
        parts.append("Rewriting, the two could not both be measured here.")
    else:
        said = (
            f"Rewriting blocks that already exist, fdatasync took {_us(rewrite_fdatasync)} and fsync "
            f"{_us(rewrite_fsync)}: fdatasync was "
            f"{versus(rewrite, 'fsync', more='slower', less='faster', same='about as fast as')}."
        )
        if rewrite.direction == claims.LOWER:
            said += " Here it has something to skip: the timestamps a rewrite changes, which fsync must commit."
        elif rewrite.direction == claims.HIGHER:
            said += (
                " fdatasync does no more work than fsync here, so this gap is the disk's drift between the "
                "two methods' repetitions, not the calls."
            )
        else:
            said += (
                " It may skip the timestamps a rewrite changes, but on this machine that saving does not show "
                "beyond the spread of the repetitions."
            )
        parts.append(said)
    return " ".join(parts)


def batch_sentence(group: pl.DataFrame) -> str:
    """What batching did to durable records per second, the shape of the curve from
    ``claims.curve`` over the batch sizes' intervals."""
    summary = stats.summarize(group, ["records_per_sync"]) if group.height else group
    points = []
    if group.height:
        for n in sorted(summary["records_per_sync"].unique().to_list()):
            e = stats.estimate(summary, "records_per_s", records_per_sync=n)
            if e is not None:
                points.append((n, e))
    if len(points) < 2:
        return "Group commit could not be measured across batch sizes here."
    (n1, one), (nbig, big) = points[0], points[-1]
    wait = stats.estimate(summary, "p50", records_per_sync=nbig)
    more = versus(claims.compare(big, one), "with one", more="more", less="fewer", same="about as many as")
    shape = claims.curve(points)
    text = (
        f"With {fmt.count(n1, 'record')} per fsync, {fmt.num(one.median)} records per second became durable; "
        f"with {fmt.exact(int(nbig))} per fsync, {fmt.num(big.median)}, {more}, while each batch took "
        f"{_us(wait)} to become durable."
    )
    if shape.kind == "knee":
        text += (
            f" The rate stops rising clearly from {fmt.count(int(shape.x), 'record')} per fsync: no bigger batch "
            "beat it by more than the repetitions' spread."
        )
        first_wait = stats.estimate(summary, "p50", records_per_sync=n1)
        knee_wait = stats.estimate(summary, "p50", records_per_sync=shape.x)
        longer = claims.compare(knee_wait, first_wait)
        if longer.direction == claims.HIGHER and longer.lo >= 2:
            text += (
                f" A batch of {fmt.exact(int(shape.x))} took {_us(knee_wait)} against {_us(first_wait)} for one "
                "record: from there on, writing the bytes, not the flush, fills most of each batch's time."
            )
    elif shape.kind == "rising":
        text += (
            " The rate was still rising at the largest batch measured: the flushes, not the bytes, still set the pace."
        )
    elif shape.kind == "collapse":
        text += (
            f" Past {fmt.count(int(shape.peak_x), 'record')} per fsync the rate fell clearly "
            f"(at {fmt.exact(int(shape.x))} it was below half the best): bigger batches cost more than they saved here."
        )
    else:
        text += " No batch size was clearly faster than one record per fsync: on this disk the flush is not what costs."
    return text


#: What one run of the chapter's '4 KiB write + fsync' did, by experiment.
FOUR_KIB_RUNS = {
    "latency": "latency run: appends to a new file",
    "overwrite": "latency run: rewrites a written, synced file",
    "block_sizes": "block-size sweep: appends to a new file",
    "group_commit": "group commit, 1 record per fsync: appends",
    "vs_fio": "fio cross-check, ours: rewrites a laid-out file",
}


def four_kib_runs(latency: pl.DataFrame, sweep: pl.DataFrame, group: pl.DataFrame, fio: pl.DataFrame) -> pl.DataFrame:
    """Every run of this chapter that made 4 KiB writes durable one fsync at a time: what
    it did to the file, writes per repetition, repetitions, and durable writes per second
    (median, with the interval of the median)."""
    rows = []

    def add(key: str, frame: pl.DataFrame, metric: str, writes_column: str, **where: object) -> None:
        if frame.height == 0:
            return
        part = frame
        for k, v in where.items():
            if k not in part.columns:
                return
            part = part.filter(pl.col(k) == v)
        part = part.filter(pl.col("metric") == metric)
        if part.height == 0:
            return
        values = part["value"].drop_nulls().to_list()
        if not values:
            return
        lo, hi, _ = stats.median_interval(values)
        writes = part[writes_column][0] if writes_column in part.columns else None
        rows.append(
            {
                "run": FOUR_KIB_RUNS[key],
                "writes per repetition": None if writes is None else int(writes),
                "repetitions": len(values),
                "writes/s": float(pl.Series(values).median()),
                "interval": fmt.span(lo, hi),
            }
        )

    add("latency", latency, "writes_per_s", "writes", method="fsync", layout="append")
    add("overwrite", latency, "writes_per_s", "writes", method="fsync", layout="overwrite")
    add("block_sizes", sweep, "writes_per_s", "writes", method="fsync", block_size=4096)
    if group.height and "syncs" in group.columns:
        group = group.with_columns(pl.col("syncs").alias("records"))
    add("group_commit", group, "records_per_s", "records", records_per_sync=1)
    add("vs_fio", fio, "writes_per_s", "writes", method="fsync", tool="howfast")
    schema = {
        "run": pl.String,
        "writes per repetition": pl.Int64,
        "repetitions": pl.Int64,
        "writes/s": pl.Float64,
        "interval": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)


def four_kib_sentence(table: pl.DataFrame) -> str:
    """Why the chapter's runs of the same 4 KiB write + fsync give different rates."""
    if table.height < 2:
        return ""
    lo, hi = table.sort("writes/s").row(0, named=True), table.sort("writes/s").row(-1, named=True)
    if lo["writes/s"] == hi["writes/s"]:
        runs = fmt.count(table.height, "experiment")
        return f"The same 4 KiB write + fsync runs in {runs} of this chapter, at the same rate."
    return (
        f"The same 4 KiB write + fsync runs in {fmt.count(table.height, 'experiment')} of this chapter, and "
        f"their rates range from {fmt.num(lo['writes/s'])} ({lo['run']}) to {fmt.num(hi['writes/s'])} "
        f"({hi['run']}) durable writes per second. They differ in what each write does to the file (a growing "
        "file commits its new size on every sync, a rewrite only its data and timestamps), in how many writes a "
        "repetition makes, and in when they ran on a disk whose speed drifts from minute to minute. Each figure "
        "in the text says which run it comes from; the headline is the latency run's growing file."
    )


def reference_sentence(ours: stats.Estimate | None, laptop_us: float, facts: dict) -> str:
    """This machine's durable append beside seed 000's laptop (about 660 µs per fsync on a
    WD SN750): the two figures side by side, and why they are not comparable as drives."""
    cache = machine.write_cache_words(facts)
    here = (
        f"this machine's 4 KiB write + fsync (growing file, latency run) took {_us(ours)} at the median"
        if ours is not None
        else "this machine's write + fsync could not be measured"
    )
    text = (
        f"Seed 000's laptop took about {fmt.duration_us(laptop_us)} per fsync on its NVMe drive; {here}. "
        "The two are not comparable as drives. The seed does not say what its program wrote (block size, "
        "growing or rewritten file) or its drive's write-cache mode. Here the write cache is "
        f"{cache}"
    )
    if "virtual" in str(facts.get("device_kind", "")):
        text += (
            " (its own cache, a host's disk, network storage), so this machine's figure is what a program here "
            "waits for, not what a medium takes."
        )
    else:
        text += "."
    return text


def _ratio_estimates(metrics: pl.DataFrame, metric: str, invert: bool = False) -> dict[str, stats.Estimate]:
    """Per method, the median of the per-round ratios ours / fio of `metric` (fio / ours
    with `invert`), with its order-statistics interval."""
    rows = metrics.filter(pl.col("metric") == metric) if metrics.height else metrics
    if rows.height == 0 or not {"howfast", "fio"} <= set(rows["tool"].unique().to_list()):
        return {}
    wide = rows.pivot(on="tool", index=["method", "repetition"], values="value").drop_nulls(["howfast", "fio"])
    out = {}
    for method in wide["method"].unique(maintain_order=True).to_list():
        part = wide.filter(pl.col("method") == method)
        ratios = (part["fio"] / part["howfast"] if invert else part["howfast"] / part["fio"]).to_list()
        ratios = [r for r in ratios if r and r > 0]
        if ratios:
            lo, hi, level = stats.median_interval(ratios)
            median = float(pl.Series(ratios).median())
            out[method] = stats.Estimate(median, lo, hi, len(ratios), level)
    return out


def fio_sentence(metrics: pl.DataFrame) -> str:
    """The fio cross-check's verdict per method: ``crosscheck_sentence`` over durable writes per second."""
    return crosscheck_sentence(metrics, "writes_per_s", METHOD_NAMES, per="write")


def crosscheck_sentence(metrics: pl.DataFrame, metric: str, names: dict, *, per: str = "I/O") -> str:
    """A cross-check's verdict per case (column ``method``; ``names`` gives its words):
    ``claims.crosscheck`` over the per-round ratios ours / fio of `metric`, and what the
    mean time per `per` says about where a gap lies; an explanation only where both
    figures agree with it."""
    rates = _ratio_estimates(metrics, metric)
    if not rates:
        notes = metrics["note"].drop_nulls().unique().to_list() if "note" in metrics.columns else []
        return f"The comparison with fio could not run here ({'; '.join(notes) or 'no result'})."
    speed = _ratio_estimates(metrics, "mean", invert=True)  # fio's time / ours: above 1, ours is quicker per I/O
    groups: dict[str, list[str]] = {}
    explained = set()
    for method, r in rates.items():
        verdict = claims.crosscheck(r)
        name = names.get(method, method)
        span = f"{_edge(r.lo)}–{_edge(r.hi)}×"
        if verdict.outcome in ("ours higher", "ours lower"):
            factor = r.median if verdict.outcome == "ours higher" else 1 / r.median
            text = f"{name} ({fmt.ratio(factor)}; {span} of fio's rate)"
            per_io = speed.get(method)
            if per_io is not None:
                timed = claims.crosscheck(per_io)
                if timed.outcome == verdict.outcome:
                    text += f", with a mean time per {per} {fmt.ratio(1 / per_io.median)} fio's"
                    explained.add("inside")
                elif timed.outcome == "agrees":
                    text += f", yet with a mean time per {per} that agrees with fio's ({fmt.ratio(1 / per_io.median)})"
                    explained.add("outside")
                else:
                    text += f", with a mean time per {per} {fmt.ratio(1 / per_io.median)} fio's"
        else:
            text = f"{name} ({fmt.ratio(r.median)}; {span})"
        groups.setdefault(verdict.outcome, []).append(text)
    heads = {
        "agrees": "agrees with fio on",
        "ours higher": "is faster than fio on",
        "ours lower": "is slower than fio on",
        "inconclusive": "cannot be told apart from fio on this machine on",
    }
    said = [f"{heads[o]} {_listed(groups[o])}" for o in heads if o in groups]
    rounds = min(r.runs for r in rates.values())
    text = (
        f"Over {fmt.count(rounds, 'round')} of alternating runs, compared by the ratio of rates within each round, "
        f"our loop {'. It '.join(said)}."
    )
    if "inside" in explained:
        text += (
            f" Where the rate and the time per {per} differ by the same factor, the gap lies in the I/O "
            "itself, not in anything fio does before or after it; this page does not measure its cause."
        )
    if "outside" in explained:
        text += (
            f" Where the rates differ but the times per {per} agree, the gap lies outside the I/O: fio's "
            "rate divides by a runtime that also holds its own set-up."
        )
    return text


def _edge(x: float) -> str:
    """An end of a ratio's interval: two significant digits, more where those would show
    '1' for an end that is not 1 (a verdict turns on which side of 1 it lies)."""
    shown = fmt.num(x, 2)
    return f"{x:.3f}".rstrip("0") if shown == "1" and x != 1 else shown


def _listed(items: list[str]) -> str:
    """'a, b and c'; 'a; b; and c' when the items hold commas of their own."""
    if len(items) <= 1:
        return "".join(items)
    if any("," in item for item in items):
        return "; ".join(items[:-1]) + "; and " + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]


def batch_rule(big: stats.Estimate | None, one: stats.Estimate | None) -> str:
    """The closing rule on group commit: the largest batch's durable records per second
    against one record per fsync."""
    c = claims.compare(big, one)
    if c.direction == claims.MISSING:
        return "What batching buys could not be measured here."
    if c.direction == claims.HIGHER:
        return (
            f"Batching is the lever. On the same disk, group commit made records durable {fmt.ratio(c.ratio)} "
            "faster than one fsync per record; the price is that a record waits for its batch."
        )
    words = versus(c, "one fsync per record", more="faster", less="slower", same="about as fast as")
    return (
        f"Batching did not pay here: the largest batch made records durable {words}, "
        "so on this disk the flush is not what limits the rate."
    )


def layout_rule(rewrite: stats.Estimate | None, append: stats.Estimate | None) -> str:
    """The closing rule on preallocated logs: durable 4 KiB writes per second (the
    latency run) rewriting a file against appending to a new one."""
    c = claims.compare(rewrite, append)
    if c.direction == claims.MISSING:
        return "Whether a reused log file is cheaper to sync than a growing one could not be measured here."
    words = versus(c, "appending to a new one", more="faster", less="slower", same="about as fast as")
    if c.direction == claims.HIGHER:
        return (
            f"A preallocated, reused log file is cheaper to sync than one that grows: rewriting a file made 4 KiB "
            f"writes durable {words} here."
        )
    if c.direction == claims.LOWER:
        return (
            f"Rewriting a file made 4 KiB writes durable {words} here: the opposite of what the work predicts, "
            "so read it as this disk's drift between the runs."
        )
    return (
        f"Rewriting a file made 4 KiB writes durable {words} here: on this machine the metadata of a growing "
        "file does not show beyond the noise; on a disk where a journal commit costs more, it can."
    )


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
