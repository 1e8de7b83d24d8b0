"""The storing-data chapter's experiments: RAM against disk, the engine matrix
(sync / POSIX aio / io_uring × sequential / random × write, write+fsync, read),
buffered against O_DIRECT, the page cache, block-size and queue-depth sweeps, and
parallel jobs as in fio's ``numjobs``.

Every case is one call of the native ``disk_io`` in a scratch directory. Reads use
files written beforehand (``prepare_file``) and measure the device: O_DIRECT, or
buffered after ``posix_fadvise(DONTNEED)`` drops the file's pages (``cache="cold"``),
unless the case asks for ``cache="warm"`` (read once before, so it is the page cache
that answers).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .. import _native, capabilities
from ..bench import Case, Outcome, Run, Unsupported, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from ..store import Writer
from . import crosscheck
from .plan import Plan as StoragePlan

#: The shape of what this subject stores; bump it when its cases, ids or metrics change
#: (older stored sets are then measured again instead of misread).
SCHEMA = 2

ENGINES = ("sync", "aio", "io_uring")
PREPARE_UNIT = 4096
MATRIX = "matrix"
RAM_VS_DISK = "ram_vs_disk"
BLOCK_SIZES = "block_sizes"
QUEUE_DEPTH = "queue_depth"
PARALLEL = "parallel"
PAGE_CACHE = "page_cache"

#: The parallel table of seed 001: (job name, op, fsync).
PARALLEL_JOBS = (
    ("sync sequential read", "read", False),
    ("sync sequential write - fsync", "write", False),
    ("sync sequential write + fsync", "write", True),
    ("sync readwrite - fsync", "readwrite", False),
    ("sync readwrite + fsync", "readwrite", True),
)

#: What a case does unless it says otherwise (its sizes it must always give: they come
#: from the plan).
_DEFAULTS: dict[str, Any] = {
    "engine": "sync",
    "pattern": "sequential",
    "op": "read",
    "fsync": False,
    "direct": False,
    "cache": "cold",
    "queue_depth": 1,
    "jobs": 1,
}
#: The parameter order of every case (runs need the same columns in every case).
_ORDER = ("engine", "pattern", "op", "fsync", "direct", "cache", "block_size", "file_size", "queue_depth", "jobs")


def io_case(*, block_size: int, file_size: int, **overrides: Any) -> dict[str, Any]:
    """A case with every parameter present; sizes are required, the rest default."""
    unknown = set(overrides) - set(_DEFAULTS)
    if unknown:
        raise ValueError(f"unknown case parameters {sorted(unknown)}")
    for name, value in (("block_size", block_size), ("file_size", file_size)):
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"{name} must be a positive whole number of bytes, got {value!r}")
    given = {**_DEFAULTS, **overrides, "block_size": block_size, "file_size": file_size}
    return {k: given[k] for k in _ORDER}


def label(case: Case) -> str:
    """'io_uring random write + fsync', as the seeds name their rows."""
    what = "read" if case["op"] == "read" else "readwrite" if case["op"] == "readwrite" else "write"
    if case["op"] != "read":
        what += " + fsync" if case["fsync"] else " - fsync"
    return f"{case['engine']} {case['pattern']} {what}"


@lru_cache(maxsize=8)
def _direct_io(directory: str) -> capabilities.Capability:
    return capabilities.direct_io(directory)


def check_capabilities(case: Case, directory: Path) -> None:
    """Unsupported(reason) when the machine lacks what the case needs."""
    if case["engine"] == "io_uring":
        cap = capabilities.io_uring()
        if not cap.supported:
            raise Unsupported(f"io_uring: {cap.reason}")
    if case["direct"]:
        cap = _direct_io(str(directory))
        if not cap.supported:
            raise Unsupported(f"O_DIRECT: {cap.reason}")
        if case["block_size"] % cap.detail:
            raise Unsupported(
                f"block size {case['block_size']} is not a multiple of the O_DIRECT alignment {cap.detail}"
            )


class Files:
    """Prepared read files, kept for the whole run and shared by the cases that read
    the same size; write files are made and removed per case."""

    def __init__(self, scratch: Scratch) -> None:
        self.scratch = scratch
        self._prepared: dict[tuple[int, int, int], Path] = {}

    def for_reading(self, file_size: int, jobs: int) -> Path:
        """Files of 4 KiB stamped units: readable (and verifiable) at any multiple of 4 KiB."""
        key = (file_size, jobs)
        if key not in self._prepared:
            base = self.scratch.file("read")
            for j in range(jobs):
                _native.prepare_file(f"{base}.{j}", file_size, PREPARE_UNIT)
            self._prepared[key] = base
        return self._prepared[key]

    def remove_writes(self, base: Path, jobs: int) -> None:
        for j in range(jobs):
            self.scratch.remove(Path(f"{base}.{j}"))


def io_metrics(result: dict, case: Case) -> Outcome:
    latency = np.concatenate([j["latency_ns"] for j in result["jobs"]])
    is_write = np.concatenate([j["is_write"] for j in result["jobs"]])
    seconds = result["elapsed_ns"] / 1e9
    us = latency.astype(np.float64) / 1e3
    total = result["bytes_read"] + result["bytes_written"]
    metrics = {
        "ops_per_s": (latency.size / seconds, "ops/s"),
        "mb_per_s": (total / seconds / 1e6, "MB/s"),
        **{
            name: (float(np.percentile(us, q)), "us")
            for name, q in (("p50", 50), ("p90", 90), ("p99", 99), ("p99.99", 99.99))
        },
        "max": (float(us.max()), "us"),
        "mean": (float(us.mean()), "us"),
    }
    if case["op"] == "readwrite":
        metrics["read_mb_per_s"] = (result["bytes_read"] / seconds / 1e6, "MB/s")
        metrics["write_mb_per_s"] = (result["bytes_written"] / seconds / 1e6, "MB/s")
        metrics["write_share"] = (float(is_write.mean()), "fraction")
    return Outcome(metrics, samples=latency)


def measure_io(case: Case, scratch: Scratch, files: Files | None = None) -> Outcome:
    """One repetition of one disk case."""
    check_capabilities(case, scratch.path)
    files = files or Files(scratch)
    reads = case["op"] in ("read", "readwrite")
    common = dict(
        engine=case["engine"],
        op=case["op"],
        random=case["pattern"] == "random",
        fsync=case["fsync"],
        direct=case["direct"],
        block_size=case["block_size"],
        file_size=case["file_size"],
        queue_depth=case["queue_depth"],
        jobs=case["jobs"],
    )
    if reads:
        base = files.for_reading(case["file_size"], case["jobs"])
        if case["cache"] == "warm":  # read once so that the measured pass finds every page cached
            _native.disk_io(str(base), **{**common, "op": "read", "random": False, "direct": False}, drop_cache=False)
        result = _native.disk_io(str(base), **common, drop_cache=case["cache"] == "cold")
        return io_metrics(result, case)
    base = scratch.file("write")
    try:
        result = _native.disk_io(str(base), **common)
    finally:
        files.remove_writes(base, case["jobs"])
    return io_metrics(result, case)


def _runner(files_holder: dict[str, Files]):
    def measure(case: Case, scratch: Scratch) -> Outcome:
        files = files_holder.setdefault(str(scratch.path), Files(scratch))
        return measure_io(case, scratch, files)

    return measure


# --- the chapter's case lists --------------------------------------------------------


def matrix_cases(plan: StoragePlan) -> list[dict]:
    """The seeds' 19 rows (and their O_DIRECT twins), at 256 KiB blocks; plus 1 MiB."""
    cases = []
    for direct in (False, True):
        for engine in ENGINES:
            for pattern in ("sequential", "random"):
                for op, fsync in (("write", False), ("write", True), ("read", False)):
                    cases.append(
                        io_case(
                            engine=engine,
                            pattern=pattern,
                            op=op,
                            fsync=fsync,
                            direct=direct,
                            block_size=plan.matrix_block_size,
                            file_size=plan.matrix_file_size,
                        )
                    )
        cases.append(
            io_case(
                engine="sync",
                op="write",
                direct=direct,
                block_size=plan.large_block_size,
                file_size=plan.matrix_file_size,
            )
        )
    return cases


def page_cache_cases(plan: StoragePlan) -> list[dict]:
    return [
        io_case(
            engine="sync",
            op="read",
            direct=True,
            cache="n/a",
            block_size=plan.matrix_block_size,
            file_size=plan.matrix_file_size,
        ),
        io_case(
            engine="sync", op="read", cache="cold", block_size=plan.matrix_block_size, file_size=plan.matrix_file_size
        ),
        io_case(
            engine="sync", op="read", cache="warm", block_size=plan.matrix_block_size, file_size=plan.matrix_file_size
        ),
    ]


def block_size_cases(plan: StoragePlan) -> list[dict]:
    """O_DIRECT reads and writes from 4 KiB to 4 MiB; large blocks get at least 16 I/Os."""
    return [
        io_case(
            engine="sync", op=op, direct=True, cache="n/a", block_size=bs, file_size=max(plan.sweep_file_size, 16 * bs)
        )
        for bs in plan.sweep_block_sizes
        for op in ("read", "write")
    ]


def queue_depth_cases(plan: StoragePlan) -> list[dict]:
    return [
        io_case(
            engine="io_uring",
            pattern="random",
            op=op,
            direct=True,
            cache="n/a",
            queue_depth=qd,
            block_size=plan.queue_block_size,
            file_size=plan.queue_file_size,
        )
        for op in ("read", "write")
        for qd in plan.queue_depths
    ]


def parallel_cases(plan: StoragePlan) -> list[dict]:
    return [
        io_case(
            engine="sync",
            op=op,
            fsync=fsync,
            block_size=plan.parallel_block_size,
            file_size=plan.parallel_file_size,
            jobs=plan.parallel_jobs,
        )
        for _, op, fsync in PARALLEL_JOBS
    ]


def memcpy_bandwidth(plan: StoragePlan) -> Outcome:
    ns = _native.memcpy_rounds(plan.memcpy_size, plan.memcpy_rounds)
    per_s = plan.memcpy_size / (np.median(ns) / 1e9)
    return Outcome({"mb_per_s": (per_s / 1e6, "MB/s")}, samples=ns)


def _ram_vs_disk(plan: StoragePlan, scratch: Scratch, repetitions: int, files: Files) -> Run:
    cases = [
        {"medium": "ram", "what": "copy"},
        {"medium": "disk", "what": "read"},
        {"medium": "disk", "what": "write"},
    ]

    def measure(case: Case, s: Scratch) -> Outcome:
        if case["what"] == "copy":
            return memcpy_bandwidth(plan)
        io = io_case(
            engine="sync",
            op=case["what"],
            direct=True,
            cache="n/a",
            block_size=plan.large_block_size,
            file_size=plan.matrix_file_size,
        )
        return measure_io(io, s, files)

    return run(RAM_VS_DISK, cases, measure, repetitions=repetitions, scratch=scratch)


def need_bytes(case_lists: list[list[dict]]) -> int:
    """Scratch space for a run: every distinct read file (kept for the run) plus the
    largest write (removed after each case)."""
    cases = [c for cases in case_lists for c in cases]
    reads = {(c["file_size"], c["jobs"]) for c in cases if c["op"] != "write"}
    writes = [c["file_size"] * c["jobs"] for c in cases if c["op"] == "write"]
    return sum(size * jobs for size, jobs in reads) + max(writes, default=0)


def measure(profile: Profile, out: Writer) -> None:
    """Every disk experiment of the subject in one scratch dir, each handed to `out`."""
    plan, reps = profile.storage, profile.repetitions
    holder: dict[str, Files] = {}
    experiments = {
        MATRIX: matrix_cases(plan),
        PAGE_CACHE: page_cache_cases(plan),
        BLOCK_SIZES: block_size_cases(plan),
        QUEUE_DEPTH: queue_depth_cases(plan),
        PARALLEL: parallel_cases(plan),
    }
    with Scratch(need_bytes=need_bytes([*experiments.values(), crosscheck.disk_crosscheck_cases(profile)])) as scratch:
        out.record_facts(scratch.path)
        files = holder.setdefault(str(scratch.path), Files(scratch))
        out.add(_ram_vs_disk(plan, scratch, reps, files))
        for name, cases in experiments.items():
            out.add(run(name, cases, _runner(holder), repetitions=reps, scratch=scratch))
        out.add(crosscheck.versus_fio(profile, scratch, files))


# every public function above refuses bad arguments with a clear exception
checked(globals())
