"""Every test runs on the quick profile, with results and scratch files in temp dirs:
nothing a test does lands in the checkout's data/."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from howfast.capabilities import SWITCHES

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    results = tmp_path / "results"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("HOWFAST_RESULTS", str(results))
    monkeypatch.setenv("HOWFAST_SCRATCH", str(scratch))
    monkeypatch.setenv("HOWFAST_PROFILE", "quick")
    monkeypatch.setenv("HOWFAST_MACHINE", "test-machine")
    for variable in (*SWITCHES, "HOWFAST_MEASURE", "QUARTO_PROFILE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(ROOT)
    return {"results": results, "scratch": scratch}


@contextmanager
def environment(base: Path) -> Iterator[Path]:
    """Results and scratch inside `base`, the quick profile, the test machine's name: for
    module-scoped fixtures that measure once for several tests."""
    mp = pytest.MonkeyPatch()
    (base / "scratch").mkdir(exist_ok=True)
    mp.setenv("HOWFAST_RESULTS", str(base / "results"))
    mp.setenv("HOWFAST_SCRATCH", str(base / "scratch"))
    mp.setenv("HOWFAST_PROFILE", "quick")
    mp.setenv("HOWFAST_MACHINE", "test-machine")
    for variable in (*SWITCHES, "HOWFAST_MEASURE", "QUARTO_PROFILE"):
        mp.delenv(variable, raising=False)
    try:
        yield base
    finally:
        mp.undo()


def command_env(base: Path, **extra: str) -> dict[str, str]:
    """The environment of a ``howfast`` command run by a test: results and scratch in
    `base`, the smoke profile, the test machine's name, no capability switched off, a
    wide terminal; `extra` on top."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOWFAST_DISABLE", "HOWFAST_MEASURE"))}
    return (
        env
        | {
            "HOWFAST_RESULTS": str(base / "results"),
            "HOWFAST_SCRATCH": str(base / "scratch"),
            "HOWFAST_PROFILE": "smoke",
            "HOWFAST_MACHINE": "test-machine",
            "COLUMNS": "200",
        }
        | extra
    )


def howfast_command(base: Path, *args: str, timeout: int = 600, **extra: str) -> subprocess.CompletedProcess:
    """``python -m howfast ARGS`` from the book's root, as a user runs it (see command_env)."""
    return subprocess.run(
        [sys.executable, "-m", "howfast", *args],
        cwd=ROOT,
        env=command_env(base, **extra),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


#: The subject the shared book leaves unmeasured, for test_chapters to see its chapter
#: measure it as a fresh clone's would (the cheapest one).
LEFT_TO_MEASURE = "fsync"


@pytest.fixture(scope="session")
def smoke_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every subject but LEFT_TO_MEASURE measured once on the smoke profile, through the
    command line as ``make measure`` runs it. The test modules that read a whole book
    (test_chapters, test_card) share it, each through its own copy (``copy_book``), so
    that none sees what another adds or removes."""
    from howfast import store

    base = tmp_path_factory.mktemp("smoke-book")
    (base / "scratch").mkdir()
    others = [s for s in store.SUBJECTS if s != LEFT_TO_MEASURE]
    done = howfast_command(base, "measure", *others, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    assert list((base / "scratch").iterdir()) == [], "scratch files left behind"
    return base


def copy_book(book: Path, base: Path) -> Path:
    """`base` with a copy of the results of `book` (links kept as links) and an empty
    scratch directory, ready for ``command_env(base)``."""
    shutil.copytree(book / "results", base / "results", symlinks=True)
    (base / "scratch").mkdir(exist_ok=True)
    return base


@pytest.fixture
def scratch_dir(isolated: dict[str, Path]) -> Path:
    return isolated["scratch"]


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config._howfast_results_before = _snapshot(ROOT / "data" / "results")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = getattr(session.config, "_howfast_results_before", None)
    if before is not None and _snapshot(ROOT / "data" / "results") != before:
        print("\nERROR: the tests changed the checkout's data/results/")
        session.exitstatus = 1


def _snapshot(path: Path) -> list[tuple[str, int]]:
    if not path.exists():
        return []
    return sorted((str(p), p.stat().st_mtime_ns) for p in path.rglob("*") if p.is_file())


def block_file_matches(path: Path, block_size: int, count: int, seed: int = 1) -> bool:
    """True when the file holds exactly the blocks the native loops write."""
    from howfast import _native

    data = path.read_bytes()
    if len(data) != block_size * count:
        return False
    return all(
        data[i * block_size : (i + 1) * block_size] == _native.block_pattern(block_size, i, seed) for i in range(count)
    )
