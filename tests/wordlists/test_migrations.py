"""Storage: the same SQLite file as the rest of wolfden; an upgrade keeps every list."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from wolfden.server.app import create_app
from wolfden.server.settings import Settings
from wolfden.storage.community import MIGRATIONS, CommunityStore
from wolfden.storage.rooms import StorageError
from wolfden.storage.words import SqliteWordStore, WordList


def test_a_database_at_the_previous_schema_upgrades_with_its_lists_intact(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    SqliteWordStore(db).save(WordList("Family", "easy", "all", ("Grandma", "Uncle Bob")))
    old = CommunityStore(db, upto=len(MIGRATIONS) - 1)
    assert old.version == len(MIGRATIONS) - 1
    profile, key = old.create_profile("Ada")
    old.save_list(profile, WordList("Birds", "hard", "10+", ("Wren", "Nuthatch")))
    old.close()

    app = create_app(Settings(db=db, web_dir=None, admin_token="moderators-only-token"))
    with TestClient(app) as client:
        auth = {"Authorization": f"Bearer {key}"}
        mine = client.get("/api/my/lists", headers=auth).json()
        assert [(m["name"], m["difficulty"], m["age"], m["size"]) for m in mine] == [
            ("Birds", "hard", "10+", 2)
        ]
        full = client.get(f"/api/my/lists/{mine[0]['id']}", headers=auth).json()
        assert full["entries"] == ["Wren", "Nuthatch"]
        published = client.post(
            f"/api/my/lists/{mine[0]['id']}/publish",
            json={"title": "Birds", "language": "en"},
            headers=auth,
        )
        assert published.status_code == 201
    assert CommunityStore(db).version == len(MIGRATIONS)
    assert SqliteWordStore(db).get("Family").entries == ("Grandma", "Uncle Bob")


def test_a_database_from_a_newer_wolfden_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite3"
    store = CommunityStore(db)
    store.db.execute(
        "UPDATE wolfden_schema SET version = ? WHERE component = 'community'",
        (len(MIGRATIONS) + 1,),
    )
    store.close()
    with pytest.raises(StorageError, match="newer wolfden"):
        CommunityStore(db)


def test_a_database_from_before_the_library_keeps_its_lists_and_rooms(tmp_path: Path) -> None:
    db = tmp_path / "before.sqlite3"
    SqliteWordStore(db).save(WordList("Family", "easy", "all", ("Grandma",)))
    with TestClient(create_app(Settings(db=db, web_dir=None))) as client:
        code = client.post("/api/rooms", json={"game": "werewords", "name": "Ada"}).json()["code"]
    # What the previous release left: rooms and word lists, no community tables at all.
    raw = sqlite3.connect(db)
    for table in ("room_words", "library_reports", "library_ratings", "library", "admin"):
        raw.execute(f"DROP TABLE {table}")
    raw.execute("DROP TABLE profile_lists")
    raw.execute("DROP TABLE profiles")
    raw.execute("DELETE FROM wolfden_schema WHERE component = 'community'")
    raw.commit()
    raw.close()
    with TestClient(create_app(Settings(db=db, web_dir=None))) as client:
        assert client.get(f"/api/rooms/{code}").status_code == 200
        assert client.get("/api/library").json()["total"] == 0
    assert CommunityStore(db).version == len(MIGRATIONS)
    assert SqliteWordStore(db).get("Family").entries == ("Grandma",)
