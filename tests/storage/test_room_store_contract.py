"""Every RoomStore keeps one contract: SQLite (the default), PostgreSQL and the in-memory twin
answer the same calls the same way, so the match master can run on any of them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wolfden.storage.errors import FencedOut, StorageError
from wolfden.storage.rooms import (
    MemoryRoomStore,
    RoomStore,
    SqliteRoomStore,
    StoredMatch,
    open_room_store,
)

KINDS = ["memory", "sqlite", "postgres"]


@pytest.fixture(params=KINDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RoomStore]:
    made: RoomStore
    if request.param == "memory":
        made = MemoryRoomStore()
    elif request.param == "sqlite":
        made = SqliteRoomStore(tmp_path / "rooms.sqlite3")
    else:
        server = request.getfixturevalue("postgres")
        made = open_room_store(server.new_database())
    yield made
    made.close()


def stored_match(match_id: str = "m-ABCDEF-1", room: str = "ABCDEF") -> StoredMatch:
    return StoredMatch(
        id=match_id,
        room=room,
        game="werewolf",
        version="1",
        config={"players": 7, "name": "Zoë"},
        seed=2**62 + 5,
        meta={"seats": [{"name": "Ada"}, {"name": "Émile"}]},
        started=10.0,
        ended=None,
        outcome=None,
        phase_seq=1,
        phase_started=10.0,
        paused_at=None,
    )


def test_rooms_are_saved_replaced_and_listed_oldest_first(store: RoomStore) -> None:
    assert store.load_rooms() == [] and not store.room_exists("AAAAAA")
    store.save_room("BBBBBB", "werewolf", "lobby", {"code": "BBBBBB", "n": 1}, now=5.0)
    store.save_room("AAAAAA", "werewords", "lobby", {"code": "AAAAAA", "who": "Zoë"}, now=6.0)
    store.save_room("BBBBBB", "werewolf", "playing", {"code": "BBBBBB", "n": 2}, now=7.0)
    assert store.room_exists("AAAAAA") and store.room_exists("BBBBBB")
    assert store.load_rooms() == [{"code": "BBBBBB", "n": 2}, {"code": "AAAAAA", "who": "Zoë"}]


def test_a_saved_document_is_a_copy(store: RoomStore) -> None:
    doc: dict[str, Any] = {"code": "CCCCCC", "seats": [1]}
    store.save_room("CCCCCC", "werewolf", "lobby", doc, now=1.0)
    doc["seats"].append(2)
    assert store.load_rooms() == [{"code": "CCCCCC", "seats": [1]}]


def test_a_match_log_grows_one_committed_action_at_a_time(store: RoomStore) -> None:
    assert store.load_match("m-nothing") is None
    store.create_match(stored_match())
    store.append_action(
        "m-ABCDEF-1", 0, 2, "vote 3", 11.0, phase_seq=1, phase_started=10.0, new_phase=False
    )
    store.append_action("m-ABCDEF-1", 1, None, "dawn", 12.5, phase_seq=2, phase_started=12.5)
    store.set_clock("m-ABCDEF-1", 13.0, 14.0)
    got = store.load_match("m-ABCDEF-1")
    assert got is not None
    assert got.actions == [(2, "vote 3", 11.0), (None, "dawn", 12.5)]
    assert (got.phase_seq, got.phase_started, got.paused_at) == (2, 13.0, 14.0)
    assert got.seed == 2**62 + 5 and got.meta["seats"][1]["name"] == "Émile"
    assert got.config == {"players": 7, "name": "Zoë"} and got.ended is None


def test_an_action_index_is_written_once(store: RoomStore) -> None:
    """Two masters can never both extend one log: the second writer of an index is refused
    and the log keeps the first."""
    store.create_match(stored_match())
    store.append_action("m-ABCDEF-1", 0, 1, "a", 1.0, phase_seq=1, phase_started=0.0)
    with pytest.raises(StorageError):
        store.append_action("m-ABCDEF-1", 0, 2, "b", 2.0, phase_seq=9, phase_started=2.0)
    with pytest.raises(StorageError):
        store.append_action(
            "m-ABCDEF-1", 0, 2, "b", 2.0, phase_seq=1, phase_started=0.0, new_phase=False
        )
    got = store.load_match("m-ABCDEF-1")
    assert got is not None and got.actions == [(1, "a", 1.0)] and got.phase_seq == 1


def test_ending_a_match_keeps_its_outcome_and_clears_the_pause(store: RoomStore) -> None:
    store.create_match(stored_match())
    store.set_clock("m-ABCDEF-1", 10.0, 20.0)
    store.append_action(
        "m-ABCDEF-1",
        0,
        None,
        "end",
        30.0,
        phase_seq=5,
        phase_started=30.0,
        ended=30.0,
        outcome={"winners": [0, 3]},
    )
    got = store.load_match("m-ABCDEF-1")
    assert got is not None and got.ended == 30.0 and got.outcome == {"winners": [0, 3]}
    store.end_match("m-ABCDEF-1", 31.0, {"winners": [1]})
    got = store.load_match("m-ABCDEF-1")
    assert got is not None
    assert (got.ended, got.outcome, got.paused_at) == (31.0, {"winners": [1]}, None)


def test_a_match_id_is_created_once(store: RoomStore) -> None:
    store.create_match(stored_match())
    with pytest.raises(StorageError):
        store.create_match(stored_match())


def test_open_room_store_reads_the_db_option(tmp_path: Path) -> None:
    sqlite = open_room_store(tmp_path / "x.sqlite3")
    assert isinstance(sqlite, SqliteRoomStore)
    sqlite.close()
    assert isinstance(open_room_store(":memory:"), SqliteRoomStore)


def test_a_room_has_one_master_at_a_time(store: RoomStore) -> None:
    assert store.lease("ABCDEF") is None
    first = store.acquire_lease("ABCDEF", "node-a", now=100.0, ttl=10.0)
    assert first is not None
    # another node is refused while the lease lives; the holder keeps its token
    assert store.acquire_lease("ABCDEF", "node-b", now=105.0, ttl=10.0) is None
    assert store.acquire_lease("ABCDEF", "node-a", now=105.0, ttl=10.0) == first
    assert store.renew_lease("ABCDEF", "node-a", first, now=109.0, ttl=10.0)
    assert store.acquire_lease("ABCDEF", "node-b", now=118.0, ttl=10.0) is None
    # once it runs out, another node takes over with a larger token
    second = store.acquire_lease("ABCDEF", "node-b", now=119.5, ttl=10.0)
    assert second is not None and second > first
    assert not store.renew_lease("ABCDEF", "node-a", first, now=120.0, ttl=10.0)
    held = store.lease("ABCDEF")
    assert held is not None and (held.node, held.token, held.expires) == ("node-b", second, 129.5)
    # a released lease may be taken at once
    store.release_lease("ABCDEF", "node-b", second)
    third = store.acquire_lease("ABCDEF", "node-a", now=121.0, ttl=10.0)
    assert third is not None and third > second


def test_a_master_whose_lease_was_taken_over_cannot_write(store: RoomStore) -> None:
    """A node paused past its lease wakes up and tries to go on: every write it makes with
    its old token is refused and changes nothing."""
    old = store.acquire_lease("ABCDEF", "node-a", now=0.0, ttl=5.0)
    assert old is not None
    store.save_room("ABCDEF", "werewolf", "playing", {"v": 1}, now=0.0, fence=old)
    store.create_match(stored_match(), fence=old)
    store.append_action("m-ABCDEF-1", 0, 1, "a", 1.0, phase_seq=1, phase_started=0.0, fence=old)
    store.append_action(
        "m-ABCDEF-1", 1, 2, "b", 2.0, phase_seq=1, phase_started=0.0, new_phase=False, fence=old
    )
    new = store.acquire_lease("ABCDEF", "node-b", now=10.0, ttl=5.0)
    assert new is not None
    writes = [
        lambda: store.append_action(
            "m-ABCDEF-1",
            2,
            3,
            "c",
            11.0,
            phase_seq=1,
            phase_started=0.0,
            new_phase=False,
            fence=old,
        ),
        lambda: store.append_action(
            "m-ABCDEF-1", 2, 3, "c", 11.0, phase_seq=2, phase_started=11.0, fence=old
        ),
        lambda: store.set_clock("m-ABCDEF-1", 11.0, 12.0, fence=old),
        lambda: store.end_match("m-ABCDEF-1", 12.0, {"winners": []}, fence=old),
        lambda: store.save_room("ABCDEF", "werewolf", "finished", {"v": 2}, now=12.0, fence=old),
        lambda: store.create_match(stored_match("m-ABCDEF-2"), fence=old),
    ]
    for write in writes:
        with pytest.raises(FencedOut, match="another node took it over"):
            write()
    got = store.load_match("m-ABCDEF-1")
    assert got is not None and [a[1] for a in got.actions] == ["a", "b"]
    assert got.ended is None and got.paused_at is None
    assert store.load_rooms() == [{"v": 1}] and store.load_match("m-ABCDEF-2") is None
    # the new master writes on
    store.append_action("m-ABCDEF-1", 2, 3, "c", 11.0, phase_seq=2, phase_started=11.0, fence=new)
    got = store.load_match("m-ABCDEF-1")
    assert got is not None and [a[1] for a in got.actions] == ["a", "b", "c"]


def test_one_room_is_read_back_by_its_code(store: RoomStore) -> None:
    assert store.load_room("AAAAAA") is None
    store.save_room("AAAAAA", "werewolf", "lobby", {"code": "AAAAAA", "who": "Zoë"}, now=5.0)
    store.save_room("AAAAAA", "werewolf", "live", {"code": "AAAAAA", "who": "Émile"}, now=6.0)
    assert store.load_room("AAAAAA") == {"code": "AAAAAA", "who": "Émile"}


def test_orphans_are_the_live_rooms_no_node_holds(store: RoomStore) -> None:
    for code, status, at in [
        ("LOBBYY", "lobby", 1.0),
        ("HELDDD", "live", 2.0),
        ("NEVERR", "live", 3.0),
        ("EXPIRD", "live", 4.0),
        ("GIVENN", "live", 5.0),
    ]:
        store.save_room(code, "werewolf", status, {"code": code}, now=at)
    assert store.acquire_lease("HELDDD", "a", now=100.0, ttl=10.0) is not None
    assert store.acquire_lease("EXPIRD", "a", now=80.0, ttl=10.0) is not None
    token = store.acquire_lease("GIVENN", "b", now=100.0, ttl=10.0)
    assert token is not None
    store.release_lease("GIVENN", "b", token)
    assert store.orphans(100.0) == ["NEVERR", "EXPIRD", "GIVENN"]
    assert store.orphans(200.0) == ["HELDDD", "NEVERR", "EXPIRD", "GIVENN"]
    store.save_room("NEVERR", "werewolf", "finished", {"code": "NEVERR"}, now=6.0)
    assert store.orphans(100.0) == ["EXPIRD", "GIVENN"]
