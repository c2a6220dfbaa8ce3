"""The word library: built-in lists, validation, import/export round-trips, storage, CLI."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from wolfden.cli import main
from wolfden.games import werewords as game
from wolfden.games.werewords.config import Config, Difficulty
from wolfden.storage.words import (
    MemoryWordStore,
    SqliteWordStore,
    StorageError,
    WordList,
)
from wolfden.words import CATEGORIES, ENTRIES, ListErrors, WordError, validate_entry
from wolfden.words.builtin import AGES, DIFFICULTIES
from wolfden.words.library import config_words, dumps, import_file, import_text, parse, pools


def test_builtin_lists_cover_four_difficulties_ten_categories_and_3000_entries() -> None:
    assert len(CATEGORIES) >= 10
    assert len({e.word.casefold() for e in ENTRIES}) == len(ENTRIES) >= 3000
    cells = Counter((e.category, e.difficulty) for e in ENTRIES)
    for category in CATEGORIES:
        for difficulty in DIFFICULTIES:
            assert cells[(category, difficulty)] >= 20, (category, difficulty)


def test_every_builtin_entry_is_tagged_and_follows_the_entry_rules() -> None:
    for entry in ENTRIES:
        assert entry.difficulty in DIFFICULTIES and entry.age in AGES
        assert entry.category in CATEGORIES
        assert validate_entry(entry.word) == entry.word


def test_an_entry_has_1_to_40_characters() -> None:
    assert validate_entry("x" * 40) == "x" * 40
    with pytest.raises(WordError, match="at most 40"):
        validate_entry("x" * 41)
    with pytest.raises(WordError, match="is empty"):
        validate_entry("   ")


def test_letters_of_any_script_digits_spaces_hyphens_and_apostrophes_are_allowed() -> None:
    for entry in ("Äpfel", "jack-o'-lantern", "東京", "Москва", "7 dwarfs", "naïve café"):
        assert validate_entry(entry) == entry
    assert validate_entry("rock’n’roll") == "rock'n'roll"
    assert validate_entry("  ice   cream ") == "ice cream"
    for bad in ("a<b>", "semi;colon", "tab\there", "emoji 🐺", "what?"):
        with pytest.raises(WordError, match="allowed are letters"):
            validate_entry(bad)


def test_errors_name_the_line_and_the_reason() -> None:
    with pytest.raises(ListErrors) as caught:
        parse("fine\nbad!\n\n" + "y" * 41 + "\nok\n", "text")
    assert [line for line, _ in caught.value.problems] == [2, 4]
    assert "line 2: 'bad!' contains '!'" in str(caught.value)
    assert "at most 40" in str(caught.value)
    with pytest.raises(ListErrors, match="line 3"):
        parse("word\nfine\nno<good\n", "csv")
    with pytest.raises(ListErrors, match="entry 2 is not text"):
        parse('["ok", 5]', "json")


def test_duplicates_are_folded_case_insensitively() -> None:
    entries, _ = parse("Apple\napple\nAPPLE\nPear\n", "text")
    assert entries == ["Apple", "Pear"]


def test_a_list_holds_at_most_5000_entries() -> None:
    ok, _ = parse("\n".join(f"word {i}" for i in range(5000)), "text")
    assert len(ok) == 5000
    with pytest.raises(ListErrors, match="at most 5000"):
        parse("\n".join(f"word {i}" for i in range(5001)), "text")


def test_a_list_with_errors_is_not_half_imported(tmp_path: Path) -> None:
    store = SqliteWordStore(tmp_path / "w.sqlite3")
    store.save(WordList("Pets", "easy", "all", ("cat",)))
    with pytest.raises(ListErrors):
        import_text(store, "dog\nhamster\nbad#\n", "text", name="Pets", replace=True)
    with pytest.raises(ListErrors):
        import_text(store, "dog\nbad#\n", "text", name="Other")
    assert store.get("Pets").entries == ("cat",)
    assert [i.name for i in store.lists()] == ["Pets"]


SAMPLE = WordList("Mixed bag", "hard", "10+", ("Äpfel", "jack-o'-lantern", "7 dwarfs", "東京"))


@pytest.mark.parametrize("fmt", ["text", "csv", "json"])
def test_every_format_round_trips(fmt: str, tmp_path: Path) -> None:
    store = MemoryWordStore()
    text = dumps(SAMPLE, fmt)
    back = import_text(store, text, fmt, name="Mixed bag", difficulty="hard", age="10+")
    assert back == SAMPLE
    path = tmp_path / f"mixed.{ {'text': 'txt'}.get(fmt, fmt) }"
    path.write_text(text, encoding="utf-8")
    again = import_file(store, path, name="Again", difficulty="hard", age="10+")
    assert again.entries == SAMPLE.entries
    assert dumps(again, fmt).replace("Again", "Mixed bag") == text


def test_json_carries_the_name_and_tags_and_csv_reads_the_word_column() -> None:
    store = MemoryWordStore()
    back = import_text(store, dumps(SAMPLE, "json"), "json")
    assert back == SAMPLE
    entries, _ = parse("category,word\nfood,pie\nfood,jam\n", "csv")
    assert entries == ["pie", "jam"]
    entries, _ = parse("pie\njam\n", "csv")
    assert entries == ["pie", "jam"]


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_stores_create_rename_and_delete_lists(kind: str, tmp_path: Path) -> None:
    store = MemoryWordStore() if kind == "memory" else SqliteWordStore(tmp_path / "db.sqlite3")
    store.save(WordList("Pets", "easy", "all", ("cat", "dog")))
    with pytest.raises(StorageError, match="exists"):
        store.save(WordList("pets", "easy", "all", ("cow",)))
    store.save(WordList("Birds", "medium", "all", ("owl",)))
    store.rename("pets", "Animals at home")
    with pytest.raises(StorageError, match="exists already"):
        store.rename("Birds", "animals at home")
    assert [i.name for i in store.lists()] == ["Animals at home", "Birds"]
    assert store.get("ANIMALS AT HOME").entries == ("cat", "dog")
    store.delete("birds")
    with pytest.raises(StorageError, match="no word list called 'Birds'"):
        store.get("Birds")
    with pytest.raises(WordError, match="belong to the built-in"):
        store.save(WordList("builtin:mine", "easy", "all", ("cat",)))
    with pytest.raises(WordError, match="difficulty 'tricky' is unknown"):
        store.save(WordList("x", "tricky", "all", ("cat",)))


def test_the_sqlite_store_keeps_lists_and_its_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "wolfden.sqlite3"
    SqliteWordStore(path).save(WordList("Pets", "easy", "all", ("cat",)))
    store = SqliteWordStore(path)
    assert store.get("Pets").entries == ("cat",)
    db = sqlite3.connect(path)
    assert db.execute(
        "SELECT version FROM wolfden_schema WHERE component = 'words'"
    ).fetchone() == (1,)
    db.execute("UPDATE wolfden_schema SET version = 99 WHERE component = 'words'")
    db.commit()
    with pytest.raises(StorageError, match="newer wolfden"):
        SqliteWordStore(path)


def test_chosen_lists_and_categories_feed_the_mayors_choices() -> None:
    store = MemoryWordStore()
    store.save(WordList("Family", "easy", "all", ("Grandma Rose", "Uncle Bob")))
    chosen = pools(store, lists=["Family"], builtin=False)
    assert chosen["easy"] == ("Grandma Rose", "Uncle Bob") and chosen["medium"] == ()
    animals = pools(store, categories=["animals"])
    assert {e.category for e in ENTRIES if e.word in set(animals["hard"])} == {"animals"}
    options = config_words(store, lists=["Family"])
    assert set(options) == {"words_easy"} and "Grandma Rose" in options["words_easy"]
    config = Config(difficulty=Difficulty.EASY, word_choices=5, **options)
    state = game.setup(config, 3)
    while not state.candidates:
        state, _ = game.apply(state, None, game.deadline(state).action)
    assert set(state.candidates) <= set(options["words_easy"])
    only_family = Config(
        difficulty=Difficulty.EASY, **config_words(store, lists=["Family"], builtin=False)
    )
    assert only_family.words_easy == ("Grandma Rose", "Uncle Bob")


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_words_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.sqlite3")
    code, out, _ = _cli(
        ["words", "--db", db, "create", "Pets", "cat", "dog", "--difficulty", "easy"], capsys
    )
    assert code == 0 and "2 entries" in out
    (tmp_path / "birds.csv").write_text("word\nowl\nwren\n", encoding="utf-8")
    code, out, _ = _cli(["words", "--db", db, "import", str(tmp_path / "birds.csv")], capsys)
    assert code == 0 and "'birds': 2 entries" in out
    code, _, _ = _cli(["words", "--db", db, "export", "Pets", str(tmp_path / "p.json")], capsys)
    assert json.loads((tmp_path / "p.json").read_text())["entries"] == ["cat", "dog"]
    assert _cli(["words", "--db", db, "rename", "birds", "Birds"], capsys)[0] == 0
    code, out, _ = _cli(["words", "--db", db, "list"], capsys)
    assert "builtin:animals" in out and "Birds" in out and "Pets" in out
    code, out, _ = _cli(["words", "--db", db, "show", "Birds"], capsys)
    assert "owl" in out and "wren" in out
    assert _cli(["words", "--db", db, "delete", "Birds", "--yes"], capsys)[0] == 0
    (tmp_path / "bad.txt").write_text("fine\nnot<fine>\n", encoding="utf-8")
    code, out, err = _cli(["words", "--db", db, "import", str(tmp_path / "bad.txt")], capsys)
    assert code == 2 and "line 2" in err and "Traceback" not in err
    code, _, err = _cli(["words", "--db", db, "show", "Nothing"], capsys)
    assert code == 2 and err.strip() == "wolfden: there is no word list called 'Nothing'"


def test_word_lists_share_one_database_file_with_the_server(tmp_path: Path) -> None:
    from wolfden.storage import rooms

    path = tmp_path / "wolfden.sqlite3"
    rooms.SqliteRoomStore(path).close()
    db = sqlite3.connect(path)
    store = SqliteWordStore(path)
    store.save(WordList("Pets", "easy", "all", ("cat",)))
    versions = dict(db.execute("SELECT component, version FROM wolfden_schema").fetchall())
    assert versions == {"rooms": len(rooms.MIGRATIONS), "words": 1}


def test_a_list_can_be_pasted_one_entry_per_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from wolfden.cli import cli

    db = str(tmp_path / "paste.sqlite3")
    pasted = "Grandma Rose\n\nUncle Bob\nuncle bob\n"
    result = CliRunner().invoke(
        cli,
        ["words", "--db", db, "create", "Family", "--paste", "--difficulty", "easy"],
        input=pasted,
    )
    assert result.exit_code == 0, result.output
    assert SqliteWordStore(db).get("Family").entries == ("Grandma Rose", "Uncle Bob")
    result = CliRunner().invoke(cli, ["words", "--db", db, "export", "Family", "-"])
    assert result.output == "Grandma Rose\nUncle Bob\n"
