"""What the moderator says, in English and German (the project's own wording).

Every line is a template keyed by a short name; ``say(language, key, **values)`` fills it in.
Sound cues ("Kikeriki!", "Ahuuuu!", "Gefunden!") are events of type ``cue`` whose ``cue``
names the sound; their narration line is in ``text``.
"""

from __future__ import annotations

from wolfden.games.werwoelfe_kids.config import Language

TEXTS: dict[str, tuple[str, str]] = {
    "team.village": ("Village team", "Dorf-Team"),
    "team.werewolves": ("Werewolf team", "Werwolf-Team"),
    # setup
    "doors_on": (
        "The doors go on. Village team, turn around and close your eyes! Werewolf team, open "
        "your eyes and choose 3 houses for your werewolves.",
        "Die Türen kommen auf die Häuser. Dorf-Team, dreht euch um und schließt die Augen! "
        "Werwolf-Team, öffnet die Augen und wählt 3 Häuser für eure Werwölfe.",
    ),
    "missing": ("{name} has gone missing!", "{name} wird vermisst!"),
    "door_closes": ("The door closes again.", "Die Tür schließt sich wieder."),
    "doors_close": ("The doors close again.", "Die Türen schließen sich wieder."),
    # day
    "day": (
        "Kikeriki! Werewolf team, close your eyes. Village team, wake up: you may look into "
        "exactly one house.",
        "Kikeriki! Werwolf-Team, Augen zu. Dorf-Team, wacht auf: ihr dürft in genau ein Haus "
        "schauen.",
    ),
    "nothing_found": (
        "The Village team found no werewolf.",
        "Das Dorf-Team hat keinen Werwolf gefunden.",
    ),
    "found": (
        "Found! A werewolf in {house}! Everybody wake up: dice duel!",
        "Gefunden! Ein Werwolf in {house}! Alle aufwachen: Würfelduell!",
    ),
    "caught_discovered": (
        "The Village team found a discovered werewolf and caught it!",
        "Das Dorf-Team hat einen entdeckten Werwolf gefunden und gefangen!",
    ),
    # night
    "night": (
        "Ahuuuu! Village team, close your eyes. Werewolf team, wake up and lift one door.",
        "Ahuuuu! Dorf-Team, Augen zu. Werwolf-Team, wacht auf und hebt eine Tür hoch.",
    ),
    "escape_night": (
        "Ahuuuu! Village team, close your eyes. Werewolf team, wake up: your discovered "
        "werewolf escapes tonight.",
        "Ahuuuu! Dorf-Team, Augen zu. Werwolf-Team, wacht auf: euer entdeckter Werwolf flieht "
        "heute Nacht.",
    ),
    # duel
    "roll": (
        "{team} rolls {n} and gets {k} symbol(s): {left} still to roll.",
        "{team} würfelt mit {n} und hat {k} Symbol(e): noch {left} zu würfeln.",
    ),
    "ready": ("{team} is ready to roll.", "{team} ist bereit zum Würfeln."),
    "shared_finish": (
        "Both teams finished at the same time: roll again!",
        "Beide Teams sind gleichzeitig fertig: noch einmal würfeln!",
    ),
    "duel_village": (
        "The Village team wins the duel: the werewolf is caught!",
        "Das Dorf-Team gewinnt das Duell: der Werwolf ist gefangen!",
    ),
    "duel_werewolves": (
        "The Werewolf team wins the duel: the werewolf turns to its Discovered side and hides "
        "in {house}. Next night it escapes.",
        "Das Werwolf-Team gewinnt das Duell: der Werwolf wird auf die entdeckte Seite gedreht "
        "und versteckt sich in {house}. In der nächsten Nacht flieht er.",
    ),
    # hand-over and the end
    "win_village": (
        "All 3 werewolves are caught. The Village team wins!",
        "Alle 3 Werwölfe sind gefangen. Das Dorf-Team gewinnt!",
    ),
    "win_werewolves": (
        "8 people are missing. The Werewolf team wins!",
        "8 Personen werden vermisst. Das Werwolf-Team gewinnt!",
    ),
    # prompts shown in a view
    "p.place": (
        "Place {n} people: pick a person, then a house ({placed} placed). Remember who lives "
        "where!",
        "Verteilt {n} Personen: wählt eine Person, dann ein Haus ({placed} verteilt). Merkt euch, "
        "wer wo wohnt!",
    ),
    "p.place_wait": (
        "The Village team is placing its people. Werewolf team: eyes closed!",
        "Das Dorf-Team verteilt seine Personen. Werwolf-Team: Augen zu!",
    ),
    "p.haunt": (
        "Choose a house for werewolf {k} of 3.",
        "Wählt ein Haus für Werwolf {k} von 3.",
    ),
    "p.haunt_wait": (
        "The Werewolf team is sneaking into the village. Village team: eyes closed!",
        "Das Werwolf-Team schleicht ins Dorf. Dorf-Team: Augen zu!",
    ),
    "p.day": ("Choose one house to look into.", "Wählt ein Haus, in das ihr schaut."),
    "p.day_wait": ("It is day. Werewolf team: eyes closed!", "Es ist Tag. Werwolf-Team: Augen zu!"),
    "p.peek": (
        "Look closely and remember! The door closes by itself.",
        "Schaut genau hin und merkt es euch! Die Tür schließt sich von selbst.",
    ),
    "p.night": ("Lift one door.", "Hebt eine Tür hoch."),
    "p.night_wait": (
        "It is night. Village team: eyes closed!",
        "Es ist Nacht. Dorf-Team: Augen zu!",
    ),
    "p.move": (
        "Move your werewolf from {frm} up to 2 houses (no diagonals), or let it stay.",
        "Bewegt euren Werwolf von {frm} bis zu 2 Häuser weit (nicht schräg) oder lasst ihn "
        "bleiben.",
    ),
    "p.escape": (
        "Your discovered werewolf in {frm} escapes: up to 2 houses (no diagonals), or it stays.",
        "Euer entdeckter Werwolf in {frm} flieht: bis zu 2 Häuser weit (nicht schräg) oder er "
        "bleibt.",
    ),
    "p.duel_race": (
        "Dice duel in {house}! Roll your dice as fast as you can.",
        "Würfelduell in {house}! Würfelt so schnell ihr könnt.",
    ),
    "p.duel_rounds": (
        "Dice duel in {house}! Both teams roll once per round.",
        "Würfelduell in {house}! Beide Teams würfeln einmal pro Runde.",
    ),
    "p.found_wolf": (
        "A werewolf of yours is in {frm}!",
        "In {frm} ist einer eurer Werwölfe!",
    ),
    "p.drove_out": (
        "Your werewolf drove {name} out of {to} and moved in.",
        "Euer Werwolf hat {name} aus {to} vertrieben und ist eingezogen.",
    ),
    "p.blocked": (
        "Another werewolf already lives in {to}: yours went back to {frm}.",
        "In {to} wohnt schon ein Werwolf: eurer ist zurück nach {frm} gegangen.",
    ),
    "p.moved_in": (
        "{to} was empty: your werewolf moved in.",
        "{to} war leer: euer Werwolf ist eingezogen.",
    ),
    "p.caught": (
        "You caught the discovered werewolf! The house is empty now.",
        "Ihr habt den entdeckten Werwolf gefangen! Das Haus ist jetzt leer.",
    ),
    "p.haunted": (
        "Your werewolf moved into {house}.",
        "Euer Werwolf ist in {house} eingezogen.",
    ),
    "p.wake": ("{team}, tap when you are awake.", "{team}, tippt, wenn ihr wach seid."),
    "p.over_village": ("The Village team has won!", "Das Dorf-Team hat gewonnen!"),
    "p.over_werewolves": ("The Werewolf team has won!", "Das Werwolf-Team hat gewonnen!"),
}


def say(language: Language, key: str, **values: object) -> str:
    """The line ``key`` in ``language``; a ``team`` value 0/1 is named in that language."""
    template = TEXTS[key][1 if language is Language.DE else 0]
    if "team" in values and isinstance(values["team"], int):
        values["team"] = team_name(language, values["team"])
    return template.format(**values)


def team_name(language: Language, team: int) -> str:
    return TEXTS["team.werewolves" if team else "team.village"][1 if language is Language.DE else 0]
