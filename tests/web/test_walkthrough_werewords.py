"""Werewords played the way a table of people plays it, in a real browser at 390×844 with real
taps: every player on their own phone (a person as Mayor answering on the token pad, people
and bots asking, a table screen), a round with a bot Mayor, and companion mode with one shared
phone beside the physical cards and a table screen. At every screen: nothing sticks out
sideways, the screen's primary action is on the first screen or one scroll below it, no
element names a candidate word or the Magic Word (or a role) that the view the server sent
this screen does not hold, a table screen never shows the Mayor's other candidates, and the
round ends with a table of every card: one row per player.

The rooms are started with a seed (so the people hold the cards each part is about) and the
round's timers shortened; everything else is tapped."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import DESKTOP, PHONE, Pages, join_table, next_change
from tests.web.screen_checks import record_views, results_table
from tests.web.test_shared_device import everyone_on_this_device
from tests.web.test_werewords_asking import choose as pick_question
from tests.web.test_werewords_asking import honest, wording
from tests.web.walkthrough_checks_werewords import (
    Secrets,
    check_screen,
    legal_of,
    view_of,
)
from wolfden import games
from wolfden.games.werewords.questions import Form, letters
from wolfden.words.builtin import categories_of


def seed_where(players: int, wanted: Callable[[Any], bool]) -> int:
    game = games.get("werewords")
    cfg = game.Config(players=players)
    for seed in range(1, 5000):
        if wanted(game.setup(cfg, seed)):
            return seed
    raise AssertionError("no such seed")


def role(state: Any, seat: int) -> str | None:
    card = state.cards[seat]
    return None if card is None else str(card.value)


def create(pages: Pages, name: str, size: dict[str, int] = PHONE, **kw: Any) -> tuple[Any, str]:
    page = pages.new(size, **kw)
    record_views(page)
    page.goto("/")
    page.check("input[name=game][value=werewords]")
    page.fill("#create-name", name)
    page.click("text=Create the room")
    page.wait_for_selector(".seats")
    return page, str(page.text_content(".big-code .code")).strip()


def join(pages: Pages, code: str, name: str, *, hidden: bool = False) -> Any:
    """Join as a person with a phone (``hidden``: its screen hidden until shown, the privacy
    setting's default)."""
    page = pages.new(PHONE, hidden=hidden)
    record_views(page)
    page.goto(f"/#/r/{code}")
    page.fill("#join-name", name)
    page.click("form.join button[type=submit]")
    page.wait_for_selector(".seats")
    return page


def join_as_table(pages: Pages, host: Any, code: str) -> Any:
    """Open the table screen, which comes in once the host approves it on their page."""
    page = pages.new(DESKTOP)
    record_views(page)
    join_table(page, host, code, "Table")
    return page


def token_of(page: Any, code: str) -> str:
    return str(page.evaluate(f"JSON.parse(localStorage.getItem('wolfden.id.{code}')).token"))


def configure(pages: Pages, host: Any, code: str, **options: Any) -> None:
    server = pages.server
    config = server.api("GET", f"/api/rooms/{code}")["config"] | options
    server.api("PUT", f"/api/rooms/{code}/config", {"config": config}, token_of(host, code))


def tap(page: Any, action: str) -> bool:
    """Tap an action's button, and again if a view that arrived meanwhile redrew it (as a
    person would); False when the game no longer offers it."""
    gone = "a => !document.querySelector(`button[data-action='${a}']:not([disabled])`)"
    for _ in range(5):
        try:
            page.click(f"button[data-action='{action}']:not([disabled])", timeout=8000)
            page.wait_for_function(gone, arg=action, timeout=8000)
            return True
        except PlaywrightTimeout:
            if action not in legal_of(page):
                return False
            show(page)  # the phone hid itself meanwhile: the person shows it again
    raise AssertionError(f"the screen never took {action!r}")


def show(page: Any) -> None:
    """A hidden phone (the privacy setting's default) is shown before its owner acts on it."""
    if page.locator("[data-key='reveal']").count():
        page.click("[data-key='reveal']")
        page.wait_for_selector(".privacy-bar.is-shown")


@dataclass
class Person:
    """A person at the table with a phone, and what they mean to do."""

    page: Any
    name: str
    plan: list[Form] = field(default_factory=list)  # the questions they will ask
    vote_for: int | None = None
    point_at: int | None = None
    picked: bool = False
    pages: Pages | None = None  # to keep a screenshot of each kind of question picked
    asked: list[tuple[Form, str]] = field(default_factory=list)

    def act(self) -> bool:
        """Do what this screen asks of this person; True when something was tapped."""
        page = self.page
        view = view_of(page)
        legal = legal_of(page)
        names = {a.split()[0] for a in legal}
        if legal:
            show(page)
        if "choose" in names:
            return tap(page, "choose 0")
        if "confirm" in names:
            return tap(page, "confirm")
        if "ok" in names:
            return tap(page, "ok")
        if "answer" in names:
            return self.answer(view, legal)
        if "point" in names:
            return tap(page, self.preferred("point", self.point_at, legal))
        if "vote" in names:
            return tap(page, self.preferred("vote", self.vote_for, legal))
        if "ready" in names and page.locator("[data-key='ready']:not([disabled])").count():
            page.click("[data-key='ready']:not([disabled])")
            page.wait_for_selector("[data-key='ready']", state="detached")
            return True
        if self.plan and page.locator("form.ask-form").count():
            return self.ask()
        return False

    @staticmethod
    def preferred(name: str, seat: int | None, legal: list[str]) -> str:
        wanted = f"{name} {seat}"
        return wanted if wanted in legal else next(a for a in legal if a.split()[0] == name)

    def answer(self, view: dict[str, Any], legal: list[str]) -> bool:
        """The Mayor answers the question on top of the pad with the token its truth calls for
        (a person as Mayor may do otherwise; this one is honest)."""
        waiting = [a for a in legal if a.startswith("answer ")]
        qid = int(waiting[0].split()[1])
        question = next(q for q in view["questions"] if q["id"] == qid)
        self.page.locator(".mayor-panel .pad-text", has_text=question["text"]).wait_for()
        form = question["form"] or {"kind": "text", "arg": question["text"]}
        token = honest(Form(form["kind"], form["arg"]), str(view["word"]))
        if token == "maybe" and f"unclear {qid}" in legal:
            self.page.click("[data-key='pad-unclear']:not([disabled])")
            self.page.wait_for_selector("[data-key='pad-unclear']", state="detached")
            return True
        for t in (token, "no", "maybe"):
            if f"answer {qid} {t}" in legal:
                return tap(self.page, f"answer {qid} {t}")
        raise AssertionError(f"no token left for {question['text']!r}: {legal}")

    def ask(self) -> bool:
        """Put the next question together on the asking screen, then send it with Ask once
        the floor is free (the question picked holds the person's place meanwhile)."""
        page = self.page
        form = self.plan[0]
        if not self.picked:
            pick_question(page, form)
            self.picked = True
            if self.pages is not None:
                self.pages.shot(page, f"walk-werewords-asking-{form.kind}")
        send = "form.ask-form .ask-send:not([disabled])"
        if not page.locator(send).count():
            return True
        page.click(send)
        mine = page.locator(".question", has_text=self.name).filter(has_text=wording(form))
        mine.first.wait_for()
        self.plan.pop(0)
        self.picked = False
        self.asked.append((form, wording(form)))
        return True


def play_round(
    people: list[Person],
    tables: list[Any],
    pages: Pages,
    secrets: Secrets,
    shots: set[str],
    prefix: str,
    *,
    seconds: float = 300,
) -> None:
    """Everyone plays the screens in front of them until every phone shows the round's end;
    every screen is checked each time its view changes (and after each tap)."""
    checked: dict[int, Any] = {}

    def check(page: Any, table: bool = False) -> None:
        version = page.evaluate(
            "() => [window.__lastView && window.__lastView.version,"
            " document.querySelector('#main') && document.querySelector('#main').innerText.length]"
        )
        if checked.get(id(page)) != version:
            check_screen(page, pages, shots, secrets, prefix=prefix, table=table)
            checked[id(page)] = version

    deadline = time.monotonic() + seconds
    while not all(p.page.locator(".ending .roles-table").count() for p in people):
        assert time.monotonic() < deadline, f"the round did not end in {seconds:.0f} s"
        acted = False
        for person in people:
            check(person.page)
            acted = person.act() or acted
        for table in tables:
            check(table, table=True)
        if not acted:
            next_change(people[0].page)
    for person in people:
        check(person.page)
    for table in tables:
        table.wait_for_selector(".ending .roles-table")
        check(table, table=True)


def questions_about(word: str) -> list[Form]:
    """A category and a letter, as a guesser who knows nothing starts; a wrong guess."""
    other = next(x for x in "etaoinsrhl" if not letters(word).startswith(x))
    wrong = "peach" if letters(word) != "peach" else "banana"
    return [Form("category", categories_of(word)[0]), Form("starts", other), Form("word", wrong)]


def test_own_phones_a_person_as_mayor_people_and_bots_asking_and_a_table(pages: Pages) -> None:
    players = 5
    seed = seed_where(
        players,
        lambda s: s.mayor == 0 and role(s, 1) == "villager" and role(s, 2) == "werewolf",
    )
    ada, code = create(pages, "Ada", hidden=False)
    bea = join(pages, code, "Bea")
    cy = join(pages, code, "Cy")
    table = join_as_table(pages, ada, code)
    # Few Yes/No tokens, so the day ends by running out of them once the people have asked
    # (or earlier, when a bot finds the word); the night's steps wait for the people.
    configure(
        pages,
        ada,
        code,
        players=players,
        yes_no_tokens=7,
        night_step_seconds=60,
        discussion_seconds=60,
        vote_seconds=60,
        pointing_seconds=60,
    )
    ada.wait_for_selector(f"[data-seat='{players - 1}']")
    shots: set[str] = set()
    secrets = Secrets(pages.server, code)
    for page, who in ((ada, "ada"), (bea, "bea"), (cy, "cy")):
        check_screen(page, pages, shots, secrets, prefix=f"own-{who}")
    start = {"seed": seed, "fill_with": "rules"}
    pages.server.api("POST", f"/api/rooms/{code}/start", start, token_of(ada, code))

    mayor = Person(ada, "Ada", vote_for=2)
    villager = Person(bea, "Bea", vote_for=2, pages=pages)
    werewolf = Person(cy, "Cy", point_at=1, vote_for=1)
    people = [villager, werewolf, mayor]
    # the people's questions, once the word is known to the test (Bea's in the list's kinds,
    # Cy's, who knows the word, in own words)
    ada.wait_for_selector("button[data-action='choose 0']")
    word = secrets.words()[0]
    villager.plan = questions_about(word)
    werewolf.plan = [Form("text", "Is it something you can hold?")]
    play_round(people, [table], pages, secrets, shots, "own")

    assert secrets.word == word
    assert not villager.plan and not werewolf.plan, "the people asked all they meant to"
    names = ["Ada", "Bea", "Cy", "Bot 4", "Bot 5"]
    ended = view_of(ada)
    wolves_won = ended["result"]["winning_team"] == "werewolves"
    for page in (ada, bea, cy, table):
        rows = results_table(page, names, ".ending .roles-table")
        assert rows[1][1] == "Villager" and rows[2][1] == "Werewolf"
        for name, card, result in rows:
            wolf = card in ("Werewolf", "Minion")
            assert result == ("won" if wolf == wolves_won else "lost"), (name, card, result)
        assert word in page.inner_text(".ending")
    # The host finishes the match; the end screen keeps the table of every card.
    ada.click("[data-key='host-finish-']")
    ada.wait_for_function("() => window.__lastView && window.__lastView.outcome")
    check_screen(ada, pages, shots, secrets, prefix="own")
    results_table(ada, names, ".ending .roles-table")
    pages.shot(ada, "walk-werewords-own-result-phone", full=True)
    pages.shot(table, "walk-werewords-own-result-table")


def test_a_round_with_a_bot_mayor_the_seer_finds_the_word_the_werewolf_points(
    pages: Pages,
) -> None:
    players = 4
    seed = seed_where(
        players,
        lambda s: (
            s.mayor == 3
            and role(s, 0) == "seer"
            and role(s, 1) == "werewolf"
            and role(s, 2) == "villager"
        ),
    )
    ada, code = create(pages, "Ada", hidden=False)
    bea = join(pages, code, "Bea", hidden=True)  # the Werewolf keeps her phone hidden
    cy = join(pages, code, "Cy")
    configure(pages, ada, code, players=players, night_step_seconds=60, pointing_seconds=60)
    ada.wait_for_selector(f"[data-seat='{players - 1}']")
    start = {"seed": seed, "fill_with": "rules"}
    pages.server.api("POST", f"/api/rooms/{code}/start", start, token_of(ada, code))

    seer = Person(ada, "Ada")
    werewolf = Person(bea, "Bea", point_at=0)
    villager = Person(cy, "Cy")
    # The Seer learns the word at night (her view holds it); she asks one question from the
    # list, then names the word. The Villager, who does not know it, asks about its length.
    ada.wait_for_function("() => window.__lastView && window.__lastView.view.word", timeout=60000)
    word = str(view_of(ada)["word"])
    seer.plan = [Form("one_word"), Form("word", word)]
    villager.plan = [Form("more", 4)]
    werewolf.plan = [Form("contains", "e")]
    shots: set[str] = set()
    secrets = Secrets(pages.server, code)
    play_round([seer, werewolf, villager], [], pages, secrets, shots, "botmayor")

    assert secrets.word == word
    ended = view_of(cy)
    assert ended["ending"]["guessed"] and ended["ending"]["guesser"] == 0, "Ada found the word"
    assert ended["result"]["winning_team"] == "werewolves", "Bea pointed at the Seer"
    assert not villager.plan and not werewolf.plan
    assert any(s.endswith("-hidden") for s in shots), "Bea's phone was hidden between her taps"
    # every answer the bot Mayor gave a person was the true one
    for person in (seer, werewolf, villager):
        for form, text in person.asked:
            got = person.page.locator(".question", has_text=person.name).filter(has_text=text)
            token = str(got.first.locator(".token").get_attribute("class")).split("token-")[-1]
            assert token == honest(form, word), f"{text}: {token}"
    names = ["Ada", "Bea", "Cy", "Bot 4"]
    for page in (ada, bea, cy):
        rows = results_table(page, names, ".ending .roles-table")
        assert [r[1:] for r in rows[:3]] == [
            ["Seer", "lost"],
            ["Werewolf", "won"],
            ["Villager", "lost"],
        ]
        assert rows[3][0] == "Bot 4 (Mayor)"


def test_companion_mode_one_shared_phone_beside_the_cards_and_a_table_screen(
    pages: Pages,
) -> None:
    names = ["Ada", "Ben", "Cy", "Dee"]
    device, code = create(pages, "Ada", hidden=False)
    configure(
        pages,
        device,
        code,
        players=4,
        mode="companion",
        night_step_seconds=60,
        pointing_seconds=5,
    )
    device.wait_for_selector("[data-seat='3']")
    everyone_on_this_device(device, names)
    table = join_as_table(pages, device, code)
    shots: set[str] = set()
    secrets = Secrets(pages.server, code)
    check_screen(device, pages, shots, secrets, prefix="companion")
    device.click("[data-key='start']")

    # Cy holds the Mayor card: she takes the phone, claims it, taps her secret role and
    # chooses the word; every other role is called with its eyes-closed screen, and the phone
    # shows that role's secret only when tapped; by day the tokens are the physical ones, and
    # the Mayor taps Correct for Ada; after the Werewolves' pointing, the table reports.
    steps: list[str] = []
    deadline = time.monotonic() + 300
    while not device.locator(".ending .roles-table").count():
        assert time.monotonic() < deadline, "the companion round did not end"
        name = check_screen(device, pages, shots, secrets, prefix="companion")
        check_screen(table, pages, shots, secrets, prefix="companion", table=True)
        steps.append(name)
        hand = device.locator(".handover-buttons button:not([disabled])")
        if hand.count():
            mine = device.locator(".handover-buttons button:has-text('I am Cy')")
            (mine if mine.count() else hand).first.click()
            device.wait_for_selector(".handover-screen", state="detached")
            continue
        legal = legal_of(device)
        heads = {a.split()[0] for a in legal}
        if device.locator("[data-key='claim']:not([disabled])").count():
            device.click("[data-key='claim']:not([disabled])")
            device.wait_for_selector("[data-key='claim']", state="detached")
        elif "secret" in heads:
            tap(device, next(a for a in legal if a.startswith("secret ")))
        elif "choose" in heads:
            tap(device, "choose 0")
        elif "confirm" in heads:
            tap(device, "confirm")
        elif device.locator("[data-key^='comp-show-']").count():
            device.click("[data-key^='comp-show-']")
            device.wait_for_selector("[data-key^='comp-show-']", state="detached")
        elif "correct" in heads:
            tap(device, "correct 0")
        elif "none_found" in heads:
            tap(device, "none_found")
        elif device.locator("[data-key='host-next-']:not([disabled])").count():
            device.click("[data-key='host-next-']:not([disabled])")
            next_change(device)
        else:
            next_change(device)
    assert any("-day-" in s for s in steps) and any("report" in s for s in steps), steps
    check_screen(device, pages, shots, secrets, prefix="companion")
    table.wait_for_selector(".ending .roles-table")
    check_screen(table, pages, shots, secrets, prefix="companion", table=True)
    for page in (device, table):
        rows = results_table(page, names, ".ending .roles-table")
        assert rows[2][0] == "Cy (Mayor)"
        # the app knows the Mayor's card only: the others are turned over at the table
        assert [r[1:] for r in rows if r[0] != "Cy (Mayor)"] == [
            ["card not told to the app", "see their card"]
        ] * 3
        assert str(secrets.word) in page.inner_text(".ending")
    pages.shot(device, "walk-werewords-companion-result-phone", full=True)
    pages.shot(table, "walk-werewords-companion-result-table")
