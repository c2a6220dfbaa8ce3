"""Room codes are the keys to rooms: every route that takes a code or a match id is behind the
per-address limiter, a stranger cannot tell a match that exists from one that does not, and the
address the limiter counts cannot be reset with a forwarded header unless a proxy is trusted."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from click.testing import CliRunner

from wolfden.server import cli, process


def test_a_match_in_progress_answers_like_one_that_does_not_exist(make_server: Any) -> None:
    server = make_server()
    made = server.create()
    code, token = made["code"], made["token"]
    live = server.host("POST", f"/api/rooms/{code}/start", token).json()["room"]["match"]["id"]
    unknown = live.replace(code, "ZZZZZZ")
    a, b = server.http.get(f"/api/matches/{live}"), server.http.get(f"/api/matches/{unknown}")
    assert a.status_code == b.status_code == 404
    assert a.json()["error"]["code"] == b.json()["error"]["code"] == "match_not_found"
    strip = lambda r: r.json()["error"]["message"].replace(live, "ID").replace(unknown, "ID")  # noqa: E731
    assert strip(a) == strip(b)
    assert "ended" in a.json()["error"]["message"]
    server.host("POST", f"/api/rooms/{code}/end", token)
    assert server.http.get(f"/api/matches/{live}").status_code == 200


def test_guessing_match_ids_is_rate_limited(make_server: Any) -> None:
    server = make_server(wrong_codes_per_minute=5)
    made = server.create()
    code, token = made["code"], made["token"]
    match = server.host("POST", f"/api/rooms/{code}/start", token).json()["room"]["match"]["id"]
    server.host("POST", f"/api/rooms/{code}/end", token)
    for i in range(5):
        assert server.http.get(f"/api/matches/m-ZZZZZ{i}-1").status_code == 404
    r = server.http.get(f"/api/matches/{match}")
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    r = server.http.get(f"/api/rooms/{code}")
    assert r.status_code == 429


def served_options(tmp_path: Path, *args: str) -> tuple[Any, dict[str, Any]]:
    """What ``wolfden serve ARGS`` hands to uvicorn: the app and its options."""
    seen: dict[str, Any] = {}

    def run(app: Any, message: Any, **options: Any) -> None:
        seen["app"], seen["options"] = app, options

    real = cli.run
    cli.run = run
    try:
        result = CliRunner().invoke(cli.serve_command, ["--db", str(tmp_path / "w.sqlite3"), *args])
    finally:
        cli.run = real
    assert result.exit_code == 0, result.output
    return seen["app"], seen["options"]


class Uvicorn:
    def __init__(self, app: Any, options: dict[str, Any]) -> None:
        self.port = process.free_port()
        config = uvicorn.Config(app, **{**options, "port": self.port, "log_level": "warning"})
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "no server"
            time.sleep(0.01)
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=10)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(10)


def test_forwarded_headers_are_trusted_from_no_one_by_default(tmp_path: Path) -> None:
    app, options = served_options(tmp_path)
    assert options["proxy_headers"] is False
    served = Uvicorn(app, options)
    try:
        limit = app.state.manager.settings.wrong_codes_per_minute
        for i in range(limit):
            fake = {"x-forwarded-for": f"203.0.113.{i + 1}"}
            assert served.http.get(f"/api/rooms/ZZZZ{i:02}", headers=fake).status_code == 404
        fresh = {"x-forwarded-for": "198.51.100.7"}
        r = served.http.get("/api/rooms/ZZZZZZ", headers=fresh)
        assert r.status_code == 429, "a forwarded header reset the limit"
    finally:
        served.stop()


def test_forwarded_headers_are_trusted_from_the_named_proxies(tmp_path: Path) -> None:
    app, options = served_options(tmp_path, "--forwarded-allow-ips", "127.0.0.1")
    assert options["proxy_headers"] is True and options["forwarded_allow_ips"] == "127.0.0.1"
    served = Uvicorn(app, options)
    try:
        limit = app.state.manager.settings.wrong_codes_per_minute
        for i in range(limit):
            proxy = {"x-forwarded-for": "203.0.113.1"}
            assert served.http.get(f"/api/rooms/ZZZZ{i:02}", headers=proxy).status_code == 404
        assert served.http.get("/api/rooms/ZZZZZZ", headers=proxy).status_code == 429
        other = {"x-forwarded-for": "198.51.100.7"}
        assert served.http.get("/api/rooms/ZZZZZZ", headers=other).status_code == 404
    finally:
        served.stop()


def test_serve_help_names_the_proxy_option() -> None:
    result = CliRunner().invoke(cli.serve_command, ["--help"])
    assert "--forwarded-allow-ips" in result.output
