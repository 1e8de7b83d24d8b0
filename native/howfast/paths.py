"""Where the book's data lives: the checkout is found from the working directory."""

from __future__ import annotations

import os
from pathlib import Path


def book_root(start: Path | None = None) -> Path | None:
    """The nearest directory at or above `start` (default: cwd) holding ``_quarto.yml``."""
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / "_quarto.yml").is_file():
            return candidate
    return None


def from_setting(value: str) -> Path:
    """A path given in a setting (``HOWFAST_SCRATCH``, ``HOWFAST_RESULTS``): absolute as it
    is; relative, from the book's root (where ``make`` and ``howfast`` are run), not from
    the chapter's directory in which a kernel happens to run."""
    path = Path(value).expanduser()
    if path.is_absolute():
        return path
    root = book_root()
    return (root if root is not None else Path.cwd()) / path


def _data_dir() -> Path:
    root = book_root()
    return (root if root is not None else Path.cwd()) / "data"


def results_dir() -> Path:
    """``$HOWFAST_RESULTS``, else ``data/results`` of the book (tests point it at a temp dir)."""
    env = os.environ.get("HOWFAST_RESULTS")
    return from_setting(env) if env else _data_dir() / "results"


def reference_dir() -> Path:
    """``$HOWFAST_REFERENCE``, else ``data/reference`` of the book."""
    env = os.environ.get("HOWFAST_REFERENCE")
    return from_setting(env) if env else _data_dir() / "reference"
