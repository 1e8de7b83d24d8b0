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
            *(f"{n}.noise.parquet" for n in names),  # every run's noise evidence
        ]
    )
    assert all(data.noise(n).height >= data.table(n)["repetition"].n_unique() for n in names)
    assert {"load", "processes"} <= {f["topic"] for f in data.doctor()}  # measure ran the pre-flight check first
    assert data.rounds(fsync.LATENCY)["min_runs"] == 2 and data.rounds(fsync.LATENCY)["target"] is None
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
    assert table.columns[:4] == ["method", "writes/s", "p50", "runs"] and table["runs"].to_list() == [2] * 6
    found = fsync_report.method_estimates(lat, "append")
    assert all(e["p50"].median <= e["p99"].median for e in found.values())
    tails = fsync_report.tail_table(lat, "append")
    assert tails.columns == ["method", *fsync_report.TAIL_COLUMNS] and tails.height == len(found)
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
    assert off["p50"].to_list() == ["n/a", "n/a"] and off["writes/s"].to_list() == ["n/a", "n/a"]
    assert off["runs"].null_count() == 2
    tails = fsync_report.tail_table(metrics, "append")
    assert not tails["method"].str.starts_with("O_DIRECT").any()  # left out; the table above says why


def test_missing_fio_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from howfast.scratch import Scratch

    monkeypatch.setattr(general.shutil, "which", lambda name: None)
    with Scratch() as scratch:
        metrics = crosscheck.versus_fio(TINY, scratch, fsync.measure_writes).metrics
    table = fsync_report.fio_table(metrics)
    assert table["fio writes/s"].to_list() == ["n/a"] * len(crosscheck.FIO_OPTIONS)
    assert table[fsync_report.FIO_RATIO].to_list() == ["n/a"] * len(crosscheck.FIO_OPTIONS)
    assert table["rounds"].null_count() == len(crosscheck.FIO_OPTIONS)
    assert table["note"].str.contains("fio is not installed").all()
    assert general.fio_version() is None


def test_fio_rejects_unknown_method(scratch_dir: Path) -> None:
    from howfast.scratch import Scratch

    with Scratch() as s, pytest.raises(ValueError, match="no fio equivalent"):
        crosscheck.fio_durable_writes(s, "none", 4096, 10)


# --- the chapter's sentences: one test per branch, on made-up estimates ---

from howfast import stats  # noqa: E402


def E(median: float, lo: float, hi: float) -> stats.Estimate:
    return stats.Estimate(median, lo, hi, 3, 0.75)


@pytest.mark.parametrize(
    ("fsync_p50", "none_p50", "expected"),
    [
        (E(900, 800, 1000), E(3, 2, 4), "300× slower than one without"),
        (E(3, 2.97, 3.03), E(3, 2.98, 3.02), "about as fast as one without"),
        (
            E(4, 2, 6),
            E(3, 2.5, 5),
            "not clearly slower or faster than one without (1.3× by the medians, but the intervals overlap)",
        ),
        (None, E(3, 2, 4), "could not be measured here"),
    ],
)
def test_sync_cost_sentence(fsync_p50, none_p50, expected: str) -> None:
    text = fsync_report.sync_cost_sentence(fsync_p50, none_p50)
    assert expected in text
    if "300×" in expected:  # a clear ratio comes with the range the two intervals allow
        assert text == (
            "A write with the sync was 300× slower than one without at the median (200–500× within the two intervals)."
        )
    else:
        assert "within the two intervals" not in text
    faster = fsync_report.sync_cost_sentence(E(3, 2, 4), E(900, 800, 1000))
    assert "300× faster than one without at the median (200–500× within" in faster


@pytest.mark.parametrize(
    ("append", "rewrite", "expected"),
    [
        (
            (E(1000, 990, 1010), E(1000, 980, 1020)),
            (E(500, 450, 550), E(200, 150, 250)),
            ["about as fast as fsync", "Here it has something to skip"],
        ),
        (
            (E(1000, 900, 1100), E(1300, 1200, 1400)),
            (E(500, 450, 550), E(700, 650, 750)),
            [
                "1.3× slower than fsync",
                "not work fdatasync adds",
                "took turns on a disk whose speed drifts",
                "the calls do not explain this gap",
            ],
        ),
        (
            (E(1000, 900, 1100), E(700, 650, 750)),
            (E(500, 300, 700), E(450, 200, 800)),
            [
                "1.4× faster than fsync",
                "more than the work explains; this page does not measure why",
                "does not show beyond",
            ],
        ),
        ((None, E(700, 650, 750)), (None, None), ["could not both be measured", "Rewriting, the two could not"]),
    ],
)
def test_fdatasync_sentence(append, rewrite, expected: list[str]) -> None:
    text = fsync_report.fdatasync_sentence(append[0], append[1], rewrite[0], rewrite[1])
    for words in expected:
        assert words in text
    if append[0] is not None:  # what each call commits is the likely work, not a measured one
        assert "both calls may have to commit that metadata" in text and "must commit that metadata" not in text
    assert "`" not in text and "*" not in text


def _group(medians: dict[int, tuple[float, float, float]]) -> pl.DataFrame:
    rows = []
    for n, values in medians.items():
        for rep, v in enumerate(values):
            rows += [
                {"records_per_sync": n, "repetition": rep, "metric": "records_per_s", "unit": "records/s", "value": v},
                {"records_per_sync": n, "repetition": rep, "metric": "p50", "unit": "us", "value": 1000.0 * n},
            ]
    return pl.DataFrame(rows)


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ({1: (400, 450, 500), 8: (3000, 3100, 3200), 64: (20000, 21000, 22000)}, "still rising at the largest batch"),
        ({1: (400, 450, 500), 8: (3000, 3100, 3200), 64: (3100, 3200, 3300)}, "stops rising by more than a tenth"),
        ({1: (400, 450, 500), 8: (2000, 3100, 6000), 64: (3000, 6500, 9000)}, "though the medians still rose"),
        ({1: (400, 450, 500), 8: (420, 460, 520), 64: (410, 440, 505)}, "No batch size was clearly faster"),
        ({1: (400, 450, 500), 8: (3000, 3100, 3200), 64: (100, 110, 120)}, "Past 8 records per fsync the rate fell"),
        ({1: (400, 450, 500)}, "could not be measured across batch sizes"),
    ],
)
def test_batch_sentence(points: dict, expected: str) -> None:
    text = fsync_report.batch_sentence(_group(points))
    assert expected in text
    if len(points) > 1:
        assert "With 1 record per fsync" in text
    if "stops rising" in expected:  # batch waits grew 8×: the writes, not the flush, may fill them
        assert (
            "from there on the writes, not the flush, may fill most of each batch's time, whether through the bytes "
            "or through a cost paid per write call; this run does not measure which."
        ) in text
        flat_waits = _group(points).with_columns(
            pl.when(pl.col("metric") == "p50").then(1000.0).otherwise(pl.col("value")).alias("value")
        )
        assert "may fill most" not in fsync_report.batch_sentence(flat_waits)
    if "still rising" in expected:  # a cause the runs do not measure, worded as one
        assert "the flushes, not the bytes, may still set the pace" in text


def test_four_kib_runs_and_sentence() -> None:
    lat = pl.DataFrame(
        [
            {"method": "fsync", "layout": layout, "writes": 400, "repetition": r, "metric": "writes_per_s", "value": v}
            for layout, values in (("append", (400.0, 450.0, 500.0)), ("overwrite", (800.0, 850.0, 900.0)))
            for r, v in enumerate(values)
        ]
    )
    empty = pl.DataFrame()
    table = fsync_report.four_kib_runs(lat, empty, empty, empty)
    assert table["run"].to_list() == [fsync_report.FOUR_KIB_RUNS["latency"], fsync_report.FOUR_KIB_RUNS["overwrite"]]
    assert table["writes/s"].to_list() == [450.0, 850.0] and table["repetitions"].to_list() == [3, 3]
    assert fsync_report.four_kib_table(table).columns == fsync_report.FOUR_KIB_SHOWN
    text = fsync_report.four_kib_sentence(table)
    assert "in 2 measurements" in text and "from 450" in text and "to 850" in text and "growing file" in text
    assert "the latency run's appends" in text and "latency run:" not in text  # prose names, not table labels
    assert fsync_report.four_kib_sentence(table.head(1)) == ""
    same = table.with_columns(pl.lit(500.0).alias("writes/s"))
    assert "at the same median rate" in fsync_report.four_kib_sentence(same)


def _runs_4k(rows: list[tuple[str, float, float, float, int]]) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "run": fsync_report.FOUR_KIB_RUNS[key],
                "writes per repetition": writes,
                "repetitions": 3,
                "writes/s": median,
                "interval": f"{lo}–{hi}",
                "layout": fsync_report.FOUR_KIB_LAYOUTS[key],
                "prose": fsync_report.FOUR_KIB_PROSE[key],
                "lo": lo,
                "hi": hi,
            }
            for key, median, lo, hi, writes in rows
        ]
    )


def test_four_kib_sentence_tells_runs_of_one_layout_apart() -> None:
    apart = _runs_4k([("latency", 469, 374, 555, 400), ("block_sizes", 926, 886, 1080, 100)])
    text = fsync_report.four_kib_sentence(apart)
    assert "Measurements that do the same thing to the file differ too" in text and "2× as many" in text
    assert "made 469 per second (374–555)" in text and "926 (886–1,080)" in text  # each figure with its interval
    assert "(400 against 100 writes per run)" in text and "does not measure which" in text
    together = _runs_4k(
        [("latency", 469, 374, 555, 400), ("block_sizes", 500, 450, 560, 100), ("overwrite", 830, 748, 1160, 400)]
    )
    text = fsync_report.four_kib_sentence(together)
    assert "do not clearly differ (their intervals overlap)" in text and "differ too" not in text
    assert "agree within" not in text  # 374–555 against 450–560: unclear, not the same
    unpaired = _runs_4k([("latency", 469, 374, 555, 400), ("overwrite", 830, 748, 1160, 400)])
    text = fsync_report.four_kib_sentence(unpaired)
    assert "in how many writes a run makes" in text and "agree within" not in text


@pytest.mark.parametrize(
    ("p50", "rows", "expected"),
    [
        (E(939, 900, 1000), [("latency", 469, 374, 555, 400), ("block_sizes", 926, 886, 1080, 100)],
         ["took about 939 µs at the median (900 µs–1 ms)",
          "the chapter's 2 measurements of a 4 KiB write + fsync (all appending) made 469 to 926",
          "(about 41 to 80 million a day)"]),
        (E(939, 900, 1000), [("latency", 469, 374, 555, 400)], ["its measurement made 469 durable writes per second"]),
        (None, [("latency", 469, 374, 555, 400)], ["one durable 4 KiB write at a time: its measurement made 469"]),
        (None, [], ["could not be measured here"]),
    ],
)  # fmt: skip
def test_commit_rule(p50, rows, expected: list[str]) -> None:
    runs = _runs_4k(rows) if rows else pl.DataFrame()
    text = fsync_report.commit_rule(p50, runs)
    for words in expected:
        assert words in text
    assert "cannot exceed" not in text  # no ceiling another run of the page beat


def _sweep(values: dict[tuple[str, int], tuple[list[float], list[float]]]) -> pl.DataFrame:
    rows = []
    for (method, size), (mb, p50) in values.items():
        for metric, series in (("mb_per_s", mb), ("p50", p50)):
            for rep, v in enumerate(series):
                unit = "MB/s" if metric == "mb_per_s" else "us"
                row = {"method": method, "block_size": size, "repetition": rep, "metric": metric}
                rows.append({**row, "unit": unit, "value": v})
    return pl.DataFrame(rows)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({("fsync", 4096): ([3.7, 3.8, 3.9], [500, 514, 530]),
          ("fsync", 1048576): ([460, 469, 480], [1300, 1390, 1500])},
         ["256× the bytes for 2.7× the time", "a model this run does not test",
          "the fixed part would be at least 99 % of a 4 KiB write's time: bigger writes may spread a fixed cost"]),
        ({("fsync", 4096): ([3.7, 3.8, 3.9], [500, 514, 530]),
          ("fsync", 1048576): ([20, 21, 22], [90000, 95000, 99000])},
         ["the fixed part would be at most 34 % of a 4 KiB write's time (23–34 % within the intervals): at these "
          "sizes the bytes, not the flush, may cost most."]),
        ({("fsync", 4096): ([3.0, 3.8, 5.0], [500, 514, 530]), ("fsync", 1048576): ([2.5, 4.0, 6.0], [900, 950, 990])},
         ["did not clearly make more bytes durable per second (1.05× by the medians, but the intervals overlap)"]),
        ({("fsync", 4096): ([3.79, 3.8, 3.81], [500, 514, 530]),
          ("fsync", 1048576): ([3.78, 3.8, 3.82], [900, 950, 990])},
         ["did not clearly make more bytes durable per second (about the same, 1× by the medians)"]),
        ({("fsync", 4096): ([3.7, 3.8, 3.9], [500, 514, 530]), ("fsync", 1048576): ([1.0, 1.1, 1.2], [900, 950, 990])},
         ["made fewer bytes durable per second (0.29× by the medians, with intervals apart)"]),
        ({("fsync", 4096): ([3.7, 3.8, 3.9], [500, 514, 530])}, ["did not measure two block sizes"]),
        # the larger write took less time than the smaller one: no fixed-plus-per-byte share to quote
        ({("fsync", 4096): ([3.7, 3.8, 3.9], [500, 514, 530]),
          ("fsync", 1048576): ([3000, 3100, 3200], [300, 310, 320])},
         ["That time ratio lies wholly outside 1–256×, so a model of one fixed cost per flush plus a cost per byte "
          "does not fit these runs."]),
    ],
)  # fmt: skip
def test_block_sentence(values: dict, expected: list[str]) -> None:
    text = fsync_report.block_sentence(_sweep(values))
    for words in expected:
        assert words in text
    if len(values) > 1:
        assert text.startswith(
            "In the block-size sweep (appending, fsync after each write), 4 KiB blocks made 3.8 MB/s ("
        )
    assert "could not run" in fsync_report.block_sentence(pl.DataFrame())


def test_write_cache_short() -> None:
    assert fsync_report.write_cache_short({"write_cache": "write back", "fua": False}) == "write back, without FUA"
    assert fsync_report.write_cache_short({"write_cache": "write through", "fua": True}) == "write through, with FUA"
    assert fsync_report.write_cache_short({"write_cache": "write back"}) == "write back"
    assert fsync_report.write_cache_short({}).startswith("not reported")


def test_reference_sentence_names_the_write_cache() -> None:
    virtual = {"write_cache": "write back", "fua": False, "device_kind": "a virtual disk (virtio-blk)"}
    text = fsync_report.reference_sentence(E(900, 800, 1000), 660.0, virtual)
    assert "not comparable" in text and "write back, without FUA" in text and "hypervisor" in text
    assert text.startswith("The laptop of seed 000 printed about 660 µs per fsync")
    assert "took 900 µs (800 µs–1 ms) at the median" in text
    assert "×" not in text  # no ratio between unlike things
    local = {"write_cache": "write through", "fua": True, "device_kind": "an NVMe drive"}
    text = fsync_report.reference_sentence(None, 660.0, local)
    assert "could not be measured" in text and "write through, with FUA" in text and text.endswith(".")
    assert "hypervisor" not in text


def _fio(
    rates: dict[str, tuple[list[float], list[float]]], means: dict[str, tuple[list[float], list[float]]]
) -> pl.DataFrame:
    rows = []
    for metric, table in (("writes_per_s", rates), ("mean", means)):
        for method, (ours, theirs) in table.items():
            for tool, values in (("howfast", ours), ("fio", theirs)):
                for r, v in enumerate(values):
                    unit = "writes/s" if metric == "writes_per_s" else "us"
                    row = {"method": method, "tool": tool, "repetition": r, "metric": metric, "unit": unit}
                    rows.append({**row, "value": v, "note": None})
    return pl.DataFrame(rows)


def test_fio_sentence_verdicts_and_explanations() -> None:
    same_rate = ([1000.0, 1000, 1000], [1000.0, 1010, 990])
    faster = ([1400.0, 1400, 1400], [1000.0, 1000, 1000])
    metrics = _fio(
        {"fsync": same_rate, "fdatasync": faster, "dsync": faster, "direct_dsync": ([1000.0, 500, 2000], [1000.0] * 3)},
        {
            "fsync": ([1000.0] * 3, [1000.0] * 3),
            "fdatasync": ([700.0] * 3, [1000.0] * 3),
            "dsync": ([1000.0] * 3, [1000.0] * 3),
        },
    )
    text = fsync_report.fio_sentence(metrics)
    assert "agrees with fio on write + fsync" in text
    assert (
        "is faster than fio on write + fdatasync (1.4× of fio's rate, 1.4×)" in text
        and "mean time per write 0.7× fio's" in text
    )
    # rate and time per write agree on the factor: where the gap lies is a suggestion, not a finding
    assert "that suggests the gap lies in the I/O itself" in text
    assert "yet with a mean time per write that agrees" in text and "its own set-up" in text  # dsync: time agrees
    assert "the gap may lie outside the I/O" in text
    assert "cannot be told apart from fio on this machine on O_DIRECT | O_DSYNC write" in text
    assert text.startswith("Over 3 rounds")
    assert "part of the gap may lie in the I/O" not in text
    assert "read it as a lead" not in text  # each tool's own runs lie apart: no caveat
    # the time per write leans the same way, but by another factor: only part of the gap is the I/O
    partly = fsync_report.fio_sentence(_fio({"fsync": faster}, {"fsync": ([400.0] * 3, [1000.0] * 3)}))
    assert "mean time per write 0.4× fio's" in partly and "part of the gap may lie in the I/O" in partly
    assert "the gap lies in the I/O itself" not in partly
    # the table shows the very ratios the sentence quotes
    table = fsync_report.fio_table(metrics)
    row = table.filter(pl.col("method") == "write + fdatasync").row(0, named=True)
    assert row[fsync_report.FIO_RATIO] == "1.4×" and row["verdict"] == "ours higher"
    assert row[fsync_report.FIO_TIME] == "0.7×" and row["rounds"] == 3
    edge = _fio({"fsync": ([1000.0, 1005, 700], [1000.0] * 3)}, {})
    assert fsync_report.fio_table(edge).row(0, named=True)[fsync_report.FIO_RATIO] == "1× (0.7–1.005×)"
    slower = _fio({"fsync": ([700.0] * 3, [1000.0] * 3)}, {})
    assert "is slower than fio on write + fsync (0.7× of fio's rate, 0.7×)" in fsync_report.fio_sentence(slower)
    missing = pl.DataFrame(
        {
            "method": ["fsync"],
            "tool": ["fio"],
            "repetition": [0],
            "metric": ["unsupported"],
            "value": [None],
            "note": ["fio is not installed"],
        }
    )
    assert "could not run here (fio is not installed)" in fsync_report.fio_sentence(missing)


def test_fio_rounds_sentence() -> None:
    three = _fio({"fsync": ([1000.0] * 3, [1000.0] * 3)}, {})
    assert "With 3 rounds, each interval runs from the lowest to the highest ratio" in (
        fsync_report.fio_rounds_sentence(three)
    ) and "75 % confidence" in fsync_report.fio_rounds_sentence(three)
    nine = _fio({"fsync": ([1000.0] * 9, [1000.0] * 9)}, {})
    assert fsync_report.fio_rounds_sentence(nine).startswith("Each interval holds the median ratio of its 9 rounds")
    assert fsync_report.fio_rounds_sentence(pl.DataFrame()) == ""


def test_reference_chart_writes_numbers_as_prose() -> None:
    frame = pl.DataFrame(
        {"label": ["this machine, growing file", "HDD (estimate) — seed 003"], "latency_us": [939.0, 20000.0],
         "lo": [658.0, 20000.0], "hi": [1920.0, 20000.0], "this_machine": [True, False]}
    )  # fmt: skip
    spec = fsync_report.reference_chart(frame).to_dict()
    assert spec["layer"][1]["encoding"]["text"]["field"] == "bar_text"
    assert spec["layer"][2]["mark"]["type"] == "rule" and spec["layer"][2]["encoding"]["x2"]["field"] == "hi"
    assert "data" in spec or all("data" in layer for layer in spec["layer"])
    # this machine's label gives the interval its rule draws; a printed figure stays one number
    assert fsync_report._bar_text(frame) == ["939 (658–1,920)", "20,000"]
    old = frame.drop("lo", "hi")  # a frame without intervals still draws, each label its figure
    assert fsync_report.reference_chart(old).to_dict()["layer"][1]["encoding"]["text"]["field"] == "bar_text"


def test_versus_reference_carries_the_interval_of_this_machines_median() -> None:
    lat = pl.DataFrame(
        [
            {"method": "fsync", "layout": layout, "repetition": r, "metric": "p50", "unit": "us", "value": v}
            for layout, values in (("append", (800.0, 939.0, 1000.0)), ("overwrite", (500.0, 547.0, 700.0)))
            for r, v in enumerate(values)
        ]
    )
    frame = fsync_report.versus_reference(lat)
    ours = frame.filter(pl.col("this_machine")).sort("label")
    assert ours["label"].to_list() == ["this machine, growing file", "this machine, rewritten file"]
    assert ours["lo"].to_list() == [800.0, 500.0] and ours["hi"].to_list() == [1000.0, 700.0]
    theirs = frame.filter(~pl.col("this_machine"))
    assert (theirs["lo"] == theirs["latency_us"]).all() and (theirs["hi"] == theirs["latency_us"]).all()


@pytest.mark.parametrize(
    ("big", "one", "expected"),
    [
        (E(40000, 39000, 41000), E(450, 400, 500), "Batching is the lever"),
        (E(460, 400, 520), E(450, 400, 500), "the runs cannot tell"),
        (None, E(450, 400, 500), "could not be measured"),
    ],
)
def test_batch_rule(big, one, expected: str) -> None:
    assert expected in fsync_report.batch_rule(big, one)
    if big is not None:
        assert " of 1,024 records per fsync made" in fsync_report.batch_rule(big, one, 1024)


@pytest.mark.parametrize(
    ("rewrite", "append", "expected"),
    [
        (E(830, 750, 1160), E(469, 374, 555), "cheaper to sync than one that grows"),
        (E(300, 250, 350), E(469, 374, 555), "opposite of what the work"),
        (E(500, 300, 700), E(469, 374, 555), "does not show beyond the intervals"),
        (None, E(469, 374, 555), "could not be measured"),
    ],
)
def test_layout_rule(rewrite, append, expected: str) -> None:
    text = fsync_report.layout_rule(rewrite, append)
    assert expected in text
    if rewrite is not None:  # every verdict shows the two figures it rests on, with their intervals
        assert f"{rewrite.median:,.0f} durable writes per second rewriting ({rewrite.lo:,.0f}–" in text
        assert "469 appending (374–555)." in text


def test_layout_rule_names_another_append_run_that_matched_the_rewrites() -> None:
    rewrite, append = E(830, 750, 1160), E(469, 374, 555)
    sweep = ("the block-size sweep's appends", E(926, 886, 1080))
    text = fsync_report.layout_rule(rewrite, append, [sweep])
    assert text.startswith("Within the latency run, rewrites were faster, with intervals apart: rewriting a file "
                           "made 4 KiB writes durable 1.8× faster than appending to a new one (1.4–3.1×).")  # fmt: skip
    assert (
        "Across runs the gap is no larger than the drift between measurements: the block-size sweep's appends "
        "made 926 per second (886–1,080), not clearly fewer than those rewrites."
    ) in text
    assert "830 durable writes per second rewriting (750–1,160), 469 appending (374–555)" in text
    assert "cheaper to sync than one that grows" not in text and "as expected" not in text
    assert "so no factor here is the disk's" in text
    slower = ("the block-size sweep's appends", E(300, 280, 320))
    assert "cheaper to sync than one that grows" in fsync_report.layout_rule(rewrite, append, [slower, ("x", None)])


# --- issue 20: every figure with its interval and run count ---


def _latency(cases: dict[tuple[str, str], dict[str, list[float]]], unsupported: tuple[str, ...] = ()) -> pl.DataFrame:
    rows = []
    for (method, layout), metrics in cases.items():
        for metric, values in metrics.items():
            for r, v in enumerate(values):
                row = {"method": method, "layout": layout, "writes": 400, "repetition": r, "metric": metric}
                rows.append({**row, "unit": "us", "value": v, "note": None})
    for method in unsupported:
        row = {"method": method, "layout": "append", "writes": 400, "repetition": 0, "metric": "unsupported"}
        rows.append({**row, "unit": None, "value": None, "note": "O_DIRECT is refused here"})
    return pl.DataFrame(rows)


STEADY = {"writes_per_s": [460.0, 469, 480], "p50": [930.0, 939, 950], "p90": [4600.0, 4690, 4700],
          "p99": [13000.0, 13800, 14000], "mean": [2100.0, 2130, 2150]}  # fmt: skip
NOISY = {"writes_per_s": [18600.0, 299000, 317000], "p50": [2.91, 2.94, 2.96], "p90": [3.25, 3.27, 3.96],
         "p99": [5.78, 5.95, 22.1], "mean": [3.2, 3.3, 3.4]}  # fmt: skip


def test_method_table_cells_carry_intervals_marks_and_reasons() -> None:
    lat = _latency({("fsync", "append"): STEADY, ("none", "append"): NOISY}, unsupported=("direct",))
    table = fsync_report.method_table(lat, "append", 0.1)
    assert table.columns == ["method", "writes/s", "p50", "runs", "unsupported"]
    assert table.row(0) == ("write + fsync", "469 (460–480)", "939 µs (930–950 µs)", 3, None)
    assert table.row(1) == (
        "write, no sync", "299,000 (18,600–317,000); unstable: −94 %/+6 %", "2.94 µs (2.91–2.96 µs)", 3, None
    )  # fmt: skip
    assert table.row(2) == ("O_DIRECT write, no sync", "n/a", "n/a", None, "O_DIRECT is refused here")
    assert "unsupported" not in fsync_report.method_table(lat.filter(pl.col("method") != "direct"), "append").columns
    assert fsync_report.method_table(pl.DataFrame(), "append").height == 0
    tails = fsync_report.tail_table(lat, "append", 0.1)
    assert tails.row(0) == ("write + fsync", "4.69 ms (4.6–4.7 ms)", "13.8 ms (13–14 ms)")
    assert tails.row(1) == ("write, no sync", "3.27 µs (3.25–3.96 µs); unstable: −1 %/+21 %",
                            "5.95 µs (5.78–22.1 µs); unstable: −3 %/+271 %")  # fmt: skip
    assert tails.height == 2  # the method that could not run is left out


def test_duration_span_writes_a_shared_unit_once() -> None:
    assert fsync_report._duration_span(2.91, 2.96) == "2.91–2.96 µs"
    assert fsync_report._duration_span(658, 1920) == "658 µs–1.92 ms"
    assert fsync_report._figure(stats.Estimate(5, 5, 5, 1), None, fsync_report.fmt.duration_us) == "5 µs"
    assert fsync_report._figure(None, 0.1, fsync_report.fmt.duration_us) == "n/a"


def test_runs_words() -> None:
    lat = _latency({("fsync", "append"): STEADY})
    assert fsync_report.runs_words(lat) == "3"
    other = _latency({("none", "append"): {"p50": [1.0, 2.0, 3.0, 4.0, 5.0]}})
    assert fsync_report.runs_words(pl.concat([lat, other])) == "3 to 5"
    assert fsync_report.runs_words(pl.DataFrame()) == "none"


def test_layout_comparison_gives_the_chart_the_interval() -> None:
    lat = _latency({("fsync", "append"): STEADY, ("fsync", "overwrite"): NOISY})
    frame = fsync_report.layout_comparison(lat)
    assert frame.columns == ["method", "layout", "median", "lo", "hi", "repetitions"]
    assert frame.row(0) == ("write + fsync", "growing file", 939.0, 930.0, 950.0, 3)


@pytest.mark.parametrize(
    ("cases", "target", "expected"),
    [
        ({("fsync", "append"): STEADY}, 0.1, "After 3 runs each, every case's interval of the median writes "
         "per second had half its width within 10 % of the median."),
        # the widest case's mark as the table prints it: a lopsided interval gives each side
        ({("fsync", "append"): STEADY, ("none", "append"): NOISY}, 0.1, "After 3 runs each, 1 of 2 cases kept an "
         "interval of the median writes per second with half its width more than 10 % of the median (with fewer "
         "than six runs an interval "
         "is the slowest to the fastest run); the widest from end to end, write, no sync, −94 %/+6 %. The table "
         "marks them unstable"),
        ({("none", "append"): NOISY}, 0.1, "After 3 runs each, all 1 cases kept"),
        ({("fsync", "append"): STEADY, ("none", "append"): NOISY}, None, "1 of 2 cases varied by more than 1.5× "
         "between repetitions (worst: write, no sync, 17×)"),
        ({("fsync", "append"): STEADY}, None, "Every case's slowest and fastest repetitions were within 1.5×"),
    ],
)  # fmt: skip
def test_spread_sentence(cases: dict, target, expected: str) -> None:
    assert expected in fsync_report.spread_sentence(_latency(cases), ["method"], target)


def test_spread_sentence_with_more_runs_drops_the_min_max_note() -> None:
    many = {"writes_per_s": [100.0, 200, 300, 400, 500, 600, 700, 800]}
    text = fsync_report.spread_sentence(_latency({("fsync", "append"): many}), ["method"], 0.1)
    assert text.startswith("After 8 runs each, all 1 cases") and "fewer than six" not in text
    no_rate = _latency({("fsync", "append"): {"p50": [1.0, 2.0, 3.0]}})
    assert fsync_report.spread_sentence(no_rate, ["method"], 0.1) == ""


def test_headline_sentence() -> None:
    both = _latency({("fsync", "append"): STEADY, ("none", "append"): NOISY})
    text = fsync_report.headline_sentence(both, 0.1)
    assert text == (
        "In the latency run, appending to a new file, a 4 KiB write + fsync took 939 µs at the median and 13.8 ms "
        "at the 99th percentile. Counting every write, slow ones included, the mean took 2.13 ms, and one thread made "
        "469 writes durable per second (460–480 over 3 runs). Without the sync the same loop ran 299,000 writes per "
        "second (18,600–317,000; unstable: −94 %/+6 %), the median write taking 2.94 µs."
    )
    alone = fsync_report.headline_sentence(_latency({("fsync", "append"): NOISY}), 0.1)
    assert (
        "(18,600–317,000 over 3 runs; unstable: −94 %/+6 %)" in alone
        and "without the sync could not be measured" in alone
    )
    assert "could not be measured here" in fsync_report.headline_sentence(_latency({("none", "append"): NOISY}), 0.1)


def test_four_kib_table_marks_unstable_rows() -> None:
    runs = _runs_4k([("latency", 469, 374, 555, 400), ("block_sizes", 926, 900, 950, 100)])
    table = fsync_report.four_kib_table(runs, 0.1)
    assert table.columns == fsync_report.FOUR_KIB_SHOWN
    assert table.row(0) == (fsync_report.FOUR_KIB_RUNS["latency"], 400, 469.0, "374–555", 3, "unstable: ±19 %")
    assert table.row(1) == (fsync_report.FOUR_KIB_RUNS["block_sizes"], 100, 926.0, "900–950", 3, "")
    assert fsync_report.four_kib_table(runs)["note"].to_list() == ["", ""]  # no target: nothing to mark


def test_fio_table_gives_each_side_its_interval_and_the_rounds() -> None:
    metrics = _fio(
        {"fsync": ([700.0, 721, 730], [650.0, 658, 660]), "dsync": ([383.0, 721, 966], [500.0, 658, 1100])},
        {"fsync": ([1000.0] * 3, [1100.0] * 3)},
    )
    table = fsync_report.fio_table(metrics, 0.1)
    assert table.columns == ["method", "howfast writes/s", "fio writes/s", fsync_report.FIO_RATIO, "verdict",
                             fsync_report.FIO_TIME, "rounds"]  # fmt: skip
    steady = table.row(0, named=True)
    assert steady["howfast writes/s"] == "721 (700–730)" and steady["fio writes/s"] == "658 (650–660)"
    assert steady[fsync_report.FIO_RATIO] == "1.096× (1.08–1.11×)" and steady["verdict"] == "ours higher"
    assert steady[fsync_report.FIO_TIME] == "0.91×" and steady["rounds"] == 3
    noisy = table.row(1, named=True)
    assert noisy["howfast writes/s"] == "721 (383–966); unstable: ±40 %" and noisy[fsync_report.FIO_TIME] == "n/a"
    assert noisy["verdict"] == "inconclusive"
    assert fsync_report.fio_table(pl.DataFrame()).height == 0


def test_commit_rule_counts_rewrites_apart_and_names_another_pages_run_outside_the_range() -> None:
    runs = _runs_4k([("latency", 469, 374, 555, 400), ("overwrite", 830, 748, 1160, 400),
                     ("block_sizes", 926, 886, 1080, 100)])  # fmt: skip
    text = fsync_report.commit_rule(E(939, 900, 1000), runs, ("the storing-data chapter's SQLite baseline",
                                                               E(269, 252, 311)))  # fmt: skip
    assert "the chapter's 3 measurements of a 4 KiB write + fsync (2 appending, 1 rewriting) made 469 to 926" in text
    assert text.endswith(
        "however fast its CPU is. The storing-data chapter's SQLite baseline made 269 per second (252–311, 3 runs), "
        "clearly below that range, in a run of its own: another file, another moment on a disk whose speed drifts."
    )
    above = fsync_report.commit_rule(E(939, 900, 1000), runs, ("another run", E(2000, 1900, 2100)))
    assert "Another run made 2,000 per second (1,900–2,100, 3 runs), clearly above that range" in above
    inside = fsync_report.commit_rule(E(939, 900, 1000), runs, ("another run", E(500, 300, 700)))
    assert "another run" not in inside.lower() and inside.endswith("however fast its CPU is.")
    assert fsync_report.commit_rule(E(939, 900, 1000), runs, ("x", None)).endswith("however fast its CPU is.")
    rewrites = _runs_4k([("overwrite", 830, 748, 1160, 400), ("vs_fio", 800, 700, 900, 100)])
    assert "2 measurements of a 4 KiB write + fsync (all rewriting)" in fsync_report.commit_rule(None, rewrites)


def test_reference_chart_groups_this_machine_first_without_ranking() -> None:
    frame = pl.DataFrame({"label": ["WD", "this machine, growing file", "HDD", "this machine, rewritten file"],
                          "latency_us": [660.0, 939.0, 20000.0, 547.0], "lo": [660.0, 658.0, 20000.0, 320.0],
                          "hi": [660.0, 1920.0, 20000.0, 728.0],
                          "this_machine": [False, True, False, True]})  # fmt: skip
    spec = fsync_report.reference_chart(frame).to_dict()
    order = ["this machine, growing file", "this machine, rewritten file", "WD", "HDD"]
    assert spec["layer"][0]["encoding"]["y"]["sort"] == order and spec["layer"][1]["encoding"]["y"]["sort"] == order
    assert "better" not in str(spec.get("title", "")).lower()


def test_split_table_keeps_the_key_and_the_note_in_the_second_half() -> None:
    table = pl.DataFrame({"method": ["fsync"], "howfast writes/s": ["721"], "fio writes/s": ["658"],
                          fsync_report.FIO_RATIO: ["1.07×"], "verdict": ["inconclusive"],
                          fsync_report.FIO_TIME: ["0.93×"], "rounds": [3], "note": ["why"]})  # fmt: skip
    one, two = fsync_report.split_table(table, "method", fsync_report.FIO_FIGURES, fsync_report.FIO_RATIOS)
    assert one.columns == ["method", "howfast writes/s", "fio writes/s", "rounds"]
    assert two.columns == ["method", fsync_report.FIO_RATIO, "verdict", fsync_report.FIO_TIME, "note"]
    one, two = fsync_report.split_table(table.drop("note", "rounds"), "method", fsync_report.FIO_FIGURES,
                                        fsync_report.FIO_RATIOS)  # fmt: skip
    assert one.columns == ["method", "howfast writes/s", "fio writes/s"] and "note" not in two.columns


# --- review fixes: every branch of the rewritten sentences ---


def test_fdatasync_sentence_names_unequal_runs_instead_of_taking_turns() -> None:
    equal = fsync_report.fdatasync_sentence(E(1000, 900, 1100), E(1300, 1200, 1400), None, None)
    assert "the two methods' runs took turns on a disk whose speed drifts" in equal
    fewer = stats.Estimate(1000, 900, 1100, 6, 0.75)
    text = fsync_report.fdatasync_sentence(fewer, E(1300, 1200, 1400), None, None)
    assert "took turns" not in text
    assert "did not run equally often (3 runs against 6 runs)" in text and "ran only some cases" in text


@pytest.mark.parametrize(
    ("big", "one", "expected", "absent"),
    [
        (E(300, 280, 320), E(450, 400, 500), "Batching did not pay here", "cannot tell"),
        (E(450, 449, 451), E(450, 449, 451), "Batching bought nothing here", "cannot tell"),
        (E(460, 452, 470), E(440, 435, 450), "Batching paid here, though by little", "the lever"),
        (E(460, 300, 700), E(450, 400, 500), "Whether batching pays on this disk the runs cannot tell", "limits"),
    ],
)
def test_batch_rule_states_a_cause_only_when_the_runs_show_one(big, one, expected: str, absent: str) -> None:
    text = fsync_report.batch_rule(big, one)
    assert expected in text and absent not in text
    assert "the flush is not what" not in text  # a cause the runs do not measure is worded as a possibility
    if "did not pay" in expected or "nothing" in expected:
        assert "the flush may not be what limits the rate; this run does not measure what does" in text
    if "by little" in expected:
        assert "slightly faster than one fsync per record (1.05×; 1.004–1.08×)" in text


@pytest.mark.parametrize(
    ("direct", "dsync", "supported", "reason", "expected"),
    [
        (E(40000, 39000, 41000), E(450, 400, 500), True, "", "89× faster than an O_DIRECT | O_DSYNC write (78–100×);"),
        (E(440, 400, 500), E(450, 400, 500), True, "", "leaving out the sync did not make it clearly faster"),
        (None, None, False, "EINVAL on tmpfs", "O_DIRECT could not run here (EINVAL on tmpfs), so this run cannot"),
        (None, None, True, "", "without a sync was not measured here"),
        (E(440, 400, 500), None, True, "", "ran at 440 writes/s (400–500); O_DIRECT | O_DSYNC was not measured"),
    ],
)
def test_direct_rule_says_fast_only_when_the_runs_show_it(direct, dsync, supported, reason, expected: str) -> None:
    text = fsync_report.direct_rule(direct, dsync, supported, reason)
    assert expected in text
    assert text.endswith("is not durable: skipping the cache is not durability.")
    assert ("faster than" in text) == (expected.startswith("89×"))
    with pytest.raises(TypeError, match="supported"):
        fsync_report.direct_rule(None, None, "yes", "")  # type: ignore[arg-type]


def test_batch_sentence_flat_but_unclear_does_not_blame_the_flush() -> None:
    text = fsync_report.batch_sentence(_group({1: (400, 450, 500), 8: (300, 460, 700), 64: (200, 470, 800)}))
    assert "No batch size was clearly faster" in text and "not what costs" not in text
    slower = fsync_report.batch_sentence(_group({1: (400, 450, 500), 8: (300, 310, 320), 64: (300, 320, 340)}))
    assert slower.endswith(  # clearly slower: the flush may not be what costs, worded as a possibility
        "No batch size was clearly faster than one record per fsync: on this disk the flush may not be what "
        "costs, though this run cannot say what does."
    )
    assert "too widely to say whether the flush is what costs" in text


def test_block_sentence_says_when_the_intervals_do_not_tell_what_dominates() -> None:
    # 256× the bytes; the time grew 100–200×: the interval straddles 128×
    values = {("fsync", 4096): ([3.7, 3.8, 3.9], [500, 510, 520]),
              ("fsync", 1048576): ([460, 469, 480], [52000, 75000, 100000])}  # fmt: skip
    text = fsync_report.block_sentence(_sweep(values))
    assert "the fixed part could be 22–61 % of a 4 KiB write's time (the time grew by 100–200× against 256×" in text
    assert "these intervals do not say" in text
    assert "would be at least" not in text and "would be at most" not in text


@pytest.mark.parametrize(
    ("lo", "hi", "expected"),
    [
        (2.0, 3.0, (0.992157, 0.996078)),  # time ratio r for k× the bytes: (k − r)/(k − 1) = 253/255, 254/255
        (128.0, 128.0, (0.501961, 0.501961)),  # 128/255
        (0.5, 300.0, (0.0, 1.0)),  # a ratio below 1 or above k does not fit the model: clipped
    ],
)
def test_fixed_share_reads_the_time_ratio_under_a_fixed_plus_per_byte_model(lo, hi, expected) -> None:
    from howfast import claims

    got = fsync_report.fixed_share(claims.Comparison(claims.HIGHER, (lo + hi) / 2, lo, hi), 256)
    assert got == pytest.approx(expected)
    assert fsync_report.fixed_share(claims.Comparison(claims.MISSING), 256) is None
    with pytest.raises(ValueError, match="factor"):
        fsync_report.fixed_share(claims.Comparison(claims.HIGHER, 2.0, 1.0, 3.0), 1)
    with pytest.raises(TypeError, match="longer"):
        fsync_report.fixed_share((1.0, 2.0), 256)  # type: ignore[arg-type]


def test_four_kib_sentence_names_the_layout_only_when_the_groups_lie_apart() -> None:
    apart = _runs_4k(
        [("latency", 469, 374, 555, 400), ("block_sizes", 500, 450, 560, 100), ("overwrite", 830, 748, 1160, 400)]
    )
    text = fsync_report.four_kib_sentence(apart)
    assert "every append's interval lies below every rewrite's, so the layout separates the two groups" in text
    mixed = _runs_4k(
        [("latency", 469, 374, 555, 400), ("block_sizes", 700, 450, 800, 100), ("overwrite", 830, 748, 1160, 400)]
    )
    text = fsync_report.four_kib_sentence(mixed)
    assert "do not clearly differ (their intervals overlap), nor does the layout separate them here" in text
    assert "may be why" not in text


def test_other_appends_takes_every_4k_append_but_the_latency_run() -> None:
    runs = _runs_4k([("latency", 469, 374, 555, 400), ("overwrite", 830, 748, 1160, 400),
                     ("block_sizes", 926, 886, 1080, 100), ("group_commit", 700, 650, 750, 100),
                     ("vs_fio", 800, 700, 900, 100)])  # fmt: skip
    found = fsync_report.other_appends(runs)
    assert [name for name, _ in found] == [fsync_report.FOUR_KIB_PROSE["block_sizes"],
                                           fsync_report.FOUR_KIB_PROSE["group_commit"]]  # fmt: skip
    assert found[1][1] == stats.Estimate(700, 650, 750, 3)
    assert fsync_report.other_appends(pl.DataFrame()) == []
    # group commit's appends matched the rewrites, so the rule does not call the reused log cheaper
    text = fsync_report.layout_rule(E(830, 750, 900), E(469, 374, 555), found[1:])
    assert "group commit's appends at 1 record per fsync made 700" in text


def test_reference_sentence_names_each_statistic() -> None:
    facts = {"write_cache": "write back", "fua": False, "device_kind": "an NVMe drive"}
    text = fsync_report.reference_sentence(E(900, 800, 1000), 660.0, facts, E(1200, 1100, 1300), 1380.0)
    assert "does not say which statistic it is (a median, a mean or one run)" in text
    assert "the same sentence's 1,380 fsyncs per second would be 725 µs per fsync on average" in text
    assert "took 900 µs (800 µs–1 ms) at the median (p50) and 1.2 ms (1.1–1.3 ms) on average" in text
    alone = fsync_report.reference_sentence(E(900, 800, 1000), 660.0, facts)
    assert "on average" not in alone and "at the median (p50)." in alone


# --- review of the full profile: F1-F5, F8-F10 ---


def test_fio_sentence_quotes_the_median_ratio_inside_its_own_interval() -> None:
    # ours 0.97 of fio's rate (0.87-0.99): the point the text quotes lies within the interval beside it
    slower = _fio({"fsync": ([870.0, 950, 970, 980, 990], [1000.0] * 5)}, {"fsync": ([1.03] * 5, [1.0] * 5)})
    text = fsync_report.fio_sentence(slower)
    assert "is slower than fio on write + fsync (0.97× of fio's rate, 0.87–0.99×)" in text
    assert fsync_report.fio_table(slower).row(0, named=True)[fsync_report.FIO_RATIO] == "0.97× (0.87–0.99×)"
    agrees = fsync_report.fio_sentence(_fio({"fsync": ([1000.0] * 3, [1000.0] * 3)}, {}))
    assert "agrees with fio on write + fsync (1× of fio's rate, 1×)" in agrees


def test_fio_sentence_gives_the_range_of_rounds() -> None:
    uneven = _fio({"fsync": ([1000.0] * 5, [1000.0] * 5), "dsync": ([1000.0] * 11, [1000.0] * 11)}, {})
    assert fsync_report.fio_sentence(uneven).startswith("Over 5 to 11 rounds of alternating runs")
    assert fsync_report.fio_sentence(_fio({"fsync": ([1000.0] * 5, [1000.0] * 5)}, {})).startswith("Over 5 rounds")


def test_agrees_band_and_factor_cell() -> None:
    assert fsync_report.agrees_band() == "0.9–1.1×"
    assert fsync_report.factor_cell(1.0297) == "1.03×" and fsync_report.factor_cell(None) == "n/a"


def test_layout_rule_says_the_rewritten_file_was_written_ahead_not_preallocated() -> None:
    text = fsync_report.layout_rule(E(830, 750, 1160), E(469, 374, 555))
    assert text.startswith("A log file written in full ahead of time (filled and synced) and then reused is cheaper")
    assert "preallocated" not in text
    rival = fsync_report.layout_rule(E(830, 750, 1160), E(469, 374, 555), [("x", E(926, 886, 1080))])
    assert "preallocated" not in rival and "may save a growing file's metadata commit" in rival


def test_four_kib_sentence_words_what_a_rewrite_changes_as_a_possibility() -> None:
    apart = _runs_4k([("latency", 469, 374, 555, 400), ("overwrite", 830, 748, 800, 400)])
    apart = apart.with_columns(pl.Series("lo", [374.0, 748.0]), pl.Series("hi", [555.0, 900.0]))
    for text in (
        fsync_report.four_kib_sentence(_runs_4k([("latency", 469, 374, 555, 400), ("block_sizes", 500, 450, 560, 100),
                                                 ("overwrite", 830, 748, 1160, 400)])),
        fsync_report.four_kib_sentence(apart),
    ):  # fmt: skip
        assert "allocates blocks on every write" in text and "may change no metadata at all" in text
        assert "only its data and timestamps" not in text


def test_commit_rule_says_not_clearly_below_where_the_intervals_overlap() -> None:
    runs = _runs_4k([("latency", 7430, 5480, 7780, 5000), ("overwrite", 11800, 9290, 12400, 5000)])
    text = fsync_report.commit_rule(E(135, 130, 186), runs, ("the SQLite baseline", E(5820, 5530, 7310)))
    assert (
        "The SQLite baseline made 5,820 per second (5,530–7,310, 3 runs), below that range by the medians but not "
        "clearly below it: its interval overlaps that of the latency run's appends (5,480–7,780), in a run of its own"
    ) in text
    above = fsync_report.commit_rule(E(135, 130, 186), runs, ("another run", E(12500, 12000, 13000)))
    assert "above that range by the medians but not clearly above it" in above
    clear = fsync_report.commit_rule(E(135, 130, 186), runs, ("another run", E(5000, 4900, 5100)))
    assert "clearly below that range, in a run of its own" in clear


def test_batch_sentence_gives_the_range_of_runs_per_batch_size() -> None:
    points = {1: (400, 450, 500), 8: (2000, 3100, 6000), 64: (3000, 6500, 9000)}
    text = fsync_report.batch_sentence(_group(points))
    assert "with 3 runs per batch size" in text
    uneven = _group({**points, 64: (3000, 4000, 6500, 8000, 9000)})
    assert "with 3 to 5 runs per batch size" in fsync_report.batch_sentence(uneven)


def test_block_sentence_says_where_no_sync_was_not_clearly_faster() -> None:
    values = {
        ("fsync", 4096): ([30.0, 31, 32], [128, 132, 136]),
        ("fsync", 524288): ([1455.0, 1488, 1511], [340, 350, 360]),
        ("none", 4096): ([1500.0, 1600, 1700], [2, 2.2, 2.4]),
        ("none", 524288): ([646.0, 894, 958], [500, 600, 800]),
        ("dsync", 524288): ([800.0, 900, 1000], [500, 520, 540]),
    }
    text = fsync_report.block_sentence(_sweep(values))
    assert (
        "Writing without a sync did not always make clearly more MB/s than writing with one: at 512 KiB it made "
        "894 MB/s (646–958), less than write + fsync's 1,490 (1,460–1,510) and not clearly different from O_DSYNC "
        "write's 900 (800–1,000), and its median write took 600 µs (500–800 µs), 1.7× slower than write + fsync's "
        "350 µs (340–360 µs) and not clearly slower or faster than O_DSYNC write's 520 µs (1.2× by the medians, but "
        "the intervals overlap). MB/s counts every write of a run (the bytes over the run's whole time, so it "
        "follows the mean time per write), while the p50 is the median write of the same runs. This page cannot "
        "say why; writeback of the dirty pages that earlier runs without a sync left in the page cache may have "
        "slowed those runs."
    ) in text
    assert "at 4 KiB it made" not in text  # no sync was clearly faster there
    clear = {k: v for k, v in values.items() if k != ("none", 524288)}
    assert "did not always make clearly more" not in fsync_report.block_sentence(_sweep(clear))
    assert fsync_report.no_sync_sentence(pl.DataFrame()) == ""


# --- review of the full profile, second pass ---


def test_sync_cost_sentence_gives_the_loop_rate_the_second_guess_asks_for() -> None:
    p50s = (E(900, 800, 1000), E(3, 2, 4))
    text = fsync_report.sync_cost_sentence(*p50s, E(1000, 900, 1100), E(55000, 45000, 60000))
    assert text.endswith(
        "at the median (200–500× within the two intervals). The loop's rate, which counts every write, slow ones "
        "included, answers the second guess: without the sync it made 55× as many writes per second as the loop "
        "with it (41–67× within the two intervals)."
    )
    fewer = fsync_report.sync_cost_sentence(*p50s, E(1000, 900, 1100), E(500, 400, 600))
    assert "without the sync it made 0.5× as many writes per second as the loop with it (0.36–0.67× within" in fewer
    unclear = fsync_report.sync_cost_sentence(*p50s, E(1000, 900, 1100), E(1200, 800, 1500))
    assert "without the sync its rate was not clearly higher or lower than the loop's with it (1.2× by" in unclear
    same = fsync_report.sync_cost_sentence(*p50s, E(1000, 990, 1010), E(1000, 995, 1005))
    assert "without the sync its rate was about the same as the loop's with it (1×)" in same
    # without both rates, the p50 sentence alone, as before
    assert "rate" not in fsync_report.sync_cost_sentence(*p50s, E(1000, 900, 1100), None)
    missing = fsync_report.sync_cost_sentence(None, None, E(1000, 900, 1100), E(55000, 45000, 60000))
    assert missing.startswith("How a write with the sync compares with one without could not be measured here. ")


def test_spread_sentence_names_a_case_that_reaches_further_on_one_side() -> None:
    # the widest end to end (±25 %) beside a lopsided one that reaches 26 % below its median
    cases = {
        ("dsync", "append"): {"writes_per_s": [4330.0, 5000, 5800, 6500, 7200]},
        ("direct_dsync", "append"): {"writes_per_s": [5250.0, 6500, 7090, 7500, 7890]},
    }
    text = fsync_report.spread_sentence(_latency(cases), ["method"], 0.03)
    assert (
        "the widest from end to end, O_DSYNC write, ±25 % (O_DIRECT | O_DSYNC write reaches further on one " in (text)
        and "side: −26 %)" in text
    )
    alone = fsync_report.spread_sentence(_latency({("dsync", "append"): cases[("dsync", "append")]}), ["method"], 0.03)
    assert "reaches further" not in alone and "the widest from end to end, O_DSYNC write, ±25 %." in alone


def test_batch_sentence_quotes_the_best_median_past_the_knee() -> None:
    # the medians rise past the knee to 6,500 at 64, then dip at 512: the text quotes the best, and where
    points = {1: (400, 450, 500), 8: (2000, 3100, 6000), 64: (3000, 6500, 9000), 512: (2500, 5000, 8500)}
    text = fsync_report.batch_sentence(_group(points))
    assert "though the medians still rose from 3,100 to 6,500 (at 64 per fsync); with 3 runs" in text
    last = fsync_report.batch_sentence(_group({k: v for k, v in points.items() if k != 512}))
    assert "rose from 3,100 to 6,500; with 3 runs" in last


def test_no_sync_sentence_sets_the_median_write_beside_the_rate() -> None:
    # no sync made no more MB/s at 1 MiB, yet its median write was 3.6× faster: a tail may hold the mean down
    tail = {
        ("none", 1048576): ([1550.0, 1610, 1670], [160, 166, 191]),
        ("direct_dsync", 1048576): ([1530.0, 1750, 1860], [549, 595, 684]),
    }
    text = fsync_report.no_sync_sentence(_sweep(tail))
    assert text == (
        "Writing without a sync did not always make clearly more MB/s than writing with one: at 1 MiB it made "
        "1,610 MB/s (1,550–1,670), not clearly different from O_DIRECT | O_DSYNC write's 1,750 (1,530–1,860), yet its "
        "median write took 166 µs (160–191 µs), 3.6× faster than O_DIRECT | O_DSYNC write's 595 µs (549–684 µs). "
        "MB/s counts every write of a run (the bytes over the run's whole time, so it follows the mean time per "
        "write), while the p50 is the median write of the same runs. With the median write clearly faster and the "
        "rate not, a tail of slow writes may hold the mean down: writes stalled while the kernel throttles a writer "
        "that has dirtied too many pages, say, or writeback of the dirty pages that earlier runs without a sync "
        "left behind; this page does not measure which."
    )
    no_p50 = _sweep(tail).filter(pl.col("metric") == "mb_per_s")
    bare = fsync_report.no_sync_sentence(no_p50)
    assert "median write took" not in bare and "This page cannot say why" in bare


def test_fio_sentence_says_when_a_verdict_rests_on_the_pairing_alone() -> None:
    # ratios 1.13-1.14× in every round, yet each tool's five runs overlap taken apart
    paired = ([1000.0, 1100, 1200, 1300, 1400], [880.0, 970, 1060, 1150, 1240])
    uneven = fsync_report.fio_sentence(_fio({"fsync": ([1000.0] * 9, [1000.0] * 9), "dsync": paired}, {}))
    assert (
        "By the per-round pairing only, our loop ran faster than fio on O_DSYNC write (1.13× of fio's rate, "
        "1.13–1.14×)."
    ) in uneven
    assert "is faster than fio" not in uneven
    assert uneven.endswith(
        "The verdict on O_DSYNC write rests on the pairing within rounds alone: taken apart, each tool's runs "
        "overlap (the intervals of the two medians in the table above), and it rests on fewer rounds than some "
        "rows (5 rounds on O_DSYNC write; against up to 9); read it as a lead, not a finding."
    )
    even = fsync_report.fio_sentence(_fio({"dsync": paired, "fdatasync": paired}, {}))
    assert "The verdicts on O_DSYNC write and write + fdatasync rest on the pairing" in even
    assert "fewer rounds" not in even and even.endswith("read them as leads, not findings.")
    apart = fsync_report.fio_sentence(_fio({"dsync": ([1400.0] * 5, [1000.0] * 5)}, {}))
    assert "is faster than fio" in apart and "rests on the pairing" not in apart


def test_fio_rounds_sentence_gives_each_count_of_rounds_its_confidence() -> None:
    five, nine = stats.interval_ranks(5)[1], stats.interval_ranks(9)[1]
    uneven = _fio({"fsync": ([1000.0] * 9, [1000.0] * 9), "dsync": ([1000.0] * 5, [1000.0] * 5)}, {})
    assert fsync_report.fio_rounds_sentence(uneven) == (
        "Each interval holds the median ratio with a confidence set by its rounds: "
        f"{fsync_report.fmt.num(100 * five, 2)} % with 5 rounds and {fsync_report.fmt.num(100 * nine, 2)} % with "
        "9 rounds."
    )
    few = _fio({"fsync": ([1000.0] * 9, [1000.0] * 9), "dsync": ([1000.0] * 3, [1000.0] * 3)}, {})
    assert fsync_report.fio_rounds_sentence(few).endswith(
        "75 % with 3 rounds and 96 % with 9 rounds. With 3 rounds or fewer an interval runs from the lowest to the "
        "highest ratio: read those verdicts as leads, not proofs."
    )


def test_commit_rule_rounds_a_days_worth() -> None:
    assert fsync_report._per_day(6390, 10800) == "about 550 to 930 million"
    assert fsync_report._per_day(10, 20) == "about 860,000 to 1.7 million"
    assert fsync_report._per_day(5, 5) == "about 430,000"
    assert fsync_report._per_day(10, 12) == "about 860,000 to 1 million"
    runs = _runs_4k([("latency", 6390, 5160, 7480, 1000), ("overwrite", 10800, 9690, 11500, 5000)])
    text = fsync_report.commit_rule(E(152, 139, 206), runs)
    assert "(about 550 to 930 million a day)" in text
    one = fsync_report.commit_rule(E(152, 139, 206), runs.head(1))
    assert "(about 550 million a day)" in one


def test_estimates_sentence_says_the_napkin_figures_are_not_measurements() -> None:
    from howfast import reference

    text = fsync_report.estimates_sentence(reference.load("fsync"))
    assert text.startswith("The bars 'SSD (napkin-math) — seed 003' (1 ms) and 'HDD (estimate) — seed 003' (20 ms)")
    assert "are estimates, not measurements" in text and "not comparable with this machine's figures" in text
    ref = pl.DataFrame({"metric": ["latency", "latency"], "figure_type": ["estimate", "measured"],
                        "device": ["HDD", "WD SN750 NVMe"], "source": ["003_x.txt", "000_y.txt"],
                        "value": [20.0, 660.0], "unit": ["ms", "us"]})  # fmt: skip
    one = fsync_report.estimates_sentence(ref)
    assert one.startswith("The bar 'HDD (estimate) — seed 003' (20 ms) is an estimate, not measurements")
    assert "behind it, so it is not comparable" in one
    assert fsync_report.estimates_sentence(ref.filter(pl.col("figure_type") == "measured")) == ""
    assert fsync_report.estimates_sentence(pl.DataFrame()) == ""


def test_distribution_rounds_the_charts_data() -> None:
    noisy = [3515.4889996017302 + i for i in range(7)] + [150000.0 + i for i in range(7)]
    samples = pl.DataFrame({"method": ["none"] * 7 + ["fsync"] * 7, "layout": ["append"] * 14, "latency_ns": noisy})
    frame = fsync_report.distribution(samples)
    assert set(frame["method"].unique().to_list()) == {"write, no sync", "write + fsync"}
    for column in ("latency_us", "share_slower"):
        assert all(len(f"{v:.15g}".replace(".", "").lstrip("0")) <= 4 for v in frame[column].to_list())
    spec = fsync_report.distribution_chart(samples, "append").to_dict()
    assert spec["mark"]["type"] == "line" if isinstance(spec["mark"], dict) else spec["mark"] == "line"
    assert fsync_report.distribution_chart(samples, "overwrite").to_dict()["mark"]["type"] == "text"
    assert fsync_report.distribution_chart(None).to_dict()["mark"]["type"] == "text"
    lat = _latency({("fsync", "append"): {"p50": [2.4690000000000003, 2.47, 2.48]}})
    assert fsync_report.layout_comparison(lat)["median"].to_list() == [2.47]


def test_four_kib_sentence_gives_the_layout_reason_only_where_appends_were_slower() -> None:
    # appends above every rewrite: the opposite of what the work predicts, with no reason offered
    above = _runs_4k(
        [("latency", 900, 880, 920, 400), ("block_sizes", 905, 890, 915, 100), ("overwrite", 500, 450, 550, 400)]
    )
    text = fsync_report.four_kib_sentence(above)
    assert "agree within their intervals; and every append's interval lies above every rewrite's" in text
    assert "the opposite of what the work each write does predicts; this page does not explain it." in text
    assert fsync_report.LAYOUT_WHY not in text and "may be why" not in text
    # no two measurements of one layout: the same check
    lone_above = _runs_4k([("latency", 900, 880, 920, 400), ("overwrite", 500, 450, 550, 400)])
    text = fsync_report.four_kib_sentence(lone_above)
    assert "Every append's interval lies above every rewrite's" in text and fsync_report.LAYOUT_WHY not in text
    lone_below = _runs_4k([("latency", 469, 374, 555, 400), ("overwrite", 830, 748, 1160, 400)])
    text = fsync_report.four_kib_sentence(lone_below)
    assert "Every append's interval lies below every rewrite's" in text and fsync_report.LAYOUT_WHY in text
    lone_mixed = _runs_4k([("latency", 469, 374, 555, 400), ("overwrite", 500, 450, 560, 400)])
    text = fsync_report.four_kib_sentence(lone_mixed)
    assert "This page does not measure which of those moved the rate." in text
    assert fsync_report.LAYOUT_WHY not in text
    with pytest.raises(ValueError, match="sides"):
        fsync_report._layout_words({"unclear"})


def test_block_sentence_words_a_same_or_unclear_gain_without_a_cause() -> None:
    same = {("fsync", 4096): ([3.79, 3.8, 3.81], [500, 514, 530]),
            ("fsync", 1048576): ([3.78, 3.8, 3.82], [900, 950, 990])}  # fmt: skip
    text = fsync_report.block_sentence(_sweep(same))
    assert "the time per write grew about as fast as the bytes" in text
    assert "plus a cost per byte, the bytes, not the fixed cost, may cost most at these sizes" in text
    unclear = {("fsync", 4096): ([3.0, 3.8, 5.0], [500, 514, 530]),
               ("fsync", 1048576): ([2.5, 4.0, 6.0], [900, 950, 990])}  # fmt: skip
    text = fsync_report.block_sentence(_sweep(unclear))
    assert "these intervals cannot say whether a fixed cost per flush or the bytes dominate." in text
    assert "the cost grew with the bytes" not in text and "may cost most" not in text


# --- reader pass on the executed page, full profile ---
def test_batch_sentence_says_a_bigger_batch_still_rose_where_its_interval_lies_above_the_knee() -> None:
    # 64's interval lies wholly above 8's, but starts less than a tenth above its top: a knee, yet still a rise
    points = {1: (400, 450, 500), 8: (3000, 3100, 3200), 64: (3250, 3300, 3400), 512: (3100, 3250, 3500)}
    text = fsync_report.batch_sentence(_group(points))
    assert (
        "The rate stops rising by more than a tenth from 8 records per fsync: no bigger batch's interval starts "
        "more than a tenth above the top of that one's, though it still rose: at 64 per fsync, 3,300 "
        "(3,250–3,400), an interval wholly above that of 8 (3,100, 3,000–3,200) but starting less than a tenth "
        "above its top; with 3 runs per batch size"
    ) in text
    assert "stops rising clearly" not in text and "the medians still rose" not in text
    # every bigger batch overlaps the knee's: no 'still rose'
    flat = {1: (400, 450, 500), 8: (3000, 3100, 3200), 64: (3100, 3200, 3300)}
    assert "still rose" not in fsync_report.batch_sentence(_group(flat))


def test_no_sync_sentence_words_each_outcome_of_the_rate() -> None:
    same = {
        ("none", 4096): ([1000.0, 1005, 1010], [2, 2.1, 2.2]),
        ("fsync", 4096): ([1000.0, 1004, 1008], [100, 110, 120]),
    }
    assert "about the same as write + fsync's 1,000 (1,000–1,010)" in fsync_report.no_sync_sentence(_sweep(same))
    unclear = {
        ("none", 4096): ([600.0, 900, 1500], [2, 2.1, 2.2]),
        ("fsync", 4096): ([1100.0, 1300, 1400], [100, 110, 120]),
    }
    text = fsync_report.no_sync_sentence(_sweep(unclear))
    assert "not clearly different from write + fsync's 1,300 (1,100–1,400)" in text
    assert "not clearly more than" not in text


def test_median_factor_rounds_a_median_near_one_to_about_one() -> None:
    assert fsync_report.median_factor(0.9997) == "about 1" and fsync_report.median_factor(1.004) == "about 1"
    assert fsync_report.median_factor(1.0) == "1" and fsync_report.median_factor(None) == "n/a"
    assert fsync_report.median_factor(1.096) == "1.096" and fsync_report.median_factor(1.14) == "1.14"
    with pytest.raises(TypeError, match="x must be"):
        fsync_report.median_factor("1")  # type: ignore[arg-type]
    near = _fio({"fsync": ([999.7, 1001, 999, 1040, 960], [1000.0] * 5)}, {})
    assert fsync_report.fio_table(near).row(0, named=True)[fsync_report.FIO_RATIO] == "about 1× (0.96–1.04×)"
    assert "write + fsync (about 1× of fio's rate, 0.96–1.04×)" in fsync_report.fio_sentence(near)


def test_fio_sentence_names_rows_that_ran_as_few_rounds_as_a_lead() -> None:
    paired = ([1000.0, 1100, 1200, 1300, 1400], [880.0, 970, 1060, 1150, 1240])
    runs = {"fsync": ([1000.0] * 5, [1000.0] * 5), "fdatasync": ([1000.0] * 9, [1000.0] * 9), "dsync": paired}
    text = fsync_report.fio_sentence(_fio(runs, {}))
    assert "fewer rounds than some rows (5 rounds on O_DSYNC write, as on write + fsync; against up to 9)" in text
    alone = fsync_report.fio_sentence(_fio({"dsync": paired}, {}))
    assert alone.startswith(
        "Over 5 rounds of alternating runs, compared by the ratio of rates within each round: by that pairing "
        "only, our loop ran faster than fio on O_DSYNC write"
    )
