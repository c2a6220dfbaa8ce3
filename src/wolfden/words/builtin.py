"""The built-in word lists, written for wolfden: categories x difficulties, each entry tagged.

The data lives in ``data/builtin.txt``: ``@id Title`` starts a category, then lines
``difficulty age: entry, entry, ...``. It is read once, at import.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from wolfden.words.validate import fold, validate_entry

DIFFICULTIES = ("easy", "medium", "hard", "ridiculous")
AGES = ("all", "10+", "adults")


class Entry(NamedTuple):
    word: str
    difficulty: str
    category: str
    age: str


def parse_builtin(text: str) -> tuple[tuple[Entry, ...], dict[str, str]]:
    """Entries (first spelling of each word wins) and the category titles, in file order."""
    entries: list[Entry] = []
    titles: dict[str, str] = {}
    seen: set[str] = set()
    category = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            category, _, title = line[1:].partition(" ")
            titles[category] = title.strip() or category
            continue
        head, sep, rest = line.partition(":")
        parts = head.split()
        if not sep or len(parts) != 2 or not category:
            raise ValueError(f"builtin.txt line {number}: expected 'difficulty age: words'")
        difficulty, age = parts
        if difficulty not in DIFFICULTIES or age not in AGES:
            raise ValueError(f"builtin.txt line {number}: unknown difficulty or age {head!r}")
        for item in rest.split(","):
            word = validate_entry(item)
            key = fold(word)
            if key in seen:
                continue
            seen.add(key)
            entries.append(Entry(word, difficulty, category, age))
    return tuple(entries), titles


ENTRIES, CATEGORY_TITLES = parse_builtin(
    resources.files("wolfden.words").joinpath("data/builtin.txt").read_text(encoding="utf-8")
)
CATEGORIES: tuple[str, ...] = tuple(CATEGORY_TITLES)
_BY_WORD = {fold(e.word): e for e in ENTRIES}


def lookup(word: str) -> Entry | None:
    """The built-in entry of a word (any case), if it is one."""
    return _BY_WORD.get(fold(word))


def categories_of(word: str) -> tuple[str, ...]:
    """The built-in categories a word (any case) is listed under; empty for a word the lists
    do not have (a room's own words)."""
    entry = lookup(word)
    return () if entry is None else (entry.category,)


@lru_cache(maxsize=256)
def pool(
    difficulty: str, categories: tuple[str, ...] = (), max_age: str = "adults"
) -> tuple[str, ...]:
    """The built-in words of a difficulty, from the given categories (all if empty), rated at
    most ``max_age``. Falls back to every category if the filter leaves nothing."""
    limit = AGES.index(max_age)
    words = tuple(
        e.word
        for e in ENTRIES
        if e.difficulty == difficulty
        and (not categories or e.category in categories)
        and AGES.index(e.age) <= limit
    )
    if words:
        return words
    return tuple(e.word for e in ENTRIES if e.difficulty == difficulty)
