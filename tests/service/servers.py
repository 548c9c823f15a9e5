"""Throwaway Redis and PostgreSQL servers on 127.0.0.1 for the service's tests and benchmark.

Each server gets a random free port and a temporary data directory and is
stopped by its context manager. PostgreSQL refuses to run as root, so as root
it runs as the `postgres` system user. `JUDGE_TEST_REQUIRE_SERVERS=1` (set by
.ci/run) turns "not installed here" from a skip into a failure.
"""
from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
PG_BIN = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)), "")


class Missing(Exception):
    """The server's program is not installed here."""


def descendants_of(pid: int) -> list[int]:
    """Every process below `pid`, parents before children (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(0), []):
            found.append(child)
            todo.append(child)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


@dataclass
class RedisServer:
    port: int
    directory: Path
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        if not Path(REDIS_SERVER).exists():
            raise Missing("redis-server is not installed (apt-get install redis-server)")
        # No persistence: a restart loses every queued message, the worst case for the queue.
        self.process = subprocess.Popen([REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--save", "", "--appendonly", "no", "--dir", str(self.directory)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@contextlib.contextmanager
def redis_server():
    with tempfile.TemporaryDirectory(prefix="judge-redis-") as tmp:
        server = RedisServer(free_port(), Path(tmp)).start()
        try:
            yield server
        finally:
            server.stop()


@dataclass
class PostgresServer:
    """A throwaway cluster that can be stopped and started again (its data stays)."""

    directory: Path
    port: int
    host: str = "127.0.0.1"

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://judge@{self.host}:{self.port}/postgres"

    def _run_as(self) -> list[str]:
        return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def init(self, trusted_network: str | None = None) -> "PostgresServer":
        """initdb; `trusted_network` (e.g. 10.231.0.0/16) may connect too, beside local and 127.0.0.1."""
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
        subprocess.run([*self._run_as(), f"{PG_BIN}/initdb", "-D", str(self.directory / "data"), "-A", "trust",
                        "-U", "judge", "--no-sync"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if trusted_network:
            with open(self.directory / "data" / "pg_hba.conf", "a") as hba:
                hba.write(f"host all all {trusted_network} trust\n")
        return self

    def start(self, prefix: tuple[str, ...] = ()) -> "PostgresServer":
        """Start it (`prefix`: e.g. `ip netns exec NAME` to run it in a network namespace)."""
        subprocess.run([*prefix, *self._run_as(), f"{PG_BIN}/pg_ctl", "-D", str(self.directory / "data"), "-w",
                        "-l", str(self.directory / "log"), "-o",
                        f"-p {self.port} -k {self.directory} -c listen_addresses={self.host} -c fsync=off",
                        "start"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return self

    def stop(self) -> None:
        subprocess.run([*self._run_as(), f"{PG_BIN}/pg_ctl", "-D", str(self.directory / "data"), "-m",
                        "immediate", "-w", "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@contextlib.contextmanager
def postgres_cluster(host: str = "127.0.0.1", port: int | None = None, prefix: tuple[str, ...] = ()):
    """A fresh cluster, started; yields the PostgresServer (stopped and removed afterwards)."""
    if not PG_BIN or not Path(PG_BIN, "initdb").exists():
        raise Missing("PostgreSQL is not installed (apt-get install postgresql)")
    tmp = Path(tempfile.mkdtemp(prefix="judge-pg-"))
    try:
        server = PostgresServer(tmp, port or free_port(), host).init()
        server.start(prefix)
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def postgres_server():
    """A fresh cluster; yields its SQLAlchemy URL."""
    with postgres_cluster() as server:
        yield server.url
