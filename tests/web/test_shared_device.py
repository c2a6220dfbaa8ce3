"""One device for several players, and narration on the host's own phone, in a real browser.

A Werwölfe Kids game on one tablet: before each team's turn the tablet shows "pass the device
to ..." and nothing of either team's secrets until that team confirms. A Werewords round in
companion mode on one device: the eyes-closed flow, the word only at the called role's step.
The host's phone, with no table screen, reads the public narration aloud but never a private
line.
"""

from __future__ import annotations

import time
from typing import Any

from tests.web.conftest import DESKTOP, Pages, next_change
from wolfden import games


def token(page: Any, code: str) -> str:
    return str(page.evaluate(f"JSON.parse(localStorage.getItem('wolfden.id.{code}')).token"))


def create(page: Any, game: str, name: str) -> str:
    page.goto("/")
    page.check(f"input[name=game][value={game}]")
    page.fill("#create-name", name)
    page.click("text=Create the room")
    page.wait_for_selector(".seats")
    return str(page.text_content(".big-code .code")).strip()


def everyone_on_this_device(page: Any, names: list[str] | None = None) -> None:
    page.click("details[data-key='shared-device'] summary")
    for i, name in enumerate(names or []):
        page.fill(f"#share-name-{i}", name)
    page.click("[data-key='share-all']")
    page.wait_for_selector(".lobby .lead:has-text('This device is shared')")


def offered(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all(
            "button[data-action]:not([disabled])", "els => els.map(e => e.dataset.action)"
        )
    )


def on_handover(page: Any) -> bool:
    return bool(page.locator(".handover-screen").count())


KIDS_PREFERENCE = ("close", "done", "scatter", "roll", "wake", "haunt", "open", "move", "stay")


def test_a_kids_game_on_one_tablet_with_hand_over_screens(pages: Pages) -> None:
    tablet = pages.new(DESKTOP)
    create(tablet, "werwoelfe-kids", "Mum")
    everyone_on_this_device(tablet)
    pages.shot(tablet, "shared-device-lobby")
    assert tablet.locator(".seat-name", has_text="Village team").count() == 1
    tablet.click("[data-key='start']")

    handed: list[str] = []
    shots: set[str] = set()
    deadline = time.monotonic() + 90
    while len(handed) < 5 and not tablet.locator(".kids-over").count():
        assert time.monotonic() < deadline, "the hand-overs did not come round"
        if on_handover(tablet):
            # between two teams nothing of the game's screen is drawn: no village, no doors
            assert tablet.locator(".kids").count() == 0
            label = str(tablet.text_content(".handover-buttons button"))
            team = label.removeprefix("I am ").removesuffix(", show me")
            assert team in ("Village team", "Werewolf team"), label
            if f"handover-{team}" not in shots:
                shots.add(f"handover-{team}")
                pages.shot(tablet, f"shared-kids-handover-{team.split()[0].lower()}")
            tablet.locator(".handover-buttons button").first.click()
            tablet.wait_for_selector(".device-bar")
            assert team in str(tablet.text_content(".device-bar"))
            handed.append(team)
            continue
        for name in KIDS_PREFERENCE:
            choices = [a for a in offered(tablet) if a.split()[0] == name]
            if choices:
                if "team-screen" not in shots and tablet.locator(".device-bar").count():
                    shots.add("team-screen")
                    pages.shot(tablet, "shared-kids-team-screen")
                tablet.click(f"button[data-action='{choices[0]}']:not([disabled])")
                break
        else:
            if tablet.locator("[data-key='cover']").count() and not offered(tablet):
                # the team has seen what its own move showed it, and hides the screen
                tablet.click("[data-key='cover']")
        next_change(tablet)
    assert {"Village team", "Werewolf team"} <= set(handed)
    spoken = tablet.evaluate("window.__spoken")
    assert spoken, "the shared tablet reads the public narration"


def test_a_werewords_companion_round_on_one_device(pages: Pages) -> None:
    device = pages.new()
    code = create(device, "werewords", "Ada")
    host_token = token(device, code)
    config = pages.server.api("GET", f"/api/rooms/{code}")["config"]
    config |= {
        "players": 4,
        "mode": "companion",
        "night_step_seconds": 60,
        "pointing_seconds": 5,
    }
    pages.server.api("PUT", f"/api/rooms/{code}/config", {"config": config}, host_token)
    device.wait_for_selector("[data-seat='3']")
    everyone_on_this_device(device, ["Ada", "Ben", "Cy", "Dee"])
    device.click("[data-key='start']")

    # Whoever holds the Mayor card takes the device: several may act, so each has a button.
    device.wait_for_selector(".handover-screen")
    assert device.locator(".handover-buttons button").count() == 4
    pages.shot(device, "shared-werewords-who-takes-it")
    device.click("button:has-text('I am Cy, show me')")
    device.click("[data-key='claim']:not([disabled])")
    device.wait_for_selector("button[data-action^='secret']:not([disabled])")
    device.click("button[data-action^='secret']:not([disabled])")
    device.wait_for_selector("button[data-action^='choose']:not([disabled])")
    word = str(device.locator("button[data-action='choose 0'] .target-name").text_content())
    device.click("button[data-action='choose 0']")
    device.click("button[data-action='confirm']:not([disabled])")

    # The eyes-closed steps: the device shows the word only when the called role taps for it.
    seen_word_step = False
    deadline = time.monotonic() + 60
    while not device.locator(".handover-screen").count():
        assert time.monotonic() < deadline, "the night did not end"
        show = device.locator("[data-key^='comp-show-']")
        if show.count():
            assert word not in str(device.text_content("main")), "the word waits for the tap"
            if not seen_word_step:
                pages.shot(device, "shared-werewords-eyes-closed")
            show.click()
            if device.locator(".companion-screen .magic-word").count():
                assert word in str(device.text_content(".companion-screen"))
                if not seen_word_step:
                    pages.shot(device, "shared-werewords-word-for-the-role")
                seen_word_step = True
        nxt = device.locator("[data-key='host-next-']")
        if nxt.count():
            nxt.click()
            next_change(device)
    assert seen_word_step

    # Day: the Mayor takes the device back and taps Correct; after the pointing the Mayor
    # reports that nobody was found.
    assert "Cy" in str(device.text_content(".handover-screen h1"))
    device.click("button:has-text('I am Cy, show me')")
    device.wait_for_selector("button[data-action^='correct']:not([disabled])")
    pages.shot(device, "shared-werewords-mayor-day")
    device.click("button[data-action^='correct']:not([disabled])")
    deadline = time.monotonic() + 30
    while not device.locator(".werewords .roles-table, .werewords .result").count():
        assert time.monotonic() < deadline, "the round did not end"
        if on_handover(device):
            device.click("button:has-text('I am Cy, show me')")
        reports = [a for a in offered(device) if a.split()[0] in ("none_found", "found")]
        if reports:
            device.click(f"button[data-action='{reports[0]}']:not([disabled])")
        next_change(device)
    assert word in str(device.text_content("main"))
    # The host keeps a few buttons at hand; playing at another difficulty, pausing and ending
    # wait behind "More".
    device.wait_for_selector("[data-key='host-play_again-']")
    shown = device.locator(".host-bar button:visible")
    assert shown.count() <= 3, shown.all_text_contents()
    pages.shot(device, "shared-werewords-result", full=True)
    device.click("[data-key='host-more'] summary")
    assert device.locator(".host-bar button:visible").count() >= 6


def werewolf_seed(players: int) -> int:
    """A seed that makes seat 0 the Seer (with the game's default cards)."""
    game = games.get("werewolf")
    cfg = game.Config(players=players)
    for seed in range(1, 5000):
        if game.setup(cfg, seed).roles[0].value == "seer":
            return seed
    raise AssertionError("no such seed")


def test_the_hosts_phone_speaks_public_narration_but_never_a_private_line(pages: Pages) -> None:
    host = pages.new()
    host.goto("/")
    host.check("input[name=game][value=werewolf]")
    host.fill("#opt-werewolf-night_seconds", "10")
    host.click("form.create .more-options summary")
    host.fill("#opt-werewolf-min_night_seconds", "0")
    host.fill("#create-name", "Ada")
    host.click("text=Create the room")
    host.wait_for_selector(".seats")
    code = str(host.text_content(".big-code .code")).strip()
    room = pages.server.api("GET", f"/api/rooms/{code}")
    seed = werewolf_seed(room["config"]["players"])
    pages.server.api(
        "POST", f"/api/rooms/{code}/start", {"seed": seed, "fill_with": "random"}, token(host, code)
    )
    host.click("[data-key='reveal']")  # the Seer shows the hidden screen to act
    host.wait_for_selector("button[data-action^='check']:not([disabled])")
    host.click("button[data-action^='check']:not([disabled])")
    host.wait_for_selector(".log-list li:has-text('a Werewolf.')", state="attached")
    host.wait_for_selector("[data-key='host-end_discussion-']", timeout=30000)
    host.click("[data-key='host-end_discussion-']")
    host.wait_for_selector("button[data-action^='vote']:not([disabled])")
    spoken = host.evaluate("window.__spoken")
    log = host.eval_on_selector_all(".log-list li", "els => els.map(e => e.textContent)")
    # the opening night script is read from the phone's own view (the same for every viewer)
    assert spoken[0] == "Night falls. Everyone, close your eyes."
    assert "Day breaks. Everyone, open your eyes." in spoken
    assert any("ballot is open" in line for line in spoken)
    private = [line for line in log if "a Werewolf." in line]
    assert private, "the phone received the Seer's private answer"
    assert not [line for line in spoken if line in private], spoken
    # with narration on this phone switched off in the settings, nothing more is spoken
    host.click("#open-settings")
    host.uncheck("#set-host-voice")
    host.click("#settings button[type=submit]")
    before = len(spoken)
    host.click("button[data-action^='vote']:not([disabled])")
    host.wait_for_selector(".log-list li:has-text('ballot is closed')", state="attached")
    assert len(host.evaluate("window.__spoken")) == before


def test_the_host_makes_a_new_shared_device_for_chosen_seats(pages: Pages) -> None:
    host, tablet = pages.new(), pages.new(DESKTOP)
    create(host, "werwoelfe-kids", "Mum")
    host.click("details[data-key='shared-device'] summary")
    host.uncheck("#share-0")
    host.fill("#share-name-1", "Wolf pups")
    host.click("[data-key='share-new']")
    link = str(host.get_attribute(".device-link", "href"))
    assert "/#/d/" in link
    tablet.goto(link)
    tablet.wait_for_selector(".lobby .lead:has-text('This device is shared by seats 2')")
    host.wait_for_selector(".seat-name:has-text('Wolf pups')")
    host.click("[data-key='start']")
    # the host's own phone plays the Village team; the tablet waits for the werewolves' turn
    host.wait_for_selector("button[data-action='scatter']:not([disabled])")
    assert tablet.locator(".handover-screen").count() == 0
    host.click("button[data-action='scatter']:not([disabled])")
    host.click("button[data-action='done']:not([disabled])")
    tablet.wait_for_selector(".handover-screen h1:has-text('Pass the device to Wolf pups')")
    tablet.click("button:has-text('I am Wolf pups, show me')")
    tablet.wait_for_selector("button[data-action^='haunt']:not([disabled])")
    assert "Wolf pups" in str(tablet.text_content(".device-bar"))
    # Exactly one device narrates: the shared tablet, not the host's phone as well.
    assert tablet.evaluate("window.__spoken"), "the shared device reads the narration"
    assert host.evaluate("window.__spoken") == [], "the host's phone stays quiet"
