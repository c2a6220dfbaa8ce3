"""My lists: create, paste, edit, import and export, validated by the word library."""

from __future__ import annotations

import json

from tests.wordlists.conftest import Api


def test_create_a_list_from_entries(api: Api) -> None:
    key = api.profile()
    made = api.ok(
        "POST", "/api/my/lists", {"name": "Family", "entries": ["Grandma", "Uncle Bob"]}, key
    )
    assert (made["name"], made["difficulty"], made["age"]) == ("Family", "medium", "all")
    assert api.ok("GET", f"/api/my/lists/{made['id']}", key=key)["entries"] == [
        "Grandma",
        "Uncle Bob",
    ]


def test_pasted_text_skips_blank_and_comment_lines_and_folds_duplicates(api: Api) -> None:
    key = api.profile()
    text = "# our family\nGrandma\n\ngrandma\nUncle   Bob\n"
    made = api.ok("POST", "/api/my/lists", {"name": "Family", "text": text}, key)
    assert made["entries"] == ["Grandma", "Uncle Bob"]


def test_every_bad_line_is_reported_with_its_number_and_nothing_is_kept(api: Api) -> None:
    key = api.profile()
    r = api.call("POST", "/api/my/lists", {"name": "Bad", "text": "ok\nbeta<\n\n" + "x" * 41}, key)
    assert r.status_code == 400
    problems = r.json()["error"]["problems"]
    assert [p["line"] for p in problems] == [2, 4]
    assert "allowed are letters" in problems[0]["reason"]
    assert "at most 40" in problems[1]["reason"]
    assert api.ok("GET", "/api/my/lists", key=key) == []


def test_import_csv_and_json_in_the_word_librarys_formats(api: Api) -> None:
    key = api.profile()
    csv = api.ok(
        "POST",
        "/api/my/lists",
        {"name": "C", "text": "id,word\n1,Owl\n2,Fox\n", "format": "csv"},
        key,
    )
    assert csv["entries"] == ["Owl", "Fox"]
    doc = {"name": "Forest", "difficulty": "hard", "age": "10+", "entries": ["Badger"]}
    js = api.ok("POST", "/api/my/lists", {"text": json.dumps(doc), "format": "json"}, key)
    assert (js["name"], js["difficulty"], js["age"], js["entries"]) == (
        "Forest",
        "hard",
        "10+",
        ["Badger"],
    )


def test_export_gives_each_format_and_it_imports_back(api: Api) -> None:
    key = api.profile()
    list_id = api.new_list(key, "Family", ["Grandma", "Uncle Bob"], difficulty="easy")
    for fmt, start in (("text", "Grandma\n"), ("csv", "word\n"), ("json", "{")):
        r = api.call("GET", f"/api/my/lists/{list_id}/export?format={fmt}", key=key)
        assert r.status_code == 200
        assert r.text.startswith(start)
        assert "attachment" in r.headers["content-disposition"]
        again = api.ok(
            "POST", "/api/my/lists", {"name": f"copy {fmt}", "text": r.text, "format": fmt}, key
        )
        assert again["entries"] == ["Grandma", "Uncle Bob"]


def test_edit_keeps_what_is_left_out(api: Api) -> None:
    key = api.profile()
    list_id = api.new_list(key, "Family", ["Grandma"], difficulty="easy")
    edited = api.ok("PUT", f"/api/my/lists/{list_id}", {"entries": ["Grandpa", "Aunt Jo"]}, key)
    assert (edited["name"], edited["difficulty"], edited["entries"]) == (
        "Family",
        "easy",
        ["Grandpa", "Aunt Jo"],
    )
    renamed = api.ok("PUT", f"/api/my/lists/{list_id}", {"name": "Kin", "age": "adults"}, key)
    assert (renamed["name"], renamed["age"], renamed["entries"]) == (
        "Kin",
        "adults",
        ["Grandpa", "Aunt Jo"],
    )


def test_names_are_unique_per_profile_ignoring_case(api: Api) -> None:
    ada, bea = api.profile("Ada"), api.profile("Bea")
    api.new_list(ada, "Family", ["Grandma"])
    assert (
        api.call("POST", "/api/my/lists", {"name": "FAMILY", "entries": ["x"]}, ada).status_code
        == 409
    )
    api.new_list(bea, "Family", ["Grandma"])


def test_a_list_belongs_to_its_profile_only(api: Api) -> None:
    ada, bea = api.profile("Ada"), api.profile("Bea")
    list_id = api.new_list(ada, "Family", ["Grandma"])
    assert api.call("GET", f"/api/my/lists/{list_id}", key=bea).status_code == 404
    assert api.call("DELETE", f"/api/my/lists/{list_id}", key=bea).status_code == 404
    api.ok("DELETE", f"/api/my/lists/{list_id}", key=ada)
    assert api.ok("GET", "/api/my/lists", key=ada) == []


def test_a_list_needs_entries_and_known_tags(api: Api) -> None:
    key = api.profile()
    assert api.call("POST", "/api/my/lists", {"name": "E", "entries": []}, key).status_code == 400
    r = api.call("POST", "/api/my/lists", {"name": "E", "entries": ["a"], "age": "kids"}, key)
    assert r.status_code == 400


def test_a_list_with_a_name_in_any_script_exports(api: Api) -> None:
    key = api.profile()
    list_id = api.new_list(key, "Птицы 鳥", ["Сова"])
    r = api.call("GET", f"/api/my/lists/{list_id}/export?format=json", key=key)
    assert r.status_code == 200
    assert r.json()["name"] == "Птицы 鳥"
    assert r.headers["content-disposition"].endswith('.json"')
