"""Cross-checks: the same job through a standard tool, beside ours.

fio runs the durable-write jobs of the fsync chapter with the same block size, count,
sync method and O_DIRECT flag, on a file it first lays out (``--overwrite=1``), which
is our ``overwrite`` layout. Cases alternate ours / fio so that drift in a noisy disk
touches both.
"""

from __future__ import annotations

import json
import shutil
import subprocess

from . import fsync
from .bench import Case, Outcome, Run, Unsupported, run
from .profiles import Profile, current_profile
from .scratch import Scratch

#: fio options for each of our durable-write methods.
FIO_OPTIONS: dict[str, list[str]] = {
    "write + fsync": ["--fsync=1"],
    "write + fdatasync": ["--fdatasync=1"],
    "O_DSYNC write": ["--sync=dsync"],
    "O_DIRECT | O_DSYNC write": ["--sync=dsync", "--direct=1"],
}
NAME = "fsync_vs_fio"


def fio_version() -> str | None:
    exe = shutil.which("fio")
    if exe is None:
        return None
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
    return out.stdout.strip() or None


def fio_durable_writes(scratch: Scratch, method: str, block_size: int, writes: int) -> dict[str, float]:
    """Run fio's sync engine on `writes` blocks; its IOPS is durable writes per second."""
    if method not in FIO_OPTIONS:
        raise ValueError(f"no fio equivalent for method {method!r}; choose from {sorted(FIO_OPTIONS)}")
    exe = shutil.which("fio")
    if exe is None:
        raise Unsupported("fio is not installed (apt-get install fio)")
    path = scratch.file("fio")
    command = [exe, "--name=durable", f"--filename={path}", "--rw=write", f"--bs={block_size}",
               f"--size={block_size * writes}", "--ioengine=sync", "--overwrite=1", "--output-format=json",
               *FIO_OPTIONS[method]]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    finally:
        scratch.remove(path)
    if done.returncode != 0:
        raise RuntimeError(f"fio failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    job = json.loads(done.stdout[done.stdout.index("{"):])["jobs"][0]
    write = job["write"]
    if write["total_ios"] != writes:
        raise RuntimeError(f"fio wrote {write['total_ios']} blocks, expected {writes}")
    return {"writes_per_s": float(write["iops"])}


def _measure(case: Case, scratch: Scratch) -> Outcome:
    if case["tool"] == "fio":
        got = fio_durable_writes(scratch, case["method"], case["block_size"], case["writes"])
        return Outcome({"writes_per_s": (got["writes_per_s"], "writes/s")})
    ours = fsync.measure_writes({**case, "layout": "overwrite"}, scratch)
    return Outcome({"writes_per_s": ours.metrics["writes_per_s"]})


def durable_writes_vs_fio(profile: Profile | None = None, scratch: Scratch | None = None) -> Run:
    """Ours and fio, alternating, on each method of ``FIO_OPTIONS``."""
    plan = (profile or current_profile()).fsync
    cases = [
        {"method": m, "tool": tool, "block_size": plan.block_size, "writes": plan.crosscheck_writes}
        for m in FIO_OPTIONS
        for tool in ("howfast", "fio")
    ]
    return run(NAME, cases, _measure, repetitions=(profile or current_profile()).repetitions, scratch=scratch)
