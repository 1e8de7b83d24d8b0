"""Profiles: which size of every subject a run uses, and how often it repeats.

``quick`` is for workshops and tests (each chapter in about a minute or less on two
cores); ``full`` is for publishing; ``smoke`` runs every code path in seconds for the test
suite (its numbers mean nothing). Each subject's sizes live in its own ``plan``
module (``howfast/<subject>/plan.py``); a profile picks one plan per subject. The
profile comes from ``$HOWFAST_PROFILE``, else from Quarto's ``$QUARTO_PROFILE``, else
``quick``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .codecs import plan as codecs_plan
from .cpu import plan as cpu_plan
from .fsync import plan as fsync_plan
from .hashing import plan as hashing_plan
from .memtable import plan as memtable_plan
from .network import plan as network_plan
from .rocksdb import plan as rocksdb_plan
from .sqlite import plan as sqlite_plan
from .storage import plan as storage_plan


@dataclass(frozen=True)
class Profile:
    name: str
    repetitions: int
    fsync: fsync_plan.Plan
    storage: storage_plan.Plan
    sqlite: sqlite_plan.Plan
    memtable: memtable_plan.Plan
    rocksdb: rocksdb_plan.Plan
    network: network_plan.Plan
    hashing: hashing_plan.Plan
    cpu: cpu_plan.Plan
    codecs: codecs_plan.Plan
    cell_timeout: int = 900  # seconds one chapter cell may run under `python -m howfast execute`
    #: the stopping rule (``bench.run``): a case repeats until the interval of its median
    #: (``stats.median_interval``) is within ±`target` of it (None: a fixed count, the
    #: repetitions), at most `max_runs` times, and the rounds added to an experiment take
    #: at most `extra_time` times what its first `repetitions` rounds took (its time cap)
    target: float | None = None
    max_runs: int = 0
    extra_time: float = 0.0
    #: runs of every case made and thrown away before the first counted round
    warmups: int = 0


PROFILES: dict[str, Profile] = {
    "quick": Profile(
        name="quick",
        repetitions=3,
        fsync=fsync_plan.QUICK,
        storage=storage_plan.QUICK,
        sqlite=sqlite_plan.QUICK,
        memtable=memtable_plan.QUICK,
        rocksdb=rocksdb_plan.QUICK,
        network=network_plan.QUICK,
        hashing=hashing_plan.QUICK,
        cpu=cpu_plan.QUICK,
        codecs=codecs_plan.QUICK,
        target=0.10,
        max_runs=12,
        extra_time=1.0,
    ),
    "full": Profile(
        name="full",
        repetitions=5,
        fsync=fsync_plan.FULL,
        storage=storage_plan.FULL,
        sqlite=sqlite_plan.FULL,
        memtable=memtable_plan.FULL,
        rocksdb=rocksdb_plan.FULL,
        network=network_plan.FULL,
        hashing=hashing_plan.FULL,
        cpu=cpu_plan.FULL,
        codecs=codecs_plan.FULL,
        cell_timeout=6 * 3600,
        target=0.03,
        max_runs=30,
        # added rounds take at most 0.3 of the first rounds' time: measured on a 2-vCPU VM,
        # doubling the time (1.0) left 149 of 172 disk cases (fsync, storage) still wider
        # than ±3 %: on a drifting virtual disk more runs of the same minute narrow little;
        # at 0.5 the whole book took well over two hours (README, "The full profile's time")
        extra_time=0.3,
        warmups=1,
    ),
    "smoke": Profile(
        name="smoke",
        repetitions=2,
        fsync=fsync_plan.SMOKE,
        storage=storage_plan.SMOKE,
        sqlite=sqlite_plan.SMOKE,
        memtable=memtable_plan.SMOKE,
        rocksdb=rocksdb_plan.SMOKE,
        network=network_plan.SMOKE,
        hashing=hashing_plan.SMOKE,
        cpu=cpu_plan.SMOKE,
        codecs=codecs_plan.SMOKE,
    ),
}


def profile_name() -> str:
    """The active profile's name, from the environment: ValueError naming the variable
    when it is set but says nothing (an empty ``HOWFAST_PROFILE``) or names no profile of
    the book (``QUARTO_PROFILE`` without ``HOWFAST_PROFILE``), never a silent ``quick``."""
    explicit = os.environ.get("HOWFAST_PROFILE")
    if explicit is not None:
        if not explicit.strip():
            raise ValueError(f"HOWFAST_PROFILE is set but empty: set it to one of {', '.join(PROFILES)}, or unset it")
        return explicit  # as it is: 'quick\n' is no profile's name
    # Quarto sets QUARTO_PROFILE to a comma-separated list of active profiles.
    quarto = os.environ.get("QUARTO_PROFILE", "")
    ours = [name.strip() for name in quarto.split(",") if name.strip() in PROFILES]
    if len(ours) == 1:
        return ours[0]
    if quarto.strip():
        raise ValueError(
            f"QUARTO_PROFILE is {quarto!r}, which names {'two profiles' if ours else 'no profile'} of the book: "
            f"give exactly one of {', '.join(PROFILES)} (or set HOWFAST_PROFILE)"
        )
    return "quick"


def current_profile(name: str | None = None) -> Profile:
    """The named profile, else the active one; ValueError naming the setting for an unknown name."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"current_profile(): name must be text, got {type(name).__name__}")
    chosen = name or profile_name()
    if chosen not in PROFILES:
        source = "the profile" if name else "HOWFAST_PROFILE"
        raise ValueError(f"unknown profile {chosen!r} ({source}): choose one of {', '.join(PROFILES)}")
    return PROFILES[chosen]


def target_of(folder: str) -> float | None:
    """The stopping rule's target of the profile a set was measured on (its folder name,
    ``quick`` or ``quick+no-io_uring``); None for a fixed count or an unknown profile."""
    if not isinstance(folder, str):
        raise TypeError(f"target_of(): folder must be text, got {type(folder).__name__}")
    found = PROFILES.get(folder.split("+")[0])
    return found.target if found else None
