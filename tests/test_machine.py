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


LEVELS = [{"name": "L1d", "size": 32 << 10, "shared_by": 1}, {"name": "L1i", "size": 32 << 10, "shared_by": 1},
          {"name": "L3", "size": 32 << 20, "shared_by": 2}]  # fmt: skip


@pytest.mark.parametrize(
    ("recorded", "virtual"),
    [("yes", True), ("yes (QEMU)", True), ("none detected", False), ("", False), (None, False)],
)
def test_virtual_reads_the_recorded_hypervisor(recorded: str | None, virtual: bool) -> None:
    assert machine.virtual({"hypervisor": recorded}) is virtual
    assert machine.virtual({}) is False  # a set recorded before the fact was


def test_recorded_topology_words_tell_a_shared_cache_as_the_measuring_machine_saw_it() -> None:
    vm = {"hypervisor": "yes (QEMU)", "cache_levels": LEVELS, "cache_topology": "L1d 32 KiB (one per core); L3 32 MiB "
          "(shared by 2 CPUs)"}  # fmt: skip
    guest = "L1d 32 KiB (one per core); L3 32 MiB (shared by this VM's 2 CPUs and, on the host, perhaps by others)"
    assert machine.recorded_topology_words(vm) == guest
    bare = {**vm, "hypervisor": "none detected"}
    assert machine.recorded_topology_words(bare) == "L1d 32 KiB (one per core); L3 32 MiB (shared by 2 CPUs)"
    # a set recorded before cache levels were keeps its stored words, or the older sizes, or says so
    assert machine.recorded_topology_words({"hypervisor": "yes", "cache_topology": "L3 8 MiB"}) == "L3 8 MiB"
    assert machine.recorded_topology_words({"caches": "L1d 32K, L3 8192K"}) == "L1d 32K, L3 8192K"
    assert machine.recorded_topology_words({}) == "unknown"
    row = dict(machine.facts_table({**vm, "memory_bytes": 2**30}).iter_rows())
    assert row["Caches (size of one, who shares it)"] == guest
