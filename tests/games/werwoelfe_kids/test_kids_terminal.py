"""Werwölfe Kids in the terminal: the village as boxes, and the game's own flags."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wolfden.engine.errors import ConfigError
from wolfden.engine.types import Action
from wolfden.games.werwoelfe_kids import VILLAGE, WEREWOLVES, Config, Language
from wolfden.terminal import werwoelfe_kids as term

from .kids_table import PEOPLE, Table


def test_closed_doors_are_shaded_and_an_open_door_shows_what_is_behind_it() -> None:
    t = Table()
    t.place(PEOPLE)
    t.haunt(["C3", "C4", "C2"])
    t.do(VILLAGE, "open B2")
    text = term.render(t.view(VILLAGE))
    assert "╔══════════╗" in text and "Fritz" in text and "▒▒▒▒▒▒▒▒▒▒" in text
    assert "Behind the door of B2: Fritz" in text
    assert "Fritz" not in term.render(t.view(WEREWOLVES))
    t.do(VILLAGE, "close")
    assert "Fritz" not in term.render(t.view(VILLAGE)) and "╔" not in term.render(t.view(VILLAGE))


def test_the_missing_row_the_caught_werewolves_and_the_duel_are_drawn() -> None:
    t = Table()
    t.place(PEOPLE)
    t.haunt(["A1", "C4", "C2"])
    t.do(VILLAGE, "open C4")
    text = term.render(t.view(WEREWOLVES))
    assert "Missing (2 of 8):" in text and "[  Ada   ][ Jonas  ][        ]" in text
    assert "Caught werewolves: □ □ □  (0 of 3)" in text
    assert "Dice duel at C4" in text and "WEREWOLF" in text


def test_the_village_is_drawn_in_german() -> None:
    t = Table(Config(language=Language.DE))
    text = term.render(t.view(VILLAGE))
    assert "Vorbereitung" in text and "Ihr seid das Dorf-Team." in text


def test_menu_labels_say_what_an_action_does() -> None:
    t = Table()
    view = t.view(VILLAGE)
    assert term.describe(Action.parse("pick ada"), view).startswith("Pick Ada (the baker")
    t.do(VILLAGE, "pick ada")
    assert term.describe(Action.parse("put B2"), t.view(VILLAGE)) == "Put Ada in B2"
    assert term.describe(Action.parse("roll"), view) == "Roll the dice!"


def test_vs_bot_makes_the_other_team_yours_and_plays_duels_in_rounds() -> None:
    options: dict[str, object] = {"vs_bot": "werewolves", "memory": ("young",), "human": ()}
    config: dict[str, object] = {}
    seats: dict[int, str] = {}
    term.apply_extra(options, config, seats)
    assert seats == {WEREWOLVES: "young"} and options["human"] == (VILLAGE,)
    assert config == {"duel": "rounds"}


def test_variants_and_two_memory_levels_for_a_simulation() -> None:
    options: dict[str, object] = {
        "variant": ("too-hard", "extra-difficult"),
        "memory": ("perfect", "young"),
    }
    config: dict[str, object] = {"duel": "race"}
    seats: dict[int, str] = {}
    term.apply_extra(options, config, seats)
    assert config == {"too_hard": True, "layout": "4x4", "duel": "race"}
    assert seats == {VILLAGE: "perfect", WEREWOLVES: "young"}


def test_a_bot_team_with_two_memories_is_refused() -> None:
    with pytest.raises(ConfigError, match="one level"):
        term.apply_extra({"vs_bot": "village", "memory": ("young", "older")}, {}, {})


def test_a_child_plays_the_village_against_a_young_werewolf_team() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "wolfden",
            "play",
            "werwoelfe-kids",
            "--vs-bot",
            "werewolves",
            "--memory",
            "young",
            "--seed",
            "3",
        ],
        input="1\n" * 2000,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[3] / "src")},
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "You are the Village team." in out and "Kikeriki!" in out and "Ahuuuu!" in out
    assert "Behind the door of" in out and "Winner:" in out
