"""Timing tells nothing: a Werewolf night lasts as long and sounds the same whichever roles are
alive, and every action, whoever sent it, brings every socket the same kind of frames.

Measured through the real server with its fake clock: the same deal is played three times, the
first night taking the Seer, the Guardian or a Villager; the second night is then compared.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import Client, Server
from wolfden.games.werewolf.roles import Role

SEED = 21


def act(client: Client, text: str) -> None:
    client.drain()
    client.send({"type": "action", "id": text, "text": text})
    answer = client.answer(text)
    assert answer["type"] == "accepted", (text, answer)


def second_night(make_server: Any, victim_role: Role, idle: bool) -> dict[str, Any]:
    server: Server = make_server()
    made = server.create(config={"players": 7})
    code = made["code"]
    tokens = [made["token"]] + [server.join(code, f"P{i}")["token"] for i in range(1, 7)]
    table = Client(server, code, server.join(code, "Wall", "table")["token"])
    people = [Client(server, code, t) for t in tokens]
    r = server.host("POST", f"/api/rooms/{code}/start", made["token"], json={"seed": SEED})
    assert r.status_code == 200
    server.settle()
    roles = server.call(lambda: server.manager.rooms[code].match.state.roles)
    wolves = [s for s, r in enumerate(roles) if r is Role.WEREWOLF]
    seer = roles.index(Role.SEER)
    guardian = roles.index(Role.GUARDIAN)
    villagers = [s for s, r in enumerate(roles) if r is Role.VILLAGER]
    victim = {Role.SEER: seer, Role.GUARDIAN: guardian, Role.VILLAGER: villagers[0]}[victim_role]
    # night 1: the pack takes the victim, nobody protects them
    for w in wolves:
        act(people[w], f"pick {victim}")
    act(people[seer], f"check {wolves[0]}")
    act(people[guardian], f"protect {wolves[0]}")
    server.call(lambda: server.clock.set(server.clock.next_wakeup()))
    server.settle()
    # day 1: end the discussion, everyone abstains, no one goes
    people[0].send({"type": "host_action", "id": "end", "text": "end_discussion"})
    assert people[0].answer("end")["type"] == "accepted"
    server.settle()
    for s in range(7):
        if s != victim:
            act(people[s], "abstain")
    server.settle()
    table.sync()
    assert table.view is not None and table.view["view"]["phase"] == "night"
    assert table.view["view"]["round"] == 2
    started = server.clock.now()
    frames_before = len(table.received)
    living_actors = [s for s in (*wolves, seer, guardian) if s != victim]
    quiet = {seer, guardian} - {victim}
    for s in living_actors:
        if idle and s in quiet:
            continue  # this one never acts
        if s in wolves:
            act(people[s], f"pick {next(v for v in villagers if v != victim)}")
        elif s == seer:
            act(people[s], f"check {wolves[0]}")
        else:
            act(people[s], f"protect {s}")  # not the same player two nights running
    server.settle()
    table.sync()
    while table.view["view"]["phase"] == "night":
        server.call(lambda: server.clock.set(server.clock.next_wakeup()))
        server.settle()
        table.sync()
    ended = server.clock.now()
    night_start = [m for m in table.received[:frames_before] if m["type"] == "view"][-1]
    night = [night_start] + [m for m in table.received[frames_before:] if m["type"] == "view"]
    return {
        "length": ended - started,
        "script": [e.get("text") for e in night_start["events"]],
        "during": [m["events"] for m in night[1:-1]],
        "seconds": sorted({m["deadline"]["seconds"] for m in night[:-1]}),
    }


@pytest.mark.parametrize("idle", [False, True], ids=["everyone-acts", "one-never-acts"])
def test_the_night_lasts_and_sounds_the_same_whichever_roles_are_alive(
    make_server: Any, idle: bool
) -> None:
    nights = {r: second_night(make_server, r, idle) for r in (Role.SEER, Role.GUARDIAN)}
    if not idle:
        nights[Role.VILLAGER] = second_night(make_server, Role.VILLAGER, idle)
    first = next(iter(nights.values()))
    assert first["length"] == (90.0 if idle else 20.0)
    for n in nights.values():
        assert n["length"] == first["length"]
        assert n["script"] == first["script"]
        assert "Seer, wake and choose one player to look into." in n["script"]
        assert "Guardian, wake and choose someone to protect." in n["script"]
        assert all(events == [] for events in n["during"])  # the table hears nothing in between
        assert n["seconds"] == first["seconds"]
