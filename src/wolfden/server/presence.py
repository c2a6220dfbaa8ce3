"""Presence: which participants are connected. A connection that comes takes back its seats
from stand-in bots (and ends a wait for it); the last connection of a seated participant that
goes starts the grace period (the scheduler's), after which the room's absent policy applies.
The room is told (a ``room`` frame) whenever someone comes online or goes offline.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from wolfden.server.wire import Peer

if TYPE_CHECKING:
    from wolfden.server.rooms import Participant, Room, RoomManager


class Presence:
    """The connections of every room of one ``RoomManager``."""

    def __init__(self, rooms: RoomManager) -> None:
        self.rooms = rooms

    def attach(self, room: Room, peer: Peer) -> bool:
        """Register a connection; True when the room was told (the participant came online)."""
        pid = peer.participant
        first = not room.peers.get(pid)
        room.peers.setdefault(pid, set()).add(peer)
        if room.hide(pid):
            # a shared device that (re)connects is covered until the next hand-over
            p = room.participants.get(pid)
            others = room.peers[pid] - {peer}
            if p is not None and room.match is not None and others:
                self.rooms._publish(room, {pid: others}, [])
        if first:
            task = room.grace_tasks.pop(pid, None)
            if task:
                task.cancel()
            m = room.live_match()
            p = room.participants.get(pid)
            held = [] if p is None else p.held()
            if m is not None and held:
                m.stand_ins.difference_update(held)
                if pid in m.waiting_for:
                    m.waiting_for.discard(pid)
                    self.rooms._update_pause(room, m)
            self.rooms.publish_room(room)
        return first

    def detach(self, room: Room, peer: Peer) -> None:
        pid = peer.participant
        peers = room.peers.get(pid)
        if not peers or peer not in peers:
            return
        peers.discard(peer)
        if not peers:
            del room.peers[pid]
            p = room.participants.get(pid)
            if p is not None:
                self.presence_lost(room, p)
            self.rooms.publish_room(room)

    def presence_lost(self, room: Room, p: Participant) -> None:
        m = room.live_match()
        if m is None or not p.held() or room.connected(p.id) or p.id in room.grace_tasks:
            return
        room.grace_tasks[p.id] = asyncio.get_running_loop().create_task(
            self.rooms.scheduler.grace(room, m, p.id)
        )

    def check_absent(self, room: Room) -> None:
        for p in list(room.participants.values()):
            self.presence_lost(room, p)
