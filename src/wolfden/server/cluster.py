"""One node of a cluster: several ``wolfden serve`` processes sharing one database (PostgreSQL)
and one bus (Redis), any of them answering any room.

Each room's master runs on exactly one node at a time, its **owner**, which holds the room's
lease in the database and passes the lease's fencing token with every write: a node that lost
the room (it was paused or cut off for longer than the lease) cannot commit to it any more. The
owner renews its leases on a timer; a lease that could not be renewed in time is taken over by
another node, which loads the room and replays its match from the committed log, with its
timers and bots re-armed.

A request for a room that another node owns is passed on over the bus:

- HTTP (``/api/rooms/{code}/...``): ``Forward`` sends the whole request to the owner, which runs
  it through its own app and sends the answer back;
- the play WebSocket: after a ``hello`` for a room owned elsewhere, the node only relays. Each
  message from the client goes to the owner, where a ``RemoteConnection`` stands for the socket
  and the ordinary handlers (``ws.handle``) take it; every frame for the client comes back the
  same way, in order.

When a room changes owner, the connections relayed to its former owner are closed with code
1012 (the server restarts) and the clients connect again, to any node; so they are when the bus
lost messages (Redis restarted). A node that owns no room and no connection needs nothing else:
a node that dies takes nothing with it but its open sockets.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from wolfden.server.bus import Bus
from wolfden.server.errors import Refused
from wolfden.storage.errors import FencedOut, StorageError

if TYPE_CHECKING:
    from wolfden.server.rooms import Room, RoomManager
    from wolfden.server.state import AppState
    from wolfden.server.ws import Connection, RemoteConnection

log = logging.getLogger("wolfden.server")

MOVED = 1012
"""The close code of a connection whose room moved to another node (WebSocket "service
restart"): the client connects again and reaches the room wherever it is now."""

FORWARDED = "wolfden.forwarded"
"""Scope key of an HTTP request another node passed on: it is never passed on again."""


class Elsewhere(Refused):
    """The room is run by another node."""

    def __init__(self, node: str) -> None:
        super().__init__(
            "unavailable",
            "This room is being moved between servers; nothing changed. Try again in a moment.",
            503,
        )
        self.node = node


def node_name() -> str:
    """A name for this node that no other process has: host, process id, random part."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Cluster:
    """This node's part of the cluster: its leases, the rooms it takes over, and the requests
    and connections it passes to other nodes or takes from them."""

    def __init__(self, manager: RoomManager, bus: Bus, lease_seconds: float) -> None:
        self.manager = manager
        self.bus = bus
        self.node = bus.node
        self.lease_seconds = lease_seconds
        self.state: AppState | None = None
        self.app: Callable[..., Awaitable[None]] | None = None
        """The whole ASGI app, which runs the HTTP requests other nodes pass on."""
        self.fences = manager.fences
        self.relays: dict[str, tuple[Connection, str, str]] = {}
        """Connections of this node relayed to another: id -> (connection, owner, room)."""
        self.answered: set[str] = set()
        """Relayed connections that the owner has sent a frame to."""
        self.remotes: dict[tuple[str, str], RemoteConnection] = {}
        """Connections of other nodes whose room this node runs: (node, id) -> stand-in."""
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        """HTTP requests passed on, waiting for their answer."""
        self.ids = itertools.count(1)
        self.task: asyncio.Task[None] | None = None

    # -- running --------------------------------------------------------------------

    async def start(self) -> None:
        await self.bus.start(self.deliver, self.reset)
        self.task = asyncio.get_running_loop().create_task(self._leases())

    async def stop(self) -> None:
        """Give every room up at once (a node shutting down), so others need not wait for
        the leases to run out."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        for code, token in list(self.fences.items()):
            with contextlib.suppress(StorageError):
                self.manager.store.release_lease(code, self.node, token)
        self.fences.clear()
        await self.bus.close()

    def now(self) -> float:
        return self.manager.clock.now()

    def patience(self) -> float:
        """Seconds to wait for the node that runs a room to answer a request passed to it,
        or to take up a connection, before the client is told to try again: long enough for
        a busy node, and for a dead one to be replaced."""
        return max(20.0, 3 * self.lease_seconds)

    async def _leases(self) -> None:
        """Renew this node's leases, take over the live rooms nobody holds, and move the
        connections relayed to a node that lost its room: three times per lease length."""
        clock = self.manager.clock
        while True:
            await clock.sleep_until(clock.now() + self.lease_seconds / 3)
            try:
                self.tick()
            except Exception:
                log.exception("cluster: the lease round failed")

    def tick(self) -> None:
        store = self.manager.store
        for code, token in list(self.fences.items()):
            try:
                held = store.renew_lease(code, self.node, token, self.now(), self.lease_seconds)
            except StorageError as exc:
                # the database is away: nobody else can take the room over meanwhile, and a
                # write after a takeover would be fenced out
                log.warning("cluster: lease of %s not renewed: %s", code, exc)
                continue
            if not held:
                self.lost(code)
        try:
            orphans = store.orphans(self.now())
        except StorageError as exc:
            log.warning("cluster: cannot look for rooms to take over: %s", exc)
            orphans = []
        for code in orphans:
            if code not in self.fences:
                with contextlib.suppress(Refused):  # the database went away meanwhile
                    self.locate(code)
        for code in {room for _, _, room in self.relays.values()}:
            try:
                lease = store.lease(code)
            except StorageError:
                continue
            # a room whose node gave it up or died (a lobby, which nobody takes over until
            # it is asked for) moves with its clients' next hello
            held = lease is not None and lease.expires > self.now()
            self.moved(code, lease.node if held and lease is not None else "")

    # -- ownership ------------------------------------------------------------------

    def locate(self, code: str) -> Room | str | None:
        """The room, run here (taken over when no node holds it); else the node that runs
        it; None when there is no such room."""
        room = self.manager.rooms.get(code)
        if room is not None:
            return room
        store = self.manager.store
        try:
            lease = store.lease(code)
            if lease is not None and lease.node != self.node and lease.expires > self.now():
                return lease.node
            if not store.room_exists(code):
                return None
            token = store.acquire_lease(code, self.node, self.now(), self.lease_seconds)
            if token is None:
                lease = store.lease(code)
                return None if lease is None else lease.node
            doc = store.load_room(code)  # read after the lease: no one else writes it now
        except StorageError as exc:
            log.warning("cluster: cannot take over room %s: %s", code, exc)
            raise Refused(
                "unavailable",
                "The server cannot reach its database for a moment; nothing changed. "
                "Try again in a moment.",
                503,
            ) from exc
        if doc is None:
            return None
        self.fences[code] = token
        room = self.manager.adopt(doc)
        if room is None:
            self.fences.pop(code, None)
            with contextlib.suppress(StorageError):
                store.release_lease(code, self.node, token)
            return None
        log.info("cluster: node %s runs room %s now (lease token %s)", self.node, code, token)
        self.bus.send(None, {"t": "owner", "room": code, "node": self.node})
        return room

    def claim(self, code: str) -> None:
        """Take the lease of a room being created here."""
        token = self.manager.store.acquire_lease(code, self.node, self.now(), self.lease_seconds)
        if token is None:
            raise Refused("unavailable", "That room code was just taken; try again.", 503)
        self.fences[code] = token

    def lost(self, code: str) -> None:
        """Another node runs this room now: stop running it here (its timers, its bots) and
        move its connections, local and relayed."""
        self.fences.pop(code, None)
        room = self.manager.rooms.get(code)
        if room is None:
            return
        log.warning("cluster: node %s lost room %s to another node", self.node, code)
        self.manager.drop(room)
        for key, remote in list(self.remotes.items()):
            if remote.room is room:
                self.remotes.pop(key, None)
                remote.close("moved")

    def fenced(self, code: str) -> None:
        """A write was fenced out: the room is another node's (see ``lost``)."""
        asyncio.get_running_loop().call_soon(self.lost, code)

    def moved(self, code: str, owner: str) -> None:
        """The room is run by ``owner``: relayed connections to any other node move."""
        for cid, (conn, node, room) in list(self.relays.items()):
            if room == code and node != owner:
                self.relays.pop(cid, None)
                conn.end(MOVED)

    def reset(self) -> None:
        """The bus lost messages: every relayed connection, either way, starts again."""
        for cid, (conn, _node, _room) in list(self.relays.items()):
            self.relays.pop(cid, None)
            conn.end(MOVED)
        for key, remote in list(self.remotes.items()):
            self.remotes.pop(key, None)
            remote.gone()

    # -- the bus --------------------------------------------------------------------

    def deliver(self, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        if kind == "owner":
            code, owner = msg["room"], msg["node"]
            if owner != self.node:
                if code in self.fences or code in self.manager.rooms:
                    self.lost(code)
                self.moved(code, owner)
        elif kind == "ws_open":
            self._ws_open(msg)
        elif kind == "ws_msg":
            remote = self.remotes.get((msg["from"], msg["conn"]))
            if remote is None:
                self.bus.send(msg["from"], {"t": "ws_end", "conn": msg["conn"], "code": MOVED})
            else:
                remote.inbox.put_nowait(msg["text"])
        elif kind == "ws_close":
            remote = self.remotes.pop((msg["from"], msg["conn"]), None)
            if remote is not None:
                remote.gone()
        elif kind == "frames":
            for cid, text in msg["f"]:
                relay = self.relays.get(cid)
                if relay is None:
                    self.bus.send(msg["from"], {"t": "ws_close", "conn": cid, "from": self.node})
                else:
                    self.answered.add(cid)
                    relay[0].send(text)
        elif kind == "ws_end":
            relay = self.relays.pop(msg["conn"], None)
            if relay is not None:
                relay[0].end(int(msg["code"]))
        elif kind == "http":
            asyncio.get_running_loop().create_task(self._http(msg))
        elif kind == "http_reply":
            fut = self.waiting.pop(msg["id"], None)
            if fut is not None and not fut.done():
                fut.set_result(msg)

    # -- WebSocket: the relaying node ------------------------------------------------

    def relay(self, conn: Connection, owner: str, code: str, hello: str) -> None:
        """From now on this connection's messages go to ``owner``, which runs its room."""
        cid = f"c{next(self.ids)}"
        conn.relayed = cid
        self.relays[cid] = (conn, owner, code)

        def unanswered() -> None:
            # the owner never took the connection up (the message was lost, the owner died)
            if cid not in self.answered and self.relays.pop(cid, None) is not None:
                conn.end(MOVED)

        asyncio.get_running_loop().call_later(self.patience(), unanswered)
        client = conn.ws.client
        self.bus.send(
            owner,
            {
                "t": "ws_open",
                "conn": cid,
                "from": self.node,
                "client": [client.host, client.port] if client else ["?", 0],
                "text": hello,
            },
        )

    def relay_message(self, conn: Connection, text: str) -> None:
        found = self.relays.get(conn.relayed or "")
        if found is None:
            conn.end(MOVED)
            return
        self.bus.send(
            found[1], {"t": "ws_msg", "conn": conn.relayed, "from": self.node, "text": text}
        )

    def unrelay(self, conn: Connection) -> None:
        self.answered.discard(conn.relayed or "")
        found = self.relays.pop(conn.relayed or "", None)
        if found is not None:
            self.bus.send(found[1], {"t": "ws_close", "conn": conn.relayed, "from": self.node})

    # -- WebSocket: the owner ---------------------------------------------------------

    def _ws_open(self, msg: dict[str, Any]) -> None:
        assert self.state is not None
        from wolfden.server.ws import RemoteConnection as Remote

        key = (msg["from"], msg["conn"])
        remote = Remote(self, self.state, key, tuple(msg["client"]))
        self.remotes[key] = remote
        remote.inbox.put_nowait(msg["text"])
        remote.start()

    # -- HTTP -----------------------------------------------------------------------

    async def forward(self, owner: str, scope: MutableMapping[str, Any], body: bytes) -> Any:
        """Pass an HTTP request on to the room's owner; its answer (status, headers, body),
        or None when the owner did not answer in time."""
        rid = f"{self.node}:{next(self.ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        client = scope.get("client") or ("?", 0)
        self.bus.send(
            owner,
            {
                "t": "http",
                "id": rid,
                "from": self.node,
                "method": scope["method"],
                "scheme": scope.get("scheme", "http"),
                "path": scope["path"],
                "query": scope.get("query_string", b"").decode("latin-1"),
                "headers": [
                    [k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]
                ],
                "client": [client[0], client[1]],
                "body": base64.b64encode(body).decode(),
            },
        )
        try:
            return await asyncio.wait_for(fut, self.patience())
        except TimeoutError:
            return None
        finally:
            self.waiting.pop(rid, None)

    async def _http(self, msg: dict[str, Any]) -> None:
        """Run a request another node passed on through this node's app; send the answer."""
        assert self.app is not None
        body = base64.b64decode(msg["body"])
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": msg["method"],
            "scheme": msg["scheme"],
            "path": msg["path"],
            "raw_path": msg["path"].encode(),
            "query_string": msg["query"].encode("latin-1"),
            "root_path": "",
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in msg["headers"]],
            "client": tuple(msg["client"]),
            "server": None,
            FORWARDED: True,
        }
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.Event().wait()  # a disconnect never comes: the answer is awaited
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        reply: dict[str, Any] = {"t": "http_reply", "id": msg["id"], "status": 500}
        parts: list[bytes] = []

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                reply["status"] = message["status"]
                reply["headers"] = [
                    [k.decode("latin-1"), v.decode("latin-1")] for k, v in message["headers"]
                ]
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))

        try:
            await self.app(scope, receive, send)
        except Exception:
            log.exception("cluster: a forwarded request failed")
        reply["body"] = base64.b64encode(b"".join(parts)).decode()
        self.bus.send(msg["from"], reply)


class Forward:
    """ASGI middleware: an HTTP request for a room another node runs is passed on to it (over
    the bus) and its answer given back; a room nobody runs is taken over here first."""

    def __init__(self, app: Any, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        code = room_of(scope) if scope["type"] == "http" and not scope.get(FORWARDED) else None
        if code is None:
            await self.app(scope, receive, send)
            return
        from wolfden.server.rooms import normalize_code

        try:
            where = self.cluster.locate(normalize_code(code))
        except Refused as exc:
            await _answer(send, exc.status, exc.to_json())
            return
        if not isinstance(where, str):
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        reply = await self.cluster.forward(where, scope, body)
        if reply is None:
            await _answer(
                send,
                503,
                {
                    "error": {
                        "code": "unavailable",
                        "message": "The server running this room did not answer; nothing "
                        "changed here. Try again in a moment.",
                    }
                },
            )
            return
        from wolfden.server.middleware import security_headers

        # the headers this node's own middleware adds again on the way out
        added = {k.lower() for k, _ in security_headers(scope.get("path", ""))}
        await send(
            {
                "type": "http.response.start",
                "status": reply["status"],
                "headers": [
                    (k.encode("latin-1"), v.encode("latin-1"))
                    for k, v in reply.get("headers", [])
                    if k.encode("latin-1").lower() not in added
                ],
            }
        )
        await send({"type": "http.response.body", "body": base64.b64decode(reply["body"])})


def room_of(scope: Any) -> str | None:
    """The room code of a ``/api/rooms/{code}/...`` path."""
    parts = scope.get("path", "").split("/")
    if len(parts) >= 4 and parts[1] == "api" and parts[2] == "rooms" and parts[3]:
        return str(parts[3])
    return None


async def _answer(send: Any, status: int, body: dict[str, Any]) -> None:
    import json

    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


__all__ = ["MOVED", "Cluster", "Elsewhere", "FencedOut", "Forward", "node_name"]
