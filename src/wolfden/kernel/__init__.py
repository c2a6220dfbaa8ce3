"""The compiled kernel: fast playouts of the games, held to their plain rules.

The rules in :mod:`wolfden.games` are the specification. A kernel module plays the same game on
fixed-size integer arrays compiled with numba, for the simulator's bulk work (balance studies,
benchmarks, batched environments). Differential tests replay actions recorded from the reference
engine through the kernel and require the same state and outcome at every step.

A kernel module (``wolfden.kernel.<game module>``) provides :class:`KernelGame`: its game id,
the bot kinds it has policies for, a check of the configs it plays, :func:`play` for a batch
of seeds and :func:`outcomes` to read a batch as the reference's Outcomes. This package
imports neither numba nor numpy until a kernel module is loaded, so the server never pays
for it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from wolfden.engine.types import Outcome
    from wolfden.sim.seating import BotPlan

MODULES: dict[str, str] = {
    "robbers-horror": "wolfden.kernel.robbers_horror",
    "werewolf": "wolfden.kernel.werewolf",
}
"""The games with a kernel, by game id: the module that plays them."""


@dataclass(frozen=True)
class Batch:
    """What a batch of kernel playouts ended with: one row per seed.

    Team and role columns are indices into ``team_names`` and ``role_names``, which are spelled
    as the reference engine's :class:`~wolfden.engine.types.Outcome` spells them, so a batch
    turns into the same statistics as reference matches.
    """

    seeds: np.ndarray
    """int64 (games,): the seed of each playout."""
    winning_team: np.ndarray
    """int8 (games,): index into ``team_names``; -1 when nobody won (a draw)."""
    winners: np.ndarray
    """bool (games, seats): the seats that won."""
    teams: np.ndarray
    """int8 (games, seats): each seat's team at the end."""
    roles: np.ndarray
    """int8 (games, seats): each seat's role at the end."""
    rounds: np.ndarray
    """int32 (games,): rounds played, as ``Outcome.rounds`` counts them."""
    steps: np.ndarray
    """int32 (games,): actions applied, as the match runner counts them."""
    team_names: tuple[str, ...]
    role_names: tuple[str, ...]
    stats: dict[str, np.ndarray] = field(default_factory=dict)
    """Per-game figures named as the reference Outcome's ``stats`` (flattened with dots)."""

    def __len__(self) -> int:
        return int(self.seeds.shape[0])


class KernelGame(Protocol):
    """What a kernel module provides."""

    GAME: str
    """The registry id of the game it plays."""
    POLICIES: tuple[str, ...]
    """The bot kinds it plays, as the game's bot registry names them (``random``, ``rules``…)."""

    def unsupported(self, config: Any) -> str | None:
        """None when the kernel plays this config; otherwise the reason, for the report."""

    def play(self, config: Any, seeds: np.ndarray, bots: BotPlan) -> Batch:
        """Play one match per seed with the bots of ``bots`` (by seat, by team, default)."""

    def outcomes(self, batch: Batch) -> list[Outcome]:
        """Each playout's Outcome, equal to the reference match's with the same seed."""


def load(game_id: str) -> KernelGame | None:
    """The kernel module of a game, or None when the game has none.

    Raises ImportError when the module exists but numba cannot be imported (the caller falls
    back to the reference engine and says so)."""
    name = MODULES.get(game_id)
    if name is None:
        return None
    module: Any = importlib.import_module(name)
    return module  # type: ignore[no-any-return]


@dataclass(frozen=True)
class PolicyTable:
    """A :class:`~wolfden.sim.seating.BotPlan` as arrays a compiled playout can read.

    A seat's policy is ``seat[s]`` when it is not -1, else ``team[t]`` for the seat's team ``t``
    when that is not -1, else ``default`` — the order :meth:`BotPlan.kinds_for` uses. Values are
    indices into the kernel's ``POLICIES``.
    """

    default: int
    seat: np.ndarray
    team: np.ndarray


def policy_table(
    bots: BotPlan, num_seats: int, team_names: Sequence[str], policies: Sequence[str]
) -> PolicyTable:
    """The plan's kinds as indices into ``policies``; ValueError names a kind it lacks."""
    import numpy as np

    def index(kind: str) -> int:
        if kind not in policies:
            raise ValueError(f"the kernel has no {kind!r} policy (it has {', '.join(policies)})")
        return policies.index(kind)

    seat = np.full(num_seats, -1, dtype=np.int8)
    for number, kind in bots.seats:
        if 0 <= number < num_seats:
            seat[number] = index(kind)
    team = np.full(len(team_names), -1, dtype=np.int8)
    for name, kind in bots.teams:
        if name in team_names:
            team[list(team_names).index(name)] = index(kind)
    return PolicyTable(index(bots.default), seat, team)


def seed_array(seeds: Iterable[int] | np.ndarray) -> np.ndarray:
    """Seeds as uint64 (a seed's low 64 bits count, as for ``Rng``). A list is converted
    seed by seed: numpy would turn a list mixing seeds above 2**63 into floats."""
    import numpy as np

    if isinstance(seeds, np.ndarray) and seeds.dtype.kind in "iu":
        return seeds.astype(np.uint64)
    return np.array([int(s) & ((1 << 64) - 1) for s in seeds], dtype=np.uint64)
