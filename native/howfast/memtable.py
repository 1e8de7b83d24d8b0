"""The memtables chapter's experiments.

* ``memtable_sweep``: the seed's sweep, capacity × O_DSYNC × flush mode (blocking with
  one buffer as the seed did; io_uring with two buffers; io_uring with more buffers, so
  that several flushes overlap), 16 KiB records fed by producer threads to one writer.
* ``memtable_variants``: pinned against unpinned writer, how many flushes may overlap,
  and what durability costs (O_DSYNC segments, a write-ahead log with group commit).
* ``memtable_vs_fio``: the physical limit, fio writing the same bytes with O_DIRECT in
  blocks of the flush size, alternating with ours.
* ``memtable_crash``: writers killed with SIGKILL at random moments, then recovered:
  every acknowledged record must come back intact.

Every case is one call of the native ``memtable_benchmark`` (C++, GIL released) in a
fresh directory inside the scratch directory, removed afterwards.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from . import _native, capabilities, machine, results
from .bench import Case, Outcome, Run, Unsupported, latency_metrics, run
from .crosscheck import run_fio
from .profiles import MemtablePlan, Profile, current_profile
from .scratch import Scratch

SWEEP = "memtable_sweep"
VARIANTS = "memtable_variants"
VS_FIO = "memtable_vs_fio"
CRASH = "memtable_crash"

BLOCKING = "blocking"
DOUBLE = "io_uring ×2"
DEEP = "io_uring, deep"
#: The sweep's flush modes, in the order the chapter shows them.
MODES = (BLOCKING, DOUBLE, DEEP)
#: Durability variants: nothing durable before a flush, and a log with group commit.
NO_LOG = "no log"
LOG = "log (group commit)"


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
    flushes = max(n // per_buffer, min(plan.fio_min_flushes, plan.fio_max_bytes // capacity))
    return flushes * per_buffer


def deep_buffers(plan: MemtablePlan, capacity: int) -> int:
    """Buffers of the deep io_uring case: at least the plan's count, more for small
    capacities (up to `deep_bytes` of buffers), fewer when memory would run out."""
    wanted = min(max(plan.deep_buffers, plan.deep_bytes // capacity), plan.max_deep_buffers)
    return max(2, min(wanted, plan.max_buffer_bytes // capacity))


def _case(*, group: str = "sweep", label: str = "", capacity: int, dsync: bool, flush: str, buffers: int,
          pinned: bool = False, wal: bool = False, records: int, record_size: int) -> dict[str, Any]:
    mode = BLOCKING if flush == "blocking" else (DOUBLE if buffers == 2 else DEEP)
    return {"group": group, "label": label or mode, "mode": mode, "capacity": capacity, "dsync": dsync,
            "flush": flush, "buffers": buffers, "pinned": pinned, "wal": wal, "records": records,
            "record_size": record_size}


def sweep_cases(profile: Profile) -> list[dict[str, Any]]:
    plan = profile.memtable
    cases = []
    for capacity in plan.capacities:
        n = records_for(plan, capacity)
        deep = deep_buffers(plan, capacity)
        modes = [("blocking", 1), ("io_uring", 2)] + ([("io_uring", deep)] if deep > 2 else [])
        for dsync in (False, True):
            for flush, buffers in modes:
                cases.append(_case(capacity=capacity, dsync=dsync, flush=flush, buffers=buffers, records=n,
                                   record_size=plan.record_size))
    return cases


def variant_cases(profile: Profile) -> list[dict[str, Any]]:
    plan = profile.memtable
    cap, size = plan.variant_capacity, plan.record_size
    n = records_for(plan, cap, plan.variant_bytes)
    cases = [
        _case(group="pinning", label="blocking, unpinned", capacity=cap, dsync=False, flush="blocking", buffers=1,
              records=n, record_size=size),
        _case(group="pinning", label="blocking, pinned", capacity=cap, dsync=False, flush="blocking", buffers=1,
              pinned=True, records=n, record_size=size),
        _case(group="pinning", label="io_uring ×2, unpinned", capacity=cap, dsync=False, flush="io_uring", buffers=2,
              records=n, record_size=size),
        _case(group="pinning", label="io_uring ×2, pinned", capacity=cap, dsync=False, flush="io_uring", buffers=2,
              pinned=True, records=n, record_size=size),
    ]
    dcap = plan.depth_capacity
    dn = records_for(plan, dcap, plan.variant_bytes)
    cases += [_case(group="depth", label="blocking (1 buffer)", capacity=dcap, dsync=True, flush="blocking",
                    buffers=1, records=dn, record_size=size)]
    cases += [_case(group="depth", label=f"io_uring, {b} buffers", capacity=dcap, dsync=True, flush="io_uring",
                    buffers=b, records=dn, record_size=size) for b in plan.depth_buffers]
    # double-buffered io_uring flushes; blocking ones where io_uring is unavailable
    flush, buffers = ("io_uring", 2) if capabilities.io_uring().supported else ("blocking", 1)
    for wal, dsync, label in ((False, False, NO_LOG), (False, True, "O_DSYNC segments"),
                              (True, False, LOG), (True, True, "log + O_DSYNC segments")):
        cases.append(_case(group="durability", label=label, capacity=cap, dsync=dsync, flush=flush, buffers=buffers,
                           wal=wal, records=n, record_size=size))
    return cases


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
    """One run of the native benchmark for a case."""
    return _native.memtable_benchmark(
        str(directory), case["capacity"], case["records"], record_size=case["record_size"], dsync=case["dsync"],
        flush=case["flush"], buffers=case["buffers"], wal=case["wal"], pin_cpu=pin_cpu() if case["pinned"] else -1,
        producers=plan.producers, queue_depth=plan.queue_depth, segment_bytes=plan.segment_bytes)


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


def measurer(plan: MemtablePlan, *, samples: bool = True):
    """Runs one case; keeps up to the plan's count of per-record latencies if `samples`."""

    def measure(case: Case, scratch: Scratch) -> Outcome:
        check_capabilities(case, scratch.path)
        directory = _fresh_dir(scratch, "memtable")
        try:
            r = benchmark(case, directory, plan)
        finally:
            _remove_dir(scratch, directory)
        return outcome_of(r, plan.max_samples if samples else 0)

    return measure


# ---- fio: the physical limit ---------------------------------------------------------------------


def fio_cases(profile: Profile) -> list[dict[str, Any]]:
    """Ours (blocking, deep io_uring) beside fio at the same block size and depth."""
    plan = profile.memtable
    cases = []
    for capacity in plan.fio_capacities:
        n = fio_records(plan, capacity)
        for dsync in (False, True):
            for flush, buffers in (("blocking", 1), ("io_uring", deep_buffers(plan, capacity))):
                for tool in ("howfast", "fio"):
                    cases.append({**_case(capacity=capacity, dsync=dsync, flush=flush, buffers=buffers, records=n,
                                          record_size=plan.record_size), "tool": tool})
    return cases


def fio_write(scratch: Scratch, block_size: int, total: int, *, dsync: bool, depth: int) -> dict[str, float]:
    """fio writing `total` bytes sequentially with O_DIRECT in blocks of `block_size`
    (psync for depth 1, io_uring with `depth` writes in flight otherwise), into a new
    file laid out like our segments: growing with one write in flight (the blocking
    flush), preallocated with more."""
    if total % block_size:
        raise ValueError(f"total {total} is not a multiple of the block size {block_size}")
    engine = ["--ioengine=psync"] if depth == 1 else ["--ioengine=io_uring", f"--iodepth={depth}"]
    options = ["--name=memtable", "--rw=write", f"--bs={block_size}", f"--size={total}", "--direct=1",
               f"--fallocate={'none' if depth == 1 else 'native'}", f"--sync={'dsync' if dsync else 'none'}",
               *engine]
    job = run_fio(scratch, scratch.file("fio-memtable"), options)["write"]
    if job["io_bytes"] != total:
        raise RuntimeError(f"fio wrote {job['io_bytes']} bytes, expected {total}")
    return {"mb_per_s": float(job["bw_bytes"]) / 1e6, "writes_per_s": float(job["iops"])}


def fio_measurer(plan: MemtablePlan):
    ours = measurer(plan, samples=False)

    def measure(case: Case, scratch: Scratch) -> Outcome:
        if case["tool"] == "howfast":
            got = ours(case, scratch)
            return Outcome({k: got.metrics[k] for k in ("mb_per_s", "records_per_s", "flushes_per_s",
                                                         "first_fill_ms", "first_fill_share")})
        check_capabilities(case, scratch.path)
        total = case["records"] * case["record_size"]
        got = fio_write(scratch, case["capacity"], total, dsync=case["dsync"], depth=case["buffers"])
        return Outcome({"mb_per_s": (got["mb_per_s"], "MB/s"),
                        "records_per_s": (got["mb_per_s"] * 1e6 / case["record_size"], "records/s"),
                        "flushes_per_s": (got["writes_per_s"], "flushes/s")})

    return measure


# ---- crash safety ------------------------------------------------------------------------------

#: The writer run in a child process: it prints "ready", then after every batch that
#: came back acknowledged as durable, one line naming each record as key:version.
CHILD = r"""
import json, os, random, struct, sys
from howfast import _native
directory, options = sys.argv[1], json.loads(sys.argv[2])
sync_each = options.pop("sync_each")
rng = random.Random(options.pop("seed"))
m = _native.Memtable(directory, **options)
os.write(1, b"ready\n")
version = 0
while True:
    batch, names = [], []
    for _ in range(rng.randint(1, 8)):
        key = rng.randrange(200)
        length = version * 7919 % 6000
        value = struct.pack("<QQ", key, version) + random.Random(version).randbytes(length)
        batch.append((b"key-%d" % key, value))
        names.append("%d:%d" % (key, version))
        version += 1
    m.put_many(batch)
    if sync_each:
        m.flush()
    os.write(1, ("a " + " ".join(names) + "\n").encode())
"""

CRASH_CAPACITY = 64 * 1024
CRASH_RECORD = 16 * 1024


@dataclass(frozen=True)
class CrashMode:
    name: str
    wal: bool
    flush: str
    buffers: int
    dsync: bool
    sync_each: bool  # no log: durable only once flush() returned

    def options(self, seed: int, direct: bool) -> dict[str, Any]:
        return {"capacity": CRASH_CAPACITY, "record_size": CRASH_RECORD, "wal": self.wal, "flush": self.flush,
                "buffers": self.buffers, "dsync": self.dsync, "direct": direct, "segment_bytes": 1 << 20,
                "sync_each": self.sync_each, "seed": seed}


CRASH_MODES = (
    CrashMode("log, io_uring ×2, O_DSYNC", wal=True, flush="io_uring", buffers=2, dsync=True, sync_each=False),
    CrashMode("log, blocking", wal=True, flush="blocking", buffers=1, dsync=False, sync_each=False),
    CrashMode("log, io_uring ×4", wal=True, flush="io_uring", buffers=4, dsync=False, sync_each=False),
    CrashMode("no log, flush() per batch, io_uring", wal=False, flush="io_uring", buffers=2, dsync=True,
              sync_each=True),
    CrashMode("no log, flush() per batch, blocking", wal=False, flush="blocking", buffers=1, dsync=False,
              sync_each=True),
)


def expected_value(key: int, version: int) -> bytes:
    """The value the crash child writes for this key and version."""
    return struct.pack("<QQ", key, version) + random.Random(version).randbytes(version * 7919 % 6000)


@dataclass
class CrashOutcome:
    mode: str
    delay_s: float
    acknowledged: int  # records the child reported durable before it died
    acknowledged_keys: int
    recovered_keys: int
    newer: int  # keys recovered at a version written after the last acknowledged one
    torn: int  # partial records recovery found and skipped
    problems: list[str] = field(default_factory=list)


def _wait_ready(out: Path, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if out.exists() and out.read_bytes().startswith(b"ready\n"):
            return
        if proc.poll() is not None:
            raise RuntimeError(f"the crash child exited early ({proc.returncode}): {proc.stderr.read().decode()}")
        time.sleep(0.005)
    proc.kill()
    raise RuntimeError("the crash child did not start within 30 s")


def crash_once(directory: Path, mode: CrashMode, *, seed: int, delay_s: float, direct: bool = True) -> CrashOutcome:
    """Start a writer in a child process, SIGKILL it after `delay_s`, recover, and check
    every acknowledged record (present, at that version or a newer one, intact) and
    every recovered value (intact: it equals what the child wrote for that version)."""
    db = directory / "db"
    db.mkdir()
    out = directory / "acks.txt"
    options = mode.options(seed, direct)
    with open(out, "wb") as sink:
        proc = subprocess.Popen([sys.executable, "-c", CHILD, str(db), json.dumps(options)], stdout=sink,
                                stderr=subprocess.PIPE)
        try:
            _wait_ready(out, proc)
            time.sleep(delay_s)
            if proc.poll() is not None:
                raise RuntimeError(f"the crash child died on its own ({proc.returncode}): "
                                   f"{proc.stderr.read().decode()}")
            proc.kill()
        finally:
            proc.kill()
            proc.wait(timeout=60)
            proc.stderr.close()
    text = out.read_bytes().decode()
    lines = text.split("\n")[:-1]  # the last piece has no newline: it may be cut off
    acked: dict[int, int] = {}
    count = 0
    for line in lines[1:]:
        for item in line.split()[1:]:
            key, version = map(int, item.split(":"))
            acked[key] = max(acked.get(key, -1), version)
            count += 1
    recovered = _native.recover(str(db), CRASH_CAPACITY, record_size=CRASH_RECORD, direct=direct)
    problems: list[str] = []
    newer = 0
    try:
        stats = recovered.stats()
        for raw in recovered.keys():
            value = recovered.get(raw)
            key = int(raw.decode().split("-")[1])
            if value is None or len(value) < 16:
                problems.append(f"{raw!r}: value missing or short")
                continue
            k, version = struct.unpack("<QQ", value[:16])
            if k != key or value != expected_value(key, version):
                problems.append(f"{raw!r}: value is not what was written (version {version})")
        for key, version in acked.items():
            value = recovered.get(b"key-%d" % key)
            if value is None:
                problems.append(f"key-{key}: acknowledged at version {version}, missing after recovery")
                continue
            got = struct.unpack("<QQ", value[:16])[1]
            if got < version:
                problems.append(f"key-{key}: acknowledged at version {version}, recovered {got}")
            newer += got > version
        recovered_keys = len(recovered)
    finally:
        recovered.close()
    return CrashOutcome(mode.name, delay_s, count, len(acked), recovered_keys, newer, int(stats["torn_records"]),
                        problems)


def crash_modes() -> tuple[CrashMode, ...]:
    """The modes this machine can run (io_uring ones need io_uring)."""
    if capabilities.io_uring().supported:
        return CRASH_MODES
    return tuple(m for m in CRASH_MODES if m.flush == "blocking")


def crash_measurer():
    counter = iter(range(1 << 30))

    def measure(case: Case, scratch: Scratch) -> Outcome:
        mode = next(m for m in CRASH_MODES if m.name == case["mode"])
        if mode.flush == "io_uring":
            ring = capabilities.io_uring()
            if not ring.supported:
                raise Unsupported(f"io_uring: {ring.reason}")
        direct = _direct_io(str(scratch.path)).supported
        i = next(counter)
        rng = random.Random(i)
        directory = _fresh_dir(scratch, "crash")
        try:
            got = crash_once(directory, mode, seed=i, delay_s=rng.uniform(0.0, 0.08), direct=direct)
        finally:
            _remove_dir(scratch, directory)
        if got.problems:
            raise RuntimeError(f"crash recovery lost or damaged records ({mode.name}): {got.problems[:5]}")
        return Outcome({"acknowledged": (got.acknowledged, "records"), "acknowledged_keys": (got.acknowledged_keys, "keys"),
                        "recovered_keys": (got.recovered_keys, "keys"), "newer": (got.newer, "keys"),
                        "torn": (got.torn, "records"), "problems": (len(got.problems), "problems"),
                        "delay_ms": (got.delay_s * 1e3, "ms")})

    return measure


# ---- the chapter ---------------------------------------------------------------------------------


def _bytes_needed(cases: list[dict[str, Any]], segment_bytes: int) -> int:
    """The largest single case: its data and log, plus two segment files' worth (the
    last one is preallocated whole, and the next one is created ahead)."""
    need = 0
    for c in cases:
        data = c["records"] * c["record_size"]
        segment = max(segment_bytes, c["buffers"] * c["capacity"], c["capacity"])
        need = max(need, data * (2 if c["wal"] else 1) + 2 * segment)
    return need


def measure_chapter(profile: Profile | None = None, *, save: bool = True) -> dict[str, Run]:
    """Run the chapter's experiments in one scratch dir; store them with the facts."""
    profile = profile or current_profile()
    plan = profile.memtable
    reps = profile.repetitions
    sweep, variants, fio = sweep_cases(profile), variant_cases(profile), fio_cases(profile)
    crash = [{"mode": m.name} for m in crash_modes()]
    runs: dict[str, Run] = {}
    with Scratch(need_bytes=_bytes_needed(sweep + variants + fio, plan.segment_bytes)) as scratch:
        facts = machine.facts(scratch.path)
        # the sweep keeps latency percentiles only; the variants keep samples for the chart
        runs[SWEEP] = run(SWEEP, sweep, measurer(plan, samples=False), repetitions=reps, scratch=scratch)
        runs[VARIANTS] = run(VARIANTS, variants, measurer(plan), repetitions=reps, scratch=scratch)
        runs[VS_FIO] = run(VS_FIO, fio, fio_measurer(plan), repetitions=reps, scratch=scratch, alternate=True)
        points = max(1, -(-plan.crash_points // len(crash)))
        runs[CRASH] = run(CRASH, crash, crash_measurer(), repetitions=points, scratch=scratch)
    if save:
        for each in runs.values():
            results.save(each, facts)
    return runs
