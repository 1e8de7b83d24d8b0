"""The hashing subject's settings: every size and run length its experiments use,
quick, full and smoke side by side. The one place to change them."""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB

#: 16 B to 16 MiB, ×4 apart.
_SIZES = tuple(16 * 4**i for i in range(11))


@dataclass(frozen=True)
class Plan:
    """Sizes for the hashing chapter."""

    sizes: tuple[int, ...]  # input sizes of the native sweep and of the Python calls
    table_size: int  # the input size of the table beside the reference machines (one of sizes)
    seconds: float  # each measurement hashes about this long (iterations calibrated), in 5 slices
    python_seconds: float  # the same for the Python timing loops
    openssl_cases: tuple[tuple[str, int], ...]  # (algorithm, block size) for `openssl speed`
    openssl_seconds: int  # `openssl speed -seconds` (whole seconds only)
    xxhsum_cases: tuple[tuple[str, int], ...]  # (algorithm, block size) for `xxhsum -b`
    xxhsum_iterations: int  # `xxhsum -i`: it reports the fastest of these (about a second each)
    ours_crosscheck_seconds: float  # our side of a cross-check hashes this long


QUICK = Plan(
    sizes=_SIZES,
    table_size=64 * KiB,
    seconds=0.025,
    python_seconds=0.01,
    openssl_cases=(("sha256", 16 * KiB), ("sha3-256", 16 * KiB), ("sha256", 64)),
    openssl_seconds=1,
    xxhsum_cases=(("xxh64", 16 * KiB), ("xxh3_64_dispatch", 16 * KiB)),
    xxhsum_iterations=1,
    ours_crosscheck_seconds=0.25,
)
FULL = Plan(
    sizes=_SIZES,
    table_size=64 * KiB,
    seconds=0.2,
    python_seconds=0.1,
    openssl_cases=tuple(
        (a, n) for a in ("sha3-256", "sha256", "sha1", "md5", "blake2b512") for n in (64, 1024, 16 * KiB)
    ),
    # 1 s a round, as quick: the check adds rounds until its verdict anyway (at 3 s the
    # openssl check took 8.7 of the chapter's 18.8 full-profile minutes on a 2-vCPU VM)
    openssl_seconds=1,
    # the dispatching XXH3 entry points only: xxhsum's XXH3 picks its vector loop at run
    # time as they do (crosscheck.XXHSUM_VARIANTS)
    xxhsum_cases=tuple(
        (a, n) for a in ("xxh64", "xxh3_64_dispatch", "xxh3_128_dispatch") for n in (1 * KiB, 100 * KiB)
    ),
    xxhsum_iterations=3,
    ours_crosscheck_seconds=1.0,
)

#: For the test suite: every code path of the chapter in seconds; its numbers mean nothing.
SMOKE = Plan(
    sizes=(16, 4 * KiB, 64 * KiB),
    table_size=64 * KiB,
    seconds=0.002,
    python_seconds=0.002,
    openssl_cases=(("sha256", 16 * KiB),),
    openssl_seconds=1,
    xxhsum_cases=(("xxh64", 16 * KiB),),
    xxhsum_iterations=0,  # one short calibration pass
    ours_crosscheck_seconds=0.01,
)
