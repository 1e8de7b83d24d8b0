"""The results store: the seam between measuring and the book.

Measuring a subject writes one **results set**; a chapter reads it. A set is a folder

    <results>/<machine>/<profile>/<subject>/
        manifest.json        what was measured: subject, profile, machine, howfast version
                             and git commit, when it started and ended, its experiments
        machine.json         the machine's facts, recorded once for the set
        <experiment>.parquet          tidy metrics (one row per case, repetition, metric)
        <experiment>.samples.parquet  per-operation latencies, where kept

``<results>`` is ``$HOWFAST_RESULTS`` or the book's ``data/results``.

A set is complete or absent, and a reader never sees half a file. ``<subject>`` is a
symbolic link to a hidden folder, ``.<subject>@<time>-<pid>``, that a writer fills and
never touches again: when every experiment has finished, the link is replaced at once
(a rename) by one pointing to the new folder. A reader resolves the link once and reads
one folder; the folder it may still be reading is kept until the next set replaces the
one after it. An interrupted or killed writer leaves the previous set as it was (its
half-written folder is removed by the next writer). Two writers of the same set are not
allowed: the second is refused with a message naming the first (a lock file,
``.<subject>.lock``, released by the kernel even when a writer is killed).
"""

from __future__ import annotations

import datetime as dt
import errno
import fcntl
import importlib
import json
import math
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from .bench import Run
from .paths import book_root, results_dir
from .profiles import Profile, current_profile

#: Every measured subject, in the order of the book. Each is a package
#: ``howfast.<subject>`` whose ``experiments.measure(profile, writer)`` fills a set.
SUBJECTS = ("fsync", "storage", "sqlite", "memtable", "rocksdb", "network", "hashing", "cpu", "codecs")

_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")  # always fullmatch: "$" matches before a final "\n"
MANIFEST = "manifest.json"
#: The shape of the noise evidence a set keeps (``<experiment>.noise.parquet`` and the
#: manifest's ``noise``, ``doctor``); a set without it (older) still loads and says so.
NOISE_VERSION = 1
FACTS = "machine.json"


class MissingResults(FileNotFoundError):
    """No stored results set for this subject, machine and profile."""


class Busy(RuntimeError):
    """Another process is writing the same results set."""


class StaleResults(MissingResults):
    """A stored set in a shape the code no longer reads (its subject's SCHEMA changed)."""


def schema(subject: str) -> int:
    """The shape of what a subject stores: ``SCHEMA`` in its experiments module, bumped
    whenever its cases, ids or metrics change, so that older sets are measured again."""
    return int(getattr(importlib.import_module(f"howfast.{check_subject(subject)}.experiments"), "SCHEMA", 0))


def _check_name(name: str, what: str) -> None:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"{what} {name!r} must be lower-case letters, digits, '_' or '-'")


def _check_machine(machine: str | None) -> str | None:
    """`machine` (None: this machine), ValueError unless it can name a machine's folder."""
    if machine is not None and not machine_name_ok(machine):
        raise ValueError(f"machine {machine!r} is not a machine's folder name (letters, digits, '_', '.', '-')")
    return machine


def check_subject(subject: str) -> str:
    if subject not in SUBJECTS:
        raise ValueError(f"unknown subject {subject!r}: choose one of {', '.join(SUBJECTS)}")
    return subject


def variant(profile: str | None = None) -> str:
    """The profile's folder: its name, plus the capabilities switched off for a try-out
    (``quick+no-io_uring``), so that such a run never replaces the machine's real results."""
    from .capabilities import switched_off

    return "+".join([profile or current_profile().name, *switched_off()])


def set_dir(subject: str, *, machine: str | None = None, profile: str | None = None) -> Path:
    """Where the results set of `subject` lives for this (or the named) machine and profile."""
    from .machine import machine_id

    check_subject(subject)
    _check_machine(machine)
    if profile is not None:
        _check_name(profile, "profile")
    return results_dir() / (machine or machine_id()) / variant(profile) / subject


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=True
    ).stdout.strip()


def code_version() -> dict[str, str | None]:
    """howfast's version and, in a git checkout, the commit (with ``+dirty`` for local edits)."""
    from . import __version__

    commit = None
    root = book_root(Path(__file__).resolve().parent)
    if root is not None and (root / ".git").exists():
        try:
            dirty = _git(root, "status", "--porcelain", "--untracked-files=no")
            commit = _git(root, "rev-parse", "--short=12", "HEAD") + ("+dirty" if dirty else "")
        except (OSError, subprocess.SubprocessError):
            commit = None
    return {"howfast": __version__, "commit": commit}


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _versions(parent: Path, subject: str) -> list[Path]:
    """The set folders of `subject` below `parent`, oldest first."""
    return sorted(parent.glob(f".{subject}@*"), key=lambda p: p.name)


class Writer:
    """Fills one new folder for a subject's set; ``commit`` makes it the current one."""

    def __init__(
        self, subject: str, profile: Profile, *, machine: str | None = None, folder: str | None = None
    ) -> None:
        """A set of this machine for the profile (and capabilities switched off now); an
        import names the `machine` and the profile's `folder` (``quick+no-io_uring``)."""
        self.subject = check_subject(subject)
        self.profile = profile
        if machine is None and folder is None:
            self.final = set_dir(subject, profile=profile.name)
        else:
            from .machine import machine_id

            self.final = results_dir() / (machine or machine_id()) / (folder or variant(profile.name)) / subject
        self.final.parent.mkdir(parents=True, exist_ok=True)
        self._lock = self._acquire()
        try:
            self._remove_abandoned()
            stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S.%f")
            self.path = self.final.parent / f".{subject}@{stamp}-{os.getpid()}"
            self.path.mkdir()
        except BaseException:
            os.close(self._lock)
            raise
        self.experiments: list[str] = []
        #: the code that measures: its version when the writer started, not when it commits
        #: (a checkout edited during a long run must not pass for the code that ran)
        self.code = code_version()
        self.machine_facts: dict[str, Any] | None = None
        #: what else a report needs to know about the run (library versions, ...): JSON values
        self.details: dict[str, Any] = {}
        #: the pre-flight check's findings (``doctor.findings``), stored in the manifest
        self.doctor: list[dict[str, Any]] = []
        #: per experiment: the stopping rule as it ran and what held for it (``Run.rounds``, ``Run.environment``)
        self.noise: dict[str, Any] = {}
        self.started = _now()
        self._clock = time.monotonic()

    def _acquire(self) -> int:
        path = self.final.parent / f".{self.subject}.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EACCES):
                raise Busy(
                    f"another howfast process (pid {holder}) is measuring {self.subject} for this machine "
                    f"and profile ({self.final.parent}); wait for it to finish or stop it"
                ) from None
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        return fd

    def _remove_abandoned(self) -> None:
        """Folders of writers that died before their commit (never the current set)."""
        current = self.final.resolve() if self.final.is_symlink() else None
        for folder in _versions(self.final.parent, self.subject):
            committed = (folder / MANIFEST).is_file()
            if not committed and folder != current:
                shutil.rmtree(folder, ignore_errors=True)

    def record_facts(self, directory: Path) -> dict[str, Any]:
        """The machine's facts for the directory the benchmarks write in, recorded once."""
        from .machine import facts

        if self.machine_facts is None:
            self.machine_facts = facts(directory)
        return self.machine_facts

    def add(self, run: Run) -> None:
        """Store one experiment's metrics (and samples, if any)."""
        _check_name(run.benchmark, "experiment name")
        if run.benchmark in self.experiments:
            raise ValueError(f"experiment {run.benchmark!r} was added twice")
        stamp = [pl.lit(run.profile).alias("profile"), pl.lit(run.started).alias("measured_at")]
        run.metrics.with_columns(stamp).write_parquet(self.path / f"{run.benchmark}.parquet")
        if run.samples.height:
            run.samples.with_columns(stamp).write_parquet(self.path / f"{run.benchmark}.samples.parquet")
        if run.noise.height:
            run.noise.write_parquet(self.path / f"{run.benchmark}.noise.parquet")
        self.noise[run.benchmark] = {"rounds": run.rounds, "environment": run.environment}
        self.experiments.append(run.benchmark)

    def commit(self, manifest: dict[str, Any] | None = None) -> Path:
        """Write the manifest, make this folder the current set, and remove the sets
        before the one it replaces. An import passes the `manifest` it brings, kept as it is."""
        from .machine import machine_id

        try:
            if self.machine_facts is None:
                raise RuntimeError(f"{self.subject}: the experiments recorded no machine facts (call record_facts)")
            if not self.experiments:
                raise RuntimeError(f"{self.subject}: no experiment was stored")
            manifest = manifest or {
                "subject": self.subject,
                "schema": schema(self.subject),
                "machine": machine_id(),
                "profile": self.profile.name,
                "switched_off": variant(self.profile.name).split("+")[1:],
                "repetitions": self.profile.repetitions,
                **self.code,
                "started": self.started,
                "finished": _now(),
                "seconds": round(time.monotonic() - self._clock, 1),
                "experiments": self.experiments,
                "details": self.details,
                "noise": {"version": NOISE_VERSION, "experiments": self.noise},
                "doctor": self.doctor,
            }
            (self.path / FACTS).write_text(json.dumps(self.machine_facts, indent=2, sort_keys=True) + "\n")
            (self.path / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
            for name in os.listdir(self.path):  # the folder's files reach the disk before the link names them
                _fsync_path(self.path / name)
            _fsync_path(self.path)
            previous = self.final.resolve() if self.final.is_symlink() else None
            if self.final.exists() and not self.final.is_symlink():  # a set of the layout before links
                os.replace(self.final, self.final.parent / f".{self.subject}@00000000T000000-old")
                previous = None
            link = self.final.parent / f".{self.subject}.link-{os.getpid()}"
            link.unlink(missing_ok=True)
            os.symlink(self.path.name, link)
            os.replace(link, self.final)
            _fsync_path(self.final.parent)
            for folder in _versions(self.final.parent, self.subject):
                if folder not in (self.path, previous):
                    _remove_unread(folder)
            return self.final
        finally:
            self._release()

    def discard(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        self._release()

    def _release(self) -> None:
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1


def _remove_unread(folder: Path) -> None:
    """Remove an old set's folder unless a reader holds it (its shared lock); a later
    writer removes it then."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        shutil.rmtree(folder, ignore_errors=True)
    except OSError:
        pass  # being read: a later writer removes it
    finally:
        os.close(fd)


def _fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def writing(subject: str, profile: Profile | None = None) -> Iterator[Writer]:
    """A Writer committed when the block ends normally, discarded on any exception."""
    writer = Writer(subject, profile or current_profile())
    try:
        yield writer
    except BaseException:
        writer.discard()
        raise
    writer.commit()


def measure(subject: str, profile: Profile | None = None) -> ResultSet:
    """Run every experiment of `subject` and store them as this machine's set."""
    from . import progress
    from .doctor import findings

    profile = profile or current_profile()
    module = importlib.import_module(f"howfast.{check_subject(subject)}.experiments")
    with progress.subject(subject), writing(subject, profile) as writer:
        writer.doctor = [f.as_dict() for f in findings(interval=0.2)]
        module.measure(profile, writer)
    return load(subject, profile=profile.name)


@dataclass
class ResultSet:
    """One subject's stored results for one machine and profile."""

    subject: str
    path: Path
    manifest: dict[str, Any]
    facts: dict[str, Any]
    _tables: dict[tuple[str, bool], pl.DataFrame] = field(default_factory=dict, repr=False)
    #: a shared lock on the folder, held while this set is alive, so no writer removes it
    _hold: int = field(default=-1, repr=False)

    def __del__(self) -> None:
        if self._hold >= 0:
            os.close(self._hold)
            self._hold = -1

    @property
    def profile(self) -> str:
        return str(self.manifest["profile"])

    @property
    def target(self) -> float | None:
        """The stopping rule's target of the profile this set was measured on (±10 %
        quick, ±3 % full; None for a fixed count): what ``tables.figure`` marks against."""
        from .profiles import target_of

        return target_of(self.profile)

    @property
    def details(self) -> dict[str, Any]:
        return dict(self.manifest.get("details", {}))

    @property
    def experiments(self) -> list[str]:
        return list(self.manifest["experiments"])

    def table(self, experiment: str, *, samples: bool = False) -> pl.DataFrame:
        """An experiment's metrics (or its per-operation samples), read once."""
        key = (experiment, samples)
        if key not in self._tables:
            if experiment not in self.experiments:
                raise KeyError(f"{self.subject} has no experiment {experiment!r}; it has {', '.join(self.experiments)}")
            path = self.path / f"{experiment}{'.samples' if samples else ''}.parquet"
            if not path.is_file():
                raise MissingResults(f"{experiment} kept no samples ({path} is missing)")
            self._tables[key] = pl.read_parquet(path)
        return self._tables[key]

    def unsupported(self) -> list[str]:
        """The distinct reasons why cases of this set could not run here (none: all ran)."""
        from .stats import reasons

        return list(dict.fromkeys(note for name in self.experiments for note in reasons(self.table(name))))

    def noise(self, experiment: str) -> pl.DataFrame | None:
        """An experiment's noise evidence, one row per run (``noise.COLUMNS``); None for a
        set stored before it was recorded."""
        if experiment not in self.experiments:
            raise KeyError(f"{self.subject} has no experiment {experiment!r}; it has {', '.join(self.experiments)}")
        key = (f"{experiment}.noise", False)
        if key not in self._tables:
            path = self.path / f"{experiment}.noise.parquet"
            if not path.is_file():
                return None
            self._tables[key] = pl.read_parquet(path)
        return self._tables[key]

    def rounds(self, experiment: str) -> dict[str, Any]:
        """How the stopping rule ran for an experiment (``bench.Run.rounds``); empty for an older set."""
        found = (self.manifest.get("noise") or {}).get("experiments") or {}
        return dict((found.get(experiment) or {}).get("rounds") or {})

    def doctor(self) -> list[dict[str, Any]]:
        """The pre-flight check's findings stored with the set (``doctor.findings``); empty for an older set."""
        return list(self.manifest.get("doctor") or [])

    def samples(self, experiment: str) -> pl.DataFrame | None:
        """An experiment's per-operation samples, or None when it kept none (no case of it
        could run here, or it keeps percentiles only)."""
        try:
            return self.table(experiment, samples=True)
        except MissingResults:
            return None

    def stamp(self) -> str:
        """'quick profile, measured in 3.4 minutes, finished 2026-11-23 01:02 UTC, howfast 0.2.0 (git
        1a2b3c4d5e6f), on a busy machine (…)': the time is when the set was finished (a reader
        who took it for the start would think two sets measured one after the other overlapped);
        how busy the machine was comes from the set's noise evidence
        (``book.busy_clause``; 'no noise evidence recorded' for a set stored before it)."""
        when = dt.datetime.fromisoformat(self.manifest["finished"]).strftime("%Y-%m-%d %H:%M UTC")
        took = duration_words(float(self.manifest["seconds"]))
        commit = f" (git {self.manifest['commit']})" if self.manifest.get("commit") else ""
        off = self.manifest.get("switched_off") or []
        without = f", with {', '.join(o.removeprefix('no-') for o in off)} switched off" if off else ""
        from .book import busy_clause

        version = f"howfast {self.manifest['howfast']}{commit}"
        return f"{self.profile} profile{without}, measured in {took}, finished {when}, {version}{busy_clause(self)}"


def duration_words(seconds: float | None) -> str:
    """How long a measurement took, in the units a reader thinks in: '350 ms', '45 s' (under
    two minutes, ``fmt.duration_us``), '5 min 20 s' (under ten minutes), '73 min' (under
    two hours), '2 h 30 min' (under three days), '4.6 days'; 'n/a' when not recorded."""
    from . import fmt

    if seconds is None:
        return fmt.NA
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"seconds must be a number, got {type(seconds).__name__}")
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"seconds is a duration of at least 0, got {seconds!r}")
    if seconds < 120:
        return fmt.duration_us(seconds * 1e6)
    if seconds < 600:
        minutes, rest = divmod(round(seconds), 60)
        return f"{minutes} min" + (f" {rest} s" if rest else "")
    if seconds < 7200:
        return f"{round(seconds / 60)} min"
    if seconds < 3 * 86_400:
        hours, minutes = divmod(round(seconds / 60), 60)
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    return f"{fmt.num(round(seconds / 86_400, 1))} days"


def load(subject: str, *, machine: str | None = None, profile: str | None = None) -> ResultSet:
    """The stored set; MissingResults naming the command that measures it when absent."""
    return _open(subject, set_dir(subject, machine=machine, profile=profile), profile or current_profile().name)


def load_stored(subject: str, machine: str, folder: str) -> ResultSet:
    """The set of `machine` stored in its profile folder `folder` (``quick``,
    ``quick+no-io_uring``), whatever this process's profile and switches are."""
    check_subject(subject)
    if not (isinstance(folder, str) and _FOLDER.fullmatch(folder)) or not machine_name_ok(machine):
        raise ValueError(f"no results set can be stored as machine {machine!r}, profile folder {folder!r}")
    return _open(subject, results_dir() / machine / folder / subject, folder)


#: a machine's folder (as ``machine.machine_id`` makes it) and a profile's folder; both are
#: always matched whole (``fullmatch``: ``$`` would match before a final newline)
_MACHINE = re.compile(r"\w[\w.-]*")
_FOLDER = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}(\+[a-z0-9_-]{1,63}){0,8}")
#: the longest machine name, in characters (a folder name has at most 255 bytes)
MACHINE_MAX = 64


def machine_name_ok(name: object) -> bool:
    """Whether `name` can be a machine's folder: letters, digits, '.', '_' or '-', not
    starting with '.' or '-', at most ``MACHINE_MAX`` characters."""
    return isinstance(name, str) and len(name) <= MACHINE_MAX and _MACHINE.fullmatch(name) is not None


def stored(machine: str) -> list[tuple[str, str]]:
    """(profile folder, subject) of every set stored for `machine`, in the book's order."""
    if not machine_name_ok(machine) or not (base := results_dir() / machine).is_dir():
        return []
    found = [
        (folder.name, subject)
        for folder in sorted(base.iterdir())
        if _FOLDER.fullmatch(folder.name) and folder.is_dir()
        for subject in SUBJECTS
        if (folder / subject / MANIFEST).is_file()
    ]
    return sorted(found, key=lambda f: (f[0], SUBJECTS.index(f[1])))


def _open(subject: str, link: Path, chosen: str) -> ResultSet:
    path, hold = _hold_current(link)
    manifest_path = path / MANIFEST
    if hold < 0 or not manifest_path.is_file():
        raise MissingResults(
            f"no stored {subject} results for this machine and the {chosen} profile "
            f"({path}): run 'python -m howfast measure {subject} --profile {chosen}'"
        )
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("schema") != schema(subject):
        raise StaleResults(
            f"the stored {subject} results ({path}) were made by howfast {manifest.get('howfast')}, "
            f"which stored them in another shape: run 'python -m howfast measure {subject}' again"
        )
    facts = json.loads((path / FACTS).read_text())
    return ResultSet(subject=subject, path=path, manifest=manifest, facts=facts, _hold=hold)


def _hold_current(link: Path, tries: int = 50) -> tuple[Path, int]:
    """The folder the link names now, with a shared lock on it (-1: no set there). The
    folder a link names is never changed, only replaced; a writer removes an old one only
    when it can lock it exclusively, so a held folder stays whole for its reader."""
    for _ in range(tries):
        path = link.resolve()
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except (FileNotFoundError, NotADirectoryError):
            if not link.is_symlink():
                return path, -1
            continue  # replaced and removed between the two calls: look again
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # a writer is removing it: the link names a newer one by now
        if (path / MANIFEST).is_file():
            return path, fd
        os.close(fd)
        if not link.is_symlink():
            return path, -1
    raise Busy(f"the results at {link} kept changing while being read; try again")


def measure_requested() -> bool:
    """``HOWFAST_MEASURE=1`` asks chapters to measure even when results are stored."""
    return os.environ.get("HOWFAST_MEASURE", "").strip() not in ("", "0")


def results(subject: str) -> ResultSet:
    """What a chapter calls: the stored set of this machine and profile, measured first
    when it is missing or when ``HOWFAST_MEASURE=1``."""
    if measure_requested():
        return measure(subject)
    try:
        return load(subject)
    except MissingResults:
        return measure(subject)


def machines() -> list[str]:
    """Machines with at least one stored results set."""
    root = results_dir()
    if not root.is_dir():
        return []
    return sorted(m.name for m in root.iterdir() if m.is_dir() and any(m.glob(f"*/*/{MANIFEST}")))


def load_facts(machine: str | None = None) -> dict[str, Any]:
    """The facts of the most recently measured set of a machine."""
    from .machine import machine_id

    base = results_dir() / (_check_machine(machine) or machine_id())
    links = [p for p in base.glob(f"*/*/{MANIFEST}") if not p.parent.name.startswith(".")]
    manifests = sorted(links, key=lambda p: p.stat().st_mtime)
    if not manifests:
        raise MissingResults(f"no stored results for machine {machine or machine_id()!r} in {results_dir()}")
    return json.loads((manifests[-1].parent / FACTS).read_text())
