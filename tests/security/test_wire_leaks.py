"""No frame on the wire carries anything its viewer may not know, for every registered game.

Random matches through the real server (uvicorn on 127.0.0.1, the fake clock), one recorded
WebSocket per seat plus a spectator and a table screen, with refused messages mixed in so that
errors are checked too. See tests/security/wire.py for what is compared.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.security.wire import check, play
from wolfden import games

MATCHES_PER_GAME = 3


def configs(game: Any) -> list[Any]:
    samples = list(game.sample_configs())
    return [samples[i * len(samples) // MATCHES_PER_GAME] for i in range(MATCHES_PER_GAME)]


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.id)
def test_no_frame_carries_what_its_viewer_may_not_know(make_server: Any, game: Any) -> None:
    server = make_server(messages_per_second=1000, message_burst=1000)
    totals = {"frames": 0, "views": 0, "perturbed": 0, "rejected": 0, "secrets": 0, "refusals": 0}
    for i, config in enumerate(configs(game)):
        played = play(server, game, config, seed=1000 + i)
        verdict = check(played)
        assert not verdict.problems, "\n".join(verdict.problems[:20])
        totals["frames"] += verdict.frames
        totals["views"] += verdict.views
        totals["perturbed"] += verdict.perturbed
        totals["rejected"] += played.rejected
        totals["secrets"] += verdict.secrets_checked
        totals["refusals"] += verdict.refusals
    # the check is not vacuous: frames were seen, hidden states compared, refusals provoked
    assert totals["views"] > 100 and totals["perturbed"] > 50, totals
    assert totals["rejected"] > 3 and totals["refusals"] > 3, totals


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.id)
def test_every_action_brings_every_socket_one_view_whoever_sent_it(
    make_server: Any, game: Any
) -> None:
    """The pattern of frames does not depend on who acted: each committed action, by any
    seat, the host or the clock, reaches every socket as exactly one new view, in order."""
    server = make_server(messages_per_second=1000, message_burst=1000)
    played = play(server, game, configs(game)[0], seed=77, pokes=0.0)
    last = len(played.record["actions"])
    for c in played.clients:
        versions = [
            m["version"]
            for m in map(json.loads, c.frames)
            if m["type"] == "view" and m["match"] == played.match
        ]
        assert versions == list(range(last + 1)), (c.viewer, versions[:20])
