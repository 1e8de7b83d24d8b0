"""Cross-checks: the same job through a standard tool, beside ours.

fio runs the durable-write jobs of the fsync chapter with the same block size, count,
sync method and O_DIRECT flag, on a file it first lays out (``--overwrite=1``), which
is our ``overwrite`` layout. Cases alternate ours / fio so that drift in a noisy disk
touches both.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import polars as pl

from . import fsync, stats
from .bench import Case, Outcome, Run, Unsupported, run
from .profiles import Profile, current_profile
from .scratch import Scratch

#: fio options for each of our durable-write methods.
FIO_OPTIONS: dict[str, list[str]] = {
    "write + fsync": ["--fsync=1"],
    "write + fdatasync": ["--fdatasync=1"],
    "O_DSYNC write": ["--sync=dsync"],
    "O_DIRECT | O_DSYNC write": ["--sync=dsync", "--direct=1"],
}
NAME = "fsync_vs_fio"


def paired_ratios(metrics: pl.DataFrame, by: list[str], metric: str) -> pl.DataFrame:
    """Ours / fio within each repetition, where the two ran one after the other: per case
    the median of those ratios and their range. On a disk whose speed drifts from minute
    to minute, the ratio of two runs side by side is steadier than either run."""
    rows = metrics.filter(pl.col("metric") == metric)
    empty = pl.DataFrame(schema={**{k: metrics.schema[k] for k in by}, "howfast / fio": pl.Float64,
                                 "ratio range": pl.String})
    if rows.height == 0 or not {"howfast", "fio"} <= set(rows["tool"].unique().to_list()):
        return empty
    wide = rows.pivot(on="tool", index=[*by, "repetition"], values="value")
    ratios = wide.select(*by, (pl.col("howfast") / pl.col("fio")).alias("r")).drop_nulls("r")
    return ratios.group_by(by, maintain_order=True).agg(
        pl.col("r").median().alias("howfast / fio"),
        pl.concat_str(pl.col("r").min().round(2), pl.lit("–"), pl.col("r").max().round(2)).alias("ratio range"),
    )


def side_by_side(metrics: pl.DataFrame, by: list[str], metric: str, *, unit: str) -> pl.DataFrame:
    """Ours beside fio per case: medians and the range over repetitions (a noisy disk moves
    both), the median of the per-repetition ratios ours / fio and their range. When fio
    could not run, its columns are empty and ``note`` says why."""
    summaries = stats.summarize(metrics, [*by, "tool"])
    summary = summaries.filter(pl.col("metric") == metric)
    cases = metrics.select(by).unique(maintain_order=True)
    for tool in ("howfast", "fio"):
        part = summary.filter(pl.col("tool") == tool).select(
            *by,
            pl.col("median").alias(f"{tool} {unit}"),
            pl.concat_str(pl.col("min").round(0).cast(pl.Int64), pl.lit("–"), pl.col("max").round(0).cast(pl.Int64))
            .alias(f"{tool} range"),
        )
        cases = cases.join(part, on=by, how="left", maintain_order="left")
    cases = cases.join(paired_ratios(metrics, by, metric), on=by, how="left", maintain_order="left")
    means = summaries.filter(pl.col("metric") == "mean")
    if means.height:
        wide = means.pivot(on="tool", index=by, values="median")
        if {"howfast", "fio"} <= set(wide.columns):
            cases = cases.join(wide.select(*by, (pl.col("howfast") / pl.col("fio")).alias("mean latency, howfast / fio")),
                               on=by, how="left", maintain_order="left")
    missing = stats.unsupported(metrics.filter(pl.col("tool") == "fio"), by)
    if missing.height:
        cases = cases.join(missing, on=by, how="left", maintain_order="left")
    return cases


def run_fio(scratch: Scratch, path: Path, options: list[str], *, remove: bool = True) -> dict:
    """Run fio on `path` with `options` and return its job's JSON report; the file is
    removed afterwards unless `remove` is false (a prepared file that others read)."""
    exe = shutil.which("fio")
    if exe is None:
        raise Unsupported("fio is not installed (apt-get install fio)")
    command = [exe, f"--filename={path}", *options, "--output-format=json"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=1800)
    finally:
        if remove:
            scratch.remove(Path(path))
    if done.returncode != 0:
        raise RuntimeError(f"fio failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    return json.loads(done.stdout[done.stdout.index("{"):])["jobs"][0]


def fio_version() -> str | None:
    exe = shutil.which("fio")
    if exe is None:
        return None
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
    return out.stdout.strip() or None


def fio_durable_writes(scratch: Scratch, method: str, block_size: int, writes: int) -> dict[str, float]:
    """Run fio's sync engine on `writes` blocks; its IOPS is durable writes per second."""
    if method not in FIO_OPTIONS:
        raise ValueError(f"no fio equivalent for method {method!r}; choose from {sorted(FIO_OPTIONS)}")
    options = ["--name=durable", "--rw=write", f"--bs={block_size}", f"--size={block_size * writes}",
               "--ioengine=sync", "--overwrite=1", *FIO_OPTIONS[method]]
    job = run_fio(scratch, scratch.file("fio"), options)
    write = job["write"]
    if write["total_ios"] != writes:
        raise RuntimeError(f"fio wrote {write['total_ios']} blocks, expected {writes}")
    # fio times the write and the fsync that follows it separately; a durable write is both
    sync_mean = job.get("sync", {}).get("lat_ns", {}).get("mean", 0.0) if method in ("write + fsync", "write + fdatasync") else 0.0
    return {"writes_per_s": float(write["iops"]), "mean_us": (write["lat_ns"]["mean"] + sync_mean) / 1e3}


def _measure(case: Case, scratch: Scratch) -> Outcome:
    if case["tool"] == "fio":
        got = fio_durable_writes(scratch, case["method"], case["block_size"], case["writes"])
        return Outcome({"writes_per_s": (got["writes_per_s"], "writes/s"), "mean": (got["mean_us"], "us")})
    ours = fsync.measure_writes({**case, "layout": "overwrite"}, scratch)
    return Outcome({"writes_per_s": ours.metrics["writes_per_s"], "mean": ours.metrics["mean"]})


def durable_writes_vs_fio(profile: Profile | None = None, scratch: Scratch | None = None) -> Run:
    """Ours and fio, alternating, on each method of ``FIO_OPTIONS``."""
    plan = (profile or current_profile()).fsync
    cases = [
        {"method": m, "tool": tool, "block_size": plan.block_size, "writes": plan.crosscheck_writes}
        for m in FIO_OPTIONS
        for tool in ("howfast", "fio")
    ]
    return run(NAME, cases, _measure, repetitions=(profile or current_profile()).repetitions, scratch=scratch,
               alternate=True)


# --- the storing-data chapter: disk jobs through fio ---------------------------------

DISK_NAME = "storage_vs_fio"
_FIO_ENGINES = {"sync": "psync", "aio": "posixaio", "io_uring": "io_uring"}


def disk_crosscheck_cases(profile: Profile) -> list[dict]:
    """The rows checked against fio: sequential read and write, random 4 KiB reads,
    and the io_uring rows (O_DIRECT, so neither tool measures the page cache)."""
    from .storage import io_case

    plan = profile.storage
    size, big = plan.fio_file_size, plan.matrix_block_size
    rows = [
        io_case(engine="sync", op="read", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="sync", op="write", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="sync", op="write", fsync=True, block_size=big, file_size=size),
        io_case(engine="sync", pattern="random", op="read", direct=True, cache="n/a", block_size=4096,
                file_size=size // 4),
        io_case(engine="aio", op="read", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="io_uring", op="read", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="io_uring", pattern="random", op="read", direct=True, cache="n/a", block_size=big,
                file_size=size),
        io_case(engine="io_uring", op="write", direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="io_uring", op="write", fsync=True, direct=True, cache="n/a", block_size=big, file_size=size),
        io_case(engine="io_uring", pattern="random", op="read", direct=True, cache="n/a", block_size=4096,
                file_size=size // 4, queue_depth=32),
    ]
    return [{**row, "tool": tool} for row in rows for tool in ("howfast", "fio")]


def fio_io(scratch: Scratch, case: Case, read_file: Path | None) -> dict[str, float]:
    """Run one disk case through fio; returns its ops/s and MB/s."""
    if case["jobs"] != 1 or case["op"] == "readwrite":
        raise ValueError("the fio cross-check runs single jobs of reads or writes")
    rw = ("rand" if case["pattern"] == "random" else "") + case["op"]
    path = read_file if case["op"] == "read" else scratch.file("fio-write")
    options = ["--name=check", f"--rw={rw}", f"--bs={case['block_size']}", f"--size={case['file_size']}",
               f"--ioengine={_FIO_ENGINES[case['engine']]}", f"--iodepth={case['queue_depth']}",
               f"--direct={int(case['direct'])}", "--fallocate=none", *(["--fsync=1"] if case["fsync"] else [])]
    job = run_fio(scratch, path, options, remove=case["op"] != "read")
    side = job[case["op"]]
    if side["io_bytes"] != case["file_size"]:
        raise RuntimeError(f"fio moved {side['io_bytes']} bytes, expected {case['file_size']}")
    sync_mean = job.get("sync", {}).get("lat_ns", {}).get("mean", 0.0) if case["fsync"] else 0.0
    return {"ops_per_s": float(side["iops"]), "mb_per_s": float(side["bw_bytes"]) / 1e6,
            "mean_us": (side["lat_ns"]["mean"] + sync_mean) / 1e3}


def disk_vs_fio(profile: Profile | None = None, scratch: Scratch | None = None, files=None) -> Run:
    """Ours and fio, alternating, on the rows of ``disk_crosscheck_cases``."""
    from . import storage

    profile = profile or current_profile()

    def measure(case: Case, s: Scratch) -> Outcome:
        nonlocal files
        files = files or storage.Files(s)
        storage.check_capabilities(case, s.path)
        if case["tool"] == "howfast":
            ours = storage.measure_io(case, s, files)
            return Outcome({k: ours.metrics[k] for k in ("ops_per_s", "mb_per_s", "mean")})
        read_file = Path(f"{files.for_reading(case['file_size'], 1)}.0") if case["op"] == "read" else None
        got = fio_io(s, case, read_file)
        return Outcome({"ops_per_s": (got["ops_per_s"], "ops/s"), "mb_per_s": (got["mb_per_s"], "MB/s"),
                        "mean": (got["mean_us"], "us")})

    return run(DISK_NAME, disk_crosscheck_cases(profile), measure, repetitions=profile.repetitions, scratch=scratch)


def agreement_sentence(table: pl.DataFrame) -> str:
    """How far ours and fio's figures were apart, in throughput and in mean time per I/O."""
    from .fmt import ratio

    rates = table["howfast / fio"].drop_nulls()
    if rates.len() == 0:
        return "fio is not installed on this machine, so this check did not run."
    text = (f"Run for run, ours came out between {ratio(rates.min())} and {ratio(rates.max())} of fio's rate "
            "(the medians of each row's ratios)")
    column = "mean latency, howfast / fio"
    if column in table.columns and table[column].drop_nulls().len():
        lat = table[column].drop_nulls()
        text += (f", and our mean time per I/O between {ratio(lat.min())} and {ratio(lat.max())} of fio's. fio's rate "
                 "divides by a runtime that also holds its own set-up, which weighs on short runs; the time per I/O "
                 "compares the two instruments on the I/O itself")
    return text + "."
