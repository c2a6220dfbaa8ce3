"""What one unauthenticated client can make the server read or keep is bounded: request
bodies, names, word pools and every list a request can carry."""

from __future__ import annotations

from collections.abc import Iterator

from tests.server.conftest import Server
from wolfden.server.errors import Refused
from wolfden.server.rooms import clean_name
from wolfden.server.settings import Settings

LIMIT = Settings().max_body_bytes


def people(server: Server, code: str) -> int:
    return len(server.call(lambda: server.manager.rooms[code].participants))


def test_a_body_over_the_limit_is_refused_before_it_is_read(server: Server) -> None:
    code = server.create()["code"]
    body = b'{"name": "' + b"a" * (LIMIT + 10) + b'"}'
    r = server.http.post(
        f"/api/rooms/{code}/join", content=body, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413, r.text
    assert r.json()["error"]["code"] == "too_large"
    assert str(LIMIT) in r.json()["error"]["message"]
    assert people(server, code) == 1


def test_a_streamed_body_without_a_length_is_cut_off_at_the_limit(server: Server) -> None:
    code = server.create()["code"]

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(LIMIT // 65536 + 2):
            yield b"a" * 65536
        yield b'"}'

    r = server.http.post(
        f"/api/rooms/{code}/join", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413, r.text
    assert people(server, code) == 1


def test_a_long_name_is_refused_for_its_length_first() -> None:
    try:
        clean_name("\x00" + "a" * 200_000)
    except Refused as exc:
        assert "200001 characters" in exc.message and "at most 24" in exc.message
    else:
        raise AssertionError("the name was accepted")


def test_a_werewords_pool_holds_at_most_the_librarys_5000_words(server: Server) -> None:
    words = [
        f"word{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}{chr(97 + i // 676)}" for i in range(5001)
    ]
    r = server.http.post(
        "/api/rooms",
        json={"game": "werewords", "name": "A", "config": {"words_medium": words}},
    )
    assert r.status_code == 400, r.text
    assert "at most 5000" in r.json()["error"]["message"]
    r = server.http.post(
        "/api/rooms",
        json={"game": "werewords", "name": "A", "config": {"words_medium": words[:5000]}},
    )
    assert r.status_code == 201, r.text


def test_the_lists_a_request_carries_are_bounded(server: Server) -> None:
    made = server.create()
    r = server.host(
        "POST",
        f"/api/rooms/{made['code']}/devices",
        made["token"],
        json={"seats": list(range(100_000))},
    )
    assert r.status_code == 400, r.text
    assert "seats" in r.json()["error"]["message"]
