"""The storage subject's settings: every size and count its experiments use, quick
and full side by side. The one place to change them."""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True)
class Plan:
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
    # the queue-depth-32 random reads against fio: long enough (tens of thousands of I/Os)
    # and repeated often enough that a 10 % gap stands out from the disk's noise
    fio_qd32_file_size: int = 128 * MiB
    fio_repetitions: int = 5


QUICK = Plan()
# Measured whole on a 2-vCPU VM (virtio disk, about 1 GB/s) with 1 GiB matrix files, 512 MiB
# sweeps and 9 fio rounds, this chapter took 52 minutes, the engine matrix 16 of them and the
# fio check 15, and the added rounds bought little: a virtual disk's drift, not too few runs,
# kept 85 of 105 cases wider than ±3 %. A 256 MiB file still takes a quarter of a second or
# more per run at the disk's speed, 8× the quick profile's; the fio check adds rounds until
# its verdict anyway, so 5 first rounds suffice.
FULL = Plan(
    matrix_file_size=256 * MiB,
    sweep_file_size=256 * MiB,
    queue_file_size=256 * MiB,
    parallel_file_size=256 * MiB,
    memcpy_size=1024 * MiB,
    memcpy_rounds=10,
    fio_file_size=256 * MiB,
    fio_qd32_file_size=512 * MiB,
    fio_repetitions=5,
)

#: For the test suite: every code path of the chapter in seconds; its numbers mean nothing.
SMOKE = Plan(
    matrix_file_size=1 * MiB,
    sweep_block_sizes=(4 * KiB, 64 * KiB, 1 * MiB),
    sweep_file_size=1 * MiB,
    queue_depths=(1, 4, 32),
    queue_file_size=1 * MiB,
    parallel_jobs=2,
    parallel_file_size=2 * MiB,
    memcpy_size=1 * MiB,
    memcpy_rounds=2,
    fio_file_size=1 * MiB,
    fio_qd32_file_size=1 * MiB,
    fio_repetitions=2,
)
