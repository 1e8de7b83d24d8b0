"""RocksDB with seed 000's db_bench settings, through librocksdb's C++ API.

A production LSM store on the same disk as the memtable experiments: 16-byte keys,
800-byte values that compress to about half (db_bench's ``compression_ratio=0.5``),
Snappy when this librocksdb has it, and db_bench's defaults otherwise, as set in
``plan.py``: a 64 MiB memtable, two of them, an 8 MiB block cache, the write-ahead log on
and not synced per write. Every repetition opens a fresh database in the scratch directory and
runs db_bench's four tests of seed 000 in order, each entirely in C++:

* ``fillseq``: Put keys 0..N-1 in order, one thread;
* ``readrandom``: Get uniformly random keys of those written, one thread per logical CPU;
* ``overwrite``: Put N uniformly random keys with new values, one thread;
* ``readwhilewriting``: one reader per logical CPU but one, Getting random keys, while
  one more thread overwrites random keys until they finish (only reads are measured).

``measure`` also measures the disk's sequential write bandwidth (for the
write-rate comparison) and, when ``db_bench`` is installed (Debian's rocksdb-tools),
runs db_bench once with the same settings beside our loop.

Set ``HOWFAST_DISABLE_ROCKSDB=1`` to see how the book reports a machine without RocksDB.
"""

from __future__ import annotations

import math
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .. import _native, capabilities
from ..bench import Case, Outcome, Run, Unsupported, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from ..store import Writer
from .plan import Plan as RocksdbPlan

#: The shape of what this subject stores; bump it when its cases, ids or metrics change
#: (older stored sets are then measured again instead of misread).
SCHEMA = 2

BENCHMARK = "db_bench_tests"
DISK = "disk_write"
CROSSCHECK = "vs_db_bench"
TESTS = ("fillseq", "readrandom", "overwrite", "readwhilewriting")
WRITE_TESTS = ("fillseq", "overwrite")
#: db_bench's percentiles, as printed by ``--histogram=1``; metric names as in data/reference/rocksdb.csv.
PERCENTILES = {
    "latency_p50": 50.0,
    "latency_p75": 75.0,
    "latency_p99": 99.0,
    "latency_p99_9": 99.9,
    "latency_p99_99": 99.99,
}
#: db_bench prints "MB/s" but divides by 1,048,576; we compute the same and call it MiB/s.
MIB = 1024 * 1024
WAL = "on, not synced"
SEED = 1


def disabled_reason() -> str | None:
    """Why RocksDB cannot be measured here, or None when it can."""
    if os.environ.get("HOWFAST_DISABLE_ROCKSDB", "").strip() not in ("", "0"):
        return "disabled by HOWFAST_DISABLE_ROCKSDB"
    if _native.rocksdb_version is None:
        return "built without librocksdb-dev (apt-get install librocksdb-dev, then rebuild the native module)"
    return None


def version() -> str | None:
    return None if disabled_reason() else str(_native.rocksdb_version)


def compression() -> str:
    """Snappy, as db_bench's default, when this librocksdb supports it; else none."""
    return "snappy" if "snappy" in _native.rocksdb_compressions() else "none"


def logical_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def threads_for(test: str, cpus: int | None = None) -> int:
    """Seed 000 ran 16 readers on 16 logical CPUs: one thread per CPU for readrandom;
    readwhilewriting keeps one CPU for the writer. Capped at the seed's 16."""
    cpus = cpus or logical_cpus()
    if test == "readrandom":
        return min(cpus, 16)
    if test == "readwhilewriting":
        return max(1, min(cpus - 1, 16))
    return 1


def sample_every(ops: int, max_samples: int) -> int:
    """Keep every k-th latency so that at most `max_samples` are stored."""
    if ops <= 0 or max_samples <= 0:
        raise ValueError(f"ops and max_samples must be positive, got {ops} and {max_samples}")
    return max(1, math.ceil(ops / max_samples))


def cases(plan: RocksdbPlan, *, cpus: int | None = None, threads: dict[str, int] | None = None) -> list[dict]:
    """The four tests in db_bench's order, one case each. `threads` overrides the per-test
    thread counts (the db_bench cross-check runs everything on one thread, as db_bench does)."""
    ops = {
        "fillseq": plan.entries,
        "readrandom": plan.reads,
        "overwrite": plan.entries,
        "readwhilewriting": plan.rww_reads,
    }
    chosen = {t: (threads or {}).get(t, threads_for(t, cpus)) for t in TESTS}
    return [
        {
            "test": t,
            "entries": plan.entries,
            "ops_per_thread": ops[t],
            "threads": chosen[t],
            "key_size": plan.key_size,
            "value_size": plan.value_size,
            "compression": compression(),
            "wal": WAL,
        }
        for t in TESTS
    ]


def bytes_needed(plan: RocksdbPlan) -> int:
    """A generous bound on the disk one repetition uses: every entry written twice
    (fillseq, overwrite) plus the write-ahead log and the writer of readwhilewriting,
    uncompressed; with the disk probe's file."""
    entry = plan.key_size + plan.value_size
    return (
        entry * (3 * plan.entries + 2 * plan.rww_reads * threads_for("readwhilewriting"))
        + plan.max_write_buffer_number * plan.write_buffer_size
        + plan.disk_write_mib * MIB
    )


def _written_bytes() -> int | None:
    """Bytes this process has passed to write() so far (/proc/self/io wchar), or None."""
    try:
        text = Path("/proc/self/io").read_text()
    except OSError:
        return None
    match = re.search(r"^wchar:\s+(\d+)", text, re.MULTILINE)
    return int(match.group(1)) if match else None


class Session:
    """The database of one repetition. ``fillseq`` closes and removes the previous one and
    creates a fresh database in a new directory of the scratch dir; the other tests run on
    it. ``close`` removes it."""

    def __init__(self, scratch: Scratch) -> None:
        self.scratch = scratch
        self.db: Any = None
        self.path: Path | None = None
        self.paths: list[Path] = []  # every database directory this session made

    def open(self, plan: RocksdbPlan) -> Any:
        self.close()
        self.path = self.scratch.file("rocksdb").with_suffix("")
        self.paths.append(self.path)
        self.db = _native.RocksDb(
            str(self.path),
            key_size=plan.key_size,
            value_size=plan.value_size,
            compression=compression(),
            compression_ratio=plan.compression_ratio,
            write_buffer_size=plan.write_buffer_size,
            max_write_buffer_number=plan.max_write_buffer_number,
            cache_size=plan.cache_size,
            disable_wal=False,
            sync=False,
            seed=SEED,
        )
        return self.db

    def require(self) -> Any:
        if self.db is None or not self.db.is_open:
            raise RuntimeError("no open database: the fillseq case must run first in each repetition")
        return self.db

    def close(self) -> None:
        if self.db is not None:
            try:
                self.db.close()
            finally:
                self.db = None
        if self.path is not None:
            remove_tree(self.scratch, self.path)
            self.path = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def remove_tree(scratch: Scratch, path: Path) -> None:
    """Delete a directory of the scratch dir (ValueError for anything outside it)."""
    if scratch.path not in path.parents:
        raise ValueError(f"{path} is not inside the scratch directory {scratch.path}")
    shutil.rmtree(path, ignore_errors=True)


def outcome(test: str, r: dict, written: int | None, entry_bytes: int) -> Outcome:
    """db_bench's summary line and histogram, from one native result."""
    seconds = r["elapsed_ns"] / 1e9
    ops = int(r["ops"])
    if ops == 0 or seconds <= 0:
        raise RuntimeError(f"{test} did no operations")
    lat_us = np.asarray(r["latency_ns"], dtype=np.float64) / 1e3
    metrics: dict[str, tuple[float, str]] = {
        "operations": (ops, "ops"),
        "seconds": (seconds, "s"),
        "ops_per_s": (ops / seconds, "ops/s"),
        # db_bench: the threads' own durations summed, per operation
        "micros_per_op": (r["thread_ns"] / 1e3 / ops, "us"),
        "mb_per_s": (r["bytes"] / MIB / seconds, "MiB/s"),
        "latency_avg": (r["latency_sum_ns"] / 1e3 / ops, "us"),
        "latency_max": (r["latency_max_ns"] / 1e3, "us"),
        "sample_every": (int(r["sample_every"]), "ops"),
    }
    metrics |= {name: (float(np.percentile(lat_us, q)), "us") for name, q in PERCENTILES.items()}
    if test in ("readrandom", "readwhilewriting"):
        metrics["keys_found"] = (int(r["found"]), "keys")
    user_written = ops * entry_bytes if test in WRITE_TESTS else int(r["writer_ops"]) * entry_bytes
    if test == "readwhilewriting":
        writer_s = r["writer_ns"] / 1e9
        metrics["writer_ops"] = (int(r["writer_ops"]), "ops")
        metrics["writer_ops_per_s"] = (r["writer_ops"] / writer_s if writer_s > 0 else 0.0, "ops/s")
    if written is not None:
        metrics["file_write_bytes"] = (written, "bytes")
        metrics["file_write_mb_per_s"] = (written / 1e6 / seconds, "MB/s")
        if user_written:
            metrics["user_write_mb_per_s"] = (user_written / 1e6 / seconds, "MB/s")
            metrics["write_amplification"] = (written / user_written, "x")
    return Outcome(metrics, samples=r["latency_ns"])


def measurer(session: Session, plan: RocksdbPlan) -> Callable[[Case, Scratch], Outcome]:
    """The ``measure`` function for ``bench.run``: one test of the sequence on the
    session's database (fillseq makes a fresh one)."""

    def measure(case: Case, scratch: Scratch) -> Outcome:
        reason = disabled_reason()
        if reason:
            raise Unsupported(reason)
        test, n, threads = case["test"], case["ops_per_thread"], case["threads"]
        every = sample_every(n * threads, plan.max_samples)
        if test == "fillseq":
            if (case["key_size"], case["value_size"]) != (plan.key_size, plan.value_size):
                raise ValueError("a case's key and value sizes must be the plan's")
            db = session.open(plan)
        else:
            db = session.require()
        before = _written_bytes()
        if test == "fillseq":
            r = db.fillseq(n, sample_every=every)
        elif test == "readrandom":
            r = db.readrandom(n, key_range=case["entries"], threads=threads, sample_every=every)
        elif test == "overwrite":
            r = db.overwrite(n, key_range=case["entries"], sample_every=every)
        elif test == "readwhilewriting":
            r = db.readwhilewriting(n, key_range=case["entries"], readers=threads, sample_every=every)
        else:
            raise ValueError(f"unknown test {test!r}; choose from {', '.join(TESTS)}")
        after = _written_bytes()
        written = after - before if before is not None and after is not None else None
        return outcome(test, r, written, case["key_size"] + case["value_size"])

    return measure


def measure_db_bench(profile: Profile, scratch: Scratch) -> Run:
    """Seed 000's four tests on fresh databases, ``plan.repetitions`` times."""
    plan = profile.rocksdb
    with Session(scratch) as session:
        return run(BENCHMARK, cases(plan), measurer(session, plan), repetitions=plan.repetitions, scratch=scratch)


# --- the disk's own sequential write bandwidth --------------------------------------------


def disk_cases(plan: RocksdbPlan) -> list[dict]:
    return [{"test": "sequential write, 1 MiB blocks", "block_size": MIB, "blocks": plan.disk_write_mib}]


def measure_disk(case: Case, scratch: Scratch) -> Outcome:
    """Sequential 1 MiB writes straight to the device (O_DIRECT) when the filesystem allows
    it, else buffered with fdatasync after each block: what the disk itself takes."""
    cap = capabilities.direct_io(scratch.path)
    direct = cap.supported and case["block_size"] % max(cap.detail, 1) == 0
    path = scratch.file("disk-write")
    try:
        r = _native.durable_writes(
            str(path), case["block_size"], case["blocks"], sync="none" if direct else "fdatasync", direct=direct
        )
    finally:
        scratch.remove(path)
    seconds = r["elapsed_ns"] / 1e9
    return Outcome({"mb_per_s": (r["bytes"] / 1e6 / seconds, "MB/s"), "direct_io": (float(direct), "bool")})


def measure(profile: Profile, out: Writer) -> None:
    """The RocksDB experiments in one scratch dir, each handed to `out`, with the
    library's version and the compression it used."""
    from . import crosscheck  # it builds on this module's loops

    plan = profile.rocksdb
    with Scratch(need_bytes=bytes_needed(plan)) as scratch:
        out.record_facts(scratch.path)
        out.details["rocksdb_version"] = version()
        out.details["compression"] = None if disabled_reason() else compression()
        out.add(measure_db_bench(profile, scratch))
        out.add(run(DISK, disk_cases(plan), measure_disk, repetitions=plan.repetitions, scratch=scratch))
        if plan.crosscheck:
            out.add(crosscheck.versus_db_bench(profile, scratch))


# every public function above refuses bad arguments with a clear exception
checked(globals())
