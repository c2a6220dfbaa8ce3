"""Profiles without passwords: a display name and a secret key the browser keeps."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.wordlists.conftest import Api
from wolfden.storage.community import CommunityStore


def test_a_profile_is_a_name_and_a_key_of_at_least_128_bits(api: Api) -> None:
    made = api.ok("POST", "/api/profiles", {"name": "  Ada   Lovelace "})
    assert made["profile"]["name"] == "Ada Lovelace"
    pid, _, secret = made["key"].partition(".")
    assert pid == made["profile"]["id"]
    assert len(secret) * 6 >= 128  # url-safe base64: 6 bits a character
    assert api.ok("GET", "/api/profiles/me", key=made["key"])["name"] == "Ada Lovelace"


def test_the_database_keeps_only_a_digest_of_the_key(api: Api, db: Path) -> None:
    key = api.profile()
    secret = key.partition(".")[2]
    dump = "\n".join(sqlite3.connect(db).iterdump())
    assert secret not in dump
    assert "Ada" in dump


def test_a_wrong_or_missing_key_is_refused(api: Api) -> None:
    key = api.profile()
    pid = key.partition(".")[0]
    assert api.call("GET", "/api/profiles/me").status_code == 401
    assert api.call("GET", "/api/profiles/me", key=f"{pid}.not-the-secret").status_code == 401
    assert api.call("GET", "/api/profiles/me", key="nobody.x").status_code == 401
    assert api.call("GET", "/api/my/lists", key=key + "x").status_code == 401


def test_two_keys_from_the_same_name_differ() -> None:
    store = CommunityStore(":memory:")
    (_, one), (_, two) = store.create_profile("Ada"), store.create_profile("Ada")
    assert one != two
    assert store.profile(one).id != store.profile(two).id


def test_a_profile_can_change_its_name(api: Api) -> None:
    key = api.profile("Ada")
    assert api.ok("PUT", "/api/profiles/me", {"name": "Bea"}, key)["name"] == "Bea"


def test_a_name_that_breaks_the_rules_is_refused_with_the_rule(api: Api) -> None:
    r = api.call("POST", "/api/profiles", {"name": "x" * 30})
    assert r.status_code == 400
    assert "1 to 24" in r.json()["error"]["message"]


def test_one_address_makes_a_limited_number_of_profiles_an_hour(api: Api) -> None:
    from wolfden.server.wordlists import PROFILES_PER_HOUR

    for i in range(PROFILES_PER_HOUR):
        api.ok("POST", "/api/profiles", {"name": f"P{i}"})
    r = api.call("POST", "/api/profiles", {"name": "One more"})
    assert r.status_code == 429
    assert "an hour" in r.json()["error"]["message"]
