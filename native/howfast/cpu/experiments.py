"""The cpu subject's experiments: memory latency by working set (pointer chasing over a
random cycle), memory bandwidth (read, write, copy; one thread and all), and the costs of
locks, atomics, system calls, context switches and thread creation; the cross-checks are
in ``crosscheck``.

Every native loop hands back a count or a checksum, and ``measure`` checks it against
what the loop was asked to do before a number is stored.
"""

from __future__ import annotations

import os

from .. import _native
from ..bench import Case, Outcome, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from ..store import Writer
from . import crosscheck

#: The shape of what this subject stores; bump it when its cases, ids or metrics change.
SCHEMA = 1

LATENCY = "latency"
BANDWIDTH = "bandwidth"
COSTS = "costs"
VS_PERF_PIPE = crosscheck.VS_PERF_PIPE
VS_SYSBENCH = crosscheck.VS_SYSBENCH
VS_PERF_MEMCPY = crosscheck.VS_PERF_MEMCPY

#: Every cost measured, by id (the chapter's words are in report.py), with the native
#: call, its keyword arguments, the count it takes, and how many operations one count is.
#: A ping-pong round trip is two context switches.
OPERATIONS: dict[str, tuple[str, dict, str]] = {
    "mutex": ("mutex_lock_unlock", {"threads": 1}, "ops"),
    "mutex_contended": ("mutex_lock_unlock", {"threads": 2}, "ops"),
    "atomic": ("atomic_increments", {"threads": 1}, "ops"),
    "atomic_shared": ("atomic_increments", {"threads": 2, "shared_line": True}, "ops"),
    "atomic_separate": ("atomic_increments", {"threads": 2, "shared_line": False}, "ops"),
    "getppid": ("syscall_loop", {"kind": "getppid"}, "ops"),
    "clock_gettime": ("syscall_loop", {"kind": "clock_gettime"}, "ops"),
    "pipe_same_cpu": ("pipe_pingpong", {"same_cpu": True}, "round_trips"),
    "pipe_any_cpu": ("pipe_pingpong", {"same_cpu": False}, "round_trips"),
    "futex_same_cpu": ("futex_pingpong", {"same_cpu": True}, "round_trips"),
    "futex_any_cpu": ("futex_pingpong", {"same_cpu": False}, "round_trips"),
    "yield_same_cpu": ("yield_pingpong", {}, "round_trips"),
    "thread_create": ("thread_create", {}, "threads_created"),
}
PINGPONGS = ("pipe_same_cpu", "pipe_any_cpu", "futex_same_cpu", "futex_any_cpu", "yield_same_cpu")


def cpu_mhz(cpuinfo: str | None = None) -> float | None:
    """The clock /proc/cpuinfo reports for the first CPU (MHz), or None."""
    if cpuinfo is None:
        try:
            with open("/proc/cpuinfo") as f:
                cpuinfo = f.read()
        except OSError:
            return None
    for line in cpuinfo.splitlines():
        if line.startswith("cpu MHz"):
            try:
                return float(line.partition(":")[2])
            except ValueError:
                return None
    return None


def measure_latency(case: Case, scratch: Scratch | None) -> Outcome:
    """ns (and cycles at the reported clock) per dependent load in one working set."""
    r = _native.pointer_chase(case["working_set"], case["loads"])
    if r["ops"] != case["loads"] or not 0 <= r["checksum"] < case["working_set"] // 64:
        raise RuntimeError(f"pointer chase did {r['ops']} loads ending at line {r['checksum']}")
    ns = r["elapsed_ns"] / r["ops"]
    metrics = {"ns_per_load": (ns, "ns")}
    mhz = cpu_mhz()
    if mhz:
        metrics["cycles_per_load"] = (ns * mhz / 1e3, "cycles")
    return Outcome(metrics)


def expected_checksum(kind: str, buffer_bytes: int, passes: int, threads: int) -> int:
    """What ``memory_bandwidth`` must hand back (the buffer holds word i = i)."""
    words = buffer_bytes // 8 // threads * threads
    if kind == "read":
        return (words * (words - 1) // 2 * passes) % 2**64
    if kind == "write":
        return words * passes % 2**64  # the last pass wrote `passes` into every word
    return (words * (words - 1) // 2) % 2**64


def measure_bandwidth(case: Case, scratch: Scratch | None) -> Outcome:
    """GB/s (10^9 bytes) of one sequential read, write or copy over the buffer."""
    r = _native.memory_bandwidth(case["kind"], case["buffer_bytes"], case["passes"], threads=case["threads"])
    want = expected_checksum(case["kind"], case["buffer_bytes"], case["passes"], case["threads"])
    if r["checksum"] != want or r["ops"] != case["buffer_bytes"] * case["passes"]:
        raise RuntimeError(f"{case['kind']} moved {r['ops']} bytes with checksum {r['checksum']}, expected {want}")
    return Outcome({"gb_per_s": (r["ops"] / r["elapsed_ns"], "GB/s")})


def measure_cost(case: Case, scratch: Scratch | None) -> Outcome:
    """ns per operation (and per context switch for the ping-pongs)."""
    name, kwargs, _ = OPERATIONS[case["operation"]]
    fn = getattr(_native, name)
    r = fn(kwargs["kind"], case["count"]) if name == "syscall_loop" else fn(case["count"], **kwargs)
    threads = kwargs.get("threads", 1)
    want = case["count"] * (threads if name in ("mutex_lock_unlock", "atomic_increments") else 1)
    counted = r["checksum"] if name != "syscall_loop" else want  # a system call's checksum sums its results
    if r["ops"] != want or counted != want:
        raise RuntimeError(f"{case['operation']}: {r['ops']} operations, checksum {r['checksum']}, expected {want}")
    per = r["elapsed_ns"] / case["count"]  # per operation of one thread (they run side by side)
    metrics = {"ns_per_op": (per, "ns"), "ops_per_s": (1e9 / per, "ops/s")}
    if case["operation"] in PINGPONGS:
        metrics["ns_per_switch"] = (per / 2, "ns")
    return Outcome(metrics)


def latency_cases(profile: Profile) -> list[dict]:
    plan = profile.cpu
    return [{"working_set": ws, "loads": plan.loads} for ws in plan.working_sets]


def bandwidth_cases(profile: Profile) -> list[dict]:
    plan = profile.cpu
    threads = sorted({1, os.cpu_count() or 1})
    return [
        {"kind": k, "threads": t, "buffer_bytes": plan.bandwidth_bytes, "passes": plan.bandwidth_passes}
        for k in ("read", "write", "copy")
        for t in threads
    ]


def cost_cases(profile: Profile) -> list[dict]:
    plan = profile.cpu
    counts = {"ops": plan.ops, "round_trips": plan.round_trips, "threads_created": plan.threads_created}
    return [{"operation": op, "count": counts[unit]} for op, (_, _, unit) in OPERATIONS.items()]


def measure(profile: Profile, out: Writer) -> None:
    """The subject's experiments in one scratch dir, each handed to `out`."""
    with Scratch(need_bytes=0) as scratch:
        out.record_facts(scratch.path)
        out.details["cpu_mhz"] = cpu_mhz()
        out.details["tools"] = crosscheck.tool_versions()
        reps = profile.repetitions
        out.add(run(LATENCY, latency_cases(profile), measure_latency, repetitions=reps, scratch=scratch))
        out.add(run(BANDWIDTH, bandwidth_cases(profile), measure_bandwidth, repetitions=reps, scratch=scratch))
        out.add(run(COSTS, cost_cases(profile), measure_cost, repetitions=reps, scratch=scratch))
        out.add(crosscheck.versus_perf_pipe(profile, scratch))
        out.add(crosscheck.versus_sysbench(profile, scratch))
        out.add(crosscheck.versus_perf_memcpy(profile, scratch))


# every public function above refuses bad arguments with a clear exception
checked(globals())
