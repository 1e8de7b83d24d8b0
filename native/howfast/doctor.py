"""``howfast doctor``: a pre-flight check of the machine, one finding a line.

What it looks at, each a reason numbers move: the load and CPU steal now, the processes
busy besides ours, the CPU frequency governor and turbo, transparent huge pages, swap in
use, the scratch filesystem (a tmpfs is memory, not a disk), the memlock limit io_uring
rings were charged to before Linux 5.12, and whether this is a virtual machine. Each
finding says what to do. ``store.measure`` runs it before every subject and keeps the
findings in the set's manifest. Every reader takes a ``root`` (a fake ``/proc`` and
``/sys`` in the tests).
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import fmt
from .checks import checked
from .noise import ROOT, cpu_count, cpu_times, environment, load_average

#: Load average per CPU above which the machine is called busy.
LOAD_PER_CPU = 0.5
#: A share of CPU time stolen by the hypervisor above which numbers are called low.
STEAL = 0.05
#: Another process using more than this share of one CPU is named.
BUSY_PROCESS = 0.10
#: io_uring rings stopped counting against RLIMIT_MEMLOCK in this kernel version.
MEMLOCK_FREE_KERNEL = (5, 12)
#: A memlock limit below this (bytes) is named on older kernels.
MEMLOCK_LOW = 64 * 2**20

OK, NOTE, WARN = "ok", "note", "warn"


@dataclass(frozen=True)
class Finding:
    """One line of the check: ``level`` ok / note / warn, what was found, what to do."""

    topic: str
    level: str
    text: str
    advice: str = ""

    def line(self) -> str:
        """'warn  load: load average 19.3 on 2 CPUs. Wait for ...'."""
        advice = f". {self.advice[:1].upper()}{self.advice[1:]}" if self.advice else ""
        return f"{self.level:<4}  {self.topic}: {self.text}{advice}"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _text(root: Path, relative: str) -> str | None:
    try:
        return (root / relative).read_text()
    except OSError:
        return None


def _hz() -> int:
    return os.sysconf("SC_CLK_TCK")


def process_times(root: Path = ROOT) -> dict[int, tuple[str, int]]:
    """pid -> (command name, user + system ticks) of every process in ``/proc``."""
    out: dict[int, tuple[str, int]] = {}
    for entry in (root / "proc").glob("[0-9]*"):
        text = _text(entry, "stat")
        if not text or ")" not in text or not entry.name.isdigit():
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        rest = text[text.rindex(")") + 2 :].split()
        if len(rest) > 12 and rest[11].isdigit() and rest[12].isdigit():
            out[int(entry.name)] = (name, int(rest[11]) + int(rest[12]))
    return out


def busy_processes(
    root: Path = ROOT, interval: float = 0.5, *, mine: int | None = None
) -> list[tuple[str, int, float]]:
    """(name, pid, share of one CPU) of the processes other than `mine` (default: this one)
    that used more than ``BUSY_PROCESS`` of a CPU over `interval` seconds, busiest first.
    With `interval` 0, the share is over each process's life (``/proc/uptime``)."""
    if not isinstance(interval, (int, float)) or isinstance(interval, bool) or not 0 <= interval <= 60:
        raise ValueError(f"interval is seconds between 0 and 60, got {interval!r}")
    me = os.getpid() if mine is None else mine
    first = process_times(root)
    hz = _hz()
    shares: dict[int, float] = {}
    if interval > 0:
        time.sleep(interval)
        for pid, (_, ticks) in process_times(root).items():
            if pid in first:
                shares[pid] = (ticks - first[pid][1]) / hz / interval
    else:
        uptime = (_text(root, "proc/uptime") or "0").split()[0]
        for pid in first:
            text = _text(root / "proc" / str(pid), "stat") or ""
            rest = text[text.rindex(")") + 2 :].split() if ")" in text else []
            if len(rest) > 19 and rest[19].isdigit():
                life = float(uptime) - int(rest[19]) / hz
                if life > 0:
                    shares[pid] = first[pid][1] / hz / life
    found = [(first[p][0], p, s) for p, s in shares.items() if p != me and s > BUSY_PROCESS]
    return sorted(found, key=lambda f: -f[2])


def _steal_now(root: Path, interval: float) -> float | None:
    first = cpu_times(root)
    if interval > 0:
        time.sleep(interval)
    second = cpu_times(root)
    fields = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    if not all(k in first for k in fields):
        return None
    span = {k: second[k] - first[k] for k in fields}
    if sum(span.values()) <= 0:  # no time between the two reads: since boot
        span = {k: second[k] for k in fields}
    total = sum(span.values())
    return span["steal"] / total if total > 0 else None


def _mount(root: Path, path: Path) -> tuple[str, str] | None:
    """(mount point, filesystem type) holding `path`, from ``/proc/self/mountinfo``."""
    best: tuple[str, str] | None = None
    for line in (_text(root, "proc/self/mountinfo") or "").splitlines():
        left, _, right = line.partition(" - ")
        parts, kinds = left.split(), right.split()
        if len(parts) < 5 or not kinds:
            continue
        point = parts[4]
        inside = str(path) == point or str(path).startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) > len(best[0])):
            best = (point, kinds[0])
    return best


def _kernel(root: Path) -> tuple[int, int] | None:
    text = _text(root, "proc/sys/kernel/osrelease") or ""
    head = text.strip().split("-")[0].split(".")
    try:
        return int(head[0]), int(head[1])
    except (IndexError, ValueError):
        return None


def _memlock(root: Path) -> int | None:
    """The soft RLIMIT_MEMLOCK in bytes from ``/proc/self/limits`` (-1: unlimited)."""
    for line in (_text(root, "proc/self/limits") or "").splitlines():
        if line.startswith("Max locked memory"):
            soft = line[len("Max locked memory") :].split()[0]
            return -1 if soft == "unlimited" else int(soft) if soft.isdigit() else None
    return None


def _virtual(root: Path) -> str | None:
    cpuinfo = _text(root, "proc/cpuinfo") or ""
    flags = next((line for line in cpuinfo.splitlines() if line.startswith("flags")), "")
    vendor = (_text(root, "sys/class/dmi/id/sys_vendor") or "").strip()
    if " hypervisor" in flags or vendor in (
        "QEMU",
        "KVM",
        "Xen",
        "Microsoft Corporation",
        "VMware, Inc.",
        "Amazon EC2",
    ):
        return vendor or "a hypervisor"
    return None


def findings(root: Path = ROOT, *, scratch: Path | None = None, interval: float = 0.5) -> list[Finding]:
    """Every finding of the check, in a fixed order. `scratch` is the folder disk
    benchmarks write in (default: ``scratch.scratch_base()``); `interval` the seconds over
    which steal and busy processes are sampled (0: since boot, for a fake tree)."""
    if not isinstance(root, Path):
        raise TypeError(f"root must be a pathlib.Path, got {type(root).__name__}")
    if scratch is not None and not isinstance(scratch, Path):
        raise TypeError(f"scratch must be a pathlib.Path or None, got {type(scratch).__name__}")
    if not isinstance(interval, (int, float)) or isinstance(interval, bool) or not 0 <= interval <= 60:
        raise ValueError(f"interval is seconds between 0 and 60, got {interval!r}")
    if scratch is None:
        from .scratch import scratch_base

        scratch = scratch_base().resolve()
    out: list[Finding] = []
    cpus = cpu_count(root)

    load = load_average(root)
    if load is None:
        out.append(Finding("load", NOTE, "the load average is not shown (/proc/loadavg)"))
    elif load[0] / cpus > LOAD_PER_CPU:
        out.append(Finding(
            "load", WARN,
            f"load average {fmt.num(load[0], 3)} on {fmt.count(cpus, 'CPU')}, {load[1]} tasks runnable now",
            "other work competes for the CPUs: wait for it to end, or measure on a quieter machine; "
            "each figure's noise evidence records how much it took",
        ))  # fmt: skip
    else:
        out.append(Finding("load", OK, f"load average {fmt.num(load[0], 3)} on {fmt.count(cpus, 'CPU')}"))

    steal = _steal_now(root, interval)
    if steal is not None and steal > STEAL:
        out.append(Finding(
            "steal", WARN, f"the hypervisor took {fmt.share(steal, 2)} of the CPU time",
            "the host is overcommitted: CPU figures will be low; measure at a quieter hour or on a dedicated host",
        ))  # fmt: skip
    elif steal is not None:
        out.append(Finding("steal", OK, f"steal {fmt.share(steal, 2)} of the CPU time"))

    busy = busy_processes(root, interval)
    if busy:
        names = ", ".join(f"{n} (pid {p}, {fmt.share(s, 2)} of a CPU)" for n, p, s in busy[:5])
        out.append(Finding("processes", WARN, f"busy besides us: {names}", "stop them, or expect noisier figures"))
    else:
        out.append(Finding("processes", OK, "no other process busy"))

    env = environment(root)
    if env["governor"] is None:
        out.append(Finding("governor", NOTE, "no cpufreq governor shown (usual in a VM): the host sets the frequency"))
    elif env["governor"] != "performance":
        out.append(Finding(
            "governor", WARN, f"the cpufreq governor is {env['governor']}: the frequency follows the load",
            "for steadier figures: cpupower frequency-set -g performance (as root)",
        ))  # fmt: skip
    else:
        out.append(Finding("governor", OK, "the cpufreq governor is performance"))
    boost = _text(root, "sys/devices/system/cpu/cpufreq/boost")
    if env["no_turbo"] is False or (boost or "").strip() == "1":
        out.append(Finding(
            "turbo", NOTE, "turbo is on: a short loop may run faster than a long one",
            "for steadier figures switch it off (intel_pstate/no_turbo = 1, or cpufreq/boost = 0)",
        ))  # fmt: skip

    if env["thp"] == "always":
        out.append(Finding(
            "thp", NOTE, "transparent huge pages: always; memory latencies past the TLB's reach come out lower "
            "than with 4 KiB pages", "the usual setting is madvise; the chapters say which was in force",
        ))  # fmt: skip
    elif env["thp"] is not None:
        out.append(Finding("thp", OK, f"transparent huge pages: {env['thp']}"))

    if env["swap_used"]:
        out.append(Finding(
            "swap", WARN, f"{fmt.size(env['swap_used'])} of swap in use: memory is short",
            "close what holds the memory; a benchmark's pages may be swapped out mid-run",
        ))  # fmt: skip
    elif env["swap_used"] is not None:
        out.append(Finding("swap", OK, "no swap in use"))

    mount = _mount(root, scratch)
    if mount and mount[1] in ("tmpfs", "ramfs"):
        out.append(Finding(
            "scratch", WARN, f"the scratch folder {scratch} is on {mount[1]}: the disk chapters would measure memory",
            "set HOWFAST_SCRATCH to a folder on the disk you want measured",
        ))  # fmt: skip
    elif mount and mount[1] in ("overlay", "nfs", "nfs4", "fuse", "9p", "virtiofs"):
        out.append(Finding(
            "scratch", NOTE, f"the scratch folder {scratch} is on {mount[1]}: another layer between us and the disk",
            "set HOWFAST_SCRATCH to a folder on a local disk for the disk's own figures",
        ))  # fmt: skip
    elif mount:
        out.append(Finding("scratch", OK, f"the scratch folder {scratch} is on {mount[1]} ({mount[0]})"))

    memlock, kernel = _memlock(root), _kernel(root)
    if (
        memlock is not None
        and memlock != -1
        and memlock < MEMLOCK_LOW
        and (kernel is None or kernel < MEMLOCK_FREE_KERNEL)
    ):
        out.append(Finding(
            "memlock", WARN, f"the memlock limit is {fmt.size(memlock)} and this kernel charges io_uring rings to it",
            "raise it (ulimit -l unlimited, or LimitMEMLOCK in a service) or io_uring cases may fail to start",
        ))  # fmt: skip
    elif memlock is not None:
        out.append(Finding("memlock", OK, "the memlock limit does not constrain io_uring here"))

    vm = _virtual(root)
    if vm:
        out.append(Finding(
            "vm", NOTE, f"a virtual machine ({vm}): a shared host can slow any run",
            "each figure keeps its steal and its share of the CPU, so the chapters can say when it did",
        ))  # fmt: skip
    return out


def report(found: list[Finding]) -> str:
    """The findings, one a line, warnings first."""
    order = {WARN: 0, NOTE: 1, OK: 2}
    return "\n".join(f.line() for f in sorted(found, key=lambda f: order.get(f.level, 3)))


checked(globals())
