"""Every chapter renders, and says why, on a machine without io_uring, O_DIRECT, SQLite or
RocksDB: each HOWFAST_DISABLE_* switch, each chapter, measured on the smoke profile."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, command_env
from howfast.book import CHAPTERS
from howfast.capabilities import SWITCHES
from howfast.notebook import execute_chapter


@pytest.fixture(scope="module", params=list(SWITCHES))
def switched(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The book measured (smoke profile) with one capability switched off."""
    switch = request.param
    base = tmp_path_factory.mktemp(switch.lower())
    (base / "scratch").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "howfast", "measure"],
        cwd=ROOT,
        env=command_env(base, **{switch: "1"}),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return switch, base


def _text(done) -> str:
    """Everything a reader sees of the page's outputs: markdown, plain text, inline values."""
    parts = list(done.inline.values())
    for cell in done.notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            parts += [data.get("text/markdown", ""), data.get("text/plain", ""), output.get("text", "")]
    return "\n".join(parts)


@pytest.mark.parametrize("chapter", list(CHAPTERS))
def test_chapter_renders_without_the_capability(
    chapter: str, switched: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    switch, base = switched
    for key, value in command_env(base, **{switch: "1"}).items():
        monkeypatch.setenv(key, value)
    done = execute_chapter(ROOT / "chapters" / f"{chapter}.qmd", timeout=600)
    assert done.problems == []
    shown = _text(done)
    for bad in ("nan", "None", "Traceback"):
        assert f" {bad} " not in f" {shown} ".replace("\n", " "), f"{bad!r} in what a reader sees"
    affected = {"HOWFAST_DISABLE_SQLITE": ("storing-data",), "HOWFAST_DISABLE_ROCKSDB": ("memtables",)}
    # io_uring and O_DIRECT touch the disk chapters, and io_uring the networks chapter's second
    # server mode; fsync uses no io_uring; networks uses no O_DIRECT; the CPU-bound chapters
    # (hashing, CPU and memory, compress-encode-sort) use neither: they must run whole and say
    # nothing is missing
    untouched = {
        "HOWFAST_DISABLE_IO_URING": ("fsync", "hashing", "cpu-and-memory", "compress-encode-sort"),
        "HOWFAST_DISABLE_DIRECT_IO": ("networks", "hashing", "cpu-and-memory", "compress-encode-sort"),
    }
    if chapter in untouched.get(switch, ()):
        assert f"disabled by {switch}" not in shown
        return
    if chapter in affected.get(switch, CHAPTERS):
        assert f"disabled by {switch}" in shown, "the chapter says what is missing, and why"
