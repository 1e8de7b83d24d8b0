"""Noise evidence, the stopping rule, cross-checks that can say inconclusive, the
pre-flight check and repeatability: on fake /proc and /sys trees and made-up runs, never
on timings."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import polars as pl
import pytest

from howfast import bench, book, crosscheck, doctor, noise, repeatability, stats, store
from howfast.bench import Outcome, run
from howfast.profiles import current_profile

# --- fake trees -------------------------------------------------------------------------------


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def busy_tree(root: Path) -> Path:
    """A 2-CPU VM under load: high load, steal, a busy process, powersave, THP always, swap
    in use, scratch on tmpfs, a small memlock limit on an old kernel."""
    _write(root, "proc/stat", "cpu  1000 0 500 1000 100 0 0 400 0 0\ncpu0 1 0 0 0 0 0 0 0\ncpu1 1 0 0 0 0 0 0 0\n"
           "procs_running 9\nprocs_blocked 1\n")  # fmt: skip
    _write(root, "proc/loadavg", "12.50 10.00 8.00 9/400 12345\n")
    _write(root, "proc/meminfo", "MemTotal: 4000000 kB\nSwapTotal: 1048576 kB\nSwapFree: 524288 kB\n")
    _write(root, "proc/uptime", "1000.00 1500.00\n")
    # pid 4242 "stress": 50,000 ticks (500 s at 100 Hz) of user time, started at tick 0
    fields = ["S"] + ["0"] * 10 + ["40000", "10000"] + ["0"] * 6 + ["0"] + ["0"] * 20
    _write(root, "proc/4242/stat", "4242 (stress) " + " ".join(fields) + "\n")
    _write(root, "proc/thread-self/schedstat", "1000 2000 3\n")
    _write(root, "proc/self/mountinfo", "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n2 1 0:5 / /scratch rw - tmpfs tmpfs rw\n")
    _write(root, "proc/self/limits", "Limit Soft Hard Units\nMax locked memory 8388608 8388608 bytes\n")
    _write(root, "proc/sys/kernel/osrelease", "5.4.0-42-generic\n")
    _write(root, "proc/cpuinfo", "processor : 0\nflags : fpu sse2 hypervisor avx\n")
    _write(root, "sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n")
    _write(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n")
    _write(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2000000\n")
    _write(root, "sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "3000000\n")
    _write(root, "sys/devices/system/cpu/intel_pstate/no_turbo", "0\n")
    return root


def quiet_tree(root: Path) -> Path:
    _write(root, "proc/stat", "cpu  100 0 50 10000 1 0 0 0 0 0\ncpu0 1 0 0 0 0 0 0 0\ncpu1 1 0 0 0 0 0 0 0\n")
    _write(root, "proc/loadavg", "0.10 0.10 0.10 1/300 1\n")
    _write(root, "proc/meminfo", "MemTotal: 4000000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n")
    _write(root, "proc/uptime", "1000.00 1900.00\n")
    _write(root, "proc/self/mountinfo", "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n")
    _write(root, "proc/self/limits", "Max locked memory unlimited unlimited bytes\n")
    _write(root, "proc/sys/kernel/osrelease", "6.8.0\n")
    _write(root, "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n")
    _write(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n")
    return root


# --- the readers ------------------------------------------------------------------------------


def test_readers_parse_fake_proc_and_sys(tmp_path: Path) -> None:
    root = busy_tree(tmp_path)
    times = noise.cpu_times(root)
    assert times["user"] == 1000 and times["steal"] == 400 and times["procs_running"] == 9
    assert noise.load_average(root) == (12.5, 9)
    assert noise.run_delay(root) == (1000, 2000)
    assert noise.cpu_count(root) == 2
    env = noise.environment(root)
    assert env == {"thp": "always", "governor": "powersave", "mhz": 2500.0, "no_turbo": False, "swap_used": 2**29}
    empty = noise.environment(tmp_path / "nothing")
    assert set(empty.values()) == {None} and noise.cpu_times(tmp_path / "nothing") == {}
    with pytest.raises(ValueError, match="task"):
        noise.run_delay(root, "../../etc")


def test_difference_shares_of_steal_iowait_others_and_our_cpu() -> None:
    stat = {"user": 0, "nice": 0, "system": 0, "idle": 0, "iowait": 0, "irq": 0, "softirq": 0, "steal": 0}
    before = noise.Snapshot(0.0, 1.0, 10, 5, stat, (2.0, 3), (0, 0))
    # 2 s on 2 CPUs at 100 Hz: 400 ticks; 200 busy (2 s), ours 0.5 s, 80 stolen, 20 iowait
    later = {**stat, "user": 150, "system": 50, "idle": 100, "iowait": 20, "steal": 80}
    after = noise.Snapshot(2.0, 1.5, 17, 6, later, (4.0, 7), (500_000_000, 1_000_000_000))
    d = noise.difference(before, after, hz=100)
    assert d["wall_s"] == 2.0 and d["cpu_s"] == 0.5 and d["ran"] == 0.25
    assert d["waited"] == 0.5 and d["involuntary_switches"] == 7 and d["voluntary_switches"] == 1
    assert d["steal"] == 0.2 and d["iowait"] == 0.05 and d["others"] == pytest.approx(1.5 / 4)
    assert (d["load_start"], d["load_end"], d["runnable_start"], d["runnable_end"]) == (2.0, 4.0, 3.0, 7.0)
    blind = noise.difference(dataclasses.replace(before, stat={}, sched=None, load=None), after, hz=100)
    assert blind["steal"] is None and blind["waited"] is None and blind["load_start"] is None
    assert set(blind) == set(noise.COLUMNS)


# --- doctor -----------------------------------------------------------------------------------


def test_doctor_names_every_problem_of_a_busy_vm(tmp_path: Path) -> None:
    root = busy_tree(tmp_path)
    found = {f.topic: f for f in doctor.findings(root, scratch=Path("/scratch/run"), interval=0)}
    warned = {t for t, f in found.items() if f.level == doctor.WARN}
    assert warned == {"load", "steal", "processes", "governor", "swap", "scratch", "memlock"}
    assert "12.5" in found["load"].text and "stress (pid 4242" in found["processes"].text
    assert "tmpfs" in found["scratch"].text and "HOWFAST_SCRATCH" in found["scratch"].advice
    assert found["thp"].level == doctor.NOTE and found["vm"].level == doctor.NOTE and "turbo" in found
    assert all(f.advice for f in found.values() if f.level == doctor.WARN)
    lines = doctor.report(list(found.values())).splitlines()
    assert lines[0].startswith("warn") and len(lines) == len(found)


def test_doctor_finds_a_quiet_machine_quiet(tmp_path: Path) -> None:
    found = doctor.findings(quiet_tree(tmp_path), scratch=Path("/home/x"), interval=0)
    assert [f for f in found if f.level == doctor.WARN] == []
    assert {f.topic for f in found} >= {"load", "steal", "processes", "governor", "thp", "swap", "scratch", "memlock"}


# --- the stopping rule --------------------------------------------------------------------------


def _profile(monkeypatch: pytest.MonkeyPatch, **change: object) -> None:
    chosen = dataclasses.replace(current_profile("quick"), **change)
    monkeypatch.setattr(bench, "current_profile", lambda: chosen)


def test_stopped_reads_the_interval_of_the_median() -> None:
    assert bench.stopped([100, 101, 99], 0.1)
    assert not bench.stopped([100, 101], 0.1)  # too few runs
    assert not bench.stopped([50, 100, 150], 0.1)  # min-max ±50 %
    assert not bench.stopped([100, 101, 99, 100, 150, 100, 99], 0.1)  # 7 runs: min-max, the outlier counts
    assert bench.stopped([100, 101, 99, 100, 150, 100, 99, 100, 101], 0.1)  # 9: the 2nd and 8th, it does not
    with pytest.raises(ValueError, match="target"):
        bench.stopped([1.0], 1.5)


def test_stable_cases_stop_after_the_minimum_and_noisy_ones_at_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    _profile(monkeypatch, target=0.1, max_runs=9, extra_time=1e6)
    noisy = itertools.cycle([1.0, 3.0, 2.0, 0.5])
    seen = []

    def measure(case, scratch):
        seen.append(case["n"])
        return Outcome({"value": (100.0 if case["n"] == 1 else next(noisy), "u"), "other": (1.0, "u")})

    result = run("demo", [{"n": 1}, {"n": 2}], measure, repetitions=3)
    runs = result.metrics.filter(pl.col("metric") == "value").group_by("n").len().sort("n")["len"].to_list()
    assert runs == [3, 9]  # the stable case stopped early, the noisy one at max_runs
    assert seen[:6] == [1, 2, 1, 2, 1, 2] and set(seen[6:]) == {2}  # rounds added only for the wide case
    assert result.rounds["capped"] and result.rounds["unclear"] == 1 and result.rounds["stop_on"] == "value"
    marks = stats.mark_unstable(stats.summarize(result.metrics, ["n"]), 0.1).filter(pl.col("metric") == "value")
    assert marks["stability"].to_list()[0] == "" and marks["stability"].to_list()[1].startswith("unstable: ")
    # every run, warm-ups apart, has its noise evidence
    assert result.noise.filter(~pl.col("warmup")).height == 12 and set(noise.COLUMNS) <= set(result.noise.columns)


def test_the_time_cap_stops_added_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    _profile(monkeypatch, target=0.1, max_runs=1000, extra_time=0.0)
    values = itertools.cycle([1.0, 3.0])
    result = run("demo", [{"n": 1}], lambda c, s: Outcome({"v": (next(values), "u")}), repetitions=3)
    assert result.metrics.height == 3 and result.rounds["capped"]


def test_no_target_or_few_repetitions_keep_a_fixed_count(monkeypatch: pytest.MonkeyPatch) -> None:
    _profile(monkeypatch, target=0.1, max_runs=20, extra_time=1e6)
    values = itertools.cycle([1.0, 3.0])
    assert run("a", [{"n": 1}], lambda c, s: Outcome({"v": (next(values), "u")}), repetitions=2).metrics.height == 2
    fixed = run("b", [{"n": 1}], lambda c, s: Outcome({"v": (next(values), "u")}), repetitions=4, target=None)
    assert fixed.metrics.height == 4 and fixed.rounds["target"] is None


def test_warmups_run_first_and_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    _profile(monkeypatch, target=0.1, max_runs=9, extra_time=1e6, warmups=1)
    values = iter([50.0, 100.0, 100.0, 100.0])  # the first run (cold) differs
    result = run("warm", [{"n": 1}], lambda c, s: Outcome({"v": (next(values), "u")}), repetitions=3)
    assert result.metrics["value"].to_list() == [100.0] * 3 and result.rounds["warmups"] == 1
    assert result.noise["warmup"].to_list() == [True, False, False, False]


# --- cross-checks: the four outcomes ------------------------------------------------------------


def _versus(monkeypatch: pytest.MonkeyPatch, ours: list[float], theirs: list[float]) -> pl.DataFrame:
    _profile(monkeypatch, target=0.1, max_runs=12, extra_time=1e6)
    mine, tool = itertools.cycle(ours), itertools.cycle(theirs)

    def measure(case, scratch):
        return Outcome({"rate": (next(mine) if case["tool"] == "howfast" else next(tool), "ops/s")})

    cases = [{"size": 1, "tool": "howfast"}, {"size": 1, "tool": "fio"}]
    result = run("vs", cases, measure, repetitions=3, alternate=True)
    return crosscheck.paired_ratios(result.metrics, ["size"], "rate", "fio", rounds=True)


@pytest.mark.parametrize(
    ("ours", "theirs", "verdict", "rounds"),
    [
        ([100.0, 101.0, 99.0], [100.0], "agrees", 3),
        ([200.0, 210.0, 190.0], [100.0], "ours higher", 3),
        ([50.0, 52.0, 48.0], [100.0], "ours lower", 3),
        ([60.0, 140.0, 100.0, 170.0, 40.0], [100.0], "inconclusive", 12),
    ],
)
def test_crosscheck_rounds_stop_when_the_verdict_is_decided(
    monkeypatch: pytest.MonkeyPatch, ours: list[float], theirs: list[float], verdict: str, rounds: int
) -> None:
    table = _versus(monkeypatch, ours, theirs)
    assert table["verdict"].to_list() == [verdict] and table["rounds"].to_list() == [rounds]


def test_decided_needs_the_minimum_rounds_and_a_verdict() -> None:
    assert not bench.decided({0: 1.0, 1: 1.0}, {0: 1.0, 1: 1.0})
    assert bench.decided({0: 2.0, 1: 2.0, 2: 2.0}, {0: 1.0, 1: 1.0, 2: 1.0})
    assert not bench.decided({0: 0.5, 1: 2.0, 2: 1.0}, {0: 1.0, 1: 1.0, 2: 1.0})


# --- what the book says -------------------------------------------------------------------------


def _stored(
    evidence: dict[str, float] | None, value: float = 100.0, *, machine: str | None = None, rounds: dict | None = None
) -> store.ResultSet:
    """A fsync set of one experiment with made-up runs and noise evidence."""
    values = [value * 0.95, value, value * 1.05]
    metrics = pl.DataFrame(
        {
            "k": [1] * 3,
            "repetition": [0, 1, 2],
            "metric": ["m"] * 3,
            "value": values,
            "unit": ["u"] * 3,
            "note": [None] * 3,
        }
    )
    frame = pl.DataFrame()
    if evidence is not None:
        rows = [
            {"k": 1, "repetition": r, "warmup": False, **dict.fromkeys(noise.COLUMNS), **evidence} for r in range(3)
        ]
        frame = pl.DataFrame(rows, infer_schema_length=None)
    bench_run = bench.Run(
        "latency", "quick", metrics, pl.DataFrame(), "2026-01-01T00:00:00+00:00", frame, {}, rounds or {}
    )
    profile = current_profile("quick")
    writer = store.Writer("fsync", profile, machine=machine) if machine else store.Writer("fsync", profile)
    writer.record_facts(Path("."))
    writer.add(bench_run)
    writer.commit()
    return store.load("fsync", machine=machine)


def test_busy_words_name_the_wait_and_what_it_means() -> None:
    words = book.busy_words(_stored({"waited": 0.35, "ran": 0.21, "others": 0.8, "steal": 0.0}))
    assert "busy" in words and "waited for a CPU 35 %" in words and "ran 21 %" in words
    assert "the CPU may read low, by up to about that share, and their intervals may be wider" in words
    assert book.busy(_stored({"waited": 0.35, "ran": 0.21, "others": 0.8, "steal": 0.0}))


def test_steal_alone_makes_the_numbers_low() -> None:
    words = book.busy_words(_stored({"steal": 0.18, "waited": 0.01, "others": 0.0}))
    assert "steal 18 %" in words and "CPU figures may read low" in words and "waited" not in words


def test_a_quiet_run_says_so_and_thresholds_are_inclusive() -> None:
    quiet = _stored({"steal": 0.0, "waited": book.WAITED / 2, "others": 0.01})
    assert "quiet enough" in book.busy_words(quiet) and not book.busy(quiet)
    assert "callout-note" in book.noise_note(quiet)
    edge = _stored({"steal": book.STEAL, "waited": 0.0, "others": 0.0})
    assert book.busy(edge) and "callout-warning" in book.noise_note(edge)


def test_a_set_without_noise_evidence_loads_and_says_so() -> None:
    old = _stored(None)
    manifest = json.loads((old.path / store.MANIFEST).read_text())
    for key in ("noise", "doctor"):
        manifest.pop(key)
    (old.path / store.MANIFEST).write_text(json.dumps(manifest))
    again = store.load("fsync")
    assert again.noise("latency") is None and again.rounds("latency") == {} and again.doctor() == []
    assert "no noise evidence recorded" in book.busy_words(again)
    assert "no noise evidence recorded" in book.noise_note(again) and not book.busy(again)


def test_stability_marks_wide_intervals() -> None:
    assert stats.stability(stats.Estimate(100, 65, 135, 5), 0.1) == "unstable: ±35 %"
    assert stats.stability(stats.Estimate(100, 95, 105, 5), 0.1) == ""
    assert stats.stability(stats.Estimate(100, 65, 135, 5), None) == ""
    assert stats.stability(None, 0.1) == ""
    assert stats.stability(stats.Estimate(100, 89.9, 110.1, 5), 0.1) == "unstable: ±10.1 %"  # not "±10 %"
    # lopsided: one slow run far below a tight cluster is not "±50 %"
    assert stats.stability(stats.Estimate(299_000, 18_600, 317_000, 3), 0.1) == "unstable: −94 %/+6 %"
    assert stats.stability(stats.Estimate(100, 100, 140, 3), 0.1) == "unstable: +40 %"
    assert stats.stability(stats.Estimate(5.95, 5.78, 22.1, 3), 0.1) == "unstable: −3 %/+271 %"
    assert stats.stability(stats.Estimate(0, -1, 1, 3), 0.1) == "unstable: wider than ±100 %"
    assert stats.stability(stats.Estimate(-10, -14, -6, 3), 0.1) == "unstable: ±40 %"


# --- repeatability --------------------------------------------------------------------------------


def test_repeatability_counts_second_medians_inside_the_first_interval() -> None:
    first = _stored({}, 100.0, machine="first")
    inside = _stored({}, 102.0, machine="inside")
    outside = _stored({}, 130.0, machine="outside")
    same = repeatability.every_figure(first, inside)
    assert repeatability.share_inside(same) == (1, 1) and "meets the goal" in repeatability.sentence(same)
    moved = repeatability.every_figure(first, outside)
    assert repeatability.share_inside(moved) == (0, 1) and "misses the goal" in repeatability.sentence(moved)
    both = pl.concat([same, moved])
    assert "For 1 of 2 figures (50 %)" in repeatability.sentence(both, what="figure")
    assert repeatability.headline_figures({}, {}).height == 0


def test_table_cells_carry_the_interval_the_run_count_and_the_mark() -> None:
    from howfast import tables
    from howfast.profiles import target_of

    assert tables.figure(stats.Estimate(120, 80, 160, 5), 0.1) == "120 (80–160, 5 runs); unstable: ±33 %"
    assert tables.figure(stats.Estimate(120, 118, 121, 9), 0.1) == "120 (118–121, 9 runs)"
    assert tables.figure(None, 0.1) == "n/a"
    assert tables.figure(stats.Estimate(120, 80, 160, 5), 0.1, runs=False) == "120 (80–160); unstable: ±33 %"
    assert tables.figure(stats.Estimate(120, 118, 121, 9), None, runs=False) == "120 (118–121)"
    assert tables.figure(stats.Estimate.exact(7), 0.1) == "7 (1 run)"
    assert tables.figure(stats.Estimate(100, 100, 100.2, 3), 0.1) == "100 (no spread, 3 runs)"
    assert tables.figure(stats.Estimate(100, 100, 100.2, 3), 0.1, runs=False) == "100 (no spread)"
    assert tables.span_text("25 µs", "50 µs") == "25–50 µs" and tables.span_text("900 ns", "1 µs") == "900 ns–1 µs"
    assert tables.figure(stats.Estimate(40, 25, 50, 3), None, lambda v: f"{v:g} µs") == "40 µs (25–50 µs, 3 runs)"
    big = stats.Estimate(10.8e9, 8.64e9, 11.2e9, 3)
    assert tables.figure(big, None, runs=False) == "10.8 billion (8.64–11.2 billion)"
    assert tables.figure(stats.Estimate(2e6, 9e5, 3e6, 3), None, runs=False) == "2 million (900,000–3 million)"
    assert tables.figure(stats.Estimate(1, 0.5, 4, 3), 0.1, runs=False) == "1 (0.5–4); unstable: −50 %/+300 %"
    assert tables.figure(stats.Estimate.exact(7), 0.1, runs=False) == "7"
    with pytest.raises(TypeError, match="runs"):
        tables.figure(stats.Estimate(1, 1, 1, 3), 0.1, runs="yes")  # type: ignore[arg-type]
    metrics = pl.DataFrame({"k": [1, 1, 1], "metric": ["m"] * 3, "unit": ["u"] * 3, "value": [1.0, 2.0, 3.0]})
    shown = tables.with_intervals(stats.summarize(metrics, ["k"]), 0.1).row(0, named=True)
    assert (shown["interval"], shown["runs"], shown["stability"]) == ("1–3", 3, "unstable: ±50 %")
    assert target_of("quick+no-io_uring") == current_profile("quick").target and target_of("smoke") is None


def test_a_set_knows_the_target_of_the_profile_it_was_measured_on(tmp_path: Path) -> None:
    made = store.ResultSet("cpu", tmp_path, {"profile": "full", "experiments": []}, {})
    assert made.target == current_profile("full").target
    assert dataclasses.replace(made, manifest={"profile": "smoke", "experiments": []}).target is None


def test_a_repeatability_run_is_kept_for_the_preface() -> None:
    assert "has not been measured" in repeatability.words()
    first, second = _stored({}, 100.0, machine="first"), _stored({}, 130.0, machine="second")
    table = pl.concat([repeatability.every_figure(first, first), repeatability.every_figure(first, second)])
    repeatability.record(table, what="figure", load=3.5)
    said = repeatability.words()
    assert "for 1 of 2 figures (50 %)." in said and "load average 3.5" in said
    # no fixed goal: a steady machine itself puts fewer inside; the test is the verdict against one
    assert "goal" not in said and "A perfectly steady machine would put about" in said
    assert said.endswith(": this one did not put clearly fewer inside.")


def test_the_preface_says_when_the_machine_changed_and_when_a_record_cannot_tell() -> None:
    first, second = _stored({}, 100.0, machine="first"), _stored({}, 130.0, machine="second")
    moved = pl.concat([repeatability.every_figure(first, second)] * 10)  # 0 of 10 inside, where about 6 are expected
    repeatability.record(moved, what="figure")
    said = repeatability.words()
    assert "for 0 of 10 figures (0 %)." in said and said.endswith(
        "it put clearly fewer. It may have changed between the runs, or its runs within a set were not "
        "independent; this test cannot say which."
    )
    assert "goal" not in said
    # a record kept before the verdict was: the share alone, and that it is no test
    from howfast.store import set_dir

    (set_dir("fsync").parent / "repeatability.json").write_text(
        json.dumps({"inside": 9, "total": 10, "what": "figure", "when": "2026-01-01 00:00 UTC"})
    )
    said = repeatability.words()
    assert "for 9 of 10 figures (90 %)." in said and "goal" not in said
    assert said.endswith(
        "This record does not say what a steady machine would have given, so it cannot be read as a test."
    )
    repeatability.record(moved.head(0), what="figure")
    assert (
        repeatability.words()
        == "The last repeatability run ("
        + json.loads((set_dir("fsync").parent / "repeatability.json").read_text())["when"]
        + ") compared no figure."
    )


def test_cases_cut_off_by_the_cap_are_named() -> None:
    cut = _stored({"waited": 0.0}, rounds={"target": 0.1, "unclear": 2, "cases": 5, "runs": 12})
    assert book.unclear_words(cut) == (
        "Cut off by the time cap: in the write + fsync latency runs, 2 of 5 cases stayed wider than ±10 % after up to "
        "12 runs (their figures are marked unstable)."
    )
    assert "2 of 5 cases" in book.noise_note(cut)
    assert book.unclear_words(_stored({"waited": 0.0}, rounds={"target": 0.1, "unclear": 0, "cases": 5})) == ""
    split = {"target": 0.1, "unclear": 4, "cases": 9, "runs": 12, "unsupported": 2, "paired": 4, "pairs": 2,
             "pairs_undecided": 1, "timed": 3, "timed_unclear": 1}  # fmt: skip
    assert book.unclear_words(_stored({"waited": 0.0}, rounds=split)) == (
        "Cut off by the time cap: in the write + fsync latency runs, 1 of 3 cases stayed wider than ±10 % and 1 of 2 "
        "cross-check pairs reached no verdict after up to 12 runs (their figures are marked unstable; a pair with no "
        "verdict reads inconclusive)."
    )
    clear = {**split, "unclear": 2, "timed_unclear": 0}
    assert book.unclear_words(_stored({"waited": 0.0}, rounds=clear)).endswith(
        "1 of 2 cross-check pairs reached no verdict after up to 12 runs (a pair with no verdict reads inconclusive)."
    )
    done = {**split, "unclear": 0, "timed_unclear": 0, "pairs_undecided": 0}
    assert book.unclear_words(_stored({"waited": 0.0}, rounds=done)) == ""


def test_the_stamp_says_how_busy_the_machine_was() -> None:
    assert book.busy_clause(_stored({"steal": 0.0, "waited": 0.0, "others": 0.0})) == ", on a quiet machine"
    stamp = _stored({"steal": 0.0, "waited": 0.36, "others": 0.9}).stamp()
    assert stamp.startswith("quick profile, measured") and "on a busy machine" in stamp and "36 %" in stamp
    assert "18 % CPU steal during the write + fsync latency runs" in _stored({"steal": 0.18}).stamp()
    assert "other processes used 90 %" in book.busy_clause(_stored({"steal": 0.0, "waited": 0.01, "others": 0.9}))
    assert _stored(None).stamp().endswith(", no noise evidence recorded")


def test_the_stamp_gives_a_long_measurement_in_minutes_or_hours() -> None:
    path = _stored({"waited": 0.0}).path / store.MANIFEST
    for seconds, took in ((4380.0, "73 min"), (12.5, "12.5 s"), (9000.0, "2 h 30 min")):
        path.write_text(json.dumps({**json.loads(path.read_text()), "seconds": seconds}))
        assert f"measured in {took}, finished" in store.load("fsync").stamp()


def test_the_note_repeats_the_pre_flight_warnings_once() -> None:
    first = _stored({"waited": 0.0})
    manifest = json.loads((first.path / store.MANIFEST).read_text())
    manifest["doctor"] = [
        {"topic": "load", "level": "warn", "text": "load average 9.6 on 2 CPUs", "advice": "wait"},
        {"topic": "thp", "level": "note", "text": "transparent huge pages: always", "advice": ""},
    ]
    (first.path / store.MANIFEST).write_text(json.dumps(manifest))
    again = store.load("fsync")
    assert book.doctor_words(again, again) == "Before measuring, the check found: load average 9.6 on 2 CPUs."
    assert "load average 9.6" in book.noise_note(again) and "huge pages" not in book.noise_note(again)
    assert book.doctor_words(_stored({"waited": 0.0}, machine="other")) == ""


def test_a_steady_machine_puts_this_share_of_second_medians_inside() -> None:
    """Distribution-free chances, checked against what can be worked out by hand: with 3
    and 3 runs (min–max) a second median lands inside 3/5 of the time, with 5 and 5, 5/6;
    an even second count is the mean of the two middle runs."""
    assert repeatability.expected_inside(3, 3) == pytest.approx(0.6, abs=1e-12)
    assert repeatability.expected_inside(5, 5) == pytest.approx(5 / 6, abs=1e-12)
    assert repeatability.expected_inside(5, 1) == pytest.approx(2 / 3, abs=1e-12)  # 1 new run inside 5: 4 of 6 gaps
    # an even second count, the mean of the two middle runs, integrated numerically (simulated: 0.770)
    assert repeatability.expected_inside(4, 4) == pytest.approx(0.770, abs=0.004)
    assert 0.84 < repeatability.expected_inside(30, 30) < 0.87  # below the interval's own 95 %
    for bad in (0, -1, 2.5, True, None):
        with pytest.raises((ValueError, TypeError), match="first_runs"):
            repeatability.expected_inside(bad, 3)  # type: ignore[arg-type]


def test_the_verdict_tells_a_steady_machine_from_one_that_changed() -> None:
    def table(inside: list[bool], runs: int = 9) -> pl.DataFrame:
        chance = repeatability.expected_inside(runs, runs)
        return pl.DataFrame({"inside": inside, "expected": [chance] * len(inside), "first_runs": [runs] * len(inside)})

    assert repeatability.verdict(table([True] * 9 + [False])) == "steady"
    assert repeatability.verdict(table([True] * 3 + [False] * 7)) == "changed"
    assert repeatability.verdict(table([])) == "none"
    assert "this machine did not put clearly fewer inside" in repeatability.steady_words(table([True] * 9 + [False]))
    assert "clearly fewer" in repeatability.steady_words(table([True] * 3 + [False] * 7))
    assert repeatability.steady_words(table([])) == ""
    with pytest.raises(ValueError, match="expected"):
        repeatability.verdict(pl.DataFrame({"inside": [True]}))


def test_the_preface_says_what_a_steady_machine_would_give() -> None:
    first, second = _stored({}, 100.0, machine="first"), _stored({}, 100.0, machine="second")
    table = repeatability.every_figure(first, second)
    assert table["expected"].to_list() == [repeatability.expected_inside(3, 3)]
    repeatability.record(table, what="figure", load=1.0)
    said = repeatability.words()
    assert "A perfectly steady machine would put about 60 % inside" in said and "did not put clearly fewer" in said


def test_the_preface_counts_the_cases_that_reached_their_target() -> None:
    frame = pl.DataFrame(
        {
            "measured for": ["A", "B"],
            "minutes": [1.0, 2.0],
            "cases": [10, 30],
            "within target": [10, 26],
            "cross-check pairs": [0, 0],
            "with a verdict": [0, 0],
            "all cases": [None, None],
            "stopped before the cap": [None, None],
            "most runs": [5, 12],
        },
        schema_overrides={"all cases": pl.Int64, "stopped before the cap": pl.Int64},
    )
    said = book.target_words(frame, 0.1)
    assert said.startswith(
        "Of the 40 cases timed on their own, 36 (90 %) ended with the interval of their median within ±10 %; the rest"
    )
    assert book.target_words(frame.with_columns(pl.col("cases").alias("within target")), 0.1).endswith("within ±10 %.")
    older = frame.with_columns(pl.Series("cases", [None, 30], dtype=pl.Int64))
    assert book.target_words(older, 0.1).startswith("Of the 30 cases of B timed on their own, 26 (")
    assert "1 other set was measured before howfast recorded" in book.target_words(older, 0.1)
    none = frame.with_columns(pl.lit(None, dtype=pl.Int64).alias("cases"))
    assert book.target_words(none, 0.1).startswith("The stored sets were measured before")
    assert book.target_words(frame, None).startswith("This profile runs every case a fixed number of times")
    assert book.target_words(frame.clear(), 0.1) == "No set is stored for this profile yet."
    # cross-check pairs are counted apart, by their verdict
    paired = frame.with_columns(pl.Series("cross-check pairs", [2, 4]), pl.Series("with a verdict", [2, 3]))
    assert "5 of 6 cross-check pairs (ours against a standard tool, run by run) reached a verdict" in (
        book.target_words(paired, 0.1)
    )
    only_pairs = paired.with_columns(pl.lit(0).alias("cases"), pl.lit(0).alias("within target"))
    assert book.target_words(only_pairs, 0.1).startswith("5 of 6 cross-check pairs")
    # a set stored before the split: its cases all together, and what stopped before the cap
    split_later = frame.with_columns(
        pl.Series("cases", [10, None], dtype=pl.Int64),
        pl.Series("all cases", [None, 40], dtype=pl.Int64),
        pl.Series("stopped before the cap", [None, 35], dtype=pl.Int64),
    )
    said = book.target_words(split_later, 0.1)
    assert said.startswith("Of the 10 cases of A timed on their own, 10 (100 %)")
    assert (
        "B was measured before howfast recorded which cases ran alone, which ran in cross-check pairs and which "
        in said
    )
    assert "could not run here: of its 40 cases, 35 stopped before the time cap, a count that takes in" in said
    assert "other set" not in said


def test_the_measuring_summary_adds_up_each_sets_rounds() -> None:
    cut = _stored({"waited": 0.0}, rounds={"target": 0.1, "unclear": 2, "cases": 5, "runs": 12})
    row = book.measuring_summary([cut, _stored(None)]).to_dicts()
    # an older set's rounds: all its cases in one count, and those not cut off by the cap
    assert (row[0]["all cases"], row[0]["stopped before the cap"], row[0]["most runs"]) == (5, 3, 12)
    assert row[0]["cases"] is None and row[0]["within target"] is None
    assert row[1]["all cases"] is None and row[0]["measured for"] == book.MEASURED_FOR["fsync"]
    split = {"target": 0.1, "unclear": 4, "cases": 9, "runs": 12, "unsupported": 2, "paired": 4, "pairs": 2,
             "pairs_undecided": 1, "timed": 3, "timed_unclear": 1}  # fmt: skip
    row = book.measuring_summary([_stored({"waited": 0.0}, rounds=split)]).row(0, named=True)
    assert (row["cases"], row["within target"], row["cross-check pairs"], row["with a verdict"]) == (3, 2, 2, 1)
    assert row["all cases"] is None
    assert book.measuring_table(book.measuring_summary([_stored({"waited": 0.0}, rounds=split)])).columns == [
        "measured for", "minutes", "cases", "within target", "cross-check pairs", "with a verdict", "most runs",
    ]  # fmt: skip
    assert book.measuring_table(book.measuring_summary([cut])).columns == [
        "measured for", "minutes", "all cases", "stopped before the cap", "most runs",
    ]  # fmt: skip
    both = book.measuring_table(book.measuring_summary([cut, _stored({"waited": 0.0}, rounds=split)]))
    assert "all cases" in both.columns and "cases" in both.columns


def test_the_rounds_record_tells_unsupported_paired_and_timed_cases_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    _profile(monkeypatch, target=0.1, max_runs=6, extra_time=1e6)
    noisy = itertools.cycle([60.0, 140.0, 100.0, 170.0, 40.0])

    def measure(case, scratch):
        if case["size"] == 3:
            raise bench.Unsupported("not here")
        if case["size"] == 2 and case["tool"] == "howfast":
            return Outcome({"rate": (next(noisy), "u")})  # its pair never reaches a verdict
        return Outcome({"rate": (100.0, "u")})

    cases = [{"size": s, "tool": t} for s in (1, 2, 3) for t in ("howfast", "fio")]
    cases += [{"size": 4, "tool": "alone"}, {"size": 5, "tool": "alone"}]
    result = run("mix", cases, measure, repetitions=3, alternate=True)
    r = result.rounds
    assert (r["cases"], r["unsupported"], r["paired"], r["pairs"], r["pairs_undecided"]) == (8, 2, 6, 2, 1)
    assert (r["timed"], r["timed_unclear"], r["unclear"]) == (2, 0, 2)


def test_the_fewest_runs_come_from_the_plans() -> None:
    quick, full = current_profile("quick"), current_profile("full")
    assert book.fewest_runs(quick) == 3 and book.repeat_words(quick) == "at least 3 times"
    assert book.fewest_runs(full) == min(full.repetitions, full.rocksdb.repetitions)
    assert book.repeat_words(full) == (
        f"at least {book.fewest_runs(full)} times ({full.repetitions} in most experiments), after 1 uncounted "
        "warm-up run of each case"
    )
    same = dataclasses.replace(
        full, warmups=2, rocksdb=dataclasses.replace(full.rocksdb, repetitions=5, crosscheck_repetitions=5)
    )
    assert book.repeat_words(same) == "at least 5 times, after 2 uncounted warm-up runs of each case"
