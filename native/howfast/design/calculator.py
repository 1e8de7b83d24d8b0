"""The interactive capacity calculator: a Vega-Lite chart whose sliders (request rate,
object size, read share, replication, price per machine) and a switch (objects stored
compressed) recompute, in the reader's browser, how many of this machine each resource
needs, which one is the bottleneck, and what the machines cost. "CPU for compression"
counts only with the switch on: the seed's S3, the default, compresses nothing.

Each resource is one data row with four costs per unit of work, in seconds of one
machine: per byte read, per read, per byte written, per write (a write lands on
`replication` machines). With R requests per second of S bytes and a read share r::

    load = R * (r * (read_byte * S + read_op) + (1 - r) * replication * (write_byte * S + write_op))
    machines = max(1, ceil(load))

``machines()`` is the same arithmetic in Python, in the same order, so the chart's
default can be checked against it. The capacities are data (measured numbers), never
typed into the spec's expressions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import altair as alt
import polars as pl

from .. import charts
from ..checks import checked
from .estimates import Inputs

#: slider defaults: seed 001's S3 (100 M requests/s, 1 MB objects, 80 % reads), no
#: replication (as the seed assumed) and the seed's $1,000 laptop; objects stored as they
#: come (the seed's S3 compresses nothing)
DEFAULTS = {"log_rate": 8.0, "log_size": 6.0, "read_share": 0.8, "replication": 1, "price": 1000.0, "compressed": False}

RESOURCES = ("disk bandwidth", "disk IOPS", "network", "CPU for hashing", "CPU for compression")


@dataclass(frozen=True)
class Resource:
    name: str
    read_byte: float = 0.0
    read_op: float = 0.0
    write_byte: float = 0.0
    write_op: float = 0.0
    capacity: str = ""  # what one machine does, in words
    compressed_only: bool = False  # counted only where the objects are stored compressed


def _inv(x: float) -> float:
    return 1.0 / x


def resources(inputs: Inputs) -> tuple[list[Resource], list[str]]:
    """The resources this machine measured, and the names of those it did not."""
    from .. import fmt

    out, missing = [], []
    if inputs.seq_read and inputs.seq_write:
        out.append(Resource("disk bandwidth", read_byte=_inv(inputs.seq_read), write_byte=_inv(inputs.seq_write),
                            capacity=f"read {fmt.num(inputs.seq_read / 1e6)} MB/s, "
                                     f"write {fmt.num(inputs.seq_write / 1e6)} MB/s"))  # fmt: skip
    else:
        missing.append("disk bandwidth")
    if inputs.read_iops and inputs.write_iops:
        out.append(Resource("disk IOPS", read_op=_inv(inputs.read_iops), write_op=_inv(inputs.write_iops),
                            capacity=f"read {fmt.num(inputs.read_iops)} ops/s, "
                                     f"write {fmt.num(inputs.write_iops)} ops/s"))  # fmt: skip
    else:
        missing.append("disk IOPS")
    if inputs.network:
        out.append(Resource("network", read_byte=_inv(inputs.network), write_byte=_inv(inputs.network),
                            capacity=f"{fmt.num(inputs.network * 8 / 1e9)} Gbit/s"))  # fmt: skip
    else:
        missing.append("network")
    if inputs.hashing:
        out.append(Resource("CPU for hashing", read_byte=_inv(inputs.hashing), write_byte=_inv(inputs.hashing),
                            capacity=f"XXH64: {fmt.num(inputs.hashing / 1e6)} MB/s hashed on one core"))  # fmt: skip
    else:
        missing.append("CPU for hashing")
    if inputs.compression and inputs.decompression:  # written objects compressed, read ones decompressed
        out.append(Resource("CPU for compression", read_byte=_inv(inputs.decompression),
                            write_byte=_inv(inputs.compression),
                            capacity=f"zstd -1: {fmt.num(inputs.compression / 1e6)} MB/s compressed, "
                                     f"{fmt.num(inputs.decompression / 1e6)} MB/s decompressed",
                            compressed_only=True))  # fmt: skip
    else:
        missing.append("CPU for compression")
    return out, missing


def _check(log_rate: float, log_size: float, read_share: float, replication: int, price: float) -> None:
    if not 0 <= read_share <= 1:
        raise ValueError(f"read_share must be between 0 and 1, got {read_share}")
    if replication < 1:
        raise ValueError(f"replication must be at least 1, got {replication}")
    if price < 0:
        raise ValueError(f"price must be at least 0, got {price}")
    for name, value in (("log_rate", log_rate), ("log_size", log_size)):
        if not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {value}")


def machines(
    found: list[Resource],
    log_rate: float = DEFAULTS["log_rate"],
    log_size: float = DEFAULTS["log_size"],
    read_share: float = DEFAULTS["read_share"],
    replication: int = DEFAULTS["replication"],
    price: float = DEFAULTS["price"],
    compressed: bool = DEFAULTS["compressed"],
) -> pl.DataFrame:
    """Machines per resource for 10^log_rate requests/s of 10^log_size bytes, the
    bottleneck (the most machines; the first listed on a tie) and the cost. A resource
    counted only for compressed objects (``Resource.compressed_only``) is left out unless
    `compressed`."""
    _check(log_rate, log_size, read_share, replication, price)
    rate, size = math.pow(10, log_rate), math.pow(10, log_size)
    rows = []
    for r in found:
        if r.compressed_only and not compressed:
            continue
        load = rate * (read_share * (r.read_byte * size + r.read_op)
                       + (1 - read_share) * replication * (r.write_byte * size + r.write_op))  # fmt: skip
        rows.append({"resource": r.name, "load": load, "machines": max(1, math.ceil(load))})
    frame = pl.DataFrame(rows, schema={"resource": pl.String, "load": pl.Float64, "machines": pl.Int64})
    if frame.height == 0:
        return frame.with_columns(bottleneck=pl.lit(False), cost=pl.lit(None, pl.Float64))
    top = frame["machines"].max()
    first = frame.with_row_index().filter(pl.col("machines") == top)["index"][0]
    return (
        frame.with_row_index()
        .with_columns(bottleneck=pl.col("index") == first, cost=pl.lit(float(top) * price))
        .drop("index")
    )


def bottleneck_holds(low: list[Resource], high: list[Resource], **sliders: float | bool) -> bool | None:
    """Whether the bottleneck at the medians stays the bottleneck over the inputs'
    intervals: its machines with every capacity at the fast end (`high`) still at least
    every other resource's with every capacity at the slow end (`low`). None when the two
    lists do not name the same resources, or none of them counts at these sliders."""
    if [r.name for r in low] != [r.name for r in high] or not low:
        return None
    slow, fast = machines(low, **sliders), machines(high, **sliders)
    if fast.height == 0:  # nothing counted at these sliders
        return None
    name = fast.filter(pl.col("bottleneck"))["resource"][0]
    if slow.filter(pl.col("bottleneck"))["resource"][0] != name:
        return False
    least = fast.filter(pl.col("resource") == name)["machines"][0]
    others = slow.filter(pl.col("resource") != name)["machines"]
    return bool(others.len() == 0 or least >= others.max())


def default_words(
    bottleneck: str | None, machines_needed: int | None, cost: float | None, span: tuple[int, int] | None = None
) -> str:
    """The calculator's defaults in a sentence: the bottleneck at the medians with its
    machines and their cost, and `span` (that resource's machines with every rate at the
    fast end, then at the slow end) where it differs; a sentence of its own when no
    resource the defaults count was measured."""
    from .. import fmt

    head = "The defaults are the seed's S3 with one copy of each write, stored as it comes (uncompressed)"
    if bottleneck is None or machines_needed is None:
        return (
            f"{head}; none of the resources counted at these settings was measured here, so the calculator has no "
            "bottleneck to name."
        )
    said = (
        f"{head}: there the bottleneck is {bottleneck}, with {fmt.count(int(machines_needed), 'machine')} for "
        f"{fmt.num(cost, 4)} dollars (the price set to the seed's laptop's)"
    )
    if span is not None and span[0] != span[1]:
        said += (
            f": {fmt.exact(span[0])} to {fmt.count(span[1], 'machine')} over the measured rates' intervals (hashing "
            "held at its median)"
        )
    return said + "."


def holds_words(holds: bool | None) -> str:
    """``bottleneck_holds``'s answer in a sentence ('' when it could not be asked); the
    ranges hold hashing at its median, and the sentence says so."""
    if holds is None:
        return ""
    if holds:
        return (
            "That bottleneck holds across the intervals of the measured rates (hashing held at its median): at its "
            "fastest it still needs at least as many machines as any other resource at its slowest."
        )
    return (
        "Across the intervals of the measured rates (hashing held at its median) another resource could need as "
        "many machines, so which one runs out first is not settled here."
    )


def _data(found: list[Resource]) -> pl.DataFrame:
    return pl.DataFrame(
        [{"order": i, "resource": r.name, "read_byte": r.read_byte, "read_op": r.read_op,
          "write_byte": r.write_byte, "write_op": r.write_op, "capacity": r.capacity,
          "compressed_only": r.compressed_only} for i, r in enumerate(found)],
        schema={"order": pl.Int64, "resource": pl.String, "read_byte": pl.Float64, "read_op": pl.Float64,
                "write_byte": pl.Float64, "write_op": pl.Float64, "capacity": pl.String,
                "compressed_only": pl.Boolean},
    )  # fmt: skip


def words_expr(field: str) -> str:
    """A Vega expression writing `field` as the book writes a large number: every digit
    under a million ('84,350'), words above ('84.35 million', '2.5 billion')."""
    x = f"datum.{field}"
    return (
        f"({x} >= 1e15 ? format({x} / 1e15, ',.4~r') + ' quadrillion' : "
        f"{x} >= 1e12 ? format({x} / 1e12, ',.4~r') + ' trillion' : "
        f"{x} >= 1e9 ? format({x} / 1e9, ',.4~r') + ' billion' : "
        f"{x} >= 1e6 ? format({x} / 1e6, ',.4~r') + ' million' : format({x}, ',.0f'))"
    )


#: A Vega expression: the noun after a count of machines, agreeing with it.
MACHINES_NOUN = "(datum.machines == 1 ? ' machine' : ' machines')"


def size_expr(field: str) -> str:
    """A Vega expression writing a size in bytes in decimal units with a space ('1 MB')."""
    x = f"datum.{field}"
    return (
        f"({x} >= 1e9 ? format({x} / 1e9, ',.3~f') + ' GB' : {x} >= 1e6 ? format({x} / 1e6, '.3~f') + ' MB' : "
        f"{x} >= 1e3 ? format({x} / 1e3, '.3~f') + ' kB' : format({x}, '.3~f') + ' bytes')"
    )


def chart(found: list[Resource], title: str = "") -> alt.LayerChart:
    """The calculator: sliders, a bar per resource (machines, log scale), the bottleneck
    named with the machines and their cost."""
    if not found:
        raise ValueError("the calculator needs at least one measured resource")
    params = [
        alt.param(name="log_rate", value=DEFAULTS["log_rate"],
                  bind=alt.binding_range(min=2, max=9, step=0.1, name="requests per second, as a power of 10: ")),
        alt.param(name="log_size", value=DEFAULTS["log_size"],
                  bind=alt.binding_range(min=2, max=9, step=0.1, name="object size in bytes, as a power of 10: ")),
        alt.param(name="read_share", value=DEFAULTS["read_share"],
                  bind=alt.binding_range(min=0, max=1, step=0.05, name="share of reads: ")),
        alt.param(name="replication", value=DEFAULTS["replication"],
                  bind=alt.binding_range(min=1, max=5, step=1, name="copies of each write: ")),
        alt.param(name="price", value=DEFAULTS["price"],
                  bind=alt.binding_range(min=50, max=10000, step=50, name="price per machine ($): ")),
        alt.param(name="compressed", value=DEFAULTS["compressed"],
                  bind=alt.binding_checkbox(name="objects stored compressed: ")),
    ]  # fmt: skip
    base = (
        alt.Chart(_data(found), title=title)
        .transform_filter("compressed || !datum.compressed_only")  # as machines() leaves it out
        .transform_calculate(
            rate="pow(10, log_rate)",
            size="pow(10, log_size)",
        )
        .transform_calculate(
            load="datum.rate * (read_share * (datum.read_byte * datum.size + datum.read_op)"
            " + (1 - read_share) * replication * (datum.write_byte * datum.size + datum.write_op))"
        )
        .transform_calculate(machines="max(1, ceil(datum.load))")
        .transform_window(
            rank="row_number()",
            sort=[alt.SortField("machines", order="descending"), alt.SortField("order", order="ascending")],
        )  # fmt: skip
        .transform_calculate(bottleneck="datum.rank == 1", cost="datum.machines * price")
    )
    y = alt.Y("resource:N", sort=[r.name for r in found], title=None, axis=alt.Axis(labelLimit=200))
    bars = base.mark_bar().encode(
        y=y,
        x=alt.X(
            "machines:Q",
            scale=alt.Scale(type="log", padding=90),  # room right of the longest bar for its label
            stack=None,
            title="machines needed (log scale)",
            axis=alt.Axis(labelExpr=charts.DECADE_LABEL),
        ),
        color=alt.condition("datum.bottleneck", alt.value(charts.HIGHLIGHT), alt.value(charts.REFERENCE)),
        tooltip=[
            alt.Tooltip("resource:N"),
            alt.Tooltip("capacity:N", title="one machine"),
            alt.Tooltip("machines:Q", format=","),
        ],  # fmt: skip
    )
    labels = (
        base.mark_text(align="left", dx=4, fontSize=12)
        .encode(y=y, x="machines:Q", text=alt.Text("label:N"))
        .transform_calculate(label="format(datum.machines, ',') + " + MACHINES_NOUN)
    )
    top = base.transform_filter("datum.bottleneck")
    # the verdict on three short lines, so that none outgrows a narrow column
    verdict = (
        top.transform_calculate(text="'Bottleneck: ' + datum.resource")
        .mark_text(align="left", baseline="top", fontSize=13, fontWeight="bold")
        .encode(text="text:N", x=alt.value(0), y=alt.value(-56))
    )
    count = (
        top.transform_calculate(
            text="format(datum.machines, ',') + " + MACHINES_NOUN + " + ', ' + " + words_expr("cost") + " + ' dollars'"
        )
        .mark_text(align="left", baseline="top", fontSize=12)
        .encode(text="text:N", x=alt.value(0), y=alt.value(-38))
    )
    load = (
        top.transform_calculate(text="'at ' + " + words_expr("rate") + " + ' requests/s of ' + " + size_expr("size"))
        .mark_text(align="left", baseline="top", fontSize=12)
        .encode(text="text:N", x=alt.value(0), y=alt.value(-20))
    )
    return alt.layer(bars, labels, verdict, count, load).add_params(*params).properties(height=alt.Step(34))


checked(globals())
