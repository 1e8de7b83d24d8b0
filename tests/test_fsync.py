"""The fsync chapter's experiments on a tiny profile: shapes, truths, unsupported paths."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import polars as pl
import pytest

from howfast import crosscheck, fsync, fsync_report, results
from howfast.profiles import PROFILES

TINY = dataclasses.replace(
    PROFILES["quick"],
    repetitions=2,
    fsync=dataclasses.replace(PROFILES["quick"].fsync, writes=20, sweep_block_sizes=(4096, 65536), sweep_writes=10,
                              batch_sizes=(1, 8), batch_records=32, batch_min_syncs=2, crosscheck_writes=40),
)


@pytest.fixture(scope="module")
def tiny_runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    mp = pytest.MonkeyPatch()
    base = tmp_path_factory.mktemp("fsync")
    (base / "scratch").mkdir()
    mp.setenv("HOWFAST_RESULTS", str(base / "results"))
    mp.setenv("HOWFAST_SCRATCH", str(base / "scratch"))
    mp.setenv("HOWFAST_MACHINE", "test-machine")
    try:
        yield {"runs": fsync.measure_chapter(TINY), "base": base}
    finally:
        mp.undo()


def test_every_case_and_repetition_is_stored(tiny_runs: dict) -> None:
    runs, base = tiny_runs["runs"], tiny_runs["base"]
    lat = runs[fsync.LATENCY].metrics
    assert lat.filter(pl.col("metric") == "p50").height == len(fsync.METHODS) * len(fsync.LAYOUTS) * 2
    stored = sorted(p.name for p in (base / "results" / "test-machine").iterdir())
    assert stored == sorted(["machine.json", *(f"{n}.parquet" for n in runs),
                             *(f"{n}.samples.parquet" for n in runs if runs[n].samples.height)])
    assert list((base / "scratch").iterdir()) == []


def test_samples_count_every_write(tiny_runs: dict) -> None:
    samples = tiny_runs["runs"][fsync.LATENCY].samples
    per_case = samples.group_by(["method", "layout", "repetition"]).len()
    assert per_case["len"].unique().to_list() == [TINY.fsync.writes]


def test_group_commit_counts_records(tiny_runs: dict) -> None:
    gc = tiny_runs["runs"][fsync.GROUP_COMMIT]
    batches = gc.samples.group_by(["records_per_sync", "repetition"]).len().sort("records_per_sync")
    assert batches.filter(pl.col("records_per_sync") == 8)["len"].unique().to_list() == [4]  # 32 records / 8


def test_report_tables(tiny_runs: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_RESULTS", str(tiny_runs["base"] / "results"))
    table = fsync_report.method_table(fsync_report.latency(), "append")
    assert table["method"].to_list() == list(fsync.METHODS)
    assert (table["p50"] <= table["p99"]).all()
    versus = fsync_report.versus_reference(fsync_report.latency())
    assert versus["this_machine"].sum() == 2 and (~versus["this_machine"]).sum() >= 3
    fio = fsync_report.fio_table(results.load(crosscheck.NAME))
    assert fio["method"].to_list() == list(crosscheck.FIO_OPTIONS)


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
    monkeypatch.setattr(crosscheck.shutil, "which", lambda name: None)
    metrics = crosscheck.durable_writes_vs_fio(TINY).metrics
    table = fsync_report.fio_table(metrics)
    assert table["fio writes/s"].null_count() == len(crosscheck.FIO_OPTIONS)
    assert table["note"].str.contains("fio is not installed").all()
    assert crosscheck.fio_version() is None


def test_fio_rejects_unknown_method(scratch_dir: Path) -> None:
    from howfast.scratch import Scratch

    with Scratch() as s, pytest.raises(ValueError, match="no fio equivalent"):
        crosscheck.fio_durable_writes(s, "write, no sync", 4096, 10)
