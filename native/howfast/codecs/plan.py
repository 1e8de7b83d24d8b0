"""The codecs subject's settings (compression and sorting): every size and run length its
experiments use, quick, full and smoke side by side. The one place to change them."""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB

#: (codec, level) in the chapter's order; lz4 and snappy take level 0 (their one setting).
LEVELS: tuple[tuple[str, int], ...] = (
    ("lz4", 0),
    ("snappy", 0),
    ("zstd", 1),
    ("zstd", 3),
    ("zstd", 9),
    ("zstd", 19),
    ("lz4hc", 9),
    ("zlib", 1),
    ("zlib", 6),
    ("zlib", 9),
    ("brotli", 1),
    ("brotli", 5),
    ("brotli", 11),
)

#: The inputs, in the chapter's order (experiments.INPUTS says what each is).
INPUTS = ("text", "json", "csv", "binary", "random")


@dataclass(frozen=True)
class Plan:
    """Sizes for the compress-encode-sort chapter."""

    levels: tuple[tuple[str, int], ...]  # (codec, level) measured
    inputs: tuple[str, ...]  # which inputs
    slow_levels: tuple[tuple[str, int], ...]  # levels measured on `slow_inputs` only (a pass takes seconds)
    slow_inputs: tuple[str, ...]
    size: int  # bytes of each input (the text and the binary: at most their real size)
    blocks: tuple[int, ...]  # block sizes (0: the whole input as one block)
    block_inputs: tuple[str, ...]  # inputs measured in blocks too; every input is measured as one buffer
    seconds: float  # each measurement runs about this long (iterations calibrated), in slices
    crosscheck_levels: tuple[tuple[str, int], ...]  # (codec, level) beside `zstd -b` / `lz4 -b`
    crosscheck_inputs: tuple[str, ...]  # on these inputs
    crosscheck_seconds: int  # the tools' -i (whole seconds per direction)
    ours_crosscheck_seconds: float  # our side of a cross-check runs about this long per direction
    sort_sizes: tuple[int, ...]  # elements of each sort
    sort_seconds: float  # each sort measurement runs about this long (at least one sort)
    python_sort_seconds: float
    records: int  # records of the serialization rows
    serial_seconds: float  # each serialization measurement runs about this long


_SLOW = (("zstd", 19), ("brotli", 11))
_CROSS = (("zstd", 1), ("zstd", 3), ("zstd", 19), ("lz4", 0), ("lz4hc", 9))
#: the full profile's cross-checks leave out zstd -19: a pass of it takes seconds on each side,
#: and with it this subject alone took over 45 minutes of the whole book's two hours
_CROSS_FULL = tuple(level for level in _CROSS if level not in _SLOW)

QUICK = Plan(
    levels=LEVELS,
    inputs=INPUTS,
    slow_levels=_SLOW,
    slow_inputs=("text", "json"),
    size=256 * KiB,
    blocks=(64 * KiB, 0),
    block_inputs=("text", "json"),
    seconds=0.01,
    crosscheck_levels=(("zstd", 1), ("lz4", 0)),
    crosscheck_inputs=("text",),
    crosscheck_seconds=1,
    ours_crosscheck_seconds=0.5,
    sort_sizes=(1_000_000,),
    sort_seconds=0.02,
    python_sort_seconds=0.02,
    records=20_000,
    serial_seconds=0.05,
)
FULL = Plan(
    levels=LEVELS,
    inputs=INPUTS,
    # zstd -19 and brotli -11 take seconds to tens of seconds per 16 MiB pass: on every input
    # they kept the first whole full run measuring past the session's end, so they run on the
    # two text-like inputs, as on quick
    slow_levels=_SLOW,
    slow_inputs=("text", "json"),
    # 4 MiB: at 16 MiB one round of the compression sweep took 8.5 minutes, most of it in
    # the slow levels' passes (the whole subject did not finish within 40 minutes)
    size=4 * MiB,
    blocks=(64 * KiB, 0),
    block_inputs=INPUTS,
    seconds=0.15,
    crosscheck_levels=_CROSS_FULL,
    crosscheck_inputs=("text", "json"),
    crosscheck_seconds=1,
    ours_crosscheck_seconds=1.0,
    sort_sizes=(1_000_000, 100_000_000),
    sort_seconds=0.5,
    python_sort_seconds=0.5,
    records=200_000,
    serial_seconds=0.5,
)

#: For the test suite: every code path of the chapter in seconds; its numbers mean nothing.
SMOKE = Plan(
    levels=(
        ("lz4", 0),
        ("zstd", 1),
        ("zstd", 3),
        ("zstd", 19),
        ("lz4hc", 9),
        ("snappy", 0),
        ("zlib", 1),
        ("brotli", 1),
    ),
    inputs=INPUTS,
    slow_levels=(("zstd", 19),),
    slow_inputs=("text", "json"),  # the chapter's design section reads zstd -19 on json
    size=64 * KiB,
    blocks=(16 * KiB, 0),
    block_inputs=("text", "json"),
    seconds=0.002,
    crosscheck_levels=(("zstd", 1), ("lz4", 0)),
    crosscheck_inputs=("text",),
    crosscheck_seconds=1,
    ours_crosscheck_seconds=0.01,
    sort_sizes=(10_000,),
    sort_seconds=0.001,
    python_sort_seconds=0.001,
    records=300,
    serial_seconds=0.002,
)
