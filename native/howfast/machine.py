"""Facts about the machine and the filesystem a run measured.

A number means little without the hardware behind it: fsync on tmpfs is not fsync on
NVMe. ``facts(directory)`` answers what CPU, memory, kernel, filesystem and block
device stand behind `directory`, and whether io_uring and O_DIRECT work there.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import socket
from pathlib import Path
from typing import Any

import polars as pl

from . import capabilities
from .checks import checked
from .claims import Cache, sharing


def _read(path: str | Path, default: str = "") -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return default


def cpu_model() -> str:
    for line in _read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def hypervisor() -> str:
    flags = next((line for line in _read("/proc/cpuinfo").splitlines() if line.startswith("flags")), "")
    if " hypervisor" not in flags:
        return "none detected"
    vendor = _read("/sys/class/dmi/id/sys_vendor")
    return f"yes ({vendor})" if vendor else "yes"


def cache_sizes() -> dict[str, str]:
    """Per-core cache sizes of cpu0, e.g. {'L1d': '48K', 'L2': '1024K', 'L3': '32768K'}."""
    sizes: dict[str, str] = {}
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        level = _read(index / "level")
        kind = _read(index / "type")
        suffix = {"Data": "d", "Instruction": "i"}.get(kind, "")
        if level:
            sizes[f"L{level}{suffix}"] = _read(index / "size")
    return sizes


def _size_bytes(text: str) -> int | None:
    match = re.fullmatch(r"(\d+)([KMG]?)", text.strip())
    if not match:
        return None
    return int(match.group(1)) * {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}[match.group(2)]


def _cpu_count(cpu_list: str) -> int:
    """'0-3,8' -> 5."""
    total = 0
    for part in cpu_list.split(","):
        lo, _, hi = part.strip().partition("-")
        if lo.isdigit():
            total += int(hi) - int(lo) + 1 if hi.isdigit() else 1
    return total


def cache_topology(cpu: str | Path = "/sys/devices/system/cpu/cpu0") -> list[Cache]:
    """The caches cpu0 sees, as the kernel reports them: level and kind, size of one
    instance, and how many logical CPUs share it (an L3 is usually shared)."""
    found = []
    for index in sorted(Path(cpu, "cache").glob("index*")):
        level, kind = _read(index / "level"), _read(index / "type")
        size = _size_bytes(_read(index / "size"))
        if not level or size is None:
            continue
        suffix = {"Data": "d", "Instruction": "i"}.get(kind, "")
        shared = _cpu_count(_read(index / "shared_cpu_list")) or 1
        found.append(Cache(f"L{level}{suffix}", size, shared))
    return found


def caches(f: dict[str, Any]) -> list[Cache]:
    """The cache topology recorded with a stored set's facts (the machine that measured,
    not the one rendering); an empty list for a set recorded before topologies were."""
    if not isinstance(f, dict):
        raise TypeError(f"f must be a machine's facts (a dict), got {type(f).__name__}")
    levels = f.get("cache_levels") or []
    return [Cache(str(c["name"]), int(c["size"]), int(c["shared_by"])) for c in levels]


def topology_words(caches: list[Cache], *, virtual: bool = False) -> str:
    """'L1d 32 KiB, L2 1 MiB (one per core); L3 32 MiB (shared by 2 CPUs)'; with
    `virtual` (``virtual(facts)``) a shared cache as a guest sees it
    (``claims.sharing``): 'L3 32 MiB (shared by this VM's 2 CPUs and, on the host,
    perhaps by others)'."""
    if not caches:
        return "not reported"
    data = [c for c in caches if not c.name.endswith("i")]
    return "; ".join(f"{c.name} {size_words(c.size)} ({sharing(c, virtual=virtual)})" for c in data)


def virtual(f: dict[str, Any]) -> bool:
    """Whether a set's facts show a virtual machine (``hypervisor()`` recorded 'yes' or
    'yes (vendor)'); False for 'none detected' and for a set that recorded nothing."""
    if not isinstance(f, dict):
        raise TypeError(f"f must be a machine's facts (a dict), got {type(f).__name__}")
    return str(f.get("hypervisor") or "").startswith("yes")


def recorded_topology_words(f: dict[str, Any]) -> str:
    """The cache topology a set's facts recorded, in ``topology_words``' words with the
    sharing told as the measuring machine saw it (a virtual machine's as a guest's); a set
    recorded before cache levels were falls back to its stored words ('unknown' without)."""
    if f.get("cache_levels"):
        return topology_words(caches(f), virtual=virtual(f))
    return str(f.get("cache_topology") or f.get("caches") or "unknown")


def size_words(n: int) -> str:
    from .fmt import size

    return size(n)


def write_cache(name: str, sys_block: str | Path = "/sys/block") -> dict[str, Any]:
    """What the kernel says of a block device's volatile write cache: ``mode`` is
    'write back' (the device acknowledges writes from a cache it must be told to flush:
    fsync sends a flush) or 'write through' (no flush is sent: an acknowledged write is
    as durable as the device will make it), None when not reported; ``fua`` whether
    the device takes forced-unit-access writes."""
    queue = Path(sys_block, name, "queue")
    mode = _read(queue / "write_cache") or None
    fua = _read(queue / "fua")
    return {"mode": mode, "fua": (fua == "1") if fua in ("0", "1") else None}


def write_cache_words(f: dict[str, Any]) -> str:
    """What the write-cache mode means for fsync on this device, for a reader."""
    mode, fua = f.get("write_cache"), f.get("fua")
    if not mode:
        return "not reported (no block device, or the kernel does not say)"
    fua_words = "" if fua is None else (", with FUA" if fua else ", without FUA")
    if mode == "write back":
        said = (
            "write back"
            + fua_words
            + ": the device may hold acknowledged writes in a volatile cache, so fsync also sends it a cache flush"
        )
    elif mode == "write through":
        said = (
            "write through"
            + fua_words
            + ": the kernel sends no cache flush, so fsync ends when the device acknowledges the write"
        )
    else:
        said = mode + fua_words
    if "virtual" in str(f.get("device_kind", "")):
        said += (
            "; on a virtual disk the flush goes to the hypervisor, which decides whether it reaches a medium"
            if mode == "write back"
            else "; on a virtual disk the hypervisor decides whether an acknowledged write has reached a medium"
        )
    return said


def transparent_hugepages(path: str | Path = "/sys/kernel/mm/transparent_hugepage/enabled") -> str | None:
    """The kernel's transparent-huge-page mode, the bracketed word of its setting
    ('always', 'madvise' or 'never'); None where the kernel does not say."""
    match = re.search(r"\[(\w+)\]", _read(path))
    return match.group(1) if match else None


def memory_bytes() -> int:
    match = re.search(r"MemTotal:\s+(\d+) kB", _read("/proc/meminfo"))
    return int(match.group(1)) * 1024 if match else 0


def os_name() -> str:
    match = re.search(r'PRETTY_NAME="([^"]+)"', _read("/etc/os-release"))
    return match.group(1) if match else platform.system()


def _mount_of(directory: Path) -> tuple[str, str, str]:
    """(mount point, filesystem type, source) of the mount holding `directory`."""
    st = directory.stat()
    dev = f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
    real = str(directory.resolve())
    best = ("", "unknown", "")
    for line in _read("/proc/self/mountinfo").splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 2 or fields[2] != dev:
            continue
        mount_point = fields[4].replace("\\040", " ")
        inside = real == mount_point or real.startswith(mount_point.rstrip("/") + "/")
        if inside and len(mount_point) > len(best[0]):
            best = (mount_point, tail[0], tail[1])
    return best


def block_device(directory: Path) -> dict[str, Any]:
    """The block device behind `directory`: name, model, rotational, logical block size."""
    st = directory.stat()
    sys_dev = Path(f"/sys/dev/block/{os.major(st.st_dev)}:{os.minor(st.st_dev)}")
    if os.major(st.st_dev) == 0 or not sys_dev.exists():
        return {
            "name": "none (not a block device)",
            "driver": "",
            "model": "",
            "rotational": None,
            "logical_block_size": None,
            "read_ahead_kb": None,
        }
    node = sys_dev.resolve()
    if (node / "partition").exists():
        node = node.parent
    # a model name where the device has one (a virtio disk only has a PCI vendor id)
    model = _read(node / "device" / "model")
    driver_link = node / "device" / "driver"
    driver = driver_link.resolve().name if driver_link.exists() else ""
    rotational = _read(node / "queue" / "rotational")
    block_size = _read(node / "queue" / "logical_block_size")
    read_ahead = _read(node / "queue" / "read_ahead_kb")
    return {
        "read_ahead_kb": int(read_ahead) if read_ahead.isdigit() else None,
        "name": node.name,
        "driver": driver,
        "model": model,
        "rotational": rotational == "1" if rotational else None,
        "logical_block_size": int(block_size) if block_size.isdigit() else None,
    }


#: What a block device is, by its kernel driver (else its name): (kind, virtual?)
_KINDS = {
    "virtio_blk": ("a virtual disk (virtio-blk): the hypervisor decides where its bytes go", True),
    "virtio_scsi": ("a virtual disk (virtio-scsi): the hypervisor decides where its bytes go", True),
    "xen_blkfront": ("a virtual disk (Xen): the hypervisor decides where its bytes go", True),
    "nvme": ("an NVMe drive", False),
    "sd": ("a SCSI or SATA disk", False),
    "mmcblk": ("an SD or eMMC card", False),
    "loop": ("a loop device: a file on another filesystem", True),
    "dm": ("a device-mapper volume (LVM, encryption): over other disks", True),
    "md": ("a software RAID array", True),
    "zram": ("compressed memory (zram)", True),
}


def device_kind(name: str, driver: str) -> str:
    """'a virtual disk (virtio-blk): ...', 'an NVMe drive', ...: what the kernel's driver says."""
    if driver in _KINDS:
        return _KINDS[driver][0]
    for prefix in ("nvme", "mmcblk", "loop", "dm", "md", "zram", "sd"):
        if name.startswith(prefix):
            return _KINDS[prefix][0]
    if name.startswith(("vd", "xvd")):
        return _KINDS["virtio_blk" if name.startswith("vd") else "xen_blkfront"][0]
    return "not a block device" if not driver and "none" in name else f"a block device (driver {driver or 'unknown'})"


def rotational_words(f: dict[str, Any]) -> str:
    """What the kernel's rotational flag says, and how far to trust it here."""
    flag = f.get("rotational")
    if flag is None:
        return "not reported"
    said = "1 (a spinning disk, says the kernel)" if flag else "0 (not spinning, says the kernel)"
    kind = str(f.get("device_kind", ""))
    if "virtual" in kind or "hypervisor" in kind or "loop" in kind:
        return said + "; a virtual disk reports whatever the hypervisor chose, so this says nothing about the medium"
    return said


def disk_words(f: dict[str, Any]) -> str:
    """'vda, a virtual disk (virtio-blk): the hypervisor decides where its bytes go'."""
    kind = f.get("device_kind") or device_kind(str(f.get("block_device", "")), str(f.get("device_driver", "")))
    model = f" (model {f['device_model']})" if f.get("device_model") else ""
    return f"{f.get('block_device', 'unknown')}{model}, {kind}"


def machine_id() -> str:
    """``$HOWFAST_MACHINE``, else the host name, as a directory-safe slug."""
    raw = os.environ.get("HOWFAST_MACHINE") or socket.gethostname() or "machine"
    # letters of any script are kept (élan stays élan, not lan); separators become '-'
    slug = re.sub(r"[^\w.-]+", "-", raw).strip("-.")[:64].strip("-.")  # a folder name: at most 64 characters
    return slug or "machine"


def facts(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """Everything a reader needs to judge a number measured in `directory`."""
    where = Path(directory)
    if not where.is_dir():
        raise ValueError(f"directory {str(where)!r} does not exist")
    mount_point, fs_type, source = _mount_of(where)
    device = block_device(where)
    uring = capabilities.io_uring()
    direct = capabilities.direct_io(where)
    caches = cache_sizes()
    cached = {} if device["name"].startswith("none") else write_cache(device["name"])
    return {
        "machine": machine_id(),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "cpu_model": cpu_model(),
        "logical_cpus": os.cpu_count() or 0,
        "hypervisor": hypervisor(),
        "caches": ", ".join(f"{k} {v}" for k, v in caches.items()),
        "cache_topology": topology_words(cache_topology()),
        "cache_levels": [{"name": c.name, "size": c.size, "shared_by": c.shared_by} for c in cache_topology()],
        "memory_bytes": memory_bytes(),
        "page_size": os.sysconf("SC_PAGE_SIZE"),
        "transparent_hugepages": transparent_hugepages(),
        "os": os_name(),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "scratch_dir": str(where),
        "filesystem": fs_type,
        "mount_point": mount_point,
        "mount_source": source,
        "block_device": device["name"],
        "device_driver": device["driver"],
        "device_kind": device_kind(device["name"], device["driver"]),
        "device_model": device["model"],
        "rotational": device["rotational"],
        "logical_block_size": device["logical_block_size"],
        "write_cache": cached.get("mode"),
        "fua": cached.get("fua"),
        "read_ahead_kb": device["read_ahead_kb"],
        "io_uring": uring.supported,
        "io_uring_reason": uring.reason,
        "o_direct": direct.supported,
        "o_direct_reason": direct.reason,
    }


_LABELS = {
    "machine": "Machine",
    "cpu_model": "CPU",
    "logical_cpus": "Logical CPUs",
    "hypervisor": "Virtual machine",
    "cache_topology": "Caches (size of one, who shares it)",
    "memory_bytes": "Memory",
    "os": "Operating system",
    "kernel": "Kernel",
    "filesystem": "Filesystem measured",
    "mount_point": "Mount point",
    "block_device": "Block device",
    "device_model": "Device model",
    "rotational": "Rotational flag",
    "write_cache": "Write cache",
    "logical_block_size": "Logical block size",
    "read_ahead_kb": "Read-ahead",
    "io_uring": "io_uring",
    "o_direct": "O_DIRECT",
    "date": "Facts read (UTC)",
}


def facts_table(f: dict[str, Any]) -> pl.DataFrame:
    """The facts as a two-column table for the book."""

    def show(key: str) -> str:
        value = f.get(key)
        if key == "memory_bytes":
            return f"{value / 2**30:.1f} GiB"
        if key in ("io_uring", "o_direct"):
            return ("yes — " if value else "no — ") + str(f.get(f"{key}_reason", ""))
        if key == "logical_block_size" and value:
            return f"{value} bytes"
        if key == "read_ahead_kb" and value is not None:
            return f"{value} KiB"
        if key == "rotational":
            return rotational_words(f)
        if key == "write_cache":
            return write_cache_words(f)
        if key == "cache_topology":
            return recorded_topology_words(f)
        if key == "block_device":
            return disk_words(f)
        if key == "device_model":
            return str(value) if value else "not reported by this device"
        return str(value) if value not in (None, "") else "unknown"

    return pl.DataFrame({"fact": list(_LABELS.values()), "value": [show(k) for k in _LABELS]})


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
