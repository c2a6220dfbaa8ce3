"""Werewords in the terminal: what one viewer sees, labels for the menu, word-list flags."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from wolfden.engine.types import Action
from wolfden.games.werewords.questions import Form, form_problem

_PHASE = {
    "claim_mayor": "Who has the Mayor card?",
    "night": "Night",
    "day": "Day: find the Magic Word",
    "pointing": "The word was found: the Werewolves point",
    "discussion": "The word stayed hidden: discussion",
    "voting": "The vote",
    "report": "Tell the app who was found",
    "result": "Result",
    "over": "The match is over",
}
_TOKEN = {
    "yes": "Yes",
    "no": "No",
    "maybe": "Maybe",
    "so_close": "So Close",
    "way_off": "Way Way Off",
    "correct": "Correct",
    "yes_no": "Yes/No",
}
_ROLE = {
    "villager": "Villager",
    "seer": "Seer",
    "fortune_teller": "Fortune Teller",
    "apprentice": "Apprentice",
    "werewolf": "Werewolf",
    "minion": "Minion",
    "mason": "Mason",
    "thing": "Thing",
    "beholder": "Beholder",
    "doppelganger": "Doppelgänger",
}

FREE_TEXT = {"ask": 140, "clue": 40}
"""Actions whose text a person types: ``ask "Is it alive?"``, ``clue "stripes"``."""


def text_problem(action: Action, view: Mapping[str, Any]) -> str | None:
    """Why the game would refuse this typed question or clue, if it would."""
    text = str(action.args[0]) if action.args else ""
    if action.name == "ask":
        if not text.isprintable():
            return "a question is plain text without control characters"
        return None
    if action.name == "clue":
        from wolfden.games.werewords.rules import clue_problem

        return clue_problem(text, str(view.get("word") or ""))
    return None


def _names_of(view: Mapping[str, Any]) -> dict[int, str]:
    return {int(s["seat"]): str(s["name"]) for s in view.get("seats", [])}


def _seat_name(seat: int, names: Mapping[int, str]) -> str:
    name = names.get(seat)
    return f"{name} (seat {seat})" if name else f"seat {seat}"


def _note(note: Mapping[str, Any], names: Mapping[int, str]) -> str:
    kind, value = note["kind"], note["value"]
    if kind == "word":
        return f'the Magic Word is "{value}"'
    if kind == "letters":
        return f"the Magic Word begins: {value}"
    if kind == "werewolves":
        return "the Werewolves: " + (", ".join(_seat_name(s, names) for s in value) or "only you")
    if kind == "masons":
        return "the other Mason: " + ", ".join(_seat_name(s, names) for s in value)
    if kind == "seers":
        return "you see: " + (
            ", ".join(f"{_seat_name(s, names)} ({_ROLE[r]})" for s, r in value) or "nobody else"
        )
    if kind == "thing":
        return f"the Thing next to you is {_seat_name(value, names)}"
    if kind == "bumped":
        return f"you bumped {_seat_name(value, names)}"
    if kind == "copied":
        return f"you looked at {_seat_name(value[0], names)}: you are now a {_ROLE[value[1]]}"
    if kind == "mayor_is_seer":
        return (
            "the Mayor is the Seer: you are the Seer now" if value else "the Mayor is not the Seer"
        )
    return f"{kind}: {value}"


def render(view: Mapping[str, Any]) -> str:
    names = _names_of(view)
    phase = _PHASE.get(view["phase"], view["phase"])
    if view["phase"] == "night" and view.get("step"):
        phase += f": {view['step'].replace('_', ' ')}"
    lines = [f"== Werewords · round {view['round']} · {phase} =="]
    facts = [f"{view['players']} players", f"difficulty {view['difficulty']}"]
    if view.get("mayor") is not None:
        facts.insert(0, f"Mayor: {_seat_name(view['mayor'], names)}")
    if view.get("timer"):
        facts.append(f"timer {int(view['timer']['seconds'])} s")
    if view["mode"] == "companion":
        facts.append("companion mode")
    lines.append(" · ".join(facts))
    lines.append(
        "Tokens left: " + " · ".join(f"{_TOKEN[k]} {n}" for k, n in view["tokens"].items())
    )
    you = view.get("you")
    if you:
        role = you.get("role")
        who = f"You are {_seat_name(you['seat'], names)}"
        if role:
            who += f", {_ROLE[role]}"
            if you.get("role_now") and you["role_now"] != role:
                who += f" (now {_ROLE[you['role_now']]})"
        if you.get("mayor"):
            who += ", and the Mayor"
        lines.append(who)
        for note in you.get("notes", []):
            lines.append(f"  you learned: {_note(note, names)}")
        if you.get("choices"):
            lines.append("  choose from: " + ", ".join(str(c) for c in you["choices"]))
    screen = view.get("screen")
    if screen:
        shown = {k: v for k, v in screen.items() if k != "for"}
        if shown:
            lines.append(f"Screen for the {screen['for'].replace('_', ' ')}: {shown}")
    if view.get("word"):
        lines.append(f'The Magic Word: "{view["word"]}"')
    if view.get("pattern"):
        lines.append(f"Pattern: {' '.join(view['pattern'])}")
        if view.get("clues"):
            lines.append("Clues from the Werewolves: " + ", ".join(view["clues"]))
    if view["questions"]:
        lines.append("Questions:")
        for q in view["questions"][-8:]:
            answer = _TOKEN.get(q["answer"], "…") if q["answer"] else "…"
            lines.append(f"  {_seat_name(q['seat'], names)}: {q['text']}  → {answer}")
    got = [
        f"{_seat_name(s, names)}: " + ", ".join(f"{_TOKEN[k]} {n}" for k, n in row.items() if n)
        for s, row in enumerate(view["received"])
        if any(row.values())
    ]
    if got:
        lines.append("Tokens received: " + "; ".join(got))
    if view.get("table_way_off"):
        lines.append("Way Way Off lies on the table.")
    if view.get("revealed"):
        lines.append(
            "Cards shown: "
            + ", ".join(
                f"{_seat_name(int(s), names)} {_ROLE[r]}" for s, r in view["revealed"].items()
            )
        )
    result = view.get("result")
    if result:
        team = "village" if result["winning_team"] == "village" else "werewolf"
        lines.append(f"The {team} team wins: {result['reason']}.")
    return "\n".join(lines)


def describe(action: Action, view: Mapping[str, Any]) -> str:
    names = _names_of(view)
    name, args = action.name, action.args
    if name == "ask":
        return 'ask the Mayor a question (type: ask "your question")'
    if name == "ask_word":
        return 'guess the word (type: ask_word "your guess")'
    if name.startswith("ask_"):
        form = Form(name.removeprefix("ask_"), args[0] if args else None)
        return f"ask: {form.text()}" if form_problem(form) is None else str(action)
    if name == "unclear":
        return "give Maybe: I can't judge that one"
    if name == "clue":
        return f'write the clue "{args[0]}" (or type: clue "your word")'
    if name == "answer":
        q = next((q for q in view["questions"] if q["id"] == args[0]), None)
        text = f"“{q['text']}”" if q else f"question {args[0]}"
        return f"answer {text} with {_TOKEN[str(args[1])]}"
    if name == "give":
        return f"give {_seat_name(int(args[0]), names)} a {_TOKEN[str(args[1])]} token"
    if name == "wayoff":
        where = "the table" if args[0] == "table" else _seat_name(int(args[0]), names)
        return f"put Way Way Off on {where}"
    if name == "choose":
        choices = (view.get("you") or {}).get("choices") or []
        return f'choose "{choices[int(args[0])]}"' if int(args[0]) < len(choices) else str(action)
    if name in ("point", "vote", "copy", "found", "correct"):
        verb = {
            "point": "point at",
            "vote": "vote for",
            "copy": "look at the card of",
            "found": "found:",
            "correct": "Correct! guessed by",
        }[name]
        return f"{verb} {_seat_name(int(args[0]), names)}"
    if name == "secret":
        return f"my secret role is {_ROLE[str(args[0])]}"
    labels = {
        "ok": "I have seen it; close my eyes",
        "confirm": "confirm the word",
        "back": "choose again",
        "claim": "I have the Mayor card",
        "ready": "ready to vote",
        "no_clue": "write no clue",
        "no_more_tokens": "no more Yes/No tokens",
        "none_found": "nobody was found",
        "finish": "finish",
        "play_again": "play again",
        "next": "move on now",
        "time_up": "the time is up",
    }
    if name == "whoops":
        return (
            "Whoops: the word was not found after all"
            if not args
            else (f"Whoops: the word was found, by {_seat_name(int(args[0]), names)}")
        )
    if name == "bump":
        return f"bump the player on your {args[0]}"
    if name == "play_again" and args:
        return f"play again at {args[0]}"
    return labels.get(name, str(action))


EXTRA_OPTIONS: list[click.Option] = [
    click.Option(
        ["--word-list", "word_lists"],
        multiple=True,
        help="a custom word list (see `wolfden words list`) for the Mayor's choices; repeat",
    ),
    click.Option(
        ["--builtin-words/--no-builtin-words", "builtin_words"],
        default=True,
        help="also draw from the built-in lists (default: on)",
    ),
    click.Option(
        ["--words-db", "words_db"],
        default=None,
        help="the database holding the word lists (default: wolfden.sqlite3 in your data dir)",
    ),
]


def apply_extra(
    options: dict[str, Any], config_kwargs: dict[str, Any], seat_bots: dict[int, str]
) -> None:
    """Resolve the chosen word lists into the game's word pools before setup."""
    lists = list(options.get("word_lists") or ())
    builtin = bool(options.get("builtin_words", True))
    if not lists and builtin:
        return
    from wolfden.storage.words import SqliteWordStore
    from wolfden.words.library import config_words

    store = SqliteWordStore(options.get("words_db"))
    categories = options.get("cfg_categories") or ()
    age = options.get("cfg_max_age") or "adults"
    words = config_words(
        store, lists=lists, categories=categories, builtin=builtin, max_age=str(age)
    )
    config_kwargs.update({k: list(v) for k, v in words.items()})
