"""Tables, chart data and sentences for the CPU and memory chapter, from its stored set.

Code compares ids (``experiments.OPERATIONS``, cache level names); ``COST_NAMES`` holds
the words a reader sees. Every sentence whose words depend on the data is here, tested
for each of its branches. Every qualitative word (faster, about the same, plateau, past a
cache) comes from ``claims`` over the intervals of the medians, and a cache level only
from the topology recorded with the set (``machine.caches(facts)``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import polars as pl

from .. import charts, claims, fmt, reference, stats, tables
from ..checks import checked
from ..claims import Cache
from ..crosscheck import ratio_estimate, side_by_side
from ..machine import caches as recorded_caches
from ..machine import virtual as virtual_machine
from ..stats import Estimate

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "latency": "memory-latency",
    "bandwidth": "memory-bandwidth",
    "costs": "lock, system-call and thread-cost",
    "vs_perf_pipe": "perf bench sched pipe",
    "vs_sysbench": "sysbench memory",
    "vs_perf_memcpy": "perf bench mem memcpy",
}

COST_NAMES = {
    "mutex": "mutex lock + unlock, one thread",
    "mutex_contended": "mutex lock + unlock, two threads contending",
    "atomic": "atomic increment, one thread",
    "atomic_shared": "atomic increment, two threads, one shared counter",
    "atomic_separate": "atomic increment, two threads, a counter each (own cache lines)",
    "getppid": "system call (getppid via syscall())",
    "clock_gettime": "clock_gettime (through the vDSO where the clocksource allows it)",
    "pipe_same_cpu": "process switch (pipe ping-pong, one CPU)",
    "pipe_any_cpu": "process wake-up (pipe ping-pong, any CPU)",
    "futex_same_cpu": "thread switch (futex, one CPU)",
    "futex_any_cpu": "thread wake-up (futex, any CPU)",
    "yield_same_cpu": "thread switch (sched_yield, one CPU)",
    "thread_create": "create + join a thread",
}
#: The seed's operating-system rows (system.csv ``operation``) → our operation id.
SEED_OPERATIONS = {
    "mutex_lock_unlock": "mutex",
    "syscall": "getppid",
    "process_context_switch": "pipe_same_cpu",
    "thread_context_switch_futex": "futex_same_cpu",
    "thread_switch_sched_yield": "yield_same_cpu",
}
#: What differs between the seed's row and ours besides the machine; a row whose method
#: differs in a way that decides the figure is in ``SEED_NOT_COMPARABLE`` instead.
SEED_DIFFERS = {
    "mutex_lock_unlock": "the seed names neither its lock nor its language; ours is a std::mutex "
    "(a futex-based pthread mutex) locked and unlocked by one thread",
    "syscall": "the seed does not name its call; ours is getppid through syscall(), "
    "about the cheapest call that enters the kernel; what entering the kernel costs depends on the kernel's "
    "version and its side-channel mitigations (in a virtual machine, also on which CPU features the hypervisor "
    "exposes; the call itself does not exit to the hypervisor) as much as on the CPU",
    "process_context_switch": "the seed does not say how its processes handed over or whether they shared a CPU; "
    "ours is a pipe ping-pong of two processes pinned to one CPU",
    "thread_context_switch_futex": "both hand over through a futex, but the seed does not say whether its threads "
    "shared a CPU; ours are pinned to one, and where the two threads run decides the figure (compare the one-CPU "
    "and any-CPU rows above)",
}
#: The seed's rows whose method it does not give, where the method decides the figure (which
#: call enters the kernel; which lock, in which language; how two processes or threads hand
#: over, on one CPU or two): no ratio is printed for them, as the hashing chapter prints none
#: where library and input are unknown.
SEED_METHOD_UNKNOWN = ("mutex_lock_unlock", "syscall", "process_context_switch", "thread_context_switch_futex")
_SIZE = re.compile(r"(L\w+)\s+(\d+)([KMG]?)")
_MULT = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}
_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6}
_SEED_SIZE = {"KB": 2**10, "MB": 2**20, "GB": 2**30, "TB": 2**40}  # the seed's cache table means binary sizes
#: Neighbouring working sets whose whole latency ratio interval lies within this factor
#: of 1 are on one plateau: the steps of a latency ladder (L1 → L2 → L3 → RAM) are 3× or
#: more, the drift along one step a few tens of per cent.
PLATEAU_SAME = 1.25
#: Pages past which a working set is far beyond a typical TLB (a few thousand entries is a
#: typical size on current x86 cores; this machine's is not read or measured here).
TLB_PAGES = 8192
#: The seed's table names its first level "L1"; the kernel "L1d".
_SEED_LEVEL = {"L1d": "L1"}


def cache_levels(facts: dict[str, Any]) -> list[tuple[str, int]]:
    """Data caches of the machine facts ("L1d 48K, L1i 32K, L2 1024K, ...") as (level, bytes)."""
    found = [(name, int(n) * _MULT[m]) for name, n, m in _SIZE.findall(str(facts.get("caches", "")))]
    return [(name.replace("L1d", "L1"), size) for name, size in found if name != "L1i"]


def data_caches(facts: dict[str, Any]) -> list[Cache]:
    """The data (and unified) caches recorded with the set, smallest first: the topology of
    the machine that measured it (``machine.caches``), never the rendering machine's."""
    return sorted((c for c in recorded_caches(facts) if not c.name.endswith("i")), key=lambda c: c.size)


#: This book's rule of thumb, not measured here: a dependent load served by any cache level
#: of a current x86 CPU usually takes well under this (an L3 hit is typically some 10–50 ns);
#: a working set that fits in a cache and whose whole interval lies above it was likely
#: disturbed, not timing the cache.
CACHE_CEILING_NS = 100.0
#: This book's rule of thumb, not measured here: a dependent load from DRAM typically takes
#: some 80–150 ns, a few hundred with a TLB miss whose page walk (nested, in a virtual
#: machine) misses the caches too; a working set past every cache whose whole interval lies
#: above this was likely disturbed, not timing the memory.
RAM_CEILING_NS = 400.0


def implausible(working_set: int, e: Estimate, caches: Sequence[Cache]) -> bool:
    """Whether a latency is far above what any load can take, a load from RAM included:
    its whole interval above ``RAM_CEILING_NS``, wherever its working set lives (a set that
    fits in a cache by size may still be served by RAM: ``slow_hit``). The wall clock then
    likely counted time the CPU spent on other work, and the figure is disturbed."""
    if not isinstance(working_set, int) or isinstance(working_set, bool) or working_set < 0:
        raise ValueError(f"working_set is a number of bytes, got {working_set!r}")
    return e.lo > RAM_CEILING_NS


def slow_hit(working_set: int, e: Estimate, caches: Sequence[Cache]) -> bool:
    """Whether a working set that fits in a cache of `caches` by size took longer than a
    cache hit usually takes (its whole interval above ``CACHE_CEILING_NS``) but is not
    ``implausible``: its loads may have been served by RAM, not by the cache."""
    inside = bool(caches) and claims.cache_level(working_set, list(caches)) is not None
    return inside and e.lo > CACHE_CEILING_NS and not implausible(working_set, e, caches)


def slow_hit_words(working_set: int, caches: Sequence[Cache]) -> str:
    """The latency table's words for a ``slow_hit``: 'slower than a cache hit: may have
    been served by RAM', with '(the L3 is shared)' where the level it fits in is shared."""
    level = claims.cache_level(working_set, list(caches))
    if level is None:
        raise ValueError(f"working_set {working_set} fits in no cache of caches")
    shared = f" (the {level.name} is shared)" if level.shared_by > 1 else ""
    return f"slower than a cache hit: may have been served by RAM{shared}"


def plausible_points(latency: pl.DataFrame, facts: dict[str, Any]) -> list[tuple[int, Estimate]]:
    """The latency points that are not ``implausible``."""
    caches = data_caches(facts)
    return [(ws, e) for ws, e in latency_points(latency) if not implausible(ws, e, caches)]


def plausibility_sentence(latency: pl.DataFrame, facts: dict[str, Any]) -> str:
    """Which working sets took far longer than even a load from RAM can take
    (``implausible``), and which fit in a cache by size yet took longer than a cache hit
    (``slow_hit``), and what the page does with them; '' when none did."""
    caches = data_caches(facts)
    points = latency_points(latency)
    odd = [(ws, e) for ws, e in points if implausible(ws, e, caches)]
    slow = [(ws, e) for ws, e in points if slow_hit(ws, e, caches)]
    said = []
    if slow:
        one = len(slow) == 1
        levels = [claims.cache_level(ws, caches) for ws, _ in slow]
        shared = sorted({c.name for c in levels if c is not None and c.shared_by > 1})
        aside = (
            f" (the {' and the '.join(shared)} {'is' if len(shared) == 1 else 'are'} shared, so other programs' data "
            "may take its place)"
            if shared
            else ""
        )
        if one:
            (ws, e), level = slow[0], levels[0]
            head = (
                f"The {fmt.size(ws)} working set fits in the {level.name} ({fmt.size(level.size)}) by size, yet a "  # type: ignore[union-attr]
                f"load took {_bounds(e)}, its whole interval above"
            )
        else:
            listed = ", ".join(f"{fmt.num(e.median)} ns at {fmt.size(ws)}" for ws, e in slow)
            head = (
                f"Some working sets fit in a cache by size, yet their loads took longer ({listed}), each interval above"
            )
        said.append(
            f"{head} this book's rule of thumb for a cache hit (under {fmt.num(CACHE_CEILING_NS)} ns, typical of "
            f"current x86 CPUs and not measured here) but not above the one for a load from RAM (under "
            f"{fmt.num(RAM_CEILING_NS)} ns): {'its' if one else 'their'} loads may have been served by RAM{aside}; "
            "this run counts no cache misses, so it cannot say."
        )
    if odd:
        one = len(odd) == 1
        listed = ", ".join(f"{fmt.num(e.median)} ns at {fmt.size(ws)}" for ws, e in odd)
        which = "this working set's figure is" if one else f"these {fmt.exact(len(odd))} figures are"
        said.append(
            f"Some loads took far longer than even a load from RAM usually takes ({listed}): this book's rule of "
            f"thumb, typical of current x86 CPUs and not measured here, is under {fmt.num(RAM_CEILING_NS)} ns, page "
            f"walk included, and {'this interval lies' if one else 'each of these intervals lies'} wholly above it. "
            f"The wall clock may have counted time the CPU spent on other work during {'its' if one else 'those'} "
            f"runs, so {which} likely disturbed, not the memory's latency: the sentences below build nothing on "
            f"{'it' if one else 'them'}."
        )
    return " ".join(said)


def latency_curve(latency: pl.DataFrame, metric: str = "ns_per_load") -> pl.DataFrame:
    """Per working set: the median, the interval of the median (``lo``–``hi``, which the
    chart's band draws) and the run count (``repetitions``, in its tooltip)."""
    summary = stats.summarize(latency, ["working_set"]).filter(pl.col("metric") == metric)
    return summary.select("working_set", "median", "lo", "hi", "repetitions").with_columns(quantity=pl.lit(metric))


def latency_points(latency: pl.DataFrame) -> list[tuple[int, Estimate]]:
    """(working set, ns per load with its interval), smallest working set first."""
    summary = stats.summarize(latency, ["working_set"]).filter(pl.col("metric") == "ns_per_load")
    rows = summary.sort("working_set").iter_rows(named=True)
    return [(int(r["working_set"]), Estimate.from_row(r)) for r in rows if r["median"] is not None]


def latency_chart(latency: pl.DataFrame, facts: dict[str, Any]) -> alt.TopLevelMixin:
    """ns per load against the working set (log-log, sizes in KiB/MiB/GiB), with a dashed
    rule and a label at each data cache size the measuring machine's kernel reported."""
    curve = latency_curve(latency)
    if curve.height == 0:
        return charts.unavailable("the pointer chase could not run here")
    line = charts.lines(curve, x="working_set", y="median", color="quantity", x_title="working set (log scale)",
                        y_title="ns per dependent load (log scale)", legend=False,
                        x_labels=charts.SIZE_LABEL)  # fmt: skip
    levels = pl.DataFrame(
        [{"working_set": c.size, "label": f"{c.name} {fmt.size(c.size)}"} for c in data_caches(facts)],
        schema={"working_set": pl.Int64, "label": pl.String},
    )
    if levels.height == 0:
        return line.configure_axisX(labelAngle=-40)  # slanted: every size keeps its label in a narrow column
    rules = alt.Chart(levels).mark_rule(strokeDash=[4, 3], color="#888").encode(x="working_set:Q")
    text = (
        alt.Chart(levels)
        .mark_text(align="left", dx=3, dy=-6, color="#555", fontSize=11)
        .encode(x="working_set:Q", y=alt.value(8), text="label:N")
    )
    layers = [line, rules, text]
    for bound, label, color in chart_bounds(latency, facts):
        # a rule of thumb, drawn only where some point's whole interval lies above it: the reader sees which do
        ceiling = pl.DataFrame({"ns": [bound], "label": [label]})
        layers.append(alt.Chart(ceiling).mark_rule(strokeDash=[1, 3], color=color).encode(y="ns:Q"))
        layers.append(
            alt.Chart(ceiling)
            .mark_text(align="left", dx=4, dy=-6, color=color, fontSize=11)
            .encode(y="ns:Q", x=alt.value(4), text="label:N")
        )
    return alt.layer(*layers).configure_axisX(labelAngle=-40)


def chart_bounds(latency: pl.DataFrame, facts: dict[str, Any]) -> list[tuple[float, str, str]]:
    """The rules of thumb the latency chart draws, as (ns, label, colour): the cache hit's
    (``CACHE_CEILING_NS``) where some ``slow_hit`` point's whole interval lies above it, the
    RAM load's (``RAM_CEILING_NS``) where some point's does (``implausible``); each only then."""
    caches = data_caches(facts)
    points = latency_points(latency)
    bounds = []
    if any(slow_hit(ws, e, caches) for ws, e in points):
        hit = f"{fmt.num(CACHE_CEILING_NS)} ns: more than a cache hit usually takes"
        bounds.append((CACHE_CEILING_NS, hit, "#c60"))
    if any(implausible(ws, e, caches) for ws, e in points):
        bounds.append((RAM_CEILING_NS, f"{fmt.num(RAM_CEILING_NS)} ns: more than a RAM load usually takes", "#b00"))
    return bounds


def as_long(c: claims.Comparison) -> str:
    """A later time against an earlier one: '990× as long (955–1,410× within the two
    intervals)', 'about as long (1.02×)', '2× shorter (…)', 'not clearly longer or shorter
    (0.9× by the medians, but the intervals overlap)', '' when either is missing."""
    if c.direction == claims.MISSING or c.ratio is None:
        return ""
    if c.direction == claims.HIGHER:
        return f"{fmt.factor(c.ratio)}× as long ({claims.ratio_interval(c, median=False)} within the two intervals)"
    if c.direction == claims.LOWER:
        turned = claims.ratio_interval(c, way="inverted", median=False)
        return f"{fmt.factor(1 / c.ratio)}× shorter ({turned} within the two intervals)"
    if c.direction == claims.SAME_WORD:
        return f"about as long ({fmt.factor(c.ratio)}×)"
    return f"not clearly longer or shorter ({fmt.factor(c.ratio)}× by the medians, but the intervals overlap)"


def ladder_sentence(latency: pl.DataFrame, facts: dict[str, Any] | None = None) -> str:
    """The smallest and the largest working set's latency, and how far apart, in the words
    ``claims.compare`` allows, with the range the ratio takes within the two intervals; no
    ratio where either is ``implausible`` (by the topology in `facts`)."""
    points = latency_points(latency)
    if not points:
        return "The pointer chase could not run here."
    (ws0, first), (ws1, last) = points[0], points[-1]
    if len(points) == 1:
        return f"One working set was measured: {fmt.size(ws0)}, {_bounds(first)} per load."
    caches = data_caches(facts or {})
    odd_first, odd_last = implausible(ws0, first, caches), implausible(ws1, last, caches)
    too_far = "too far above what memory usually takes to compare (below)"
    if odd_first and odd_last:
        return (
            f"A load in the {fmt.size(ws0)} working set took {_bounds(first)}; one in the {fmt.size(ws1)} working "
            f"set took {_bounds(last)}: both figures lie {too_far}."
        )
    if odd_first:
        return (
            f"A load in the {fmt.size(ws0)} working set took {_bounds(first)}, a figure {too_far}; one in the "
            f"{fmt.size(ws1)} working set took {_bounds(last)}."
        )
    if odd_last:
        return (
            f"A load in the {fmt.size(ws0)} working set took {_bounds(first)}; one in the {fmt.size(ws1)} working "
            f"set read {_bounds(last)}, a figure {too_far}."
        )
    return (
        f"A load in the {fmt.size(ws0)} working set took {_bounds(first)}; one in the {fmt.size(ws1)} working set "
        f"took {_bounds(last)}, {as_long(claims.compare(last, first))}."
    )


def unstable_sentence(
    latency: pl.DataFrame, bandwidth: pl.DataFrame, costs: pl.DataFrame, target: float | None = None
) -> str:
    """How many of the page's measured figures (ns per load, GB/s, ns per operation) stayed
    wider than ±`target` of their median, the profile's (``stats.stability``), and what that
    means for reading them; for a profile that runs a fixed count (no target), that count;
    a sentence saying so when nothing was measured, never an empty value."""
    tables_ = "the latency, bandwidth and cost tables"
    figures = [
        *(e for _, e in latency_points(latency)),
        *(Estimate.from_row(r) for r in _summary(bandwidth, ["kind", "threads"], "gb_per_s")),
        *(Estimate.from_row(r) for r in _summary(costs, ["operation"], "ns_per_op")),
    ]
    if not figures:
        return f"None of {tables_} could be measured here."
    runs = sorted({e.runs for e in figures})
    of = fmt.count(runs[0], "run") if len(runs) == 1 else f"{runs[0]} to {runs[-1]} runs"
    after = f"after {of} each" if len(runs) == 1 else f"after {of}"
    if target is None:
        return (
            f"This profile runs each case a fixed number of times, with no target for the intervals: every figure of "
            f"{tables_} is the median of {of}, its interval beside it."
        )
    wide = sum(1 for e in figures if stats.stability(e, target))
    bound = f"±{fmt.share(target, 2)}"
    if not wide:
        return f"Every figure of {tables_} came within {bound} of its median, the profile's target ({after})."
    share = (
        f"all {fmt.exact(len(figures))}"
        if wide == len(figures)
        else f"{fmt.exact(wide)} of the {fmt.exact(len(figures))}"
    )
    return (
        f"Of the figures of {tables_}, {share} stayed wider than {bound} of their median, the profile's target "
        f"({after}; marked unstable): the page's words (faster, about the same, the intervals overlap) are read "
        "from the intervals and allow for that spread, but the medians themselves are rough."
    )


def _summary(metrics: pl.DataFrame, by: list[str], metric: str) -> list[dict[str, Any]]:
    if metrics.height == 0 or "metric" not in metrics.columns:
        return []
    rows = stats.summarize(metrics, by).filter((pl.col("metric") == metric) & pl.col("median").is_not_null())
    return list(rows.iter_rows(named=True))


# --- plateaus and cache levels ---------------------------------------------------------------


@dataclass(frozen=True)
class Plateau:
    """Consecutive working sets whose latencies are level (``step``: ``claims.compare``
    with ``PLATEAU_SAME``), from ``first`` to ``last`` (bytes), medians ``low``–``high``."""

    first: int
    last: int
    low: float
    high: float
    points: int


def step(later: Estimate | None, earlier: Estimate | None, *, same: float = PLATEAU_SAME) -> claims.Comparison:
    """A latency against the one before it on the curve: ``claims.compare``, except that a
    ratio whose whole interval lies within `same` of 1 is 'same' even where the runs do not
    overlap (a step of 2 % between tight runs is still level ground, not a cache's edge)."""
    c = claims.compare(later, earlier, same=same)
    if c.direction in (claims.HIGHER, claims.LOWER) and c.lo is not None and c.hi is not None:
        if 1 / same <= c.lo and c.hi <= same:
            return claims.Comparison(claims.SAME_WORD, c.ratio, c.lo, c.hi)
    return c


def plateaus(points: Sequence[tuple[int, Estimate]], *, same: float = PLATEAU_SAME) -> list[Plateau]:
    """The plateaus of a latency curve: maximal runs of at least two consecutive points,
    each about the same as the one before (the whole interval of their ratio within
    `same` of 1), and the highest median of the run within `same` of its lowest (so that
    steps of 20 % do not add up to a 'plateau' that rose by half). Points whose runs
    overlap too widely to tell are on no plateau."""
    if not isinstance(points, (list, tuple)) or not all(
        isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[1], Estimate) for p in points
    ):
        raise TypeError("points must be a list of (working set, stats.Estimate) pairs")
    xs = [int(x) for x, _ in points]
    if any(b <= a for a, b in zip(xs, xs[1:])):
        raise ValueError(f"points must be sorted by working set, strictly increasing, got {xs}")
    found: list[Plateau] = []
    run: list[tuple[int, Estimate]] = []
    for point in points:
        medians = [e.median for _, e in run] + [point[1].median]
        level = max(medians) <= same * min(medians)
        if run and level and step(point[1], run[-1][1], same=same).direction == claims.SAME_WORD:
            run.append(point)
            continue
        if len(run) >= 2:
            found.append(_plateau(run))
        run = [point]
    if len(run) >= 2:
        found.append(_plateau(run))
    return found


def _plateau(run: list[tuple[int, Estimate]]) -> Plateau:
    medians = [e.median for _, e in run]
    return Plateau(run[0][0], run[-1][0], min(medians), max(medians), len(run))


def level_name(working_set: int, caches: Sequence[Cache]) -> str:
    """'L1d', 'L2', 'L3' (the smallest level of the measured topology it fits in), 'no
    cache' past them all, 'unknown' when the kernel reported no cache sizes."""
    if not isinstance(caches, (list, tuple)) or not all(isinstance(c, Cache) for c in caches):
        raise TypeError("level_name(): caches must be a list of claims.Cache (machine.caches(facts))")
    if not [c for c in caches if not c.name.endswith("i")]:
        return "unknown"
    level = claims.cache_level(working_set, list(caches))
    if level is not None and working_set == level.size:
        return f"about the {level.name}'s size"
    return "no cache" if level is None else level.name


def read_bandwidth(bandwidth: pl.DataFrame) -> tuple[int, Estimate] | None:
    """The sweep's sequential read rate (GB/s) that the page and the numbers card quote,
    with its thread count: the fewest threads, unless more threads read clearly faster
    (``claims.compare``, their intervals apart), step by step up the thread counts. A
    larger thread count whose median is higher but whose interval overlaps is not quoted:
    its edge is noise as far as this run can tell. None when no read ran."""
    reads = (
        stats.summarize(bandwidth, ["kind", "threads"])
        .filter((pl.col("kind") == "read") & (pl.col("metric") == "gb_per_s"))
        .sort("threads")
    )
    if reads.height == 0:
        return None
    rows = reads.rows(named=True)
    chosen = rows[0]
    for row in rows[1:]:
        if claims.compare(Estimate.from_row(row), Estimate.from_row(chosen)).direction == claims.HIGHER:
            chosen = row
    return int(chosen["threads"]), Estimate.from_row(chosen)


def step_words(c: claims.Comparison) -> str:
    """A latency against the previous working set's, in the table's words: a clear step
    with the range its ratio can take within the two intervals ('3.4× slower (3.3–3.5×)');
    where the intervals only just part (the near end within ``claims.SAME`` of 1) the
    range leads ('1.001–12× slower (8.3× by the medians)'), so the cell shows how small the
    step may be."""
    if c.direction == claims.MISSING or c.ratio is None:
        return ""
    if c.direction == claims.SAME_WORD:
        return f"within {fmt.share(PLATEAU_SAME - 1, 2)} ({fmt.factor(c.ratio)}×)"
    if c.direction in (claims.HIGHER, claims.LOWER):
        word = "slower" if c.direction == claims.HIGHER else "faster"
        way = "as measured" if c.direction == claims.HIGHER else "inverted"
        ends = claims.ratio_interval(c, way=way, median=False)
        ratio = fmt.factor(c.ratio if c.direction == claims.HIGHER else 1 / c.ratio)
        near = c.lo if c.direction == claims.HIGHER else 1 / c.hi  # type: ignore[operator]
        if near < claims.SAME:  # the intervals only just part: the range leads, the medians' ratio follows
            return f"{ends} {word} ({ratio}× by the medians)"
        return f"{ratio}× {word}" + (f" ({ends})" if "–" in ends else "")
    return f"intervals overlap ({fmt.factor(c.ratio)}×)"


def interval_cell(e: Estimate, target: float | None, show: Any = None) -> str:
    """A table's interval column: '1.1–1.62', then '; unstable: ±23 %' where the interval
    stayed wider than ±`target` (``stats.stability``), the mark's spaces unbreakable so
    that a narrow column wraps it whole onto a line of its own."""
    show = show or fmt.num
    return f"{show(e.lo)}–{show(e.hi)}" + _mark(e, target)


NBSP = "\u00a0"


def _mark(e: Estimate, target: float | None) -> str:
    """'; unstable: ±23 %' (spaces inside the mark unbreakable), or ''."""
    mark = stats.stability(e, target)
    return f"; {mark.replace(' ', NBSP)}" if mark else ""


def latency_table(latency: pl.DataFrame, facts: dict[str, Any], target: float | None = None) -> pl.DataFrame:
    """Per working set: the cache level it fits in (this set's topology), ns per load, the
    interval of that median (marked unstable where it stayed wider than ±`target`, the
    profile's: ``ResultSet.target``), the run count, and how it compares with the previous
    working set (the plateau predicate's own evidence)."""
    caches = data_caches(facts)
    points = latency_points(latency)
    rows = []
    for i, (ws, e) in enumerate(points):
        same = step(e, points[i - 1][1]) if i else None
        words = "" if same is None else step_words(same)
        if implausible(ws, e, caches):
            words = "implausible: far above a RAM load"
        elif slow_hit(ws, e, caches):
            words = slow_hit_words(ws, caches)
        rows.append({
            "working set": fmt.size(ws), "fits in": level_name(ws, caches), "ns per load": e.median,
            "interval": interval_cell(e, target), "runs": e.runs, "against the previous": words,
        })  # fmt: skip
    schema = {"working set": pl.String, "fits in": pl.String, "ns per load": pl.Float64, "interval": pl.String,
              "runs": pl.Int64, "against the previous": pl.String}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def plateau_sentence(latency: pl.DataFrame, facts: dict[str, Any]) -> str:
    """Where the curve is flat (``plateaus``), with the cache level the measured topology
    puts each plateau in; no plateau word when no two neighbours are within ``PLATEAU_SAME``."""
    points = plausible_points(latency, facts)
    if not latency_points(latency):
        return "The pointer chase could not run here."
    if len(points) == 1:
        return "With one working set measured, this run can show no plateau."
    caches = data_caches(facts)
    found = plateaus(points)
    if not found:
        return (
            f"No two neighbouring working sets took clearly within {fmt.share(PLATEAU_SAME - 1, 2)} of each other's "
            "time in this run (the last column of the table below: their intervals overlap too widely, or they differ "
            "by more), so this run cannot confirm a plateau."
        )
    parts = []
    for p in found:
        # grouped by the level each fits in (claims.cache_level), so a working set the size of a level
        # counts in that level, not as a level of its own ('about the L2's size' is the table's word)
        levels = {claims.cache_level(ws, caches) for ws, _ in points if p.first <= ws <= p.last} if caches else set()
        took = f"{fmt.num(p.low)}–{fmt.num(p.high)} ns" if fmt.num(p.low) != fmt.num(p.high) else f"{fmt.num(p.low)} ns"
        where = f"{took} per load from {fmt.size(p.first)} to {fmt.size(p.last)}"
        if not caches:
            parts.append(f"{where} (the kernel reported no cache sizes to name a level)")
        elif levels == {None}:
            parts.append(f"{where}, working sets larger than every cache")
        elif len(levels) == 1:
            (level,) = levels
            assert level is not None
            fits = f"{level.name} ({fmt.size(level.size)}, {claims.sharing(level, virtual=virtual_machine(facts))})"
            parts.append(f"{where}, working sets that fit in the {fits}")
        else:
            ordered = sorted(levels, key=lambda c: float("inf") if c is None else c.size)
            named = ", ".join("no cache" if c is None else c.name for c in ordered)
            parts.append(f"{where}, though by size these fall in different levels ({named}): "
                         "this run shows no step between them")  # fmt: skip
    return (
        f"This run shows {fmt.count(len(found), 'plateau')}, stretches where each working set took within "
        f"{fmt.share(PLATEAU_SAME - 1, 2)} of the one before (the whole range of their ratio) and the slowest "
        f"within {fmt.share(PLATEAU_SAME - 1, 2)} of the fastest: " + "; ".join(parts) + "."
    )


def inside_sentence(latency: pl.DataFrame, facts: dict[str, Any]) -> str:
    """Levels inside whose size latency still rose clearly (the whole interval of the
    ratio of its largest to its smallest working set at least 2×), said as where, not why."""
    caches = data_caches(facts)
    points = plausible_points(latency, facts)
    parts = []
    pairs = 0
    sure = False  # whether some part shows clearly that a set was not served by its cache, not just may not be
    for c in caches:
        # a working set the size of the level itself does not fit beside the page tables and code
        inside = [(ws, e) for ws, e in points if claims.cache_level(ws, caches) == c and ws < c.size]
        if len(inside) < 2:
            continue
        pairs += 1
        (ws0, e0), (ws1, e1) = inside[0], inside[-1]
        rise = step(e1, e0)
        if rise.direction == claims.HIGHER and rise.lo is not None and rise.lo >= 2:
            sure = True
            parts.append(
                f"within the {c.name}'s {fmt.size(c.size)}, latency rose from {fmt.num(e0.median)} ns at "
                f"{fmt.size(ws0)} to "
                f"{fmt.num(e1.median)} ns at {fmt.size(ws1)} ({fmt.factor(rise.ratio)}×; "
                f"{claims.ratio_interval(rise, median=False)} within the two intervals)"
            )
        elif rise.direction == claims.HIGHER and rise.ratio is not None and rise.ratio >= 2:
            parts.append(
                f"within the {c.name}'s {fmt.size(c.size)}, latency rose from {fmt.num(e0.median)} ns at "
                f"{fmt.size(ws0)} to {fmt.num(e1.median)} ns at {fmt.size(ws1)} by the medians "
                f"({fmt.factor(rise.ratio)}×), but the runs at {fmt.size(ws1)} split, from {fmt.num(e1.lo)} to "
                f"{fmt.num(e1.hi)} ns, so the rise may be as small as {fmt.factor(rise.lo)}×, perhaps because the "
                "cache served some runs and not others"
            )
    past = [(ws, e) for ws, e in points if caches and claims.cache_level(ws, caches) is None]
    # the last level's largest working set below its size (one of the level's own size does not fit beside the
    # page tables and code): where the level's edge shows first
    last = [
        (ws, e) for ws, e in points if caches and claims.cache_level(ws, caches) == caches[-1] and ws < caches[-1].size
    ]
    if past and last and len(caches) > 1:
        (ws0, e0), (ws1, e1) = last[-1], past[0]
        pairs += 1
        gain = step(e0, e1)
        if not (gain.direction == claims.LOWER and gain.hi is not None and gain.hi <= 0.5):
            half = "clearly more than" if gain.lo is not None and gain.lo > 0.5 else "not clearly under"
            sure = sure or half == "clearly more than"
            parts.append(
                f"at {fmt.size(ws0)}, inside the {caches[-1].name}'s {fmt.size(caches[-1].size)}, a load already took "
                f"{fmt.num(e0.median)} ns, {half} half the {fmt.num(e1.median)} ns at {fmt.size(ws1)}, "
                "past every cache"
            )
    if not parts:
        if not (points and caches):
            return ""
        if not pairs:
            return "No cache level holds two of the working sets measured, so this run shows no rise within one."
        return (
            "Within each cache level's size, no working set took clearly more than twice as long as the smallest in it."
        )
    served = "is not always served" if sure else "may not always be served"
    return (
        f"A working set that fits in a cache by size {served} by it here: "
        + "; ".join(parts)
        + ". A cache also holds the page tables and the program's other data, a shared one the other CPUs' "
        "data (on a virtual machine, perhaps other guests' too), and each address may sit in only a few of its "
        "places; this run counts no misses, so it shows where latency rose, not which of these (or time the CPU "
        "gave to other programs, which the wall clock counts) made it rise."
    )


def memory_facts(facts: dict[str, Any]) -> dict[str, Any]:
    """The page size and transparent-huge-page mode of the machine that measured, as its
    facts recorded them; read from this kernel for an older set measured on this machine
    (recorded before the facts held them); empty otherwise."""
    from ..machine import machine_id, transparent_hugepages

    if "page_size" in facts:
        return {"page_size": facts["page_size"], "thp": facts.get("transparent_hugepages")}
    if facts.get("machine") not in (None, machine_id()):
        return {}
    return {"page_size": os.sysconf("SC_PAGE_SIZE"), "thp": transparent_hugepages()}


_THP = {
    "madvise": "transparent huge pages are 'madvise' here, and the pointer chase does not ask for them",
    "never": "transparent huge pages are off ('never') here",
}
#: Where the kernel may have backed the buffer with huge pages, or the mode was not recorded:
#: how many pages a working set spans is not known, so no page count and no TLB reasoning.
_THP_UNKNOWN = {
    "always": "transparent huge pages are 'always' here, so the kernel may have backed the buffer with 2 MiB pages "
    "in any mix with {page} ones",
    None: "whether transparent huge pages backed the buffer was not recorded",
}


def beyond_sentence(latency: pl.DataFrame, facts: dict[str, Any], memory: dict[str, Any] | None = None) -> str:
    """What happens past the last cache level of the measured topology: whether latency
    still rises (``claims.compare`` of the largest working set against the first past the
    cache) and what this run can say about why (pages and TLB, from `memory`:
    ``memory_facts``), no more: no page count, and so no TLB reasoning, where transparent
    huge pages were 'always' or their mode was not recorded."""
    points = latency_points(latency)
    if not points:
        return "No working set was measured, so nothing is known past the caches."
    caches = data_caches(facts)
    if not caches:
        return "The kernel of the machine that measured reported no cache sizes, so this page names no cache level."
    last = caches[-1]
    past = [(ws, e) for ws, e in points if claims.cache_level(ws, caches) is None]
    who = f"the {last.name} ({fmt.size(last.size)}, {claims.sharing(last, virtual=virtual_machine(facts))})"
    if not past:
        return (
            f"Every working set measured fits in {who}: this run has no point past the caches "
            "(a larger profile sweeps further)."
        )
    (ws0, e0), (ws1, e1) = past[0], past[-1]
    odd = [(ws, e) for ws, e in past if implausible(ws, e, caches)]
    if odd:
        listed = ", ".join(f"{fmt.num(e.median)} ns at {fmt.size(ws)}" for ws, e in odd)
        loads = "this run's loads" if len(odd) == len(past) else "some of this run's loads"
        return (
            f"Past {who}, {loads} ({listed}) took far longer than a load from RAM usually takes, so it "
            "cannot say whether latency still rises past the caches, nor why."
        )
    memory = memory or {}
    page = memory.get("page_size")
    thp = memory.get("thp")
    counted = bool(page) and thp in _THP  # the base-page count holds only where huge pages did not back the buffer
    if counted:
        pages = f"with {fmt.size(page)} pages, {fmt.size(ws1)} spans {fmt.exact(ws1 // page)} of them ({_THP[thp]})"
    elif page:
        unknown = _THP_UNKNOWN.get(thp, _THP_UNKNOWN[None]).format(page=fmt.size(page))
        pages = f"{unknown}, so how many pages {fmt.size(ws1)} spans is not known"
    else:
        pages = "the page size of the machine that measured was not recorded"
    many = counted and ws1 // page >= TLB_PAGES
    tlb = (
        f"A larger working set does not make RAM slower; it spans more pages: {pages}, far more translations than "
        "a typical x86 core's TLB holds (a few thousand entries is a typical size; this machine's was not read), so "
        "more loads may also wait for a page-table "
        f"walk, on a virtual machine through the hypervisor's tables too; and the larger the working set, the "
        f"larger the tables the walk reads (8 bytes per page: {fmt.size(ws1 // page * 8) if page else ''} of "
        f"last-level entries at {fmt.size(ws1)}), so the walks themselves may miss the caches more often. "
        "This run does not count TLB misses "
        "(perf's dTLB-load-misses counter would), so that is a likely cause, not a measurement; the wall clock also "
        "counts time the CPU gave to other programs, which the largest working sets' long timed chunks catch most."
        if many
        else f"This run cannot say why ({pages})."
    )
    if len(past) == 1:
        return f"Only the {fmt.size(ws0)} working set lies past {who}: {fmt.num(e0.median)} ns per load."
    c = claims.compare(e1, e0)  # not the plateau's step: past the caches a clear 20 % rise is a rise
    said = f"{fmt.num(e0.median)} ns at {fmt.size(ws0)}, {fmt.num(e1.median)} ns at {fmt.size(ws1)}"
    if c.direction == claims.HIGHER:
        return f"Past {who}, latency still rose: {said}, {as_long(c)}. {tlb}"
    if c.direction == claims.SAME_WORD:
        return f"Past {who}, latency stayed about the same ({said}): no further rise within this sweep."
    if c.direction == claims.LOWER:
        return (
            f"Past {who}, latency fell ({said}): neither the caches nor page walks explain a faster load at a "
            "larger working set, and this run cannot say what did."
        )
    return (
        f"Past {who}, latency did not clearly rise or stay level ({said}; the repetitions overlap), so this "
        "run cannot tell whether page walks add to RAM's latency here."
    )


def _level_point(points: list[tuple[int, Estimate]], c: Cache, caches: Sequence[Cache]) -> tuple[int, Estimate] | None:
    """The largest working set that fits in level `c` and is at most half its size (so
    that other data, page tables and code leave it in the cache), or None. A working set
    whose median lies above ``CACHE_CEILING_NS`` mostly did not hit the cache (its runs
    took a far load's time), so it stands for the level only where no smaller one in it
    stayed under that ceiling (``level_outlier`` names the one passed over)."""
    inside = [(ws, e) for ws, e in points if claims.cache_level(ws, list(caches)) == c and ws <= c.size // 2]
    hits = [(ws, e) for ws, e in inside if e.median <= CACHE_CEILING_NS]
    return hits[-1] if hits else (inside[-1] if inside else None)


def level_outlier(points: list[tuple[int, Estimate]], c: Cache, caches: Sequence[Cache]) -> tuple[int, Estimate] | None:
    """The larger working set in level `c` (at most half its size) that ``_level_point``
    passed over because its median lay above ``CACHE_CEILING_NS``, or None."""
    inside = [(ws, e) for ws, e in points if claims.cache_level(ws, list(caches)) == c and ws <= c.size // 2]
    chosen = _level_point(points, c, caches)
    return inside[-1] if inside and chosen is not None and inside[-1][0] != chosen[0] else None


def article(text: str) -> str:
    """'a 16 KiB', 'an 8 MiB', 'an 11 KiB', 'an 18 MiB': the article as the number is
    spoken (eight, eleven, eighteen, eighty... begin with a vowel sound)."""
    spoken_vowel = text.startswith("8") or re.match(r"1[18](\D|$)", text) is not None
    return f"{'an' if spoken_vowel else 'a'} {text}"


def _bounds(e: Estimate) -> str:
    """'1,080 ns (1,060–1,530 ns)': a latency with the interval of its median."""
    return f"{fmt.num(e.median)} ns ({fmt.span(e.lo, e.hi)} ns)"


def _bounds_us(e: Estimate) -> str:
    """'7.4 µs (2.74–7.52 µs)', '854 ns (592–1,030 ns)': a time in the unit that suits it."""
    if e.median < 1e3:
        return _bounds(e)
    return f"{fmt.num(e.median / 1e3)} µs ({fmt.span(e.lo / 1e3, e.hi / 1e3)} µs)"


def first_level_point(points: Sequence[tuple[int, Estimate]], caches: Sequence[Cache]) -> tuple[int, Estimate] | None:
    """The working set that stands for a load from the first cache level: the smallest
    measured, when it fits in that level (the same point as ``ladder_sentence``'s first, so
    the page gives one ratio), else the largest at most half its size (``_level_point``)."""
    if not isinstance(points, (list, tuple)) or not all(
        isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[1], Estimate) for p in points
    ):
        raise TypeError("points must be a list of (working set, stats.Estimate) pairs")
    if not isinstance(caches, (list, tuple)) or not all(isinstance(c, Cache) for c in caches):
        raise TypeError("caches must be a list of claims.Cache (machine.caches(facts))")
    if not points or not caches:
        return None
    if claims.cache_level(points[0][0], list(caches)) == caches[0]:
        return points[0]
    return _level_point(list(points), caches[0], caches)


def miss_sentence(latency: pl.DataFrame, facts: dict[str, Any]) -> str:
    """How many loads from the first cache level fit in one load at the largest working
    set, from this run's two points (the ladder sentence's), with the words
    ``claims.compare`` allows and the range the ratio takes within the two intervals. The
    far load is called a load from RAM only where the largest working set fits in no cache
    of the measured topology (``claims.cache_level``); otherwise the sentence names the level
    it fits in by size (or whose size it is, as ``ram_row_words`` does) and says that this
    run measured no working set past the caches."""
    points = latency_points(latency)
    caches = data_caches(facts)
    first = first_level_point(points, caches)
    if first is None or len(points) < 2 or points[-1][0] == first[0]:
        return "This run has no pair of an L1 load and a far load to compare."
    far = points[-1]
    level = claims.cache_level(far[0], caches)
    if level is None:
        aside, source, pays = "", "a load from RAM", "a far load"
        past = ""
    else:
        if far[0] == level.size:
            rest = "RAM" if level is caches[-1] else "the next level or RAM"
            aside = (
                f" (the {level.name}'s size, {fmt.size(level.size)}, so the cache may have served part of it and "
                f"{rest} the rest)"
            )
        else:
            aside = f" (it fits in the {level.name}, {fmt.size(level.size)}, by size, so that cache may have served it)"
        source, pays = "a load from a cache", "a load from wherever their nodes live"
        past = " This run measured no working set past the caches, so it gives no load from RAM."

    def lesson(quiet: str = "") -> str:
        return (
            f"Data structures that follow pointers (linked lists, trees of small nodes) pay {pays} at every step"
            f"{quiet}; arrays walked in order let the prefetchers hide it."
        )

    if implausible(far[0], far[1], caches):
        return (
            f"This run's far loads are likely not a measurement of memory: the {fmt.size(far[0])} working set"
            f"{aside} read {_bounds(far[1])}, far above what {source} usually takes, so this run gives no count of "
            f"the loads from the {caches[0].name} that one far load costs.{past} "
            + lesson(", whatever it costs on a quiet machine")
        )
    c = claims.compare(far[1], first[1])
    near = f"{fmt.num(first[1].median)} ns at {article(fmt.size(first[0]))} working set"
    head = f"A load at the largest working set, {fmt.size(far[0])}{aside}, took {_bounds(far[1])}"
    if c.direction == claims.HIGHER:
        return (
            f"{head}: as long as {fmt.factor(c.ratio)} loads from the {caches[0].name} ({near}; "
            f"{claims.ratio_interval(c, median=False)} within the two intervals). The wall clock counts the time "
            "the CPU gave to other programs, and the far loads' long chunks catch more of it, so on a busy machine "
            f"that ratio is an upper bound.{past} " + lesson()
        )
    return (
        f"{head}; against a load from the {caches[0].name} ({near}) that is {as_long(c)}: this run cannot say "
        f"that far loads are slower.{past}"
    )


# --- bandwidth ---------------------------------------------------------------------------------


def bandwidth_table(bandwidth: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Per loop and thread count: GB/s (the median), the interval of that median (marked
    unstable where it stayed wider than ±`target`, the profile's) and the run count."""
    summary = stats.summarize(bandwidth, ["kind", "threads"]).filter(pl.col("metric") == "gb_per_s")
    rows = []
    for r in summary.iter_rows(named=True):
        e = Estimate.from_row(r)
        rows.append({"kind": r["kind"], "threads": r["threads"], "GB/s": e.median, "interval": interval_cell(e, target),
                     "runs": e.runs})  # fmt: skip
    schema = {"kind": pl.String, "threads": pl.Int64, "GB/s": pl.Float64, "interval": pl.String, "runs": pl.Int64}
    return pl.DataFrame(rows, schema=schema)


def bandwidth_setup(bandwidth: pl.DataFrame, buffer_bytes: int, passes: int) -> tuple[int, int]:
    """(buffer bytes, passes) as the stored set ran them (its cases record both), else as
    the plan says (`buffer_bytes`, `passes`): the prose describes the run it shows."""
    ran = bandwidth.filter(pl.col("metric") == "gb_per_s") if "metric" in bandwidth.columns else bandwidth
    if ran.height and {"buffer_bytes", "passes"} <= set(ran.columns):
        sizes, counts = ran["buffer_bytes"].unique().to_list(), ran["passes"].unique().to_list()
        if len(sizes) == 1 and len(counts) == 1 and sizes[0] and counts[0]:
            return int(sizes[0]), int(counts[0])
    return buffer_bytes, passes


def times(n: int) -> str:
    """'once', 'twice', '4 times': how often a loop went over its buffer."""
    return {1: "once", 2: "twice"}.get(n, fmt.count(n, "time"))


def _bandwidth(bandwidth: pl.DataFrame, kind: str, threads: int) -> Estimate | None:
    summary = stats.summarize(bandwidth, ["kind", "threads"])
    try:
        return stats.estimate(summary, "gb_per_s", kind=kind, threads=threads)
    except KeyError:
        return None


def buffer_sentence(size: int, facts: dict[str, Any]) -> str:
    """Where the bandwidth buffer sits in the measured caches: past them all (the loops
    read RAM); inside one by size (they may measure that cache); the size of one (the cache
    may have served part of it: not clearly RAM's rate), as ``read_row_words`` says; or
    unknown."""
    caches = data_caches(facts)
    if not caches:
        return "The kernel reported no cache sizes, so this page cannot say whether the buffer fits in one."
    level = claims.cache_level(size, caches)
    vm = virtual_machine(facts)
    if level is None:
        last = caches[-1]
        return (
            f"The {fmt.size(size)} buffer is larger than every cache of the machine that measured (its {last.name} "
            f"holds {fmt.size(last.size)}, {claims.sharing(last, virtual=vm)}), so every pass streams from RAM."
        )
    held = f"({fmt.size(level.size)}, {claims.sharing(level, virtual=vm)})"
    if size == level.size:
        return (
            f"The {fmt.size(size)} buffer is the size of the {level.name} of the machine that measured {held}, so the "
            "cache may have served part of each pass and RAM the rest: these rates are not clearly RAM's."
        )
    return (
        f"The {fmt.size(size)} buffer fits in the {level.name} of the machine that measured {held} by size, so these "
        "loops may measure that cache, not RAM."
    )


def threads_sentence(bandwidth: pl.DataFrame) -> str:
    """Every thread against one, per kind of loop (``claims.compare``)."""
    if bandwidth.height == 0:
        return "The bandwidth loops could not run here."
    counts = sorted(int(t) for t in bandwidth["threads"].unique().to_list())
    if len(counts) < 2:
        only = fmt.count(counts[0], "thread")
        return f"Only {only} ran each loop here (one logical CPU), so nothing compares thread counts."
    most = counts[-1]
    parts = []
    unclear = []  # (kind, medians' ratio) where the intervals overlap: said in one clause
    for kind in ("read", "write", "copy"):
        c = claims.compare(_bandwidth(bandwidth, kind, most), _bandwidth(bandwidth, kind, 1))
        plural = {"read": "reads", "write": "writes", "copy": "copies"}[kind]
        if c.direction == claims.UNCLEAR and c.ratio is not None:
            unclear.append((plural, c.ratio))
            continue
        parts.append(f"{plural} were {claims.versus(c, 'one thread', **claims.RATE_WORDS, span=True)}")
    if len(unclear) == 1:
        plural, ratio = unclear[0]
        parts.append(
            f"{plural} were not clearly faster or slower than one thread ({fmt.factor(ratio)}× by the medians, but "
            "the intervals overlap)"
        )
    elif unclear:
        kinds = fmt.listed([k for k, _ in unclear])
        ratios = fmt.listed([f"{fmt.factor(r)}×" for _, r in unclear])
        parts.append(
            f"{kinds} were not clearly faster or slower than one thread ({ratios} by the medians, but each pair of "
            "intervals overlaps)"
        )
    return f"With {fmt.count(most, 'thread')}, " + "; ".join(parts) + "."


def to_gb_per_s(metrics: pl.DataFrame, metric: str = "mib_per_s") -> pl.DataFrame:
    """A cross-check stored in MiB/s (2^20 bytes per second, as sysbench prints) turned
    into GB/s (10^9 bytes per second), the page's unit for rates: ratios are unchanged."""
    k = 2**20 / 1e9
    return metrics.with_columns(
        value=pl.when(pl.col("metric") == metric).then(pl.col("value") * k).otherwise(pl.col("value")),
        unit=pl.when(pl.col("metric") == metric).then(pl.lit("GB/s")).otherwise(pl.col("unit")),
        metric=pl.when(pl.col("metric") == metric).then(pl.lit("gb_per_s")).otherwise(pl.col("metric")),
    )


def _ours(metrics: pl.DataFrame, metric: str) -> Estimate | None:
    return side_estimate(metrics, metric, "howfast")


def same_loop_sentence(
    bandwidth: pl.DataFrame,
    vs_sysbench: pl.DataFrame,
    vs_memcpy: pl.DataFrame,
    *,
    read_passes: int | None = None,
    sweep_passes: int | None = None,
) -> str:
    """The one-thread read and memcpy appear twice on the page: in the sweep and as our
    half of a cross-check (the same loop on the same buffer, run later, alternating with
    the tool). Says which figure the chapter quotes and whether the two runs differ."""
    pairs = [
        ("one-thread read", _bandwidth(bandwidth, "read", 1), _ours(to_gb_per_s(vs_sysbench), "gb_per_s"),
         "sysbench", f" ({fmt.count(read_passes, 'pass', 'passes')} over the buffer instead of the sweep's "
         f"{fmt.exact(sweep_passes)})" if read_passes and sweep_passes and read_passes != sweep_passes else ""),
        ("one-thread memcpy", _bandwidth(bandwidth, "copy", 1), _ours(vs_memcpy, "gb_per_s"), "perf", ""),
    ]  # fmt: skip
    parts = []
    longer = False
    for name, sweep, again, tool, note in pairs:
        if sweep is None or again is None:
            continue
        longer = longer or bool(note)
        verdict = claims.again_words(claims.compare(again, sweep))
        parts.append(f"the {name} ran at {_rate(sweep)} in the sweep and {_rate(again)} beside {tool}{note}: {verdict}")
    if not parts:
        return (
            "The cross-checks did not run our loops a second time here, so every bandwidth figure of this page "
            "comes from the sweep alone."
        )
    lead = "One loop appears" if len(parts) == 1 else "Two loops appear"
    differs = (
        "only when they ran differs (and for the read how many passes), so a difference between them is the "
        "machine at that moment or the longer run, not the code"
        if longer
        else "only when they ran differs, so a difference between them is the machine at that moment, not the code"
    )
    return (
        f"{lead} twice on this page, as the sweep above and as our half of a cross-check below: "
        + "; ".join(parts)
        + f". They are the same code on the same buffer; {differs} (the cross-checks run later, alternating with "
        "the tool). The chapter's figures (and the numbers card's memory bandwidth, the sweep's read with the "
        "fewest threads that more threads did not clearly beat) are the sweep's; the cross-check's own runs serve "
        "only as the tool's partner in its ratio."
    )


def _rate(e: Estimate, unit: str = "GB/s") -> str:
    """'6.24 GB/s (4.07–6.55)': a rate with the interval of its median."""
    return f"{fmt.num(e.median)} {unit} ({fmt.span(e.lo, e.hi)})"


def same_pipe_sentence(costs: pl.DataFrame, vs_perf_pipe: pl.DataFrame) -> str:
    """The unpinned pipe ping-pong appears twice: in the cost table and as our half of the
    perf cross-check (the same call with the same count of round trips)."""
    each = cost(costs, "pipe_any_cpu")
    table = cost(costs, "pipe_any_cpu", "ops_per_s")
    again = _ours(vs_perf_pipe, "round_trips_per_s")
    if each is None or table is None or again is None:
        return "Our pipe ping-pong ran once only, in the cost table or beside perf, so it has one figure here."
    return (
        f"Our unpinned pipe ping-pong appears twice: {fmt.duration_us(each.median / 1e3)} per round trip in the "
        f"cost table, which is {_rate(table, 'round trips per second')}, and {_rate(again, 'per second')} beside "
        f"perf: {claims.again_words(claims.compare(again, table))}. It is the same call with the same number of round "
        "trips, run at another time, and a wake-up across CPUs depends on where the scheduler puts the two "
        "processes at that moment; the chapter's figure is the cost table's."
    )


# --- costs ---------------------------------------------------------------------------------------


def costs_table(costs: pl.DataFrame, target: float | None = None) -> pl.DataFrame:
    """Per operation: ns each (the median), the interval of that median (marked unstable
    where it stayed wider than ±`target`, the profile's), the run count, and for the
    ping-pongs ns per switch (half a round trip, from the same runs; blank for the rows that
    switch nothing). An operation this machine could not run reads n/a, its interval cell
    saying why."""
    rows = []
    for op, words in COST_NAMES.items():
        per = cost(costs, op)
        switch = cost(costs, op, "ns_per_switch")
        rows.append({
            "operation": words,
            "ns each": None if per is None else per.median,
            "interval": _why_not(costs, op) if per is None else interval_cell(per, target),
            "runs": None if per is None else per.runs,
            # a ping-pong's half round trip; other rows switch nothing (blank, not "n/a")
            "ns per switch": "" if switch is None else fmt.num(switch.median),
        })  # fmt: skip
    schema = {"operation": pl.String, "ns each": pl.Float64, "interval": pl.String, "runs": pl.Int64,
              "ns per switch": pl.String}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def _why_not(costs: pl.DataFrame, operation: str) -> str:
    """Why an operation has no figure: the reason its run stored, or that the set lacks it."""
    if "operation" not in costs.columns:
        return "not in this set"
    reasons = stats.reasons(costs.filter(pl.col("operation") == operation))
    if reasons:
        return "could not run: " + "; ".join(reasons)
    return "not in this set"


def cost(costs: pl.DataFrame, operation: str, metric: str = "ns_per_op") -> Estimate | None:
    """One operation's ns per operation (or per switch) with its interval; None if absent."""
    try:
        return stats.estimate(stats.summarize(costs, ["operation"]), metric, operation=operation)
    except KeyError:
        return None


def contention_sentence(costs: pl.DataFrame) -> str:
    """One thread's mutex against two threads contending for it (``claims.compare``); where
    contention was clearly slower, how few of the locks can have slept in the kernel at
    most, bounded by this run's own futex wake-up (a lock that slept costs at least one):
    one lock in the whole number of the fastest wake-up (its interval's low end) over the
    slowest contended lock (its interval's high end), said only where that is 2 or more."""
    alone, fought = cost(costs, "mutex"), cost(costs, "mutex_contended")
    if alone is None or fought is None:
        return "The one- and two-thread mutex loops could not both run here."
    c = claims.compare(fought, alone)
    head = (
        f"An uncontended mutex cost {_bounds(alone)} to lock and unlock, which may be little more than an atomic "
        f"instruction each, on a cache line this core already holds. With two threads fighting over it, each lock "
        f"took {_bounds(fought)}, "
        f"{claims.versus(c, 'alone', **claims.TIME_WORDS, span=True)}"
    )
    if c.direction == claims.HIGHER:
        wake = cost(costs, "futex_any_cpu", "ns_per_switch")
        # the bound from the ends of the two intervals (the slowest lock, the fastest wake-up), in whole locks
        every = math.floor(wake.lo / fought.hi) if wake is not None and wake.lo > 0 and fought.hi > 0 else 0
        sleeps = (
            f" A lock that sleeps costs at least a wake-up, {_bounds_us(wake)} here (the futex wake-up row's ns per "
            f"switch), so at most about one lock in {fmt.num(every, 2)} can have slept (the slowest lock time against "
            "the fastest wake-up within their intervals); the rest may have been taken while the line moved, or "
            "after a short spin."
            if wake is not None and every >= 2
            else ""
        )
        return head + (
            ": the lock's cache line may travel between the cores, and a thread that finds the lock taken may spin "
            "for a moment or wait in the kernel until it is released (this run counts none of these, so it cannot "
            f"say which happened, or how often).{sleeps}"
        )
    if c.direction == claims.UNCLEAR:
        return head + ": these runs cannot tell whether the line's travel between the cores cost anything."
    return head + ": this run shows no cost of the line's travel between the cores."


def false_sharing_sentence(costs: pl.DataFrame, facts: dict[str, Any] | None = None) -> str:
    """Two threads on one shared counter against two threads on a counter each, on lines
    of their own (``claims.compare``). Both increment atomically; where the two threads ran
    on different cores the shared counter's line travels between them, but this run does not
    record where they ran: on a virtual machine (``machine.virtual(facts)``) the hypervisor
    placed the vCPUs, elsewhere (or with no `facts`) the scheduler placed the threads."""
    shared, separate = cost(costs, "atomic_shared"), cost(costs, "atomic_separate")
    if shared is None or separate is None:
        return "The two-thread atomic increments could not both run here."
    c = claims.compare(shared, separate)
    head = (
        f"Two threads incrementing one shared counter took {fmt.num(shared.median)} ns per increment, and the same "
        f"threads each incrementing a counter of its own, on a cache line of its own, {fmt.num(separate.median)} ns"
    )
    if c.direction == claims.HIGHER:
        where = (
            "where the hypervisor placed the two vCPUs is not known"
            if facts is not None and virtual_machine(facts)
            else "which cores the two threads ran on is not known"
        )
        return (
            f"{head}: sharing made each increment {fmt.factor(c.ratio)}× slower "
            f"({claims.ratio_interval(c, median=False)} within the two intervals). The shared counter's line may "
            "travel between the cores, though not at every increment (a core may make several while it holds the "
            f"line), and {where}: they may even share one core, as two hardware threads. Two counters that merely "
            "share a line (false sharing) would likely pay the same trip, which this run does not measure."
        )
    if c.direction == claims.SAME_WORD:
        said = f"about the same ({fmt.factor(c.ratio)}×)"
    elif c.direction == claims.LOWER:
        turned = claims.ratio_interval(c, way="inverted", median=False)
        said = f"{fmt.factor(1 / c.ratio)}× faster with the shared counter ({turned})"
    else:
        said = f"not clearly slower or faster ({fmt.factor(c.ratio)}× by the medians, but the intervals overlap)"
    return f"{head}: {said}, so this run does not show the cost of moving a cache line between the cores."


def vdso_sentence(costs: pl.DataFrame) -> str:
    """getppid (enters the kernel) against clock_gettime, which goes through the vDSO,
    without entering the kernel, only where the clocksource allows it. This run does not
    trace which path it took; but a clock_gettime whose whole interval lies under half the
    lowest getppid cannot have entered the kernel, and the sentence says so. A faster one
    short of that fits the vDSO and is not proof of it; one that is not faster does not
    say why."""
    sys, clock = cost(costs, "getppid"), cost(costs, "clock_gettime")
    if sys is None or clock is None:
        return "The system-call loops could not both run here."
    c = claims.compare(clock, sys)
    head = (
        f"A real system call (getppid through syscall(), which enters the kernel) took {fmt.num(sys.median)} ns; "
        f"clock_gettime took {fmt.num(clock.median)} ns, "
        f"{claims.versus(c, 'it', **claims.TIME_WORDS, span=True)}"
    )
    path = (
        "clock_gettime goes through the vDSO, answered in user space without entering the kernel, where the "
        "clocksource allows it (on some virtual machines it does not), and this run does not check which path it took"
    )
    if c.direction == claims.LOWER and clock.hi < sys.lo / 2:
        return head + (
            ": clock_gettime goes through the vDSO, answered in user space where the clocksource allows it (on some "
            f"virtual machines it does not), and at {fmt.num(clock.median)} ns, under half the cheapest entry into "
            "the kernel measured here, it cannot have entered the kernel: the vDSO answered it."
        )
    if c.direction == claims.LOWER:
        return head + f", as the vDSO would make it: {path}."
    return head + f": this run does not show a saving; {path}, so it cannot say why."


SWITCH_WORDS = (
    ("pipe_same_cpu", "ns_per_switch", "a process switch through a pipe", "per switch"),
    ("futex_same_cpu", "ns_per_switch", "a thread switch through a futex", "per switch"),
    ("thread_create", "ns_per_op", "creating and joining a thread", ""),
)


def switches_sentence(costs: pl.DataFrame) -> str:
    """The switch and thread-start figures the prose quotes (the pinned ping-pongs and
    thread creation), each with the interval of its median; the loops that could not run
    are said, never an empty or 'n/a' value."""
    said, missing = [], []
    for op, metric, words, unit in SWITCH_WORDS:
        e = cost(costs, op, metric)
        if e is None:
            missing.append(words)
            continue
        figure = _bounds_us(e) + (f" {unit}" if unit and not said else "")
        said.append(f"{words}{' took' if not said else ''} {figure}")
    if not said:
        return "The switch and thread loops could not run here."
    text = said[0] if len(said) == 1 else ", ".join(said[:-1]) + ", and " + said[-1]
    text = text[0].upper() + text[1:]
    if missing:
        text += f" ({' and '.join(missing)} could not be measured here)"
    return text + "."


def caps_sentence(costs: pl.DataFrame) -> str:
    """The per-item ceilings the measured costs set: 10^9 / ns per second, with the range
    the interval of each cost gives."""
    sys, wake = cost(costs, "getppid"), cost(costs, "futex_any_cpu", "ns_per_switch")
    parts = []
    if sys is not None:
        parts.append(
            f"a design that enters the kernel once per item paid {_bounds(sys)} per item for that alone here, which "
            f"caps it near {_ceiling(sys, 'items per second per core')}"
        )
    if wake is not None:
        parts.append(
            f"one that hands each item to another thread paid a futex wake-up per item, {_bounds_us(wake)}, which "
            f"caps the pair near {_ceiling(wake, 'items per second')}"
        )
    if not parts:
        return "The system-call and wake-up loops could not run here."
    text = "; ".join(parts)
    return (
        text[0].upper() + text[1:] + ", before any work is done. These are wall-clock costs, which count any time "
        "other programs took the CPU, so on a busy machine the caps read low."
    )


def _ceiling(e: Estimate, unit: str) -> str:
    """'1.17 million items per second (966,000–1.69 million)': 10^9 / a cost in ns, with
    the range its interval gives."""
    return f"{fmt.num(1e9 / e.median)} {unit} ({fmt.span(1e9 / e.hi, 1e9 / e.lo)})"


# --- the seed's laptop -----------------------------------------------------------------------------


def _seed_row(ref: pl.DataFrame, **where: object) -> dict[str, Any] | None:
    rows = ref
    for key, want in where.items():
        rows = rows.filter(pl.col(key) == want)
    return rows.row(0, named=True) if rows.height else None


def _seed_ns(row: dict[str, Any] | None) -> float | None:
    return None if row is None else float(row["value"]) * _UNIT_NS[str(row["unit"])]


CACHE_NOT_COMPARABLE = (
    "not comparable: the seed's cache table is a summary in cycles at an unstated clock, with no method; "
    "ours is a measured pointer chase in ns"
)


#: What the seed table adds to a latency that ``implausible`` finds disturbed.
DISTURBED = ", likely disturbed: far above what memory usually takes"


def ram_row_words(working_set: int, e: Estimate, facts: dict[str, Any]) -> str:
    """What the seed table's 'RAM, latency' row adds after our largest working set's
    figure: that it is likely disturbed (``implausible``); that it fits in a cache of the
    measured topology, and so is no RAM latency; that the kernel reported no caches to
    tell; or, past every cache, whether page walks are likely in it, said only as
    ``beyond_sentence`` reasons (a base-page count, transparent huge pages not 'always'
    and not unknown, more pages than ``TLB_PAGES``), else that they may be."""
    if not isinstance(e, Estimate):
        raise TypeError(f"e must be a stats.Estimate, got {type(e).__name__}")
    caches = data_caches(facts)
    said = DISTURBED if implausible(working_set, e, caches) else ""
    if not caches:
        return said + "; the kernel reported no cache sizes, so whether this working set fits in a cache is not known"
    level = claims.cache_level(working_set, caches)
    if level is not None and working_set == level.size:
        return said + (
            f"; this working set is the {level.name}'s size ({fmt.size(level.size)}), so the cache may have served "
            "part of it: not clearly a RAM latency, and this run measured no working set past the caches"
        )
    if level is not None:
        return said + (
            f"; this working set fits in the {level.name} ({fmt.size(level.size)}) by size, so this is not clearly a "
            "RAM latency: this run measured no working set past the caches"
        )
    if said:
        return said
    memory = memory_facts(facts)
    page, thp = memory.get("page_size"), memory.get("thp")
    if page and thp in _THP and working_set // page >= TLB_PAGES:
        return (
            f", over {fmt.exact(working_set // page)} pages of {fmt.size(page)}, far more than a typical TLB holds, "
            "so page walks are likely included: not a bare DRAM latency"
        )
    return ", which may include page walks (this run cannot say)"


def read_row_words(bandwidth: pl.DataFrame, facts: dict[str, Any]) -> str:
    """What the seed table's 'RAM, read bandwidth' row adds after our read rate: where the
    sweep's buffer (as the stored set ran it: ``bandwidth_setup``) fits in a cache of the
    measured topology, that this is that cache's rate, not RAM's; where the kernel reported
    no caches, that this is not known; '' past every cache or when the set does not say."""
    size, _ = bandwidth_setup(bandwidth, 0, 0)
    if not size:
        return ""
    caches = data_caches(facts)
    if not caches:
        return f"; the kernel reported no cache sizes, so whether the {fmt.size(size)} buffer fits in one is not known"
    level = claims.cache_level(size, caches)
    if level is None:
        return ""
    if size == level.size:
        return (
            f"; the {fmt.size(size)} buffer is the {level.name}'s size, so the cache may have served part of it: "
            "not clearly RAM's rate"
        )
    return (
        f"; the {fmt.size(size)} buffer fits in the {level.name} ({fmt.size(level.size)}) by size, so this may be "
        "that cache's rate, not RAM's"
    )


def seed_table(
    latency: pl.DataFrame,
    bandwidth: pl.DataFrame,
    costs: pl.DataFrame,
    facts: dict[str, Any],
    target: float | None = None,
) -> pl.DataFrame:
    """The seed's system table (seed 000's laptop, data/reference/system.csv) beside this
    machine: per row what was measured here (the median, the interval of the median, the
    run count, and 'unstable' where the interval stayed wider than ±`target`), the laptop's
    figure as printed, and the comparison, or why there is none ("not comparable")."""
    ref = reference.load("system").filter(pl.col("machine") == "laptop")
    caches = data_caches(facts)
    points = latency_points(latency)
    rows: list[dict[str, Any]] = []

    def seed_cache(level: str, metrics: tuple[str, ...] = ("size", "latency_cycles", "throughput")) -> str | None:
        parts = [_seed_row(ref, level=level, metric=m) for m in metrics]
        return ", ".join(str(p["quoted"]) for p in parts if p) or None

    for c in caches:
        point = first_level_point(points, caches) if c == caches[0] else _level_point(points, c, caches)
        passed = None if c == caches[0] else level_outlier(points, c, caches)
        here = f"{fmt.size(c.size)} ({claims.sharing(c, virtual=virtual_machine(facts))}); " + (
            _measured(point[1], target, f"per load at {article(fmt.size(point[0]))} working set")
            + (DISTURBED if implausible(point[0], point[1], caches) else "")
            if point
            else "no working set measured at most half its size"
        )
        if passed is not None:
            shared = f"the {c.name} is shared; " if c.shared_by > 1 else ""
            here += f"; not the {fmt.size(passed[0])} working set, whose loads took {_bounds(passed[1])}, " + (
                DISTURBED.removeprefix(", ") + " (see the latency section)"
                if implausible(passed[0], passed[1], caches)
                else f"slower than a cache hit by its median: it may have been served by RAM ({shared}see the latency "
                "section)"
            )
        seed = seed_cache(_SEED_LEVEL.get(c.name, c.name))
        rows.append({"what": c.name, "here": here, "laptop (seed 000, as printed)": seed or "",
                     "compared": CACHE_NOT_COMPARABLE if seed else "the seed lists no such level"})  # fmt: skip
    if points:
        ws, e = points[-1]
        size = facts.get("memory_bytes")
        here = (
            (f"{fmt.size(size)}; " if size else "")
            + _measured(e, target, f"per load at {article(fmt.size(ws))} working set")
            + ram_row_words(ws, e, facts)
        )
        rows.append({"what": "RAM, latency", "here": here,
                     "laptop (seed 000, as printed)": seed_cache("RAM", ("size", "latency_cycles")) or "",
                     "compared": CACHE_NOT_COMPARABLE})  # fmt: skip
    best = read_bandwidth(bandwidth)
    if best is not None:
        threads, e = best
        rows.append({
            "what": "RAM, read bandwidth",
            "here": _measured(e, target, f"sequential read, {fmt.count(threads, 'thread')}",
                              show=lambda v: f"{fmt.num(v)} GB/s") + read_row_words(bandwidth, facts),
            "laptop (seed 000, as printed)": seed_cache("RAM", ("throughput",)) or "",
            "compared": "not comparable: the seed's figure is a row of the same summary table, with no method, "
                        "thread count or buffer size",
        })  # fmt: skip
    futex = cost(costs, "futex_same_cpu", "ns_per_switch")
    for seed_op, ours in SEED_OPERATIONS.items():
        row = _seed_row(ref, operation=seed_op)
        metric = "ns_per_switch" if ours.endswith("_cpu") else "ns_per_op"
        e = cost(costs, ours, metric)
        unit = "per switch" if metric == "ns_per_switch" else "per call"
        here = (_why_not(costs, ours) if e is None else
                _measured(e, target, unit, show=_time_unit(e)))  # fmt: skip
        rows.append({"what": COST_NAMES[ours], "here": here,
                     "laptop (seed 000, as printed)": "" if row is None else str(row["quoted"]).strip("()"),
                     "compared": _seed_compared(seed_op, e, ref, futex)})  # fmt: skip
    return pl.DataFrame(rows, schema={"what": pl.String, "here": pl.String, "laptop (seed 000, as printed)": pl.String,
                                      "compared": pl.String})  # fmt: skip


def _seed_compared(seed_op: str, ours: Estimate | None, ref: pl.DataFrame, our_futex: Estimate | None = None) -> str:
    row = _seed_row(ref, operation=seed_op)
    seed = _seed_ns(row)
    if seed is None:
        return "the seed has no such row"
    if seed_op == "thread_switch_sched_yield":
        return _seed_yield(seed, ours, _seed_ns(_seed_row(ref, operation="thread_context_switch_futex")), our_futex)
    if ours is None:
        return "not measured here"
    differs = SEED_DIFFERS.get(seed_op, "the seed does not give its method")
    if seed_op in SEED_METHOD_UNKNOWN:
        return f"not comparable: {differs}"
    c = claims.compare(ours, Estimate.exact(seed))
    if c.direction == claims.UNCLEAR:
        show = _time_unit(ours)
        return (
            f"not clearly slower or faster than the laptop ({fmt.factor(c.ratio)}× by our median, but our interval, "
            f"{show(ours.lo)} to {show(ours.hi)}, holds its {show(seed)}); {differs}"
        )
    # where ours is slower the gap is at most that (the wall clock counts time the CPU spent elsewhere): the
    # chapter says so once, above the table, not in every row
    return f"{claims.versus(c, 'the laptop', **claims.TIME_WORDS, span=True)}; {differs}"


def _seed_yield(seed: float, ours: Estimate | None, seed_futex: float | None, our_futex: Estimate | None) -> str:
    """Why the seed's sched_yield row is not comparable: set against its own futex switch,
    it is far cheaper than a yield that switches is against a futex switch here (both
    pinned to one CPU, so each of ours switches), so its yields most likely found no one
    to yield to. Said from the two shares where both machines measured both."""
    if seed_futex is None or seed >= seed_futex:
        return "not comparable: the seed does not say whether its threads shared a CPU; ours share one"
    head = (
        f"not comparable: the seed's {fmt.duration_us(seed / 1e3)} is {fmt.factor(seed / seed_futex)} of its own "
        f"futex switch ({fmt.duration_us(seed_futex / 1e3)})"
    )
    if ours is not None and our_futex is not None and our_futex.median > 0:
        share = ours.median / our_futex.median
        if share > 1.5 * seed / seed_futex:
            head += (
                f"; here a yield that switches (both threads pinned to one CPU) costs {fmt.factor(share)} of a futex "
                "switch"
            )
    return (
        head + ", so its yields most likely returned without switching (a thread alone on its CPU has no one to "
        "yield to); ours pins both threads to one CPU, so each yield switches"
    )


def _time_unit(e: Estimate) -> Any:
    """How to show the times of one row: in ns below a microsecond, else in µs."""
    if e.median < 1e3:
        return lambda v: f"{fmt.num(v)} ns"
    return lambda v: f"{fmt.num(v / 1e3)} µs"


def _measured(e: Estimate, target: float | None, what: str, show: Any = None) -> str:
    """'1.14 ns per load at a 16 KiB working set (1.1–1.62 ns, 3 runs; unstable: ±23 %)':
    a figure of the seed table with what it is, then its interval, run count and mark."""
    show = show or (lambda v: f"{fmt.num(v)} ns")
    mark = stats.stability(e, target)
    return (
        f"{show(e.median)} {what} ({show(e.lo).split(' ')[0]}–{show(e.hi)}, {fmt.count(e.runs, 'run')}"
        + (f"; {mark}" if mark else "")
        + ")"
    )


# --- cross-checks ------------------------------------------------------------------------------------


def crosscheck_table(metrics: pl.DataFrame, tool: str, metric: str, unit: str) -> pl.DataFrame:
    return side_by_side(metrics, ["job"], metric, unit=unit, tool=tool)


@dataclass(frozen=True)
class Check:
    """One cross-check of the page: our `job` (words) beside `name` (the tool as a reader
    knows it), its stored runs `metrics` (a ``tool`` column: howfast or `tool`), the
    `metric` both report, in `unit`."""

    job: str
    name: str
    metrics: pl.DataFrame
    tool: str
    metric: str
    unit: str


def side_estimate(metrics: pl.DataFrame, metric: str, tool: str) -> Estimate | None:
    """One side's median of `metric` (`tool`: "howfast" or the tool's name) with the
    interval of that median over its runs; None when that side did not run."""
    if metrics.height == 0 or "tool" not in metrics.columns:
        return None
    rows = metrics.filter((pl.col("tool") == tool) & (pl.col("metric") == metric))
    values = rows["value"].drop_nulls().to_list()
    if not values:
        return None
    lo, hi, level = stats.median_interval(values)
    return Estimate(float(pl.Series(values).median()), lo, hi, len(values), level)  # type: ignore[arg-type]


def crosscheck_summary(checks: Sequence[Check], target: float | None = None) -> pl.DataFrame:
    """The cross-check table: per check, each side's median with the interval of that
    median (``tables.figure``, marked unstable where wider than ±`target`), the median of
    the per-round ratios ours / tool with the interval of that median, the number of
    rounds that ran both (each side ran once per round, so it is also each side's run
    count), and the verdict that interval supports (``claims.crosscheck``). A check whose
    tool could not run says why in a ``note`` column, which is left out when no row needs it."""
    if not isinstance(checks, (list, tuple)) or not all(isinstance(c, Check) for c in checks):
        raise TypeError("crosscheck_summary(): checks must be a list of report.Check")
    rows = []
    for check in checks:
        ours, theirs = (
            side_estimate(check.metrics, check.metric, "howfast"),
            side_estimate(check.metrics, check.metric, check.tool),
        )
        ratios = round_ratios(check.metrics, check.metric, check.tool)
        ratio = ratio_estimate(ratios) if ratios else None
        why = "; ".join(stats.reasons(check.metrics)) if ratio is None else ""
        rows.append({
            "job, beside": f"{check.job} ({check.unit}), beside {check.name}",
            "ours": tables.figure(ours, target, fmt.num, runs=False),
            "tool's": tables.figure(theirs, target, fmt.num, runs=False),
            "per-round ratio": "" if ratio is None else claims.ratio_interval(ratio),
            "rounds": len(ratios) if ratios else None,
            "verdict": "" if ratio is None else claims.crosscheck(ratio).outcome,
            "note": (why or "no round ran both") if ratio is None else "",
        })  # fmt: skip
    schema = {"job, beside": pl.String, "ours": pl.String, "tool's": pl.String,
              "per-round ratio": pl.String, "rounds": pl.Int64, "verdict": pl.String, "note": pl.String}  # fmt: skip
    frame = pl.DataFrame(rows, schema=schema)
    return frame if any(frame["note"].to_list()) else frame.drop("note")


def round_ratios(metrics: pl.DataFrame, metric: str, tool: str) -> list[float]:
    """Ours / `tool` within each repetition (the two ran one after the other)."""
    rows = metrics.filter(pl.col("metric") == metric)
    if rows.height == 0 or not {"howfast", tool} <= set(rows["tool"].unique().to_list()):
        return []
    wide = rows.pivot(on="tool", index="repetition", values="value", aggregate_function="first")
    return [float(r) for r in (wide["howfast"] / wide[tool]).drop_nulls().to_list()]


def crosscheck_sentence(what: str, metrics: pl.DataFrame, tool: str, name: str, metric: str) -> str:
    """'Our pipe ping-pong is 1.2× faster than perf bench sched pipe (1.1–1.5×).' from the
    verdict of the per-round ratios (``claims.crosscheck``), or why it could not run."""
    ratios = round_ratios(metrics, metric, tool)
    if not ratios:
        why = "; ".join(stats.reasons(metrics)) or "no result"
        return f"Beside our {what}, {name} could not run here ({why})."
    verdict = claims.crosscheck(ratio_estimate(ratios))
    return f"Our {what} {verdict.words(tool=name)}."


checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
