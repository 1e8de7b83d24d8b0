"""howfast: measure how fast this computer is.

Each subject of the book is a subpackage laid out the same way (``fsync``, ``storage``,
``sqlite``, ``memtable``, ``rocksdb``): ``plan`` (its sizes), ``experiments`` (its cases
and ``measure``), ``crosscheck`` (the standard tool beside ours) and ``report`` (what a
reader sees), over C++ loops in ``native/src/<subject>/`` exposed as ``howfast._native``.

Shared pieces: ``profiles`` picks each subject's plan, ``bench`` runs cases with
repetitions, ``scratch`` keeps benchmark files in a self-removing directory, ``machine``
records machine facts, ``store`` keeps results sets (the seam between measuring and the
book), ``book`` maps chapters to subjects, ``progress`` reports a run, ``reference``
loads the source articles' figures, ``charts``, ``tables`` and ``fmt`` draw and format;
``noise`` records what else the machine was doing during every run, ``doctor`` checks the
machine before measuring, ``repeatability`` measures twice and compares.
"""

import os

# numpy's OpenBLAS starts worker threads that can spin on a core for a while after the
# first import; on a 2-core machine that steals a core from the benchmark loops.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _die_with_launcher() -> None:
    """In a chapter's kernel started by ``howfast execute``: ask the kernel to receive
    SIGTERM (which cleans up, see ``scratch``) when the launcher dies, even by SIGKILL."""
    parent = os.environ.get("HOWFAST_LAUNCHER_PID", "")
    if not parent.isdigit() or int(parent) != os.getppid():
        return
    import ctypes
    import signal

    PR_SET_PDEATHSIG = 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: nothing to ask for
        return
    if os.getppid() != int(parent):  # the launcher died before the request took effect
        os.kill(os.getpid(), signal.SIGTERM)


_die_with_launcher()

from . import _native  # noqa: E402
from .profiles import Profile, current_profile  # noqa: E402

__all__ = ["Profile", "current_profile", "_native"]
__version__ = "0.2.0"
