"""The one way to run a benchmark: cases × repetitions → tidy rows.

A chapter describes its cases as dicts of parameters and gives a ``measure`` function
that runs one case once (in C++) and returns an ``Outcome``. ``run`` repeats every
case, interleaving them (A B C A B C ...) so that a slow minute of a noisy disk hurts
every case alike, keeps every repetition, and returns a ``Run`` holding

* ``metrics``: one row per (case, repetition, metric): parameters, ``repetition``,
  ``metric``, ``value``, ``unit``, ``note``;
* ``samples``: per-operation latencies in nanoseconds, for distributions.

A case the machine cannot run raises ``Unsupported(reason)``; its row says so.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from . import progress
from .checks import checked
from .profiles import current_profile
from .scratch import Scratch

Case = Mapping[str, Any]


class Unsupported(Exception):
    """This machine cannot run the case; the message says why."""


@dataclass
class Outcome:
    """What one repetition of one case measured."""

    metrics: dict[str, tuple[float, str]]  # name -> (value, unit)
    samples: np.ndarray | None = None  # per-operation latencies, ns


@dataclass
class Run:
    benchmark: str
    profile: str
    metrics: pl.DataFrame
    samples: pl.DataFrame
    started: str = field(default="")


PERCENTILES = {"p50": 50.0, "p90": 90.0, "p99": 99.0, "p99.9": 99.9, "p99.99": 99.99}


def latency_metrics(latency_ns: np.ndarray, elapsed_ns: int, *, per: str = "op") -> dict[str, tuple[float, str]]:
    """Percentiles, mean and max in µs, and operations per second of wall time."""
    if latency_ns.size == 0:
        raise ValueError("no latencies to summarise")
    if elapsed_ns <= 0:
        raise ValueError(f"elapsed_ns must be positive, got {elapsed_ns}")
    us = latency_ns.astype(np.float64) / 1e3
    out = {name: (float(np.percentile(us, q)), "us") for name, q in PERCENTILES.items()}
    out["mean"] = (float(us.mean()), "us")
    out["max"] = (float(us.max()), "us")
    out[f"{per}s_per_s"] = (latency_ns.size / (elapsed_ns / 1e9), f"{per}s/s")
    return out


def _case_columns(case: Case) -> dict[str, Any]:
    return {k: v for k, v in case.items()}


def describe(case: Case) -> str:
    """A short line naming a case, for progress bars."""
    return " ".join(f"{k}={v}" for k, v in case.items() if not isinstance(v, (list, dict)))[:80]


def run(
    benchmark: str,
    cases: Sequence[Case],
    measure: Callable[[Case, Scratch], Outcome],
    *,
    repetitions: int | None = None,
    scratch: Scratch | None = None,
    alternate: bool = False,
) -> Run:
    """Run every case `repetitions` times (default: the profile's) inside a scratch dir.
    With `alternate`, odd repetitions run the cases in reverse order, so that of two tools
    compared run by run, neither always goes first (a disk may still be busy with what the
    previous run left, such as discards of its deleted files)."""
    if not cases:
        raise ValueError("cases must not be empty")
    profile = current_profile()
    reps = profile.repetitions if repetitions is None else repetitions
    if reps < 1:
        raise ValueError(f"repetitions must be at least 1, got {reps}")
    keys = list(cases[0])
    if any(list(c) != keys for c in cases):
        raise ValueError("every case must have the same parameters, in the same order")

    started = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    rows: list[dict[str, Any]] = []
    sample_frames: list[pl.DataFrame] = []
    own = scratch is None
    scratch = scratch or Scratch()
    progress.experiment(benchmark, reps * len(cases))
    try:
        for rep in range(reps):
            for case in reversed(cases) if alternate and rep % 2 else cases:
                base = {**_case_columns(case), "repetition": rep}
                try:
                    outcome = measure(case, scratch)
                except Unsupported as why:
                    rows.append({**base, "metric": "unsupported", "value": None, "unit": "", "note": str(why)})
                    continue
                finally:
                    progress.advance(describe(case))
                for metric, (value, unit) in outcome.metrics.items():
                    rows.append({**base, "metric": metric, "value": float(value), "unit": unit, "note": None})
                if outcome.samples is not None:
                    frame = pl.DataFrame({"latency_ns": np.asarray(outcome.samples, dtype=np.uint64)})
                    frame = frame.with_row_index("sample").with_columns([pl.lit(v).alias(k) for k, v in base.items()])
                    sample_frames.append(frame.select([*base, "sample", "latency_ns"]))
    finally:
        if own:
            scratch.cleanup()

    schema_overrides = {"value": pl.Float64, "note": pl.String}
    metrics = pl.DataFrame(rows, schema_overrides=schema_overrides, infer_schema_length=None)
    samples = pl.concat(sample_frames) if sample_frames else pl.DataFrame()
    return Run(benchmark=benchmark, profile=profile.name, metrics=metrics, samples=samples, started=started)


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
