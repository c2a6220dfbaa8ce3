"""Options only the host may read: Werewords' word pools, from which the Mayor's candidates are
drawn, reach no one else, neither in the room summary nor in a match record."""

from __future__ import annotations

import json
from typing import Any

from tests.server.conftest import Client, Server

POOL = ["lantern", "harbour", "meadow", "thimble", "saddle", "compass", "orchard"]


def words_room(server: Server) -> tuple[str, str]:
    made = server.create(
        game="werewords",
        name="Host",
        config={"players": 4, "word_choices": 2, "words_medium": POOL},
    )
    return made["code"], made["token"]


def pool_words_in(value: Any) -> set[str]:
    text = json.dumps(value).casefold()
    return {w for w in POOL if w in text}


def test_typed_word_pools_stay_off_what_players_and_strangers_read(server: Server) -> None:
    code, token = words_room(server)
    stranger = server.http.get(f"/api/rooms/{code}").json()
    assert pool_words_in(stranger) == set()
    assert stranger["config"]["words_medium"] == []
    assert stranger["config_withheld"] == ["words_medium"]
    joined = server.join(code, "Bo")
    assert pool_words_in(joined) == set()
    player = Client(server, code, joined["token"])
    host = Client(server, code, token)
    server.join(code, "Cy")  # a room frame to everyone
    player.expect("room")
    host.expect("room")
    assert pool_words_in(player.received) == set()
    # the host reads (and edits) the words they typed
    assert host.room is not None and host.room["config"]["words_medium"] == POOL
    me = server.host("GET", f"/api/rooms/{code}/me", token).json()
    assert me["room"]["config"]["words_medium"] == POOL
    r = server.host("GET", f"/api/rooms/{code}/me", joined["token"])
    assert pool_words_in(r.json()) == set()


def test_a_match_record_shows_only_the_words_the_match_made_public(server: Server) -> None:
    code, token = words_room(server)
    r = server.host("POST", f"/api/rooms/{code}/start", token, json={"seed": 3})
    assert r.status_code == 200, r.text
    match = r.json()["room"]["match"]["id"]
    state = server.call(lambda: server.manager.rooms[code].match.state)
    assert set(state.candidates) <= set(POOL) and state.candidates
    r = server.host("POST", f"/api/rooms/{code}/end", token)
    assert r.status_code == 200, r.text
    record = server.http.get(f"/api/matches/{match}").json()
    # ended before a word was chosen: none of the pool was played, none is shown ("Play
    # again" draws the next candidates from the same pool)
    assert pool_words_in(record) == set(), record["config"]
    assert record["meta"]["withheld"] == ["words_medium"]
