"""The hashing subject's experiments: throughput and time per hash across input sizes,
in native loops over the libraries and from Python, and the cross-checks
(``crosscheck``).

``measure`` runs every experiment through ``bench.run`` in one scratch directory (the
hashes touch no disk; the scratch dir is the store's convention) and hands each to the
results store; the native loops are ``native/src/hashing/``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from .. import _native
from ..bench import Case, Outcome, Unsupported, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from ..store import Writer
from . import crosscheck

#: The shape of what this subject stores; bump it when its cases, ids or metrics change.
SCHEMA = 1

#: Every native algorithm id, in the chapter's order, with its family (the chapter's words
#: live in report.py).
ALGORITHMS: dict[str, str] = {
    "sha3-256": "cryptographic",
    "sha256": "cryptographic",
    "sha1": "cryptographic (broken)",
    "md5": "cryptographic (broken)",
    "blake2b512": "cryptographic",
    "xxh64": "non-cryptographic",
    "xxh3_64": "non-cryptographic",
    "xxh3_128": "non-cryptographic",
    "xxh3_64_dispatch": "non-cryptographic",
    "xxh3_128_dispatch": "non-cryptographic",
    "murmur3_x64_128": "non-cryptographic",
    "jhash": "non-cryptographic",
    "fnv1a_64": "non-cryptographic",
    "crc32c_isal": "checksum",
    "crc32c_sse42": "checksum",
}

NATIVE = "native"
PYTHON = "python"
VS_OPENSSL = crosscheck.VS_OPENSSL
VS_XXHSUM = crosscheck.VS_XXHSUM

#: The CPU features that decide which code path a hash library takes (/proc/cpuinfo names).
CPU_FLAGS = ("sse4_2", "pclmulqdq", "avx2", "avx512f", "avx512vl", "sha_ni", "vaes", "vpclmulqdq")


def buffer(size: int) -> np.ndarray:
    """`size` pseudo-random bytes (the same for every algorithm and repetition)."""
    if not 1 <= size <= 1 << 30:
        raise ValueError(f"size must be from 1 byte to 1 GiB, got {size}")
    return np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8)


def _support(algorithm: str) -> str:
    support = _native.hash_algorithms()
    if algorithm not in support:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {sorted(support)}")
    return support[algorithm]


@lru_cache(maxsize=512)
def iterations_for(algorithm: str, size: int, seconds: float) -> int:
    """How many hashes of `size` bytes take about `seconds`: grow ×8 until a run lasts an
    eighth of it, then scale (the first calls also warm the caches and the clock)."""
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    data = buffer(size)
    target = seconds * 1e9
    n = 1
    while True:
        elapsed = _native.hash_loop(algorithm, data, n)["elapsed_ns"]
        if elapsed >= target / 8 or n >= 1 << 40:
            return max(1, round(n * target / max(elapsed, 1)))
        n *= 8


#: Each measurement is cut into this many slices of equal work; its rate is that of the
#: fastest slice (other programs share this CPU: the fastest slice is the one they
#: disturbed least), and ``mean_mib_per_s`` that of the whole run.
SLICES = 5


def native_hash(algorithm: str, size: int, seconds: float) -> Outcome:
    """One measurement of a native loop over ~`seconds`: MiB/s and ns per hash of its
    fastest slice, and MiB/s over the whole run."""
    reason = _support(algorithm)
    if reason:
        raise Unsupported(f"{algorithm}: {reason}")
    n = iterations_for(algorithm, size, seconds / SLICES)
    data = buffer(size)
    times = []
    for _ in range(SLICES):
        r = _native.hash_loop(algorithm, data, n)
        if r["bytes"] != n * size:
            raise RuntimeError(f"{algorithm} hashed {r['bytes']} bytes, expected {n * size}")
        times.append(max(r["elapsed_ns"], 1))
    return _rates(n, size, times)


def _rates(n: int, size: int, times: list[int]) -> Outcome:
    best = min(times)
    return Outcome(
        {
            "mib_per_s": (n * size / (best / 1e9) / 2**20, "MiB/s"),
            "ns_per_hash": (best / n, "ns"),
            "mean_mib_per_s": (n * size * len(times) / (sum(times) / 1e9) / 2**20, "MiB/s"),
            "hashes": (float(n * len(times)), "hashes"),
        }
    )


def measure_native(case: Case, scratch: Scratch | None) -> Outcome:
    return native_hash(case["algorithm"], case["size"], case["seconds"])


# ---- the same hashes from Python ----------------------------------------------------------------

#: Per native algorithm: (PyPI module or "hashlib", how a program calls it). The native
#: loop each is compared with is the algorithm id itself (crc32c: ISA-L's).
PYTHON_HASHES: dict[str, tuple[str, str]] = {
    "sha3-256": ("hashlib", "sha3_256"),
    "sha256": ("hashlib", "sha256"),
    "sha1": ("hashlib", "sha1"),
    "md5": ("hashlib", "md5"),
    "blake2b512": ("hashlib", "blake2b"),
    "xxh64": ("xxhash", "xxh64_intdigest"),
    "xxh3_64_dispatch": ("xxhash", "xxh3_64_intdigest"),
    "xxh3_128_dispatch": ("xxhash", "xxh3_128_intdigest"),
    "murmur3_x64_128": ("mmh3", "hash128"),
    "crc32c_isal": ("crc32c", "crc32c"),
}


def python_callable(algorithm: str) -> Callable[[bytes], object]:
    """What a Python program calls to hash bytes with `algorithm` (hashlib: the constructor
    and ``digest()``); Unsupported when the PyPI package is not installed."""
    if algorithm not in PYTHON_HASHES:
        raise ValueError(f"algorithm must be one of {', '.join(PYTHON_HASHES)}; got {algorithm!r}")
    module_name, attr = PYTHON_HASHES[algorithm]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise Unsupported(f"the Python package {module_name} is not installed (pip install {module_name})") from None
    fn = getattr(module, attr)
    if module_name == "hashlib":
        return lambda data: fn(data).digest()
    return fn


def python_hash(algorithm: str, size: int, seconds: float) -> Outcome:
    """One measurement of a Python timing loop calling the library, sliced as ``native_hash``."""
    call = python_callable(algorithm)
    data = buffer(size).tobytes()
    target = seconds / SLICES * 1e9
    n = 1
    while True:  # calibrate as the native side does
        start = time.perf_counter_ns()
        for _ in range(n):
            call(data)
        elapsed = time.perf_counter_ns() - start
        if elapsed >= target / 8 or n >= 1 << 30:
            break
        n *= 8
    n = max(1, round(n * target / max(elapsed, 1)))
    times = []
    for _ in range(SLICES):
        start = time.perf_counter_ns()
        for _ in range(n):
            call(data)
        times.append(max(time.perf_counter_ns() - start, 1))
    return _rates(n, size, times)


def measure_python(case: Case, scratch: Scratch | None) -> Outcome:
    return python_hash(case["algorithm"], case["size"], case["seconds"])


# ---- cases ------------------------------------------------------------------------------------


def native_cases(profile: Profile) -> list[dict]:
    plan = profile.hashing
    return [{"algorithm": a, "size": n, "seconds": plan.seconds} for a in ALGORITHMS for n in plan.sizes]


def python_cases(profile: Profile) -> list[dict]:
    plan = profile.hashing
    return [
        {"algorithm": a, "module": PYTHON_HASHES[a][0], "size": n, "seconds": plan.python_seconds}
        for a in PYTHON_HASHES
        for n in plan.sizes
    ]


# ---- what the libraries could use --------------------------------------------------------------


def cpu_flags(cpuinfo: str | None = None) -> dict[str, bool]:
    """Which of ``CPU_FLAGS`` /proc/cpuinfo lists for this CPU."""
    if cpuinfo is None:
        try:
            with open("/proc/cpuinfo") as f:
                cpuinfo = f.read()
        except OSError:
            cpuinfo = ""
    line = next((x for x in cpuinfo.splitlines() if x.startswith("flags")), "")
    have = set(line.partition(":")[2].split())
    return {flag: flag in have for flag in CPU_FLAGS}


#: Bits of OPENSSL_ia32cap as `openssl version -a` prints it (two 64-bit words: cpuid leaf 1
#: EDX|ECX<<32, then leaf 7 EBX|ECX<<32) that OpenSSL's x86-64 code paths test.
IA32CAP_BITS: dict[str, tuple[int, int]] = {
    "sse4_2": (0, 32 + 20),
    "pclmulqdq": (0, 32 + 1),
    "avx": (0, 32 + 28),
    "avx2": (1, 5),
    "avx512f": (1, 16),
    "sha_ni": (1, 29),
    "vaes": (1, 32 + 9),
    "vpclmulqdq": (1, 32 + 10),
}


def parse_ia32cap(text: str) -> dict[str, bool] | None:
    """OpenSSL's view of the CPU from `openssl version -a`'s CPUINFO line; None without one."""
    found = re.search(r"OPENSSL_ia32cap=0x([0-9a-fA-F]+):0x([0-9a-fA-F]+)", text)
    if not found:
        return None
    words = (int(found.group(1), 16), int(found.group(2), 16))
    return {name: bool(words[w] >> bit & 1) for name, (w, bit) in IA32CAP_BITS.items()}


def openssl_cpuinfo() -> dict[str, bool] | None:
    exe = shutil.which("openssl")
    if exe is None:
        return None
    done = subprocess.run([exe, "version", "-a"], capture_output=True, text=True, check=False, timeout=30)
    return parse_ia32cap(done.stdout)


def python_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"hashlib sha256": getattr(hashlib.sha256, "__name__", None)}
    out["hashlib blake2b"] = getattr(hashlib.blake2b, "__module__", None)
    for package in ("xxhash", "mmh3", "crc32c"):
        try:
            out[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            out[package] = None
    return out


def measure(profile: Profile, out: Writer) -> None:
    """The subject's experiments in one scratch dir, each handed to `out`."""
    with Scratch(need_bytes=0) as scratch:
        out.record_facts(scratch.path)
        out.details["libraries"] = _native.hash_libraries()
        out.details["cpu_flags"] = cpu_flags()
        out.details["openssl_ia32cap"] = openssl_cpuinfo()
        out.details["python"] = python_versions()
        out.details["tools"] = crosscheck.tool_versions()
        out.add(run(NATIVE, native_cases(profile), measure_native, repetitions=profile.repetitions, scratch=scratch))
        out.add(run(PYTHON, python_cases(profile), measure_python, repetitions=profile.repetitions, scratch=scratch))
        out.add(crosscheck.versus_openssl(profile, scratch, native_hash))
        out.add(crosscheck.versus_xxhsum(profile, scratch, native_hash))


# every public function above refuses bad arguments with a clear exception
checked(globals())
