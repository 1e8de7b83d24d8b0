"""This machine's numbers for the estimates: the registry's headline quantities
(``howfast.headlines``, the same rows the numbers card shows), converted to bytes (or
operations) per second, plus the hello-world rate at a bounded p99 (the open loop's knee,
as the networks chapter finds it)."""

from __future__ import annotations

import polars as pl

from .. import headlines, store
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


def rows(*, measure: bool = False) -> pl.DataFrame:
    """This machine's rows of the registry's quantities the estimates read."""
    wanted = [headlines.get(id_) for id_ in QUANTITIES.values()]
    return headlines.table(measure=measure, quantities=wanted)


checked(globals())
