"""The rocksdb subject's settings: every size and count its experiments use, quick
and full side by side. The one place to change them."""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True)
class Plan:
    """Sizes for the RocksDB (db_bench-like) experiments of the memtables chapter."""

    entries: int = 100_000  # keys written by fillseq; overwrite rewrites as many random keys
    reads: int = 100_000  # Gets per reader thread in readrandom
    rww_reads: int = 50_000  # Gets per reader thread in readwhilewriting
    key_size: int = 16  # seed 000's db_bench settings
    value_size: int = 800
    compression_ratio: float = 0.5  # db_bench's: values compress to about half
    write_buffer_size: int = 64 * MiB  # the memtable (db_bench's default) ...
    max_write_buffer_number: int = 2  # ... and how many may exist at once
    cache_size: int = 8 * MiB  # the block cache (db_bench's default)
    repetitions: int = 3  # fresh database each time; 3 or more lets the stopping rule add rounds
    max_samples: int = 200_000  # latencies kept per case and repetition (every k-th op beyond)
    disk_write_mib: int = 128  # the disk's sequential write bandwidth, for comparison
    crosscheck: bool = True  # run db_bench with the same settings beside ours, if installed
    crosscheck_repetitions: int = 3  # ... alternating with our loop


QUICK = Plan()
FULL = Plan(
    entries=1_000_000,
    reads=500_000,
    rww_reads=100_000,
    repetitions=3,
    crosscheck_repetitions=3,
    max_samples=500_000,
    disk_write_mib=1024,
)

#: For the test suite: every code path of the chapter in seconds; its numbers mean nothing.
SMOKE = Plan(
    entries=2000, reads=1000, rww_reads=400, repetitions=1, crosscheck_repetitions=1, max_samples=500, disk_write_mib=4
)
