"""The numbers card: one row per headline number of the book, read from the stored results.

Every value is the median the chapter shows, computed from the stored set with the same
functions (``stats.summarize`` and ``stats.pick``, or the subject's report), never measured
again here. A case this machine could not run has no value and a reason; a subject with
no stored set for another machine has no values and says so. The laptop and phone
columns are the seeds' figures (``data/reference``) where they measured the same thing,
converted to the row's unit, and empty where they did not.

``headlines()`` is one machine's card as data; ``card()`` puts the stored machines side
by side (this machine first); ``display()`` makes either readable (used by the chapter
and by ``howfast card``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import altair as alt
import polars as pl

from . import fmt, reference, stats, store
from .checks import checked
from .profiles import current_profile

#: The subjects the card reads (rocksdb has no headline number).
SUBJECTS = ("fsync", "storage", "sqlite", "memtable", "network", "hashing", "cpu")

#: The reference machines of the seeds, as the card's columns name them.
REFERENCE_MACHINES = ("laptop", "phone")


@dataclass(frozen=True)
class Reference:
    """A seed figure: a row of ``data/reference/<file>.csv`` picked by column values,
    multiplied by ``scale`` into the card row's unit."""

    file: str
    where: dict[str, object]
    scale: float = 1.0


@dataclass(frozen=True)
class Headline:
    id: str
    label: str
    unit: str
    subject: str
    experiment: str
    section: str
    #: the stored median: (set) -> value; KeyError when the profile has no such case
    value: Callable[[store.ResultSet], float | None]
    laptop: Reference | None = None
    phone: Reference | None = None
    #: what the row measures, in a few words (the card's note)
    note: str = ""


def _pick(experiment: str, by: list[str], metric: str, **where: object) -> Callable[[store.ResultSet], float | None]:
    def value(results: store.ResultSet) -> float | None:
        return stats.pick(stats.summarize(results.table(experiment), by), metric, **where)

    return value


def _best(experiment: str, by: list[str], metric: str, **where: object) -> Callable[[store.ResultSet], float | None]:
    """The largest median of `metric` over the cases matching `where` (None: none ran)."""

    def value(results: store.ResultSet) -> float | None:
        summary = stats.summarize(results.table(experiment), by).filter(pl.col("metric") == metric)
        for key, want in where.items():
            summary = summary.filter(pl.col(key) == want)
        return None if summary.height == 0 else float(summary["median"].max())

    return value


def _hash_value(results: store.ResultSet) -> float | None:
    from .hashing import experiments as hashing
    from .profiles import current_profile

    size = current_profile(results.profile.split("+")[0]).hashing.table_size
    return stats.pick(stats.summarize(results.table(hashing.NATIVE), ["algorithm", "size"]), "mib_per_s",
                      algorithm="xxh64", size=size)  # fmt: skip


def _sqlite_value(results: store.ResultSet) -> float | None:
    from .sqlite import experiments as sqlite
    from .sqlite import report

    return report.rate(results.table(sqlite.INSERTS), sqlite.C_API, "normal", 1)


def _memtable_value(results: store.ResultSet) -> float | None:
    from .memtable import experiments as memtable

    sweep = results.table(memtable.SWEEP)
    largest = int(sweep["capacity"].max())
    return stats.pick(stats.summarize(sweep, ["capacity", "dsync", "mode"]), "records_per_s",
                      capacity=largest, dsync=True, mode=memtable.BLOCKING)  # fmt: skip


def _memory_latency(results: store.ResultSet) -> float | None:
    latency = results.table("latency")
    largest = int(latency["working_set"].max())
    return stats.pick(stats.summarize(latency, ["working_set"]), "ns_per_load", working_set=largest)


def _fio(machine: str, job: str) -> Reference:
    return Reference("disk_fio_parallel", {"machine": machine, "job": job, "metric": "mb_per_s"})


_QD_BY = ["op", "queue_depth", "block_size"]

HEADLINES: tuple[Headline, ...] = (
    Headline(
        "seq_read",
        "sequential read",
        "MB/s",
        "storage",
        "parallel",
        "chapters/storing-data.qmd#sec-parallel-jobs",
        _pick("parallel", ["op", "fsync"], "mb_per_s", op="read", fsync=False),
        _fio("laptop", "sync sequential read"),
        _fio("phone", "sync sequential read"),
        "1 MiB blocks, parallel jobs, page cache dropped first",
    ),
    Headline(
        "seq_write",
        "sequential durable write",
        "MB/s",
        "storage",
        "parallel",
        "chapters/storing-data.qmd#sec-parallel-jobs",
        _pick("parallel", ["op", "fsync"], "mb_per_s", op="write", fsync=True),
        _fio("laptop", "sync sequential write + fsync"),
        _fio("phone", "sync sequential write + fsync"),
        "1 MiB blocks, parallel jobs, fsync after each write",
    ),
    Headline(
        "random_read_qd1",
        "random 4 KiB read, queue depth 1",
        "ops/s",
        "storage",
        "queue_depth",
        "chapters/storing-data.qmd#sec-queue-depth",
        _pick("queue_depth", _QD_BY, "ops_per_s", op="read", queue_depth=1, block_size=4096),
        note="io_uring, O_DIRECT, one read in flight",
    ),
    Headline(
        "random_read_qd32",
        "random 4 KiB read, queue depth 32",
        "ops/s",
        "storage",
        "queue_depth",
        "chapters/storing-data.qmd#sec-queue-depth",
        _pick("queue_depth", _QD_BY, "ops_per_s", op="read", queue_depth=32, block_size=4096),
        note="io_uring, O_DIRECT, 32 reads in flight",
    ),
    Headline(
        "fsync",
        "4 KiB write + fsync",
        "µs",
        "fsync",
        "latency",
        "chapters/fsync.qmd#sec-fsync-methods",
        lambda r: stats.pick(
            stats.summarize(r.table("latency").filter(pl.col("layout") == "append"), ["method"]), "p50", method="fsync"
        ),  # fmt: skip
        Reference("fsync", {"machine": "laptop", "metric": "latency", "device": "WD SN750 NVMe"}),
        note="appending to a new file, median latency",
    ),
    Headline(
        "syscall",
        "system call",
        "ns",
        "cpu",
        "costs",
        "chapters/cpu-and-memory.qmd#sec-cpu-costs",
        _pick("costs", ["operation"], "ns_per_op", operation="getppid"),
        Reference("system", {"machine": "laptop", "operation": "syscall"}),
        note="getppid through syscall()",
    ),
    Headline(
        "context_switch",
        "context switch",
        "ns",
        "cpu",
        "costs",
        "chapters/cpu-and-memory.qmd#sec-cpu-costs",
        _pick("costs", ["operation"], "ns_per_switch", operation="pipe_same_cpu"),
        Reference("system", {"machine": "laptop", "operation": "process_context_switch"}, scale=1e3),
        note="two processes on one CPU, pipe ping-pong",
    ),
    Headline(
        "memory_latency",
        "memory latency",
        "ns",
        "cpu",
        "latency",
        "chapters/cpu-and-memory.qmd#sec-memory-latency",
        _memory_latency,
        note="dependent loads, largest working set",
    ),
    Headline(
        "memory_bandwidth",
        "memory bandwidth",
        "GB/s",
        "cpu",
        "bandwidth",
        "chapters/cpu-and-memory.qmd#sec-memory-bandwidth",
        _best("bandwidth", ["kind", "threads"], "gb_per_s", kind="read"),
        Reference("system", {"machine": "laptop", "level": "RAM", "metric": "throughput"}),
        note="sequential reads, best thread count",
    ),
    Headline(
        "hashing",
        "hashing (XXH64)",
        "MiB/s",
        "hashing",
        "native",
        "chapters/hashing.qmd#sec-hashing-reference",
        _hash_value,
        Reference("hashing", {"machine": "laptop", "algorithm": "xxhash"}),
        Reference("hashing", {"machine": "phone", "algorithm": "xxhash"}),
        note="64 KiB inputs, one thread",
    ),
    Headline(
        "tcp",
        "TCP over loopback",
        "Gbit/s",
        "network",
        "tcp_bulk",
        "chapters/networks.qmd#sec-tcp",
        _pick("tcp_bulk", ["streams"], "gbit_per_s", streams=1),
        Reference("network", {"machine": "laptop", "test": "tcp_read_write", "metric": "bandwidth"}),
        note="one stream",
    ),
    Headline(
        "http",
        "HTTP hello world",
        "req/s",
        "network",
        "http_closed",
        "chapters/networks.qmd#sec-http",
        _best("http_closed", ["connections"], "req_per_s"),
        Reference("http", {"machine": "laptop", "test": "hello_world", "metric": "req_per_s"}),
        Reference("http", {"machine": "phone", "test": "hello_world", "metric": "req_per_s"}),
        note="best closed loop over connection counts",
    ),
    Headline(
        "redis",
        "Redis GET",
        "req/s",
        "network",
        "redis_suite",
        "chapters/networks.qmd#sec-redis",
        _pick("redis_suite", ["test"], "req_per_s", test="get"),
        Reference("redis_benchmark", {"machine": "laptop", "test": "summary", "source": "001_31e43ce54630c49d.txt"}),
        Reference("redis_benchmark", {"machine": "phone", "test": "summary"}),
        note="redis-benchmark, 50 clients (seeds: rounded)",
    ),
    Headline(
        "sqlite_insert",
        "SQLite insert",
        "rows/s",
        "sqlite",
        "inserts",
        "chapters/storing-data.qmd#sec-sqlite-rates",
        _sqlite_value,
        Reference(
            "sqlite",
            {
                "machine": "laptop",
                "metric": "rows_per_s",
                "batch_size": 1,
                "synchronous": "normal",
                "figure_type": "measured",
            },
        ),  # fmt: skip
        Reference(
            "sqlite",
            {
                "machine": "phone",
                "metric": "rows_per_s",
                "batch_size": 1,
                "synchronous": "normal",
                "figure_type": "measured",
            },
        ),  # fmt: skip
        note="1,000-byte rows, one per transaction, WAL, NORMAL",
    ),
    Headline(
        "memtable",
        "memtable, durable",
        "records/s",
        "memtable",
        "sweep",
        "chapters/memtables.qmd#sec-memtable-sweep",
        _memtable_value,
        note="16 KiB records, O_DSYNC, largest memtable",
    ),
)

IDS = tuple(h.id for h in HEADLINES)


def reference_value(ref: Reference | None) -> float | None:
    """The seed figure a Reference names, in the row's unit (None: no such figure)."""
    if ref is None:
        return None
    rows = reference.load(ref.file)  # read once per version of the file (reference.load)
    for key, want in ref.where.items():
        rows = rows.filter(pl.col(key) == want)
    if rows.height != 1:
        raise KeyError(f"expected one reference row in {ref.file} for {ref.where}, found {rows.height}")
    return float(rows["value"][0]) * ref.scale


def _unsupported_reason(results: store.ResultSet, experiment: str) -> str:
    notes = stats.reasons(results.table(experiment))
    return "; ".join(notes) if notes else "no case of it ran here"


def _this_machine() -> str:
    from .machine import machine_id

    return machine_id()


def unstored(subjects: tuple[str, ...] = SUBJECTS) -> list[str]:
    """The subjects this machine has no (readable) stored set of for the current profile:
    the card measures them when it is made."""
    missing = []
    for subject in subjects:
        try:
            store.load(subject)
        except store.MissingResults:
            missing.append(subject)
    return missing


PROFILE_PREFERENCE = ("full", "quick", "smoke")


def _profiles(machine: str, profile: str | None) -> list[str | None]:
    """The profiles to try for a machine: the one asked for (or the current one), then
    the others it has stored, fullest first."""
    if profile is not None:
        return [profile]
    from .paths import results_dir

    stored = {p.name.split("+")[0] for p in (results_dir() / machine).glob("*") if p.is_dir()}
    return [None, *(p for p in PROFILE_PREFERENCE if p in stored)]


def _sets(machine: str | None, profile: str | None, measure: bool) -> dict[str, store.ResultSet | str]:
    """Each subject's set, or why there is none. This machine on the current profile with
    `measure`: read with ``store.results`` (measured when missing); otherwise only what is
    stored, on the profile asked for or else the fullest one stored."""
    name = machine or _this_machine()
    here = name == _this_machine()
    out: dict[str, store.ResultSet | str] = {}
    for subject in SUBJECTS:
        if here and profile is None and measure:
            out[subject] = store.results(subject)
            continue
        why = ""
        for candidate in _profiles(name, profile):
            try:
                # this machine as the chapters read it (with this run's switches); another
                # machine's folder as it was stored, whatever this run has switched off
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


def headlines(machine: str | None = None, profile: str | None = None, *, measure: bool = True) -> pl.DataFrame:
    """One row per headline number for `machine` (this one by default) and `profile` (the
    current one): the stored median, its unit, why it is missing, where the book measured
    it, and the laptop's and phone's figures. This machine's missing subjects are measured
    first (on the current profile) unless `measure` is False."""
    if machine is not None and not store.machine_name_ok(machine):
        raise ValueError(f"machine {machine!r} is not a machine's folder name (letters, digits, '_', '.', '-')")
    if profile is not None:
        store._check_name(profile, "profile")
    sets = _sets(machine, profile, measure)
    name = machine or _this_machine()
    rows = []
    for h in HEADLINES:
        found = sets[h.subject]
        value: float | None = None
        reason: str | None = None
        measured_at = used_profile = None
        if isinstance(found, str):
            reason = found
        else:
            measured_at, used_profile = found.manifest.get("finished"), found.profile
            try:
                value = h.value(found)
            except KeyError:
                reason = f"the {found.profile} profile does not measure this case"
            if value is None and reason is None:
                reason = _unsupported_reason(found, h.experiment)
        rows.append({
            "id": h.id, "label": h.label, "value": value, "unit": h.unit, "reason": reason, "note": h.note,
            "section": h.section, "subject": h.subject, "experiment": h.experiment, "measured_at": measured_at,
            "machine": name, "profile": used_profile,
            "laptop": reference_value(h.laptop), "phone": reference_value(h.phone),
        })  # fmt: skip
    return pl.DataFrame(rows, schema=SCHEMA)


SCHEMA = {
    "id": pl.String, "label": pl.String, "value": pl.Float64, "unit": pl.String, "reason": pl.String,
    "note": pl.String, "section": pl.String, "subject": pl.String, "experiment": pl.String,
    "measured_at": pl.String, "machine": pl.String, "profile": pl.String, "laptop": pl.Float64, "phone": pl.Float64,
}  # fmt: skip


def machines_in_order(*, include_here: bool = True) -> list[str]:
    """The stored machines, this one first (also when it has nothing stored, with
    `include_here`)."""
    here = _this_machine()
    stored = store.machines()
    first = [here] if include_here or here in stored else []
    return [*first, *(m for m in stored if m != here)]


def card(machines: list[str] | None = None, *, measure: bool = True) -> pl.DataFrame:
    """The card: id, label, unit, section, one value column per machine (this machine
    first; all stored machines when none are named), then laptop and phone. Each machine
    also gets ``<machine> reason`` (why a value is missing) and ``<machine> measured``
    (when, and on which profile)."""
    names = machines_in_order(include_here=measure) if machines is None else list(dict.fromkeys(machines))
    if not names:
        raise ValueError("machines must name at least one machine")
    known = set(store.machines()) | {_this_machine()}
    unknown = [m for m in names if m not in known]
    if unknown:
        raise ValueError(
            f"unknown machine {unknown[0]!r}: the stored machines are {', '.join(sorted(known)) or 'none'}"
        )
    base = None
    for name in names:
        rows = headlines(None if name == _this_machine() else name, measure=measure)
        cols = rows.select(
            "id",
            pl.col("value").alias(name),
            pl.col("reason").alias(f"{name} reason"),
            pl.concat_str(
                pl.col("measured_at").str.slice(0, 10), pl.lit(", "), pl.col("profile"), pl.lit(" profile")
            ).alias(f"{name} measured"),
        )
        if base is None:
            base = rows.select("id", "label", "unit", "note", "section").join(cols, on="id", how="left")
            refs = rows.select("id", "laptop", "phone")
        else:
            base = base.join(cols, on="id", how="left")
    return base.join(refs, on="id", how="left")


def value_columns(frame: pl.DataFrame) -> list[str]:
    """The machines of a card, in its order."""
    return [c for c in frame.columns if f"{c} reason" in frame.columns]


def stamp_line(frame: pl.DataFrame, machine: str) -> str:
    """When (and on which profiles) a machine's numbers of the card were measured."""
    seen = frame[f"{machine} measured"].drop_nulls().unique().sort().to_list()
    return "measured " + "; ".join(seen) if seen else "nothing stored"


def display(value: float | None, unit: str) -> str:
    """A card value as a reader sees it: a duration in its best unit, else number + unit."""
    if value is None:
        return fmt.NA
    if unit == "ns":
        return fmt.duration_us(value / 1e3)
    if unit == "µs":
        return fmt.duration_us(value)
    return f"{fmt.num(value)} {unit}"


def link(section: str, base: str = "chapters/") -> str:
    """A section path relative to a page in `base` ('storing-data.qmd#sec-...')."""
    return section.removeprefix(base)


#: Units in which less is faster (a time per operation).
TIMES = ("ns", "µs")


def versus_laptop(frame: pl.DataFrame, machine: str) -> pl.DataFrame:
    """How many times the laptop's figure a machine's is, turned so that above 1 always
    means faster (times are inverted); rows without both figures are left out."""
    return (
        frame.filter(pl.col(machine).is_not_null() & pl.col("laptop").is_not_null())
        .with_columns(
            times=pl.when(pl.col("unit").is_in(TIMES))
            .then(pl.col("laptop") / pl.col(machine))
            .otherwise(pl.col(machine) / pl.col("laptop"))
        )
        .with_columns(faster=pl.col("times") >= 1)
        .select("label", "times", "faster")
    )


def _ticks(domain: list[float]) -> list[float]:
    steps = [m * 10**e for e in range(-4, 5) for m in (1, 2, 5)]
    return [t for t in steps if domain[0] <= t <= domain[1]]


def ratio_chart(ratios: pl.DataFrame, machine: str) -> alt.LayerChart:
    """Points on a log scale around 1: right of the line, faster than the laptop."""
    from . import charts

    top = max(2.0, float(ratios["times"].max()), 1 / float(ratios["times"].min()))
    domain = [1 / top / 1.2, top * 1.2]
    base = alt.Chart(ratios, title=f"{machine} against the laptop: right of the line is faster").encode(
        y=alt.Y("label:N", sort=ratios["label"].to_list(), title=None, axis=alt.Axis(labelLimit=320)),
    )
    points = base.mark_point(filled=True, size=90).encode(
        x=alt.X("times:Q", scale=alt.Scale(type="log", domain=domain), title="times the laptop's speed (log scale)",
                axis=alt.Axis(labelExpr=charts.TICK_LABEL, values=_ticks(domain))),
        color=alt.condition("datum.faster", alt.value(charts.HIGHLIGHT), alt.value(charts.REFERENCE)),
        tooltip=[alt.Tooltip("label:N"), alt.Tooltip("times:Q", format=".3~g")],
    )  # fmt: skip
    rule = alt.Chart(pl.DataFrame({"one": [1.0]})).mark_rule(color="#333").encode(x="one:Q")
    return alt.layer(rule, points).properties(height=alt.Step(24))


def rows_for_page(frame: pl.DataFrame) -> pl.DataFrame:
    """The card as the book shows it: the number (a link to the section that measured
    it), each machine's value in its unit (or n/a), the laptop and the phone, and what
    was measured."""
    names = value_columns(frame)
    out = frame.select(
        pl.concat_str(
            pl.lit("["), pl.col("label"), pl.lit("]("), pl.col("section").str.replace("^chapters/", ""), pl.lit(")")
        ).alias("number"),  # fmt: skip
        *[
            pl.struct(pl.col(n).alias("v"), "unit")
            .map_elements(lambda r: display(r["v"], r["unit"]), return_dtype=pl.String)
            .alias(n)
            for n in ["laptop", "phone", *names][::-1]
        ][::-1],
        pl.col("note").alias("what was measured"),
    )
    return out.select("number", *names, "laptop", "phone", "what was measured")


def reasons_note(frame: pl.DataFrame) -> str:
    """The numbers that read n/a, each with its reason (empty when every one was measured)."""
    names = value_columns(frame)
    lines = [
        f"- {row['label']} ({n}): {row[f'{n} reason']}"
        for row in frame.iter_rows(named=True)
        for n in names
        if row[n] is None
    ]
    if not lines:
        return ""
    return (
        "::: {.callout-warning}\n## Not measured on this machine\n\n"
        + "\n".join(lines)
        + "\n\nThese numbers read n/a in the card, and the sentences built on them say so.\n:::\n"
    )


checked(globals())
