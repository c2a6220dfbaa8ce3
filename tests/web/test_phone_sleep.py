"""A phone that locks: the screen is held awake during a match (where the browser allows it),
and a connection that died while the phone slept is replaced the moment the page shows again."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages, until

# A stand-in for the browser's Screen Wake Lock that records each lock and its release.
WAKE_LOCK_SPY = """
window.__locks = [];
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
  request: async (type) => {
    const lock = new EventTarget();
    Object.assign(lock, {type, released: false, release: async () => {
      lock.released = true;
      lock.dispatchEvent(new Event('release'));
    }});
    window.__locks.push(lock);
    return lock;
  },
}});
"""

# Records every WebSocket the page opens.
SOCKET_SPY = """
window.__sockets = [];
const RealSocket = window.WebSocket;
window.WebSocket = class extends RealSocket {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};
"""


def create(page: Any, game: str, name: str) -> str:
    page.goto("/")
    page.check(f"input[name=game][value={game}]")
    page.fill("#create-name", name)
    page.click("text=Create the room")
    page.wait_for_selector(".seats")
    return str(page.text_content(".big-code .code")).strip()


def test_the_screen_is_held_awake_during_a_match_only(pages: Pages) -> None:
    page = pages.new()
    page.context.add_init_script(WAKE_LOCK_SPY)
    create(page, "werewolf", "Ada")
    assert page.evaluate("window.__locks.length") == 0, "no lock in the lobby"
    page.select_option("#fill-with", "rules")
    page.click("[data-key='start']")
    page.wait_for_selector(".werewolf")
    until(page, "window.__locks.some((l) => l.type === 'screen' && !l.released)")
    page.click("[data-key='end-match']")
    until(page, "window.__locks.every((l) => l.released)")


def test_a_connection_that_died_asleep_is_replaced_when_the_page_shows(pages: Pages) -> None:
    page = pages.new()
    page.context.add_init_script(SOCKET_SPY)
    create(page, "werewolf", "Ada")
    until(page, "document.getElementById('net').dataset.status === 'online'")
    assert page.evaluate("window.__sockets.length") == 1
    # The phone slept: its socket still looks open but nothing comes through any more.
    page.evaluate(
        "(() => { const ws = window.__sockets[0];"
        " ws.onmessage = null; ws.send = () => {}; })()"
    )
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    until(page, "window.__sockets.length === 2 && window.__sockets[1].readyState === 1")
    until(page, "document.getElementById('net').dataset.status === 'online'")
    # ... and the room's news comes in on the new connection.
    code = str(page.text_content(".big-code .code")).strip()
    pages.server.api("POST", f"/api/rooms/{code}/join", {"name": "Bea", "role": "player"})
    page.wait_for_selector(".seat-row[data-seat='1'] :text('Bea')")
