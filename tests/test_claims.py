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


RATE = {"more": "faster", "less": "slower"}


@pytest.mark.parametrize(
    ("c", "plain", "spanned"),
    [
        (claims.Comparison(claims.HIGHER, 1.3, 1.1, 1.5), "1.3× faster than X", "1.3× faster than X (1.1–1.5×)"),
        # lower: the ratio and its range turned round, read as 'slower'
        (claims.Comparison(claims.LOWER, 0.5, 0.4, 0.6), "2× slower than X", "2× slower than X (1.7–2.5×)"),
        # a clear ratio within SAME of 1 is slight: the word says so, its digits follow, and
        # so do the ends of its range
        (
            claims.Comparison(claims.HIGHER, 1.03, 1.004, 1.077),
            "slightly faster than X (1.03×)",
            "slightly faster than X (1.03×; 1.004–1.08×)",
        ),
        (
            claims.Comparison(claims.LOWER, 0.97, 0.95, 0.99),
            "slightly slower than X (1.03×)",
            "slightly slower than X (1.03×; 1.01–1.05×)",
        ),
        # a median beyond SAME with a near end within is not slight
        (
            claims.Comparison(claims.HIGHER, 1.07, 1.01, 1.2),
            "1.07× faster than X",
            "1.07× faster than X (1.01–1.2×)",
        ),
        # a range whose ends read alike is no range
        (claims.Comparison(claims.HIGHER, 2.0, 2.0, 2.0), "2× faster than X", "2× faster than X"),
        (claims.Comparison(claims.SAME_WORD, 0.98, 0.96, 1.02), "about the same as X (0.98×)", None),
        (claims.Comparison(claims.SAME_WORD, 0.999, 0.98, 1.02), "about the same as X (0.999×)", None),
        (
            claims.Comparison(claims.UNCLEAR, 1.2, 0.8, 1.9),
            "not clearly faster or slower than X (1.2× by the medians, but the intervals overlap)",
            None,
        ),
        (
            claims.Comparison(claims.UNCLEAR, 1.077, 0.8, 1.4),
            "not clearly faster or slower than X (1.08× by the medians, but the intervals overlap)",
            None,
        ),
        (claims.Comparison(claims.MISSING), "not measured here, so not compared with X", None),
    ],
)
def test_versus_reads_right_for_every_outcome(c: claims.Comparison, plain: str, spanned: str | None) -> None:
    assert claims.versus(c, "X", **RATE) == plain
    # a range only follows a clear ratio: the other outcomes read the same with span
    assert claims.versus(c, "X", **RATE, span=True) == (spanned or plain)


def test_versus_passes_a_same_or_unclear_median_through_the_callers_formatter() -> None:
    two = lambda x: f"{x:.2g}"  # noqa: E731 - a page's own median formatter
    same = claims.Comparison(claims.SAME_WORD, 0.9996, 0.98, 1.02)
    assert claims.versus(same, "X", **RATE, median=two) == "about the same as X (1×)"
    unclear = claims.Comparison(claims.UNCLEAR, 1.234, 0.8, 1.9)
    assert claims.versus(unclear, "X", **RATE, median=two, span=True) == (
        "not clearly faster or slower than X (1.2× by the medians, but the intervals overlap)"
    )
    clear = claims.Comparison(claims.HIGHER, 1.0644, 1.06, 1.07)
    assert claims.versus(clear, "X", **RATE, median=two) == "1.06× faster than X"  # a clear ratio: fmt.factor
    with pytest.raises(TypeError, match="median"):
        claims.versus(same, "X", **RATE, median="2 digits")  # type: ignore[arg-type]


def test_versus_takes_the_callers_words() -> None:
    higher = claims.compare(est(130, 125, 135), est(100, 95, 105))
    assert claims.versus(higher, "one write", more="slower", less="faster") == "1.3× slower than one write"
    lower = claims.compare(est(100, 95, 105), est(130, 125, 135))
    assert claims.versus(lower, "one write", more="slower", less="faster") == "1.3× faster than one write"
    same = claims.Comparison(claims.SAME_WORD, 1.01, 0.99, 1.03)
    assert claims.versus(same, "it", **RATE, same="about as fast as") == "about as fast as it (1.01×)"


def test_versus_words_for_a_rate_and_for_a_time() -> None:
    higher = claims.Comparison(claims.HIGHER, 1.3, 1.1, 1.5)
    assert claims.versus(higher, "X", **claims.RATE_WORDS) == "1.3× faster than X"
    assert claims.versus(higher, "X", **claims.TIME_WORDS) == "1.3× slower than X"
    same = claims.Comparison(claims.SAME_WORD, 1.01, 0.99, 1.03)
    assert claims.versus(same, "X", **claims.TIME_WORDS) == "about as fast as X (1.01×)"


def test_versus_refuses_bad_arguments() -> None:
    c = claims.Comparison(claims.HIGHER, 1.3, 1.1, 1.5)
    with pytest.raises(TypeError, match="c must be"):
        claims.versus(1.3, "X", **RATE)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="other"):
        claims.versus(c, None, **RATE)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="other"):
        claims.versus(c, " ", **RATE)
    with pytest.raises(TypeError, match="more"):
        claims.versus(c, "X", more=1, less="slower")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="less"):
        claims.versus(c, "X", more="faster", less="")
    with pytest.raises(ValueError, match="same"):
        claims.versus(c, "X", **RATE, same="")
    with pytest.raises(TypeError, match="span"):
        claims.versus(c, "X", **RATE, span="yes")  # type: ignore[arg-type]


def test_ratio_interval_every_way() -> None:
    higher = claims.Comparison(claims.HIGHER, 1.3, 1.1, 1.5)
    assert claims.ratio_interval(higher) == "1.3× (1.1–1.5×)"
    assert claims.ratio_interval(higher, median=False) == "1.1–1.5×"
    assert claims.ratio_interval(higher, way="larger") == "1.3× (1.1–1.5×)"
    lower = claims.Comparison(claims.LOWER, 0.01, 0.004, 0.026)
    assert claims.ratio_interval(lower) == "0.01× (0.004–0.026×)"
    assert claims.ratio_interval(lower, way="larger") == "100× (38–250×)"
    assert claims.ratio_interval(lower, way="inverted", median=False) == "38–250×"
    # ends keep their side of 0.9, 1 and 1.1
    assert claims.ratio_interval(claims.Comparison(claims.HIGHER, 1.2, 1.003, 1.58)) == "1.2× (1.003–1.6×)"
    assert claims.ratio_interval(claims.Comparison(claims.UNCLEAR, 1.0, 0.897, 1.0769)) == "1× (0.897–1.08×)"
    assert claims.ratio_interval(claims.Comparison(claims.SAME_WORD, 1.0, 0.999, 1.0)) == "1× (0.999–1×)"
    # an estimate of a ratio (a median of per-round ratios) reads the same way
    assert claims.ratio_interval(Estimate(1.2, 0.99, 1.6, 5)) == "1.2× (0.99–1.6×)"
    # a range whose ends read alike is one figure
    assert claims.ratio_interval(claims.Comparison(claims.HIGHER, 2.0, 2.0, 2.0)) == "2×"
    assert claims.ratio_interval(claims.Comparison(claims.HIGHER, 2.0, 2.0, 2.0), median=False) == "2×"
    assert claims.ratio_interval(claims.Comparison(claims.MISSING)) == fmt.NA
    assert claims.ratio_interval(None) == fmt.NA


def test_ratio_interval_refuses_bad_arguments() -> None:
    c = claims.Comparison(claims.HIGHER, 1.3, 1.1, 1.5)
    with pytest.raises(TypeError, match="r must be"):
        claims.ratio_interval(1.3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="way must be one of"):
        claims.ratio_interval(c, way="upside down")
    with pytest.raises(TypeError, match="median"):
        claims.ratio_interval(c, median=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("c", "plain", "rate"),
    [
        (claims.Comparison(claims.HIGHER, 1.3, 1.1, 1.5), "clearly higher, 1.3× (1.1–1.5×)",
         "clearly faster, 1.3× (1.1–1.5×)"),
        (claims.Comparison(claims.LOWER, 0.7, 0.6, 0.8), "clearly lower, 0.7× (0.6–0.8×)",
         "clearly slower, 1.4× (1.2–1.7×)"),
        (claims.Comparison(claims.LOWER, 0.92, 0.8, 0.999), "lower, 0.92× (0.8–0.999×)",
         "slower, 1.09× (1.001–1.2×)"),
        (claims.Comparison(claims.LOWER, 0.99, 0.901, 0.999), "slightly lower, 0.99× (0.901–0.999×)",
         "slightly slower, 1.01× (1.001–1.11×)"),
        (claims.Comparison(claims.HIGHER, 1.02, 1.01, 1.04), "slightly higher, 1.02× (1.01–1.04×)",
         "slightly faster, 1.02× (1.01–1.04×)"),
        (claims.Comparison(claims.SAME_WORD, 1.01, 0.99, 1.03), "about the same", "about the same"),
        (claims.Comparison(claims.UNCLEAR, 1.2, 0.8, 1.5), "1.2× by the medians, but the intervals overlap",
         "1.2× by the medians, but the intervals overlap"),
        (claims.Comparison(claims.MISSING), "not compared", "not compared"),
    ],
)  # fmt: skip
def test_again_words_every_direction(c: claims.Comparison, plain: str, rate: str) -> None:
    assert claims.again_words(c) == plain
    assert claims.again_words(c, higher="faster", lower="slower", way="larger") == rate


def test_again_words_refuses_bad_arguments() -> None:
    c = claims.Comparison(claims.HIGHER, 1.3, 1.1, 1.5)
    with pytest.raises(TypeError, match="c must be"):
        claims.again_words(1.3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="higher"):
        claims.again_words(c, higher=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lower must name"):
        claims.again_words(c, lower=" ")
    with pytest.raises(ValueError, match="way must be one of"):
        claims.again_words(c, way="upside down")


def test_the_agreement_band_is_among_the_lines_factor_keeps() -> None:
    assert set(claims.AGREES) | {1.0} == set(fmt.FACTOR_LINES)


def test_verdict_words_keep_each_end_on_its_side() -> None:
    assert claims.crosscheck(est(1.0, 0.97, 1.03)).words(tool="fio") == "agrees with fio (1×, 0.97–1.03×)"
    higher = claims.crosscheck(est(1.4, 1.077, 1.5)).words(tool="fio")
    assert higher == "is 1.4× faster than fio (1.08–1.5×)"
    lower = claims.crosscheck(est(0.5, 0.4, 0.6)).words(tool="fio")
    assert lower == "is slower than fio (0.5× of its rate, 0.4–0.6×)"
    unclear = claims.crosscheck(est(1.0, 0.897, 1.3)).words(tool="fio")
    assert unclear == "is inconclusive against fio on this machine (1×, but 0.897–1.3×)"
    assert claims.crosscheck(None).words(tool="fio") == "was not compared with fio here"


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
    assert claims.cache_words(2**30, caches).startswith("is larger than every cache (the L3 is 32 MiB")
    # a machine with a huge L3 keeps 16 MiB in cache: the words follow the machine
    big = [Cache("L2", 2**20, 1), Cache("L3", 480 * 2**20, 96)]
    assert "L3" in claims.cache_words(16 * 2**20, big)
    # every branch is a predicate: it reads after 'an input that'
    assert claims.cache_words(1, []) == "may or may not fit in a cache (this kernel reports no cache sizes)"
    assert claims.cache_words(1, [Cache("L1i", 32 * 1024, 1)]) == claims.cache_words(1, [])  # no data cache
    for words in (claims.cache_words(16 * 1024, caches), claims.cache_words(2**30, caches), claims.cache_words(1, [])):
        assert words.split()[0] in ("fits", "is", "may"), words


def test_cache_words_tell_a_shared_cache_as_a_virtual_machine_sees_it() -> None:
    caches = [Cache("L1d", 32 * 1024, 1), Cache("L2", 2**20, 1), Cache("L3", 32 * 2**20, 2)]
    assert claims.cache_words(16 * 2**20, caches, virtual=True) == (
        "fits in the L3 cache (32 MiB, shared by this VM's 2 CPUs and, on the host, perhaps by others)"
    )
    assert claims.cache_words(2**30, caches, virtual=True) == (
        "is larger than every cache (the L3 is 32 MiB, shared by this VM's 2 CPUs and, on the host, perhaps by "
        "others) and is served from RAM"
    )
    assert claims.cache_words(2**30, caches) == (
        "is larger than every cache (the L3 is 32 MiB, shared by 2 CPUs) and is served from RAM"
    )
    # a private cache reads the same in a guest
    assert claims.cache_words(512 * 1024, caches, virtual=True) == "fits in the L2 cache (1 MiB, one per core)"
    assert claims.cache_words(512 * 1024, caches) == "fits in the L2 cache (1 MiB, one per core)"


@pytest.mark.parametrize(
    ("cache", "virtual", "words"),
    [
        (Cache("L3", 32 * 2**20, 2), False, "shared by 2 CPUs"),
        (Cache("L3", 32 * 2**20, 2), True, "shared by this VM's 2 CPUs and, on the host, perhaps by others"),
        (Cache("L2", 2**20, 1), False, "one per core"),
        (Cache("L2", 2**20, 1), True, "one per core"),
    ],
)
def test_sharing_every_branch(cache: Cache, virtual: bool, words: str) -> None:
    assert claims.sharing(cache, virtual=virtual) == words


def test_sharing_refuses_bad_arguments() -> None:
    with pytest.raises(TypeError, match="c must be a Cache"):
        claims.sharing("L3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="virtual"):
        claims.sharing(Cache("L3", 2**20, 2), virtual="yes")  # type: ignore[arg-type]


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
    assert machine.topology_words(topo) == (
        "L1d 48 KiB (shared by 2 CPUs); L2 2 MiB (shared by 2 CPUs); L3 480 MiB (shared by 96 CPUs)"
    )
    assert machine.topology_words(topo[3:], virtual=True) == (
        "L3 480 MiB (shared by this VM's 96 CPUs and, on the host, perhaps by others)"
    )
    assert machine.topology_words([Cache("L2", 2**20, 1)], virtual=True) == "L2 1 MiB (one per core)"
    assert machine.topology_words([], virtual=True) == "not reported"
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
