"""Progress of a measuring run: which subject and experiment run, and how much is left.

Measuring code reports through three calls and never knows who listens:
``subject(name)`` around a subject's experiments, ``experiment(name, total)`` around one
experiment's runs, and ``advance()`` after each run. By default nobody listens (a
chapter rendering in a kernel stays quiet); the command line installs a bar with
``showing(console)`` (rich), and a test can install any ``Listener``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol


class Listener(Protocol):
    def subject_started(self, name: str) -> None: ...

    def subject_ended(self, name: str) -> None: ...

    def experiment_started(self, name: str, total: int) -> None: ...

    def advanced(self, detail: str) -> None: ...


class _Nobody:
    def subject_started(self, name: str) -> None:
        pass

    def subject_ended(self, name: str) -> None:
        pass

    def experiment_started(self, name: str, total: int) -> None:
        pass

    def advanced(self, detail: str) -> None:
        pass


_listener: Listener = _Nobody()


@contextmanager
def listening(listener: Listener) -> Iterator[Listener]:
    """Send progress to `listener` inside the block."""
    global _listener
    before, _listener = _listener, listener
    try:
        yield listener
    finally:
        _listener = before


@contextmanager
def subject(name: str) -> Iterator[None]:
    _listener.subject_started(name)
    try:
        yield
    finally:
        _listener.subject_ended(name)


def experiment(name: str, total: int) -> None:
    """An experiment of `total` runs starts (its runs are reported with ``advance``)."""
    if total < 0:
        raise ValueError(f"total must not be negative, got {total}")
    _listener.experiment_started(name, total)


def advance(detail: str = "") -> None:
    _listener.advanced(detail)


class RichBar:
    """Two bars on a terminal: the subjects of the run, and the runs of the experiment."""

    def __init__(self, subjects: list[str], console=None) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            TextColumn("[dim]{task.fields[detail]}"),
            console=console,
            transient=False,
        )
        self.subjects = self.progress.add_task("subjects", total=len(subjects), detail="")
        self.current: int | None = None
        self.name = ""

    def __enter__(self) -> RichBar:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)

    def subject_started(self, name: str) -> None:
        self.name = name
        self.progress.update(self.subjects, description=f"subjects (now: {name})")

    def subject_ended(self, name: str) -> None:
        self.progress.advance(self.subjects)
        self.current = None

    def experiment_started(self, name: str, total: int) -> None:
        self.current = self.progress.add_task(f"  {self.name}: {name}", total=total, detail="")

    def advanced(self, detail: str) -> None:
        if self.current is not None:
            self.progress.update(self.current, advance=1, detail=detail)
