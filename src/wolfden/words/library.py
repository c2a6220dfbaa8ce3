"""The word library's Python API: read and write lists in plain text, CSV and JSON, keep them
in a store, and turn the chosen lists and categories into the game's word pools.

Formats:

- plain text: one entry per line; blank lines and lines starting with ``#`` are skipped.
- CSV: a ``word`` column (a header row is optional; without one the first column is read).
- JSON: ``{"name": ..., "difficulty": ..., "age": ..., "entries": [...]}`` or a bare list.

Every problem is reported with its line (or entry) number, and a list with any problem is
not imported at all.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from wolfden.storage.words import WordList, WordStore, check_tags
from wolfden.words.builtin import AGES, CATEGORIES, DIFFICULTIES, ENTRIES
from wolfden.words.builtin import pool as builtin_pool
from wolfden.words.validate import ListErrors, WordError, fold, validate_entries

FORMATS = ("text", "csv", "json")
_SUFFIX = {".txt": "text", ".text": "text", ".csv": "csv", ".json": "json"}


def format_of(path: str | Path, given: str | None = None) -> str:
    if given is not None:
        if given not in FORMATS:
            raise WordError(f"format {given!r} is unknown; use {', '.join(FORMATS)}")
        return given
    found = _SUFFIX.get(Path(str(path)).suffix.lower())
    if found is None:
        raise WordError(
            f"cannot tell the format of {path}: name it .txt, .csv or .json or give the format"
        )
    return found


def read_text(text: str) -> list[tuple[int, str]]:
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def read_csv(text: str) -> list[tuple[int, str]]:
    rows = list(csv.reader(io.StringIO(text)))
    column = 0
    start = 0
    if rows and any(cell.strip().casefold() == "word" for cell in rows[0]):
        column = [cell.strip().casefold() for cell in rows[0]].index("word")
        start = 1
    out = []
    for number, row in enumerate(rows[start:], start + 1):
        if not row or not any(cell.strip() for cell in row):
            continue
        if column >= len(row):
            raise ListErrors([(number, "has no value in the word column")])
        out.append((number, row[column]))
    return out


def read_json(text: str) -> tuple[list[tuple[int, str]], dict[str, Any]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise WordError(f"not JSON: {exc.msg} at line {exc.lineno}") from exc
    meta: dict[str, Any] = {}
    if isinstance(data, Mapping):
        meta = {k: data[k] for k in ("name", "difficulty", "age") if k in data}
        data = data.get("entries")
    if not isinstance(data, list):
        raise WordError('JSON word lists are a list of entries or {"entries": [...]}')
    problems = [(i, "is not text") for i, e in enumerate(data, 1) if not isinstance(e, str)]
    if problems:
        raise ListErrors([(i, f"entry {i} {why}") for i, why in problems])
    return list(enumerate(data, 1)), meta


def parse(text: str, fmt: str) -> tuple[list[str], dict[str, Any]]:
    """The validated entries of a list in ``fmt`` and any name and tags it carries."""
    meta: dict[str, Any] = {}
    if fmt == "text":
        numbered = read_text(text)
    elif fmt == "csv":
        numbered = read_csv(text)
    elif fmt == "json":
        numbered, meta = read_json(text)
    else:
        raise WordError(f"format {fmt!r} is unknown; use {', '.join(FORMATS)}")
    return validate_entries(numbered), meta


def dumps(wordlist: WordList, fmt: str) -> str:
    if fmt == "text":
        return "".join(e + "\n" for e in wordlist.entries)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["word"])
        writer.writerows([e] for e in wordlist.entries)
        return out.getvalue()
    if fmt == "json":
        data = {
            "name": wordlist.name,
            "difficulty": wordlist.difficulty,
            "age": wordlist.age,
            "entries": list(wordlist.entries),
        }
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    raise WordError(f"format {fmt!r} is unknown; use {', '.join(FORMATS)}")


def import_text(
    store: WordStore,
    text: str,
    fmt: str,
    *,
    name: str | None = None,
    difficulty: str | None = None,
    age: str | None = None,
    replace: bool = False,
    default_name: str | None = None,
) -> WordList:
    """Validate everything first; store the list only if nothing is wrong."""
    entries, meta = parse(text, fmt)
    final_name = name or meta.get("name") or default_name
    if not isinstance(final_name, str) or not final_name:
        raise WordError("the list needs a name")
    tags = (difficulty or meta.get("difficulty") or "medium", age or meta.get("age") or "all")
    check_tags(*tags)
    return store.save(WordList(final_name, tags[0], tags[1], tuple(entries)), replace=replace)


def import_file(
    store: WordStore, path: str | Path, *, fmt: str | None = None, **options: Any
) -> WordList:
    fmt = format_of(path, fmt)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise WordError(f"cannot read {path}: {exc}") from exc
    return import_text(store, text, fmt, default_name=Path(path).stem, **options)


def builtin_list(name: str) -> WordList:
    """``builtin``, ``builtin:CATEGORY`` or ``builtin:CATEGORY:DIFFICULTY`` as a list."""
    parts = name.split(":")
    category = parts[1] if len(parts) > 1 and parts[1] else None
    difficulty = parts[2] if len(parts) > 2 else None
    if category is not None and category not in CATEGORIES:
        raise WordError(f"no built-in category {category!r}; they are {', '.join(CATEGORIES)}")
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise WordError(f"difficulty {difficulty!r} is unknown; use {', '.join(DIFFICULTIES)}")
    entries = tuple(
        e.word
        for e in ENTRIES
        if (category is None or e.category == category)
        and (difficulty is None or e.difficulty == difficulty)
    )
    chosen = set(entries)
    ages = {e.age for e in ENTRIES if e.word in chosen}
    age = max(ages, key=AGES.index) if ages else "all"
    return WordList(name, difficulty or "mixed", age, entries)


def get_list(store: WordStore, name: str) -> WordList:
    if name.casefold().startswith("builtin"):
        return builtin_list(name)
    return store.get(name)


def pools(
    store: WordStore,
    *,
    lists: Iterable[str] = (),
    categories: Iterable[str] = (),
    builtin: bool = True,
    max_age: str = "adults",
) -> dict[str, tuple[str, ...]]:
    """The Mayor's candidate pool per difficulty from the chosen lists and categories.

    Custom lists join the pool of their own difficulty; built-in words come from the chosen
    categories (all if none) up to ``max_age``.
    """
    if max_age not in AGES:
        raise WordError(f"age rating {max_age!r} is unknown; use {', '.join(AGES)}")
    cats = tuple(categories)
    unknown = [c for c in cats if c not in CATEGORIES]
    if unknown:
        raise WordError(f"unknown categories {', '.join(unknown)}; use {', '.join(CATEGORIES)}")
    out: dict[str, list[str]] = {d: [] for d in DIFFICULTIES}
    if builtin:
        for d in DIFFICULTIES:
            out[d].extend(builtin_pool(d, cats, max_age))
    for name in lists:
        wordlist = store.get(name)
        if AGES.index(wordlist.age) <= AGES.index(max_age):
            out[wordlist.difficulty].extend(wordlist.entries)
    result = {}
    for d, words in out.items():
        unique: dict[str, str] = {}
        for word in words:
            unique.setdefault(fold(word), word)
        result[d] = tuple(unique.values())
    return result


def config_words(
    store: WordStore,
    *,
    lists: Iterable[str] = (),
    categories: Iterable[str] = (),
    builtin: bool = True,
    max_age: str = "adults",
) -> dict[str, tuple[str, ...]]:
    """The ``words_*`` options of the Werewords config for the chosen lists and categories.

    A difficulty no custom list feeds is left out while built-in words are on: the game then
    draws from the built-in list itself (filtered by its ``categories`` and ``max_age``).
    """
    names = list(lists)
    fed = {store.get(name).difficulty for name in names}
    chosen = pools(store, lists=names, categories=categories, builtin=builtin, max_age=max_age)
    return {
        f"words_{d}": words for d, words in chosen.items() if words and (d in fed or not builtin)
    }
