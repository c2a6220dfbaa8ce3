"""Every wolfden game as a PettingZoo AEC environment (``pip install wolfden[rl]``).

``wolfden.envs.werewolf_v0.env()`` and friends; :data:`MODULES` maps each game id to its
environment module. See docs/rl.md for the observation and action layouts.
"""

from __future__ import annotations

# game id -> environment module
MODULES: dict[str, str] = {
    "werewolf": "wolfden.envs.werewolf_v0",
}
