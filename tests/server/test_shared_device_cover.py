"""A shared device covers itself at every phase change: a private line its own move brought
(the last ballot's "your vote is in") does not keep the device on that player's view into
the next phase, where an eliminated player's view shows every card."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.server.conftest import Client, Server, match_of, quiet
from wolfden.games import werewolf


def send(client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    client.send(msg)
    return client.answer(msg["id"])


def test_the_device_is_covered_when_the_ballot_closes(server: Server) -> None:
    made = server.create(config={"players": 7, "min_night_seconds": 0})
    code, token = made["code"], made["token"]
    r = server.host(
        "POST", f"/api/rooms/{code}/devices", token, json={"seats": "all", "this_device": True}
    )
    assert r.status_code == 200, r.text
    device = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"seed": 4})
    device.expect("view")
    n = 0

    def turn(seat: int, pick: Any) -> dict[str, Any]:
        nonlocal n
        n += 1
        send(device, {"type": "reveal", "id": f"r{n}", "seat": seat})
        device.wait(lambda: device.view is not None and device.view["device"]["shown"] == seat)
        legal = device.view["legal"]
        assert (
            send(device, {"type": "action", "id": f"a{n}", "action": pick(legal)})["type"]
            == "accepted"
        )
        quiet(server, code, device)
        return device.view

    # the night: every seat with a night action acts
    while match_of(server, code).state.phase.value == "night":
        seat = min(werewolf.actors(match_of(server, code).state))
        turn(seat, lambda legal: legal[0])
        if device.view["device"]["shown"] is not None:
            send(device, {"type": "cover", "id": f"c{n}"})
            quiet(server, code, device)
    # the day: the host ends the discussion, everyone votes for the same player
    while match_of(server, code).state.phase.value == "discussion":
        send(device, {"type": "host_action", "id": "end", "text": "end_discussion"})
        quiet(server, code, device)
    state = match_of(server, code).state
    voters = sorted(werewolf.actors(state))
    target = voters[-1]
    last = None
    for seat in voters:
        choice = target if seat != target else voters[0]
        last = turn(seat, lambda legal, c=choice: next(a for a in legal if a["args"] == [c]))
        if seat != voters[-1] and device.view["device"]["shown"] is not None:
            send(device, {"type": "cover", "id": f"v{seat}"})
            quiet(server, code, device)
    assert last is not None
    assert match_of(server, code).state.phase.value != "vote"
    # the ballot closed with the last voter's own move: the device is covered all the same
    assert device.view["device"]["shown"] is None
    assert device.view["view"] is None or "you" not in device.view["view"]


def test_the_device_is_covered_when_the_door_closes_after_a_peek(
    make_server: Callable[..., Server],
) -> None:
    """Werwölfe Kids on one tablet: what the village team saw behind the door is covered by
    itself when the team closes the door, not left on the screen until someone taps "Done"."""
    server = make_server(messages_per_second=1000, message_burst=1000)  # a quick test driver
    made = server.create(game="werwoelfe-kids", name="Mum")
    code, token = made["code"], made["token"]
    r = server.host(
        "POST",
        f"/api/rooms/{code}/devices",
        token,
        json={"seats": "all", "this_device": True, "secret_turns": False},
    )
    assert r.status_code == 200, r.text
    device = Client(server, code, token)
    server.host("POST", f"/api/rooms/{code}/start", token, json={"seed": 5})
    device.expect("view")
    prefer = ("done", "scatter", "wake", "haunt", "open", "stay", "move", "roll")
    for n in range(200):
        quiet(server, code, device)
        msg = device.view
        assert msg is not None
        if msg["view"] is None:
            send(device, {"type": "reveal", "id": f"r{n}", "seat": msg["device"]["waiting"][0]})
            continue
        legal = msg["legal"]
        if not legal and msg["device"]["shown"] is None:
            server.advance(msg["deadline"]["seconds"] + 1)  # only the clock moves on
            continue
        if not legal:
            send(device, {"type": "cover", "id": f"c{n}"})
            continue
        action = min(legal, key=lambda a: prefer.index(a["name"]) if a["name"] in prefer else 99)
        send(device, {"type": "action", "id": f"a{n}", "action": action})
        quiet(server, code, device)
        after = device.view
        peeking = [a["name"] for a in after["legal"]] == ["close"]  # the door stands open
        if action["name"] == "open" and after["device"]["shown"] == 0 and peeking:
            break
    else:
        raise AssertionError("the village team never opened a door")
    assert device.view["device"]["shown"] == 0
    send(device, {"type": "action", "id": "close", "text": "close"})  # "Close the door"
    quiet(server, code, device)
    assert device.view["device"]["shown"] is None
    assert device.view["view"] is None or "you" not in device.view["view"]
