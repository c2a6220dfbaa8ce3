"""Werwölfe Kids: two teams, a hidden village of houses, memory, moving werewolves, a dice duel.

Seat 0 is the Village team, seat 1 the Werewolf team; each seat is shared by everyone on that
team (one device per team, or one shared device with ``handover`` screens). The teams, the
pieces in the box and the phases are in :mod:`.pieces`, the state in :mod:`.state`, the rules
and the outcome in :mod:`.rules`, what each viewer sees in :mod:`.views`;
``docs/games/werwoelfe-kids.md`` is the rules page with our rulings.
"""

from __future__ import annotations

from wolfden.games.werwoelfe_kids.config import Config, Doors, DuelMode, Language, Layout
from wolfden.games.werwoelfe_kids.pieces import VILLAGE, WEREWOLVES, Phase, team_names
from wolfden.games.werwoelfe_kids.rules import (
    actors,
    apply,
    deadline,
    legal_actions,
    num_seats,
    outcome,
    phase_seq,
    seat_teams,
    setup,
    timer,
)
from wolfden.games.werwoelfe_kids.state import State
from wolfden.games.werwoelfe_kids.views import perturb_hidden, view, visible_events

id = "werwoelfe-kids"
version = "1"
title = "Werwölfe Kids"
summary = (
    "Two teams, a hidden village of houses, memory, moving werewolves and a dice duel; "
    "children play each other or a bot team."
)


def sample_configs() -> list[Config]:
    """Configs for random playouts: every variant and option at least once."""
    return [
        Config(),
        Config(layout=Layout.EXTRA_DIFFICULT, too_hard=True, duel=DuelMode.ROUNDS),
        Config(doors=Doors.DIFFICULT, notebook=True, language=Language.DE),
        Config(handover=True, symbol_faces=3, dice_per_team=1),
        Config(layout=Layout.EXTRA_DIFFICULT, doors=Doors.EASY, notebook=True, handover=True),
        Config(too_hard=True, duel=DuelMode.ROUNDS, symbol_faces=5, dice_per_team=6),
    ]


def bench_configs() -> list[tuple[str, Config]]:
    """What ``wolfden bench werwoelfe-kids`` times."""
    return [
        ("3x4, race duel", Config()),
        ("3x4, round duel", Config(duel=DuelMode.ROUNDS)),
        ("4x4 extra difficult, too hard", Config(layout=Layout.EXTRA_DIFFICULT, too_hard=True)),
    ]


__all__ = [
    "VILLAGE",
    "WEREWOLVES",
    "Config",
    "Doors",
    "DuelMode",
    "Language",
    "Layout",
    "Phase",
    "State",
    "actors",
    "apply",
    "bench_configs",
    "deadline",
    "id",
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
]
