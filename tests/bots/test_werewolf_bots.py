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


def _rules_matches(
    players: int, seeds: range
) -> list[tuple[dict[int, str], list[tuple[Any, Action]]]]:
    config = werewolf.Config(players=players)
    out = []
    for seed in seeds:
        table_bots = {s: bots.make("werewolf", "rules", s) for s in range(players)}
        result = play_match(werewolf, config, seed, table_bots)
        out.append((dict(result.outcome.roles), list(result.record.actions)))
    return out


def test_the_pack_never_splits_its_night_target_nor_votes_for_itself() -> None:
    nights = ballots = 0
    for players in (7, 10):
        for roles, actions in _rules_matches(players, range(25)):
            pack = {s for s, role in roles.items() if role == "werewolf"}
            picks: dict[int, int] = {}
            for seat, action in [*actions, (None, Action("dawn"))]:
                if action.name == "pick":
                    picks[seat] = int(action.args[0])
                elif action.name == "dawn":
                    if picks:
                        nights += 1
                        assert len(set(picks.values())) == 1, picks
                    picks = {}
                elif action.name == "vote" and seat in pack:
                    ballots += 1
                    assert action.args[0] not in pack
    assert nights >= 50 and ballots > 0


def _ballot(state: werewolf.State, votes: Mapping[int, str]) -> werewolf.State:
    state, _ = run(state, *((s, v) for s, v in votes.items()))
    return state


def test_the_pack_goes_for_whoever_votes_for_it_and_then_decides_together() -> None:
    # Day 1: the Seer (2) votes for Werewolf 1; three townsfolk vote Villager 6 out.
    state = table([W, W, S, G, V, V, V])
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 1"), (3, "protect 5"))
    state = day(state)
    state = _ballot(
        state,
        {
            0: "abstain",
            1: "abstain",
            2: "vote 1",
            3: "vote 6",
            4: "vote 6",
            5: "vote 6",
            6: "vote 3",
        },
    )
    assert not state.is_alive(6) and state.phase is werewolf.Phase.NIGHT
    for seed in range(20):
        assert _act(state, 0, seed) == Action("pick", (2,))
    state, _ = run(state, (0, "pick 2"), (1, "pick 2"), (2, "check 0"), (3, "protect 4"))
    state = day(state)
    assert not state.is_alive(2)
    # Five alive, two of them Werewolves: the pack's votes decide, and go to the same player
    # (3, 4 and 5 are equally suspected for voting out a Villager; the lowest seat).
    for seed in range(20):
        assert _act(state, 0, seed) == _act(state, 1, seed + 1) == Action("vote", (3,))


def test_the_pack_hides_in_the_crowd_until_its_votes_decide() -> None:
    # Nine players: nothing points anywhere on day 1, so a Werewolf mostly abstains.
    state = table([W, W, S, G, V, V, V, V, V])
    state, _ = run(state, (0, "pick 8"), (1, "pick 8"), (2, "check 4"), (3, "protect 8"))
    state = day(state)
    first = [_act(state, 0, seed) for seed in range(200)]
    abstained = sum(a.name == "abstain" for a in first)
    assert 100 <= abstained <= 140
    assert all(a.args[0] not in (0, 1) for a in first if a.name == "vote")
    # Villagers 5, 6, 7 vote out Villager 8; the rest vote elsewhere: 5, 6, 7 now lead.
    state = _ballot(
        state,
        {
            0: "abstain",
            1: "abstain",
            2: "vote 3",
            3: "vote 4",
            4: "vote 3",
            5: "vote 8",
            6: "vote 8",
            7: "vote 8",
            8: "vote 2",
        },
    )
    assert not state.is_alive(8)
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 5"), (3, "protect 4"))
    state = day(state)
    for seed in range(20):
        assert _act(state, 0, seed) == _act(state, 1, seed + 1) == Action("vote", (5,))
