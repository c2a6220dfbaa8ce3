"""A match at one keyboard: people on some seats, bots on the rest.

Before every private step the screen asks the right person to take the keyboard while the
others look away, and clears again afterwards, so nobody sees another player's secret.
Public narration is printed as it happens.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import click

from wolfden.engine.contract import Game
from wolfden.engine.errors import ParseError
from wolfden.engine.rng import Rng
from wolfden.engine.types import TABLE, Action, Event, Seat, Viewer
from wolfden.terminal import describe, module_for, render

Prompt = Callable[[str], str]


class TerminalPlayer:
    """A person at the keyboard. Asks by number or by the action's text."""

    needs_view = True

    def __init__(self, game: Game, seat: Seat, name: str, session: PlaySession) -> None:
        self.game = game
        self.seat = seat
        self.name = name
        self.session = session

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        s = self.session
        s.hand_over(self.name)
        s.echo(render(self.game.id, view))
        for line in s.private_lines.pop(self.seat, []):
            s.echo(f"  (for you) {line}")
        s.echo("")
        for i, action in enumerate(legal, 1):
            s.echo(f"  {i:>2}. {describe(self.game.id, action, view)}")
        while True:
            answer = s.prompt(f"{self.name}, your choice (1–{len(legal)})").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                choice = legal[int(answer) - 1]
                break
            try:
                parsed = Action.parse(answer)
            except ParseError:
                parsed = None
            if parsed in legal or _free_text(self.game.id, parsed, legal):
                assert parsed is not None
                problem = _text_problem(self.game.id, parsed, view)
                if problem is None:
                    choice = parsed
                    break
                s.echo(f"Not that: {problem}.")
                continue
            # just the argument, as in "R7" for "play R7", when that names one action
            named = [a for a in legal if " ".join(map(str, a.args)).lower() == answer.lower()]
            if len(named) == 1:
                choice = named[0]
                break
            s.echo(f"Please type a number from 1 to {len(legal)}.")
        s.pending_seat = self.seat
        return choice


class PlaySession:
    def __init__(
        self,
        game: Game,
        humans: Sequence[Seat],
        names: Sequence[str],
        *,
        echo: Callable[[str], None] = click.echo,
        prompt: Prompt | None = None,
        clear: Callable[[], None] = click.clear,
    ) -> None:
        self.game = game
        self.humans = list(humans)
        self.names = list(names)
        self.echo = echo
        self.prompt: Prompt = prompt or (
            lambda text: str(click.prompt(text, default="", show_default=False))
        )
        self.clear = clear
        self.private_lines: dict[Seat, list[str]] = {}
        self.pending_seat: Seat | None = None

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    def hand_over(self, name: str) -> None:
        if self.hot_seat:
            self.clear()
            self.prompt(
                f"Pass the keyboard to {name}; everyone else, look away. {name}, press Enter"
            )

    def hand_back(self) -> None:
        if self.hot_seat:
            self.prompt("Press Enter, then pass the keyboard on")
            self.clear()

    def on_step(
        self, state: Any, seat: Seat | None, action: Action, events: list[Event], now: float
    ) -> None:
        game = self.game
        for line in _lines(game.visible_events(state, events, TABLE)):
            self.echo(line)
        for human in self.humans:
            public = {id(e) for e in events if e.audience.public}
            private = [e for e in events if id(e) not in public]
            mine = _lines(game.visible_events(state, private, Viewer.of(human)))
            if human == seat:
                for line in mine:
                    self.echo(f"  (for you) {line}")
            elif mine:
                self.private_lines.setdefault(human, []).extend(mine)
        if seat is not None and seat == self.pending_seat:
            self.pending_seat = None
            self.hand_back()

    def deal(self, state: Any) -> None:
        """Before play begins, each person privately sees their own seat (their card)."""
        for seat in self.humans:
            self.hand_over(self.names[seat])
            self.echo(render(self.game.id, self.game.view(state, Viewer.of(seat))))
            if self.hot_seat:
                self.hand_back()
            else:
                self.echo("")

    def on_wait(self, state: Any, label: str) -> None:
        """Before the clock ends a phase nobody acts in (the day's discussion)."""
        if self.humans and label == "discussion":
            self.prompt("Talk it over at the table. Press Enter to open the ballot")


def _text_problem(game_id: str, action: Action, view: Mapping[str, Any]) -> str | None:
    """What the game would refuse in a typed text, asked before the action is sent."""
    check = getattr(module_for(game_id), "text_problem", None)
    if check is None:
        return None
    problem: str | None = check(action, view)
    return problem


def _free_text(game_id: str, action: Action | None, legal: Sequence[Action]) -> bool:
    """A typed action with free text (a question), when the game lists that kind of action."""
    limits = getattr(module_for(game_id), "FREE_TEXT", {})
    if action is None or action.name not in limits or len(action.args) != 1:
        return False
    text = action.args[0]
    return (
        isinstance(text, str)
        and 0 < len(text.strip()) <= limits[action.name]
        and any(a.name == action.name for a in legal)
    )


def _lines(events: list[dict[str, Any]]) -> list[str]:
    return [str(e["text"]) for e in events if e.get("text")]
