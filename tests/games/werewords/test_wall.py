"""The information wall through the host's controls too (Whoops, Play Again, Next), which the
shared conformance playouts never press."""

from __future__ import annotations

from wolfden.engine import conformance
from wolfden.engine.rng import Rng, derive_seed
from wolfden.games import werewords as game


def test_the_information_wall_holds_through_host_controls() -> None:
    report = conformance.Report()
    configs = list(game.sample_configs())
    pressed: set[str] = set()
    for i in range(36):
        config = configs[i % len(configs)]
        seed = derive_seed(77, i)
        state = game.setup(config, seed)
        rng = Rng(seed)
        for _ in range(3000):
            if game.outcome(state) is not None:
                break
            host = game.legal_actions(state, None)
            actors = sorted(game.actors(state))
            due = game.deadline(state)
            if host and rng.chance(0.2):
                seat, action = None, host[rng.below(len(host))]
                pressed.add(action.name)
            elif due is not None and (not actors or rng.chance(0.05)):
                seat, action = None, due.action
            else:
                seat = actors[rng.below(len(actors))]
                legal = game.legal_actions(state, seat)
                action = legal[rng.below(len(legal))]
            conformance.check_illegal_rejected(game, state, rng, report)
            conformance.check_information_wall(game, state, rng, report)
            state, _ = game.apply(state, seat, action)
        assert game.outcome(state) is not None
    assert {"whoops", "play_again", "next"} <= pressed
    assert report.wall_event_checks > 1000
