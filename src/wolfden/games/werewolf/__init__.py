"""The moderated Werewolf party game (seed 001): Werewolves, Seer, Guardian and Villagers,
and the documented variant roles a setup may add (Lycan, Tanner, Minion, Hunter, Village
Idiot, Witch, Cupid) and the elected Sheriff.

The app is the moderator: it deals the role cards ``R_WEREWOLF-001`` … ``012``, calls every role
every night, collects the night actions privately and resolves them together at dawn, runs the
day's discussion and secret ballot with one revote among the tied, reveals every eliminated
card, and checks for a winner after every elimination. See docs/games/werewolf.md.
"""

from __future__ import annotations

from wolfden.games.werewolf.actions import (
    ABSTAIN,
    CHECK,
    HEAL,
    NO_POTION,
    PICK,
    POISON,
    PROTECT,
    SHOOT,
    VOTE,
)
from wolfden.games.werewolf.config import Config
from wolfden.games.werewolf.roles import PRINT_DECK, Card, Phase, Role, Team, team_names
from wolfden.games.werewolf.rules import (
    actors,
    apply,
    deadline,
    legal_actions,
    outcome,
    phase_seq,
    seat_teams,
    setup,
    timer,
    winner,
)
from wolfden.games.werewolf.state import State
from wolfden.games.werewolf.views import perturb_hidden, view, visible_events

id = "werewolf"
version = "1"
title = "Werewolf"
summary = "The moderated party game: Werewolves, a Seer, a Guardian and Villagers, 7–12 players."


def num_seats(config: Config) -> int:
    return config.players


def sample_configs() -> list[Config]:
    """Every player count, the custom variant, timers and options, for the conformance suite."""
    configs = [Config(players=n) for n in range(7, 13)]
    configs += [
        Config(players=7, public_ballots=False, round_limit=2),
        Config(players=8, villager_only=(0, 3), dead_see_all=False),
        Config(players=9, werewolves=1, seers=2, guardians=0),
        Config(players=10, werewolves=4, seers=1, guardians=2, pack_rounds=1),
        Config(players=12, villager_only=tuple(range(9)), round_limit=3),
        Config(players=8, talk=True),
        # The documented variant roles (each beside the seed's, docs/games/werewolf.md).
        Config(players=7, lycans=1),
        Config(players=8, tanners=1),
        Config(players=9, minions=1),
        Config(players=8, hunters=1, dead_see_all=False),
        Config(players=7, village_idiots=1, public_ballots=False),
        Config(players=8, witches=1, guardians=1, hunters=1),
        Config(players=9, cupids=1, hunters=1),
        Config(players=10, sheriff=True, village_idiots=1),
        # Every variant at once, with structured talk (claims of the variant roles).
        Config(
            players=12,
            werewolves=2,
            lycans=1,
            tanners=1,
            minions=1,
            hunters=1,
            village_idiots=1,
            witches=1,
            cupids=1,
            sheriff=True,
            talk=True,
        ),
    ]
    return configs


def bench_configs() -> list[tuple[str, Config]]:
    return [(f"{n} players", Config(players=n)) for n in (7, 9, 12)]


__all__ = [
    "ABSTAIN",
    "CHECK",
    "HEAL",
    "NO_POTION",
    "PICK",
    "POISON",
    "PRINT_DECK",
    "PROTECT",
    "SHOOT",
    "VOTE",
    "Card",
    "Config",
    "Phase",
    "Role",
    "State",
    "Team",
    "actors",
    "apply",
    "bench_configs",
    "deadline",
    "legal_actions",
    "num_seats",
    "outcome",
    "perturb_hidden",
    "phase_seq",
    "sample_configs",
    "seat_teams",
    "setup",
    "summary",
    "team_names",
    "timer",
    "title",
    "version",
    "view",
    "visible_events",
    "winner",
]
