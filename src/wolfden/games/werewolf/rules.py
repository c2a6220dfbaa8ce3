"""The rules of the Werewolf party game (seed 001 and the werewolf rulings).

One function per step of a round, in the seed's order: the deal; the night (the Werewolves'
pick, the Seer's check, the Guardian's protection); dawn; the day's discussion (with the
``talk`` option, its public claims); the vote and the revote; every elimination, and the win
check that follows it. ``apply`` finds the step an
action belongs to; nothing here reads a clock or changes a state it was given.

The documented variant roles add their steps in the same places (docs/games/werewolf.md,
"Variant roles"): the Witch's potions and Cupid's link at night, the Sheriff's election on the
first day, the Village Idiot's reprieve in the ballot, and after an elimination (``settle``)
a Lover's grief, a Hunter's shot and the Sheriff's badge; the Lycan changes the Seer's answer,
the Tanner and the Lovers the win check.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from wolfden.engine.errors import ConfigError, IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Deadline, Event, Outcome, Viewer
from wolfden.games.werewolf import narration as say
from wolfden.games.werewolf.actions import (
    ABSTAIN,
    CHECK,
    CHECK_RESULTS,
    CLAIM_CHECK,
    CLAIM_PROTECT,
    CLAIM_ROLE,
    CLOSE_BALLOT,
    DAWN,
    ELECT,
    END_DISCUSSION,
    HEAL,
    NO_POTION,
    NO_SHOT,
    NO_SUCCESSOR,
    PASS_BADGE,
    PICK,
    POISON,
    PROTECT,
    QUIET,
    SHOOT,
    SUSPECT,
    TRUST,
    VOTE,
    link,
    target_of,
)
from wolfden.games.werewolf.config import Config
from wolfden.games.werewolf.roles import Card, Phase, Role, Team, cards_for
from wolfden.games.werewolf.state import (
    Claim,
    Death,
    Night,
    SeerCheck,
    State,
    Tally,
    with_choice,
)

Result = tuple[State, list[Event]]
BALLOTS = (Phase.VOTE, Phase.REVOTE)
CLAIMS_PER_DAY = 3
"""With the ``talk`` option: how many claims each living player may make in one discussion."""


# -- the deal ---------------------------------------------------------------------------------


def deal(config: Config, rng: Rng) -> tuple[tuple[Card, ...], frozenset[int]]:
    """Shuffle the deal's cards and give one to each seat.

    A player who declined a special role gets a Villager whenever the counts allow; those the
    deal could not serve are returned so that each is told privately.
    """
    cards = rng.shuffled(cards_for(config))
    if not config.villager_only:
        return tuple(cards), frozenset()
    villagers = [card for card in cards if card.role is Role.VILLAGER]
    others = [card for card in cards if card.role is not Role.VILLAGER]
    hands: dict[int, Card] = {}
    unmet = set()
    for seat in config.villager_only:
        if villagers:
            hands[seat] = villagers.pop()
        else:
            unmet.add(seat)
    rest = rng.shuffled(villagers + others)
    for seat in range(config.players):
        if seat not in hands:
            hands[seat] = rest.pop()
    return tuple(hands[seat] for seat in range(config.players)), frozenset(unmet)


def setup(config: Config, seed: int) -> State:
    if not isinstance(config, Config):
        raise ConfigError("setup needs a werewolf Config")
    config.validate()
    rng = Rng(seed)
    cards, unmet = deal(config, rng)
    nobody = (None,) * config.players
    state = State(
        config=config,
        cards=cards,
        unmet_requests=unmet,
        rng=rng.state,
        phase=Phase.NIGHT,
        seq=0,
        round=1,
        alive=frozenset(range(config.players)),
        pending=frozenset(),
        picks=nobody,
        previous_picks=nobody,
        pick_round=1,
        locked=None,
        checked=nobody,
        protecting=nobody,
        last_protected=nobody,
        seer_checks=(),
        candidates=(),
        votes=nobody,
        night_log=(),
        tallies=(),
        deaths=(),
        winner=None,
        summary="",
    )
    state, _ = night_falls(state)
    return state


def seat_teams(state: State) -> dict[int, str]:
    """Every seat's team as dealt (the cards never change hands during a match), except that
    Lovers of different teams play for each other from the moment Cupid links them."""
    teams = {seat: role.team.value for seat, role in enumerate(state.roles)}
    if state.mixed_lovers:
        teams.update({seat: Team.LOVERS.value for seat in state.lovers})
    return teams


# -- who acts, and when the clock does --------------------------------------------------------


def actors(state: State) -> frozenset[int]:
    return state.pending


def legal_actions(state: State, seat: int | None) -> list[Action]:
    if seat is None:
        return [END_DISCUSSION] if state.phase is Phase.DISCUSSION else []
    if seat not in state.pending:
        return []
    if state.phase in BALLOTS:
        return [VOTE[c] for c in state.candidates if c != seat] + [ABSTAIN]
    if state.phase is Phase.DISCUSSION:
        return talk_actions(state, seat)
    if state.phase is Phase.HUNT:
        return [SHOOT[t] for t in state.living()]
    if state.phase is Phase.ELECTION:
        return [ELECT[c] for c in state.candidates if c != seat] + [ABSTAIN]
    if state.phase is Phase.BADGE:
        return [PASS_BADGE[t] for t in state.living()]
    role = state.roles[seat]
    living = state.living()
    if role is Role.WEREWOLF:
        return [PICK[t] for t in living if not state.is_werewolf(t)]
    if role is Role.SEER:
        return [CHECK[t] for t in living if t != seat]
    if role is Role.WITCH:
        return witch_actions(state, seat)
    if role is Role.CUPID:
        return [link(a, b) for i, a in enumerate(living) for b in living[i + 1 :]]
    return [PROTECT[t] for t in living if t != state.last_protected[seat]]


def deadline(state: State) -> Deadline | None:
    config = state.config
    if state.phase is Phase.NIGHT:
        # When every night action is in, the night still lasts its minimum length.
        seconds = config.night_seconds if state.pending else config.min_night_seconds
        return Deadline(state.seq, seconds, DAWN, "night")
    if state.phase is Phase.DISCUSSION:
        return Deadline(state.seq, config.discussion_seconds, END_DISCUSSION, "discussion")
    if state.phase in BALLOTS:
        return Deadline(state.seq, config.vote_seconds, CLOSE_BALLOT, state.phase.value)
    if state.phase is Phase.HUNT:
        return Deadline(state.seq, config.vote_seconds, NO_SHOT, "hunt")
    if state.phase is Phase.ELECTION:
        return Deadline(state.seq, config.vote_seconds, CLOSE_BALLOT, "election")
    if state.phase is Phase.BADGE:
        return Deadline(state.seq, config.vote_seconds, NO_SUCCESSOR, "badge")
    return None


def timer(state: State, viewer: Viewer) -> Deadline | None:
    """The countdown everyone is shown. At night it is always the longest night: the moment
    the last night action comes in would otherwise tell the table how many roles still act."""
    if state.phase is Phase.NIGHT:
        return Deadline(state.seq, state.config.night_seconds, DAWN, "night")
    return deadline(state)


def phase_seq(state: State) -> int:
    return state.seq


# -- apply ------------------------------------------------------------------------------------


def apply(state: State, seat: int | None, action: Action) -> Result:
    if state.phase is Phase.END:
        raise MatchOver("the game is over; start a new one to play again")
    if seat is None:
        return moderator(state, action)
    if seat not in state.pending:
        raise NotYourTurn(_not_your_turn(state, seat))
    if state.phase in BALLOTS:
        return vote(state, seat, action)
    if state.phase is Phase.DISCUSSION:
        return talk(state, seat, action)
    if state.phase is Phase.HUNT:
        return hunter_shoots(state, seat, action)
    if state.phase is Phase.ELECTION:
        return election_vote(state, seat, action)
    if state.phase is Phase.BADGE:
        return pass_badge(state, seat, action)
    role = state.roles[seat]
    if role is Role.WEREWOLF:
        return werewolf_pick(state, seat, action)
    if role is Role.SEER:
        return seer_check(state, seat, action)
    if role is Role.WITCH:
        return witch_acts(state, seat, action)
    if role is Role.CUPID:
        return cupid_links(state, seat, action)
    return guardian_protect(state, seat, action)


def _not_your_turn(state: State, seat: int) -> str:
    n = state.players
    if not (isinstance(seat, int) and 0 <= seat < n):
        return f"there is no seat {seat}; seats are 0 to {n - 1}"
    if state.phase is Phase.HUNT:
        return "the Hunter is choosing whom to take with them; wait for their shot"
    if state.phase is Phase.BADGE:
        return "the Sheriff is passing the badge; wait for their choice"
    if state.phase is Phase.ELECTION and state.is_alive(seat):
        return "you have already voted in the Sheriff's election"
    if not state.is_alive(seat):
        return "eliminated players watch; they cannot act"
    if seat in state.voteless and state.phase in BALLOTS:
        return "a revealed Village Idiot stays in the game but no longer votes"
    if state.phase is Phase.NIGHT:
        return "you have nothing (more) to do tonight"
    if state.phase is Phase.DISCUSSION:
        if state.config.talk:
            return "you have said your piece today; the ballot opens when the discussion ends"
        return "it is time to discuss; the ballot opens when the discussion ends"
    return "you have already voted in this ballot"


MODERATOR_ACTIONS = {
    Phase.NIGHT: (DAWN, "dawn (by the clock)"),
    Phase.DISCUSSION: (END_DISCUSSION, "end_discussion"),
    Phase.VOTE: (CLOSE_BALLOT, "close_ballot (by the clock)"),
    Phase.REVOTE: (CLOSE_BALLOT, "close_ballot (by the clock)"),
    Phase.HUNT: (NO_SHOT, "no_shot (by the clock)"),
    Phase.ELECTION: (CLOSE_BALLOT, "close_ballot (by the clock)"),
    Phase.BADGE: (NO_SUCCESSOR, "no_successor (by the clock)"),
}
"""The one action the moderator (the clock or the host) takes in each phase."""


def moderator(state: State, action: Action) -> Result:
    expected, allowed = MODERATOR_ACTIONS[state.phase]
    if action != expected:
        raise IllegalAction(
            f"the moderator cannot '{action}' now; during the {state.phase.value}: {allowed}"
        )
    if state.phase is Phase.NIGHT:
        return dawn(state)
    if state.phase is Phase.DISCUSSION:
        return end_discussion(state)
    if state.phase is Phase.HUNT:
        return hunter_holds_fire(state)
    if state.phase is Phase.ELECTION:
        return close_election(state)
    if state.phase is Phase.BADGE:
        return badge_lost(state)
    return close_ballot(state)


# -- the night --------------------------------------------------------------------------------


def night_falls(state: State) -> Result:
    """The night begins: every role that was dealt is called, and the living ones act."""
    nobody = (None,) * state.players
    state = replace(
        state,
        phase=Phase.NIGHT,
        seq=state.seq + 1,
        picks=nobody,
        previous_picks=nobody,
        pick_round=1,
        locked=None,
        checked=nobody,
        protecting=nobody,
        healing=frozenset(),
        poisoning=(),
        witch_done=frozenset(),
        pending=night_actors(state),
    )
    return state, say.night_falls(state.config)


def night_actors(state: State) -> frozenset[int]:
    """Who acts as the night begins: the living Werewolves, Seers and Guardians, and on the
    first night Cupid. (A Witch wakes once the pack has chosen.)"""
    first = state.round == 1
    return frozenset(
        s
        for s in state.alive
        if state.roles[s].acts_at_night or (first and state.roles[s] is Role.CUPID)
    )


def werewolf_pick(state: State, seat: int, action: Action) -> Result:
    """Each living Werewolf picks a living non-Werewolf; the pack sees every pick at once.

    When all living Werewolves agree the target is locked. If they disagree, they pick again
    (seeing the last picks), up to ``pack_rounds`` rounds; then the most-picked player is taken,
    a tie broken by the seeded generator.
    """
    usage = "a Werewolf's night action is 'pick N' (a living non-Werewolf)"
    target = target_of(action, "pick", usage, state.players)
    if not state.is_alive(target) or state.is_werewolf(target):
        raise IllegalAction("the pack picks a living player who is not a Werewolf")
    config, pack = state.config, state.pack
    state = replace(
        state, picks=with_choice(state.picks, seat, target), pending=state.pending - {seat}
    )
    events = [say.pack_pick(config, pack, seat, target, state.pick_round)]
    if state.pending & set(pack):  # the round of picks goes on
        return state, events
    picks = [state.picks[w] for w in pack]
    if picks.count(target) == len(pack):
        state = replace(state, locked=target)
    elif state.pick_round < config.pack_rounds:
        state = replace(
            state,
            previous_picks=state.picks,
            picks=(None,) * state.players,
            pick_round=state.pick_round + 1,
            pending=state.pending | set(pack),
        )
        return state, [*events, say.pack_disagrees(config, pack, state.pick_round)]
    else:
        rng = Rng(state.rng)
        state = replace(state, locked=most_picked(picks, rng), rng=rng.state)
    assert state.locked is not None  # every Werewolf picked
    return witches_wake(state, [*events, say.pack_locked(config, pack, state.locked)])


def most_picked(picks: list[int | None], rng: Rng) -> int | None:
    """The most-picked player; a tie is broken by the seeded generator; no pick at all: no one."""
    counts = Counter(p for p in picks if p is not None)
    if not counts:
        return None
    top = max(counts.values())
    leaders = sorted(target for target, n in counts.items() if n == top)
    return leaders[0] if len(leaders) == 1 else leaders[rng.below(len(leaders))]


def seer_check(state: State, seat: int, action: Action) -> Result:
    """The Seer checks one living player other than themselves and learns the answer at once:
    a Werewolf, or not. A Lycan looks like a Werewolf to the Seer."""
    usage = "the Seer's night action is 'check N' (another living player)"
    target = target_of(action, "check", usage, state.players)
    if target == seat or not state.is_alive(target):
        raise IllegalAction("the Seer checks a living player other than themselves")
    is_werewolf = state.roles[target].seen_as_werewolf
    state = replace(
        state,
        checked=with_choice(state.checked, seat, target),
        seer_checks=(*state.seer_checks, SeerCheck(seat, state.round, target, is_werewolf)),
        pending=state.pending - {seat},
    )
    return state, [say.seer_answer(state.config, seat, target, is_werewolf)]


def guardian_protect(state: State, seat: int, action: Action) -> Result:
    """The Guardian protects a living player, themselves allowed, never last night's choice."""
    usage = "the Guardian's night action is 'protect N' (a living player)"
    target = target_of(action, "protect", usage, state.players)
    if not state.is_alive(target):
        raise IllegalAction("the Guardian protects a living player")
    if target == state.last_protected[seat]:
        name = state.config.name(target)
        raise IllegalAction(f"the Guardian cannot protect {name} two nights running")
    state = replace(
        state,
        protecting=with_choice(state.protecting, seat, target),
        pending=state.pending - {seat},
    )
    return state, [say.protecting(state.config, seat, target)]


def witches_wake(state: State, events: list[Event]) -> Result:
    """Once the pack has chosen, each living Witch learns its target, and one with a potion
    left may use it."""
    assert state.locked is not None
    witches = [s for s in state.living() if state.roles[s] is Role.WITCH]
    events = [*events, *(say.witch_told(state.config, w, state.locked) for w in witches)]
    able = {w for w in witches if w not in state.heal_used or w not in state.poison_used}
    return replace(state, pending=state.pending | able), events


def witch_actions(state: State, seat: int) -> list[Action]:
    """The Witch's choice tonight: heal the pack's target, poison another living player (each
    potion once per game), or neither."""
    out = [HEAL] if seat not in state.heal_used and state.locked is not None else []
    if seat not in state.poison_used:
        out += [POISON[t] for t in state.living() if t != seat]
    return [*out, NO_POTION]


def witch_acts(state: State, seat: int, action: Action) -> Result:
    """One potion a night at most: ``heal`` saves the pack's target, ``poison N`` eliminates N
    at dawn (a Guardian's protection does not stop it), ``no_potion`` keeps both."""
    if action not in witch_actions(state, seat):
        raise IllegalAction(
            f"'{action}' is not the Witch's to do now: 'heal' (once per game, the pack's "
            "target), 'poison N' (once per game, another living player) or 'no_potion'"
        )
    config = state.config
    state = replace(state, pending=state.pending - {seat}, witch_done=state.witch_done | {seat})
    if action == HEAL:
        victim = state.locked
        assert victim is not None
        state = replace(state, healing=state.healing | {seat}, heal_used=state.heal_used | {seat})
        return state, [say.witch_heals(config, seat, victim)]
    if action == NO_POTION:
        return state, [say.witch_keeps(seat)]
    target = int(action.args[0])
    state = replace(
        state,
        poisoning=(*state.poisoning, (seat, target)),
        poison_used=state.poison_used | {seat},
    )
    return state, [say.witch_poisons(config, seat, target)]


def cupid_links(state: State, seat: int, action: Action) -> Result:
    """On the first night Cupid links two living players (themselves allowed) as Lovers; each
    Lover learns at once, privately, who the other is (not their card)."""
    if action.name != "link" or action not in legal_actions(state, seat):
        raise IllegalAction(
            f"'{action}' is not Cupid's to do: 'link A B' links two different living players "
            "(seats A < B, yourself allowed) as Lovers"
        )
    a, b = (int(x) for x in action.args)
    state = replace(state, lovers=(a, b), pending=state.pending - {seat})
    config = state.config
    return state, [
        say.cupid_linked(config, seat, a, b),
        say.in_love(config, a, b),
        say.in_love(config, b, a),
    ]


def dawn(state: State) -> Result:
    """The night's actions are resolved together: the pack's target is eliminated unless a
    Guardian protected them or a Witch healed them, and a Witch's poison eliminates its
    player. A save is never announced: the day only hears that no one was
    eliminated. Then the win check, and the day's discussion."""
    target = state.locked
    rng = Rng(state.rng)
    if target is None:
        # No agreement: the most-picked among each Werewolf's latest pick.
        latest = [
            state.picks[w] if state.picks[w] is not None else state.previous_picks[w]
            for w in state.pack
        ]
        target = most_picked(latest, rng)
    # Tonight's protections are what each Guardian may not repeat tomorrow; a Guardian who
    # protected no one tonight may protect anyone tomorrow.
    protected = tuple(sorted({p for p in state.protecting if p is not None}))
    checks_tonight = [c for c in state.seer_checks if c.round == state.round]
    night = Night(
        state.round,
        target,
        protected,
        tuple(checks_tonight),
        state.pack,
        state.picks,
        healed=tuple(sorted(state.healing)),
        poisoned=state.poisoning,
    )
    state = replace(
        state,
        rng=rng.state,
        last_protected=state.protecting,
        night_log=(*state.night_log, night),
        pending=frozenset(),
    )
    events = [say.day_breaks()]
    if not night.victims:
        events.append(say.no_one_taken())
    for victim in night.victims:  # in seat order: the day is not told whose victim is whose
        state, eliminated = eliminate(state, victim, "night")
        events.append(eliminated)
    return settle(state, events, "day")


def start_discussion(state: State) -> Result:
    """The day's discussion. With structured talk every living player may make claims. With
    the ``sheriff`` option the first day opens with the Sheriff's election."""
    if state.config.sheriff and not state.elected:
        return open_election(state)
    talkers = state.alive if state.config.talk else frozenset()
    state = replace(state, phase=Phase.DISCUSSION, seq=state.seq + 1, pending=talkers)
    return state, [say.discuss()]


# -- the day ----------------------------------------------------------------------------------


def open_election(state: State) -> Result:
    """The first day's election: every living voter votes for another living player for
    Sheriff, or abstains; the ballot closes when all have voted, or at its deadline."""
    state = replace(
        state,
        phase=Phase.ELECTION,
        seq=state.seq + 1,
        candidates=state.living(),
        votes=(None,) * state.players,
        pending=frozenset(state.voters),
    )
    return state, [say.election_open()]


def election_vote(state: State, seat: int, action: Action) -> Result:
    if action == ABSTAIN:
        choice = None
    else:
        usage = "in the Sheriff's election you may 'elect N' or 'abstain'"
        choice = target_of(action, "elect", usage, state.players)
        if choice == seat or choice not in state.candidates:
            raise IllegalAction("elect another living player as Sheriff, or abstain")
    state = replace(
        state, votes=with_choice(state.votes, seat, choice), pending=state.pending - {seat}
    )
    events = [say.vote_cast(seat, choice)]
    if state.pending:
        return state, events
    state, more = close_election(state)
    return state, events + more


def close_election(state: State) -> Result:
    """The most votes win the badge; a tie is broken by the seeded generator; if everyone
    abstained there is no Sheriff. Then the day's discussion."""
    counts = {c: 0 for c in state.candidates}
    for voter in state.voters:
        choice = state.votes[voter]
        if choice is not None:
            counts[choice] += 1
    votes = None
    if state.config.public_ballots:
        votes = {str(v): state.votes[v] for v in state.voters}
    top = max(counts.values())
    sheriff = None
    rng = Rng(state.rng)
    if top:
        leaders = [c for c, n in counts.items() if n == top]
        sheriff = leaders[0] if len(leaders) == 1 else leaders[rng.below(len(leaders))]
    state = replace(state, sheriff=sheriff, elected=True, pending=frozenset(), rng=rng.state)
    event = say.sheriff_elected(state.config, sheriff, counts, votes)
    state, more = start_discussion(state)
    return state, [event, *more]


def claims_today(state: State, seat: int) -> tuple[Claim, ...]:
    return tuple(c for c in state.claims if c.round == state.round and c.seat == seat)


def talk_actions(state: State, seat: int) -> list[Action]:
    """The claims a living player may still make in today's discussion (each at most once),
    then ``quiet``. Roles are those of the deal, which everyone knows."""
    living = state.living()
    others = [t for t in living if t != seat]
    dealt = [role for role in Role if any(card.role is role for card in state.cards)]
    offered = [Action(CLAIM_ROLE, (role.value,)) for role in dealt]
    offered += [Action(CLAIM_CHECK, (t, result)) for t in others for result in CHECK_RESULTS]
    offered += [Action(SUSPECT, (t,)) for t in others]
    offered += [Action(TRUST, (t,)) for t in others]
    offered += [Action(CLAIM_PROTECT, (t,)) for t in living]
    said = {_said(c) for c in claims_today(state, seat)}
    return [a for a in offered if a not in said] + [QUIET]


def _said(claim: Claim) -> Action:
    """The action that made a claim."""
    if claim.kind == CLAIM_ROLE:
        return Action(CLAIM_ROLE, (str(claim.value),))
    if claim.kind == CLAIM_CHECK:
        return Action(CLAIM_CHECK, (int(claim.target or 0), str(claim.value)))
    return Action(claim.kind, (int(claim.target or 0),))


def talk(state: State, seat: int, action: Action) -> Result:
    """A public claim: everyone hears it, and it changes nothing in the rules (anyone may lie).
    After ``CLAIMS_PER_DAY`` claims, or ``quiet``, the player's claims end for the day."""
    if action == QUIET:
        return replace(state, pending=state.pending - {seat}), [say.quiet(seat)]
    if action not in talk_actions(state, seat):
        raise IllegalAction(
            f"'{action}' is not a claim you can make now. During the discussion you may say "
            "'claim_role ROLE' (a role of the deal), 'claim_check N werewolf' or "
            "'claim_check N clear', 'suspect N', 'trust N', 'claim_protect N' (N a living "
            "player, not yourself except for claim_protect), each once a day, or 'quiet'"
        )
    kind = action.name
    if kind == CLAIM_ROLE:
        claim = Claim(state.round, seat, kind, None, str(action.args[0]))
    elif kind == CLAIM_CHECK:
        claim = Claim(state.round, seat, kind, int(action.args[0]), str(action.args[1]))
    else:
        claim = Claim(state.round, seat, kind, int(action.args[0]))
    state = replace(state, claims=(*state.claims, claim))
    if len(claims_today(state, seat)) >= CLAIMS_PER_DAY:
        state = replace(state, pending=state.pending - {seat})
    return state, [say.claim(state.config, claim)]


def end_discussion(state: State) -> Result:
    """The host or the clock ends the discussion: the ballot opens among all the living."""
    return open_ballot(state, state.living(), revote=False)


def open_ballot(state: State, candidates: tuple[int, ...], *, revote: bool) -> Result:
    """A secret ballot: every living player votes for a candidate or abstains (a revealed
    Village Idiot no longer votes, but may still be voted for)."""
    state = replace(
        state,
        phase=Phase.REVOTE if revote else Phase.VOTE,
        seq=state.seq + 1,
        candidates=candidates,
        votes=(None,) * state.players,
        pending=frozenset(state.voters),
    )
    return state, [say.ballot_open(candidates, revote)]


def vote(state: State, seat: int, action: Action) -> Result:
    """Each living player votes for a candidate other than themselves, or abstains. The ballot
    closes when everyone has voted, or at its deadline."""
    choice = None if action == ABSTAIN else _vote_for(state, seat, action)
    state = replace(
        state, votes=with_choice(state.votes, seat, choice), pending=state.pending - {seat}
    )
    events = [say.vote_cast(seat, choice)]
    if state.pending:
        return state, events
    state, more = close_ballot(state)
    return state, events + more


def _vote_for(state: State, seat: int, action: Action) -> int:
    usage = "in a ballot you may 'vote N' or 'abstain'"
    choice = target_of(action, "vote", usage, state.players)
    if choice == seat:
        raise IllegalAction("you cannot vote for yourself; vote for someone else or abstain")
    if choice not in state.candidates:
        names = ", ".join(state.config.name(c) for c in state.candidates if c != seat)
        raise IllegalAction(f"this ballot is between {names}; vote for one of them or abstain")
    return choice


def close_ballot(state: State) -> Result:
    """The tally is public. Plurality eliminates; a majority is not needed. A tie for most votes
    → one revote among the tied; a second tie, or everyone abstaining → no elimination. A
    missing vote counts as an abstention."""
    revote = state.phase is Phase.REVOTE
    living = state.voters
    counts = {c: 0 for c in state.candidates}
    for voter in living:
        choice = state.votes[voter]
        if choice is not None:
            counts[choice] += 2 if voter == state.sheriff else 1  # the Sheriff's counts twice
    public = state.config.public_ballots
    tally = Tally(
        round=state.round,
        revote=revote,
        counts=tuple(counts.items()),
        abstained=len(living) - sum(counts.values()),
        votes=tuple((voter, state.votes[voter]) for voter in living) if public else None,
    )
    state = replace(state, tallies=(*state.tallies, tally), pending=frozenset())
    events = [say.tally(state.config, tally.to_json(), counts)]
    top = max(counts.values())
    leaders = tuple(c for c, n in counts.items() if n == top)
    if top == 0:
        events.append(say.no_elimination("abstained"))
    elif len(leaders) == 1 and spared_idiot(state, leaders[0]):
        state = replace(state, voteless=state.voteless | {leaders[0]})
        events.append(say.idiot_revealed(state.config, leaders[0], state.cards[leaders[0]]))
    elif len(leaders) == 1:
        state, eliminated = eliminate(state, leaders[0], "vote")
        return settle(state, [*events, eliminated], "night")
    elif not revote:
        state, opened = open_ballot(state, leaders, revote=True)
        return state, events + opened
    else:
        events.append(say.no_elimination("tie"))
    state, more = end_of_day(state)
    return state, events + more


def spared_idiot(state: State, seat: int) -> bool:
    """A Village Idiot the vote eliminates for the first time survives it, revealed."""
    return state.roles[seat] is Role.VILLAGE_IDIOT and seat not in state.voteless


def end_of_day(state: State) -> Result:
    """After the day, the next night; or, at the round limit, a draw."""
    limit = state.config.round_limit
    if limit and state.round >= limit:
        return game_over(state, [])
    return night_falls(replace(state, round=state.round + 1))


# -- eliminations and the end -----------------------------------------------------------------


def eliminate(state: State, seat: int, by: str) -> tuple[State, Event]:
    """Every elimination reveals the card publicly. An eliminated Hunter is due a shot.
    ``by`` is "night", "vote", "shot" or "grief"."""
    death = Death(state.round, seat, by)
    state = replace(state, alive=state.alive - {seat}, deaths=(*state.deaths, death))
    if state.roles[seat] is Role.HUNTER:
        state = replace(state, shots_due=(*state.shots_due, seat))
    return state, say.eliminated(state.config, seat, state.cards[seat], by)


def settle(state: State, events: list[Event], then: str) -> Result:
    """After an elimination: a Tanner voted out wins at once; otherwise each eliminated Hunter
    takes their shot first (after any Lover's grief), then the win check, then an eliminated
    Sheriff passes the badge, then the round goes on ("day": the discussion; "night": the end
    of the day)."""
    if winner(state) is Team.TANNER:
        return game_over(state, events)
    state, events = grief(state, events)
    if state.shots_due:
        hunter = state.shots_due[0]
        state = replace(
            state, phase=Phase.HUNT, seq=state.seq + 1, pending=frozenset({hunter}), resume=then
        )
        return state, [*events, say.hunter_wakes(state.config, hunter)]
    if winner(state) is not None:
        return game_over(state, events)
    if state.sheriff is not None and not state.is_alive(state.sheriff):
        sheriff = state.sheriff
        state = replace(
            state, phase=Phase.BADGE, seq=state.seq + 1, pending=frozenset({sheriff}), resume=then
        )
        return state, [*events, say.badge_to_pass(state.config, sheriff)]
    state, more = start_discussion(state) if then == "day" else end_of_day(state)
    return state, events + more


def grief(state: State, events: list[Event]) -> Result:
    """A Lover whose partner was eliminated dies of grief at once (card revealed)."""
    for lover in state.lovers:
        partner = state.partner(lover)
        if state.is_alive(lover) and partner is not None and not state.is_alive(partner):
            state, eliminated = eliminate(state, lover, "grief")
            events = [*events, eliminated]
    return state, events


def hunter_shoots(state: State, seat: int, action: Action) -> Result:
    """The eliminated Hunter takes one living player with them, at once; that player's card is
    revealed like any other."""
    usage = "the Hunter's action is 'shoot N' (a living player)"
    target = target_of(action, "shoot", usage, state.players)
    if not state.is_alive(target):
        raise IllegalAction("the Hunter takes a living player with them")
    state = replace(state, shots_due=state.shots_due[1:], pending=frozenset())
    state, eliminated = eliminate(state, target, "shot")
    return settle(state, [eliminated], state.resume)


def pass_badge(state: State, seat: int, action: Action) -> Result:
    """The eliminated Sheriff names a living successor, who holds the badge from now on."""
    usage = "the eliminated Sheriff's action is 'pass_badge N' (a living player)"
    target = target_of(action, "pass_badge", usage, state.players)
    if not state.is_alive(target):
        raise IllegalAction("the badge passes to a living player")
    state = replace(state, sheriff=target, pending=frozenset())
    return settle(state, [say.badge_passed(state.config, seat, target)], state.resume)


def badge_lost(state: State) -> Result:
    """The clock ran out before the eliminated Sheriff chose: there is no Sheriff any more."""
    state = replace(state, sheriff=None, pending=frozenset())
    return settle(state, [say.badge_lost()], state.resume)


def hunter_holds_fire(state: State) -> Result:
    """The clock ran out before the Hunter chose: they take no one."""
    hunter = state.shots_due[0]
    state = replace(state, shots_due=state.shots_due[1:], pending=frozenset())
    return settle(state, [say.hunter_missed(state.config, hunter)], state.resume)


def winner(state: State) -> Team | None:
    """A Tanner eliminated by the day's vote wins alone, at once. Lovers of different teams
    win together when they are the last two alive. Otherwise Town wins when no
    Werewolf lives; Werewolves win when they are at least as many as the living non-Werewolves
    (the Seer and Guardian included, and every variant role but the Werewolves)."""
    if voted_out_tanners(state):
        return Team.TANNER
    if state.mixed_lovers and state.alive == set(state.lovers):
        return Team.LOVERS
    wolves = len(state.pack)
    others = len(state.alive) - wolves
    if wolves == 0:
        return Team.TOWN
    if wolves >= others:
        return Team.WEREWOLVES
    return None


def voted_out_tanners(state: State) -> frozenset[int]:
    """The Tanners the day's vote eliminated (the one who wins, when there is one)."""
    return frozenset(
        d.seat for d in state.deaths if d.by == "vote" and state.roles[d.seat] is Role.TANNER
    )


def winners(state: State, team: Team | None) -> frozenset[int]:
    """The seats that win with the winning team: the team's seats (Lovers of different teams
    only as Lovers), except that a Tanner wins alone (only the Tanner the village voted
    out)."""
    if team is Team.TANNER:
        return voted_out_tanners(state)
    if team is None:
        return frozenset()
    return frozenset(s for s, name in seat_teams(state).items() if name == team.value)


def game_over(state: State, events: list[Event]) -> Result:
    """The game ends with a winner (or, at the round limit, none), and every card is shown."""
    team = winner(state)
    state = replace(
        state,
        phase=Phase.END,
        seq=state.seq + 1,
        pending=frozenset(),
        winner=team,
        summary=say.win_line(team),
    )
    return state, [*events, say.game_over(team, state.cards)]


def outcome(state: State) -> Outcome | None:
    if state.phase is not Phase.END:
        return None
    team = state.winner
    roles = {seat: role.value for seat, role in enumerate(state.roles)}
    first = state.deaths[0] if state.deaths else None
    stats = {
        "first_death_role": roles[first.seat] if first else None,
        "first_death_by": first.by if first else None,
        "deaths": [
            {"round": d.round, "seat": d.seat, "role": roles[d.seat], "by": d.by}
            for d in state.deaths
        ],
        "survivors": len(state.alive),
    }
    return Outcome(
        winners=winners(state, team),
        winning_team=team.value if team else None,
        summary=state.summary,
        teams=seat_teams(state),
        roles=roles,
        rounds=state.round,
        stats=stats,
    )
