"""The ASGI app: REST lobby (OpenAPI at /openapi.json, handlers in ``api``), the play WebSocket
at /ws (``ws``), the web client at /. ``create_app`` only assembles them around one
``AppState``."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from wolfden.server import address, api, middleware, setups, ws
from wolfden.server.bus import open_bus
from wolfden.server.clock import Clock, RealClock
from wolfden.server.cluster import Cluster, Forward, node_name
from wolfden.server.errors import Refused
from wolfden.server.middleware import BodyLimit, RawSend, SecurityHeaders, StrictRoute, WebClient
from wolfden.server.rooms import PROTOCOL_VERSION, RoomManager
from wolfden.server.settings import Settings
from wolfden.server.state import AppState
from wolfden.server.wordlists import install as install_wordlists
from wolfden.storage.rooms import RoomStore, open_room_store


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
    cluster: Cluster | None = None
    if settings.bus is None:
        manager.recover()
    else:
        # a node of a cluster runs no room until it creates one or takes one over
        cluster = Cluster(manager, open_bus(settings.bus, node_name()), settings.lease_seconds)
        manager.cluster = cluster
    state = AppState(settings, manager, clock, cluster=cluster)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager.start_background()
        if cluster is not None:
            await cluster.start()
        yield
        app.state.estimator.close()
        await manager.shutdown()
        if cluster is not None:
            await cluster.stop()

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
    app.state.server = state
    app.state.manager = manager
    app.state.clock = clock

    app.add_exception_handler(Refused, middleware.refused)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, middleware.invalid)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, middleware.http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, middleware.crashed)

    api.install(app)
    app.add_api_websocket_route("/ws", ws.play)

    install_wordlists(app, settings, manager)
    setups.install(app, settings, app.state.community.path)
    address.install(app, settings)

    web = settings.web_dir
    if web is not None and Path(web).is_dir():
        app.mount("/", WebClient(directory=str(web), html=True), name="web")

    if cluster is not None:
        cluster.state, cluster.app = state, app
        app.add_middleware(Forward, cluster=cluster)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RawSend)
    return app
