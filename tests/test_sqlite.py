"""SQLite inserts: every row lands with its exact bytes through both clients, bad input
raises ValueError, SQLite's own errors carry its code, files stay in scratch and go
away, and a machine without SQLite gets reasons instead of a crash."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from pathlib import Path

import polars as pl
import pytest

from conftest import environment
from howfast import _native, store
from howfast.profiles import PROFILES
from howfast.sqlite import crosscheck as shell
from howfast.sqlite import experiments as sqlite_bench
from howfast.sqlite import report as sqlite_report

TINY = dataclasses.replace(
    PROFILES["quick"],
    repetitions=2,
    sqlite=dataclasses.replace(
        PROFILES["quick"].sqlite,
        rows=(20, 2000),
        full_sync_rows=(10, 2000),
        cli_rows=(20, 2000),
        client_rows=(20, 2000),
        fsync_baseline_writes=10,
    ),
)

needs_c_api = pytest.mark.skipif(
    sqlite_bench.c_api_unsupported() is not None, reason=str(sqlite_bench.c_api_unsupported())
)


def c_inserts(path: Path, rows: int, batch: int, row_size: int, **kw) -> dict:
    return _native.sqlite_inserts(str(path), rows, batch, row_size, **kw)


def py_inserts(path: Path, rows: int, batch: int, row_size: int, **kw) -> dict:
    return sqlite_bench.python_inserts(path, rows, batch, row_size, **kw)


def py_many(path: Path, rows: int, batch: int, row_size: int, **kw) -> dict:
    return sqlite_bench.python_inserts(path, rows, batch, row_size, executemany=True, **kw)


WRITERS = {"C API": pytest.param(c_inserts, marks=needs_c_api), "Python": py_inserts, "executemany": py_many}


# ----------------------------------------------------------------- rows land intact


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
@pytest.mark.parametrize("synchronous", ["normal", "off", "full"])
def test_every_row_lands_with_its_bytes(writer, synchronous: str, scratch_dir: Path) -> None:
    path = scratch_dir / "rows.db"
    r = writer(path, 600, 20, 333, synchronous=synchronous, content="random", seed=5)
    assert r["rows"] == 600 and r["transactions"] == 30 and len(r["transaction_ns"]) == 30
    assert r["elapsed_ns"] > 0 and all(t > 0 for t in r["transaction_ns"])
    assert 0 < r["cpu_ns"] <= r["elapsed_ns"] + 2_000_000  # one thread's CPU time never exceeds the wall time
    assert r["journal_mode"] == "wal"
    assert r["synchronous"] == {"off": 0, "normal": 1, "full": 2}[synchronous]
    # Two independent readers: Python's sqlite3 and the C API.
    check = sqlite_bench.python_verify(path, 600, 333, content="random", seed=5)
    assert check == {"rows": 600, "matching": 600, "first_bad_id": -1, "integrity": "ok"}
    if sqlite_bench.c_api_unsupported() is None:
        assert _native.sqlite_verify(str(path), 600, 333, content="random", seed=5) == check


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
def test_rows_are_sqlite_benchs_rows(writer, scratch_dir: Path) -> None:
    """Default content: id 0, 1, 2, ... and 'x' * row_size, as sqlite-bench writes them."""
    path = scratch_dir / "x.db"
    writer(path, 50, 50, 1000)
    con = sqlite3.connect(path)
    try:
        assert con.execute("SELECT sql FROM sqlite_master").fetchall() == [(sqlite_bench.SCHEMA_SQL,)]
        rows = con.execute("SELECT id, name, typeof(name) FROM t ORDER BY id").fetchall()
    finally:
        con.close()
    assert rows == [(i, "x" * 1000, "text") for i in range(50)]


@needs_c_api
def test_verify_finds_a_changed_and_a_missing_row(scratch_dir: Path) -> None:
    path = scratch_dir / "bad.db"
    c_inserts(path, 100, 10, 64, content="random")
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE t SET name = upper(name) WHERE id = 37")
        con.execute("DELETE FROM t WHERE id = 80")
    con.close()
    for check in (
        _native.sqlite_verify(str(path), 100, 64, content="random"),
        sqlite_bench.python_verify(path, 100, 64, content="random"),
    ):
        assert check["rows"] == 99 and check["matching"] == 97 and check["first_bad_id"] == 37


@needs_c_api
def test_python_rows_match_the_native_rows() -> None:
    for size in (1, 100, 1000, 5000):
        for row_id in (0, 1, 4095, 4096, 123457):
            native = _native.sqlite_row_text(size, row_id, content="random", seed=3).decode("ascii")
            assert sqlite_bench.row_text(size, row_id, "random", 3) == native
    assert sqlite_bench.row_text(10, 5) == "x" * 10 == _native.sqlite_row_text(10, 5).decode()


@needs_c_api
def test_file_sizes_are_reported(scratch_dir: Path) -> None:
    r = c_inserts(scratch_dir / "size.db", 1000, 100, 1000)
    assert r["checkpointed_bytes"] >= 1000 * 1000  # every row's text is in the database file
    assert r["db_bytes"] + r["wal_bytes"] >= 1000 * 1000
    assert r["checkpointed_bytes"] == (scratch_dir / "size.db").stat().st_size


# ----------------------------------------------------------------------- bad input

BAD = [
    ({"rows": 0}, "rows"),
    ({"rows": -5}, "rows"),
    ({"batch_size": 0}, "batch_size"),
    ({"row_size": 0}, "row_size"),
    ({"row_size": -1}, "row_size"),
    ({"rows": 10, "batch_size": 20}, "batch_size"),
    ({"rows": 15, "batch_size": 10}, "multiple of batch_size"),
    ({"synchronous": "extra"}, "synchronous"),
    ({"journal_mode": "fast"}, "journal_mode"),
    ({"content": "zeros"}, "content"),
]


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
@pytest.mark.parametrize("bad,names", BAD, ids=[n for _, n in BAD])
def test_bad_arguments_raise_value_error(writer, bad: dict, names: str, scratch_dir: Path) -> None:
    args = {"rows": 10, "batch_size": 2, "row_size": 10}
    args.update(bad)
    options = {k: v for k, v in args.items() if k in ("synchronous", "journal_mode", "content")}
    with pytest.raises(ValueError, match=names):
        writer(scratch_dir / "bad.db", args["rows"], args["batch_size"], args["row_size"], **options)
    assert list(scratch_dir.iterdir()) == []


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
def test_missing_directory_raises(writer, scratch_dir: Path) -> None:
    with pytest.raises(ValueError, match="path: directory .* does not exist"):
        writer(scratch_dir / "nope" / "x.db", 10, 1, 10)
    assert not (scratch_dir / "nope").exists()


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
@pytest.mark.parametrize("suffix", ["", "-wal"])
def test_existing_files_are_never_overwritten(writer, suffix: str, scratch_dir: Path) -> None:
    keep = scratch_dir / f"old.db{suffix}"
    keep.write_bytes(b"precious")
    with pytest.raises(ValueError, match="already exists"):
        writer(scratch_dir / "old.db", 10, 1, 10)
    assert keep.read_bytes() == b"precious"


@needs_c_api
def test_sqlite_errors_carry_code_and_message(scratch_dir: Path) -> None:
    junk = scratch_dir / "junk.db"
    junk.write_bytes(b"not a database, just bytes " * 200)
    with pytest.raises(_native.SqliteError, match="file is not a database") as err:
        _native.sqlite_verify(str(junk), 1, 10)
    assert err.value.code == 26 and err.value.code_name == "file is not a database"
    assert isinstance(err.value, RuntimeError)
    with pytest.raises(ValueError, match="does not exist"):
        _native.sqlite_verify(str(scratch_dir / "absent.db"), 1, 10)


# ------------------------------------------------------ the benchmark and its files


@pytest.fixture(scope="module")
def tiny_runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    mp = pytest.MonkeyPatch()
    mp.delenv("HOWFAST_DISABLE_SQLITE", raising=False)
    shm_before = _shm_dirs()
    written: list[Path] = []
    real = sqlite_bench.inserts

    def spy(client, path, *args, **kwargs):
        written.append(Path(path))
        return real(client, path, *args, **kwargs)

    mp.setattr(sqlite_bench, "inserts", spy)
    try:
        with environment(tmp_path_factory.mktemp("sqlite")) as base:
            data = store.measure("sqlite", TINY)
            yield {"set": data, "base": base, "written": written, "shm_left": _shm_dirs() - shm_before}
    finally:
        mp.undo()


def _shm_dirs() -> set[str]:
    shm = sqlite_bench.MEMORY_BASE
    return {p.name for p in shm.glob("howfast-*")} if shm.is_dir() else set()


@needs_c_api
def test_every_case_reports_rows_per_second(tiny_runs: dict) -> None:
    metrics = tiny_runs["set"].table(sqlite_bench.INSERTS)
    assert metrics.filter(pl.col("metric") == "unsupported").height == 0
    rates = metrics.filter(pl.col("metric") == "rows_per_s")
    assert rates.height == len(sqlite_bench.insert_cases(TINY)) * TINY.repetitions
    assert (rates["value"] > 0).all()
    # One latency per transaction: rows / batch_size of them, in every case and repetition.
    samples = tiny_runs["set"].table(sqlite_bench.INSERTS, samples=True)
    counts = samples.group_by(["client", "synchronous", "batch_size", "row_size", "rows", "repetition"]).len()
    assert (counts["len"] == counts["rows"] // counts["batch_size"]).all()
    assert counts.height == rates.height


@needs_c_api
def test_files_stay_in_scratch_and_are_removed(tiny_runs: dict) -> None:
    scratch = tiny_runs["base"] / "scratch"
    memory = sqlite_bench.MEMORY_BASE.resolve()
    assert tiny_runs["written"], "the benchmark wrote no database"
    for path in tiny_runs["written"]:
        parent = path.resolve().parent
        assert parent.parent in (scratch.resolve(), memory) and parent.name.startswith("howfast-"), path
    assert list(scratch.iterdir()) == []
    assert tiny_runs["shm_left"] == set()


@needs_c_api
def test_results_are_stored_and_reported(tiny_runs: dict) -> None:
    data = tiny_runs["set"]
    stored = sorted(p.name for p in data.path.iterdir())
    for name in (
        sqlite_bench.INSERTS,
        sqlite_bench.FSYNC_BASELINE,
        shell.NAME,
        sqlite_bench.CLIENT_COST,
        sqlite_bench.ROWS_LAND,
    ):
        assert f"{name}.parquet" in stored
    inserts, baseline = data.table(sqlite_bench.INSERTS), data.table(sqlite_bench.FSYNC_BASELINE)
    table = sqlite_report.rate_table(inserts)
    assert table.height == 6 and table["C API rows/s"].min() > 0 and table["Python rows/s"].min() > 0
    laptop = table.filter((pl.col("synchronous") == "NORMAL") & (pl.col("rows per transaction") == 1))
    assert laptop["laptop rows/s"][0] == pytest.approx(22810.91)
    values = sqlite_report.headline(inserts, baseline, data.table(sqlite_bench.CLIENT_COST), data.table(shell.NAME))
    assert values["us_per_row_normal_1"] == pytest.approx(1e6 / values["c_normal_1"])
    assert values["rows_per_day_seed_method"] == pytest.approx(values["c_normal_1000"] * 86400)
    derived = sqlite_report.derived_table(inserts, baseline)
    assert derived["this machine"].null_count() == 0
    assert derived.filter(pl.col("seed 003").is_not_null())["seed 003"].to_list() == [
        "40 µs",
        "8 µs",
        "11 billion",
        "10 million",
        "1,000×",
    ]
    bars = sqlite_report.versus_bars(inserts)
    versions = data.details["sqlite_versions"]
    assert f"SQLite {versions[sqlite_bench.C_API]}" in sqlite_report.support_sentence(inserts, versions)
    assert set(bars["who"]) >= {"C API, this machine", "Python sqlite3, this machine", "laptop (seeds 000/001)"}


@needs_c_api
@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="the sqlite3 shell is not installed")
def test_the_shell_builds_the_same_database(scratch_dir: Path) -> None:
    for batch in (1, 25):
        script = scratch_dir / f"script-{batch}.sql"
        script.write_text(shell.cli_script(50, batch, 300, "normal"))
        db = scratch_dir / f"shell-{batch}.db"
        shell._run_cli(shutil.which("sqlite3"), script, db)
        assert _native.sqlite_verify(str(db), 50, 300) == {
            "rows": 50,
            "matching": 50,
            "first_bad_id": -1,
            "integrity": "ok",
        }


def test_rows_land_through_each_client(tiny_runs: dict) -> None:
    found = sqlite_report.landed(tiny_runs["set"].table(sqlite_bench.ROWS_LAND))
    assert [f["client"] for f in found] == list(sqlite_bench.CLIENTS)
    for f in found:
        if "note" in f:  # a client this machine lacks says why
            assert f["note"]
        else:
            assert f["rows found"] == f["exact bytes"] == f["rows asked"] > 0 and f["quick_check"] == "ok"
    assert "were found" in sqlite_report.landed_sentence(found)


# ----------------------------------------------------------- without SQLite


def test_disabled_sqlite_is_reported_not_crashed(scratch_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_DISABLE_SQLITE", "1")
    data = store.measure("sqlite", TINY)
    for name in (sqlite_bench.INSERTS, sqlite_bench.CLIENT_COST, sqlite_bench.ROWS_LAND):
        metrics = data.table(name)
        assert (metrics["metric"] == "unsupported").all()
        assert set(metrics["note"]) == {"disabled by HOWFAST_DISABLE_SQLITE"}
    cli = data.table(shell.NAME)
    assert set(cli.filter(pl.col("metric") == "unsupported")["note"]) == {"disabled by HOWFAST_DISABLE_SQLITE"}
    assert list(scratch_dir.iterdir()) == []

    inserts = data.table(sqlite_bench.INSERTS)
    clients = data.table(sqlite_bench.CLIENT_COST)
    table = sqlite_report.rate_table(inserts)
    assert table["C API rows/s"].null_count() == table.height
    assert "disabled by HOWFAST_DISABLE_SQLITE" in table["unsupported"][0]
    assert table["laptop rows/s"].null_count() < table.height  # the seeds are still shown
    values = sqlite_report.headline(inserts, data.table(sqlite_bench.FSYNC_BASELINE), clients, cli)
    numbers = sqlite_report.Numbers(values)
    assert numbers.num("c_normal_1") == "n/a" and numbers.ratio("c_normal_1", "laptop_normal_1") == "n/a"
    assert numbers.num("laptop_normal_1") != "n/a"
    assert "disabled by HOWFAST_DISABLE_SQLITE" in sqlite_report.support_sentence(
        inserts, data.details["sqlite_versions"]
    )
    chart = sqlite_report.commit_latency_chart(None, reasons=inserts).to_dict()
    assert "disabled by HOWFAST_DISABLE_SQLITE" in str(chart)
    assert "disabled by HOWFAST_DISABLE_SQLITE" in sqlite_report.client_cost_table(clients)["unsupported"].to_list()[0]
    assert "could not run" in sqlite_report.landed_sentence(sqlite_report.landed(data.table(sqlite_bench.ROWS_LAND)))
    with pytest.raises(sqlite_bench.Unsupported, match="HOWFAST_DISABLE_SQLITE"):
        sqlite_bench.inserts(sqlite_bench.PYTHON, scratch_dir / "x.db", 10, 1, 10, "normal")
    assert data.table(sqlite_bench.FSYNC_BASELINE).height > 0  # plain fsync needs no SQLite


def test_no_tmpfs_is_reported(tmp_path: Path) -> None:
    assert "not a tmpfs" in sqlite_bench.memory_unsupported(tmp_path)
    assert "does not exist" in sqlite_bench.memory_unsupported(tmp_path / "absent")


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"c_normal_1": 66400.0, "fsync_per_s": 4910.0}, "Yet a NORMAL commit took 15.1 µs, 14× as fast"),
        ({"c_normal_1": 4000.0, "fsync_per_s": 4910.0}, "here it was no faster than the plain pair (0.81× its rate)"),
        ({"c_normal_1": None, "fsync_per_s": 4910.0}, "could not be measured here"),
    ],
)
def test_commit_sentence(values: dict, expected: str) -> None:
    assert expected in sqlite_report.commit_sentence(values)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (
            {"c_full_1": 4380.0, "fsync_per_s": 4910.0, "c_full_1000": 297000.0, "c_normal_1000": 422000.0},
            ["228 µs each, 1.1× the time of a plain `write` + `fsync` (204 µs).", "70 % of NORMAL's rate"],
        ),
        (
            {"c_full_1": 4380.0, "fsync_per_s": 4500.0, "c_full_1000": 297000.0, "c_normal_1000": 422000.0},
            ["228 µs each, about the time of a plain `write` + `fsync` (222 µs)."],
        ),
        (
            {"c_full_1": 541.0, "fsync_per_s": 287.0, "c_full_1000": 88200.0, "c_normal_1000": 138000.0},
            ["1.85 ms each, less than a plain `write` + `fsync` (3.48 ms) took in the same run.", "64 % of"],
        ),
        (
            {"c_full_1": 4380.0, "fsync_per_s": None, "c_full_1000": 450000.0, "c_normal_1000": 422000.0},
            ["228 µs each.", "no fewer than NORMAL's 422,000"],
        ),
        (
            {"c_full_1": None, "fsync_per_s": 4910.0, "c_full_1000": None, "c_normal_1000": None},
            ["how long could not be measured here", "by how much could not be measured here"],
        ),
    ],
)
def test_full_sentence(values: dict, expected: list[str]) -> None:
    text = sqlite_report.full_sentence(values)
    assert all(e in text for e in expected) and "None" not in text
