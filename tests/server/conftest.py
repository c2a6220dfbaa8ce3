"""A real uvicorn on 127.0.0.1 (a free port) in a thread, real HTTP and WebSocket clients."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from wolfden.server import process
from wolfden.server.app import create_app
from wolfden.server.clock import Clock, FakeClock, RealClock
from wolfden.server.settings import Settings
from wolfden.storage.rooms import SqliteRoomStore


class ServeProcess(process.ServeProcess):
    """``wolfden serve`` in a process of its own, for tests that kill it; ``http`` talks to it."""

    def __init__(
        self,
        db: Path,
        *args: str,
        log_level: str = "warning",
        database: str | None = None,
        timeout: float = 90.0,
    ) -> None:
        # a generous start: on a busy machine a server may take half a minute to answer
        super().__init__(db, *args, log_level=log_level, database=database, timeout=timeout)
        self.http = httpx.Client(base_url=self.base, timeout=20)

    def kill(self) -> None:
        super().kill()
        if hasattr(self, "http"):  # not yet made when the process did not start
            self.http.close()

    def stop(self) -> None:
        super().stop()
        self.http.close()


class Server:
    """uvicorn serving the app in a background thread; ``call`` runs code in its event loop."""

    def __init__(self, db: Path, clock: Clock, **settings: Any) -> None:
        self.db = db
        self.clock = clock
        self.settings = Settings(db=db, web_dir=settings.pop("web_dir", None), **settings)
        self.port = process.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.app = create_app(self.settings, clock=clock, store=SqliteRoomStore(db))
        # The tests' HTTP client keeps its connection between requests, some of them a minute
        # apart while a match plays; uvicorn's 5 s keep-alive could close it just as the next
        # request went out ("Server disconnected without sending a response").
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=65536,
            timeout_keep_alive=300,
        )
        self.server = uvicorn.Server(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        self.http = httpx.Client(base_url=self.base, timeout=10)

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve())

    @property
    def manager(self) -> Any:
        return self.app.state.manager

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` in the server's event loop thread and return its result."""
        assert self.loop is not None

        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def advance(self, seconds: float) -> None:
        """Move the fake clock on and let the woken tasks run."""
        assert isinstance(self.clock, FakeClock)
        clock = self.clock
        self.call(lambda: clock.advance(seconds))
        self.settle()

    def settle(self) -> None:
        for _ in range(5):
            self.call(lambda: None)
        time.sleep(0.02)

    def stop(self) -> None:
        if self.server.should_exit:
            return
        self.http.close()
        self.server.should_exit = True
        self.thread.join(10)
        self.manager.store.close()

    # -- REST helpers ------------------------------------------------------------------

    def create(self, game: str = "werewolf", name: str = "Ada", **body: Any) -> dict[str, Any]:
        r = self.http.post("/api/rooms", json={"game": game, "name": name, **body})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def join(
        self, code: str, name: str, role: str = "player", *, ask: bool = False
    ) -> dict[str, Any]:
        """Join the room. A table screen comes in through a table-screen link the host's
        device got (its key minted as ``POST …/table-link`` mints it), unless it ``ask``s
        the host to let it in (it then waits, ``pending``)."""
        body: dict[str, Any] = {"name": name, "role": role}
        if role == "table" and not ask:
            manager = self.manager
            body["table_key"] = self.call(lambda: manager.table_link(manager.get(code)))
        r = self.http.post(f"/api/rooms/{code}/join", json=body)
        assert r.status_code == 201, r.text
        return dict(r.json())

    def host(self, method: str, path: str, token: str, **kw: Any) -> httpx.Response:
        return self.http.request(method, path, headers={"Authorization": f"Bearer {token}"}, **kw)


class Client:
    """One WebSocket client holding the last message of each type it received."""

    def __init__(self, server: Server, code: str, token: str, *, hello: bool = True) -> None:
        self.ws: ClientConnection = connect(
            server.ws_url, open_timeout=10, max_size=2**22
        ).__enter__()
        self.code, self.token = code, token
        self.received: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        if hello:
            self.send({"type": "hello", "v": 2, "room": code, "token": token})
            self.expect("welcome")

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(msg)
        if msg["type"] == "view":
            self.view = msg
        elif msg["type"] == "room":
            self.room = msg["room"]
        return dict(msg)

    def expect(self, kind: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg

    def drain(self, timeout: float = 0.05) -> None:
        try:
            while True:
                self.recv(timeout)
        except TimeoutError:
            pass

    def wait(self, condition: Callable[[], bool], timeout: float = 10) -> None:
        """Read messages until ``condition()`` holds (what this client has seen so far)."""
        end = time.monotonic() + timeout
        while not condition():
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError("the expected message did not arrive")
            try:
                self.recv(left)
            except TimeoutError:
                continue

    def seat(self, seat: int) -> dict[str, Any]:
        """The latest room summary's entry for a seat."""
        assert self.room is not None
        return dict(self.room["seats"][seat])

    def answer(self, ref: Any, timeout: float = 10) -> dict[str, Any]:
        """The accepted/rejected/error answer to the message with this id."""
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if msg["type"] in ("accepted", "rejected", "error") and msg.get("id") == ref:
                return msg

    def sync(self, timeout: float = 10) -> None:
        """Read until a ping sent now is answered: every frame the server queued for this
        connection before it is then in (frames go only to those whose view changed, so
        waiting for a version would not do)."""
        self.pings = getattr(self, "pings", 0) + 1
        ref = f"sync-{self.pings}"
        self.send({"type": "ping", "id": ref})
        self.expect("pong", timeout, id=ref)

    def close(self) -> None:
        self.ws.close()


def match_of(server: Server, code: str) -> Any:
    return server.call(lambda: server.manager.rooms[code].match)


def quiet(server: Server, code: str, *clients: Client) -> None:
    """Wait until the bots have nothing more to do and every client saw the latest view."""
    for _ in range(100):
        server.settle()
        version = match_of(server, code).version
        for c in clients:
            c.sync()
        server.settle()
        if match_of(server, code).version == version:
            return
    raise AssertionError("the room did not come to rest")


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def make(clock: Clock | None = None, db: Path | None = None, **settings: Any) -> Server:
        settings.setdefault("bot_delay", 0.0)
        server = Server(db or tmp_path / "wolfden.sqlite3", clock or FakeClock(), **settings)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(make_server: Callable[..., Server]) -> Server:
    return make_server()


@pytest.fixture
def real_clock() -> RealClock:
    return RealClock()
