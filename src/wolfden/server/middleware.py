"""The HTTP layer around the lobby and the play socket: security headers, the body-size limit,
strict JSON (no NaN or Infinity), the raw ``send`` of each WebSocket, the web client's static
files, and the error answers every REST route gives."""

from __future__ import annotations

import json
import logging
import math
import mimetypes
import re
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from wolfden.server.errors import Refused

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


QUICK_MAX = 1_500
"""The longest text ``parse_json`` first hands to orjson: too short to nest as deep as the
standard library's parser refuses to go, which orjson would still take."""

_LONG_DIGITS = re.compile(r"[0-9]{19}")
_LONG_DIGITS_BYTES = re.compile(rb"[0-9]{19}")


def parse_json(text: str | bytes) -> Any:
    """JSON as the standard allows it: NaN, Infinity and numbers beyond a float's range are
    refused (``NotFinite``, a ``ValueError``) instead of becoming values no answer can carry.

    The standard library's parser says what is wrong and gives every number its exact value;
    a short message (every play message) is read first by orjson, several times faster, whose
    value is the same wherever it reads the text at all: it refuses NaN, Infinity, numbers
    beyond a float's range, lone surrogates and all that is not JSON (the standard library then
    reads the text again, for the same answer as ever), and a whole number of 19 digits or
    more, which it would turn into a float, is never handed to it."""
    digits = _LONG_DIGITS if isinstance(text, str) else _LONG_DIGITS_BYTES
    if len(text) <= QUICK_MAX and digits.search(text) is None:  # type: ignore[arg-type]
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
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


# -- error answers ----------------------------------------------------------------------------


async def refused(request: Request, exc: Refused) -> JSONResponse:
    return JSONResponse(exc.to_json(), status_code=exc.status)


async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        if err.get("type") == "json_invalid":
            why = str((err.get("ctx") or {}).get("error", ""))
            parts.append("the body is not valid JSON" + (f": {why}" if FINITE_ONLY in why else ""))
        elif err.get("type") == "extra_forbidden":
            parts.append(f"'{where}' is not a field of this request")
        else:
            parts.append(f"'{where or 'body'}': {err.get('msg', 'invalid')}")
    message = "The request is not right: " + "; ".join(parts) + "."
    return JSONResponse({"error": {"code": "bad_request", "message": message}}, status_code=400)


async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
    message = {
        404: "There is nothing at this address.",
        405: "This address does not accept that method.",
    }.get(exc.status_code, str(exc.detail))
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=exc.status_code)


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
