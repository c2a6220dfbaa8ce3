"""The documented variant roles beyond the seed (docs/games/werewolf.md, "Variant roles"):
each role's rules, what its holder and the others learn, and the listed interactions."""

from __future__ import annotations

import dataclasses
import types

import pytest

from wolfden import bots
from wolfden.engine import conformance
from wolfden.engine.errors import ConfigError, IllegalAction, NotYourTurn
from wolfden.engine.rng import Rng
from wolfden.engine.types import Viewer
from wolfden.games import werewolf
from wolfden.games.werewolf import Phase, Role, Team
from wolfden.kernel import werewolf as kernel
from wolfden.sim.runner import play_match

from .conftest import G, S, V, W, act, day, run, table, texts


def replace_alive(state: werewolf.State, alive: set[int]) -> werewolf.State:
    return dataclasses.replace(state, alive=frozenset(alive))


L, T, M, H, VI = Role.LYCAN, Role.TANNER, Role.MINION, Role.HUNTER, Role.VILLAGE_IDIOT
WI, C = Role.WITCH, Role.CUPID

VARIANT_CONFIGS = [c for c in werewolf.sample_configs() if c.beyond_seed]


# -- every variant role ---------------------------------------------------------------------


def test_the_seeds_deal_has_no_variant_role() -> None:
    for players in range(7, 13):
        config = werewolf.Config(players=players)
        assert config.variant_counts == {}
        state = werewolf.setup(config, 5)
        assert set(state.roles) <= {W, S, G, V}
        assert set(werewolf.view(state, Viewer.of(0))["deal"]) == {
            "werewolves",
            "seers",
            "guardians",
            "villagers",
        }


@pytest.mark.parametrize(
    "options, message",
    [
        ({"lycans": -1}, "lycans must be a whole number, 0 or more"),
        ({"lycans": 4}, "2 Werewolves, 1 Seers, 1 Guardians and 4 Lycans are more roles"),
        ({"tanners": "one"}, "tanners must be a whole number, 0 or more; got 'one'"),
        ({"lycans": 2, "tanners": 2}, "2 Lycans and 2 Tanners are more roles than the 7"),
        ({"cupids": 2}, "at most 1 Cupid"),
    ],
)
def test_a_bad_variant_count_is_refused_with_the_reason(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        werewolf.setup(werewolf.Config(players=7, **options), 1)  # type: ignore[arg-type]


def test_the_kernel_leaves_variant_setups_to_the_rules() -> None:
    for config in VARIANT_CONFIGS:
        reason = kernel.unsupported(dataclasses.replace(config, talk=False))
        assert reason is not None and "seed's roles" in reason
        assert all(name in reason for name in config.beyond_seed)


def test_the_environment_refuses_variant_setups_and_says_why() -> None:
    from wolfden.envs import werewolf_v0

    assert werewolf_v0.raw_env.accepts(werewolf.Config(players=9))
    assert not werewolf_v0.raw_env.accepts(werewolf.Config(players=9, sheriff=True))
    with pytest.raises(ConfigError, match="also has hunters, sheriff"):
        werewolf_v0.raw_env(players=9, hunters=1, sheriff=True)


def test_the_variant_sample_setups_keep_the_contract_and_the_wall() -> None:
    """The conformance suite over the variant setups only, every playout checked deeply."""
    game = types.SimpleNamespace(
        **{k: getattr(werewolf, k) for k in dir(werewolf) if not k.startswith("__")}
    )
    game.sample_configs = lambda: VARIANT_CONFIGS
    playouts = 4 * len(VARIANT_CONFIGS)
    report = conformance.run_all(game, playouts=playouts, deep_every=1, max_steps=5000)
    assert report.playouts == playouts
    assert report.wall_checks > 10 * playouts
    assert report.wall_event_checks > playouts
    assert report.illegal_checks > playouts


def test_talk_claims_accept_the_variant_roles_of_the_deal() -> None:
    config = werewolf.Config(players=9, witches=1, village_idiots=1, talk=True)
    state = werewolf.setup(config, 4)
    while state.phase is Phase.NIGHT:
        state, _ = act(state, None, "dawn")
    offered = {str(a) for a in werewolf.legal_actions(state, 0) if a.name == "claim_role"}
    assert {"claim_role witch", "claim_role village_idiot"} <= offered
    assert "claim_role hunter" not in offered  # not in this deal
    state, events = act(state, 0, "claim_role village_idiot")
    assert texts(events) == ["Player 1: “I am the Village Idiot.”"]


@pytest.mark.parametrize("kind", ["random", "rules", "belief"])
def test_every_bot_plays_every_variant_setup_to_the_end(kind: str) -> None:
    for i, config in enumerate(VARIANT_CONFIGS):
        players = {s: bots.make("werewolf", kind, s) for s in range(config.players)}
        result = play_match(werewolf, config, 100 + i, players, think=1.0)
        assert werewolf.outcome(result.state) is not None


# -- Lycan ------------------------------------------------------------------------------------


def lycan_table() -> werewolf.State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4 Lycan; 5,6 Villagers."""
    return table([W, W, S, G, L, V, V], lycans=1)


def test_the_seer_sees_the_lycan_as_a_werewolf() -> None:
    state, events = act(lycan_table(), 2, "check 4")
    answer = next(e for e in events if e.type == "seer_answer")
    assert answer.data == {"target": 4, "werewolf": True}
    assert answer.text == "Player 5 is a Werewolf."
    assert answer.audience.seats == frozenset({2})
    me = werewolf.view(state, Viewer.of(2))["you"]
    assert me["checks"] == [{"round": 1, "target": 4, "werewolf": True}]


def test_the_lycan_knows_its_card_and_the_pack_does_not_know_it() -> None:
    state = lycan_table()
    mine = werewolf.view(state, Viewer.of(4))
    assert mine["you"]["role"] == "lycan"
    assert "Seer" in mine["you"]["card_text"]
    wolf = werewolf.view(state, Viewer.of(0))
    assert "role" not in wolf["seats"][4]
    assert werewolf.view(state, Viewer.of(5))["deal"]["lycans"] == 1


def test_the_lycan_is_town_and_sleeps_through_the_night() -> None:
    state = lycan_table()
    assert 4 not in werewolf.actors(state)
    assert werewolf.seat_teams(state)[4] == "town"
    # The pack may target the Lycan; its card is revealed as a Lycan.
    state, events = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 5"))
    state, events = act(state, None, "dawn")
    assert "Their card: Lycan (R_WEREWOLF-013)." in " ".join(texts(events))
    assert state.phase is Phase.DISCUSSION


def test_the_town_wins_when_the_wolves_are_gone_though_the_lycan_lives() -> None:
    state = table([W, S, G, L, V, V, V], lycans=1, werewolves=1)
    state, _ = run(state, (0, "pick 4"), (1, "check 3"), (2, "protect 4"))
    state = day(state)
    state, _ = run(state, *((s, "vote 0") for s in range(1, 7)), (0, "vote 3"))
    outcome = werewolf.outcome(state)
    assert outcome is not None and outcome.winning_team == "town"
    assert 3 in outcome.winners


def test_the_lycan_counts_as_town_for_parity() -> None:
    # Two Werewolves and the Lycan, Seer, Guardian and two Villagers: the pack takes one a
    # night; parity comes only when the Werewolves match every other living player.
    state = lycan_table()
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 4"), (3, "protect 6"))
    state = day(state)
    assert state.phase is Phase.VOTE  # 2 Werewolves against 4: no winner
    assert werewolf.winner(state) is None


def test_the_lycan_plays_like_a_villager_for_the_bots() -> None:
    state = lycan_table()
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 4"), (3, "protect 6"))
    state = day(state)
    legal = werewolf.legal_actions(state, 4)
    for kind in ("random", "rules", "belief"):
        bot = bots.make("werewolf", kind, 4)
        action = bot.act(werewolf.view(state, Viewer.of(4)), legal, Rng(3))
        assert action in legal


# -- Tanner -----------------------------------------------------------------------------------


def tanner_table() -> werewolf.State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4 Tanner; 5,6,7 Villagers."""
    return table([W, W, S, G, T, V, V, V], tanners=1)


def test_the_tanner_voted_out_by_day_wins_alone_at_once() -> None:
    state = tanner_table()
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 4"), (3, "protect 5"))
    state = day(state)
    state, events = run(state, *((s, "vote 4") for s in range(8) if s != 4), (4, "vote 0"))
    assert state.phase is Phase.END
    assert texts(events)[-1] == "The village has voted out the Tanner. The Tanner wins alone."
    outcome = werewolf.outcome(state)
    assert outcome is not None
    assert outcome.winning_team == "tanner"
    assert outcome.winners == frozenset({4})
    assert outcome.teams[4] == "tanner"
    assert werewolf.view(state, Viewer.of(0))["winner"] == "tanner"


def test_the_tanner_taken_at_night_simply_loses() -> None:
    state = tanner_table()
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 5"))
    state, events = act(state, None, "dawn")
    assert state.phase is Phase.DISCUSSION and not state.is_alive(4)
    assert "Their card: Tanner (R_WEREWOLF-013)." in " ".join(texts(events))


def test_the_tanner_counts_as_a_non_werewolf_for_parity_and_loses_with_the_town() -> None:
    # Werewolf, Seer, Guardian, Tanner, Villagers: the Werewolf is voted out, the Town wins and
    # the living Tanner does not.
    state = table([W, S, G, T, V, V, V], tanners=1, werewolves=1)
    state, _ = run(state, (0, "pick 5"), (1, "check 0"), (2, "protect 5"))
    state = day(state)
    state, _ = run(state, *((s, "vote 0") for s in range(1, 7)), (0, "vote 3"))
    outcome = werewolf.outcome(state)
    assert outcome is not None and outcome.winning_team == "town"
    assert 3 not in outcome.winners
    # Parity: 1 Werewolf against the Tanner alone is parity; against the Tanner and one more
    # it is not.
    state = table([W, S, G, T, V, V, V], tanners=1, werewolves=1)
    assert werewolf.winner(replace_alive(state, {0, 3})) is Team.WEREWOLVES
    assert werewolf.winner(replace_alive(state, {0, 3, 4})) is None


def test_the_tanners_team_is_named_only_when_dealt() -> None:
    assert werewolf.team_names(werewolf.Config()) == ("town", "werewolves")
    assert werewolf.team_names(werewolf.Config(players=8, tanners=1)) == (
        "town",
        "werewolves",
        "tanner",
    )


# -- Minion -----------------------------------------------------------------------------------


def minion_table() -> werewolf.State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4 Minion; 5–8 Villagers."""
    return table([W, W, S, G, M, V, V, V, V], minions=1)


def test_the_minion_knows_the_werewolves_and_they_do_not_know_the_minion() -> None:
    state = minion_table()
    minion = werewolf.view(state, Viewer.of(4))
    assert minion["you"]["werewolves"] == [0, 1]
    assert [e.get("role") for e in minion["seats"][:5]] == [
        "werewolf",
        "werewolf",
        None,
        None,
        "minion",
    ]
    wolf = werewolf.view(state, Viewer.of(0))
    assert wolf["you"]["pack"] == [0, 1]
    assert "role" not in wolf["seats"][4]
    villager = werewolf.view(state, Viewer.of(5))
    assert "werewolves" not in villager["you"]
    assert all("role" not in e for e in villager["seats"] if e["seat"] != 5)


def test_the_minion_is_called_every_night_but_never_acts() -> None:
    state = minion_table()
    script = werewolf.view(state, Viewer.parse("table"))["narration"]
    assert script[-2:] == [
        "Minion, wake. Werewolves, raise your hand so the Minion can see you.",
        "Werewolves, hands down. Minion, sleep.",
    ]
    assert 4 not in werewolf.actors(state)
    # Dead or alive, the call stays.
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 5"))
    state = day(state)
    assert not state.is_alive(4)
    state, _ = run(state, *((s, "abstain") for s in sorted(state.alive)))
    assert state.phase is Phase.NIGHT
    assert werewolf.view(state, Viewer.parse("table"))["narration"] == script


def test_the_seer_sees_the_minion_as_no_werewolf() -> None:
    _, events = act(minion_table(), 2, "check 4")
    assert next(e for e in events if e.type == "seer_answer").data["werewolf"] is False


def test_parity_with_a_minion_counts_the_minion_as_town() -> None:
    state = minion_table()
    # Two Werewolves, the Minion and one Villager: 2 against 2 is parity, the Minion's team
    # wins, the Minion among the winners.
    assert werewolf.winner(replace_alive(state, {0, 1, 4, 5})) is Team.WEREWOLVES
    # Two Werewolves, the Minion and two others: 2 against 3, no winner yet.
    assert werewolf.winner(replace_alive(state, {0, 1, 4, 5, 6})) is None
    # The last Werewolf gone: the Town wins though the Minion lives.
    assert werewolf.winner(replace_alive(state, {4, 5, 6})) is Team.TOWN


def test_the_minion_wins_and_loses_with_the_werewolves() -> None:
    state = table([W, S, G, M, V, V, V], minions=1, werewolves=1)
    state, _ = run(state, (0, "pick 4"), (1, "check 3"), (2, "protect 5"))
    state = day(state)
    state, _ = run(state, *((s, "vote 0") for s in sorted(state.alive) if s != 0), (0, "vote 3"))
    outcome = werewolf.outcome(state)
    assert outcome is not None and outcome.winning_team == "town"
    assert outcome.teams[3] == "werewolves" and 3 not in outcome.winners


def test_the_rules_bots_minion_never_votes_for_a_werewolf() -> None:
    state = minion_table()
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 4"), (3, "protect 6"))
    state = day(state)
    legal = werewolf.legal_actions(state, 4)
    for kind in ("rules", "belief"):
        bot = bots.make("werewolf", kind, 4)
        for seed in range(20):
            action = bot.act(werewolf.view(state, Viewer.of(4)), legal, Rng(seed))
            assert action in legal and action.args[:1] not in ((0,), (1,))


# -- Hunter -----------------------------------------------------------------------------------


def hunter_table(**options: object) -> werewolf.State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4 Hunter; 5,6,7 Villagers."""
    return table([W, W, S, G, H, V, V, V], hunters=1, **options)


def test_the_hunter_taken_at_night_shoots_before_the_discussion() -> None:
    state = hunter_table()
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 5"))
    state, events = act(state, None, "dawn")
    assert state.phase is Phase.HUNT
    assert texts(events)[-1] == "Player 5 was the Hunter and takes one living player with them."
    assert werewolf.actors(state) == frozenset({4})
    assert werewolf.legal_actions(state, 4) == [werewolf.SHOOT[s] for s in (0, 1, 2, 3, 5, 6, 7)]
    table_view = werewolf.view(state, Viewer.parse("table"))
    assert table_view["hunt"] == {"hunter": 4}
    assert table_view["timer"]["label"] == "hunt"
    with pytest.raises(NotYourTurn, match="the Hunter is choosing"):
        act(state, 5, "vote 4")
    state, events = act(state, 4, "shoot 1")
    assert "The Hunter took Player 2. Their card: Werewolf B (R_WEREWOLF-002)." in texts(events)
    assert state.phase is Phase.DISCUSSION
    assert state.alive == frozenset({0, 2, 3, 5, 6, 7})
    assert [(d.seat, d.by) for d in state.deaths] == [(4, "night"), (1, "shot")]


def test_the_hunter_voted_out_shoots_and_then_the_night_falls() -> None:
    state = hunter_table()
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 0"), (3, "protect 5"))
    state = day(state)
    state, _ = run(state, *((s, "vote 4") for s in range(8) if s != 4), (4, "vote 0"))
    assert state.phase is Phase.HUNT
    state, _ = act(state, 4, "shoot 6")
    assert state.phase is Phase.NIGHT and state.round == 2
    assert not state.is_alive(6)


def test_the_hunters_shot_comes_before_the_win_check() -> None:
    # Werewolves 0,1, the Guardian, the Hunter and a Villager live: the pack takes the Hunter,
    # which would be parity (2 against 2), but the Hunter takes a Werewolf first.
    state = replace_alive(hunter_table(), {0, 1, 3, 4, 5})
    state = dataclasses.replace(state, pending=frozenset({0, 1, 3}))
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (3, "protect 5"))
    state, _ = act(state, None, "dawn")
    assert state.phase is Phase.HUNT
    state, _ = act(state, 4, "shoot 0")
    assert state.phase is Phase.DISCUSSION  # 1 Werewolf against 2: the game goes on
    # Had the Hunter shot a Villager instead, the Werewolves would win at once.
    state = replace_alive(hunter_table(), {0, 1, 3, 4, 5})
    state = dataclasses.replace(state, pending=frozenset({0, 1, 3}))
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (3, "protect 5"), (None, "dawn"))
    state, _ = act(state, 4, "shoot 5")
    assert werewolf.winner(state) is Team.WEREWOLVES and state.phase is Phase.END


def test_a_hunter_who_does_not_shoot_in_time_takes_no_one() -> None:
    state = hunter_table()
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 5"))
    state, _ = act(state, None, "dawn")
    deadline = werewolf.deadline(state)
    assert deadline is not None and str(deadline.action) == "no_shot"
    state, events = act(state, None, "no_shot")
    assert "Player 5 took no one with them." in texts(events)
    assert state.phase is Phase.DISCUSSION and len(state.alive) == 7


def test_a_guarded_hunter_survives_and_does_not_shoot() -> None:
    state = hunter_table()
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 4"))
    state, events = act(state, None, "dawn")
    assert state.phase is Phase.DISCUSSION and "No one was eliminated." in texts(events)


def test_the_bots_hunter_shoots_a_living_player() -> None:
    state = hunter_table()
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 5"))
    state, _ = act(state, None, "dawn")
    legal = werewolf.legal_actions(state, 4)
    for kind in ("random", "rules", "belief"):
        action = bots.make("werewolf", kind, 4).act(
            werewolf.view(state, Viewer.of(4)), legal, Rng(1)
        )
        assert action in legal
    # The rules bot's Hunter, seeing every card (eyes open), takes a Werewolf.
    rules = bots.make("werewolf", "rules", 4)
    assert rules.act(werewolf.view(state, Viewer.of(4)), legal, Rng(1)).args[0] in (0, 1)


# -- Village Idiot ----------------------------------------------------------------------------


def idiot_table() -> werewolf.State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4 Village Idiot; 5,6,7 Villagers."""
    return table([W, W, S, G, VI, V, V, V], village_idiots=1)


def idiot_revealed() -> werewolf.State:
    state = idiot_table()
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 0"), (3, "protect 5"))
    state = day(state)
    state, events = run(state, *((s, "vote 4") for s in range(8) if s != 4), (4, "vote 0"))
    assert (
        "The village has voted out Player 5, the Village Idiot: they stay in the game, but lose "
        "their vote. Their card: Village Idiot (R_WEREWOLF-013)."
    ) in texts(events)
    return state


def test_the_village_idiot_survives_the_first_vote_revealed_and_without_a_vote() -> None:
    state = idiot_revealed()
    assert state.is_alive(4) and state.phase is Phase.NIGHT
    assert not state.deaths
    for viewer in (Viewer.of(0), Viewer.of(5), Viewer.parse("spectator")):
        entry = werewolf.view(state, viewer)["seats"][4]
        assert entry["role"] == "village_idiot" and entry["voteless"] is True
    # The next ballot: the Idiot may be voted for but does not vote.
    state, _ = run(state, (0, "pick 6"), (1, "pick 6"), (2, "check 1"), (3, "protect 7"))
    state = day(state)
    assert 4 not in werewolf.actors(state)
    assert werewolf.legal_actions(state, 4) == []
    assert werewolf.VOTE[4] in werewolf.legal_actions(state, 5)
    assert werewolf.view(state, Viewer.of(5))["ballot"]["voters"] == 6
    with pytest.raises(NotYourTurn, match="no longer votes"):
        act(state, 4, "vote 0")
    # Everyone who votes has voted: the ballot closes without the Idiot.
    state, events = run(state, *((s, "vote 4") for s in (0, 1, 2, 3, 5, 7)))
    assert "The village has voted out Player 5. Their card: Village Idiot" in " ".join(
        texts(events)
    )
    assert not state.is_alive(4)
    tally = state.tallies[-1]
    assert tally.abstained == 0 and dict(tally.counts)[4] == 6


def test_the_village_idiot_dies_at_night_like_anyone() -> None:
    state = idiot_table()
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 5"))
    state, _ = act(state, None, "dawn")
    assert not state.is_alive(4)


def test_a_revealed_village_idiot_counts_for_parity() -> None:
    state = idiot_revealed()
    # 2 Werewolves against the Idiot and one more: parity though the Idiot cannot vote.
    assert werewolf.winner(replace_alive(state, {0, 1, 4, 5})) is Team.WEREWOLVES
    assert werewolf.winner(replace_alive(state, {0, 1, 4, 5, 6})) is None


# -- Witch ------------------------------------------------------------------------------------


def witch_table(**options: object) -> werewolf.State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4 Witch; 5 Hunter; 6,7 Villagers."""
    return table([W, W, S, G, WI, H, V, V], witches=1, hunters=1, **options)


def test_the_witch_wakes_once_the_pack_has_chosen_and_learns_whom() -> None:
    state = witch_table()
    assert 4 not in werewolf.actors(state)
    assert werewolf.view(state, Viewer.of(4))["you"]["potions"] == {"heal": True, "poison": True}
    assert "victim" not in werewolf.view(state, Viewer.of(4))["you"]
    state, _ = act(state, 0, "pick 6")
    state, events = act(state, 1, "pick 6")
    told = next(e for e in events if e.type == "witch_told")
    assert told.audience.seats == frozenset({4})
    assert told.text == "The Werewolves have chosen Player 7."
    assert 4 in werewolf.actors(state)
    assert werewolf.view(state, Viewer.of(4))["you"]["victim"] == 6
    legal = [str(a) for a in werewolf.legal_actions(state, 4)]
    assert legal[0] == "heal" and legal[-1] == "no_potion" and "poison 4" not in legal
    # Nobody else learns anything of it.
    for seat in (0, 2, 6):
        assert "victim" not in werewolf.view(state, Viewer.of(seat))["you"]
    script = werewolf.view(state, Viewer.parse("table"))["narration"]
    assert script[-2:] == [
        "Witch, wake. See whom the Werewolves chose, and use a potion, or not.",
        "Witch, sleep.",
    ]


def test_the_witchs_heal_saves_the_target_and_is_spent() -> None:
    state = witch_table()
    state, events = run(
        state, (0, "pick 6"), (1, "pick 6"), (4, "heal"), (2, "check 0"), (3, "protect 7")
    )
    state, events = act(state, None, "dawn")
    assert "No one was eliminated." in texts(events) and len(state.alive) == 8
    assert werewolf.view(state, Viewer.of(4))["you"]["potions"] == {"heal": False, "poison": True}
    # The next night the Witch may no longer heal.
    state, _ = act(state, None, "end_discussion")
    state, _ = run(state, *((s, "abstain") for s in sorted(state.alive)))
    state, _ = run(state, (0, "pick 7"), (1, "pick 7"))
    assert "heal" not in [str(a) for a in werewolf.legal_actions(state, 4)]
    with pytest.raises(IllegalAction, match="once per game"):
        act(state, 4, "heal")


def test_witch_heal_and_guardian_on_the_same_target_save_once_and_spend_the_potion() -> None:
    state = witch_table()
    state, _ = run(
        state, (0, "pick 6"), (1, "pick 6"), (4, "heal"), (2, "check 0"), (3, "protect 6")
    )
    state, events = act(state, None, "dawn")
    assert "No one was eliminated." in texts(events)
    night = state.night_log[-1]
    assert night.protected == (6,) and night.healed == (4,) and night.eliminated is None
    assert 4 in state.heal_used


def test_the_witchs_poison_goes_through_the_guardian_and_victims_are_named_in_seat_order() -> None:
    state = witch_table()
    state, events = run(
        state, (0, "pick 7"), (1, "pick 7"), (4, "poison 2"), (2, "check 0"), (3, "protect 2")
    )
    receipt = next(e for e in events if e.type == "witch_poisons")
    assert receipt.audience.seats == frozenset({4})
    state, events = act(state, None, "dawn")
    said = texts(events)
    # Both deaths, in seat order, in the same words: the day is not told whose is whose.
    assert said[1].startswith("During the night we lost Player 3. Their card: Seer")
    assert said[2].startswith("During the night we lost Player 8. Their card: Villager")
    assert state.night_result == {
        "eliminated": 2,
        "card": "R_WEREWOLF-004",
        "also": [{"eliminated": 7, "card": state.cards[7].id}],
    }
    assert werewolf.view(state, Viewer.of(4))["you"]["potions"] == {"heal": True, "poison": False}


def test_one_potion_a_night() -> None:
    state = witch_table()
    state, _ = run(state, (0, "pick 6"), (1, "pick 6"), (4, "heal"))
    assert 4 not in werewolf.actors(state)
    with pytest.raises(NotYourTurn):
        act(state, 4, "poison 0")


def test_the_witch_poisoning_the_hunter_lets_the_hunter_shoot() -> None:
    state = witch_table()
    state, _ = run(
        state, (0, "pick 6"), (1, "pick 6"), (4, "poison 5"), (2, "check 0"), (3, "protect 6")
    )
    state, _ = act(state, None, "dawn")
    assert state.phase is Phase.HUNT and werewolf.actors(state) == frozenset({5})
    state, _ = act(state, 5, "shoot 0")
    assert state.phase is Phase.DISCUSSION and not state.is_alive(0)


def test_a_witch_without_potions_still_learns_the_target_but_sleeps() -> None:
    state = dataclasses.replace(witch_table(), heal_used=frozenset({4}), poison_used=frozenset({4}))
    state, events = run(state, (0, "pick 6"), (1, "pick 6"))
    assert any(e.type == "witch_told" for e in events)
    assert 4 not in werewolf.actors(state)


def test_the_bots_witch_heals_first() -> None:
    state = witch_table()
    state, _ = run(state, (0, "pick 6"), (1, "pick 6"))
    legal = werewolf.legal_actions(state, 4)
    view = werewolf.view(state, Viewer.of(4))
    for kind in ("rules", "belief"):
        assert str(bots.make("werewolf", kind, 4).act(view, legal, Rng(2))) == "heal"
    assert bots.make("werewolf", "random", 4).act(view, legal, Rng(2)) in legal


# -- Cupid and the Lovers ---------------------------------------------------------------------


def cupid_table() -> werewolf.State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4 Cupid; 5 Hunter; 6,7,8 Villagers."""
    return table([W, W, S, G, C, H, V, V, V], cupids=1, hunters=1)


def linked(a: int, b: int) -> werewolf.State:
    state, _ = act(cupid_table(), 4, f"link {a} {b}")
    return state


def test_cupid_links_two_lovers_on_the_first_night_and_each_learns_the_other() -> None:
    state = cupid_table()
    assert 4 in werewolf.actors(state)
    legal = werewolf.legal_actions(state, 4)
    assert len(legal) == 36 and str(legal[0]) == "link 0 1"
    state, events = act(state, 4, "link 1 6")
    by_type = {e.type: e for e in events}
    assert by_type["cupid_linked"].audience.seats == frozenset({4})
    love = [e for e in events if e.type == "in_love"]
    assert {(next(iter(e.audience.seats)), e.data["partner"]) for e in love} == {(1, 6), (6, 1)}
    assert next(e for e in love if 6 in e.audience.seats).text == (
        "You have fallen in love with Player 2."
    )
    assert werewolf.view(state, Viewer.of(6))["you"]["lover"] == 1
    assert "role" not in werewolf.view(state, Viewer.of(6))["seats"][1]  # the partner's card
    assert werewolf.view(state, Viewer.of(4))["you"]["lovers"] == [1, 6]
    for seat in (0, 2, 5):
        assert "lover" not in werewolf.view(state, Viewer.of(seat))["you"]
    assert "lovers" not in werewolf.view(state, Viewer.parse("spectator"))
    # Lovers of different teams play for each other from now on.
    assert werewolf.seat_teams(state)[1] == werewolf.seat_teams(state)[6] == "lovers"
    with pytest.raises(IllegalAction, match="two different living players"):
        act(cupid_table(), 4, "link 3 3")


def test_cupid_acts_only_on_the_first_night_but_is_called_every_night() -> None:
    state = linked(6, 7)
    script = werewolf.view(state, Viewer.parse("table"))["narration"]
    assert script[-4:] == [
        "Cupid, wake and choose two Lovers.",
        "Cupid, sleep.",
        "Lovers, wake and look at each other.",
        "Lovers, sleep.",
    ]
    state, _ = run(state, (0, "pick 8"), (1, "pick 8"), (2, "check 0"), (3, "protect 6"))
    state = day(state)
    state, _ = run(state, *((s, "abstain") for s in sorted(state.alive)))
    assert state.phase is Phase.NIGHT and 4 not in werewolf.actors(state)
    assert werewolf.view(state, Viewer.parse("table"))["narration"] == script


def test_a_lover_taken_at_night_takes_the_other_with_grief() -> None:
    state = linked(6, 7)
    state, _ = run(state, (0, "pick 6"), (1, "pick 6"), (2, "check 0"), (3, "protect 8"))
    state, events = act(state, None, "dawn")
    said = texts(events)
    assert said[1].startswith("During the night the Werewolves took Player 7.")
    assert said[2].startswith("Heartbroken, their Lover follows: Player 8. Their card:")
    assert [(d.seat, d.by) for d in state.deaths] == [(6, "night"), (7, "grief")]


def test_the_hunter_shooting_a_lover_takes_both_lovers() -> None:
    state = linked(6, 7)
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 0"), (3, "protect 8"))
    state, _ = act(state, None, "dawn")
    state, _ = act(state, 5, "shoot 7")
    assert [(d.seat, d.by) for d in state.deaths] == [(5, "night"), (7, "shot"), (6, "grief")]
    assert state.phase is Phase.DISCUSSION


def test_a_hunter_dying_of_grief_still_shoots() -> None:
    state = linked(5, 6)
    state, _ = run(state, (0, "pick 6"), (1, "pick 6"), (2, "check 0"), (3, "protect 8"))
    state, _ = act(state, None, "dawn")
    assert state.phase is Phase.HUNT and werewolf.actors(state) == frozenset({5})
    state, _ = act(state, 5, "shoot 0")
    assert [(d.seat, d.by) for d in state.deaths] == [(6, "night"), (5, "grief"), (0, "shot")]


def test_lovers_of_different_teams_win_together_as_the_last_two() -> None:
    state = linked(1, 6)
    # Werewolf 1 and Villager 6 are the Lovers; three players live: the vote takes the third.
    state = dataclasses.replace(
        replace_alive(state, {1, 6, 8}), phase=Phase.DISCUSSION, pending=frozenset()
    )
    assert werewolf.winner(state) is None
    state, _ = act(state, None, "end_discussion")
    state, events = run(state, (1, "vote 8"), (6, "vote 8"), (8, "vote 1"))
    assert state.phase is Phase.END
    assert texts(events)[-1] == "The Lovers are the last two alive. Together, they win."
    outcome = werewolf.outcome(state)
    assert outcome is not None and outcome.winning_team == "lovers"
    assert outcome.winners == frozenset({1, 6})


def test_a_werewolf_lover_still_counts_for_parity_until_only_the_lovers_are_left() -> None:
    state = linked(1, 6)
    # The Werewolf Lover and a Werewolf against the Villager Lover and one more: parity, and
    # the Werewolves' win leaves out the Werewolf Lover, who plays for the Lovers.
    state = replace_alive(state, {0, 1, 6, 8})
    assert werewolf.winner(state) is Team.WEREWOLVES
    assert werewolf.rules.winners(state, Team.WEREWOLVES) == frozenset({0})


def test_lovers_of_the_same_team_just_win_with_it() -> None:
    state = linked(6, 7)
    assert werewolf.seat_teams(state)[6] == "town"
    assert werewolf.winner(replace_alive(state, {6, 7})) is Team.TOWN


def test_without_a_link_by_dawn_there_are_no_lovers() -> None:
    state = cupid_table()
    state, _ = run(state, (0, "pick 8"), (1, "pick 8"), (2, "check 0"), (3, "protect 6"))
    state, _ = act(state, None, "dawn")
    assert state.lovers == ()
    assert werewolf.view(state, Viewer.of(4))["you"]["lovers"] == []
    assert werewolf.seat_teams(state)[0] == "werewolves"


def test_the_bots_cupid_links_two_others() -> None:
    state = cupid_table()
    legal = werewolf.legal_actions(state, 4)
    view = werewolf.view(state, Viewer.of(4))
    for kind in ("rules", "belief"):
        action = bots.make("werewolf", kind, 4).act(view, legal, Rng(4))
        assert action in legal and 4 not in action.args


# -- the Sheriff ------------------------------------------------------------------------------


def sheriff_table(*roles: Role, **options: object) -> werewolf.State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; then ``roles`` or Villagers, with a Sheriff."""
    rest = list(roles) or [V, V, V, V]
    return table([W, W, S, G, *rest], sheriff=True, **options)


def elect(state: werewolf.State, sheriff: int) -> werewolf.State:
    """From a fresh first night: no one is taken, and everyone elects ``sheriff``."""
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 0"), (3, "protect 5"))
    state, events = act(state, None, "dawn")
    assert state.phase is Phase.ELECTION
    assert events[-1].text.startswith("Elect a Sheriff")
    voters = [s for s in sorted(state.alive) if s != sheriff]
    state, events = run(state, *((s, f"elect {sheriff}") for s in voters), (sheriff, "abstain"))
    assert state.phase is Phase.DISCUSSION
    assert f"Player {sheriff + 1} is the Sheriff." in " ".join(texts(events))
    return state


def test_the_first_day_opens_with_the_sheriffs_election() -> None:
    state = elect(sheriff_table(), 6)
    assert state.sheriff == 6
    for viewer in (Viewer.of(0), Viewer.parse("spectator")):
        assert werewolf.view(state, viewer)["sheriff"] == 6
    # Only on the first day: the next day goes straight to the discussion.
    state, _ = act(state, None, "end_discussion")
    state, _ = run(state, *((s, "abstain") for s in sorted(state.alive)))
    state, _ = run(state, (0, "pick 7"), (1, "pick 7"), (2, "check 1"), (3, "protect 4"))
    state, _ = act(state, None, "dawn")
    assert state.phase is Phase.DISCUSSION


def test_the_election_is_secret_until_it_closes() -> None:
    state = sheriff_table()
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 0"), (3, "protect 5"))
    state, _ = act(state, None, "dawn")
    state, _ = act(state, 2, "elect 6")
    public = werewolf.view(state, Viewer.of(4))
    assert public["election"] == {"candidates": list(range(8)), "cast": 1, "voters": 8}
    assert "votes" not in public["election"] and public["you"]["voted"] is False
    with pytest.raises(IllegalAction, match="another living player"):
        act(state, 4, "elect 4")
    with pytest.raises(NotYourTurn, match="already voted in the Sheriff's election"):
        act(state, 2, "elect 5")


def test_the_sheriffs_vote_counts_twice() -> None:
    state = elect(sheriff_table(), 6)
    state, _ = act(state, None, "end_discussion")
    # Two votes for Player 1; the Sheriff and one more for Player 2: without the badge a tie,
    # with it 3 against 2.
    state, events = run(
        state,
        (2, "vote 0"),
        (3, "vote 0"),
        (6, "vote 1"),
        (7, "vote 1"),
        *((s, "abstain") for s in (0, 1, 4, 5)),
    )
    assert dict(state.tallies[-1].counts) == {0: 2, 1: 3, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0}
    assert "The ballot is closed. Player 1: 2; Player 2: 3." in texts(events)
    assert not state.is_alive(1) and state.phase is Phase.NIGHT


def test_an_eliminated_sheriff_passes_the_badge() -> None:
    state = elect(sheriff_table(), 6)
    state, _ = act(state, None, "end_discussion")
    state, _ = run(state, *((s, "vote 6") for s in range(8) if s != 6), (6, "vote 0"))
    assert state.phase is Phase.BADGE and werewolf.actors(state) == frozenset({6})
    assert werewolf.view(state, Viewer.of(2))["badge"] == {"sheriff": 6}
    with pytest.raises(NotYourTurn, match="passing the badge"):
        act(state, 2, "vote 0")
    state, events = act(state, 6, "pass_badge 4")
    assert "Player 7 passes the badge: Player 5 is the Sheriff." in texts(events)
    assert state.sheriff == 4 and state.phase is Phase.NIGHT


def test_a_sheriff_who_does_not_choose_in_time_loses_the_badge() -> None:
    state = elect(sheriff_table(), 6)
    state, _ = act(state, None, "end_discussion")
    state, _ = run(state, *((s, "vote 6") for s in range(8) if s != 6), (6, "vote 0"))
    deadline = werewolf.deadline(state)
    assert deadline is not None and str(deadline.action) == "no_successor"
    state, events = act(state, None, "no_successor")
    assert "The badge is lost: there is no Sheriff any more." in texts(events)
    assert state.sheriff is None and werewolf.view(state, Viewer.of(0))["sheriff"] is None


def test_an_election_everyone_abstains_from_has_no_sheriff_and_a_tie_is_drawn() -> None:
    state = sheriff_table()
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 0"), (3, "protect 5"))
    state, _ = act(state, None, "dawn")
    nobody, events = run(state, *((s, "abstain") for s in range(8)))
    assert nobody.sheriff is None and "there is no Sheriff" in " ".join(texts(events))
    tied, _ = run(state, (0, "elect 4"), (1, "elect 5"), *((s, "abstain") for s in range(2, 8)))
    assert tied.sheriff in (4, 5) and tied.phase is Phase.DISCUSSION


def test_a_hunter_sheriff_shoots_before_passing_the_badge() -> None:
    state = elect(sheriff_table(H, V, V, V, hunters=1), 4)
    state, _ = act(state, None, "end_discussion")
    state, _ = run(state, *((s, "vote 4") for s in range(8) if s != 4), (4, "vote 0"))
    assert state.phase is Phase.HUNT
    state, _ = act(state, 4, "shoot 7")
    assert state.phase is Phase.BADGE and werewolf.actors(state) == frozenset({4})
    state, _ = act(state, 4, "pass_badge 2")
    assert state.sheriff == 2 and state.phase is Phase.NIGHT


def test_the_bots_back_a_sheriff_and_a_successor() -> None:
    state = sheriff_table()
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 0"), (3, "protect 5"))
    state, _ = act(state, None, "dawn")
    for seat in (0, 4):
        legal = werewolf.legal_actions(state, seat)
        for kind in ("random", "rules", "belief"):
            action = bots.make("werewolf", kind, seat).act(
                werewolf.view(state, Viewer.of(seat)), legal, Rng(5)
            )
            assert action in legal
    # A Werewolf's rules bot backs its packmate.
    wolf = bots.make("werewolf", "rules", 0)
    choice = wolf.act(werewolf.view(state, Viewer.of(0)), werewolf.legal_actions(state, 0), Rng(5))
    assert str(choice) == "elect 1"


# -- the variant roles together ---------------------------------------------------------------


def test_a_tanner_voted_out_wins_though_their_lover_dies_of_grief() -> None:
    state = table([W, W, S, G, T, C, V, V, V], tanners=1, cupids=1)
    state, _ = run(state, (5, "link 4 6"), (0, "pick 7"), (1, "pick 7"), (2, "check 0"))
    state, _ = run(state, (3, "protect 7"))
    state = day(state)
    state, _ = run(state, *((s, "vote 4") for s in range(9) if s != 4), (4, "vote 0"))
    outcome = werewolf.outcome(state)
    assert outcome is not None and outcome.winning_team == "tanner"
    assert outcome.winners == frozenset({4})


def test_the_hunter_shooting_the_tanner_is_no_tanner_win() -> None:
    state = table([W, W, S, G, T, H, V, V], tanners=1, hunters=1)
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"), (2, "check 0"), (3, "protect 7"))
    state, _ = act(state, None, "dawn")
    state, _ = act(state, 5, "shoot 4")
    assert state.phase is Phase.DISCUSSION and werewolf.winner(state) is None


def test_a_poisoned_lover_takes_the_other_and_a_grieving_sheriff_passes_the_badge() -> None:
    state = table([W, W, S, G, WI, C, V, V, V], witches=1, cupids=1, sheriff=True)
    state, _ = run(state, (5, "link 6 7"), (0, "pick 8"), (1, "pick 8"), (3, "protect 8"))
    state, _ = run(state, (4, "no_potion"), (2, "check 0"))
    state, _ = act(state, None, "dawn")
    voters = [s for s in sorted(state.alive) if s != 7]
    state, _ = run(state, *((s, "elect 7") for s in voters), (7, "abstain"))
    assert state.sheriff == 7
    state, _ = act(state, None, "end_discussion")
    state, _ = run(state, *((s, "abstain") for s in sorted(state.alive)))
    # Night 2: the pack and the Witch's poison both take Lover 6 (one death); Lover 7, the
    # Sheriff, dies of grief.
    state, _ = run(state, (0, "pick 6"), (1, "pick 6"), (3, "protect 3"), (4, "poison 6"))
    state, _ = run(state, (2, "check 1"))
    state, _ = act(state, None, "dawn")
    assert [(d.seat, d.by) for d in state.deaths] == [(6, "night"), (7, "grief")]
    assert state.phase is Phase.BADGE and werewolf.actors(state) == frozenset({7})
    state, _ = act(state, 7, "pass_badge 2")
    assert state.sheriff == 2 and state.phase is Phase.DISCUSSION
