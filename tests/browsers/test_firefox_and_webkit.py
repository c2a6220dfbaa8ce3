"""The web client in Firefox ESR and in WebKitGTK (the engine of Safari), each against a real
``wolfden serve``: the home page, a room made and joined from two separate browser profiles,
whole matches with bots in the other seats, a reload mid-match that comes straight back to the
seat, and not one console error or uncaught exception along the way."""

from __future__ import annotations

import time

from tests.browsers.conftest import DESKTOP, Pages
from tests.browsers.drivers import Page
from tests.server.conftest import ServeProcess
from wolfden import games


def create_room(page: Page, game: str, name: str, options: dict[str, str]) -> str:
    page.goto("/")
    page.click(f"input[name=game][value={game}]")
    page.wait_for(f"#opt-{game}-{next(iter(options))}")
    if not all(page.visible(f"#opt-{game}-{key}") for key in options):
        page.click("form.create .more-options summary")
    for key, value in options.items():
        field = f"#opt-{game}-{key}"
        if page.evaluate("return document.querySelector(arguments[0]).tagName;", field) == "SELECT":
            page.select(field, value)
        else:
            page.fill(field, value)
    page.fill("#create-name", name)
    page.click("form.create button[type=submit]")
    page.wait_for(".seats")
    return page.text(".big-code .code").strip()


def join(page: Page, code: str, name: str, *, host: Page | None = None) -> None:
    """Join as a player, or (``host`` given) as the table screen the host then approves."""
    page.goto(f"/#/{'t' if host else 'r'}/{code}")
    page.fill("#join-name", name)
    page.click("form.join button[type=submit]")
    if host is not None:
        page.wait_for(".pending-table")
        host.click(".table-requests [data-key^='admit-']")
    page.wait_for(".seats")


def test_the_home_page_offers_every_game(pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    page.wait_for("input[name=game]")
    assert page.count("input[name=game]") == len(games.ids())
    page.wait_for("#create-name")
    pages.shot(page, "home-phone")


def test_a_deal_of_robbers_horror_with_a_reload_in_the_middle(pages: Pages) -> None:
    ada, bea = pages.new(), pages.new()
    code = create_room(ada, "robbers-horror", "Ada", {"deals": "1"})
    join(bea, code, "Bea")
    ada.select("#fill-with", "rules")
    ada.click("[data-key='start']")
    for page in (ada, bea):
        page.wait_for(".robbers .scoreboard")
        assert page.count(".hand .card-button") == 0, "a phone's hand is hidden until shown"
        page.click("[data-key='reveal']")  # as a player does, when nobody else can see
        page.wait_for(".hand .card-button")
        assert page.count(".hand .card-button") >= 8, "each player sees a hand of cards"
    pages.shot(ada, "robbers-hand")

    reloaded = False
    deadline = time.monotonic() + 60
    while not ada.count(".ending"):
        assert time.monotonic() < deadline, "the deal did not end in time"
        for page in (ada, bea):
            if page.count("[data-key='reveal']"):
                page.tap("[data-key='reveal']")  # the hand hides again by itself
            page.tap(".hand .card-button:not([disabled])")
        if not reloaded and ada.count(".last-trick"):
            bea.reload()
            bea.wait_for(".robbers .hand-panel")
            assert bea.count("#join-name") == 0, (
                "a reload comes back to the seat, not the join form"
            )
            reloaded = True
        ada.next_change()
    assert reloaded
    for page in (ada, bea):
        page.wait_for(".ending .score-table")
        page.wait_for(".deal-score")
    assert ada.count(".ending tbody tr") == 4
    assert "Robbers:" in ada.text(".deal-score")
    pages.shot(ada, "robbers-ending")


def test_a_werewolf_match_with_bots_and_a_table_screen(pages: Pages) -> None:
    ada = pages.new()
    code = create_room(
        ada,
        "werewolf",
        "Ada",
        {
            "night_seconds": "10",
            "vote_seconds": "5",
            "discussion_seconds": "10",
            "min_night_seconds": "0",
        },
    )
    table = pages.new(DESKTOP)
    join(table, code, "Table", host=ada)
    ada.select("#fill-with", "rules")
    ada.click("[data-key='start']")
    ada.wait_for(".werewolf")
    ada.click("[data-key='card-toggle']")
    ada.wait_for(".role-card .card-id")
    assert "R_WEREWOLF-0" in ada.text(".role-card"), "the card id is on the role card"
    pages.shot(ada, "werewolf-role-card")
    table.wait_for(".narration")
    shown = table.count(".villager-tile.alive .tile-role:not(.unknown)")
    assert shown == 0, "the table shows the role of no one still in the game"

    reloaded = False
    deadline = time.monotonic() + 90
    while not (ada.count(".ending") and table.count(".ending")):
        assert time.monotonic() < deadline, "the match did not end in time"
        if ada.count("[data-key='reveal']"):
            ada.tap("[data-key='reveal']")  # the phone's screen hides itself again by itself
        offered = ada.evaluate(
            "return [...document.querySelectorAll('button[data-action]:not([disabled])')]"
            ".map(e => e.dataset.action);"
        )
        if offered:
            ada.tap(f"button[data-action='{offered[0]}']:not([disabled])")
        if ada.count("[data-key='host-end_discussion-']"):
            if not reloaded:
                ada.reload()
                ada.wait_for(".werewolf")
                assert ada.count("#join-name") == 0, "a reload comes back to the seat"
                reloaded = True
            ada.tap("[data-key='host-end_discussion-']")
        ada.next_change()
    assert reloaded
    for page in (ada, table):
        page.wait_for(".roles-table")
        assert page.count(".roles-table tbody tr") == 7
    pages.shot(ada, "werewolf-ending-phone")
    pages.shot(table, "werewolf-ending-table")


def test_the_settings_dialog_plays_a_sound_music_and_the_voice(pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    page.wait_for("input[name=game]")
    page.click("#open-settings")
    page.wait_for("dialog#settings[open] #set-music")
    page.click("#try-sound")  # Try a sound (Web Audio)
    page.click("#set-music")  # mood music, generated in the page
    assert page.evaluate("return JSON.parse(localStorage.getItem('wolfden.prefs')).music;") is True
    page.click("#try-voice")  # Try the voice (speech synthesis)
    pages.shot(page, "settings-dialog")
    page.click("#settings button[type=submit]")
    page.wait_until(
        "return !document.querySelector('dialog#settings[open]');", "Done closed no dialog", 5
    )


def play_until(page: Page, done: str, seconds: float, prefer: tuple[str, ...] = ()) -> None:
    """Tap what the screen offers (the preferred kinds of action first) until ``done`` shows."""
    end = time.monotonic() + seconds
    while not page.count(done):
        assert time.monotonic() < end, f"{done!r} did not show within {seconds:.0f} s"
        if page.count("[data-key='reveal']"):
            page.tap("[data-key='reveal']")  # a phone's screen hides itself again by itself
        offered = page.evaluate(
            "return [...document.querySelectorAll('button[data-action]:not([disabled])')]"
            ".map(e => e.dataset.action);"
        )
        ranked = sorted(
            (a for a in offered if "play_again" not in a),
            key=lambda a: prefer.index(a.split()[0]) if a.split()[0] in prefer else len(prefer),
        )
        if ranked:
            page.tap(f"button[data-action='{ranked[0]}']:not([disabled])")
        page.next_change()


def seed_without_mayor_at_seat_0(players: int) -> int:
    game = games.get("werewords")
    config = game.Config(players=players)
    return next(seed for seed in range(1, 1000) if game.setup(config, seed).mayor != 0)


def test_a_werewords_day_with_bots_a_typed_question_and_a_reload(
    pages: Pages, serve: ServeProcess
) -> None:
    ada = pages.new()
    code = create_room(
        ada,
        "werewords",
        "Ada",
        {
            "players": "4",
            "yes_no_tokens": "3",
            "maybe_tokens": "0",
            "day_seconds": "30",
            "night_step_seconds": "2",
            "word_choice_seconds": "5",
        },
    )
    # The bots think for a second, so a person gets a question in between theirs.
    ada.click("details[data-key='room-settings'] summary")
    ada.fill("#bot-delay", "1")
    ada.click("[data-key='save-settings']")
    ada.wait_until(
        f"return fetch('/api/rooms/{code}').then((r) => r.json())"
        ".then((room) => room.settings.bot_delay === 1);",
        "the room settings were not saved",
    )
    # Started with a deal where a bot is the Mayor, so Ada is one who asks.
    token = ada.evaluate(f"return JSON.parse(localStorage.getItem('wolfden.id.{code}')).token;")
    start = {"seed": seed_without_mayor_at_seat_0(4), "fill_with": "rules"}
    response = serve.http.post(
        f"/api/rooms/{code}/start", json=start, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200, response.text
    ada.wait_for(".werewords")
    assert code in ada.text("#room-badge")
    play_until(ada, "form.ask-form button[type=submit]:not([disabled])", 30, prefer=("ok",))
    ada.fill("#ask-text", "Is it <b>bigger</b> than a bread box?")
    ada.click("form.ask-form button[type=submit]")
    ada.wait_for(".question .q-text")
    assert ada.count(".q-text b") == 0, "a typed question is shown as text"
    # The bot Mayor answers it with a token; after a reload the log still shows it answered.
    answered = (
        "return [...document.querySelectorAll('.question.answered .q-text')]"
        ".map(e => e.textContent);"
    )
    end = time.monotonic() + 20
    while not any("than a bread box" in q for q in ada.evaluate(answered)):
        assert time.monotonic() < end, "the Mayor never answered the question"
        ada.next_change()
    pages.shot(ada, "werewords-day")
    ada.reload()
    ada.wait_for(".werewords .questions")
    assert ada.count("#join-name") == 0, "a reload comes back to the seat"
    assert any("than a bread box" in q for q in ada.evaluate(answered))


def test_a_match_of_werwoelfe_kids_against_the_werewolf_bots(pages: Pages) -> None:
    village = pages.new()
    create_room(village, "werwoelfe-kids", "Dorf", {"language": "de"})
    village.select("#fill-with", "rules")
    village.click("[data-key='start']")
    village.wait_for(".kids-village")
    assert village.evaluate("return document.querySelector('.kids').lang;") == "de"
    pages.shot(village, "kids-placing")
    play_until(village, ".house.open", 30, prefer=("close", "done", "scatter", "roll", "open"))
    pages.shot(village, "kids-door-open")
    village.reload()
    village.wait_for(".kids-village")
    assert village.count("#join-name") == 0, "a reload comes back to the seat"
    play_until(
        village, ".kids-over .ending", 60, prefer=("close", "done", "scatter", "roll", "wake")
    )
    assert village.count(".house .house-inside .content") == village.count(".house")
    pages.shot(village, "kids-over")


def test_a_word_list_is_made_on_the_word_lists_page(pages: Pages) -> None:
    page = pages.new()
    page.goto("/words.html")
    page.fill("#profile-name", "Ada")
    page.click("form[aria-labelledby=profile-title] button[type=submit]")
    page.wait_for("#new-list")
    assert "Signed in as Ada" in page.text("#profile-title")
    page.click("#new-list")
    page.fill("#list-name", "Birds")
    page.select("#list-difficulty", "easy")
    page.fill("#list-text", "Nuthatch\nGoldcrest\nWren\nRobin\nStarling")
    page.click("#list-editor button[type=submit]")
    page.wait_for("[data-list='Birds']")
    assert "5 entries · easy" in page.text("[data-list='Birds']")
    pages.shot(page, "word-lists")


def test_a_kids_game_handed_round_one_shared_tablet(pages: Pages) -> None:
    """Everyone on the host's device: between the teams' turns the tablet shows only the
    hand-over screen, and after "I am …, show me" that team's screen."""
    tablet = pages.new(DESKTOP)
    create_room(tablet, "werwoelfe-kids", "Mum", {"language": "en"})
    tablet.click("details[data-key='shared-device'] summary")
    tablet.click("[data-key='share-all']")
    end = time.monotonic() + 20
    while "This device is shared" not in (
        tablet.text(".lobby .lead") if tablet.count(".lobby .lead") else ""
    ):
        assert time.monotonic() < end, "the lobby never said that this device is shared"
        tablet.next_change()
    tablet.click("[data-key='start']")
    handed: list[str] = []
    end = time.monotonic() + 60
    while len(handed) < 4:
        assert time.monotonic() < end, f"the hand-overs did not come round: {handed}"
        if tablet.count(".handover-screen"):
            assert tablet.count(".kids") == 0, "nothing of the game behind the hand-over screen"
            label = tablet.text(".handover-buttons button")
            team = label.removeprefix("I am ").removesuffix(", show me")
            assert team in ("Village team", "Werewolf team"), label
            tablet.click(".handover-buttons button")
            tablet.wait_for(".device-bar")
            assert team in tablet.text(".device-bar")
            if not handed:
                pages.shot(tablet, "shared-kids-team-screen")
            handed.append(team)
            continue
        offered = tablet.evaluate(
            "return [...document.querySelectorAll('button[data-action]:not([disabled])')]"
            ".map(e => e.dataset.action);"
        )
        ranked = [a for name in KIDS for a in offered if a.split()[0] == name]
        if ranked:
            tablet.tap(f"button[data-action='{ranked[0]}']:not([disabled])")
        elif tablet.count("[data-key='cover']"):
            tablet.tap("[data-key='cover']")
        tablet.next_change()
    assert {"Village team", "Werewolf team"} <= set(handed)


KIDS = ("close", "done", "scatter", "roll", "wake", "haunt", "open", "move", "stay")
