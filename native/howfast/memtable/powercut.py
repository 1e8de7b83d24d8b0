"""Crash states a power cut would leave, built in user space.

``crash.py`` kills the writer with SIGKILL, which keeps the page cache: every write the
process made reaches the disk later. A power cut loses every write that was not yet
durable, or keeps only part of it. Here the memtable runs with ``record_io=True``: its
C++ writer records every write (the bytes, when it was handed to the kernel and when it
completed), every ``fdatasync``, every directory ``fsync``, file creation, preallocation
and removal, and every acknowledgement of records as durable (native/src/memtable/
iorecord.hpp). From that record, a crash state is built for a moment between two events:

* durable: a write completed before an ``fdatasync`` of its file began, when that
  ``fdatasync`` has returned (on an O_DSYNC file, a completed write is itself durable);
  a name created or removed before a directory ``fsync`` began that has returned;
* not yet durable: every other write handed over so far (completed or still in flight),
  creation, preallocation and removal. Each state drops all of them, or keeps a random
  subset, or keeps a random subset and tears one write at a 512-byte boundary (its first
  sectors written, the rest not).

The state is written into a fresh directory, the real ``recover()`` runs on it, and the
check is: every record acknowledged before that moment comes back byte-exact (or a
newer version of its key that was written), and nothing else returned differs from a
record that was written.
"""

from __future__ import annotations

import random
import shutil
import struct
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import _native, capabilities
from ..bench import Case, Outcome, Unsupported
from ..checks import checked
from ..scratch import Scratch

#: Small buffers and segments, so that a short run has many flushes, several segment
#: files and log files retired by flushes.
CAPACITY = 16 * 1024
RECORD_SIZE = 8 * 1024
SEGMENT_BYTES = 128 * 1024
SECTOR = 512
#: Keys overwritten at random, so recovery must also pick the newest version of a key.
KEYS = 40
MAX_VALUE = 6000
#: What a state keeps of the writes not yet durable (cycled through, state by state).
STYLES = ("drop_all", "keep_some", "tear_one")
#: Every write kept (not a crash state: what the files hold when nothing is lost).
KEEP_ALL = "keep_all"


@dataclass(frozen=True)
class PowercutMode:
    """A memtable configuration whose crash states are checked."""

    name: str
    flush: str
    buffers: int
    wal: bool
    dsync: bool

    def options(self, direct: bool) -> dict[str, Any]:
        return {
            "record_size": RECORD_SIZE,
            "flush": self.flush,
            "buffers": self.buffers,
            "wal": self.wal,
            "dsync": self.dsync,
            "direct": direct,
            "segment_bytes": SEGMENT_BYTES,
        }


#: Blocking, io_uring with 2 buffers and deep (8 buffers), with and without the log,
#: none with O_DSYNC segments (their durability then rests on fdatasync); and io_uring ×2
#: with O_DSYNC, where a completed write is durable by itself.
POWERCUT_MODES = (
    PowercutMode("log_blocking", "blocking", 1, wal=True, dsync=False),
    PowercutMode("log_uring2", "io_uring", 2, wal=True, dsync=False),
    PowercutMode("log_deep", "io_uring", 8, wal=True, dsync=False),
    PowercutMode("nolog_blocking", "blocking", 1, wal=False, dsync=False),
    PowercutMode("nolog_uring2", "io_uring", 2, wal=False, dsync=False),
    PowercutMode("nolog_deep", "io_uring", 8, wal=False, dsync=False),
    PowercutMode("log_uring2_dsync", "io_uring", 2, wal=True, dsync=True),
    PowercutMode("nolog_uring2_dsync", "io_uring", 2, wal=False, dsync=True),
)


def powercut_modes() -> tuple[PowercutMode, ...]:
    """The modes this machine can run (io_uring ones need io_uring)."""
    if capabilities.io_uring().supported:
        return POWERCUT_MODES
    return tuple(m for m in POWERCUT_MODES if m.flush == "blocking")


def mode_named(name: str) -> PowercutMode:
    for m in POWERCUT_MODES:
        if m.name == name:
            return m
    raise ValueError(f"mode must be one of {[m.name for m in POWERCUT_MODES]}, got {name!r}")


# ---- the recorded run ------------------------------------------------------------------------


@dataclass
class Recording:
    """One recorded run: the events, and every record put, in order (record i has the
    sequence number i + 1: one producer, a new memtable)."""

    mode: PowercutMode
    events: list[dict[str, Any]]
    records: list[tuple[bytes, bytes]]
    direct: bool


def value_for(key: int, version: int, rng: random.Random) -> bytes:
    """A value naming its key and version (so a returned value tells which write it was)."""
    return struct.pack("<QQ", key, version) + rng.randbytes(rng.randrange(MAX_VALUE))


def record_run(directory: Path, mode: PowercutMode, *, seed: int, records: int, direct: bool) -> Recording:
    """Runs the workload on a new memtable in `directory` (which must be empty) with
    record_io on: batches of 1 to 8 puts; with the log, flush() after about one batch in
    ten, without it after about one in three (flush() is then what makes records
    durable). The memtable is closed at the end; its files stay."""
    if records < 1:
        raise ValueError(f"records must be at least 1, got {records}")
    rng = random.Random(seed)
    put: list[tuple[bytes, bytes]] = []
    m = _native.Memtable(str(directory), CAPACITY, record_io=True, **mode.options(direct))
    try:
        while len(put) < records:
            batch = []
            for _ in range(min(rng.randint(1, 8), records - len(put))):
                key = rng.randrange(KEYS)
                batch.append((b"key-%d" % key, value_for(key, len(put) + len(batch), rng)))
            m.put_many(batch)
            put.extend(batch)
            if rng.random() < (0.1 if mode.wal else 0.33):
                m.flush()
    finally:
        m.close()
    return Recording(mode, m.io_record(), put, direct)


# ---- crash states ------------------------------------------------------------------------------


@dataclass
class Piece:
    """Bytes of one write, [offset, offset + len(data)) of `file`; `at` is the event
    after which it may be on disk (submitted), `done` when it completed (None: in flight)."""

    file: str
    offset: int
    data: bytes
    at: int
    done: int | None


@dataclass
class History:
    """A recording indexed for building crash states quickly."""

    events: list[dict[str, Any]]
    pieces: list[Piece]
    created: dict[str, tuple[int, bool]]  # file -> (event, O_DSYNC)
    unlinked: dict[str, int]
    fallocated: dict[str, tuple[int, int]]  # file -> (event, size)
    syncs: dict[str, list[tuple[int, int]]]  # file -> (start, done) of completed fdatasyncs
    dir_syncs: list[tuple[int, int]]
    acks: list[tuple[int, int]]  # (event, sequence number acknowledged through)


def history(events: list[dict[str, Any]]) -> History:
    """Indexes the events of a recording."""
    submits: dict[int, tuple[int, dict[str, Any]]] = {}
    dones: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    created: dict[str, tuple[int, bool]] = {}
    unlinked: dict[str, int] = {}
    fallocated: dict[str, tuple[int, int]] = {}
    sync_start: dict[int, int] = {}
    syncs: dict[str, list[tuple[int, int]]] = defaultdict(list)
    dir_syncs: list[tuple[int, int]] = []
    acks: list[tuple[int, int]] = []
    for i, e in enumerate(events):
        kind = e["kind"]
        if kind == "write_submit":
            submits[e["id"]] = (i, e)
        elif kind == "write_done":
            dones[e["id"]].append((i, e["offset"], e["length"]))
        elif kind in ("sync_start", "dir_sync_start"):
            sync_start[e["id"]] = i
        elif kind == "sync_done":
            syncs[e["file"]].append((sync_start[e["id"]], i))
        elif kind == "dir_sync_done":
            dir_syncs.append((sync_start[e["id"]], i))
        elif kind == "create":
            created[e["file"]] = (i, bool(e["dsync"]))
        elif kind == "unlink":
            unlinked[e["file"]] = i
        elif kind == "fallocate":
            fallocated[e["file"]] = (i, e["length"])
        elif kind == "ack":
            acks.append((i, e["offset"]))
    pieces: list[Piece] = []
    for wid, (at, sub) in submits.items():
        start, data, covered = sub["offset"], sub["data"], 0
        for done_at, off, length in dones.get(wid, []):
            # the completions of one write come in order: a short write, then its rest
            lo = off - start
            pieces.append(Piece(sub["file"], off, data[lo : lo + length], at, done_at))
            covered = max(covered, lo + length)
        if covered < len(data):  # the part never completed (still in flight at the end)
            pieces.append(Piece(sub["file"], start + covered, data[covered:], at, None))
    pieces.sort(key=lambda p: (p.at, p.offset))
    return History(events, pieces, created, unlinked, fallocated, dict(syncs), dir_syncs, acks)


@dataclass
class CrashState:
    """The files a power cut at event `point` leaves (name -> (size, [(offset, bytes)]),
    and what it did to the writes not yet durable."""

    point: int
    acked_seq: int
    files: dict[str, tuple[int, list[tuple[int, bytes]]]]
    pending: int = 0  # writes (or parts of writes) not yet durable
    dropped: int = 0
    kept: int = 0
    torn: int = 0


def _last_completed_start(spans: list[tuple[int, int]], point: int) -> int:
    """The latest start of a sync that returned before `point` (-1: none)."""
    return max((s for s, d in spans if d < point), default=-1)


def crash_state(h: History, point: int, style: str, rng: random.Random) -> CrashState:
    """What the disk may hold when power is cut after the first `point` events."""
    if not 0 <= point <= len(h.events):
        raise ValueError(f"point must be 0 to {len(h.events)}, got {point}")
    if style not in (*STYLES, KEEP_ALL):
        raise ValueError(f"style must be one of {(*STYLES, KEEP_ALL)}, got {style!r}")
    acked = max((seq for at, seq in h.acks if at < point), default=0)
    dir_durable = _last_completed_start(h.dir_syncs, point)
    keep_share = {"drop_all": 0.0, KEEP_ALL: 1.0}.get(style, rng.random())
    state = CrashState(point, acked, {})
    exists: dict[str, bool] = {}
    for name, (at, _dsync) in h.created.items():
        if at >= point:
            continue
        # a name created (or removed) before a directory fsync that returned is durable;
        # otherwise the creation (the removal) took effect or not
        present = at < dir_durable or rng.random() < keep_share
        removed_at = h.unlinked.get(name, point)
        if removed_at < point and (removed_at < dir_durable or rng.random() < keep_share):
            present = False
        exists[name] = present
    synced = {name: _last_completed_start(spans, point) for name, spans in h.syncs.items()}
    chosen: list[tuple[Piece, int, int]] = []  # piece, the bytes of it kept, the file size it leaves
    candidates: list[int] = []
    for p in h.pieces:
        if p.at >= point or not exists.get(p.file, False):
            continue
        dsync = h.created[p.file][1]
        done = point if p.done is None else p.done
        if done < point and (dsync or done < synced.get(p.file, -1)):  # durable
            chosen.append((p, len(p.data), len(p.data)))
            continue
        state.pending += 1
        keep = rng.random() < keep_share
        chosen.append((p, len(p.data), len(p.data)) if keep else (p, 0, 0))
        if keep:
            state.kept += 1
        else:
            state.dropped += 1
        candidates.append(len(chosen) - 1)
    if style == "tear_one":
        tearable = [i for i in candidates if _cuts(chosen[i][0])]
        if tearable:
            i = rng.choice(tearable)
            p, kept, _ = chosen[i]
            cut = rng.choice(_cuts(p)) - p.offset
            # the file's new size may have reached the disk with the first sectors only:
            # then the rest of the write reads as zeros
            chosen[i] = (p, cut, len(p.data) if rng.random() < 0.5 else cut)
            state.torn += 1
            state.kept -= kept > 0
            state.dropped -= kept == 0
    for name, present in exists.items():
        if not present:
            continue
        size = 0
        if name in h.fallocated:
            at, falloc = h.fallocated[name]
            if at < point and (at < synced.get(name, -1) or rng.random() < keep_share):
                size = falloc
        state.files[name] = (size, [])
    for p, kept, extent in chosen:
        if kept > 0:
            size, writes = state.files[p.file]
            writes.append((p.offset, p.data[:kept]))
            state.files[p.file] = (max(size, p.offset + extent), writes)
    return state


def _cuts(p: Piece) -> list[int]:
    """The 512-byte sector boundaries strictly inside a piece: where it can be torn."""
    first = (p.offset // SECTOR + 1) * SECTOR
    return list(range(first, p.offset + len(p.data), SECTOR))


def final_state(h: History) -> CrashState:
    """Every event applied, every write kept: what the files hold after the run."""
    return crash_state(h, len(h.events), KEEP_ALL, random.Random(0))


def materialize(state: CrashState, directory: Path) -> None:
    """Writes the state's files into `directory` (which must exist and be empty)."""
    for name, (size, writes) in state.files.items():
        with open(directory / name, "wb") as f:
            f.truncate(size)
            for offset, data in writes:
                f.seek(offset)
                f.write(data)


# ---- recovery and the check ---------------------------------------------------------------------


@dataclass
class Verdict:
    """What recovery returned for one crash state, against what was acknowledged."""

    acknowledged: int  # records acknowledged as durable before the crash point
    acknowledged_keys: int
    recovered_keys: int = 0
    newer: int = 0  # keys recovered at a version written after the last acknowledged one
    torn_records: int = 0  # partial records recovery found and skipped
    lost: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        return self.lost + self.damaged


Recover = Callable[[Path], Any]


def real_recovery(direct: bool) -> Recover:
    """The memtable's recover() with the crash test's sizes."""
    return lambda d: _native.recover(str(d), CAPACITY, record_size=RECORD_SIZE, direct=direct)


def flawed_recovery(flaw: str, direct: bool) -> Recover:
    """For the test of the checker: recovery that trusts records without their checksum
    ('no_checksum') or does not read the log ('no_log')."""
    return lambda d: _native._memtable_recover_flawed(str(d), CAPACITY, flaw, record_size=RECORD_SIZE, direct=direct)


def check_state(recording: Recording, state: CrashState, directory: Path, recover: Recover) -> Verdict:
    """Recovers the state written in `directory` and compares it with what was
    acknowledged (records with sequence numbers up to state.acked_seq)."""
    seq_of: dict[tuple[bytes, bytes], int] = {}
    for i, kv in enumerate(recording.records):
        seq_of[kv] = i + 1
    last_acked: dict[bytes, int] = {}
    for i in range(state.acked_seq):
        last_acked[recording.records[i][0]] = i + 1
    verdict = Verdict(state.acked_seq, len(last_acked))
    try:
        m = recover(directory)
    except Exception as e:  # noqa: BLE001 - recovery refusing the state is a finding, reported
        verdict.damaged.append(f"recover() failed: {type(e).__name__}: {e}")
        verdict.lost.extend(f"{k!r}: not recovered" for k in last_acked)
        return verdict
    got: dict[bytes, int] = {}
    try:
        verdict.torn_records = int(m.stats()["torn_records"])
        for key in m.keys():
            try:
                value = m.get(key)
            except OSError as e:
                verdict.damaged.append(f"{key!r}: get() failed: {e}")
                continue
            seq = seq_of.get((key, value)) if value is not None else None
            if seq is None:
                verdict.damaged.append(f"{key!r}: the value returned was never written under this key")
                continue
            got[key] = seq
        verdict.recovered_keys = len(got)
    finally:
        m.close()
    for key, seq in last_acked.items():
        if key not in got:
            if not any(d.startswith(repr(key)) for d in verdict.damaged):
                verdict.lost.append(f"{key!r}: acknowledged (seq {seq}), missing after recovery")
        elif got[key] < seq:
            verdict.lost.append(f"{key!r}: acknowledged at seq {seq}, recovered an older write (seq {got[key]})")
        else:
            verdict.newer += got[key] > seq
    return verdict


@dataclass
class Tally:
    """Totals over the crash states of one mode."""

    mode: str
    states: int = 0
    events: int = 0
    acknowledged: int = 0
    acknowledged_keys: int = 0
    recovered_keys: int = 0
    newer: int = 0
    torn_records: int = 0
    pending: int = 0
    dropped: int = 0
    kept: int = 0
    torn_writes: int = 0
    lost: int = 0
    damaged: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, state: CrashState, v: Verdict) -> None:
        self.states += 1
        self.acknowledged += v.acknowledged
        self.acknowledged_keys += v.acknowledged_keys
        self.recovered_keys += v.recovered_keys
        self.newer += v.newer
        self.torn_records += v.torn_records
        self.pending += state.pending
        self.dropped += state.dropped
        self.kept += state.kept
        self.torn_writes += state.torn
        self.lost += len(v.lost)
        self.damaged += len(v.damaged)
        if v.problems and len(self.examples) < 5:
            self.examples.append(f"point {state.point} (acked through seq {state.acked_seq}): {v.problems[0]}")


def crash_points(h: History, states: int, rng: random.Random) -> list[int]:
    """`states` moments to cut the power: spread over the whole run, each after some
    event (0: before anything happened is included once)."""
    n = len(h.events)
    if states < 1:
        raise ValueError(f"states must be at least 1, got {states}")
    return [0] + [rng.randint(1, n) for _ in range(states - 1)]


def check_mode(
    workdir: Path,
    mode: PowercutMode,
    *,
    states: int,
    states_per_run: int,
    records: int,
    direct: bool,
    seed: int = 0,
    recover: Recover | None = None,
) -> Tally:
    """Records runs of `mode` in `workdir` and checks `states` crash states of them
    (`states_per_run` per recorded run); every directory made is removed again."""
    if states_per_run < 1:
        raise ValueError(f"states_per_run must be at least 1, got {states_per_run}")
    recover = recover or real_recovery(direct)
    tally = Tally(mode.name)
    run = 0
    while tally.states < states:
        run_dir = workdir / f"run-{run}"
        run_dir.mkdir()
        try:
            rec = record_run(run_dir, mode, seed=seed * 1000 + run, records=records, direct=direct)
        finally:
            shutil.rmtree(run_dir, ignore_errors=True)
        h = history(rec.events)
        tally.events += len(h.events)
        rng = random.Random(seed * 1000 + run)
        for i, point in enumerate(crash_points(h, min(states_per_run, states - tally.states), rng)):
            state = crash_state(h, point, STYLES[i % len(STYLES)], rng)
            state_dir = workdir / f"state-{run}-{i}"
            state_dir.mkdir()
            try:
                materialize(state, state_dir)
                tally.add(state, check_state(rec, state, state_dir, recover))
            finally:
                shutil.rmtree(state_dir, ignore_errors=True)
        run += 1
    return tally


# ---- the experiment ------------------------------------------------------------------------------


def powercut_measurer(states: int, states_per_run: int, records: int):
    """Checks `states` crash states of the case's mode; fails loudly on any problem."""

    from .experiments import _fresh_dir, _remove_dir

    def measure(case: Case, scratch: Scratch) -> Outcome:
        mode = mode_named(case["mode"])
        if mode.flush == "io_uring":
            ring = capabilities.io_uring()
            if not ring.supported:
                raise Unsupported(f"io_uring: {ring.reason}")
        direct = capabilities.direct_io(str(scratch.path)).supported
        workdir = _fresh_dir(scratch, "powercut")
        try:
            t = check_mode(workdir, mode, states=states, states_per_run=states_per_run, records=records, direct=direct)
        finally:
            _remove_dir(scratch, workdir)
        if t.lost or t.damaged:
            raise RuntimeError(f"power-cut recovery lost or damaged records ({mode.name}): {t.examples}")
        return Outcome(
            {
                "states": (t.states, "states"),
                "events": (t.events, "events"),
                "acknowledged": (t.acknowledged, "records"),
                "acknowledged_keys": (t.acknowledged_keys, "keys"),
                "recovered_keys": (t.recovered_keys, "keys"),
                "newer": (t.newer, "keys"),
                "torn": (t.torn_records, "records"),
                "pending_writes": (t.pending, "writes"),
                "dropped_writes": (t.dropped, "writes"),
                "kept_writes": (t.kept, "writes"),
                "torn_writes": (t.torn_writes, "writes"),
                "problems": (t.lost + t.damaged, "problems"),
                "direct": (float(direct), "bool"),
            }
        )

    return measure


# every public function above refuses bad arguments with a clear exception
checked(globals())
