"""The side-by-side table of ours against fio: medians, and ratios taken run by run."""

from __future__ import annotations

import polars as pl
import pytest

from howfast.crosscheck import agreement_sentence, paired_ratios, round_ratios, side_by_side, verdict_parts


def _metrics(pairs: list[tuple[str, int, float, float]]) -> pl.DataFrame:
    """(case, repetition, ours, fio) -> the long rows bench.run would store."""
    rows = []
    for case, rep, ours, fio in pairs:
        for tool, value in (("howfast", ours), ("fio", fio)):
            rows.append(
                {
                    "job": case,
                    "tool": tool,
                    "repetition": rep,
                    "metric": "mb_per_s",
                    "value": value,
                    "unit": "MB/s",
                    "note": None,
                }
            )
    return pl.DataFrame(rows)


def test_ratios_are_taken_within_each_repetition() -> None:
    # The disk slowed down for repetition 1: both tools fell, their ratio did not.
    metrics = _metrics([("a", 0, 100.0, 100.0), ("a", 1, 50.0, 50.0), ("a", 2, 90.0, 100.0)])
    got = paired_ratios(metrics, ["job"], "mb_per_s").row(0, named=True)
    assert got["howfast / fio"] == pytest.approx(1.0)
    assert got["ratio range"] == "0.9–1"  # three rounds: the interval of the median is min to max
    assert got["verdict"] == "agrees"
    table = side_by_side(metrics, ["job"], "mb_per_s", unit="MB/s").row(0, named=True)
    assert table["howfast MB/s"] == pytest.approx(90.0)
    assert table["fio MB/s"] == pytest.approx(100.0)
    assert table["howfast / fio"] == pytest.approx(1.0)  # not 90 / 100: each run is compared with its neighbour


def test_cases_keep_their_own_ratios() -> None:
    metrics = _metrics([("a", 0, 200.0, 100.0), ("b", 0, 50.0, 100.0), ("a", 1, 300.0, 100.0), ("b", 1, 50.0, 100.0)])
    table = side_by_side(metrics, ["job"], "mb_per_s", unit="MB/s")
    assert table["job"].to_list() == ["a", "b"]
    assert table["howfast / fio"].to_list() == pytest.approx([2.5, 0.5])
    assert table["verdict"].to_list() == ["ours higher", "ours lower"]
    sentence = agreement_sentence(table)
    assert sentence == (
        "Of the 2 cases that ran both, 1 case came out clearly faster than fio; "
        "1 case came out clearly slower than fio."
    )


def test_without_fio_there_is_no_ratio() -> None:
    metrics = _metrics([("a", 0, 100.0, 100.0)]).filter(pl.col("tool") == "howfast")
    assert paired_ratios(metrics, ["job"], "mb_per_s").height == 0
    table = side_by_side(metrics, ["job"], "mb_per_s", unit="MB/s")
    assert table["howfast / fio"].null_count() == 1
    assert agreement_sentence(table) == "The comparison with fio could not run here (no result)."


def test_the_verdict_sentence_reads_right_for_every_outcome() -> None:
    one = pl.DataFrame({"howfast / fio": [1.31], "verdict": ["ours higher"]})
    assert agreement_sentence(one) == "The one case that ran both came out clearly faster than fio."
    unsure = pl.DataFrame({"howfast / fio": [1.31], "verdict": ["inconclusive"]})
    assert agreement_sentence(unsure).startswith("The one case that ran both was inconclusive on this machine")
    many = pl.DataFrame({
        "howfast / fio": [0.95, 1.0, 1.4, None],
        "verdict": ["agrees", "agrees", "inconclusive", None],
        "note": [None, None, None, "fio is not installed"],
    })  # fmt: skip
    sentence = agreement_sentence(many)
    assert sentence.startswith("Of the 3 cases that ran both, 2 cases agreed with fio")
    assert "1 case was inconclusive on this machine" in sentence
    two = pl.DataFrame({"howfast / fio": [1.4, 1.5, 1.0], "verdict": ["inconclusive", "inconclusive", "agrees"]})
    assert agreement_sentence(two).endswith("; 2 cases were inconclusive on this machine.")
    none = pl.DataFrame(
        {"howfast / fio": [None], "verdict": [None], "note": ["fio is not installed (apt-get install fio)"]}
    )
    assert (
        agreement_sentence(none)
        == "The comparison with fio could not run here (fio is not installed (apt-get install fio))."
    )


def test_verdict_parts_count_each_verdict_in_a_fixed_order() -> None:
    table = pl.DataFrame({"verdict": ["inconclusive", "agrees", None, "ours lower", "agrees"]})
    assert verdict_parts(table, "zstd", less="slower") == [
        "2 cases agreed with zstd (the interval of the per-round ratio within 0.9–1.1×)",
        "1 case came out clearly slower than zstd",
        "1 case was inconclusive on this machine",
    ]
    assert verdict_parts(pl.DataFrame({"verdict": [None]}, schema={"verdict": pl.String})) == []
    assert verdict_parts(pl.DataFrame({"x": [1]})) == []


def test_an_interval_that_straddles_is_inconclusive() -> None:
    metrics = _metrics([("a", r, ours, 100.0) for r, ours in enumerate([70.0, 130.0, 100.0, 80.0, 125.0])])
    assert paired_ratios(metrics, ["job"], "mb_per_s")["verdict"].to_list() == ["inconclusive"]


def test_round_ratios_pair_any_two_sides_within_a_repetition() -> None:
    """The pairing both the fio tables and the memtable's clocks-on/off cost use: any
    column, any two values of it."""
    metrics = _metrics([("a", 0, 200.0, 100.0), ("a", 1, 30.0, 60.0), ("b", 0, 50.0, 100.0)])
    got = round_ratios(metrics, ["job"], "mb_per_s").sort("job", "r")
    assert got.rows() == [("a", 0.5), ("a", 2.0), ("b", 0.5)]
    flipped = round_ratios(metrics, ["job"], "mb_per_s", ours="fio", theirs="howfast").sort("job", "r")
    assert flipped["r"].to_list() == [0.5, 2.0, 2.0]
    clocks = metrics.with_columns(counters=pl.col("tool") == "howfast")
    assert round_ratios(clocks, ["job"], "mb_per_s", on="counters", ours=True, theirs=False).equals(
        round_ratios(metrics, ["job"], "mb_per_s")
    )
    assert round_ratios(metrics.filter(pl.col("tool") == "fio"), ["job"], "mb_per_s").height == 0
    with pytest.raises(ValueError, match="columns"):
        round_ratios(metrics, ["job"], "mb_per_s", on="counters")
