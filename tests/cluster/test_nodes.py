"""Several nodes serving one room: people on different nodes play whole matches with bots."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.cluster.conftest import Cluster, Table


def test_people_on_different_nodes_play_a_whole_match_with_bots(cluster: Cluster) -> None:
    table = Table(cluster, seed=11)
    try:
        table.run()
        table.check()
        # the people really were on different nodes, and nobody had to move
        assert len({p.node.pid for p in table.people if p.node}) == 3
        assert all(not p.closes for p in table.people), [p.closes for p in table.people]
        # any node answers for the room
        for node in cluster.nodes:
            room = node.http.get(f"/api/rooms/{table.code}").json()
            assert room["status"] == "finished"
    finally:
        table.close()


@pytest.mark.parametrize("seed", [5, 23])
def test_killing_the_owner_mid_match_loses_no_acknowledged_action(
    cluster: Cluster, seed: int
) -> None:
    table = Table(cluster, seed=seed, players=9)
    try:
        kills, target = 0, 5
        while kills < 2:
            table.run(until_actions=target)
            assert not table.over(), "the match ended before the owner could be killed"
            owner = cluster.owner(table.code)
            cluster.kill(owner)
            kills += 1
            successor = cluster.wait_for_new_owner(table.code, owner)
            assert successor is not owner
            cluster.add()  # a fresh node in the dead one's place
            target = table.actions() + 5
        table.run()
        table.check()
        # the people who were on the dead nodes went on from other nodes
        assert any(p.closes for p in table.people)
    finally:
        table.close()


def test_a_paused_owner_commits_nothing_after_its_lease_was_taken_over(cluster: Cluster) -> None:
    table = Table(cluster, seed=7)
    try:
        table.run(until_actions=6)
        owner = cluster.owner(table.code)
        # someone watching through the owner itself, and one of its seats
        answer = owner.http.post(
            f"/api/rooms/{table.code}/join", json={"name": "Watcher", "role": "spectator"}
        )
        assert answer.status_code == 201, answer.text
        watcher = connect(owner.ws_url, open_timeout=10).__enter__()
        watcher.send(
            json.dumps(
                {"type": "hello", "v": 2, "room": table.code, "token": answer.json()["token"]}
            )
        )
        assert json.loads(watcher.recv(timeout=10))["type"] == "welcome"
        cluster.pause(owner)
        successor = cluster.wait_for_new_owner(table.code, owner)
        assert successor is not owner
        # the match goes on without the paused node
        table.run(until_actions=table.actions() + 4)
        committed = table.actions()
        cluster.resume(owner)
        # its clients are told to move (close code 1012) ...
        end = time.monotonic() + 30
        code = None
        while time.monotonic() < end:
            try:
                watcher.recv(timeout=1)
            except TimeoutError:
                continue
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
                break
        assert code == 1012, code
        # ... and it wrote nothing: the log went on only through the new owner
        assert table.actions() >= committed
        table.run()
        record = table.check()
        assert len(record.actions) == table.actions()
        assert f"lost room {table.code}" in owner.log()
    finally:
        table.close()


def test_the_nodes_recover_when_redis_restarts(cluster: Cluster, redis_service: Any) -> None:
    table = Table(cluster, seed=13)
    try:
        table.run(until_actions=8)
        redis_service.stop()
        redis_service.start()
        table.run()
        table.check()
    finally:
        table.close()


def test_a_database_restart_refuses_actions_clearly_and_half_applies_nothing(
    cluster: Cluster, postgres: Any
) -> None:
    table = Table(cluster, seed=17)
    try:
        table.run(until_actions=8)
        # the database goes away while someone is about to act
        end = time.monotonic() + 60
        while not any(p.view and p.view["legal"] and not p.pending for p in table.people):
            assert time.monotonic() < end, "nobody got a turn"
            for p in table.people:
                p.pump(0.01)
        postgres.stop()
        try:
            end = time.monotonic() + 60
            refused: list[dict[str, Any]] = []
            while not refused and time.monotonic() < end:
                for p in table.people:
                    p.pump(0.01)
                    p.act()
                refused = [
                    r for p in table.people for r in p.refusals if r["code"] == "unavailable"
                ]
            assert refused, [p.refusals for p in table.people]
            assert "database cannot be reached" in refused[0]["message"], refused[0]
            assert "nothing changed" in refused[0]["message"]
            # a host control is refused alike, through any node
            node = cluster.alive()[-1]
            host = table.people[0].token
            paused = node.http.post(
                f"/api/rooms/{table.code}/pause", headers={"Authorization": f"Bearer {host}"}
            )
            assert paused.status_code == 503, paused.text
            assert paused.json()["error"]["code"] == "unavailable"
            assert "database" in paused.json()["error"]["message"], paused.text
        finally:
            postgres.start()
        # nothing of the refused pause was kept
        assert node.http.get(f"/api/rooms/{table.code}").json()["paused"] is False
        table.run()
        table.check()
    finally:
        table.close()


def test_a_node_that_stops_normally_gives_its_rooms_up_at_once(cluster: Cluster) -> None:
    table = Table(cluster, seed=29)
    try:
        table.run(until_actions=5)
        owner = cluster.owner(table.code)
        name = cluster.lease(table.code)
        owner.stop()  # SIGTERM: uvicorn shuts down, the node releases its leases
        assert "Application shutdown complete" in owner.log(), owner.log()[-3000:]
        lease = cluster.lease(table.code)
        assert lease is not None and name is not None
        # given up (no waiting for it to run out), or already taken by another node
        assert lease.node != name.node or lease.expires == 0, lease
        cluster.wait_for_new_owner(table.code, owner)
        table.run()
        table.check()
    finally:
        table.close()
