from __future__ import annotations

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
    with pytest.raises(ValueError, match="must not be negative"):
        Scratch(need_bytes=-1)


def test_remove_refuses_paths_outside(tmp_path: Path) -> None:
    with Scratch() as s:
        with pytest.raises(ValueError, match="not inside"):
            s.remove(tmp_path / "elsewhere.dat")


def test_file_names_are_fresh() -> None:
    with Scratch() as s:
        assert s.file("x") != s.file("x")
