"""The seeds' figures: well-formed, and each one quoted from the seed it names."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from conftest import ROOT
from howfast import reference

CSV_FILES = sorted((ROOT / "data" / "reference").glob("*.csv"))
SUBJECTS = [p.stem for p in CSV_FILES if p.stem != "machines"]


def seeds_dir() -> Path | None:
    candidates = [os.environ.get("HOWFAST_SEEDS"), ROOT.parent / "shared" / "seeds"]
    return next((Path(c) for c in candidates if c and Path(c).is_dir()), None)


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_there_are_reference_subjects() -> None:
    assert {"fsync", "disk_matrix", "memtable", "sqlite", "redis_benchmark"} <= set(SUBJECTS)


@pytest.mark.parametrize("subject", SUBJECTS)
def test_subject_is_well_formed(subject: str) -> None:
    frame = reference.load(subject)
    assert list(frame.columns[:7]) == list(reference.REQUIRED)
    assert frame.height > 0
    assert frame["value"].null_count() == 0
    assert frame["machine_name"].null_count() == 0, "every machine id must be in machines.csv"
    assert frame["source"].str.contains(r"^\d{3}_[0-9a-f]{16}\.txt$").all()


@pytest.mark.parametrize("subject", SUBJECTS)
def test_every_figure_is_quoted_from_its_seed(subject: str) -> None:
    seeds = seeds_dir()
    if seeds is None:
        pytest.skip("the seeds (../shared/seeds) are not beside this checkout")
    texts: dict[str, str] = {}
    for row in rows(ROOT / "data" / "reference" / f"{subject}.csv"):
        text = texts.setdefault(row["source"], (seeds / row["source"]).read_text(encoding="utf-8"))
        assert row["quoted"] in text, f"{row['quoted']!r} is not in {row['source']}"


def test_unknown_subject_raises() -> None:
    with pytest.raises(ValueError, match="no reference subject"):
        reference.load("nope")
    with pytest.raises(ValueError):
        reference.load("machines")


def test_durations_convert_to_microseconds() -> None:
    fsync = reference.in_us(reference.load("fsync").filter(reference.pl.col("metric") == "latency"))
    by_device = dict(zip(fsync["device"], fsync["value"]))
    assert by_device["WD SN750 NVMe"] == 660 and by_device["HDD"] == 20_000
