"""Several ``wolfden serve`` nodes sharing one real PostgreSQL and one real Redis, and people
playing one room from different nodes, who move to another node whenever theirs goes away.

Every node is a real process (``ServeProcess``) with a short lease, so that a takeover comes
within seconds. The people follow a fixed policy (a pick that depends on what their seat sees)
and the bots are random bots seeded by the match, so every action of a finished match can be
checked against what its actor would have done: ``check_record`` folds the record over the
rules alone and asks that of each action, and that every acknowledged action is in it.
"""

from __future__ import annotations

import hashlib
import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import ServeProcess
from wolfden import games
from wolfden.engine import Action, MatchRecord, Rng, Viewer, config_from_json, derive_seed
from wolfden.server.wire import encode
from wolfden.storage.rooms import Lease, open_room_store

LEASE = "1.5"
"""Seconds of a node's hold on a room in these tests: a dead node is replaced within seconds."""

PATIENCE = 15.0
"""Seconds a person waits for the answer to an action before trying another node."""


def choose(legal: list[Any], view: Any, seat: int) -> Any:
    """The people's policy: a pick that depends on what this seat sees."""
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).digest()
    return legal[(int.from_bytes(digest[:4], "big") + seat) % len(legal)]


class Cluster:
    """The nodes of one test, all sharing one database and one bus."""

    def __init__(self, tmp: Path, database: str, bus: str, size: int) -> None:
        self.tmp, self.database, self.bus = tmp, database, bus
        self.nodes: list[ServeProcess] = []
        self.stopped: set[int] = set()
        self.count = 0
        for _ in range(size):
            self.add()

    def add(self) -> ServeProcess:
        self.count += 1
        node = ServeProcess(
            self.tmp / f"node{self.count}.sqlite3",
            "--bus",
            self.bus,
            "--lease",
            LEASE,
            "--bot-delay",
            "0",
            "--time-scale",
            "10",
            database=self.database,
            log_level="info",
        )
        self.nodes.append(node)
        return node

    def alive(self) -> list[ServeProcess]:
        """The nodes a person may connect to now."""
        return [n for n in self.nodes if n.proc.poll() is None and n.pid not in self.stopped]

    def lease(self, code: str) -> Lease | None:
        store = open_room_store(self.database)
        try:
            return store.lease(code)
        finally:
            store.close()

    def owner(self, code: str) -> ServeProcess:
        """The node whose lease on the room is current (node names hold the process id)."""
        lease = self.lease(code)
        assert lease is not None
        pid = int(lease.node.split("-")[-2])
        return next(n for n in self.nodes if n.pid == pid)

    def wait_for_new_owner(self, code: str, old: ServeProcess, timeout: float = 60) -> ServeProcess:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            lease = self.lease(code)
            moved = lease is not None and int(lease.node.split("-")[-2]) != old.pid
            if moved and lease is not None and lease.expires > time.time():
                return self.owner(code)
            time.sleep(0.1)
        raise AssertionError(f"no node took room {code} over within {timeout} s")

    def kill(self, node: ServeProcess) -> None:
        node.kill()

    def pause(self, node: ServeProcess) -> None:
        self.stopped.add(node.pid)
        node.proc.send_signal(signal.SIGSTOP)

    def resume(self, node: ServeProcess) -> None:
        node.proc.send_signal(signal.SIGCONT)
        self.stopped.discard(node.pid)

    def stop(self) -> None:
        for node in self.nodes:
            if node.pid in self.stopped:
                self.resume(node)
            node.stop()

    def logs(self) -> str:
        return "\n".join(f"--- node {n.pid}\n{n.log()[-3000:]}" for n in self.nodes)


class Person:
    """One person at one seat, on one node at a time: acts by the policy, and connects to
    another node whenever the connection closes or an answer does not come."""

    def __init__(self, cluster: Cluster, code: str, token: str, seat: int, at: int) -> None:
        self.cluster, self.code, self.token, self.seat, self.at = cluster, code, token, seat, at
        self.ws: ClientConnection | None = None
        self.node: ServeProcess | None = None
        self.view: dict[str, Any] | None = None
        self.pending: tuple[int, Any, float] | None = None
        self.held_back: tuple[int, float] | None = None
        self.acked: list[Action] = []
        self.refusals: list[dict[str, Any]] = []
        self.closes: list[int | None] = []
        self.ids = 0
        self.connect()

    def connect(self) -> None:
        self.view, self.pending = None, None
        self.since = time.monotonic()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            alive = self.cluster.alive()
            if alive:
                node = alive[self.at % len(alive)]
                try:
                    self.ws = connect(node.ws_url, open_timeout=5, max_size=2**22).__enter__()
                    self.node = node
                    self.send({"type": "hello", "v": 2, "room": self.code, "token": self.token})
                    return
                except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed):
                    pass
            self.at += 1
            time.sleep(0.1)
        raise AssertionError(f"seat {self.seat} could not connect to any node")

    def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(msg))

    def move(self) -> None:
        """Connect again, to the next node."""
        if self.ws is not None:
            self.ws.close()
        self.at += 1
        self.connect()

    def pump(self, timeout: float) -> None:
        """Read what has arrived; connect again when the connection ended or an answer is
        overdue."""
        assert self.ws is not None
        try:
            while True:
                msg = json.loads(self.ws.recv(timeout=timeout))
                timeout = 0
                self.take(msg)
        except TimeoutError:
            pass
        except ConnectionClosed as exc:
            self.closes.append(exc.rcvd.code if exc.rcvd else None)
            self.move()
            return
        overdue = self.pending is not None and time.monotonic() - self.pending[2] > PATIENCE
        if overdue or (self.view is None and time.monotonic() - self.since > PATIENCE):
            self.closes.append(None)
            self.move()

    def take(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "view":
            self.view = msg
        elif kind in ("accepted", "rejected", "error") and self.pending is not None:
            ref, action, _ = self.pending
            if msg.get("id") != ref:
                return
            self.pending = None
            if kind == "accepted":
                self.acked.append(Action.from_json(action))
            else:
                self.refusals.append(msg["error"])
                assert self.view is not None
                self.held_back = (self.view["version"], time.monotonic())

    def act(self) -> None:
        v = self.view
        if v is None or self.pending is not None or not v["legal"] or v["outcome"] is not None:
            return
        if self.held_back is not None:
            version, since = self.held_back
            if v["version"] == version and time.monotonic() - since < 0.5:
                return
            self.held_back = None
        self.ids += 1
        action = choose(v["legal"], v["view"], self.seat)
        self.pending = (self.ids, action, time.monotonic())
        self.send({"type": "action", "id": self.ids, "version": v["version"], "action": action})

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


class Table:
    """A Werewolf room made on the first node: people on different nodes, random bots."""

    def __init__(self, cluster: Cluster, seed: int, people: int = 4, players: int = 7) -> None:
        self.cluster = cluster
        first = cluster.alive()[0]
        made = first.http.post(
            "/api/rooms",
            json={
                "game": "werewolf",
                "name": "P0",
                "config": {"players": players, "min_night_seconds": 0},
            },
        ).json()
        self.code: str = made["code"]
        tokens = [made["token"]]
        for i in range(1, people):
            # each person joins through another node: the request is passed to the owner
            node = cluster.alive()[i % len(cluster.alive())]
            answer = node.http.post(f"/api/rooms/{self.code}/join", json={"name": f"P{i}"})
            assert answer.status_code == 201, answer.text
            tokens.append(answer.json()["token"])
        self.people = [Person(cluster, self.code, t, i, i) for i, t in enumerate(tokens)]
        for p in self.people:
            p.pump(0.2)
        started = first.http.post(
            f"/api/rooms/{self.code}/start",
            json={"seed": seed, "fill_with": "random"},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        assert started.status_code == 200, started.text
        self.bots = set(range(people, players))

    def run(self, *, until_actions: int | None = None, budget: float = 180) -> None:
        """Play until the match is over (or has at least ``until_actions`` actions)."""
        end = time.monotonic() + budget
        while time.monotonic() < end:
            for p in self.people:
                p.pump(0.01)
                p.act()
            if self.over():
                return
            if until_actions is not None and self.actions() >= until_actions:
                return
        raise AssertionError(f"the match did not get on within {budget} s\n" + self.cluster.logs())

    def over(self) -> bool:
        return all(p.view is not None and p.view["outcome"] is not None for p in self.people)

    def actions(self) -> int:
        store = open_room_store(self.cluster.database)
        try:
            stored = store.load_match(f"m-{self.code}-1")
        finally:
            store.close()
        return 0 if stored is None else len(stored.actions)

    def record(self) -> MatchRecord:
        node = self.cluster.alive()[0]
        room = node.http.get(f"/api/rooms/{self.code}").json()
        assert room["status"] == "finished", room
        answer = node.http.get(f"/api/matches/{room['match']['id']}")
        assert answer.status_code == 200, answer.text
        return MatchRecord.from_json(answer.json())

    def check(self) -> MatchRecord:
        """The finished match is what its actors would have played without any failure, and
        every action a person was told was taken is in it."""
        record = self.record()
        outcome = check_record(record, self.bots)
        for p in self.people:
            assert p.view is not None and p.view["outcome"] == outcome
            mine = [a for s, a in record.actions if s == p.seat]
            assert is_subsequence(p.acked, mine), (p.seat, p.acked, mine)
        return record

    def close(self) -> None:
        for p in self.people:
            p.close()


def is_subsequence(part: list[Action], whole: list[Action]) -> bool:
    it = iter(whole)
    return all(any(a == b for b in it) for a in part)


def check_record(record: MatchRecord, bots: set[int]) -> Any:
    """Fold the record over the rules alone: every person's action is the policy's pick in
    the view at that point, every bot's the random bot's pick for that seat and action number,
    every clock action the deadline's. Returns the outcome."""
    game = games.get(record.game)
    state = game.setup(config_from_json(game.Config, record.config), record.seed)
    for index, (seat, action) in enumerate(record.actions):
        if seat is None:
            deadline = game.deadline(state)
            assert deadline is not None and action == deadline.action, (index, action)
        else:
            legal = game.legal_actions(state, seat)
            assert seat in game.actors(state), (index, seat)
            if seat in bots:
                expected = legal[Rng(derive_seed(record.seed, seat, index)).below(len(legal))]
            else:
                view = json.loads(encode(game.view(state, Viewer.of(seat))))
                expected = Action.from_json(choose([a.to_json() for a in legal], view, seat))
            assert action == expected, (index, seat, action, expected)
        state, _ = game.apply(state, seat, action)
    result = game.outcome(state)
    assert result is not None
    return result.to_json()


@pytest.fixture
def cluster(tmp_path: Path, postgres: Any, redis_service: Any) -> Iterator[Cluster]:
    made = Cluster(tmp_path, postgres.new_database(), redis_service.url, 3)
    try:
        yield made
    finally:
        made.stop()
