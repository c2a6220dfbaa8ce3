"""What the moderator says, in the same calm words every round.

Every night calls every role in the deal, living or not, so the script never tells who is left.
"""

from __future__ import annotations

from wolfden.games.werewolf.state import Card, Role

NIGHT_FALLS = "Night falls. Everyone, close your eyes."
WOLVES_WAKE = "Werewolves, wake and silently choose a target."
WOLVES_SLEEP = "Werewolves, sleep."
SEER_WAKE = "Seer, wake and choose one player to look into."
SEER_SLEEP = "Seer, sleep."
GUARDIAN_WAKE = "Guardian, wake and choose someone to protect."
GUARDIAN_SLEEP = "Guardian, sleep."
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


def night_script(roles_in_deal: set[Role]) -> list[str]:
    """The night's calls: every role that was dealt, every night, in the seed's order."""
    lines = [NIGHT_FALLS]
    if Role.WEREWOLF in roles_in_deal:
        lines += [WOLVES_WAKE, WOLVES_SLEEP]
    if Role.SEER in roles_in_deal:
        lines += [SEER_WAKE, SEER_SLEEP]
    if Role.GUARDIAN in roles_in_deal:
        lines += [GUARDIAN_WAKE, GUARDIAN_SLEEP]
    return lines


def eliminated(name: str, card: Card, by_vote: bool) -> str:
    how = "The village has voted out" if by_vote else "During the night the Werewolves took"
    return f"{how} {name}. Their card: {card.label} ({card.id})."


def seer_answer(name: str, is_wolf: bool) -> str:
    return f"{name} is {'a Werewolf' if is_wolf else 'not a Werewolf'}."
