"""The memtables chapter's tables and sentences from known runs: every figure with the
interval of its median and its run count, the unstable mark where the interval stayed
wider than the target, n/a or the reason where a case could not run, and each sentence's
branches (decided by intervals, not by medians alone)."""

from __future__ import annotations

import polars as pl
import pytest

from howfast import charts, stats
from howfast.memtable import report
from howfast.memtable.experiments import BLOCKING, DEEP, DOUBLE, LOG, NO_LOG
from howfast.rocksdb import report as rocksdb_report
from howfast.stats import Estimate

KiB = 1024
TARGET = 0.10


def runs(cases: list[tuple[dict, str, list[float]]], unsupported: list[tuple[dict, str]] = ()) -> pl.DataFrame:
    """Long-form metrics: each (case, metric, values) becomes one row per repetition; each
    (case, note) one 'unsupported' row."""
    rows = []
    for case, metric, values in cases:
        for i, v in enumerate(values):
            rows.append({**case, "repetition": i, "metric": metric, "value": float(v), "unit": "", "note": None})
    for case, note in unsupported:
        rows.append({**case, "repetition": 0, "metric": "unsupported", "value": None, "unit": "", "note": note})
    return pl.DataFrame(rows, infer_schema_length=None)


def sweep_case(capacity: int, mode: str, buffers: int, dsync: bool = False) -> dict:
    return {"group": "sweep", "capacity": capacity, "dsync": dsync, "mode": mode, "buffers": buffers}


# ---- figures and cells ----------------------------------------------------------------------


def test_runs_text() -> None:
    assert report.runs_text([3, 3, 3]) == "3"
    assert report.runs_text([5, 3, 12]) == "3–12"
    assert report.runs_text([]) == "n/a"


def test_figure_words_put_the_unit_before_the_interval_and_the_mark_inside() -> None:
    steady = Estimate(110.0, 100.0, 120.0, 3, 0.75)
    assert report.figure_words(steady, TARGET, "MB/s") == "110 MB/s (100–120, 3 runs)"
    wide = Estimate(100.0, 50.0, 150.0, 3, 0.75)
    assert report.figure_words(wide, TARGET, "MB/s") == "100 MB/s (50–150, 3 runs; unstable: ±50 %)"
    assert report.figure_words(Estimate.exact(7.0)) == "7 (1 run)"
    assert report.figure_words(Estimate(7.0, 7.0, 7.0, 3)) == "7 (3 runs, all alike)"
    assert report.figure_words(None, TARGET) == "n/a"


# ---- the sweep ------------------------------------------------------------------------------


def small_sweep() -> pl.DataFrame:
    cap = 64 * KiB
    return runs(
        [
            (sweep_case(cap, BLOCKING, 1), "records_per_s", [100, 110, 120]),
            (sweep_case(cap, DOUBLE, 2), "records_per_s", [50, 100, 150]),
            (sweep_case(cap, BLOCKING, 1), "mb_per_s", [1.0, 1.1, 1.2]),
            (sweep_case(cap, DOUBLE, 2), "mb_per_s", [0.5, 1.0, 1.5]),
        ],
        [(sweep_case(cap, DEEP, 32), "io_uring unavailable")],
    )


def test_sweep_table_gives_each_mode_its_interval_and_the_reason_for_a_missing_one() -> None:
    table = report.sweep_table(small_sweep(), False, TARGET)
    assert table.columns == [
        "capacity",
        "blocking",
        "io_uring ×2",
        "io_uring, deep",
        "deep buffers",
        "runs",
        "seed records/s",
        "unsupported",
    ]  # fmt: skip  (no ratio to the seed: language, disk and clock differ besides the machine)
    row = table.row(0, named=True)
    assert row["capacity"] == "64 KiB"
    assert row["blocking"] == "110 (100–120)"  # ±9 %: within the target, no mark
    assert row["io_uring ×2"] == "100 (50–150); unstable: ±50 %"
    assert row["io_uring, deep"] == "n/a" and row["unsupported"] == "io_uring, deep: io_uring unavailable"
    assert row["runs"] == "3" and row["seed records/s"] == 785.0


def test_sweep_table_without_missing_modes_has_no_unsupported_column() -> None:
    metrics = small_sweep().filter(pl.col("metric") != "unsupported")
    assert "unsupported" not in report.sweep_table(metrics, False, TARGET).columns


def test_sweep_curves_carry_the_interval_and_the_run_count() -> None:
    curves = report.sweep_curves(small_sweep())
    ours = curves.filter((pl.col("series") == "io_uring ×2") & (pl.col("metric") == "mb_per_s")).row(0, named=True)
    assert (ours["median"], ours["lo"], ours["hi"], ours["repetitions"]) == (1.0, 0.5, 1.5, 3)
    seed = curves.filter(pl.col("series") == report.SEED_SERIES)
    assert (seed["lo"] == seed["median"]).all() and (seed["repetitions"] == 1).all()
    chart = str(report.sweep_chart(small_sweep()).to_dict())
    assert "'lo'" in chart and "interval from" in chart and "'min'" not in chart


def test_sweep_figure_and_best_mode_sentence() -> None:
    sweep = small_sweep()
    assert report.sweep_figure(sweep, 64 * KiB, False, BLOCKING, TARGET) == ("110 records per second (100–120, 3 runs)")
    # the blocking writer leads by the median, but the double-buffered one's interval reaches it
    assert report.best_mode_sentence(sweep, 64 * KiB, False, TARGET) == (
        "The fastest mode at 64 KiB without O_DSYNC, blocking, made 110 records per second (100–120, 3 runs), "
        "ahead of io_uring ×2 only by the medians: their intervals overlap."
    )
    clear = sweep.with_columns(
        pl.when(pl.col("mode") == DOUBLE).then(pl.col("value") / 10).otherwise(pl.col("value")).alias("value")
    )
    assert report.best_mode_sentence(clear, 64 * KiB, False, TARGET).endswith("11× faster than the next, io_uring ×2.")
    alone = sweep.filter(pl.col("mode") == BLOCKING)
    assert report.best_mode_sentence(alone, 64 * KiB, False).endswith(", the only mode that ran.")
    assert report.best_mode_sentence(sweep, 64 * KiB, True) == "No flush mode could run at 64 KiB with O_DSYNC here."
    durable = sweep.with_columns(pl.lit(True).alias("dsync"))
    assert "made 110 durable records per second" in report.best_mode_sentence(durable, 64 * KiB, True)


def test_peak_sentence_says_whether_the_top_is_clear_and_why_o_dsync_cannot_be_it() -> None:
    sweep = small_sweep()
    est, name, rivals = report.peak(sweep)
    assert (est.median, name, rivals) == (1.1, "blocking at 64 KiB", ["io_uring ×2 at 64 KiB"])
    text = report.peak_sentence(sweep, TARGET)
    assert text.startswith("The highest median of the whole sweep was 1.1 MB/s (1–1.2, 3 runs), blocking at 64 KiB")
    assert "only by the medians: the intervals of 1 other case reach into its own (io_uring ×2 at 64 KiB)" in text
    clear = sweep.with_columns(
        pl.when(pl.col("mode") == DOUBLE).then(pl.col("value") / 10).otherwise(pl.col("value")).alias("value")
    )
    assert report.peak_sentence(clear).endswith(", clearly above every other case.")
    synced = clear.with_columns(pl.lit(True).alias("dsync"))
    assert "not that O_DSYNC helped" in report.peak_sentence(synced)
    # the top with O_DSYNC, the same case without it among the rivals: named apart
    both = pl.concat([sweep.filter(pl.col("mode") == BLOCKING).with_columns(pl.lit(True).alias("dsync")),
                      sweep.filter(pl.col("mode") == BLOCKING).with_columns(pl.col("value") * 0.95)])  # fmt: skip
    assert report.peak(both)[1:] == ("blocking at 64 KiB with O_DSYNC", ["blocking at 64 KiB without O_DSYNC"])
    many = pl.concat(
        [sweep.filter(pl.col("mode") == BLOCKING)]
        + [
            sweep.filter(pl.col("mode") == BLOCKING).with_columns(pl.lit(c * KiB, dtype=pl.Int64).alias("capacity"))
            for c in (128, 256, 512, 1024)
        ]
    )
    assert "and 1 more)" in report.peak_sentence(many)
    assert report.peak_sentence(sweep.filter(pl.col("metric") == "records_per_s")) == (
        "The sweep could not run here, so it has no fastest case."
    )


def test_where_table_gives_the_run_counts_and_the_target() -> None:
    facts = {
        "scratch_dir": "/tmp/x", "filesystem": "ext4", "o_direct_reason": "ok", "io_uring_reason": "ok",
        "logical_cpus": 2, "block_device": None,
    }  # fmt: skip

    class Plan:
        record_size, producers = 16 * KiB, 2

    metrics = small_sweep().with_columns(pl.lit("quick").alias("profile"))
    more = (  # one round added to the blocking case, as the stopping rule adds them
        metrics.filter((pl.col("mode") == BLOCKING) & (pl.col("metric") == "records_per_s"))
        .head(1)
        .with_columns(pl.lit(3, dtype=pl.Int64).alias("repetition"))
    )
    table = report.where_table(facts, Plan(), pl.concat([metrics, more], how="diagonal"), TARGET)
    values = dict(zip(table["fact"], table["value"]))
    assert values["runs per case (sweep)"] == "3–4" and values["interval aimed for"] == "±10 % of each median"
    fixed = report.where_table(facts, Plan(), metrics, None)
    assert dict(zip(fixed["fact"], fixed["value"]))["interval aimed for"] == "none (a fixed run count)"


# ---- variants, durability, depth ------------------------------------------------------------


def variant_runs() -> pl.DataFrame:
    def case(group: str, variant: str) -> dict:
        return {"group": group, "variant": variant, "capacity": 1024 * KiB}

    return runs(
        [
            (case("durability", NO_LOG), "records_per_s", [90, 100, 110]),
            (case("durability", NO_LOG), "p50", [10, 10, 10]),
            (case("durability", NO_LOG), "p99", [20, 30, 40]),
            (case("durability", NO_LOG), "p99.9", [50, 50, 51]),
            (case("durability", LOG), "records_per_s", [30, 33, 40]),
            (case("durability", LOG), "p50", [30, 31, 32]),
            (case("durability", LOG), "p99", [60, 61, 62]),
            (case("durability", LOG), "p99.9", [90, 91, 92]),
            (case("durability", LOG), "records_per_sync", [64, 64, 64]),
            (case("depth", "depth_1"), "records_per_s", [10, 11, 12]),
            (case("depth", "depth_8"), "records_per_s", [40, 44, 48]),
        ],
        [(case("durability", "log_dsync"), "O_DIRECT unsupported")],
    )


def test_variant_table_cells_runs_and_reasons() -> None:
    table = report.variant_table(variant_runs(), "durability", TARGET)
    assert table.columns == [
        "variant", "records/s", "p50 µs", "p99 µs", "p99.9 µs", "per fdatasync", "runs", "unsupported"
    ]  # fmt: skip
    rows = {r["variant"]: r for r in table.iter_rows(named=True)}
    plain, log = rows["no log"], rows["log (group commit)"]
    assert (
        plain["records/s"] == "100 (90–110)"
        and plain["p50 µs"] == "10"
        and plain["p99 µs"] == "30 (20–40); unstable: ±33 %"
    )
    assert plain["per fdatasync"] == "none: no log" and plain["runs"] == "3"  # no log, no fdatasync
    assert log["records/s"] == "33 (30–40); unstable: ±15 %" and log["per fdatasync"] == "64"
    gone = rows["log + O_DSYNC segments"]
    assert gone["records/s"] == "n/a" and gone["runs"] == "n/a" and gone["unsupported"] == "O_DIRECT unsupported"
    pinning = report.variant_table(variant_runs(), "pinning", TARGET)
    assert pinning.height == 0 and "per fdatasync" not in pinning.columns


def test_log_share_is_the_median_of_the_per_round_ratios() -> None:
    est = report.log_share(variant_runs())  # 30/90, 33/100, 40/110
    assert est.runs == 3 and est.median == pytest.approx(1 / 3) and est.lo == pytest.approx(0.33)
    assert report.log_share_words(variant_runs()) == "33 % of the speed (33–36 % round by round, 3 rounds)"
    without = variant_runs().filter(pl.col("variant") != LOG)
    assert report.log_share(without) is None
    assert report.log_share_words(without).startswith("a share that could not be measured here")


def test_depth_bars_carry_the_interval() -> None:
    bars = report.depth_bars(variant_runs())
    assert bars.columns == ["label", "median", "lo", "hi", "repetitions", "what"]
    assert bars.filter(pl.col("label") == "io_uring ×8").row(0)[1:5] == (44.0, 40.0, 48.0, 3)
    assert "interval from" in str(report.depth_chart(variant_runs()).to_dict())


# ---- fio --------------------------------------------------------------------------------------


def fio_runs() -> pl.DataFrame:
    def case(tool: str, mode: str, buffers: int, dsync: bool = False) -> dict:
        return {"capacity": 256 * KiB, "dsync": dsync, "mode": mode, "buffers": buffers, "tool": tool,
                "segment_bytes": 1024 * 1024 * KiB, "records": 2048, "record_size": 16 * KiB}  # fmt: skip

    return runs(
        [
            (case("howfast", BLOCKING, 1), "mb_per_s", [70, 80, 92]),
            (case("fio", BLOCKING, 1), "mb_per_s", [100, 100, 100]),
            (case("howfast", BLOCKING, 1), "first_fill_share", [0.01, 0.02, 0.03]),
            (case("howfast", BLOCKING, 1), "first_fill_ms", [1, 2, 3]),
            (case("howfast", DEEP, 8), "mb_per_s", [100, 200, 300]),
            (case("fio", DEEP, 8), "mb_per_s", [200, 200, 200]),
            (case("howfast", DEEP, 8), "first_fill_share", [0.01, 0.01, 0.01]),
            (case("howfast", DEEP, 8), "first_fill_ms", [1, 1, 1]),
            (case("howfast", DEEP, 8, True), "mb_per_s", [100, 100, 100]),
        ],
        [(case("fio", DEEP, 8, True), "fio not installed")],
    )


def test_fio_table_each_side_with_its_interval_the_ratio_verdict_and_rounds() -> None:
    table = report.fio_table(fio_runs(), TARGET)
    assert table.columns == [
        "capacity", "O_DSYNC", "flush", "ours MB/s", "fio MB/s", "ours / fio", "verdict", "rounds", "first fill %",
        "note",
    ]  # fmt: skip
    blocking, deep, synced = table.iter_rows(named=True)
    assert blocking["ours MB/s"] == "80 (70–92); unstable: ±14 %" and blocking["fio MB/s"] == "100"
    assert blocking["ours / fio"] == "0.8× (0.7–0.92×)" and blocking["verdict"] == "ours lower"
    assert blocking["rounds"] == 3 and blocking["first fill %"] == "2 (1–3)" and blocking["note"] is None
    assert (
        deep["flush"] == "io_uring ×8" and deep["ours / fio"] == "1× (0.5–1.5×)" and deep["verdict"] == "inconclusive"
    )
    assert synced["fio MB/s"] == "n/a" and synced["verdict"] == "n/a" and synced["rounds"] is None
    assert synced["note"] == "fio: fio not installed"
    assert "note" not in report.fio_table(fio_runs().filter(pl.col("metric") != "unsupported")).columns
    both = report.fio_segment_table(fio_runs(), TARGET)
    assert both.columns[:2] == ["capacity", "segment"] and both["segment"].unique().to_list() == ["1 GiB"]


def test_fio_sentence_counts_the_verdicts_and_names_the_decided_cases() -> None:
    text = report.fio_sentence(fio_runs())
    assert "of 2 cases, 1 case was clearly slower than fio, the interval wholly below 1: blocking at 256 KiB" in text
    assert "1 case was inconclusive, the interval including 1 and leaving the band." in text
    assert "io_uring ×8 at 256 KiB" not in text  # inconclusive cases are counted, the table names them
    assert text.endswith(
        "With 3 rounds per case, each interval is the lowest ratio to the highest, which holds the median with "
        "75 % confidence, not 95 %."
    )
    six = pl.concat([fio_runs().with_columns(pl.col("repetition") + 3 * i) for i in range(2)])
    assert report.fio_sentence(six).endswith("leaving the band.")  # 6 rounds reach 95 %: no caveat
    assert report.fio_ratio_range(fio_runs()) == "1× to 1×"
    assert report.fio_ratio_range(fio_runs().filter(pl.col("tool") == "howfast")) == "n/a"
    peak = report.fio_peak(fio_runs())
    assert (peak.median, peak.runs) == (200.0, 3) and report.fio_peak(fio_runs().clear()) is None


# ---- rollover ---------------------------------------------------------------------------------


def rollover_runs() -> pl.DataFrame:
    def case(segment: int) -> dict:
        return {"dsync": True, "segments_ahead": 0, "segment_bytes": segment}

    small, whole = 4 * 1024 * KiB, 128 * 1024 * KiB
    return runs(
        [
            (case(small), "elapsed_ms", [110, 100, 130]),
            (case(small), "rollovers", [31, 31, 31]),
            (case(small), "records_per_s", [90, 100, 110]),
            (case(small), "wait_us", [100, 180, 200]),
            (case(small), "make_ms", [0.1, 0.1, 0.1]),
            (case(whole), "elapsed_ms", [100, 110, 99]),
            (case(whole), "rollovers", [0, 0, 0]),
            (case(whole), "records_per_s", [100, 100, 100]),
            (case(whole), "wait_us", [0, 0, 0]),
            (case(whole), "make_ms", [0.2, 0.3, 0.4]),
        ]
    )


def test_rollover_table_cells_signed_cost_and_no_rollover_reason() -> None:
    table = report.rollover_table(rollover_runs(), TARGET)
    assert table.columns == report.ROLLOVER_COLUMNS
    small, whole = table.iter_rows(named=True)
    assert small["records/s"] == "100 (90–110)" and small["writer's wait µs"] == "180 (100–200); unstable: −44 %/+11 %"
    assert small["making a file µs"] == "100" and small["rounds"] == "3"
    # per round: (110-100), (100-110), (130-99) ms over 31 rollovers, in µs: 323, −323, 1,000
    assert small["per rollover µs"] == "323 (−323 to 1,000)"
    assert whole["per rollover µs"] == "none: no rollover" and whole["writer's wait µs"] == "0"
    assert whole["making a file µs"] == "300 (200–400); unstable: ±33 %"
    nothing = pl.DataFrame(
        [
            {
                "dsync": False,
                "segments_ahead": 0,
                "segment_bytes": 4 * KiB,
                "repetition": 0,
                "metric": "unsupported",
                "value": None,
                "unit": "",
                "note": "no O_DIRECT",
            }
        ]  # fmt: skip
    )
    empty = report.rollover_table(nothing)
    assert empty.columns == [*report.ROLLOVER_COLUMNS, "note"] and empty["records/s"].to_list() == ["n/a"]


# ---- breakdown --------------------------------------------------------------------------------


def breakdown_runs() -> pl.DataFrame:
    case = {"capacity": 64 * KiB, "dsync": False, "records": 4096, "counters": True}
    per_run = {
        "ns_per_op": [1000, 1000, 1000], "mb_per_s": [10, 11, 12], "records_per_flush": [4, 4, 4],
        "t_handoff": [100, 100, 100], "t_copy": [100, 100, 100], "t_index": [0, 0, 0], "t_ack": [0, 0, 0],
        "t_seal": [10, 10, 10], "t_submit": [10, 10, 10], "t_reap": [10, 10, 10], "t_buffer_wait": [500, 600, 700],
        "t_drain": [0, 0, 0], "hash_ns_per_record": [50, 50, 50], "flushes_per_submit": [1, 1, 1],
        "mean_depth": [3, 4, 5], "writer_cpu_share": [0.3, 0.3, 0.3], "producer_cpu_share": [0.1, 0.1, 0.1],
        "records_per_batch": [64, 64, 64], "completion_waits_per_flush": [1, 1, 1],
        "writer_waits_per_flush": [0, 0, 0], "writer_voluntary_per_flush": [1, 1, 1],
        "writer_involuntary_per_flush": [0, 0, 0], "producer_voluntary_per_flush": [1, 1, 1],
        "producer_involuntary_per_flush": [1, 1, 1], "records_per_s": [100, 100, 100],
    }  # fmt: skip
    off = {**case, "counters": False}
    return runs([(case, m, v) for m, v in per_run.items()] + [(off, "records_per_s", [100, 100, 100])])


def test_breakdown_tables_in_three_parts_with_intervals() -> None:
    time = report.breakdown_table(breakdown_runs(), "time", TARGET)
    assert time.columns == ["capacity", "O_DSYNC", *report.BREAKDOWN_PARTS["time"], "runs"]
    row = time.row(0, named=True)
    assert row["MB/s"] == "11 (10–12)" and row["records / flush"] == "4" and row["runs"] == "3"
    assert row["record work µs/flush"] == "0.8" and row["buffer wait µs/flush"] == "2.4 (2–2.8); unstable: ±17 %"
    threads = report.breakdown_table(breakdown_runs(), "threads", TARGET)
    assert threads.columns == ["capacity", "O_DSYNC", "flushes / submit", "in flight", "writer CPU %", "runs"]
    assert threads["in flight"][0] == "4 (3–5); unstable: ±25 %" and threads["writer CPU %"][0] == "30"
    switches = report.breakdown_table(breakdown_runs(), "switches", TARGET)
    assert switches.columns == ["capacity", "O_DSYNC", "writer sleeps", "writer vol. cs", "writer invol. cs",
                                "producer cs", "runs"]  # fmt: skip
    assert switches.row(0, named=True)["producer cs"] == "2"
    assert set(report.BREAKDOWN_COLUMNS) == {c for part in report.BREAKDOWN_PARTS.values() for c in part}
    with pytest.raises(ValueError, match="part is one of"):
        report.breakdown_table(breakdown_runs(), "other")
    nothing = breakdown_runs().filter(pl.col("metric") == "none")
    assert report.breakdown_table(nothing, "threads").columns[-2:] == ["runs", "note"]


def numbers(wait: Estimate, work: Estimate) -> dict:
    return {"small_record_work": 200.0, "small_record_work_share_est": work, "small_t_buffer_wait_share_est": wait}


def test_pace_sentence_reads_the_intervals_of_the_two_shares() -> None:
    waited = report.pace_sentence(numbers(Estimate(0.5, 0.45, 0.55, 3), Estimate(0.2, 0.15, 0.25, 3)))
    assert waited.startswith("The lesson of a small memtable") and "It spent 50 % (45–55 %) of the run" in waited
    worked = report.pace_sentence(numbers(Estimate(0.2, 0.15, 0.25, 3), Estimate(0.5, 0.45, 0.55, 3)))
    assert "set the pace: it worked on records for 50 % (45–55 %) of the run" in worked
    overlap = report.pace_sentence(numbers(Estimate(0.4, 0.2, 0.6, 3), Estimate(0.35, 0.3, 0.5, 3)))
    assert overlap.startswith("Neither clearly set the pace here") and "intervals that overlap" in overlap
    assert report.pace_sentence({}) == "The breakdown could not run here."
    n = report.breakdown_numbers(breakdown_runs())  # the prose's shares are the pace sentence's medians
    assert n["small_t_buffer_wait_share"] == n["small_t_buffer_wait_share_est"].median == 0.6
    assert "It spent 60 % (50–70 %) of the run waiting for the disk" in report.pace_sentence(n)


def test_work_per_record_is_one_figure_in_the_prose_and_the_table() -> None:
    # the parts' medians (200 + 250 ns) sum to more than any run's total (400, 400, 450 ns):
    # the prose and the table both quote the median of the runs' sums
    uneven = breakdown_runs().with_columns(
        pl.when(pl.col("metric") == "t_handoff")
        .then(pl.col("repetition").replace_strict({0: 100.0, 1: 300.0, 2: 200.0}, return_dtype=pl.Float64))
        .when(pl.col("metric") == "t_copy")
        .then(pl.col("repetition").replace_strict({0: 300.0, 1: 100.0, 2: 250.0}, return_dtype=pl.Float64))
        .otherwise(pl.col("value"))
        .alias("value")
    )
    n = report.breakdown_numbers(uneven)
    assert n["small_record_work"] == 400.0
    assert report.breakdown_table(uneven, "time")["record work µs/flush"][0] == "1.6 (1.6–1.8)"  # 4 × 400 ns
    assert n["small_record_work"] * n["small_records_per_flush"] / 1e3 == 1.6


# ---- RocksDB --------------------------------------------------------------------------------


def rocksdb_runs() -> pl.DataFrame:
    def case(test: str, tool: str) -> dict:
        return {"test": test, "threads": 1, "tool": tool, "entries": 1000}

    return runs(
        [
            (case("fillseq", "howfast"), "ops_per_s", [200, 220]),
            (case("fillseq", "db_bench"), "ops_per_s", [100, 100]),
            (case("overwrite", "howfast"), "ops_per_s", [100, 100]),
            (case("overwrite", "db_bench"), "ops_per_s", [90, 110]),
        ],
        [(case("readrandom", "db_bench"), "db_bench not installed")],
    )


def test_db_bench_table_sentences_and_the_rounds_they_rest_on() -> None:
    table = report.db_bench_table(rocksdb_runs(), TARGET)
    fill, over, read = table.iter_rows(named=True)
    assert fill["ours ops/s"] == "210 (200–220)" and fill["db_bench ops/s"] == "100"
    # two rounds hold the median with 50 % confidence: the verdict column says a leaning
    assert fill["ours / db_bench"] == "2.1× (2–2.2×)" and fill["verdict"] == "leans higher" and fill["rounds"] == 2
    assert (
        over["ours / db_bench"] == "1.01× (0.91–1.11×)" and over["verdict"] == "inconclusive"
    )  # 1.11, not 1.1: past the band's end
    assert read["ours ops/s"] == "n/a" and read["rounds"] is None and read["note"] == "db_bench: db_bench not installed"
    assert report.db_bench_range_sentence(rocksdb_runs()) == (
        "Test by test, our loop ran at 1× to 2.1× of db_bench's rate (each the median of its per-round ratios)."
    )
    one = rocksdb_runs().filter(pl.col("test") == "fillseq")
    assert report.db_bench_range_sentence(one).startswith("Our loop ran at 2.1× of db_bench's rate")
    alone = rocksdb_runs().filter(pl.col("tool") == "howfast")
    assert report.db_bench_range_sentence(alone).startswith("There is no cross-check on this machine")
    assert report.db_bench_verdict_words(rocksdb_runs()) == (
        "With only 2 rounds per case, each interval runs from the lowest ratio to the highest and holds the median "
        "with 50 % confidence, not 95 %, so the verdict column gives leanings, not findings: 1 case leaned faster "
        "than db_bench, 1 case did not lean either way."
    )
    six = pl.concat([rocksdb_runs().with_columns(pl.col("repetition") + 2 * i) for i in range(3)])
    assert report.db_bench_table(six, TARGET)["verdict"].to_list()[:2] == ["ours higher", "inconclusive"]
    lower = rocksdb_runs().with_columns(
        pl.when(pl.col("tool") == "db_bench").then(pl.col("value") * 3).otherwise(pl.col("value")).alias("value")
    )
    assert report.db_bench_table(lower, TARGET)["verdict"].to_list()[:2] == ["leans lower", "leans lower"]
    near = rocksdb_runs().with_columns(
        pl.when((pl.col("tool") == "howfast") & (pl.col("test") == "fillseq"))
        .then(pl.lit(100.0))
        .otherwise(pl.col("value"))
        .alias("value")
    )
    assert report.db_bench_table(near, TARGET)["verdict"][0] == "leans to agree"
    found = report.db_bench_verdict_words(six)
    assert found.startswith("Of the 2 cases that ran both, 1 case came out clearly faster than db_bench")
    assert found.endswith(" Each rests on 6 rounds.")
    assert report.db_bench_verdict_words(alone).startswith("Our loop and db_bench did not both run here")


def test_rocksdb_rates_beside_the_printed_laptop_figures() -> None:
    ours = rocksdb_runs().filter(pl.col("tool") == "howfast")
    rates = report.rocksdb_rates(ours, TARGET)
    assert rates.rows() == [
        ("fillseq", "210 (200–220)", "2", "4.76 ms (4.55–5 ms)"),  # 1 thread / 210 ops/s, the interval turned round
        ("overwrite", "100", "2", "10 ms"),
    ]
    table = pl.DataFrame(
        {
            "test": ["fillseq", "fillseq", "overwrite"],
            "machine": [rocksdb_report.THIS_MACHINE, rocksdb_report.SEED_MACHINE, rocksdb_report.THIS_MACHINE],
            "keys": [1, 2, 3],
            "ops/s": [210.0, 189000.0, None],
            "time/op": [1.0, 2.0, 3.0],
        }  # fmt: skip
    )
    shown = report.with_rocksdb_rates(table, rates)
    assert shown.columns == ["test", "machine", "keys", "ops/s", "runs", "time/op"]
    assert shown["ops/s"].to_list() == ["210 (200–220)", "189,000", "100"]
    assert shown["time/op"].to_list() == ["4.76 ms (4.55–5 ms)", "2 µs", "10 ms"]
    assert report.with_rocksdb_rates(table.drop("time/op"), rates).columns == [
        "test",
        "machine",
        "keys",
        "ops/s",
        "runs",
    ]
    assert shown["runs"].to_list() == ["2", "printed", "2"]
    frame = report.rocksdb_versus_frame(ours)
    assert {"lo", "hi", "repetitions"} <= set(frame.columns)
    seed = frame.filter(pl.col("group") == rocksdb_report.SEED_MACHINE)
    assert (seed["lo"] == seed["hi"]).all() and (seed["repetitions"] == 1).all()
    assert charts.grouped_bars(frame, category="test", group="group", title="t", unit="ops") is not None


def test_time_per_op_is_the_quoted_rate_turned_round() -> None:
    # two runs at 20,100 and 81,700 ops/s: the median rate is their mean, 50,900, and one
    # thread's time per op must be 1 / 50,900 (19.6 µs), not the mean of the runs' times (31 µs)
    rate = Estimate(50_900.0, 20_100.0, 81_700.0, 2, 0.5)
    per_op = report.time_per_op(rate, 1)
    assert round(per_op.median, 1) == 19.6 and round(per_op.lo, 1) == 12.2 and round(per_op.hi, 1) == 49.8
    assert per_op.runs == 2 and per_op.confidence == 0.5
    assert report.time_per_op(Estimate(16.0, 8.0, 32.0, 3), 16).median == 1e6  # 16 threads share the rate
    assert report.time_per_op(None, 1) is None and report.time_per_op(Estimate(0.0, 0.0, 1.0, 2), 1) is None
    with pytest.raises(ValueError):
        report.time_per_op(rate, 0)


def test_cells_of_identical_runs_show_no_spread_and_no_mark() -> None:
    assert stats.stability(Estimate(0.0, 0.0, 0.0, 3), TARGET) != ""  # what the plain mark would say for 0
    assert report.variant_table(runs([({"group": "g", "variant": "v"}, "records_per_s", [0, 0, 0])]), "g", TARGET)[
        "records/s"
    ].to_list() == ["0"]


def test_queue_share_words_every_branch() -> None:
    assert report.queue_share_words(695.0, 1180.0).startswith("The full queue accounts for 59 % of the wait; the rest")
    assert report.queue_share_words(1000.0, 1050.0) == "The full queue accounts for the whole wait (0.95×)."
    assert report.queue_share_words(2000.0, 1000.0).startswith("That is 2× the wait measured: the queue was not")
    assert report.queue_share_words(None, 1000.0).startswith("Without both figures")


def test_seed_small_words_set_the_two_flush_rates_side_by_side_without_a_ratio() -> None:
    cap = 64 * KiB
    sweep = runs([(sweep_case(cap, BLOCKING, 1), "records_per_s", [100, 110, 120]),
                  (sweep_case(cap, BLOCKING, 1), "flushes_per_s", [4000, 5000, 5000])])  # fmt: skip
    assert report.seed_small_words(sweep) == (
        "At 64 KiB, where a flush's round trip sets the pace, the seed's blocking writer flushed 196 times per "
        "second on its disk (its printed figure: about 5.11 ms a flush), this machine's 5,000 flushes per second "
        "(4,000–5,000, 3 runs): about 200 µs a flush. Two figures, not a ratio: the language (Go there, C++ here) "
        "and the disk differ as well as the machine."
    )
    no_blocking = sweep.filter(pl.col("metric") == "records_per_s")
    assert report.seed_small_words(no_blocking).endswith(
        "(its printed figure: about 5.11 ms a flush); this machine's blocking writer did not run at 64 KiB."
    )
    assert report.seed_small_words(sweep.clear()) == (
        "This machine's sweep could not run, so it is not set beside the seed's."
    )
    odd = sweep.with_columns(pl.lit(48 * KiB).alias("capacity"))
    assert report.seed_small_words(odd) == (
        "The seed did not measure 48 KiB, so the smallest memtables are not set side by side."
    )


def test_repeat_sentence_does_not_blame_the_moment_when_the_runs_differ_in_length() -> None:
    cap = 1024 * KiB
    sweep = runs([({**sweep_case(cap, BLOCKING, 1), "records": 2048}, "records_per_s", [100, 101, 102])])
    variants = runs(
        [({"group": "pinning", "variant": "blocking_unpinned", "records": 4096}, "records_per_s", [50, 51, 52])]
    )
    longer = report.repeat_sentence(sweep, variants, cap)
    assert "2× apart, at another moment and with runs of another length" in longer and "nothing changed" not in longer
    same = variants.with_columns(pl.lit(2048, dtype=pl.Int64).alias("records"))
    assert "2× apart with nothing changed but the moment they ran" in report.repeat_sentence(sweep, same, cap)


def test_bandwidth_words_and_peak_bullet_every_branch() -> None:
    sweep, fio = small_sweep(), fio_runs()
    both = report.bandwidth_words(sweep, fio, TARGET)
    assert both == (
        "With several writes in flight, the memtable sweep's highest median on the same disk was 1.1 MB/s "
        "(1–1.2, 3 runs), and fio's fastest case in the fio table above 200 MB/s (3 runs, all alike)."
    )
    no_fio = fio.filter(pl.col("tool") == "howfast")
    assert report.bandwidth_words(sweep, no_fio).endswith(", and fio could not run here.")
    no_sweep = sweep.filter(pl.col("metric") == "records_per_s")
    assert report.bandwidth_words(no_sweep, fio).startswith("With several writes in flight, the memtable sweep could")
    assert report.bandwidth_words(no_sweep, no_fio).startswith("Neither the memtable sweep nor fio could run here")
    bullet = report.peak_bullet(sweep, fio, TARGET)
    assert bullet.startswith("Without O_DSYNC, the highest median of the sweep, blocking at 64 KiB, wrote 1.1 MB/s")
    assert "reached 1× to 1× of what fio managed" in bullet
    assert report.peak_bullet(sweep, no_fio).endswith("; fio could not run beside it here.")
    assert report.peak_bullet(no_sweep, fio).startswith("The sweep could not run here")


def test_breakdown_bytes_words_read_the_stored_runs_every_branch() -> None:
    def sized(caps_records: dict[int, int]) -> pl.DataFrame:
        return runs([({"capacity": c, "records": n, "record_size": 16 * KiB}, "records_per_s", [1.0])
                     for c, n in caps_records.items()])  # fmt: skip

    tail = (
        ". They ran at another moment, and half of them carry the clocks, so their MB/s differ from the sweep's "
        "at the same capacity: they are here to show where the time goes, the sweep's to give the rate."
    )
    # as stored now: the sweep's 32 MiB is clamped to 4–128 flushes, so 8 MiB at 64 KiB, 64 MiB at 16 MiB
    breakdown = sized({64 * KiB: 8192, 1024 * KiB: 8192, 16384 * KiB: 8192})
    sweep = sized({64 * KiB: 512, 1024 * KiB: 2048, 16384 * KiB: 4096})
    assert report.bytes_per_case(sweep) == {64 * KiB: 8 << 20, 1024 * KiB: 32 << 20, 16384 * KiB: 64 << 20}
    assert report.breakdown_bytes_words(breakdown, sweep) == (
        "Each run here wrote 128 MiB at every capacity, more than the sweep's 8 MiB at 64 KiB, 32 MiB at 1 MiB "
        "and 64 MiB at 16 MiB" + tail
    )
    mixed = sized({64 * KiB: 512, 16384 * KiB: 8192})
    assert report.breakdown_bytes_words(mixed, sized({64 * KiB: 512, 16384 * KiB: 4096})) == (
        "Each run here wrote 8 MiB at 64 KiB and 128 MiB at 16 MiB, more than the sweep's 64 MiB at 16 MiB; "
        "as much as the sweep's 8 MiB at 64 KiB" + tail
    )
    assert report.breakdown_bytes_words(sized({64 * KiB: 256}), sized({64 * KiB: 512})) == (
        "Each run here wrote 4 MiB at 64 KiB, less than the sweep's 8 MiB at 64 KiB" + tail
    )
    assert report.breakdown_bytes_words(mixed, sized({256 * KiB: 512})).startswith(
        "Each run here wrote 8 MiB at 64 KiB and 128 MiB at 16 MiB, at capacities the sweep did not run."
    )
    assert report.breakdown_bytes_words(mixed.clear(), sweep) == "The breakdown could not run here."
    assert report.bytes_per_case(mixed.drop("records")) == {}


def test_first_fill_sentence_points_at_the_table_that_gives_the_share() -> None:
    case = {"tool": "howfast", "capacity": 4096 * KiB, "dsync": True, "mode": DEEP, "buffers": 8,
            "records": 8192, "record_size": 16 * KiB}  # fmt: skip
    small = case | {"capacity": 256 * KiB, "dsync": False, "buffers": 32}
    metrics = runs([(case, "first_fill_ms", [1.43]), (case, "first_fill_share", [0.018]),
                    (small, "first_fill_ms", [0.1]), (small, "first_fill_share", [0.001])])  # fmt: skip
    assert report.first_fill_sentence(metrics) == (
        "Before its first write, the memtable has to fill a buffer, and fio has nothing to fill: with 4 MiB buffers "
        "(io_uring ×8, O_DSYNC) that took 1.43 ms, 1.8 % of a run of 32 flushes. The table of each side's MB/s "
        "gives that share for every row (first fill %); the fewer flushes a run has, the more of it goes to the "
        "start."
    )
    gone = runs([], [({"tool": "howfast", "capacity": 64 * KiB}, "no O_DIRECT")])
    assert report.first_fill_sentence(gone) == (
        "The memtable could not run here (no O_DIRECT), so there is no first fill to time."
    )
