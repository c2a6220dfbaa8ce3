"""Shared devices in a match: one device held by several seats and handed from player to
player. Which held seats it may be handed to now, the hand-over (``reveal``) and covering the
screen again (``cover``), when the device goes back to the table view after an action, and the
hand-over state its view frames carry. Setting a device up in the lobby is the room's
(``RoomManager.share``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from wolfden.engine import Event
from wolfden.server.errors import Refused
from wolfden.server.wire import SHARED, Peer

if TYPE_CHECKING:
    from wolfden.server.rooms import Participant, Room, RoomManager


class Devices:
    """The hand-overs of every shared device of one ``RoomManager``'s rooms."""

    def __init__(self, rooms: RoomManager) -> None:
        self.rooms = rooms

    @staticmethod
    def offered(p: Participant, actors: frozenset[int]) -> list[int]:
        """The held seats a shared device may be handed to now: those the game waits for, or
        (secret turns) every held seat while the game waits for anyone: offering it only while
        one of its own seats acts would tell its players whether one of them has a night role."""
        if p.secret_turns:
            return list(p.seats) if actors else []
        return [s for s in p.seats if s in actors]

    def settle_shown(
        self,
        room: Room,
        acted: int | None = None,
        events: Iterable[Event] = (),
        *,
        new_phase: bool = False,
    ) -> None:
        """A shared device goes back to the table view (or the next hand-over) once the seat
        it shows has had its turn, or when none of its seats is waited for any more; except
        when the seat's own action brought it a private answer: that stays on the screen until
        the player hides it, or until the phase changes: at a phase change (an elimination
        among them) every shared device is covered unless its seat acts on in the new phase
        (the same player goes on holding it)."""
        if not room.shown:
            return
        m = room.live_match()
        actors = room.game.actors(m.state) if m is not None else frozenset()
        for pid, seat in list(room.shown.items()):
            p = room.participants.get(pid)
            if p is None or (new_phase and seat not in actors):
                room.hide(pid)
            elif seat in actors:
                room.shown_turn.add(pid)
            elif seat == acted and any(
                not e.audience.public and seat in e.audience.seats for e in events
            ):
                room.reading.add(pid)
            elif pid not in room.reading and (
                pid in room.shown_turn or not self.offered(p, actors)
            ):
                room.hide(pid)

    def send_to(self, room: Room, p: Participant) -> None:
        """A shared device's new hand-over state to its connections."""
        peers = room.peers.get(p.id)
        if room.match is not None and peers:
            self.rooms._publish(room, {p.id: peers}, [])

    async def reveal(self, room: Room, p: Participant, peer: Peer, seat: Any) -> None:
        """The hand-over was confirmed ("I am ..., show me"): the device now receives the view
        of that seat, which it holds and which may act now."""
        async with room.lock:
            self.rooms.master.authenticate(room, p, peer.token_hash)
            if p.role != SHARED:
                raise Refused("not_your_seat", "Only a shared device is handed from seat to seat.")
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in p.seats:
                held = ", ".join(str(s) for s in p.seats)
                raise Refused("not_your_seat", f"This device holds the seats {held}.")
            m = self.rooms.master.live(room, peer, None)
            actors = room.game.actors(m.state)
            if seat not in self.offered(p, actors):
                raise Refused("not_your_turn", "The game is not waiting for that seat now.")
            room.hide(p.id)
            room.shown[p.id] = seat
            if seat in actors:
                room.shown_turn.add(p.id)
            self.send_to(room, p)

    async def cover(self, room: Room, p: Participant, peer: Peer) -> None:
        """Hide the seat's screen again: the device shows the table view (or the next
        hand-over)."""
        async with room.lock:
            self.rooms.master.authenticate(room, p, peer.token_hash)
            if p.role != SHARED:
                raise Refused("not_your_seat", "Only a shared device is handed from seat to seat.")
            if room.hide(p.id):
                self.send_to(room, p)

    def device_json(self, room: Room, p: Participant, actors: frozenset[int]) -> dict[str, Any]:
        """A shared device's hand-over state: the seats it holds, the one it was handed to,
        and the held seats the game waits for that have not been handed the device yet."""
        shown = room.shown.get(p.id)
        return {
            "seats": [{"seat": s, "name": room.seat_name(s)} for s in p.seats],
            "shown": shown,
            "waiting": self.offered(p, actors) if shown is None else [],
            "secret_turns": p.secret_turns,
        }
