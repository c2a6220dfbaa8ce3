"""Persistence: a server killed with SIGKILL resumes every match at its last committed action."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Client, ServeProcess, Server, match_of, quiet
from wolfden import games
from wolfden.engine import Action, MatchRecord, Viewer, config_from_json
from wolfden.server.wire import encode as _json
from wolfden.storage.rooms import open_room_store


def Process(db: Path, database: str | None = None) -> ServeProcess:
    """``wolfden serve`` in its own process, with bots acting at once."""
    return ServeProcess(db, "--bot-delay", "0", database=database)


def choose(legal: list[Any], view: Any, seat: int) -> Any:
    """The policy: a pick that depends on what this seat sees (so the rules alone repeat it)."""
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).digest()
    return legal[(int.from_bytes(digest[:4], "big") + seat) % len(legal)]


class Table:
    """Seven people driving a Werewolf match one action at a time, by a fixed policy."""

    def __init__(self, where: Any, code: str, tokens: list[str]) -> None:
        self.code, self.tokens = code, tokens
        self.clients = [Client(where, code, t) for t in tokens]
        self.accepted = 0
        self.sent = 0

    def sync(self, actor: Client | None = None, ref: Any = None) -> None:
        """Wait until the action sent (or, with none, the clock's) is committed and every
        person has received what it changed for them."""
        if actor is not None:
            answer = actor.answer(ref, timeout=20)
            assert answer["type"] == "accepted", answer
            self.accepted += 1
        for c in self.clients:
            c.sync(20)

    def wait_for_clock(self) -> None:
        before = [len(c.received) for c in self.clients]
        end = time.monotonic() + 20
        while time.monotonic() < end:
            for c in self.clients:
                c.drain(0.01)
            if any(c.view is not None for c in self.clients) and any(
                m["type"] == "view" for c, n in zip(self.clients, before) for m in c.received[n:]
            ):
                self.sync()
                return
        raise AssertionError("the clock did not move the match on")

    def step(self, *, wait_answer: bool = True) -> bool:
        """One action by the policy; False once the match is over."""
        views = [c.view for c in self.clients]
        assert all(v is not None for v in views)
        if views[0]["outcome"] is not None:
            return False
        self.sent += 1
        for seat, v in enumerate(views):
            if v["legal"]:
                actor = self.clients[seat]
                msg = {
                    "type": "action",
                    "id": self.sent,
                    "version": v["version"],
                    "action": choose(v["legal"], v["view"], seat),
                }
                break
        else:
            actor = self.clients[0]
            if not views[0]["host_actions"]:  # the clock acts (a night with every action in)
                if wait_answer:
                    self.wait_for_clock()
                return True
            msg = {"type": "host_action", "id": self.sent, "action": views[0]["host_actions"][0]}
        actor.send(msg)
        if wait_answer:
            self.sync(actor, self.sent)
        return True

    def close(self) -> None:
        for c in self.clients:
            c.close()


def as_sent(view: Any) -> Any:
    """A view as a client receives it (JSON)."""
    return json.loads(_json(view))


def reference_actions(record: MatchRecord) -> list[tuple[int | None, Action]]:
    """The same policy folded over the rules alone, with no server and no crash."""
    game = games.get(record.game)
    state = game.setup(config_from_json(game.Config, record.config), record.seed)
    actions: list[tuple[int | None, Action]] = []
    while game.outcome(state) is None:
        actors = sorted(game.actors(state))
        seat: int | None
        if actors:
            seat = actors[0]
            view = as_sent(game.view(state, Viewer.of(seat)))
            action = choose(game.legal_actions(state, seat), view, seat)
        elif game.legal_actions(state, None):
            seat, action = None, game.legal_actions(state, None)[0]
        else:
            deadline = game.deadline(state)
            assert deadline is not None
            seat, action = None, deadline.action
        state, _ = game.apply(state, seat, action)
        actions.append((seat, action))
    return actions


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_match_survives_sigkill_and_finishes_as_an_uninterrupted_replay(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    db = tmp_path / "crash.sqlite3"
    database = request.getfixturevalue("postgres").new_database() if kind == "postgres" else None
    first = Process(db, database)
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
        announced = table.accepted
        first.kill()
        table.close()
    except BaseException:
        first.stop()
        raise
    # every action whose acceptance was announced before the kill is in the file
    store = open_room_store(database or db)
    try:
        stored = store.load_match(f"m-{code}-1")
    finally:
        store.close()
    assert stored is not None and len(stored.actions) >= announced > 0

    second = Process(db, database)
    try:
        table = Table(second, code, tokens)
        table.sync()
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
    actions = match_of(server, code).version
    seen = Client(server, code, token).expect("view")
    at = seen["deadline"]["at"]
    server.stop()

    again: Server = make_server(clock=clock, db=db)
    after = again.http.get(f"/api/rooms/{code}").json()
    assert after["match"] == before["match"] and after["status"] == "live"
    host = Client(again, code, token)
    view = host.expect("view")
    assert match_of(again, code).version == actions
    assert view["view"] == seen["view"] and view["deadline"]["at"] == at
    again.call(lambda: clock.set(at))
    host.wait(lambda: host.view is not None and host.view["version"] > view["version"])
    assert match_of(again, code).version > actions
