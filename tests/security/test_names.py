"""Names are what the table reads aloud and sees on every screen: they are normalised (NFKC),
carry no bidirectional or invisible formatting characters, and no one may take a name that
looks like one already in the room."""

from __future__ import annotations

import pytest

from tests.server.conftest import Server
from wolfden.server.errors import Refused
from wolfden.server.names import clean_name, looks_like


@pytest.mark.parametrize(
    "name",
    [
        "\u202eflowerew a si",  # right-to-left override: narrated as "is a werewolf"
        "Ada\u202c",
        "\u2066Ada\u2069",  # isolates
        "Ada\u200f",  # right-to-left mark
        "Hana\u200b",  # zero-width space
        "Ha\u2060na",  # word joiner
        "\ufeffBo",  # byte order mark
        "Bo\u00ad",  # soft hyphen
        "Ada\u200d",  # a joiner with nothing to join
        "\u061cAda",  # Arabic letter mark
    ],
)
def test_formatting_and_bidi_characters_are_refused(name: str) -> None:
    with pytest.raises(Refused) as refused:
        clean_name(name)
    assert refused.value.code == "bad_name"
    assert "invisible" in refused.value.message


def test_names_are_normalised_nfkc() -> None:
    assert clean_name("\uff28\uff41\uff4e\uff41") == "Hana"  # full-width letters
    assert clean_name("\u2167") == "VIII"  # roman numeral
    assert clean_name("Zoe\u0301") == "Zoé"


def test_emoji_sequences_still_work() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clean_name(f"Ada {family}") == f"Ada {family}"
    assert clean_name("Bo \u2764\ufe0f") == "Bo \u2764\ufe0f"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Hana", "\u041dana"),  # Cyrillic capital En
        ("Hana", "Han\u0430"),  # Cyrillic a
        ("Hana", "HANA"),
        ("Oskar", "0skar"),
        ("Ilse", "lIse"),
        ("Pepe", "\u0420\u0435\u0440\u0435"),  # all Cyrillic
        ("Bo Li", "Bo  Li"),
        ("Nico", "\u039d\u03b9\u03f2\u03bf"),  # Greek
    ],
)
def test_look_alike_names_are_recognised(first: str, second: str) -> None:
    assert looks_like(clean_name(first), clean_name(second))


@pytest.mark.parametrize(("first", "second"), [("Ada", "Adam"), ("Zoé", "Zoe"), ("Bo", "Bob")])
def test_different_names_are_not(first: str, second: str) -> None:
    assert not looks_like(clean_name(first), clean_name(second))


def test_a_room_refuses_a_name_that_looks_like_one_in_it(server: Server) -> None:
    made = server.create(name="Hana")
    code = made["code"]
    for spoof in ("\u041dana", "Hana\u200b", "\uff28ana", "HANA "):
        r = server.http.post(f"/api/rooms/{code}/join", json={"name": spoof})
        assert r.status_code in (400, 409), r.text
        assert r.json()["error"]["code"] in ("name_taken", "bad_name")
        if r.json()["error"]["code"] == "name_taken":
            assert "looks like" in r.json()["error"]["message"] or "already" in r.text
    r = server.http.post(f"/api/rooms/{code}/join", json={"name": "\u202eflowerew a si"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name"
    room = server.http.get(f"/api/rooms/{code}").json()
    assert [p["name"] for p in room["participants"]] == ["Hana"]
    assert server.http.post(f"/api/rooms/{code}/join", json={"name": "Hanna"}).status_code == 201


def test_a_shared_device_refuses_look_alike_seat_names(server: Server) -> None:
    made = server.create(name="Host", role="spectator")
    code, token = made["code"], made["token"]
    r = server.host(
        "POST",
        f"/api/rooms/{code}/devices",
        token,
        json={"seats": [0, 1], "names": ["Hana", "\u041dana"], "name": "Tablet"},
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", r.text
    r = server.host(
        "POST",
        f"/api/rooms/{code}/devices",
        token,
        json={"seats": [0, 1], "names": ["Hana", "Bo\u200b"], "name": "Tablet"},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name", r.text
    r = server.host(
        "POST",
        f"/api/rooms/{code}/devices",
        token,
        json={"seats": [0, 1], "names": ["Hana", "Bo"], "name": "Tablet"},
    )
    assert r.status_code == 200, r.text
