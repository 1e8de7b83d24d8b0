"""Crash safety of the memtable: writers killed with SIGKILL at random moments, then
recovered; every acknowledged record must come back intact."""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _native, capabilities
from ..bench import Case, Outcome, Unsupported
from ..checks import checked
from ..scratch import Scratch
from .experiments import _direct_io, _fresh_dir, _remove_dir

#: The writer run in a child process: it prints "ready", then after every batch that
#: came back acknowledged as durable, one line naming each record as key:version.
CHILD = r"""
import json, os, random, struct, sys
from howfast import _native
directory, options = sys.argv[1], json.loads(sys.argv[2])
sync_each = options.pop("sync_each")
rng = random.Random(options.pop("seed"))
m = _native.Memtable(directory, **options)
os.write(1, b"ready\n")
version = 0
while True:
    batch, names = [], []
    for _ in range(rng.randint(1, 8)):
        key = rng.randrange(200)
        length = version * 7919 % 6000
        value = struct.pack("<QQ", key, version) + random.Random(version).randbytes(length)
        batch.append((b"key-%d" % key, value))
        names.append("%d:%d" % (key, version))
        version += 1
    m.put_many(batch)
    if sync_each:
        m.flush()
    os.write(1, ("a " + " ".join(names) + "\n").encode())
"""

CRASH_CAPACITY = 64 * 1024
CRASH_RECORD = 16 * 1024


@dataclass(frozen=True)
class CrashMode:
    name: str
    wal: bool
    flush: str
    buffers: int
    dsync: bool
    sync_each: bool  # no log: durable only once flush() returned

    def options(self, seed: int, direct: bool) -> dict[str, Any]:
        return {
            "capacity": CRASH_CAPACITY,
            "record_size": CRASH_RECORD,
            "wal": self.wal,
            "flush": self.flush,
            "buffers": self.buffers,
            "dsync": self.dsync,
            "direct": direct,
            "segment_bytes": 1 << 20,
            "sync_each": self.sync_each,
            "seed": seed,
        }


CRASH_MODES = (
    CrashMode("log_uring2_dsync", wal=True, flush="io_uring", buffers=2, dsync=True, sync_each=False),
    CrashMode("log_blocking", wal=True, flush="blocking", buffers=1, dsync=False, sync_each=False),
    CrashMode("log_uring4", wal=True, flush="io_uring", buffers=4, dsync=False, sync_each=False),
    CrashMode("flush_each_uring", wal=False, flush="io_uring", buffers=2, dsync=True, sync_each=True),
    CrashMode("flush_each_blocking", wal=False, flush="blocking", buffers=1, dsync=False, sync_each=True),
)


def expected_value(key: int, version: int) -> bytes:
    """The value the crash child writes for this key and version."""
    for name, value in (("key", key), ("version", version)):
        if not 0 <= value < 2**64:
            raise ValueError(f"expected_value(): {name} must be from 0 to 2**64 - 1, got {value}")
    return struct.pack("<QQ", key, version) + random.Random(version).randbytes(version * 7919 % 6000)


@dataclass
class CrashOutcome:
    mode: str
    delay_s: float
    acknowledged: int  # records the child reported durable before it died
    acknowledged_keys: int
    recovered_keys: int
    newer: int  # keys recovered at a version written after the last acknowledged one
    torn: int  # partial records recovery found and skipped
    problems: list[str] = field(default_factory=list)
    empty_segments: int = 0  # segment files made ahead and never written, which recovery removed


def _wait_ready(out: Path, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if out.exists() and out.read_bytes().startswith(b"ready\n"):
            return
        if proc.poll() is not None:
            raise RuntimeError(f"the crash child exited early ({proc.returncode}): {proc.stderr.read().decode()}")
        time.sleep(0.005)
    proc.kill()
    raise RuntimeError("the crash child did not start within 30 s")


def crash_once(directory: Path, mode: CrashMode, *, seed: int, delay_s: float, direct: bool = True) -> CrashOutcome:
    """Start a writer in a child process, SIGKILL it after `delay_s`, recover, and check
    every acknowledged record (present, at that version or a newer one, intact) and
    every recovered value (intact: it equals what the child wrote for that version)."""
    db = directory / "db"
    db.mkdir()
    out = directory / "acks.txt"
    options = mode.options(seed, direct)
    with open(out, "wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db), json.dumps(options)], stdout=sink, stderr=subprocess.PIPE
        )
        try:
            _wait_ready(out, proc)
            time.sleep(delay_s)
            if proc.poll() is not None:
                raise RuntimeError(
                    f"the crash child died on its own ({proc.returncode}): {proc.stderr.read().decode()}"
                )
            proc.kill()
        finally:
            proc.kill()
            proc.wait(timeout=60)
            proc.stderr.close()
    text = out.read_bytes().decode()
    lines = text.split("\n")[:-1]  # the last piece has no newline: it may be cut off
    acked: dict[int, int] = {}
    count = 0
    for line in lines[1:]:
        for item in line.split()[1:]:
            key, version = map(int, item.split(":"))
            acked[key] = max(acked.get(key, -1), version)
            count += 1
    recovered = _native.recover(str(db), CRASH_CAPACITY, record_size=CRASH_RECORD, direct=direct)
    problems: list[str] = []
    newer = 0
    try:
        stats = recovered.stats()
        for raw in recovered.keys():
            value = recovered.get(raw)
            key = int(raw.decode().split("-")[1])
            if value is None or len(value) < 16:
                problems.append(f"{raw!r}: value missing or short")
                continue
            k, version = struct.unpack("<QQ", value[:16])
            if k != key or value != expected_value(key, version):
                problems.append(f"{raw!r}: value is not what was written (version {version})")
        for key, version in acked.items():
            value = recovered.get(b"key-%d" % key)
            if value is None:
                problems.append(f"key-{key}: acknowledged at version {version}, missing after recovery")
                continue
            got = struct.unpack("<QQ", value[:16])[1]
            if got < version:
                problems.append(f"key-{key}: acknowledged at version {version}, recovered {got}")
            newer += got > version
        recovered_keys = len(recovered)
    finally:
        recovered.close()
    return CrashOutcome(
        mode.name,
        delay_s,
        count,
        len(acked),
        recovered_keys,
        newer,
        int(stats["torn_records"]),
        problems,
        int(stats["empty_segments"]),
    )


def crash_modes() -> tuple[CrashMode, ...]:
    """The modes this machine can run (io_uring ones need io_uring)."""
    if capabilities.io_uring().supported:
        return CRASH_MODES
    return tuple(m for m in CRASH_MODES if m.flush == "blocking")


def crash_measurer():
    counter = iter(range(1 << 30))

    def measure(case: Case, scratch: Scratch) -> Outcome:
        mode = next(m for m in CRASH_MODES if m.name == case["mode"])
        if mode.flush == "io_uring":
            ring = capabilities.io_uring()
            if not ring.supported:
                raise Unsupported(f"io_uring: {ring.reason}")
        direct = _direct_io(str(scratch.path)).supported
        i = next(counter)
        rng = random.Random(i)
        directory = _fresh_dir(scratch, "crash")
        try:
            got = crash_once(directory, mode, seed=i, delay_s=rng.uniform(0.0, 0.08), direct=direct)
        finally:
            _remove_dir(scratch, directory)
        if got.problems:
            raise RuntimeError(f"crash recovery lost or damaged records ({mode.name}): {got.problems[:5]}")
        return Outcome(
            {
                "acknowledged": (got.acknowledged, "records"),
                "acknowledged_keys": (got.acknowledged_keys, "keys"),
                "recovered_keys": (got.recovered_keys, "keys"),
                "newer": (got.newer, "keys"),
                "torn": (got.torn, "records"),
                "problems": (len(got.problems), "problems"),
                "delay_ms": (got.delay_s * 1e3, "ms"),
            }
        )

    return measure


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
