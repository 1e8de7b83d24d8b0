from __future__ import annotations

from pathlib import Path

import pytest

from howfast import capabilities, machine


def test_facts_describe_the_scratch_filesystem(scratch_dir: Path) -> None:
    f = machine.facts(scratch_dir)
    assert f["machine"] == "test-machine"
    assert f["logical_cpus"] >= 1 and f["memory_bytes"] > 0
    assert f["filesystem"] not in ("", "unknown")
    assert f["mount_point"] and str(scratch_dir.resolve()).startswith(f["mount_point"])
    assert isinstance(f["io_uring"], bool) and f["io_uring_reason"]
    assert isinstance(f["o_direct"], bool) and f["o_direct_reason"]
    table = machine.facts_table(f)
    assert table.height == len(machine._LABELS) and "unknown" not in table["value"][0]
    assert list(scratch_dir.iterdir()) == []


def test_facts_of_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        machine.facts(tmp_path / "absent")


def test_capabilities_can_be_forced_off(scratch_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_DISABLE_IO_URING", "1")
    monkeypatch.setenv("HOWFAST_DISABLE_DIRECT_IO", "1")
    uring, direct = capabilities.io_uring(), capabilities.direct_io(scratch_dir)
    assert not uring.supported and "HOWFAST_DISABLE_IO_URING" in uring.reason
    assert not direct.supported and "HOWFAST_DISABLE_DIRECT_IO" in direct.reason
