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
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from . import claims, noise, progress, stats
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
    #: one row per run of every case (warm-ups too): the noise evidence (``noise.COLUMNS``)
    noise: pl.DataFrame = field(default_factory=pl.DataFrame)
    #: what held for the whole experiment (``noise.environment``)
    environment: dict[str, Any] = field(default_factory=dict)
    #: the stopping rule as it ran: target, min/max runs, warm-ups, runs, cases left unclear
    rounds: dict[str, Any] = field(default_factory=dict)


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


#: The fewest counted runs of a case whose profile sets a target (the stopping rule).
MIN_RUNS = 3


@dataclass
class _Case:
    """What ``run`` knows of one case while it runs."""

    case: Case
    values: dict[int, float] = field(default_factory=dict)  # repetition -> the stopping metric
    unsupported: bool = False


def run(
    benchmark: str,
    cases: Sequence[Case],
    measure: Callable[[Case, Scratch], Outcome],
    *,
    repetitions: int | None = None,
    scratch: Scratch | None = None,
    alternate: bool = False,
    target: float | None | str = "profile",
    warmups: int | None = None,
    stop_on: str | None = None,
) -> Run:
    """Run every case at least `repetitions` times (default: the profile's) inside a
    scratch dir, interleaved (A B C A B C). With `alternate`, odd repetitions run the cases
    in reverse order, so that of two tools compared run by run, neither always goes first
    (a disk may still be busy with what the previous run left, such as discards of its
    deleted files).

    The stopping rule: where the profile sets a target (``Profile.target``, or `target`
    here; None: a fixed count) and `repetitions` is at least ``MIN_RUNS`` (fewer is a
    deliberate fixed count), every case runs that many times, then further rounds run the
    cases whose median is not yet clear
    (``stopped``) until every case is, or a case has run ``Profile.max_runs`` times, or the
    added rounds have taken ``Profile.extra_time`` times what the first rounds took. A
    case's clarity is read from metric `stop_on` (default: the first its measure returns).
    Cases compared run by run with a standard tool (`alternate` and a ``tool`` column with
    ``howfast``) run in pairs, and are clear when the verdict of their per-round ratios is
    decided (``claims.crosscheck``: not inconclusive). `warmups` (default: the profile's)
    runs of each case come first and are not kept. Every run's noise evidence
    (``noise.difference``) is kept in ``Run.noise``."""
    if not cases:
        raise ValueError("cases must not be empty")
    profile = current_profile()
    reps = profile.repetitions if repetitions is None else repetitions
    if reps < 1:
        raise ValueError(f"repetitions must be at least 1, got {reps}")
    goal = profile.target if target == "profile" else target
    if goal is not None and (isinstance(goal, (bool, str)) or not isinstance(goal, (int, float)) or not 0 < goal < 1):
        raise ValueError(f"target is a half-width as a share of the median, between 0 and 1, got {target!r}")
    warm = profile.warmups if warmups is None else warmups
    if not isinstance(warm, int) or isinstance(warm, bool) or warm < 0:
        raise ValueError(f"warmups must be a whole number, at least 0, got {warmups!r}")
    keys = list(cases[0])
    if any(list(c) != keys for c in cases):
        raise ValueError("every case must have the same parameters, in the same order")
    # fewer runs than MIN_RUNS asked for is a deliberate fixed count (a heavy case, a smoke run)
    adaptive = goal is not None and reps >= MIN_RUNS
    minimum = reps
    most = max(profile.max_runs, minimum) if adaptive else minimum

    started = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    rows: list[dict[str, Any]] = []
    noise_rows: list[dict[str, Any]] = []
    sample_frames: list[pl.DataFrame] = []
    state = [_Case(c) for c in cases]
    pairs = _pairs(cases) if alternate else []
    chosen = [stop_on]
    own = scratch is None
    scratch = scratch or Scratch()

    def once(i: int, rep: int, keep: bool = True) -> None:
        case = state[i].case
        base = {**_case_columns(case), "repetition": rep}
        before = noise.snapshot()
        try:
            outcome = measure(case, scratch)
        except Unsupported as why:
            state[i].unsupported = True
            if keep:
                rows.append({**base, "metric": "unsupported", "value": None, "unit": "", "note": str(why)})
            return
        finally:
            after = noise.snapshot()
            progress.advance(describe(case) + (" (warm-up)" if not keep else ""))
            noise_rows.append({**base, "warmup": not keep, **noise.difference(before, after)})
        if not keep:
            return
        for metric, (value, unit) in outcome.metrics.items():
            rows.append({**base, "metric": metric, "value": float(value), "unit": unit, "note": None})
        if chosen[0] is None and outcome.metrics:
            chosen[0] = next(iter(outcome.metrics))
        if chosen[0] in outcome.metrics:
            state[i].values[rep] = float(outcome.metrics[chosen[0]][0])
        if outcome.samples is not None:
            frame = pl.DataFrame({"latency_ns": np.asarray(outcome.samples, dtype=np.uint64)})
            frame = frame.with_row_index("sample").with_columns([pl.lit(v).alias(k) for k, v in base.items()])
            sample_frames.append(frame.select([*base, "sample", "latency_ns"]))

    def round_of(rep: int, which: list[int], keep: bool = True) -> None:
        for i in reversed(which) if alternate and rep % 2 else which:
            once(i, rep, keep)

    progress.experiment(benchmark, (warm + minimum) * len(cases))
    capped = False
    try:
        for w in range(warm):
            round_of(-1 - w, [i for i in range(len(state)) if not state[i].unsupported], keep=False)
        clock = time.monotonic()
        for rep in range(minimum):
            round_of(rep, list(range(len(state))))
        budget = profile.extra_time * (time.monotonic() - clock)
        clock = time.monotonic()
        rep = minimum
        while adaptive:
            unclear = _unclear(state, pairs, goal)  # type: ignore[arg-type]
            if not unclear:
                break
            if rep >= most or time.monotonic() - clock >= budget:
                capped = True
                break
            round_of(rep, unclear)
            rep += 1
    finally:
        if own:
            scratch.cleanup()

    schema_overrides = {"value": pl.Float64, "note": pl.String}
    metrics = pl.DataFrame(rows, schema_overrides=schema_overrides, infer_schema_length=None)
    samples = pl.concat(sample_frames) if sample_frames else pl.DataFrame()
    evidence = pl.DataFrame(noise_rows, infer_schema_length=None) if noise_rows else pl.DataFrame()
    left = set(_unclear(state, pairs, goal)) if adaptive else set()  # type: ignore[arg-type]
    paired = {i for group in pairs for i in group}
    ran = [bool(s.values) and not s.unsupported for s in state]
    compared = [g for g in pairs if ran[g[0]] and any(ran[i] for i in g[1:])]
    rounds = {
        "target": goal if adaptive else None,
        "min_runs": minimum,
        "max_runs": most,
        "warmups": warm,
        "stop_on": chosen[0],
        "runs": max((len(s.values) for s in state), default=0),
        "cases": len(state),
        "unclear": len(left),
        "capped": capped,
        # what ``cases`` and ``unclear`` hold: cases with no counted run (unsupported here),
        # cases compared run by run with a tool (clear when their verdict is decided), and
        # the rest, timed on their own (clear when their interval is within the target)
        "unsupported": sum(not r for r in ran),
        "paired": len(paired),
        "pairs": len(compared),
        "pairs_undecided": sum(1 for g in compared if left & set(g)),
        "timed": sum(1 for i, r in enumerate(ran) if r and i not in paired),
        "timed_unclear": sum(1 for i in left if i not in paired),
    }
    return Run(
        benchmark=benchmark, profile=profile.name, metrics=metrics, samples=samples, started=started,
        noise=evidence, environment=noise.environment(), rounds=rounds,
    )  # fmt: skip


def _pairs(cases: Sequence[Case]) -> list[list[int]]:
    """Groups of cases compared run by run: the same parameters but the ``tool``, one of
    them ``howfast`` (listed first)."""
    if "tool" not in cases[0]:
        return []
    groups: dict[str, list[int]] = {}
    for i, case in enumerate(cases):
        key = repr(sorted((k, repr(v)) for k, v in case.items() if k != "tool"))
        groups.setdefault(key, []).append(i)
    out = []
    for members in groups.values():
        ours = [i for i in members if cases[i]["tool"] == "howfast"]
        if ours and len(members) > 1:
            out.append(ours + [i for i in members if i not in ours])
    return out


def stopped(values: Sequence[float], target: float, *, least: int = MIN_RUNS) -> bool:
    """Whether a case's runs answer clearly enough: at least `least` runs, and the
    interval of their median (``stats.median_interval``) within ±`target` of it."""
    if not isinstance(target, (int, float)) or isinstance(target, bool) or not 0 < target < 1:
        raise ValueError(f"target is a share of the median between 0 and 1, got {target!r}")
    if len(values) < max(1, least):
        return False
    lo, hi, _ = stats.median_interval(values)
    median = float(np.median(np.asarray(values, dtype=np.float64)))
    if median == 0:
        return lo == hi
    return (hi - lo) / 2 / abs(median) <= target


def decided(ours: Mapping[int, float], theirs: Mapping[int, float], *, least: int = MIN_RUNS) -> bool:
    """Whether the per-round ratios ours/theirs (rounds where both ran, by repetition)
    give a verdict (``claims.crosscheck``: agrees, ours higher or lower, not inconclusive)."""
    ratios = [ours[r] / theirs[r] for r in ours if r in theirs and theirs[r] > 0 and ours[r] > 0]
    if len(ratios) < max(1, least):
        return False
    lo, hi, level = stats.median_interval(ratios)
    estimate = stats.Estimate(float(np.median(ratios)), lo, hi, len(ratios), level)
    return claims.crosscheck(estimate).outcome != "inconclusive"


def _unclear(state: list[_Case], pairs: list[list[int]], target: float) -> list[int]:
    """The cases (indices, in order) that need another round."""
    paired = {i for group in pairs for i in group}
    out: set[int] = set()
    for group in pairs:
        ours, others = state[group[0]], [state[i] for i in group[1:]]
        if ours.unsupported or not ours.values:
            continue
        live = [o for o in others if not o.unsupported and o.values]
        if any(not decided(ours.values, o.values) for o in live):
            out.update(group)
    for i, s in enumerate(state):
        if i in paired or s.unsupported or not s.values:
            continue
        if not stopped(list(s.values.values()), target):
            out.add(i)
    return sorted(out)


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
