"""Werewords: the village asks the Mayor yes/no questions to find the Magic Word, while the
Werewolves, who know it, steer them away; found or not, one last guess decides the round.

See docs/games/werewords.md for the rules with our rulings.
"""

from __future__ import annotations

from collections.abc import Sequence

from wolfden.games.werewords.config import (
    AgeRating,
    Config,
    Difficulty,
    Mode,
    standard_roles,
    werewolf_count,
)
from wolfden.games.werewords.roles import Phase, Role, Step, Team, team_of
from wolfden.games.werewords.rules import (
    actors,
    apply,
    deadline,
    legal_actions,
    outcome,
    seat_teams,
    setup,
    team_names,
)
from wolfden.games.werewords.state import State
from wolfden.games.werewords.views import perturb_hidden, view, visible_events

id = "werewords"
version = "1"
title = "Werewords"
secret_options = ("words_easy", "words_medium", "words_hard", "words_ridiculous")
"""Options only the host may read: the Mayor's candidate words are drawn from these pools, so
they stay off the room summary and out of the match record (but for the words played)."""

__all__ = [
    "AgeRating",
    "Config",
    "Difficulty",
    "Mode",
    "Phase",
    "Role",
    "State",
    "Step",
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
    "standard_roles",
    "team_names",
    "team_of",
    "view",
    "visible_events",
    "werewolf_count",
]


def num_seats(config: Config) -> int:
    return config.players


def phase_seq(state: State) -> int:
    return state.seq


def sample_configs() -> Sequence[Config]:
    """Configs that together exercise every role, both modes and Speedwords."""
    return (
        Config(),
        Config(players=3),
        Config(players=4, mode=Mode.COMPANION),
        Config(players=5, speedwords=True, word_choices=3),
        Config(players=7, deluxe=(Role.APPRENTICE, Role.MINION, Role.THING), last_mayor=2),
        Config(
            players=8,
            roles=(
                Role.FORTUNE_TELLER,
                Role.WEREWOLF,
                Role.WEREWOLF,
                Role.MASON,
                Role.MASON,
                Role.BEHOLDER,
                Role.DOPPELGANGER,
                Role.VILLAGER,
            ),
            difficulty=Difficulty.HARD,
        ),
        Config(
            players=12,
            deluxe=(Role.DOPPELGANGER, Role.APPRENTICE, Role.BEHOLDER, Role.MINION),
            typed_questions=False,
            yes_no_tokens=8,
        ),
        Config(
            players=6,
            mode=Mode.COMPANION,
            speedwords=True,
            deluxe=(Role.FORTUNE_TELLER, Role.APPRENTICE),
        ),
        Config(
            players=5,
            deluxe=(Role.DOPPELGANGER,),
            difficulty=Difficulty.EASY,
            words_easy=("ice cream", "jack-o'-lantern", "Äpfel", "42nd street"),
        ),
    )


def bench_configs() -> list[tuple[str, Config]]:
    return [
        ("6 players online", Config()),
        (
            "10 players with Deluxe roles",
            Config(players=10, deluxe=(Role.MINION, Role.BEHOLDER, Role.APPRENTICE)),
        ),
        ("5 players companion", Config(players=5, mode=Mode.COMPANION)),
    ]
