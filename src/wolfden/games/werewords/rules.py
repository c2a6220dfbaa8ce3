"""The rules of Werewords, as the rulebook tells them: setup, the night, the day of
questions, and the two endings (the Werewolves point at the Seer, or everyone votes).

``apply`` returns ``(state, events)``; it dispatches to one function per rule or phase, each
named after it, and none of them changes its input (states are frozen; ``replace`` makes the
next one). ``outcome`` reads the decided match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from wolfden.engine.errors import IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.rng import Rng
from wolfden.engine.types import PUBLIC, Action, Audience, Deadline, Event, Outcome
from wolfden.games.werewords import narration
from wolfden.games.werewords.config import (
    MAX_CLUE,
    MAX_QUESTION,
    Config,
    Difficulty,
    Mode,
)
from wolfden.games.werewords.questions import (
    KINDS,
    Form,
    every_form,
    form_problem,
    read_free_text,
)
from wolfden.games.werewords.roles import (
    ANSWERS,
    FINDS_SEER,
    MAYOR_STEPS,
    ROLE_STEPS,
    STEP_ROLE,
    Phase,
    Role,
    Step,
    Team,
    Token,
)
from wolfden.games.werewords.state import (
    Copy,
    Note,
    Question,
    Received,
    RoundResult,
    State,
    Supply,
)
from wolfden.words.builtin import pool as builtin_pool
from wolfden.words.validate import WordError, fold, validate_entry

Events = list[Event]

TIME_UP = Action("time_up")
NEXT = Action("next")
OK = Action("ok")
CONFIRM = Action("confirm")
BACK = Action("back")
CLAIM = Action("claim")
READY = Action("ready")
NO_CLUE = Action("no_clue")
NO_MORE_TOKENS = Action("no_more_tokens")
NONE_FOUND = Action("none_found")
FINISH = Action("finish")
WHOOPS = Action("whoops")
PLAY_AGAIN = Action("play_again")
ASK_FORM = Action("ask", ("?",))
"""``ask TEXT`` accepts any question of 1-140 characters; legal_actions lists this form."""
ASK_WORD_FORM = Action("ask_word", ("?",))
"""``ask_word WORD`` guesses any word or phrase of 1-40 characters; legal_actions lists this
form. The other structured questions are listed one by one (see questions.py)."""
STRUCTURED = tuple(
    Action(form.action_name, () if form.arg is None else (form.arg,)) for form in every_form()
)
ASK_NAMES = frozenset(f"ask_{kind}" for kind in KINDS)
UNCLEAR_LINE = "I can't judge that one. Ask a yes/no question from the list."
CLUE_SAMPLES = ("big", "small", "old", "new", "loud", "quiet", "round", "bright", "soft", "fast")


def act(name: str, *args: int | str) -> Action:
    return Action(name, args)


def _rng(state: State) -> Rng:
    return Rng(state.rng)


def night_step(state: State) -> Step:
    """The step the night is calling now."""
    return state.night[state.step]


# -- setup ------------------------------------------------------------------------------


def night_steps(config: Config) -> tuple[Step, ...]:
    """Every role in the set is called every game, in the ruled order."""
    roles = set(config.role_cards())
    steps: list[Step] = []
    if Role.DOPPELGANGER in roles:
        steps.append(Step.DOPPELGANGER)
    if config.mode is Mode.COMPANION:
        steps.append(Step.MAYOR_ROLE)
    steps += [Step.MAYOR_WORD, Step.MAYOR_CONFIRM]
    steps += [step for step in ROLE_STEPS if STEP_ROLE[step] in roles]
    return tuple(steps)


def deal(config: Config, rng: Rng, last_mayor: int | None) -> tuple[int, tuple[Role, ...]]:
    """Shuffle the Mayor card and the role cards; deal one to each player, one to the centre.

    The Mayor card's holder is the Mayor and takes the centre card as their secret role. If
    the Mayor card is left in the centre, the player to the left of the last Mayor becomes
    Mayor (keeping their own card as secret role); in a first game the cards are redealt.
    """
    n = config.players
    deck: list[Role | None] = [None, *config.role_cards()]
    while True:
        rng.shuffle(deck)
        centre = deck[n]
        if centre is not None:
            mayor = deck.index(None)
            cards = [c for c in deck[:n]]
            cards[mayor] = centre
            return mayor, tuple(c for c in cards if c is not None)
        if last_mayor is not None:
            mayor = left_of(last_mayor, n)
            return mayor, tuple(c for c in deck[:n] if c is not None)


def left_of(seat: int, n: int) -> int:
    """Seats go round the table in number order; the player on your left has the next seat."""
    return (seat + 1) % n


def setup(config: Config, seed: int) -> State:
    config.validate()
    state, _ = new_round(
        config,
        rng=seed & ((1 << 64) - 1),
        seq=0,
        round=0,
        difficulty=config.difficulty,
        last_mayor=config.last_mayor,
        history=(),
    )
    return state


def new_round(
    config: Config,
    *,
    rng: int,
    seq: int,
    round: int,
    difficulty: Difficulty,
    last_mayor: int | None,
    history: tuple[RoundResult, ...],
) -> tuple[State, Events]:
    """Shuffle and deal: online the app deals the cards and the night falls; in companion
    mode whoever holds the Mayor card claims it first."""
    n = config.players
    dealer = Rng(rng)
    events: Events = []
    if config.mode is Mode.ONLINE:
        mayor, cards = deal(config, dealer, last_mayor)
        cards_or_none: tuple[Role | None, ...] = cards
        phase = Phase.NIGHT
    else:
        mayor, cards_or_none, phase = None, (None,) * n, Phase.CLAIM_MAYOR
    state = State(
        config=config,
        rng=dealer.state,
        seq=seq + 1,
        phase=phase,
        round=round + 1,
        difficulty=difficulty,
        last_mayor=last_mayor,
        mayor=mayor,
        cards=cards_or_none,
        copied=None,
        night=night_steps(config),
        step=0,
        acted=frozenset(),
        candidates=(),
        choice=None,
        notes=((),) * n,
        clues=(),
        supply=Supply(
            yes_no=config.yes_no_tokens,
            maybe=config.maybe_tokens,
            so_close=config.so_close_tokens,
            way_off=config.way_off_tokens,
            correct=config.correct_tokens,
        ),
        received=(Received(),) * n,
        table_way_off=0,
        questions=(),
        asking=frozenset(),
        guessed=None,
        guesser=None,
        ended_by="",
        word_public=False,
        revealed=frozenset(),
        points=(None,) * n,
        result=None,
        history=history,
    )
    if mayor is not None:
        for seat in range(n):
            role = state.cards[seat]
            assert role is not None
            events.append(
                Event("your_role", {"seat": seat, "role": role.value}, Audience.only(seat))
            )
        events.append(
            Event("mayor", {"seat": mayor}, PUBLIC, narration.mayor_is(config.name(mayor)))
        )
        events.append(Event("night", {}, PUBLIC, narration.NIGHT_FALLS))
        state = enter_step(state, events)
    else:
        events.append(Event("claim_mayor", {}, PUBLIC, narration.CLAIM))
    return state, events


# -- who acts --------------------------------------------------------------------------


def step_holders(state: State, step: Step) -> tuple[int, ...]:
    """The seats called in a night step (online; in companion mode the app cannot know)."""
    if step in MAYOR_STEPS:
        return () if state.mayor is None else (state.mayor,)
    if state.config.mode is Mode.COMPANION:
        return ()
    return state.holders(STEP_ROLE[step])


def actors(state: State) -> frozenset[int]:
    phase = state.phase
    n = state.n
    if phase is Phase.NIGHT:
        step = night_step(state)
        return frozenset(step_holders(state, step)) - state.acted
    if phase is Phase.CLAIM_MAYOR:
        return frozenset(range(n))
    if phase is Phase.DAY:
        assert state.mayor is not None
        if state.config.mode is Mode.COMPANION or not state.config.typed_questions:
            return frozenset((state.mayor,))
        # "Only one question should be asked of the Mayor at a time."
        return frozenset((state.mayor,)) if state.asking else frozenset(range(n)) - {state.mayor}
    if state.config.mode is Mode.COMPANION:
        if phase is Phase.REPORT:
            assert state.mayor is not None
            return frozenset((state.mayor,))
        return frozenset()
    if phase is Phase.POINTING:
        return frozenset(state.holders(Role.WEREWOLF)) - state.acted
    if phase in (Phase.DISCUSSION, Phase.VOTING):
        return frozenset(range(n)) - state.acted
    return frozenset()


# -- what is legal ---------------------------------------------------------------------


def legal_actions(state: State, seat: int | None) -> list[Action]:
    if state.phase is Phase.OVER:
        return []
    if seat is None:
        return host_actions(state)
    if seat not in actors(state):
        return []
    return LEGAL[state.phase](state, seat)


def host_actions(state: State) -> list[Action]:
    """Seat None: the host's controls (the shared device in companion mode)."""
    phase = state.phase
    out: list[Action] = []
    if phase is Phase.NIGHT and state.config.mode is Mode.COMPANION:
        step = night_step(state)
        if step not in MAYOR_STEPS:
            if step is Step.WEREWOLVES and state.config.speedwords:
                out += host_clue_forms(state)
            out.append(NEXT)
    elif phase is Phase.DISCUSSION:
        out.append(NEXT)
    if phase in (Phase.POINTING, Phase.DISCUSSION, Phase.VOTING, Phase.REPORT):
        out += whoops_forms(state)
    if phase is Phase.RESULT:
        out += result_forms(state)
    return out


def whoops_forms(state: State) -> list[Action]:
    if state.guessed:
        return [WHOOPS]
    return [act("whoops", s) for s in range(state.n) if s != state.mayor]


def result_forms(state: State) -> list[Action]:
    return [PLAY_AGAIN, *(act("play_again", d.value) for d in Difficulty), FINISH]


def clue_forms(state: State) -> list[Action]:
    """A Werewolf's sample clues: those that do not contain the word (the Werewolf knows it)."""
    word = state.word or ""
    return [act("clue", c) for c in CLUE_SAMPLES if clue_problem(c, word) is None]


def host_clue_forms(state: State) -> list[Action]:
    """Companion Speedwords: the shared device's sample clues, the same whatever the word
    (whoever holds the host's controls may not know it), while a Werewolf has a clue left to
    write. A clue that contains the word is refused when written, to the Werewolves, who see
    the word on the screen."""
    if len(state.clues) >= werewolf_cards(state.config):
        return []
    return [act("clue", c) for c in CLUE_SAMPLES]


def werewolf_cards(config: Config) -> int:
    return config.role_cards().count(Role.WEREWOLF)


def _legal_claim(state: State, seat: int) -> list[Action]:
    return [CLAIM]


def _legal_night(state: State, seat: int) -> list[Action]:
    step = night_step(state)
    n = state.n
    if step is Step.DOPPELGANGER:
        return [act("copy", s) for s in range(n) if s != seat and s != state.mayor]
    if step is Step.MAYOR_ROLE:
        return [act("secret", r.value) for r in Role if r in set(state.config.role_cards())]
    if step is Step.MAYOR_WORD:
        return [act("choose", i) for i in range(len(state.candidates))]
    if step is Step.MAYOR_CONFIRM:
        return [CONFIRM, BACK]
    if step is Step.THING:
        return [act("bump", "left"), act("bump", "right")]
    if step is Step.WEREWOLVES and state.config.speedwords:
        return [*clue_forms(state), NO_CLUE]
    return [OK]


def _legal_day(state: State, seat: int) -> list[Action]:
    n = state.n
    if seat != state.mayor:
        return [ASK_FORM, ASK_WORD_FORM, *STRUCTURED]
    if state.config.mode is Mode.COMPANION:
        return [*(act("correct", s) for s in range(n) if s != seat), NO_MORE_TOKENS]
    tokens = [t.value for t in ANSWERS if state.supply.left(t) > 0]
    pending = waiting_question(state)
    if pending is not None:
        # "The Mayor may not ignore questions": a question waits for its token.
        out = [act("answer", pending.id, t) for t in tokens]
        if pending.form is None and state.supply.left(Token.MAYBE) > 0:
            out.append(act("unclear", pending.id))
    else:
        out = [act("give", s, t) for s in range(n) if s != seat for t in tokens]
    if state.supply.left(Token.WAY_OFF) > 0:
        out.append(act("wayoff", "table"))
        out += [act("wayoff", s) for s in range(n) if s != seat]
    return out


def waiting_question(state: State) -> Question | None:
    """The typed question that waits for the Mayor's token, if any (the oldest)."""
    return next((q for q in state.questions if q.answer is None), None)


def _legal_point(state: State, seat: int) -> list[Action]:
    return [act("point", s) for s in range(state.n) if s != seat]


def _legal_discussion(state: State, seat: int) -> list[Action]:
    return [READY]


def _legal_vote(state: State, seat: int) -> list[Action]:
    return [act("vote", s) for s in range(state.n) if s != seat]


def _legal_report(state: State, seat: int) -> list[Action]:
    return [*(act("found", s) for s in range(state.n)), NONE_FOUND]


LEGAL: dict[Phase, Callable[[State, int], list[Action]]] = {
    Phase.CLAIM_MAYOR: _legal_claim,
    Phase.NIGHT: _legal_night,
    Phase.DAY: _legal_day,
    Phase.POINTING: _legal_point,
    Phase.DISCUSSION: _legal_discussion,
    Phase.VOTING: _legal_vote,
    Phase.REPORT: _legal_report,
}


# -- deadlines -------------------------------------------------------------------------


def deadline(state: State) -> Deadline | None:
    seconds, label = timer(state)
    if seconds is None:
        return None
    return Deadline(state.seq, float(seconds), TIME_UP, label)


def timer(state: State) -> tuple[int | None, str]:
    config = state.config
    phase = state.phase
    if phase is Phase.NIGHT:
        step = night_step(state)
        if step is Step.MAYOR_ROLE:
            return None, ""
        if step is Step.MAYOR_WORD or (step is Step.WEREWOLVES and config.speedwords):
            return config.word_choice_seconds, step.value
        return config.night_step_seconds, step.value
    if phase is Phase.DAY:
        return config.day_length(), "day"
    if phase is Phase.POINTING:
        return config.pointing_seconds, "werewolves point"
    if phase is Phase.DISCUSSION:
        return config.discussion_seconds, "discussion"
    if phase is Phase.VOTING:
        return config.vote_seconds, "vote"
    if phase is Phase.RESULT:
        return config.result_seconds, "result"
    return None, ""


# -- apply -----------------------------------------------------------------------------


def apply(state: State, seat: int | None, action: Action) -> tuple[State, Events]:
    if state.phase is Phase.OVER:
        raise MatchOver("the match is over; start a new one to play again")
    if not isinstance(action, Action):
        raise IllegalAction("an action is an Action value such as Action('ok')")
    events: Events = []
    if seat is None:
        if action == TIME_UP and timer(state)[0] is not None:
            return on_time_up(state, events), events
        return host_apply(state, action, events), events
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise IllegalAction(f"seat {seat!r} does not exist; seats are 0 to {state.n - 1}")
    if seat not in actors(state):
        raise NotYourTurn(f"seat {seat} has nothing to do now ({state.phase.value})")
    if action.name == "ask" and state.phase is Phase.DAY and seat != state.mayor:
        return ask_question(state, seat, action, events), events
    if action.name in ASK_NAMES and state.phase is Phase.DAY and seat != state.mayor:
        return ask_structured(state, seat, action, events), events
    if action.name == "clue" and _clue_step(state):
        return write_clue(state, seat, action, events), events
    if action not in LEGAL[state.phase](state, seat):
        allowed = ", ".join(str(a) for a in LEGAL[state.phase](state, seat)[:12])
        raise IllegalAction(f"{action} is not allowed now; allowed: {allowed}")
    return APPLY[state.phase](state, seat, action, events), events


def _clue_step(state: State) -> bool:
    return (
        state.config.speedwords
        and state.phase is Phase.NIGHT
        and night_step(state) is Step.WEREWOLVES
    )


def host_apply(state: State, action: Action, events: Events) -> State:
    if action.name == "clue" and state.config.mode is Mode.COMPANION and _clue_step(state):
        return write_clue(state, None, action, events)
    if action not in host_actions(state):
        allowed = ", ".join(str(a) for a in host_actions(state)[:12]) or "nothing"
        raise IllegalAction(f"the host cannot {action} now; allowed: {allowed}")
    if action == NEXT:
        return on_time_up(state, events)
    if action.name == "whoops":
        return whoops(state, action, events)
    return play_again(state, action, events)


def on_time_up(state: State, events: Events) -> State:
    """The clock (or the host's Next) ends the current timed phase."""
    phase = state.phase
    if phase is Phase.NIGHT:
        return step_timeout(state, events)
    if phase is Phase.DAY:
        events.append(Event("time_up", {}, PUBLIC, narration.time_up()))
        return end_day(state, guessed=False, guesser=None, how="time", events=events)
    if phase is Phase.POINTING:
        return resolve_pointing(state, events)
    if phase is Phase.DISCUSSION:
        return start_vote(state, events)
    if phase is Phase.VOTING:
        return resolve_vote(state, events)
    if phase is Phase.RESULT:
        return finish(state, events)
    raise IllegalAction(f"nothing ends by time in the {phase.value} phase")


# -- night -----------------------------------------------------------------------------


def enter_step(state: State, events: Events) -> State:
    """A night step begins: the called roles learn what the rules show them."""
    step = night_step(state)
    events.append(Event("step", {"step": step.value}, PUBLIC, narration.STEP_CALL[step]))
    if state.config.mode is Mode.COMPANION:
        if step is Step.MAYOR_WORD:
            state = offer_words(state)
        return state
    if step is Step.MAYOR_WORD:
        return offer_words(state)
    notes = list(state.notes)

    def learn(seat: int, kind: str, value: object) -> None:
        note = Note(kind, value)
        notes[seat] = (*notes[seat], note)
        shown = note_value(state, note)
        events.append(Event("learn", {"kind": kind, "value": shown}, Audience.only(seat)))

    holders = step_holders(state, step)
    if step is Step.SEER or step is Step.WEREWOLVES:
        for seat in holders:
            if step is Step.WEREWOLVES:
                learn(seat, "werewolves", [s for s in holders if s != seat])
            learn(seat, "word", None)
    elif step is Step.FORTUNE_TELLER:
        for seat in holders:
            learn(seat, "letters", None)
    elif step is Step.APPRENTICE:
        told = mayor_is_seer(state)
        for seat in holders:
            learn(seat, "mayor_is_seer", told)
            if told:
                learn(seat, "word", None)
    elif step is Step.MINION:
        for seat in holders:
            learn(seat, "werewolves", list(state.holders(Role.WEREWOLF)))
    elif step is Step.MASONS:
        for seat in holders:
            learn(seat, "masons", [s for s in holders if s != seat])
    elif step is Step.BEHOLDER:
        seen = [
            [s, r.value]
            for s in range(state.n)
            for r in (state.role(s),)
            if r in (Role.SEER, Role.FORTUNE_TELLER, Role.APPRENTICE)
        ]
        for seat in holders:
            learn(seat, "seers", [x for x in seen if x[0] != seat])
    return replace(state, notes=tuple(notes))


def letters(word: str, count: int) -> str:
    """What the Fortune Teller sees: the first letters of each word of the Magic Word."""
    return " ".join(part[:count] for part in word.split(" "))


def note_value(state: State, note: Note) -> object:
    """A note as its holder sees it; the word and its letters are read from the state."""
    if note.kind == "word":
        return state.word
    if note.kind == "letters":
        return letters(state.word or "", state.config.fortune_teller_letters)
    return note.value


def offer_words(state: State) -> State:
    """Draw the Mayor's choices; a Seer- or Fortune-Teller-Mayor gets easier words."""
    config = state.config
    difficulty = state.difficulty
    secret = state.role(state.mayor) if state.mayor is not None else None
    if config.easier_for_seer_mayor and secret in FINDS_SEER:
        difficulty = difficulty.easier()
    words = word_pool(config, difficulty)
    rng = _rng(state)
    k = min(config.word_choices, len(words))
    picks: list[str] = []
    seen: set[str] = set()
    while len(picks) < k:
        word = words[rng.below(len(words))]
        if fold(word) not in seen:
            seen.add(fold(word))
            picks.append(word)
    return replace(state, rng=rng.state, candidates=tuple(picks), choice=None)


def word_pool(config: Config, difficulty: Difficulty) -> tuple[str, ...]:
    custom = config.pool(difficulty)
    if custom:
        return custom
    return builtin_pool(difficulty.value, config.categories, config.max_age.value)


def advance_step(state: State, events: Events) -> State:
    """The called roles close their eyes; the next role is called, or the day begins."""
    events.append(Event("step_done", {}, PUBLIC, narration.STEP_DONE))
    if state.step + 1 < len(state.night):
        state = replace(state, step=state.step + 1, acted=frozenset(), seq=state.seq + 1)
        return enter_step(state, events)
    return start_day(state, events)


def step_timeout(state: State, events: Events) -> State:
    """At a step's deadline the missing choices are made for the sleepy: the Mayor gets the
    first word, a Doppelgänger a random player; everyone else simply closes their eyes."""
    step = night_step(state)
    missing = sorted(frozenset(step_holders(state, step)) - state.acted)
    if step is Step.DOPPELGANGER and missing:
        rng = _rng(state)
        options = _legal_night(state, missing[0])
        pick = options[rng.below(len(options))]
        state = replace(state, rng=rng.state)
        return night_action(state, missing[0], pick, events)
    if step is Step.MAYOR_WORD and state.mayor is not None:
        return night_action(state, state.mayor, act("choose", 0), events)
    return advance_step(state, events)


def night_action(state: State, seat: int, action: Action, events: Events) -> State:
    step = night_step(state)
    name = action.name
    if name == "copy":
        target = int(action.args[0])
        role = state.cards[target]
        assert role is not None
        notes = list(state.notes)
        notes[seat] = (*notes[seat], Note("copied", [target, role.value]))
        events.append(
            Event("learn", {"kind": "copied", "value": [target, role.value]}, Audience.only(seat))
        )
        state = replace(state, copied=Copy(seat, role, target), notes=tuple(notes))
    elif name == "secret":
        cards = list(state.cards)
        cards[seat] = Role(action.args[0])
        state = replace(state, cards=tuple(cards))
    elif name == "choose":
        state = replace(state, choice=int(action.args[0]))
        events.append(Event("word_chosen", {"word": state.word}, Audience.only(seat)))
    elif name == "back":
        state = replace(
            state, step=state.step - 1, choice=None, acted=frozenset(), seq=state.seq + 1
        )
        events.append(Event("step", {"step": Step.MAYOR_WORD.value}, PUBLIC, ""))
        return state
    elif name == "bump":
        target = left_of(seat, state.n) if action.args[0] == "left" else (seat - 1) % state.n
        notes = list(state.notes)
        notes[target] = (*notes[target], Note("thing", seat))
        notes[seat] = (*notes[seat], Note("bumped", target))
        events.append(Event("learn", {"kind": "thing", "value": seat}, Audience.only(target)))
        events.append(Event("learn", {"kind": "bumped", "value": target}, Audience.only(seat)))
        state = replace(state, notes=tuple(notes))
    elif name == "no_clue":
        pass
    state = replace(state, acted=state.acted | {seat})
    if state.acted >= frozenset(step_holders(state, step)):
        return advance_step(state, events)
    return state


def clue_problem(clue: str, word: str) -> str | None:
    """Speedwords: a clue is one word (letters, digits, hyphens, apostrophes) of at most 40
    characters that does not contain the Magic Word."""
    text = clue.strip()
    if not text or len(text) > MAX_CLUE or " " in text:
        return f"a clue is one word of 1 to {MAX_CLUE} characters"
    try:
        validate_entry(text)
    except WordError as exc:
        return f"the clue {exc}"
    if word and _letters_only(word) in _letters_only(text):
        return "a clue must not contain the Magic Word"
    return None


def _letters_only(text: str) -> str:
    return "".join(ch for ch in fold(text) if ch.isalnum())


def write_clue(state: State, seat: int | None, action: Action, events: Events) -> State:
    if len(action.args) != 1 or not isinstance(action.args[0], str):
        raise IllegalAction('write a clue as: clue "word"')
    clue = action.args[0].strip()
    problem = clue_problem(clue, state.word or "")
    if problem:
        raise IllegalAction(problem)
    if seat is None and len(state.clues) >= werewolf_cards(state.config):
        raise IllegalAction("every Werewolf has written a clue already")
    wolves = state.holders(Role.WEREWOLF) if seat is not None else ()
    events.append(Event("clue", {"clue": clue}, Audience.of(wolves)))
    state = replace(state, clues=(*state.clues, clue))
    if seat is None:
        return state
    state = replace(state, acted=state.acted | {seat})
    if state.acted >= frozenset(wolves):
        return advance_step(state, events)
    return state


# -- day -------------------------------------------------------------------------------


def start_day(state: State, events: Events) -> State:
    data: dict[str, object] = {"seconds": state.config.day_length()}
    if state.config.speedwords:
        data["pattern"] = pattern(state.word or "")
        data["clues"] = sorted(state.clues, key=str.casefold)
    events.append(Event("day", data, PUBLIC, narration.DAY_BREAKS))
    return replace(state, phase=Phase.DAY, seq=state.seq + 1, acted=frozenset())


def pattern(word: str) -> str:
    """Speedwords' blanks: every letter or digit is a ``_``; spaces, hyphens, apostrophes show."""
    return "".join("_" if ch.isalnum() else ch for ch in word)


def ask_question(state: State, seat: int, action: Action, events: Events) -> State:
    """A typed question goes into the public log, kept as plain text (never markup). A guess
    or a category in ordinary words is recognised, so a machine can answer it."""
    if not state.config.typed_questions:
        raise IllegalAction("typed questions are switched off; ask the Mayor aloud")
    if len(action.args) != 1 or not isinstance(action.args[0], str):
        raise IllegalAction('ask one question as text: ask "Is it an animal?"')
    text = " ".join(action.args[0].split())
    if not text or len(text) > MAX_QUESTION:
        raise IllegalAction(f"a question has 1 to {MAX_QUESTION} characters, not {len(text)}")
    if not text.isprintable():
        raise IllegalAction("a question is plain text without control characters")
    return add_question(state, seat, text, read_free_text(text), events)


def ask_structured(state: State, seat: int, action: Action, events: Events) -> State:
    """A question from the list (is it WORD; category; starts with; contains; more or fewer
    letters than; one word), asked in the log in its plain wording."""
    if not state.config.typed_questions:
        raise IllegalAction("typed questions are switched off; ask the Mayor aloud")
    if len(action.args) > 1:
        raise IllegalAction(f"{action.name} takes at most one argument")
    arg = action.args[0] if action.args else None
    if action.name == "ask_word" and isinstance(arg, str):
        arg = " ".join(arg.split())
    form = Form(action.name.removeprefix("ask_"), arg)
    problem = form_problem(form)
    if problem:
        raise IllegalAction(f"{action.name}: {problem}")
    return add_question(state, seat, form.text(), form, events)


def add_question(state: State, seat: int, text: str, form: Form | None, events: Events) -> State:
    q = Question(len(state.questions), seat, text, form=form)
    data: dict[str, object] = {"id": q.id, "seat": seat, "question": text}
    if form is not None:
        data["form"] = form.to_json()
    events.append(Event("question", data, PUBLIC))
    return replace(state, questions=(*state.questions, q), asking=state.asking | {seat})


def mayor_gives(state: State, seat: int, action: Action, events: Events) -> State:
    name = action.name
    if name == "correct":
        return end_day(
            state, guessed=True, guesser=int(action.args[0]), how="correct", events=events
        )
    if name == "no_more_tokens":
        events.append(Event("no_more_tokens", {}, PUBLIC, narration.out_of_tokens()))
        return end_day(state, guessed=False, guesser=None, how="tokens", events=events)
    if name == "wayoff":
        target = action.args[0]
        supply = state.supply.take(Token.WAY_OFF)
        if target == "table":
            events.append(Event("way_off", {"to": "table"}, PUBLIC))
            return replace(state, supply=supply, table_way_off=state.table_way_off + 1)
        state = replace(state, supply=supply, received=_gain(state, int(target), Token.WAY_OFF))
        events.append(Event("way_off", {"to": int(target)}, PUBLIC))
        return state
    if name == "unclear":
        events.append(Event("unclear", {"question": int(action.args[0])}, PUBLIC, UNCLEAR_LINE))
        action = act("answer", int(action.args[0]), Token.MAYBE.value)
        name = "answer"
    if name == "answer":
        qid, token = int(action.args[0]), str(action.args[1])
        q = state.questions[qid]
        questions = list(state.questions)
        questions[qid] = replace(q, answer=token)
        state = replace(state, questions=tuple(questions), asking=state.asking - {q.seat})
        return give_token(state, q.seat, token, qid, events)
    return give_token(state, int(action.args[0]), str(action.args[1]), None, events)


def _gain(state: State, seat: int, token: Token) -> tuple[Received, ...]:
    received = list(state.received)
    received[seat] = received[seat].gain(token)
    return tuple(received)


def give_token(state: State, seat: int, token: str, question: int | None, events: Events) -> State:
    """The Mayor answers with one token to the asker; the last Yes/No token ends the day."""
    given = Token(token)
    supply = state.supply.take(given)
    state = replace(state, supply=supply, received=_gain(state, seat, given))
    data: dict[str, object] = {"seat": seat, "token": token}
    if question is not None:
        data["question"] = question
    events.append(Event("token", data, PUBLIC))
    if given is Token.CORRECT:
        return end_day(state, guessed=True, guesser=seat, how="correct", events=events)
    if given in (Token.YES, Token.NO) and supply.yes_no == 0:
        events.append(Event("no_more_tokens", {}, PUBLIC, narration.out_of_tokens()))
        return end_day(state, guessed=False, guesser=None, how="tokens", events=events)
    return state


def end_day(state: State, *, guessed: bool, guesser: int | None, how: str, events: Events) -> State:
    state = replace(state, ended_by=how)
    if guessed:
        assert guesser is not None
        return start_pointing(state, guesser, events)
    return start_discussion(state, events)


# -- endings ---------------------------------------------------------------------------


def start_pointing(state: State, guesser: int, events: Events) -> State:
    """Word guessed: the word is out, the Werewolves show themselves and point within 15 s."""
    wolves = state.holders(Role.WEREWOLF) if state.config.mode is Mode.ONLINE else ()
    events.append(
        Event(
            "correct",
            {"guesser": guesser, "word": state.word, "werewolves": list(wolves)},
            PUBLIC,
            narration.correct(state.config.name(guesser)),
        )
    )
    return replace(
        state,
        phase=Phase.POINTING,
        seq=state.seq + 1,
        guessed=True,
        guesser=guesser,
        word_public=True,
        revealed=state.revealed | frozenset(wolves),
        acted=frozenset(),
        points=(None,) * state.n,
    )


def start_discussion(state: State, events: Events) -> State:
    events.append(Event("discussion", {"seconds": state.config.discussion_seconds}, PUBLIC))
    return replace(
        state,
        phase=Phase.DISCUSSION,
        seq=state.seq + 1,
        guessed=False,
        guesser=None,
        acted=frozenset(),
        points=(None,) * state.n,
    )


def start_vote(state: State, events: Events) -> State:
    if state.config.mode is Mode.COMPANION:
        events.append(
            Event("report", {}, PUBLIC, narration.VOTE_NOW + " " + narration.REPORT_FOUND)
        )
        return replace(state, phase=Phase.REPORT, seq=state.seq + 1, acted=frozenset())
    events.append(Event("vote", {"seconds": state.config.vote_seconds}, PUBLIC, narration.VOTE_NOW))
    return replace(state, phase=Phase.VOTING, seq=state.seq + 1, acted=frozenset())


def werewolves_point(state: State, seat: int, action: Action, events: Events) -> State:
    points = list(state.points)
    points[seat] = int(action.args[0])
    state = replace(state, points=tuple(points), acted=state.acted | {seat})
    events.append(Event("pointed", {"seat": seat, "target": points[seat]}, PUBLIC))
    if state.acted >= frozenset(state.holders(Role.WEREWOLF)):
        return resolve_pointing(state, events)
    return state


def finds_seer(state: State, seat: int) -> bool:
    """The Werewolves win by finding the Seer, the Fortune Teller, or the Apprentice when the
    Apprentice acts as Seer (the Mayor being the Seer)."""
    role = state.role(seat)
    if role in FINDS_SEER:
        return True
    return role is Role.APPRENTICE and mayor_is_seer(state)


def mayor_is_seer(state: State) -> bool:
    """The Mayor is the Seer when the Mayor's secret role now is the Seer: the centre card,
    or the role a Doppelgänger-Mayor copied (the Doppelgänger becomes that role for the game).
    Such a Mayor is offered easier words, the Werewolves win by pointing at them, and the
    Apprentice takes over as Seer."""
    return state.mayor is not None and state.role(state.mayor) is Role.SEER


def resolve_pointing(state: State, events: Events) -> State:
    if state.config.mode is Mode.COMPANION:
        events.append(Event("report", {}, PUBLIC, narration.REPORT_FOUND))
        return replace(state, phase=Phase.REPORT, seq=state.seq + 1, acted=frozenset())
    targets = tuple(sorted({t for t in state.points if t is not None}))
    found = tuple(t for t in targets if finds_seer(state, t))
    if found:
        result = RoundResult(Team.WEREWOLVES.value, True, found, "the Werewolves found the Seer")
    elif targets:
        result = RoundResult(Team.VILLAGE.value, True, (), "the Werewolves missed the Seer")
    else:
        result = RoundResult(Team.VILLAGE.value, True, (), "the Werewolves pointed at no one")
    return decide(replace(state, revealed=state.revealed | frozenset(targets)), result, events)


def ready_to_vote(state: State, seat: int, action: Action, events: Events) -> State:
    state = replace(state, acted=state.acted | {seat})
    if len(state.acted) == state.n:
        return start_vote(state, events)
    return state


def vote(state: State, seat: int, action: Action, events: Events) -> State:
    points = list(state.points)
    points[seat] = int(action.args[0])
    state = replace(state, points=tuple(points), acted=state.acted | {seat})
    events.append(Event("voted", {"seat": seat}, PUBLIC))
    if len(state.acted) == state.n:
        return resolve_vote(state, events)
    return state


def resolve_vote(state: State, events: Events) -> State:
    """The most-voted players reveal; a Werewolf among them wins for the Village. If every
    player got exactly one vote, or nobody was named, the Werewolf team wins. The Minion is
    not a Werewolf."""
    counts = [0] * state.n
    for target in state.points:
        if target is not None:
            counts[target] += 1
    top = max(counts)
    events.append(Event("votes", {"votes": list(state.points), "counts": counts}, PUBLIC))
    if all(c == 1 for c in counts):
        result = RoundResult(Team.WEREWOLVES.value, False, (), "every player got one vote")
        named: tuple[int, ...] = ()
    elif top == 0:
        result = RoundResult(Team.WEREWOLVES.value, False, (), "nobody was named")
        named = ()
    else:
        named = tuple(s for s in range(state.n) if counts[s] == top)
        found = tuple(s for s in named if state.role(s) is Role.WEREWOLF)
        if found:
            result = RoundResult(Team.VILLAGE.value, False, found, "a Werewolf was found")
        else:
            result = RoundResult(Team.WEREWOLVES.value, False, (), "no Werewolf was found")
    return decide(replace(state, revealed=state.revealed | frozenset(named)), result, events)


def report_found(state: State, seat: int, action: Action, events: Events) -> State:
    """Companion mode: the table taps who was found."""
    found = () if action == NONE_FOUND else (int(action.args[0]),)
    if state.guessed:
        team = Team.WEREWOLVES if found else Team.VILLAGE
        reason = "the Werewolves found the Seer" if found else "the Werewolves missed the Seer"
    else:
        team = Team.VILLAGE if found else Team.WEREWOLVES
        reason = "a Werewolf was found" if found else "no Werewolf was found"
    result = RoundResult(team.value, bool(state.guessed), found, reason)
    return decide(replace(state, revealed=state.revealed | frozenset(found)), result, events)


def decide(state: State, result: RoundResult, events: Events) -> State:
    """The round is decided: every card is turned over and the word is said aloud."""
    roles = {str(s): r.value for s in range(state.n) for r in (state.role(s),) if r is not None}
    events.append(
        Event(
            "result",
            {
                "winning_team": result.winning_team,
                "found": list(result.found),
                "reason": result.reason,
                "word": state.word,
                "roles": roles,
            },
            PUBLIC,
            f"The {'village' if result.winning_team == 'village' else 'werewolf'} team wins: "
            f"{result.reason}. The Magic Word was {state.word!r}.",
        )
    )
    return replace(
        state,
        phase=Phase.RESULT,
        seq=state.seq + 1,
        result=result,
        word_public=True,
        revealed=frozenset(range(state.n)),
        acted=frozenset(),
    )


def whoops(state: State, action: Action, events: Events) -> State:
    """Whoops shows the other ending than the one being played."""
    events.append(Event("whoops", {}, PUBLIC, narration.WHOOPS))
    if state.guessed:
        return start_discussion(replace(state, ended_by="whoops"), events)
    return start_pointing(replace(state, ended_by="whoops"), int(action.args[0]), events)


def play_again(state: State, action: Action, events: Events) -> State:
    if action == FINISH:
        return finish(state, events)
    difficulty = Difficulty(action.args[0]) if action.args else state.difficulty
    assert state.result is not None
    events.append(
        Event("play_again", {"difficulty": difficulty.value}, PUBLIC, narration.PLAY_AGAIN)
    )
    new, more = new_round(
        state.config,
        rng=state.rng,
        seq=state.seq,
        round=state.round,
        difficulty=difficulty,
        last_mayor=state.mayor,
        history=(*state.history, state.result),
    )
    events += more
    return new


def finish(state: State, events: Events) -> State:
    assert state.result is not None
    events.append(Event("over", {"rounds": state.round}, PUBLIC))
    return replace(
        state, phase=Phase.OVER, seq=state.seq + 1, history=(*state.history, state.result)
    )


def claim_mayor(state: State, seat: int, action: Action, events: Events) -> State:
    events.append(
        Event("mayor", {"seat": seat}, PUBLIC, narration.mayor_is(state.config.name(seat)))
    )
    events.append(Event("night", {}, PUBLIC, narration.NIGHT_FALLS))
    state = replace(state, mayor=seat, phase=Phase.NIGHT, seq=state.seq + 1)
    return enter_step(state, events)


APPLY: dict[Phase, Callable[[State, int, Action, Events], State]] = {
    Phase.CLAIM_MAYOR: claim_mayor,
    Phase.NIGHT: night_action,
    Phase.DAY: mayor_gives,
    Phase.POINTING: werewolves_point,
    Phase.DISCUSSION: ready_to_vote,
    Phase.VOTING: vote,
    Phase.REPORT: report_found,
}


# -- teams and the outcome ---------------------------------------------------------------


def team_names(config: Config) -> tuple[str, ...]:
    """The teams a seat can be on (the names the Outcome uses); none in companion mode, where
    the cards are physical and the app never learns them."""
    if config.mode is Mode.COMPANION:
        return ()
    return tuple(team.value for team in Team)


def seat_teams(state: State) -> dict[int, str]:
    """Every seat's team in the round being played: the team of its card, or of the role a
    Doppelgänger copied once it has copied (as the Outcome counts it). A new round deals new
    cards. Empty in companion mode."""
    if state.config.mode is Mode.COMPANION:
        return {}
    teams: dict[int, str] = {}
    for seat in range(state.n):
        role = state.role(seat)
        if role is not None:
            teams[seat] = role.team.value
    return teams


def outcome(state: State) -> Outcome | None:
    """The last round decides the match; every round's result is in ``stats['rounds']``."""
    if state.phase is not Phase.OVER:
        return None
    result = state.history[-1]
    teams: dict[int, str] = {}
    roles: dict[int, str] = {}
    for seat in range(state.n):
        role = state.role(seat)
        if role is not None:
            teams[seat] = role.team.value
            roles[seat] = role.value
    # In companion mode the app knows only the Mayor's card, so only the Mayor can be named.
    winners = frozenset(s for s, t in teams.items() if t == result.winning_team)
    mayor_role = state.cards[state.mayor] if state.mayor is not None else None
    summary = (
        f"The {'village' if result.winning_team == Team.VILLAGE.value else 'werewolf'} team "
        f"wins: {result.reason}."
    )
    return Outcome(
        winners=winners,
        winning_team=result.winning_team,
        summary=summary,
        teams=teams,
        roles=roles,
        rounds=len(state.history),
        stats={
            "guessed": result.guessed,
            "ended_by": state.ended_by,
            "mayor": state.mayor,
            "mayor_role": mayor_role.value if mayor_role is not None else None,
            "difficulty": state.difficulty.value,
            "questions": len(state.questions),
            "yes_no_left": state.supply.yes_no,
            "found": list(result.found),
            "rounds": [r.winning_team for r in state.history],
        },
    )
