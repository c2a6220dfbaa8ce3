"""Werwölfe Kids' screens one at a time: real views from the rules, drawn by the renderer on a
phone-sized page (fast checks of what a team sees; whole matches are test_werwoelfe_kids.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import PHONE, Pages
from tests.web.harness import legal_of, play, show, view_of
from wolfden.engine.types import Action
from wolfden.games.werwoelfe_kids import VILLAGE, Language
from wolfden.games.werwoelfe_kids.pieces import DISCOVERED

GAME = "werwoelfe-kids"


def ended_with_a_discovered_werewolf(language: str) -> Any:
    """A finished match in which a werewolf on its Discovered side is still in the village."""
    for seed in range(300):
        state = play(
            GAME, {"language": Language(language)}, seed, lambda g, s: g.outcome(s) is not None
        )
        if DISCOVERED in state.houses:
            return state
    raise AssertionError("no match of 300 ended with a discovered werewolf in the village")


def broken_words(page: Any, selector: str) -> list[str]:
    """Words inside ``selector`` that the browser broke across two lines."""
    return list(
        page.evaluate(
            """sel => {
              const out = [];
              for (const el of document.querySelectorAll(sel)) {
                const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let node = walk.nextNode(); node; node = walk.nextNode()) {
                  for (const m of node.textContent.matchAll(/\\S+/g)) {
                    const r = document.createRange();
                    r.setStart(node, m.index);
                    r.setEnd(node, m.index + m[0].length);
                    const tops = new Set([...r.getClientRects()].map((b) => Math.round(b.top)));
                    if (tops.size > 1) out.push(m[0]);
                  }
                }
              }
              return out;
            }""",
            selector,
        )
    )


@pytest.mark.parametrize(
    ("language", "headline"),
    [("en", "The Village team wins!"), ("de", "Das Dorf-Team gewinnt!")],
)
def test_the_end_screen_says_who_won_in_a_whole_sentence(
    pages: Pages, language: str, headline: str
) -> None:
    page = pages.new()
    for seed in range(100):
        state = play(
            GAME, {"language": Language(language)}, seed, lambda g, s: g.outcome(s) is not None
        )
        if state.winner == VILLAGE:
            break
    view = view_of(GAME, state, 0)
    show(page, GAME, view, seat=0, outcome={"winners": [0]})
    assert page.inner_text(".ending h2").strip() == headline
    assert "team win!" not in page.inner_text("#main")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_discovered_werewolf_is_never_broken_mid_word(pages: Pages, language: str) -> None:
    page = pages.new()
    state = ended_with_a_discovered_werewolf(language)
    show(page, GAME, view_of(GAME, state, 0), seat=0, outcome={"winners": [state.winner]})
    assert page.locator(".content-wolf.discovered").count() >= 1
    assert broken_words(page, ".kids .house") == []
    pages.shot(page, f"screen-kids-end-{language}")


def placing() -> Any:
    return play(GAME, {}, 1, lambda g, s: True)


def people_order(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all(".kids .person-btn strong", "els => els.map(e => e.textContent)")
    )


def test_the_village_and_the_people_fit_one_phone_screen_while_placing(pages: Pages) -> None:
    """Placing people, a team taps a person, then a house, ten times: the whole village and
    the whole list of people are on one 390×844 screen together."""
    page = pages.new()
    state = placing()
    show(page, GAME, view_of(GAME, state, 0), seat=0, legal=legal_of(GAME, state, 0))
    box = page.evaluate(
        """() => {
          const parts = [document.querySelector('.kids-village'),
                         ...document.querySelectorAll('.kids .person-btn')];
          const rects = parts.map((e) => e.getBoundingClientRect());
          return {top: Math.min(...rects.map((r) => r.top)),
                  bottom: Math.max(...rects.map((r) => r.bottom))};
        }"""
    )
    assert box["bottom"] - box["top"] <= PHONE["height"] - 120, box
    pages.shot(page, "screen-kids-placing")


def test_the_people_keep_their_places_in_the_list_while_placing(pages: Pages) -> None:
    page = pages.new()
    game_state = placing()
    show(page, GAME, view_of(GAME, game_state, 0), seat=0, legal=legal_of(GAME, game_state, 0))
    before = people_order(page)
    assert len(before) == 13
    from wolfden import games

    game = games.get(GAME)
    for text in ("pick clara", "put B2", "pick ada", "put A1"):
        game_state, _ = game.apply(game_state, 0, Action.parse(text))
        show(page, GAME, view_of(GAME, game_state, 0), seat=0, legal=legal_of(GAME, game_state, 0))
        assert people_order(page) == before, f"the list moved after {text}"
    placed = page.eval_on_selector_all(
        ".kids .person-btn:disabled strong", "els => els.map(e => e.textContent)"
    )
    assert sorted(placed) == ["Ada", "Clara"]
