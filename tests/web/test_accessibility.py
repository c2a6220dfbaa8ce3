"""Keyboard, labels, the settings dialog and reduced motion."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages

UNLABELLED = """() => [...document.querySelectorAll('input, select, textarea, button')]
  .filter(e => e.offsetParent !== null)
  .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
               && !e.getAttribute('aria-labelledby') && !(e.textContent || '').trim())
  .map(e => e.outerHTML.slice(0, 80))"""


def tab_to(page: Any, selector: str, limit: int = 40) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"{selector} cannot be reached with the keyboard")


def test_joining_a_room_with_the_keyboard_alone(pages: Pages) -> None:
    created = pages.server.api("POST", "/api/rooms", {"game": "werewolf", "name": "Ada"})
    page = pages.new()
    page.goto("/")
    page.wait_for_selector(".game-card")
    assert page.evaluate(UNLABELLED) == []
    tab_to(page, "#join-code")
    page.keyboard.type(created["code"])
    tab_to(page, "#join-name")
    page.keyboard.type("Bea")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seats")
    assert page.evaluate(UNLABELLED) == []
    tab_to(page, "[data-key='sitout-1']")
    page.keyboard.press("Enter")
    page.wait_for_selector("text=You are sitting out.")


def test_the_settings_dialog_by_keyboard(pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    page.wait_for_selector(".game-card")
    tab_to(page, "#open-settings")
    page.keyboard.press("Enter")
    dialog = page.locator("dialog#settings[open]")
    dialog.wait_for()
    for label in ("Read the narration aloud", "Voice volume", "Sound volume", "Mood music"):
        assert dialog.get_by_label(label).count() == 1
    dialog.get_by_label("Mood music").check()
    assert page.evaluate("JSON.parse(localStorage.getItem('wolfden.prefs')).music") is True
    pages.shot(page, "settings-dialog")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog#settings[open]", state="detached")


def test_reduced_motion_turns_animations_off(pages: Pages) -> None:
    page = pages.new()
    page.emulate_media(reduced_motion="reduce")
    page.goto("/")
    page.wait_for_selector(".btn")
    seconds = page.evaluate("getComputedStyle(document.querySelector('.btn')).transitionDuration")
    assert all(float(part.rstrip("s")) < 0.01 for part in seconds.split(","))
