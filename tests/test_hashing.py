"""The hashing subject: every native loop gives its library's published or reference
values, the loop's checksum proves it hashed every time, bad arguments raise ValueError,
the tools' outputs parse, and every branch of the chapter's sentences reads right."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import polars as pl
import pytest

from howfast import _native, tables
from howfast.bench import Unsupported
from howfast.crosscheck import agreement_sentence
from howfast.hashing import crosscheck, report
from howfast.hashing import experiments as hashing

SUPPORT = _native.hash_algorithms()


def needs(*algorithms: str) -> pytest.MarkDecorator:
    missing = [f"{a}: {SUPPORT.get(a)}" for a in algorithms if SUPPORT.get(a) != ""]
    return pytest.mark.skipif(bool(missing), reason="; ".join(missing))


def digest_int(algorithm: str, data: bytes, seed: int = 0) -> int:
    return int.from_bytes(_native.hash_digest(algorithm, data, seed=seed), "big")


def test_every_algorithm_is_listed_with_a_reason_or_none() -> None:
    assert set(SUPPORT) == set(hashing.ALGORITHMS) == set(report.ALGORITHM_NAMES)
    assert all(isinstance(reason, str) for reason in SUPPORT.values())


# ---- known values ------------------------------------------------------------------------------


@needs("sha3-256", "sha256", "sha1", "md5", "blake2b512")
@pytest.mark.parametrize("data", [b"", b"abc", bytes(range(256)) * 40])
def test_openssl_digests_match_hashlib(data: bytes) -> None:
    assert _native.hash_digest("sha256", b"abc").hex() == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    for ours, theirs in [
        ("sha3-256", hashlib.sha3_256),
        ("sha256", hashlib.sha256),
        ("sha1", hashlib.sha1),
        ("md5", hashlib.md5),
        ("blake2b512", hashlib.blake2b),
    ]:
        assert _native.hash_digest(ours, data) == theirs(data).digest(), ours


@needs("xxh64", "xxh3_64", "xxh3_128")
def test_xxhash_published_vectors() -> None:
    assert digest_int("xxh64", b"") == 0xEF46DB3751D8E999
    assert digest_int("xxh3_64", b"") == 0x2D06800538D394C2
    assert digest_int("xxh3_128", b"") == 0x99AA06D3014798D86001C324468D497F


@needs("xxh64", "xxh3_64", "xxh3_128", "xxh3_64_dispatch", "xxh3_128_dispatch")
def test_xxhash_agrees_with_the_pypi_wheel_at_every_length_and_seed() -> None:
    xxhash = pytest.importorskip("xxhash")
    rng = random.Random(1)
    for size in (0, 1, 3, 16, 17, 128, 129, 240, 241, 1000, 65536):
        data = rng.randbytes(size)
        seed = rng.randrange(2**64)
        assert digest_int("xxh64", data, seed) == xxhash.xxh64_intdigest(data, seed)
        for ours in ("xxh3_64", "xxh3_64_dispatch"):
            assert digest_int(ours, data, seed) == xxhash.xxh3_64_intdigest(data, seed)
        for ours in ("xxh3_128", "xxh3_128_dispatch"):
            assert digest_int(ours, data, seed) == xxhash.xxh3_128_intdigest(data, seed)


@needs("murmur3_x64_128")
def test_murmur3_agrees_with_mmh3() -> None:
    mmh3 = pytest.importorskip("mmh3")
    rng = random.Random(2)
    for size in (0, 1, 15, 16, 17, 31, 1000):
        data = rng.randbytes(size)
        seed = rng.randrange(2**32)
        assert _native.hash_digest("murmur3_x64_128", data, seed=seed) == mmh3.hash_bytes(data, seed, x64arch=True)


@needs("crc32c_isal", "crc32c_sse42")
def test_crc32c_check_value_and_the_crc32c_wheel() -> None:
    for algorithm in ("crc32c_isal", "crc32c_sse42"):
        assert digest_int(algorithm, b"123456789") == 0xE3069283
        assert digest_int(algorithm, b"") == 0
    crc32c = pytest.importorskip("crc32c")
    rng = random.Random(3)
    for size in (1, 7, 8, 9, 63, 64, 65, 4095, 100_000):
        data = rng.randbytes(size)
        seed = rng.randrange(2**32)
        for algorithm in ("crc32c_isal", "crc32c_sse42"):
            assert digest_int(algorithm, data, seed) == crc32c.crc32c(data, seed), (algorithm, size)


def test_fnv1a_64_published_vectors() -> None:
    # From the FNV reference test suite (isthe.com/chongo/tech/comp/fnv).
    assert digest_int("fnv1a_64", b"") == 0xCBF29CE484222325
    assert digest_int("fnv1a_64", b"a") == 0xAF63DC4C8601EC8C
    assert digest_int("fnv1a_64", b"foobar") == 0x85944171F73967E8


def _rol(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & 0xFFFFFFFF


def kernel_jhash(key: bytes, initval: int) -> int:
    """include/linux/jhash.h, transcribed to Python (32-bit arithmetic by masking)."""
    m = 0xFFFFFFFF
    length = len(key)
    a = b = c = (0xDEADBEEF + length + initval) & m
    k = 0
    while length > 12:
        a = (a + int.from_bytes(key[k : k + 4], "little")) & m
        b = (b + int.from_bytes(key[k + 4 : k + 8], "little")) & m
        c = (c + int.from_bytes(key[k + 8 : k + 12], "little")) & m
        a = (a - c) & m
        a ^= _rol(c, 4)
        c = (c + b) & m  # noqa: E702
        b = (b - a) & m
        b ^= _rol(a, 6)
        a = (a + c) & m  # noqa: E702
        c = (c - b) & m
        c ^= _rol(b, 8)
        b = (b + a) & m  # noqa: E702
        a = (a - c) & m
        a ^= _rol(c, 16)
        c = (c + b) & m  # noqa: E702
        b = (b - a) & m
        b ^= _rol(a, 19)
        a = (a + c) & m  # noqa: E702
        c = (c - b) & m
        c ^= _rol(b, 4)
        b = (b + a) & m  # noqa: E702
        length -= 12
        k += 12
    if length == 0:
        return c
    tail = key[k:] + bytes(12 - length)
    a = (a + int.from_bytes(tail[0:4], "little")) & m
    b = (b + int.from_bytes(tail[4:8], "little")) & m
    c = (c + int.from_bytes(tail[8:12], "little")) & m
    c ^= b
    c = (c - _rol(b, 14)) & m  # noqa: E702
    a ^= c
    a = (a - _rol(c, 11)) & m  # noqa: E702
    b ^= a
    b = (b - _rol(a, 25)) & m  # noqa: E702
    c ^= b
    c = (c - _rol(b, 16)) & m  # noqa: E702
    a ^= c
    a = (a - _rol(c, 4)) & m  # noqa: E702
    b ^= a
    b = (b - _rol(a, 14)) & m  # noqa: E702
    c ^= b
    c = (c - _rol(b, 24)) & m  # noqa: E702
    return c


def test_jhash_lookup3_vectors_and_the_kernel_algorithm() -> None:
    # jhash is Bob Jenkins' lookup3 hashlittle(); its published driver values:
    assert digest_int("jhash", b"") == 0xDEADBEEF
    assert digest_int("jhash", b"Four score and seven years ago", 0) == 0x17770551
    assert digest_int("jhash", b"Four score and seven years ago", 1) == 0xCD628161
    rng = random.Random(4)
    for size in range(0, 50):
        data = rng.randbytes(size)
        seed = rng.randrange(2**32)
        assert digest_int("jhash", data, seed) == kernel_jhash(data, seed), size


# ---- the loop hashes what it claims -------------------------------------------------------------


@pytest.mark.parametrize("algorithm", [a for a, why in SUPPORT.items() if not why])
def test_loop_checksum_is_the_sum_of_every_hash(algorithm: str) -> None:
    data = np.random.default_rng(5).integers(0, 256, 1000, dtype=np.uint8)
    seed, n = 7, 5
    got = _native.hash_loop(algorithm, data, n, seed=seed)
    assert got["iterations"] == n and got["bytes"] == n * data.size and got["elapsed_ns"] > 0
    words = [_native.hash_word(algorithm, _native.hash_digest(algorithm, data, seed=seed + i)) for i in range(n)]
    assert got["checksum"] == sum(words) % 2**64


def test_bad_arguments_raise_value_error_naming_them() -> None:
    data = b"x" * 64
    with pytest.raises(ValueError, match="algorithm"):
        _native.hash_loop("sha512000", data, 1)
    with pytest.raises(ValueError, match="iterations"):
        _native.hash_loop("fnv1a_64", data, 0)
    with pytest.raises(ValueError, match="iterations"):
        _native.hash_loop("fnv1a_64", data, -3)
    with pytest.raises(ValueError, match="data"):
        _native.hash_loop("fnv1a_64", b"", 1)
    with pytest.raises(ValueError, match="data"):
        _native.hash_loop("fnv1a_64", np.zeros((4, 4), dtype=np.uint8), 1)
    with pytest.raises(ValueError, match="data"):
        _native.hash_digest("fnv1a_64", np.zeros(8, dtype=np.uint32))
    with pytest.raises(ValueError, match="size"):
        hashing.buffer(0)
    with pytest.raises(ValueError, match="seconds"):
        hashing.iterations_for("fnv1a_64", 16, 0.0)
    with pytest.raises(ValueError, match="digest: an XXH3-128 digest has 16 bytes"):
        _native.hash_word("xxh3_128", b"short")  # it read past the bytes before


def test_an_unavailable_algorithm_is_unsupported_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_native, "hash_algorithms", lambda: {**SUPPORT, "md5": "built without libcrypto"})
    with pytest.raises(Unsupported, match="built without libcrypto"):
        hashing.native_hash("md5", 64, 0.001)


def test_a_missing_python_package_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(hashing.PYTHON_HASHES, "xxh64", ("no_such_module_here", "x"))
    with pytest.raises(Unsupported, match="pip install no_such_module_here"):
        hashing.python_callable("xxh64")


def test_native_and_python_measurements_have_their_metrics() -> None:
    got = hashing.native_hash("fnv1a_64", 256, 0.002).metrics
    assert got["mib_per_s"][0] > 0 and got["ns_per_hash"][0] > 0 and got["hashes"][0] >= 1
    py = hashing.python_hash("sha256", 256, 0.002).metrics
    assert py["mib_per_s"][1] == "MiB/s" and py["ns_per_hash"][0] > 0


# ---- machine facts and tool output ---------------------------------------------------------------


def test_cpu_flags_and_openssl_capability_words() -> None:
    flags = hashing.cpu_flags("processor : 0\nflags : fpu sse4_2 avx2 sha_ni\n")
    assert flags["sse4_2"] and flags["avx2"] and flags["sha_ni"] and not flags["avx512f"]
    seen = hashing.parse_ia32cap("CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab\n")
    assert seen is not None and seen["sha_ni"] and seen["avx2"] and seen["pclmulqdq"] and seen["sse4_2"]
    none = hashing.parse_ia32cap("CPUINFO: OPENSSL_ia32cap=0x0:0x0")
    assert none is not None and not any(none.values())
    assert hashing.parse_ia32cap("no cpuinfo line") is None


def test_parse_openssl_speed_and_xxhsum() -> None:
    speed = "+DT:sha256:1:16384\n+R:72800:sha256:0.67\n+H:16384\n+F:25:sha256:1780231641.79\n"
    assert crosscheck.parse_openssl_speed(speed) == pytest.approx(1780231641.79)
    with pytest.raises(ValueError, match="no \\+F line"):
        crosscheck.parse_openssl_speed("speed: nosuch is an unknown cipher or digest")
    out = (
        "xxhsum 0.8.1 by Yann Collet\nSample of 16 KB...\r 1-XXH64    :      16384 ->   600000 it/s ( 9375.0 MB/s) "
        "\r 3#XXH64      :      16384 ->   646149 it/s (10096.1 MB/s) \n"
    )
    assert crosscheck.parse_xxhsum(out, 3) == (16384, 646149.0)
    with pytest.raises(ValueError, match="variant 5"):
        crosscheck.parse_xxhsum(out, 5)
    seeded = (
        "\r 1-XXH3_64b w/seed              :       1024 -> 20000000 it/s (19531.2 MB/s) "
        "\r 7#XXH3_64b w/seed              :       1024 -> 21000000 it/s (20507.8 MB/s) \n"
        " 13#XXH128 w/seed                :       1024 -> 18000000 it/s (17578.1 MB/s) \n"
    )
    assert crosscheck.parse_xxhsum(seeded, 7) == (1024, 21000000.0)
    assert crosscheck.parse_xxhsum(seeded, 13) == (1024, 18000000.0)
    renumbered = " 7#XXH3_64b w/secret            :       1024 -> 21000000 it/s (20507.8 MB/s) \n"
    with pytest.raises(ValueError, match="not 'XXH3_64b w/seed'"):
        crosscheck.parse_xxhsum(renumbered, 7)


def test_xxhsum_variants_are_the_seeded_ones_our_loop_matches() -> None:
    # our loop passes a new seed each call: xxhsum's seeded variants, numbered 2i + 1 in its list
    order = ["XXH32", "XXH64", "XXH3_64b", "XXH3_64b w/seed", "XXH3_64b w/secret", "XXH128", "XXH128 w/seed"]
    assert crosscheck.XXHSUM_VARIANTS == {"xxh64": 3, "xxh3_64_dispatch": 7, "xxh3_128_dispatch": 13}
    for variant, name in crosscheck.XXHSUM_NAMES.items():
        assert 2 * order.index(name) + 1 == variant
    assert set(crosscheck.XXHSUM_VARIANTS.values()) <= set(crosscheck.XXHSUM_NAMES)
    # every plan's xxhsum cases: the dispatching entry points only, each with a variant
    from howfast.hashing import plan

    for p in (plan.QUICK, plan.FULL, plan.SMOKE):
        for algorithm, _ in p.xxhsum_cases:
            assert algorithm in crosscheck.XXHSUM_VARIANTS
            assert algorithm in ("xxh64", "xxh3_64_dispatch", "xxh3_128_dispatch")


def test_missing_tools_are_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(crosscheck.shutil, "which", lambda name: None)
    with pytest.raises(Unsupported, match="apt-get install openssl"):
        crosscheck.openssl_speed("sha256", 64, 1)
    with pytest.raises(Unsupported, match="apt-get install xxhash"):
        crosscheck.xxhsum_bench("xxh64", 1024, 0)


# ---- the chapter's words, every branch ----------------------------------------------------------


def native_rows(rates: dict[str, float | None], size: int = 65536) -> pl.DataFrame:
    rows = []
    for algorithm, rate in rates.items():
        base = {"algorithm": algorithm, "size": size, "seconds": 0.01, "repetition": 0}
        if rate is None:
            rows.append({**base, "metric": "unsupported", "value": None, "unit": "", "note": "no library"})
            continue
        rows.append({**base, "metric": "mib_per_s", "value": rate, "unit": "MiB/s", "note": None})
        rows.append({**base, "metric": "ns_per_hash", "value": size / rate / 2**20 * 1e9, "unit": "ns", "note": None})
    return pl.DataFrame(rows, schema_overrides={"value": pl.Float64, "note": pl.String})


def test_sha_path_sentence_every_branch() -> None:
    # no vector: why, as far as the set says
    assert report.sha_path_sentence({}) == (
        "OpenSSL's view of this CPU (openssl version -a) was not recorded, so which SHA-256 code path libcrypto took "
        "is not known here."
    )
    missing = report.sha_path_sentence({"openssl_ia32cap": None, "tools": {"openssl": None}})
    assert missing.startswith("The openssl command was not there") and "not known here" in missing
    arm = report.sha_path_sentence({"openssl_ia32cap": None, "tools": {"openssl": "OpenSSL 3.0.13 30 Jan 2024"}})
    assert arm.startswith("openssl version -a printed no OPENSSL_ia32cap vector") and "not there" not in arm
    assert "not known here" in arm
    ni = report.sha_path_sentence({"openssl_ia32cap": {"sha_ni": True}})
    assert "SHA-1 and SHA-256 likely ran on the SHA-NI instructions (this run does not record which code" in ni
    masked = report.sha_path_sentence({"openssl_ia32cap": {"sha_ni": False}, "cpu_flags": {"sha_ni": True}})
    assert "masked off" in masked and masked.endswith("likely ran in software.")
    assert "likely on its AVX2 path" in report.sha_path_sentence({"openssl_ia32cap": {"sha_ni": False, "avx2": True}})
    assert "likely on its SSE path" in report.sha_path_sentence({"openssl_ia32cap": {"sha_ni": False, "avx2": False}})


def test_surprise_sentence_every_branch() -> None:
    # no ratio to the seeds: their library and input size are unknown
    apart = report.surprise_sentence(native_rows({"crc32c_isal": 30000.0, "crc32c_sse42": 6000.0}), 65536)
    assert "not comparable" in apart and "laptop" not in apart
    assert "two CRC32C implementations on the same CPU, 5× apart" in apart
    both = report.surprise_sentence(
        native_rows({"crc32c_isal": 30000.0, "crc32c_sse42": 6000.0, "xxh3_64": 1000.0, "xxh3_64_dispatch": 4000.0}),
        65536,
    )
    assert "and two entry points of the same XXH3 library, 4× apart." in both
    none = report.surprise_sentence(native_rows({"crc32c_isal": None, "crc32c_sse42": 6000.0}), 65536)
    assert none.endswith("Nor did this machine show the implementation alone moving a figure clearly: see below.")


def test_fnv_note_both_branches() -> None:
    slow = report.fnv_note(native_rows({"fnv1a_64": 800.0, "xxh64": 10000.0}), 65536)
    assert 'the seeds\' "fnv" ran faster than their own xxhash' in slow and "12× slower than XXH64" in slow
    plain = report.fnv_note(native_rows({"fnv1a_64": 10000.0, "xxh64": 800.0}), 65536)
    assert plain.startswith("The seeds do not say which variant of FNV")


def test_slowest_note_both_branches() -> None:
    slowest = report.slowest_note(native_rows({"sha3-256": 100.0, "sha256": 1000.0, "md5": 700.0}), "sha3-256", 65536)
    assert slowest == "SHA3-256 (OpenSSL), at 100 MiB/s here, was clearly the slowest hash measured on this machine."
    spread = pl.concat([native_rows({"sha3-256": v, "sha256": 1000.0}) for v in (90.0, 100.0, 110.0)])
    assert report.slowest_note(spread, "sha3-256", 65536).startswith("SHA3-256 (OpenSSL), at 100 MiB/s (90–110) here,")
    not_slowest = report.slowest_note(native_rows({"sha3-256": 100.0, "md5": 50.0}), "sha3-256", 65536)
    assert not_slowest.endswith("was not the slowest hash measured on this machine: 1 hash ran clearly slower.")
    overlap = pl.concat(
        [native_rows({"sha3-256": v, "md5": w}) for v, w in ((90.0, 100.0), (100.0, 120.0), (130.0, 140.0))]
    )
    assert report.slowest_note(overlap, "sha3-256", 65536).endswith(
        "was the slowest hash measured on this machine by the medians, but its intervals overlap another's."
    )
    assert report.slowest_rule(native_rows({"sha3-256": 100.0, "md5": 700.0}), "sha3-256", 65536) == (
        "SHA3-256 was clearly the slowest hash here (above): pick it for its security properties, not by habit."
    )
    assert report.slowest_rule(overlap, "sha3-256", 65536) == (
        "SHA3-256 was the slowest hash here by the medians, though not clearly (above): pick it for its security "
        "properties, not by habit."
    )
    assert report.slowest_rule(native_rows({"sha3-256": 100.0, "md5": 50.0}), "sha3-256", 65536) == (
        "SHA3-256 was not the slowest hash here (above): this run gives no reason to avoid it for speed."
    )
    assert report.slowest_rule(native_rows({"sha3-256": None}), "sha3-256", 65536) == (
        "SHA3-256 (OpenSSL) could not run here, so its cost is not known on this machine."
    )
    assert report.slowest_note(native_rows({"sha3-256": None}), "sha3-256", 65536).endswith("could not run here.")


def test_slowest_note_is_not_the_slowest_by_the_medians_where_another_had_a_lower_median() -> None:
    # no hash clearly slower, but MD5's median lies below SHA3-256's: not 'the slowest by the medians'
    lower = runs_of({"sha3-256": [90.0, 100.0, 130.0], "md5": [80.0, 95.0, 140.0], "sha256": [1000.0] * 3})
    note = report.slowest_note(lower, "sha3-256", 65536)
    assert note == (
        "SHA3-256 (OpenSSL), at 100 MiB/s (90–130) here, was not clearly the slowest hash measured on this machine: "
        "MD5 (OpenSSL) had a lower median, at 95 MiB/s (80–140), though no hash ran clearly slower (their intervals "
        "overlap)."
    )
    assert "by the medians" not in note
    assert report.slowest_rule(lower, "sha3-256", 65536) == (
        "SHA3-256 was not clearly the slowest hash here: another had a lower median, and their intervals overlap "
        "(above). Pick it for its security properties, not by habit."
    )
    two = runs_of({"sha3-256": [90.0, 100.0, 130.0], "md5": [80.0, 95.0, 140.0], "sha1": [85.0, 92.0, 120.0]})
    assert ": 2 hashes had lower medians, the lowest SHA-1 (OpenSSL), at 92 MiB/s (85–120), though no hash" in (
        report.slowest_note(two, "sha3-256", 65536)
    )


def test_speed_and_largest_sentences() -> None:
    from howfast.claims import Cache

    rows = native_rows({"xxh3_64_dispatch": 20000.0, "sha256": 1000.0})
    assert report.speed_sentence(rows, "xxh3_64_dispatch", "sha256", 65536) == (
        "At 64 KiB SHA-256 (OpenSSL) ran at 1,000 MiB/s and XXH3 64-bit (libxxhash, dispatching entry) at "
        "20,000 MiB/s, 20× faster than SHA-256."
    )
    assert "could not both run" in report.speed_sentence(
        native_rows({"sha256": 1.0}), "xxh3_64_dispatch", "sha256", 65536
    )
    caches = [Cache("L2", 2**20, 1), Cache("L3", 32 * 2**20, 2)]
    big = native_rows({"xxh3_64_dispatch": 30000.0}, size=16 * 2**20)
    assert "an input that fits in the L3 cache (32 MiB, shared by 2 CPUs)," in report.largest_sentence(
        big, "xxh3_64_dispatch", 16 * 2**20, caches
    )
    huge = native_rows({"xxh3_64_dispatch": 30000.0}, size=2**30)
    assert "an input that is larger than every cache (the L3 is 32 MiB, shared by 2 CPUs) and is served from RAM," in (
        report.largest_sentence(huge, "xxh3_64_dispatch", 2**30, caches)
    )
    assert "an input that may or may not fit in a cache (this kernel reports no cache sizes), XXH3" in (
        report.largest_sentence(huge, "xxh3_64_dispatch", 2**30, [])
    )


def test_python_adds_every_branch() -> None:
    from howfast.stats import Estimate

    py, nat = Estimate(300, 290, 310, 3), Estimate(100, 95, 105, 3)
    assert report.python_adds(py, nat) == "200 ns (185–215)"  # the difference, and the range it can take
    assert report.python_adds(Estimate.exact(300), Estimate.exact(100)) == "200 ns"  # no spread: no range
    assert report.python_adds(nat, py) == "none: the package's build was faster"
    assert report.python_adds(Estimate(100, 99.5, 100.5), Estimate(100, 99.5, 100.5)) == "nothing measurable"
    assert report.python_adds(Estimate(300, 50, 400), nat) == "unclear: the intervals overlap"
    assert report.python_adds(None, nat) == "n/a"
    # within PY_DRIFT: sets made minutes apart drift by that much, whatever the call costs
    assert report.python_adds(Estimate(134000, 133000, 135000), Estimate(127000, 126500, 127500)) == (
        "7,000 ns (5,500–8,500), under 10 % by the medians: within the drift between sets"
    )
    assert report.python_adds(Estimate(6110, 6100, 6120), Estimate(6150, 6150, 6160)) == (
        "40 ns less (30–60), under 10 % by the medians: within the drift between sets"
    )
    assert report.python_adds(Estimate(2580, 2500, 2600), Estimate(1130, 1120, 1140), other_build=True) == (
        "not the call: the package's own build ran 2.3× (2.2–2.3×) slower"
    )
    assert report.python_adds(nat, py, other_build=True) == "none: the package's build was faster"
    drift = Estimate(134000, 128000, 142000), Estimate(127000, 126500, 127500)
    assert report.python_adds(*drift) == "7,000 ns (500–15,500)"
    assert report.python_adds(*drift, large=True) == (
        "7,000 ns (500–15,500), under 10 % by the medians: within the drift between sets"
    )


def test_openssl_small_block_sentence_every_verdict() -> None:
    def table(verdict: str) -> pl.DataFrame:
        return pl.DataFrame({"hash": ["SHA-256 (OpenSSL)"] * 2, "block": ["16 KiB", "64 bytes"],
                             "verdict": ["agrees", verdict]})  # fmt: skip

    assert report.openssl_small_block_sentence(table("ours higher")) == (
        "On 64-byte blocks of SHA-256 (OpenSSL), ours was faster. A possible reason where ours was faster: our loop "
        "reuses one digest context, where openssl speed calls EVP_Digest, which creates and frees one per call."
    )
    lower = report.openssl_small_block_sentence(table("ours lower"))
    assert lower.startswith("On 64-byte blocks of SHA-256 (OpenSSL), ours was slower, although our loop reuses")
    assert lower.endswith(" This run cannot say why ours was slower.")
    assert "ours agreed with openssl speed, although" in report.openssl_small_block_sentence(table("agrees"))
    assert "`" not in report.openssl_small_block_sentence(table("agrees"))
    assert "could not tell the two apart" in report.openssl_small_block_sentence(table("inconclusive"))
    assert report.openssl_small_block_sentence(pl.DataFrame({"hash": [], "block": []})).startswith("No block size")
    # several hashes at the smallest block: every row's verdict is tallied, not one picked
    five = pl.DataFrame({
        "hash": ["SHA3-256", "SHA-256", "SHA-1", "MD5", "BLAKE2b-512", "SHA-256"],
        "block": ["64 bytes"] * 5 + ["1 KiB"],
        "verdict": ["ours lower", "ours higher", "ours higher", "agrees", "inconclusive", "ours lower"],
    })  # fmt: skip
    text = report.openssl_small_block_sentence(five)
    assert text.startswith(
        "On 64-byte blocks, of the 5 hashes, ours was faster for 2 (SHA-256 and SHA-1); ours was slower for 1 "
        "(SHA3-256); ours agreed with openssl speed for 1 (MD5); the rounds could not tell the two apart for 1 "
        "(BLAKE2b-512). A possible reason where ours was faster:"
    )
    assert text.endswith(" This run cannot say why ours was slower for SHA3-256.")
    every = report.openssl_small_block_sentence(five.with_columns(verdict=pl.lit("ours higher")))
    assert every.startswith(
        "On 64-byte blocks, of the 5 hashes, ours was faster for all 5 (SHA3-256, SHA-256, SHA-1, MD5 and "
        "BLAKE2b-512). A possible reason"
    )
    pair = five.filter(pl.col("block") == "1 KiB").vstack(five.head(1)).with_columns(block=pl.lit("64 bytes"))
    assert "of the 2 hashes, ours was slower for both (SHA-256 and SHA3-256)" in report.openssl_small_block_sentence(
        pair
    )
    none_faster = five.filter(pl.col("verdict") != "ours higher")
    assert ", although our loop reuses one digest context" in report.openssl_small_block_sentence(none_faster)


def test_ranking_and_crc_sentences_every_branch() -> None:
    many = report.ranking_sentence(native_rows({"sha3-256": 100.0, "crc32c_isal": 10000.0, "md5": None}), 65536)
    assert "fastest was CRC32C (ISA-L)" in many and "slowest SHA3-256 (OpenSSL)" in many and "100×" in many
    one = report.ranking_sentence(native_rows({"md5": 400.0, "sha1": None}), 65536)
    assert one.startswith("Only MD5 (OpenSSL)")
    assert report.ranking_sentence(native_rows({"md5": None}), 65536).startswith("No hash")
    crc = report.crc_sentence(native_rows({"crc32c_isal": 30000.0, "crc32c_sse42": 6000.0}), 65536)
    assert "5× faster than our loop" in crc
    missing = report.crc_sentence(native_rows({"crc32c_isal": None, "crc32c_sse42": 6000.0}), 65536)
    assert missing.startswith("ISA-L's CRC32C could not run")


def test_reference_table_puts_the_seeds_beside_our_rows_and_says_why_not() -> None:
    rates = {a: 1000.0 for a in hashing.ALGORITHMS} | {"murmur3_x64_128": None}
    native = pl.concat([native_rows(rates), native_rows(rates, size=16)])
    table = report.reference_table(native, 65536, 16)
    assert table.height == len(hashing.ALGORITHMS)
    sha3 = table.filter(pl.col("hash") == report.SHORT_NAMES["sha3-256"]).row(0, named=True)
    assert sha3[report.LAPTOP] == "56.1" and sha3[report.PHONE] == "218" and sha3["MiB/s"] == 1000.0
    sha256 = table.filter(pl.col("hash") == report.SHORT_NAMES["sha256"]).row(0, named=True)
    assert sha256[report.LAPTOP] == "not measured" and sha256[report.PHONE] == "not measured"
    murmur = table.filter(pl.col("hash") == report.SHORT_NAMES["murmur3_x64_128"]).row(0, named=True)
    assert murmur["MiB/s"] is None and murmur["note"] == "no library"


def test_seed_comparison_and_dispatch_sentence() -> None:
    rates = {a: 1000.0 for a in hashing.ALGORITHMS} | {"jhash": None, "xxh3_64_dispatch": 2000.0}
    frame = report.seed_comparison(native_rows(rates), 65536, "this machine")
    assert frame.filter(pl.col("machine") == "this machine").height == 7  # jhash missing here
    assert frame.filter(pl.col("machine") != "this machine").height == 16
    assert "2× faster than the same library's baseline" in report.dispatch_sentence(native_rows(rates), 65536)
    assert "leaves that speed on the table" in report.dispatch_sentence(native_rows(rates), 65536)
    slower = report.dispatch_sentence(native_rows({"xxh3_64": 2000.0, "xxh3_64_dispatch": 1000.0}), 65536)
    assert "slower than the same library's baseline" in slower and "did not pay; this run cannot say why" in slower
    noisy = report.dispatch_sentence(
        runs_of({"xxh3_64": [900.0, 1000.0, 1100.0], "xxh3_64_dispatch": [950.0, 1000.0, 1200.0]}), 65536
    )
    assert "too noisy to say whether the dispatching entry point paid" in noisy and "did not pay" not in noisy
    missing = report.dispatch_sentence(native_rows({"xxh3_64": 1.0, "xxh3_64_dispatch": None}), 65536)
    assert "could not both run" in missing


def test_python_overhead_and_table() -> None:
    native = native_rows({"sha256": 1000.0}, size=16)
    python = native_rows({"sha256": 100.0}, size=16).with_columns(module=pl.lit("hashlib"))
    low, high = report.python_overhead(python, native, 16)
    assert low == pytest.approx(high) and low == pytest.approx(16 / 100 / 2**20 * 1e9 - 16 / 1000 / 2**20 * 1e9)
    table = report.python_table(python, native, [16])
    assert table["Python adds"][0].endswith(" ns") and "Python keeps" not in table.columns


def test_python_sentence_every_branch() -> None:
    native = native_rows({"sha256": 1000.0, "xxh64": 10000.0}, size=16)
    slower = native_rows({"sha256": 100.0, "xxh64": 1000.0}, size=16).with_columns(
        module=pl.when(pl.col("algorithm") == "sha256").then(pl.lit("hashlib")).otherwise(pl.lit("xxhash"))
    )
    text = report.python_sentence(slower, native, 16)
    assert text.startswith("On 16-byte inputs a hash took from 15.3 ns to 153 ns from Python, depending on the hash")
    assert text.endswith(
        ". For SHA-256 (OpenSSL), the only hashlib call to the same OpenSSL code, the runs told them apart: the "
        "Python call with the new digest context hashlib sets up for each (the native loop reuses one) added 137 ns "
        "per call, 9× the native hash itself. The xxhash wheel's XXH64, its own build of the code, added 13.7 ns per "
        "call over the native loop's library: the call and the build together, which this run does not measure apart."
    )
    two = native_rows({"sha256": 1000.0, "md5": 500.0}, size=16)
    both = native_rows({"sha256": 100.0, "md5": 100.0}, size=16).with_columns(module=pl.lit("hashlib"))
    text = report.python_sentence(both, two, 16)
    assert text.endswith(
        ". Among the hashlib calls, which run the same OpenSSL code as the native loop, the runs told both apart from "
        "it: the Python call with the new digest context hashlib sets up for each (the native loop reuses one) added "
        "from 122 ns to 137 ns per call, from 4× to 9× what the native hash itself took (each row's interval is in "
        "the table)."
    )
    # one of two told apart: 'only for'; every one of three: 'all 3'
    part = native_rows({"sha256": 100.0, "md5": 500.0}, size=16).with_columns(module=pl.lit("hashlib"))
    assert ". Only for SHA-256 (OpenSSL) did the runs tell them apart (1 of the 2 hashlib calls to the same " in (
        report.python_sentence(part, two, 16)
    )
    three = native_rows({"sha256": 1000.0, "md5": 500.0, "sha1": 1000.0}, size=16)
    slow3 = native_rows({"sha256": 100.0, "md5": 100.0, "sha1": 100.0}, size=16).with_columns(module=pl.lit("hashlib"))
    assert ". Among the hashlib calls, which run the same OpenSSL code as the native loop, the runs told all 3 " in (
        report.python_sentence(slow3, three, 16)
    )
    some3 = native_rows({"sha256": 100.0, "md5": 500.0, "sha1": 100.0}, size=16).with_columns(module=pl.lit("hashlib"))
    among = ". Among the 3 hashlib calls, which run the same OpenSSL code as the native loop, the runs told 2 apart "
    assert among in report.python_sentence(some3, three, 16)
    # several wheels told apart: the range of what the call and the build added, apart from hashlib's
    wheels = native_rows({"xxh64": 1000.0, "murmur3_x64_128": 500.0}, size=16).with_columns(module=pl.lit("w"))
    on = native_rows({"xxh64": 10000.0, "murmur3_x64_128": 10000.0}, size=16)
    assert report.python_sentence(wheels, on, 16).endswith(
        " in the native loop. The 2 wheel calls the runs told apart, each its wheel's own build of the code, added "
        "from 13.7 ns to 29 ns per call over the native loop's library: the call and the build together, which this "
        "run does not measure apart."
    )
    one = report.python_sentence(both.filter(pl.col("algorithm") == "md5"), two, 16)
    assert one.startswith("On 16-byte inputs MD5 (OpenSSL) took 153 ns from Python and 30.5 ns in the native loop")
    faster = native_rows({"sha256": 2000.0, "xxh64": 1000.0}, size=16).with_columns(module=pl.lit("hashlib"))
    assert "the runs did not tell the two apart" in report.python_sentence(faster, native, 16)
    wheels_only = slower.filter(pl.col("algorithm") == "xxh64")
    assert report.python_sentence(wheels_only, native, 16).endswith(
        "in the native loop. The xxhash wheel's XXH64, its own build of the code, added 13.7 ns per call over the "
        "native loop's library: the call and the build together, which this run does not measure apart."
    )
    assert report.python_sentence(wheels_only, native_rows({"xxh64": 1000.0}, size=16), 16).endswith(
        "in the native loop."
    )  # a wheel not told apart from the native loop: no words on it
    assert report.python_sentence(slower, native, 4096).startswith("No hash could be timed")


def test_crosscheck_table_and_sentence_when_the_tool_is_missing() -> None:
    rows = []
    for rep in range(2):
        base = {"algorithm": "xxh64", "size": 16384, "seconds": 0.01, "repetition": rep}
        rows.append({**base, "tool": "howfast", "metric": "mib_per_s", "value": 9000.0, "unit": "MiB/s", "note": None})
        rows.append({**base, "tool": "xxhsum", "metric": "unsupported", "value": None, "unit": "", "note": "no xxhsum"})
    frame = pl.DataFrame(rows, schema_overrides={"value": pl.Float64, "note": pl.String})
    table = report.crosscheck_table(frame, "xxhsum")
    assert table["hash"][0] == report.ALGORITHM_NAMES["xxh64"] and table["block"][0] == "16 KiB"
    assert agreement_sentence(table, tool="xxhsum") == "The comparison with xxhsum could not run here (no xxhsum)."
    ran = frame.with_columns(
        metric=pl.lit("mib_per_s"), value=pl.when(pl.col("tool") == "xxhsum").then(10000.0).otherwise(9000.0)
    )
    sentence = agreement_sentence(report.crosscheck_table(ran, "xxhsum"), tool="xxhsum")
    assert sentence.startswith("The one case that ran both agreed with xxhsum")  # 0.9: the edge of the band


def test_seed_cell_says_why_it_is_empty() -> None:
    assert report._seed_cell(56.14, True) == "56.1"
    assert report._seed_cell(None, True) == "not given"
    assert report._seed_cell(None, False) == "not measured"


def test_crc_sentence_puts_the_ratios_range_after_what_it_compares_with() -> None:
    runs = [(28000.0, 5900.0), (30000.0, 6000.0), (32000.0, 6100.0)]
    rows = pl.concat(
        native_rows({"crc32c_isal": isal, "crc32c_sse42": loop}).with_columns(repetition=pl.lit(i))
        for i, (isal, loop) in enumerate(runs)
    )
    assert report.crc_sentence(rows, 65536) == (
        "At 64 KiB, ISA-L's CRC32C was 5× faster than our loop of one crc32 instruction after another (4.6–5.4×)."
    )


def test_dispatch_sentence_counts_the_sweep() -> None:
    sizes = (1024, 4096, 65536)
    rows = pl.concat([native_rows({"xxh3_64": 1000.0, "xxh3_64_dispatch": d}, size=s)
                      for s, d in zip(sizes, (4000.0, 500.0, 1000.0))])  # fmt: skip
    text = report.dispatch_sentence(rows, 65536)
    assert "about as fast as the same library's baseline entry point, at 1,000 MiB/s (1×)" in text
    # about the same is not noise: it reads as the dispatch not paying, with possible reasons, not as fact
    assert "too noisy" not in text
    assert "(1×). Here the dispatching entry point did not pay: it may have found no wider loop" in text
    assert text.endswith(
        "Of the 3 input sizes from 1 KiB up, the dispatching entry point was clearly faster at 1 and clearly slower "
        "at 1; at 1 the runs could not tell them apart."
    )
    faster = pl.concat([native_rows({"xxh3_64": 1000.0, "xxh3_64_dispatch": 4000.0}, size=s) for s in sizes[:2]])
    assert report.dispatch_sentence(faster, 4096).endswith("was clearly faster at both.")
    every = pl.concat([native_rows({"xxh3_64": 1000.0, "xxh3_64_dispatch": 4000.0}, size=s) for s in sizes])
    assert report.dispatch_sentence(every, 65536).endswith("the dispatching entry point was clearly faster at all 3.")
    unclear = pl.concat([runs_of({"xxh3_64": [900.0, 1000.0, 1100.0], "xxh3_64_dispatch": [950.0, 1000.0, 1200.0]},
                                 size=s) for s in sizes])  # fmt: skip
    assert report.dispatch_sentence(unclear, 65536).endswith(
        "Of the 3 input sizes from 1 KiB up, at all 3 the runs could not tell them apart."
    )
    slower = pl.concat([native_rows({"xxh3_64": 1000.0, "xxh3_64_dispatch": d}, size=s)
                        for s, d in zip(sizes, (500.0, 500.0, 1000.0))])  # fmt: skip
    assert report.dispatch_sentence(slower, 65536).endswith(
        "the dispatching entry point was clearly slower at 2; at 1 the runs could not tell them apart."
    )
    assert "Of the" not in report.dispatch_sentence(native_rows({"xxh3_64": 1.0, "xxh3_64_dispatch": 2.0}), 65536)


def test_large_input_sentence_every_branch() -> None:
    from howfast.claims import Cache

    caches = [Cache("L2", 2**20, 1), Cache("L3", 32 * 2**20, 2)]
    big = 16 * 2**20
    at = native_rows({"sha3-256": 500.0, "xxh64": 10000.0, "crc32c_isal": 50000.0})
    slowed = pl.concat([at, native_rows({"sha3-256": 160.0, "xxh64": 9990.0, "crc32c_isal": 50000.0}, size=big)])
    text = report.large_input_sentence(slowed, 65536, big, caches, 0.005)
    assert text.startswith("At 16 MiB, 1 hash ran clearly slower, by a fifth or more, than at 64 KiB: SHA3-256")
    assert "XXH64" not in text  # a drop of a tenth of a per cent is not a drop
    assert (
        "from it CRC32C (ISA-L) read 50,000 MiB/s: the cache delivered at least that much to one core, but whether "
        "waiting for it is part of the drop, this run cannot say." in text
    )
    assert "does not explain" not in text
    assert (
        "longer than a slice of the measurement (5 ms)" in text
        and "the drop may be that work, not the hash; this run cannot tell which." in text
    )
    assert report.large_input_sentence(slowed, 65536, big, caches, 1.0).endswith(
        "this run cannot say. Nor can it say what else slowed them."
    )
    huge = pl.concat([at, native_rows({"sha3-256": 160.0}, size=2**30)])
    assert "and is served from RAM, so memory may share in the drop" in report.large_input_sentence(
        huge, 65536, 2**30, caches, 0.005
    )
    assert " The input may or may not fit in a cache (this kernel reports no cache sizes), so memory may" in (
        report.large_input_sentence(huge, 65536, 2**30, [], 0.005)
    )
    assert report.large_input_sentence(huge, 65536, 2**30, caches, 100.0).endswith(
        "so memory may share in the drop. This run cannot say what slowed them."
    )
    level = pl.concat([at, native_rows({"sha3-256": 490.0}, size=big)])
    assert report.large_input_sentence(level, 65536, big, caches, 0.005).startswith("No hash ran clearly slower")
    assert report.large_input_sentence(at, 65536, 65536, caches, 0.005) == (
        "The sweep stops at 64 KiB, so it has no input larger than the table's to compare."
    )


def test_crosscheck_again_sentence_every_branch() -> None:
    def vs(ours: list[float], size: int = 16384, algorithm: str = "xxh64") -> pl.DataFrame:
        return pl.DataFrame([{"algorithm": algorithm, "size": size, "tool": t, "repetition": i, "metric": "mib_per_s",
                              "value": v, "unit": "MiB/s", "note": None}
                             for t, values in (("howfast", ours), ("xxhsum", [1.0] * len(ours)))
                             for i, v in enumerate(values)], schema_overrides={"note": pl.String})  # fmt: skip

    sweep = native_rows({"xxh64": 10000.0, "xxh3_64": 10000.0}, size=16384)
    sweep = pl.concat([sweep, sweep.filter(pl.col("metric") == "mib_per_s").with_columns(
        metric=pl.lit("mean_mib_per_s"), value=pl.col("value") / 2)])  # fmt: skip
    head = "Our half of this cross-check is the size sweep's loop run again, later, alternating with xxhsum, the rate"
    tail = (
        " Same code, same block: where the two differ, the moment each ran may be why (other work on the CPU, which a "
        "longer measurement filters less). The chapter's figures are the sweep's; these runs serve only as xxhsum's "
        "partner in its ratio (each case's figures are in the table)."
    )
    lower = report.crosscheck_again_sentence(sweep, vs([7000.0, 7000.0, 7000.0]), "xxhsum", whole_run=False)
    assert lower == (
        f"{head} of the fastest slice in both. Beside the sweep's rate for the same hash and block, the one case ran "
        "at 0.7× of it by the medians; by the intervals, ours ran clearly lower for XXH64 at 16 KiB." + tail
    )
    assert "7,000" not in lower and "its chart" not in lower  # per-case figures stay in the table
    higher = report.crosscheck_again_sentence(sweep, vs([7000.0] * 3), "openssl", whole_run=True)
    assert "ours ran clearly higher for XXH64 at 16 KiB." in higher and "over the whole run in both" in higher
    assert "The sweep's fastest slices, which its chart shows, ran at 2× its whole-run rates by the medians." in higher
    whole = report.crosscheck_again_sentence(sweep, vs([5000.0] * 3), "openssl", whole_run=True)
    assert "ours ran about the same for XXH64 at 16 KiB." in whole
    # several cases: the range of the ratios, grouped by the words, the overlapping ones counted
    many = pl.concat([vs([6000.0, 7000.0, 8000.0]), vs([9700.0, 10000.0, 10300.0], algorithm="xxh3_64"),
                      vs([2000.0, 9000.0, 30000.0], size=1024), vs([3000.0, 9000.0, 20000.0], size=4096)])  # fmt: skip
    sweep_more = pl.concat([sweep, native_rows({"xxh64": 10000.0}, size=1024), native_rows({"xxh64": 10000.0},
                                                                                        size=4096)])  # fmt: skip
    text = report.crosscheck_again_sentence(sweep_more, many, "xxhsum", whole_run=False)
    assert (
        "the 4 cases ran at 0.7× to 1× of it by the medians; by the intervals, ours ran clearly lower for XXH64 at "
        "16 KiB; about the same for XXH3-64 baseline at 16 KiB; for the other 2 the intervals overlap." in text
    )
    alone = report.crosscheck_again_sentence(sweep_more, vs([2000.0, 9000.0, 30000.0], size=1024), "xxhsum",
                                             whole_run=False)  # fmt: skip
    assert "by the medians; for XXH64 at 1 KiB the intervals overlap." in alone
    two = pl.concat([vs([2000.0, 9000.0, 30000.0], size=1024), vs([3000.0, 9000.0, 20000.0], size=4096)])
    assert "by the medians; for both the intervals overlap." in report.crosscheck_again_sentence(
        sweep_more, two, "xxhsum", whole_run=False
    )
    # slightly, and plainly (the median beyond SAME, a near end within): the words of claims.again_words
    near = report.crosscheck_again_sentence(sweep, vs([10200.0, 10300.0, 10400.0]), "xxhsum", whole_run=False)
    assert "ours ran slightly higher for XXH64 at 16 KiB." in near
    plain = report.crosscheck_again_sentence(sweep, vs([8000.0, 9000.0, 9900.0]), "xxhsum", whole_run=False)
    assert "ours ran lower for XXH64 at 16 KiB." in plain
    # a block the sweep did not measure: named, not dropped
    unpaired = pl.concat([vs([7000.0] * 3), vs([7000.0] * 3, size=102400)])
    named = report.crosscheck_again_sentence(sweep, unpaired, "xxhsum", whole_run=False)
    assert " The sweep did not measure blocks of 100 KiB, so XXH64 at 100 KiB is not set beside it." in named
    only = report.crosscheck_again_sentence(sweep, pl.concat([vs([1.0] * 3, size=102400), vs([1.0] * 3, size=5)]),
                                            "xxhsum", whole_run=False)  # fmt: skip
    assert only == (
        f"{head} of the fastest slice in both. The sweep did not measure blocks of 100 KiB and 5 bytes, so XXH64 "
        "at 100 KiB and XXH64 at 5 bytes are not set beside it. The chapter's figures are the sweep's; these runs "
        "serve only as xxhsum's partner in its ratio (each case's figures are in the table)."
    )
    assert report.crosscheck_again_sentence(sweep, vs([]), "xxhsum", whole_run=False) == (
        "Our loop did not run beside xxhsum here, so every figure of ours on this page is the size sweep's."
    )


X86 = {"cpu_flags": {"sse4_2": True, "pclmulqdq": True}}


def test_sha3_laptop_sentence_both_branches() -> None:
    cannot = "so this machine cannot say what made the phone's SHA3-256 faster."
    far = report.sha3_laptop_sentence(native_rows({"sha3-256": 500.0}), 65536, X86)
    assert far.startswith("The laptop's figure may be low: OpenSSL ran SHA3-256 at 500 MiB/s on this x86 CPU (64 KiB")
    assert "far above the laptop's 56.1 MiB/s" in far and "8.9×" not in far  # no ratio to a seed's figure
    assert "the library and the input size" in far and far.endswith(cannot)
    near = report.sha3_laptop_sentence(native_rows({"sha3-256": 100.0}), 65536, X86)
    assert near.startswith("Besides their CPUs") and near.endswith(cannot) and "software" not in near
    assert report.sha3_laptop_sentence(native_rows({"sha3-256": None}), 65536, X86).startswith("Besides their CPUs")
    # a dip at the table's size: read at the nearest steady size, and said
    dipped = sweep({"sha3-256": {s: [v * 500.0 / 44000.0 for v in values] for s, values in DIP.items()}})
    moved = report.sha3_laptop_sentence(dipped, 65536, X86)
    assert "(256 KiB inputs; SHA3-256's 64 KiB runs fell wholly below" in moved
    # a CPU that lists no x86 features (an Arm one): 'this CPU', no x86 rule of thumb, no verdict on the laptop
    for details in ({"cpu_flags": dict.fromkeys(hashing.CPU_FLAGS, False)}, {}):
        arm = report.sha3_laptop_sentence(native_rows({"sha3-256": 500.0}), 65536, details)
        assert arm.startswith("OpenSSL ran SHA3-256 at 500 MiB/s on this CPU (64 KiB inputs), far above the laptop's")
        assert "x86 CPU" not in arm and "x86 cores of recent generations" not in arm and "may be low" not in arm
        assert "cannot say whether the laptop's figure is low" in arm and arm.endswith(cannot)
        near_arm = report.sha3_laptop_sentence(native_rows({"sha3-256": 100.0}), 65536, details)
        assert near_arm.startswith("Besides their CPUs")


def test_crc_path_sentence_every_branch() -> None:
    wide = report.crc_path_sentence({"cpu_flags": {"avx512f": True, "avx512vl": True, "vpclmulqdq": True}})
    assert "ISA-L would pick, at run time, a loop that does not use the crc32 instruction at all" in wide
    assert wide.endswith("(this run does not record which loop it ran).")
    three = report.crc_path_sentence({"cpu_flags": {"pclmulqdq": True, "sse4_2": True}})
    assert "ISA-L would split the buffer into three streams" in three and "record which loop" in three
    assert "would compute CRC32C with a table-driven" in report.crc_path_sentence({"cpu_flags": {"sse4_2": True}})
    assert "not known here" in report.crc_path_sentence({})
    # an Arm CPU's cpuinfo has no x86 flags line: every flag False reads as not known, never as 'lacks'
    arm = report.crc_path_sentence({"cpu_flags": dict.fromkeys(hashing.CPU_FLAGS, False)})
    assert arm.startswith("Which CRC32C loop ISA-L picked is not known here: /proc/cpuinfo listed none")
    assert "lacks" not in arm and "table-driven" not in arm
    table = report.features_table({"cpu_flags": dict.fromkeys(hashing.CPU_FLAGS, False), "openssl_ia32cap": None})
    assert table["this CPU"].null_count() == table.height and table["OpenSSL sees it"].null_count() == table.height
    x86 = report.features_table({"cpu_flags": {"sse4_2": True}, "openssl_ia32cap": {"sse4_2": True}})
    assert x86.filter(pl.col("feature") == "SSE4.2").row(0, named=True)["this CPU"] is True
    assert x86.filter(pl.col("feature") == "AVX2").row(0, named=True)["this CPU"] is None  # not in the dict given
    with pytest.raises(TypeError, match="details"):
        report.x86_flags(["sse4_2"])  # type: ignore[arg-type]


def test_python_table_says_blake2_is_pythons_own() -> None:
    native = native_rows({"blake2b512": 1000.0}, size=16)
    python = native_rows({"blake2b512": 100.0}, size=16).with_columns(module=pl.lit("hashlib"))
    table = report.python_table(python, native, [16])
    assert table["Python adds"][0] == "not comparable: Python's own BLAKE2, not OpenSSL's"
    wheel = python.with_columns(module=pl.lit("pyblake2"))
    assert report.python_table(wheel, native, [16])["Python adds"][0].endswith(" ns")
    big_native = native_rows({"crc32c_isal": 50000.0}, size=65536)
    big_python = native_rows({"crc32c_isal": 20000.0}, size=65536).with_columns(module=pl.lit("crc32c"))
    assert report.python_table(big_python, big_native, [65536])["Python adds"][0].startswith("not the call")
    hashlib_big = big_python.with_columns(module=pl.lit("hashlib"))
    assert report.python_table(hashlib_big, big_native, [65536])["Python adds"][0].endswith(" ns")


# ---- every figure with its interval and run count (issue 20) --------------------------------------


def runs_of(rates: dict[str, list[float | None]], size: int = 65536) -> pl.DataFrame:
    """One repetition per value: `rates[algorithm][i]` is repetition i's MiB/s."""
    parts = []
    for algorithm, values in rates.items():
        for i, v in enumerate(values):
            parts.append(native_rows({algorithm: v}, size=size).with_columns(repetition=pl.lit(i)))
    return pl.concat(parts)


def test_reference_table_carries_interval_runs_and_marks() -> None:
    rates = {a: [1000.0, 1000.0, 1000.0] for a in hashing.ALGORITHMS}
    rates["sha256"] = [1000.0, 1300.0, 1740.0]  # wide: ±28 % of 1,300 against the ±10 % target
    rates["murmur3_x64_128"] = [None]
    ns_100, ns_16 = 16 / 100 / 2**20 * 1e9, 16 / 16 / 2**20 * 1e9  # the MiB/s of a 16-byte hash in 100 ns, 16 ns
    small = {a: [ns_100] * 3 for a in hashing.ALGORITHMS} | {"sha256": [ns_16] * 4, "murmur3_x64_128": [None]}
    native = pl.concat([runs_of(rates), runs_of(small, size=16)])
    table = report.reference_table(native, 65536, 16, 0.1)
    assert table.columns == ["hash", "MiB/s", "interval", "runs", "ns, 16 B", report.LAPTOP, report.PHONE,
                             "note"]  # fmt: skip
    row = {r["hash"]: r for r in table.iter_rows(named=True)}
    sha3 = row[report.SHORT_NAMES["sha3-256"]]
    assert (sha3["MiB/s"], sha3["interval"], sha3["runs"], sha3["ns, 16 B"]) == (
        1000.0, "1,000–1,000", 3, "100 (no spread)")  # fmt: skip
    sha256 = row[report.SHORT_NAMES["sha256"]]
    assert sha256["interval"] == "1,000–1,740; unstable: ±28 %" and sha256["runs"] == 3
    # its 16-byte figure had four runs, not the row's three: the cell says so
    assert sha256["ns, 16 B"] == "16 (no spread, 4 runs)"
    murmur = row[report.SHORT_NAMES["murmur3_x64_128"]]
    assert murmur["MiB/s"] is None and murmur["interval"] == "n/a" and murmur["runs"] is None
    assert murmur["ns, 16 B"] == "n/a" and murmur["note"] == "no library"
    assert "ns per hash" not in table.columns  # the 64 KiB time per hash only repeated MiB/s in another unit


def test_interval_cell_quoted_and_unstable_words() -> None:
    from howfast.stats import Estimate

    assert report.interval_cell(Estimate(100, 95, 104, 9), 0.1) == "95–104"
    assert report.interval_cell(Estimate(100, 60, 130, 9), 0.1) == "60–130; unstable: ±35 %"
    assert report.interval_cell(Estimate(100, 60, 130, 9)) == "60–130"  # no target: no mark
    assert report.interval_cell(None, 0.1) == "n/a"
    assert report.quoted(Estimate(38900, 38300, 40600, 3)) == "38,900 MiB/s (38,300–40,600, 3 runs)"
    assert report.quoted(Estimate(9.53, 6.72, 12.7, 5), "ns", runs=False) == "9.53 ns (6.72–12.7)"
    assert report.quoted(Estimate.exact(500)) == "500 MiB/s"
    assert report.quoted(None) == "n/a"
    assert tables.unstable_words(0.1) == (
        "a figure whose interval stayed wider than the profile's target (±10 %: half the interval's span, against "
        'the median; a lopsided interval may reach further on one side and pass) is marked "unstable"'
    )
    assert "fixed number of repetitions" in tables.unstable_words(None)
    with pytest.raises(ValueError, match="target"):
        tables.unstable_words(3.0)


def test_chart_frames_carry_the_interval_and_the_run_count() -> None:
    native = runs_of({"sha256": [900.0, 1000.0, 1100.0], "xxh64": [10000.0] * 3, "jhash": [None]})
    curves = report.throughput_curves(native)
    assert curves.columns == ["hash", "size", "median", "lo", "hi", "repetitions"]
    sha = curves.filter(pl.col("hash") == report.ALGORITHM_NAMES["sha256"]).row(0, named=True)
    assert (sha["median"], sha["lo"], sha["hi"], sha["repetitions"]) == (1000.0, 900.0, 1100.0, 3)
    bars = report.seed_comparison(native, 65536, "this machine")
    ours = bars.filter(pl.col("machine") == "this machine")
    assert set(ours["hash"]) == {"xxhash"}  # sha256 is no seed hash, jhash could not run
    assert ours.row(0, named=True) | {} == {"hash": "xxhash", "machine": "this machine", "median": 10000.0,
                                             "lo": 10000.0, "hi": 10000.0, "repetitions": 3}  # fmt: skip
    seeds = bars.filter(pl.col("machine") != "this machine")
    assert (seeds["lo"] == seeds["median"]).all() and seeds["repetitions"].is_null().all()  # printed figures


def test_python_table_cells_and_runs() -> None:
    native = runs_of({"sha256": [90.0, 100.0, 110.0]}, size=16)
    python = runs_of({"sha256": [10.0, 10.0, 10.0]}, size=16).with_columns(module=pl.lit("hashlib"))
    row = report.python_table(python, native, [16], 0.1).row(0, named=True)
    # the mark comes from the runs' MiB/s (±10 %: not past the target), as in the reference table, not from
    # their ns, whose interval is not symmetric (±10.1 %): one measurement, one mark
    assert row == {"hash (package)": "SHA-256 (hashlib)", "input": "16 bytes",
                   "Python ns": "1,530 (no spread)", "native loop": "OpenSSL", "native ns": "153 (139–170)",
                   "Python adds": "1,370 ns (1,360–1,390)", "runs": "3"}  # fmt: skip
    more = pl.concat([python, python.with_columns(repetition=pl.lit(9))])  # six Python runs, three native
    assert report.python_table(more, native, [16])["runs"][0] == "6 / 3"
    missing = report.python_table(python, native_rows({"sha256": None}, size=16), [16])
    assert missing.row(0, named=True)["native ns"] == "n/a" and missing["Python adds"][0] == "n/a"


def test_crosscheck_table_cells() -> None:
    rows = []
    for rep, (ours, theirs) in enumerate([(900.0, 1000.0), (950.0, 1000.0), (1000.0, 1000.0)]):
        base = {"algorithm": "sha256", "size": 16384, "seconds": 0.01, "repetition": rep, "unit": "MiB/s", "note": None}
        rows.append({**base, "tool": "howfast", "metric": "mib_per_s", "value": ours})
        rows.append({**base, "tool": "openssl", "metric": "mib_per_s", "value": theirs})
    frame = pl.DataFrame(rows, schema_overrides={"value": pl.Float64, "note": pl.String})
    table = report.crosscheck_table(frame, "openssl", 0.03)
    assert table.columns == [
        "hash",
        "block",
        "howfast MiB/s",
        "openssl MiB/s",
        "per-round ratio",
        "verdict",
    ]
    assert table.row(0) == ("SHA-256 (OpenSSL)", "16 KiB", "950 (900–1,000); unstable: ±5 %", "1,000 (no spread)",
                            "0.95× (0.9–1×, 3 rounds)", "agrees")  # fmt: skip
    near = frame.with_columns(value=pl.when(pl.col("tool") == "howfast").then(pl.col("value") * 0.999)
                              .otherwise(pl.col("value")))  # fmt: skip
    near_ratio = report.crosscheck_table(near, "openssl")["per-round ratio"][0]
    assert near_ratio == "0.95× (0.899–0.999×, 3 rounds)"  # not '0.9–1'


def test_ranking_sentence_says_when_first_or_last_place_is_open() -> None:
    clear = runs_of({"crc32c_isal": [9000.0, 10000.0, 11000.0], "md5": [700.0] * 3, "sha3-256": [90.0, 100.0, 110.0]})
    assert report.ranking_sentence(clear, 65536) == (
        "At 64 KiB the fastest was CRC32C (ISA-L) at 10,000 MiB/s and the slowest SHA3-256 (OpenSSL) at 100 MiB/s: "
        "100× (82–120×) apart. This ranks the native loops only; the Python packages' own builds are set beside "
        "them below."
    )
    open_top = runs_of({"crc32c_isal": [5000.0, 10000.0, 11000.0], "xxh64": [6000.0, 9000.0, 9500.0],
                        "sha3-256": [100.0] * 3})  # fmt: skip
    text = report.ranking_sentence(open_top, 65536)
    assert text.startswith("At 64 KiB the fastest by the medians was CRC32C (ISA-L) at 10,000 MiB/s and the slowest ")
    assert text.endswith(
        "CRC32C (ISA-L) was not clearly faster than XXH64 (libxxhash), at 9,000 MiB/s: the intervals overlap. This "
        "ranks the native loops only; the Python packages' own builds are set beside them below."
    )
    open_bottom = runs_of({"crc32c_isal": [10000.0] * 3, "md5": [90.0, 120.0, 200.0], "sha3-256": [95.0, 100.0, 105.0]})
    text = report.ranking_sentence(open_bottom, 65536)
    assert "the slowest by the medians SHA3-256 (OpenSSL)" in text
    assert text.endswith(
        "SHA3-256 (OpenSSL) was not clearly slower than MD5 (OpenSSL), at 120 MiB/s: the intervals overlap. This "
        "ranks the native loops only; the Python packages' own builds are set beside them below."
    )

    # first place clear of its neighbour in median order, but not of a hash further down: not clear
    far_open = runs_of({"crc32c_isal": [9500.0, 10000.0, 10500.0], "xxh64": [8900.0, 9000.0, 9100.0],
                        "md5": [5000.0, 8000.0, 9800.0], "sha3-256": [100.0] * 3})  # fmt: skip
    text = report.ranking_sentence(far_open, 65536)
    assert text.startswith("At 64 KiB the fastest by the medians was CRC32C (ISA-L) at 10,000 MiB/s and the slowest ")
    assert text.endswith(
        "CRC32C (ISA-L) was not clearly faster than MD5 (OpenSSL), at 8,000 MiB/s: the intervals overlap. This "
        "ranks the native loops only; the Python packages' own builds are set beside them below."
    )
    # last place likewise, against every other hash, each it could not be told from named
    low_open = runs_of({"crc32c_isal": [10000.0] * 3, "md5": [50.0, 150.0, 160.0], "sha1": [98.0, 101.0, 104.0],
                        "sha3-256": [95.0, 100.0, 105.0]})  # fmt: skip
    text = report.ranking_sentence(low_open, 65536)
    assert "the slowest by the medians SHA3-256 (OpenSSL)" in text
    assert text.endswith(
        "SHA3-256 (OpenSSL) was not clearly slower than MD5 (OpenSSL), at 150 MiB/s; and SHA-1 (OpenSSL), at 101 "
        "MiB/s: the intervals overlap. This ranks the native loops only; the Python packages' own builds are set "
        "beside them below."
    )


def test_small_key_sentence_and_rule_every_branch() -> None:
    def rows(ns_small: float, rate: float) -> pl.DataFrame:
        small = native_rows({"sha256": 16 / ns_small / 2**20 * 1e9}, size=16)
        return pl.concat([small, native_rows({"sha256": rate})])

    fixed = rows(200.0, 1000.0)  # the bytes alone: one padded 64-byte block, 61 ns of the 200
    text = report.small_key_sentence(fixed, ["sha256"], 16, 65536)
    assert text == (
        "In the native loop a 16-byte key costs 200 ns with SHA-256 (OpenSSL); its bytes alone (for SHA-256, one "
        "64-byte block: a block hash compresses whole blocks, padding included), at the rate it reached on 64 KiB "
        "inputs, would take 61 ns: at that size the fixed cost of a call (set-up, finishing, the call itself) decides."
    )
    # 100 ns is more than twice the 16 bytes' 15.3 ns, but less than twice the padded block's 61 ns
    assert report.small_key_sentence(rows(100.0, 1000.0), ["sha256"], 16, 65536).endswith(
        "even at that size the bytes, not the fixed cost of a call, decide."
    )
    assert report.short_key_rule(fixed, ["sha256"], 16, 65536).startswith("For short keys the call costs more")
    bytes_ = rows(61.0, 1000.0)  # 61 ns, all of it the block
    assert report.small_key_sentence(bytes_, ["sha256"], 16, 65536).endswith(
        "even at that size the bytes, not the fixed cost of a call, decide."
    )
    assert report.short_key_rule(bytes_, ["sha256"], 16, 65536).startswith("Whether the call or the bytes decide")
    split = pl.concat([fixed, native_rows({"xxh64": 16 / 16.0 / 2**20 * 1e9}, size=16), native_rows({"xxh64": 1000.0})])
    assert report.small_key_sentence(split, ["sha256", "xxh64"], 16, 65536).endswith(
        "the runs do not show the fixed cost of a call deciding for every one of them."
    )
    two = report.small_key_sentence(split, ["sha256", "xxh64"], 16, 65536)
    assert "at the rate each reached" in two and "would take 61 ns and 15.3 ns" in two  # XXH64: its 16 bytes
    assert "(for SHA-256, one 64-byte block: a block hash" in two and "XXH64," not in two
    assert (
        report.small_key_sentence(fixed, ["md5"], 16, 65536)
        == "None of these hashes ran at both 16 bytes and 64 KiB here."
    )


def test_terabyte_sentence_carries_the_interval() -> None:
    native = runs_of({"sha256": [1000.0, 1024.0, 1300.0], "xxh3_64_dispatch": [20000.0] * 3})
    text = report.terabyte_sentence(native, 65536, "sha256", "xxh3_64_dispatch")
    streamed = (
        "These times assume the data arrives as fast as the hash runs, on one core: streamed from memory or a disk "
        "it may arrive slower, which this chapter does not measure."
    )
    assert text == (
        "One core of this machine hashes about 1,020 MiB/s (1,000–1,300) with SHA-256 on 64 KiB blocks: at that rate "
        "checksumming 1 TiB takes 17.1 minutes (13.4–17.5) with SHA-256 and 52.4 s with XXH3 64-bit. " + streamed
    )
    alone = report.terabyte_sentence(native_rows({"sha256": 1024.0}), 65536, "sha256", "xxh3_64_dispatch")
    assert alone.endswith("checksumming 1 TiB takes 17.1 minutes with SHA-256. " + streamed)
    # the largest size measured too, with where each block size lives in the caches
    from howfast.claims import Cache

    caches = [Cache("L2", 2**20, 1), Cache("L3", 32 * 2**20, 2)]
    both = pl.concat([native, runs_of({"sha256": [512.0] * 3, "xxh3_64_dispatch": [10000.0] * 3}, size=2**30)])
    far = report.terabyte_sentence(both, 65536, "sha256", "xxh3_64_dispatch", 2**30, caches)
    assert far.startswith(
        "One core of this machine hashes about 1,020 MiB/s (1,000–1,300) with SHA-256 on 64 KiB blocks, each of which "
        "fits in the L2 cache (1 MiB, one per core): at that rate"
    )
    assert far.endswith(
        "; at the rate of the largest blocks measured, 1 GiB, which is larger than every cache (the L3 is 32 MiB, "
        "shared by 2 CPUs) and is served from RAM, it takes 34.1 minutes with SHA-256 and 105 s with XXH3 64-bit. "
        + streamed
    )
    # no larger size, or the slow hash missing there: the table's size alone
    assert report.terabyte_sentence(native, 65536, "sha256", "xxh3_64_dispatch", 65536, caches).count("1 TiB") == 1
    assert "largest" not in report.terabyte_sentence(native, 65536, "sha256", "xxh3_64_dispatch", 2**30, caches)
    assert report.terabyte_sentence(native_rows({"sha256": None}), 65536, "sha256", "xxh3_64_dispatch").endswith(
        "so this machine's time to checksum 1 TiB is not known."
    )


def test_largest_sentence_when_the_hash_could_not_run() -> None:
    from howfast.claims import Cache

    text = report.largest_sentence(native_rows({"xxh3_64_dispatch": None}, size=2**24), "xxh3_64_dispatch", 2**24,
                                   [Cache("L3", 32 * 2**20, 2)])  # fmt: skip
    assert text.endswith("XXH3 64-bit (libxxhash, dispatching entry) could not run here.") and "n/a" not in text


def test_builds_rule_every_branch() -> None:
    rates = {"xxh3_64": 5000.0, "xxh3_64_dispatch": 20000.0, "crc32c_isal": 50000.0}
    native = pl.concat([native_rows(rates, size=size) for size in (65536, 262144)])
    python = pl.concat(
        [native_rows({"crc32c_isal": 20000.0, "xxh3_64_dispatch": 19000.0}, size=size) for size in (65536, 262144)]
    ).with_columns(
        module=pl.when(pl.col("algorithm") == "crc32c_isal").then(pl.lit("crc32c")).otherwise(pl.lit("xxhash"))
    )
    text = report.builds_rule(native, python, 65536)
    assert text.startswith(
        "The same algorithm can differ 2× or more between builds and implementations: here, at two or more "
        "input sizes, libxxhash's two XXH3 entry points, 4× apart at 64 KiB; and the crc32c wheel's CRC32C against "
        "ISA-L's, 2.5× apart at 64 KiB (each at the size nearest 64 KiB where it held)."
    )
    assert "xxhash wheel" not in text  # 19,000 against 20,000: not 2× apart
    close = native_rows({"xxh3_64": 15000.0, "xxh3_64_dispatch": 20000.0})
    assert report.builds_rule(close, python.clear(), 65536).startswith(
        "Builds and implementations of one algorithm can differ 2× or more (these runs did not show it "
        "clearly at two or more input sizes)"
    )


def sweep(rates: dict[str, dict[int, list[float]]]) -> pl.DataFrame:
    """Runs per algorithm and size: `rates[algorithm][size]` is the MiB/s of each repetition."""
    return pl.concat([runs_of({a: values}, size=size) for a, by in rates.items() for size, values in by.items()])


# XXH3 as the disturbed quick set had it: 16 and 64 KiB fell to half of 4 KiB's and 256 KiB's
DIP = {4096: [40000.0, 41000.0, 44000.0], 16384: [12000.0, 19000.0, 25000.0], 65536: [15000.0, 19000.0, 28000.0],
       262144: [38000.0, 44000.0, 44300.0], 1048576: [41000.0, 43500.0, 43600.0]}  # fmt: skip
FLAT = {size: [1000.0, 1000.0, 1000.0] for size in DIP}


def test_a_rate_below_a_smaller_and_a_larger_input_is_a_dip() -> None:
    summary = stats_summary(sweep({"xxh3_64_dispatch": DIP, "sha256": FLAT}))
    assert [s for s in DIP if report.dipped(summary, "xxh3_64_dispatch", s)] == [16384, 65536]
    assert not report.dipped(summary, "sha256", 65536)  # flat: nothing above it
    assert not report.dipped(summary, "xxh3_64_dispatch", 4096)  # the smallest size has nothing below it
    assert report.steady_size(summary, ["sha256"], 65536) == 65536
    assert report.steady_size(summary, ["xxh3_64_dispatch", "sha256"], 65536) == 262144  # the nearer, the larger
    assert report.dip_words(summary, ["sha256"], 65536, 65536) == ""
    assert report.dip_words(summary, ["xxh3_64_dispatch", "sha256"], 65536, 262144) == (
        "XXH3-64 dispatch's 64 KiB runs fell wholly below both a smaller and a larger input's, a disturbed "
        "measurement, so this compares at 256 KiB"
    )
    # a rate that falls at large inputs and stays there is the memory, not a dip
    falling = stats_summary(sweep({"sha256": {4096: [1000.0] * 3, 65536: [1000.0] * 3, 2**24: [500.0] * 3}}))
    assert not report.dipped(falling, "sha256", 2**24) and not report.dipped(falling, "sha256", 65536)


def test_sentences_quote_the_nearest_steady_size_when_the_table_size_dipped() -> None:
    native = sweep({"xxh3_64_dispatch": DIP, "sha256": FLAT, "xxh3_64": FLAT})
    assert report.speed_sentence(native, "xxh3_64_dispatch", "sha256", 65536) == (
        "At 256 KiB (XXH3-64 dispatch's 64 KiB runs fell wholly below both a smaller and a larger input's, a "
        "disturbed measurement, so this compares at 256 KiB) SHA-256 (OpenSSL) ran at 1,000 MiB/s and XXH3 64-bit "
        "(libxxhash, dispatching entry) at 44,000 MiB/s (38,000–44,300), 44× faster "
        "than SHA-256 (38–44×)."
    )
    assert report.terabyte_sentence(native, 65536, "sha256", "xxh3_64_dispatch").startswith(
        "One core of this machine hashes about 1,000 MiB/s with SHA-256 on 256 KiB blocks (XXH3-64 dispatch's 64 KiB "
        "runs fell wholly below both a smaller and a larger input's, a disturbed measurement, so this compares at "
        "256 KiB): at that rate checksumming 1 TiB takes 17.5 minutes with SHA-256 and 23.8 s (23.7–27.6) with XXH3 "
        "64-bit."
    )
    assert report.dispatch_sentence(native, 65536).startswith("At 256 KiB (XXH3-64 dispatch's 64 KiB runs fell")


def test_every_sentence_that_reads_the_table_size_steps_past_a_dip() -> None:
    why = "XXH3-64 dispatch's 64 KiB runs fell wholly below both a smaller and a larger input's"
    native = sweep({"xxh3_64_dispatch": DIP, "sha256": FLAT})
    assert report.ranking_sentence(native, 65536).startswith(f"At 256 KiB ({why}, a disturbed measurement, so this")
    assert "the fastest was XXH3 64-bit (libxxhash, dispatching entry) at 44,000 MiB/s" in report.ranking_sentence(
        native, 65536
    )
    slow = report.slowest_note(native, "sha256", 65536)
    assert slow.startswith(f"SHA-256 (OpenSSL), at 1,000 MiB/s here ({why}") and "clearly the slowest" in slow
    assert report.slowest_rule(native, "sha256", 65536).startswith("SHA-256 was clearly the slowest hash here")
    crc = report.crc_sentence(sweep({"crc32c_isal": DIP, "crc32c_sse42": FLAT}), 65536)
    assert crc.startswith("At 256 KiB (CRC32C ISA-L's 64 KiB runs fell wholly below") and "44× faster" in crc
    # at 64 KiB the dip would make each of these read the other way
    fnv = sweep({"fnv1a_64": {s: [v / 2 for v in values] for s, values in DIP.items()}, "xxh64": {
        s: [20000.0] * 3 for s in DIP}})  # fmt: skip
    assert report.fnv_note(fnv, 65536).startswith("The seeds do not say which variant of FNV")
    crcs = sweep({"crc32c_isal": DIP, "crc32c_sse42": {s: [40000.0] * 3 for s in DIP}})
    assert "two CRC32C implementations" not in report.surprise_sentence(crcs, 65536)
    # no dip: the table's size, no words
    flat = sweep({"sha256": FLAT, "xxh3_64_dispatch": {s: [20000.0] * 3 for s in DIP}})
    assert report.ranking_sentence(flat, 65536).startswith("At 64 KiB the fastest was")


def test_builds_rule_needs_the_gap_at_two_sizes() -> None:
    wheel = {size: [v * 1.5 for v in values] for size, values in DIP.items() if size != 65536}
    native = sweep({"xxh3_64_dispatch": DIP, "xxh3_64": {s: [4000.0] * 3 for s in DIP}})
    python = sweep({"xxh3_64_dispatch": wheel}).with_columns(module=pl.lit("xxhash"))
    text = report.builds_rule(native, python, 65536)
    # the entry points: 11× at 256 KiB and 1 MiB, quoted at 256 KiB, the steady size nearest 64 KiB
    assert text.startswith(
        "The same algorithm can differ 2× or more between builds and implementations: here, at two or more "
        "input sizes, libxxhash's two XXH3 entry points, 11× (9.5–11×) apart at 256 KiB (each at the size nearest "
        "64 KiB where it held)."
    )
    assert "wheel" not in text  # 1.5× the library's: not 2× apart
    once = sweep({"xxh3_64_dispatch": {65536: [20000.0] * 3, 262144: [20000.0] * 3},
                  "xxh3_64": {65536: [5000.0] * 3, 262144: [15000.0] * 3}})  # fmt: skip
    assert report.builds_rule(once, python.clear(), 65536).startswith(
        "Builds and implementations of one algorithm can differ 2× or more (these runs did not show it "
        "clearly at two or more input sizes)"
    )


def stats_summary(native: pl.DataFrame) -> pl.DataFrame:
    from howfast import stats

    return stats.summarize(native, ["algorithm", "size"])


def test_cache_sentences_tell_a_shared_cache_as_a_guest_sees_it() -> None:
    from howfast.claims import Cache

    caches = [Cache("L2", 2**20, 1), Cache("L3", 32 * 2**20, 2)]
    big = 16 * 2**20
    rows = native_rows({"xxh3_64_dispatch": 30000.0}, size=big)
    assert report.largest_sentence(rows, "xxh3_64_dispatch", big, caches, virtual=True) == (
        "At 16 MiB, an input that fits in the L3 cache (32 MiB, shared by this VM's 2 CPUs and, on the host, "
        "perhaps by others), XXH3 64-bit (libxxhash, dispatching entry) ran at 30,000 MiB/s."
    )
    assert report.largest_sentence(rows, "xxh3_64_dispatch", big, caches) == (
        "At 16 MiB, an input that fits in the L3 cache (32 MiB, shared by 2 CPUs), XXH3 64-bit (libxxhash, "
        "dispatching entry) ran at 30,000 MiB/s."
    )
    small = native_rows({"xxh3_64_dispatch": 30000.0}, size=65536)
    assert "an input that fits in the L2 cache (1 MiB, one per core)," in report.largest_sentence(
        small, "xxh3_64_dispatch", 65536, caches, virtual=True
    )
    at = native_rows({"sha3-256": 500.0, "crc32c_isal": 50000.0})
    slowed = pl.concat([at, native_rows({"sha3-256": 160.0, "crc32c_isal": 50000.0}, size=big)])
    assert (
        " The input still fits in the L3 cache (32 MiB, shared by this VM's 2 CPUs and, on the host, perhaps by "
        "others), and from it CRC32C (ISA-L) read"
    ) in report.large_input_sentence(slowed, 65536, big, caches, 0.005, virtual=True)
    huge = pl.concat([at, native_rows({"sha3-256": 160.0}, size=2**30)])
    assert (
        " The input is larger than every cache (the L3 is 32 MiB, shared by this VM's 2 CPUs and, on the host, "
        "perhaps by others) and is served from RAM, so memory may share in the drop."
    ) in report.large_input_sentence(huge, 65536, 2**30, caches, 0.005, virtual=True)
    assert "shared by 2 CPUs) and is served from RAM" in report.large_input_sentence(huge, 65536, 2**30, caches, 0.005)


def test_reference_table_marks_a_dip() -> None:
    native = pl.concat([sweep({"xxh3_64_dispatch": DIP, "sha256": FLAT}), runs_of({"sha256": [100.0] * 3}, size=16)])
    row = {r["hash"]: r for r in report.reference_table(native, 65536, 16).iter_rows(named=True)}
    assert row["XXH3-64 dispatch"]["interval"] == "15,000–28,000; dip: disturbed"
    assert row["SHA-256"]["interval"] == "1,000–1,000"


def test_a_time_per_hash_takes_its_mark_from_the_rate() -> None:
    from howfast.stats import Estimate

    ns, rate = Estimate(3240, 2210, 3990, 3), Estimate(19300, 15700, 28200, 3)
    # the rate's mark, not the time's
    assert report._ns_cell(ns, rate, 0.1) == "3,240 (2,210–3,990); unstable: −19 %/+46 %"
    assert report._ns_cell(ns, None, 0.1) == "3,240 (2,210–3,990); unstable: ±27 %"
    assert report._ns_cell(None, rate, 0.1) == "n/a"


# ---- the reviewer's findings: dips below the large inputs, slices, overlapping calls ----------------


def test_a_dip_below_the_large_inputs_is_not_a_disturbance() -> None:
    # XXH3 as the full run had it: 256 bytes below both 64 bytes and 1 KiB, its size classes, not noise
    xxh3 = {64: [16800.0] * 3, 256: [12300.0] * 3, 1024: [36000.0] * 3, 4096: [60000.0] * 3}
    summary = stats_summary(sweep({"xxh3_64_dispatch": xxh3, "xxh3_64": xxh3, "sha256": FLAT}))
    assert not report.dipped(summary, "xxh3_64_dispatch", 256)  # below LARGE_INPUT: never read as disturbed
    assert report.size_class_note(sweep({"xxh3_64_dispatch": xxh3, "xxh3_64": xxh3, "sha256": FLAT})) == (
        "The rates of XXH3-64 baseline and XXH3-64 dispatch fell at 256 bytes, wholly below both a smaller and a "
        "larger input's rate, and rose again. Above 240 bytes XXH3 leaves its code for short inputs for its loop over "
        "long ones, which, seeded as here, first derives a key of its own on every call; that may make this dip the "
        "hash's own, so the page does not read it as a disturbance."
    )
    one = sweep({"xxh3_64_dispatch": xxh3, "xxh3_64": {s: [1000.0] * 3 for s in xxh3}})
    assert report.size_class_note(one).startswith("The rate of XXH3-64 dispatch fell at 256 bytes")
    # no dip at the boundary, no XXH3, or no size above 240 bytes: nothing to say
    assert report.size_class_note(sweep({"xxh3_64": {s: [1000.0] * 3 for s in xxh3}})) == (
        "No XXH3 entry point's rate fell at 256 bytes here, the first size swept above 240 bytes, where XXH3 changes "
        "its code."
    )
    assert report.size_class_note(sweep({"sha256": {64: [1.0] * 3, 256: [0.5] * 3, 1024: [2.0] * 3}})).startswith(
        "No XXH3 entry point's rate fell"
    )
    assert report.size_class_note(sweep({"xxh3_64": {16: [1.0] * 3, 64: [2.0] * 3}})) == (
        "This run swept no input above 240 bytes, where XXH3 changes its code."
    )
    # a size from LARGE_INPUT up is judged against the large inputs only: a higher rate at 256 bytes is no witness
    low = stats_summary(sweep({"xxh3_64": {256: [50000.0] * 3, 1024: [10000.0] * 3, 4096: [20000.0] * 3}}))
    assert not report.dipped(low, "xxh3_64", 1024)
    high = stats_summary(sweep({"xxh3_64": {1024: [50000.0] * 3, 4096: [10000.0] * 3, 16384: [20000.0] * 3}}))
    assert report.dipped(high, "xxh3_64", 4096)


def test_slice_words_every_branch() -> None:
    big = native_rows({"sha3-256": 500.0, "xxh64": 20000.0}, size=16 * 2**20)  # SHA3-256: 32 ms a call
    assert report.slice_words(big, 0.04) == (
        "the slowest call here, SHA3-256 (OpenSSL) on 16 MiB inputs, took 32 ms, so a slice (40 ms) held 1 such call "
        "at least"
    )
    assert report.slice_words(big, 0.2).endswith("so a slice (200 ms) held 6 such calls at least")
    assert report.slice_words(big, 0.01) == (
        "the slowest call here, SHA3-256 (OpenSSL) on 16 MiB inputs, took 32 ms, longer than a slice (10 ms), so "
        "there it filters little"
    )
    assert report.slice_words(native_rows({"sha3-256": None}), 0.04).startswith("no call was timed here")
    with pytest.raises(ValueError, match="slice_seconds"):
        report.slice_words(big, 0.0)


def test_overlap_note_both_branches() -> None:
    fnv = pl.concat([native_rows({"fnv1a_64": 2770.0}, size=16), native_rows({"fnv1a_64": 990.0})])
    text = report.overlap_note(fnv, 16, 65536)
    assert text.startswith(
        "FNV-1a 64 (written here) read a higher rate on 16-byte inputs (2,770 MiB/s) than on 64 KiB ones (990 MiB/s), "
        "2.8×, which a fixed cost per call alone cannot do."
    )
    assert text.endswith("which one long input does not allow. That may be why.")
    level = pl.concat([native_rows({"fnv1a_64": 500.0}, size=16), native_rows({"fnv1a_64": 990.0})])
    assert "was not clearly higher than on" in report.overlap_note(level, 16, 65536)
    assert report.overlap_note(level, 16, 65536).endswith("so this run shows no sign of it.")
    assert "not measured at both sizes" in report.overlap_note(native_rows({"fnv1a_64": 990.0}), 16, 65536)


def test_largest_sentence_steps_aside_when_the_large_input_sentence_quotes_it() -> None:
    from howfast.claims import Cache

    caches = [Cache("L2", 2**20, 1), Cache("L3", 32 * 2**20, 2)]
    big = 16 * 2**20
    slowed = pl.concat([native_rows({"xxh3_64_dispatch": 80000.0}), native_rows({"xxh3_64_dispatch": 47000.0},
                                                                                 size=big)])  # fmt: skip
    assert report.largest_sentence(slowed, "xxh3_64_dispatch", big, caches, table_size=65536) == ""
    assert "XXH3 64-bit (libxxhash, dispatching entry) from 80,000 to 47,000 MiB/s" in report.large_input_sentence(
        slowed, 65536, big, caches, 0.04
    )
    assert report.largest_sentence(slowed, "xxh3_64_dispatch", big, caches).endswith("ran at 47,000 MiB/s.")
    level = pl.concat([native_rows({"xxh3_64_dispatch": 50000.0}), native_rows({"xxh3_64_dispatch": 47000.0},
                                                                                size=big)])  # fmt: skip
    assert report.largest_sentence(level, "xxh3_64_dispatch", big, caches, table_size=65536).endswith(
        "ran at 47,000 MiB/s."
    )


def test_wheel_sentence_every_branch() -> None:
    native = native_rows({"xxh3_64_dispatch": 80000.0, "xxh3_128_dispatch": 80000.0, "crc32c_isal": 20000.0,
                          "sha256": 1000.0})  # fmt: skip
    python = runs_of({"xxh3_64_dispatch": [115000.0, 118000.0, 120000.0],
                      "xxh3_128_dispatch": [79000.0, 80000.0, 81000.0], "crc32c_isal": [9000.0] * 3,
                      "sha256": [2000.0] * 3}).with_columns(  # fmt: skip
        module=pl.when(pl.col("algorithm") == "crc32c_isal").then(pl.lit("crc32c"))
        .when(pl.col("algorithm") == "sha256").then(pl.lit("hashlib")).otherwise(pl.lit("xxhash"))
    )  # fmt: skip
    assert report.wheel_sentence(python, native, 65536) == (
        "At 64 KiB the xxhash wheel's XXH3 64-bit ran at 118,000 MiB/s, 1.5× faster than libxxhash's dispatching "
        "entry (1.4–1.5×): a wheel's own build beat the library the native loop calls. This run does not record "
        "which loop either ran; the wheel may carry a newer copy of the code, or one compiled for more of this CPU's "
        "instructions."
    )  # hashlib (faster here) is not a wheel; the 128-bit overlaps; the crc32c wheel was slower
    others = python.filter(pl.col("algorithm") != "xxh3_64_dispatch")
    assert report.wheel_sentence(others, native, 65536) == (
        "At 64 KiB no wheel's own build ran clearly faster than the native loop's library."
    )
    assert report.wheel_sentence(python.filter(pl.col("module") == "hashlib"), native, 65536) == (
        "No wheel was timed beside the native loop at 64 KiB here."
    )
    # a native rate that dipped at the size is not set beside a wheel
    dipped = sweep({"xxh3_64_dispatch": DIP})
    wheel = sweep({"xxh3_64_dispatch": {65536: [40000.0] * 3}}).with_columns(module=pl.lit("xxhash"))
    assert report.wheel_sentence(wheel, dipped, 65536).startswith("At 64 KiB no wheel's own build ran clearly")


def test_padded_blocks_of_the_block_hashes() -> None:
    assert report.padded_bytes("sha256", 16) == 64 and report.padded_bytes("md5", 55) == 64
    assert report.padded_bytes("sha1", 56) == 128  # no room left for the 0x80 byte and the length
    assert report.padded_bytes("sha3-256", 135) == 136 and report.padded_bytes("sha3-256", 136) == 272
    assert report.padded_bytes("blake2b512", 0) == 128 and report.padded_bytes("blake2b512", 128) == 128
    assert report.padded_bytes("xxh64", 16) == 16  # not a block hash: its bytes
    assert report.block_words("sha256", 16) == "one 64-byte block"
    assert report.block_words("sha256", 56) == "2 64-byte blocks"
    assert report.block_words("sha3-256", 16) == "one 136-byte block"
    assert report.block_words("xxh3_64_dispatch", 16) == ""
    with pytest.raises(ValueError, match="size"):
        report.padded_bytes("sha256", -1)


def test_busy_words_follow_the_noise_evidence() -> None:
    assert report.lower_bound_words(True) == (
        "The note at the top of the chapter found the machine busy, so read the rates as lower bounds on what a "
        "quiet run of this machine would give."
    )
    quiet = report.lower_bound_words(False)
    assert quiet.startswith("The note at the top of the chapter found the machine quiet by its thresholds")
    assert "lower bounds" not in quiet and "busy" not in quiet
    assert report.lower_bound_words(None).startswith("These runs recorded no noise evidence")
    assert report.rates_caveat(True) == (
        "The rates are fastest slices, on a machine the note at the top of the chapter found busy, so a quieter run "
        "may do better."
    )
    assert "found quiet" in report.rates_caveat(False) and "busy" not in report.rates_caveat(False)
    assert "recorded no noise evidence" in report.rates_caveat(None)
