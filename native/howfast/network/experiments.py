"""The network subject's experiments: TCP over loopback (bulk streams, request/response),
our HTTP server under our load generator (closed loop across connection counts, then open
loop across offered rates), and a real Redis (the redis-benchmark suite, redis-py round
trips, client scaling), with the cross-checks of ``crosscheck``.

``measure`` runs every experiment through ``bench.run`` in one scratch directory and
hands each to the results store; the native loops are ``native/src/network/``. Every
server here is started by the case that measures it and stopped before it returns.
"""

from __future__ import annotations

import math
import os

import polars as pl

from .. import _native, capabilities
from ..bench import Case, Outcome, Run, Unsupported, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from ..store import Writer
from . import crosscheck, servers
from . import redis as rd

#: The shape of what this subject stores; bump it when its cases, ids or metrics change.
SCHEMA = 2

TCP_BULK = "tcp_bulk"
TCP_PING_PONG = "tcp_ping_pong"
TCP_BULK_SEED_SIZE = "tcp_bulk_seed_size"
HTTP_CLOSED = "http_closed"
HTTP_OPEN = "http_open"
REDIS_SUITE = "redis_suite"
REDIS_PY = "redis_py"
REDIS_SCALING = "redis_scaling"
MEMCACHED_SCALING = "memcached_scaling"
HTTP_MODES = "http_modes"

#: memcached's text protocol, a 3-byte value as redis-benchmark's default: each request
#: and the exact reply it must get (``_native.request_load`` checks every byte).
MEMCACHED_KEY = b"key:howfast"
MEMCACHED_VALUE = b"xxx"
MEMCACHED_REQUESTS = {
    "GET": (
        b"get " + MEMCACHED_KEY + b"\r\n",
        b"VALUE " + MEMCACHED_KEY + b" 0 3\r\n" + MEMCACHED_VALUE + b"\r\nEND\r\n",
    ),
    "SET": (b"set " + MEMCACHED_KEY + b" 0 0 3\r\n" + MEMCACHED_VALUE + b"\r\n", b"STORED\r\n"),
}

#: redis-benchmark threads in the scaling experiment (see ``measure_scaling``).
BENCHMARK_THREADS = 1

LATENCY_KEYS = {
    "p50": "p50_ns",
    "p90": "p90_ns",
    "p99": "p99_ns",
    "p99.9": "p999_ns",
    "max": "max_ns",
    "mean": "mean_ns",
}


def latency_from(hist: dict) -> dict[str, tuple[float, str]]:
    """Percentiles (µs) of a native latency histogram."""
    return {name: (float(hist[key]) / 1e3, "us") for name, key in LATENCY_KEYS.items()}


def measure_bulk(case: Case, scratch: Scratch) -> Outcome:
    """One repetition of TCP bulk: ``streams`` connections streaming large writes."""
    r = _native.tcp_bulk(case["streams"], case["seconds"], write_size=case["write_size"])
    if r["bytes_received"] != r["bytes_sent"]:
        raise RuntimeError(f"TCP lost bytes: sent {r['bytes_sent']}, received {r['bytes_received']}")
    seconds = r["elapsed_ns"] / 1e9
    return Outcome({"gbit_per_s": (r["bytes_received"] * 8 / seconds / 1e9, "Gbit/s"), "seconds": (seconds, "s")})


def measure_ping_pong(case: Case, scratch: Scratch) -> Outcome:
    """One repetition of TCP request/response: ``connections`` ping-pongs on one epoll loop."""
    r = _native.tcp_ping_pong(case["connections"], case["seconds"], message_size=case["message_size"])
    metrics = latency_from(r["latency"])
    metrics["round_trips_per_s"] = (r["round_trips"] / (r["elapsed_ns"] / 1e9), "round trips/s")
    return Outcome(metrics)


def load_metrics(r: dict, offered: float | None = None) -> dict[str, tuple[float, str]]:
    """requests/s, transfer, errors and latency percentiles of one load generator run."""
    seconds = r["elapsed_ns"] / 1e9
    metrics = latency_from(r["latency"])
    metrics["req_per_s"] = (r["requests"] / seconds if seconds > 0 else 0.0, "req/s")
    metrics["mb_per_s"] = (r["bytes"] / seconds / 1e6 if seconds > 0 else 0.0, "MB/s")
    metrics["errors"] = (float(r["errors"]), "errors")
    metrics["requests"] = (float(r["requests"]), "requests")
    if offered is not None:
        metrics["sent_per_s"] = (r["sent"] / (r["send_window_ns"] / 1e9), "req/s")
    return metrics


def measure_http(case: Case, scratch: Scratch) -> Outcome:
    """One repetition against our HTTP server, started for it: closed loop when ``rate``
    is 0, else open loop at ``rate``. Checks that the server answered what we counted."""
    with _native.HttpServer(threads=case["server_threads"]) as server:
        r = _native.http_load(
            server.port,
            case["connections"],
            case["seconds"],
            threads=case["load_threads"],
            rate=case["rate"],
            grace=case["grace"],
        )
        served = server.served
    if r["errors"] == 0 and served != r["requests"]:
        raise RuntimeError(f"the server answered {served} requests, the load generator counted {r['requests']}")
    return Outcome(load_metrics(r, offered=case["rate"] or None))


def bulk_cases(profile: Profile) -> list[dict]:
    p = profile.network
    return [{"streams": s, "seconds": p.bulk_seconds, "write_size": p.bulk_write_size} for s in p.bulk_streams]


def seed_size_cases(profile: Profile) -> list[dict]:
    """One stream of writes the size of seed 000's TCP operation (its Gbit/s over its
    operations/s, from the reference data): the bulk run to set beside its line."""
    from .report import seed_tcp

    per_op = seed_tcp()["bytes_per_op"]
    if per_op is None:
        return []
    return [{"streams": 1, "seconds": profile.network.bulk_seconds, "write_size": round(per_op)}]


def measure_bulk_ops(case: Case, scratch: Scratch) -> Outcome:
    """TCP bulk as ``measure_bulk``, also counted in writes per second."""
    got = measure_bulk(case, scratch).metrics
    gbit = got["gbit_per_s"][0]
    return Outcome(got | {"ops_per_s": (gbit * 1e9 / 8 / case["write_size"], "writes/s")})


def ping_pong_cases(profile: Profile) -> list[dict]:
    p = profile.network
    return [{"connections": c, "seconds": p.ping_seconds, "message_size": p.ping_message} for c in p.ping_connections]


def _http_case(profile: Profile, connections: int, seconds: float, rate: float, share: float) -> dict:
    p = profile.network
    return {
        "connections": connections,
        "share": share,
        "rate": rate,
        "seconds": seconds,
        "load_threads": p.load_threads,
        "server_threads": p.server_threads or (os.cpu_count() or 1),
        "grace": p.grace_seconds,
    }


def closed_cases(profile: Profile) -> list[dict]:
    p = profile.network
    return [_http_case(profile, c, p.http_seconds, 0.0, 0.0) for c in p.http_connections]


def open_cases(profile: Profile, capacity: float) -> list[dict]:
    """Offered rates as shares of `capacity` (the closed loop's best req/s here)."""
    p = profile.network
    return [
        _http_case(profile, p.open_connections, p.open_seconds, round(capacity * share), share)
        for share in p.open_shares
    ]


def best_closed_rate(closed: Run) -> float:
    """The closed loop's highest median req/s over connection counts."""
    rows = closed.metrics.filter(pl.col("metric") == "req_per_s")
    if rows.height == 0:
        raise RuntimeError("the closed loop measured nothing to size the open loop on")
    return float(rows.group_by("connections").agg(pl.col("value").median())["value"].max())


# ---- Redis ----------------------------------------------------------------------------


def suite_cases(profile: Profile) -> list[dict]:
    p = profile.network
    return [{"test": t, "clients": p.redis_clients, "min_seconds": p.redis_min_seconds} for t in p.redis_suite]


def _benchmark_metrics(row: dict[str, float]) -> dict[str, tuple[float, str]]:
    if not math.isfinite(row["rps"]) or row["rps"] <= 0:
        # it divides by its run time in whole milliseconds: a run under 1 ms reads "inf"
        raise Unsupported(f"redis-benchmark's run was too short to time (it printed {row['rps']} req/s)")
    return {
        "req_per_s": (row["rps"], "req/s"),
        # how long the measured run lasted (``redis.sized_benchmark``), and its size
        "run_seconds": (row.get("seconds", 0.0), "s"),
        "requests": (row.get("requests", 0.0), "requests"),
        "mean": (row["avg_latency_ms"] * 1e3, "us"),
        "p50": (row["p50_latency_ms"] * 1e3, "us"),
        "p99": (row["p99_latency_ms"] * 1e3, "us"),
        "max": (row["max_latency_ms"] * 1e3, "us"),
    }


def measure_suite(case: Case, scratch: Scratch) -> Outcome:
    """One redis-benchmark test against a Redis started for it."""
    with rd.RedisServer(scratch.path / "redis") as server:
        row = rd.sized_benchmark(
            server.port,
            case["test"],
            clients=case["clients"],
            min_seconds=case["min_seconds"],
            password=server.password,
        )
        if not server.alive():
            raise RuntimeError("redis-server exited during the benchmark")
    return Outcome(_benchmark_metrics(row))


def redis_py_cases(profile: Profile) -> list[dict]:
    p = profile.network
    return [
        {"client": client, "pipeline": n, "commands": p.py_commands, "min_seconds": p.redis_min_seconds}
        for n in p.py_pipelines
        for client in ("redis-py", "redis-benchmark")
    ]


def measure_redis_py(case: Case, scratch: Scratch) -> Outcome:
    """GETs on one connection, pipelines of ``pipeline``: through redis-py, or through
    redis-benchmark (C) as the yardstick; redis-py's row also times packing a command."""
    with rd.RedisServer(scratch.path / "redis") as server:
        if case["client"] == "redis-py":
            got = rd.redis_py_round_trips(server.port, case["commands"], case["pipeline"], password=server.password)
            ops = got["ops_per_s"]
            metrics = {"ops_per_s": (ops, "commands/s"), "us_per_op": (1e6 / ops, "us")}
            metrics["pack_us"] = (rd.packing_cost(min(case["commands"], 20000)) * 1e6, "us")
            return Outcome(metrics)
        # sized to last min_seconds: redis-benchmark times its run in whole milliseconds
        row = rd.sized_benchmark(
            server.port,
            "get",
            clients=1,
            min_seconds=case["min_seconds"],
            pipeline=case["pipeline"],
            threads=1,
            password=server.password,
        )
    ops = _benchmark_metrics(row)["req_per_s"][0]
    return Outcome({"ops_per_s": (ops, "commands/s"), "us_per_op": (1e6 / ops, "us"), "pack_us": (0.0, "us")})


def scaling_cases(profile: Profile) -> list[dict]:
    p = profile.network
    return [
        {"io_threads": io, "clients": c, "op": op, "min_seconds": p.redis_min_seconds}
        for io in p.scaling_io_threads
        for c in p.scaling_clients
        for op in ("GET", "SET")
    ]


def measure_scaling(case: Case, scratch: Scratch) -> Outcome:
    """redis-benchmark -t get|set with ``clients`` clients, Redis io-threads as the case
    says. Seed 004 gave redis-benchmark as many threads as clients on 16 vCPUs; on a
    machine this small its extra threads only compete with the server for the cores
    (``BENCHMARK_THREADS``)."""
    with rd.RedisServer(scratch.path / "redis", io_threads=case["io_threads"]) as server:
        row = rd.sized_benchmark(
            server.port,
            case["op"].lower(),
            clients=case["clients"],
            min_seconds=case["min_seconds"],
            threads=BENCHMARK_THREADS,
            password=server.password,
        )
    return Outcome(_benchmark_metrics(row))


def mode_cases(profile: Profile) -> list[dict]:
    """Our server's two modes, epoll and io_uring, closed loop at the servers' connection counts."""
    p = profile.network
    return [
        {"mode": mode, "connections": c, "seconds": p.crosscheck_seconds, "load_threads": p.load_threads,
         "server_threads": p.server_threads or (os.cpu_count() or 1), "grace": p.grace_seconds}
        for c in p.server_connections
        for mode in ("epoll", "io_uring")
    ]  # fmt: skip


def measure_mode(case: Case, scratch: Scratch) -> Outcome:
    """One closed-loop run against our server in ``mode``; the same checks as ``measure_http``."""
    if case["mode"] == "io_uring":
        can = capabilities.io_uring()  # HOWFAST_DISABLE_IO_URING, or a kernel or build without it
        if not can.supported:
            raise Unsupported(can.reason)
    try:
        server = _native.HttpServer(threads=case["server_threads"], mode=case["mode"])
    except OSError as error:  # what the kernel (or the build) lacks, in its words
        raise Unsupported(f"our io_uring server cannot run here: {error}") from error
    with server:
        r = _native.http_load(
            server.port, case["connections"], case["seconds"], threads=case["load_threads"], grace=case["grace"]
        )
        served = server.served
    if r["errors"] == 0 and served != r["requests"]:
        raise RuntimeError(f"the server answered {served} requests, the load generator counted {r['requests']}")
    return Outcome(load_metrics(r))


def memcached_cases(profile: Profile) -> list[dict]:
    p = profile.network
    threads = p.server_threads or (os.cpu_count() or 1)
    return [
        {"clients": c, "op": op, "threads": threads, "seconds": p.redis_min_seconds}
        for c in p.scaling_clients
        for op in ("GET", "SET")
    ]


def measure_memcached(case: Case, scratch: Scratch) -> Outcome:
    """GET or SET of one 3-byte value with ``clients`` connections, closed loop, as
    redis-benchmark drives Redis: each client sends its next request when the answer is
    in. The client is ours (``_native.request_load``, C++ on one epoll thread, as
    redis-benchmark runs on one): a Python client (pymemcache) would time Python."""
    request, reply = MEMCACHED_REQUESTS[case["op"]]
    with servers.Memcached(scratch, case["threads"]) as server:
        stored = servers.memcached_says(server.port, MEMCACHED_REQUESTS["SET"][0], timeout=5)
        if stored != b"STORED\r\n":
            raise RuntimeError(f"memcached did not store the key: {stored!r:.80}")
        r = _native.request_load(server.port, case["clients"], case["seconds"], request, reply)
        if not server.alive():
            raise RuntimeError("memcached exited during the run")
    seconds = r["elapsed_ns"] / 1e9
    metrics = latency_from(r["latency"])
    metrics["req_per_s"] = (r["requests"] / seconds if seconds > 0 else 0.0, "req/s")
    metrics["run_seconds"] = (seconds, "s")
    return Outcome(metrics)


def measure(profile: Profile, out: Writer) -> None:
    """The subject's experiments in one scratch dir, each handed to `out`."""
    with Scratch(need_bytes=64 * 1024 * 1024) as scratch:
        out.record_facts(scratch.path)
        out.details["redis_server"] = str(rd.server_binary() or "not found")
        out.details["redis_server_version"] = rd.server_version()
        out.details["redis_benchmark_version"] = rd.benchmark_version()
        out.details["redis_py_version"] = _redis_py_version()
        out.details["wrk_version"] = crosscheck.wrk_version()
        out.details["iperf3_version"] = crosscheck.iperf3_version()
        out.details["cpus"] = os.cpu_count()
        # what else wanted the CPUs: every client and server here shares them with it
        out.details["load_average_start"] = os.getloadavg()[0]
        out.add(run(TCP_BULK, bulk_cases(profile), measure_bulk, scratch=scratch))
        out.add(run(TCP_PING_PONG, ping_pong_cases(profile), measure_ping_pong, scratch=scratch))
        out.add(run(TCP_BULK_SEED_SIZE, seed_size_cases(profile), measure_bulk_ops, scratch=scratch))
        closed = run(HTTP_CLOSED, closed_cases(profile), measure_http, scratch=scratch)
        out.add(closed)
        open_run = run(HTTP_OPEN, open_cases(profile, best_closed_rate(closed)), measure_http, scratch=scratch)
        out.add(open_run)
        out.add(run(REDIS_SUITE, suite_cases(profile), measure_suite, scratch=scratch))
        out.add(run(REDIS_PY, redis_py_cases(profile), measure_redis_py, scratch=scratch))
        out.add(run(REDIS_SCALING, scaling_cases(profile), measure_scaling, scratch=scratch))
        out.details["memcached"] = str(servers.memcached_binary() or "not found")
        out.details["memcached_version"] = servers.memcached_version()
        out.add(run(MEMCACHED_SCALING, memcached_cases(profile), measure_memcached, scratch=scratch))
        out.add(crosscheck.versus_wrk(profile, scratch))
        out.details["nginx"] = str(servers.nginx_binary() or "not found")
        out.details["nginx_version"] = servers.nginx_version()
        out.details["go_version"] = servers.go_version()
        out.add(crosscheck.versus_nginx(profile, scratch, _knee_rate(open_run)))
        out.add(crosscheck.versus_go(profile, scratch))
        out.add(run(HTTP_MODES, mode_cases(profile), measure_mode, scratch=scratch, alternate=True))
        out.add(crosscheck.versus_iperf3(profile, scratch))
        out.details["load_average_end"] = os.getloadavg()[0]


def _knee_rate(open_run: Run) -> float | None:
    """The open loop's knee (``report.knee``): the rate nginx is compared at."""
    from .report import knee

    point = knee(open_run.metrics)
    return None if point is None else float(point["rate"])


def _redis_py_version() -> str | None:
    try:
        import redis
    except ImportError:
        return None
    return redis.__version__


# every public function above refuses bad arguments with a clear exception
checked(globals())
