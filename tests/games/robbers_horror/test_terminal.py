"""robbers-horror at the keyboard: the table drawn as each viewer sees it, and the commands."""

from __future__ import annotations

from click.testing import CliRunner

from wolfden.cli import cli
from wolfden.engine.rng import Rng
from wolfden.engine.types import OMNISCIENT, SPECTATOR, Action, Viewer
from wolfden.games import robbers_horror as rh
from wolfden.terminal import robbers_horror as term

from .conftest import play, table

HANDS = [
    ["C1", "C4", "C7", "C10", "R1", "R4", "R7", "R10", "W"],
    ["C2", "C5", "C8", "C11", "R2", "R5", "R8", "R11", "K"],
    ["C3", "C6", "C9", "C12", "R3", "R6", "R9", "R12", "K"],
]


def test_a_seat_sees_its_hand_role_and_the_trick_explained() -> None:
    state, _ = play(table(HANDS, undealt="T"), "C2", "R3", "C1")
    state, _ = play(state, "K")
    text = term.render(rh.view(state, Viewer.of(0)))
    assert "You are seat 0, a Werewolf" in text
    assert "Your hand: C4 C7 C10 R1 R4 R7 R10 W" in text
    assert "Last trick, trick 1 (led by seat 1; chests led, robbers trump):" in text
    assert "→ seat 2 wins with R3 (R3 trump)" in text
    assert "seat 2: K    counts as 0 of the trump suit" in text
    assert "Seat 0 to play." in text


def test_the_menu_says_what_each_card_would_count_as() -> None:
    state, _ = play(table(HANDS, undealt="T"), "C2", "R3")
    view = rh.view(state, Viewer.of(0))
    assert term.describe(Action("play", ("W",)), view).endswith("would count as R4 trump")
    assert term.describe(Action("play", ("C7",)), view).endswith("would count as C7")


def test_the_scoring_breakdown_is_shown_after_each_deal() -> None:
    state = rh.setup(rh.Config(players=4), 3)
    rng = Rng(1)
    while rh.view(state, SPECTATOR)["deal"] == 1:
        legal = rh.legal_actions(state, state.turn)
        state, _ = rh.apply(state, state.turn, legal[rng.below(len(legal))])
    text = term.render(rh.view(state, SPECTATOR))
    assert "Deal 1 scored (undealt card: none):" in text
    assert "Robber team (" in text and "Werewolf team (" in text
    while rh.outcome(state) is None:
        legal = rh.legal_actions(state, state.turn)
        state, _ = rh.apply(state, state.turn, legal[rng.below(len(legal))])
    final = term.render(rh.view(state, OMNISCIENT))
    assert "Final ranking:" in final and "Deal 4 scored" in final


def test_bots_play_a_match_in_the_terminal() -> None:
    result = CliRunner().invoke(
        cli, ["play", "robbers-horror", "--players", "3", "--seed", "2", "--bots", "rules"]
    )
    assert result.exit_code == 0, result.output
    assert "Trick 1, " in result.output
    assert "Deal 3 scored" in result.output and "Final ranking:" in result.output


def test_a_person_plays_by_typing_a_card() -> None:
    from wolfden.terminal.play import PlaySession, TerminalPlayer

    state, _ = play(table(HANDS, undealt="T"), "C2", "R3")
    answers = iter(["X9", "c4"])
    shown: list[str] = []
    session = PlaySession(rh, [0], ["Seat 0"], echo=shown.append, prompt=lambda _: next(answers))
    person = TerminalPlayer(rh, 0, "Seat 0", session)
    choice = person.act(rh.view(state, Viewer.of(0)), rh.legal_actions(state, 0), Rng(1))
    assert choice == Action("play", ("C4",))
    assert "Please type a number from 1 to 9." in shown
