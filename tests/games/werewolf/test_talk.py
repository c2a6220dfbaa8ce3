"""Structured talk (the ``talk`` option): public claims during the discussion, no rule effect."""

from __future__ import annotations

import json

import pytest

from wolfden.engine.errors import IllegalAction, NotYourTurn
from wolfden.engine.types import Action, Viewer, ViewerKind
from wolfden.games import werewolf
from wolfden.games.werewolf import Phase

from .conftest import G, S, V, W, act, run, table, texts


@pytest.fixture
def talking() -> werewolf.State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4,5,6 Villagers; after a quiet night."""
    state = table([W, W, S, G, V, V, V], talk=True)
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 4"))
    state, _ = act(state, None, "dawn")
    assert state.phase is Phase.DISCUSSION
    return state


def test_without_the_option_nobody_acts_in_the_discussion() -> None:
    state = table([W, W, S, G, V, V, V])
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 4"))
    state, _ = act(state, None, "dawn")
    assert werewolf.actors(state) == frozenset()
    assert werewolf.legal_actions(state, 2) == []
    assert "claims" not in werewolf.view(state, Viewer.of(2))


def test_every_living_player_may_claim_during_the_discussion(talking: werewolf.State) -> None:
    assert werewolf.actors(talking) == frozenset(range(7))
    legal = werewolf.legal_actions(talking, 2)
    assert Action("claim_role", ("seer",)) in legal
    assert Action("claim_check", (0, "werewolf")) in legal
    assert Action("claim_check", (0, "clear")) in legal
    assert Action("suspect", (5,)) in legal and Action("trust", (5,)) in legal
    assert Action("claim_protect", (2,)) in legal  # "I protected myself"
    assert Action("suspect", (2,)) not in legal  # not about oneself
    assert legal[-1] == Action("quiet")


def test_a_claim_is_public_narrated_and_changes_nothing(talking: werewolf.State) -> None:
    state, events = act(talking, 2, "claim_check 0 werewolf")
    assert texts(events) == ["Player 3: “I checked Player 1: a Werewolf.”"]
    assert state.alive == talking.alive and state.phase is Phase.DISCUSSION
    claim = {"round": 1, "seat": 2, "claim": "claim_check", "target": 0, "werewolf": True}
    for viewer in (Viewer.of(5), Viewer.of(0), Viewer(ViewerKind.SPECTATOR)):
        assert werewolf.view(state, viewer)["claims"] == [claim]
    # Anyone may lie: a Werewolf claims to be the Seer.
    state, events = act(state, 0, "claim_role seer")
    assert texts(events) == ["Player 1: “I am the Seer.”"]
    state, _ = act(state, None, "end_discussion")
    assert state.phase is Phase.VOTE
    assert len(werewolf.view(state, Viewer.of(4))["claims"]) == 2


def test_three_claims_a_day_then_the_player_is_done(talking: werewolf.State) -> None:
    state, _ = run(talking, (4, "suspect 0"), (4, "trust 2"))
    assert werewolf.view(state, Viewer.of(4))["you"]["claims_left"] == 1
    assert Action("suspect", (0,)) not in werewolf.legal_actions(state, 4)  # said already
    state, _ = act(state, 4, "suspect 1")
    assert 4 not in werewolf.actors(state)
    with pytest.raises(NotYourTurn, match="said your piece"):
        act(state, 4, "suspect 5")


def test_quiet_ends_a_players_claims_for_the_day(talking: werewolf.State) -> None:
    state, events = act(talking, 6, "quiet")
    assert 6 not in werewolf.actors(state)
    assert texts(events) == []  # a private receipt only
    assert state.claims == ()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("suspect 2", "not a claim you can make now"),  # about oneself
        ("claim_check 9 clear", "not a claim you can make now"),
        ("claim_check 0 maybe", "not a claim you can make now"),
        ("claim_role mayor", "not a claim you can make now"),
        ("vote 0", "not a claim you can make now"),
    ],
)
def test_a_claim_that_is_not_offered_gets_a_clear_error(
    talking: werewolf.State, text: str, why: str
) -> None:
    with pytest.raises(IllegalAction, match=why):
        act(talking, 2, text)


def test_claims_start_again_the_next_day(talking: werewolf.State) -> None:
    state, _ = run(talking, (4, "quiet"), (None, "end_discussion"))
    for voter in sorted(state.alive):
        state, _ = act(state, voter, "abstain")
    assert state.phase is Phase.NIGHT
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 1"), (3, "protect 6"))
    state, _ = act(state, None, "dawn")
    assert 4 in werewolf.actors(state) and 5 not in werewolf.actors(state)
    assert werewolf.view(state, Viewer.of(4))["you"]["claims_left"] == 3


def test_a_match_with_talk_replays_from_its_record() -> None:
    from wolfden.bots import RandomBot
    from wolfden.engine.record import MatchRecord, final_state
    from wolfden.sim.runner import play_match

    config = werewolf.Config(players=8, talk=True)
    result = play_match(werewolf, config, 5, {seat: RandomBot(seat) for seat in range(8)})
    said = [a for _, a in result.record.actions if a.name in ("claim_role", "suspect", "trust")]
    assert said  # the random bot talks when talking is legal
    record = MatchRecord.from_json(json.loads(result.record.dumps()))
    assert final_state(werewolf, record) == result.state
