"""The Werwölfe Kids bot teams remember what their view showed, and forget like children."""

from __future__ import annotations

from wolfden import bots, games
from wolfden.bots.werwoelfe_kids import MemoryBot
from wolfden.engine.rng import Rng
from wolfden.engine.types import Action
from wolfden.games.werwoelfe_kids import VILLAGE, WEREWOLVES, Config, DuelMode
from wolfden.sim.runner import play_match

from ..games.werwoelfe_kids.kids_table import PEOPLE, Table

GAME = games.get("werwoelfe-kids")


def _ask(bot: MemoryBot, t: Table, seat: int, seed: int = 0) -> Action:
    legal = GAME.legal_actions(t.state, seat)
    return bot.act(t.view(seat), legal, Rng(seed))


def test_the_bot_kinds_are_rules_and_three_memory_levels() -> None:
    assert list(bots.kinds("werwoelfe-kids")) == ["random", "rules", "young", "older", "perfect"]


def _placed_by(bot: MemoryBot) -> Table:
    """The standard village, placed while the bot looks on; it says 'done' itself."""
    t = Table()
    for house, person in PEOPLE.items():
        t.do(VILLAGE, f"pick {person}")
        t.do(VILLAGE, f"put {house}")
    assert _ask(bot, t, VILLAGE) == Action("done")
    t.do(VILLAGE, "done")
    return t


def test_a_village_bot_opens_the_house_of_a_person_who_went_missing() -> None:
    village = MemoryBot(VILLAGE, "perfect")
    t = _placed_by(village)
    t.haunt(["B2", "C4", "A4"])
    assert t.view(VILLAGE)["missing"] == ["fritz", "dario"]
    for seed in range(10):
        choice = _ask(village, t, VILLAGE, seed)
        assert choice.name == "open" and choice.args[0] in ("B2", "A4")


def test_a_village_bot_never_opens_a_house_whose_person_it_saw_there() -> None:
    village = MemoryBot(VILLAGE, "perfect")
    t = _placed_by(village)
    t.haunt(["C3", "C4", "C2"])
    for seed in range(30):
        house = str(_ask(village, t, VILLAGE, seed).args[0])
        assert house not in set(PEOPLE) - {"C2"}


def test_a_werewolf_bot_reopens_its_werewolf_and_drives_out_a_person_it_saw() -> None:
    t = Table()
    t.place(PEOPLE)
    wolves = MemoryBot(WEREWOLVES, "perfect")
    for house in ("C3", "C4", "C2"):
        t.do(WEREWOLVES, f"haunt {house}")
        assert _ask(wolves, t, WEREWOLVES) == Action("close")
        t.do(WEREWOLVES, "close")
    t.day_look("A1")
    t.do(WEREWOLVES, "open B2")
    assert _ask(wolves, t, WEREWOLVES) == Action("close")  # and it saw Fritz in B2
    t.do(WEREWOLVES, "close")
    t.day_look("A1")
    opened = _ask(wolves, t, WEREWOLVES)
    assert opened.name == "open" and opened.args[0] in ("C3", "C4", "C2")
    t.do(WEREWOLVES, str(opened))
    move = _ask(wolves, t, WEREWOLVES)
    assert move.name == "move" and t.behind(str(move.args[0])) not in ("werewolf",)


def test_a_young_memory_fades_and_a_perfect_one_does_not() -> None:
    seen = {"day": 0, "houses": [{"house": h, "content": p} for h, p in PEOPLE.items()]}
    young, perfect = MemoryBot(VILLAGE, "young"), MemoryBot(VILLAGE, "perfect")
    rng = Rng(5)
    for bot in (young, perfect):
        bot.observe(seen, rng)
        bot.observe({"day": 10, "houses": []}, rng)
    assert len(perfect.memory) == 10
    assert len(young.memory) < 3


def test_better_memory_wins_more_often() -> None:
    config = Config(duel=DuelMode.ROUNDS)

    def village_wins(village: str, werewolves: str) -> int:
        wins = 0
        for seed in range(80):
            players = {
                VILLAGE: bots.make(GAME.id, village, VILLAGE),
                WEREWOLVES: bots.make(GAME.id, werewolves, WEREWOLVES),
            }
            result = play_match(GAME, config, seed, players)
            wins += result.outcome.winning_team == "village"
        return wins

    assert village_wins("perfect", "young") > village_wins("young", "perfect") + 20


def test_bots_play_every_variant_on_either_side_to_the_end() -> None:
    for i, config in enumerate(GAME.sample_configs()):
        for kind in ("rules", "young", "perfect"):
            players = {
                VILLAGE: bots.make(GAME.id, kind, VILLAGE),
                WEREWOLVES: bots.make(GAME.id, "older", WEREWOLVES),
            }
            outcome = play_match(GAME, config, i, players).outcome
            assert outcome.winning_team in ("village", "werewolves")
            assert outcome.stats["missing"] == 8 or outcome.stats["caught"] == 3
