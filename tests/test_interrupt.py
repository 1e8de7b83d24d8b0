"""Ctrl-C and SIGTERM in the middle of a native loop stop it and leave no files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = """
import sys
from howfast import _native
from howfast.scratch import Scratch
with Scratch() as s:
    print(s.path, flush=True)
    _native.durable_writes(str(s.file("long")), 4096, 2_000_000, sync="fsync")
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_stops_the_loop_and_cleans_up(scratch_dir: Path, signum: int) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy()
    )
    made = Path(child.stdout.readline().strip())
    assert made.parent == scratch_dir and made.is_dir()
    time.sleep(0.5)  # inside the loop by now
    assert child.poll() is None, child.stderr.read()
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    if signum == signal.SIGINT:
        assert child.returncode != 0 and "KeyboardInterrupt" in err
    else:  # SIGTERM becomes SystemExit(128 + 15): cleanup runs, and the status says why
        assert child.returncode == 128 + signal.SIGTERM and "Traceback" not in err
    assert not made.exists()
    assert list(scratch_dir.iterdir()) == []
