"""Authorization: a token acts only for its own seat in its own room, host controls are the
host's, spectators, table screens and eliminated players only watch, tokens are long random
secrets compared in constant time, and every connection and address is rate limited."""

from __future__ import annotations

import base64
import hmac
import json
import re
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import Client, Server
from wolfden.engine import Viewer
from wolfden.server import rooms as rooms_module
from wolfden.server.app import create_app
from wolfden.server.settings import Settings


def table_of(server: Server, seed: int = 5) -> dict[str, Any]:
    """A Werewolf room: Ada (host, seat 0) and Bea (seat 1) in person, five bots, a spectator
    and a table screen, in the first night. The clock stands still, so bots wait."""
    made = server.create(config={"players": 7})
    code, host = made["code"], made["token"]
    bea = server.join(code, "Bea")
    spectator = server.join(code, "Cy", "spectator")
    table = server.join(code, "Wall", "table")
    r = server.host("POST", f"/api/rooms/{code}/start", host, json={"seed": seed})
    assert r.status_code == 200, r.text
    server.settle()
    return {
        "code": code,
        "host": host,
        "bea": bea["token"],
        "spectator": spectator["token"],
        "table": table["token"],
        "host_id": made["participant"],
        "bea_id": bea["participant"],
    }


def refusal(client: Client, msg: dict[str, Any]) -> str:
    client.drain()
    client.send({**msg, "id": "x"})
    answer = client.answer("x")
    assert answer["type"] in ("rejected", "error"), answer
    return str(answer["error"]["code"])


def version_of(server: Server, code: str) -> int:
    return int(server.call(lambda: server.manager.rooms[code].match.version))


def test_a_token_acts_only_for_its_own_seat(server: Server) -> None:
    t = table_of(server)
    bea = Client(server, t["code"], t["bea"])
    before = version_of(server, t["code"])
    for seat in range(7):
        if seat == 1:
            continue
        assert refusal(bea, {"type": "action", "seat": seat, "text": "abstain"}) == "not_your_seat"
    assert version_of(server, t["code"]) == before


def test_a_token_of_one_room_opens_nothing_in_another(server: Server) -> None:
    a = table_of(server, seed=1)
    b = table_of(server, seed=2)
    stranger = Client(server, b["code"], a["host"], hello=False)
    stranger.send({"type": "hello", "v": 2, "room": b["code"], "token": a["host"]})
    assert stranger.expect("error")["error"]["code"] == "unauthorized"
    assert refusal(stranger, {"type": "action", "text": "abstain"}) == "not_ready"
    r = server.host("POST", f"/api/rooms/{b['code']}/end", a["host"])
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = server.host("GET", f"/api/rooms/{b['code']}/me", a["bea"])
    assert r.status_code == 401


def test_no_action_counts_after_the_end(server: Server) -> None:
    t = table_of(server)
    host = Client(server, t["code"], t["host"])
    legal = host.view["legal"] if host.view else []
    before = version_of(server, t["code"])
    assert server.host("POST", f"/api/rooms/{t['code']}/end", t["host"]).status_code == 200
    server.settle()
    for msg in (
        {"type": "action", "action": legal[0] if legal else {"name": "abstain", "args": []}},
        {"type": "host_action", "text": "end_discussion"},
    ):
        assert refusal(host, msg) == "match_over"
    record = server.http.get(f"/api/matches/m-{t['code']}-1").json()
    assert len(record["actions"]) == before == version_of(server, t["code"])


HOST_ROUTES = [
    route
    for route in create_app(Settings(db=":memory:", web_dir=None)).routes
    if "host" in getattr(route, "tags", ())
]


def _route_request(route: Any, code: str, pid: str) -> tuple[str, str, dict[str, Any]]:
    path = route.path.format(code=code, pid=pid, seat=3)
    method = sorted(route.methods)[0]
    bodies = {
        "config": {"config": {"players": 7}},
        "settings": {"bot_delay": 1},
        "bot": {"kind": "random"},
        "host": {"participant": pid},
        "devices": {"seats": [3]},
        "admit": {"admit": True},
        "narrator": {"participant": pid},
    }
    body = next((b for k, b in bodies.items() if path.endswith(k)), {})
    return method, path, body


def test_every_host_route_is_known() -> None:
    paths = {r.path.rsplit("/", 1)[-1] for r in HOST_ROUTES}
    assert {"start", "end", "pause", "resume", "kick", "token", "host", "config"} <= paths


@pytest.mark.parametrize("route", HOST_ROUTES, ids=lambda r: f"{sorted(r.methods)[0]} {r.path}")
def test_host_controls_are_for_the_host_alone(server: Server, route: Any) -> None:
    t = table_of(server)
    method, path, body = _route_request(route, t["code"], t["bea_id"])
    before = server.http.get(f"/api/rooms/{t['code']}").json()
    for token in (t["bea"], t["spectator"], t["table"]):
        r = server.host(method, path, token, json=body)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_host", r.text
    r = server.http.request(method, path, json=body)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    after = server.http.get(f"/api/rooms/{t['code']}").json()
    assert after == before


def test_moderator_actions_over_the_socket_are_the_hosts(server: Server) -> None:
    t = table_of(server)
    for token in (t["bea"], t["spectator"], t["table"]):
        c = Client(server, t["code"], token)
        assert refusal(c, {"type": "host_action", "text": "end_discussion"}) == "not_host"


def test_spectators_and_table_screens_only_watch(server: Server) -> None:
    t = table_of(server)
    for token in (t["spectator"], t["table"]):
        c = Client(server, t["code"], token)
        assert c.view is None or c.view["legal"] == []
        c.expect("view")
        assert c.view is not None and c.view["legal"] == []
        for text in ("abstain", "pick 2", "check 3", "protect 1", "vote 2"):
            assert refusal(c, {"type": "action", "text": text}) == "not_a_player"


def test_eliminated_players_only_watch(server: Server) -> None:
    """Play the first night and day with the clock until someone of ours is out."""
    for seed in range(40):
        t = table_of(server, seed=seed)
        code = t["code"]
        m = server.call(lambda code=code: server.manager.rooms[code].match)
        game = server.call(lambda code=code: server.manager.rooms[code].game)
        for _ in range(40):
            state = m.state
            dead = [s for s in (0, 1) if not state.is_alive(s)]
            if dead or game.outcome(state) is not None:
                break
            at = server.call(server.clock.next_wakeup)
            server.call(lambda at=at: server.clock.set(at))
            server.settle()
        if dead and game.outcome(m.state) is None:
            seat = dead[0]
            c = Client(server, code, t["host"] if seat == 0 else t["bea"])
            c.expect("view")
            assert c.view is not None and c.view["legal"] == []
            assert game.legal_actions(m.state, seat) == []
            for text in ("abstain", "vote 2", "pick 3", "check 4", "protect 5"):
                assert refusal(c, {"type": "action", "text": text}) == "not_your_turn"
            assert c.view["view"] == json.loads(json.dumps(game.view(m.state, Viewer.of(seat))))
            return
    pytest.fail("no seed put one of the two people out before the end")


def test_tokens_are_random_secrets_of_at_least_128_bits(server: Server) -> None:
    made = server.create()
    tokens = [made["token"]] + [
        server.join(made["code"], f"P{i}", "spectator")["token"] for i in range(60)
    ]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token)
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128
    # every bit position varies across tokens: no fixed prefix, counter or timestamp
    bits = [int.from_bytes(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))) for t in tokens]
    width = 8 * len(base64.urlsafe_b64decode(tokens[0] + "=="))
    always_same = [i for i in range(width) if len({(b >> i) & 1 for b in bits}) == 1]
    assert len(always_same) <= 2


def test_tokens_come_from_the_secrets_module(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def fake(nbytes: int) -> str:
        calls.append(nbytes)
        return "from-secrets"

    monkeypatch.setattr(rooms_module.secrets, "token_urlsafe", fake)
    assert rooms_module.new_token() == "from-secrets"
    assert calls and calls[0] >= 16


def test_tokens_are_compared_in_constant_time(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Authentication goes through hmac.compare_digest for every participant, with no early
    exit, so the time taken does not depend on how much of a guess was right."""
    made = server.create()
    for i in range(5):
        server.join(made["code"], f"P{i}", "spectator")
    seen: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        seen.append((a, b))
        return real(a, b)

    monkeypatch.setattr(rooms_module.hmac, "compare_digest", spy)
    room = server.call(lambda: server.manager.rooms[made["code"]])
    people = len(room.participants)
    for guess in (made["token"], made["token"][:-1] + "x", "wrong"):
        seen.clear()
        try:
            server.manager.authenticate(room, guess)
        except Exception as exc:
            assert getattr(exc, "code", "") == "unauthorized"
        assert len(seen) == people
        assert all(len(a) == len(b) == 64 for a, b in seen)  # SHA-256 digests, fixed length


def test_a_message_larger_than_the_limit_is_dropped_with_an_error(server: Server) -> None:
    t = table_of(server)
    c = Client(server, t["code"], t["bea"])
    c.send({"type": "ping", "id": 1, "pad": "x" * 9000})
    assert c.expect("error")["error"]["code"] == "too_large"
    c.send({"type": "ping", "id": 2})
    assert c.expect("pong")["id"] == 2


def test_a_huge_message_closes_the_connection(server: Server) -> None:
    t = table_of(server)
    c = Client(server, t["code"], t["bea"])
    c.send({"type": "ping", "pad": "x" * 70_000})
    with pytest.raises((ConnectionClosed, TimeoutError)):
        for _ in range(50):
            c.recv(2)
    assert c.ws.close_code == 1009
    assert server.http.get(f"/api/rooms/{t['code']}").status_code == 200


def test_a_connection_is_limited_in_messages_per_second(make_server: Any) -> None:
    server = make_server(messages_per_second=5, message_burst=10, flood_limit=50)
    t = table_of(server)
    c = Client(server, t["code"], t["bea"])
    for i in range(30):
        c.send({"type": "ping", "id": i})
    codes = []
    try:
        for _ in range(40):
            msg = c.recv(1)
            codes.append(msg.get("error", {}).get("code", msg["type"]))
    except TimeoutError:
        pass
    assert "rate_limited" in codes
    assert codes.count("pong") <= 12
    for i in range(200):
        try:
            c.send({"type": "ping", "id": i})
        except ConnectionClosed:
            break
    with pytest.raises(ConnectionClosed):
        for _ in range(500):
            c.recv(2)
    assert c.ws.close_code == 1008


def test_guessing_room_codes_is_rate_limited_over_http_and_socket(make_server: Any) -> None:
    server = make_server(wrong_codes_per_minute=5)
    real = server.create()["code"]
    for i in range(5):
        assert server.http.get(f"/api/rooms/ZZZZZ{i}").status_code == 404
    r = server.http.post(f"/api/rooms/{real}/join", json={"name": "Guess"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    c = Client(server, real, "x", hello=False)
    c.send({"type": "hello", "v": 2, "room": real, "token": "x"})
    assert c.expect("error")["error"]["code"] == "too_many_attempts"
