"""The one error every store raises when the database cannot do what was asked."""

from __future__ import annotations

from wolfden.engine.errors import WolfdenError


class StorageError(WolfdenError, RuntimeError):
    """The database could not be read or written (disk full, locked file, server gone, ...),
    or what was asked for is not stored. The message says which and what to do."""


class RetryableStorageError(StorageError):
    """The database is unreachable for the moment (restarting, connection lost). Nothing was
    written; the same request may be sent again."""


class FencedOut(StorageError):
    """This node's lease on the room was taken over by another node (it was paused or cut off
    for longer than the lease): it is no longer the room's master and must not write. Nothing
    was saved."""
