"""The memtable's counters are handed from its writer thread to the reader without a data
race: native/tests/memtable_race_test.cpp runs the benchmark (which reads them right after
drain(), while the writer carries on) built with ThreadSanitizer, and no report may name
them. Compiled here with the system's C++ compiler; skipped where it or ThreadSanitizer
is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

NATIVE = Path(__file__).resolve().parents[1] / "native"
COMMON = ["errors", "files", "system", "uring"]


def sources() -> list[Path]:
    memtable = sorted(p for p in (NATIVE / "src" / "memtable").glob("*.cpp") if p.name != "bind.cpp")
    return [
        NATIVE / "tests" / "memtable_race_test.cpp",
        *[NATIVE / "src" / "common" / f"{c}.cpp" for c in COMMON],
    ] + memtable


def liburing_flags() -> list[str]:
    if shutil.which("pkg-config") is None:
        return []
    r = subprocess.run(["pkg-config", "--cflags", "--libs", "liburing"], capture_output=True, text=True)
    return ["-DHOWFAST_HAVE_LIBURING=1", *r.stdout.split()] if r.returncode == 0 else []


def test_counters_are_read_without_a_data_race(tmp_path: Path) -> None:
    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is None or not all(p.is_file() for p in sources()):
        pytest.skip("needs a C++ compiler and the native sources")
    exe = tmp_path / "memtable_race_test"
    build = subprocess.run(
        [cxx, "-std=c++17", "-fsanitize=thread", "-O1", "-g", f"-I{NATIVE / 'src'}"]
        + [str(p) for p in sources()]
        + liburing_flags()
        + ["-pthread", "-o", str(exe)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if build.returncode != 0 and "tsan" in build.stderr:
        pytest.skip("no ThreadSanitizer runtime: " + build.stderr[-300:])
    assert build.returncode == 0, build.stderr[-3000:]
    work = tmp_path / "db"
    work.mkdir()
    env = {**os.environ, "TSAN_OPTIONS": "halt_on_error=0 exitcode=0 report_signal_unsafe=0"}
    run = subprocess.run([str(exe), str(work)], capture_output=True, text=True, timeout=300, env=env)
    if "FATAL: ThreadSanitizer" in run.stderr:  # e.g. a kernel whose memory layout it cannot use
        pytest.skip(run.stderr.strip().splitlines()[-1])
    assert run.returncode == 0 and run.stdout.startswith("OK"), run.stdout + run.stderr[-3000:]
    races = [r for r in run.stderr.split("WARNING: ThreadSanitizer: data race")[1:] if "counters" in r]
    assert not races, "data race on the counters:\n" + races[0][:3000]
    assert list(work.iterdir()) == []
