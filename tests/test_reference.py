"""The seeds' figures: well-formed, and each one quoted from the seed it names."""

from __future__ import annotations

import csv
import os
import re
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


_MULTIPLIERS = {
    "k": 1e3,
    "K": 1e3,
    "M": 1e6,
    "B": 1e9,
    "T": 1e12,
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
}
_NUMBER = re.compile(r"(\d[\d,]*(?:\.\d+)?)(?:/(\d+))?\s*(thousand|million|billion|trillion|k|K|M|B|T)?")


def quoted_numbers(quoted: str) -> list[float]:
    """Every reading of the numbers in a quoted figure: as printed, scaled by a
    multiplier printed after it (2.4k, 1.2 million), or a fraction (1/10th); 'a' is one."""
    found = [1.0] if re.match(r"an? ", quoted) else []
    for m in _NUMBER.finditer(quoted):
        x = float(m.group(1).replace(",", ""))
        found += [x, x * _MULTIPLIERS.get(m.group(3) or "", 1.0)] + ([x / float(m.group(2))] if m.group(2) else [])
    return found


@pytest.mark.parametrize("subject", [s for s in SUBJECTS if s != "historical"])
def test_every_value_is_the_number_it_quotes(subject: str) -> None:
    """Checked without the seeds: `value` is the number printed in `quoted` (historical.csv
    converts units, so it is checked against the seeds only)."""
    for row in rows(ROOT / "data" / "reference" / f"{subject}.csv"):
        value = float(row["value"])
        assert any(abs(x - value) <= abs(value) * 0.005 for x in quoted_numbers(row["quoted"])), row


def test_quoted_numbers_reads_what_the_seeds_print() -> None:
    assert 2400.0 in quoted_numbers("~2.4k ops/s") and 0.1 in quoted_numbers("1/10th the GDP")
    assert 1.0 in quoted_numbers("a gigabyte") and 3.3e6 in quoted_numbers("3.3 million")
    assert 248.0 in quoted_numbers("248MB/s") and quoted_numbers("no figure") == []


def test_unknown_subject_raises() -> None:
    with pytest.raises(ValueError, match="no reference subject"):
        reference.load("nope")
    with pytest.raises(ValueError):
        reference.load("machines")


def test_durations_convert_to_microseconds() -> None:
    fsync = reference.in_us(reference.load("fsync").filter(reference.pl.col("metric") == "latency"))
    by_device = dict(zip(fsync["device"], fsync["value"]))
    assert by_device["WD SN750 NVMe"] == 660 and by_device["HDD"] == 20_000
