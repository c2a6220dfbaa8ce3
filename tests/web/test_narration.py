"""The host's say over the table screen and the voice, in real browsers: a table screen asks to
join and the host approves it on the phone (or refuses it, or hands it a link); exactly the
device the host picks reads aloud; and the table reads the night one line at a time, in step
with the line it shows large."""

from __future__ import annotations

import itertools
from typing import Any

from tests.web.conftest import DESKTOP, PHONE, Pages, approve_table, join_table, until
from wolfden.engine import config_from_json
from wolfden.games import werewolf
from wolfden.games.werewolf import narration

TABLET = {"width": 820, "height": 1180}
NIGHT_FALLS = "Night falls. Everyone, close your eyes."


def create(page: Any, name: str, *, night: int, shortest: int) -> str:
    """A Werewolf room made on the home page, with nights of ``shortest`` to ``night`` s."""
    page.goto("/")
    page.check("input[name=game][value=werewolf]")
    page.fill("#opt-werewolf-night_seconds", str(night))
    page.click("form.create .more-options summary")
    page.fill("#opt-werewolf-min_night_seconds", str(shortest))
    page.fill("#create-name", name)
    page.click("text=Create the room")
    page.wait_for_selector(".seats")
    return str(page.text_content(".big-code .code")).strip()


def token(page: Any, code: str) -> str:
    return str(page.evaluate(f"JSON.parse(localStorage.getItem('wolfden.id.{code}')).token"))


def ask_as_table(page: Any, code: str, name: str) -> None:
    page.goto(f"/#/t/{code}")
    page.fill("#join-name", name)
    page.click("form.join button[type=submit]")


def participant(pages: Pages, code: str, name: str) -> str:
    room = pages.server.api("GET", f"/api/rooms/{code}")
    return str(next(p["id"] for p in room["participants"] if p["name"] == name))


def test_a_table_screen_comes_in_when_the_host_approves_it_on_the_phone(pages: Pages) -> None:
    host = pages.new(PHONE)
    code = create(host, "Ada", night=60, shortest=0)
    tablet = pages.new(TABLET)
    ask_as_table(tablet, code, "Kitchen tablet")
    tablet.get_by_text("Waiting for the host to let this screen in.").wait_for()
    # the waiting screen shows nothing of the room: no seats, no code to pass on, no QR code
    assert tablet.locator(".seats, .big-code, .qr").count() == 0
    pages.shot(tablet, "table-waiting-tablet")
    request = host.locator(".table-requests li.request", has_text="Kitchen tablet")
    request.wait_for()
    pages.shot(host, "table-approval-phone")
    host.set_viewport_size(TABLET)
    pages.shot(host, "table-approval-tablet")
    host.set_viewport_size(PHONE)

    approve_table(host, "Kitchen tablet")
    tablet.wait_for_selector(".seats")
    assert code in str(tablet.text_content(".big-code"))
    assert "This device is the table screen." in str(tablet.text_content(".lobby .lead"))

    # a screen the host refuses is told so, and learns nothing more
    stranger = pages.new(DESKTOP)
    ask_as_table(stranger, code, "Hallway TV")
    stranger.get_by_text("Waiting for the host to let this screen in.").wait_for()
    host.get_by_role("button", name="Refuse Hallway TV").click()
    stranger.get_by_text("The host did not let this screen in.").wait_for()
    assert stranger.locator(".seats, .big-code").count() == 0
    room = pages.server.api("GET", f"/api/rooms/{code}")
    assert "Hallway TV" not in [p["name"] for p in room["participants"]]

    # the host's table-screen link lets a screen in without asking
    host.click("[data-key='table-link']")
    link = str(host.get_attribute(".table-link-url", "href"))
    assert f"#/t/{code}/" in link
    assert host.locator(".table-link .qr img").evaluate(
        "(img) => img.complete && img.naturalWidth > 0"
    )
    den = pages.new(DESKTOP)
    den.goto(link)
    den.get_by_text("This is the host's table-screen link").wait_for()
    assert "#/t/" in den.url and den.url.endswith(code), "the key leaves the address bar"
    den.fill("#join-name", "Den")
    den.click("form.join button[type=submit]")
    den.wait_for_selector(".seats")
    assert host.locator(".table-requests").count() == 0


def test_only_the_device_the_host_picks_reads_aloud(pages: Pages) -> None:
    host = pages.new()
    # a night of thirty seconds, however quickly it is played: the host switches in it
    code = create(host, "Ada", night=30, shortest=30)
    bea = pages.new()
    bea.goto(f"/#/r/{code}")
    bea.fill("#join-name", "Bea")
    bea.click("form.join button[type=submit]")
    bea.wait_for_selector(".seats")
    table = pages.new(DESKTOP)
    join_table(table, host, code, "Table")
    # by default the table screen reads aloud; the host picks Bea's phone instead
    host.locator(".narrator-now", has_text="Table reads aloud").wait_for()
    host.select_option("#narrator", participant(pages, code, "Bea"))
    host.locator(".narrator-now", has_text="Bea reads aloud").wait_for()
    pages.shot(host, "narrator-choice-phone", full=True)
    pages.server.api(
        "POST", f"/api/rooms/{code}/start", {"fill_with": "random", "seed": 5}, token(host, code)
    )
    until(bea, f"window.__spoken.includes({NIGHT_FALLS!r})", 30)
    table.wait_for_selector(".narration li.current")
    assert table.evaluate("window.__spoken") == [], "the table screen stays silent"
    assert host.evaluate("window.__spoken") == [], "the host's phone stays silent"

    # during the match the host gives the voice back to the table screen
    host.click("details[data-key='host-voice'] summary")
    host.select_option("#narrator", participant(pages, code, "Table"))
    host.locator(".narrator-now", has_text="Table reads aloud").wait_for()
    pages.shot(host, "narrator-choice-match", full=True)
    assert table.locator(".werewolf .phase-title", has_text="Night").count() == 1, "still night"
    until(table, "window.__spoken.some((l) => l.startsWith('Day breaks'))", 90)
    assert not [line for line in bea.evaluate("window.__spoken") if line.startswith("Day breaks")]
    assert host.evaluate("window.__spoken") == []
    room = pages.server.api("GET", f"/api/rooms/{code}")
    assert room["narrator"] == participant(pages, code, "Table")


# A speech synthesizer for the page: it records each line it is given, when it started and
# ended, and the line the table showed large at that moment; it "says" a line in 0.3 s.
FAKE_SYNTH = """
window.__utter = [];
(() => {
  const synth = window.speechSynthesis;
  if (!synth) return;
  let current = null;
  const shown = () => {
    const el = document.querySelector('.narration li.current');
    return el ? el.textContent : null;
  };
  const finish = (u, how) => {
    if (current === null || current.u !== u) return;
    const rec = current.rec;
    current = null;
    rec.end = performance.now();
    rec.how = how;
    if (how === 'end' && u.onend) u.onend(new Event('end'));
    if (how === 'cancel' && u.onerror) u.onerror(new Event('error'));
  };
  const speak = (u) => {
    const rec = {text: u.text, start: performance.now(), end: null, how: null,
                 shown: shown(), overlapping: current !== null};
    window.__utter.push(rec);
    current = {u, rec};
    setTimeout(() => finish(u, 'end'), 300);
  };
  const cancel = () => { if (current) finish(current.u, 'cancel'); };
  Object.defineProperty(synth, 'speak', {value: speak, configurable: true});
  Object.defineProperty(synth, 'cancel', {value: cancel, configurable: true});
})();
"""


def test_the_table_reads_the_night_one_line_at_a_time_with_the_line_shown(pages: Pages) -> None:
    host = pages.new()
    # a twelve-second night: its script (three seconds a line at least) is cut by the dawn
    code = create(host, "Ada", night=12, shortest=12)
    table = pages.new(DESKTOP, spy_speech=False)
    table.context.add_init_script(FAKE_SYNTH)
    join_table(table, host, code, "Table")
    pages.server.api(
        "POST", f"/api/rooms/{code}/start", {"fill_with": "random", "seed": 5}, token(host, code)
    )
    discuss = narration.DISCUSS
    until(table, f"window.__utter.some((r) => r.text === {discuss!r} && r.end !== null)", 90)
    said = table.evaluate(
        "window.__utter.map(({text, start, end, how, shown, overlapping}) =>"
        " ({text, start, end, how, shown, overlapping}))"
    )
    room = pages.server.api("GET", f"/api/rooms/{code}")
    night_lines = narration.night_script(config_from_json(werewolf.Config, room["config"]))
    night = [r for r in said if r["text"] in night_lines]
    assert night and night[0]["text"] == NIGHT_FALLS
    assert len(night) >= 3, "several lines of the night were read"
    assert [r["text"] for r in night] == night_lines[: len(night)], (
        "in the script's order, once each"
    )
    assert len(night) < len(night_lines), "the dawn cut the night's script short"
    for before, after in itertools.pairwise(said):
        assert not after["overlapping"], f"{after['text']!r} began while another line was said"
        assert before["end"] is not None and after["start"] >= before["end"], (before, after)
    for r in night + [r for r in said if r["text"] == discuss]:
        assert r["shown"] == r["text"], f"said {r['text']!r} while {r['shown']!r} was shown large"
    # once the day came, no line of the night was read again
    dawn = next(i for i, r in enumerate(said) if r["text"].startswith("Day breaks"))
    assert not [r for r in said[dawn:] if r["text"] in night_lines]
