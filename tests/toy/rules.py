"""The toy game's rules: the simulator's tiny parity game under the id ``toy``."""

from __future__ import annotations

from ..sim.sim_tinygame import (
    Config,
    State,
    actors,
    apply,
    deadline,
    legal_actions,
    num_seats,
    outcome,
    perturb_hidden,
    phase_seq,
    sample_configs,
    seat_teams,
    setup,
    team_names,
    view,
    visible_events,
)

id = "toy"
version = "1"
title = "Toy"
summary = "Pick 1, 2 or 3; the parity of the total scores."

__all__ = [
    "Config",
    "State",
    "actors",
    "apply",
    "deadline",
    "legal_actions",
    "num_seats",
    "outcome",
    "perturb_hidden",
    "phase_seq",
    "sample_configs",
    "seat_teams",
    "setup",
    "team_names",
    "view",
    "visible_events",
]
