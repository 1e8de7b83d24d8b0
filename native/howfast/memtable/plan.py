"""The memtable subject's settings: every size and count its experiments use, quick
and full side by side. The one place to change them."""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB

#: Memtable()'s default segment size (segment_bytes in native/src/memtable/bind.cpp; a
#: test checks the two agree): what a user gets, and what the fio table's extra row uses.
DEFAULT_SEGMENT_BYTES = 64 * MiB


@dataclass(frozen=True)
class Plan:
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
    segments_ahead: int = 2  # segment files a helper makes ahead of need (Memtable's default)
    queue_depth: int = 64  # records waiting for the writer at most (a group commit takes what is there)
    max_samples: int = 20_000  # per-record latencies stored per case and repetition (evenly spaced)
    variant_capacity: int = 1 * MiB  # pinning, queue depth and durability variants
    variant_bytes: int = 32 * MiB
    depth_capacity: int = 256 * KiB  # 1 to 32 buffers with O_DSYNC
    depth_buffers: tuple[int, ...] = (2, 4, 8, 16, 32)
    fio_capacities: tuple[int, ...] = (256 * KiB, 4 * MiB)  # the fio cross-check (physical limit) ...
    fio_min_flushes: int = 512  # ... with at least this many flushes per case ...
    fio_max_bytes: int = 128 * MiB  # ... where that stays within this many bytes ...
    fio_min_bytes: int = 0  # ... and at least this many bytes per run ...
    fio_rounds: int = 0  # ... in this many alternated rounds (0: the profile's repetitions)
    fio_default_capacity: int = 1 * MiB  # ... and at this flush size with the default segment size too
    rollover_capacity: int = 1 * MiB  # what a new segment costs: flushes of this size ...
    rollover_segments: tuple[int, ...] = (4 * MiB, 16 * MiB, 64 * MiB)  # ... into segment files of these sizes ...
    rollover_bytes: int = 128 * MiB  # ... and one holding the whole run (no rollover), this many bytes per run ...
    rollover_buffers: int = 4  # ... with this many buffers (a segment holds at least one flush per buffer) ...
    rollover_rounds: int = 3  # ... in this many alternated rounds
    crash_points: int = 6  # SIGKILLed writers recovered in the chapter (the tests run more)
    powercut_states: int = 1000  # power-cut crash states checked per mode (memtable/powercut.py) ...
    powercut_states_per_run: int = 100  # ... taken from recorded runs of this many states each ...
    powercut_records: int = 150  # ... of this many records
    breakdown_capacities: tuple[int, ...] = (64 * KiB, 1 * MiB, 16 * MiB)  # where the writer's time goes ...
    breakdown_bytes: int = 128 * MiB  # ... per case (at least min_flushes flushes) ...
    breakdown_rounds: int = 3  # ... counters on and off alternating, this many times


QUICK = Plan()
FULL = Plan(
    capacities=tuple(64 * KiB * 4**i for i in range(8)),  # 64 KiB ... 1 GiB, the seed's range in steps of 4×
    sweep_bytes=512 * MiB,
    min_flushes=4,
    max_flushes=2048,
    max_samples=50_000,
    variant_capacity=16 * MiB,
    variant_bytes=512 * MiB,
    fio_capacities=(64 * KiB, 1 * MiB, 2 * MiB, 16 * MiB, 128 * MiB, 1024 * MiB),
    fio_min_flushes=8,
    fio_max_bytes=2 * 1024 * MiB,
    fio_min_bytes=256 * MiB,  # small flushes vary from one to the next: 256 MiB per run at least ...
    fio_rounds=5,  # ... and 5 first rounds (the check adds rounds until its verdict or its cap)
    crash_points=30,
    powercut_states=1500,
    breakdown_bytes=512 * MiB,
    breakdown_rounds=5,
    rollover_segments=(4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB),
    rollover_bytes=1024 * MiB,  # the 1 GiB segment (the chapter's setting) holds the whole run
    rollover_rounds=5,
)

#: For the test suite: every code path of the chapter in seconds; its numbers mean nothing.
SMOKE = Plan(
    capacities=(64 * KiB, 256 * KiB),
    sweep_bytes=2 * MiB,
    min_flushes=2,
    max_flushes=16,
    max_samples=50,
    variant_capacity=256 * KiB,
    variant_bytes=2 * MiB,
    depth_capacity=64 * KiB,
    depth_buffers=(2, 4),
    fio_capacities=(256 * KiB,),
    fio_min_flushes=8,
    fio_max_bytes=2 * MiB,
    crash_points=1,
    powercut_states=6,
    powercut_states_per_run=6,
    powercut_records=30,
    breakdown_capacities=(64 * KiB, 256 * KiB),
    breakdown_bytes=2 * MiB,
    breakdown_rounds=2,
    deep_bytes=1 * MiB,
    max_deep_buffers=8,
    fio_default_capacity=256 * KiB,
    rollover_capacity=64 * KiB,
    rollover_segments=(256 * KiB,),
    rollover_bytes=1 * MiB,
    rollover_buffers=2,
    rollover_rounds=2,
)
