"""People's names: what every screen shows and the table reads aloud.

A name is normalised with NFKC (full-width letters, ligatures and the like become the plain
characters they stand for), trimmed, its runs of spaces made one, and refused when it carries a
character one cannot see or that reorders the text around it (bidirectional controls such as
U+202E, zero-width spaces, joiners outside an emoji sequence, soft hyphens, tag characters):
"\u202eflowerew a si" would be shown and narrated as "is a werewolf". Within one room no two names
may look alike (``looks_like``): the same letters in another case, or with Cyrillic or Greek
letters that look like Latin ones, or digits that look like letters.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from wolfden.server.errors import Refused

NAME_MAX = 24

# Unicode's default-ignorable code points: drawn as nothing, or not at all.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_BLANK = {"\u2800"}  # the empty braille pattern: a visible-width nothing
ZWJ = "\u200d"
_PRESENTATION = {"\ufe0e", "\ufe0f"}  # text / emoji presentation of the symbol before


def _ignorable(ch: str) -> bool:
    n = ord(ch)
    return any(lo <= n <= hi for lo, hi in _IGNORABLE)


def _symbol(ch: str) -> bool:
    return unicodedata.category(ch) in ("So", "Sk")


def _invisible_at(name: str, i: int) -> bool:
    """True when ``name[i]`` cannot be seen and is not part of an emoji sequence."""
    ch = name[i]
    if ch in _BLANK or (unicodedata.category(ch) == "Cf" and ch != ZWJ):
        return True
    if not _ignorable(ch):
        return False
    before = name[i - 1] if i > 0 else ""
    after = name[i + 1] if i + 1 < len(name) else ""
    if ch in _PRESENTATION:
        return not (before and _symbol(before))
    if ch == ZWJ:  # joins two emoji (a family, a profession), else hides in the text
        return not (before and after and (_symbol(before) or before in _PRESENTATION))
    return True


def clean_name(raw: Any) -> str:
    """A name as shown to others: NFKC, trimmed, single spaces, 1–24 characters, nothing
    invisible or reordering; else ``Refused("bad_name")`` saying what is wrong."""
    if not isinstance(raw, str):
        raise Refused("bad_name", "A name is text of 1 to 24 characters.", 400)
    if len(raw) > 4 * NAME_MAX:  # before anything reads every character
        raise Refused(
            "bad_name", f"That name has {len(raw)} characters; use at most {NAME_MAX}.", 400
        )
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Zl", "Zp") for c in raw):
        raise Refused("bad_name", "A name cannot contain line breaks or control characters.", 400)
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if any(_invisible_at(name, i) for i in range(len(name))):
        raise Refused(
            "bad_name",
            "A name cannot contain invisible or text-direction characters (such as zero-width "
            "spaces or right-to-left marks); type it with visible letters only.",
            400,
        )
    if not name:
        raise Refused("bad_name", "Please type a name (1 to 24 characters).", 400)
    if len(name) > NAME_MAX:
        raise Refused(
            "bad_name", f"That name has {len(name)} characters; use at most {NAME_MAX}.", 400
        )
    return name


# Letters of other scripts drawn like Latin ones, and digits and signs drawn like letters.
_LOOKALIKE = str.maketrans(
    {
        # Cyrillic
        "А": "A", "а": "a", "В": "B", "Е": "E", "е": "e", "К": "K", "к": "k", "М": "M",
        "Н": "H", "О": "O", "о": "o", "Р": "P", "р": "p", "С": "C", "с": "c", "Т": "T",
        "У": "Y", "у": "y", "Х": "X", "х": "x", "Ѕ": "S", "ѕ": "s", "І": "I", "і": "i",
        "Ј": "J", "ј": "j", "ԁ": "d", "Ӏ": "l", "ӏ": "l", "Ԛ": "Q", "ԛ": "q", "Ԝ": "W",
        "ԝ": "w", "һ": "h", "Ү": "Y", "ү": "y", "Ь": "b", "Ꙇ": "l",
        # Greek
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v",
        "ρ": "p", "α": "a", "ι": "i", "κ": "k", "υ": "u", "ϲ": "c", "ς": "c", "ϳ": "j", "Ϲ": "C",
        # Armenian and Latin variants
        "օ": "o", "ս": "u", "ı": "i", "ɑ": "a", "ɡ": "g", "ʀ": "R",
        # digits and signs drawn like letters; a capital I like a small L
        "0": "O", "1": "l", "|": "l", "I": "l", "!": "l",
    }
)  # fmt: skip


def skeleton(name: str) -> str:
    """What a name looks like: equal skeletons are names a reader could take for each other."""
    drawn = name.translate(_LOOKALIKE).casefold().translate(_LOOKALIKE)
    return "".join(c for c in drawn if not c.isspace() and c != ZWJ and c not in _PRESENTATION)


def looks_like(a: str, b: str) -> bool:
    """True when the names ``a`` and ``b`` could be taken for each other."""
    return a.casefold() == b.casefold() or skeleton(a) == skeleton(b)
