"""``wolfden serve`` in a process of its own on a free loopback port.

Used by the soak runs and by the tests that need a real server process (to kill it, to point
browsers at it). Everything the server writes goes to a log file next to its database, never to
a pipe nobody reads (a full pipe would stall the server).
"""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

SRC = Path(__file__).resolve().parents[2]
"""The directory that holds the ``wolfden`` package this process runs from."""


class ServerDidNotStart(RuntimeError):
    """The server process exited or did not answer in time; the message ends with its log."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServeProcess:
    """Start ``wolfden serve --host 127.0.0.1 --port P --db DB ARGS --log-level LEVEL`` and
    wait until ``GET /api/games`` answers (at most ``timeout`` seconds).

    ``listen`` replaces ``--host 127.0.0.1`` (``("--lan",)`` listens on every interface; the
    process is still only ever asked through 127.0.0.1). With ``tls`` (a client context that
    trusts the server's certificate, given in ``args``) it is asked over HTTPS. ``database``
    (a ``postgresql://`` address) replaces the SQLite file ``db`` as ``--db``; the log still
    goes beside ``db``."""

    def __init__(
        self,
        db: Path,
        *args: str,
        log_level: str = "warning",
        timeout: float = 30.0,
        listen: tuple[str, ...] = ("--host", "127.0.0.1"),
        tls: ssl.SSLContext | None = None,
        database: str | None = None,
    ) -> None:
        self.db = db
        self.database = database
        self.port = free_port()
        self.tls = tls
        self.base = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        self.ws_url = f"{'wss' if tls else 'ws'}://127.0.0.1:{self.port}/ws"
        self.log_path = db.with_suffix(".log")
        self._log = self.log_path.open("w")
        env = {**os.environ, "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "wolfden",
                "serve",
                *listen,
                "--port",
                str(self.port),
                "--db",
                database or str(db),
                *args,
                "--log-level",
                log_level,
            ],
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        end = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(
                    self.base + "/api/games", timeout=1, context=tls
                ) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                self.kill()
                raise ServerDidNotStart("wolfden serve did not start:\n" + self.log()[-2000:])
            time.sleep(0.05)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def log(self) -> str:
        """Everything the server has written so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL, as a crash would: nothing gets to clean up."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._log.close()

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if the server has not exited after ten seconds."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()
