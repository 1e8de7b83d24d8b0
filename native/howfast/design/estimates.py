"""Napkin math for system design: seed 001's estimates as plain functions.

Sizes are decimal, as the seed writes them (1 PB = 10^15 bytes, 1 MB = 10^6 bytes), and
rates are bytes (or requests) per second. Every function takes None for a figure this
machine could not measure and then returns None, so a sentence built on it reads "n/a"
instead of a made-up number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

from .. import reference
from ..checks import checked
from ..stats import Estimate

KB, MB, GB, TB, PB = 1e3, 1e6, 1e9, 1e12, 1e15
MIB = 2**20
DAY = 86_400.0
YEAR = 365.25 * DAY


def seconds_to_move(size_bytes: float, bytes_per_s: float | None) -> float | None:
    """How long moving `size_bytes` takes at `bytes_per_s`."""
    if size_bytes < 0:
        raise ValueError(f"size_bytes must be at least 0, got {size_bytes}")
    if bytes_per_s is None or bytes_per_s <= 0:
        return None
    return size_bytes / bytes_per_s


def machines_for(demand: float | None, per_machine: float | None) -> int | None:
    """Whole machines that together supply `demand` when each supplies `per_machine`
    (same unit, per second): at least one."""
    if demand is None or per_machine is None or per_machine <= 0:
        return None
    if demand < 0:
        raise ValueError(f"demand must be at least 0, got {demand}")
    return max(1, math.ceil(demand / per_machine))


def cost(machines: int | None, price: float) -> float | None:
    """Dollars for `machines` at `price` each."""
    if price < 0:
        raise ValueError(f"price must be at least 0, got {price}")
    return None if machines is None else machines * price


def per_machine_rate(bytes_per_request: float, bytes_per_s: float | None) -> float | None:
    """Requests per second one machine serves when each must read `bytes_per_request`."""
    if bytes_per_request <= 0:
        raise ValueError(f"bytes_per_request must be positive, got {bytes_per_request}")
    return None if bytes_per_s is None or bytes_per_s <= 0 else bytes_per_s / bytes_per_request


def _seed_row(system: str, quantity: str, machine: str | None) -> dict:
    """The row of seed 001's estimates (data/reference/estimates.csv) for one quantity;
    KeyError naming it when there is none."""
    rows = reference.load("estimates").filter((pl.col("system") == system) & (pl.col("quantity") == quantity))
    if machine is not None:
        rows = rows.filter(pl.col("machine") == machine)
    if rows.height == 0:
        raise KeyError(f"no seed estimate {system}/{quantity}")
    return rows.row(0, named=True)


def seed(system: str, quantity: str, machine: str | None = None) -> float:
    """A figure of seed 001's estimates (data/reference/estimates.csv), in its unit."""
    return float(_seed_row(system, quantity, machine)["value"])


def seed_kind(system: str, quantity: str, machine: str | None = None) -> str:
    """The kind of a seed estimate (``data/reference``'s ``kind``): measured, rounded,
    derived, rated, cited or hypothetical; a hypothetical is never a machine's measurement."""
    return str(_seed_row(system, quantity, machine)["kind"])


def seed_quoted(system: str, quantity: str, machine: str | None = None) -> str:
    """A seed estimate as the seed printed it (``data/reference``'s ``quoted``: '~300MB/s')."""
    return str(_seed_row(system, quantity, machine)["quoted"])


#: The size units of seed 001's estimates (data/reference/estimates.csv's ``unit``), in bytes:
#: decimal, as it writes them.
SIZE_UNITS = {"B": 1.0, "KB": KB, "kB": KB, "MB": MB, "GB": GB, "TB": TB, "PB": PB}


def seed_sizes(system: str, quantity: str, machine: str | None = None) -> tuple[float, ...]:
    """Every figure seed 001 gives for a size (a quantity it gives more than once, such as the
    1 GB, then 100 MB, each Google request scans, in the order it gives them), in bytes;
    KeyError naming the quantity when there is none, ValueError when its unit is not a size."""
    rows = reference.load("estimates").filter((pl.col("system") == system) & (pl.col("quantity") == quantity))
    if machine is not None:
        rows = rows.filter(pl.col("machine") == machine)
    if rows.height == 0:
        raise KeyError(f"no seed estimate {system}/{quantity}")
    units = rows["unit"].to_list()
    wrong = [u for u in units if u not in SIZE_UNITS]
    if wrong:
        raise ValueError(f"seed estimate {system}/{quantity} is not a size: its unit is {wrong[0]!r}")
    return tuple(float(v) * SIZE_UNITS[u] for v, u in zip(rows["value"].to_list(), units))


def size_words(size_bytes: float) -> str:
    """A size in the seed's decimal units, the figure through ``fmt.num`` and the units as
    ``fmt.bytes_per_s`` writes a rate's: 1e9 -> '1 GB', 4e3 -> '4 kB', 1e15 -> '1 PB'."""
    from .. import fmt

    if size_bytes < 0:
        raise ValueError(f"size_bytes must be at least 0, got {size_bytes}")
    x = float(size_bytes)
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if x < 999.5 or unit == "PB":  # 999.5 would round up to '1,000' in the smaller unit
            return f"{fmt.num(x)} {unit}"
        x /= 1000
    raise AssertionError("unreachable")


def duration_words(seconds: float | None) -> str:
    """A long duration in the unit a reader thinks in: '45 s', '18.6 minutes', '3.2 hours',
    '12.9 days', '2.4 years'; 'n/a' when not measured."""
    from .. import fmt

    if seconds is None:
        return fmt.NA
    if seconds < 0:
        raise ValueError(f"cannot format {seconds!r} as a duration")
    for limit, unit, name in ((120, 1, "s"), (7200, 60, "minutes"), (3 * DAY, 3600, "hours"), (730 * DAY, DAY, "days")):
        if seconds < limit:
            return f"{fmt.num(seconds / unit)} {name}"
    return f"{fmt.num(seconds / (365 * DAY))} years"


@dataclass(frozen=True)
class Inputs:
    """What one machine measured, in bytes (or operations) per second; None: not measured."""

    seq_read: float | None  # bytes/s, sequential read
    seq_write: float | None  # bytes/s, sequential durable write
    read_iops: float | None  # random 4 KiB reads/s at queue depth 32
    write_iops: float | None  # random 4 KiB writes/s at queue depth 32
    network: float | None  # bytes/s, one TCP stream
    http: float | None  # hello-world requests/s at a bounded p99 (the open loop's knee)
    http_p99_us: float | None  # the p99 at that rate
    http_best: float | None  # hello-world requests/s, best closed loop
    redis: float | None  # Redis GETs/s
    hashing: float | None  # bytes/s hashed (XXH64, one thread)
    memory: float | None  # bytes/s, sequential memory reads
    compression: float | None = None  # bytes/s of input compressed (zstd -1, one core)
    decompression: float | None = None  # bytes/s of output decompressed (zstd -1, one core)


def ranged(mid: float | None, one: float | None, other: float | None, show=None) -> str:
    """A figure derived from measured inputs with the range it takes over the inputs'
    intervals: '62,041 (51,300–79,300)'; the figure alone where the ends show alike or a
    bound is missing; 'n/a' when not measured. `show` writes a number (``fmt.num``)."""
    from .. import fmt, tables

    show = show or fmt.num
    if mid is None:
        return fmt.NA
    if one is None or other is None:
        return show(mid)
    low, high = show(min(one, other)), show(max(one, other))
    if low == high:
        return show(mid)
    return f"{show(mid)} ({tables.span_text(low, high)})"


def hello_counts(point: dict | None, target: float, best_hi: float | None) -> dict[str, int | None]:
    """Machines for `target` requests per second at a bounded p99, from the open loop's knee
    (``network.report.knee``): `most`, at the highest rate known to keep the tail near the
    lightest load's (the knee is there or above, so no more are needed); `least`, at the
    first rate that clearly failed (`limit`), else at the closed loop's best rate's upper
    end (`best`; no bounded rate can exceed what the server answers at all), with `from`
    naming which. All None when the open loop found no rate."""
    if point is None:
        return {"most": None, "least": None, "from": None}
    most = machines_for(target, point["rate"])
    limit = point.get("limit_rate")
    if limit is not None:
        least, source = machines_for(target, limit), "limit"
    elif best_hi is not None:
        least, source = machines_for(target, best_hi), "best"
    else:
        least, source = None, None
    if least is not None and least > most:  # the closed loop answered less than the open loop was sent
        least = most
    return {"most": most, "least": least, "from": source}


def hello_words(counts: dict[str, int | None], price: float) -> str:
    """'at most 149 copies of itself (at least 11) to serve the load with its tail in check,
    at most 149,000 dollars': how many machines a bounded p99 needs, as the runs bound it."""
    from .. import fmt

    most, least = counts["most"], counts["least"]
    if most is None:
        return (
            "an unknown number of copies of itself to serve the load with its tail in check (the open loop found "
            "no rate that kept it short)"
        )
    head = fmt.count(most, "copy", "copies")
    if least == most:
        return f"{head} of itself to serve the load with its tail in check, {fmt.num(most * price)} dollars"
    if least is None:  # the runs bound the count from above only
        return (
            f"at most {head} of itself to serve the load with its tail in check (the runs give no lower bound), "
            f"at most {fmt.num(most * price)} dollars"
        )
    why = (
        "the first rate offered that clearly failed"
        if counts["from"] == "limit"
        else "its best closed-loop rate, which no bounded rate can pass"
    )
    return (
        f"at most {head} of itself to serve the load with its tail in check, and at least "
        f"{fmt.exact(least)} (counted at {why}): {fmt.num(least * price)} to {fmt.num(most * price)} dollars"
    )


def bounded_cell(counts: dict[str, int | None], show, scale: float = 1.0) -> str:
    """A table cell for ``hello_counts`` (times `scale`, a price for dollars), as the runs bound it:
    'at most 149, at least 11'; 'at most 25' where they give no lower bound; the one figure where
    the two bounds meet; 'n/a' with no rate. `show` writes a number."""
    from .. import fmt

    most, least = counts["most"], counts["least"]
    if most is None:
        return fmt.NA
    if least == most:
        return show(most * scale)
    if least is None:
        return f"at most {show(most * scale)}"
    return f"at most {show(most * scale)}, at least {show(least * scale)}"


def bounded_rate_words(rate: float | None, p99: str) -> str:
    """The sentence naming the hello-world rate at a bounded p99 the estimates use and the
    p99 there (`p99`, already written); '' when the open loop found no such rate (the page
    says so in a sentence of its own)."""
    from .. import fmt

    if rate is None:
        return ""
    return f"The estimates use {fmt.num(rate)} requests per second per machine, at a p99 of {p99}."


def push_words(machines: int | None, one: int | None = None, other: int | None = None) -> str:
    """How many machines at this machine's loopback rate push a bandwidth, with the range over
    that rate's interval (`one`, `other`, the counts at its ends): 'one machine', '3 machines',
    '3 (2–4) machines'; a
    clause of its own when the rate was not measured."""
    from .. import fmt

    if machines is None:
        return "an unknown number of machines (the loopback rate was not measured here)"
    shown = ranged(machines, one, other, lambda x: fmt.exact(int(x)))
    return "one machine" if shown == "1" else f"{shown} machines"


def index_cut_words(
    gb_disk: str,
    mb_disk: str,
    mb_memory: str,
    memory_how: str = "",
    sizes: tuple[str, ...] = ("1 GB", "1 MB"),
) -> str:
    """What an index does to the Google table's machine counts, from the table's own cells:
    each request reading the larger and then the smaller of `sizes` (the seed's, as
    ``size_words`` writes them) from disk (`gb_disk`, `mb_disk`), and the smaller (or a
    third size, the read from memory, where `sizes` gives one) from memory (`mb_memory`, read
    as `memory_how` says, say 'by 2 threads'); 'n/a' cells say what was not measured instead.
    No word for how fast the counts fall: the figures say it."""
    from .. import fmt

    if not (isinstance(sizes, tuple) and len(sizes) in (2, 3) and all(isinstance(x, str) and x for x in sizes)):
        raise TypeError(
            f"sizes must be two or three sizes in words (the larger, the smaller, the read from memory), got {sizes!r}"
        )
    big, small = sizes[:2]
    in_memory = f"that {small}" if len(sizes) == 2 or sizes[2] == small else sizes[2]

    if fmt.NA in (gb_disk, mb_disk):
        disk = "how far it cuts the machines on this machine's disk is not known here (its read rate was not measured)"
    else:
        disk = (
            f"with each request reading {small} instead of {big} from this machine's disk, the machines go from "
            f"{gb_disk} to {mb_disk}"
        )
    how = f" {memory_how}" if memory_how else ""
    memory = (
        "the memory rate was not measured here"
        if mb_memory == fmt.NA
        else f"with {in_memory} read from memory{how}, {mb_memory}"
    )
    return f"An index is what cuts the work: {disk}; {memory}."


def closed_loop_words(best: Estimate | None, bounded: float | None) -> str:
    """Whether the best closed-loop rate (`best`, req/s with its interval) is clearly above
    the rate at a bounded p99 (`bounded`, an offered rate with no spread), by
    ``claims.compare``; '' when either is missing."""
    from .. import claims, fmt

    if best is None or bounded is None or bounded <= 0:
        return ""
    c = claims.compare(best, Estimate.exact(bounded))
    if c.direction == claims.HIGHER:
        return (
            "The best closed-loop rate in the table above is higher, but nobody runs a server at the rate where "
            "requests queue."
        )
    if c.direction == claims.LOWER:
        return (
            f"The best closed-loop rate in the table above is lower here ({fmt.num(best.median)} req/s by its "
            "median): the two loops ran at different moments, and this run cannot say why the closed one answered less."
        )
    return (
        f"The best closed-loop rate in the table above ({fmt.num(best.median)} req/s by its median) is not clearly "
        "higher here: its interval reaches the bounded rate."
    )


# ---- seed 001's systems, recomputed ------------------------------------------------------


def backup(inputs: Inputs, data: float = 1 * PB, nodes: int = 1000) -> dict[str, float | None]:
    """Backing up `data` to one node at its sequential durable write rate, and to `nodes`."""
    one = seconds_to_move(data, inputs.seq_write)
    return {"seconds_one_node": one, "days_one_node": None if one is None else one / DAY,
            "seconds_many_nodes": None if one is None else one / nodes}  # fmt: skip


def hello_world(rate_per_machine: float | None, target: float = 1e6, price: float = 1000.0) -> dict[str, float | None]:
    """Machines (and dollars) to answer `target` hello-world requests per second."""
    n = machines_for(target, rate_per_machine)
    return {"machines": n, "cost": cost(n, price)}


def google_scan(bytes_per_s: float | None, scanned: float, requests_per_s: float = 1e5,
                price: float = 800.0) -> dict[str, float | None]:  # fmt: skip
    """Serving `requests_per_s` when each request reads `scanned` bytes at `bytes_per_s`:
    time per request, requests per machine, machines and dollars."""
    each = seconds_to_move(scanned, bytes_per_s)
    per = per_machine_rate(scanned, bytes_per_s)
    n = machines_for(requests_per_s, per)
    return {"seconds_per_request": each, "requests_per_machine": per, "machines": n, "cost": cost(n, price)}


def no_index(bytes_per_s: float | None, corpus: float = 850 * TB, requests_per_s: float = 1e5,
             price: float = 800.0) -> dict[str, float | None]:  # fmt: skip
    """Every request reads the whole corpus: days per request, years of machine time per
    second of requests, and the machines (and dollars) that keeps busy."""
    each = seconds_to_move(corpus, bytes_per_s)
    if each is None:
        return {"days_per_request": None, "years_per_second": None, "machines": None, "cost": None}
    machines = math.ceil(requests_per_s * each)
    return {"days_per_request": each / DAY, "years_per_second": requests_per_s * each / YEAR,
            "machines": machines, "cost": cost(machines, price)}  # fmt: skip


def s3(inputs: Inputs, requests_per_s: float = 1e8, read_share: float = 0.8, size: float = 1 * MB,
       checksums_per_s: float = 4e9, checksum_size: float = 1 * MB) -> dict[str, float | None]:  # fmt: skip
    """Seed 001's S3: reads and writes of `size` bytes, and `checksums_per_s` hashes of
    `checksum_size` bytes, as machines per resource."""
    if not 0 <= read_share <= 1:
        raise ValueError(f"read_share must be between 0 and 1, got {read_share}")
    reads = requests_per_s * read_share * size
    writes = requests_per_s * (1 - read_share) * size
    return {
        "read_bytes_per_s": reads,
        "write_bytes_per_s": writes,
        "disk_read_machines": machines_for(reads, inputs.seq_read),
        "disk_write_machines": machines_for(writes, inputs.seq_write),
        "network_machines": machines_for(reads + writes, inputs.network),
        "hash_bytes_per_s": checksums_per_s * checksum_size,
        "hash_machines": machines_for(checksums_per_s * checksum_size, inputs.hashing),
    }


def laptop_fio_write(fsync: bool) -> float:
    """Seed 001's laptop's fio sequential write in MB/s (1 MiB blocks, 8 jobs), with an
    fsync after each write or without (data/reference/disk_fio_parallel.csv)."""
    job = "sync sequential write + fsync" if fsync else "sync sequential write - fsync"
    rows = reference.load("disk_fio_parallel").filter(
        (pl.col("machine") == "laptop") & (pl.col("job") == job) & (pl.col("metric") == "mb_per_s")
    )
    if rows.height != 1:
        raise KeyError(f"expected one laptop row for {job!r}, found {rows.height}")
    return float(rows["value"][0])


def hash_rerun_words(hash_machines: int | None, rerun: tuple[int, object] | None) -> str:
    """What the hashing chapter's second run of the same XXH64 loop says of the hashing
    count (``measured.hash_rerun``): that there was none (never ''); the count at the rerun's ratio
    where the rerun was faster or slower, worded by how far its intervals part (``claims.again_words``:
    'clearly', '' or 'slightly'); the ratio alone otherwise."""
    from .. import claims, fmt

    none = "The hashing chapter has no second run of the same loop at a size the sweep measured, so the count stands."
    if rerun is None or hash_machines is None:
        return none
    size, c = rerun
    if c.direction == claims.MISSING or not c.ratio:
        return none
    head = f"The hashing chapter ran the same loop again later, beside xxhsum on {fmt.size_adjective(size)} blocks:"
    ratio = claims.ratio_interval(c)
    if c.direction in (claims.LOWER, claims.HIGHER):
        again = claims.again_words(c, higher="faster", lower="slower")  # 'clearly', '' or 'slightly' by the gap
        return (
            f"{head} against the size sweep's rate there, it ran {again}, and at that ratio the count would be about "
            f"{fmt.num(hash_machines / c.ratio)}."
        )
    if c.direction == claims.SAME_WORD:
        return f"{head} it ran at about the same rate as the size sweep there ({ratio}), so the count stands."
    return (
        f"{head} it ran at {ratio} the size sweep's rate there; the intervals overlap, so the count stands as measured."
    )


def checksum_words(
    hash_machines: int | None,
    disk_machines: int | None,
    network_machines: int | None,
    requests_bytes_per_s: float,
    checksum_bytes_per_s: float,
    hash_range: tuple[int, int] | None = None,
    disk_range: tuple[int, int] | None = None,
    network_range: tuple[int, int] | None = None,
) -> str:
    """Which runs out first on seed 001's S3: the CPU that computes its checksums
    (`checksum_bytes_per_s` to hash), the disk (reads and writes together, as the calculator
    counts them) or the network (left out when not measured); and why the calculator may say
    otherwise: it checksums each request's bytes (`requests_bytes_per_s`) once. A clear winner
    only where one count is more than twice every other; then whether that still holds with
    each count at the end of its range (`hash_range`, `disk_range`, `network_range`: the counts
    over the inputs' intervals) least favourable to it."""
    from .. import fmt

    if hash_machines is None or disk_machines is None:
        return "Without both the hashing rate and the disk's measured here, this page cannot say which runs out first."
    calc = (
        f"The calculator below checksums each request's bytes once ({fmt.num(requests_bytes_per_s / TB)} TB/s, "
        f"against the {fmt.num(checksum_bytes_per_s / TB)} TB/s S3's checksums hash), so its bottleneck need not "
        "be this one."
    )
    # (who runs out, how the sentence names its count, machines, range)
    counts = [
        ("the CPU", "the hashing count", hash_machines, hash_range),
        ("the disk", f"the {fmt.exact(disk_machines)} the disk needs for reads and writes together", disk_machines,
         disk_range),
    ]  # fmt: skip
    if network_machines is not None:
        counts.append(("the network", f"the {fmt.exact(network_machines)} the network needs", network_machines,
                       network_range))  # fmt: skip
    top = max(counts, key=lambda c: c[2])
    others = [c for c in counts if c is not top]
    beside = " and ".join(c[1] for c in counts[1:])  # at most two (fmt.listed reads '84,350' as a list)
    if top[2] <= 2 * max(c[2] for c in others):
        many = "three" if len(counts) == 3 else "two"
        return (
            f"Beside {beside}, no count is more than twice every other by the medians: the {many} are too close "
            f"to say which runs out first. {calc}"
        )
    if top is counts[0]:
        verdict = f"That is more than twice {beside}: counted at S3's checksum rate, the CPU runs out first"
    else:
        verdict = (
            f"Beside that, {top[1]} is more than twice {' and '.join(c[1] for c in others)}: even at S3's checksum "
            f"rate, {top[0]} runs out first"
        )
    ranges = [c[3] for c in counts if c[3] is not None]
    if not ranges:
        return f"{verdict}. {calc}"
    lowest = min(top[3]) if top[3] is not None else top[2]
    highest = max(max(c[3]) if c[3] is not None else c[2] for c in others)
    moved = [name for name, r in (("disk", disk_range), ("network", network_range if network_machines else None))
             if r is not None]  # fmt: skip
    over = (
        "the inputs' intervals"
        if hash_range is not None and moved
        else "the network rate's interval (hashing at its median)"
        if moved == ["network"]
        else f"the {' and '.join(moved)} rates' intervals (hashing at its median)"
        if moved
        else "the hashing rate's interval"
    )
    if lowest > 2 * highest:
        return f"{verdict}, and it does across {over}. {calc}"
    return (
        f"{verdict} by the medians, but not across {over}: within them it comes within a factor of two of "
        f"another count, so that order is not settled here. {calc}"
    )


checked(globals())
