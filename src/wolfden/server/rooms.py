"""Rooms, seats and participants, shared devices, the matches' lifecycle, deadlines, bots,
presence and publishing: ``RoomManager``, every room of the server.

Each action goes through the match master (``master.py``: authenticate → live → legal → apply
→ commit → publish); the frames are built by the wire (``wire.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from wolfden import bots as bots_registry
from wolfden import games
from wolfden.engine import (
    SPECTATOR,
    TABLE,
    Action,
    ConfigError,
    Event,
    Game,
    MatchRecord,
    UnknownGame,
    Viewer,
    WolfdenError,
    config_from_json,
    config_to_json,
)
from wolfden.server import wire
from wolfden.server.clock import Clock
from wolfden.server.devices import Devices
from wolfden.server.errors import Refused, bad_request, not_found, storage_refused
from wolfden.server.master import Master, parse_action
from wolfden.server.names import clean_name, looks_like
from wolfden.server.presence import Presence
from wolfden.server.scheduler import Scheduler
from wolfden.server.settings import Settings
from wolfden.server.wire import SHARED, Peer, plain_text
from wolfden.storage.rooms import FencedOut, RoomStore, StorageError, StoredMatch

if TYPE_CHECKING:
    from wolfden.server.cluster import Cluster

log = logging.getLogger("wolfden.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
ROLES = ("player", "spectator", "table")
"""The role of a shared device: one participant (one token) that holds several seats."""
ABSENT_POLICIES = ("bot", "wait", "timeout")
PROTOCOL_VERSION = 3
PROTOCOL_VERSIONS = (2, 3)
"""The versions a client may say in ``hello``: 3 has the answer to an action that changed the
actor's view travel in that view frame (see docs/protocol.md), 2 always answers apart."""


def new_token() -> str:
    """192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def normalize_code(code: str) -> str:
    return code.strip().upper()


def bot_kinds(game_id: str) -> list[str]:
    """The bot kinds of a game, ``random`` first (a game without a bots module has only that)."""
    try:
        return list(bots_registry.kinds(game_id))
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("wolfden.bots."):
            return ["random"]
        raise


def make_bot(game_id: str, kind: str, seat: int) -> Any:
    if kind == "random":
        return bots_registry.RandomBot(seat)
    return bots_registry.make(game_id, kind, seat)


def game_info(game: Game) -> dict[str, Any]:
    from wolfden.engine import describe_options

    default = game.Config()
    return {
        "id": game.id,
        "title": getattr(game, "title", game.id),
        "version": game.version,
        "options": describe_options(game.Config),
        "default_config": config_to_json(default),
        "seats": game.num_seats(default),
        "bots": bot_kinds(game.id),
        "client": games.entry(game.id).client,
    }


def find_game(game_id: Any) -> Game:
    if not isinstance(game_id, str):
        raise bad_request("'game' is the id of a game, such as " + repr(games.ids()[0]))
    try:
        return games.get(game_id)
    except UnknownGame as exc:
        raise not_found("game_not_found", str(exc)) from exc


@dataclass
class Participant:
    id: str
    name: str
    role: str
    seat: int | None
    token_hash: str
    pending: bool = False
    """A table screen that asked to join and waits for the host to let it in: it is sent no
    view until then (see ``RoomManager.admit``)."""
    seats: list[int] = field(default_factory=list)
    """The seats a shared device holds (role ``shared``); empty for everyone else."""
    secret_turns: bool = True
    """A shared device whose game keeps secret who acts (a Werewolf night): while any held
    seat acts, every held seat is offered the device, so the offer tells nobody who acts."""

    def held(self) -> list[int]:
        """The seats this participant plays: its own, or every seat a shared device holds."""
        return [self.seat] if self.seat is not None else list(self.seats)


@dataclass
class SeatSlot:
    participant: str | None = None
    bot: str | None = None
    name: str | None = None
    """The person's name at a seat held by a shared device."""


@dataclass
class RoomSettings:
    absent: str = "bot"
    grace_seconds: float = 60.0
    stand_in_bot: str = "random"
    bot_delay: float = 1.5


@dataclass
class Match:
    id: str
    seed: int
    state: Any
    meta: dict[str, Any]
    version: int = 0
    phase_seq: int = 0
    phase_started: float = 0.0
    paused_at: float | None = None
    ended: bool = False
    outcome: dict[str, Any] | None = None
    stand_ins: set[int] = field(default_factory=set)
    waiting_for: set[str] = field(default_factory=set)
    bots: dict[tuple[int, str], Any] = field(default_factory=dict)
    floor: dict[int, int] = field(default_factory=dict)
    """Turns on the floor (Werewords' questions) each seat has taken: its fair share."""


TABLE_KEYS = 4
"""How many of the host's table-screen links work at once (each lets one screen in)."""
DRAFT_HOLD_SECONDS = 30.0
"""How long a person's draft holds a place on the floor without another word typed."""


class Room:
    def __init__(self, code: str, game: Game, config: Any, settings: RoomSettings) -> None:
        self.code = code
        self.game = game
        self.config = config
        self.settings = settings
        self.seats = [SeatSlot() for _ in range(game.num_seats(config))]
        self.participants: dict[str, Participant] = {}
        self.host: str | None = None
        self.narrator: str | None = None
        """The device the host chose to read the narration aloud (a participant id), or None:
        the table screen if one is here, else a shared device, else the host's own."""
        self.table_keys: list[str] = []
        """The hashes of the host's table-screen links not used yet (one join each)."""
        self.status = "lobby"
        self.match: Match | None = None
        self.finished: list[str] = []
        self.next_participant = 1
        self.next_match = 1
        self.paused_by_host = False
        self.lock = asyncio.Lock()
        self.peers: dict[str, set[Peer]] = {}
        self.timer: asyncio.Task[None] | None = None
        self.timer_key: tuple[str, int, float, str] | None = None
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        self.grace_tasks: dict[str, asyncio.Task[None]] = {}
        self.shown: dict[str, int] = {}
        """Shared devices handed over to one of their seats: participant id -> that seat."""
        self.shown_turn: set[str] = set()
        """Shared devices whose shown seat has had its turn while shown."""
        self.reading: set[str] = set()
        """Shared devices that keep showing a seat after its turn, because its own action
        brought it a private answer (the Seer's); they stay until the player hides them."""
        self.drafting: dict[int, float] = {}
        """Seats whose person is typing a free-text action: seat -> when the hold ends."""
        self.draft_timer: asyncio.Task[None] | None = None
        self.gone = False
        """Another node runs this room now: nothing more happens to it here."""

    def hide(self, pid: str) -> bool:
        """Cover a shared device again; True when it was showing a seat."""
        self.shown_turn.discard(pid)
        self.reading.discard(pid)
        return self.shown.pop(pid, None) is not None

    # -- documents ----------------------------------------------------------------

    def to_doc(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game.id,
            "config": config_to_json(self.config),
            "settings": asdict(self.settings),
            "seats": [[s.participant, s.bot, s.name] for s in self.seats],
            "participants": [asdict(p) for p in self.participants.values()],
            "host": self.host,
            "narrator": self.narrator,
            "table_keys": list(self.table_keys),
            "status": self.status,
            "match": self.match.id if self.match else None,
            "finished": self.finished,
            "next_participant": self.next_participant,
            "next_match": self.next_match,
            "paused_by_host": self.paused_by_host,
        }

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Room:
        game = games.get(doc["game"])
        room = cls(
            doc["code"],
            game,
            config_from_json(game.Config, doc["config"]),
            RoomSettings(**doc["settings"]),
        )
        room.seats = [SeatSlot(*row) for row in doc["seats"]]
        room.participants = {p["id"]: Participant(**p) for p in doc["participants"]}
        room.host = doc["host"]
        room.narrator = doc.get("narrator")
        room.table_keys = list(doc.get("table_keys", []))
        room.status = doc["status"]
        room.finished = list(doc["finished"])
        room.next_participant = doc["next_participant"]
        room.next_match = doc["next_match"]
        room.paused_by_host = doc["paused_by_host"]
        return room

    # -- reading --------------------------------------------------------------------

    def connected(self, pid: str | None) -> bool:
        return pid is not None and bool(self.peers.get(pid))

    def seat_name(self, seat: int) -> str | None:
        slot = self.seats[seat]
        if slot.participant is not None:
            return slot.name or self.participants[slot.participant].name
        if slot.bot is not None:
            return f"Bot {seat + 1}"
        return None

    def participant_json(self, p: Participant) -> dict[str, Any]:
        out = {
            "id": p.id,
            "name": p.name,
            "role": p.role,
            "seat": p.seat,
            "host": p.id == self.host,
            "connected": self.connected(p.id),
        }
        if p.role == SHARED:
            out["seats"] = list(p.seats)
            out["secret_turns"] = p.secret_turns
        if p.pending:
            out["pending"] = True
        return out

    def public_config(self, config: Any = None) -> tuple[dict[str, Any], list[str]]:
        """The config as anyone may read it, and the names of the options left out: the
        game's ``secret_options`` (Werewords' word pools) are shown empty."""
        data = config_to_json(self.config if config is None else config)
        withheld = [k for k in getattr(self.game, "secret_options", ()) if data.get(k)]
        for k in withheld:
            data[k] = []
        return data, withheld

    def summary(self, host: bool = False) -> dict[str, Any]:
        """The room as its people see it; ``host``: as the host sees it (the whole config)."""
        m = self.match
        seats = []
        for i, slot in enumerate(self.seats):
            seats.append(
                {
                    "seat": i,
                    "participant": slot.participant,
                    "name": self.seat_name(i),
                    "bot": slot.bot,
                    "connected": slot.bot is not None or self.connected(slot.participant),
                    "stand_in": m is not None and not m.ended and i in m.stand_ins,
                }
            )
        config, withheld = (config_to_json(self.config), []) if host else self.public_config()
        return {
            "code": self.code,
            "game": self.game.id,
            "status": self.status,
            "config": config,
            "config_withheld": withheld,
            "seats": seats,
            "participants": [self.participant_json(p) for p in self.participants.values()],
            "settings": asdict(self.settings),
            "narrator": self.narrator,
            "match": None if m is None else {"id": m.id, "ended": m.ended},
            "paused": m is not None and not m.ended and m.paused_at is not None,
            "matches": list(self.finished),
        }

    def viewer_of(self, p: Participant) -> Viewer:
        """Whose view this participant receives. A shared device: the seat it was handed to
        (confirmed, and that seat may act now), else the table's public view."""
        if p.role == "table":
            return TABLE
        if p.role == SHARED:
            shown = self.shown.get(p.id)
            return TABLE if shown is None else Viewer.of(shown)
        if p.role == "player" and p.seat is not None and p.seat < len(self.seats):
            return Viewer.of(p.seat)
        return SPECTATOR

    def live_match(self) -> Match | None:
        m = self.match
        live = m is not None and not m.ended and self.status == "live" and not self.gone
        return m if live else None


class RoomManager:
    """Every room of the server, their matches, clocks, bots and connections."""

    def __init__(self, settings: Settings, store: RoomStore, clock: Clock) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self.saved: dict[str, dict[str, Any]] = {}
        """Each room's document as last written: what a refused write puts back."""
        self.on_change: Callable[[Room], None] | None = None
        self.match_config: list[Callable[[Room, Any], Any]] = []
        """Steps that complete a room's config for each new match (a room's word lists)."""
        self.master = Master(self)
        self.scheduler = Scheduler(self)
        """The deadlines, bot turns and grace periods of every room."""
        self.devices = Devices(self)
        """The hand-overs of every shared device in a match."""
        self.presence = Presence(self)
        """Who is connected, and what happens when someone comes or goes."""
        self.cluster: Cluster | None = None
        """This node's part of a cluster (``cluster.py``); None for a single server."""
        self.fences: dict[str, int] = {}
        """In a cluster: the rooms this node runs, with the fencing token of each one's lease,
        passed with every write of the room (a single server has none and passes None)."""
        """Takes every action of every room (authenticate → live → legal → apply → commit →
        publish)."""

    # -- start and recovery -------------------------------------------------------------

    def recover(self) -> int:
        """Load every stored room and resume its match at the last committed action."""
        count = 0
        for doc in self.store.load_rooms():
            if self._restore(doc) is not None:
                count += 1
        return count

    def _restore(self, doc: dict[str, Any]) -> Room | None:
        """One stored room with its match resumed at the last committed action."""
        try:
            room = Room.from_doc(doc)
        except (WolfdenError, KeyError, TypeError) as exc:
            log.error("room %s cannot be restored: %s", doc.get("code"), exc)
            return None
        match_id = doc.get("match")
        if match_id:
            stored = self.store.load_match(match_id)
            if stored is not None:
                try:
                    room.match = self._replay(room, stored)
                except Exception as exc:  # e.g. the game's rules changed under the log
                    log.error("match %s cannot be replayed: %s", match_id, exc)
                    return None
                if room.match.ended and room.status == "live":
                    # the crash came between committing the last action and the room
                    room.status = "finished"
                    room.finished.append(room.match.id)
                    room.paused_by_host = False
        self.rooms[room.code] = room
        self.saved[room.code] = room.to_doc()
        return room

    def adopt(self, doc: dict[str, Any]) -> Room | None:
        """Take over a room another node ran (in a cluster, holding its lease): resume its
        match from the committed log and re-arm its clock, bots and grace periods."""
        room = self._restore(doc)
        if room is not None:
            self._resume(room)
        return room

    def drop(self, room: Room) -> None:
        """Stop running a room another node took over: no timer or bot acts on it here any
        more, its connections are closed (they reconnect and find it where it is now)."""
        room.gone = True
        self._cancel_timers(room)
        for task in room.grace_tasks.values():
            task.cancel()
        room.grace_tasks.clear()
        if room.draft_timer is not None:
            room.draft_timer.cancel()
            room.draft_timer = None
        peers = [peer for group in room.peers.values() for peer in group]
        room.peers.clear()
        for peer in peers:
            peer.close("moved")
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        self.saved.pop(room.code, None)
        self.fences.pop(room.code, None)

    def fence(self, room: Room) -> int | None:
        """The fencing token this node writes the room with (None: a single server). In a
        cluster, a room this node no longer runs is never written: ``FencedOut``."""
        if self.cluster is None:
            return None
        token = self.fences.get(room.code)
        if token is None or room.gone:
            raise FencedOut(f"this server no longer runs room {room.code}; nothing was saved")
        return token

    def fenced(self, room: Room, exc: StorageError) -> None:
        """After a refused write: when the room's lease was taken over, let it go."""
        if isinstance(exc, FencedOut) and self.cluster is not None:
            self.cluster.fenced(room.code)

    def start_background(self) -> None:
        """Re-arm the clocks, bots and grace periods of recovered rooms (inside the loop)."""
        for room in self.rooms.values():
            self._resume(room)

    def _resume(self, room: Room) -> None:
        m = room.live_match()
        if m is not None:
            if m.paused_at is not None and not room.paused_by_host:
                self._unpause_clock(room, m)
            self.presence.check_absent(room)
            self.scheduler.after_change(room)

    def _replay(self, room: Room, stored: StoredMatch) -> Match:
        game = room.game
        config = config_from_json(game.Config, stored.config)
        state = game.setup(config, stored.seed)
        for seat, text, _at in stored.actions:
            state, _events = game.apply(state, seat, Action.parse(text))
        m = Match(stored.id, stored.seed, state, stored.meta)
        m.version = len(stored.actions)
        m.phase_seq = stored.phase_seq
        m.phase_started = stored.phase_started
        m.paused_at = stored.paused_at
        m.ended = stored.ended is not None
        m.outcome = stored.outcome
        if game.phase_seq(state) != m.phase_seq:
            m.phase_seq = game.phase_seq(state)
            m.phase_started = self.clock.now()
        return m

    async def shutdown(self) -> None:
        tasks: list[asyncio.Task[None]] = []
        for room in self.rooms.values():
            if room.timer:
                tasks.append(room.timer)
            tasks.extend(room.bot_tasks.values())
            tasks.extend(room.grace_tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    # -- lookup and authentication --------------------------------------------------

    def get(self, code: Any) -> Room:
        if not isinstance(code, str):
            raise not_found("room_not_found", "A room code has 6 letters and digits.")
        room = self.rooms.get(normalize_code(code))
        if room is None and self.cluster is not None:
            from wolfden.server.cluster import Elsewhere

            found = self.cluster.locate(normalize_code(code))
            if isinstance(found, str):
                raise Elsewhere(found)
            room = found
        if room is None:
            raise not_found(
                "room_not_found",
                f"There is no room {normalize_code(code)[:12]!r}. Check the code and try again.",
            )
        return room

    def authenticate(self, room: Room, token: Any) -> Participant:
        """The participant holding this token, compared in constant time."""
        if not isinstance(token, str) or not token:
            raise Refused("unauthorized", "This needs your room token.", 401)
        digest = token_hash(token)
        found: Participant | None = None
        for p in room.participants.values():
            if hmac.compare_digest(digest, p.token_hash):
                found = p
        if found is None:
            raise Refused(
                "unauthorized",
                "This token is not valid in this room (it may have been replaced or removed).",
                401,
            )
        return found

    def require_host(self, room: Room, token: Any) -> Participant:
        p = self.authenticate(room, token)
        if p.id != room.host:
            raise Refused("not_host", "Only the host of the room can do this.", 403)
        return p

    def participant(self, room: Room, pid: Any) -> Participant:
        p = room.participants.get(pid) if isinstance(pid, str) else None
        if p is None:
            shown = repr(pid[:40]) if isinstance(pid, str) else "given"
            raise not_found("participant_not_found", f"No one in this room has the id {shown}.")
        return p

    # -- lobby ----------------------------------------------------------------------

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and not self.store.room_exists(code):
                return code

    def _save(self, room: Room, *, restore: bool = True) -> None:
        """Write the room; if the database refuses, put the room back as it was last saved
        (``restore``), so that memory never holds a change the file does not."""
        doc = room.to_doc()
        try:
            self.store.save_room(
                room.code, room.game.id, room.status, doc, self.clock.now(), fence=self.fence(room)
            )
        except StorageError as exc:
            log.error("room %s not saved: %s", room.code, exc)
            self.fenced(room, exc)
            saved = self.saved.get(room.code)
            if restore and saved is not None:
                _restore_lobby(room, saved)
            raise storage_refused("the room", exc) from exc
        self.saved[room.code] = copy.deepcopy(doc)

    def _config(self, game: Game, data: Any) -> Any:
        if not plain_text(data):
            raise Refused("bad_config", "The configuration's text must be valid Unicode.", 400)
        try:
            return config_from_json(game.Config, data)
        except ConfigError as exc:
            raise Refused("bad_config", f"That configuration does not work: {exc}", 400) from exc

    def _add_participant(self, room: Room, name: Any, role: Any) -> tuple[Participant, str]:
        name = clean_name(name)
        if len(room.participants) >= self.settings.max_participants:
            raise Refused(
                "room_full", f"This room has {self.settings.max_participants} people already."
            )
        if role not in ROLES:
            raise bad_request("'role' is player, spectator or table.")
        for other in room.participants.values():
            if looks_like(other.name, name):
                raise Refused(
                    "name_taken",
                    f"Someone in this room is already called {other.name!r}, and {name!r} "
                    "looks like it; choose a name that looks different.",
                )
        seat = None
        if role == "player":
            if room.status == "live":
                raise Refused(
                    "wrong_phase",
                    "A match is being played: join as a spectator now and take a seat "
                    "in the next one.",
                )
            free = [i for i, s in enumerate(room.seats) if s.participant is None and s.bot is None]
            # a person who joins between matches takes the place of a bot
            free += [i for i, s in enumerate(room.seats) if s.participant is None and s.bot]
            if not free:
                raise Refused("room_full", "Every seat is taken; you can join as a spectator.")
            seat = free[0]
        token = new_token()
        p = Participant(f"p{room.next_participant}", name, role, seat, token_hash(token))
        room.next_participant += 1
        room.participants[p.id] = p
        if seat is not None:
            room.seats[seat] = SeatSlot(participant=p.id)
        return p, token

    def create_room(
        self,
        game_id: Any,
        config: Any,
        name: Any,
        role: Any,
        answer: Callable[[Room, Participant, str], Any] | None = None,
    ) -> tuple[Room, Participant, str]:
        """A new room with its host. ``answer`` builds the reply before anything is saved, so a
        reply that cannot be made leaves nothing behind."""
        game = find_game(game_id)
        cfg = self._config(game, config)
        kinds = bot_kinds(game.id)
        settings = RoomSettings(
            grace_seconds=self.settings.grace_seconds,
            bot_delay=self.settings.bot_delay,
            stand_in_bot="rules" if "rules" in kinds else kinds[0],
        )
        room = Room(self._new_code(), game, cfg, settings)
        p, token = self._add_participant(room, name, role)
        room.host = p.id
        if answer is not None:
            answer(room, p, token)
        if self.cluster is not None:
            self.cluster.claim(room.code)  # this node runs the new room
        try:
            self._save(room)
        except Refused:
            self.fences.pop(room.code, None)
            raise
        self.rooms[room.code] = room
        return room, p, token

    def join(
        self,
        room: Room,
        name: Any,
        role: Any,
        answer: Callable[[Room, Participant, str], Any] | None = None,
        table_key: Any = None,
    ) -> tuple[Participant, str]:
        """Add someone; ``answer`` builds the reply first (see ``create_room``). A table screen
        is let in at once with a key from the host's table-screen link (``table_key``, used up
        by this join); without one, or with one that no longer works, it waits for the host
        (``pending``) and is sent no view until the host lets it in."""
        if table_key is not None and (role != "table" or not isinstance(table_key, str)):
            raise bad_request(
                "'table_key' is the key of the host's table-screen link, for role table."
            )
        key = token_hash(table_key) if isinstance(table_key, str) else None
        p, token = self._add_participant(room, name, role)
        if role == "table":
            if key is not None and key in room.table_keys:
                room.table_keys.remove(key)
            else:
                p.pending = True
        if answer is not None:
            try:
                answer(room, p, token)
            except BaseException:
                saved = self.saved.get(room.code)
                if saved is not None:
                    _restore_lobby(room, saved)
                raise
        self._save(room)
        self.publish_room(room)
        return p, token

    def _in_lobby(self, room: Room, what: str) -> None:
        if room.status == "live":
            raise Refused("wrong_phase", f"{what} is only possible between matches.")

    def set_config(self, room: Room, data: Any) -> None:
        self._in_lobby(room, "Changing the configuration")
        cfg = self._config(room.game, data)
        n = room.game.num_seats(cfg)
        for i in range(n, len(room.seats)):
            holder = room.seats[i].participant
            if holder is not None:
                who = room.participants[holder].name
                raise Refused(
                    "seat_taken",
                    f"This configuration has {n} seats but {who} sits in seat {i + 1}; "
                    "move them to a lower seat first.",
                )
        room.config = cfg
        room.seats = room.seats[:n] + [SeatSlot() for _ in range(n - len(room.seats))]
        self._changed(room)

    def set_settings(self, room: Room, data: dict[str, Any]) -> None:
        s = room.settings
        new = RoomSettings(**asdict(s))
        for key, value in data.items():
            if key == "absent":
                if value not in ABSENT_POLICIES:
                    raise bad_request("'absent' is bot, wait or timeout.")
                new.absent = value
            elif key in ("grace_seconds", "bot_delay"):
                if (
                    not isinstance(value, (int, float))
                    or isinstance(value, bool)
                    or not (0 <= value <= 3600)
                ):
                    raise bad_request(f"'{key}' is a number of seconds from 0 to 3600.")
                setattr(new, key, float(value))
            elif key == "stand_in_bot":
                if value not in bot_kinds(room.game.id):
                    raise Refused(
                        "bad_bot",
                        f"{room.game.id} has no bot {value!r}; choose "
                        + ", ".join(bot_kinds(room.game.id)),
                        400,
                    )
                new.stand_in_bot = value
            else:
                raise bad_request(
                    f"Unknown setting {key!r}; the settings are absent, grace_seconds, "
                    "stand_in_bot and bot_delay."
                )
        room.settings = new
        self._changed(room)

    def _seat_index(self, room: Room, seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(room.seats):
            raise not_found(
                "seat_not_found",
                f"Seats are numbered 0 to {len(room.seats) - 1} in this configuration.",
            )
        return seat

    def add_bot(self, room: Room, seat: Any, kind: Any) -> None:
        self._in_lobby(room, "Adding a bot")
        i = self._seat_index(room, seat)
        kinds = bot_kinds(room.game.id)
        if kind not in kinds:
            raise Refused(
                "bad_bot", f"{room.game.id} has no bot {kind!r}; choose {', '.join(kinds)}.", 400
            )
        slot = room.seats[i]
        if slot.participant is not None or slot.bot is not None:
            raise Refused("seat_taken", f"Seat {i + 1} is not empty.")
        slot.bot = kind
        self._changed(room)

    def remove_bot(self, room: Room, seat: Any) -> None:
        self._in_lobby(room, "Removing a bot")
        i = self._seat_index(room, seat)
        if room.seats[i].bot is None:
            raise Refused("seat_empty", f"Seat {i + 1} has no bot.")
        room.seats[i].bot = None
        self._changed(room)

    def move(self, room: Room, actor: Participant, target: Participant, seat: Any) -> None:
        """Take a seat, or sit out (seat None): by the participant or the host, between matches."""
        if actor.id != target.id and actor.id != room.host:
            raise Refused("forbidden", "Only the host can move another person.", 403)
        self._in_lobby(room, "Changing seats")
        if target.role == "table":
            raise Refused("wrong_phase", "A table screen does not take a seat.")
        if target.role == SHARED:
            self._release(room, target)
            target.role = "player"
        if seat is None:
            if target.seat is not None:
                room.seats[target.seat].participant = None
            target.role, target.seat = "player", None
        else:
            if seat == "any":
                free = [
                    i for i, s in enumerate(room.seats) if s.participant is None and s.bot is None
                ]
                if target.seat is not None:
                    free.insert(0, target.seat)
                if not free:
                    raise Refused("room_full", "Every seat is taken.")
                i = free[0]
            else:
                i = self._seat_index(room, seat)
            slot = room.seats[i]
            if slot.bot is not None or (slot.participant not in (None, target.id)):
                raise Refused("seat_taken", f"Seat {i + 1} is taken.")
            if target.seat is not None:
                room.seats[target.seat].participant = None
            slot.participant = target.id
            target.role, target.seat = "player", i
        self._changed(room)

    def remove_participant(self, room: Room, target: Participant, reason: str) -> None:
        """Kick or leave: the token stops working; in a match a stand-in bot takes the seat."""
        for held in target.held():
            slot = room.seats[held]
            slot.participant, slot.name = None, None
            if room.live_match() is not None:
                slot.bot = room.settings.stand_in_bot
        target.seats = []
        room.hide(target.id)
        del room.participants[target.id]
        if room.host == target.id:
            room.host = self._next_host(room)
        if room.narrator == target.id:
            room.narrator = None
        task = room.grace_tasks.pop(target.id, None)
        if task:
            task.cancel()
        for peer in list(room.peers.pop(target.id, ())):
            peer.close(reason)
        m = room.live_match()
        if m is not None and target.id in m.waiting_for:
            m.waiting_for.discard(target.id)
            self._update_pause(room, m)
        self._changed(room)
        if m is not None:
            self.scheduler.after_change(room)

    def _next_host(self, room: Room) -> str | None:
        admitted = [p for p in room.participants.values() if not p.pending]
        people = [p for p in admitted if p.role != "table"] or admitted
        connected = [p for p in people if room.connected(p.id)]
        pick = connected or people
        return pick[0].id if pick else None

    # -- shared devices ----------------------------------------------------------------

    def _release(self, room: Room, p: Participant) -> None:
        """Free the seats a shared device holds (in the lobby)."""
        for i in p.seats:
            if i < len(room.seats) and room.seats[i].participant == p.id:
                room.seats[i] = SeatSlot()
        p.seats = []
        room.hide(p.id)

    def share(
        self,
        room: Room,
        host: Participant,
        seats: Any,
        *,
        names: Any = None,
        name: Any = None,
        this_device: bool = False,
        secret_turns: bool = True,
    ) -> tuple[Participant, str | None]:
        """Make a shared device holding ``seats`` ("all" or seat numbers): a new participant
        with its own token, or (``this_device``) the host's own device. Seats must be empty,
        hold a bot (it goes), or be the device's own; each may get a person's name."""
        self._in_lobby(room, "Setting up a shared device")
        if seats == "all":
            chosen = list(range(len(room.seats)))
        elif isinstance(seats, list) and seats:
            chosen = [self._seat_index(room, s) for s in seats]
            if len(set(chosen)) != len(chosen):
                raise bad_request("'seats' names each seat once.")
        else:
            raise bad_request("'seats' is \"all\" or a list of seat numbers (at least one).")
        if names is None:
            labels: list[str | None] = [None] * len(chosen)
        elif isinstance(names, list) and len(names) == len(chosen):
            labels = [clean_name(n) for n in names]
            given = [n for n in labels if n]
            if any(looks_like(a, b) for i, a in enumerate(given) for b in given[i + 1 :]):
                raise Refused(
                    "name_taken",
                    "Give each seat on the device a different name (names that look alike "
                    "count as the same).",
                )
        else:
            raise bad_request("'names' is a list with one name per seat in 'seats'.")
        device = host if this_device else None
        for i in chosen:
            holder = room.seats[i].participant
            if holder is not None and (device is None or holder != device.id):
                who = room.participants[holder].name
                raise Refused(
                    "seat_taken",
                    f"Seat {i + 1} is {who}'s; move them or remove them from the room first.",
                )
        token: str | None = None
        if device is None:
            if name is None:
                taken = {p.name.casefold() for p in room.participants.values()}
                name = next(
                    label
                    for n in range(1, 100)
                    for label in ["Shared device" if n == 1 else f"Shared device {n}"]
                    if label.casefold() not in taken
                )
            device, token = self._add_participant(room, name, "spectator")
        if device.role == SHARED:
            self._release(room, device)
        elif device.seat is not None:
            room.seats[device.seat].participant = None
        device.role, device.seat, device.seats = SHARED, None, sorted(chosen)
        device.secret_turns = secret_turns
        for i, label in zip(chosen, labels):
            room.seats[i] = SeatSlot(participant=device.id, name=label)
        self._changed(room)
        return device, token

    async def reveal(self, room: Room, p: Participant, peer: Peer, seat: Any) -> None:
        """A shared device handed over to a seat (see ``Devices.reveal``)."""
        await self.devices.reveal(room, p, peer, seat)

    async def cover(self, room: Room, p: Participant, peer: Peer) -> None:
        """A shared device's seat screen hidden again (see ``Devices.cover``)."""
        await self.devices.cover(room, p, peer)

    def new_token(self, room: Room, target: Participant) -> str:
        """Move a participant to a new device: a fresh token, the old one stops working."""
        token = new_token()
        target.token_hash = token_hash(token)
        self._save(room)
        for peer in list(room.peers.pop(target.id, ())):
            peer.close("token_replaced")
        self.presence.presence_lost(room, target)
        self.publish_room(room)
        return token

    def hand_over(self, room: Room, target: Participant) -> None:
        if target.pending:
            raise Refused("pending", f"{target.name} is still waiting to be let in.")
        room.host = target.id
        self._changed(room)

    # -- table screens and the narrating device ------------------------------------------

    def table_link(self, room: Room) -> str:
        """A key for the host's table-screen link: the table screen that joins with it is let
        in without asking. Each key lets one screen in; the newest few are kept."""
        key = new_token()
        room.table_keys = [*room.table_keys, token_hash(key)][-TABLE_KEYS:]
        self._save(room)
        return key

    def admit(self, room: Room, target: Participant, admit: bool) -> None:
        """The host lets a waiting table screen in, or does not (it leaves the room; its
        token stops working)."""
        if not target.pending:
            raise Refused("not_pending", f"{target.name} is not waiting to be let in.")
        if not admit:
            self.remove_participant(room, target, "refused")
            return
        target.pending = False
        self._changed(room)
        if room.match is not None:
            for peer in list(room.peers.get(target.id, ())):
                self.send_view(room, peer)

    def set_narrator(self, room: Room, pid: Any) -> None:
        """The device that reads the narration aloud: a participant's id, or None for the
        default (the table screen if one is here, else a shared device, else the host's)."""
        if pid is not None:
            target = self.participant(room, pid)
            if target.pending:
                raise Refused("pending", f"{target.name} is still waiting to be let in.")
        room.narrator = pid
        self._changed(room)

    def _changed(self, room: Room, *, restore: bool = True) -> None:
        self._save(room, restore=restore)
        self.publish_room(room)
        if self.on_change:
            self.on_change(room)

    # -- matches --------------------------------------------------------------------

    def start(
        self, room: Room, *, fill_with: Any = "", seed: Any = None, again: bool = False
    ) -> Match:
        if again and (room.status != "finished" or room.match is None):
            raise Refused("wrong_phase", "Play again is for after a match has ended.")
        self._in_lobby(room, "Starting a match")
        if seed is not None and (
            not isinstance(seed, int) or isinstance(seed, bool) or seed < 0 or seed >= 2**63
        ):
            raise bad_request("'seed' is a whole number from 0 to 2^63 - 1.")
        empty = [i for i, s in enumerate(room.seats) if s.participant is None and s.bot is None]
        if empty:
            kind = room.settings.stand_in_bot if fill_with == "" else fill_with
            if kind is None:
                raise Refused(
                    "seat_empty",
                    "Seats "
                    + ", ".join(str(i) for i in empty)
                    + " are empty: add bots or wait for players.",
                )
            kinds = bot_kinds(room.game.id)
            if kind not in kinds:
                raise Refused(
                    "bad_bot",
                    f"{room.game.id} has no bot {kind!r}; choose {', '.join(kinds)}.",
                    400,
                )
            for i in empty:
                room.seats[i].bot = kind
        if seed is None:
            seed = secrets.randbits(62)
        config = self._named(room)
        for complete in self.match_config:
            config = complete(room, config)
        try:
            state = room.game.setup(config, seed)
        except ConfigError as exc:
            raise Refused("bad_config", f"The match cannot start: {exc}", 400) from exc
        now = self.clock.now()
        match_id = f"m-{room.code}-{room.next_match}"
        meta = {
            "room": room.code,
            "match": match_id,
            "seats": [
                {"seat": i, "name": room.seat_name(i), "bot": s.bot}
                for i, s in enumerate(room.seats)
            ],
        }
        m = Match(
            match_id, seed, state, meta, phase_seq=room.game.phase_seq(state), phase_started=now
        )
        stored = StoredMatch(
            id=m.id,
            room=room.code,
            game=room.game.id,
            version=room.game.version,
            config=config_to_json(config),
            seed=seed,
            meta=meta,
            started=now,
            ended=None,
            outcome=None,
            phase_seq=m.phase_seq,
            phase_started=now,
            paused_at=None,
        )
        try:
            self.store.create_match(stored, fence=self.fence(room))
        except StorageError as exc:
            self.fenced(room, exc)
            saved = self.saved.get(room.code)
            if saved is not None:
                _restore_lobby(room, saved)  # the bots that filled empty seats go again
            raise storage_refused("the new match", exc) from exc
        previous = room.match
        room.next_match += 1
        room.match = m
        room.status = "live"
        room.shown.clear()
        room.shown_turn.clear()
        room.reading.clear()
        room.paused_by_host = False
        try:
            self._changed(room)
        except Refused:
            room.match = previous
            raise
        self.publish_views(room, [])
        self.presence.check_absent(room)
        self.scheduler.after_change(room)
        return m

    def _named(self, room: Room) -> Any:
        """The room's config with the seat holders' names, for games whose Config has
        ``names`` (one per seat) and when the host has not set them."""
        config = room.config
        if "names" not in {f.name for f in dataclasses.fields(config)} or config.names:
            return config
        names: list[str] = []
        taken: set[str] = set()
        for i in range(len(room.seats)):
            name = room.seat_name(i) or f"Seat {i + 1}"
            candidate, n = name, 2
            while candidate.casefold() in taken:
                candidate, n = f"{name[:20]} ({n})", n + 1
            taken.add(candidate.casefold())
            names.append(candidate)
        try:
            named = dataclasses.replace(config, names=tuple(names))
            named.validate()
        except (ConfigError, TypeError, ValueError):
            return config
        return named

    def end(self, room: Room) -> None:
        m = room.live_match()
        if m is None:
            raise Refused("wrong_phase", "No match is being played.")
        outcome = {"ended_by_host": True}
        try:
            self.store.end_match(m.id, self.clock.now(), outcome, fence=self.fence(room))
        except StorageError as exc:
            self.fenced(room, exc)
            raise storage_refused("the end of the match", exc) from exc
        self._finish(room, m, outcome)
        self.publish_views(room, [])

    def _finish(self, room: Room, m: Match, outcome: dict[str, Any]) -> None:
        m.ended, m.outcome, m.paused_at = True, outcome, None
        room.status = "finished"
        room.shown.clear()
        room.shown_turn.clear()
        room.reading.clear()
        room.finished.append(m.id)
        room.paused_by_host = False
        self._cancel_timers(room)
        m.stand_ins.clear()
        m.waiting_for.clear()
        for task in room.grace_tasks.values():
            task.cancel()
        room.grace_tasks.clear()
        try:
            self._changed(room, restore=False)
        except Refused:
            # The end is committed with the match; the room document catches up at its next
            # write, and a restart reads a live room whose match has ended as finished.
            self.publish_room(room)

    def _cancel_timers(self, room: Room) -> None:
        self.scheduler.disarm(room)
        for task in room.bot_tasks.values():
            task.cancel()
        room.bot_tasks.clear()

    def pause(self, room: Room, paused: bool) -> None:
        m = room.live_match()
        if m is None:
            raise Refused("wrong_phase", "No match is being played.")
        room.paused_by_host = paused
        self._save(room)
        self._update_pause(room, m)
        self.publish_room(room)

    def _update_pause(self, room: Room, m: Match) -> None:
        paused = room.paused_by_host or bool(m.waiting_for)
        if paused and m.paused_at is None:
            m.paused_at = self.clock.now()
            self._store_clock(room, m)
            self._cancel_timers(room)
            self.publish_views(room, [])
        elif not paused and m.paused_at is not None:
            self._unpause_clock(room, m)
            self.publish_views(room, [])
            self.scheduler.after_change(room)

    def _unpause_clock(self, room: Room, m: Match) -> None:
        assert m.paused_at is not None
        m.phase_started += max(0.0, self.clock.now() - m.paused_at)
        m.paused_at = None
        self._store_clock(room, m)

    def _store_clock(self, room: Room, m: Match) -> None:
        try:
            self.store.set_clock(m.id, m.phase_started, m.paused_at, fence=self.fence(room))
        except StorageError as exc:
            log.error("clock of %s not saved: %s", m.id, exc)
            self.fenced(room, exc)

    def record(self, match_id: Any) -> dict[str, Any]:
        stored = self.store.load_match(match_id) if isinstance(match_id, str) else None
        if stored is None or stored.ended is None:
            # a match still being played answers as one that does not exist: the answer does
            # not tell a stranger which room codes are in use
            shown = repr(match_id[:40]) if isinstance(match_id, str) else "with that id"
            raise not_found(
                "match_not_found",
                f"There is no ended match {shown}; a match's record can be read once it has ended.",
            )
        actions = [(seat, Action.parse(text)) for seat, text, _at in stored.actions]
        config, meta = self._public_record_config(stored, actions)
        record = MatchRecord(
            game=stored.game,
            version=stored.version,
            config=config,
            seed=stored.seed,
            actions=actions,
            meta={**stored.meta, **meta, "outcome": stored.outcome},
        )
        return record.to_json()

    def _public_record_config(
        self, stored: StoredMatch, actions: list[tuple[int | None, Action]]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The config a match's record shows: of the game's secret options (word pools) only
        the words the match made public; the rest may still be drawn by the next match."""
        try:
            game = games.get(stored.game)
        except UnknownGame:
            return stored.config, {}
        secret = [k for k in getattr(game, "secret_options", ()) if stored.config.get(k)]
        if not secret:
            return stored.config, {}
        state = game.setup(config_from_json(game.Config, stored.config), stored.seed)
        for seat, action in actions:
            state, _events = game.apply(state, seat, action)
        public: set[str] = set()
        _strings(game.view(state, SPECTATOR), public)
        _strings(stored.outcome, public)
        folded = {s.casefold() for s in public}
        config = dict(stored.config)
        for k in secret:
            config[k] = [w for w in stored.config[k] if w.casefold() in folded]
        note = {
            "withheld": secret,
            "withheld_note": "the word pools show only the words this match made public; "
            "the record does not replay without the rest",
        }
        return config, note

    # -- the match master -------------------------------------------------------------

    def new_bot(self, game_id: str, kind: str, seat: int) -> Any:
        """A bot of this kind for this seat (the scheduler makes the bots through here)."""
        return make_bot(game_id, kind, seat)

    def parse_action(self, msg: dict[str, Any]) -> Action:
        return parse_action(msg)

    async def player_action(
        self,
        room: Room,
        p: Participant,
        peer: Peer,
        action: Action,
        version: Any,
        seat: Any = None,
    ) -> int:
        """A seat's action (see ``Master.player_action``)."""
        return await self.master.player_action(room, p, peer, action, version, seat)

    async def host_action(
        self, room: Room, p: Participant, peer: Peer, action: Action, version: Any
    ) -> int:
        """A host action (see ``Master.host_action``)."""
        return await self.master.host_action(room, p, peer, action, version)

    async def drafting(self, room: Room, p: Participant, peer: Peer, on: Any) -> None:
        """A person started (``on``) or stopped typing a free-text action: while they type,
        the bots keep off the floor (for a while after the last word typed)."""
        if not isinstance(on, bool):
            raise bad_request("'on' is true (typing a draft) or false (the draft is gone).")
        async with room.lock:
            self.master.authenticate(room, p, peer.token_hash)
            seat = room.shown.get(p.id) if p.role == SHARED else p.seat
            if seat is None or room.live_match() is None:
                return
            if on:
                room.drafting[seat] = self.clock.now() + DRAFT_HOLD_SECONDS
                self.scheduler.arm_drafts(room)
            elif room.drafting.pop(seat, None) is not None:
                self.scheduler.after_change(room)

    # -- presence -------------------------------------------------------------------

    def attach(self, room: Room, peer: Peer) -> bool:
        """Register a connection (see ``Presence.attach``)."""
        return self.presence.attach(room, peer)

    def detach(self, room: Room, peer: Peer) -> None:
        self.presence.detach(room, peer)

    # -- publishing -----------------------------------------------------------------

    def publish_room(self, room: Room) -> None:
        wire.publish_room(room, self.clock.now())

    def send_view(self, room: Room, peer: Peer) -> None:
        """The current view to one connection, whatever it was shown before (after hello)."""
        if room.match is not None:
            self._publish(room, {peer.participant: {peer}}, [], force=True)

    def publish_views(self, room: Room, events: list[Event]) -> None:
        """Each connection's new view, to those whose view, legal actions, countdown, pause or
        outcome changed or whom the action brought events: nothing else goes out, so what a
        client receives depends only on what it may see."""
        if room.match is not None and room.peers:
            self._publish(room, room.peers, events)

    def _publish(
        self,
        room: Room,
        peers: Mapping[str, Iterable[Peer]],
        events: list[Event],
        *,
        force: bool = False,
    ) -> None:
        m = room.match
        assert m is not None

        def device(p: Participant, actors: frozenset[int]) -> dict[str, Any] | None:
            return self.devices.device_json(room, p, actors) if p.role == SHARED else None

        wire.publish_views(
            room,
            peers,
            events,
            server_time=self.clock.now(),
            deadline=lambda viewer: self.scheduler.deadline_json(room, m, viewer),
            device=device,
            force=force,
        )


def _strings(value: Any, out: set[str]) -> None:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)


def _restore_lobby(room: Room, doc: dict[str, Any]) -> None:
    """Put back the room's lobby state (seats, people, host, settings, status) from ``doc``."""
    old = Room.from_doc(copy.deepcopy(doc))
    room.config, room.settings, room.seats = old.config, old.settings, old.seats
    room.participants, room.host, room.status = old.participants, old.host, old.status
    room.narrator, room.table_keys = old.narrator, old.table_keys
    room.finished, room.next_participant = old.finished, old.next_participant
    room.next_match, room.paused_by_host = old.next_match, old.paused_by_host
