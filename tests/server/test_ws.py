"""Play over the WebSocket: views, rejections, malformed messages, the clock, presence."""

from __future__ import annotations

import itertools
import json
from typing import Any

from tests.server.conftest import Client, Server, match_of, quiet
from wolfden.engine import SPECTATOR, TABLE, Viewer
from wolfden.games import werewolf


def room_with_bots(server: Server, seed: int = 3, **settings: Any) -> tuple[str, str, Client]:
    """Ada (seat 0, the host) with six random bots, in the first night."""
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    if settings:
        server.host("PUT", f"/api/rooms/{code}/settings", token, json=settings)
    host = Client(server, code, token)
    r = server.host(
        "POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": seed}
    )
    assert r.status_code == 200, r.text
    host.expect("view")
    quiet(server, code, host)
    return code, token, host


def to_deadline(server: Server, code: str, client: Client) -> None:
    """Let the clock run to the current deadline, then read what it brought."""
    at, version = client.view["deadline"]["at"], client.view["version"]
    server.call(lambda: server.clock.set(at))
    client.wait(lambda: client.view["version"] > version)
    quiet(server, code, client)


def to_discussion(server: Server, code: str, host: Client) -> None:
    while host.view["view"]["phase"] != "discussion":
        if host.view["legal"]:
            host.send({"type": "action", "id": "n", "action": host.view["legal"][0]})
            host.answer("n")
            quiet(server, code, host)
            continue
        to_deadline(server, code, host)
    assert host.view["outcome"] is None


def test_hello_brings_welcome_room_and_the_current_view(server: Server) -> None:
    code, token, _host = room_with_bots(server)
    again = Client(server, code, token, hello=False)
    again.send({"type": "hello", "v": 2, "room": code.lower(), "token": token})
    welcome = again.expect("welcome")
    assert welcome["you"]["name"] == "Ada" and welcome["you"]["host"]
    assert again.expect("room")["room"]["code"] == code
    view = again.expect("view")
    m = match_of(server, code)
    assert view["version"] == 1  # the first view on this connection
    assert view["view"] == json.loads(json.dumps(werewolf.view(m.state, Viewer.of(0))))
    assert view["events"] == []


def test_every_viewer_receives_exactly_its_own_view(server: Server) -> None:
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    bea = server.join(code, "Bea")
    spy = server.join(code, "Spy", role="spectator")
    wall = server.join(code, "Wall", role="table")
    clients = {
        Viewer.of(0): Client(server, code, token),
        Viewer.of(1): Client(server, code, bea["token"]),
        SPECTATOR: Client(server, code, spy["token"]),
        TABLE: Client(server, code, wall["token"]),
    }
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": 8})
    quiet(server, code, *clients.values())
    m = match_of(server, code)
    for viewer, client in clients.items():
        expected = json.loads(json.dumps(werewolf.view(m.state, viewer)))
        assert client.view["view"] == expected, viewer
        if viewer.seat is None:
            assert client.view["legal"] == []
        else:
            assert client.view["legal"] == [
                a.to_json() for a in werewolf.legal_actions(m.state, viewer.seat)
            ]
        assert client.view["host_actions"] == [] or viewer == Viewer.of(0)


def test_malformed_messages_get_an_error_and_the_connection_stays_open(server: Server) -> None:
    code, _token, host = room_with_bots(server)
    version = match_of(server, code).version
    cases = [
        ("{not json", "invalid_message"),
        ("[1, 2]", "invalid_message"),
        ('{"no": "type"}', "invalid_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "action", "id": 1}', "invalid_message"),
        ('{"type": "action", "id": 2, "action": {"name": "Vote!", "args": []}}', "invalid_message"),
        (
            '{"type": "action", "id": 3, "action": {"name": "vote", "args": [true]}}',
            "invalid_message",
        ),
        ('{"type": "action", "id": 4, "text": "vote 1", "version": "x"}', "invalid_message"),
        ('{"type": "hello", "v": 2, "room": "X", "token": "y"}', "invalid_message"),
        (json.dumps({"type": "ping", "pad": "x" * 9000}), "too_large"),
    ]
    for text, code_expected in cases:
        host.send(text)
        msg = (
            host.expect("error")
            if code_expected != "invalid_message" or '"id"' not in text
            else host.recv()
        )
        assert msg["type"] in ("error", "rejected"), text
        assert msg["error"]["code"] == code_expected, (text, msg)
        host.send({"type": "ping", "id": "alive"})
        assert host.expect("pong")["id"] == "alive"
    assert match_of(server, code).version == version


def test_messages_before_hello_and_bad_hellos_are_refused(server: Server) -> None:
    code, token, _ = room_with_bots(server)
    c = Client(server, code, token, hello=False)
    c.send({"type": "action", "id": 1, "text": "vote 1"})
    assert c.expect("error")["error"]["code"] == "not_ready"
    c.send({"type": "hello", "v": 1, "room": code, "token": token})
    assert c.expect("error")["error"]["code"] == "invalid_message"
    c.send({"type": "hello", "v": 2, "room": code, "token": "forged"})
    assert c.expect("error")["error"]["code"] == "unauthorized"
    other = server.create(name="Zed")
    c.send({"type": "hello", "v": 2, "room": code, "token": other["token"]})
    assert c.expect("error")["error"]["code"] == "unauthorized"
    c.send({"type": "hello", "v": 2, "room": code, "token": token})
    assert c.expect("welcome")


def test_out_of_turn_illegal_foreign_seat_and_stale_actions_change_nothing(server: Server) -> None:
    code, _token, host = room_with_bots(server)
    to_discussion(server, code, host)
    actions = match_of(server, code).version
    version = host.view["version"]

    def rejected(msg: dict[str, Any]) -> str:
        host.send(msg)
        answer = host.answer(msg["id"])
        assert answer["type"] == "rejected", answer
        return str(answer["error"]["code"])

    assert rejected({"type": "action", "id": "a", "text": "vote 1"}) == "not_your_turn"
    assert rejected({"type": "action", "id": "b", "text": "vote 1", "seat": 2}) == "not_your_seat"
    assert rejected({"type": "host_action", "id": "c", "text": "dawn"}) == "illegal_action"
    assert (
        rejected(
            {"type": "host_action", "id": "d", "text": "end_discussion", "version": version - 1}
        )
        == "stale"
    )
    assert match_of(server, code).version == actions and host.view["version"] == version
    host.send({"type": "host_action", "id": "e", "text": "end_discussion", "version": version})
    # the host's new view comes before the answer, which names its version
    assert host.answer("e") == {"type": "accepted", "id": "e", "version": version + 1}
    quiet(server, code, host)
    if host.view["legal"]:
        me = Viewer.of(0)
        assert me.seat is not None
        assert rejected({"type": "action", "id": "f", "text": "vote 0"}) == "illegal_action"
        answer_text = host.received[-1]["error"]["message"]
        assert "vote" in answer_text


def test_spectators_and_table_screens_cannot_act(server: Server) -> None:
    code, _token, _host = room_with_bots(server)
    spy = Client(server, code, server.join(code, "Spy", role="spectator")["token"])
    spy.send({"type": "action", "id": 1, "text": "vote 1"})
    assert spy.answer(1)["error"]["code"] == "not_a_player"
    spy.send({"type": "host_action", "id": 2, "text": "end_discussion"})
    assert spy.answer(2)["error"]["code"] == "not_host"


def test_actions_after_the_end_are_refused(server: Server) -> None:
    code, token, host = room_with_bots(server)
    version = match_of(server, code).version
    server.host("POST", f"/api/rooms/{code}/end", token)
    host.expect("view")
    host.send({"type": "action", "id": 1, "text": "vote 1"})
    assert host.answer(1)["error"]["code"] == "match_over"
    assert match_of(server, code).version == version


def test_the_deadline_applies_the_timeout_action_as_the_clock(server: Server) -> None:
    code, token, host = room_with_bots(server)
    to_discussion(server, code, host)
    deadline = host.view["deadline"]
    assert deadline["label"] == "discussion" and deadline["seconds"] == 180
    assert deadline["at"] == match_of(server, code).phase_started + 180
    version, actions = host.view["version"], match_of(server, code).version
    server.call(lambda: server.clock.set(deadline["at"] - 1))
    server.settle()
    assert match_of(server, code).version == actions
    to_deadline(server, code, host)
    assert host.view["version"] > version
    server.host("POST", f"/api/rooms/{code}/end", token)
    record = server.http.get(f"/api/matches/{host.view['match']}").json()
    assert record["actions"][actions] == [None, "end_discussion"]


def test_pause_stops_the_clock_and_resume_adds_the_paused_time(server: Server) -> None:
    code, token, host = room_with_bots(server)
    to_discussion(server, code, host)
    at = host.view["deadline"]["at"]
    version = match_of(server, code).version
    server.host("POST", f"/api/rooms/{code}/pause", token)
    view = host.expect("view")
    assert view["paused"] and view["deadline"]["at"] is None
    server.advance(500)
    assert match_of(server, code).version == version
    host.send({"type": "host_action", "id": 1, "text": "end_discussion"})
    assert host.answer(1)["error"]["code"] == "paused"
    server.host("POST", f"/api/rooms/{code}/resume", token)
    view = host.expect("view")
    assert not view["paused"] and view["deadline"]["at"] == at + 500


def test_a_reconnecting_player_gets_the_current_view(server: Server) -> None:
    code, token, host = room_with_bots(server)
    to_discussion(server, code, host)
    seen = host.view
    host.close()
    server.advance(10)
    back = Client(server, code, token)
    view = back.expect("view")
    # a new connection counts its views from 1 again, starting from the current one
    assert view["version"] == 1 and view["view"] == seen["view"]
    assert view["view"]["phase"] == "discussion"
    back.send({"type": "host_action", "id": 1, "text": "end_discussion", "version": 1})
    assert back.answer(1) == {"type": "accepted", "id": 1, "version": 2}


def test_an_absent_player_gets_a_stand_in_bot_after_the_grace_period(server: Server) -> None:
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    bea = server.join(code, "Bea")
    host = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": 3})
    quiet(server, code, host)
    seats = {s["seat"]: s for s in host.room["seats"]}
    assert not seats[1]["connected"] and not seats[1]["stand_in"]
    server.advance(59)
    host.drain()
    assert not {s["seat"]: s for s in host.room["seats"]}[1]["stand_in"]
    server.advance(1)
    host.wait(lambda: host.seat(1)["stand_in"])
    # Bea comes back: the stand-in stops
    guest = Client(server, code, bea["token"])
    host.wait(lambda: not host.seat(1)["stand_in"] and host.seat(1)["connected"])
    guest.close()


def test_with_the_wait_rule_the_match_pauses_for_an_absent_player(server: Server) -> None:
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    bea = server.join(code, "Bea")
    server.host(
        "PUT", f"/api/rooms/{code}/settings", token, json={"absent": "wait", "grace_seconds": 30}
    )
    host = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": 3})
    server.settle()
    host.drain()
    server.advance(30)
    host.wait(lambda: host.view is not None and host.view["paused"])
    guest = Client(server, code, bea["token"])
    host.wait(lambda: host.view is not None and not host.view["paused"])
    guest.close()


def test_the_host_moves_a_seat_to_a_new_device(server: Server) -> None:
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    bea = server.join(code, "Bea")
    old = Client(server, code, bea["token"])
    r = server.host("POST", f"/api/rooms/{code}/participants/{bea['participant']}/token", token)
    fresh = r.json()["token"]
    assert fresh != bea["token"]
    assert old.expect("closed")["reason"] == "token_replaced"
    assert server.host("GET", f"/api/rooms/{code}/me", bea["token"]).status_code == 401
    me = server.host("GET", f"/api/rooms/{code}/me", fresh).json()
    assert me["participant"]["name"] == "Bea" and me["participant"]["seat"] == 1
    assert Client(server, code, fresh).expect("room")


def test_a_flood_of_messages_is_rate_limited(make_server: Any) -> None:
    server = make_server(messages_per_second=5, message_burst=5, flood_limit=1000)
    _code, _token, host = room_with_bots(server)
    for i in range(30):
        host.send({"type": "ping", "id": i})
    codes = []
    try:
        while True:
            msg = host.recv(0.3)
            codes.append(msg["type"] if msg["type"] == "pong" else msg["error"]["code"])
    except TimeoutError:
        pass
    assert "rate_limited" in codes and codes.count("pong") < 30


def test_a_broken_bot_does_not_stall_the_table(server: Server, monkeypatch: Any) -> None:
    from wolfden.server import rooms

    class Broken:
        def act(self, view: Any, legal: Any, rng: Any) -> Any:
            raise RuntimeError("this bot has a bug")

    monkeypatch.setattr(rooms, "make_bot", lambda game_id, kind, seat: Broken())
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    server.host("POST", f"/api/rooms/{code}/seats/1/bot", token, json={"kind": "random"})
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": 4})
    quiet(server, code)
    m = match_of(server, code)
    # every bot that was called on at night acted anyway; only seat 0 (a person) may be waited for
    assert werewolf.actors(m.state) <= {0}
    assert m.version > 0


def test_text_that_is_not_valid_unicode_is_refused(server: Server) -> None:
    code, _token, host = room_with_bots(server)
    host.send('{"type": "action", "id": 1, "action": {"name": "ask", "args": ["\\ud800"]}}')
    assert host.answer(1)["error"]["code"] == "invalid_message"
    host.send({"type": "ping", "id": "alive"})
    assert host.expect("pong")["id"] == "alive"
    r = server.http.post(
        "/api/rooms",
        content=b'{"game": "werewolf", "name": "A", "config": {"names": ["\\ud800"]}}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_config"
    r = server.http.post(
        f"/api/rooms/{code}/join",
        content=b'{"name": "\\ud800"}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name"


def test_with_the_timeout_rule_an_absent_player_is_left_to_the_clock(server: Server) -> None:
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    server.join(code, "Bea")
    server.host(
        "PUT", f"/api/rooms/{code}/settings", token, json={"absent": "timeout", "grace_seconds": 5}
    )
    host = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": 3})
    quiet(server, code, host)
    server.advance(6)
    quiet(server, code, host)
    seat = {s["seat"]: s for s in host.room["seats"]}[1]
    assert not seat["stand_in"] and not host.view["paused"]
    m = match_of(server, code)
    if 1 in werewolf.actors(m.state):  # Bea's night action waits for the night's deadline
        assert host.view["deadline"]["label"] == "night"


def test_a_view_is_sent_only_when_what_its_viewer_sees_changed(server: Server) -> None:
    """The frames a connection gets count its own changes (1, 2, 3, …), never the actions."""
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    spy = Client(server, code, server.join(code, "Spy", role="spectator")["token"])
    host = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": 3})
    host.expect("view")
    to_discussion(server, code, host)
    quiet(server, code, host, spy)
    actions = match_of(server, code).version
    for c in (host, spy):
        views = [m for m in c.received if m["type"] == "view"]
        assert [v["version"] for v in views] == list(range(1, len(views) + 1))
        shown = ("match", "view", "legal", "host_actions", "deadline", "paused", "outcome")
        for before, after in itertools.pairwise(views):
            assert after["events"] or any(before[k] != after[k] for k in shown)
    spied = [m for m in spy.received if m["type"] == "view"]
    # the night's actions the spectator cannot see brought it nothing
    assert len(spied) < actions


def test_protocol_3_answers_an_action_in_the_view_it_brings(server: Server) -> None:
    """A client saying "v": 3 gets the answer to an action that changed its view inside that
    view frame, written after every other frame of the action; no `accepted` follows. Other
    connections get the same view without an answer, and refusals are answered as before."""
    code, token, host = room_with_bots(server)
    to_discussion(server, code, host)
    v3 = Client(server, code, token, hello=False)
    v3.send({"type": "hello", "v": 3, "room": code, "token": token})
    assert v3.expect("welcome")["v"] == 3
    v3.expect("view")
    while not v3.view["legal"]:
        to_deadline(server, code, v3)
    host.drain()
    before = v3.view["version"]
    action = v3.view["legal"][0]
    v3.send({"type": "action", "id": "a1", "action": action, "version": before})
    answered = v3.expect("view", answer="a1")
    assert answered["version"] == before + 1
    v3.sync()
    assert not [m for m in v3.received if m["type"] == "accepted"]
    seen = host.expect("view")
    assert "answer" not in seen and seen["view"] == answered["view"]
    v3.send({"type": "action", "id": "a2", "action": action, "version": before})
    refused = v3.answer("a2")
    assert refused["type"] == "rejected" and refused["error"]["code"] == "stale"
