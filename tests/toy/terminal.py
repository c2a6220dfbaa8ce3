"""The toy game in the terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def render(view: Mapping[str, Any]) -> str:
    evens, odds = view["points"]
    return f"Toy round {view['round']}: evens {evens}, odds {odds}"
