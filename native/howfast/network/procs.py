"""Server processes the network experiments own: started so that they never outlive us.

``spawn`` starts a program in its own process group (a Ctrl-C typed in the terminal
reaches us, and we stop it in order) and asks the kernel to send it ``die_signal`` the
moment the process that started it dies, even by SIGKILL (``PR_SET_PDEATHSIG``, kept
across exec). ``stop`` ends the group: SIGTERM, then SIGKILL if it lingers. Every server
of the chapter (Redis, nginx, memcached, the Go server) goes through these two.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
from pathlib import Path

from ..checks import checked

PR_SET_PDEATHSIG = 1


def _die_with(parent: int, signum: int):
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork, not in the child

    def arm() -> None:  # runs in the child between fork and exec
        prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the request took effect
            os._exit(1)

    return arm


def spawn(
    command: list[str],
    *,
    stdout: object = subprocess.DEVNULL,
    stderr: object = subprocess.DEVNULL,
    cwd: str | os.PathLike | None = None,
    env: dict[str, str] | None = None,
    die_signal: int = signal.SIGKILL,
) -> subprocess.Popen:
    """Start `command` in its own process group, to receive `die_signal` when we die."""
    if not isinstance(command, list) or not command or not all(isinstance(w, (str, os.PathLike)) for w in command):
        raise TypeError(f"command must be a non-empty list of words, got {command!r:.60}")
    if not Path(command[0]).is_file() or not os.access(command[0], os.X_OK):
        raise OSError(f"command[0] is not an executable file: {command[0]}")
    if not isinstance(die_signal, int) or isinstance(die_signal, bool) or die_signal not in set(signal.Signals):
        raise ValueError(f"die_signal must be a signal number, got {die_signal!r:.40}")
    return subprocess.Popen(
        [str(w) for w in command],
        stdout=stdout,
        stderr=stderr,
        cwd=cwd,
        env=env,
        start_new_session=True,
        preexec_fn=_die_with(os.getpid(), int(die_signal)),
    )


def stop(process: subprocess.Popen | None, timeout: float = 5.0) -> None:
    """SIGTERM to the process group of `process` (our own, from `spawn`), SIGKILL if it lingers."""
    if process is None:
        return
    if not isinstance(process, subprocess.Popen):
        raise TypeError(f"process must be a subprocess.Popen, got {type(process).__name__}")
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= 600:
        raise ValueError(f"timeout must be a number of seconds in (0, 600], got {timeout!r:.40}")
    if process.poll() is None:
        _signal_group(process, signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _signal_group(process, signal.SIGKILL)
            process.wait(timeout=timeout)


def _signal_group(process: subprocess.Popen, signum: int) -> None:
    try:
        os.killpg(process.pid, signum)  # spawn made the group: its id is the leader's pid
    except (ProcessLookupError, PermissionError):
        pass


checked(globals())
