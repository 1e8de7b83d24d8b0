"""The memtables chapter's tables and sentences from known runs: every figure with the
interval of its median and its run count, the unstable mark where the interval stayed
wider than the target, n/a or the reason where a case could not run, and each sentence's
branches (decided by intervals, not by medians alone)."""

from __future__ import annotations

import polars as pl
import pytest

from howfast import charts, claims, stats
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
    assert text.startswith(
        "The sweep's highest median throughput was that of blocking at 64 KiB, 110 records per second "
        "(100–120, 3 runs; 1.1 MB/s at the median)"
    )
    assert "only by the medians: the intervals of 1 other case reach into its own (io_uring ×2 at 64 KiB)" in text
    clear = sweep.with_columns(
        pl.when(pl.col("mode") == DOUBLE).then(pl.col("value") / 10).otherwise(pl.col("value")).alias("value")
    )
    assert report.peak_sentence(clear).endswith(", clearly above every other case.")
    synced = clear.with_columns(pl.lit(True).alias("dsync"))
    assert "may show how far this disk's speed moved between runs rather than a gain from O_DSYNC" in (
        report.peak_sentence(synced)
    )
    # a top with O_DSYNC only by the medians: nothing to explain, so no aside
    assert "O_DSYNC only adds" not in report.peak_sentence(sweep.with_columns(pl.lit(True).alias("dsync")))
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
    assert log["records/s"] == "33 (30–40); unstable: −9 %/+21 %" and log["per fdatasync"] == "64"
    gone = rows["log + O_DSYNC segments"]
    assert gone["records/s"] == "n/a" and gone["runs"] == "n/a" and gone["unsupported"] == "O_DIRECT unsupported"
    pinning = report.variant_table(variant_runs(), "pinning", TARGET)
    assert pinning.height == 0 and "per fdatasync" not in pinning.columns


def test_log_share_is_the_median_of_the_per_round_ratios() -> None:
    est = report.log_share(variant_runs())  # 30/90, 33/100, 40/110
    assert est.runs == 3 and est.median == pytest.approx(1 / 3) and est.lo == pytest.approx(0.33)
    assert report.log_share_words(variant_runs()) == (
        "33 % of the speed (the median of the per-round ratios of records/s with the log to without it, the "
        "interval of that median 33–36 %, 3 rounds)"
    )
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
    assert blocking["ours / fio"] == "0.8× (0.7–0.92×)" and blocking["verdict"] == "leans lower"  # 3 rounds: 75 %
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
    assert "of 2 cases, 1 case leaned slower than fio, the interval below 1: blocking at 256 KiB" in text
    assert "1 case was inconclusive, the interval including 1 and leaving the band." in text
    assert "io_uring ×8 at 256 KiB" not in text  # inconclusive cases are counted, the table names them
    assert text.endswith(
        "With 3 rounds per case, each interval is the lowest ratio to the highest, which holds the median with "
        "75 % confidence, not 95 %, so those verdicts are leanings."
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
    assert whole["per rollover µs"] == "none: no rollover" and whole["writer's wait µs"] == "none: no rollover"
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
        "Test by test, our loop ran at 1.01× to 2.1× of db_bench's rate (each the median of its per-round ratios, as "
        "the table gives it)."
    )
    one = rocksdb_runs().filter(pl.col("test") == "fillseq")
    assert report.db_bench_range_sentence(one).startswith("Our loop ran at 2.1× of db_bench's rate")
    alone = rocksdb_runs().filter(pl.col("tool") == "howfast")
    assert report.db_bench_range_sentence(alone).startswith("There is no cross-check on this machine")
    assert report.db_bench_verdict_words(rocksdb_runs()) == (
        "With only 2 rounds per case, each interval runs from the lowest ratio to the highest and holds the median "
        "with 50 % confidence, not 95 %, so the verdict column gives leanings, not findings: 1 case leaned faster "
        "than db_bench and 1 case did not lean either way."
    )
    # rounds of several counts below six: the confidence of each count
    mixed = pl.concat([rocksdb_runs(), rocksdb_runs().filter(pl.col("test") == "overwrite").with_columns(
        pl.col("repetition") + 2)])  # fmt: skip
    assert "holds the median with a confidence of 50 % at 2 rounds and 88 % at 4 rounds, not 95 %" in (
        report.db_bench_verdict_words(mixed)
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
    # Little's law reads the MEAN wait: a full queue's drain time against it, each with its interval
    def e(median: float, lo: float, hi: float) -> Estimate:
        return Estimate(median, lo, hi, 3)

    assert report.queue_share_words(e(695.0, 650.0, 740.0), e(1180.0, 1100.0, 1250.0)).startswith(
        "A full queue would account for 59 % of the mean wait (52–67 % within the two intervals): by Little's "
        "law, more records were between hand-over and acknowledgement on average than the queue holds, so the rest "
        "may lie elsewhere"
    )
    assert report.queue_share_words(e(1000.0, 990.0, 1010.0), e(1050.0, 1040.0, 1060.0)) == (
        "A full queue accounts for about the whole mean wait, 0.95× (0.93–0.97×) of it, as it would if the "
        "producers kept the queue full; this run cannot say that they did."
    )
    assert report.queue_share_words(e(2000.0, 1900.0, 2100.0), e(1000.0, 950.0, 1050.0)) == (
        "That is 2× the mean wait (1.8–2.2× within the two intervals): by Little's law, fewer records than the "
        "queue's depth waited on average, so the queue may not have stayed full."
    )
    # the same medians as the first case, but intervals that reach across 0.9: no verdict
    assert report.queue_share_words(e(695.0, 500.0, 900.0), e(1180.0, 800.0, 1300.0)) == (
        "A full queue would take 0.59× the mean wait by the medians, but 0.38–1.12× within the two intervals, a span "
        "that reaches across 0.9 or 1.1, so this run cannot say whether a full queue accounts for part of the mean "
        "wait, about all of it or more."
    )
    # a ratio of medians near 1 whose span reaches past 1.1 is not 'about the whole'
    assert "cannot say" in report.queue_share_words(e(1000.0, 900.0, 1200.0), e(1000.0, 950.0, 1050.0))
    # a mean whose interval reaches 0: only a lower end; above 1.1 still decided, below not
    assert "from 5× up" in report.queue_share_words(e(1000.0, 1000.0, 1000.0), e(100.0, 0.0, 200.0))
    assert report.queue_share_words(e(1000.0, 1000.0, 1000.0), e(100.0, 0.0, 200.0)).startswith("That is 10×")
    assert "cannot say" in report.queue_share_words(e(100.0, 100.0, 100.0), e(1000.0, 0.0, 2000.0))
    assert report.queue_share_words(None, e(1000.0, 900.0, 1100.0)).startswith("Without both figures")
    # no mean stored: no verdict from a median
    assert report.queue_share_words(e(500.0, 450.0, 550.0), None).startswith(
        "Little's law relates a queue's length to the mean wait, which this run does not give"
    )
    with pytest.raises(TypeError, match="wait"):
        report.queue_share_words(500.0, e(1.0, 1.0, 1.0))  # type: ignore[arg-type]


def test_queue_figures_turn_the_rate_interval_round() -> None:
    plain = runs([({"group": "durability", "variant": NO_LOG}, "mean", [800, 900, 1000]),
                  ({"group": "durability", "variant": NO_LOG}, "records_per_s", [50_000, 64_000, 80_000])])  # fmt: skip
    wait, mean = report.queue_figures(plain, 64)
    assert (wait.median, wait.lo, wait.hi, wait.runs) == (1000.0, 800.0, 1280.0, 3)
    assert (mean.median, mean.lo, mean.hi) == (900.0, 800.0, 1000.0)
    assert report.queue_figures(plain.clear(), 64) == (None, None)
    with pytest.raises(ValueError, match="queue_depth"):
        report.queue_figures(plain, 0)
    with pytest.raises(TypeError, match="queue_depth"):
        report.queue_figures(plain, 6.4)  # type: ignore[arg-type]


def test_variant_numbers_keep_the_mean_and_the_median_apart() -> None:
    plain = runs([({"group": "durability", "variant": NO_LOG}, "mean", [800, 900, 1000]),
                  ({"group": "durability", "variant": NO_LOG}, "p50", [100, 150, 200])])  # fmt: skip
    assert report.variant_numbers(plain)["plain_mean"] == 900 and report.variant_numbers(plain)["plain_p50"] == 150


def test_seed_small_words_set_the_two_flush_rates_side_by_side_without_a_ratio() -> None:
    cap = 64 * KiB
    sweep = runs([(sweep_case(cap, BLOCKING, 1), "records_per_s", [100, 110, 120]),
                  (sweep_case(cap, BLOCKING, 1), "flushes_per_s", [4000, 5000, 5000])])  # fmt: skip
    assert report.seed_small_words(sweep, 2, 4) == (
        "At 64 KiB, the seed's blocking writer flushed 196 times per "
        "second on its disk (its printed figure: about 5.11 ms a flush), this machine's 5,000 flushes per second "
        "(4,000–5,000, 3 runs): about 200 µs a flush. Two figures, not a ratio: the language (Go there, C++ here) "
        "and the disk differ as well as the machine, and the seed's sweep ran 8 producer goroutines with "
        "GOMAXPROCS=8 and its writer goroutine locked to one OS thread (LockOSThread), ours 2 producer threads on "
        "4 logical CPUs."
    )
    with pytest.raises(ValueError, match="cpus"):
        report.seed_setup_words(2, 0)
    no_blocking = sweep.filter(pl.col("metric") == "records_per_s")
    assert report.seed_small_words(no_blocking, 2, 2).endswith(
        "(its printed figure: about 5.11 ms a flush); this machine's blocking writer did not run at 64 KiB."
    )
    assert report.seed_small_words(sweep.clear(), 2, 2) == (
        "This machine's sweep could not run, so it is not set beside the seed's."
    )
    odd = sweep.with_columns(pl.lit(48 * KiB).alias("capacity"))
    assert report.seed_small_words(odd, 2, 2) == (
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
        "The memtable sweep's highest median on the same disk was 1.1 MB/s (1–1.2, 3 runs), blocking at 64 KiB, "
        "and fio's fastest job in the fio table above, 256 KiB blocks at iodepth 8 (io_uring) beside our io_uring "
        "×8, wrote 200 MB/s (3 runs, all alike). Neither need be the most this disk can take: fio's figure is what "
        "its jobs reached, and the disk may take more with other jobs."
    )
    # fio's deep job not clearly faster than its depth-1 job: it may be the limit, not the disk
    slow_deep = fio.with_columns(
        pl.when((pl.col("tool") == "fio") & (pl.col("buffers") > 1) & (pl.col("metric") == "mb_per_s"))
        .then(pl.lit(1.0))
        .otherwise(pl.col("value"))
        .alias("value")
    )
    assert report.bandwidth_words(sweep, slow_deep).endswith(
        "in some rows of the fio table fio with several writes in flight was not clearly faster than one at a time, "
        "where its deep job, not the disk, may have been the limit."
    )
    no_fio = fio.filter(pl.col("tool") == "howfast")
    assert report.bandwidth_words(sweep, no_fio).endswith(", and fio could not run here.")
    no_sweep = sweep.filter(pl.col("metric") == "records_per_s")
    assert report.bandwidth_words(no_sweep, fio).startswith("The memtable sweep could not run here, and fio's")
    assert report.bandwidth_words(no_sweep, no_fio).startswith("Neither the memtable sweep nor fio could run here")
    bullet = report.peak_bullet(sweep, fio, TARGET)
    # io_uring ×2's interval (50–150) overlaps the blocking writer's: no 'do not wait for it'
    assert bullet.startswith(
        "Without O_DSYNC, set against the blocking writer at the only capacity where both ran, the fastest io_uring "
        "mode there (by the median) was clearly faster at none, not clearly faster or slower at 1 (64 KiB) and "
        "clearly slower at none. So on this disk the intervals cannot tell whether not waiting for the flush pays "
        "at any size."
    )
    assert "do not wait" not in bullet
    assert (
        "The highest median of the sweep without O_DSYNC, blocking at 64 KiB, made 110 records per second "
        "(100–120, 3 runs; 1.1 MB/s at the median)" in bullet
    )
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
        "Each run here wrote 128 MiB at every capacity; the sweep wrote less (8 MiB at 64 KiB, 32 MiB at 1 MiB "
        "and 64 MiB at 16 MiB)" + tail
    )
    mixed = sized({64 * KiB: 512, 16384 * KiB: 8192})
    assert report.breakdown_bytes_words(mixed, sized({64 * KiB: 512, 16384 * KiB: 4096})) == (
        "Each run here wrote 8 MiB at 64 KiB and 128 MiB at 16 MiB; the sweep wrote less (64 MiB at 16 MiB), "
        "and as much at 64 KiB" + tail
    )
    assert report.breakdown_bytes_words(sized({64 * KiB: 256}), sized({64 * KiB: 512})) == (
        "Each run here wrote 4 MiB at 64 KiB; the sweep wrote more (8 MiB at 64 KiB)" + tail
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


# ---- the reviewer's findings: every branch of the words the data now decides ----------------

MiB = 1024 * KiB


def test_dsync_effect_reads_a_gain_by_the_mode_that_ran_with_o_dsync() -> None:
    from howfast import claims

    up = claims.Comparison("higher", 1.15, 1.1, 1.2)
    assert "O_DSYNC only adds a wait to each flush" in report.dsync_effect(up, mode=BLOCKING)
    assert "O_DSYNC only adds a wait to each flush" in report.dsync_effect(up, mode=DOUBLE)  # ×2 never batches
    deep = report.dsync_effect(up, mode=DEEP)
    assert deep == (
        "1.15× faster than without it, and with O_DSYNC its flushes may also share a submission "
        "(@sec-memtable-small), so a faster run can come from that batching as well as from the disk's drift; "
        "the sweep cannot tell which"
    )
    assert "batching as well as the disk's drift may explain it" in report.dsync_effect(up, short=True, mode=DEEP)
    assert "only adds" not in deep
    down = claims.Comparison("lower", 0.75, 0.7, 0.8)
    assert report.dsync_effect(down, mode=DEEP) == "1.3× slower than without it"
    with pytest.raises(ValueError, match="mode"):
        report.dsync_effect(up, mode="fast")


def test_dsync_words_read_the_mode_of_the_fastest_run_with_o_dsync() -> None:
    cap = 64 * KiB
    metrics = runs(
        [
            (sweep_case(cap, BLOCKING, 1), "records_per_s", [100, 101, 102]),
            (sweep_case(cap, DEEP, 8), "records_per_s", [110, 111, 112]),
            (sweep_case(cap, BLOCKING, 1, True), "records_per_s", [90, 91, 92]),
            (sweep_case(cap, DEEP, 8, True), "records_per_s", [130, 131, 132]),
        ]
    )
    assert "share a submission" in report.dsync_words(metrics, cap)  # the deep mode, faster with O_DSYNC
    assert report.dsync_words(metrics, cap, BLOCKING) == "1.11× slower than without it"
    summary = report.dsync_summary(metrics)
    assert "at both the smallest and the largest size" not in summary  # faster at 64 KiB: not a cost
    assert (
        "the fastest mode, io_uring ×8, ran 1.2× faster than without it (with O_DSYNC its flushes may also" in summary
    )


def test_peak_sentence_with_o_dsync_at_the_top_by_mode() -> None:
    cap = 64 * KiB
    deep = runs([(sweep_case(cap, DEEP, 8, True), "mb_per_s", [5, 5.1, 5.2]),
                 (sweep_case(cap, DEEP, 8), "mb_per_s", [1, 1.1, 1.2])])  # fmt: skip
    text = report.peak_sentence(deep)
    assert "the deep mode's flushes may also share a submission" in text and "not that O_DSYNC helped" not in text
    blocking = deep.with_columns(pl.lit(BLOCKING).alias("mode"), pl.lit(1).alias("buffers"))
    assert "O_DSYNC only adds a wait to each flush" in report.peak_sentence(blocking)
    # no records/s stored for the top case: its MB/s alone
    assert "that of io_uring ×8 at 64 KiB with O_DSYNC, 5.1 MB/s at the median" in text


def test_rollovers_per_run_follow_the_benchmarks_file_sizes() -> None:
    gib = 1024 * MiB
    assert report.rollovers_per_run(gib, 1, 4 * gib, gib) == 3  # the full profile's blocking run at 1 GiB
    assert report.rollovers_per_run(gib, 2, 4 * gib, gib) == 1  # a file holds one flush per buffer
    assert report.rollovers_per_run(64 * KiB, 1, 128 * MiB, gib) == 0
    assert report.rollovers_per_run(256 * MiB, 1, gib, gib) == 0  # exactly one file's worth
    with pytest.raises(ValueError, match="buffers"):
        report.rollovers_per_run(gib, 0, gib, gib)


def test_segment_sentence_from_the_stored_runs_every_branch() -> None:
    gib = 1024 * MiB

    def sized(cases: list[tuple[int, str, int, int]], **extra) -> pl.DataFrame:
        return runs([({"capacity": c, "mode": m, "buffers": b, "records": n, "record_size": 16 * KiB, **extra},
                      "records_per_s", [1.0]) for c, m, b, n in cases])  # fmt: skip

    fits = sized([(64 * KiB, BLOCKING, 1, 8192), (256 * MiB, BLOCKING, 1, 65536)])
    assert report.segment_sentence(gib, {"the sweep": fits}) == (
        "The runs above wrote into segment files of up to 1 GiB, each large enough for all that its run wrote, so "
        "a run never left its first one."
    )
    full = sized([(64 * KiB, BLOCKING, 1, 8192), (gib, BLOCKING, 1, 262144), (gib, DOUBLE, 2, 262144)])
    text = report.segment_sentence(gib, {"the sweep": full})
    assert text.startswith(
        "The runs above wrote into segment files of up to 1 GiB, or larger where a run's buffers held more than "
        "that, for a file holds at least one flush per buffer. Most runs wrote no more than one file holds"
    )
    assert "Every run" not in text
    assert "but 2 cases wrote more and rolled over to new files" in text
    assert "blocking runs at 1 GiB in the sweep (1 GiB files, 3 rollovers per run)" in text
    # two 1 GiB buffers: a file holds two flushes, 2 GiB
    assert "io_uring ×2 runs at 1 GiB in the sweep (2 GiB files, 1 rollover per run)" in text
    assert report.file_bytes(gib, 2, 4 * gib, gib) == 2 * gib
    assert report.file_bytes(64 * KiB, 1, 8 * MiB, gib) == 8 * MiB
    with pytest.raises(ValueError, match="segment_bytes"):
        report.file_bytes(gib, 1, gib, 0)
    # rows stored with another segment size (the fio table's default rows) are left out
    other = sized([(gib, BLOCKING, 1, 262144)], segment_bytes=64 * MiB)
    assert "a run never left its first one" in report.segment_sentence(gib, {"the sweep": fits, "the fio table": other})
    assert "not known" in report.segment_sentence(gib, {"the sweep": fits.drop("records")})
    # fio's own runs write one file: only ours count
    theirs = sized([(gib, BLOCKING, 1, 262144)], tool="fio", segment_bytes=gib)
    both = report.segment_sentence(gib, {"the sweep": fits, "the fio table": theirs})
    assert "a run never left its first one" in both
    ours = theirs.with_columns(pl.lit("howfast").alias("tool"))
    assert "blocking runs at 1 GiB in the fio table (1 GiB files, 3 rollovers per run)" in report.segment_sentence(
        gib, {"the fio table": ours}
    )


def test_deep_capacity_and_where_the_sweep_has_no_deep_case() -> None:
    gib = 1024 * MiB
    metrics = runs(
        [
            (sweep_case(256 * MiB, BLOCKING, 1), "records_per_s", [1, 2, 3]),
            (sweep_case(256 * MiB, DEEP, 8), "records_per_s", [1, 2, 3]),
            (sweep_case(gib, BLOCKING, 1), "records_per_s", [1, 2, 3]),
            (sweep_case(gib, DOUBLE, 2), "records_per_s", [1, 2, 3]),
        ]
    )
    assert report.deep_capacity(metrics) == 256 * MiB
    assert report.deep_capacity(metrics.filter(pl.col("mode") != DEEP)) is None
    assert report.no_deep_words(metrics, 2 * gib) == (
        "At 1 GiB the sweep has no deep case (n/a in its column): the buffers may take 2 GiB at most "
        "(max_buffer_bytes), room for no more than two of that size, so io_uring ×2 is the deepest mode there."
    )
    assert report.no_deep_words(metrics, 64 * gib) == "At 1 GiB the sweep ran no deep case."
    assert report.no_deep_words(metrics.filter(pl.col("capacity") != gib), 2 * gib) == ""
    # a deep case that could not run has its reason in the table: no sentence for it
    refused = pl.concat(
        [metrics.with_columns(pl.col("note").cast(pl.String)), runs([], [(sweep_case(gib, DEEP, 2), "no memory")])],
        how="diagonal_relaxed",
    )
    assert report.no_deep_words(refused, 2 * gib) == ""


def test_peak_bullet_says_do_not_wait_only_where_io_uring_was_clearly_faster() -> None:
    cap = 64 * KiB

    def sweep(uring: list[float]) -> pl.DataFrame:
        return runs([(sweep_case(cap, BLOCKING, 1), "records_per_s", [100, 101, 102]),
                     (sweep_case(cap, BLOCKING, 1), "mb_per_s", [1.0, 1.01, 1.02]),
                     (sweep_case(cap, DEEP, 8), "records_per_s", uring),
                     (sweep_case(cap, DEEP, 8), "mb_per_s", [u / 100 for u in uring])])  # fmt: skip

    faster = report.peak_bullet(sweep([200, 201, 202]), fio_runs())
    assert faster.startswith(
        "Without O_DSYNC, set against the blocking writer at the only capacity where both ran, the fastest io_uring "
        "mode there (by the median) was clearly faster at 1 (64 KiB), not clearly faster or slower at none and "
        "clearly slower at none. The flush is a round trip; on this disk, not waiting for it paid at every size "
        "measured: do not wait for it."
    )
    slower = report.peak_bullet(sweep([50, 51, 52]), fio_runs())
    assert "clearly slower at 1 (64 KiB). So on this disk not waiting for the flush paid at no size" in slower
    alone = sweep([200, 201, 202]).filter(pl.col("mode") == DEEP)
    assert report.peak_bullet(alone, fio_runs()).startswith(
        "The sweep did not run both io_uring and the blocking writer at any capacity without O_DSYNC, so not "
        "waiting for the flush is not compared here."
    )


def test_flush_wait_sentence_tallies_every_capacity_never_one() -> None:
    """The reader's case: io_uring clearly faster at most sizes, unclear at some: the tally names
    each size, and the lesson comes from the tally, not from the size of the peak."""

    def case(capacity: int, blocking: list[float], uring: list[float]) -> list:
        return [(sweep_case(capacity, BLOCKING, 1), "records_per_s", blocking),
                (sweep_case(capacity, DEEP, 8), "records_per_s", uring)]  # fmt: skip

    mixed = runs(case(64 * KiB, [40, 45, 48], [90, 114, 120]) + case(MiB, [82, 100, 115], [108, 139, 160])
                 + case(4 * MiB, [100, 107, 117], [120, 138, 151]))  # fmt: skip
    assert report.flush_wait_tally(mixed) == {"faster": [64 * KiB, 4 * MiB], "unclear": [MiB], "slower": []}
    text = report.flush_wait_sentence(mixed)
    assert text == (
        "Without O_DSYNC, set against the blocking writer at each of the 3 capacities where both ran, the fastest "
        "io_uring mode there (by the median) was clearly faster at 2 (64 KiB and 4 MiB), not clearly faster or "
        "slower at 1 (1 MiB) and clearly slower at none. So on this disk not waiting for the flush paid wherever "
        "the intervals could tell, and cost at no size; at the others this disk's noise hides whatever difference "
        "there was."
    )
    both = runs(case(64 * KiB, [40, 45, 48], [90, 114, 120]) + case(MiB, [100, 101, 102], [50, 51, 52]))
    assert report.flush_wait_sentence(both).endswith(
        "So on this disk whether not waiting for the flush pays depends on the size."
    )
    # O_DSYNC runs are not read
    dsync = runs([(sweep_case(MiB, BLOCKING, 1, True), "records_per_s", [1, 2, 3]),
                  (sweep_case(MiB, DEEP, 8, True), "records_per_s", [10, 11, 12])])  # fmt: skip
    assert report.flush_wait_tally(pl.concat([mixed, dsync]))["faster"] == [64 * KiB, 4 * MiB]


def test_split_sentence_from_the_pace_and_fio() -> None:
    def numbers(wait: Estimate | None, work: Estimate | None) -> dict:
        return {"small": 64 * KiB, "small_t_buffer_wait_share_est": wait, "small_record_work_share_est": work}

    high, low = Estimate(0.6, 0.55, 0.65, 3, 0.75), Estimate(0.2, 0.15, 0.25, 3, 0.75)
    waits = report.split_sentence(fio_runs(), numbers(high, low))
    assert waits == (
        "The experiments above show the split: at 64 KiB the writer spent 60 % (55–65 %) of its run waiting for the "
        "disk, more than the 20 % (15–25 %) it worked on records, and the io_uring flushes reached 1× to 1× of "
        "fio's MB/s with the same block size and depth."
    )
    assert ", less than the 60 % (55–65 %) it worked on records" in report.split_sentence(
        fio_runs(), numbers(low, high)
    )
    assert "intervals that overlap" in report.split_sentence(fio_runs(), numbers(high, high))
    none = report.split_sentence(fio_runs().filter(pl.col("tool") == "howfast"), numbers(None, None))
    assert none == (
        "The experiments above show the split: the breakdown of the writer's time could not run here, and fio could "
        "not run beside the flushes."
    )


def test_rocksdb_cache_and_tail_words_every_branch() -> None:
    gib = 1024 * MiB
    small = report.rocksdb_cache_words(gib, 16 * gib, "none")
    assert small == (
        "a database this small can stay in the page cache (6.2 % of memory), where a read pays only for finding the "
        "key; whether reads hit the cache is not measured."
    )
    assert "finding the key and decompressing its block (snappy)" in report.rocksdb_cache_words(gib, 16 * gib, "snappy")
    assert "decompress" not in report.rocksdb_cache_words(gib, 16 * gib, "n/a")
    assert report.rocksdb_cache_words(8 * gib, 16 * gib, "none").startswith(
        "a database this large (50 % of memory) may not stay in the page cache"
    )
    with pytest.raises(ValueError, match="memory_bytes"):
        report.rocksdb_cache_words(gib, 0, "none")

    def tails(rr: list[float], rw: list[float]) -> pl.DataFrame:
        return runs([({"test": "readrandom"}, "latency_p99", rr), ({"test": "readwhilewriting"}, "latency_p99", rw)])

    longer = report.rocksdb_tail_words(tails([10, 11, 12], [30, 31, 32]))
    assert longer.startswith("Reads alongside a writer had a longer tail: their p99 was 2.8× longer than readrandom's.")
    assert "which may be why" in longer
    assert report.rocksdb_tail_words(tails([100, 101, 102], [100, 101, 102])).startswith(
        "Reads alongside a writer did not have a clearly longer tail here: their p99 was about as long as"
    )
    assert "shorter" in report.rocksdb_tail_words(tails([30, 31, 32], [10, 11, 12]))
    assert report.rocksdb_tail_words(tails([10], [10]).filter(pl.col("test") == "readrandom")) == (
        "The two read tests did not both run here, so their tails are not compared."
    )


def test_wait_against_copy_never_divides_across_runs_and_modes() -> None:
    variants = runs([({"group": "durability", "variant": NO_LOG}, "p50", [100, 100, 100])])

    def copies(capacity: int) -> pl.DataFrame:
        return runs([({"capacity": capacity, "dsync": False, "counters": True}, "t_copy", [1900, 2000, 2100])])

    assert report.wait_against_copy(variants, copies(MiB), MiB) == (
        "Even without the log, a record waited 100 µs at the median at 1 MiB with double buffering; the breakdown "
        "below timed the writer framing and copying one at the same capacity without O_DSYNC at 2 µs, in its own "
        "clocked runs in the deep io_uring mode, a different run and mode, so the two are not divided."
    )
    assert report.wait_against_copy(variants, copies(64 * KiB), MiB) == (
        "Even without the log, a record waited 100 µs at the median at 1 MiB with double buffering; the breakdown "
        "below measured the writer's time framing and copying one only at other sizes: 2 µs at 64 KiB in the deep "
        "io_uring mode, a different size and mode, so the two are not divided."
    )
    assert report.wait_against_copy(variants, copies(MiB).clear(), MiB).endswith(
        "; the writer's time copying a record could not be measured here."
    )
    assert report.wait_against_copy(variants.clear(), copies(MiB), MiB) == (
        "Without the log, a record's wait could not be measured here."
    )


def test_fio_bytes_words_from_the_stored_runs() -> None:
    def sized(caps_records: dict[int, int], **extra) -> pl.DataFrame:
        return runs([({"capacity": c, "records": n, "record_size": 16 * KiB, **extra}, "mb_per_s", [1.0])
                     for c, n in caps_records.items()])  # fmt: skip

    fio = sized({64 * KiB: 32768, 1024 * MiB: 262144}, tool="howfast", segment_bytes=1024 * MiB)
    sweep = sized({64 * KiB: 8192, 1024 * MiB: 262144})
    assert report.fio_bytes_words(fio, sweep).startswith(
        "The memtable's runs here wrote 512 MiB at 64 KiB and 4 GiB at 1 GiB; the sweep wrote less (128 MiB at "
        "64 KiB), and as much at 1 GiB. They ran at another moment, next to fio"
    )
    assert "at capacities the sweep did not run" in report.fio_bytes_words(fio, sized({256 * KiB: 8}))
    assert report.fio_bytes_words(fio.filter(pl.col("tool") == "fio"), sweep).startswith(
        "The memtable did not run beside fio here"
    )


def test_fio_steadiness_calls_the_disk_unsteady_only_past_the_wide_spread() -> None:
    def fio(values: list[float]) -> pl.DataFrame:
        case = {"tool": "fio", "capacity": 256 * KiB, "dsync": True, "mode": DEEP, "buffers": 8}
        return runs([(case, "mb_per_s", values)])

    wide = report.fio_steadiness(fio([100, 150, 200]))
    assert wide.startswith(
        "The disk itself is not steady: the same fio job (256 KiB writes with O_DSYNC, as io_uring ×8, 8 writes in "
        "flight at most) ran between 100 and 200 MB/s"
    )
    steady = report.fio_steadiness(fio([100, 105, 110]))
    assert steady.startswith("The disk was fairly steady here: the fio job that moved most between repetitions")
    assert "not steady" not in steady
    assert report.fio_steadiness(fio([100])) == "Each fio job ran once, so how steady the disk is went unmeasured."


def test_fio_table_verdicts_are_findings_with_six_rounds() -> None:
    six = pl.concat([fio_runs().with_columns(pl.col("repetition") + 3 * i) for i in range(2)])
    blocking = report.fio_table(six, TARGET).row(0, named=True)
    assert blocking["verdict"] == "ours lower" and blocking["rounds"] == 6


def test_plateau_sentence_by_profile_and_the_sizes_clearly_below() -> None:
    def sweep(points: list[list[float]]) -> pl.DataFrame:
        return runs([(sweep_case(64 * KiB * 4**i, BLOCKING, 1), "mb_per_s", p) for i, p in enumerate(points)])

    rising = sweep([[10, 11, 12], [100, 101, 102], [500, 510, 520]])
    one_mode = " The fastest mode (by the median) was blocking at every capacity."
    assert report.plateau_sentence(rising, "quick").endswith("1 MiB; the full profile goes further." + one_mode)
    assert report.plateau_sentence(rising, "full").endswith("measured, 1 MiB." + one_mode)
    flat = report.plateau_sentence(sweep([[100, 101, 102], [50, 51, 52], [98, 102, 106]]))
    assert flat == (
        "Without O_DSYNC, no capacity's fastest mode was clearly faster than at the smallest, 64 KiB: none had an "
        "interval wholly above its own (at 256 KiB it was clearly slower)." + one_mode
    )
    two = sweep([[100, 101, 102], [95, 100, 104]])
    assert report.plateau_sentence(two).endswith("wholly above its own." + one_mode)


def test_depth_comparison_when_one_buffer_is_the_fastest() -> None:
    rates = (("depth_1", [30, 31, 32]), ("depth_2", [20, 21, 22]), ("depth_8", [10, 11, 12]))
    depth = runs([({"group": "depth", "variant": v}, "records_per_s", vs) for v, vs in rates])
    assert report.depth_comparison(depth, "the blocking flush") == (
        "no buffer count beat the blocking flush; the next, io_uring ×2, was 1.5× slower than the blocking flush"
    )
    only = depth.filter(pl.col("variant") == "depth_1")
    assert report.depth_comparison(only, "the blocking flush") == (
        "no other buffer count ran, so none is compared with the blocking flush"
    )


def test_sweep_curves_time_per_record_is_the_rate_turned_round() -> None:
    curves = report.sweep_curves(small_sweep())
    ns = curves.filter((pl.col("series") == "blocking") & (pl.col("metric") == "ns_per_op")).row(0, named=True)
    assert ns["median"] == pytest.approx(1e9 / 110) and ns["lo"] == pytest.approx(1e9 / 120)
    assert ns["hi"] == pytest.approx(1e9 / 100) and ns["repetitions"] == 3


# ---- the reader's findings: one formatter, every capacity, both settings ---------------------------


def test_short_factor_and_the_ratio_cells_keep_a_median_to_three_digits() -> None:
    assert report.short_factor(0.9001) == "0.9" and report.short_factor(1.13) == "1.13"
    assert report.short_factor(0.83) == "0.83" and report.short_factor(1.0) == "1"
    assert report.short_factor(None) == "n/a"
    assert report.short_factor(1.002) == "1"
    # the median to three digits, the ends as claims.ratio_interval gives them
    assert report._ratio_cell(Estimate(0.9001, 0.83, 0.96, 6, 0.97)) == "0.9× (0.83–0.96×)"
    assert report._ratio_cell(Estimate(2.0, 2.0, 2.0, 3, 0.75)) == "2×" and report._ratio_cell(None) == "n/a"


def test_sizes_by_capacity_says_every_capacity_only_for_all_of_them() -> None:
    sizes = {64 * KiB: 128 << 20, MiB: 1 << 30, 16 * MiB: 1 << 30, 1024 * MiB: 1 << 30}
    assert report._sizes_by_capacity(sizes, [MiB, 16 * MiB, 1024 * MiB]) == "1 GiB at every capacity"
    assert report._sizes_by_capacity(sizes, [MiB, 16 * MiB, 1024 * MiB], sorted(sizes)) == (
        "1 GiB at 1 MiB, 16 MiB and 1 GiB"
    )

    # the reader's case: the breakdown wrote 1 GiB everywhere; the sweep only at three of the four
    def sized(caps_records: dict[int, int]) -> pl.DataFrame:
        return runs([({"capacity": c, "records": n, "record_size": 16 * KiB}, "records_per_s", [1.0])
                     for c, n in caps_records.items()])  # fmt: skip

    breakdown = sized({c: 65536 for c in sizes})
    sweep = sized({64 * KiB: 8192, MiB: 65536, 16 * MiB: 65536, 1024 * MiB: 65536})
    text = report.breakdown_bytes_words(breakdown, sweep)
    assert text.startswith(
        "Each run here wrote 1 GiB at every capacity; the sweep wrote less (128 MiB at 64 KiB), and as much at "
        "1 MiB, 16 MiB and 1 GiB."
    )


def test_fio_sentence_and_range_use_one_formatter_and_question_a_faster_memtable() -> None:
    def case(tool: str, capacity: int) -> dict:
        return {"capacity": capacity, "dsync": False, "mode": DEEP, "buffers": 8, "tool": tool}

    faster = runs([(case("howfast", 16 * MiB), "mb_per_s", [2260, 2300, 2320]),
                   (case("fio", 16 * MiB), "mb_per_s", [2000, 2000, 2000]),
                   (case("howfast", MiB), "mb_per_s", [1800, 1800, 1800]),
                   (case("fio", MiB), "mb_per_s", [2000, 2000, 2000])])  # fmt: skip
    text = report.fio_sentence(faster)
    assert "io_uring ×8 at 16 MiB (1.15×)" in text and "io_uring ×8 at 1 MiB (0.9×)" in text
    assert text.endswith(
        "For the same bytes the memtable does strictly more work than fio (it copies every record into its buffer "
        "and indexes it before the flush), so a leaning towards faster may point at this disk's speed drifting between "
        "the alternated runs, or at a difference in how the two submit their writes; these runs cannot separate the "
        "two."
    )
    assert "strictly more work" not in report.fio_sentence(fio_runs())
    assert report.fio_ratio_range(faster) == "0.9× to 1.15×"


def test_disk_pattern_words_name_both_disk_figures_and_which_is_quoted() -> None:
    def case(tool: str, mode: str, capacity: int = MiB) -> dict:
        return {"capacity": capacity, "dsync": False, "mode": mode, "buffers": 1, "tool": tool,
                "segment_bytes": 1024 * MiB}  # fmt: skip

    fio = runs([(case("fio", BLOCKING), "mb_per_s", [1580, 1750, 2000]),
                (case("fio", DEEP), "mb_per_s", [2500, 2500, 2500]),
                (case("fio", BLOCKING, 64 * KiB), "mb_per_s", [300, 300, 300])])  # fmt: skip
    assert report.fio_pattern_estimate(fio).median == 1750.0
    disk = Estimate(2190.0, 2130.0, 2230.0, 3, 0.75)
    text = report.disk_pattern_words(disk, fio, TARGET)
    assert text == (
        "The fio table above measured the same pattern, one stream of 1 MiB O_DIRECT writes one at a time without "
        "O_DSYNC, at 1,750 MB/s (1,580–2,000, 3 runs; unstable: ±12 %); this section's own figure was 1.3× "
        "faster than that (1.06–1.4×). This section quotes its own, as it ran beside RocksDB's runs, at the moments "
        "they ran; the fio table's ran beside the memtable's."
    )
    close = report.disk_pattern_words(Estimate(1800.0, 1600.0, 1900.0, 3, 0.75), fio)
    assert "this section's own figure was not clearly faster or slower than that" in close
    assert report.disk_pattern_words(None, fio).startswith("This section's own disk runs did not run here")
    assert report.disk_pattern_words(disk, fio.clear()).startswith("The fio table above has no run of that pattern")
    buffered = report.disk_pattern_words(disk, fio, TARGET, direct=False)  # the probe fell back: another pattern
    assert buffered == (
        "The fio table above measured one stream of 1 MiB O_DIRECT writes one at a time without O_DSYNC, at "
        "1,750 MB/s (1,580–2,000, 3 runs; unstable: ±12 %); this section's own runs could not use O_DIRECT and "
        "wrote through the page cache with an fdatasync after each block, not the same pattern, so the two figures "
        "are not compared. This section quotes its own, as it ran beside RocksDB's runs."
    )
    assert "measured the same pattern" not in buffered and "faster" not in buffered
    assert report.disk_pattern_words(None, fio, direct=False).startswith("This section's own disk runs did not run")
    with pytest.raises(TypeError, match="direct"):
        report.disk_pattern_words(disk, fio, direct=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="capacity"):
        report.fio_pattern_estimate(fio, 0)


def test_plateau_says_near_the_ceiling_when_the_knee_is_not_above_the_smallest() -> None:
    def sweep(points: list[list[float]]) -> pl.DataFrame:
        caps = [64 * KiB * 4**i for i in range(len(points))]
        return runs([(sweep_case(c, DEEP, 8), "mb_per_s", p) for c, p in zip(caps, points)])

    near = report.plateau_sentence(sweep([[100, 110, 120], [105, 115, 125], [126, 127, 128], [126, 127, 128]]))
    assert near.startswith(
        "Without O_DSYNC, the fastest mode was already near its ceiling at the smallest size, 64 KiB: 256 KiB was "
        "not clearly faster, and from there no larger capacity was clearly more than 10 % faster"
    )
    assert (
        "(at 1 MiB and 4 MiB its interval did lie wholly above the smallest size's, but none was clearly more than "
        "10 % above 256 KiB)." in near
    )
    knee = report.plateau_sentence(sweep([[10, 11, 12], [100, 101, 102], [100, 104, 106]]))
    assert "levels off from 256 KiB" in knee and "ceiling" not in knee
    # a later size clearly more than 10 % above the first (lo 130 > 120 × 1.1): not 'near its ceiling'
    gained = report.plateau_sentence(sweep([[100, 110, 120], [95, 115, 160], [135, 140, 145], [120, 130, 150]]))
    assert gained.startswith(
        "Without O_DSYNC, the fastest mode ran clearly more than 10 % faster than at the smallest size, 64 KiB, at "
        "1 MiB (the interval of its median wholly above that margin), so it was not near its ceiling there; yet "
        "256 KiB was not clearly faster than 64 KiB, and no larger capacity was clearly more than 10 % faster than "
        "256 KiB, whose interval is wide. So this sweep cannot place where a larger memtable stops paying."
    )
    assert "ceiling at the smallest" not in gained


def test_plateau_names_the_fastest_mode_where_it_changes() -> None:
    caps = [64 * KiB * 4**i for i in range(4)]
    sweep = runs(
        [(sweep_case(caps[0], DEEP, 32), "mb_per_s", [100, 101, 102]),
         (sweep_case(caps[1], DEEP, 32), "mb_per_s", [200, 201, 202]),
         (sweep_case(caps[1], DOUBLE, 2), "mb_per_s", [150, 151, 152]),
         (sweep_case(caps[2], DOUBLE, 2), "mb_per_s", [300, 301, 302]),
         (sweep_case(caps[2], DEEP, 8), "mb_per_s", [250, 251, 252]),
         (sweep_case(caps[3], DEEP, 8), "mb_per_s", [400, 401, 402])]
    )  # fmt: skip
    assert report.plateau_sentence(sweep, "full").endswith(
        " The fastest mode (by the median), whose curve these words read, changes with the capacity: io_uring ×32 "
        "from 64 KiB to 256 KiB, io_uring ×2 at 1 MiB and io_uring ×8 at 4 MiB."
    )
    assert report.fastest_modes_words([]) == ""
    assert report.fastest_modes_words([(KiB, "blocking")]) == (
        " The fastest mode (by the median) was blocking at every capacity."
    )


def test_seed_flush_words_give_the_range_of_the_printed_figures() -> None:
    text = report.seed_flush_words()
    assert text.startswith("The seed's own machine flushed 195–203 times per second without O_DSYNC and 118–123")
    assert "from 64 KiB to 2 MiB" in text and "hardly moved with the size" in text
    assert report.seed_flush_words(64 * MiB).endswith("its flush rate moved with the size.")
    assert report.seed_flush_words(1024).startswith("The seed measured no capacity up to")
    with pytest.raises(ValueError, match="limit"):
        report.seed_flush_words(0)


def test_repeat_and_apart_words_one_threshold_and_a_plain_list() -> None:
    cap = 16 * MiB
    sweep = runs([(sweep_case(cap, BLOCKING, 1), "records_per_s", [74600, 97400, 125000])])
    variants = runs([({"group": "pinning", "variant": "blocking_unpinned"}, "records_per_s", [90000, 99700, 110000])])
    text = report.repeat_sentence(sweep, variants, cap)
    assert "97,400 records/s in the sweep and 99,700 records/s in the pinning table's unpinned run (alike" in text
    assert "; and" not in text
    e = Estimate(100.0, 80.0, 120.0, 8, 0.99)
    at = Estimate(105.1, 85.0, 125.0, 8, 0.99)
    assert report._apart_words([("a", e), ("b", at)]) == "1.05× apart by the medians, but their intervals overlap"
    near = Estimate(103.0, 83.0, 123.0, 8, 0.99)
    assert report._apart_words([("a", e), ("b", near)]).startswith("alike by the medians")


def test_dsync_words_keep_a_median_near_one_to_three_digits() -> None:
    c = claims.Comparison(claims.UNCLEAR, 1.002, 0.9, 1.1)
    assert report.dsync_effect(c) == (
        "not clearly faster or slower than without it (1× by the medians, but the intervals overlap)"
    )
    clear = claims.Comparison(claims.LOWER, 0.5, 0.4, 0.6)
    assert report.dsync_effect(clear) == "2× slower than without it"


# ---- review fixes: each branch written or changed -------------------------------------------------


def test_fio_depth_words_name_fio_deep_jobs_that_did_not_gain_on_depth_one() -> None:
    fio = fio_runs()  # fio's depth-8 job (200 MB/s) clearly above its depth-1 job (100): nothing to say
    assert report.fio_depth_limited(fio) == [] and report.fio_depth_words(fio) == ""

    def deep_fio(values: list[float]) -> pl.DataFrame:
        keep = fio.filter(~((pl.col("tool") == "fio") & (pl.col("buffers") > 1) & (pl.col("metric") == "mb_per_s")))
        deep = {"capacity": 256 * KiB, "dsync": False, "mode": DEEP, "buffers": 8, "tool": "fio",
                "segment_bytes": 1024 * 1024 * KiB, "records": 2048, "record_size": 16 * KiB}  # fmt: skip
        return pl.concat([keep, runs([(deep, "mb_per_s", values)])], how="diagonal_relaxed")

    slower = deep_fio([80, 80, 80])
    assert [f["direction"] for f in report.fio_depth_limited(slower)] == [claims.LOWER]
    words = report.fio_depth_words(slower)
    assert words == (
        " fio with several writes in flight (io_uring at the iodepth of our buffer count) was not clearly faster "
        "than fio one write at a time (psync) with the same blocks at 256 KiB at iodepth 8 (80 against 100 MB/s by "
        "the medians; clearly slower). More writes in flight should let a disk go at least as fast, so at those "
        "sizes fio's deep job, not the disk, may be what limits fio's figure, and ours above fio there need not mean "
        "ours above what the disk can take."
    )
    assert report.fio_sentence(slower).endswith(words)
    unclear = report.fio_depth_words(deep_fio([90, 100, 110]))
    assert "256 KiB at iodepth 8 (100 against 100 MB/s by the medians)." in unclear and "clearly slower" not in unclear
    assert report.fio_depth_words(fio.filter(pl.col("tool") == "howfast")) == ""
    assert report.fio_job_name(MiB, 32) == "1 MiB blocks at iodepth 32 (io_uring)"
    assert report.fio_job_name(MiB, 1, True) == "1 MiB blocks one at a time (psync) with O_DSYNC"
    with pytest.raises(ValueError, match="buffers"):
        report.fio_job_name(MiB, 0)


def test_fio_segment_table_labels_the_file_size_the_buffers_made() -> None:
    gib = 1024 * MiB
    assert report.segment_label(gib, 2, 4 * gib, gib) == "2 GiB (1 GiB set; 2 buffers of 1 GiB)"
    assert report.segment_label(gib, 1, 4 * gib, gib) == "1 GiB"
    assert report.segment_label(64 * KiB, 32, 512 * MiB, gib) == "1 GiB"  # cut to the run, not larger than set

    def case(tool: str, mode: str, buffers: int) -> dict:
        return {"capacity": gib, "dsync": False, "mode": mode, "buffers": buffers, "tool": tool,
                "segment_bytes": gib, "records": 4 * 65536, "record_size": 16 * KiB}  # fmt: skip

    big = runs([(case(t, m, b), "mb_per_s", [100, 101, 102]) for t in ("howfast", "fio")
                for m, b in ((BLOCKING, 1), (DOUBLE, 2))])  # fmt: skip
    table = report.fio_segment_table(big, TARGET)
    assert table["segment"].to_list() == ["1 GiB", "2 GiB (1 GiB set; 2 buffers of 1 GiB)"]
    assert "io_uring ×2 at 1 GiB in 2 GiB segments" not in report.fio_sentence(big)  # one segment size: unnamed
    two = pl.concat([big, big.with_columns(pl.lit(64 * MiB).cast(big.schema["segment_bytes"]).alias("segment_bytes"))])
    # a 64 MiB segment holds no 1 GiB flush: each file holds one flush per buffer, as the table says
    assert "io_uring ×2 at 1 GiB in 2 GiB segments" in report.fio_sentence(two)
    assert "in 64 MiB segments" not in report.fio_sentence(two)


def test_db_bench_verdicts_split_by_each_case_s_own_rounds() -> None:
    base = rocksdb_runs()  # fillseq and overwrite, 2 rounds each
    more = base.filter(pl.col("test") == "fillseq")
    mixed = pl.concat([base, *[more.with_columns(pl.col("repetition") + 2 * i) for i in range(1, 3)]])
    text = report.db_bench_verdict_words(mixed)
    assert text.startswith("The one case with 6 rounds (fillseq) came out clearly faster than db_bench.")
    assert text.endswith(
        " The other 1 case (overwrite) had only 2 rounds: there the interval runs from the lowest ratio to the "
        "highest and holds the median with 50 % confidence, not 95 %, so those verdicts are leanings, not "
        "findings: 1 case did not lean either way."
    )


def test_rollover_agreement_says_one_could_not_tell_unless_both_are_clear() -> None:
    lower, unclear = claims.Comparison(claims.LOWER, 0.9, 0.85, 0.95), claims.Comparison(claims.UNCLEAR, 1, 0.9, 1.1)
    higher = claims.Comparison(claims.HIGHER, 1.1, 1.05, 1.15)
    assert report.rollover_agreement("ours lower", lower) == "agree"
    assert report.rollover_agreement("ours higher", lower) == "disagree"
    assert report.rollover_agreement("agrees", lower) == "disagree"  # both clear, and different
    assert report.rollover_agreement("inconclusive", lower) == "one could not tell"
    assert report.rollover_agreement("ours lower", unclear) == "one could not tell"
    assert report.rollover_agreement("ours higher", higher) == "agree"
    assert report.rollover_agreement("inconclusive", unclear) == "neither clear"
    assert report.rollover_agreement("agrees", claims.Comparison(claims.MISSING)) == "missing"


def default_rollover(values: dict[int, list[float]], buffers: int = 4) -> pl.DataFrame:
    """Rollover runs without O_DSYNC, files made ahead, at the default segment (64 MiB) and one
    file of 1 GiB: elapsed ms per round for each, records/s from them."""
    rows = []
    for seg, elapsed in values.items():
        case = {"dsync": False, "segments_ahead": 2, "segment_bytes": seg, "buffers": buffers, "capacity": MiB}
        rolls = 0 if seg >= 1024 * MiB else 1024 * MiB // seg - 1
        rows += [(case, "elapsed_ms", elapsed), (case, "rollovers", [rolls] * len(elapsed)),
                 (case, "records_per_s", [1e6 / e for e in elapsed]), (case, "wait_us", [5.0] * len(elapsed)),
                 (case, "make_ms", [0.5] * len(elapsed))]  # fmt: skip
    return runs(rows)


def test_rollover_beside_words_name_the_buffers_and_one_that_could_not_tell() -> None:
    overlap = default_rollover({64 * MiB: [80, 100, 120, 90, 110, 100], 1024 * MiB: [85, 105, 115, 95, 100, 120]})
    words = report._rollover_beside_words([{"dsync": False, "crosscheck": "ours lower"}], overlap, 32)
    assert "the rollover experiment above, with 4 buffers where these rows kept 32, and at another moment" in words
    assert ": one of the two experiments could not tell." in words
    assert words.endswith(
        " Where one could not tell, the clear finding rests on one experiment alone; the two differ in their buffers "
        "(4 against 32)."
    )
    slower = default_rollover({64 * MiB: [150, 151, 152, 150, 151, 152], 1024 * MiB: [100, 101, 102, 100, 101, 102]})
    same_buffers = report._rollover_beside_words([{"dsync": False, "crosscheck": "agrees"}], slower, 4)
    assert "the two experiments disagree" in same_buffers and "with its own flushes and buffers" in same_buffers
    assert same_buffers.endswith(
        "differ in their flushes and buffers, and this disk's speed may have moved between them."
    )
    agree = report._rollover_beside_words([{"dsync": False, "crosscheck": "ours lower"}], slower, 32)
    assert agree.endswith("the two experiments agree.")


def test_rollover_sentence_does_not_quote_a_per_rollover_figure_that_does_not_scale() -> None:
    def case(seg: int, rolls: int, elapsed: list[float]) -> list:
        c = {"dsync": False, "segments_ahead": 0, "segment_bytes": seg}
        n = len(elapsed)
        return [(c, "elapsed_ms", elapsed), (c, "rollovers", [rolls] * n), (c, "records_per_s", [100.0] * n),
                (c, "wait_us", [400.0] * n), (c, "make_ms", [0.4] * n)]  # fmt: skip

    one = [100.0] * 6
    # 4 MiB: 255 rollovers, no extra time; 64 MiB: 15 rollovers, 30 ms more: 2,000 µs each
    apart = runs(case(4 * MiB, 255, [100.0, 100.1, 99.9, 100.0, 100.1, 99.9]) + case(64 * MiB, 15, [130.0] * 6)
                 + case(1024 * MiB, 0, one))  # fmt: skip
    text = report.rollover_sentence(apart, dsync=False)
    assert "with files made by the writer, the run took 2,000 µs longer per rollover" in text
    assert "each rollover cost" not in text
    assert (
        " That figure changed with the segment size more than its intervals allow: with files made by the writer, "
        "0 µs at 4 MiB" in text
    )
    assert "2,000 µs at 64 MiB (2,000 to 2,000; 15 rollovers)" in text
    assert "the figure does not behave as a cost per rollover here" in text and "may overlap flushes" in text
    steady = runs(case(4 * MiB, 255, [610.0] * 6) + case(64 * MiB, 15, [130.0] * 6) + case(1024 * MiB, 0, one))
    assert report.per_rollover_spread(report.rollover_rounds(steady)) == {}
    assert "does not behave" not in report.rollover_sentence(steady, dsync=False)


def test_breakdown_shares_are_the_chart_s_medians_of_the_runs_shares() -> None:
    case = {"capacity": 64 * KiB, "dsync": False, "records": 4096, "counters": True}
    rest = runs([(case, m, [0, 0, 0]) for m in ("t_idle", "t_log", "t_other")])  # the chart's other parts
    uneven = pl.concat([breakdown_runs(), rest], how="diagonal_relaxed").with_columns(
        pl.when(pl.col("metric") == "ns_per_op")
        .then(pl.col("repetition").replace_strict({0: 1000.0, 1: 2000.0, 2: 4000.0}, return_dtype=pl.Float64))
        .when(pl.col("metric") == "t_drain")
        .then(pl.col("repetition").replace_strict({0: 100.0, 1: 100.0, 2: 1000.0}, return_dtype=pl.Float64))
        .otherwise(pl.col("value"))
        .alias("value")
    )
    n = report.breakdown_numbers(uneven)
    # per run 10 %, 5 %, 25 %: the median is 10 %, as the chart's; median over median would be 100 / 2000 = 5 %
    assert n["small_t_drain_share"] == 0.1
    chart = report.breakdown_frame(uneven).filter(pl.col("part") == "the last flushes, at the end")["share"][0]
    assert chart == n["small_t_drain_share"]
    flush = report.breakdown_frame(uneven).filter(pl.col("part") == "preparing and submitting flushes")["share"][0]
    assert n["small_flush_work_share"] == flush == 0.015  # 30 ns of 2,000 at the median run
    assert report.breakdown_numbers(breakdown_runs().clear())["small_flush_work_share"] is None


def test_pace_sentence_says_the_work_per_record_is_the_median_of_the_sums() -> None:
    text = report.pace_sentence(numbers(Estimate(0.5, 0.45, 0.55, 3), Estimate(0.2, 0.15, 0.25, 3)))
    assert "the writer's work per record, 200 ns (the median over the runs of each run's sum of the four parts " in text
    assert "not the sum of their medians)" in text


def test_best_modes_words_one_phrase_when_the_modes_are_the_same() -> None:
    assert report.best_modes_words("io_uring ×2", "io_uring ×2") == (
        "the mode with the highest median, with O_DSYNC and without it, was io_uring ×2"
    )
    assert report.best_modes_words("io_uring ×8", "io_uring ×2") == (
        "the mode with the highest median was io_uring ×8 with O_DSYNC and io_uring ×2 without it"
    )
    assert "fastest" not in report.best_modes_words("io_uring ×8", "io_uring ×2")  # a median picked it, no more


# ---- the second review: fastest modes named, causes as possibilities, words from the data ----


def test_dsync_summary_names_both_fastest_modes_where_they_differ() -> None:
    cap, big = 64 * KiB, 16 * MiB
    metrics = runs(
        [
            (sweep_case(cap, BLOCKING, 1), "records_per_s", [100, 101, 102]),
            (sweep_case(cap, DOUBLE, 2), "records_per_s", [200, 201, 202]),
            (sweep_case(cap, BLOCKING, 1, True), "records_per_s", [50, 51, 52]),
            (sweep_case(cap, DEEP, 8, True), "records_per_s", [150, 151, 152]),
            (sweep_case(big, DOUBLE, 2), "records_per_s", [300, 301, 302]),
            (sweep_case(big, DOUBLE, 2, True), "records_per_s", [250, 251, 252]),
        ]
    )
    text = report.dsync_summary(metrics)
    assert text.startswith("O_DSYNC cost the fastest mode"), text
    assert (
        "and the fastest mode with O_DSYNC, io_uring ×8, ran 1.3× slower than the fastest without it, io_uring ×2; "
        "at 16 MiB the fastest mode, io_uring ×2, ran 1.2× slower than without it."
    ) in text
    # a gain across two modes may come from the mode itself
    gain = metrics.with_columns(
        pl.when(pl.col("dsync") & (pl.col("mode") == DEEP)).then(pl.col("value") * 2).otherwise(pl.col("value"))
    )
    assert (
        "ran 1.5× faster than the fastest without it, io_uring ×2 (two different modes, so the gain may come from "
        "the mode as well as from the disk's drift)"
    ) in report.dsync_summary(gain)


def test_dsync_summary_has_a_lead_of_its_own_where_a_setting_could_not_run() -> None:
    cap, big = 64 * KiB, 16 * MiB
    plain = [(sweep_case(c, BLOCKING, 1), "records_per_s", [100, 101, 102]) for c in (cap, big)]
    none = report.dsync_summary(runs(plain))
    assert none.startswith("O_DSYNC could not be set against runs without it at either size:"), none
    assert "the fastest modes were not compared: one of the two settings could not run here" in none
    assert "did not clearly slow" not in none
    small_only = runs([*plain, (sweep_case(cap, BLOCKING, 1, True), "records_per_s", [50, 51, 52])])
    assert report.dsync_summary(small_only).startswith(
        "O_DSYNC cost the fastest mode where flushes are small, and could not be compared at the largest size:"
    )
    large_only = runs([*plain, (sweep_case(big, BLOCKING, 1, True), "records_per_s", [50, 51, 52])])
    assert report.dsync_summary(large_only).startswith(
        "O_DSYNC cost the fastest mode at the largest size, and could not be compared at the smallest:"
    )
    same_one = runs([*plain, (sweep_case(big, BLOCKING, 1, True), "records_per_s", [99, 101, 103])])
    assert report.dsync_summary(same_one).startswith(
        "On this disk O_DSYNC did not clearly slow the fastest mode at the one size where both settings ran:"
    )


def test_dsync_effect_words_a_gain_as_a_possibility_and_names_the_other_run() -> None:
    up = claims.Comparison("higher", 1.15, 1.1, 1.2)
    assert report.dsync_effect(up) == (
        "1.15× faster than without it, although O_DSYNC only adds a wait to each flush: at this size that wait may "
        "have been smaller than how far this disk's speed moved between runs, which this sweep cannot tell apart"
    )
    assert report.dsync_effect(up, short=True).endswith(
        "(O_DSYNC only adds a wait, so this may be the disk's drift between runs)"
    )
    other = "the fastest without it, io_uring ×2"
    assert report.dsync_effect(up, other=other).startswith("1.15× faster than the fastest without it, io_uring ×2,")
    assert report.dsync_effect(claims.Comparison("missing"), other=other) == (
        "not compared with the fastest without it, io_uring ×2: one of the two could not run here"
    )
    with pytest.raises(ValueError, match="other"):
        report.dsync_effect(up, other=" ")


def test_pace_and_counter_words_prescribe_nothing_and_hedge_the_drift() -> None:
    waited = report.pace_sentence(numbers(Estimate(0.5, 0.45, 0.55, 3), Estimate(0.2, 0.15, 0.25, 3)))
    assert waited.endswith("(medians over the clocked runs, with their intervals).") and "matters" not in waited
    worked = report.pace_sentence(numbers(Estimate(0.2, 0.15, 0.25, 3), Estimate(0.5, 0.45, 0.55, 3)))
    overlap = report.pace_sentence(numbers(Estimate(0.4, 0.2, 0.6, 3), Estimate(0.35, 0.3, 0.5, 3)))
    assert "matter" not in worked + overlap and overlap.endswith("intervals that overlap.")
    rows = [
        {"capacity": 64 * KiB, "dsync": False, "repetition": i, "counters": c, "metric": "records_per_s", "value": v}
        for i, on in enumerate([80.0, 81.0, 82.0])
        for c, v in ((True, on), (False, 100.0))
    ]
    assert report.counter_cost_sentence(pl.DataFrame(rows)).endswith(
        "a spread that may be this disk's drift between runs."
    )


@pytest.mark.parametrize(
    ("test", "threads", "cpus", "words"),
    [
        ("readrandom", 2, 2, "on one thread per logical CPU (2 threads), as the laptop did"),
        ("readrandom", 16, 64, "on 16 threads, as many as the laptop ran, though this machine has 64 logical CPUs"),
        ("readwhilewriting", 1, 2, "on every logical CPU but one (1 reader thread)"),
        ("readwhilewriting", 16, 64, "on 16 reader threads, as many as the laptop ran, though this machine has 64 "
         "logical CPUs"),
        ("readwhilewriting", 1, 1, "on 1 reader thread, though this machine has 1 logical CPU"),
    ],
)  # fmt: skip
def test_rocksdb_threads_words_follow_threads_for(test: str, threads: int, cpus: int, words: str) -> None:
    from howfast.rocksdb import experiments as rocksdb

    assert rocksdb.threads_for(test, cpus) == threads  # the cases are the ones threads_for gives
    assert report.rocksdb_threads_words(test, threads, cpus) == words


def test_rocksdb_threads_words_refuse_bad_arguments() -> None:
    with pytest.raises(ValueError, match="test"):
        report.rocksdb_threads_words("fillseq", 1, 1)
    with pytest.raises(ValueError, match="cpus"):
        report.rocksdb_threads_words("readrandom", 1, 0)


def test_read_threads_words_give_the_thread_reason_only_where_the_counts_differ() -> None:
    assert report.read_threads_words(2, 16) == (
        "The read tests differ even more, for two reasons. The laptop spread them over 16 threads, this machine "
        "over 2. And the laptop's"
    )
    assert report.read_threads_words(16, 16) == (
        "The read tests differ even more, although both machines ran them on 16 threads: the laptop's"
    )
    with pytest.raises(ValueError, match="seed"):
        report.read_threads_words(2, 0)


def test_storage_chapter_words_by_how_the_probe_wrote() -> None:
    same = report.storage_chapter_words(True)
    assert "the same kind of write" in same and "can differ" in same and "can drift between runs" in same
    other = report.storage_chapter_words(False)
    assert "not the buffered ones this probe fell back to" in other and "not comparable" in other
    assert "same kind" not in other
    with pytest.raises(TypeError, match="direct"):
        report.storage_chapter_words(1)  # type: ignore[arg-type]


def test_filesystem_and_tear_words_follow_the_facts() -> None:
    assert report.filesystem_words({"filesystem": "ext4"}) == "This run's segment files went to ext4 as well."
    assert report.filesystem_words({"filesystem": "xfs"}) == (
        "This run's segment files went to xfs, where these ext4 costs may not apply."
    )
    assert "not known" in report.filesystem_words({"filesystem": "unknown"})
    assert "not known" in report.filesystem_words({})
    head = "a write in progress may reach the disk only in part; the model below tears it at 512-byte boundaries"
    assert report.tear_words({"logical_block_size": 512}) == head + ", this device's logical block size"
    assert report.tear_words({"logical_block_size": 4096}) == (
        head + ", finer than this device's logical block size of 4 KiB"
    )
    assert report.tear_words({"logical_block_size": None}) == (
        head + " (this run did not read the device's logical block size)"
    )
