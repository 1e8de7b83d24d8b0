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
from howfast import card, fmt, headlines, stats, store
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


def _fewest_threads_not_clearly_beaten(reads: pl.DataFrame) -> float:
    """The read rate the card quotes: the fewest threads, moving up only to a thread count
    whose interval lies wholly above the chosen one's."""
    chosen = reads.row(0, named=True)
    for row in reads.rows(named=True)[1:]:
        if row["lo"] > chosen["hi"]:
            chosen = row
    return float(chosen["median"])


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
        "random_write_qd32": _median(
            "storage", "queue_depth", "ops_per_s", (c("op") == "write") & (c("queue_depth") == 32)
        ),
        "fsync": _median("fsync", "latency", "p50", (c("layout") == "append") & (c("method") == "fsync")),
        "syscall": _median("cpu", "costs", "ns_per_op", c("operation") == "getppid"),
        "context_switch": _median("cpu", "costs", "ns_per_switch", c("operation") == "pipe_same_cpu"),
        "memory_latency": _median("cpu", "latency", "ns_per_load", c("working_set") == latency["working_set"].max()),
        "memory_bandwidth": _fewest_threads_not_clearly_beaten(
            bandwidth.filter((c("kind") == "read") & (c("metric") == "gb_per_s")).sort("threads")
        ),
        "hashing": _median("hashing", "native", "mib_per_s", (c("algorithm") == "xxh64") & (c("size") == 65536))
        * 2**20
        / 1e6,  # the card's rates are decimal: MB/s
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
        **_codecs_expected(),
    }


def _codecs_expected() -> dict[str, float]:
    """The codecs rows at the smoke profile's sizes: zstd -1 on the book's sources in the
    profile's smallest block, std::sort of random integers at its smallest size."""
    from howfast.profiles import current_profile

    c = pl.col
    plan = current_profile("smoke").codecs
    block, n = min(b for b in plan.blocks if b > 0), min(plan.sort_sizes)
    zstd1 = (c("codec") == "zstd") & (c("level") == 1) & (c("input") == "text") & (c("block") == block)
    return {
        "compression": _median("codecs", "compress", "compress_mb_per_s", zstd1),
        "decompression": _median("codecs", "compress", "decompress_mb_per_s", zstd1),
        "sort": _median("codecs", "sort", "mb_per_s", (c("algorithm") == "std_sort") & (c("order") == "random")
                        & (c("n") == n)),
    }  # fmt: skip


def test_every_headline_row_holds_the_stored_number(use: Path) -> None:
    rows = card.headlines()
    assert rows["id"].to_list() == list(card.IDS)
    assert set(card.IDS) == {"seq_read", "seq_write", "random_read_qd1", "random_read_qd32", "random_write_qd32",
                             "fsync", "syscall",
                             "context_switch", "memory_latency", "memory_bandwidth", "hashing", "tcp", "http",
                             "redis", "sqlite_insert", "memtable", "compression", "decompression", "sort"}  # fmt: skip
    expected = _expected()
    for row in rows.iter_rows(named=True):
        assert row["value"] == pytest.approx(expected[row["id"]], rel=1e-12), row["id"]  # a unit conversion
        assert row["lo"] <= row["value"] <= row["hi"] and row["runs"] >= 1, row["id"]
        assert row["reason"] is None and row["machine"] == "test-machine" and row["profile"] == "smoke"
        assert row["measured_at"] == store.load(row["subject"]).manifest["finished"]


def test_the_reference_columns_are_the_seeds_figures(use: Path) -> None:
    rows = {r["id"]: r for r in card.headlines().iter_rows(named=True)}
    assert rows["seq_read"]["laptop"] == 3387 and rows["seq_read"]["phone"] == 866
    assert rows["http"]["laptop"] == 197933.82 and rows["http"]["phone"] == 21928.71
    assert rows["context_switch"]["laptop"] == 2500  # 2.5 µs, in the row's ns
    assert rows["sqlite_insert"]["phone"] == 4884.369
    assert rows["memtable"]["laptop"] is None and rows["memory_latency"]["phone"] is None  # never invented
    # Redis GET: seed 000's measured figure, not the rounded 200k of the summaries
    assert rows["redis"]["laptop"] == 184501.84 and rows["redis"]["laptop article"] == "seed 000"
    assert rows["redis"]["laptop kind"] == "measured" and rows["redis"]["phone kind"] == "rounded"


def test_like_with_like_only(use: Path) -> None:
    """Another server, another hash build, another write size, another table size: the
    seed's figure is shown, the comparison says 'not comparable' and why, and the chart of
    ratios leaves the row out."""
    frame = card.card()
    here = card.value_columns(frame)[0]
    rows = {r["id"]: r for r in frame.iter_rows(named=True)}
    assert "Go net/http" in card.against(rows["http"], here)
    assert "xxhash is another build" in card.against(rows["hashing"], here)
    assert "3.8 KB per operation" in card.against(rows["tcp"], here)  # smoke writes 256 KiB
    assert "against the seed's 1,000,000" in card.against(rows["sqlite_insert"], here)
    for id_ in ("http", "hashing", "tcp", "sqlite_insert", "syscall", "context_switch"):
        assert card.against(rows[id_], here).startswith("not comparable: ")
    plotted = set(card.versus_laptop(frame, here)["label"].to_list())
    assert plotted.isdisjoint({rows[i]["label"] for i in ("http", "hashing", "tcp", "sqlite_insert", "syscall")})
    # Redis: the same tool, clients and payload; the ratio is this setup's (a run's length does not decide a rate)
    assert card.against(rows["redis"], here).startswith("this setup: ") and "Redis GET (this setup)" in plotted
    page = card.rows_for_page(frame)
    redis = page.filter(pl.col("number").str.contains("Redis")).row(0, named=True)
    assert redis["laptop"] == "184,501.84 req/s (seed 000)" and redis["phone"] == "40,000 req/s (seed 001, rounded)"


def test_the_napkin_math_column(use: Path) -> None:
    """napkin-math's figure beside every row it has a like row for, in the row's unit,
    rounded as its README prints it; n/a where it has none; not comparable with the
    reason where the setups differ materially."""
    frame = card.card()
    here = card.value_columns(frame)[0]
    rows = {r["id"]: r for r in frame.iter_rows(named=True)}
    assert rows["sort"]["napkin"] == pytest.approx(200 * 2**20 / 1e6)  # 200 MiB/s in MB/s
    assert rows["syscall"]["napkin"] == 500 and rows["context_switch"]["napkin"] == 10_000  # 10 µs in ns
    assert rows["fsync"]["napkin"] == 1000  # 1 ms in µs
    assert rows["redis"]["napkin"] is None and rows["http"]["napkin"] is None  # no like row: n/a
    assert rows["sort"]["napkin kind"] == "rounded" and rows["sort"]["napkin article"] == "napkin-math"
    assert card.against(rows["hashing"], here, "napkin").startswith("not comparable: napkin-math hashes 64-byte")
    page = {r["number"]: r for r in card.rows_for_page(frame).iter_rows(named=True)}
    sort_row = next(r for k, r in page.items() if "sorting" in k)
    # 209.7 MB/s, shown at the one digit the rounded "200 MiB/s" claims
    assert sort_row["napkin-math"] == "200 MB/s (napkin-math, printed as 200 MiB/s, rounded)"
    assert next(r for k, r in page.items() if "Redis" in k)["napkin-math"] == card.NO_NAPKIN_FIGURE


def test_the_card_is_the_registry(use: Path) -> None:
    """The card's values are the registry's, and the design estimates' inputs too."""
    from howfast.design import measured

    registry = headlines.table()
    frame = card.card()
    here = card.value_columns(frame)[0]
    assert frame["id"].to_list() == [q.id for q in headlines.QUANTITIES if q.card]
    assert frame[here].to_list() == registry["value"].to_list()
    assert frame[f"{here} lo"].to_list() == registry["lo"].to_list()
    inputs = measured.inputs(registry, store.load("storage"), store.load("network"))
    mb = {r["id"]: r["value"] for r in registry.iter_rows(named=True)}
    assert inputs.seq_read == mb["seq_read"] * 1e6 and inputs.read_iops == mb["random_read_qd32"]
    assert inputs.write_iops == mb["random_write_qd32"] and inputs.network == mb["tcp"] * 1e9 / 8
    assert inputs.hashing == mb["hashing"] * 1e6 and inputs.memory == mb["memory_bandwidth"] * 1e9
    assert set(measured.QUANTITIES.values()) <= set(headlines.IDS)


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
    heads[2] = dataclasses.replace(heads[2], read=absent)
    monkeypatch.setattr(card, "HEADLINES", tuple(heads))
    rows = card.headlines()
    assert rows["reason"][2] == "the smoke profile does not measure this case" and rows["value"][2] is None


def _row(value: float | None, lo: float, hi: float, unit: str, laptop: float | None, comparable: bool = True) -> dict:
    return {"label": "x", "unit": unit, "m": value, "m lo": lo, "m hi": hi, "m runs": 5, "laptop": laptop,
            "laptop comparable": comparable, "laptop why not": "" if comparable else "another server"}  # fmt: skip


def test_versus_laptop_turns_times_so_that_above_one_is_faster_and_keeps_like_with_like() -> None:
    rows = [_row(50.0, 45.0, 55.0, "ns", 100.0), _row(200.0, 190.0, 210.0, "MB/s", 100.0),
            _row(None, 0, 0, "MB/s", 100.0), _row(300.0, 290.0, 310.0, "MB/s", 100.0, comparable=False)]  # fmt: skip
    frame = pl.DataFrame(rows)
    out = card.versus_laptop(frame, "m")
    assert out["times"].to_list() == [2.0, 2.0] and out["verdict"].to_list() == ["faster", "faster"]
    assert out["lo"].to_list()[0] == pytest.approx(100 / 55) and out["hi"].to_list()[1] == pytest.approx(2.1)


@pytest.mark.parametrize(
    ("row", "said"),
    [
        (_row(200.0, 190.0, 210.0, "MB/s", 100.0), "2× faster than the laptop"),
        (_row(50.0, 40.0, 60.0, "MB/s", 100.0), "2× slower than the laptop"),
        (_row(50.0, 45.0, 55.0, "ns", 100.0), "2× faster than the laptop"),  # a time: less is faster
        (_row(101.0, 99.0, 103.0, "MB/s", 100.0), "about the same as the laptop (1.01×)"),
        (_row(120.0, 80.0, 160.0, "MB/s", 100.0), "not clearly faster or slower than the laptop (1.2× by the medians"),
        (_row(120.0, 80.0, 160.0, "MB/s", 100.0, comparable=False), "not comparable: another server"),
        (_row(120.0, 80.0, 160.0, "MB/s", None), "no laptop figure"),
        (
            _row(120.0, 80.0, 160.0, "MB/s", None) | {"laptop why not": "200 cycles as printed: not comparable"},
            "not comparable (the laptop column says why)",
        ),  # fmt: skip
    ],
)
def test_against_reads_right_for_every_outcome(row: dict, said: str) -> None:
    assert card.against(row, "m").startswith(said)


def test_against_gives_the_ratio_its_range_and_a_setup_ratio_says_so() -> None:
    assert card.against(_row(200.0, 190.0, 210.0, "MB/s", 100.0), "m") == "2× faster than the laptop (1.9–2.1×)"
    redis = _row(43600.0, 18900.0, 64600.0, "req/s", 184501.84) | {"id": "redis"}
    assert card.against(redis, "m") == "this setup: 4.2× slower than the laptop (2.9–9.8×)"


def test_seed_figures_keep_their_digits_and_kind() -> None:
    assert card.seed_display(184501.84, "req/s") == "184,501.84 req/s"
    assert card.seed_display(114.8, "ns") == "114.8 ns" and card.seed_display(2500.0, "ns") == "2.5 µs"
    assert card.seed_display(660.0, "µs") == "660 µs" and card.seed_display(None, "µs") == "n/a"
    hypothetical = headlines.seed_figure(
        headlines.Seed("estimates", {"system": "backup_1pb", "quantity": "write_speed"})
    )
    assert hypothetical.kind == "hypothetical" and not hypothetical.comparable
    assert "not a measurement" in hypothetical.why_not
    rounded = headlines.seed_figure(headlines.Seed("redis_benchmark", {"machine": "phone", "test": "summary"}))
    assert rounded.kind == "rounded" and rounded.comparable and rounded.article == "seed 001"
    material = headlines.seed_figure(headlines.get("http").laptop)
    assert not material.comparable and "Go net/http" in material.why_not


def test_spread_names_the_interval_and_the_runs() -> None:
    assert card.spread(98.0, 120.0, 5, "µs") == "98 µs–120 µs, 5 runs"
    assert card.spread(1010.0, 1570.0, 1, "MB/s") == "1,010–1,570 MB/s, 1 run"
    assert card.spread(None, None, None, "MB/s") == ""


def test_every_quantity_says_which_run_and_every_seed_row_exists() -> None:
    for q in headlines.QUANTITIES:
        assert q.run and q.section and q.unit, q.id
        for seed in (q.laptop, q.phone):
            if seed is not None:
                headlines.seed_figure(seed)  # exactly one reference row, or KeyError
    assert headlines.get("fsync").run.startswith("the fsync chapter's latency run")
    with pytest.raises(KeyError, match="no headline quantity"):
        headlines.get("nope")


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

    inputs = measured.inputs(headlines.table(), store.load("storage"), store.load("network"))
    found, missing = calculator.resources(inputs)
    assert found and not missing
    expected = calculator.machines(found)
    svg = vlc.vegalite_to_svg(json.dumps(calculator.chart(found).to_dict()))
    texts = set(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    assert {f"{m:,} machines" for m in expected["machines"]} <= texts
    top = expected.filter(pl.col("bottleneck")).row(0, named=True)
    assert f"Bottleneck: {top['resource']}" in texts
    cost = fmt.num(top["cost"], 4) if top["cost"] >= 1e6 else fmt.exact(int(top["cost"]))
    assert f"{top['machines']:,} machines, {cost} dollars" in texts


def test_a_tight_interval_keeps_three_figures_and_says_how_narrow_it_is() -> None:
    """digits_for stays for the design page; the card itself shows three figures, and an
    interval whose ends round alike says how narrow it is instead of growing digits."""
    assert card.digits_for(1010.0, 1570.0) == 3 and card.digits_for(10225.0, 10234.0) == 4
    assert card.digits_for(10231.0, 10234.0) == 5
    assert card.digits_for(None, None) == 3 and card.digits_for(5.0, 5.0) == 3
    assert card.spread(10231.0, 10234.0, 3, "MiB/s") == "within ±0.1 %, 3 runs"
    assert card.spread(10726.0, 10727.0, 3, "MB/s", 10726.5, 0.10) == "within ±0.1 %, 3 runs"
    assert card.spread(1000.0, 1004.0, 3, "MB/s", 1000.0, 0.10) == "within ±0.5 %, 3 runs"
    assert card.spread(10200.0, 10240.0, 3, "MB/s", 10220.0) == "within ±0.5 %, 3 runs"


def test_spread_marks_an_interval_wider_than_the_profiles_target() -> None:
    assert card.spread(658.0, 1920.0, 3, "µs", 939.0, 0.10) == "658 µs–1.92 ms, 3 runs; unstable: −30 %/+104 %"
    assert card.spread(1010.0, 1570.0, 3, "MB/s", 1290.0, 0.10) == "1,010–1,570 MB/s, 3 runs; unstable: ±22 %"
    assert card.spread(1250.0, 1330.0, 9, "MB/s", 1290.0, 0.10) == "1,250–1,330 MB/s, 9 runs"  # within the target
    assert card.spread(1010.0, 1570.0, 3, "MB/s", 1290.0) == "1,010–1,570 MB/s, 3 runs"  # no target: no mark


def _card_frame() -> pl.DataFrame:
    """A card of three rows for machine m: two measured (3 and 11 runs), one not."""
    rows = [
        {"id": "fsync", "label": "4 KiB write + fsync", "unit": "µs", "m": 939.0, "m lo": 658.0, "m hi": 1920.0,
         "m runs": 3, "m target": 0.10},
        {"id": "http", "label": "HTTP hello world", "unit": "req/s", "m": 67500.0, "m lo": 41200.0,
         "m hi": 91600.0, "m runs": 11, "m target": 0.10},
        {"id": "syscall", "label": "system call", "unit": "ns", "m": None, "m lo": None, "m hi": None,
         "m runs": None, "m target": 0.10},
    ]  # fmt: skip
    return pl.DataFrame(rows)


def test_runs_words_give_the_range_of_run_counts() -> None:
    frame = _card_frame()
    assert card.runs_words(frame, "m") == "3 to 11 runs per number"
    assert card.runs_words(frame.filter(pl.col("id") == "fsync"), "m") == "3 runs per number"
    assert card.runs_words(frame.filter(pl.col("id") == "syscall"), "m") == "no measured number"


def test_estimate_in_reads_a_row_with_its_target() -> None:
    e, target = card.estimate_in(_card_frame(), "fsync", "m")
    assert (e.median, e.lo, e.hi, e.runs, target) == (939.0, 658.0, 1920.0, 3, 0.10)
    assert card.estimate_in(_card_frame(), "syscall", "m") == (None, 0.10)
    with pytest.raises(KeyError, match="no row 'nope'"):
        card.estimate_in(_card_frame(), "nope", "m")


def test_figure_words_carry_interval_runs_and_mark() -> None:
    assert card.figure_words(stats.Estimate(854.0, 592.0, 1030.0, 3), "ns", 0.10) == (
        "854 ns (592 ns–1.03 µs, 3 runs; unstable: ±26 %)"
    )
    assert card.figure_words(stats.Estimate(854.0, 840.0, 870.0, 9), "ns", 0.10) == "854 ns (840 ns–870 ns, 9 runs)"
    assert card.figure_words(None, "ns") == "n/a"


_LATENCY = stats.Estimate(939.0, 658.0, 1920.0, 3)
_TIGHT = stats.Estimate(1000.0, 990.0, 1010.0, 5)  # µs


@pytest.mark.parametrize(
    ("latency", "rate", "said"),
    [
        (None, None, "A durable 4 KiB write could not be measured here, so the card has no wait to set beside "
         "streaming."),
        (_LATENCY, None, "One durable 4 KiB write takes 939 µs (658 µs–1.92 ms, 3 runs; unstable: −30 %/+104 %) at "
         "the median; the rate of durable writes was not stored with it."),
        # 1 ÷ the median's range (521–1,520 a second) reaches across the rate's: not settled, whichever median is larger
        (_LATENCY, stats.Estimate(469.0, 374.0, 555.0, 3),
         "One durable 4 KiB write takes 939 µs (658 µs–1.92 ms, 3 runs; unstable: −30 %/+104 %) at the median. "
         "Counting every write, slow ones included, one thread made 469 writes durable a second (374–555, 3 runs; "
         "unstable: ±19 %). Set beside 1 ÷ the median (1,060 a second, 521–1,520 over its interval), it is neither "
         "clearly higher nor lower: the two intervals overlap."),
        (_TIGHT, stats.Estimate(900.0, 850.0, 950.0, 5),
         "One durable 4 KiB write takes 1 ms (990 µs–1.01 ms, 5 runs) at the median. Counting every write, slow ones "
         "included, one thread made 900 writes durable a second (850–950, 5 runs). 1 ÷ the median (1,000 a second, "
         "990–1,010 over its interval) would overstate it: the slow writes count in the rate."),
        (_TIGHT, stats.Estimate(1100.0, 1060.0, 1150.0, 5),
         "One durable 4 KiB write takes 1 ms (990 µs–1.01 ms, 5 runs) at the median. Counting every write, slow ones "
         "included, one thread made 1,100 writes durable a second (1,060–1,150, 5 runs), more than 1 ÷ the median "
         "(1,000 a second, 990–1,010 over its interval): the mean wait was shorter than the median."),
        (_TIGHT, stats.Estimate(1000.0, 980.0, 1020.0, 5),
         "One durable 4 KiB write takes 1 ms (990 µs–1.01 ms, 5 runs) at the median. Counting every write, slow ones "
         "included, one thread made 1,000 writes durable a second (980–1,020, 5 runs), about 1 ÷ the median (1,000 a "
         "second, 990–1,010 over its interval): the slow writes weighed little."),
        (_TIGHT, stats.Estimate(1000.0, 900.0, 1100.0, 5),
         "One durable 4 KiB write takes 1 ms (990 µs–1.01 ms, 5 runs) at the median. Counting every write, slow ones "
         "included, one thread made 1,000 writes durable a second (900–1,100, 5 runs). Set beside 1 ÷ the median "
         "(1,000 a second, 990–1,010 over its interval), it is neither clearly higher nor lower: the two intervals "
         "overlap."),
    ],
)  # fmt: skip
def test_durable_sentence_quotes_the_measured_rate_for_every_outcome(latency, rate, said) -> None:
    assert card.durable_sentence(latency, rate, 0.10) == said


def test_stream_words() -> None:
    """The product of two medians with the range of the two intervals, in a decimal unit that suits it."""
    read = stats.Estimate(1290.0, 1010.0, 1570.0, 3)
    assert card.stream_words(read, _LATENCY) == "about 1.2 MB at the two medians (0.66–3 MB within their intervals)"
    slow = card.stream_words(stats.Estimate(1.0, 0.5, 2.0, 3), stats.Estimate(10.0, 5.0, 20.0, 3))
    assert slow == "about 10 bytes at the two medians (2.5–40 bytes within their intervals)"
    assert card.stream_words(read, stats.Estimate(2.0, 1.0, 3.0, 3)).startswith("about 2.6 kB at the two medians")
    assert card.stream_words(None, _LATENCY) == "an amount this machine could not measure"


@pytest.mark.parametrize(
    ("http", "syscall", "said"),
    [
        (None, None, "The hello-world server did not run here, so the card cannot set a request against a system "
         "call."),
        (stats.Estimate(100_000.0, 80_000.0, 125_000.0, 11), None,
         "At the connection count with the highest median rate, our hello-world server answers a request every 10 µs "
         "(8 µs–12.5 µs, 11 runs; unstable: ±22 %) on average (all its threads together, from the rate's interval); "
         "the system call was not measured "
         "here, so the two are not set side by side."),
        (stats.Estimate(100_000.0, 80_000.0, 125_000.0, 11), stats.Estimate(500.0, 400.0, 800.0, 3),
         "At the connection count with the highest median rate, our hello-world server answers a request every 10 µs "
         "(8 µs–12.5 µs, 11 runs; unstable: ±22 %) on average (all its threads together, from the rate's interval), "
         "the time of about 20 system "
         "calls (10 to 31 within the two intervals)."),
    ],
)  # fmt: skip
def test_request_sentence_for_every_outcome(http, syscall, said) -> None:
    assert card.request_sentence(http, syscall, 0.10) == said


def test_one_quantity_in_several_runs_says_which_the_card_quotes(use: Path) -> None:
    """The 4 KiB write + fsync of every run that measures it: the card's run first, the
    others compared with it in claims' words, each with its range."""
    runs = card.other_runs("fsync")
    assert runs.height == 1 + len(headlines.other_runs("fsync")) >= 3
    assert runs["against the card's run"][0] == "the card's run" and "(the card quotes it)" in runs["run"][0]
    words = ("faster than the card's run", "slower than the card's run", "about the same as the card's run",
             "not clearly slower or faster than the card's run", "not measured here")  # fmt: skip
    assert all(any(w in said for w in words) for said in runs["against the card's run"].to_list()[1:])
    assert all("runs)" in m or "run)" in m for m in runs["median"].to_list())
    assert card.other_runs("syscall").height == 0


def test_a_durable_write_on_a_virtual_disk_is_not_compared_with_the_laptops_drive() -> None:
    """The set's recorded facts decide: a virtual disk's flush ends where the hypervisor
    decides, so fsync and durable writes are 'not comparable' with the laptop's NVMe drive."""
    from types import SimpleNamespace

    virtual = SimpleNamespace(facts={"device_kind": "a virtual disk (virtio-blk)", "write_cache": "write back"})
    real = SimpleNamespace(facts={"device_kind": "an NVMe drive", "write_cache": "write back"})
    for id_ in ("fsync", "seq_write"):
        seed = headlines.get(id_).laptop
        assert "this disk is virtual (write cache: write back)" in seed.check(virtual)
        assert seed.check(real) is None
    # a read waits on no flush, but on a virtual disk it may come from the host's cache: not comparable either
    read = headlines.get("seq_read").laptop.check
    assert "its reads may be served from the host's cache" in read(virtual) and read(real) is None
    assert read(SimpleNamespace(facts=None)) is None


def test_the_preface_and_the_card_call_a_disk_virtual_by_one_test() -> None:
    """``headlines.virtual_disk`` decides for the card's checks and the preface's words alike:
    a VM whose disk the kernel does not report virtual is not told its flush stops at the host."""
    vm_disk = {"hypervisor": "yes (KVM)", "device_kind": "a virtual disk (virtio-blk)"}
    vm_only = {"hypervisor": "yes (KVM)", "device_kind": "an NVMe drive"}
    disk_only = {"hypervisor": "no", "device_kind": "a virtual disk (virtio-blk)"}
    assert headlines.virtual_disk(vm_disk) and not headlines.virtual_disk(vm_only) and not headlines.virtual_disk({})
    assert headlines.machine_words(vm_disk).startswith("This is a virtual machine on a virtual disk")
    assert "cache flush may stop at the host" in headlines.machine_words(vm_disk)
    said = headlines.machine_words(vm_only)
    assert said.startswith("This is a virtual machine") and "did not report its disk as virtual" in said
    assert "flush" not in said
    assert headlines.machine_words(disk_only).startswith("The kernel reports this disk as virtual")
    assert headlines.machine_words({"hypervisor": "no"}) == "The table says what the kernel could see."


def _bandwidth_set(threads_runs: dict[int, list[float]]) -> store.ResultSet:
    rows = [
        {"kind": "read", "threads": t, "repetition": i, "metric": "gb_per_s", "value": v, "unit": "GB/s"}
        for t, runs in threads_runs.items()
        for i, v in enumerate(runs)
    ]

    class Stored(store.ResultSet):
        def table(self, name: str) -> pl.DataFrame:
            if name != "bandwidth":
                raise KeyError(name)
            schema = {"kind": pl.String, "threads": pl.Int64, "repetition": pl.Int64, "metric": pl.String,
                      "value": pl.Float64, "unit": pl.String}  # fmt: skip
            return pl.DataFrame(rows, schema=schema)

    return Stored("cpu", Path("/nonexistent"), {"profile": "quick", "experiments": ["bandwidth"]}, {})


def test_the_memory_bandwidth_row_names_the_thread_count_it_quotes() -> None:
    """The card's row and napkin-math's 'what differs' carry the thread count that
    ``cpu.report.read_bandwidth`` quotes: one thread, or more where more read clearly faster."""
    q = headlines.get("memory_bandwidth")
    one = _bandwidth_set({1: [10.0, 10.5, 11.0], 2: [10.2, 10.8, 11.5]})  # two threads not clearly faster
    two = _bandwidth_set({1: [10.0, 10.5, 11.0], 2: [20.0, 21.0, 22.0]})
    assert q.detail(one) == "here 1 thread" and q.detail(two) == "here 2 threads"
    said = headlines.seed_figure(q.napkin, one).differs
    assert said == "napkin-math's figure is threaded reads with SIMD; ours is our read loop on 1 thread"
    assert headlines.seed_figure(q.napkin, two).differs.endswith("on 2 threads")
    none = _bandwidth_set({})
    assert headlines._bandwidth_threads(none) is None and q.detail(none) is None
    # no stored set: the registry's own words
    assert headlines.seed_figure(q.napkin).differs.endswith("the thread count the bandwidth sweep quotes")


def test_run_texts_claim_nothing_the_rows_do_not_decide() -> None:
    """The fsync run text leaves its other runs to the table's claims; the hashing run text
    does not promise close runs (its row may be marked unstable); HTTP names its rule."""
    assert "differ as the disk's load did" not in headlines.get("fsync").run
    assert "agree so closely" not in headlines.get("hashing").run
    http = headlines.get("http")
    assert "highest median" in http.run and "highest median" in http.note and "best" not in http.note


@pytest.mark.parametrize(
    ("row", "cell"),
    [
        ({"unit": "MB/s", "laptop": None}, card.NO_SEED_FIGURE),
        ({"unit": "req/s", "laptop": 184501.84, "laptop kind": "measured", "laptop article": "seed 000",
          "laptop converted": False}, "184,501.84 req/s (seed 000)"),
        ({"unit": "µs", "laptop": 660.0, "laptop kind": "rounded", "laptop article": "seed 000",
          "laptop converted": False}, "660 µs (seed 000, rounded)"),
        ({"unit": "MB/s", "laptop": 1827.8 * 2**20 / 1e6, "laptop kind": "measured", "laptop article": "seed 000",
          "laptop converted": True, "laptop quoted": "1827.80 MiB/sec"},
         "1,917 MB/s (seed 000, printed as 1827.80 MiB/sec)"),
        ({"unit": "ns", "laptop": 2500.0, "laptop kind": "rounded", "laptop article": "seed 000",
          "laptop converted": True, "laptop quoted": "2.5μs"}, "2.5 µs (seed 000, rounded)"),  # a time: its unit
        ({"unit": "MB/s", "laptop": 2**30 / 1e6, "laptop kind": "rounded", "laptop article": "napkin-math",
          "laptop converted": True, "laptop quoted": "1   GiB/s"},
         "1,000 MB/s (napkin-math, printed as 1 GiB/s, rounded)"),  # the README's padding collapsed; its one digit
        ({"unit": "GB/s", "laptop": 35 * 2**30 / 1e9, "laptop kind": "rounded", "laptop article": "napkin-math",
          "laptop converted": True, "laptop quoted": "35 GiB/s"},
         "38 GB/s (napkin-math, printed as 35 GiB/s, rounded)"),  # a rounded figure keeps its two digits
    ],
)  # fmt: skip
def test_seed_cell_for_every_kind_of_figure(row: dict, cell: str) -> None:
    """No figure: a reason, not n/a; a figure printed in another unit: the row's unit and
    the figure as printed; a time converted between ns and µs: shown in its best unit."""
    assert card.seed_cell(row, "laptop") == cell


@pytest.mark.parametrize(
    ("quoted", "digits"),
    [("1   GiB/s", 1), ("35 GiB/s", 2), ("~300MB/s", 1), ("1827.80 MiB/sec", 6), ("0.5 ns", 1), ("2.5μs", 2),
     ("1,250 MB/s", 3), ("no number", 3)],
)  # fmt: skip
def test_printed_digits(quoted: str, digits: int) -> None:
    assert card.printed_digits(quoted) == digits


def test_the_hashing_row_is_decimal_and_quotes_the_seed_as_printed() -> None:
    q = headlines.get("hashing")
    assert q.unit == "MB/s"
    fig = headlines.seed_figure(q.laptop)
    assert fig.converted and fig.quoted == "1827.80 MiB/sec" and abs(fig.value - 1827.8 * 2**20 / 1e6) < 1e-6
    assert not headlines.seed_figure(headlines.get("http").laptop).converted


def test_runs_note_reads_as_a_sentence_per_number() -> None:
    frame = pl.DataFrame({"label": ["system call"], "run": ["the cost table's getppid row: the cheapest call"]})
    assert card.runs_note(frame) == "- The system call comes from the cost table's getppid row: the cheapest call."


def test_every_other_run_has_a_short_name_and_one_colon() -> None:
    """The table of a quantity's runs names each run in a few words, then why it differs."""
    for id_ in ("fsync",):
        assert headlines.get(id_).run_name
        for q in headlines.other_runs(id_):
            assert q.run_name and ":" not in q.run


def test_a_phone_figure_that_is_not_comparable_says_why_on_the_card() -> None:
    """The card compares only with the laptop in a column of its own; a phone figure whose
    setup differs materially says so in 'what was measured'."""
    base = {
        "id": "x",
        "label": "sequential read",
        "unit": "MB/s",
        "note": "1 MiB blocks",
        "run": "r",
        "section": "chapters/storing-data.qmd#sec-parallel-jobs",
        "m": 100.0,
        "m lo": 90.0,
        "m hi": 110.0,
        "m runs": 3,
        "m reason": None,
        "m measured": "2026-01-01, quick profile",
    }
    seeds = {f"{s}{p}": None for s in ("laptop", "phone") for p in card._SEED_PARTS}
    phone = {
        "phone": 866.0,
        "phone kind": "measured",
        "phone article": "seed 001",
        "phone quoted": "866MB/s",
        "phone differs": "",
        "phone comparable": False,
        "phone why not": "the phone's fio run used 256 KiB blocks",
        "phone converted": False,
    }
    page = card.rows_for_page(pl.DataFrame([base | seeds | phone]))
    assert page["what was measured"][0] == (
        "1 MiB blocks. The phone's figure is not comparable: the phone's fio run used 256 KiB blocks."
    )
    comparable = card.rows_for_page(pl.DataFrame([base | seeds | phone | {"phone comparable": True}]))
    assert comparable["what was measured"][0] == "1 MiB blocks"
    laptop = {
        "laptop": 3387.0,
        "laptop kind": "measured",
        "laptop article": "seed 001",
        "laptop quoted": "3387MB/s",
        "laptop differs": "fio",
        "laptop comparable": False,
        "laptop converted": False,
        "laptop why not": "the phone's fio run used 256 KiB blocks",
    }
    both = card.measured_words(base | seeds | phone | laptop | {"phone differs": "fio"})
    assert (
        both == "1 MiB blocks. Laptop and phone: fio. The phone's figure is not comparable either, for the same reason."
    )
    apart = card.measured_words(base | seeds | phone | laptop | {"phone differs": "adb"})
    assert apart.startswith("1 MiB blocks. Laptop: fio. Phone: adb. The phone's")


def test_the_page_table_leaves_the_notes_to_a_table_of_their_own() -> None:
    row = {"id": "x", "label": "system call", "unit": "ns", "note": "getppid through syscall()", "run": "r",
           "section": "chapters/cpu-and-memory.qmd#sec-cpu-costs", "m": 854.0, "m lo": 592.0, "m hi": 1030.0,
           "m runs": 3, "m target": 0.10, "m reason": None, "m measured": "2026-11-24, quick profile"}  # fmt: skip
    seeds = {f"{s}{p}": None for s in headlines.REFERENCE_MACHINES for p in card._SEED_PARTS}
    napkin = {"napkin": 500.0, "napkin kind": "rounded", "napkin article": "napkin-math", "napkin quoted": "500 ns",
              "napkin differs": "", "napkin comparable": False, "napkin converted": False,
              "napkin why not": "napkin-math gives no method (it does not name its call); ours is getppid"}  # fmt: skip
    frame = pl.DataFrame([row | seeds | napkin])
    page = card.rows_for_page(frame, notes=False)
    assert page.columns == ["number", "m", "laptop", "phone", "napkin-math", "against the laptop"]
    assert page["m"][0] == "854 ns (592 ns–1.03 µs, 3 runs; unstable: ±26 %)"
    notes = card.notes_for_page(frame)
    assert notes.row(0) == (
        "system call",
        "getppid through syscall(). napkin-math's figure is not comparable: napkin-math gives no method (it does "
        "not name its call); ours is getppid.",
    )
    differs = card.measured_words(row | seeds | napkin | {"napkin comparable": True, "napkin differs": "napkin-math "
                                                          "writes 8 KiB"})  # fmt: skip
    assert differs == "getppid through syscall(). napkin-math writes 8 KiB."  # no 'napkin-math: napkin-math'


def test_the_seed_rows_the_card_reads_as_the_chapters_do() -> None:
    """One rule with the CPU chapter (a seed row without its method is not comparable); the
    seed's HTTP server unnamed; Redis GET like with like; napkin-math's hashing row in MB/s."""
    for id_ in ("syscall", "context_switch"):
        fig = headlines.seed_figure(headlines.get(id_).laptop)
        assert not fig.comparable and fig.why_not.startswith("the seed gives no method ("), id_
        assert not headlines.seed_figure(headlines.get(id_).napkin).comparable
    http = headlines.seed_figure(headlines.get("http").laptop)
    assert "256 connections busy against a server it does not name (most likely Go net/http" in http.why_not
    assert "goroutines" not in http.why_not
    phone = headlines.seed_figure(headlines.get("http").phone)
    assert "32 connections" in phone.why_not and "net/http" not in phone.why_not
    redis = headlines.get("redis").laptop
    assert redis.check is None and not redis.material and "this setup's" in redis.differs
    assert headlines.seed_figure(headlines.get("hashing").napkin).value == pytest.approx(2 * 2**30 / 1e6)  # 2 GiB/s
    assert "not necessarily a power cut" in headlines.get("sqlite_insert").run
    assert "durable setting" not in headlines.get("sqlite_insert").run
    rate = headlines.get("fsync_rate")
    assert not rate.card and rate.unit == "writes/s" and rate.experiment == headlines.get("fsync").experiment
    assert "fastest slice" in headlines.get("hashing").note


def test_a_setup_ratio_is_labelled_so_in_the_chart_frame() -> None:
    rows = [_row(200.0, 190.0, 210.0, "MB/s", 100.0) | {"id": "seq_read"},
            _row(43600.0, 18900.0, 64600.0, "req/s", 184501.84) | {"id": "redis", "label": "Redis GET"}]  # fmt: skip
    out = card.versus_laptop(pl.DataFrame(rows), "m")
    assert out["label"].to_list() == ["x", "Redis GET (this setup)"]
    assert out["words"][1].startswith("this setup: 4.2× slower than the laptop")


def test_a_seed_figure_that_cannot_be_set_beside_ours_says_so_in_its_cell() -> None:
    said = headlines.get("memory_latency").no_seed["laptop"]
    assert said.startswith("200 cycles as printed (seed 000, rounded): not comparable")
    assert card.seed_cell({"unit": "ns", "laptop": None, "laptop why not": said}, "laptop") == said
    assert card.seed_cell({"unit": "ns", "laptop": None, "laptop why not": None}, "laptop") == card.NO_SEED_FIGURE
    assert card.seed_cell({"unit": "ns", "napkin": None}, "napkin") == card.NO_NAPKIN_FIGURE
    assert (
        "upper bound" in headlines.get("memory_latency").note
        and "lower bound" in headlines.get("memory_bandwidth").note
    )
    assert "quotes its mean" in headlines.get("sqlite_fsync_baseline").run


def test_the_chart_colours_each_ratio_by_the_verdict_of_its_interval() -> None:
    rows = [_row(200.0, 190.0, 210.0, "MB/s", 100.0), _row(50.0, 40.0, 60.0, "MB/s", 100.0),
            _row(200.0, 190.0, 210.0, "ns", 100.0), _row(120.0, 80.0, 160.0, "MB/s", 100.0),
            _row(101.0, 99.0, 103.0, "MB/s", 100.0)]  # fmt: skip
    out = card.versus_laptop(pl.DataFrame(rows), "m")
    # a median above the laptop's with an interval across it is not settled, not faster
    assert out["verdict"].to_list() == ["faster", "slower", "slower", "not settled", "not settled"]
    spec = card.ratio_chart(out, "m").to_dict()
    colour = next(layer["encoding"]["color"] for layer in spec["layer"] if "color" in layer.get("encoding", {}))
    assert colour["field"] == "verdict" and colour["scale"]["domain"] == ["faster", "slower", "not settled"]


def test_spread_sentence_counts_the_unstable_numbers_and_says_how_busy() -> None:
    """It names the numbers whose sets were measured on a busy machine, not the whole card."""
    frame = _card_frame()
    said = card.spread_sentence(frame, "m", busy=["fsync"])
    assert said.startswith(
        "With 3 to 11 runs per number, 2 of 2 numbers stayed wider than their profile's target (marked unstable). "
        "The sets behind 1 number (4 KiB write + fsync) were measured on a busy machine by their noise evidence; "
        "the others on a machine quiet enough. "
    )
    assert said.endswith("(the words of the comparison column are chosen that way).")
    assert "Every number's set was measured on a busy machine" in card.spread_sentence(frame, "m", ["fsync", "network"])
    # a busy subject with no measured number here (cpu: the system call is n/a) counts nowhere
    tight = frame.with_columns(pl.col("m").alias("m lo"), pl.col("m").alias("m hi"))
    assert (
        "every interval ended within its profile's target. Every number's set was measured on a machine quiet enough "
        "by its noise evidence." in card.spread_sentence(tight, "m", busy=["cpu"])
    )
    fixed = frame.with_columns(pl.lit(None, dtype=pl.Float64).alias("m target"))
    assert "its profile holds no interval to a target" in card.spread_sentence(fixed, "m", busy=[])
    none = frame.filter(pl.col("id") == "syscall")
    assert card.spread_sentence(none, "m", busy=[]).startswith("No number of this machine's was measured")
    with pytest.raises(ValueError, match="busy"):
        card.spread_sentence(frame, "m", busy=["rocksdb"])


def test_spread_sentence_does_not_call_a_set_without_noise_evidence_quiet() -> None:
    """Three outcomes: busy, quiet enough, or no noise evidence recorded (named, not counted as quiet)."""
    frame = _card_frame()  # fsync (subject fsync) and HTTP hello world (subject network) measured
    said = card.spread_sentence(frame, "m", busy=[], silent=["fsync"])
    assert (
        "The sets behind 1 number (4 KiB write + fsync) recorded no noise evidence, so how busy the machine was for "
        "them is not known; the others were measured on a machine quiet enough by theirs. " in said
    )
    assert "Every number's set was measured on a machine quiet enough" not in said
    said = card.spread_sentence(frame, "m", busy=["network"], silent=["fsync"])
    assert (
        "The sets behind 1 number (HTTP hello world) were measured on a busy machine by their noise evidence; the "
        "sets behind 1 number (4 KiB write + fsync) recorded no noise evidence, so how busy the machine was for them "
        "is not known. " in said
    )
    assert (
        "No number's set recorded noise evidence, so how busy the machine was while they were measured is not "
        "known. " in card.spread_sentence(frame, "m", busy=[], silent=["fsync", "network"])
    )
    # a silent subject with no measured number here counts nowhere
    assert "Every number's set was measured on a machine quiet enough" in card.spread_sentence(
        frame, "m", busy=[], silent=["cpu"]
    )
    with pytest.raises(ValueError, match="silent"):
        card.spread_sentence(frame, "m", busy=[], silent=["rocksdb"])
    with pytest.raises(ValueError, match="silent"):
        card.spread_sentence(frame, "m", busy=["fsync"], silent=["fsync"])


_READ = stats.Estimate(1000.0, 900.0, 1100.0, 5)  # MB/s: 4 KiB streams in about 4.1 µs
_WAIT = stats.Estimate(900.0, 800.0, 1000.0, 5)  # µs


@pytest.mark.parametrize(
    ("read", "wait", "said"),
    [
        (_READ, _WAIT, "Waiting is not cheap: one durable 4 KiB write takes longer than streaming 4 KiB does."),
        (_READ, stats.Estimate(1.0, 0.9, 1.1, 5), "Waiting was cheap here: one durable 4 KiB write took less time"),
        (
            stats.Estimate(1000.0, 999.0, 1001.0, 5),
            stats.Estimate(4.1, 4.09, 4.11, 5),
            "Here one durable 4 KiB write takes about as long as streaming",
        ),
        (_READ, stats.Estimate(4.1, 1.0, 20.0, 5), "Whether one durable 4 KiB write takes longer than streaming"),
        (None, _WAIT, ""),
        (_READ, None, ""),
    ],
)
def test_wait_words_for_every_outcome(read, wait, said) -> None:
    assert card.wait_words(read, wait).startswith(said) and (said or card.wait_words(read, wait) == "")


@pytest.mark.parametrize(
    ("syscall", "read", "wait", "said"),
    [
        (stats.Estimate(100.0, 90.0, 110.0, 5), _READ, _WAIT, "And the CPU is cheap next to both"),
        (stats.Estimate(100.0, 90.0, 110.0, 5), None, _WAIT, "And the CPU is cheap next to waiting"),
        (stats.Estimate(5000.0, 4500.0, 5500.0, 5), _READ, _WAIT,
         "The CPU is cheap next to waiting, though not clearly cheaper or dearer here than streaming 4 KiB"),
        (stats.Estimate(50_000.0, 45_000.0, 55_000.0, 5), _READ, _WAIT,
         "The CPU is cheap next to waiting, though dearer here than streaming 4 KiB"),
        (stats.Estimate(5e6, 4e6, 6e6, 5), _READ, _WAIT, "The CPU is dearer here than streaming 4 KiB and waiting"),
        (stats.Estimate(5e6, 4e6, 6e6, 5), None, _WAIT, "The CPU is dearer here than waiting"),
        (stats.Estimate(4e5, 1e3, 5e6, 5), _READ, _WAIT,
         "The CPU is not clearly cheaper or dearer here than streaming 4 KiB or waiting"),
        (stats.Estimate(2e5, 1e5, 3e5, 5), _READ, stats.Estimate(200.0, 50.0, 400.0, 5),
         "The CPU is dearer here than streaming 4 KiB, though not clearly cheaper or dearer here than waiting"),
        (None, _READ, _WAIT, "As for the CPU"),
        (stats.Estimate(100.0, 90.0, 110.0, 5), None, None, "As for the CPU"),
    ],
)  # fmt: skip
def test_cpu_words_for_every_outcome(syscall, read, wait, said) -> None:
    assert card.cpu_words(syscall, read, wait) == said


def test_napkin_maths_random_read_is_counted_in_reads_a_second() -> None:
    figure = headlines.seed_figure(headlines.get("random_read_qd1").napkin)
    assert figure.value == pytest.approx(70 * 2**20 / 8192) and figure.quoted == "70 MiB/s" and figure.comparable
    assert figure.converted and "napkin-math reads 8 KiB, ours 4 KiB at depth 1" in figure.differs


def test_the_sqlite_row_says_what_the_full_profile_inserts() -> None:
    from howfast.profiles import current_profile

    plan = current_profile("full").sqlite
    one = dict(zip(plan.batch_sizes, plan.rows, strict=True))[1]
    said = headlines.sqlite_full_words()
    assert said == (
        "the full profile's batched runs reach the seed's 1,000,000 rows; its one-row transactions stop at "
        f"{one:,} rows"
    )


def test_the_sqlite_row_words_follow_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    from howfast import profiles

    full = profiles.PROFILES["full"]
    for rows, said in [
        ((1_000_000, 1_000_000), "the full profile's batched runs reach the seed's 1,000,000 rows; its one-row "
         "transactions reach the seed's 1,000,000 too"),
        ((1000, 50_000), "the full profile's batched runs hold 50,000 rows; its one-row transactions stop at "
         "1,000 rows"),
    ]:  # fmt: skip
        changed = dataclasses.replace(full, sqlite=dataclasses.replace(full.sqlite, rows=rows))
        monkeypatch.setitem(profiles.PROFILES, "full", changed)
        assert headlines.sqlite_full_words() == said
