"""One look for every chart, and the charts that recur across chapters.

Importing this module registers and enables the ``howfast`` altair theme and the
``howfast`` renderer (``offline``: charts drawn from the book's own copy of the
libraries, with no network). ``save_png`` writes any chart to PNG through
vl-convert, to look at it outside the book.
"""

from __future__ import annotations

from pathlib import Path

import altair as alt
import numpy as np
import polars as pl

from . import offline, stats
from .checks import checked

THIS_MACHINE = "this machine"
HIGHLIGHT = "#d6604d"
REFERENCE = "#8c9fb5"
PALETTE = ["#2166ac", "#d6604d", "#4d9221", "#8073ac", "#e08214", "#35978f", "#878787", "#c51b7d"]


#: The plot's width when a chart says none: the page's renderer sizes every chart to its
#: column anyway (``offline``); this is what a PNG drawn outside the book gets, and with
#: its axes it fits the narrowest column a page has (about 530 px).
CONTINUOUS_WIDTH = 440


@alt.theme.register("howfast", enable=True)
def _theme() -> alt.theme.ThemeConfig:
    # No limit on any label or title (0): Vega cuts a long one with "…" otherwise; the
    # renderer wraps titles and lays legends out in as many columns as fit instead.
    unlimited = {"labelLimit": 0, "titleLimit": 0}
    return {
        "config": {
            "font": "system-ui, -apple-system, 'Segoe UI', sans-serif",
            "view": {"stroke": None, "continuousWidth": CONTINUOUS_WIDTH, "continuousHeight": 300},
            "axis": {
                "labelFontSize": 12,
                "titleFontSize": 12,
                "titleFontWeight": "normal",
                "gridColor": "#e6e6e6",
                **unlimited,
            },
            "legend": {
                "labelFontSize": 12,
                "titleFontSize": 12,
                "orient": "bottom",
                "columns": 2,
                "columnPadding": 18,  # entries side by side stay apart
                **unlimited,
            },
            "header": {"labelFontSize": 12, "titleFontSize": 12, **unlimited},
            # a title starts at the chart's left edge, not the plot's (long axis labels)
            "title": {
                "fontSize": 14,
                "anchor": "start",
                "frame": "bounds",
                "fontWeight": "normal",
                "limit": 0,
                "subtitleFontSize": 12,
            },
            "range": {"category": PALETTE},
            "line": {"strokeWidth": 2},
            "point": {"size": 40, "filled": True},
        }
    }


offline.register()


def log_domain(values: pl.Series) -> list[float]:
    """Whole decades around the data: a log axis has no zero, so bars need a floor."""
    positive = values.filter(values > 0)
    if positive.len() == 0:
        raise ValueError("a log scale needs at least one positive value")
    lo = 10 ** np.floor(np.log10(float(positive.min())) - 0.3)  # keep the shortest bar visible
    hi = 10 ** np.ceil(np.log10(float(positive.max())))
    return [float(lo), float(hi if hi > lo else lo * 10)]


def _bar_x(field: str, values: pl.Series, title: str, log: bool) -> dict:
    """x and x2 encodings for bars: on a log scale they start at the domain's floor."""
    if not log:
        return {"x": alt.X(f"{field}:Q", title=title)}
    domain = log_domain(values)
    return {
        "x": alt.X(
            f"{field}:Q",
            scale=alt.Scale(type="log", domain=domain),
            title=f"{title} (log scale)",
            axis=alt.Axis(labelOverlap="greedy", labelSeparation=8),
        ),
        "x2": alt.datum(domain[0]),
    }


def save_png(chart: alt.TopLevelMixin, path: str | Path, scale: float = 2.0, width: int = offline.STATIC_WIDTH) -> Path:
    """Render `chart` to a PNG file (vl-convert; no browser needed), `width` pixels wide
    at most, as a page's column of that width draws it."""
    import vl_convert as vlc

    out = Path(path)
    out.write_bytes(vlc.vegalite_to_png(offline.fitted(chart.to_dict(), width), scale=scale))
    return out


def survival(samples: pl.DataFrame, by: str, points: int = 160) -> pl.DataFrame:
    """For each group: latency (µs) against the share of operations slower than it.

    Quantiles on a log grid from 0 to 99.99 %, so the tail is drawn as carefully as
    the median without shipping every sample to the page."""
    share_slower = np.logspace(0, -4, points)  # 1 ... 0.0001
    parts = []
    for (key,), group in samples.group_by([by], maintain_order=True):
        us = group["latency_ns"].to_numpy().astype(np.float64) / 1e3
        keep = share_slower >= 1.0 / us.size  # no claims past the data
        parts.append(
            pl.DataFrame(
                {
                    by: [key] * int(keep.sum()),
                    "latency_us": np.quantile(us, 1 - share_slower[keep]),
                    "share_slower": share_slower[keep],
                }
            )
        )
    return pl.concat(parts)


def unavailable(why: str, title: str = "") -> alt.Chart:
    """A chart that says why it has nothing to draw (a case this machine could not run)."""
    import textwrap

    text = f"Not measured on this machine: {why}" if why else "Not measured on this machine."
    lines = textwrap.wrap(text, 60) or [text]  # about 420 px: the narrowest column's width
    return (
        alt.Chart(pl.DataFrame({"text": ["\n".join(lines)]}), title=title)
        .mark_text(align="left", baseline="top", fontSize=13, lineBreak="\n", lineHeight=17)
        .encode(text="text:N", x=alt.value(0), y=alt.value(4))
        .properties(height=17 * len(lines) + 8)
    )


def reasons(metrics: pl.DataFrame) -> str:
    """The distinct reasons of the cases in `metrics` that this machine could not run."""
    return "; ".join(stats.reasons(metrics))


def latency_survival(samples: pl.DataFrame | None, by: str, title: str = "", why: str = "") -> alt.Chart:
    """Log-log 'share of operations slower than x' curves, one per group; with no samples
    (None or empty), a chart that says `why`."""
    if samples is None or samples.height == 0:
        return unavailable(why, title)
    data = survival(samples, by)
    return (
        alt.Chart(data, title=title)
        .mark_line()
        .encode(
            x=alt.X(
                "latency_us:Q",
                scale=alt.Scale(type="log"),
                title="latency (µs, log scale)",
                axis=alt.Axis(labelOverlap="greedy", labelSeparation=8),
            ),
            y=alt.Y(
                "share_slower:Q",
                scale=alt.Scale(type="log", domain=[1e-4, 1]),
                axis=alt.Axis(format="%", values=[1, 0.1, 0.01, 0.001, 0.0001]),
                title="share of operations slower (log scale)",
            ),
            color=alt.Color(f"{by}:N", title=None, sort=None),
            tooltip=[
                alt.Tooltip(f"{by}:N"),
                alt.Tooltip("latency_us:Q", format=",.1f", title="µs"),
                alt.Tooltip("share_slower:Q", format=".3%", title="slower"),
            ],
        )
    )


def versus(frame: pl.DataFrame, *, label: str, value: str, title: str, unit: str, log: bool = True) -> alt.Chart:
    """Horizontal bars: this machine (highlighted) beside the reference machines.

    `frame` needs the `label` and `value` columns and a boolean ``this_machine``."""
    sort = frame.sort(value)[label].to_list()
    bars = (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            y=alt.Y(f"{label}:N", sort=sort, title=None, axis=alt.Axis(labelLimit=0)),
            **_bar_x(value, frame[value], unit, log),
            color=alt.condition(alt.datum.this_machine, alt.value(HIGHLIGHT), alt.value(REFERENCE)),
            tooltip=[alt.Tooltip(f"{label}:N"), alt.Tooltip(f"{value}:Q", format=",.4~g")],
        )
    )
    text = (
        alt.Chart(frame)
        .mark_text(align="left", dx=4, fontSize=11, color="#333")
        .encode(y=alt.Y(f"{label}:N", sort=sort), x=alt.X(f"{value}:Q"), text="value_text:N")
        .transform_calculate(value_text=VALUE_TEXT.replace("datum.value", f"datum['{value}']"))
    )
    return (bars + text).properties(height=alt.Step(26))


#: A value printed beside a bar as the prose writes numbers (three significant digits,
#: thousands separated, words past a million), never an SI suffix ('1k µs' reads as a unit).
VALUE_TEXT = (
    "abs(datum.value) >= 1e9 ? format(datum.value / 1e9, '.3~r') + ' billion' : "
    "abs(datum.value) >= 1e6 ? format(datum.value / 1e6, '.3~r') + ' million' : "
    "abs(datum.value) >= 1000 ? format(datum.value, ',.3~r') : format(datum.value, '.3~r')"
)

#: Tick labels as the prose writes numbers: whole thousands with separators, else three
#: significant digits (a log axis's own format would print 20.5 as "2e+1").
#: Labels only the powers of ten of a log axis (the other ticks stay, unlabelled)
DECADE_LABEL = (
    "abs(log(datum.value) / LN10 - round(log(datum.value) / LN10)) < 1e-6 ? format(datum.value, ',.4~r') : ''"
)
TICK_LABEL = "abs(datum.value) >= 1000 ? format(datum.value, ',.0f') : format(datum.value, '.3~r')"

#: Tick labels for sizes in bytes, in binary units as the book writes sizes ("4 KiB",
#: "16 MiB", "1 GiB"; never "16,777,216"), for a log-2 axis or any other.
SIZE_LABEL = (
    "abs(datum.value) >= 1099511627776 ? format(datum.value / 1099511627776, '.3~r') + ' TiB' : "
    "abs(datum.value) >= 1073741824 ? format(datum.value / 1073741824, '.3~r') + ' GiB' : "
    "abs(datum.value) >= 1048576 ? format(datum.value / 1048576, '.3~r') + ' MiB' : "
    "abs(datum.value) >= 1024 ? format(datum.value / 1024, '.3~r') + ' KiB' : "
    "format(datum.value, '.3~r') + ' B'"
)


def size_axis(values: list[float] | None = None, **options: object) -> alt.Axis:
    """An axis of sizes in bytes labelled in KiB/MiB/GiB (`values`: the ticks, e.g. the
    sizes measured; else Vega's own). Put the unit in the axis title as "size", not "bytes"."""
    ticks = {"values": sorted(values)} if values is not None else {}
    return alt.Axis(labelExpr=SIZE_LABEL, labelOverlap="greedy", labelSeparation=6, **ticks, **options)


def lines(
    frame: pl.DataFrame,
    *,
    x: str,
    y: str,
    color: str,
    x_title: str,
    y_title: str,
    title: str = "",
    log_x: bool = True,
    log_y: bool = True,
    band: bool = True,
    legend: bool = True,
    x_labels: str = TICK_LABEL,
) -> alt.LayerChart:
    """Median lines with points, and a band of the interval of each median (``lo``–``hi``
    of ``stats.summarize``; min–max for a frame without them) when present.
    `x_labels` is the x axis's label expression: ``SIZE_LABEL`` where x is a size in bytes."""
    low, high = _interval_columns(frame)
    scale_x = alt.Scale(type="log", base=2) if log_x else alt.Undefined
    scale_y = alt.Scale(type="log") if log_y else alt.Undefined
    ticks = sorted(frame[x].unique().to_list())
    base = alt.Chart(frame, title=title).encode(
        x=alt.X(
            f"{x}:Q",
            scale=scale_x,
            title=x_title,
            axis=alt.Axis(values=ticks, labelExpr=x_labels, labelFlush=True, labelOverlap="greedy"),
        ),
        # the legend's swatches in the lines' full colour, not the pale bands'
        color=alt.Color(f"{color}:N", title=None, sort=None, legend=alt.Legend(symbolOpacity=1) if legend else None),
    )
    line = base.mark_line(point=True).encode(
        y=alt.Y(f"{y}:Q", scale=scale_y, title=y_title),
        tooltip=[
            alt.Tooltip(f"{color}:N"),
            alt.Tooltip(f"{x}:Q"),
            *_interval_tooltips(frame),
        ],
    )
    if not band or low is None:
        return alt.layer(line)
    area = base.mark_area(opacity=0.18).encode(y=alt.Y(f"{low}:Q", scale=scale_y), y2=f"{high}:Q")
    return alt.layer(area, line)


def _interval_columns(frame: pl.DataFrame) -> tuple[str | None, str | None]:
    """The columns of a frame that bound each median: the interval (lo, hi), else min, max."""
    for low, high in (("lo", "hi"), ("min", "max")):
        if low in frame.columns and high in frame.columns:
            return low, high
    return None, None


def _interval_tooltips(frame: pl.DataFrame) -> list[alt.Tooltip]:
    """The median's tooltips: the median, the bounds of its interval and the run count."""
    low, high = _interval_columns(frame)
    shown = [alt.Tooltip("median:Q", format=",.4~g")]
    if low is not None:
        words = ("interval from", "interval to") if low == "lo" else ("fastest run", "slowest run")
        shown += [alt.Tooltip(f"{low}:Q", format=",.4~g", title=words[0]),
                  alt.Tooltip(f"{high}:Q", format=",.4~g", title=words[1])]  # fmt: skip
    if "repetitions" in frame.columns:
        shown.append(alt.Tooltip("repetitions:Q", title="runs"))
    return shown


def grouped_bars(
    frame: pl.DataFrame,
    *,
    category: str,
    group: str,
    title: str,
    unit: str,
    order: list[str] | None = None,
    log: bool = True,
) -> alt.LayerChart:
    """Horizontal bars of the median per category, one bar per group, with a rule over
    the interval of the median (`median`, `lo`, `hi` columns; min–max without them)."""
    low, high = _interval_columns(frame)
    if low is None:
        raise ValueError("grouped_bars: frame needs lo and hi (or min and max) columns")
    base = alt.Chart(frame, title=title).encode(
        y=alt.Y(f"{category}:N", title=None, sort=order, axis=alt.Axis(labelLimit=0)),
        yOffset=alt.YOffset(f"{group}:N"),
        color=alt.Color(f"{group}:N", title=None, legend=alt.Legend(labelLimit=0)),
    )
    bars = base.mark_bar().encode(
        **_bar_x("median", pl.concat([frame[low], frame[high]]), unit, log),
        tooltip=[alt.Tooltip(f"{category}:N"), alt.Tooltip(f"{group}:N"), *_interval_tooltips(frame)],
    )
    # a constant colour, not the group's: an interval drawn in its bar's colour hides inside the bar
    spread = base.mark_rule(strokeWidth=1.5).encode(x=f"{low}:Q", x2=f"{high}:Q", color=alt.value("#333"))
    return (bars + spread).properties(height=alt.Step(14))


def machines(frame: pl.DataFrame, title: str = "This machine beside the other stored machines") -> alt.LayerChart:
    """Headline numbers of the other stored machines, each as how many times as fast as
    this machine (a time turned round, so right of 1× is faster, left slower), on a log
    scale; each row's label gives this machine's own number. `frame` has the columns of
    ``howfast.machines.headlines``; a machine that lacks a number has no bar."""
    needed = {"headline", "machine", "relative", "shown", "this_machine"}
    if frame.height == 0 or not needed <= set(frame.columns):
        raise ValueError(f"machines() needs rows with the columns {sorted(needed)}")
    mine = frame.filter(pl.col("this_machine")).select("headline", pl.col("shown").alias("own"))
    labelled = frame.join(mine, on="headline", how="left", maintain_order="left").with_columns(
        row=pl.format("{} (this machine: {})", "headline", "own")
    )
    order = labelled["row"].unique(maintain_order=True).to_list()
    drawn = labelled.filter(
        ~pl.col("this_machine") & pl.col("relative").is_not_null() & (pl.col("relative") > 0)
    ).with_columns(text_at=pl.max_horizontal("relative", pl.lit(1.0)))  # a label right of the bar's end or of 1×
    names = labelled.filter(~pl.col("this_machine"))["machine"].unique(maintain_order=True).to_list()
    colours = [c for c in PALETTE if c != HIGHLIGHT][: len(names)] or [REFERENCE]
    furthest = float(np.abs(np.log10(drawn["relative"].to_numpy())).max()) if drawn.height else 0.0
    decades = max(1, int(np.ceil(furthest + 0.05)))
    domain = [10.0**-decades, 10.0**decades]
    base = alt.Chart(
        drawn,
        title=alt.Title(title, subtitle="Times as fast as this machine (log scale): right of 1× faster, left slower."),
    ).encode(
        y=alt.Y("row:N", sort=order, title=None, axis=alt.Axis(labelLimit=0)),
        yOffset=alt.YOffset("machine:N", sort=names),
        color=alt.Color("machine:N", title=None, sort=names, scale=alt.Scale(domain=names, range=colours)),
        tooltip=[
            alt.Tooltip("headline:N"),
            alt.Tooltip("machine:N"),
            alt.Tooltip("shown:N", title="median"),
            alt.Tooltip("own:N", title="this machine"),
            alt.Tooltip("relative:Q", format=".3~r", title="× this machine"),
        ],
    )
    x = alt.X(
        "relative:Q",
        scale=alt.Scale(type="log", domain=domain),
        title="× this machine (log scale)",
        axis=alt.Axis(values=[10.0**k for k in range(-decades, decades + 1)], labelExpr=f"({TICK_LABEL}) + '×'"),
    )
    bars = base.mark_bar().encode(x=x, x2=alt.datum(1.0))
    text = base.mark_text(align="left", dx=4, fontSize=10).encode(
        x="text_at:Q", text="shown:N", color=alt.value("#333")
    )
    one = pl.DataFrame({"one": [1.0], "label": ["this machine"]})
    rule = alt.Chart(one).mark_rule(color=HIGHLIGHT, strokeWidth=2).encode(x="one:Q")
    return (bars + text + rule).properties(height=alt.Step(16))


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
