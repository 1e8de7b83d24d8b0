"""Every page of the book executes in a real Jupyter kernel, without Quarto, and shows
what it promises: its charts (drawn in a browser with no network), its tables, its inline
numbers. The book is measured on the smoke profile (every code path of the quick one,
in seconds; ``make book`` is the place for the quick profile's numbers).

The book is measured once: by the command line in a subprocess (``python -m howfast
measure``, as ``make measure`` runs it) for every chapter but one, and by that chapter
itself for the last (a fresh clone's chapter finds no results and measures them). Every
page then renders from the stored results, as ``make render`` does, and must not
measure again. A new chapter in chapters/ is picked up here without editing this file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import browser
import tablewidth
from conftest import LEFT_TO_MEASURE, ROOT, command_env, copy_book
from howfast import book, offline, store
from howfast.book import CHAPTERS
from howfast.notebook import cell_options, chapters, chart_spec, execute_chapter
from howfast.workshop import executed_notebook

PAGES = chapters(ROOT)


#: The chapter left for itself to measure (the cheapest one).
SELF_MEASURED = "fsync"


@pytest.fixture(scope="module")
def measured_book(smoke_book: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every subject but SELF_MEASURED's measured once through the command line (the
    session's book, shared with test_card: a copy of it)."""
    assert CHAPTERS[SELF_MEASURED] == (LEFT_TO_MEASURE,)
    return copy_book(smoke_book, tmp_path_factory.mktemp("book"))


def _use(base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in command_env(base).items():
        monkeypatch.setenv(key, value)


def _manifests(base: Path) -> dict[str, dict]:
    found = (base / "results").glob("*/*/*/manifest.json")  # through the links, not the hidden folders
    return {p.parent.name: json.loads(p.read_text()) for p in found if not p.parent.name.startswith(".")}


def test_the_book_has_pages() -> None:
    assert ROOT / "index.qmd" in PAGES and len(PAGES) >= 2


def test_every_chapter_is_registered_with_its_subjects() -> None:
    """A chapter's results come from the subjects ``book.CHAPTERS`` lists for it, and
    every chapter that reads results is listed (so ``howfast measure CHAPTER`` works)."""
    for page in PAGES:
        text = page.read_text()
        read = {s for s in store.SUBJECTS if f'results("{s}")' in text}
        if "results(subject) for subject in card.SUBJECTS" in text:  # the card reads every subject it shows
            from howfast import card

            read |= set(card.SUBJECTS)
        if page.parent.name == "chapters":
            assert page.stem in CHAPTERS, f"{page.name} is not in howfast.book.CHAPTERS"
            assert read == set(CHAPTERS[page.stem]), page.name
        else:
            assert not read


def test_measuring_stores_one_set_per_subject(measured_book: Path) -> None:
    manifests = _manifests(measured_book)
    expected = set(store.SUBJECTS) - set(CHAPTERS[SELF_MEASURED])
    assert expected <= set(manifests)
    for subject, manifest in manifests.items():
        assert manifest["profile"] == "smoke" and manifest["machine"] == "test-machine"
        assert manifest["experiments"], subject


def test_every_experiment_has_a_title_readers_read(measured_book: Path) -> None:
    """The noise notes name experiments as 'during the memory-latency runs', never by
    their stored names: each subject's ``report.TITLES`` covers every experiment it stores."""
    import importlib

    for subject, manifest in _manifests(measured_book).items():
        titles = importlib.import_module(f"howfast.{subject}.report").TITLES
        assert set(manifest["experiments"]) <= set(titles), (subject, set(manifest["experiments"]) - set(titles))
        assert book.experiment_title(subject, manifest["experiments"][0]) == titles[manifest["experiments"][0]]
    assert book.experiment_title("cpu", "no_such_thing") == "no such thing"


def test_a_chapter_measures_what_is_missing(measured_book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no stored results (a fresh clone), the chapter measures, stores and shows them."""
    _use(measured_book, monkeypatch)
    missing = CHAPTERS[SELF_MEASURED]
    assert not set(missing) & set(_manifests(measured_book))
    done = execute_chapter(ROOT / "chapters" / f"{SELF_MEASURED}.qmd", timeout=600)
    assert done.problems == []
    assert set(missing) <= set(_manifests(measured_book))
    assert list((measured_book / "scratch").iterdir()) == []


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_page_renders_from_stored_results(
    page: Path, measured_book: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _use(measured_book, monkeypatch)
    for subject in CHAPTERS.get(page.stem, ()):  # when this test runs alone
        if subject not in _manifests(measured_book):
            store.measure(subject)
    before = _manifests(measured_book)
    done = execute_chapter(page, timeout=600)
    assert done.problems == []
    assert done.inline, "numbers in the prose must come from inline expressions"
    if page.parent.name == "chapters":
        assert done.charts(), "a chapter draws at least one chart"
        assert done.outputs("tbl-"), "a chapter shows at least one table"
        for label, spec in done.charts().items():
            rows = sum(len(v) for v in spec.get("datasets", {}).values())
            assert rows > 0, f"{label} has no data"
        stamps = [v for k, v in done.inline.items() if k.endswith(".stamp()")]
        assert stamps and all("smoke profile, measured" in s for s in stamps), "a chapter says when it was measured"
    assert _manifests(measured_book) == before, "rendering must not measure again"
    assert list((measured_book / "scratch").iterdir()) == [], "scratch files left behind"
    if page.parent.name == "chapters":
        _charts_draw_offline(done, tmp_path)
    _tables_fit(done)
    _is_an_executed_notebook(done)


def _is_an_executed_notebook(done) -> None:
    """The page as the workshop kit's executed notebook: the numbers in the prose, each
    chart an image."""
    nb = executed_notebook(done)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "{python}" not in markdown
    assert all(value in markdown for value in done.inline.values())
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    charts = [o for c in done.notebook.cells if c.cell_type == "code" for o in c.outputs if chart_spec(o)]
    assert sum("image/svg+xml" in o.get("data", {}) for o in outputs) == len(charts)
    assert not any("howfast-chart" in offline.html_of(o) for o in outputs)


def _chart_outputs(done) -> list[str]:
    return [
        offline.html_of(o)
        for outs in done.outputs("fig-").values()
        for o in outs
        if "howfast-chart" in offline.html_of(o)
    ]


def _charts_draw_offline(done, tmp_path: Path) -> None:
    """Every chart of the page draws in headless Chromium with the network cut off, in
    the page's body column as a 1000-px and a 1400-px window give it, no wider than the
    column and with no text cut with "…" (tests/test_layout.py checks the renderer itself)."""
    if browser.chromium() is None:
        pytest.skip(browser.MISSING)
    htmls = _chart_outputs(done)
    assert len(htmls) == len(done.charts())
    assert sum(h.count("<script src=") for h in htmls) == 1, "the libraries load once per page"
    page = browser.layout_page(htmls, ROOT, tmp_path)
    for window in sorted(browser.COLUMNS):
        found = browser.layout(page, window)
        assert len(found) == len(htmls)
        assert browser.layout_problems(found, window) == []


def _tables(done) -> dict[str, tuple[str, str]]:
    """Every table the page shows, by its cell's label: the Markdown and the cell's column."""
    found = {}
    for cell in done.notebook.cells:
        if cell.cell_type != "code":
            continue
        options = cell_options(cell.source)
        for i, output in enumerate(cell.get("outputs", [])):
            text = output.get("data", {}).get("text/markdown", "")
            text = "".join(text) if isinstance(text, list) else text
            if text.lstrip().startswith("|"):
                found[f"{options.get('label', 'unlabelled')}#{i}"] = (text, str(options.get("column", "body")))
    return found


def _tables_fit(done) -> None:
    """No table makes the reader scroll sideways: a table in the body column fits it at both
    window widths (``browser.COLUMNS``); a ``column: page-right`` table, which Quarto widens
    into the margin, fits at least the body column of the 1400-px window, a width its real
    column only passes. Laid out in Chromium with the table CSS of the book's theme."""
    if browser.chromium() is None:
        pytest.skip(browser.MISSING)
    tables = _tables(done)
    body = {name: text for name, (text, column) in tables.items() if column == "body"}
    wide = {name: text for name, (text, column) in tables.items() if column != "body"}
    found = [*tablewidth.widths(body), *tablewidth.widths(wide, [max(browser.COLUMNS.values())])]
    assert [f"{w.name} at {w.column} px: {w.cause()}" for w in found if w.overflows] == []


def test_cells_get_the_profiles_time() -> None:
    with pytest.raises(ValueError, match="timeout must be a positive"):
        execute_chapter(ROOT / "index.qmd", timeout=0)


def test_the_kernel_listens_on_no_port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The chapter kernel is reached over Unix sockets (no TCP port, no warning about it),
    also when it runs in another directory than ours, as every chapter's kernel does."""
    from nbclient import NotebookClient

    seen: list[str] = []
    real = NotebookClient.create_kernel_manager

    def spy(self):  # the manager nbclient starts the kernel with
        km = real(self)
        seen.append(km.transport)
        return km

    monkeypatch.setattr(NotebookClient, "create_kernel_manager", spy)
    page = tmp_path / "chapters" / "page.qmd"
    page.parent.mkdir()
    page.write_text("# A page\n\n```{python}\nimport os\nhere = os.getcwd()\n```\n\nIn `{python} here`.\n")
    done = execute_chapter(page, timeout=60)
    assert done.inline == {"here": str(page.parent)}
    assert seen == ["ipc"]


def test_a_browser_is_found_by_any_of_its_names_or_as_a_snap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Debian's chromium, Ubuntu's chromium-browser, Google's, or the snap off PATH."""
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setattr(browser, "SNAP_BIN", tmp_path / "snap-bin")
    assert browser.chromium() is None
    for folder, name in ((tmp_path / "snap-bin", "chromium"), (tmp_path / "bin", "google-chrome-stable"),
                         (tmp_path / "bin", "chromium-browser")):  # fmt: skip
        folder.mkdir(exist_ok=True)
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
        assert browser.chromium() == str(folder / name)
    assert "apt-get install chromium" in browser.MISSING and "snap install chromium" in browser.MISSING


def test_the_browser_check_sees_a_chart_that_cannot_draw(tmp_path: Path) -> None:
    """The offline check is not a formality: without the bundle, the chart says so."""
    if browser.chromium() is None:
        pytest.skip(browser.MISSING)
    import altair as alt
    import polars as pl

    spec = alt.Chart(pl.DataFrame({"x": [1, 2], "y": [3, 4]})).mark_line().encode(x="x", y="y").to_dict()
    offline._page["loaded"] = False  # a new page
    html = offline.chart_html(spec, root=tmp_path / "book", here=tmp_path / "book" / "chapters")
    page = browser.chart_page([html], tmp_path / "book", tmp_path / "site")
    assert list(browser.drawn_charts(browser.dump_dom(page)).values())[0] > 0
    (tmp_path / "site" / offline.BUNDLE).unlink()
    assert list(browser.drawn_charts(browser.dump_dom(page)).values()) == [-1]
