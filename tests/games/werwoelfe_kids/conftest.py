"""Fixtures of the Werwölfe Kids tests."""

from __future__ import annotations

import pytest

from .kids_table import PEOPLE, Table


@pytest.fixture
def table() -> Table:
    """A standard village with its people placed; the Werewolf team is about to wake."""
    t = Table()
    t.place(PEOPLE)
    return t
