"""Power-cut crash states (howfast/memtable/powercut.py): the memtable's record of its
writes and syncs replays to the very bytes of its files; crash states built from it
(writes not yet durable dropped, kept, or torn at 512 bytes) recover every acknowledged
record byte-exact and return nothing that was not written; a recovery with a deliberate
flaw is caught.

The suite checks 60 states per mode; set HOWFAST_POWERCUT_STATES for a stress run,
e.g. HOWFAST_POWERCUT_STATES=1000."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from howfast import _native, capabilities
from howfast.memtable import powercut

STATES = max(60, int(os.environ.get("HOWFAST_POWERCUT_STATES", "60")))
MODES = powercut.powercut_modes()


@pytest.fixture(scope="module")
def direct(tmp_path_factory: pytest.TempPathFactory) -> bool:
    return bool(_native.probe_direct_io(str(tmp_path_factory.mktemp("probe")))["supported"])


def real_files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_the_record_replays_to_the_real_files(mode: powercut.PowercutMode, tmp_path: Path, direct: bool) -> None:
    run, replay = tmp_path / "run", tmp_path / "replay"
    run.mkdir()
    replay.mkdir()
    rec = powercut.record_run(run, mode, seed=7, records=120, direct=direct)
    kinds = {e["kind"] for e in rec.events}
    assert {"create", "write_submit", "write_done", "ack"} <= kinds
    assert "sync_start" in kinds or mode.dsync
    powercut.materialize(powercut.final_state(powercut.history(rec.events)), replay)
    real = real_files(run)
    assert real and any(name.startswith("segment-") for name in real)
    assert real_files(replay) == real  # the same names, the same bytes


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_every_acknowledged_record_survives_a_power_cut(
    mode: powercut.PowercutMode, tmp_path: Path, direct: bool
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    t = powercut.check_mode(work, mode, states=STATES, states_per_run=30, records=120, direct=direct, seed=3)
    assert (t.lost, t.damaged) == (0, 0), t.examples
    assert t.states == STATES
    assert t.acknowledged > STATES  # the cuts came while records were acknowledged
    assert t.dropped > 0 and t.kept > 0 and t.torn_writes > 0  # every kind of state was built
    assert list(work.iterdir()) == []


def _log_mode() -> powercut.PowercutMode:
    return powercut.mode_named("log_uring2" if capabilities.io_uring().supported else "log_blocking")


@pytest.mark.parametrize("flaw, finds", [("no_checksum", "damaged"), ("no_log", "lost")])
def test_a_flawed_recovery_is_caught(flaw: str, finds: str, tmp_path: Path, direct: bool) -> None:
    """Recovery that trusts a record without its checksum returns torn records; one that
    does not read the log loses acknowledged records: the checker must see both."""
    broken = powercut.flawed_recovery(flaw, direct)
    t = powercut.check_mode(
        tmp_path, _log_mode(), states=120, states_per_run=60, records=150, direct=direct, seed=1, recover=broken
    )
    assert getattr(t, finds) > 0, f"the checker did not notice recovery with flaw {flaw}"
    # the real recovery, on the very same states (same seeds), finds nothing
    t = powercut.check_mode(
        tmp_path,
        _log_mode(),
        states=120,
        states_per_run=60,
        records=150,
        direct=direct,
        seed=1,
        recover=powercut.flawed_recovery("none", direct),
    )
    assert (t.lost, t.damaged) == (0, 0), t.examples


# ---- the model of durability, on hand-made records ------------------------------------------------


def _events(*spec: tuple) -> list[dict]:
    out = []
    for kind, file, wid, offset, data in spec:
        out.append(
            {
                "kind": kind,
                "file": file,
                "id": wid,
                "offset": offset,
                "length": len(data) if data else 0,
                "dsync": kind == "create" and data == b"dsync",
                "data": data if kind == "write_submit" else None,
            }
        )
    return out


A, B = b"a" * 1024, b"b" * 1024
RECORD = _events(
    ("create", "wal-0000000000.log", 0, 0, b""),
    ("dir_sync_start", None, 1, 0, b""),
    ("dir_sync_done", None, 1, 0, b""),
    ("write_submit", "wal-0000000000.log", 2, 0, A),
    ("write_done", "wal-0000000000.log", 2, 0, A),
    ("sync_start", "wal-0000000000.log", 3, 0, b""),
    ("write_submit", "wal-0000000000.log", 4, 1024, B),  # after the sync began: not covered
    ("write_done", "wal-0000000000.log", 4, 1024, B),
    ("sync_done", "wal-0000000000.log", 3, 0, b""),
    ("create", "segment-0000000000.dat", 0, 0, b"dsync"),  # O_DSYNC, name never synced
    ("write_submit", "segment-0000000000.dat", 5, 0, A),
    ("write_done", "segment-0000000000.dat", 5, 0, A),
)


def test_what_a_power_cut_keeps_when_everything_not_durable_is_dropped() -> None:
    h = powercut.history(RECORD)
    rng = random.Random(0)
    assert powercut.crash_state(h, 2, "drop_all", rng).files == {}  # name not yet durable
    s = powercut.crash_state(h, 5, "drop_all", rng)
    assert s.files == {"wal-0000000000.log": (0, [])} and s.dropped == 1  # done, not synced
    s = powercut.crash_state(h, 9, "drop_all", rng)
    assert s.files == {"wal-0000000000.log": (1024, [(0, A)])}  # synced; B came after the sync began
    assert s.pending == 1 and s.dropped == 1
    s = powercut.crash_state(h, len(RECORD), "drop_all", rng)
    assert set(s.files) == {"wal-0000000000.log"}  # the segment's name may be lost


def test_a_torn_write_keeps_whole_sectors_from_its_start() -> None:
    h = powercut.history(RECORD)
    sizes = set()
    for seed in range(20):
        s = powercut.crash_state(h, 9, "tear_one", random.Random(seed))  # B is the one write not durable
        assert s.torn == 1 and s.pending == 1
        size, writes = s.files["wal-0000000000.log"]
        assert writes == [(0, A), (1024, B[:512])]  # B's one sector boundary inside it is at 1536
        sizes.add(size)
    assert sizes == {1536, 2048}  # the size may or may not cover the sector never written


def test_final_state_keeps_every_write() -> None:
    s = powercut.final_state(powercut.history(RECORD))
    assert s.files["wal-0000000000.log"] == (2048, [(0, A), (1024, B)])
    assert s.files["segment-0000000000.dat"] == (1024, [(0, A)])


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    h = powercut.history(RECORD)
    with pytest.raises(ValueError, match="point must be"):
        powercut.crash_state(h, len(RECORD) + 1, "drop_all", random.Random(0))
    with pytest.raises(ValueError, match="style must be"):
        powercut.crash_state(h, 1, "keep_most", random.Random(0))
    with pytest.raises(ValueError, match="mode must be"):
        powercut.mode_named("nope")
    with pytest.raises(ValueError, match="flaw must be"):
        _native._memtable_recover_flawed(str(tmp_path), 16384, "sloppy")
    with pytest.raises(ValueError, match="record_io"):
        _native.Memtable(str(tmp_path), 16384, direct=False).io_record()
    with pytest.raises(ValueError, match="record_io is for a new memtable"):
        _native.recover(str(tmp_path), 16384, direct=False, record_io=True)


def test_flush_without_log_makes_new_segment_names_durable(tmp_path: Path, direct: bool) -> None:
    """Without the log and O_DSYNC, flush() must fsync the directory after a segment was
    created (an fdatasync of the file does not make its name durable)."""
    rec = powercut.record_run(tmp_path, powercut.mode_named("nolog_blocking"), seed=5, records=80, direct=direct)
    ev = rec.events
    created = {e["file"]: i for i, e in enumerate(ev) if e["kind"] == "create"}
    starts = {e["id"]: i for i, e in enumerate(ev) if e["kind"] == "dir_sync_start"}
    synced = [(starts[e["id"]], i) for i, e in enumerate(ev) if e["kind"] == "dir_sync_done"]
    acks = [i for i, e in enumerate(ev) if e["kind"] == "ack"]
    assert len(created) > 1 and acks
    for a in acks:  # every file written before an acknowledgement has a durable name by then
        written = {e["file"] for e in ev[:a] if e["kind"] == "write_done"}
        for name in written:
            c = created[name]
            assert any(c < s and d < a for s, d in synced), f"{name} written, acknowledged at {a}, name not synced"


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_power_cut_between_making_a_segment_file_and_using_it(
    mode: powercut.PowercutMode, tmp_path: Path, direct: bool
) -> None:
    """Segment files are made ahead of need by a helper thread: cuts between a file's
    creation (its preallocation, its directory fsync) and its first write, and after the
    run for the files never written, in every style, recover every acknowledged record;
    such states do hold segment files with nothing written in them."""
    (tmp_path / "run").mkdir()
    rec = powercut.record_run(tmp_path / "run", mode, seed=11, records=100, direct=direct)
    h = powercut.history(rec.events)
    first_write: dict[str, int] = {}
    for i, e in enumerate(rec.events):
        if e["kind"] == "write_submit":
            first_write.setdefault(e["file"], i)
    segments = [(name, at) for name, (at, _) in h.created.items() if name.startswith("segment-")]
    assert any(name not in first_write for name, _ in segments)  # made ahead, never written
    points = set()
    for name, made in segments:
        until = first_write.get(name, len(rec.events))
        points |= {made + 1, (made + 1 + until) // 2, until}
    rng = random.Random(5)
    tally = powercut.Tally(mode.name)
    unwritten = 0
    for n, point in enumerate(sorted(points)):
        for style in powercut.STYLES:
            state = powercut.crash_state(h, point, style, rng)
            unwritten += any(name.startswith("segment-") and not writes for name, (_, writes) in state.files.items())
            where = tmp_path / f"state-{n}-{style}"
            where.mkdir()
            powercut.materialize(state, where)
            tally.add(state, powercut.check_state(rec, state, where, powercut.real_recovery(direct)))
    assert (tally.lost, tally.damaged) == (0, 0), tally.examples
    assert unwritten > 0 and tally.states == 3 * len(points)
