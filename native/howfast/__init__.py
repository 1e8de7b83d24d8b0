"""howfast: measure how fast this computer is.

Each subject of the book is a subpackage laid out the same way (``fsync``, ``storage``,
``sqlite``, ``memtable``, ``rocksdb``): ``plan`` (its sizes), ``experiments`` (its cases
and ``measure``), ``crosscheck`` (the standard tool beside ours) and ``report`` (what a
reader sees), over C++ loops in ``native/src/<subject>/`` exposed as ``howfast._native``.

Shared pieces: ``profiles`` picks each subject's plan, ``bench`` runs cases with
repetitions, ``scratch`` keeps benchmark files in a self-removing directory, ``machine``
records machine facts, ``store`` keeps results sets (the seam between measuring and the
book), ``book`` maps chapters to subjects, ``progress`` reports a run, ``reference``
loads the source articles' figures, ``charts``, ``tables`` and ``fmt`` draw and format.
"""

import os

# numpy's OpenBLAS starts worker threads that can spin on a core for a while after the
# first import; on a 2-core machine that steals a core from the benchmark loops.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from . import _native  # noqa: E402
from .profiles import Profile, current_profile  # noqa: E402

__all__ = ["Profile", "current_profile", "_native"]
__version__ = "0.2.0"
