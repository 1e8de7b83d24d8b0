"""This machine's numbers for the estimates: the registry's headline quantities
(``howfast.headlines``, the same rows the numbers card shows), converted to bytes (or
operations) per second, plus the hello-world rate at a bounded p99 (the open loop's knee,
as the networks chapter finds it)."""

from __future__ import annotations

import dataclasses

import polars as pl

from .. import headlines, stats, store
from ..checks import checked
from .estimates import MIB, Inputs

#: unit -> factor to bytes per second
_TO_BYTES = {"MB/s": 1e6, "GB/s": 1e9, "MiB/s": float(MIB), "Gbit/s": 1e9 / 8}

#: The registry's quantities the estimates read, by the field of ``Inputs`` they fill.
QUANTITIES = {
    "seq_read": "seq_read",
    "seq_write": "seq_write",
    "read_iops": "random_read_qd32",
    "write_iops": "random_write_qd32",
    "network": "tcp",
    "http_best": "http",
    "redis": "redis",
    "hashing": "hashing",
    "memory": "memory_bandwidth",
    "compression": "compression",
    "decompression": "decompression",
}


def _value(rows: pl.DataFrame, id_: str) -> float | None:
    row = rows.filter(pl.col("id") == id_)
    if row.height != 1:
        raise KeyError(f"the headline rows have no row {id_!r}")
    value, unit = row["value"][0], row["unit"][0]
    return None if value is None else float(value) * _TO_BYTES.get(unit, 1.0)


def inputs(rows: pl.DataFrame, storage: store.ResultSet, network: store.ResultSet) -> Inputs:
    """The estimates' inputs from one machine's registry rows (``headlines.table``) and its
    network set (for the open loop's knee). `storage` is the set the disk rows came from."""
    from ..network import report as net

    point = net.knee(network.table("http_open"))
    values = {field: _value(rows, id_) for field, id_ in QUANTITIES.items()}
    return Inputs(
        **values,
        http=None if point is None else point["rate"],
        http_p99_us=None if point is None else point["p99"],
    )


def estimate(rows: pl.DataFrame, field: str) -> stats.Estimate | None:
    """The input `field` of ``Inputs`` as a median with its interval and runs, in bytes (or
    operations) per second; None when not measured."""
    if field not in QUANTITIES:
        raise ValueError(f"field must be one of {sorted(QUANTITIES)}, got {field!r}")
    row = rows.filter(pl.col("id") == QUANTITIES[field])
    if row.height != 1:
        raise KeyError(f"the headline rows have no row {QUANTITIES[field]!r}")
    r = row.row(0, named=True)
    if r["value"] is None:
        return None
    return stats.Estimate.from_row(
        {"median": r["value"], "lo": r["lo"], "hi": r["hi"], "repetitions": r["runs"], "confidence": r["confidence"]}
    ).scaled(_TO_BYTES.get(r["unit"], 1.0))


def at_end(inputs: Inputs, rows: pl.DataFrame, end: str) -> Inputs:
    """`inputs` with every measured rate at the `end` ('lo' or 'hi') of its median's
    interval: the slowest (or fastest) machine the intervals allow, for a count's range.
    The hello-world rate at a bounded p99 is an offered rate and stays as it is."""
    if end not in ("lo", "hi"):
        raise ValueError(f"end must be 'lo' or 'hi', got {end!r}")
    moved = {}
    for field in QUANTITIES:
        e = estimate(rows, field)
        moved[field] = None if e is None else getattr(e, end)
    return dataclasses.replace(inputs, **moved)


def hash_rerun(hashing: store.ResultSet) -> tuple[int, object] | None:
    """The hashing chapter's second run of the XXH64 loop (our half of its xxhsum
    cross-check, made later, alternating with xxhsum) against the size sweep's runs at the
    same block: (block size, ``claims.compare(rerun, sweep)``); None when it did not run."""
    from .. import claims
    from ..hashing import experiments as hashing_experiments

    try:
        vs = hashing.table(hashing_experiments.VS_XXHSUM)
        native = hashing.table(hashing_experiments.NATIVE)
    except (KeyError, FileNotFoundError, store.MissingResults):
        return None
    if not {"algorithm", "size", "tool", "metric", "value"} <= set(vs.columns) or vs.height == 0:
        return None
    ours = vs.filter(
        (pl.col("tool") == "howfast") & (pl.col("metric") == "mib_per_s") & (pl.col("algorithm") == "xxh64")
    )
    values = ours["value"].drop_nulls().to_list()
    if not values:
        return None
    size = int(ours["size"][0])
    try:
        sweep = stats.estimate(
            stats.summarize(native, ["algorithm", "size"]), "mib_per_s", algorithm="xxh64", size=size
        )
    except KeyError:  # the sweep has no such size (a profile whose sizes skip the cross-check's)
        return None
    if sweep is None:
        return None
    lo, hi, level = stats.median_interval(values)
    again = stats.Estimate(float(pl.Series(values).median()), lo, hi, len(values), level)
    return size, claims.compare(again, sweep)


def rows(*, measure: bool = False) -> pl.DataFrame:
    """This machine's rows of the registry's quantities the estimates read."""
    wanted = [headlines.get(id_) for id_ in QUANTITIES.values()]
    return headlines.table(measure=measure, quantities=wanted)


checked(globals())
