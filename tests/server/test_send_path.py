"""A connection's frames: straight to the socket while it keeps up, queued in order while it is
backed up, and a client that falls too far behind is disconnected."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wolfden.server.clock import FakeClock
from wolfden.server.rooms import RoomManager, token_hash
from wolfden.server.settings import Settings
from wolfden.server.wire import Feed
from wolfden.server.ws import Connection
from wolfden.storage.rooms import SqliteRoomStore


class Socket:
    """A WebSocket whose writes wait while ``backed_up`` is set, as a full socket's do."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None
        self.free = asyncio.Event()
        self.free.set()

    async def send_text(self, text: str) -> None:
        await self.free.wait()
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


def connection(limit: int = 256) -> tuple[Connection, Socket]:
    ws = Socket()
    return Connection(ws, Settings(send_queue_limit=limit)), ws  # type: ignore[arg-type]


def run(steps: Any) -> None:
    asyncio.run(steps())


async def turns(n: int) -> None:
    """Let the other tasks run ``n`` times over (no clock involved)."""
    for _ in range(n):
        await asyncio.sleep(0)


async def until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait for ``condition``, giving the other tasks their turns; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true"
        await asyncio.sleep(0)


def test_frames_reach_a_keeping_up_socket_at_once_without_the_writer() -> None:
    async def steps() -> None:
        conn, ws = connection()
        conn.send("a")
        conn.send("b")
        assert ws.sent == ["a", "b"]
        assert conn.queue.empty()

    run(steps)


def test_frames_sent_while_the_socket_is_backed_up_arrive_later_in_order() -> None:
    async def steps() -> None:
        conn, ws = connection()
        writer = asyncio.create_task(conn.writer())
        conn.send("a")
        ws.free.clear()
        conn.send("b")  # has to wait for the socket
        conn.send("c")
        conn.send("d")
        await turns(20)  # the writer has had every chance to run: it waits for the socket
        assert ws.sent == ["a"]
        ws.free.set()
        await until(lambda: len(ws.sent) >= 4)
        assert ws.sent == ["a", "b", "c", "d"]
        conn.send("e")  # the socket keeps up again: straight through
        assert ws.sent[-1] == "e"
        conn.close("left")
        await asyncio.wait_for(writer, 1)
        assert ws.closed == 4003
        assert '"closed"' in ws.sent[-1]

    run(steps)


def test_a_client_too_far_behind_is_disconnected() -> None:
    async def steps() -> None:
        conn, ws = connection(limit=3)
        writer = asyncio.create_task(conn.writer())
        ws.free.clear()
        for text in "abcdef":
            conn.send(text)
        assert conn.closing
        ws.free.set()
        await asyncio.wait_for(writer, 1)
        assert ws.closed == 1013
        assert ws.sent == ["a", "b", "c"]  # what came after the limit was not sent

    run(steps)


def test_a_socket_that_failed_gets_nothing_more() -> None:
    async def steps() -> None:
        conn, ws = connection()

        async def broken(text: str) -> None:
            raise ConnectionResetError

        ws.send_text = broken  # type: ignore[method-assign]
        conn.send("a")
        assert conn.dead
        conn.send("b")
        assert conn.queue.empty()

    run(steps)


class Peer:
    """A connection as the match master sees it, writing into a log shared by the room."""

    def __init__(self, participant: str, token_hash: str, log: list[tuple[str, str]]) -> None:
        self.participant = participant
        self.token_hash = token_hash
        self.feed = Feed()
        self.log = log

    def send(self, text: str) -> None:
        self.log.append((self.participant, text))

    def close(self, reason: str) -> None:
        pass


def test_an_action_sends_every_view_it_brings_without_letting_anything_run_in_between(
    tmp_path: Path,
) -> None:
    """The answer to an action goes out right after the master returns; every view the action
    brought is written by then, in the same turn of the event loop (``wolfden bench server``
    counts on this to know when every seat has its new view). On protocol 3 the answer rides
    in the actor's own view frame, which is written last."""

    async def steps() -> None:
        settings = Settings(db=tmp_path / "rooms.sqlite3", bot_delay=0)
        manager = RoomManager(settings, SqliteRoomStore(settings.db), FakeClock())
        room, host, token = manager.create_room("werewolf", {"players": 8}, "P0", "player")
        people = [(host, token)] + [manager.join(room, f"P{i}", "player") for i in range(1, 8)]
        log: list[tuple[str, str]] = []
        peers = []
        for p, t in people:
            peer = Peer(p.id, token_hash(t), log)
            manager.attach(room, peer)
            peers.append((p, peer))
        manager.start(room, seed=7)
        m = room.match
        assert m is not None
        checked = 0
        while room.game.actors(m.state):  # the night's actions, until only the clock is left
            seat = min(room.game.actors(m.state))
            p, peer = peers[seat]
            action = room.game.legal_actions(m.state, seat)[0]
            log.clear()
            before = m.version
            peer.feed.answer, peer.feed.answered = str(checked), False  # as a protocol 3 client
            step = manager.player_action(room, p, peer, action, peer.feed.version)
            with pytest.raises(StopIteration):  # it ran to its end without yielding once
                step.send(None)
            peer.feed.answer = None
            assert m.version == before + 1
            assert log  # at least the actor's own view changed, and went out already
            assert peer.feed.answered
            assert log[-1][0] == p.id and f'"answer":{checked},' in log[-1][1]
            assert not any('"answer"' in text for _, text in log[:-1])
            checked += 1
        assert checked >= 2

        await manager.shutdown()

    run(steps)
