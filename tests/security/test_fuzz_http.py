"""Bad input over HTTP: schemathesis generates requests from the server's own OpenAPI spec
(valid and invalid bodies, odd path parameters), Hypothesis generates names with Unicode edge
cases. No request makes the server fail: every error is a documented JSON error."""

from __future__ import annotations

import tempfile
import unicodedata
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.test_fuzz_ws import PROTOCOL_CODES, TRICKY
from tests.server.conftest import Server
from wolfden.server.app import create_app
from wolfden.server.names import looks_like
from wolfden.server.settings import Settings

schemathesis = pytest.importorskip(
    "schemathesis", reason="the HTTP fuzzing needs schemathesis (pip install 'wolfden[dev]')"
)

_DB = Path(tempfile.mkdtemp(prefix="wolfden-fuzz-")) / "fuzz.sqlite3"
APP = create_app(Settings(db=_DB, web_dir=None, wrong_codes_per_minute=10**9))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


def every_error_is_documented(ctx: Any, response: Any, case: Any) -> None:
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert body["error"]["code"] in PROTOCOL_CODES | {"not_found", "method_not_allowed"}
        assert isinstance(body["error"]["message"], str) and body["error"]["message"]


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_the_openapi_surface_never_fails(case: Any) -> None:
    response = case.call()
    assert response.status_code < 500, (case.method, case.formatted_path, response.text)
    every_error_is_documented(None, response, case)


names = st.one_of(st.sampled_from(TRICKY), st.text(max_size=30))


def test_names_with_any_text_are_accepted_exactly_or_refused_clearly(server: Server) -> None:
    made = server.create()
    code = made["code"]
    seen: dict[str, str] = {}

    @settings(
        max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(name=names)
    def one(name: str) -> None:
        try:
            r = server.http.post(
                f"/api/rooms/{code}/join", json={"name": name, "role": "spectator"}
            )
        except (UnicodeEncodeError, httpx.HTTPError):
            return  # a lone surrogate cannot even be sent as JSON
        assert r.status_code in (201, 400, 409), r.text
        if r.status_code == 201:
            shown = r.json()["room"]["participants"][-1]["name"]
            assert 1 <= len(shown) <= 24 and shown == shown.strip()
            assert not any(ord(ch) < 32 for ch in shown)
            assert shown == unicodedata.normalize("NFKC", shown)
            assert not any(unicodedata.category(ch) == "Cf" and ch != "\u200d" for ch in shown)
            assert not any(looks_like(shown, other) for other in seen), (shown, list(seen))
            seen[shown] = name
        else:
            assert r.json()["error"]["code"] in ("bad_name", "name_taken", "bad_request")

    one()
    room = server.http.get(f"/api/rooms/{code}").json()
    assert {p["name"] for p in room["participants"]} >= set(seen)


@pytest.mark.parametrize("path", ["/", "/index.html", "/api/games", "/api/rooms/ZZZZZZ"])
def test_security_headers_on_every_response(make_server: Any, path: str) -> None:
    from wolfden.server.settings import WEB_DIR

    server = make_server(web_dir=WEB_DIR)
    r = server.http.get(path)
    csp = r.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";") if d.strip())
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'unsafe-eval'" not in directives["script-src"]
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    if path.startswith("/api/"):
        assert r.headers["cache-control"] == "no-store"


def test_the_page_has_no_inline_script(make_server: Any) -> None:
    from wolfden.server.settings import WEB_DIR

    server = make_server(web_dir=WEB_DIR)
    html = server.http.get("/").text
    import re

    for tag in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S | re.I):
        assert tag.strip() == ""
    assert not re.search(r"\son[a-z]+\s*=", html, re.I)
