"""The wire check's comparison of offers can fail: legal or host actions that depend on what the
viewer may not know are caught (the full comparison runs inside tests/security/wire.py for every
frame of every socket and every shared device, in test_wire_leaks.py)."""

from __future__ import annotations

import types
from typing import Any

from tests.security.wire import Verdict, _compare_offers
from wolfden.engine import Action, Rng, Viewer
from wolfden.games import werewolf


def a_state_and_one_the_viewer_cannot_tell_apart(seat: int, role: Any) -> tuple[Any, Any]:
    """A first night, and one that seat ``seat`` cannot tell apart where ``role`` is elsewhere."""
    state = werewolf.setup(werewolf.Config(players=7), 5)
    for k in range(200):
        other = werewolf.perturb_hidden(state, Viewer.of(seat), Rng(k))
        if other is not None and other.roles.index(role) != state.roles.index(role):
            return state, other
    raise AssertionError("no perturbation moved the hidden role")


def leaky(offer_for: Any) -> Any:
    """Werewolf, except that what ``offer_for(state, seat)`` returns is offered too."""

    def legal_actions(state: Any, seat: int | None) -> list[Action]:
        return [*werewolf.legal_actions(state, seat), *offer_for(state, seat)]

    return types.SimpleNamespace(
        legal_actions=legal_actions, actors=werewolf.actors, outcome=werewolf.outcome
    )


def test_host_actions_that_depend_on_a_hidden_role_are_caught() -> None:
    state, other = a_state_and_one_the_viewer_cannot_tell_apart(0, werewolf.Role.GUARDIAN)

    def guardian_named(s: Any, seat: int | None) -> list[Action]:
        if seat is not None:
            return []
        return [Action("note", (s.roles.index(werewolf.Role.GUARDIAN),))]

    verdict = Verdict()
    _compare_offers(leaky(guardian_named), state, other, Viewer.of(0), True, "host", verdict)
    assert any("host actions tell hidden states apart" in p for p in verdict.problems)
    honest = Verdict()
    _compare_offers(werewolf, state, other, Viewer.of(0), True, "host", honest)
    assert honest.problems == [] and honest.offers_compared == 1


def test_legal_actions_that_depend_on_a_hidden_role_are_caught() -> None:
    state, other = a_state_and_one_the_viewer_cannot_tell_apart(3, werewolf.Role.GUARDIAN)

    def guardian_hint(s: Any, seat: int | None) -> list[Action]:
        return [Action("pick", (s.roles.index(werewolf.Role.GUARDIAN),))] if seat == 3 else []

    verdict = Verdict()
    _compare_offers(leaky(guardian_hint), state, other, Viewer.of(3), False, "seat 3", verdict)
    assert 3 in werewolf.actors(state)
    assert any("legal actions tell hidden states apart" in p for p in verdict.problems)
