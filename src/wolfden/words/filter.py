"""The word filter for lists rated "all": a short list of unsuitable words, kept as hashes.

The data file ``data/filter.txt`` holds truncated SHA-256 digests of lower-case words, so the
repository never spells them out. An entry is refused if the entry itself, any of its words
(split at spaces, hyphens and apostrophes), or the entry with those separators removed matches,
also after common digit-for-letter swaps (``c0caine``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

from wolfden.words.validate import fold

SALT = "wolfden-filter:"
DIGITS = 20
_SEPARATORS = re.compile(r"[\s\-']+")
_LEET = str.maketrans("013457", "oieast")


def digest(word: str) -> str:
    """The line that goes into ``data/filter.txt`` for ``word``."""
    return hashlib.sha256((SALT + fold(word)).encode()).hexdigest()[:DIGITS]


@lru_cache(maxsize=1)
def blocked_digests() -> frozenset[str]:
    text = resources.files("wolfden.words").joinpath("data/filter.txt").read_text(encoding="utf-8")
    return frozenset(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


def _candidates(entry: str) -> set[str]:
    folded = fold(entry)
    parts = [p for p in _SEPARATORS.split(folded) if p]
    found = {folded, "".join(parts), *parts}
    return found | {c.translate(_LEET) for c in found}


def is_unsuitable(entry: str, blocked: frozenset[str] | None = None) -> bool:
    digests = blocked_digests() if blocked is None else blocked
    return any(digest(c) in digests for c in _candidates(entry))


def unsuitable(entries: Iterable[str], blocked: frozenset[str] | None = None) -> list[int]:
    """The 1-based numbers of the entries the filter refuses for an all-ages list."""
    return [i for i, e in enumerate(entries, 1) if is_unsuitable(e, blocked)]
