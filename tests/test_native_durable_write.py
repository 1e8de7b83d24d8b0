"""The native durable-write loops: what they write is what reads back, they return
what was asked, and every bad argument raises a clear Python exception."""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np
import pytest

from conftest import block_file_matches
from howfast import _native

SYNCS = ["none", "fsync", "fdatasync", "dsync"]


def direct_alignment(directory: Path) -> int:
    probe = _native.probe_direct_io(str(directory))
    if not probe["supported"]:
        pytest.skip(f"O_DIRECT unsupported here: {probe['reason']}")
    return probe["alignment"]


@pytest.mark.parametrize("layout", ["append", "overwrite"])
@pytest.mark.parametrize("sync", SYNCS)
@pytest.mark.parametrize("direct", [False, True])
def test_bytes_written_read_back(scratch_dir: Path, sync: str, direct: bool, layout: str) -> None:
    if direct:
        direct_alignment(scratch_dir)
    path = scratch_dir / "blocks.dat"
    block, count = 8192, 37
    result = _native.durable_writes(str(path), block, count, sync=sync, direct=direct, layout=layout, seed=7)
    assert result["bytes"] == block * count
    assert block_file_matches(path, block, count, seed=7)


@pytest.mark.parametrize("sync", SYNCS)
def test_one_latency_per_write(scratch_dir: Path, sync: str) -> None:
    result = _native.durable_writes(str(scratch_dir / "f.dat"), 4096, 50, sync=sync)
    latency, sync_ns = result["latency_ns"], result["sync_ns"]
    assert latency.dtype == np.uint64 and latency.shape == (50,)
    assert (latency > 0).all()
    assert result["elapsed_ns"] >= latency.sum()
    if sync in ("fsync", "fdatasync"):
        assert (sync_ns > 0).all() and (sync_ns <= latency).all()
    else:
        assert not sync_ns.any()


def test_group_commit_writes_every_record(scratch_dir: Path) -> None:
    path = scratch_dir / "log.dat"
    result = _native.group_commit(str(path), 1024, 16, 5, sync="fdatasync", seed=3)
    assert result["records"] == 80
    assert result["bytes"] == 80 * 1024
    assert result["batch_ns"].shape == (5,) and (result["batch_ns"] > 0).all()
    assert block_file_matches(path, 1024, 80, seed=3)


def test_block_pattern_stamps_the_index() -> None:
    a, b = _native.block_pattern(4096, 0), _native.block_pattern(4096, 1)
    assert len(a) == 4096 and a != b
    assert int.from_bytes(b[:8], "little") == 1 and int.from_bytes(b[-8:], "little") == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"block_size": 0}, "block_size must be positive"),
        ({"block_size": -4096}, "block_size must be positive"),
        ({"count": 0}, "count must be positive"),
        ({"count": -1}, "count must be positive"),
        ({"count": 10**12}, "count must be at most"),
        ({"block_size": 256 << 20, "count": 100_000}, "too large for the scratch space"),
        ({"sync": "sometimes"}, "sync must be one of"),
        ({"layout": "sideways"}, "layout must be"),
    ],
)
def test_bad_arguments_raise_value_error(scratch_dir: Path, kwargs: dict, message: str) -> None:
    args = {"block_size": 4096, "count": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        _native.durable_writes(str(scratch_dir / "x.dat"), args.pop("block_size"), args.pop("count"), **args)
    assert not (scratch_dir / "x.dat").exists()


def test_unaligned_direct_block_raises(scratch_dir: Path) -> None:
    alignment = direct_alignment(scratch_dir)
    with pytest.raises(ValueError, match="not a multiple of"):
        _native.durable_writes(str(scratch_dir / "x.dat"), alignment + 100, 4, direct=True)


def test_missing_directory_raises(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        _native.durable_writes(str(tmp_path / "nowhere" / "x.dat"), 4096, 1)
    with pytest.raises(ValueError, match="does not exist"):
        _native.probe_direct_io(str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="does not exist"):
        _native.free_bytes(str(tmp_path / "nowhere"))


def test_existing_file_is_never_overwritten(scratch_dir: Path) -> None:
    path = scratch_dir / "mine.txt"
    path.write_text("keep me")
    with pytest.raises(OSError) as raised:
        _native.durable_writes(str(path), 4096, 1)
    assert raised.value.errno == errno.EEXIST
    assert raised.value.filename == str(path)
    assert path.read_text() == "keep me"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 1, 1, "fsync"), "record_size must be positive"),
        ((512, 0, 1, "fsync"), "records_per_sync must be positive"),
        ((512, 1, 0, "fsync"), "syncs must be positive"),
        ((512, 1, 1, "none"), "group commit needs"),
        ((512, 5_000_000, 5, "fsync"), "records_per_sync \\* syncs"),
    ],
)
def test_group_commit_bad_arguments(scratch_dir: Path, args: tuple, message: str) -> None:
    record, per_sync, syncs, sync = args
    with pytest.raises(ValueError, match=message):
        _native.group_commit(str(scratch_dir / "g.dat"), record, per_sync, syncs, sync=sync)


def test_probes_answer_with_reasons(scratch_dir: Path) -> None:
    uring = _native.probe_io_uring()
    assert isinstance(uring["supported"], bool) and uring["reason"]
    direct = _native.probe_direct_io(str(scratch_dir))
    assert isinstance(direct["supported"], bool)
    assert direct["alignment"] in (512, 1024, 2048, 4096) if direct["supported"] else direct["reason"]
    assert list(scratch_dir.iterdir()) == []  # the probe file is gone
