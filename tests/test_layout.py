"""Pages that fit: every chart is drawn no wider than the column it sits in, at the widths
a reader's window gives a book page's body (about 530 px in a 1000-px window, 750 px in a
1400-px one), and no title, axis label or legend is cut with "…". Checked in headless
Chromium with the network cut off, for every kind of chart the renderer meets (single,
layered, stacked, side by side, faceted, with long legend labels and titles, with a fixed
width wider than the column), and for the static images printed pages and notebooks get."""

from __future__ import annotations

import re
from pathlib import Path

import altair as alt
import numpy as np
import polars as pl
import pytest

import browser
from conftest import ROOT
from howfast import charts, offline

LONG = "O_DIRECT | O_DSYNC write through the page cache, then fdatasync"


def _frame() -> pl.DataFrame:
    sizes = [2**k for k in range(12, 31, 2)]
    modes = ["buffered", "O_DIRECT", LONG, "O_DSYNC, one writer thread per core and a long name"]
    rows = [(m, s, 1e3 * (i + 1) * np.log2(s)) for i, m in enumerate(modes) for s in sizes]
    frame = pl.DataFrame(rows, schema=["mode", "bytes", "rate"], orient="row")
    return frame.with_columns(median=pl.col("rate"), min=pl.col("rate") * 0.9, max=pl.col("rate") * 1.1)


def _kinds() -> dict[str, alt.TopLevelMixin]:
    """One chart of every shape the chapters draw."""
    frame = _frame()
    base = alt.Chart(frame).mark_line(point=True)
    line = base.encode(
        x=alt.X("bytes:Q", scale=alt.Scale(type="log", base=2), axis=charts.size_axis(frame["bytes"].unique())),
        y=alt.Y("rate:Q", title="records per second"),
        color=alt.Color("mode:N", title=None),
    )
    bars = charts.grouped_bars(
        frame.filter(pl.col("bytes") < 2**20).with_columns(size=pl.col("bytes").cast(pl.Utf8)),
        category="size",
        group="mode",
        title="A long title over grouped bars, longer than the narrowest column of the book can hold",
        unit="records per second",
    )
    versus = pl.DataFrame(
        {
            "label": ["this machine: 4 KiB write + fsync, growing file", "laptop, WD SN770 NVMe (seed 000)", "HDD"],
            "value": [939.0, 660.0, 20_000.0],
            "this_machine": [True, False, False],
        }
    )
    long_rows = frame.filter(pl.col("bytes") == 2**20).with_columns(
        row=pl.format("synchronous NORMAL, {} rows per transaction, through the C API", pl.col("bytes"))
    )
    return {
        "single": line.properties(title="One view"),
        "values-beside-bars": charts.versus(
            versus, label="label", value="value", title="Lower is better", unit="µs per durable write"
        ),
        "long-axis-labels-and-legend": charts.grouped_bars(
            long_rows, category="row", group="mode", title="Rows per second", unit="rows per second"
        ),
        "fixed-too-wide": line.properties(width=1200, title="A view 1,200 px wide by its own spec"),
        "layered": charts.lines(
            frame, x="bytes", y="median", color="mode", x_title="size", y_title="records/s", x_labels=charts.SIZE_LABEL
        ),
        "vconcat": alt.vconcat(line.properties(width=600), line.properties(title="below")),
        "hconcat": alt.hconcat(line.properties(width=300), line.properties(width=300)),
        "facet": line.encode(color=alt.Color("mode:N", legend=None)).facet(facet="mode:N", columns=2),
        "facet-columns": line.encode(color=alt.Color("mode:N", legend=None), column=alt.Column("mode:N")),
        "grouped-bars": bars,
        "unavailable": charts.unavailable("the scratch directory's file system refuses O_DIRECT", title="O_DIRECT"),
    }


@pytest.fixture(scope="module")
def chart_htmls(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path]:
    book = tmp_path_factory.mktemp("book")
    (book / "_quarto.yml").write_text("project: {type: book}\n")
    offline._page["loaded"] = False  # a new page
    htmls = {
        name: offline.chart_html(chart.to_dict(), root=book, here=book / "chapters") for name, chart in _kinds().items()
    }
    return htmls, book


def _check(found: list[dict], names: list[str], window: int) -> None:
    assert len(found) == len(names)
    named = [chart | {"id": name} for name, chart in zip(names, found, strict=True)]
    assert browser.layout_problems(named, window) == []
    assert all(chart["texts"] > 0 for chart in found)


@pytest.mark.parametrize("window", sorted(browser.COLUMNS))
def test_every_kind_of_chart_fits_the_column_and_nothing_is_cut(
    chart_htmls: tuple[dict[str, str], Path], window: int, tmp_path: Path
) -> None:
    if browser.chromium() is None:
        pytest.fail("Chromium is needed to check the layout (apt-get install chromium; make test installs it)")
    htmls, book = chart_htmls
    page = browser.layout_page(list(htmls.values()), book, tmp_path)
    found = browser.layout(page, window)
    _check(found, list(htmls), window)
    by_name = dict(zip(htmls, found, strict=True))
    for name in ("single", "layered", "fixed-too-wide", "unavailable"):  # a single view takes the column
        assert by_name[name]["svg"] >= by_name[name]["room"] - 2, (name, by_name[name])


def test_charts_are_drawn_again_when_the_window_narrows(
    chart_htmls: tuple[dict[str, str], Path], tmp_path: Path
) -> None:
    """A reader who narrows the window (the column goes from 750 to 530 px) sees every
    chart drawn again to the new width."""
    if browser.chromium() is None:
        pytest.fail("Chromium is needed to check the layout")
    htmls, book = chart_htmls
    page = browser.layout_page(list(htmls.values()), book, tmp_path, resize_to=browser.COLUMNS[1000])
    found = browser.layout(page, 1400)
    named = [chart | {"id": name} for name, chart in zip(htmls, found, strict=True)]
    assert browser.layout_problems(named, 1400, column=browser.COLUMNS[1000]) == []


def test_a_size_axis_in_raw_bytes_is_caught(tmp_path: Path) -> None:
    """A log axis of sizes labelled with Vega's own format ("16,777,216") fails the check."""
    if browser.chromium() is None:
        pytest.fail("Chromium is needed to check the layout")
    frame = pl.DataFrame({"bytes": [2**16, 2**20, 2**24], "y": [1.0, 2.0, 3.0]})
    raw = alt.Chart(frame).mark_line().encode(x=alt.X("bytes:Q", scale=alt.Scale(type="log", base=2)), y="y")
    offline._page["loaded"] = False
    html = offline.chart_html(raw.to_dict(), root=tmp_path / "book", here=tmp_path / "book" / "x")
    found = browser.layout(browser.layout_page([html], tmp_path / "book", tmp_path / "site"), 1000)
    assert any("sizes in bytes written out" in p and "16,777,216" in p for p in browser.layout_problems(found, 1000))


def test_the_check_sees_a_chart_too_wide_and_a_cut_label(tmp_path: Path) -> None:
    """The layout check is not a formality: a chart drawn at a fixed width the old way,
    wider than the column, with a legend cut by Vega's default label limit, fails it."""
    if browser.chromium() is None:
        pytest.fail("Chromium is needed to check the layout")
    spec = _kinds()["single"].to_dict()
    spec["width"] = 900
    spec["config"]["legend"]["labelLimit"] = 160  # Vega's default
    old = (
        f'<div class="howfast-chart" id="old"></div><script>vegaEmbed("#old", {offline.json.dumps(spec)}, '
        '{renderer: "svg"}).then(function () { document.getElementById("old").setAttribute("data-howfast-drawn", "1"); '
        "});</script>"
    )
    offline._page["loaded"] = False
    first = offline.chart_html(_kinds()["unavailable"].to_dict(), root=tmp_path / "book", here=tmp_path / "book" / "x")
    page = browser.layout_page([first, old], tmp_path / "book", tmp_path / "site")
    found = browser.layout(page, 1000)
    assert found[1]["svg"] > found[1]["room"]
    assert any(text.endswith("…") for text in found[1]["cut"])


def test_static_images_are_a_column_wide_and_cut_nothing() -> None:
    """The SVG images (printed pages, notebooks) are drawn at most a column wide, and
    no label in them is cut either."""
    for name, chart in _kinds().items():
        svg = offline.static_svg(chart.to_dict())
        width = float(re.search(r'<svg[^>]*?\bwidth="([\d.]+)"', svg).group(1))
        assert width <= offline.STATIC_WIDTH, (name, width)
        if name in ("single", "layered", "fixed-too-wide"):
            assert width == offline.STATIC_WIDTH, name
        texts = re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S)
        assert texts and not [t for t in texts if t.rstrip().endswith("…")], (name, texts)


def test_sizes_are_labelled_in_binary_units() -> None:
    frame = pl.DataFrame({"bytes": [512, 4096, 2**20, 16 * 2**20, 2**30, 3 * 2**40], "y": [1, 2, 3, 4, 5, 6]})
    chart = alt.Chart(frame).mark_point().encode(x=alt.X("bytes:Q", axis=charts.size_axis(frame["bytes"])), y="y")
    svg = offline.static_svg(chart.to_dict())
    labels = re.findall(r"<text[^>]*>(.*?)</text>", svg)
    for label in ("512 B", "4 KiB", "1 MiB", "16 MiB", "1 GiB", "3 TiB"):
        assert label in labels, (label, labels)
    assert not [t for t in labels if re.fullmatch(r"[\d,]{6,}", t)], "a size printed as a raw byte count"


def test_titles_wrap_instead_of_running_past_the_column() -> None:
    spec = {"title": {"text": "word " * 40, "subtitle": "x"}, "mark": "point"}
    fitted = offline.fitted(spec, 530)
    assert isinstance(fitted["title"]["text"], list) and len(fitted["title"]["text"]) > 1
    assert all(len(line) <= 530 // 8 for line in fitted["title"]["text"])
    assert offline.fitted({"title": "short", "mark": "point"}, 530)["title"] == "short"


def test_the_theme_sets_no_width_wider_than_the_narrowest_column() -> None:
    config = charts._theme()["config"]
    assert config["view"]["continuousWidth"] <= browser.COLUMNS[1000] - 90  # room for the axis
    assert config["axis"]["labelLimit"] == config["legend"]["labelLimit"] == 0
    assert "width" not in charts.unavailable("why").to_dict()


def test_every_chapter_chart_function_in_the_book_sets_no_fixed_width_wider_than_a_column() -> None:
    """A chart that fixes its width wider than the narrowest column is shrunk by the
    renderer, but its author meant something else: flag it in the source."""
    wide = []
    for path in sorted((ROOT / "native" / "howfast").rglob("*.py")):
        for match in re.finditer(r"width\s*=\s*(\d+)", path.read_text()):
            if int(match.group(1)) > browser.COLUMNS[1000]:
                wide.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert wide == [], wide


def test_a_chart_reaches_quarto_as_markdown_and_needs_no_cdn(tmp_path: Path) -> None:
    """Quarto adds require.js and jQuery from cdnjs to a page whose notebook has any
    text/html (or JavaScript, or widget) output; a chart is a raw HTML block in Markdown,
    which pandoc passes through, and loads nothing from another host."""
    import nbformat

    from howfast.notebook import chart_spec, offline_problems

    offline._page["loaded"] = False
    spec = _kinds()["single"].to_dict()
    with_root = {"root": tmp_path / "book", "here": tmp_path / "book" / "chapters"}
    html = offline.chart_html(spec, **with_root)
    bundle = offline.renderer(spec)
    assert set(bundle) == {"text/markdown"} and not set(bundle) & set(offline.CDN_MIMES)
    assert bundle["text/markdown"].startswith("```{=html}\n") and bundle["text/markdown"].endswith("\n```\n")
    output = nbformat.v4.new_output("execute_result", data=bundle, execution_count=1)
    assert "howfast-chart" in offline.html_of(output) and chart_spec(output) == spec
    assert not re.search(r"src=\"(https?:)?//", html)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("chart", outputs=[output])]
    assert offline_problems(nb) == []
    table = nbformat.v4.new_output("display_data", data={"text/html": "<table></table>", "text/plain": "t"})
    remote = nbformat.v4.new_output(
        "display_data", data={"text/markdown": '```{=html}\n<script src="https://cdn.example/x.js"></script>\n```\n'}
    )
    nb.cells.append(nbformat.v4.new_code_cell("#| label: tbl-x\nframe", outputs=[table, remote]))
    assert offline_problems(nb) == [
        "tbl-x: a text/html output makes Quarto load scripts from a CDN",
        "tbl-x: its HTML loads a script from another host",
    ]


def test_a_render_starts_from_no_figures(tmp_path: Path) -> None:
    """Static images are named by their chart's hash and would pile up render after
    render: `make render` (and `make preview`) first empty the figures folders."""
    import shutil
    import subprocess

    makefile = (ROOT / "Makefile").read_text()
    for target in ("render", "preview"):
        prerequisites = re.search(rf"^{target}:(.*)$", makefile, re.M).group(1).split()
        assert "clean-figures" in prerequisites, target
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    for folder in ("assets/figures", "_book/assets/figures", "assets/js"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "old.svg").write_text("<svg/>")
    done = subprocess.run(["make", "clean-figures"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "assets" / "figures").exists() and not (tmp_path / "_book" / "assets" / "figures").exists()
    assert (tmp_path / "assets" / "js" / "old.svg").exists(), "the libraries' bundle stays"


def test_the_book_asks_quarto_for_nothing_from_another_host() -> None:
    """The theme's web font (cosmo imports it from Google) is switched off, plumbing cells
    are hidden by default, and nothing in the book's configuration names another host."""
    import yaml

    config = yaml.safe_load((ROOT / "_quarto.yml").read_text())
    html = config["format"]["html"]
    themes = html["theme"] if isinstance(html["theme"], list) else [html["theme"]]
    files = [ROOT / t for t in themes if t.endswith(".scss")]
    assert files and any(re.search(r"^\$web-font-path:\s*false;", f.read_text(), re.M) for f in files)
    assert config["execute"]["echo"] is False and html["code-fold"] is True
    text = (ROOT / "_quarto.yml").read_text()
    assert not re.search(r"https?://", text), "the configuration names another host"


def test_bands_and_rules_show_the_interval_of_the_median() -> None:
    """Charts draw the interval of each median (lo–hi), not the fastest-to-slowest run,
    when the frame has one; min–max otherwise; the tooltip gives the run count."""
    frame = _frame().with_columns(lo=pl.col("rate") * 0.95, hi=pl.col("rate") * 1.05, repetitions=pl.lit(9))
    spec = charts.lines(frame, x="bytes", y="median", color="mode", x_title="x", y_title="y").to_dict()
    area = spec["layer"][0]["encoding"]
    assert (area["y"]["field"], area["y2"]["field"]) == ("lo", "hi")
    tips = [t.get("title", t["field"]) for t in spec["layer"][1]["encoding"]["tooltip"]]
    assert {"interval from", "interval to", "runs"} <= set(tips)
    plain = charts.lines(_frame(), x="bytes", y="median", color="mode", x_title="x", y_title="y").to_dict()
    assert plain["layer"][0]["encoding"]["y"]["field"] == "min"
    bars = charts.grouped_bars(frame, category="mode", group="mode", title="t", unit="u").to_dict()
    assert bars["layer"][1]["encoding"]["x"]["field"] == "lo"
    with pytest.raises(ValueError, match="lo and hi"):
        charts.grouped_bars(frame.drop("lo", "hi", "min", "max"), category="mode", group="mode", title="t", unit="u")


def test_the_table_check_sees_a_table_too_wide_for_its_column() -> None:
    """tests/tablewidth.py, which the chapter tests use on every table: a narrow table fits
    both columns; one whose cells cannot break below the column's width overflows, and the
    check names the column holding the widest unbreakable text."""
    import tablewidth

    if browser.chromium() is None:
        pytest.skip(browser.MISSING)
    narrow = "| a | b |\n|:---|---:|\n| one | 1 |\n"
    unbreakable = "x" * 60
    wide = "| name | " + " | ".join(f"c{i}" for i in range(6)) + " |\n|:---|" + "---:|" * 6 + "\n"
    wide += f"| {unbreakable} | " + " | ".join("123,456,789" for _ in range(6)) + " |\n"
    found = {(w.name, w.column): w for w in tablewidth.widths({"narrow": narrow, "wide": wide})}
    assert not found[("narrow", 530)].overflows and not found[("narrow", 750)].overflows
    assert found[("wide", 530)].overflows and found[("wide", 530)].widest_column == "name"
    assert unbreakable in found[("wide", 530)].cause()


def test_the_table_check_refuses_what_is_not_a_table() -> None:
    import tablewidth

    with pytest.raises(ValueError, match="not a pipe table"):
        tablewidth.markdown_html("| a |\n| b |\n")
    with pytest.raises(TypeError, match="tables must map names"):
        tablewidth.widths(["| a |"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="columns must be widths"):
        tablewidth.widths({"t": "| a |\n|---|\n| 1 |\n"}, [0])
    assert tablewidth.widths({}) == []
