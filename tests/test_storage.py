"""The disk engines: every engine and mode reads back what was written, random
offsets cover the file exactly, bad arguments raise, missing capabilities are rows
that say why."""

from __future__ import annotations

import dataclasses
import errno
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from conftest import block_file_matches
from howfast import _native, store
from howfast.bench import run
from howfast.profiles import PROFILES
from howfast.storage import experiments as storage
from howfast.storage import report as storage_report

ENGINES = ["sync", "aio", "io_uring"]


def uring_or_skip() -> None:
    if not _native.probe_io_uring()["supported"]:
        pytest.skip("io_uring unsupported here")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pattern", ["sequential", "random"])
@pytest.mark.parametrize("direct", [False, True])
@pytest.mark.parametrize("fsync", [False, True])
def test_writes_land_where_they_should(scratch_dir: Path, engine: str, pattern: str, direct: bool, fsync: bool) -> None:
    if engine == "io_uring":
        uring_or_skip()
    base, bs, blocks = scratch_dir / "w", 16384, 24
    depth = 1 if engine == "sync" else 4
    r = _native.disk_io(
        str(base),
        engine=engine,
        op="write",
        random=pattern == "random",
        fsync=fsync,
        direct=direct,
        block_size=bs,
        file_size=bs * blocks,
        queue_depth=depth,
    )
    assert r["bytes_written"] == bs * blocks and r["bytes_read"] == 0
    assert len(r["jobs"][0]["latency_ns"]) == blocks and (r["jobs"][0]["latency_ns"] > 0).all()
    # every block exactly once, nothing past the end: the file is the full pattern
    assert block_file_matches(Path(f"{base}.0"), bs, blocks)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pattern", ["sequential", "random"])
@pytest.mark.parametrize("direct", [False, True])
def test_reads_return_what_was_written(scratch_dir: Path, engine: str, pattern: str, direct: bool) -> None:
    if engine == "io_uring":
        uring_or_skip()
    base, size = scratch_dir / "r", 1 << 20
    _native.prepare_file(f"{base}.0", size, 4096)
    for bs in (4096, 65536):
        r = _native.disk_io(
            str(base),
            engine=engine,
            op="read",
            random=pattern == "random",
            direct=direct,
            block_size=bs,
            file_size=size,
            queue_depth=1 if engine == "sync" else 8,
            verify=True,
        )
        assert r["bytes_read"] == size and r["mismatches"] == 0


def test_verify_catches_a_corrupted_block(scratch_dir: Path) -> None:
    base, size = scratch_dir / "r", 1 << 20
    _native.prepare_file(f"{base}.0", size, 4096)
    with open(f"{base}.0", "r+b") as f:
        f.seek(12345)
        f.write(b"\x00\xff")
    r = _native.disk_io(str(base), op="read", block_size=65536, file_size=size, verify=True)
    assert r["mismatches"] == 1


def test_io_uring_registered_buffers_and_files(scratch_dir: Path) -> None:
    uring_or_skip()
    base, size = scratch_dir / "r", 1 << 20
    _native.prepare_file(f"{base}.0", size, 4096)
    r = _native.disk_io(
        str(base),
        engine="io_uring",
        op="read",
        random=True,
        direct=True,
        block_size=4096,
        file_size=size,
        queue_depth=16,
        fixed_buffers=True,
        fixed_files=True,
        verify=True,
    )
    assert r["mismatches"] == 0
    w = scratch_dir / "w"
    _native.disk_io(
        str(w),
        engine="io_uring",
        op="write",
        random=True,
        fsync=True,
        block_size=8192,
        file_size=8192 * 16,
        queue_depth=4,
        fixed_buffers=True,
        fixed_files=True,
    )
    assert block_file_matches(Path(f"{w}.0"), 8192, 16)


def test_parallel_jobs_and_readwrite_mix(scratch_dir: Path) -> None:
    base, size, jobs = scratch_dir / "p", 1 << 20, 3
    w = _native.disk_io(str(base), op="write", block_size=65536, file_size=size, jobs=jobs)
    assert len(w["jobs"]) == jobs and w["bytes_written"] == size * jobs
    for j in range(jobs):
        assert block_file_matches(Path(f"{base}.{j}"), 65536, size // 65536)
    mix = _native.disk_io(str(base), op="readwrite", block_size=65536, file_size=size, jobs=jobs)
    assert mix["bytes_read"] + mix["bytes_written"] == size * jobs
    flags = np.concatenate([j["is_write"] for j in mix["jobs"]])
    assert 0 < flags.sum() < flags.size
    for j in range(jobs):  # writes of the mix put the same stamped blocks back
        assert block_file_matches(Path(f"{base}.{j}"), 65536, size // 65536)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"block_size": 0}, ValueError, "block_size must be positive"),
        ({"file_size": -1}, ValueError, "file_size must be positive"),
        ({"file_size": 10000}, ValueError, "not a multiple of block_size"),
        ({"queue_depth": 0}, ValueError, "queue_depth must be positive"),
        ({"queue_depth": 4}, ValueError, "queue_depth must be 1 for the sync engine"),
        ({"jobs": 0}, ValueError, "jobs must be positive"),
        ({"engine": "carrier-pigeon"}, ValueError, "engine must be"),
        ({"op": "erase"}, ValueError, "op must be"),
        ({"fsync": True}, ValueError, "fsync applies to writes"),
        ({"fixed_buffers": True}, ValueError, "fixed_buffers needs"),
        ({"block_size": 4000, "file_size": 40000, "direct": True}, ValueError, "not a multiple of"),
        ({"op": "write", "block_size": 64 << 20, "file_size": 1 << 40}, ValueError, "too large for the scratch"),
        ({"engine": "io_uring", "queue_depth": 10**9}, ValueError, r"queue_depth must be at most 4096 \(1 to 4096\)"),
        ({"op": "write", "jobs": 256, "file_size": 1 << 30}, ValueError, "block_size \\* jobs must be at most"),
        ({"op": "write", "jobs": 10**6}, ValueError, r"jobs must be at most 256 \(1 to 256\)"),
    ],
)
def test_bad_arguments(scratch_dir: Path, kwargs: dict, error: type, message: str) -> None:
    base = scratch_dir / "r"
    _native.prepare_file(f"{base}.0", 1 << 20, 4096)
    args = {"op": "read", "block_size": 4096, "file_size": 1 << 20, **kwargs}
    target = scratch_dir / "new" if args["op"] == "write" else base  # writes create new files only
    with pytest.raises(error, match=message):
        _native.disk_io(str(target), **args)
    assert sorted(p.name for p in scratch_dir.iterdir()) == ["r.0"]


def test_missing_files_and_directories(scratch_dir: Path) -> None:
    with pytest.raises(ValueError, match="prepare_file it first"):
        _native.disk_io(str(scratch_dir / "absent"), op="read")
    with pytest.raises(ValueError, match="does not exist"):
        _native.disk_io(str(scratch_dir / "no" / "where"), op="write")
    with pytest.raises(ValueError, match="does not exist"):
        _native.prepare_file(str(scratch_dir / "no" / "f"), 4096, 4096)
    with pytest.raises(ValueError, match="size must be positive"):
        _native.memcpy_rounds(0, 1)


@pytest.mark.parametrize("jobs", [1, 2])
def test_write_never_overwrites_an_existing_file(scratch_dir: Path, jobs: int) -> None:
    base = scratch_dir / "keep"
    existing = Path(f"{base}.{jobs - 1}")  # the last job's file: no earlier one may be created either
    existing.write_bytes(b"precious" * 512)
    with pytest.raises(FileExistsError) as info:
        _native.disk_io(str(base), op="write", block_size=4096, file_size=1 << 20, jobs=jobs)
    assert info.value.errno == errno.EEXIST and info.value.filename == str(existing)
    assert existing.read_bytes() == b"precious" * 512
    assert sorted(p.name for p in scratch_dir.iterdir()) == [existing.name]


def test_memcpy_rounds() -> None:
    ns = _native.memcpy_rounds(1 << 20, 4)
    assert ns.shape == (4,) and (ns > 0).all()


def test_io_uring_unavailable_is_an_unsupported_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_DISABLE_IO_URING", "1")
    cases = [storage.io_case(engine=e, op="write", block_size=65536, file_size=1 << 20) for e in ENGINES]
    metrics = run("uring_off", cases, storage._runner({}), repetitions=1).metrics
    table = storage_report.matrix_table(metrics, direct=False)
    uring = table.filter(pl.col("row").str.starts_with("io_uring"))
    assert uring["note"].to_list() == ["io_uring: disabled by HOWFAST_DISABLE_IO_URING"]
    assert uring["MB/s"].null_count() == 1
    assert table.filter(pl.col("row").str.starts_with("sync"))["MB/s"][0] > 0


def test_ctrl_c_stops_parallel_jobs_and_cleans_up(scratch_dir: Path) -> None:
    script = (
        "from howfast import _native\nfrom howfast.scratch import Scratch\n"
        "with Scratch() as s:\n    print(s.path, flush=True)\n"
        "    _native.disk_io(str(s.file('w')), op='write', fsync=True, block_size=4096, file_size=1<<30, jobs=2)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy()
    )
    made = Path(child.stdout.readline().strip())
    time.sleep(0.5)
    assert child.poll() is None
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert child.returncode != 0 and "KeyboardInterrupt" in err
    assert not made.exists() and list(scratch_dir.iterdir()) == []


TINY = dataclasses.replace(
    PROFILES["quick"],
    repetitions=1,
    storage=dataclasses.replace(
        PROFILES["quick"].storage,
        matrix_file_size=1 << 20,
        sweep_block_sizes=(4096, 1 << 20),
        sweep_file_size=1 << 20,
        queue_depths=(1, 4),
        queue_file_size=1 << 20,
        parallel_jobs=2,
        parallel_file_size=2 << 20,
        memcpy_size=1 << 20,
        memcpy_rounds=2,
        fio_file_size=1 << 20,
    ),
)


def test_measure_on_a_tiny_profile(isolated: dict[str, Path]) -> None:
    data = store.measure("storage", TINY)
    assert set(data.experiments) == {
        storage.RAM_VS_DISK,
        storage.MATRIX,
        storage.PAGE_CACHE,
        storage.BLOCK_SIZES,
        storage.QUEUE_DEPTH,
        storage.PARALLEL,
        "vs_fio",
    }
    matrix = storage_report.matrix_table(data.table(storage.MATRIX), direct=False)
    assert matrix.height == 19 and matrix["laptop MB/s"].null_count() == 0
    parallel = storage_report.parallel_table(data.table(storage.PARALLEL))
    assert parallel["job"].to_list() == [name for name, _, _ in storage.PARALLEL_JOBS]
    assert list(isolated["scratch"].iterdir()) == []
    assert (isolated["results"] / "test-machine" / "quick" / "storage" / f"{storage.MATRIX}.parquet").is_file()


def test_a_case_names_its_sizes() -> None:
    """Sizes come from the plan, never from a default of the case builder."""
    with pytest.raises(TypeError):
        storage.io_case(engine="sync")
    with pytest.raises(ValueError, match="block_size must be a positive"):
        storage.io_case(block_size=0, file_size=1 << 20)
    with pytest.raises(ValueError, match="unknown case parameters"):
        storage.io_case(block_size=4096, file_size=1 << 20, colour="blue")


# --- The chapter's sentences: each reads right for every outcome, and never says None ---

R = storage_report.Rate


def _metrics(rows: list[dict]) -> pl.DataFrame:
    """Stored-metrics shape: one row per repetition; unsupported cases carry a note."""
    return pl.DataFrame(
        [{"unit": "", "note": None, **r} for r in rows],
        schema_overrides={"value": pl.Float64, "note": pl.String},
    )


def _shown(text: str) -> str:
    assert text and not re.search(r"\b(None|nan)\b", text)
    return text


def test_compare_tells_faster_slower_same_and_missing() -> None:
    assert storage_report.compare(R(10, 9, 11), R(5, 4, 6)) == "faster"
    assert storage_report.compare(R(5, 4, 6), R(10, 9, 11)) == "slower"
    assert storage_report.compare(R(10, 8, 12), R(11, 10.5, 11.5)) == "same"
    assert storage_report.compare(None, R(1, 1, 1)) == "missing"


@pytest.mark.parametrize(
    ("uring", "sync", "expected"),
    [
        (R(1300, 1250, 1350), R(1000, 950, 1050), "1.3× the 1,000 MB/s of `pread`"),
        (R(900, 850, 950), R(1200, 1150, 1250), "`pread` read sequentially at 1,200 MB/s, 1.3× io_uring's 900 MB/s"),
        (R(1000, 900, 1100), R(1050, 1000, 1100), "the engine hardly matters"),
        (None, R(1000, 950, 1050), "could not be measured here: the O_DIRECT sequential read through io_uring"),
        (None, None, "through io_uring and pread did not run"),
    ],
)
def test_engine_sentence(uring, sync, expected: str) -> None:
    assert expected in _shown(storage_report.engine_sentence(uring, sync))


@pytest.mark.parametrize(
    ("cold", "direct", "expected"),
    [
        (R(1500, 1400, 1600), R(1000, 950, 1050), "beat O_DIRECT (1,000 MB/s)"),
        (R(1000, 900, 1100), R(1050, 1000, 1100), "kept up with O_DIRECT"),
        (R(800, 750, 850), R(1000, 950, 1050), "slower than O_DIRECT (1,000 MB/s)"),
        (R(800, 750, 850), None, "whether that beats O_DIRECT at queue depth 1 could not be measured here"),
    ],
)
def test_page_cache_sentence(cold, direct, expected: str) -> None:
    text = _shown(storage_report.page_cache_sentence(R(8000, 7900, 8100), cold, direct))
    assert expected in text
    assert ("× the O_DIRECT rate" in text) == (direct is not None)


def test_memory_sentences() -> None:
    assert "Memory is 40× faster here" in storage_report.memory_sentence(40000, 1000)
    assert "could not be measured here" in _shown(storage_report.memory_sentence(40000, None))
    assert "kept pace" in storage_report.memory_sentence(1000, 2000)
    assert storage_report.memory_rule(40000, 1000).startswith("Memory is about 40× faster")
    assert "could not be measured here" in _shown(storage_report.memory_rule(40000, None))
    assert "kept pace" in storage_report.memory_rule(1000, 2000)


def test_fsync_rule_falls_back_to_the_page_cache() -> None:
    assert "741 MB/s with O_DIRECT" in storage_report.fsync_rule(741, 700)
    assert "700 MB/s through the page cache" in storage_report.fsync_rule(None, 700)
    assert "could not be measured here" in storage_report.fsync_rule(None, None)


def _sweep(runs: bool) -> pl.DataFrame:
    rows = []
    for op in ("read", "write"):
        for bs, mb in ((4096, 100.0), (65536, 800.0), (1048576, 1000.0)):
            for rep, factor in enumerate((0.95, 1.05)):
                if runs:
                    rows.append({"op": op, "block_size": bs, "metric": "mb_per_s", "value": mb * factor})
                    rows.append({"op": op, "block_size": bs, "metric": "ops_per_s", "value": mb * 1e6 / bs})
                elif rep == 0:
                    rows.append(
                        {"op": op, "block_size": bs, "metric": "unsupported", "value": None, "note": "O_DIRECT: off"}
                    )
    return _metrics(rows)


def test_block_size_sentence_and_chart() -> None:
    text = storage_report.block_size_sentence(_sweep(True))
    assert text.startswith("Reads reached 90 % of their best rate (1,000 MB/s) at 1 MiB blocks; writes")
    missing = _sweep(False)
    assert storage_report.saturation_block_size(missing, "read") == (None, None)
    assert "could not run here (O_DIRECT: off)" in _shown(storage_report.block_size_sentence(missing))
    assert storage_report.block_size_chart(missing).to_dict()["mark"]["type"] == "text"


def _depths(reads_per_s: dict[int, float] | None) -> pl.DataFrame:
    rows = []
    for depth in (1, 4, 32):
        for op in ("read", "write"):
            if reads_per_s is None:
                rows.append({"op": op, "queue_depth": depth, "metric": "unsupported", "value": None, "note": "why"})
                continue
            for factor in (0.97, 1.03):
                rows.append(
                    {"op": op, "queue_depth": depth, "metric": "ops_per_s", "value": reads_per_s[depth] * factor}
                )
                rows.append({"op": op, "queue_depth": depth, "metric": "p99", "value": 100.0 * depth})
    return _metrics(rows)


def test_queue_depth_sentence() -> None:
    more = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 50000, 32: 70000}))
    assert "One 4 KiB random read at a time gave 20,000" in more and "32 in flight, 3.5× as many" in more
    flat = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 20100, 32: 19900}))
    assert "did not help beyond the spread" in flat and "as many" not in flat
    missing = storage_report.queue_depth_sentence(_depths(None))
    assert "could not run here (why)" in _shown(missing)
    assert storage_report.queue_depth_chart(_depths(None)).to_dict()["mark"]["type"] == "text"


def test_fio_sentence() -> None:
    two = pl.DataFrame({"howfast / fio": [1.0, 4.5], "mean latency, howfast / fio": [0.26, 1.1]})
    text = storage_report.fio_sentence(two)
    assert "between 1× and 4.5× fio's (the 2 rows" in text and "between 0.26× and 1.1× fio's" in text
    one = storage_report.fio_sentence(pl.DataFrame({"howfast / fio": [1.3, None]}))
    assert "at 1.3× fio's (the row that ran both" in one and "between" not in one
    none = pl.DataFrame(
        {"howfast / fio": [None], "note": ["io_uring: off"]}, schema={"howfast / fio": pl.Float64, "note": pl.String}
    )
    assert storage_report.fio_sentence(none) == "The comparison with fio could not run here (io_uring: off)."


def test_page_cache_rows_keep_a_case_that_could_not_run() -> None:
    rows = []
    for direct, cache, mb in ((False, "cold", 900.0), (False, "warm", 8000.0)):
        rows += [
            {"direct": direct, "cache": cache, "metric": m, "value": v} for m, v in (("mb_per_s", mb), ("p50", 30.0))
        ]
    rows.append({"direct": True, "cache": "n/a", "metric": "unsupported", "value": None, "note": "O_DIRECT: off"})
    table = storage_report.page_cache_rows(_metrics(rows))
    assert table["how"].to_list()[-1] == "O_DIRECT: from the device"
    assert table["MB/s"].to_list()[-1] is None and table["unsupported"].to_list()[-1] == "O_DIRECT: off"
    rates = storage_report.page_cache_rates(_metrics(rows))
    assert rates["direct"] is None and rates["warm"].median == 8000


def test_parallel_throughput_goes_through_fmt() -> None:
    seeds = storage_report.seed_parallel()
    assert "read 3,390" in seeds["MB/s"].to_list()
    assert not any(".0" in v for v in seeds["MB/s"].to_list())
