"""A shared device: one token holding several seats, handed from player to player.

It acts only for a seat it holds, only when the game waits for that seat and only after the
hand-over to that seat was confirmed; before that it is sent nothing private, and after it only
that one seat's view.
"""

from __future__ import annotations

import json
from typing import Any

from tests.server.conftest import Client, Server, match_of, quiet
from wolfden.engine import TABLE, Viewer
from wolfden.games import werewolf, werewords, werwoelfe_kids


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def everyone_on_the_host_device(
    server: Server, code: str, token: str, names: list[str], seed: int
) -> Client:
    """The host's own device takes every seat (whose turn it is is public), then the match
    starts; answers the device's connection once its first view has come."""
    r = server.host(
        "POST",
        f"/api/rooms/{code}/devices",
        token,
        json={"seats": "all", "names": names, "this_device": True, "secret_turns": False},
    )
    assert r.status_code == 200, r.text
    assert r.json()["token"] is None
    device = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"seed": seed})
    device.expect("view")
    return device


def kids_on_one_device(server: Server) -> tuple[str, str, Client]:
    """The host's own device holds both Werwölfe Kids teams; the match has started."""
    made = server.create(game="werwoelfe-kids", name="Mum")
    code, token = made["code"], made["token"]
    device = everyone_on_the_host_device(server, code, token, ["Village kids", "Wolf kids"], 5)
    quiet(server, code, device)
    return code, token, device


def send(client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    client.send(msg)
    return client.answer(msg["id"])


def test_the_host_makes_their_own_device_hold_every_seat(server: Server) -> None:
    _code, _token, device = kids_on_one_device(server)
    room = device.room
    assert room is not None
    me = next(p for p in room["participants"] if p["name"] == "Mum")
    assert me["role"] == "shared" and me["seats"] == [0, 1] and me["seat"] is None
    assert [s["name"] for s in room["seats"]] == ["Village kids", "Wolf kids"]
    assert all(s["participant"] == me["id"] and s["bot"] is None for s in room["seats"])


def test_before_the_hand_over_is_confirmed_the_device_gets_no_view_at_all(server: Server) -> None:
    _code, _token, device = kids_on_one_device(server)
    msg = device.view
    assert msg is not None
    assert msg["view"] is None and msg["legal"] == []
    assert msg["device"] == {
        "seats": [{"seat": 0, "name": "Village kids"}, {"seat": 1, "name": "Wolf kids"}],
        "shown": None,
        "waiting": [0],
        "secret_turns": False,
    }


def test_after_confirming_the_device_gets_exactly_that_seats_view(server: Server) -> None:
    code, _token, device = kids_on_one_device(server)
    assert send(device, {"type": "reveal", "id": "r", "seat": 0})["type"] == "accepted"
    device.wait(lambda: device.view is not None and device.view["device"]["shown"] == 0)
    m = match_of(server, code)
    assert device.view["view"] == as_json(werwoelfe_kids.view(m.state, Viewer.of(0)))
    assert device.view["legal"] == [a.to_json() for a in werwoelfe_kids.legal_actions(m.state, 0)]


def test_the_device_cannot_be_handed_to_a_seat_the_game_is_not_waiting_for(
    server: Server,
) -> None:
    _code, _token, device = kids_on_one_device(server)
    answer = send(device, {"type": "reveal", "id": "r", "seat": 1})
    assert answer["type"] == "error" and answer["error"]["code"] == "not_your_turn"
    answer = send(device, {"type": "reveal", "id": "x", "seat": 7})
    assert answer["error"]["code"] == "not_your_seat"
    device.drain()
    assert all(m["view"] is None for m in device.received if m["type"] == "view")


def test_an_action_before_the_hand_over_is_refused_and_changes_nothing(server: Server) -> None:
    code, _token, device = kids_on_one_device(server)
    version = match_of(server, code).version
    answer = send(device, {"type": "action", "id": "a", "text": "scatter"})
    assert answer["type"] == "rejected" and answer["error"]["code"] == "not_handed_over"
    answer = send(device, {"type": "action", "id": "b", "text": "scatter", "seat": 0})
    assert answer["error"]["code"] == "not_handed_over"
    assert match_of(server, code).version == version


def test_actions_for_a_seat_not_held_or_not_waited_for_are_refused(server: Server) -> None:
    code, _token, device = kids_on_one_device(server)
    send(device, {"type": "reveal", "id": "r", "seat": 0})
    version = match_of(server, code).version
    foreign = send(device, {"type": "action", "id": "a", "text": "scatter", "seat": 4})
    assert foreign["type"] == "rejected" and foreign["error"]["code"] == "not_your_seat"
    other = send(device, {"type": "action", "id": "b", "text": "haunt A1", "seat": 1})
    assert other["error"]["code"] == "not_handed_over"
    assert match_of(server, code).version == version
    done = send(device, {"type": "action", "id": "c", "text": "scatter"})
    assert done["type"] == "accepted"
    assert match_of(server, code).version == version + 1


def test_when_the_seat_is_done_the_device_is_covered_for_the_next_team(server: Server) -> None:
    code, _token, device = kids_on_one_device(server)
    send(device, {"type": "reveal", "id": "r", "seat": 0})
    send(device, {"type": "action", "id": "s", "text": "scatter"})
    send(device, {"type": "action", "id": "d", "text": "done"})
    quiet(server, code, device)
    m = match_of(server, code)
    assert werwoelfe_kids.actors(m.state) == {1}
    last = device.view
    assert last is not None
    assert last["view"] is None and last["device"]["waiting"] == [1]
    assert last["device"]["shown"] is None
    # what the action's events told the covered device is only what the table may hear
    for e in last["events"]:
        assert e["public"] is True
    send(device, {"type": "reveal", "id": "w", "seat": 1})
    device.wait(lambda: device.view is not None and device.view["device"]["shown"] == 1)
    m = match_of(server, code)
    assert device.view["view"] == as_json(werwoelfe_kids.view(m.state, Viewer.of(1)))
    views = [msg for msg in device.received if msg["type"] == "view" and msg["view"]]
    seen = {msg["device"]["shown"] for msg in views}
    assert seen == {0, 1}


def test_cover_hides_the_seat_again(server: Server) -> None:
    _code, _token, device = kids_on_one_device(server)
    send(device, {"type": "reveal", "id": "r", "seat": 0})
    assert send(device, {"type": "cover", "id": "c"})["type"] == "accepted"
    device.wait(lambda: device.view is not None and device.view["view"] is None)
    assert device.view["device"]["waiting"] == [0]


def test_a_reconnecting_shared_device_starts_covered(server: Server) -> None:
    code, token, device = kids_on_one_device(server)
    send(device, {"type": "reveal", "id": "r", "seat": 0})
    device.close()
    again = Client(server, code, token)
    again.expect("room")
    assert again.expect("view")["view"] is None


def test_when_no_held_seat_acts_the_device_shows_the_table_view(server: Server) -> None:
    made = server.create(game="werewords", name="Ada", config={"players": 4, "mode": "companion"})
    code, token = made["code"], made["token"]
    device = everyone_on_the_host_device(server, code, token, ["Ada", "Ben", "Cy", "Dee"], 2)
    assert device.view is not None and device.view["device"]["waiting"] == [0, 1, 2, 3]
    # whoever holds the Mayor card (Cy) takes the device and says so
    send(device, {"type": "reveal", "id": "r", "seat": 2})
    assert send(device, {"type": "action", "id": "c", "text": "claim"})["type"] == "accepted"
    quiet(server, code, device)
    assert device.view["device"]["shown"] == 2
    assert device.view["view"]["you"]["mayor"] is True
    while device.view["legal"]:
        send(device, {"type": "action", "id": "m", "action": device.view["legal"][0]})
        quiet(server, code, device)
    m = match_of(server, code)
    assert werewords.actors(m.state) == frozenset()
    assert device.view["device"] == {
        "seats": [{"seat": i, "name": n} for i, n in enumerate(["Ada", "Ben", "Cy", "Dee"])],
        "shown": None,
        "waiting": [],
        "secret_turns": False,
    }
    assert device.view["view"] == as_json(werewords.view(m.state, TABLE))
    assert device.view["host_actions"]


def test_only_the_host_creates_a_shared_device_and_only_over_free_seats(server: Server) -> None:
    made = server.create(game="werwoelfe-kids", name="Mum")
    code, token = made["code"], made["token"]
    bea = server.join(code, "Bea")
    r = server.host("POST", f"/api/rooms/{code}/devices", bea["token"], json={"seats": [0]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = server.host("POST", f"/api/rooms/{code}/devices", token, json={"seats": [1]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    server.host(
        "POST",
        f"/api/rooms/{code}/participants/{bea['participant']}/seat",
        token,
        json={"seat": None},
    )
    r = server.host(
        "POST", f"/api/rooms/{code}/devices", token, json={"seats": [1], "name": "Tablet"}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["token"] and body["participant"] != made["participant"]
    tablet = Client(server, code, body["token"])
    assert tablet.expect("room")["room"]["seats"][1]["name"] == "Tablet"


def test_a_player_phone_never_gets_a_device_field_and_events_say_whether_public(
    server: Server,
) -> None:
    made = server.create(game="werwoelfe-kids", name="Mum")
    code, token = made["code"], made["token"]
    phone = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"seed": 5, "fill_with": "random"})
    phone.expect("view")
    send(phone, {"type": "action", "id": "s", "text": "scatter"})
    send(phone, {"type": "action", "id": "d", "text": "done"})
    quiet(server, code, phone)
    views = [m for m in phone.received if m["type"] == "view"]
    assert all("device" not in m for m in views)
    events = [e for m in views for e in m["events"]]
    assert events and all(isinstance(e["public"], bool) for e in events)


def test_with_secret_turns_the_device_is_offered_to_every_seat_not_only_the_acting_ones(
    server: Server,
) -> None:
    """A Werewolf night on one device: offering it only to the seats that act would tell the
    table who the Werewolves, the Seer and the Guardian are."""
    made = server.create(config={"players": 7, "min_night_seconds": 0})
    code, token = made["code"], made["token"]
    r = server.host(
        "POST", f"/api/rooms/{code}/devices", token, json={"seats": "all", "this_device": True}
    )
    assert r.status_code == 200, r.text
    device = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"seed": 4})
    device.expect("view")
    m = match_of(server, code)
    actors = werewolf.actors(m.state)
    idle = min(set(range(7)) - actors)
    acting = min(actors)
    assert device.view is not None and device.view["view"] is None
    assert device.view["device"]["waiting"] == list(range(7))
    assert device.view["host_actions"] == []
    # a seat with nothing to do tonight sees its own view, and cannot act
    send(device, {"type": "reveal", "id": "i", "seat": idle})
    device.wait(lambda: device.view is not None and device.view["device"]["shown"] == idle)
    m = match_of(server, code)
    assert device.view["view"] == as_json(werewolf.view(m.state, Viewer.of(idle)))
    assert device.view["legal"] == []
    refused = send(device, {"type": "action", "id": "a", "text": "vote 1"})
    assert refused["error"]["code"] == "not_your_turn"
    send(device, {"type": "cover", "id": "c"})
    device.wait(lambda: device.view is not None and device.view["view"] is None)
    # a seat that acts tonight is handed the device the same way, acts, and is covered
    send(device, {"type": "reveal", "id": "r", "seat": acting})
    device.wait(lambda: device.view is not None and device.view["device"]["shown"] == acting)
    assert device.view["legal"]
    version = match_of(server, code).version
    seen = device.view["version"]
    done = send(device, {"type": "action", "id": "x", "action": device.view["legal"][0]})
    assert done["type"] == "accepted"
    assert match_of(server, code).version == version + 1
    device.wait(lambda: device.view is not None and device.view["version"] > seen)
    # its own action's private answer (the pack's pick, the Seer's answer) stays on its screen
    m = match_of(server, code)
    assert acting not in werewolf.actors(m.state)
    assert device.view["device"]["shown"] == acting
    assert [e for e in device.view["events"] if e["public"] is False]
    send(device, {"type": "cover", "id": "d"})
    device.wait(lambda: device.view is not None and device.view["device"]["shown"] is None)


def test_a_covered_device_is_refused_alike_for_every_held_seat_at_night(server: Server) -> None:
    """Every seat of a Werewolf table on one device, covered at night: an action for any held
    seat is refused the same way, whether that seat has a night role or not (the refusal
    would otherwise tell the table who the Werewolves, the Seer and the Guardian are)."""
    made = server.create(config={"players": 7, "min_night_seconds": 0})
    code, token = made["code"], made["token"]
    r = server.host(
        "POST", f"/api/rooms/{code}/devices", token, json={"seats": "all", "this_device": True}
    )
    assert r.status_code == 200, r.text
    device = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"seed": 4})
    device.expect("view")
    m = match_of(server, code)
    actors = werewolf.actors(m.state)
    assert actors and set(range(7)) - actors  # some seats act tonight, some do not
    codes = {}
    for seat in range(7):
        answer = send(device, {"type": "action", "id": f"a{seat}", "text": "vote 1", "seat": seat})
        codes[seat] = (answer["type"], answer["error"]["code"], answer["error"]["message"])
    assert set(codes.values()) == {("rejected", "not_handed_over", codes[0][2])}, codes
    assert match_of(server, code).version == m.version


def test_with_secret_turns_a_device_holding_no_night_role_is_offered_all_the_same(
    server: Server,
) -> None:
    """Two Werewolf players share a phone. Were it offered at night only when one of them has
    a night action, each would learn from the phone whether the other is a Werewolf, the Seer
    or the Guardian (each knows their own card)."""
    waiting = {}
    for held in ([1, 2], [1, 3]):
        made = server.create(config={"players": 7, "min_night_seconds": 0})
        code, token = made["code"], made["token"]
        r = server.host("POST", f"/api/rooms/{code}/devices", token, json={"seats": held})
        assert r.status_code == 200, r.text
        device = Client(server, code, r.json()["token"])
        server.host("POST", f"/api/rooms/{code}/start", token, json={"seed": 31})
        device.expect("view")
        quiet(server, code, device)
        m = match_of(server, code)
        roles = [werewolf.view(m.state, Viewer.of(i))["you"]["role"] for i in range(7)]
        acting = sorted(set(held) & werewolf.actors(m.state))
        assert device.view is not None and device.view["view"] is None
        waiting[tuple(acting)] = device.view["device"]["waiting"]
        assert device.view["device"]["waiting"] == held, (roles, acting)
        device.close()
    assert set(waiting) == {(), (3,)}  # the two phones differ in that, and only in that


def test_a_shared_device_that_goes_away_gets_stand_ins_for_all_its_seats_after_the_grace(
    server: Server,
) -> None:
    """The phone two players share goes flat: after the grace period bots play both their
    seats, and when the phone is back both seats are theirs again."""
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    r = server.host("POST", f"/api/rooms/{code}/devices", token, json={"seats": [1, 2]})
    assert r.status_code == 200, r.text
    device_token = r.json()["token"]
    device = Client(server, code, device_token)
    host = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"fill_with": "random", "seed": 3})
    quiet(server, code, host)
    device.close()
    host.wait(lambda: not host.seat(1)["connected"] and not host.seat(2)["connected"])
    server.advance(59)
    host.drain()
    assert not host.seat(1)["stand_in"] and not host.seat(2)["stand_in"]
    server.advance(1)
    host.wait(lambda: host.seat(1)["stand_in"] and host.seat(2)["stand_in"])
    assert not host.seat(0)["stand_in"] and not host.seat(3)["stand_in"]
    back = Client(server, code, device_token)
    host.wait(lambda: not host.seat(1)["stand_in"] and not host.seat(2)["stand_in"])
    assert host.seat(1)["connected"] and host.seat(2)["connected"]
    back.close()
