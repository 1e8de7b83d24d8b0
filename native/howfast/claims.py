"""Words decided by data: every qualitative word a sentence of the book chooses.

A chapter never decides "faster", "about the same", "knee", "collapse" or "past the L2
cache" by looking at two medians. It asks one of the predicates here, which look at the
interval of each median (``stats.Estimate``: order statistics over the runs), and it
takes the words they return. Each predicate has a branch for "the data cannot tell"
(``unclear``), and the words for it say so: the book prints no verdict its intervals do
not support.

* ``compare(a, b)``: is `a` higher, lower, about the same as `b`, or unclear?
  ``versus`` turns the answer into words with what it is compared with;
  ``ratio_interval`` gives the ratio with the range it can take ('1.3× (1.1–1.5×)');
  ``again_words`` says how the same loop run again compares with its first run.
* ``crosscheck(ratio)``: ours against a standard tool, from the interval of the paired
  per-round ratios: agrees, ours higher, ours lower, or inconclusive.
* ``curve(points)``: the shape of a throughput curve (still rising, a knee, flat, a
  collapse) from its points' intervals.
* ``cache_level(bytes, caches)``: which level of this machine's measured cache topology a
  working set fits in (``machine.cache_topology``), never a textbook's sizes;
  ``cache_words`` says it as a predicate ('fits in …', 'is larger than …'), ``sharing``
  who shares a cache (told as a guest sees it on a virtual machine).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import fmt
from .checks import checked
from .stats import Estimate

#: Two figures whose whole ratio interval lies within this factor of 1 are "about the same".
SAME = 1.05
#: A cross-check agrees when the interval of ours/theirs lies within this band.
AGREES = (0.9, 1.1)
#: A curve has flattened when no later point is clearly above by more than this share.
FLAT_GAIN = 0.10
#: A later point below this share of the peak (its whole interval) is a collapse.
COLLAPSE = 0.5

HIGHER, LOWER, SAME_WORD, UNCLEAR, MISSING = "higher", "lower", "same", "unclear", "missing"


@dataclass(frozen=True)
class Comparison:
    """How `a` compares with `b`: ``direction`` is one of higher / lower / same /
    unclear / missing; ``ratio`` is a/b by the medians, ``lo``–``hi`` the range the
    ratio can take within the two intervals."""

    direction: str
    ratio: float | None = None
    lo: float | None = None
    hi: float | None = None


def _check(value: Estimate | None, name: str) -> None:
    if value is not None and not isinstance(value, Estimate):
        raise TypeError(f"{name} must be a stats.Estimate or None, got {type(value).__name__}")


def compare(a: Estimate | None, b: Estimate | None, *, same: float = SAME) -> Comparison:
    """`a` against `b`. Higher (or lower) only where the intervals do not overlap; the
    same where the whole range of the ratio lies within `same` of 1; otherwise unclear.
    Missing when either was not measured, or either is not positive."""
    _check(a, "a")
    _check(b, "b")
    if not isinstance(same, (int, float)) or isinstance(same, bool) or not same >= 1:
        raise ValueError(f"same is a factor of at least 1, got {same!r}")
    if a is None or b is None or a.lo <= 0 or b.lo <= 0:
        return Comparison(MISSING)
    ratio, lo, hi = a.median / b.median, a.lo / b.hi, a.hi / b.lo
    if lo > 1:
        direction = HIGHER
    elif hi < 1:
        direction = LOWER
    elif lo >= 1 / same and hi <= same:
        direction = SAME_WORD
    else:
        direction = UNCLEAR
    return Comparison(direction, ratio, lo, hi)


#: ``versus``'s words for a rate (higher is faster) and for a time (higher is slower):
#: ``versus(c, "one thread", **RATE_WORDS)``.
RATE_WORDS = {"more": "faster", "less": "slower", "same": "about as fast as"}
TIME_WORDS = {"more": "slower", "less": "faster", "same": "about as fast as"}


def _words(
    c: Comparison, more: str, less: str, same: str, median: Callable[[float], str] = fmt.factor
) -> tuple[str, str]:
    """The two halves of a comparison in words: what goes before the object ('1.3×
    faster than') and the aside that follows it ('' or '0.98×' or '1.2× by the medians,
    but the intervals overlap'); ratios through ``fmt.factor``, the median ratio of a
    same or unclear comparison through `median`."""
    if not isinstance(c, Comparison):
        raise TypeError(f"c must be a claims.Comparison, got {type(c).__name__}")
    for name, word in (("more", more), ("less", less), ("same", same)):
        if not isinstance(word, str):
            raise TypeError(f"{name} must be text, got {type(word).__name__}")
        if not word.strip():
            raise ValueError(f"{name} must name a direction, got {word!r}")
    if c.direction == MISSING or c.ratio is None:
        return "not measured here, so not compared with", ""
    if c.direction == HIGHER:
        return f"{fmt.factor(c.ratio)}× {more} than", ""
    if c.direction == LOWER:
        return f"{fmt.factor(1 / c.ratio)}× {less} than", ""
    if c.direction == SAME_WORD:
        return same, f"{median(c.ratio)}×"
    return f"not clearly {more} or {less} than", f"{median(c.ratio)}× by the medians, but the intervals overlap"


def versus(
    c: Comparison,
    other: str,
    *,
    more: str,
    less: str,
    same: str = "about the same as",
    span: bool = False,
    median: Callable[[float], str] = fmt.factor,
) -> str:
    """A comparison in words with what it is compared with (`other`), any parenthesis
    after it: '1.3× faster than X' (higher), '1.3× slower than X' (lower), 'about the
    same as X (0.98×)' (same), 'not clearly faster or slower than X (1.2× by the medians,
    but the intervals overlap)' (unclear), 'not measured here, so not compared with X'
    (missing). `more` and `less` name the two directions for a higher and a lower figure:
    for a rate 'faster' / 'slower', for a time 'slower' / 'faster'. With `span`, a clear
    ratio is followed by the range it can take within the two intervals, turned the way
    the ratio is read: '1.3× faster than X (1.1–1.5×)' (left out where its ends read
    alike). A clear ratio within ``SAME`` of 1 is read as slight, its ratio after:
    'slightly faster than X (1.03×)', with `span` 'slightly faster than X (1.03×;
    1.004–1.08×)' (``_size_of_gap``). Every ratio goes through ``fmt.factor``, but the
    median ratio of a same or unclear comparison goes through `median` (a page whose
    tables print median ratios to two digits passes its own formatter)."""
    if not isinstance(other, str):
        raise TypeError(f"other must be text, got {type(other).__name__}")
    if not other.strip():
        raise ValueError("other must name what the comparison is with, got ''")
    if not isinstance(span, bool):
        raise TypeError(f"span must be True or False, got {type(span).__name__}")
    if not callable(median):
        raise TypeError(f"median must be a function from a ratio to text, got {type(median).__name__}")
    head, aside = _words(c, more, less, same, median)
    if c.direction in (HIGHER, LOWER):
        if _size_of_gap(c) == "slightly ":  # clear, but by less than SAME: the word says so
            head = f"slightly {more if c.direction == HIGHER else less} than"
            aside = f"{fmt.factor(c.ratio if c.direction == HIGHER else 1 / c.ratio)}×"  # type: ignore[operator]
        if span:
            ends = ratio_interval(c, way="inverted" if c.direction == LOWER else "as measured", median=False)
            aside = "; ".join(filter(None, [aside, ends if "–" in ends else ""]))
    return f"{head} {other}" + (f" ({aside})" if aside else "")


def again_words(c: Comparison, *, higher: str = "higher", lower: str = "lower", way: str = "as measured") -> str:
    """The same loop run again against its first run (``compare(again, first)``), in the
    words the intervals allow: 'clearly lower, 0.7× (0.6–0.8×)' (lower, the whole range
    more than ``SAME`` from 1), 'lower, 0.92× (0.8–0.999×)' (the median beyond it, a near
    end within), 'slightly higher, 1.02× (1.01–1.04×)' (the median within it), 'about the
    same' (same), '1.2× by the medians, but the intervals overlap' (unclear), 'not
    compared' (missing). `higher` and `lower` name
    the two directions ('faster' / 'slower' for a rate); `way` turns a clear ratio as
    ``ratio_interval`` does ('larger' for '1.4× slower' read from a ratio of 0.7)."""
    if not isinstance(c, Comparison):
        raise TypeError(f"c must be a claims.Comparison, got {type(c).__name__}")
    for name, word in (("higher", higher), ("lower", lower)):
        if not isinstance(word, str):
            raise TypeError(f"{name} must be text, got {type(word).__name__}")
        if not word.strip():
            raise ValueError(f"{name} must name a direction, got {word!r}")
    if way not in WAYS:
        raise ValueError(f"way must be one of {WAYS}, got {way!r}")
    if c.direction == MISSING or c.ratio is None:
        return "not compared"
    if c.direction in (HIGHER, LOWER):
        word = higher if c.direction == HIGHER else lower
        return f"{_size_of_gap(c)}{word}, {ratio_interval(c, way=way)}"
    if c.direction == SAME_WORD:
        return "about the same"
    return f"{fmt.factor(c.ratio)}× by the medians, but the intervals overlap"


def _size_of_gap(c: Comparison) -> str:
    """How big a clear difference is, against ``SAME``: 'clearly ' where the whole range
    of the ratio lies beyond it, 'slightly ' where the median ratio lies within it (the
    intervals part, by little), '' between (the median beyond, a near end within)."""
    assert c.ratio is not None and c.lo is not None and c.hi is not None
    if c.lo > SAME or c.hi < 1 / SAME:
        return "clearly "
    if 1 / SAME <= c.ratio <= SAME:
        return "slightly "
    return ""


#: The ways ``ratio_interval`` turns a ratio round.
WAYS = ("as measured", "inverted", "larger")


def ratio_interval(r: Comparison | Estimate | None, *, way: str = "as measured", median: bool = True) -> str:
    """A ratio with the range it can take, every figure through ``fmt.factor``: '1.3×
    (1.1–1.5×)'. `r` is a ``Comparison`` (its ratio by the medians and the range within
    the two intervals) or an ``Estimate`` of a ratio (a median of per-round ratios with
    its interval). `way`: 'as measured'; 'inverted' (for '2× faster' read from a ratio
    of 0.5: '2× (1.7–2.5×)'); 'larger', whichever way round is at least 1 (how many times
    apart two figures are). With ``median=False`` the range alone: '1.1–1.5×'. Where
    the two ends read alike the range is one figure: '2×'. 'n/a' when not measured."""
    if r is not None and not isinstance(r, (Comparison, Estimate)):
        raise TypeError(f"r must be a claims.Comparison, a stats.Estimate or None, got {type(r).__name__}")
    if way not in WAYS:
        raise ValueError(f"way must be one of {WAYS}, got {way!r}")
    if not isinstance(median, bool):
        raise TypeError(f"median must be True or False, got {type(median).__name__}")
    if r is None:
        return fmt.NA
    mid, lo, hi = (r.ratio, r.lo, r.hi) if isinstance(r, Comparison) else (r.median, r.lo, r.hi)
    if mid is None or lo is None or hi is None or lo <= 0:
        return fmt.NA
    if way == "inverted" or (way == "larger" and mid < 1):
        mid, lo, hi = 1 / mid, 1 / hi, 1 / lo
    low, high = fmt.factor(lo), fmt.factor(hi)
    ends = f"{high}×" if low == high else f"{low}–{high}×"
    if not median:
        return ends
    head = f"{fmt.factor(mid)}×"
    return head if low == high else f"{head} ({ends})"


@dataclass(frozen=True)
class Verdict:
    """A cross-check's verdict: ``outcome`` is one of agrees / ours higher / ours lower /
    inconclusive; ``ratio`` the interval of ours/theirs it was read from."""

    outcome: str
    ratio: Estimate | None

    def words(self, *, more: str = "faster", less: str = "slower", tool: str = "the tool") -> str:
        """'agrees with fio (0.98×, 0.95–1.02×)', 'is 1.4× faster than fio (1.3–1.5×)', 'is
        slower than fio (0.5× of its rate, 0.4–0.6×)', 'is inconclusive against fio on this
        machine (1×, but 0.8–1.3×)'."""
        if self.ratio is None:
            return f"was not compared with {tool} here"
        r = self.ratio
        span = ratio_interval(r, median=False)
        ratio = f"{fmt.factor(r.median)}×"
        if self.outcome == "agrees":
            return f"agrees with {tool} ({ratio}, {span})"
        if self.outcome == "ours higher":
            return f"is {ratio} {more} than {tool} ({span})"
        if self.outcome == "ours lower":
            # the median and its interval the same way round: '0.5× of its rate, 0.4–0.6×'
            return f"is {less} than {tool} ({ratio} of its rate, {span})"
        return f"is inconclusive against {tool} on this machine ({ratio}, but {span})"


def crosscheck(ratio: Estimate | None, *, band: tuple[float, float] = AGREES) -> Verdict:
    """The verdict of ours/theirs over alternated rounds (`ratio`: the median of the
    per-round ratios with its interval): agrees when the interval lies within `band`;
    ours higher (lower) when it lies wholly above 1 (below 1) and leaves the band;
    inconclusive otherwise, or with no ratio."""
    _check(ratio, "ratio")
    if not (isinstance(band, tuple) and len(band) == 2 and 0 < band[0] <= 1 <= band[1]):
        raise ValueError(f"band is (low, high) around 1, got {band!r}")
    if ratio is None:
        return Verdict("inconclusive", None)
    if band[0] <= ratio.lo and ratio.hi <= band[1]:
        return Verdict("agrees", ratio)
    if ratio.lo > 1:
        return Verdict("ours higher", ratio)
    if ratio.hi < 1:
        return Verdict("ours lower", ratio)
    return Verdict("inconclusive", ratio)


@dataclass(frozen=True)
class Shape:
    """The shape of a throughput curve over a growing parameter x.

    ``kind``: 'rising' (the last point is clearly above every earlier one: no knee within
    the measured range), 'knee' (it rose, then flattened from ``x``), 'flat' (no point is
    clearly above the first), 'collapse' (after the peak at ``peak_x`` a point falls
    clearly below half of it, first at ``x``); 'unclear' with fewer than two points."""

    kind: str
    x: float | None = None
    peak_x: float | None = None


def curve(points: Sequence[tuple[float, Estimate]], *, gain: float = FLAT_GAIN, collapse: float = COLLAPSE) -> Shape:
    """Read a curve of (x, throughput) points, x increasing."""
    if not isinstance(points, (list, tuple)):
        raise TypeError(f"points must be a list of (x, Estimate) pairs, got {type(points).__name__}")
    for i, p in enumerate(points):
        if not (isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[1], Estimate)):
            raise TypeError(f"points[{i}] must be an (x, Estimate) pair, got {p!r}")
    xs = [float(x) for x, _ in points]
    if any(b <= a for a, b in zip(xs, xs[1:])):
        raise ValueError(f"points must be sorted by x, strictly increasing, got x = {xs}")
    if not 0 <= gain < 1 or not 0 < collapse < 1:
        raise ValueError(f"gain and collapse are shares in [0, 1), got {gain!r}, {collapse!r}")
    if len(points) < 2:
        return Shape("unclear")
    ys = [e for _, e in points]
    peak = max(range(len(ys)), key=lambda i: ys[i].median)
    for i in range(peak + 1, len(ys)):
        if ys[i].hi < collapse * ys[peak].lo:
            return Shape("collapse", xs[i], xs[peak])

    def clearly_above(later: Estimate, earlier: Estimate, by: float) -> bool:
        return later.lo > earlier.hi * (1 + by)

    if not any(clearly_above(y, ys[0], 0.0) for y in ys[1:]):
        return Shape("flat", None, xs[peak])
    if all(clearly_above(ys[-1], y, 0.0) for y in ys[:-1]):
        return Shape("rising", None, xs[-1])
    for i in range(1, len(ys)):
        if not any(clearly_above(y, ys[i], gain) for y in ys[i + 1 :]):
            return Shape("knee", xs[i], xs[peak])
    return Shape("rising", None, xs[-1])


def curve_words(shape: Shape, *, x_words: str = "", fmt_x: Callable[[float], str] | None = None) -> str:
    """A short phrase for a shape: 'still rising at the largest x measured', 'levels off
    from x = 8', 'flat: no point is clearly above the first', 'collapses at x = 10 after a
    peak at 2', 'too few points to tell'. `x_words` names x ('queue depth')."""
    if not isinstance(shape, Shape):
        raise TypeError(f"shape must be a claims.Shape, got {type(shape).__name__}")
    name = f"{x_words} " if x_words else "x = "
    show = (lambda v: fmt.num(v)) if fmt_x is None else fmt_x
    if shape.kind == "rising":
        return f"still rising at the largest {x_words or 'x'} measured"
    if shape.kind == "knee":
        return f"levels off from {name}{show(shape.x)}"
    if shape.kind == "flat":
        return "flat: no point is clearly above the first"
    if shape.kind == "collapse":
        return f"collapses at {name}{show(shape.x)} after a peak at {show(shape.peak_x)}"
    return "too few points to tell"


@dataclass(frozen=True)
class Cache:
    """One level of a CPU's cache as the kernel reports it."""

    name: str  # 'L1d', 'L2', 'L3'
    size: int  # bytes
    shared_by: int  # logical CPUs sharing one instance


def cache_level(working_set: int, caches: Sequence[Cache]) -> Cache | None:
    """The smallest data or unified cache level the working set fits in, None when it
    fits in none (it is served from RAM). Sizes are this machine's, from
    ``machine.cache_topology``."""
    if not isinstance(working_set, int) or isinstance(working_set, bool) or working_set < 0:
        raise ValueError(f"working_set is a number of bytes, got {working_set!r}")
    if not isinstance(caches, (list, tuple)) or not all(isinstance(c, Cache) for c in caches):
        raise TypeError("caches must be a list of claims.Cache (machine.cache_topology())")
    data = sorted((c for c in caches if not c.name.endswith("i")), key=lambda c: c.size)
    return next((c for c in data if working_set <= c.size), None)


def cache_words(working_set: int, caches: Sequence[Cache], *, virtual: bool = False) -> str:
    """Where a working set lives, as a predicate that reads after 'an input that' or 'the
    array': 'fits in the L2 cache (1 MiB, one per core)'; 'is larger than every cache (the
    L3 is 32 MiB, shared by 2 CPUs) and is served from RAM'; 'may or may not fit in a cache
    (this kernel reports no cache sizes)' when the kernel shows none. With `virtual`
    (``machine.virtual(facts)``) a shared cache is told as a virtual machine sees it
    (``sharing``)."""
    level = cache_level(working_set, caches)
    data = sorted((c for c in caches if not c.name.endswith("i")), key=lambda c: c.size)
    if not data:
        return "may or may not fit in a cache (this kernel reports no cache sizes)"
    if level is None:
        last = data[-1]
        return (
            f"is larger than every cache (the {last.name} is {fmt.size(last.size)}, "
            f"{sharing(last, virtual=virtual)}) and is served from RAM"
        )
    return f"fits in the {level.name} cache ({fmt.size(level.size)}, {sharing(level, virtual=virtual)})"


def sharing(c: Cache, *, virtual: bool = False) -> str:
    """Who shares one instance of cache `c`: 'one per core' or 'shared by 2 CPUs'. With
    `virtual` (the machine that measured is a virtual machine: ``machine.virtual(facts)``)
    the CPUs the kernel counts are the guest's, and on the host the same cache may serve
    other guests: 'shared by this VM's 2 CPUs and, on the host, perhaps by others'."""
    if c.shared_by <= 1:
        return "one per core"
    if virtual:
        return f"shared by this VM's {c.shared_by} CPUs and, on the host, perhaps by others"
    return f"shared by {c.shared_by} CPUs"


checked(globals())
