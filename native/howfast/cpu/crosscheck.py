"""The cpu subject beside the standard tools, ours and theirs alternating run by run:

* process context switches: our pipe ping-pong (two processes, not pinned) beside
  ``perf bench sched pipe -l N`` (the same: two processes, two pipes; its "usecs/op" is
  one round trip);
* memory bandwidth: our one-thread sequential read beside ``sysbench memory
  --memory-oper=read --memory-access-mode=seq`` with one block of our buffer's size (its
  "MiB/sec" is 2^20 bytes per second);
* memcpy: our one-thread copy beside ``perf bench mem memcpy -f default`` on the same size
  (its "GB/sec" divides by 2^30; we convert to 10^9).

A tool that is missing, or not allowed to run (perf under a strict
``perf_event_paranoid`` or seccomp), makes its rows unsupported with the reason.
"""

from __future__ import annotations

import re
import shutil
import subprocess

from .. import _native
from .. import crosscheck as general
from ..bench import Case, Run, Unsupported
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch

VS_PERF_PIPE = "vs_perf_pipe"
VS_SYSBENCH = "vs_sysbench"
VS_PERF_MEMCPY = "vs_perf_memcpy"

_USECS_OP = re.compile(r"([\d.]+)\s+usecs/op")
_MIB_SEC = re.compile(r"\(([\d.]+) MiB/sec\)")
_PER_SEC = re.compile(r"([\d.]+)\s+([KMGT]?B)/sec")
_UNITS = {"B": 1, "KB": 2**10, "MB": 2**20, "GB": 2**30, "TB": 2**40}


def _tool(name: str, package: str) -> str:
    exe = shutil.which(name)
    if exe is None:
        raise Unsupported(f"{name} is not installed (apt-get install {package})")
    return exe


def _run(command: list[str], what: str) -> str:
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        raise Unsupported(f"{what} could not run: {(done.stderr or done.stdout).strip()[-200:]}")
    return done.stdout + done.stderr


def parse_perf_pipe(text: str) -> float:
    """Microseconds per round trip from ``perf bench sched pipe``."""
    found = _USECS_OP.search(text)
    if not found:
        raise ValueError(f"no usecs/op in perf bench sched pipe output: {text.strip()[:300]!r}")
    return float(found.group(1))


def parse_sysbench_memory(text: str) -> float:
    """MiB/s from ``sysbench memory``'s "... MiB transferred (N MiB/sec)" line."""
    found = _MIB_SEC.search(text)
    if not found:
        raise ValueError(f"no MiB/sec in sysbench output: {text.strip()[:300]!r}")
    return float(found.group(1))


def parse_perf_memcpy(text: str) -> float:
    """Bytes per second from ``perf bench mem memcpy`` (its units are powers of 1024)."""
    found = _PER_SEC.findall(text)
    if not found:
        raise ValueError(f"no B/sec figure in perf bench mem memcpy output: {text.strip()[:300]!r}")
    value, unit = found[-1]
    return float(value) * _UNITS[unit]


def versus_perf_pipe(profile: Profile, scratch: Scratch) -> Run:
    """Round trips per second: our pipe ping-pong and ``perf bench sched pipe``."""
    n = profile.cpu.round_trips

    def theirs(case: Case) -> float:
        exe = _tool("perf", "linux-perf")
        return 1e6 / parse_perf_pipe(_run([exe, "bench", "sched", "pipe", "-l", str(n)], "perf bench sched pipe"))

    def ours(case: Case) -> float:
        r = _native.pipe_pingpong(n, same_cpu=False)
        return r["ops"] / (r["elapsed_ns"] / 1e9)

    cases = [{"job": "pipe ping-pong", "round_trips": n, "tool": t} for t in ("howfast", "perf")]
    return general.versus(
        VS_PERF_PIPE,
        "perf",
        cases,
        theirs,
        ours,
        "round_trips_per_s",
        "round trips/s",
        repetitions=profile.repetitions,
        scratch=scratch,
    )


def versus_sysbench(profile: Profile, scratch: Scratch) -> Run:
    """MiB/s of one thread reading sequentially: ours and ``sysbench memory``."""
    plan = profile.cpu

    def theirs(case: Case) -> float:
        exe = _tool("sysbench", "sysbench")
        command = [exe, "memory", f"--memory-block-size={plan.bandwidth_bytes}",
                   f"--memory-total-size={plan.sysbench_bytes}", "--memory-oper=read",
                   "--memory-access-mode=seq", "--threads=1", "run"]  # fmt: skip
        return parse_sysbench_memory(_run(command, "sysbench memory"))

    def ours(case: Case) -> float:
        passes = max(1, plan.sysbench_bytes // plan.bandwidth_bytes)
        r = _native.memory_bandwidth("read", plan.bandwidth_bytes, passes, threads=1)
        return r["ops"] / (r["elapsed_ns"] / 1e9) / 2**20

    cases = [{"job": "sequential read, 1 thread", "buffer_bytes": plan.bandwidth_bytes, "tool": t}
             for t in ("howfast", "sysbench")]  # fmt: skip
    return general.versus(
        VS_SYSBENCH,
        "sysbench",
        cases,
        theirs,
        ours,
        "mib_per_s",
        "MiB/s",
        repetitions=profile.repetitions,
        scratch=scratch,
    )


def versus_perf_memcpy(profile: Profile, scratch: Scratch) -> Run:
    """GB/s (10^9) of one thread's memcpy: ours and ``perf bench mem memcpy``."""
    plan = profile.cpu
    size_mib = plan.bandwidth_bytes // 2**20

    def theirs(case: Case) -> float:
        exe = _tool("perf", "linux-perf")
        command = [exe, "bench", "mem", "memcpy", "-f", "default", "-s", f"{size_mib}MB", "-l", str(plan.memcpy_loops)]
        return parse_perf_memcpy(_run(command, "perf bench mem memcpy")) / 1e9

    def ours(case: Case) -> float:
        r = _native.memory_bandwidth("copy", size_mib * 2**20, plan.memcpy_loops, threads=1)
        return r["ops"] / r["elapsed_ns"]

    cases = [{"job": "memcpy, 1 thread", "buffer_bytes": size_mib * 2**20, "tool": t} for t in ("howfast", "perf")]
    return general.versus(
        VS_PERF_MEMCPY,
        "perf",
        cases,
        theirs,
        ours,
        "gb_per_s",
        "GB/s",
        repetitions=profile.repetitions,
        scratch=scratch,
    )


def tool_versions() -> dict[str, str | None]:
    return general.tool_versions({"perf": ["--version"], "sysbench": ["--version"]})


# every public function above refuses bad arguments with a clear exception
checked(globals())
