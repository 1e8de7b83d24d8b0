"""The numbers card: every headline row, each value the stored median (computed here
independently from the stored tables), the reference figures from data/reference, a
column per stored machine, n/a with a reason for what could not run, and ``howfast card``
as a user runs it, errors included."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest

from conftest import LEFT_TO_MEASURE, ROOT, command_env, copy_book, environment, howfast_command
from howfast import card, stats, store
from howfast.notebook import execute_chapter

SUBJECTS = list(card.SUBJECTS)


def _howfast(base: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return howfast_command(base, *args, timeout=600, **extra)


@pytest.fixture(scope="module")
def measured(smoke_book: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The card's subjects measured once, smoke profile, through the command line: a copy
    of the session's book (test_chapters reads it too), with the one subject it leaves
    unmeasured measured here."""
    base = copy_book(smoke_book, tmp_path_factory.mktemp("card"))
    assert LEFT_TO_MEASURE in SUBJECTS
    done = _howfast(base, "measure", LEFT_TO_MEASURE)
    assert done.returncode == 0, done.stderr[-3000:]
    return base


@pytest.fixture
def use(measured: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    with environment(measured):
        for key, value in command_env(measured).items():
            monkeypatch.setenv(key, value)
        yield measured


def _median(subject: str, experiment: str, metric: str, frame_filter: pl.Expr | None = None) -> float:
    table = store.load(subject).table(experiment)
    if frame_filter is not None:
        table = table.filter(frame_filter)
    values = table.filter(pl.col("metric") == metric)["value"]
    assert values.len() > 0, (subject, experiment, metric)
    return float(values.median())


def _expected() -> dict[str, float]:
    """Each headline, straight from the stored parquet files (no card or report code)."""
    c = pl.col
    sweep = store.load("memtable").table("sweep")
    cap = int(sweep["capacity"].max())
    http = stats.summarize(store.load("network").table("http_closed"), ["connections"])
    bandwidth = stats.summarize(store.load("cpu").table("bandwidth"), ["kind", "threads"])
    latency = store.load("cpu").table("latency")
    return {
        "seq_read": _median("storage", "parallel", "mb_per_s", (c("op") == "read") & ~c("fsync")),
        "seq_write": _median("storage", "parallel", "mb_per_s", (c("op") == "write") & c("fsync")),
        "random_read_qd1": _median(
            "storage", "queue_depth", "ops_per_s", (c("op") == "read") & (c("queue_depth") == 1)
        ),
        "random_read_qd32": _median(
            "storage", "queue_depth", "ops_per_s", (c("op") == "read") & (c("queue_depth") == 32)
        ),
        "fsync": _median("fsync", "latency", "p50", (c("layout") == "append") & (c("method") == "fsync")),
        "syscall": _median("cpu", "costs", "ns_per_op", c("operation") == "getppid"),
        "context_switch": _median("cpu", "costs", "ns_per_switch", c("operation") == "pipe_same_cpu"),
        "memory_latency": _median("cpu", "latency", "ns_per_load", c("working_set") == latency["working_set"].max()),
        "memory_bandwidth": float(
            bandwidth.filter((c("kind") == "read") & (c("metric") == "gb_per_s"))["median"].max()
        ),
        "hashing": _median("hashing", "native", "mib_per_s", (c("algorithm") == "xxh64") & (c("size") == 65536)),
        "tcp": _median("network", "tcp_bulk", "gbit_per_s", c("streams") == 1),
        "http": float(http.filter(c("metric") == "req_per_s")["median"].max()),
        "redis": _median("network", "redis_suite", "req_per_s", c("test") == "get"),
        "sqlite_insert": _median(
            "sqlite",
            "inserts",
            "rows_per_s",
            (c("client") == "c_api")
            & (c("synchronous") == "normal")
            & (c("batch_size") == 1)
            & (c("row_size") == 1000),
        ),
        "memtable": _median(
            "memtable", "sweep", "records_per_s", (c("capacity") == cap) & c("dsync") & (c("mode") == "blocking")
        ),
    }


def test_every_headline_row_holds_the_stored_number(use: Path) -> None:
    rows = card.headlines()
    assert rows["id"].to_list() == list(card.IDS)
    assert set(card.IDS) == {"seq_read", "seq_write", "random_read_qd1", "random_read_qd32", "fsync", "syscall",
                             "context_switch", "memory_latency", "memory_bandwidth", "hashing", "tcp", "http",
                             "redis", "sqlite_insert", "memtable"}  # fmt: skip
    expected = _expected()
    for row in rows.iter_rows(named=True):
        assert row["value"] == expected[row["id"]], row["id"]
        assert row["reason"] is None and row["machine"] == "test-machine" and row["profile"] == "smoke"
        assert row["measured_at"] == store.load(row["subject"]).manifest["finished"]


def test_the_reference_columns_are_the_seeds_figures(use: Path) -> None:
    rows = {r["id"]: r for r in card.headlines().iter_rows(named=True)}
    assert rows["seq_read"]["laptop"] == 3387 and rows["seq_read"]["phone"] == 866
    assert rows["http"]["laptop"] == 197933.82 and rows["http"]["phone"] == 21928.71
    assert rows["context_switch"]["laptop"] == 2500  # 2.5 µs, in the row's ns
    assert rows["sqlite_insert"]["phone"] == 4884.369
    assert rows["memtable"]["laptop"] is None and rows["memory_latency"]["phone"] is None  # never invented


def test_every_row_links_to_a_section_that_exists() -> None:
    for h in card.HEADLINES:
        page, anchor = h.section.split("#")
        assert f"{{#{anchor}}}" in (ROOT / page).read_text(), h.section


def test_the_page_says_when_no_other_machine_is_stored(use: Path) -> None:
    page = execute_chapter(ROOT / "chapters" / "numbers-card.qmd", timeout=300)
    assert page.problems == []
    said = " ".join(page.inline.values())
    assert "No other machine's results are stored here." in said and "Also stored here" not in said
    assert "Every subject had stored results." in said


def test_a_second_machine_gets_its_own_column_and_gaps_say_why(use: Path) -> None:
    other = use / "results" / "other-box"
    shutil.copytree(use / "results" / "test-machine", other, symlinks=True)
    try:
        (other / "smoke" / "hashing").unlink()  # the set's link: that machine has no hashing set
        frame = card.card()
        assert card.value_columns(frame) == ["test-machine", "other-box"]
        assert frame["other-box"].to_list()[:2] == frame["test-machine"].to_list()[:2]
        hashing = frame.filter(pl.col("id") == "hashing").row(0, named=True)
        assert hashing["other-box"] is None and "no stored hashing results for machine 'other-box'" in hashing[
            "other-box reason"]  # fmt: skip
        assert card.card(["other-box"]).columns.count("other-box") == 1
        with pytest.raises(ValueError, match="unknown machine 'nowhere'"):
            card.card(["nowhere"])
        page = execute_chapter(ROOT / "chapters" / "numbers-card.qmd", timeout=300)
        assert page.problems == []
        said = " ".join(page.inline.values())
        assert "Also stored here, and shown as columns: other-box (measured " in said
        assert "No other machine" not in said
    finally:
        shutil.rmtree(other)


def test_another_machine_is_read_as_stored_whatever_its_name_and_this_runs_switches(
    use: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A machine folder may hold capitals and dots (a host name); and switching a capability
    off here must not send the card looking for the other machine's switched-off folder."""
    other = use / "results" / "Bob.local"
    shutil.copytree(use / "results" / "test-machine", other, symlinks=True)
    try:
        plain = card.card()
        assert card.value_columns(plain) == ["test-machine", "Bob.local"]
        monkeypatch.setenv("HOWFAST_DISABLE_IO_URING", "1")
        switched = card.card(["Bob.local"], measure=False)
        assert switched["Bob.local"].to_list() == plain["Bob.local"].to_list()
    finally:
        shutil.rmtree(other)


def test_an_unsupported_case_reads_na_with_its_reason(use: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With io_uring switched off, the queue-depth rows have no value and name the switch;
    the page's note says so; the display reads n/a."""
    monkeypatch.setenv("HOWFAST_DISABLE_IO_URING", "1")
    store.measure("storage")
    rows = {r["id"]: r for r in card.headlines().iter_rows(named=True)}
    for id_ in ("random_read_qd1", "random_read_qd32"):
        assert rows[id_]["value"] is None
        assert "disabled by HOWFAST_DISABLE_IO_URING" in rows[id_]["reason"]
    assert rows["seq_read"]["value"] is not None
    frame = card.card()
    assert "disabled by HOWFAST_DISABLE_IO_URING" in card.reasons_note(frame)
    page = card.rows_for_page(frame)
    assert page.filter(pl.col("number").str.contains("queue depth 1"))["test-machine"][0] == "n/a"
    assert "None" not in page.write_csv() and "nan" not in page.write_csv()


def test_a_case_the_profile_lacks_says_so(use: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def absent(results: store.ResultSet) -> float:
        raise KeyError("no such case")

    heads = list(card.HEADLINES)
    heads[2] = dataclasses.replace(heads[2], value=absent)
    monkeypatch.setattr(card, "HEADLINES", tuple(heads))
    rows = card.headlines()
    assert rows["reason"][2] == "the smoke profile does not measure this case" and rows["value"][2] is None


def test_versus_laptop_turns_times_so_that_above_one_is_faster() -> None:
    frame = pl.DataFrame({"label": ["a", "b", "c"], "unit": ["ns", "MB/s", "MB/s"], "m": [50.0, 200.0, None],
                          "laptop": [100.0, 100.0, 100.0]})  # fmt: skip
    out = card.versus_laptop(frame, "m")
    assert out["times"].to_list() == [2.0, 2.0] and out["faster"].to_list() == [True, True]


@pytest.mark.parametrize(
    ("value", "unit", "shown"),
    [(None, "MB/s", "n/a"), (1500.0, "ns", "1.5 µs"), (660.0, "µs", "660 µs"), (3387.0, "MB/s", "3,390 MB/s")],
)
def test_display(value: float | None, unit: str, shown: str) -> None:
    assert card.display(value, unit) == shown


def test_howfast_card_prints_the_stored_card(measured: Path) -> None:
    done = _howfast(measured, "card")
    assert done.returncode == 0, done.stderr
    for h in card.HEADLINES:
        assert h.label in done.stdout
    assert "test-machine: measured " in done.stdout and "smoke profile" in done.stdout


@pytest.mark.parametrize(
    ("args", "extra", "said", "status"),
    [
        (["card"], {"HOWFAST_RESULTS": "EMPTY"}, "no results stored yet: run 'howfast measure' first", 1),
        (["card", "nowhere"], {}, "unknown machine 'nowhere'", 2),
    ],
)
def test_howfast_card_errors_are_one_line(measured: Path, tmp_path: Path, args, extra, said, status) -> None:
    if extra.get("HOWFAST_RESULTS") == "EMPTY":
        extra = {"HOWFAST_RESULTS": str(tmp_path / "empty")}
    done = _howfast(measured, *args, **extra)
    assert done.returncode == status
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("howfast: ") and said in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_the_calculator_defaults_from_the_stored_numbers_match_the_chapters_estimate(use: Path) -> None:
    """The chapter's S3 estimate (Python) and the chart Vega draws from the same measured
    capacities agree: every resource's machines, and the bottleneck's cost."""
    import json
    import re

    import vl_convert as vlc

    from howfast.design import calculator, measured

    inputs = measured.inputs(card.headlines(), store.load("storage"), store.load("network"))
    found, missing = calculator.resources(inputs)
    assert found and not missing
    expected = calculator.machines(found)
    svg = vlc.vegalite_to_svg(json.dumps(calculator.chart(found).to_dict()))
    texts = set(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    assert {f"{m:,} machines" for m in expected["machines"]} <= texts
    top = expected.filter(pl.col("bottleneck")).row(0, named=True)
    assert any(t.startswith(f"Bottleneck: {top['resource']}, {top['machines']:,} machines, ${top['cost']:,.0f}")
               for t in texts)  # fmt: skip
