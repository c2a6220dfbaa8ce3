"""Who is on which team, for the simulator's bots by team (never shown to anyone)."""

from __future__ import annotations

from wolfden.games.werwoelfe_kids.config import Config
from wolfden.games.werwoelfe_kids.state import TEAMS, State


def team_names(config: Config) -> tuple[str, ...]:
    """The two teams, as the Outcome names them."""
    return TEAMS


def seat_teams(state: State) -> dict[int, str]:
    """Seat 0 is the village team, seat 1 the werewolf team, in every match."""
    return dict(enumerate(TEAMS))
