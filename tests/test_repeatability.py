"""The repeatability verdict's words, on made-up tables and records: a machine that put
clearly fewer second medians inside is told as a possibility, never as a cause."""

from __future__ import annotations

import json

import polars as pl

from howfast import repeatability


def _table(inside: list[bool], expected: float = 0.6) -> pl.DataFrame:
    n = len(inside)
    return pl.DataFrame(
        {"subject": ["fsync"] * n, "figure": [f"f{i}" for i in range(n)], "first": [1.0] * n, "lo": [0.9] * n,
         "hi": [1.1] * n, "second": [1.0] * n, "inside": inside, "first_runs": [3] * n, "second_runs": [3] * n,
         "expected": [expected] * n},
    )  # fmt: skip


def test_the_changed_verdict_is_worded_as_a_possibility() -> None:
    """'changed' names two possibilities and no cause (load, other work, the host)."""
    changed = _table([False] * 10)
    assert repeatability.verdict(changed) == "changed"
    said = repeatability.steady_words(changed)
    assert said.endswith(
        "this machine put clearly fewer inside: it may have changed between the runs, or its runs within a set were "
        "not independent, and this test cannot say which."
    )
    assert "load, other work" not in said and "the host" not in said
    steady = _table([True] * 6 + [False] * 4)
    assert repeatability.verdict(steady) == "steady"
    assert repeatability.steady_words(steady).endswith("this machine did not put clearly fewer inside.")
    # one-sided: far more inside than a steady machine would give is 'steady' too, and not called 'as many'
    more = _table([True] * 10, expected=0.3)
    assert repeatability.verdict(more) == "steady"
    assert repeatability.steady_words(more) == (
        "A perfectly steady machine would put about 30 % inside with these run counts: this machine did not put "
        "clearly fewer inside."
    )
    assert repeatability.steady_words(_table([])) == ""


def test_the_prefaces_record_words_for_each_verdict() -> None:
    from howfast.store import set_dir

    path = set_dir("fsync").parent / "repeatability.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"inside": 0, "total": 10, "what": "figure", "when": "2026-01-01 00:00 UTC", "expected": 0.6}
    path.write_text(json.dumps(record | {"verdict": "changed"}))
    said = repeatability.words()
    assert said.endswith(
        ": it put clearly fewer. It may have changed between the runs, or its runs within a set were not "
        "independent; this test cannot say which."
    )
    assert "so it changed" not in said
    path.write_text(json.dumps(record | {"inside": 6, "verdict": "steady"}))
    assert repeatability.words().endswith(": this one did not put clearly fewer inside.")
    assert "as many" not in repeatability.words()
