"""This machine's numbers for the estimates: the card's headline values, converted to
bytes (or operations) per second, plus the hello-world rate at a bounded p99 (the open
loop's knee, as the networks chapter finds it)."""

from __future__ import annotations

import polars as pl

from .. import stats, store
from ..checks import checked
from .estimates import MIB, Inputs

#: card unit -> factor to bytes per second
_TO_BYTES = {"MB/s": 1e6, "GB/s": 1e9, "MiB/s": float(MIB), "Gbit/s": 1e9 / 8}


def _value(card: pl.DataFrame, id_: str) -> float | None:
    row = card.filter(pl.col("id") == id_)
    if row.height != 1:
        raise KeyError(f"the card has no row {id_!r}")
    value, unit = row["value"][0], row["unit"][0]
    return None if value is None else float(value) * _TO_BYTES.get(unit, 1.0)


def write_iops(storage: store.ResultSet) -> float | None:
    """Random 4 KiB writes per second at queue depth 32 (io_uring, O_DIRECT)."""
    summary = stats.summarize(storage.table("queue_depth"), ["op", "queue_depth", "block_size"])
    try:
        return stats.pick(summary, "ops_per_s", op="write", queue_depth=32, block_size=4096)
    except KeyError:
        return None


def inputs(card: pl.DataFrame, storage: store.ResultSet, network: store.ResultSet) -> Inputs:
    """The estimates' inputs from one machine's card rows and its storage and network sets."""
    from ..network import report as net

    point = net.knee(network.table("http_open"))
    return Inputs(
        seq_read=_value(card, "seq_read"),
        seq_write=_value(card, "seq_write"),
        read_iops=_value(card, "random_read_qd32"),
        write_iops=write_iops(storage),
        network=_value(card, "tcp"),
        http=None if point is None else point["rate"],
        http_p99_us=None if point is None else point["p99"],
        http_best=_value(card, "http"),
        redis=_value(card, "redis"),
        hashing=_value(card, "hashing"),
        memory=_value(card, "memory_bandwidth"),
    )


checked(globals())
