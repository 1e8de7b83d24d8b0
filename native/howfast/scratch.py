"""The scratch directory: the only place benchmarks write.

``Scratch()`` makes a private directory inside ``$HOWFAST_SCRATCH`` (else the system
temp dir), checks free space, and removes everything it holds when the ``with`` block
ends: normally, on an exception, on Ctrl-C (KeyboardInterrupt), on SIGTERM and at
interpreter exit.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import signal
import tempfile
import threading
import weakref
from pathlib import Path

from . import _native

#: Always leave this much free on the scratch filesystem.
RESERVE_BYTES = 256 * 1024 * 1024

_live: "weakref.WeakSet[Scratch]" = weakref.WeakSet()


def scratch_base() -> Path:
    """``$HOWFAST_SCRATCH`` if set (it must exist), else the system temp dir."""
    env = os.environ.get("HOWFAST_SCRATCH")
    base = Path(env) if env else Path(tempfile.gettempdir())
    if not base.is_dir():
        source = "HOWFAST_SCRATCH" if env else "the temp dir"
        raise ValueError(f"scratch directory {str(base)!r} ({source}) does not exist or is not a directory")
    return base


class Scratch:
    """A private, self-removing directory for benchmark files."""

    def __init__(self, base: str | os.PathLike[str] | None = None, *, need_bytes: int = 0) -> None:
        root = Path(base) if base is not None else scratch_base()
        if not root.is_dir():
            raise ValueError(f"scratch directory {str(root)!r} does not exist or is not a directory")
        if need_bytes < 0:
            raise ValueError(f"need_bytes must not be negative, got {need_bytes}")
        self.base = root
        self.path = Path(tempfile.mkdtemp(prefix="howfast-", dir=root))
        self._names = itertools.count()
        _live.add(self)
        _install_sigterm_handler()
        try:
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
