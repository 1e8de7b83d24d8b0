"""The fsync subject's experiments on a tiny profile: shapes, truths, unsupported paths."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import polars as pl
import pytest

from conftest import environment
from howfast import crosscheck as general
from howfast import store
from howfast.fsync import crosscheck
from howfast.fsync import experiments as fsync
from howfast.fsync import report as fsync_report
from howfast.profiles import PROFILES

TINY = dataclasses.replace(
    PROFILES["quick"],
    repetitions=2,
    fsync=dataclasses.replace(
        PROFILES["quick"].fsync,
        writes=20,
        sweep_block_sizes=(4096, 65536),
        sweep_writes=10,
        batch_sizes=(1, 8),
        batch_records=32,
        batch_min_syncs=2,
        crosscheck_writes=40,
    ),
)


@pytest.fixture(scope="module")
def tiny_runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    with environment(tmp_path_factory.mktemp("fsync")) as base:
        yield {"set": store.measure("fsync", TINY), "base": base}


def test_every_case_and_repetition_is_stored(tiny_runs: dict) -> None:
    data, base = tiny_runs["set"], tiny_runs["base"]
    lat = data.table(fsync.LATENCY)
    assert lat.filter(pl.col("metric") == "p50").height == len(fsync.METHODS) * len(fsync.LAYOUTS) * 2
    assert data.path == (base / "results" / "test-machine" / "quick" / "fsync").resolve()
    names = [fsync.LATENCY, fsync.BLOCK_SIZES, fsync.GROUP_COMMIT, crosscheck.NAME]
    assert data.experiments == names
    stored = sorted(p.name for p in data.path.iterdir())
    assert stored == sorted(
        [
            "machine.json",
            "manifest.json",
            *(f"{n}.parquet" for n in names),
            *(f"{n}.samples.parquet" for n in names[:3]),
        ]
    )
    assert list((base / "scratch").iterdir()) == []


def test_samples_count_every_write(tiny_runs: dict) -> None:
    samples = tiny_runs["set"].table(fsync.LATENCY, samples=True)
    per_case = samples.group_by(["method", "layout", "repetition"]).len()
    assert per_case["len"].unique().to_list() == [TINY.fsync.writes]


def test_group_commit_counts_records(tiny_runs: dict) -> None:
    samples = tiny_runs["set"].table(fsync.GROUP_COMMIT, samples=True)
    batches = samples.group_by(["records_per_sync", "repetition"]).len().sort("records_per_sync")
    assert batches.filter(pl.col("records_per_sync") == 8)["len"].unique().to_list() == [4]  # 32 records / 8


def test_report_tables(tiny_runs: dict) -> None:
    lat = tiny_runs["set"].table(fsync.LATENCY)
    table = fsync_report.method_table(lat, "append")
    assert table["method"].to_list() == [fsync_report.METHOD_NAMES[m] for m in fsync.METHODS]
    assert (table["p50"] <= table["p99"]).all()
    versus = fsync_report.versus_reference(lat)
    assert versus["this_machine"].sum() == 2 and (~versus["this_machine"]).sum() >= 3
    fio = fsync_report.fio_table(tiny_runs["set"].table(crosscheck.NAME))
    assert fio["method"].to_list() == [fsync_report.METHOD_NAMES[m] for m in crosscheck.FIO_OPTIONS]


def test_every_method_has_a_name_and_fio_job() -> None:
    """Ids are what code compares; every id the experiments store has words for the reader."""
    assert set(fsync_report.METHOD_NAMES) == set(fsync.METHODS)
    assert set(crosscheck.FIO_OPTIONS) <= set(fsync.METHODS)


def test_direct_io_unsupported_is_reported(scratch_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_DISABLE_DIRECT_IO", "1")
    fsync._direct_io.cache_clear()
    try:
        cases = [c for c in fsync.latency_cases(TINY) if c["layout"] == "append"]
        from howfast.bench import run

        metrics = run("direct_off", cases, fsync.measure_writes, repetitions=1).metrics
    finally:
        fsync._direct_io.cache_clear()
    table = fsync_report.method_table(metrics, "append")
    off = table.filter(pl.col("method").str.starts_with("O_DIRECT"))
    assert off.height == 2 and off["unsupported"].str.contains("HOWFAST_DISABLE_DIRECT_IO").all()
    assert off["p50"].null_count() == 2


def test_missing_fio_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from howfast.scratch import Scratch

    monkeypatch.setattr(general.shutil, "which", lambda name: None)
    with Scratch() as scratch:
        metrics = crosscheck.versus_fio(TINY, scratch, fsync.measure_writes).metrics
    table = fsync_report.fio_table(metrics)
    assert table["fio writes/s"].null_count() == len(crosscheck.FIO_OPTIONS)
    assert table["note"].str.contains("fio is not installed").all()
    assert general.fio_version() is None


def test_fio_rejects_unknown_method(scratch_dir: Path) -> None:
    from howfast.scratch import Scratch

    with Scratch() as s, pytest.raises(ValueError, match="no fio equivalent"):
        crosscheck.fio_durable_writes(s, "none", 4096, 10)
