"""The fsync subject's experiments: what one durable write costs, by method, block
size and batch size, and the same jobs through fio (``crosscheck``).

``measure`` runs every experiment through ``bench.run`` in one scratch directory and
hands each to the results store; the native loops are ``native/src/fsync/``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import _native, capabilities
from ..bench import Case, Outcome, Unsupported, latency_metrics, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from ..store import Writer
from . import crosscheck

#: The shape of what this subject stores; bump it when its cases, ids or metrics change
#: (older stored sets are then measured again instead of misread).
SCHEMA = 2

#: How each method (by its id; the chapter names them) makes a write durable:
#: (the native loop's sync call, O_DIRECT).
METHODS: dict[str, tuple[str, bool]] = {
    "none": ("none", False),
    "fsync": ("fsync", False),
    "fdatasync": ("fdatasync", False),
    "dsync": ("dsync", False),
    "direct": ("none", True),
    "direct_dsync": ("dsync", True),
}
#: Append grows a new file (size and extents change on every write); overwrite
#: rewrites blocks of a file already written and synced (only data changes).
LAYOUTS = ("append", "overwrite")
#: The methods drawn across block sizes.
SWEEP_METHODS = ("none", "fsync", "dsync", "direct_dsync")

LATENCY = "latency"
BLOCK_SIZES = "block_sizes"
GROUP_COMMIT = "group_commit"


@lru_cache(maxsize=8)
def _direct_io(directory: str) -> capabilities.Capability:
    return capabilities.direct_io(directory)


def measure_writes(case: Case, scratch: Scratch) -> Outcome:
    """One repetition of a durable-write case: ``method``, ``layout``, ``block_size``, ``writes``."""
    sync, direct = METHODS[case["method"]]
    if direct:
        cap = _direct_io(str(scratch.path))
        if not cap.supported:
            raise Unsupported(cap.reason)
        if case["block_size"] % cap.detail:
            raise Unsupported(
                f"block size {case['block_size']} is not a multiple of the O_DIRECT alignment {cap.detail}"
            )
    path = scratch.file("durable-write")
    try:
        r = _native.durable_writes(
            str(path), case["block_size"], case["writes"], sync=sync, direct=direct, layout=case["layout"]
        )
    finally:
        scratch.remove(path)
    metrics = latency_metrics(r["latency_ns"], r["elapsed_ns"], per="write")
    metrics["mb_per_s"] = (r["bytes"] / (r["elapsed_ns"] / 1e9) / 1e6, "MB/s")
    if sync in ("fsync", "fdatasync"):
        metrics["sync_p50"] = (float(np.percentile(r["sync_ns"], 50)) / 1e3, "us")
    return Outcome(metrics, samples=r["latency_ns"])


def measure_group_commit(case: Case, scratch: Scratch) -> Outcome:
    """One repetition of group commit: ``records_per_sync`` writes of ``record_size``, then fsync."""
    path = scratch.file("group-commit")
    try:
        r = _native.group_commit(str(path), case["record_size"], case["records_per_sync"], case["syncs"], sync="fsync")
    finally:
        scratch.remove(path)
    seconds = r["elapsed_ns"] / 1e9
    metrics = latency_metrics(r["batch_ns"], r["elapsed_ns"], per="sync")
    metrics["records_per_s"] = (r["records"] / seconds, "records/s")
    metrics["mb_per_s"] = (r["bytes"] / seconds / 1e6, "MB/s")
    return Outcome(metrics, samples=r["batch_ns"])


def latency_cases(profile: Profile) -> list[dict]:
    plan = profile.fsync
    return [
        {"method": m, "layout": layout, "block_size": plan.block_size, "writes": plan.writes}
        for layout in LAYOUTS
        for m in METHODS
    ]


def block_size_cases(profile: Profile) -> list[dict]:
    plan = profile.fsync
    return [
        {
            "method": m,
            "layout": "append",
            "block_size": bs,
            "writes": max(8, min(plan.sweep_writes, plan.sweep_bytes_cap // bs)),
        }
        for bs in plan.sweep_block_sizes
        for m in SWEEP_METHODS
    ]


def group_commit_cases(profile: Profile) -> list[dict]:
    plan = profile.fsync
    return [
        {
            "records_per_sync": n,
            "record_size": plan.record_size,
            "syncs": max(plan.batch_min_syncs, plan.batch_records // n),
        }
        for n in plan.batch_sizes
    ]


def _bytes_needed(cases: list[dict]) -> int:
    """The largest single file any case writes (each is removed before the next)."""
    sizes = [
        c.get("block_size", c.get("record_size", 0)) * c.get("writes", c.get("records_per_sync", 1) * c.get("syncs", 1))
        for c in cases
    ]
    return max(sizes)


def measure(profile: Profile, out: Writer) -> None:
    """The subject's experiments in one scratch dir, each handed to `out`."""
    plans = {
        LATENCY: (latency_cases(profile), measure_writes),
        BLOCK_SIZES: (block_size_cases(profile), measure_writes),
        GROUP_COMMIT: (group_commit_cases(profile), measure_group_commit),
    }
    need = max(_bytes_needed(cases) for cases, _ in plans.values())
    need = max(need, profile.fsync.block_size * profile.fsync.crosscheck_writes)
    with Scratch(need_bytes=need) as scratch:
        out.record_facts(scratch.path)
        for name, (cases, measure_one) in plans.items():
            out.add(run(name, cases, measure_one, repetitions=profile.repetitions, scratch=scratch))
        out.add(crosscheck.versus_fio(profile, scratch, measure_writes))


# every public function above refuses bad arguments with a clear exception
checked(globals())
