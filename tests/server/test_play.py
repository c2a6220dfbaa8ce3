"""Whole matches of every registered game through the real server, people and bots together."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.server.conftest import Client, Server, match_of
from wolfden import games
from wolfden.cli import cli
from wolfden.engine import MatchRecord, config_from_json
from wolfden.engine.record import final_state
from wolfden.server.clock import RealClock


def play_randomly(client: Client, seed: int, done: threading.Event, errors: list[str]) -> None:
    """A scripted person: whenever the view offers legal actions, pick one of them.

    It keeps below the server's message rate, as a person tapping quickly would."""
    rng = random.Random(seed)
    acted_on = -1
    sent = 0.0
    try:
        while not done.is_set():
            try:
                msg = client.recv(timeout=0.2)
            except TimeoutError:
                continue
            if msg["type"] == "error":
                errors.append(f"error: {msg}")
            if msg["type"] != "view":
                continue
            if msg["outcome"] is not None:
                return
            if msg["version"] <= acted_on:
                continue
            # a person plays their own actions; the host also uses the moderator's controls
            kind, options = "action", msg["legal"]
            if not options and msg["host_actions"]:
                kind, options = "host_action", msg["host_actions"]
            if options:
                acted_on = msg["version"]
                time.sleep(max(0.0, sent + 0.07 - time.monotonic()))
                sent = time.monotonic()
                client.send(
                    {
                        "type": kind,
                        "id": msg["version"],
                        "version": msg["version"],
                        "action": rng.choice(options),
                    }
                )
    except Exception as exc:  # a thread must report, not die silently
        errors.append(repr(exc))


def start_room(server: Server, game_id: str, people: int, seed: int) -> tuple[str, list[Client]]:
    game = games.get(game_id)
    seats = game.num_seats(game.Config())
    made = server.create(game_id, "Host")
    code = made["code"]
    tokens = [made["token"]]
    for i in range(1, min(people, seats - 1)):
        tokens.append(server.join(code, f"Player {i}")["token"])
    clients = [Client(server, code, t) for t in tokens]
    r = server.host("POST", f"/api/rooms/{code}/start", made["token"], json={"seed": seed})
    assert r.status_code == 200, r.text
    return code, clients


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_plays_to_its_end_with_people_and_bots(
    make_server: Any, game_id: str, tmp_path: Path
) -> None:
    server = make_server(clock=RealClock(), time_scale=1000.0)
    code, clients = start_room(server, game_id, people=3, seed=11)
    done = threading.Event()
    errors: list[str] = []
    threads = [
        threading.Thread(target=play_randomly, args=(c, i, done, errors), daemon=True)
        for i, c in enumerate(clients)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    done.set()
    assert not errors
    room = server.http.get(f"/api/rooms/{code}").json()
    assert room["status"] == "finished"
    outcome = clients[0].view["outcome"]
    assert outcome is not None and "winners" in outcome
    # every person saw the same ending, and the record replays to it
    for c in clients:
        assert c.view["outcome"] == outcome
    record = MatchRecord.from_json(server.http.get(f"/api/matches/{room['match']['id']}").json())
    game = games.get(game_id)
    config_from_json(game.Config, record.config)
    replayed = game.outcome(final_state(game, record))
    assert replayed is not None and replayed.to_json() == outcome
    assert len(record.actions) == match_of(server, code).version
    assert any(seat is not None and seat >= len(clients) for seat, _ in record.actions), (
        "bots played"
    )
    # the record is what `wolfden replay` reads
    saved = tmp_path / "match.json"
    saved.write_text(json.dumps(server.http.get(f"/api/matches/{room['match']['id']}").json()))
    replayed_cli = CliRunner().invoke(cli, ["replay", str(saved)])
    assert replayed_cli.exit_code == 0, replayed_cli.output
    for c in clients:
        c.close()


def test_play_again_deals_a_new_match_with_the_same_seats(make_server: Any) -> None:
    server = make_server(clock=RealClock(), time_scale=1000.0)
    made = server.create("werewolf", "Host")
    code, token = made["code"], made["token"]
    r = server.host("POST", f"/api/rooms/{code}/start", token, json={"seed": 1})
    first = r.json()["room"]
    deadline = time.monotonic() + 30
    host = Client(server, code, token)
    while time.monotonic() < deadline:
        msg = host.recv()
        if msg["type"] == "view" and msg["legal"]:
            host.send({"type": "action", "id": 1, "action": msg["legal"][0]})
        if msg["type"] == "view" and msg["outcome"] is not None:
            break
    again = server.host("POST", f"/api/rooms/{code}/again", token)
    assert again.status_code == 200, again.text
    second = again.json()["room"]
    assert second["match"]["id"] != first["match"]["id"]
    assert [s["name"] for s in second["seats"]] == [s["name"] for s in first["seats"]]
    assert second["matches"] == [first["match"]["id"]]
    host.close()
