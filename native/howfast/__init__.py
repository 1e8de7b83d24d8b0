"""howfast: measure how fast this computer is.

The C++ loops live in ``howfast._native``; this package chooses sizes (``profiles``),
keeps benchmark files inside a scratch directory (``scratch``), runs cases with
repetitions (``bench``), records machine facts (``machine``), stores tidy results
(``results``), loads the source articles' figures (``reference``) and draws charts
(``charts``) and tables (``tables``). Chapter modules (``fsync``) hold each chapter's
experiments.
"""

import os

# numpy's OpenBLAS starts worker threads that can spin on a core for a while after the
# first import; on a 2-core machine that steals a core from the benchmark loops.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from . import _native  # noqa: E402
from .profiles import Profile, current_profile  # noqa: E402

__all__ = ["Profile", "current_profile", "_native"]
__version__ = "0.1.0"
