"""The scheduler: what happens in a room when no one acts. The game's deadline (its action
when the time runs out), the bots' turns (after the room's bot delay), a bot keeping off the
floor while people type, a failed commit tried again later, and the grace period an absent
player gets before a stand-in bot plays (or the match waits) for them.

Every timer is an asyncio task on the injected clock; each one takes the room's lock and looks
again whether it is still wanted before it acts, and its actions go through the master.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from wolfden.engine import Deadline, Rng, Viewer, derive_seed
from wolfden.engine.contract import shown_timer
from wolfden.server.errors import Refused
from wolfden.server.master import on_floor

if TYPE_CHECKING:
    from wolfden.server.rooms import Match, Room, RoomManager

log = logging.getLogger("wolfden.server")


class Scheduler:
    """The timers and bot turns of every room of one ``RoomManager``."""

    def __init__(self, rooms: RoomManager) -> None:
        self.rooms = rooms

    # -- deadlines ------------------------------------------------------------------

    def deadline_json(self, room: Room, m: Match, viewer: Viewer) -> dict[str, Any] | None:
        """The countdown this viewer is shown (the game's timer for it), as server time."""
        if m.ended:
            return None
        dl = shown_timer(room.game, m.state, viewer)
        if dl is None:
            return None
        at = None if m.paused_at is not None else self._due(m, dl.seconds)
        return {"label": dl.label, "at": at, "seconds": dl.seconds}

    def _due(self, m: Match, seconds: float) -> float:
        return m.phase_started + seconds / self.rooms.settings.time_scale

    def after_change(self, room: Room) -> None:
        """Re-arm the room's deadline (when it changed) and wake the bots whose turn it is."""
        m = room.live_match()
        if m is None or m.paused_at is not None:
            self.disarm(room)
            return
        game = room.game
        dl = game.deadline(m.state)
        key = None if dl is None else self._deadline_key(m, dl)
        if key != room.timer_key or room.timer is None or room.timer.done():
            self.disarm(room)
            if dl is not None and key is not None:
                room.timer_key = key
                room.timer = asyncio.get_running_loop().create_task(self._deadline(room, m, key))
        for seat in sorted(game.actors(m.state)):
            if self.bot_kind(room, m, seat) is not None:
                task = room.bot_tasks.get(seat)
                if task is None or task.done():
                    room.bot_tasks[seat] = asyncio.get_running_loop().create_task(
                        self._bot_turn(room, m, seat)
                    )

    def _deadline_key(self, m: Match, dl: Deadline) -> tuple[str, int, float, str]:
        return (m.id, dl.phase, self._due(m, dl.seconds), str(dl.action))

    def disarm(self, room: Room) -> None:
        if room.timer is not None:
            room.timer.cancel()
        room.timer = None
        room.timer_key = None

    async def _deadline(self, room: Room, m: Match, key: tuple[str, int, float, str]) -> None:
        await self.rooms.clock.sleep_until(key[2])
        async with room.lock:
            if room.match is not m or room.live_match() is None or m.paused_at is not None:
                return
            dl = room.game.deadline(m.state)
            if dl is None or self._deadline_key(m, dl) != key:
                return
            room.timer, room.timer_key = None, None
            try:
                self.rooms.master.commit(room, m, None, dl.action)
            except Refused as exc:
                log.error("%s: the deadline action %s failed: %s", m.id, dl.action, exc.message)
                self.retry_later(room, m)

    def retry_later(self, room: Room, m: Match) -> None:
        """After a commit the storage refused, try the clock and the bots again in a while,
        so that a room does not stall once the disk has room or the lock is released."""

        async def retry(version: int) -> None:
            await self.rooms.clock.sleep_until(
                self.rooms.clock.now() + self.rooms.settings.storage_retry_seconds
            )
            async with room.lock:
                if room.timer is asyncio.current_task():
                    room.timer = None
                    if room.match is m and m.version == version:
                        self.after_change(room)

        if room.timer is not None:
            room.timer.cancel()
        room.timer = asyncio.get_running_loop().create_task(retry(m.version))

    # -- bots -------------------------------------------------------------------------

    def bot_kind(self, room: Room, m: Match, seat: int) -> str | None:
        """The kind of bot that plays this seat now (its own, or a stand-in), else None."""
        slot = room.seats[seat]
        if slot.bot is not None:
            return slot.bot
        if seat in m.stand_ins:
            return room.settings.stand_in_bot
        return None

    async def _bot_turn(self, room: Room, m: Match, seat: int) -> None:
        me = asyncio.current_task()
        try:
            delay = room.settings.bot_delay
            if delay > 0:
                jitter = 0.75 + 0.5 * Rng(derive_seed(m.seed, seat, m.version, 7)).random()
                await self.rooms.clock.sleep_until(self.rooms.clock.now() + delay * jitter)
            else:
                await asyncio.sleep(0)
            async with room.lock:
                if room.bot_tasks.get(seat) is me:
                    del room.bot_tasks[seat]
                if room.match is not m or room.live_match() is None or m.paused_at is not None:
                    return
                kind = self.bot_kind(room, m, seat)
                game = room.game
                if kind is None or seat not in game.actors(m.state):
                    return
                legal = game.legal_actions(m.state, seat)
                rng = Rng(derive_seed(m.seed, seat, m.version))
                try:
                    bot = m.bots.get((seat, kind))
                    if bot is None:
                        bot = m.bots[(seat, kind)] = self.rooms.new_bot(game.id, kind, seat)
                    needs_view = getattr(bot, "needs_view", True)
                    view = game.view(m.state, Viewer.of(seat)) if needs_view else {}
                    action = bot.act(view, legal, rng)
                except Exception:
                    # a broken bot must not stall the table: play a random legal action
                    log.exception("%s: bot %s at seat %s failed", m.id, kind, seat)
                    action = legal[rng.below(len(legal))]
                if self._floor_waits(room, m, seat):
                    return  # woken again by the next action or when a draft's hold ends
                try:
                    self.rooms.master.commit(room, m, seat, action)
                except Refused as exc:
                    log.error("%s: bot %s at seat %s: %s", m.id, kind, seat, exc.message)
                    self.retry_later(room, m)
        finally:
            if room.bot_tasks.get(seat) is me:
                del room.bot_tasks[seat]

    # -- the floor: people get their turn at typed actions ----------------------------

    def _floor_waits(self, room: Room, m: Match, seat: int) -> bool:
        """Whether a bot leaves the floor (a question) to the people who may take it too:
        while one of them is typing a draft, and while the bot has taken more than the most
        active of them. A bot alone with bots, or facing no person, never waits."""
        game = room.game
        if not on_floor(game, m.state, seat):
            return False
        people = [
            s
            for s in game.actors(m.state)
            if s != seat and self.bot_kind(room, m, s) is None and on_floor(game, m.state, s)
        ]
        if not people:
            return False
        now = self.rooms.clock.now()
        if any(room.drafting.get(s, 0.0) > now for s in people):
            return True
        return m.floor.get(seat, 0) > max(m.floor.get(s, 0) for s in people)

    def arm_drafts(self, room: Room) -> None:
        """Wake the bots when the earliest draft's hold ends."""
        if room.draft_timer is not None:
            room.draft_timer.cancel()
        if not room.drafting:
            room.draft_timer = None
            return

        async def expire(at: float) -> None:
            await self.rooms.clock.sleep_until(at)
            async with room.lock:
                now = self.rooms.clock.now()
                for s in [s for s, until in room.drafting.items() if until <= now]:
                    del room.drafting[s]
                if room.draft_timer is asyncio.current_task():
                    room.draft_timer = None
                self.arm_drafts(room)
                self.after_change(room)

        room.draft_timer = asyncio.get_running_loop().create_task(
            expire(min(room.drafting.values()))
        )

    # -- grace periods: the absent get a while to come back ----------------------------

    async def grace(self, room: Room, m: Match, pid: str) -> None:
        """After the room's grace period, an absent player's seats get stand-in bots (or the
        match waits for them), unless they came back."""
        me = asyncio.current_task()
        try:
            await self.rooms.clock.sleep_until(self.rooms.clock.now() + room.settings.grace_seconds)
            async with room.lock:
                if room.grace_tasks.get(pid) is me:
                    del room.grace_tasks[pid]
                p = room.participants.get(pid)
                if room.live_match() is not m or p is None or not p.held() or room.connected(pid):
                    return
                policy = room.settings.absent
                if policy == "bot":
                    m.stand_ins.update(p.held())
                    self.rooms.publish_room(room)
                    self.after_change(room)
                elif policy == "wait":
                    m.waiting_for.add(pid)
                    self.rooms._update_pause(room, m)
                    self.rooms.publish_room(room)
        finally:
            if room.grace_tasks.get(pid) is me:
                del room.grace_tasks[pid]
