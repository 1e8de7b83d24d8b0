"""The memtables chapter's experiments on a tiny profile: every case stored, tables and
numbers built from them, and what the machine lacks (io_uring, O_DIRECT, fio) reported
as unsupported with its reason."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import polars as pl
import pytest

from conftest import environment
from howfast import fmt, store
from howfast.bench import run
from howfast.memtable import crash, crosscheck, powercut, report
from howfast.memtable import experiments as memtable
from howfast.memtable import plan as memtable_plan
from howfast.memtable.plan import KiB, MiB
from howfast.profiles import PROFILES

TINY = dataclasses.replace(PROFILES["quick"], repetitions=2, memtable=memtable_plan.SMOKE)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict:
    with environment(tmp_path_factory.mktemp("memtable")) as base:
        yield {"set": store.measure("memtable", TINY), "base": base}


def test_every_case_and_repetition_is_stored(tiny: dict) -> None:
    data, base = tiny["set"], tiny["base"]
    sweep = data.table(memtable.SWEEP)
    cases = memtable.sweep_cases(TINY)
    assert sweep.filter(pl.col("metric").is_in(["records_per_s", "unsupported"])).height == len(cases) * 2
    assert data.experiments == [
        memtable.SWEEP,
        memtable.VARIANTS,
        memtable.VS_FIO,
        memtable.ROLLOVER,
        memtable.BREAKDOWN,
        memtable.CRASH,
        memtable.POWERCUT,
    ]
    assert {f"{n}.parquet" for n in data.experiments} <= {p.name for p in data.path.iterdir()}
    assert list((base / "scratch").iterdir()) == []


def test_samples_are_capped_and_counts_add_up(tiny: dict) -> None:
    samples = tiny["set"].table(memtable.VARIANTS, samples=True)
    per_case = samples.group_by(["variant", "repetition"]).len()
    assert per_case["len"].max() <= TINY.memtable.max_samples and per_case.height >= 8
    with pytest.raises(store.MissingResults, match="kept no samples"):
        tiny["set"].table(memtable.SWEEP, samples=True)  # the sweep keeps percentiles, not every record
    ok = tiny["set"].table(memtable.SWEEP).filter(pl.col("metric") == "flushes")
    plan = TINY.memtable
    for row in ok.iter_rows(named=True):  # whole buffers, within the plan's flush counts
        assert plan.min_flushes <= row["value"] <= plan.max_flushes
        assert row["records"] == row["value"] * (row["capacity"] // plan.record_size)


def test_report_tables_and_numbers(tiny: dict) -> None:
    data = tiny["set"]
    sweep = data.table(memtable.SWEEP)
    variants = data.table(memtable.VARIANTS)
    vs_fio = data.table(memtable.VS_FIO)
    table = report.sweep_table(sweep, dsync=True)
    assert table["capacity"].to_list() == ["64 KiB", "256 KiB"]
    assert table["seed records/s"].to_list() == [482.3, 1934.0]  # seed 002's O_DSYNC rows
    assert table["blocking"].str.contains(r"^[\d,.]+( \(|$)").all() and (table["runs"] == "2").all()
    n = report.sweep_numbers(sweep)
    assert n["small"] == 64 * KiB and n["large"] == 256 * KiB and n["peak_mb"] > 0
    v = report.variant_numbers(variants)
    assert v["wal_batch"] >= 1 and v["wal_rate"] > 0 and v["plain_rate"] > 0
    assert report.variant_table(variants, "durability")["variant"].to_list() == [
        "no log",
        "O_DSYNC segments",
        "log (group commit)",
        "log + O_DSYNC segments",
    ]
    crashes = report.crash_table(data.table(memtable.CRASH))
    assert crashes["lost or damaged"].sum() == 0 and crashes["crash points"].sum() >= 1
    assert set(crashes["mode"]) <= set(report.CRASH_MODE_NAMES.values())
    cut = data.table(memtable.POWERCUT)
    both = report.crash_table(data.table(memtable.CRASH), cut)
    assert both["crash"].to_list() == ["SIGKILL"] * crashes.height + ["power cut"] * (both.height - crashes.height)
    power = both.filter(pl.col("crash") == "power cut")
    assert set(power["mode"]) == {report.POWERCUT_MODE_NAMES[m.name] for m in powercut.powercut_modes()}
    assert (power["crash points"] == TINY.memtable.powercut_states).all() and power["lost or damaged"].sum() == 0
    n = report.powercut_numbers(cut)
    assert n["states"] == power["crash points"].sum() and n["fewest"] == TINY.memtable.powercut_states
    assert n["dropped"] + n["kept"] + n["torn"] > 0 and n["problems"] == 0
    fio = report.fio_table(vs_fio.filter(pl.col("segment_bytes") == TINY.memtable.segment_bytes))
    assert fio.height == 4  # 1 capacity × 2 O_DSYNC × (blocking, deep)
    assert (fio["rounds"] == TINY.repetitions).all() and fio["ours / fio"].str.contains("×").all()
    verdicts = {"agrees", "ours lower", "ours higher", "inconclusive", *report.LEANING_VERDICTS.values()}
    assert set(fio["verdict"]) <= verdicts
    sentence = report.fio_sentence(vs_fio)  # the runs have two segment sizes: each case names its own
    assert sentence.startswith("Against fio at the same block size and depth") and "of 6 cases, " in sentence
    decided = fio.filter(pl.col("verdict") != "inconclusive")
    if decided.height:  # a decided case is named with its segment size
        assert re.search(
            rf"at 256 KiB( with O_DSYNC)? in {fmt.size(TINY.memtable.segment_bytes)} segments \(", sentence
        )
    shares = fio["first fill %"].str.extract(r"^([\d.]+)").cast(pl.Float64)
    assert ((shares > 0) & (shares < 100)).all()
    assert "of a run of 8 flushes" in report.first_fill_sentence(vs_fio)
    assert "MB/s from one repetition to the next" in report.fio_steadiness(vs_fio)
    chart = report.sweep_chart(sweep).to_dict()
    assert len(chart["vconcat"]) == 4  # stacked, each panel as wide as the column
    assert "hconcat" not in str(chart) and "'width'" not in str(chart)
    labels = report.sweep_curves(sweep)["series"].unique().to_list()
    assert max(len(label) for label in labels) <= 20  # a legend label is never cut
    prose = [
        report.first_fill_sentence(vs_fio),
        report.fio_sentence(vs_fio),
        report.dsync_summary(sweep),
        report.plateau_sentence(sweep, TINY.name),
        report.repeat_sentence(sweep, variants, TINY.memtable.variant_capacity),
        report.seed_small_words(sweep, TINY.memtable.producers, 2),
        report.depth_repeat_sentence(sweep, variants),
        report.segment_goal_sentence(vs_fio),
        report.peak_sentence(sweep, TINY.target),
        report.best_mode_sentence(sweep, 64 * KiB, True, TINY.target),
        report.log_share_words(variants),
    ]
    for text in prose:  # inline output: markdown-safe, nouns agreeing
        assert not any(c in text for c in "`*^"), text
        assert " 1 flushes" not in text and " a 8" not in text


def test_fio_rows_with_the_default_segment_size(tiny: dict) -> None:
    """The fio table gains the deep io_uring rows with Memtable's default segment size:
    a column *segment*, the chapter's rows first; the ratios run by run and their verdict."""
    vs_fio = tiny["set"].table(memtable.VS_FIO)
    table = report.fio_segment_table(vs_fio)
    plan = TINY.memtable
    assert table.columns[:2] == ["capacity", "segment"]
    assert (
        table["segment"].to_list()
        == [fmt.size(plan.segment_bytes)] * 4 + [fmt.size(memtable_plan.DEFAULT_SEGMENT_BYTES)] * 2
    )
    default = table.filter(pl.col("segment") == fmt.size(memtable_plan.DEFAULT_SEGMENT_BYTES))
    assert default["capacity"].to_list() == [fmt.size(plan.fio_default_capacity)] * 2
    assert default["O_DSYNC"].to_list() == ["no", "yes"] and default["ours / fio"].str.contains("×").all()
    ratios = report.segment_ratios(vs_fio)
    assert ratios["dsync"].to_list() == [False, True] and (ratios["rounds"] == TINY.repetitions).all()
    assert ((ratios["min"] <= ratios["median"]) & (ratios["median"] <= ratios["max"])).all()
    for row in ratios.iter_rows(named=True):
        expected = (
            "meets" if row["min"] >= report.SEGMENT_GOAL else "misses" if row["max"] < report.SEGMENT_GOAL
            else "inconclusive"
        )  # fmt: skip
        assert row["verdict"] == expected
    cost = report.segment_cost(vs_fio)
    assert cost["dsync"].to_list() == [False, True] and (cost["median"] > 0).all()
    sentence = report.segment_goal_sentence(vs_fio)
    assert sentence.startswith("In those rows the memtable wrote") and "per run into 64 MiB files" in sentence
    assert "Into one segment file for the whole run" in sentence and "ours into one file ran" in sentence
    assert not any(c in sentence for c in "`*^")
    nothing = vs_fio.filter(pl.col("segment_bytes") != memtable_plan.DEFAULT_SEGMENT_BYTES)
    assert report.segment_ratios(nothing).height == 0 and "could not be compared" in report.segment_goal_sentence(
        nothing
    )


def test_rollover_table_and_numbers(tiny: dict) -> None:
    """The rollover experiment: every case in every round, a row per O_DSYNC setting, maker
    and segment size, rollovers counted, no cost where there is no rollover."""
    metrics = tiny["set"].table(memtable.ROLLOVER)
    plan = TINY.memtable
    sizes = memtable.rollover_segments(plan)
    assert sizes == [256 * KiB, 1 * MiB]  # the plan's, and one holding the whole run
    cases = memtable.rollover_cases(TINY)
    assert len(cases) == 2 * 2 * len(sizes)
    assert metrics.filter(pl.col("metric") == "records_per_s").height == len(cases) * plan.rollover_rounds
    table = report.rollover_table(metrics)
    assert table.columns == report.ROLLOVER_COLUMNS
    assert table.height == len(cases)
    assert table["O_DSYNC"].to_list() == ["no"] * 4 + ["yes"] * 4
    assert table["segment files made"].to_list()[:4] == [report.ahead_name(0)] * 2 + [report.ahead_name(2)] * 2
    assert table["segment"].to_list() == ["256 KiB", "1 MiB"] * 4
    assert table["rollovers"].to_list() == [3.0, 0.0] * 4  # 1 MiB in 256 KiB files: 4 files
    assert (table.filter(pl.col("rollovers") == 0)["per rollover µs"] == "none: no rollover").all()
    assert not table.filter(pl.col("rollovers") > 0)["per rollover µs"].str.starts_with("none").any()
    assert (table["rounds"] == str(plan.rollover_rounds)).all() and (table["records/s"] != "n/a").all()
    assert (table.filter(pl.col("rollovers") == 0)["writer's wait µs"] == "none: no rollover").all()
    n = report.rollover_numbers(metrics, 256 * KiB)
    assert all(v is not None for v in n.values()) and n["make_writer_ms"] > 0 and n["helper_vs_one"] > 0
    assert all(v is None for v in report.rollover_numbers(metrics).values())  # no 64 MiB files in this plan
    words = report.rollover_sentence(metrics, 256 * KiB)
    assert (
        words.startswith("With O_DSYNC, making a 256 KiB file took") and "Against the run into a single file" in words
    )
    assert sum(words.count(p) for p in ("longer per rollover", "no cost shows here", "inconclusive here")) == 2
    assert "could not run here" in report.rollover_sentence(metrics)  # no 64 MiB files in this plan
    assert "In records per second, 256 KiB files made ahead ran" in words and "-" not in words


def test_breakdown_tables_and_numbers(tiny: dict) -> None:
    """The breakdown: every case with the counters on and off, the writer's parts as
    shares of the run, a row per capacity and O_DSYNC setting, the prose's numbers."""
    metrics = tiny["set"].table(memtable.BREAKDOWN)
    plan = TINY.memtable
    cases = memtable.breakdown_cases(TINY)
    assert len(cases) == len(plan.breakdown_capacities) * 4
    assert metrics.filter(pl.col("metric") == "records_per_s").height == len(cases) * plan.breakdown_rounds
    clocked = metrics.filter(~pl.col("counters") & pl.col("metric").str.starts_with("t_"))
    assert clocked.height == 0  # no times without the clocks
    table = report.breakdown_table(metrics)
    assert (
        table["capacity"].to_list() == ["64 KiB", "256 KiB"] * 2
        and table["O_DSYNC"].to_list() == ["no"] * 2 + ["yes"] * 2
    )
    assert table["records / flush"].to_list() == ["4", "16", "4", "16"]
    assert (table["record work µs/flush"] != "n/a").all() and (table["runs"] == str(plan.breakdown_rounds)).all()
    threads = report.breakdown_table(metrics, "threads")
    assert threads["flushes / submit"].str.extract(r"^([\d.]+)").cast(pl.Float64).min() >= 1
    frame = report.breakdown_frame(metrics)
    assert frame.height == 4 * len(report.WRITER_PARTS) and (frame["share"] >= 0).all()
    assert report.breakdown_chart(frame).to_dict()["mark"]["type"] == "bar"
    n = report.breakdown_numbers(metrics)
    assert n["small"] == 64 * KiB and n["large"] == 256 * KiB
    assert n["small_records_per_flush"] == 4 and n["large_flushes"] == plan.breakdown_bytes // (256 * KiB)
    assert 0 < n["small_record_work_share"] < 1 and n["cost_ratio"] > 0
    assert "the runs without clocks" in report.counter_cost_sentence(metrics)
    assert isinstance(n["small_record_work_share_est"], report.Estimate)
    assert report.pace_sentence(n).startswith(
        ("The lesson of a small memtable", "Here the writer's work per record", "Neither clearly set the pace here")
    )
    assert report.pace_sentence({}) == "The breakdown could not run here."
    alone = metrics.filter(pl.col("counters"))
    assert "went unmeasured" in report.counter_cost_sentence(alone)


def test_cases() -> None:
    plan = PROFILES["full"].memtable
    assert memtable.records_for(plan, 1024 * MiB) == plan.min_flushes * 65536
    assert memtable.records_for(plan, 64 * KiB) == plan.max_flushes * 4
    assert memtable.deep_buffers(plan, 64 * KiB) == plan.max_deep_buffers
    assert memtable.deep_buffers(plan, 1024 * MiB) == 2  # memory allows no more
    cases = memtable.sweep_cases(PROFILES["full"])
    keys = [(c["capacity"], c["dsync"], c["flush"], c["buffers"]) for c in cases]
    assert len(keys) == len(set(keys))
    assert all(c["buffers"] * c["capacity"] <= plan.max_buffer_bytes for c in cases)
    with pytest.raises(ValueError, match="smaller than a record"):
        memtable.records_for(plan, 8 * KiB)


def test_fio_cases_have_enough_flushes() -> None:
    """The fio cross-check runs at least `fio_min_flushes` flushes where `fio_max_bytes`
    allows, so the first buffer's fill is a small part of the run; never fewer than the sweep."""
    plan = PROFILES["full"].memtable
    flushes = {
        c["capacity"]: c["records"] * plan.record_size // c["capacity"] for c in crosscheck.fio_cases(PROFILES["full"])
    }
    assert flushes[128 * MiB] == plan.fio_min_flushes  # 8 in the sweep
    assert flushes[1024 * MiB] == plan.min_flushes  # fio_max_bytes allows no more
    assert flushes[16 * MiB] == plan.sweep_bytes // (16 * MiB)
    assert flushes[64 * KiB] == plan.fio_min_bytes // (64 * KiB)  # 1 GiB: more than the sweep's max_flushes
    assert {(c["capacity"], c["dsync"]) for c in crosscheck.fio_cases(PROFILES["full"])} >= {
        (cap, dsync) for cap in (64 * KiB, 1 * MiB, 16 * MiB) for dsync in (False, True)
    }
    quick = PROFILES["quick"].memtable
    for c in crosscheck.fio_cases(PROFILES["quick"]):  # long enough for fio's millisecond clock
        assert c["records"] * quick.record_size == quick.fio_max_bytes
    for profile in (PROFILES["quick"], PROFILES["full"]):  # the default segment size beside the chapter's
        p = profile.memtable
        rows = {
            (c["segment_bytes"], c["dsync"], c["tool"])
            for c in crosscheck.fio_cases(profile)
            if c["capacity"] == p.fio_default_capacity and c["mode"] == memtable.DEEP
        }
        assert rows == {
            (seg, dsync, tool)
            for seg in (p.segment_bytes, memtable_plan.DEFAULT_SEGMENT_BYTES)
            for dsync in (False, True)
            for tool in ("howfast", "fio")
        }


def test_rollover_cases() -> None:
    """Segment sizes up to one holding the whole run, each at least a flush per buffer (a
    smaller one would silently grow), with and without O_DSYNC, made ahead and by the writer."""
    for name in ("quick", "full"):
        plan = PROFILES[name].memtable
        cases = memtable.rollover_cases(PROFILES[name])
        sizes = memtable.rollover_segments(plan)
        assert sizes[-1] == plan.rollover_bytes and memtable_plan.DEFAULT_SEGMENT_BYTES in sizes
        assert all(c["segment_bytes"] >= c["buffers"] * c["capacity"] for c in cases)
        assert {(c["dsync"], c["segments_ahead"]) for c in cases} == {
            (d, a) for d in (False, True) for a in (0, plan.segments_ahead)
        }
        assert all(c["records"] * c["record_size"] == plan.rollover_bytes for c in cases)
    assert memtable.rollover_segments(PROFILES["full"].memtable)[0] == 4 * MiB
    assert memtable.rollover_segments(PROFILES["full"].memtable)[-1] == 1024 * MiB
    bad = dataclasses.replace(PROFILES["quick"].memtable, rollover_bytes=4 * KiB)
    with pytest.raises(ValueError, match="smaller than one flush"):
        memtable.rollover_segments(bad)


def test_space_needed_counts_the_segment_files() -> None:
    """The check before a run counts the data, the log, and three whole segment files (the
    last one is preallocated, two more made ahead), for the largest case; a case's own
    segment size counts where it has one."""
    case = {"records": 64, "record_size": 16 * KiB, "capacity": 256 * KiB, "buffers": 2, "wal": True}
    assert memtable._bytes_needed([case], 1024 * MiB) == 2 * MiB + 3 * 1024 * MiB
    big = {**case, "capacity": 1024 * MiB, "records": 4 * 65536, "buffers": 2, "wal": False}
    assert memtable._bytes_needed([case, big], 64 * MiB) == 4096 * MiB + 3 * 2048 * MiB
    own = {**case, "segment_bytes": 4 * MiB, "wal": False}
    assert memtable._bytes_needed([own], 1024 * MiB, ahead=0) == 1 * MiB + 4 * MiB


def test_io_uring_unavailable_is_reported(scratch_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_DISABLE_IO_URING", "1")
    cases = [c for c in memtable.sweep_cases(TINY) if c["capacity"] == 64 * KiB]
    metrics = run("uring_off", cases, memtable.measurer(TINY.memtable), repetitions=1).metrics
    off = metrics.filter(pl.col("flush") == "io_uring")
    assert off["metric"].unique().to_list() == ["unsupported"]
    assert off["note"].str.contains("HOWFAST_DISABLE_IO_URING").all()
    table = report.sweep_table(metrics, dsync=False)
    assert table["blocking"][0] != "n/a" and table["io_uring ×2"][0] == "n/a"
    assert "HOWFAST_DISABLE_IO_URING" in table["unsupported"][0]
    assert all(m.flush == "blocking" for m in crash.crash_modes())
    durability = [c for c in memtable.variant_cases(TINY) if c["group"] == "durability"]
    assert {c["flush"] for c in durability} == {"blocking"}
    cases = [c for c in memtable.breakdown_cases(TINY) if c["capacity"] == 64 * KiB]
    off = run("breakdown_off", cases, memtable.breakdown_measurer(TINY.memtable), repetitions=1).metrics
    table = report.breakdown_table(off)
    assert table["note"].str.contains("HOWFAST_DISABLE_IO_URING").all() and (table["MB/s"] == "n/a").all()
    assert report.breakdown_frame(off).height == 0 and report.pace_sentence(report.breakdown_numbers(off)).startswith(
        "The breakdown could not run"
    )
    cases = memtable.rollover_cases(TINY)
    off = run("rollover_off", cases, memtable.rollover_measurer(TINY.memtable), repetitions=1).metrics
    table = report.rollover_table(off)
    assert table.height == len(cases) and table["note"].str.contains("HOWFAST_DISABLE_IO_URING").all()
    assert table.columns == [*report.ROLLOVER_COLUMNS, "note"] and (table["records/s"] == "n/a").all()
    assert all(v is None for v in report.rollover_numbers(off, 256 * KiB).values())


def test_direct_io_unavailable_is_reported(scratch_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_DISABLE_DIRECT_IO", "1")
    memtable._direct_io.cache_clear()
    try:
        cases = memtable.sweep_cases(TINY)[:2]
        metrics = run("direct_off", cases, memtable.measurer(TINY.memtable), repetitions=1).metrics
    finally:
        memtable._direct_io.cache_clear()
    assert metrics["metric"].unique().to_list() == ["unsupported"]
    assert metrics["note"].str.contains("O_DIRECT").all()


def test_missing_fio_is_reported(scratch_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from howfast import crosscheck as general

    monkeypatch.setattr(general.shutil, "which", lambda name: None)
    cases = [c for c in crosscheck.fio_cases(TINY) if c["flush"] == "blocking" and not c["dsync"]]
    metrics = run("fio_off", cases, crosscheck.fio_measurer(TINY.memtable), repetitions=1).metrics
    table = report.fio_table(metrics)
    assert (table["fio MB/s"] == "n/a").all() and (table["verdict"] == "n/a").all()
    assert table["note"].str.contains("fio is not installed").all()
    assert "fio could not run here" in report.fio_sentence(metrics)


def test_fio_write_checks_its_arguments(scratch_dir: Path) -> None:
    from howfast.scratch import Scratch

    with Scratch() as s, pytest.raises(ValueError, match="not a multiple of the block size"):
        crosscheck.fio_write(s, 64 * KiB, 100 * KiB, dsync=False, depth=1)


def test_results_keep_the_parameters(tiny: dict) -> None:
    stored = tiny["set"].table(memtable.VARIANTS)
    assert {"group", "variant", "capacity", "dsync", "flush", "buffers", "pinned", "wal"} <= set(stored.columns)
    assert stored.filter(pl.col("wal") & (pl.col("metric") == "records_per_sync"))["value"].min() >= 1
