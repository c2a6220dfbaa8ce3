"""Werewords (online mode) as a PettingZoo AEC environment.

``env(**kwargs)`` is wrapped like PettingZoo's classic games; ``raw_env(**kwargs)`` is not.
Keyword arguments are the fields of ``wolfden.games.werewords.Config`` (``players=6``,
``deluxe=["minion"]``, …; enums by value) or ``config=Config(...)``, plus ``render_mode``,
``max_cycles``, ``think_seconds``, ``dead_leave`` (see :mod:`wolfden.envs.base`) and
``rounds`` (below). The companion mode is refused: there the cards stay on the table,
so a seat's view does not even hold its own role and nobody could be rewarded.

Agents ``player_0`` … are the seats. The night calls the roles one by one; by day the game
takes one question at a time: while none is open every player but the Mayor may ask (they
are asked in an order drawn from the seeded generator), then the Mayor answers. Each action
takes ``think_seconds`` of the day's timer. The clock's actions (the end of a night step, of
the day, of the discussion) are applied by the environment.

**Questions** are free text at the table; here they are a fixed bank of :data:`QUESTIONS`
(our own yes/no questions about the word): ``ask q`` asks question ``q`` of the bank (a
question may be asked again). The Mayor answers the *oldest* open question with a token
(``answer t``; the game keeps one open at a time), or gives a token to a player for a spoken
question (``give s t``), or plays Way Way Off.

**Episodes and rewards.** An episode is ``rounds`` rounds (default 1): when a round is
decided the environment, as the host, taps Play Again until that many rounds are played, then
Finish. Every decided round pays its team result: +1 to every seat on the winning team (by the
role each seat ended the round with), −1 to the others.

Actions (n players; Q = len(QUESTIONS) = 24; W = 5 word choices; C = 10 clues):
``ok`` · ``confirm`` · ``back`` · ``choose i`` (W) · ``copy s`` (n, Doppelgänger) ·
``bump left`` · ``bump right`` (Thing) · ``clue c`` (C, Speedwords) · ``no_clue`` ·
``ask q`` (Q) · ``answer t`` (5: yes, no, maybe, so_close, correct; the oldest open
question) · ``give s t`` (5n) · ``wayoff table`` · ``wayoff s`` (n) ·
``point s`` (n) · ``ready`` · ``vote s`` (n).

Observation (float32 in [0, 1]): ``phase`` 9 · ``step`` 12 (night step) · ``round`` 1 ·
``me`` n · ``mayor`` n · ``my_card`` 10 · ``my_role`` 10 (role now) · ``known_roles`` 11n
(per seat: unknown or one of the 10 roles, from my notes and the public reveals) ·
``mayor_is_seer`` 1 · ``thing`` 2n (my Thing neighbour; who I bumped) · ``word`` 27
(letter counts / 3 and length / 20 of the Magic Word, when I know it) · ``letters`` 26 (the
Fortune Teller's letters) · ``choices`` 27W (the Mayor's candidate words, same encoding) ·
``pattern`` 1 (Speedwords: word length / 20) · ``clues`` C · ``tokens`` 5 (supply left /
starting supply) · ``received`` 6n (tokens each seat received / 10) · ``table_way_off`` 1 ·
``questions`` Q·(6 + n) (per bank question, its latest asking: pending, yes, no, maybe,
so_close, correct; and who asked) · ``open_question`` Q (the oldest open question) ·
``ending`` 3 (word guessed, not guessed, undecided) · ``guesser`` n · ``pointed`` n ·
``acted`` n (ready / voted) · ``result`` 2 (village, werewolf team won the round) ·
``found`` n · ``votes`` n (votes per seat / n) · ``rounds`` 2 (rounds won by village,
werewolves / 10). The exact table is in docs/rl.md.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from wolfden.engine.errors import ConfigError
from wolfden.engine.types import Action, Event, Outcome, Seat
from wolfden.envs.base import WolfdenEnv, wrap
from wolfden.envs.layout import ActionGroup, ActionLayout, Block, ObsLayout, ObsWriter
from wolfden.envs.parallel import parallel_env_of
from wolfden.games.werewords import Mode, Phase, Role, State, Step, Team, team_of
from wolfden.games.werewords.rules import (
    ASK_WORD_FORM,
    CLUE_SAMPLES,
    STRUCTURED,
    night_step,
    note_value,
)
from wolfden.games.werewords.views import SPEEDWORDS_SHOWN, knows_word

QUESTIONS: tuple[str, ...] = (
    "Is it alive?",
    "Is it an animal?",
    "Is it a plant?",
    "Is it a person or a kind of person?",
    "Is it made by people?",
    "Is it bigger than a bread box?",
    "Can you hold it in one hand?",
    "Is it found indoors?",
    "Is it found outdoors?",
    "Can you eat or drink it?",
    "Is it a place?",
    "Is it an idea or a feeling?",
    "Is it something you do?",
    "Does it move by itself?",
    "Is it used for work?",
    "Is it used for fun?",
    "Is it older than a hundred years?",
    "Does it make a sound?",
    "Is it soft?",
    "Is it usually one colour?",
    "Would a child know it?",
    "Is it in this room?",
    "Is it expensive?",
    "Is it about nature?",
)
"""The question bank: index ``q`` of the ``ask q`` actions."""

PHASES = (
    "claim_mayor",
    "night",
    "day",
    "pointing",
    "discussion",
    "voting",
    "report",
    "result",
    "over",
)
STEPS = (
    "doppelganger",
    "mayor_role",
    "mayor_word",
    "mayor_confirm",
    "seer",
    "fortune_teller",
    "apprentice",
    "werewolves",
    "minion",
    "masons",
    "beholder",
    "thing",
)
ROLES = tuple(r.value for r in Role)
ANSWERS = ("yes", "no", "maybe", "so_close", "correct")
TOKENS = ("yes", "no", "maybe", "so_close", "way_off", "correct")
SUPPLY = ("yes_no", "maybe", "so_close", "way_off", "correct")
MAX_CHOICES = 5
WORD = 27  # 26 letter counts and the length
_BANK = {q: i for i, q in enumerate(QUESTIONS)}
_LIST_QUESTIONS = [ASK_WORD_FORM, *STRUCTURED]
"""The questions from the list, as the game offers them to an asker after ``ask``; agents ask
from the bank instead, so they have no index."""
_ROLE = {role: i for i, role in enumerate(ROLES)}  # role values: notes hold them so


def _word_features(word: str) -> list[float]:
    counts = [0.0] * 26
    for ch in word.lower():
        if "a" <= ch <= "z":
            counts[ord(ch) - 97] += 1 / 3
    return [*counts, len(word) / 20]


@functools.lru_cache(maxsize=4096)
def _word_entries(word: str) -> tuple[tuple[int, float], ...]:
    """The nonzero entries of a word's features, as ``ObsWriter.fill`` stores them."""
    return tuple((j, _clip(x)) for j, x in enumerate(_word_features(word)) if x)


def _clip(value: float) -> float:
    """An entry as ``ObsWriter`` stores it: within [0, 1]."""
    return 1.0 if value >= 1.0 else 0.0 if value <= 0.0 else value


class raw_env(WolfdenEnv):
    game_id = "werewords"
    metadata: ClassVar[dict[str, Any]] = {**WolfdenEnv.metadata, "name": "werewords_v0"}

    def __init__(self, *, rounds: int = 1, **kwargs: Any) -> None:
        if not isinstance(rounds, int) or rounds < 1:
            raise ConfigError(
                f"rounds is a whole number of rounds per episode, 1 or more; got {rounds!r}"
            )
        self.rounds = rounds
        super().__init__(**kwargs)
        if self.config.mode is not Mode.ONLINE:
            raise ConfigError(
                "the environment plays the online mode (mode='online'); in the companion mode "
                "the cards stay on the table, out of every view"
            )
        self._supply0 = dataclasses.astuple(self.game.setup(self.config, 0).supply)
        index = self.action_layout.index
        start = index[Action("ask", (QUESTIONS[0],))]
        self._ask_indices = range(start, start + len(QUESTIONS))
        # a legal action that is its own index (not an ask, not an answer by question id)
        self._fixed_index = {a: i for a, i in index.items() if a.name not in ("ask", "answer")}
        self._at = {name: start for name, (start, _) in self.observation_layout.spans.items()}
        self._table_of: State | None = None
        self._table = np.zeros(self.observation_layout.size, dtype=np.float32)
        self._known_at: list[int] = []
        # parts of the table kept while the state's part is the same (immutable) object
        self._questions_of: tuple[Any, ...] | None = None
        self._question_entries: dict[int, float] = {}
        self._supply_of: Any = None
        self._received_of: tuple[Any, ...] | None = None
        self._token_entries: dict[int, float] = {}

    @classmethod
    def accepts(cls, config: Any) -> bool:
        return bool(config.mode is Mode.ONLINE)

    # -- actions ---------------------------------------------------------------------------

    offers_only_to_actors = True

    def make_action_layout(self, config: Any) -> ActionLayout:
        n = config.players
        seats = range(n)

        def a(name: str, *args: int | str) -> Action:
            return Action(name, tuple(args))

        self._answers = tuple(a("answer", 0, t) for t in ANSWERS)  # placeholders by token
        return ActionLayout(
            [
                ActionGroup("ok", (a("ok"),), "night: done looking"),
                ActionGroup("confirm", (a("confirm"),), "Mayor: keep the chosen word"),
                ActionGroup("back", (a("back"),), "Mayor: choose again"),
                ActionGroup(
                    "choose i",
                    tuple(a("choose", i) for i in range(MAX_CHOICES)),
                    "Mayor: choose candidate word i",
                ),
                ActionGroup(
                    "copy s",
                    tuple(a("copy", s) for s in seats),
                    "Doppelgänger: copy seat s",
                ),
                ActionGroup(
                    "bump left/right",
                    (a("bump", "left"), a("bump", "right")),
                    "Thing: tap a neighbour",
                ),
                ActionGroup(
                    "clue c",
                    tuple(a("clue", c) for c in CLUE_SAMPLES),
                    "Werewolf (Speedwords): clue c of " + ", ".join(CLUE_SAMPLES),
                ),
                ActionGroup("no_clue", (a("no_clue"),), "Werewolf (Speedwords): no clue"),
                ActionGroup(
                    "ask q",
                    tuple(a("ask", q) for q in QUESTIONS),
                    "ask question q of the bank",
                ),
                ActionGroup(
                    "answer t",
                    self._answers,
                    "Mayor: answer the oldest open question with yes, no, maybe, so_close, correct",
                ),
                ActionGroup(
                    "give s t",
                    tuple(a("give", s, t) for s in seats for t in ANSWERS),
                    "Mayor: give seat s token t (index 5s + t) for a spoken question",
                ),
                ActionGroup("wayoff table", (a("wayoff", "table"),), "Mayor: Way Way Off"),
                ActionGroup(
                    "wayoff s",
                    tuple(a("wayoff", s) for s in seats),
                    "Mayor: Way Way Off to s",
                ),
                ActionGroup(
                    "point s",
                    tuple(a("point", s) for s in seats),
                    "Werewolf: point at the Seer",
                ),
                ActionGroup("ready", (a("ready"),), "discussion: ready to vote"),
                ActionGroup("vote s", tuple(a("vote", s) for s in seats), "vote: point at s"),
            ]
        )

    def _oldest_open(self) -> int | None:
        """The id of the oldest question the Mayor has not answered (public in the log)."""
        for q in self.state_.questions:
            if q.answer is None:
                return int(q.id)
        return None

    def legal_indices(self, seat: Seat, legal: Sequence[Action]) -> list[int]:
        if list(legal[1 : 1 + len(_LIST_QUESTIONS)]) == _LIST_QUESTIONS:
            # an asker's actions: ``ask`` and the list's questions (over a hundred), which map
            # to no index, dropped at once (comparing the same objects) instead of one by one
            legal = [legal[0], *legal[1 + len(_LIST_QUESTIONS) :]]
        index = self.action_layout.index
        fixed = self._fixed_index
        out: list[int] = []
        oldest = None
        for action in legal:
            i = fixed.get(action)
            if i is not None:
                out.append(i)
            elif action.name == "ask":
                out.extend(self._ask_indices)
            elif action.name.startswith("ask_") or action.name == "unclear":
                continue  # the questions from the list: agents ask from the bank instead
            elif action.name == "answer":
                if oldest is None:
                    oldest = self._oldest_open()
                if action.args[0] == oldest:
                    out.append(index[self._answers[ANSWERS.index(str(action.args[1]))]])
            else:
                out.extend(super().legal_indices(seat, [action]))
        return out

    def to_action(self, seat: Seat, index: int, legal: Sequence[Action]) -> Action:
        action = self.action_layout.actions[index]
        if action.name == "answer":
            return Action("answer", (self._oldest_open() or 0, action.args[1]))
        return action

    # -- rewards ---------------------------------------------------------------------------

    def max_return(self) -> float:
        return float(self.rounds)

    event_types = (
        "mayor",
        "night",
        "step",
        "step_done",
        "word_chosen",
        "learn",
        "clue",
        "day",
        "question",
        "token",
        "way_off",
        "no_more_tokens",
        "correct",
        "discussion",
        "pointed",
        "vote",
        "voted",
        "votes",
        "result",
        "over",
    )

    def event_blocks(self, config: Any) -> Sequence[Block]:
        return (
            Block("token", len(TOKENS), "token: one-hot, " + ", ".join(TOKENS)),
            Block("bank", len(QUESTIONS) + 1, "question: the bank question asked (last: other)"),
            Block("winner", 2, "result: the round went to the village, the werewolf team"),
        )

    def encode_event(self, event: Mapping[str, Any], viewer: Seat, w: ObsWriter) -> None:
        kind = event["type"]
        if kind == "token" and event.get("token") in TOKENS:
            w.set("token", TOKENS.index(event["token"]))
        elif kind == "question":
            w.set("bank", _BANK.get(event.get("question", ""), len(QUESTIONS)))
        elif kind == "way_off":
            w.set("token", TOKENS.index("way_off"))
            w.set("whom", self.event_seat(event.get("to"), viewer))
        elif kind == "result":
            w.set("winner", 0 if event.get("winning_team") == "village" else 1)

    def step_rewards(
        self, before: Any, after: Any, events: Sequence[Event]
    ) -> Mapping[Seat, float]:
        """A decided round pays its team result to every seat, by the role it ended the round
        with, as the public ``result`` event turns every card over."""
        out: dict[Seat, float] = {}
        for event in events:
            if event.type != "result":
                continue
            winner = event.data["winning_team"]
            for seat, role in event.data["roles"].items():
                won = team_of(Role(role)).value == winner
                out[int(seat)] = out.get(int(seat), 0.0) + (1.0 if won else -1.0)
        return out

    def final_rewards(self, outcome: Outcome) -> Mapping[Seat, float]:
        return {}  # every round has paid already

    def host_action(self, state: Any) -> Action | None:
        """A decided round: the host taps Play Again until ``rounds`` are played, then Finish."""
        if state.phase.value != "result":
            return None
        decided = len(state.history) + 1  # the round on the table is decided, not yet filed
        return Action("play_again" if decided < self.rounds else "finish")

    # -- observation -----------------------------------------------------------------------

    def make_observation_layout(self, config: Any) -> ObsLayout:
        n = config.players
        q = len(QUESTIONS)
        r = len(ROLES)
        return ObsLayout(
            [
                Block("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
                Block("step", len(STEPS), "night step one-hot: " + ", ".join(STEPS)),
                Block("round", 1, "round / 10"),
                Block("me", n, "one-hot: my seat"),
                Block("mayor", n, "one-hot: the Mayor's seat"),
                Block("my_card", r, "one-hot: my card (" + ", ".join(ROLES) + ")"),
                Block("my_role", r, "one-hot: the role I play now"),
                Block("known_roles", (r + 1) * n, "per seat: unknown, or the role I know"),
                Block("mayor_is_seer", 1, "Apprentice: the Mayor is the Seer"),
                Block("thing", 2 * n, "the Thing who tapped me; the neighbour I tapped"),
                Block(
                    "word",
                    WORD,
                    "the Magic Word if I know it: letter counts / 3, length / 20",
                ),
                Block("letters", 26, "Fortune Teller: the letters shown"),
                Block("choices", WORD * MAX_CHOICES, "Mayor: the candidate words"),
                Block("pattern", 1, "Speedwords: the word's length / 20"),
                Block("clues", len(CLUE_SAMPLES), "Speedwords: the clues given"),
                Block(
                    "tokens",
                    5,
                    "supply left / start: yes-no, maybe, so close, way off, correct",
                ),
                Block("received", 6 * n, "tokens each seat received / 10"),
                Block("table_way_off", 1, "Way Way Off given to the table"),
                Block(
                    "questions",
                    q * (6 + n),
                    "per bank question: latest answer, who asked",
                ),
                Block("open_question", q, "the oldest open question"),
                Block("ending", 3, "word guessed, not guessed, undecided"),
                Block("guesser", n, "who guessed the word"),
                Block(
                    "pointed",
                    n,
                    "Werewolves' points at the Seer (as far as I see them)",
                ),
                Block("acted", n, "seats ready (discussion) or voted (vote)"),
                Block("result", 2, "the round went to: village, werewolf team"),
                Block("found", n, "seats found in the round's result"),
                Block("votes", n, "the result's votes per seat / n"),
                Block("rounds", 2, "rounds won by village, werewolf team / 10"),
            ]
        )

    def encode(self, view: Mapping[str, Any], seat: Seat) -> np.ndarray:
        n = view["players"]
        r = len(ROLES)
        w = self.observation_layout.writer()
        w.set("phase", PHASES.index(view["phase"]))
        if view["step"] is not None:
            w.set("step", STEPS.index(view["step"]))
        w.scalar("round", view["round"] / 10)
        you = view["you"]
        w.set("me", seat)
        if view["mayor"] is not None:
            w.set("mayor", view["mayor"])
        if you.get("role") is not None:
            w.set("my_card", ROLES.index(you["role"]))
        if you.get("role_now") is not None:
            w.set("my_role", ROLES.index(you["role_now"]))
        known: dict[int, str] = {int(s): role for s, role in view["revealed"].items()}
        if you.get("role_now") is not None:
            known[seat] = you["role_now"]
        players = (w.layout.slot("thing").stop - w.layout.slot("thing").start) // 2
        for note in you["notes"]:
            for block, index, value in _learn(note["kind"], note["value"], known, players):
                w.set(block, index, value)
        for s in range(n):
            role = known.get(s)
            w.set(
                "known_roles",
                (r + 1) * s + (0 if role is None else 1 + ROLES.index(role)),
            )
        if view.get("word"):
            w.fill("word", _word_features(view["word"]))
        for i, word in enumerate(you.get("choices", [])[:MAX_CHOICES]):
            if view["phase"] == "night" and view["step"] == "mayor_word":
                for j, x in enumerate(_word_features(word)):
                    w.set("choices", WORD * i + j, x)
        if view.get("pattern") is not None:
            w.scalar("pattern", len(view["pattern"]) / 20)
        for clue in view.get("clues", []):
            if clue in CLUE_SAMPLES:
                w.set("clues", CLUE_SAMPLES.index(clue))
        w.fill(
            "tokens",
            [view["tokens"][k] / max(1, start) for k, start in zip(SUPPLY, self._supply0)],
        )
        for s, row in enumerate(view["received"]):
            for t, token in enumerate(TOKENS):
                w.set("received", 6 * s + t, row[token] / 10)
        w.scalar("table_way_off", float(bool(view["table_way_off"])))
        width = 6 + n
        oldest = None
        for q in view["questions"]:
            asked = _BANK.get(q["text"])
            if asked is None:
                continue
            row = width * asked
            for j in range(width):
                w.set("questions", row + j, 0.0)
            answer = q["answer"]
            w.set("questions", row + (0 if answer is None else 1 + ANSWERS.index(answer)))
            w.set("questions", row + 6 + q["seat"])
            if answer is None and oldest is None:
                oldest = asked
        if oldest is not None:
            w.set("open_question", oldest)
        ending = view.get("ending")
        if ending is None:
            w.set("ending", 2)
        else:
            w.set("ending", 0 if ending["guessed"] else 1)
            if ending.get("guesser") is not None:
                w.set("guesser", ending["guesser"])
        for target in view.get("pointed", {}).values():
            if target is not None:
                w.set("pointed", target)
        for s in view.get("ready", []) + view.get("voted", []):
            w.set("acted", s)
        result = view.get("result")
        if result is not None:
            w.set("result", 0 if result["winning_team"] == Team.VILLAGE.value else 1)
            for s in result["found"]:
                w.set("found", s)
            votes = np.zeros(n, dtype=np.float32)
            for target in result.get("votes") or []:
                if target is not None:
                    votes[target] += 1 / n
            w.fill("votes", list(votes))
        history = view["history"]
        village = sum(1 for h in history if h["winning_team"] == Team.VILLAGE.value)
        w.fill("rounds", [village / 10, (len(history) - village) / 10])
        return w.vector

    def encode_state(self, state: State, seat: Seat) -> np.ndarray:
        """:meth:`encode` of the seat's view, computed from the state: what every seat sees
        alike is encoded once per state (:meth:`_encode_table`), then what this seat alone
        knows is written over it, following the view's rules (its card and role now, its night
        notes, the word when ``knows_word`` says so, the Mayor's candidate words). Tested equal
        to the view's encoding (tests/envs/test_fast_obs.py)."""
        if self._table_of is not state:
            self._table = self._encode_table(state)
            self._table_of = state
        vector = self._table.copy()
        at = self._at
        n = state.n
        entries: dict[int, float] = {at["me"] + seat: 1.0}
        card = state.cards[seat]
        if card is not None:
            entries[at["my_card"] + _ROLE[card.value]] = 1.0
        known: dict[int, str] = {}  # what the seat knows beyond the public reveals
        now = state.role(seat)
        if now is not None:
            entries[at["my_role"] + _ROLE[now.value]] = 1.0
            known[seat] = now.value
        for note in state.notes[seat]:
            for block, index, value in _learn(note.kind, note_value(state, note), known, n):
                if block != "thing" or 0 <= index < 2 * n:
                    entries[at[block] + index] = value
        row = len(ROLES) + 1
        for s, role in known.items():
            if 0 <= s < n:
                entries[self._known_at[s]] = 0.0
                entries[at["known_roles"] + row * s + 1 + _ROLE[role]] = 1.0
        word = state.word
        if word and knows_word(state, seat):
            start = at["word"]
            for j, x in _word_entries(word):
                entries[start + j] = x
        if (
            seat == state.mayor
            and state.phase is Phase.NIGHT
            and night_step(state) is Step.MAYOR_WORD
        ):
            for i, choice in enumerate(state.candidates[:MAX_CHOICES]):
                start = at["choices"] + WORD * i
                for j, x in _word_entries(choice):
                    entries[start + j] = x
        vector[list(entries)] = list(entries.values())
        return vector

    def _encode_table(self, state: State) -> np.ndarray:
        """What every seat's view shows alike: the phase and night step, the Mayor, the public
        reveals, the Speedwords pattern and clues, the tokens, the question log, the ending,
        the pointing, the ready and voted seats, the result and the rounds won."""
        at = self._at
        n = state.n
        phase = state.phase
        entries: dict[int, float] = {at["phase"] + PHASES.index(phase.value): 1.0}
        if phase is Phase.NIGHT:
            entries[at["step"] + STEPS.index(night_step(state).value)] = 1.0
        entries[at["round"]] = _clip(state.round / 10)
        if state.mayor is not None:
            entries[at["mayor"] + state.mayor] = 1.0
        row = len(ROLES) + 1
        known_at = []
        for s in range(n):
            role = state.role(s) if s in state.revealed else None
            known_at.append(
                at["known_roles"] + row * s + (0 if role is None else 1 + _ROLE[role.value])
            )
            entries[known_at[s]] = 1.0
        self._known_at = known_at
        if phase in SPEEDWORDS_SHOWN and state.config.speedwords:
            entries[at["pattern"]] = _clip(len(state.word or "") / 20)
            for clue in state.clues:
                if clue in CLUE_SAMPLES:
                    entries[at["clues"] + CLUE_SAMPLES.index(clue)] = 1.0
        if self._supply_of is not state.supply or self._received_of is not state.received:
            self._token_entries = self._encode_tokens(state)
            self._supply_of, self._received_of = state.supply, state.received
        entries.update(self._token_entries)
        entries[at["table_way_off"]] = float(bool(state.table_way_off))
        if self._questions_of is not state.questions:
            self._question_entries = self._encode_questions(state)
            self._questions_of = state.questions
        entries.update(self._question_entries)
        if state.guessed is None:
            entries[at["ending"] + 2] = 1.0
        else:
            entries[at["ending"] + (0 if state.guessed else 1)] = 1.0
            if state.guesser is not None and 0 <= state.guesser < n:
                entries[at["guesser"] + state.guesser] = 1.0
        if phase is Phase.POINTING:
            for target in state.points:
                if target is not None and 0 <= target < n:
                    entries[at["pointed"] + target] = 1.0
        if phase is Phase.DISCUSSION or phase is Phase.VOTING:
            for s in state.acted:
                if 0 <= s < n:
                    entries[at["acted"] + s] = 1.0
        result = state.result
        if result is not None and phase in (Phase.RESULT, Phase.OVER):
            entries[at["result"] + (0 if result.winning_team == Team.VILLAGE.value else 1)] = 1.0
            for s in result.found:
                if 0 <= s < n:
                    entries[at["found"] + s] = 1.0
            votes = np.zeros(n, dtype=np.float32)
            for target in () if result.guessed else state.points:
                if target is not None:
                    votes[target] += 1 / n
            for s, x in enumerate(votes):
                entries[at["votes"] + s] = _clip(float(x))
        village = sum(1 for h in state.history if h.winning_team == Team.VILLAGE.value)
        entries[at["rounds"]] = _clip(village / 10)
        entries[at["rounds"] + 1] = _clip((len(state.history) - village) / 10)
        vector = np.zeros(self.observation_layout.size, dtype=np.float32)
        vector[list(entries)] = list(entries.values())
        return vector

    def _encode_tokens(self, state: State) -> dict[int, float]:
        """The ``tokens`` and ``received`` entries: the supply left, what each seat got."""
        entries: dict[int, float] = {}
        start = self._at["tokens"]
        for i, (k, first) in enumerate(zip(SUPPLY, self._supply0)):
            entries[start + i] = _clip(getattr(state.supply, k) / max(1, first))
        start = self._at["received"]
        for s, received in enumerate(state.received):
            for t, token in enumerate(TOKENS):
                if count := getattr(received, token):
                    entries[start + 6 * s + t] = _clip(count / 10)
        return entries

    def _encode_questions(self, state: State) -> dict[int, float]:
        """The ``questions`` and ``open_question`` entries of the question log."""
        width = 6 + state.n
        start = self._at["questions"]
        rows: dict[int, tuple[int, int]] = {}  # bank question: its latest answer, who asked
        oldest = None
        for q in state.questions:
            asked = _BANK.get(q.text)
            if asked is None:
                continue
            answer = 0 if q.answer is None else 1 + ANSWERS.index(q.answer)
            rows[asked] = (answer, q.seat)
            if q.answer is None and oldest is None:
                oldest = asked
        entries: dict[int, float] = {}
        for asked, (answer, asker) in rows.items():
            entries[start + width * asked + answer] = 1.0
            if 0 <= 6 + asker < width:
                entries[start + width * asked + 6 + asker] = 1.0
        if oldest is not None:
            entries[self._at["open_question"] + oldest] = 1.0
        return entries


def _learn(
    kind: str, value: Any, known: dict[int, str], players: int
) -> list[tuple[str, int, float]]:
    """What one night note tells its seat: the roles it learns go into ``known``, and the
    observation entries it sets come back as (block, index, value)."""
    if kind == "werewolves":
        known.update(dict.fromkeys(value, Role.WEREWOLF.value))
    elif kind == "masons":
        known.update(dict.fromkeys(value, Role.MASON.value))
    elif kind == "seers":
        known.update({int(s): role for s, role in value})
    elif kind == "copied":
        known[int(value[0])] = value[1]
    elif kind == "thing":
        known[int(value)] = Role.THING.value
        return [("thing", int(value), 1.0)]
    elif kind == "bumped":
        return [("thing", players + int(value), 1.0)]
    elif kind == "mayor_is_seer":
        return [("mayor_is_seer", 0, float(bool(value)))]
    elif kind == "letters" and isinstance(value, str):
        return [("letters", ord(ch) - 97, 1.0) for ch in value.lower() if "a" <= ch <= "z"]
    return []


def env(**kwargs: Any) -> Any:
    """Werewords, wrapped as PettingZoo's classic games are."""
    return wrap(raw_env(**kwargs))


parallel_env = parallel_env_of(raw_env)
"""The same game as a PettingZoo parallel environment (see :mod:`wolfden.envs.parallel`)."""
