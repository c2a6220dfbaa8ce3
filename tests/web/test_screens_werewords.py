"""Werewords' screens one at a time: real views from the rules, drawn by the renderer on a
phone-sized page (the whole round is test_werewords.py)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages
from tests.web.harness import legal_of, play, show, view_of, wire
from wolfden import games
from wolfden.engine.types import Action, Viewer
from wolfden.games.werewords.config import Mode
from wolfden.games.werewords.questions import Form
from wolfden.words.builtin import CATEGORY_TITLES

ROLES = ("Villager", "Seer", "Werewolf", "Fortune Teller", "Apprentice", "Minion")


def day() -> Any:
    # seed 1, five players: the Mayor (seat 0) is a Villager, seat 1 the Seer, seat 3 a
    # Werewolf; the word is "vaccine"
    return play("werewords", {"players": 5}, 1, lambda g, s: s.phase.value == "day")


def test_a_hidden_phone_shows_neither_the_role_nor_the_word(pages: Pages) -> None:
    page = pages.new()
    state = day()
    texts = {}
    for seat in (1, 2, 3):
        view = view_of("werewords", state, seat)
        show(
            page,
            "werewords",
            view,
            seat=seat,
            legal=legal_of("werewords", state, seat),
            hidden=True,
        )
        text = page.inner_text("#main")
        texts[seat] = text
        assert "vaccine" not in text
        for role in ROLES:
            assert role not in text, role
        pages.shot(page, f"screen-werewords-hidden-{seat}")
    assert texts[1] == texts[2] == texts[3]
    # shown, the Werewolf reads the word and the role again
    show(page, "werewords", view_of("werewords", state, 3), seat=3, hidden=False)
    assert "vaccine" in page.inner_text("#main")
    assert "Werewolf" in page.inner_text(".card-panel")


def test_a_draft_question_survives_a_question_from_someone_else(pages: Pages) -> None:
    page = pages.new()
    state = day()
    view = view_of("werewords", state, 2)
    show(page, "werewords", view, seat=2, legal=legal_of("werewords", state, 2), hidden=False)
    page.fill("#ask-text", "Is it bigger than")
    # someone else's question now waits for the Mayor: this player may not send one
    show(page, "werewords", view, seat=2, legal=[], hidden=False, fresh=False)
    assert page.input_value("#ask-text") == "Is it bigger than"
    assert page.locator("form.ask-form button[type=submit]").is_disabled()
    assert "What you type stays here" in page.inner_text("form.ask-form")
    show(page, "werewords", view, seat=2, legal=legal_of("werewords", state, 2), fresh=False)
    assert page.input_value("#ask-text") == "Is it bigger than"
    assert page.locator("form.ask-form button[type=submit]").is_enabled()


def test_the_asking_screen_shows_how_to_ask_a_bot_mayor(pages: Pages) -> None:
    page = pages.new()
    state = day()
    view = view_of("werewords", state, 2)
    show(page, "werewords", view, seat=2, legal=legal_of("werewords", state, 2), hidden=False)
    assert page.locator(".bot-mayor-hint").count() == 0  # a person is the Mayor
    assert "bot Mayor" not in page.inner_text("form.ask-form")
    show(page, "werewords", view, seat=2, legal=legal_of("werewords", state, 2), bots=(0,))
    intro = page.inner_text("form.ask-form")
    assert "the bot Mayor answers each by its truth" in intro
    hint = page.inner_text(".bot-mayor-hint")
    assert "Is it peach?" in hint and "Is it an animal?" in hint
    pages.shot(page, "screen-werewords-ask-bot-mayor")


# Each kind of question from the list: what to tap after its kind, and what the rules ask.
LISTED = [
    ("word", lambda page: page.fill("#ask-guess", "peach"), Form("word", "peach")),
    (
        "category",
        lambda page: page.click("[data-key='ask-category-food']"),
        Form("category", "food"),
    ),
    ("starts", lambda page: page.click("[data-key='ask-starts-p']"), Form("starts", "p")),
    ("contains", lambda page: page.click("[data-key='ask-contains-e']"), Form("contains", "e")),
    ("more", lambda page: page.click("[data-key='ask-more-more']"), Form("more", 6)),
    ("fewer", lambda page: page.click("[data-key='ask-fewer-less']"), Form("fewer", 7)),
    ("one_word", lambda page: None, Form("one_word")),
]


# The labels with a word that spans two lines (or more) of its button.
BROKEN_WORDS = """
els => els.filter((e) => {
  const node = [...e.childNodes].find((n) => n.nodeType === Node.TEXT_NODE);
  if (!node) return false;
  let at = 0;
  return node.textContent.split(" ").some((word) => {
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    at += word.length + 1;
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
  });
}).map((e) => e.textContent)
"""


def test_each_question_from_the_list_is_asked_with_large_controls(pages: Pages) -> None:
    page = pages.new()
    state = day()
    legal = legal_of("werewords", state, 2)
    show(page, "werewords", view_of("werewords", state, 2), seat=2, legal=legal, bots=(0,))
    acted = []
    for kind, choose, form in LISTED:
        page.click(f"[data-key='ask-kind-{kind}']")
        assert page.locator(f"[data-key='ask-kind-{kind}']").get_attribute("aria-pressed") == "true"
        choose(page)
        # the question reads as the log will write it, and "Ask" sends the rules' action
        assert page.inner_text(".ask-preview") == f"You ask: {form.text()}"
        send = page.locator("form.ask-form button[type=submit]")
        assert send.is_enabled()
        for control in page.locator(".ask-kind, .ask-choice, .ask-stepper .step, .ask-send").all():
            box = control.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, (kind, box)
        assert send.bounding_box()["y"] + send.bounding_box()["height"] <= 844 * 2
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"{kind}: the page is {wide} px wide"
        # no label is broken mid-word: every word fits its button whole
        broken = page.eval_on_selector_all(".ask-kind, .ask-choice", BROKEN_WORDS)
        assert not broken, f"{kind}: labels broken mid-word: {broken}"
        pages.shot(page, f"screen-werewords-ask-{kind}")
        send.click()
        acted.append({"name": form.action_name, "args": [] if form.arg is None else [form.arg]})
        assert page.evaluate("window.__acted") == acted
    # the rules accept every one of them, and put the same words in the log
    game = games.get("werewords")
    for a, (_, _, form) in zip(acted, LISTED, strict=True):
        after, _ = game.apply(state, 2, Action(a["name"], tuple(a["args"])))
        assert after.questions[-1].text == form.text()


def test_a_question_from_the_list_waits_while_another_is_answered(pages: Pages) -> None:
    page = pages.new()
    state = day()
    view = view_of("werewords", state, 2)
    show(page, "werewords", view, seat=2, legal=legal_of("werewords", state, 2), hidden=False)
    page.click("[data-key='ask-kind-starts']")
    page.click("[data-key='ask-starts-q']")
    page.click("[data-key='ask-kind-text']")
    page.fill("#ask-text", "Is it bigger than")
    page.click("[data-key='ask-kind-starts']")
    # someone else's question now waits for the Mayor: the choice stays, "Ask" waits
    show(page, "werewords", view, seat=2, legal=[], hidden=False, fresh=False)
    assert page.locator("[data-key='ask-starts-q']").get_attribute("aria-pressed") == "true"
    assert page.locator("form.ask-form button[type=submit]").is_disabled()
    assert "so does what you pick" in page.inner_text("form.ask-form")
    show(page, "werewords", view, seat=2, legal=legal_of("werewords", state, 2), fresh=False)
    assert page.inner_text(".ask-preview") == 'You ask: Does it start with "q"?'
    assert page.locator("form.ask-form button[type=submit]").is_enabled()
    page.click("[data-key='ask-kind-text']")
    assert page.input_value("#ask-text") == "Is it bigger than", "the typed draft is kept too"


def test_the_category_titles_are_the_word_library_s(pages: Pages) -> None:
    page = pages.new()
    state = day()
    legal = legal_of("werewords", state, 2)
    show(page, "werewords", view_of("werewords", state, 2), seat=2, legal=legal, hidden=False)
    page.click("[data-key='ask-kind-category']")
    shown = page.eval_on_selector_all(
        ".ask-categories .ask-choice", "els => els.map(e => [e.dataset.choice, e.textContent])"
    )
    assert dict(shown) == CATEGORY_TITLES


def test_long_words_are_not_broken_on_the_word_buttons(pages: Pages) -> None:
    page = pages.new({"width": 360, "height": 740})
    words = ("caterpillar", "hippopotamus", "refrigerator", "constellation")
    state = play(
        "werewords",
        {"players": 5, "words_medium": words},
        1,
        lambda g, s: any(a.name == "choose" for a in g.legal_actions(s, s.mayor)),
    )
    mayor = state.mayor
    show(
        page,
        "werewords",
        view_of("werewords", state, mayor),
        seat=mayor,
        legal=legal_of("werewords", state, mayor),
        hidden=False,
    )
    lines = page.eval_on_selector_all(
        ".target .magic-word", "els => els.map(e => [e.textContent, e.getClientRects().length])"
    )
    assert lines and all(n == 1 for _, n in lines), lines
    pages.shot(page, "screen-werewords-choose-word")


def test_the_mayor_answers_on_one_large_token_pad(pages: Pages) -> None:
    page = pages.new()
    game = games.get("werewords")
    state = day()
    state, _ = game.apply(state, 1, Action("ask", ("Is it bigger than a bread box?",)))
    view = view_of("werewords", state, 0)
    assert view["you"]["mayor"]
    show(page, "werewords", view, seat=0, legal=legal_of("werewords", state, 0), hidden=False)
    yes = page.locator("button.token-btn.token-yes")
    assert yes.count() == 1, "one set of tokens on the Mayor's screen"
    assert page.locator(".question-list .token-btn").count() == 0
    question = page.locator(".mayor-panel .pad-text")
    assert question.inner_text() == "Is it bigger than a bread box?"
    assert question.bounding_box()["y"] < yes.bounding_box()["y"], "the question above the pad"
    assert yes.locator(".count").inner_text() == str(view["tokens"]["yes_no"]), "count on it"
    assert yes.bounding_box()["height"] >= 80, "a large button"
    pages.shot(page, "screen-werewords-mayor-pad")
    yes.click()
    assert page.evaluate("window.__acted") == [{"name": "answer", "args": [0, "yes"]}]


def test_the_mayor_pad_for_spoken_questions(pages: Pages) -> None:
    page = pages.new()
    state = play(
        "werewords",
        {"players": 5, "typed_questions": False},
        1,
        lambda g, s: s.phase.value == "day",
    )
    view = view_of("werewords", state, 0)
    show(page, "werewords", view, seat=0, legal=legal_of("werewords", state, 0), hidden=False)
    assert page.locator("#give-to").count() == 1
    assert page.locator("button.token-btn.token-yes").count() == 1
    assert page.locator("button.token-btn.token-no").count() == 1


def test_who_was_found_leaves_out_a_mayor_who_is_not_the_one_sought(pages: Pages) -> None:
    page = pages.new()
    state = play(
        "werewords",
        {"players": 4, "mode": Mode.COMPANION},
        1,
        lambda g, s: s.phase.value == "report",
    )
    mayor = state.mayor
    view = view_of("werewords", state, mayor)
    role = view["you"]["role_now"]
    sought = "seer" if view["ending"]["guessed"] else "werewolf"
    assert role != sought, "this deal's Mayor is not the one sought"
    legal = legal_of("werewords", state, mayor)
    assert {"name": "found", "args": [mayor]} in legal
    show(page, "werewords", view, seat=mayor, legal=legal, hidden=None)
    offered = page.eval_on_selector_all(
        "button[data-action^='found']", "els => els.map(e => e.dataset.action)"
    )
    assert f"found {mayor}" not in offered, offered
    assert len(offered) == 3
    assert page.locator("button[data-action='none_found']").count() == 1


def test_the_shared_phone_keeps_the_word_hidden_by_day_in_companion_mode(pages: Pages) -> None:
    page = pages.new()
    state = play(
        "werewords", {"players": 4, "mode": Mode.COMPANION}, 1, lambda g, s: s.phase.value == "day"
    )
    mayor = state.mayor
    view = view_of("werewords", state, mayor)
    word = view["word"]
    assert word
    device = {"shown": mayor, "seats": [], "waiting": [], "secret_turns": False}
    legal = legal_of("werewords", state, mayor)
    show(page, "werewords", view, seat=mayor, legal=legal, hidden=None, device=device)
    assert word not in page.inner_text("#main"), "the word is not on the shared phone by day"
    assert page.locator("button[data-action^='correct']").count() == 3, "the Mayor still acts"
    pages.shot(page, "screen-werewords-companion-day")
    page.click("[data-key='card-toggle']")
    assert word in page.inner_text("#main"), "the Mayor taps to see it"


def test_a_long_word_stays_whole_on_the_companion_screen(pages: Pages) -> None:
    page = pages.new({"width": 360, "height": 740})
    words = ("constellations", "hippopotamuses", "refrigerators", "caterpillars")

    def word_step(g: Any, s: Any) -> bool:
        return bool((view_of("werewords", s, None).get("screen") or {}).get("word"))

    state = play(
        "werewords",
        {"players": 5, "mode": Mode.COMPANION, "words_medium": words},
        1,
        lambda g, s: s.phase.value == "night" and word_step(g, s),
    )
    show(page, "werewords", view_of("werewords", state, None), table=True)
    rects = page.eval_on_selector(".big-word .magic-word", "e => e.getClientRects().length")
    assert rects == 1, "the word is on one line, never broken"
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 360, f"the page is {wide} px wide"
    pages.shot(page, "screen-werewords-companion-long-word")


def test_the_mayor_may_call_a_free_question_unclear_from_the_pad(pages: Pages) -> None:
    page = pages.new()
    game = games.get("werewords")
    state, _ = game.apply(day(), 1, Action("ask", ("Would it win a staring contest?",)))
    legal = legal_of("werewords", state, 0)
    assert {"name": "unclear", "args": [0]} in legal
    show(page, "werewords", view_of("werewords", state, 0), seat=0, legal=legal, hidden=False)
    page.click("[data-key='pad-unclear']")
    assert page.evaluate("window.__acted") == [{"name": "unclear", "args": [0]}]


def test_ask_with_nothing_chosen_sends_nothing_and_says_what_is_missing(pages: Pages) -> None:
    page = pages.new()
    state = day()
    legal = legal_of("werewords", state, 2)
    show(page, "werewords", view_of("werewords", state, 2), seat=2, legal=legal, hidden=False)
    page.click("[data-key='ask-kind-category']")
    page.click("form.ask-form button[type=submit]")
    assert page.inner_text(".ask-preview") == "Choose what to ask first."
    page.click("[data-key='ask-kind-text']")
    page.click("form.ask-form button[type=submit]")
    assert page.inner_text(".ask-preview") == "Type your question first."
    assert page.evaluate("window.__acted || []") == []


def test_a_question_the_mayor_called_unclear_sends_the_asker_to_the_list(pages: Pages) -> None:
    page = pages.new()
    game = games.get("werewords")
    state, _ = game.apply(day(), 2, Action("ask", ("Would it win a staring contest?",)))
    state, events = game.apply(state, 0, Action("unclear", (0,)))
    legal = legal_of("werewords", state, 2)
    view = view_of("werewords", state, 2)
    shown = wire(game.visible_events(state, events, Viewer.of(2)))
    show(page, "werewords", view, seat=2, legal=legal, hidden=False, events=shown)
    notice = page.inner_text(".ask-unclear")
    assert "could not judge" in notice and "Would it win a staring contest?" in notice
    # it stays on later views of the same question, and goes with the next question sent
    show(page, "werewords", view, seat=2, legal=legal, hidden=False, fresh=False)
    assert page.locator(".ask-unclear").count() == 1
    after, _ = game.apply(state, 2, Action("ask_one_word"))
    show(page, "werewords", view_of("werewords", after, 2), seat=2, legal=[], fresh=False)
    assert page.locator(".ask-unclear").count() == 0
    # another player's unclear question is not this player's notice
    other = view_of("werewords", state, 1)
    show(page, "werewords", other, seat=1, legal=legal_of("werewords", state, 1), events=shown)
    assert page.locator("form.ask-form").count() == 1
    assert page.locator(".ask-unclear").count() == 0


def test_players_sharing_a_device_keep_their_own_drafts(pages: Pages) -> None:
    page = pages.new()
    state = day()
    for seat in (2, 1):
        legal = legal_of("werewords", state, seat)
        show(
            page,
            "werewords",
            view_of("werewords", state, seat),
            seat=seat,
            legal=legal,
            hidden=False,
            fresh=seat == 2,
        )
        assert page.input_value("#ask-text") == "", f"seat {seat} starts with an empty box"
        page.fill("#ask-text", f"Draft of seat {seat}")
    legal = legal_of("werewords", state, 2)
    show(page, "werewords", view_of("werewords", state, 2), seat=2, legal=legal, fresh=False)
    assert page.input_value("#ask-text") == "Draft of seat 2"


def test_picking_a_question_holds_a_place_on_the_floor(pages: Pages) -> None:
    page = pages.new()
    state = day()
    legal = legal_of("werewords", state, 2)
    show(page, "werewords", view_of("werewords", state, 2), seat=2, legal=legal, bots=(1, 3))
    page.click("[data-key='ask-kind-starts']")
    assert page.evaluate("window.__drafting || []") == [], "a kind alone is no question yet"
    page.click("[data-key='ask-starts-p']")
    assert page.evaluate("window.__drafting") == [True], "the room hears of the draft"
    page.click("[data-key='ask-starts-q']")
    assert page.evaluate("window.__drafting") == [True], "once, not at every tap"
    page.click("form.ask-form button[type=submit]")
    page.click("[data-key='ask-kind-one_word']")
    assert page.evaluate("window.__drafting") == [True, True], "the next question holds again"
