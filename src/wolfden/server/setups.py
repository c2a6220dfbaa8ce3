"""The Werewolf setup editor's endpoints: a setup's balance while the host edits it, applying a
setup to a room, saved setups by short code, and the built-in library.

Estimates run in worker processes (``Estimator``), never on the event loop and never in the
server's own process: the workers import the module named by ``Settings.estimate_worker``
(the simulator's ``wolfden.sim.estimate``), which the server process itself does not load. An
estimate depends on the setup's text alone (fixed seeds, ``rules`` bots), never on a match, so
it tells nobody anything secret, and the same setup is answered from a small cache.

A room has at most one estimate running: a newer request for the room (the host changed the
setup) cancels the older one, which answers ``{"superseded": true, ...}``; no more of its work is
started (a job already in a worker, at most about a second, runs out and is dropped). At most
``Settings.estimates_at_once`` estimates run in the whole server (more: ``503 busy``), and one
address may ask for ``Settings.estimates_per_minute`` (more: ``429``).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import importlib
import multiprocessing
import time
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from wolfden.engine.config import config_to_json
from wolfden.engine.errors import ConfigError
from wolfden.games.werewolf.config import Config
from wolfden.games.werewolf.setups import (
    MAX_SETUP_LENGTH,
    ROLES,
    Setup,
    library,
    parse_setup,
    setup_of,
)
from wolfden.server.errors import Refused
from wolfden.server.middleware import StrictRoute
from wolfden.server.settings import Settings
from wolfden.server.state import client_key, served
from wolfden.storage.errors import StorageError
from wolfden.storage.setups import MAX_NAME, SetupStore
from wolfden.storage.sqlite import default_db_path

router = APIRouter(route_class=StrictRoute)
GAME = "werewolf"

MAIN = (2000, 1.0)
"""(most games, seconds) for the setup's own estimate."""
SCREEN = (400, 0.25)
"""(most games, seconds) for each one-role change while looking for the suggestion."""
CACHE_SIZE = 512
SEED_ROLES = ("werewolf", "seer", "guardian")
"""The roles a suggestion may add (the kernel plays them); any role may be taken out."""


def _call(module: str, name: str, *args: Any) -> Any:
    """Run ``module.name(*args)`` in a worker (the module is imported there, not here)."""
    return getattr(importlib.import_module(module), name)(*args)


class Superseded(Exception):
    """The room asked for another estimate (its setup changed) before this one ended."""


class Estimator:
    """The worker processes and the bookkeeping: one estimate per room, a cap overall, a
    per-address rate, a cache by setup."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.module = settings.estimate_worker
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.running: dict[str, asyncio.Task[dict[str, Any]]] = {}
        self.asked: dict[str, collections.deque[float]] = {}
        self.cache: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self.pool is None:
            # spawn: a fork of a process with an event loop and threads is not safe
            self.pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.settings.estimate_workers,
                mp_context=multiprocessing.get_context("spawn"),
            )
        return self.pool

    def close(self) -> None:
        for task in self.running.values():
            task.cancel()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def rate(self, request: Request) -> None:
        key, now = client_key(request), time.monotonic()
        asked = self.asked.setdefault(key, collections.deque())
        while asked and asked[0] < now - 60:
            asked.popleft()
        if len(asked) >= self.settings.estimates_per_minute:
            raise Refused(
                "too_many_attempts", "Too many balance estimates from here; wait a minute.", 429
            )
        asked.append(now)
        if len(self.asked) > 10_000:
            self.asked.clear()

    async def _job(self, config: Config, budget: tuple[int, float]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        games, seconds = budget
        return await loop.run_in_executor(
            self._pool(), _call, self.module, "measure", config_to_json(config), games, seconds
        )

    async def estimate(self, room: str, setup: Setup, base: Config) -> dict[str, Any]:
        """The setup's balance and the one-role change that brings it closest to even."""
        text = setup.text()
        cached = self.cache.get(text)
        if cached is not None:
            self.cache.move_to_end(text)
            return cached
        earlier = self.running.pop(room, None)
        if earlier is not None:
            earlier.cancel()
        if len(self.running) >= self.settings.estimates_at_once:
            raise Refused(
                "busy", "The server is estimating other setups; try again in a moment.", 503
            )
        task = asyncio.create_task(self._estimate(setup, base))
        self.running[room] = task
        try:
            result = await task
        except asyncio.CancelledError:
            if task.cancelled() and self.running.get(room) is not task:
                # not an error for the editor: the host changed the setup meanwhile
                return {**shown(setup), "superseded": True}
            raise
        finally:
            if self.running.get(room) is task:
                del self.running[room]
        self.cache[text] = result
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)
        return result

    async def _estimate(self, setup: Setup, base: Config) -> dict[str, Any]:
        changes = []
        for name, option, title in ROLES:
            if option is None:
                continue
            for by in (1, -1):
                other = setup.changed(name, by)
                if other is None:
                    continue
                try:
                    other_config = other.config(base)
                except ConfigError:
                    continue
                if by > 0 and name not in SEED_ROLES:
                    # the compiled kernel plays the seed's roles in a fraction of a second; a
                    # variant role needs the rules in Python, ~50 times slower, so a
                    # suggestion changes the seed's roles or takes a variant role out
                    continue
                verb = "Add" if by > 0 else "Remove"
                how = "in place of a Villager" if by > 0 else "a Villager instead"
                changes.append((f"{verb} a {title} ({how})", other, other_config))
        main = asyncio.ensure_future(self._job(setup.config(base), MAIN))
        screened = [asyncio.ensure_future(self._job(c, SCREEN)) for _, _, c in changes]
        try:
            own = await main
            measured = [await job for job in screened]
        except BaseException:
            for job in (main, *screened):
                job.cancel()
            raise
        suggestion = None
        if changes:
            best = min(range(len(changes)), key=lambda i: abs(measured[i]["town"] - 0.5))
            label, other, other_config = changes[best]
            confirmed = own
            if abs(measured[best]["town"] - 0.5) < abs(own["town"] - 0.5):
                confirmed = await self._job(other_config, MAIN)
            if abs(confirmed["town"] - 0.5) < abs(own["town"] - 0.5):
                suggestion = {
                    "change": label,
                    "setup": other.text(),
                    "describe": other.describe(),
                    "estimate": confirmed,
                }
        return {
            **shown(setup),
            "estimate": own,
            "suggestion": suggestion,
            "closest": suggestion is None,
        }


# -- request bodies -------------------------------------------------------------------------


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SetupText(Body):
    setup: str = Field(
        description="Roles by count, e.g. werewolf=3,seer,witch,hunter,villager=6",
        max_length=MAX_SETUP_LENGTH,
    )


class SaveSetup(Body):
    name: str = Field(description="1–40 characters.", max_length=200)
    setup: str = Field(description="The setup's text.", max_length=MAX_SETUP_LENGTH)


# -- handlers -------------------------------------------------------------------------------


def estimator(request: Request) -> Estimator:
    found: Estimator = request.app.state.estimator
    return found


def store(request: Request) -> SetupStore:
    found: SetupStore = request.app.state.setups
    return found


def parsed(text: str) -> Setup:
    """The setup, or ``400 bad_setup`` saying what is wrong and what is allowed."""
    try:
        return parse_setup(text)
    except ConfigError as error:
        raise Refused("bad_setup", str(error), 400) from None


def werewolf_room(code: str, request: Request) -> Any:
    state = served(request)
    room = state.look_up(request, code)
    from wolfden.server.api import bearer

    state.manager.require_host(room, bearer(request))
    if room.game.id != GAME:
        raise Refused("not_werewolf", "Setups by role are for Werewolf rooms.", 400)
    return room


def room_config(room: Any) -> Config:
    config: Config = room.config
    return config


def dealt(setup: Setup, base: Config) -> Config:
    try:
        return setup.config(base)
    except ConfigError as error:
        raise Refused("bad_setup", str(error), 400) from None


@router.post("/api/rooms/{code}/estimate", tags=["setups"])
async def estimate(code: str, body: SetupText, request: Request) -> dict[str, Any]:
    """The balance of a setup the host is editing, with one suggested change. Only the host
    asks; the answer depends on the setup's text alone."""
    room = werewolf_room(code, request)
    found = estimator(request)
    found.rate(request)
    setup = parsed(body.setup)
    base = room_config(room)
    dealt(setup, base)
    return await found.estimate(room.code, setup, base)


@router.post("/api/setups/check", tags=["setups"])
async def check_setup(body: SetupText) -> dict[str, Any]:
    """Whether a setup can be dealt: ``{"ok": true, ...}`` with its counts, or ``{"ok": false,
    "reason": ...}`` saying what is wrong and what is allowed (the editor asks on every
    change, so a setup it cannot deal is an answer, not an error)."""
    try:
        setup = parse_setup(body.setup)
        setup.config()
    except ConfigError as error:
        return {"ok": False, "reason": str(error)}
    return {"ok": True, **shown(setup)}


@router.put("/api/rooms/{code}/setup", tags=["setups"])
async def set_setup(code: str, body: SetupText, request: Request) -> dict[str, Any]:
    """Deal this setup in the room's next match (the seats follow its number of players)."""
    state = served(request)
    room = werewolf_room(code, request)
    config = dealt(parsed(body.setup), room_config(room))
    state.manager.set_config(room, config_to_json(config))
    return {"room": room.summary(host=True), **shown(setup_of(config))}


@router.get("/api/setups", tags=["setups"])
async def list_library() -> dict[str, Any]:
    """The built-in setups with their measured balance."""
    return {
        "roles": [{"role": name, "title": title} for name, _, title in ROLES],
        "library": [
            {
                **shown(parse_setup(named.setup)),
                "key": named.key,
                "name": named.name,
                "about": named.about,
                "balance": named.balance,
            }
            for named in library()
        ],
    }


@router.post("/api/setups", tags=["setups"], status_code=201)
async def save_setup(body: SaveSetup, request: Request) -> dict[str, Any]:
    """Save a setup under a name; the answer's short code loads it again anywhere."""
    served(request).may_create(request)
    name = " ".join(body.name.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise Refused("bad_name", f"A setup's name is 1–{MAX_NAME} characters.", 400)
    setup = parsed(body.setup)
    dealt(setup, Config())
    try:
        saved = store(request).save(GAME, name, setup.text())
    except StorageError as error:
        raise Refused("unavailable", f"The setup could not be saved: {error}", 503) from None
    return {"code": saved.code, "name": saved.name, "setup": saved.setup}


@router.get("/api/setups/{code}", tags=["setups"])
async def load_setup(code: str, request: Request) -> dict[str, Any]:
    """A saved setup by its short code."""
    state = served(request)
    state.guarded(request)
    saved = store(request).load(code) if len(code) <= 20 else None
    if saved is None:
        state.wrong(client_key(request), time.monotonic())
        raise Refused("no_such_setup", "No setup is saved under this code; check it.", 404)
    return {"code": saved.code, "name": saved.name, **shown(parse_setup(saved.setup))}


def shown(setup: Setup) -> dict[str, Any]:
    """A setup as the editor reads it: its text, counts by role, players and description."""
    return {
        "setup": setup.text(),
        "counts": dict(setup.counts),
        "sheriff": setup.sheriff,
        "players": setup.players,
        "describe": setup.describe(),
    }


@router.get("/api/rooms/{code}/setup", tags=["setups"])
async def get_setup(code: str, request: Request) -> dict[str, Any]:
    """The setup the room deals now (for the editor's first view)."""
    room = werewolf_room(code, request)
    return shown(setup_of(room_config(room)))


def install(app: FastAPI, settings: Settings, db_path: Any) -> None:
    """Open the saved setups' store, start no workers yet (the first estimate does), and add
    the endpoints."""
    app.state.setups = SetupStore(db_path or default_db_path())
    app.state.estimator = Estimator(settings)
    app.include_router(router)
