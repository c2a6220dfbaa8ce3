"""No frame on the wire carries anything its viewer may not know, for every registered game.

Random matches through the real server (uvicorn on 127.0.0.1, the fake clock), one recorded
WebSocket per seat plus a spectator and a table screen, with refused messages mixed in so that
errors are checked too; and one match per game with a shared device holding some seats. See
tests/security/wire.py for what is compared.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.security.wire import SharedDevice, check, frame_pattern, play, replay
from wolfden import games

MATCHES_PER_GAME = 3


def configs(game: Any) -> list[Any]:
    samples = list(game.sample_configs())
    return [samples[i * len(samples) // MATCHES_PER_GAME] for i in range(MATCHES_PER_GAME)]


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.id)
def test_no_frame_carries_what_its_viewer_may_not_know(make_server: Any, game: Any) -> None:
    server = make_server(messages_per_second=1000, message_burst=1000)
    totals = {"frames": 0, "views": 0, "perturbed": 0, "rejected": 0, "secrets": 0, "refusals": 0}
    totals["offers"] = 0
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
        totals["offers"] += verdict.offers_compared
    # the check is not vacuous: frames were seen, hidden states compared (views, legal and host
    # actions), refusals provoked
    assert totals["views"] > 100 and totals["perturbed"] > 50, totals
    assert totals["offers"] == totals["perturbed"], totals
    assert totals["rejected"] > 3 and totals["refusals"] > 3, totals


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.id)
def test_a_socket_gets_a_view_exactly_when_what_it_sees_changes(
    make_server: Any, game: Any
) -> None:
    """The pattern of frames depends only on what each viewer may see: a view goes out when
    the viewer's view, legal actions, countdown or outcome changed or the action brought it
    events, numbered per connection, so no one can count the actions of a phase."""
    server = make_server(messages_per_second=1000, message_burst=1000)
    played = play(server, game, configs(game)[0], seed=77, pokes=0.0)
    states, events, _acts = replay(game, played.record)
    assert frame_pattern(played, states, events) == []
    actions = len(played.record["actions"])
    views = [
        sum(1 for m in map(json.loads, c.frames) if m["type"] == "view") for c in played.clients
    ]
    assert max(views) <= actions + 1
    if game.id == "werewolf":  # not vacuous: the night's secret moves reach only their team
        assert min(views) < actions + 1, (views, actions)


# one match per game with a shared device: the hand-over is confirmed by the device itself
# (reveal), it plays the seat it shows like any other client, then covers again
DEVICES = {
    # both Werwölfe Kids teams on the host's tablet; whose turn it is, is public
    "werwoelfe-kids": SharedDevice((0, 1), secret_turns=False, this_device=True),
    # two Werewolf players share a phone; who acts at night is secret
    "werewolf": SharedDevice((2, 6), secret_turns=True),
    # Werewords in companion mode, everyone around the host's phone
    "werewords": SharedDevice((0, 1, 2, 3), secret_turns=False, this_device=True),
    # two Robbers' Horror players on one tablet: each hand stays its own
    "robbers-horror": SharedDevice((1, 2), secret_turns=False),
}


def device_config(game: Any) -> Any:
    if game.id == "werewords":
        return game.Config(players=4, mode="companion")
    return configs(game)[0]


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.id)
def test_a_shared_device_shows_only_the_seat_it_was_handed_to(make_server: Any, game: Any) -> None:
    """Covered while a held seat waits (no view, no actions, public events only); once handed
    to seat N exactly what seat N may see; with secret turns every held seat is offered while
    any acts; no frame carries a secret of any seat but the one shown."""
    server = make_server(messages_per_second=1000, message_burst=1000)
    device = DEVICES[game.id]
    played = play(server, game, device_config(game), seed=32, device=device)
    verdict = check(played)
    assert not verdict.problems, "\n".join(verdict.problems[:20])
    # not vacuous: the device was covered, handed over to several seats, and acted
    assert verdict.device_covered > 0 and verdict.device_shown > 0, verdict
    # the device's own offers (the shown seat's legal actions, the host's actions) were
    # compared in hidden states its viewer cannot tell apart, and so were the phones'; in
    # Werewords' companion mode the device shows only the Mayor, who knows everything the app
    # knows, and the table view, which the game says knows everything: nothing to vary
    if game.id != "werewords":
        assert verdict.device_offers_compared > 0, verdict
    assert verdict.offers_compared > verdict.device_offers_compared, verdict
    tablet = next(c for c in played.clients if c.device is not None)
    frames = [json.loads(t) for t in tablet.frames]
    shown = {m["device"]["shown"] for m in frames if m["type"] == "view"} - {None}
    if game.id != "werewords":  # in companion mode only the Mayor's card is on the app
        assert shown == set(device.seats), shown
    if device.secret_turns:  # seats with nothing to do were offered the device too
        assert verdict.device_offered_idle > 0, verdict
    if game.id == "werewolf":  # the pack spoke to a held Werewolf while the device was covered
        assert verdict.device_withheld > 0, verdict
    held = [seat for seat, _text in played.record["actions"] if seat in device.seats]
    assert held, "the device never acted"
