"""The hashing subject beside the standard tools: our OpenSSL loops beside ``openssl
speed -evp`` and our xxHash loops beside ``xxhsum -b``, on the same algorithm and block
size. Ours and the tool alternate run by run (``bench.run(..., alternate=True)``).

Units: ``openssl speed -mr`` prints bytes per second (its ``+F`` line); ``-elapsed`` makes
it divide by wall-clock time as we do (by default it divides by its user CPU time, which
on a shared machine leaves out the time the CPU spent on others). ``xxhsum -b`` prints
hashes per second ("it/s") and a "MB/s" that is MiB/s (it/s × block size / 2^20); we read
it/s and multiply by the block size. xxhsum times itself with ``clock()``, the CPU time of
its own process (xxHash's ``xsum_bench.c``), not the wall clock: on a busy CPU the time it
waited for others is left out of its figure and kept in ours.

Our loop hashes with a new seed each call (``XXH64(p, n, s)``, ``XXH3_64bits_withSeed``,
``XXH3_128bits_withSeed``), so each is put beside xxhsum's seeded variant (it too passes its
loop counter as the seed): above 240 bytes a nonzero seed makes XXH3 derive a secret of its
own on every call, work the unseeded variants (5, 11) do not do.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable

from .. import crosscheck as general
from ..bench import Case, Outcome, Run, Unsupported
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch

VS_OPENSSL = "vs_openssl"
VS_XXHSUM = "vs_xxhsum"

#: Our algorithm ids → xxhsum's benchmark variant numbers: xxhsum 0.8 numbers its hashes
#: 2i + 1 (aligned) and 2i + 2 (unaligned) in the order XXH32, XXH64, XXH3_64b,
#: XXH3_64b w/seed, XXH3_64b w/secret, XXH128, XXH128 w/seed, ... Ours pass a seed, so the
#: seeded variants; only the dispatching XXH3 entry points, which pick their vector loop
#: at run time as xxhsum's XXH3 does (the baseline ones stay on SSE2).
XXHSUM_VARIANTS = {"xxh64": 3, "xxh3_64_dispatch": 7, "xxh3_128_dispatch": 13}
#: The name xxhsum prints for each of those variants: a different name means another numbering.
XXHSUM_NAMES = {3: "XXH64", 7: "XXH3_64b w/seed", 13: "XXH128 w/seed"}
#: Our algorithm ids → the names ``openssl speed -evp`` takes.
OPENSSL_NAMES = {"sha3-256": "sha3-256", "sha256": "sha256", "sha1": "sha1", "md5": "md5", "blake2b512": "blake2b512"}

_F_LINE = re.compile(r"^\+F:\d+:(?P<name>[^:]+):(?P<rates>[\d.:]+)\s*$", re.MULTILINE)
_XXH_LINE = re.compile(r"(?P<id>\d+)#(?P<name>[^:\n]*?)\s*:\s*(?P<size>\d+)\s*->\s*(?P<its>\d+) it/s")


def parse_openssl_speed(text: str) -> float:
    """Bytes per second from ``openssl speed -mr`` output run with one ``-bytes`` size."""
    found = _F_LINE.search(text)
    if not found:
        raise ValueError(f"no +F line in openssl speed output: {text.strip()[:300]!r}")
    return float(found.group("rates").split(":")[0])


def parse_xxhsum(text: str, variant: int) -> tuple[int, float]:
    """(block size, hashes per second) of the last report of `variant` in ``xxhsum -b`` output
    (it redraws its line with carriage returns; the last one is the best iteration). A
    variant of ``XXHSUM_NAMES`` printed under another name is refused: that xxhsum numbers
    its variants differently, and the figure would be another hash's."""
    found = [m for m in _XXH_LINE.finditer(text.replace("\r", "\n")) if int(m.group("id")) == variant]
    if not found:
        raise ValueError(f"no result for variant {variant} in xxhsum output: {text.strip()[:300]!r}")
    name, expected = found[-1].group("name").strip(), XXHSUM_NAMES.get(variant)
    if expected is not None and name != expected:
        raise ValueError(f"xxhsum variant {variant} is {name!r} here, not {expected!r}")
    return int(found[-1].group("size")), float(found[-1].group("its"))


def openssl_speed(algorithm: str, size: int, seconds: int) -> float:
    """MiB/s of ``openssl speed -evp`` on blocks of `size` bytes for `seconds` (wall clock)."""
    exe = shutil.which("openssl")
    if exe is None:
        raise Unsupported("the openssl command is not installed (apt-get install openssl)")
    command = [exe, "speed", "-evp", OPENSSL_NAMES[algorithm], "-bytes", str(size), "-seconds", str(seconds)]
    done = subprocess.run([*command, "-elapsed", "-mr"], capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        raise Unsupported(f"openssl speed could not run {algorithm}: {(done.stderr or done.stdout).strip()[:200]}")
    return parse_openssl_speed(done.stdout) / 2**20


def xxhsum_bench(algorithm: str, size: int, iterations: int) -> float:
    """MiB/s of ``xxhsum -b`` on blocks of `size` bytes (the best of `iterations`)."""
    exe = shutil.which("xxhsum")
    if exe is None:
        raise Unsupported("xxhsum is not installed (apt-get install xxhash)")
    variant = XXHSUM_VARIANTS[algorithm]
    done = subprocess.run(
        [exe, f"-b{variant}", f"-i{iterations}", f"-B{size}"], capture_output=True, text=True, check=False, timeout=600
    )
    if done.returncode != 0:
        raise Unsupported(f"xxhsum -b could not run: {(done.stderr or done.stdout).strip()[:200]}")
    block, per_s = parse_xxhsum(done.stdout + done.stderr, variant)
    if block != size:
        raise RuntimeError(f"xxhsum hashed blocks of {block} bytes, asked for {size}")
    return per_s * size / 2**20


def _ours(ours: Callable[[str, int, float], Outcome], metric: str) -> Callable[[Case], float]:
    """Our loop on a cross-check case, as the figure comparable with the tool's."""
    return lambda case: ours(case["algorithm"], case["size"], case["seconds"]).metrics[metric][0]


def versus_openssl(profile: Profile, scratch: Scratch, ours: Callable[[str, int, float], Outcome]) -> Run:
    """Ours and ``openssl speed -evp``, alternating, on each (algorithm, block size) of the plan."""
    plan = profile.hashing
    cases = [
        {"algorithm": a, "size": n, "tool": t, "seconds": plan.ours_crosscheck_seconds}
        for a, n in plan.openssl_cases
        for t in ("howfast", "openssl")
    ]
    return general.versus(
        VS_OPENSSL,
        "openssl",
        cases,
        lambda c: openssl_speed(c["algorithm"], c["size"], plan.openssl_seconds),
        _ours(ours, "mean_mib_per_s"),  # openssl speed averages over its whole run
        "mib_per_s",
        "MiB/s",
        repetitions=profile.repetitions,
        scratch=scratch,
    )


def versus_xxhsum(profile: Profile, scratch: Scratch, ours: Callable[[str, int, float], Outcome]) -> Run:
    """Ours and ``xxhsum -b``, alternating, on each (algorithm, block size) of the plan."""
    plan = profile.hashing
    cases = [
        {"algorithm": a, "size": n, "tool": t, "seconds": plan.ours_crosscheck_seconds}
        for a, n in plan.xxhsum_cases
        for t in ("howfast", "xxhsum")
    ]
    return general.versus(
        VS_XXHSUM,
        "xxhsum",
        cases,
        lambda c: xxhsum_bench(c["algorithm"], c["size"], plan.xxhsum_iterations),
        _ours(ours, "mib_per_s"),  # xxhsum -b reports its fastest pass, as our fastest slice
        "mib_per_s",
        "MiB/s",
        repetitions=profile.repetitions,
        scratch=scratch,
    )


def tool_versions() -> dict[str, str | None]:
    return general.tool_versions({"openssl": ["version"], "xxhsum": ["-V"]})


# every public function above refuses bad arguments with a clear exception
checked(globals())
