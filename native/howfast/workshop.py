"""The workshop kit: every page of the book as a Jupyter notebook.

Two sets, written by ``howfast notebooks`` (``make notebooks``):

* **clean** (``notebooks/clean/``): no outputs, for a class to run. The prose is plain
  Markdown a notebook shows (Quarto's callouts become quotes, cross-references become
  words), every number the book's text takes from a cell is shown as the expression
  that computes it, and a cell after the paragraph prints those numbers once the cells
  above have run: guess, then run it. A first cell asks for charts that Jupyter draws
  itself (the book's offline renderer loads its libraries from the book's own files,
  which a notebook server does not serve).
* **executed** (``notebooks/executed/``): the same pages run on this machine, from its
  stored results, with the numbers written into the prose and every chart as an SVG
  image (as in the clean set, so it shows in any viewer, GitHub's included). Where
  Quarto is missing, ``make book`` leaves these, so the measuring is not wasted.

A notebook is run from its own folder inside the checkout: the book's root (and with it
``data/``) is found above it, as for a chapter.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import nbformat

from .checks import checked
from .notebook import INLINE, ExecutedChapter, chart_spec, read_chapter
from .offline import SETTING

#: The sets and where they go below the output folder
CLEAN, EXECUTED = "clean", "executed"


_SETUP = f"""\
# Run this first: in a notebook, every chart is a static SVG image (the book's web pages
# load their chart libraries from the book's own files, which a notebook server does not
# serve; an image shows everywhere, with no network).
import os

os.environ["{SETTING}"] = "svg"
"""

_CALLOUT = re.compile(r"^:::+[ \t]*\{\.callout-(\w+)[^}]*\}[ \t]*\n(.*?)^:::+[ \t]*$\n?", re.S | re.M)
_FENCE = re.compile(r"^:::+.*$\n?", re.M)
_HEADING_ATTRS = re.compile(r"^(#+ .*?)[ \t]*\{[^}]*\}[ \t]*$", re.M)
_SPAN = re.compile(r"\[([^\]]+)\]\{[^}]*\}")
_CROSSREF = re.compile(r"@(fig|tbl|sec)-([\w-]+)")
_KINDS = {"fig": "figure", "tbl": "table", "sec": "section"}


def _callout(match: re.Match[str]) -> str:
    kind, body = match.group(1), match.group(2).strip("\n")
    lines = body.splitlines()
    title = kind.capitalize()
    if lines and lines[0].startswith("## "):
        title, lines = lines[0][3:].strip(), lines[1:]
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    quoted = "".join(f"> {line}\n" if line.strip() else ">\n" for line in lines)
    return f"> **{title}**\n>\n{quoted}" if quoted else f"> **{title}**\n"


def plain_markdown(text: str, *, numbers: dict[str, str] | None = None) -> str:
    """Quarto's Markdown as a notebook shows it. Inline expressions become their value
    when `numbers` has it, else the expression as code."""

    def inline(match: re.Match[str]) -> str:
        expr = match.group(1).strip()
        if numbers is not None and expr in numbers:
            return numbers[expr]
        return f"`{expr}`"

    text = INLINE.sub(inline, text)
    text = _CALLOUT.sub(_callout, text)
    text = _FENCE.sub("", text)  # other divs (columns, asides): their content stays
    text = _HEADING_ATTRS.sub(r"\1", text)
    text = _SPAN.sub(r"\1", text)
    return _CROSSREF.sub(lambda m: f"the {_KINDS[m.group(1)]} *{m.group(2).replace('-', ' ')}*", text)


def _numbers_cell(expressions: list[str]) -> nbformat.NotebookNode:
    lines = "\n".join(f"print({expr})" for expr in expressions)
    return nbformat.v4.new_code_cell(f"# The numbers in the text above, measured here (guess first, then run)\n{lines}")


def clean_notebook(path: str | Path) -> nbformat.NotebookNode:
    """A page of the book as a notebook for a class: no outputs, the numbers of each
    paragraph printed by a cell after it."""
    nb = read_chapter(path)
    cells = [nbformat.v4.new_code_cell(_SETUP)]
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            cells.append(cell)
            continue
        expressions = list(dict.fromkeys(m.strip() for m in INLINE.findall(cell.source)))
        cells.append(nbformat.v4.new_markdown_cell(plain_markdown(cell.source)))
        if expressions:
            cells.append(_numbers_cell(expressions))
    nb.cells = cells
    _strip(nb)
    return nb


def _strip(nb: nbformat.NotebookNode) -> None:
    """No outputs or execution counts."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.validate(nb)


def _chart_image(output: dict) -> dict | None:
    """A chart output of the book's renderer as the notebooks' own: an SVG image."""
    from .offline import svg_renderer

    spec = chart_spec(output)
    return nbformat.v4.new_output("display_data", data=svg_renderer(spec)) if spec else None


def executed_notebook(done: ExecutedChapter) -> nbformat.NotebookNode:
    """An executed page as a notebook: outputs kept, numbers written into the prose,
    charts as SVG images."""
    nb = copy.deepcopy(done.notebook)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = plain_markdown(cell.source, numbers=done.inline)
        elif cell.cell_type == "code":
            cell.outputs = [_chart_image(o) or o for o in cell.get("outputs", [])]
    nbformat.validate(nb)
    return nb


def write(nb: nbformat.NotebookNode, directory: Path, page: Path) -> Path:
    """The notebook beside its set's others, named after its page; written whole."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{page.stem}.ipynb"
    tmp = path.with_suffix(".ipynb.tmp")
    nbformat.write(nb, tmp)
    tmp.replace(path)
    return path


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
