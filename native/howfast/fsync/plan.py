"""The fsync subject's settings: every size and count its experiments use, quick
and full side by side. The one place to change them."""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True)
class Plan:
    """Sizes for the fsync chapter."""

    writes: int  # durable writes per repetition at the base block size
    block_size: int
    sweep_block_sizes: tuple[int, ...]
    sweep_writes: int  # writes per repetition and block size in the sweep
    sweep_bytes_cap: int  # ... fewer when count * block size would pass this
    batch_sizes: tuple[int, ...]  # records per fsync (group commit)
    batch_records: int  # records per repetition and batch size
    batch_min_syncs: int  # at least this many fsyncs per repetition
    record_size: int
    crosscheck_writes: int  # writes per repetition in the fio cross-check


_POWERS_4K_TO_1M = tuple(4 * KiB * 2**i for i in range(9))
_BATCHES = tuple(2**i for i in range(11))  # 1 ... 1024

QUICK = Plan(
    writes=400,
    block_size=4 * KiB,
    sweep_block_sizes=_POWERS_4K_TO_1M,
    sweep_writes=100,
    sweep_bytes_cap=32 * MiB,
    batch_sizes=_BATCHES,
    batch_records=2048,
    batch_min_syncs=8,
    record_size=4 * KiB,
    crosscheck_writes=1000,
)
FULL = Plan(
    writes=5000,
    block_size=4 * KiB,
    sweep_block_sizes=_POWERS_4K_TO_1M,
    sweep_writes=1000,
    sweep_bytes_cap=512 * MiB,
    batch_sizes=_BATCHES,
    batch_records=32768,
    batch_min_syncs=32,
    record_size=4 * KiB,
    crosscheck_writes=10000,
)

#: For the test suite: every code path of the chapter in seconds; its numbers mean nothing.
SMOKE = Plan(
    writes=20,
    block_size=4 * KiB,
    sweep_block_sizes=(4 * KiB, 64 * KiB, 1024 * KiB),
    sweep_writes=10,
    sweep_bytes_cap=32 * MiB,
    batch_sizes=(1, 8, 64),
    batch_records=128,
    batch_min_syncs=2,
    record_size=4 * KiB,
    crosscheck_writes=40,
)
