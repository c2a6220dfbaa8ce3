"""The options of a match, with the seed's rules and our rulings as defaults."""

from __future__ import annotations

from dataclasses import dataclass

from wolfden.engine.config import option
from wolfden.engine.errors import ConfigError

DEFAULT_ICONS: tuple[int, ...] = tuple((16 - rank) // 3 for rank in range(1, 16))
"""Icons on a chest or robber card of rank 1..15: 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0."""


@dataclass(frozen=True)
class Config:
    players: int = option(4, "number of players", min=3, max=5, label="Players")
    deals: int = option(
        0,
        "deals in the match; 0 plays the rule: as many deals as players",
        min=0,
        max=60,
        label="Deals in the match",
    )
    first_dealer: int = option(
        0,
        "seat of the first deal's dealer (the deal passes left)",
        min=0,
        label="First dealer (seat from 0)",
        advanced=True,
    )
    icons: tuple[int, ...] = option(
        DEFAULT_ICONS,
        "icons on the chest and robber cards of rank 1 to 15 (15 numbers)",
        label="Icons per rank 1–15",
        advanced=True,
    )
    show_last_trick: bool = option(
        True, "everyone may look at the last completed trick", label="Show the last trick"
    )
    show_history: bool = option(
        False,
        "everyone may look at every completed trick of the deal",
        label="Show every trick of the deal",
        advanced=True,
    )

    def validate(self) -> None:
        for name in ("players", "deals", "first_dealer"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"{name} is a whole number, got {value!r}")
        if not 3 <= self.players <= 5:
            raise ConfigError(f"players must be 3, 4 or 5, got {self.players}")
        if not 0 <= self.deals <= 60:
            raise ConfigError(
                f"deals must be between 1 and 60 (or 0 for one deal per player), got {self.deals}"
            )
        if not 0 <= self.first_dealer < self.players:
            raise ConfigError(
                f"first_dealer is a seat from 0 to {self.players - 1}, got {self.first_dealer}"
            )
        icons = self.icons
        if (
            not isinstance(icons, tuple)
            or len(icons) != 15
            or not all(
                isinstance(i, int) and not isinstance(i, bool) and 0 <= i <= 9 for i in icons
            )
        ):
            raise ConfigError(
                f"icons is a list of 15 whole numbers from 0 to 9 (ranks 1 to 15), got {icons!r}"
            )
        for name in ("show_last_trick", "show_history"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} is true or false, got {getattr(self, name)!r}")

    @property
    def num_deals(self) -> int:
        """The number of deals in the match: the rule says as many as there are players."""
        return self.deals or self.players
