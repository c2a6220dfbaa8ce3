"""Persistence: a server killed with SIGKILL resumes every match at its last committed action."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.server.conftest import Client, ServeProcess, Server, quiet
from wolfden import games
from wolfden.engine import Action, MatchRecord, config_from_json


def Process(db: Path) -> ServeProcess:
    """``wolfden serve`` in its own process, with bots acting at once."""
    return ServeProcess(db, "--bot-delay", "0")


def choose(legal: list[Any], version: int, seat: int) -> Any:
    return legal[(version * 7 + seat) % len(legal)]


class Table:
    """Seven people driving a Werewolf match one action at a time, by a fixed policy."""

    def __init__(self, where: Any, code: str, tokens: list[str]) -> None:
        self.code, self.tokens = code, tokens
        self.clients = [Client(where, code, t) for t in tokens]
        self.version = -1

    def sync(self) -> None:
        """Wait until every person sees the same newest version."""
        end = time.monotonic() + 20
        while time.monotonic() < end:
            for c in self.clients:
                c.drain(0.01)
            versions = {c.view["version"] if c.view else -1 for c in self.clients}
            if len(versions) == 1 and min(versions) > self.version:
                self.version = versions.pop()
                return
            if len(versions) == 1 and self.clients[0].view and self.clients[0].view["outcome"]:
                return
        raise AssertionError(f"the views did not settle: {versions}")

    def step(self, *, wait_answer: bool = True) -> bool:
        """One action by the policy; False once the match is over."""
        views = [c.view for c in self.clients]
        assert all(v is not None for v in views)
        if views[0]["outcome"] is not None:
            return False
        for seat, v in enumerate(views):
            if v["legal"]:
                msg = {
                    "type": "action",
                    "id": v["version"],
                    "version": v["version"],
                    "action": choose(v["legal"], v["version"], seat),
                }
                self.clients[seat].send(msg)
                break
        else:
            if views[0]["host_actions"]:
                msg = {
                    "type": "host_action",
                    "id": views[0]["version"],
                    "action": views[0]["host_actions"][0],
                }
                self.clients[0].send(msg)
        # otherwise the clock acts (a night with every action in ends at once)
        if wait_answer:
            self.sync()
        return True

    def close(self) -> None:
        for c in self.clients:
            c.close()


def reference_actions(record: MatchRecord) -> list[tuple[int | None, Action]]:
    """The same policy folded over the rules alone, with no server and no crash."""
    game = games.get(record.game)
    state = game.setup(config_from_json(game.Config, record.config), record.seed)
    actions: list[tuple[int | None, Action]] = []
    while game.outcome(state) is None:
        version = len(actions)
        actors = sorted(game.actors(state))
        seat: int | None
        if actors:
            seat = actors[0]
            action = choose(game.legal_actions(state, seat), version, seat)
        elif game.legal_actions(state, None):
            seat, action = None, game.legal_actions(state, None)[0]
        else:
            deadline = game.deadline(state)
            assert deadline is not None
            seat, action = None, deadline.action
        state, _ = game.apply(state, seat, action)
        actions.append((seat, action))
    return actions


def test_a_match_survives_sigkill_and_finishes_as_an_uninterrupted_replay(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    first = Process(db)
    try:
        made = first.http.post(
            "/api/rooms",
            json={
                "game": "werewolf",
                "name": "P0",
                "config": {"players": 7, "min_night_seconds": 0},
            },
        ).json()
        code = made["code"]
        tokens = [made["token"]] + [
            first.http.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"}).json()["token"]
            for i in range(1, 7)
        ]
        table = Table(first, code, tokens)
        r = first.http.post(
            f"/api/rooms/{code}/start",
            json={"seed": 2024},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        assert r.status_code == 200, r.text
        table.sync()
        for _ in range(12):
            assert table.step()
        # the last action is sent and the server dies before (or after) it is answered
        table.step(wait_answer=False)
        committed_before = table.version
        first.kill()
        table.close()
    except BaseException:
        first.stop()
        raise

    second = Process(db)
    try:
        table = Table(second, code, tokens)
        table.sync()
        assert table.version >= committed_before
        while table.step():
            pass
        room = second.http.get(f"/api/rooms/{code}").json()
        assert room["status"] == "finished"
        record = MatchRecord.from_json(
            second.http.get(f"/api/matches/{room['match']['id']}").json()
        )
        assert record.actions == reference_actions(record)
        assert record.meta["outcome"] == table.clients[0].view["outcome"]
        table.close()
    finally:
        second.stop()


def test_a_restarted_server_rearms_the_clock_of_every_match(
    make_server: Any, tmp_path: Path
) -> None:
    from wolfden.server.clock import FakeClock

    clock = FakeClock()
    db = tmp_path / "rooms.sqlite3"
    server: Server = make_server(clock=clock, db=db)
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": 3})
    quiet(server, code)
    before = server.http.get(f"/api/rooms/{code}").json()
    at = Client(server, code, token).expect("view")["deadline"]["at"]
    server.stop()

    again: Server = make_server(clock=clock, db=db)
    after = again.http.get(f"/api/rooms/{code}").json()
    assert after["match"] == before["match"] and after["status"] == "live"
    host = Client(again, code, token)
    view = host.expect("view")
    assert view["version"] == before["match"]["version"] and view["deadline"]["at"] == at
    again.call(lambda: clock.set(at))
    host.wait(lambda: host.view is not None and host.view["version"] > before["match"]["version"])
