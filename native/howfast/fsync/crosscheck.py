"""The fsync subject beside fio: the same durable-write jobs through fio's sync engine,
with the same block size, count, sync method and O_DIRECT flag, on a file fio first lays
out (``--overwrite=1``, our ``overwrite`` layout). Ours and fio alternate run by run.
"""

from __future__ import annotations

from collections.abc import Callable

from ..bench import Case, Outcome, Run, run
from ..checks import checked
from ..crosscheck import run_fio
from ..profiles import Profile
from ..scratch import Scratch

#: fio options for each of our durable-write methods.
FIO_OPTIONS: dict[str, list[str]] = {
    "fsync": ["--fsync=1"],
    "fdatasync": ["--fdatasync=1"],
    "dsync": ["--sync=dsync"],
    "direct_dsync": ["--sync=dsync", "--direct=1"],
}
NAME = "vs_fio"


def fio_durable_writes(scratch: Scratch, method: str, block_size: int, writes: int) -> dict[str, float]:
    """Run fio's sync engine on `writes` blocks; its IOPS is durable writes per second."""
    if method not in FIO_OPTIONS:
        raise ValueError(f"no fio equivalent for method {method!r}; choose from {sorted(FIO_OPTIONS)}")
    options = [
        "--name=durable",
        "--rw=write",
        f"--bs={block_size}",
        f"--size={block_size * writes}",
        "--ioengine=sync",
        "--overwrite=1",
        *FIO_OPTIONS[method],
    ]
    job = run_fio(scratch, scratch.file("fio"), options)
    write = job["write"]
    if write["total_ios"] != writes:
        raise RuntimeError(f"fio wrote {write['total_ios']} blocks, expected {writes}")
    # fio times the write and the fsync that follows it separately; a durable write is both
    sync_mean = job.get("sync", {}).get("lat_ns", {}).get("mean", 0.0) if method in ("fsync", "fdatasync") else 0.0
    return {"writes_per_s": float(write["iops"]), "mean_us": (write["lat_ns"]["mean"] + sync_mean) / 1e3}


def versus_fio(profile: Profile, scratch: Scratch, ours: Callable[[Case, Scratch], Outcome]) -> Run:
    """Ours (`ours` measures one durable-write case) and fio, alternating, on each method
    of ``FIO_OPTIONS``, rewriting a laid-out file (our ``overwrite`` layout)."""
    plan = profile.fsync

    def measure(case: Case, s: Scratch) -> Outcome:
        if case["tool"] == "fio":
            got = fio_durable_writes(s, case["method"], case["block_size"], case["writes"])
            return Outcome({"writes_per_s": (got["writes_per_s"], "writes/s"), "mean": (got["mean_us"], "us")})
        mine = ours({**case, "layout": "overwrite"}, s)
        return Outcome({"writes_per_s": mine.metrics["writes_per_s"], "mean": mine.metrics["mean"]})

    cases = [
        {"method": m, "tool": tool, "block_size": plan.block_size, "writes": plan.crosscheck_writes}
        for m in FIO_OPTIONS
        for tool in ("howfast", "fio")
    ]
    return run(NAME, cases, measure, repetitions=profile.repetitions, scratch=scratch, alternate=True)


# every public function above refuses bad arguments with a clear exception
checked(globals())
