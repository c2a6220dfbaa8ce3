"""Bounded soak and role-timing runs against a real ``wolfden serve`` (they stop by themselves).

    wolfden soak run --rooms 500 --seconds 60
    wolfden soak roles --rooms 12 --seconds 60

``run``: many rooms at once, each with one person (a WebSocket client here, seat 0, the host)
and bots in every other seat, over every registered game; the person acts as soon as the game
offers it something and starts the next match when one ends. Reports errors, actions, the time
from sending an action to its ``accepted`` (p50, p99) and the server's memory per room.

``roles``: Werewolf rooms with seven scripted people each; every action's answer time is grouped
by the role of the player who sent it, with medians and a Mann–Whitney U test of each role
against the Werewolves' own, to show that the answer time does not tell whose action it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from wolfden.server.process import ServeProcess, ServerDidNotStart

MIN_GAP = 0.1
"""A person acts at most ten times a second (the server allows twenty)."""

RACES = ("stale", "not_your_turn", "match_over")
"""Refusals that only mean a bot or the clock moved first: the action named a version that had
passed (``match_over`` when what happened in between ended the match)."""


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def _committed(db: Path) -> int:
    """Actions committed so far by every room (read from the database file)."""
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT count(*) FROM match_actions").fetchone()[0])
    finally:
        con.close()


def _percentile(data: list[float], p: float) -> float:
    if not data:
        return float("nan")
    ordered = sorted(data)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def mann_whitney_p(a: list[float], b: list[float]) -> float:
    """Two-sided p-value of the Mann–Whitney U test (normal approximation, ties corrected)."""
    n1, n2 = len(a), len(b)
    if n1 < 2 or n2 < 2:
        return float("nan")
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks = [0.0] * len(pooled)
    ties = 0.0
    i = 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t**3 - t
        i = j + 1
    r1 = sum(r for r, (_x, g) in zip(ranks, pooled) if g == 0)
    u = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    if sigma == 0:
        return 1.0
    z = (u - n1 * n2 / 2) / sigma
    return math.erfc(abs(z) / math.sqrt(2))


class Serve(ServeProcess):
    """``wolfden serve`` in its own process with the soak's bot delay and clock speed."""

    def __init__(self, db: Path, bot_delay: float, time_scale: float) -> None:
        try:
            super().__init__(
                db,
                "--bot-delay",
                str(bot_delay),
                "--time-scale",
                str(time_scale),
                "--rooms-per-minute",
                "100000",
                # A moderator token of our own, so the server does not print a new one.
                "--admin-token",
                secrets.token_urlsafe(24),
                log_level="error",
            )
        except ServerDidNotStart as exc:
            raise click.ClickException(str(exc)) from None

    def errors(self) -> str:
        """What the server logged besides its start-up message (it logs errors only): the
        lines that begin ``wolfden is`` or ``wolfden's database`` and the indented lines that
        continue them."""
        kept: list[str] = []
        in_startup = False
        for line in self.log().splitlines():
            if line.startswith(("wolfden is ", "wolfden's database")):
                in_startup = True
            elif not (in_startup and line.startswith("  ")):
                in_startup = False
                kept.append(line)
        return "\n".join(kept)


@dataclass
class Tally:
    actions: int = 0
    matches: int = 0
    races: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    by_role: dict[str, list[float]] = field(default_factory=dict)


class Person:
    """One WebSocket client playing one seat: acts on every view that offers something."""

    def __init__(
        self,
        ws: Any,
        tally: Tally,
        rng: random.Random,
        *,
        again: Callable[[], Any] | None,
        think: tuple[float, float] = (0.0, 0.0),
        role_of: Callable[[dict[str, Any]], str] | None = None,
    ) -> None:
        self.ws, self.tally, self.rng = ws, tally, rng
        self.again, self.think, self.role_of = again, think, role_of
        self.sent: dict[int, tuple[float, str]] = {}
        self.counter = 0
        self.acted: tuple[str, int] = ("", -1)
        self.stopping = False
        self.thinking: asyncio.Task[None] | None = None
        self.last_sent = 0.0

    async def run(self) -> None:
        try:
            async for raw in self.ws:
                await self.handle(json.loads(raw))
        except Exception as exc:
            if not self.stopping:
                self.tally.errors.append(f"connection: {exc!r}")

    async def act(self, msg: dict[str, Any], delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
            if self.acted != (msg["match"], msg["version"]) or self.stopping:
                return  # something newer came in meanwhile; that view decides
        role = self.role_of(msg) if self.role_of else ""
        self.counter += 1
        self.last_sent = time.perf_counter()
        self.sent[self.counter] = (self.last_sent, role)
        with contextlib.suppress(Exception):
            await self.ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "id": self.counter,
                        "version": msg["version"],
                        "action": self.rng.choice(msg["legal"]),
                    }
                )
            )

    async def handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "view":
            if msg["outcome"] is not None:
                if self.again is not None and (msg["match"], msg["version"]) != self.acted:
                    self.acted = (msg["match"], msg["version"])
                    self.tally.matches += 1
                    await self.again()
                return
            if msg["legal"] and (msg["match"], msg["version"]) != self.acted:
                self.acted = (msg["match"], msg["version"])
                # no faster than a person taps, and aside, so the reader goes on reading
                # (and timing) the answers
                think = self.rng.uniform(*self.think) if self.think[1] > 0 else 0.0
                delay = max(think, self.last_sent + MIN_GAP - time.perf_counter())
                self.thinking = asyncio.create_task(self.act(msg, delay))
        elif kind == "accepted":
            t0, role = self.sent.pop(msg["id"], (None, ""))
            if t0 is not None:
                took = time.perf_counter() - t0
                self.tally.actions += 1
                self.tally.latencies.append(took)
                self.tally.by_role.setdefault(role, []).append(took)
        elif kind in ("rejected", "error"):
            self.sent.pop(msg.get("id"), None)  # type: ignore[arg-type]
            code = msg["error"]["code"]
            if code in RACES:
                self.tally.races += 1
            else:
                self.tally.errors.append(f"{kind} {code}: {msg['error']['message']}")


async def _post(http: Any, path: str, **kw: Any) -> Any:
    """POST, retrying once when a kept-alive connection was closed under the request."""
    import httpx

    try:
        return await http.post(path, **kw)
    except (httpx.ReadError, httpx.RemoteProtocolError):
        return await http.post(path, **kw)


async def _room(
    http: Any, port: int, game: str, people: int, config: dict[str, Any], fill: str | None
) -> tuple[str, list[str]]:
    made = await _post(
        http, "/api/rooms", json={"game": game, "name": "P0", "config": config or None}
    )
    if made.status_code != 201:
        raise click.ClickException(made.text)
    body = made.json()
    tokens = [body["token"]]
    for i in range(1, people):
        joined = await _post(http, f"/api/rooms/{body['code']}/join", json={"name": f"P{i}"})
        tokens.append(joined.json()["token"])
    return body["code"], tokens


async def _connect(port: int, code: str, token: str) -> Any:
    from websockets.asyncio.client import connect

    ws = await connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22, open_timeout=60)
    await ws.send(json.dumps({"type": "hello", "v": 2, "room": code, "token": token}))
    return ws


async def soak(
    serve: Serve, rooms: int, seconds: float, games_: list[str], fill: str
) -> dict[str, Any]:
    import httpx

    port = serve.port
    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60)
    tally = Tally()
    rss_start = _rss_kib(serve.proc.pid)
    sem = asyncio.Semaphore(16)
    people: list[Person] = []
    tasks: list[asyncio.Task[None]] = []

    async def one(i: int) -> None:
        async with sem:
            code, tokens = await _room(http, port, games_[i % len(games_)], 1, {}, fill)
            ws = await _connect(port, code, tokens[0])
            headers = {"Authorization": f"Bearer {tokens[0]}"}

            async def again() -> None:
                r = await _post(http, f"/api/rooms/{code}/again", headers=headers)
                if r.status_code != 200:
                    tally.errors.append(f"again: {r.status_code} {r.text[:200]}")

            person = Person(ws, tally, random.Random(i), again=again)
            people.append(person)
            tasks.append(asyncio.create_task(person.run()))
            r = await _post(
                http, f"/api/rooms/{code}/start", json={"fill_with": fill}, headers=headers
            )
            if r.status_code != 200:
                tally.errors.append(f"start: {r.status_code} {r.text[:200]}")

    t0 = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(rooms)))
    setup = time.perf_counter() - t0
    rss_rooms = _rss_kib(serve.proc.pid)
    tally.actions, tally.latencies = 0, []
    cpu0, committed0 = _cpu_seconds(serve.proc.pid), _committed(serve.db)
    own0 = time.process_time()
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    cpu1, committed1 = _cpu_seconds(serve.proc.pid), _committed(serve.db)
    own1 = time.process_time()
    rss_end = _rss_kib(serve.proc.pid)
    if serve.proc.poll() is not None:
        tally.errors.append(f"the server exited with {serve.proc.returncode}")
    snapshot = Tally(
        tally.actions, tally.matches, tally.races, list(tally.errors), list(tally.latencies)
    )
    for p in people:
        p.stopping = True
        with contextlib.suppress(Exception):
            await p.ws.close()
    for t in tasks:
        t.cancel()
    await http.aclose()
    return {
        "rooms": rooms,
        "seconds": elapsed,
        "setup_seconds": setup,
        "tally": snapshot,
        "rss_start_kib": rss_start,
        "rss_rooms_kib": rss_rooms,
        "rss_end_kib": rss_end,
        "load": os.getloadavg(),
        "server_cpu": (cpu1 - cpu0) / elapsed,
        "client_cpu": (own1 - own0) / elapsed,
        "committed_per_second": (committed1 - committed0) / elapsed,
    }


def soak_report(r: dict[str, Any]) -> str:
    t: Tally = r["tally"]
    per_room = (r["rss_end_kib"] - r["rss_start_kib"]) / max(1, r["rooms"])
    lines = [
        f"rooms: {r['rooms']} (set up in {r['setup_seconds']:.1f} s), soak {r['seconds']:.1f} s",
        f"errors: {len(t.errors)}",
        f"people's actions accepted: {t.actions} ({t.actions / r['seconds']:.0f}/s); "
        f"matches finished: {t.matches}; refused because a bot or the clock moved first: "
        f"{t.races}",
        f"accepted after: p50 {_percentile(t.latencies, 50) * 1000:.1f} ms, "
        f"p99 {_percentile(t.latencies, 99) * 1000:.1f} ms, "
        f"max {max(t.latencies, default=0) * 1000:.1f} ms",
        f"server memory: {r['rss_start_kib'] / 1024:.0f} MiB empty, "
        f"{r['rss_rooms_kib'] / 1024:.0f} MiB with the rooms, {r['rss_end_kib'] / 1024:.0f} MiB "
        f"at the end: {per_room:.0f} KiB per room",
        f"all actions committed (people, bots, clock): {r['committed_per_second']:.0f}/s; "
        f"server process CPU: {r['server_cpu'] * 100:.0f}% of one core, "
        f"this client's: {r['client_cpu'] * 100:.0f}%",
        "load average (1, 5, 15 min) at the end: " + ", ".join(f"{x:.2f}" for x in r["load"]),
    ]
    lines += [f"  error: {e}" for e in t.errors[:10]]
    return "\n".join(lines)


async def roles(serve: Serve, rooms: int, seconds: float) -> Tally:
    import httpx

    port = serve.port
    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60)
    tally = Tally()
    people: list[Person] = []
    tasks: list[asyncio.Task[None]] = []

    def role_of(msg: dict[str, Any]) -> str:
        view = msg["view"]
        phase = "night" if view["phase"] == "night" else "day"
        return f"{phase} {view['you']['role']}"

    for i in range(rooms):
        code, tokens = await _room(http, port, "werewolf", 7, {"players": 7}, None)
        headers = {"Authorization": f"Bearer {tokens[0]}"}

        async def again(code: str = code, headers: dict[str, str] = headers) -> None:
            await http.post(f"/api/rooms/{code}/again", headers=headers)

        for seat, token in enumerate(tokens):
            ws = await _connect(port, code, token)
            person = Person(
                ws,
                tally,
                random.Random(i * 7 + seat),
                again=again if seat == 0 else None,
                think=(0.05, 0.6),
                role_of=role_of,
            )
            people.append(person)
            tasks.append(asyncio.create_task(person.run()))
        await http.post(f"/api/rooms/{code}/start", json={}, headers=headers)
    await asyncio.sleep(seconds)
    for p in people:
        p.stopping = True
        with contextlib.suppress(Exception):
            await p.ws.close()
    for t in tasks:
        t.cancel()
    await http.aclose()
    return tally


def roles_report(t: Tally) -> str:
    lines = [
        "| action by | n | median ms | p90 ms | Mann–Whitney p vs. the Werewolves' |",
        "|---|---|---|---|---|",
    ]
    for phase in ("night", "day"):
        wolves = t.by_role.get(f"{phase} werewolf", [])
        for key in sorted(k for k in t.by_role if k.startswith(phase)):
            data = t.by_role[key]
            p = "" if key.endswith("werewolf") else f"{mann_whitney_p(data, wolves):.2f}"
            lines.append(
                f"| {key} | {len(data)} | {_percentile(data, 50) * 1000:.2f} | "
                f"{_percentile(data, 90) * 1000:.2f} | {p} |"
            )
    lines.append(f"errors: {len(t.errors)}; refused races: {t.races}")
    return "\n".join(lines)


@click.group()
def main() -> None:
    """Bounded soak and role-timing runs against a real wolfden serve."""


@main.command("run")
@click.option("--rooms", default=500, show_default=True, type=click.IntRange(1, 5000))
@click.option("--seconds", default=60.0, show_default=True, type=click.FloatRange(1, 3600))
@click.option("--bot-delay", default=1.5, show_default=True, type=click.FloatRange(0, 60))
@click.option("--time-scale", default=10.0, show_default=True, type=click.FloatRange(0.01, 10000))
@click.option("--bots", default="random", show_default=True, help="Bot kind in the other seats.")
@click.option("--game", "game_ids", multiple=True, help="Games to play (default: every game).")
def run_command(
    rooms: int, seconds: float, bot_delay: float, time_scale: float, bots: str, game_ids: tuple[str]
) -> None:
    """Many rooms at once for a fixed time, one person and bots in each; exits 1 on any error."""
    from wolfden import games

    chosen = list(game_ids) or games.ids()
    with tempfile.TemporaryDirectory() as tmp:
        serve = Serve(Path(tmp) / "soak.sqlite3", bot_delay, time_scale)
        try:
            result = asyncio.run(soak(serve, rooms, seconds, chosen, bots))
        finally:
            serve.stop()
        logged = serve.errors()
    if logged.strip():
        result["tally"].errors.append("server log: " + logged.strip()[-2000:])
    click.echo(soak_report(result))
    if result["tally"].errors:
        raise SystemExit(1)


@main.command("roles")
@click.option("--rooms", default=12, show_default=True, type=click.IntRange(1, 500))
@click.option("--seconds", default=60.0, show_default=True, type=click.FloatRange(1, 3600))
@click.option("--time-scale", default=20.0, show_default=True, type=click.FloatRange(0.01, 10000))
def roles_command(rooms: int, seconds: float, time_scale: float) -> None:
    """Werewolf rooms of seven people: answer times grouped by the sender's role."""
    with tempfile.TemporaryDirectory() as tmp:
        serve = Serve(Path(tmp) / "roles.sqlite3", 0.0, time_scale)
        try:
            tally = asyncio.run(roles(serve, rooms, seconds))
        finally:
            serve.stop()
    click.echo(roles_report(tally))


if __name__ == "__main__":
    main()
