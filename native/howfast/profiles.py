"""Profiles: the one place that decides sizes and repetitions.

``quick`` is for workshops and tests (each chapter in well under a minute on two
cores); ``full`` is for publishing. The profile comes from ``$HOWFAST_PROFILE``, else
from Quarto's ``$QUARTO_PROFILE``, else ``quick``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True)
class FsyncPlan:
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


@dataclass(frozen=True)
class StoragePlan:
    """Sizes for the storing-data chapter (disk engines, page cache, parallel jobs)."""

    matrix_file_size: int = 32 * MiB  # per case of the engine matrix
    matrix_block_size: int = 256 * KiB
    large_block_size: int = 1 * MiB
    sweep_block_sizes: tuple[int, ...] = tuple(4 * KiB * 2**i for i in range(11))  # 4 KiB ... 4 MiB
    sweep_file_size: int = 32 * MiB
    queue_depths: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)
    queue_block_size: int = 4 * KiB
    queue_file_size: int = 16 * MiB
    parallel_jobs: int = 8
    parallel_block_size: int = 1 * MiB
    parallel_file_size: int = 16 * MiB  # per job
    memcpy_size: int = 256 * MiB
    memcpy_rounds: int = 5
    fio_file_size: int = 32 * MiB


@dataclass(frozen=True)
class SqlitePlan:
    """Sizes for the SQLite experiments of the storing-data chapter."""

    row_size: int = 1000  # bytes per row, as the seeds' sqlite-bench runs
    batch_sizes: tuple[int, ...] = (1, 1000)  # rows per transaction
    rows: tuple[int, ...] = (1000, 10000)  # rows per repetition, one per batch size
    full_sync_rows: tuple[int, ...] = (200, 10000)  # ... with synchronous=FULL (an fsync per commit)
    big_row_size: int = 4096  # the "rows of 4 KB" of seed 003, measured too
    fsync_baseline_writes: int = 200  # plain 4 KiB write + fsync, the seed's "just fsync"
    cli_rows: tuple[int, ...] = (1000, 10000)  # the sqlite3 shell cross-check, per batch size
    client_rows: tuple[int, ...] = (1000, 10000)  # client cost on tmpfs (no disk noise), per batch size


@dataclass(frozen=True)
class MemtablePlan:
    """Sizes for the memtables chapter."""

    record_size: int = 16 * KiB  # framed bytes per record (header, 16-byte key, value), as the seed's 16 KB
    capacities: tuple[int, ...] = tuple(64 * KiB * 4**i for i in range(5))  # 64 KiB ... 16 MiB
    sweep_bytes: int = 32 * MiB  # bytes per case, within the flush counts below
    min_flushes: int = 4
    max_flushes: int = 128
    deep_buffers: int = 8  # the io_uring case with flushes overlapping (besides double buffering) ...
    deep_bytes: int = 32 * MiB  # ... with more buffers for small capacities, up to this much memory
    max_deep_buffers: int = 32
    max_buffer_bytes: int = 2 * 1024 * MiB  # buffers * capacity at most (fewer buffers at large capacities)
    producers: int = 2  # threads feeding the single writer (the seed: 8 goroutines on 8 cores)
    segment_bytes: int = 1024 * MiB  # per segment file (a run's files are no larger than it writes)
    queue_depth: int = 64  # records waiting for the writer at most (a group commit takes what is there)
    max_samples: int = 20_000  # per-record latencies stored per case and repetition (evenly spaced)
    variant_capacity: int = 1 * MiB  # pinning, queue depth and durability variants
    variant_bytes: int = 32 * MiB
    depth_capacity: int = 256 * KiB  # 1 to 32 buffers with O_DSYNC
    depth_buffers: tuple[int, ...] = (2, 4, 8, 16, 32)
    fio_capacities: tuple[int, ...] = (256 * KiB, 4 * MiB)  # the fio cross-check (physical limit) ...
    fio_min_flushes: int = 512  # ... with at least this many flushes per case ...
    fio_max_bytes: int = 128 * MiB  # ... where that stays within this many bytes
    crash_points: int = 6  # SIGKILLed writers recovered in the chapter (the tests run more)


@dataclass(frozen=True)
class RocksdbPlan:
    """Sizes for the RocksDB (db_bench-like) experiments of the memtables chapter."""

    entries: int = 100_000  # keys written by fillseq; overwrite rewrites as many random keys
    reads: int = 100_000  # Gets per reader thread in readrandom
    rww_reads: int = 50_000  # Gets per reader thread in readwhilewriting
    key_size: int = 16  # seed 000's db_bench settings
    value_size: int = 800
    repetitions: int = 2  # fresh database each time
    max_samples: int = 200_000  # latencies kept per case and repetition (every k-th op beyond)
    disk_write_mib: int = 128  # the disk's sequential write bandwidth, for comparison
    crosscheck: bool = True  # run db_bench with the same settings beside ours, if installed
    crosscheck_repetitions: int = 2  # ... alternating with our loop


@dataclass(frozen=True)
class Profile:
    name: str
    repetitions: int
    fsync: FsyncPlan
    storage: StoragePlan = StoragePlan()
    sqlite: SqlitePlan = SqlitePlan()
    memtable: MemtablePlan = MemtablePlan()
    rocksdb: RocksdbPlan = RocksdbPlan()
    cell_timeout: int = 900  # seconds one chapter cell may run under `python -m howfast execute`


_POWERS_4K_TO_1M = tuple(4 * KiB * 2**i for i in range(9))
_BATCHES = tuple(2**i for i in range(11))  # 1 ... 1024

# Each subject's quick and full sizes, side by side.
QUICK_FSYNC = FsyncPlan(
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
FULL_FSYNC = FsyncPlan(
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

QUICK_STORAGE = StoragePlan()
FULL_STORAGE = StoragePlan(
    matrix_file_size=1024 * MiB,
    sweep_file_size=512 * MiB,
    queue_file_size=256 * MiB,
    parallel_file_size=512 * MiB,
    memcpy_size=1024 * MiB,
    memcpy_rounds=10,
    fio_file_size=1024 * MiB,
)

QUICK_SQLITE = SqlitePlan(rows=(10_000, 30_000), full_sync_rows=(300, 30_000), fsync_baseline_writes=200,
                          cli_rows=(5_000, 30_000), client_rows=(10_000, 30_000))
FULL_SQLITE = SqlitePlan(rows=(1_000_000, 1_000_000), full_sync_rows=(20_000, 1_000_000), fsync_baseline_writes=5000,
                         cli_rows=(50_000, 500_000), client_rows=(50_000, 500_000))

QUICK_MEMTABLE = MemtablePlan()
FULL_MEMTABLE = MemtablePlan(
    capacities=tuple(64 * KiB * 2**i for i in range(15)),  # 64 KiB ... 1 GiB, as the seed
    sweep_bytes=1024 * MiB,
    min_flushes=4,
    max_flushes=2048,
    max_samples=50_000,
    variant_capacity=16 * MiB,
    variant_bytes=1024 * MiB,
    fio_capacities=(64 * KiB, 1 * MiB, 2 * MiB, 16 * MiB, 128 * MiB, 1024 * MiB),
    fio_min_flushes=16,
    fio_max_bytes=2 * 1024 * MiB,
    crash_points=30,
)

QUICK_ROCKSDB = RocksdbPlan()
FULL_ROCKSDB = RocksdbPlan(entries=1_000_000, reads=500_000, rww_reads=100_000, repetitions=3,
                           crosscheck_repetitions=2, max_samples=500_000, disk_write_mib=1024)

PROFILES: dict[str, Profile] = {
    "quick": Profile(name="quick", repetitions=3, fsync=QUICK_FSYNC, storage=QUICK_STORAGE, sqlite=QUICK_SQLITE,
                     memtable=QUICK_MEMTABLE, rocksdb=QUICK_ROCKSDB),
    "full": Profile(name="full", repetitions=5, fsync=FULL_FSYNC, storage=FULL_STORAGE, sqlite=FULL_SQLITE,
                    memtable=FULL_MEMTABLE, rocksdb=FULL_ROCKSDB, cell_timeout=6 * 3600),
}


def profile_name() -> str:
    """The active profile's name, from the environment."""
    explicit = os.environ.get("HOWFAST_PROFILE", "").strip()
    if explicit:
        return explicit
    # Quarto sets QUARTO_PROFILE to a comma-separated list of active profiles.
    for name in os.environ.get("QUARTO_PROFILE", "").split(","):
        if name.strip() in PROFILES:
            return name.strip()
    return "quick"


def current_profile(name: str | None = None) -> Profile:
    """The named profile, else the active one; ValueError for an unknown name."""
    chosen = name or profile_name()
    if chosen not in PROFILES:
        raise ValueError(f"unknown profile {chosen!r}: choose one of {', '.join(PROFILES)}")
    return PROFILES[chosen]
