"""Questions with a defined truth: the forms a machine can answer, and how they are answered.

Besides free text for people, a player may ask one of these (each an action, see
docs/games/werewords.md):

========================  =====================================  ==========================
action                    asked as                               true when the word ...
========================  =====================================  ==========================
``ask_word "peach"``      Is it "peach"?                         is that word (a guess)
``ask_category food``     Is it in the category "Food and drink"?  is listed in that category
``ask_starts p``          Does it start with "p"?                starts with that letter
``ask_contains e``        Does it contain "e"?                   has that letter anywhere
``ask_more 5``            Has it more than 5 letters?            has more letters than that
``ask_fewer 5``           Has it fewer than 5 letters?           has fewer letters than that
``ask_one_word``          Is it one word?                        has no space in it
========================  =====================================  ==========================

Letters are compared without case and accents ("Äpfel" starts with "a"); only letters and
digits are counted. A guess typed as free text in ordinary words ("is it peach", "Is it a
peach?", "peach?", "PEACH") is read as ``ask_word``. A category is known for the built-in words
only; for any other word its truth is unknown (``None``).
"""

from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass

from wolfden.words.builtin import CATEGORY_TITLES, categories_of

LETTERS = tuple(string.ascii_lowercase)
LENGTHS = tuple(range(1, 21))
MAX_GUESS = 40

KINDS = ("word", "category", "starts", "contains", "more", "fewer", "one_word")
"""The structured forms; the action of each is ``ask_<kind>``."""


@dataclass(frozen=True, slots=True)
class Form:
    """A structured question: its kind and its argument (a word, category id, letter, count)."""

    kind: str
    arg: str | int | None = None

    @property
    def action_name(self) -> str:
        return f"ask_{self.kind}"

    def text(self) -> str:
        """The question as the log shows it."""
        if self.kind == "word":
            return f'Is it "{self.arg}"?'
        if self.kind == "category":
            return f'Is it in the category "{CATEGORY_TITLES[str(self.arg)]}"?'
        if self.kind == "starts":
            return f'Does it start with "{self.arg}"?'
        if self.kind == "contains":
            return f'Does it contain "{self.arg}"?'
        if self.kind == "more":
            return f"Has it more than {self.arg} letters?"
        if self.kind == "fewer":
            return f"Has it fewer than {self.arg} letters?"
        return "Is it one word?"

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "arg": self.arg}


def plain(text: str) -> str:
    """Lower case, no accents, only letters, digits and single spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = (ch for ch in decomposed if not unicodedata.combining(ch))
    kept = "".join(ch if ch.isalnum() else " " for ch in bare)
    return " ".join(kept.split())


def letters(word: str) -> str:
    return plain(word).replace(" ", "")


def truth(form: Form, word: str) -> bool | None:
    """Whether the answer is Yes for this word; None when it cannot be known (a category of
    a word the built-in lists do not have)."""
    if form.kind == "word":
        return same_word(str(form.arg), word)
    if form.kind == "category":
        listed = categories_of(word)
        return (str(form.arg) in listed) if listed else None
    if form.kind == "starts":
        return letters(word).startswith(str(form.arg))
    if form.kind == "contains":
        return str(form.arg) in letters(word)
    if form.kind == "more":
        return len(letters(word)) > int(form.arg or 0)
    if form.kind == "fewer":
        return len(letters(word)) < int(form.arg or 0)
    if form.kind == "one_word":
        return " " not in word.strip()
    raise ValueError(f"unknown question kind {form.kind!r}")


_ARTICLE = re.compile(r"^(?:an?|the)\s+")


def same_word(guess: str, word: str) -> bool:
    """A guess names the word: case, accents, punctuation and a leading article ignored."""
    return _ARTICLE.sub("", plain(guess)) == _ARTICLE.sub("", plain(word))


def edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def so_close(guess: str, word: str) -> bool:
    """The documented nearness for So Close: the guess is not the word, and either one
    contains the other (at least 4 letters, "frog" and "tree frog"), or the guess shares the
    word's category and is within an edit distance of a third of the word's letters ("peach"
    and "peaches" or "pear")."""
    g, w = letters(guess), letters(word)
    if not g or same_word(guess, word):
        return False
    if len(g) >= 4 and (g in w or w in g):
        return True
    shared = set(categories_of(guess)) & set(categories_of(word))
    return bool(shared) and edit_distance(g, w) <= max(1, len(w) // 3)


def far(guess: str, word: str) -> bool:
    """Far from the word, for Way Way Off: a built-in word of another category."""
    theirs, ours = categories_of(guess), categories_of(word)
    return bool(theirs) and bool(ours) and not set(theirs) & set(ours)


# -- guesses in ordinary words -------------------------------------------------------------

_LEAD = re.compile(
    r"^(?:is\s+it|is\s+the\s+(?:magic\s+)?word|the\s+(?:magic\s+)?word\s+is|it\s+is|it\s*'s|"
    r"could\s+it\s+be|maybe)\s+",
    re.IGNORECASE,
)
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


_CATEGORY_LEAD = re.compile(r"^is\s+it\s+in\s+the\s+category\s+", re.IGNORECASE)


def _subject(text: str) -> str | None:
    """What a plain question is about: "is it a peach?" -> "peach"; None when it asks
    something else ("Does it fly?")."""
    line = " ".join(text.split()).rstrip("?!. ").strip(_QUOTES)
    lead = _CATEGORY_LEAD.match(line) or _LEAD.match(line)
    if lead:
        rest = line[lead.end() :].strip(_QUOTES)
        article = _ARTICLE.match(rest.casefold())
        if article and rest[article.end() :]:
            rest = rest[article.end() :]
    else:
        rest = line
        if not rest or rest.split()[0].casefold() in _QUESTION_WORDS:
            return None
    return rest if rest else None


def read_free_text(text: str) -> Form | None:
    """A free-text question a machine can answer: a guess in ordinary words ("is it peach",
    "Is it a peach?", "peach?", "is the word 'peach'") or a category ("Is it an animal?",
    "food?"); None for anything else."""
    subject = _subject(text)
    if subject is None:
        return None
    category = _category_named(subject)
    if category is not None:
        return Form("category", category)
    if not _WORDS.fullmatch(subject) or len(subject) > MAX_GUESS:
        return None
    return Form("word", subject)


def _category_named(text: str) -> str | None:
    key = text.casefold()
    for cid, title in CATEGORY_TITLES.items():
        if key in (cid, title.casefold(), title.casefold().removesuffix("s")):
            return cid
    return None


def form_problem(form: Form) -> str | None:
    """What is wrong with a structured question's argument, if anything."""
    if form.kind == "word":
        text = str(form.arg or "").strip()
        if not text or len(text) > MAX_GUESS or not text.isprintable():
            return f"a guess is a word or phrase of 1 to {MAX_GUESS} printable characters"
        return None
    if form.kind == "category":
        if form.arg not in CATEGORY_TITLES:
            return "unknown category; the categories are " + ", ".join(CATEGORY_TITLES)
        return None
    if form.kind in ("starts", "contains"):
        if form.arg not in LETTERS:
            return "give one letter from a to z"
        return None
    if form.kind in ("more", "fewer"):
        if form.arg not in LENGTHS:
            return f"give a number of letters from {LENGTHS[0]} to {LENGTHS[-1]}"
        return None
    if form.kind == "one_word":
        return None if form.arg is None else "ask_one_word takes nothing"
    return f"unknown question kind {form.kind!r}"


def every_form() -> list[Form]:
    """Every structured question but guesses (which are any word): what a random asker picks
    from, and what a searching asker weighs."""
    out = [Form("category", c) for c in CATEGORY_TITLES]
    out += [Form("starts", x) for x in LETTERS]
    out += [Form("contains", x) for x in LETTERS]
    out += [Form("more", n) for n in LENGTHS]
    out += [Form("fewer", n) for n in LENGTHS]
    out.append(Form("one_word"))
    return out
