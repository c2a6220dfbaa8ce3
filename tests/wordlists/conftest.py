"""An app with a fresh database per test, and helpers to make profiles and lists."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from wolfden.server.app import create_app
from wolfden.server.settings import Settings

ADMIN = "moderator-token-for-tests"


class Api:
    def __init__(self, client: TestClient) -> None:
        self.client = client

    def call(self, method: str, path: str, body: Any = None, key: str | None = None, **kw: Any):
        headers = dict(kw.pop("headers", {}))
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return self.client.request(method, path, json=body, headers=headers, **kw)

    def ok(self, method: str, path: str, body: Any = None, key: str | None = None, **kw: Any):
        r = self.call(method, path, body, key, **kw)
        assert r.status_code < 300, r.text
        return r.json()

    def profile(self, name: str = "Ada") -> str:
        return str(self.ok("POST", "/api/profiles", {"name": name})["key"])

    def new_list(self, key: str, name: str, entries: list[str], **tags: str) -> int:
        body = {"name": name, "entries": entries, **tags}
        return int(self.ok("POST", "/api/my/lists", body, key)["id"])

    def publish(self, key: str, list_id: int, **fields: Any) -> dict[str, Any]:
        body = {"title": "A list", "language": "en", **fields}
        return dict(self.ok("POST", f"/api/my/lists/{list_id}/publish", body, key))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "wolfden.sqlite3"


@pytest.fixture
def api(db: Path) -> Iterator[Api]:
    app = create_app(Settings(db=db, web_dir=None, admin_token=ADMIN))
    with TestClient(app) as client:
        yield Api(client)
