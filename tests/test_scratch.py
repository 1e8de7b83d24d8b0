from __future__ import annotations

import os
from pathlib import Path

import pytest

from howfast.scratch import Scratch, scratch_base


def test_scratch_lives_in_howfast_scratch_and_is_removed(scratch_dir: Path) -> None:
    with Scratch() as s:
        assert s.path.parent == scratch_dir
        s.file("a").write_bytes(b"x" * 100)
    assert list(scratch_dir.iterdir()) == []


def test_scratch_is_removed_after_an_exception(scratch_dir: Path) -> None:
    with pytest.raises(RuntimeError):
        with Scratch() as s:
            s.file("a").write_bytes(b"x")
            raise RuntimeError("boom")
    assert list(scratch_dir.iterdir()) == []


def test_missing_scratch_base_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_SCRATCH", str(tmp_path / "absent"))
    with pytest.raises(ValueError, match="does not exist"):
        scratch_base()
    with pytest.raises(ValueError, match="does not exist"):
        Scratch()
    with pytest.raises(ValueError, match="does not exist"):
        Scratch(tmp_path / "also-absent")


def test_free_space_is_checked_first(scratch_dir: Path) -> None:
    with pytest.raises(ValueError, match="not enough free space"):
        Scratch(need_bytes=1 << 60)
    assert list(scratch_dir.iterdir()) == []
    with pytest.raises(ValueError, match="not negative"):
        Scratch(need_bytes=-1)


def test_remove_refuses_paths_outside(tmp_path: Path) -> None:
    with Scratch() as s:
        with pytest.raises(ValueError, match="not inside"):
            s.remove(tmp_path / "elsewhere.dat")


def test_file_names_are_fresh() -> None:
    with Scratch() as s:
        assert s.file("x") != s.file("x")


def test_a_killed_runs_scratch_is_reclaimed_with_its_size(scratch_dir: Path) -> None:
    """SIGKILL leaves the directory behind; the next run removes it and says so."""
    import signal
    import subprocess
    import sys

    from howfast.scratch import reclaim

    code = (
        "from howfast.scratch import Scratch\nimport time\ns = Scratch()\n"
        "s.file('x').write_bytes(b'x' * 4096)\nprint(s.path, flush=True)\ntime.sleep(60)"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    left = Path(child.stdout.readline().strip())
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    child.stdout.close()
    assert left.is_dir() and left.parent == scratch_dir
    mine = Scratch()  # alive: never reclaimed
    foreign = scratch_dir / "howfast-not-ours"  # no owner file: not ours to judge
    foreign.mkdir()
    said: list[str] = []
    try:
        assert reclaim(scratch_dir, report=said.append) == []  # Scratch() above already did it
        assert not left.exists() and mine.path.exists() and foreign.exists()
    finally:
        mine.cleanup()
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    left = Path(child.stdout.readline().strip())
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    child.stdout.close()
    removed = reclaim(scratch_dir, report=said.append)
    assert [path for path, _ in removed] == [left] and removed[0][1] >= 4096
    assert len(said) == 1 and str(left) in said[0] and f"{removed[0][1]:,} bytes" in said[0]


def test_settings_are_checked_with_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import ROOT
    from howfast.paths import results_dir

    monkeypatch.setenv("HOWFAST_SCRATCH", str(tmp_path / "absent"))
    with pytest.raises(ValueError, match="HOWFAST_SCRATCH is .* does not exist"):
        scratch_base()
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    monkeypatch.setenv("HOWFAST_SCRATCH", str(locked))
    if os.geteuid() != 0:  # root writes anywhere
        with pytest.raises(ValueError, match="cannot write"):
            scratch_base()
    monkeypatch.setenv("HOWFAST_RESULTS", "myresults")  # relative: from the book's root, not the cwd
    monkeypatch.chdir(ROOT / "chapters")
    assert results_dir() == ROOT / "myresults"


def test_an_unwritable_scratch_dir_names_the_setting(scratch_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only filesystem (or a directory root cannot write either) is refused with the
    setting to change, not with the OSError of mkdtemp."""
    import errno
    import tempfile

    def refuse(*args: object, **kwargs: object) -> str:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    with pytest.raises(ValueError, match="Read-only file system.*set HOWFAST_SCRATCH"):
        Scratch()
