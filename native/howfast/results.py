"""The results store: tidy parquet files per machine, with the machine's facts.

Layout: ``<results>/<machine>/<benchmark>.parquet`` (metrics),
``<benchmark>.samples.parquet`` (per-operation latencies) and ``machine.json``.
``<results>`` is ``$HOWFAST_RESULTS`` or the book's ``data/results``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import polars as pl

from .bench import Run
from .machine import machine_id
from .paths import results_dir

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _check_name(benchmark: str) -> None:
    if not _NAME.match(benchmark):
        raise ValueError(f"benchmark name {benchmark!r} must be lower-case letters, digits, '_' or '-'")


def machine_dir(machine: str | None = None) -> Path:
    return results_dir() / (machine or machine_id())


def save(run: Run, facts: dict[str, Any]) -> Path:
    """Write the run's metrics and samples, and the facts of the machine that ran it."""
    _check_name(run.benchmark)
    where = machine_dir(facts.get("machine"))
    where.mkdir(parents=True, exist_ok=True)
    stamp = [
        pl.lit(facts.get("machine", machine_id())).alias("machine"),
        pl.lit(run.profile).alias("profile"),
        pl.lit(run.started).alias("measured_at"),
    ]
    run.metrics.with_columns(stamp).write_parquet(where / f"{run.benchmark}.parquet")
    samples_path = where / f"{run.benchmark}.samples.parquet"
    if run.samples.height:
        run.samples.with_columns(stamp).write_parquet(samples_path)
    else:
        samples_path.unlink(missing_ok=True)
    (where / "machine.json").write_text(json.dumps(facts, indent=2, sort_keys=True) + "\n")
    return where


def load(benchmark: str, *, machine: str | None = None, samples: bool = False) -> pl.DataFrame:
    """A stored result; FileNotFoundError naming the chapter to run when it is missing."""
    _check_name(benchmark)
    path = machine_dir(machine) / (f"{benchmark}.samples.parquet" if samples else f"{benchmark}.parquet")
    if not path.is_file():
        raise FileNotFoundError(f"no stored result {path}: run the chapter that measures {benchmark!r} first")
    return pl.read_parquet(path)


def load_facts(machine: str | None = None) -> dict[str, Any]:
    path = machine_dir(machine) / "machine.json"
    if not path.is_file():
        raise FileNotFoundError(f"no machine facts at {path}: run a chapter first")
    return json.loads(path.read_text())


def machines() -> list[str]:
    """Machines with stored results."""
    root = results_dir()
    return sorted(p.name for p in root.iterdir() if (p / "machine.json").is_file()) if root.is_dir() else []
