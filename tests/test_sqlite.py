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
    assert table.height == 6 and "n/a" not in table["C API rows/s"].to_list() + table["Python rows/s"].to_list()
    laptop = table.filter((pl.col("synchronous") == "NORMAL") & (pl.col("rows per transaction") == 1))
    assert laptop["laptop rows/s"][0] == pytest.approx(22810.91)
    values = sqlite_report.headline(inserts, baseline, data.table(sqlite_bench.CLIENT_COST))
    assert values["us_per_row_normal_1"] == pytest.approx(1e6 / values["c_normal_1"])
    assert values["rows_per_day_seed_method"] == pytest.approx(values["c_normal_1000"] * 86400)
    derived = sqlite_report.derived_table(inserts, baseline)
    assert derived["this machine"].null_count() == 0
    assert derived["seed 003"].null_count() == 0
    assert derived.filter(pl.col("seed 003") != "not in the seed")["seed 003"].to_list() == [
        "40 µs",
        "8 µs",
        "11 billion",
        "10 million",
        "1,000×",
    ]
    bars = sqlite_report.versus_bars(inserts)
    versions = data.details["sqlite_versions"]
    assert f"SQLite {versions[sqlite_bench.C_API]}" in sqlite_report.support_sentence(inserts, versions)
    assert set(bars["who"]) >= {"C API (here)", "Python (here)", "laptop (seeds)"}


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
    assert set(table["C API rows/s"].to_list()) == {"n/a"} and table["C API / Python"].null_count() == table.height
    assert "disabled by HOWFAST_DISABLE_SQLITE" in table["unsupported"][0]
    assert table["laptop rows/s"].null_count() < table.height  # the seeds are still shown
    values = sqlite_report.headline(inserts, data.table(sqlite_bench.FSYNC_BASELINE), clients)
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


# --- words decided by data: one test per branch, on made-up runs ---

from howfast import stats  # noqa: E402


def E(median: float, lo: float, hi: float) -> stats.Estimate:
    return stats.Estimate(median, lo, hi, 3, 0.75)


def _inserts(rows_per_run: int, rates: dict[tuple[str, str, int], tuple[float, ...]]) -> pl.DataFrame:
    out = []
    for (client, sync, batch), values in rates.items():
        for rep, v in enumerate(values):
            out.append({"client": client, "synchronous": sync, "batch_size": batch, "row_size": 1000,
                        "rows": rows_per_run, "repetition": rep, "metric": "rows_per_s", "unit": "rows/s",
                        "value": v, "note": None})  # fmt: skip
    return pl.DataFrame(out)


C, PY = sqlite_bench.C_API, sqlite_bench.PYTHON


def test_seed_sentence_not_comparable_at_another_size() -> None:
    small = _inserts(
        10_000, {(C, "normal", 1): (25000.0, 26000, 27000), (C, "normal", 1000): (120000.0, 125000, 130000)}
    )
    text = sqlite_report.seed_sentence(small, "3.40.1")
    assert "not comparable (10,000 rows per run against 1,000,000)" in text
    assert "×" not in text and "Go code" in text and "SQLite 3.40.1" in text


def test_seed_sentence_compares_at_the_seeds_size() -> None:
    same = _inserts(
        1_000_000, {(C, "normal", 1): (25000.0, 26000, 27000), (C, "normal", 1000): (120000.0, 125000, 130000)}
    )
    text = sqlite_report.seed_sentence(same)
    assert (
        "Against the seeds' runs of 1,000,000 rows (synchronous NORMAL): with one row per transaction, at the "
        "seeds' size, the C loop was"
        in text
        and "faster than the laptop (22,800" in text
    )
    assert "the phone (4,880" in text and "not comparable" not in text and "client" in text
    assert "could not be set beside" in sqlite_report.seed_sentence(_inserts(10, {}).clear())


def test_baseline_sentence_names_its_run() -> None:
    baseline = pl.DataFrame({"method": ["fsync"] * 3, "record_size": [4096] * 3, "writes": [200] * 3,
                             "repetition": [0, 1, 2], "metric": ["writes_per_s"] * 3, "unit": ["writes/s"] * 3,
                             "value": [250.0, 269.0, 300.0], "note": [None] * 3})  # fmt: skip
    text = sqlite_report.baseline_sentence(baseline)
    assert "200 writes of 4 KiB" in text and "269 plain write + fsync pairs per second (250–300, 3 runs)" in text
    assert "The fsync chapter measures the same pair in runs of its own" in text and "They are other runs" in text
    assert "could not be measured" in sqlite_report.baseline_sentence(baseline.clear())

    def runs(*rows: tuple[float, float, float, str]) -> pl.DataFrame:
        return pl.DataFrame([{"writes/s": m, "lo": lo, "hi": hi, "repetitions": 3, "prose": p}
                             for m, lo, hi, p in rows])  # fmt: skip

    apart = sqlite_report.baseline_sentence(baseline, runs((926.0, 886, 1080, "the sweep"), (450.0, 340, 489, "gc")))
    assert ("The fsync chapter's 2 measurements of the same pair gave 450 (340–489, gc) to 926 (886–1,080, the "
            "sweep) per second at the median. This run's interval lies below every one of them. They are other "
            "runs") in apart  # fmt: skip
    above = sqlite_report.baseline_sentence(baseline, runs((100.0, 90, 110, "slow")))
    assert "gave 100 (90–110, slow) per second at the median. This run's interval lies above every one" in above
    mixed = sqlite_report.baseline_sentence(baseline, runs((280.0, 200, 320, "near"), (926.0, 886, 1080, "far")))
    assert "per second at the median. They are other runs" in mixed and "lies" not in mixed


@pytest.mark.parametrize(
    ("normal", "plain", "expected"),
    [
        (E(25000, 24000, 26000), E(270, 250, 300), "Yet a NORMAL commit took 40 µs on average, 93× as many per second"),
        (E(280, 200, 330), E(270, 250, 300), "here it was not clearly faster or slower than the plain pair"),
        (E(200, 190, 210), E(270, 250, 300), "here it was 1.4× slower than the plain pair"),
        (None, E(270, 250, 300), "could not be measured here"),
    ],
)
def test_normal_commit_sentence(normal, plain, expected: str) -> None:
    text = sqlite_report.normal_commit_sentence(normal, plain)
    assert expected in text
    # 'surprises', and what a commit may cost instead, only where NORMAL was clearly faster, as a possibility
    clear = normal is not None and normal.lo > plain.hi
    assert ("and that is the number that surprises" in text) == clear
    assert ("What it costs instead may be a handful of system calls" in text) == clear
    assert " is a handful" not in text
    if normal is not None and not clear:
        assert text.endswith("This page does not trace where its time went.")


def test_plain_fsync_sentence_and_the_derived_table_give_one_factor() -> None:
    plain = E(270, 250, 300)
    batched = E(14000, 13000, 15000)
    cell = sqlite_report._factor_cell(batched, plain)
    assert cell == "52× (43–60×)"
    win = sqlite_report.plain_fsync_sentence(batched, plain)
    assert win == (
        "So batching and WAL win here: 4 KiB rows went in 52× faster than a plain write and fsync per row (43–60×)."
    )
    slower = sqlite_report.plain_fsync_sentence(E(200, 190, 210), plain)
    assert slower.startswith("So batching and WAL did not win here: 4 KiB rows went in 1.4× slower than a plain")
    unclear = sqlite_report.plain_fsync_sentence(E(280, 200, 330), plain)
    assert "did not win" in unclear and "not clearly faster or slower than a plain write and fsync per row" in unclear
    missing = sqlite_report.plain_fsync_sentence(None, plain)
    assert missing == "How batched rows compare with a plain write and fsync per row could not be measured here."
    assert sqlite_report._factor_cell(None, plain) is None


@pytest.mark.parametrize(
    ("full", "plain", "batched", "normal", "expected"),
    [
        (E(200, 190, 210), E(270, 250, 300), E(90000, 85000, 95000), E(120000, 110000, 130000),
         ["1.4× slower than the plain write + fsync", "SQLite's own work besides", "1.3× slower than NORMAL"]),
        (E(510, 380, 560), E(270, 250, 300), E(90000, 80000, 130000), E(120000, 85000, 140000),
         ["1.9× faster than the plain write + fsync of the baseline run", "SQLite syncs its log with fdatasync",
          "not clearly faster or slower than NORMAL"]),
        (E(270, 268, 272), E(270, 269, 271), E(120000, 119000, 121000), E(120000, 119500, 120500),
         ["about as fast as the plain write + fsync", "about as fast as NORMAL"]),
        (E(300, 200, 400), None, None, None, ["each on average.", "by how much could not be measured here"]),
        (None, E(270, 250, 300), None, None, ["how long could not be measured here"]),
    ],
)  # fmt: skip
def test_full_commit_sentence(full, plain, batched, normal, expected: list[str]) -> None:
    text = sqlite_report.full_commit_sentence(full, plain, batched, normal, checkpointed=True)
    assert all(e in text for e in expected), text
    assert "`" not in text


@pytest.mark.parametrize(
    ("checkpointed", "expected", "absent"),
    [
        (True, "once a checkpoint has reset the log it writes over blocks the file already holds", "never filled"),
        (False, "These runs never filled the log to the 1,000 pages that start a checkpoint, so every FULL commit "
                "appended to a log that only grew, as the plain pair appends to a new file: both extend a file and "
                "sync it, and this page has not found what makes the gap.", "reset the log it writes over"),
        (None, "Whether a checkpoint reset SQLite's log during these runs is not recorded", "reset the log it writes"),
    ],
)  # fmt: skip
def test_full_commit_sentence_explains_a_faster_full_only_after_a_checkpoint(checkpointed, expected, absent) -> None:
    text = sqlite_report.full_commit_sentence(E(510, 380, 560), E(270, 250, 300), None, None, checkpointed)
    assert "1.9× faster than the plain write + fsync of the baseline run." in text
    assert expected in text and absent not in text


def test_checkpoint_in_run_reads_the_log_size_before_the_last_checkpoint() -> None:
    def sized(rows: int, size: float, sync: str = "full") -> pl.DataFrame:
        return pl.DataFrame([{"client": C, "synchronous": sync, "batch_size": 1, "row_size": 1000, "rows": rows,
                              "repetition": r, "metric": "db_plus_wal_bytes", "unit": "bytes", "value": size,
                              "note": None} for r in range(3)])  # fmt: skip

    # quick: 300 one-row FULL commits left 451 frames in a log that never reset
    assert sqlite_report.checkpoint_in_run(sized(300, 4096 + 32 + 451 * 4120.0)) is False
    # full: 20,000 commits; the log was reset at 1,000 pages and reused, the database grew
    assert sqlite_report.checkpoint_in_run(sized(20_000, 21e6 + 1003 * 4120.0)) is True
    assert sqlite_report.checkpoint_in_run(sized(300, 1e6, sync="normal")) is None  # no FULL case stored
    assert sqlite_report.checkpoint_in_run(pl.DataFrame()) is None


def _cpu(values: dict[tuple[str, int], tuple[float, ...]]) -> pl.DataFrame:
    rows = [
        {"client": client, "batch_size": batch, "repetition": r, "metric": "cpu_us_per_row", "value": v,
         "unit": "us", "note": None}
        for (client, batch), runs in values.items() for r, v in enumerate(runs)
    ]  # fmt: skip
    return pl.DataFrame(rows, schema_overrides={"note": pl.String})


def test_client_adds() -> None:
    base = {(C, 1000): (2.36, 2.44, 2.89)}
    clear = sqlite_report.client_adds(_cpu(base | {(PY, 1000): (3.0, 3.0, 3.26)}), PY, 1000)
    assert clear == "added 0.56 µs of CPU time per row"
    overlap = sqlite_report.client_adds(_cpu(base | {(PY, 1000): (2.6, 2.67, 2.73)}), PY, 1000)
    assert overlap.startswith("added 0.23 µs of CPU time per row by the medians, though its intervals overlap")
    nothing = sqlite_report.client_adds(_cpu(base | {(PY, 1000): (2.3, 2.4, 2.5)}), PY, 1000, verb="cost the C loop")
    assert nothing == "cost the C loop no CPU time per row that the runs can show"
    less = sqlite_report.client_adds(_cpu(base | {(PY, 1000): (1.0, 1.1, 1.2)}), PY, 1000, per="transaction")
    assert less.startswith("added no CPU time per transaction at all")
    assert "could not be measured here" in sqlite_report.client_adds(_cpu(base), PY, 1000)
    assert "could not be measured here" in sqlite_report.client_adds(pl.DataFrame(), PY, 1000)


def test_off_sentence() -> None:
    normal_1, normal_k = E(25700, 24300, 30900), E(125000, 83300, 142000)
    unclear = sqlite_report.off_sentence(E(31900, 18200, 43800), normal_1, E(153000, 91600, 197000), normal_k)
    assert "gave 31,900 rows per second with one row per transaction, not clearly faster or slower" in unclear
    assert "; and 153,000 rows per second with 1,000 rows per transaction" in unclear
    assert (
        "With one row and with 1,000 rows per transaction, OFF was not clearly faster than NORMAL, perhaps because "
        "NORMAL too skips the sync at commit"
    ) in unclear
    faster = sqlite_report.off_sentence(E(40000, 39000, 41000), normal_1, None, normal_k)
    assert "40,000 rows per second with one row per transaction, 1.6× faster than NORMAL." in faster
    assert "1,000 rows" not in faster and "perhaps because" not in faster
    # one batch size clearly faster, the other not: the possible reason names only the one that was not
    mixed = sqlite_report.off_sentence(E(40000, 39000, 41000), normal_1, E(153000, 91600, 197000), normal_k)
    assert "1.6× faster than NORMAL; and 153,000 rows per second" in mixed
    assert mixed.endswith(
        "With 1,000 rows per transaction, OFF was not clearly faster than NORMAL, perhaps because NORMAL too skips the "
        "sync at commit and syncs only before a checkpoint."
    )
    alone = sqlite_report.off_sentence(E(40000, 39000, 41000), None, None, None)
    assert alone == "Dropping the syncs altogether (OFF) gave 40,000 rows per second with one row per transaction."
    assert "could not be measured here" in sqlite_report.off_sentence(None, normal_1, None, normal_k)


def test_memory_rates_sentence() -> None:
    disk = E(125000, 83300, 142000)
    slower = sqlite_report.memory_rates_sentence(E(69700, 55300, 75000), disk)
    assert slower.startswith(
        "The batched 69,700 rows per second in memory are 1.8× slower than the same loop on the disk, batched the "
        "same way, at 125,000 rows per second ("
    )
    assert "compared by CPU time" in slower
    overlap = sqlite_report.memory_rates_sentence(E(110000, 90000, 130000), disk)
    assert "not clearly faster or slower than the same loop on the disk" in overlap and "CPU time" in overlap
    faster = sqlite_report.memory_rates_sentence(E(300000, 290000, 310000), disk)
    assert "faster than the same loop on the disk" in faster and "A file system in memory may be why" in faster
    assert faster.startswith("The batched 300,000 rows per second in memory are 2.4× faster than") and "–" in faster
    assert "should be" not in faster
    assert "could not be measured here" in sqlite_report.memory_rates_sentence(None, disk)


def test_seed_cell_says_why_a_seed_figure_is_missing() -> None:
    assert sqlite_report.seed_cell(None) == "not run"
    assert sqlite_report.seed_cell(22800.0) == "22,800"
    shown = sqlite_report.seed_cells(pl.DataFrame({"laptop rows/s": [22800.0, None], "phone rows/s": [None, None]}))
    assert shown.rows() == [("22,800", "not run"), ("not run", "not run")]


def test_cost_cell_hides_sign_noise() -> None:
    assert sqlite_report.cost_cell(-0.0633) == "none beyond noise"
    assert sqlite_report.cost_cell(0.0) == "baseline"
    assert sqlite_report.cost_cell(0.556) == "0.556"
    assert sqlite_report.cost_cell(None) == "n/a"


def _shell(ratios: dict[int, tuple[float, ...]]) -> pl.DataFrame:
    rows = []
    for batch, values in ratios.items():
        for rep, r in enumerate(values):
            rows += [
                {
                    "tool": "howfast",
                    "batch_size": batch,
                    "repetition": rep,
                    "metric": "rows_per_s",
                    "value": 1000.0 * r,
                },
                {"tool": "sqlite3", "batch_size": batch, "repetition": rep, "metric": "rows_per_s", "value": 1000.0},
            ]
    return pl.DataFrame(rows)


def test_shell_check_sentence() -> None:
    good = sqlite_report.shell_check_sentence(_shell({1: (1.4, 1.5, 1.6), 1000: (0.98, 1.0, 1.02)}))
    assert "is faster than the shell (median per round 1.5×, interval 1.4–1.6×)" in good and "as it should be" in good
    assert "agrees with the shell" in good and "adds little of its own" in good
    open_ = sqlite_report.shell_check_sentence(_shell({1: (0.9, 1.2, 1.5), 1000: (0.6, 0.9, 1.1)}))
    assert "not clearly slower" in open_ and "leaves that half of the check open" in open_
    assert "cannot be told apart from the shell on this machine (median per round 1.2×, interval 0.9–1.5×" in open_
    bad = sqlite_report.shell_check_sentence(_shell({1: (0.5, 0.6, 0.7), 1000: (0.5, 0.6, 0.7)}))
    assert "read the loop's numbers on this machine with care" in bad and "batched numbers with care" in bad
    assert "could not run here" in sqlite_report.shell_check_sentence(_shell({1: (1.0,)}))
    # a small deficit with big batches is what generate_series leads to expect, not a warning
    small = sqlite_report.shell_check_sentence(_shell({1: (1.3, 1.4, 1.5), 1000: (0.897, 0.92, 0.9997)}))
    assert "is slower than the shell (median per round 0.92×, interval 0.897–0.9997×)" in small
    assert "a loop a little below the shell is what to expect" in small and "with care" not in small


@pytest.mark.parametrize("rate", [E(25000, 24000, 26000), E(200, 190, 210)])
def test_normal_commit_sentence_says_normal_flushes_only_before_checkpoints(rate) -> None:
    text = sqlite_report.normal_commit_sentence(rate, E(270, 250, 300))
    assert "does not flush at commit (only before checkpoints)" in text and "at all" not in text


def test_cli_table_gives_the_sentences_ratio() -> None:
    metrics = _shell({1: (0.9, 1.2, 1.5), 1000: (0.99, 1.0, 1.02)}).with_columns(
        unit=pl.lit("rows/s"), note=pl.lit(None, pl.String)
    )
    table = sqlite_report.cli_table(metrics)
    ratios = sqlite_report.shell_ratios(metrics)
    assert [ratios[1].median, ratios[1000].median] == [1.2, 1.0]
    assert table[sqlite_report.SHELL_RATIO].to_list() == ["1.2× (0.9–1.5×)", "1× (0.99–1.02×)"]
    assert table["rounds"].to_list() == [3, 3]
    # each side: the median with the interval of that median (3 runs: min–max), the unstable mark past the target
    marked = sqlite_report.cli_table(metrics, target=0.1)
    assert marked["C API rows/s"].to_list() == ["1,200 (900–1,500); unstable: ±25 %", "1,000 (990–1,020)"]
    assert marked["sqlite3 shell rows/s"].to_list() == ["1,000 (no spread)", "1,000 (no spread)"]


def test_python_rates_sentence() -> None:
    metrics = _inserts(10_000, {
        (C, "normal", 1): (25000.0, 26000, 27000), (PY, "normal", 1): (20000.0, 21000, 22000),
        (C, "off", 1): (30000.0, 31000, 40000), (PY, "off", 1): (25000.0, 32000, 36000),
        (C, "full", 1): (500.0, 510, 520), (PY, "full", 1): (600.0, 610, 620),
    })  # fmt: skip
    text = sqlite_report.python_rates_sentence(metrics)
    assert "clearly slower than the C loop in 1 of 3 configurations" in text
    assert "clearly faster in 1" in text and "in 1 the intervals overlap" in text
    assert "could run here" in sqlite_report.python_rates_sentence(metrics.clear())


@pytest.mark.parametrize(
    ("batched", "normal", "expected"),
    [
        (E(90000, 85000, 95000), E(120000, 110000, 130000), "FULL was 1.3× slower than NORMAL"),
        (E(90000, 80000, 130000), E(120000, 85000, 140000), "not clearly faster or slower than NORMAL"),
        (None, E(120000, 110000, 130000), "could not be measured here"),
    ],
)
def test_full_rule(batched, normal, expected: str) -> None:
    assert expected in sqlite_report.full_rule(batched, normal)


# --- Issue 20: every table's figure carries the interval of its median and its run count ---


def test_rate_table_cells_carry_interval_runs_and_the_ratio_range() -> None:
    metrics = _inserts(10_000, {
        (C, "normal", 1): (24000.0, 25000, 30000), (PY, "normal", 1): (16000.0, 20000, 21000),
        (C, "full", 1): (400.0, 500, 600), (PY, "full", 1): (390.0, 400, 410),
    })  # fmt: skip
    table = sqlite_report.rate_table(metrics, target=0.1)
    assert table.columns == ["synchronous", "rows per transaction", "C API rows/s", "Python rows/s", "runs",
                             "C API / Python", "laptop rows/s", "phone rows/s"]  # fmt: skip
    normal, full = table.rows(named=True)
    assert normal["C API rows/s"] == "25,000 (24,000–30,000); unstable: −4 %/+20 %"
    assert normal["Python rows/s"] == "20,000 (16,000–21,000); unstable: −20 %/+5 %"
    assert normal["runs"] == 3 and normal["C API / Python"] == "1.2× (1.14–1.9×)"
    assert full["C API rows/s"] == "500 (400–600); unstable: ±20 %" and full["Python rows/s"] == "400 (390–410)"
    assert full["C API / Python"] == "1.2× (0.98–1.5×)"  # a range holding 1: the clients are not told apart
    assert full["laptop rows/s"] is None  # the seeds did not run FULL (seed_cells says so)
    # clients that ran a different number of times: each cell carries its own count
    uneven = _inserts(10_000, {(C, "normal", 1): (24000.0, 25000, 30000, 26000), (PY, "normal", 1): (16000.0, 20000)})
    cells = sqlite_report.rate_table(uneven).row(0, named=True)
    assert "runs" not in cells and cells["C API rows/s"] == "25,500 (24,000–30,000, 4 runs)"
    assert cells["Python rows/s"] == "18,000 (16,000–20,000, 2 runs)"


def test_versus_bars_carry_the_interval_of_each_median() -> None:
    bars = sqlite_report.versus_bars(_inserts(10_000, {(C, "normal", 1): (24000.0, 25000, 30000)}))
    ours = bars.filter(pl.col("who") == "C API (here)").row(0, named=True)
    assert (ours["median"], ours["lo"], ours["hi"], ours["repetitions"]) == (25000.0, 24000.0, 30000.0, 3)
    seed = bars.filter(pl.col("who") == "laptop (seeds)").row(0, named=True)
    assert seed["lo"] == seed["hi"] == seed["median"] and seed["repetitions"] is None


def _clients(cases: dict[tuple[str, int], tuple[tuple[float, float], ...]]) -> pl.DataFrame:
    rows = []
    for (client, batch), runs in cases.items():
        for rep, (rate, cpu) in enumerate(runs):
            for metric, value in (("rows_per_s", rate), ("cpu_us_per_row", cpu)):
                rows.append({"client": client, "batch_size": batch, "repetition": rep, "metric": metric,
                             "unit": "", "value": value, "note": None})  # fmt: skip
    return pl.DataFrame(rows)


def test_client_cost_table_cells_and_what_each_client_adds() -> None:
    many, again = sqlite_bench.PYTHON_EXECUTEMANY, sqlite_bench.C_API_REPREPARE
    metrics = _clients({
        (C, 1000): ((60000.0, 2.4), (70000.0, 2.45), (75000.0, 2.9)),
        (PY, 1000): ((50000.0, 3.0), (57000.0, 3.0), (60000.0, 3.3)),
        (many, 1000): ((60000.0, 2.6), (68000.0, 2.67), (70000.0, 2.7)),
        (again, 1000): ((58000.0, 2.35), (59000.0, 2.38), (60000.0, 2.45)),
    })  # fmt: skip
    table = sqlite_report.client_cost_table(metrics, target=0.1)
    assert table.columns == ["client", "rows per transaction", "rows/s", "CPU µs per row", "runs", "adds (µs/row)"]
    rows = {r["client"]: r for r in table.rows(named=True)}
    assert rows["C API"]["rows/s"] == "70,000 (60,000–75,000); unstable: −14 %/+7 %"
    assert rows["C API"]["CPU µs per row"] == "2.45 (2.4–2.9); unstable: −2 %/+18 %"
    assert rows["C API"]["adds (µs/row)"] == "baseline" and rows["C API"]["runs"] == 3
    assert rows["Python sqlite3"]["adds (µs/row)"] == "0.55"  # its interval lies above the loop's
    assert rows["Python sqlite3, executemany"]["adds (µs/row)"] == "0.22 (intervals overlap)"
    assert rows["C API, INSERT prepared per transaction"]["adds (µs/row)"] == "none beyond noise"


def test_adds_cell_branches() -> None:
    base = E(2.4, 2.35, 2.5)
    assert sqlite_report.adds_cell(E(3.0, 2.9, 3.1), base) == "0.6"
    assert sqlite_report.adds_cell(E(2.6, 2.45, 2.7), base) == "0.2 (intervals overlap)"
    assert sqlite_report.adds_cell(E(2.3, 2.2, 2.45), base) == "none beyond noise"
    assert sqlite_report.adds_cell(E(2.0, 1.9, 2.1), base) == "none beyond noise"
    assert sqlite_report.adds_cell(None, base) == "n/a" and sqlite_report.adds_cell(base, None) == "n/a"
    assert sqlite_report.adds_cell(base, base, itself=True) == "baseline"


def test_derived_table_carries_each_interval_through() -> None:
    metrics = _inserts(
        10_000, {(C, "normal", 1): (20000.0, 25000, 40000), (C, "normal", 1000): (100000.0, 125000, 130000)}
    )
    baseline = pl.DataFrame([{"method": "plain", "repetition": r, "metric": "writes_per_s", "unit": "1/s", "value": v,
                              "note": None} for r, v in enumerate((250.0, 270.0, 300.0))])  # fmt: skip
    table = sqlite_report.derived_table(metrics, baseline, target=0.1)
    ours = dict(zip(table["quantity"], table["this machine"]))
    # 1 / rate: the interval turned round with it (1e6 / 40,000 = 25 µs, 1e6 / 20,000 = 50 µs)
    assert (
        ours["time per row, synchronous NORMAL, 1 row per transaction"] == "40 µs (25–50 µs, 3 runs); unstable: ±31 %"
    )
    assert (
        ours["time per row, synchronous NORMAL, 1,000 rows per transaction"]
        == "8 µs (7.69–10 µs, 3 runs); unstable: −4 %/+25 %"
    )
    assert ours["time per row, synchronous FULL, 1 row per transaction"] == "not measured here"
    seed_method = "rows a day, 1,000-byte rows, NORMAL, 1,000 per transaction (the seed's arithmetic)"
    assert ours[seed_method] == "10.8 billion (8.64–11.2 billion, 3 runs); unstable: −20 %/+4 %"
    assert ours["rows of 4 KiB a day, one write + fsync each"] == "23.3 million (21.6–25.9 million, 3 runs)"
    assert ours["batched SQLite over plain fsync"] == "not measured here"  # no 4 KiB rows measured


def test_batch_sentence_reads_right_either_way() -> None:
    raised = sqlite_report.batch_sentence(E(125000, 83000, 142000), E(25700, 24300, 30900))
    assert (
        raised == "Batching 1,000 rows per transaction raised that to 125,000 rows per second "
        "(4.9× faster than one row per transaction)."
    )
    overlap = sqlite_report.batch_sentence(E(30000, 20000, 40000), E(25700, 24300, 30900))
    assert "gave 30,000 rows per second, not clearly faster or slower than one row per transaction" in overlap
    assert "raised" not in overlap and "bought nothing the runs can show" in overlap
    slower = sqlite_report.batch_sentence(E(10000, 9000, 11000), E(25700, 24300, 30900))
    assert "2.6× slower than one row per transaction" in slower and "raised" not in slower
    assert "could not be measured here" in sqlite_report.batch_sentence(None, E(1, 1, 1))


def test_run_sizes_name_every_setting_of_another_size() -> None:
    metrics = _inserts(10_000, {(C, "normal", 1): (1.0,), (PY, "normal", 1): (1.0,)})
    full = _inserts(300, {(C, "full", 1): (1.0,)})
    batched = _inserts(30_000, {(C, "normal", 1000): (1.0,), (C, "full", 1000): (1.0,)})
    text = sqlite_report.run_sizes(pl.concat([metrics, full, batched]))
    assert text == (
        "10,000 rows one at a time (300 with synchronous FULL, where every row waits for a flush), "
        "or 30,000 rows in transactions of 1,000"
    )
    assert sqlite_report.run_sizes(metrics) == "10,000 rows one at a time"
    assert "could not run" in sqlite_report.run_sizes(metrics.clear())


def test_shell_runs_sentence_sets_the_loops_two_figures_side_by_side() -> None:
    shell = _shell({1: (0.9, 1.0, 1.1), 1000: (0.99, 1.0, 1.02)}).with_columns(
        unit=pl.lit("rows/s"), note=pl.lit(None, pl.String), rows=pl.lit(5000)
    )
    inserts = _inserts(10_000, {(C, "normal", 1): (2000.0, 2500, 3000), (C, "normal", 1000): (950.0, 1000, 1100)})
    text = sqlite_report.shell_runs_sentence(shell, inserts)
    assert "one row per transaction (runs of 5,000 rows), 1,000 rows per second against 2,500, intervals apart" in text
    assert (
        "1,000 rows per transaction (runs of 5,000 rows), 1,000 rows per second against 1,000, intervals overlapping"
        in text
    )
    assert "Where the intervals lie apart, the same loop ran at another moment" in text
    together = sqlite_report.shell_runs_sentence(shell, _inserts(10_000, {(C, "normal", 1): (900.0, 1000, 1100)}))
    assert "Where the intervals lie apart" not in together and "intervals overlapping" in together
    assert sqlite_report.shell_runs_sentence(pl.DataFrame(), inserts) == ""


def test_split_rates_sets_the_seeds_apart_and_drops_rows_they_never_ran() -> None:
    table = pl.DataFrame({"synchronous": ["NORMAL", "FULL"], "rows per transaction": [1, 1],
                          "C API rows/s": ["25,700 (24,300–30,900)", "510 (383–563)"], "runs": [3, 3],
                          "laptop rows/s": [22800.0, None], "phone rows/s": [4880.0, None]})  # fmt: skip
    ours, seeds = sqlite_report.split_rates(sqlite_report.seed_cells(table))
    assert ours.columns == ["synchronous", "rows per transaction", "C API rows/s", "runs"]
    assert seeds.rows() == [("NORMAL", 1, "22,800", "4,880")]
    alone, none = sqlite_report.split_rates(table.drop("laptop rows/s", "phone rows/s"))
    assert alone.columns == ["synchronous", "rows per transaction", "C API rows/s", "runs"]
    assert none.columns == ["synchronous", "rows per transaction"]


# --- review fixes ---


def test_seed_sentence_decides_per_batch_size_as_the_full_profile_runs() -> None:
    # the full profile: 100,000 one-row transactions, 1,000,000 rows in batches of 1,000
    full = pl.concat([
        _inserts(100_000, {(C, "normal", 1): (25000.0, 26000, 27000)}),
        _inserts(1_000_000, {(C, "normal", 1000): (120000.0, 125000, 130000)}),
    ])  # fmt: skip
    text = sqlite_report.seed_sentence(full, "3.40.1")
    assert "with one row per transaction, not comparable (100,000 rows per run against 1,000,000)" in text
    assert "with 1,000 rows per transaction, at the seeds' size, the C loop was" in text
    assert "the laptop (" in text and "full profile" not in text and "SQLite 3.40.1" in text
    # the quick profile: neither size matches; the plan says which the full profile compares
    quick = _inserts(10_000, {(C, "normal", 1): (25000.0, 26000, 27000)})
    quick = pl.concat([quick, _inserts(30_000, {(C, "normal", 1000): (120000.0, 125000, 130000)})])
    text = sqlite_report.seed_sentence(quick)
    assert "not comparable (10,000 rows per run" in text and "not comparable (30,000 rows per run" in text
    assert "the full profile inserts the seeds' 1,000,000 rows with 1,000 rows per transaction" in text
    assert "×" not in text


def test_client_adds_gives_the_reason_only_with_a_clear_cost() -> None:
    base = {(C, 1000): (2.36, 2.44, 2.89)}
    clear = sqlite_report.client_adds(_cpu(base | {(PY, 1000): (3.0, 3.0, 3.26)}), PY, 1000, why=": it may cost")
    assert clear == "added 0.56 µs of CPU time per row: it may cost"
    nothing = sqlite_report.client_adds(_cpu(base | {(PY, 1000): (2.3, 2.4, 2.5)}), PY, 1000, why=": it may cost")
    assert "may cost" not in nothing


def test_client_weight_sentence_and_rule() -> None:
    cpu = _cpu(
        {(C, 1000): (2.0, 2.1, 2.2), (PY, 1000): (3.0, 3.1, 3.2), (C, 1): (10.0, 11, 12), (PY, 1): (20.0, 21, 22)}
    )
    full, batched = E(250, 240, 260), E(125000, 120000, 130000)  # 4 ms a commit, 8 µs a batched row
    text = sqlite_report.client_weight_sentence(cpu, full, batched)
    # each share with the added time it is computed from, in its own clause
    assert text == (
        "Python's extra CPU time per row, set beside the disk: with one row per transaction it added 10 µs, 0.25 % "
        "of a one-row commit that waits for a flush (4 ms here): too little to matter; in transactions of 1,000 it "
        "added 1 µs, 12 % of a batched row on this machine's disk with NORMAL (8 µs here): enough to weigh."
    )
    none = _cpu(
        {(C, 1000): (2.0, 2.1, 2.2), (PY, 1000): (1.9, 2.0, 2.3), (C, 1): (10.0, 11, 12), (PY, 1): (9.0, 11, 13)}
    )
    assert sqlite_report.client_weight_sentence(none, full, batched) == (
        "The runs show no client cost to weigh against the disk."
    )
    assert "%" not in sqlite_report.client_weight_sentence(none, full, batched)  # never a negative share
    assert "could not be measured here" in sqlite_report.client_weight_sentence(cpu, None, batched)
    # beside the FULL commit, the same added time against a one-row NORMAL commit (40 µs here)
    both = sqlite_report.client_weight_sentence(cpu, full, batched, E(25000, 24000, 26000))
    assert (
        "it added 10 µs, 0.25 % of a one-row commit that waits for a flush (4 ms here): too little to matter, and "
        "25 % of a one-row NORMAL commit, which does not wait for one (40 µs here): enough to weigh; in transactions"
    ) in both
    rule_both = sqlite_report.client_rule(cpu, full, E(25000, 24000, 26000))
    assert (
        "0.25 % of a one-row FULL commit's 4 ms, too little to matter. Against a one-row NORMAL commit, which does "
        "not wait for a flush (40 µs here), the same time is 25 %: enough to weigh."
    ) in rule_both
    assert "NORMAL commit" not in sqlite_report.client_rule(cpu, full)
    rule = sqlite_report.client_rule(cpu, full)
    # the same pair the sentence weighs first: one row per transaction against a one-row FULL commit
    assert rule.startswith("The client matters less than the commit: with one row per transaction Python added 10 µs")
    assert "0.25 % of a one-row FULL commit's 4 ms, too little to matter." in rule
    assert rule.endswith("How fast rows must come for the client to weigh, this run could not measure.")
    assert "counts" not in text + rule
    assert sqlite_report.client_rule(none, full).startswith("The runs show no client cost to weigh:")
    assert "Here the client cost more than a commit" in sqlite_report.client_rule(cpu, E(1e7, 0.9e7, 1.1e7))
    assert "could not be measured here" in sqlite_report.client_rule(cpu, None)


def _with_memory_rates(cpu: pl.DataFrame, runs: tuple[float, ...]) -> pl.DataFrame:
    """`cpu` with the C loop's rows/s in memory, 1,000 rows per transaction."""
    rows = [{"client": C, "batch_size": 1000, "repetition": r, "metric": "rows_per_s", "value": v, "unit": "rows/s",
             "note": None} for r, v in enumerate(runs)]  # fmt: skip
    return pl.concat([cpu, pl.DataFrame(rows, schema_overrides={"note": pl.String})])


def test_client_rule_weighs_the_commit_by_its_interval_and_the_rate_by_the_c_loop() -> None:
    runs = {(C, 1000): (2.0, 2.1, 2.2), (PY, 1000): (3.0, 3.1, 3.2), (C, 1): (10.0, 11, 12), (PY, 1): (20.0, 21, 22)}
    full = E(250, 240, 260)  # 4 ms a commit
    # the rate comes from the C loop in memory: 200,000 rows/s is 5 µs a row, and Python's 1 µs more weighs
    fast = sqlite_report.client_rule(_with_memory_rates(_cpu(runs), (190000.0, 200000, 210000)), full)
    assert fast.endswith(
        "too little to matter. Reach for C when rows come about as fast as the C loop inserted them in memory, not to "
        "speed up commits that wait for a disk: in memory the C loop inserted 200,000 rows per second in transactions "
        "of 1,000, 5 µs a row, and Python added 1 µs of CPU time per row, 20 % of that: enough to weigh."
    )
    assert "hundred thousand" not in fast
    light = sqlite_report.client_rule(_with_memory_rates(_cpu(runs), (19000.0, 20000, 21000)), full)
    assert "Reach for C" not in light and light.endswith("2 % of that: a small part of it.")
    hidden = {**runs, (PY, 1000): (1.9, 2.1, 2.3)}
    unseen = sqlite_report.client_rule(_with_memory_rates(_cpu(hidden), (190000.0, 200000, 210000)), full)
    assert "Reach for C" not in unseen and "Python's cost per row did not show clearly" in unseen
    # a share that weighs: no advice against C for commits
    weighs = sqlite_report.client_rule(_cpu(runs), E(20000, 19000, 21000))  # 50 µs a commit
    assert weighs == (
        "The client cost less than the commit, but not little: with one row per transaction Python added 10 µs of CPU "
        "time per row, 20 % of a one-row FULL commit's 50 µs, enough to weigh; so a leaner client may shorten even "
        "commits that wait for a disk."
    )
    # set against the commit's interval, not its median alone
    close = sqlite_report.client_rule(_cpu(runs), E(100000, 80000, 125000))  # 8–12.5 µs a commit
    assert close.startswith("Here the runs cannot tell whether the client cost more or less than a commit:")
    assert close.endswith("; the intervals overlap.") and "matters less" not in close
    near = sqlite_report.client_rule(_cpu(runs), E(90000, 89000, 91000))  # 11 µs a commit, against 8–12 µs
    assert near.startswith("Here the runs cannot tell whether the client cost more or less than a commit:")


def test_weight_words_thresholds() -> None:
    assert sqlite_report.weight_words(0.005) == "too little to matter"
    assert sqlite_report.weight_words(0.016) == "a small part of it"
    assert sqlite_report.weight_words(0.15) == "enough to weigh"
    with pytest.raises(ValueError, match="share"):
        sqlite_report.weight_words(-0.1)


def test_ratio_cell_gives_the_median_to_two_digits_and_keeps_the_ends() -> None:
    assert sqlite_report._ratio_cell(E(274000, 261000, 305000), E(250000, 226000, 262000)) == "1.1× (0.996–1.3×)"
    assert sqlite_report._ratio_cell(E(100, 100, 100), E(50, 50, 50)) == "2×"
    assert sqlite_report._ratio_cell(None, E(50, 50, 50)) is None


def test_share_verdict_thresholds() -> None:
    assert sqlite_report.share_verdict(0.005) == "under 1 %: there it vanishes"
    assert sqlite_report.share_verdict(0.013) == "under 10 %: a small part of it"
    assert sqlite_report.share_verdict(0.18) == "there it weighs"
    with pytest.raises(ValueError, match="share"):
        sqlite_report.share_verdict(-0.1)


@pytest.mark.parametrize(
    ("normal", "plain", "expected", "absent"),
    [
        (E(25000, 24000, 26000), E(270, 250, 300), "one thread committed 25,000 one-row transactions per second "
         "here, 93× faster than the 270 plain write + fsync pairs per second of the baseline run (80–100×).",
         "did not show"),
        (E(280, 200, 330), E(270, 250, 300), "yet one thread committed 280 one-row transactions per second here, "
         "not clearly faster or slower than the 270 plain write + fsync pairs", "and one thread"),
        (E(200, 190, 210), E(270, 250, 300), "1.4× slower than the 270 plain write + fsync pairs per second",
         "and one thread"),
        (None, E(270, 250, 300), "could not be measured here", "committed"),
    ],
)  # fmt: skip
def test_normal_rule_reads_right_for_every_outcome(normal, plain, expected: str, absent: str) -> None:
    text = sqlite_report.normal_rule(normal, plain)
    assert expected in text and absent not in text and text.endswith("not against a power cut.")


def test_python_rates_sentence_names_the_libraries_when_they_differ() -> None:
    metrics = _inserts(10_000, {(C, "full", 1): (500.0, 510, 520), (PY, "full", 1): (600.0, 610, 620)})
    same = sqlite_report.python_rates_sentence(metrics, {C: "3.40.1", PY: "3.40.1"})
    assert "the disk's drift between runs may explain it" in same and "libraries" not in same
    other = sqlite_report.python_rates_sentence(metrics, {C: "3.40.1", PY: "3.45.0"})
    assert "or the two SQLite libraries (3.40.1 for the C loop, 3.45.0 for Python) may explain it" in other


def test_shell_runs_sentence_names_a_virtual_disk_only_from_the_facts() -> None:
    shell = _shell({1: (0.9, 1.0, 1.1), 1000: (0.99, 1.0, 1.02)}).with_columns(
        unit=pl.lit("rows/s"), note=pl.lit(None, pl.String), rows=pl.lit(5000)
    )
    inserts = _inserts(10_000, {(C, "normal", 1): (2000.0, 2500, 3000)})
    plain = sqlite_report.shell_runs_sentence(shell, inserts, {"hypervisor": "none detected"})
    assert "another run size; either may move a median" in plain and "virtual" not in plain
    vm = sqlite_report.shell_runs_sentence(shell, inserts, {"hypervisor": "yes (KVM)"})
    assert "on a virtual disk, which other guests of the host may share; either may move" in vm


def test_numbers_words_go_through_fmt_num() -> None:
    numbers = sqlite_report.Numbers({"big": 999_999_999.0, "day": 2.06e10, "small": 86_400.0, "none": None})
    assert numbers.words("big") == "1 billion"  # not '1,000 million'
    assert numbers.words("day") == "20.6 billion" and numbers.words("small") == "86,400"
    assert numbers.words("none") == "n/a"
    assert not hasattr(sqlite_report, "words")


def test_bytes_per_row_sentence_says_same_only_within_the_band() -> None:
    assert "lie within 5 % of each other" in sqlite_report.bytes_per_row_sentence(1040.0, 1030.0)
    # figures that print alike are called the same, not 'within 5 %'
    assert sqlite_report.bytes_per_row_sentence(1030.2, 1030.0) == (
        "The two are the same, as the same table and the same rows should give."
    )
    more = sqlite_report.bytes_per_row_sentence(1300.0, 1030.0)
    assert "The two differ: this file held 1.3× the laptop's bytes per row: more, for the same table" in more
    assert "may account for it; this page does not measure which." in more
    assert ": fewer, for the same table" in sqlite_report.bytes_per_row_sentence(800.0, 1030.0)
    assert sqlite_report.bytes_per_row_sentence(None, 1030.0) == (
        "How many bytes per row this file held beside the laptop's was not measured here."
    )
    with pytest.raises(ValueError, match="ours"):
        sqlite_report.bytes_per_row_sentence(0.0, 1030.0)


def test_derived_runs_words_compare_each_batch_size_with_the_seeds() -> None:
    n = sqlite_report.seed_rows()
    assert n == 1_000_000
    small = _inserts(10_000, {(C, "normal", 1): (1.0,), (C, "normal", 1000): (1.0,)})
    assert sqlite_report.derived_runs_words(small) == (
        "the runs differ from the seeds' 1,000,000 rows in size (NORMAL with one row per transaction: 10,000 rows a "
        "run; NORMAL with 1,000 rows per transaction: 10,000 rows a run), and all differ in client and library as "
        "the section said above"
    )
    mixed = pl.concat([_inserts(10_000, {(C, "normal", 1): (1.0,)}), _inserts(n, {(C, "normal", 1000): (1.0,)})])
    assert sqlite_report.derived_runs_words(mixed) == (
        "the runs with NORMAL with 1,000 rows per transaction inserted the seeds' 1,000,000 rows; the others other "
        "numbers (NORMAL with one row per transaction: 10,000 rows a run), and all differ in client and library as "
        "the section said above"
    )
    # every synchronous setting is checked, not NORMAL only: a FULL run of another size is named with its size
    with_full = pl.concat([_inserts(n, {(C, "normal", 1000): (1.0,)}), _inserts(100_000, {(C, "full", 1000): (1.0,)})])
    assert sqlite_report.derived_runs_words(with_full) == (
        "the runs with NORMAL with 1,000 rows per transaction inserted the seeds' 1,000,000 rows; the others other "
        "numbers (FULL with 1,000 rows per transaction: 100,000 rows a run), and all differ in client and library as "
        "the section said above"
    )
    full = _inserts(n, {(C, "normal", 1): (1.0,), (C, "normal", 1000): (1.0,)})
    assert sqlite_report.derived_runs_words(full).startswith("the runs inserted the seeds' 1,000,000 rows each, but")
    # the Python client's runs, sized apart and listed first, do not stand for the C loop's
    with_python = pl.concat([_inserts(500, {(PY, "normal", 1): (1.0,), (PY, "normal", 1000): (1.0,)}), full])
    assert sqlite_report.derived_runs_words(with_python) == sqlite_report.derived_runs_words(full)
    assert sqlite_report.derived_runs_words(pl.DataFrame()) == "this machine's inserts did not run here"
    unsupported = small.with_columns(pl.lit(None, dtype=pl.Int64).alias("rows"), pl.lit("unsupported").alias("metric"))
    assert sqlite_report.derived_runs_words(unsupported) == "this machine's inserts did not run here"
