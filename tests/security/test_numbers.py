"""NaN and Infinity are not JSON numbers: every parser of client input refuses them with a clear
error, before anything is applied, and no answer is left to fail after a commit."""

from __future__ import annotations

import dataclasses
import json

import pytest

from tests.server.conftest import Client, Server
from wolfden.engine.config import ConfigError, config_from_json
from wolfden.games import werewolf
from wolfden.server.middleware import parse_json

NOT_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"]


def rooms_in_file(server: Server) -> int:
    return len(server.call(server.manager.store.load_rooms))


@pytest.mark.parametrize("number", NOT_FINITE)
def test_a_room_with_a_non_finite_timer_is_refused_and_not_saved(
    server: Server, number: str
) -> None:
    before = rooms_in_file(server)
    body = '{"game": "werewolf", "name": "Ada", "config": {"discussion_seconds": N}}'
    body = body.replace("N", number)
    r = server.http.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_request"
    assert "finite" in error["message"]
    assert rooms_in_file(server) == before
    assert server.call(lambda: len(server.manager.rooms)) == 0


@pytest.mark.parametrize("number", ["NaN", "Infinity", "1e400"])
def test_join_and_host_controls_refuse_non_finite_numbers(server: Server, number: str) -> None:
    made = server.create()
    code, token = made["code"], made["token"]
    r = server.http.post(
        f"/api/rooms/{code}/join",
        content='{"name": "Bo", "role": "player", "x": N}'.replace("N", number),
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and "finite" in r.json()["error"]["message"], r.text
    r = server.http.put(
        f"/api/rooms/{code}/settings",
        content='{"grace_seconds": N}'.replace("N", number),
        headers={"content-type": "application/json", "authorization": f"Bearer {token}"},
    )
    assert r.status_code == 400 and "finite" in r.json()["error"]["message"], r.text
    room = server.call(lambda: server.manager.rooms[code])
    assert len(room.participants) == 1
    assert room.settings.grace_seconds == server.settings.grace_seconds


def test_a_socket_message_with_a_non_finite_number_is_refused(server: Server) -> None:
    made = server.create()
    client = Client(server, made["code"], made["token"])
    for number in ("NaN", "-Infinity", "1e400"):
        client.send('{"type": "action", "id": "n1", "version": N}'.replace("N", number))
        msg = client.expect("error")
        assert msg["error"]["code"] == "invalid_message"
        assert "finite" in msg["error"]["message"]
    client.close()


def test_the_config_parser_refuses_non_finite_numbers_from_any_source() -> None:
    for value in (float("nan"), float("inf"), -float("inf"), 10**400):
        with pytest.raises(ConfigError, match="finite"):
            config_from_json(werewolf.Config, {"discussion_seconds": value})


def test_every_answer_is_built_before_the_room_is_saved(server: Server) -> None:
    """If the answer cannot be made (here: a config value JSON cannot carry, slipped past every
    check), nothing is saved: no room in memory or in the file, no newcomer in a room."""
    made = server.create()
    code = made["code"]
    manager = server.manager
    real = manager._config

    def sneaky(game: object, data: object) -> object:
        return dataclasses.replace(real(game, data), discussion_seconds=float("nan"))

    manager._config = sneaky
    try:
        r = server.http.post("/api/rooms", json={"game": "werewolf", "name": "Ada"})
    finally:
        manager._config = real
    assert r.status_code == 500, r.text
    assert r.json()["error"]["code"] == "internal"
    assert rooms_in_file(server) == 1
    assert server.call(lambda: sorted(server.manager.rooms)) == [code]

    room = server.call(lambda: server.manager.rooms[code])
    good = room.config
    room.config = dataclasses.replace(good, discussion_seconds=float("inf"))
    r = server.http.post(f"/api/rooms/{code}/join", json={"name": "Bo"})
    room.config = good
    assert r.status_code == 500, r.text
    assert [p.name for p in room.participants.values()] == ["Ada"]
    assert [s.participant for s in room.seats].count(None) == len(room.seats) - 1
    stored = server.call(server.manager.store.load_rooms)
    assert [p["name"] for p in stored[0]["participants"]] == ["Ada"]


def test_a_socket_message_keeps_every_whole_number_exact(server: Server) -> None:
    made = server.create()
    client = Client(server, made["code"], made["token"])
    huge = "123456789012345678901234567890"
    client.send('{"type": "action", "id": "n2", "version": N}'.replace("N", huge))
    # a whole number, however large, is a version: the action is refused for what it lacks
    msg = client.expect("rejected")
    assert msg["id"] == "n2"
    assert msg["error"]["code"] == "invalid_message"
    assert '"action"' in msg["error"]["message"]
    client.close()


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "action", "id": "a1", "version": 12, "action": {"name": "vote", "args": [3]}}',
        '{"a": 1, "a": 2}',
        "123456789012345678901234567890",
        "-9223372036854775809",
        "18446744073709551615",
        "[1.5e-400, -0.0, 0.1, 1E5, 2.2250738585072014e-308]",
        "1.7976931348623157e308",
        '"\\ud83d\\ude00 \\u00e9 \\u0000"',
        '"\\ud800"',
        "[" * 600 + "]" * 600,
        " {} ",
    ],
)
def test_parse_json_reads_every_text_as_the_standard_library_does(text: str) -> None:
    value = json.loads(text)
    for given in (text, text.encode("utf-8", "surrogatepass")):
        parsed = parse_json(given)
        assert parsed == value
        assert repr(parsed) == repr(value)  # the same types too: no whole number became a float


@pytest.mark.parametrize(
    "text", ["NaN", "[Infinity]", "1e400", '{"a": -1e999}', "[1,]", "{} x", ""]
)
def test_parse_json_refuses_what_is_not_json_or_not_finite(text: str) -> None:
    with pytest.raises(ValueError):
        parse_json(text)
