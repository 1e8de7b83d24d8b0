"""SQLite inserts as sqlite-bench runs them, through two clients of the same library.

benbjohnson/sqlite-bench (the tool behind the seeds' SQLite figures) creates a new
database, sets ``PRAGMA journal_mode`` and ``PRAGMA synchronous``, creates
``t (id INTEGER PRIMARY KEY, name TEXT)`` and inserts ``batch-count`` transactions of
``batch-size`` rows, each row one execution of ``INSERT INTO t (id, name) VALUES (?, ?)``
with a running id and the text ``'x' * row-size``. It times the insert loop only, then
checkpoints the WAL and reports the file size. Both clients here do exactly that:

* **C API**: ``_native.sqlite_inserts``, the loop in C++ against the system libsqlite3
  (GIL released, one prepared INSERT, every transaction timed);
* **Python sqlite3**: the same statements through Python's ``sqlite3`` module, which
  links the same libsqlite3. This loop must run in Python: the Python client is what it
  measures. Python caches the prepared INSERT, so the two differ only by the client.

``measure`` runs five experiments and stores them:

* ``inserts``: both clients × synchronous NORMAL/OFF/FULL × 1 and 1000 rows per
  transaction (1000-byte rows), plus 4 KiB rows through the C API;
* ``fsync_baseline``: plain 4 KiB write + fsync, seed 003's "just fsync";
* ``cli_check``: the sqlite3 shell building the same database, beside the C loop;
* ``client_cost``: every client variant in a scratch dir in ``/dev/shm`` (a
  tmpfs, so no disk noise), compared by the inserting thread's CPU time; when there
  is no such tmpfs, its cases say why;
* ``rows_land``: distinct rows written by each client, read back by the other.

Measurement lives here; ``report`` turns stored results into tables and charts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .. import _native
from ..bench import Case, Outcome, Run, Unsupported, latency_metrics, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from ..store import Writer

#: The shape of what this subject stores; bump it when its cases, ids or metrics change
#: (older stored sets are then measured again instead of misread).
SCHEMA = 2

#: The clients' ids (the chapter's words for them are ``report.CLIENT_NAMES``).
C_API = "c_api"
PYTHON = "python"
PYTHON_EXECUTEMANY = "python_executemany"
C_API_REPREPARE = "c_api_reprepare"
#: The two clients of every configuration.
CLIENTS = (C_API, PYTHON)
#: ... and two variants in the client-cost experiment: sqlite-bench's Go code prepares
#: its INSERT in every transaction; executemany hands Python's module a whole batch.
ALL_CLIENTS = (C_API, C_API_REPREPARE, PYTHON, PYTHON_EXECUTEMANY)
SYNCHRONOUS = ("normal", "off", "full")
INSERT_SQL = "INSERT INTO t (id, name) VALUES (?, ?)"
SCHEMA_SQL = "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)"
JOURNAL_MODES = ("delete", "truncate", "persist", "memory", "wal", "off")
CONTENTS = ("x", "random")
#: Random rows are windows into a pool this much longer than a row (as in the C++ loop).
POOL_SLACK = 4096
#: SQLite's default SQLITE_MAX_LENGTH: no row can be longer.
MAX_ROW_SIZE = 1_000_000_000
OFFSET_STRIDE = 7919

INSERTS = "inserts"
CLIENT_COST = "client_cost"
#: Where the client-cost experiment runs: memory, so no disk noise hides a microsecond.
MEMORY_BASE = Path("/dev/shm")
FSYNC_BASELINE = "fsync_baseline"
ROWS_LAND = "rows_land"
#: The files SQLite keeps beside a database.
SIDE_FILES = ("", "-wal", "-shm", "-journal")


# --------------------------------------------------------------------------- support


def _disabled() -> bool:
    return os.environ.get("HOWFAST_DISABLE_SQLITE", "").strip() not in ("", "0")


def c_api_unsupported() -> str | None:
    """Why the C API client cannot run here, or None when it can."""
    if _disabled():
        return "disabled by HOWFAST_DISABLE_SQLITE"
    if getattr(_native, "sqlite_version", None) is None:
        return "the native module was built without SQLite (install libsqlite3-dev and rebuild)"
    return None


def python_unsupported() -> str | None:
    """Why the Python sqlite3 client cannot run here, or None when it can."""
    if _disabled():
        return "disabled by HOWFAST_DISABLE_SQLITE"
    try:
        import sqlite3  # noqa: F401
    except ImportError as why:
        return f"this Python has no sqlite3 module ({why})"
    return None


def versions() -> dict[str, str | None]:
    """The SQLite library each client runs against (None when it cannot run)."""
    python_version = None
    if python_unsupported() is None:
        import sqlite3

        python_version = sqlite3.sqlite_version
    cli = shutil.which("sqlite3")
    cli_version = None
    if cli and not _disabled():
        done = subprocess.run([cli, "--version"], capture_output=True, text=True, check=False)
        cli_version = done.stdout.split(" ")[0].strip() or None
    return {
        C_API: None if c_api_unsupported() else str(_native.sqlite_version),
        PYTHON: python_version,
        "shell": cli_version,
    }


# ------------------------------------------------------------------ rows and checks


@lru_cache(maxsize=8)
def _pool(row_size: int, seed: int) -> str:
    # The pool is generated character by character from the seed, so the first
    # row_size + POOL_SLACK characters of a longer "row 0" are exactly the pool.
    return _native.sqlite_row_text(row_size + POOL_SLACK, 0, content="random", seed=seed).decode("ascii")


def row_text(row_size: int, row_id: int, content: str = "x", seed: int = 1) -> str:
    """The text of row `row_id`, the same as the C++ loop writes."""
    _check_content(content)
    if _positive(row_size, "row_size") > MAX_ROW_SIZE:
        raise ValueError(f"row_size must be at most {MAX_ROW_SIZE} bytes (SQLite's default limit), got {row_size}")
    if content == "x":
        return "x" * row_size
    offset = (row_id * OFFSET_STRIDE) % POOL_SLACK
    return _pool(row_size, seed)[offset : offset + row_size]


def _check_content(content: str) -> None:
    if content not in CONTENTS:
        raise ValueError(f"content must be 'x' (sqlite-bench's rows) or 'random'; got {content!r}")


def _positive(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def check_sizes(
    rows: int, batch_size: int, row_size: int, synchronous: str, journal_mode: str = "wal", content: str = "x"
) -> None:
    """ValueError naming the argument for sizes and modes the loops do not accept."""
    rows = _positive(rows, "rows")
    batch_size = _positive(batch_size, "batch_size")
    _positive(row_size, "row_size")
    if batch_size > rows:
        raise ValueError(f"batch_size ({batch_size}) must be at most rows ({rows})")
    if rows % batch_size:
        raise ValueError(f"rows ({rows}) must be a multiple of batch_size ({batch_size})")
    if synchronous not in SYNCHRONOUS:
        raise ValueError(f"synchronous must be 'off', 'normal' or 'full'; got {synchronous!r}")
    if journal_mode not in JOURNAL_MODES:
        raise ValueError(f"journal_mode must be one of {', '.join(JOURNAL_MODES)}; got {journal_mode!r}")
    _check_content(content)


def check_arguments(
    path: str | os.PathLike[str],
    rows: int,
    batch_size: int,
    row_size: int,
    synchronous: str,
    journal_mode: str = "wal",
    content: str = "x",
) -> Path:
    """The checks both clients make before creating anything (ValueError naming the argument)."""
    check_sizes(rows, batch_size, row_size, synchronous, journal_mode, content)
    target = Path(path)
    if not target.parent.is_dir():
        raise ValueError(f"path: directory {str(target.parent)!r} does not exist")
    for suffix in SIDE_FILES:
        if Path(f"{target}{suffix}").exists():
            raise ValueError(f"path: {str(target)}{suffix!s} already exists (the benchmark only creates new databases)")
    return target


def python_inserts(
    path: str | os.PathLike[str],
    rows: int,
    batch_size: int,
    row_size: int,
    *,
    synchronous: str = "normal",
    journal_mode: str = "wal",
    content: str = "x",
    seed: int = 1,
    executemany: bool = False,
) -> dict[str, Any]:
    """sqlite-bench's loop through Python's sqlite3 module (same statements as the C++ loop).

    Autocommit mode (``isolation_level=None``) with explicit ``BEGIN``/``COMMIT``, so
    Python adds no statements of its own; ``cursor.execute`` per row reuses the prepared
    INSERT from the module's statement cache. ``executemany`` hands a whole batch to
    the module in one call instead. Returns the same keys as ``_native.sqlite_inserts``."""
    import sqlite3

    target = check_arguments(path, rows, batch_size, row_size, synchronous, journal_mode, content)
    need = rows * (row_size + 64) + 2 * batch_size * (row_size + 64) + (16 << 20)
    free = int(_native.free_bytes(str(target.parent)))
    if need + (256 << 20) > free:
        raise ValueError(
            f"rows * row_size is too large for the scratch space: it needs {need} bytes and "
            f"{target.parent} has {free} bytes free (256 MiB are always left free)"
        )
    batches = rows // batch_size
    latencies = np.zeros(batches, dtype=np.uint64)
    repeat = content == "x"
    name = "x" * row_size
    pool = "" if repeat else _pool(row_size, seed)
    done = False
    con = sqlite3.connect(str(target), isolation_level=None)
    try:
        mode = con.execute(f"PRAGMA journal_mode = {journal_mode}").fetchone()[0]
        if mode != journal_mode:
            raise sqlite3.OperationalError(f"journal_mode {journal_mode!r} was not accepted here: SQLite kept {mode!r}")
        con.execute(f"PRAGMA synchronous = {synchronous}")
        reported_sync = int(con.execute("PRAGMA synchronous").fetchone()[0])
        con.execute(SCHEMA_SQL)
        cur = con.cursor()
        execute = cur.execute
        now = time.monotonic_ns
        row_id = 0
        cpu_start = time.thread_time_ns()
        start = now()
        for b in range(batches):
            t0 = now()
            execute("BEGIN")
            if executemany:
                first = row_id
                row_id += batch_size
                if repeat:
                    cur.executemany(INSERT_SQL, ((i, name) for i in range(first, row_id)))
                else:
                    cur.executemany(INSERT_SQL, _random_rows(pool, first, row_id, row_size))
            elif repeat:
                for i in range(row_id, row_id + batch_size):
                    execute(INSERT_SQL, (i, name))
                row_id += batch_size
            else:
                for i in range(row_id, row_id + batch_size):
                    o = i * OFFSET_STRIDE % POOL_SLACK
                    execute(INSERT_SQL, (i, pool[o : o + row_size]))
                row_id += batch_size
            execute("COMMIT")
            latencies[b] = now() - t0
        elapsed = now() - start
        cpu = time.thread_time_ns() - cpu_start
        db_bytes = _size(target)
        wal_bytes = _size(Path(f"{target}-wal"))
        c0 = now()
        if journal_mode == "wal":
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        checkpoint = now() - c0
        checkpointed = _size(target)
        done = True
    finally:
        con.close()
        if not done:
            remove_database(target)
    return {
        "transaction_ns": latencies,
        "elapsed_ns": elapsed,
        "cpu_ns": cpu,
        "rows": row_id,
        "transactions": batches,
        "db_bytes": db_bytes,
        "wal_bytes": wal_bytes,
        "checkpointed_bytes": checkpointed,
        "checkpoint_ns": checkpoint,
        "journal_mode": mode,
        "synchronous": reported_sync,
    }


def _random_rows(pool: str, first: int, end: int, row_size: int):
    for i in range(first, end):
        o = i * OFFSET_STRIDE % POOL_SLACK
        yield i, pool[o : o + row_size]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def python_verify(
    path: str | os.PathLike[str], rows: int, row_size: int, *, content: str = "x", seed: int = 1
) -> dict[str, Any]:
    """Read the table back through Python's sqlite3 and compare every row, like
    ``_native.sqlite_verify`` (an independent reader for the C++ loop's files)."""
    import sqlite3

    target = Path(path)
    if not target.is_file():
        raise ValueError(f"path: database {str(target)!r} does not exist")
    con = sqlite3.connect(f"{target.resolve().as_uri()}?mode=rw", uri=True)  # never creates a file
    try:
        integrity = con.execute("PRAGMA quick_check").fetchone()[0]
        count = matching = 0
        first_bad = -1
        expected_id = 0
        for row_id, name in con.execute("SELECT id, name FROM t ORDER BY id"):
            ok = row_id == expected_id and row_id < rows and name == row_text(row_size, row_id, content, seed)
            matching += ok
            if not ok and first_bad < 0:
                first_bad = row_id
            count += 1
            expected_id = row_id + 1
    finally:
        con.close()
    return {"rows": count, "matching": matching, "first_bad_id": first_bad, "integrity": integrity}


def remove_database(path: str | os.PathLike[str], scratch: Scratch | None = None) -> None:
    """Delete a database and its -wal, -shm and -journal files."""
    for suffix in SIDE_FILES:
        side = Path(f"{path}{suffix}")
        if scratch is not None:
            scratch.remove(side)
        else:
            side.unlink(missing_ok=True)


# --------------------------------------------------------------------- the benchmark


def inserts(
    client: str, path: Path, rows: int, batch_size: int, row_size: int, synchronous: str, **options: Any
) -> dict[str, Any]:
    """One run of the insert loop through `client` (Unsupported when it cannot run here,
    e.g. a filesystem where SQLite cannot use WAL)."""
    if client in (C_API, C_API_REPREPARE):
        reason = c_api_unsupported()
        if reason:
            raise Unsupported(reason)
        try:
            return _native.sqlite_inserts(
                str(path),
                rows,
                batch_size,
                row_size,
                synchronous=synchronous,
                prepare_per_batch=client == C_API_REPREPARE,
                **options,
            )
        except _native.SqliteError as why:
            _unsupported_journal(why)
            raise
    if client in (PYTHON, PYTHON_EXECUTEMANY):
        reason = python_unsupported()
        if reason:
            raise Unsupported(reason)
        import sqlite3

        try:
            return python_inserts(
                path,
                rows,
                batch_size,
                row_size,
                synchronous=synchronous,
                executemany=client == PYTHON_EXECUTEMANY,
                **options,
            )
        except sqlite3.OperationalError as why:
            _unsupported_journal(why)
            raise
    raise ValueError(f"client must be one of {', '.join(ALL_CLIENTS)}; got {client!r}")


def _unsupported_journal(why: Exception) -> None:
    if "was not accepted here" in str(why):
        raise Unsupported(str(why)) from why


def measure_inserts(case: Case, scratch: Scratch) -> Outcome:
    """One repetition: ``client``, ``synchronous``, ``batch_size``, ``row_size``, ``rows``."""
    path = scratch.file("sqlite").with_suffix(".db")
    try:
        r = inserts(case["client"], path, case["rows"], case["batch_size"], case["row_size"], case["synchronous"])
    finally:
        remove_database(path, scratch)
    if r["rows"] != case["rows"]:
        raise RuntimeError(f"{case['client']} inserted {r['rows']} rows, {case['rows']} were asked for")
    seconds = r["elapsed_ns"] / 1e9
    metrics = latency_metrics(np.asarray(r["transaction_ns"]), r["elapsed_ns"], per="transaction")
    metrics["rows_per_s"] = (r["rows"] / seconds, "rows/s")
    metrics["us_per_row"] = (seconds * 1e6 / r["rows"], "us")
    metrics["elapsed"] = (seconds, "s")
    metrics["cpu_us_per_row"] = (r["cpu_ns"] / 1e3 / r["rows"], "us")
    metrics["db_plus_wal_bytes"] = (float(r["db_bytes"] + r["wal_bytes"]), "bytes")
    metrics["file_size"] = (float(r["checkpointed_bytes"]), "bytes")
    metrics["checkpoint"] = (r["checkpoint_ns"] / 1e3, "us")
    return Outcome(metrics, samples=np.asarray(r["transaction_ns"]))


def insert_cases(profile: Profile) -> list[dict[str, Any]]:
    """Both clients × synchronous NORMAL, OFF, FULL × batch 1 and 1000 with 1000-byte rows,
    and 4 KB rows through the C API (seed 003's "rows of 4 KB")."""
    plan = profile.sqlite
    rows = dict(zip(plan.batch_sizes, plan.rows))
    full_rows = dict(zip(plan.batch_sizes, plan.full_sync_rows))
    cases = []
    for batch in plan.batch_sizes:
        for sync in SYNCHRONOUS:
            for client in CLIENTS:
                n = full_rows[batch] if sync == "full" else rows[batch]
                cases.append(
                    {"client": client, "synchronous": sync, "batch_size": batch, "row_size": plan.row_size, "rows": n}
                )
    for batch in plan.batch_sizes:
        # Same bytes per run as the 1000-byte rows, so the 4 KB runs take no longer.
        n = max(batch, rows[batch] * plan.row_size // plan.big_row_size // batch * batch)
        cases.append(
            {"client": C_API, "synchronous": "normal", "batch_size": batch, "row_size": plan.big_row_size, "rows": n}
        )
    return cases


def memory_unsupported(directory: Path = MEMORY_BASE) -> str | None:
    """Why the client-cost experiment cannot run in `directory` (it needs a tmpfs)."""
    if not directory.is_dir():
        return f"{directory} does not exist here (the client-cost runs need a tmpfs)"
    mounts = Path("/proc/mounts").read_text().splitlines() if Path("/proc/mounts").is_file() else []
    types = {fields[1]: fields[2] for fields in (line.split() for line in mounts) if len(fields) > 2}
    if types.get(str(directory)) != "tmpfs":
        return f"{directory} is not a tmpfs here (the client-cost runs need memory, not a disk)"
    return None


def client_cost_cases(profile: Profile) -> list[dict[str, Any]]:
    """Every client variant at batch 1 and 1000, synchronous NORMAL, in memory."""
    plan = profile.sqlite
    return [
        {"client": client, "synchronous": "normal", "batch_size": batch, "row_size": plan.row_size, "rows": rows}
        for batch, rows in zip(plan.batch_sizes, plan.client_rows)
        for client in ALL_CLIENTS
        if not (client == PYTHON_EXECUTEMANY and batch == 1)  # a batch of one is plain execute
    ]


def measure_client_cost(case: Case, scratch: Scratch) -> Outcome:
    """One repetition of a client-cost case; Unsupported unless the scratch dir is in memory."""
    reason = memory_unsupported(scratch.base)
    if reason:
        raise Unsupported(reason)
    return measure_inserts(case, scratch)


def measure_fsync_baseline(case: Case, scratch: Scratch) -> Outcome:
    """Seed 003's "just fsync": append a 4 KiB record and fsync it, one at a time."""
    path = scratch.file("plain-fsync")
    try:
        r = _native.durable_writes(str(path), case["record_size"], case["writes"], sync="fsync")
    finally:
        scratch.remove(path)
    metrics = latency_metrics(r["latency_ns"], r["elapsed_ns"], per="write")
    return Outcome(metrics, samples=r["latency_ns"])


# ------------------------------------------------------------------------ the chapter


def _bytes_needed(cases: list[dict[str, Any]]) -> int:
    """The largest database any case builds (each is removed before the next)."""
    return max(c["rows"] * (c["row_size"] + 64) + 2 * c["batch_size"] * (c["row_size"] + 64) for c in cases) + (
        16 << 20
    )


def measure(profile: Profile, out: Writer) -> None:
    """The SQLite experiments in one scratch dir, each handed to `out`, with the SQLite
    version each client ran against."""
    from . import crosscheck  # it builds on this module's loops

    plan = profile.sqlite
    cases = insert_cases(profile)
    checks = crosscheck.cli_cases(profile)
    clients = client_cost_cases(profile)
    baseline = [{"method": "4 KiB write + fsync", "record_size": 4096, "writes": plan.fsync_baseline_writes}]
    with Scratch(need_bytes=_bytes_needed(cases + checks)) as scratch:
        out.record_facts(scratch.path)
        out.details["sqlite_versions"] = versions()
        out.add(run(INSERTS, cases, measure_inserts, repetitions=profile.repetitions, scratch=scratch))
        out.add(run(FSYNC_BASELINE, baseline, measure_fsync_baseline, repetitions=profile.repetitions, scratch=scratch))
        out.add(crosscheck.versus_shell(profile, scratch, measure_inserts))
        out.add(measure_client_costs(clients, profile.repetitions, scratch))
        out.add(run(ROWS_LAND, [{"client": c} for c in CLIENTS], measure_rows_land, repetitions=1, scratch=scratch))


def measure_client_costs(cases: list[dict[str, Any]], repetitions: int, fallback: Scratch) -> Run:
    """The client-cost cases in a scratch dir of their own in /dev/shm (removed at the
    end, like every scratch dir); every case says why not when there is no such tmpfs
    or it lacks room."""
    reason = memory_unsupported()
    memory = None
    if reason is None:
        try:
            memory = Scratch(MEMORY_BASE, need_bytes=_bytes_needed(cases))
        except ValueError as why:
            reason = str(why)
    if memory is None:

        def unsupported(case: Case, scratch: Scratch) -> Outcome:
            raise Unsupported(reason)

        return run(CLIENT_COST, cases, unsupported, repetitions=1, scratch=fallback)
    with memory:
        return run(CLIENT_COST, cases, measure_client_cost, repetitions=repetitions, scratch=memory)


def measure_rows_land(
    case: Case, scratch: Scratch, rows: int = 2000, batch_size: int = 100, row_size: int = 1000
) -> Outcome:
    """Write `rows` distinct rows through one client, read them back through the other
    client's binding (the same one when the other cannot run), and count what came back."""
    client = case["client"]
    path = scratch.file("sqlite-check").with_suffix(".db")
    try:
        inserts(client, path, rows, batch_size, row_size, "normal", content="random", seed=7)
        if client == C_API or c_api_unsupported() is not None:
            check, reader = python_verify(path, rows, row_size, content="random", seed=7), PYTHON
        else:
            check, reader = _native.sqlite_verify(str(path), rows, row_size, content="random", seed=7), C_API
    finally:
        remove_database(path, scratch)
    return Outcome(
        {
            "rows_asked": (float(rows), "rows"),
            "rows_found": (float(check["rows"]), "rows"),
            "exact_bytes": (float(check["matching"]), "rows"),
            "quick_check_ok": (float(check["integrity"] == "ok"), "bool"),
            f"read_back_with_{reader}": (1.0, "bool"),
        }
    )


# every public function above refuses bad arguments with a clear exception
checked(globals())
