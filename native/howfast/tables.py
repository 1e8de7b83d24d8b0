"""Tables for the book: a polars frame shown as a Markdown pipe table.

Quarto renders Markdown output as a real table (with a caption from ``tbl-cap``); a
Jupyter front end shows the same Markdown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import polars as pl

from . import fmt


class Table:
    def __init__(self, frame: pl.DataFrame, formats: Mapping[str, Callable[[Any], str]] | None = None) -> None:
        if frame.width == 0:
            raise ValueError("a table needs at least one column")
        self.frame = frame
        self.formats = dict(formats or {})
        unknown = set(self.formats) - set(frame.columns)
        if unknown:
            raise ValueError(f"formats name columns the table lacks: {sorted(unknown)}")

    def _cell(self, column: str, value: Any) -> str:
        if value is None:  # a number not measured here; a note with nothing to say
            return fmt.NA if self.frame.schema[column].is_numeric() else ""
        if column in self.formats:
            return self.formats[column](value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            return fmt.num(value)
        if isinstance(value, int):
            return f"{value:,}"
        return str(value).replace("|", "\\|")

    def markdown(self) -> str:
        header = "| " + " | ".join(self.frame.columns) + " |"
        align = "|" + "|".join("---:" if dtype.is_numeric() else ":---" for dtype in self.frame.dtypes) + "|"
        body = [
            "| " + " | ".join(self._cell(c, v) for c, v in zip(self.frame.columns, row)) + " |"
            for row in self.frame.iter_rows()
        ]
        return "\n".join([header, align, *body])

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return self.markdown()


def table(frame: pl.DataFrame, formats: Mapping[str, Callable[[Any], str]] | None = None) -> Table:
    return Table(frame, formats)
