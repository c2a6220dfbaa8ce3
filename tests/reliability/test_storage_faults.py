"""A database that refuses writes or a locked database file: a clear error, nothing
half-applied, no stalled room.

A disk that takes no more writes (full or read-only) is SQLite's ``query_only`` switched on for
the server's connection; the lock is a second connection holding an exclusive transaction on
the same file.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

from tests.server.conftest import Client, Server
from wolfden.engine import OMNISCIENT, Action, config_from_json


def room_waiting_for_ada(server: Server) -> tuple[str, Client]:
    """Ada (host, seat 0) with six random bots; returns once the game waits for Ada."""
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    r = server.host(
        "POST", f"/api/rooms/{code}/start", token, json={"seed": 12, "fill_with": "random"}
    )
    assert r.status_code == 200
    ada = Client(server, code, token)
    for _ in range(50):
        server.settle()
        ada.drain()
        if ada.view and ada.view["legal"]:
            return code, ada
        at = server.call(server.clock.next_wakeup)
        server.call(lambda at=at: server.clock.set(at))
    raise AssertionError("the game never waited for Ada")


def refuse_writes(server: Server) -> None:
    """The file takes no more writes, as a read-only or full disk would."""
    server.call(lambda: server.manager.store.db.execute("PRAGMA query_only = ON"))


def allow_writes(server: Server) -> None:
    server.call(lambda: server.manager.store.db.execute("PRAGMA query_only = OFF"))


def assert_intact(server: Server, code: str) -> int:
    """The room in memory is exactly the replay of its log in the file; returns the version."""
    room = server.call(lambda: server.manager.rooms[code])
    con = sqlite3.connect(server.db)
    try:
        rows = con.execute(
            "SELECT seat, action FROM match_actions WHERE match = ? ORDER BY idx",
            (room.match.id,),
        ).fetchall()
        seed, cfg = con.execute(
            "SELECT seed, config FROM matches WHERE id = ?", (room.match.id,)
        ).fetchone()
    finally:
        con.close()
    import json

    game = room.game
    state = game.setup(config_from_json(game.Config, json.loads(cfg)), int(seed))
    for seat, text in rows:
        state, _ = game.apply(state, seat, Action.parse(text))
    assert room.match.version == len(rows)
    assert game.view(state, OMNISCIENT) == game.view(room.match.state, OMNISCIENT)
    return len(rows)


def test_a_refused_write_refuses_the_action_clearly_and_changes_nothing(server: Server) -> None:
    code, ada = room_waiting_for_ada(server)
    seen, actions = ada.view["version"], assert_intact(server, code)
    refuse_writes(server)
    ada.send({"type": "action", "id": "a", "version": seen, "action": ada.view["legal"][0]})
    answer = ada.answer("a")
    assert answer["type"] == "rejected" and answer["error"]["code"] == "unavailable", answer
    assert "could not save" in answer["error"]["message"]
    assert assert_intact(server, code) == actions
    allow_writes(server)
    ada.send({"type": "action", "id": "b", "version": seen, "action": ada.view["legal"][0]})
    assert ada.answer("b")["type"] == "accepted"
    assert assert_intact(server, code) == actions + 1


def test_a_read_only_database_refuses_lobby_changes_clearly(server: Server) -> None:
    made = server.create()
    code = made["code"]
    refuse_writes(server)
    r = server.http.post(f"/api/rooms/{code}/join", json={"name": "Late", "role": "spectator"})
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
    names = {p["name"] for p in server.http.get(f"/api/rooms/{code}").json()["participants"]}
    assert "Late" not in names
    allow_writes(server)
    r = server.http.post(f"/api/rooms/{code}/join", json={"name": "Late", "role": "spectator"})
    assert r.status_code == 201


def test_the_clock_retries_after_a_refused_write(make_server: Any) -> None:
    server = make_server(storage_retry_seconds=2.0)
    code, ada = room_waiting_for_ada(server)
    version = assert_intact(server, code)
    refuse_writes(server)
    due = ada.view["deadline"]["at"]
    server.call(lambda: server.clock.set(due))
    server.settle()
    assert assert_intact(server, code) == version  # the timeout could not be saved
    allow_writes(server)
    server.advance(2.5)
    assert assert_intact(server, code) > version  # and went through on the retry


def test_a_locked_database_file_waits_then_refuses_clearly(server: Server) -> None:
    code, ada = room_waiting_for_ada(server)
    version = ada.view["version"]
    other = sqlite3.connect(server.db, isolation_level=None, check_same_thread=False)
    # a short lock: the action waits for it and is saved
    other.execute("BEGIN EXCLUSIVE")
    releaser = threading.Timer(0.5, lambda: other.execute("COMMIT"))
    releaser.start()
    t0 = time.monotonic()
    ada.send({"type": "action", "id": "a", "version": version, "action": ada.view["legal"][0]})
    assert ada.answer("a")["type"] == "accepted"
    assert time.monotonic() - t0 >= 0.4
    releaser.join()
    server.settle()
    ada.drain()
    version = assert_intact(server, code)
    # a lock held longer than the busy timeout: a clear refusal, nothing changed
    if not ada.view["legal"]:
        return
    seen = ada.view["version"]
    other.execute("BEGIN EXCLUSIVE")
    try:
        ada.send({"type": "action", "id": "b", "version": seen, "action": ada.view["legal"][0]})
        answer = ada.answer("b", timeout=30)
    finally:
        other.execute("COMMIT")
        other.close()
    assert answer["type"] == "rejected" and answer["error"]["code"] == "unavailable"
    assert assert_intact(server, code) == version


def test_every_lobby_change_the_database_refuses_leaves_the_room_as_it_was(
    make_server: Any,
) -> None:
    server = make_server()
    made = server.create(config={"players": 7})
    code, token = made["code"], made["token"]
    bea = server.join(code, "Bea")
    server.host("POST", f"/api/rooms/{code}/seats/5/bot", token, json={"kind": "random"})
    before = server.http.get(f"/api/rooms/{code}").json()
    attempts = [
        ("PUT", f"/api/rooms/{code}/config", {"config": {"players": 9}}),
        ("PUT", f"/api/rooms/{code}/settings", {"bot_delay": 3}),
        ("POST", f"/api/rooms/{code}/seats/4/bot", {"kind": "random"}),
        ("DELETE", f"/api/rooms/{code}/seats/5/bot", None),
        ("POST", f"/api/rooms/{code}/participants/{bea['participant']}/seat", {"seat": 3}),
        ("POST", f"/api/rooms/{code}/host", {"participant": bea["participant"]}),
        ("POST", f"/api/rooms/{code}/participants/{bea['participant']}/token", None),
        ("POST", f"/api/rooms/{code}/start", {"seed": 3}),
        ("POST", f"/api/rooms/{code}/participants/{bea['participant']}/kick", None),
    ]
    refuse_writes(server)
    for method, path, body in attempts:
        r = server.host(method, path, token, json=body)
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable", (path, r.text)
        assert server.http.get(f"/api/rooms/{code}").json() == before, path
    allow_writes(server)
    assert server.host("GET", f"/api/rooms/{code}/me", bea["token"]).status_code == 200
    # what memory holds is what the file holds: a restarted server shows the same room
    server.stop()
    again = make_server(db=server.db)
    assert again.http.get(f"/api/rooms/{code}").json() == before


def test_a_full_disk_refuses_new_rooms_clearly_and_keeps_the_old_ones(server: Server) -> None:
    """The file may not grow (SQLite's max_page_count at its size, the free pages filled):
    new rooms are refused with 503 and leave nothing behind; the rooms already there play on."""
    code, ada = room_waiting_for_ada(server)
    db = server.manager.store.db

    def fill() -> None:
        db.execute("CREATE TABLE ballast (x BLOB)")
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        for size in (4000, 400, 40, 4):
            try:
                while True:
                    db.execute("INSERT INTO ballast VALUES (zeroblob(?))", (size,))
            except sqlite3.OperationalError as exc:
                assert "full" in str(exc)

    server.call(fill)
    rooms_before = set(server.call(lambda: list(server.manager.rooms)))
    for i in range(200):
        r = server.http.post("/api/rooms", json={"game": "werewolf", "name": f"Host {i}"})
        if r.status_code != 201:
            break
    else:
        raise AssertionError("the disk never filled up")
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable", r.text
    assert "could not save" in r.json()["error"]["message"]
    rooms_now = set(server.call(lambda: list(server.manager.rooms)))
    con = sqlite3.connect(server.db)
    try:
        stored = {row[0] for row in con.execute("SELECT code FROM rooms")}
    finally:
        con.close()
    assert rooms_now == stored  # nothing in memory that the file does not hold
    assert rooms_before <= rooms_now
    server.call(lambda: db.execute("PRAGMA max_page_count = 1073741823"))
    assert_intact(server, code)
    ada.drain()
    seen = ada.view["version"]
    ada.send({"type": "action", "id": "a", "version": seen, "action": ada.view["legal"][0]})
    assert ada.answer("a")["type"] == "accepted"
