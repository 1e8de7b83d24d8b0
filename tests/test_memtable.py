"""The native memtable: get after put (from a buffer and from segments), recovery after
a clean close and from the log, torn and corrupt records never returned, bad arguments
raise ValueError, files stay in their directory, and the benchmark counts what it did."""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path

import pytest

from howfast import _native, capabilities

KiB = 1024
MODES = [("blocking", 1), ("io_uring", 2), ("io_uring", 4)]


def needs(flush: str) -> None:
    if flush == "io_uring" and not capabilities.io_uring().supported:
        pytest.skip(f"io_uring unsupported here: {capabilities.io_uring().reason}")


def direct_ok(directory: Path) -> bool:
    return bool(_native.probe_direct_io(str(directory))["supported"])


def records(n: int, seed: int = 1, max_len: int = 5000) -> dict[bytes, bytes]:
    rng = random.Random(seed)
    return {b"key-%05d" % i: rng.randbytes(rng.randrange(max_len)) for i in range(n)}


@pytest.fixture
def db(scratch_dir: Path) -> Path:
    path = scratch_dir / "db"
    path.mkdir()
    return path


def open_memtable(db: Path, flush: str = "blocking", buffers: int = 0, **kw) -> _native.Memtable:
    needs(flush)
    kw.setdefault("direct", direct_ok(db))
    return _native.Memtable(str(db), kw.pop("capacity", 64 * KiB), flush=flush, buffers=buffers, **kw)


def test_get_after_put_from_the_buffer(db: Path) -> None:
    m = open_memtable(db, capacity=1024 * KiB)
    data = records(50)
    for k, v in data.items():
        m.put(k, v)
    assert m.stats()["flushes"] == 0  # everything is still in memory
    assert all(m.get(k) == v for k, v in data.items())
    assert m.get(b"absent") is None
    assert len(m) == 50
    m.close()


@pytest.mark.parametrize(("flush", "buffers"), MODES)
@pytest.mark.parametrize("dsync", [False, True])
def test_get_after_put_from_segments(db: Path, flush: str, buffers: int, dsync: bool) -> None:
    m = open_memtable(db, flush, buffers, dsync=dsync, segment_bytes=256 * KiB)
    data = records(300)
    m.put_many(list(data.items()))
    stats = m.stats()
    assert stats["flushes"] >= 11 - buffers and stats["segments"] >= 2  # some may still be in flight
    assert all(m.get(k) == v for k, v in data.items())  # most of them from segment files
    # overwrite: the newest value wins, wherever the old one lives
    m.put(b"key-00007", b"new")
    assert m.get(b"key-00007") == b"new"
    m.flush()
    assert m.get(b"key-00007") == b"new"
    assert sorted(m.keys()) == sorted(data)
    m.close()


@pytest.mark.parametrize(("flush", "buffers"), MODES)
@pytest.mark.parametrize("wal", [False, True])
def test_recovery_after_clean_close(db: Path, flush: str, buffers: int, wal: bool) -> None:
    data = records(200, seed=3)
    with open_memtable(db, flush, buffers, wal=wal) as m:
        m.put_many(list(data.items()))
        m.put(b"key-00001", b"overwritten")
    data[b"key-00001"] = b"overwritten"
    assert not list(db.glob("wal-*"))  # a clean close leaves no log behind
    r = _native.recover(str(db), 64 * KiB, flush=flush, buffers=buffers, wal=wal, direct=direct_ok(db))
    assert r.stats()["recovered_records"] == 201 and r.stats()["torn_records"] == 0
    assert sorted(r.keys()) == sorted(data)
    assert all(r.get(k) == v for k, v in data.items())
    r.put(b"after", b"recovery")  # the recovered memtable goes on
    r.close()
    again = _native.recover(str(db), 64 * KiB, direct=direct_ok(db))
    assert again.get(b"after") == b"recovery" and again.get(b"key-00001") == b"overwritten"
    assert len(again) == len(data) + 1
    again.close()


def snapshot(db: Path, to: Path) -> Path:
    """The files of an open memtable as a crash would leave them (the log is synced)."""
    to.mkdir()
    for f in db.iterdir():
        shutil.copy(f, to / f.name)
    return to


def test_recovery_replays_the_log(db: Path, scratch_dir: Path) -> None:
    m = open_memtable(db, "blocking", wal=True, capacity=1024 * KiB)
    data = records(40, seed=5)
    m.put_many(list(data.items()))
    assert m.stats()["flushes"] == 0 and m.stats()["wal_syncs"] >= 1
    copy = snapshot(db, scratch_dir / "crashed")
    m.close()
    assert list(copy.glob("wal-*"))
    r = _native.recover(str(copy), 1024 * KiB, direct=direct_ok(copy))
    assert r.stats()["replayed_records"] == 40
    assert all(r.get(k) == v for k, v in data.items())
    r.close()
    assert not list(copy.glob("wal-*"))  # replayed into durable segments, then removed


def test_torn_log_tail_is_ignored(db: Path, scratch_dir: Path) -> None:
    m = open_memtable(db, "blocking", wal=True, capacity=1024 * KiB)
    data = records(10, seed=6, max_len=3000)
    for k, v in data.items():
        m.put(k, v)
    copy = snapshot(db, scratch_dir / "crashed")
    m.close()
    (log,) = copy.glob("wal-*")
    size = log.stat().st_size
    last = _native.memtable_record_bytes(9, len(data[b"key-00009"]))
    os.truncate(log, size - last // 2)  # the last record only half written
    r = _native.recover(str(copy), 1024 * KiB, direct=direct_ok(copy))
    assert r.stats()["torn_records"] == 1
    assert r.get(b"key-00009") is None
    assert all(r.get(k) == v for k, v in data.items() if k != b"key-00009")
    r.close()


def test_corrupt_segment_record_is_never_returned(db: Path) -> None:
    data = records(60, seed=7, max_len=4000)
    with open_memtable(db, "blocking") as m:
        m.put_many(list(data.items()))
    (segment,) = db.glob("segment-*")
    raw = bytearray(segment.read_bytes())
    at = raw.index(data[b"key-00030"][:64]) if len(data[b"key-00030"]) >= 64 else None
    assert at is not None
    raw[at + 10] ^= 0xFF  # one bit flip inside the value
    segment.write_bytes(bytes(raw))
    r = _native.recover(str(db), 64 * KiB, direct=direct_ok(db))
    assert r.stats()["torn_records"] == 1
    got = {k: r.get(k) for k in r.keys()}
    assert b"key-00030" not in got
    assert all(data[k] == v for k, v in got.items())  # what comes back is intact
    assert len(got) >= 60 - 64 * KiB // 2000  # only the rest of that one flush is lost
    r.close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"capacity": 8 * KiB}, "smaller than a record"),
        ({"capacity": 0}, "capacity must be positive"),
        ({"capacity": -4096}, "capacity must be positive"),
        ({"capacity": 2 << 30}, "capacity must be at most"),
        ({"record_size": 16}, "record_size must be at least"),
        ({"flush": "sometimes"}, "flush must be"),
        ({"flush": "blocking", "buffers": 2}, "buffers must be 1 with flush='blocking'"),
        ({"flush": "io_uring", "buffers": 1}, "buffers must be at least 2"),
        ({"flush": "io_uring", "buffers": 65}, "buffers must be 1 to 64"),
        ({"pin_cpu": 100000}, "pin_cpu 100000 is not a CPU"),
        ({"queue_depth": 0}, "queue_depth must be positive"),
        ({"segments_ahead": -1}, "segments_ahead must be 0 to 16"),
        ({"segments_ahead": 17}, "segments_ahead must be 0 to 16"),
    ],
)
def test_bad_arguments_raise_value_error(db: Path, kwargs: dict, message: str) -> None:
    args = {"capacity": 64 * KiB, **kwargs}
    with pytest.raises(ValueError, match=message):
        _native.Memtable(str(db), args.pop("capacity"), **args)
    assert list(db.iterdir()) == []


def test_unaligned_capacity_under_o_direct(db: Path) -> None:
    if not direct_ok(db):
        pytest.skip("O_DIRECT unsupported here")
    with pytest.raises(ValueError, match="not a multiple of .*O_DIRECT"):
        _native.Memtable(str(db), 64 * KiB + 8, direct=True)
    m = _native.Memtable(str(db), 64 * KiB + 8, direct=False)  # buffered writes do not care
    m.put(b"k", b"v")
    m.close()


def test_missing_directory(tmp_path: Path) -> None:
    for call in (_native.Memtable, _native.recover):
        with pytest.raises(ValueError, match="does not exist"):
            call(str(tmp_path / "nowhere"), 64 * KiB)
    with pytest.raises(ValueError, match="does not exist"):
        _native.memtable_benchmark(str(tmp_path / "nowhere"), 64 * KiB, 10)


def test_records_larger_than_capacity_or_limit(db: Path) -> None:
    m = open_memtable(db, capacity=64 * KiB, record_size=16 * KiB)
    with pytest.raises(ValueError, match="larger than the memtable capacity"):
        m.put(b"k", bytes(64 * KiB + 1))
    with pytest.raises(ValueError, match="larger than record_size"):
        m.put(b"k", bytes(16 * KiB))
    with pytest.raises(ValueError, match="key must be 1 to 1024 bytes"):
        m.put(b"", b"v")
    with pytest.raises(ValueError, match="key must be 1 to 1024 bytes"):
        m.get(bytes(2000))
    m.put(b"k", bytes(16 * KiB - 32 - 8))  # exactly the limit
    m.close()
    with pytest.raises(ValueError, match="closed"):
        m.put(b"k", b"v")


def test_existing_files_need_recover(db: Path) -> None:
    with open_memtable(db) as m:
        m.put(b"k", b"v")
    with pytest.raises(ValueError, match="use recover"):
        _native.Memtable(str(db), 64 * KiB)
    (db / "segment-0000000000.dat").write_bytes(b"x" * 4096)
    with pytest.raises(ValueError, match="not a memtable segment"):
        _native.recover(str(db), 64 * KiB)


def test_files_stay_inside_the_directory(scratch_dir: Path) -> None:
    db = scratch_dir / "inner" / "db"
    db.mkdir(parents=True)
    before = set(scratch_dir.rglob("*"))
    m = open_memtable(
        db, "io_uring" if capabilities.io_uring().supported else "blocking", wal=True, segment_bytes=128 * KiB
    )
    m.put_many(list(records(100).items()))
    m.flush()
    created = [Path(p) for p in m.files()]
    m.close()
    assert created and all(p.parent == db for p in created)
    new = set(scratch_dir.rglob("*")) - before
    assert all(db in p.parents for p in new)
    shutil.rmtree(db)


def test_pinned_writer(db: Path) -> None:
    cpu = max(os.sched_getaffinity(0))
    m = open_memtable(db, pin_cpu=cpu)
    m.put(b"k", b"v")
    assert m.get(b"k") == b"v"
    m.close()


@pytest.mark.parametrize(("flush", "buffers"), MODES)
@pytest.mark.parametrize("wal", [False, True])
def test_benchmark_counts_what_it_did(db: Path, flush: str, buffers: int, wal: bool) -> None:
    needs(flush)
    capacity, record = 256 * KiB, 16 * KiB
    r = _native.memtable_benchmark(
        str(db),
        capacity,
        100,
        record_size=record,
        flush=flush,
        buffers=buffers,
        wal=wal,
        producers=3,
        segment_bytes=1024 * KiB,
        direct=direct_ok(db),
    )
    assert r["records"] == 112  # rounded up to whole buffers of 16 records
    assert r["latency_ns"].shape == (112,) and (r["latency_ns"] > 0).all()
    assert r["flushes"] == 7 and r["flush_ns"].shape == (7,)
    assert r["segments"] == 2  # 4 flushes per segment file
    assert r["segment_bytes"] == 7 * capacity + 2 * 4096
    assert r["wal_bytes"] == (112 * record if wal else 0)
    assert r["keys"] == 112 and r["elapsed_ns"] > 0
    assert 0 < r["first_fill_ns"] < r["elapsed_ns"]  # the first buffer filled before its flush
    assert list(db.iterdir()) == []  # its files are gone


WRITER_TIMES = ("idle_ns", "handoff_ns", "copy_ns", "index_ns", "ack_ns", "log_ns", "seal_ns", "submit_ns",
                "buffer_wait_ns", "reap_ns", "drain_ns")  # fmt: skip


@pytest.mark.parametrize(("flush", "buffers"), MODES)
@pytest.mark.parametrize("counters", [False, True])
def test_benchmark_counters_add_up(db: Path, flush: str, buffers: int, counters: bool) -> None:
    """The writer's counters: every record taken from the queue once, one seal per flush,
    io_uring submissions that carry one or more flushes; with counters=True the parts of
    the writer's time are disjoint spans inside the run, without it no clock is read."""
    needs(flush)
    capacity, record = 256 * KiB, 16 * KiB
    r = _native.memtable_benchmark(
        str(db), capacity, 100, record_size=record, flush=flush, buffers=buffers, producers=3,
        direct=direct_ok(db), counters=counters,
    )  # fmt: skip
    c = r["counters"]
    assert c["batch_records"] == r["records"] == 112 and 1 <= c["batches"] <= 112
    assert c["flushes"] == r["flushes"] == 7
    if flush == "io_uring":
        assert 1 <= c["submits"] <= 7  # several flushes may share one io_uring_enter
        assert 7 <= c["depth_sum"] <= 7 * buffers  # each completion saw 1 to `buffers` flushes in flight
    else:
        assert c["submits"] == 0 and c["depth_sum"] == 0 and c["completion_waits"] == 0
    parts = sum(c[k] for k in WRITER_TIMES)
    if counters:
        assert 0 < parts <= r["elapsed_ns"] and c["copy_ns"] > 0 and c["producer_hash_ns"] > 0
    else:
        assert parts == 0 and c["producer_hash_ns"] == 0


@pytest.mark.parametrize("capacity_mib", [16, 64])
def test_large_flushes_with_the_log(db: Path, capacity_mib: int) -> None:
    """Flushes are written in pieces of 16 MiB from registered chunks of the buffer (one
    piece at 16 MiB, five at 64 MiB with the segment header); with the log on and no
    O_DSYNC, an fdatasync follows each flush."""
    needs("io_uring")
    capacity = capacity_mib * 1024 * KiB
    r = _native.memtable_benchmark(
        str(db), capacity, 2 * capacity // (16 * KiB), flush="io_uring", buffers=2, wal=True, direct=direct_ok(db)
    )
    assert r["fixed_buffers"] == (os.geteuid() == 0 or capacity_mib <= 4)  # root may pin any amount
    assert r["flushes"] == 2 and r["segments"] == 1  # a segment holds at least one slot per buffer
    assert r["segment_bytes"] == 2 * capacity + 4096
    assert list(db.iterdir()) == []


def test_pieces_of_a_large_flush_come_back_intact(db: Path) -> None:
    """Records that straddle the 16 MiB piece boundaries, in a segment's first slot (which
    carries the header) and in later ones, read back byte for byte, also after recovery."""
    needs("io_uring")
    capacity = 40 * 1024 * KiB
    rng = random.Random(7)
    data = {f"k{i:06d}".encode(): rng.randbytes(rng.randrange(1, 300 * KiB)) for i in range(700)}
    with open_memtable(
        db, "io_uring", 3, capacity=capacity, segment_bytes=2 * capacity, dsync=True, record_size=512 * KiB
    ) as m:
        m.put_many(list(data.items()))
        m.flush()  # every buffer written, the last one partly filled
        assert m.stats()["flushes"] >= 3
        assert all(m.get(k) == v for k, v in data.items())
    r = _native.recover(str(db), capacity, record_size=512 * KiB, direct=direct_ok(db))
    assert r.stats()["torn_records"] == 0 and len(r) == len(data)
    assert all(r.get(k) == v for k, v in data.items())
    r.close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"records": 0}, "records must be positive"),
        ({"producers": 0}, "producers must be positive"),
        ({"record_size": 1001}, "multiple of 8"),
        ({"record_size": 32}, "at least 48"),
        ({"capacity": 8 * KiB}, "smaller than a record"),
        ({"records": 10**12}, "records must be at most"),
    ],
)
def test_benchmark_bad_arguments(db: Path, kwargs: dict, message: str) -> None:
    args = {"capacity": 64 * KiB, "records": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        _native.memtable_benchmark(str(db), args.pop("capacity"), args.pop("records"), **args)
    assert list(db.iterdir()) == []


def test_benchmark_too_large_for_scratch(db: Path) -> None:
    with pytest.raises(ValueError, match="too large for the scratch space"):
        _native.memtable_benchmark(str(db), 1 << 30, 100_000_000, record_size=16 * KiB)
    assert list(db.iterdir()) == []


# ---- the chapter's sentences: every branch of each word the data decides ------------------

import polars as pl  # noqa: E402

from howfast import claims  # noqa: E402
from howfast.memtable import report  # noqa: E402

MiB = 1024 * KiB


def runs(values: dict[tuple, list[float]], keys: tuple[str, ...], metric: str = "records_per_s") -> pl.DataFrame:
    """Fake stored results: for each case (a tuple of `keys` values) one row per run."""
    rows = [
        {**dict(zip(keys, case)), "metric": metric, "unit": "", "value": float(v), "repetition": i}
        for case, vs in values.items()
        for i, v in enumerate(vs)
    ]
    return pl.DataFrame(rows)


SWEEP_KEYS = ("capacity", "dsync", "mode", "buffers")


def sweep(small_plain, small_dsync, large_plain, large_dsync, metric="records_per_s") -> pl.DataFrame:
    """Blocking and io_uring ×2 at 64 KiB and 16 MiB; the io_uring runs are the given ones
    ×1.5, so it is the fastest mode at each size and setting."""
    cases = {}
    for cap, plain, dsync in ((64 * KiB, small_plain, small_dsync), (16 * MiB, large_plain, large_dsync)):
        for d, vs in ((False, plain), (True, dsync)):
            cases[(cap, d, "blocking", 1)] = vs
            cases[(cap, d, "uring_double", 2)] = [1.5 * v for v in vs]
    return runs(cases, SWEEP_KEYS, metric)


@pytest.mark.parametrize(
    ("c", "words"),
    [
        (claims.Comparison("lower", 0.75, 0.7, 0.8), "1.3× slower than without it"),
        (claims.Comparison("higher", 1.15, 1.1, 1.2), "1.15× faster than without it, although O_DSYNC only adds"),
        (claims.Comparison("same", 0.99, 0.97, 1.02), "about as fast as without it (0.99×)"),
        (claims.Comparison("unclear", 0.88, 0.6, 1.3), "not clearly faster or slower than without it (0.88×"),
        (claims.Comparison("missing"), "not compared with the run without it"),
    ],
)
def test_dsync_effect_reads_right_for_every_outcome(c: claims.Comparison, words: str) -> None:
    assert report.dsync_effect(c).startswith(words)
    assert "drift" in report.dsync_effect(c, short=True) or c.direction != "higher"


@pytest.mark.parametrize(
    ("small", "large", "lead"),
    [
        (([100, 101, 102], [50, 51, 52]), ([100, 101, 102], [90, 91, 92]), "O_DSYNC cost the fastest mode most where"),
        (([100, 101, 102], [50, 51, 52]), ([100, 101, 102], [40, 50, 60]), "O_DSYNC cost the fastest mode at both"),
        (
            ([100, 101, 102], [50, 51, 52]),
            ([100, 101, 102], [99, 101, 103]),
            "O_DSYNC cost the fastest mode where flushes are small, not",
        ),
        (
            ([100, 101, 102], [99, 101, 103]),
            ([100, 101, 102], [50, 51, 52]),
            "O_DSYNC cost the fastest mode at the large",
        ),
        (([9950, 9960, 9970], [11400, 11410, 11420]), ([100, 101, 102], [92, 93, 94]), "O_DSYNC cost the fastest"),
        (([100, 101, 102], [120, 121, 122]), ([100, 101, 102], [99, 101, 103]), "On this disk O_DSYNC did not clearly"),
    ],
)
def test_dsync_summary_lead_follows_the_intervals(small: tuple, large: tuple, lead: str) -> None:
    text = report.dsync_summary(sweep(*small, *large))
    assert text.startswith(lead), text
    assert "at 64 KiB the blocking writer ran" in text and "at 16 MiB the fastest mode, io_uring ×2, ran" in text


def test_dsync_summary_faster_with_dsync_is_not_called_a_cost() -> None:
    """The reader's case: O_DSYNC faster at 64 KiB (9,950 -> 11,400 records/s)."""
    text = report.dsync_summary(sweep([9950, 9960, 9970], [11400, 11410, 11420], [100, 101, 102], [92, 93, 94]))
    assert (
        "at 64 KiB the blocking writer ran 1.15× faster than without it (O_DSYNC only adds a wait, so this may be"
        in text
    )
    assert "at 16 MiB the fastest mode, io_uring ×2, ran 1.09× slower than without it" in text
    assert report.dsync_summary(sweep([1], [1], [1], [1]).clear()) == "O_DSYNC could not be measured here."


def test_dsync_comparison_of_one_mode_and_of_the_fastest() -> None:
    metrics = sweep([100, 101, 102], [50, 51, 52], [100, 101, 102], [99, 100, 101])
    assert report.dsync_comparison(metrics, 64 * KiB, "blocking").direction == "lower"
    assert report.dsync_comparison(metrics, 16 * MiB).direction == "same"
    assert report.dsync_comparison(metrics, 4 * MiB).direction == "missing"


def plateau(points: list[list[float]]) -> pl.DataFrame:
    caps = [64 * KiB * 4**i for i in range(len(points))]
    return runs({(c, False, "blocking", 1): p for c, p in zip(caps, points)}, SWEEP_KEYS, "mb_per_s")


@pytest.mark.parametrize(
    ("points", "words"),
    [
        ([[10, 11, 12], [100, 101, 102], [500, 510, 520]], "still rising at the largest capacity measured, 1 MiB"),
        ([[10, 11, 12], [100, 101, 102], [100, 104, 106]], "levels off from 256 KiB"),
        (
            [[100, 101, 102], [95, 100, 104], [98, 102, 106]],
            "no capacity's fastest mode was clearly faster than at the smallest",
        ),
        ([[10, 11, 12], [100, 101, 102], [20, 21, 22]], "peaked at 256 KiB and fell below half of that at 1 MiB"),
        ([[10, 11, 12]], "too few capacities"),
    ],
)
def test_plateau_sentence_every_shape(points: list[list[float]], words: str) -> None:
    assert words in report.plateau_sentence(plateau(points))


def variants(cases: dict[str, list[float]], group: str = "pinning") -> pl.DataFrame:
    return runs({(v, group): vs for v, vs in cases.items()}, ("variant", "group"))


@pytest.mark.parametrize(
    ("pinned", "unpinned", "words"),
    [
        ([130, 131, 132], [100, 101, 102], "1.3× faster than the unpinned one"),
        ([70, 71, 72], [100, 101, 102], "1.4× slower than the unpinned one"),
        ([100, 101, 102], [100, 101, 102], "about as fast as the unpinned one (1×)"),
        ([60, 130, 200], [100, 101, 102], "not clearly faster or slower than the unpinned one (1.3× by the medians"),
    ],
)
def test_pin_comparison(pinned: list[float], unpinned: list[float], words: str) -> None:
    metrics = variants({"blocking_pinned": pinned, "blocking_unpinned": unpinned})
    assert report.pin_comparison(metrics, "blocking", "the unpinned one").startswith(words)
    missing = report.pin_comparison(metrics, "uring", "its twin")
    assert missing == "not measured here, so not compared with its twin"


def test_pin_sentence_does_not_call_a_clear_difference_noise() -> None:
    v = report.variant_numbers(variants({"blocking_pinned": [100, 101, 210], "blocking_unpinned": [100, 101, 102]}))
    assert (
        "only where the intervals of their medians do not overlap" in v["pin_sentence"]
        and "noise" not in v["pin_sentence"]
    )


@pytest.mark.parametrize(
    ("again", "words"),
    [
        ([100, 101, 102], "the same within their intervals"),
        ([60, 130, 200], "apart by the medians, but their intervals overlap"),
        ([50, 51, 52], "2× apart with nothing changed but the moment they ran"),
    ],
)
def test_repeat_sentence_names_each_run(again: list[float], words: str) -> None:
    cap = 1 * MiB
    sweep_runs = runs({(cap, False, "blocking", 1): [100, 101, 102]}, SWEEP_KEYS)
    var = variants({"blocking_unpinned": again})
    text = report.repeat_sentence(sweep_runs, var, cap)
    assert text.startswith(
        "One configuration, several experiments: the 1 MiB blocking writer made 101 records/s in the sweep and "
    )
    assert words in text and "io_uring" not in text
    assert report.repeat_sentence(sweep_runs, var.clear(), cap).endswith(
        "could not run here, so their runs are not set side by side."
    )


def test_depth_and_blocking_gain_comparisons() -> None:
    depth = variants({"depth_1": [10, 11, 12], "depth_8": [30, 31, 32], "depth_2": [20, 21, 22]}, "depth")
    assert report.depth_comparison(depth, "one buffer") == "2.8× faster than one buffer"
    assert report.depth_comparison(depth.clear(), "one buffer") == "not measured here, so not compared with one buffer"
    assert report.variant_name("depth_8") == "io_uring ×8" and report.variant_name("depth_1") == "blocking (1 buffer)"
    metrics = sweep([100, 101, 102], [50, 51, 52], [1000, 1010, 1020], [900, 910, 920])
    assert report.blocking_gain(metrics, "the small one") == "10× faster than the small one"
    missing = report.blocking_gain(metrics.filter(pl.col("mode") != "blocking"), "with the small one")
    assert missing == "not compared, as the blocking writer could not run here"  # no 'with with'
    gone = metrics.filter(~((pl.col("mode") == "blocking") & (pl.col("capacity") == 16 * MiB)))
    assert report.blocking_gain(gone, "with the small one") == "not compared, as the blocking writer ran at one size"


def test_handoff_comparison() -> None:
    keys = ("capacity", "dsync", "counters")
    both = pl.concat(
        [
            runs({(64 * KiB, False, True): [300, 310, 320]}, keys, "t_handoff"),
            runs({(64 * KiB, False, True): [100, 101, 102]}, keys, "t_copy"),
        ]
    )
    assert report.handoff_comparison(both, "copying it") == "3.1× more than copying it"
    assert report.handoff_comparison(both.filter(pl.col("dsync")), "copying it") == (
        "a time not measured here, so it is not compared with copying it"
    )


def fio_runs(ratios: dict[tuple, list[float]]) -> pl.DataFrame:
    rows = []
    for (cap, dsync, mode, buffers), rs in ratios.items():
        for i, r in enumerate(rs):
            base = {"capacity": cap, "dsync": dsync, "mode": mode, "buffers": buffers, "metric": "mb_per_s"}
            rows += [base | {"tool": "fio", "value": 100.0, "repetition": i}]
            rows += [base | {"tool": "howfast", "value": 100.0 * r, "repetition": i}]
    return pl.DataFrame(rows)


def test_fio_sentence_each_verdict() -> None:
    text = report.fio_sentence(
        fio_runs(
            {
                (256 * KiB, False, "blocking", 1): [0.5, 0.6, 0.7],
                (256 * KiB, False, "uring_deep", 8): [0.95, 1.0, 1.05],
                (4 * MiB, True, "uring_deep", 8): [0.8, 1.0, 1.2],
                (4 * MiB, False, "uring_deep", 8): [1.2, 1.3, 1.4],
            }
        )
    )
    # three rounds give 75 %: every direction is a leaning, as in the table's verdict column
    assert (
        "of 4 cases, 1 case leaned towards agreement with fio, the interval within 0.9–1.1×: io_uring ×8 at 256 KiB "
        "(1×)" in text
    )
    assert "1 case leaned slower than fio, the interval below 1: blocking at 256 KiB (0.6×)" in text
    assert "1 case leaned faster than fio, the interval above 1: io_uring ×8 at 4 MiB (1.3×)" in text
    assert "was clearly" not in text and "so a leaning towards faster may point at" in text
    assert "1 case was inconclusive, the interval including 1 and leaving the band." in text
    assert "with O_DSYNC" not in text  # the inconclusive case is counted; the table names it
    alone = fio_runs({(256 * KiB, False, "blocking", 1): [1.0]}).filter(pl.col("tool") == "howfast")
    assert report.fio_sentence(alone).startswith("fio could not run here")


def test_fio_sentence_groups_findings_and_leanings_and_gives_each_round_count() -> None:
    text = report.fio_sentence(
        fio_runs(
            {
                (256 * KiB, False, "blocking", 1): [0.5, 0.55, 0.6, 0.65, 0.7],  # 5 rounds: 94 %, a leaning
                (4 * MiB, False, "uring_deep", 8): [1.2, 1.25, 1.3, 1.3, 1.3, 1.3, 1.35, 1.4, 1.45],  # 9: 96 %
                (4 * MiB, True, "uring_deep", 8): [0.95, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.05],
            }
        )
    )
    assert "1 case was clearly faster than fio, the interval wholly above 1: io_uring ×8 at 4 MiB (1.3×)" in text
    assert "1 case agreed with fio, the interval within 0.9–1.1×: io_uring ×8 at 4 MiB with O_DSYNC (1×)" in text
    assert "1 case leaned slower than fio, the interval below 1: blocking at 256 KiB (0.6×)" in text
    assert (
        " With 5 rounds (1 case), each interval is the lowest ratio to the highest, which holds the median with 94 % "
        "confidence, not 95 %, so those verdicts are leanings; with 9 rounds (2 cases), each interval is the 2nd "
        "lowest ratio to the 2nd highest, which holds the median with 96 % confidence."
    ) in text
    assert "so a clearly faster verdict may point at" in text
    assert report._rounds_caveat([6, 9]) == ""  # every count reaches 95 %: findings, no caveat
    assert report._rounds_caveat([3, 3]) == (
        " With 3 rounds per case, each interval is the lowest ratio to the highest, which holds the median with 75 % "
        "confidence, not 95 %, so those verdicts are leanings."
    )
    with pytest.raises(ValueError, match="counts"):
        report._rounds_caveat([])


def test_read_threads_words_name_each_read_test() -> None:
    assert report.read_threads_words(2, 16, 1, 16) == (
        "The read tests differ even more, for two reasons. The laptop ran `readrandom` on 16 threads and "
        "`readwhilewriting` with 16 reader threads; this machine ran `readrandom` on 2 threads and "
        "`readwhilewriting` with 1 reader thread. And the laptop's"
    )
    assert report.read_threads_words(16, 16, 15, 16).startswith("The read tests differ even more, for two reasons.")
    assert report.read_threads_words(16, 16, 16, 16) == (
        "The read tests differ even more, although both machines ran `readrandom` on 16 threads and "
        "`readwhilewriting` with 16 reader threads: the laptop's"
    )
    with pytest.raises(ValueError, match="together"):
        report.read_threads_words(2, 16, 1)
    with pytest.raises(ValueError, match="ours_readers"):
        report.read_threads_words(2, 16, 0, 16)


def test_fio_sentence_names_the_segment_size_when_the_runs_have_several() -> None:
    one = fio_runs({(1 * MiB, True, "uring_deep", 32): [1.0, 1.01, 0.99]}).with_columns(segment_bytes=pl.lit(1 << 30))
    default = fio_runs({(1 * MiB, True, "uring_deep", 32): [0.7, 0.75, 0.8]}).with_columns(
        segment_bytes=pl.lit(64 * MiB)
    )
    text = report.fio_sentence(pl.concat([one, default]))
    assert "within 0.9–1.1×: io_uring ×32 at 1 MiB with O_DSYNC in 1 GiB segments" in text
    assert "the interval below 1: io_uring ×32 at 1 MiB with O_DSYNC in 64 MiB segments" in text  # 3 rounds: leaning
    assert "segments" not in report.fio_sentence(one)  # one segment size: nothing to tell apart


@pytest.mark.parametrize(
    ("on", "words"),
    [
        (
            [100, 101, 102],
            "about as fast as the runs without clocks: the median of the 3 paired ratios was 1.01× "
            "(1–1.02×) with the interval of that median (75 % confidence), while single pairs ranged "
            "from 1× to 1.02×",
        ),
        ([80, 81, 82], "1.2× slower than the runs without clocks"),
        ([60, 100, 140], "not clearly faster or slower than the runs without clocks"),
    ],
)
def test_counter_cost_sentence(on: list[float], words: str) -> None:
    keys = ("capacity", "dsync", "repetition", "counters")
    rows = [
        {"capacity": 64 * KiB, "dsync": False, "repetition": i, "counters": c, "metric": "records_per_s", "value": v}
        for i, v_on in enumerate(on)
        for c, v in ((True, float(v_on)), (False, 100.0))
    ]
    assert keys and f"the clocked runs were {words}" in report.counter_cost_sentence(pl.DataFrame(rows))


def test_seed_words_and_the_disk_words() -> None:
    assert report.seed_converge_words().startswith(
        "converge: with O_DSYNC its memtable kept 61 % of its rate at 64 KiB"
    )
    ours = runs({(64 * KiB, False, "blocking", 1): [9000, 9100, 9200]}, SWEEP_KEYS)
    assert report.seed_small_words(ours, 2, 2).startswith(  # every branch's words: test_memtable_report
        "At 64 KiB, the seed's blocking writer flushed 196 times"
    )
    assert report.seed_small_words(ours.clear(), 2, 2).startswith("This machine's sweep could not run")
    back = report.dsync_device_words({"write_cache": "write back", "fua": True, "device_kind": "virtual disk"})
    assert "as an fdatasync would" in back and "as write back, with FUA" in back and "hypervisor" in back
    through = report.dsync_device_words({"write_cache": "write through", "fua": False})
    assert "the kernel sends no cache flush" in through


# ---- segment files made ahead of need ---------------------------------------------------------


def empty_segments(directory: Path) -> list[str]:
    """Segment files holding nothing: shorter than the 4 KiB header, or a header of zeros."""
    out = []
    for p in sorted(directory.glob("segment-*.dat")):
        with open(p, "rb") as f:
            head = f.read(4096)
        if len(head) < 4096 or head == bytes(4096):
            out.append(p.name)
    return out


@pytest.mark.parametrize(("flush", "buffers"), [("blocking", 1), ("io_uring", 2)])
@pytest.mark.parametrize("ahead", [0, 1, 3])
def test_segments_made_ahead_hold_every_record(db: Path, flush: str, buffers: int, ahead: int) -> None:
    """Records written across many rollovers come back, from the open memtable and after
    recovery, whoever made the segment files."""
    data = records(300, seed=ahead)
    m = open_memtable(db, flush, buffers, segment_bytes=128 * KiB, segments_ahead=ahead)
    m.put_many(list(data.items()))
    m.flush()
    assert m.stats()["segments"] >= 5 and m.stats()["segments_prepared"] >= m.stats()["segments"]
    assert all(m.get(k) == v for k, v in data.items())
    m.close()
    assert empty_segments(db) == []  # close() removes the files made ahead and never written
    r = _native.recover(str(db), 64 * KiB, direct=direct_ok(db), segments_ahead=ahead)
    assert {k: r.get(k) for k in r.keys()} == data and r.stats()["empty_segments"] == 0
    r.close()


@pytest.mark.parametrize(("flush", "buffers"), [("blocking", 1), ("io_uring", 2)])
def test_recovery_with_prepared_unused_segments(db: Path, scratch_dir: Path, flush: str, buffers: int) -> None:
    """A crash while segment files wait, made ahead and never written (here: the files of
    an open memtable, copied): recovery returns every record, removes the empty files
    and counts them, and the memtable goes on writing into new ones."""
    data = records(80, seed=9)
    m = open_memtable(db, flush, buffers, wal=True, segment_bytes=128 * KiB, segments_ahead=3)
    m.put_many(list(data.items()))
    m.flush()
    deadline = time.monotonic() + 30
    while m.stats()["segments_prepared"] < m.stats()["segments"] + 3:  # the helper fills up in the background
        assert time.monotonic() < deadline, m.stats()
        time.sleep(0.001)
    copy = snapshot(db, scratch_dir / "crashed")
    m.close()
    prepared = empty_segments(copy)
    assert len(prepared) == 3, prepared  # the helper keeps three ready
    r = _native.recover(str(copy), 64 * KiB, direct=direct_ok(db), flush=flush, buffers=buffers)
    assert r.stats()["empty_segments"] == 3
    assert not any((copy / name).exists() for name in prepared)
    assert {k: r.get(k) for k in r.keys()} == data
    more = records(40, seed=10)
    r.put_many([(b"more-" + k, v) for k, v in more.items()])
    r.close()
    again = _native.recover(str(copy), 64 * KiB, direct=direct_ok(db))
    assert len(again) == len(data) + len(more) and again.get(b"key-00007") == data[b"key-00007"]
    again.close()


def test_a_header_of_zeros_is_an_empty_segment(db: Path) -> None:
    """A segment file made ahead and preallocated (its header never written) holds nothing,
    whatever its size; recovery removes it."""
    with open_memtable(db) as m:
        m.put(b"k", b"v")
    (db / "segment-0000000007.dat").write_bytes(bytes(4096 + 64 * KiB))
    (db / "segment-0000000008.dat").write_bytes(b"")
    r = _native.recover(str(db), 64 * KiB, direct=direct_ok(db))
    assert r.get(b"k") == b"v" and r.stats()["empty_segments"] == 2
    r.put(b"k2", b"v2")
    r.flush()
    assert not (db / "segment-0000000007.dat").exists() and not (db / "segment-0000000008.dat").exists()
    assert any(int(p.stem.split("-")[1]) > 8 for p in db.glob("segment-*.dat"))  # new files come after them
    r.close()


def test_default_segment_size_is_the_plans() -> None:
    """The chapter's 'default segment' rows use Memtable's default segment_bytes."""
    from howfast.memtable.plan import DEFAULT_SEGMENT_BYTES

    for doc in (_native.Memtable.__init__.__doc__, _native.recover.__doc__, _native.memtable_benchmark.__doc__):
        assert f"segment_bytes: typing.SupportsInt | typing.SupportsIndex = {DEFAULT_SEGMENT_BYTES}," in doc


def test_benchmark_counts_segment_files(db: Path) -> None:
    """Rollovers: one segment file per segment's worth of flushes, each made (ahead) and
    timed; the writer's wait at rollovers is part of its wait for segment files."""
    needs("io_uring")
    r = _native.memtable_benchmark(
        str(db), 64 * KiB, 64, record_size=16 * KiB, flush="io_uring", buffers=2, producers=1,
        direct=direct_ok(db), segment_bytes=128 * KiB,
    )  # fmt: skip
    assert r["flushes"] == 16 and r["segments"] == 8
    assert r["segments_prepared"] >= r["segments"] and r["segment_prepare_ns"] > 0
    assert 0 <= r["rollover_wait_ns"] <= r["segment_create_ns"]
    assert list(db.iterdir()) == []


# ---- the chapter's segment section: every branch of its sentences ------------------------------


def test_signed_numbers_and_spans() -> None:
    assert report.signed(-25.9) == "−25.9" and report.signed(593.0) == "593" and report.signed(None) == "n/a"
    assert report.signed_span(-84.6, 593.0) == "−84.6 to 593" and report.signed_span(None, 1.0) == "n/a"


def segment_runs(default: dict[bool, list[float]], one: dict[bool, list[float]], ours_one: float = 100.0):
    """Fake fio cross-check rows at 1 MiB: ours / fio per round with the default segment
    size (`default`, per O_DSYNC setting) and with one 1 GiB file (`one`); fio always 100 MB/s,
    ours into the one file `ours_one` × the ratio."""
    rows = []
    for segment, ratios in ((64 * MiB, default), (1024 * MiB, one)):
        for dsync, rs in ratios.items():
            for i, r in enumerate(rs):
                base = {"capacity": MiB, "dsync": dsync, "mode": "uring_deep", "buffers": 32, "segment_bytes": segment,
                        "metric": "mb_per_s", "repetition": i, "records": 8192, "record_size": 16 * KiB}  # fmt: skip
                rows += [base | {"tool": "fio", "value": 100.0}, base | {"tool": "howfast", "value": 100.0 * r}]
    return pl.DataFrame(rows)


@pytest.mark.parametrize(
    ("default", "one", "words"),
    [
        ({False: [0.96, 0.97, 0.98]}, {False: [0.96, 0.97, 0.98]},
         ["leans to agree in the table", "the interval lies wholly at or above it, so the default size meets it",
          "about as fast as into one file"]),
        ({False: [0.5, 0.6, 0.7]}, {False: [0.9, 0.95, 1.0]},
         ["leans lower in the table", "the interval lies wholly below it, so the default size misses it",
          "slower than into one file, the interval wholly below 1"]),
        ({False: [1.2, 1.3, 1.4]}, {False: [0.9, 0.95, 1.0]},
         ["leans higher in the table", "so the default size meets it", "faster than into one file"]),
        ({False: [0.6, 1.0, 1.3]}, {False: [0.9, 0.95, 1.0]},
         ["inconclusive in the table", "on both sides of it, so whether the default size meets it is not decided",
          "not clearly slower or faster than into one file"]),
        ({False: [0.96, 0.97, 0.98], True: [0.5, 0.6, 0.7]}, {False: [1, 1, 1], True: [1, 1, 1]},
         ["without O_DSYNC, the interval lies wholly at or above it", "with O_DSYNC, the interval lies wholly below"]),
    ],
)  # fmt: skip
def test_segment_goal_sentence_every_verdict(default: dict, one: dict, words: list[str]) -> None:
    text = report.segment_goal_sentence(segment_runs(default, one))
    assert text.startswith("In those rows the memtable wrote 128 MiB per run into 64 MiB files, 1 rollover per run")
    assert "these rows say little about what a rollover costs" in text
    for w in words:
        assert w in text, (w, text)
    assert not any(c in text for c in "`*^")
    # three rounds hold the median with 75 % confidence: a direction is a leaning, said as such
    assert (
        "With 3 rounds, such an interval is the lowest ratio to the highest and holds the median with 75 % "
        "confidence, not 95 %, so those readings are leanings, not findings."
    ) in text
    assert "These run-by-run intervals rest on as few rounds, so a direction there is a leaning too." in text
    assert "ours higher in the table" not in text and "ours lower in the table" not in text
    assert ": leaning " in text or ": not clearly slower or faster" in text
    assert ("may show how far the disk drifted between runs rather than a gain" in text) == (
        "leaning faster than into one file" in text
    )


def test_segment_goal_sentence_with_six_rounds_gives_findings() -> None:
    text = report.segment_goal_sentence(segment_runs({False: [1.2, 1.3, 1.4] * 2}, {False: [0.95] * 6}))
    assert "without O_DSYNC at 1.4× (1.3–1.5×): faster than into one file, the interval wholly above 1." in text
    assert "leaning" not in text and "confidence" not in text
    assert "ours higher in the table: the interval lies wholly above 1" in text
    assert "may show how far the disk drifted between runs rather than a gain; these runs cannot say which." in text
    slower = report.segment_goal_sentence(segment_runs({False: [0.6, 0.7, 0.8] * 2}, {False: [0.95] * 6}))
    assert ": slower than into one file, the interval wholly below 1." in slower and "drifted" not in slower


def test_segment_goal_sentence_without_the_default_rows() -> None:
    metrics = segment_runs({False: [1.0]}, {False: [1.0]}).filter(pl.col("segment_bytes") != 64 * MiB)
    assert report.segment_goal_sentence(metrics).startswith("The default 64 MiB segments could not be compared")


def rollover_runs(cases: dict[tuple[int, int], dict[str, list[float]]]) -> pl.DataFrame:
    """Fake rollover runs with O_DSYNC: per (segments_ahead, segment_bytes), each metric per round."""
    rows = [
        {"dsync": True, "segments_ahead": ahead, "segment_bytes": seg, "repetition": i, "metric": m, "value": float(v)}
        for (ahead, seg), metrics in cases.items()
        for m, vs in metrics.items()
        for i, v in enumerate(vs)
    ]
    return pl.DataFrame(rows)


def rollover_case(elapsed: list[float], wait: list[float], make: list[float], rate: list[float], rollovers: int):
    return {"elapsed_ms": elapsed, "rollovers": [rollovers] * len(elapsed), "records_per_s": rate,
            "wait_us": wait, "make_ms": make}  # fmt: skip


@pytest.mark.parametrize(
    ("writer_elapsed", "helper_wait", "helper_make", "helper_rate", "words"),
    [
        ([110, 111, 112], [5, 6, 7], [0.9, 1.0, 1.1], [100, 101, 102],
         ["longer per rollover", "shorter than when it made its own files",
          "(the helper shares the disk and the CPUs with the writes)", "about as fast as into one file"]),
        ([90, 91, 92], [595, 600, 605], [0.3, 0.35, 0.4], [60, 61, 62],
         ["the run into them was faster than into a single file (by 800 µs to 1,000 µs per rollover, the "
          "interval over 3 rounds), so no cost shows here", "about as long as when it made its own files",
          "with files made ahead, every round took as long as into a single file, so no cost shows here",
          "slower than into one file"]),
        ([90, 100, 112], [100, 600, 2000], [0.2, 0.5, 0.9], [50, 100, 150],
         ["lies between −1,000 and 1,200 µs (the interval of the median over 3 rounds), inconclusive here",
          "An interval that includes zero cannot tell a rollover's cost from this disk's noise.",
          "not clearly longer or shorter than when it made its own files", "not clearly faster or slower"]),
    ],
)  # fmt: skip
def test_rollover_sentence_every_branch(
    writer_elapsed: list[float], helper_wait: list[float], helper_make: list[float], helper_rate: list[float],
    words: list[str],
) -> None:  # fmt: skip
    metrics = rollover_runs(
        {
            (0, 64 * MiB): rollover_case(writer_elapsed, [595, 600, 605], [0.3, 0.35, 0.4], [90, 91, 92], 10),
            (0, 1024 * MiB): rollover_case([100, 100, 100], [0, 0, 0], [0.3, 0.35, 0.4], [100, 100, 100], 0),
            (2, 64 * MiB): rollover_case([100, 100, 100], helper_wait, helper_make, helper_rate, 10),
            (2, 1024 * MiB): rollover_case([100, 100, 100], [0, 0, 0], [0.3, 0.35, 0.4], [100, 101, 102], 0),
        }
    )
    text = report.rollover_sentence(metrics)
    assert text.startswith("With O_DSYNC, making a 64 MiB file took 350 µs when the writer made its files itself")
    for w in words:
        assert w in text, (w, text)
    assert "-" not in text.replace("O_DSYNC", "")
    assert text.count("against this disk's noise") <= 1 and text.count("noise") <= 1


def test_rollover_sentence_reads_each_o_dsync_setting_and_agreement_with_the_fio_rows() -> None:
    """The reader's case: without O_DSYNC the files made ahead cost more than zero per rollover
    and ran clearly slower than one file; with it they did not. Each setting has its own
    sentence, and the fio table's rows are set beside the rollover experiment's verdict."""
    plain = rollover_runs(
        {
            (2, 64 * MiB): rollover_case([110, 112, 114], [7, 8, 9], [0.8, 0.85, 0.9], [105, 107, 111], 15),
            (2, 1024 * MiB): rollover_case([100, 100, 100], [0, 0, 0], [1, 1, 1], [112, 118, 123], 0),
        }
    ).with_columns(pl.lit(False).alias("dsync"))
    durable = rollover_runs(
        {
            (2, 64 * MiB): rollover_case([100, 101, 99], [6, 6.5, 7], [0.4, 0.47, 0.5], [104, 106, 107], 15),
            (2, 1024 * MiB): rollover_case([100, 100, 100], [0, 0, 0], [1, 1, 1], [102, 104, 109], 0),
        }
    )
    metrics = pl.concat([plain, durable])
    without = report.rollover_sentence(metrics, dsync=False)
    assert without.startswith("Without O_DSYNC, making a 64 MiB file took")
    assert "with files made ahead, the run took 800 µs longer per rollover (667 µs to 933 µs" in without
    assert "In records per second, 64 MiB files made ahead ran 1.103× slower than into one file" in without
    with_ = report.rollover_sentence(metrics, dsync=True)
    assert with_.startswith("With O_DSYNC, making a 64 MiB file took")
    assert "about as fast as into one file (1.02×)" in with_
    assert report.rollover_numbers(metrics, dsync=False)["cost_helper_us"] > 0
    assert report.rollover_rate(metrics, dsync=False).direction == claims.LOWER
    assert report.rollover_rate(metrics, 1024 * MiB).direction == claims.MISSING  # the one file against itself
    assert report.rollover_sentence(durable, dsync=False).startswith(
        "The rollover experiment could not run here (no runs without O_DSYNC with 64 MiB files)"
    )
    # agreement of the two experiments, every outcome
    lower, unclear = claims.Comparison(claims.LOWER, 0.9, 0.85, 0.95), claims.Comparison(claims.UNCLEAR, 1, 0.9, 1.1)
    assert report.rollover_agreement("ours lower", lower) == "agree"
    assert report.rollover_agreement("inconclusive", lower) == "one could not tell"
    assert report.rollover_agreement("agrees", lower) == "disagree"
    assert report.rollover_agreement("inconclusive", unclear) == "neither clear"
    assert report.rollover_agreement("agrees", claims.Comparison(claims.SAME_WORD, 1, 0.99, 1.01)) == "agree"
    assert report.rollover_agreement("agrees", unclear) == "one could not tell"  # "agrees" is a clear "same"
    assert report.rollover_agreement("agrees", claims.Comparison(claims.MISSING)) == "missing"
    with pytest.raises(ValueError, match="cost_verdict"):
        report.rollover_agreement("faster", lower)
    # beside segment_goal_sentence's run-by-run ratios (fio table's runs)
    words = report._rollover_beside_words([{"dsync": False, "crosscheck": "inconclusive"},
                                           {"dsync": True, "crosscheck": "agrees"}], metrics)  # fmt: skip
    assert "Those ratios come from the fio table's runs; the rollover experiment above" in words
    assert "without O_DSYNC, its 64 MiB files made ahead ran 1.103× slower than one file" in words
    assert "the two experiments disagree" not in words
    assert report._rollover_beside_words([{"dsync": False, "crosscheck": "ours lower"}], metrics).endswith(
        "the two experiments agree."
    )
    assert report._rollover_beside_words([{"dsync": False, "crosscheck": "ours lower"}], metrics.clear()) == ""
    # five rounds give 94 %: these runs' direction is a leaning, never called clear
    lean = report._rollover_beside_words([{"dsync": False, "crosscheck": "ours lower", "rounds": 5}], metrics)
    assert lean.endswith("it points the way these runs only lean.") and "experiments agree" not in lean
    against = report._rollover_beside_words([{"dsync": False, "crosscheck": "agrees", "rounds": 5}], metrics)
    assert "it points against the way these runs lean" in against
    six = report._rollover_beside_words([{"dsync": False, "crosscheck": "ours lower", "rounds": 6}], metrics)
    assert six.endswith("the two experiments agree.")


def test_depth_repeat_sentence_every_branch() -> None:
    keys = ("group", "variant", "capacity", "dsync", "mode", "buffers")
    depth = runs(
        {
            ("depth", "depth_1", 256 * KiB, True, "blocking", 1): [100, 101, 102],
            ("depth", "depth_2", 256 * KiB, True, "uring_deep", 2): [200, 300, 400],
            ("depth", "depth_32", 256 * KiB, True, "uring_deep", 32): [900, 910, 920],
        },
        keys,
    )
    sweep_runs = runs(
        {
            (256 * KiB, True, "blocking", 1): [100, 101, 102],
            (256 * KiB, True, "uring_double", 2): [250, 300, 350],
            (256 * KiB, True, "uring_deep", 32): [600, 610, 620],
            (256 * KiB, False, "uring_deep", 32): [2000, 2000, 2000],
        },
        SWEEP_KEYS,
    )
    text = report.depth_repeat_sentence(sweep_runs, depth)
    assert "blocking made 101 records/s in the sweep and 101 here (the same within their intervals)" in text
    assert "io_uring ×2 made 300 records/s in the sweep and 300 here (alike by the medians, but with intervals" in text
    assert "io_uring ×32 made 610 records/s in the sweep and 910 here (1.5× apart with nothing changed" in text
    assert report.depth_repeat_sentence(sweep_runs, depth.clear()).startswith("The buffer counts could not run")
    other = sweep_runs.filter(pl.col("capacity") < 0)
    assert report.depth_repeat_sentence(other, depth).startswith("The sweep ran none of these buffer counts")
