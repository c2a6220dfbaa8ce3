"""Refusals: every error the server answers with has a stable code and a message for people."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A request or message the server will not carry out. Nothing was changed."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def bad_request(message: str) -> Refused:
    return Refused("bad_request", message, 400)


def not_found(code: str, message: str) -> Refused:
    return Refused(code, message, 404)


def storage_refused(what: str, exc: Exception | None = None) -> Refused:
    """The database refused a write (disk full, file locked, server away): nothing was
    applied. ``exc``, the store's error, says which."""
    from wolfden.storage.errors import FencedOut, RetryableStorageError

    if isinstance(exc, RetryableStorageError):
        return Refused(
            "unavailable",
            f"The server could not save {what}: its database cannot be reached for a moment; "
            "nothing changed. Try again in a moment.",
            503,
        )
    if isinstance(exc, FencedOut):
        return Refused(
            "unavailable",
            f"The server could not save {what}: this room is moving to another server; "
            "nothing changed. Connect again and try again.",
            503,
        )
    return Refused(
        "unavailable",
        f"The server could not save {what} (its storage is full or busy); nothing changed. "
        "Try again in a moment.",
        503,
    )
