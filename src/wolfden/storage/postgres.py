"""Rooms and match logs in PostgreSQL, for several server nodes sharing one database.

The same tables and the same guarantees as the SQLite store: every write is one transaction,
committed before the call returns, and an action index can be written once only (the primary
key), so two writers can never both extend a match's log. When the server cannot be reached
the call raises :class:`RetryableStorageError` having written nothing; the next call connects
again.

The driver is psycopg 3 (``pip install 'wolfden[nodes]'``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from wolfden.storage.errors import RetryableStorageError, StorageError
from wolfden.storage.rooms import (
    MATCH_COLUMNS,
    Lease,
    StoredMatch,
    fenced_out,
    match_from_row,
    new_match_row,
)

COMPONENT = "rooms"

MIGRATIONS: list[tuple[str, ...]] = [
    (
        """CREATE TABLE rooms (
            code TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            status TEXT NOT NULL,
            data TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE matches (
            id TEXT PRIMARY KEY,
            room TEXT NOT NULL,
            game TEXT NOT NULL,
            version TEXT NOT NULL,
            config TEXT NOT NULL,
            seed TEXT NOT NULL,
            meta TEXT NOT NULL,
            started DOUBLE PRECISION NOT NULL,
            ended DOUBLE PRECISION,
            outcome TEXT,
            phase_seq INTEGER NOT NULL,
            phase_started DOUBLE PRECISION NOT NULL,
            paused_at DOUBLE PRECISION)""",
        "CREATE INDEX matches_by_room ON matches(room)",
        """CREATE TABLE match_actions (
            match TEXT NOT NULL,
            idx INTEGER NOT NULL,
            seat INTEGER,
            action TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (match, idx))""",
    ),
    (
        """CREATE TABLE room_leases (
            room TEXT PRIMARY KEY,
            node TEXT NOT NULL,
            token BIGINT NOT NULL,
            expires DOUBLE PRECISION NOT NULL)""",
    ),
]
"""Schema migrations, in order: each a list of statements run in one transaction."""

# Any number of nodes may start at once against a new database; one advisory lock makes
# them migrate one after the other.
_MIGRATION_LOCK = 0x776F6C66  # "wolf"


def _driver() -> Any:
    try:
        import psycopg
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise StorageError(
            "a postgresql:// database needs the psycopg driver: pip install 'wolfden[nodes]'"
        ) from exc
    return psycopg


class PostgresRoomStore:
    """The :class:`~wolfden.storage.rooms.RoomStore` on a PostgreSQL server."""

    def __init__(self, url: str, *, connect_timeout: float = 5.0) -> None:
        self.url = url
        self.connect_timeout = connect_timeout
        self._psycopg = _driver()
        self._lock = threading.Lock()
        self._conn: Any = None
        with self._tx() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            cur.execute(
                "CREATE TABLE IF NOT EXISTS wolfden_schema "
                "(component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
            )
            cur.execute("SELECT version FROM wolfden_schema WHERE component = %s", (COMPONENT,))
            row = cur.fetchone()
            current = row[0] if row else 0
            if current > len(MIGRATIONS):
                raise StorageError(
                    f"the database was written by a newer wolfden (rooms schema {current}, "
                    f"this one knows up to {len(MIGRATIONS)}); upgrade wolfden or use another --db"
                )
            for version in range(current, len(MIGRATIONS)):
                for statement in MIGRATIONS[version]:
                    cur.execute(statement)
                cur.execute(
                    "INSERT INTO wolfden_schema (component, version) VALUES (%s, %s) "
                    "ON CONFLICT (component) DO UPDATE SET version = excluded.version",
                    (COMPONENT, version + 1),
                )

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _connection(self) -> Any:
        if self._conn is None or self._conn.closed:
            try:
                self._conn = self._psycopg.connect(
                    self.url, connect_timeout=max(1, round(self.connect_timeout))
                )
            except self._psycopg.OperationalError as exc:
                raise RetryableStorageError(
                    f"the database server cannot be reached ({_first_line(exc)}); "
                    "nothing was saved, try again"
                ) from exc
        return self._conn

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """One transaction on the shared connection; errors become StorageError."""
        psycopg = self._psycopg
        with self._lock:
            conn = self._connection()
            try:
                with conn.transaction(), conn.cursor() as cur:
                    yield cur
            except psycopg.errors.UniqueViolation as exc:
                raise StorageError(f"could not save: {_first_line(exc)}") from exc
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                # The connection is gone (server restarted, network cut): the transaction
                # did not commit. Drop the connection; the next call makes a new one.
                conn.close()
                self._conn = None
                raise RetryableStorageError(
                    f"the database server went away ({_first_line(exc)}); "
                    "nothing was saved, try again"
                ) from exc
            except psycopg.Error as exc:
                raise StorageError(f"could not save: {_first_line(exc)}") from exc

    # -- leases ---------------------------------------------------------------------

    def acquire_lease(self, room: str, node: str, now: float, ttl: float) -> int | None:
        with self._tx() as cur:
            # The row is created first, so that two nodes racing for a new room serialise
            # on its row lock below.
            cur.execute(
                "INSERT INTO room_leases (room, node, token, expires) VALUES (%s, '', 0, 0) "
                "ON CONFLICT (room) DO NOTHING",
                (room,),
            )
            cur.execute(
                "SELECT node, token, expires FROM room_leases WHERE room = %s FOR UPDATE",
                (room,),
            )
            held_by, token, expires = cur.fetchone()
            if held_by == node and expires > now:
                pass
            elif expires > now:
                return None
            else:
                token += 1
            cur.execute(
                "UPDATE room_leases SET node = %s, token = %s, expires = %s WHERE room = %s",
                (node, token, now + ttl, room),
            )
            return int(token)

    def renew_lease(self, room: str, node: str, token: int, now: float, ttl: float) -> bool:
        with self._tx() as cur:
            cur.execute(
                "UPDATE room_leases SET expires = %s WHERE room = %s AND node = %s AND token = %s",
                (now + ttl, room, node, token),
            )
            return bool(cur.rowcount == 1)

    def release_lease(self, room: str, node: str, token: int) -> None:
        with self._tx() as cur:
            cur.execute(
                "UPDATE room_leases SET expires = 0 WHERE room = %s AND node = %s AND token = %s",
                (room, node, token),
            )

    def lease(self, room: str) -> Lease | None:
        with self._tx() as cur:
            cur.execute(
                "SELECT node, token, expires FROM room_leases WHERE room = %s AND token > 0",
                (room,),
            )
            row = cur.fetchone()
        return None if row is None else Lease(row[0], int(row[1]), float(row[2]))

    @staticmethod
    def _check_fence(cur: Any, room: str, fence: int | None) -> None:
        """Within the write's transaction: the fence is still the room's token. The row lock
        (FOR SHARE) keeps a takeover from committing between this check and the write."""
        if fence is None:
            return
        cur.execute("SELECT token FROM room_leases WHERE room = %s FOR SHARE", (room,))
        row = cur.fetchone()
        if row is None or int(row[0]) != fence:
            raise fenced_out(room, fence)

    @staticmethod
    def _match_room(cur: Any, match_id: str) -> str:
        cur.execute("SELECT room FROM matches WHERE id = %s", (match_id,))
        row = cur.fetchone()
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
        with self._tx() as cur:
            self._check_fence(cur, code, fence)
            cur.execute(
                "INSERT INTO rooms (code, game, status, data, created, updated) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (code) DO UPDATE SET "
                "game = excluded.game, status = excluded.status, data = excluded.data, "
                "updated = excluded.updated",
                (code, game, status, text, now, now),
            )

    def room_exists(self, code: str) -> bool:
        with self._tx() as cur:
            cur.execute("SELECT 1 FROM rooms WHERE code = %s", (code,))
            return cur.fetchone() is not None

    def load_rooms(self) -> list[dict[str, Any]]:
        with self._tx() as cur:
            cur.execute("SELECT data FROM rooms ORDER BY created, code")
            rows = cur.fetchall()
        return [json.loads(r[0]) for r in rows]

    def load_room(self, code: str) -> dict[str, Any] | None:
        with self._tx() as cur:
            cur.execute("SELECT data FROM rooms WHERE code = %s", (code,))
            row = cur.fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def orphans(self, now: float) -> list[str]:
        with self._tx() as cur:
            cur.execute(
                "SELECT r.code FROM rooms r LEFT JOIN room_leases l ON l.room = r.code "
                "WHERE r.status = 'live' AND (l.expires IS NULL OR l.expires <= %s) "
                "ORDER BY r.created, r.code",
                (now,),
            )
            rows = cur.fetchall()
        return [str(r[0]) for r in rows]

    # -- matches --------------------------------------------------------------------

    def create_match(self, m: StoredMatch, *, fence: int | None = None) -> None:
        with self._tx() as cur:
            self._check_fence(cur, m.room, fence)
            cur.execute(
                "INSERT INTO matches (id, room, game, version, config, seed, meta, started, "
                "ended, outcome, phase_seq, phase_started, paused_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, NULL, NULL, %s, %s, NULL)",
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
        with self._tx() as cur:
            if fence is not None:
                self._check_fence(cur, self._match_room(cur, match_id), fence)
            cur.execute(
                "INSERT INTO match_actions (match, idx, seat, action, at) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (match_id, idx, seat, action, at),
            )
            if cur.rowcount != 1:
                raise StorageError(f"action {idx} of match {match_id} exists already")
            if new_phase or ended is not None:
                cur.execute(
                    "UPDATE matches SET phase_seq = %s, phase_started = %s, ended = %s, "
                    "outcome = %s WHERE id = %s",
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
        with self._tx() as cur:
            if fence is not None:
                self._check_fence(cur, self._match_room(cur, match_id), fence)
            cur.execute(
                "UPDATE matches SET phase_started = %s, paused_at = %s WHERE id = %s",
                (phase_started, paused_at, match_id),
            )

    def end_match(
        self, match_id: str, ended: float, outcome: dict[str, Any], *, fence: int | None = None
    ) -> None:
        with self._tx() as cur:
            if fence is not None:
                self._check_fence(cur, self._match_room(cur, match_id), fence)
            cur.execute(
                "UPDATE matches SET ended = %s, outcome = %s, paused_at = NULL WHERE id = %s",
                (ended, json.dumps(outcome, ensure_ascii=False), match_id),
            )

    def load_match(self, match_id: str) -> StoredMatch | None:
        with self._tx() as cur:
            cur.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = %s",
                (match_id,),
            )
            row = cur.fetchone()
            if row is None:
                return None
            cur.execute(
                "SELECT seat, action, at FROM match_actions WHERE match = %s ORDER BY idx",
                (match_id,),
            )
            actions = cur.fetchall()
        return match_from_row(row, actions)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
