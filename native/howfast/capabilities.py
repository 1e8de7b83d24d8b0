"""What this machine can do, each answer with its reason.

Set ``HOWFAST_DISABLE_IO_URING=1`` or ``HOWFAST_DISABLE_DIRECT_IO=1`` to see how the
book reports a machine without them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from . import _native


@dataclass(frozen=True)
class Capability:
    name: str
    supported: bool
    reason: str
    detail: int = 0  # O_DIRECT: the alignment in bytes


#: The switches that make the book behave as on a machine without a capability.
SWITCHES = {
    "HOWFAST_DISABLE_IO_URING": "no-io_uring",
    "HOWFAST_DISABLE_DIRECT_IO": "no-direct_io",
    "HOWFAST_DISABLE_SQLITE": "no-sqlite",
    "HOWFAST_DISABLE_ROCKSDB": "no-rocksdb",
}


def _disabled(variable: str) -> bool:
    return os.environ.get(variable, "").strip() not in ("", "0")


def switched_off() -> list[str]:
    """The short names of the switches set now ('no-io_uring', ...), in a fixed order."""
    return [name for variable, name in SWITCHES.items() if _disabled(variable)]


def io_uring() -> Capability:
    if _disabled("HOWFAST_DISABLE_IO_URING"):
        return Capability("io_uring", False, "disabled by HOWFAST_DISABLE_IO_URING")
    probe = _native.probe_io_uring()
    return Capability("io_uring", bool(probe["supported"]), str(probe["reason"]))


def direct_io(directory: str | os.PathLike[str]) -> Capability:
    if _disabled("HOWFAST_DISABLE_DIRECT_IO"):
        return Capability("O_DIRECT", False, "disabled by HOWFAST_DISABLE_DIRECT_IO")
    probe = _native.probe_direct_io(str(Path(directory)))
    reason = probe["reason"] or f"O_DIRECT writes of {probe['alignment']} bytes and multiples work here"
    return Capability("O_DIRECT", bool(probe["supported"]), reason, int(probe["alignment"]))
