"""The cpu subject's settings: every size and count its experiments use, quick, full and
smoke side by side. The one place to change them."""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB


def _sets(largest: int) -> tuple[int, ...]:
    """Working sets from 4 KiB to `largest`, ×4 apart."""
    out, n = [], 4 * KiB
    while n <= largest:
        out.append(n)
        n *= 4
    return tuple(out)


@dataclass(frozen=True)
class Plan:
    """Sizes for the CPU and memory chapter."""

    working_sets: tuple[int, ...]  # pointer-chase working sets
    loads: int  # dependent loads timed per working set and repetition
    bandwidth_bytes: int  # the buffer read, written or copied (split between threads)
    bandwidth_passes: int  # passes over it per repetition
    ops: int  # lock/unlock, increments, system calls per repetition
    round_trips: int  # ping-pong round trips per repetition
    threads_created: int  # threads created and joined per repetition
    sysbench_bytes: int  # --memory-total-size of the sysbench cross-check
    memcpy_loops: int  # perf bench mem memcpy -l


QUICK = Plan(
    working_sets=_sets(256 * MiB),
    loads=1_000_000,
    bandwidth_bytes=128 * MiB,
    bandwidth_passes=4,
    ops=1_000_000,
    round_trips=20_000,
    threads_created=1_000,
    sysbench_bytes=2 * GiB,
    memcpy_loops=4,
)
FULL = Plan(
    working_sets=_sets(1 * GiB),
    loads=10_000_000,
    bandwidth_bytes=1 * GiB,
    bandwidth_passes=8,
    ops=10_000_000,
    round_trips=200_000,
    threads_created=10_000,
    sysbench_bytes=16 * GiB,
    memcpy_loops=8,
)

#: For the test suite: every code path of the chapter in seconds; its numbers mean nothing.
SMOKE = Plan(
    working_sets=(4 * KiB, 64 * KiB, 4 * MiB),
    loads=50_000,
    bandwidth_bytes=8 * MiB,
    bandwidth_passes=2,
    ops=20_000,
    round_trips=500,
    threads_created=50,
    sysbench_bytes=64 * MiB,
    memcpy_loops=1,
)
