"""The scratch directory: the only place benchmarks write.

``Scratch()`` makes a private directory inside ``$HOWFAST_SCRATCH`` (else the system
temp dir), checks free space, and removes everything it holds when the ``with`` block
ends: normally, on an exception, on Ctrl-C (KeyboardInterrupt), on SIGTERM and at
interpreter exit. A process killed outright (SIGKILL, a power cut) cannot clean up, so
each directory names its owner (``.owner``: pid and start time), and the next
``Scratch()`` in the same place removes the directories whose owner is gone, saying so
with their size (``reclaim``).
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import signal
import sys
import tempfile
import threading
import weakref
from pathlib import Path

from . import _native
from .checks import checked

#: The file naming a directory's owner: "pid start-time".
OWNER = ".owner"

#: Always leave this much free on the scratch filesystem.
RESERVE_BYTES = 256 * 1024 * 1024

_live: "weakref.WeakSet[Scratch]" = weakref.WeakSet()


def scratch_base() -> Path:
    """``$HOWFAST_SCRATCH`` if set (it must exist and be writable; a relative path is
    taken from the book's root), else the system temp dir."""
    from .paths import from_setting

    env = os.environ.get("HOWFAST_SCRATCH")
    base = from_setting(env) if env else Path(tempfile.gettempdir())
    source = "HOWFAST_SCRATCH" if env else "the system temp dir"
    if not base.is_dir():
        raise ValueError(
            f"{source} is {str(base)!r}, which does not exist or is not a directory: "
            "create it, or set HOWFAST_SCRATCH to a directory on the disk to measure"
        )
    try:  # tried, not asked: access() says yes to root in /proc, where no file can be made
        fd, probe = tempfile.mkstemp(prefix=".howfast-probe-", dir=base)
        os.close(fd)
        os.unlink(probe)
    except OSError as error:
        raise ValueError(
            f"{source} is {str(base)!r}, which this user cannot write to ({error.strerror}): "
            "set HOWFAST_SCRATCH to a writable directory on the disk to measure"
        ) from None
    return base


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (tells a pid from its reuse)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]


def owner_stamp() -> str:
    return f"{os.getpid()} {_start_time(os.getpid())}"


def _owner_gone(directory: Path) -> bool:
    try:
        pid, start = (directory / OWNER).read_text().split()
    except (OSError, ValueError):
        return False  # not ours to judge
    return _start_time(int(pid)) != start


def _size(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file() and not p.is_symlink())


def reclaim(base: Path, *, report=None) -> list[tuple[Path, int]]:
    """Remove the ``howfast-*`` directories in `base` whose owning process is gone;
    return them with their sizes (and tell `report`, by default stderr)."""
    removed = []
    for directory in sorted(base.glob("howfast-*")):
        if directory.is_dir() and not directory.is_symlink() and _owner_gone(directory):
            size = _size(directory)
            shutil.rmtree(directory, ignore_errors=True)
            removed.append((directory, size))
    for directory, size in removed:
        message = (
            f"howfast: removed {directory}, {size:,} bytes left behind by a run that was killed "
            "before it could clean up"
        )
        (report or (lambda text: print(text, file=sys.stderr)))(message)
    return removed


class Scratch:
    """A private, self-removing directory for benchmark files."""

    def __init__(self, base: str | os.PathLike[str] | None = None, *, need_bytes: int = 0) -> None:
        root = Path(base) if base is not None else scratch_base()
        if not root.is_dir():
            raise ValueError(f"scratch directory {str(root)!r} does not exist or is not a directory")
        if not isinstance(need_bytes, int) or need_bytes < 0:
            raise ValueError(f"need_bytes must be a whole number of bytes, not negative; got {need_bytes!r}")
        self.base = root
        reclaim(root)
        try:
            self.path = Path(tempfile.mkdtemp(prefix="howfast-", dir=root))
        except OSError as error:
            raise ValueError(
                f"cannot make a scratch directory in {str(root)!r} ({error.strerror}): set "
                "HOWFAST_SCRATCH to a writable directory on the disk to measure"
            ) from None
        self._names = itertools.count()
        _live.add(self)
        _install_sigterm_handler()
        try:
            try:
                (self.path / OWNER).write_text(owner_stamp())
            except OSError as error:  # a full or failing disk: one line naming the setting
                raise ValueError(
                    f"cannot write in the scratch directory {str(root)!r} ({error.strerror}): free some space or "
                    "set HOWFAST_SCRATCH to another directory on the disk to measure"
                ) from None
            self.require_space(need_bytes)
        except BaseException:
            self.cleanup()
            raise

    def free_bytes(self) -> int:
        return int(_native.free_bytes(str(self.path)))

    def require_space(self, need_bytes: int) -> None:
        """ValueError unless `need_bytes` fit with the reserve left free."""
        free = self.free_bytes()
        if need_bytes + RESERVE_BYTES > free:
            raise ValueError(
                f"not enough free space in {self.base}: a run needs {need_bytes} bytes plus "
                f"{RESERVE_BYTES} in reserve, {free} are free (set HOWFAST_SCRATCH to a roomier directory)"
            )

    def file(self, stem: str) -> Path:
        """A fresh path inside the scratch directory (the file does not exist yet)."""
        return self.path / f"{stem}-{next(self._names)}.dat"

    def remove(self, path: Path) -> None:
        """Delete one file of this scratch directory (missing is fine)."""
        if self.path not in path.parents:
            raise ValueError(f"{path} is not inside the scratch directory {self.path}")
        path.unlink(missing_ok=True)

    def cleanup(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        _live.discard(self)

    def __enter__(self) -> "Scratch":
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()

    def __repr__(self) -> str:
        return f"Scratch({str(self.path)!r})"


def _cleanup_all() -> None:
    for scratch in list(_live):
        scratch.cleanup()


atexit.register(_cleanup_all)

_sigterm_installed = False


def _install_sigterm_handler() -> None:
    """Turn SIGTERM into SystemExit so ``with`` blocks and atexit clean up.

    Only when nobody else handles SIGTERM and only from the main thread."""
    global _sigterm_installed
    if _sigterm_installed or threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:

        def _exit(signum: int, frame: object) -> None:
            raise SystemExit(128 + signum)

        signal.signal(signal.SIGTERM, _exit)
    _sigterm_installed = True


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
