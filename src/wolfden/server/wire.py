"""The wire: the only place that builds the frames the server sends (docs/protocol.md).

The frames of one room's match (``view``) are built here from the room, once per kind of
viewer, and written to each connection whose view changed; so are the lobby's ``room`` frame,
``welcome``, ``pong``, ``accepted``, ``rejected``, ``error`` and ``closed``. A connection's
``Feed`` is what it was last shown, and (protocol 3) the answer an action of its own waits for:
only this module reads or writes it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from wolfden.engine import SPECTATOR, Action, Event, Game, Viewer

if TYPE_CHECKING:
    from wolfden.server.rooms import Participant, Room

SHARED = "shared"
"""The role of a shared device (one device handed from seat to seat)."""

_ORJSON = orjson.OPT_NON_STR_KEYS


def _plain(obj: Any) -> Any:
    if isinstance(obj, tuple):
        return list(obj)
    if isinstance(obj, Mapping):
        return dict(obj)
    raise TypeError(f"{type(obj).__name__} is not JSON")


def encode(obj: Any) -> str:
    """Compact JSON text; orjson, because every view is encoded once per viewer. Most objects
    have only text keys: they are encoded without the (slower) non-text-key option, which is
    used only when the first attempt meets a key that is not text (the text is the same)."""
    try:
        return orjson.dumps(obj, default=_plain).decode()
    except TypeError:
        return orjson.dumps(obj, default=_plain, option=_ORJSON).decode()


def _text(obj: Any) -> str:
    """JSON text as the standard library writes it (the frames around the lobby and errors)."""
    return json.dumps(obj, ensure_ascii=False)


def plain_text(value: Any) -> bool:
    """True when every string inside ``value`` can be sent as UTF-8 (no lone surrogates)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, Mapping):
        return all(plain_text(k) and plain_text(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(plain_text(v) for v in value)
    return True


@dataclass
class Feed:
    """What one connection was last shown of the match. A ``view`` frame goes out only when
    this changes (or the action brought this viewer events), and ``version`` counts the frames
    on this connection: nothing in the frames tells how many actions the match has seen."""

    version: int = 0
    shown: str | None = None
    answer: str | None = None
    """Protocol 3: the id (as JSON) of the action of this connection being handled."""
    due: bool = False
    """That action is committed: the view frame it brings this connection carries its answer."""
    answered: bool = False
    """A view frame carried the answer (no ``accepted`` is sent then)."""

    def expect(self, ref: Any) -> None:
        """Protocol 3: an action with this id is being handled; the view frame it brings
        this connection carries the answer."""
        self.answer, self.answered = encode(ref), False

    def committed(self) -> None:
        """The action being handled is committed: its answer rides on the next view frame."""
        if self.answer is not None:
            self.due = True

    def published(self) -> None:
        """The views after the action went out (or could not): no frame waits to answer."""
        self.due = False

    def done(self) -> bool:
        """The action was handled; True when a view frame already answered it."""
        self.answer = None
        return self.answered


class Peer(Protocol):
    """One connected client (a WebSocket) of one participant."""

    participant: str
    token_hash: str
    feed: Feed

    def send(self, text: str) -> None: ...

    def close(self, reason: str) -> None: ...


# -- frames about the connection --------------------------------------------------------------


def _with_id(body: dict[str, Any], ref: Any) -> dict[str, Any]:
    if ref is not None:
        body["id"] = ref
    return body


def error(code: str, message: str, ref: Any = None) -> str:
    return _text(_with_id({"type": "error", "error": {"code": code, "message": message}}, ref))


def rejected(code: str, message: str, ref: Any = None) -> str:
    """An action that was not taken, and why."""
    return _text(_with_id({"type": "rejected", "error": {"code": code, "message": message}}, ref))


def accepted(ref: Any, version: int) -> str:
    return encode({"type": "accepted", "id": ref, "version": version})


def pong(ref: Any, server_time: float) -> str:
    return encode(_with_id({"type": "pong", "server_time": server_time}, ref))


def closed(reason: str) -> str:
    return json.dumps({"type": "closed", "reason": reason})


def welcome(v: int, you: dict[str, Any], server_time: float) -> str:
    return _text({"type": "welcome", "v": v, "you": you, "server_time": server_time})


# -- the room -----------------------------------------------------------------------------------


def room_to(room: Room, p: Participant, server_time: float) -> str:
    """The room frame one participant is sent after hello (the host reads the whole config)."""
    return _text(
        {"type": "room", "room": room.summary(host=p.id == room.host), "server_time": server_time}
    )


def publish_room(room: Room, server_time: float) -> None:
    """The room frame to every connection of the room."""
    if not room.peers:
        return
    summary = room.summary()
    text = encode({"type": "room", "room": summary, "server_time": server_time})
    host = text
    if summary["config_withheld"] and room.host in room.peers:
        # the host alone reads the whole config (the words they typed)
        host = encode({"type": "room", "room": room.summary(host=True), "server_time": server_time})
    for pid, peers in room.peers.items():
        for peer in peers:
            peer.send(host if pid == room.host else text)


# -- the match --------------------------------------------------------------------------------


def publish_views(
    room: Room,
    peers: Mapping[str, Iterable[Peer]],
    events: list[Event],
    *,
    server_time: float,
    deadline: Callable[[Viewer], dict[str, Any] | None],
    device: Callable[[Participant, frozenset[int]], dict[str, Any] | None],
    force: bool = False,
) -> None:
    """Each of ``peers`` its view frame of the room's match, when its view, legal actions,
    countdown, pause or outcome changed or the action brought it events (``force``: always).
    ``deadline`` is the countdown a viewer is shown, ``device`` a shared device's hand-over
    state (None for every other participant)."""
    m = room.match
    assert m is not None
    game = room.game
    live = room.live_match() is m
    actors = game.actors(m.state) if live else frozenset()
    paused = live and m.paused_at is not None
    now = encode(server_time)
    # one view, one encoding per kind of viewer (a seat, spectators, the table, the host; a
    # shared device in one hand-over state)
    shown: dict[tuple[Viewer, bool, Any, bool], tuple[str, str]] = {}
    out: list[tuple[Peer, str]] = []
    answer: tuple[Peer, str] | None = None
    for pid, group in peers.items():
        p = room.participants.get(pid)
        if p is None or p.pending:
            continue  # a table screen the host has not let in yet is sent no view
        viewer = room.viewer_of(p)
        is_host = p.id == room.host
        held = device(p, actors)
        # a table screen is seen by everyone at the table: the view of someone outside the
        # game (the game's table view may hold what a shared device shows one player while
        # the others' eyes are closed, such as Werewords' companion screen)
        public = p.role == "table"
        key = (viewer, is_host, None if held is None else orjson.dumps(held), public)
        found = shown.get(key)
        if found is None:
            seat = viewer.seat
            # a shared device waiting to be handed over is sent nothing of any view
            covered = held is not None and held["shown"] is None and held["waiting"]
            legal = (
                [action_json(a) for a in game.legal_actions(m.state, seat)]
                if seat is not None and seat in actors
                else []
            )
            host_actions = (
                [action_json(a) for a in game.legal_actions(m.state, None)]
                if is_host and live and not covered
                else []
            )
            body: dict[str, Any] = {
                "match": m.id,
                "view": None if covered else game.view(m.state, SPECTATOR if public else viewer),
                "legal": legal,
                "host_actions": host_actions,
                "deadline": deadline(viewer),
                "paused": paused,
                "outcome": m.outcome,
            }
            if held is not None:
                body["device"] = held
            content = encode(body)
            seen = visible_events(game, m.state, events, viewer) if events else []
            found = shown[key] = (content, encode(seen) if seen else "")
        content, seen_text = found
        for peer in group:
            feed = peer.feed
            if not force and not seen_text and feed.shown == content:
                continue
            feed.version += 1
            feed.shown = content
            head = f'{{"type":"view","version":{feed.version},'
            tail = f'"server_time":{now},"events":{seen_text or "[]"},{content[1:]}'
            if feed.due:  # the actor's frame, with its answer: written after all the others
                feed.due, feed.answered = False, True
                answer = (peer, f'{head}"answer":{feed.answer},{tail}')
            else:
                out.append((peer, head + tail))
    if answer is not None:
        out.append(answer)
    # every frame is built first and written after, in one burst: a client process that
    # reads them is woken once for them all rather than once per frame
    for peer, text in out:
        peer.send(text)


def visible_events(
    game: Game, state: Any, events: list[Event], viewer: Viewer
) -> list[dict[str, Any]]:
    """The events this viewer may receive, each marked ``public`` when its audience is
    everyone at the table (narration a shared or host device may read aloud)."""
    out: list[dict[str, Any]] = []
    for e in events:
        for shown in game.visible_events(state, [e], viewer):
            shown["public"] = e.audience.public
            out.append(shown)
    return out


_ACTION_JSON: dict[Action, dict[str, Any]] = {}


def action_json(action: Action) -> dict[str, Any]:
    """An action's JSON, kept: games offer the same few actions over and over."""
    found = _ACTION_JSON.get(action)
    if found is None:
        if len(_ACTION_JSON) > 50_000:
            _ACTION_JSON.clear()
        found = _ACTION_JSON[action] = action.to_json()
    return found
