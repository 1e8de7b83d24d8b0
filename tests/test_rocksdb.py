"""RocksDB through its C++ API: what is written reads back, reads find what exists, bad
arguments and library errors become Python exceptions, files stay in the scratch dir,
and a machine without RocksDB or db_bench is reported, not crashed on."""

from __future__ import annotations

import dataclasses
import os
import shutil
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import polars as pl
import pytest

from conftest import environment
from howfast import _native, fmt, store
from howfast.profiles import PROFILES
from howfast.rocksdb import crosscheck as db_bench
from howfast.rocksdb import experiments as rocksdb
from howfast.rocksdb import plan as rocksdb_plan
from howfast.rocksdb import report as rocksdb_report
from howfast.scratch import Scratch

pytestmark = pytest.mark.skipif(_native.rocksdb_version is None, reason="built without librocksdb-dev")

ENTRY = 16 + 800
TINY = dataclasses.replace(PROFILES["quick"], rocksdb=rocksdb_plan.SMOKE)


def open_db(directory: Path, **options: object) -> _native.RocksDb:
    return _native.RocksDb(str(directory / "db"), **options)


def test_every_key_reads_back_with_its_value(scratch_dir: Path) -> None:
    db = open_db(scratch_dir)
    try:
        r = db.fillseq(3000)
        assert r["ops"] == 3000 and r["bytes"] == 3000 * ENTRY and len(r["latency_ns"]) == 3000
        assert (r["latency_ns"] > 0).all() and r["elapsed_ns"] >= r["latency_ns"].max()
        for i in range(3000):
            key = db.key(i)
            assert key == i.to_bytes(8, "big") + b"0" * 8  # db_bench's key format
            value = db.get(key)
            assert value == db.value(i) and len(value) == 800
            assert int.from_bytes(value[:8], "little") == i
        assert db.get(db.key(3000)) is None
    finally:
        db.close()


def test_values_compress_to_about_half(scratch_dir: Path) -> None:
    db = open_db(scratch_dir)
    half = [db.value(i) for i in range(200)]
    db.close()
    incompressible = _native.RocksDb(str(scratch_dir / "random"), compression_ratio=1.0)
    whole = b"".join(incompressible.value(i) for i in range(200))
    incompressible.close()
    assert len(set(half)) == 200
    assert 0.35 < len(zlib.compress(b"".join(half))) / (200 * 800) < 0.65
    assert len(zlib.compress(whole)) / len(whole) > 0.75


def test_readrandom_finds_every_written_key(scratch_dir: Path) -> None:
    db = open_db(scratch_dir)
    try:
        db.fillseq(2000)
        r = db.readrandom(1000, key_range=2000, threads=2)
        assert r["threads"] == 2 and r["ops"] == 2000 and r["found"] == 2000
        assert r["bytes"] == 2000 * ENTRY and len(r["latency_ns"]) == 2000
        assert r["thread_ns"] > 0 and r["latency_sum_ns"] <= r["thread_ns"]  # timed Gets lie inside the threads' time
        wider = db.readrandom(2000, key_range=4000)  # half the keys were never written
        assert 0 < wider["found"] < wider["ops"] == 2000
    finally:
        db.close()


def test_overwrite_replaces_values(scratch_dir: Path) -> None:
    db = open_db(scratch_dir)
    try:
        db.fillseq(1000)
        r = db.overwrite(5000, key_range=1000)
        assert r["ops"] == 5000 and r["found"] == 0
        values = [db.get(db.key(i)) for i in range(1000)]
        new = sum(v == db.value(i, 1) for i, v in enumerate(values))
        old = sum(v == db.value(i, 0) for i, v in enumerate(values))
        assert new + old == 1000 and new > 950  # 5 writes per key: almost every key was hit
    finally:
        db.close()


def test_readwhilewriting_measures_readers_only(scratch_dir: Path) -> None:
    db = open_db(scratch_dir)
    try:
        db.fillseq(1000)
        r = db.readwhilewriting(500, key_range=1000, readers=2, sample_every=10)
        assert r["threads"] == 2 and r["ops"] == 1000 and r["found"] == 1000
        assert len(r["latency_ns"]) == 100  # every 10th of each reader's 500
        assert r["writer_ops"] > 0 and r["writer_ns"] > 0
    finally:
        db.close()


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"key_size": 7}, "key_size must be at least 8"),
        ({"key_size": 0}, "key_size"),
        ({"value_size": 0}, "value_size"),
        ({"value_size": -800}, "value_size"),
        ({"compression": "nope"}, "compression must be one of"),
        ({"compression_ratio": 0.0}, "compression_ratio"),
        ({"write_buffer_size": 1}, "write_buffer_size"),
    ],
)
def test_bad_options_raise_value_error(scratch_dir: Path, options: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        open_db(scratch_dir, **options)
    assert not (scratch_dir / "db").exists()


def test_bad_paths_raise_value_error(scratch_dir: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        _native.RocksDb(str(scratch_dir / "missing" / "db"))
    (scratch_dir / "taken").mkdir()
    with pytest.raises(ValueError, match="already exists"):
        _native.RocksDb(str(scratch_dir / "taken"))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda db: db.fillseq(0), "count must be positive"),
        (lambda db: db.fillseq(-5), "count must be positive"),
        (lambda db: db.fillseq(10, sample_every=0), "sample_every"),
        (lambda db: db.readrandom(0, key_range=10), "reads must be positive"),
        (lambda db: db.readrandom(10, key_range=0), "key_range must be positive"),
        (lambda db: db.readrandom(10, key_range=10, threads=0), "threads must be positive"),
        (lambda db: db.overwrite(-1, key_range=10), "writes must be positive"),
        (lambda db: db.readwhilewriting(10, key_range=10, readers=0), "readers must be positive"),
        (lambda db: db.fillseq(2 * 10**9, sample_every=1000), "too large for the scratch space"),  # 1.6 TB
        (lambda db: db.key(-1), "index must not be negative"),
    ],
)
def test_bad_workload_arguments_raise_value_error(scratch_dir: Path, call, match: str) -> None:
    if "scratch space" in match and _native.free_bytes(str(scratch_dir)) > 2 * 10**9 * ENTRY:
        pytest.skip("the scratch filesystem has room for 1.6 TB")
    db = open_db(scratch_dir)
    try:
        with pytest.raises(ValueError, match=match):
            call(db)
    finally:
        db.close()


def test_closed_database_raises(scratch_dir: Path) -> None:
    db = open_db(scratch_dir)
    db.close()
    db.close()  # idempotent
    assert not db.is_open
    with pytest.raises(RuntimeError, match="closed"):
        db.fillseq(10)


def test_library_error_becomes_os_error(scratch_dir: Path) -> None:
    """A RocksDB error status (here: its directory replaced by a file, found when the
    first memtable switch opens a new log) is an OSError with the status text."""
    db = open_db(scratch_dir, write_buffer_size=64 * 1024)
    shutil.rmtree(scratch_dir / "db")
    (scratch_dir / "db").write_text("not a directory")
    with pytest.raises(OSError, match="rocksdb put failed: IO error"):
        db.fillseq(20000)
    try:
        db.close()
    except OSError:
        pass


def test_session_keeps_files_in_scratch_and_removes_them(scratch_dir: Path) -> None:
    with Scratch() as scratch:
        with rocksdb.Session(scratch) as session:
            db = session.open(TINY.rocksdb)
            db.fillseq(500)
            first = session.path
            assert first is not None and first.parent == scratch.path and any(first.iterdir())
            session.open(TINY.rocksdb)  # the next repetition's fresh database
            assert not first.exists() and session.path != first
        assert session.paths and not any(p.exists() for p in session.paths)
        assert [p.name for p in scratch.path.iterdir()] == [".owner"]  # only its owner's name
        with pytest.raises(ValueError, match="not inside the scratch directory"):
            rocksdb.remove_tree(scratch, scratch_dir)


def test_session_needs_fillseq_first() -> None:
    with Scratch() as scratch, rocksdb.Session(scratch) as session:
        measure = rocksdb.measurer(session, TINY.rocksdb)
        case = rocksdb.cases(TINY.rocksdb)[1]
        with pytest.raises(RuntimeError, match="fillseq case must run first"):
            measure(case, scratch)


@pytest.fixture(scope="module")
def tiny_runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    mp = pytest.MonkeyPatch()
    mp.delenv("HOWFAST_DISABLE_ROCKSDB", raising=False)
    try:
        with environment(tmp_path_factory.mktemp("rocksdb")) as base:
            yield {"set": store.measure("rocksdb", TINY), "base": base}
    finally:
        mp.undo()


def test_chapter_run_stores_every_test_and_leaves_nothing(tiny_runs: dict) -> None:
    data, base = tiny_runs["set"], tiny_runs["base"]
    metrics = data.table(rocksdb.BENCHMARK)
    assert metrics.filter(pl.col("metric") == "ops_per_s")["test"].to_list() == list(rocksdb.TESTS)
    found = metrics.filter(pl.col("metric") == "keys_found").join(
        metrics.filter(pl.col("metric") == "operations"), on="test"
    )
    assert (found["value"] == found["value_right"]).all()  # every key read exists
    samples = data.table(rocksdb.BENCHMARK, samples=True).group_by("test").len()
    assert samples["len"].max() <= TINY.rocksdb.max_samples
    assert data.experiments == [rocksdb.BENCHMARK, rocksdb.DISK, rocksdb.CROSSCHECK]
    assert data.details["rocksdb_version"] == str(_native.rocksdb_version)
    assert list((base / "scratch").iterdir()) == []


def test_report_puts_this_machine_beside_the_seed(tiny_runs: dict) -> None:
    measured, disk = tiny_runs["set"].table(rocksdb.BENCHMARK), tiny_runs["set"].table(rocksdb.DISK)
    table = rocksdb_report.comparison_table(measured)
    assert table.height == 8 and table["test"].unique().len() == 4
    seed = table.filter(pl.col("machine") == rocksdb_report.SEED_MACHINE)
    assert seed.filter(pl.col("test") == "readrandom")["threads"].to_list() == [16]
    ours = table.filter(pl.col("machine") != rocksdb_report.SEED_MACHINE)
    assert ours.filter(pl.col("test").str.starts_with("read"))["found"].to_list() == [1.0, 1.0]
    assert (ours["p50 µs"] <= ours["p99 µs"]).all()
    versus = rocksdb_report.versus_frame(measured)
    assert versus.height == 8 and (versus["min"] <= versus["max"]).all()
    rates = rocksdb_report.write_rates(measured, disk)
    assert rates["write_amplification"].min() >= 1.0  # the WAL alone writes every byte once
    check = rocksdb_report.crosscheck_table(tiny_runs["set"].table(rocksdb.CROSSCHECK))
    assert check["test"].to_list() == list(rocksdb.TESTS)
    assert all(t in rocksdb_report.headline(measured) for t in rocksdb.TESTS)
    assert "fillseq accepted" in rocksdb_report.write_sentence(measured, disk)
    percentiles = rocksdb_report.percentile_frame(measured)
    assert percentiles.group_by("test", "machine").len()["len"].unique().to_list() == [5]


def test_versus_laptop_wording() -> None:
    assert rocksdb_report.versus_laptop(1.2) == "1.2× the laptop's rate"
    assert rocksdb_report.versus_laptop(0.8) == "0.8× the laptop's rate"
    assert rocksdb_report.versus_laptop(0.05) == "the laptop's rate ÷ 20"
    with pytest.raises(ValueError):
        rocksdb_report.versus_laptop(0)


def test_disabled_rocksdb_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_DISABLE_ROCKSDB", "1")
    with Scratch() as scratch:
        metrics = rocksdb.measure_db_bench(TINY, scratch).metrics
    assert metrics["metric"].unique().to_list() == ["unsupported"]
    table = rocksdb_report.comparison_table(metrics)
    assert table["unsupported"].drop_nulls().str.contains("HOWFAST_DISABLE_ROCKSDB").all()
    assert table.filter(pl.col("machine") == rocksdb_report.SEED_MACHINE).height == 4
    assert "could not be measured" in rocksdb_report.headline(metrics)


def test_module_built_without_rocksdb_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rocksdb._native, "rocksdb_version", None)
    assert "built without librocksdb-dev" in (rocksdb.disabled_reason() or "")
    with Scratch() as scratch:
        metrics = rocksdb.measure_db_bench(TINY, scratch).metrics
    assert metrics["note"].str.contains("built without librocksdb-dev").all()


def test_missing_db_bench_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db_bench.shutil, "which", lambda name: None)
    with Scratch(need_bytes=rocksdb.bytes_needed(TINY.rocksdb)) as scratch:
        metrics = db_bench.versus_db_bench(TINY, scratch).metrics
    table = rocksdb_report.crosscheck_table(metrics)
    assert table["db_bench ops/s"].null_count() == 4 and table["howfast ops/s"].null_count() == 0
    assert table["note"].str.contains("db_bench is not installed").all()
    assert "no cross-check" in rocksdb_report.crosscheck_sentence(metrics)


def test_parse_db_bench_output() -> None:
    text = "\n".join(
        [
            "DB path: [./db]",
            "fillseq      :       2.500 micros/op 400000 ops/sec 0.250 seconds 100000 operations;  311.3 MB/s",
            "Microseconds per write:",
            "Percentiles: P50: 2.10 P75: 2.60 P99: 7.00 P99.9: 20.00 P99.99: 90.00",
            "readrandom   :       3.000 micros/op 333333 ops/sec 0.300 seconds 100000 operations;  259.4 MB/s "
            "(99000 of 100000 found)",
        ]
    )
    parsed = db_bench.parse_db_bench(text)
    assert parsed["fillseq"]["ops_per_s"] == 400000 and parsed["fillseq"]["latency_p99_9"] == 20.0
    assert parsed["readrandom"]["keys_found"] == 99000 and "latency_p50" not in parsed["readrandom"]


def test_sample_every_bounds_samples() -> None:
    assert rocksdb.sample_every(1000, 1000) == 1 and rocksdb.sample_every(1001, 1000) == 2
    with pytest.raises(ValueError):
        rocksdb.sample_every(0, 10)


def test_db_bench_command_matches_our_settings(tmp_path: Path) -> None:
    command = db_bench.db_bench_command("db_bench", tmp_path / "db", TINY.rocksdb)
    assert "--num=2000" in command and "--value_size=800" in command and "--key_size=16" in command
    plan = TINY.rocksdb  # the memtable and cache sizes come from the plan, as ours do
    assert f"--write_buffer_size={plan.write_buffer_size}" in command and f"--cache_size={plan.cache_size}" in command
    assert f"--compression_type={rocksdb.compression()}" in command and "--disable_wal=0" in command


INTERRUPTED = """
from howfast import _native
from howfast.scratch import Scratch
with Scratch() as s:
    db = _native.RocksDb(str(s.path / "db"))
    db.fillseq(1000)
    print(s.path, flush=True)
    db.readrandom(500_000_000, key_range=1000, threads=2, sample_every=100_000)
"""


def test_ctrl_c_stops_the_worker_threads_and_cleans_up(scratch_dir: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    made = Path(child.stdout.readline().strip())
    assert made.parent == scratch_dir and (made / "db").is_dir()
    time.sleep(0.5)  # the readers are running by now
    assert child.poll() is None, child.stderr.read()
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert child.returncode != 0 and "KeyboardInterrupt" in err
    assert list(scratch_dir.iterdir()) == []


def _tests(entries: int, threads: int, fill: tuple[float, ...]) -> pl.DataFrame:
    rows = []
    for test in rocksdb.TESTS:
        n_threads = 1 if test in ("fillseq", "overwrite") else threads
        for rep, v in enumerate(fill):
            rows.append({"test": test, "entries": entries, "threads": n_threads, "repetition": rep,
                         "metric": "ops_per_s", "unit": "ops/s", "value": v, "note": None})  # fmt: skip
    return pl.DataFrame(rows)


def test_seed_comparison_is_not_comparable_at_another_size() -> None:
    text = rocksdb_report.seed_comparison(_tests(100_000, 2, (50000.0, 51000, 52000)), "snappy")
    assert "not comparable" in text and "no ratio" in text and "×" not in text
    assert "fillseq: 100,000 keys here against 10 million" in text and "2 threads against 16" in text
    assert "db_bench there" in text and "in compression" not in text
    other = rocksdb_report.seed_comparison(_tests(100_000, 2, (50000.0, 51000, 52000)), "none")
    assert "in compression (snappy on the laptop, none here)" in other


def test_seed_comparison_compares_like_with_like() -> None:
    seeds = rocksdb_report.seed_figures()
    fill = float(seeds.filter((pl.col("test") == "fillseq") & (pl.col("metric") == "ops_per_s"))["value"][0])
    same_size = _tests(10_000_000, 16, (2 * fill, 2.1 * fill, 2.2 * fill))
    text = rocksdb_report.seed_comparison(same_size, "snappy")
    assert "Run like the seed's, fillseq was 2.1× faster than the laptop's" in text
    assert "overwrite was" in text  # the other write test, also at the seed's size
    assert "readwhilewriting: 10 million keys here against 1 million" in text  # the seed's smaller database
    unknown = rocksdb_report.seed_comparison(same_size, None)
    assert "Run like" not in unknown and "not comparable" in unknown  # compression unknown: no ratio
    # an unclear comparison names the laptop's figure before its parenthesis
    wide = rocksdb_report.seed_comparison(_tests(10_000_000, 16, (0.5 * fill, 1.1 * fill, 3 * fill)), "snappy")
    assert f"fillseq was not clearly faster or slower than the laptop's {fmt.num(fill)} ops/s (1.1× by the " in wide


def test_headline_names_each_test_and_defers_to_the_comparison() -> None:
    text = rocksdb_report.headline(_tests(100_000, 2, (50000.0, 51000, 52000)))
    assert text.startswith("This machine ran fillseq 51,000 ops/s") and "not comparable" in text


def _write_runs(disk_values: list[float], fill_file_mb: float = 60.0, direct: float = 1.0) -> tuple:
    """fillseq and overwrite with their file traffic, and the disk probe's runs."""
    rows = []
    for test, user, written in (("fillseq", 40.0, fill_file_mb), ("overwrite", 20.0, 28.0)):
        for rep in range(2):
            for metric, value in (
                ("ops_per_s", 1000.0),
                ("user_write_mb_per_s", user),
                ("file_write_mb_per_s", written),
                ("write_amplification", written / user),
            ):
                rows.append({"test": test, "entries": 100, "threads": 1, "repetition": rep, "metric": metric,
                             "value": value, "unit": "", "note": None})  # fmt: skip
    probe = {"test": "sequential write, 1 MiB blocks", "unit": "", "note": None}
    pairs = [(i, m, v) for i, x in enumerate(disk_values) for m, v in (("mb_per_s", x), ("direct_io", direct))]
    disk = [probe | {"repetition": i, "metric": m, "value": v} for i, m, v in pairs]
    schema = {"test": pl.String, "repetition": pl.Int64, "metric": pl.String, "value": pl.Float64,
              "unit": pl.String, "note": pl.String}  # fmt: skip
    return pl.DataFrame(rows, infer_schema_length=None), pl.DataFrame(disk, schema=schema)


def test_disk_direct_tells_a_buffered_fallback_from_o_direct() -> None:
    _, direct = _write_runs([1200.0, 1280.0, 1300.0])
    _, buffered = _write_runs([1200.0, 1280.0, 1300.0], direct=0.0)
    assert rocksdb_report.disk_direct(direct) is True
    assert rocksdb_report.disk_direct(buffered) is False
    assert rocksdb_report.disk_direct(direct.filter(pl.col("metric") != "direct_io")) is True  # stored before
    assert rocksdb_report.disk_direct(pl.DataFrame()) is True
    with pytest.raises(TypeError, match="disk_metrics"):
        rocksdb_report.disk_direct(None)  # type: ignore[arg-type]


def test_write_sentence_gives_the_disk_its_interval_and_reads_it_at_both_ends() -> None:
    head = (
        "While fillseq accepted 40 MB/s of keys and values, RocksDB handed 60 MB/s to the kernel (1.5× the user "
        "data: the write-ahead log, the flushed memtables and any compaction); overwrite wrote 1.4× its user data "
        "(medians over the runs)."
    )
    metrics, disk = _write_runs([1200.0, 1280.0, 1300.0])
    assert rocksdb_report.write_sentence(metrics, disk) == head + (
        " In this subject's own runs the disk took 1,280 MB/s of sequential 1 MiB O_DIRECT writes (1,200–1,300, "
        "3 runs), so the file traffic of fillseq is 4.6–5 % of what that one stream of 1 MiB writes reached: the "
        "disk is unlikely to be what holds the writer back. The work each write costs the CPU (a system call to "
        "append to the log, a skip-list insert) may be, but this run does not measure where the CPU time goes."
    )
    assert rocksdb_report.disk_estimate(disk) == rocksdb_report.stats.Estimate(1280.0, 1200.0, 1300.0, 3, 0.75)
    slow, slow_disk = _write_runs([100.0, 100.0], fill_file_mb=60.0, direct=0.0)
    assert rocksdb_report.write_sentence(slow, slow_disk).endswith(
        " the disk took 100 MB/s of sequential 1 MiB buffered writes with an fdatasync after each, for want of "
        "O_DIRECT (2 runs), so the file traffic of fillseq is 60 % of what that one stream of 1 MiB writes "
        "reached: the disk may be what holds the writer back, though this run does not measure where the writer's "
        "time goes."
    )
    wide, wide_disk = _write_runs([80.0, 200.0], fill_file_mb=60.0)
    assert rocksdb_report.write_sentence(wide, wide_disk).endswith(
        "(80–200, 2 runs), so the file traffic of fillseq is 30–75 % of what that one stream of 1 MiB writes "
        "reached: whether the disk or the CPU holds the writer back, the disk's interval cannot say."
    )
    assert rocksdb_report.write_sentence(metrics, disk.clear()) == head + (
        " The disk's own bandwidth was not measured here, so there is nothing to set it against."
    )
    assert rocksdb_report.disk_estimate(pl.DataFrame()) is None
