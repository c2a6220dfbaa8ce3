"""Profiles, their word lists and the community library, in the shared SQLite database.

A profile is a display name and a secret key that only the browser keeps; the database holds
a SHA-256 digest of the key's secret part. Keys look like ``<profile id>.<secret>`` so a lookup
finds the profile by id and then compares digests in constant time.

This module owns the tables ``profiles``, ``profile_lists``, ``library``, ``library_ratings``,
``library_reports``, ``room_words`` and ``admin`` and records its schema version as component
``community`` in ``wolfden_schema`` (see ``MIGRATIONS``). ``wolfden.words`` validates entries.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, NamedTuple

from wolfden.engine.errors import WolfdenError
from wolfden.storage.errors import StorageError
from wolfden.storage.sqlite import connect, default_db_path, migrate, transaction
from wolfden.storage.words import WordList, check_tags, prepare
from wolfden.words.builtin import AGES, DIFFICULTIES
from wolfden.words.filter import unsuitable
from wolfden.words.validate import WordError, fold

COMPONENT = "community"
MAX_PROFILE_NAME = 24
MAX_TITLE = 60
MAX_DESCRIPTION = 500
MAX_REASON = 300
MAX_LISTS_PER_PROFILE = 200
KEY_BYTES = 24  # 192 bits of secret
LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
SORTS = ("rating", "newest")


class CommunityError(WolfdenError):
    """A request about profiles or the library that cannot be carried out; nothing changed."""

    code = "bad_request"
    status = 400


class NotFound(CommunityError, LookupError):
    code = "not_found"
    status = 404


class Unauthorized(CommunityError):
    code = "unauthorized"
    status = 401


class Forbidden(CommunityError):
    code = "forbidden"
    status = 403


class Conflict(CommunityError):
    code = "conflict"
    status = 409


class Invalid(CommunityError, ValueError):
    """Bad input; ``problems`` lists (line, reason) pairs when it is about entries."""

    code = "invalid"
    status = 400

    def __init__(self, message: str, problems: Sequence[tuple[int, str]] = ()) -> None:
        super().__init__(message)
        self.problems = list(problems)


class Profile(NamedTuple):
    id: str
    name: str
    banned: bool


class MyList(NamedTuple):
    id: int
    name: str
    difficulty: str
    age: str
    entries: tuple[str, ...]
    updated: float


class Published(NamedTuple):
    id: int
    author: str
    author_name: str
    title: str
    description: str
    language: str
    difficulty: str
    age: str
    entries: tuple[str, ...]
    created: float
    rating: float | None
    ratings: int
    reports: int
    hidden: bool


def _row_id(value: Any) -> int:
    """A database id, or -1 (matches nothing) for anything that cannot be one."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63:
        return value
    return -1


def key_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_text(raw: Any, what: str, limit: int, *, empty: bool = False) -> str:
    if not isinstance(raw, str):
        raise Invalid(f"{what} must be text")
    text = " ".join(raw.split())
    if (not text and not empty) or len(text) > limit or not text.isprintable():
        least = 0 if empty else 1
        raise Invalid(f"{what} has {least} to {limit} printable characters")
    return text


def check_language(raw: Any) -> str:
    if not isinstance(raw, str) or not LANGUAGE.match(raw.strip()):
        raise Invalid("language is a code such as 'en', 'de' or 'pt-BR'")
    code, _, region = raw.strip().partition("-")
    return f"{code}-{region.upper()}" if region else code


def _tags(difficulty: Any, age: Any) -> None:
    try:
        check_tags(difficulty, age)
    except WordError as exc:
        raise Invalid(str(exc)) from exc


def _prepare(wordlist: WordList) -> WordList:
    from wolfden.words.validate import ListErrors

    try:
        return prepare(wordlist)
    except ListErrors as exc:
        raise Invalid(str(exc), exc.problems) from exc
    except WordError as exc:
        raise Invalid(str(exc)) from exc


# -- migrations ---------------------------------------------------------------------------


def _v1(db: sqlite3.Connection) -> None:
    """Profiles and their own lists."""
    db.execute(
        """CREATE TABLE profiles (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            key_digest TEXT NOT NULL,
            created REAL NOT NULL)"""
    )
    db.execute(
        """CREATE TABLE profile_lists (
            id INTEGER PRIMARY KEY,
            profile TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            folded TEXT NOT NULL,
            difficulty TEXT NOT NULL,
            age TEXT NOT NULL,
            entries TEXT NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL,
            UNIQUE (profile, folded))"""
    )


def _v2(db: sqlite3.Connection) -> None:
    """The community library: published lists, ratings, reports; bans and the admin token."""
    db.execute("ALTER TABLE profiles ADD COLUMN banned INTEGER NOT NULL DEFAULT 0")
    db.execute(
        """CREATE TABLE library (
            id INTEGER PRIMARY KEY,
            author TEXT NOT NULL REFERENCES profiles(id),
            title TEXT NOT NULL,
            description TEXT NOT NULL,
            language TEXT NOT NULL,
            difficulty TEXT NOT NULL,
            age TEXT NOT NULL,
            entries TEXT NOT NULL,
            search TEXT NOT NULL,
            created REAL NOT NULL,
            hidden INTEGER NOT NULL DEFAULT 0)"""
    )
    db.execute("CREATE INDEX library_created ON library (created)")
    db.execute(
        """CREATE TABLE library_ratings (
            list INTEGER NOT NULL REFERENCES library(id) ON DELETE CASCADE,
            profile TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
            stars INTEGER NOT NULL,
            PRIMARY KEY (list, profile)) WITHOUT ROWID"""
    )
    db.execute(
        """CREATE TABLE library_reports (
            id INTEGER PRIMARY KEY,
            list INTEGER NOT NULL REFERENCES library(id) ON DELETE CASCADE,
            profile TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
            reason TEXT NOT NULL,
            created REAL NOT NULL,
            UNIQUE (list, profile))"""
    )
    db.execute("CREATE TABLE admin (id INTEGER PRIMARY KEY CHECK (id = 1), digest TEXT NOT NULL)")
    db.execute(
        """CREATE TABLE room_words (
            room TEXT PRIMARY KEY,
            choice TEXT NOT NULL,
            updated REAL NOT NULL)"""
    )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2]
"""Schema migrations of this component, in order; version N is ``MIGRATIONS[:N]`` applied."""

_PUBLISHED = (
    "SELECT l.id, l.author, p.name, l.title, l.description, l.language, l.difficulty, l.age, "
    "l.entries, l.created, (SELECT AVG(stars) FROM library_ratings r WHERE r.list = l.id), "
    "(SELECT COUNT(*) FROM library_ratings r WHERE r.list = l.id), "
    "(SELECT COUNT(*) FROM library_reports r WHERE r.list = l.id), l.hidden "
    "FROM library l JOIN profiles p ON p.id = l.author"
)


def _published(row: Sequence[Any]) -> Published:
    rating = None if row[10] is None else round(float(row[10]), 2)
    return Published(
        int(row[0]),
        str(row[1]),
        str(row[2]),
        str(row[3]),
        str(row[4]),
        str(row[5]),
        str(row[6]),
        str(row[7]),
        tuple(json.loads(row[8])),
        float(row[9]),
        rating,
        int(row[11]),
        int(row[12]),
        bool(row[13]),
    )


class CommunityStore:
    """Profiles, their lists and the library in the shared SQLite database file."""

    def __init__(self, path: str | Path | None = None, *, upto: int | None = None) -> None:
        self.path = str(path) if path is not None else str(default_db_path())
        try:
            self.db = connect(self.path)
            self.version = self._migrate(len(MIGRATIONS) if upto is None else upto)
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(f"cannot open the database {self.path}: {exc}") from exc

    def close(self) -> None:
        self.db.close()

    def _migrate(self, target: int) -> int:
        return migrate(self.db, COMPONENT, MIGRATIONS, target)

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return transaction(self.db)

    # -- profiles ---------------------------------------------------------------------

    def create_profile(self, name: Any) -> tuple[Profile, str]:
        """A new profile and its key (shown once; only a digest is stored)."""
        name = clean_text(name, "a display name", MAX_PROFILE_NAME)
        pid = secrets.token_hex(8)
        secret = secrets.token_urlsafe(KEY_BYTES)
        with self._transaction():
            self.db.execute(
                "INSERT INTO profiles (id, name, key_digest, created) VALUES (?, ?, ?, ?)",
                (pid, name, key_digest(secret), time.time()),
            )
        return Profile(pid, name, False), f"{pid}.{secret}"

    def profile(self, key: Any) -> Profile:
        """The profile this key belongs to (Unauthorized if none)."""
        if not isinstance(key, str) or "." not in key or len(key) > 200:
            raise Unauthorized("this needs your profile key (create a profile first)")
        pid, _, secret = key.partition(".")
        row = self.db.execute(
            "SELECT id, name, key_digest, banned FROM profiles WHERE id = ?", (pid,)
        ).fetchone()
        expected = row[2] if row else key_digest("no such profile")
        if not hmac.compare_digest(key_digest(secret), expected) or row is None:
            raise Unauthorized("this profile key does not work here")
        return Profile(str(row[0]), str(row[1]), bool(row[3]))

    def rename_profile(self, profile: Profile, name: Any) -> Profile:
        name = clean_text(name, "a display name", MAX_PROFILE_NAME)
        with self._transaction():
            self.db.execute("UPDATE profiles SET name = ? WHERE id = ?", (name, profile.id))
        return profile._replace(name=name)

    def profile_by_id(self, pid: Any) -> Profile:
        row = self.db.execute(
            "SELECT id, name, banned FROM profiles WHERE id = ?", (str(pid),)
        ).fetchone()
        if row is None:
            raise NotFound(f"there is no profile {str(pid)[:20]!r}")
        return Profile(str(row[0]), str(row[1]), bool(row[2]))

    # -- my lists ---------------------------------------------------------------------

    def my_lists(self, profile: Profile) -> list[MyList]:
        rows = self.db.execute(
            "SELECT id, name, difficulty, age, entries, updated FROM profile_lists "
            "WHERE profile = ? ORDER BY folded",
            (profile.id,),
        ).fetchall()
        return [MyList(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), r[5]) for r in rows]

    def my_list(self, profile: Profile, list_id: Any) -> MyList:
        row = self.db.execute(
            "SELECT id, name, difficulty, age, entries, updated FROM profile_lists "
            "WHERE profile = ? AND id = ?",
            (profile.id, _row_id(list_id)),
        ).fetchone()
        if row is None:
            raise NotFound(f"you have no list number {list_id}")
        return MyList(row[0], row[1], row[2], row[3], tuple(json.loads(row[4])), row[5])

    def save_list(self, profile: Profile, wordlist: WordList, list_id: int | None = None) -> MyList:
        """Create a list (``list_id`` None) or replace one; validated as a whole first."""
        wordlist = _prepare(wordlist)
        now = time.time()
        entries = json.dumps(list(wordlist.entries), ensure_ascii=False)
        with self._transaction():
            clash = self.db.execute(
                "SELECT id FROM profile_lists WHERE profile = ? AND folded = ?",
                (profile.id, fold(wordlist.name)),
            ).fetchone()
            if clash is not None and clash[0] != list_id:
                raise Conflict(f"you have a list called {wordlist.name!r} already")
            if list_id is None:
                count = self.db.execute(
                    "SELECT COUNT(*) FROM profile_lists WHERE profile = ?", (profile.id,)
                ).fetchone()[0]
                if count >= MAX_LISTS_PER_PROFILE:
                    raise Conflict(f"a profile keeps at most {MAX_LISTS_PER_PROFILE} lists")
                cur = self.db.execute(
                    "INSERT INTO profile_lists (profile, name, folded, difficulty, age, entries, "
                    "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        profile.id,
                        wordlist.name,
                        fold(wordlist.name),
                        wordlist.difficulty,
                        wordlist.age,
                        entries,
                        now,
                        now,
                    ),
                )
                new_id = int(cur.lastrowid or 0)
            else:
                cur = self.db.execute(
                    "UPDATE profile_lists SET name = ?, folded = ?, difficulty = ?, age = ?, "
                    "entries = ?, updated = ? WHERE id = ? AND profile = ?",
                    (
                        wordlist.name,
                        fold(wordlist.name),
                        wordlist.difficulty,
                        wordlist.age,
                        entries,
                        now,
                        _row_id(list_id),
                        profile.id,
                    ),
                )
                if cur.rowcount == 0:
                    raise NotFound(f"you have no list number {list_id}")
                new_id = list_id
        return MyList(
            new_id, wordlist.name, wordlist.difficulty, wordlist.age, wordlist.entries, now
        )

    def delete_list(self, profile: Profile, list_id: int) -> None:
        with self._transaction():
            cur = self.db.execute(
                "DELETE FROM profile_lists WHERE id = ? AND profile = ?",
                (_row_id(list_id), profile.id),
            )
            if cur.rowcount == 0:
                raise NotFound(f"you have no list number {list_id}")

    def copy_to_mine(self, profile: Profile, published_id: int) -> MyList:
        """A published list copied into this profile's lists (a free name is picked)."""
        item = self.published(published_id)
        taken = {fold(m.name) for m in self.my_lists(profile)}
        base = item.title[: MAX_TITLE - 5]
        name, n = base, 2
        while fold(name) in taken:
            name, n = f"{base} ({n})", n + 1
        return self.save_list(profile, WordList(name, item.difficulty, item.age, item.entries))

    # -- the library ------------------------------------------------------------------

    def publish(
        self,
        profile: Profile,
        list_id: int,
        *,
        title: Any,
        description: Any,
        language: Any,
        difficulty: Any,
        age: Any,
    ) -> Published:
        """Publish a snapshot of one of my lists. All-ages lists pass the word filter first."""
        if profile.banned or self.profile_by_id(profile.id).banned:
            raise Forbidden("this profile may not publish lists (a moderator decided so)")
        mine = self.my_list(profile, list_id)
        title = clean_text(title, "the title", MAX_TITLE)
        description = clean_text(description, "the description", MAX_DESCRIPTION, empty=True)
        language = check_language(language)
        _tags(difficulty, age)
        if age == "all":
            bad = unsuitable(mine.entries)
            if bad:
                raise Invalid(
                    f"{len(bad)} entries are not suitable for a list rated 'all'; rate it 10+ "
                    "or adults, or remove them",
                    [(i, f"{mine.entries[i - 1]!r} is not suitable for all ages") for i in bad],
                )
        search = "\n".join([fold(title), language.casefold(), *map(fold, mine.entries)])
        with self._transaction():
            cur = self.db.execute(
                "INSERT INTO library (author, title, description, language, difficulty, age, "
                "entries, search, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    profile.id,
                    title,
                    description,
                    language,
                    difficulty,
                    age,
                    json.dumps(list(mine.entries), ensure_ascii=False),
                    search,
                    time.time(),
                ),
            )
        return self.published(int(cur.lastrowid or 0))

    def published(self, list_id: Any, *, hidden: bool = False) -> Published:
        """A published list; hidden ones only when ``hidden`` (moderators)."""
        row = self.db.execute(_PUBLISHED + " WHERE l.id = ?", (_row_id(list_id),)).fetchone()
        if row is None or (row[13] and not hidden):
            raise NotFound(f"there is no published list number {list_id}")
        return _published(row)

    def search(
        self,
        *,
        query: str = "",
        language: str | None = None,
        difficulty: str | None = None,
        max_age: str | None = None,
        sort: str = "rating",
        limit: int = 20,
        offset: int = 0,
        hidden: bool = False,
        reported: bool = False,
    ) -> tuple[list[Published], int]:
        """Visible lists matching all the filters, and how many match in all."""
        where = ["1"] if hidden else ["l.hidden = 0"]
        args: list[Any] = []
        if query.strip():
            for word in fold(query).split():
                escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                where.append("l.search LIKE ? ESCAPE '\\'")
                args.append(f"%{escaped}%")
        if language:
            code = check_language(language)
            where.append("(l.language = ? OR l.language LIKE ?)")
            args += [code, f"{code}-%"]
        if difficulty is not None:
            if difficulty not in DIFFICULTIES:
                raise Invalid(
                    f"difficulty {difficulty!r} is unknown; use {', '.join(DIFFICULTIES)}"
                )
            where.append("l.difficulty = ?")
            args.append(difficulty)
        if max_age is not None:
            if max_age not in AGES:
                raise Invalid(f"age rating {max_age!r} is unknown; use {', '.join(AGES)}")
            allowed = AGES[: AGES.index(max_age) + 1]
            where.append(f"l.age IN ({', '.join('?' * len(allowed))})")
            args += allowed
        if reported:
            where.append("EXISTS (SELECT 1 FROM library_reports r WHERE r.list = l.id)")
        if sort not in SORTS:
            raise Invalid(f"sort {sort!r} is unknown; use {', '.join(SORTS)}")
        order = (
            "l.created DESC, l.id DESC"
            if sort == "newest"
            else "COALESCE((SELECT AVG(stars) FROM library_ratings r WHERE r.list = l.id), 0) "
            "DESC, (SELECT COUNT(*) FROM library_ratings r WHERE r.list = l.id) DESC, "
            "l.created DESC, l.id DESC"
        )
        clause = " AND ".join(where)
        total = self.db.execute(f"SELECT COUNT(*) FROM library l WHERE {clause}", args).fetchone()
        rows = self.db.execute(
            f"{_PUBLISHED} WHERE {clause} ORDER BY {order} LIMIT ? OFFSET ?",
            [*args, limit, offset],
        ).fetchall()
        return [_published(r) for r in rows], int(total[0])

    def rate(self, profile: Profile, list_id: int, stars: int) -> Published:
        if not isinstance(stars, int) or not 1 <= stars <= 5:
            raise Invalid("a rating is 1 to 5 stars")
        item = self.published(list_id)
        if item.author == profile.id:
            raise Forbidden("you cannot rate your own list")
        with self._transaction():
            self.db.execute(
                "INSERT INTO library_ratings (list, profile, stars) VALUES (?, ?, ?) "
                "ON CONFLICT(list, profile) DO UPDATE SET stars = excluded.stars",
                (list_id, profile.id, stars),
            )
        return self.published(list_id)

    def report(self, profile: Profile, list_id: int, reason: Any) -> None:
        reason = clean_text(reason, "the reason", MAX_REASON)
        self.published(list_id)
        with self._transaction():
            self.db.execute(
                "INSERT INTO library_reports (list, profile, reason, created) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(list, profile) DO UPDATE SET reason = excluded.reason",
                (list_id, profile.id, reason, time.time()),
            )

    def withdraw(self, profile: Profile, list_id: int) -> None:
        """The author takes a published list out of the library."""
        item = self.published(list_id, hidden=True)
        if item.author != profile.id:
            raise Forbidden("only the author can withdraw a list")
        with self._transaction():
            self.db.execute("DELETE FROM library WHERE id = ?", (list_id,))

    # -- moderation -------------------------------------------------------------------

    def reports(self, list_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT r.reason, r.created, p.id, p.name FROM library_reports r "
            "JOIN profiles p ON p.id = r.profile WHERE r.list = ? ORDER BY r.created",
            (list_id,),
        ).fetchall()
        return [{"reason": r[0], "at": r[1], "profile": r[2], "name": r[3]} for r in rows]

    def set_hidden(self, list_id: int, hidden: bool) -> Published:
        self.published(list_id, hidden=True)
        with self._transaction():
            self.db.execute("UPDATE library SET hidden = ? WHERE id = ?", (int(hidden), list_id))
            if not hidden:
                self.db.execute("DELETE FROM library_reports WHERE list = ?", (list_id,))
        return self.published(list_id, hidden=True)

    def set_banned(self, profile_id: str, banned: bool) -> Profile:
        profile = self.profile_by_id(profile_id)
        with self._transaction():
            self.db.execute(
                "UPDATE profiles SET banned = ? WHERE id = ?", (int(banned), profile.id)
            )
        return profile._replace(banned=banned)

    # -- rooms ----------------------------------------------------------------------

    def save_room_choice(self, room: str, choice: dict[str, Any]) -> None:
        """What a room's host chose for its word pools (the words are in the room's config)."""
        with self._transaction():
            self.db.execute(
                "INSERT INTO room_words (room, choice, updated) VALUES (?, ?, ?) "
                "ON CONFLICT(room) DO UPDATE SET choice = excluded.choice, "
                "updated = excluded.updated",
                (room, json.dumps(choice, ensure_ascii=False), time.time()),
            )

    def room_choice(self, room: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT choice FROM room_words WHERE room = ?", (room,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def set_admin_token(self, token: str) -> None:
        if len(token) < 16:
            raise Invalid("the admin token has at least 16 characters")
        with self._transaction():
            self.db.execute(
                "INSERT INTO admin (id, digest) VALUES (1, ?) "
                "ON CONFLICT(id) DO UPDATE SET digest = excluded.digest",
                (key_digest(token),),
            )

    def ensure_admin_token(self) -> str | None:
        """A new admin token if the database has none yet (to be shown once), else None."""
        if self.db.execute("SELECT 1 FROM admin WHERE id = 1").fetchone():
            return None
        token = secrets.token_urlsafe(24)
        self.set_admin_token(token)
        return token

    def is_admin(self, token: Any) -> bool:
        row = self.db.execute("SELECT digest FROM admin WHERE id = 1").fetchone()
        if row is None or not isinstance(token, str) or not token:
            return False
        return hmac.compare_digest(key_digest(token), str(row[0]))
