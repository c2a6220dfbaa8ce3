"""Questions with a defined truth: the truth table, the actions that ask them, and the rule
that every Mayor answers one question before handing out any other token; and no bot Mayor,
random included, ever gives Correct to anything but a guess of the word."""

from __future__ import annotations

from typing import Any

import pytest

from wolfden import bots
from wolfden.engine.errors import IllegalAction
from wolfden.engine.rng import Rng
from wolfden.engine.types import SPECTATOR, Action, Viewer
from wolfden.games import werewords as game
from wolfden.games.werewords import rules
from wolfden.games.werewords.config import Config, Mode, Role
from wolfden.games.werewords.questions import Form, every_form, same_word, so_close, truth
from wolfden.games.werewords.roles import Phase
from wolfden.sim.runner import play_match
from wolfden.words.builtin import ENTRIES

from .conftest import R, play, rigged, through_night

FORMS = [
    Form("word", "a Peach"),
    Form("category", "food"),
    Form("category", "animals"),
    Form("starts", "p"),
    Form("starts", "a"),
    Form("contains", "e"),
    Form("contains", "z"),
    Form("more", 5),
    Form("fewer", 5),
    Form("one_word"),
]

TABLE = {
    # word:        guess  food   anim.  p      a      e      z      >5     <5     one word
    "peach": [True, True, False, True, False, True, False, False, False, True],
    "giraffe": [False, False, True, False, False, True, False, True, False, True],
    "ice cream": [False, True, False, False, False, True, False, True, False, False],
    "Äpfel": [False, None, None, False, True, True, False, False, False, True],
    "jazz": [False, False, False, False, False, False, True, False, True, True],
    "fizz": [False, None, None, False, False, False, True, False, True, True],
}


@pytest.mark.parametrize("word", list(TABLE))
def test_the_truth_table_of_the_structured_questions(word: str) -> None:
    assert [truth(form, word) for form in FORMS] == TABLE[word]


def test_the_truth_table_holds_for_words_drawn_from_the_library() -> None:
    """Seeded: 200 built-in words checked against the questions' plain meaning."""
    rng = Rng(7)
    for _ in range(200):
        entry = ENTRIES[rng.below(len(ENTRIES))]
        word = entry.word
        bare = "".join(ch for ch in word.casefold() if ch.isalnum())
        assert truth(Form("word", word.upper()), word) is True
        assert truth(Form("category", entry.category), word) is True
        for form in every_form():
            got = truth(form, word)
            if form.kind == "starts" and bare.isascii():
                assert got is bare.startswith(str(form.arg))
            elif form.kind == "contains" and bare.isascii():
                assert got is (str(form.arg) in bare)
            elif form.kind == "more" and bare.isascii():
                assert got is (len(bare) > int(str(form.arg)))
            elif form.kind == "fewer" and bare.isascii():
                assert got is (len(bare) < int(str(form.arg)))
            elif form.kind == "one_word":
                assert got is (" " not in word)
            elif form.kind == "category":
                assert got is (form.arg == entry.category)


def test_guesses_and_nearness() -> None:
    assert same_word("The PEACH", "peach") and same_word("peach!", "Peach")
    assert not same_word("peaches", "peach")
    assert so_close("peaches", "peach")  # one contains the other
    assert so_close("frog", "tree frog")
    assert not so_close("plum", "peach")  # same category, far in spelling
    assert not so_close("giraffe", "peach")
    assert not so_close("peach", "peach")


# -- the actions -----------------------------------------------------------------------


SIX = (R.VILLAGER, R.SEER, R.WEREWOLF, R.VILLAGER, R.VILLAGER, R.VILLAGER)


def _day(word: str = "peach", **options: Any) -> Any:
    config = Config(words_medium=(word,), word_choices=1, **options)
    return through_night(rigged(config, 0, SIX))


def test_structured_questions_are_actions_in_the_log_with_their_form() -> None:
    state = _day()
    legal = game.legal_actions(state, 3)
    for action in (
        Action("ask_category", ("food",)),
        Action("ask_starts", ("p",)),
        Action("ask_contains", ("e",)),
        Action("ask_more", (5,)),
        Action("ask_fewer", (5,)),
        Action("ask_one_word"),
        Action("ask_word", ("?",)),
        Action("ask", ("?",)),
    ):
        assert action in legal
    state, events = play(state, 3, "ask_category food")
    assert events[-1].data == {
        "id": 0,
        "seat": 3,
        "question": 'Is it in the category "Food and drink"?',
        "form": {"kind": "category", "arg": "food"},
    }
    state, _ = play(state, 0, "answer 0 yes")
    state, _ = play(state, 4, 'ask_word "Peach"')
    log = game.view(state, SPECTATOR)["questions"]
    assert log[-1]["text"] == 'Is it "Peach"?'
    assert log[-1]["form"] == {"kind": "word", "arg": "Peach"}
    state, _ = play(state, 0, "answer 1 correct")
    assert state.phase is Phase.POINTING and state.guesser == 4


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("ask_category mushrooms", "unknown category"),
        ("ask_starts ab", "one letter"),
        ("ask_contains 7", "one letter"),
        ("ask_more 0", "number of letters"),
        ("ask_fewer 99", "number of letters"),
        ('ask_word "   "', "a guess is"),
        ("ask_one_word 3", "takes nothing"),
    ],
)
def test_a_malformed_structured_question_says_what_is_allowed(text: str, problem: str) -> None:
    with pytest.raises(IllegalAction, match=problem):
        play(_day(), 3, text)


def test_a_guess_in_ordinary_words_is_read_as_a_guess() -> None:
    _, events = play(_day(), 2, 'ask "is it a peach?"')
    assert events[-1].data["form"] == {"kind": "word", "arg": "peach"}


def test_free_text_a_bot_cannot_judge_gets_maybe_and_a_public_line() -> None:
    state, _ = play(_day(), 2, 'ask "Would my grandmother like it?"')
    assert Action("unclear", (0,)) in game.legal_actions(state, 0)
    state, events = play(state, 0, "unclear 0")
    said = [e.text for e in events if e.type == "unclear"]
    assert said == [rules.UNCLEAR_LINE]
    assert game.view(state, SPECTATOR)["questions"][0]["answer"] == "maybe"
    assert game.view(state, SPECTATOR)["received"][2]["maybe"] == 1


def test_a_question_waits_for_its_token() -> None:
    """The Mayor may not ignore questions: while one waits, no token goes to anyone else."""
    state, _ = play(_day(), 2, "ask_one_word")
    legal = game.legal_actions(state, 0)
    assert {a.name for a in legal} == {"answer", "wayoff"}
    assert {a.args[0] for a in legal if a.name == "answer"} == {0}
    with pytest.raises(IllegalAction):
        play(state, 0, "give 3 correct")
    state, _ = play(state, 0, "wayoff table")  # beside an answer, never instead of one
    assert game.actors(state) == {0}
    state, _ = play(state, 0, "answer 0 yes")
    assert game.actors(state) == {1, 2, 3, 4, 5}


# -- the Doppelgänger-Mayor who copied the Seer ------------------------------------------


def test_a_doppelganger_mayor_who_copied_the_seer_is_the_seer_everywhere() -> None:
    config = Config(
        players=6,
        roles=(R.DOPPELGANGER, R.SEER, R.WEREWOLF, R.APPRENTICE, R.VILLAGER, R.VILLAGER),
    )
    cards = (R.DOPPELGANGER, R.SEER, R.WEREWOLF, R.APPRENTICE, R.VILLAGER, R.VILLAGER)
    state = rigged(config, 0, cards)
    state, _ = play(state, 0, "copy 1")
    assert state.role(0) is Role.SEER and rules.mayor_is_seer(state)
    state = through_night(state)
    you = game.view(state, Viewer.of(3))["you"]
    notes = {n["kind"]: n["value"] for n in you["notes"]}
    assert notes["mayor_is_seer"] is True and notes["word"] == state.word
    assert rules.finds_seer(state, 0) and rules.finds_seer(state, 3)


# -- honest bot Mayors -----------------------------------------------------------------


CONFIGS = [
    Config(),
    Config(players=8, deluxe=(Role.APPRENTICE, Role.MINION, Role.DOPPELGANGER)),
    Config(players=5, speedwords=True),
    Config(players=5, typed_questions=False),
    Config(players=4, mode=Mode.COMPANION),
    Config(players=5, words_medium=("Grandma Rose", "the old oak", "Äpfel")),
]


@pytest.mark.parametrize("kind", ["random", "rules"])
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}-{c.mode.value}")
def test_no_bot_mayor_gives_correct_without_a_guess_of_the_word(kind: str, config: Any) -> None:
    corrects = 0

    def check(state: Any, seat: Any, action: Action, events: Any, now: float) -> None:
        nonlocal corrects
        if seat is None or seat != state.mayor:
            return
        if action.name in ("give", "correct"):
            assert "correct" not in action.args, action  # it heard no guess
        if action.name == "answer" and action.args[1] == "correct":
            form = state.questions[int(action.args[0])].form
            assert form is not None and form.kind == "word", action
            assert same_word(str(form.arg), state.word)
            corrects += 1

    players = {s: bots.make("werewords", kind, s) for s in range(config.players)}
    for seed in range(12):
        play_match(game, config, seed, players, on_step=check)
    if config.mode is Mode.ONLINE and config.typed_questions and kind == "rules":
        assert corrects > 0  # the searchers do find words
