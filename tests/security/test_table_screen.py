"""A table screen is what everyone at the table sees: in Werewords' companion mode the shared
device shows the Magic Word to the role called while the others' eyes are closed, but a table
screen (a television, a laptop at the end of the table) never gets it, nor the Mayor's
candidate words."""

from __future__ import annotations

import json

from tests.server.conftest import Client, Server, match_of, quiet
from tests.server.test_shared_device import everyone_on_the_host_device, send


def test_a_table_screen_in_companion_mode_never_gets_the_word(server: Server) -> None:
    made = server.create(game="werewords", name="Ada", config={"players": 4, "mode": "companion"})
    code, token = made["code"], made["token"]
    wall = server.join(code, "Wall", "table")
    screen = Client(server, code, wall["token"])
    device = everyone_on_the_host_device(server, code, token, ["Ada", "Ben", "Cy", "Dee"], 2)
    send(device, {"type": "reveal", "id": "r", "seat": 2})
    assert send(device, {"type": "action", "id": "c", "text": "claim"})["type"] == "accepted"
    quiet(server, code, device)
    secrets: set[str] = set()
    word_shown = False
    for _ in range(40):  # the Mayor's choice, then the eyes-closed steps, by host actions
        m = match_of(server, code)
        secrets |= {w for w in m.state.candidates}
        if device.view["legal"]:
            action = device.view["legal"][0]
            send(device, {"type": "action", "id": "a", "action": action})
        elif device.view["host_actions"]:
            names = [a["name"] for a in device.view["host_actions"]]
            pick = device.view["host_actions"][names.index("next") if "next" in names else 0]
            send(device, {"type": "host_action", "id": "h", "action": pick})
        else:
            break
        quiet(server, code, device)
        view = device.view["view"] or {}
        word_shown |= bool((view.get("screen") or {}).get("word"))
        if view.get("phase") == "day":
            break
    assert word_shown, "the shared device never showed the word (the test did not get there)"
    assert secrets
    screen.sync()
    frames = [m for m in screen.received if m["type"] == "view"]
    assert frames
    for frame in frames:
        text = json.dumps(frame, ensure_ascii=False).casefold()
        for word in secrets:
            assert f'"{word.casefold()}"' not in text, f"the table screen was shown {word!r}"
    assert not any("screen" in (frame["view"] or {}) for frame in frames)
