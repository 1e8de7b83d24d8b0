"""The memtable beside fio: the physical limit. fio writes the same bytes with O_DIRECT
in blocks of the flush size, at the same depth, into a file laid out like our segments;
ours and fio alternate run by run.
"""

from __future__ import annotations

from typing import Any

from ..bench import Case, Outcome
from ..checks import checked
from ..crosscheck import run_fio
from ..profiles import Profile
from ..scratch import Scratch
from .experiments import _case, check_capabilities, deep_buffers, fio_records, measurer
from .plan import DEFAULT_SEGMENT_BYTES
from .plan import Plan as MemtablePlan


def fio_cases(profile: Profile) -> list[dict[str, Any]]:
    """Ours (blocking, deep io_uring) beside fio at the same block size and depth, with
    the chapter's segment size; then the deep io_uring mode at `fio_default_capacity` with
    Memtable's default segment size, where a run rolls over to new segment files (and
    with the chapter's, if that capacity is not among the others)."""
    plan = profile.memtable
    runs = []
    for capacity in plan.fio_capacities:
        for dsync in (False, True):
            for flush, buffers in (("blocking", 1), ("io_uring", deep_buffers(plan, capacity))):
                runs.append((capacity, dsync, flush, buffers, plan.segment_bytes))
    default = plan.fio_default_capacity
    for dsync in (False, True):
        deep = deep_buffers(plan, default)
        if default not in plan.fio_capacities:  # the same flushes into one segment, to compare with
            runs.append((default, dsync, "io_uring", deep, plan.segment_bytes))
        runs.append((default, dsync, "io_uring", deep, DEFAULT_SEGMENT_BYTES))
    cases = []
    for capacity, dsync, flush, buffers, segment in runs:
        for tool in ("howfast", "fio"):
            cases.append(
                {
                    **_case(
                        capacity=capacity,
                        dsync=dsync,
                        flush=flush,
                        buffers=buffers,
                        records=fio_records(plan, capacity),
                        record_size=plan.record_size,
                    ),
                    "segment_bytes": segment,
                    "tool": tool,
                }
            )
    return cases


def fio_write(scratch: Scratch, block_size: int, total: int, *, dsync: bool, depth: int) -> dict[str, float]:
    """fio writing `total` bytes sequentially with O_DIRECT in blocks of `block_size`
    (psync for depth 1, io_uring with `depth` writes in flight otherwise), into a new
    file laid out like our segments: growing with one write in flight (the blocking
    flush), preallocated with more."""
    if total % block_size:
        raise ValueError(f"total {total} is not a multiple of the block size {block_size}")
    engine = ["--ioengine=psync"] if depth == 1 else ["--ioengine=io_uring", f"--iodepth={depth}"]
    options = [
        "--name=memtable",
        "--rw=write",
        f"--bs={block_size}",
        f"--size={total}",
        "--direct=1",
        f"--fallocate={'none' if depth == 1 else 'native'}",
        f"--sync={'dsync' if dsync else 'none'}",
        *engine,
    ]
    job = run_fio(scratch, scratch.file("fio-memtable"), options)["write"]
    if job["io_bytes"] != total:
        raise RuntimeError(f"fio wrote {job['io_bytes']} bytes, expected {total}")
    return {"mb_per_s": float(job["bw_bytes"]) / 1e6, "writes_per_s": float(job["iops"])}


def fio_measurer(plan: MemtablePlan):
    ours = measurer(plan, samples=False)

    def measure(case: Case, scratch: Scratch) -> Outcome:
        if case["tool"] == "howfast":
            got = ours(case, scratch)
            return Outcome(
                {
                    k: got.metrics[k]
                    for k in ("mb_per_s", "records_per_s", "flushes_per_s", "first_fill_ms", "first_fill_share")
                }
            )
        check_capabilities(case, scratch.path)
        total = case["records"] * case["record_size"]
        got = fio_write(scratch, case["capacity"], total, dsync=case["dsync"], depth=case["buffers"])
        return Outcome(
            {
                "mb_per_s": (got["mb_per_s"], "MB/s"),
                "records_per_s": (got["mb_per_s"] * 1e6 / case["record_size"], "records/s"),
                "flushes_per_s": (got["writes_per_s"], "flushes/s"),
            }
        )

    return measure


# every public function above refuses bad arguments with a clear exception
checked(globals())
