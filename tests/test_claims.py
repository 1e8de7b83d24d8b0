"""The predicates that choose the book's words: each branch, on known intervals."""

from __future__ import annotations

import polars as pl
import pytest

from howfast import claims, fmt, machine, stats
from howfast.claims import Cache
from howfast.stats import Estimate


def est(median: float, lo: float, hi: float) -> Estimate:
    return Estimate(median, lo, hi, 5)


def test_median_interval_order_statistics() -> None:
    # three or five runs: no pair reaches 95 %, so min to max with its own level
    assert stats.interval_ranks(3) == (1, 0.75)
    assert stats.interval_ranks(5) == (1, 0.9375)
    # ten runs: the 2nd smallest and 2nd largest bracket the median with 97.9 %
    k, level = stats.interval_ranks(10)
    assert k == 2 and level == pytest.approx(1 - 2 * 11 / 1024)
    assert stats.median_interval(range(1, 11)) == (2.0, 9.0, pytest.approx(0.978515625))
    with pytest.raises(ValueError, match="n is a number of runs"):
        stats.interval_ranks(0)
    with pytest.raises(ValueError, match="n is a number of runs"):
        stats.interval_ranks(2**63)  # refused at once, not summed for ever
    with pytest.raises(ValueError, match="values"):
        stats.median_interval([])


def test_summarize_keeps_interval_and_unsupported_rows() -> None:
    frame = pl.DataFrame({
        "case": ["a"] * 3 + ["b"] * 10 + ["c"],
        "metric": ["m"] * 13 + ["unsupported"],
        "unit": ["u"] * 14,
        "value": [3.0, 1.0, 2.0, *[float(v) for v in range(1, 11)], None],
    })  # fmt: skip
    summary = stats.summarize(frame, ["case"])
    a = stats.estimate(summary, "m", case="a")
    b = stats.estimate(summary, "m", case="b")
    assert (a.median, a.lo, a.hi, a.runs, a.confidence) == (2.0, 1.0, 3.0, 3, 0.75)
    assert (b.lo, b.hi) == (2.0, 9.0)
    assert stats.estimate(summary, "m", case="c") is None


def test_estimate_refuses_inconsistent_bounds() -> None:
    with pytest.raises(ValueError, match="lo <= median <= hi"):
        Estimate(1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="median"):
        Estimate(float("nan"), 1.0, 2.0)


def test_compare_every_branch() -> None:
    fast, slow = est(130, 125, 135), est(100, 95, 105)
    assert claims.compare(fast, slow).direction == claims.HIGHER
    assert claims.compare(slow, fast).direction == claims.LOWER
    assert claims.compare(est(100, 99, 101), est(101, 100, 102)).direction == claims.SAME_WORD
    overlapping = claims.compare(est(130, 90, 170), slow)
    assert overlapping.direction == claims.UNCLEAR and overlapping.ratio == pytest.approx(1.3)
    assert claims.compare(None, slow).direction == claims.MISSING
    with pytest.raises(TypeError, match="a must be a"):
        claims.compare(1.0, slow)  # type: ignore[arg-type]


def test_phrase_reads_right_for_every_outcome() -> None:
    fast, slow = est(130, 125, 135), est(100, 95, 105)
    assert claims.phrase(claims.compare(fast, slow), more="faster", less="slower") == "1.3× faster than"
    assert claims.phrase(claims.compare(slow, fast), more="faster", less="slower") == "1.3× slower than"
    same = claims.phrase(claims.compare(est(100, 99, 101), est(101, 100, 102)), more="faster", less="slower")
    assert same.startswith("about the same as (0.99")
    unclear = claims.phrase(claims.compare(est(130, 90, 170), slow), more="faster", less="slower")
    assert unclear.startswith("not clearly faster or slower than") and "overlap" in unclear
    assert "not measured" in claims.phrase(claims.compare(None, slow), more="faster", less="slower")


def test_crosscheck_four_outcomes() -> None:
    assert claims.crosscheck(est(1.0, 0.97, 1.03)).outcome == "agrees"
    assert claims.crosscheck(est(1.4, 1.3, 1.5)).outcome == "ours higher"
    assert claims.crosscheck(est(0.7, 0.6, 0.8)).outcome == "ours lower"
    assert claims.crosscheck(est(1.0, 0.6, 1.3)).outcome == "inconclusive"
    assert claims.crosscheck(None).outcome == "inconclusive"
    words = claims.crosscheck(est(1.0, 0.6, 1.3)).words(tool="fio")
    assert "inconclusive against fio" in words
    with pytest.raises(ValueError, match="band"):
        claims.crosscheck(est(1, 1, 1), band=(1.1, 1.2))


def test_curve_shapes() -> None:
    def pts(*medians: float, width: float = 0.02) -> list[tuple[float, Estimate]]:
        return [(2.0**i, est(m, m * (1 - width), m * (1 + width))) for i, m in enumerate(medians)]

    assert claims.curve(pts(10, 20, 40, 80)).kind == "rising"
    knee = claims.curve(pts(10, 20, 40, 42, 43))
    assert knee.kind == "knee" and knee.x == 4.0
    assert claims.curve(pts(10, 10.1, 9.9, 10.05)).kind == "flat"
    collapse = claims.curve(pts(10, 20, 40, 5))
    assert collapse.kind == "collapse" and collapse.x == 8.0 and collapse.peak_x == 4.0
    # still rising at the end, but inside the noise of the previous point: no false knee
    noisy = claims.curve(pts(10, 20, 40, 60, width=0.3))
    assert noisy.kind in ("knee", "rising")
    assert claims.curve(pts(10)).kind == "unclear"
    assert claims.curve_words(knee, x_words="queue depth") == "levels off from queue depth 4"
    assert "still rising" in claims.curve_words(claims.curve(pts(10, 20, 40, 80)))
    with pytest.raises(ValueError, match="sorted"):
        claims.curve([(2.0, est(1, 1, 1)), (1.0, est(1, 1, 1))])


def test_cache_level_uses_the_measured_topology() -> None:
    caches = [Cache("L1d", 32 * 1024, 1), Cache("L1i", 32 * 1024, 1), Cache("L2", 2**20, 1), Cache("L3", 32 * 2**20, 2)]
    assert claims.cache_level(16 * 1024, caches).name == "L1d"
    assert claims.cache_level(512 * 1024, caches).name == "L2"
    assert claims.cache_level(16 * 2**20, caches).name == "L3"
    assert claims.cache_level(64 * 2**20, caches) is None
    assert claims.cache_words(16 * 2**20, caches) == "fits in the L3 cache (32 MiB, shared by 2 CPUs)"
    assert "served from RAM" in claims.cache_words(2**30, caches)
    # a machine with a huge L3 keeps 16 MiB in cache: the words follow the machine
    big = [Cache("L2", 2**20, 1), Cache("L3", 480 * 2**20, 96)]
    assert "L3" in claims.cache_words(16 * 2**20, big)
    assert claims.cache_words(1, []) == "cache sizes not reported by this kernel"


def test_cache_topology_and_write_cache_from_fake_sysfs(tmp_path) -> None:
    cpu = tmp_path / "cpu0"
    for i, (level, kind, size, shared) in enumerate(
        [
            ("1", "Data", "48K", "0,64"),
            ("1", "Instruction", "32K", "0,64"),
            ("2", "Unified", "2048K", "0,64"),
            ("3", "Unified", "491520K", "0-95"),
        ]  # fmt: skip
    ):
        d = cpu / "cache" / f"index{i}"
        d.mkdir(parents=True)
        for name, value in [("level", level), ("type", kind), ("size", size), ("shared_cpu_list", shared)]:
            (d / name).write_text(value + "\n")
    topo = machine.cache_topology(cpu)
    assert [(c.name, c.size, c.shared_by) for c in topo] == [
        ("L1d", 48 * 1024, 2), ("L1i", 32 * 1024, 2), ("L2", 2 * 2**20, 2), ("L3", 480 * 2**20, 96)
    ]  # fmt: skip
    assert "L3 480 MiB (shared by 96 CPUs)" in machine.topology_words(topo)
    stored = {"cache_levels": [{"name": c.name, "size": c.size, "shared_by": c.shared_by} for c in topo]}
    assert machine.caches(stored) == topo  # read back from a stored set's facts
    assert machine.caches({}) == []
    queue = tmp_path / "block" / "nvme0n1" / "queue"
    queue.mkdir(parents=True)
    (queue / "write_cache").write_text("write through\n")
    (queue / "fua").write_text("1\n")
    wc = machine.write_cache("nvme0n1", tmp_path / "block")
    assert wc == {"mode": "write through", "fua": True}
    assert "no cache flush" in machine.write_cache_words({"write_cache": wc["mode"], "fua": wc["fua"]})
    assert "cache flush" in machine.write_cache_words({"write_cache": "write back", "fua": False})
    virtual = "a virtual disk (virtio-blk): the hypervisor decides where its bytes go"
    through = machine.write_cache_words({"write_cache": "write through", "fua": False, "device_kind": virtual})
    assert "sends no cache flush" in through and "the flush goes" not in through  # no flush to speak of
    back = machine.write_cache_words({"write_cache": "write back", "fua": False, "device_kind": virtual})
    assert "the flush goes to the hypervisor" in back
    assert machine.write_cache("nope", tmp_path / "block") == {"mode": None, "fua": None}
    thp = tmp_path / "thp"
    thp.write_text("always [madvise] never\n")
    assert machine.transparent_hugepages(thp) == "madvise"
    assert machine.transparent_hugepages(tmp_path / "missing") is None


def test_large_numbers_read_in_words_and_counts_stay_exact() -> None:
    assert fmt.num(41.4e9) == "41.4 billion"
    assert fmt.num(33.1e12) == "33.1 trillion"
    assert fmt.num(13_100_000) == "13.1 million"
    assert fmt.num(999_400) == "999,000"
    assert fmt.count(2925, "record") == "2,925 records"
    assert fmt.count(1, "machine") == "1 machine"
    assert fmt.count(41.4e9, "machine") == "41.4 billion machines"
    assert fmt.exact(2925) == "2,925"
    with pytest.raises(TypeError, match="whole number"):
        fmt.exact(2.5)  # type: ignore[arg-type]
