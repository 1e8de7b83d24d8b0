"""Bad input to the native module is refused before anything happens: an empty path or
one with a NUL byte (which every system call would cut short), numbers out of range
(before any allocation or file), a copy larger than the machine can hold."""

from __future__ import annotations

import ast
import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import howfast
from howfast import _native

STUB = Path(howfast.__file__).with_name("_native.pyi")
PATH_PARAMS = {"path", "dir", "directory"}


def path_taking_callables() -> set[str]:
    """Every function (or class, by its __init__) of the stub with a path parameter."""
    tree = ast.parse(STUB.read_text())
    found = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            params = {a.arg for a in node.args.args + node.args.kwonlyargs}
            if params & PATH_PARAMS:
                found.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    if {a.arg for a in item.args.args + item.args.kwonlyargs} & PATH_PARAMS:
                        found.add(node.name)
    return found


# name -> (argument name, call with a path)
NUL_CALLS: dict[str, tuple[str, Callable[[str], object]]] = {
    "free_bytes": ("directory", lambda p: _native.free_bytes(p)),
    "probe_direct_io": ("directory", lambda p: _native.probe_direct_io(p)),
    "durable_writes": ("path", lambda p: _native.durable_writes(p, 4096, 4)),
    "group_commit": ("path", lambda p: _native.group_commit(p, 64, 4, 4)),
    "prepare_file": ("path", lambda p: _native.prepare_file(p, 4096, 4096)),
    "disk_io": ("path", lambda p: _native.disk_io(p, op="write", file_size=4096)),
    "Memtable": ("dir", lambda p: _native.Memtable(p, 1 << 20)),
    "recover": ("dir", lambda p: _native.recover(p, 1 << 20)),
    "_memtable_recover_flawed": ("dir", lambda p: _native._memtable_recover_flawed(p, 1 << 20, "none")),
    "memtable_benchmark": ("dir", lambda p: _native.memtable_benchmark(p, 1 << 20, 100)),
    "sqlite_inserts": ("path", lambda p: _native.sqlite_inserts(p, 100, 10, 100)),
    "sqlite_verify": ("path", lambda p: _native.sqlite_verify(p, 100, 100)),
    "RocksDb": ("path", lambda p: _native.RocksDb(p)),
}


#: `path` here is the path of a URL, not of a file
URL_PATHS = {"http_load"}


def test_every_path_taking_callable_is_checked() -> None:
    assert path_taking_callables() - URL_PATHS == set(NUL_CALLS)


@pytest.mark.parametrize("name", sorted(NUL_CALLS))
@pytest.mark.parametrize("where", ["file", "directory"])
def test_path_with_nul_byte_is_refused(scratch_dir: Path, name: str, where: str) -> None:
    arg, call = NUL_CALLS[name]
    # Cut at the NUL, "file" names scratch_dir/a and "directory" names scratch_dir itself:
    # either would be a real place to write to.
    path = f"{scratch_dir}/a\x00b" if where == "file" else f"{scratch_dir}\x00/sub"
    with pytest.raises(ValueError, match=rf"^{arg} must not contain a NUL byte"):
        call(path)
    assert list(scratch_dir.iterdir()) == []


@pytest.mark.parametrize("name", sorted(NUL_CALLS))
def test_empty_path_is_refused(scratch_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    arg, call = NUL_CALLS[name]
    monkeypatch.chdir(scratch_dir)  # "" must not name files here (disk_io had written ".0")
    with pytest.raises(ValueError, match=rf"^{arg} must not be empty"):
        call("")
    assert list(scratch_dir.iterdir()) == []


# name -> (the argument the ValueError must name, a call with a huge value in it); {d} is
# an empty scratch directory.
HUGE = {
    "Memtable queue_depth 20M": ("queue_depth", "_native.Memtable(d, 1 << 20, queue_depth=20_000_000)"),
    "Memtable queue_depth 2**31": ("queue_depth", "_native.Memtable(d, 1 << 20, queue_depth=2**31)"),
    "Memtable capacity": ("capacity", "_native.Memtable(d, 2**40)"),
    "Memtable record_size": ("record_size", "_native.Memtable(d, 1 << 20, record_size=2**40)"),
    "Memtable buffers": ("buffers", "_native.Memtable(d, 1 << 20, flush='io_uring', buffers=10**9)"),
    "Memtable segment_bytes": ("segment_bytes", "_native.Memtable(d, 1 << 20, segment_bytes=2**62)"),
    "recover queue_depth": ("queue_depth", "_native.recover(d, 1 << 20, queue_depth=2**31)"),
    "memtable_benchmark records": ("records", "_native.memtable_benchmark(d, 1 << 20, 10**12)"),
    "memtable_benchmark producers": ("producers", "_native.memtable_benchmark(d, 1 << 20, 100, producers=10**6)"),
    "memtable_benchmark queue_depth": (
        "queue_depth",
        "_native.memtable_benchmark(d, 1 << 20, 100, queue_depth=2**31)",
    ),
    "disk_io queue_depth": (
        "queue_depth",
        "_native.disk_io(d + '/x', op='write', engine='io_uring', queue_depth=10**9)",
    ),
    "disk_io jobs": ("jobs", "_native.disk_io(d + '/x', op='write', jobs=10**6)"),
    "disk_io jobs * I/Os": ("jobs", "_native.disk_io(d + '/x', op='write', jobs=256, file_size=1 << 30)"),
    "disk_io file_size": ("file_size", "_native.disk_io(d + '/x', op='write', file_size=2**60)"),
    "durable_writes count": ("count", "_native.durable_writes(d + '/x', 4096, 10**12)"),
    "group_commit syncs": ("syncs", "_native.group_commit(d + '/x', 64, 4, 10**12)"),
    "group_commit records_per_sync": ("records_per_sync", "_native.group_commit(d + '/x', 64, 10**12, 4)"),
    "sqlite_inserts rows": ("rows", "_native.sqlite_inserts(d + '/x', 10**12, 10, 100)"),
    "sqlite_inserts row_size": ("row_size", "_native.sqlite_inserts(d + '/x', 100, 10, 2**40)"),
    "memcpy_rounds rounds": ("rounds", "_native.memcpy_rounds(4096, 10**12)"),
    "prepare_file file_size": ("file_size", "_native.prepare_file(d + '/x', 2**60, 4096)"),
    "block_pattern size": ("size", "_native.block_pattern(2**40, 0)"),
    "RocksDb write_buffer_size": ("write_buffer_size", "_native.RocksDb(d + '/r', write_buffer_size=2**60)"),
    "RocksDb cache_size": ("cache_size", "_native.RocksDb(d + '/r', cache_size=2**60)"),
    # The cpu and hashing loops: every count has a ceiling (native/README.md), and a
    # buffer must fit in half of the memory available now.
    "sattolo_cycle n": ("n", "_native.sattolo_cycle(2**40)"),
    "pointer_chase working_set": ("working_set", "_native.pointer_chase(64 << 30, 1)"),
    "pointer_chase loads": ("loads", "_native.pointer_chase(4096, 10**15)"),
    "memory_bandwidth buffer_bytes": ("buffer_bytes", "_native.memory_bandwidth('read', 2**40, 1)"),
    "memory_bandwidth copy buffer_bytes": ("buffer_bytes", "_native.memory_bandwidth('copy', 2**40, 1)"),
    "memory_bandwidth passes": ("passes", "_native.memory_bandwidth('read', 4096, 10**12)"),
    "mutex_lock_unlock ops": ("ops", "_native.mutex_lock_unlock(10**12)"),
    "atomic_increments ops": ("ops", "_native.atomic_increments(10**12, threads=2)"),
    "syscall_loop ops": ("ops", "_native.syscall_loop('getppid', 10**12)"),
    "pipe_pingpong round_trips": ("round_trips", "_native.pipe_pingpong(10**12)"),
    "futex_pingpong round_trips": ("round_trips", "_native.futex_pingpong(10**12)"),
    "yield_pingpong round_trips": ("round_trips", "_native.yield_pingpong(10**12)"),
    "thread_create count": ("count", "_native.thread_create(10**12)"),
    "hash_loop iterations": ("iterations", "_native.hash_loop('fnv1a_64', b'x' * 64, 2**50)"),
}

HUGE_SCRIPT = """
import json, os, resource, sys, tempfile, time
from howfast import _native
cases = json.loads(sys.argv[1])
out = {}
for name, (arg, call) in cases.items():
    d = tempfile.mkdtemp(dir=sys.argv[2])
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.monotonic()
    try:
        eval(call)
        error = None
    except BaseException as e:
        error = [type(e).__name__, str(e)]
    out[name] = {
        "error": error,
        "seconds": time.monotonic() - t0,
        "rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss,
        "files": os.listdir(d),
    }
    os.rmdir(d) if not out[name]["files"] else None
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def huge_results(tmp_path_factory: pytest.TempPathFactory) -> dict:
    # A fresh process: its peak RSS (ru_maxrss) grows only if one of these allocates.
    where = tmp_path_factory.mktemp("huge")
    child = subprocess.run(
        [sys.executable, "-c", HUGE_SCRIPT, json.dumps(HUGE), str(where)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 0, child.stderr
    return json.loads(child.stdout)


@pytest.mark.parametrize("name", sorted(HUGE))
def test_huge_numbers_are_refused_before_allocating(huge_results: dict, name: str) -> None:
    arg, _ = HUGE[name]
    r = huge_results[name]
    assert r["error"] is not None and r["error"][0] == "ValueError", r
    message = r["error"][1]
    assert message.startswith(arg) or f" {arg}" in message or f"* {arg}" in message, message
    assert re.search(r"\d+ to \d+|at most \d+", message), f"no allowed range in: {message}"
    assert r["seconds"] < 1.0 and r["rss_kib"] < 8 << 10, r
    assert r["files"] == []


def test_memcpy_larger_than_memory_is_refused() -> None:
    too_big = 16 << 30  # the largest size allowed: only the memory check can refuse it
    meminfo = Path("/proc/meminfo").read_text().splitlines()
    available = int(next(line for line in meminfo if line.startswith("MemAvailable:")).split()[1]) * 1024
    if 2 * too_big <= available // 2:
        pytest.skip("this machine could copy 16 GiB")
    with pytest.raises(ValueError, match=rf"size {too_big} bytes needs {2 * too_big} bytes .*MemAvailable \d+ bytes"):
        _native.memcpy_rounds(too_big, 1)


MEMCPY_SCRIPT = """
from howfast import _native
print("start", flush=True)
_native.memcpy_rounds(512 << 20, 100000)
"""


def test_memcpy_rounds_stops_on_ctrl_c() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", MEMCPY_SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "start"
        time.sleep(2.0)  # buffers touched, copying by now
        assert child.poll() is None, child.stderr.read()
        child.send_signal(signal.SIGINT)
        t0 = time.monotonic()
        _, err = child.communicate(timeout=10)
        assert time.monotonic() - t0 < 5.0
        assert child.returncode != 0 and "KeyboardInterrupt" in err
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


# A long loop of each kind, far from its end when the SIGINT arrives.
LONG_LOOPS = {
    "atomic_increments": "_native.atomic_increments(10**9, threads=2)",
    "mutex_lock_unlock": "_native.mutex_lock_unlock(10**9, threads=2)",
    "syscall_loop": "_native.syscall_loop('getppid', 10**9)",
    "pipe_pingpong": "_native.pipe_pingpong(2 * 10**7)",
    "futex_pingpong": "_native.futex_pingpong(2 * 10**7, same_cpu=False)",
    "yield_pingpong": "_native.yield_pingpong(2 * 10**7)",
    "thread_create": "_native.thread_create(10**6)",
    "pointer_chase": "_native.pointer_chase(64 << 20, 10**9)",
    "memory_bandwidth": "_native.memory_bandwidth('copy', 256 << 20, 1000, threads=2)",
    "hash_loop": "_native.hash_loop('fnv1a_64', bytes(1 << 20), 1 << 30)",
}

# A helper thread sends SIGINT to its own process half a second into the call; the child
# says how long the call took to give up, and whether its threads are gone.
CTRL_C_SCRIPT = """
import os, signal, sys, threading, time
from howfast import _native
sent = []
def interrupt():
    sent.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)
threading.Timer(0.5, interrupt).start()
try:
    eval(sys.argv[1])
    print("finished")
except KeyboardInterrupt:
    time.sleep(0.2)  # a worker the call left behind would still be listed
    print("interrupted", time.monotonic() - sent[0], threading.active_count(), len(os.listdir("/proc/self/task")))
"""


@pytest.mark.parametrize("name", sorted(LONG_LOOPS))
def test_long_loops_stop_on_ctrl_c(name: str) -> None:
    try:
        child = subprocess.run(
            [sys.executable, "-c", CTRL_C_SCRIPT, LONG_LOOPS[name]], capture_output=True, text=True, timeout=30
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name} ran on 30 s after a Ctrl-C at 0.5 s")
    words = child.stdout.split()
    assert words[:1] == ["interrupted"], (child.stdout, child.stderr)
    assert float(words[1]) < 2.0, f"{name} took {words[1]} s to stop"
    assert words[2:] == ["1", "1"], f"{name} left threads behind: {words[2:]}"
