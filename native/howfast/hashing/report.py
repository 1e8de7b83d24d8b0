"""Tables, chart data and sentences for the hashing chapter, from its stored results.

Code compares the algorithms' ids (``experiments.ALGORITHMS``); what a reader sees is
``ALGORITHM_NAMES``, applied by ``named`` as the last step before a table or chart. Every
sentence whose words depend on the data is here, tested for each of its branches.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from .. import claims, fmt, reference, stats
from ..checks import checked
from ..crosscheck import side_by_side

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
LAPTOP = "laptop MiB/s (seed 000)"
PHONE = "phone MiB/s (seed 001)"


def named(frame: pl.DataFrame) -> pl.DataFrame:
    """Algorithm ids replaced by the words the chapter uses (column ``hash``)."""
    if "algorithm" not in frame.columns:
        return frame
    return frame.with_columns(pl.col("algorithm").replace_strict(ALGORITHM_NAMES, default=pl.col("algorithm"))).rename(
        {"algorithm": "hash"}
    )


def throughput_curves(
    native: pl.DataFrame, metric: str = "mib_per_s", algorithms: list[str] | None = None
) -> pl.DataFrame:
    """Median, min and max of `metric` per algorithm and input size (for the chart)."""
    summary = stats.summarize(native, ["algorithm", "size"]).filter(pl.col("metric") == metric)
    if algorithms is not None:
        summary = summary.filter(pl.col("algorithm").is_in(algorithms))
    return named(summary.select("algorithm", "size", "median", "min", "max"))


def seed_figures() -> pl.DataFrame:
    """The seeds' hash throughputs (MiB/s), one row per seed hash, a column per machine."""
    ref = reference.load("hashing").filter(pl.col("metric") == "mib_per_s")
    wide = ref.pivot(on="machine", index="algorithm", values="value")
    return wide.with_columns(pl.col("algorithm").replace_strict(SEED_ALGORITHMS).alias("ours")).rename(
        {"algorithm": "seed name"}
    )


def reference_table(native: pl.DataFrame, size: int, small: int) -> pl.DataFrame:
    """Every algorithm at the table's input size: median MiB/s with its range, ns per hash,
    ns per hash at the `small` size, and the seeds' laptop and phone where they name it."""
    summary = stats.summarize(native, ["algorithm", "size"])
    rows = []
    seeds = {r["ours"]: r for r in seed_figures().iter_rows(named=True)}
    for algorithm in ALGORITHM_NAMES:
        at = summary.filter((pl.col("algorithm") == algorithm) & (pl.col("size") == size))
        rate = at.filter(pl.col("metric") == "mib_per_s")
        seed = seeds.get(algorithm, {})
        rows.append(
            {
                "algorithm": algorithm,
                "MiB/s": rate["median"][0] if rate.height else None,
                "range": fmt.span(rate["min"][0], rate["max"][0]) if rate.height else fmt.NA,
                "ns per hash": _pick(summary, "ns_per_hash", algorithm, size),
                small_column(small): _pick(summary, "ns_per_hash", algorithm, small),
                LAPTOP: _seed_cell(seed.get("laptop"), algorithm in seeds),
                PHONE: _seed_cell(seed.get("phone"), algorithm in seeds),
                "note": _note(native, algorithm),
            }
        )
    table = named(pl.DataFrame(rows, schema_overrides={LAPTOP: pl.String, PHONE: pl.String}))
    if table["note"].drop_nulls().len() == 0:
        table = table.drop("note")
    return table


def _seed_cell(value: float | None, named_by_seed: bool) -> str:
    """A seed's MiB/s as the table prints it, or why the cell is empty."""
    if value is not None:
        return fmt.num(value)
    return "not given" if named_by_seed else "not measured"


def seed_comparison(native: pl.DataFrame, size: int, this_machine: str) -> pl.DataFrame:
    """The seeds' eight hashes, by the seeds' names: this machine's median (with its range)
    at `size` beside the laptop's and the phone's figures (a single figure each), for a
    grouped bar chart."""
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
                    "min": ours["min"][0],
                    "max": ours["max"][0],
                }
            )
        for machine, words in SEED_MACHINES.items():
            value = seed.get(machine)
            if value is not None:
                rows.append({"hash": label, "machine": words, "median": value, "min": value, "max": value})
    return pl.DataFrame(
        rows,
        schema={"hash": pl.String, "machine": pl.String, "median": pl.Float64, "min": pl.Float64, "max": pl.Float64},
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
    '250 ns' where Python was clearly slower, 'unclear' where the runs overlap, 'nothing
    measurable' within ``PY_DRIFT``, 'none: this build was faster' where Python's package
    was clearly faster (another build of the code), 'n/a' where either is missing. With
    `other_build` (a wheel's own copy of the code, on a large input, where a call's cost
    is lost in the bytes) a clearly slower Python row is the build's, not the call's. With
    `large` (an input whose hash takes far longer than a call), medians within ``PY_DRIFT``
    are the drift between the two sets, not a cost of the call."""
    c = claims.compare(python_ns, native_ns)
    if c.direction in (claims.HIGHER, claims.LOWER) and c.lo is not None and c.hi is not None:
        if 1 / PY_DRIFT <= c.lo and c.hi <= PY_DRIFT:
            return "nothing measurable"
        if large and c.ratio is not None and 1 / PY_DRIFT <= c.ratio <= PY_DRIFT:
            return "nothing measurable"
    if c.direction == claims.HIGHER and python_ns is not None and native_ns is not None:
        if other_build:
            return f"not the call: the package's own build ran {fmt.ratio(c.ratio)} slower"
        return f"{fmt.num(python_ns.median - native_ns.median)} ns"
    if c.direction == claims.LOWER:
        return "none: the package's build was faster"
    if c.direction == claims.SAME_WORD:
        return "nothing measurable"
    if c.direction == claims.UNCLEAR:
        return "unclear: the runs overlap"
    return fmt.NA


def python_table(python: pl.DataFrame, native: pl.DataFrame, sizes: list[int]) -> pl.DataFrame:
    """Per algorithm and size: ns per hash from Python and in the native loop (medians),
    and what the Python call adds (``python_adds``: only where the intervals show it)."""
    py = stats.summarize(python, ["algorithm", "module", "size"])
    nat = stats.summarize(native, ["algorithm", "size"])
    rows = []
    for algorithm, module in python.select("algorithm", "module").unique(maintain_order=True).iter_rows():
        for size in sizes:
            p = _estimate(py.drop("module"), "ns_per_hash", algorithm, size) if module else None
            n = _estimate(nat, "ns_per_hash", algorithm, size)
            own = algorithm in OWN_CODE.get(str(module), ())
            rows.append(
                {
                    "algorithm": algorithm,
                    "Python package": module,
                    "input": fmt.size(size),
                    "Python ns per hash": None if p is None else p.median,
                    "native ns per hash": None if n is None else n.median,
                    "Python adds": OWN_CODE_WORDS
                    if own and p is not None and n is not None
                    else python_adds(
                        p, n, other_build=module != "hashlib" and size >= LARGE_INPUT, large=size >= LARGE_INPUT
                    ),
                }
            )
    return named(
        pl.DataFrame(rows, schema_overrides={k: pl.Float64 for k in ("Python ns per hash", "native ns per hash")})
    )


def small_column(small: int) -> str:
    """The reference table's column of nanoseconds per hash of the smallest input."""
    return f"ns per hash of {fmt.size(small)}"


#: Python calls that run code of their own, not the library of our native loop: hashlib's
#: BLAKE2 is Python's own C code, not OpenSSL's.
OWN_CODE = {"hashlib": ("blake2b512",)}
OWN_CODE_WORDS = "not comparable: Python's own BLAKE2, not OpenSSL's"

#: Python calls that reach the same code as our native loop (hashlib's BLAKE2 is Python's
#: own, and the PyPI wheels carry their own copies: the same algorithm, another build).
SAME_LIBRARY = ("sha3-256", "sha256", "sha1", "md5")


def python_sentence(python: pl.DataFrame, native: pl.DataFrame, size: int) -> str:
    """What a Python call costs at `size`: the time per hash from Python and natively, and
    what Python added to the calls that reach the same library (hashlib's OpenSSL), where
    the intervals show a difference."""
    table = python_table(python, native, [size]).drop_nulls(["Python ns per hash", "native ns per hash"])
    if table.height == 0:
        return f"No hash could be timed both from Python and natively at {fmt.size(size)} here."
    py, nat = table["Python ns per hash"], table["native ns per hash"]
    text = (
        f"On {fmt.size_adjective(size)} inputs a hash took {fmt.span(py.min(), py.max())} ns from Python and "
        f"{fmt.span(nat.min(), nat.max())} ns in the native loop"
    )
    same = table.filter(pl.col("hash").is_in([ALGORITHM_NAMES[a] for a in SAME_LIBRARY]))
    if same.height == 0:
        return text + "."
    added = same.filter(pl.col("Python adds").str.ends_with(" ns"))
    if added.height == 0:
        return text + "; for the hashlib calls that reach the same OpenSSL code, the runs did not tell the two apart."
    extra = (added["Python ns per hash"] - added["native ns per hash"]).median()
    calls = fmt.count(same.height, "hashlib call")
    share = f"{fmt.exact(added.height)} of the {calls} to the same OpenSSL code"
    return text + (
        f". Where the runs tell them apart ({share}), Python added a median {fmt.num(float(extra))} ns per call, "
        f"{fmt.ratio_of(float(extra), float(added['native ns per hash'].median()))} the native hash itself."
    )


def python_overhead(python: pl.DataFrame, native: pl.DataFrame, size: int) -> tuple[float | None, float | None]:
    """The least and the most a Python call added over the native loop (ns per hash) at
    `size`, over the calls where the intervals show Python slower."""
    table = python_table(python, native, [size]).filter(pl.col("Python adds").str.ends_with(" ns"))
    extra = (table["Python ns per hash"] - table["native ns per hash"]).drop_nulls()
    if extra.len() == 0:
        return None, None
    return float(extra.min()), float(extra.max())


def features_table(details: dict[str, Any]) -> pl.DataFrame:
    """Each CPU feature: listed in /proc/cpuinfo, seen by OpenSSL (its OPENSSL_ia32cap), used by."""
    flags = details.get("cpu_flags") or {}
    openssl = details.get("openssl_ia32cap")
    rows = []
    for flag, (words, used) in FEATURES.items():
        seen = None if openssl is None or flag not in openssl else openssl[flag]
        rows.append({"feature": words, "this CPU": flags.get(flag), "OpenSSL sees it": seen, "what uses it": used})
    return pl.DataFrame(rows, schema_overrides={"this CPU": pl.Boolean, "OpenSSL sees it": pl.Boolean})


def sha_path_sentence(details: dict[str, Any]) -> str:
    """Which SHA-256 code path OpenSSL took, as far as its capability vector tells."""
    openssl = details.get("openssl_ia32cap")
    flags = details.get("cpu_flags") or {}
    if openssl is None:
        return (
            "The openssl command was not there to print its view of this CPU (openssl version -a), so which "
            "SHA-256 code path libcrypto took is not known here."
        )
    if openssl.get("sha_ni"):
        return (
            "OpenSSL sees the SHA extensions on this CPU (bit 29 of the third word of its OPENSSL_ia32cap vector), "
            "so its "
            "SHA-1 and SHA-256 ran on the SHA-NI instructions: one sha256rnds2 does two of SHA-256's 64 rounds "
            "(sha1rnds4 four of SHA-1's 80) and two more instructions prepare the message schedule, where software "
            "spends a dozen or so additions, rotations and logic operations on every round."
        )
    if flags.get("sha_ni"):
        return (
            "This CPU lists the SHA extensions, but OpenSSL's capability vector has them masked off (an "
            "OPENSSL_ia32cap setting, or a hypervisor hiding them from cpuid), so SHA-1 and SHA-256 ran in software."
        )
    path = "AVX2" if openssl.get("avx2") else "SSE"
    return (
        f"This CPU has no SHA extensions, so OpenSSL computed SHA-1 and SHA-256 in software, on its {path} path: "
        "every round is additions, rotations and table lookups."
    )


def surprise_sentence(native: pl.DataFrame, size: int) -> str:
    """What this machine can and cannot say about the seeds' surprise: their figures are
    not like with like with ours (the seeds name neither library nor input size), so no
    ratio; what this machine shows is how far the implementation alone moves a figure."""
    summary = stats.summarize(native, ["algorithm", "size"])
    crc = claims.compare(
        _estimate(summary, "mib_per_s", "crc32c_isal", size), _estimate(summary, "mib_per_s", "crc32c_sse42", size)
    )
    xxh = claims.compare(
        _estimate(summary, "mib_per_s", "xxh3_64_dispatch", size), _estimate(summary, "mib_per_s", "xxh3_64", size)
    )
    lead = (
        "The seeds name neither the library nor the input size behind their figures, so this machine's rows are "
        "not comparable with theirs hash by hash, and the chapter prints no ratio between them."
    )
    moved = [
        f"two CRC32C implementations on the same CPU, {_apart(crc)} apart"
        if crc.direction in (claims.HIGHER, claims.LOWER)
        else "",
        f"two entry points of the same XXH3 library, {_apart(xxh)} apart"
        if xxh.direction in (claims.HIGHER, claims.LOWER)
        else "",
    ]
    moved = [m for m in moved if m]
    if not moved:
        return lead + " Nor did this machine show the implementation alone moving a figure clearly: see below."
    return (
        lead
        + " What this machine can show is how far the implementation alone moves a figure on one CPU: "
        + " and ".join(moved)
        + "."
    )


def _apart(c: claims.Comparison) -> str:
    r = c.ratio or 1.0
    return fmt.ratio(max(r, 1 / r))


def fnv_note(native: pl.DataFrame, size: int) -> str:
    """Why our FNV-1a row is not the seeds' 'fnv': a byte-at-a-time FNV-1a is one chain of
    dependent multiplies, and the seeds' 'fnv' ran faster than their own xxhash, which such a
    loop cannot do; said only when the figures show it."""
    seeds = {r["ours"]: r for r in seed_figures().iter_rows(named=True)}
    laptop_fnv, laptop_xxh = seeds["fnv1a_64"].get("laptop"), seeds["xxh64"].get("laptop")
    summary = stats.summarize(native, ["algorithm", "size"])
    ours = claims.compare(
        _estimate(summary, "mib_per_s", "fnv1a_64", size), _estimate(summary, "mib_per_s", "xxh64", size)
    )
    if laptop_fnv is None or laptop_xxh is None or not laptop_fnv > laptop_xxh or ours.direction != claims.LOWER:
        return 'The seeds do not say which variant of FNV their "fnv" was; we put it beside FNV-1a 64.'
    return (
        'One row stands out: the seeds\' "fnv" ran faster than their own xxhash, while our FNV-1a, which reads one '
        f"byte per step and waits for each step's multiply, ran {versus(ours, 'XXH64')} here. "
        'The seeds\' "fnv" was most likely another variant (one that reads whole words), so that row '
        "compares two different hashes."
    )


def speed_sentence(native: pl.DataFrame, a: str, b: str, size: int) -> str:
    """'XXH3 ... ran at X MiB/s and SHA-256 at Y MiB/s: 34× faster than SHA-256', the word
    from ``claims.compare`` on the intervals."""
    summary = stats.summarize(native, ["algorithm", "size"])
    ea, eb = _estimate(summary, "mib_per_s", a, size), _estimate(summary, "mib_per_s", b, size)
    name_a, name_b = ALGORITHM_NAMES[a], ALGORITHM_NAMES[b]
    if ea is None or eb is None:
        return f"{name_a} and {name_b} could not both run at {fmt.size(size)} here, so they are not compared."
    c = claims.compare(ea, eb)
    return (
        f"At {fmt.size(size)} {name_b} ran at {fmt.num(eb.median)} MiB/s and {name_a} at {fmt.num(ea.median)} "
        f"MiB/s, {versus(c, name_b)}."
    )


def largest_sentence(native: pl.DataFrame, algorithm: str, size: int, caches: list[claims.Cache]) -> str:
    """The rate at the largest input, with where that input lives in this machine's caches."""
    summary = stats.summarize(native, ["algorithm", "size"])
    e = _estimate(summary, "mib_per_s", algorithm, size)
    where = claims.cache_words(size, caches)
    rate = fmt.NA if e is None else f"{fmt.num(e.median)} MiB/s"
    return f"At {fmt.size(size)}, an input that {where}, {ALGORITHM_NAMES[algorithm]} ran at {rate}."


def slowest_note(native: pl.DataFrame, algorithm: str, size: int) -> str:
    """'SHA3-256 (382 MiB/s) was the slowest hash measured here' when the intervals say
    so (every other hash clearly faster); otherwise where it stood."""
    summary = stats.summarize(native, ["algorithm", "size"])
    mine = _estimate(summary, "mib_per_s", algorithm, size)
    if mine is None:
        return f"{ALGORITHM_NAMES[algorithm]} could not run here."
    others = [_estimate(summary, "mib_per_s", a, size) for a in ALGORITHM_NAMES if a != algorithm]
    slower = [o for o in others if o is not None and claims.compare(mine, o).direction == claims.HIGHER]
    head = f"{ALGORITHM_NAMES[algorithm]}, at {fmt.num(mine.median)} MiB/s here,"
    if not slower and all(o is None or claims.compare(mine, o).direction == claims.LOWER for o in others):
        return f"{head} was clearly the slowest hash measured on this machine"
    below = fmt.count(len(slower), "hash", "hashes")
    return f"{head} was not clearly the slowest hash measured on this machine ({below} clearly slower)"


def ranking_sentence(native: pl.DataFrame, size: int) -> str:
    """The fastest and the slowest hash at `size`, and how far apart they are."""
    summary = stats.summarize(native, ["algorithm", "size"])
    rates = summary.filter((pl.col("size") == size) & (pl.col("metric") == "mib_per_s")).sort("median", descending=True)
    if rates.height == 0:
        return f"No hash could be measured at {fmt.size(size)} here."
    if rates.height == 1:
        only = rates.row(0, named=True)
        return f"Only {ALGORITHM_NAMES[only['algorithm']]} could be measured, at {fmt.num(only['median'])} MiB/s."
    top, bottom = rates.row(0, named=True), rates.row(-1, named=True)
    return (
        f"At {fmt.size(size)} the fastest was {ALGORITHM_NAMES[top['algorithm']]} at {fmt.num(top['median'])} MiB/s "
        f"and the slowest {ALGORITHM_NAMES[bottom['algorithm']]} at {fmt.num(bottom['median'])} MiB/s: "
        f"{fmt.ratio_of(top['median'], bottom['median'])} apart."
    )


def dispatch_sentence(native: pl.DataFrame, size: int) -> str:
    """libxxhash's dispatching XXH3 entry point against its baseline one, at `size`."""
    summary = stats.summarize(native, ["algorithm", "size"])
    base = _estimate(summary, "mib_per_s", "xxh3_64", size)
    wide = _estimate(summary, "mib_per_s", "xxh3_64_dispatch", size)
    if base is None or wide is None:
        return "The two XXH3 entry points of libxxhash could not both run here, so they are not compared."
    c = claims.compare(wide, base)
    lesson = {
        claims.HIGHER: " A program that calls the obvious function leaves that speed on the table.",
        claims.LOWER: " Here the wider loop did not pay; this run cannot say why.",
    }.get(c.direction, " At this size the runs were too noisy to say whether the wider loop paid.")
    other = f"the same library's baseline entry point, at {fmt.num(base.median)} MiB/s"
    return (
        f"At {fmt.size(size)}, XXH3 through the dispatching entry point ran at {fmt.num(wide.median)} MiB/s, "
        f"{versus(c, other)}.{lesson}{_dispatch_sizes(summary, size)}"
    )


#: Two x86 cores a few years apart differ per core by well under this factor on the same code.
SAME_CODE_GAP = 3.0


def sha3_laptop_sentence(native: pl.DataFrame, size: int) -> str:
    """Whether the laptop's SHA3-256 figure looks like a slow implementation: said only
    when OpenSSL's SHA3-256 on this x86 CPU ran clearly more than ``SAME_CODE_GAP`` times
    the laptop's figure (more than a CPU generation explains); otherwise no guess."""
    laptop = {r["ours"]: r for r in seed_figures().iter_rows(named=True)}.get("sha3-256", {}).get("laptop")
    ours = _estimate(stats.summarize(native, ["algorithm", "size"]), "mib_per_s", "sha3-256", size)
    unknown = (
        "Whatever made the phone's SHA3-256 faster than the laptop's was in the software the seed ran, which it "
        "does not name."
    )
    if laptop is None or ours is None or ours.lo is None or ours.lo < SAME_CODE_GAP * laptop:
        return unknown
    return (
        f"More likely the laptop's figure is low: OpenSSL ran SHA3-256 at {fmt.num(ours.median)} MiB/s on this "
        f"x86 CPU, {fmt.ratio_of(ours.median, laptop)} the laptop's {fmt.num(laptop)} MiB/s, and two x86 cores of "
        "recent generations differ per core by far less on the same code, so the laptop most likely ran a slower "
        "implementation, which the seed does not name."
    )


def crc_path_sentence(details: dict[str, Any]) -> str:
    """How ISA-L computes CRC32C on this CPU, from the features it lists: with AVX-512 and
    VPCLMULQDQ a folding loop that uses no crc32 instruction; with PCLMULQDQ and SSE4.2
    three crc32 chains folded together; without them a table-driven loop."""
    flags = details.get("cpu_flags") or {}
    if not flags:
        return "Which CRC32C loop ISA-L picked is not known here: the CPU's features were not recorded."
    if flags.get("avx512f") and flags.get("avx512vl") and flags.get("vpclmulqdq"):
        return (
            "This CPU has AVX-512 and VPCLMULQDQ, and for such CPUs ISA-L picks, at run time, a loop that does not "
            "use the crc32 instruction at all: it folds the buffer 64 bytes per register with wide carry-less "
            "multiplications and reduces the result to a CRC only at the end."
        )
    if flags.get("pclmulqdq") and flags.get("sse4_2"):
        return (
            "ISA-L splits the buffer into three streams, runs a crc32 chain on each in parallel and folds the "
            "partial CRCs together with carry-less multiplications (PCLMULQDQ)."
        )
    return "This CPU lacks SSE4.2 or PCLMULQDQ, so ISA-L computes CRC32C with a table-driven loop."


def crc_sentence(native: pl.DataFrame, size: int) -> str:
    """ISA-L's CRC32C against our one-stream loop over the same crc32 instruction."""
    summary = stats.summarize(native, ["algorithm", "size"])
    isal = _estimate(summary, "mib_per_s", "crc32c_isal", size)
    one = _estimate(summary, "mib_per_s", "crc32c_sse42", size)
    if isal is None or one is None:
        missing = [name for name, v in (("ISA-L's CRC32C", isal), ("the crc32 instruction loop", one)) if v is None]
        words = " and ".join(missing)
        return f"{words[0].upper()}{words[1:]} could not run here, so the two CRC32C paths are not compared."
    c = claims.compare(isal, one)
    return f"At {fmt.size(size)}, ISA-L's CRC32C was {versus(c, 'our loop of one crc32 instruction after another')}."


def openssl_small_block_sentence(table: pl.DataFrame) -> str:
    """What the smallest block's verdict against ``openssl speed`` says: our loop reuses one
    digest context where ``openssl speed`` (EVP_Digest) creates and frees one per call,
    so a lead of ours there has a reason; a deficit has none this run can name."""
    nothing = "No block size ran both here, so the per-call cost of openssl speed is not seen."
    if "verdict" not in table.columns or table.height == 0:
        return nothing
    rows = table.filter(pl.col("verdict").is_not_null())
    if rows.height == 0:
        return nothing
    smallest = rows.row(int(rows["block"].map_elements(_block_bytes, return_dtype=pl.Int64).arg_min()), named=True)
    where = f"On {fmt.size_adjective(_block_bytes(smallest['block']))} blocks of {smallest['hash']},"
    less_work = (
        "it reuses one digest context, where openssl speed calls EVP_Digest, which creates and frees one per call"
    )
    if smallest["verdict"] == "ours higher":
        return (
            f"{where} ours was faster, as expected: openssl speed calls EVP_Digest, which creates and frees a "
            "digest context for every call, where our loop reuses one."
        )
    if smallest["verdict"] == "ours lower":
        return f"{where} ours was slower although it does less work per call: {less_work}. This run cannot say why."
    if smallest["verdict"] == "agrees":
        return f"{where} ours agreed with openssl speed, although it does less work per call: {less_work}."
    return f"{where} the rounds could not tell the two apart, although ours does less work per call: {less_work}."


def _block_bytes(text: str) -> int:
    number, _, unit = text.partition(" ")
    return int(float(number.replace(",", "")) * {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}.get(unit, 1))


def crosscheck_table(metrics: pl.DataFrame, tool: str) -> pl.DataFrame:
    """Ours beside `tool` per algorithm and block size, in MiB/s."""
    table = side_by_side(metrics, ["algorithm", "size"], "mib_per_s", unit="MiB/s", tool=tool)
    return named(
        table.with_columns(pl.col("size").map_elements(fmt.size, return_dtype=pl.String).alias("block")).drop("size")
    ).select(["hash", "block", *[c for c in table.columns if c not in ("algorithm", "size")]])


def versus(
    c: claims.Comparison, other: str, *, more: str = "faster", less: str = "slower", same: str = "about as fast as"
) -> str:
    """``claims.phrase`` followed by what it compares with, the ratio's parenthesis after
    it: '2× faster than SHA-256', 'about as fast as SHA-256 (1.01×)', 'not clearly faster
    or slower than SHA-256 (1.3× by the medians; the runs overlap)'."""
    if c.direction == claims.UNCLEAR and c.ratio is not None:
        return f"not clearly {more} or {less} than {other} ({fmt.num(c.ratio, 2)}× by the medians; the runs overlap)"
    if c.direction == claims.SAME_WORD and c.ratio is not None:
        return f"{same} {other} ({fmt.num(c.ratio, 3)}×)"
    return f"{claims.phrase(c, more=more, less=less, same=same)} {other}"


#: A hash slowed at large inputs when its whole ratio interval lies below 1 / DROP.
DROP = 1.25
#: From this input size up a call's fixed cost no longer decides a hash's rate.
LARGE_INPUT = 1024


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
    faster, slower = outcomes.count(claims.HIGHER), outcomes.count(claims.LOWER)
    n = fmt.count(len(outcomes), "input size")
    tally = f" Of the {n} from {fmt.size(LARGE_INPUT)} up, the dispatching entry point was clearly faster at " + (
        f"{fmt.exact(faster)}" + (f" and clearly slower at {fmt.exact(slower)}" if slower else "")
    )
    rest = len(outcomes) - faster - slower
    if rest:
        tally += f"; at {fmt.exact(rest)} the runs could not tell them apart"
    return tally + "."


def large_input_sentence(
    native: pl.DataFrame, at: int, largest: int, caches: list[claims.Cache], slice_seconds: float
) -> str:
    """The hashes that ran clearly slower at the largest input than at the table's size,
    and what this run can say about why: whether the input still fits in a cache (then
    memory is not the limit, and the fastest hash's rate there shows it), and whether one
    call outlasts a slice of the measurement (then the fastest slice no longer filters out
    other programs on a busy CPU)."""
    summary = stats.summarize(native, ["algorithm", "size"])
    slowed = []
    for algorithm in ALGORITHM_NAMES:
        small, large = (_estimate(summary, "mib_per_s", algorithm, s) for s in (at, largest))
        c = claims.compare(large, small)
        if c.direction == claims.LOWER and c.hi is not None and c.hi <= 1 / DROP:
            slowed.append((algorithm, small, large))
    if largest <= at:
        return f"The sweep stops at {fmt.size(largest)}, so it has no input larger than the table's to compare."
    if not slowed:
        return f"No hash ran clearly slower, by a fifth or more, at {fmt.size(largest)} than at {fmt.size(at)}."
    listed = "; ".join(
        f"{ALGORITHM_NAMES[a]} from {fmt.num(s.median)} to {fmt.num(e.median)} MiB/s" for a, s, e in slowed
    )
    text = (
        f"At {fmt.size(largest)}, {fmt.count(len(slowed), 'hash', 'hashes')} ran clearly slower, by a fifth or "
        f"more, than at {fmt.size(at)}: {listed}."
    )
    rates = summary.filter((pl.col("size") == largest) & (pl.col("metric") == "mib_per_s")).sort(
        "median", descending=True
    )
    if claims.cache_level(largest, caches) is not None and rates.height:
        top = rates.row(0, named=True)
        text += (
            f" The input still {claims.cache_words(largest, caches)}, and from it {ALGORITHM_NAMES[top['algorithm']]} "
            f"read {fmt.num(top['median'])} MiB/s, so waiting for memory does not explain the drop."
        )
    else:
        text += f" The input {claims.cache_words(largest, caches)}, so memory may share in the drop."
    calls = [_estimate(summary, "ns_per_hash", a, largest) for a, _, _ in slowed]
    shortest = min((c.median for c in calls if c is not None), default=None)
    if shortest is not None and shortest >= slice_seconds * 1e9:
        text += (
            f" Each of their calls there took {fmt.duration_us(shortest / 1e3)} or more, longer than a slice of "
            "the measurement "
            f"({fmt.duration_us(slice_seconds * 1e6)}): no slice was short enough to fall between the other programs' "
            "turns on this shared CPU, so the fastest slice no longer filtered them out. The drop is most likely the "
            "machine's load, not the hash."
        )
    else:
        text += " This run cannot say what slowed them."
    return text


def crosscheck_again_sentence(native: pl.DataFrame, vs: pl.DataFrame, tool: str, *, whole_run: bool) -> str:
    """Our half of a cross-check is the size sweep's loop run again, later, at one block size:
    the two figures of the same loop side by side, with the words the intervals allow, and
    which of them the chapter quotes."""
    summary = stats.summarize(native, ["algorithm", "size"])
    metric = "mean_mib_per_s" if whole_run else "mib_per_s"
    nothing = f"Our loop did not run beside {tool} here, so every figure of ours on this page is the size sweep's."
    if not {"algorithm", "size", "tool", "metric", "value"} <= set(vs.columns):
        return nothing
    ours = vs.filter((pl.col("tool") == "howfast") & (pl.col("metric") == "mib_per_s"))
    parts = []
    for (algorithm, size), rows in ours.group_by(["algorithm", "size"], maintain_order=True):
        values = rows["value"].drop_nulls().to_list()
        sweep = _estimate(summary, metric, str(algorithm), int(size))
        best = _estimate(summary, "mib_per_s", str(algorithm), int(size))
        if not values or sweep is None:
            continue
        lo, hi, level = stats.median_interval(values)
        again = stats.Estimate(float(pl.Series(values).median()), lo, hi, len(values), level)
        c = claims.compare(again, sweep)
        words = {
            claims.HIGHER: f"clearly higher ({fmt.ratio(c.ratio)})",
            claims.LOWER: f"clearly lower ({fmt.ratio(c.ratio)})",
            claims.SAME_WORD: "about the same",
        }.get(c.direction, f"{fmt.num(c.ratio or 1.0, 2)}× by the medians, but within the runs' spread")
        parts.append(
            f"{ALGORITHM_NAMES.get(str(algorithm), str(algorithm))} on {fmt.size_adjective(int(size))} blocks, "
            f"{fmt.num(again.median)} MiB/s beside {tool} and {fmt.num(sweep.median)} MiB/s in the size sweep: {words}"
            + (
                f" (the sweep's fastest slices, which its chart shows, ran at {fmt.num(best.median)} MiB/s)"
                if whole_run and best is not None
                else ""
            )
        )
    if not parts:
        return nothing
    kind = "over the whole run" if whole_run else "of the fastest slice"
    return (
        f"Our half of this cross-check is the size sweep's loop run again, later, alternating with {tool} (the rate "
        f"{kind} in both): " + "; ".join(parts) + ". Same code, same block; where the two differ, the machine's "
        "load at the time did, not the loop. The chapter's figures are the sweep's; these runs serve only as "
        f"{tool}'s partner in its ratio."
    )


# every public function above refuses bad arguments with a clear exception
checked(globals(), only=("DataFrame", "Case", "Mapping", "dict", "str"))
