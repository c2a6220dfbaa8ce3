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
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from wolfden.storage.errors import FencedOut, StorageError
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


def _v2(db: sqlite3.Connection) -> None:
    """Leases: which node is each room's master, and the fencing token of its mastership."""
    db.execute(
        """CREATE TABLE room_leases (
            room TEXT PRIMARY KEY,
            node TEXT NOT NULL,
            token INTEGER NOT NULL,
            expires REAL NOT NULL)"""
    )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2]
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


MATCH_COLUMNS = (
    "id, room, game, version, config, seed, meta, started, ended, outcome, phase_seq, "
    "phase_started, paused_at"
)
"""The columns of a match row, in the order :func:`match_from_row` reads them."""


def new_match_row(m: StoredMatch) -> tuple[Any, ...]:
    """A new match's values for (id, room, game, version, config, seed, meta, started,
    phase_seq, phase_started), as every SQL store writes them."""
    return (
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
    )


def match_from_row(row: Sequence[Any], actions: Sequence[Sequence[Any]]) -> StoredMatch:
    """A match read back from its row (``MATCH_COLUMNS``) and its (seat, action, at) rows."""
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


@dataclass(frozen=True)
class Lease:
    """Who is a room's master, until when, and the fencing token of that mastership."""

    node: str
    token: int
    expires: float


class RoomStore(Protocol):
    """The server's persistence: rooms and match logs. Every write is committed (or refused
    with :class:`StorageError`, leaving nothing half-written) before it returns.

    Several server nodes may share one store. Each room then has one master at a time, under a
    lease: :meth:`acquire_lease` gives a node the room and a *fencing token*, a number that
    grows with every new master. A write given ``fence=token`` commits only while that token
    is still the room's, so a node that was paused past its lease and wakes up cannot write
    over its successor (it gets :class:`FencedOut`). Safety rests on the tokens alone; the
    nodes' clocks (``now``) only decide when a lease may be taken over. A single server passes
    no fence.
    """

    def acquire_lease(self, room: str, node: str, now: float, ttl: float) -> int | None:
        """Make ``node`` the room's master until ``now + ttl`` unless another node holds a
        lease that has not expired; the fencing token, or None when the room is taken. A
        node that already holds the lease keeps its token and extends it."""

    def renew_lease(self, room: str, node: str, token: int, now: float, ttl: float) -> bool:
        """Extend a lease still held with this token; False when it was taken over."""

    def release_lease(self, room: str, node: str, token: int) -> None:
        """Give the room up (a node shutting down), if this token still holds it."""

    def lease(self, room: str) -> Lease | None:
        """The room's lease, expired or not; None when no node ever held it."""

    def close(self) -> None: ...

    def save_room(
        self,
        code: str,
        game: str,
        status: str,
        data: dict[str, Any],
        now: float,
        *,
        fence: int | None = None,
    ) -> None:
        """Create or replace the room's document."""

    def room_exists(self, code: str) -> bool: ...

    def load_rooms(self) -> list[dict[str, Any]]:
        """Every room's document, oldest first."""

    def load_room(self, code: str) -> dict[str, Any] | None:
        """One room's document, or None when there is no such room."""

    def orphans(self, now: float) -> list[str]:
        """The codes of the rooms playing a match (status ``live``) that no node holds a
        lease on at ``now`` (it expired, was released, or was never taken), oldest first:
        the rooms another node must take over so that their clocks and bots go on."""

    def create_match(self, m: StoredMatch, *, fence: int | None = None) -> None:
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
        fence: int | None = None,
    ) -> None:
        """Append action number ``idx`` and the timing it implies, in one transaction.

        ``idx`` must be the next free index of the log: a second writer appending the same
        index is refused, so two masters can never both extend one log."""

    def set_clock(
        self,
        match_id: str,
        phase_started: float,
        paused_at: float | None,
        *,
        fence: int | None = None,
    ) -> None:
        """Record that the phase clock moved (paused, resumed)."""

    def end_match(
        self, match_id: str, ended: float, outcome: dict[str, Any], *, fence: int | None = None
    ) -> None: ...

    def load_match(self, match_id: str) -> StoredMatch | None:
        """The match with its whole action log, or None when there is no such match."""


def fenced_out(room: str, fence: int) -> FencedOut:
    return FencedOut(
        f"this server no longer runs room {room}: another node took it over (lease token "
        f"{fence} is stale); nothing was saved"
    )


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

    # -- leases ---------------------------------------------------------------------

    def acquire_lease(self, room: str, node: str, now: float, ttl: float) -> int | None:
        with self._tx() as db:
            row = db.execute(
                "SELECT node, token, expires FROM room_leases WHERE room = ?", (room,)
            ).fetchone()
            if row is None:
                token = 1
            elif row[0] == node and row[2] > now:
                token = int(row[1])
            elif row[2] > now:
                return None
            else:
                token = int(row[1]) + 1
            db.execute(
                "INSERT INTO room_leases (room, node, token, expires) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(room) DO UPDATE SET node = excluded.node, token = excluded.token, "
                "expires = excluded.expires",
                (room, node, token, now + ttl),
            )
            return token

    def renew_lease(self, room: str, node: str, token: int, now: float, ttl: float) -> bool:
        with self._tx() as db:
            cur = db.execute(
                "UPDATE room_leases SET expires = ? WHERE room = ? AND node = ? AND token = ?",
                (now + ttl, room, node, token),
            )
            return cur.rowcount == 1

    def release_lease(self, room: str, node: str, token: int) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE room_leases SET expires = 0 WHERE room = ? AND node = ? AND token = ?",
                (room, node, token),
            )

    def lease(self, room: str) -> Lease | None:
        with self._lock:
            row = self.db.execute(
                "SELECT node, token, expires FROM room_leases WHERE room = ?", (room,)
            ).fetchone()
        return None if row is None else Lease(row[0], int(row[1]), float(row[2]))

    def _check_fence(self, db: sqlite3.Connection, room: str, fence: int | None) -> None:
        if fence is None:
            return
        row = db.execute("SELECT token FROM room_leases WHERE room = ?", (room,)).fetchone()
        if row is None or int(row[0]) != fence:
            raise fenced_out(room, fence)

    def _match_room(self, db: sqlite3.Connection, match_id: str) -> str:
        row = db.execute("SELECT room FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise StorageError(f"could not save: there is no match {match_id}")
        return str(row[0])

    # -- rooms ----------------------------------------------------------------------

    def save_room(
        self,
        code: str,
        game: str,
        status: str,
        data: dict[str, Any],
        now: float,
        *,
        fence: int | None = None,
    ) -> None:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        with self._tx() as db:
            self._check_fence(db, code, fence)
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

    def load_room(self, code: str) -> dict[str, Any] | None:
        with self._lock:
            row = self.db.execute("SELECT data FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def orphans(self, now: float) -> list[str]:
        with self._lock:
            rows = self.db.execute(
                "SELECT r.code FROM rooms r LEFT JOIN room_leases l ON l.room = r.code "
                "WHERE r.status = 'live' AND (l.expires IS NULL OR l.expires <= ?) "
                "ORDER BY r.created, r.code",
                (now,),
            ).fetchall()
        return [str(r[0]) for r in rows]

    # -- matches --------------------------------------------------------------------

    def create_match(self, m: StoredMatch, *, fence: int | None = None) -> None:
        with self._tx() as db:
            self._check_fence(db, m.room, fence)
            db.execute(
                "INSERT INTO matches (id, room, game, version, config, seed, meta, started, "
                "ended, outcome, phase_seq, phase_started, paused_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, NULL)",
                new_match_row(m),
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
        fence: int | None = None,
    ) -> None:
        """Append one action and the timing it implies, committed before it returns.

        Within a phase that goes on (and with no fence to check), the single INSERT is its own
        transaction; otherwise the checks, the INSERT and the match row's update share one.
        """
        row = (match_id, idx, seat, action, at)
        insert = "INSERT INTO match_actions (match, idx, seat, action, at) VALUES (?, ?, ?, ?, ?)"
        if not new_phase and ended is None and fence is None:
            with self._lock:
                try:
                    self.db.execute(insert, row)
                except sqlite3.IntegrityError as exc:
                    raise StorageError(f"action {idx} of match {match_id} exists already") from exc
                except sqlite3.Error as exc:
                    raise StorageError(f"could not save: {exc}") from exc
            return
        with self._tx() as db:
            if fence is not None:
                self._check_fence(db, self._match_room(db, match_id), fence)
            try:
                db.execute(insert, row)
            except sqlite3.IntegrityError as exc:
                raise StorageError(f"action {idx} of match {match_id} exists already") from exc
            if new_phase or ended is not None:
                db.execute(
                    "UPDATE matches SET phase_seq = ?, phase_started = ?, ended = ?, "
                    "outcome = ? WHERE id = ?",
                    (
                        phase_seq,
                        phase_started,
                        ended,
                        None if outcome is None else json.dumps(outcome, ensure_ascii=False),
                        match_id,
                    ),
                )

    def set_clock(
        self,
        match_id: str,
        phase_started: float,
        paused_at: float | None,
        *,
        fence: int | None = None,
    ) -> None:
        with self._tx() as db:
            if fence is not None:
                self._check_fence(db, self._match_room(db, match_id), fence)
            db.execute(
                "UPDATE matches SET phase_started = ?, paused_at = ? WHERE id = ?",
                (phase_started, paused_at, match_id),
            )

    def end_match(
        self, match_id: str, ended: float, outcome: dict[str, Any], *, fence: int | None = None
    ) -> None:
        with self._tx() as db:
            if fence is not None:
                self._check_fence(db, self._match_room(db, match_id), fence)
            db.execute(
                "UPDATE matches SET ended = ?, outcome = ?, paused_at = NULL WHERE id = ?",
                (ended, json.dumps(outcome, ensure_ascii=False), match_id),
            )

    def load_match(self, match_id: str) -> StoredMatch | None:
        with self._lock:
            row = self.db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?",
                (match_id,),
            ).fetchone()
            if row is None:
                return None
            actions = self.db.execute(
                "SELECT seat, action, at FROM match_actions WHERE match = ? ORDER BY idx",
                (match_id,),
            ).fetchall()
        return match_from_row(row, actions)


class MemoryRoomStore:
    """The in-memory twin of :class:`SqliteRoomStore`, for unit tests: the same answers to the
    same calls (tests/storage holds all implementations to one contract), nothing on disk.
    Stored values are copies, as a database's would be."""

    def __init__(self) -> None:
        self._rooms: dict[str, tuple[float, dict[str, Any]]] = {}
        self._status: dict[str, str] = {}
        self._matches: dict[str, StoredMatch] = {}
        self._leases: dict[str, Lease] = {}

    def close(self) -> None:
        self._rooms.clear()
        self._status.clear()
        self._matches.clear()
        self._leases.clear()

    def acquire_lease(self, room: str, node: str, now: float, ttl: float) -> int | None:
        held = self._leases.get(room)
        if held is None:
            token = 1
        elif held.node == node and held.expires > now:
            token = held.token
        elif held.expires > now:
            return None
        else:
            token = held.token + 1
        self._leases[room] = Lease(node, token, now + ttl)
        return token

    def renew_lease(self, room: str, node: str, token: int, now: float, ttl: float) -> bool:
        held = self._leases.get(room)
        if held is None or (held.node, held.token) != (node, token):
            return False
        self._leases[room] = Lease(node, token, now + ttl)
        return True

    def release_lease(self, room: str, node: str, token: int) -> None:
        held = self._leases.get(room)
        if held is not None and (held.node, held.token) == (node, token):
            self._leases[room] = Lease(node, token, 0.0)

    def lease(self, room: str) -> Lease | None:
        return self._leases.get(room)

    def _check_fence(self, room: str, fence: int | None) -> None:
        if fence is None:
            return
        held = self._leases.get(room)
        if held is None or held.token != fence:
            raise fenced_out(room, fence)

    def save_room(
        self,
        code: str,
        game: str,
        status: str,
        data: dict[str, Any],
        now: float,
        *,
        fence: int | None = None,
    ) -> None:
        self._check_fence(code, fence)
        created = self._rooms[code][0] if code in self._rooms else now
        self._rooms[code] = (created, _json_copy(data))
        self._status[code] = status

    def room_exists(self, code: str) -> bool:
        return code in self._rooms

    def load_rooms(self) -> list[dict[str, Any]]:
        ordered = sorted(self._rooms.values(), key=lambda item: item[0])
        return [_json_copy(doc) for _, doc in ordered]

    def load_room(self, code: str) -> dict[str, Any] | None:
        found = self._rooms.get(code)
        return None if found is None else dict(_json_copy(found[1]))

    def orphans(self, now: float) -> list[str]:
        ordered = sorted(self._rooms.items(), key=lambda item: (item[1][0], item[0]))
        out = []
        for code, _ in ordered:
            held = self._leases.get(code)
            if self._status[code] == "live" and (held is None or held.expires <= now):
                out.append(code)
        return out

    def create_match(self, m: StoredMatch, *, fence: int | None = None) -> None:
        self._check_fence(m.room, fence)
        if m.id in self._matches:
            raise StorageError(f"could not save: a match {m.id} exists already")
        self._matches[m.id] = replace(
            _json_copy_match(m), ended=None, outcome=None, paused_at=None, actions=[]
        )

    def _match(self, match_id: str, fence: int | None = None) -> StoredMatch:
        if match_id not in self._matches:
            raise StorageError(f"could not save: there is no match {match_id}")
        m = self._matches[match_id]
        self._check_fence(m.room, fence)
        return m

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
        fence: int | None = None,
    ) -> None:
        m = self._match(match_id, fence)
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

    def set_clock(
        self,
        match_id: str,
        phase_started: float,
        paused_at: float | None,
        *,
        fence: int | None = None,
    ) -> None:
        m = self._match(match_id, fence)
        m.phase_started = phase_started
        m.paused_at = paused_at

    def end_match(
        self, match_id: str, ended: float, outcome: dict[str, Any], *, fence: int | None = None
    ) -> None:
        m = self._match(match_id, fence)
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
    "FencedOut",
    "Lease",
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
