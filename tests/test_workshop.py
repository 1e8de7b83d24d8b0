"""The workshop kit: every page as a notebook a class can run (clean), and as one
executed on this machine. The executed set is checked for every page in
test_chapters.py, where the pages are executed anyway."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from traitlets.config import Config

from conftest import ROOT
from howfast import offline
from howfast.notebook import INLINE, chapters, read_chapter
from howfast.workshop import clean_notebook, plain_markdown

PAGES = chapters(ROOT)


def test_callouts_become_quotes_with_their_title() -> None:
    text = "Before.\n\n::: {.callout-tip}\n## Guess first\n\n1. How fast?\n\n2. How slow?\n:::\n\nAfter.\n"
    assert plain_markdown(text) == "Before.\n\n> **Guess first**\n>\n> 1. How fast?\n>\n> 2. How slow?\n\nAfter.\n"


def test_a_callout_without_a_title_is_named_by_its_kind() -> None:
    text = '::: {.callout-note appearance="minimal"}\nMeasured `{python} when`.\n:::\n'
    assert plain_markdown(text) == "> **Note**\n>\n> Measured `when`.\n"
    assert plain_markdown(text, numbers={"when": "today"}) == "> **Note**\n>\n> Measured today.\n"


def test_quarto_only_markup_goes_and_the_words_stay() -> None:
    text = "# fsync {#sec-fsync}\n\nSee @fig-group-commit and @sec-fsync; [wide]{.column-page}.\n"
    assert plain_markdown(text) == ("# fsync\n\nSee the figure *group commit* and the section *fsync*; wide.\n")


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_a_clean_notebook_is_plain_and_prints_every_number(page: Path) -> None:
    nb = clean_notebook(page)
    nbformat.validate(nb)
    assert "HOWFAST_CHARTS" in nb.cells[0].source, "the first cell asks for charts as images"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.outputs == [] and c.execution_count is None for c in code)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    for quarto_only in ("{python}", ":::", "{#sec-", "{.callout"):
        assert quarto_only not in markdown, quarto_only
    printed = "\n".join(c.source for c in code)
    for expression in {
        m.strip() for c in read_chapter(page).cells if c.cell_type == "markdown" for m in INLINE.findall(c.source)
    }:
        assert f"print({expression})" in printed


def test_a_clean_notebook_runs_in_jupyter_with_charts_as_images(tmp_path: Path) -> None:
    """Run as a class would, in a kernel started in the notebook's own folder: the charts
    come out as SVG images, not as the book's HTML (whose libraries a notebook server
    does not serve)."""
    page = tmp_path / "chapters" / "page.qmd"
    page.parent.mkdir()
    page.write_text(
        "# A page\n\n```{python}\n#| label: fig-line\nimport polars as pl\nimport altair as alt\n"
        "from howfast import charts\n"
        "frame = pl.DataFrame({'x': [1, 2], 'y': [3, 4]})\nalt.Chart(frame).mark_line().encode(x='x', y='y')\n```\n\n"
        "It has `{python} frame.height` rows.\n"
    )
    nb = clean_notebook(page)
    config = Config()
    config.KernelManager.transport = "ipc"  # as the book's own executor: no TCP port
    config.KernelManager.ip = str(tmp_path / "kernel")
    NotebookClient(nb, timeout=120, config=config, resources={"metadata": {"path": str(page.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    kinds = [set(o.get("data", {})) for o in outputs if o.get("data")]
    assert {"image/svg+xml", "text/plain"} in kinds, kinds
    svg = next(o["data"]["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {}))
    assert svg.lstrip().startswith("<svg") and "<path" in svg
    assert not any("howfast-chart" in offline.html_of(o) for o in outputs)
    assert [o["text"] for o in outputs if o.get("name") == "stdout"] == ["2\n"]


def _howfast(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = os.environ | {"HOWFAST_RESULTS": str(tmp_path / "results"), "HOWFAST_SCRATCH": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-m", "howfast", "notebooks", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_command_writes_a_clean_notebook_per_page(tmp_path: Path) -> None:
    done = _howfast(tmp_path, "--clean-only", "--out", str(tmp_path / "kit"))
    assert done.returncode == 0, done.stderr
    written = sorted(p.stem for p in (tmp_path / "kit" / "clean").glob("*.ipynb"))
    assert written == sorted(p.stem for p in PAGES)
    assert not (tmp_path / "kit" / "executed").exists()


def test_the_command_refuses_what_is_not_a_page(tmp_path: Path) -> None:
    done = _howfast(tmp_path, "README.md", "--out", str(tmp_path / "kit"))
    assert done.returncode == 2
    assert done.stderr.strip() == "howfast: 'README.md' is not a page of the book (a .qmd file)"
    assert not (tmp_path / "kit").exists()
