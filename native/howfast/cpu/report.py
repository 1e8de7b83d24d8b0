"""Tables, chart data and sentences for the CPU and memory chapter, from its stored set.

Code compares ids (``experiments.OPERATIONS``, cache level names); ``COST_NAMES`` holds
the words a reader sees. Every sentence whose words depend on the data is here, tested
for each of its branches.
"""

from __future__ import annotations

import re
from typing import Any

import altair as alt
import polars as pl

from .. import charts, fmt, reference, stats
from ..checks import checked
from ..crosscheck import side_by_side, span

COST_NAMES = {
    "mutex": "mutex lock + unlock, one thread",
    "mutex_contended": "mutex lock + unlock, two threads contending",
    "atomic": "atomic increment, one thread",
    "atomic_shared": "atomic increment, two threads, same cache line",
    "atomic_separate": "atomic increment, two threads, own cache lines",
    "getppid": "system call (getppid via syscall())",
    "clock_gettime": "clock_gettime (vDSO, no kernel entry)",
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
_SIZE = re.compile(r"(L\w+)\s+(\d+)([KMG]?)")
_MULT = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}
_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6}


def cache_levels(facts: dict[str, Any]) -> list[tuple[str, int]]:
    """Data caches of the machine facts ("L1d 48K, L1i 32K, L2 1024K, ...") as (level, bytes)."""
    found = [(name, int(n) * _MULT[m]) for name, n, m in _SIZE.findall(str(facts.get("caches", "")))]
    return [(name.replace("L1d", "L1"), size) for name, size in found if name != "L1i"]


def latency_curve(latency: pl.DataFrame, metric: str = "ns_per_load") -> pl.DataFrame:
    summary = stats.summarize(latency, ["working_set"]).filter(pl.col("metric") == metric)
    return summary.select("working_set", "median", "min", "max").with_columns(quantity=pl.lit(metric))


def latency_chart(latency: pl.DataFrame, facts: dict[str, Any], labels: str) -> alt.TopLevelMixin:
    """ns per load against the working set (log-log), with a rule and a label at each cache size."""
    curve = latency_curve(latency)
    if curve.height == 0:
        return charts.unavailable("the pointer chase could not run here")
    line = charts.lines(curve, x="working_set", y="median", color="quantity", x_title="working set (log scale)",
                        y_title="ns per dependent load (log scale)", legend=False)  # fmt: skip
    levels = pl.DataFrame(
        [{"working_set": size, "label": f"{name} {fmt.size(size)}"} for name, size in cache_levels(facts)],
        schema={"working_set": pl.Int64, "label": pl.String},
    )
    if levels.height == 0:
        return line.configure_axisX(labelExpr=labels, labelAngle=-45)
    rules = alt.Chart(levels).mark_rule(strokeDash=[4, 3], color="#888").encode(x="working_set:Q")
    text = (
        alt.Chart(levels)
        .mark_text(align="left", dx=3, dy=-6, color="#555", fontSize=11)
        .encode(x="working_set:Q", y=alt.value(8), text="label:N")
    )
    return alt.layer(line, rules, text).configure_axisX(labelExpr=labels, labelAngle=-45)


def _latency_at(summary: pl.DataFrame, size: int) -> tuple[int | None, float | None, float | None]:
    """The largest working set at most half of `size`: (set, ns, cycles)."""
    sets = [w for w in summary["working_set"].unique().sort().to_list() if w <= size // 2]
    if not sets:
        return None, None, None
    ws = sets[-1]
    ns = stats.pick(summary, "ns_per_load", working_set=ws)
    rows = summary.filter((pl.col("working_set") == ws) & (pl.col("metric") == "cycles_per_load"))
    return ws, ns, float(rows["median"][0]) if rows.height else None


def bandwidth_table(bandwidth: pl.DataFrame) -> pl.DataFrame:
    summary = stats.summarize(bandwidth, ["kind", "threads"]).filter(pl.col("metric") == "gb_per_s")
    return summary.select(
        "kind",
        "threads",
        pl.col("median").alias("GB/s"),
        span("min", "max").alias("range"),
    )


def costs_table(costs: pl.DataFrame) -> pl.DataFrame:
    summary = stats.summarize(costs, ["operation"])
    rows = []
    for op, words in COST_NAMES.items():
        per = _pick(summary, "ns_per_op", op)
        rows.append(
            {
                "operation": words,
                "ns each": per,
                "per second": _pick(summary, "ops_per_s", op),
                "ns per switch": _pick(summary, "ns_per_switch", op),
            }
        )
    return pl.DataFrame(rows, schema_overrides={"ns each": pl.Float64, "per second": pl.Float64,
                                                "ns per switch": pl.Float64})  # fmt: skip


def _pick(summary: pl.DataFrame, metric: str, operation: str) -> float | None:
    try:
        return stats.pick(summary, metric, operation=operation)
    except KeyError:
        return None


def seed_table(
    latency: pl.DataFrame, bandwidth: pl.DataFrame, costs: pl.DataFrame, facts: dict[str, Any]
) -> pl.DataFrame:
    """The seed's system table (type, size, latency, throughput) for this machine, beside
    the laptop's figures (data/reference/system.csv, seed 000). Latencies in ns."""
    ref = reference.load("system")
    lat = stats.summarize(latency, ["working_set"])
    bw = stats.summarize(bandwidth, ["kind", "threads"]).filter(
        (pl.col("kind") == "read") & (pl.col("metric") == "gb_per_s")
    )
    cost = stats.summarize(costs, ["operation"])
    rows = []

    def laptop(level: str, metric: str) -> tuple[float | None, str | None]:
        found = ref.filter((pl.col("level") == level) & (pl.col("metric") == metric))
        return (float(found["value"][0]), str(found["unit"][0])) if found.height else (None, None)

    levels = cache_levels(facts)
    for level, size in levels:
        ws, ns, cycles = _latency_at(lat, size)
        size_l, unit_l = laptop(level, "size")
        cyc_l, _ = laptop(level, "latency_cycles")
        thr_l, thr_unit = laptop(level, "throughput")
        rows.append({
            "type": level, "size here": fmt.size(size), "latency here (ns)": ns, "cycles here": cycles,
            "throughput here": None,
            "laptop size": None if size_l is None else f"{fmt.num(size_l)} {unit_l}",
            "laptop cycles": cyc_l, "laptop throughput": None if thr_l is None else f"{fmt.num(thr_l)} {thr_unit}",
            "measured at": None if ws is None else f"{fmt.size(ws)} working set",
        })  # fmt: skip
    sets = lat["working_set"].unique().sort().to_list()
    biggest = sets[-1] if sets else None
    ram_ns = None if biggest is None else stats.pick(lat, "ns_per_load", working_set=biggest)
    ram_cycles = lat.filter((pl.col("working_set") == biggest) & (pl.col("metric") == "cycles_per_load"))
    read_rates = bw["median"].to_list()
    size_l, unit_l = laptop("RAM", "size")
    thr_l, thr_unit = laptop("RAM", "throughput")
    rows.append({
        "type": "RAM", "size here": fmt.size(facts.get("memory_bytes") or 0) if facts.get("memory_bytes") else None,
        "latency here (ns)": ram_ns, "cycles here": float(ram_cycles["median"][0]) if ram_cycles.height else None,
        "throughput here": f"{fmt.num(max(read_rates))} GB/s read" if read_rates else None,
        "laptop size": None if size_l is None else f"{fmt.num(size_l)} {unit_l}",
        "laptop cycles": laptop("RAM", "latency_cycles")[0],
        "laptop throughput": None if thr_l is None else f"{fmt.num(thr_l)} {thr_unit}",
        "measured at": None if biggest is None else f"{fmt.size(biggest)} working set",
    })  # fmt: skip
    for seed_op, ours in SEED_OPERATIONS.items():
        found = ref.filter(pl.col("operation") == seed_op)
        seed_ns = float(found["value"][0]) * _UNIT_NS[str(found["unit"][0])] if found.height else None
        metric = "ns_per_switch" if ours in ("pipe_same_cpu", "futex_same_cpu", "yield_same_cpu") else "ns_per_op"
        rows.append({
            "type": COST_NAMES[ours], "size here": None, "latency here (ns)": _pick(cost, metric, ours),
            "cycles here": None, "throughput here": None, "laptop size": None, "laptop cycles": None,
            "laptop throughput": None if seed_ns is None else f"{fmt.duration_us(seed_ns / 1e3)}",
            "measured at": "per switch" if metric == "ns_per_switch" else "per call",
        })  # fmt: skip
    return pl.DataFrame(rows, schema_overrides={"latency here (ns)": pl.Float64, "cycles here": pl.Float64,
                                                "laptop cycles": pl.Float64})  # fmt: skip


def ladder_sentence(latency: pl.DataFrame) -> str:
    """The smallest and the largest working set's latency, and how far apart."""
    curve = latency_curve(latency).sort("working_set")
    if curve.height == 0:
        return "The pointer chase could not run here."
    first, last = curve.row(0, named=True), curve.row(-1, named=True)
    if curve.height == 1:
        return (
            f"One working set was measured: {fmt.size(first['working_set'])}, {fmt.num(first['median'])} ns per load."
        )
    return (
        f"A load that hits the {fmt.size(first['working_set'])} working set took {fmt.num(first['median'])} ns; "
        f"one that must go to the {fmt.size(last['working_set'])} working set took {fmt.num(last['median'])} ns, "
        f"{fmt.ratio_of(last['median'], first['median'])} as long."
    )


def false_sharing_sentence(costs: pl.DataFrame) -> str:
    summary = stats.summarize(costs, ["operation"])
    shared, separate = _pick(summary, "ns_per_op", "atomic_shared"), _pick(summary, "ns_per_op", "atomic_separate")
    if shared is None or separate is None:
        return "The two-thread atomic increments could not both run here."
    return (
        f"Two threads incrementing counters on the same cache line took {fmt.num(shared)} ns per increment, "
        f"{fmt.compared(shared, separate, more='slower', less='faster', same='about as fast as')} the same threads "
        f"on counters a cache line apart ({fmt.num(separate)} ns)."
    )


def crosscheck_table(metrics: pl.DataFrame, tool: str, metric: str, unit: str) -> pl.DataFrame:
    return side_by_side(metrics, ["job"], metric, unit=unit, tool=tool)


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
