"""The shared SQLite file: opening it, one transaction helper and one migration helper.

Every component keeps its own tables in one database file and records its schema version as a
row of ``wolfden_schema``, so components migrate independently.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

import platformdirs

from wolfden.storage.errors import StorageError

Migration = Callable[[sqlite3.Connection], None]


def default_db_path() -> Path:
    """``wolfden.sqlite3`` in the user's data directory (created when missing)."""
    base = Path(platformdirs.user_data_dir("wolfden", appauthor=False))
    base.mkdir(parents=True, exist_ok=True)
    return base / "wolfden.sqlite3"


def connect(path: str | Path) -> sqlite3.Connection:
    """Open the shared database in WAL mode (``:memory:`` works for tests)."""
    try:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout = 5000")
        db.execute("PRAGMA journal_mode = WAL")
        # NORMAL in WAL mode: a committed transaction survives a crash of the process;
        # only a power cut may lose the last ones.
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute(
            "CREATE TABLE IF NOT EXISTS wolfden_schema "
            "(component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
        )
    except (sqlite3.Error, OSError) as exc:
        raise StorageError(f"cannot open the database {path}: {exc}") from exc
    return db


@contextmanager
def transaction(
    db: sqlite3.Connection, lock: threading.Lock | None = None
) -> Iterator[sqlite3.Connection]:
    """One write transaction: committed when the block ends, rolled back if it raises.

    SQLite's own errors become :class:`StorageError`; other exceptions pass through after the
    rollback, so nothing is ever half-applied.
    """
    with lock if lock is not None else nullcontext():
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StorageError(f"the database is not writable: {exc}") from exc
        try:
            yield db
        except sqlite3.Error as exc:
            _rollback(db)
            raise StorageError(f"could not save: {exc}") from exc
        except BaseException:
            _rollback(db)
            raise
        try:
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            _rollback(db)
            raise StorageError(f"could not save: {exc}") from exc


def _rollback(db: sqlite3.Connection) -> None:
    """Undo the open transaction, if SQLite has not already (it does on a full disk)."""
    if db.in_transaction:
        db.execute("ROLLBACK")


def migrate(
    db: sqlite3.Connection,
    component: str,
    migrations: Sequence[Migration],
    upto: int | None = None,
) -> int:
    """Bring one component's tables to schema ``upto`` (default: the newest); returns the
    version now in the file. Each step commits with its version row or not at all."""
    target = len(migrations) if upto is None else upto
    try:
        row = db.execute(
            "SELECT version FROM wolfden_schema WHERE component = ?", (component,)
        ).fetchone()
    except sqlite3.Error as exc:
        raise StorageError(f"cannot read the schema version: {exc}") from exc
    current = row[0] if row else 0
    if current > len(migrations):
        raise StorageError(
            f"the database was written by a newer wolfden ({component} schema {current}, "
            f"this one knows up to {len(migrations)}); upgrade wolfden or use another --db"
        )
    for version in range(current, target):
        with transaction(db):
            migrations[version](db)
            db.execute(
                "INSERT INTO wolfden_schema (component, version) VALUES (?, ?) "
                "ON CONFLICT(component) DO UPDATE SET version = excluded.version",
                (component, version + 1),
            )
    return max(current, target)
