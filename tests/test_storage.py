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
from howfast import _native, stats, store
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
    assert parallel["job"].unique(maintain_order=True).to_list() == [
        storage_report.job_words(name) for name, _, _ in storage.PARALLEL_JOBS
    ]
    assert parallel["interval"].null_count() == 0 and (parallel["runs"] == 1).all()
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


def test_compare_tells_faster_slower_same_unclear_and_missing() -> None:
    assert storage_report.compare(R(10, 9, 11), R(5, 4, 6)) == "faster"
    assert storage_report.compare(R(5, 4, 6), R(10, 9, 11)) == "slower"
    assert storage_report.compare(R(10, 9.9, 10.1), R(10, 9.95, 10.05)) == "same"
    assert storage_report.compare(R(10, 8, 12), R(11, 10.5, 11.5)) == "unclear"
    assert storage_report.compare(None, R(1, 1, 1)) == "missing"


@pytest.mark.parametrize(
    ("uring", "sync", "expected"),
    [
        (R(1300, 1250, 1350), R(1000, 950, 1050), "1.3× faster than the 1,000 MB/s of pread (1.2–1.4×)."),
        (
            R(900, 850, 950),
            R(1200, 1150, 1250),
            "pread read sequentially at 1,200 MB/s, 1.3× faster than io_uring's 900 MB/s (1.2–1.5×).",
        ),
        # a clear but small gap: the word says so, and the ratio keeps its digits (not '1×')
        (
            R(1040, 1030, 1050),
            R(1000, 990, 1010),
            "io_uring read sequentially at 1,040 MB/s, slightly faster than the 1,000 MB/s of pread "
            "(1.04×; 1.02–1.06×).",
        ),
        (R(1000, 990, 1010), R(1040, 1030, 1050), "slightly faster than io_uring's 1,000 MB/s (1.04×; 1.02–1.06×)."),
        (R(1000, 900, 1100), R(1050, 1000, 1100), "not clearly faster or slower than pread (0.95×"),
        (R(1000, 995, 1005), R(1000, 998, 1002), "about as fast as pread (1×)"),
        (None, R(1000, 950, 1050), "could not be measured here: the O_DIRECT sequential read through io_uring"),
        (None, None, "through io_uring and pread did not run"),
    ],
)
def test_engine_sentence(uring, sync, expected: str) -> None:
    text = _shown(storage_report.engine_sentence(uring, sync))
    assert expected in text and "`" not in text and " 1× " not in text


@pytest.mark.parametrize(
    ("cold", "direct", "expected"),
    [
        (R(1500, 1400, 1600), R(1000, 950, 1050), "beat O_DIRECT (1,000 MB/s)"),
        (R(1000, 900, 1100), R(1050, 1000, 1100), "was not clearly faster or slower than O_DIRECT (0.95×"),
        (R(800, 750, 850), R(1000, 950, 1050), "slower than O_DIRECT (1,000 MB/s)"),
        (R(800, 750, 850), None, "whether that beats O_DIRECT at queue depth 1 could not be measured here"),
        (None, R(1000, 950, 1050), "compares could not be measured here"),
    ],
)
def test_page_cache_sentence(cold, direct, expected: str) -> None:
    text = _shown(storage_report.page_cache_sentence(R(8000, 7900, 8100), cold, direct))
    assert expected in text and "*" not in text
    assert ("the O_DIRECT read from the device" in text) == (direct is not None)
    assert "could not be measured here" in storage_report.page_cache_sentence(None, cold, direct)


def test_memory_sentences() -> None:
    fast, disk = R(40000, 39000, 41000), R(1000, 900, 1100)
    measured = storage_report.memory_sentence(fast, disk, 121.0)
    assert "one 4 KiB read from this disk, alone in flight, took 121 µs at the median" in measured
    assert "tens of microseconds or more" in storage_report.memory_sentence(fast, disk)
    assert "Here memory was 40× faster than the disk read (35–46×)" in storage_report.memory_sentence(fast, disk)
    assert "could not be measured here" in _shown(storage_report.memory_sentence(fast, None))
    assert "slower than the memory copy" not in storage_report.memory_sentence(R(1000, 900, 1100), R(2000, 1900, 2100))
    assert "2× faster than the memory copy" in storage_report.memory_sentence(R(1000, 900, 1100), R(2000, 1900, 2100))
    overlap = storage_report.memory_sentence(R(1100, 800, 1400), R(1000, 900, 1100))
    assert "not clearly faster or slower than the memory copy" in overlap
    assert storage_report.memory_rule(fast, disk) == (
        "In bandwidth memory was 40× faster than sequential reads from this disk (35–46×). Keep hot data in RAM."
    )
    assert "could not be measured here" in _shown(storage_report.memory_rule(fast, None))


def test_memory_rule_reads_every_outcome_and_names_only_a_measured_latency() -> None:
    fast, disk = R(40000, 39000, 41000), R(1000, 900, 1100)
    slower = storage_report.memory_rule(R(1000, 900, 1100), R(2000, 1900, 2100))
    assert slower == "In bandwidth memory was 2× slower than sequential reads from this disk (1.7–2.3×)."
    unclear = storage_report.memory_rule(R(1100, 800, 1400), R(1000, 900, 1100))
    assert unclear.startswith("In bandwidth memory was not clearly faster or slower than sequential reads from this")
    missing = storage_report.memory_rule(fast, None)
    assert missing == "How memory compares with this disk in bandwidth could not be measured here."
    for text in (slower, unclear, missing, storage_report.memory_rule(fast, disk)):
        assert "kept pace" not in text and "latency" not in text and "leads" not in text
    for text in (slower, unclear, missing):
        assert "Keep hot data in RAM" not in text
    timed = storage_report.memory_rule(fast, disk, read_p50_us=121.0)
    assert timed.endswith(
        "(35–46×). Keep hot data in RAM. In latency, one 4 KiB read from this disk, alone in flight, took 121 µs at "
        "the median, where a memory access takes nanoseconds (the CPU chapter measures how many)."
    )
    assert "took 121 µs at the median" in storage_report.memory_rule(fast, None, read_p50_us=121.0)


def test_measured_sentence_names_the_disk_and_its_write_cache() -> None:
    facts = {"scratch_dir": "/tmp/x", "filesystem": "ext4", "block_device": "vda", "device_kind": "a virtual disk",
             "rotational": 1, "write_cache": "write back", "fua": False}  # fmt: skip
    text = storage_report.measured_sentence(facts)
    assert "(ext4)" in text and "write back, without FUA" in text and "a ext4" not in text
    assert "whose mount point was not recorded" in text and "/tmp/x" not in text
    # the mount point, not the random scratch directory's name
    mounted = storage_report.measured_sentence(facts | {"mount_point": "/", "scratch_dir": "/tmp/howfast-abc"})
    assert "a scratch directory on the file system mounted at / (ext4) on" in mounted and "howfast-abc" not in mounted


def test_fsync_rule_quotes_the_matrix_paragraphs_figures() -> None:
    both = storage_report.fsync_rule(47.4, 1570, 92.8)
    assert "page cache reached 1,570 MB/s without an fsync and 47.4 MB/s with one" in both
    assert "(92.8 MB/s with O_DIRECT and an fsync after each)" in both and "`" not in both
    assert "(92.8" not in storage_report.fsync_rule(47.4, 1570, None)
    assert "with an fsync each reached 47.4 MB/s (92.8" in storage_report.fsync_rule(47.4, None, 92.8)
    assert "reached 92.8 MB/s with O_DIRECT" in storage_report.fsync_rule(None, 1570, 92.8)
    assert "could not be measured here" in storage_report.fsync_rule(None, None, None)


def _fsync_matrix(rates: dict[tuple[str, bool, str], tuple[float, ...] | None]) -> pl.DataFrame:
    """A stats.summarize frame of write + fsync rows: (engine, direct, pattern) -> MB/s runs."""
    rows = []
    for (engine, direct, pattern), values in rates.items():
        case = {"engine": engine, "pattern": pattern, "op": "write", "fsync": True, "direct": direct,
                "block_size": 262144}  # fmt: skip
        if values is None:
            rows.append({**case, "repetition": 0, "metric": "unsupported", "value": None, "note": "why"})
            continue
        rows += [{**case, "repetition": r, "metric": "mb_per_s", "value": v} for r, v in enumerate(values)]
    return stats.summarize(_metrics(rows), storage_report.CASE)


def _parallel(values: tuple[float, ...] | None, free: tuple[float, ...] | None = None) -> pl.DataFrame:
    case = {"op": "write", "fsync": True, "block_size": 1048576, "jobs": 8, "file_size": 16777216}
    if values is None:
        return _metrics([{**case, "repetition": 0, "metric": "unsupported", "value": None, "note": "why"}])
    rows = [{**case, "repetition": r, "metric": "mb_per_s", "value": v} for r, v in enumerate(values)]
    rows += [{**case, "fsync": False, "repetition": r, "metric": "mb_per_s", "value": v}
             for r, v in enumerate(free or ())]  # fmt: skip
    return _metrics(rows)


def test_parallel_sentence() -> None:
    single = R(47.4, 47.2, 64.3)
    faster = _shown(storage_report.parallel_sentence(_parallel((800.0, 896, 950)), single))
    assert faster.startswith("With 8 writers, each calling fsync after every 1 MiB block, the writers together")
    # the ratio with the range it can take within the two intervals
    assert "19× faster than the matrix's one writer with 256 KiB blocks at 47.4 MB/s (12–20×)" in faster
    assert "does not separate them" in faster
    overlap = _shown(storage_report.parallel_sentence(_parallel((40.0, 50, 70)), single))
    assert "not clearly faster or slower than the matrix's one writer" in overlap
    assert "neither more syncs in flight nor bigger blocks gained beyond the intervals of the medians" in overlap
    assert "could not be measured here" in storage_report.parallel_sentence(_parallel((800.0, 896, 950)), None)
    assert "could not run here" in storage_report.parallel_sentence(_parallel(None), single)
    assert "Without the fsyncs" not in faster
    slow = _parallel((800.0, 896, 950), (303.0, 820, 2190))
    spread = _shown(storage_report.parallel_sentence(slow, single))
    assert "Without the fsyncs the same writers wrote 820 MB/s, not clearly faster or slower than with them" in spread
    assert (
        "the interval of their median spanning 303 to 2,190 MB/s. This page does not measure why: 8 threads copying "
        "at once may compete for the machine's CPUs"
    ) in spread and "writing their dirty pages back" in spread
    assert "only copy memory" not in spread and "far below" not in spread
    one = _shown(storage_report.parallel_sentence(slow, single, single_nosync=R(6760, 6500, 7000)))
    assert "2,190 MB/s, below the 6,760 MB/s of the matrix's one buffered writer without fsync" in one
    unclear = _shown(storage_report.parallel_sentence(slow, single, single_nosync=R(1000, 300, 3000)))
    assert "one buffered writer" not in unclear
    quick = _shown(storage_report.parallel_sentence(_parallel((800.0, 896, 950), (3000.0, 3100, 3200)), single))
    assert "Without the fsyncs the same writers wrote 3,100 MB/s, 3.5× faster than with them (3.2–4×)." in quick


def test_fsync_engines_sentence() -> None:
    same = {(e, d, p): (100.0, 110, 120) for e in ("sync", "aio", "io_uring") for d in (False, True)
            for p in ("sequential", "random")}  # fmt: skip
    text = _shown(storage_report.fsync_engines_sentence(_fsync_matrix(same), reads="unclear"))
    assert (
        "did not differ beyond the intervals of their medians (as with the O_DIRECT reads): in all 8 pairs of rows"
    ) in text and "either" not in text
    # 'as with the O_DIRECT reads' only after reads that showed no difference too
    after_faster = storage_report.fsync_engines_sentence(_fsync_matrix(same), reads="faster")
    assert "did not differ beyond the intervals of their medians: in all 8 pairs" in after_faster
    assert "O_DIRECT reads" not in storage_report.fsync_engines_sentence(_fsync_matrix(same))
    with pytest.raises(ValueError, match="reads"):
        storage_report.fsync_engines_sentence(_fsync_matrix(same), reads="quicker")
    faster = same | {("aio", True, "sequential"): (400.0, 450, 480)}
    text = _shown(storage_report.fsync_engines_sentence(_fsync_matrix(faster)))
    assert "aio sequential, O_DIRECT (450 against 110 MB/s) was faster than pwrite + fsync" in text
    assert "in the other 7 pairs of rows the intervals overlap" in text
    assert "then a full fsync (pwrite and fsync; aio_write and aio_fsync with O_SYNC; io_uring's write linked" in text
    assert (
        "ran equally often, so a slow minute of the disk should fall on every engine alike: drift is an unlikely "
        "cause of a gap whose intervals stay apart, though this page cannot rule it out. This page has not "
        "explained the gap" in text
    )
    assert "did differ" in text and "barely" not in text and "by little" not in text
    # one split among eight, its intervals' near ends within claims.SAME: a marginal finding, so said
    narrow = same | {("aio", True, "random"): (90.0, 95, 98)}
    marginal = _shown(storage_report.fsync_engines_sentence(_fsync_matrix(narrow)))
    assert (
        "the engines barely differed: of 8 comparisons (aio or io_uring against pwrite, each pair of rows), only 1 "
        "split, and by little; among that many comparisons a narrow split may be chance: aio random, O_DIRECT (95 "
        "against 110 MB/s) was slower than pwrite + fsync; in the other 7 pairs of rows the intervals overlap."
    ) in marginal and "did differ" not in marginal
    # a clear split beside a narrow one: the narrow one is marked
    mixed_rates = faster | {("aio", True, "random"): (90.0, 95, 98)}
    mixed = _shown(storage_report.fsync_engines_sentence(_fsync_matrix(mixed_rates)))
    assert "did differ" in mixed and "aio random, O_DIRECT (95 against 110 MB/s, by little)" in mixed
    # a case that the added rounds ran more often: drift is not ruled out
    more = faster | {("aio", True, "sequential"): (400.0, 440, 450, 460, 480)}
    uneven = _shown(storage_report.fsync_engines_sentence(_fsync_matrix(more)))
    assert "ran only some of them" in uneven and "drift on this disk may explain part of a gap" in uneven
    assert "drift does not explain" not in uneven
    assert "too little to rely on" not in text
    both = faster | {("io_uring", False, "random"): (40.0, 45, 50), ("aio", False, "random"): (300.0, 310, 320)}
    text = _shown(storage_report.fsync_engines_sentence(_fsync_matrix(both)))
    assert "were faster than pwrite + fsync" in text and "; and " in text
    assert "io_uring random, buffered (45 against 110 MB/s) was slower than pwrite + fsync" in text
    gone = {k: None for k in same}
    assert "could not be measured here" in storage_report.fsync_engines_sentence(_fsync_matrix(gone))
    assert "could not be measured here" in storage_report.fsync_engines_sentence(stats.summarize(
        _metrics([{"engine": "sync", "pattern": "sequential", "op": "read", "fsync": False, "direct": False,
                   "block_size": 262144, "repetition": 0, "metric": "mb_per_s", "value": 1.0}]),
        storage_report.CASE))  # fmt: skip


def _sweep(runs: bool, mb: dict[int, float] | None = None) -> pl.DataFrame:
    rows = []
    mb = mb or {4096: 100.0, 65536: 800.0, 1048576: 1000.0}
    for op in ("read", "write"):
        for bs, rate in mb.items():
            for rep, factor in enumerate((0.95, 1.0, 1.05)):
                if runs:
                    rows.append({"op": op, "block_size": bs, "metric": "mb_per_s", "value": rate * factor})
                    rows.append({"op": op, "block_size": bs, "metric": "ops_per_s", "value": rate * 1e6 / bs})
                elif rep == 0:
                    rows.append(
                        {"op": op, "block_size": bs, "metric": "unsupported", "value": None, "note": "O_DIRECT: off"}
                    )
    return _metrics(rows)


def test_block_size_sentence_and_chart() -> None:
    text = storage_report.block_size_sentence(_sweep(True, {4096: 100.0, 65536: 950.0, 1048576: 1000.0}))
    assert (
        text.startswith("Reads stop gaining clearly from 64 KiB blocks") and "best median: 1,000 MB/s at 1 MiB" in text
    )
    assert text.endswith(
        "One possible reading of such a knee, which this sweep does not test: small blocks may be bound by the time "
        "each request takes, and blocks past the knee by the device's bandwidth."
    )
    rising = storage_report.block_size_sentence(_sweep(True, {4096: 100.0, 65536: 400.0, 1048576: 1000.0}))
    assert "were still gaining at 1 MiB, the largest block measured" in rising
    assert (
        "Small blocks may be bound by the time each request takes; this sweep did not reach the block size where "
        "bandwidth takes over."
    ) in rising and "knee" not in rising
    flat = storage_report.block_size_sentence(_sweep(True, {4096: 100.0, 65536: 101.0, 1048576: 99.0}))
    assert "gained nothing clear from bigger blocks" in flat
    collapse = storage_report.block_size_sentence(_sweep(True, {4096: 100.0, 65536: 1000.0, 1048576: 200.0}))
    assert "below half of it at 1 MiB" in collapse
    for shape in (flat, collapse):  # no limit is named where the curve neither rose nor levelled off
        assert "bound" not in shape and "bandwidth" not in shape
    missing = _sweep(False)
    assert storage_report.saturation_block_size(missing, "read") == (None, None)
    assert "could not run here (O_DIRECT: off)" in _shown(storage_report.block_size_sentence(missing))
    assert storage_report.block_size_chart(missing).to_dict()["mark"]["type"] == "text"
    chart = storage_report.block_size_chart(_sweep(True)).to_dict()
    assert "vconcat" in chart and "hconcat" not in chart and "width" not in str(chart.get("vconcat"))


def _depths(reads_per_s: dict[int, float] | None, p99: dict[int, float] | None = None) -> pl.DataFrame:
    rows = []
    for depth in (1, 4, 32):
        for op in ("read", "write"):
            if reads_per_s is None:
                rows.append({"op": op, "queue_depth": depth, "metric": "unsupported", "value": None, "note": "why"})
                continue
            for factor in (0.97, 1.0, 1.03):
                rows.append(
                    {"op": op, "queue_depth": depth, "metric": "ops_per_s", "value": reads_per_s[depth] * factor}
                )
                rows.append({"op": op, "queue_depth": depth, "metric": "p99",
                             "value": (p99 or {1: 100.0, 4: 400.0, 32: 3200.0})[depth] * factor})  # fmt: skip
    return _metrics(rows)


def _depths_spread(reads_per_s: dict[int, float]) -> pl.DataFrame:
    """Like _depths, with runs spread widely (0.5× to 1.5× of each median)."""
    rows = []
    for depth, rate in reads_per_s.items():
        for rep, factor in enumerate((0.5, 1.0, 1.5)):
            rows.append({"op": "read", "queue_depth": depth, "repetition": rep, "metric": "ops_per_s",
                         "value": rate * factor})  # fmt: skip
            rows.append({"op": "read", "queue_depth": depth, "repetition": rep, "metric": "p50",
                         "value": 100.0 * depth * factor})  # fmt: skip
    return _metrics(rows)


def test_single_read_p50() -> None:
    assert storage_report.single_read_p50(_depths_spread({1: 20000, 4: 50000})) == 100.0
    assert storage_report.single_read_p50(_depths_spread({4: 50000})) is None


def test_queue_depth_sentence() -> None:
    rising = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 50000, 32: 70000}))
    assert "One 4 KiB random read at a time gave 20,000 reads per second (19,400–20,600, 3 runs)." in rising
    assert "still rising at 32, the largest depth measured: 70,000 per second (67,900–72,100, 3 runs)" in rising
    assert "The p99 latency went from 100 µs (97–103 µs, 3 runs) at depth 1 to 3.2 ms (3.1–3.3 ms, 3 runs)" in rising
    assert "3.5× higher than the single read's (3.3–3.7×). No knee" in rising  # 'No knee within this range'
    knee = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 50000, 32: 52000}))
    assert "the gains shrink from 4 requests in flight" in knee and "extra requests may mostly have waited" in knee
    assert "as it may when the device works on several requests at once" in knee and "works on several" in rising
    assert "stops rising" not in knee
    assert (
        "The best median, 52,000 per second (50,400–53,600, 3 runs) at 32, is 2.6× higher than the single read's rate "
        "(2.4–2.8×)."
    ) in knee
    assert "still rose" not in knee
    open_ = storage_report.queue_depth_sentence(_depths_spread({1: 20000, 4: 50000, 32: 90000}))
    assert "the gains shrink from 4 requests in flight" in open_
    assert (
        "The medians still rose past it, from 50,000 per second (25,000–75,000, 3 runs) at 4 to 90,000 "
        "(45,000–135,000, 3 runs) at 32"
    ) in open_
    assert "this run cannot tell" in open_
    calm = storage_report.queue_depth_sentence(
        _depths({1: 20000, 4: 50000, 32: 52000}, {1: 100.0, 4: 100.0, 32: 100.0})
    )
    assert "the gains shrink" in calm and "mostly waited" not in calm
    flat = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 20100, 32: 19900}))
    assert "did not help beyond the intervals of the medians" in flat and "single read's" not in flat
    assert "the best median was 20,100 per second (19,500–20,700, 3 runs) at 4 requests in flight" in flat
    collapse = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 50000, 32: 10000}))
    assert (
        "peaked at 50,000 per second (48,500–51,500, 3 runs) with 4 in flight, 2.5× higher than the single read's "
        "rate (2.4–2.7×), and fell below half of that peak at 32"
    ) in collapse
    # a peak whose interval overlaps the single read's: no bare '1×' gain
    level = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 20100, 32: 5000}))
    assert "not clearly higher or lower than the single read's rate (1× by the medians, but the intervals" in level
    missing = storage_report.queue_depth_sentence(_depths(None))
    assert "could not run here (why)" in _shown(missing)
    assert storage_report.queue_depth_chart(_depths(None)).to_dict()["mark"]["type"] == "text"


def _fio_runs(ours: list[float], theirs: list[float], time_ratio: float) -> pl.DataFrame:
    rows = []
    case = {"engine": "sync", "pattern": "sequential", "op": "read", "fsync": False, "direct": True,
            "block_size": 262144, "queue_depth": 1}  # fmt: skip
    for rep, (a, b) in enumerate(zip(ours, theirs)):
        rows += [
            {**case, "tool": "howfast", "repetition": rep, "metric": "mb_per_s", "value": a},
            {**case, "tool": "fio", "repetition": rep, "metric": "mb_per_s", "value": b},
            {**case, "tool": "howfast", "repetition": rep, "metric": "mean", "value": 100.0 * time_ratio},
            {**case, "tool": "fio", "repetition": rep, "metric": "mean", "value": 100.0},
        ]
    return _metrics(rows)


def test_fio_table_gives_the_sentences_ratios() -> None:
    runs = _fio_runs([1400.0, 1450, 1500], [1000.0, 1000, 1000], 0.7)
    table = storage_report.fio_table(runs, target=0.1)
    # each side: the median with the interval of that median (3 runs: min–max); the ratio with its interval
    assert table["howfast MB/s"].to_list() == ["1,450 (1,400–1,500)"]
    assert table["fio MB/s"].to_list() == ["1,000 (no spread)"]
    assert table[storage_report.FIO_RATIO].to_list() == ["1.4× (1.4–1.5×)"]
    assert table["verdict"].to_list() == ["ours higher"] and table["rounds"].to_list() == [3]
    assert table["mean latency, howfast / fio"].to_list() == [pytest.approx(0.7)]
    assert "ratio range" not in table.columns and "howfast range" not in table.columns
    assert "1.4×" in storage_report.fio_sentence(runs) and "0.7× fio's" in storage_report.fio_sentence(runs)
    near = storage_report.fio_table(_fio_runs([1010.0, 1500, 2000], [1000.0, 1000, 1000], 1.0), target=0.1)
    assert near[storage_report.FIO_RATIO].to_list() == ["1.5× (1.01–2×)"]
    assert near["howfast MB/s"].to_list() == ["1,500 (1,010–2,000); unstable: ±33 %"]


def test_fio_sentence() -> None:
    faster = storage_report.fio_sentence(_fio_runs([1400.0, 1450, 1500], [1000.0, 1000, 1000], 0.7))
    assert "is faster than fio on sync sequential read, 256 KiB, O_DIRECT (1.4×" in faster
    assert "gap lies in the I/O itself" in faster
    agrees = storage_report.fio_sentence(_fio_runs([1000.0, 1010, 990], [1000.0, 1000, 1000], 1.0))
    assert "agrees with fio on sync sequential read" in agrees
    unclear = storage_report.fio_sentence(_fio_runs([500.0, 1000, 2000], [1000.0, 1000, 1000], 1.0))
    assert "cannot be told apart from fio on this machine" in unclear
    assert "could not run here" in storage_report.fio_sentence(pl.DataFrame())


def test_direct_matrix_has_no_laptop_columns() -> None:
    rows = [
        {"engine": "sync", "pattern": "sequential", "op": "read", "fsync": False, "direct": d, "block_size": 262144,
         "metric": m, "value": 100.0}
        for d in (False, True) for m in ("ops_per_s", "mb_per_s")
    ]  # fmt: skip
    assert "laptop MB/s" in storage_report.matrix_table(_metrics(rows), direct=False).columns
    assert "laptop MB/s" not in storage_report.matrix_table(_metrics(rows), direct=True).columns


def test_page_cache_rows_keep_a_case_that_could_not_run() -> None:
    rows = []
    for direct, cache, mb in ((False, "cold", 900.0), (False, "warm", 8000.0)):
        rows += [
            {"direct": direct, "cache": cache, "metric": m, "value": v} for m, v in (("mb_per_s", mb), ("p50", 30.0))
        ]
    rows.append({"direct": True, "cache": "n/a", "metric": "unsupported", "value": None, "note": "O_DIRECT: off"})
    table = storage_report.page_cache_rows(_metrics(rows))
    assert table["how"].to_list()[-1] == "O_DIRECT: from the device"
    assert table["MB/s"].to_list()[-1] == "n/a" and table["unsupported"].to_list()[-1] == "O_DIRECT: off"
    assert table["runs"].to_list()[-1] is None
    rates = storage_report.page_cache_rates(_metrics(rows))
    assert rates["direct"] is None and rates["warm"].median == 8000


def test_parallel_throughput_goes_through_fmt() -> None:
    seeds = storage_report.seed_parallel()
    assert "read 3,390" in seeds["MB/s"].to_list()
    assert not any(".0" in v for v in seeds["MB/s"].to_list())


def test_same_quantity_runs_and_sentence() -> None:
    def rows(frame_rows: list[dict]) -> pl.DataFrame:
        return _metrics(frame_rows)

    ram = rows([{"medium": "disk", "what": "read", "repetition": r, "metric": "mb_per_s", "value": v}
                for r, v in enumerate((600.0, 650.0, 700.0))])  # fmt: skip
    sweep = rows([{"op": "read", "block_size": bs, "repetition": r, "metric": "mb_per_s", "value": v}
                  for bs in (262144, 1048576) for r, v in enumerate((900.0, 1000.0, 1100.0))])  # fmt: skip
    empty = pl.DataFrame()
    table = storage_report.same_quantity_runs(ram, empty, empty, sweep, empty)
    # the 256 KiB read appears in one run only here, so only the 1 MiB read is listed
    assert table["run"].to_list() == ["RAM vs disk", "block-size sweep"]
    assert table["MB/s"].to_list() == [650.0, 1000.0]
    text = storage_report.same_quantity_sentence(table)
    assert text.startswith("This chapter measures 1 quantity in more than one run")
    assert "650 MB/s in the RAM-against-disk runs against 1,000 MB/s in the block-size sweep" in text
    assert storage_report.same_quantity_sentence(table.clear()) == ""
    many = pl.concat([table, table.with_columns(pl.lit("other").alias("quantity"))])
    assert storage_report.same_quantity_sentence(many).startswith("This chapter measures 2 quantities in more than")


# --- Issue 20: every table's figure carries the interval of its median and its run count ---


def _matrix_runs(values: dict[tuple[str, bool], list[float]], block: int = 262144) -> pl.DataFrame:
    """Matrix metrics: per (engine, direct) the MB/s of each run (ops/s follows from the block size)."""
    rows = []
    for (engine, direct), runs in values.items():
        case = {"engine": engine, "pattern": "sequential", "op": "read", "fsync": False, "direct": direct,
                "block_size": block}  # fmt: skip
        for rep, mb in enumerate(runs):
            rows += [
                {**case, "repetition": rep, "metric": "mb_per_s", "value": mb},
                {**case, "repetition": rep, "metric": "ops_per_s", "value": mb * 1e6 / block},
            ]
    return _metrics(rows)


def test_matrix_table_gives_interval_runs_and_the_unstable_mark() -> None:
    metrics = _matrix_runs({("sync", False): [900.0, 1000, 1100], ("aio", False): [500.0, 1000, 2000],
                            ("sync", True): [800.0, 810, 820]})  # fmt: skip
    metrics = pl.concat([metrics, _metrics([{
        "engine": "io_uring", "pattern": "sequential", "op": "read", "fsync": False, "direct": False,
        "block_size": 262144, "metric": "unsupported", "value": None, "note": "io_uring: off"}])],
        how="diagonal_relaxed")  # fmt: skip
    table = storage_report.matrix_table(metrics, direct=False, target=0.1)
    assert table.columns == ["row", "ops/s", "MB/s", "interval", "runs", "laptop ops/s", "laptop MB/s", "note"]
    sync, aio, uring = table.rows(named=True)
    assert (sync["MB/s"], sync["interval"], sync["runs"]) == (1000.0, "900–1,100", 3)
    assert aio["interval"] == "500–2,000; unstable: −50 %/+100 %"
    assert uring["MB/s"] is None and uring["interval"] is None and uring["note"] == "io_uring: off"
    direct = storage_report.matrix_table(metrics, direct=True, target=0.1)
    assert direct.columns == ["row", "ops/s", "MB/s", "interval", "runs"]
    assert direct["interval"].to_list() == ["800–820"]
    # without a target (a fixed count) nothing is marked
    assert storage_report.matrix_table(metrics, direct=False)["interval"][1] == "500–2,000"


def test_matrix_charts_carry_the_interval_of_each_median() -> None:
    metrics = _matrix_runs({("sync", False): [900.0, 1000, 1100], ("sync", True): [800.0, 810, 820]})
    bars = storage_report.matrix_bars(metrics)
    ours = bars.filter(pl.col("machine") == "this machine").row(0, named=True)
    assert (ours["median"], ours["lo"], ours["hi"], ours["repetitions"]) == (1000.0, 900.0, 1100.0, 3)
    laptop = bars.filter(pl.col("machine") != "this machine").row(0, named=True)
    assert laptop["lo"] == laptop["hi"] == laptop["median"] and laptop["repetitions"] is None
    direct = storage_report.direct_vs_buffered(metrics)
    assert direct.columns == ["row", "mode", "median", "lo", "hi", "repetitions"]
    assert direct.filter(pl.col("mode") == "O_DIRECT")["lo"].to_list() == [800.0]


def test_page_cache_rows_give_each_figure_its_interval() -> None:
    rows = []
    for direct, cache, mbs, p50s in ((True, "n/a", (500.0, 800, 1600), (170.0, 172, 227)),
                                     (False, "warm", (9000.0, 10000, 11000), (20.0, 20.5, 21))):  # fmt: skip
        for rep, (mb, p50) in enumerate(zip(mbs, p50s)):
            rows += [{"direct": direct, "cache": cache, "repetition": rep, "metric": "mb_per_s", "value": mb},
                     {"direct": direct, "cache": cache, "repetition": rep, "metric": "p50", "value": p50}]  # fmt: skip
    table = storage_report.page_cache_rows(_metrics(rows), target=0.1)
    assert table.columns == ["how", "MB/s", "p50 per read", "runs"]
    assert table.row(0) == ("O_DIRECT: from the device", "800 (500–1,600); unstable: −38 %/+100 %",
                            "172 µs (170–227 µs); unstable: −1 %/+32 %", 3)  # fmt: skip
    assert table.row(1)[1:] == ("10,000 (9,000–11,000)", "20.5 µs (20–21 µs)", 3)


def test_parallel_table_is_long_with_an_interval_per_figure() -> None:
    rows = []
    for _name, op, fsync in storage.PARALLEL_JOBS[:1]:
        for rep, scale in enumerate((0.9, 1.0, 1.1)):
            for metric, v in (("p50", 100.0), ("p90", 200.0), ("p99", 1000.0), ("p99.99", 5000.0), ("mb_per_s", 900.0)):
                rows.append({"op": op, "fsync": fsync, "repetition": rep, "metric": metric, "value": v * scale})
    table = storage_report.parallel_table(_metrics(rows), target=0.05)
    assert table.columns == ["job", "figure", "median", "interval", "runs"]
    assert table["figure"].to_list() == ["latency p50", "latency p90", "latency p99", "latency p99.99", "read MB/s"]
    first = table.row(0, named=True)
    assert first == {"job": storage.PARALLEL_JOBS[0][0], "figure": "latency p50", "median": "100 µs",
                     "interval": "90–110 µs; unstable: ±10 %", "runs": 3}  # fmt: skip
    assert table["median"].to_list()[-1] == "900" and table["interval"].to_list()[-1] == "810–990; unstable: ±10 %"
    mixed = [{"op": "readwrite", "fsync": False, "repetition": 0, "metric": m, "value": 1.0}
             for m in ("p50", "p90", "p99", "p99.99", "read_mb_per_s", "write_mb_per_s")]  # fmt: skip
    assert storage_report.parallel_table(_metrics(mixed))["figure"].to_list()[-2:] == ["read MB/s", "write MB/s"]


def test_same_quantity_runs_mark_and_the_sentence_reads_the_intervals() -> None:
    ram = _metrics([{"medium": "disk", "what": "read", "repetition": r, "metric": "mb_per_s", "value": v}
                    for r, v in enumerate((400.0, 650.0, 1000.0))])  # fmt: skip
    sweep = _metrics([{"op": "read", "block_size": 1048576, "repetition": r, "metric": "mb_per_s", "value": v}
                      for r, v in enumerate((950.0, 1000.0, 1050.0))])  # fmt: skip
    empty = pl.DataFrame()
    table = storage_report.same_quantity_runs(ram, empty, empty, sweep, empty, target=0.1)
    assert table.select("run", "MB/s", "interval", "runs").rows() == [
        ("RAM vs disk", 650.0, "400–1,000; unstable: ±46 %", 3),
        ("block-size sweep", 1000.0, "950–1,050", 3),
    ]
    overlap = storage_report.same_quantity_sentence(table)
    assert "but their intervals overlap, so even these two runs do not clearly disagree" in overlap
    apart = storage_report.same_quantity_sentence(table.with_columns(lo=pl.Series([600.0, 950.0]),
                                                                     hi=pl.Series([700.0, 1050.0])))  # fmt: skip
    assert "and their intervals do not overlap: the two runs really differed" in apart


def test_rate_words_give_interval_and_runs() -> None:
    assert storage_report.rate_words(R(3390, 2720, 4050, 3)) == "3,390 MB/s (2,720–4,050, 3 runs)"
    assert storage_report.rate_words(R(10, 10, 10, 1)) == "10 MB/s (1 run)"
    assert storage_report.rate_words(None) == "not measured here"


def test_page_cache_sentence_explains_a_cached_read_faster_than_memcpy() -> None:
    warm, direct, cold = R(11400, 11000, 12000, 3), R(836, 505, 1560, 3), R(1630, 1510, 1950, 3)
    text = _shown(storage_report.page_cache_sentence(warm, cold, direct, memcpy=R(3390, 3000, 3500, 3),
                                                     buffer=256 << 20))  # fmt: skip
    assert "3.4× faster than the memcpy of a 256 MiB buffer above (3,390 MB/s)" in text
    assert "One possible reason" in text and "may stay in the CPU's caches" in text
    assert "The middle row: a buffered read of a file that is not cached (1,630 MB/s) was not clearly" in text
    assert "the extra copy did not make it clearly slower" in text
    # a memcpy as fast as the cached read, or none measured: nothing to explain
    assert "memcpy" not in storage_report.page_cache_sentence(warm, cold, direct, memcpy=R(11500, 11000, 12500, 3))
    assert "memcpy" not in storage_report.page_cache_sentence(warm, cold, direct)
    assert "a large memcpy may read and write RAM for every byte" in text  # no cache topology: a possibility


def test_page_cache_sentence_places_the_memcpy_buffer_in_the_caches_and_hedges_the_slower_read() -> None:
    warm, direct, cold = R(11400, 11000, 12000, 3), R(836, 505, 1560, 3), R(1630, 1510, 1950, 3)
    memcpy = R(3390, 3000, 3500, 3)
    levels = [("L1d", 32768, 1), ("L2", 1048576, 1), ("L3", 33554432, 2)]
    facts = {"cache_levels": [{"name": n, "size": size, "shared_by": shared} for n, size, shared in levels],
             "hypervisor": "none detected"}  # fmt: skip
    ram = _shown(storage_report.page_cache_sentence(warm, cold, direct, memcpy, 64 << 20, facts=facts))
    assert (
        "while the memcpy's 64 MiB buffer is larger than every cache (the L3 is 32 MiB, shared by 2 CPUs) and is "
        "served from RAM, so that copy reads and writes RAM for every byte; this page does not measure the caches' "
        "part."
    ) in ram
    assert "That memcpy's" not in ram and ram.count("larger than every cache") == 1  # said once
    cached = _shown(storage_report.page_cache_sentence(warm, cold, direct, memcpy, 1 << 20, facts=facts))
    assert "One possible reason" not in cached and "RAM" not in cached
    assert "buffer fits in the L2 cache (1 MiB, one per core). This page does not measure why the cached" in cached
    slower = storage_report.page_cache_sentence(warm, R(800, 750, 850), R(1000, 950, 1050))
    assert slower.endswith(
        "slower than O_DIRECT (1,000 MB/s): the extra copy through the page cache may cost more here than read-ahead "
        "saves, though this run measures neither part."
    )
    assert "did not make up" not in slower


def _parallel_sizes(jobs: int, file_size: int, block: int = 1 << 20) -> pl.DataFrame:
    return _metrics([{"op": "write", "fsync": True, "jobs": jobs, "file_size": file_size, "block_size": block,
                      "repetition": 0, "metric": "p99", "value": 1.0}])  # fmt: skip


def test_percentile_note_says_what_a_short_runs_tail_is() -> None:
    quick = storage_report.percentile_note(_parallel_sizes(8, 16 << 20))
    assert quick.startswith("Each run made 128 I/Os (8 jobs of 16 blocks of 1 MiB each)")
    assert "its p99.99 is in effect its slowest I/O and its p99 one of its 2 slowest" in quick
    full = storage_report.percentile_note(_parallel_sizes(8, 512 << 20))
    assert "4,096 I/Os" in full and "one of its 41 slowest" in full
    tiny = storage_report.percentile_note(_parallel_sizes(2, 2 << 20))
    assert "its p99 and its p99.99 are both in effect its slowest I/O" in tiny
    assert storage_report.percentile_note(_parallel_sizes(16, 1 << 30)) == ""  # 16,384 I/Os: a real p99.99
    assert storage_report.percentile_note(pl.DataFrame()) == ""


def test_random_read_sentence_reads_the_intervals() -> None:
    def summary(buffered: tuple[float, ...], direct: tuple[float, ...]) -> pl.DataFrame:
        rows = []
        for d, values in ((False, buffered), (True, direct)):
            for rep, v in enumerate(values):
                rows.append({"engine": "sync", "pattern": "random", "op": "read", "fsync": False, "direct": d,
                             "block_size": 262144, "repetition": rep, "metric": "mb_per_s", "value": v})  # fmt: skip
        return stats.summarize(_metrics(rows), storage_report.CASE)

    gap = summary((258.0, 367, 508), (539.0, 977, 1200))
    slower = storage_report.random_read_sentence(gap, sequential="faster")
    assert slower.startswith(
        "Random reads showed no such gain here: through the page cache, random 256 KiB reads ran at 367"
    )
    assert "2.7× slower than with O_DIRECT (977 MB/s). With no sequence to follow" in slower
    assert "does not measure how much of the gap it explains" in slower
    # 'no such gain' only after a sequential uncached read that gained
    for seq in (None, "slower", "unclear", "same", "missing"):
        plain = storage_report.random_read_sentence(gap, sequential=seq)
        assert plain.startswith("Through the page cache, random 256 KiB reads ran at 367") and "such" not in plain
    with pytest.raises(ValueError, match="sequential"):
        storage_report.random_read_sentence(gap, sequential="quicker")
    # the memcpy rate bounds the copy only where its buffer is served from RAM, as this machine's caches say
    levels = [("L1d", 32768, 1), ("L2", 1048576, 1), ("L3", 33554432, 2)]
    facts = {
        "cache_levels": [{"name": n, "size": size, "shared_by": shared} for n, size, shared in levels],
        "hypervisor": "none detected",
    }
    memcpy = R(3390, 3000, 3500, 3)
    ram = storage_report.random_read_sentence(gap, memcpy=memcpy, buffer=64 << 20, facts=facts)
    assert (
        "The extra copy, at most about 77.3 µs per read at this chapter's memcpy rate (a copy from RAM to RAM, which "
        "may be dearer than one into a small buffer), is, within these intervals, either most or only part of a gap "
        "of 446 µs per read"
    ) in ram
    assert ram.endswith(
        "That memcpy's 64 MiB buffer is larger than every cache (the L3 is 32 MiB, shared by 2 CPUs) and is served "
        "from RAM."
    )
    small = storage_report.random_read_sentence(gap, memcpy=memcpy, buffer=1 << 20, facts=facts)
    assert (
        "At this chapter's memcpy rate the extra copy would take about 77.3 µs per read, against a gap of 446 µs per "
        "read, and this page does not measure how much of the gap the copy explains"
    ) in small
    assert small.endswith("That memcpy's 1 MiB buffer fits in the L2 cache (1 MiB, one per core).")
    assert "at most" not in small and "too large" not in small
    unknown = storage_report.random_read_sentence(gap, memcpy=memcpy)
    assert "would take about 77.3 µs per read" in unknown and "That memcpy" not in unknown
    cached = storage_report.random_read_sentence(
        gap, memcpy=memcpy, cached=R(11400, 5500, 12300, 3), buffer=1 << 20, facts=facts
    )
    assert (
        "The extra copy costs at most what a read the page cache answers took, about 23 µs per read (77.3 µs "
        "at this chapter's memcpy rate), which is, within these intervals, either most or only part of a gap of "
        "446 µs per read"
    ) in cached and "fits in the L2 cache" in cached
    alone = storage_report.random_read_sentence(gap, cached=R(11400, 5500, 12300, 3), buffer=1 << 20, facts=facts)
    assert (
        "about 23 µs per read, which is, within these intervals, either most or only part of" in alone
        and "memcpy" not in alone
    )
    # the share from the intervals, not the medians: a narrow gap the copy's whole range lies below half of
    narrow = summary((360.0, 367, 374), (960.0, 977, 994))
    part = storage_report.random_read_sentence(narrow, cached=R(11400, 11000, 12300, 3))
    assert "which can explain only part of a gap of" in part
    assert "can explain only part of" in storage_report.random_read_sentence(
        narrow, memcpy=R(11400, 11000, 12300, 3), buffer=64 << 20, facts=facts
    )
    dear = storage_report.random_read_sentence(gap, cached=R(500, 450, 550, 3))
    assert "could explain most of a gap" in dear
    most = storage_report.random_read_sentence(gap, memcpy=R(500, 450, 550, 3), buffer=64 << 20, facts=facts)
    assert "could explain most of a gap" in most
    unclear = storage_report.random_read_sentence(summary((300.0, 367, 900), (539.0, 977, 1200)), sequential="faster")
    assert (
        "reads ran at 367 MB/s and with O_DIRECT at 977 MB/s, not clearly faster or slower than with O_DIRECT (0.38× "
        "by the medians, but the intervals overlap)."
    ) in unclear and "copy" not in unclear
    gained = summary((1800.0, 2000, 2200), (539.0, 977, 1200))
    faster = storage_report.random_read_sentence(gained, sequential="faster")
    assert faster.startswith("Random reads gained here too") and "this page does not measure why" in faster
    alone_gain = storage_report.random_read_sentence(gained, sequential="unclear")
    assert alone_gain.startswith(
        "Random reads gained here, unlike the sequential uncached read above, which did not clearly gain: through"
    )
    assert storage_report.random_read_sentence(gained).startswith("Random reads gained here: through")
    no_direct = summary((258.0, 367, 508), ()).filter(~pl.col("direct"))
    assert storage_report.random_read_sentence(no_direct) == (
        "Whether random reads gain from the page cache could not be measured here."
    )


def test_queue_depth_sentence_sets_the_average_read_beside_the_median() -> None:
    text = storage_report.queue_depth_sentence(_depths_spread({1: 8000, 4: 20000}))
    assert text.startswith(
        "One 4 KiB random read at a time gave 8,000 reads per second (4,000–12,000, 3 runs), 125 µs each on "
        "average; the median read took 100 µs (50–150 µs, 3 runs)."
    )
    assert "weigh" not in text  # 125 µs against 100 µs by the medians, but the intervals overlap
    tight = _metrics(
        [{"op": "read", "queue_depth": d, "repetition": r, "metric": m, "value": v * f}
         for d, rate in ((1, 5000.0), (4, 16000.0)) for r, f in enumerate((0.97, 1.0, 1.03))
         for m, v in (("ops_per_s", rate), ("p50", 100.0 * d))]
    )  # fmt: skip
    assert (
        "200 µs each on average; the median read took 100 µs (97–103 µs, 3 runs); the average lies clearly above the "
        "median (the intervals do not overlap), so slow reads may weigh in it."
    ) in storage_report.queue_depth_sentence(tight)
    no_p50 = _depths_spread({1: 8000, 4: 20000}).filter(pl.col("metric") != "p50")
    assert storage_report.queue_depth_sentence(no_p50).startswith(
        "One 4 KiB random read at a time gave 8,000 reads per second (4,000–12,000, 3 runs)."
    )
    even = storage_report.queue_depth_sentence(_depths_spread({1: 10000, 4: 20000}))
    assert "100 µs each on average; the median read took 100 µs (50–150 µs, 3 runs)." in even
    assert "weigh" not in even


def test_interval_cell_writes_a_shared_unit_once() -> None:
    assert storage_report.interval_cell("60.7 µs", "73.8 µs") == "60.7–73.8 µs"
    assert storage_report.interval_cell("192 µs", "17.6 ms", "unstable: ±498 %") == "192 µs–17.6 ms; unstable: ±498 %"
    assert storage_report.interval_cell(677.0, 1140.0) == "677–1,140"
    assert storage_report.interval_cell(None, 1.0) is None


def _io_rows(case: dict, values: tuple[float, ...], **extra: object) -> list[dict]:
    return [{**case, **extra, "repetition": r, "metric": "mb_per_s", "value": v} for r, v in enumerate(values)]


def test_same_quantity_runs_find_every_shared_case_from_its_parameters() -> None:
    io = {"engine": "io_uring", "pattern": "sequential", "op": "read", "fsync": False, "direct": True,
          "cache": "n/a", "block_size": 262144, "queue_depth": 1}  # fmt: skip
    matrix = _metrics(_io_rows(io, (700.0, 775, 900)) + _io_rows(io | {"engine": "aio"}, (900.0, 1000, 1100)))
    fio = _metrics(_io_rows(io, (500.0, 614, 800), tool="howfast") + _io_rows(io, (1.0, 2, 3), tool="fio"))
    deep = io | {"pattern": "random", "block_size": 4096, "queue_depth": 32}
    qd = _metrics(_io_rows(deep, (160.0, 180, 330)))
    fio = pl.concat([fio, _metrics(_io_rows(deep, (85.0, 158, 208), tool="howfast"))], how="diagonal_relaxed")
    write = {"op": "write", "block_size": 1048576}
    ram = _metrics([{"medium": "disk", "what": "write", "repetition": r, "metric": "mb_per_s", "value": v}
                    for r, v in enumerate((271.0, 659, 664))])  # fmt: skip
    sweep = _metrics(_io_rows(write, (996.0, 1270, 1530)))
    empty = pl.DataFrame()
    table = storage_report.same_quantity_runs(ram, matrix, empty, sweep, fio, target=0.1, queue_depth=qd)
    assert table.select("quantity", "run", "MB/s", "runs").rows() == [
        ("sync sequential write, 1 MiB, O_DIRECT", "RAM vs disk", 659.0, 3),
        ("sync sequential write, 1 MiB, O_DIRECT", "block-size sweep", 1270.0, 3),
        ("io_uring sequential read, 256 KiB, O_DIRECT", "engine matrix", 775.0, 3),
        ("io_uring sequential read, 256 KiB, O_DIRECT", "fio cross-check, ours", 614.0, 3),
        ("io_uring random read, 4 KiB, QD 32, O_DIRECT", "queue-depth sweep", 180.0, 3),
        ("io_uring random read, 4 KiB, QD 32, O_DIRECT", "fio cross-check, ours", 158.0, 3),
    ]  # aio ran in one run only, and fio's own runs are not ours: neither is listed
    text = storage_report.same_quantity_sentence(table)
    assert text.startswith("This chapter measures 3 quantities in more than one run. The widest gap: sync "
                           "sequential write, 1 MiB, O_DIRECT, 659 MB/s in the RAM-against-disk runs against "
                           "1,270 MB/s in the block-size sweep, and their intervals do not overlap")  # fmt: skip
    assert storage_report.same_quantity_runs(empty, empty, empty, empty, empty).height == 0


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ({"engine": "sync", "pattern": "sequential", "op": "write", "fsync": True, "direct": False, "cache": "n/a",
          "block_size": 262144, "queue_depth": 1}, "sync sequential write + fsync, 256 KiB, buffered"),
        ({"engine": "sync", "pattern": "sequential", "op": "read", "fsync": False, "direct": False, "cache": "warm",
          "block_size": 262144, "queue_depth": 1}, "sync sequential read, 256 KiB, page cache"),
        ({"engine": "io_uring", "pattern": "random", "op": "write", "fsync": False, "direct": True, "cache": "n/a",
          "block_size": 4096, "queue_depth": 8}, "io_uring random write, 4 KiB, QD 8, O_DIRECT"),
    ],
)  # fmt: skip
def test_quantity_words(key: dict, words: str) -> None:
    assert storage_report.quantity_words(key) == words


def test_ram_vs_disk_chart_rules_only_this_machines_bars() -> None:
    rows = [{"medium": m, "what": w, "repetition": r, "metric": "mb_per_s", "value": v}
            for m, w, values in (("ram", "copy", (2720.0, 3390, 4050)), ("disk", "read", (379.0, 656, 943)))
            for r, v in enumerate(values)]  # fmt: skip
    frame = storage_report.ram_vs_disk(_metrics(rows))
    ours = frame.filter(pl.col("this_machine"))
    assert ours.select("label", "lo", "hi", "repetitions").sort("label").rows() == [
        ("here: RAM, memcpy", 2720.0, 4050.0, 3),
        ("here: disk read, O_DIRECT", 379.0, 943.0, 3),
    ]
    assert frame.filter(~pl.col("this_machine"))["lo"].null_count() == frame.filter(~pl.col("this_machine")).height
    spec = storage_report.ram_vs_disk_chart(frame).to_dict()
    rule = spec["layer"][-1]
    assert rule["mark"]["type"] == "rule" and rule["encoding"]["x2"]["field"] == "hi"


def test_block_size_chart_labels_every_size() -> None:
    rows = [{"op": op, "block_size": bs, "repetition": r, "metric": m, "value": v}
            for op in ("read", "write") for bs in (4096, 1 << 20, 4 << 20) for m in ("mb_per_s", "ops_per_s")
            for r, v in enumerate((1.0, 2.0, 3.0))]  # fmt: skip
    spec = storage_report.block_size_chart(_metrics(rows)).to_dict()
    for part in spec["vconcat"]:
        axis = part["layer"][0]["encoding"]["x"]["axis"]
        assert axis["values"] == [4096, 1 << 20, 4 << 20] and axis["labelOverlap"] is False
        assert axis["labelFlush"] is False and "MiB" in axis["labelExpr"]


def test_matrix_rows_name_a_write_without_fsync_plainly() -> None:
    rows = _metrics(_io_rows({"engine": "io_uring", "pattern": "sequential", "op": "write", "fsync": False,
                              "direct": False, "block_size": 262144}, (1.0, 2.0, 3.0)))  # fmt: skip
    rows = pl.concat([rows, rows.with_columns(pl.col("metric").replace({"mb_per_s": "ops_per_s"}))])
    assert storage_report.matrix_table(rows, direct=False)["row"].to_list() == ["io_uring sequential write"]


def test_job_words_drop_the_seeds_minus_fsync() -> None:
    assert storage_report.job_words("sync sequential write - fsync") == "sync sequential write"
    assert storage_report.job_words("sync readwrite + fsync") == "sync readwrite + fsync"
    assert "sync readwrite" in storage_report.seed_parallel()["job"].to_list()


def test_ram_vs_disk_chart_sets_each_label_past_its_rule() -> None:
    rows = [{"medium": "disk", "what": "read", "repetition": r, "metric": "mb_per_s", "value": v}
            for r, v in enumerate((379.0, 656, 943))]  # fmt: skip
    spec = storage_report.ram_vs_disk_chart(storage_report.ram_vs_disk(_metrics(rows))).to_dict()
    assert spec["layer"][1]["encoding"]["x"]["field"] == "text_at"
    values = next(iter(spec["datasets"].values()))
    ours = next(v for v in values if v["this_machine"])
    assert ours["text_at"] == 943.0  # the rule's end, past the bar's 656


# --- review fixes: words from the data for every outcome ---


def test_write_sync_sentence_and_durability_rule_name_the_cost_only_when_it_shows() -> None:
    nosync, synced = R(1570, 1500, 1600), R(47.4, 47, 48)
    text = _shown(storage_report.write_sync_sentence(nosync, synced))
    assert "Buffered writes without fsync (1,570 MB/s for sync sequential" in text
    assert "managed 47.4 MB/s, so the writes without it were 33× faster than those with it" in text
    assert "the sync is what costs" in text
    rule = storage_report.durability_rule(nosync, synced)
    assert "33× faster than the same write with one" in rule and rule.endswith("durability is what costs.")
    overlap = R(50, 40, 60)
    text = storage_report.write_sync_sentence(overlap, synced)
    assert "not clearly faster or slower than those with it" in text and "what costs" not in text
    assert "show no cost of the sync" in text
    assert "no cost of durability to weigh" in storage_report.durability_rule(overlap, synced)
    assert "could not both be measured" in storage_report.write_sync_sentence(None, synced)
    assert "could not be measured" in storage_report.durability_rule(nosync, None)


def test_read_ahead_sentence_is_a_possibility_and_names_a_small_window() -> None:
    text = storage_report.read_ahead_sentence(128, 262144)
    assert "up to 128 KiB here" in text and "may find their data already cached" in text
    assert "does not measure how many" in text and "smaller than one 256 KiB read" in text
    big = storage_report.read_ahead_sentence(4096.0, 262144)
    assert "up to 4 MiB here" in big and "smaller than" not in big
    assert "did not report" in storage_report.read_ahead_sentence(None, 262144)
    with pytest.raises(ValueError, match="block"):
        storage_report.read_ahead_sentence(128, 0)


def test_memory_sentence_claims_no_unmeasured_latency_gap() -> None:
    text = storage_report.memory_sentence(R(40000, 39000, 41000), R(1000, 900, 1100), 121.0)
    assert "far wider" not in text and "40× faster than the disk read (35–46×) in bandwidth; in latency:" in text


def test_knee_words_follow_the_curve_rule() -> None:
    text = storage_report.block_size_sentence(_sweep(True, {4096: 100.0, 65536: 950.0, 1048576: 1000.0}))
    assert "no bigger block's interval starts more than a tenth above the top of that size's" in text
    knee = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 50000, 32: 52000}))
    assert "no deeper queue's interval starts more than a tenth above the top of that depth's" in knee
    # past the knee a deeper queue clearly above, but by less than a tenth: a clear, small gain
    rows = [{"op": "read", "queue_depth": d, "repetition": r, "metric": "ops_per_s", "value": rate * f}
            for d, rate in {1: 20000, 4: 50000, 16: 54000, 32: 52000}.items()
            for r, f in enumerate((0.97, 1.0, 1.03))]  # fmt: skip
    clear = storage_report.queue_depth_sentence(_metrics(rows))
    assert "the gains shrink from 4 requests" in clear
    assert "Past it the rate still gained clearly, but little: from" in clear and "yet starts less than" in clear
    assert "cannot tell" not in clear


def test_same_quantity_sentence_words_come_from_the_facts_and_the_noise() -> None:
    rows = pl.DataFrame({"quantity": ["q", "q"], "run": ["RAM vs disk", "block-size sweep"], "MB/s": [650.0, 1000.0],
                         "lo": [400.0, 950.0], "hi": [1000.0, 1050.0], "runs": [3, 3]})  # fmt: skip
    plain = storage_report.same_quantity_sentence(rows)
    assert "virtual" not in plain and "busy" not in plain and "with so few repetitions, their medians" in plain
    vm = storage_report.same_quantity_sentence(rows, {"hypervisor": "yes (KVM)"}, True)
    assert "not the same minute on a virtual disk, which other guests of the host may share" in vm
    assert "with so few repetitions on a machine the noise checks found busy" in vm
    local = storage_report.same_quantity_sentence(rows, {"hypervisor": "none detected", "device_kind": "an NVMe"})
    assert "virtual" not in local


# --- review of the full profile: S1, S2, S7, S8, S11, S12 ---


def test_same_quantity_sentence_does_not_offer_file_size_for_the_same_case_on_the_same_file() -> None:
    case = {"engine": "sync", "pattern": "sequential", "op": "read", "fsync": False, "direct": False,
            "cache": "cold", "block_size": 262144, "file_size": 1 << 28}  # fmt: skip
    matrix = _metrics([{**case, "repetition": r, "metric": "mb_per_s", "value": v}
                       for r, v in enumerate((650.0, 687, 700))])  # fmt: skip
    cache = _metrics([{**case, "repetition": r, "metric": "mb_per_s", "value": v}
                      for r, v in enumerate((3720.0, 3790, 3800))])  # fmt: skip
    empty = pl.DataFrame()
    table = storage_report.same_quantity_runs(empty, matrix, cache, empty, empty)
    assert table["file_size"].to_list() == [1 << 28, 1 << 28]
    text = storage_report.same_quantity_sentence(table)
    assert "the same case disagreed 5.5× between the two runs, and this page cannot say why" in text
    assert "files of the same size (256 MiB)" in text and "a file of its own size" not in text
    assert "Writeback of the dirty pages that the engine matrix's buffered write cases left" in text
    other = storage_report.same_quantity_sentence(table.with_columns(pl.Series("file_size", [1 << 28, 1 << 30])))
    assert "a file of its own size" in other and "Writeback" not in other


def test_engine_sentence_states_both_modes() -> None:
    direct = (R(1270, 1240, 1300), R(1280, 1250, 1320))
    text = storage_report.engine_sentence(*direct, buffered_uring=R(3520, 3400, 3600), buffered_sync=R(687, 650, 700))
    assert (
        "And with O_DIRECT at queue depth 1 the engine made no difference to reads that the intervals can show: "
        "io_uring read sequentially at 1,270 MB/s and pread at 1,280 MB/s, io_uring not clearly faster or slower "
        "than pread (0.99× by the medians"
    ) in text
    assert "Buffered, the engines did differ: io_uring read at 3,520 MB/s and pread at 687 MB/s" in text
    # buffered aio, where it ran, and a median ratio to two digits
    aio = storage_report.engine_sentence(*direct, buffered_uring=R(3520, 3400, 3600), buffered_sync=R(687, 650, 700),
                                         buffered_aio=R(690, 640, 720))  # fmt: skip
    assert "io_uring read at 3,520 MB/s, aio at 690 MB/s and pread at 687 MB/s" in aio
    assert "aio not clearly faster or slower than pread (1× by the medians, but the intervals overlap)" in aio
    near = storage_report.engine_sentence(R(1116, 1050, 1130), R(1120, 1110, 1190))
    assert "(1× by the medians" in near and "0.996" not in near
    level = storage_report.engine_sentence(R(1116, 1100, 1130), R(1120, 1110, 1140))
    assert "io_uring about as fast as pread (1×)." in level
    # the other run of the same pread read decides whether the engine may be named as the cause
    assert "this page cannot say the engine is why" not in text
    assert text.endswith("The engine may be why; this page does not measure what in it makes the gap.")
    apart = storage_report.engine_sentence(*direct, buffered_uring=R(3520, 3400, 3600),
                                           buffered_sync=R(687, 650, 700), cache_cold=R(3790, 3720, 3800))  # fmt: skip
    assert apart.endswith(
        "But this buffered pread read disagreed with the page-cache table's run of the same read (3,790 MB/s, the "
        "intervals apart; see one quantity, several runs, below), so this page cannot say the engine is why."
    )
    for agreeing in (R(690, 640, 720), R(687, 686, 688)):  # overlapping, or the same: no disagreement to name
        words = storage_report.engine_sentence(*direct, buffered_uring=R(3520, 3400, 3600),
                                               buffered_sync=R(687, 650, 700), cache_cold=agreeing)  # fmt: skip
        assert "cannot say the engine is why" not in words and "The engine may be why" in words
    same = storage_report.engine_sentence(R(1270, 1240, 1300), R(1280, 1250, 1320),
                                          buffered_uring=R(700, 600, 800), buffered_sync=R(687, 650, 700))  # fmt: skip
    assert "Buffered, the engines did not clearly differ either" in same
    # 'either' only after O_DIRECT reads that showed no difference
    after = storage_report.engine_sentence(R(1500, 1450, 1550), R(1000, 950, 1050),
                                           buffered_uring=R(700, 600, 800), buffered_sync=R(687, 650, 700))  # fmt: skip
    assert "Buffered, the engines did not clearly differ:" in after
    assert "Buffered" not in storage_report.engine_sentence(R(1270, 1240, 1300), R(1280, 1250, 1320))


def test_page_cache_sentence_names_the_matrix_run_that_was_slower_than_o_direct() -> None:
    args = (R(32900, 32100, 33200), R(3790, 3720, 3800), R(1280, 1250, 1320))
    text = storage_report.page_cache_sentence(*args, matrix_cold=R(687, 650, 700), matrix_direct=R(900, 880, 920))
    assert (
        "Yet in the engine matrix's runs the same read made 687 MB/s, slower than the matrix's own O_DIRECT read "
        "(900 MB/s)"
    ) in text
    assert "Yet" not in storage_report.page_cache_sentence(*args, matrix_cold=R(3700, 3600, 3800),
                                                           matrix_direct=R(900, 880, 920))  # fmt: skip
    # each run against its own O_DIRECT read: the matrix's buffered read is not set against this table's
    assert "Yet" not in storage_report.page_cache_sentence(*args, matrix_cold=R(687, 650, 700))
    assert "Yet" not in storage_report.page_cache_sentence(*args, matrix_cold=R(687, 650, 700),
                                                           matrix_direct=R(600, 580, 620))  # fmt: skip


def test_read_ahead_sentence_reads_the_medians_when_they_match_a_cached_read() -> None:
    E = stats.Estimate
    direct = E(224.0, 221, 229, 5)
    # the uncached read's median clearly below the O_DIRECT read's: at least half did not wait for the device
    text = storage_report.read_ahead_sentence(8192, 262144, cold_p50=E(8.92, 8.73, 9.22, 5),
                                              warm_p50=E(9.08, 8.85, 9.22, 17), direct_p50=direct)  # fmt: skip
    assert "clearly less than the 224 µs (221 µs–229 µs) of an O_DIRECT read from the device" in text
    assert "close to the 9.08 µs (8.85 µs–9.22 µs) of a read the page cache answered" in text
    assert "at least half of the uncached reads did not wait for a whole read from the device" in text
    assert "read-ahead would explain" in text and "does not measure how many" not in text
    # far from a cached read: the device comparison alone
    apart = storage_report.read_ahead_sentence(8192, 262144, cold_p50=E(50.0, 45, 55, 9),
                                               warm_p50=E(7.72, 7.62, 7.91, 5), direct_p50=direct)  # fmt: skip
    assert "at least half" in apart and "page cache answered" not in apart
    # as slow as O_DIRECT, or no O_DIRECT figure: nothing said about how many
    for d in (E(50.0, 48, 52, 5), None):
        slow = storage_report.read_ahead_sentence(8192, 262144, cold_p50=E(50.0, 45, 55, 9),
                                                  warm_p50=E(7.72, 7.62, 7.91, 5), direct_p50=d)  # fmt: skip
        assert "This page does not measure how many do." in slow and "at least half" not in slow


def test_queue_depth_sentence_names_the_knee_and_the_deeper_depth() -> None:
    knee = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 50000, 32: 52000}))
    assert "the p99 at 32 was" in knee and "the knee's (at 4)" in knee and "at the knee at" not in knee


def test_block_size_sentence_adds_the_medians_still_rose() -> None:
    rose = {4096: 100.0, 524288: 1000.0, 1048576: 1090.0, 2097152: 1105.0}  # every interval overlaps 512 KiB's
    text = storage_report.block_size_sentence(_sweep(True, rose))
    assert "from 512 KiB blocks" in text and "though the medians still rose, from 1,000 MB/s at 512 KiB" in text
    flat = storage_report.block_size_sentence(_sweep(True, {**rose, 1048576: 1050.0, 2097152: 1060.0}))
    assert "from 512 KiB blocks" in flat
    assert "still rose" not in flat


def test_seed_matrix_gives_the_mib_row_in_mb() -> None:
    seed = storage_report.seed_matrix().filter(pl.col("block_size") == 1048576).row(0, named=True)
    assert seed["laptop ops/s"] == 248 and round(seed["laptop MB/s"]) == 260
    wide = pl.DataFrame({"ops_per_s": [248, 2400], "mb_per_s": [248, 623], "block_size": [1048576, 262144]})
    assert storage_report.mib_rows(wide).to_list() == [True, False]


def test_memory_sentence_names_another_run_of_the_disk_read_whose_interval_lies_apart() -> None:
    memcpy, disk = R(17900, 17600, 18600, 5), R(1370, 1340, 1390, 17)
    apart = _shown(storage_report.memory_sentence(memcpy, disk, 47.7, other=R(2030, 1900, 2090, 9)))
    assert "Here memory was 13× faster than the disk read (13–14×)" in apart
    assert (
        "The block-size sweep ran the same sequential O_DIRECT read at 2,030 MB/s, its interval apart from this "
        "one's; memory was 8.8× faster than that run (8.4–9.8×). This section quotes the run made beside the "
        "memory copy."
    ) in apart
    # the two runs' intervals overlap, or the other run is missing: one figure, nothing more
    for other in (R(1380, 1350, 1400, 9), None):
        assert "block-size sweep" not in storage_report.memory_sentence(memcpy, disk, 47.7, other=other)
    rule = storage_report.memory_rule(memcpy, disk, other=R(2030, 1900, 2090, 9))
    assert rule == (
        "In bandwidth memory was 13× faster than sequential reads from this disk (13–14×); against the block-size "
        "sweep's run of the same read, 8.8× (8.4–9.8×). Keep hot data in RAM."
    )
    assert "block-size" not in storage_report.memory_rule(memcpy, disk, other=R(1380, 1350, 1400, 9))


def test_sweep_rate_picks_the_block_size() -> None:
    sweep = _sweep(True, {4096: 100.0, 1048576: 1000.0})
    assert storage_report.sweep_rate(sweep, "read", 1048576) == R(1000.0, 950.0, 1050.0, 3)
    assert storage_report.sweep_rate(sweep, "read", 2097152) is None


def test_same_quantity_sentence_lists_every_quantity_whose_runs_lie_apart() -> None:
    table = pl.DataFrame({
        "quantity": ["wide", "wide", "apart", "apart", "close", "close"],
        "run": ["engine matrix", "page-cache table", "RAM vs disk", "block-size sweep", "engine matrix",
                "fio cross-check, ours"],
        "MB/s": [591.0, 3110.0, 1370.0, 2030.0, 1120.0, 1190.0],
        "lo": [559.0, 3040.0, 1340.0, 1900.0, 1110.0, 1100.0],
        "hi": [615.0, 3170.0, 1390.0, 2090.0, 1140.0, 1210.0],
        "runs": [8, 5, 17, 9, 5, 12],
    })  # fmt: skip
    text = _shown(storage_report.same_quantity_sentence(table))
    assert text.startswith("This chapter measures 3 quantities in more than one run. The widest gap: wide")
    assert (
        " Other quantities whose runs' intervals lie apart: apart (1,370 MB/s in the RAM-against-disk runs against "
        "2,030 MB/s in the block-size sweep). Each figure in the text comes from the run of its own section."
    ) in text
    assert "close (" not in text
    # only the widest gap apart: nothing more listed
    alone = storage_report.same_quantity_sentence(table.filter(pl.col("quantity") != "apart"))
    assert "Other quantities" not in alone


def test_block_size_sentence_says_a_curve_fell_past_its_best_and_advises_only_a_rising_one() -> None:
    fell = {4096: 100.0, 524288: 900.0, 1048576: 2000.0, 2097152: 1600.0, 4194304: 1250.0}
    text = storage_report.block_size_sentence(_sweep(True, fell))
    assert (
        "best median: 2,000 MB/s at 1 MiB), and fell clearly past it: at 2 MiB (1,600 MB/s) and 4 MiB "
        "(1,250 MB/s) the whole interval lies below the best 1 MiB block's"
    ) in text
    assert "Where a curve still rises" not in text
    knee = storage_report.block_size_sentence(_sweep(True, {4096: 100.0, 65536: 950.0, 1048576: 1000.0}))
    assert "fell clearly" not in knee and "Where a curve still rises" not in knee
    rising = storage_report.block_size_sentence(_sweep(True, {4096: 100.0, 65536: 400.0, 1048576: 1000.0}))
    assert rising.endswith(
        "Where a curve still rises, a program that wants bandwidth must use bigger blocks or keep several requests in "
        "flight."
    )


def test_queue_depth_sentence_tells_the_random_writes_lines() -> None:
    text = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 50000, 32: 52000}))
    assert text.endswith(
        "The random writes (the chart's other lines) went from 20,000 per second (19,400–20,600, 3 runs) at depth 1 "
        "to 52,000 (50,400–53,600, 3 runs) at 32; their rate levels off from queue depth 4: no deeper queue's "
        "interval starts more than a tenth above the top of that depth's."
    )
    rising = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 50000, 32: 70000}))
    assert "their rate is still rising at the largest queue depth measured." in rising
    flat = storage_report.queue_depth_sentence(_depths({1: 20000, 4: 20100, 32: 19900}))
    assert "their rate was flat: no point is clearly above the first." in flat
    reads_only = storage_report.queue_depth_sentence(_depths_spread({1: 20000, 4: 50000, 32: 90000}))
    assert "random writes" not in reads_only


def test_page_cache_rule_says_fast_only_where_every_run_beat_o_direct() -> None:
    warm, cold, direct = R(27100, 26200, 27400), R(3110, 3040, 3170), R(1160, 1130, 1170)
    both = storage_report.page_cache_rule(warm, cold, direct, matrix_cold=R(2000, 1900, 2100))
    assert both.startswith("Here the page cache made repeated reads cheap: a read it answered was 23× faster than an ")
    assert "uncached sequential reads through it beat O_DIRECT too, in every run" in both
    mixed = storage_report.page_cache_rule(warm, cold, direct, matrix_cold=R(591, 559, 615),
                                           matrix_direct=R(1160, 1130, 1170))  # fmt: skip
    assert "its help was not steady: one run beat O_DIRECT, another did not, and this page cannot say why" in mixed
    # the matrix's buffered read beat the matrix's own O_DIRECT read, slower than this table's: every run beat its own
    own = storage_report.page_cache_rule(warm, cold, direct, matrix_cold=R(591, 559, 615),
                                         matrix_direct=R(400, 380, 420))  # fmt: skip
    assert "beat O_DIRECT too, in every run" in own
    alone = storage_report.page_cache_rule(warm, cold, direct, matrix_cold=R(591, 559, 615))
    assert "beat O_DIRECT too, in every run" in alone  # no matrix O_DIRECT read: the matrix run is left out
    none = storage_report.page_cache_rule(warm, R(1150, 1100, 1200), direct)
    assert "uncached sequential reads through it did not clearly beat O_DIRECT" in none
    assert none.endswith("A database that bypasses it with O_DIRECT must do its own caching and read-ahead.")
    slow = storage_report.page_cache_rule(R(1100, 1000, 1200), None, direct)
    assert slow.startswith("Here a read the page cache answered was not clearly faster or slower than O_DIRECT")
    assert "could not be measured here" in _shown(storage_report.page_cache_rule(None, None, None))


def test_ratio_words_round_the_median_and_keep_the_ends() -> None:
    E = stats.Estimate
    assert storage_report.median_factor(0.99999) == "1" and storage_report.median_factor(1.099) == "1.1"
    assert storage_report.median_factor(None) == "n/a"
    with pytest.raises(ValueError, match="x"):
        storage_report.median_factor(-1.0)
    assert storage_report.ratio_words(E(0.99999, 0.97, 1.05, 9)) == "1× (0.97–1.05×)"
    assert storage_report.ratio_words(E(1.004, 0.998, 1.3, 8)) == "1× (0.998–1.3×)"
    assert storage_report.ratio_words(None) == "n/a"
    assert storage_report.latency_cell(0.998) == "1×" and storage_report.latency_cell(None) == "n/a"


def test_fio_sentence_names_a_mean_time_per_io_that_does_not_follow_the_rate() -> None:
    E = stats.Estimate
    rates = {"a": E(1.02, 0.97, 1.04, 5), "b": E(0.82, 0.63, 1.02, 12), "c": E(1.4, 1.3, 1.5, 5)}
    times = {"a": E(0.84, 0.82, 0.89, 5), "b": E(1.2, 0.98, 1.5, 12), "c": E(0.7, 0.65, 0.75, 5)}
    text = storage_report._latency_words(rates, times)
    assert text == (
        " The mean time per I/O does not always follow the rate: on a it was 0.84× (0.82–0.89×) of fio's, where "
        "the rate agrees with fio's. This page does not measure why; the two tools may start and stop an I/O's "
        "clock at different points."
    )
    unclear = storage_report._latency_words({"b": E(0.82, 0.63, 1.02, 12)}, {"b": E(1.2, 1.15, 1.5, 12)})
    assert "on b it was 1.2× (1.15–1.5×) of fio's, where the rate cannot be told apart from fio's" in unclear
    assert storage_report._latency_words(rates, {}) == ""
    # the sentence quotes each median ratio as the table does
    near = _fio_runs([1001.0, 1000, 999], [1000.0, 1000, 1000], 1.0)
    assert "(1× of fio's rate," in storage_report.fio_sentence(near)


def _qd_writes(rates: dict[int, float]) -> pl.DataFrame:
    """Random writes of the queue-depth sweep: depth -> ops/s, three runs at ±5 %."""
    return _metrics(
        [{"op": "write", "queue_depth": d, "repetition": r, "metric": "ops_per_s", "value": v * f}
         for d, v in rates.items() for r, f in enumerate((0.95, 1.0, 1.05))]
    )  # fmt: skip


def test_queue_depth_writes_say_when_the_rate_still_gained_past_the_knee() -> None:
    # 16: 4,750–5,250; 32: 5,415–5,985, wholly above 16's yet not a tenth above its top: a knee at 16
    clear = storage_report._queue_depth_writes(_qd_writes({1: 1000.0, 16: 5000.0, 32: 5700.0, 64: 5600.0}))
    assert "their rate levels off from queue depth 16: no deeper queue's interval starts more than a tenth" in clear
    assert (
        "Past it their rate still gained clearly, but little: from 5,000 per second (4,750–5,250, 3 runs) at 16 to "
        "5,700 (5,420–5,980, 3 runs) at 32; the interval at 32 lies wholly above the one at 16 yet starts less than "
        "a tenth above the top of it."
    ) in clear
    medians = storage_report._queue_depth_writes(_qd_writes({1: 1000.0, 16: 5000.0, 32: 5400.0}))
    assert "Their medians still rose past it" in medians and "this run cannot tell" in medians
    assert "gained clearly" not in medians
    settled = storage_report._queue_depth_writes(_qd_writes({1: 1000.0, 16: 5000.0, 32: 5050.0}))
    assert settled.endswith("levels off from queue depth 16: no deeper queue's interval starts more than a tenth "
                            "above the top of that depth's.")  # fmt: skip
    rising = storage_report._queue_depth_writes(_qd_writes({1: 1000.0, 16: 3000.0, 32: 6000.0}))
    assert "is still rising" in rising and "Past it" not in rising


def test_block_size_knee_says_when_a_bigger_block_still_gained_clearly() -> None:
    # 64 KiB: 950–1,050; 1 MiB: 1,092.5–1,207.5, wholly above yet not a tenth above 64 KiB's top
    sizes = {4096: 100.0, 65536: 1000.0, 1048576: 1150.0, 4194304: 1100.0}
    text = storage_report.block_size_sentence(_sweep(True, sizes))
    assert text.startswith(
        "Reads stop gaining clearly from 64 KiB blocks: no bigger block's interval starts more than a tenth above the "
        "top of that size's, yet past it the rate still gained clearly, if little: the 1 MiB block's interval lies "
        "wholly above the 64 KiB block's (1,090–1,210 against 950–1,050 MB/s) (best median: 1,150 MB/s at 1 MiB)"
    )
    assert "though the medians still rose" not in text
    assert storage_report._past_knee([(1.0, stats.Estimate(10, 9, 11, 3))], 1.0) is None


def _same_rows(rows: list[tuple[str, str, float, float, float]]) -> pl.DataFrame:
    return pl.DataFrame(
        [{"quantity": q, "run": run, "MB/s": m, "interval": "", "runs": 5, "lo": lo, "hi": hi, "file_size": None}
         for q, run, m, lo, hi in rows],
        schema_overrides={"file_size": pl.Int64},
    )  # fmt: skip


def test_fio_apart_sentence_names_our_own_runs_that_moved() -> None:
    q = "io_uring sequential read, 256 KiB, O_DIRECT"
    apart = _same_rows([(q, "engine matrix", 1170.0, 1100, 1200), (q, "fio cross-check, ours", 2290.0, 2200, 2350)])
    text = storage_report.fio_apart_sentence(apart)
    assert text == (
        f" On {q} (2,290 MB/s in the cross-check against 1,170 MB/s in the engine matrix), our half of the fio "
        "cross-check lies apart from every other run of ours of the same case, their intervals not overlapping. Our "
        "own loop's rate moved between runs there, so the verdict on that row holds for those rounds only, and "
        "where it finds ours faster or slower than fio, that is not a finding about fio."
    )
    two = _same_rows([(q, "engine matrix", 1170.0, 1100, 1200), (q, "page-cache table", 1080.0, 1000, 1150),
                      (q, "fio cross-check, ours", 2290.0, 2200, 2350)])  # fmt: skip
    assert "against 1,080–1,170 MB/s in our other runs, at the median" in storage_report.fio_apart_sentence(two)
    # overlapping any other run of ours: nothing to say
    near = _same_rows([(q, "engine matrix", 1170.0, 1100, 2250), (q, "fio cross-check, ours", 2290.0, 2200, 2350)])
    assert storage_report.fio_apart_sentence(near) == (
        "Our half of the fio cross-check overlaps at least one other run of ours of each case it shares."
    )
    below = _same_rows([(q, "RAM vs disk", 2290.0, 2200, 2350), (q, "fio cross-check, ours", 1170.0, 1100, 1200)])
    assert "in the RAM-against-disk runs)" in storage_report.fio_apart_sentence(below)
    assert storage_report.fio_apart_sentence(_same_rows([(q, "engine matrix", 1170.0, 1100, 1200)])) == (
        "Our half of the fio cross-check has no other run of ours of the same case to set beside it."
    )


def _nosync_matrix(rates: dict[tuple[str, str], tuple[float, ...]]) -> pl.DataFrame:
    rows = []
    for (engine, pattern), values in rates.items():
        case = {"engine": engine, "pattern": pattern, "op": "write", "fsync": False, "direct": False,
                "block_size": 262144}  # fmt: skip
        rows += [{**case, "repetition": r, "metric": "mb_per_s", "value": v} for r, v in enumerate(values)]
    return stats.summarize(_metrics(rows), storage_report.CASE)


def test_nosync_engines_sentence() -> None:
    differ = _nosync_matrix({("sync", "sequential"): (5600.0, 5790, 5900), ("aio", "sequential"): (2700.0, 2810, 2900),
                             ("io_uring", "sequential"): (2900.0, 5000, 6000)})  # fmt: skip
    text = storage_report.nosync_engines_sentence(differ)
    assert text.startswith(
        "Buffered writes without an fsync did differ between the engines: aio sequential wrote 2,810 MB/s, 2.1× "
        "slower than pwrite at 5,790 MB/s ("
    )
    assert "in the other 1 pair of rows the intervals overlap" in text or "other pair" in text or "1 pair" in text
    assert "may weigh here" in text and "this page does not measure which" in text
    same = _nosync_matrix({("sync", "sequential"): (5600.0, 5790, 5900), ("aio", "sequential"): (5500.0, 5800, 6000)})
    assert storage_report.nosync_engines_sentence(same).startswith(
        "Buffered writes without an fsync did not differ between the engines beyond the intervals of their medians"
    )
    assert storage_report.nosync_engines_sentence(_nosync_matrix({("sync", "sequential"): (1.0, 2, 3)})) == (
        "Buffered writes without an fsync could not be set beside pwrite's for any engine here."
    )


def test_random_read_sentence_unclear_reads_once_and_names_the_matrix_inversion() -> None:
    rows = []
    for d, pattern, values in ((False, "random", (1100.0, 1190, 1300)), (True, "random", (1000.0, 1195, 1250)),
                               (False, "sequential", (580.0, 619, 650))):  # fmt: skip
        for rep, v in enumerate(values):
            rows.append({"engine": "sync", "pattern": pattern, "op": "read", "fsync": False, "direct": d,
                         "block_size": 262144, "repetition": rep, "metric": "mb_per_s", "value": v})  # fmt: skip
    text = storage_report.random_read_sentence(stats.summarize(_metrics(rows), storage_report.CASE))
    assert text.startswith(
        "Through the page cache, random 256 KiB reads ran at 1,190 MB/s and with O_DIRECT at 1,200 MB/s, not clearly "
        "faster or slower than with O_DIRECT (1× by the medians"
    )
    assert ") (" not in text and "0.99" not in text
    assert text.endswith(
        "In the same matrix run, buffered sequential reads (619 MB/s) were 1.9× slower than these random ones "
        "(1.7–2.2×), the reverse of what read-ahead should give; this run cannot say why."
    )


def test_memory_sentence_names_a_tighter_run_when_the_quoted_one_is_unstable() -> None:
    memcpy, wide, tight = R(17200, 17000, 17400, 7), R(1510, 1280, 3060, 7), R(1610, 1460, 1700, 7)
    text = storage_report.memory_sentence(memcpy, wide, other=tight, target=0.05)  # both unstable, one far less
    assert (
        " That disk figure's interval is wide (unstable: −15 %/+103 %); the block-size sweep ran the same sequential "
        "O_DIRECT read at 1,610 MB/s (1,460–1,700, 7 runs), a tighter interval, and memory was 11× faster than "
        "that run"
    ) in text
    assert "tighter" not in storage_report.memory_sentence(memcpy, wide, other=tight)  # no target: no mark
    assert "tighter" not in storage_report.memory_sentence(memcpy, tight, other=wide, target=0.05)
