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

import copy
import hashlib
import itertools
import json
import os
import re
import uuid
from pathlib import Path

from .checks import checked

#: Where the book's own copy of the libraries and the static images live (below the root).
ASSETS = Path("assets")
BUNDLE = ASSETS / "js" / "vega-bundle.js"
FIGURES = ASSETS / "figures"

_counter = itertools.count(1)
_page = {"loaded": False, "prefix": uuid.uuid4().hex[:8]}

#: Draws every chart of the page once the bundle is there (shows why if it is not), sized to
#: its container: a single or layered view takes the container's width (Vega-Lite's
#: ``width: "container"``, autosize ``fit-x``); a concatenation or facet has each view's
#: width scaled until the whole fits (two measured drawings, then the one that fits);
#: titles wrap, legends take as many columns as fit, and every chart is drawn again when
#: the window's width changes. A drawn chart's container gets ``data-howfast-drawn``.
_DRAW = """<script>
(function () {
  if (window.howfastDraw) return;
  var OPTIONS = {renderer: "svg", actions: {export: true, source: false, compiled: false, editor: false}};
  var charts = {};  // id -> its spec, to draw again when the window's width changes

  function clone(x) { return JSON.parse(JSON.stringify(x)); }
  function kids(s) { return s.hconcat || s.vconcat || s.concat || null; }
  function composite(s) {
    var e = s.encoding || {};
    return !!(kids(s) || s.spec || e.column || e.row || e.facet);
  }
  // The views that own a width (a layer's members share their parent's).
  function views(s, out) {
    var k = kids(s);
    if (k) k.forEach(function (c) { views(c, out); });
    else if (s.spec) views(s.spec, out);
    else out.push(s);
    return out;
  }
  // How many values a field takes in the spec's data (a facet's columns), 1 if unknown.
  function distinct(root, s, def) {
    var field = def && def.field, data = s.data || root.data || {};
    var rows = data.values || (data.name && (root.datasets || {})[data.name]) || [];
    if (!field || !rows.length) return 1;
    var seen = {};
    rows.forEach(function (r) { seen[JSON.stringify(r[field])] = 1; });
    return Object.keys(seen).length;
  }
  // Views side by side: a first guess that measuring corrects.
  function across(s, root) {
    root = root || s;
    var more = function (c) { return across(c, root); };
    if (s.hconcat) return s.hconcat.reduce(function (n, c) { return n + more(c); }, 0);
    if (s.vconcat) return Math.max.apply(null, s.vconcat.map(more));
    if (s.concat) {
      var n = s.concat.length;
      return Math.min(s.columns || n, n) * Math.max.apply(null, s.concat.map(more));
    }
    var f = s.facet || (s.encoding || {}), wrapped = s.facet ? !(f.column || f.row) : !!f.facet;
    var columns = f.column ? distinct(root, s, f.column) : 1;
    if (wrapped) columns = Math.min(s.columns || Infinity, distinct(root, s, s.facet || f.facet));
    return columns * (s.spec ? more(s.spec) : 1);
  }
  function words(text, chars) {  // a title cut into lines at spaces, none longer than `chars`
    var lines = [], line = "";
    String(text).split(" ").forEach(function (w) {
      if (line && (line + " " + w).length > chars) { lines.push(line); line = w; }
      else line = line ? line + " " + w : w;
    });
    if (line) lines.push(line);
    return lines.length > 1 ? lines : text;
  }
  // Titles and subtitles longer than the width wrap (a title is never cut with "…").
  function wrapTitles(s, width) {
    var chars = Math.max(12, Math.floor(width / 8));
    var t = s.title;
    if (typeof t === "string") s.title = words(t, chars);
    else if (t && typeof t === "object" && !Array.isArray(t)) {
      if (typeof t.text === "string") t.text = words(t.text, chars);
      if (typeof t.subtitle === "string") t.subtitle = words(t.subtitle, Math.floor(chars * 1.15));
    }
    (kids(s) || []).concat(s.layer || []).forEach(function (c) { wrapTitles(c, width); });
    if (s.spec) wrapTitles(s.spec, width);
  }
  // A label longer than `chars` characters wraps at spaces onto more lines (Vega draws an
  // array of strings as lines), for legends and facet headers, whose labels a chart's
  // width cannot make room for.
  function wrapExpr(chars) {
    var lines = "replace(datum.label, regexp('(.{1," + chars + "})( +|$)', 'g'), '$1\u00b6')";
    return "split(replace(" + lines + ", regexp('\u00b6$'), ''), '\u00b6')";
  }
  var LEGENDS = ["color", "fill", "stroke", "shape", "size", "opacity", "strokeDash", "strokeWidth"];
  function encodings(s, out) {  // every encoding of a spec, its layers' and its views' included
    if (s.encoding) out.push(s.encoding);
    (s.layer || []).concat(kids(s) || []).forEach(function (c) { encodings(c, out); });
    if (s.spec) encodings(s.spec, out);
    return out;
  }
  // Legend labels wrap at `chars` characters, and legends take the columns the renderer
  // gives them (config.legend.columns), whatever a chart asked for.
  function wrapLabels(s, width, chars) {
    var expr = wrapExpr(chars);
    encodings(s, []).forEach(function (e) {
      LEGENDS.forEach(function (channel) {
        var def = e[channel];
        if (!def || typeof def !== "object" || def.legend === null || !(def.field || def.aggregate)) return;
        def.legend = Object.assign({}, def.legend || {});
        delete def.legend.columns;
        if (!def.legend.labelExpr) def.legend.labelExpr = expr;
      });
      var y = e.y;  // categories down the side: at most 40 %% of the width
      if (y && typeof y === "object" && (y.type === "nominal" || y.type === "ordinal") && y.axis !== null) {
        y.axis = Object.assign({}, y.axis || {});
        if (!y.axis.labelExpr) y.axis.labelExpr = wrapExpr(Math.max(12, Math.floor(width * 0.4 / 7)));
      }
    });
    s.config = s.config || {};
    var header = s.config.header = Object.assign({}, s.config.header || {});
    if (!header.labelExpr) header.labelExpr = wrapExpr(Math.max(8, Math.floor((width / across(s) - 30) / 7)));
  }
  function drawnWidth(el) {
    var svg = el.querySelector("svg");
    return svg ? parseFloat(svg.getAttribute("width")) || svg.getBoundingClientRect().width : 0;
  }
  function room(el) {  // the width a chart may take: the container less vega-embed's padding (its menu)
    var cs = window.getComputedStyle(el);
    var pad = (parseFloat(cs.paddingLeft) || 0) + (parseFloat(cs.paddingRight) || 0);
    if (!el.classList.contains("has-actions")) pad += 38;
    var width = el.clientWidth;
    if (width < 100) {  // inside a box that takes its content's width: the page's column instead
      var column = el.closest("main") || document.body;
      width = column.clientWidth;
    }
    return Math.max(120, width - pad);
  }
  function embed(el, spec) {
    if (el._howfastView) { el._howfastView.finalize(); el._howfastView = null; }
    el.innerHTML = "";
    return vegaEmbed(el, spec, OPTIONS).then(function (result) { el._howfastView = result; return result; });
  }
  // Legend entries in as many columns as fit the width.
  // A legend below the chart starts where the plot does (right of the y axis's labels).
  function legendColumns(el, width) {
    var svg = el.querySelector("svg");
    var legends = el.querySelectorAll("g.role-legend");
    var best = 0;
    for (var i = 0; i < legends.length; i++) {
      var labels = legends[i].querySelectorAll(".role-legend-label text");
      if (labels.length < 2) continue;
      var widest = 0;
      for (var j = 0; j < labels.length; j++) widest = Math.max(widest, labels[j].getBBox().width);
      var left = legends[i].getBoundingClientRect().left - svg.getBoundingClientRect().left;
      var cols = Math.max(1, Math.min(labels.length, Math.floor((width - left) / (widest + 42))));
      best = best ? Math.min(best, cols) : cols;
    }
    return best;
  }
  function legendOutside(el) {
    var svg = el.querySelector("svg");
    if (!svg) return false;
    var right = svg.getBoundingClientRect().right;
    return Array.prototype.some.call(el.querySelectorAll("g.role-legend"), function (g) {
      return g.getBoundingClientRect().right > right + 1;
    });
  }
  function sized(spec, factor, base) {
    var s = clone(spec);
    views(s, []).forEach(function (v, i) { v.width = Math.max(20, Math.round(base[i] * factor)); });
    return s;
  }
  // A concatenation or facet: every view's width scaled so the whole fits `width`.
  // The drawn width is close to linear in the scale (axes, legends and gaps stay), so two
  // measured drawings give the scale that fits.
  function fitComposite(el, spec, width) {
    var continuous = ((spec.config || {}).view || {}).continuousWidth || 300;
    var base = views(spec, []).map(function (v) { return typeof v.width === "number" ? v.width : continuous; });
    var widest = Math.max.apply(null, base);
    var f1 = Math.max(0.05, (width / across(spec) - 70) / widest);
    return embed(el, sized(spec, f1, base)).then(function () {
      var s1 = drawnWidth(el);
      if (s1 <= width && s1 >= width - 60) return;
      var f2 = f1 * 0.6;
      return embed(el, sized(spec, f2, base)).then(function () {
        var s2 = drawnWidth(el);
        var per = (s1 - s2) / (f1 - f2);
        if (!(per > 0)) return null;  // the views' widths are not what makes it wide
        var f = Math.max(0.05, (width - 2 - (s1 - per * f1)) / per);
        return embed(el, sized(spec, f, base)).then(function () {
          if (drawnWidth(el) > width) return embed(el, sized(spec, f * width / drawnWidth(el) * 0.97, base));
        });
      });
    });
  }
  // The right edge of the chart's visible texts past the image's own (0: none past it).
  function overflow(el) {
    var svg = el.querySelector("svg");
    if (!svg) return 0;
    var right = svg.getBoundingClientRect().right, most = 0;
    Array.prototype.forEach.call(svg.querySelectorAll("text"), function (t) {
      if (t.getAttribute("opacity") === "0") return;  // hidden where labels overlap
      most = Math.max(most, t.getBoundingClientRect().right - right);
    });
    return most;
  }
  function legendLeft(el) {  // where the widest-placed legend starts, from the image's left edge
    var svg = el.querySelector("svg"), left = 0;
    Array.prototype.forEach.call(el.querySelectorAll("g.role-legend"), function (g) {
      left = Math.max(left, g.getBoundingClientRect().left - svg.getBoundingClientRect().left);
    });
    return left;
  }
  // Draws the chart to fit: the views sized, then legends in as many columns as fit (one
  // column less, then shorter label lines, while a legend runs past the edge), then the
  // plot narrowed by what marks' texts (values printed beside bars) still run past it.
  // (Vega's "fit" leaves marks out of the layout; a concatenation's "pad" counts them.)
  function draw(id) {
    var el = document.getElementById(id);
    el.removeAttribute("data-howfast-drawn");
    var width = room(el);
    el._howfastWidth = el.clientWidth;
    var single = !composite(charts[id]);
    var chars = Math.max(12, Math.floor((width - 90) / 7)), cols = 0, narrow = 0;
    function prepared() {
      var s = clone(charts[id]);
      wrapTitles(s, width);
      wrapLabels(s, width, chars);
      if (cols) {
        s.config = s.config || {};
        s.config.legend = Object.assign({}, s.config.legend || {}, {columns: cols});
      }
      if (single) {  // texts past the plot (values beside bars) get room as padding
        s.width = "container";
        s.autosize = {type: "fit-x", contains: "padding"};
        var p = typeof s.padding === "number" ? s.padding : 5;
        if (narrow) s.padding = {left: p, top: p, bottom: p, right: p + narrow};
      }
      return s;
    }
    function fit() { return single ? embed(el, prepared()) : fitComposite(el, prepared(), width - narrow); }
    function legendFits(tries) {
      if (tries <= 0 || !legendOutside(el)) return null;
      if (cols > 1) cols -= 1;
      else {
        var shorter = Math.max(8, Math.floor((width - legendLeft(el) - 40) / 7));
        if (shorter >= chars) return null;
        chars = shorter;
      }
      return fit().then(function () { return legendFits(tries - 1); });
    }
    function marksFit(tries) {
      var past = overflow(el);
      if (tries <= 0 || past <= 1) return null;
      narrow += Math.ceil(past) + 4;
      return fit().then(function () { return marksFit(tries - 1); });
    }
    return fit().then(function () {
      var best = legendColumns(el, width);
      var now = ((charts[id].config || {}).legend || {}).columns;
      if (best && best !== now) {
        cols = best;
        return fit();
      }
    }).then(function () {
      return legendFits(4);
    }).then(function () {
      return marksFit(2);
    }).then(function () {
      el.setAttribute("data-howfast-drawn", "1");
    }).catch(function (err) {
      el.textContent = "The chart could not be drawn: " + err;
      el.setAttribute("data-howfast-drawn", "failed");
    });
  }
  window.howfastDraw = function (id) {
    var el = document.getElementById(id);
    charts[id] = JSON.parse(document.getElementById(id + "-spec").textContent);
    if (!window.vegaEmbed) {
      el.textContent = "This chart needs " + %(bundle)s + ", which did not load.";
      el.setAttribute("data-howfast-drawn", "failed");
      return;
    }
    draw(id);
  };
  var pending = null;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(function () {
      Object.keys(charts).forEach(function (id) {
        var el = document.getElementById(id);
        if (el && window.vegaEmbed && el.clientWidth !== el._howfastWidth) draw(id);
      });
    }, 200);
  });
})();
</script>
<style>
.howfast-chart { width: 100%%; max-width: 100%%; box-sizing: border-box; }
.howfast-chart svg { max-width: 100%%; height: auto; }
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


#: The width of a static image (the printed page, the notebooks): a book column's.
STATIC_WIDTH = 700


def _kids(spec: dict) -> list[dict] | None:
    return spec.get("hconcat") or spec.get("vconcat") or spec.get("concat")


def _composite(spec: dict) -> bool:
    encoding = spec.get("encoding") or {}
    return bool(_kids(spec) or "spec" in spec or {"column", "row", "facet"} & set(encoding))


def _views(spec: dict) -> list[dict]:
    """The views of `spec` that own a width (a layer's members share their parent's)."""
    if _kids(spec):
        return [v for kid in _kids(spec) for v in _views(kid)]
    if isinstance(spec.get("spec"), dict):
        return _views(spec["spec"])
    return [spec]


def _distinct(root: dict, spec: dict, field: object) -> int:
    """How many values a field takes in the spec's data (a facet's columns), 1 if unknown."""
    name = field.get("field") if isinstance(field, dict) else None
    data = spec.get("data") or root.get("data") or {}
    rows = data.get("values") or (root.get("datasets") or {}).get(data.get("name"), [])
    if not name or not isinstance(rows, list) or not rows:
        return 1
    return len({json.dumps(row.get(name), sort_keys=True) for row in rows if isinstance(row, dict)}) or 1


def _across(spec: dict, root: dict | None = None) -> int:
    """How many views sit side by side: a first guess that measuring corrects."""
    root = root or spec
    if spec.get("hconcat"):
        return sum(_across(k, root) for k in spec["hconcat"])
    if spec.get("vconcat"):
        return max(_across(k, root) for k in spec["vconcat"])
    if spec.get("concat"):
        kids = spec["concat"]
        return min(spec.get("columns") or len(kids), len(kids)) * max(_across(k, root) for k in kids)
    facet = spec.get("facet") or spec.get("encoding") or {}
    wrapped = not (facet.get("column") or facet.get("row")) if spec.get("facet") else bool(facet.get("facet"))
    if wrapped:
        columns = _distinct(root, spec, spec.get("facet") or facet.get("facet"))
        columns = min(spec.get("columns") or columns, columns)
    else:
        columns = _distinct(root, spec, facet.get("column")) if facet.get("column") else 1
    return columns * (_across(spec["spec"], root) if isinstance(spec.get("spec"), dict) else 1)


def _lines(text: str, chars: int) -> str | list[str]:
    """`text` cut into lines at spaces, none longer than `chars` (one line: the text)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines if len(lines) > 1 else text


def _wrap_expr(chars: int) -> str:
    """A Vega label expression: labels longer than `chars` wrap at spaces onto more lines."""
    lines = f"replace(datum.label, regexp('(.{{1,{chars}}})( +|$)', 'g'), '$1\u00b6')"
    return f"split(replace({lines}, regexp('\u00b6$'), ''), '\u00b6')"


_LEGENDS = ("color", "fill", "stroke", "shape", "size", "opacity", "strokeDash", "strokeWidth")


def _encodings(spec: dict) -> list[dict]:
    """Every encoding of `spec`, its layers' and its views' included."""
    found = [spec["encoding"]] if isinstance(spec.get("encoding"), dict) else []
    for kid in (spec.get("layer") or []) + (_kids(spec) or []):
        found += _encodings(kid)
    if isinstance(spec.get("spec"), dict):
        found += _encodings(spec["spec"])
    return found


def _wrap_labels(spec: dict, width: int, chars: int | None = None) -> None:
    """Legend (at `chars` characters) and facet header labels wrap, as the page's renderer
    does: a chart's width cannot make room for a label wider than the column."""
    expr = _wrap_expr(chars or max(12, (width - 90) // 7))
    for encoding in _encodings(spec):
        for channel in _LEGENDS:
            field = encoding.get(channel)
            if not isinstance(field, dict) or not field.keys() & {"field", "aggregate"}:
                continue
            if "legend" in field and field["legend"] is None:
                continue
            legend = {**(field.get("legend") or {})}
            if chars or "labelExpr" not in legend:
                legend["labelExpr"] = expr
            legend.pop("columns", None)  # the columns that fit, not the ones asked for
            field["legend"] = legend
        y = encoding.get("y")  # categories down the side: at most 40 % of the width
        if isinstance(y, dict) and y.get("type") in ("nominal", "ordinal") and y.get("axis", {}) is not None:
            axis = y["axis"] = dict(y.get("axis") or {})
            axis.setdefault("labelExpr", _wrap_expr(max(12, width * 2 // 35)))
    config = spec.setdefault("config", {})
    header = config["header"] = dict(config.get("header") or {})
    header.setdefault("labelExpr", _wrap_expr(max(8, (width // _across(spec) - 30) // 7)))


def _wrap_titles(spec: dict, width: int) -> None:
    """Titles longer than the width wrap, as the page's renderer does: none is cut."""
    chars = max(12, width // 8)
    title = spec.get("title")
    if isinstance(title, str):
        spec["title"] = _lines(title, chars)
    elif isinstance(title, dict):
        if isinstance(title.get("text"), str):
            title["text"] = _lines(title["text"], chars)
        if isinstance(title.get("subtitle"), str):
            title["subtitle"] = _lines(title["subtitle"], chars * 23 // 20)
    for kid in (_kids(spec) or []) + (spec.get("layer") or []):
        _wrap_titles(kid, width)
    if isinstance(spec.get("spec"), dict):
        _wrap_titles(spec["spec"], width)


_SVG_WIDTH = re.compile(r'<svg[^>]*?\bwidth="([\d.]+)"')
_LEGEND_LABELS = re.compile(r'class="mark-text role-legend-label"[^>]*>(.*?)</g>', re.S)
_TEXT = re.compile(r"<text[^>]*>(.*?)</text>", re.S)


def _svg(spec: dict) -> str:
    import vl_convert as vlc

    return vlc.vegalite_to_svg(spec)


def _drawn_width(svg: str) -> float:
    found = _SVG_WIDTH.search(svg)
    return float(found.group(1)) if found else 0.0


_ROOT_X = re.compile(r'<g fill="none"[^>]*transform="translate\(([-\d.]+),')
_LEGEND_X = re.compile(r'class="mark-group role-legend"[^>]*><g transform="translate\(([-\d.]+),')


def _legend_left(svg: str) -> float:
    """Where a legend starts, from the image's left edge (60 when unknown)."""
    root, legend = _ROOT_X.search(svg), _LEGEND_X.search(svg)
    return (float(root.group(1)) if root else 0.0) + (float(legend.group(1)) if legend else 60.0)


def _legend_columns(svg: str, width: int) -> int:
    """As many legend columns as fit `width` (labels at about 7 px a character; a legend
    below the chart starts where the plot does), 0 for fewer than two labels."""
    labels = [_TEXT.findall(group) for group in _LEGEND_LABELS.findall(svg)]
    lines = [re.sub(r"<[^>]+>", "", line) for texts in labels for text in texts for line in text.split("</tspan>")]
    if len(labels) < 2 or not lines:
        return 0
    left = _legend_left(svg)
    widest = max(len(line) for line in lines) * 7
    return max(1, min(len(labels), int((width - left) // (widest + 42))))


def _sized(spec: dict, width: int) -> tuple[dict, str]:
    """`spec` no wider than `width`, and its SVG: a single view exactly as wide, a
    concatenation or facet with its views' widths scaled (two measured drawings give the
    scale that fits)."""
    if not _composite(spec):
        out = {**spec, "width": width, "autosize": {"type": "fit-x", "contains": "padding"}}
        return out, _svg(out)
    continuous = ((spec.get("config") or {}).get("view") or {}).get("continuousWidth") or 300
    base = [v["width"] if isinstance(v.get("width"), (int, float)) else continuous for v in _views(spec)]

    def scaled(factor: float) -> tuple[dict, str, float]:
        out = copy.deepcopy(spec)
        for view, w in zip(_views(out), base, strict=True):
            view["width"] = max(20, round(w * factor))
        svg = _svg(out)
        return out, svg, _drawn_width(svg)

    f1 = max(0.05, (width / _across(spec) - 70) / max(base))
    draw, svg, s1 = scaled(f1)
    if width - 60 <= s1 <= width:
        return draw, svg
    f2 = f1 * 0.6
    draw, svg, s2 = scaled(f2)
    per = (s1 - s2) / (f1 - f2)
    if per <= 0:  # the views' widths are not what makes it wide
        return draw, svg
    f = max(0.05, (width - 2 - (s1 - per * f1)) / per)
    draw, svg, s = scaled(f)
    if s > width:
        draw, svg, _ = scaled(f * width / s * 0.97)
    return draw, svg


def _fitted(spec: dict, width: int) -> tuple[dict, str]:
    spec = copy.deepcopy(spec)
    _wrap_titles(spec, width)
    _wrap_labels(spec, width)
    if not _LEGEND_LABELS.search(first := _svg(spec if _composite(spec) else _sized(spec, width)[0])):
        return _sized(spec, width)  # no legend to lay out
    chars = max(8, int(width - _legend_left(first) - 40) // 7)
    if chars < (width - 90) // 7:  # a legend far right of the edge: shorter lines
        _wrap_labels(spec, width, chars)
    columns = _legend_columns(first, width)
    if columns and columns != ((spec.get("config") or {}).get("legend") or {}).get("columns"):
        config = spec.setdefault("config", {})
        config["legend"] = {**(config.get("legend") or {}), "columns": columns}
    return _sized(spec, width)


def fitted(spec: dict, width: int = STATIC_WIDTH) -> dict:
    """`spec` drawn `width` pixels wide at most, as the page's renderer draws it in a
    column that wide: a single or layered view exactly as wide; a concatenation or facet
    with its views' widths scaled to fit; titles and long labels wrapped; legends in as
    many columns as fit."""
    return _fitted(spec, width)[0]


def static_svg(spec: dict, width: int = STATIC_WIDTH) -> str:
    """The chart as an SVG image `width` pixels wide at most."""
    return _fitted(spec, width)[1]


def write_static(spec: dict, root: Path, name: str) -> Path:
    """The chart as a static SVG image below `root`, a column wide."""
    path = root / FIGURES / f"{name}.svg"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(static_svg(spec), encoding="utf-8")
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


#: The chart's HTML as a raw HTML block of Markdown (pandoc passes it through untouched).
_RAW = "```{=html}\n%s\n```\n"
_RAW_BLOCK = re.compile(r"\A```\{=html\}\n(.*)\n```\n?\Z", re.S)

#: Mime types of an output that make Quarto load require.js and jQuery from a CDN on the
#: page (Quarto's jupyter/widgets.ts: any display output carrying one of these is taken
#: for a "JavaScript widget" that may assume both libraries).
CDN_MIMES = ("text/html", "application/javascript", "application/vnd.jupyter.widget-view+json")


def renderer(spec: dict, **metadata: object) -> dict:
    """The altair renderer: the chart as HTML that needs no network, handed to Quarto as
    Markdown holding a raw HTML block rather than as ``text/html``: Quarto adds
    ``<script>`` tags for require.js and jQuery from cdnjs to every page whose notebook
    has a ``text/html`` output (see ``CDN_MIMES``), and a page read offline then fails to
    load them. The raw block reaches the page unchanged."""
    return {"text/markdown": _RAW % chart_html(spec)}


def html_of(output: dict) -> str:
    """The HTML of a notebook output: its ``text/html``, or the raw HTML block of its
    ``text/markdown`` (a chart of the ``howfast`` renderer), else ""."""
    data = output.get("data", {}) if isinstance(output, dict) else {}
    html = data.get("text/html", "")
    if html:
        return "".join(html) if isinstance(html, list) else html
    markdown = data.get("text/markdown", "")
    markdown = "".join(markdown) if isinstance(markdown, list) else markdown
    found = _RAW_BLOCK.match(markdown)
    return found.group(1) if found else ""


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
    return {"image/svg+xml": static_svg(spec), "text/plain": "<chart>"}


def register() -> None:
    """The ``howfast`` renderer (the book's pages), or ``howfast-svg`` in a notebook."""
    import altair as alt

    alt.renderers.register("howfast", renderer)
    alt.renderers.register("howfast-svg", svg_renderer)
    alt.renderers.enable("howfast-svg" if os.environ.get(SETTING, "") == "svg" else "howfast")


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
