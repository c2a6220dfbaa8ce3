"""The rules bots' decisions, and Werewords in the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from wolfden.bots.werewords import CATEGORY_Q, GUESS_Q, RulesBot, derailers
from wolfden.engine.rng import Rng
from wolfden.engine.types import OMNISCIENT, SPECTATOR, TABLE, Action, Viewer
from wolfden.games import werewords as game
from wolfden.games.werewords.config import Config, Mode, Role
from wolfden.sim.runner import play_match
from wolfden.terminal import werewords as terminal


def _mayor_view(role: str, questions: list[tuple[int, str]]) -> dict[str, Any]:
    return {
        "phase": "day",
        "word": "owl",
        "you": {"seat": 0, "mayor": True, "role": role, "role_now": role, "notes": []},
        "questions": [
            {"id": i, "seat": seat, "text": text, "answer": None}
            for i, (seat, text) in enumerate(questions)
        ],
    }


def _answers(view: dict[str, Any], rng: Rng) -> list[str]:
    out = []
    for q in view["questions"]:
        legal = [Action("answer", (q["id"], t)) for t in ("yes", "no", "maybe", "correct")]
        single = {**view, "questions": [q]}
        out.append(str(RulesBot(0).act(single, legal, rng).args[1]))
    return out


def test_a_rules_mayor_answers_from_the_hidden_truth() -> None:
    view = _mayor_view(
        "villager",
        [
            (1, CATEGORY_Q.format("Animals")),
            (2, CATEGORY_Q.format("Food and drink")),
            (3, GUESS_Q.format("cat")),
            (4, GUESS_Q.format("OWL")),
            (1, "Does it fly at night?"),
        ],
    )
    assert _answers(view, Rng(1)) == ["yes", "no", "no", "correct", "maybe"]
    spoken = {**view, "questions": []}
    gives = [Action("give", (s, t)) for s in (1, 2) for t in ("yes", "no", "maybe")]
    assert RulesBot(0).act(spoken, gives, Rng(1)).args[1] == "maybe"


def test_a_werewolf_mayor_sometimes_lies_about_categories() -> None:
    view = _mayor_view("werewolf", [(1, CATEGORY_Q.format("Animals"))])
    answers = {_answers(view, Rng(seed))[0] for seed in range(20)}
    assert answers == {"yes", "no"}


def test_werewolves_point_at_whoever_seemed_to_know_the_word() -> None:
    view = {
        "phase": "pointing",
        "revealed": {"2": "werewolf"},
        "received": [{}, {"yes": 1}, {"yes": 5}, {"yes": 4, "so_close": 1}, {"no": 3}],
    }
    legal = [Action("point", (s,)) for s in (0, 1, 3, 4)]
    assert RulesBot(2).act(view, legal, Rng(3)) == Action("point", (3,))


def test_the_village_votes_for_whoever_led_away_from_a_confirmed_category() -> None:
    questions = [
        {"id": 0, "seat": 1, "text": CATEGORY_Q.format("Animals"), "answer": "yes"},
        {"id": 1, "seat": 2, "text": CATEGORY_Q.format("Music"), "answer": "no"},
        {"id": 2, "seat": 3, "text": GUESS_Q.format("giraffe"), "answer": "no"},
        {"id": 3, "seat": 2, "text": GUESS_Q.format("pizza"), "answer": "no"},
    ]
    view = {
        "phase": "voting",
        "questions": questions,
        "received": [{}, {"yes": 1}, {"no": 2}, {"no": 1}],
        "you": {"seat": 0, "role_now": "villager", "notes": []},
    }
    assert derailers(view) == {2: 2}
    legal = [Action("vote", (s,)) for s in (1, 2, 3)]
    assert RulesBot(0).act(view, legal, Rng(5)) == Action("vote", (2,))


def test_every_view_renders_and_every_action_has_a_label() -> None:
    config = Config(players=6, deluxe=(Role.MINION, Role.THING), speedwords=True)
    seen_phases = set()

    def check(state: Any, seat: Any, action: Any, events: Any, now: float) -> None:
        for viewer in (TABLE, SPECTATOR, OMNISCIENT, *(Viewer.of(s) for s in range(6))):
            view = game.view(state, viewer)
            assert terminal.render(view).startswith("== Werewords")
            seen_phases.add(view["phase"])
        for s in game.actors(state):
            view = game.view(state, Viewer.of(s))
            for legal in game.legal_actions(state, s):
                assert terminal.describe(legal, view)

    for seed in range(3):
        play_match(game, config, seed, {s: RulesBot(s) for s in range(6)}, on_step=check)
    assert {"night", "day", "result", "over"} <= seen_phases
    companion = game.setup(Config(players=4, mode=Mode.COMPANION), 1)
    assert "Who has the Mayor card?" in terminal.render(game.view(companion, TABLE))


def _wolfden(*args: str, input: str) -> subprocess.CompletedProcess[str]:
    src = str(Path(__file__).parents[3] / "src")
    return subprocess.run(
        [sys.executable, "-m", "wolfden", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": src},
    )


def test_a_person_types_a_question_in_the_terminal() -> None:
    result = _wolfden(
        "play",
        "werewords",
        "--players",
        "5",
        "--human",
        "1",
        "--seed",
        "2",
        input=('ask "Does it live in the sea?"\n' + "1\n") * 150,
    )
    assert result.returncode == 0, result.stderr
    assert "Does it live in the sea?" in result.stdout
    assert "The match is over" in result.stdout


def test_word_list_flags_become_the_games_word_pools(tmp_path: Path) -> None:
    from wolfden.storage.words import SqliteWordStore, WordList

    db = tmp_path / "words.sqlite3"
    SqliteWordStore(db).save(WordList("Family", "easy", "all", ("Grandma Rose", "Uncle Bob")))
    kwargs: dict[str, Any] = {}
    options = {"word_lists": ("Family",), "builtin_words": False, "words_db": str(db)}
    terminal.apply_extra(options, kwargs, {})
    assert kwargs == {"words_easy": ["Grandma Rose", "Uncle Bob"]}
    untouched: dict[str, Any] = {}
    terminal.apply_extra({"word_lists": (), "builtin_words": True}, untouched, {})
    assert untouched == {}


def test_the_minion_leads_the_table_away_from_a_confirmed_category() -> None:
    view = {
        "phase": "day",
        "difficulty": "medium",
        "word": None,
        "you": {"seat": 2, "mayor": False, "role": "minion", "role_now": "minion", "notes": []},
        "questions": [{"id": 0, "seat": 1, "text": CATEGORY_Q.format("Animals"), "answer": "yes"}],
    }
    asked = [RulesBot(2).act(view, [Action("ask", ("?",))], Rng(s)).args[0] for s in range(20)]
    off = [q for q in asked if q.startswith("Is it in the category") and "Animals" not in q]
    assert 5 <= len(off) < 20


def test_a_clue_that_gives_the_word_away_is_refused_at_the_keyboard() -> None:
    view = {"word": "ice cream"}
    assert terminal.text_problem(Action("clue", ("icecreams",)), view) == (
        "a clue must not contain the Magic Word"
    )
    assert terminal.text_problem(Action("clue", ("frosty",)), view) is None
    assert terminal.text_problem(Action("ask", ("ring\x07",)), view) is not None
