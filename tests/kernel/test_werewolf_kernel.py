"""The Werewolf kernel is held to the reference rules through the game contract.

Matches are played by the reference engine through the match runner with random, rules and
mixed bots, in every config family, and recorded (seed and actions). Then:

- the kernel plays the same seeds with the same bots and ends every match the same way
  (the whole Outcome, and the number of steps);
- each recorded match is replayed step by step through the kernel and the reference, and at
  every step they agree on what the kernel keeps, read from the reference only through its
  contract (``actors``, ``legal_actions``, ``deadline``, ``view``, ``outcome``);
- a kernel with one rule deliberately changed fails that replay.

``WOLFDEN_KERNEL_MATCHES`` sets the recorded matches per config and bots (default 40, i.e.
1,440 matches; 280 gives 10,080).
"""

from __future__ import annotations

import inspect
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
from wolfden.engine.rng import derive_seed  # noqa: E402
from wolfden.engine.types import OMNISCIENT, Action, Outcome, Viewer  # noqa: E402
from wolfden.games import werewolf as ww  # noqa: E402
from wolfden.games.werewolf.config import Config  # noqa: E402
from wolfden.kernel import load  # noqa: E402
from wolfden.kernel import werewolf as kernel  # noqa: E402
from wolfden.sim.runner import play_match  # noqa: E402
from wolfden.sim.seating import BotPlan, seat_players  # noqa: E402

MATCHES = int(os.environ.get("WOLFDEN_KERNEL_MATCHES", "40"))

CONFIGS = [
    *(config for config in ww.sample_configs() if not config.talk and not config.beyond_seed),
    # Short timers: the clock closes nights and ballots before everyone has acted.
    Config(players=12, night_seconds=10, min_night_seconds=0, vote_seconds=5),
]
PLANS = [
    BotPlan(),
    BotPlan(default="rules"),
    BotPlan(teams=(("werewolves", "rules"),)),
]


@dataclass(frozen=True)
class Recorded:
    config: Config
    plan: BotPlan
    seed: int
    actions: tuple[tuple[int | None, Action], ...]
    outcome: Outcome
    steps: int


def record(config: Config, plan: BotPlan, seeds: list[int]) -> list[Recorded]:
    """Reference matches played by the match runner, with their actions."""
    kinds = bot_registry.kinds("werewolf")
    out = []
    for seed in seeds:
        players = seat_players(plan, lambda kind, seat: kinds[kind](seat), config.players)
        result = play_match(ww, config, seed, players)
        actions = tuple(result.record.actions)
        out.append(Recorded(config, plan, seed, actions, result.outcome, result.steps))
    return out


@pytest.fixture(scope="module")
def recorded() -> dict[tuple[int, int], list[Recorded]]:
    """MATCHES reference matches for every config and bots, keyed by their indices."""
    return {
        (c, p): record(config, plan, [derive_seed(0x2828, c, p, i) for i in range(MATCHES)])
        for c, config in enumerate(CONFIGS)
        for p, plan in enumerate(PLANS)
    }


# -- the same matches from the same seeds -------------------------------------------------------


@pytest.mark.parametrize("c", range(len(CONFIGS)))
def test_same_seeds_end_the_same_way(
    recorded: dict[tuple[int, int], list[Recorded]], c: int
) -> None:
    for p, plan in enumerate(PLANS):
        matches = recorded[c, p]
        batch = kernel.play(CONFIGS[c], [m.seed for m in matches], plan)
        assert len(batch) == len(matches)
        for i, match in enumerate(matches):
            assert kernel.outcome(batch, i) == match.outcome, (plan, match.seed)
            assert batch.steps[i] == match.steps, (plan, match.seed)


# -- step by step -------------------------------------------------------------------------------


def _named(actions: list[Action]) -> list[tuple[str, tuple[Any, ...]]]:
    return [(a.name, a.args) for a in actions]


def reference_state(state: Any, config: Config) -> dict[str, Any]:
    """What the kernel keeps, as the reference's contract shows it."""
    n = config.players
    everything = ww.view(state, OMNISCIENT)
    dl = ww.deadline(state)
    seats = everything["seats"]
    out: dict[str, Any] = {
        "phase": everything["phase"],
        "round": everything["round"],
        "alive": [s["seat"] for s in seats if s["alive"]],
        "roles": [s["role"] for s in seats],
        "cards": [s["card"] for s in seats],
        "actors": sorted(ww.actors(state)),
        "legal": {seat: _named(ww.legal_actions(state, seat)) for seat in (None, *range(n))},
        "deadline": None if dl is None else (dl.seconds, dl.action.name, dl.action.args),
        "tonight": everything.get("tonight"),
        "ballot": everything.get("ballot", {}).get("candidates"),
        "votes": everything.get("ballot", {}).get("votes"),
        "tallies": everything["tallies"],
        "night_result": everything["night_result"],
        "winner": everything.get("winner"),
    }
    unmet = out["unmet"] = []
    for seat, role in enumerate(out["roles"]):
        you = ww.view(state, Viewer.of(seat))["you"]
        if "deal_note" in you:
            unmet.append(seat)
        if role == "seer":
            out[f"answers {seat}"] = {c["target"]: c["werewolf"] for c in you["checks"]}
        elif role == "guardian":
            out[f"barred {seat}"] = you["cannot_protect"]
        elif role == "werewolf" and "pick_round" in you:
            out[f"pack {seat}"] = (you["pick_round"], you["pack_previous_picks"])
    return out


def kernel_state(match: Any, config: Config) -> dict[str, Any]:
    """The same, read from a kernel match by name."""
    n = config.players
    phase = match.phase
    night = phase == "night"
    ballot = phase in ("vote", "revote")
    winner = match.winning_team if phase == "end" else None
    out: dict[str, Any] = {
        "phase": phase,
        "round": match.round,
        "alive": sorted(match.alive),
        "roles": list(match.roles),
        "cards": list(match.card_of_seat),
        "actors": sorted(match.actors()),
        "legal": {seat: match.legal_actions(seat) for seat in (None, *range(n))},
        "deadline": match.deadline(),
        "tonight": match.tonight if night else None,
        "ballot": list(match.candidates) if ballot else None,
        "votes": match.ballot if ballot else None,
        "tallies": match.tallies_public,
        "night_result": match.night_result,
        "winner": winner,
        "unmet": sorted(match.unmet_requests),
    }
    for seat, answers in match.seer_answers.items():
        out[f"answers {seat}"] = answers
    for seat, barred in match.cannot_protect.items():
        out[f"barred {seat}"] = barred
    if night:
        for seat, role in enumerate(match.roles):
            if role == "werewolf":
                out[f"pack {seat}"] = (match.pick_round, match.previous_picks)
    return out


def replay(module: ModuleType, recorded: Recorded) -> Iterator[str]:
    """Replay a recorded match through the reference and a kernel module; yields a
    description of each step where they disagree (and stops there)."""
    config = recorded.config
    state = ww.setup(config, recorded.seed)
    match = module.Match(config, recorded.seed)
    for step, (seat, action) in enumerate(recorded.actions):
        want, got = reference_state(state, config), kernel_state(match, config)
        if want != got:
            diff = {k: (want[k], got.get(k)) for k in want if want[k] != got.get(k)}
            yield f"seed {recorded.seed} before step {step} ({seat}: {action}): {diff}"
            return
        state, _ = ww.apply(state, seat, action)
        match.apply(seat, action.name, action.args)
    want, got = reference_state(state, config), kernel_state(match, config)
    if want != got:
        diff = {k: (want[k], got.get(k)) for k in want if want[k] != got.get(k)}
        yield f"seed {recorded.seed} at the end: {diff}"
        return
    outcome = ww.outcome(state)
    assert outcome is not None
    deaths = [(d["round"], d["seat"], d["by"]) for d in outcome.stats["deaths"]]
    if (outcome.winning_team, outcome.rounds, deaths) != (
        match.winning_team,
        match.round,
        match.deaths(),
    ):
        yield f"seed {recorded.seed}: outcome {outcome} but the kernel ended {match.deaths()}"


@pytest.mark.parametrize("c", range(len(CONFIGS)))
def test_replayed_matches_agree_at_every_step(
    recorded: dict[tuple[int, int], list[Recorded]], c: int
) -> None:
    for p in range(len(PLANS)):
        for match in recorded[c, p]:
            problems = list(replay(kernel, match))
            assert not problems, problems[0]


# -- a wrong rule is caught ---------------------------------------------------------------------

MUTANTS = {
    # The Werewolves would win only when they outnumber the rest.
    "wolves-must-outnumber": ("    if wolves >= others:\n", "    if wolves > others:\n"),
    # The Guardian could protect the same player two nights running.
    "guardian-repeats": (
        "            barred = g[LAST_PROTECTED + seat]\n",
        "            barred = NO_ONE\n",
    ),
    # A tied ballot would go straight to the next night, without the revote.
    "no-revote": (
        "    elif not revote:\n        open_ballot",
        "    elif False:\n        open_ballot",
    ),
}


def mutant(name: str, folder: Path) -> ModuleType:
    """The kernel's source with one rule changed, compiled as its own module."""
    old, new = MUTANTS[name]
    return compile_mutant(kernel, old, new, f"werewolf_mutant_{name.replace('-', '_')}", folder)


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_a_wrong_rule_is_caught(
    recorded: dict[tuple[int, int], list[Recorded]],
    name: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> None:
    module = mutant(name, mutant_folder(request, tmp_path, "werewolf-kernel-mutants"))
    # The first disagreement is enough: replaying the rest would only repeat the verdict.
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


def test_a_mutant_compiles_only_what_its_change_reaches(tmp_path: Path) -> None:
    """The changed rule and every compiled step that calls it are the mutant's own; the rest
    are the kernel's compiled functions."""
    module = mutant("wolves-must-outnumber", tmp_path)
    assert {"winner", "check_win", "resolve_night", "close_ballot", "apply"} <= module.RECOMPILED
    assert module.legal_actions is kernel.legal_actions and module.deal is kernel.deal
    assert module.winner is not kernel.winner
    assert "wolves > others" in inspect.getsource(module.winner.py_func)
    assert module.apply is not kernel.apply


# -- the module's contract ------------------------------------------------------------------------


def test_it_is_the_kernel_of_werewolf() -> None:
    assert load("werewolf") is kernel
    assert ww.id == kernel.GAME
    # Every bot kind the kernel plays is a registered kind; the belief bot plays in Python.
    assert set(kernel.POLICIES) == set(bot_registry.kinds("werewolf")) - {"belief"}
    assert ww.team_names(Config()) == kernel.TEAM_NAMES
    for config in CONFIGS:
        assert kernel.unsupported(config) is None


def test_it_says_which_configs_it_does_not_play() -> None:
    assert "werewolf Config" in (kernel.unsupported({"players": 7}) or "")
    assert "at least one Werewolf" in (kernel.unsupported(Config(players=7, werewolves=0)) or "")
    assert "structured talk" in (kernel.unsupported(Config(players=7, talk=True)) or "")
    assert "lycans" in (kernel.unsupported(Config(players=8, lycans=1)) or "")
    assert "sheriff" in (kernel.unsupported(Config(players=8, sheriff=True)) or "")
    with pytest.raises(ValueError, match="no 'ismcts' policy"):
        kernel.play(Config(), [1], BotPlan(default="ismcts"))


def test_a_batch_names_what_it_counts() -> None:
    config = Config(players=10)
    seeds = np.arange(50, dtype=np.int64)
    batch = kernel.play(config, seeds, BotPlan())
    assert len(batch) == 50 and batch.seeds.tolist() == list(range(50))
    assert batch.winners.shape == batch.teams.shape == batch.roles.shape == (50, 10)
    wolves = (batch.roles == kernel.ROLE_NAMES.index("werewolf")).sum(axis=1)
    assert (wolves == 3).all()
    town = kernel.TEAM_NAMES.index("town")
    for i in range(50):
        won = batch.winning_team[i]
        assert won >= 0  # no round limit: nobody draws
        assert (batch.winners[i] == (batch.teams[i] == won)).all()
        dead = [int(d) for d in batch.stats["deaths.seat"][i] if d >= 0]
        assert batch.stats["survivors"][i] + len(dead) == 10
        wolves_left = 3 - sum(batch.roles[i, d] == 0 for d in dead)
        assert (won == town) == (wolves_left == 0)
    assert (batch.rounds >= 1).all() and (batch.steps > 0).all()
