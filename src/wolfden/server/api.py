"""The REST lobby: games, rooms, seats, host controls and match records (OpenAPI at
/openapi.json). Every handler is ordinary module-level code; the app's shared state reaches it
through the request (``served``)."""

from __future__ import annotations

import io
import time
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from wolfden import games
from wolfden.server import address
from wolfden.server.errors import Refused
from wolfden.server.middleware import StrictRoute
from wolfden.server.rooms import Participant, Room, find_game, game_info
from wolfden.server.state import client_key, served

router = APIRouter(route_class=StrictRoute)


def install(app: FastAPI) -> None:
    """Add the lobby's routes to ``app``, each one of the app's own routes (as if declared on
    it), so the app lists them, documents them and matches them in this order."""
    app.router.routes.extend(router.routes)


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
    table_key: str | None = Field(
        None,
        max_length=200,
        description="The key of the host's table-screen link (role table): let in at once. "
        "A table screen without one waits for the host.",
    )


class Admit(Body):
    admit: bool = Field(description="True lets the waiting table screen in; false turns it away.")


class Narrator(Body):
    participant: str | None = Field(
        description="The participant whose device reads the narration aloud; null for the "
        "default (the table screen, else a shared device, else the host's device)."
    )


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


# -- answers ----------------------------------------------------------------------------------


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


@router.get("/api/games", tags=["games"])
async def list_games() -> list[dict[str, Any]]:
    """Every registered game with its options, default configuration, seats and bot kinds."""
    return [game_info(g) for g in games.all()]


@router.get("/api/games/{game_id}", tags=["games"])
async def get_game(game_id: str) -> dict[str, Any]:
    return game_info(find_game(game_id))


# -- rooms --------------------------------------------------------------------------


@router.post("/api/rooms", tags=["rooms"], status_code=201)
async def create_room(body: CreateRoom, request: Request) -> JSONResponse:
    """Create a room; the creator is its host. Answers the code and the host's token."""
    state = served(request)
    state.may_create(request)
    reply = Reply()
    state.manager.create_room(body.game, body.config, body.name, body.role, reply)
    assert reply.response is not None
    return reply.response


@router.get("/api/rooms/{code}", tags=["rooms"])
async def get_room(code: str, request: Request) -> dict[str, Any]:
    """The room summary: seats, participants, presence, settings, status."""
    state = served(request)
    return state.look_up(request, code).summary()


@router.post("/api/rooms/{code}/join", tags=["rooms"], status_code=201)
async def join_room(code: str, body: JoinRoom, request: Request) -> JSONResponse:
    """Join by code as a player (takes the first free seat), a spectator or a table screen."""
    state = served(request)
    room = state.look_up(request, code)
    reply = Reply()
    state.manager.join(room, body.name, body.role, reply, table_key=body.table_key)
    assert reply.response is not None
    return reply.response


@router.get("/api/rooms/{code}/qr.svg", tags=["rooms"], response_class=Response)
async def room_qr(code: str, request: Request) -> Response:
    """A QR code (SVG) of the room's join link, for phones to scan from the host's screen."""
    state = served(request)
    room = state.look_up(request, code)
    link = f"{address.link_base(request, state.settings).url}#/r/{room.code}"
    return Response(qr_svg(link), media_type="image/svg+xml")


@router.get("/api/rooms/{code}/me", tags=["rooms"])
async def me(code: str, request: Request) -> dict[str, Any]:
    """Who this token is in the room (401 if it no longer works)."""
    state = served(request)
    room = state.look_up(request, code)
    p = state.manager.authenticate(room, bearer(request))
    return {"participant": room.participant_json(p), **room_reply(room, p)}


@router.post("/api/rooms/{code}/participants/{pid}/seat", tags=["rooms"])
async def take_seat(code: str, pid: str, body: TakeSeat, request: Request) -> dict[str, Any]:
    """Move to a seat, take any free seat, or sit out (null). Yourself, or anyone as host."""
    state = served(request)
    room = state.look_up(request, code)
    actor = state.manager.authenticate(room, bearer(request))
    state.manager.move(room, actor, state.manager.participant(room, pid), body.seat)
    return room_reply(room, actor)


@router.post("/api/rooms/{code}/participants/{pid}/leave", tags=["rooms"])
async def leave(code: str, pid: str, request: Request) -> dict[str, Any]:
    """Leave the room; the token stops working."""
    state = served(request)
    room = state.look_up(request, code)
    actor = state.manager.authenticate(room, bearer(request))
    if actor.id != pid:
        raise Refused("forbidden", "You can only leave for yourself; the host can kick.", 403)
    state.manager.remove_participant(room, actor, "left")
    return room_reply(room)


# -- host controls --------------------------------------------------------------------


def host_room(code: str, request: Request) -> Room:
    state = served(request)
    room = state.look_up(request, code)
    state.manager.require_host(room, bearer(request))
    return room


def host_reply(room: Room) -> dict[str, Any]:
    return {"room": room.summary(host=True)}


@router.put("/api/rooms/{code}/config", tags=["host"])
async def set_config(code: str, body: SetConfig, request: Request) -> dict[str, Any]:
    """Replace the configuration between matches; the seats follow its player count."""
    state = served(request)
    room = host_room(code, request)
    state.manager.set_config(room, body.config)
    return host_reply(room)


@router.put("/api/rooms/{code}/settings", tags=["host"])
async def set_settings(code: str, body: SetSettings, request: Request) -> dict[str, Any]:
    """What happens to absent players, the grace period, the stand-in bot, the bot delay."""
    state = served(request)
    room = host_room(code, request)
    state.manager.set_settings(room, body.model_dump(exclude_none=True))
    return host_reply(room)


@router.post("/api/rooms/{code}/seats/{seat}/bot", tags=["host"])
async def add_bot(code: str, seat: int, body: AddBot, request: Request) -> dict[str, Any]:
    """Put a bot of the given kind in an empty seat."""
    state = served(request)
    room = host_room(code, request)
    state.manager.add_bot(room, seat, body.kind)
    return host_reply(room)


@router.delete("/api/rooms/{code}/seats/{seat}/bot", tags=["host"])
async def remove_bot(code: str, seat: int, request: Request) -> dict[str, Any]:
    """Take the bot out of a seat."""
    state = served(request)
    room = host_room(code, request)
    state.manager.remove_bot(room, seat)
    return host_reply(room)


@router.post("/api/rooms/{code}/participants/{pid}/kick", tags=["host"])
async def kick(code: str, pid: str, request: Request) -> dict[str, Any]:
    """Remove someone; in a match a stand-in bot plays their seat."""
    state = served(request)
    room = host_room(code, request)
    state.manager.remove_participant(room, state.manager.participant(room, pid), "kicked")
    return host_reply(room)


@router.post("/api/rooms/{code}/participants/{pid}/token", tags=["host"])
async def reissue(code: str, pid: str, request: Request) -> dict[str, Any]:
    """Move a participant to a new device: a fresh token; the old one stops working."""
    state = served(request)
    room = host_room(code, request)
    target = state.manager.participant(room, pid)
    return {"token": state.manager.new_token(room, target), "participant": target.id}


@router.post("/api/rooms/{code}/devices", tags=["host"])
async def shared_device(code: str, body: SharedDevice, request: Request) -> dict[str, Any]:
    """A shared device: one device acting for several seats, handed from player to player.
    A new device answers its token (once); ``this_device`` makes the host's own device it."""
    state = served(request)
    room = state.look_up(request, code)
    host = state.manager.require_host(room, bearer(request))
    device, token = state.manager.share(
        room,
        host,
        body.seats,
        names=body.names,
        name=body.name,
        this_device=body.this_device,
        secret_turns=body.secret_turns,
    )
    return {"participant": device.id, "token": token, **room_reply(room, host)}


def qr_svg(link: str) -> str:
    """A QR code of ``link`` as SVG text."""
    import segno

    buffer = io.BytesIO()
    segno.make(link, error="m").save(
        buffer, kind="svg", border=2, dark="#000", light="#fff", xmldecl=False, omitsize=True
    )
    return buffer.getvalue().decode()


@router.post("/api/rooms/{code}/table-link", tags=["host"])
async def table_link(code: str, request: Request) -> dict[str, Any]:
    """A link (and its QR code) that opens this room's table screen and lets it in without
    asking: it carries a key that lets one screen in. Only the host gets one."""
    state = served(request)
    room = host_room(code, request)
    key = state.manager.table_link(room)
    link = f"{address.link_base(request, state.settings).url}#/t/{room.code}/{key}"
    return {"key": key, "link": link, "qr": qr_svg(link)}


@router.post("/api/rooms/{code}/participants/{pid}/admit", tags=["host"])
async def admit(code: str, pid: str, body: Admit, request: Request) -> dict[str, Any]:
    """Let a table screen that asked to join in (admit true), or turn it away (false: it
    leaves the room)."""
    state = served(request)
    room = host_room(code, request)
    state.manager.admit(room, state.manager.participant(room, pid), body.admit)
    return host_reply(room)


@router.put("/api/rooms/{code}/narrator", tags=["host"])
async def narrator(code: str, body: Narrator, request: Request) -> dict[str, Any]:
    """Choose the device that reads the narration aloud (null: the default)."""
    state = served(request)
    room = host_room(code, request)
    state.manager.set_narrator(room, body.participant)
    return host_reply(room)


@router.post("/api/rooms/{code}/host", tags=["host"])
async def hand_over(code: str, body: HandOver, request: Request) -> dict[str, Any]:
    """Hand the host role to another participant."""
    state = served(request)
    room = host_room(code, request)
    state.manager.hand_over(room, state.manager.participant(room, body.participant))
    return room_reply(room)  # no longer the host's: the config as anyone reads it


@router.post("/api/rooms/{code}/start", tags=["host"])
async def start(code: str, request: Request, body: Start | None = None) -> dict[str, Any]:
    """Deal and start a match; empty seats get bots."""
    state = served(request)
    room = host_room(code, request)
    body = body or Start.model_validate({})
    fill: Any = body.fill_with if "fill_with" in body.model_fields_set else ""
    state.manager.start(room, fill_with=fill, seed=body.seed)
    return host_reply(room)


@router.post("/api/rooms/{code}/again", tags=["host"])
async def again(code: str, request: Request, body: Again | None = None) -> dict[str, Any]:
    """Play again with the same seats and configuration."""
    state = served(request)
    room = host_room(code, request)
    state.manager.start(room, seed=body.seed if body else None, again=True)
    return host_reply(room)


@router.post("/api/rooms/{code}/end", tags=["host"])
async def end(code: str, request: Request) -> dict[str, Any]:
    """End the match now, without a result."""
    state = served(request)
    room = host_room(code, request)
    state.manager.end(room)
    return host_reply(room)


@router.post("/api/rooms/{code}/pause", tags=["host"])
async def pause(code: str, request: Request) -> dict[str, Any]:
    """Stop the clock; actions are refused until resume."""
    state = served(request)
    room = host_room(code, request)
    state.manager.pause(room, True)
    return host_reply(room)


@router.post("/api/rooms/{code}/resume", tags=["host"])
async def resume(code: str, request: Request) -> dict[str, Any]:
    """Start the clock again; the paused time is added to the deadline."""
    state = served(request)
    room = host_room(code, request)
    state.manager.pause(room, False)
    return host_reply(room)


# -- matches --------------------------------------------------------------------------


@router.get("/api/matches/{match_id}", tags=["matches"])
async def match_record(match_id: str, request: Request) -> dict[str, Any]:
    """The record of an ended match, as `wolfden replay` reads it (a match still being
    played answers 404, as one that does not exist)."""
    state = served(request)
    state.guarded(request)
    try:
        return state.manager.record(match_id)
    except Refused:
        state.wrong(client_key(request), time.monotonic())
        raise
