"""Werewords bots. ``rules`` plays whole rounds unattended from its own view only; ``random``
asks random questions from the list and picks at random wherever the rules leave a choice.

Every bot Mayor, random or not, is honest: it answers a question from the list by its truth
(``wolfden.games.werewords.questions``), gives Correct only to a guess of the word, So Close
to a guess that is near it (the documented measure in ``questions.so_close``), puts Way Way
Off on the table when the last three guesses were all far from the word, and answers free
text it cannot read with Maybe and a public "I can't judge that one". A Mayor who lies is not
a policy of the game; people keep the judgement the physical game gives them.

Guessers search: a villager keeps the built-in words the answers so far allow (the difficulty
played and the one below it, which a Seer-Mayor is offered) and asks the question that splits
them most evenly, guessing once few are left. The Seer steers gently (half the time it asks
the question whose true answer leaves the fewest words); Werewolves who know the word steer
away plausibly (a question that looks useful but whose true answer keeps the most words, and
wrong guesses); in the endings the bots read the public token log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Seat
from wolfden.games.werewords.questions import (
    Form,
    every_form,
    far,
    letters,
    same_word,
    so_close,
    truth,
)
from wolfden.games.werewords.rules import clue_problem
from wolfden.words.builtin import DIFFICULTIES, ENTRIES, lookup

SEER_STEER = 0.5
"""How often a Seer asks the question whose true answer leaves the fewest words."""
GUESS_AT = 3
"""A searcher guesses once this few words are left."""
FORMS = tuple(every_form())


@dataclass(frozen=True, slots=True)
class Word:
    """A built-in word with what the questions ask about it, worked out once."""

    word: str
    difficulty: str
    category: str
    letters: str
    one_word: bool


WORDS = tuple(
    Word(e.word, e.difficulty, e.category, letters(e.word), " " not in e.word.strip())
    for e in ENTRIES
)


def holds(form: Form, w: Word) -> bool:
    """``truth(form, w.word)`` from the worked-out features (the same answers, quicker)."""
    kind, arg = form.kind, form.arg
    if kind == "category":
        return w.category == arg
    if kind == "starts":
        return w.letters.startswith(str(arg))
    if kind == "contains":
        return str(arg) in w.letters
    if kind == "more":
        return len(w.letters) > int(arg or 0)
    if kind == "fewer":
        return len(w.letters) < int(arg or 0)
    if kind == "one_word":
        return w.one_word
    return same_word(str(arg), w.word)


def _form(q: Mapping[str, Any]) -> Form | None:
    raw = q.get("form")
    return None if raw is None else Form(str(raw["kind"]), raw.get("arg"))


def ask(form: Form) -> Action:
    return Action(form.action_name, () if form.arg is None else (form.arg,))


def _notes(view: Mapping[str, Any]) -> dict[str, Any]:
    you = view.get("you") or {}
    return {n["kind"]: n["value"] for n in you.get("notes", [])}


def _role(view: Mapping[str, Any]) -> str | None:
    you = view.get("you") or {}
    role = you.get("role_now")
    return str(role) if role is not None else None


def levels(view: Mapping[str, Any]) -> set[str]:
    difficulty = str(view.get("difficulty", "medium"))
    if difficulty not in DIFFICULTIES:
        return set(DIFFICULTIES)
    return {difficulty, DIFFICULTIES[max(0, DIFFICULTIES.index(difficulty) - 1)]}


class Search:
    """The words the public log still allows, kept up to date as answers arrive (a new
    round, or a log that is not the one read so far, starts again)."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] = ()
        self.read: list[tuple[Any, ...]] = []
        self.words: list[Word] = []
        self.asked: set[Form] = set()

    def update(self, view: Mapping[str, Any]) -> list[Word]:
        questions = view.get("questions", [])
        key = (view.get("round"), view.get("mayor"), view.get("difficulty"))
        seen = [(q["seat"], q["text"], q["answer"]) for q in questions[: len(self.read)]]
        if key != self.key or seen != self.read:
            allowed = levels(view)
            self.key, self.read, self.asked = key, [], set()
            self.words = [w for w in WORDS if w.difficulty in allowed]
        for q in questions[len(self.read) :]:
            if q["answer"] is None:
                break
            self.read.append((q["seat"], q["text"], q["answer"]))
            form = _form(q)
            if form is None:
                continue
            self.asked.add(form)
            self.words = [w for w in self.words if allows(form, q["answer"], w)]
        return self.words


def allows(form: Form, answer: str, w: Word) -> bool:
    """Whether an honest Mayor could have given ``answer`` to ``form`` if the word were w."""
    if form.kind == "word":
        if answer == "so_close":
            return so_close(str(form.arg), w.word)
        if answer in ("no", "way_off"):
            return not same_word(str(form.arg), w.word)
        return True
    if answer == "yes":
        return holds(form, w)
    if answer == "no":
        return not holds(form, w)
    return True


def split(words: Sequence[Word], form: Form) -> int:
    """How many of the words answer Yes."""
    return sum(1 for w in words if holds(form, w))


def yes_counts(words: Sequence[Word]) -> dict[Form, int]:
    """For every question from the list, how many of the words answer Yes (counted in one
    pass over the words rather than one per question)."""
    categories: Counter[str] = Counter()
    starts: Counter[str] = Counter()
    contains: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    one_word = 0
    for w in words:
        categories[w.category] += 1
        starts[w.letters[:1]] += 1
        contains.update(set(w.letters))
        lengths[len(w.letters)] += 1
        one_word += w.one_word
    out: dict[Form, int] = {}
    for form in FORMS:
        kind, arg = form.kind, form.arg
        if kind == "category":
            out[form] = categories[str(arg)]
        elif kind == "starts":
            out[form] = starts[str(arg)]
        elif kind == "contains":
            out[form] = contains[str(arg)]
        elif kind == "more":
            out[form] = sum(c for n, c in lengths.items() if n > int(arg or 0))
        elif kind == "fewer":
            out[form] = sum(c for n, c in lengths.items() if n < int(arg or 0))
        else:
            out[form] = one_word
    return out


def best_questions(words: Sequence[Word], asked: set[Form], top: int) -> list[Form]:
    """The questions that split the words most evenly, best first."""
    n = len(words)
    scored = [
        (min(yes, n - yes), form)
        for form, yes in yes_counts(words).items()
        if form not in asked and 0 < yes < n
    ]
    scored.sort(key=lambda pair: -pair[0])
    return [form for _, form in scored[:top]]


def derailers(view: Mapping[str, Any]) -> dict[int, int]:
    """Per seat: questions that led away from a category the Mayor had already confirmed."""
    out: dict[int, int] = {}
    confirmed: str | None = None
    for q in view.get("questions", []):
        form = _form(q)
        if form is None:
            continue
        if confirmed is not None:
            if form.kind == "category":
                off = form.arg != confirmed
            elif form.kind == "word":
                entry = lookup(str(form.arg))
                off = entry is not None and entry.category != confirmed
            else:
                off = False
            if off:
                out[q["seat"]] = out.get(q["seat"], 0) + 1
        if form.kind == "category" and q["answer"] == "yes":
            confirmed = str(form.arg)
    return out


def honest_answer(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """A bot Mayor's move while a question waits: Way Way Off first when the last three
    guesses were all far from the word, then the true answer."""
    word = str(view.get("word") or "")
    answers = [a for a in legal if a.name == "answer"]
    available = {str(a.args[1]) for a in answers}
    questions = view.get("questions", [])
    qid = int(answers[0].args[0]) if answers else -1
    q = next((q for q in questions if q["id"] == qid), None)
    form = None if q is None else _form(q)
    if Action("wayoff", ("table",)) in legal and word and form is not None and form.kind == "word":
        guesses = [f for f in (_form(q) for q in questions) if f is not None and f.kind == "word"]
        if len(guesses) >= 3 and all(far(str(f.arg), word) for f in guesses[-3:]):
            return Action("wayoff", ("table",))
    if q is None:
        return next((a for a in legal if a.name == "unclear"), legal[0])
    token = judge(form, word)
    if token is None:
        if Action("unclear", (qid,)) in legal:
            return Action("unclear", (qid,))
        token = "maybe"
    if token not in available:
        token = "no" if "no" in available else sorted(available)[0]
    return Action("answer", (qid, token))


def judge(form: Form | None, word: str) -> str | None:
    """The honest token for a question about ``word``; None for free text it cannot read."""
    if form is None:
        return None
    if form.kind == "word":
        if same_word(str(form.arg), word):
            return "correct"
        return "so_close" if so_close(str(form.arg), word) else "no"
    right = truth(form, word)
    if right is None:
        return "maybe"
    return "yes" if right else "no"


def spoken_answer(legal: Sequence[Action], rng: Rng) -> Action:
    """Spoken questions only: a bot cannot hear them, so it gives the noncommittal answer a
    Mayor gives to an unclear question (never Correct: it heard no guess). In companion mode
    it cannot hear a guess either, so it ends the day when asked."""
    if Action("no_more_tokens") in legal:
        return Action("no_more_tokens")
    gives = [a for a in legal if a.name == "give" and a.args[1] in ("maybe", "no")]
    maybes = [a for a in gives if a.args[1] == "maybe"]
    pool = maybes or gives or [a for a in legal if a.name == "wayoff"]
    return pool[rng.below(len(pool))]


def is_mayors_turn(legal: Sequence[Action]) -> bool:
    return any(a.name in ("answer", "give", "unclear", "no_more_tokens") for a in legal)


class RulesBot:
    """Simple, honest-to-its-team play for every decision of Werewords."""

    needs_view = True

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.search = Search()

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        names = {a.name for a in legal}
        phase = view.get("phase")
        if "claim" in names or "confirm" in names:
            return Action("claim") if "claim" in names else Action("confirm")
        if "choose" in names:
            return self.choose_word(view, legal)
        if "no_clue" in names:
            return self.clue(view, legal, rng)
        if phase == "day":
            if "ask" in names:
                return self.question(view, rng)
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

    def question(self, view: Mapping[str, Any], rng: Rng) -> Action:
        words = self.search.update(view)
        notes = _notes(view)
        word = view.get("word")
        role = _role(view)
        if notes.get("letters"):
            starts = str(notes["letters"]).split(" ")[0].casefold()
            hinted = [w for w in words if w.letters.startswith(letters(starts))]
            words = hinted or words
        if not words:
            return ask(FORMS[rng.below(len(FORMS))])
        if role in ("werewolf", "minion") and word:
            return self.steer_away(words, str(word), rng)
        if word and role != "werewolf":
            return self.steer(words, str(word), rng)
        return self.search_question(words, rng)

    def search_question(self, words: Sequence[Word], rng: Rng, avoid: str = "") -> Action:
        """The question that splits the words left most evenly, or a guess when few are."""
        options = best_questions(words, self.search.asked, 3)
        if len(words) <= GUESS_AT or not options:
            pool = [w for w in words if not avoid or not same_word(w.word, avoid)]
            if not pool:  # only the word is left: ask anything else
                return ask(FORMS[rng.below(len(FORMS))])
            return ask(Form("word", pool[rng.below(len(pool))].word))
        return ask(options[0] if rng.chance(0.7) else options[rng.below(len(options))])

    def steer(self, words: Sequence[Word], word: str, rng: Rng) -> Action:
        """The Seer (or anyone on the village team who knows the word): now and then the
        question whose true answer leaves the fewest words."""
        if len(words) > GUESS_AT and rng.chance(SEER_STEER):
            options = best_questions(words, self.search.asked, 6)
            if options:
                left = [
                    (split(words, f) if truth(f, word) else len(words) - split(words, f), f)
                    for f in options
                ]
                return ask(min(left, key=lambda pair: pair[0])[1])
        return self.search_question(words, rng)

    def steer_away(self, words: Sequence[Word], word: str, rng: Rng) -> Action:
        """A Werewolf who knows the word: a question that looks useful (it splits the words
        at least one in five) but whose true answer keeps the most words; or a wrong guess."""
        n = len(words)
        options = [
            f
            for f in best_questions(words, self.search.asked, 12)
            if min(split(words, f), n - split(words, f)) * 5 >= n
        ]
        if n > GUESS_AT and options:
            kept = [
                (split(words, f) if truth(f, word) else n - split(words, f), f) for f in options
            ]
            return ask(max(kept, key=lambda pair: pair[0])[1])
        return self.search_question(words, rng, avoid=word)

    def answer(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The Mayor answers the waiting question honestly."""
        if any(a.name in ("answer", "unclear") for a in legal):
            return honest_answer(view, legal)
        return spoken_answer(legal, rng)

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


class RandomBot:
    """Random questions from the list and random choices, but an honest Mayor."""

    needs_view = True

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        names = {a.name for a in legal}
        if "ask" in names:
            if rng.chance(0.2):
                allowed = levels(view)
                pool = [w for w in WORDS if w.difficulty in allowed]
                return ask(Form("word", pool[rng.below(len(pool))].word))
            return ask(FORMS[rng.below(len(FORMS))])
        if view.get("phase") == "day" and is_mayors_turn(legal):
            if names & {"answer", "unclear"}:
                return honest_answer(view, legal)
            return spoken_answer(legal, rng)
        return legal[rng.below(len(legal))]


BOTS = {"random": RandomBot, "rules": RulesBot}
