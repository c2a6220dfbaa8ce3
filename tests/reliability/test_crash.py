"""SIGKILL at random moments: every match resumes and finishes, and no committed action is lost.

One ``wolfden serve`` process plays 50 bot matches spread over every registered game (bots act
after 0.02 s, deadlines pass 1000 times faster). It is killed with SIGKILL at random moments and
restarted on the same database until every match has ended. After each kill the committed log
of every match is read straight from the database; then:

- every later log starts with every earlier one (nothing committed is lost or rewritten);
- every match the server had announced as ended before the kill has its whole log (the
  action count itself is no longer published: views are sent per viewer when they change);
- the final log replays from the deal, uninterrupted, to the outcome the server stored;
- every bot action in it is exactly what that bot chooses from its view at that version, and
  every clock action is the deadline action of that phase: the record is what an uninterrupted
  run makes of the same moments.
"""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import ServeProcess
from wolfden import games
from wolfden.bots import RandomBot
from wolfden.engine import Action, Rng, Viewer, config_from_json, derive_seed

MATCHES = 50
TIME_SCALE = 1000
BOT_DELAY = 0.02


def Serve(db: Path) -> ServeProcess:
    """``wolfden serve`` with quick bots, a fast clock and no limit on new rooms."""
    return ServeProcess(
        db,
        "--bot-delay",
        str(BOT_DELAY),
        "--time-scale",
        str(TIME_SCALE),
        "--rooms-per-minute",
        "100000",
        log_level="error",
    )


def committed(db: Path) -> dict[str, tuple[list[tuple[Any, str]], bool]]:
    """Each match's committed log and whether it has ended, read from the file itself."""
    con = sqlite3.connect(db)
    try:
        logs: dict[str, tuple[list[tuple[Any, str]], bool]] = {}
        for mid, ended in con.execute("SELECT id, ended IS NOT NULL FROM matches"):
            rows = con.execute(
                "SELECT seat, action FROM match_actions WHERE match = ? ORDER BY idx", (mid,)
            ).fetchall()
            logs[mid] = ([(s, a) for s, a in rows], bool(ended))
        return logs
    finally:
        con.close()


def start_rooms(serve: ServeProcess) -> dict[str, tuple[str, int]]:
    """MATCHES bot rooms over every game; match id → (game id, seed)."""
    out = {}
    ids = games.ids()
    for i in range(MATCHES):
        game_id = ids[i % len(ids)]
        made = serve.http.post(
            "/api/rooms", json={"game": game_id, "name": "Host", "role": "spectator"}
        ).json()
        seed = 7000 + i
        r = serve.http.post(
            f"/api/rooms/{made['code']}/start",
            json={"fill_with": "random", "seed": seed},
            headers={"Authorization": f"Bearer {made['token']}"},
        )
        assert r.status_code == 200, r.text
        out[r.json()["room"]["match"]["id"]] = (game_id, seed)
    return out


def announced_ended(serve: Serve, match_ids: list[str]) -> list[str]:
    """The matches among these that the server says have ended."""
    ended = []
    for mid in match_ids:
        code = mid.split("-")[1]
        try:
            room = serve.http.get(f"/api/rooms/{code}").json()
        except httpx.TransportError:
            continue
        if room.get("match") and room["match"]["id"] == mid and room["match"]["ended"]:
            ended.append(mid)
    return ended


def check_record(game_id: str, seed: int, log: list[tuple[Any, str]], stored: Any) -> None:
    game = games.get(game_id)
    config = config_from_json(game.Config, stored["config"])
    state = game.setup(config, seed)
    for version, (seat, text) in enumerate(log):
        action = Action.parse(text)
        if seat is None:
            dl = game.deadline(state)
            assert dl is not None and action == dl.action, (game_id, version, text)
        else:
            expected = RandomBot(seat).act(
                game.view(state, Viewer.of(seat)),
                game.legal_actions(state, seat),
                Rng(derive_seed(seed, seat, version)),
            )
            assert action == expected, (game_id, version, seat, text, str(expected))
        state, _ = game.apply(state, seat, action)
    outcome = game.outcome(state)
    assert outcome is not None, f"{game_id} {seed}: the log does not reach the end"
    assert stored["meta"]["outcome"] == outcome.to_json()


def test_sigkill_at_random_moments_loses_no_committed_action(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    rng = random.Random(2026)
    serve = Serve(db)
    matches = start_rooms(serve)
    history: list[dict[str, tuple[list[tuple[Any, str]], bool]]] = []
    kills = 0
    live_at_kill: list[int] = []
    try:
        for _ in range(60):
            live = live_at_kill[-1] if live_at_kill else MATCHES
            # often while many matches run, then seldom, so the few long ones can finish
            time.sleep(rng.uniform(0.1, 0.8) if live > 10 else rng.uniform(1.0, 2.5))
            told = announced_ended(serve, rng.sample(sorted(matches), 10))
            serve.kill()
            kills += 1
            now = committed(db)
            for mid in told:
                assert now[mid][1], f"{mid}: announced as ended, not ended after the kill"
            for before in history[-1:]:
                for mid, (log, _ended) in before.items():
                    assert now[mid][0][: len(log)] == log, f"{mid}: the log changed after restart"
            history.append(now)
            live_at_kill.append(sum(not ended for _log, ended in now.values()))
            if all(ended for _log, ended in now.values()) and kills >= 5:
                break
            serve = Serve(db)
        else:
            raise AssertionError("the matches did not all finish")
    finally:
        serve.stop()
    final = history[-1]
    assert set(final) == set(matches)
    serve = Serve(db)
    try:
        for mid, (game_id, seed) in matches.items():
            record = serve.http.get(f"/api/matches/{mid}").json()
            log = [(s, a) for s, a in record["actions"]]
            assert log == final[mid][0]
            check_record(game_id, seed, log, record)
    finally:
        serve.stop()
    # the kills landed in the middle of matches, not after they were over
    assert sum(live_at_kill[:-1]) >= MATCHES, live_at_kill
    lengths = [len(log) for log, _ in final.values()]
    print(f"{kills} kills, live matches at each: {live_at_kill}, {sum(lengths)} actions")
