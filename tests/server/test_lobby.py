"""The lobby over REST: rooms, names, seats, bots, host controls, errors people understand."""

from __future__ import annotations

import re
from typing import Any

from tests.server.conftest import Client, Server
from wolfden.engine import describe_options
from wolfden.games import werewolf
from wolfden.server.rooms import CODE_ALPHABET


def error_of(r: Any) -> dict[str, str]:
    body = r.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["message"]
    return dict(body["error"])


def test_games_list_their_options_seats_and_bots(server: Server) -> None:
    listed = {g["id"]: g for g in server.http.get("/api/games").json()}
    ww = listed["werewolf"]
    assert ww["options"] == describe_options(werewolf.Config)
    assert ww["seats"] == 7 and ww["bots"][0] == "random"
    assert server.http.get("/api/games/werewolf").json() == ww
    assert error_of(server.http.get("/api/games/chess"))["code"] == "game_not_found"


def test_a_room_code_is_six_unambiguous_characters(server: Server) -> None:
    codes = {server.create(name=f"Host {i}")["code"] for i in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert re.fullmatch(f"[{CODE_ALPHABET}]{{6}}", code)
        assert not set(code) & set("01OIL")


def test_codes_are_read_in_any_case(server: Server) -> None:
    code = server.create()["code"]
    assert server.http.get(f"/api/rooms/{code.lower()}").json()["code"] == code


def test_the_creator_is_host_and_sits_in_the_first_seat(server: Server) -> None:
    made = server.create(name="  Ada  ")
    room = made["room"]
    assert room["participants"] == [
        {"id": "p1", "name": "Ada", "role": "player", "seat": 0, "host": True, "connected": False}
    ]
    assert room["seats"][0]["name"] == "Ada"
    assert len(room["seats"]) == 7 and room["status"] == "lobby"
    assert len(made["token"]) >= 22  # at least 128 bits


def test_names_are_trimmed_one_to_24_characters_and_unique(server: Server) -> None:
    code = server.create(name="Ada")["code"]
    for name, expected in [
        ("", "bad_name"),
        ("   ", "bad_name"),
        ("x" * 25, "bad_name"),
        ("a\nb", "bad_name"),
        ("\u200b", "bad_name"),
        (" ada ", "name_taken"),
        ("ADA", "name_taken"),
    ]:
        r = server.http.post(f"/api/rooms/{code}/join", json={"name": name})
        assert r.status_code in (400, 409), (name, r.text)
        assert error_of(r)["code"] == expected, name
    ok = server.join(code, "x" * 24)
    assert ok["room"]["participants"][1]["name"] == "x" * 24
    assert server.join(code, "Zoë 🐺")["room"]["participants"][2]["name"] == "Zoë 🐺"


def test_bad_requests_get_a_readable_json_error(server: Server) -> None:
    r = server.http.post(
        "/api/rooms", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and error_of(r)["code"] == "bad_request"
    r = server.http.post("/api/rooms", json={"game": "werewolf"})
    assert error_of(r)["code"] == "bad_request" and "name" in error_of(r)["message"]
    r = server.http.post("/api/rooms", json={"game": "werewolf", "name": "A", "colour": "red"})
    assert "colour" in error_of(r)["message"]
    r = server.http.post(
        "/api/rooms", json={"game": "werewolf", "name": "A", "config": {"players": 3}}
    )
    assert r.status_code == 400 and error_of(r)["code"] == "bad_config"
    assert "from 5 to 16" in error_of(r)["message"]
    assert error_of(server.http.get("/api/rooms/ZZZZZZ"))["code"] == "room_not_found"
    assert error_of(server.http.get("/api/nothing/here"))["code"] == "not_found"


def test_players_fill_free_seats_then_the_room_is_full(server: Server) -> None:
    made = server.create(config={"players": 7})
    code = made["code"]
    for i in range(6):
        assert server.join(code, f"P{i}")["room"]["participants"][-1]["seat"] == i + 1
    r = server.http.post(f"/api/rooms/{code}/join", json={"name": "Late"})
    assert r.status_code == 409 and error_of(r)["code"] == "room_full"
    watcher = server.join(code, "Late", role="spectator")
    assert watcher["room"]["participants"][-1]["seat"] is None
    table = server.join(code, "Wall", role="table")
    assert table["room"]["participants"][-1]["role"] == "table"


def test_host_controls_need_the_host_token(server: Server) -> None:
    made = server.create()
    code = made["code"]
    guest = server.join(code, "Bea")
    r = server.host("POST", f"/api/rooms/{code}/start", guest["token"])
    assert r.status_code == 403 and error_of(r)["code"] == "not_host"
    r = server.host("POST", f"/api/rooms/{code}/start", "forged-token")
    assert r.status_code == 401 and error_of(r)["code"] == "unauthorized"
    r = server.http.post(f"/api/rooms/{code}/start")
    assert r.status_code == 401


def test_config_changes_move_the_seat_count(server: Server) -> None:
    made = server.create()
    code, token = made["code"], made["token"]
    r = server.host("PUT", f"/api/rooms/{code}/config", token, json={"config": {"players": 9}})
    assert len(r.json()["room"]["seats"]) == 9
    r = server.host("PUT", f"/api/rooms/{code}/config", token, json={"config": {"players": 20}})
    assert error_of(r)["code"] == "bad_config"
    for i in range(8):
        server.join(code, f"P{i}")
    r = server.host("PUT", f"/api/rooms/{code}/config", token, json={"config": {"players": 7}})
    assert r.status_code == 409 and error_of(r)["code"] == "seat_taken"
    assert "P6 sits in seat 8" in error_of(r)["message"]


def test_bots_are_added_and_removed_by_kind(server: Server) -> None:
    made = server.create()
    code, token = made["code"], made["token"]
    r = server.host("POST", f"/api/rooms/{code}/seats/3/bot", token, json={"kind": "random"})
    seat = r.json()["room"]["seats"][3]
    assert seat["bot"] == "random" and seat["name"] == "Bot 4"
    r = server.host("POST", f"/api/rooms/{code}/seats/3/bot", token, json={"kind": "random"})
    assert error_of(r)["code"] == "seat_taken"
    r = server.host("POST", f"/api/rooms/{code}/seats/4/bot", token, json={"kind": "genius"})
    assert error_of(r)["code"] == "bad_bot" and "random" in error_of(r)["message"]
    r = server.host("POST", f"/api/rooms/{code}/seats/99/bot", token, json={"kind": "random"})
    assert error_of(r)["code"] == "seat_not_found"
    r = server.host("DELETE", f"/api/rooms/{code}/seats/3/bot", token)
    assert r.json()["room"]["seats"][3]["bot"] is None


def test_a_player_may_sit_out_before_the_deal_and_sit_in_again(server: Server) -> None:
    made = server.create()
    code = made["code"]
    bea = server.join(code, "Bea")
    r = server.host(
        "POST",
        f"/api/rooms/{code}/participants/{bea['participant']}/seat",
        bea["token"],
        json={"seat": None},
    )
    room = r.json()["room"]
    assert room["seats"][1]["participant"] is None
    assert room["participants"][1]["seat"] is None
    r = server.host("POST", f"/api/rooms/{code}/start", made["token"])
    room = r.json()["room"]
    assert all(s["participant"] != bea["participant"] for s in room["seats"])
    r = server.host(
        "POST",
        f"/api/rooms/{code}/participants/{bea['participant']}/seat",
        bea["token"],
        json={"seat": "any"},
    )
    assert error_of(r)["code"] == "wrong_phase"


def test_only_the_host_moves_someone_else(server: Server) -> None:
    made = server.create()
    code = made["code"]
    bea, cy = server.join(code, "Bea"), server.join(code, "Cy")
    r = server.host(
        "POST",
        f"/api/rooms/{code}/participants/{cy['participant']}/seat",
        bea["token"],
        json={"seat": None},
    )
    assert r.status_code == 403 and error_of(r)["code"] == "forbidden"
    r = server.host(
        "POST",
        f"/api/rooms/{code}/participants/{cy['participant']}/seat",
        made["token"],
        json={"seat": 5},
    )
    assert r.json()["room"]["seats"][5]["participant"] == cy["participant"]


def test_kick_retires_the_token(server: Server) -> None:
    made = server.create()
    code = made["code"]
    bea = server.join(code, "Bea")
    r = server.host(
        "POST", f"/api/rooms/{code}/participants/{bea['participant']}/kick", made["token"]
    )
    assert [p["name"] for p in r.json()["room"]["participants"]] == ["Ada"]
    r = server.host("GET", f"/api/rooms/{code}/me", bea["token"])
    assert r.status_code == 401


def test_host_hands_over_the_role(server: Server) -> None:
    made = server.create()
    code = made["code"]
    bea = server.join(code, "Bea")
    server.host(
        "POST", f"/api/rooms/{code}/host", made["token"], json={"participant": bea["participant"]}
    )
    r = server.host("POST", f"/api/rooms/{code}/start", made["token"])
    assert error_of(r)["code"] == "not_host"
    assert server.host("POST", f"/api/rooms/{code}/start", bea["token"]).status_code == 200


def test_start_fills_empty_seats_with_bots_or_says_which_are_empty(server: Server) -> None:
    made = server.create()
    code, token = made["code"], made["token"]
    r = server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": None})
    assert r.status_code == 409 and error_of(r)["code"] == "seat_empty"
    r = server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random"})
    room = r.json()["room"]
    assert room["status"] == "live" and all(s["bot"] == "random" for s in room["seats"][1:])
    r = server.host("PUT", f"/api/rooms/{code}/config", token, json={"config": {"players": 8}})
    assert error_of(r)["code"] == "wrong_phase"


def test_the_match_record_is_secret_until_the_end(server: Server) -> None:
    made = server.create()
    code, token = made["code"], made["token"]
    room = server.host("POST", f"/api/rooms/{code}/start", token).json()["room"]
    r = server.http.get(f"/api/matches/{room['match']['id']}")
    assert r.status_code == 404 and error_of(r)["code"] == "match_not_found"
    server.host("POST", f"/api/rooms/{code}/end", token)
    record = server.http.get(f"/api/matches/{room['match']['id']}").json()
    assert record["game"] == "werewolf" and record["meta"]["outcome"] == {"ended_by_host": True}
    assert error_of(server.http.get("/api/matches/m-nope"))["code"] == "match_not_found"


def test_wrong_room_codes_are_rate_limited(make_server: Any) -> None:
    server = make_server(wrong_codes_per_minute=5)
    code = server.create()["code"]
    for _ in range(5):
        assert server.http.get("/api/rooms/AAAAAA").status_code == 404
    r = server.http.get(f"/api/rooms/{code}")
    assert r.status_code == 429 and error_of(r)["code"] == "too_many_attempts"


def test_settings_are_checked(server: Server) -> None:
    made = server.create()
    code, token = made["code"], made["token"]
    r = server.host(
        "PUT", f"/api/rooms/{code}/settings", token, json={"absent": "wait", "grace_seconds": 5}
    )
    assert r.json()["room"]["settings"]["absent"] == "wait"
    r = server.host("PUT", f"/api/rooms/{code}/settings", token, json={"absent": "panic"})
    assert error_of(r)["code"] == "bad_request"
    r = server.host("PUT", f"/api/rooms/{code}/settings", token, json={"grace_seconds": -1})
    assert error_of(r)["code"] == "bad_request"


def test_web_client_is_served_with_security_headers(make_server: Any, tmp_path: Any) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>wolfden</title>")
    (web / "app.js").write_text("export const x = 1;")
    (web / "style.css").write_text("body{}")
    server = make_server(web_dir=web)
    r = server.http.get("/")
    assert r.status_code == 200 and "wolfden" in r.text
    assert r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert (
        "script-src 'self'" in csp
        and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    )
    assert "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert server.http.get("/app.js").headers["content-type"].startswith("text/javascript")
    assert "wolfden" in server.http.get("/join/ABCDEF").text  # links into the client
    assert server.http.get("/missing.js").status_code == 404
    assert server.http.get("/api/nothing").json()["error"]["code"] == "not_found"
    assert server.http.get("/style.css").headers["content-type"].startswith("text/css")
    api = server.http.get("/api/games")
    assert api.headers["x-content-type-options"] == "nosniff"
    assert "swagger" not in server.http.get("/docs").text.lower()  # no API browser from a CDN
    assert server.http.get("/openapi.json").json()["paths"]["/api/rooms"]


def test_presence_shows_who_is_connected(server: Server) -> None:
    made = server.create()
    code = made["code"]
    bea = server.join(code, "Bea")
    host = Client(server, code, made["token"])
    host.expect("room")
    guest = Client(server, code, bea["token"])
    room = host.expect("room")["room"]
    while not room["participants"][1]["connected"]:
        room = host.expect("room")["room"]
    assert room["seats"][1]["connected"]
    guest.close()
    room = host.expect("room")["room"]
    while room["participants"][1]["connected"]:
        room = host.expect("room")["room"]
    host.close()


def test_start_without_a_body_fills_with_the_stand_in_bot(server: Server) -> None:
    made = server.create()
    r = server.host("POST", f"/api/rooms/{made['code']}/start", made["token"])
    assert r.status_code == 200, r.text
    assert r.json()["room"]["seats"][1]["bot"] == r.json()["room"]["settings"]["stand_in_bot"]


def test_a_person_joining_between_matches_takes_a_bots_place(server: Server) -> None:
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random"})
    r = server.http.post(f"/api/rooms/{code}/join", json={"name": "Late"})
    assert r.status_code == 409 and error_of(r)["code"] == "wrong_phase"
    server.host("POST", f"/api/rooms/{code}/end", token)
    room = server.join(code, "Late")["room"]
    assert room["seats"][1]["name"] == "Late" and room["seats"][1]["bot"] is None
    assert all(s["bot"] == "random" for s in room["seats"][2:])


def test_a_participant_leaves_and_the_token_stops_working(server: Server) -> None:
    made = server.create()
    code = made["code"]
    bea = server.join(code, "Bea")
    path = f"/api/rooms/{code}/participants/{bea['participant']}/leave"
    r = server.host("POST", path, made["token"])
    assert r.status_code == 403 and error_of(r)["code"] == "forbidden"
    r = server.host("POST", path, bea["token"])
    assert [p["name"] for p in r.json()["room"]["participants"]] == ["Ada"]
    assert r.json()["room"]["seats"][1]["participant"] is None
    assert server.host("GET", f"/api/rooms/{code}/me", bea["token"]).status_code == 401


def test_room_creation_and_room_size_are_bounded(make_server: Any) -> None:
    server = make_server(rooms_per_minute=3, max_participants=3)
    code = server.create(name="A")["code"]
    server.create(name="B")
    server.create(name="C")
    r = server.http.post("/api/rooms", json={"game": "werewolf", "name": "D"})
    assert r.status_code == 429 and error_of(r)["code"] == "too_many_attempts"
    server.join(code, "Bea")
    server.join(code, "Cy", role="spectator")
    r = server.http.post(f"/api/rooms/{code}/join", json={"name": "Dee", "role": "spectator"})
    assert r.status_code == 409 and error_of(r)["code"] == "room_full"
