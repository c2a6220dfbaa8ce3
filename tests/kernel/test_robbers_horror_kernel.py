"""The Robbers' Horror kernel is held to the reference rules.

Matches are played by the reference engine through the match runner with random, rules, mixed
and by-team bots, in every config family and a few more configs, and recorded (seed and
actions). Then:

- the kernel plays the same seeds with the same bots and ends every match the same way (the
  whole Outcome: winners, teams, roles, every deal's totals and winner);
- each recorded match, and every match of the game's recorded fixtures (which include ISMCTS
  moves), is replayed card by card through the kernel and the reference, and before and after
  every card they agree on everything the kernel keeps: hands, piles, the hands as dealt, the
  cards each seat has played, roles, chips, the trick, leader, turn, dealer, the undealt card,
  the deal generator's state, the legal cards and every scored deal;
- a kernel with one rule deliberately changed fails that replay.

``WOLFDEN_KERNEL_MATCHES`` sets the recorded matches per config and bots (default 16, i.e.
576 matches; 280 gives 10,080).
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from tests.kernel.mutants import compile_mutant, mutant_folder  # noqa: E402
from wolfden import bots as bot_registry  # noqa: E402
from wolfden.engine.config import config_from_json  # noqa: E402
from wolfden.engine.record import MatchRecord  # noqa: E402
from wolfden.engine.rng import derive_seed  # noqa: E402
from wolfden.engine.types import Action, Outcome  # noqa: E402
from wolfden.games import robbers_horror as rh  # noqa: E402
from wolfden.games.robbers_horror.components import NOTATIONS  # noqa: E402
from wolfden.kernel import load  # noqa: E402
from wolfden.kernel import robbers_horror as kernel  # noqa: E402
from wolfden.kernel.rng import generator  # noqa: E402
from wolfden.sim.runner import play_match  # noqa: E402
from wolfden.sim.seating import BotPlan, seat_players  # noqa: E402

MATCHES = int(os.environ.get("WOLFDEN_KERNEL_MATCHES", "16"))
FIXTURES = Path(__file__).parents[1] / "games" / "robbers_horror" / "fixtures"

CONFIGS = [
    *rh.sample_configs(),
    *(config for _, config in rh.bench_configs()),
    # The rules bot remembers nothing when no completed trick is shown.
    rh.Config(players=3, deals=2, show_last_trick=False),
    rh.Config(players=5, deals=3, first_dealer=4, show_last_trick=False),
    # Other icons: a different score, and ties.
    rh.Config(players=4, deals=2, first_dealer=1, icons=tuple(r % 10 for r in range(15))),
]
PLANS = [
    BotPlan(),
    BotPlan(default="rules"),
    BotPlan(teams=(("werewolves", "rules"),)),
    BotPlan(seats=((0, "rules"), (2, "rules"))),
]

CARD_NAMES = (*NOTATIONS[:30], "W", "W", "S", "K", "K", "T")
"""Each kernel card id's notation (the two Werewolves and the two Knives are one card)."""


@dataclass(frozen=True)
class Recorded:
    config: rh.Config
    plan: BotPlan | None
    seed: int
    actions: tuple[tuple[int | None, Action], ...]
    outcome: Outcome | None


def record(config: rh.Config, plan: BotPlan, seeds: list[int]) -> list[Recorded]:
    """Reference matches played by the match runner, with their actions."""
    kinds = bot_registry.kinds(rh.id)
    out = []
    for seed in seeds:
        players = seat_players(plan, lambda kind, seat: kinds[kind](seat), config.players)
        result = play_match(rh, config, seed, players)
        out.append(Recorded(config, plan, seed, tuple(result.record.actions), result.outcome))
    return out


@pytest.fixture(scope="module")
def recorded() -> dict[tuple[int, int], list[Recorded]]:
    """MATCHES reference matches for every config and bots, keyed by their indices."""
    return {
        (c, p): record(config, plan, [derive_seed(0x2828, c, p, i) for i in range(MATCHES)])
        for c, config in enumerate(CONFIGS)
        for p, plan in enumerate(PLANS)
    }


def fixture_matches() -> list[Recorded]:
    """The game's recorded fixtures (random, rules and ISMCTS bots, every config family)."""
    out = []
    for path in sorted(FIXTURES.glob("*.json.gz")):
        for match in json.loads(gzip.decompress(path.read_bytes()))["matches"]:
            rec = MatchRecord.from_json(match["record"])
            config = config_from_json(rh.Config, rec.config)
            out.append(Recorded(config, None, rec.seed, tuple(rec.actions), None))
    return out


# -- the same matches from the same seeds ---------------------------------------------------------


@pytest.mark.parametrize("c", range(len(CONFIGS)))
def test_same_seeds_end_the_same_way(
    recorded: dict[tuple[int, int], list[Recorded]], c: int
) -> None:
    """The kernel's random and rules policies draw what the reference bots draw, so the same
    seed is the same match: every outcome is the reference's, figure for figure."""
    for p, plan in enumerate(PLANS):
        matches = recorded[c, p]
        batch = kernel.play(CONFIGS[c], [m.seed for m in matches], plan)
        assert len(batch) == len(matches)
        for match, got in zip(matches, kernel.outcomes(batch)):
            assert got == match.outcome, (plan, match.seed)


# -- card by card ---------------------------------------------------------------------------------


def _names(cards: Any) -> list[str]:
    return sorted(str(card) for card in cards)


def _mask_names(mask: int) -> list[str]:
    return sorted(CARD_NAMES[c] for c in range(36) if int(mask) >> c & 1)


def reference_state(state: rh.State) -> dict[str, Any]:
    """What the kernel keeps, read from the reference's state by name."""
    n = state.players
    played: list[list[str]] = [[] for _ in range(n)]
    for trick in state.tricks:
        for i, card in enumerate(trick.cards):
            played[(trick.leader + i) % n].append(str(card))
    for i, card in enumerate(state.trick):
        played[(state.leader + i) % n].append(str(card))
    over = state.turn is None
    return {
        "hands": [_names(hand) for hand in state.hands],
        "piles": [_names(pile) for pile in state.piles],
        "dealt": [_names(hand) for hand in state.dealt],
        "played": [sorted(cards) for cards in played],
        "roles": [role.value for role in state.roles],
        "points": list(state.points),
        "trick": [str(card) for card in state.trick],
        "leader": state.leader,
        "turn": state.turn,
        "werewolf chips": sorted(set(state.chips.werewolf)),
        "traitor chip": state.chips.traitor,
        "tricks": len(state.tricks),
        "deal": None if over else state.deal,
        "scored": len(state.results),
        "dealer": state.dealer,
        "undealt": None if state.undealt is None else str(state.undealt),
        "deck generator": state.rng,
        "legal": [[str(a.args[0]) for a in rh.legal_actions(state, seat)] for seat in range(n)],
        "results": [
            (
                None if r.winner is None else r.winner.value,
                r.robber_total,
                r.werewolf_total,
                [s.role.value for s in r.seats],
            )
            for r in state.results
        ],
    }


def kernel_state(module: ModuleType, st: Any, rng: Any, n: int) -> dict[str, Any]:
    """The same, read from the kernel's arrays."""
    turn = int(st[module.TURN])
    legal = np.empty(36, dtype=np.int64)
    legal_cards: list[list[str]] = []
    for seat in range(n):
        if seat == turn:
            k = module.legal_cards(int(st[module.HANDS + seat]), legal)
            legal_cards.append([CARD_NAMES[c] for c in legal[:k]])
        else:
            legal_cards.append([])
    scored = int(st[module.DEAL_NO])
    winner_names = {-1: None, 0: "robbers", 1: "werewolves"}
    undealt = int(st[module.UNDEALT])
    return {
        "hands": [_mask_names(st[module.HANDS + s]) for s in range(n)],
        "piles": [_mask_names(st[module.PILES + s]) for s in range(n)],
        "dealt": [_mask_names(st[module.DEALT + s]) for s in range(n)],
        "played": [_mask_names(st[module.PLAYED + s]) for s in range(n)],
        "roles": [module.ROLE_NAMES[int(st[module.ROLES + s])] for s in range(n)],
        "points": [int(st[module.POINTS + s]) for s in range(n)],
        "trick": [
            CARD_NAMES[int(c)] for c in st[module.TRICK : module.TRICK + st[module.TRICK_LEN]]
        ],
        "leader": int(st[module.LEADER]),
        "turn": None if turn < 0 else turn,
        "werewolf chips": [s for s in range(n) if int(st[module.WEREWOLF_CHIPS]) >> s & 1],
        "traitor chip": None if st[module.TRAITOR_CHIP] < 0 else int(st[module.TRAITOR_CHIP]),
        "tricks": int(st[module.TRICK_NO]),
        "deal": None if turn < 0 else scored,
        "scored": scored,
        "dealer": int(st[module.DEALER]),
        "undealt": None if undealt < 0 else CARD_NAMES[undealt],
        "deck generator": int(rng[0]),
        "legal": legal_cards,
        "results": [
            (
                winner_names[int(st[module.DEAL_WINNER + d])],
                int(st[module.ROBBER_TOTAL + d]),
                int(st[module.WEREWOLF_TOTAL + d]),
                [module.ROLE_NAMES[int(st[module.DEAL_ROLES + 5 * d + s])] for s in range(n)],
            )
            for d in range(scored)
        ],
    }


def _card_id(notation: str) -> int:
    """The kernel id of a card's notation (the first copy of a Werewolf or a Knife)."""
    return CARD_NAMES.index(notation)


def replay(module: ModuleType, match: Recorded) -> Iterator[str]:
    """Replay a recorded match through the reference and a kernel module; yields a
    description of the first step where they disagree."""
    config = match.config
    n = config.players
    state = rh.setup(config, match.seed)
    cfg = module.config_array(config)
    st = module.new_state()
    rng = generator(match.seed)
    module.start(st, cfg, rng)
    for step, (seat, action) in enumerate(match.actions):
        want, got = reference_state(state), kernel_state(module, st, rng, n)
        if want != got:
            diff = {k: (want[k], got[k]) for k in want if want[k] != got[k]}
            yield f"seed {match.seed} {config} before step {step} ({seat}: {action}): {diff}"
            return
        state, _ = rh.apply(state, seat, action)
        if not module.apply_card(st, cfg, rng, _card_id(str(action.args[0]))):
            yield f"seed {match.seed} step {step}: the kernel refused {action}"
            return
    want, got = reference_state(state), kernel_state(module, st, rng, n)
    if want != got:
        diff = {k: (want[k], got[k]) for k in want if want[k] != got[k]}
        yield f"seed {match.seed} {config} at the end: {diff}"


@pytest.mark.parametrize("c", range(len(CONFIGS)))
def test_replayed_matches_agree_at_every_step(
    recorded: dict[tuple[int, int], list[Recorded]], c: int
) -> None:
    for p in range(len(PLANS)):
        for match in recorded[c, p]:
            problems = list(replay(kernel, match))
            assert not problems, problems[0]


def test_the_recorded_fixtures_replay_through_the_kernel() -> None:
    matches = fixture_matches()
    assert len(matches) >= 70
    for match in matches:
        problems = list(replay(kernel, match))
        assert not problems, problems[0]


def test_the_kernel_refuses_a_card_not_in_hand() -> None:
    config = rh.Config(players=4, deals=1)
    state = rh.setup(config, 5)
    cfg = kernel.config_array(config)
    st = kernel.new_state()
    rng = generator(5)
    kernel.start(st, cfg, rng)
    seat = state.turn
    assert seat is not None
    missing = next(c for c in NOTATIONS if c not in _names(state.hands[seat]))
    before = st.copy()
    assert not kernel.apply_card(st, cfg, rng, _card_id(missing))
    assert (st == before).all()


# -- a wrong rule is caught -----------------------------------------------------------------------

MUTANTS = {
    # The Seer would stay 16 of trumps even with a Werewolf in the trick.
    "seer-ignores-werewolf": (
        "            v = 0 if werewolf else TRUMP + 16\n",
        "            v = TRUMP + 16\n",
    ),
    # Of two equal cards the first played would win.
    "first-equal-card-wins": ("        if v >= top:\n", "        if v > top:\n"),
    # A Knife taken would not halve a Werewolf's score.
    "knife-does-not-halve": (
        "            halved = (pile & KNIFE_MASK) != 0\n",
        "            halved = False\n",
    ),
    # The Traitor's holder would be a Robber.
    "no-traitor": (
        "    if hand & (1 << TRAITOR):\n        return TRAITOR_ROLE\n",
        "",
    ),
    # The deal would not pass to the left.
    "dealer-stays": (
        "        st[DEALER] = (st[DEALER] + 1) % n\n",
        "        st[DEALER] = st[DEALER]\n",
    ),
}


def mutant(name: str, folder: Path) -> ModuleType:
    """The kernel's source with one rule changed, compiled as its own module."""
    old, new = MUTANTS[name]
    return compile_mutant(
        kernel, old, new, f"robbers_horror_mutant_{name.replace('-', '_')}", folder
    )


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_a_wrong_rule_is_caught(
    recorded: dict[tuple[int, int], list[Recorded]],
    name: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> None:
    module = mutant(name, mutant_folder(request, tmp_path, "robbers-horror-kernel-mutants"))
    caught = next(
        (
            problem
            for matches in recorded.values()
            for match in matches
            for problem in replay(module, match)
        ),
        None,
    )
    assert caught, f"the differential replay did not notice the mutant {name}"


# -- the module's contract ------------------------------------------------------------------------


def test_it_is_the_kernel_of_robbers_horror() -> None:
    assert load(rh.id) is kernel
    assert rh.id == kernel.GAME
    assert set(kernel.POLICIES) <= set(bot_registry.kinds(rh.id))
    assert rh.team_names(rh.Config()) == kernel.TEAM_NAMES
    for config in CONFIGS:
        assert kernel.unsupported(config) is None
    with pytest.raises(ValueError, match="no 'ismcts' policy"):
        kernel.play(rh.Config(), [1], BotPlan(default="ismcts"))


def test_a_batch_names_what_it_counts() -> None:
    config = rh.Config(players=5, deals=3)
    batch = kernel.play(config, np.arange(40, dtype=np.int64), BotPlan())
    assert len(batch) == 40 and batch.seeds.tolist() == list(range(40))
    assert batch.winners.shape == batch.teams.shape == batch.roles.shape == (40, 5)
    points = batch.stats["points"]
    wins = (batch.stats["deal_winners"] >= 0).astype(int)
    # Every deal a team wins gives each member a point; a match's winners have the most.
    assert (points.sum(axis=1) >= wins.sum(axis=1)).all()
    assert (batch.winners == (points == points.max(axis=1, keepdims=True))).all()
    assert (batch.winning_team == -1).all()  # several deals: winning seats, not a team
    assert (batch.rounds == 3).all() and (batch.steps == 3 * 5 * 7).all()
