"""The storage subject beside fio: the rows of the engine matrix that fio can run the
same way (same engine, pattern, block size, depth, O_DIRECT flag), alternating with ours.
"""

from __future__ import annotations

from pathlib import Path

from ..bench import Case, Outcome, Run, run
from ..checks import checked
from ..crosscheck import run_fio
from ..profiles import Profile
from ..scratch import Scratch

NAME = "vs_fio"
_FIO_ENGINES = {"sync": "psync", "aio": "posixaio", "io_uring": "io_uring"}


def disk_crosscheck_cases(profile: Profile) -> list[dict]:
    """The rows checked against fio: sequential read and write, random 4 KiB reads,
    and the io_uring rows (O_DIRECT, so neither tool measures the page cache)."""
    from .experiments import io_case

    plan = profile.storage
    size, big = plan.fio_file_size, plan.matrix_block_size
    rows = [
        io_case(engine="sync", op="read", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="sync", op="write", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="sync", op="write", fsync=True, block_size=big, file_size=size),
        io_case(
            engine="sync", pattern="random", op="read", direct=True, cache="n/a", block_size=4096, file_size=size // 4
        ),
        io_case(engine="aio", op="read", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="io_uring", op="read", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(
            engine="io_uring", pattern="random", op="read", direct=True, cache="n/a", block_size=big, file_size=size
        ),
        io_case(engine="io_uring", op="write", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="io_uring", op="write", fsync=True, direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(
            engine="io_uring",
            pattern="random",
            op="read",
            direct=True,
            cache="n/a",
            block_size=4096,
            file_size=plan.fio_qd32_file_size,
            queue_depth=32,
        ),
    ]
    return [{**row, "tool": tool} for row in rows for tool in ("howfast", "fio")]


def fio_io(scratch: Scratch, case: Case, read_file: Path | None) -> dict[str, float]:
    """Run one disk case through fio; returns its ops/s and MB/s."""
    if case["jobs"] != 1 or case["op"] == "readwrite":
        raise ValueError("the fio cross-check runs single jobs of reads or writes")
    rw = ("rand" if case["pattern"] == "random" else "") + case["op"]
    path = read_file if case["op"] == "read" else scratch.file("fio-write")
    options = [
        "--name=check",
        f"--rw={rw}",
        f"--bs={case['block_size']}",
        f"--size={case['file_size']}",
        f"--ioengine={_FIO_ENGINES[case['engine']]}",
        f"--iodepth={case['queue_depth']}",
        f"--direct={int(case['direct'])}",
        "--fallocate=none",
        *(["--fsync=1"] if case["fsync"] else []),
    ]
    job = run_fio(scratch, path, options, remove=case["op"] != "read")
    side = job[case["op"]]
    if side["io_bytes"] != case["file_size"]:
        raise RuntimeError(f"fio moved {side['io_bytes']} bytes, expected {case['file_size']}")
    sync_mean = job.get("sync", {}).get("lat_ns", {}).get("mean", 0.0) if case["fsync"] else 0.0
    return {
        "ops_per_s": float(side["iops"]),
        "mb_per_s": float(side["bw_bytes"]) / 1e6,
        "mean_us": (side["lat_ns"]["mean"] + sync_mean) / 1e3,
    }


def versus_fio(profile: Profile, scratch: Scratch, files: object) -> Run:
    """Ours and fio, alternating, on the rows of ``disk_crosscheck_cases``; `files` holds
    the prepared read files both tools read."""
    from . import experiments

    if not isinstance(files, experiments.Files):
        raise TypeError(f"versus_fio(): files must be the experiments' Files, got {type(files).__name__}")

    def measure(case: Case, s: Scratch) -> Outcome:
        experiments.check_capabilities(case, s.path)
        if case["tool"] == "howfast":
            ours = experiments.measure_io(case, s, files)
            return Outcome({k: ours.metrics[k] for k in ("ops_per_s", "mb_per_s", "mean")})
        read_file = Path(f"{files.for_reading(case['file_size'], 1)}.0") if case["op"] == "read" else None
        got = fio_io(s, case, read_file)
        return Outcome(
            {
                "ops_per_s": (got["ops_per_s"], "ops/s"),
                "mb_per_s": (got["mb_per_s"], "MB/s"),
                "mean": (got["mean_us"], "us"),
            }
        )

    cases = disk_crosscheck_cases(profile)
    return run(NAME, cases, measure, repetitions=profile.storage.fio_repetitions, scratch=scratch, alternate=True)


# every public function above refuses bad arguments with a clear exception
checked(globals())
