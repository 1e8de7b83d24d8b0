"""Crash safety: a writer in a child process is killed with SIGKILL at a random moment;
recover() must return every record acknowledged as durable (at that version or a newer
one), intact, and nothing partial.

At least 50 crash points run in the normal suite, spread over the modes (log with
io_uring or blocking flushes, no log with flush() per batch). Set HOWFAST_CRASH_POINTS
for a stress run, e.g. HOWFAST_CRASH_POINTS=500."""

from __future__ import annotations

import os
import random
from pathlib import Path

from howfast import _native
from howfast.memtable import crash as memtable

POINTS = max(50, int(os.environ.get("HOWFAST_CRASH_POINTS", "50")))


def test_every_acknowledged_record_survives_sigkill(scratch_dir: Path) -> None:
    modes = memtable.crash_modes()
    direct = bool(_native.probe_direct_io(str(scratch_dir))["supported"])
    rng = random.Random(2024)
    outcomes = []
    for point in range(POINTS):
        mode = modes[point % len(modes)]
        where = scratch_dir / f"point-{point}"
        where.mkdir()
        # mostly short lives (crashes while files are being created), some longer ones
        delay = rng.uniform(0.0, 0.01) if point % 5 == 0 else rng.uniform(0.0, 0.08)
        got = memtable.crash_once(where, mode, seed=point, delay_s=delay, direct=direct)
        assert got.problems == [], f"crash point {point} ({mode.name}, {delay * 1e3:.1f} ms): {got.problems[:5]}"
        outcomes.append(got)
        for f in sorted(where.rglob("*"), reverse=True):
            f.rmdir() if f.is_dir() else f.unlink()
        where.rmdir()
    assert len(outcomes) == POINTS
    assert sum(o.acknowledged for o in outcomes) > POINTS  # the kills came while records were flowing
    assert {o.mode for o in outcomes} == {m.name for m in modes}
    # segment files are made ahead of need, so kills came while some waited, never written
    assert sum(o.empty_segments > 0 for o in outcomes) > 0


def test_a_kill_between_making_segment_files_and_using_them(scratch_dir: Path) -> None:
    """Killed at once after it started (its helper making segment files, none written yet)
    and a little later (files made ahead while the first ones fill): nothing acknowledged
    is lost, and the files that were never written are found empty and removed."""
    direct = bool(_native.probe_direct_io(str(scratch_dir))["supported"])
    outcomes = []
    for i, mode in enumerate(memtable.crash_modes()):
        for delay in (0.0, 0.002, 0.02):
            where = scratch_dir / f"early-{i}-{delay}"
            where.mkdir()
            got = memtable.crash_once(where, mode, seed=100 + i, delay_s=delay, direct=direct)
            assert got.problems == [], f"{mode.name}, {delay * 1e3:.0f} ms: {got.problems[:5]}"
            outcomes.append(got)
    assert sum(o.empty_segments for o in outcomes) > 0


def test_expected_values_are_deterministic() -> None:
    a, b = memtable.expected_value(3, 17), memtable.expected_value(3, 17)
    assert a == b and a[:16] != memtable.expected_value(4, 17)[:16]
    assert len(memtable.expected_value(0, 1)) == 16 + 7919 % 6000
