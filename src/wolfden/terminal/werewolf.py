"""Werewolf in the terminal: the table as one viewer sees it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from wolfden.engine.errors import ConfigError
from wolfden.engine.types import Action

_PHASE = {
    "night": "Night",
    "discussion": "Day: discussion",
    "vote": "Day: ballot",
    "revote": "Day: revote between the tied",
    "end": "The game is over",
}


def _name(view: Mapping[str, Any], seat: int) -> str:
    return str(view["seats"][seat]["name"])


def render(view: Mapping[str, Any]) -> str:
    lines = [f"== Round {view['round']} · {_PHASE.get(view['phase'], view['phase'])} =="]
    deal = view["deal"]
    lines.append(
        f"In the deal: {deal['werewolves']} Werewolves, {deal['seers']} Seer(s), "
        f"{deal['guardians']} Guardian(s), {deal['villagers']} Villagers"
    )
    lines.append("")
    for entry in view["seats"]:
        mark = "  " if entry["alive"] else "✝ "
        role = f"  [{entry['role']} · {entry['card']}]" if "role" in entry else ""
        lines.append(f"  {mark}{entry['seat']:>2}  {entry['name']}{role}")
    result = view.get("night_result")
    if result and view["phase"] != "night":
        if result.get("eliminated") is None:
            lines.append("\nLast night: no one was eliminated.")
        else:
            lines.append(f"\nLast night: {_name(view, result['eliminated'])} was eliminated.")
    if view.get("tallies"):
        last = view["tallies"][-1]
        counts = (
            ", ".join(f"{_name(view, int(s))} {n}" for s, n in last["counts"].items() if n)
            or "no votes"
        )
        lines.append(f"Last ballot: {counts}; {last['abstained']} abstained.")
    ballot = view.get("ballot")
    if ballot:
        lines.append(f"Ballot: {ballot['cast']} of {ballot['voters']} votes cast.")
    me = view.get("you")
    if me:
        lines.append("")
        lines.append(f"You are {me['name']}: {me['card_label']} ({me['card']})")
        lines.append(f"  {me['card_text']}")
        if me.get("deal_note"):
            lines.append(f"  Note: {me['deal_note']}")
        if "pack" in me:
            pack = ", ".join(_name(view, s) for s in me["pack"])
            lines.append(f"  Your pack: {pack}")
            if me.get("pack_picks"):
                picks = ", ".join(
                    f"{_name(view, int(w))} → {_name(view, t)}" for w, t in me["pack_picks"].items()
                )
                lines.append(f"  Picks (round {me['pick_round']} of {me['pick_rounds']}): {picks}")
            if me.get("pack_previous_picks"):
                picks = ", ".join(
                    f"{_name(view, int(w))} → {_name(view, t)}"
                    for w, t in me["pack_previous_picks"].items()
                )
                lines.append(f"  Last round's picks: {picks}")
        for check in me.get("checks", []):
            verdict = "a Werewolf" if check["werewolf"] else "not a Werewolf"
            lines.append(f"  Night {check['round']}: {_name(view, check['target'])} is {verdict}")
        if me.get("cannot_protect") is not None:
            lines.append(f"  You may not protect {_name(view, me['cannot_protect'])} tonight.")
    if view["phase"] == "end":
        lines.append("")
        lines.append(str(view.get("summary", "")))
    return "\n".join(lines)


def describe(action: Action, view: Mapping[str, Any]) -> str:
    if (
        action.args
        and isinstance(action.args[0], int)
        and action.name
        in (
            "pick",
            "check",
            "protect",
            "vote",
        )
    ):
        verb = {
            "pick": "Choose",
            "check": "Look into",
            "protect": "Protect",
            "vote": "Vote for",
        }[action.name]
        return f"{verb} {_name(view, action.args[0])}"
    return {"abstain": "Abstain"}.get(action.name, str(action))


EXTRA_OPTIONS: list[click.Option] = [
    click.Option(
        ["--setup", "setup"],
        default=None,
        metavar="ROLES",
        help="the deal by role, e.g. werewolf=3,seer,witch,hunter,villager=6 (one card per "
        "player; add sheriff to elect one); instead of --players and the role counts",
    ),
]


def apply_extra(
    options: dict[str, Any], config_kwargs: dict[str, Any], seat_bots: dict[int, str]
) -> None:
    """``--setup``: the players and every role count from one setup text."""
    text = options.get("setup")
    if text is None:
        return
    from wolfden.games.werewolf.setups import ROLES, parse_setup

    counted = ["players", "sheriff", *(option for _, option, _ in ROLES if option)]
    given = [name for name in counted if options.get("cfg_" + name) not in (None, False)]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise ConfigError(f"give --setup or {flags}, not both: the setup names every card")
    setup = parse_setup(text)
    config_kwargs["players"] = setup.players
    config_kwargs["sheriff"] = setup.sheriff
    for name, option, _ in ROLES:
        if option is not None:
            config_kwargs[option] = setup.count(name)
