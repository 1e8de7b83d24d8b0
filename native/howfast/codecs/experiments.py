"""The codecs subject's experiments: compression and decompression speed and ratio per
(codec, level, input, block size) in native loops over the libraries; sorts of 64-bit
integers in native loops and from Python; and the cross-checks (``crosscheck``).

``measure`` runs every experiment through ``bench.run`` in one scratch directory (the
cross-check writes its input there for the tools) and hands each to the results store;
the native loops are ``native/src/codecs/``.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import numpy as np

from .. import _native
from ..bench import Case, Outcome, Unsupported, run
from ..checks import checked
from ..paths import book_root
from ..profiles import Profile
from ..scratch import Scratch
from ..store import Writer
from . import crosscheck

#: The shape of what this subject stores; bump it when its cases, ids or metrics change.
SCHEMA = 2

COMPRESS = "compress"
SORT = "sort"
PYTHON_SORT = "python_sort"
VS_ZSTD = crosscheck.VS_ZSTD
VS_LZ4 = crosscheck.VS_LZ4

#: Each input: what a reader would recognise it as.
INPUTS: dict[str, str] = {
    "text": "the book's own sources (its chapters, README and Python code)",
    "json": "JSON log lines (a web service's access log, made up with a fixed seed)",
    "csv": "a CSV of numbers (ids, timestamps, prices, quantities; fixed seed)",
    "binary": "the book's native module (a compiled shared library)",
    "random": "random bytes (incompressible)",
}

#: Each measurement is cut into this many slices of equal work; its rate is that of the
#: fastest slice (other programs share this CPU), ``mean_mb_per_s`` that of the whole run.
SLICES = 3


def _book_text() -> bytes:
    root = book_root(Path(__file__).resolve().parent) or book_root()
    if root is None:
        raise Unsupported("text: the book's sources are not here (run from a checkout)")
    files = [*sorted((root / "chapters").glob("*.qmd")), root / "README.md", root / "index.qmd"]
    files += sorted((root / "native" / "howfast").rglob("*.py"))
    return b"".join(f.read_bytes() for f in files if f.is_file())


def _json_lines(size: int) -> bytes:
    rng = np.random.default_rng(23)
    paths = ["/api/users", "/api/orders", "/static/app.js", "/api/search", "/health", "/api/cart"]
    out: list[bytes] = []
    total, t = 0, 1_780_000_000.0
    while total < size:
        n = 4096
        status = rng.choice([200, 200, 200, 201, 204, 301, 404, 500], n)
        for i in range(n):
            t += float(rng.exponential(0.004))
            line = json.dumps({
                "ts": round(t, 3), "level": "error" if status[i] >= 500 else "info", "service": "api",
                "method": "GET" if i % 4 else "POST", "path": f"{paths[i % len(paths)]}/{int(rng.integers(1, 99999))}",
                "status": int(status[i]), "ms": round(float(rng.lognormal(2.5, 0.8)), 2),
                "bytes": int(rng.integers(64, 65536)), "user": f"u{int(rng.integers(1, 50000)):05d}",
            }).encode() + b"\n"  # fmt: skip
            out.append(line)
            total += len(line)
    return b"".join(out)[:size]


def _csv_numbers(size: int) -> bytes:
    rng = np.random.default_rng(24)
    rows = max(16, size // 40)
    ids = np.arange(rows) + 1_000_000
    ts = 1_780_000_000 + np.cumsum(rng.integers(0, 1000, rows))
    price = np.round(rng.lognormal(3, 1, rows), 2)
    qty = rng.integers(1, 500, rows)
    lines = [f"{a},{b},{c:.2f},{d}\n" for a, b, c, d in zip(ids.tolist(), ts.tolist(), price.tolist(), qty.tolist())]
    return (b"id,ts,price,qty\n" + "".join(lines).encode())[:size]


def _binary() -> bytes:
    return Path(_native.__file__).read_bytes()


@lru_cache(maxsize=16)
def _input(name: str, size: int) -> bytes:
    if name == "text":
        return _book_text()[:size]
    if name == "json":
        return _json_lines(size)
    if name == "csv":
        return _csv_numbers(size)
    if name == "binary":
        return _binary()[:size]
    return np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8).tobytes()


def input_bytes(name: str, size: int) -> bytes:
    """Input `name` (one of ``INPUTS``), `size` bytes long (the text and the binary: at most
    their real length); the same bytes every call."""
    if name not in INPUTS:
        raise ValueError(f"name must be one of {', '.join(INPUTS)}; got {name!r}")
    if not 1 <= size <= 1 << 31:
        raise ValueError(f"size must be from 1 byte to 2 GiB, got {size}")
    return _input(name, size)


def _support(codec: str) -> str:
    support = _native.codec_support()
    if codec not in support:
        raise ValueError(f"unknown codec {codec!r}; choose from {sorted(support)}")
    return support[codec]


def _passes(loop: Callable[[int], dict], seconds: float) -> tuple[int, list[dict]]:
    """Runs of `loop` filling about `seconds`: one pass first; when that alone takes half the
    time (brotli -11, zstd -19 on a large input) it is the measurement; otherwise the pass
    count grows ×4 until a run lasts a quarter of a slice, then ``SLICES`` slices run."""
    first = loop(1)
    if first["elapsed_ns"] >= seconds * 1e9 / 2:
        return 1, [first]
    slice_ns = seconds * 1e9 / SLICES
    n, r = 1, first
    while r["elapsed_ns"] < slice_ns / 4 and n < 1 << 30:
        n *= 4
        r = loop(n)
    n = max(1, round(n * slice_ns / max(r["elapsed_ns"], 1)))
    return n, [loop(n) for _ in range(SLICES)]


def codec_speed(codec: str, level: int, data: bytes, block: int, seconds: float) -> Outcome:
    """One measurement of compression and decompression of `data` in blocks of `block` bytes
    (0: one block): MB/s of input for each (fastest slice, and over the whole run), the
    ratio (input / compressed) and the compressed size. Each loop's last pass is compared
    with `data` byte for byte in C++; here every pass's byte count is checked."""
    reason = _support(codec)
    if reason:
        raise Unsupported(f"{codec}: {reason}")
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    metrics: dict[str, tuple[float, str]] = {}
    compressed = 0
    # compressed once for the whole decompress measurement (its calibration calls and slices),
    # not once per call: at zstd -19 and brotli -11 a pass takes seconds
    packed, sizes = _native.compress(codec, level, data, block=block)

    def decompress(codec: str, level: int, data: bytes, n: int, *, block: int) -> dict:
        return _native.decompress_packed_loop(codec, level, packed, sizes, data, n, block=block)

    for name, loop in (("compress", _native.compress_loop), ("decompress", decompress)):

        def once(n: int, loop: Callable[..., dict] = loop) -> dict:
            return loop(codec, level, data, n, block=block)

        n, runs = _passes(once, seconds)
        for r in runs:
            if not r["round_trip"] or r["bytes"] != n * len(data):
                raise RuntimeError(f"{codec} {level}: {name} did not process every byte back to the input")
            want = n * r["compressed"] if name == "compress" else n * len(data)
            if r["checksum"] != want:
                raise RuntimeError(f"{codec} {level}: {name} passes produced {r['checksum']} bytes, expected {want}")
            compressed = r["compressed"]
        times = [max(r["elapsed_ns"], 1) for r in runs]
        metrics[f"{name}_mb_per_s"] = (n * len(data) / (min(times) / 1e9) / 1e6, "MB/s")
        metrics[f"{name}_mean_mb_per_s"] = (n * len(data) * len(times) / (sum(times) / 1e9) / 1e6, "MB/s")
    metrics["ratio"] = (len(data) / compressed, "x")
    metrics["compressed_bytes"] = (float(compressed), "B")
    metrics["input_bytes"] = (float(len(data)), "B")
    return Outcome(metrics)


def measure_codec(case: Case, scratch: Scratch | None) -> Outcome:
    data = input_bytes(case["input"], case["size"])
    return codec_speed(case["codec"], case["level"], data, case["block"], case["seconds"])


# ---- sorting ------------------------------------------------------------------------------------

#: The orders a sort meets, in the chapter's order.
ORDERS: dict[str, str] = {
    "random": "uniformly random 64-bit integers",
    "sorted": "already sorted",
    "reversed": "sorted backwards",
    "few_unique": "16 distinct values, shuffled",
}


def sort_input(order: str, n: int) -> np.ndarray:
    """`n` 64-bit unsigned integers in `order` (one of ``ORDERS``), the same every call
    (read-only: the last one made is kept, as the cases of one order follow each other)."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}; got {order!r}")
    if not 1 <= n <= 1 << 31:
        raise ValueError(f"n must be from 1 to 2**31, got {n}")
    return _sort_input(order, n)


@lru_cache(maxsize=1)
def _sort_input(order: str, n: int) -> np.ndarray:
    rng = np.random.default_rng(n)
    if order == "few_unique":
        values = rng.integers(0, 2**64, 16, dtype=np.uint64, endpoint=False)[rng.integers(0, 16, n)]
    else:
        values = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    if order == "sorted":
        values.sort()
    elif order == "reversed":
        values.sort()
        values = values[::-1].copy()
    values.flags.writeable = False
    return values


#: Inputs of at least this many bytes are sorted once per measurement (a sort takes
#: seconds); smaller ones at least ``SLICES`` times.
ONE_SORT_BYTES = 64 * 2**20


def _sorts_at_least(n: int) -> int:
    return 1 if n * 8 >= ONE_SORT_BYTES else SLICES


def _memory_available() -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _check_memory(n: int, copies: int) -> None:
    need = n * 8 * copies
    have = _memory_available()
    if have is not None and need > have * 0.8:
        raise Unsupported(f"{n:,} values need {need / 2**30:.1f} GiB and only {have / 2**30:.1f} GiB of memory is free")


def _sort_rates(n: int, times: list[int]) -> Outcome:
    best = min(times)
    return Outcome({
        "mb_per_s": (n * 8 / (best / 1e9) / 1e6, "MB/s"),
        "ns_per_element": (best / n, "ns"),
        "mean_mb_per_s": (n * 8 * len(times) / (sum(times) / 1e9) / 1e6, "MB/s"),
    })  # fmt: skip


def native_sort(algorithm: str, order: str, n: int, seconds: float) -> Outcome:
    """One measurement of a native sort of `n` values: its fastest of the sorts run in about
    `seconds` (at least ``SLICES``), each output checked for order and sum in C++."""
    if algorithm not in _native.sort_algorithms():
        raise ValueError(f"algorithm must be one of {', '.join(_native.sort_algorithms())}; got {algorithm!r}")
    _check_memory(n, 4)
    values = sort_input(order, n)
    want = int(values.sum(dtype=np.uint64))
    times = []
    deadline = time.perf_counter() + seconds
    while len(times) < _sorts_at_least(n) or time.perf_counter() < deadline:
        r = _native.sort_loop(algorithm, values, 1)
        if r["checksum"] != want:
            raise RuntimeError(f"{algorithm}: the sorted values' sum {r['checksum']} differs from the input's {want}")
        times.append(max(r["elapsed_ns"], 1))
    return _sort_rates(n, times)


def measure_sort(case: Case, scratch: Scratch | None) -> Outcome:
    return native_sort(case["algorithm"], case["order"], case["n"], case["seconds"])


#: From Python: what a program calls to sort an array of 64-bit integers.
PYTHON_SORTS = ("numpy.sort", "polars.sort")


def python_sort(library: str, order: str, n: int, seconds: float) -> Outcome:
    """One measurement of numpy's or polars' sort of `n` values (their default algorithm),
    the output checked for order and sum after each timed sort."""
    import polars as pl

    if library not in PYTHON_SORTS:
        raise ValueError(f"library must be one of {', '.join(PYTHON_SORTS)}; got {library!r}")
    _check_memory(n, 4)
    values = sort_input(order, n)
    want = values.sum(dtype=np.uint64)
    series = pl.Series("v", values)
    times = []
    deadline = time.perf_counter() + seconds
    while len(times) < _sorts_at_least(n) or time.perf_counter() < deadline:
        start = time.perf_counter_ns()
        out = np.sort(values) if library == "numpy.sort" else series.sort()
        times.append(max(time.perf_counter_ns() - start, 1))
        got = out if isinstance(out, np.ndarray) else out.to_numpy()
        if not (np.all(got[1:] >= got[:-1]) and got.sum(dtype=np.uint64) == want):
            raise RuntimeError(f"{library}: the output is not the input sorted")
    return _sort_rates(n, times)


def measure_python_sort(case: Case, scratch: Scratch | None) -> Outcome:
    return python_sort(case["library"], case["order"], case["n"], case["seconds"])


# ---- serialization ------------------------------------------------------------------------------

SERIAL = "serial"
PYTHON_SERIAL = "python_serial"

#: Native serialization cases: (operation, library).
NATIVE_SERIAL = (("parse", "simdjson"), ("parse", "rapidjson"), ("write", "rapidjson"), ("write", "binary"),
                 ("read", "binary"))  # fmt: skip
#: Python serialization cases: (operation, library); msgpack is msgspec's MessagePack.
PYTHON_SERIAL_CASES = (
    ("parse", "json"), ("write", "json"), ("parse", "orjson"), ("write", "orjson"),
    ("parse", "msgspec"), ("write", "msgspec"), ("read", "msgpack"), ("write", "msgpack"),
)  # fmt: skip
_PATHS = ("/api/users", "/api/orders", "/static/app.js", "/api/search", "/health", "/api/cart")


def records(n: int) -> dict:
    """`n` access-log records as columns (id, ts, status, ms, bytes as arrays; user and path
    as lists of str), the same every call."""
    if not 1 <= n <= 10_000_000:
        raise ValueError(f"n must be from 1 to 10 million records, got {n}")
    rng = np.random.default_rng(n + 7)
    return {
        "id": np.arange(n, dtype=np.int64) + 10_000_000,
        "ts": np.round(1_780_000_000 + np.cumsum(rng.exponential(0.004, n)), 3),
        "status": rng.choice([200, 200, 200, 201, 204, 301, 404, 500], n).astype(np.int64),
        "ms": np.round(rng.lognormal(2.5, 0.8, n), 2),
        "bytes": rng.integers(64, 65536, n, dtype=np.int64),
        "user": [f"u{int(x):05d}" for x in rng.integers(1, 50000, n)],
        "path": [f"{_PATHS[i % len(_PATHS)]}/{int(x)}" for i, x in enumerate(rng.integers(1, 99999, n))],
    }


def record_list(columns: dict) -> list[dict]:
    """The records as a list of dicts (what json.dumps writes and json.loads gives back)."""
    keys = ("id", "ts", "status", "ms", "bytes", "user", "path")
    lists = [columns[k].tolist() if isinstance(columns[k], np.ndarray) else list(columns[k]) for k in keys]
    return [dict(zip(keys, row)) for row in zip(*lists)]


def records_json(n: int) -> bytes:
    """The records as one JSON array, compact, written by Python's json."""
    return json.dumps(record_list(records(n)), separators=(",", ":")).encode()


def native_serial(operation: str, library: str, n: int, seconds: float) -> Outcome:
    """One measurement of a native parse, write or read of `n` records: MB/s of the text or
    dump and records/s of the fastest of ``SLICES`` slices; the sums of every field of the
    records read or written back are compared with the records' own."""
    if (operation, library) not in NATIVE_SERIAL:
        raise ValueError(f"(operation, library) must be one of {NATIVE_SERIAL}; got {(operation, library)!r}")
    reason = _native.serial_support().get(library, "")
    if reason:
        raise Unsupported(f"{library}: {reason}")
    columns = records(n)
    want = _native.record_sums(columns)
    text = records_json(n).decode() if operation == "parse" else ""

    def once(k: int) -> dict:
        if operation == "parse":
            return _native.parse_loop(library, text, k)
        if operation == "write":
            return _native.write_loop(library, columns, k)
        return _native.read_binary_loop(columns, k)

    k, runs = _passes(once, seconds)
    for r in runs:
        if r["sums"] != want:
            raise RuntimeError(f"{library} {operation}: the records' fields differ from the originals")
    best = max(min(r["elapsed_ns"] for r in runs), 1)
    size = runs[0]["bytes"]
    return Outcome({
        "mb_per_s": (k * size / (best / 1e9) / 1e6, "MB/s"),
        "records_per_s": (k * n / (best / 1e9), "records/s"),
        "bytes_per_record": (size / n, "B"),
    })  # fmt: skip


def measure_serial(case: Case, scratch: Scratch | None) -> Outcome:
    return native_serial(case["operation"], case["library"], case["records"], case["seconds"])


def python_serial(operation: str, library: str, n: int, seconds: float) -> Outcome:
    """One measurement of a Python library parsing or writing the same records (json, orjson,
    msgspec's JSON, msgspec's MessagePack), checked: what is parsed equals the records, what
    is written parses back to them."""
    if (operation, library) not in PYTHON_SERIAL_CASES:
        raise ValueError(f"(operation, library) must be one of {PYTHON_SERIAL_CASES}; got {(operation, library)!r}")
    module = {"json": "json", "orjson": "orjson", "msgspec": "msgspec", "msgpack": "msgspec"}[library]
    try:
        lib = importlib.import_module(module)
    except ImportError:
        raise Unsupported(f"the Python package {module} is not installed (pip install {module})") from None
    rows = record_list(records(n))
    if library == "json":
        encode, decode = (lambda x: json.dumps(x, separators=(",", ":")).encode()), json.loads
    elif library == "orjson":
        encode, decode = lib.dumps, lib.loads
    elif library == "msgspec":
        encode, decode = lib.json.encode, lib.json.decode
    else:
        encode, decode = lib.msgpack.encode, lib.msgpack.decode
    data = encode(rows)
    call = (lambda: decode(data)) if operation in ("parse", "read") else (lambda: encode(rows))
    times, deadline = [], time.perf_counter() + seconds
    while len(times) < SLICES or time.perf_counter() < deadline:
        start = time.perf_counter_ns()
        out = call()
        times.append(max(time.perf_counter_ns() - start, 1))
    if (decode(out) if operation == "write" else out) != rows:
        raise RuntimeError(f"{library} {operation}: the records came back different")
    best = min(times)
    return Outcome({
        "mb_per_s": (len(data) / (best / 1e9) / 1e6, "MB/s"),
        "records_per_s": (n / (best / 1e9), "records/s"),
        "bytes_per_record": (len(data) / n, "B"),
    })  # fmt: skip


def measure_python_serial(case: Case, scratch: Scratch | None) -> Outcome:
    return python_serial(case["operation"], case["library"], case["records"], case["seconds"])


def serial_cases(profile: Profile) -> list[dict]:
    plan = profile.codecs
    return [{"operation": o, "library": lib, "records": plan.records, "seconds": plan.serial_seconds}
            for o, lib in NATIVE_SERIAL]  # fmt: skip


def python_serial_cases(profile: Profile) -> list[dict]:
    plan = profile.codecs
    return [{"operation": o, "library": lib, "records": plan.records, "seconds": plan.serial_seconds}
            for o, lib in PYTHON_SERIAL_CASES]  # fmt: skip


# ---- cases ------------------------------------------------------------------------------------


def codec_cases(profile: Profile) -> list[dict]:
    plan = profile.codecs
    return [
        {"codec": c, "level": lv, "input": i, "block": b, "size": plan.size, "seconds": plan.seconds}
        for c, lv in plan.levels
        for i in (plan.slow_inputs if (c, lv) in plan.slow_levels else plan.inputs)
        for b in plan.blocks
        if b == 0 or i in plan.block_inputs
    ]


def sort_cases(profile: Profile) -> list[dict]:
    plan = profile.codecs
    return [
        {"algorithm": a, "order": o, "n": n, "seconds": plan.sort_seconds}
        for n in plan.sort_sizes
        for o in ORDERS
        for a in _native.sort_algorithms()
    ]


def python_sort_cases(profile: Profile) -> list[dict]:
    plan = profile.codecs
    return [
        {"library": lib, "order": o, "n": n, "seconds": plan.python_sort_seconds}
        for n in plan.sort_sizes
        for o in ORDERS
        for lib in PYTHON_SORTS
    ]


def input_sizes(profile: Profile) -> dict[str, int | None]:
    """Bytes of each input of the plan (None: it could not be made here)."""
    sizes: dict[str, int | None] = {}
    for name in profile.codecs.inputs:
        try:
            sizes[name] = len(input_bytes(name, profile.codecs.size))
        except Unsupported:
            sizes[name] = None
    return sizes


def python_versions() -> dict[str, str | None]:
    import polars as pl

    out: dict[str, str | None] = {"numpy": np.__version__, "polars": pl.__version__}
    for package in ("orjson", "msgspec"):
        try:
            out[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            out[package] = None
    return out


def measure(profile: Profile, out: Writer) -> None:
    """The subject's experiments in one scratch dir, each handed to `out`."""
    with Scratch(need_bytes=profile.codecs.size * 2) as scratch:
        out.record_facts(scratch.path)
        out.details["libraries"] = _native.codec_libraries() | _native.serial_libraries()
        out.details["python"] = python_versions()
        out.details["tools"] = crosscheck.tool_versions()
        out.details["inputs"] = input_sizes(profile)
        # no warm-up round: every loop call makes an untimed pass of its own first
        out.add(
            run(COMPRESS, codec_cases(profile), measure_codec, repetitions=profile.repetitions, scratch=scratch,
                warmups=0)
        )  # fmt: skip
        for versus in crosscheck.versus_tools(profile, scratch, input_bytes, codec_speed):
            out.add(versus)
        out.add(run(SORT, sort_cases(profile), measure_sort, repetitions=profile.repetitions, scratch=scratch))
        out.add(run(SERIAL, serial_cases(profile), measure_serial, repetitions=profile.repetitions, scratch=scratch))
        out.add(
            run(PYTHON_SERIAL, python_serial_cases(profile), measure_python_serial, repetitions=profile.repetitions,
                scratch=scratch)
        )  # fmt: skip
        out.add(
            run(PYTHON_SORT, python_sort_cases(profile), measure_python_sort, repetitions=profile.repetitions,
                scratch=scratch)
        )  # fmt: skip


# every public function above refuses bad arguments with a clear exception
checked(globals())
