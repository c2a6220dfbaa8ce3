"""A table screen comes in only with the host's say-so: one that asks waits, gets no view, and
is let in or turned away on the host's screen; one that opens the host's table-screen link
comes in at once. And the host chooses which device reads the narration aloud."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import Client, Server


def error_code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def entry(room: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p for p in room["participants"] if p["id"] == pid)


def live_room(server: Server) -> tuple[str, str]:
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    r = server.host(
        "POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": 3}
    )
    assert r.status_code == 200, r.text
    return code, token


def views(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.received if m["type"] == "view"]


def test_a_table_that_asks_gets_no_view_until_the_host_lets_it_in(server: Server) -> None:
    code, token = live_room(server)
    host = Client(server, code, token)
    asked = server.join(code, "Wall", "table", ask=True)
    pid = asked["participant"]
    assert entry(asked["room"], pid)["pending"] is True
    wall = Client(server, code, asked["token"])
    wall.sync()
    assert not views(wall), "a table screen the host has not let in is sent no view"
    assert wall.room is not None and entry(wall.room, pid)["pending"] is True
    # nothing the host does in the match reaches it either
    host.expect("view")
    r = server.host("POST", f"/api/rooms/{code}/pause", token)
    assert r.status_code == 200
    host.expect("view", paused=True)
    wall.sync()
    assert not views(wall)
    # the host's screen lists it, named, waiting
    host.wait(
        lambda: host.room is not None and any(p["id"] == pid for p in host.room["participants"])
    )
    assert host.room is not None
    assert entry(host.room, pid)["name"] == "Wall" and entry(host.room, pid)["pending"] is True

    r = server.host(
        "POST", f"/api/rooms/{code}/participants/{pid}/admit", token, json={"admit": True}
    )
    assert r.status_code == 200, r.text
    assert "pending" not in entry(r.json()["room"], pid)
    seen = wall.expect("view")
    assert seen["view"]["phase"] == "night" and seen["legal"] == []
    assert "role" not in str(seen["view"]["seats"]), "a table sees no card"


def test_the_host_turns_a_table_away_and_it_learns_nothing(server: Server) -> None:
    code, token = live_room(server)
    asked = server.join(code, "Snoop", "table", ask=True)
    pid = asked["participant"]
    snoop = Client(server, code, asked["token"])
    snoop.sync()
    r = server.host(
        "POST", f"/api/rooms/{code}/participants/{pid}/admit", token, json={"admit": False}
    )
    assert r.status_code == 200, r.text
    assert pid not in {p["id"] for p in r.json()["room"]["participants"]}
    closed = snoop.expect("closed")
    assert closed == {"type": "closed", "reason": "refused"}
    assert not views(snoop)
    # its token is gone: it cannot come back by reconnecting
    gone = server.http.get(
        f"/api/rooms/{code}/me", headers={"Authorization": f"Bearer {asked['token']}"}
    )
    assert gone.status_code == 401 and error_code(gone) == "unauthorized"
    # a second refusal of the same request says only that nobody waits
    again = server.host(
        "POST", f"/api/rooms/{code}/participants/{pid}/admit", token, json={"admit": False}
    )
    assert again.status_code == 404 and error_code(again) == "participant_not_found"


def test_the_hosts_table_link_lets_one_screen_in_at_once(server: Server) -> None:
    code, token = live_room(server)
    r = server.host("POST", f"/api/rooms/{code}/table-link", token)
    assert r.status_code == 200, r.text
    link = r.json()
    assert link["link"].endswith(f"#/t/{code}/{link['key']}")
    assert link["qr"].startswith("<svg")
    body = {"name": "Wall", "role": "table", "table_key": link["key"]}
    first = server.http.post(f"/api/rooms/{code}/join", json=body)
    assert first.status_code == 201, first.text
    assert "pending" not in entry(first.json()["room"], first.json()["participant"])
    wall = Client(server, code, first.json()["token"])
    assert wall.expect("view")["view"]["phase"] == "night"
    # the link lets one screen in: the next one with it asks like anyone
    second = server.http.post(f"/api/rooms/{code}/join", json={**body, "name": "Wall 2"})
    assert second.status_code == 201
    assert entry(second.json()["room"], second.json()["participant"])["pending"] is True
    # a made-up key is no better than none
    guess = server.http.post(
        f"/api/rooms/{code}/join", json={**body, "name": "Wall 3", "table_key": "x" * 32}
    )
    assert entry(guess.json()["room"], guess.json()["participant"])["pending"] is True
    # a key is for table screens only
    player = server.http.post(
        f"/api/rooms/{code}/join",
        json={"name": "Pat", "role": "spectator", "table_key": link["key"]},
    )
    assert player.status_code == 400 and "table_key" in player.json()["error"]["message"]


def test_only_the_host_lets_a_table_in_or_gets_a_table_link(server: Server) -> None:
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    bea = server.join(code, "Bea")
    asked = server.join(code, "Wall", "table", ask=True)
    pid = asked["participant"]
    for other in (bea["token"], asked["token"]):
        r = server.host(
            "POST", f"/api/rooms/{code}/participants/{pid}/admit", other, json={"admit": True}
        )
        assert r.status_code == 403 and error_code(r) == "not_host"
        r = server.host("POST", f"/api/rooms/{code}/table-link", other)
        assert r.status_code == 403 and error_code(r) == "not_host"
    r = server.http.post(f"/api/rooms/{code}/participants/{pid}/admit", json={"admit": True})
    assert r.status_code == 401
    assert entry(server.http.get(f"/api/rooms/{code}").json(), pid)["pending"] is True
    # a waiting table cannot be made host or narrator, and the host cannot let in a player
    r = server.host("POST", f"/api/rooms/{code}/host", token, json={"participant": pid})
    assert r.status_code == 409 and error_code(r) == "pending"
    r = server.host("PUT", f"/api/rooms/{code}/narrator", token, json={"participant": pid})
    assert r.status_code == 409 and error_code(r) == "pending"
    r = server.host(
        "POST",
        f"/api/rooms/{code}/participants/{bea['participant']}/admit",
        token,
        json={"admit": True},
    )
    assert r.status_code == 409 and error_code(r) == "not_pending"


def test_the_creator_of_a_room_may_be_its_table_screen(server: Server) -> None:
    made = server.create(role="table")
    assert "pending" not in made["room"]["participants"][0]


@pytest.mark.parametrize("restart", [False, True])
def test_the_host_chooses_the_narrating_device_and_the_room_keeps_it(
    make_server: Any, tmp_path: Any, restart: bool
) -> None:
    server = make_server(db=tmp_path / "narrator.sqlite3")
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    bea = server.join(code, "Bea")
    wall = server.join(code, "Wall", "table")
    assert server.http.get(f"/api/rooms/{code}").json()["narrator"] is None
    r = server.host(
        "PUT", f"/api/rooms/{code}/narrator", token, json={"participant": bea["participant"]}
    )
    assert r.status_code == 200 and r.json()["room"]["narrator"] == bea["participant"]
    r = server.host(
        "PUT", f"/api/rooms/{code}/narrator", bea["token"], json={"participant": bea["participant"]}
    )
    assert r.status_code == 403 and error_code(r) == "not_host"
    r = server.host("PUT", f"/api/rooms/{code}/narrator", token, json={"participant": "p99"})
    assert r.status_code == 404 and error_code(r) == "participant_not_found"
    if restart:
        server.stop()
        server = make_server(db=tmp_path / "narrator.sqlite3")
    assert server.http.get(f"/api/rooms/{code}").json()["narrator"] == bea["participant"]
    # the host may change it during the match, and back to the default
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random"})
    r = server.host(
        "PUT", f"/api/rooms/{code}/narrator", token, json={"participant": wall["participant"]}
    )
    assert r.status_code == 200 and r.json()["room"]["narrator"] == wall["participant"]
    # a device that leaves the room is no longer chosen
    server.host("POST", f"/api/rooms/{code}/participants/{wall['participant']}/kick", token)
    assert server.http.get(f"/api/rooms/{code}").json()["narrator"] is None
