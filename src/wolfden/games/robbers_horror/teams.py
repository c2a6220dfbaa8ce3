"""Who is on which team, for the simulator's bots by team (never shown to anyone)."""

from __future__ import annotations

from wolfden.games.robbers_horror.components import Team
from wolfden.games.robbers_horror.config import Config
from wolfden.games.robbers_horror.state import State


def team_names(config: Config) -> tuple[str, ...]:
    """The two teams of a deal, as the Outcome names them."""
    return tuple(team.value for team in Team)


def seat_teams(state: State) -> dict[int, str]:
    """Every seat's team in the deal being played. The partnerships are dealt anew with every
    deal, so a match of several deals gives different answers from one deal to the next (after
    the last deal: the teams of the last deal, as in the Outcome)."""
    return {seat: role.team.value for seat, role in enumerate(state.roles)}
