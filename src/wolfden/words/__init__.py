"""The word library: built-in lists, custom lists, import and export, and their storage.

The game reads only word pools (tuples of words) from its config; this package turns the
built-in lists and the custom lists a table chose into those pools.
"""

from wolfden.words.builtin import CATEGORIES, CATEGORY_TITLES, ENTRIES, Entry, lookup, pool
from wolfden.words.validate import (
    MAX_ENTRIES,
    MAX_ENTRY,
    ListErrors,
    WordError,
    validate_entries,
    validate_entry,
)

__all__ = [
    "CATEGORIES",
    "CATEGORY_TITLES",
    "ENTRIES",
    "MAX_ENTRIES",
    "MAX_ENTRY",
    "Entry",
    "ListErrors",
    "WordError",
    "lookup",
    "pool",
    "validate_entries",
    "validate_entry",
]
