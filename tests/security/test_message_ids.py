"""A message's ``id`` is echoed in its answer, so it must be something an answer can carry: an
id that is not (a lone surrogate, a list, a 65-character string) gets the message refused before
anything is applied, and an applied action always gets its answer."""

from __future__ import annotations

import pytest

from tests.server.conftest import Client, Server, match_of
from tests.server.test_ws import room_with_bots, to_deadline, to_discussion

BAD_IDS = ['"\\ud800"', '"a\\udfff"', '["x"]', '{"a": 1}', "true", '"' + "x" * 65 + '"']


@pytest.mark.parametrize("v", [2, 3])
def test_an_action_with_an_id_no_answer_can_carry_is_refused_unapplied(
    server: Server, v: int
) -> None:
    code, token, host = room_with_bots(server)
    to_discussion(server, code, host)
    client = Client(server, code, token, hello=False)
    client.send({"type": "hello", "v": v, "room": code, "token": token})
    client.expect("welcome")
    client.expect("view")
    while not client.view["legal"]:
        to_deadline(server, code, client)
    action = client.view["legal"][0]
    version = client.view["version"]
    committed = match_of(server, code).version
    for bad in BAD_IDS:
        text = '{"type": "action", "id": ID, "action": {"name": "N", "args": ARGS}}'
        text = text.replace("ID", bad).replace('"N"', f'"{action["name"]}"')
        client.send(text.replace("ARGS", str(action["args"]).replace("'", '"')))
        answer = client.expect("error")
        assert answer["error"]["code"] == "invalid_message", answer
        assert "'id'" in answer["error"]["message"] and "64" in answer["error"]["message"]
        assert "id" not in answer
        assert match_of(server, code).version == committed
    client.sync()
    assert client.view["version"] == version
    client.send({"type": "action", "id": "ok", "action": action, "version": version})
    if v == 3:
        client.expect("view", answer="ok")
    else:
        assert client.answer("ok")["type"] == "accepted"
    assert match_of(server, code).version > committed  # (bots may follow at once)


def test_other_messages_with_a_bad_id_are_refused_too(server: Server) -> None:
    made = server.create()
    client = Client(server, made["code"], made["token"])
    client.send('{"type": "ping", "id": "\\ud800"}')
    assert client.expect("error")["error"]["code"] == "invalid_message"
    client.send({"type": "ping", "id": 12})
    assert client.expect("pong")["id"] == 12
