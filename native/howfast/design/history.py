"""Storage media through the decades (seed 000's list, data/reference/historical.csv),
ending with this machine's disk and memory."""

from __future__ import annotations

import math

import altair as alt
import polars as pl

from .. import charts, fmt, reference
from ..checks import checked


def media() -> pl.DataFrame:
    """The seed's media: medium, era, access, bytes per second, and the figure as quoted."""
    ref = reference.load("historical")
    label = (
        pl.when(pl.col("speed").is_not_null())
        .then(pl.concat_str(pl.col("medium"), pl.lit(" ("), pl.col("speed"), pl.lit(")")))
        .otherwise(pl.col("medium"))
    )
    return ref.select(
        label.alias("medium"), "era", pl.col("access").fill_null(""), pl.col("value").alias("bytes_per_s"),
        "quoted",
    )  # fmt: skip


#: The seed's names as the book writes them (lower case, units spelled out); others kept.
NAMES = {
    "Cassette Tape": "cassette tape",
    "CD Drive (1X)": "CD drive, 1×",
    "CD Drive (24X)": "CD drive, 24×",
    "Floppy Disk": "floppy disk",
    "USB Drive": "USB drive",
    "HDD Drive (7200rps)": "hard disk, 7,200 rpm",
}


def name(medium: str) -> str:
    """A medium of seed 000's list as the book names it ('HDD Drive (7200rps)' -> 'hard
    disk, 7,200 rpm'); a name not in ``NAMES`` as the seed wrote it."""
    return NAMES.get(medium, medium)


def with_this_machine(
    disk_bytes_per_s: float | None, memory_bytes_per_s: float | None, memory_how: str = ""
) -> pl.DataFrame:
    """The media, then this machine's sequential disk read and memory read, as chart rows
    (label, era, bytes_per_s, this_machine); an unmeasured figure is left out. `memory_how`
    ('2 threads') joins the memory row's label."""
    rows = media().select(
        pl.concat_str(pl.col("medium").map_elements(name, return_dtype=pl.String), pl.lit(", "), pl.col("era")).alias(
            "label"
        ),
        "bytes_per_s",
        pl.lit(False).alias("this_machine"),
    )
    memory = f"{charts.THIS_MACHINE}: memory" + (f", {memory_how}" if memory_how else "")
    ours = [(f"{charts.THIS_MACHINE}: disk", disk_bytes_per_s), (memory, memory_bytes_per_s)]
    extra = pl.DataFrame(
        [{"label": label, "bytes_per_s": value, "this_machine": True} for label, value in ours if value is not None],
        schema=rows.schema,
    )
    return pl.concat([rows, extra])


#: An axis tick in decimal units with a space, as the table writes them ('10 B/s', '100 kB/s', '1 GB/s').
RATE_LABEL = (
    "datum.value >= 1e9 ? format(datum.value / 1e9, '~g') + ' GB/s' : "
    "datum.value >= 1e6 ? format(datum.value / 1e6, '~g') + ' MB/s' : "
    "datum.value >= 1e3 ? format(datum.value / 1e3, '~g') + ' kB/s' : format(datum.value, '~g') + ' B/s'"
)


def chart(frame: pl.DataFrame) -> alt.LayerChart:
    """Bytes per second on a log scale, in the table's order (oldest first, this machine last)."""
    order = frame["label"].to_list()
    low, high = charts.log_domain(frame["bytes_per_s"])
    domain = [low, high * 30]  # room right of the longest bar for its label
    frame = frame.with_columns(
        pl.col("bytes_per_s").map_elements(fmt.bytes_per_s, return_dtype=pl.String).alias("shown")
    )
    decades = [10.0**k for k in range(math.floor(math.log10(domain[0])), math.floor(math.log10(domain[1])) + 1)]
    base = alt.Chart(frame, title="Higher is faster").encode(
        y=alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labelLimit=340)),
    )
    bars = base.mark_bar().encode(
        x=alt.X("bytes_per_s:Q", scale=alt.Scale(type="log", domain=domain), title="bytes per second (log scale)",
                axis=alt.Axis(values=decades[::2], labelExpr=RATE_LABEL)),
        x2=alt.datum(domain[0]),
        color=alt.condition(alt.datum.this_machine, alt.value(charts.HIGHLIGHT), alt.value(charts.REFERENCE)),
        tooltip=[alt.Tooltip("label:N"), alt.Tooltip("shown:N", title="rate")],
    )  # fmt: skip
    text = base.mark_text(align="left", dx=4, fontSize=11, color="#333").encode(x="bytes_per_s:Q", text="shown:N")
    return (bars + text).properties(height=alt.Step(34))  # room for a label wrapped on two lines


checked(globals())
