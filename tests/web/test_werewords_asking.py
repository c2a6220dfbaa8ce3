"""Werewords asked from the list, in a real browser on a phone: a person plays a whole round
with a bot Mayor and bot guessers, asks every listed kind of question through the asking
screen, and the bot Mayor's answer to each is the true one for the room's word.

The word is read the way only the server knows it: the match's stored setup and actions,
replayed by the game's rules (the omniscient state); the person's phone never shows it.
"""

from __future__ import annotations

import time
from typing import Any

from tests.web.conftest import Pages, next_change
from tests.web.walkthrough_checks_werewords import match_state
from wolfden import games
from wolfden.games.werewords.questions import (
    KINDS,
    Form,
    letters,
    read_free_text,
    same_word,
    so_close,
    truth,
)
from wolfden.words.builtin import categories_of

PLAYERS = 4


def seed_for_ada() -> int:
    """A seed that makes Ada (seat 0) a Villager and a bot the Mayor, with a Werewolf among
    the bots who ask."""
    game = games.get("werewords")
    cfg = game.Config(players=PLAYERS)
    for seed in range(1, 5000):
        state = game.setup(cfg, seed)
        roles = [c.value if c is not None else None for c in state.cards]
        askers = [s for s in range(1, PLAYERS) if s != state.mayor]
        if (
            state.mayor != 0
            and roles[0] == "villager"
            and any(roles[s] == "werewolf" for s in askers)
        ):
            return seed
    raise AssertionError("no such seed")


def omniscient_state(server: Any, code: str) -> Any:
    """The room's match as the server holds it: its setup and every action, replayed."""
    state = match_state(server, code)
    assert state is not None, f"room {code} has a match"
    return state


def honest(form: Form, word: str) -> str:
    """The token questions.py's truth calls for (a guess: Correct, So close or No; own words
    the rules cannot read: Maybe, as the Mayor calls them unclear)."""
    if form.kind == "text":
        read = read_free_text(str(form.arg))
        return "maybe" if read is None else honest(read, word)
    if form.kind == "word":
        if same_word(str(form.arg), word):
            return "correct"
        return "so_close" if so_close(str(form.arg), word) else "no"
    right = truth(form, word)
    assert right is not None, f"{word!r} is a built-in word, every question has a truth"
    return "yes" if right else "no"


def questions_for(word: str) -> list[Form]:
    """Every listed kind, with arguments that give Yes to some and No to others; the guess of
    the word last, as it ends the day."""
    bare = letters(word)
    first = bare[0]
    other_start = next(x for x in "etaoinsrhl" if x != first)
    inside = next(x for x in bare if x.isalpha())
    wrong = "peach" if not same_word("peach", word) else "banana"
    other = "banana" if not same_word("banana", word) else "cherry"
    return [
        Form("category", categories_of(word)[0]),
        Form("starts", other_start),
        Form("contains", inside),
        Form("more", min(20, max(1, len(bare)))),
        Form("fewer", min(20, len(bare) + 1)),
        Form("one_word"),
        Form("word", wrong),
        Form("text", "Does it fly?"),  # own words a bot Mayor cannot judge
        Form("text", f"is it a {other.upper()}"),  # a guess in ordinary words
        Form("word", word),
    ]


def wording(form: Form) -> str:
    """The question as the log shows it: own words as typed, the others in the rules' words."""
    return str(form.arg) if form.kind == "text" else form.text()


def primary_in_reach(page: Any, selector: str) -> None:
    """The screen's primary action is there, enabled, and in reach: on the first screen or one
    scroll below it (a sticky Ask row counts where it shows)."""
    box = page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect();"
        " return {bottom: r.bottom + window.scrollY, height: innerHeight, w: r.width}; }",
    )
    assert box["w"] > 0, f"{selector} is not shown"
    assert box["bottom"] <= 2 * box["height"], f"{selector} is more than one scroll down: {box}"


def choose(page: Any, form: Form) -> None:
    """Put the question together on the asking screen as a person does: its kind, then its
    argument (typed, tapped, or stepped to)."""
    page.click(f"[data-key='ask-kind-{form.kind}']")
    if form.kind == "text":
        page.fill("#ask-text", str(form.arg))
    elif form.kind == "word":
        page.fill("#ask-guess", str(form.arg))
    elif form.kind in ("category", "starts", "contains"):
        page.click(f"[data-key='ask-{form.kind}-{form.arg}']")
    elif form.kind in ("more", "fewer"):
        target = int(form.arg or 0)
        for _ in range(40):
            shown = int(page.get_attribute(".ask-stepper .step-value", "data-value") or 0)
            if shown == target:
                break
            page.click(f"[data-key='ask-{form.kind}-{'more' if shown < target else 'less'}']")
        else:
            raise AssertionError(f"the stepper never reached {target}")
    assert page.inner_text(".ask-preview") == f"You ask: {wording(form)}"


def test_a_person_asks_every_listed_question_and_the_bot_mayor_answers_truly(
    pages: Pages,
) -> None:
    ada = pages.new(hidden=False)
    ada.goto("/")
    ada.check("input[name=game][value=werewords]")
    ada.fill("#create-name", "Ada")
    ada.click("text=Create the room")
    ada.wait_for_selector(".seats")
    pages.shot(ada, "werewords-asking-lobby")
    code = str(ada.text_content(".big-code .code")).strip()
    token = ada.evaluate(f"JSON.parse(localStorage.getItem('wolfden.id.{code}')).token")
    server = pages.server
    config = server.api("GET", f"/api/rooms/{code}")["config"]
    config |= {"players": PLAYERS, "day_seconds": 900, "yes_no_tokens": 60}
    server.api("PUT", f"/api/rooms/{code}/config", {"config": config}, token)
    # bots that think a second, as a table's bots do
    server.api("PUT", f"/api/rooms/{code}/settings", {"bot_delay": 1}, token)
    start = {"seed": seed_for_ada(), "fill_with": "rules"}
    server.api("POST", f"/api/rooms/{code}/start", start, token)

    # The night: Ada is a Villager; she follows her screen until the day comes.
    deadline = time.monotonic() + 120
    while not ada.locator("form.ask-form").count():
        assert time.monotonic() < deadline, "the day never came"
        ok = ada.locator("button[data-action='ok']:not([disabled])")
        if ok.count():
            primary_in_reach(ada, "button[data-action='ok']")
            pages.shot(ada, "werewords-asking-night")
            ok.click()
        next_change(ada)

    state = omniscient_state(server, code)
    word = str(state.word)
    assert state.mayor != 0 and word
    assert word not in ada.inner_text("#main"), "a Villager's phone never shows the word"

    # The bots ask first, while Ada reads the screen; once she picks a question she holds
    # her place on the floor and they wait for her.
    deadline = time.monotonic() + 60
    while not [a for a, answered in log_of(ada) if a != "Ada" and answered]:
        assert time.monotonic() < deadline, "no bot asked the Mayor anything"
        next_change(ada)

    asked: list[tuple[Form, str]] = []
    for form in questions_for(word):
        choose(ada, form)
        send = "form.ask-form button[type=submit]"
        # one question at a time: Ada waits for the floor (what she chose stays)
        ada.wait_for_selector(f"{send}:not([disabled])", timeout=60000)
        primary_in_reach(ada, send)
        if form.kind != "text":
            pages.shot(ada, f"werewords-asking-{form.kind}")
        ada.click(send)
        mine = ada.locator(".question", has_text="Ada").filter(has_text=wording(form))
        mine.locator(".token").first.wait_for(timeout=60000)
        got = str(mine.first.locator(".token").get_attribute("class")).split("token-")[-1]
        asked.append((form, got))
        assert got == honest(form, word), f"{wording(form)} about {word!r}: the Mayor gave {got}"
        if got == "maybe" and form.kind == "text":
            # the Mayor called it unclear: the asking screen sends Ada to the list
            notice = ada.locator(".ask-unclear")
            notice.wait_for()
            assert wording(form) in notice.inner_text()
            pages.shot(ada, "werewords-asking-unclear")

    # The guess of the word is Correct: the day is over, the Werewolves point, the round ends.
    assert asked[-1][1] == "correct"
    ada.wait_for_selector(".ending .roles-table", timeout=120000)
    assert word in ada.inner_text(".ending")
    pages.shot(ada, "werewords-asking-result", full=True)
    rows = ada.locator(".ending .roles-table tbody tr").count()
    assert rows == PLAYERS, "one row per player"
    primary_in_reach(ada, "[data-key='ww-play_again-'], [data-key='host-play_again-']")

    # Every listed kind was asked, and the server's log holds each with its true answer.
    assert {f.kind for f, _ in asked} - {"text"} == set(KINDS)
    final = omniscient_state(server, code)
    logged = {(q.seat, q.text): q.answer for q in final.questions}
    for form, got in asked:
        assert logged[(0, wording(form))] == got
    # a guess in ordinary words counted as a guess
    guessed = [q for q in final.questions if q.seat == 0 and q.text.startswith("is it a ")]
    assert guessed and guessed[0].form is not None and guessed[0].form.kind == "word"
    # ... and the bots' questions got their true answers too
    theirs = [q for q in final.questions if q.seat != 0]
    assert theirs, "the bots asked too"
    for q in theirs:
        assert q.form is not None, f"a bot asks from the list, not {q.text!r}"
        assert q.answer == honest(q.form, word), f"{q.text} about {word!r}: {q.answer}"


def log_of(page: Any) -> list[tuple[str, bool]]:
    """The question log on the page: who asked, and whether it is answered."""
    rows = page.eval_on_selector_all(
        ".question",
        "els => els.map(e => [e.querySelector('.asker').textContent.replace(/: $/, ''),"
        " e.classList.contains('answered')])",
    )
    return [(str(a), bool(b)) for a, b in rows]
