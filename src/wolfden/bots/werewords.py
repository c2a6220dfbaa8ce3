"""Werewords bots. ``rules`` plays whole rounds unattended from its own view only.

Questions are asked in two plain forms the rules bots understand:
``Is it in the category "Animals"?`` and ``Is it "giraffe"?``; a rules Mayor also reads a
guess or a category in ordinary words ("is it giraffe", "giraffe?", "GIRAFFE", "Is it an
animal?"). A rules Mayor answers them
from the hidden truth it holds as Mayor (the word and its built-in category); anything else
gets a Maybe while Maybe tokens last. The Seer steers towards the word without rushing, the
Werewolves steer away, and in the endings the bots read the public token log.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Seat
from wolfden.games.werewords.rules import clue_problem
from wolfden.words.builtin import CATEGORY_TITLES, DIFFICULTIES, ENTRIES, lookup
from wolfden.words.validate import fold

CATEGORY_Q = 'Is it in the category "{}"?'
GUESS_Q = 'Is it "{}"?'
_CATEGORY = re.compile(r'Is it in the category "(.+)"\?\Z')
_GUESS = re.compile(r'Is it "(.+)"\?\Z')
SEER_NUDGE = 0.4
"""How often a Seer who knows the word asks for its category while nobody has found it."""
SEER_GUESS = 0.1
"""How often a Seer says the word itself once the category is known (rarely: it shows)."""
_TITLE_TO_ID = {title: cid for cid, title in CATEGORY_TITLES.items()}


# A guess in the words people use: "is it peach", "Is it a peach?", "peach?", "PEACH",
# "is the word 'peach'"; and a category asked the same way: "Is it an animal?".
_GUESS_LEAD = re.compile(
    r"(?:is\s+it|is\s+the\s+(?:magic\s+)?word|the\s+(?:magic\s+)?word\s+is|it\s+is|it's|"
    r"could\s+it\s+be|maybe)\s+",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"(?:an?|the)\s+", re.IGNORECASE)
_WORDS = re.compile(r"[^\W\d_]+(?:[\s'-][^\W\d_]+){0,2}")
_QUESTION_WORDS = frozenset(
    [
        "is",
        "are",
        "am",
        "does",
        "do",
        "did",
        "can",
        "could",
        "would",
        "will",
        "has",
        "have",
        "had",
        "was",
        "were",
        "should",
        "shall",
        "may",
        "might",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "where",
        "when",
        "how",
        "why",
    ]
)
_QUOTES = " \"'\u201c\u201d\u2018\u2019"


def _category_named(text: str) -> str | None:
    """The category a word or phrase names ("animal", "Animals", "food"), if any."""
    key = fold(text)
    for cid, title in CATEGORY_TITLES.items():
        if key in (fold(cid), fold(title), fold(title).removesuffix("s")):
            return cid
    return None


def parse_question(text: str) -> tuple[str, str] | None:
    """('category', id) or ('guess', word) for a question a bot Mayor understands: the two
    exact forms, or a guess or a category in ordinary words; None for anything else."""
    m = _CATEGORY.match(text)
    if m and m.group(1) in _TITLE_TO_ID:
        return "category", _TITLE_TO_ID[m.group(1)]
    m = _GUESS.match(text)
    if m:
        return "guess", m.group(1)
    plain = " ".join(text.split()).rstrip("?!. ").strip(_QUOTES)
    lead = _GUESS_LEAD.match(plain)
    if lead:
        rest = plain[lead.end() :].strip(_QUOTES)
        article = _ARTICLE.match(rest)
        if article and rest[article.end() :]:
            rest = rest[article.end() :]
    else:
        rest = plain
        if not rest or rest.split()[0].casefold() in _QUESTION_WORDS:
            return None
    if not _WORDS.fullmatch(rest):
        return None
    category = _category_named(rest)
    if category is not None:
        return "category", category
    return "guess", rest


def _notes(view: Mapping[str, Any]) -> dict[str, Any]:
    you = view.get("you") or {}
    return {n["kind"]: n["value"] for n in you.get("notes", [])}


def _role(view: Mapping[str, Any]) -> str | None:
    you = view.get("you") or {}
    role = you.get("role_now")
    return str(role) if role is not None else None


class Board:
    """What the public question log says so far."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.yes: set[str] = set()
        self.no: set[str] = set()
        self.asked: set[str] = set()
        self.guessed: set[str] = set()
        for q in view.get("questions", []):
            parsed = parse_question(q["text"])
            if parsed is None:
                continue
            kind, value = parsed
            if kind == "category":
                self.asked.add(value)
                if q["answer"] == "yes":
                    self.yes.add(value)
                elif q["answer"] == "no":
                    self.no.add(value)
            else:
                self.guessed.add(fold(value))


def derailers(view: Mapping[str, Any]) -> dict[int, int]:
    """Per seat: questions that led away from a category the Mayor had already confirmed."""
    out: dict[int, int] = {}
    confirmed: str | None = None
    for q in view.get("questions", []):
        parsed = parse_question(q["text"])
        if parsed is None:
            continue
        kind, value = parsed
        if confirmed is not None:
            entry = lookup(value) if kind == "guess" else None
            off = (
                value != confirmed
                if kind == "category"
                else (entry is not None and entry.category != confirmed)
            )
            if off:
                out[q["seat"]] = out.get(q["seat"], 0) + 1
        if kind == "category" and q["answer"] == "yes":
            confirmed = value
    return out


class RulesBot:
    """Simple, honest-to-its-team play for every decision of Werewords."""

    needs_view = True

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        names = {a.name for a in legal}
        phase = view.get("phase")
        if "claim" in names or "confirm" in names:
            return Action("claim") if "claim" in names else Action("confirm")
        if "choose" in names:
            return self.choose_word(view, legal)
        if "no_clue" in names:
            return self.clue(view, legal, rng)
        if "no_more_tokens" in names:
            # companion mode: the questions are spoken at the table; the bot can only guess
            return legal[rng.below(len(legal))]
        if phase == "day":
            if "ask" in names:
                return Action("ask", (self.question(view, rng),))
            return self.answer(view, legal, rng)
        if "point" in names:
            return self.point(view, legal, rng)
        if "vote" in names:
            return self.vote(view, legal, rng)
        if "ready" in names:
            return Action("ready")
        if "ok" in names:
            return Action("ok")
        return legal[rng.below(len(legal))]

    # -- night ---------------------------------------------------------------------------

    def choose_word(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """A village Mayor picks the word the table is likeliest to find; a Werewolf-Mayor the
        hardest-looking one."""
        choices = (view.get("you") or {}).get("choices") or []
        if not choices:
            return legal[0]

        def ease(i: int) -> tuple[int, int]:
            entry = lookup(choices[i])
            level = DIFFICULTIES.index(entry.difficulty) if entry is not None else 4
            return level, len(choices[i])

        order = sorted(range(len(choices)), key=ease)
        pick = order[-1] if _role(view) == "werewolf" else order[0]
        return Action("choose", (pick,))

    def clue(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """Speedwords: a Werewolf's clue points at another category."""
        word = view.get("word") or ""
        entry = lookup(word)
        others = [
            e.word
            for e in ENTRIES
            if e.word.isalpha() and (entry is None or e.category != entry.category)
        ]
        for _ in range(10):
            clue = others[rng.below(len(others))]
            if clue_problem(clue, word) is None:
                return Action("clue", (clue,))
        return Action("no_clue")

    # -- day -----------------------------------------------------------------------------

    def question(self, view: Mapping[str, Any], rng: Rng) -> str:
        board = Board(view)
        notes = _notes(view)
        word = view.get("word")
        role = _role(view)
        truth = lookup(word) if word else None
        if role == "werewolf" and truth is not None:
            wrong = [c for c in CATEGORY_TITLES if c != truth.category and c not in board.asked]
            if wrong and rng.chance(0.7):
                return CATEGORY_Q.format(CATEGORY_TITLES[wrong[rng.below(len(wrong))]])
            return self.village_question(view, board, rng, avoid=word)
        if role == "minion" and board.yes and rng.chance(0.6):
            # the Minion does not know the word but can still lead the table astray
            others = [c for c in CATEGORY_TITLES if c not in board.yes]
            return CATEGORY_Q.format(CATEGORY_TITLES[others[rng.below(len(others))]])
        if word and role != "werewolf":
            if truth is not None and truth.category not in board.yes and rng.chance(SEER_NUDGE):
                return CATEGORY_Q.format(CATEGORY_TITLES[truth.category])
            if (truth is None or truth.category in board.yes) and rng.chance(SEER_GUESS):
                return GUESS_Q.format(word)
        return self.village_question(view, board, rng, letters=notes.get("letters"))

    def village_question(
        self,
        view: Mapping[str, Any],
        board: Board,
        rng: Rng,
        *,
        letters: str | None = None,
        avoid: str | None = None,
    ) -> str:
        difficulty = view.get("difficulty", "medium")
        levels = {difficulty, DIFFICULTIES[max(0, DIFFICULTIES.index(difficulty) - 1)]}
        if board.yes:
            category = sorted(board.yes)[0]
            words = [
                e.word
                for e in ENTRIES
                if e.category == category
                and e.difficulty in levels
                and fold(e.word) not in board.guessed
                and (avoid is None or fold(e.word) != fold(avoid))
            ]
            if letters:
                starts = tuple(p.casefold() for p in letters.split(" "))
                hinted = [w for w in words if fold(w).startswith(starts[0])]
                words = hinted or words
            if words:
                return GUESS_Q.format(words[rng.below(len(words))])
        unasked = [c for c in CATEGORY_TITLES if c not in board.asked]
        if unasked:
            return CATEGORY_Q.format(CATEGORY_TITLES[unasked[rng.below(len(unasked))]])
        pool = [e.word for e in ENTRIES if e.difficulty in levels]
        return GUESS_Q.format(pool[rng.below(len(pool))])

    def answer(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The Mayor answers the oldest open question from the truth it holds."""
        available = {str(a.args[1]) for a in legal if a.name == "answer"}
        open_questions = [q for q in view.get("questions", []) if q["answer"] is None]
        if not open_questions:
            # Spoken questions only (typed questions off): a bot cannot hear them, so it
            # hands out the noncommittal answer a Mayor gives to an unclear question.
            gives = [a for a in legal if a.name == "give" and a.args[1] in ("maybe", "no")]
            maybes = [a for a in gives if a.args[1] == "maybe"]
            pool = maybes or gives or list(legal)
            return pool[rng.below(len(pool))]
        q = open_questions[0]
        word = view.get("word") or ""
        truth = lookup(word)
        liar = _role(view) == "werewolf"
        parsed = parse_question(q["text"])
        token = "maybe" if "maybe" in available else "no"
        if parsed is not None and parsed[0] == "guess":
            guess = fold(parsed[1])
            if guess == fold(word):
                token = "correct"
            elif len(guess) >= 4 and (guess in fold(word) or fold(word) in guess):
                token = "so_close" if "so_close" in available else "no"
            else:
                token = "no"
        elif parsed is not None and truth is not None:
            right = parsed[1] == truth.category
            if liar and rng.chance(0.5):
                right = not right
            token = "yes" if right else "no"
        elif fold(word) and fold(word) in fold(q["text"]):
            token = "so_close" if "so_close" in available else "yes"
        if token not in available:
            token = "no"
        return Action("answer", (q["id"], token))

    # -- endings -------------------------------------------------------------------------

    def point(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The Werewolves' guess: whoever the log shows knowing too much (Yes and So Close
        tokens, the right category asked early)."""
        wolves = {int(s) for s, r in (view.get("revealed") or {}).items() if r == "werewolf"}
        received = view.get("received", [])
        best: list[Action] = []
        top = -1.0
        for action in legal:
            target = int(action.args[0])
            if target in wolves:
                continue
            tokens = received[target] if target < len(received) else {}
            score = (
                tokens.get("yes", 0)
                + 2 * tokens.get("so_close", 0)
                + 3 * tokens.get("correct", 0)
                + rng.random() * 0.5
            )
            if score > top:
                best, top = [action], score
        return best[0] if best else legal[rng.below(len(legal))]

    def vote(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The village votes for whoever wasted the most tokens; a Werewolf or the Minion for
        the most suspicious player who is not a Werewolf."""
        notes = _notes(view)
        role = _role(view)
        friends: set[int] = set()
        for kind in ("masons", "werewolves"):
            friends.update(int(s) for s in notes.get(kind, []))
        friends.update(int(s) for s, _ in notes.get("seers", []))
        if "thing" in notes:
            friends.add(int(notes["thing"]))
        received = view.get("received", [])
        derailing = derailers(view)
        best: list[Action] = []
        top = -1e9
        for action in legal:
            target = int(action.args[0])
            if target in friends:
                continue
            tokens = received[target] if target < len(received) else {}
            score = (
                2 * derailing.get(target, 0)
                + 0.5 * tokens.get("no", 0)
                + tokens.get("way_off", 0)
                - 0.5 * tokens.get("yes", 0)
            ) + rng.random()
            if role in ("werewolf", "minion"):
                score = -score + rng.random()
            if score > top:
                best, top = [action], score
        return best[0] if best else legal[rng.below(len(legal))]


BOTS = {"rules": RulesBot}
