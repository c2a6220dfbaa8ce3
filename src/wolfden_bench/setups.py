"""``wolfden bench setups``: how long the setup editor waits for a balance estimate and its
suggested change, through a real ``wolfden serve`` process, for 7 to 16 players."""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wolfden.games.werewolf.config import standard_werewolves

WARM = "werewolf=2,seer,villager=4"
"""Estimated first, untimed: it starts the worker processes."""


def standard(players: int, wolves_extra: int = 0) -> str:
    wolves = standard_werewolves(players) + wolves_extra
    return f"werewolf={wolves},seer,guardian,villager={players - wolves - 2}"


def variant(players: int) -> str:
    wolves = standard_werewolves(players)
    return f"werewolf={wolves},seer,witch,hunter,villager={players - wolves - 3}"


def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.loads(response.read())


LOAD: list[float] = []
"""The one-minute load average before and after the run."""


def run(echo: Callable[[str], None]) -> list[dict[str, Any]]:
    """Time one estimate per setup (each setup once: a repeated one comes from the cache)."""
    from wolfden.server.process import ServeProcess

    LOAD.append(os.getloadavg()[0])

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = ServeProcess(Path(tmp) / "bench.sqlite3")
        try:
            made = post(server.base, "/api/rooms", {"game": "werewolf", "name": "Bench"})
            code, token = made["code"], made["token"]
            post(server.base, f"/api/rooms/{code}/estimate", {"setup": WARM}, token)
            cases = [(n, "seed's roles", standard(n)) for n in range(7, 17)]
            cases += [(n, "seed's roles, one more Werewolf", standard(n, 1)) for n in (9, 12, 16)]
            cases += [(n, "Witch and Hunter", variant(n)) for n in (7, 12, 16)]
            for players, kind, setup in cases:
                began = time.perf_counter()
                got = post(server.base, f"/api/rooms/{code}/estimate", {"setup": setup}, token)
                seconds = time.perf_counter() - began
                hint = got["suggestion"]
                row = {
                    "players": players,
                    "kind": kind,
                    "setup": setup,
                    "seconds": seconds,
                    "games": got["estimate"]["games"],
                    "engine": got["estimate"]["engine"],
                    "town": got["estimate"]["town"],
                    "hint": hint["change"] if hint else "none closer to even",
                    "hint_games": hint["estimate"]["games"] if hint else 0,
                }
                rows.append(row)
                echo(
                    f"  {players:>2} {kind:<32} {seconds:6.2f} s  {row['games']:>5} games "
                    f"({row['engine']}), town {100 * row['town']:.0f} %"
                )
        finally:
            server.stop()
    LOAD.append(os.getloadavg()[0])
    return rows


def section(rows: list[dict[str, Any]], command: str, host: str) -> str:
    kernel = [r["seconds"] for r in rows if r["engine"] == "kernel"]
    lines = [
        f"Command: `{command}` — a `wolfden serve` process with its two estimate workers "
        "started (one untimed estimate first); each setup is asked for once by "
        "`POST /api/rooms/{code}/estimate`, timed from the request to the answer: the "
        "setup's own estimate and the suggested change, each with its own estimate. What "
        "the host's phone waits for after an edit is this plus the editor's 0.25 s pause "
        "and one small request that applies the setup.",
        "",
        f"Machine: {host}.",
        "",
        "| players | roles | setup | seconds | games | engine | Town | suggestion |",
        "|---:|---|---|---:|---:|---|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['players']} | {r['kind']} | `{r['setup']}` | {r['seconds']:.2f} | "
            f"{r['games']:,} | {r['engine']} | {100 * r['town']:.0f} % | {r['hint']} |"
        )
    lines += [
        "",
        "Setups with variant roles play the rules in Python: each estimate stops after about a "
        "second, so it rests on few games (its interval says how few), and finding the "
        "suggestion takes several seconds more, one screening per possible change.",
    ]
    if len(LOAD) == 2:
        lines += [
            "",
            f"One-minute load average before/after the run: {LOAD[0]:.2f} / {LOAD[1]:.2f} "
            "(2 cores shared with other work: the figures are slower than on an idle machine).",
        ]
    if kernel:
        lines += [
            "",
            f"Setups of the seed's roles (the kernel plays them): median "
            f"{statistics.median(kernel):.2f} s, longest {max(kernel):.2f} s.",
        ]
    return "\n".join(lines) + "\n"
