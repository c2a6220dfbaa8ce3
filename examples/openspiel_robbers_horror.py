"""How exploitable is the rules bot? OpenSpiel's CFR and NashConv on a small Robbers' Horror.

The game is ``wolfden.envs.openspiel.robbers_horror_endgame``: three players, one deal, the
deal's result as the only reward; the ``rules`` bot plays every trick but the last ``--tricks``
for everyone, from ``--seeds`` deals; then the players play those tricks. The script prints
the size of the game, the NashConv (the sum over players of what a best response gains) of the
uniform random policy, of the rules bot and of CFR's average policy after ``--iterations``.

    pip install "wolfden[openspiel]"
    python examples/openspiel_robbers_horror.py --tricks 3 --seeds 10 --iterations 20
"""

from __future__ import annotations

import argparse
import time

from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, get_all_states

from wolfden.envs import openspiel as wos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tricks", type=int, default=3, help="tricks the players play")
    parser.add_argument("--seeds", type=int, default=10, help="deals the chance node draws")
    parser.add_argument("--iterations", type=int, default=20, help="CFR iterations")
    args = parser.parse_args()
    game = wos.robbers_horror_endgame(tricks=args.tricks, seeds=args.seeds)
    states = get_all_states.get_all_states(game, include_terminals=False)
    infostates = {s.information_state_string() for s in states.values()}
    print(f"{game}: {len(states)} decision states, {len(infostates)} information states")
    started = time.perf_counter()
    uniform = wos.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    print(f"uniform random : NashConv {uniform:.4f}")
    rules = wos.nash_conv(game, wos.bot_policy(game, "rules"))
    print(f"rules bot      : NashConv {rules:.4f}")
    solver = cfr.CFRSolver(game)
    for _ in range(args.iterations):
        solver.evaluate_and_update_policy()
    solved = wos.nash_conv(game, solver.average_policy())
    print(f"CFR ({args.iterations} it.)  : NashConv {solved:.4f}")
    print(
        f"exploitability (NashConv / {game.num_players()}): uniform {uniform / 3:.4f}, "
        f"rules {rules / 3:.4f}, CFR {solved / 3:.4f}; {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
