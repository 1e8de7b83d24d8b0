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
    seed = r"^\d{3}_[0-9a-f]{16}\.txt$"
    repository = r"^github:[\w.-]+/[\w.-]+/[\w./-]+@[0-9a-f]{12}$"  # a file of a public repository at a commit
    assert frame["source"].str.contains(seed).all() or frame["source"].str.contains(repository).all()


@pytest.mark.parametrize("subject", SUBJECTS)
def test_every_figure_is_quoted_from_its_seed(subject: str) -> None:
    seeds = seeds_dir()
    if seeds is None:
        pytest.skip("the seeds (../shared/seeds) are not beside this checkout")
    texts: dict[str, str] = {}
    for row in rows(ROOT / "data" / "reference" / f"{subject}.csv"):
        if row["source"].startswith("github:"):
            continue  # not a seed: the repository's file at that commit (data/reference/README.md)
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


KINDS = {"measured", "rounded", "derived", "rated", "cited", "hypothetical", "guess"}


@pytest.mark.parametrize("subject", SUBJECTS)
def test_every_figure_says_what_kind_it_is(subject: str) -> None:
    """`kind` is one of the known words; a figure printed with '~' or 'closer to' is not
    called measured; an estimate is never a measurement."""
    for row in rows(ROOT / "data" / "reference" / f"{subject}.csv"):
        assert row["kind"] in KINDS, row
        if row["quoted"].lstrip("(").startswith("~") or "closer to" in row["quoted"]:
            assert row["kind"] != "measured", row
        if row["figure_type"] in ("estimate", "guess"):
            assert row["kind"] != "measured", row


def test_the_seeds_hypotheticals_and_exact_figures() -> None:
    estimates = {r["quantity"]: r for r in rows(ROOT / "data" / "reference" / "estimates.csv")
                 if r["system"] == "backup_1pb"}  # fmt: skip
    assert estimates["write_speed"]["kind"] == "hypothetical" and estimates["write_speed"]["machine"] == "n/a"
    redis = [r for r in rows(ROOT / "data" / "reference" / "redis_benchmark.csv")
             if r["test"] == "GET" and r["metric"] == "req_per_s"]  # fmt: skip
    assert len(redis) == 1 and float(redis[0]["value"]) == 184501.84 and redis[0]["kind"] == "measured"


def test_seed_000s_tcp_line_records_its_size_per_operation() -> None:
    """~500k ops/s at 15.1 Gbit/s: about 3,775 bytes per operation, not 64-byte round trips."""
    tcp = [r for r in rows(ROOT / "data" / "reference" / "network.csv") if r["test"] == "tcp_read_write"]
    by_metric = {r["metric"]: r for r in tcp}
    per_op = float(by_metric["bandwidth"]["value"]) * 1e9 / 8 / float(by_metric["ops_per_s"]["value"])
    assert all(abs(float(r["op_bytes"]) - per_op) < 1 for r in tcp)
    assert by_metric["ops_per_s"]["kind"] == "rounded"  # '~500k'
