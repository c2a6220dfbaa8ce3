"""Werewords in real browsers: the Mayor and a Werewolf on their phones, four bots, a table.

The Mayor chooses the word, the Werewolf learns it at night, asks a typed question by day and
gets a token; the Mayor hands out Correct, the Werewolf points, the round ends with every card,
and the Mayor plays again.
"""

from __future__ import annotations

import time
from typing import Any

from tests.web.conftest import DESKTOP, Pages, join_table, next_change, until
from wolfden import games
from wolfden.games.werewords import narration


def click_action(page: Any, action: str) -> None:
    page.click(f"button[data-action='{action}']:not([disabled])")


def seed_for(config: dict[str, Any]) -> int:
    """A seed that makes seat 0 the Mayor and seat 1 a Werewolf."""
    game = games.get("werewords")
    cfg = game.Config(players=config["players"])
    for seed in range(1, 5000):
        state = game.setup(cfg, seed)
        if state.mayor == 0 and state.cards[1] is not None and state.cards[1].value == "werewolf":
            return seed
    raise AssertionError("no such seed")


def answer_the_bots_until_the_werewolf_may_ask(mayor: Any, wolf: Any) -> None:
    """One question at a time: the Mayor answers what the bots asked until the floor is
    free for the Werewolf."""
    deadline = time.monotonic() + 30
    while not wolf.locator("form.ask-form button[type=submit]:not([disabled])").count():
        assert time.monotonic() < deadline, "the Werewolf never got to ask"
        waiting = mayor.locator(".token-pad button[data-action^='answer'][data-action$=' no']")
        if waiting.count():
            waiting.first.click()
        next_change(mayor)


def test_a_werewords_round_and_play_again(pages: Pages) -> None:
    mayor, wolf = pages.new(hidden=False), pages.new(hidden=False)
    mayor.goto("/")
    mayor.check("input[name=game][value=werewords]")
    mayor.fill("#create-name", "Ada")
    mayor.click("text=Create the room")
    mayor.wait_for_selector(".seats")
    code = mayor.text_content(".big-code .code").strip()
    wolf.goto(f"/#/r/{code}")
    wolf.fill("#join-name", "Bea")
    wolf.click("form.join button[type=submit]")
    wolf.wait_for_selector(".seats")
    table = pages.new(DESKTOP)
    join_table(table, mayor, code, "Table")
    # Bots think for two seconds, so a person gets a word in between their questions.
    mayor.click("details[data-key='room-settings'] summary")
    mayor.fill("#bot-delay", "2")
    mayor.click("[data-key='save-settings']")
    mayor.wait_for_function("() => document.querySelector('#bot-delay').value === '2'")
    room = pages.server.api("GET", f"/api/rooms/{code}")
    assert room["settings"]["bot_delay"] == 2
    token = mayor.evaluate(f"JSON.parse(localStorage.getItem('wolfden.id.{code}')).token")
    seed = seed_for(room["config"])
    start = {"seed": seed, "fill_with": "rules"}
    pages.server.api("POST", f"/api/rooms/{code}/start", start, token)

    # The table screen speaks the first round's opening, as it does every later round's.
    until(table, "window.__spoken.length >= 3")
    assert table.evaluate("window.__spoken")[:2] == [
        narration.mayor_is("Ada"),
        narration.NIGHT_FALLS,
    ]
    assert table.evaluate("window.__spoken")[2] in narration.STEP_CALL.values()

    # Night: the Mayor chooses and confirms the word; the Werewolf sees it on their card.
    mayor.wait_for_selector("button[data-action^='choose']:not([disabled])")
    pages.shot(mayor, "werewords-mayor-chooses")
    word = mayor.locator("button[data-action='choose 0'] .target-name").text_content()
    click_action(mayor, "choose 0")
    mayor.wait_for_selector("button[data-action='confirm']")
    click_action(mayor, "confirm")
    wolf.wait_for_selector("button[data-action='ok']")
    assert word in wolf.text_content(".card-panel")
    pages.shot(wolf, "werewords-werewolf-night")
    click_action(wolf, "ok")

    # Day: one question at a time. The Mayor answers what the bots asked first, then the
    # Werewolf types a question (with markup, shown as text) and gets a token.
    mayor.wait_for_selector(".werewords .questions", timeout=30000)
    answer_the_bots_until_the_werewolf_may_ask(mayor, wolf)
    table.wait_for_selector(".questions")
    assert word not in table.text_content("main"), "the table never shows the word by day"
    question = "Is it <b>bigger</b> than a bread box?"
    wolf.fill("#ask-text", question)
    wolf.click("form.ask-form button[type=submit]")
    # the question stands on top of the Mayor's token pad
    mayor.locator(".mayor-panel .pad-text", has_text="than a bread box").wait_for()
    mayor.click(".token-pad button[data-action^='answer'][data-action$=' yes']")
    wolf.locator(".question.answered", has_text="than a bread box").wait_for()
    assert wolf.locator(".q-text b").count() == 0
    pages.shot(mayor, "werewords-mayor-tokens", full=True)
    pages.shot(table, "werewords-day-table")

    # A reload in mid-day comes straight back.
    wolf.reload()
    wolf.wait_for_selector(".werewords .questions")
    assert wolf.locator("#join-name").count() == 0

    # Correct: Bea guesses the word (as any ordinary question), the Mayor answers Correct on
    # the pad, which names her the guesser; the Werewolf points; the round ends.
    # meanwhile a bot may have asked: the Mayor answers it first
    answer_the_bots_until_the_werewolf_may_ask(mayor, wolf)
    wolf.fill("#ask-text", f"Is it {word}?")
    wolf.click("form.ask-form button[type=submit]:not([disabled])")
    mayor.locator(".mayor-panel .pad-text", has_text=f"Is it {word}?").wait_for()
    mayor.click(".token-pad button[data-action^='answer'][data-action$=' correct']")
    wolf.wait_for_selector("button[data-action^='point']")
    pages.shot(wolf, "werewords-pointing")
    wolf.locator("button[data-action^='point']:not([disabled])").first.click()
    for page in (mayor, wolf, table):
        page.wait_for_selector(".ending .roles-table")
        assert word in page.text_content(".ending")
    pages.shot(table, "werewords-result-table")
    pages.shot(mayor, "werewords-result-phone", full=True)

    mayor.click("[data-key='ww-play_again-'], [data-key='host-play_again-']")
    mayor.wait_for_selector("text=Night:")
    wolf.wait_for_selector("text=Night:")

    spoken = table.evaluate("window.__spoken")
    assert spoken and not [line for line in spoken if word in line and "was" not in line]
    assert mayor.evaluate("window.__spoken") == [] and wolf.evaluate("window.__spoken") == []


def test_people_get_the_question_floor_from_quick_bots(pages: Pages) -> None:
    """Bots that think for a fifth of a second: a person still gets to ask, and no bot asks
    more than one question more than the person."""
    ada = pages.new(hidden=False)
    ada.goto("/")
    ada.check("input[name=game][value=werewords]")
    ada.fill("#create-name", "Ada")
    ada.click("text=Create the room")
    ada.wait_for_selector(".seats")
    code = str(ada.text_content(".big-code .code")).strip()
    token = ada.evaluate(f"JSON.parse(localStorage.getItem('wolfden.id.{code}')).token")
    server = pages.server
    config = server.api("GET", f"/api/rooms/{code}")["config"]
    config |= {"players": 4, "day_seconds": 240, "yes_no_tokens": 36}
    server.api("PUT", f"/api/rooms/{code}/config", {"config": config}, token)
    server.api("PUT", f"/api/rooms/{code}/settings", {"bot_delay": 0.2}, token)
    game = games.get("werewords")
    cfg = game.Config(players=4)
    seed = next(s for s in range(1, 1000) if game.setup(cfg, s).mayor != 0)
    server.api("POST", f"/api/rooms/{code}/start", {"seed": seed, "fill_with": "rules"}, token)

    asked = 0
    deadline = time.monotonic() + 90
    while asked < 3:
        assert time.monotonic() < deadline, f"Ada asked {asked} questions only"
        if ada.locator("button[data-action='ok']:not([disabled])").count():
            ada.click("button[data-action='ok']:not([disabled])")
        if ada.locator("#ask-text").count():
            # Ada types as a person does, a key at a time, then sends when the floor is free.
            ada.fill("#ask-text", "")
            ada.locator("#ask-text").press_sequentially(
                f"Is it something you would find number {asked + 1}?", delay=60
            )
            ada.click("form.ask-form button[type=submit]:not([disabled])")
            ada.locator(".q-text", has_text=f"number {asked + 1}?").wait_for()
            asked += 1
            continue
        next_change(ada)
    askers = ada.eval_on_selector_all(
        ".question .asker", "els => els.map(e => e.textContent.replace(/: $/, ''))"
    )
    mine = askers.count("Ada")
    assert mine == 3
    for name in set(askers) - {"Ada"}:
        assert askers.count(name) <= mine + 1, f"{name} asked {askers.count(name)}: {askers}"
