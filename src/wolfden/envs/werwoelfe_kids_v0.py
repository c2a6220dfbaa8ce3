"""Werwölfe Kids as a PettingZoo AEC environment: the two teams are the two agents.

``env(**kwargs)`` is wrapped like PettingZoo's classic games; ``raw_env(**kwargs)`` is not.
Keyword arguments are the fields of ``wolfden.games.werwoelfe_kids.Config`` (``layout="4x4"``,
``notebook=True``, …; enum fields take their values as strings too) or ``config=Config(...)``,
plus ``render_mode``, ``max_cycles``, ``think_seconds`` and ``dead_leave`` (see
:mod:`wolfden.envs.base`).

Agents: ``village_0`` (the Village team, seat 0) and ``werewolves_1`` (the Werewolf team,
seat 1). The teams take turns as the rules say; in a race duel both may roll and are asked in
turn. An open door closes by itself after ``peek_seconds`` of virtual time (each action takes
``think_seconds``) if the team does not close it first. Rewards at the end: +1 to the winning
team, −1 to the other.

Memory: a team sees what is behind a door only while it is open, exactly as at the table, so
an observation holds no memory of earlier peeks. Give the agent a memory (a recurrent policy)
or play with ``notebook=True``, the game's own memory aid, which puts every team's notes into
its view and so into the ``notebook_*`` blocks.

Actions (H houses, 12 or 16, named A1 … in rows; P = 13 people, in the game's cast order):
``scatter``, ``done``, ``undo`` (placing the people) · ``pick p`` (P) · ``put h`` (H) ·
``haunt h`` (H) · ``open h`` (H) · ``move h`` (H) · ``stay`` · ``close`` · ``roll`` · ``wake``.

Observation (float32 in [0, 1]): ``you`` 2 · ``phase`` 6 (setup, day, duel, night, handover,
over) · ``step`` 10 (place, haunt, open, peek, move, escape, roll, wake, wait, over) · ``day``
1 (day / 30) · ``content`` 5H (per house: not visible, empty, person, werewolf, discovered
werewolf) · ``person`` H·P (who lives in a visible house) · ``open`` H · ``missing`` P ·
``counts`` 2 (missing / 8, caught / 3) · ``selected`` P (the person being placed) ·
``haunted`` H · ``move_from`` H · ``move_targets`` H · ``escape`` 1 · ``peek`` H (houses of
the team's open peek) · ``peek_result`` 7 (looked, caught, haunted, found_werewolf, blocked,
drove_out, moved_in) · ``duel_house`` H · ``duel`` 7 (my dice, their dice / dice per team; my
and their last symbols / dice per team; round / 10; my and their ready) · ``notebook`` 5H
and ``notebook_person`` H·P (the team's notes, with ``notebook=True``) · ``rules`` 3
(too_hard, symbol faces / 6, rounds duel) · ``winner`` 2. The exact table is in docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from wolfden.engine.types import Action, Seat, Viewer
from wolfden.envs.base import WolfdenEnv, wrap
from wolfden.envs.layout import ActionGroup, ActionLayout, Block, ObsLayout, ObsWriter
from wolfden.envs.parallel import parallel_env_of
from wolfden.games.werwoelfe_kids.config import MISSING_TO_WIN, DuelMode
from wolfden.games.werwoelfe_kids.pieces import CAST, WEREWOLVES, Phase, content_name, reach
from wolfden.games.werwoelfe_kids.rules import actors
from wolfden.games.werwoelfe_kids.state import State
from wolfden.games.werwoelfe_kids.views import _STEP as STEP_OF
from wolfden.games.werwoelfe_kids.views import _peek_result as peek_result
from wolfden.games.werwoelfe_kids.views import coarse_phase, shown_houses

TEAMS = ("village", "werewolves")
PHASES = ("setup", "day", "duel", "night", "handover", "over")
STEPS = (
    "place",
    "haunt",
    "open",
    "peek",
    "move",
    "escape",
    "roll",
    "wake",
    "wait",
    "over",
)
CUES = ("caught", "found", "hides", "howl", "missing", "rooster", "win")
CONTENTS = ("empty", "person", "werewolf", "werewolf-discovered")
PEEK_RESULTS = (
    "looked",
    "caught",
    "haunted",
    "found_werewolf",
    "blocked",
    "drove_out",
    "moved_in",
)


class raw_env(WolfdenEnv):
    game_id = "werwoelfe-kids"
    metadata: ClassVar[dict[str, Any]] = {
        **WolfdenEnv.metadata,
        "name": "werwoelfe_kids_v0",
    }

    def agent_name(self, seat: Seat) -> str:
        return f"{TEAMS[seat]}_{seat}"

    def _village(self, config: Any) -> tuple[list[str], list[str]]:
        """House names and cast ids, as the game's own view lists them."""
        view = self.game.view(self.game.setup(config, 0), Viewer.of(0))
        return [h["house"] for h in view["houses"]], [p["id"] for p in view["cast"]]

    offers_only_to_actors = True

    def make_action_layout(self, config: Any) -> ActionLayout:
        houses, cast = self._village(config)
        self.houses = {name: i for i, name in enumerate(houses)}
        self.cast = {pid: i for i, pid in enumerate(cast)}

        def each(verb: str, names: Sequence[str]) -> tuple[Action, ...]:
            return tuple(Action(verb, (n,)) for n in names)

        return ActionLayout(
            [
                ActionGroup("scatter", (Action("scatter"),), "let the app place the rest"),
                ActionGroup("done", (Action("done"),), "the village is placed"),
                ActionGroup("undo", (Action("undo"),), "take back the last placement"),
                ActionGroup("pick p", each("pick", cast), "choose a person to place"),
                ActionGroup("put h", each("put", houses), "put the chosen person in house h"),
                ActionGroup("haunt h", each("haunt", houses), "setup: a werewolf into house h"),
                ActionGroup("open h", each("open", houses), "look behind the door of house h"),
                ActionGroup("move h", each("move", houses), "the found werewolf moves to h"),
                ActionGroup("stay", (Action("stay"),), "the found werewolf stays"),
                ActionGroup("close", (Action("close"),), "close the open door"),
                ActionGroup("roll", (Action("roll"),), "roll the dice in the duel"),
                ActionGroup("wake", (Action("wake"),), "hand-over: the team is awake"),
            ]
        )

    event_types = (
        "narration",
        "cue",
        "door_closed",
        "nothing_found",
        "roll",
        "ready",
        "shared_finish",
    )

    def event_blocks(self, config: Any) -> Sequence[Block]:
        return (
            Block("team", 2, "roll, ready: one-hot, village, werewolves"),
            Block("cue", len(CUES), "cue: one-hot, " + ", ".join(CUES)),
            Block("dice", 2, "roll: dice rolled / 6, symbols / 6"),
        )

    def encode_event(self, event: Mapping[str, Any], viewer: Seat, w: ObsWriter) -> None:
        if event.get("team") in TEAMS:
            w.set("team", TEAMS.index(event["team"]))
        if event["type"] == "cue" and event.get("cue") in CUES:
            w.set("cue", CUES.index(event["cue"]))
        if event["type"] == "roll":
            w.fill("dice", [event.get("dice", 0) / 6, event.get("symbols", 0) / 6])

    def make_observation_layout(self, config: Any) -> ObsLayout:
        h = len(self.houses)
        p = len(self.cast)
        return ObsLayout(
            [
                Block("you", 2, "one-hot: village, werewolves"),
                Block("phase", 6, "one-hot: setup, day, duel, night, handover, over"),
                Block("step", 10, "one-hot: " + ", ".join(STEPS)),
                Block("day", 1, "day / 30"),
                Block(
                    "content",
                    5 * h,
                    "per house: not visible, empty, person, werewolf, discovered werewolf",
                ),
                Block("person", h * p, "house × person living there (visible houses)"),
                Block("open", h, "houses whose door is open"),
                Block("missing", p, "people driven out"),
                Block("counts", 2, "missing / 8, werewolves caught / 3"),
                Block("selected", p, "the person being placed"),
                Block("haunted", h, "werewolves' setup houses so far"),
                Block("move_from", h, "the found werewolf's house"),
                Block("move_targets", h, "houses it may move to"),
                Block("escape", 1, "the werewolf escapes after winning a duel"),
                Block("peek", h, "houses of my team's open peek"),
                Block("peek_result", 7, "one-hot: " + ", ".join(PEEK_RESULTS)),
                Block("duel_house", h, "the duel's house"),
                Block(
                    "duel",
                    7,
                    "my dice, their dice, my last symbols, their last symbols (/ dice per team); "
                    "round / 10; I am ready, they are ready",
                ),
                Block(
                    "notebook",
                    5 * h,
                    "my notes per house: none, empty, person, werewolf, discovered werewolf",
                ),
                Block("notebook_person", h * p, "my notes: house × person seen there"),
                Block("rules", 3, "too_hard, symbol faces / 6, duel in rounds"),
                Block("winner", 2, "one-hot at the end: village, werewolves"),
            ]
        )

    def encode(self, view: Mapping[str, Any], seat: Seat) -> np.ndarray:
        w = self.observation_layout.writer()
        houses, cast = self.houses, self.cast
        p = len(cast)
        me = TEAMS[seat]
        other = TEAMS[1 - seat]
        w.set("you", seat)
        w.set("phase", PHASES.index(view["phase"]))
        w.set("step", STEPS.index(view["step"]))
        w.scalar("day", view["day"] / 30)

        def content(block: str, persons: str, i: int, what: str | None) -> None:
            if what is None:
                w.set(block, 5 * i)
                return
            if what in cast:
                w.set(block, 5 * i + 2)
                w.set2(persons, i, cast[what], p)
            else:
                w.set(block, 5 * i + 1 + CONTENTS.index(what))

        for i, house in enumerate(view["houses"]):
            content("content", "person", i, house.get("content"))
            w.set("open", i, float(house["open"]))
        for pid in view["missing"]:
            w.set("missing", cast[pid])
        w.fill(
            "counts",
            [len(view["missing"]) / view["missing_to_win"], view["caught"] / 3],
        )
        if view.get("selected"):
            w.set("selected", cast[view["selected"]])
        for name in view.get("haunted", []):
            w.set("haunted", houses[name])
        move = view.get("move")
        if move is not None:
            w.set("move_from", houses[move["from"]])
            for name in move["targets"]:
                w.set("move_targets", houses[name])
            w.scalar("escape", float(move["escape"]))
        peek = view.get("peek")
        if peek is not None and peek.get("team") == me:
            for entry in peek["houses"]:
                w.set("peek", houses[entry["house"]])
            w.set("peek_result", PEEK_RESULTS.index(peek["result"]))
        rules = view["rules"]
        dice_per_team = max(1, rules["dice_per_team"])
        duel = view.get("duel")
        if duel is not None:
            w.set("duel_house", houses[duel["house"]])
            last = duel["last_roll"]
            ready = duel.get("ready", {})
            w.fill(
                "duel",
                [
                    duel["dice"][me] / dice_per_team,
                    duel["dice"][other] / dice_per_team,
                    last[me]["symbols"] / dice_per_team,
                    last[other]["symbols"] / dice_per_team,
                    duel["round"] / 10,
                    float(bool(ready.get(me))),
                    float(bool(ready.get(other))),
                ],
            )
        if "notebook" in view:
            notes = {note["house"]: note["saw"] for note in view["notebook"]}
            for name, i in houses.items():
                content("notebook", "notebook_person", i, notes.get(name))
        w.fill(
            "rules",
            [
                float(rules["too_hard"]),
                rules["symbol_faces"] / 6,
                float(rules["duel"] == "rounds"),
            ],
        )
        if "winner" in view:
            w.set("winner", TEAMS.index(view["winner"]))
        return w.vector

    def encode_state(self, state: State, seat: Seat) -> np.ndarray:
        """:meth:`encode` of the team's view, computed from the state with the view's own
        rules for what a team sees (``shown_houses``, the open doors, its peek, its notes).
        Tested equal to the view's encoding (tests/envs/test_fast_obs.py)."""
        spans = self.observation_layout.spans
        config = state.config
        p = len(self.cast)
        values: dict[int, float] = {}

        def put(name: str, index: int, value: float = 1.0) -> None:
            start, size = spans[name]
            if 0 <= index < size:
                values[start + index] = 1.0 if value >= 1.0 else 0.0 if value <= 0.0 else value

        def content(block: str, persons: str, i: int, what: str | None) -> None:
            if what is None:
                put(block, 5 * i)
            elif what in self.cast:
                put(block, 5 * i + 2)
                if 0 <= self.cast[what] < p:
                    put(persons, i * p + self.cast[what])
            else:
                put(block, 5 * i + 1 + CONTENTS.index(what))

        phase = state.phase
        over = phase is Phase.OVER
        other = 1 - seat
        put("you", seat)
        put("phase", PHASES.index(coarse_phase(state)))
        step = STEP_OF[phase] if seat in actors(state) else ("over" if over else "wait")
        put("step", STEPS.index(step))
        put("day", 0, state.day / 30)
        shown = shown_houses(state, seat, over)
        open_doors = (
            {look.house for look in state.peek} if state.peek_team == seat or over else set()
        )
        if phase is Phase.DUEL:
            open_doors.add(state.duel_house)
        if phase is Phase.ESCAPE and (seat == WEREWOLVES or over):
            open_doors.add(state.origin)
        for h in range(len(self.houses)):
            content("content", "person", h, content_name(shown[h]) if h in shown else None)
            if h in open_doors:
                put("open", h)
        for person in state.missing:
            put("missing", self.cast[CAST[person].id])
        put("counts", 0, len(state.missing) / MISSING_TO_WIN)
        put("counts", 1, state.caught / 3)
        if seat != WEREWOLVES and phase is Phase.PLACE and state.selected >= 0:
            put("selected", self.cast[CAST[state.selected].id])
        if seat == WEREWOLVES and state.day == 0 and phase in (Phase.HAUNT, Phase.PEEK):
            for h in state.haunted:
                put("haunted", h)
        if seat == WEREWOLVES and phase in (Phase.MOVE, Phase.ESCAPE):
            put("move_from", state.origin)
            for t in reach(config.rows, config.cols, state.origin):
                put("move_targets", t)
            put("escape", 0, float(phase is Phase.ESCAPE))
        if state.peek_team == seat and state.peek:
            for look in state.peek:
                put("peek", look.house)
            put("peek_result", PEEK_RESULTS.index(peek_result(state)))
        dice_per_team = max(1, config.dice_per_team)
        if phase is Phase.DUEL:
            put("duel_house", state.duel_house)
            rounds = config.duel is DuelMode.ROUNDS
            duel = [
                state.dice[seat] / dice_per_team,
                state.dice[other] / dice_per_team,
                state.last_roll[seat].symbols / dice_per_team,
                state.last_roll[other].symbols / dice_per_team,
                state.duel_rounds / 10,
                float(rounds and bool(state.rolled[seat])),
                float(rounds and bool(state.rolled[other])),
            ]
            for i, v in enumerate(duel):
                put("duel", i, v)
        if config.notebook:
            notes = state.notebooks[seat]
            for h in range(len(self.houses)):
                note = notes[h]
                content(
                    "notebook",
                    "notebook_person",
                    h,
                    None if note is None else content_name(note.saw),
                )
        put("rules", 0, float(config.too_hard))
        put("rules", 1, config.symbol_faces / 6)
        put("rules", 2, float(config.duel.value == "rounds"))
        if over:
            put("winner", state.winner)
        vector = np.zeros(self.observation_layout.size, dtype=np.float32)
        vector[list(values)] = list(values.values())
        return vector


def env(**kwargs: Any) -> Any:
    """Werwölfe Kids, wrapped as PettingZoo's classic games are."""
    return wrap(raw_env(**kwargs))


parallel_env = parallel_env_of(raw_env)
"""The same game as a PettingZoo parallel environment (see :mod:`wolfden.envs.parallel`)."""
