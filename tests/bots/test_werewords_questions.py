"""What a bot Mayor understands of a typed question: a guess of the word in any ordinary
phrasing counts as a guess, and the Mayor answers it Correct."""

from __future__ import annotations

import pytest

from wolfden.bots.werewords import RandomBot, RulesBot
from wolfden.engine.rng import Rng
from wolfden.engine.types import Action
from wolfden.games.werewords.questions import Form, read_free_text


@pytest.mark.parametrize(
    "text",
    [
        'Is it "peach"?',
        "is it peach",
        "Is it peach?",
        "peach?",
        "PEACH",
        "Peach!",
        "is it a peach?",
        "Is the word 'peach'?",
        "could it be peach?",
        "  is   it   PEACH ??",
    ],
)
def test_a_guess_in_ordinary_words_is_a_guess(text: str) -> None:
    form = read_free_text(text)
    assert form is not None and form.kind == "word"
    assert str(form.arg).casefold() == "peach"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ('Is it in the category "Animals"?', "animals"),
        ("Is it an animal?", "animals"),
        ("food?", "food"),
    ],
)
def test_a_category_in_ordinary_words_is_a_category_question(text: str, category: str) -> None:
    assert read_free_text(text) == Form("category", category)


@pytest.mark.parametrize(
    "text", ["Does it fly?", "Can you eat it?", "Is it bigger than a car?", ""]
)
def test_other_questions_are_not_guesses(text: str) -> None:
    assert read_free_text(text) is None


@pytest.mark.parametrize("text", ["is it peach", "peach?", "PEACH", "Is it peach?"])
def test_a_bot_mayor_answers_correct_to_the_word_however_it_is_asked(text: str) -> None:
    form = read_free_text(text)
    assert form is not None
    view = {
        "phase": "day",
        "word": "peach",
        "you": {"seat": 0, "mayor": True, "role_now": "villager", "notes": []},
        "questions": [{"id": 0, "seat": 1, "text": text, "answer": None, "form": form.to_json()}],
    }
    legal = [Action("answer", (0, t)) for t in ("yes", "no", "maybe", "so_close", "correct")]
    for bot in (RulesBot(0), RandomBot(0)):
        assert bot.act(view, legal, Rng(1)) == Action("answer", (0, "correct"))
