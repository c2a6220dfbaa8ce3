"""What the web client needed from the server: the join link's QR code, free-text actions."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests.web.conftest import Server
from wolfden.engine.types import Action
from wolfden.server.master import allowed as _allowed


def test_the_qr_code_is_an_svg_of_the_rooms_join_link(server: Server) -> None:
    created = server.api("POST", "/api/rooms", {"game": "werewolf", "name": "Ada"})
    with urllib.request.urlopen(f"{server.base}/api/rooms/{created['code']}/qr.svg") as response:
        assert response.headers["content-type"].startswith("image/svg+xml")
        svg = response.read().decode()
    assert svg.startswith("<svg") and "<path" in svg
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{server.base}/api/rooms/ZZZZZZ/qr.svg")
    assert missing.value.code == 404


def test_a_free_text_form_accepts_any_text_but_nothing_else() -> None:
    legal = [Action("ask", ("?",)), Action("wait")]
    assert _allowed(Action("ask", ("Is it an animal?",)), legal)
    assert _allowed(Action("wait"), legal)
    assert not _allowed(Action("ask", (3,)), legal)
    assert not _allowed(Action("ask", ("a", "b")), legal)
    assert not _allowed(Action("tell", ("Is it big?",)), legal)
    assert not _allowed(Action("vote", (2,)), [Action("vote", (1,))])
