"""The book's chapters and the subjects each one shows.

A chapter reads its subjects' stored results with ``store.results(subject)``; the
command line measures a chapter by measuring its subjects. A chapter added to the book
adds one line here.
"""

from __future__ import annotations

from pathlib import Path

from .checks import checked
from .store import SUBJECTS, ResultSet

#: chapter (its file name in chapters/, without .qmd) -> the subjects it shows
CHAPTERS: dict[str, tuple[str, ...]] = {
    "numbers-card": ("fsync", "storage", "sqlite", "memtable", "network", "hashing", "cpu", "codecs"),
    "fsync": ("fsync",),
    "storing-data": ("storage", "sqlite"),
    "memtables": ("memtable", "rocksdb"),
    "networks": ("network",),
    "hashing": ("hashing",),
    "cpu-and-memory": ("cpu",),
    "compress-encode-sort": ("codecs",),
    "system-design": ("storage", "network", "hashing", "cpu", "codecs"),
}


def subjects_for(names: list[str]) -> list[str]:
    """The subjects to measure for chapter names, subject names, .qmd paths or 'all'
    (none given: all), in the book's order; ValueError naming what is unknown."""
    if not names or "all" in names:
        return list(SUBJECTS)
    wanted: set[str] = set()
    for name in names:
        key = Path(name).stem if name.endswith(".qmd") else name
        if key in CHAPTERS:
            wanted.update(CHAPTERS[key])
        elif key in SUBJECTS:
            wanted.add(key)
        else:
            known = ", ".join([*CHAPTERS, *(s for s in SUBJECTS if s not in CHAPTERS)])
            raise ValueError(f"unknown chapter or subject {name!r}: choose from {known}, or all")
    return [s for s in SUBJECTS if s in wanted]


#: How a callout names a subject whose reason does not say what it is about
SUBJECT_NAMES = {"sqlite": "SQLite", "rocksdb": "RocksDB", "network": "Networks", "hashing": "Hashing"}
SUBJECT_NAMES["codecs"] = "Compression and sorting"


def missing_note(*sets: ResultSet) -> str:
    """A callout (Quarto markdown, for a cell with ``output: asis``) naming what this
    machine could not measure for a chapter and why, each reason once; empty when
    everything ran. A reason that does not name what it is about ("disabled by …") is
    given its subject's name ("SQLite: disabled by …")."""
    reasons = list(
        dict.fromkeys(
            note if ": " in note else f"{SUBJECT_NAMES.get(s.subject, s.subject)}: {note}"
            for s in sets
            for note in s.unsupported()
        )
    )
    if not reasons:
        return ""
    items = "\n".join(f"- {r}" for r in reasons)
    return (
        "::: {.callout-warning}\n## Not measured on this machine\n\n"
        + items
        + "\n\nThe cases this affects keep their rows in the tables below, with the reason, and the numbers "
        'that depend on them read "n/a".\n:::\n'
    )


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
