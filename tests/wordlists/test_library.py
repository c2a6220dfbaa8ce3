"""The community library: publish, browse, search, filter, sort, rate, report, copy."""

from __future__ import annotations

from tests.wordlists.conftest import Api


def titles(found: dict) -> list[str]:
    return [item["title"] for item in found["lists"]]


def shelf(api: Api) -> tuple[str, str]:
    """Ada publishes three lists; Bea reads them."""
    ada, bea = api.profile("Ada"), api.profile("Bea")
    birds = api.new_list(ada, "Birds", ["Owl", "Robin", "Heron"], difficulty="easy")
    api.publish(ada, birds, title="Garden birds", description="Birds at the feeder")
    vogel = api.new_list(ada, "Vögel", ["Eule", "Amsel"], difficulty="medium")
    api.publish(ada, vogel, title="Vögel im Garten", language="de")
    wine = api.new_list(ada, "Cellar", ["Merlot", "Riesling"], difficulty="hard", age="adults")
    api.publish(ada, wine, title="Wine cellar", language="en-gb")
    return ada, bea


def test_a_published_list_shows_its_tags_author_and_entries(api: Api) -> None:
    ada = api.profile("Ada")
    list_id = api.new_list(ada, "Birds", ["Owl", "Robin"], difficulty="easy", age="10+")
    item = api.publish(ada, list_id, title="Garden birds", description="At the feeder")
    assert item["author"]["name"] == "Ada"
    assert (item["difficulty"], item["age"], item["language"]) == ("easy", "10+", "en")
    shown = api.ok("GET", f"/api/library/{item['id']}")
    assert shown["entries"] == ["Owl", "Robin"]
    assert shown["description"] == "At the feeder"


def test_publishing_can_set_other_tags_than_the_lists(api: Api) -> None:
    ada = api.profile()
    list_id = api.new_list(ada, "Birds", ["Owl"], difficulty="easy")
    item = api.publish(ada, list_id, difficulty="hard", age="adults", language="pt-br")
    assert (item["difficulty"], item["age"], item["language"]) == ("hard", "adults", "pt-BR")


def test_search_finds_titles_words_and_languages(api: Api) -> None:
    shelf(api)
    assert titles(api.ok("GET", "/api/library?q=gar&sort=newest")) == [
        "Vögel im Garten",
        "Garden birds",
    ]
    assert titles(api.ok("GET", "/api/library?q=HERON")) == ["Garden birds"]
    assert titles(api.ok("GET", "/api/library?q=eule")) == ["Vögel im Garten"]
    assert titles(api.ok("GET", "/api/library?language=de")) == ["Vögel im Garten"]
    assert titles(api.ok("GET", "/api/library?language=en&sort=newest")) == [
        "Wine cellar",
        "Garden birds",
    ]
    assert api.ok("GET", "/api/library?q=100%25")["total"] == 0


def test_filters_by_difficulty_and_highest_age_rating(api: Api) -> None:
    shelf(api)
    assert titles(api.ok("GET", "/api/library?difficulty=easy")) == ["Garden birds"]
    family = api.ok("GET", "/api/library?max_age=10%2B&sort=newest")
    assert titles(family) == ["Vögel im Garten", "Garden birds"]
    assert api.ok("GET", "/api/library?max_age=adults")["total"] == 3


def test_sort_by_rating_puts_the_best_rated_first(api: Api) -> None:
    _ada, bea = shelf(api)
    carl = api.profile("Carl")
    found = api.ok("GET", "/api/library?sort=newest")["lists"]
    wine, vogel, birds = (item["id"] for item in found)
    api.ok("PUT", f"/api/library/{vogel}/rating", {"stars": 5}, bea)
    api.ok("PUT", f"/api/library/{vogel}/rating", {"stars": 4}, carl)
    rated = api.ok("PUT", f"/api/library/{birds}/rating", {"stars": 3}, bea)
    assert (rated["rating"], rated["ratings"]) == (3.0, 1)
    best = api.ok("GET", "/api/library?sort=rating")["lists"]
    assert [item["id"] for item in best] == [vogel, birds, wine]
    assert best[0]["rating"] == 4.5


def test_rating_again_changes_the_rating_and_authors_cannot_rate_their_own(api: Api) -> None:
    ada, bea = shelf(api)
    first = api.ok("GET", "/api/library")["lists"][0]["id"]
    api.ok("PUT", f"/api/library/{first}/rating", {"stars": 1}, bea)
    again = api.ok("PUT", f"/api/library/{first}/rating", {"stars": 4}, bea)
    assert (again["rating"], again["ratings"]) == (4.0, 1)
    assert api.call("PUT", f"/api/library/{first}/rating", {"stars": 5}, ada).status_code == 403
    assert api.call("PUT", f"/api/library/{first}/rating", {"stars": 6}, bea).status_code == 400


def test_copy_a_published_list_into_my_lists(api: Api) -> None:
    _ada, bea = shelf(api)
    birds = api.ok("GET", "/api/library?q=heron")["lists"][0]["id"]
    mine = api.ok("POST", f"/api/library/{birds}/copy", key=bea)
    assert (mine["name"], mine["difficulty"], mine["entries"]) == (
        "Garden birds",
        "easy",
        ["Owl", "Robin", "Heron"],
    )
    second = api.ok("POST", f"/api/library/{birds}/copy", key=bea)
    assert second["name"] == "Garden birds (2)"


def test_a_published_list_is_a_snapshot(api: Api) -> None:
    ada = api.profile()
    list_id = api.new_list(ada, "Birds", ["Owl"])
    item = api.publish(ada, list_id)
    api.ok("PUT", f"/api/my/lists/{list_id}", {"entries": ["Crow"]}, ada)
    assert api.ok("GET", f"/api/library/{item['id']}")["entries"] == ["Owl"]


def test_an_all_ages_list_must_pass_the_word_filter(api: Api) -> None:
    ada = api.profile()
    list_id = api.new_list(ada, "Party", ["Balloon", "Cocaine", "Cake", "c0caine"], age="all")
    r = api.call("POST", f"/api/my/lists/{list_id}/publish", {"title": "P", "language": "en"}, ada)
    assert r.status_code == 400
    assert [p["line"] for p in r.json()["error"]["problems"]] == [2, 4]
    assert api.ok("GET", "/api/library")["total"] == 0
    adults = api.publish(ada, list_id, age="adults")
    assert adults["age"] == "adults"


def test_the_filter_leaves_ordinary_words_alone(api: Api) -> None:
    ada = api.profile()
    words = ["Scunthorpe", "Bass", "Cocktail sausage", "Grasshopper", "Class"]
    list_id = api.new_list(ada, "Fine", words, age="all")
    assert api.publish(ada, list_id)["age"] == "all"


def test_reporting_needs_a_reason_and_a_profile(api: Api) -> None:
    _ada, bea = shelf(api)
    first = api.ok("GET", "/api/library")["lists"][0]["id"]
    assert api.call("POST", f"/api/library/{first}/report", {"reason": "spam"}).status_code == 401
    assert api.call("POST", f"/api/library/{first}/report", {"reason": " "}, bea).status_code == 400
    api.ok("POST", f"/api/library/{first}/report", {"reason": "spam"}, bea)


def test_an_author_can_withdraw_a_list_others_cannot(api: Api) -> None:
    ada, bea = shelf(api)
    first = api.ok("GET", "/api/library")["lists"][0]["id"]
    assert api.call("DELETE", f"/api/library/{first}", key=bea).status_code == 403
    api.ok("DELETE", f"/api/library/{first}", key=ada)
    assert api.call("GET", f"/api/library/{first}").status_code == 404


def test_bad_search_parameters_are_refused_clearly(api: Api) -> None:
    assert api.call("GET", "/api/library?sort=best").status_code == 400
    r = api.call("GET", "/api/library?language=english")
    assert r.status_code == 400
    assert "pt-BR" in r.json()["error"]["message"]
