"""The rules bots' decisions, and Werewords in the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from wolfden.bots.werewords import RandomBot, RulesBot, derailers
from wolfden.engine.rng import Rng
from wolfden.engine.types import OMNISCIENT, SPECTATOR, TABLE, Action, Viewer
from wolfden.games import werewords as game
from wolfden.games.werewords.config import Config, Mode, Role
from wolfden.games.werewords.questions import Form
from wolfden.sim.runner import play_match
from wolfden.terminal import werewords as terminal


def _q(i: int, seat: int, form: Form | None, answer: str | None = None) -> dict[str, Any]:
    text = form.text() if form is not None else "Does it fly at night?"
    return {
        "id": i,
        "seat": seat,
        "text": text,
        "answer": answer,
        "form": None if form is None else form.to_json(),
    }


def _mayor_view(role: str, forms: list[Form | None]) -> dict[str, Any]:
    return {
        "phase": "day",
        "word": "owl",
        "you": {"seat": 0, "mayor": True, "role": role, "role_now": role, "notes": []},
        "questions": [_q(i, 1 + i % 4, form) for i, form in enumerate(forms)],
    }


def _answers(bot: Any, view: dict[str, Any], rng: Rng) -> list[str]:
    out = []
    for q in view["questions"]:
        legal = [Action("answer", (q["id"], t)) for t in ("yes", "no", "maybe", "correct")]
        if q["form"] is None:
            legal.append(Action("unclear", (q["id"],)))
        single = {**view, "questions": [q]}
        action = bot.act(single, legal, rng)
        out.append("unclear" if action.name == "unclear" else str(action.args[1]))
    return out


QUESTIONS = [
    Form("category", "animals"),
    Form("category", "food"),
    Form("word", "cat"),
    Form("word", "OWL"),
    Form("starts", "o"),
    Form("contains", "w"),
    Form("more", 3),
    Form("fewer", 4),
    Form("one_word"),
    None,
]
TRUE_ANSWERS = ["yes", "no", "no", "correct", "yes", "yes", "no", "yes", "yes", "unclear"]


def test_every_bot_mayor_answers_from_the_hidden_truth_whatever_its_role() -> None:
    for bot in (RulesBot(0), RandomBot(0)):
        for role in ("villager", "werewolf", "seer"):
            for seed in range(5):
                view = _mayor_view(role, QUESTIONS)
                assert _answers(bot, view, Rng(seed)) == TRUE_ANSWERS
    spoken = {**_mayor_view("villager", []), "questions": []}
    gives = [Action("give", (s, t)) for s in (1, 2) for t in ("yes", "no", "maybe", "correct")]
    assert RulesBot(0).act(spoken, gives, Rng(1)).args[1] == "maybe"


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
        _q(0, 1, Form("category", "animals"), "yes"),
        _q(1, 2, Form("category", "music"), "no"),
        _q(2, 3, Form("word", "giraffe"), "no"),
        _q(3, 2, Form("word", "pizza"), "no"),
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


def _guesser_view(role: str, word: str | None, questions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "phase": "day",
        "round": 1,
        "difficulty": "medium",
        "word": word,
        "you": {"seat": 2, "mayor": False, "role": role, "role_now": role, "notes": []},
        "questions": questions,
    }


ASK = [Action("ask", ("?",))]


def test_a_villager_asks_what_still_splits_the_words_the_answers_allow() -> None:
    from wolfden.bots.werewords import WORDS, levels
    from wolfden.games.werewords.questions import truth

    answered = [
        _q(0, 1, Form("category", "animals"), "yes"),
        _q(1, 3, Form("more", 5), "no"),
    ]
    view = _guesser_view("villager", None, answered)
    allowed = [
        w.word
        for w in WORDS
        if w.difficulty in levels(view) and w.category == "animals" and len(w.letters) <= 5
    ]
    assert len(allowed) > 3
    for seed in range(10):
        action = RulesBot(2).act(view, ASK, Rng(seed))
        assert action.name.startswith("ask_")
        form = Form(action.name.removeprefix("ask_"), action.args[0] if action.args else None)
        assert form not in (Form("category", "animals"), Form("more", 5))
        yes = sum(bool(truth(form, w)) for w in allowed)
        assert 0 < yes < len(allowed), form  # never a question whose answer is already known


def test_a_werewolf_who_knows_the_word_never_guesses_it() -> None:
    answered = [_q(0, 1, Form("category", "animals"), "yes")]
    answered += [_q(1 + i, 3, Form("starts", "o"), "yes") for i in range(1)]
    answered += [_q(2, 3, Form("fewer", 4), "yes")]
    for role, word in (("werewolf", "owl"), ("villager", None)):
        view = _guesser_view(role, word, answered)
        guesses = [RulesBot(2).act(view, ASK, Rng(s)) for s in range(20)]
        words = {str(a.args[0]).casefold() for a in guesses if a.name == "ask_word"}
        if role == "werewolf":
            assert "owl" not in words
        else:
            assert words == {"owl"}  # the only animal under four letters starting with o


def test_a_clue_that_gives_the_word_away_is_refused_at_the_keyboard() -> None:
    view = {"word": "ice cream"}
    assert terminal.text_problem(Action("clue", ("icecreams",)), view) == (
        "a clue must not contain the Magic Word"
    )
    assert terminal.text_problem(Action("clue", ("frosty",)), view) is None
    assert terminal.text_problem(Action("ask", ("ring\x07",)), view) is not None


def test_a_bot_mayor_says_so_close_and_way_way_off_by_the_documented_measure() -> None:
    def view(guesses: list[str]) -> dict[str, Any]:
        return {
            "phase": "day",
            "word": "peach",
            "you": {"seat": 0, "mayor": True, "role_now": "werewolf", "notes": []},
            "questions": [
                _q(i, 1, Form("word", g), None if i == len(guesses) - 1 else "no")
                for i, g in enumerate(guesses)
            ],
        }

    def legal(q: int) -> list[Action]:
        tokens = ("yes", "no", "maybe", "so_close", "correct")
        return [*(Action("answer", (q, t)) for t in tokens), Action("wayoff", ("table",))]

    for bot in (RulesBot(0), RandomBot(0)):
        assert bot.act(view(["peaches"]), legal(0), Rng(1)) == Action("answer", (0, "so_close"))
        assert bot.act(view(["plum"]), legal(0), Rng(1)) == Action("answer", (0, "no"))
        far_off = view(["giraffe", "owl", "trumpet"])
        assert bot.act(far_off, legal(2), Rng(1)) == Action("wayoff", ("table",))
        near = view(["giraffe", "owl", "plum"])
        assert bot.act(near, legal(2), Rng(1)) == Action("answer", (2, "no"))
