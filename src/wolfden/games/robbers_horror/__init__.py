"""The Werewolves bEat Robbers' Horror: trick-taking with hidden, variable partnerships.

Each deal, whoever holds a Werewolf is a Werewolf, else the Traitor's holder is the Traitor,
everyone else is a Robber. Robbers score chest icons, the werewolf team scores robber icons
(the Traitor scores chests for them). A match is as many deals as players.

Public helpers: :class:`Card`, :func:`trick_winner` and :func:`effective_cards`.
"""

from __future__ import annotations

from wolfden.engine.types import Deadline, Outcome, Seat
from wolfden.games.robbers_horror.components import Card, Kind, Phase, Role, Team
from wolfden.games.robbers_horror.config import DEFAULT_ICONS, Config
from wolfden.games.robbers_horror.rules import (
    Effective,
    actors,
    apply,
    effective_cards,
    legal_actions,
    outcome,
    phase_seq,
    setup,
    trick_winner,
)
from wolfden.games.robbers_horror.state import State
from wolfden.games.robbers_horror.teams import seat_teams, team_names
from wolfden.games.robbers_horror.views import perturb_hidden, view, visible_events

id = "robbers-horror"
version = "1"
title = "The Werewolves bEat Robbers' Horror"


def num_seats(config: Config) -> int:
    return config.players


def deadline(state: State) -> Deadline | None:
    """No timers: the rules give none, and a seat that does not play simply keeps the table
    waiting (a bot can take over a seat whose player left)."""
    return None


def sample_configs() -> list[Config]:
    """Every player count, a full match, short matches, and the view and icon options."""
    return [
        Config(players=3),
        Config(players=4, deals=2, first_dealer=3),
        Config(players=5, deals=2, show_history=True),
        Config(players=4, deals=1, show_last_trick=False),
        Config(players=3, deals=1, first_dealer=2, show_history=True),
        Config(players=5, deals=1, icons=(1,) * 15),
    ]


def bench_configs() -> list[tuple[str, Config]]:
    """Single random deals for 3, 4 and 5 players: games/s here are deals/s."""
    return [(f"{n} players, one deal", Config(players=n, deals=1)) for n in (3, 4, 5)]


__all__ = [
    "DEFAULT_ICONS",
    "Card",
    "Config",
    "Effective",
    "Kind",
    "Outcome",
    "Phase",
    "Role",
    "Seat",
    "State",
    "Team",
    "actors",
    "apply",
    "bench_configs",
    "deadline",
    "effective_cards",
    "legal_actions",
    "num_seats",
    "outcome",
    "perturb_hidden",
    "phase_seq",
    "sample_configs",
    "seat_teams",
    "setup",
    "team_names",
    "title",
    "trick_winner",
    "version",
    "view",
    "visible_events",
]
