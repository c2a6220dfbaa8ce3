"""Servers started as a host starts them: ``wolfden serve --lan``, plain or over HTTPS.

Every request goes to 127.0.0.1, even when the server listens on every interface: the tests
send nothing to any other address.
"""

from __future__ import annotations

import importlib.util
import json
import re
import ssl
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wolfden.server.process import ServeProcess

ROOT = Path(__file__).resolve().parents[2]


def readme_first_command() -> list[str]:
    """The first command of the README's first code block (what a host types first)."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "the README has no sh code block"
    first = block.group(1).splitlines()[0].split("#")[0].split()
    return first


def dev_py_runs(words: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], str]:
    """What ``python3 dev.py WORDS…`` runs once its environment is set up: the ``wolfden``
    arguments, and the launcher it tells the server about (nothing is set up or started)."""
    assert words[:2] == ["python3", "dev.py"], words
    spec = importlib.util.spec_from_file_location("dev_py", ROOT / "dev.py")
    assert spec and spec.loader
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    calls: list[tuple[list[str], dict[str, str] | None]] = []
    monkeypatch.setattr(dev, "setup", lambda: None)
    monkeypatch.setattr(
        dev, "run", lambda *cmd, check=True, env=None: calls.append(([str(c) for c in cmd], env))
    )
    monkeypatch.setattr("sys.argv", words[1:])
    dev.main()
    assert len(calls) == 1, calls
    cmd, env = calls[0]
    assert cmd[0] == str(dev.BIN / "wolfden"), cmd
    return cmd[1:], (env or {}).get("WOLFDEN_SERVE_COMMAND", "")


class Host(ServeProcess):
    """``wolfden serve`` in its own process, asked over HTTP(S) on 127.0.0.1 only."""

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.base + path, timeout=10, context=self.tls) as r:
            return bytes(r.read())

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10, context=self.tls) as r:
            return json.loads(r.read())


@pytest.fixture
def start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``start(*args, listen=..., tls=None, launcher=None)``: a server, stopped after the test;
    ``launcher`` is what ``dev.py`` tells the server about how it was started."""
    hosts: list[Host] = []

    def make(
        *args: str,
        listen: tuple[str, ...] = ("--host", "127.0.0.1"),
        tls: ssl.SSLContext | None = None,
        launcher: str | None = None,
    ) -> Host:
        if launcher is None:
            monkeypatch.delenv("WOLFDEN_SERVE_COMMAND", raising=False)
        else:
            monkeypatch.setenv("WOLFDEN_SERVE_COMMAND", launcher)
        db = tmp_path / f"host{len(hosts)}.sqlite3"
        host = Host(db, *args, listen=listen, tls=tls, log_level="info")
        hosts.append(host)
        return host

    yield make
    for host in hosts:
        host.stop()
