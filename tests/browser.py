"""Headless Chromium with no network: does a page's chart HTML draw?"""

from __future__ import annotations

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


def dump_dom(page: Path, timeout: float = 120) -> str:
    """The page's DOM after its scripts ran (Chromium's virtual time lets async drawing end)."""
    exe = chromium()
    if exe is None:
        raise RuntimeError(MISSING)
    if _is_snap(exe):  # its /tmp is private: show it a copy of the page's folder in the snap's own home
        home = Path.home() / "snap" / Path(exe).name / "common"
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="howfast-", dir=home) as there:
            site = page.parent.parent  # the page sits in chapters/ beside assets/
            shutil.copytree(site, there, dirs_exist_ok=True)
            return _dump(exe, Path(there) / page.relative_to(site), timeout)
    return _dump(exe, page, timeout)


def _dump(exe: str, page: Path, timeout: float) -> str:
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
