"""howfast: measure how fast this computer is.

The C++ loops live in ``howfast._native``; this package chooses sizes (``profiles``),
keeps benchmark files inside a scratch directory (``scratch``), runs cases with
repetitions (``bench``), records machine facts (``machine``), stores tidy results
(``results``), loads the source articles' figures (``reference``) and draws charts
(``charts``) and tables (``tables``). Chapter modules (``fsync``) hold each chapter's
experiments.
"""

from . import _native
from .profiles import Profile, current_profile

__all__ = ["Profile", "current_profile", "_native"]
__version__ = "0.1.0"
