from __future__ import annotations

import polars as pl
import pytest

from howfast import fmt, stats, tables
from howfast.profiles import PROFILES, current_profile


def test_profile_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert current_profile().name == "quick"
    monkeypatch.delenv("HOWFAST_PROFILE")
    monkeypatch.setenv("QUARTO_PROFILE", "web,full")
    assert current_profile().name == "full"
    monkeypatch.setenv("HOWFAST_PROFILE", "nonsense")
    with pytest.raises(ValueError, match="unknown profile"):
        current_profile()


@pytest.mark.parametrize(
    ("howfast", "quarto", "said"),
    [
        ("", None, "HOWFAST_PROFILE is set but empty"),
        ("  ", "full", "HOWFAST_PROFILE is set but empty"),
        ("quick\n", None, "unknown profile 'quick\\n' (HOWFAST_PROFILE)"),
        (None, "nonsense", "QUARTO_PROFILE"),
        (None, "web,print", "QUARTO_PROFILE"),
        (None, "quick,full", "QUARTO_PROFILE"),
    ],
)
def test_a_wrong_profile_setting_is_an_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, howfast: str | None, quarto: str | None, said: str
) -> None:
    """Never silently the quick profile: an empty HOWFAST_PROFILE, a QUARTO_PROFILE naming
    no profile of the book (or two) when HOWFAST_PROFILE is unset."""
    for variable, value in (("HOWFAST_PROFILE", howfast), ("QUARTO_PROFILE", quarto)):
        if value is None:
            monkeypatch.delenv(variable, raising=False)
        else:
            monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError) as error:
        current_profile()
    assert said in str(error.value)


def test_quarto_profiles_that_are_not_the_books_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOWFAST_PROFILE")
    monkeypatch.setenv("QUARTO_PROFILE", "web, smoke")
    assert current_profile().name == "smoke"
    monkeypatch.setenv("QUARTO_PROFILE", "")
    assert current_profile().name == "quick"


def test_every_subject_has_a_plan_in_every_profile() -> None:
    """A profile picks one plan per subject of the store, from that subject's plan module."""
    import importlib

    from howfast.store import SUBJECTS

    for profile in PROFILES.values():
        for subject in SUBJECTS:
            plan = getattr(profile, subject)
            assert isinstance(plan, importlib.import_module(f"howfast.{subject}.plan").Plan)


def test_formatting() -> None:
    assert fmt.num(12345.6) == "12,300"
    assert fmt.num(0.012345) == "0.0123"
    assert fmt.count(1, "machine") == "1 machine"
    assert [fmt.bytes_per_s(x) for x in (50, 150e3, 3.6e6, 999.6e6, 48.6e9, 2e12, None)] == [
        "50 B/s", "150 kB/s", "3.6 MB/s", "1 GB/s", "48.6 GB/s", "2,000 GB/s", "n/a"
    ]  # fmt: skip
    assert fmt.count(21, "machine") == "21 machines"
    assert fmt.count(0.4, "machine") == "0.4 machines"
    assert fmt.count(None, "machine") == "n/a machines"
    assert fmt.count(2, "copy", "copies") == "2 copies"
    assert fmt.duration_us(0.35) == "350 ns"
    assert fmt.duration_us(217.4) == "217 µs"
    assert fmt.duration_us(1234) == "1.23 ms"
    assert fmt.size(4096) == "4 KiB"
    assert fmt.ratio(3.21) == "3.2×"
    assert fmt.share(0.0612) == "6.12 %" and fmt.share(0.5, 2) == "50 %"
    with pytest.raises(ValueError):
        fmt.num(float("nan"))
    # None is a figure this machine could not measure: it reads n/a wherever it appears
    assert fmt.num(None) == fmt.duration_us(None) == fmt.ratio(None) == fmt.share(None) == "n/a"
    assert fmt.ratio_of(6.0, 2.0) == "3×" and fmt.ratio_of(None, 2.0) == fmt.ratio_of(1.0, 0) == "n/a"
    with pytest.raises(ValueError):
        fmt.duration_us(-1)


@pytest.mark.parametrize(
    ("x", "shown"),
    [
        (3.64, "3.6"),  # two digits far from every line
        (250.0, "250"),
        (0.0123, "0.012"),
        (1.0, "1"),  # exactly on a line: as it is
        (0.9, "0.9"),
        (1.1, "1.1"),
        (1.003, "1.003"),  # just above 1: never '1'
        (0.999, "0.999"),  # just below 1: never '1'
        (0.9996, "0.9996"),
        (1.0769, "1.08"),  # below the band's end 1.1: never '1.1'
        (1.106, "1.11"),  # above it: '1.11', not '1.1'
        (1.0999, "1.0999"),
        (0.897, "0.897"),  # below the band's low end 0.9: never '0.9'
        (0.904, "0.904"),  # above it
        (1.05, "1.05"),  # two digits would read 1.1, on the band's end
        (1.3, "1.3"),
        (1.0000001, "1.0000001"),
        (3 * 0.3 / 0.9, "1"),  # 0.9999999999999999: float noise, on the line
        (1.1 * (1 + 1e-12), "1.1"),
        (0, "0"),
        (41.4e9, "41 billion"),  # in words: far from every line
        (None, "n/a"),
    ],
)
def test_factor_keeps_each_end_on_its_side_of_the_lines(x: float | None, shown: str) -> None:
    assert fmt.factor(x) == shown


def test_factor_refuses_what_is_not_a_ratio() -> None:
    with pytest.raises(TypeError, match="x must be a number"):
        fmt.factor("1.2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="x must be a number"):
        fmt.factor(True)
    with pytest.raises(ValueError, match="x is a ratio"):
        fmt.factor(-0.5)
    with pytest.raises(ValueError, match="x is a ratio"):
        fmt.factor(float("nan"))


def test_table_markdown() -> None:
    md = tables.table(pl.DataFrame({"a": ["x|y"], "b": [1.5]}), formats={"b": lambda v: f"{v} s"}).markdown()
    assert md.splitlines() == ["| a | b |", "|:---|---:|", "| x\\|y | 1.5 s |"]
    with pytest.raises(ValueError, match="lacks"):
        tables.table(pl.DataFrame({"a": [1]}), formats={"zzz": str})


@pytest.mark.parametrize(
    ("a", "b", "words"),
    [
        (130.0, 100.0, "1.3× faster than"),
        (100.0, 130.0, "1.3× slower than"),
        (104.0, 100.0, "about as fast as (1.04×, within 10 %)"),
        (97.0, 100.0, "about as fast as (0.97×, within 10 %)"),
        (None, 100.0, "not measured here, so not compared with"),
        (100.0, 0.0, "not measured here, so not compared with"),
    ],
)
def test_compared_reads_right_for_every_outcome(a: float | None, b: float | None, words: str) -> None:
    assert fmt.compared(a, b, more="faster", less="slower", same="about as fast as") == words


def test_compared_needs_a_noise_factor() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        fmt.compared(1.0, 2.0, more="a", less="b", same="c", noise=0.9)


def test_table_cells_read_as_the_prose() -> None:
    """A table without formats still formats every number the one way: fmt.num for floats,
    separators for whole numbers, n/a for what was not measured."""
    frame = pl.DataFrame({"rate": [12345.6, None], "rows": [1000, 20], "ok": [True, False], "note": [None, "why"]})
    md = tables.table(frame).markdown().splitlines()
    assert md[2:] == ["| 12,300 | 1,000 | yes |  |", "| n/a | 20 | no | why |"]
    assert fmt.span(9348.0, 11652.0) == "9,350–11,700" and fmt.span(None, 3.0) == "n/a"


def _summary() -> pl.DataFrame:
    """Case a measured three times, case b unsupported here."""
    metrics = pl.DataFrame(
        {
            "case": ["a", "a", "a", "b"],
            "metric": ["m", "m", "m", "unsupported"],
            "unit": ["x", "x", "x", None],
            "value": [10.0, 12.0, 11.0, None],
        }
    )
    return stats.summarize(metrics, ["case"])


def test_estimate_or_none_gives_a_case_found_and_none_for_one_missing() -> None:
    summary = _summary()
    assert stats.estimate_or_none(summary, "m", case="a") == stats.estimate(summary, "m", case="a")
    assert stats.estimate_or_none(summary, "m", case="b") is None  # could not run here
    assert stats.estimate_or_none(summary, "m", case="c") is None  # not in this run at all
    assert stats.estimate_or_none(summary, "other", case="a") is None
    with pytest.raises(KeyError):  # where the bare estimate refuses it
        stats.estimate(summary, "m", case="c")


def test_estimate_or_none_refuses_a_mistake_in_the_asking() -> None:
    summary = _summary()
    with pytest.raises(ValueError, match="no column 'zzz'"):
        stats.estimate_or_none(summary, "m", zzz=1)
    with pytest.raises(KeyError, match="found 3"):  # more than one case matches
        stats.estimate_or_none(pl.concat([summary, summary, summary]), "m", case="a")
    with pytest.raises(ValueError, match="stats.summarize"):
        stats.estimate_or_none(pl.DataFrame({"case": ["a"]}), "m", case="a")
    with pytest.raises(TypeError, match="summary must be a polars DataFrame"):
        stats.estimate_or_none({"case": ["a"]}, "m")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="metric must be text"):
        stats.estimate_or_none(summary, 3)  # type: ignore[arg-type]


def test_figure_of_writes_the_cell_of_a_case_or_na() -> None:
    summary = _summary()
    found = stats.estimate(summary, "m", case="a")
    assert tables.figure_of(summary, "m", case="a") == tables.figure(found) == "11 (10–12, 3 runs)"
    assert tables.figure_of(summary, "m", show=lambda v: f"{v:.1f} s", runs=False, case="a") == "11.0 s (10.0–12.0 s)"
    assert tables.figure_of(summary, "m", target=0.05, runs=False, case="a") == "11 (10–12); unstable: ±9 %"
    assert tables.figure_of(summary, "m", case="b") == fmt.NA
    assert tables.figure_of(summary, "m", case="c") == fmt.NA


def test_figure_of_refuses_bad_arguments() -> None:
    summary = _summary()
    with pytest.raises(TypeError, match="summary must be a polars DataFrame"):
        tables.figure_of([1], "m", case="a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="runs must be True or False"):
        tables.figure_of(summary, "m", runs="no", case="a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="show must be a function"):
        tables.figure_of(summary, "m", show="num", case="a")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no column 'zzz'"):
        tables.figure_of(summary, "m", zzz="a")
    with pytest.raises(TypeError):  # target, show and runs are named, never positional
        tables.figure_of(summary, "m", 0.1)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("items", "text"),
    [
        ([], ""),
        (["a"], "a"),
        (["a", "b"], "a and b"),
        (["a", "b", "c"], "a, b and c"),
        (["a (x, y)", "b"], "a (x, y) and b"),
        (["a, x (1, 2)", "b"], "a, x (1, 2); and b"),
        (["a, x", "b", "c"], "a, x; b; and c"),
        (["98,900", "119,000"], "98,900 and 119,000"),  # a thousands separator is not a list's comma
        (["79,100", "98,900", "1,000,000 rows"], "79,100, 98,900 and 1,000,000 rows"),
        (["98,900 rows, at most", "b"], "98,900 rows, at most; and b"),
    ],
)
def test_listed_reads_as_prose(items: list[str], text: str) -> None:
    assert fmt.listed(items) == text


@pytest.mark.parametrize("bad", ["abc", None, [1, 2], ["a", None]])
def test_listed_refuses_what_is_not_a_list_of_strings(bad: object) -> None:
    with pytest.raises(TypeError, match="items"):
        fmt.listed(bad)  # type: ignore[arg-type]


def test_ratio_figure_holds_the_rounds_in_its_bracket() -> None:
    assert tables.ratio_figure(stats.Estimate(0.95, 0.86, 0.98, 3)) == "0.95× (0.86–0.98×, 3 rounds)"
    assert tables.ratio_figure(stats.Estimate(2.0, 2.0, 2.0, 1)) == "2× (1 round)"  # ends alike: no interval
    assert tables.ratio_figure(None) == fmt.NA
    with pytest.raises(TypeError, match="ratio must be a"):
        tables.ratio_figure(0.95)  # type: ignore[arg-type]
