"""The command line as a user meets it: a bad setting is one clear line and a non-zero
status; one Ctrl-C stops a run of several chapters; a killed launcher takes its kernel
and its files with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, command_env, howfast_command


def _howfast(base: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return howfast_command(base, *args, timeout=300, **extra)


@pytest.mark.parametrize(
    ("args", "extra", "said"),
    [
        (["measure", "fsync"], {"HOWFAST_PROFILE": "bogus"}, "unknown profile 'bogus' (HOWFAST_PROFILE)"),
        (["execute", "chapters/fsync.qmd"], {"HOWFAST_PROFILE": "bogus"}, "unknown profile 'bogus'"),
        (["measure", "fsync"], {"HOWFAST_SCRATCH": "/nonexistent/place"}, "HOWFAST_SCRATCH is '/nonexistent/place'"),
        (["execute"], {"HOWFAST_SCRATCH": "/nonexistent/place"}, "HOWFAST_SCRATCH is '/nonexistent/place'"),
        (["measure", "nowhere"], {}, "unknown chapter or subject 'nowhere'"),
        (["measure", "fsync"], {"HOWFAST_RESULTS": "/proc/results"}, "set HOWFAST_RESULTS to a writable"),
        # writable by access() when root, yet no file can be made there: tried, not asked
        (["measure", "fsync"], {"HOWFAST_SCRATCH": "/proc"}, "HOWFAST_SCRATCH is '/proc'"),
        (["measure", "fsync"], {"HOWFAST_PROFILE": ""}, "HOWFAST_PROFILE is set but empty"),
        (["execute", "--timeout", "-5", "chapters/fsync.qmd"], {}, "--timeout must be a positive"),
        (["execute", "--timeout", "0"], {}, "--timeout must be a positive"),
        (["notebooks", "--timeout", "-5"], {}, "--timeout must be a positive"),
    ],
)
def test_a_bad_setting_is_one_clear_line(tmp_path: Path, args: list[str], extra: dict, said: str) -> None:
    (tmp_path / "scratch").mkdir(exist_ok=True)
    done = _howfast(tmp_path, *args, **extra)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("howfast: ") and said in lines[0], done.stderr
    assert "\x1b[" not in done.stderr and "Traceback" not in done.stderr
    assert not list(tmp_path.rglob("*.lock")), "refused before anything was written"
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").rglob("*.lock"))


def _one_line(done: subprocess.CompletedProcess, said: str) -> None:
    """After the run's opening line and its progress bar, one line saying what went wrong;
    no traceback."""
    assert done.returncode == 2, done.stderr
    # the pre-flight check's findings and the progress bar come first; the error is one line
    lines = [
        line
        for line in done.stderr.strip().splitlines()
        if not line.startswith(("measuring ", "subjects ", "doctor: "))
    ]
    assert len(lines) == 1 and lines[0].startswith("howfast: ") and said in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_a_second_measure_of_the_same_subject_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first holds the set's lock (here this test, as a Writer); the second says who."""
    from howfast import store
    from howfast.profiles import PROFILES

    for name, value in command_env(tmp_path).items():
        if name.startswith("HOWFAST"):
            monkeypatch.setenv(name, value)
    first = store.Writer("fsync", PROFILES["smoke"])
    try:
        _one_line(_howfast(tmp_path, "measure", "fsync"), f"pid {os.getpid()}")
    finally:
        first.discard()


FULL_DISK = """
import errno, os, pathlib, sys
real = pathlib.Path.write_text
def full(self, *args, **kwargs):
    if self.name == ".owner":
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
    return real(self, *args, **kwargs)
pathlib.Path.write_text = full
from howfast.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_full_scratch_disk_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, "measure", "fsync"],
        cwd=ROOT,
        env=command_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    _one_line(done, "No space left on device")
    assert "HOWFAST_SCRATCH" in done.stderr
    assert list((tmp_path / "scratch").iterdir()) == []


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _wait_for_kernel(launcher: subprocess.Popen, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for child in _children(launcher.pid):
            if "ipykernel" in Path(f"/proc/{child}/cmdline").read_text(errors="replace"):
                return child
        assert launcher.poll() is None, launcher.communicate()
        time.sleep(0.1)
    raise AssertionError("no kernel started")


def _gone(pid: int, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]:
            return True
        time.sleep(0.1)
    return False


def test_one_ctrl_c_stops_a_run_of_several_chapters(tmp_path: Path) -> None:
    """As a terminal does, Ctrl-C goes to the whole process group: launcher and kernel."""
    (tmp_path / "scratch").mkdir(exist_ok=True)
    launcher = subprocess.Popen(
        [sys.executable, "-m", "howfast", "execute", "chapters/fsync.qmd", "chapters/memtables.qmd"],
        cwd=ROOT,
        env=command_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    kernel = _wait_for_kernel(launcher)
    time.sleep(2)  # measuring fsync (no results stored) by now
    os.killpg(launcher.pid, signal.SIGINT)
    out, err = launcher.communicate(timeout=120)
    assert launcher.returncode == 128 + signal.SIGINT, err
    assert "interrupted during chapters/fsync.qmd (0 of 2 chapters done)" in err
    assert "memtables" not in out and "FAIL" not in err
    assert "Traceback" not in err and "ZMQError" not in err, err
    assert _gone(kernel)
    assert list((tmp_path / "scratch").iterdir()) == []


def test_a_killed_launcher_takes_its_kernel_and_files_with_it(tmp_path: Path) -> None:
    (tmp_path / "scratch").mkdir(exist_ok=True)
    launcher = subprocess.Popen(
        [sys.executable, "-m", "howfast", "execute", "chapters/memtables.qmd"],
        cwd=ROOT,
        env=command_env(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    kernel = _wait_for_kernel(launcher)
    deadline = time.monotonic() + 60
    while not any((tmp_path / "scratch").glob("howfast-*")) and time.monotonic() < deadline:
        time.sleep(0.1)  # the kernel is measuring: its scratch dir exists
    assert any((tmp_path / "scratch").glob("howfast-*"))
    launcher.kill()
    launcher.wait(timeout=30)
    assert _gone(kernel), "the kernel outlived its launcher"
    deadline = time.monotonic() + 90  # a native loop in flight finishes before the kernel sees the signal
    while list((tmp_path / "scratch").iterdir()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list((tmp_path / "scratch").iterdir()) == [], "the kernel cleaned up on its way out"


def test_doctor_prints_one_finding_a_line(tmp_path: Path) -> None:
    done = _howfast(tmp_path, "doctor")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(line.split()[0] in ("ok", "note", "warn") for line in lines)
    assert {line.split()[1] for line in lines} >= {"load:", "processes:"}


def test_repeatability_of_two_stored_machines(tmp_path: Path) -> None:
    """Two machines' stored sets compared: the table, the sentence, a status 0."""
    first = _howfast(tmp_path, "measure", "sqlite", HOWFAST_MACHINE="one")
    second = _howfast(tmp_path, "measure", "sqlite", HOWFAST_MACHINE="two")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    done = _howfast(tmp_path, "repeatability", "sqlite", "--every", "--sets", "one", "two")
    assert done.returncode == 0, done.stderr
    assert "the second run's median fell inside the first run's interval" in done.stdout
