"""Headless Chromium with no network: does a page's chart HTML draw?"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

#: Chromium refuses every network request: a proxy nobody listens on, and no DNS.
OFFLINE = ["--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def dump_dom(page: Path, timeout: float = 120) -> str:
    """The page's DOM after its scripts ran (Chromium's virtual time lets async drawing end)."""
    exe = chromium()
    if exe is None:
        raise RuntimeError("no Chromium here (apt-get install chromium)")
    command = [
        exe,
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        *OFFLINE,
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
