"""The page in a real browser: user text never runs as markup in any text field, private
information appears only on its owner's screen, and only public narration is spoken."""

from __future__ import annotations

from typing import Any

from tests.security.wire import norm, strings
from tests.web.conftest import DESKTOP, Pages, join_table, next_change
from tests.web.test_werewolf import (
    PEOPLE,
    actions,
    create_room,
    join,
    role_of,
    seed_for_roles,
    token,
)
from wolfden import games
from wolfden.engine import Action, config_from_json
from wolfden.engine.types import PUBLIC, SPECTATOR

PAYLOADS = ["<img src=x onerror=z()>", '"><svg onload=z()>', "<script>z()</script>"]
SPY = "window.z = () => { window.__ran = (window.__ran || 0) + 1; };"
INJECTED = "img[src='x'], svg[onload], body script:not([src]), [onerror], [onload]"
TEXT_FIELDS = "input[type=text]:visible, input:not([type]):visible, textarea:visible"


def poison_every_text_field(page: Any, payload: str) -> int:
    fields = page.locator(TEXT_FIELDS)
    for i in range(fields.count()):
        field = fields.nth(i)
        if field.is_editable():
            field.fill(payload[: int(field.get_attribute("maxlength") or 10_000)])
    return int(fields.count())


def assert_nothing_ran(page: Any) -> None:
    assert page.evaluate("window.__ran") is None
    assert page.locator(INJECTED).count() == 0


def test_script_in_every_text_field_stays_text(pages: Pages) -> None:
    host = pages.new()
    host.add_init_script(SPY)
    host.goto("/")
    host.check("input[name=game][value=werewolf]")
    filled = poison_every_text_field(host, PAYLOADS[0])
    assert filled >= 1
    host.fill("#create-name", PAYLOADS[0])
    host.click("text=Create the room")
    host.wait_for_selector(".seats")
    code = host.text_content(".big-code .code").strip()
    assert_nothing_ran(host)
    for payload in PAYLOADS[1:]:
        guest = pages.new()
        guest.add_init_script(SPY)
        guest.goto(f"/#/r/{code}")
        poison_every_text_field(guest, payload)
        guest.fill("#join-name", payload)
        guest.click("form.join button[type=submit]")
        guest.wait_for_selector(".seats")
        poison_every_text_field(guest, payload)  # whatever the lobby lets a guest type
        assert_nothing_ran(guest)
    poison_every_text_field(host, PAYLOADS[2])
    host.wait_for_function(
        "() => document.querySelectorAll('.seat-row .presence-here').length === 3"
    )
    shown = " ".join(host.locator(".seat-row .seat-name").all_text_contents())
    for payload in PAYLOADS:
        assert payload in shown
    assert_nothing_ran(host)
    # a room code with markup in the link is text too
    stray = pages.new()
    stray.add_init_script(SPY)
    stray.goto("/#/r/%3Cimg%20src%3Dx%20onerror%3Dz()%3E")
    stray.wait_for_selector("form.create")  # not a code: the home page, drawn in full
    assert_nothing_ran(stray)


def test_secrets_show_only_on_their_owners_screen_and_only_public_lines_are_spoken(
    pages: Pages,
) -> None:
    phones = [pages.new(hidden=False) for _ in PEOPLE]
    host = phones[0]
    code = create_room(host, PEOPLE[0])
    for page, name in zip(phones[1:], PEOPLE[1:]):
        join(page, code, name)
    table = pages.new(DESKTOP)
    join_table(table, host, code, "Table")
    host.wait_for_function("() => document.querySelectorAll('.presence-here').length >= 4")
    for seat in range(4, 7):
        host.click(f"[data-key='addbot-{seat}']")
        host.wait_for_selector(f"[data-key='rmbot-{seat}']")
    room = pages.server.api("GET", f"/api/rooms/{code}")
    seed = seed_for_roles(room["config"], {"werewolf", "seer", "guardian", "villager"})
    host_token = token(host, code)
    pages.server.api("POST", f"/api/rooms/{code}/start", {"seed": seed}, host_token)
    game = games.get("werewolf")
    state = game.setup(config_from_json(game.Config, room["config"]), seed)
    cards = [c.id for c in state.cards]
    wolves = {s for s, c in enumerate(state.cards) if c.role.value == "werewolf"}
    for page in phones:
        page.wait_for_selector(".werewolf")
        # these phones keep their screens shown (the privacy setting off): the card is open
        if not page.locator(".role-card .card-id").count():
            page.click("[data-key='card-toggle']")
        page.wait_for_selector(".role-card .card-id")
    # the first night: everyone of ours does what the screen offers
    seer_page = next(p for p in phones if role_of(p) == "seer")
    for _ in range(3):
        for page in phones:
            offered = actions(page)
            if offered:
                page.click(f"button[data-action='{offered[0]['action']}']")
        next_change(seer_page)
    host.wait_for_selector("[data-key='host-end_discussion-']")  # the night is over
    screens = {seat: page for seat, page in enumerate(phones)}
    for seat, page in screens.items():
        text = page.inner_text("body")
        assert cards[seat] in text
        known = {seat} | (wolves if seat in wolves else set())
        for other in set(range(7)) - known:
            assert cards[other] not in text, f"seat {seat} sees the card of seat {other}"
        if page is not seer_page:
            assert page.locator(".seer-answer").count() == 0
            assert "is a Werewolf." not in text and "is not a Werewolf." not in text
    table_text = table.inner_text("body")
    assert not [c for c in cards if c in table_text]
    assert "is a Werewolf." not in table_text and "is not a Werewolf." not in table_text
    # end the match and hold every spoken line against the public narration of the record
    pages.server.api("POST", f"/api/rooms/{code}/end", None, host_token)
    record = pages.server.api("GET", f"/api/matches/m-{code}-1")
    s = game.setup(config_from_json(game.Config, record["config"]), record["seed"])
    public = strings(norm(game.view(s, SPECTATOR)))
    for seat, text in record["actions"]:
        s, events = game.apply(s, seat, Action.parse(text))
        public |= {e.text for e in events if e.audience == PUBLIC and e.text}
        public |= strings(norm(game.view(s, SPECTATOR)))
    spoken = table.evaluate("window.__spoken")
    assert spoken, "the table speaks the narration"
    assert [line for line in spoken if line not in public] == []
    for page in phones:
        assert page.evaluate("window.__spoken") == []
