"""In a room the host picks the built-in categories, my lists and community lists per
difficulty; the server copies the words into the Werewords configuration."""

from __future__ import annotations

from typing import Any

from tests.wordlists.conftest import Api
from wolfden import games
from wolfden.engine.config import config_to_json
from wolfden.games.werewords.rules import FINDS_SEER
from wolfden.words.builtin import pool

BIRDS = ["Kingfisher", "Nuthatch", "Wren", "Goldcrest"]


def room(api: Api, game: str = "werewords") -> tuple[str, str]:
    made = api.ok("POST", "/api/rooms", {"game": game, "name": "Host"})
    return made["code"], made["token"]


def choose(api: Api, code: str, token: str, body: dict[str, Any], key: str | None = None):
    headers = {"X-Profile-Key": key} if key else {}
    return api.call("PUT", f"/api/rooms/{code}/words", body, token, headers=headers)


def birds(api: Api) -> tuple[str, int]:
    ada = api.profile("Ada")
    list_id = api.new_list(ada, "Birds", BIRDS, difficulty="medium")
    return ada, int(api.publish(ada, list_id, title="Garden birds")["id"])


def match_config(api: Api, code: str) -> dict[str, Any]:
    """The configuration the room's next match gets (the room summary does not show words)."""
    manager = api.client.app.state.manager
    room_now = manager.get(code)
    config = room_now.config
    for complete in manager.match_config:
        config = complete(room_now, config)
    return config_to_json(config)


def mayor_choices(config: Any) -> tuple[str, ...]:
    """Deal until the Mayor is not a Seer, play the night to the word choice."""
    game = games.get("werewords")
    for seed in range(200):
        state = game.setup(config, seed)
        if state.role(state.mayor) not in FINDS_SEER:
            break
    while not state.candidates:
        seat = min(game.actors(state), key=lambda s: -1 if s is None else s)
        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    return tuple(state.candidates)


def test_a_community_list_alone_feeds_the_mayors_choices(api: Api) -> None:
    _, item = birds(api)
    code, token = room(api)
    body = {"builtin": [], "lists": [{"source": "community", "id": item}]}
    chosen = choose(api, code, token, body)
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["sizes"]["medium"] == 4
    api.ok("POST", f"/api/rooms/{code}/start", {"fill_with": "rules", "seed": 7}, token)
    match = api.client.app.state.manager.get(code).match
    assert match.state.config.words_medium == tuple(BIRDS)
    assert match.state.config.words_easy == ()
    assert set(mayor_choices(match.state.config)) <= set(BIRDS)


def test_the_players_cannot_read_the_chosen_words_in_the_room(api: Api) -> None:
    _, item = birds(api)
    code, token = room(api)
    body = {"builtin": [], "lists": [{"source": "community", "id": item}]}
    assert "Kingfisher" not in choose(api, code, token, body).text
    assert "Kingfisher" not in api.call("GET", f"/api/rooms/{code}").text
    assert "Kingfisher" not in api.call("GET", f"/api/rooms/{code}/words").text
    assert match_config(api, code)["words_medium"] == BIRDS


def test_my_list_needs_my_profile_key(api: Api) -> None:
    ada = api.profile("Ada")
    mine = api.new_list(ada, "Family", ["Grandma", "Uncle Bob"], difficulty="easy")
    code, token = room(api)
    body = {"builtin": [], "lists": [{"source": "mine", "id": mine}]}
    assert choose(api, code, token, body).status_code == 403
    assert choose(api, code, token, body, key=api.profile("Bea")).status_code == 404
    assert choose(api, code, token, body, key=ada).status_code == 200
    assert match_config(api, code)["words_easy"] == ["Grandma", "Uncle Bob"]


def test_built_in_words_stay_beside_a_list_where_the_host_keeps_them(api: Api) -> None:
    _, item = birds(api)
    code, token = room(api)
    body = {
        "categories": ["animals"],
        "builtin": ["medium"],
        "max_age": "all",
        "lists": [{"source": "community", "id": item, "difficulty": "hard"}],
    }
    shown = choose(api, code, token, body).json()["room"]["config"]
    assert (shown["categories"], shown["max_age"]) == (["animals"], "all")
    config = match_config(api, code)
    assert config["words_hard"] == BIRDS
    assert config["words_medium"] == []  # nothing chosen here: the game draws built-in words
    body["builtin"] = ["hard"]
    choose(api, code, token, body)
    config = match_config(api, code)
    builtin = pool("hard", ("animals",), "all")
    assert config["words_hard"][: len(builtin)] == list(builtin)
    assert {w.casefold() for w in config["words_hard"]} == {
        w.casefold() for w in (*builtin, *BIRDS)
    }


def test_one_list_may_feed_several_difficulties(api: Api) -> None:
    _, item = birds(api)
    code, token = room(api)
    lists = [{"source": "community", "id": item, "difficulty": d} for d in ("easy", "medium")]
    choose(api, code, token, {"builtin": [], "lists": lists})
    config = match_config(api, code)
    assert config["words_easy"] == config["words_medium"] == BIRDS


def test_a_list_rated_above_the_rooms_age_limit_is_refused(api: Api) -> None:
    ada = api.profile("Ada")
    list_id = api.new_list(ada, "Cellar", ["Merlot"], age="adults")
    item = api.publish(ada, list_id)["id"]
    code, token = room(api)
    body = {"max_age": "10+", "lists": [{"source": "community", "id": item}]}
    r = choose(api, code, token, body)
    assert r.status_code == 400
    assert "above the room's limit" in r.json()["error"]["message"]


def test_only_the_host_chooses_and_only_for_werewords(api: Api) -> None:
    code, _ = room(api)
    guest = api.ok("POST", f"/api/rooms/{code}/join", {"name": "Guest"})["token"]
    assert choose(api, code, guest, {}).status_code == 403
    assert choose(api, code, "", {}).status_code == 401
    other, token = room(api, "werewolf")
    assert choose(api, other, token, {}).status_code == 400


def test_the_room_remembers_the_chosen_sources(api: Api) -> None:
    _, item = birds(api)
    code, token = room(api)
    choose(api, code, token, {"builtin": [], "lists": [{"source": "community", "id": item}]})
    shown = api.ok("GET", f"/api/rooms/{code}/words")
    assert shown["selection"]["lists"] == [
        {"source": "community", "id": item, "name": "Garden birds", "difficulty": "medium"}
    ]


def test_the_choice_survives_a_restart(api: Api, db) -> None:
    from fastapi.testclient import TestClient

    from tests.wordlists.conftest import ADMIN
    from wolfden.server.app import create_app
    from wolfden.server.settings import Settings

    _, item = birds(api)
    code, token = room(api)
    choose(api, code, token, {"builtin": [], "lists": [{"source": "community", "id": item}]})
    again = create_app(Settings(db=db, web_dir=None, admin_token=ADMIN))
    with TestClient(again) as client:
        shown = client.get(f"/api/rooms/{code}/words").json()
        assert shown["selection"]["lists"][0]["name"] == "Garden birds"
        manager = client.app.state.manager
        room_now = manager.get(code)
        assert manager.match_config[-1](room_now, room_now.config).words_medium == tuple(BIRDS)


def test_guessing_room_codes_here_is_limited_like_in_the_lobby(api: Api) -> None:
    statuses = [api.call("GET", f"/api/rooms/ZZZZ{i:02d}/words").status_code for i in range(25)]
    assert statuses[0] == 404
    assert statuses[-1] == 429
