"""Train a small policy for Robbers' Horror against the random bot, then show that it beats it.

    pip install "wolfden[rl]"
    python examples/train_robbers_horror.py [--deals 1000] [--eval 2000] [--seed 1]

The agent is a linear softmax policy (NumPy only): it scores each legal card by a few
features that it reads from its observation vector (would the card win the trick as it
stands, what the trick holds, what the card is worth), with one weight vector per role, and
plays card c with probability ∝ exp(score(c)). It learns by REINFORCE. Each training deal is
one deal of a four-player match (``deals=1``): the learner takes a different seat each deal,
wolfden's ``random`` bot plays the other three, and the deal is played ``--rollouts`` times
with the bots drawing the same random numbers, so each rollout's advantage (its reward minus
the others' mean) comes from the learner's choices alone. The reward is the environment's
per-deal reward: +1 when the learner's team wins the deal, −1 when it loses, 0 for a tie.

Then the trained policy (greedy) and the random bot play the same evaluation deals, in the
same seats against the same bots, and the script prints both records.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from wolfden import bots
from wolfden.engine.rng import Rng
from wolfden.envs import robbers_horror_v0
from wolfden.games.robbers_horror import trick_winner

GAME = "robbers-horror"
PLAYERS = 4
CARDS = robbers_horror_v0.CARDS
KINDS = ("C", "R", "W", "S", "K", "T")
FEATURES = 22

Chooser = Callable[[np.ndarray, np.ndarray], int]


class CardFeatures:
    """Reads the current trick, the icon table and the role back out of an observation."""

    def __init__(self, env: Any) -> None:
        layout = env.observation_layout
        self.trick = layout.slot("trick")
        self.leader = layout.slot("trick_leader")
        self.size = layout.slot("trick_size")
        self.icons = layout.slot("icons")
        self.role = layout.slot("role")

    def role_of(self, obs: np.ndarray) -> int:
        return int(np.argmax(obs[self.role]))

    def __call__(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """One row of features per legal card index."""
        n, c = PLAYERS, len(CARDS)
        grid = obs[self.trick].reshape(n, c)
        leader = int(np.argmax(obs[self.leader]))
        played = int(np.argmax(obs[self.size]))
        trick = [CARDS[int(np.argmax(grid[(leader + j) % n]))] for j in range(played)]
        icon_of = np.rint(obs[self.icons] * 9).astype(int)

        def icons(card: str, suit: str) -> int:
            return int(icon_of[int(card[1:]) - 1]) if card[0] == suit else 0

        chests = sum(icons(x, "C") for x in trick) / 10
        robbers = sum(icons(x, "R") for x in trick) / 10
        wolf = float("W" in trick)
        knife = float("K" in trick)
        last = float(played == n - 1)
        rows = np.zeros((len(legal), FEATURES))
        for row, index in enumerate(legal):
            card = CARDS[index]
            wins = float(trick_winner([*trick, card]) == len(trick)) if trick else 0.0
            kind = np.zeros(6)
            kind[KINDS.index(card[0])] = 1.0
            rank = int(card[1:]) / 15 if card[0] in "CR" else 0.0
            rows[row] = [
                1.0,
                wins,
                wins * last,
                wins * chests,
                wins * robbers,
                wins * wolf,
                wins * knife,
                icons(card, "C") / 5,
                icons(card, "R") / 5,
                rank,
                *kind,
                *(kind * float(played == 0)),
            ]
        return rows


class Policy:
    """π(card | obs) ∝ exp(φ(obs, card) · θ_role) over the legal cards."""

    def __init__(self, features: CardFeatures) -> None:
        self.features = features
        self.theta = np.zeros((3, FEATURES))

    def scores(
        self, obs: np.ndarray, mask: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
        legal = np.flatnonzero(mask)
        phi = self.features(obs, legal)
        role = self.features.role_of(obs)
        logits = phi @ self.theta[role]
        p = np.exp(logits - logits.max())
        return legal, phi, role, p / p.sum()

    def update(self, obs: np.ndarray, mask: np.ndarray, index: int, step: float) -> None:
        legal, phi, role, p = self.scores(obs, mask)
        chosen = int(np.flatnonzero(legal == index)[0])
        self.theta[role] += step * (phi[chosen] - p @ phi)


def play_deal(
    env: Any, seed: int, learner: str, choose: Chooser, opponents: dict[str, Any]
) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    """One deal with ``choose(observation, mask) -> index`` in the learner's seat and the
    random bot (drawing from ``Rng(seed)``) elsewhere: the learner's reward and its steps."""
    env.reset(seed=seed)
    rng = Rng(seed)
    steps = []
    total = 0.0
    while env.agents:
        agent = env.agent_selection
        if agent == learner:
            total += env._cumulative_rewards[agent]
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        if agent == learner:
            obs = env.observe(agent)
            index = choose(obs["observation"], obs["action_mask"])
            steps.append((obs["observation"], obs["action_mask"], index))
        else:
            action = opponents[agent].act({}, env.legal_actions(agent), rng)
            index = env.action_index(agent, action)
        env.step(index)
    return total, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="training deals")
    parser.add_argument("--rollouts", type=int, default=4, help="plays of each training deal")
    parser.add_argument("--eval", type=int, default=2000, help="evaluation deals")
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    env = robbers_horror_v0.raw_env(players=PLAYERS, deals=1, match_reward=0.0)
    agents = env.possible_agents
    opponents = {a: bots.make(GAME, "random", env.seat(a)) for a in agents}
    policy = Policy(CardFeatures(env))
    rng = np.random.default_rng(args.seed)

    def sample(obs: np.ndarray, mask: np.ndarray) -> int:
        legal, _, _, p = policy.scores(obs, mask)
        return int(legal[rng.choice(len(legal), p=p)])

    def greedy(obs: np.ndarray, mask: np.ndarray) -> int:
        legal, _, _, p = policy.scores(obs, mask)
        return int(legal[np.argmax(p)])

    started = time.perf_counter()
    recent: list[float] = []
    for deal in range(args.deals):
        learner = agents[deal % PLAYERS]
        seed = args.seed * 1_000_003 + deal
        rollouts = [play_deal(env, seed, learner, sample, opponents) for _ in range(args.rollouts)]
        rewards = np.array([r for r, _ in rollouts])
        for (reward, steps), others in zip(rollouts, rewards.sum() - rewards):
            advantage = reward - others / (args.rollouts - 1)
            for obs, mask, index in steps:
                policy.update(obs, mask, index, args.lr * advantage)
        recent.extend(rewards)
        if (deal + 1) % 250 == 0:
            window = recent[-250 * args.rollouts :]
            print(f"training deal {deal + 1:5d}: mean reward {np.mean(window):+.3f}")
    trained = time.perf_counter() - started

    eval_rng = Rng(args.seed + 7)

    def uniform(obs: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[eval_rng.below(len(legal))])

    results = {}
    for name, choose in (("trained policy", greedy), ("random bot", uniform)):
        rewards = np.array(
            [
                play_deal(env, 777_000_000 + g, agents[g % PLAYERS], choose, opponents)[0]
                for g in range(args.eval)
            ]
        )
        results[name] = rewards
        half = 1.96 * rewards.std() / np.sqrt(len(rewards))
        print(
            f"{name:14s}: mean reward {rewards.mean():+.3f} ± {half:.3f} (95%), "
            f"deals won {np.mean(rewards > 0):.1%}, lost {np.mean(rewards < 0):.1%}"
        )
    diff = results["trained policy"] - results["random bot"]
    half = 1.96 * diff.std() / np.sqrt(len(diff))
    print(
        f"trained for {trained:.0f} s on {args.deals} deals; on the same {args.eval} deals the "
        f"trained policy gains {diff.mean():+.3f} ± {half:.3f} reward per deal over the random bot"
    )


if __name__ == "__main__":
    main()
