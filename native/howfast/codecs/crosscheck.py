"""The codecs subject beside the standard tools: our zstd loops beside ``zstd -b#`` and our
lz4 loops beside ``lz4 -b#``, on the same file (written to the scratch dir), the same
level and one block (both tools benchmark a whole file as one block by default). Ours
and the tool alternate run by run (``bench.run(..., alternate=True)``).

Units: both tools print "MB/s" of input with MB = 10^6 bytes (their bench.c's MB_UNIT),
the fastest of their timed runs of many passes within the ``-i`` seconds; beside them our
loop runs as long per direction, in ``experiments.SLICES`` slices of many passes, and we
report its fastest slice, in the same unit. ``lz4 -b1``
is lz4's fast mode (LZ4_compress_fast, acceleration 1), ``-b9`` and up its HC mode.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable

from .. import crosscheck as general
from ..bench import Case, Outcome, Run, Unsupported, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from .plan import Plan

VS_ZSTD = "vs_zstd"
VS_LZ4 = "vs_lz4"
VS_TOOLS = (VS_ZSTD, VS_LZ4)

#: Our codec id -> the tool that benchmarks it.
TOOLS = {"zstd": "zstd", "lz4": "lz4", "lz4hc": "lz4"}

_RESULT = re.compile(
    r"(?P<size>\d+)\s*->\s*(?P<packed>\d+)\s*\(x?(?P<ratio>[\d.]+)\),\s*(?P<c>[\d.]+)\s*MB/s\s*,\s*(?P<d>[\d.]+)\s*MB/s"
)


def parse_bench(text: str) -> tuple[int, int, float, float]:
    """(input bytes, compressed bytes, compress MB/s, decompress MB/s) of the last complete
    result line of ``zstd -b`` or ``lz4 -b`` output (they redraw it with carriage returns)."""
    found = list(_RESULT.finditer(text.replace("\r", "\n")))
    if not found:
        raise ValueError(f"no result line in the benchmark output: {text.strip()[-300:]!r}")
    m = found[-1]
    return int(m.group("size")), int(m.group("packed")), float(m.group("c")), float(m.group("d"))


def tool_level(codec: str, level: int) -> int:
    """The tool's -b level for our (codec, level): lz4's fast mode is -b1."""
    if codec not in TOOLS:
        raise ValueError(f"codec must be one of {', '.join(TOOLS)}; got {codec!r}")
    return 1 if codec == "lz4" else level


def tool_bench(codec: str, level: int, path: str, seconds: int) -> tuple[int, int, float, float]:
    """``zstd -b#`` or ``lz4 -b#`` on the file at `path` for about `seconds` per direction."""
    name = TOOLS.get(codec)
    if name is None:
        raise ValueError(f"codec must be one of {', '.join(TOOLS)}; got {codec!r}")
    exe = shutil.which(name)
    if exe is None:
        raise Unsupported(f"the {name} command is not installed (apt-get install {name})")
    command = [exe, f"-b{tool_level(codec, level)}", f"-i{seconds}", path]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        raise Unsupported(f"{name} -b could not run: {(done.stderr or done.stdout).strip()[:200]}")
    return parse_bench(done.stdout + done.stderr)


def crosscheck_cases(plan: Plan, tool: str) -> list[dict]:
    """The (codec, level, input) cases of `plan` that `tool` (zstd or lz4) is set beside:
    each of its cross-check levels on each cross-check input, except that a slow level runs
    only on the plan's ``slow_inputs``, as in the main runs (so every case has a partner
    there)."""
    if tool not in set(TOOLS.values()):
        raise ValueError(f"tool must be one of {', '.join(sorted(set(TOOLS.values())))}; got {tool!r}")
    return [
        {"codec": c, "level": lv, "input": i}
        for c, lv in plan.crosscheck_levels
        if TOOLS[c] == tool
        for i in plan.crosscheck_inputs
        if (c, lv) not in plan.slow_levels or i in plan.slow_inputs
    ]


def _versus(
    name: str,
    tool: str,
    profile: Profile,
    scratch: Scratch,
    data_for: Callable[[str, int], bytes],
    ours: Callable[[str, int, bytes, int, float], Outcome],
) -> Run:
    plan = profile.codecs
    cases = [{**case, "tool": t} for case in crosscheck_cases(plan, tool) for t in ("howfast", tool)]
    files: dict[str, str] = {}

    def path_of(input_name: str) -> str:
        if input_name not in files:
            path = scratch.path / f"{input_name}.bin"
            path.write_bytes(data_for(input_name, plan.size))
            files[input_name] = str(path)
        return files[input_name]

    def measure(case: Case, s: Scratch) -> Outcome:
        data = data_for(case["input"], plan.size)
        if case["tool"] == "howfast":
            m = ours(case["codec"], case["level"], data, 0, plan.ours_crosscheck_seconds).metrics
            # the tools report their fastest timed run: beside it, our fastest slice of a run as long
            return Outcome({
                "compress_mb_per_s": m["compress_mb_per_s"],
                "decompress_mb_per_s": m["decompress_mb_per_s"],
                "ratio": m["ratio"],
            })  # fmt: skip
        size, packed, c, d = tool_bench(case["codec"], case["level"], path_of(case["input"]), plan.crosscheck_seconds)
        if size != len(data):
            raise RuntimeError(f"{tool} -b read {size} bytes, the input holds {len(data)}")
        return Outcome(
            {"compress_mb_per_s": (c, "MB/s"), "decompress_mb_per_s": (d, "MB/s"), "ratio": (size / packed, "x")}
        )

    if not cases:
        raise ValueError(f"the plan has no level for {tool}")
    return run(name, cases, measure, repetitions=profile.repetitions, scratch=scratch, alternate=True)


def versus_tools(
    profile: Profile,
    scratch: Scratch,
    data_for: Callable[[str, int], bytes],
    ours: Callable[[str, int, bytes, int, float], Outcome],
) -> list[Run]:
    """Ours beside ``zstd -b`` and ``lz4 -b``, alternating, on each level and input of the plan."""
    return [
        _versus(VS_ZSTD, "zstd", profile, scratch, data_for, ours),
        _versus(VS_LZ4, "lz4", profile, scratch, data_for, ours),
    ]


def tool_versions() -> dict[str, str | None]:
    return general.tool_versions({"zstd": ["-V"], "lz4": ["-V"]})


# every public function above refuses bad arguments with a clear exception
checked(globals())
