"""Werewolf's variant roles on screen: the renderer draws their legal actions as buttons, the
phases they add get a title, and the deal line lists them (docs/games/werewolf.md)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages
from tests.web.harness import legal_of, play, show, view_of


def until_phase(*phases: str) -> Any:
    def reached(game: Any, state: Any) -> bool:
        return bool(state.phase.value in phases)

    return reached


def test_an_eliminated_hunter_gets_a_button_per_living_player(pages: Pages) -> None:
    config = {"players": 8, "hunters": 1}
    ends = (play("werewolf", config, seed, until_phase("hunt", "end")) for seed in range(40))
    state = next(s for s in ends if s.phase.value == "hunt")
    hunter = next(iter(state.pending))
    page = pages.new()
    view = view_of("werewolf", state, hunter)
    show(page, "werewolf", view, seat=hunter, legal=legal_of("werewolf", state, hunter))
    assert "the Hunter's shot" in page.inner_text("h1.phase-title")
    buttons = page.locator("button[data-action^='shoot']")
    assert buttons.count() == len(state.alive)
    living = sorted(state.alive)
    assert buttons.first.inner_text().startswith(f"Take with you: Player {living[0] + 1}")
    assert "1 Hunters" in page.inner_text(".deal-line")
    pages.shot(page, "screen-werewolf-hunter")


def test_the_witch_sees_the_target_and_her_potions_as_buttons(pages: Pages) -> None:
    config = {"players": 8, "witches": 1}

    def witch_awake(game: Any, state: Any) -> bool:
        return any(state.roles[s].value == "witch" for s in state.pending)

    state = play("werewolf", config, 3, witch_awake)
    witch = next(s for s in state.pending if state.roles[s].value == "witch")
    page = pages.new()
    view = view_of("werewolf", state, witch)
    show(page, "werewolf", view, seat=witch, legal=legal_of("werewolf", state, witch), hidden=False)
    text = page.inner_text("#main")
    assert f"The Werewolves have chosen Player {state.locked + 1}." in text
    assert page.locator("button[data-action='heal']").count() == 1
    assert page.locator("button[data-action='no_potion']").count() == 1
    assert page.locator("button[data-action^='poison']").count() == len(state.alive) - 1
    assert "Potions left: healing, poison." in page.inner_text(".role-card")
    assert "(Witch)" in page.inner_text(".role-card")
    pages.shot(page, "screen-werewolf-witch")


def test_the_sheriffs_election_offers_every_other_player_and_abstaining(pages: Pages) -> None:
    state = play("werewolf", {"players": 8, "sheriff": True}, 5, until_phase("election"))
    seat = min(state.pending)
    page = pages.new()
    show(
        page,
        "werewolf",
        view_of("werewolf", state, seat),
        seat=seat,
        legal=legal_of("werewolf", state, seat),
        hidden=False,
    )
    assert "the Sheriff's election" in page.inner_text("h1.phase-title")
    assert page.locator("button[data-action^='elect']").count() == len(state.alive) - 1
    assert page.locator("button[data-action='abstain']").count() == 1


def test_a_lover_sees_their_partner_on_the_card_and_a_poisoned_dawn_names_no_culprit(
    pages: Pages,
) -> None:
    config = {"players": 9, "cupids": 1, "witches": 1}

    def day_after_deaths(game: Any, state: Any) -> bool:
        return state.phase.value in ("discussion", "end")

    def wanted(state: Any) -> bool:
        """A day with a Lover alive, after a night that took someone."""
        return (
            state.phase.value == "discussion"
            and any(s in state.alive for s in state.lovers)
            and bool(state.night_log[-1].victims)
        )

    def choose(state: Any, seat: int | None, legal: list[Any]) -> Any:
        # Cupid links the lowest seats; the pack and the Witch's poison go for the highest.
        poisons = [a for a in legal if a.name == "poison"]
        return legal[0] if legal[0].name == "link" else (poisons or legal)[-1]

    days = (play("werewolf", config, seed, day_after_deaths, choose=choose) for seed in range(60))
    state = next(s for s in days if wanted(s))
    lover = next(s for s in state.lovers if s in state.alive)
    page = pages.new()
    show(page, "werewolf", view_of("werewolf", state, lover), seat=lover, hidden=False)
    partner = state.lovers[1 - state.lovers.index(lover)]
    assert f"You are in love with Player {partner + 1}." in page.inner_text(".role-card")
    dawn = page.inner_text(".announcements")
    assert "taken by the Werewolves" not in dawn
    assert dawn.count("did not survive the night") == len(state.night_log[-1].victims)
