"""Matches played through the real server with a recorder on every socket, and the checks that
every recorded frame holds nothing its viewer may not know.

One WebSocket client per seat, plus a spectator and a table screen. The clock is the server's
fake clock, moved on only when no one can act. After the match the record is replayed, and every
frame of every socket is compared with what the game itself allows that viewer to see at that
version: ``view(state, viewer)``, ``visible_events``, the seat's own legal actions, the host's
moderator actions, the public deadline and outcome. On top of that every frame is scanned for
secret strings: strings present in the hidden state or in other viewers' views that the
viewer's own legitimate knowledge does not contain.

A match may also have a shared device holding some seats: it is handed to a seat it is offered,
plays it like the others and covers again; each of its frames is checked against the seat it
shows (or, covered, against what the table may see: no view, no actions, public events only).
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import itertools
import json
import random
import re
import threading
import types
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

import orjson

from tests.server.conftest import Client, Server
from wolfden.engine import (
    OMNISCIENT,
    SPECTATOR,
    TABLE,
    Action,
    Game,
    Rng,
    Viewer,
    config_from_json,
    config_to_json,
)
from wolfden.engine.contract import shown_timer
from wolfden.server.clock import FakeClock
from wolfden.server.errors import Refused
from wolfden.server.rooms import Match, Room, RoomManager, RoomSettings
from wolfden.server.settings import Settings
from wolfden.server.wire import Feed
from wolfden.storage.rooms import SqliteRoomStore

VIEW_KEYS = {
    "type",
    "match",
    "version",
    "view",
    "events",
    "legal",
    "host_actions",
    "deadline",
    "paused",
    "outcome",
    "server_time",
}
FRAME_KEYS: dict[str, set[str]] = {
    "welcome": {"type", "v", "you", "server_time"},
    "room": {"type", "room", "server_time"},
    "accepted": {"type", "id", "version"},
    "rejected": {"type", "id", "error"},
    "error": {"type", "error", "id"},
    "pong": {"type", "id", "server_time"},
    "closed": {"type", "reason"},
    "view": VIEW_KEYS,
}
ROOM_KEYS = {
    "code",
    "game",
    "status",
    "config",
    "config_withheld",
    "seats",
    "participants",
    "settings",
    "narrator",
    "match",
    "paused",
    "matches",
}
SEAT_KEYS = {"seat", "participant", "name", "bot", "connected", "stand_in"}
PARTICIPANT_KEYS = {"id", "name", "role", "seat", "host", "connected"}


def norm(obj: Any) -> Any:
    """What ``obj`` looks like after a trip through JSON (tuples → lists, keys → strings)."""

    def plain(o: Any) -> Any:
        if isinstance(o, Mapping):
            return dict(o)
        if isinstance(o, (set, frozenset)):
            return sorted(o)
        raise TypeError(type(o).__name__)

    return orjson.loads(orjson.dumps(obj, default=plain, option=orjson.OPT_NON_STR_KEYS))


class Recorder(Client):
    """A client that keeps every frame exactly as it arrived (text), in order."""

    def __init__(
        self,
        server: Server,
        code: str,
        token: str,
        viewer: Viewer,
        host: bool,
        device: SharedDevice | None = None,
    ) -> None:
        self.frames: list[str] = []
        self.tags: list[int] = []
        self.viewer = viewer
        self.is_host = host
        self.device = device
        """The shared device this socket is (its viewer changes with each hand-over), if any."""
        super().__init__(server, code, token)

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        text = raw if isinstance(raw, str) else raw.decode()
        self.frames.append(text)
        msg = json.loads(text)
        self.received.append(msg)
        if msg["type"] == "view":
            self.view = msg
        elif msg["type"] == "room":
            self.room = msg["room"]
        return dict(msg)

    def settle_at(self, actions: int) -> None:
        """Read every frame the server queued for this socket so far (a ping's answer comes
        after them) and mark the new ones as sent while the match had ``actions`` actions."""
        self.sync()
        self.tags += [actions] * (len(self.frames) - len(self.tags))


@dataclass(frozen=True)
class SharedDevice:
    """A shared device holding ``seats``; ``this_device``: the host's own phone becomes it."""

    seats: tuple[int, ...]
    secret_turns: bool
    this_device: bool = False


@dataclass
class PlayedMatch:
    game: Game
    code: str
    match: str
    record: dict[str, Any]
    clients: list[Recorder]
    names: list[str]
    rejected: int = 0
    accepted: int = 0
    host_actions: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    pokes: list[tuple[int, dict[str, Any], int, int, dict[str, Any]]] = field(default_factory=list)
    syncs: list[int] = field(default_factory=list)
    """The match's action count at each moment the sockets were read to the end."""
    participants: list[Any] = field(default_factory=list)


def _hand_over(view: dict[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """What a shared device does next besides playing: cover the seat it shows once that seat
    has nothing to do, or hand itself to a waiting seat (chosen with ``rng``); empty: nothing."""
    device = view["device"]
    if device["shown"] is None and device["waiting"]:
        seat = rng.choice(device["waiting"]) if rng else device["waiting"][0]
        return {"type": "reveal", "seat": seat}
    if device["shown"] is not None and not view["legal"]:
        return {"type": "cover"}
    return {}


def _poke(rng: random.Random, c: Recorder, others: list[Recorder], version: int) -> dict[str, Any]:
    """A message that must be refused: another seat's action, a stale version, a wrong seat."""
    pick = rng.randrange(4)
    legal = [a for o in others if o.view for a in o.view["legal"]]
    if pick == 0 and legal:
        return {"type": "action", "id": "poke", "action": rng.choice(legal)}
    if pick == 1 and c.view and c.view["legal"]:
        return {
            "type": "action",
            "id": "poke",
            "version": version - 1,
            "action": rng.choice(c.view["legal"]),
        }
    if pick == 2:
        return {"type": "action", "id": "poke", "seat": rng.randrange(12), "text": "vote 1"}
    return {"type": "host_action", "id": "poke", "text": "dawn"}


WORDS = ["is it an animal", "bigger than a house", "tree", "river", "lantern"]


def fill_in(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A free-text form (an argument ``"?"``, such as a question) filled with some text."""
    args = [rng.choice(WORDS) if a == "?" else a for a in action.get("args", [])]
    return {**action, "args": args}


def play(
    server: Server,
    game: Game,
    config: Any,
    seed: int,
    *,
    pokes: float = 0.15,
    max_steps: int = 3000,
    device: SharedDevice | None = None,
) -> PlayedMatch:
    """One match, every seat a recorded person choosing random legal actions (or, for the
    seats a shared ``device`` holds, the device handed to them, acting the same way)."""
    rng = random.Random(seed)
    seats = game.num_seats(config)
    names = [f"Seat{i}" for i in range(seats)]
    made = server.create(game.id, names[0], config=config_to_json(config))
    code, host_token = made["code"], made["token"]
    held = set(device.seats) if device else set()
    clients: list[Recorder] = []
    if device is not None:
        assert device.this_device == (0 in held), "seat 0 is the host's own"
        r = server.host(
            "POST",
            f"/api/rooms/{code}/devices",
            host_token,
            json={
                "seats": list(device.seats),
                "this_device": device.this_device,
                "secret_turns": device.secret_turns,
                "name": "Tablet",
            },
        )
        assert r.status_code == 200, r.text
        token = host_token if device.this_device else r.json()["token"]
        if not device.this_device:
            clients.append(Recorder(server, code, host_token, Viewer.of(0), True))
        clients.append(Recorder(server, code, token, TABLE, device.this_device, device))
    else:
        clients.append(Recorder(server, code, host_token, Viewer.of(0), True))
    for i in range(1, seats):  # a joining player takes the first free seat
        if i not in held:
            t = server.join(code, names[i])["token"]
            clients.append(Recorder(server, code, t, Viewer.of(i), False))
    spectator = server.join(code, "Watcher", "spectator")["token"]
    table = server.join(code, "Wall", "table")["token"]
    clients.append(Recorder(server, code, spectator, SPECTATOR, False))
    clients.append(Recorder(server, code, table, TABLE, False))
    r = server.host("POST", f"/api/rooms/{code}/start", host_token, json={"seed": seed})
    assert r.status_code == 200, r.text
    match = r.json()["room"]["match"]["id"]
    played = PlayedMatch(game, code, match, {}, clients, names)
    clock = server.clock
    room = server.call(lambda: server.manager.rooms[code])

    def sync(*, clock: bool = False) -> int:
        if clock:
            server.settle()
        else:  # let anything the action set off run, without sleeping
            for _ in range(3):
                server.call(lambda: None)
        now = int(server.call(lambda: room.match.version))
        for c in clients:
            c.settle_at(now)
        played.syncs.append(now)
        return now

    version = sync()
    for _ in range(max_steps):
        host = clients[0].view
        assert host is not None
        if host["outcome"] is not None:
            break
        movers = [c for c in clients if c.view and c.view["legal"]]
        chores = [c for c in clients if c.device and c.view and _hand_over(c.view)]
        # a seat with nothing (more) to do covers at once; a hand-over takes a while
        if chores and (
            not movers or _hand_over(chores[0].view)["type"] == "cover" or rng.random() < 0.25
        ):
            c = chores[0]
            assert c.view is not None
            msg = _hand_over(c.view, rng)
            msg["id"] = f"h{version}"
            c.send(msg)
            answer = c.answer(msg["id"])
            assert answer["type"] == "accepted", (msg, answer)
            version = sync()
            continue
        if movers and rng.random() < pokes:
            # the mirror of ``answer_in`` knows nothing of hand-overs: a device does not poke
            c = rng.choice([o for o in clients if o.device is None])
            seen = c.view["version"] if c.view else 0
            poke = _poke(rng, c, [o for o in clients if o is not c], seen)
            c.send(poke)
            answer = c.answer("poke")
            played.pokes.append((clients.index(c), poke, version, seen, answer))
            if answer["type"] == "accepted":
                played.accepted += 1
            else:
                played.rejected += 1
                code = answer["error"]["code"]
                played.extra[code] = played.extra.get(code, 0) + 1
            version = sync()
            continue
        if movers:
            c = rng.choice(movers)
            assert c.view is not None
            msg = {
                "type": "action",
                "id": version,
                "version": c.view["version"],
                "action": fill_in(rng.choice(c.view["legal"]), rng),
            }
        elif host["host_actions"] and rng.random() < 0.5:
            c = clients[0]
            msg = {"type": "host_action", "id": version, "version": host["version"]}
            msg["action"] = rng.choice(host["host_actions"])
            played.host_actions += 1
        else:
            at = server.call(clock.next_wakeup)
            assert at is not None, "nobody can act and no deadline is armed"
            server.call(lambda at=at: clock.set(at))
            version = sync(clock=True)
            continue
        c.send(msg)
        answer = c.answer(version)
        assert answer["type"] == "accepted", answer
        played.accepted += 1
        version = sync()
    else:
        raise AssertionError(f"{game.id} did not end within {max_steps} steps")
    server.settle()
    for c in clients:
        c.drain(0.02)
    played.participants = server.call(
        lambda: [dataclasses.replace(p) for p in room.participants.values()]
    )
    r = server.http.get(f"/api/matches/{match}")
    assert r.status_code == 200, r.text
    played.record = r.json()
    return played


# -- the checks ------------------------------------------------------------------------------


def replay(game: Game, record: dict[str, Any]) -> tuple[list[Any], list[list[Any]], list[Any]]:
    """The states at every version, the events of the action that led to each, and the acts."""
    config = config_from_json(game.Config, record["config"])
    state = game.setup(config, int(record["seed"]))
    states, events, acts = [state], [[]], [None]
    for seat, text in record["actions"]:
        action = Action.parse(text)
        state, evs = game.apply(state, seat, action)
        states.append(state)
        events.append(evs)
        acts.append((seat, action))
    return states, events, acts


def strings(obj: Any, out: set[str] | None = None, depth: int = 0) -> set[str]:
    """Every string inside a JSON value or a game state (its slots, fields, tuples, enums)."""
    out = set() if out is None else out
    seen: set[int] = set()

    def walk(o: Any, d: int) -> None:
        if d > 40 or id(o) in seen:
            return
        if isinstance(o, str):
            out.add(o)
            return
        if isinstance(o, enum.Enum):
            walk(o.value, d + 1)
            return
        if o is None or isinstance(o, (bool, int, float, bytes)):
            return
        seen.add(id(o))
        if isinstance(o, Mapping):
            for k, v in o.items():
                walk(k, d + 1)
                walk(v, d + 1)
        elif isinstance(o, (list, tuple, set, frozenset)):
            for v in o:
                walk(v, d + 1)
        elif is_dataclass(o):
            for f in fields(o):
                walk(getattr(o, f.name, None), d + 1)
        else:
            for cls in type(o).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    walk(getattr(o, slot, None), d + 1)
            if hasattr(o, "__dict__"):
                walk(vars(o), d + 1)

    walk(obj, depth)
    return out


def json_strings(obj: Any, out: set[str] | None = None) -> set[str]:
    """Every string (keys included) in a JSON value; the fast path of ``strings``."""
    out = set() if out is None else out
    stack = [obj]
    while stack:
        o = stack.pop()
        t = type(o)
        if t is str:
            out.add(o)
        elif t is dict:
            out.update(o.keys())
            stack.extend(o.values())
        elif t is list:
            stack.extend(o)
    return out


def _meaningful(s: str) -> bool:
    s = s.strip()
    return len(s) >= 2 and not re.fullmatch(r"[\d\s.,:+-]*", s)


def _leaves(msg: Any) -> str:
    return "\x00".join(sorted(json_strings(msg))).casefold()


def _hits(text: str, secrets: Iterable[str]) -> list[str]:
    found = []
    for s in secrets:
        low = s.casefold()
        if low in text and re.search(r"(?<![\w-])" + re.escape(low) + r"(?![\w-])", text):
            found.append(s)
    return found


@dataclass
class Verdict:
    frames: int = 0
    views: int = 0
    perturbed: int = 0
    secrets_checked: int = 0
    refusals: int = 0
    device_views: int = 0
    device_covered: int = 0
    device_shown: int = 0
    device_offered_idle: int = 0
    device_withheld: int = 0
    """Actions with private events for a held seat that came while the device was covered."""
    """Covered frames while some held seat had nothing to do (offered all the same with secret
    turns)."""
    offers_compared: int = 0
    """Frames whose legal and host actions were recomputed in a perturbed hidden state."""
    device_offers_compared: int = 0
    """… of them, frames of a shared device."""
    problems: list[str] = field(default_factory=list)


def _offers(game: Game, state: Any, viewer: Viewer, is_host: bool) -> tuple[Any, Any]:
    """What a client is offered at ``state``: its seat's legal actions and the host's."""
    if game.outcome(state) is not None:
        return [], []
    seat = viewer.seat
    legal = (
        norm([a.to_json() for a in game.legal_actions(state, seat)])
        if seat is not None and seat in game.actors(state)
        else []
    )
    host = norm([a.to_json() for a in game.legal_actions(state, None)]) if is_host else []
    return legal, host


def _compare_offers(
    game: Game,
    state: Any,
    other: Any,
    viewer: Viewer,
    is_host: bool,
    where: str,
    verdict: Verdict,
) -> None:
    """The legal and host actions a client is offered read the same in a state it cannot tell
    apart (``other``): an offer never depends on what its viewer may not know."""
    verdict.offers_compared += 1
    here, there = _offers(game, state, viewer, is_host), _offers(game, other, viewer, is_host)
    if here[0] != there[0]:
        verdict.problems.append(
            f"{where}: the legal actions tell hidden states apart ({here[0]} / {there[0]})"
        )
    if here[1] != there[1]:
        verdict.problems.append(
            f"{where}: the host actions tell hidden states apart ({here[1]} / {there[1]})"
        )


def _expect_deadline(game: Game, state: Any, viewer: Viewer) -> Any:
    """The countdown the game lets this viewer see (its timer, else the rules' deadline)."""
    if game.outcome(state) is not None:
        return None
    dl = shown_timer(game, state, viewer)
    return None if dl is None else {"label": dl.label, "seconds": dl.seconds, "phase": dl.phase}


def _viewers(game: Game, state: Any) -> list[Viewer]:
    n = game.num_seats(state.config)
    return [Viewer.of(i) for i in range(n)] + [SPECTATOR, TABLE]


def check(played: PlayedMatch, *, perturbations: int = 2) -> Verdict:
    """Every frame of every socket against what its viewer may know."""
    game, record = played.game, played.record
    states, events, _acts = replay(game, record)
    verdict = Verdict()
    end = states[-1]
    if game.outcome(end) is None:
        verdict.problems.append("the record does not replay to the end of the match")
    public = {played.code, played.match, game.id, *played.names, "Watcher", "Wall"}
    public |= strings(record["config"]) | strings(config_to_json(game.Config()))
    everyone = [*_viewers(game, states[0]), OMNISCIENT]
    views = {w: [norm(game.view(state, w)) for state in states] for w in everyone}
    view_strings = {w: [json_strings(v) for v in pv] for w, pv in views.items()}
    state_strings: set[str] = set()
    for state in states:
        strings(state, state_strings)
    secret_cache: dict[tuple[Viewer, bool], set[str]] = {}

    def secrets_for(viewer: Viewer, is_host: bool) -> set[str]:
        """The strings in play this viewer may never be sent."""
        key = (viewer, is_host)
        if key not in secret_cache:
            secret_cache[key] = _secrets_of(viewer, is_host)
        return secret_cache[key]

    def _secrets_of(viewer: Viewer, is_host: bool) -> set[str]:
        seat = viewer.seat
        knowledge = set(public)
        for v, state in enumerate(states):
            knowledge |= view_strings[viewer][v]
            knowledge |= json_strings(norm(game.visible_events(state, events[v], viewer)))
            if seat is not None and seat in game.actors(state):
                legal = game.legal_actions(state, seat)
                knowledge |= json_strings(norm([a.to_json() for a in legal]))
            if is_host:
                legal = game.legal_actions(state, None)
                knowledge |= json_strings(norm([a.to_json() for a in legal]))
        final = game.outcome(states[-1])
        if final is not None:  # the outcome is everyone's once the match is over
            knowledge |= json_strings(norm(final.to_json()))
        known_text = "\x00".join(knowledge).casefold()
        hidden: set[str] = set(state_strings)
        for other, per_version in view_strings.items():
            if other != viewer:
                for found in per_version:
                    hidden |= found
        secret = {s for s in hidden if _meaningful(s) and s.casefold() not in known_text}
        verdict.secrets_checked += len(secret)
        return secret

    for c in played.clients:
        if c.device is not None:
            _check_device(played, c, states, events, views, secrets_for, verdict, perturbations)
            continue
        viewer = c.viewer
        # a table screen is seen by everyone: its view is a spectator's (the game's table view
        # may hold what a shared device shows one player, e.g. Werewords' companion screen)
        seen_as = SPECTATOR if viewer == TABLE else viewer
        own_views = views[seen_as]
        secret = secrets_for(viewer, c.is_host)
        current = 0
        for text, tag in zip(c.frames, c.tags):
            verdict.frames += 1
            msg = orjson.loads(text)
            kind = msg.get("type")
            where = f"{game.id} {played.match} {viewer} frame {verdict.frames} ({kind})"
            allowed = FRAME_KEYS.get(kind)
            if allowed is None or not set(msg) <= allowed:
                verdict.problems.append(f"{where}: unexpected fields {sorted(msg)}")
            for leak in _hits(_leaves(msg), secret):
                verdict.problems.append(f"{where}: carries the secret {leak!r}")
            if kind == "room":
                _check_room(msg["room"], where, verdict)
            if kind != "view" or msg["match"] != played.match:
                continue
            verdict.views += 1
            # the frame came while the match went from the previous reading to ``tag`` actions
            # (one action apart, or a few after the clock): the first version it matches
            problems = []
            for v in range(max(current, _before(played.syncs, tag)), tag + 1):
                problems = _check_view(
                    game, msg, states[v], events[v], viewer, c.is_host, own_views[v]
                )
                if not problems:
                    current = v
                    break
            else:
                current = tag
            state = states[current]
            verdict.problems += [f"{where} v{current}: {p}" for p in problems]
            for k in range(perturbations):
                other = game.perturb_hidden(state, seen_as, Rng(current * 31 + k))
                if other is None:
                    continue
                verdict.perturbed += 1
                if norm(game.view(other, seen_as)) != msg["view"]:
                    verdict.problems.append(
                        f"{where} v{current}: the view tells hidden states apart"
                    )
                _compare_offers(
                    game, state, other, viewer, c.is_host, f"{where} v{current}", verdict
                )
                if _expect_deadline(game, other, viewer) != _expect_deadline(game, state, viewer):
                    verdict.problems.append(f"{where} v{current}: the deadline depends on a secret")
    _check_refusals(played, states, verdict, perturbations)
    verdict.problems += frame_pattern(played, states, events)
    return verdict


def _check_device(
    played: PlayedMatch,
    c: Recorder,
    states: list[Any],
    events: list[Any],
    views: dict[Viewer, list[Any]],
    secrets_for: Any,
    verdict: Verdict,
    perturbations: int,
) -> None:
    """A shared device's frames: covered while a held seat waits for the hand-over (no view,
    no actions, public events only), then exactly what the seat it was handed to may see, and
    the table's view when none of its seats is waited for. Each frame is scanned for the
    secrets of everyone but the seat it shows."""
    game, device = played.game, c.device
    assert device is not None
    current = 0
    numbers: list[int] = []
    matched: list[tuple[int, bool]] = []  # (version, covered) of each view frame, in order
    for text, tag in zip(c.frames, c.tags):
        verdict.frames += 1
        msg = orjson.loads(text)
        kind = msg.get("type")
        where = f"{game.id} {played.match} shared device frame {verdict.frames} ({kind})"
        allowed = VIEW_KEYS | {"device"} if kind == "view" else FRAME_KEYS.get(kind)
        if allowed is None or not set(msg) <= allowed:
            verdict.problems.append(f"{where}: unexpected fields {sorted(msg)}")
        shown = msg["device"]["shown"] if kind == "view" and "device" in msg else None
        viewer = TABLE if shown is None else Viewer.of(shown)
        for leak in _hits(_leaves(msg), secrets_for(viewer, c.is_host)):
            verdict.problems.append(f"{where}: carries the secret {leak!r} (shown: {shown})")
        if kind == "room":
            _check_room(msg["room"], where, verdict)
        if kind != "view":
            continue
        numbers.append(msg["version"])
        if msg["match"] != played.match:
            continue
        verdict.views += 1
        verdict.device_views += 1
        problems: list[str] = []
        for v in range(max(current, _before(played.syncs, tag)), tag + 1):
            problems = _device_frame(game, c, msg, states[v], events[v], views, v)
            if not problems:
                current = v
                break
        else:
            current = tag
        verdict.problems += [f"{where} v{current}: {p}" for p in problems]
        matched.append((current, msg["view"] is None))
        if shown is None:  # whom the device is offered to reads the same in states the table
            for k in range(perturbations):  # cannot tell apart
                other = game.perturb_hidden(states[current], TABLE, Rng(current * 41 + k))
                if other is not None and _offer(game, device, other) != msg["device"]["waiting"]:
                    verdict.problems.append(
                        f"{where} v{current}: 'waiting' {msg['device']['waiting']} tells hidden "
                        f"states apart (there it would be {_offer(game, device, other)})"
                    )
        if msg["view"] is None:
            verdict.device_covered += 1
            state = states[current]
            if game.outcome(state) is None and not set(device.seats) <= game.actors(state):
                verdict.device_offered_idle += 1
            continue
        verdict.device_shown += shown is not None
        state = states[current]
        for k in range(perturbations):
            other = game.perturb_hidden(state, viewer, Rng(current * 37 + k))
            if other is None:
                continue
            verdict.perturbed += 1
            if norm(game.view(other, viewer)) != msg["view"]:
                verdict.problems.append(f"{where} v{current}: the view tells hidden states apart")
            _compare_offers(game, state, other, viewer, c.is_host, f"{where} v{current}", verdict)
            verdict.device_offers_compared += 1
    if numbers != list(range(1, len(numbers) + 1)):
        verdict.problems.append(f"shared device: view versions {numbers[:20]} are not 1, 2, …")
    # not vacuous: actions that told a held seat something private while the device was
    # covered (no hand-over comes without a frame; what it was sent of them was checked
    # above: public events only)
    held = set(device.seats)
    for v, evs in enumerate(events):
        if not any(not e.audience.public and held & set(e.audience.seats) for e in evs):
            continue
        before = [covered for ver, covered in matched if ver < v]
        if before and before[-1]:
            verdict.device_withheld += 1


def _actors(game: Game, state: Any) -> frozenset[int]:
    return frozenset() if game.outcome(state) is not None else frozenset(game.actors(state))


def _offer(game: Game, device: SharedDevice, state: Any) -> list[int]:
    """The held seats a covered device is offered to: those the game waits for, or with secret
    turns every held seat while the game waits for anyone."""
    actors = _actors(game, state)
    if device.secret_turns:
        return list(device.seats) if actors else []
    return [s for s in device.seats if s in actors]


def _device_frame(
    game: Game,
    c: Recorder,
    msg: dict[str, Any],
    state: Any,
    evs: list[Any],
    views: dict[Viewer, list[Any]],
    v: int,
) -> list[str]:
    """What is wrong with one view frame of a shared device, taken to be sent at ``state``."""
    device = c.device
    assert device is not None
    got = msg.get("device")
    if got is None:
        return ["a shared device's view frame has no 'device'"]
    problems = []
    held = list(device.seats)
    if [s["seat"] for s in got["seats"]] != held or got["secret_turns"] != device.secret_turns:
        problems.append(f"'device' {got} does not describe the device's seats")
    acting = [s for s in held if s in _actors(game, state)]
    shown = got["shown"]
    offered = _offer(game, device, state) if shown is None else []
    if got["waiting"] != offered:
        problems.append(f"'waiting' {got['waiting']} is not {offered} (acting: {acting})")
    if shown is not None and shown not in held:
        problems.append(f"shows seat {shown}, which the device does not hold")
    if shown is None and got["waiting"]:  # covered: waiting for the hand-over
        if msg["view"] is not None or msg["legal"] or msg["host_actions"]:
            problems.append("a covered device is sent a view or actions")
        if not all(e["public"] for e in msg["events"]):
            problems.append(f"a covered device is sent private events {msg['events']}")
        table = {**msg, "view": views[TABLE][v], "host_actions": []}
        problems += _check_view(game, table, state, evs, TABLE, False, views[TABLE][v])
        return problems
    viewer = TABLE if shown is None else Viewer.of(shown)
    problems += _check_view(game, msg, state, evs, viewer, c.is_host, views[viewer][v])
    return problems


def _before(syncs: list[int], tag: int) -> int:
    """The first version a frame read at ``tag`` may belong to."""
    earlier = [s for s in syncs if s < tag]
    return earlier[-1] + 1 if earlier else 0


def frame_pattern(played: PlayedMatch, states: list[Any], events: list[Any]) -> list[str]:
    """A socket gets a view exactly when what its viewer sees changed: its views are numbered
    1, 2, 3, … on the connection, each differs from the one before (or brings events), and
    every action that changed the viewer's view, legal actions, countdown or outcome, or
    brought it events, brought it a view; the count of actions shows nowhere."""
    game = played.game
    problems: list[str] = []
    for c in played.clients:
        if c.device is not None:  # its own pattern is checked in ``_check_device``
            continue
        viewer = c.viewer

        def shown(v: int, viewer: Viewer = viewer, is_host: bool = c.is_host) -> Any:
            state = states[v]
            over = game.outcome(state) is not None
            seat = viewer.seat
            legal = (
                [str(a) for a in game.legal_actions(state, seat)]
                if seat is not None and not over and seat in game.actors(state)
                else []
            )
            host = [str(a) for a in game.legal_actions(state, None)] if is_host and not over else []
            dl = _expect_deadline(game, state, viewer)
            outcome = game.outcome(state)
            return (
                norm(game.view(state, viewer)),
                legal,
                host,
                None if dl is None else (dl["label"], dl["seconds"]),
                None if outcome is None else norm(outcome.to_json()),
            )

        frames = [
            (orjson.loads(text), tag)
            for text, tag in zip(c.frames, c.tags)
            if text.startswith('{"type":"view"')
        ]
        views = [m for m, _tag in frames if m["match"] == played.match]
        numbers = [m["version"] for m, _tag in frames]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"{viewer}: view versions {numbers[:20]} are not 1, 2, 3, …")
        keys = ("view", "legal", "host_actions", "deadline", "paused", "outcome")
        for before, after in itertools.pairwise(views):
            if not after["events"] and all(before[k] == after[k] for k in keys):
                problems.append(f"{viewer}: view {after['version']} repeats the one before")
        lo = 0
        for sync in sorted(set(played.syncs)):
            window = range(lo, sync + 1)
            got = sum(1 for m, tag in frames if tag == sync and m["match"] == played.match)
            due = sum(
                1
                for v in window
                if v == 0
                or shown(v) != shown(v - 1)
                or (events[v] and game.visible_events(states[v], events[v], viewer))
            )
            if got < due or got > len(window):
                problems.append(
                    f"{viewer}: {got} views for versions {lo}..{sync}, where {due} changed"
                )
            lo = sync + 1
    return problems


def answer_in(
    played: PlayedMatch, state: Any, version: int, seen: int, who: int, msg: dict[str, Any]
) -> Any:
    """What the match master answers ``msg`` from client ``who`` when the match is at
    ``state`` (a mirror room with the same people and seats, in memory) and the sender's
    connection has had ``seen`` views."""
    game = played.game
    manager = RoomManager(Settings(), SqliteRoomStore(":memory:"), FakeClock())
    room = Room(played.code, game, state.config, RoomSettings())
    room.participants = {p.id: dataclasses.replace(p) for p in played.participants}
    for p in room.participants.values():
        if p.seat is not None:
            room.seats[p.seat].participant = p.id
    room.host = played.participants[0].id
    room.status = "live"
    room.match = Match(played.match, 0, state, {}, version=version)
    p = list(room.participants.values())[who]

    async def run() -> Any:
        try:
            action = manager.parse_action(msg)
            submit = manager.host_action if msg["type"] == "host_action" else manager.player_action
            peer = types.SimpleNamespace(
                participant=p.id, token_hash=p.token_hash, feed=Feed(version=seen)
            )
            await submit(room, p, peer, action, msg.get("version"))
        except Refused as exc:
            return {"code": exc.code, "message": exc.message}
        return "accepted"

    try:
        return run_in_own_loop(run)
    finally:
        manager.store.close()


def run_in_own_loop(make: Any) -> Any:
    """``asyncio.run(make())`` in a thread of its own, so it works even when this thread
    already runs an event loop (as it does once the browser tests have started Playwright)."""
    result: list[Any] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(make()))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]


def _check_refusals(
    played: PlayedMatch, states: list[Any], verdict: Verdict, perturbations: int
) -> None:
    """A refusal reads the same whatever the viewer cannot see: the answer to each refused
    message is recomputed on states the sender cannot tell apart from the real one."""
    for who, msg, version, seen, answer in played.pokes:
        if answer["type"] == "accepted" or "seat" in msg:
            continue  # 'seat' is checked before the match is looked at
        client = played.clients[who]
        real = answer["error"]
        state = states[version]
        if answer_in(played, state, version, seen, who, msg) != real:
            verdict.problems.append(f"the mirror does not reproduce the refusal {real}")
            continue
        verdict.refusals += 1
        for k in range(perturbations):
            other = played.game.perturb_hidden(state, client.viewer, Rng(version * 17 + k))
            if other is None:
                continue
            if answer_in(played, other, version, seen, who, msg) != real:
                verdict.problems.append(
                    f"{client.viewer}: the refusal {real} reveals something hidden "
                    f"(it reads differently in a state this viewer cannot tell apart)"
                )


def _check_view(
    game: Game,
    msg: dict[str, Any],
    state: Any,
    evs: list[Any],
    viewer: Viewer,
    is_host: bool,
    view: Any,
) -> list[str]:
    problems = []
    if msg["view"] != view:
        problems.append("the view is not the game's view for this viewer")
    # each event the viewer may see, marked public exactly when its audience is everyone
    expected_events = norm(
        [
            {**shown, "public": e.audience.public}
            for e in evs
            for shown in game.visible_events(state, [e], viewer)
        ]
    )
    if msg["events"] not in ([], expected_events):
        problems.append(f"events {msg['events']} are not the visible events {expected_events}")
    over = game.outcome(state) is not None
    seat = viewer.seat
    legal = (
        norm([a.to_json() for a in game.legal_actions(state, seat)])
        if seat is not None and not over and seat in game.actors(state)
        else []
    )
    if msg["legal"] != legal:
        problems.append("'legal' is not this seat's own legal actions")
    host = (
        norm([a.to_json() for a in game.legal_actions(state, None)]) if is_host and not over else []
    )
    if msg["host_actions"] != host:
        problems.append("'host_actions' is not the moderator actions for the host alone")
    deadline = msg["deadline"]
    expected = _expect_deadline(game, state, viewer)
    if deadline is not None and expected is not None:
        deadline = {k: deadline[k] for k in ("label", "seconds")}
        expected = {k: expected[k] for k in ("label", "seconds")}
    if deadline != expected:
        problems.append(f"deadline {msg['deadline']} is not the game's public deadline")
    outcome = game.outcome(state)
    if msg["outcome"] != (None if outcome is None else norm(outcome.to_json())):
        problems.append("'outcome' is not the game's outcome")
    return problems


def _check_room(room: dict[str, Any], where: str, verdict: Verdict) -> None:
    if set(room) != ROOM_KEYS:
        verdict.problems.append(f"{where}: room summary fields {sorted(room)}")
        return
    for s in room["seats"]:
        if set(s) != SEAT_KEYS:
            verdict.problems.append(f"{where}: seat fields {sorted(s)}")
    for p in room["participants"]:
        shared = {"seats", "secret_turns"} if p.get("role") == "shared" else set()
        if set(p) != PARTICIPANT_KEYS | shared:
            verdict.problems.append(f"{where}: participant fields {sorted(p)}")
    if room["match"] is not None and set(room["match"]) != {"id", "ended"}:
        verdict.problems.append(f"{where}: match fields {sorted(room['match'])}")
