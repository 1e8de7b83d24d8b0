"""This machine's numbers for the estimates: the registry's headline quantities
(``howfast.headlines``, the same rows the numbers card shows), converted to bytes (or
operations) per second, plus the hello-world rate at a bounded p99 (the open loop's knee,
as the networks chapter finds it)."""

from __future__ import annotations

import dataclasses

import polars as pl

from .. import headlines, stats, store
from ..checks import checked
from .estimates import MIB, Inputs

#: unit -> factor to bytes per second
_TO_BYTES = {"MB/s": 1e6, "GB/s": 1e9, "MiB/s": float(MIB), "Gbit/s": 1e9 / 8}

#: The registry's quantities the estimates read, by the field of ``Inputs`` they fill.
QUANTITIES = {
    "seq_read": "seq_read",
    "seq_write": "seq_write",
    "read_iops": "random_read_qd32",
    "write_iops": "random_write_qd32",
    "network": "tcp",
    "http_best": "http",
    "redis": "redis",
    "hashing": "hashing",
    "memory": "memory_bandwidth",
    "compression": "compression",
    "decompression": "decompression",
}


def _value(rows: pl.DataFrame, id_: str) -> float | None:
    row = rows.filter(pl.col("id") == id_)
    if row.height != 1:
        raise KeyError(f"the headline rows have no row {id_!r}")
    value, unit = row["value"][0], row["unit"][0]
    return None if value is None else float(value) * _TO_BYTES.get(unit, 1.0)


def inputs(rows: pl.DataFrame, storage: store.ResultSet, network: store.ResultSet) -> Inputs:
    """The estimates' inputs from one machine's registry rows (``headlines.table``) and its
    network set (for the open loop's knee). `storage` is the set the disk rows came from."""
    from ..network import report as net

    point = net.knee(network.table("http_open"))
    values = {field: _value(rows, id_) for field, id_ in QUANTITIES.items()}
    return Inputs(
        **values,
        http=None if point is None else point["rate"],
        http_p99_us=None if point is None else point["p99"],
    )


def _row(rows: pl.DataFrame, field: str) -> dict:
    """The headline row of the input `field` (ValueError for a field ``Inputs`` lacks,
    KeyError where the rows hold no such quantity)."""
    if field not in QUANTITIES:
        raise ValueError(f"field must be one of {sorted(QUANTITIES)}, got {field!r}")
    row = rows.filter(pl.col("id") == QUANTITIES[field])
    if row.height != 1:
        raise KeyError(f"the headline rows have no row {QUANTITIES[field]!r}")
    return row.row(0, named=True)


def estimate(rows: pl.DataFrame, field: str) -> stats.Estimate | None:
    """The input `field` of ``Inputs`` as a median with its interval and runs, in bytes (or
    operations) per second; None when not measured."""
    r = _row(rows, field)
    if r["value"] is None:
        return None
    return stats.Estimate.from_row(
        {"median": r["value"], "lo": r["lo"], "hi": r["hi"], "repetitions": r["runs"], "confidence": r["confidence"]}
    ).scaled(_TO_BYTES.get(r["unit"], 1.0))


def figure(rows: pl.DataFrame, field: str) -> str:
    """The input `field` as the numbers card writes it (``card.figure_words``): the median in
    the card's unit with its interval, run count and mark ('1,290 MB/s (1,010–1,570 MB/s, 3
    runs)', 'within ±0.5 %' where the ends show alike); n/a when not measured."""
    from .. import card

    r = _row(rows, field)
    if r["value"] is None:
        return card.figure_words(None, r["unit"])
    lo = r["value"] if r["lo"] is None else r["lo"]
    hi = r["value"] if r["hi"] is None else r["hi"]
    e = stats.Estimate(r["value"], lo, hi, int(r["runs"] or 1))
    return card.figure_words(e, r["unit"], r.get("target"))


def memory_threads(cpu: store.ResultSet) -> int | None:
    """The thread count of the memory rate the estimates use (``cpu.report.read_bandwidth``:
    the fewest threads that more threads did not clearly beat); None when no read ran."""
    from ..cpu import report as cpu_report

    try:
        bandwidth = cpu.table("bandwidth")
    except (KeyError, FileNotFoundError, store.MissingResults):
        return None
    got = cpu_report.read_bandwidth(bandwidth)
    return None if got is None else got[0]


def threads_words(threads: int | None) -> str:
    """A thread count as a label writes it: 'one thread', '2 threads'; '' when not known."""
    from .. import fmt

    if threads is None:
        return ""
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    return "one thread" if threads == 1 else fmt.count(threads, "thread")


def at_end(inputs: Inputs, rows: pl.DataFrame, end: str) -> Inputs:
    """`inputs` with every measured rate at the `end` ('lo' or 'hi') of its median's
    interval: the slowest (or fastest) machine the intervals allow, for a count's range.
    The hello-world rate at a bounded p99 is an offered rate and stays as it is."""
    if end not in ("lo", "hi"):
        raise ValueError(f"end must be 'lo' or 'hi', got {end!r}")
    moved = {}
    for field in QUANTITIES:
        e = estimate(rows, field)
        moved[field] = None if e is None else getattr(e, end)
    return dataclasses.replace(inputs, **moved)


def hash_rerun(hashing: store.ResultSet) -> tuple[int, object] | None:
    """The hashing chapter's second run of the XXH64 loop (our half of its xxhsum
    cross-check, made later, alternating with xxhsum) against the size sweep's runs at the
    same block: (block size, ``claims.compare(rerun, sweep)``); None when it did not run."""
    from .. import claims
    from ..hashing import experiments as hashing_experiments

    try:
        vs = hashing.table(hashing_experiments.VS_XXHSUM)
        native = hashing.table(hashing_experiments.NATIVE)
    except (KeyError, FileNotFoundError, store.MissingResults):
        return None
    if not {"algorithm", "size", "tool", "metric", "value"} <= set(vs.columns) or vs.height == 0:
        return None
    ours = vs.filter(
        (pl.col("tool") == "howfast") & (pl.col("metric") == "mib_per_s") & (pl.col("algorithm") == "xxh64")
    )
    values = ours["value"].drop_nulls().to_list()
    if not values:
        return None
    size = int(ours["size"][0])
    try:
        sweep = stats.estimate(
            stats.summarize(native, ["algorithm", "size"]), "mib_per_s", algorithm="xxh64", size=size
        )
    except KeyError:  # the sweep has no such size (a profile whose sizes skip the cross-check's)
        return None
    if sweep is None:
        return None
    lo, hi, level = stats.median_interval(values)
    again = stats.Estimate(float(pl.Series(values).median()), lo, hi, len(values), level)
    return size, claims.compare(again, sweep)


#: The network set's experiments this chapter's inputs come from: the TCP stream, the
#: closed loop's best rate and the open loop's knee.
NETWORK_EXPERIMENTS = ("tcp_bulk", "http_closed", "http_open")


def network_noise_words(network: store.ResultSet) -> str:
    """What the network set's noise evidence says of the runs this chapter uses
    (``NETWORK_EXPERIMENTS``), tested against ``book.WAITED``, ``STEAL`` and ``OTHERS`` on
    the medians of each experiment's runs (``book.noise_summary``): which of them ran on a
    busy machine and how; or, when only other runs of the set did, that these did not and
    what they show; '' when the set was quiet or kept no evidence."""
    from .. import book, fmt

    summary = book.noise_summary(network)
    if summary.height == 0 or not book.busy(network):
        return ""
    titles = [book.experiment_title(network.subject, name) for name in NETWORK_EXPERIMENTS]
    used = summary.filter(pl.col("experiment").is_in(titles))
    if used.height == 0:
        return (
            "The network set's evidence of a busy machine comes from its other runs; the TCP and HTTP runs this page "
            "uses kept no evidence of their own."
        )

    def share(row: dict, column: str) -> float | None:
        value = row.get(column)
        return None if value is None else float(value)

    busy, quiet = [], []
    limits = (("waited", book.WAITED), ("steal", book.STEAL), ("others", book.OTHERS))
    for row in used.iter_rows(named=True):
        said = []
        for column, limit in limits:
            value = share(row, column)
            if value is not None and value >= limit:
                said.append(
                    {"waited": f"the measuring thread waited for a CPU {fmt.share(value, 2)} of the time",
                     "steal": f"the hypervisor stole {fmt.share(value, 2)} of the CPU time",
                     "others": f"other processes used {fmt.share(value, 2)} of the CPUs"}[column]
                )  # fmt: skip
        (busy if said else quiet).append((row["experiment"], said))
    if busy:
        parts = [f"during the {name} runs {fmt.listed(said)}" for name, said in busy]
        return (
            "The machine was busy during runs this page uses: " + "; ".join(parts) + " (medians of their runs), so "
            "the rates built on them may read low."
        )
    worst = {column: used[column].drop_nulls().max() for column, _ in limits if column in used.columns}
    most = [
        f"the measuring thread waited for a CPU at most {fmt.share(float(worst['waited']), 2)} of the time"
        if worst.get("waited") is not None
        else "",
        f"other processes used at most {fmt.share(float(worst['others']), 2)} of the CPUs"
        if worst.get("others") is not None
        else "",
    ]
    most = [m for m in most if m]
    return (
        f"The network set's evidence of a busy machine comes from its other runs: during the "
        f"{fmt.listed([name for name, _ in quiet])} runs this page uses, none of its thresholds was reached"
        + (f" ({fmt.listed(most)}, medians of their runs)" if most else "")
        + "."
    )


def rows(*, measure: bool = False) -> pl.DataFrame:
    """This machine's rows of the registry's quantities the estimates read."""
    wanted = [headlines.get(id_) for id_ in QUANTITIES.values()]
    return headlines.table(measure=measure, quantities=wanted)


def floor_words(point: dict | None) -> str:
    """What the open loop's knee (``network.report.knee``) makes of the hello-world rate the
    estimates use: a floor where only the lightest load is known to be within bounds, or
    where the loop offered no higher rate (every rate it offered passed); a rate with a
    higher one past it otherwise; n/a without a knee."""
    if point is None:
        return "The open loop found no rate with its tail in check, so the estimates that need it read n/a."
    if point.get("next_rate") is None:
        return (
            "The open loop offered no higher rate, so this rate is a floor: the machine may keep its tail in check "
            "at a higher rate, and the machine counts built on it are the most that could be needed."
        )
    if point.get("lightest"):
        return (
            "Only the lightest load is known to be within bounds, so this rate is a floor: the machine counts "
            "built on it are the most that could be needed."
        )
    return "Above this rate the p99 was no longer known to stay near the lightest load's."


def disk_words(facts: dict) -> str:
    """What the storage set's facts say of where its durable writes end: the disk as the
    kernel reported it (``machine.disk_words``) with its write-cache mode, then a drive of
    its own only for an NVMe or SCSI/SATA disk on a machine the set recorded as not
    virtual; the hypervisor for a virtual disk; otherwise that this run cannot say."""
    from .. import machine

    if not isinstance(facts, dict):
        raise TypeError(f"facts must be a set's machine facts (a dict), got {type(facts).__name__}")
    unknown = "so this run cannot say where its durable writes end."
    name, driver = str(facts.get("block_device") or ""), str(facts.get("device_driver") or "")
    if not facts.get("device_kind") and not name:
        return f"The storage set recorded no disk, {unknown}"
    kind = facts.get("device_kind") or machine.device_kind(name, driver)
    if kind == machine.device_kind("none (not a block device)", ""):
        where = f" ({facts['filesystem']})" if facts.get("filesystem") else ""
        return f"The storage runs wrote to a filesystem{where} with no block device under it, {unknown}"
    said = (
        f"The kernel reported the storage runs' disk (write cache: {facts.get('write_cache') or 'not reported'}) "
        f"as {machine.disk_words(facts)}."
    )
    drive = kind in (machine.device_kind("nvme0n1", "nvme"), machine.device_kind("sda", "sd"))
    if headlines.virtual_disk(facts):
        return (
            f"{said} So the backup times below are what this virtual machine sees, not what a drive of its own "
            "would do."
        )
    if drive and machine.virtual(facts):
        return (
            f"{said} Inside a virtual machine such a drive may be the host's or a volume reached over a network "
            f"(as cloud block storage is), {unknown}"
        )
    if drive and facts.get("hypervisor"):
        return f"{said} On a machine with no hypervisor detected, its durable writes end at that drive."
    if drive:
        return f"{said} The set did not record whether it ran in a virtual machine, {unknown}"
    return f"{said} What lies beneath it is not visible here, {unknown}"


checked(globals())
