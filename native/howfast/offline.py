"""Charts drawn with no network: the ``howfast`` altair renderer.

altair's own HTML renderer loads vega, vega-lite and vega-embed from a CDN when the page
is read, so without internet every chart is blank. Here the three libraries come from
the book's own files instead: one bundle, ``assets/js/vega-bundle.js`` (written from
vl-convert's copy of the libraries, about 0.9 MB), loaded once per page by a
``<script>`` tag that the first chart of a page emits. Each chart is then a ``<div>``,
its Vega-Lite spec as JSON, and a call that draws it as SVG (tooltips and the export
menu work). Each chart also gets a static SVG image, ``assets/figures/<hash>.svg`` (named
by its spec, so a re-render rewrites the same file), linked under the chart and shown
instead of it when the page is printed.

The paths are relative to the page (the kernel runs in the page's directory), so the
book works from any folder, a web server or a laptop without network alike.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import uuid
from pathlib import Path

#: Where the book's own copy of the libraries and the static images live (below the root).
ASSETS = Path("assets")
BUNDLE = ASSETS / "js" / "vega-bundle.js"
FIGURES = ASSETS / "figures"

_counter = itertools.count(1)
_page = {"loaded": False, "prefix": uuid.uuid4().hex[:8]}

#: Draws every chart of the page once the bundle is there; shows why if it is not.
_DRAW = """<script>
window.howfastDraw = window.howfastDraw || function (id) {
  var el = document.getElementById(id);
  var spec = JSON.parse(document.getElementById(id + "-spec").textContent);
  if (!window.vegaEmbed) {
    el.textContent = "This chart needs " + %(bundle)s + ", which did not load.";
    return;
  }
  vegaEmbed(el, spec, {renderer: "svg", actions: {export: true, source: false, compiled: false, editor: false}})
    .catch(function (err) { el.textContent = "The chart could not be drawn: " + err; });
};
</script>
<style>
.howfast-static { display: none; }
.howfast-static-link { font-size: 0.8em; }
@media print {
  .howfast-chart, .howfast-static-link { display: none; }
  .howfast-static { display: block; max-width: 100%%; }
}
</style>"""


def book_root(start: Path | None = None) -> Path:
    """The book's root (holding ``_quarto.yml``), else the working directory."""
    from .paths import book_root as find

    return find(start) or Path.cwd()


def write_bundle(root: Path) -> Path:
    """The libraries as one file below `root`, written when missing or of another version."""
    import altair as alt
    import vl_convert as vlc

    path = root / BUNDLE
    version = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    stamp = f"/* vega-lite {version}, vega {vlc.get_vega_version()}, vega-embed {vlc.get_vega_embed_version()} */\n"
    if path.is_file() and path.read_text(encoding="utf-8")[: len(stamp)] == stamp:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp-{os.getpid()}")
    tmp.write_text(stamp + vlc.javascript_bundle(vl_version=version), encoding="utf-8")
    os.replace(tmp, path)
    return path


def write_static(spec: dict, root: Path, name: str) -> Path:
    """The chart as a static SVG image below `root`."""
    import vl_convert as vlc

    path = root / FIGURES / f"{name}.svg"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(vlc.vegalite_to_svg(spec), encoding="utf-8")
    return path


def chart_html(spec: dict, *, root: Path | None = None, here: Path | None = None) -> str:
    """One chart: the loader (first chart of the page only), a div, its spec, the call
    that draws it, and its static image."""
    root = root or book_root()
    here = here or Path.cwd()
    number = next(_counter)
    chart_id = f"howfast-{_page['prefix']}-{number}"
    parts = []
    if not _page["loaded"]:
        bundle = os.path.relpath(write_bundle(root), here)
        parts.append(f'<script src="{bundle}"></script>')
        parts.append(_DRAW % {"bundle": json.dumps(bundle)})
        _page["loaded"] = True
    text = json.dumps(spec, sort_keys=True).replace("</", "<\\/")  # no "</script>" inside the JSON
    name = hashlib.sha1(text.encode()).hexdigest()[:16]
    static = os.path.relpath(write_static(spec, root, name), here)
    parts += [
        f'<div class="howfast-chart" id="{chart_id}"></div>',
        f'<script type="application/json" class="howfast-spec" id="{chart_id}-spec">{text}</script>',
        f'<script>howfastDraw("{chart_id}");</script>',
        f'<img class="howfast-static" src="{static}" alt="the chart above, as a static image" loading="lazy">',
        f'<div class="howfast-static-link"><a href="{static}">static image (SVG)</a></div>',
    ]
    return "\n".join(parts)


def renderer(spec: dict, **metadata: object) -> dict:
    """The altair renderer: the chart as HTML that needs no network."""
    return {"text/html": chart_html(spec)}


_SPEC = re.compile(r'<script type="application/json" class="howfast-spec" id="[^"]+">(.*?)</script>', re.S)


def specs_in(html: str) -> list[dict]:
    """The Vega-Lite specs of the charts in a piece of HTML that ``chart_html`` made."""
    return [json.loads(m) for m in _SPEC.findall(html)]


#: ``svg`` (set by the first cell of a workshop notebook): each chart is a static SVG
#: image. A notebook server does not serve the book's copy of the chart libraries, and
#: the Vega-Lite version altair writes is not one every notebook front end draws; an
#: image shows in all of them, with no network, trusted or not.
SETTING = "HOWFAST_CHARTS"


def svg_renderer(spec: dict, **metadata: object) -> dict:
    """The altair renderer for notebooks: the chart as an SVG image."""
    import vl_convert as vlc

    return {"image/svg+xml": vlc.vegalite_to_svg(spec), "text/plain": "<chart>"}


def register() -> None:
    """The ``howfast`` renderer (the book's pages), or ``howfast-svg`` in a notebook."""
    import altair as alt

    alt.renderers.register("howfast", renderer)
    alt.renderers.register("howfast-svg", svg_renderer)
    alt.renderers.enable("howfast-svg" if os.environ.get(SETTING, "") == "svg" else "howfast")
