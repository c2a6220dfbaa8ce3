"""The answers that are easiest to forget carry the same protection as the rest: a crash's 500,
and no page of the server loads code from elsewhere; the admin token need not be on the command
line, where every user of the computer can read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from wolfden.server import cli
from wolfden.storage.community import CommunityStore


def test_a_crash_answer_carries_the_security_headers(make_server: Any) -> None:
    server = make_server()

    def broken(code: object) -> object:
        raise RuntimeError("a bug")

    server.manager.get = broken
    r = server.http.get("/api/rooms/ABCDEF")
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "internal"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["cache-control"] == "no-store"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_no_page_loads_code_from_another_origin(make_server: Any) -> None:
    from wolfden.server.settings import WEB_DIR

    bare, full = make_server(), make_server(web_dir=WEB_DIR)
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert bare.http.get(path).status_code == 404, path
        r = full.http.get(path)  # the web client's page, as for any page address
        assert "swagger" not in r.text.lower() and "cdn" not in r.text.lower()
        for answer in (r, bare.http.get(path)):
            csp = answer.headers["content-security-policy"]
            assert "http" not in csp and "'unsafe-inline'" not in csp, csp
    assert bare.http.get("/openapi.json").json()["paths"]["/api/rooms"]


def test_the_admin_token_can_come_from_a_file(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite3"
    token_file = tmp_path / "admin-token"
    token_file.write_text("token-from-a-file-of-ours\n")
    seen: list[Any] = []
    real = cli.run
    cli.run = lambda *a, **k: seen.append(a)  # type: ignore[assignment]
    try:
        result = CliRunner().invoke(
            cli.serve_command, ["--db", str(db), "--admin-token-file", str(token_file)]
        )
        assert result.exit_code == 0, result.output
        assert CommunityStore(db).is_admin("token-from-a-file-of-ours")
        both = CliRunner().invoke(
            cli.serve_command,
            ["--db", str(db), "--admin-token-file", str(token_file), "--admin-token", "x" * 20],
        )
        assert both.exit_code != 0 and "not both" in both.output
        token_file.write_text("short\n")
        short = CliRunner().invoke(
            cli.serve_command, ["--db", str(db), "--admin-token-file", str(token_file)]
        )
        assert short.exit_code != 0 and "at least 16 characters" in short.output
    finally:
        cli.run = real


def test_serve_help_says_how_to_keep_the_admin_token_out_of_ps() -> None:
    text = " ".join(CliRunner().invoke(cli.serve_command, ["--help"]).output.split())
    assert "WOLFDEN_ADMIN_TOKEN" in text
    assert "--admin-token-file" in text
    assert "ps" in text
