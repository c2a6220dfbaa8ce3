"""The rules every word-list entry follows, built in or custom.

An entry is 1-40 characters: letters of any script, digits, spaces, hyphens and apostrophes.
Lists fold duplicates case-insensitively and hold at most 5,000 entries.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from wolfden.engine.errors import WolfdenError

MAX_ENTRY = 40
MAX_ENTRIES = 5000
ALLOWED_PUNCTUATION = frozenset(" -'’")
_SPACES = re.compile(" {2,}")


class WordError(WolfdenError, ValueError):
    """An entry or a list that breaks the rules; the message says why and what is allowed."""


def _allowed(ch: str) -> bool:
    if ch in ALLOWED_PUNCTUATION:
        return True
    category = unicodedata.category(ch)
    # letters (L*), combining marks that belong to letters (M*), digits (Nd)
    return category[0] in "LM" or category == "Nd"


def normalize(entry: str) -> str:
    """Unicode NFC, curly apostrophes made straight, runs of spaces folded, ends trimmed."""
    text = unicodedata.normalize("NFC", entry).replace("’", "'")
    return _SPACES.sub(" ", text).strip(" ")


def validate_entry(entry: str) -> str:
    """The entry in its normal form, or WordError saying what is wrong."""
    if not isinstance(entry, str):
        raise WordError("is not text")
    text = normalize(entry)
    if not text:
        raise WordError("is empty; an entry has 1 to 40 characters")
    if len(text) > MAX_ENTRY:
        raise WordError(f"has {len(text)} characters; an entry has at most {MAX_ENTRY}")
    for ch in text:
        if not _allowed(ch):
            shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
            raise WordError(
                f"contains {shown}; allowed are letters, digits, spaces, hyphens and apostrophes"
            )
    if not any(unicodedata.category(ch)[0] == "L" or ch.isdigit() for ch in text):
        raise WordError("has no letter or digit")
    return text


def fold(entry: str) -> str:
    """The key under which two entries count as duplicates (case-insensitive)."""
    return entry.casefold()


class ListErrors(WordError):
    """Every problem of a list, each with its line number; nothing of the list was kept."""

    def __init__(self, problems: list[tuple[int, str]]) -> None:
        self.problems = problems
        shown = "; ".join(f"line {line}: {reason}" for line, reason in problems[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        super().__init__(f"{len(problems)} problem(s): {shown}{more}")


def validate_entries(lines: Iterable[tuple[int, str]]) -> list[str]:
    """Validate numbered entries; fold duplicates (first spelling wins); all-or-nothing."""
    out: list[str] = []
    seen: set[str] = set()
    problems: list[tuple[int, str]] = []
    for line, raw in lines:
        try:
            entry = validate_entry(raw)
        except WordError as exc:
            problems.append((line, f"{raw!r} {exc}"))
            continue
        key = fold(entry)
        if key in seen:
            continue
        seen.add(key)
        out.append(entry)
    if len(out) > MAX_ENTRIES:
        problems.append((0, f"the list has {len(out)} entries; a list holds at most {MAX_ENTRIES}"))
    if problems:
        raise ListErrors(problems)
    return out
