"""Real PostgreSQL and Redis servers for the tests, each in a temporary directory on a free
loopback port, stopped afterwards.

The binaries come from Debian's ``postgresql`` and ``redis-server`` packages, which
``python3 dev.py test`` installs when it runs as root. Without them the tests that need a
server skip, naming the package; with ``WOLFDEN_REQUIRE_SERVICES=1`` they fail instead.
PostgreSQL refuses to run as root, so as root it runs as the unprivileged user ``nobody``.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from wolfden.server.process import free_port

READY_WITHIN = 60.0
"""Seconds a server gets to start listening; generous, as the machine may be busy."""


def missing(package: str, what: str) -> None:
    """Skip (or, with WOLFDEN_REQUIRE_SERVICES=1, fail) for lack of a Debian package."""
    reason = f"{what} is not installed (apt-get install {package})"
    if os.environ.get("WOLFDEN_REQUIRE_SERVICES") == "1":
        pytest.fail(reason + "; WOLFDEN_REQUIRE_SERVICES=1 asks for every service")
    pytest.skip(reason)


def wait_until(ready: Callable[[], bool], what: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + READY_WITHIN
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode} before it was ready")
        if ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} was not ready within {READY_WITHIN:.0f} s")


def _pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _unprivileged() -> dict[str, object]:
    """Popen arguments that run PostgreSQL as ``nobody`` when we are root (it refuses root)."""
    if os.geteuid() != 0:
        return {}
    return {"user": "nobody", "group": "nogroup", "extra_groups": []}


class PostgresServer:
    """One running PostgreSQL cluster; ``new_database()`` gives each test its own."""

    def __init__(self, root: Path, port: int, proc: subprocess.Popen[bytes]) -> None:
        self.root = root
        self.port = port
        self.proc = proc
        self._count = 0
        self.relaunch: Callable[[], subprocess.Popen[bytes]] | None = None
        self.ready: Callable[[], bool] | None = None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://wolfden@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        self._count += 1
        name = f"t{os.getpid()}_{self._count}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self, how: int = signal.SIGINT) -> None:
        """SIGINT is PostgreSQL's fast shutdown; SIGKILL simulates a crash."""
        if self.proc.poll() is None:
            self.proc.send_signal(how)
            self.proc.wait(timeout=READY_WITHIN)

    def start(self) -> None:
        """Start the stopped server again, with the same data and port; returns once it
        answers."""
        assert self.relaunch is not None and self.ready is not None
        self.proc = self.relaunch()
        wait_until(self.ready, "PostgreSQL", self.proc)


@contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    initdb, postgres = _pg_bin("initdb"), _pg_bin("postgres")
    if initdb is None or postgres is None:
        missing("postgresql", "PostgreSQL")
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'wolfden[nodes]')")
    import psycopg

    root = Path(tempfile.mkdtemp(prefix="wolfden-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "nobody")
    subprocess.run(
        [initdb, "-D", str(data), "-U", "wolfden", "--auth=trust", "-E", "UTF8"],
        check=True,
        cwd=root,
        **_unprivileged(),  # type: ignore[call-overload]
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    port = free_port()
    log = open(root / "postgres.log", "wb")  # noqa: SIM115 - closed below

    def launch() -> subprocess.Popen[bytes]:
        return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
            (
                [
                    postgres,
                    "-D",
                    str(data),
                    "-p",
                    str(port),
                    "-h",
                    "127.0.0.1",
                    "-k",
                    str(root),
                    "-c",
                    "fsync=off",
                    "-c",
                    "max_connections=200",
                ]
            ),
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=root,
            **_unprivileged(),
        )

    proc = launch()
    server = PostgresServer(root, port, proc)
    server.relaunch = launch

    def ready() -> bool:
        try:
            psycopg.connect(server.url(), connect_timeout=2).close()
        except psycopg.OperationalError:
            return False
        return True

    server.ready = ready
    try:
        wait_until(ready, "PostgreSQL", proc)
        yield server
    finally:
        server.stop()
        log.close()
        shutil.rmtree(root, ignore_errors=True)


class RedisServer:
    def __init__(self, root: Path, port: int, proc: subprocess.Popen[bytes]) -> None:
        self.root = root
        self.port = port
        self.proc = proc
        self.binary = ""
        self.ready: Callable[[], bool] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self, how: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(how)
            self.proc.wait(timeout=READY_WITHIN)

    def start(self) -> None:
        """Start the stopped server again on the same port (empty: it keeps nothing)."""
        assert self.ready is not None
        self.proc = _start_redis(self.binary, self.root, self.port)
        wait_until(self.ready, "Redis", self.proc)


def _start_redis(binary: str, root: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(root),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        missing("redis-server", "Redis")
    redis = pytest.importorskip(
        "redis", reason="redis is not installed (pip install 'wolfden[nodes]')"
    )
    root = Path(tempfile.mkdtemp(prefix="wolfden-redis-"))
    port = free_port()
    server = RedisServer(root, port, _start_redis(binary, root, port))

    def ready() -> bool:
        try:
            return bool(redis.Redis(port=port, socket_connect_timeout=2).ping())
        except redis.RedisError:
            return False

    server.binary, server.ready = binary, ready
    try:
        wait_until(ready, "Redis", server.proc)
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
