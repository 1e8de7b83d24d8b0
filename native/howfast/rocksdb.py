"""RocksDB with seed 000's db_bench settings, through librocksdb's C++ API.

A production LSM store on the same disk as the memtable experiments: 16-byte keys,
800-byte values that compress to about half (db_bench's ``compression_ratio=0.5``),
Snappy when this librocksdb has it, RocksDB's (= db_bench's) defaults otherwise: a
64 MiB memtable, two of them, an 8 MiB block cache, the write-ahead log on and not
synced per write. Every repetition opens a fresh database in the scratch directory and
runs db_bench's four tests of seed 000 in order, each entirely in C++:

* ``fillseq``: Put keys 0..N-1 in order, one thread;
* ``readrandom``: Get uniformly random keys of those written, one thread per logical CPU;
* ``overwrite``: Put N uniformly random keys with new values, one thread;
* ``readwhilewriting``: one reader per logical CPU but one, Getting random keys, while
  one more thread overwrites random keys until they finish (only reads are measured).

``measure_chapter`` also measures the disk's sequential write bandwidth (for the
write-rate comparison) and, when ``db_bench`` is installed (Debian's rocksdb-tools),
runs db_bench once with the same settings beside our loop.

Set ``HOWFAST_DISABLE_ROCKSDB=1`` to see how the book reports a machine without RocksDB.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from . import _native, capabilities, machine, results
from .bench import Case, Outcome, Run, Unsupported, run
from .profiles import Profile, RocksdbPlan, current_profile
from .scratch import Scratch

BENCHMARK = "rocksdb_db_bench"
DISK = "rocksdb_disk_write"
CROSSCHECK = "rocksdb_vs_db_bench"
TESTS = ("fillseq", "readrandom", "overwrite", "readwhilewriting")
WRITE_TESTS = ("fillseq", "overwrite")
#: db_bench's percentiles, as printed by ``--histogram=1``; metric names as in data/reference/rocksdb.csv.
PERCENTILES = {"latency_p50": 50.0, "latency_p75": 75.0, "latency_p99": 99.0, "latency_p99_9": 99.9,
               "latency_p99_99": 99.99}
#: db_bench prints "MB/s" but divides by 1,048,576; we compute the same and call it MiB/s.
MIB = 1024 * 1024
WAL = "on, not synced"
SEED = 1


def disabled_reason() -> str | None:
    """Why RocksDB cannot be measured here, or None when it can."""
    if os.environ.get("HOWFAST_DISABLE_ROCKSDB", "").strip() not in ("", "0"):
        return "disabled by HOWFAST_DISABLE_ROCKSDB"
    if _native.rocksdb_version is None:
        return ("built without librocksdb-dev (apt-get install librocksdb-dev, then rebuild the native module)")
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
    ops = {"fillseq": plan.entries, "readrandom": plan.reads, "overwrite": plan.entries,
           "readwhilewriting": plan.rww_reads}
    chosen = {t: (threads or {}).get(t, threads_for(t, cpus)) for t in TESTS}
    return [
        {"test": t, "entries": plan.entries, "ops_per_thread": ops[t], "threads": chosen[t],
         "key_size": plan.key_size, "value_size": plan.value_size, "compression": compression(), "wal": WAL}
        for t in TESTS
    ]


def bytes_needed(plan: RocksdbPlan) -> int:
    """A generous bound on the disk one repetition uses: every entry written twice
    (fillseq, overwrite) plus the write-ahead log and the writer of readwhilewriting,
    uncompressed; with the disk probe's file."""
    entry = plan.key_size + plan.value_size
    return entry * (3 * plan.entries + 2 * plan.rww_reads * threads_for("readwhilewriting")) \
        + 2 * 64 * MIB + plan.disk_write_mib * MIB


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

    def open(self, key_size: int, value_size: int) -> Any:
        self.close()
        self.path = self.scratch.file("rocksdb").with_suffix("")
        self.paths.append(self.path)
        self.db = _native.RocksDb(str(self.path), key_size=key_size, value_size=value_size,
                                  compression=compression(), seed=SEED)
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


def measurer(session: Session, max_samples: int) -> Callable[[Case, Scratch], Outcome]:
    """The ``measure`` function for ``bench.run``: one test of the sequence on the
    session's database (fillseq makes a fresh one)."""

    def measure(case: Case, scratch: Scratch) -> Outcome:
        reason = disabled_reason()
        if reason:
            raise Unsupported(reason)
        test, n, threads = case["test"], case["ops_per_thread"], case["threads"]
        every = sample_every(n * threads, max_samples)
        if test == "fillseq":
            db = session.open(case["key_size"], case["value_size"])
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


def measure_db_bench(profile: Profile | None = None, scratch: Scratch | None = None) -> Run:
    """Seed 000's four tests on fresh databases, ``plan.repetitions`` times."""
    profile = profile or current_profile()
    plan = profile.rocksdb
    own = scratch is None
    scratch = scratch or Scratch(need_bytes=bytes_needed(plan))
    try:
        with Session(scratch) as session:
            return run(BENCHMARK, cases(plan), measurer(session, plan.max_samples), repetitions=plan.repetitions,
                       scratch=scratch)
    finally:
        if own:
            scratch.cleanup()


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
        r = _native.durable_writes(str(path), case["block_size"], case["blocks"],
                                   sync="none" if direct else "fdatasync", direct=direct)
    finally:
        scratch.remove(path)
    seconds = r["elapsed_ns"] / 1e9
    return Outcome({"mb_per_s": (r["bytes"] / 1e6 / seconds, "MB/s"), "direct_io": (float(direct), "bool")})


# --- db_bench itself, for a cross-check -----------------------------------------------------

_SUMMARY = re.compile(
    r"^(?P<test>\w+)\s*:\s*(?P<micros>[\d.]+) micros/op (?P<ops>\d+) ops/sec (?P<seconds>[\d.]+) seconds "
    r"(?P<operations>\d+) operations;\s*(?:(?P<mb>[\d.]+) MB/s)?(?:\s*\((?P<found>\d+) of (?P<of>\d+) found\))?",
    re.MULTILINE,
)
_PERCENTILES = re.compile(r"P50: ([\d.]+) P75: ([\d.]+) P99: ([\d.]+) P99\.9: ([\d.]+) P99\.99: ([\d.]+)")


def parse_db_bench(text: str) -> dict[str, dict[str, float]]:
    """Each test's summary line (and the percentiles printed after it with --histogram=1)."""
    out: dict[str, dict[str, float]] = {}
    matches = list(_SUMMARY.finditer(text))
    for i, m in enumerate(matches):
        figures = {"micros_per_op": float(m["micros"]), "ops_per_s": float(m["ops"]),
                   "seconds": float(m["seconds"]), "operations": float(m["operations"])}
        if m["mb"]:
            figures["mb_per_s"] = float(m["mb"])
        if m["found"]:
            figures["keys_found"] = float(m["found"])
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        p = _PERCENTILES.search(text, m.end(), end)
        if p:
            figures |= {name: float(v) for name, v in zip(PERCENTILES, p.groups())}
        out[m["test"]] = figures
    return out


def db_bench_path() -> str | None:
    return shutil.which("db_bench")


def db_bench_command(exe: str, db: Path, plan: RocksdbPlan, tests: tuple[str, ...] = TESTS) -> list[str]:
    """db_bench with seed 000's settings, our sizes, one thread (readwhilewriting adds its writer)."""
    return [exe, f"--db={db}", f"--benchmarks={','.join(tests)}", f"--num={plan.entries}",
            f"--reads={plan.reads}", f"--key_size={plan.key_size}", f"--value_size={plan.value_size}",
            f"--compression_type={compression()}", "--compression_ratio=0.5", "--threads=1",
            f"--write_buffer_size={64 * MIB}", "--max_write_buffer_number=2", f"--cache_size={8 * MIB}",
            "--disable_wal=0", "--sync=0", "--histogram=1", f"--seed={SEED}"]


def run_db_bench(scratch: Scratch, plan: RocksdbPlan) -> dict[str, dict[str, float]]:
    """db_bench's four tests in one process on a fresh database in the scratch dir."""
    exe = db_bench_path()
    if exe is None:
        raise Unsupported("db_bench is not installed (apt-get install rocksdb-tools)")
    db = scratch.file("db_bench").with_suffix("")
    try:
        done = subprocess.run(db_bench_command(exe, db, plan), capture_output=True, text=True, check=False,
                              timeout=3600, cwd=scratch.path)
    finally:
        remove_tree(scratch, db)
    if done.returncode != 0:
        raise RuntimeError(f"db_bench failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    figures = parse_db_bench(done.stdout)
    missing = [t for t in TESTS if t not in figures]
    if missing:
        raise RuntimeError(f"db_bench printed no result for {missing}: {done.stdout[-2000:]}")
    return figures


def crosscheck_cases(plan: RocksdbPlan) -> list[dict]:
    """Ours and db_bench on the same sequence, every test on one thread as db_bench runs it
    (reads per thread: plan.reads for both read tests)."""
    ours = cases(plan, threads={t: 1 for t in TESTS})
    ours = [{**c, "ops_per_thread": plan.reads if c["test"].startswith("read") else c["ops_per_thread"]}
            for c in ours]
    return [{**c, "tool": tool} for tool in ("howfast", "db_bench") for c in ours]


def measure_crosscheck(profile: Profile | None = None, scratch: Scratch | None = None) -> Run:
    """Our sequence, then db_bench's (one process), with the same settings and counts;
    alternating, ``plan.crosscheck_repetitions`` times."""
    plan = (profile or current_profile()).rocksdb
    own = scratch is None
    scratch = scratch or Scratch(need_bytes=bytes_needed(plan))
    cached: dict[str, dict[str, float]] = {}
    why_not: list[str] = []  # db_bench's Unsupported reason for this repetition, if any

    try:
        with Session(scratch) as session:
            ours = measurer(session, plan.max_samples)

            def measure(case: Case, s: Scratch) -> Outcome:
                if case["tool"] == "howfast":
                    got = ours(case, s)
                    keep = ("ops_per_s", "micros_per_op", "mb_per_s", "latency_p50", "latency_p99")
                    return Outcome({k: got.metrics[k] for k in keep})
                reason = disabled_reason()
                if reason:
                    raise Unsupported(reason)
                if case["test"] == TESTS[0]:  # one db_bench process runs the whole sequence
                    cached.clear()
                    why_not.clear()
                    try:
                        cached.update(run_db_bench(s, plan))
                    except Unsupported as why:
                        why_not.append(str(why))
                        raise
                if why_not:
                    raise Unsupported(why_not[0])
                figures = cached[case["test"]]
                units = {"ops_per_s": "ops/s", "micros_per_op": "us", "mb_per_s": "MiB/s", "latency_p50": "us",
                         "latency_p99": "us"}
                return Outcome({k: (figures[k], u) for k, u in units.items() if k in figures})

            return run(CROSSCHECK, crosscheck_cases(plan), measure, repetitions=plan.crosscheck_repetitions,
                       scratch=scratch)
    finally:
        if own:
            scratch.cleanup()


def measure_chapter(profile: Profile | None = None, *, save: bool = True) -> dict[str, Run]:
    """The RocksDB section's experiments in one scratch dir; stored with the machine's facts."""
    profile = profile or current_profile()
    plan = profile.rocksdb
    runs: dict[str, Run] = {}
    with Scratch(need_bytes=bytes_needed(plan)) as scratch:
        facts = machine.facts(scratch.path)
        runs[BENCHMARK] = measure_db_bench(profile, scratch)
        runs[DISK] = run(DISK, disk_cases(plan), measure_disk, repetitions=plan.repetitions, scratch=scratch)
        if plan.crosscheck:
            runs[CROSSCHECK] = measure_crosscheck(profile, scratch)
    if save:
        for each in runs.values():
            results.save(each, facts)
    return runs
