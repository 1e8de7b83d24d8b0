"""The networks chapter's instruments tell the truth: our HTTP server answers a real
client byte for byte, the load generator counts what the server served, TCP delivers
every byte, the open loop sends at the rate asked, servers never outlive their
experiment (Ctrl-C included), and bad input or a missing or dying server is a clear
error. Everything here talks to 127.0.0.1 only, for well under a second per run."""

from __future__ import annotations

import errno
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from howfast import _native
from howfast.network import redis as rd
from howfast.network import report
from howfast.network.crosscheck import parse_wrk

REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            break
        data += chunk
    return data


# ---- HTTP server ----------------------------------------------------------------------


def test_server_answers_http_client_byte_exactly() -> None:
    with _native.HttpServer(threads=2) as server:
        assert server.running and server.port > 0
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        for _ in range(3):  # keep-alive: one connection, several requests
            conn.request("GET", "/")
            resp = conn.getresponse()
            assert resp.status == 200
            assert resp.getheader("Content-Length") == "13"
            assert resp.read() == b"Hello, World!"
        conn.close()
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(REQUEST * 3)  # pipelined
            assert _read_exactly(s, 3 * len(_native.HELLO_RESPONSE)) == _native.HELLO_RESPONSE * 3
        assert server.served == 6
    assert not server.running


def test_request_split_across_writes_is_answered_once() -> None:
    with _native.HttpServer(threads=1) as server, socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(REQUEST[:10])
        time.sleep(0.05)
        s.sendall(REQUEST[10:])
        assert _read_exactly(s, len(_native.HELLO_RESPONSE)) == _native.HELLO_RESPONSE
        assert server.served == 1


def test_stopped_server_refuses_connections() -> None:
    server = _native.HttpServer(threads=1)
    port = server.port
    server.stop()
    server.stop()  # idempotent
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2)


def test_port_in_use_is_a_clear_error() -> None:
    with _native.HttpServer(threads=1) as first:
        with pytest.raises(OSError, match="in use") as info:
            _native.HttpServer(threads=1, port=first.port)
        assert info.value.errno == errno.EADDRINUSE


# ---- load generator -------------------------------------------------------------------


def test_closed_loop_counts_what_the_server_served() -> None:
    with _native.HttpServer(threads=2) as server:
        r = _native.http_load(server.port, 8, 0.3, threads=2)
        assert r["errors"] == 0
        assert r["requests"] > 100
        assert r["requests"] == r["sent"] == server.served
        assert r["bytes"] == r["requests"] * len(_native.HELLO_RESPONSE)
        lat = r["latency"]
        assert int(lat["hist_counts"].sum()) == r["requests"]  # every request, none sampled
        assert 0 < lat["p50_ns"] <= lat["p90_ns"] <= lat["p99_ns"] <= lat["p999_ns"] <= lat["max_ns"]


def test_open_loop_sends_at_the_requested_rate() -> None:
    rate, seconds = 2000.0, 1.0
    with _native.HttpServer(threads=1) as server:
        r = _native.http_load(server.port, 8, seconds, rate=rate)
        served = server.served
    assert r["errors"] == 0
    assert r["sent"] == r["requests"] == served
    assert abs(r["sent"] - rate * seconds) <= 0.05 * rate * seconds, r["sent"]
    assert r["send_window_ns"] == pytest.approx(seconds * 1e9, rel=0.05)


def test_nobody_listening_is_a_clear_error() -> None:
    port = rd.free_port()
    with pytest.raises(ConnectionRefusedError, match="no server is listening"):
        _native.http_load(port, 2, 0.1)


KILLABLE_SERVER = """
import time
from howfast import _native
server = _native.HttpServer(threads=1)
print(server.port, flush=True)
time.sleep(60)
"""


def test_server_killed_mid_run_is_a_clear_error() -> None:
    child = subprocess.Popen([sys.executable, "-c", KILLABLE_SERVER], stdout=subprocess.PIPE, text=True)
    try:
        port = int(child.stdout.readline())
        killer = subprocess.Popen([sys.executable, "-c", f"import os, time; time.sleep(0.4); os.kill({child.pid}, 9)"])
        with pytest.raises(OSError, match="went away mid-run"):
            _native.http_load(port, 4, 5.0)
        killer.wait(timeout=10)
    finally:
        child.kill()
        child.wait(timeout=10)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"connections": 0}, "connections"),
        ({"seconds": -1.0}, "seconds"),
        ({"seconds": 0.0}, "seconds"),
        ({"rate": -5.0}, "rate"),
        ({"threads": 0}, "threads"),
        ({"grace": -1.0}, "grace"),
    ],
)
def test_bad_load_arguments_name_the_argument(kwargs: dict, name: str) -> None:
    args = {"port": 8080, "connections": 1, "seconds": 0.1} | kwargs
    extra = {k: v for k, v in args.items() if k not in ("port", "connections", "seconds")}
    with pytest.raises(ValueError, match=name):
        _native.http_load(args["port"], args["connections"], args["seconds"], **extra)


def test_bad_server_and_tcp_arguments_name_the_argument() -> None:
    with pytest.raises(ValueError, match="threads"):
        _native.HttpServer(threads=-1)
    with pytest.raises(ValueError, match="port"):
        _native.HttpServer(port=70000)
    with pytest.raises(ValueError, match="streams"):
        _native.tcp_bulk(0, 0.1)
    with pytest.raises(ValueError, match="seconds"):
        _native.tcp_bulk(1, -1.0)
    with pytest.raises(ValueError, match="connections"):
        _native.tcp_ping_pong(0, 0.1)
    with pytest.raises(ValueError, match="message_size"):
        _native.tcp_ping_pong(1, 0.1, message_size=0)


# ---- TCP ------------------------------------------------------------------------------


@pytest.mark.parametrize("streams", [1, 3])
def test_tcp_bulk_receives_every_byte_sent(streams: int) -> None:
    r = _native.tcp_bulk(streams, 0.2, write_size=64 * 1024)
    assert r["bytes_sent"] > 0
    assert r["bytes_received"] == r["bytes_sent"]
    assert r["elapsed_ns"] >= 0.2e9


def test_ping_pong_echoes_every_message() -> None:
    r = _native.tcp_ping_pong(4, 0.2, message_size=100)
    assert r["round_trips"] > 10
    assert r["bytes"] == r["round_trips"] * 100
    assert int(r["latency"]["hist_counts"].sum()) == r["round_trips"]


# ---- Redis ----------------------------------------------------------------------------

needs_redis = pytest.mark.skipif(rd.server_binary() is None, reason="no redis-server binary")


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie still answers kill(0): read its state
    status = Path(f"/proc/{pid}/stat")
    return not status.exists() or status.read_text().split()[2] == "Z"


@needs_redis
def test_redis_is_up_during_the_experiment_and_gone_after(tmp_path: Path) -> None:
    with rd.RedisServer(tmp_path / "redis") as server:
        pid = server.process.pid
        assert server.alive() and rd.ping(server.port)
        got = rd.redis_py_round_trips(server.port, 50, 10)
        assert got["commands"] == 50
    assert _gone(pid)
    assert not rd.ping(server.port)
    assert not any((tmp_path / "redis").glob("*.rdb"))  # nothing persisted


@needs_redis
@pytest.mark.skipif(rd.benchmark_binary() is None, reason="no redis-benchmark")
def test_redis_benchmark_rows_parse(tmp_path: Path) -> None:
    with rd.RedisServer(tmp_path / "redis") as server:
        rows = rd.redis_benchmark(server.port, "get,lrange_100", clients=5, requests=200)
    assert rows["GET"]["rps"] > 0
    assert any(name.startswith("LRANGE_100") for name in rows)


INTERRUPTED = """
import sys
from howfast import _native
from howfast.network import redis as rd
from howfast.scratch import Scratch
with Scratch() as s, rd.RedisServer(s.path / "redis") as redis, _native.HttpServer(threads=1) as http:
    print(redis.process.pid, redis.port, http.port, flush=True)
    _native.http_load(http.port, 2, 30.0)
"""


@needs_redis
def test_sigint_stops_every_server(isolated: dict[str, Path]) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        pid, redis_port, http_port = (int(x) for x in child.stdout.readline().split())
        time.sleep(0.5)
        assert child.poll() is None
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode != 0 and "KeyboardInterrupt" in err
    assert _gone(pid)
    assert not rd.ping(redis_port)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", http_port), timeout=2)
    assert list(isolated["scratch"].iterdir()) == []


def test_redis_arguments() -> None:
    with pytest.raises(ValueError, match="io_threads"):
        rd.RedisServer(Path("/tmp"), io_threads=0)
    for commands in (0, rd.MAX_PACKED_COMMANDS + 1, 10**12):  # 10**12 ran for days
        with pytest.raises(ValueError, match=rf"commands must be 1 to {rd.MAX_PACKED_COMMANDS}, got {commands}"):
            rd.packing_cost(commands)
    assert rd.packing_cost(3) > 0
    with pytest.raises(RuntimeError, match="unexpected redis-benchmark output"):
        rd.parse_csv("garbage")


def test_parse_wrk() -> None:
    text = (
        "Running 1s test @ http://127.0.0.1:1/\n  1 threads and 16 connections\n"
        "  58000 requests in 1.00s, 5.40MB read\nRequests/sec:  57999.12\nTransfer/sec:      5.40MB\n"
    )
    assert parse_wrk(text) == {"req_per_s": 57999.12, "requests": 58000.0, "errors": 0.0}
    with pytest.raises(ValueError, match="not a wrk report"):
        parse_wrk("nothing")


# ---- report words, every branch -------------------------------------------------------


def _open_rows(points: list[tuple[float, float, float]]) -> pl.DataFrame:
    """(offered rate, answered rate, p99 µs) -> tidy open-loop metrics."""
    rows = []
    for rate, answered, p99 in points:
        base = {"connections": 8, "share": rate / 1000, "rate": rate, "repetition": 0}
        for metric, value in {
            "sent_per_s": rate,
            "req_per_s": answered,
            "errors": 0.0,
            "p50": p99 / 2,
            "p99": p99,
            "p99.9": p99,
            "max": p99,
        }.items():
            rows.append({**base, "metric": metric, "value": value, "unit": "", "note": None})
    return pl.DataFrame(rows, schema_overrides={"note": pl.String})


def test_knee_found_and_not() -> None:
    steady = _open_rows([(100, 100, 50), (500, 500, 60), (900, 880, 300), (1200, 1000, 5000)])
    point = report.knee(steady)
    assert point == {"rate": 500.0, "p99": 60.0, "base_p99": 50.0}
    assert "knee" in report.knee_sentence(point, 1000.0)
    behind = _open_rows([(100, 50, 50), (500, 100, 60)])  # never kept up
    assert report.knee(behind) is None
    assert "no knee" in report.knee_sentence(None, 1000.0)
    assert report.machines_for(point["rate"]) == 2000
    assert report.machines_for(None) is None


def _py_table(py: float, c: float) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "pipeline": [1, 100],
            "redis-py commands/s": [py, py * 5],
            "redis-benchmark commands/s": [c, c * 10],
            "redis-py µs/command": [1e6 / py, 2e5 / py],
            "redis-benchmark µs/command": [1e6 / c, 1e5 / c],
            "Python's extra µs/command": [1e6 / py - 1e6 / c, 2e5 / py - 1e5 / c],
        }
    )


def test_gap_sentence_every_branch() -> None:
    slower = report.gap_sentence(_py_table(10_000, 20_000), 2.5)
    assert "longer than" in slower and "what the Python side adds" in slower and "Packing" in slower
    same = report.gap_sentence(_py_table(20_000, 20_500), None)
    assert "about as long as" in same and "hides" in same
    faster = report.gap_sentence(_py_table(20_000, 10_000), None)
    assert "less time than" in faster
    empty = _py_table(1, 1).with_columns(pl.lit(None, dtype=pl.Float64).alias("redis-py commands/s"))
    assert "not measured" in report.gap_sentence(empty, None)


def test_io_threads_sentence_every_branch() -> None:
    def rows(off: float | None, on: float) -> pl.DataFrame:
        out = []
        for io, value in ((1, off), (2, on)):
            metric = "req_per_s" if value is not None else "unsupported"
            out.append(
                {
                    "io_threads": io,
                    "clients": 10,
                    "op": "GET",
                    "repetition": 0,
                    "metric": metric,
                    "value": value,
                    "unit": "",
                    "note": None if value is not None else "no redis",
                }  # fmt: skip
            )
        return pl.DataFrame(out, schema_overrides={"value": pl.Float64, "note": pl.String})

    assert "slower than" in report.io_threads_sentence(rows(1000.0, 100.0))
    assert "faster than" in report.io_threads_sentence(rows(100.0, 1000.0))
    assert "about as fast as" in report.io_threads_sentence(rows(100.0, 101.0))
    assert "not measured" in report.io_threads_sentence(rows(None, 100.0))


def test_generator_sentence_every_branch() -> None:
    heavy_wrk = {"howfast": 5.0, "wrk": 15.0}
    explained = report.generator_sentence(heavy_wrk, 2, 1.5)
    assert "more than" in explained and "explain the gap" in explained and "not explain" not in explained
    assert "explain" not in report.generator_sentence(heavy_wrk, 64, 1.0)
    unexplained = report.generator_sentence(heavy_wrk, 2, 0.6)
    assert "does not explain" in unexplained
    assert "explain" not in report.generator_sentence(heavy_wrk, 2, None)
    assert "about as much as" in report.generator_sentence({"howfast": 5.0, "wrk": 5.1}, 2, 1.0)
    assert "less than" in report.generator_sentence({"howfast": 15.0, "wrk": 5.0}, 2, 0.5)
    assert "not both measured" in report.generator_sentence({"howfast": None, "wrk": 5.0}, 2, 1.0)


def test_load_sentence_every_branch() -> None:
    assert "competed" in report.load_sentence({"load_average_start": 6.0, "load_average_end": 7.0, "cpus": 2})
    assert "noisier" in report.load_sentence({"load_average_start": 1.2, "load_average_end": 1.0, "cpus": 2})
    assert "mostly idle" in report.load_sentence({"load_average_start": 0.1, "load_average_end": 0.2, "cpus": 2})
    assert "not recorded" in report.load_sentence({})


def test_redis_that_does_not_come_up_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "redis-server"
    fake.write_text("#!/bin/sh\necho 'FATAL: cannot start' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(rd, "server_binary", lambda: fake)
    with pytest.raises(RuntimeError, match="did not come up.*cannot start"):
        with rd.RedisServer(tmp_path / "redis"):
            pass


def test_connections_closed_while_a_child_is_forked_leave_the_server_whole() -> None:
    """A child forked while the server closes connections holds copies of their sockets:
    the server must drop them from epoll itself (it once crashed with a double free)."""
    import threading

    stop = threading.Event()

    def fork_often() -> None:
        while not stop.is_set():
            subprocess.run(["true"], check=False)

    forker = threading.Thread(target=fork_often)
    forker.start()
    try:
        with _native.HttpServer(threads=2) as server:
            for _ in range(30):
                r = _native.http_load(server.port, 16, 0.03)
                assert r["errors"] == 0
            with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
                s.sendall(REQUEST)
                assert _read_exactly(s, len(_native.HELLO_RESPONSE)) == _native.HELLO_RESPONSE
    finally:
        stop.set()
        forker.join(timeout=10)
