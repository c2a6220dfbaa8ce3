"""The belief bot: a probability over role assignments, and what it does with it."""

from __future__ import annotations

import pytest

from wolfden import bots
from wolfden.bots.werewolf import Belief, hypotheses
from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Viewer
from wolfden.games import werewolf
from wolfden.sim.runner import play_match

from ..games.werewolf.conftest import G, S, V, W, act, day, run, table

ROLES = [W, W, S, G, V, V, V]
"""Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4,5,6 Villagers."""


def _act(state: werewolf.State, seat: int, seed: int = 0, bot=None) -> Action:
    bot = bot or bots.make("werewolf", "belief", seat)
    view = werewolf.view(state, Viewer.of(seat))
    return bot.act(view, werewolf.legal_actions(state, seat), Rng(seed))  # type: ignore[no-any-return]


def _posterior(state: werewolf.State, seat: int):
    view = werewolf.view(state, Viewer.of(seat))
    belief = Belief(7, 2, 1)
    belief.update(view)
    return belief.posterior(view)


def test_every_deal_is_a_hypothesis_once() -> None:
    wolf, seer = hypotheses(7, 2, 1)
    assert len(wolf) == 21 * 5  # two Werewolves among 7, then a Seer among the other 5
    assert (wolf.sum(axis=1) == 2).all() and (seer.sum(axis=1) == 1).all()
    assert not (wolf & seer).any()


def test_before_any_evidence_a_villager_sees_every_other_seat_alike() -> None:
    p_wolf, p_seer = _posterior(table(ROLES), 4)
    assert p_wolf[4] == 0 and p_seer[4] == 0
    # Two Werewolves among the six others, one Seer among them: 1/3 and 1/6 each.
    assert p_wolf[[0, 1, 2, 3, 5, 6]] == pytest.approx([1 / 3] * 6)
    assert p_seer[[0, 1, 2, 3, 5, 6]] == pytest.approx([1 / 6] * 6)


def test_a_werewolf_knows_the_pack_and_the_seer_knows_its_answers() -> None:
    state = table(ROLES)
    p_wolf, _ = _posterior(state, 0)
    assert list(p_wolf) == pytest.approx([1, 1, 0, 0, 0, 0, 0])
    state, _ = run(state, (2, "check 1"))
    p_wolf, _ = _posterior(state, 2)
    assert p_wolf[1] == pytest.approx(1.0)
    # The other Werewolf is one of the five seats left: 1/5 each.
    assert p_wolf[[0, 3, 4, 5, 6]] == pytest.approx([1 / 5] * 5)


def _talking_day() -> werewolf.State:
    state = table(ROLES, talk=True)
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 1"), (3, "protect 4"))
    state, _ = act(state, None, "dawn")
    return state


def test_a_seer_who_found_a_werewolf_claims_and_names_it() -> None:
    state = _talking_day()
    seer = bots.make("werewolf", "belief", 2)
    said = []
    for _ in range(3):
        action = _act(state, 2, bot=seer)
        said.append(action)
        state, _ = werewolf.apply(state, 2, action)
    assert said[:2] == [Action("claim_role", ("seer",)), Action("claim_check", (1, "werewolf"))]


def test_a_seer_who_found_no_werewolf_keeps_quiet() -> None:
    state = table(ROLES, talk=True)
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 5"), (3, "protect 4"))
    state, _ = act(state, None, "dawn")
    assert _act(state, 2) == Action("quiet")


def test_the_village_believes_a_claim_votes_with_it_and_the_guardian_shields_it() -> None:
    state = _talking_day()
    state, _ = run(state, (2, "claim_role seer"), (2, "claim_check 1 werewolf"))
    p_wolf, p_seer = _posterior(state, 5)
    assert max(range(7), key=lambda s: p_wolf[s]) == 1
    assert max(range(7), key=lambda s: p_seer[s]) == 2
    state, _ = act(state, None, "end_discussion")
    for seed in range(10):
        assert _act(state, 5, seed) == Action("vote", (1,))
    # That night the Guardian protects the claimed Seer, and the pack goes for them.
    for voter in sorted(state.alive):
        state, _ = werewolf.apply(state, voter, Action("abstain"))
    assert state.phase is werewolf.Phase.NIGHT
    assert _act(state, 3) == Action("protect", (2,))
    assert _act(state, 0) == Action("pick", (2,))


def test_a_werewolf_counter_claims_against_a_seer_who_named_the_pack() -> None:
    state = _talking_day()
    state, _ = run(state, (2, "claim_role seer"), (2, "claim_check 1 werewolf"))
    assert _act(state, 0) == Action("claim_role", ("seer",))  # the first living Werewolf
    assert _act(state, 1) == Action("quiet")


def test_votes_for_a_revealed_werewolf_point_at_the_seer() -> None:
    # Public ballots: a player who voted for a Werewolf (revealed when voted out) is more
    # likely the Seer, and the pack, which knows itself, learns it.
    state = day(table(ROLES))
    votes = {0: 5, 1: 5, 2: 1, 3: 1, 4: 1, 5: 1, 6: 4}
    state, _ = run(state, *[(voter, f"vote {t}") for voter, t in votes.items()])
    assert not state.is_alive(1)
    _, p_seer = _posterior(state, 0)
    assert p_seer[2] > p_seer[6]


def test_belief_bots_receive_and_finish_whole_matches() -> None:
    for players, seed in ((7, 3), (10, 4), (12, 5)):
        config = werewolf.Config(players=players, talk=True)
        seats = {s: bots.make("werewolf", "belief", s) for s in range(players)}
        result = play_match(werewolf, config, seed, seats)
        assert result.outcome.winning_team in ("town", "werewolves")
