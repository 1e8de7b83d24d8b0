from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from howfast import stats
from howfast.bench import Outcome, Unsupported, latency_metrics, run


def test_run_interleaves_cases_and_keeps_every_repetition() -> None:
    seen = []

    def measure(case, scratch):
        seen.append(case["n"])
        return Outcome({"value": (case["n"] * 10.0, "units")}, samples=np.arange(1, 4, dtype=np.uint64))

    result = run("demo", [{"n": 1}, {"n": 2}], measure, repetitions=3)
    assert seen == [1, 2, 1, 2, 1, 2]
    assert result.metrics.height == 6
    assert result.metrics["repetition"].to_list() == [0, 0, 1, 1, 2, 2]
    assert result.samples.height == 18 and set(result.samples.columns) >= {"n", "repetition", "sample", "latency_ns"}


def test_alternate_reverses_the_order_on_odd_repetitions() -> None:
    seen = []

    def measure(case, scratch):
        seen.append((case["n"], case["tool"]))
        return Outcome({"value": (1.0, "units")})

    cases = [{"n": n, "tool": t} for n in (1, 2) for t in ("ours", "fio")]
    result = run("pairs", cases, measure, repetitions=2, alternate=True)
    assert seen == [(1, "ours"), (1, "fio"), (2, "ours"), (2, "fio"), (2, "fio"), (2, "ours"), (1, "fio"), (1, "ours")]
    assert result.metrics["repetition"].to_list() == [0] * 4 + [1] * 4


def test_unsupported_cases_are_rows_with_reasons() -> None:
    def measure(case, scratch):
        if case["n"] == 2:
            raise Unsupported("no such device")
        return Outcome({"value": (1.0, "u")})

    result = run("demo", [{"n": 1}, {"n": 2}], measure, repetitions=1)
    missing = stats.unsupported(result.metrics, ["n"])
    assert missing.to_dicts() == [{"n": 2, "note": "no such device"}]


def test_run_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="cases must not be empty"):
        run("demo", [], lambda c, s: Outcome({}))
    with pytest.raises(ValueError, match="repetitions"):
        run("demo", [{"n": 1}], lambda c, s: Outcome({}), repetitions=0)
    with pytest.raises(ValueError, match="same parameters"):
        run("demo", [{"n": 1}, {"m": 1}], lambda c, s: Outcome({}), repetitions=1)


def test_latency_metrics_on_a_known_distribution() -> None:
    ns = np.arange(1, 101, dtype=np.uint64) * 1000  # 1 .. 100 µs
    m = latency_metrics(ns, elapsed_ns=int(ns.sum()), per="write")
    assert m["p50"] == (pytest.approx(50.5), "us")
    assert m["max"] == (100.0, "us")
    assert m["writes_per_s"][0] == pytest.approx(100 / (ns.sum() / 1e9))
    with pytest.raises(ValueError):
        latency_metrics(np.array([], dtype=np.uint64), 1)
    with pytest.raises(ValueError):
        latency_metrics(ns, 0)


def test_summarize_gives_median_min_max_and_spread() -> None:
    metrics = pl.DataFrame(
        {
            "case": ["a"] * 3,
            "repetition": [0, 1, 2],
            "metric": ["x"] * 3,
            "value": [1.0, 4.0, 2.0],
            "unit": ["u"] * 3,
            "note": [None] * 3,
        }
    )
    s = stats.summarize(metrics, ["case"]).row(0, named=True)
    assert (s["median"], s["min"], s["max"], s["spread"], s["repetitions"]) == (2.0, 1.0, 4.0, 4.0, 3)
    assert stats.pick(stats.summarize(metrics, ["case"]), "x", case="a") == 2.0
    with pytest.raises(KeyError):
        stats.pick(stats.summarize(metrics, ["case"]), "x", case="b")
