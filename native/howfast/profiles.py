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


@dataclass(frozen=True)
class SqlitePlan:
    """Sizes for the SQLite experiments of the storing-data chapter."""


@dataclass(frozen=True)
class MemtablePlan:
    """Sizes for the memtables chapter."""


@dataclass(frozen=True)
class RocksdbPlan:
    """Sizes for the RocksDB (db_bench-like) experiments of the memtables chapter."""


@dataclass(frozen=True)
class Profile:
    name: str
    repetitions: int
    fsync: FsyncPlan
    storage: StoragePlan = StoragePlan()
    sqlite: SqlitePlan = SqlitePlan()
    memtable: MemtablePlan = MemtablePlan()
    rocksdb: RocksdbPlan = RocksdbPlan()


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
FULL_STORAGE = StoragePlan()

QUICK_SQLITE = SqlitePlan()
FULL_SQLITE = SqlitePlan()

QUICK_MEMTABLE = MemtablePlan()
FULL_MEMTABLE = MemtablePlan()

QUICK_ROCKSDB = RocksdbPlan()
FULL_ROCKSDB = RocksdbPlan()

PROFILES: dict[str, Profile] = {
    "quick": Profile(name="quick", repetitions=3, fsync=QUICK_FSYNC, storage=QUICK_STORAGE, sqlite=QUICK_SQLITE,
                     memtable=QUICK_MEMTABLE, rocksdb=QUICK_ROCKSDB),
    "full": Profile(name="full", repetitions=5, fsync=FULL_FSYNC, storage=FULL_STORAGE, sqlite=FULL_SQLITE,
                    memtable=FULL_MEMTABLE, rocksdb=FULL_ROCKSDB),
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
