"""Headless Chromium with no network: does a page's chart HTML draw?"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

#: Chromium refuses every network request: a proxy nobody listens on, and no DNS.
OFFLINE = ["--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND"]


#: The browsers tried, in order: Debian's chromium, Ubuntu's chromium-browser (a snap
#: behind a wrapper), Google's builds; then the snap itself where /snap/bin is not on PATH.
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SNAP_BIN = Path("/snap/bin")
#: One line for a machine with none of them.
MISSING = (
    "no headless browser (chromium, chromium-browser, google-chrome or /snap/bin/chromium): install one "
    "(Debian: apt-get install chromium; Ubuntu: snap install chromium) to check that the charts draw offline"
)


def chromium() -> str | None:
    """The headless browser to use, or None."""
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    for name in NAMES:
        snap = SNAP_BIN / name
        if snap.is_file() and os.access(snap, os.X_OK):
            return str(snap)
    return None


def _is_snap(exe: str) -> bool:
    """A snap's browser sees a /tmp of its own, and only its own folder of the home."""
    resolved = Path(exe).resolve()
    if resolved.parts[:2] == ("/", "snap") or resolved.name == "snap" or Path(exe).parent == SNAP_BIN:
        return True
    try:  # Ubuntu's /usr/bin/chromium-browser: a script that starts the snap
        with open(resolved, "rb") as script:
            head = script.read(4096)
    except OSError:
        return False
    return head.startswith(b"#!") and b"/snap/bin/" in head


def dump_dom(page: Path, timeout: float = 120, window: tuple[int, int] = (1400, 900)) -> str:
    """The page's DOM after its scripts ran (Chromium's virtual time lets async drawing end),
    in a window `window` pixels wide and high."""
    exe = chromium()
    if exe is None:
        raise RuntimeError(MISSING)
    if _is_snap(exe):  # its /tmp is private: show it a copy of the page's folder in the snap's own home
        home = Path.home() / "snap" / Path(exe).name / "common"
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="howfast-", dir=home) as there:
            site = page.parent.parent  # the page sits in chapters/ beside assets/
            shutil.copytree(site, there, dirs_exist_ok=True)
            return _dump(exe, Path(there) / page.relative_to(site), timeout, window)
    return _dump(exe, page, timeout, window)


def _dump(exe: str, page: Path, timeout: float, window: tuple[int, int]) -> str:
    command = [
        exe,
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        *OFFLINE,
        f"--window-size={window[0]},{window[1]}",
        "--virtual-time-budget=20000",
        "--dump-dom",
        page.resolve().as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"chromium failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout


def chart_page(htmls: list[str], root: Path, where: Path) -> Path:
    """The charts' HTML outputs as one page at the same depth below `where` as chapters
    sit below the book's `root`, with the book's assets beside it, as the rendered book."""
    shutil.copytree(root / "assets", where / "assets", dirs_exist_ok=True)
    page = where / "chapters" / "charts.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'></head><body>\n" + "\n".join(htmls) + "\n</body></html>",
        encoding="utf-8",
    )
    return page


def drawn_charts(dom: str) -> dict[str, int]:
    """Per chart container: how many mark groups its SVG holds (0: nothing drawn, and
    -1 where the container says the libraries did not load or the chart failed)."""
    found = {}
    for m in re.finditer(
        r'<div class="howfast-chart[^"]*" id="([^"]+)"[^>]*>(.*?)(?=<div class="howfast-chart|'
        r'<script type="application/json"|$)',
        dom,
        re.S,
    ):
        inside = m.group(2)
        failed = "did not load" in inside or "could not be drawn" in inside or "Error loading script" in inside
        found[m.group(1)] = -1 if failed else len(re.findall(r'class="[^"]*\bmark-', inside))
    return found


#: A book page's body column as Quarto's book lays it out: about 750 px in a 1400-px
#: window and 530 px in a 1000-px one (the sidebar and the table of contents take the rest).
COLUMNS = {1400: 750, 1000: 530}

_LAYOUT = """
<style>
body { margin: 0; font-family: system-ui, sans-serif; }
main { margin-left: 280px; width: 530px; }
@media (min-width: 1200px) { main { width: 750px; } }
</style>
"""

#: Once every chart is drawn (or failed), writes what a reader would see of each as JSON
#: into ``<pre id="howfast-layout">``: the container's width, the room it leaves the chart
#: (less vega-embed's padding), the SVG's own width and its width on the page, and the
#: texts that end in an ellipsis (cut by Vega's label limits).
_REPORT = """
<pre id="howfast-layout"></pre>
<script>
(function () {
  var started = Date.now();
  function rawSize(t) {  // a power of two of 64 Ki or more written out in digits: a size in bytes
    if (!/^[0-9]{1,3}(,[0-9]{3})+$/.test(t)) return false;
    var n = Number(t.replace(/,/g, ""));
    return n >= 65536 && Math.log2(n) % 1 === 0;
  }
  function report() {
    var charts = document.querySelectorAll(".howfast-chart");
    var done = Array.prototype.every.call(charts, function (el) { return el.hasAttribute("data-howfast-drawn"); });
    if (!done && Date.now() - started < 15000) { setTimeout(report, 100); return; }
    if (window.howfastResizeTo) {  // the reader narrows the window: every chart is drawn again
      document.querySelector("main").style.width = window.howfastResizeTo + "px";
      window.howfastResizeTo = 0;
      window.dispatchEvent(new Event("resize"));
      started = Date.now();
      setTimeout(report, 1500);
      return;
    }
    var found = Array.prototype.map.call(charts, function (el) {
      var cs = window.getComputedStyle(el);
      var svg = el.querySelector("svg");
      var nodes = svg ? svg.querySelectorAll("text") : [];
      var texts = Array.prototype.map.call(nodes, function (t) { return t.textContent; });
      var box = svg ? svg.getBoundingClientRect() : null, outside = [];
      Array.prototype.forEach.call(nodes, function (t) {  // text drawn past the image's edge is cut off
        var r = t.getBoundingClientRect();
        var hidden = t.getAttribute("opacity") === "0" || window.getComputedStyle(t).opacity === "0";  // overlap
        if (!hidden && r.width && (r.right > box.right + 1 || r.left < box.left - 1)) outside.push(t.textContent);
      });
      return {
        id: el.id,
        drawn: el.getAttribute("data-howfast-drawn"),
        column: el.parentElement.getBoundingClientRect().width,
        container: el.getBoundingClientRect().width,
        room: el.clientWidth - (parseFloat(cs.paddingLeft) || 0) - (parseFloat(cs.paddingRight) || 0),
        svg: svg ? parseFloat(svg.getAttribute("width")) : null,
        shown: svg ? svg.getBoundingClientRect().width : null,
        marks: svg ? svg.querySelectorAll("[class*='mark-']").length : 0,
        outside: outside,
        raw_sizes: texts.filter(rawSize),
        cut: texts.filter(function (t) { return /\u2026\\s*$/.test(t); }),
        texts: texts.length
      };
    });
    document.getElementById("howfast-layout").textContent = JSON.stringify(found);
  }
  window.addEventListener("load", function () { setTimeout(report, 100); });
})();
</script>
"""


def layout_page(htmls: list[str], root: Path, where: Path, resize_to: int | None = None) -> Path:
    """The charts' HTML in a column as wide as a book page's body (``COLUMNS``), with the
    book's assets beside it, and a script that reports how each chart was laid out (once
    drawn, after the column is made `resize_to` pixels wide and the window says it resized,
    if given)."""
    page = chart_page(htmls, root, where)
    body = "".join(htmls)
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'>"
        + _LAYOUT
        + (f"<script>window.howfastResizeTo = {int(resize_to)};</script>" if resize_to else "")
        + "</head><body>\n<main>\n"
        + body
        + "\n</main>\n"
        + _REPORT
        + "</body></html>",
        encoding="utf-8",
    )
    return page


def layout(page: Path, window: int) -> list[dict]:
    """How every chart of `page` was laid out in a window `window` pixels wide."""
    dom = dump_dom(page, window=(window, 900))
    found = re.search(r'<pre id="howfast-layout">(.*?)</pre>', dom, re.S)
    if not found or not found.group(1).strip():
        raise RuntimeError("the page did not report its layout")
    import html

    return json.loads(html.unescape(found.group(1)))


def layout_problems(found: list[dict], window: int, column: int | None = None) -> list[str]:
    """What a reader would see wrong with the charts `layout` found in a window `window`
    pixels wide: a chart not drawn, one wider than its column, a text past the image's
    edge (cut off), a text cut with "…", a size in bytes written out in digits. The
    column is the one such a window gives a book page, or `column` pixels wide."""
    column = column or COLUMNS[window]
    problems = []
    for chart in found:
        where = f"{chart['id']} in a {window}-px window"
        if chart["drawn"] != "1" or not chart["marks"]:
            problems.append(f"{where}: not drawn ({chart['drawn']})")
            continue
        if chart["column"] != column:
            problems.append(f"{where}: the page's column is {chart['column']} px, not {column}")
        if chart["svg"] > chart["room"] + 1 or chart["shown"] > chart["container"] + 1:
            problems.append(f"{where}: {chart['svg']} px wide in a column leaving it {chart['room']} px")
        if chart["outside"]:
            problems.append(f"{where}: texts past the image's edge: {chart['outside']}")
        if chart["raw_sizes"]:
            problems.append(f"{where}: sizes in bytes written out (label them in KiB/MiB/GiB): {chart['raw_sizes']}")
        if chart["cut"]:
            problems.append(f"{where}: texts cut with an ellipsis: {chart['cut']}")
    return problems
