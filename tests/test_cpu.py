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
    assert "sharing made each increment 10× slower (10× within the two intervals)" in (
        report.false_sharing_sentence(costs)
    )
    assert "could not both run" in report.false_sharing_sentence(costs.head(1))


# --- the chapter's sentences, branch by branch (fake sets: each case's values are its runs) ---

CACHES = {"machine": "elsewhere", "cache_levels": [
    {"name": "L1d", "size": 32 << 10, "shared_by": 1}, {"name": "L1i", "size": 32 << 10, "shared_by": 1},
    {"name": "L2", "size": 1 << 20, "shared_by": 1}, {"name": "L3", "size": 32 << 20, "shared_by": 2}]}  # fmt: skip
PAGES = {"page_size": 4096, "thp": "madvise"}


def _runs(key: str, metric: str, unit: str, cases: dict) -> pl.DataFrame:
    """One row per run: {case value: [run values]} for one case column `key`."""
    return _frame([
        {key: k, "repetition": i, "metric": metric, "value": float(v), "unit": unit, "note": None}
        for k, values in cases.items() for i, v in enumerate(values)
    ])  # fmt: skip


def _lat(cases: dict) -> pl.DataFrame:
    return _runs("working_set", "ns_per_load", "ns", cases)


def _est(m: float, lo: float | None = None, hi: float | None = None):
    from howfast.stats import Estimate

    return Estimate(m, m if lo is None else lo, m if hi is None else hi, 3)


KiB, MiB = 1 << 10, 1 << 20


def test_plateaus_every_branch() -> None:
    rising = [(4 * KiB, _est(1)), (64 * KiB, _est(4)), (1 * MiB, _est(12))]
    assert report.plateaus(rising) == []
    flat = [(4 * KiB, _est(1.0, 0.98, 1.02)), (16 * KiB, _est(1.05, 1.0, 1.1)), (64 * KiB, _est(4, 3.9, 4.1)),
            (256 * KiB, _est(4.2, 4.1, 4.3)), (1 * MiB, _est(12))]  # fmt: skip
    found = report.plateaus(flat)
    assert [(p.first, p.last, p.points) for p in found] == [(4 * KiB, 16 * KiB, 2), (64 * KiB, 256 * KiB, 2)]
    overlapping = [(4 * KiB, _est(1, 1, 4)), (16 * KiB, _est(1.2, 1, 9))]  # medians close, runs too spread
    assert report.plateaus(overlapping) == []
    drifting = [(16 * MiB, _est(731, 725, 737)), (64 * MiB, _est(882, 875, 890)), (256 * MiB, _est(1080, 1070, 1090))]
    assert [(p.first, p.last) for p in report.plateaus(drifting)] == [(16 * MiB, 64 * MiB)]  # not 731–1,080 as level
    tight = [(4 * KiB, _est(1.0)), (16 * KiB, _est(1.02))]  # runs do not overlap, but 2 % is level ground
    assert len(report.plateaus(tight)) == 1 and report.step(_est(1.02), _est(1.0)).direction == "same"
    assert report.step(_est(3), _est(1)).direction == "higher" and report.step(None, _est(1)).direction == "missing"
    assert report.plateaus([]) == [] and report.plateaus(rising[:1]) == []
    with pytest.raises(ValueError, match="sorted"):
        report.plateaus(list(reversed(rising)))
    with pytest.raises(TypeError):
        report.plateaus([(4096, 1.0)])


def test_plateau_sentence_every_branch() -> None:
    assert report.plateau_sentence(_lat({4 * KiB: [1]}).head(0), CACHES) == "The pointer chase could not run here."
    assert "one working set" in report.plateau_sentence(_lat({4 * KiB: [1]}), CACHES)
    none = report.plateau_sentence(_lat({4 * KiB: [1, 1, 4], 16 * KiB: [1, 1.2, 9], 64 * KiB: [10, 11, 12]}), CACHES)
    assert none.startswith("No two neighbouring working sets took clearly within 25 % of each other's time")
    assert none.endswith("so this run cannot confirm a plateau.")
    one = report.plateau_sentence(_lat({4 * KiB: [1, 1, 1], 16 * KiB: [1.05, 1.05, 1.05], 64 * KiB: [5, 5, 5]}),
                                  CACHES)  # fmt: skip
    assert one.startswith(
        "This run shows 1 plateau, stretches where each working set took within 25 % of the one before (the whole "
        "range of their ratio) and the slowest within 25 % of the fastest: 1–1.05 ns per load from 4 KiB to 16 KiB"
    )
    assert "fit in the L1d (32 KiB, one per core)" in one
    vm = {**CACHES, "hypervisor": "yes"}
    l3 = _lat({4 * MiB: [50, 50, 50], 8 * MiB: [51, 51, 51]})
    assert "working sets that fit in the L3 (32 MiB, shared by this VM's 2 CPUs and, on the host, perhaps by " \
        "others)" in report.plateau_sentence(l3, vm)  # fmt: skip
    assert "working sets that fit in the L3 (32 MiB, shared by 2 CPUs)" in report.plateau_sentence(l3, CACHES)
    past = report.plateau_sentence(_lat({64 * MiB: [90, 90, 90], 256 * MiB: [95, 95, 95]}), CACHES)
    assert "larger than every cache" in past
    across = report.plateau_sentence(_lat({16 * KiB: [1, 1, 1], 64 * KiB: [1.1, 1.1, 1.1]}), CACHES)
    assert "different levels (L1d, L2)" in across and "no step between them" in across
    unknown = report.plateau_sentence(_lat({4 * KiB: [1, 1, 1], 16 * KiB: [1, 1, 1]}), {})
    assert "no cache sizes" in unknown and "2 plateaus" not in unknown
    # a working set the size of a level counts in that level: one level, not '(L2, about the L2's size)'
    edge = report.plateau_sentence(_lat({256 * KiB: [5, 5, 5], 1 * MiB: [5.5, 5.5, 5.5]}), CACHES)
    assert "from 256 KiB to 1 MiB, working sets that fit in the L2 (1 MiB, one per core)" in edge
    assert "different levels" not in edge and "about" not in edge
    beyond = report.plateau_sentence(_lat({16 * MiB: [50, 50, 50], 64 * MiB: [52, 52, 52]}), CACHES)
    assert "different levels (L3, no cache)" in beyond


def test_inside_and_beyond_sentences_every_branch() -> None:
    rise = _lat({64 * KiB: [4, 4, 4], 512 * KiB: [40, 40, 40]})
    assert (
        "within the L2's 1 MiB, latency rose from 4 ns at 64 KiB to 40 ns at 512 KiB (10×; 10× within the two "
        "intervals)" in report.inside_sentence(rise, CACHES)
    )
    l3 = _lat({4 * MiB: [50, 50, 50], 64 * MiB: [90, 90, 90]})
    assert (
        "at 4 MiB, inside the L3's 32 MiB, a load already took 50 ns, clearly more than half the 90 ns at 64 MiB"
        in (report.inside_sentence(l3, CACHES))
    )
    open_ = _lat({4 * MiB: [30, 45, 60], 64 * MiB: [90, 90, 90]})
    assert (
        "at 4 MiB, inside the L3's 32 MiB, a load already took 45 ns, not clearly under half the 90 ns at 64 MiB"
        in (report.inside_sentence(open_, CACHES))
    )
    assert report.inside_sentence(_lat({4 * MiB: [20, 20, 20], 64 * MiB: [90, 90, 90]}), CACHES).startswith("Within")
    assert report.inside_sentence(_lat({64 * KiB: [4, 4, 4], 512 * KiB: [5, 5, 5]}), CACHES).startswith(
        "Within each cache level's size, no working set took clearly more than twice"
    )
    assert report.inside_sentence(_lat({64 * KiB: [4, 4, 4]}), {}) == ""
    # the runs of the larger working set split between a cache's time and a far load's: the median rose 10×,
    # the range of the ratio starts near 1, and the L3's largest point (not its smallest) meets RAM's
    split = report.inside_sentence(
        _lat({4 * MiB: [12.3, 13, 15.6], 16 * MiB: [15.7, 130, 142], 64 * MiB: [153, 158, 176]}), CACHES
    )
    assert (
        "within the L3's 32 MiB, latency rose from 13 ns at 4 MiB to 130 ns at 16 MiB by the medians (10×), but the "
        "runs at 16 MiB split, from 15.7 to 142 ns, so the rise may be as small as 1.01×, perhaps because the "
        "cache served some runs and not others" in split
    )
    assert "at 16 MiB, inside the L3's 32 MiB, a load already took 130 ns, not clearly under half the 158 ns" in split
    assert report.beyond_sentence(_lat({4 * KiB: [1]}).head(0), CACHES).startswith("No working set was measured")
    assert "no cache sizes" in report.beyond_sentence(rise, {})
    assert "no point past the caches" in report.beyond_sentence(rise, CACHES)
    one = report.beyond_sentence(_lat({1 * MiB: [4, 4, 4], 64 * MiB: [90, 90, 90]}), CACHES, PAGES)
    assert one.startswith("Only the 64 MiB working set lies past the L3 (32 MiB, shared by 2 CPUs)")
    guest = report.beyond_sentence(_lat({1 * MiB: [4, 4, 4], 64 * MiB: [90, 90, 90]}), {**CACHES, "hypervisor": "yes"})
    assert guest.startswith(
        "Only the 64 MiB working set lies past the L3 (32 MiB, shared by this VM's 2 CPUs and, on the host, perhaps "
        "by others)"
    )
    rising = _lat({64 * MiB: [90, 90, 90], 256 * MiB: [120, 120, 120]})
    text = report.beyond_sentence(rising, CACHES, PAGES)
    assert "latency still rose: 90 ns at 64 MiB, 120 ns at 256 MiB, 1.3× as long (1.3× within the two" in text
    # a clear 20 % rise between tight runs is a rise past the caches, not the plateau's level ground
    tight = report.beyond_sentence(_lat({64 * MiB: [99, 100, 101], 256 * MiB: [119, 120, 121]}), CACHES, PAGES)
    assert "latency still rose: 100 ns at 64 MiB, 120 ns at 256 MiB, 1.2× as long (1.2× within" in tight
    assert "65,536 of them" in text and "'madvise'" in text and "not a measurement" in text
    assert "(8 bytes per page: 512 KiB of last-level entries at 256 MiB)" in text
    few = report.beyond_sentence(rising, CACHES, {"page_size": 2 * MiB, "thp": "never"})
    assert "cannot say why" in few and "TLB holds" not in few
    assert "was not recorded" in report.beyond_sentence(rising, CACHES, {})
    # THP 'always' (or its mode unrecorded): the base-page count may be wrong, so no count and no TLB reasoning
    always = report.beyond_sentence(rising, CACHES, {"page_size": 4096, "thp": "always"})
    assert "transparent huge pages are 'always' here, so the kernel may have backed the buffer with 2 MiB pages" in (
        always
    )
    assert "so how many pages 256 MiB spans is not known" in always and "cannot say why" in always
    assert "TLB" not in always and "65,536" not in always
    unrecorded = report.beyond_sentence(rising, CACHES, {"page_size": 4096, "thp": None})
    assert "whether transparent huge pages backed the buffer was not recorded" in unrecorded
    assert "TLB" not in unrecorded
    # the TLB's size is a typical one, not this machine's
    assert "a few thousand entries is a typical size; this machine's was not read" in text
    same = report.beyond_sentence(_lat({64 * MiB: [89, 90, 91], 256 * MiB: [90, 91, 92]}), CACHES, PAGES)
    assert "stayed about the same" in same
    fell = report.beyond_sentence(_lat({64 * MiB: [90, 90, 90], 256 * MiB: [60, 60, 60]}), CACHES, PAGES)
    assert "latency fell" in fell and "cannot say" in fell
    unclear = report.beyond_sentence(_lat({64 * MiB: [50, 90, 130], 256 * MiB: [60, 100, 140]}), CACHES, PAGES)
    assert "did not clearly rise or stay level" in unclear


def test_latency_table_and_step_words() -> None:
    from howfast import claims

    table = report.latency_table(_lat({16 * KiB: [1, 1, 1], 64 * KiB: [4, 4, 4], 64 * MiB: [90, 90, 90]}), CACHES)
    assert table["fits in"].to_list() == ["L1d", "L2", "no cache"]
    assert table["against the previous"].to_list() == ["", "4× slower", "22× slower"]
    assert report.level_name(4096, []) == "unknown"
    assert report.step_words(claims.Comparison("same", 1.01, 0.99, 1.03)) == "within 25 % (1.01×)"
    assert report.step_words(claims.Comparison("lower", 0.5, 0.4, 0.6)) == "2× faster (1.7–2.5×)"
    # intervals that only just part: the range shows how small the step may be
    assert report.step_words(claims.Comparison("higher", 8.3, 1.0009, 11.6)) == "1.001–12× slower (8.3× by the medians)"
    assert report.step_words(claims.Comparison("lower", 0.2, 0.1, 0.99)) == "1.01–10× faster (5× by the medians)"
    assert report.step_words(claims.Comparison("unclear", 1.2, 0.8, 1.5)) == "intervals overlap (1.2×)"
    assert report.step_words(claims.Comparison("missing")) == ""


def test_miss_and_threads_sentences() -> None:
    far = report.miss_sentence(_lat({16 * KiB: [1, 1, 1], 256 * MiB: [100, 100, 100]}), CACHES)
    assert (
        "took 100 ns (100–100 ns): as long as 100 loads from the L1d (1 ns at a 16 KiB working set; 100× within "
        "the two intervals)" in far
    )
    overlap = report.miss_sentence(_lat({16 * KiB: [1, 1, 50], 256 * MiB: [2, 40, 100]}), CACHES)
    assert "; against a load from the L1d (1 ns at a 16 KiB working set) that is not clearly longer or shorter" in (
        overlap
    )
    assert "cannot say that far loads are slower" in overlap
    assert "no pair" in report.miss_sentence(_lat({64 * KiB: [4]}), CACHES)
    bw = pl.concat([
        _runs("kind", "gb_per_s", "GB/s", {k: v}).with_columns(threads=pl.lit(t))
        for k, t, v in (("read", 1, [5, 5, 5]), ("read", 2, [9, 9, 9]), ("write", 1, [4, 4, 4]),
                        ("write", 2, [4, 4, 4]), ("copy", 1, [3, 3, 3]), ("copy", 2, [1, 3, 9]))
    ])  # fmt: skip
    text = report.threads_sentence(bw)
    assert text.startswith(
        "With 2 threads, reads were 1.8× faster than one thread; writes were about as fast as one thread (1×)"
    )
    assert (
        "copies were not clearly faster or slower than one thread (1× by the medians, but the intervals overlap)"
        in text
    )
    assert "Only 1 thread ran" in report.threads_sentence(bw.filter(pl.col("threads") == 1))
    assert report.threads_sentence(bw.head(0)) == "The bandwidth loops could not run here."


def _versus(tool: str, metric: str, ours: list, theirs: list, job: str = "j") -> pl.DataFrame:
    return _frame([
        {"job": job, "tool": t, "repetition": i, "metric": metric, "value": float(v), "unit": "u", "note": None}
        for t, values in (("howfast", ours), (tool, theirs)) for i, v in enumerate(values)
    ])  # fmt: skip


def test_same_loop_and_crosscheck_sentences() -> None:
    bw = pl.concat([
        _runs("kind", "gb_per_s", "GB/s", {k: v}).with_columns(threads=pl.lit(1))
        for k, v in (("read", [6, 6, 6]), ("copy", [3, 3, 3]))
    ])  # fmt: skip
    mib = 1e9 / 2**20  # 1 GB/s in MiB/s
    same = report.same_loop_sentence(bw, _versus("sysbench", "mib_per_s", [6 * mib] * 3, [5 * mib] * 3),
                                     _versus("perf", "gb_per_s", [1, 3, 9], [3, 3, 3]), read_passes=16,
                                     sweep_passes=4)  # fmt: skip
    assert (
        "the one-thread read ran at 6 GB/s (6–6) in the sweep and 6 GB/s (6–6) beside sysbench (16 passes over the "
        "buffer instead of the sweep's 4): about the same" in same
    )
    assert (
        "one-thread memcpy ran at 3 GB/s (3–3) in the sweep and 3 GB/s (1–9) beside perf: 1× by the medians, but "
        "the intervals overlap" in same
    )
    assert "are the sweep's" in same and "(and for the read how many passes)" in same
    moved = report.same_loop_sentence(bw, _versus("sysbench", "mib_per_s", [9 * mib] * 3, [5 * mib] * 3),
                                      _versus("perf", "gb_per_s", [1], [1]).head(0))  # fmt: skip
    assert "beside sysbench: clearly higher, 1.5×." in moved and "memcpy" not in moved
    near = report.claims.again_words(
        report.claims.compare(report.Estimate(6.64, 6.58, 6.71, 3), report.Estimate(6.24, 6.17, 6.3, 3))
    )
    assert near == "higher, 1.06× (1.04–1.09×)"  # the ratio inside its printed range; a near end within 5 %
    assert "only when they ran differs, so a difference between them is the machine at that moment" in moved
    empty = _versus("perf", "gb_per_s", [1], [1]).head(0)
    assert "from the sweep alone" in report.same_loop_sentence(bw.head(0), empty, empty)
    converted = report.to_gb_per_s(_versus("sysbench", "mib_per_s", [mib], [mib]))
    assert converted["metric"].unique().to_list() == ["gb_per_s"] and converted["value"].to_list() == pytest.approx(
        [1, 1]
    )
    higher = report.crosscheck_sentence("pipe ping-pong", _versus("perf", "r", [15, 15, 15], [10, 10, 10]), "perf",
                                        "perf bench sched pipe", "r")  # fmt: skip
    assert higher == "Our pipe ping-pong is 1.5× faster than perf bench sched pipe (1.5×)."
    agrees = report.crosscheck_sentence("read", _versus("s", "r", [10, 10, 10], [10, 10, 10]), "s", "sysbench", "r")
    assert "agrees with sysbench" in agrees
    none = _frame([{"job": "j", "tool": "perf", "repetition": 0, "metric": "unsupported", "value": None, "unit": None,
                    "note": "perf is not installed"}])  # fmt: skip
    assert report.crosscheck_sentence("memcpy", none, "perf", "perf bench mem memcpy", "gb_per_s") == (
        "Beside our memcpy, perf bench mem memcpy could not run here (perf is not installed)."
    )


def _costs(cases: dict, metric: str = "ns_per_op") -> pl.DataFrame:
    return _runs("operation", metric, "ns", cases)


def test_cost_sentences_every_branch() -> None:
    assert "5× slower than alone: the lock's cache line may travel between the cores" in report.contention_sentence(
        _costs({"mutex": [10, 10, 10], "mutex_contended": [50, 50, 50]})
    )
    assert "cannot tell whether the line's travel" in report.contention_sentence(
        _costs({"mutex": [10, 10, 10], "mutex_contended": [5, 10, 60]})
    )
    assert "could not both run" in report.contention_sentence(_costs({"mutex": [10]}))
    bounded = report.contention_sentence(pl.concat([
        _costs({"mutex": [10, 10, 10], "mutex_contended": [50, 50, 50]}),
        _costs({"futex_any_cpu": [2000, 2000, 2000]}, "ns_per_switch"),
    ]))  # fmt: skip
    assert "lock and unlock, which may be little more than an atomic instruction each" in bounded
    assert bounded.endswith("A lock that sleeps costs at least a wake-up, 2 µs (2–2 µs) here (the futex wake-up "
                            "row's ns per switch), so at most about one lock in 40 can have slept (the slowest lock "
                            "time against the fastest wake-up within their intervals); the rest may have been taken "
                            "while the line moved, or after a short spin.")  # fmt: skip
    # the bound from the intervals' ends, in whole locks: 1,000 / 70 ns is one lock in 14, not 2,000 / 60 (33.3)
    spread = report.contention_sentence(pl.concat([
        _costs({"mutex": [10, 10, 10], "mutex_contended": [50, 60, 70]}),
        _costs({"futex_any_cpu": [1000, 2000, 3000]}, "ns_per_switch"),
    ]))  # fmt: skip
    assert "so at most about one lock in 14 can have slept (the slowest" in spread and "33" not in spread
    # the medians 40× apart, but the intervals allow a wake-up no longer than a lock: no bound is said
    loose = report.contention_sentence(pl.concat([
        _costs({"mutex": [10, 10, 10], "mutex_contended": [40, 50, 400]}),
        _costs({"futex_any_cpu": [300, 2000, 2100]}, "ns_per_switch"),
    ]))  # fmt: skip
    assert "can have slept" not in loose and loose.endswith("or how often).")
    # a bound under two locks says nothing: not 'one lock in 1.2'
    near = report.contention_sentence(pl.concat([
        _costs({"mutex": [10, 10, 10], "mutex_contended": [50, 50, 50]}),
        _costs({"futex_any_cpu": [60, 60, 60]}, "ns_per_switch"),
    ]))  # fmt: skip
    assert "can have slept" not in near and "one lock in 1" not in near
    shared = report.false_sharing_sentence(_costs({"atomic_shared": [30, 30, 30], "atomic_separate": [3, 3, 3]}))
    assert shared.startswith("Two threads incrementing one shared counter took 30 ns per increment, and the same "
                             "threads each incrementing a counter of its own, on a cache line of its own, 3 ns: "
                             "sharing made each increment 10× slower")  # fmt: skip
    assert "(false sharing) would likely pay the same trip, which this run does not measure" in shared
    assert "The shared counter's line may travel between the cores, though not at every increment" in shared
    # where the two threads ran is not known, told as the machine that measured places them
    assert "and which cores the two threads ran on is not known: they may even share one core" in shared
    bare = report.false_sharing_sentence(
        _costs({"atomic_shared": [30, 30, 30], "atomic_separate": [3, 3, 3]}), {"hypervisor": "none detected"}
    )
    assert "which cores the two threads ran on is not known" in bare and "hypervisor" not in bare
    guest = report.false_sharing_sentence(
        _costs({"atomic_shared": [30, 30, 30], "atomic_separate": [3, 3, 3]}), {"hypervisor": "yes (KVM)"}
    )
    assert "where the hypervisor placed the two vCPUs is not known" in guest
    with pytest.raises(TypeError, match="facts"):
        report.false_sharing_sentence(_costs({"atomic_shared": [3]}), "KVM")  # type: ignore[arg-type]
    unclear = report.false_sharing_sentence(_costs({"atomic_shared": [3, 30, 60], "atomic_separate": [3, 3, 3]}))
    assert (
        ": not clearly slower or faster (10× by the medians, but the intervals overlap), so this run does not show"
        in unclear
    )
    same = report.false_sharing_sentence(_costs({"atomic_shared": [2.95, 3, 3.05], "atomic_separate": [2.98, 3, 3.02]}))
    assert ": about the same (1×), so this run does not show the cost of moving a cache line" in same
    lower = report.false_sharing_sentence(_costs({"atomic_shared": [1, 1, 1], "atomic_separate": [3, 3, 3]}))
    assert ": 3× faster with the shared counter (3×), so this run does not show" in lower
    faster = report.vdso_sentence(_costs({"getppid": [76, 76, 76], "clock_gettime": [50, 50, 50]}))
    assert "clock_gettime took 50 ns, 1.5× faster than it, as the vDSO would make it: clock_gettime goes" in faster
    assert "where the clocksource allows it" in faster and "does not check which path it took." in faster
    # under half the cheapest kernel entry measured: it cannot have entered the kernel
    vdso = report.vdso_sentence(_costs({"getppid": [76, 76, 76], "clock_gettime": [20, 20, 20]}))
    assert "clock_gettime took 20 ns, 3.8× faster than it: clock_gettime goes through the vDSO" in vdso
    assert vdso.endswith("under half the cheapest entry into the kernel measured here, it cannot have entered the "
                         "kernel: the vDSO answered it.")  # fmt: skip
    not_faster = report.vdso_sentence(_costs({"getppid": [76, 76, 76], "clock_gettime": [20, 80, 200]}))
    assert ": this run does not show a saving; clock_gettime goes through the vDSO" in not_faster
    assert not_faster.endswith("does not check which path it took, so it cannot say why.")
    slower = report.vdso_sentence(_costs({"getppid": [76, 76, 76], "clock_gettime": [300, 300, 300]}))
    assert "slower than it: this run does not show a saving" in slower
    assert "could not both run" in report.vdso_sentence(_costs({"getppid": [76]}))
    caps = report.caps_sentence(
        pl.concat([_costs({"getppid": [76, 76, 76]}), _costs({"futex_any_cpu": [2500, 2500, 2500]}, "ns_per_switch")])
    )
    assert (
        "paid 76 ns (76–76 ns) per item for that alone here, which caps it near 13.2 million items per second per "
        "core (13.2 million–13.2 million)" in caps
    )
    assert (
        "paid a futex wake-up per item, 2.5 µs (2.5–2.5 µs), which caps the pair near 400,000 items per second" in caps
    )
    assert caps.startswith("A design") and caps.endswith(
        "before any work is done. These are wall-clock costs, which count any time other programs took the CPU, so on "
        "a busy machine the caps read low."
    )
    assert "((" not in caps and "busy machine, so a quiet" not in caps
    one = report.caps_sentence(_costs({"futex_any_cpu": [1000, 2000, 4000]}, "ns_per_switch"))
    assert one.startswith("One that hands each item to another thread paid a futex wake-up per item, 2 µs (1–4 µs)")
    assert "(250,000–1 million)" in one
    assert report.caps_sentence(_costs({"mutex": [1]})) == "The system-call and wake-up loops could not run here."


def test_seed_table_compares_only_like_with_like() -> None:
    lat = _lat({16 * KiB: [1, 1, 1], 256 * KiB: [4, 4, 4], 256 * MiB: [100, 100, 100]})
    bw = _runs("kind", "gb_per_s", "GB/s", {"read": [10, 10, 10]}).with_columns(threads=pl.lit(1))
    costs = pl.concat([
        _costs({"mutex": [6, 6, 6], "getppid": [500, 500, 500]}),
        _costs({"pipe_same_cpu": [1000, 1000, 1000], "futex_same_cpu": [1000, 3000, 9000],
                "yield_same_cpu": [2000, 2000, 2000]}, "ns_per_switch"),
    ])  # fmt: skip
    table = report.seed_table(lat, bw, costs, {**CACHES, "memory_bytes": 1 << 30})
    rows = {r["what"]: r for r in table.iter_rows(named=True)}
    assert list(rows)[:5] == ["L1d", "L2", "L3", "RAM, latency", "RAM, read bandwidth"]
    assert rows["L1d"]["here"] == "32 KiB (one per core); 1 ns per load at a 16 KiB working set (1–1 ns, 3 runs)"
    assert rows["L1d"]["laptop (seed 000, as printed)"] == "64KB, 3 cycles, 4TB/s"
    assert rows["L3"]["here"].endswith("no working set measured at most half its size")
    for level in ("L1d", "L2", "L3", "RAM, latency", "RAM, read bandwidth"):
        assert rows[level]["compared"].startswith("not comparable")
    assert rows["RAM, read bandwidth"]["here"] == "10 GB/s sequential read, 1 thread (10–10 GB/s, 3 runs)"
    names = report.COST_NAMES
    assert rows[names["mutex"]]["compared"].startswith("not comparable: the seed names neither its lock nor")
    assert rows[names["getppid"]]["compared"] == (
        "not comparable: the seed does not name its call; ours is getppid through syscall(), about "
        "the cheapest call that enters the kernel; what entering the kernel costs depends on the kernel's version "
        "and its side-channel mitigations (in a virtual machine, also on which CPU features the hypervisor exposes; "
        "the call itself does not exit to the hypervisor) as much as on the CPU"
    )
    assert "at most" not in rows[names["pipe_same_cpu"]]["compared"]
    assert rows[names["getppid"]]["here"] == "500 ns per call (500–500 ns, 3 runs)"
    assert rows[names["pipe_same_cpu"]]["compared"].startswith(
        "not comparable: the seed does not say how its processes handed over"
    )
    assert rows[names["pipe_same_cpu"]]["here"] == "1 µs per switch (1–1 µs, 3 runs)"
    assert rows[names["futex_same_cpu"]]["compared"].startswith(
        "not comparable: both hand over through a futex, but the seed does not say whether its threads shared a CPU"
    )
    assert not any("slower than the laptop" in r["compared"] or "faster than the laptop" in r["compared"]
                   for r in rows.values())  # fmt: skip
    assert rows[names["yield_same_cpu"]]["compared"] == (
        "not comparable: the seed's 374 ns is 0.17 of its own futex switch (2.2 µs); here a yield that switches "
        "(both threads pinned to one CPU) costs 0.67 of a futex switch, so its yields most likely returned without "
        "switching (a thread alone on its CPU has no one to yield to); ours pins both threads to one CPU, so each "
        "yield switches"
    )
    # a cache level's row passes over a working set whose median took a far load's time, and names it
    split = report.seed_table(
        _lat({16 * KiB: [1, 1, 1], 4 * MiB: [12.3, 13, 15.6], 16 * MiB: [15.7, 130, 142], 64 * MiB: [153, 158, 176]}),
        bw, costs, {**CACHES},
    )  # fmt: skip
    l3 = split.filter(pl.col("what") == "L3")["here"][0]
    assert "13 ns per load at a 4 MiB working set (12.3–15.6 ns, 3 runs)" in l3
    assert l3.endswith("; not the 16 MiB working set, whose loads took 130 ns (15.7–142 ns), slower than a cache "
                       "hit by its median: it may have been served by RAM (the L3 is shared; see the latency "
                       "section)")  # fmt: skip
    # no page size recorded for this set: page walks are a possibility, not a finding
    assert split.filter(pl.col("what") == "RAM, latency")["here"][0].endswith(
        ", which may include page walks (this run cannot say)"
    )
    # without our futex switch, only the seed's own share is given
    alone = report.seed_table(lat, bw, costs.filter(pl.col("operation") != "futex_same_cpu"), {**CACHES})
    said = alone.filter(pl.col("what") == names["yield_same_cpu"])["compared"][0]
    assert said.startswith("not comparable: the seed's 374 ns is 0.17 of its own futex switch (2.2 µs), so its")


def test_memory_facts_only_for_the_measuring_machine() -> None:
    from howfast.machine import machine_id

    assert report.memory_facts({"machine": "another-machine"}) == {}
    here = report.memory_facts({"machine": machine_id()})
    assert here["page_size"] > 0 and "thp" in here
    recorded = {"machine": "another-machine", "page_size": 16384, "transparent_hugepages": "always"}
    assert report.memory_facts(recorded) == {"page_size": 16384, "thp": "always"}  # the measuring machine's


def test_latency_chart_sizes_in_binary_units_and_no_fixed_width() -> None:
    import json

    from howfast import charts

    spec = report.latency_chart(_lat({4 * KiB: [1, 1, 1], 64 * MiB: [90, 90, 90]}), CACHES).to_dict()
    text = json.dumps(spec)
    assert charts.SIZE_LABEL.replace("'", "\\'") in text or "MiB" in text
    assert '"width"' not in text and "hconcat" not in text
    assert "L3 32 MiB" in text and "L1i" not in text
    assert "unavailable" not in text
    empty = report.latency_chart(_lat({4 * KiB: [1]}).head(0), CACHES).to_dict()
    assert "pointer chase" in json.dumps(empty)


def test_article_agrees_with_the_spoken_number() -> None:
    assert report.article("16 KiB") == "a 16 KiB"
    assert report.article("8 MiB") == "an 8 MiB" and report.article("80 KiB") == "an 80 KiB"
    assert report.article("11 KiB") == "an 11 KiB" and report.article("18 MiB") == "an 18 MiB"
    assert report.article("1 MiB") == "a 1 MiB" and report.article("116 KiB") == "a 116 KiB"


def test_same_pipe_sentence_every_branch() -> None:
    costs = pl.concat([_costs({"pipe_any_cpu": [100_000, 100_000, 100_000]}, "ops_per_s"),
                       _costs({"pipe_any_cpu": [10_000, 10_000, 10_000]})])  # fmt: skip
    same = report.same_pipe_sentence(costs, _versus("perf", "round_trips_per_s", [100_000] * 3, [90_000] * 3))
    assert (
        "10 µs per round trip in the cost table, which is 100,000 round trips per second (100,000–100,000), and "
        "100,000 per second (100,000–100,000) beside perf: about the same" in same
    )
    assert "the chapter's figure is the cost table's" in same
    higher = report.same_pipe_sentence(costs, _versus("perf", "round_trips_per_s", [240_000] * 3, [90_000] * 3))
    assert "beside perf: clearly higher, 2.4×." in higher
    spread = report.same_pipe_sentence(costs, _versus("perf", "round_trips_per_s", [50_000, 120_000, 300_000], [1] * 3))
    assert "1.2× by the medians, but the intervals overlap" in spread
    empty = _versus("perf", "round_trips_per_s", [1], [1]).head(0)
    assert "ran once only" in report.same_pipe_sentence(costs, empty)
    bw = _runs("kind", "gb_per_s", "GB/s", {"read": [6, 6, 6]}).with_columns(threads=pl.lit(1))
    mib = 1e9 / 2**20
    one = report.same_loop_sentence(bw, _versus("sysbench", "mib_per_s", [6 * mib] * 3, [5 * mib] * 3), empty)
    assert one.startswith("One loop appears twice")


def test_inside_sentence_with_one_working_set_per_level() -> None:
    one_each = _lat({4 * KiB: [1, 1, 1], 64 * KiB: [4, 4, 4], 4 * MiB: [900, 900, 900]})
    assert report.inside_sentence(one_each, CACHES) == (
        "No cache level holds two of the working sets measured, so this run shows no rise within one."
    )


def test_costs_table_leaves_switch_blank_where_nothing_switches() -> None:
    costs = pl.concat([_costs({"mutex": [10, 10, 10], "pipe_same_cpu": [2000, 2000, 2000]}),
                       _costs({"pipe_same_cpu": [1000, 1000, 1000]}, "ns_per_switch")])  # fmt: skip
    rows = {r["operation"]: r for r in report.costs_table(costs).iter_rows(named=True)}
    assert rows[report.COST_NAMES["mutex"]]["ns per switch"] == ""
    assert rows[report.COST_NAMES["pipe_same_cpu"]]["ns per switch"] == "1,000"


def test_miss_sentence_names_the_level_the_far_working_set_fits_in() -> None:
    ram = report.miss_sentence(_lat({16 * KiB: [1, 1, 1], 256 * MiB: [100, 100, 100]}), CACHES)
    assert "pay a far load at every step" in ram and "past the caches" not in ram
    inside = report.miss_sentence(_lat({16 * KiB: [1, 1, 1], 16 * MiB: [40, 40, 40]}), CACHES)
    assert inside.startswith(
        "A load at the largest working set, 16 MiB (it fits in the L3, 32 MiB, by size, so that cache may have "
        "served it), took 40 ns (40–40 ns): as long as 40 loads from the L1d"
    )
    assert "This run measured no working set past the caches, so it gives no load from RAM." in inside
    assert "pay a load from wherever their nodes live at every step;" in inside and "far load at" not in inside
    edge = report.miss_sentence(_lat({16 * KiB: [1, 1, 1], 32 * MiB: [60, 60, 60]}), CACHES)
    assert "32 MiB (the L3's size, 32 MiB, so the cache may have served part of it and RAM the rest), took" in edge
    not_slower = report.miss_sentence(_lat({16 * KiB: [1, 1, 50], 16 * MiB: [2, 40, 100]}), CACHES)
    assert not_slower.endswith("this run cannot say that far loads are slower. This run measured no working set "
                               "past the caches, so it gives no load from RAM.")  # fmt: skip
    busy = report.miss_sentence(_lat({16 * KiB: [1, 1, 1], 16 * MiB: [500, 500, 500]}), CACHES)
    assert "far above what a load from a cache usually takes" in busy and "from RAM usually" not in busy
    assert "pay a load from wherever their nodes live at every step, whatever it costs on a quiet machine;" in busy


def test_miss_sentence_says_the_far_figure_is_an_upper_bound_on_a_busy_machine() -> None:
    far = report.miss_sentence(_lat({16 * KiB: [1, 1, 1], 256 * MiB: [100, 100, 100]}), CACHES)
    assert "so on a busy machine that ratio is an upper bound" in far
    overlap = report.miss_sentence(_lat({16 * KiB: [1, 1, 50], 256 * MiB: [2, 40, 100]}), CACHES)
    assert "upper bound" not in overlap


def test_buffer_sentence_every_branch() -> None:
    past = report.buffer_sentence(128 * MiB, CACHES)
    assert past == (
        "The 128 MiB buffer is larger than every cache of the machine that measured (its L3 holds 32 MiB, shared by "
        "2 CPUs), so every pass streams from RAM."
    )
    inside = report.buffer_sentence(16 * MiB, CACHES)
    assert inside.startswith("The 16 MiB buffer fits in the L3 of the machine that measured (32 MiB, shared by 2 CPUs)")
    assert "not RAM" in inside
    assert "cannot say" in report.buffer_sentence(128 * MiB, {"machine": "elsewhere", "cache_levels": []})
    vm = {**CACHES, "hypervisor": "yes"}
    assert report.buffer_sentence(128 * MiB, vm) == (
        "The 128 MiB buffer is larger than every cache of the machine that measured (its L3 holds 32 MiB, shared by "
        "this VM's 2 CPUs and, on the host, perhaps by others), so every pass streams from RAM."
    )
    assert report.buffer_sentence(16 * MiB, vm).startswith(
        "The 16 MiB buffer fits in the L3 of the machine that measured (32 MiB, shared by this VM's 2 CPUs and, on "
        "the host, perhaps by others) by size, so these loops may measure that cache, not RAM."
    )
    # a buffer the level's size: the cache may have served part of it, so not clearly RAM's rate, nor the cache's
    assert report.buffer_sentence(32 * MiB, CACHES) == (
        "The 32 MiB buffer is the size of the L3 of the machine that measured (32 MiB, shared by 2 CPUs), so the "
        "cache may have served part of each pass and RAM the rest: these rates are not clearly RAM's."
    )
    assert "(1 MiB, one per core)" in report.buffer_sentence(512 * KiB, vm)


# --- issue 20: every figure with its interval and run count; every branch of the sentences ---

NB = "\u00a0"  # the unstable mark's spaces do not break in a narrow column


def _mark(width: int) -> str:
    return f"; unstable:{NB}±{width}{NB}%"


def test_latency_curve_and_chart_carry_the_interval_of_the_median() -> None:
    import json

    lat = _lat({4 * KiB: [1, 2, 9], 64 * MiB: [90, 91, 92]})
    curve = report.latency_curve(lat)
    row = curve.row(0, named=True)
    assert (row["median"], row["lo"], row["hi"], row["repetitions"]) == (2, 1, 9, 3)
    assert "min" not in curve.columns and "max" not in curve.columns
    spec = json.dumps(report.latency_chart(lat, CACHES).to_dict())
    assert '"field": "lo"' in spec and '"field": "hi"' in spec and '"title": "runs"' in spec


def test_latency_table_cells_with_interval_runs_and_unstable_mark() -> None:
    table = report.latency_table(_lat({4 * KiB: [1, 1, 1], 16 * KiB: [1, 1.1, 2], 64 * MiB: [90, 90, 90, 90]}), CACHES,
                                 0.1)  # fmt: skip
    assert table.columns == ["working set", "fits in", "ns per load", "interval", "runs", "against the previous"]
    assert table.rows() == [
        ("4 KiB", "L1d", 1.0, "1–1", 3, ""),
        ("16 KiB", "L1d", 1.1, "1–2" + f"; unstable:{NB}−9{NB}%/+82{NB}%", 3, "intervals overlap (1.1×)"),
        ("64 MiB", "no cache", 90.0, "90–90", 4, "82× slower (45–90×)"),
    ]
    assert report.latency_table(_lat({4 * KiB: [1, 1.1, 2]}), CACHES)["interval"].to_list() == ["1–2"]  # no target


def test_bandwidth_table_cells_and_setup() -> None:
    bw = pl.concat([
        _runs("kind", "gb_per_s", "GB/s", {"read": v}).with_columns(threads=pl.lit(t), buffer_bytes=pl.lit(128 * MiB),
                                                                     passes=pl.lit(4))
        for t, v in ((1, [5, 5, 5]), (2, [4, 8, 12]))
    ])  # fmt: skip
    table = report.bandwidth_table(bw, 0.1)
    assert table.columns == ["kind", "threads", "GB/s", "interval", "runs"]
    assert table.rows() == [("read", 1, 5.0, "5–5", 3), ("read", 2, 8.0, "4–12" + _mark(50), 3)]
    assert report.bandwidth_setup(bw, 1, 1) == (128 * MiB, 4)  # the stored run's, not the plan's
    assert report.bandwidth_setup(bw.drop("passes"), 64 * MiB, 8) == (64 * MiB, 8)
    assert report.bandwidth_setup(bw.head(0), 64 * MiB, 8) == (64 * MiB, 8)
    assert [report.times(n) for n in (1, 2, 4)] == ["once", "twice", "4 times"]


def test_costs_table_cells_unstable_and_unsupported() -> None:
    costs = pl.concat([
        _costs({"mutex": [10, 10, 10], "pipe_same_cpu": [2000, 3000, 6000]}),
        _costs({"pipe_same_cpu": [1000, 1500, 3000]}, "ns_per_switch"),
        _frame([{"operation": "getppid", "repetition": 0, "metric": "unsupported", "value": None, "unit": None,
                 "note": "seccomp forbids it"}]),
    ], how="diagonal_relaxed")  # fmt: skip
    table = report.costs_table(costs, 0.1)
    assert table.columns == ["operation", "ns each", "interval", "runs", "ns per switch"]
    rows = {r[0]: r[1:] for r in table.rows()}
    names = report.COST_NAMES
    assert rows[names["mutex"]] == (10.0, "10–10", 3, "")
    assert rows[names["pipe_same_cpu"]] == (3000.0, f"2,000–6,000; unstable:{NB}−33{NB}%/+100{NB}%", 3, "1,500")
    assert rows[names["getppid"]] == (None, "could not run: seccomp forbids it", None, "")
    assert rows[names["futex_any_cpu"]] == (None, "not in this set", None, "")
    from howfast import tables

    shown = tables.table(table, formats={"ns each": report.fmt.num}).markdown()
    assert "| system call (getppid via syscall()) | n/a | could not run: seccomp forbids it | n/a |  |" in shown


def test_crosscheck_summary_cells() -> None:
    ok = report.Check("pipe ping-pong", "perf bench sched pipe",
                      _versus("perf", "r", [15, 15, 15], [10, 10, 10]), "perf", "r", "round trips/s")  # fmt: skip
    wide = report.Check("memcpy", "perf bench mem memcpy", _versus("perf", "g", [1, 2, 4], [2, 2, 2]), "perf", "g",
                        "GB/s")  # fmt: skip
    table = report.crosscheck_summary([ok, wide], 0.1)
    assert table.columns == ["job, beside", "ours", "tool's", "per-round ratio", "rounds", "verdict"]
    assert table.rows() == [
        ("pipe ping-pong (round trips/s), beside perf bench sched pipe", "15 (no spread)", "10 (no spread)", "1.5×", 3,
         "ours higher"),
        ("memcpy (GB/s), beside perf bench mem memcpy", "2 (1–4); unstable: −50 %/+100 %", "2 (no spread)",
         "1× (0.5–2×)", 3, "inconclusive"),
    ]  # fmt: skip
    none = _frame([{"job": "j", "tool": "perf", "repetition": 0, "metric": "unsupported", "value": None, "unit": None,
                    "note": "perf is not installed"}])  # fmt: skip
    ours_only = pl.concat([none, _versus("perf", "g", [3, 3, 3], [1]).filter(pl.col("tool") == "howfast")],
                          how="diagonal_relaxed")  # fmt: skip
    missing = report.crosscheck_summary([ok, report.Check("memcpy", "perf bench mem memcpy", ours_only, "perf", "g",
                                                           "GB/s")], 0.1)  # fmt: skip
    assert missing.columns[-1] == "note"
    assert missing.row(1) == ("memcpy (GB/s), beside perf bench mem memcpy", "3 (no spread)", "n/a", "", None, "",
                              "perf is not installed")  # fmt: skip
    assert missing.row(0)[-1] == ""
    with pytest.raises(TypeError, match="report.Check"):
        report.crosscheck_summary([("pipe", "perf")])  # type: ignore[list-item]
    assert report.side_estimate(_versus("perf", "g", [1, 2, 3], [9, 9, 9]), "g", "howfast").median == 2
    assert report.side_estimate(none, "g", "howfast") is None


def test_ladder_sentence_every_branch() -> None:
    rises = report.ladder_sentence(_lat({4 * KiB: [1, 1.1, 1.2], 256 * MiB: [100, 110, 120]}))
    assert rises == (
        "A load in the 4 KiB working set took 1.1 ns (1–1.2 ns); one in the 256 MiB working set took 110 ns "
        "(100–120 ns), 100× as long (83–120× within the two intervals)."
    )
    same = report.ladder_sentence(_lat({4 * KiB: [1, 1, 1.02], 16 * KiB: [0.99, 1, 1.01]}))
    assert same.endswith("about as long (1×).")
    shorter = report.ladder_sentence(_lat({4 * KiB: [4, 4, 4], 16 * KiB: [1, 1, 1]}))
    assert shorter.endswith("4× shorter (4× within the two intervals).")
    unclear = report.ladder_sentence(_lat({4 * KiB: [1, 2, 9], 16 * KiB: [1, 3, 9]}))
    assert unclear.endswith("not clearly longer or shorter (1.5× by the medians, but the intervals overlap).")
    assert report.ladder_sentence(_lat({4 * KiB: [1, 1, 1]})) == (
        "One working set was measured: 4 KiB, 1 ns (1–1 ns) per load."
    )
    from howfast import claims

    assert report.as_long(claims.Comparison(claims.MISSING)) == ""
    # a range just above 1 keeps its side of 1 ('1.02', never '1–1.6×')
    assert report.as_long(claims.Comparison(claims.HIGHER, 1.2, 1.017, 1.58)) == (
        "1.2× as long (1.02–1.6× within the two intervals)"
    )
    assert report.as_long(claims.Comparison(claims.LOWER, 0.5, 0.4, 0.6)) == (
        "2× shorter (1.7–2.5× within the two intervals)"
    )


def test_miss_sentence_uses_the_ladders_first_point_and_reads_right_when_far_is_faster() -> None:
    lat = _lat({4 * KiB: [1, 1, 1], 16 * KiB: [2, 2, 2], 256 * MiB: [100, 100, 100]})
    ladder, miss = report.ladder_sentence(lat), report.miss_sentence(lat, CACHES)
    assert "100× as long" in ladder and "as long as 100 loads from the L1d (1 ns at a 4 KiB working set" in miss
    faster = report.miss_sentence(_lat({4 * KiB: [10, 10, 10], 256 * MiB: [5, 5, 5]}), CACHES)
    assert "that is 2× shorter (2× within the two intervals): this run cannot say that far loads are slower" in faster
    assert "upper bound" not in faster
    # one ratio, one formatter: the ladder and the closing point print it alike (fmt.factor)
    odd = _lat({4 * KiB: [1.0, 1.0, 1.0], 256 * MiB: [98.7, 98.7, 98.7]})
    assert "99× as long" in report.ladder_sentence(odd) and "as long as 99 loads" in report.miss_sentence(odd, CACHES)
    points = report.latency_points(_lat({64 * KiB: [4, 4, 4], 1 * MiB: [9, 9, 9]}))
    assert report.first_level_point(points, report.data_caches(CACHES)) is None  # nothing in the L1d
    assert report.first_level_point([], report.data_caches(CACHES)) is None


def test_switches_sentence_every_branch() -> None:
    both = pl.concat([
        _costs({"pipe_same_cpu": [2000, 3000, 4000], "futex_same_cpu": [800, 900, 1000]}, "ns_per_switch"),
        _costs({"thread_create": [30_000, 40_000, 50_000]}),
    ])  # fmt: skip
    assert report.switches_sentence(both) == (
        "A process switch through a pipe took 3 µs (2–4 µs) per switch, a thread switch through a futex 900 ns "
        "(800–1,000 ns), and creating and joining a thread 40 µs (30–50 µs)."
    )
    part = report.switches_sentence(_costs({"thread_create": [30_000, 40_000, 50_000]}))
    assert part == (
        "Creating and joining a thread took 40 µs (30–50 µs) (a process switch through a pipe and a thread switch "
        "through a futex could not be measured here)."
    )
    assert report.switches_sentence(_costs({"mutex": [1]})) == "The switch and thread loops could not run here."
    assert "n/a" not in report.switches_sentence(_costs({"mutex": [1]}))


def test_seed_table_marks_unstable_and_says_why_a_row_is_missing() -> None:
    lat = _lat({16 * KiB: [1, 1.5, 3]})
    bw = _runs("kind", "gb_per_s", "GB/s", {"read": [10, 10, 10]}).with_columns(threads=pl.lit(1))
    costs = pl.concat([
        _costs({"mutex": [6, 6, 6]}),
        _frame([{"operation": "getppid", "repetition": 0, "metric": "unsupported", "value": None, "unit": None,
                 "note": "seccomp forbids it"}]),
    ], how="diagonal_relaxed")  # fmt: skip
    rows = {r["what"]: r for r in report.seed_table(lat, bw, costs, CACHES, 0.1).iter_rows(named=True)}
    assert rows["L1d"]["here"] == (
        "32 KiB (one per core); 1.5 ns per load at a 16 KiB working set (1–3 ns, 3 runs; unstable: −33 %/+100 %)"
    )
    names = report.COST_NAMES
    assert rows[names["getppid"]]["here"] == "could not run: seccomp forbids it"
    assert rows[names["getppid"]]["compared"] == "not measured here"
    assert rows[names["pipe_same_cpu"]]["here"] == "not in this set"


def test_unstable_sentence_every_branch() -> None:
    lat = _lat({4 * KiB: [1, 1, 1], 16 * KiB: [1, 2, 4]})
    bw = _runs("kind", "gb_per_s", "GB/s", {"read": [5, 5, 5]}).with_columns(threads=pl.lit(1))
    costs = _costs({"mutex": [10, 20, 40]})
    some = report.unstable_sentence(lat, bw, costs, 0.1)
    assert some.startswith(
        "Of the figures of the latency, bandwidth and cost tables, 2 of the 4 stayed wider than ±10 % of their "
        "median, the profile's target (after 3 runs each; marked unstable)"
    )
    assert "are read from the intervals and allow for that spread" in some
    every = report.unstable_sentence(lat.filter(pl.col("working_set") == 4 * KiB), bw, costs.head(0), 0.1)
    assert every == (
        "Every figure of the latency, bandwidth and cost tables came within ±10 % of its median, the profile's "
        "target (after 3 runs each)."
    )
    assert report.unstable_sentence(lat, bw.head(0), costs.head(0), 0.1).startswith(
        "Of the figures of the latency, bandwidth and cost tables, 1 of the 2"
    )
    all_wide = report.unstable_sentence(lat.filter(pl.col("working_set") == 16 * KiB), bw.head(0), costs, 0.1)
    assert "cost tables, all 2 stayed wider" in all_wide
    mixed = pl.concat([lat, _lat({64 * KiB: [3, 3, 3, 3, 3]})])
    assert "(after 3 to 5 runs;" in report.unstable_sentence(mixed, bw, costs, 0.1)
    assert report.unstable_sentence(lat, bw, costs, None) == (  # a fixed-count profile has no target
        "This profile runs each case a fixed number of times, with no target for the intervals: every figure of the "
        "latency, bandwidth and cost tables is the median of 3 runs, its interval beside it."
    )
    assert report.unstable_sentence(lat.head(0), bw.head(0), costs.head(0), 0.1) == (
        "None of the latency, bandwidth and cost tables could be measured here."
    )


def test_a_latency_far_above_its_cache_or_ram_is_disturbed() -> None:
    # the disturbed quick set: 543 ns inside the L3, 1,080 ns past it
    busy = _lat({4 * KiB: [1.08, 1.09, 1.11], 256 * KiB: [12, 26, 27], 1 * MiB: [60, 101, 130],
                 4 * MiB: [519, 543, 575], 256 * MiB: [1060, 1080, 1530]})  # fmt: skip
    caches = report.data_caches(CACHES)
    assert [ws for ws, e in report.latency_points(busy) if report.implausible(ws, e, caches)] == [4 * MiB, 256 * MiB]
    assert report.plausibility_sentence(busy, CACHES) == (
        "Some loads took far longer than even a load from RAM usually takes (543 ns at 4 MiB, 1,080 ns at 256 MiB): "
        "this book's rule of thumb, typical of current x86 CPUs and not measured here, is under 400 ns, page walk "
        "included, and each of these intervals lies wholly above it. The wall clock may have counted time the CPU "
        "spent on other work during those runs, so these 2 figures are likely disturbed, not the memory's latency: "
        "the sentences below build nothing on them."
    )
    one = report.plausibility_sentence(_lat({4 * KiB: [1, 1, 1], 256 * MiB: [1060, 1080, 1530]}), CACHES)
    assert "and this interval lies wholly above it" in one and "during its runs, so this working set's figure is" in one
    assert one.endswith("the sentences below build nothing on it.")
    assert report.ladder_sentence(busy, CACHES) == (
        "A load in the 4 KiB working set took 1.09 ns (1.08–1.11 ns); one in the 256 MiB working set read 1,080 ns "
        "(1,060–1,530 ns), a figure too far above what memory usually takes to compare (below)."
    )
    # the smallest working set disturbed, the largest not: the sentence names the smallest
    first = _lat({4 * MiB: [519, 543, 575], 256 * MiB: [110, 120, 130]})
    assert report.ladder_sentence(first, CACHES) == (
        "A load in the 4 MiB working set took 543 ns (519–575 ns), a figure too far above what memory usually takes "
        "to compare (below); one in the 256 MiB working set took 120 ns (110–130 ns)."
    )
    both = _lat({4 * MiB: [519, 543, 575], 256 * MiB: [1060, 1080, 1530]})
    assert report.ladder_sentence(both, CACHES) == (
        "A load in the 4 MiB working set took 543 ns (519–575 ns); one in the 256 MiB working set took 1,080 ns "
        "(1,060–1,530 ns): both figures lie too far above what memory usually takes to compare (below)."
    )
    assert "4 MiB" not in report.inside_sentence(busy, CACHES)  # nothing built on the disturbed point
    assert report.beyond_sentence(busy, CACHES, PAGES) == (
        "Past the L3 (32 MiB, shared by 2 CPUs), this run's loads (1,080 ns at 256 MiB) took far longer than a load "
        "from RAM usually takes, so it cannot say whether latency still rises past the caches, nor why."
    )
    some = _lat({4 * KiB: [1, 1, 1], 64 * MiB: [90, 90, 90], 256 * MiB: [1060, 1080, 1530]})
    assert report.beyond_sentence(some, CACHES, PAGES) == (
        "Past the L3 (32 MiB, shared by 2 CPUs), some of this run's loads (1,080 ns at 256 MiB) took far longer than "
        "a load from RAM usually takes, so it cannot say whether latency still rises past the caches, nor why."
    )
    assert report.miss_sentence(busy, CACHES).startswith(
        "This run's far loads are likely not a measurement of memory: the 256 MiB working set read 1,080 ns "
        "(1,060–1,530 ns), far above what a load from RAM usually takes, so this run gives no count of the loads "
        "from the L1d"
    )
    table = report.latency_table(busy, CACHES)
    assert table["fits in"].to_list() == ["L1d", "L2", "about the L2's size", "L3", "no cache"]
    assert table["against the previous"].to_list()[3:] == [
        "implausible: far above a RAM load",
        "implausible: far above a RAM load",
    ]
    # a quiet machine's figures: nothing is disturbed, and the sentences keep their ratios
    quiet = _lat({4 * KiB: [1, 1, 1], 4 * MiB: [14, 15, 16], 256 * MiB: [110, 120, 130]})
    assert report.plausibility_sentence(quiet, CACHES) == ""
    assert "120× as long" in report.ladder_sentence(quiet, CACHES)


def test_inside_sentence_says_clearly_more_than_half_where_it_is() -> None:
    above = report.inside_sentence(_lat({4 * MiB: [60, 62, 64], 64 * MiB: [90, 90, 90]}), CACHES)
    assert "at 4 MiB, inside the L3's 32 MiB, a load already took 62 ns, clearly more than half the 90 ns" in above


def test_seed_table_marks_a_disturbed_latency() -> None:
    busy = _lat({16 * KiB: [1, 1, 1], 16 * MiB: [700, 731, 900], 256 * MiB: [1060, 1080, 1530]})
    bw = _runs("kind", "gb_per_s", "GB/s", {"read": [10, 10, 10]}).with_columns(threads=pl.lit(1))
    costs = _costs({"mutex": [6, 6, 6]})
    rows = {r["what"]: r for r in report.seed_table(busy, bw, costs, CACHES).iter_rows(named=True)}
    assert rows["L3"]["here"] == (
        "32 MiB (shared by 2 CPUs); 731 ns per load at a 16 MiB working set (700–900 ns, 3 runs), likely disturbed: "
        "far above what memory usually takes"
    )
    assert rows["RAM, latency"]["here"].endswith(
        "(1,060–1,530 ns, 3 runs), likely disturbed: far above what memory usually takes"
    )
    assert rows["L1d"]["here"].endswith("(1–1 ns, 3 runs)")


def test_contention_sentence_carries_both_intervals() -> None:
    fought = report.contention_sentence(_costs({"mutex": [10, 10.4, 12.5], "mutex_contended": [36.9, 52.1, 349]}))
    assert fought == (
        "An uncontended mutex cost 10.4 ns (10–12.5 ns) to lock and unlock, which may be little more than an atomic "
        "instruction each, on a cache line this core already holds. With two threads fighting over it, each lock "
        "took 52.1 ns (36.9–349 ns), 5× slower than alone (3–35×): the lock's cache line may travel between the "
        "cores, and a thread that finds the lock taken may spin for a moment or wait in the kernel until it is "
        "released (this run counts none of these, so it cannot say which happened, or how often)."
    )
    unclear = report.contention_sentence(_costs({"mutex": [10, 10.4, 12.5], "mutex_contended": [9, 11, 13]}))
    assert unclear.endswith(
        "each lock took 11 ns (9–13 ns), not clearly slower or faster than alone (1.06× by the medians, but the "
        "intervals overlap): these runs cannot tell whether the line's travel between the cores cost anything."
    )
    same = report.contention_sentence(_costs({"mutex": [10, 10, 10], "mutex_contended": [9.9, 10, 10.1]}))
    assert same.endswith(": this run shows no cost of the line's travel between the cores.")


def test_latency_chart_draws_the_ram_bound_only_when_a_point_lies_past_it() -> None:
    busy = _lat({4 * KiB: [1, 1, 1], 256 * MiB: [1060, 1080, 1530]})
    quiet = _lat({4 * KiB: [1, 1, 1], 256 * MiB: [110, 120, 130]})
    assert "more than a RAM load usually takes" in report.latency_chart(busy, CACHES).to_json()
    assert "more than a RAM load usually takes" not in report.latency_chart(quiet, CACHES).to_json()


def test_seed_table_tells_a_shared_cache_as_a_guest_sees_it() -> None:
    lat = _lat({16 * KiB: [1, 1, 1], 8 * MiB: [15, 15, 15]})
    bw = _runs("kind", "gb_per_s", "GB/s", {"read": [10, 10, 10]}).with_columns(threads=pl.lit(1))
    costs = _costs({"mutex": [6, 6, 6]})
    vm = {r["what"]: r for r in report.seed_table(lat, bw, costs, {**CACHES, "hypervisor": "yes (KVM)"}).iter_rows(
        named=True)}  # fmt: skip
    assert vm["L3"]["here"].startswith("32 MiB (shared by this VM's 2 CPUs and, on the host, perhaps by others); 15 ns")
    assert vm["L2"]["here"].startswith("1 MiB (one per core); ")  # a private cache reads the same in a guest
    bare = {r["what"]: r for r in report.seed_table(lat, bw, costs, CACHES).iter_rows(named=True)}
    assert bare["L3"]["here"].startswith("32 MiB (shared by 2 CPUs); 15 ns")
    # 'none detected' is what a bare-metal set records: not a virtual machine
    none = report.seed_table(lat, bw, costs, {**CACHES, "hypervisor": "none detected"})
    assert {r["what"]: r for r in none.iter_rows(named=True)}["L3"]["here"].startswith("32 MiB (shared by 2 CPUs); 15")


def _reads(by_threads: dict[int, list[float]]) -> pl.DataFrame:
    return pl.concat([
        _runs("kind", "gb_per_s", "GB/s", {"read": runs}).with_columns(threads=pl.lit(threads))
        for threads, runs in by_threads.items()
    ])  # fmt: skip


def test_read_bandwidth_moves_up_only_to_clearly_faster_threads() -> None:
    # two threads higher by the median, but the intervals overlap: one thread is quoted
    threads, e = report.read_bandwidth(_reads({1: [28, 30, 33], 2: [30, 44, 61]}))
    assert (threads, e.median) == (1, 30)
    # two threads clearly faster: they are quoted
    threads, e = report.read_bandwidth(_reads({1: [28, 30, 31], 2: [40, 44, 46]}))
    assert (threads, e.median) == (2, 44)
    # step by step: 4 threads clearly beat 2, which did not clearly beat 1
    threads, _ = report.read_bandwidth(_reads({1: [28, 30, 33], 2: [30, 32, 34], 4: [50, 52, 54]}))
    assert threads == 4
    assert report.read_bandwidth(_reads({1: [10, 10, 10]}).head(0)) is None
    table = report.seed_table(_lat({16 * KiB: [1, 1, 1]}), _reads({1: [28, 30, 33], 2: [30, 44, 61]}),
                              _costs({"mutex": [6, 6, 6]}), {**CACHES, "memory_bytes": 1 << 30})  # fmt: skip
    row = table.filter(pl.col("what") == "RAM, read bandwidth").row(0, named=True)
    assert row["here"].startswith("30 GB/s sequential read, 1 thread")


def test_seed_table_ram_rows_say_where_the_working_set_and_buffer_fit() -> None:
    from howfast.stats import Estimate

    quiet = Estimate.exact(120.0)
    paged = {**CACHES, "page_size": 4096, "transparent_hugepages": "madvise"}
    # past every cache, base pages counted and more than a TLB holds: page walks are likely
    assert report.ram_row_words(256 * MiB, quiet, paged) == (
        ", over 65,536 pages of 4 KiB, far more than a typical TLB holds, so page walks are likely included: not a "
        "bare DRAM latency"
    )
    # THP 'always' or not recorded: how many pages is not known, so page walks only may be in it
    always = {**paged, "transparent_hugepages": "always"}
    assert report.ram_row_words(256 * MiB, quiet, always) == ", which may include page walks (this run cannot say)"
    assert report.ram_row_words(256 * MiB, quiet, CACHES) == ", which may include page walks (this run cannot say)"
    # too few pages to outrun a TLB (a smaller L3): not claimed either
    small_l3 = {**paged, "cache_levels": [{"name": "L3", "size": 8 * MiB, "shared_by": 2}]}
    assert report.ram_row_words(16 * MiB, quiet, small_l3) == ", which may include page walks (this run cannot say)"
    # the largest working set fits in the L3 (a server's large L3): not a RAM latency
    assert report.ram_row_words(16 * MiB, Estimate.exact(15.0), paged) == (
        "; this working set fits in the L3 (32 MiB) by size, so this is not clearly a RAM latency: this run measured "
        "no working set past the caches"
    )
    assert report.ram_row_words(32 * MiB, Estimate.exact(15.0), paged).startswith(
        "; this working set is the L3's size (32 MiB), so the cache may have served part of it"
    )
    assert report.ram_row_words(16 * MiB, Estimate.exact(700.0), paged).startswith(
        ", likely disturbed: far above what memory usually takes; this working set fits in the L3"
    )
    assert report.ram_row_words(256 * MiB, Estimate.exact(1000.0), paged) == report.DISTURBED
    assert report.ram_row_words(256 * MiB, quiet, {}) == (
        "; the kernel reported no cache sizes, so whether this working set fits in a cache is not known"
    )
    with pytest.raises(TypeError, match="Estimate"):
        report.ram_row_words(256 * MiB, 120.0, paged)  # type: ignore[arg-type]
    # the bandwidth sweep's buffer, as the set recorded it
    reads = _reads({1: [10, 10, 10]})
    assert report.read_row_words(reads, CACHES) == ""  # the set does not say its buffer size
    sized = reads.with_columns(buffer_bytes=pl.lit(16 * MiB), passes=pl.lit(4))
    assert report.read_row_words(sized, CACHES) == (
        "; the 16 MiB buffer fits in the L3 (32 MiB) by size, so this may be that cache's rate, not RAM's"
    )
    assert report.read_row_words(sized.with_columns(buffer_bytes=pl.lit(32 * MiB)), CACHES).startswith(
        "; the 32 MiB buffer is the L3's size"
    )
    assert report.read_row_words(sized.with_columns(buffer_bytes=pl.lit(256 * MiB)), CACHES) == ""
    assert "whether the 16 MiB buffer fits in one is not known" in report.read_row_words(sized, {})
    # in the seed table: both RAM rows say the L3 holds them
    server = report.seed_table(_lat({16 * KiB: [1, 1, 1], 16 * MiB: [15, 15, 15]}), sized,
                               _costs({"mutex": [6, 6, 6]}), paged)  # fmt: skip
    rows = {r["what"]: r["here"] for r in server.iter_rows(named=True)}
    assert rows["RAM, latency"].endswith("no working set past the caches")
    assert rows["RAM, read bandwidth"].endswith("so this may be that cache's rate, not RAM's")


def test_a_cache_sized_set_slower_than_a_hit_may_be_served_by_ram() -> None:
    # the full profile's quiet run: 144 ns at 16 MiB, inside a shared 32 MiB L3, tight and under the RAM bound
    lat = _lat({4 * KiB: [0.94, 0.95, 0.954], 4 * MiB: [11.8, 35.2, 147], 16 * MiB: [128, 144, 155],
                64 * MiB: [153, 159, 160], 1024 * MiB: [286, 360, 414]})  # fmt: skip
    caches = report.data_caches(CACHES)
    flags = [(ws, report.implausible(ws, e, caches), report.slow_hit(ws, e, caches))
             for ws, e in report.latency_points(lat)]  # fmt: skip
    assert [f for f in flags if f[1] or f[2]] == [(16 * MiB, False, True)]
    assert report.plausibility_sentence(lat, CACHES) == (
        "The 16 MiB working set fits in the L3 (32 MiB) by size, yet a load took 144 ns (128–155 ns), its whole "
        "interval above this book's rule of thumb for a cache hit (under 100 ns, typical of current x86 CPUs and not "
        "measured here) but not above the one for a load from RAM (under 400 ns): its loads may have been served by "
        "RAM (the L3 is shared, so other programs' data may take its place); this run counts no cache misses, so it "
        "cannot say."
    )
    words = report.latency_table(lat, CACHES)["against the previous"].to_list()
    assert words[2] == "slower than a cache hit: may have been served by RAM (the L3 is shared)"
    assert not any("implausible" in w for w in words)
    # only the cache hit's bound is drawn: no point lies above the RAM load's
    assert [b for b, _, _ in report.chart_bounds(lat, CACHES)] == [100.0]
    spec = report.latency_chart(lat, CACHES).to_json()
    assert "more than a cache hit usually takes" in spec and "more than a RAM load usually takes" not in spec
    # two such sets, plural; a level of one per core adds no 'shared'
    two = report.plausibility_sentence(_lat({4 * MiB: [120, 130, 140], 16 * MiB: [128, 144, 155]}), CACHES)
    assert two.startswith("Some working sets fit in a cache by size, yet their loads took longer (130 ns at 4 MiB, "
                          "144 ns at 16 MiB), each interval above")  # fmt: skip
    assert "their loads may have been served by RAM (the L3 is shared" in two
    l2 = _lat({256 * KiB: [110, 120, 130]})
    assert report.slow_hit_words(256 * KiB, report.data_caches(CACHES)) == (
        "slower than a cache hit: may have been served by RAM"
    )
    assert "(the L2" not in report.plausibility_sentence(l2, CACHES)
    # past every cache, or over the RAM bound, it is no slow hit
    assert not report.slow_hit(64 * MiB, report.latency_points(lat)[3][1], caches)
    assert report.implausible(16 * MiB, report.latency_points(_lat({16 * MiB: [500, 510, 520]}))[0][1], caches)
    with pytest.raises(ValueError, match="working_set"):
        report.slow_hit_words(64 * MiB, caches)


def test_inside_sentence_hedges_an_inconclusive_edge() -> None:
    open_ = report.inside_sentence(_lat({4 * MiB: [11.8, 35.2, 147], 64 * MiB: [153, 159, 160]}), CACHES)
    assert open_.startswith("A working set that fits in a cache by size may not always be served by it here: at 4 MiB")
    assert "not clearly under half the 159 ns" in open_
    sure = report.inside_sentence(_lat({4 * MiB: [60, 62, 64], 64 * MiB: [90, 90, 90]}), CACHES)
    assert sure.startswith("A working set that fits in a cache by size is not always served by it here:")


def test_contention_bound_has_two_significant_figures_and_threads_merge() -> None:
    text = report.contention_sentence(pl.concat([
        _costs({"mutex": [10, 10, 10], "mutex_contended": [73.1, 73.1, 73.1]}),
        _costs({"futex_any_cpu": [17500, 17500, 17500]}, "ns_per_switch"),
    ]))  # fmt: skip
    assert "at most about one lock in 240 can have slept" in text and "239" not in text
    bw = pl.concat([
        _runs("kind", "gb_per_s", "GB/s", {k: v}).with_columns(threads=pl.lit(t))
        for k, t, v in (("read", 1, [5, 5, 5]), ("read", 2, [1, 6, 9]), ("write", 1, [4, 4, 4]),
                        ("write", 2, [1, 5, 9]), ("copy", 1, [3, 3, 3]), ("copy", 2, [1, 3, 9]))
    ])  # fmt: skip
    assert report.threads_sentence(bw) == (
        "With 2 threads, reads, writes and copies were not clearly faster or slower than one thread (1.2×, 1.2× and "
        "1× by the medians, but each pair of intervals overlaps)."
    )
