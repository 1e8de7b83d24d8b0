"""The cpu subject: the pointer chase follows one cycle through every line, the bandwidth
loops move the bytes they report, the ping-pongs count every round trip, bad arguments
raise ValueError, the tools' outputs parse, and the chapter's sentences read right."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import numpy as np
import polars as pl
import pytest

from howfast import _native
from howfast.bench import Unsupported
from howfast.cpu import crosscheck, report
from howfast.cpu import experiments as cpu


@pytest.mark.parametrize("n", [2, 3, 10, 1000, 65536])
def test_sattolo_is_one_cycle_through_every_element(n: int) -> None:
    nxt = _native.sattolo_cycle(n, seed=n)
    assert sorted(nxt.tolist()) == list(range(n))  # a permutation
    seen, i = set(), 0
    for _ in range(n):
        assert i not in seen
        seen.add(i)
        i = int(nxt[i])
    assert i == 0 and len(seen) == n  # back at the start after exactly n steps
    assert not np.any(nxt == np.arange(n))  # no element points to itself


def test_pointer_chase_ends_where_the_cycle_says() -> None:
    ws, loads = 64 * 64, 1000
    got = _native.pointer_chase(ws, loads, seed=7)
    nxt = _native.sattolo_cycle(ws // 64, seed=7)
    i = 0
    for _ in range(loads):  # the warm-up lap is a whole cycle: it ends where it started
        i = int(nxt[i])
    assert got["ops"] == loads and got["checksum"] == i and got["elapsed_ns"] > 0


@pytest.mark.parametrize("kind", ["read", "write", "copy"])
@pytest.mark.parametrize("threads", [1, 2])
def test_bandwidth_moves_the_bytes_it_reports(kind: str, threads: int) -> None:
    size, passes = 1 << 20, 3
    got = _native.memory_bandwidth(kind, size, passes, threads=threads)
    assert got["ops"] == size * passes
    assert got["checksum"] == cpu.expected_checksum(kind, size, passes, threads)


@pytest.mark.parametrize("same_cpu", [True, False])
def test_pingpongs_count_every_round_trip(same_cpu: bool) -> None:
    for fn in (_native.pipe_pingpong, _native.futex_pingpong):
        got = fn(300, same_cpu=same_cpu)
        assert got["ops"] == 300 and got["checksum"] == 300
    got = _native.yield_pingpong(300)
    assert got["ops"] == 300 and got["checksum"] == 300


def test_pingpongs_leave_no_descriptor_child_or_pinning_behind() -> None:
    import os

    fds, affinity = set(os.listdir("/proc/self/fd")), os.sched_getaffinity(0)
    for _ in range(20):
        _native.pipe_pingpong(10, same_cpu=True)
        _native.futex_pingpong(10, same_cpu=True)
        _native.yield_pingpong(10)
    assert set(os.listdir("/proc/self/fd")) == fds
    assert os.sched_getaffinity(0) == affinity
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # every ping-pong child was reaped


def test_locks_atomics_threads_count_their_work() -> None:
    assert _native.mutex_lock_unlock(1000, threads=2)["checksum"] == 2000
    assert _native.atomic_increments(1000, threads=2, shared_line=True)["checksum"] == 2000
    assert _native.atomic_increments(1000, threads=2, shared_line=False)["checksum"] == 2000
    assert _native.thread_create(5)["checksum"] == 5
    assert _native.syscall_loop("getppid", 10)["ops"] == 10


# A fresh process (no thread stacks cached yet) runs the call under an address-space limit
# that leaves room for `stacks` thread stacks (8 MiB each: RLIMIT_STACK) more than it holds
# now: the first thread past them cannot start. Then the limit goes, and the same loop
# runs to its end.
THREAD_START_SCRIPT = """
import json, resource, sys
from howfast import _native
call, stacks = sys.argv[1], int(sys.argv[2])
STACK = 8 << 20
with open("/proc/self/status") as f:
    vm_size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (vm_size + stacks * STACK + STACK // 2, resource.RLIM_INFINITY))
try:
    eval(call)
    error = None
except BaseException as e:
    error = [isinstance(e, OSError), getattr(e, "errno", None), f"{type(e).__name__}: {e}"]
resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
print(json.dumps({"error": error, "after": eval(call)["checksum"]}))
"""


def _eight_mib_stacks() -> None:
    resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, resource.getrlimit(resource.RLIMIT_STACK)[1]))


@pytest.mark.parametrize(
    ("call", "stacks"),
    [
        ("_native.atomic_increments(1000, threads=2)", 1),  # run_together: its second worker
        ("_native.mutex_lock_unlock(1000, threads=2)", 0),  # run_together: its first worker
        ("_native.thread_create(10)", 0),
        ("_native.futex_pingpong(10)", 0),
    ],
)
def test_a_thread_that_cannot_start_is_an_os_error_with_errno(call: str, stacks: int) -> None:
    child = subprocess.run(
        [sys.executable, "-c", THREAD_START_SCRIPT, call, str(stacks)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_eight_mib_stacks,
    )
    assert child.returncode == 0, child.stderr[-2000:]  # std::terminate aborted the process before
    got = json.loads(child.stdout)
    assert got["error"] is not None, f"{call} started every thread under the limit"
    os_error, errno, message = got["error"]  # EAGAIN: BlockingIOError, an OSError
    assert os_error and errno is not None and errno > 0 and "thread" in message, got
    assert got["after"] > 0, got  # the started workers were joined: the loop runs again


def test_bad_arguments_raise_value_error_naming_them() -> None:
    cases = [
        (lambda: _native.sattolo_cycle(1), "n"),
        (lambda: _native.pointer_chase(100, 10), "working_set"),
        (lambda: _native.pointer_chase(64, 10), "working_set"),
        (lambda: _native.pointer_chase(4096, 0), "loads"),
        (lambda: _native.memory_bandwidth("scan", 1 << 20, 1), "kind"),
        (lambda: _native.memory_bandwidth("read", 1000, 1), "buffer_bytes"),
        (lambda: _native.memory_bandwidth("read", 1 << 20, 0), "passes"),
        (lambda: _native.memory_bandwidth("read", 1 << 20, 1, threads=0), "threads"),
        (lambda: _native.mutex_lock_unlock(0), "ops"),
        (lambda: _native.atomic_increments(-1), "ops"),
        (lambda: _native.syscall_loop("fork", 10), "kind"),
        (lambda: _native.pipe_pingpong(0), "round_trips"),
        (lambda: _native.futex_pingpong(0), "round_trips"),
        (lambda: _native.yield_pingpong(0), "round_trips"),
        (lambda: _native.thread_create(0), "count"),
    ]
    for call, name in cases:
        with pytest.raises(ValueError, match=name):
            call()


def test_every_operation_measures_and_checks() -> None:
    for op in cpu.OPERATIONS:
        count = 5 if op == "thread_create" else 200
        got = cpu.measure_cost({"operation": op, "count": count}, None).metrics
        assert got["ns_per_op"][0] > 0
        assert ("ns_per_switch" in got) == (op in cpu.PINGPONGS)


def test_cpu_mhz_and_cache_levels() -> None:
    assert cpu.cpu_mhz("processor : 0\ncpu MHz\t\t: 2596.134\n") == pytest.approx(2596.134)
    assert cpu.cpu_mhz("nothing here") is None
    assert report.cache_levels({"caches": "L1d 48K, L1i 32K, L2 1024K, L3 32768K"}) == [
        ("L1", 48 * 1024),
        ("L2", 1 << 20),
        ("L3", 32 << 20),
    ]
    assert report.cache_levels({}) == []


def test_tool_output_parsing_and_missing_tools(monkeypatch: pytest.MonkeyPatch) -> None:
    assert crosscheck.parse_perf_pipe("Total time: 0.137 [sec]\n\n       6.887450 usecs/op\n") == pytest.approx(6.88745)
    assert crosscheck.parse_sysbench_memory("2048.00 MiB transferred (8188.54 MiB/sec)") == pytest.approx(8188.54)
    assert crosscheck.parse_perf_memcpy("# Copying 64MB bytes ...\n\n       2.708935 GB/sec\n") == pytest.approx(
        2.708935 * 2**30
    )
    for parse in (crosscheck.parse_perf_pipe, crosscheck.parse_sysbench_memory, crosscheck.parse_perf_memcpy):
        with pytest.raises(ValueError):
            parse("perf_event_open failed")
    monkeypatch.setattr(crosscheck.shutil, "which", lambda name: None)
    with pytest.raises(Unsupported, match="apt-get install linux-perf"):
        crosscheck._tool("perf", "linux-perf")


def _frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema_overrides={"value": pl.Float64, "note": pl.String})


def test_sentences_every_branch() -> None:
    lat = _frame([
        {"working_set": ws, "loads": 10, "repetition": 0, "metric": "ns_per_load", "value": v, "unit": "ns",
         "note": None}
        for ws, v in ((4096, 1.0), (1 << 28, 100.0))
    ])  # fmt: skip
    assert "100× as long" in report.ladder_sentence(lat)
    assert report.ladder_sentence(lat.head(1)).startswith("One working set")
    assert report.ladder_sentence(lat.head(0)) == "The pointer chase could not run here."
    costs = _frame([
        {"operation": op, "count": 10, "repetition": 0, "metric": "ns_per_op", "value": v, "unit": "ns", "note": None}
        for op, v in (("atomic_shared", 30.0), ("atomic_separate", 3.0))
    ])  # fmt: skip
    assert "10× slower than" in report.false_sharing_sentence(costs)
    assert "could not both run" in report.false_sharing_sentence(costs.head(1))


def test_seed_table_has_the_seeds_rows() -> None:
    lat = _frame([
        {"working_set": ws, "loads": 10, "repetition": 0, "metric": "ns_per_load", "value": 1.0, "unit": "ns",
         "note": None}
        for ws in (4096, 1 << 20)
    ])  # fmt: skip
    bw = _frame([{"kind": "read", "threads": 1, "repetition": 0, "metric": "gb_per_s", "value": 10.0, "unit": "GB/s",
                  "note": None}])  # fmt: skip
    costs = _frame([{"operation": "mutex", "count": 1, "repetition": 0, "metric": "ns_per_op", "value": 5.0,
                     "unit": "ns", "note": None}])  # fmt: skip
    table = report.seed_table(lat, bw, costs, {"caches": "L1d 32K, L2 1024K", "memory_bytes": 1 << 30})
    assert table["type"].to_list()[:3] == ["L1", "L2", "RAM"]
    assert table.filter(pl.col("type") == "RAM")["throughput here"][0] == "10 GB/s read"
    mutex = table.filter(pl.col("type") == report.COST_NAMES["mutex"]).row(0, named=True)
    assert mutex["latency here (ns)"] == 5.0 and mutex["laptop throughput"] == "6 ns"
