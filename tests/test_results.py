from __future__ import annotations

import json
from pathlib import Path

import pytest

from howfast import results
from howfast.bench import Outcome, run


def test_save_and_load_round_trip(isolated: dict[str, Path]) -> None:
    r = run("roundtrip", [{"k": 1}], lambda c, s: Outcome({"m": (3.0, "u")}, samples=None), repetitions=2)
    where = results.save(r, {"machine": "test-machine", "cpu_model": "x"})
    assert where == isolated["results"] / "test-machine"
    back = results.load("roundtrip")
    assert back["value"].to_list() == [3.0, 3.0]
    assert set(back.columns) >= {"k", "repetition", "metric", "value", "unit", "machine", "profile", "measured_at"}
    assert back["profile"].unique().to_list() == ["quick"]
    assert json.loads((where / "machine.json").read_text())["cpu_model"] == "x"
    assert results.load_facts()["machine"] == "test-machine"
    assert results.machines() == ["test-machine"]


def test_missing_and_bad_names() -> None:
    with pytest.raises(FileNotFoundError, match="run the chapter"):
        results.load("never_measured")
    with pytest.raises(ValueError, match="lower-case"):
        results.load("../escape")
    with pytest.raises(FileNotFoundError):
        results.load_facts("nobody")
