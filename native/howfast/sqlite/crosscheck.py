"""The SQLite subject beside the sqlite3 shell: the same database (synchronous NORMAL,
WAL, sqlite-bench's rows) built by the shell, alternating with our C API loop, so that
the loop is shown to add little of its own to SQLite's time.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import fmt
from ..bench import Case, Outcome, Run, Unsupported, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from .experiments import C_API, SCHEMA_SQL, _disabled, check_sizes, remove_database

NAME = "cli_check"


def cli_script(rows: int, batch_size: int, row_size: int, synchronous: str) -> str:
    """The same database built by the sqlite3 shell. One row per transaction: one
    ``INSERT ... VALUES`` per row in autocommit mode, which the shell compiles anew each
    time. Bigger batches: ``BEGIN``, one ``INSERT ... SELECT`` whose rows SQLite makes
    itself with generate_series (no client work per row), ``COMMIT``. The text is
    made by ``printf('%.*c', row_size, 'x')``: sqlite-bench's row."""
    check_sizes(rows, batch_size, row_size, synchronous)
    lines = ["PRAGMA journal_mode = wal;", f"PRAGMA synchronous = {synchronous};", SCHEMA_SQL + ";"]
    name = f"printf('%.*c', {row_size}, 'x')"
    if batch_size == 1:
        lines.extend(f"INSERT INTO t (id, name) VALUES ({i}, {name});" for i in range(rows))
    else:
        for first in range(0, rows, batch_size):
            lines.append(
                f"BEGIN; INSERT INTO t (id, name) SELECT value, {name} FROM generate_series({first}, "
                f"{first + batch_size - 1}); COMMIT;"
            )
    return "\n".join(lines) + "\n"


def _run_cli(exe: str, script: Path, db: Path) -> int:
    with script.open("rb") as stdin:
        t0 = time.monotonic_ns()
        done = subprocess.run(
            [exe, "-batch", "-bail", str(db)], stdin=stdin, capture_output=True, check=False, timeout=600
        )
        elapsed = time.monotonic_ns() - t0
    if done.returncode != 0:
        raise RuntimeError(f"sqlite3 shell failed ({done.returncode}): {done.stderr.decode(errors='replace').strip()}")
    return elapsed


def measure_cli(case: Case, scratch: Scratch) -> Outcome:
    """One repetition of the shell cross-check: the shell's wall time, minus a run of
    the same set-up without the inserts (start-up, pragmas, CREATE TABLE)."""
    if _disabled():
        raise Unsupported("disabled by HOWFAST_DISABLE_SQLITE")
    exe = shutil.which("sqlite3")
    if exe is None:
        raise Unsupported("the sqlite3 shell is not installed (apt-get install sqlite3)")
    rows, batch, row_size, sync = case["rows"], case["batch_size"], case["row_size"], case["synchronous"]
    text = cli_script(rows, batch, row_size, sync)
    setup = "\n".join(text.splitlines()[:3]) + "\n"
    script, setup_script = scratch.file("cli-script"), scratch.file("cli-setup")
    db, setup_db = scratch.file("cli").with_suffix(".db"), scratch.file("cli-setup").with_suffix(".db")
    try:
        script.write_text(text)
        setup_script.write_text(setup)
        start_ns = _run_cli(exe, setup_script, setup_db)
        total_ns = _run_cli(exe, script, db)
        count = subprocess.run(
            [exe, "-batch", str(db), "SELECT count(*), min(length(name)), max(length(name)) FROM t"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    finally:
        for path in (script, setup_script):
            scratch.remove(path)
        remove_database(db, scratch)
        remove_database(setup_db, scratch)
    if count != f"{rows}|{row_size}|{row_size}":
        raise RuntimeError(f"the sqlite3 shell left {count!r} (count|min length|max length), expected {rows} rows")
    inserting = total_ns - start_ns
    if inserting < start_ns:  # less than the start-up it is measured against: that is noise, not a rate
        # on a busy machine the whole run can even take less than the start-up alone did
        spent = f"{fmt.duration_us(inserting / 1e3)} of inserts" if inserting > 0 else "no time left for inserts"
        raise Unsupported(
            f"too short to time against the shell's start-up ({spent} "
            f"beside {fmt.duration_us(start_ns / 1e3)} to start): a larger profile has enough rows"
        )
    seconds = inserting / 1e9
    return Outcome({"rows_per_s": (rows / seconds, "rows/s"), "elapsed": (seconds, "s")})


def cli_cases(profile: Profile) -> list[dict[str, Any]]:
    """The shell and the C API on the same jobs (synchronous NORMAL), alternating."""
    plan = profile.sqlite
    return [
        {"tool": tool, "synchronous": "normal", "batch_size": batch, "row_size": plan.row_size, "rows": rows}
        for batch, rows in zip(plan.batch_sizes, plan.cli_rows)
        for tool in ("howfast", "sqlite3")
    ]


def versus_shell(profile: Profile, scratch: Scratch, ours: Callable[[Case, Scratch], Outcome]) -> Run:
    """The C API loop (`ours` measures one insert case) and the shell, alternating."""

    def measure(case: Case, s: Scratch) -> Outcome:
        if case["tool"] == "sqlite3":
            return measure_cli(case, s)
        return ours({**case, "client": C_API}, s)

    return run(NAME, cli_cases(profile), measure, repetitions=profile.repetitions, scratch=scratch, alternate=True)


# every public function above refuses bad arguments with a clear exception
checked(globals())
