"""Rooms and match logs in SQLite (WAL): what the server needs to survive a crash.

A room is one JSON document (seats, participants with token hashes, settings) rewritten on every
lobby change. A match is a row plus its action log; every action is appended and committed in
its own transaction together with the phase timing it implies, so after ``kill -9`` a restarted
server folds the log and resumes exactly at the last committed action.

The database file is shared with other components; this module owns the tables ``rooms``,
``matches`` and ``match_actions`` and records its schema version as component ``rooms`` in
``wolfden_schema``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

COMPONENT = "rooms"


def default_db_path() -> Path:
    """``wolfden.sqlite3`` in the user's data directory (created when missing)."""
    base = Path(platformdirs.user_data_dir("wolfden", appauthor=False))
    base.mkdir(parents=True, exist_ok=True)
    return base / "wolfden.sqlite3"


class StorageError(RuntimeError):
    """The database could not be read or written (disk full, locked file, ...)."""


def _v1(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE rooms (
            code TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            status TEXT NOT NULL,
            data TEXT NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL)"""
    )
    db.execute(
        """CREATE TABLE matches (
            id TEXT PRIMARY KEY,
            room TEXT NOT NULL,
            game TEXT NOT NULL,
            version TEXT NOT NULL,
            config TEXT NOT NULL,
            seed TEXT NOT NULL,
            meta TEXT NOT NULL,
            started REAL NOT NULL,
            ended REAL,
            outcome TEXT,
            phase_seq INTEGER NOT NULL,
            phase_started REAL NOT NULL,
            paused_at REAL)"""
    )
    db.execute("CREATE INDEX matches_by_room ON matches(room)")
    db.execute(
        """CREATE TABLE match_actions (
            match TEXT NOT NULL,
            idx INTEGER NOT NULL,
            seat INTEGER,
            action TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (match, idx)) WITHOUT ROWID"""
    )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1]
"""Schema migrations of this component, in order; version N is ``MIGRATIONS[:N]`` applied."""


def connect(path: str | Path) -> sqlite3.Connection:
    """Open the shared database in WAL mode (``:memory:`` works for tests)."""
    try:
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout = 5000")
        db.execute("PRAGMA journal_mode = WAL")
        # NORMAL in WAL mode: a committed transaction survives a crash of the process;
        # only a power cut may lose the last ones.
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute(
            "CREATE TABLE IF NOT EXISTS wolfden_schema "
            "(component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
        )
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {path}: {exc}") from exc
    return db


def migrate(db: sqlite3.Connection) -> int:
    """Bring this component's tables to the newest schema; returns the version."""
    row = db.execute("SELECT version FROM wolfden_schema WHERE component = ?", (COMPONENT,))
    found = row.fetchone()
    current = found[0] if found else 0
    if current > len(MIGRATIONS):
        raise StorageError(
            f"the database was written by a newer wolfden (rooms schema {current}, "
            f"this one knows up to {len(MIGRATIONS)}); upgrade wolfden or use another --db"
        )
    for version in range(current, len(MIGRATIONS)):
        db.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[version](db)
            db.execute(
                "INSERT INTO wolfden_schema (component, version) VALUES (?, ?) "
                "ON CONFLICT(component) DO UPDATE SET version = excluded.version",
                (COMPONENT, version + 1),
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    return len(MIGRATIONS)


@dataclass
class StoredMatch:
    id: str
    room: str
    game: str
    version: str
    config: dict[str, Any]
    seed: int
    meta: dict[str, Any]
    started: float
    ended: float | None
    outcome: dict[str, Any] | None
    phase_seq: int
    phase_started: float
    paused_at: float | None
    actions: list[tuple[int | None, str, float]] = field(default_factory=list)


class RoomStore:
    """The server's persistence: rooms and match logs. Every write commits before it returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.db = connect(path)
        self._lock = threading.Lock()
        try:
            migrate(self.db)
        except sqlite3.Error as exc:
            raise StorageError(f"cannot prepare the database {path}: {exc}") from exc

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StorageError(f"the database is not writable: {exc}") from exc
            try:
                yield self.db
            except sqlite3.Error as exc:
                self._rollback()
                raise StorageError(f"could not save: {exc}") from exc
            except BaseException:
                self._rollback()
                raise
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise StorageError(f"could not save: {exc}") from exc

    def _rollback(self) -> None:
        """Undo the open transaction, if SQLite has not already (it does on a full disk)."""
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    # -- rooms ----------------------------------------------------------------------

    def save_room(
        self, code: str, game: str, status: str, data: dict[str, Any], now: float
    ) -> None:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        with self._tx() as db:
            db.execute(
                "INSERT INTO rooms (code, game, status, data, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(code) DO UPDATE SET "
                "game = excluded.game, status = excluded.status, data = excluded.data, "
                "updated = excluded.updated",
                (code, game, status, text, now, now),
            )

    def room_exists(self, code: str) -> bool:
        with self._lock:
            return (
                self.db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone()
                is not None
            )

    def load_rooms(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self.db.execute("SELECT data FROM rooms ORDER BY created").fetchall()
        return [json.loads(r[0]) for r in rows]

    # -- matches --------------------------------------------------------------------

    def create_match(self, m: StoredMatch) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO matches (id, room, game, version, config, seed, meta, started, "
                "ended, outcome, phase_seq, phase_started, paused_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, NULL)",
                (
                    m.id,
                    m.room,
                    m.game,
                    m.version,
                    json.dumps(m.config),
                    str(m.seed),
                    json.dumps(m.meta, ensure_ascii=False),
                    m.started,
                    m.phase_seq,
                    m.phase_started,
                ),
            )

    def append_action(
        self,
        match_id: str,
        idx: int,
        seat: int | None,
        action: str,
        at: float,
        *,
        phase_seq: int,
        phase_started: float,
        new_phase: bool = True,
        ended: float | None = None,
        outcome: dict[str, Any] | None = None,
    ) -> None:
        """Append one action and the timing it implies, committed before it returns.

        Within a phase that goes on, the single INSERT is its own transaction; an action that
        starts a phase or ends the match also updates the match row in the same transaction.
        """
        row = (match_id, idx, seat, action, at)
        if not new_phase and ended is None:
            with self._lock:
                try:
                    self.db.execute(
                        "INSERT INTO match_actions (match, idx, seat, action, at) "
                        "VALUES (?, ?, ?, ?, ?)",
                        row,
                    )
                except sqlite3.Error as exc:
                    raise StorageError(f"could not save: {exc}") from exc
            return
        with self._tx() as db:
            db.execute(
                "INSERT INTO match_actions (match, idx, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                row,
            )
            db.execute(
                "UPDATE matches SET phase_seq = ?, phase_started = ?, ended = ?, outcome = ? "
                "WHERE id = ?",
                (
                    phase_seq,
                    phase_started,
                    ended,
                    None if outcome is None else json.dumps(outcome, ensure_ascii=False),
                    match_id,
                ),
            )

    def set_clock(self, match_id: str, phase_started: float, paused_at: float | None) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE matches SET phase_started = ?, paused_at = ? WHERE id = ?",
                (phase_started, paused_at, match_id),
            )

    def end_match(self, match_id: str, ended: float, outcome: dict[str, Any]) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE matches SET ended = ?, outcome = ?, paused_at = NULL WHERE id = ?",
                (ended, json.dumps(outcome, ensure_ascii=False), match_id),
            )

    def load_match(self, match_id: str) -> StoredMatch | None:
        with self._lock:
            row = self.db.execute(
                "SELECT id, room, game, version, config, seed, meta, started, ended, outcome, "
                "phase_seq, phase_started, paused_at FROM matches WHERE id = ?",
                (match_id,),
            ).fetchone()
            if row is None:
                return None
            actions = self.db.execute(
                "SELECT seat, action, at FROM match_actions WHERE match = ? ORDER BY idx",
                (match_id,),
            ).fetchall()
        return StoredMatch(
            id=row[0],
            room=row[1],
            game=row[2],
            version=row[3],
            config=json.loads(row[4]),
            seed=int(row[5]),
            meta=json.loads(row[6]),
            started=row[7],
            ended=row[8],
            outcome=None if row[9] is None else json.loads(row[9]),
            phase_seq=row[10],
            phase_started=row[11],
            paused_at=row[12],
            actions=[(a[0], a[1], a[2]) for a in actions],
        )
