"""Werwölfe Kids in the terminal: the village drawn with box-drawing characters.

Closed doors are shaded, open doors are drawn with double lines and show what is behind them
(to the team that opened them, for as long as the door stays open). Below the village: the
missing persons in two rows of four, the caught werewolves, the dice duel, what the open door
shows, and the moderator's instruction.

Game flags: ``--vs-bot TEAM`` (a bot team plays TEAM, you the other), ``--memory LEVEL``
(young, older or perfect) and ``--variant too-hard|extra-difficult``.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

import click

from wolfden.bots.werwoelfe_kids import LEVELS
from wolfden.engine.errors import ConfigError
from wolfden.engine.types import Action
from wolfden.games.werwoelfe_kids.pieces import CAST, EASY_DOORS, PLAIN_DOOR

INNER = 10
"""Characters inside a house's box."""

_PHASE = {
    "en": {
        "setup": "Setup",
        "day": "Day",
        "night": "Night",
        "duel": "Dice duel",
        "handover": "Hand-over",
        "over": "The game is over",
    },
    "de": {
        "setup": "Vorbereitung",
        "day": "Tag",
        "night": "Nacht",
        "duel": "Würfelduell",
        "handover": "Übergabe",
        "over": "Das Spiel ist vorbei",
    },
}

_WORDS = {
    "en": {
        "village": "Village team",
        "werewolves": "Werewolf team",
        "you": "You are the",
        "day": "day",
        "missing": "Missing",
        "caught": "Caught werewolves",
        "of": "of",
        "empty": "(empty)",
        "werewolf": "WEREWOLF",
        "werewolf-discovered": "DISCOVERED",
        "behind": "Behind the door of",
        "was": "was",
        "now": "now",
        "duel": "Dice duel at",
        "to_go": "to go",
        "last": "last roll",
        "ready": "ready",
        "notebook": "Notebook",
        "winner": "Winner",
        "waiting": "Not yet placed",
        "picked": "In your hand",
        "moves": "It may go to",
    },
    "de": {
        "village": "Dorf-Team",
        "werewolves": "Werwolf-Team",
        "you": "Ihr seid das",
        "day": "Tag",
        "missing": "Vermisst",
        "caught": "Gefangene Werwölfe",
        "of": "von",
        "empty": "(leer)",
        "werewolf": "WERWOLF",
        "werewolf-discovered": "ENTDECKT",
        "behind": "Hinter der Tür von",
        "was": "war",
        "now": "jetzt",
        "duel": "Würfelduell bei",
        "to_go": "übrig",
        "last": "letzter Wurf",
        "ready": "bereit",
        "notebook": "Notizbuch",
        "winner": "Gewinner",
        "waiting": "Noch nicht verteilt",
        "picked": "In der Hand",
        "moves": "Er darf nach",
    },
}

_NAMES = {p.id: p.name for p in CAST}
_DOORS = {d.id: d for d in (*EASY_DOORS, PLAIN_DOOR)}


def _lang(view: Mapping[str, Any]) -> str:
    return "de" if view.get("language") == "de" else "en"


def _what(content: str, words: Mapping[str, str]) -> str:
    if content == "empty":
        return words["empty"]
    if content in ("werewolf", "werewolf-discovered"):
        return words[content]
    return _NAMES.get(content, content)


def _door_label(door_id: str, lang: str) -> str:
    door = _DOORS.get(door_id)
    if door is None:
        return door_id
    if door is PLAIN_DOOR:
        return door.glyph
    return f"{door.glyph} {door.colour_de if lang == 'de' else door.colour}"


def _box(view: Mapping[str, Any], entry: Mapping[str, Any], lang: str) -> list[str]:
    words = _WORDS[lang]
    opened = bool(entry.get("open"))
    top = _door_label(str(entry["door"]), lang)
    inside = _what(str(entry["content"]), words) if "content" in entry else "▒" * INNER
    if opened:
        return [
            "╔" + "═" * INNER + "╗",
            "║" + top[:INNER].ljust(INNER) + "║",
            "║" + inside[:INNER].center(INNER) + "║",
            "╚" + "═" * INNER + "╝",
        ]
    return [
        "┌" + "─" * INNER + "┐",
        "│" + top[:INNER].ljust(INNER) + "│",
        "│" + inside[:INNER].center(INNER) + "│",
        "└" + "─" * INNER + "┘",
    ]


def render(view: Mapping[str, Any]) -> str:
    lang = _lang(view)
    words = _WORDS[lang]
    phase = _PHASE[lang].get(str(view.get("phase")), str(view.get("phase")))
    lines = [f"══ Werwölfe Kids · {phase} · {words['day']} {view.get('day', 0)} ══"]
    if view.get("you"):
        lines.append(f"{words['you']} {words[str(view['you'])]}.")
    lines.append("")
    cols = int(view["cols"])
    houses = list(view["houses"])
    lines.append("   " + "".join(str(c + 1).center(INNER + 2) for c in range(cols)))
    for r in range(int(view["rows"])):
        row = houses[r * cols : (r + 1) * cols]
        boxes = [_box(view, entry, lang) for entry in row]
        for i in range(4):
            label = str(row[0]["house"])[0] if i == 2 else " "
            lines.append(f" {label} " + "".join(b[i] for b in boxes))
    lines.append("")
    lines.extend(_missing(view, words))
    caught = int(view.get("caught", 0))
    total = int(view.get("werewolves", 3))
    marks = " ".join(["■"] * caught + ["□"] * (total - caught))
    lines.append(f"{words['caught']}: {marks}  ({caught} {words['of']} {total})")
    if "duel" in view:
        lines.append("")
        lines.extend(_duel(view["duel"], words))
    if "peek" in view:
        lines.append("")
        for item in view["peek"]["houses"]:
            found, now = str(item["found"]), str(item["now"])
            text = _what(now, words)
            if found != now:
                text = f"{_what(found, words)} {words['was']} → {words['now']} {text}"
            lines.append(f"{words['behind']} {item['house']}: {text}")
    if "move" in view:
        targets = ", ".join(view["move"]["targets"])
        lines.append(f"{words['moves']}: {targets}")
    if view.get("step") == "place":
        placed = {str(h.get("content")) for h in houses}
        waiting = [p.name for p in CAST if p.id not in placed]
        lines.append(f"{words['waiting']}: {', '.join(waiting)}")
        if view.get("selected"):
            lines.append(f"{words['picked']}: {_NAMES.get(str(view['selected']))}")
    if view.get("notebook"):
        notes = ", ".join(
            f"{n['house']} {_what(str(n['saw']), words)} ({n['day']})" for n in view["notebook"]
        )
        lines.append(f"{words['notebook']}: {notes}")
    if view.get("winner"):
        lines.append("")
        lines.append(f"{words['winner']}: {words[str(view['winner'])]}")
    if view.get("prompt"):
        lines.append("")
        lines.append(f"» {view['prompt']}")
    return "\n".join(lines)


def _missing(view: Mapping[str, Any], words: Mapping[str, str]) -> list[str]:
    missing = [_NAMES.get(str(p), str(p)) for p in view.get("missing", ())]
    needed = int(view.get("missing_to_win", 8))
    slots = [name[:8].center(8) for name in missing] + [" " * 8] * (needed - len(missing))
    out = [f"{words['missing']} ({len(missing)} {words['of']} {needed}):"]
    for start in range(0, needed, 4):
        out.append("  " + "".join(f"[{s}]" for s in slots[start : start + 4]))
    return out


def _duel(duel: Mapping[str, Any], words: Mapping[str, str]) -> list[str]:
    out = [f"{words['duel']} {duel['house']} ({duel['mode']}):"]
    for team in ("village", "werewolves"):
        left = int(duel["dice"][team])
        last = duel["last_roll"][team]
        ready = duel.get("ready", {}).get(team)
        extra = f", {words['ready']}" if ready else ""
        roll = ""
        if last["dice"]:
            roll = f"; {words['last']} {last['dice']} → {'★' * int(last['symbols']) or '–'}"
        out.append(f"  {words[team]:<14} {'⚀ ' * left}({left} {words['to_go']}{roll}{extra})")
    return out


_DESCRIBE = {
    "en": {
        "pick": "Pick {person}",
        "put": "Put {selected} in {house}",
        "undo": "Take the person placed last out again",
        "scatter": "Place the remaining people at random",
        "done": "Done: put the doors on",
        "haunt": "Send a werewolf into {house}",
        "open": "Open the door of {house}",
        "move": "Move the werewolf to {house}",
        "stay": "Leave the werewolf where it is",
        "close": "Close the door",
        "roll": "Roll the dice!",
        "wake": "We are awake",
    },
    "de": {
        "pick": "{person} nehmen",
        "put": "{selected} nach {house} setzen",
        "undo": "Die zuletzt gesetzte Person wieder herausnehmen",
        "scatter": "Die übrigen Personen zufällig verteilen",
        "done": "Fertig: Türen drauf",
        "haunt": "Einen Werwolf nach {house} schicken",
        "open": "Die Tür von {house} öffnen",
        "move": "Den Werwolf nach {house} bewegen",
        "stay": "Den Werwolf dort lassen",
        "close": "Die Tür schließen",
        "roll": "Würfeln!",
        "wake": "Wir sind wach",
    },
}


def describe(action: Action, view: Mapping[str, Any]) -> str:
    lang = _lang(view)
    template = _DESCRIBE[lang].get(action.name)
    if template is None:
        return str(action)
    house = str(action.args[-1]) if action.args else ""
    person = ""
    if action.name == "pick":
        pid = str(action.args[0])
        look = next((c["look"] for c in view.get("cast", ()) if c["id"] == pid), "")
        person = f"{_NAMES.get(pid, pid)} ({look})" if look else _NAMES.get(pid, pid)
    if action.name == "open" and house:
        door = next((h["door"] for h in view.get("houses", ()) if h["house"] == house), "")
        if door and door != PLAIN_DOOR.id:
            house = f"{house} ({_door_label(str(door), lang)})"
    selected = _NAMES.get(str(view.get("selected")), str(view.get("selected")))
    return template.format(house=house, person=person, selected=selected)


TEAM_SEATS = {"village": 0, "werewolves": 1}

EXTRA_OPTIONS: list[click.Option] = [
    click.Option(
        ["--vs-bot", "vs_bot"],
        type=click.Choice(list(TEAM_SEATS)),
        default=None,
        help="a bot team plays this team; you play the other one",
    ),
    click.Option(
        ["--memory", "memory"],
        type=click.Choice(list(LEVELS)),
        multiple=True,
        help="memory of the bot team (young, older, perfect); without --vs-bot give one level "
        "for both teams or two (village, then werewolves)",
    ),
    click.Option(
        ["--variant", "variant"],
        type=click.Choice(["too-hard", "extra-difficult"]),
        multiple=True,
        help="too-hard: a duel at every discovery; extra-difficult: 4x4 village, 13 people, "
        "identical doors (repeat for both)",
    ),
]


def apply_extra(
    options: MutableMapping[str, Any], config_kwargs: dict[str, Any], seat_bots: dict[int, str]
) -> None:
    """Turn ``--variant``, ``--vs-bot`` and ``--memory`` into config values and bot kinds.

    A bot team plays its duels in rounds (the rulings' duel for bots) unless ``--duel`` is given.
    """
    for variant in options.get("variant") or ():
        if variant == "too-hard":
            config_kwargs["too_hard"] = True
        elif variant == "extra-difficult":
            config_kwargs["layout"] = "4x4"
        else:
            raise ConfigError(f"--variant {variant}: use too-hard or extra-difficult")
    levels = list(options.get("memory") or ())
    for level in levels:
        if level not in LEVELS:
            raise ConfigError(f"--memory {level}: use {', '.join(LEVELS)}")
    team = options.get("vs_bot")
    if team is not None:
        if team not in TEAM_SEATS:
            raise ConfigError(f"--vs-bot {team}: use village or werewolves")
        if len(levels) > 1:
            raise ConfigError("--memory: with --vs-bot give one level, for the bot team")
        seat = TEAM_SEATS[team]
        seat_bots[seat] = levels[0] if levels else "older"
        if "human" in options and not options["human"]:
            options["human"] = (1 - seat,)
    elif levels:
        if len(levels) > 2:
            raise ConfigError(
                "--memory: give one level for both teams, or two (village, werewolves)"
            )
        seat_bots[0], seat_bots[1] = levels[0], levels[-1]
    explicit = any(
        config_kwargs.get(key) is not None or options.get(key) is not None
        for key in ("duel", "cfg_duel", "config__duel")
    )
    if (team is not None or levels) and not explicit:
        config_kwargs["duel"] = "rounds"
