"""What the moderator says, in the same calm words every round, and to whom.

Every night calls every role in the deal, living or not, so the script never tells who is left.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from wolfden.engine.types import PUBLIC, Audience, Event
from wolfden.games.werewolf.config import Config
from wolfden.games.werewolf.roles import Card, Role, Team, cards_for
from wolfden.games.werewolf.state import Claim

NIGHT_FALLS = "Night falls. Everyone, close your eyes."
WOLVES_WAKE = "Werewolves, wake and silently choose a target."
WOLVES_SLEEP = "Werewolves, sleep."
SEER_WAKE = "Seer, wake and choose one player to look into."
SEER_SLEEP = "Seer, sleep."
GUARDIAN_WAKE = "Guardian, wake and choose someone to protect."
GUARDIAN_SLEEP = "Guardian, sleep."
MINION_WAKE = "Minion, wake. Werewolves, raise your hand so the Minion can see you."
MINION_SLEEP = "Werewolves, hands down. Minion, sleep."
WITCH_WAKE = "Witch, wake. See whom the Werewolves chose, and use a potion, or not."
WITCH_SLEEP = "Witch, sleep."
CUPID_WAKE = "Cupid, wake and choose two Lovers."
CUPID_SLEEP = "Cupid, sleep."
LOVERS_WAKE = "Lovers, wake and look at each other."
LOVERS_SLEEP = "Lovers, sleep."
LOVERS_WIN = "The Lovers are the last two alive. Together, they win."
DAY_BREAKS = "Day breaks. Everyone, open your eyes."
NO_ONE = "No one was eliminated."
DISCUSS = "Discuss. When the time is up, each living player votes or abstains."
BALLOT_OPEN = "The ballot is open. Vote for a living player, or abstain."
REVOTE_OPEN = "It is a tie. Vote again, only between the tied players."
NO_ELIMINATION_TIE = "The revote is tied again. No one is eliminated today."
NO_ELIMINATION_ABSTAIN = "Everyone abstained. No one is eliminated today."
TOWN_WINS = "Every Werewolf is gone. The Town wins."
WOLVES_WIN = "The Werewolves now match the rest in number. The Werewolves win."
DRAW = "The round limit is reached without a winner. The game is a draw."
TANNER_WINS = "The village has voted out the Tanner. The Tanner wins alone."
DEAL_NOTE = (
    "There were not enough Villager cards for everyone who asked for one, "
    "so you were dealt another role."
)


def night_script(config: Config) -> list[str]:
    """The night's calls: every role that was dealt, every night, in the seed's order, then
    the variant roles that wake."""
    dealt = {card.role for card in cards_for(config)}
    lines = [NIGHT_FALLS]
    if Role.WEREWOLF in dealt:
        lines += [WOLVES_WAKE, WOLVES_SLEEP]
    if Role.SEER in dealt:
        lines += [SEER_WAKE, SEER_SLEEP]
    if Role.GUARDIAN in dealt:
        lines += [GUARDIAN_WAKE, GUARDIAN_SLEEP]
    if Role.MINION in dealt:
        lines += [MINION_WAKE, MINION_SLEEP]
    if Role.WITCH in dealt:
        lines += [WITCH_WAKE, WITCH_SLEEP]
    if Role.CUPID in dealt:  # every night, though Cupid acts only on the first
        lines += [CUPID_WAKE, CUPID_SLEEP, LOVERS_WAKE, LOVERS_SLEEP]
    return lines


def win_line(team: Team | None) -> str:
    if team is None:
        return DRAW
    if team is Team.TANNER:
        return TANNER_WINS
    if team is Team.LOVERS:
        return LOVERS_WIN
    return TOWN_WINS if team is Team.TOWN else WOLVES_WIN


# -- the announcements as events ----------------------------------------------------------------


def night_falls(config: Config) -> list[Event]:
    return [Event("narration", {"phase": "night"}, PUBLIC, line) for line in night_script(config)]


def pack_pick(config: Config, pack: Iterable[int], seat: int, target: int, round: int) -> Event:
    names = config.display_names
    return Event(
        "pack_pick",
        {"seat": seat, "target": target, "round": round},
        Audience.of(pack),
        f"{names[seat]} picks {names[target]}.",
    )


def pack_disagrees(config: Config, pack: Iterable[int], round: int) -> Event:
    of = config.pack_rounds
    return Event(
        "pack_disagrees",
        {"round": round, "of": of},
        Audience.of(pack),
        f"The pack disagrees. Choose again (round {round} of {of}).",
    )


def pack_locked(config: Config, pack: Iterable[int], target: int) -> Event:
    return Event(
        "pack_locked",
        {"target": target},
        Audience.of(pack),
        f"The pack has chosen {config.name(target)}.",
    )


def seer_answer(config: Config, seer: int, target: int, is_werewolf: bool) -> Event:
    answer = "a Werewolf" if is_werewolf else "not a Werewolf"
    return Event(
        "seer_answer",
        {"target": target, "werewolf": is_werewolf},
        Audience.only(seer),
        f"{config.name(target)} is {answer}.",
    )


def protecting(config: Config, guardian: int, target: int) -> Event:
    line = f"You protect {config.name(target)} tonight."
    return Event("protecting", {"target": target}, Audience.only(guardian), line)


def witch_told(config: Config, witch: int, target: int) -> Event:
    line = f"The Werewolves have chosen {config.name(target)}."
    return Event("witch_told", {"target": target}, Audience.only(witch), line)


def witch_heals(config: Config, witch: int, target: int) -> Event:
    line = f"You use your healing potion on {config.name(target)}."
    return Event("witch_heals", {"target": target}, Audience.only(witch), line)


def witch_poisons(config: Config, witch: int, target: int) -> Event:
    line = f"You poison {config.name(target)}."
    return Event("witch_poisons", {"target": target}, Audience.only(witch), line)


def witch_keeps(witch: int) -> Event:
    line = "You keep your potions tonight."
    return Event("witch_keeps", {}, Audience.only(witch), line)


def cupid_linked(config: Config, cupid: int, a: int, b: int) -> Event:
    line = f"You link {config.name(a)} and {config.name(b)} as Lovers."
    return Event("cupid_linked", {"lovers": [a, b]}, Audience.only(cupid), line)


def in_love(config: Config, lover: int, partner: int) -> Event:
    line = f"You have fallen in love with {config.name(partner)}."
    return Event("in_love", {"partner": partner}, Audience.only(lover), line)


def day_breaks() -> Event:
    return Event("narration", {"phase": "day"}, PUBLIC, DAY_BREAKS)


def no_one_taken() -> Event:
    return Event("night_result", {"eliminated": None}, PUBLIC, NO_ONE)


def discuss() -> Event:
    return Event("narration", {"phase": "discussion"}, PUBLIC, DISCUSS)


def claim(config: Config, claim: Claim) -> Event:
    """A public claim of the structured talk, read out in the speaker's words."""
    target = config.name(claim.target) if claim.target is not None else ""
    if claim.kind == "claim_role":
        words = f"I am the {Role(claim.value).title}."
    elif claim.kind == "claim_check":
        result = "a Werewolf" if claim.value == "werewolf" else "not a Werewolf"
        words = f"I checked {target}: {result}."
    elif claim.kind == "suspect":
        words = f"I suspect {target}."
    elif claim.kind == "trust":
        words = f"I trust {target}."
    else:
        words = f"I protected {target}."
    return Event("claim", claim.to_json(), PUBLIC, f"{config.name(claim.seat)}: “{words}”")


def quiet(seat: int) -> Event:
    """The player's receipt: their claims are over for today."""
    return Event(
        "quiet", {"seat": seat}, Audience.only(seat), "You have nothing more to say today."
    )


def ballot_open(candidates: Iterable[int], revote: bool) -> Event:
    line = REVOTE_OPEN if revote else BALLOT_OPEN
    return Event("ballot_open", {"candidates": list(candidates), "revote": revote}, PUBLIC, line)


def vote_cast(voter: int, target: int | None) -> Event:
    """The voter's private receipt."""
    return Event("vote_cast", {"target": target}, Audience.only(voter), "Your vote is in.")


def tally(config: Config, data: dict[str, Any], counts: dict[int, int]) -> Event:
    """The closed ballot's tally, read out: each candidate with a vote and their count."""
    parts = [f"{config.name(seat)}: {n}" for seat, n in counts.items() if n]
    line = "; ".join(parts) + "." if parts else "No votes were cast."
    return Event("tally", data, PUBLIC, "The ballot is closed. " + line)


def no_elimination(why: str) -> Event:
    line = NO_ELIMINATION_TIE if why == "tie" else NO_ELIMINATION_ABSTAIN
    return Event("no_elimination", {"why": why}, PUBLIC, line)


ELIMINATED_HOW = {
    "vote": "The village has voted out",
    "night": "During the night the Werewolves took",
    "shot": "The Hunter took",
    "grief": "Heartbroken, their Lover follows:",
}


def eliminated(config: Config, seat: int, card: Card, by: str) -> Event:
    how = ELIMINATED_HOW[by]
    if by == "night" and config.witches:  # the pack or a poison: the day is not told which
        how = "During the night we lost"
    return Event(
        "eliminated",
        {
            "seat": seat,
            "role": card.role.value,
            "card": card.id,
            "by": by,
        },
        PUBLIC,
        f"{how} {config.name(seat)}. Their card: {card.label} ({card.id}).",
    )


def idiot_revealed(config: Config, seat: int, card: Card) -> Event:
    return Event(
        "idiot_revealed",
        {"seat": seat, "role": card.role.value, "card": card.id},
        PUBLIC,
        f"The village has voted out {config.name(seat)}, the Village Idiot: they stay in the "
        f"game, but lose their vote. Their card: {card.label} ({card.id}).",
    )


ELECTION_OPEN = (
    "Elect a Sheriff: vote for another living player, or abstain. The Sheriff's vote counts twice."
)
BADGE = "The Sheriff has fallen and passes the badge to a living player."


def election_open() -> Event:
    return Event("election_open", {}, PUBLIC, ELECTION_OPEN)


def sheriff_elected(
    config: Config, sheriff: int | None, counts: dict[int, int], votes: dict[str, int | None] | None
) -> Event:
    data: dict[str, Any] = {"sheriff": sheriff, "counts": {str(c): n for c, n in counts.items()}}
    if votes is not None:
        data["votes"] = votes
    parts = [f"{config.name(seat)}: {n}" for seat, n in counts.items() if n]
    if sheriff is None:
        line = "Everyone abstained: there is no Sheriff."
    else:
        line = f"{'; '.join(parts)}. {config.name(sheriff)} is the Sheriff."
    return Event("sheriff_elected", data, PUBLIC, line)


def badge_to_pass(config: Config, sheriff: int) -> Event:
    return Event(
        "badge",
        {"sheriff": sheriff},
        PUBLIC,
        f"{config.name(sheriff)} was the Sheriff and passes the badge to a living player.",
    )


def badge_passed(config: Config, old: int, new: int) -> Event:
    line = f"{config.name(old)} passes the badge: {config.name(new)} is the Sheriff."
    return Event("badge_passed", {"from": old, "sheriff": new}, PUBLIC, line)


def badge_lost() -> Event:
    return Event("badge_lost", {}, PUBLIC, "The badge is lost: there is no Sheriff any more.")


HUNT = "A Hunter has fallen and takes one living player with them."


def hunter_wakes(config: Config, hunter: int) -> Event:
    return Event(
        "hunt",
        {"hunter": hunter},
        PUBLIC,
        f"{config.name(hunter)} was the Hunter and takes one living player with them.",
    )


def hunter_missed(config: Config, hunter: int) -> Event:
    return Event(
        "no_shot", {"hunter": hunter}, PUBLIC, f"{config.name(hunter)} took no one with them."
    )


def game_over(team: Team | None, cards: tuple[Card, ...]) -> Event:
    """The end: the winner, and every card revealed."""
    roles = {
        str(seat): {"role": card.role.value, "card": card.id} for seat, card in enumerate(cards)
    }
    winner = team.value if team else None
    return Event("game_over", {"winner": winner, "roles": roles}, PUBLIC, win_line(team))
