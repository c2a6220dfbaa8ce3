"""The compiled ISMCTS of Robbers' Horror: legal moves only, what its seat knows only, and a
search that plays better than the kernel's random and rules bots (its speed and its strength
against the reference ISMCTS are measured by `wolfden bench --kernel`, never here)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from wolfden.bots.robbers_horror import KernelIsmctsBot, Memory
from wolfden.engine.types import Action, Viewer
from wolfden.games import robbers_horror as rh
from wolfden.kernel import robbers_horror as kernel
from wolfden.kernel import robbers_horror_ismcts as ismcts
from wolfden.kernel.rng import generator
from wolfden.sim.runner import play_match

W_BITS = (1 << kernel.W1) | (1 << kernel.W2)
K_BITS = (1 << kernel.K1) | (1 << kernel.K2)


def _state(config: rh.Config, seed: int, random_plays: int) -> tuple[np.ndarray, np.ndarray]:
    """A kernel match from ``seed`` after ``random_plays`` random cards."""
    cfg = kernel.config_array(config)
    st = kernel.new_state()
    rng = generator(seed)
    kernel.start(st, cfg, rng)
    bots = generator(seed + 1)
    legal = np.empty(36, dtype=np.int64)
    for _ in range(random_plays):
        kernel.apply_card(st, cfg, rng, kernel.random_card(st, bots, legal))
    return st, cfg


def _visits(st: np.ndarray, cfg: np.ndarray, seed: int, iterations: int = 300) -> np.ndarray:
    info = np.empty(ismcts.INFO_SIZE, dtype=np.int64)
    ismcts.observe(st, cfg, int(st[kernel.TURN]), info)
    visits = np.zeros(36, dtype=np.float64)
    ismcts.search(info, cfg, iterations, generator(seed), ismcts.RANDOM, 0.7, visits)
    return visits


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("rollout", ismcts.ROLLOUTS)
def test_it_plays_only_cards_of_its_hand(players: int, rollout: str) -> None:
    """Whole matches played by the search at every seat: each card it picks is in the hand of
    the seat to play, so the kernel accepts every one."""
    config = rh.Config(players=players, deals=2)
    for seed in range(3):
        st, cfg = _state(config, seed, 0)
        rng = generator(seed)
        search_rng = generator(seed + 7)
        plays = 0
        while st[kernel.TURN] >= 0:
            seat = int(st[kernel.TURN])
            card = ismcts.choose(st, cfg, 40, search_rng, ismcts.rollout_index(rollout), 0.7)
            assert kernel.held_card(int(st[kernel.HANDS + seat]), card) >= 0, (seed, plays)
            assert kernel.apply_card(st, cfg, rng, card)
            plays += 1
        assert plays == 2 * players * int(cfg[kernel.C_HAND])


def _swap_hidden(st: np.ndarray, n: int, me: int) -> np.ndarray:
    """The same match with a card swapped between two other hands and the undealt card (when
    there is one): what ``me`` knows is unchanged, the hidden cards are not."""
    other = st.copy()
    a, b = [s for s in range(n) if s != me][:2]
    ha, hb = int(other[kernel.HANDS + a]), int(other[kernel.HANDS + b])
    ca = (ha & -ha).bit_length() - 1
    cb = (hb & -hb).bit_length() - 1
    other[kernel.HANDS + a] = (ha & ~(1 << ca)) | (1 << cb)
    other[kernel.HANDS + b] = (hb & ~(1 << cb)) | (1 << ca)
    other[kernel.ROLES + a] = kernel.role_of(int(other[kernel.HANDS + a]))
    other[kernel.ROLES + b] = kernel.role_of(int(other[kernel.HANDS + b]))
    if other[kernel.UNDEALT] >= 0:
        hc = int(other[kernel.HANDS + a])
        cc = (hc & -hc).bit_length() - 1
        other[kernel.HANDS + a] = (hc & ~(1 << cc)) | (1 << int(other[kernel.UNDEALT]))
        other[kernel.UNDEALT] = cc
    return other


@pytest.mark.parametrize("players", [3, 4, 5])
def test_it_never_reads_the_other_hands(players: int) -> None:
    """Two matches that differ only in what the seat to play cannot see (the other hands and
    the undealt card) get the same search, visit for visit, from the same seed."""
    for seed, played in ((1, 0), (2, 3), (3, players + 2), (4, 2 * players + 1)):
        st, cfg = _state(rh.Config(players=players, deals=1), seed, played)
        me = int(st[kernel.TURN])
        other = _swap_hidden(st, players, me)
        assert not np.array_equal(st[: kernel.DEALT], other[: kernel.DEALT])
        first, second = _visits(st, cfg, seed), _visits(other, cfg, seed)
        assert first.sum() > 0
        np.testing.assert_array_equal(first, second)
        assert ismcts.choose(st, cfg, 200, generator(seed), ismcts.RULES, 0.7) == ismcts.choose(
            other, cfg, 200, generator(seed), ismcts.RULES, 0.7
        )


def test_what_it_knows_changes_the_search() -> None:
    """The check above can fail: a change the seat can see (a card of its own hand swapped for
    one of another hand) changes the search."""
    st, cfg = _state(rh.Config(players=4, deals=1), 5, 2)
    me = int(st[kernel.TURN])
    other = st.copy()
    mine, theirs = int(other[kernel.HANDS + me]), int(other[kernel.HANDS + (me + 1) % 4])
    cm = (mine & -mine).bit_length() - 1
    ct = (theirs & -theirs).bit_length() - 1
    other[kernel.HANDS + me] = (mine & ~(1 << cm)) | (1 << ct)
    other[kernel.HANDS + (me + 1) % 4] = (theirs & ~(1 << ct)) | (1 << cm)
    assert not np.array_equal(_visits(st, cfg, 5), _visits(other, cfg, 5))


def _fold(mask: int) -> tuple[int, int, int]:
    """A mask with the two Werewolves and the two Knives counted, not named (a view calls both
    copies by one name)."""
    return (
        mask & ~W_BITS & ~K_BITS,
        bin(mask & W_BITS).count("1"),
        bin(mask & K_BITS).count("1"),
    )


def _folded(info: np.ndarray) -> list[Any]:
    masks = {ismcts.I_HAND, ismcts.I_TRICK}
    masks |= {ismcts.I_SEEN_PLAYED + s for s in range(5)}
    masks |= {ismcts.I_SEEN_PILE + s for s in range(5)}
    out: list[Any] = []
    for i, x in enumerate(info):
        if ismcts.I_TRICK <= i < ismcts.I_TRICK + 5:
            out.append(int(x) - 1 if int(x) in (kernel.W2, kernel.K2) else int(x))
        else:
            out.append(_fold(int(x)) if i in masks else int(x))
    return out


@pytest.mark.parametrize(
    "config",
    [
        rh.Config(players=4, deals=2),
        rh.Config(players=5, deals=1, show_last_trick=False),
        rh.Config(players=3, deals=1, show_history=True),
    ],
)
def test_the_bot_knows_from_its_view_what_the_kernel_seat_knows(config: rh.Config) -> None:
    """The bot builds the search's information from its view and memory; it is the information
    the kernel reads off its own state for that seat, at every turn of a match."""
    seed = 11
    state = rh.setup(config, seed)
    cfg = kernel.config_array(config)
    st = kernel.new_state()
    rng = generator(seed)
    kernel.start(st, cfg, rng)
    memories = [Memory() for _ in range(config.players)]
    bots = generator(3)
    legal = np.empty(36, dtype=np.int64)
    info = np.empty(ismcts.INFO_SIZE, dtype=np.int64)
    while st[kernel.TURN] >= 0:
        seat = int(st[kernel.TURN])
        assert state.turn == seat
        view = rh.view(state, Viewer.of(seat))
        memories[seat].update(view)
        tricks = [
            (leader, [c.notation for c in cards], winner)
            for _, (leader, cards, winner) in sorted(memories[seat].tricks.items())
        ]
        ismcts.observe(st, cfg, seat, info)
        assert _folded(ismcts.information_from_view(view, tricks)) == _folded(info)
        card = kernel.random_card(st, bots, legal)
        state, _ = rh.apply(state, seat, Action("play", (ismcts.notation(card),)))
        kernel.apply_card(st, cfg, rng, card)


def test_the_bot_plays_whole_matches_through_the_runner() -> None:
    config = rh.Config(players=4, deals=1)
    seats = {s: KernelIsmctsBot(s, iterations=50, rollout="rules") for s in range(4)}
    result = play_match(rh, config, 3, seats)
    assert result.outcome is not None
    assert len(result.record.actions) == 36


def test_a_bad_rollout_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown rollout 'greedy'; choose random, rules"):
        KernelIsmctsBot(0, rollout="greedy")


def _share(opponent: int, pairs: int, iterations: int, rollout: str) -> float:
    """The search's share of the game points against ``opponent`` at alternating seats, each
    seed played twice with the seats swapped."""
    seeds = np.repeat(np.arange(pairs, dtype=np.uint64), 2)
    kinds = np.array(
        [
            [ismcts.SEARCH if (s + g) % 2 == 0 else opponent for s in range(4)]
            for g in range(2 * pairs)
        ]
    )
    points = ismcts.match_points(
        rh.Config(players=4, deals=1), seeds, kinds, iterations=iterations, rollout=rollout
    )
    return float((points * (kinds == ismcts.SEARCH)).sum() / points.sum())


def test_it_beats_the_random_bot() -> None:
    assert _share(kernel.RANDOM, 60, 200, "random") > 0.55


def test_it_beats_the_rules_bot() -> None:
    assert _share(kernel.RULES, 100, 1000, "random") > 0.52
