"""``wolfden bench server``: bounded loopback load on the real server, beside a bare broadcast app.

The servers run in their own processes (``wolfden serve`` and a minimal Starlette WebSocket
broadcast app on the same uvicorn); this process plays every client. Each room has one client
per seat; a room acts by sending one legal action and waiting until every client of the room has
received the new view. Two phases per server:

- paced: each room acts once per ``--interval`` seconds (offsets spread evenly), latency from
  sending the action to the last player's new view, p50 and p99;
- saturation: each room acts again as soon as its last action reached everyone; actions/s.

The bare app echoes a client's message to every client of its room, with a payload as large as
the average view frame the real server sent, so both move the same bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import orjson
from websockets.exceptions import ConnectionClosed

from wolfden.server.process import free_port

# -- the bare broadcast app (served by uvicorn in its own process) ---------------------------


def _bare_app() -> Any:
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, set[WebSocket]] = {}

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        room = ws.query_params.get("room", "")
        members = rooms.setdefault(room, set())
        members.add(ws)
        try:
            while True:
                text = await ws.receive_text()
                for other in list(members):
                    await other.send_text(text)
        except WebSocketDisconnect:
            pass
        finally:
            members.discard(ws)

    return Starlette(routes=[WebSocketRoute("/ws", endpoint)])


bare_app = _bare_app()


# -- measurement ----------------------------------------------------------------------------


@dataclass
class Phase:
    actions: int = 0
    errors: int = 0
    timeouts: int = 0
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    frames: int = 0
    frame_bytes: int = 0
    views: int = 0
    view_bytes: int = 0
    answered: int = 0
    """Actions answered (accepted) so far."""
    checked: int = 0
    """Actions after which whoever had no new view was pinged (see ``Room.act``)."""
    late: int = 0
    """Views that came after the answer's turn but before such a ping's pong."""
    pings: int = 0
    ticks: int = 0
    """Paced turns of the rooms: an action, or a wait for the clock or for a new deal."""
    behind: float = 0.0
    """How far, at most, a room's paced turn started after its time (seconds)."""
    server_cpu: float | None = None
    client_cpu: float = 0.0

    def cpu_ms_per_action(self) -> float | None:
        if self.server_cpu is None or not self.actions:
            return None
        return self.server_cpu / self.actions * 1000

    def client_ms_per_action(self) -> float | None:
        return self.client_cpu / self.actions * 1000 if self.actions else None

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        data = sorted(self.latencies)
        return data[min(len(data) - 1, int(p / 100 * len(data)))] * 1000

    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


CHECK_EVERY = 16
"""One action in this many has the bench ping the clients that got no view (see Room.act)."""

_VIEW_HEAD = b'{"type":"view","version":'
_VIEW_FIELDS = ("legal", "host_actions", "outcome")
_LEGAL = b',"legal":'
_LIVE_TAIL = b',"outcome":null}'
_ANSWER = b'"answer":'
_MSG_HEAD = b'{"type":"msg","n":'


def _view_fields(raw: bytes) -> dict[str, Any]:
    """A view frame's version, legal and host actions and outcome, read without decoding the
    view itself (the server writes them after it; the clients act only on these); the whole
    frame is decoded when it is not laid out that way."""
    start = len(_VIEW_HEAD)
    end = raw.find(b",", start)
    legal = raw.rfind(_LEGAL)
    if end >= 0 and legal >= 0:
        try:
            fields = orjson.loads(b"{" + raw[legal + 1 :])
            version = int(raw[start:end])
        except ValueError:  # orjson's decode error is a ValueError too
            fields = None
        if isinstance(fields, dict) and all(k in fields for k in _VIEW_FIELDS):
            fields["version"] = version
            return fields
    msg = orjson.loads(raw)
    return {k: msg[k] for k in ("version", *_VIEW_FIELDS)}


class Member:
    """One client. Its last view frame is kept as it came and read only as far as the bench
    needs it (most frames are superseded before anyone acts on them): the reader only counts
    it and notes whether it still says the match is live, decoding it whole only when that
    changes (a match ended, or one began: its id)."""

    def __init__(self, ws: Any, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.raw = b""
        """The last view frame."""
        self._fields: dict[str, Any] | None = None
        """Its version, legal and host actions and outcome, once read."""
        self.live = False
        """The last view frame's outcome is null."""
        self.version = -1
        """The bare app's clients: the last message number received."""
        self.match = ""
        self.views = 0
        """View frames received (the server sends one only when this viewer's view changed)."""
        self.view_at = 0.0
        self.pings = 0

    def fields(self) -> dict[str, Any]:
        found = self._fields
        if found is None:
            found = self._fields = _view_fields(self.raw)
        return found

    def may_act(self) -> bool:
        """The last view offers this seat actions: its top-level ``legal`` list is not empty
        (the last one in the frame: the server writes it after the view)."""
        raw = self.raw
        at = raw.rfind(_LEGAL)
        if at < 0:
            return bool(self.fields()["legal"])
        at += len(_LEGAL)
        return raw[at : at + 2] != b"[]"


class Room:
    """One room's clients; ``act`` sends one action and waits for everyone's new view."""

    def __init__(self, members: list[Member], bare: bool) -> None:
        self.members = members
        self.bare = bare
        self.waiter: tuple[Any, asyncio.Future[None]] | None = None
        """What ``_wait`` waits for: its condition, checked by the readers as frames come in,
        and the future it sleeps on (one wake-up when the condition holds, not one per frame)."""
        self.rejected = 0
        self.counter = 0
        self.pad = ""
        self.code = ""
        self.host_token = ""
        self.stats: Phase | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.answers: dict[int, float] = {}
        self.sent = 0
        self.port = 0
        self.line: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        """The host's HTTP connection for requests during play (see ``post``)."""

    async def reader(self, m: Member) -> None:
        while True:
            try:
                raw = await m.ws.recv(decode=False)
            except ConnectionClosed:
                return
            stats = self.stats
            if raw.startswith(_VIEW_HEAD):
                comma = raw.find(b",", len(_VIEW_HEAD))
                if raw.startswith(_ANSWER, comma + 1):  # the answer to this client's action
                    start = comma + 1 + len(_ANSWER)
                    self.answers[int(raw[start : raw.index(b",", start)])] = time.perf_counter()
                m.raw, m._fields = raw, None
                live = raw.endswith(_LIVE_TAIL)
                if not live or not m.live or not m.match:
                    # a match ended or began (or the frame is laid out otherwise): read it all
                    msg = orjson.loads(raw)
                    m.match = msg["match"]
                    m._fields = {k: msg[k] for k in ("version", *_VIEW_FIELDS)}
                    live = msg["outcome"] is None
                m.live = live
                m.views += 1
                m.view_at = time.perf_counter()
                if stats is not None:
                    stats.frames += 1
                    stats.frame_bytes += len(raw)
                    stats.views += 1
                    stats.view_bytes += len(raw)
            elif raw.startswith(_MSG_HEAD):  # the bare app's echo: only its number is read
                start = len(_MSG_HEAD)
                m.version = int(raw[start : raw.index(b",", start)])
                if stats is not None:
                    stats.frames += 1
                    stats.frame_bytes += len(raw)
                    stats.views += 1
                    stats.view_bytes += len(raw)
            else:
                msg = orjson.loads(raw)
                kind = msg.get("type")
                if stats is not None:
                    stats.frames += 1
                    stats.frame_bytes += len(raw)
                if kind == "accepted":
                    self.answers[msg["id"]] = time.perf_counter()
                elif kind in ("rejected", "error"):
                    self.rejected += 1
                else:
                    continue
            waiter = self.waiter
            if waiter is not None and not waiter[1].done() and waiter[0]():
                waiter[1].set_result(None)

    async def act(self, rng: random.Random, timeout: float = 5.0) -> float | None:
        """One action; its latency in seconds, or None when nothing could be done."""
        if self.bare:
            self.counter += 1
            sender = self.members[rng.randrange(len(self.members))]
            target = self.counter - 1
            t0 = time.perf_counter()
            text = orjson.dumps({"type": "msg", "n": self.counter, "pad": self.pad}).decode()
            await sender.ws.send(text)
            return await self._wait(
                lambda: all(m.version > target for m in self.members), t0, timeout
            )
        first = self.members[0]
        if not first.live:
            match = first.match
            await self.post(f"/api/rooms/{self.code}/again")
            await self._wait(
                lambda: all(m.match != match and m.live for m in self.members),
                0,
                timeout,
            )
            return None
        movers = [m for m in self.members if m.may_act()]
        if movers:
            m = rng.choice(movers)
            kind, action = "action", rng.choice(m.fields()["legal"])
        elif first.fields()["host_actions"]:
            m, kind, action = first, "host_action", first.fields()["host_actions"][0]
        else:  # only the clock can move on: wait for it, then for everyone's news
            seen = [x.views for x in self.members]
            with contextlib.suppress(TimeoutError):
                await self._wait(
                    lambda: any(x.views > n for x, n in zip(self.members, seen)), 0, 1.0
                )
                # each seat has the clock's news, or its pong came after whatever was sent
                await self._ping([x for x, n in zip(self.members, seen) if x.views == n], timeout)
            return None
        self.sent += 1
        ref = self.sent
        seen = [x.views for x in self.members]
        rejected = self.rejected
        t0 = time.perf_counter()
        await m.ws.send(
            orjson.dumps(
                {"type": kind, "id": ref, "version": m.fields()["version"], "action": action}
            ).decode()
        )
        await self._wait(lambda: ref in self.answers or self.rejected > rejected, 0, timeout)
        if ref not in self.answers:
            return None
        last = self.answers.pop(ref)
        # Views go only to those whose view changed. The server writes them all, each with its
        # own write to its loopback socket, before the answer, in one turn of its event loop:
        # when the answer is in, so is every view, and one turn of this loop lets the readers
        # take in the frames read with it. Every CHECK_EVERY-th action checks that by pinging
        # whoever has no new view: a view that comes before the pong came late (counted).
        await asyncio.sleep(0)
        for x, n in zip(self.members, seen):
            if x.views > n:
                last = max(last, x.view_at)
        stats = self.stats
        if stats is not None:
            stats.answered += 1
        if stats is not None and stats.answered % CHECK_EVERY == 0:
            quiet = [x for x, n in zip(self.members, seen) if x.views == n and x is not m]
            mark = m.views
            await self._ping(quiet, timeout)
            late = sum(x.views > n for x, n in zip(self.members, seen) if x in quiet)
            # then the actor: a frame it gets after its answer and before this pong comes from
            # a later action (the clock's, such as the end of a night), which may have been
            # what reached the others too: the check is void then
            await self._ping([m], timeout)
            if m.views == mark:
                stats.checked += 1
                stats.late += late
        return last - t0

    async def post(self, path: str) -> int:
        """A POST with an empty body as the host, on the room's own kept-alive HTTP/1.1
        connection, written and read here; the status code. (An HTTP client library cost this
        process about 1.5 ms of CPU per request, as much as some hundred views.) A connection
        the server closed while it was idle is opened again once."""
        request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Authorization: Bearer {self.host_token}\r\nContent-Length: 0\r\n\r\n"
        ).encode()
        for attempt in (1, 2):
            if self.line is None:
                self.line = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = self.line
            try:
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.split(b"\r\n")
                status = int(lines[0].split(b" ", 2)[1])
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(b":")
                    headers[name.strip().lower()] = value.strip().lower()
                await reader.readexactly(int(headers.get(b"content-length", b"0")))
                if headers.get(b"connection") == b"close":
                    writer.close()
                    self.line = None
                return status
            except (ConnectionError, asyncio.IncompleteReadError):
                writer.close()
                self.line = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _ping(self, members: list[Member], timeout: float) -> None:
        """Ping each member and wait for every pong, then let the readers take in what came
        before them."""
        if not members:
            return
        pongs = []
        for x in members:
            # a payload of our own (a count): the library's default draws random bytes each time
            x.pings += 1
            if self.stats is not None:
                self.stats.pings += 1
            pongs.append(await x.ws.ping(x.pings.to_bytes(4, "big")))
        async with asyncio.timeout(timeout):
            await asyncio.gather(*pongs)
        await asyncio.sleep(0)

    async def _wait(self, done: Any, t0: float, timeout: float) -> float | None:
        if not done():
            woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.waiter = (done, woken)
            try:
                async with asyncio.timeout(timeout):  # one timer for the whole wait, no tasks
                    await woken
            finally:
                self.waiter = None
        return time.perf_counter() - t0 if t0 else None


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) of a process so far, from /proc; None where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def _collector_aside() -> Iterator[None]:
    """What lives through a measurement (connections, rooms, the game's tables) is left alone
    by the cyclic garbage collector, which also runs less often, as `wolfden serve` sets it:
    every frame and view makes short-lived objects that reference counting frees anyway (the
    collector's walks had taken about a tenth of the clients' time)."""
    gc.collect()
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(20_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


async def _drive(rooms: list[Room], seconds: float, interval: float | None, pid: int) -> Phase:
    with _collector_aside():
        stats = Phase()
        cpu_before = _cpu_seconds(pid)
        client_before = time.process_time()
        for r in rooms:
            r.stats = stats
        stop = time.perf_counter() + seconds

        async def loop(i: int, room: Room) -> None:
            rng = random.Random(i)
            if interval:
                await asyncio.sleep(interval * i / len(rooms))
            next_at = time.perf_counter()
            while time.perf_counter() < stop:
                if interval:
                    stats.ticks += 1
                    stats.behind = max(stats.behind, time.perf_counter() - next_at)
                before = room.rejected
                try:
                    latency = await room.act(rng)
                except TimeoutError:
                    stats.timeouts += 1
                    latency = None
                if room.rejected > before:
                    stats.errors += 1
                elif latency is not None:
                    stats.actions += 1
                    stats.latencies.append(latency)
                if interval:  # the next turn, or the end of the phase, whichever comes first
                    next_at += interval
                    await asyncio.sleep(max(0.0, min(next_at, stop) - time.perf_counter()))

        started = time.perf_counter()
        await asyncio.gather(*(loop(i, r) for i, r in enumerate(rooms)))
        stats.seconds = time.perf_counter() - started
        stats.client_cpu = time.process_time() - client_before
        cpu_after = _cpu_seconds(pid)
        if cpu_before is not None and cpu_after is not None:
            stats.server_cpu = cpu_after - cpu_before
        for r in rooms:
            r.stats = None
        return stats


def _start(argv: list[str], port: int) -> subprocess.Popen[bytes]:
    src = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    raise click.ClickException("the server under test did not start")


def _match_config(game: str, players: int) -> dict[str, Any]:
    """The bench's rooms' config: one seat per client; a Werewolf night ends as soon as its
    actions are in (the clock's minimum would only make the rooms wait)."""
    config: dict[str, Any] = {"players": players}
    if game == "werewolf":
        config["min_night_seconds"] = 0
    return config


async def _wolfden_rooms(port: int, rooms: int, players: int, game: str) -> tuple[list[Room], Any]:
    import httpx
    from websockets.asyncio.client import connect

    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30)
    config = _match_config(game, players)
    sem = asyncio.Semaphore(32)

    async def one(i: int) -> Room:
        async with sem:
            made = (
                await http.post("/api/rooms", json={"game": game, "name": "P0", "config": config})
            ).json()
            if "error" in made:
                raise click.ClickException(made["error"]["message"])
            tokens = [made["token"]]
            for s in range(1, players):
                joined = await http.post(f"/api/rooms/{made['code']}/join", json={"name": f"P{s}"})
                tokens.append(joined.json()["token"])
            members = []
            for seat, token in enumerate(tokens):
                ws = await connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22)
                await ws.send(
                    json.dumps({"type": "hello", "v": 3, "room": made["code"], "token": token})
                )
                members.append(Member(ws, seat))
            room = Room(members, bare=False)
            room.code, room.host_token, room.port = made["code"], tokens[0], port
            return room

    built = await asyncio.gather(*(one(i) for i in range(rooms)))
    for room in built:
        room.tasks = [asyncio.create_task(room.reader(m)) for m in room.members]
    for room in built:
        r = await http.post(
            f"/api/rooms/{room.code}/start",
            json={"fill_with": None},
            headers={"Authorization": f"Bearer {room.host_token}"},
        )
        if r.status_code != 200:
            raise click.ClickException(r.text)
    for room in built:
        await room._wait(lambda room=room: all(m.match != "" for m in room.members), 0, 30)
    return built, http


async def _bare_rooms(port: int, rooms: int, players: int, pad: int) -> list[Room]:
    from websockets.asyncio.client import connect

    built = []
    for i in range(rooms):
        members = []
        for seat in range(players):
            ws = await connect(f"ws://127.0.0.1:{port}/ws?room={i}", max_size=2**22)
            members.append(Member(ws, seat))
        room = Room(members, bare=True)
        room.pad = "x" * pad
        built.append(room)
    for room in built:
        room.tasks = [asyncio.create_task(room.reader(m)) for m in room.members]
    return built


async def _close(rooms: list[Room]) -> None:
    for room in rooms:
        for m in room.members:
            await m.ws.close()
        for t in room.tasks:
            t.cancel()
        if room.line is not None:
            room.line[1].close()
            room.line = None


def _run_loop(main: Any) -> Any:
    """Run the clients on uvloop where it is installed (the servers' uvicorn uses it too), so
    the clients' own event loop costs as little as the servers' does."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def run(
    rooms: int, players: int, seconds: float, saturation: float, interval: float, game: str
) -> dict[str, Any]:
    results: dict[str, Any] = {"load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = _start(
            [
                sys.executable,
                "-m",
                "wolfden",
                "serve",
                "--port",
                str(port),
                "--db",
                str(Path(tmp) / "bench.sqlite3"),
                "--bot-delay",
                "0",
                "--rooms-per-minute",
                "100000",
                # a connection's message limit protects the server from a flooding client; a
                # few rooms at saturation send more than a person could, so lift it here
                "--messages-per-second",
                "100000",
                "--log-level",
                "error",
            ],
            port,
        )
        try:

            async def wolfden() -> tuple[Phase, Phase]:
                built, http = await _wolfden_rooms(port, rooms, players, game)
                paced = await _drive(built, seconds, interval, proc.pid)
                sat = await _drive(built, saturation, None, proc.pid)
                await _close(built)
                await http.aclose()
                return paced, sat

            results["wolfden"] = _run_loop(wolfden())
        finally:
            proc.terminate()
            proc.wait(10)
    paced = results["wolfden"][0]
    pad = max(64, paced.view_bytes // max(1, paced.views) - 40)
    results["pad"] = pad
    port = free_port()
    proc = _start(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "wolfden_bench.server:bare_app",
            "--port",
            str(port),
            "--log-level",
            "error",
            "--ws-max-size",
            "65536",
            "--ws-per-message-deflate",
            "false",
        ],
        port,
    )
    try:

        async def bare() -> tuple[Phase, Phase]:
            built = await _bare_rooms(port, rooms, players, pad)
            paced = await _drive(built, seconds, interval, proc.pid)
            sat = await _drive(built, saturation, None, proc.pid)
            await _close(built)
            return paced, sat

        results["bare"] = _run_loop(bare())
    finally:
        proc.terminate()
        proc.wait(10)
    results["master"] = master_alone(
        game, players, rooms=min(rooms, 20), actions=max(2_000, min(10_000, 50 * rooms))
    )
    results["load_after"] = os.getloadavg()
    return results


# -- the match master alone, in this process -------------------------------------------------


class _Taker:
    """A stand-in connection: it takes the frames the master hands it and counts the views."""

    def __init__(self, participant: str, token: str) -> None:
        from wolfden.server.rooms import token_hash
        from wolfden.server.wire import Feed

        self.participant = participant
        self.token_hash = token_hash(token)
        self.feed = Feed()
        self.frames = 0

    def send(self, text: str) -> None:
        if text.startswith('{"type":"view"'):
            self.frames += 1

    def close(self, reason: str) -> None:
        pass


@dataclass
class Master:
    """CPU seconds of the match master over ``actions`` actions of the players and the host
    (the clock's actions and new matches are done and paid for, but not counted, as in the
    phases over the network)."""

    rooms: int
    actions: int = 0
    cpu: float = 0.0
    publish: float = 0.0
    store: float = 0.0
    frames: int = 0

    def ms(self, seconds: float) -> float:
        return seconds / self.actions * 1000 if self.actions else float("nan")


def _timed(fn: Any, master: Master, part: str) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        t0 = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            setattr(master, part, getattr(master, part) + time.process_time() - t0)

    return run


async def _master(game: str, players: int, rooms: int, actions: int, db: Path) -> Master:
    from wolfden.server.clock import FakeClock
    from wolfden.server.rooms import RoomManager
    from wolfden.server.settings import Settings
    from wolfden.storage.rooms import SqliteRoomStore

    settings = Settings(db=db, bot_delay=0, rooms_per_minute=100_000)
    clock = FakeClock()
    store = SqliteRoomStore(db)
    manager = RoomManager(settings, store, clock)
    master = Master(rooms)
    config = _match_config(game, players)
    tables = []
    for r in range(rooms):
        room, host, token = manager.create_room(game, config, "P0", "player")
        seated = [(host, token)] + [
            manager.join(room, f"P{s}", "player") for s in range(1, players)
        ]
        takers = []
        for p, t in seated:
            taker = _Taker(p.id, t)
            manager.attach(room, taker)
            takers.append((p, taker))
        manager.start(room, fill_with=None, seed=r)
        tables.append((room, takers))
    manager.publish_views = _timed(manager.publish_views, master, "publish")  # type: ignore[method-assign]
    store.append_action = _timed(store.append_action, master, "store")  # type: ignore[method-assign]
    rng = random.Random(7)
    for _, takers in tables:
        for _, taker in takers:
            taker.frames = 0
    started = time.process_time()
    while master.actions < actions:
        for room, takers in tables:
            m = room.match
            assert m is not None
            g = room.game
            if m.ended:
                manager.start(room, again=True, seed=rng.randrange(2**62))
                continue
            seats = g.actors(m.state)
            host_actions = [] if seats else g.legal_actions(m.state, None)
            if seats:
                seat = rng.choice(sorted(seats))
                p, taker = takers[seat]
                legal = g.legal_actions(m.state, seat)
                await manager.player_action(room, p, taker, rng.choice(legal), None)
            elif host_actions:
                p, taker = takers[0]
                await manager.host_action(room, p, taker, host_actions[0], None)
            else:  # only the clock can move on: its timer fires once the deadline is due
                dl = g.deadline(m.state)
                if dl is None:
                    raise RuntimeError(f"{room.code}: nobody may act and no deadline is set")
                # (moved, when at all, only as far as this deadline: no other room's ends early)
                clock.set(m.phase_started + dl.seconds / settings.time_scale)
                version = m.version
                for _ in range(10):
                    await asyncio.sleep(0)
                    if m.version != version:
                        break
                else:
                    raise RuntimeError(f"{room.code}: the deadline passed and nothing happened")
                continue
            master.actions += 1
    master.cpu = time.process_time() - started
    master.frames = sum(t.frames for _, takers in tables for _, t in takers)
    await manager.shutdown()
    store.close()
    return master


def master_alone(game: str, players: int, rooms: int = 20, actions: int = 10_000) -> Master:
    """The match master's CPU per action without the network: the same game's rooms played in
    this process through the server's own ``RoomManager``, with a real SQLite file, stand-in
    connections that only take their frames, and the clock moved by hand. What it spends
    publishing the views (building, encoding, handing over each viewer's frame) and appending
    to SQLite is timed apart."""
    with tempfile.TemporaryDirectory() as tmp, _collector_aside():
        return asyncio.run(_master(game, players, rooms, actions, Path(tmp) / "m.sqlite3"))


def keeps_pace(paced: Phase, interval: float) -> bool:
    """Whether the server kept up with the paced load: no action timed out, and no room's
    turn started a whole interval after its time (a server that cannot keep up makes every
    turn wait for the one before, and the delay grows). The actions per second alone cannot
    tell: a turn may have nothing to do (the clock's wait at night, a new deal)."""
    return not paced.timeouts and paced.ticks > 0 and paced.behind < interval


def budget_lines(results: dict[str, Any]) -> list[str]:
    """The master's own time beside what the saturation target leaves the server."""
    master: Master | None = results.get("master")
    if master is None or not master.actions:
        return []
    lines = [
        f"- The match master alone (in the bench's process: {master.rooms} rooms of the same "
        "game played through the server's own room manager, with a real SQLite file, stand-in "
        "connections that only take their frames and the clock moved by hand; "
        f"{master.actions} actions): {master.ms(master.cpu):.2f} ms of CPU per action, "
        f"{master.ms(master.publish):.2f} ms of it publishing the views (each viewer's view, "
        f"legal actions, countdown and events, encoded and handed over: "
        f"{master.frames / master.actions:.1f} view frames per action, the clock's actions and "
        f"new matches included) and {master.ms(master.store):.2f} ms appending to SQLite."
    ]
    bare_server = results["bare"][1].cpu_ms_per_action()
    bare_clients = results["bare"][1].client_ms_per_action()
    if bare_server is not None and bare_clients is not None:
        slow = max(bare_server, bare_clients)
        held = "its clients" if bare_clients >= bare_server else "its server"
        need = 2 * slow
        floor = bare_server + master.ms(master.cpu)
        verdict = (
            f"leaving {need - floor:.2f} ms for reading the messages and framing the views"
            if floor <= need
            else "over that budget before wolfden has read a message or framed a view"
        )
        lines.append(
            "- What the saturation target leaves the server: the bare app's rate is held by "
            f"{held} ({slow:.2f} ms of CPU per action), so half of it needs wolfden's server "
            f"under {need:.2f} ms per action. The bare app's server, which reads one frame and "
            f"writes it to every client of the room, takes {bare_server:.2f} ms; with the master "
            f"alone that makes {floor:.2f} ms, {verdict}."
        )
    return lines


def report(results: dict[str, Any], rooms: int, players: int, interval: float) -> str:
    lines = [
        f"{rooms} rooms × {players} players, paced at one action per room every {interval:g} s, "
        "then saturation (each room acts again as soon as everyone saw its last action).",
        "",
        "| server | paced actions/s | p50 ms | p99 ms | errors/timeouts | saturation actions/s | "
        "saturation p99 ms | server CPU ms per action | bench client CPU ms per action | "
        "view frames per action | avg view frame bytes | pings per action | "
        "late views / checked actions |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in ("wolfden", "bare"):
        paced, sat = results[name]
        avg = paced.view_bytes // max(1, paced.views)
        cpu = sat.cpu_ms_per_action()
        client = sat.client_ms_per_action()
        per_action = sat.views / sat.actions if sat.actions else 0.0
        lines.append(
            f"| {'wolfden serve' if name == 'wolfden' else 'bare Starlette broadcast'} | "
            f"{paced.rate():.0f} | {paced.percentile(50):.1f} | {paced.percentile(99):.1f} | "
            f"{paced.errors + sat.errors}/{paced.timeouts + sat.timeouts} | {sat.rate():.0f} | "
            f"{sat.percentile(99):.1f} | {'—' if cpu is None else f'{cpu:.2f}'} | "
            f"{'—' if client is None else f'{client:.2f}'} | {per_action:.1f} | {avg} | "
            f"{sat.pings / sat.actions if sat.actions else 0.0:.2f} | "
            f"{paced.late + sat.late} / {paced.checked + sat.checked} |"
        )
    w, b = results["wolfden"][1].rate(), results["bare"][1].rate()
    paced = results["wolfden"][0]
    p99 = paced.percentile(99)
    kept_up = keeps_pace(paced, interval)
    idle = max(0, paced.ticks - paced.actions - paced.errors - paced.timeouts)
    lines += [
        "",
        f"- Paced target (every room served once per {interval:g} s, p99 under 50 ms): "
        + ("met" if kept_up and p99 < 50 else "NOT met")
        + f" — {paced.rate():.0f} actions/s from {rooms} rooms, p99 {p99:.1f} ms; "
        f"{paced.ticks} paced turns, {idle} of them with no action "
        "to take (a wait for the clock or for the next deal), "
        + (
            "no turn late"
            if paced.behind < 0.0005
            else f"at most {paced.behind * 1000:.1f} ms late"
        )
        + (f", {paced.timeouts} timeouts" if paced.timeouts else "")
        + ".",
        "- Saturation target (at least half the bare app's rate): "
        + ("met" if b and w >= 0.5 * b else "NOT met")
        + (f" — ratio {w / b:.2f}." if b else "."),
        "- Server CPU per action is the server process's CPU time during the saturation phase "
        "over the actions it served: it depends far less than the rates on what else the machine "
        "is doing (on a busy machine it still varies by about a tenth from run to run), and "
        "1000 divided by it is the rate one free core would reach.",
        *budget_lines(results),
        "- The bare app echoes each message to every client of its room with a payload as large "
        "as wolfden's average view frame; wolfden also checks, applies, commits to SQLite and "
        "computes one view per client for every action, and sends a view only to the clients "
        "whose view changed (view frames per action). The server writes every view of an "
        "action to its socket before the answer, in one turn of its event loop: an action "
        "counts as done when the actor has its answer and the views that came with it are "
        f"read. One action in {CHECK_EVERY} checks that: the clients with no new view are "
        "pinged, and a view that comes before the pong counts as late (it should never).",
        "- Bench client CPU per action is this process's CPU time (all the scripted clients) "
        "over the actions of the saturation phase: when it is close to the server's, the "
        "clients, not the server, set the pace (the bare app's saturation rate is set by its "
        "clients). The clients of both servers read only what they act on (a view frame's "
        "version and legal actions, the bare app's message number), and during a phase the "
        "client process's garbage collector leaves its rooms and connections alone.",
        "- One-minute load average of the machine before/after the run: "
        + " / ".join(f"{a:.2f}" for a in (results["load_before"][0], results["load_after"][0]))
        + " (2 cores, shared with other work; above 2 the figures are held back by the "
        "other work as much as by the server).",
    ]
    return "\n".join(lines)


@click.command("server")
@click.option("--rooms", default=200, show_default=True, type=click.IntRange(1, 2000))
@click.option("--players", default=8, show_default=True, type=click.IntRange(1, 20))
@click.option(
    "--seconds",
    default=20.0,
    show_default=True,
    type=click.FloatRange(1, 300),
    help="Length of the paced phase.",
)
@click.option(
    "--saturation",
    default=10.0,
    show_default=True,
    type=click.FloatRange(1, 300),
    help="Length of the saturation phase.",
)
@click.option(
    "--interval",
    default=1.0,
    show_default=True,
    type=click.FloatRange(0.01, 60),
    help="Seconds between two actions of one room in the paced phase.",
)
@click.option(
    "--game",
    default="werewolf",
    show_default=True,
    help="A game whose config has a 'players' option (one client per seat).",
)
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("docs/benchmarks.md"),
    show_default=True,
    help="Markdown file whose 'Server' section is rewritten.",
)
@click.option("--write/--no-write", default=True, show_default=True)
def bench_server_command(
    rooms: int,
    players: int,
    seconds: float,
    saturation: float,
    interval: float,
    game: str,
    output: Path,
    write: bool,
) -> None:
    """Loopback load on `wolfden serve` next to a bare Starlette broadcast app (stops by itself)."""
    click.echo(f"wolfden bench server: {rooms} rooms × {players} players, game {game}", err=True)
    results = run(rooms, players, seconds, saturation, interval, game)
    text = report(results, rooms, players, interval)
    click.echo(text)
    if write:
        from wolfden.sim.markdown import replace_sections
        from wolfden_bench.cli import BENCH_INTRO
        from wolfden_bench.playouts import machine

        command = (
            f"wolfden bench server --rooms {rooms} --players {players} --seconds {seconds:g} "
            f"--saturation {saturation:g} --interval {interval:g}"
        )
        body = f"Command: `{command}`\n\nMachine: {machine()}.\n\n{text}\n"
        replace_sections(output, {"Server": body}, BENCH_INTRO)
        click.echo(f"wrote the Server section of {output}", err=True)
