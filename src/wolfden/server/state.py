"""What the HTTP and WebSocket handlers share, passed to them explicitly: the room manager, the
settings, the clock, and the per-address counts behind the limits on wrong room codes and new
rooms. ``create_app`` builds one and keeps it as ``app.state.server``."""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection

from wolfden.server.clock import Clock
from wolfden.server.errors import Refused
from wolfden.server.rooms import Room, RoomManager
from wolfden.server.settings import Settings

if TYPE_CHECKING:
    from wolfden.server.cluster import Cluster


@dataclass
class AppState:
    settings: Settings
    manager: RoomManager
    clock: Clock
    cluster: Cluster | None = None
    """This node's part of a cluster; None for a single server."""
    wrong_codes: dict[str, collections.deque[float]] = field(default_factory=dict)
    """Per client address: when it tried a room code that does not exist (last minute)."""
    created: dict[str, collections.deque[float]] = field(default_factory=dict)
    """Per client address: when it created a room (last minute)."""

    def look_up(self, request: HTTPConnection, code: str) -> Room:
        """The room with this code; a wrong code counts against the address that tried it."""
        key, now = client_key(request), time.monotonic()
        self.guarded(request)
        try:
            return self.manager.get(code)
        except Refused:
            self.wrong(key, now)
            raise

    def wrong(self, key: str, now: float) -> None:
        self.wrong_codes.setdefault(key, collections.deque()).append(now)
        if len(self.wrong_codes) > 10_000:
            self.wrong_codes.clear()

    def guarded(self, request: HTTPConnection) -> None:
        """Refuse ``429`` once this address has tried too many codes that do not exist."""
        key, now = client_key(request), time.monotonic()
        failures = self.wrong_codes.get(key)
        if failures is not None:
            while failures and failures[0] < now - 60:
                failures.popleft()
            if len(failures) >= self.settings.wrong_codes_per_minute:
                raise Refused(
                    "too_many_attempts",
                    "Too many room codes that do not exist were tried; wait a minute.",
                    429,
                )

    def may_create(self, request: HTTPConnection) -> None:
        """Refuse ``429`` once this address has created too many rooms in the last minute."""
        key, now = client_key(request), time.monotonic()
        made = self.created.setdefault(key, collections.deque())
        while made and made[0] < now - 60:
            made.popleft()
        if len(made) >= self.settings.rooms_per_minute:
            raise Refused(
                "too_many_attempts", "Too many rooms were created from here; wait a minute.", 429
            )
        made.append(now)
        if len(self.created) > 10_000:
            self.created.clear()


def client_key(request: HTTPConnection) -> str:
    return request.client.host if request.client else "?"


def served(request: HTTPConnection) -> AppState:
    """The state of the app that received this request or socket."""
    state: AppState = request.app.state.server
    return state
