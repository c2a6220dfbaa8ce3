"""The ASGI app: REST lobby (OpenAPI at /openapi.json), the play WebSocket at /ws, the web client
at /."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import io
import json
import logging
import math
import mimetypes
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from wolfden import games
from wolfden.server import address
from wolfden.server.clock import Clock, RealClock
from wolfden.server.errors import Refused
from wolfden.server.rooms import (
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    Feed,
    Participant,
    Room,
    RoomManager,
    _json,
    game_info,
    token_hash,
)
from wolfden.server.settings import Settings
from wolfden.server.wordlists import install as install_wordlists
from wolfden.storage.rooms import RoomStore, open_room_store

log = logging.getLogger("wolfden.server")

for _ext, _type in {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".woff2": "font/woff2",
}.items():
    mimetypes.add_type(_type, _ext)

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "media-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP answer carries (API answers are also never stored)."""
    headers = [
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
    ]
    if path.startswith("/api/"):
        headers.append((b"cache-control", b"no-store"))
    return headers


class NotFinite(json.JSONDecodeError):
    """A number JSON does not have (NaN, Infinity) or one too large for a float (1e400)."""


FINITE_ONLY = "numbers must be finite (NaN and Infinity are not JSON numbers)"


def _no_constant(name: str) -> Any:
    raise NotFinite(f"{name} is not allowed: {FINITE_ONLY}", name, 0)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotFinite(f"{text[:40]} is too large: {FINITE_ONLY}", text, 0)
    return value


def parse_json(text: str | bytes) -> Any:
    """JSON as the standard allows it: NaN, Infinity and numbers beyond a float's range are
    refused (``NotFinite``, a ``ValueError``) instead of becoming values no answer can carry."""
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)


class StrictRequest(Request):
    """A request whose JSON body is read by ``parse_json``."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class StrictRoute(APIRoute):
    """Every REST route reads its body with ``StrictRequest``."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictRequest(request.scope, request.receive))

        return strict


class SecurityHeaders:
    """Adds CSP, nosniff, frame denial and no-referrer to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope.get("path", ""))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """Refuses an HTTP request whose body is larger than ``limit`` bytes with ``413`` before
    anything parses it: by its Content-Length at once, else while it streams in."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await self.refuse(scope, send)
                return
        # read the whole body here (at most ``limit`` bytes), then hand it on
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self.refuse(scope, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def refuse(self, scope: Scope, send: Send) -> None:
        response = JSONResponse(
            {
                "error": {
                    "code": "too_large",
                    "message": f"A request body may be at most {self.limit} bytes.",
                }
            },
            status_code=413,
            headers={"connection": "close"},
        )
        await response(scope, _nothing, send)


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


RAW_SEND = "wolfden.send"


class RawSend:
    """Keeps, in a WebSocket connection's scope, the ``send`` the server gave the app, so the
    play loop can write its frames to it directly (see ``Connection._write``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        await self.app(scope, receive, send)


class WebClient(StaticFiles):
    """The static web client; a page address without a file (``/join/7KQ2XA``) gets index.html,
    so links into the client work; unknown files and API paths stay 404."""

    async def get_response(self, path: str, scope: Scope) -> Any:
        try:
            return await super().get_response(path, scope)
        except StarletteHTTPException as exc:
            last = path.rsplit("/", 1)[-1]
            if exc.status_code != 404 or "." in last or path.split("/", 1)[0] in ("api", "ws"):
                raise
            return await super().get_response("index.html", scope)


# -- request bodies -------------------------------------------------------------------------


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateRoom(Body):
    game: str = Field(description="A game id from GET /api/games.")
    config: dict[str, Any] | None = Field(None, description="Options; omitted ones keep defaults.")
    name: str = Field(description="Your name, 1–24 characters.")
    role: Literal["player", "spectator", "table"] = "player"


class JoinRoom(Body):
    name: str = Field(description="Your name, 1–24 characters, unique in the room.")
    role: Literal["player", "spectator", "table"] = "player"


class SetConfig(Body):
    config: dict[str, Any]


class SetSettings(Body):
    absent: Literal["bot", "wait", "timeout"] | None = None
    grace_seconds: float | None = None
    stand_in_bot: str | None = None
    bot_delay: float | None = None


class AddBot(Body):
    kind: str = Field(description="A bot kind of this game (GET /api/games).")


class TakeSeat(Body):
    seat: int | Literal["any"] | None = Field(
        description="A seat number, 'any' for the first free seat, or null to sit out."
    )


class HandOver(Body):
    participant: str


class SharedDevice(Body):
    seats: list[int] | Literal["all"] = Field(
        description='The seats this device holds: seat numbers, or "all".', max_length=64
    )
    names: list[str] | None = Field(
        None,
        description="The name of the person at each of these seats (same order).",
        max_length=64,
    )
    name: str | None = Field(None, description="The device's own name (a new device).")
    this_device: bool = Field(
        False, description="Make the host's own device the shared device (no new token)."
    )
    secret_turns: bool = Field(
        True,
        description="Who acts is secret in this game (a Werewolf night): while any held seat "
        "acts, offer the device to every held seat. False: offer it to the acting seats only.",
    )


class Start(Body):
    fill_with: str | None = Field(
        None, description="Bot kind for empty seats (default: the room's stand-in bot)."
    )
    seed: int | None = Field(None, description="Makes the deal reproducible.")


class Again(Body):
    seed: int | None = None


# -- the WebSocket connection -------------------------------------------------------------

CLOSE_CODES = {"kicked": 4001, "token_replaced": 4002, "left": 4003, "flood": 1008}


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
        self.send(json.dumps({"type": "closed", "reason": reason}))
        self.closing = True
        self.queue.put_nowait(("", CLOSE_CODES.get(reason, 1000)))

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
        body: dict[str, Any] = {"type": "error", "error": {"code": code, "message": message}}
        if ref is not None:
            body["id"] = ref
        self.send(json.dumps(body, ensure_ascii=False))


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


# -- the app --------------------------------------------------------------------------------


def create_app(
    settings: Settings | None = None,
    *,
    clock: Clock | None = None,
    store: RoomStore | None = None,
) -> FastAPI:
    settings = settings or Settings()
    clock = clock or RealClock()
    if store is None:
        store = open_room_store(settings.db)
    manager = RoomManager(settings, store, clock)
    manager.recover()
    wrong_codes: dict[str, collections.deque[float]] = {}
    created: dict[str, collections.deque[float]] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager.start_background()
        yield
        await manager.shutdown()

    app = FastAPI(
        title="wolfden",
        version=str(PROTOCOL_VERSION),
        summary="Lobby of the wolfden game server. Play happens over the WebSocket at /ws "
        "(see docs/protocol.md).",
        lifespan=lifespan,
        # no API browser: the usual one loads its code from a public CDN onto the origin
        # that keeps the room tokens; /openapi.json opens in any OpenAPI viewer instead
        docs_url=None,
        redoc_url=None,
    )
    app.router.route_class = StrictRoute
    app.state.manager = manager
    app.state.clock = clock

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors()[:3]:
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            if err.get("type") == "json_invalid":
                why = str((err.get("ctx") or {}).get("error", ""))
                parts.append(
                    "the body is not valid JSON" + (f": {why}" if FINITE_ONLY in why else "")
                )
            elif err.get("type") == "extra_forbidden":
                parts.append(f"'{where}' is not a field of this request")
            else:
                parts.append(f"'{where or 'body'}': {err.get('msg', 'invalid')}")
        message = "The request is not right: " + "; ".join(parts) + "."
        return JSONResponse({"error": {"code": "bad_request", "message": message}}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
        message = {
            404: "There is nothing at this address.",
            405: "This address does not accept that method.",
        }.get(exc.status_code, str(exc.detail))
        return JSONResponse(
            {"error": {"code": code, "message": message}}, status_code=exc.status_code
        )

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s", request.url.path)
        # this answer is sent from outside every middleware: it brings its own headers
        response = JSONResponse(
            {
                "error": {
                    "code": "internal",
                    "message": "The server hit a bug; nothing was changed.",
                }
            },
            status_code=500,
        )
        for name, value in security_headers(request.url.path):
            response.headers[name.decode()] = value.decode()
        response.headers["cache-control"] = "no-store"
        return response

    def client_key(request: Request | WebSocket) -> str:
        return request.client.host if request.client else "?"

    def look_up(request: Request | WebSocket, code: str) -> Room:
        key, now = client_key(request), time.monotonic()
        guarded(request)
        try:
            return manager.get(code)
        except Refused:
            wrong(key, now)
            raise

    def wrong(key: str, now: float) -> None:
        wrong_codes.setdefault(key, collections.deque()).append(now)
        if len(wrong_codes) > 10_000:
            wrong_codes.clear()

    def guarded(request: Request | WebSocket) -> None:
        """Refuse ``429`` once this address has tried too many codes that do not exist."""
        key, now = client_key(request), time.monotonic()
        failures = wrong_codes.get(key)
        if failures is not None:
            while failures and failures[0] < now - 60:
                failures.popleft()
            if len(failures) >= settings.wrong_codes_per_minute:
                raise Refused(
                    "too_many_attempts",
                    "Too many room codes that do not exist were tried; wait a minute.",
                    429,
                )

    def bearer(request: Request) -> str | None:
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        return value.strip() if scheme.lower() == "bearer" else None

    def room_reply(room: Room, p: Participant | None = None) -> dict[str, Any]:
        """The room as ``p`` sees it (the host reads the whole config), else as anyone does."""
        return {"room": room.summary(host=p is not None and p.id == room.host)}

    def joined(room: Room, p: Participant, token: str) -> JSONResponse:
        return JSONResponse(
            {"code": room.code, "token": token, "participant": p.id, **room_reply(room, p)},
            status_code=201,
        )

    class Reply:
        """Builds a newcomer's answer before the room is saved (``RoomManager.join``)."""

        response: JSONResponse | None = None

        def __call__(self, room: Room, p: Participant, token: str) -> None:
            self.response = joined(room, p, token)

    # -- games --------------------------------------------------------------------------

    @app.get("/api/games", tags=["games"])
    async def list_games() -> list[dict[str, Any]]:
        """Every registered game with its options, default configuration, seats and bot kinds."""
        return [game_info(g) for g in games.all()]

    @app.get("/api/games/{game_id}", tags=["games"])
    async def get_game(game_id: str) -> dict[str, Any]:
        from wolfden.server.rooms import find_game

        return game_info(find_game(game_id))

    # -- rooms --------------------------------------------------------------------------

    @app.post("/api/rooms", tags=["rooms"], status_code=201)
    async def create_room(body: CreateRoom, request: Request) -> JSONResponse:
        """Create a room; the creator is its host. Answers the code and the host's token."""
        key, now = client_key(request), time.monotonic()
        made = created.setdefault(key, collections.deque())
        while made and made[0] < now - 60:
            made.popleft()
        if len(made) >= settings.rooms_per_minute:
            raise Refused(
                "too_many_attempts", "Too many rooms were created from here; wait a minute.", 429
            )
        made.append(now)
        if len(created) > 10_000:
            created.clear()
        reply = Reply()
        manager.create_room(body.game, body.config, body.name, body.role, reply)
        assert reply.response is not None
        return reply.response

    @app.get("/api/rooms/{code}", tags=["rooms"])
    async def get_room(code: str, request: Request) -> dict[str, Any]:
        """The room summary: seats, participants, presence, settings, status."""
        return look_up(request, code).summary()

    @app.post("/api/rooms/{code}/join", tags=["rooms"], status_code=201)
    async def join_room(code: str, body: JoinRoom, request: Request) -> JSONResponse:
        """Join by code as a player (takes the first free seat), a spectator or a table screen."""
        room = look_up(request, code)
        reply = Reply()
        manager.join(room, body.name, body.role, reply)
        assert reply.response is not None
        return reply.response

    @app.get("/api/rooms/{code}/qr.svg", tags=["rooms"], response_class=Response)
    async def room_qr(code: str, request: Request) -> Response:
        """A QR code (SVG) of the room's join link, for phones to scan from the host's screen."""
        import segno

        room = look_up(request, code)
        link = f"{address.link_base(request, settings).url}#/r/{room.code}"
        buffer = io.BytesIO()
        segno.make(link, error="m").save(
            buffer, kind="svg", border=2, dark="#000", light="#fff", xmldecl=False, omitsize=True
        )
        return Response(buffer.getvalue(), media_type="image/svg+xml")

    @app.get("/api/rooms/{code}/me", tags=["rooms"])
    async def me(code: str, request: Request) -> dict[str, Any]:
        """Who this token is in the room (401 if it no longer works)."""
        room = look_up(request, code)
        p = manager.authenticate(room, bearer(request))
        return {"participant": room.participant_json(p), **room_reply(room, p)}

    @app.post("/api/rooms/{code}/participants/{pid}/seat", tags=["rooms"])
    async def take_seat(code: str, pid: str, body: TakeSeat, request: Request) -> dict[str, Any]:
        """Move to a seat, take any free seat, or sit out (null). Yourself, or anyone as host."""
        room = look_up(request, code)
        actor = manager.authenticate(room, bearer(request))
        manager.move(room, actor, manager.participant(room, pid), body.seat)
        return room_reply(room, actor)

    @app.post("/api/rooms/{code}/participants/{pid}/leave", tags=["rooms"])
    async def leave(code: str, pid: str, request: Request) -> dict[str, Any]:
        """Leave the room; the token stops working."""
        room = look_up(request, code)
        actor = manager.authenticate(room, bearer(request))
        if actor.id != pid:
            raise Refused("forbidden", "You can only leave for yourself; the host can kick.", 403)
        manager.remove_participant(room, actor, "left")
        return room_reply(room)

    # -- host controls --------------------------------------------------------------------

    def host_room(code: str, request: Request) -> Room:
        room = look_up(request, code)
        manager.require_host(room, bearer(request))
        return room

    def host_reply(room: Room) -> dict[str, Any]:
        return {"room": room.summary(host=True)}

    @app.put("/api/rooms/{code}/config", tags=["host"])
    async def set_config(code: str, body: SetConfig, request: Request) -> dict[str, Any]:
        """Replace the configuration between matches; the seats follow its player count."""
        room = host_room(code, request)
        manager.set_config(room, body.config)
        return host_reply(room)

    @app.put("/api/rooms/{code}/settings", tags=["host"])
    async def set_settings(code: str, body: SetSettings, request: Request) -> dict[str, Any]:
        """What happens to absent players, the grace period, the stand-in bot, the bot delay."""
        room = host_room(code, request)
        manager.set_settings(room, body.model_dump(exclude_none=True))
        return host_reply(room)

    @app.post("/api/rooms/{code}/seats/{seat}/bot", tags=["host"])
    async def add_bot(code: str, seat: int, body: AddBot, request: Request) -> dict[str, Any]:
        """Put a bot of the given kind in an empty seat."""
        room = host_room(code, request)
        manager.add_bot(room, seat, body.kind)
        return host_reply(room)

    @app.delete("/api/rooms/{code}/seats/{seat}/bot", tags=["host"])
    async def remove_bot(code: str, seat: int, request: Request) -> dict[str, Any]:
        """Take the bot out of a seat."""
        room = host_room(code, request)
        manager.remove_bot(room, seat)
        return host_reply(room)

    @app.post("/api/rooms/{code}/participants/{pid}/kick", tags=["host"])
    async def kick(code: str, pid: str, request: Request) -> dict[str, Any]:
        """Remove someone; in a match a stand-in bot plays their seat."""
        room = host_room(code, request)
        manager.remove_participant(room, manager.participant(room, pid), "kicked")
        return host_reply(room)

    @app.post("/api/rooms/{code}/participants/{pid}/token", tags=["host"])
    async def reissue(code: str, pid: str, request: Request) -> dict[str, Any]:
        """Move a participant to a new device: a fresh token; the old one stops working."""
        room = host_room(code, request)
        target = manager.participant(room, pid)
        return {"token": manager.new_token(room, target), "participant": target.id}

    @app.post("/api/rooms/{code}/devices", tags=["host"])
    async def shared_device(code: str, body: SharedDevice, request: Request) -> dict[str, Any]:
        """A shared device: one device acting for several seats, handed from player to player.
        A new device answers its token (once); ``this_device`` makes the host's own device it."""
        room = look_up(request, code)
        host = manager.require_host(room, bearer(request))
        device, token = manager.share(
            room,
            host,
            body.seats,
            names=body.names,
            name=body.name,
            this_device=body.this_device,
            secret_turns=body.secret_turns,
        )
        return {"participant": device.id, "token": token, **room_reply(room, host)}

    @app.post("/api/rooms/{code}/host", tags=["host"])
    async def hand_over(code: str, body: HandOver, request: Request) -> dict[str, Any]:
        """Hand the host role to another participant."""
        room = host_room(code, request)
        manager.hand_over(room, manager.participant(room, body.participant))
        return room_reply(room)  # no longer the host's: the config as anyone reads it

    @app.post("/api/rooms/{code}/start", tags=["host"])
    async def start(code: str, request: Request, body: Start | None = None) -> dict[str, Any]:
        """Deal and start a match; empty seats get bots."""
        room = host_room(code, request)
        body = body or Start.model_validate({})
        fill: Any = body.fill_with if "fill_with" in body.model_fields_set else ""
        manager.start(room, fill_with=fill, seed=body.seed)
        return host_reply(room)

    @app.post("/api/rooms/{code}/again", tags=["host"])
    async def again(code: str, request: Request, body: Again | None = None) -> dict[str, Any]:
        """Play again with the same seats and configuration."""
        room = host_room(code, request)
        manager.start(room, seed=body.seed if body else None, again=True)
        return host_reply(room)

    @app.post("/api/rooms/{code}/end", tags=["host"])
    async def end(code: str, request: Request) -> dict[str, Any]:
        """End the match now, without a result."""
        room = host_room(code, request)
        manager.end(room)
        return host_reply(room)

    @app.post("/api/rooms/{code}/pause", tags=["host"])
    async def pause(code: str, request: Request) -> dict[str, Any]:
        """Stop the clock; actions are refused until resume."""
        room = host_room(code, request)
        manager.pause(room, True)
        return host_reply(room)

    @app.post("/api/rooms/{code}/resume", tags=["host"])
    async def resume(code: str, request: Request) -> dict[str, Any]:
        """Start the clock again; the paused time is added to the deadline."""
        room = host_room(code, request)
        manager.pause(room, False)
        return host_reply(room)

    # -- matches --------------------------------------------------------------------------

    @app.get("/api/matches/{match_id}", tags=["matches"])
    async def match_record(match_id: str, request: Request) -> dict[str, Any]:
        """The record of an ended match, as `wolfden replay` reads it (a match still being
        played answers 404, as one that does not exist)."""
        guarded(request)
        try:
            return manager.record(match_id)
        except Refused:
            wrong(client_key(request), time.monotonic())
            raise

    # -- play -----------------------------------------------------------------------------

    @app.websocket("/ws")
    async def play(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws, settings)
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
                await handle(conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            if conn.room is not None:
                manager.detach(conn.room, conn)
            if not conn.closing:
                conn.closing = True
                conn.queue.put_nowait(("", 1000))
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 2)

    async def handle(conn: Connection, text: str) -> None:
        if not conn.allow():
            if conn.dropped > settings.flood_limit:
                conn.close("flood")
            elif conn.dropped == 1 or conn.dropped % 20 == 0:
                conn.error("rate_limited", "Too many messages; slow down.")
            return
        if len(text) > settings.max_message_bytes or len(text.encode("utf-8", "surrogatepass")) > (
            settings.max_message_bytes
        ):
            conn.error("too_large", f"A message may be at most {settings.max_message_bytes} bytes.")
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
                hello(conn, msg)
            elif kind == "ping":
                body: dict[str, Any] = {"type": "pong", "server_time": clock.now()}
                if ref is not None:
                    body["id"] = ref
                conn.send(_json(body))
            elif kind in ("action", "host_action"):
                await act(conn, msg, ref, host=kind == "host_action")
            elif kind in ("reveal", "cover"):
                await hand_over_device(conn, msg, ref, kind)
            elif kind == "drafting":
                await drafting(conn, msg, ref)
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

    def hello(conn: Connection, msg: dict[str, Any]) -> None:
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
        room = look_up(conn.ws, msg.get("room"))  # type: ignore[arg-type]
        p = manager.authenticate(room, msg.get("token"))
        conn.room, conn.participant, conn.token_hash = room, p.id, token_hash(msg["token"])
        conn.v = v
        conn.send(
            json.dumps(
                {
                    "type": "welcome",
                    "v": v,
                    "you": room.participant_json(p) | {"connected": True},
                    "server_time": clock.now(),
                },
                ensure_ascii=False,
            )
        )
        if not manager.attach(room, conn):
            conn.send(
                json.dumps(
                    {
                        "type": "room",
                        "room": room.summary(host=p.id == room.host),
                        "server_time": clock.now(),
                    },
                    ensure_ascii=False,
                )
            )
        manager.send_view(room, conn)

    async def act(conn: Connection, msg: dict[str, Any], ref: Any, *, host: bool) -> None:
        room = conn.room
        if room is None:
            raise Refused("not_ready", 'Say "hello" with your room code and token first.')
        version = msg.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise Refused(
                "invalid_message", "'version' is the whole number of the view you acted on."
            )
        feed = conn.feed
        if conn.v >= 3:
            feed.answer, feed.answered = _json(ref), False
        try:
            action = manager.parse_action(msg)
            p = room.participants.get(conn.participant)
            if p is None:
                raise Refused("unauthorized", "This token no longer works in this room.", 401)
            if host and "seat" in msg:
                raise Refused("not_your_seat", "A host action is for no seat; leave out 'seat'.")
            if host:
                new_version = await manager.host_action(room, p, conn, action, version)
            else:
                new_version = await manager.player_action(
                    room, p, conn, action, version, msg.get("seat")
                )
        except Refused as exc:
            body: dict[str, Any] = {
                "type": "rejected",
                "error": {"code": exc.code, "message": exc.message},
            }
            if ref is not None:
                body["id"] = ref
            conn.send(json.dumps(body, ensure_ascii=False))
            return
        finally:
            feed.answer = None
        if not feed.answered:  # (protocol 3: the view frame the action brought answered it)
            conn.send(_json({"type": "accepted", "id": ref, "version": new_version}))

    async def hand_over_device(conn: Connection, msg: dict[str, Any], ref: Any, kind: str) -> None:
        """A shared device: ``reveal`` (the hand-over to a seat was confirmed) or ``cover``."""
        room = conn.room
        if room is None:
            raise Refused("not_ready", 'Say "hello" with your room code and token first.')
        p = room.participants.get(conn.participant)
        if p is None:
            raise Refused("unauthorized", "This token no longer works in this room.", 401)
        if kind == "reveal":
            await manager.reveal(room, p, conn, msg.get("seat"))
        else:
            await manager.cover(room, p, conn)
        conn.send(_json({"type": "accepted", "id": ref, "version": conn.feed.version}))

    async def drafting(conn: Connection, msg: dict[str, Any], ref: Any) -> None:
        """A person is typing a free-text action (``"on": true``) or no longer is."""
        room = conn.room
        if room is None:
            raise Refused("not_ready", 'Say "hello" with your room code and token first.')
        p = room.participants.get(conn.participant)
        if p is None:
            raise Refused("unauthorized", "This token no longer works in this room.", 401)
        await manager.drafting(room, p, conn, msg.get("on"))
        if ref is not None:
            conn.send(_json({"type": "accepted", "id": ref, "version": conn.feed.version}))

    install_wordlists(app, settings, manager, look_up)
    address.install(app, settings)

    web = settings.web_dir
    if web is not None and Path(web).is_dir():
        app.mount("/", WebClient(directory=str(web), html=True), name="web")

    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RawSend)
    return app
