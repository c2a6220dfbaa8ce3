"""The Werewolf bots play by their role, from their view alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wolfden import bots
from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Viewer
from wolfden.games import werewolf
from wolfden.sim.runner import play_match

from ..games.werewolf.conftest import G, S, V, W, day, run, table


def _act(state: werewolf.State, seat: int, seed: int = 0) -> Action:
    bot = bots.make("werewolf", "rules", seat)
    view = werewolf.view(state, Viewer.of(seat))
    return bot.act(view, werewolf.legal_actions(state, seat), Rng(seed))  # type: ignore[no-any-return]


def test_werewolves_never_target_or_vote_for_each_other() -> None:
    for seed in range(40):
        state = table([W, W, S, G, V, V, V])
        pick = _act(state, 0, seed)
        assert pick.name == "pick" and pick.args[0] not in (0, 1)
        state = day(state)
        vote = _act(state, 1, seed)
        assert vote.name == "abstain" or vote.args[0] not in (0, 1)


def test_the_pack_follows_the_first_pick_and_agrees_at_once() -> None:
    state = table([W, W, S, G, V, V, V])
    state, _ = run(state, (0, "pick 5"))
    assert _act(state, 1) == Action("pick", (5,))


def test_the_seer_votes_for_a_werewolf_it_found_and_never_for_one_it_cleared() -> None:
    state = table([W, W, S, G, V, V, V])
    state, _ = run(state, (2, "check 1"))
    state = day(state)
    for seed in range(20):
        assert _act(state, 2, seed) == Action("vote", (1,))
    state = table([W, W, S, G, V, V, V])
    state, _ = run(state, (2, "check 4"))
    state = day(state)
    for seed in range(20):
        assert _act(state, 2, seed) != Action("vote", (4,))


def test_the_seer_looks_into_players_it_knows_nothing_about() -> None:
    state = table([W, W, S, G, V, V, V])
    state, _ = run(state, (2, "check 4"), (3, "protect 0"))
    state = day(state)
    state, _ = run(state, *[(s, "abstain") for s in state.living()])
    for seed in range(20):
        assert _act(state, 2, seed) != Action("check", (4,))


def test_the_guardian_varies_its_protection() -> None:
    state = table([W, W, S, G, V, V, V])
    choices = {_act(state, 3, seed) for seed in range(30)}
    assert len(choices) >= 4


class _Spy:
    """Records what a bot is handed, to show it is only ever a view and legal actions."""

    needs_view = True

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: list[Mapping[str, Any]] = []

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        assert isinstance(view, dict) and all(isinstance(a, Action) for a in legal)
        self.seen.append(view)
        return self.inner.act(view, legal, rng)  # type: ignore[no-any-return]


def test_bots_receive_only_their_own_view() -> None:
    config = werewolf.Config(players=8)
    spies = {s: _Spy(bots.make("werewolf", "rules", s)) for s in range(8)}
    result = play_match(werewolf, config, 11, spies)
    for seat, spy in spies.items():
        for view in spy.seen:
            assert view["you"]["seat"] == seat
    assert result.outcome.winning_team in ("town", "werewolves", None)


def test_rules_bots_make_the_town_win_more_often_than_random_bots() -> None:
    config = werewolf.Config(players=9)
    town = {"random": 0, "rules": 0}
    for kind in town:
        for seed in range(150):
            players = {s: bots.make("werewolf", kind, s) for s in range(9)}
            result = play_match(werewolf, config, seed, players)
            town[kind] += result.outcome.winning_team == "town"
    assert town["rules"] > town["random"]
