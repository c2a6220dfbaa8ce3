"""The play WebSocket at /ws: one ``Connection`` per client (its reader loop, its ordered
writes, its message budget) and the handlers of each message type (hello, action, host_action,
reveal, cover, drafting, ping). Ordinary module-level code: the app's shared state is passed in."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from wolfden.server import wire
from wolfden.server.cluster import Elsewhere
from wolfden.server.errors import Refused
from wolfden.server.middleware import RAW_SEND, NotFinite, parse_json
from wolfden.server.rooms import (
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    Room,
    normalize_code,
    token_hash,
)
from wolfden.server.settings import Settings
from wolfden.server.state import AppState, served
from wolfden.server.wire import Feed

if TYPE_CHECKING:
    from wolfden.server.cluster import Cluster

log = logging.getLogger("wolfden.server")

CLOSE_CODES = {
    "kicked": 4001,
    "token_replaced": 4002,
    "left": 4003,
    "refused": 4004,
    "flood": 1008,
    "moved": 1012,
}


class Connection:
    """One client's WebSocket: a reader loop here; frames are written straight to the socket
    while it keeps up, and through a bounded queue drained by a writer task once it does not
    (a write had to wait for the socket), so the frames keep their order either way."""

    def __init__(self, ws: WebSocket, settings: Settings) -> None:
        self.ws = ws
        scope = getattr(ws, "scope", None)
        self.raw_send: Any = scope.get(RAW_SEND) if isinstance(scope, dict) else None
        """The server's own ASGI ``send`` for this socket (see ``RawSend``), when there is one."""
        self.settings = settings
        self.participant = ""
        self.token_hash = ""
        self.feed = Feed()
        self.v = 2
        """The protocol version the client said in ``hello``."""
        self.room: Room | None = None
        self.queue: asyncio.Queue[tuple[str, int | None]] = asyncio.Queue()
        self.stalled: tuple[Coroutine[Any, Any, None], Any] | None = None
        """A direct write the socket made wait: the writer task finishes it first."""
        self.busy = False
        """The writer task holds a frame it has not finished writing."""
        self.dead = False
        """A write failed: the socket is gone, nothing more is sent."""
        self.tokens = float(settings.message_burst)
        self.last = time.monotonic()
        self.dropped = 0
        self.closing = False
        self.relayed: str | None = None
        """In a cluster: this connection's room runs on another node, which its messages are
        relayed to (the id it knows the connection by)."""

    def send(self, text: str) -> None:
        if self.closing or self.dead:
            return
        if self.busy or self.stalled is not None or not self.queue.empty():
            if self.queue.qsize() >= self.settings.send_queue_limit:
                log.warning("a client of %s is too slow; disconnecting it", self.participant)
                self.closing = True
                self.queue.put_nowait(("", 1013))
                self._abort()
                return
            self.queue.put_nowait((text, None))
            return
        # Nothing waits to be written: write now, without a hop through the writer task. The
        # write runs to its end unless the socket is backed up, when it waits in the writer.
        write = self._write(text)
        try:
            waiting = write.send(None)
        except StopIteration:
            return
        except UnicodeEncodeError:
            log.error("a message that is not valid UTF-8 was not sent")
            return
        except Exception:
            self.dead = True
            return
        self.stalled = (write, waiting)
        self.queue.put_nowait(("", None))  # wakes the writer, which finishes the stalled write

    def _abort(self) -> None:
        """Cut the connection now: a socket too far behind would take a close frame only after
        everything before it, which it does not read, so the server's transport is aborted
        (its reader and writer then see the disconnect at once)."""
        protocol = getattr(self.raw_send, "__self__", None)
        transport = getattr(protocol, "transport", None)
        abort = getattr(transport, "abort", None)
        if callable(abort):
            abort()

    def _write(self, text: str) -> Coroutine[Any, Any, None]:
        """One text frame to the socket: through the server's own ``send`` where it is known
        (the frames of every action go out this way: the framework's layers around it only
        check, again, that the socket is open), else through the framework's WebSocket."""
        raw = self.raw_send
        if raw is None:
            return self.ws.send_text(text)  # type: ignore[no-any-return]
        return raw({"type": "websocket.send", "text": text})  # type: ignore[no-any-return]

    def close(self, reason: str) -> None:
        if self.closing:
            return
        self.send(wire.closed(reason))
        self.closing = True
        self.queue.put_nowait(("", CLOSE_CODES.get(reason, 1000)))

    def end(self, code: int) -> None:
        """Close the socket with this code once the frames before are written (a relayed
        connection whose room moved, or that its room's node closed)."""
        if self.closing:
            return
        self.closing = True
        self.queue.put_nowait(("", code))

    async def writer(self) -> None:
        while True:
            text, code = await self.queue.get()
            self.busy = True
            if self.stalled is not None:
                write, waiting = self.stalled
                try:
                    await _resume(write, waiting)
                except UnicodeEncodeError:
                    log.error("a message that is not valid UTF-8 was not sent")
                except Exception:
                    self.dead = True
                finally:
                    self.stalled = None
            if code is not None:
                with contextlib.suppress(Exception):
                    await self.ws.close(code)
                return
            if text and not self.dead:
                try:
                    await self._write(text)
                except UnicodeEncodeError:
                    log.error("a message that is not valid UTF-8 was not sent")
                except Exception:
                    self.dead = True
            self.busy = False

    def allow(self) -> bool:
        now = time.monotonic()
        rate = self.settings.messages_per_second
        self.tokens = min(
            float(self.settings.message_burst), self.tokens + (now - self.last) * rate
        )
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.dropped = 0
            return True
        self.dropped += 1
        return False

    def error(self, code: str, message: str, ref: Any = None) -> None:
        self.send(wire.error(code, message, ref))


class _Elsewhere:
    """The socket of a ``RemoteConnection``: where the client connected from."""

    def __init__(self, client: tuple[str, int]) -> None:
        from starlette.datastructures import Address

        self.client = Address(client[0], int(client[1]))
        self.scope: dict[str, Any] = {}


class RemoteConnection(Connection):
    """A client connected to another node of the cluster, whose room runs here: its messages
    arrive over the bus (in order, one handled at a time as on a socket of this node) and its
    frames go back the same way to the node that holds the socket."""

    def __init__(
        self, cluster: Cluster, state: AppState, key: tuple[str, str], client: tuple[Any, ...]
    ) -> None:
        super().__init__(_Elsewhere((str(client[0]), int(client[1]))), state.settings)  # type: ignore[arg-type]
        self.cluster = cluster
        self.state = state
        self.key = key
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while (text := await self.inbox.get()) is not None:
                if not self.closing:
                    await handle(self.state, self, text)
        finally:
            if self.room is not None:
                self.state.manager.detach(self.room, self)

    def send(self, text: str) -> None:
        if self.closing or self.dead:
            return
        node, cid = self.key
        self.cluster.bus.send(node, {"t": "frames", "from": self.cluster.node, "f": [[cid, text]]})

    def close(self, reason: str) -> None:
        if self.closing:
            return
        self.send(wire.closed(reason))
        self.closing = True
        node, cid = self.key
        self.cluster.bus.send(
            node, {"t": "ws_end", "conn": cid, "code": CLOSE_CODES.get(reason, 1000)}
        )
        self.cluster.remotes.pop(self.key, None)
        self.inbox.put_nowait(None)

    def gone(self) -> None:
        """The client's socket closed on its node: the connection ends here too."""
        self.closing = True
        self.inbox.put_nowait(None)

    def _abort(self) -> None:
        pass


async def _resume(write: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Run a write coroutine on to its end after its first step yielded ``waiting`` (the future
    it waits for, as it would have handed it to a task)."""
    try:
        while True:
            if isinstance(waiting, asyncio.Future):
                waiting._asyncio_future_blocking = False
                await asyncio.wait([waiting])
            else:  # a bare yield: give the loop one turn
                await asyncio.sleep(0)
            try:
                waiting = write.send(None)
            except StopIteration:
                return
    finally:
        write.close()


ID_MAX = 64
BAD_ID = (
    f"'id' is your reference for the answer: text of 1 to {ID_MAX} characters or a whole "
    "number (or leave it out); this message was not handled."
)


class BadId(Exception):
    """A message's ``id`` cannot be echoed in an answer."""


def _ref(msg: dict[str, Any]) -> Any:
    """The message's ``id`` as its answer will echo it (None when there is none); ``BadId``
    when no answer could carry it, so nothing is done that could not be answered."""
    ref = msg.get("id")
    if ref is None:
        return None
    if isinstance(ref, bool) or not isinstance(ref, (str, int)):
        raise BadId
    if isinstance(ref, str):
        if not 0 < len(ref) <= ID_MAX:
            raise BadId
        try:
            ref.encode("utf-8")
        except UnicodeEncodeError:
            raise BadId from None
    elif abs(ref) >= 2**63:
        raise BadId
    return ref


# -- play -----------------------------------------------------------------------------


async def play(ws: WebSocket) -> None:
    state = served(ws)
    await ws.accept()
    conn = Connection(ws, state.settings)
    writer = asyncio.get_running_loop().create_task(conn.writer())
    try:
        while not conn.closing:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                raw = message.get("bytes") or b""
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    conn.error("invalid_message", "Messages are JSON text.")
                    continue
            if conn.relayed is not None and state.cluster is not None:
                state.cluster.relay_message(conn, text)
            else:
                await handle(state, conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        if conn.relayed is not None and state.cluster is not None:
            state.cluster.unrelay(conn)
        if conn.room is not None:
            state.manager.detach(conn.room, conn)
        if not conn.closing:
            conn.closing = True
            conn.queue.put_nowait(("", 1000))
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, 2)


async def handle(state: AppState, conn: Connection, text: str) -> None:
    if not conn.allow():
        if conn.dropped > state.settings.flood_limit:
            conn.close("flood")
        elif conn.dropped == 1 or conn.dropped % 20 == 0:
            conn.error("rate_limited", "Too many messages; slow down.")
        return
    if len(text) > state.settings.max_message_bytes or len(
        text.encode("utf-8", "surrogatepass")
    ) > (state.settings.max_message_bytes):
        conn.error(
            "too_large", f"A message may be at most {state.settings.max_message_bytes} bytes."
        )
        return
    try:
        msg = parse_json(text)
    except NotFinite as exc:
        conn.error("invalid_message", f"That message is not valid JSON: {exc.msg}.")
        return
    except (ValueError, RecursionError):
        conn.error("invalid_message", "That message is not JSON.")
        return
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        conn.error("invalid_message", 'Every message is a JSON object with a "type".')
        return
    try:
        ref = _ref(msg)
    except BadId:
        conn.error("invalid_message", BAD_ID)
        return
    kind = msg["type"]
    try:
        if kind == "hello":
            try:
                hello(state, conn, msg)
            except Elsewhere as exc:
                if state.cluster is None:
                    raise
                if isinstance(conn, RemoteConnection):
                    conn.close("moved")  # it moved on again: the client connects anew
                    return
                # the room runs on another node: from now on this connection only relays
                state.cluster.relay(conn, exc.node, normalize_code(msg["room"]), text)
        elif kind == "ping":
            conn.send(wire.pong(ref, state.clock.now()))
        elif kind in ("action", "host_action"):
            await act(state, conn, msg, ref, host=kind == "host_action")
        elif kind in ("reveal", "cover"):
            await hand_over_device(state, conn, msg, ref, kind)
        elif kind == "drafting":
            await drafting(state, conn, msg, ref)
        else:
            conn.error(
                "unknown_type",
                f"Unknown message type {kind[:40]!r}; use hello, action, host_action, "
                "reveal, cover, drafting or ping.",
                ref,
            )
    except Refused as exc:
        conn.error(exc.code, exc.message, ref)
    except Exception:
        log.exception("unexpected error handling a %s message", kind[:40])
        conn.error("internal", "The server hit a bug; nothing was changed.", ref)


def hello(state: AppState, conn: Connection, msg: dict[str, Any]) -> None:
    if conn.room is not None:
        raise Refused("invalid_message", "This connection has already said hello.")
    v = msg.get("v")
    if isinstance(v, bool) or v not in PROTOCOL_VERSIONS:
        raise Refused(
            "invalid_message",
            "This server speaks protocol versions "
            + " and ".join(str(n) for n in PROTOCOL_VERSIONS)
            + f'; send "v": {PROTOCOL_VERSION}.',
        )
    room = state.look_up(conn.ws, msg.get("room"))  # type: ignore[arg-type]
    p = state.manager.authenticate(room, msg.get("token"))
    conn.room, conn.participant, conn.token_hash = room, p.id, token_hash(msg["token"])
    conn.v = v
    you = room.participant_json(p) | {"connected": True}
    conn.send(wire.welcome(v, you, state.clock.now()))
    if not state.manager.attach(room, conn):
        conn.send(wire.room_to(room, p, state.clock.now()))
    state.manager.send_view(room, conn)


async def act(
    state: AppState, conn: Connection, msg: dict[str, Any], ref: Any, *, host: bool
) -> None:
    room = conn.room
    if room is None:
        raise Refused("not_ready", 'Say "hello" with your room code and token first.')
    version = msg.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise Refused("invalid_message", "'version' is the whole number of the view you acted on.")
    feed = conn.feed
    if conn.v >= 3:
        feed.expect(ref)
    try:
        action = state.manager.parse_action(msg)
        p = room.participants.get(conn.participant)
        if p is None:
            raise Refused("unauthorized", "This token no longer works in this room.", 401)
        if host and "seat" in msg:
            raise Refused("not_your_seat", "A host action is for no seat; leave out 'seat'.")
        if host:
            new_version = await state.manager.host_action(room, p, conn, action, version)
        else:
            new_version = await state.manager.player_action(
                room, p, conn, action, version, msg.get("seat")
            )
    except Refused as exc:
        conn.send(wire.rejected(exc.code, exc.message, ref))
        return
    finally:
        answered = feed.done()
    if not answered:  # (protocol 3: the view frame the action brought answered it)
        conn.send(wire.accepted(ref, new_version))


async def hand_over_device(
    state: AppState, conn: Connection, msg: dict[str, Any], ref: Any, kind: str
) -> None:
    """A shared device: ``reveal`` (the hand-over to a seat was confirmed) or ``cover``."""
    room = conn.room
    if room is None:
        raise Refused("not_ready", 'Say "hello" with your room code and token first.')
    p = room.participants.get(conn.participant)
    if p is None:
        raise Refused("unauthorized", "This token no longer works in this room.", 401)
    if kind == "reveal":
        await state.manager.reveal(room, p, conn, msg.get("seat"))
    else:
        await state.manager.cover(room, p, conn)
    conn.send(wire.accepted(ref, conn.feed.version))


async def drafting(state: AppState, conn: Connection, msg: dict[str, Any], ref: Any) -> None:
    """A person is typing a free-text action (``"on": true``) or no longer is."""
    room = conn.room
    if room is None:
        raise Refused("not_ready", 'Say "hello" with your room code and token first.')
    p = room.participants.get(conn.participant)
    if p is None:
        raise Refused("unauthorized", "This token no longer works in this room.", 401)
    await state.manager.drafting(room, p, conn, msg.get("on"))
    if ref is not None:
        conn.send(wire.accepted(ref, conn.feed.version))
