"""The memtables chapter's experiments.

* ``memtable_sweep``: the seed's sweep, capacity × O_DSYNC × flush mode (blocking with
  one buffer as the seed did; io_uring with two buffers; io_uring with more buffers, so
  that several flushes overlap), 16 KiB records fed by producer threads to one writer.
* ``memtable_variants``: pinned against unpinned writer, how many flushes may overlap,
  and what durability costs (O_DSYNC segments, a write-ahead log with group commit).
* ``memtable_vs_fio``: the physical limit, fio writing the same bytes with O_DIRECT in
  blocks of the flush size, alternating with ours.
* ``memtable_rollover``: what a new segment file costs: one run's bytes written into
  segments of several sizes (and one holding the whole run), with the files made ahead
  by a helper thread and made by the writer when it needs them.
* ``memtable_breakdown``: where the writer's time goes (hand-off, copy, index,
  acknowledgement, submitting, waiting for a free buffer...), how often the threads
  sleep and are switched out, from counters the writer keeps; runs with the counters'
  clocks on and off alternate, so their cost is measured too.
* ``memtable_crash``: writers killed with SIGKILL at random moments, then recovered:
  every acknowledged record must come back intact.
* ``memtable_powercut``: the states a power cut could leave (writes not yet durable
  dropped, kept or torn), built from a record of every write and sync, each recovered
  and checked the same way (``powercut.py``).

Every case is one call of the native ``memtable_benchmark`` (C++, GIL released) in a
fresh directory inside the scratch directory, removed afterwards.
"""

from __future__ import annotations

import os
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .. import _native, capabilities
from ..bench import Case, Outcome, Unsupported, latency_metrics, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from ..store import Writer
from .plan import Plan as MemtablePlan

#: The shape of what this subject stores; bump it when its cases, ids or metrics change
#: (older stored sets are then measured again instead of misread).
SCHEMA = 5

SWEEP = "sweep"
VARIANTS = "variants"
VS_FIO = "vs_fio"
BREAKDOWN = "breakdown"
ROLLOVER = "rollover"
CRASH = "crash"
POWERCUT = "powercut"

BLOCKING = "blocking"
DOUBLE = "uring_double"
DEEP = "uring_deep"
#: The sweep's flush modes, in the order the chapter shows them.
MODES = (BLOCKING, DOUBLE, DEEP)
#: Durability variants: nothing durable before a flush, and a log with group commit.
NO_LOG = "no_log"
LOG = "log"


# ---- cases -------------------------------------------------------------------------------


def pin_cpu() -> int:
    """The CPU a pinned writer runs on: the last one this process may use."""
    return max(os.sched_getaffinity(0))


def records_for(plan: MemtablePlan, capacity: int, total_bytes: int | None = None) -> int:
    """Records per case: about `total_bytes` (default the plan's), within the plan's
    flush counts, always whole buffers."""
    per_buffer = capacity // plan.record_size
    if per_buffer < 1:
        raise ValueError(f"capacity {capacity} is smaller than a record ({plan.record_size} bytes)")
    flushes = (total_bytes or plan.sweep_bytes) // capacity
    flushes = min(max(flushes, plan.min_flushes), plan.max_flushes)
    return flushes * per_buffer


def fio_records(plan: MemtablePlan, capacity: int) -> int:
    """Records per case of the fio cross-check: as the sweep, but at least
    `fio_min_flushes` flushes where that stays within `fio_max_bytes`, so that the
    first buffer's fill (which fio need not do) and fio's start (its runtime is counted
    in whole milliseconds) are small parts of the run."""
    n = records_for(plan, capacity)
    per_buffer = capacity // plan.record_size
    flushes = max(
        n // per_buffer, min(plan.fio_min_flushes, plan.fio_max_bytes // capacity), plan.fio_min_bytes // capacity
    )
    return flushes * per_buffer


def deep_buffers(plan: MemtablePlan, capacity: int) -> int:
    """Buffers of the deep io_uring case: at least the plan's count, more for small
    capacities (up to `deep_bytes` of buffers), fewer when memory would run out."""
    if capacity < plan.record_size:
        raise ValueError(f"capacity {capacity} is smaller than a record ({plan.record_size} bytes)")
    wanted = min(max(plan.deep_buffers, plan.deep_bytes // capacity), plan.max_deep_buffers)
    return max(2, min(wanted, plan.max_buffer_bytes // capacity))


def _case(
    *,
    group: str = "sweep",
    variant: str = "",
    capacity: int,
    dsync: bool,
    flush: str,
    buffers: int,
    pinned: bool = False,
    wal: bool = False,
    records: int,
    record_size: int,
) -> dict[str, Any]:
    mode = BLOCKING if flush == "blocking" else (DOUBLE if buffers == 2 else DEEP)
    return {
        "group": group,
        "variant": variant or mode,
        "mode": mode,
        "capacity": capacity,
        "dsync": dsync,
        "flush": flush,
        "buffers": buffers,
        "pinned": pinned,
        "wal": wal,
        "records": records,
        "record_size": record_size,
    }


def sweep_cases(profile: Profile) -> list[dict[str, Any]]:
    plan = profile.memtable
    cases = []
    for capacity in plan.capacities:
        n = records_for(plan, capacity)
        deep = deep_buffers(plan, capacity)
        modes = [("blocking", 1), ("io_uring", 2)] + ([("io_uring", deep)] if deep > 2 else [])
        for dsync in (False, True):
            for flush, buffers in modes:
                cases.append(
                    _case(
                        capacity=capacity,
                        dsync=dsync,
                        flush=flush,
                        buffers=buffers,
                        records=n,
                        record_size=plan.record_size,
                    )
                )
    return cases


def variant_cases(profile: Profile) -> list[dict[str, Any]]:
    plan = profile.memtable
    cap, size = plan.variant_capacity, plan.record_size
    n = records_for(plan, cap, plan.variant_bytes)
    pinning = (
        ("blocking_unpinned", "blocking", 1, False),
        ("blocking_pinned", "blocking", 1, True),
        ("uring_unpinned", "io_uring", 2, False),
        ("uring_pinned", "io_uring", 2, True),
    )
    cases = [
        _case(
            group="pinning",
            variant=variant,
            capacity=cap,
            dsync=False,
            flush=flush,
            buffers=buffers,
            pinned=pinned,
            records=n,
            record_size=size,
        )
        for variant, flush, buffers, pinned in pinning
    ]
    dcap = plan.depth_capacity
    dn = records_for(plan, dcap, plan.variant_bytes)
    cases += [
        _case(
            group="depth",
            variant="depth_1",
            capacity=dcap,
            dsync=True,
            flush="blocking",
            buffers=1,
            records=dn,
            record_size=size,
        )
    ]
    cases += [
        _case(
            group="depth",
            variant=f"depth_{b}",
            capacity=dcap,
            dsync=True,
            flush="io_uring",
            buffers=b,
            records=dn,
            record_size=size,
        )
        for b in plan.depth_buffers
    ]
    # double-buffered io_uring flushes; blocking ones where io_uring is unavailable
    flush, buffers = ("io_uring", 2) if capabilities.io_uring().supported else ("blocking", 1)
    for wal, dsync, variant in (
        (False, False, NO_LOG),
        (False, True, "dsync_segments"),
        (True, False, LOG),
        (True, True, "log_dsync"),
    ):
        cases.append(
            _case(
                group="durability",
                variant=variant,
                capacity=cap,
                dsync=dsync,
                flush=flush,
                buffers=buffers,
                wal=wal,
                records=n,
                record_size=size,
            )
        )
    return cases


def rollover_segments(plan: MemtablePlan) -> list[int]:
    """The rollover experiment's segment sizes, smallest first: the plan's below the run's
    bytes, and one holding the whole run (no rollover: the baseline)."""
    if plan.rollover_bytes < plan.rollover_capacity:
        raise ValueError(f"rollover_bytes {plan.rollover_bytes} is smaller than one flush ({plan.rollover_capacity})")
    return sorted({s for s in plan.rollover_segments if s < plan.rollover_bytes} | {plan.rollover_bytes})


def rollover_cases(profile: Profile) -> list[dict[str, Any]]:
    """One run's bytes into segment files of each size, with and without O_DSYNC, the
    files made ahead by the helper (``segments_ahead`` of the plan) and by the writer
    when it needs one (0: the rollover in its critical path)."""
    plan = profile.memtable
    cap = plan.rollover_capacity
    n = max(plan.rollover_bytes // cap, 1) * (cap // plan.record_size)
    if n == 0:
        raise ValueError(f"rollover_capacity {cap} is smaller than a record ({plan.record_size} bytes)")
    return [
        {
            **_case(
                group="rollover",
                variant=f"ahead_{ahead}",
                capacity=cap,
                dsync=dsync,
                flush="io_uring",
                buffers=plan.rollover_buffers,
                records=n,
                record_size=plan.record_size,
            ),
            "segment_bytes": segment,
            "segments_ahead": ahead,
        }
        for dsync in (False, True)
        for ahead in (0, plan.segments_ahead)
        for segment in rollover_segments(plan)
    ]


def breakdown_records(plan: MemtablePlan, capacity: int) -> int:
    """Records per breakdown case: about `breakdown_bytes`, at least `min_flushes` flushes."""
    per_buffer = capacity // plan.record_size
    if per_buffer < 1:
        raise ValueError(f"capacity {capacity} is smaller than a record ({plan.record_size} bytes)")
    return max(plan.breakdown_bytes // capacity, plan.min_flushes) * per_buffer


def breakdown_cases(profile: Profile) -> list[dict[str, Any]]:
    """The deep io_uring mode at the breakdown's capacities, with and without O_DSYNC,
    each with the counters' clocks on and off (to measure what they cost)."""
    plan = profile.memtable
    return [
        {
            **_case(
                group="breakdown",
                capacity=capacity,
                dsync=dsync,
                flush="io_uring",
                buffers=deep_buffers(plan, capacity),
                records=breakdown_records(plan, capacity),
                record_size=plan.record_size,
            ),
            "counters": counters,
        }
        for capacity in plan.breakdown_capacities
        for dsync in (False, True)
        for counters in (True, False)
    ]


# ---- measuring ---------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _direct_io(directory: str) -> capabilities.Capability:
    return capabilities.direct_io(directory)


def check_capabilities(case: Case, directory: Path) -> None:
    """Unsupported(reason) when the machine lacks what the case needs."""
    cap = _direct_io(str(directory))
    if not cap.supported:
        raise Unsupported(f"O_DIRECT: {cap.reason}")
    if case["capacity"] % cap.detail:
        raise Unsupported(f"capacity {case['capacity']} is not a multiple of the O_DIRECT alignment {cap.detail}")
    if case["flush"] == "io_uring":
        ring = capabilities.io_uring()
        if not ring.supported:
            raise Unsupported(f"io_uring: {ring.reason}")
    if case["pinned"] and len(os.sched_getaffinity(0)) < 2:
        raise Unsupported("pinning needs at least two CPUs (the producers run beside the writer)")


def _fresh_dir(scratch: Scratch, stem: str) -> Path:
    path = scratch.file(stem).with_suffix("")
    path.mkdir()
    return path


def _remove_dir(scratch: Scratch, path: Path) -> None:
    if scratch.path not in path.parents:
        raise ValueError(f"{path} is not inside the scratch directory {scratch.path}")
    shutil.rmtree(path, ignore_errors=True)


def benchmark(case: Case, directory: Path, plan: MemtablePlan) -> dict[str, Any]:
    """One run of the native benchmark for a case (with the writer's clocked counters
    when the case has ``counters`` true)."""
    return _native.memtable_benchmark(
        str(directory),
        case["capacity"],
        case["records"],
        record_size=case["record_size"],
        dsync=case["dsync"],
        flush=case["flush"],
        buffers=case["buffers"],
        wal=case["wal"],
        pin_cpu=pin_cpu() if case["pinned"] else -1,
        producers=plan.producers,
        queue_depth=plan.queue_depth,
        segment_bytes=case.get("segment_bytes", plan.segment_bytes),
        segments_ahead=case.get("segments_ahead", plan.segments_ahead),
        counters=bool(case.get("counters", False)),
    )


def _subsample(values: np.ndarray, limit: int) -> np.ndarray:
    step = max(1, -(-values.size // limit))
    return values[::step]


def outcome_of(r: dict[str, Any], max_samples: int) -> Outcome:
    """`max_samples` per-record latencies are kept (evenly spaced), none when 0."""
    # Records/s, ns per record, flushes and flushes/s, MB/s, per-record latency
    # percentiles (µs) and the flush latency, as the seed reported them and more.
    elapsed = r["elapsed_ns"]
    seconds = elapsed / 1e9
    lat = r["latency_ns"]
    metrics = latency_metrics(lat, elapsed, per="record")  # p50 ... max (µs), records_per_s
    metrics["ns_per_op"] = (elapsed / r["records"], "ns")
    metrics["flushes"] = (float(r["flushes"]), "flushes")
    metrics["flushes_per_s"] = (r["flushes"] / seconds, "flushes/s")
    metrics["mb_per_s"] = (r["segment_bytes"] / seconds / 1e6, "MB/s")
    metrics["bytes_written"] = (float(r["bytes_written"]), "bytes")
    metrics["flush_p50"] = (float(np.percentile(r["flush_ns"], 50)) / 1e3, "us")
    metrics["flush_p99"] = (float(np.percentile(r["flush_ns"], 99)) / 1e3, "us")
    metrics["stall_share"] = (r["stall_ns"] / elapsed, "fraction")
    # before its first write the memtable must fill a buffer; fio has nothing to fill
    metrics["first_fill_ms"] = (r["first_fill_ns"] / 1e6, "ms")
    metrics["first_fill_share"] = (r["first_fill_ns"] / elapsed, "fraction")
    if r["wal_syncs"]:
        metrics["wal_syncs_per_s"] = (r["wal_syncs"] / seconds, "syncs/s")
        metrics["records_per_sync"] = (r["records"] / r["wal_syncs"], "records")
    return Outcome(metrics, samples=_subsample(lat, max_samples) if max_samples else None)


def _benchmark_in(scratch: Scratch, case: Case, plan: MemtablePlan) -> dict[str, Any]:
    """One run of a case in a fresh directory of the scratch, removed afterwards."""
    check_capabilities(case, scratch.path)
    directory = _fresh_dir(scratch, "memtable")
    try:
        return benchmark(case, directory, plan)
    finally:
        _remove_dir(scratch, directory)


def measurer(plan: MemtablePlan, *, samples: bool = True):
    """Runs one case; keeps up to the plan's count of per-record latencies if `samples`."""

    def measure(case: Case, scratch: Scratch) -> Outcome:
        return outcome_of(_benchmark_in(scratch, case, plan), plan.max_samples if samples else 0)

    return measure


#: The writer's time, part by part (``counters`` of the native benchmark, clocked per
#: batch of records and per flush): the counter, and the metric it is stored as.
WRITER_TIME = (
    ("idle_ns", "t_idle"),  # waiting for records: the queue was empty
    ("handoff_ns", "t_handoff"),  # taking the records waiting in the queue
    ("copy_ns", "t_copy"),  # framing records into the buffer: header, checksum mix, copy
    ("index_ns", "t_index"),
    ("ack_ns", "t_ack"),
    ("log_ns", "t_log"),
    ("seal_ns", "t_seal"),  # preparing a flush: padding, its segment, a segment header
    ("submit_ns", "t_submit"),  # handing flushes to the kernel (io_uring_enter)
    ("buffer_wait_ns", "t_buffer_wait"),  # waiting for a flush to complete and free a buffer
    ("reap_ns", "t_reap"),  # handling completions between batches
    ("drain_ns", "t_drain"),  # at the end: the last buffer, waiting for every flush
)


def breakdown_outcome(r: dict[str, Any], counters: bool) -> Outcome:
    """Throughput, and from the writer's counters: counts per flush (always), and with
    `counters` the writer's time per record, part by part (``t_*``, ns per record; what
    the parts leave of the elapsed time is ``t_other``)."""
    c = r["counters"]
    elapsed, n = r["elapsed_ns"], r["records"]
    flushes = max(c["flushes"], 1)
    m: dict[str, tuple[float, str]] = {
        "records_per_s": (n / elapsed * 1e9, "records/s"),
        "mb_per_s": (r["segment_bytes"] / elapsed * 1e3, "MB/s"),
        "ns_per_op": (elapsed / n, "ns"),
        "records_per_flush": (n / flushes, "records"),
        "records_per_batch": (c["batch_records"] / max(c["batches"], 1), "records"),
        "flushes_per_submit": (c["flushes"] / max(c["submits"], 1), "flushes"),
        "mean_depth": (c["depth_sum"] / flushes, "flushes"),
        "completion_waits_per_flush": (c["completion_waits"] / flushes, "waits"),
        "writer_waits_per_flush": (c["writer_waits"] / flushes, "waits"),
        "producer_waits_per_flush": (c["producer_waits"] / flushes, "waits"),
        "writer_voluntary_per_flush": (c["writer_voluntary_switches"] / flushes, "switches"),
        "writer_involuntary_per_flush": (c["writer_involuntary_switches"] / flushes, "switches"),
        "producer_voluntary_per_flush": (c["producer_voluntary_switches"] / flushes, "switches"),
        "producer_involuntary_per_flush": (c["producer_involuntary_switches"] / flushes, "switches"),
        "writer_cpu_share": (c["writer_cpu_ns"] / elapsed, "fraction"),
        "producer_cpu_share": (c["producer_cpu_ns"] / elapsed, "fraction"),
    }
    if counters:
        parts = {metric: c[key] / n for key, metric in WRITER_TIME}
        m |= {metric: (v, "ns/record") for metric, v in parts.items()}
        m["t_other"] = (elapsed / n - sum(parts.values()), "ns/record")
        m["hash_ns_per_record"] = (c["producer_hash_ns"] / n, "ns/record")
    return Outcome(m)


def breakdown_measurer(plan: MemtablePlan):
    """Runs one breakdown case."""

    def measure(case: Case, scratch: Scratch) -> Outcome:
        return breakdown_outcome(_benchmark_in(scratch, case, plan), bool(case["counters"]))

    return measure


def rollover_outcome(r: dict[str, Any]) -> Outcome:
    """Throughput, the segment files taken (``segments``; a rollover is every one after the
    first), the writer's wait per rollover (µs; 0 without one) and the time making one
    file took (ms, whoever made it)."""
    elapsed, rollovers = r["elapsed_ns"], max(r["segments"] - 1, 0)
    return Outcome(
        {
            "records_per_s": (r["records"] / elapsed * 1e9, "records/s"),
            "mb_per_s": (r["segment_bytes"] / elapsed * 1e3, "MB/s"),
            "elapsed_ms": (elapsed / 1e6, "ms"),
            "segments": (float(r["segments"]), "files"),
            "rollovers": (float(rollovers), "rollovers"),
            "wait_us": (r["rollover_wait_ns"] / rollovers / 1e3 if rollovers else 0.0, "us"),
            "make_ms": (r["segment_prepare_ns"] / max(r["segments_prepared"], 1) / 1e6, "ms"),
        }
    )


def rollover_measurer(plan: MemtablePlan):
    """Runs one rollover case."""

    def measure(case: Case, scratch: Scratch) -> Outcome:
        return rollover_outcome(_benchmark_in(scratch, case, plan))

    return measure


# ---- the chapter ---------------------------------------------------------------------------------


def _bytes_needed(cases: list[dict[str, Any]], segment_bytes: int, ahead: int = 2) -> int:
    """The largest single case: its data and log, plus `ahead` + 1 segment files' worth
    (the last one is preallocated whole, and `ahead` more are made ahead of need)."""
    need = 0
    for c in cases:
        data = c["records"] * c["record_size"]
        segment = max(c.get("segment_bytes", segment_bytes), c["buffers"] * c["capacity"], c["capacity"])
        need = max(need, data * (2 if c["wal"] else 1) + (ahead + 1) * segment)
    return need


def measure(profile: Profile, out: Writer) -> None:
    """The subject's experiments in one scratch dir, each handed to `out`."""
    from . import crash as crash_test
    from . import crosscheck, powercut

    plan = profile.memtable
    reps = profile.repetitions
    sweep, variants, fio = sweep_cases(profile), variant_cases(profile), crosscheck.fio_cases(profile)
    breakdown, rollover = breakdown_cases(profile), rollover_cases(profile)
    crash = [{"mode": m.name} for m in crash_test.crash_modes()]
    need = _bytes_needed(sweep + variants + fio + breakdown + rollover, plan.segment_bytes, plan.segments_ahead)
    with Scratch(need_bytes=need) as scratch:
        out.record_facts(scratch.path)
        # the sweep keeps latency percentiles only; the variants keep samples for the chart
        out.add(run(SWEEP, sweep, measurer(plan, samples=False), repetitions=reps, scratch=scratch))
        out.add(run(VARIANTS, variants, measurer(plan), repetitions=reps, scratch=scratch))
        fio_reps = plan.fio_rounds or reps
        out.add(run(VS_FIO, fio, crosscheck.fio_measurer(plan), repetitions=fio_reps, scratch=scratch, alternate=True))
        out.add(
            run(
                ROLLOVER,
                rollover,
                rollover_measurer(plan),
                repetitions=plan.rollover_rounds,
                scratch=scratch,
                alternate=True,
            )
        )
        out.add(
            run(
                BREAKDOWN,
                breakdown,
                breakdown_measurer(plan),
                repetitions=plan.breakdown_rounds,
                scratch=scratch,
                alternate=True,
            )
        )
        points = max(1, -(-plan.crash_points // len(crash)))
        out.add(run(CRASH, crash, crash_test.crash_measurer(), repetitions=points, scratch=scratch, target=None))
        cut = [
            {"mode": m.name} for m in powercut.POWERCUT_MODES
        ]  # io_uring ones: unsupported rows, with why, where it is missing
        states = powercut.powercut_measurer(plan.powercut_states, plan.powercut_states_per_run, plan.powercut_records)
        out.add(run(POWERCUT, cut, states, repetitions=1, scratch=scratch))


# every public function above refuses bad arguments with a clear exception
checked(globals())
