"""Werewolf's actions."""

from __future__ import annotations

from wolfden.engine.errors import IllegalAction
from wolfden.engine.types import Action
from wolfden.games.werewolf.config import MAX_PLAYERS

_SEATS = range(MAX_PLAYERS)

PICK = tuple(Action("pick", (s,)) for s in _SEATS)
"""A Werewolf's choice of target for the pack, by seat: ``PICK[3]`` is ``pick 3``."""
CHECK = tuple(Action("check", (s,)) for s in _SEATS)
"""The Seer looks into a player."""
PROTECT = tuple(Action("protect", (s,)) for s in _SEATS)
"""The Guardian shields a player for the night."""
VOTE = tuple(Action("vote", (s,)) for s in _SEATS)
HEAL = Action("heal")
"""The Witch's healing potion: tonight's target of the pack survives."""
POISON = tuple(Action("poison", (s,)) for s in _SEATS)
"""The Witch's poison: the player is eliminated at dawn."""
NO_POTION = Action("no_potion")
"""The Witch keeps their potions tonight."""


def link(a: int, b: int) -> Action:
    """Cupid links two players as Lovers: ``link 2 5`` (the lower seat first)."""
    return Action("link", (min(a, b), max(a, b)))


ELECT = tuple(Action("elect", (s,)) for s in _SEATS)
"""A vote in the Sheriff's election (``abstain`` abstains)."""
PASS_BADGE = tuple(Action("pass_badge", (s,)) for s in _SEATS)
"""An eliminated Sheriff names their successor."""
NO_SUCCESSOR = Action("no_successor")
"""The clock ends an eliminated Sheriff's turn: the badge is lost."""
SHOOT = tuple(Action("shoot", (s,)) for s in _SEATS)
"""An eliminated Hunter takes a living player with them."""
ABSTAIN = Action("abstain")

# Structured talk (with the ``talk`` option): public claims during the discussion. They change
# nothing in the rules, and anyone may lie.
CLAIM_ROLE = "claim_role"
"""``claim_role seer``: "I am the Seer"."""
CLAIM_CHECK = "claim_check"
"""``claim_check 3 werewolf`` / ``claim_check 3 clear``: "I checked Player 4: a Werewolf / not"."""
SUSPECT = "suspect"
"""``suspect 3``: "I suspect Player 4"."""
TRUST = "trust"
"""``trust 3``: "I trust Player 4"."""
CLAIM_PROTECT = "claim_protect"
"""``claim_protect 3``: "I protected Player 4"."""
QUIET = Action("quiet")
"""Nothing more to say today (the player's claims end until the next discussion)."""
CLAIMS = (CLAIM_ROLE, CLAIM_CHECK, SUSPECT, TRUST, CLAIM_PROTECT)
CHECK_RESULTS = ("werewolf", "clear")

DAWN = Action("dawn")
"""The clock ends the night (never before the minimum night length)."""
END_DISCUSSION = Action("end_discussion")
"""The clock or the host ends the day's discussion and opens the ballot."""
CLOSE_BALLOT = Action("close_ballot")
"""The clock closes the ballot; a missing vote counts as an abstention."""
NO_SHOT = Action("no_shot")
"""The clock ends a Hunter's turn: a Hunter who has not shot by then takes no one."""


def target_of(action: Action, name: str, usage: str, players: int) -> int:
    """The seat an action ``name N`` names, or IllegalAction saying what was expected."""
    if action.name != name:
        raise IllegalAction(usage)
    args = action.args
    if len(args) != 1 or not isinstance(args[0], int) or not 0 <= args[0] < players:
        raise IllegalAction(
            f"'{action}' needs one seat number from 0 to {players - 1}, e.g. '{action.name} 2'"
        )
    return args[0]
