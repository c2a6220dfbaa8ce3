"""The contract every game implements.

A game is a module (or any object) with these attributes. ``apply`` is pure: it never mutates
its input, reads no clock and draws randomness only from the generator held in the state.
Time enters as an action: when a phase's :class:`Deadline` passes, the clock applies the
deadline's action as seat ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Deadline, Event, Outcome, Seat, Viewer


class Bot(Protocol):
    """A bot sees exactly what a human sees: its view and its legal actions."""

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action: ...


BotFactory = Callable[[Seat], Bot]


class Game(Protocol):
    id: str
    version: str
    title: str
    Config: type[Any]

    def setup(self, config: Any, seed: int) -> Any:
        """The initial state. Raises ConfigError for an invalid config."""

    def num_seats(self, config: Any) -> int:
        """How many seats a match of this config has."""

    def actors(self, state: Any) -> frozenset[Seat]:
        """The seats the game is waiting for now (several at once in simultaneous phases)."""

    def legal_actions(self, state: Any, seat: Seat | None) -> list[Action]:
        """The single source of truth, in a deterministic order.

        For seat ``None`` (the moderator: host controls and the clock) the actions the host
        may apply now; the deadline's action is accepted from the clock even if not listed.
        """

    def apply(self, state: Any, seat: Seat | None, action: Action) -> tuple[Any, list[Event]]:
        """The next state and what happened. Raises IllegalAction / NotYourTurn / MatchOver."""

    def deadline(self, state: Any) -> Deadline | None:
        """How long the current phase lasts by the rules, and what happens then."""

    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        """JSON-ready: the only state that is ever sent to a client or a bot."""

    def visible_events(
        self, state: Any, events: Sequence[Event], viewer: Viewer
    ) -> list[dict[str, Any]]:
        """The events this viewer may receive (``state`` is the state after them)."""

    def outcome(self, state: Any) -> Outcome | None:
        """How the match ended, or None while it goes on."""

    def timer(self, state: Any, viewer: Viewer) -> Deadline | None:
        """The countdown this viewer is shown (see :func:`shown_timer`; optional).

        It may differ from ``deadline``: a Werewolf night always shows its longest length, so
        that the moment every night action is in stays secret; a door's peek in Werwölfe Kids
        is timed only for the team that opened it.
        """

    def phase_seq(self, state: Any) -> int:
        """A number that changes whenever a new timed phase begins."""

    # -- for the simulator's bots by team (optional, both or neither) ---------------------

    def team_names(self, config: Any) -> Sequence[str]:
        """The teams ``seat_teams`` may name with this config, as the Outcome names them
        (empty when the game cannot tell, such as Werewords with physical cards)."""

    def seat_teams(self, state: Any) -> Mapping[Seat, str]:
        """Each seat's team now, for choosing bots by team (``--bots TEAM=KIND``).

        Read by the match runner only: never sent to a client or a bot, and it must not change
        the state. The runner asks after ``setup`` and again whenever ``phase_seq`` changes,
        and seats a seat's bot for the team it names, so a game whose teams are dealt anew
        (each deal of Robbers' Horror, each round of Werewords) gets bots by the team of the
        deal in progress. A seat left out gets the bot chosen for seats without a team.
        After the end it agrees with the Outcome's ``teams``.
        """

    # -- for the conformance suite ------------------------------------------------------

    def sample_configs(self) -> Sequence[Any]:
        """A varied set of valid configs for random playouts."""

    def perturb_hidden(self, state: Any, viewer: Viewer, rng: Rng) -> Any | None:
        """A state that differs from ``state`` only in what ``viewer`` cannot know, or None.

        The information wall check asserts that the viewer's view is the same in both, and
        that the events of any action legal in both look the same to the viewer.
        """


def shown_timer(game: Game, state: Any, viewer: Viewer) -> Deadline | None:
    """The countdown a viewer may see: the game's ``timer`` when it has one, else its deadline."""
    timer = getattr(game, "timer", None)
    if timer is not None:
        result: Deadline | None = timer(state, viewer)
        return result
    return game.deadline(state)
