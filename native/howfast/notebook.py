"""Run the book's chapters without Quarto.

A ``.qmd`` chapter is read as R Markdown by jupytext (its ``{python}`` chunks become
code cells), cells marked ``#| eval: false`` are skipped, and nbclient executes the
rest in a real Jupyter kernel with the chapter's directory as working directory.
Then the outputs are checked the way a reader would notice their absence: every
``fig-`` cell drew a chart, every ``tbl-`` cell printed a table, every inline
```{python} expr``` in the prose evaluates to a non-empty value.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient
from traitlets.config import Config

from .checks import checked
from .scratch import OWNER, owner_stamp, reclaim

INLINE = re.compile(r"`\{python\}\s+([^`]+?)`")
OPTION = re.compile(r"^#\|\s*([\w-]+)\s*:\s*(.*?)\s*$", re.MULTILINE)
_MARK = "HOWFAST-INLINE:"


def cell_options(source: str) -> dict[str, str]:
    """Quarto's ``#| key: value`` options at the top of a code cell."""
    return {k: v.strip("\"'") for k, v in OPTION.findall(source)}


def read_chapter(path: str | Path) -> nbformat.NotebookNode:
    """The chapter as a notebook; cells with ``eval: false`` become raw cells."""
    source = Path(path)
    if not source.is_file():
        raise ValueError(f"chapter {str(source)!r} does not exist")
    nb = jupytext.reads(source.read_text(), fmt="Rmd")
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and cell_options(cell.source).get("eval") == "false":
            nb.cells[i] = nbformat.v4.new_raw_cell(cell.source)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def inline_expressions(nb: nbformat.NotebookNode) -> list[str]:
    return [m.strip() for c in nb.cells if c.cell_type == "markdown" for m in INLINE.findall(c.source)]


@dataclass
class ExecutedChapter:
    path: Path
    notebook: nbformat.NotebookNode
    seconds: float
    inline: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def charts(self) -> dict[str, dict]:
        """The Vega-Lite spec of every ``fig-`` cell, by label."""
        found = {}
        for label, outs in self.outputs("fig-").items():
            specs = [spec for spec in map(chart_spec, outs) if spec]
            if specs:
                found[label] = specs[0]
        return found

    def outputs(self, label_prefix: str) -> dict[str, list[dict]]:
        """Outputs of the code cells whose label starts with `label_prefix`."""
        found = {}
        for cell in self.notebook.cells:
            if cell.cell_type != "code":
                continue
            label = cell_options(cell.source).get("label", "")
            if label.startswith(label_prefix):
                found[label] = cell.get("outputs", [])
        return found


def chart_spec(output: dict) -> dict | None:
    """The Vega-Lite spec inside a chart's output, or None if it holds no chart: the
    ``howfast`` renderer's (a raw HTML block in Markdown, ``offline.html_of`` and
    ``offline.specs_in``), else altair's HTML renderer's,
    which ends its script with ``})(<spec>, <embed options>);``."""
    from .offline import html_of, specs_in

    html = html_of(output)
    ours = specs_in(html)
    if ours:
        return ours[0]
    if "vegaEmbed" not in html and "vega-embed" not in html:
        return None
    start = html.rfind("})(")
    if start < 0:
        return None
    try:
        spec, _ = json.JSONDecoder().raw_decode(html, start + 3)
    except ValueError:
        return None
    return spec if isinstance(spec, dict) else None


def _is_chart(output: dict) -> bool:
    spec = chart_spec(output)
    # a chart with no data rows draws nothing
    return bool(spec) and any(len(rows) > 0 for rows in spec.get("datasets", {}).values())


def _is_table(output: dict) -> bool:
    md = output.get("data", {}).get("text/markdown", "")
    return md.lstrip().startswith("|") and "---" in md


_REMOTE_SCRIPT = re.compile(r"<script[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//", re.I)


def offline_problems(nb: nbformat.NotebookNode) -> list[str]:
    """What in an executed notebook would make its page load a script from another host:
    a display output Quarto takes for a JavaScript widget (any ``text/html``,
    ``application/javascript`` or widget view: Quarto then adds require.js and jQuery from
    cdnjs, see ``offline.CDN_MIMES``), widget state, or HTML with a remote ``<script src>``."""
    from .offline import CDN_MIMES, html_of

    problems = []
    if "widgets" in nb.metadata:
        problems.append("the notebook holds widget state (Quarto loads the widget manager from unpkg)")
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        label = cell_options(cell.source).get("label") or cell.source.strip().splitlines()[0][:60]
        for output in cell.get("outputs", []):
            mimes = set(output.get("data", {})) & set(CDN_MIMES)
            if output.get("output_type") in ("display_data", "execute_result") and mimes:
                problems.append(f"{label}: a {', '.join(sorted(mimes))} output makes Quarto load scripts from a CDN")
            if _REMOTE_SCRIPT.search(html_of(output)):
                problems.append(f"{label}: its HTML loads a script from another host")
    return problems


def check(executed: ExecutedChapter) -> list[str]:
    """What a reader would miss: charts, tables, inline numbers; and what would make the
    page load scripts from another host (``offline_problems``)."""
    problems = offline_problems(executed.notebook)
    for label, outs in executed.outputs("fig-").items():
        if not any(_is_chart(o) for o in outs):
            problems.append(f"{label}: no chart in its output")
    for label, outs in executed.outputs("tbl-").items():
        if not any(_is_table(o) for o in outs):
            problems.append(f"{label}: no table in its output")
    for expr, value in executed.inline.items():
        if value.startswith("ERROR") or value.strip() in ("", "None", "nan"):
            problems.append(f"inline `{{python}} {expr}` gave {value!r}")
    return problems


def _watch_interrupts() -> threading.Event:
    """An event set when Ctrl-C (SIGINT) or SIGTERM reaches this process while nbclient
    runs a chapter. nbclient handles those signals itself (it shuts the kernel down), so
    a caller sees only some failure; this tells it the run was interrupted."""
    from jupyter_core.utils import ensure_event_loop

    seen = threading.Event()
    loop = ensure_event_loop()
    original = type(loop).add_signal_handler

    def add_signal_handler(sig: int, callback, *args):  # noqa: ANN001, ANN202
        def noted(*a):  # noqa: ANN002, ANN202
            seen.set()
            return callback(*a)

        return original(loop, sig, noted, *args)

    loop.add_signal_handler = add_signal_handler  # this loop only
    return seen


def execute_chapter(path: str | Path, *, timeout: int | None = None, kernel_name: str = "python3") -> ExecutedChapter:
    """Execute every evaluated cell; raise nbclient's CellExecutionError on a failing cell.
    A cell may run `timeout` seconds, by default the active profile's ``cell_timeout``."""
    from .profiles import current_profile

    timeout = current_profile().cell_timeout if timeout is None else timeout
    if timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout}")
    chapter = Path(path).resolve()
    nb = read_chapter(chapter)
    expressions = inline_expressions(nb)
    probe = (
        "import json as _hf_json\n_hf_values = {}\n"
        f"for _hf_expr in {expressions!r}:\n"
        "    try:\n        _hf_values[_hf_expr] = str(eval(_hf_expr))\n"
        "    except Exception as _hf_error:\n        _hf_values[_hf_expr] = 'ERROR ' + repr(_hf_error)\n"
        f"print({_MARK!r} + _hf_json.dumps(_hf_values))\n"
    )
    nb.cells.append(nbformat.v4.new_code_cell(probe))
    # The kernel talks to us over Unix sockets, not TCP on localhost: nothing listens on
    # a port, and jupyter_client has no reason to warn about unencrypted traffic. The
    # sockets live in a private directory given by absolute path (the kernel runs in the
    # chapter's directory, so a relative one would not meet).
    # The kernel dies with this process, even if it is killed outright (see howfast/__init__),
    # and the sockets' directory names its owner, so a later run can remove it if it is left.
    os.environ["HOWFAST_LAUNCHER_PID"] = str(os.getpid())
    reclaim(Path(tempfile.gettempdir()))
    with tempfile.TemporaryDirectory(prefix="howfast-kernel-") as sockets:
        (Path(sockets) / OWNER).write_text(owner_stamp())
        config = Config()
        config.KernelManager.transport = "ipc"
        config.KernelManager.ip = str(Path(sockets) / "kernel")
        interrupted = _watch_interrupts()
        client = NotebookClient(
            nb,
            timeout=timeout,
            kernel_name=kernel_name,
            config=config,
            resources={"metadata": {"path": str(chapter.parent)}},
        )
        start = time.perf_counter()
        # The kernel's own stderr (its log, not the cells' output) is kept aside: shown once
        # it has ended, unless the run was interrupted, when it holds only the ZMQError
        # tracebacks of a kernel whose sockets closed under it.
        with tempfile.TemporaryFile(prefix="howfast-kernel-log-") as kernel_log:
            try:
                client.execute(stderr=kernel_log)
            finally:
                if interrupted.is_set():  # nbclient shut the kernel down; the caller must stop too
                    raise KeyboardInterrupt(f"interrupted while executing {chapter}")
                kernel_log.seek(0)
                said = kernel_log.read().decode(errors="replace")
                if said:
                    sys.stderr.write(said)
        seconds = time.perf_counter() - start
    probe_cell = nb.cells.pop()
    text = "".join(o.get("text", "") for o in probe_cell.get("outputs", []) if o.get("name") == "stdout")
    inline = json.loads(text.split(_MARK, 1)[1]) if _MARK in text else {}
    executed = ExecutedChapter(path=chapter, notebook=nb, seconds=seconds, inline=inline)
    executed.problems = check(executed)
    return executed


def chapters(root: str | Path) -> list[Path]:
    """The book's pages in the order of ``_quarto.yml``, then any ``chapters/*.qmd`` it
    does not list yet (so a new chapter is executed and tested before it is listed)."""
    import yaml

    base = Path(root)
    listed: list[Path] = []
    config = base / "_quarto.yml"
    if config.is_file():
        book = (yaml.safe_load(config.read_text()) or {}).get("book", {})
        listed = [base / entry for entry in book.get("chapters", []) if isinstance(entry, str)]
    pages = [p for p in listed if p.is_file()]
    if not pages and (base / "index.qmd").is_file():
        pages = [base / "index.qmd"]
    return pages + [p for p in sorted((base / "chapters").glob("*.qmd")) if p not in pages]


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
