"""Werewolf options. Defaults come from seed 001 and the werewolf rulings."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from wolfden.engine.config import option
from wolfden.engine.errors import ConfigError

MIN_PLAYERS = 5
MAX_PLAYERS = 16


VARIANT_ROLES: tuple[tuple[str, str], ...] = (
    ("lycans", "Lycans"),
    ("tanners", "Tanners"),
    ("minions", "Minions"),
    ("hunters", "Hunters"),
    ("village_idiots", "Village Idiots"),
    ("witches", "Witches"),
    ("cupids", "Cupids"),
)
"""The roles beyond the seed's, as (option, plural title) in the order of the deal. Each is 0
by default, so the seed's deal is untouched unless a setup asks for them."""


def standard_werewolves(players: int) -> int:
    """7–9 players deal 2 Werewolves, 10–12 deal 3 (the seed); beyond the seed's table, 5–6
    players deal 1 and 13–16 deal 4."""
    if players <= 6:
        return 1
    return 2 if players <= 9 else 3 if players <= 12 else 4


@dataclass(frozen=True)
class Config:
    players: int = option(
        7,
        "number of players (5–16; the seed plays 7–12)",
        min=MIN_PLAYERS,
        max=MAX_PLAYERS,
        label="Players",
    )
    werewolves: int | None = option(
        None,
        "custom variant: number of Werewolves (default: 1 for 5–6 players, 2 for 7–9, 3 for "
        "10–12, 4 for 13–16)",
        label="Werewolves (custom)",
        advanced=True,
    )
    seers: int | None = option(
        None, "custom variant: number of Seers (default 1)", label="Seers (custom)", advanced=True
    )
    guardians: int | None = option(
        None,
        "custom variant: number of Guardians (default 1)",
        label="Guardians (custom)",
        advanced=True,
    )
    villager_only: tuple[int, ...] = option(
        (), "seats (from 0) of players who declined a special role before the deal", hidden=True
    )
    names: tuple[str, ...] = option(
        (), "players' names by seat (default: Player 1, Player 2, ...)", hidden=True
    )
    night_seconds: float = option(
        90.0, "longest a night may last, in seconds", min=10, label="Longest night (seconds)"
    )
    min_night_seconds: float = option(
        20.0,
        "shortest a night may last, so its length tells nothing, in seconds",
        min=0,
        label="Shortest night (seconds)",
        advanced=True,
    )
    pack_rounds: int = option(
        3,
        "rounds of picks the Werewolves get to agree before the most-picked player is taken",
        min=1,
        max=10,
        label="Werewolf pick rounds",
        advanced=True,
    )
    discussion_seconds: float = option(
        180.0, "day discussion time in seconds", min=10, label="Day discussion (seconds)"
    )
    vote_seconds: float = option(
        60.0, "time to cast a ballot, in seconds", min=5, label="Time to vote (seconds)"
    )
    public_ballots: bool = option(
        True, "show who voted for whom when a ballot closes", label="Show who voted for whom"
    )
    round_limit: int = option(
        0,
        "end as a draw after this many night+day rounds (0: no limit)",
        label="Round limit (0 = none)",
        advanced=True,
    )
    dead_see_all: bool = option(
        True,
        "eliminated players watch with open eyes: every role and action",
        label="Eliminated players see everything",
        advanced=True,
    )
    talk: bool = option(
        False,
        "structured talk: during the discussion each living player may make up to 3 public "
        "claims (I am the <role>; I checked <player>; I suspect, trust or protected <player>)",
    )
    # The roles beyond the seed (documented variants, docs/games/werewolf.md), none by default.
    lycans: int = option(
        0,
        "number of Lycans: Villagers whom the Seer sees as Werewolves (documented variant)",
        label="Lycans",
        min=0,
        advanced=True,
    )
    tanners: int = option(
        0,
        "number of Tanners: each wins alone if voted out by day (documented variant)",
        label="Tanners",
        min=0,
        advanced=True,
    )
    minions: int = option(
        0,
        "number of Minions: they know the Werewolves and win with them, unknown to them "
        "(documented variant)",
        label="Minions",
        min=0,
        advanced=True,
    )
    hunters: int = option(
        0,
        "number of Hunters: when eliminated, each takes one living player with them "
        "(documented variant)",
        label="Hunters",
        min=0,
        advanced=True,
    )
    village_idiots: int = option(
        0,
        "number of Village Idiots: each survives their first day elimination, revealed, and "
        "loses their vote (documented variant)",
        label="Village Idiots",
        min=0,
        advanced=True,
    )
    witches: int = option(
        0,
        "number of Witches: each learns the pack's target and has one healing potion and one "
        "poison per game (documented variant)",
        label="Witches",
        min=0,
        advanced=True,
    )
    cupids: int = option(
        0,
        "0 or 1 Cupid: on the first night links two players as Lovers, who die of grief "
        "together (documented variant)",
        label="Cupid (0 or 1)",
        min=0,
        max=1,
        advanced=True,
    )
    sheriff: bool = option(
        False,
        "elect a Sheriff on the first day: their vote counts twice, and they pass the badge on "
        "when eliminated (documented variant)",
        label="Elect a Sheriff",
        advanced=True,
    )

    @property
    def werewolf_count(self) -> int:
        return self.werewolves if self.werewolves is not None else standard_werewolves(self.players)

    @property
    def seer_count(self) -> int:
        return 1 if self.seers is None else self.seers

    @property
    def guardian_count(self) -> int:
        return 1 if self.guardians is None else self.guardians

    @cached_property
    def variant_counts(self) -> dict[str, int]:
        """The roles beyond the seed's that this setup deals, by option name (none by
        default)."""
        return {name: n for name, _ in VARIANT_ROLES if (n := getattr(self, name))}

    @property
    def beyond_seed(self) -> tuple[str, ...]:
        """The options of this setup beyond the seed's rules: variant roles and the Sheriff."""
        return (*self.variant_counts, *(("sheriff",) if self.sheriff else ()))

    @cached_property
    def villager_count(self) -> int:
        special = self.werewolf_count + self.seer_count + self.guardian_count
        return self.players - special - sum(self.variant_counts.values())

    @property
    def is_custom(self) -> bool:
        return (self.werewolves, self.seers, self.guardians) != (None, None, None)

    @cached_property
    def display_names(self) -> tuple[str, ...]:
        if self.names:
            return tuple(n.strip() for n in self.names)
        return tuple(f"Player {seat + 1}" for seat in range(self.players))

    def name(self, seat: int) -> str:
        return self.display_names[seat]

    def validate(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(
                f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {self.players}"
            )
        for label, value in (
            ("werewolves", self.werewolves),
            ("seers", self.seers),
            ("guardians", self.guardians),
            *((name, getattr(self, name)) for name, _ in VARIANT_ROLES),
        ):
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ConfigError(f"{label} must be a whole number, 0 or more; got {value!r}")
        if self.cupids > 1:
            raise ConfigError(
                f"a setup deals at most 1 Cupid (one pair of Lovers), got {self.cupids}"
            )
        wolves = self.werewolf_count
        if wolves < 1:
            raise ConfigError("a game needs at least one Werewolf")
        if self.villager_count < 0:
            counts = [
                f"{wolves} Werewolves",
                f"{self.seer_count} Seers",
                f"{self.guardian_count} Guardians",
                *(
                    f"{getattr(self, name)} {title}"
                    for name, title in VARIANT_ROLES
                    if getattr(self, name)
                ),
            ]
            raise ConfigError(
                f"{', '.join(counts[:-1])} and {counts[-1]} are more roles than the "
                f"{self.players} players"
            )
        if self.players - wolves <= wolves:
            raise ConfigError(
                f"{wolves} Werewolves among {self.players} players would win at once: "
                "there must be more non-Werewolves than Werewolves"
            )
        bad = [s for s in self.villager_only if not 0 <= s < self.players]
        if bad:
            raise ConfigError(
                f"villager_only names seats {bad}; seats are numbered 0 to {self.players - 1}"
            )
        if len(set(self.villager_only)) != len(self.villager_only):
            raise ConfigError("villager_only lists a seat twice")
        if self.names:
            if len(self.names) != self.players:
                raise ConfigError(
                    f"names has {len(self.names)} entries; give one per player ({self.players})"
                )
            cleaned = [n.strip() for n in self.names]
            if any(not n or len(n) > 24 for n in cleaned):
                raise ConfigError("each name is 1–24 characters")
            if len({n.casefold() for n in cleaned}) != len(cleaned):
                raise ConfigError("two players have the same name")
        if self.min_night_seconds > self.night_seconds:
            raise ConfigError("min_night_seconds cannot be longer than night_seconds")
        if self.night_seconds < 10 or self.discussion_seconds < 10 or self.vote_seconds < 5:
            raise ConfigError(
                "timers are too short: nights and discussion need at least 10 s, ballots 5 s"
            )
        if self.min_night_seconds < 0:
            raise ConfigError("min_night_seconds cannot be negative")
        if not 1 <= self.pack_rounds <= 10:
            raise ConfigError(f"pack_rounds must be from 1 to 10, got {self.pack_rounds}")
        if self.round_limit < 0:
            raise ConfigError(f"round_limit must be 0 (no limit) or more, got {self.round_limit}")
