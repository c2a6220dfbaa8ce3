"""``wolfden words``: list, show, create, import, export, rename and delete word lists."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from wolfden.engine.errors import WolfdenError
from wolfden.storage.words import SqliteWordStore, WordList
from wolfden.words.builtin import AGES, CATEGORIES, CATEGORY_TITLES, DIFFICULTIES, ENTRIES
from wolfden.words.library import (
    FORMATS,
    dumps,
    format_of,
    get_list,
    import_file,
    import_text,
)


def _store(ctx: click.Context) -> SqliteWordStore:
    store = ctx.obj.get("store") if ctx.obj else None
    if store is None:
        try:
            store = SqliteWordStore(ctx.obj.get("db") if ctx.obj else None)
        except WolfdenError as exc:
            raise click.ClickException(str(exc)) from exc
        ctx.obj["store"] = store
    return store


class _Errors(click.Group):
    """Every wolfden error becomes one clear line, never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except WolfdenError as exc:
            raise click.ClickException(str(exc)) from exc


@click.group("words", cls=_Errors)
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    envvar="WOLFDEN_DB",
    default=None,
    help="the wolfden database file (default: wolfden.sqlite3 in your data directory)",
)
@click.pass_context
def words_group(ctx: click.Context, db: str | None) -> None:
    """Word lists for Werewords: the built-in lists and your own."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db


@words_group.command("list")
@click.pass_context
def list_command(ctx: click.Context) -> None:
    """The built-in categories and your lists."""
    click.echo("Built-in (use as builtin:CATEGORY or builtin:CATEGORY:DIFFICULTY):")
    for category in CATEGORIES:
        counts = [
            sum(1 for e in ENTRIES if e.category == category and e.difficulty == d)
            for d in DIFFICULTIES
        ]
        shown = ", ".join(f"{d} {n}" for d, n in zip(DIFFICULTIES, counts))
        click.echo(f"  builtin:{category:<10} {CATEGORY_TITLES[category]:<22} {shown}")
    mine = _store(ctx).lists()
    click.echo("Your lists:" if mine else "Your lists: none yet (wolfden words create NAME)")
    for info in mine:
        click.echo(f"  {info.name:<30} {info.difficulty:<10} {info.age:<6} {info.size} entries")


@words_group.command("show")
@click.argument("name")
@click.pass_context
def show_command(ctx: click.Context, name: str) -> None:
    """The entries of a list."""
    wordlist = get_list(_store(ctx), name)
    click.echo(
        f"{wordlist.name} · {wordlist.difficulty} · ages {wordlist.age} · "
        f"{len(wordlist.entries)} entries"
    )
    for entry in wordlist.entries:
        click.echo(f"  {entry}")


@words_group.command("create")
@click.argument("name")
@click.argument("entries", nargs=-1)
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), default="medium", show_default=True)
@click.option(
    "--age",
    type=click.Choice(AGES),
    default="all",
    show_default=True,
    help="who is likely to know these words",
)
@click.option(
    "--paste",
    is_flag=True,
    help="read the entries from standard input, one per line (end with Ctrl-D)",
)
@click.option("--replace", is_flag=True, help="replace a list of the same name")
@click.pass_context
def create_command(
    ctx: click.Context,
    name: str,
    entries: tuple[str, ...],
    difficulty: str,
    age: str,
    paste: bool,
    replace: bool,
) -> None:
    """Create a list from ENTRIES given on the command line, or pasted with --paste."""
    store = _store(ctx)
    if paste:
        if sys.stdin.isatty():
            click.echo("Paste one entry per line, then press Ctrl-D:", err=True)
        text = sys.stdin.read()
        wordlist = import_text(
            store, text, "text", name=name, difficulty=difficulty, age=age, replace=replace
        )
    else:
        if not entries:
            raise click.UsageError("give the entries after the name, or use --paste")
        wordlist = store.save(WordList(name, difficulty, age, entries), replace=replace)
    click.echo(f"Created {wordlist.name!r}: {len(wordlist.entries)} entries ({difficulty}).")


@words_group.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--name", default=None, help="the list's name (default: from the file)")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="text, csv or json (default: from the file's suffix)",
)
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), default=None)
@click.option("--age", type=click.Choice(AGES), default=None)
@click.option("--replace", is_flag=True, help="replace a list of the same name")
@click.pass_context
def import_command(
    ctx: click.Context,
    file: str,
    name: str | None,
    fmt: str | None,
    difficulty: str | None,
    age: str | None,
    replace: bool,
) -> None:
    """Import a list from a plain text, CSV or JSON file (all of it, or nothing)."""
    wordlist = import_file(
        _store(ctx), file, fmt=fmt, name=name, difficulty=difficulty, age=age, replace=replace
    )
    click.echo(
        f"Imported {wordlist.name!r}: {len(wordlist.entries)} entries "
        f"({wordlist.difficulty}, ages {wordlist.age})."
    )


@words_group.command("export")
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="text, csv or json (default: from the file's suffix; text for -)",
)
@click.pass_context
def export_command(ctx: click.Context, name: str, file: str, fmt: str | None) -> None:
    """Write a list to FILE (- for standard output)."""
    wordlist = get_list(_store(ctx), name)
    fmt = fmt or ("text" if file == "-" else format_of(file))
    text = dumps(wordlist, fmt)
    if file == "-":
        click.echo(text, nl=False)
        return
    try:
        Path(file).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {file}: {exc.strerror or exc}") from exc
    click.echo(f"Exported {wordlist.name!r} ({len(wordlist.entries)} entries) to {file}.")


@words_group.command("rename")
@click.argument("old")
@click.argument("new")
@click.pass_context
def rename_command(ctx: click.Context, old: str, new: str) -> None:
    """Rename a list."""
    _store(ctx).rename(old, new)
    click.echo(f"Renamed {old!r} to {new!r}.")


@words_group.command("delete")
@click.argument("name")
@click.option("--yes", is_flag=True, help="do not ask for confirmation")
@click.pass_context
def delete_command(ctx: click.Context, name: str, yes: bool) -> None:
    """Delete a list."""
    store = _store(ctx)
    store.get(name)
    if not yes:
        click.confirm(f"Delete the list {name!r}?", abort=True)
    store.delete(name)
    click.echo(f"Deleted {name!r}.")
