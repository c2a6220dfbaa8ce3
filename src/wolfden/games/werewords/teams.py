"""Who is on which team, for the simulator's bots by team (never shown to anyone)."""

from __future__ import annotations

from wolfden.games.werewords.config import Config, Mode, Team, team_of
from wolfden.games.werewords.state import State


def team_names(config: Config) -> tuple[str, ...]:
    """The teams a seat can be on (the names the Outcome uses); none in companion mode, where
    the cards are physical and the app never learns them."""
    if config.mode is Mode.COMPANION:
        return ()
    return tuple(team.value for team in Team)


def seat_teams(state: State) -> dict[int, str]:
    """Every seat's team in the round being played: the team of its card, or of the role a
    Doppelgänger copied once it has copied (as the Outcome counts it). A new round deals new
    cards. Empty in companion mode."""
    if state.config.mode is Mode.COMPANION:
        return {}
    teams: dict[int, str] = {}
    for seat in range(state.n):
        role = state.role(seat)
        if role is not None:
            teams[seat] = team_of(role).value
    return teams
