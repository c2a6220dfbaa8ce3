"""The word-list endpoints in the OpenAPI spec, exercised by schemathesis: whatever a client
sends (valid or not), the server answers without a crash and as its spec says."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

schemathesis = pytest.importorskip(
    "schemathesis", reason="the OpenAPI checks need schemathesis (pip install 'wolfden[dev]')"
)

from fastapi.testclient import TestClient  # noqa: E402

from wolfden.server.app import create_app  # noqa: E402
from wolfden.server.settings import Settings  # noqa: E402
from wolfden.storage.community import CommunityStore  # noqa: E402
from wolfden.storage.words import WordList  # noqa: E402

ADMIN = "schemathesis-admin-token"


def make_app():  # type: ignore[no-untyped-def]
    import tempfile

    db = Path(tempfile.mkdtemp()) / "openapi.sqlite3"
    store = CommunityStore(db)
    profile, key = store.create_profile("Ada")
    mine = store.save_list(profile, WordList("Birds", "easy", "all", ("Owl", "Wren")))
    store.publish(
        profile,
        mine.id,
        title="Birds",
        description="",
        language="en",
        difficulty="easy",
        age="all",
    )
    store.close()
    app = create_app(Settings(db=db, web_dir=None, admin_token=ADMIN))
    return app, key


APP, KEY = make_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).include(
    path_regex=r"^/api/(profiles|my|library|admin|rooms/\{code\}/words)"
)


def test_the_spec_lists_every_word_list_endpoint() -> None:
    paths = TestClient(APP).get("/openapi.json").json()["paths"]
    for path in (
        "/api/profiles",
        "/api/my/lists",
        "/api/my/lists/{list_id}/export",
        "/api/my/lists/{list_id}/publish",
        "/api/library",
        "/api/library/{list_id}/rating",
        "/api/library/{list_id}/report",
        "/api/library/{list_id}/copy",
        "/api/admin/reports",
        "/api/admin/library/{list_id}/hide",
        "/api/admin/profiles/{profile_id}/ban",
        "/api/rooms/{code}/words",
    ):
        assert path in paths, path


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_request_makes_the_server_fail(case) -> None:  # type: ignore[no-untyped-def]
    token = ADMIN if case.path.startswith("/api/admin") else KEY
    headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    response = case.call(headers=headers)
    assert response.status_code < 500, response.text
    from schemathesis.specs.openapi.checks import response_schema_conformance

    if response.status_code < 300:
        case.validate_response(response, checks=[response_schema_conformance])
