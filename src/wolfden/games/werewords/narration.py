"""The narrator's lines, in wolfden's own words. Plain text; names are filled in by clients."""

from __future__ import annotations

from wolfden.games.werewords.roles import Step

NIGHT_FALLS = "Night falls on the village. Everyone, close your eyes."

STEP_CALL = {
    Step.DOPPELGANGER: "Doppelgänger, wake up and look at another player's role card. "
    "You become that role.",
    Step.MAYOR_ROLE: "Mayor, wake up and tap your secret role.",
    Step.MAYOR_WORD: "Mayor, choose the Magic Word.",
    Step.MAYOR_CONFIRM: "Mayor, this is your Magic Word. Remember it, then close your eyes.",
    Step.SEER: "Seer, wake up and learn the Magic Word.",
    Step.FORTUNE_TELLER: "Fortune Teller, wake up and see how the Magic Word begins.",
    Step.APPRENTICE: "Apprentice, wake up. If the Mayor is the Seer, the Magic Word is yours.",
    Step.WEREWOLVES: "Werewolves, wake up, find each other and learn the Magic Word.",
    Step.MINION: "Minion, wake up and see who the Werewolves are.",
    Step.MASONS: "Masons, wake up and find each other.",
    Step.BEHOLDER: "Beholder, wake up and see who knows the secret.",
    Step.THING: "Thing, wake up and give a neighbour a bump.",
}

STEP_DONE = "Close your eyes."

DAY_BREAKS = (
    "Morning comes. Everyone, open your eyes. Ask the Mayor your questions; the clock runs."
)

CLAIM = "Whoever holds the Mayor card, reveal it and tap to become the Mayor."


def mayor_is(seat_name: str) -> str:
    return f"{seat_name} holds the Mayor card and is the Mayor."


def correct(guesser: str) -> str:
    return (
        f"Correct! {guesser} found the Magic Word. Werewolves, show yourselves and point at "
        "the one you think is the Seer."
    )


def out_of_tokens() -> str:
    return "No more Yes/No tokens. The word stays hidden. Discuss who the Werewolf might be."


def time_up() -> str:
    return "Time is up. The word stays hidden. Discuss who the Werewolf might be."


VOTE_NOW = "Everyone, point at the player you think is a Werewolf."
REPORT_FOUND = "Tell the app how it went: who was found?"
WHOOPS = "Whoops: let's play the other ending instead."
PLAY_AGAIN = "Another round with the same players. Shuffle and deal."
