"""Noise evidence: what else the machine was doing while a benchmark ran.

``bench.run`` takes a ``snapshot`` before and after every run of every case and stores
their ``difference`` beside the run (``<experiment>.noise.parquet``), so a figure can say
why it was noisy, not only that it was:

* our own process: its CPU time (user + system, its waited-for children too, as
  ``getrusage`` counts them) against the wall time (``ran``: the share of the wall time we
  actually ran; a CPU-bound loop on an idle machine is near 1), the time the measuring
  thread waited on a run queue for a CPU (``waited``, from ``/proc/thread-self/schedstat``),
  and its involuntary context switches;
* the machine (``/proc/stat``): CPU steal and iowait as shares of all CPU time, the CPU
  time of every other process (the busy time of all CPUs minus ours) as a share of all
  CPUs, runnable tasks and the load average at the start and the end.

``environment`` reads what holds for a whole experiment: transparent huge pages, the CPU
frequency governor and frequency where the kernel shows them, swap in use. Every reader
takes a ``root`` so the tests can hand it a fake ``/proc`` and ``/sys``.
"""

from __future__ import annotations

import os
import re
import resource
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .checks import checked

#: The real root; tests pass a folder holding a fake proc/ and sys/.
ROOT = Path("/")

#: /proc/stat's cpu line, in order (guest time is already counted in user)
_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
_BUSY = ("user", "nice", "system", "irq", "softirq")


def _text(root: Path, relative: str) -> str | None:
    try:
        return (root / relative).read_text()
    except OSError:
        return None


def _check_root(root: Path) -> Path:
    if not isinstance(root, Path):
        raise TypeError(f"root must be a pathlib.Path, got {type(root).__name__}")
    return root


def cpu_times(root: Path = ROOT) -> dict[str, int]:
    """The ``cpu`` line of ``/proc/stat`` (ticks of all CPUs since boot: user, nice, system,
    idle, iowait, irq, softirq, steal), with ``procs_running`` and ``procs_blocked``;
    empty when the file cannot be read."""
    text = _text(_check_root(root), "proc/stat")
    if text is None:
        return {}
    out: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "cpu":
            values = [int(v) for v in parts[1 : 1 + len(_FIELDS)] if v.isdigit()]
            out.update(zip(_FIELDS, values))
        elif parts[0] in ("procs_running", "procs_blocked") and len(parts) > 1 and parts[1].isdigit():
            out[parts[0]] = int(parts[1])
    return out


def load_average(root: Path = ROOT) -> tuple[float, int] | None:
    """(the 1-minute load average, runnable tasks now) from ``/proc/loadavg``; None when
    unreadable."""
    text = _text(_check_root(root), "proc/loadavg")
    parts = text.split() if text else []
    if len(parts) < 4 or "/" not in parts[3]:
        return None
    try:
        return float(parts[0]), int(parts[3].split("/")[0])
    except ValueError:
        return None


def run_delay(root: Path = ROOT, task: str = "thread-self") -> tuple[int, int] | None:
    """(CPU time, time waited on a run queue), both in ns, of one task (the calling thread
    by default) from its ``schedstat``; None where the kernel does not show it."""
    if not isinstance(task, str) or not re.fullmatch(r"thread-self|self|\d+(/task/\d+)?", task):
        raise ValueError(f"task is a /proc entry such as 'thread-self' or '123', got {task!r}")
    text = _text(_check_root(root), f"proc/{task}/schedstat")
    parts = text.split() if text else []
    if len(parts) < 2 or not (parts[0].isdigit() and parts[1].isdigit()):
        return None
    return int(parts[0]), int(parts[1])


def cpu_count(root: Path = ROOT) -> int:
    """The CPUs ``/proc/stat`` lists (``cpu0``, ``cpu1`` ...), else ``os.cpu_count()``."""
    text = _text(_check_root(root), "proc/stat") or ""
    n = sum(1 for line in text.splitlines() if line.startswith("cpu") and line[3:4].isdigit())
    return n or os.cpu_count() or 1


def environment(root: Path = ROOT) -> dict[str, Any]:
    """What holds for a whole experiment: ``thp`` (the bracketed choice of
    transparent_hugepage/enabled), ``governor`` (cpu0's cpufreq governor), ``mhz`` (the mean
    current frequency of the CPUs that show one), ``no_turbo`` (intel_pstate; None where
    absent), ``swap_used`` (bytes); a key is None where the kernel does not show it."""
    _check_root(root)
    thp = _text(root, "sys/kernel/mm/transparent_hugepage/enabled")
    chosen = thp.split("[", 1)[1].split("]", 1)[0] if thp and "[" in thp else None
    governor = _text(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    freqs = []
    for path in sorted((root / "sys/devices/system/cpu").glob("cpu[0-9]*/cpufreq/scaling_cur_freq")):
        text = _text(path.parent, path.name)
        if text and text.strip().isdigit():
            freqs.append(int(text) / 1e3)
    turbo = _text(root, "sys/devices/system/cpu/intel_pstate/no_turbo")
    return {
        "thp": chosen,
        "governor": governor.strip() if governor else None,
        "mhz": round(sum(freqs) / len(freqs), 1) if freqs else None,
        "no_turbo": turbo.strip() == "1" if turbo and turbo.strip() in ("0", "1") else None,
        "swap_used": swap_used(root),
    }


def swap_used(root: Path = ROOT) -> int | None:
    """Bytes of swap in use (SwapTotal - SwapFree in ``/proc/meminfo``); None when unreadable."""
    text = _text(_check_root(root), "proc/meminfo") or ""
    kb: dict[str, int] = {}
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        value = rest.split()
        if value and value[0].isdigit():
            kb[name.strip()] = int(value[0])
    if "SwapTotal" not in kb or "SwapFree" not in kb:
        return None
    return (kb["SwapTotal"] - kb["SwapFree"]) * 1024


@dataclass(frozen=True)
class Snapshot:
    """Counters read at one instant (``snapshot``); two of them make one run's evidence."""

    wall: float  # time.monotonic()
    cpu: float  # our process's CPU seconds, waited-for children included
    involuntary: int  # context switches, ours and children's
    voluntary: int
    stat: dict[str, int]  # cpu_times
    load: tuple[float, int] | None
    sched: tuple[int, int] | None  # run_delay of the calling thread


def snapshot(root: Path = ROOT) -> Snapshot:
    """Our usage and the machine's counters now."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Snapshot(
        wall=time.monotonic(),
        cpu=me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime,
        involuntary=me.ru_nivcsw + kids.ru_nivcsw,
        voluntary=me.ru_nvcsw + kids.ru_nvcsw,
        stat=cpu_times(root),
        load=load_average(root),
        sched=run_delay(root),
    )


#: The columns ``difference`` fills, in order (None where the kernel showed nothing).
COLUMNS = (
    "wall_s", "cpu_s", "ran", "waited", "involuntary_switches", "voluntary_switches", "steal", "iowait",
    "others", "load_start", "load_end", "runnable_start", "runnable_end",
)  # fmt: skip

_HZ = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def difference(before: Snapshot, after: Snapshot, *, hz: int = _HZ) -> dict[str, float | None]:
    """One run's evidence from the snapshots around it: ``wall_s`` and ``cpu_s`` (ours),
    ``ran`` (cpu_s / wall_s), ``waited`` (share of the wall time the measuring thread
    waited for a CPU), switches, ``steal`` and ``iowait`` (shares of all CPU time),
    ``others`` (other processes' CPU time as a share of all CPUs), load and runnable tasks
    at the start and the end."""
    if not isinstance(before, Snapshot) or not isinstance(after, Snapshot):
        raise TypeError("before and after must be noise.Snapshot (from noise.snapshot())")
    if not isinstance(hz, int) or isinstance(hz, bool) or hz <= 0:
        raise ValueError(f"hz is clock ticks per second, a positive whole number, got {hz!r}")
    wall = after.wall - before.wall
    cpu = max(0.0, after.cpu - before.cpu)
    out: dict[str, float | None] = dict.fromkeys(COLUMNS)
    out.update(
        wall_s=wall, cpu_s=cpu, ran=cpu / wall if wall > 0 else None,
        involuntary_switches=float(after.involuntary - before.involuntary),
        voluntary_switches=float(after.voluntary - before.voluntary),
    )  # fmt: skip
    if before.sched and after.sched and wall > 0:
        out["waited"] = max(0, after.sched[1] - before.sched[1]) / 1e9 / wall
    ticks = {k: after.stat.get(k, 0) - before.stat.get(k, 0) for k in _FIELDS if k in before.stat and k in after.stat}
    total = sum(ticks.values())
    if len(ticks) == len(_FIELDS) and total > 0:
        out["steal"] = ticks["steal"] / total
        out["iowait"] = ticks["iowait"] / total
        busy = sum(ticks[k] for k in _BUSY) / hz
        out["others"] = min(1.0, max(0.0, busy - cpu) / (total / hz))
    if before.load:
        out["load_start"], out["runnable_start"] = before.load[0], float(before.load[1])
    if after.load:
        out["load_end"], out["runnable_end"] = after.load[0], float(after.load[1])
    return out


checked(globals())
