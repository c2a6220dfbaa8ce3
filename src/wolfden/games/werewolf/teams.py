"""Who is on which team, for the simulator's bots by team (never shown to anyone)."""

from __future__ import annotations

from wolfden.games.werewolf.config import Config
from wolfden.games.werewolf.state import State, Team


def team_names(config: Config) -> tuple[str, ...]:
    """The teams a seat can be on: the names the Outcome uses."""
    return tuple(team.value for team in Team)


def seat_teams(state: State) -> dict[int, str]:
    """Every seat's team as dealt (the cards never change hands during a match)."""
    return {seat: role.team.value for seat, role in enumerate(state.roles)}
