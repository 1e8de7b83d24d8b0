"""Tables, chart data and sentences for the hashing chapter, from its stored results.

Code compares the algorithms' ids (``experiments.ALGORITHMS``); what a reader sees is
``ALGORITHM_NAMES``, applied by ``named`` as the last step before a table or chart. Every
sentence whose words depend on the data is here, tested for each of its branches.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from .. import claims, fmt, reference, stats, tables
from ..checks import checked
from ..crosscheck import ratio_estimate, round_ratios, side_by_side

#: Each experiment's name as a reader reads it, in 'during the … runs' (``book.busy_words``).
TITLES: dict[str, str] = {
    "native": "C++ hashing",
    "python": "Python hashing",
    "vs_openssl": "openssl speed cross-check",
    "vs_xxhsum": "xxhsum cross-check",
}

#: The words for each algorithm id, in the chapter's order (the library in brackets).
ALGORITHM_NAMES = {
    "sha3-256": "SHA3-256 (OpenSSL)",
    "sha256": "SHA-256 (OpenSSL)",
    "sha1": "SHA-1 (OpenSSL)",
    "md5": "MD5 (OpenSSL)",
    "blake2b512": "BLAKE2b-512 (OpenSSL)",
    "xxh64": "XXH64 (libxxhash)",
    "xxh3_64": "XXH3 64-bit (libxxhash, baseline entry)",
    "xxh3_128": "XXH3 128-bit (libxxhash, baseline entry)",
    "xxh3_64_dispatch": "XXH3 64-bit (libxxhash, dispatching entry)",
    "xxh3_128_dispatch": "XXH3 128-bit (libxxhash, dispatching entry)",
    "murmur3_x64_128": "MurmurHash3 x64 128 (libmurmurhash)",
    "jhash": "jhash (written here)",
    "fnv1a_64": "FNV-1a 64 (written here)",
    "crc32c_isal": "CRC32C (ISA-L)",
    "crc32c_sse42": "CRC32C (crc32 instruction, one stream, written here)",
}
#: Short names for the tables, so that they fit a column: the library behind each is in
#: ``ALGORITHM_NAMES`` and in the chapter's list of what was measured.
SHORT_NAMES = {
    "sha3-256": "SHA3-256",
    "sha256": "SHA-256",
    "sha1": "SHA-1",
    "md5": "MD5",
    "blake2b512": "BLAKE2b-512",
    "xxh64": "XXH64",
    "xxh3_64": "XXH3-64 baseline",
    "xxh3_128": "XXH3-128 baseline",
    "xxh3_64_dispatch": "XXH3-64 dispatch",
    "xxh3_128_dispatch": "XXH3-128 dispatch",
    "murmur3_x64_128": "Murmur3 x64-128",
    "jhash": "jhash",
    "fnv1a_64": "FNV-1a 64",
    "crc32c_isal": "CRC32C ISA-L",
    "crc32c_sse42": "CRC32C one stream",
}


def short_name(algorithm: str) -> str:
    """An algorithm's short name, as the tables print it."""
    return SHORT_NAMES.get(algorithm, algorithm)


#: The seeds' hash names (data/reference/hashing.csv) → the algorithm we put beside them.
#: The articles name no variant or library; these are the usual readings.
SEED_ALGORITHMS = {
    "sha3-256": "sha3-256",
    "md5": "md5",
    "sha1": "sha1",
    "xxhash": "xxh64",
    "murmur3": "murmur3_x64_128",
    "jhash": "jhash",
    "fnv": "fnv1a_64",
    "crc32c": "crc32c_isal",
}
#: The CPU features a hash library may use, the words for them, and who uses them here.
FEATURES = {
    "sha_ni": (
        "SHA extensions (SHA-NI)",
        "SHA-256 (sha256rnds2: two rounds per instruction) and SHA-1 (sha1rnds4: four rounds) in OpenSSL",
    ),
    "sse4_2": (
        "SSE4.2",
        "the crc32 instruction (CRC32C: our one-stream loop, the crc32c wheel; ISA-L where VPCLMULQDQ is missing)",
    ),
    "pclmulqdq": ("PCLMULQDQ", "carry-less multiply: folds the CRCs of several crc32 streams (ISA-L's older loops)"),
    "avx2": ("AVX2", "XXH3's 256-bit loop (libxxhash's dispatching entry points); OpenSSL's SHA-1 without SHA-NI"),
    "avx512f": ("AVX-512", "XXH3's 512-bit loop (dispatching entry points); ISA-L's CRC folding"),
    "vaes": ("VAES", "AES only: no hash here uses it"),
    "vpclmulqdq": ("VPCLMULQDQ", "wide carry-less multiply: ISA-L's AVX-512 CRC32C, which needs no crc32 instruction"),
}

#: The words a reader sees for the seeds' machines (the source seed named).
SEED_MACHINES = {"laptop": "laptop, i5-1240P (seed 000)", "phone": "phone, Galaxy S10 (seed 001)"}
LAPTOP = "laptop"
PHONE = "phone"


def named(frame: pl.DataFrame, names: dict[str, str] | None = None) -> pl.DataFrame:
    """Algorithm ids replaced by the words the chapter uses (column ``hash``): `names`, by
    default ``ALGORITHM_NAMES``; the tables pass ``SHORT_NAMES`` to fit their column."""
    if "algorithm" not in frame.columns:
        return frame
    names = ALGORITHM_NAMES if names is None else names
    return frame.with_columns(pl.col("algorithm").replace_strict(names, default=pl.col("algorithm"))).rename(
        {"algorithm": "hash"}
    )


def throughput_curves(
    native: pl.DataFrame, metric: str = "mib_per_s", algorithms: list[str] | None = None
) -> pl.DataFrame:
    """Median of `metric` per algorithm and input size with the interval of that median
    (``lo``, ``hi``) and the run count (``repetitions``), for ``charts.lines``."""
    summary = stats.summarize(native, ["algorithm", "size"]).filter(pl.col("metric") == metric)
    if algorithms is not None:
        summary = summary.filter(pl.col("algorithm").is_in(algorithms))
    return named(summary.select("algorithm", "size", "median", "lo", "hi", "repetitions"))


def seed_figures() -> pl.DataFrame:
    """The seeds' hash throughputs (MiB/s), one row per seed hash, a column per machine."""
    ref = reference.load("hashing").filter(pl.col("metric") == "mib_per_s")
    wide = ref.pivot(on="machine", index="algorithm", values="value")
    return wide.with_columns(pl.col("algorithm").replace_strict(SEED_ALGORITHMS).alias("ours")).rename(
        {"algorithm": "seed name"}
    )


def reference_table(native: pl.DataFrame, size: int, small: int, target: float | None = None) -> pl.DataFrame:
    """Every algorithm at the table's input size: median MiB/s, the interval of that median
    (marked 'unstable: ±35 %' where it stayed wider than ±`target`, the profile's), its run
    count, ns per hash of the `small` input (with its interval; its run count too where it
    differs from the row's), and the seeds' laptop and phone where they name the hash; a
    hash that could not run reads n/a, with the reason in ``note``."""
    summary = stats.summarize(native, ["algorithm", "size"])
    rows = []
    seeds = {r["ours"]: r for r in seed_figures().iter_rows(named=True)}
    for algorithm in ALGORITHM_NAMES:
        rate = _estimate(summary, "mib_per_s", algorithm, size)
        tiny = _estimate(summary, "ns_per_hash", algorithm, small)
        dip = "; dip: disturbed" if rate is not None and dipped(summary, algorithm, size) else ""
        seed = seeds.get(algorithm, {})
        rows.append(
            {
                "algorithm": algorithm,
                "MiB/s": None if rate is None else rate.median,
                "interval": interval_cell(rate, target) + dip,
                "runs": None if rate is None else rate.runs,
                small_column(small): _ns_cell(
                    tiny,
                    _estimate(summary, "mib_per_s", algorithm, small),
                    target,
                    runs=tiny is not None and (rate is None or tiny.runs != rate.runs),
                ),
                LAPTOP: _seed_cell(seed.get("laptop"), algorithm in seeds),
                PHONE: _seed_cell(seed.get("phone"), algorithm in seeds),
                "note": _note(native, algorithm),
            }
        )
    schema = {"MiB/s": pl.Float64, "runs": pl.Int64, LAPTOP: pl.String, PHONE: pl.String, "note": pl.String}
    table = named(pl.DataFrame(rows, schema_overrides=schema), SHORT_NAMES)
    if table["note"].drop_nulls().len() == 0:
        table = table.drop("note")
    return table


def interval_cell(estimate: stats.Estimate | None, target: float | None = None) -> str:
    """The interval of a median as a table cell beside the median's own column:
    '1,300–1,740', with '; unstable: ±17 %' where it stayed wider than ±`target`; n/a when
    the case could not run."""
    if estimate is None:
        return fmt.NA
    mark = stats.stability(estimate, target)
    return fmt.span(estimate.lo, estimate.hi) + (f"; {mark}" if mark else "")


def _seed_cell(value: float | None, named_by_seed: bool) -> str:
    """A seed's MiB/s as the table prints it, or why the cell is empty."""
    if value is not None:
        return fmt.num(value)
    return "not given" if named_by_seed else "not measured"


def seed_comparison(native: pl.DataFrame, size: int, this_machine: str) -> pl.DataFrame:
    """The seeds' eight hashes, by the seeds' names: this machine's median at `size`, with
    the interval of that median and its run count, beside the laptop's and the phone's
    printed figures (one number each: no interval, no run count), for a grouped bar chart."""
    summary = stats.summarize(native, ["algorithm", "size"]).filter(
        (pl.col("size") == size) & (pl.col("metric") == "mib_per_s")
    )
    rows = []
    for seed in seed_figures().iter_rows(named=True):
        ours = summary.filter(pl.col("algorithm") == seed["ours"])
        label = seed["seed name"]  # short, so the chart fits its column; the text maps it to our hash
        if ours.height:
            rows.append(
                {
                    "hash": label,
                    "machine": this_machine,
                    "median": ours["median"][0],
                    "lo": ours["lo"][0],
                    "hi": ours["hi"][0],
                    "repetitions": ours["repetitions"][0],
                }
            )
        for machine, words in SEED_MACHINES.items():
            value = seed.get(machine)
            if value is not None:
                rows.append(
                    {"hash": label, "machine": words, "median": value, "lo": value, "hi": value, "repetitions": None}
                )
    return pl.DataFrame(
        rows,
        schema={
            "hash": pl.String,
            "machine": pl.String,
            "median": pl.Float64,
            "lo": pl.Float64,
            "hi": pl.Float64,
            "repetitions": pl.Int64,
        },
    )


def _pick(summary: pl.DataFrame, metric: str, algorithm: str, size: int) -> float | None:
    try:
        return stats.pick(summary, metric, algorithm=algorithm, size=size)
    except KeyError:
        return None


def _note(metrics: pl.DataFrame, algorithm: str) -> str | None:
    why = stats.unsupported(metrics.filter(pl.col("algorithm") == algorithm), ["algorithm"])
    return why["note"][0] if why.height else None


def _estimate(summary: pl.DataFrame, metric: str, algorithm: str, size: int) -> stats.Estimate | None:
    try:
        return stats.estimate(summary, metric, algorithm=algorithm, size=size)
    except KeyError:
        return None


def dipped(summary: pl.DataFrame, algorithm: str, size: int, metric: str = "mib_per_s") -> bool:
    """Whether `algorithm`'s rate at `size` lies wholly below the interval of some smaller
    input's rate and of some larger input's, all of them from ``LARGE_INPUT`` up: there a
    hash's rate does not fall and then rise again as its input grows (the fixed cost of a
    call only shrinks, the caches only get slower), so such a dip is a disturbed
    measurement, not the hash. Below ``LARGE_INPUT`` the code a hash runs can change with
    the size (XXH3 takes another path above 240 bytes: ``size_class_note``), so a dip there
    may be the hash's own and is never read as a disturbance: False."""
    if size < LARGE_INPUT:
        return False
    rows = summary.filter(
        (pl.col("algorithm") == algorithm) & (pl.col("metric") == metric) & (pl.col("size") >= LARGE_INPUT)
    )
    return _below_both(rows, size)


def _below_both(rows: pl.DataFrame, size: int) -> bool:
    """Whether the interval at `size` lies wholly below that of some smaller and of some
    larger size among `rows` (one algorithm's summary rows of one metric)."""
    here = rows.filter(pl.col("size") == size)
    if here.height != 1:
        return False
    top = here["hi"][0]

    def above(part: pl.DataFrame) -> bool:
        return part.height > 0 and bool((part["lo"] > top).any())

    return above(rows.filter(pl.col("size") < size)) and above(rows.filter(pl.col("size") > size))


#: XXH3's largest 'medium' input: above it, XXH3 leaves its short-input code for its loop
#: over long inputs (XXH3_MIDSIZE_MAX in xxhash.h), which, seeded, first derives a key.
XXH3_MIDSIZE_MAX = 240


def size_class_note(native: pl.DataFrame) -> str:
    """Where XXH3's rate fell, at the first swept size above ``XXH3_MIDSIZE_MAX``, wholly
    below both a smaller and a larger input's and rose again: which entry points did, and
    that XXH3 changes code path there, which may make the dip the hash's own (``dipped``
    never reads a size below ``LARGE_INPUT`` as disturbed); where none did, or no size
    above it was swept, a sentence says so (a page's inline value is never empty)."""
    summary = stats.summarize(native, ["algorithm", "size"]).filter(pl.col("metric") == "mib_per_s")
    above = [int(x) for x in summary["size"].unique().to_list() if int(x) > XXH3_MIDSIZE_MAX]
    if not above:
        return f"This run swept no input above {fmt.exact(XXH3_MIDSIZE_MAX)} bytes, where XXH3 changes its code."
    first = min(above)
    fell = [
        short_name(a)
        for a in ALGORITHM_NAMES
        if a.startswith("xxh3") and _below_both(summary.filter(pl.col("algorithm") == a), first)
    ]
    if not fell:
        return (
            f"No XXH3 entry point's rate fell at {fmt.size(first)} here, the first size swept above "
            f"{fmt.exact(XXH3_MIDSIZE_MAX)} bytes, where XXH3 changes its code."
        )
    who = ("The rate of " if len(fell) == 1 else "The rates of ") + fmt.listed(fell)
    return (
        f"{who} fell at {fmt.size(first)}, wholly below both a smaller and a larger input's rate, and rose again. "
        f"Above {fmt.exact(XXH3_MIDSIZE_MAX)} bytes XXH3 leaves its code for short inputs for its loop over long "
        "ones, which, seeded as here, first derives a key of its own on every call; that may make this dip the "
        "hash's own, so the page does not read it as a disturbance."
    )


def steady_size(summary: pl.DataFrame, algorithms: list[str], at: int) -> int:
    """The input size to quote `algorithms` at: `at`, unless one of them dipped there
    (``dipped``); then the nearest size from ``LARGE_INPUT`` up where none dipped (the
    larger of two equally near), `at` again when there is none."""
    if not any(dipped(summary, a, at) for a in algorithms):
        return at
    sizes = sorted(int(x) for x in summary["size"].unique().to_list() if int(x) >= LARGE_INPUT and int(x) != at)
    fine = [s for s in sizes if not any(dipped(summary, a, s) for a in algorithms)]
    if not fine:
        return at
    return min(fine, key=lambda s: (abs(math.log2(s / at)), -s))


def dip_words(summary: pl.DataFrame, algorithms: list[str], at: int, used: int) -> str:
    """Why a sentence quotes `used` instead of the table's size `at`: '' when it does not;
    otherwise which hash dipped at `at`, as a clause to put in parentheses."""
    if used == at:
        return ""
    names = [short_name(a) for a in algorithms if dipped(summary, a, at)]
    who = " and ".join(names)
    return (
        f"{who}'s {fmt.size(at)} runs fell wholly below both a smaller and a larger input's, a disturbed "
        f"measurement, so this compares at {fmt.size(used)}"
    )


#: Python's runs and the native loop's were made minutes apart on a shared machine: a
#: difference whose whole ratio interval lies within this factor of 1 is drift, not the call.
PY_DRIFT = 1.1


def python_adds(
    python_ns: stats.Estimate | None,
    native_ns: stats.Estimate | None,
    *,
    other_build: bool = False,
    large: bool = False,
) -> str:
    """What a Python call adds over the native loop, in words that follow the intervals:
    '250 ns (230–270)' where Python was clearly slower (the difference of the medians, and
    the range it can take within the two intervals), 'unclear' where the intervals overlap,
    'nothing measurable' within ``PY_DRIFT``, 'none: this build was faster' where Python's
    package was clearly faster (another build of the code), 'n/a' where either is missing.
    With `other_build` (a wheel's own copy of the code, on a large input, where a call's
    cost is lost in the bytes) a clearly slower Python row is the build's, not the call's.
    With `large` (an input whose hash takes far longer than a call), medians within
    ``PY_DRIFT`` are the drift between the two sets, not a cost of the call."""
    return _adds(python_ns, native_ns, other_build=other_build, large=large)[0]


def _adds(
    python_ns: stats.Estimate | None, native_ns: stats.Estimate | None, *, other_build: bool, large: bool
) -> tuple[str, bool]:
    """``python_adds``'s words, and whether they are a cost of the call (Python clearly slower)."""
    c = claims.compare(python_ns, native_ns)
    if c.direction in (claims.HIGHER, claims.LOWER) and c.lo is not None and c.hi is not None:
        drift = (1 / PY_DRIFT <= c.lo and c.hi <= PY_DRIFT) or (
            large and c.ratio is not None and 1 / PY_DRIFT <= c.ratio <= PY_DRIFT
        )
        if drift and python_ns is not None and native_ns is not None:
            gap = _difference(python_ns, native_ns)
            return (
                f"{gap}, under {fmt.num((PY_DRIFT - 1) * 100)} % by the medians: within the drift between sets",
                False,
            )
    if c.direction == claims.HIGHER and python_ns is not None and native_ns is not None:
        if other_build:
            return f"not the call: the package's own build ran {claims.ratio_interval(c, way='larger')} slower", False
        return _difference(python_ns, native_ns), True
    if c.direction == claims.LOWER:
        return "none: the package's build was faster", False
    if c.direction == claims.SAME_WORD:
        return "nothing measurable", False
    if c.direction == claims.UNCLEAR:
        return "unclear: the intervals overlap", False
    return fmt.NA, False


def _difference(python_ns: stats.Estimate, native_ns: stats.Estimate) -> str:
    """'250 ns (230–270)': the difference of the medians, and the range it can take within
    the two intervals; a negative difference reads 'ns less'."""
    extra = python_ns.median - native_ns.median
    lo, hi = python_ns.lo - native_ns.hi, python_ns.hi - native_ns.lo
    if extra < 0:
        extra, lo, hi = -extra, -hi, -lo
        unit = " ns less"
    else:
        unit = " ns"
    spread = "" if fmt.num(lo) == fmt.num(hi) else f" ({fmt.span(lo, hi)})"
    return f"{fmt.num(extra)}{unit}{spread}"


def _python_rows(python: pl.DataFrame, native: pl.DataFrame, sizes: list[int]) -> list[dict[str, Any]]:
    """Per algorithm, package and size: the Python and native estimates of ns per hash, the
    words for what Python adds, and whether those words are a cost of the call."""
    py = stats.summarize(python, ["algorithm", "module", "size"])
    nat = stats.summarize(native, ["algorithm", "size"])
    rows = []
    for algorithm, module in python.select("algorithm", "module").unique(maintain_order=True).iter_rows():
        for size in sizes:
            mine = py.filter(pl.col("module") == module).drop("module")
            p = _estimate(mine, "ns_per_hash", algorithm, size) if module else None
            n = _estimate(nat, "ns_per_hash", algorithm, size)
            own = algorithm in OWN_CODE.get(str(module), ())
            if own and p is not None and n is not None:
                words, call = OWN_CODE_WORDS, False
            else:
                big = size >= LARGE_INPUT
                words, call = _adds(p, n, other_build=module != "hashlib" and big, large=big)
            rows.append({"algorithm": algorithm, "module": module, "size": size, "python": p, "native": n,
                         "adds": words, "call": call,
                         "python_rate": _estimate(mine, "mib_per_s", algorithm, size) if module else None,
                         "native_rate": _estimate(nat, "mib_per_s", algorithm, size)})  # fmt: skip
    return rows


def python_table(
    python: pl.DataFrame, native: pl.DataFrame, sizes: list[int], target: float | None = None
) -> pl.DataFrame:
    """Per algorithm and size: ns per hash from Python and in the native loop, each the
    median with its interval (marked where it stayed wider than ±`target`), what the Python
    call adds (``python_adds``: only where the intervals show it), and the run count: one
    number when both figures have the same, 'Python / native' when they differ. The hash is
    named by its algorithm, with the Python package called in brackets; the library the
    native loop called is a column of its own ('native loop'), not the package's code."""
    rows = []
    for r in _python_rows(python, native, sizes):
        p, n = r["python"], r["native"]
        counts = [e.runs for e in (p, n) if e is not None]
        runs = (
            fmt.NA
            if not counts
            else fmt.exact(counts[0])
            if len(set(counts)) == 1
            else f"{fmt.exact(p.runs)} / {fmt.exact(n.runs)}"
        )
        hash_name, library = _name_and_library(str(r["algorithm"]))
        rows.append(
            {
                "hash (package)": f"{hash_name} ({r['module']})",
                "input": fmt.size(r["size"]),
                "Python ns": _ns_cell(p, r["python_rate"], target),
                "native loop": library,
                "native ns": _ns_cell(n, r["native_rate"], target),
                "Python adds": r["adds"],
                "runs": runs,
            }
        )
    columns = ("hash (package)", "input", "Python ns", "native loop", "native ns", "Python adds", "runs")
    return pl.DataFrame(rows, schema={c: pl.String for c in columns})


def _name_and_library(algorithm: str) -> tuple[str, str]:
    """An algorithm's name without its library ('CRC32C'), and the library our native loop
    called for it ('ISA-L'), from ``ALGORITHM_NAMES``; the id and n/a when it has none."""
    words = ALGORITHM_NAMES.get(algorithm, algorithm)
    name, _, library = words.partition(" (")
    return name, library.rstrip(")") or fmt.NA


def _ns_cell(
    ns: stats.Estimate | None, rate: stats.Estimate | None, target: float | None, *, runs: bool = False
) -> str:
    """A time per hash with its interval, marked unstable from the same runs' MiB/s (the
    reference table's unit), so that one measurement carries one mark on the page: the
    half-width of 1/rate differs from the rate's, as the interval is not symmetric."""
    if ns is None:
        return fmt.NA
    mark = stats.stability(rate if rate is not None else ns, target)
    return tables.figure(ns, None, runs=runs) + (f"; {mark}" if mark else "")


def small_column(small: int) -> str:
    """The reference table's column of nanoseconds per hash of the smallest input."""
    return f"ns, {fmt.size(small).replace(' bytes', ' B')}"


#: Python calls that run code of their own, not the library of our native loop: hashlib's
#: BLAKE2 is Python's own C code, not OpenSSL's.
OWN_CODE = {"hashlib": ("blake2b512",)}
OWN_CODE_WORDS = "not comparable: Python's own BLAKE2, not OpenSSL's"

#: Python calls that reach the same code as our native loop (hashlib's BLAKE2 is Python's
#: own, and the PyPI wheels carry their own copies: the same algorithm, another build).
SAME_LIBRARY = ("sha3-256", "sha256", "sha1", "md5")


#: What a hashlib call adds over the native loop, which reuses one digest context.
PER_CALL = "the Python call with the new digest context hashlib sets up for each (the native loop reuses one)"


def python_sentence(python: pl.DataFrame, native: pl.DataFrame, size: int) -> str:
    """What a Python call costs at `size`: how long a hash took from Python and natively
    (from the quickest hash to the slowest), and what Python added to the calls that reach
    the same library (hashlib's OpenSSL), where the intervals show a difference. hashlib's
    call (the constructor, then ``digest()``) sets up a new digest context every time, where
    the native loop reuses one: what it adds is the Python call and that set-up together."""
    rows = [r for r in _python_rows(python, native, [size]) if r["python"] is not None and r["native"] is not None]
    if not rows:
        return f"No hash could be timed both from Python and natively at {fmt.size(size)} here."
    py = [r["python"].median for r in rows]
    nat = [r["native"].median for r in rows]
    if len(rows) == 1:
        text = (
            f"On {fmt.size_adjective(size)} inputs {ALGORITHM_NAMES.get(rows[0]['algorithm'], rows[0]['algorithm'])} "
            f"took {fmt.num(py[0])} ns from Python and {fmt.num(nat[0])} ns in the native loop"
        )
    else:
        text = (
            f"On {fmt.size_adjective(size)} inputs a hash took from {fmt.num(min(py))} ns to {fmt.num(max(py))} ns "
            f"from Python, depending on the hash, and from {fmt.num(min(nat))} ns to {fmt.num(max(nat))} ns in the "
            "native loop"
        )
    same = [r for r in rows if r["algorithm"] in SAME_LIBRARY and r["module"] == "hashlib"]
    wheels = _wheel_words([r for r in rows if r["module"] != "hashlib"])
    if not same:
        return text + "." + wheels
    added = [r for r in same if r["call"]]
    if not added:
        return (
            text
            + "; for the hashlib calls that reach the same OpenSSL code, the runs did not tell the two apart."
            + wheels
        )
    calls = fmt.count(len(same), "hashlib call")
    share = "the only hashlib call to the same OpenSSL code" if len(same) == 1 else f"1 of the {calls} to the same "
    extra = [r["python"].median - r["native"].median for r in added]
    times = [x / r["native"].median for x, r in zip(extra, added)]
    if len(added) == 1:
        r = added[0]
        lead = (
            f"For {ALGORITHM_NAMES[r['algorithm']]}, {share}, the runs told them apart"
            if len(same) == 1
            else f"Only for {ALGORITHM_NAMES[r['algorithm']]} did the runs tell them apart ({share}OpenSSL code)"
        )
        return (
            text
            + f". {lead}: {PER_CALL} added {r['adds']} per call, {fmt.ratio(times[0])} the native hash itself."
            + wheels
        )
    among = "Among the hashlib calls" if len(added) == len(same) else f"Among the {calls}"
    return (
        text + f". {among}, which run the same OpenSSL code as the native loop, the runs told "
        f"{_all_of(len(added), len(same))} apart from it: {PER_CALL} added from {fmt.num(min(extra))} ns to "
        f"{fmt.num(max(extra))} ns per call, from {fmt.ratio(min(times))} to {fmt.ratio(max(times))} what the native "
        "hash itself took (each row's interval is in the table)." + wheels
    )


def _wheel_words(rows: list[dict[str, Any]]) -> str:
    """A sentence (with its leading space) on the wheels among `rows` (``_python_rows`` at one
    size) where Python was clearly slower than the native loop: what the call and the wheel's
    own build added together, from the least to the most; '' when none was."""
    slower = [r for r in rows if r["call"] and r["python"] is not None and r["native"] is not None]
    if not slower:
        return ""
    extra = [r["python"].median - r["native"].median for r in slower]
    if len(slower) == 1:
        r = slower[0]
        name = ALGORITHM_NAMES.get(r["algorithm"], r["algorithm"]).split(" (")[0]
        return (
            f" The {r['module']} wheel's {name}, its own build of the code, added {r['adds']} per call over the "
            "native loop's library: the call and the build together, which this run does not measure apart."
        )
    return (
        f" The {fmt.count(len(slower), 'wheel call')} the runs told apart, each its wheel's own build of the code, "
        f"added from {fmt.num(min(extra))} ns to {fmt.num(max(extra))} ns per call over the native loop's library: "
        "the call and the build together, which this run does not measure apart."
    )


def python_overhead(python: pl.DataFrame, native: pl.DataFrame, size: int) -> tuple[float | None, float | None]:
    """The least and the most a Python call added over the native loop (ns per hash) at
    `size`, over the calls where the intervals show Python slower."""
    extra = [r["python"].median - r["native"].median for r in _python_rows(python, native, [size]) if r["call"]]
    if not extra:
        return None, None
    return float(min(extra)), float(max(extra))


def wheel_sentence(python: pl.DataFrame, native: pl.DataFrame, size: int) -> str:
    """Which wheels' own builds ran clearly faster (``claims.compare`` on MiB/s) at `size`
    than the library of the native loop, with how much; that this run does not record
    which loop either ran. A native rate that dipped there (``dipped``) is not set beside
    a wheel. Where none was clearly faster, or no wheel was timed, a sentence says so (a
    page's inline value is never empty)."""
    summary = stats.summarize(native, ["algorithm", "size"])
    rows = [r for r in _python_rows(python, native, [size]) if r["module"] != "hashlib"]
    rows = [r for r in rows if r["python_rate"] is not None and r["native_rate"] is not None]
    if not rows:
        return f"No wheel was timed beside the native loop at {fmt.size(size)} here."
    faster = []
    for r in rows:
        if dipped(summary, str(r["algorithm"]), size):
            continue
        c = claims.compare(r["python_rate"], r["native_rate"])
        if c.direction != claims.HIGHER:
            continue
        name, library = _name_and_library(str(r["algorithm"]))
        lib, _, entry = library.partition(", ")
        other = f"{lib}'s {entry}" if entry else lib
        said = claims.versus(c, other, **claims.RATE_WORDS, span=True)
        faster.append(f"the {r['module']} wheel's {name} ran at {fmt.num(r['python_rate'].median)} MiB/s, {said}")
    if not faster:
        return f"At {fmt.size(size)} no wheel's own build ran clearly faster than the native loop's library."
    return (
        f"At {fmt.size(size)} {fmt.listed(faster)}: a wheel's own build beat the library the native loop calls. "
        "This run does not record which loop either ran; the wheel may carry a newer copy of the code, or one "
        "compiled for more of this CPU's instructions."
    )


def x86_flags(details: dict[str, Any]) -> dict[str, bool]:
    """The x86 features /proc/cpuinfo listed (``cpu_flags``), or {} where it listed none of
    them: an Arm CPU's cpuinfo has no x86 flags line, and an x86 CPU without even SSE4.2 is
    rare, so none at all reads as not known, never as 'lacks'."""
    if not isinstance(details, dict):
        raise TypeError(f"details must be a dict (the set's details), got {type(details).__name__}")
    flags = details.get("cpu_flags") or {}
    return dict(flags) if any(flags.values()) else {}


def features_table(details: dict[str, Any]) -> pl.DataFrame:
    """Each CPU feature: listed in /proc/cpuinfo, seen by OpenSSL (its OPENSSL_ia32cap), used by;
    blank (not known) where cpuinfo listed none of them (``x86_flags``) or OpenSSL printed no
    vector."""
    flags = x86_flags(details)
    openssl = details.get("openssl_ia32cap")
    rows = []
    for flag, (words, used) in FEATURES.items():
        seen = None if openssl is None or flag not in openssl else openssl[flag]
        rows.append({"feature": words, "this CPU": flags.get(flag), "OpenSSL sees it": seen, "what uses it": used})
    return pl.DataFrame(rows, schema_overrides={"this CPU": pl.Boolean, "OpenSSL sees it": pl.Boolean})


def sha_path_sentence(details: dict[str, Any]) -> str:
    """Which SHA-256 code path OpenSSL took, as far as its capability vector tells; without a
    vector, not known, and why as far as the set says: the openssl command missing
    (``details['tools']['openssl']`` None), present but printing no OPENSSL_ia32cap line (a
    build for another CPU), or neither recorded."""
    openssl = details.get("openssl_ia32cap")
    flags = details.get("cpu_flags") or {}
    if openssl is None:
        tools = details.get("tools")
        if isinstance(tools, dict) and "openssl" in tools and tools["openssl"] is None:
            why = "The openssl command was not there to print its view of this CPU (openssl version -a)"
        elif isinstance(tools, dict) and tools.get("openssl"):
            why = (
                "openssl version -a printed no OPENSSL_ia32cap vector (an x86 build prints one; a build for another "
                "CPU, such as Arm, may print its own or none)"
            )
        else:
            why = "OpenSSL's view of this CPU (openssl version -a) was not recorded"
        return f"{why}, so which SHA-256 code path libcrypto took is not known here."
    if openssl.get("sha_ni"):
        return (
            "OpenSSL sees the SHA extensions on this CPU (bit 29 of the third word of its OPENSSL_ia32cap vector), "
            "so its "
            "SHA-1 and SHA-256 likely ran on the SHA-NI instructions (this run does not record which code OpenSSL "
            "ran): one sha256rnds2 does two of SHA-256's 64 rounds "
            "(sha1rnds4 four of SHA-1's 80) and two more instructions prepare the message schedule, where software "
            "spends a dozen or so additions, rotations and logic operations on every round."
        )
    if flags.get("sha_ni"):
        return (
            "This CPU lists the SHA extensions, but OpenSSL's capability vector has them masked off (an "
            "OPENSSL_ia32cap setting, or a hypervisor hiding them from cpuid), so SHA-1 and SHA-256 likely ran in "
            "software."
        )
    path = "AVX2" if openssl.get("avx2") else "SSE"
    return (
        f"This CPU has no SHA extensions, so OpenSSL computed SHA-1 and SHA-256 in software, likely on its {path} "
        "path: "
        "every round is additions, rotations and table lookups."
    )


#: ISA-L's CRC32C and our one-stream crc32 loop, which the CRC sentences compare.
CRC_PAIR = ["crc32c_isal", "crc32c_sse42"]


def surprise_sentence(native: pl.DataFrame, size: int) -> str:
    """What this machine can and cannot say about the seeds' surprise: their figures are
    not like with like with ours (the seeds name neither library nor input size), so no
    ratio; what this machine shows is how far the implementation alone moves a figure (each
    pair at its nearest steady size, ``steady_size``)."""
    summary = stats.summarize(native, ["algorithm", "size"])
    crc_at = steady_size(summary, CRC_PAIR, size)
    crc = claims.compare(
        _estimate(summary, "mib_per_s", "crc32c_isal", crc_at), _estimate(summary, "mib_per_s", "crc32c_sse42", crc_at)
    )
    steady = steady_size(summary, ["xxh3_64_dispatch", "xxh3_64"], size)
    xxh = claims.compare(
        _estimate(summary, "mib_per_s", "xxh3_64_dispatch", steady), _estimate(summary, "mib_per_s", "xxh3_64", steady)
    )
    lead = (
        "The seeds name neither the library nor the input size behind their figures, so this machine's rows are "
        "not comparable with theirs hash by hash, and the chapter prints no ratio between them."
    )
    moved = [
        f"two CRC32C implementations on the same CPU, {claims.ratio_interval(crc, way='larger')} apart"
        if crc.direction in (claims.HIGHER, claims.LOWER)
        else "",
        f"two entry points of the same XXH3 library, {claims.ratio_interval(xxh, way='larger')} apart"
        if xxh.direction in (claims.HIGHER, claims.LOWER)
        else "",
    ]
    moved = [m for m in moved if m]
    if not moved:
        return lead + " Nor did this machine show the implementation alone moving a figure clearly: see below."
    return (
        lead
        + " What this machine can show is how far the implementation alone moves a figure on one CPU: "
        + ("; ".join(moved[:-1]) + "; and " + moved[-1] if len(moved) > 1 else moved[0])
        + "."
    )


def fnv_note(native: pl.DataFrame, size: int) -> str:
    """Why our FNV-1a row is not the seeds' 'fnv': a byte-at-a-time FNV-1a is one chain of
    dependent multiplies, and the seeds' 'fnv' ran faster than their own xxhash, which such a
    loop cannot do; said only when the figures show it (at the nearest steady size,
    ``steady_size``)."""
    seeds = {r["ours"]: r for r in seed_figures().iter_rows(named=True)}
    laptop_fnv, laptop_xxh = seeds["fnv1a_64"].get("laptop"), seeds["xxh64"].get("laptop")
    summary = stats.summarize(native, ["algorithm", "size"])
    at = steady_size(summary, ["fnv1a_64", "xxh64"], size)
    ours = claims.compare(_estimate(summary, "mib_per_s", "fnv1a_64", at), _estimate(summary, "mib_per_s", "xxh64", at))
    if laptop_fnv is None or laptop_xxh is None or not laptop_fnv > laptop_xxh or ours.direction != claims.LOWER:
        return 'The seeds do not say which variant of FNV their "fnv" was; we put it beside FNV-1a 64.'
    said = claims.versus(ours, "XXH64", **claims.RATE_WORDS, span=True)
    return (
        'One row stands out: the seeds\' "fnv" ran faster than their own xxhash, while our FNV-1a, which reads one '
        f"byte per step and waits for each step's multiply, ran {said} here. "
        'The seeds\' "fnv" was most likely another variant (one that reads whole words), so that row '
        "compares two different hashes."
    )


def speed_sentence(native: pl.DataFrame, a: str, b: str, size: int) -> str:
    """'At 64 KiB SHA-256 ran at 1,300 MiB/s and XXH3 at 19,300 MiB/s, 15× faster than
    SHA-256 (9–22×)', the word from ``claims.compare`` on the intervals (the two figures'
    own intervals are in the reference table); at the nearest steady size
    (``steady_size``) where either dipped at `size`, saying so."""
    summary = stats.summarize(native, ["algorithm", "size"])
    at = steady_size(summary, [a, b], size)
    ea, eb = _estimate(summary, "mib_per_s", a, at), _estimate(summary, "mib_per_s", b, at)
    name_a, name_b = ALGORITHM_NAMES[a], ALGORITHM_NAMES[b]
    if ea is None or eb is None:
        return f"{name_a} and {name_b} could not both run at {fmt.size(size)} here, so they are not compared."
    c = claims.compare(ea, eb)
    why = dip_words(summary, [a, b], size, at)
    where = f"At {fmt.size(at)} ({why})" if why else f"At {fmt.size(at)}"
    return (
        f"{where} {name_b} ran at {quoted(eb, runs=False)} and {name_a} at {quoted(ea, runs=False)}, "
        f"{claims.versus(c, name_b.split(' (')[0], **claims.RATE_WORDS, span=True)}."
    )


#: The block hashes: the bytes of one block, and the fewest bytes of padding each appends
#: (SHA-256, SHA-1 and MD5: the byte 0x80 and an 8-byte length; SHA3-256: at least one
#: byte of its pad10*1 rule, in blocks of its 136-byte rate; BLAKE2b: zeros to a whole block,
#: one block at least). A block hash compresses whole blocks, however short its input.
BLOCKS: dict[str, tuple[int, int]] = {
    "sha256": (64, 9),
    "sha1": (64, 9),
    "md5": (64, 9),
    "sha3-256": (136, 1),
    "blake2b512": (128, 0),
}


def padded_bytes(algorithm: str, size: int) -> int:
    """The bytes `algorithm` compresses for an input of `size` bytes: whole blocks, padding
    included, for a block hash (``BLOCKS``), e.g. 64 for a 16-byte SHA-256 input; `size`
    itself for the others."""
    if size < 0:
        raise ValueError(f"size must be 0 or more bytes, got {size}")
    if algorithm not in BLOCKS:
        return size
    block, pad = BLOCKS[algorithm]
    return max(1, -(-(size + pad) // block)) * block


def block_words(algorithm: str, size: int) -> str:
    """'one 64-byte block' (or '2 64-byte blocks'): what a block hash compresses for an
    input of `size` bytes (``padded_bytes``); '' for a hash that is not a block hash."""
    if algorithm not in BLOCKS:
        return ""
    block = BLOCKS[algorithm][0]
    n = padded_bytes(algorithm, size) // block
    return f"one {block}-byte block" if n == 1 else f"{fmt.exact(n)} {block}-byte blocks"


def _small_keys(
    native: pl.DataFrame, hashes: list[str], small: int, large: int
) -> list[tuple[str, stats.Estimate, float, str]]:
    """Per hash of `hashes` that ran at both sizes: its name, its ns per hash at `small`, what
    its bytes alone would take at the per-byte rate of the `large` input (a block hash's
    whole padded blocks, ``padded_bytes``), and the verdict:
    'fixed' where the call took clearly more than twice its bytes' time, 'bytes' where
    clearly less, 'open' otherwise."""
    summary = stats.summarize(native, ["algorithm", "size"])
    found = []
    for algorithm in hashes:
        call = _estimate(summary, "ns_per_hash", algorithm, small)
        rate = _estimate(summary, "mib_per_s", algorithm, steady_size(summary, [algorithm], large))
        if call is None or rate is None:
            continue
        n = padded_bytes(algorithm, small)  # a block hash compresses whole blocks, however short its input
        per_bytes = n / (rate.median * 2**20) * 1e9  # the bytes alone at the large input's rate
        fastest, slowest = n / (rate.hi * 2**20) * 1e9, n / (rate.lo * 2**20) * 1e9
        verdict = "fixed" if call.lo > 2 * slowest else "bytes" if call.hi < 2 * fastest else "open"
        found.append((ALGORITHM_NAMES[algorithm], call, per_bytes, verdict))
    return found


def small_key_sentence(native: pl.DataFrame, hashes: list[str], small: int, large: int) -> str:
    """What a key of `small` bytes costs with each of `hashes` (ns per hash, with the
    interval), against what its bytes alone would cost at the per-byte rate of the `large`
    input (for a block hash its whole padded blocks, named: ``block_words``): where the call
    takes clearly more than twice its bytes' time for every hash, the
    fixed costs decide; where clearly less for every hash, the bytes do; otherwise the runs
    do not show one deciding for all."""
    found = _small_keys(native, hashes, small, large)
    if not found:
        return f"None of these hashes ran at both {fmt.size(small)} and {fmt.size(large)} here."
    costs = " and ".join(f"{quoted(call, 'ns', runs=False)} with {name}" for name, call, _, _ in found)
    bytes_words = " and ".join(f"{fmt.num(b)} ns" for _, _, b, _ in found)
    ran = [a for a in hashes if ALGORITHM_NAMES.get(a) in {name for name, _, _, _ in found}]
    blocks = [f"{short_name(a)}, {block_words(a, small)}" for a in ran if block_words(a, small)]
    padded = f" (for {fmt.listed(blocks)}: a block hash compresses whole blocks, padding included)" if blocks else ""
    text = (
        f"In the native loop a {fmt.size_adjective(small)} key costs {costs}; its bytes alone{padded}, at the rate "
        f"{'each' if len(found) > 1 else 'it'} reached on {fmt.size(large)} inputs, would take {bytes_words}"
    )
    summary = stats.summarize(native, ["algorithm", "size"])
    moved = [(a, steady_size(summary, [a], large)) for a in hashes if _estimate(summary, "ns_per_hash", a, small)]
    moved = [(a, at) for a, at in moved if at != large]
    if moved:
        text += (
            " ("
            + "; ".join(f"{short_name(a)} at {fmt.size(at)}" for a, at in moved)
            + (
                f": its {fmt.size(large)} runs dipped below both a smaller and a larger input's, "
                "a disturbed measurement)"
            )
        )
    verdicts = {v for _, _, _, v in found}
    if verdicts == {"fixed"}:
        return text + ": at that size the fixed cost of a call (set-up, finishing, the call itself) decides."
    if verdicts == {"bytes"}:
        return text + ": even at that size the bytes, not the fixed cost of a call, decide."
    return text + ": the runs do not show the fixed cost of a call deciding for every one of them."


def overlap_note(native: pl.DataFrame, small: int, large: int) -> str:
    """Where FNV-1a's rate at `small` was clearly higher than at `large` (its nearest steady
    size, ``steady_size``), which a fixed cost per call cannot do: that the loop's
    independent calls may overlap, where one long input is one chain of dependent
    multiplies (FNV-1a's, byte by byte); otherwise a sentence that says it was not clearly
    higher, or not measured at both sizes (a page's inline value is never empty)."""
    algorithm = "fnv1a_64"
    summary = stats.summarize(native, ["algorithm", "size"])
    at = steady_size(summary, [algorithm], large)
    tiny, big = _estimate(summary, "mib_per_s", algorithm, small), _estimate(summary, "mib_per_s", algorithm, at)
    c = claims.compare(tiny, big)
    if tiny is None or big is None:
        return f"{ALGORITHM_NAMES[algorithm]} was not measured at both sizes here, so this run cannot show it."
    if c.direction != claims.HIGHER:
        return (
            f"Here {ALGORITHM_NAMES[algorithm]}'s rate on {fmt.size_adjective(small)} inputs "
            f"({fmt.num(tiny.median)} MiB/s) was not clearly higher than on {fmt.size(at)} ones "
            f"({fmt.num(big.median)} MiB/s), so this run shows no sign of it."
        )
    return (
        f"{ALGORITHM_NAMES[algorithm]} read a higher rate on {fmt.size_adjective(small)} inputs "
        f"({fmt.num(tiny.median)} MiB/s) than on {fmt.size(at)} ones ({fmt.num(big.median)} MiB/s), "
        f"{claims.ratio_interval(c, way='larger')}, which a fixed cost per call alone cannot do. "
        "Within one call it is one chain of multiplies, each waiting for the last; the loop's calls do not wait for "
        "each other, so the CPU may run several short ones at once, which one long input does not allow. That may "
        "be why."
    )


def short_key_rule(native: pl.DataFrame, hashes: list[str], small: int, large: int) -> str:
    """The chapter's rule for short keys, as far as ``small_key_sentence``'s verdict supports it."""
    verdicts = {v for _, _, _, v in _small_keys(native, hashes, small, large)}
    if verdicts == {"fixed"}:
        return (
            "For short keys the call costs more than the bytes: measure hashes per second, not MiB/s, and from the "
            "language you use."
        )
    return (
        "Whether the call or the bytes decide the cost of a short key was not clear from these runs: measure hashes "
        "per second as well as MiB/s, and from the language you use."
    )


def largest_sentence(
    native: pl.DataFrame,
    algorithm: str,
    size: int,
    caches: list[claims.Cache],
    *,
    virtual: bool = False,
    table_size: int | None = None,
) -> str:
    """The rate at the largest input, with its interval and run count, and where that input
    lives in this machine's caches (`virtual`: a shared cache as a virtual machine sees it,
    ``claims.sharing``); '' when `table_size` is given and ``large_input_sentence`` (from
    `table_size` to `size`) names `algorithm` among the hashes that slowed, as it quotes the
    same figure and where the input lives."""
    summary = stats.summarize(native, ["algorithm", "size"])
    if table_size is not None and size > table_size:
        if algorithm in [a for a, _, _ in _slowed(summary, table_size, size)]:
            return ""
    e = _estimate(summary, "mib_per_s", algorithm, size)
    where = claims.cache_words(size, caches, virtual=virtual)
    if e is None:
        return f"At {fmt.size(size)}, an input that {where}, {ALGORITHM_NAMES[algorithm]} could not run here."
    return f"At {fmt.size(size)}, an input that {where}, {ALGORITHM_NAMES[algorithm]} ran at {quoted(e)}."


def quoted(estimate: stats.Estimate | None, unit: str = "MiB/s", *, runs: bool = True) -> str:
    """A figure as a sentence quotes it: '38,900 MiB/s (30,100–40,200, 3 runs)', the
    interval of the median after the unit (and the run count, unless `runs` is false);
    a single value without a parenthesis; n/a when not measured."""
    if estimate is None:
        return fmt.NA
    head = f"{fmt.num(estimate.median)} {unit}"
    if fmt.num(estimate.lo) == fmt.num(estimate.hi):
        return head
    count = f", {fmt.count(estimate.runs, 'run')}" if runs else ""
    return f"{head} ({fmt.span(estimate.lo, estimate.hi)}{count})"


def terabyte_sentence(
    native: pl.DataFrame,
    size: int,
    slow: str,
    fast: str,
    largest: int | None = None,
    caches: list[claims.Cache] | None = None,
    *,
    virtual: bool = False,
) -> str:
    """One core's rate with the `slow` hash (MiB/s, the page's unit) and the time to hash 1 TiB with `slow`
    and with `fast`, each with the interval carried through from the rate's, at the
    nearest steady size (``steady_size``), saying so where it is not `size`; then, where
    `largest` is a larger size the sweep measured, the same times at its rate (data past
    the smaller caches); where `caches` is given, where each block size lives in them
    (`virtual`: ``claims.sharing``). Either way, that streaming from memory or a disk may
    deliver the data slower, which the chapter does not measure."""
    summary = stats.summarize(native, ["algorithm", "size"])
    at = steady_size(summary, [slow, fast], size)
    a, b = _estimate(summary, "mib_per_s", slow, at), _estimate(summary, "mib_per_s", fast, at)
    if a is None:
        return f"{ALGORITHM_NAMES[slow]} could not run here, so this machine's time to checksum 1 TiB is not known."

    def tib(rate: stats.Estimate) -> str:
        # one tebibyte (2**40 bytes) at a rate in MiB/s (2**20 bytes per second): 2**20 / rate seconds
        return _seconds(2**20 / rate.median, 2**20 / rate.hi, 2**20 / rate.lo)

    def times(x: stats.Estimate, y: stats.Estimate | None) -> str:
        said = f"{tib(x)} with {short}"
        return said + (f" and {tib(y)} with {ALGORITHM_NAMES[fast].split(' (')[0]}" if y is not None else "")

    def blocks(n: int) -> str:
        where = "" if caches is None else f", each of which {claims.cache_words(n, caches, virtual=virtual)}"
        return f"{fmt.size_adjective(n)} blocks{where}"

    rate = quoted(a, runs=False)
    short = ALGORITHM_NAMES[slow].split(" (")[0]
    why = dip_words(summary, [slow, fast], size, at)
    text = (
        f"One core of this machine hashes about {rate} with {short} on {blocks(at)}"
        + (f" ({why})" if why else "")
        + f": at that rate checksumming 1 TiB takes {times(a, b)}"
    )
    far = None if largest is None or largest <= at else _estimate(summary, "mib_per_s", slow, largest)
    if far is not None and largest is not None:
        where = "" if caches is None else f", which {claims.cache_words(largest, caches, virtual=virtual)}"
        text += (
            f"; at the rate of the largest blocks measured, {fmt.size(largest)}{where}, it takes "
            f"{times(far, _estimate(summary, 'mib_per_s', fast, largest))}"
        )
    return (
        text + ". These times assume the data arrives as fast as the hash runs, on one core: streamed from memory or a "
        "disk it may arrive slower, which this chapter does not measure."
    )


def _seconds(median: float, lo: float, hi: float) -> str:
    """A duration and its interval in one unit, the median's: '13.5 minutes (10–13.5)',
    '54.3 s (37.1–66.9)'; a single value where the two ends read alike."""
    scale, unit = (60.0, " minutes") if median >= 120 else (1.0, " s")
    shown = [fmt.num(x / scale) for x in (median, lo, hi)]
    return f"{shown[0]}{unit}" + ("" if shown[1] == shown[2] else f" ({shown[1]}–{shown[2]})")


#: Where the chapter's noise note stands, as the sentences on busy and quiet name it.
NOTE = "the note at the top of the chapter"


def lower_bound_words(busy: bool | None) -> str:
    """What the rates are against a quiet run, as far as the noise evidence tells: `busy`
    is ``book.busy`` of the set, None where the set recorded no noise evidence."""
    if busy is None:
        return (
            "These runs recorded no noise evidence; where other work did share the CPU, a quieter run of this machine "
            "may do better."
        )
    if busy:
        return (
            f"{NOTE[0].upper()}{NOTE[1:]} found the machine busy, so read the rates as lower bounds on what a quiet "
            "run of this machine would give."
        )
    return (
        f"{NOTE[0].upper()}{NOTE[1:]} found the machine quiet by its thresholds; other work below them may still have "
        "slowed a slice, so a quieter run may still do a little better."
    )


def rates_caveat(busy: bool | None) -> str:
    """The closing caveat on the rates, as far as the noise evidence tells (`busy` as in
    ``lower_bound_words``)."""
    if busy is None:
        return "The rates are fastest slices of runs that recorded no noise evidence, so a quieter run may do better."
    if busy:
        return f"The rates are fastest slices, on a machine {NOTE} found busy, so a quieter run may do better."
    return f"The rates are fastest slices, on a machine {NOTE} found quiet; another run may still differ a little."


#: Two builds of one algorithm 'differ 2× or more' when their ratio interval lies beyond this factor.
BUILDS_APART = 2.0


def builds_rule(native: pl.DataFrame, python: pl.DataFrame, size: int) -> str:
    """The chapter's rule on builds, from what this machine showed: the pairs of builds of
    one algorithm whose intervals lie ``BUILDS_APART`` or more apart (libxxhash's two XXH3
    entry points; a PyPI wheel's copy against the distribution's library) at two or more
    input sizes from ``LARGE_INPUT`` up where neither dipped (``dipped``), quoted at the
    nearest steady size to `size`; or, when none did, the rule without this machine's
    word for it."""
    summary = stats.summarize(native, ["algorithm", "size"])
    py = stats.summarize(python, ["algorithm", "module", "size"]) if python.height else None
    sizes = sorted(int(x) for x in summary["size"].unique().to_list() if int(x) >= LARGE_INPUT)
    seen = []

    def held(pair: Any) -> tuple[claims.Comparison, int] | None:
        """The comparison at the steady size, and that size, when the gap holds at two or more sizes, else None."""
        far = [s for s in sizes if (c := pair(s)) is not None and _far(c)]
        if len(far) < 2:
            return None
        at = min(far, key=lambda s: (abs(math.log2(s / size)), -s))
        return pair(at), at

    def entry(s: int) -> claims.Comparison | None:
        if dipped(summary, "xxh3_64_dispatch", s) or dipped(summary, "xxh3_64", s):
            return None
        return claims.compare(
            _estimate(summary, "mib_per_s", "xxh3_64_dispatch", s), _estimate(summary, "mib_per_s", "xxh3_64", s)
        )

    found = held(entry)
    if found is not None:
        c, at = found
        apart = claims.ratio_interval(c, way="larger")
        seen.append(f"libxxhash's two XXH3 entry points, {apart} apart at {fmt.size(at)}")
    pairs = [] if py is None else py.select("algorithm", "module").unique(maintain_order=True).iter_rows()
    for algorithm, module in pairs:
        if module == "hashlib" or algorithm not in ALGORITHM_NAMES:
            continue

        def wheel(s: int, algorithm: str = algorithm, module: str = module) -> claims.Comparison | None:
            if dipped(summary, algorithm, s):
                return None
            rows = py.filter(pl.col("module") == module).drop("module")  # type: ignore[union-attr]
            return claims.compare(
                _estimate(rows, "mib_per_s", algorithm, s), _estimate(summary, "mib_per_s", algorithm, s)
            )

        found = held(wheel)
        if found is not None:
            c, at = found
            name, library = ALGORITHM_NAMES[algorithm].rstrip(")").split(" (", 1)
            apart = claims.ratio_interval(c, way="larger")
            against = library.split(",")[0]
            seen.append(f"the {module} wheel's {name} against {against}'s, {apart} apart at {fmt.size(at)}")
    if not seen:
        return (
            f"Builds and implementations of one algorithm can differ {fmt.factor(BUILDS_APART)}× or more (these runs "
            "did not show it clearly at two or more input sizes): which instructions a library uses is part of its "
            "speed; ask it (openssl version -a, a library's dispatch entry points) before you blame the CPU."
        )
    listed = fmt.listed(seen)
    return (
        f"The same algorithm can differ {fmt.factor(BUILDS_APART)}× or more between builds and implementations: here, "
        f"at two or more input sizes, {listed} (each at the size nearest {fmt.size(size)} where it held). Which "
        "instructions a "
        "library uses is part of its speed; ask it (openssl version -a, a library's dispatch entry points) before "
        "you blame the CPU."
    )


def _far(c: claims.Comparison) -> bool:
    """Whether a clear comparison's whole interval lies ``BUILDS_APART`` or more from 1."""
    if c.lo is None or c.hi is None:
        return False
    return (c.direction == claims.HIGHER and c.lo >= BUILDS_APART) or (
        c.direction == claims.LOWER and c.hi <= 1 / BUILDS_APART
    )


def _slowest(native: pl.DataFrame, algorithm: str, size: int) -> tuple[str, str]:
    """(kind, note) for ``slowest_note`` and ``slowest_rule``: kind is 'missing', 'clear'
    (every other hash clearly faster), 'medians' (the lowest median, but an interval
    overlaps another's), 'open' (no hash clearly slower, but another had a lower median)
    or 'not' (some hash clearly slower)."""
    summary = stats.summarize(native, ["algorithm", "size"])
    at = steady_size(summary, list(ALGORITHM_NAMES), size)
    mine = _estimate(summary, "mib_per_s", algorithm, at)
    if mine is None:
        return "missing", f"{ALGORITHM_NAMES[algorithm]} could not run here."
    others = [(a, _estimate(summary, "mib_per_s", a, at)) for a in ALGORITHM_NAMES if a != algorithm]
    measured = [(a, o) for a, o in others if o is not None]
    slower = [o for _, o in measured if claims.compare(mine, o).direction == claims.HIGHER]
    why = dip_words(summary, list(ALGORITHM_NAMES), size, at)
    head = f"{ALGORITHM_NAMES[algorithm]}, at {quoted(mine, runs=False)} here{f' ({why})' if why else ''},"
    if slower:
        below = fmt.count(len(slower), "hash", "hashes")
        return "not", f"{head} was not the slowest hash measured on this machine: {below} ran clearly slower."
    if all(claims.compare(mine, o).direction == claims.LOWER for _, o in measured):
        return "clear", f"{head} was clearly the slowest hash measured on this machine."
    lower = sorted(((a, o) for a, o in measured if o.median < mine.median), key=lambda p: p[1].median)
    if not lower:
        return "medians", (
            f"{head} was the slowest hash measured on this machine by the medians, but its intervals overlap another's."
        )
    name, lowest = ALGORITHM_NAMES[lower[0][0]], lower[0][1]
    who = (
        f"{name} had a lower median"
        if len(lower) == 1
        else f"{fmt.count(len(lower), 'hash', 'hashes')} had lower medians, the lowest {name}"
    )
    return "open", (
        f"{head} was not clearly the slowest hash measured on this machine: {who}, at "
        f"{quoted(lowest, runs=False)}, though no hash ran clearly slower (their intervals overlap)."
    )


def slowest_note(native: pl.DataFrame, algorithm: str, size: int) -> str:
    """'SHA3-256 (OpenSSL), at 493 MiB/s (492–493) here, was clearly the slowest hash
    measured on this machine.' when the intervals say so (every other hash clearly faster);
    otherwise where it stood: the slowest by the medians only where no other hash had a
    lower median, else not clearly the slowest, naming the hash with the lowest median; a
    sentence of its own in every branch. Every hash is read at the nearest size where none
    dipped (``steady_size``), saying so where it is not `size`."""
    return _slowest(native, algorithm, size)[1]


def slowest_rule(native: pl.DataFrame, algorithm: str, size: int) -> str:
    """The chapter's closing point on the slowest hash, in fewer words than ``slowest_note``
    (which the page prints earlier), or why it is not said."""
    kind, note = _slowest(native, algorithm, size)
    name = ALGORITHM_NAMES[algorithm].split(" (")[0]
    if kind == "missing":
        return note[:-1] + ", so its cost is not known on this machine."
    if kind == "clear":
        return f"{name} was clearly the slowest hash here (above): pick it for its security properties, not by habit."
    if kind == "medians":
        return (
            f"{name} was the slowest hash here by the medians, though not clearly (above): pick it for its security "
            "properties, not by habit."
        )
    if kind == "open":
        return (
            f"{name} was not clearly the slowest hash here: another had a lower median, and their intervals overlap "
            "(above). Pick it for its security properties, not by habit."
        )
    return f"{name} was not the slowest hash here (above): this run gives no reason to avoid it for speed."


def ranking_sentence(native: pl.DataFrame, size: int) -> str:
    """The fastest and the slowest hash at `size`, and how far apart they are (with the
    range that ratio can take within their intervals); 'by the medians', and which hashes it
    could not be told from, where the intervals do not set first or last place apart from
    every other hash (not only from its neighbour in median order). Every hash
    is read at the nearest size where none dipped (``steady_size``), saying so where it is
    not `size`."""
    summary = stats.summarize(native, ["algorithm", "size"])
    at = steady_size(summary, list(ALGORITHM_NAMES), size)
    rates = summary.filter((pl.col("size") == at) & (pl.col("metric") == "mib_per_s")).sort("median", descending=True)
    if rates.height == 0:
        return f"No hash could be measured at {fmt.size(size)} here."
    rows = list(rates.iter_rows(named=True))
    if len(rows) == 1:
        only = stats.Estimate.from_row(rows[0])
        return f"Only {ALGORITHM_NAMES[rows[0]['algorithm']]} could be measured, at {quoted(only)}."
    e = [stats.Estimate.from_row(r) for r in rows]
    name = [ALGORITHM_NAMES[r["algorithm"]] for r in rows]
    # first (last) place is clear only where the intervals set it apart from every other hash
    top_open = [i for i in range(1, len(e)) if claims.compare(e[0], e[i]).direction != claims.HIGHER]
    bottom_open = [i for i in range(len(e) - 1) if claims.compare(e[-1], e[i]).direction != claims.LOWER]
    top_clear, bottom_clear = not top_open, not bottom_open
    by = " by the medians"
    why = dip_words(summary, list(ALGORITHM_NAMES), size, at)
    where = f"At {fmt.size(at)}{f' ({why})' if why else ''}"
    text = (
        f"{where} the fastest{'' if top_clear else by} was {name[0]} at {fmt.num(e[0].median)} MiB/s "
        f"and the slowest{'' if bottom_clear else by} {name[-1]} at {fmt.num(e[-1].median)} MiB/s: "
        f"{claims.ratio_interval(claims.compare(e[0], e[-1]), way='larger')} apart."
    )
    if not top_clear:
        text += f" {name[0]} was not clearly faster than {_at_rates(name, e, top_open)}: the intervals overlap."
    if not bottom_clear:
        text += f" {name[-1]} was not clearly slower than {_at_rates(name, e, bottom_open)}: the intervals overlap."
    return text + " This ranks the native loops only; the Python packages' own builds are set beside them below."


def _at_rates(name: list[str], e: list[stats.Estimate], which: list[int]) -> str:
    """'XXH64 (libxxhash), at 9,000 MiB/s' or several such, listed (``fmt.listed``)."""
    return fmt.listed([f"{name[i]}, at {fmt.num(e[i].median)} MiB/s" for i in which])


def dispatch_sentence(native: pl.DataFrame, size: int) -> str:
    """libxxhash's dispatching XXH3 entry point against its baseline one, at `size`."""
    summary = stats.summarize(native, ["algorithm", "size"])
    at = steady_size(summary, ["xxh3_64", "xxh3_64_dispatch"], size)
    why = dip_words(summary, ["xxh3_64", "xxh3_64_dispatch"], size, at)
    base = _estimate(summary, "mib_per_s", "xxh3_64", at)
    wide = _estimate(summary, "mib_per_s", "xxh3_64_dispatch", at)
    if base is None or wide is None:
        return "The two XXH3 entry points of libxxhash could not both run here, so they are not compared."
    c = claims.compare(wide, base)
    lesson = {
        claims.HIGHER: " A program that calls the obvious function leaves that speed on the table.",
        claims.LOWER: " Here the dispatching entry point did not pay; this run cannot say why.",
        claims.SAME_WORD: (
            " Here the dispatching entry point did not pay: it may have found no wider loop than the baseline's on "
            "this CPU, or a wider loop may not have helped at this size; this run does not record which loop it "
            "picked."
        ),
    }.get(c.direction, " At this size the runs were too noisy to say whether the dispatching entry point paid.")
    other = f"the same library's baseline entry point, at {fmt.num(base.median)} MiB/s"
    return (
        f"At {fmt.size(at)}{f' ({why})' if why else ''}, XXH3 through the dispatching entry point ran at "
        f"{fmt.num(wide.median)} MiB/s, "
        f"{claims.versus(c, other, **claims.RATE_WORDS, span=True)}.{lesson}{_dispatch_sizes(summary, size)}"
    )


#: Two x86 cores a few years apart usually differ per core by well under this factor on the
#: same code (a rule of thumb, not measured here).
SAME_CODE_GAP = 3.0


def sha3_laptop_sentence(native: pl.DataFrame, size: int, details: dict[str, Any]) -> str:
    """What this machine can say about the laptop's SHA3-256 figure: that it may be low (a
    slower implementation or another input size), only when this CPU is x86 as far as
    /proc/cpuinfo tells (``x86_flags`` of the set's `details`) and OpenSSL's SHA3-256 on it
    ran clearly more than ``SAME_CODE_GAP`` times the laptop's figure (that rule of thumb is
    about two x86 cores); on a CPU that lists no x86 features, a figure that far above is
    said without a verdict on the laptop's. In every branch, what differs besides the
    machine (the CPUs, the unnamed library and input size), and that this machine cannot say
    what made the phone's SHA3-256 faster. Read at the nearest steady size
    (``steady_size``), saying so where it is not `size`."""
    x86 = bool(x86_flags(details))
    laptop = {r["ours"]: r for r in seed_figures().iter_rows(named=True)}.get("sha3-256", {}).get("laptop")
    summary = stats.summarize(native, ["algorithm", "size"])
    at = steady_size(summary, ["sha3-256"], size)
    ours = _estimate(summary, "mib_per_s", "sha3-256", at)
    unknown = (
        "Besides their CPUs, the phone's and the laptop's figures may differ by the library and the input size, "
        "which neither seed names, so this machine cannot say what made the phone's SHA3-256 faster."
    )
    if laptop is None or ours is None or ours.lo is None or ours.lo < SAME_CODE_GAP * laptop:
        return unknown
    why = dip_words(summary, ["sha3-256"], size, at)
    ran = f"OpenSSL ran SHA3-256 at {quoted(ours, runs=False)} on this {'x86 ' if x86 else ''}CPU"
    where = f"({fmt.size(at)} inputs{f'; {why}' if why else ''}), far above the laptop's {fmt.num(laptop)} MiB/s"
    if not x86:
        return (
            f"{ran} {where}. This CPU lists no x86 features, and this book's rule of thumb for how far apart two "
            "cores run the same code holds only for x86, so this run cannot say whether the laptop's figure is low. "
            + unknown
        )
    return (
        f"The laptop's figure may be low: {ran} {where}, "
        "a wider gap than two x86 cores of recent generations usually show per core on the same code, so the laptop "
        "may have run a slower implementation or smaller inputs. " + unknown
    )


def crc_path_sentence(details: dict[str, Any]) -> str:
    """How ISA-L computes CRC32C on this CPU, from the features it lists: with AVX-512 and
    VPCLMULQDQ a folding loop that uses no crc32 instruction; with PCLMULQDQ and SSE4.2
    three crc32 chains folded together; without them a table-driven loop. Not known where the
    features were not recorded, or cpuinfo listed none of them (``x86_flags``: no x86 flags
    line, as on Arm)."""
    if not details.get("cpu_flags"):
        return "Which CRC32C loop ISA-L picked is not known here: the CPU's features were not recorded."
    flags = x86_flags(details)
    if not flags:
        return (
            "Which CRC32C loop ISA-L picked is not known here: /proc/cpuinfo listed none of the x86 features it "
            "chooses by (a CPU that is not x86, such as an Arm one, lists no x86 flags at all)."
        )
    if flags.get("avx512f") and flags.get("avx512vl") and flags.get("vpclmulqdq"):
        return (
            "This CPU has AVX-512 and VPCLMULQDQ, and for such CPUs ISA-L would pick, at run time, a loop that does "
            "not use the crc32 instruction at all: it folds the buffer 64 bytes per register with wide carry-less "
            "multiplications and reduces the result to a CRC only at the end (this run does not record which loop "
            "it ran)."
        )
    if flags.get("pclmulqdq") and flags.get("sse4_2"):
        return (
            "On a CPU with PCLMULQDQ and SSE4.2, as this one, ISA-L would split the buffer into three streams, run a "
            "crc32 chain on each in parallel and fold the partial CRCs together with carry-less multiplications "
            "(this run does not record which loop it ran)."
        )
    return "This CPU lacks SSE4.2 or PCLMULQDQ, so ISA-L would compute CRC32C with a table-driven loop."


def crc_sentence(native: pl.DataFrame, size: int) -> str:
    """ISA-L's CRC32C against our one-stream loop over the same crc32 instruction, at the
    nearest steady size (``steady_size``), saying so where it is not `size`."""
    summary = stats.summarize(native, ["algorithm", "size"])
    at = steady_size(summary, CRC_PAIR, size)
    isal = _estimate(summary, "mib_per_s", "crc32c_isal", at)
    one = _estimate(summary, "mib_per_s", "crc32c_sse42", at)
    if isal is None or one is None:
        missing = [name for name, v in (("ISA-L's CRC32C", isal), ("the crc32 instruction loop", one)) if v is None]
        words = " and ".join(missing)
        return f"{words[0].upper()}{words[1:]} could not run here, so the two CRC32C paths are not compared."
    c = claims.compare(isal, one)
    said = claims.versus(c, "our loop of one crc32 instruction after another", **claims.RATE_WORDS, span=True)
    why = dip_words(summary, CRC_PAIR, size, at)
    return f"At {fmt.size(at)}{f' ({why})' if why else ''}, ISA-L's CRC32C was {said}."


#: The cross-check verdicts as the small-block sentence tallies them, in its order.
_VERDICT_WORDS = {
    "ours higher": "ours was faster",
    "ours lower": "ours was slower",
    "agrees": "ours agreed with openssl speed",
    "inconclusive": "the rounds could not tell the two apart",
}


def openssl_small_block_sentence(table: pl.DataFrame) -> str:
    """The verdicts of every hash at the smallest block size against ``openssl speed``,
    tallied: our loop reuses one digest context where ``openssl speed`` (EVP_Digest)
    creates and frees one per call, which may be why ours was faster where it was; where
    ours was slower, this run cannot say why."""
    nothing = "No block size ran both here, so the per-call cost of openssl speed is not seen."
    if "verdict" not in table.columns or table.height == 0:
        return nothing
    rows = table.filter(pl.col("verdict").is_not_null())
    if rows.height == 0:
        return nothing
    rows = rows.with_columns(bytes=pl.col("block").map_elements(_block_bytes, return_dtype=pl.Int64))
    smallest = int(rows["bytes"].min())  # type: ignore[arg-type]
    at = list(rows.filter(pl.col("bytes") == smallest).iter_rows(named=True))
    by = {v: [r["hash"] for r in at if (r["verdict"] if r["verdict"] in _VERDICT_WORDS else "inconclusive") == v]
          for v in _VERDICT_WORDS}  # fmt: skip
    if len(at) == 1:
        tally = f"On {fmt.size_adjective(smallest)} blocks of {at[0]['hash']}, " + next(
            words for v, words in _VERDICT_WORDS.items() if by[v]
        )
    else:
        parts = [f"{words} for {_all_of(len(by[v]), len(at))} ({fmt.listed(by[v])})"
                 for v, words in _VERDICT_WORDS.items() if by[v]]  # fmt: skip
        hashes = fmt.count(len(at), "hash", "hashes")
        tally = f"On {fmt.size_adjective(smallest)} blocks, of the {hashes}, " + "; ".join(parts)
    less_work = (
        "our loop reuses one digest context, where openssl speed calls EVP_Digest, which creates and frees one per call"
    )
    if by["ours higher"]:
        text = f"{tally}. A possible reason where ours was faster: {less_work}."
    else:
        text = f"{tally}, although {less_work}."
    if by["ours lower"]:
        text += " This run cannot say why ours was slower" + (
            "." if len(at) == 1 else f" for {fmt.listed(by['ours lower'])}."
        )
    return text


def _block_bytes(text: str) -> int:
    number, _, unit = text.partition(" ")
    return int(float(number.replace(",", "")) * {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}.get(unit, 1))


def crosscheck_table(metrics: pl.DataFrame, tool: str, target: float | None = None) -> pl.DataFrame:
    """Ours beside `tool` per algorithm and block size, in MiB/s: each side's median with
    its interval (marked where it stayed wider than ±`target`), the median of the per-round
    ratios ours / `tool` with the interval of that median and the number of rounds that ran
    both in one cell (``tables.ratio_figure``), and the verdict that interval supports
    (``claims.crosscheck``); where the tool could not run, its cells read n/a and ``note``
    says why."""
    by = ["algorithm", "size"]
    table = side_by_side(metrics, by, "mib_per_s", unit="MiB/s", tool=tool, rounds=True)
    summary = stats.summarize(metrics, [*by, "tool"]) if metrics.height else None
    ratios = round_ratios(metrics, by, "mib_per_s", theirs=tool) if metrics.height else None
    ratio_column = "per-round ratio"
    rows = []
    for row in table.iter_rows(named=True):
        where = {"algorithm": row["algorithm"], "size": row["size"]}
        sides = {name: _side(summary, name, **where) for name in ("howfast", tool)}
        r = (
            None
            if ratios is None
            else ratios.filter((pl.col("algorithm") == row["algorithm"]) & (pl.col("size") == row["size"]))
        )
        ratio = ratio_estimate(r["r"].to_list()) if r is not None and r.height else None
        rows.append(
            {
                "algorithm": row["algorithm"],
                "block": fmt.size(row["size"]),
                "howfast MiB/s": tables.figure(sides["howfast"], target, runs=False),
                f"{tool} MiB/s": tables.figure(sides[tool], target, runs=False),
                ratio_column: tables.ratio_figure(ratio),
                "verdict": row.get("verdict"),
                "note": row.get("note"),
            }
        )
    schema = {"algorithm": pl.String, "block": pl.String, "howfast MiB/s": pl.String, f"{tool} MiB/s": pl.String,
              ratio_column: pl.String, "verdict": pl.String, "note": pl.String}  # fmt: skip
    out = named(pl.DataFrame(rows, schema=schema))
    return out if out["note"].drop_nulls().len() else out.drop("note")


def _side(summary: pl.DataFrame | None, tool: str, **where: object) -> stats.Estimate | None:
    """One side of a cross-check (`tool`'s runs of one case) as an estimate; None when it did not run."""
    if summary is None:
        return None
    rows = summary.filter(pl.col("tool") == tool)
    for key, value in where.items():
        rows = rows.filter(pl.col(key) == value)
    rows = rows.filter(pl.col("metric") == "mib_per_s")
    return stats.Estimate.from_row(rows.row(0, named=True)) if rows.height == 1 else None


#: A hash slowed at large inputs when its whole ratio interval lies below 1 / DROP.
DROP = 1.25
#: From this input size up a call's fixed cost no longer decides a hash's rate.
LARGE_INPUT = 1024


def slice_words(native: pl.DataFrame, slice_seconds: float) -> str:
    """How many calls a slice of a measurement held where it held fewest, from the slowest
    call measured (the largest median ns per hash) against `slice_seconds`: whether that
    call outlasted a slice (then the fastest slice filters little there), or how many such
    calls a slice held; what the methods' sentence on filtering other work goes on with."""
    if not slice_seconds > 0:
        raise ValueError(f"slice_seconds must be a positive duration, got {slice_seconds!r}")
    summary = stats.summarize(native, ["algorithm", "size"]).filter(pl.col("metric") == "ns_per_hash")
    if summary.height == 0:
        return "no call was timed here, so how many a slice held is not known"
    top = summary.sort("median", descending=True).row(0, named=True)
    slowest = float(top["median"])
    what = (
        f"the slowest call here, {ALGORITHM_NAMES.get(top['algorithm'], top['algorithm'])} on "
        f"{fmt.size_adjective(int(top['size']))} inputs, took {fmt.duration_us(slowest / 1e3)}"
    )
    slice_ns = slice_seconds * 1e9
    if slowest >= slice_ns:
        return f"{what}, longer than a slice ({fmt.duration_us(slice_ns / 1e3)}), so there it filters little"
    held = int(slice_ns // slowest)
    return f"{what}, so a slice ({fmt.duration_us(slice_ns / 1e3)}) held {fmt.count(held, 'such call')} at least"


def _dispatch_sizes(summary: pl.DataFrame, size: int) -> str:
    """How the two XXH3 entry points compared at every size from ``LARGE_INPUT`` up: one
    size can land on a noisy moment, the sweep as a whole tells more."""
    sizes = sorted(int(x) for x in summary.filter(pl.col("size") >= LARGE_INPUT)["size"].unique().to_list())
    outcomes = []
    for at in sizes:
        wide = _estimate(summary, "mib_per_s", "xxh3_64_dispatch", at)
        base = _estimate(summary, "mib_per_s", "xxh3_64", at)
        if wide is not None and base is not None:
            outcomes.append(claims.compare(wide, base).direction)
    if len(outcomes) < 2:
        return ""
    total = len(outcomes)
    faster, slower = outcomes.count(claims.HIGHER), outcomes.count(claims.LOWER)
    rest = total - faster - slower
    clear = [f"clearly {word} at {_all_of(k, total)}" for word, k in (("faster", faster), ("slower", slower)) if k]
    tally = f"the dispatching entry point was {' and '.join(clear)}" if clear else ""
    if rest:
        unclear = f"at {_all_of(rest, total)} the runs could not tell them apart"
        tally = f"{tally}; {unclear}" if tally else unclear
    return f" Of the {fmt.count(total, 'input size')} from {fmt.size(LARGE_INPUT)} up, {tally}."


def _all_of(k: int, n: int) -> str:
    """A count of `n` things as a tally says it: 'all 8' when it is every one of them,
    'both' when two of two, else the number ('3')."""
    if k == n and n == 2:
        return "both"
    if k == n and n > 2:
        return f"all {fmt.exact(n)}"
    return fmt.exact(k)


def _slowed(
    summary: pl.DataFrame, at: int, largest: int
) -> list[tuple[str, stats.Estimate | None, stats.Estimate | None]]:
    """The hashes whose rate at `largest` was clearly lower, by ``DROP`` or more, than at
    `at`: (algorithm, its estimate at `at`, at `largest`), in the chapter's order."""
    slowed = []
    for algorithm in ALGORITHM_NAMES:
        small, large = (_estimate(summary, "mib_per_s", algorithm, s) for s in (at, largest))
        c = claims.compare(large, small)
        if c.direction == claims.LOWER and c.hi is not None and c.hi <= 1 / DROP:
            slowed.append((algorithm, small, large))
    return slowed


def large_input_sentence(
    native: pl.DataFrame,
    at: int,
    largest: int,
    caches: list[claims.Cache],
    slice_seconds: float,
    *,
    virtual: bool = False,
) -> str:
    """The hashes that ran clearly slower at the largest input than at the table's size,
    and what this run can say about why: whether the input still fits in a cache (then
    memory is not the limit, and the fastest hash's rate there shows it), and whether one
    call outlasts a slice of the measurement (then the fastest slice no longer filters out
    other programs on a busy CPU). `virtual`: a shared cache as a virtual machine sees it
    (``claims.sharing``)."""
    summary = stats.summarize(native, ["algorithm", "size"])
    slowed = _slowed(summary, at, largest)
    if largest <= at:
        return f"The sweep stops at {fmt.size(largest)}, so it has no input larger than the table's to compare."
    if not slowed:
        return f"No hash ran clearly slower, by a fifth or more, at {fmt.size(largest)} than at {fmt.size(at)}."
    listed = "; ".join(
        f"{ALGORITHM_NAMES[a]} from {fmt.num(s.median)} to {quoted(e, runs=False)}" for a, s, e in slowed
    )
    text = (
        f"At {fmt.size(largest)}, {fmt.count(len(slowed), 'hash', 'hashes')} ran clearly slower, by a fifth or "
        f"more, than at {fmt.size(at)}: {listed}."
    )
    rates = summary.filter((pl.col("size") == largest) & (pl.col("metric") == "mib_per_s")).sort(
        "median", descending=True
    )
    said_why = False
    if claims.cache_level(largest, caches) is not None and rates.height:
        top = rates.row(0, named=True)
        text += (
            f" The input still {claims.cache_words(largest, caches, virtual=virtual)}, and from it "
            f"{ALGORITHM_NAMES[top['algorithm']]} read {quoted(stats.Estimate.from_row(top), runs=False)}: the "
            "cache delivered at least that much to one core, but whether waiting for it is part of the drop, "
            "this run cannot say."
        )
        said_why = True
    elif claims.cache_level(largest, caches) is not None:
        text += f" The input still {claims.cache_words(largest, caches, virtual=virtual)}."
    else:
        text += f" The input {claims.cache_words(largest, caches, virtual=virtual)}, so memory may share in the drop."
    calls = [_estimate(summary, "ns_per_hash", a, largest) for a, _, _ in slowed]
    shortest = min((c.median for c in calls if c is not None), default=None)
    if shortest is not None and shortest >= slice_seconds * 1e9:
        text += (
            f" Each of their calls there took {fmt.duration_us(shortest / 1e3)} or more, longer than a slice of "
            "the measurement "
            f"({fmt.duration_us(slice_seconds * 1e6)}): no slice was short enough to fall between the turns of "
            "other work on the CPU, so the fastest slice no longer filtered it out. If other work ran during these "
            "runs (the note at the top says so where the set recorded it), the drop may be that work, not the hash; "
            "this run cannot tell which."
        )
    else:
        text += " Nor can it say what else slowed them." if said_why else " This run cannot say what slowed them."
    return text


#: The order in which ``crosscheck_again_sentence`` names its groups of cases.
_AGAIN_ORDER = (
    "clearly lower",
    "lower",
    "slightly lower",
    "about the same",
    "slightly higher",
    "higher",
    "clearly higher",
    "not compared",
)


def _again_label(c: claims.Comparison) -> str:
    """The qualitative words of ``claims.again_words`` for a run again against its first run,
    without the ratio: 'clearly lower', 'lower', 'slightly higher', 'about the same', 'not
    compared'; 'overlap' where the intervals overlap (the sentence words that group itself)."""
    if c.direction == claims.UNCLEAR:
        return "overlap"
    return claims.again_words(c).split(", ")[0]


def _ratio_range(values: list[float]) -> str:
    """'0.92× to 1.04×', or one ratio ('1.02×') where the two ends read alike."""
    lo, hi = fmt.factor(min(values)), fmt.factor(max(values))
    return f"{lo}×" if lo == hi else f"{lo}× to {hi}×"


def crosscheck_again_sentence(native: pl.DataFrame, vs: pl.DataFrame, tool: str, *, whole_run: bool) -> str:
    """Our half of a cross-check is the size sweep's loop run again, later, at one block size:
    in summary, the range of the ratios again / sweep (by the medians) over every case, the
    cases grouped by the words the intervals allow (``claims.again_words``: clearly, slightly
    or plainly higher or lower, about the same, or overlapping intervals), with the whole run
    (`whole_run`) how far the sweep's fastest slices, which its chart shows, ran above its
    whole-run rates; the cases whose block the sweep did not measure, named; and which
    figures the chapter quotes. Each case's figures are in the cross-check's table."""
    summary = stats.summarize(native, ["algorithm", "size"])
    metric = "mean_mib_per_s" if whole_run else "mib_per_s"
    nothing = f"Our loop did not run beside {tool} here, so every figure of ours on this page is the size sweep's."
    if not {"algorithm", "size", "tool", "metric", "value"} <= set(vs.columns):
        return nothing
    ours = vs.filter((pl.col("tool") == "howfast") & (pl.col("metric") == "mib_per_s"))
    cases: list[tuple[str, claims.Comparison, float | None]] = []
    unpaired: list[str] = []
    missing: list[int] = []
    for (algorithm, size), rows in ours.group_by(["algorithm", "size"], maintain_order=True):
        values = rows["value"].drop_nulls().to_list()
        if not values:
            continue
        label = f"{short_name(str(algorithm))} at {fmt.size(int(size))}"
        sweep = _estimate(summary, metric, str(algorithm), int(size))
        if sweep is None:
            unpaired.append(label)
            missing += [] if int(size) in missing else [int(size)]
            continue
        best = _estimate(summary, "mib_per_s", str(algorithm), int(size))
        lo, hi, level = stats.median_interval(values)
        again = stats.Estimate(float(pl.Series(values).median()), lo, hi, len(values), level)
        above = best.median / sweep.median if whole_run and best is not None and sweep.median > 0 else None
        cases.append((label, claims.compare(again, sweep), above))
    if not cases and not unpaired:
        return nothing
    kind = "over the whole run" if whole_run else "of the fastest slice"
    text = (
        f"Our half of this cross-check is the size sweep's loop run again, later, alternating with {tool}, the rate "
        f"{kind} in both."
    )
    if cases:
        groups: dict[str, list[str]] = {}
        for label, c, _ in cases:
            groups.setdefault(_again_label(c), []).append(label)
        clear = [f"{word} for {fmt.listed(groups[word])}" for word in _AGAIN_ORDER if word in groups]
        said = [f"by the intervals, ours ran {'; '.join(clear)}"] if clear else []
        if "overlap" in groups:
            n, first = len(groups["overlap"]), groups["overlap"][0]
            who = first if n == 1 else f"the other {fmt.exact(n)}" if clear else _all_of(n, n)
            said.append(f"for {who} the intervals overlap")
        whole = f"the {fmt.count(len(cases), 'case')}" if len(cases) > 1 else "the one case"
        ratios = [c.ratio for _, c, _ in cases if c.ratio is not None]
        spread = f" ran at {_ratio_range(ratios)} of it by the medians" if ratios else ""
        text += f" Beside the sweep's rate for the same hash and block, {whole}{spread}; " + "; ".join(said) + "."
        above = [a for _, _, a in cases if a is not None]
        if above:
            text += (
                f" The sweep's fastest slices, which its chart shows, ran at {_ratio_range(above)} its whole-run "
                "rates by the medians."
            )
    if unpaired:
        text += (
            f" The sweep did not measure blocks of {fmt.listed([fmt.size(b) for b in missing])}, so "
            + f"{fmt.listed(unpaired)} "
            + ("is" if len(unpaired) == 1 else "are")
            + " not set beside it."
        )
    if cases:
        text += (
            " Same code, same block: where the two differ, the moment each ran may be why (other work on the CPU, "
            "which a longer measurement filters less)."
        )
    return (
        text + f" The chapter's figures are the sweep's; these runs serve only as {tool}'s partner in its ratio (each "
        "case's figures are in the table)."
    )


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
