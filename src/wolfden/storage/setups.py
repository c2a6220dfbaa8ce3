"""Saved game setups, each under a short code to share, in the shared SQLite database file.

A setup is stored as the game's own text for it (for Werewolf, ``werewolf=2,seer,…``); the
store checks only sizes, the game checks the text before it is saved.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from pathlib import Path
from typing import NamedTuple

from wolfden.storage.errors import StorageError
from wolfden.storage.sqlite import Migration, connect, default_db_path, migrate, transaction

COMPONENT = "setups"
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""No 0/O, 1/I/L: a code read aloud or copied by hand stays right (as room codes)."""
CODE_LENGTH = 6
MAX_NAME = 40
MAX_TEXT = 400


def _create(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE TABLE saved_setups ("
        " code TEXT PRIMARY KEY,"
        " game TEXT NOT NULL,"
        " name TEXT NOT NULL,"
        " setup TEXT NOT NULL,"
        " created REAL NOT NULL)"
    )


MIGRATIONS: tuple[Migration, ...] = (_create,)


class SavedSetup(NamedTuple):
    code: str
    game: str
    name: str
    setup: str


def normalize_code(text: str) -> str:
    """A code as a person types it: spaces and dashes dropped, upper case."""
    return "".join(ch for ch in text if ch not in " -").upper()


class SetupStore:
    """Named setups by short code."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = str(path) if path is not None else str(default_db_path())
        try:
            self.db = connect(self.path)
            self.version = migrate(self.db, COMPONENT, MIGRATIONS)
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(f"cannot open the database {self.path}: {exc}") from exc

    def close(self) -> None:
        self.db.close()

    def save(self, game: str, name: str, setup: str) -> SavedSetup:
        """Store a setup under a new code; the caller has checked the name and the text."""
        if not 1 <= len(name) <= MAX_NAME or not 1 <= len(setup) <= MAX_TEXT:
            raise ValueError("a setup's name is 1–40 characters and its text 1–400")
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            with transaction(self.db):
                taken = self.db.execute(
                    "SELECT 1 FROM saved_setups WHERE code = ?", (code,)
                ).fetchone()
                if taken is None:
                    self.db.execute(
                        "INSERT INTO saved_setups (code, game, name, setup, created) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (code, game, name, setup, time.time()),
                    )
                    return SavedSetup(code, game, name, setup)
        raise StorageError("no free setup code was found; try again")

    def load(self, code: str) -> SavedSetup | None:
        """The setup saved under this code (as a person typed it), or None."""
        try:
            row = self.db.execute(
                "SELECT code, game, name, setup FROM saved_setups WHERE code = ?",
                (normalize_code(code),),
            ).fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"cannot read saved setups: {exc}") from exc
        return None if row is None else SavedSetup(*row)
