"""Moderation: the admin token hides and restores reported lists and bans publishers."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.wordlists.conftest import ADMIN, Api
from wolfden.server.app import create_app
from wolfden.server.settings import Settings
from wolfden.storage.community import CommunityStore


def reported_list(api: Api) -> tuple[str, str, int]:
    ada, bea = api.profile("Ada"), api.profile("Bea")
    list_id = api.new_list(ada, "Birds", ["Owl"])
    item = api.publish(ada, list_id, title="Birds")
    api.ok("POST", f"/api/library/{item['id']}/report", {"reason": "not birds"}, bea)
    return ada, bea, int(item["id"])


def test_moderation_needs_the_admin_token(api: Api) -> None:
    ada, _, item = reported_list(api)
    for path in (f"/api/admin/library/{item}/hide", "/api/admin/profiles/x/ban"):
        assert api.call("POST", path).status_code == 401
        assert api.call("POST", path, key=ada).status_code == 401
    assert api.call("GET", "/api/admin/reports", key="wrong-token-wrong-token").status_code == 401


def test_moderators_see_reports_with_their_reasons(api: Api) -> None:
    _, _, item = reported_list(api)
    reports = api.ok("GET", "/api/admin/reports", key=ADMIN)
    assert [r["id"] for r in reports] == [item]
    assert [r["reason"] for r in reports[0]["reports"]] == ["not birds"]
    assert reports[0]["reports"][0]["name"] == "Bea"


def test_a_hidden_list_leaves_the_library_and_comes_back_when_restored(api: Api) -> None:
    _, bea, item = reported_list(api)
    api.ok("POST", f"/api/admin/library/{item}/hide", key=ADMIN)
    assert api.ok("GET", "/api/library")["total"] == 0
    assert api.call("GET", f"/api/library/{item}").status_code == 404
    assert api.call("POST", f"/api/library/{item}/copy", key=bea).status_code == 404
    assert api.ok("GET", "/api/admin/reports", key=ADMIN)[0]["hidden"] is True
    api.ok("POST", f"/api/admin/library/{item}/restore", key=ADMIN)
    assert api.ok("GET", "/api/library")["total"] == 1
    assert api.ok("GET", "/api/admin/reports", key=ADMIN) == []


def test_a_banned_profile_cannot_publish_until_unbanned(api: Api) -> None:
    ada, _, _ = reported_list(api)
    pid = ada.partition(".")[0]
    assert api.ok("POST", f"/api/admin/profiles/{pid}/ban", key=ADMIN)["banned"] is True
    list_id = api.new_list(ada, "More", ["Crow"])
    r = api.call("POST", f"/api/my/lists/{list_id}/publish", {"title": "M", "language": "en"}, ada)
    assert r.status_code == 403
    assert "moderator" in r.json()["error"]["message"]
    api.ok("POST", f"/api/admin/profiles/{pid}/unban", key=ADMIN)
    api.publish(ada, list_id)


def test_a_token_is_made_and_printed_at_first_start_only(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.sqlite3"
    create_app(Settings(db=db, web_dir=None))
    printed = capsys.readouterr().err
    token = printed.split("token of this server is ")[1].split()[0]
    assert len(token) >= 22
    assert CommunityStore(db).is_admin(token)
    create_app(Settings(db=db, web_dir=None))
    assert "token" not in capsys.readouterr().err
    with TestClient(create_app(Settings(db=db, web_dir=None))) as client:
        ok = client.get("/api/admin/reports", headers={"Authorization": f"Bearer {token}"})
        assert ok.status_code == 200


def test_the_flag_replaces_the_token(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite3"
    create_app(Settings(db=db, web_dir=None))
    create_app(Settings(db=db, web_dir=None, admin_token="a-new-token-of-ours"))
    store = CommunityStore(db)
    assert store.is_admin("a-new-token-of-ours")
    assert not store.is_admin("a-new-token-of-oursX")


def test_a_hidden_list_cannot_be_chosen_for_a_room(api: Api) -> None:
    _, _, item = reported_list(api)
    made = api.ok("POST", "/api/rooms", {"game": "werewords", "name": "Host"})
    body = {"lists": [{"source": "community", "id": item}]}
    path = f"/api/rooms/{made['code']}/words"
    assert api.call("PUT", path, body, made["token"]).status_code == 200
    api.ok("POST", f"/api/admin/library/{item}/hide", key=ADMIN)
    assert api.call("PUT", path, body, made["token"]).status_code == 404


def test_serve_takes_the_admin_token_flag(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from wolfden.server import cli
    from wolfden.server.cli import serve_command

    monkeypatch.setattr(cli, "run", lambda *a, **k: None)
    db = tmp_path / "w.sqlite3"
    args = ["--db", str(db), "--admin-token", "flag-token-of-sixteen"]
    result = CliRunner().invoke(serve_command, args)
    assert result.exit_code == 0, result.output
    assert CommunityStore(db).is_admin("flag-token-of-sixteen")
    short = CliRunner().invoke(serve_command, ["--db", str(db), "--admin-token", "short"])
    assert short.exit_code != 0
    assert "at least 16 characters" in short.output
