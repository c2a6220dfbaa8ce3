"""Rooms and match logs: what the server needs to survive a crash.

``RoomStore`` is the interface the match master writes through. Three implementations keep it:
``SqliteRoomStore`` (the default: an embedded SQLite file in WAL mode), ``PostgresRoomStore``
(``wolfden.storage.postgres``, for several server nodes sharing one database) and
``MemoryRoomStore`` (the in-memory twin, for unit tests). ``open_room_store`` picks one from a
path or a ``postgresql://`` address.

A room is one JSON document (seats, participants with token hashes, settings) rewritten on every
lobby change. A match is a row plus its action log; every action is appended and committed in
its own transaction together with the phase timing it implies, so after ``kill -9`` a restarted
server folds the log and resumes exactly at the last committed action.

In SQLite this module owns the tables ``rooms``, ``matches`` and ``match_actions`` and records
its schema version as component ``rooms`` in ``wolfden_schema``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from wolfden.storage.errors import StorageError
from wolfden.storage.sqlite import connect, default_db_path, migrate, transaction

COMPONENT = "rooms"


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


class RoomStore(Protocol):
    """The server's persistence: rooms and match logs. Every write is committed (or refused
    with :class:`StorageError`, leaving nothing half-written) before it returns."""

    def close(self) -> None: ...

    def save_room(
        self, code: str, game: str, status: str, data: dict[str, Any], now: float
    ) -> None:
        """Create or replace the room's document."""

    def room_exists(self, code: str) -> bool: ...

    def load_rooms(self) -> list[dict[str, Any]]:
        """Every room's document, oldest first."""

    def create_match(self, m: StoredMatch) -> None:
        """Store a new match (its action log empty)."""

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
        """Append action number ``idx`` and the timing it implies, in one transaction.

        ``idx`` must be the next free index of the log: a second writer appending the same
        index is refused, so two masters can never both extend one log."""

    def set_clock(self, match_id: str, phase_started: float, paused_at: float | None) -> None:
        """Record that the phase clock moved (paused, resumed)."""

    def end_match(self, match_id: str, ended: float, outcome: dict[str, Any]) -> None: ...

    def load_match(self, match_id: str) -> StoredMatch | None:
        """The match with its whole action log, or None when there is no such match."""


class SqliteRoomStore:
    """Rooms and match logs in the shared SQLite file (WAL mode)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.db = connect(path)
        self._lock = threading.Lock()
        migrate(self.db, COMPONENT, MIGRATIONS)

    def close(self) -> None:
        self.db.close()

    def _tx(self) -> AbstractContextManager[sqlite3.Connection]:
        return transaction(self.db, self._lock)

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
                except sqlite3.IntegrityError as exc:
                    raise StorageError(f"action {idx} of match {match_id} exists already") from exc
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


class MemoryRoomStore:
    """The in-memory twin of :class:`SqliteRoomStore`, for unit tests: the same answers to the
    same calls (tests/storage holds all implementations to one contract), nothing on disk.
    Stored values are copies, as a database's would be."""

    def __init__(self) -> None:
        self._rooms: dict[str, tuple[float, dict[str, Any]]] = {}
        self._matches: dict[str, StoredMatch] = {}

    def close(self) -> None:
        self._rooms.clear()
        self._matches.clear()

    def save_room(
        self, code: str, game: str, status: str, data: dict[str, Any], now: float
    ) -> None:
        created = self._rooms[code][0] if code in self._rooms else now
        self._rooms[code] = (created, _json_copy(data))

    def room_exists(self, code: str) -> bool:
        return code in self._rooms

    def load_rooms(self) -> list[dict[str, Any]]:
        ordered = sorted(self._rooms.values(), key=lambda item: item[0])
        return [_json_copy(doc) for _, doc in ordered]

    def create_match(self, m: StoredMatch) -> None:
        if m.id in self._matches:
            raise StorageError(f"could not save: a match {m.id} exists already")
        self._matches[m.id] = replace(
            _json_copy_match(m), ended=None, outcome=None, paused_at=None, actions=[]
        )

    def _match(self, match_id: str) -> StoredMatch:
        if match_id not in self._matches:
            raise StorageError(f"could not save: there is no match {match_id}")
        return self._matches[match_id]

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
        m = self._match(match_id)
        if idx < len(m.actions):
            raise StorageError(f"action {idx} of match {match_id} exists already")
        if idx > len(m.actions):
            raise StorageError(f"action {idx} of match {match_id} would leave a gap in its log")
        m.actions.append((seat, action, at))
        if new_phase or ended is not None:
            m.phase_seq = phase_seq
            m.phase_started = phase_started
            m.ended = ended
            m.outcome = None if outcome is None else _json_copy(outcome)

    def set_clock(self, match_id: str, phase_started: float, paused_at: float | None) -> None:
        m = self._match(match_id)
        m.phase_started = phase_started
        m.paused_at = paused_at

    def end_match(self, match_id: str, ended: float, outcome: dict[str, Any]) -> None:
        m = self._match(match_id)
        m.ended = ended
        m.outcome = _json_copy(outcome)
        m.paused_at = None

    def load_match(self, match_id: str) -> StoredMatch | None:
        m = self._matches.get(match_id)
        return None if m is None else _json_copy_match(m)


def _json_copy(value: Any) -> Any:
    """What a database would give back: a deep copy through JSON."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def _json_copy_match(m: StoredMatch) -> StoredMatch:
    return replace(
        m,
        config=_json_copy(m.config),
        meta=_json_copy(m.meta),
        outcome=None if m.outcome is None else _json_copy(m.outcome),
        actions=list(m.actions),
    )


def is_database_address(target: object) -> bool:
    """Whether ``--db`` names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def redact_password(target: str) -> str:
    """The ``--db`` value fit to print: a password in a database address becomes ``***``."""
    if not is_database_address(target):
        return target
    scheme, _, rest = target.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not at or ":" not in userinfo:
        return target
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{host}"


def open_room_store(target: str | Path | None) -> RoomStore:
    """The store for ``--db``: a ``postgresql://`` address, a SQLite path, ``:memory:``
    (an in-memory SQLite database) or None (the default file in the user's data directory)."""
    if is_database_address(target):
        assert isinstance(target, str)
        from wolfden.storage.postgres import PostgresRoomStore

        return PostgresRoomStore(target)
    return SqliteRoomStore(default_db_path() if target is None else target)


__all__ = [
    "MIGRATIONS",
    "MemoryRoomStore",
    "RoomStore",
    "SqliteRoomStore",
    "StorageError",
    "StoredMatch",
    "default_db_path",
    "is_database_address",
    "open_room_store",
    "redact_password",
]
