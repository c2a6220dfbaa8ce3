"""REST endpoints for profiles, my lists, the community library, moderation and a room's words.

Profiles send their key as ``Authorization: Bearer <key>``; moderators send the admin token the
same way on ``/api/admin/...``. In a room the host's room token is the bearer and the host's
profile key (needed only for their own lists) goes in ``X-Profile-Key``. See docs/protocol.md.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from wolfden.engine.config import config_from_json, config_to_json
from wolfden.engine.errors import ConfigError
from wolfden.server.errors import Refused
from wolfden.server.rooms import Room, RoomManager
from wolfden.server.settings import Settings
from wolfden.server.state import served
from wolfden.storage.community import (
    CommunityError,
    CommunityStore,
    Forbidden,
    Invalid,
    MyList,
    Profile,
    Published,
    Unauthorized,
)
from wolfden.storage.rooms import default_db_path, is_database_address
from wolfden.storage.words import WordList
from wolfden.words.builtin import AGES, CATEGORIES, CATEGORY_TITLES, DIFFICULTIES
from wolfden.words.builtin import pool as builtin_pool
from wolfden.words.library import dumps, parse
from wolfden.words.validate import ListErrors, WordError, fold

Difficulty = Literal["easy", "medium", "hard", "ridiculous"]
Age = Literal["all", "10+", "adults"]
Format = Literal["text", "csv", "json"]
MEDIA = {"text": "text/plain", "csv": "text/csv", "json": "application/json"}
SUFFIX = {"text": "txt", "csv": "csv", "json": "json"}
PROFILES_PER_HOUR = 30
"""New profiles one client address may make in an hour."""

bearer = HTTPBearer(auto_error=False, description="A profile key (or, for /api/admin, the token)")
ListId = Annotated[int, Path(ge=1, le=2**62, description="A list number")]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewProfile(Body):
    name: str = Field(description="Display name, 1-24 characters.")


class ListBody(Body):
    name: str | None = Field(None, description="1-60 characters; from a JSON import if left out.")
    difficulty: Difficulty | None = Field(None, description="Default medium.")
    age: Age | None = Field(None, description="Default all.")
    entries: list[str] | None = Field(
        None, description="The entries, one per item (at most 5,000).", max_length=5000
    )
    text: str | None = Field(None, description="Pasted or imported text, instead of entries.")
    format: Format = Field("text", description="The format of 'text'.")


class PublishBody(Body):
    title: str = Field(description="1-60 characters.")
    description: str = Field("", description="Up to 500 characters.")
    language: str = Field(description="A language code such as en, de, pt-BR.")
    difficulty: Difficulty | None = Field(None, description="Default: the list's.")
    age: Age | None = Field(None, description="Default: the list's. 'all' passes a word filter.")


class RateBody(Body):
    stars: int = Field(ge=1, le=5)


class ReportBody(Body):
    reason: str = Field(description="What is wrong with the list, 1-300 characters.")


class ListChoice(Body):
    source: Literal["mine", "community"]
    id: int = Field(ge=1, le=2**62)
    difficulty: Difficulty | None = Field(None, description="Pool it feeds; default its own.")


def _all_difficulties() -> list[Difficulty]:
    return ["easy", "medium", "hard", "ridiculous"]


class RoomWords(Body):
    categories: list[str] = Field(
        default_factory=list, description="Built-in; [] = all.", max_length=64
    )
    builtin: list[Difficulty] = Field(
        default_factory=_all_difficulties,
        description="Difficulties whose pool keeps the built-in words.",
        max_length=4,
    )
    max_age: Age = "adults"
    lists: list[ListChoice] = Field(default_factory=list, max_length=50)


def profile_json(p: Profile) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "banned": p.banned}


def my_list_json(m: MyList, *, entries: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": m.id,
        "name": m.name,
        "difficulty": m.difficulty,
        "age": m.age,
        "size": len(m.entries),
        "updated": m.updated,
    }
    if entries:
        out["entries"] = list(m.entries)
    return out


def published_json(p: Published, *, entries: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": p.id,
        "author": {"id": p.author, "name": p.author_name},
        "title": p.title,
        "description": p.description,
        "language": p.language,
        "difficulty": p.difficulty,
        "age": p.age,
        "size": len(p.entries),
        "created": p.created,
        "rating": p.rating,
        "ratings": p.ratings,
        "hidden": p.hidden,
    }
    if entries:
        out["entries"] = list(p.entries)
    else:
        out["sample"] = list(p.entries[:8])
    return out


def _wordlist(body: ListBody, old: MyList | None = None) -> WordList:
    """The list a request describes, read with the word library's parsers (per-line errors)."""
    meta: dict[str, Any] = {}
    if body.text is not None and body.entries is not None:
        raise Invalid("give either 'entries' or 'text', not both")
    try:
        if body.text is not None:
            entries, meta = parse(body.text, body.format)
        elif body.entries is not None:
            entries = list(body.entries)
        elif old is not None:
            entries = list(old.entries)
        else:
            raise Invalid("a list needs 'entries' or 'text'")
    except ListErrors as exc:
        raise Invalid(str(exc), exc.problems) from exc
    except WordError as exc:
        raise Invalid(str(exc)) from exc
    name = body.name or meta.get("name") or (old.name if old else None)
    difficulty = body.difficulty or meta.get("difficulty") or (old.difficulty if old else "medium")
    age = body.age or meta.get("age") or (old.age if old else "all")
    if not isinstance(name, str) or not name.strip():
        raise Invalid("the list needs a name")
    return WordList(name, str(difficulty), str(age), tuple(entries))


def resolve_words(
    choice: RoomWords, mine: dict[int, MyList], community: dict[int, Published]
) -> dict[str, Any]:
    """The Werewords config options for a room's chosen sources.

    Each chosen list joins the pool of its difficulty (or the one the host gave it). A pool
    with a list keeps the built-in words only if its difficulty is in ``builtin``; a pool with
    nothing chosen is left empty, which the game reads as the built-in list.
    """
    unknown = [c for c in choice.categories if c not in CATEGORIES]
    if unknown:
        raise Invalid(f"unknown categories {', '.join(unknown)}; use {', '.join(CATEGORIES)}")
    cats = tuple(choice.categories)
    fed: dict[str, list[str]] = {d: [] for d in DIFFICULTIES}
    for item in choice.lists:
        src: MyList | Published = mine[item.id] if item.source == "mine" else community[item.id]
        if AGES.index(src.age) > AGES.index(choice.max_age):
            name = src.name if isinstance(src, MyList) else src.title
            raise Invalid(
                f"{name!r} is rated {src.age}, above the room's limit {choice.max_age}; raise "
                "the limit or leave the list out"
            )
        fed[item.difficulty or src.difficulty].extend(src.entries)
    out: dict[str, Any] = {"categories": list(cats), "max_age": choice.max_age}
    for d in DIFFICULTIES:
        words: list[str] = []
        if fed[d]:
            if d in choice.builtin:
                words.extend(builtin_pool(d, cats, choice.max_age))
            words.extend(fed[d])
        unique: dict[str, str] = {}
        for w in words:
            unique.setdefault(fold(w), w)
        out[f"words_{d}"] = list(unique.values())
    return out


def install(app: FastAPI, settings: Settings, manager: RoomManager) -> CommunityStore:
    """Open the community store, settle the admin token and add the endpoints to ``app``.
    Wrong room codes tried here count against the lobby's per-address limit (the same
    ``AppState.look_up``)."""
    # The rooms' SQLite file; with rooms on PostgreSQL, the default file of this node.
    own_file = None if is_database_address(settings.db) else settings.db
    path = getattr(manager.store, "path", None) or own_file or default_db_path()
    store = CommunityStore(path)
    given = getattr(settings, "admin_token", None)
    if given:
        store.set_admin_token(given)
    else:
        fresh = store.ensure_admin_token()
        if fresh:
            print(
                f"wolfden: the moderator (admin) token of this server is {fresh}\n"
                "wolfden: it is shown only this once; set a new one with "
                "`wolfden serve --admin-token ...`",
                file=sys.stderr,
                flush=True,
            )
    app.state.community = store
    app.state.profiles_made = {}
    app.add_exception_handler(CommunityError, community_error)  # type: ignore[arg-type]
    manager.match_config.append(functools.partial(with_chosen_words, store))
    app.include_router(router)
    return store


async def community_error(request: Request, exc: CommunityError) -> JSONResponse:
    body: dict[str, Any] = {"code": exc.code, "message": str(exc)}
    if isinstance(exc, Invalid) and exc.problems:
        body["problems"] = [{"line": line, "reason": why} for line, why in exc.problems]
    return JSONResponse({"error": body}, status_code=exc.status)


def community(request: Request) -> CommunityStore:
    """The app's community store (``install`` opens it)."""
    store: CommunityStore = request.app.state.community
    return store


Store = Annotated[CommunityStore, Depends(community)]


def made(request: Request) -> dict[str, list[float]]:
    """Per client address: when it made a profile (the last hour)."""
    profiles: dict[str, list[float]] = request.app.state.profiles_made
    return profiles


def me(store: CommunityStore, creds: HTTPAuthorizationCredentials | None) -> Profile:
    return store.profile(creds.credentials if creds else None)


def admin(store: CommunityStore, creds: HTTPAuthorizationCredentials | None) -> None:
    if not store.is_admin(creds.credentials if creds else None):
        raise Unauthorized("this needs the server's admin token")


router = APIRouter(prefix="/api")


# -- profiles -----------------------------------------------------------------------


@router.post("/profiles", tags=["profiles"], status_code=201)
async def create_profile(store: Store, body: NewProfile, request: Request) -> dict[str, Any]:
    """A new profile. The key is shown once: the browser keeps it; the server a digest."""
    address = request.client.host if request.client else "?"
    now = time.monotonic()
    recent = [t for t in made(request).get(address, []) if t > now - 3600]
    if len(recent) >= PROFILES_PER_HOUR:
        raise Refused(
            "too_many_attempts",
            f"At most {PROFILES_PER_HOUR} profiles an hour from one address; wait a while.",
            429,
        )
    profiles = made(request)
    if len(profiles) > 10_000:
        profiles.clear()
    profiles[address] = [*recent, now]
    profile, key = store.create_profile(body.name)
    return {"profile": profile_json(profile), "key": key}


@router.get("/profiles/me", tags=["profiles"])
async def get_me(store: Store, creds: Credentials) -> dict[str, Any]:
    """The profile this key belongs to."""
    return profile_json(me(store, creds))


@router.put("/profiles/me", tags=["profiles"])
async def rename_me(store: Store, body: NewProfile, creds: Credentials) -> dict[str, Any]:
    """Change the display name (published lists show the new one)."""
    return profile_json(store.rename_profile(me(store, creds), body.name))


# -- my lists -----------------------------------------------------------------------


@router.get("/my/lists", tags=["my lists"])
async def my_lists(store: Store, creds: Credentials) -> list[dict[str, Any]]:
    """My lists without their entries."""
    return [my_list_json(m, entries=False) for m in store.my_lists(me(store, creds))]


@router.post("/my/lists", tags=["my lists"], status_code=201)
async def create_list(store: Store, body: ListBody, creds: Credentials) -> dict[str, Any]:
    """Create a list from entries, or from pasted/imported text in a library format."""
    profile = me(store, creds)
    return my_list_json(store.save_list(profile, _wordlist(body)))


@router.get("/my/lists/{list_id}", tags=["my lists"])
async def get_list(store: Store, list_id: ListId, creds: Credentials) -> dict[str, Any]:
    return my_list_json(store.my_list(me(store, creds), list_id))


@router.put("/my/lists/{list_id}", tags=["my lists"])
async def edit_list(
    store: Store, list_id: ListId, body: ListBody, creds: Credentials
) -> dict[str, Any]:
    """Replace a list's name, tags or entries (what is left out stays)."""
    profile = me(store, creds)
    old = store.my_list(profile, list_id)
    return my_list_json(store.save_list(profile, _wordlist(body, old), list_id))


@router.delete("/my/lists/{list_id}", tags=["my lists"])
async def delete_list(store: Store, list_id: ListId, creds: Credentials) -> dict[str, Any]:
    store.delete_list(me(store, creds), list_id)
    return {"deleted": list_id}


@router.get(
    "/my/lists/{list_id}/export",
    tags=["my lists"],
    response_class=Response,
    responses={200: {"content": {m: {} for m in MEDIA.values()}}},
)
async def export_list(
    store: Store, list_id: ListId, creds: Credentials, format: Format = "text"
) -> Response:
    """The list as a file in the word library's text, CSV or JSON format."""
    m = store.my_list(me(store, creds), list_id)
    text = dumps(WordList(m.name, m.difficulty, m.age, m.entries), format)
    safe = "".join(c if c.isascii() and c.isalnum() else "-" for c in m.name).strip("-")
    filename = f"{safe or 'list'}.{SUFFIX[format]}"
    return Response(
        text,
        media_type=f"{MEDIA[format]}; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


@router.post("/my/lists/{list_id}/publish", tags=["library"], status_code=201)
async def publish(
    store: Store, list_id: ListId, body: PublishBody, creds: Credentials
) -> dict[str, Any]:
    """Publish a snapshot of one of my lists. Lists rated 'all' pass the word filter."""
    profile = me(store, creds)
    mine = store.my_list(profile, list_id)
    item = store.publish(
        profile,
        list_id,
        title=body.title,
        description=body.description,
        language=body.language,
        difficulty=body.difficulty or mine.difficulty,
        age=body.age or mine.age,
    )
    return published_json(item)


# -- the library ----------------------------------------------------------------------


@router.get("/library", tags=["library"])
async def browse(
    store: Store,
    q: Annotated[str, Query(max_length=100, description="Words of the title/entries")] = "",
    language: Annotated[str | None, Query(max_length=20)] = None,
    difficulty: Difficulty | None = None,
    max_age: Age | None = None,
    sort: Literal["rating", "newest"] = "rating",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """Search and filter the published lists; each comes with a sample of its entries."""
    found, total = store.search(
        query=q,
        language=language or None,
        difficulty=difficulty,
        max_age=max_age,
        sort=sort,
        limit=limit,
        offset=offset,
    )
    return {"total": total, "lists": [published_json(p, entries=False) for p in found]}


@router.get("/library/{list_id}", tags=["library"])
async def get_published(store: Store, list_id: ListId) -> dict[str, Any]:
    return published_json(store.published(list_id))


@router.put("/library/{list_id}/rating", tags=["library"])
async def rate(store: Store, list_id: ListId, body: RateBody, creds: Credentials) -> dict[str, Any]:
    """Rate 1-5 stars (again to change it); not your own lists."""
    return published_json(store.rate(me(store, creds), list_id, body.stars), entries=False)


@router.post("/library/{list_id}/report", tags=["library"])
async def report(
    store: Store, list_id: ListId, body: ReportBody, creds: Credentials
) -> dict[str, Any]:
    """Tell the moderators something is wrong with a list."""
    store.report(me(store, creds), list_id, body.reason)
    return {"reported": list_id}


@router.post("/library/{list_id}/copy", tags=["library"], status_code=201)
async def copy(store: Store, list_id: ListId, creds: Credentials) -> dict[str, Any]:
    """Copy a published list into my lists."""
    return my_list_json(store.copy_to_mine(me(store, creds), list_id))


@router.delete("/library/{list_id}", tags=["library"])
async def withdraw(store: Store, list_id: ListId, creds: Credentials) -> dict[str, Any]:
    """The author takes a list out of the library."""
    store.withdraw(me(store, creds), list_id)
    return {"deleted": list_id}


# -- moderation -----------------------------------------------------------------------


@router.get("/admin/reports", tags=["moderation"])
async def reported(store: Store, creds: Credentials) -> list[dict[str, Any]]:
    """Reported lists, hidden ones included, with every report."""
    admin(store, creds)
    found, _ = store.search(sort="newest", limit=100, hidden=True, reported=True)
    return [{**published_json(p, entries=False), "reports": store.reports(p.id)} for p in found]


@router.post("/admin/library/{list_id}/hide", tags=["moderation"])
async def hide(store: Store, list_id: ListId, creds: Credentials) -> dict[str, Any]:
    """Hide a list from the library (rooms using it keep their words)."""
    admin(store, creds)
    return published_json(store.set_hidden(list_id, True), entries=False)


@router.post("/admin/library/{list_id}/restore", tags=["moderation"])
async def restore(store: Store, list_id: ListId, creds: Credentials) -> dict[str, Any]:
    """Show a hidden list again; its reports are cleared."""
    admin(store, creds)
    return published_json(store.set_hidden(list_id, False), entries=False)


@router.post("/admin/profiles/{profile_id}/ban", tags=["moderation"])
async def ban(store: Store, profile_id: str, creds: Credentials) -> dict[str, Any]:
    """Stop a profile from publishing."""
    admin(store, creds)
    return profile_json(store.set_banned(profile_id, True))


@router.post("/admin/profiles/{profile_id}/unban", tags=["moderation"])
async def unban(store: Store, profile_id: str, creds: Credentials) -> dict[str, Any]:
    admin(store, creds)
    return profile_json(store.set_banned(profile_id, False))


# -- a room's words -------------------------------------------------------------------


@router.get("/rooms/{code}/words", tags=["host"])
async def room_words(store: Store, code: str, request: Request) -> dict[str, Any]:
    """The sources chosen for this room's word pools (not the words), and the built-in
    categories there are to choose from."""
    room = served(request).look_up(request, code)
    stored = store.room_choice(room.code) or {}
    chosen = {"selection": stored.get("selection"), "sizes": stored.get("sizes")}
    categories = [{"id": c, "title": CATEGORY_TITLES[c]} for c in CATEGORIES]
    return {**chosen, "categories": categories}


@router.put("/rooms/{code}/words", tags=["host"])
async def choose_words(
    store: Store,
    code: str,
    request: Request,
    body: RoomWords,
    creds: Credentials,
    x_profile_key: Annotated[str | None, Header(description="Your profile key")] = None,
) -> dict[str, Any]:
    """Choose the built-in categories, my lists and community lists per difficulty.

    The server copies the words at once and puts them into the Werewords configuration
    of every match the room starts, so the game never reads lists itself. The room
    summary shows the categories and age limit, not the words.
    """
    room = served(request).look_up(request, code)
    served(request).manager.require_host(room, creds.credentials if creds else None)
    if room.game.id != "werewords":
        raise Refused("wrong_game", "Word lists are for Werewords rooms.", 400)
    mine: dict[int, MyList] = {}
    community: dict[int, Published] = {}
    owner: Profile | None = None
    for item in body.lists:
        if item.source == "mine":
            if owner is None:
                if not x_profile_key:
                    raise Forbidden("your own lists need your profile key (X-Profile-Key)")
                owner = store.profile(x_profile_key)
            mine[item.id] = store.my_list(owner, item.id)
        else:
            community[item.id] = store.published(item.id)
    words = resolve_words(body, mine, community)
    pools = {f"words_{d}": words.pop(f"words_{d}") for d in DIFFICULTIES}
    data = {**config_to_json(room.config), **words}
    try:
        config_from_json(room.game.Config, {**data, **pools})
    except ConfigError as exc:
        raise Refused("bad_config", f"Those words do not work: {exc}", 400) from exc
    served(request).manager.set_config(room, data)
    sizes = {d: len(pools[f"words_{d}"]) for d in DIFFICULTIES}
    titles = [
        {
            "source": i.source,
            "id": i.id,
            "name": mine[i.id].name if i.source == "mine" else community[i.id].title,
            "difficulty": i.difficulty
            or (mine[i.id].difficulty if i.source == "mine" else community[i.id].difficulty),
        }
        for i in body.lists
    ]
    chosen = {
        "selection": {**body.model_dump(exclude={"lists"}), "lists": titles},
        "sizes": sizes,
    }
    store.save_room_choice(room.code, {**chosen, "pools": pools})
    return {"room": room.summary(host=True), **chosen}


def with_chosen_words(store: CommunityStore, room: Room, config: Any) -> Any:
    """The match's config with the words the host chose (kept out of the room summary,
    so the players cannot read the Mayor's candidates)."""
    if room.game.id != "werewords":
        return config
    stored = store.room_choice(room.code)
    if not stored or "pools" not in stored:
        return config
    return dataclasses.replace(config, **{k: tuple(v) for k, v in stored["pools"].items()})


__all__ = ["install", "resolve_words"]
