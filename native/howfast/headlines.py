"""Headline quantities: every number the book quotes outside the section that measures it,
named once.

Each ``Quantity`` says what it is (label, unit), where the book measures it (subject,
experiment, section), which run of that experiment it is and why that run (``run``), and
how to read it from a stored set as a ``stats.Estimate`` (the median with its interval).
The numbers card, machines compared (``machines.chart``) and the system-design estimates
(``design.measured``) all read these; none keeps its own copy.

A quantity may name the seeds' figure for the laptop and the phone (``Seed``): a row of
``data/reference`` with its kind (measured, rounded, hypothetical, ...), the article it comes
from, and what differs besides the machine (software, problem size, tool). A comparison is
made only like with like: a seed figure that is not measured, or whose setup differs
materially from ours, reads "not comparable", with the reason, never a ratio.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import polars as pl

from . import reference, stats, store
from .checks import checked
from .profiles import current_profile, target_of
from .stats import Estimate


class UnknownQuantity(KeyError, ValueError):
    """No headline quantity has that id (a KeyError for lookups, a ValueError for a bad argument)."""


Reader = Callable[[store.ResultSet], Estimate | None]

#: The subjects the registry's quantities come from.
SUBJECTS = ("fsync", "storage", "sqlite", "memtable", "network", "hashing", "cpu", "codecs")

#: The seeds' reference machines, as the card's columns name them.
REFERENCE_MACHINES = ("laptop", "phone", "napkin")

#: Seed file -> how the book names the article.
ARTICLES = {
    "000_65029c85cedaca55.txt": "seed 000",
    "001_31e43ce54630c49d.txt": "seed 001",
    "002_facba156bcf0a89b.txt": "seed 002",
    "003_064050ceb117d508.txt": "seed 003",
    "004_fb53e115d7c56adf.txt": "seed 004",
    "github:sirupsen/napkin-math/README.md@f1edabbb517a": "napkin-math",
}


# --- the seeds' figures -----------------------------------------------------------------

#: The kinds of seed figure a measurement may be compared with: a measurement, or one the
#: article printed rounded ("~660μs"); never a hypothetical, a rating, a guess or arithmetic.
COMPARABLE_KINDS = ("measured", "rounded")


@dataclass(frozen=True)
class Seed:
    """A seed's figure for a quantity: the one row of ``data/reference/<file>.csv`` that
    `where` picks, times `scale` into the quantity's unit. `differs` names what differs
    besides the machine (software, problem size, tool); `material` is set when that
    difference decides the figure, so the two are not comparable (the card shows the seed's
    figure with the reason, no ratio). `check` looks at our stored set and returns a
    material difference it finds there (e.g. a smaller table than the seed's), or None;
    `differs_from` words `differs` from our stored set where it depends on it."""

    file: str
    where: Mapping[str, object]
    scale: float = 1.0
    differs: str = ""
    material: str = ""
    check: Callable[[store.ResultSet], str | None] | None = None
    #: what differs, worded from our stored set (e.g. the thread count we quote); None, or
    #: a reader returning None, leaves `differs`
    differs_from: Callable[[store.ResultSet], str | None] | None = None


@dataclass(frozen=True)
class SeedFigure:
    """A seed figure as the book shows it: the exact value (in the quantity's unit), its
    kind, the article, the figure as printed, and whether ours may be compared with it."""

    value: float
    kind: str
    article: str
    quoted: str
    differs: str
    comparable: bool
    why_not: str = ""
    #: True when the article printed it in another unit (``quoted`` shows it as printed)
    converted: bool = False

    @property
    def estimate(self) -> Estimate:
        return Estimate.exact(self.value)


def seed_figure(seed: Seed | None, results: store.ResultSet | None = None) -> SeedFigure | None:
    """The figure a Seed names (None: no seed figure). Not comparable when it is not a
    measurement, when the setups differ materially, or when `check` finds a difference in
    `results`."""
    if seed is None:
        return None
    rows = reference.load(seed.file)  # read once per version of the file
    for key, want in seed.where.items():
        rows = rows.filter(pl.col(key) == want)
    if rows.height != 1:
        raise KeyError(f"expected one reference row in {seed.file} for {dict(seed.where)}, found {rows.height}")
    row = rows.row(0, named=True)
    kind = str(row.get("kind") or "measured")
    why = ""
    if kind not in COMPARABLE_KINDS:
        why = f"the seed's figure is {kind}, not a measurement"
    elif seed.material:
        why = seed.material
    elif seed.check is not None and results is not None:
        why = seed.check(results) or ""
    return SeedFigure(
        value=float(row["value"]) * seed.scale,
        kind=kind,
        article=ARTICLES.get(str(row["source"]), str(row["source"])),
        quoted=str(row["quoted"]),
        differs=(seed.differs_from(results) if seed.differs_from is not None and results is not None else None)
        or seed.differs,
        comparable=not why,
        why_not=why,
        converted=seed.scale != 1.0,
    )


# --- quantities ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Quantity:
    """One named quantity of the book (see the module)."""

    id: str
    label: str
    unit: str | None
    subject: str
    experiment: str
    section: str
    #: which run of the experiment it is, and why that run (the card's note)
    run: str
    #: the stored median with its interval: (set) -> Estimate; None where this machine
    #: could not run the case; KeyError when the profile has no such case
    read: Callable[[store.ResultSet], Estimate | None]
    laptop: Seed | None = None
    phone: Seed | None = None
    #: what was measured, in a few words
    note: str = ""
    #: shown on the numbers card (False: read by the estimates or a chapter only)
    card: bool = True
    #: for a quantity made by ``pick``: the metric and case it reads
    metric: str | None = None
    where: Mapping[str, Any] = field(default_factory=dict)
    #: the id of the card quantity this one measures again in another run (None: none)
    same_as: str | None = None
    #: the run in a few words, for the table of a quantity's runs ("" : the label)
    run_name: str = ""
    #: napkin-math's figure for the like row of its table (the card's napkin-math column)
    napkin: Seed | None = None
    #: a seed machine's figure the card cannot set beside ours, as the card's cell reads (the seed
    #: prints it in a unit that cannot be converted): {"laptop": "200 cycles as printed …"}
    no_seed: Mapping[str, str] = field(default_factory=dict)
    #: a few words about the case the stored set gave, added to the note ('here 1 thread'); None: none
    detail: Callable[[store.ResultSet], str | None] | None = None


def _one(experiment: str, by: Sequence[str], metric: str, **where: object) -> Reader:
    def read(results: store.ResultSet) -> Estimate | None:
        return stats.estimate(stats.summarize(results.table(experiment), list(by)), metric, **where)

    return read


def _best(experiment: str, by: Sequence[str], metric: str, **where: object) -> Reader:
    """The case with the largest median of `metric` among those matching `where`."""

    def read(results: store.ResultSet) -> Estimate | None:
        summary = stats.summarize(results.table(experiment), list(by)).filter(pl.col("metric") == metric)
        for key, want in where.items():
            summary = summary.filter(pl.col(key) == want)
        if summary.height == 0:
            return None
        return Estimate.from_row(summary.sort("median", descending=True).row(0, named=True))

    return read


def _read_bandwidth(results: store.ResultSet) -> Estimate | None:
    from .cpu import report as cpu_report

    best = cpu_report.read_bandwidth(results.table("bandwidth"))
    return None if best is None else best[1]


def _bandwidth_threads(results: store.ResultSet) -> int | None:
    """The thread count of the read rate the card quotes (``cpu.report.read_bandwidth``);
    None when no read ran or the set has no bandwidth sweep."""
    from .cpu import report as cpu_report

    try:
        best = cpu_report.read_bandwidth(results.table("bandwidth"))
    except KeyError:
        return None
    return None if best is None else best[0]


def _bandwidth_detail(results: store.ResultSet) -> str | None:
    """The thread count the card's memory-bandwidth row quotes: 'here 1 thread'."""
    from . import fmt

    threads = _bandwidth_threads(results)
    return None if threads is None else f"here {fmt.count(threads, 'thread')}"


def _napkin_bandwidth(results: store.ResultSet) -> str | None:
    """What differs from napkin-math's memory bandwidth, with the thread count we quote."""
    from . import fmt

    threads = _bandwidth_threads(results)
    if threads is None:
        return None
    return f"napkin-math's figure is threaded reads with SIMD; ours is our read loop on {fmt.count(threads, 'thread')}"


#: MiB/s -> MB/s (1,048,576 bytes against 1,000,000)
MIB_TO_MB = 2**20 / 1e6


def _hashing(results: store.ResultSet) -> Estimate | None:
    from .hashing import experiments as hashing

    size = current_profile(results.profile.split("+")[0]).hashing.table_size
    summary = stats.summarize(results.table(hashing.NATIVE), ["algorithm", "size"])
    e = stats.estimate(summary, "mib_per_s", algorithm="xxh64", size=size)
    if e is None:
        return None
    # MB/s, the card's and the estimates' rate unit (the hashing chapter counts MiB/s)
    return Estimate(e.median * MIB_TO_MB, e.lo * MIB_TO_MB, e.hi * MIB_TO_MB, e.runs, e.confidence)


def _sqlite(results: store.ResultSet) -> Estimate | None:
    from .sqlite import experiments as sqlite

    table = results.table(sqlite.INSERTS)
    summary = stats.summarize(table.filter(pl.col("row_size") == 1000), ["client", "synchronous", "batch_size"])
    return stats.estimate(summary, "rows_per_s", client=sqlite.C_API, synchronous="normal", batch_size=1)


def _sqlite_rows(results: store.ResultSet) -> str | None:
    """A material difference from the seeds' sqlite-bench runs: fewer rows than their million."""
    from .sqlite import experiments as sqlite

    table = results.table(sqlite.INSERTS)
    if "rows" not in table.columns:
        return None
    ours = table.filter((pl.col("batch_size") == 1) & (pl.col("client") == sqlite.C_API))["rows"].max()
    if ours is None or int(ours) >= 1_000_000:
        return None
    from . import fmt

    return f"our table holds {fmt.count(int(ours), 'row')} against the seed's 1,000,000 ({sqlite_full_words()})"


def sqlite_full_words() -> str:
    """What the full profile's SQLite plan inserts against the seeds' million rows, from
    the plan: 'the full profile's batched runs reach the seed's 1,000,000 rows; its
    one-row transactions stop at 100,000 rows'."""
    from . import fmt

    plan = current_profile("full").sqlite
    sizes = dict(zip(plan.batch_sizes, plan.rows, strict=True))
    one = sizes.get(1)
    batched = max((n for b, n in sizes.items() if b > 1), default=None)
    parts = []
    if batched is not None:
        parts.append(
            "the full profile's batched runs reach the seed's 1,000,000 rows"
            if batched >= 1_000_000
            else f"the full profile's batched runs hold {fmt.count(batched, 'row')}"
        )
    if one is not None:
        whose = "its" if parts else "the full profile's"
        parts.append(
            f"{whose} one-row transactions reach the seed's 1,000,000 too"
            if one >= 1_000_000
            else f"{whose} one-row transactions stop at {fmt.count(one, 'row')}"
        )
    return "; ".join(parts)


def virtual_disk(facts: Mapping[str, Any]) -> bool:
    """Whether a machine's facts (``machine.facts``, or a set's) name its disk virtual: the
    one test the card's comparisons and the preface use."""
    return "virtual" in str(facts.get("device_kind", ""))


def machine_words(facts: Mapping[str, Any]) -> str:
    """The preface's word on what the kernel could see of the machine and its disk: a
    virtual machine by its hypervisor fact, a virtual disk by ``virtual_disk`` (the card's
    test), each said only when found."""
    vm = str(facts.get("hypervisor", "")).startswith("yes")
    disk = virtual_disk(facts)
    if vm and disk:
        return (
            'This is a virtual machine on a virtual disk, and it sees only what its hypervisor shows it: the "disk" '
            "may be a file on another disk, and a cache flush may stop at the host. The table says what the kernel "
            "could see; keep that in mind when a number looks too good."
        )
    if vm:
        return (
            "This is a virtual machine, and it sees only what its hypervisor shows it, though the kernel did not "
            "report its disk as virtual. The table says what the kernel could see; keep that in mind when a number "
            "looks too good."
        )
    if disk:
        return (
            'The kernel reports this disk as virtual: the "disk" may be a file on another disk, and a cache flush '
            "may stop at the host. The table says what the kernel could see."
        )
    return "The table says what the kernel could see."


#: The facts that describe the directory a set wrote in (``machine.facts``), not the machine.
DISK_FACTS = (
    "scratch_dir", "filesystem", "mount_point", "mount_source", "block_device", "device_driver", "device_kind",
    "device_model", "rotational", "logical_block_size", "write_cache", "fua", "read_ahead_kb", "o_direct",
    "o_direct_reason",
)  # fmt: skip
#: The sets whose facts describe where the book's durable writes went, first found first.
DURABLE_SETS = {"fsync": "the fsync set", "storage": "the storage set"}


def preface_facts(now: Mapping[str, Any], sets: list[store.ResultSet]) -> tuple[dict[str, Any], str | None]:
    """The preface's facts: `now` (read at render time) with its disk rows (``DISK_FACTS``)
    replaced by those the fsync set recorded for the directory it wrote in, else the
    storage set's, and the subject they came from (None: neither is stored, the disk rows
    are `now`'s). Each set keeps its own facts, so the disk it measured need not be the
    render's scratch directory."""
    by = {s.subject: s for s in sets}
    for subject in DURABLE_SETS:
        recorded = getattr(by.get(subject), "facts", None)
        if isinstance(recorded, Mapping) and any(k in recorded for k in DISK_FACTS):
            return {**now, **{k: recorded.get(k) for k in DISK_FACTS}}, subject
    return dict(now), None


def write_cache_words(facts: Mapping[str, Any], source: str | None) -> str:
    """Where the preface's disk rows come from (``preface_facts``' `source`, the directory
    named, or said not recorded) and what the write-cache row means for the durable writes
    measured on that disk: on a disk the kernel sees as a drive, how far an fsync's flush
    reaches; on a virtual disk (``virtual_disk``), only what the guest kernel sees, since
    where its flushes end is up to the host; that it is not known when the kernel did not
    report the mode."""
    if source is not None and source not in DURABLE_SETS:
        raise ValueError(f"source must be one of {', '.join(DURABLE_SETS)} or None, got {source!r}")
    where = f" ({facts['scratch_dir']})" if facts.get("scratch_dir") else " (directory not recorded)"
    said = (
        f"The disk rows are those {DURABLE_SETS[source]} recorded for the directory it wrote in{where}."
        if source is not None
        else f"The disk rows describe this render's scratch directory{where}: no fsync or storage set is stored to "
        "say where the durable writes were measured."
    )
    if not facts.get("write_cache"):
        return (
            f"{said} The kernel did not report that disk's write cache, so how far an fsync's flush reaches there "
            "is not known."
        )
    if virtual_disk(facts):
        return (
            f"{said} That disk is virtual, so the write-cache row says what the guest kernel sees of it, and so "
            "whether the kernel sends it cache flushes; where a flush ends, and so where the durable writes measured "
            "there end, is up to the host and cannot be seen from here."
        )
    return (
        f"{said} The write-cache row says how far an fsync's flush reaches on that disk, and so where the durable "
        "writes measured there end."
    )


def first_confident_runs(confidence: float = stats.CONFIDENCE) -> int:
    """The fewest runs whose median interval (``stats.interval_ranks``) reaches
    `confidence`; with fewer, the interval is the slowest to the fastest run and holds the
    median less often."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence is a probability between 0 and 1, got {confidence!r}")
    n = 1
    while stats.interval_ranks(n, confidence)[1] < confidence:
        n += 1
    return n


def _virtual_disk(results: store.ResultSet) -> str | None:
    """A material difference from the laptop's fsync: this set's disk is virtual, so its
    flush ends wherever the hypervisor decides, not on a drive's media (the set's facts)."""
    facts = getattr(results, "facts", None) or {}
    if not virtual_disk(facts):
        return None
    mode = facts.get("write_cache") or "not reported"
    return (
        f"this disk is virtual (write cache: {mode}), so its fsync ends where the hypervisor decides; "
        "the seed's reached the laptop's own NVMe drive"
    )


def _virtual_read(results: store.ResultSet) -> str | None:
    """A material difference from the laptop's sequential read: this set's disk is virtual,
    so its reads may be served from the host's cache rather than a drive (the set's facts)."""
    facts = getattr(results, "facts", None) or {}
    if not virtual_disk(facts):
        return None
    return (
        "this disk is virtual, so its reads may be served from the host's cache (dropping this machine's page "
        "cache does not empty the host's); the seed's came from the laptop's own NVMe drive"
    )


def _memtable(results: store.ResultSet) -> Estimate | None:
    from .memtable import experiments as memtable

    sweep = results.table(memtable.SWEEP)
    largest = int(sweep["capacity"].max())
    summary = stats.summarize(sweep, ["capacity", "dsync", "mode"])
    return stats.estimate(summary, "records_per_s", capacity=largest, dsync=True, mode=memtable.BLOCKING)


def _memory_latency(results: store.ResultSet) -> Estimate | None:
    latency = results.table("latency")
    largest = int(latency["working_set"].max())
    return stats.estimate(stats.summarize(latency, ["working_set"]), "ns_per_load", working_set=largest)


def _tcp_size(results: store.ResultSet) -> str | None:
    """A material difference from seed 000's TCP line: writes of another size than its
    about 3.8 KB per operation."""
    from . import fmt

    sizes = results.table("tcp_bulk")["write_size"].drop_nulls().unique().to_list()
    row = reference.load("network").filter((pl.col("test") == "tcp_read_write") & (pl.col("metric") == "bandwidth"))
    seed_bytes = float(row["op_bytes"][0])
    if not sizes:
        return None
    ours = float(sizes[0])
    if 0.5 <= ours / seed_bytes <= 2:
        return None
    return (
        f"our stream writes {fmt.size(ours)} at a time; the seed's line works out to about "
        f"{fmt.num(seed_bytes / 1000, 2)} KB per operation"
    )


def _fio(machine: str, job: str, **differs: str) -> Seed:
    return Seed("disk_fio_parallel", {"machine": machine, "job": job, "metric": "mb_per_s"}, **differs)


_QD_BY = ["op", "queue_depth", "block_size"]
#: How a seed row whose method the article does not give opens its reason (the CPU chapter's
#: cost table reads such rows "not comparable, method unknown"): the method decides the
#: figure, so it is never compared.
_METHOD_UNKNOWN = "the seed gives no method "
_PARALLEL = "our own 8 parallel jobs of 1 MiB blocks against fio's 8 jobs"
_PHONE_BLOCKS = "the phone's fio run used 256 KiB blocks, ours 1 MiB"

QUANTITIES: tuple[Quantity, ...] = (
    Quantity(
        "seq_read",
        "sequential read",
        "MB/s",
        "storage",
        "parallel",
        "chapters/storing-data.qmd#sec-parallel-jobs",
        "the parallel-jobs run (8 jobs, 1 MiB blocks, page cache dropped first), the setup of seed 001's fio table; "
        "the engine matrix reads one file with one job instead",
        _one("parallel", ["op", "fsync"], "mb_per_s", op="read", fsync=False),
        _fio("laptop", "sync sequential read", differs=_PARALLEL, check=_virtual_read),
        _fio("phone", "sync sequential read", material=_PHONE_BLOCKS),
        "1 MiB blocks, 8 parallel jobs, page cache dropped first",
    ),  # fmt: skip
    Quantity(
        "seq_write",
        "sequential durable write",
        "MB/s",
        "storage",
        "parallel",
        "chapters/storing-data.qmd#sec-parallel-jobs",
        "the parallel-jobs run with an fsync after each 1 MiB write, the setup of seed 001's fio table",
        _one("parallel", ["op", "fsync"], "mb_per_s", op="write", fsync=True),
        _fio("laptop", "sync sequential write + fsync", differs=_PARALLEL, check=_virtual_disk),
        _fio("phone", "sync sequential write + fsync", material=_PHONE_BLOCKS),
        "1 MiB blocks, 8 parallel jobs, fsync after each write",
    ),  # fmt: skip
    Quantity(
        "random_read_qd1",
        "random 4 KiB read, queue depth 1",
        "ops/s",
        "storage",
        "queue_depth",
        "chapters/storing-data.qmd#sec-queue-depth",
        "the queue-depth sweep at depth 1, one read in flight",
        _one("queue_depth", _QD_BY, "ops_per_s", op="read", queue_depth=1, block_size=4096),
        note="io_uring, O_DIRECT, one read in flight",
    ),  # fmt: skip
    Quantity(
        "random_read_qd32",
        "random 4 KiB read, queue depth 32",
        "ops/s",
        "storage",
        "queue_depth",
        "chapters/storing-data.qmd#sec-queue-depth",
        "the queue-depth sweep at depth 32",
        _one("queue_depth", _QD_BY, "ops_per_s", op="read", queue_depth=32, block_size=4096),
        note="io_uring, O_DIRECT, 32 reads in flight",
    ),  # fmt: skip
    Quantity(
        "random_write_qd32",
        "random 4 KiB write, queue depth 32",
        "ops/s",
        "storage",
        "queue_depth",
        "chapters/storing-data.qmd#sec-queue-depth",
        "the queue-depth sweep at depth 32",
        _one("queue_depth", _QD_BY, "ops_per_s", op="write", queue_depth=32, block_size=4096),
        note="io_uring, O_DIRECT, 32 writes in flight",
    ),  # fmt: skip
    Quantity(
        "fsync",
        "4 KiB write + fsync",
        "µs",
        "fsync",
        "latency",
        "chapters/fsync.qmd#sec-fsync-methods",
        "the fsync chapter's latency run: each 4 KiB append to a new file is followed by fsync and timed alone, "
        "so its median is the wait of one durable write; the fsync chapter builds on this run. Other runs "
        "measure the same write again at other moments, on a disk other work may share: the table below sets them "
        "beside it",
        _one("latency", ["method", "layout"], "p50", method="fsync", layout="append"),
        Seed(
            "fsync",
            {"machine": "laptop", "metric": "latency", "device": "WD SN750 NVMe"},
            differs="the seed names neither its write size nor its tool",
            check=_virtual_disk,
        ),
        note="appending to a new file, median latency",
        run_name="the fsync chapter's latency run",
    ),  # fmt: skip
    Quantity(
        "syscall",
        "system call",
        "ns",
        "cpu",
        "costs",
        "chapters/cpu-and-memory.qmd#sec-cpu-costs",
        "the cost table's getppid row: the cheapest call that enters the kernel",
        _one("costs", ["operation"], "ns_per_op", operation="getppid"),
        Seed(
            "system",
            {"machine": "laptop", "operation": "syscall"},
            material=_METHOD_UNKNOWN + "(it does not name its call or tool); ours is getppid through syscall(), "
            "and what entering the kernel costs depends on the kernel and its mitigations as much as on the CPU",
        ),
        note="getppid through syscall()",
    ),  # fmt: skip
    Quantity(
        "context_switch",
        "context switch",
        "ns",
        "cpu",
        "costs",
        "chapters/cpu-and-memory.qmd#sec-cpu-costs",
        "the cost table's pipe ping-pong of two processes pinned to one CPU: a switch with no wake-up across CPUs",
        _one("costs", ["operation"], "ns_per_switch", operation="pipe_same_cpu"),
        Seed(
            "system",
            {"machine": "laptop", "operation": "process_context_switch"},
            scale=1e3,
            material=_METHOD_UNKNOWN + "(it does not say how its processes handed over or whether they shared a "
            "CPU); ours is a pipe ping-pong of two processes pinned to one CPU",
        ),
        note="two processes on one CPU, pipe ping-pong",
    ),  # fmt: skip
    Quantity(
        "memory_latency",
        "memory latency",
        "ns",
        "cpu",
        "latency",
        "chapters/cpu-and-memory.qmd#sec-memory-latency",
        "the latency sweep's largest working set: the furthest from every cache",
        _memory_latency,
        note="dependent loads at random over the sweep's largest working set, TLB misses and page-table walks "
        "included: not a bare DRAM latency. Timed by the wall clock, so an upper bound: on a busy machine other "
        "programs' time counts in it",
        no_seed={
            "laptop": "200 cycles as printed (seed 000, rounded): not comparable, cycles at a clock it does not state"
        },
    ),  # fmt: skip
    Quantity(
        "memory_bandwidth",
        "memory bandwidth",
        "GB/s",
        "cpu",
        "bandwidth",
        "chapters/cpu-and-memory.qmd#sec-memory-bandwidth",
        "the bandwidth sweep's sequential reads: the fewest threads that more threads did not clearly beat",
        _read_bandwidth,
        Seed(
            "system",
            {"machine": "laptop", "level": "RAM", "metric": "throughput"},
            material="the seed's figure is a round number from its table of cache levels, with no method "
            "given; ours is a measured read loop",
        ),
        note="sequential reads with the fewest threads, unless more threads read clearly faster (their "
        "intervals apart); timed by the wall clock, so on a busy machine a lower bound of what the memory "
        "can stream",
        detail=_bandwidth_detail,
    ),  # fmt: skip
    Quantity(
        "hashing",
        "hashing (XXH64)",
        "MB/s",
        "hashing",
        "native",
        "chapters/hashing.qmd#sec-hashing-reference",
        "the native run's XXH64 at the profile's table size (64 KiB inputs), one thread; each run's rate is that "
        "of its fastest slice (other programs share the CPU). The hashing "
        "chapter measures the same loop again at other moments and compares them: a run at a busier moment can "
        "come out clearly lower",
        _hashing,
        Seed(
            "hashing",
            {"machine": "laptop", "algorithm": "xxhash"},
            scale=MIB_TO_MB,
            material="the seed's xxhash is another build (its language and input size are not given); "
            "ours is libxxhash's XXH64 in C",
        ),
        Seed(
            "hashing",
            {"machine": "phone", "algorithm": "xxhash"},
            scale=MIB_TO_MB,
            material="the seed's xxhash is another build (its language and input size are not given); "
            "ours is libxxhash's XXH64 in C",
        ),
        note="64 KiB inputs, one thread, libxxhash, each run's fastest slice; in MB/s here, where the hashing "
        "chapter counts MiB/s",
    ),  # fmt: skip
    Quantity(
        "tcp",
        "TCP over loopback",
        "Gbit/s",
        "network",
        "tcp_bulk",
        "chapters/networks.qmd#sec-tcp",
        "the bulk run with one stream: the most one connection moves",
        _one("tcp_bulk", ["streams"], "gbit_per_s", streams=1),
        Seed("network", {"machine": "laptop", "test": "tcp_read_write", "metric": "bandwidth"}, check=_tcp_size),
        note="one stream, large writes",
    ),  # fmt: skip
    Quantity(
        "http",
        "HTTP hello world",
        "req/s",
        "network",
        "http_closed",
        "chapters/networks.qmd#sec-http",
        "the closed loop's connection count with the highest median rate (the system-design chapter "
        "also uses the open loop's highest offered rate whose p99 stays near the lightest load's)",
        _best("http_closed", ["connections"], "req_per_s"),
        Seed(
            "http",
            {"machine": "laptop", "test": "hello_world", "metric": "req_per_s"},
            material="the seed's go-wrk kept 256 connections busy against a server it does not name (most likely "
            "Go net/http, from the bytes go-wrk counted); ours is a C++ epoll server under our own load generator",
        ),
        Seed(
            "http",
            {"machine": "phone", "test": "hello_world", "metric": "req_per_s"},
            material="the seed's load generator kept 32 connections busy against a server it does not name; ours "
            "is a C++ epoll server under our own load generator",
        ),
        note="our C++ epoll server, closed loop, the connection count with the highest median",
    ),  # fmt: skip
    Quantity(
        "redis",
        "Redis GET",
        "req/s",
        "network",
        "redis_suite",
        "chapters/networks.qmd#sec-redis",
        "the redis-benchmark suite's GET test, 50 clients, 3-byte values: seed 000's command",
        _one("redis_suite", ["test"], "req_per_s", test="get"),
        Seed(
            "redis_benchmark",
            {"machine": "laptop", "test": "GET", "metric": "req_per_s"},
            differs="the same tool, 50 clients and payload (the Redis versions may differ); here redis-benchmark "
            "and the server share this machine's CPUs, so the ratio is this setup's, not the machine's alone",
        ),
        Seed(
            "redis_benchmark",
            {"machine": "phone", "test": "summary"},
            differs="the seed gives one rounded figure for read, write and ping",
        ),
        note="redis-benchmark, 50 clients",
    ),  # fmt: skip
    Quantity(
        "sqlite_insert",
        "SQLite insert",
        "rows/s",
        "sqlite",
        "inserts",
        "chapters/storing-data.qmd#sec-sqlite-rates",
        "the C API run with one 1,000-byte row per transaction, WAL, synchronous=NORMAL: the seeds' setting. In WAL "
        "mode NORMAL syncs the log before a checkpoint, not at each commit, so a committed row survives a crash "
        "of the program but not necessarily a power cut (the storing-data chapter's section on synchronous)",
        _sqlite,
        Seed(
            "sqlite",
            {
                "machine": "laptop",
                "metric": "rows_per_s",
                "batch_size": 1,
                "synchronous": "normal",
                "figure_type": "measured",
            },
            differs="the seed used sqlite-bench (Go); we call SQLite's C API",
            check=_sqlite_rows,
        ),
        Seed(
            "sqlite",
            {
                "machine": "phone",
                "metric": "rows_per_s",
                "batch_size": 1,
                "synchronous": "normal",
                "figure_type": "measured",
            },
            differs="the seed used sqlite-bench (Go); we call SQLite's C API",
            check=_sqlite_rows,
        ),
        note="1,000-byte rows, one per transaction, WAL, NORMAL",
    ),  # fmt: skip
    Quantity(
        "memtable",
        "memtable, durable",
        "records/s",
        "memtable",
        "sweep",
        "chapters/memtables.qmd#sec-memtable-sweep",
        "the sweep's largest memtable with O_DSYNC, blocking writer: the fewest, largest flushes",
        _memtable,
        note="16 KiB records, O_DSYNC, largest memtable",
    ),  # fmt: skip
)

#: Other runs of the card's quantities: the same thing measured again elsewhere in the book.
QUANTITIES += (
    Quantity(
        "fsync_block_sizes_4k", "4 KiB write + fsync (block-size sweep)", "µs", "fsync", "block_sizes",
        "chapters/fsync.qmd#sec-fsync",
        "fewer writes per run than the latency run, and a fresh file for each block size",
        _one("block_sizes", ["method", "layout", "block_size"], "p50", method="fsync", layout="append",
             block_size=4096),
        note="appending 4 KiB, fsync after each, median latency", card=False, same_as="fsync",
        run_name="the fsync chapter's block-size sweep at 4 KiB",
    ),
    Quantity(
        "sqlite_fsync_baseline", "4 KiB write + fsync (SQLite's baseline)", "µs", "sqlite", "fsync_baseline",
        "chapters/storing-data.qmd#sec-sqlite-rates",
        "the same append + fsync, run right after SQLite's insert runs, at another moment, on a disk other work may "
        "share; this is its median, where the storing-data chapter quotes its mean (slow writes included)",
        _one("fsync_baseline", ["method"], "p50", method="4 KiB write + fsync"),
        note="appending 4 KiB, fsync after each, median latency", card=False, same_as="fsync",
        run_name="the SQLite baseline (storing data)",
    ),
    Quantity(
        "fsync_rate", "durable 4 KiB writes per second, one thread", "writes/s", "fsync", "latency",
        "chapters/fsync.qmd#sec-fsync-methods",
        "the fsync chapter's latency run counted over every write, slow ones included (1 ÷ the mean latency)",
        _one("latency", ["method", "layout"], "writes_per_s", method="fsync", layout="append"),
        note="appending 4 KiB to a new file, fsync after each, writes made durable per second", card=False,
    ),
)  # fmt: skip

# --- napkin-math's column, and its rows the compress-encode-sort chapter measures ------------


def _napkin(
    benchmark: str,
    metric: str,
    scale: float,
    differs: str = "",
    material: str = "",
    differs_from: Callable[[store.ResultSet], str | None] | None = None,
) -> Seed:
    """A row of napkin-math's table (the Xeon E-2236 version, data/reference/napkin_math.csv)."""
    where = {"machine": "napkin_e2236", "benchmark": benchmark, "metric": metric}
    return Seed("napkin_math", where, scale=scale, differs=differs, material=material, differs_from=differs_from)


_GIB_MB, _MIB_MB = 2**30 / 1e6, 2**20 / 1e6
NAPKIN: dict[str, Seed] = {
    "seq_read": _napkin("sequential_ssd_read_8_kib", "throughput", _GIB_MB,
                        material="napkin-math reads 8 KiB at a time in one thread; ours 1 MiB blocks in 8 jobs"),
    "seq_write": _napkin("sequential_ssd_write_with_fsync_8kib", "throughput", _MIB_MB,
                         material="napkin-math syncs after every 8 KiB; ours after every 1 MiB"),
    "fsync": _napkin("sequential_ssd_write_with_fsync_8kib", "latency", 1e3,
                     differs="napkin-math writes 8 KiB before each fsync, ours 4 KiB to a new file"),
    # its 70 MiB/s of random 8 KiB reads, counted in reads a second (2^20 / 8,192 = 128 reads per MiB)
    "random_read_qd1": _napkin("random_ssd_read_8_kib", "throughput", 2**20 / (8 * 1024),
                               differs="napkin-math reads 8 KiB, ours 4 KiB at depth 1 (its MiB/s counted here as "
                               "8 KiB reads a second)"),
    "syscall": _napkin("system_call", "latency", 1.0,
                       material="napkin-math gives no method (it does not name its call); ours is getppid"),
    "context_switch": _napkin("context_switch", "latency", 1e3,
                              material="napkin-math gives no method (it quotes its figure from other "
                              "articles); ours is a pipe ping-pong on one CPU"),
    "memory_latency": _napkin("random_memory_r_w_64_bytes", "latency", 1.0,
                              differs="napkin-math's random 64-byte reads and writes; ours dependent loads"),
    "memory_bandwidth": _napkin("sequential_memory_r_w_64_bytes_threaded_simd", "throughput", _GIB_MB / 1e3,
                                differs="napkin-math's figure is threaded reads with SIMD; ours the thread count "
                                "the bandwidth sweep quotes", differs_from=_napkin_bandwidth),
    "hashing": _napkin("hashing_not_crypto_safe_64_bytes", "throughput", _GIB_MB,
                       material="napkin-math hashes 64-byte inputs; ours 64 KiB inputs"),
    "tcp": _napkin("tcp_echo_server_32_kib", "throughput", 2**30 * 8 / 1e9,
                   material="napkin-math's echo server answers 32 KiB messages; ours is a one-way bulk stream"),
}  # fmt: skip


def _codecs(experiment: str, by: Sequence[str], metric: str, **where: object) -> Reader:
    """A case of the codecs subject at the profile's block size (or sort size)."""

    def read(results: store.ResultSet) -> Estimate | None:
        plan = current_profile(results.profile.split("+")[0]).codecs
        extra = {"block": min(b for b in plan.blocks if b > 0)} if "block" in by else {"n": min(plan.sort_sizes)}
        return stats.estimate(stats.summarize(results.table(experiment), list(by)), metric, **where, **extra)

    return read


_NO_CODEC = "napkin-math names no codec, level or input"
CODEC_QUANTITIES: tuple[Quantity, ...] = (
    Quantity(
        "compression", "compression (zstd -1)", "MB/s", "codecs", "compress",
        "chapters/compress-encode-sort.qmd#sec-codecs-compression",
        "zstd at level 1 on the book's own sources in 64 KiB blocks (the smoke profile: 16 KiB), one core",
        _codecs("compress", ["codec", "level", "input", "block"], "compress_mb_per_s", codec="zstd", level=1,
                input="text"),
        note="zstd -1, the book's sources, one core",
        napkin=_napkin("compression", "throughput", _MIB_MB, differs=_NO_CODEC),
    ),
    Quantity(
        "decompression", "decompression (zstd -1)", "MB/s", "codecs", "compress",
        "chapters/compress-encode-sort.qmd#sec-codecs-compression",
        "the same zstd level 1 blocks decompressed, one core",
        _codecs("compress", ["codec", "level", "input", "block"], "decompress_mb_per_s", codec="zstd", level=1,
                input="text"),
        note="zstd -1, the book's sources, one core",
        napkin=_napkin("decompression", "throughput", _GIB_MB, differs=_NO_CODEC),
    ),
    Quantity(
        "sort", "sorting 64-bit integers", "MB/s", "codecs", "sort",
        "chapters/compress-encode-sort.qmd#sec-codecs-sort",
        "std::sort of a million random 64-bit integers (the smoke profile: fewer), one core",
        _codecs("sort", ["algorithm", "order", "n"], "mb_per_s", algorithm="std_sort", order="random"),
        note="std::sort, random order, one core",
        napkin=_napkin("sorting_64_bit_integers", "throughput", _MIB_MB,
                       differs="napkin-math does not name its sort or size"),
    ),
)  # fmt: skip

QUANTITIES = tuple(replace(q, napkin=NAPKIN.get(q.id, q.napkin)) for q in QUANTITIES) + CODEC_QUANTITIES

IDS = tuple(q.id for q in QUANTITIES)


def other_runs(id_: str) -> tuple[Quantity, ...]:
    """The quantities that measure card quantity `id_` again, in other runs."""
    return tuple(q for q in QUANTITIES if q.same_as == id_)


_BY_ID = {q.id: q for q in QUANTITIES}


def get(id_: str) -> Quantity:
    """The registry's quantity `id_` (KeyError naming the known ones)."""
    if id_ not in _BY_ID:
        raise UnknownQuantity(f"no headline quantity named {id_}; known: {', '.join(IDS)}")
    return _BY_ID[id_]


def pick(label: str, subject: str, experiment: str, metric: str, where: Mapping[str, Any] | None = None) -> Quantity:
    """A chapter's own quantity for a chart of machines: the median of `metric` in the one
    case of `experiment` that `where` picks (its unit read from the stored table)."""
    where = dict(where or {})

    def read(results: store.ResultSet) -> Estimate | None:
        table = results.table(experiment)
        for key in where:
            if key not in table.columns:
                raise KeyError(f"{label}: {experiment} has no case parameter {key!r}")
        rows = table.filter(pl.col("metric") == metric)
        for key, value in where.items():
            rows = rows.filter(pl.col(key) == value)
        if rows.height == 0:
            return None
        case = [c for c in rows.columns if c not in store_columns()]
        summary = stats.summarize(rows, case)
        if summary.height != 1:
            raise KeyError(f"{label}: {where} picks {summary.height} cases of {experiment}, not one")
        return Estimate.from_row(summary.row(0, named=True))

    return Quantity(label, label, None, subject, experiment, "", "", read, card=False, metric=metric, where=where)


def store_columns() -> tuple[str, ...]:
    """Columns of a stored table that are not a case's parameters."""
    return ("repetition", "metric", "value", "unit", "note", "profile", "measured_at")


def unit_of(q: Quantity, results: store.ResultSet) -> str | None:
    """The quantity's unit: its own, or the stored table's for a ``pick``."""
    if q.unit is not None or q.metric is None:
        return q.unit
    units = results.table(q.experiment).filter(pl.col("metric") == q.metric)["unit"].drop_nulls().unique().to_list()
    return str(units[0]) if units else None


@dataclass(frozen=True)
class Reading:
    """A quantity read from one machine's set: the estimate, or why there is none."""

    quantity: Quantity
    estimate: Estimate | None
    reason: str | None
    profile: str | None = None
    measured_at: str | None = None


def read(q: Quantity, found: store.ResultSet | str) -> Reading:
    """`q` from a stored set (or the reason there is none, as a string)."""
    if isinstance(found, str):
        return Reading(q, None, found)
    try:
        value = q.read(found)
        reason = None
    except KeyError:
        value, reason = None, f"the {found.profile} profile does not measure this case"
    if value is None and reason is None:
        notes = stats.reasons(found.table(q.experiment))
        reason = "; ".join(notes) if notes else "no case of it ran here"
    return Reading(q, value, reason, found.profile, found.manifest.get("finished"))


# --- which stored set each subject is read from ----------------------------------------------

PROFILE_PREFERENCE = ("full", "quick", "smoke")


def this_machine() -> str:
    from .machine import machine_id

    return machine_id()


def _profiles(machine: str, profile: str | None) -> list[str | None]:
    if profile is not None:
        return [profile]
    if not store.machine_name_ok(machine):
        raise ValueError(f"machine {machine!r} is not a machine's folder name (letters, digits, '_', '.', '-')")
    from .paths import results_dir

    stored = {p.name.split("+")[0] for p in (results_dir() / machine).glob("*") if p.is_dir()}
    return [None, *(p for p in PROFILE_PREFERENCE if p in stored)]


def sets(
    machine: str | None = None, profile: str | None = None, *, measure: bool = True, subjects: Sequence[str] = SUBJECTS
) -> dict[str, store.ResultSet | str]:
    """Each subject's set for `machine` (this one by default), or why there is none: the one
    lookup of the registry's readers. This machine on the current profile with `measure`:
    ``store.results`` (measured when missing); otherwise only what is stored, on the profile
    asked for or else the fullest one stored. Each set is opened once."""
    name = machine or this_machine()
    here = name == this_machine()
    out: dict[str, store.ResultSet | str] = {}
    for subject in subjects:
        if here and profile is None and measure:
            out[subject] = store.results(subject)
            continue
        why = ""
        for candidate in _profiles(name, profile):
            try:
                out[subject] = (
                    store.load(subject, machine=name, profile=candidate)
                    if here
                    else store.load_stored(subject, name, candidate or current_profile().name)
                )
                break
            except store.MissingResults as error:
                why = why or str(error).split(" (")[0].replace("this machine", f"machine {name!r}")
        else:
            out[subject] = why
    return out


SCHEMA = {
    "id": pl.String, "label": pl.String, "value": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
    "runs": pl.Int64, "confidence": pl.Float64, "target": pl.Float64, "unit": pl.String, "reason": pl.String,
    "note": pl.String,
    "run": pl.String, "section": pl.String, "subject": pl.String, "experiment": pl.String,
    "measured_at": pl.String, "machine": pl.String, "profile": pl.String,
    **{f"{m}{part}": kind for m in REFERENCE_MACHINES for part, kind in (
        ("", pl.Float64), (" kind", pl.String), (" article", pl.String), (" quoted", pl.String),
        (" differs", pl.String), (" comparable", pl.Boolean), (" why not", pl.String),
        (" converted", pl.Boolean))},
}  # fmt: skip


def table(
    machine: str | None = None,
    profile: str | None = None,
    *,
    measure: bool = True,
    quantities: Sequence[Quantity] | None = None,
) -> pl.DataFrame:
    """One row per quantity (the card's by default) for `machine` and `profile`: the median
    (``value``) with its interval (``lo``, ``hi``), ``runs`` and the ``target`` its profile holds an
    interval to (``stats.stability``), its unit, why it is missing,
    which run it is (``run``), where the book measures it, and the laptop's and phone's
    figures with their kind, article, what differs and whether they are comparable."""
    if machine is not None and not (isinstance(machine, str) and store._MACHINE.match(machine)):
        raise ValueError(f"machine {machine!r} is not a machine's folder name (letters, digits, '_', '.', '-')")
    if profile is not None:
        store._check_name(profile, "profile")
    wanted = [q for q in QUANTITIES if q.card] if quantities is None else list(quantities)
    found = sets(machine, profile, measure=measure, subjects=list(dict.fromkeys(q.subject for q in wanted)))
    name = machine or this_machine()
    rows = []
    for q in wanted:
        got = read(q, found[q.subject])
        e = got.estimate
        data = found[q.subject] if not isinstance(found[q.subject], str) else None
        extra = q.detail(data) if e is not None and data is not None and q.detail is not None else None
        row: dict[str, Any] = {
            "id": q.id, "label": q.label, "value": None if e is None else e.median,
            "lo": None if e is None else e.lo, "hi": None if e is None else e.hi,
            "runs": None if e is None else e.runs, "confidence": None if e is None else e.confidence,
            "target": None if got.profile is None else target_of(got.profile),
            "unit": q.unit if data is None else unit_of(q, data), "reason": got.reason,
            "note": q.note + (f" ({extra})" if extra else ""),
            "run": q.run, "section": q.section, "subject": q.subject, "experiment": q.experiment,
            "measured_at": got.measured_at, "machine": name, "profile": got.profile,
        }  # fmt: skip
        for m in REFERENCE_MACHINES:
            fig = seed_figure(getattr(q, m), data)
            row |= {
                m: None if fig is None else fig.value,
                f"{m} kind": None if fig is None else fig.kind,
                f"{m} article": None if fig is None else fig.article,
                f"{m} quoted": None if fig is None else fig.quoted,
                f"{m} differs": None if fig is None else fig.differs,
                f"{m} comparable": None if fig is None else fig.comparable,
                f"{m} why not": q.no_seed.get(m) if fig is None else fig.why_not,
                f"{m} converted": None if fig is None else fig.converted,
            }
        rows.append(row)
    return pl.DataFrame(rows, schema=SCHEMA)


def estimate_of(rows: pl.DataFrame, id_: str) -> Estimate | None:
    """A row of ``table`` back as an Estimate (None: not measured)."""
    row = rows.filter(pl.col("id") == id_)
    if row.height != 1:
        raise KeyError(f"the table has no row {id_!r}")
    r = row.row(0, named=True)
    if r["value"] is None:
        return None
    return Estimate(r["value"], r["lo"], r["hi"], r["runs"] or 1, r["confidence"])


checked(globals())
