"""The network subject's settings: every duration, count and size its experiments use,
quick, full and smoke side by side. The one place to change them."""

from __future__ import annotations

from dataclasses import dataclass

MiB = 1024 * 1024

#: The redis-benchmark suite of seed 000 (its test names, as ``-t`` takes them).
REDIS_SUITE = (
    "ping_inline",
    "ping_mbulk",
    "set",
    "get",
    "incr",
    "lpush",
    "rpush",
    "lpop",
    "rpop",
    "sadd",
    "hset",
    "spop",
    "zadd",
    "zpopmin",
    "lrange_100",
    "lrange_300",
    "lrange_500",
    "lrange_600",
    "mset",
)


@dataclass(frozen=True)
class Plan:
    """Sizes for the networks chapter."""

    bulk_streams: tuple[int, ...]  # TCP streams in parallel
    bulk_seconds: float
    bulk_write_size: int
    ping_connections: tuple[int, ...]  # TCP request/response, connections on one epoll loop
    ping_seconds: float
    ping_message: int  # bytes per message
    http_connections: tuple[int, ...]  # closed loop against our server
    http_seconds: float
    load_threads: int  # load generator threads
    server_threads: int  # 0: one per core
    open_connections: int  # open loop: connections carrying the offered rate
    open_shares: tuple[float, ...]  # offered rates as shares of the closed loop's best
    open_seconds: float
    grace_seconds: float  # wait for answers still owed after a run
    redis_clients: int  # the redis-benchmark suite, as seed 000
    redis_suite: tuple[str, ...]
    py_pipelines: tuple[int, ...]  # redis-py round trips, commands per pipeline
    py_commands: int  # commands per repetition and pipeline size
    scaling_clients: tuple[int, ...]  # seed 004's client counts
    scaling_io_threads: tuple[int, ...]  # Redis io-threads: 1 is off
    crosscheck_seconds: float
    crosscheck_connections: int
    server_connections: tuple[int, ...]  # ours beside nginx and Go, closed loop
    redis_min_seconds: float  # each redis-benchmark test is sized to last at least this


QUICK = Plan(
    bulk_streams=(1, 2, 4),
    bulk_seconds=0.3,
    bulk_write_size=1 * MiB,
    ping_connections=(1, 4, 16, 64),
    ping_seconds=0.3,
    ping_message=64,
    http_connections=(1, 4, 16, 64, 256),
    http_seconds=0.5,
    load_threads=1,
    server_threads=0,
    open_connections=64,
    open_shares=(0.1, 0.3, 0.5, 0.7, 0.85, 1.0, 1.2),
    open_seconds=0.5,
    grace_seconds=2.0,
    redis_clients=50,
    redis_suite=REDIS_SUITE,
    py_pipelines=(1, 10, 100, 1000),
    py_commands=2000,
    scaling_clients=(1, 2, 5, 10, 20, 40),
    scaling_io_threads=(1, 2),
    crosscheck_seconds=1.0,
    crosscheck_connections=64,
    server_connections=(32, 256),  # 32: as wrk -c32 in issue 22's measurement; 256: seed 000's
    redis_min_seconds=1.0,
)
FULL = Plan(
    bulk_streams=(1, 2, 4, 8),
    bulk_seconds=1.0,
    bulk_write_size=1 * MiB,
    ping_connections=(1, 2, 4, 8, 16, 32, 64, 128),
    ping_seconds=1.0,
    ping_message=64,
    http_connections=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512),
    http_seconds=1.0,
    load_threads=1,
    server_threads=0,
    open_connections=64,
    open_shares=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.0, 1.1, 1.2),
    open_seconds=1.0,
    grace_seconds=5.0,
    redis_clients=50,
    redis_suite=REDIS_SUITE,
    py_pipelines=(1, 10, 100, 1000),
    py_commands=50000,
    scaling_clients=(1, 2, 5, 10, 20, 40),
    scaling_io_threads=(1, 2),
    crosscheck_seconds=1.0,
    crosscheck_connections=256,
    server_connections=(1, 8, 32, 64, 256),
    # each Redis and memcached run lasts at least a second, as on quick: at 2 s these four
    # experiments took 38 of the 65 minutes of this subject's first whole full run
    redis_min_seconds=1.0,
)

#: For the test suite: every code path of the chapter in seconds; its numbers mean nothing.
SMOKE = Plan(
    bulk_streams=(1, 2),
    bulk_seconds=0.1,
    bulk_write_size=256 * 1024,
    ping_connections=(1, 8),
    ping_seconds=0.1,
    ping_message=64,
    http_connections=(1, 16),
    http_seconds=0.15,
    load_threads=1,
    server_threads=0,
    open_connections=16,
    open_shares=(0.2, 0.6, 1.2),
    open_seconds=0.15,
    grace_seconds=1.0,
    redis_clients=50,
    redis_suite=("ping_inline", "set", "get", "lrange_100"),
    py_pipelines=(1, 100),
    py_commands=200,
    scaling_clients=(1, 5),
    scaling_io_threads=(1, 2),
    crosscheck_seconds=0.2,
    crosscheck_connections=16,
    server_connections=(16,),
    redis_min_seconds=0.05,
)
