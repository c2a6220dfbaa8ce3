"""The match master: every action a person, a bot or the clock takes goes through here, in one
fixed order, readable top to bottom:

1. authenticate: the connection's token is still the participant's;
2. live: a match is being played, not paused, and the sender saw the latest view;
3. legal: the seat (or the host) may act now and the action is one the game offers;
4. apply: the game's rules give the next state and its events;
5. commit: the action is appended to the match log in the store;
6. publish: each viewer's new view goes out (``wire``).

Steps 4 to 6 run without yielding to the event loop, under the room's lock, so one room's
actions are strictly ordered and nothing is sent before it is committed; rooms never wait for
one another. Nothing is sent when any step refuses, and nothing is changed.
"""

from __future__ import annotations

import hmac
import logging
from typing import TYPE_CHECKING, Any

from wolfden.engine import Action, Event, Game, ParseError, WolfdenError
from wolfden.server.errors import Refused, storage_refused
from wolfden.server.wire import SHARED, Peer, plain_text
from wolfden.storage.rooms import StorageError

if TYPE_CHECKING:
    from wolfden.server.rooms import Match, Participant, Room, RoomManager

log = logging.getLogger("wolfden.server")


def parse_action(msg: dict[str, Any]) -> Action:
    """The action an ``action`` or ``host_action`` message names."""
    try:
        action = None
        if "action" in msg:
            action = Action.from_json(msg["action"])
        elif isinstance(msg.get("text"), str):
            action = Action.parse(msg["text"])
    except ParseError as exc:
        raise Refused("invalid_message", str(exc)) from exc
    if action is not None:
        if not plain_text(action):
            raise Refused("invalid_message", "An action's text must be valid Unicode.")
        return action
    raise Refused(
        "invalid_message",
        'An action message has "action": {"name": ..., "args": [...]} or "text": "vote 3".',
    )


class Master:
    """Takes the actions of every room of one ``RoomManager`` (its store, clock, devices,
    match endings and scheduler)."""

    def __init__(self, rooms: RoomManager) -> None:
        self.rooms = rooms

    # -- the ways in ------------------------------------------------------------------

    async def player_action(
        self,
        room: Room,
        p: Participant,
        peer: Peer,
        action: Action,
        version: Any,
        seat: Any = None,
    ) -> int:
        """A seat's action; answers the version of the view this connection now has. ``seat`` is
        the seat the message names (None: the sender's own; a shared device acts for the seat
        it was handed to)."""
        async with room.lock:
            self.authenticate(room, p, peer.token_hash)
            if p.role == SHARED:
                self._shared_action(room, p, peer, action, version, seat)
                return peer.feed.version
            if p.role != "player" or p.seat is None:
                raise Refused("not_a_player", "Only players with a seat can act in the match.")
            if seat is not None and seat != p.seat:
                raise Refused(
                    "not_your_seat",
                    "You can only act for your own seat; leave out 'seat' or give your own.",
                )
            m = self.live(room, peer, version)
            seat = p.seat
            if room.seats[seat].participant != p.id:
                raise Refused("not_a_player", "This seat is not yours any more.")
            self.seat_action(room, m, seat, action, peer)
            return peer.feed.version

    def _shared_action(
        self, room: Room, p: Participant, peer: Peer, action: Action, version: Any, asked: Any
    ) -> None:
        shown = room.shown.get(p.id)
        seat = shown if asked is None else asked
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or seat not in p.seats
        ):
            held = ", ".join(str(s) for s in p.seats)
            raise Refused("not_your_seat", f"This device holds the seats {held} only.")
        m = self.live(room, peer, version)
        # the hand-over comes first: whether the game waits for a seat the device is not
        # showing is that seat's secret (a night role), so it must not change the refusal
        if seat is None or seat != shown:
            raise Refused(
                "not_handed_over",
                "Hand the device over first: the seat's player confirms who they are, then acts.",
            )
        self.seat_action(room, m, seat, action, peer)

    async def host_action(
        self, room: Room, p: Participant, peer: Peer, action: Action, version: Any
    ) -> int:
        async with room.lock:
            self.authenticate(room, p, peer.token_hash)
            if p.id != room.host:
                raise Refused("not_host", "Only the host of the room can do this.")
            m = self.live(room, peer, version)
            legal = room.game.legal_actions(m.state, None)
            if not allowed(action, legal):
                raise Refused("illegal_action", not_allowed(action, legal, host=True))
            self.commit(room, m, None, action, peer)
            return peer.feed.version

    # -- 1. authenticate --------------------------------------------------------------

    def authenticate(self, room: Room, p: Participant, peer_hash: str) -> None:
        """The connection's token is still this participant's (a new token ends the old)."""
        current = room.participants.get(p.id)
        if current is None or not hmac.compare_digest(current.token_hash, peer_hash):
            raise Refused("unauthorized", "This token no longer works in this room.", 401)

    # -- 2. live ----------------------------------------------------------------------

    def live(self, room: Room, peer: Peer, version: Any) -> Match:
        """The match being played, when it takes actions and ``version`` (when given) is the
        view this connection has now."""
        if room.gone:
            raise Refused(
                "unavailable",
                "This room has moved to another server; nothing changed. Connect again.",
                503,
            )
        m = room.match
        if m is None:
            raise Refused("match_not_live", "No match is being played in this room.")
        if m.ended or room.status != "live":
            raise Refused("match_over", "The match has ended.")
        if m.paused_at is not None:
            raise Refused("paused", "The match is paused.")
        if version is not None and version != peer.feed.version:
            raise Refused(
                "stale",
                f"Your view has changed (it is now at version {peer.feed.version}, you acted on "
                f"{version}); look at the new view and act again.",
            )
        return m

    # -- 3. legal ---------------------------------------------------------------------

    def seat_action(
        self, room: Room, m: Match, seat: int, action: Action, by: Peer | None = None
    ) -> None:
        """A seat's action, when the game waits for that seat and offers the action."""
        game = room.game
        if seat not in game.actors(m.state):
            raise Refused("not_your_turn", "The game is not waiting for an action from you now.")
        legal = game.legal_actions(m.state, seat)
        if not allowed(action, legal):
            raise Refused("illegal_action", not_allowed(action, legal))
        self.commit(room, m, seat, action, by)

    # -- 4. apply → 5. commit → 6. publish ----------------------------------------------

    def commit(
        self, room: Room, m: Match, seat: int | None, action: Action, by: Peer | None = None
    ) -> None:
        """Apply → append and commit → publish. No await inside: nothing interleaves. ``by``
        is the connection that sent the action (None for the clock and bots): on protocol 3
        its answer goes in the view frame the action brings it, when there is one."""
        rooms = self.rooms
        game = room.game
        typed = seat is not None and on_floor(game, m.state, seat)
        state, events = self._apply(room, m, seat, action)
        now = rooms.clock.now()
        seq = game.phase_seq(state)
        started = m.phase_started if seq == m.phase_seq else now
        result = game.outcome(state)
        outcome = None if result is None else result.to_json()
        try:
            rooms.store.append_action(
                m.id,
                m.version,
                seat,
                str(action),
                now,
                phase_seq=seq,
                phase_started=started,
                new_phase=seq != m.phase_seq,
                ended=now if outcome is not None else None,
                outcome=outcome,
                fence=rooms.fence(room),
            )
        except StorageError as exc:
            log.error("%s: action not saved: %s", m.id, exc)
            rooms.fenced(room, exc)
            raise storage_refused("this action", exc) from exc
        # committed: the room in memory follows the log
        new_phase = seq != m.phase_seq
        m.state, m.version, m.phase_seq, m.phase_started = state, m.version + 1, seq, started
        if typed and seat is not None:
            m.floor[seat] = m.floor.get(seat, 0) + 1
            room.drafting.pop(seat, None)
        rooms.devices.settle_shown(room, seat, events, new_phase=new_phase)
        if outcome is not None:
            rooms._finish(room, m, outcome)
        self._publish(room, m, events, by)
        if outcome is None:
            rooms.scheduler.after_change(room)

    def _apply(
        self, room: Room, m: Match, seat: int | None, action: Action
    ) -> tuple[Any, list[Event]]:
        """The game's next state and events; a rule that refuses becomes the refusal."""
        try:
            return room.game.apply(m.state, seat, action)
        except WolfdenError as exc:
            raise Refused(getattr(exc, "code", "illegal_action"), str(exc)) from exc
        except Exception as exc:
            log.exception("%s: apply failed for %s in %s", room.code, action, m.id)
            raise Refused("internal", "The server hit a bug; nothing was changed.", 500) from exc

    def _publish(self, room: Room, m: Match, events: list[Event], by: Peer | None) -> None:
        feed = None if by is None else by.feed
        if feed is not None:
            feed.committed()
        try:
            self.rooms.publish_views(room, events)
        except Exception:  # committed: a view that cannot be sent must not undo or hide that
            log.exception("%s: views after version %s could not be sent", m.id, m.version)
        finally:
            if feed is not None:
                feed.published()


def on_floor(game: Game, state: Any, seat: int) -> bool:
    """Whether this seat may now take the floor: it acts and is offered a free-text form
    (Werewords' ``ask ?``), so whatever it does now (a typed question or a ready-made one)
    is a turn on the floor that others may want too."""
    return seat in game.actors(state) and any(
        a.args == ("?",) for a in game.legal_actions(state, seat)
    )


def allowed(action: Action, legal: list[Action]) -> bool:
    """A legal action, or one filling in a free-text form that the game lists once with the
    text ``"?"`` (werewords lists ``ask "?"``: any question); the game's apply checks the text."""
    if action in legal:
        return True
    return any(
        form.name == action.name
        and len(form.args) == len(action.args)
        and all(f == a or (f == "?" and isinstance(a, str)) for f, a in zip(form.args, action.args))
        for form in legal
    )


def not_allowed(action: Action, legal: list[Action], *, host: bool = False) -> str:
    if not legal:
        return f"{str(action)!r} is not allowed now, and nothing else is either."
    shown = ", ".join(repr(str(a)) for a in legal[:12])
    more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
    who = "the host" if host else "you"
    return f"{str(action)!r} is not allowed now; {who} may play {shown}{more}."
