"""RocksDB beside db_bench: db_bench (Debian's rocksdb-tools) runs seed 000's four tests
with the same settings and counts as our loop, one process for the whole sequence.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from ..bench import Case, Outcome, Run, Unsupported, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from .experiments import PERCENTILES, SEED, TESTS, Session, cases, compression, disabled_reason, measurer, remove_tree
from .plan import Plan as RocksdbPlan

NAME = "vs_db_bench"

_SUMMARY = re.compile(
    r"^(?P<test>\w+)\s*:\s*(?P<micros>[\d.]+) micros/op (?P<ops>\d+) ops/sec (?P<seconds>[\d.]+) seconds "
    r"(?P<operations>\d+) operations;\s*(?:(?P<mb>[\d.]+) MB/s)?(?:\s*\((?P<found>\d+) of (?P<of>\d+) found\))?",
    re.MULTILINE,
)
_PERCENTILES = re.compile(r"P50: ([\d.]+) P75: ([\d.]+) P99: ([\d.]+) P99\.9: ([\d.]+) P99\.99: ([\d.]+)")


def parse_db_bench(text: str) -> dict[str, dict[str, float]]:
    """Each test's summary line (and the percentiles printed after it with --histogram=1)."""
    out: dict[str, dict[str, float]] = {}
    matches = list(_SUMMARY.finditer(text))
    for i, m in enumerate(matches):
        figures = {
            "micros_per_op": float(m["micros"]),
            "ops_per_s": float(m["ops"]),
            "seconds": float(m["seconds"]),
            "operations": float(m["operations"]),
        }
        if m["mb"]:
            figures["mb_per_s"] = float(m["mb"])
        if m["found"]:
            figures["keys_found"] = float(m["found"])
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        p = _PERCENTILES.search(text, m.end(), end)
        if p:
            figures |= {name: float(v) for name, v in zip(PERCENTILES, p.groups())}
        out[m["test"]] = figures
    return out


def db_bench_path() -> str | None:
    return shutil.which("db_bench")


def db_bench_command(exe: str, db: Path, plan: RocksdbPlan, tests: tuple[str, ...] = TESTS) -> list[str]:
    """db_bench with seed 000's settings, our sizes, one thread (readwhilewriting adds its writer)."""
    return [
        exe,
        f"--db={db}",
        f"--benchmarks={','.join(tests)}",
        f"--num={plan.entries}",
        f"--reads={plan.reads}",
        f"--key_size={plan.key_size}",
        f"--value_size={plan.value_size}",
        f"--compression_type={compression()}",
        f"--compression_ratio={plan.compression_ratio}",
        "--threads=1",
        f"--write_buffer_size={plan.write_buffer_size}",
        f"--max_write_buffer_number={plan.max_write_buffer_number}",
        f"--cache_size={plan.cache_size}",
        "--disable_wal=0",
        "--sync=0",
        "--histogram=1",
        f"--seed={SEED}",
    ]


def run_db_bench(scratch: Scratch, plan: RocksdbPlan) -> dict[str, dict[str, float]]:
    """db_bench's four tests in one process on a fresh database in the scratch dir."""
    exe = db_bench_path()
    if exe is None:
        raise Unsupported("db_bench is not installed (apt-get install rocksdb-tools)")
    db = scratch.file("db_bench").with_suffix("")
    try:
        done = subprocess.run(
            db_bench_command(exe, db, plan), capture_output=True, text=True, check=False, timeout=3600, cwd=scratch.path
        )
    finally:
        remove_tree(scratch, db)
    if done.returncode != 0:
        raise RuntimeError(f"db_bench failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    figures = parse_db_bench(done.stdout)
    missing = [t for t in TESTS if t not in figures]
    if missing:
        raise RuntimeError(f"db_bench printed no result for {missing}: {done.stdout[-2000:]}")
    return figures


def crosscheck_cases(plan: RocksdbPlan) -> list[dict]:
    """Ours and db_bench on the same sequence, every test on one thread as db_bench runs it
    (reads per thread: plan.reads for both read tests)."""
    ours = cases(plan, threads={t: 1 for t in TESTS})
    ours = [{**c, "ops_per_thread": plan.reads if c["test"].startswith("read") else c["ops_per_thread"]} for c in ours]
    return [{**c, "tool": tool} for tool in ("howfast", "db_bench") for c in ours]


def versus_db_bench(profile: Profile, scratch: Scratch) -> Run:
    """Our sequence, then db_bench's (one process), with the same settings and counts;
    ``plan.crosscheck_repetitions`` times."""
    plan = profile.rocksdb
    cached: dict[str, dict[str, float]] = {}
    why_not: list[str] = []  # db_bench's Unsupported reason for this repetition, if any

    with Session(scratch) as session:
        ours = measurer(session, plan)

        def measure(case: Case, s: Scratch) -> Outcome:
            if case["tool"] == "howfast":
                got = ours(case, s)
                keep = ("ops_per_s", "micros_per_op", "mb_per_s", "latency_p50", "latency_p99")
                return Outcome({k: got.metrics[k] for k in keep})
            reason = disabled_reason()
            if reason:
                raise Unsupported(reason)
            if case["test"] == TESTS[0]:  # one db_bench process runs the whole sequence
                cached.clear()
                why_not.clear()
                try:
                    cached.update(run_db_bench(s, plan))
                except Unsupported as why:
                    why_not.append(str(why))
                    raise
            if why_not:
                raise Unsupported(why_not[0])
            figures = cached[case["test"]]
            units = {
                "ops_per_s": "ops/s",
                "micros_per_op": "us",
                "mb_per_s": "MiB/s",
                "latency_p50": "us",
                "latency_p99": "us",
            }
            return Outcome({k: (figures[k], u) for k, u in units.items() if k in figures})

        return run(NAME, crosscheck_cases(plan), measure, repetitions=plan.crosscheck_repetitions, scratch=scratch)


# every public function above refuses bad arguments with a clear exception
checked(globals())
