"""The robbers-horror bots play by their role, from their view alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wolfden import bots
from wolfden.bots.robbers_horror import IsmctsBot, RobbersHorrorRulesBot
from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Viewer
from wolfden.games import robbers_horror as rh
from wolfden.sim.runner import play_match
from wolfden_bench import robbers_horror_strength as strength

from ..games.robbers_horror.conftest import play, table

# Seat 0 deals, seat 1 leads. Seat 0 (a Robber here) holds R15 and C13.
ROBBER_HANDS = [
    ["C13", "C14", "C15", "R13", "R14", "R15", "C11", "C12", "R12"],
    ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"],
    ["C10", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"],
    ["R9", "R10", "R11", "W", "W", "S", "K", "K", "T"],
]


def _act(bot: object, state: rh.State, seed: int = 0) -> Action:
    view = json.loads(json.dumps(rh.view(state, Viewer.of(state.turn))))
    return bot.act(view, rh.legal_actions(state, state.turn), Rng(seed))  # type: ignore[attr-defined,no-any-return]


def test_the_bots_are_registered() -> None:
    assert set(bots.kinds("robbers-horror")) == {"random", "rules", "ismcts"}


def test_a_robber_last_to_play_takes_a_trick_full_of_chests() -> None:
    state = table(ROBBER_HANDS)
    state, _ = play(state, "C1", "R1", "R9")  # robbers trump; R9 is winning
    for seed in range(5):
        choice = _act(RobbersHorrorRulesBot(0), state, seed)
        # R12 to R15 beat R9 and take C1's five icons
        assert choice.args[0] in ("R12", "R13", "R14", "R15")


def test_a_werewolf_last_to_play_does_not_take_a_knife() -> None:
    hands = [
        ["W", "C14", "C15", "R14", "R15", "C11", "C1", "R12", "C2"],
        ["C12", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"],
        ["R13", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"],
        ["R9", "R10", "R11", "W", "C13", "S", "K", "K", "T"],
    ]
    state = table(hands)
    state, _ = play(state, "C12", "R13", "K")  # R13 is winning; a Knife is in the trick
    for seed in range(5):
        choice = _act(RobbersHorrorRulesBot(0), state, seed)
        winner = rh.trick_winner(["C12", "R13", "K", str(choice.args[0])])
        assert winner != 3, f"{choice} would take the Knife"


def test_bots_only_play_legal_cards_in_every_seat() -> None:
    players = {
        0: IsmctsBot(0, iterations=20),
        1: RobbersHorrorRulesBot(1),
        2: IsmctsBot(2, iterations=5),
    }
    result = play_match(rh, rh.Config(players=3, deals=1), 9, players)
    assert result.outcome.rounds == 1


def test_ismcts_reads_only_its_view_and_is_reproducible() -> None:
    state = table(ROBBER_HANDS)
    state, _ = play(state, "C1", "R1", "R9")
    a = _act(IsmctsBot(0, iterations=150), state, seed=3)
    b = _act(IsmctsBot(0, iterations=150), state, seed=3)
    assert a == b
    assert a in rh.legal_actions(state, 0)


def test_ismcts_takes_the_last_trick_when_it_decides_the_deal() -> None:
    # Seat 0 is last to play in a trick full of chests; only R15 wins it.
    state = table(ROBBER_HANDS)
    state, _ = play(state, "C1", "R1", "R9")
    assert _act(IsmctsBot(0, iterations=300), state, seed=1).args[0] in ("R12", "R13", "R14", "R15")


def test_ismcts_has_a_time_budget_too() -> None:
    state = rh.setup(rh.Config(players=4), 2)
    choice = _act(IsmctsBot(state.turn, seconds=0.05), state)
    assert choice in rh.legal_actions(state, state.turn)
    with pytest.raises(ValueError):
        IsmctsBot(0, iterations=0)


def test_the_strength_command_plays_and_writes_its_table(tmp_path: Path) -> None:
    doc = tmp_path / "page.md"
    doc.write_text(f"before\n{strength.BEGIN}\nold\n{strength.END}\nafter\n", encoding="utf-8")
    code = strength.main(
        [
            "--matches",
            "4",
            "--jobs",
            "1",
            "--iterations",
            "5",
            "--players",
            "3",
            "--pairs",
            "rules:random,ismcts:rules",
            "--write",
            str(doc),
        ]
    )
    assert code == 0
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert "| rules vs random | 4 |" in text and "| ismcts vs rules | 4 |" in text


def test_wilson_interval() -> None:
    low, high = strength.wilson(60, 100)
    assert round(low, 3) == 0.502 and round(high, 3) == 0.691
    assert strength.wilson(0, 0) == (0.0, 1.0)
