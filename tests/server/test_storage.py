"""The room store: schema versions per component, committed writes, clear errors."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from wolfden.storage.rooms import MIGRATIONS, SqliteRoomStore, StorageError, StoredMatch


def stored_match(match_id: str = "m-ABCDEF-1") -> StoredMatch:
    return StoredMatch(
        id=match_id,
        room="ABCDEF",
        game="werewolf",
        version="1",
        config={"players": 7},
        seed=2**62 + 5,
        meta={"seats": []},
        started=10.0,
        ended=None,
        outcome=None,
        phase_seq=1,
        phase_started=10.0,
        paused_at=None,
    )


def test_the_schema_version_is_recorded_per_component(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite3"
    SqliteRoomStore(db).close()
    con = sqlite3.connect(db)
    rows = con.execute("SELECT component, version FROM wolfden_schema").fetchall()
    assert ("rooms", len(MIGRATIONS)) in rows
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # another component's tables and version live beside ours untouched
    con.execute("CREATE TABLE words (w TEXT)")
    con.execute("INSERT INTO wolfden_schema VALUES ('words', 3)")
    con.commit()
    con.close()
    SqliteRoomStore(db).close()
    con = sqlite3.connect(db)
    assert (
        dict(con.execute("SELECT component, version FROM wolfden_schema").fetchall())["words"] == 3
    )


def test_a_database_from_a_newer_wolfden_is_refused_clearly(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite3"
    SqliteRoomStore(db).close()
    con = sqlite3.connect(db)
    con.execute("UPDATE wolfden_schema SET version = 99 WHERE component = 'rooms'")
    con.commit()
    con.close()
    with pytest.raises(StorageError, match="newer wolfden"):
        SqliteRoomStore(db)


def test_actions_are_committed_in_order_with_the_phase_timing(tmp_path: Path) -> None:
    store = SqliteRoomStore(tmp_path / "w.sqlite3")
    store.create_match(stored_match())
    store.append_action(
        "m-ABCDEF-1", 0, 3, "pick 4", 11.0, phase_seq=1, phase_started=10.0, new_phase=False
    )
    store.append_action("m-ABCDEF-1", 1, None, "dawn", 12.5, phase_seq=2, phase_started=12.5)
    store.close()
    again = SqliteRoomStore(tmp_path / "w.sqlite3")
    m = again.load_match("m-ABCDEF-1")
    assert m is not None
    assert m.seed == 2**62 + 5
    assert m.actions == [(3, "pick 4", 11.0), (None, "dawn", 12.5)]
    assert (m.phase_seq, m.phase_started, m.ended) == (2, 12.5, None)


def test_an_action_index_cannot_be_written_twice(tmp_path: Path) -> None:
    store = SqliteRoomStore(tmp_path / "w.sqlite3")
    store.create_match(stored_match())
    store.append_action(
        "m-ABCDEF-1", 0, 3, "pick 4", 11.0, phase_seq=1, phase_started=10.0, new_phase=False
    )
    with pytest.raises(StorageError):
        store.append_action(
            "m-ABCDEF-1", 0, 2, "pick 5", 11.0, phase_seq=1, phase_started=10.0, new_phase=False
        )
    with pytest.raises(StorageError):
        store.append_action("m-ABCDEF-1", 0, 2, "pick 5", 11.0, phase_seq=2, phase_started=11.0)
    m = store.load_match("m-ABCDEF-1")
    assert m is not None and m.actions == [(3, "pick 4", 11.0)] and m.phase_seq == 1


def test_a_read_only_database_gives_a_clear_error(tmp_path: Path) -> None:
    store = SqliteRoomStore(tmp_path / "w.sqlite3")
    store.save_room("ABCDEF", "werewolf", "lobby", {"code": "ABCDEF"}, 1.0)
    store.db.execute("PRAGMA query_only = ON")
    with pytest.raises(StorageError, match=r"could not save|not writable"):
        store.save_room("ABCDEF", "werewolf", "lobby", {"code": "ABCDEF", "x": 1}, 2.0)
    store.db.execute("PRAGMA query_only = OFF")
    assert store.load_rooms() == [{"code": "ABCDEF"}]
