"""How wide a book table is in headless Chromium (no network): does it fit the page's body
column, and which column holds its widest unbreakable text?

A table is given as the page shows it: the Markdown pipe table ``tables.Table`` prints
(turned into the HTML Quarto makes of it) or that HTML itself. Each is laid out in a
column `W` pixels wide with Quarto/Bootstrap-like table CSS: ``width: 100%``, cells that
wrap at spaces (and wherever else the browser may break a line), text at 0.9 of the page's
17 px, cells padded 0.25rem 0.5rem. A table overflows when its ``scrollWidth`` passes `W`.
"""

from __future__ import annotations

import html
import json
import re
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import browser

#: The widths a reader sees a page's body column at (``browser.COLUMNS``): 750 px in a
#: 1400-px window, 530 px in a 1000-px one.
WIDTHS = (750, 530)

#: Pandoc (and Quarto, whose ``tbl-colwidths: auto`` keeps them) gives a pipe table whose
#: longest line passes this many characters relative column widths from its separator
#: line; tables.Table writes every separator alike, so the columns get equal shares.
PANDOC_COLUMNS = 72

_CSS = """
html { font-size: 17px; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       line-height: 1.5; }
.howfast-w { margin: 0 0 2rem 0; overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: 0.9em; margin-bottom: 1rem; }
th, td { padding: 0.25rem 0.5rem; vertical-align: top; border-bottom: 1px solid #dee2e6; }
th { font-weight: 700; text-align: inherit; }
"""

#: Per table: its width at the column's width, and per cell (row by row) the width of its
#: longest unbreakable piece of text with that piece, found by laying the cell's content
#: out at ``min-content`` width and reading each line of it back.
_SCRIPT = """
<script>
function pieces(cell) {
  var probe = document.createElement("div");
  probe.style.cssText = "position:absolute;visibility:hidden;width:min-content;left:0;top:0;padding:0;";
  probe.innerHTML = cell.innerHTML;
  cell.appendChild(probe);
  var width = probe.getBoundingClientRect().width, lines = {};
  var walk = document.createTreeWalker(probe, NodeFilter.SHOW_TEXT), node;
  while ((node = walk.nextNode())) {
    for (var i = 0; i < node.data.length; i++) {
      var range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      var r = range.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      var key = Math.round(r.top);
      var line = lines[key] || (lines[key] = {left: r.left, right: r.right, text: ""});
      line.left = Math.min(line.left, r.left); line.right = Math.max(line.right, r.right);
      line.text += node.data[i];
    }
  }
  probe.remove();
  var best = {width: 0, text: ""};
  Object.keys(lines).forEach(function (k) {
    var w = lines[k].right - lines[k].left;
    if (w > best.width) best = {width: w, text: lines[k].text.trim()};
  });
  var cs = window.getComputedStyle(cell);
  return {min: width + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight), piece: best.text,
          piece_px: best.width};
}
var found = Array.prototype.map.call(document.querySelectorAll(".howfast-w"), function (box) {
  var table = box.querySelector("table");
  var rows = Array.prototype.map.call(table.rows, function (row) {
    return Array.prototype.map.call(row.cells, pieces);
  });
  var header = Array.prototype.map.call(table.rows[0].cells, function (c) { return c.textContent.trim(); });
  return {name: box.getAttribute("data-name"), column: box.clientWidth, scroll: box.scrollWidth, header: header,
          table: table.getBoundingClientRect().width, rows: rows};
});
document.getElementById("howfast-widths").textContent = JSON.stringify(found);
</script>
"""


@dataclass(frozen=True)
class Width:
    """How one table lays out in a column `column` px wide: `width` is the table's width
    there (its ``scrollWidth``: more than `column` when it overflows), `needs` the narrowest
    it can be (the sum of its columns' narrowest widths), `columns` each column's narrowest
    width by its header, and `widest_column`/`widest_text`/`widest_px` the column holding the
    widest unbreakable piece of text, that piece and its width."""

    name: str
    column: int
    width: float
    needs: float
    columns: dict[str, float]
    widest_column: str
    widest_text: str
    widest_px: float

    @property
    def overflows(self) -> bool:
        """Whether the reader must scroll sideways to see all of the table."""
        return self.width > self.column + 0.5

    def cause(self) -> str:
        """One line on why the table is as wide as it is."""
        parts = ", ".join(f"{h!r} {px:.0f}" for h, px in sorted(self.columns.items(), key=lambda kv: -kv[1]))
        return (
            f"needs {self.needs:.0f} px (columns' narrowest: {parts}); widest unbreakable text "
            f"{self.widest_text!r} ({self.widest_px:.0f} px) in {self.widest_column!r}"
        )


def _cells(line: str) -> list[str]:
    """The cells of one pipe-table line ('\\|' is a '|' inside a cell)."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def _inline(text: str) -> str:
    """A cell's Markdown as HTML: escaped text, `code` spans."""
    parts = re.split(r"(`[^`]+`)", text)
    return "".join(
        f"<code>{html.escape(p[1:-1])}</code>" if len(p) > 1 and p[0] == p[-1] == "`" else html.escape(p) for p in parts
    )


def markdown_html(markdown: str) -> str:
    """The HTML table Quarto makes of a pipe table as ``tables.Table.markdown`` writes it:
    header, alignment and rows, with equal column widths (``<colgroup>``) when a line of
    it is longer than ``PANDOC_COLUMNS`` characters, as pandoc gives them."""
    if not isinstance(markdown, str):
        raise TypeError(f"markdown must be a string, got {type(markdown).__name__}")
    lines = [line for line in markdown.strip().splitlines() if line.strip()]
    if len(lines) < 2 or not re.fullmatch(r"\|?(\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?", lines[1].strip()):
        raise ValueError("not a pipe table: the second line must be the alignment row ('|:---|---:|')")
    header, rows = _cells(lines[0]), [_cells(line) for line in lines[2:]]
    aligns = ["right" if a.endswith(":") and not a.startswith(":") else "left" for a in _cells(lines[1])]
    if len(aligns) != len(header):
        raise ValueError(f"the alignment row has {len(aligns)} columns, the header {len(header)}")
    colgroup = ""
    if max(len(line) for line in lines) > PANDOC_COLUMNS:
        share = 100 / len(header)
        colgroup = "<colgroup>" + "".join(f'<col style="width: {share:.1f}%">' for _ in header) + "</colgroup>"

    def row(cells: list[str], tag: str) -> str:
        cells = (cells + [""] * len(header))[: len(header)]
        return (
            "<tr>"
            + "".join(f'<{tag} style="text-align: {a}">{_inline(c)}</{tag}>' for c, a in zip(cells, aligns))
            + "</tr>"
        )

    body = "".join(row(r, "td") for r in rows)
    return f'<table class="table">{colgroup}<thead>{row(header, "th")}</thead><tbody>{body}</tbody></table>'


def as_html(table: str) -> str:
    """A table as the page shows it: HTML as given, a Markdown pipe table as Quarto makes it."""
    if not isinstance(table, str):
        raise TypeError(f"a table must be its HTML or Markdown as a string, got {type(table).__name__}")
    return table if table.lstrip().lower().startswith("<") else markdown_html(table)


def widths(tables: Mapping[str, str], columns: Iterable[int] = WIDTHS) -> list[Width]:
    """Every table of `tables` (by name: its HTML or Markdown) laid out in Chromium, with no
    network, in a column of each width of `columns` px: one ``Width`` per table and width,
    in order. Raises RuntimeError when there is no browser (``browser.MISSING``)."""
    if not isinstance(tables, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tables.items()):
        raise TypeError("tables must map names to the tables' HTML or Markdown")
    columns = list(columns)
    if not columns or not all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in columns):
        raise ValueError(f"columns must be widths in whole pixels above 0, got {columns!r}")
    if not tables:
        return []
    boxes = [
        f'<div class="howfast-w" data-name="{html.escape(name)}" style="width: {column}px">{as_html(text)}</div>'
        for column in columns
        for name, text in tables.items()
    ]
    page_html = (
        "<!doctype html><html><head><meta charset='utf-8'><style>"
        + _CSS
        + "</style></head><body>\n"
        + "\n".join(boxes)
        + '\n<pre id="howfast-widths"></pre>'
        + _SCRIPT
        + "</body></html>"
    )
    with tempfile.TemporaryDirectory(prefix="howfast-widths-") as there:
        page = Path(there) / "tables" / "tables.html"  # browser.dump_dom copies page.parent.parent for a snap
        page.parent.mkdir()
        page.write_text(page_html, encoding="utf-8")
        dom = browser.dump_dom(page, window=(max(columns) + 400, 900))
    found = re.search(r'<pre id="howfast-widths">(.*?)</pre>', dom, re.S)
    if not found or not found.group(1).strip():
        raise RuntimeError("the page did not report its tables' widths")
    return [_width(report) for report in json.loads(html.unescape(found.group(1)))]


def _width(report: dict) -> Width:
    header = report["header"]
    columns: dict[str, float] = {}
    widest = ("", "", 0.0)
    for row in report["rows"]:
        for i, cell in enumerate(row):
            name = header[i] if i < len(header) else f"column {i + 1}"
            columns[name] = max(columns.get(name, 0.0), cell["min"])
            if cell["piece_px"] > widest[2]:
                widest = (name, cell["piece"], cell["piece_px"])
    return Width(
        name=report["name"], column=report["column"], width=max(report["scroll"], report["table"]),
        needs=sum(columns.values()), columns=columns,
        widest_column=widest[0], widest_text=widest[1], widest_px=widest[2],
    )  # fmt: skip
