"""The io_uring wrapper's completion path (native/src/common/uring.cpp), which the module
cannot show from Python: native/tests/uring_test.cpp feeds it short reads from a pipe,
-EAGAIN, errors and a full submission queue. Compiled here with the system's C++
compiler and liburing; skipped where either is missing or io_uring is unavailable."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

NATIVE = Path(__file__).resolve().parents[1] / "native"
SOURCES = ["tests/uring_test.cpp", "src/common/uring.cpp", "src/common/errors.cpp"]


def liburing_flags() -> list[str] | None:
    if shutil.which("pkg-config") is None:
        return None
    r = subprocess.run(["pkg-config", "--cflags", "--libs", "liburing"], capture_output=True, text=True)
    return r.stdout.split() if r.returncode == 0 else None


def test_short_and_retried_transfers_are_resubmitted(tmp_path: Path) -> None:
    cxx = shutil.which("c++") or shutil.which("g++")
    flags = liburing_flags()
    if cxx is None or flags is None or not all((NATIVE / s).is_file() for s in SOURCES):
        pytest.skip("needs a C++ compiler, liburing (pkg-config) and the native sources")
    exe = tmp_path / "uring_test"
    build = subprocess.run(
        [
            cxx,
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O1",
            "-DHOWFAST_HAVE_LIBURING=1",
            f"-I{NATIVE / 'src'}",
            *[str(NATIVE / s) for s in SOURCES],
            *flags,
            "-o",
            str(exe),
        ],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    if run.returncode == 77:
        pytest.skip(run.stdout.strip())
    assert run.returncode == 0 and run.stdout.strip() == "OK", run.stdout + run.stderr
