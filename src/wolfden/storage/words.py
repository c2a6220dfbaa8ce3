"""Custom word lists: a small interface, its SQLite implementation and an in-memory twin.

The SQLite store lives in the database file shared by all of wolfden (default
``wolfden.sqlite3`` in the user's data directory). This module owns the tables ``word_lists``
and ``word_entries`` and records its schema version as component ``words`` in
``wolfden_schema``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import NamedTuple, Protocol

from wolfden.storage.errors import StorageError
from wolfden.storage.sqlite import connect, default_db_path, migrate, transaction
from wolfden.words.builtin import AGES, DIFFICULTIES
from wolfden.words.validate import WordError, fold, validate_entries

COMPONENT = "words"
MAX_NAME = 60


class WordList(NamedTuple):
    name: str
    difficulty: str
    age: str
    entries: tuple[str, ...]


class WordListInfo(NamedTuple):
    name: str
    difficulty: str
    age: str
    size: int


def check_name(name: str) -> str:
    text = " ".join(name.split())
    if not text or len(text) > MAX_NAME or not text.isprintable():
        raise WordError(f"a list's name has 1 to {MAX_NAME} printable characters")
    if text.casefold().startswith("builtin"):
        raise WordError("names starting with 'builtin' belong to the built-in lists")
    return text


def check_tags(difficulty: str, age: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise WordError(f"difficulty {difficulty!r} is unknown; use {', '.join(DIFFICULTIES)}")
    if age not in AGES:
        raise WordError(f"age rating {age!r} is unknown; use {', '.join(AGES)}")


class WordStore(Protocol):
    """Where custom lists live. Names are unique, compared case-insensitively."""

    def lists(self) -> list[WordListInfo]: ...

    def get(self, name: str) -> WordList: ...

    def save(self, wordlist: WordList, *, replace: bool = False) -> WordList: ...

    def rename(self, old: str, new: str) -> None: ...

    def delete(self, name: str) -> None: ...


def prepare(wordlist: WordList) -> WordList:
    """Validate a whole list (all or nothing): the name, the tags and every entry."""
    check_tags(wordlist.difficulty, wordlist.age)
    entries = validate_entries(enumerate(wordlist.entries, 1))
    if not entries:
        raise WordError("a list needs at least one entry")
    return WordList(check_name(wordlist.name), wordlist.difficulty, wordlist.age, tuple(entries))


class MemoryWordStore:
    """The in-memory twin of the SQLite store, for tests."""

    def __init__(self) -> None:
        self._lists: dict[str, WordList] = {}

    def lists(self) -> list[WordListInfo]:
        return [
            WordListInfo(w.name, w.difficulty, w.age, len(w.entries))
            for w in sorted(self._lists.values(), key=lambda w: fold(w.name))
        ]

    def get(self, name: str) -> WordList:
        found = self._lists.get(fold(name))
        if found is None:
            raise StorageError(f"there is no word list called {name!r}")
        return found

    def save(self, wordlist: WordList, *, replace: bool = False) -> WordList:
        wordlist = prepare(wordlist)
        if fold(wordlist.name) in self._lists and not replace:
            raise StorageError(f"a list called {wordlist.name!r} exists; replace it or rename")
        self._lists[fold(wordlist.name)] = wordlist
        return wordlist

    def rename(self, old: str, new: str) -> None:
        wordlist = self.get(old)
        new = check_name(new)
        if fold(new) in self._lists and fold(new) != fold(old):
            raise StorageError(f"a list called {new!r} exists already")
        del self._lists[fold(old)]
        self._lists[fold(new)] = wordlist._replace(name=new)

    def delete(self, name: str) -> None:
        self.get(name)
        del self._lists[fold(name)]


def _v1(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE word_lists (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            folded TEXT NOT NULL UNIQUE,
            difficulty TEXT NOT NULL,
            age TEXT NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL)"""
    )
    db.execute(
        """CREATE TABLE word_entries (
            list INTEGER NOT NULL REFERENCES word_lists(id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            entry TEXT NOT NULL,
            PRIMARY KEY (list, idx)) WITHOUT ROWID"""
    )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1]
"""Schema migrations of this component, in order; version N is ``MIGRATIONS[:N]`` applied."""


class SqliteWordStore:
    """Custom lists in the shared SQLite database file (WAL mode)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = str(path) if path is not None else str(default_db_path())
        try:
            self.db = connect(self.path)
            self.version = self._migrate()
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(f"cannot open the database {self.path}: {exc}") from exc

    def close(self) -> None:
        self.db.close()

    def _migrate(self) -> int:
        return migrate(self.db, COMPONENT, MIGRATIONS)

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return transaction(self.db)

    def lists(self) -> list[WordListInfo]:
        rows = self.db.execute(
            "SELECT name, difficulty, age, (SELECT COUNT(*) FROM word_entries WHERE list = id) "
            "FROM word_lists ORDER BY folded"
        ).fetchall()
        return [WordListInfo(*row) for row in rows]

    def _row(self, name: str) -> tuple[int, str, str, str]:
        row = self.db.execute(
            "SELECT id, name, difficulty, age FROM word_lists WHERE folded = ?", (fold(name),)
        ).fetchone()
        if row is None:
            raise StorageError(f"there is no word list called {name!r}")
        return (int(row[0]), str(row[1]), str(row[2]), str(row[3]))

    def get(self, name: str) -> WordList:
        list_id, real, difficulty, age = self._row(name)
        entries = tuple(
            r[0]
            for r in self.db.execute(
                "SELECT entry FROM word_entries WHERE list = ? ORDER BY idx", (list_id,)
            )
        )
        return WordList(real, difficulty, age, entries)

    def save(self, wordlist: WordList, *, replace: bool = False) -> WordList:
        wordlist = prepare(wordlist)
        now = time.time()
        with self._transaction():
            row = self.db.execute(
                "SELECT id FROM word_lists WHERE folded = ?", (fold(wordlist.name),)
            ).fetchone()
            if row is not None and not replace:
                raise StorageError(f"a list called {wordlist.name!r} exists; replace it or rename")
            if row is not None:
                self.db.execute("DELETE FROM word_lists WHERE id = ?", (row[0],))
            cur = self.db.execute(
                "INSERT INTO word_lists (name, folded, difficulty, age, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (wordlist.name, fold(wordlist.name), wordlist.difficulty, wordlist.age, now, now),
            )
            self.db.executemany(
                "INSERT INTO word_entries (list, idx, entry) VALUES (?, ?, ?)",
                [(cur.lastrowid, i, e) for i, e in enumerate(wordlist.entries)],
            )
        return wordlist

    def rename(self, old: str, new: str) -> None:
        list_id = self._row(old)[0]
        new = check_name(new)
        with self._transaction():
            clash = self.db.execute(
                "SELECT id FROM word_lists WHERE folded = ? AND id != ?", (fold(new), list_id)
            ).fetchone()
            if clash is not None:
                raise StorageError(f"a list called {new!r} exists already")
            self.db.execute(
                "UPDATE word_lists SET name = ?, folded = ?, updated = ? WHERE id = ?",
                (new, fold(new), time.time(), list_id),
            )

    def delete(self, name: str) -> None:
        list_id = self._row(name)[0]
        with self._transaction():
            self.db.execute("DELETE FROM word_lists WHERE id = ?", (list_id,))


def open_store(path: str | Path | None = None) -> SqliteWordStore:
    return SqliteWordStore(path)


__all__: Sequence[str] = [
    "MIGRATIONS",
    "MemoryWordStore",
    "SqliteWordStore",
    "StorageError",
    "WordList",
    "WordListInfo",
    "WordStore",
    "default_db_path",
    "open_store",
]
