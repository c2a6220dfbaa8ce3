// The word-list page: a profile (a name and a key this browser keeps), my lists (create,
// paste, edit, import, export, publish), the community library (search, rate, report, copy,
// use in a room), a room's word sources for its host, and moderation with the admin token.

import { h, clear } from "./dom.js";
import { saveIdentity, identity, prefs } from "./store.js";
import { toast } from "./ui.js";

const PROFILE_KEY = "wolfden.profile";
const DIFFICULTIES = ["easy", "medium", "hard", "ridiculous"];
const AGES = [["all", "all ages"], ["10+", "10 and up"], ["adults", "adults"]];
const FORMATS = { txt: "text", text: "text", csv: "csv", json: "json" };

const state = {
  profile: null, // {key, id, name, banned}
  lists: [],
  editing: null, // null | "new" | list object
  publishing: null, // list object
  found: null,
  query: { q: "", language: "", difficulty: "", max_age: "", sort: "rating" },
  shown: 20, // how many library lists to show (grows by 20 with "Show more")
  room: new URLSearchParams(location.search).get("room"),
  choice: null, // the room's chosen sources
  categories: [],
  adminToken: "",
  reports: null,
};

// -- talking to the server -------------------------------------------------------------------

class Problem extends Error {
  constructor(message, problems = [], status = 0) {
    super(message);
    this.problems = problems;
    this.status = status;
  }
}

async function call(method, path, { body, key, headers = {}, raw = false } = {}) {
  const all = { Accept: "application/json", ...headers };
  if (body !== undefined) all["Content-Type"] = "application/json";
  if (key) all.Authorization = `Bearer ${key}`;
  let response;
  try {
    response = await fetch(path, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Problem("The server cannot be reached. Check your connection and try again.");
  }
  if (raw && response.ok) return response;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || { message: `The server answered ${response.status}.` };
    throw new Problem(err.message, err.problems || [], response.status);
  }
  return data;
}

const mine = (method, path, opts = {}) => call(method, path, { ...opts, key: state.profile && state.profile.key });

// -- the profile -----------------------------------------------------------------------------

function readProfile() {
  try {
    return JSON.parse(localStorage.getItem(PROFILE_KEY) || "null");
  } catch {
    return null;
  }
}

function keepProfile(profile) {
  state.profile = profile;
  try {
    if (profile) localStorage.setItem(PROFILE_KEY, JSON.stringify({ key: profile.key, name: profile.name }));
    else localStorage.removeItem(PROFILE_KEY);
  } catch {
    // Storage switched off: the profile lasts as long as this page.
  }
}

/** A key arriving in the address (#key=...) from another device becomes this browser's key. */
async function adoptKeyFromLink() {
  const match = location.hash.match(/^#key=([A-Za-z0-9_.-]+)$/);
  if (!match) return;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    const me = await call("GET", "/api/profiles/me", { key: match[1] });
    keepProfile({ ...me, key: match[1] });
    toast(`This browser now holds the profile of ${me.name}.`, "info");
  } catch (err) {
    toast(`That link did not work: ${err.message}`);
  }
}

function profileLink() {
  return `${location.origin}/words.html#key=${state.profile.key}`;
}

function errorBox(err) {
  const box = h("div", { class: "form-error", role: "alert" });
  if (!err) {
    box.hidden = true;
    return box;
  }
  box.append(h("p", {}, err.message));
  if (err.problems && err.problems.length)
    box.append(h("ul", { class: "problems" }, err.problems.map((p) => h("li", {}, p.line ? `line ${p.line}: ${p.reason}` : p.reason))));
  return box;
}

function showError(box, err) {
  const next = errorBox(err);
  box.replaceWith(next);
  return next;
}

function field(label, input) {
  const id = input.id;
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function select(id, options, value) {
  return h("select", { id }, options.map(([v, t]) => h("option", { value: v, selected: v === value }, t)));
}

function profileSection() {
  if (!state.profile) {
    const name = h("input", { id: "profile-name", type: "text", maxlength: "24", value: prefs().name || "", placeholder: "how others see you" });
    let err = errorBox(null);
    const form = h(
      "form",
      { class: "panel", "aria-labelledby": "profile-title" },
      h("h2", { id: "profile-title" }, "Your word-list profile"),
      h("p", { class: "help" }, "A display name and a secret key that only this browser keeps. No e-mail, no password, no tracking. Keep the key's link to use the profile on another device."),
      field("Display name", name),
      err,
      h("button", { type: "submit", class: "btn btn-primary" }, "Create my profile"),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const made = await call("POST", "/api/profiles", { body: { name: name.value } });
        keepProfile({ ...made.profile, key: made.key });
        await loadLists();
        render();
      } catch (e) {
        err = showError(err, e);
      }
    });
    return form;
  }
  const link = h("input", { id: "profile-link", class: "key-link", type: "text", readonly: true, value: profileLink() });
  const rename = h("input", { id: "profile-rename", type: "text", maxlength: "24", value: state.profile.name });
  const renameForm = h("form", { class: "filters" }, field("Display name", rename), h("button", { type: "submit", class: "btn btn-small" }, "Change my name"));
  renameForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const me = await mine("PUT", "/api/profiles/me", { body: { name: rename.value } });
      keepProfile({ ...state.profile, ...me });
      render();
    } catch (err) {
      toast(err.message);
    }
  });
  return h(
    "section",
    { class: "panel", "aria-labelledby": "profile-title" },
    h("h2", { id: "profile-title" }, `Signed in as ${state.profile.name}`),
    state.profile.banned ? h("p", { class: "notice" }, "A moderator has stopped this profile from publishing lists.") : null,
    renameForm,
    h(
      "details",
      {},
      h("summary", {}, "Use this profile on another device"),
      h("p", { class: "help" }, "Open this link on the other device. Anyone with the link can act as you: share it with nobody else."),
      link,
      h("button", {
        type: "button",
        class: "btn btn-small",
        on: {
          click: async () => {
            try {
              await navigator.clipboard.writeText(link.value);
              toast("The link is copied.", "info");
            } catch {
              link.select();
            }
          },
        },
      }, "Copy the link"),
      h("button", {
        type: "button",
        class: "btn btn-small btn-danger",
        on: {
          click: () => {
            if (!confirm("Forget this profile on this device? Without its link it cannot come back.")) return;
            keepProfile(null);
            state.lists = [];
            render();
          },
        },
      }, "Forget on this device"),
    ),
  );
}

// -- my lists --------------------------------------------------------------------------------

async function loadLists() {
  if (!state.profile) return;
  try {
    const me = await mine("GET", "/api/profiles/me");
    state.profile = { ...state.profile, ...me };
    state.lists = await mine("GET", "/api/my/lists");
  } catch (err) {
    if (err.status === 401) {
      keepProfile(null);
      toast("This browser's profile key no longer works here; make a new profile.");
    } else toast(err.message);
  }
}

async function download(list, format) {
  try {
    const response = await mine("GET", `/api/my/lists/${list.id}/export?format=${format}`, { raw: true });
    const blob = await response.blob();
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: `${list.name}.${format === "text" ? "txt" : format}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (err) {
    toast(err.message);
  }
}

function editor() {
  const list = state.editing === "new" ? null : state.editing;
  const name = h("input", { id: "list-name", type: "text", maxlength: "60", value: list ? list.name : "" });
  const difficulty = select("list-difficulty", DIFFICULTIES.map((d) => [d, d]), list ? list.difficulty : "medium");
  const age = select("list-age", AGES, list ? list.age : "all");
  const text = h("textarea", { id: "list-text", spellcheck: "false", placeholder: "one entry per line" });
  text.value = list && list.entries ? list.entries.join("\n") : "";
  const format = select("list-format", [["text", "one entry per line"], ["csv", "CSV (a word column)"], ["json", "JSON (the export format)"]], "text");
  const file = h("input", { id: "list-file", type: "file", accept: ".txt,.csv,.json,text/plain,text/csv,application/json" });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    text.value = await f.text();
    const suffix = f.name.split(".").pop().toLowerCase();
    format.value = FORMATS[suffix] || "text";
    if (!name.value) name.value = f.name.replace(/\.[^.]*$/, "");
  });
  let err = errorBox(null);
  const form = h(
    "form",
    { class: "panel", id: "list-editor", "aria-labelledby": "editor-title" },
    h("h2", { id: "editor-title" }, list ? `Edit ${list.name}` : "A new list"),
    field("Name", name),
    h("div", { class: "filters" }, field("Difficulty", difficulty), field("Age rating", age)),
    field("Entries (type or paste)", text),
    h("div", { class: "filters" }, field("Import a file", file), field("Format of the text", format)),
    h("p", { class: "help" }, "An entry has 1 to 40 letters, digits, spaces, hyphens or apostrophes. Repeated entries are kept once."),
    err,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "btn btn-primary" }, "Save the list"),
      h("button", { type: "button", class: "btn", on: { click: () => { state.editing = null; render(); } } }, "Cancel")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { text: text.value, format: format.value, difficulty: difficulty.value, age: age.value };
    if (name.value.trim()) body.name = name.value;
    try {
      if (list) await mine("PUT", `/api/my/lists/${list.id}`, { body });
      else await mine("POST", "/api/my/lists", { body });
      state.editing = null;
      await loadLists();
      render();
      toast("The list is saved.", "info");
    } catch (e) {
      err = showError(err, e);
    }
  });
  return form;
}

function publisher() {
  const list = state.publishing;
  const title = h("input", { id: "pub-title", type: "text", maxlength: "60", value: list.name });
  const description = h("textarea", { id: "pub-description", maxlength: "500" });
  const language = h("input", { id: "pub-language", type: "text", maxlength: "12", value: (navigator.language || "en").split("-")[0] });
  const difficulty = select("pub-difficulty", DIFFICULTIES.map((d) => [d, d]), list.difficulty);
  const age = select("pub-age", AGES, list.age);
  let err = errorBox(null);
  const form = h(
    "form",
    { class: "panel", id: "publisher", "aria-labelledby": "pub-head" },
    h("h2", { id: "pub-head" }, `Publish ${list.name}`),
    h("p", { class: "help" }, "Everyone can then find, rate and use a copy of the list as it is now. Lists for all ages are checked against a word filter first."),
    field("Title", title),
    field("Description", description),
    h("div", { class: "filters" }, field("Language", language), field("Difficulty", difficulty), field("Age rating", age)),
    err,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "btn btn-primary" }, "Publish"),
      h("button", { type: "button", class: "btn", on: { click: () => { state.publishing = null; render(); } } }, "Cancel")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = { title: title.value, description: description.value, language: language.value, difficulty: difficulty.value, age: age.value };
      await mine("POST", `/api/my/lists/${list.id}/publish`, { body });
      state.publishing = null;
      toast("The list is in the community library.", "info");
      await search();
    } catch (e) {
      err = showError(err, e);
    }
  });
  return form;
}

function myListsSection() {
  if (!state.profile) return null;
  if (state.editing) return editor();
  if (state.publishing) return publisher();
  const open = async (list) => {
    try {
      state.editing = await mine("GET", `/api/my/lists/${list.id}`);
      render();
    } catch (err) {
      toast(err.message);
    }
  };
  return h(
    "section",
    { class: "panel", "aria-labelledby": "mine-title" },
    h("h2", { id: "mine-title" }, "My lists"),
    state.lists.length
      ? h("ul", { class: "list-items", id: "my-lists" }, state.lists.map((list) =>
          h("li", { class: "list-item", "data-list": list.name },
            h("h3", {}, list.name),
            h("p", { class: "muted" }, `${list.size} entries · ${list.difficulty} · ${ageText(list.age)}`),
            h("div", { class: "row" },
              h("button", { type: "button", class: "btn btn-small", on: { click: () => open(list) } }, "Edit"),
              h("button", { type: "button", class: "btn btn-small", "data-publish": list.name, on: { click: () => { state.publishing = list; render(); } } }, "Publish"),
              ["text", "csv", "json"].map((f) => h("button", { type: "button", class: "btn btn-small btn-quiet", on: { click: () => download(list, f) } }, `Export ${f === "text" ? "txt" : f}`)),
              state.room ? h("button", { type: "button", class: "btn btn-small", on: { click: () => addToRoom("mine", list.id, list.name, list.difficulty) } }, "Add to the room") : null,
              h("button", {
                type: "button",
                class: "btn btn-small btn-danger",
                on: {
                  click: async () => {
                    if (!confirm(`Delete ${list.name}?`)) return;
                    try {
                      await mine("DELETE", `/api/my/lists/${list.id}`);
                      await loadLists();
                      render();
                    } catch (err) {
                      toast(err.message);
                    }
                  },
                },
              }, "Delete"))))) : h("p", { class: "muted" }, "No lists yet."),
    h("button", { type: "button", class: "btn btn-primary", id: "new-list", on: { click: () => { state.editing = "new"; render(); } } }, "New list"),
  );
}

function ageText(age) {
  return (AGES.find(([v]) => v === age) || [age, age])[1];
}

// -- the community library -------------------------------------------------------------------

async function search() {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(state.query)) if (v) params.set(k, v);
  params.set("limit", String(state.shown));
  try {
    state.found = await call("GET", `/api/library?${params}`);
  } catch (err) {
    toast(err.message);
  }
  render();
}

async function useInNewRoom(item) {
  const name = (state.profile && state.profile.name) || prefs().name || "Host";
  try {
    const made = await call("POST", "/api/rooms", { body: { game: "werewords", name, config: { difficulty: item.difficulty, max_age: "adults" } } });
    saveIdentity(made.code, "r", { token: made.token, participant: made.participant, name });
    const builtin = DIFFICULTIES.filter((d) => d !== item.difficulty);
    await call("PUT", `/api/rooms/${made.code}/words`, { key: made.token, body: { builtin, lists: [{ source: "community", id: item.id }] } });
    location.href = `/#/r/${made.code}`;
  } catch (err) {
    toast(err.message);
  }
}

function libraryItem(item) {
  const stars = select(`stars-${item.id}`, [["", "rate…"], ...[5, 4, 3, 2, 1].map((n) => [String(n), "★".repeat(n)])], "");
  stars.setAttribute("aria-label", `Rate ${item.title}`);
  stars.addEventListener("change", async () => {
    if (!stars.value) return;
    try {
      await mine("PUT", `/api/library/${item.id}/rating`, { body: { stars: Number(stars.value) } });
      toast("Thank you for rating.", "info");
      await search();
    } catch (err) {
      toast(err.message);
    }
  });
  const rating = item.rating === null ? "not rated yet" : `${item.rating.toFixed(1)} ★ (${item.ratings})`;
  const words = h("p", { class: "muted" }, `${item.sample.join(", ")}${item.size > item.sample.length ? ", …" : ""}`);
  return h(
    "li",
    { class: "list-item", "data-library": item.title },
    h("h3", {}, item.title),
    h("p", { class: "muted" }, `by ${item.author.name} · ${item.language} · ${item.difficulty} · ${ageText(item.age)} · ${item.size} entries · ${rating}`),
    item.description ? h("p", {}, item.description) : null,
    words,
    h(
      "div",
      { class: "row" },
      h("button", {
        type: "button",
        class: "btn btn-small btn-quiet",
        on: {
          click: async () => {
            try {
              const full = await call("GET", `/api/library/${item.id}`);
              words.textContent = full.entries.join(", ");
            } catch (err) {
              toast(err.message);
            }
          },
        },
      }, "All words"),
      h("button", { type: "button", class: "btn btn-small btn-primary", "data-use": item.title, on: { click: () => useInNewRoom(item) } }, "Use in a new room"),
      state.room ? h("button", { type: "button", class: "btn btn-small", on: { click: () => addToRoom("community", item.id, item.title, item.difficulty) } }, "Add to the room") : null,
      state.profile
        ? [
            h("button", {
              type: "button",
              class: "btn btn-small",
              on: {
                click: async () => {
                  try {
                    await mine("POST", `/api/library/${item.id}/copy`);
                    await loadLists();
                    render();
                    toast("Copied into your lists.", "info");
                  } catch (err) {
                    toast(err.message);
                  }
                },
              },
            }, "Copy to my lists"),
            stars,
            h("button", {
              type: "button",
              class: "btn btn-small btn-quiet",
              on: {
                click: async () => {
                  const reason = prompt("What is wrong with this list? The moderators will read it.");
                  if (!reason) return;
                  try {
                    await mine("POST", `/api/library/${item.id}/report`, { body: { reason } });
                    toast("Reported. Thank you.", "info");
                  } catch (err) {
                    toast(err.message);
                  }
                },
              },
            }, "Report"),
          ]
        : null,
    ),
  );
}

function librarySection() {
  const q = h("input", { id: "lib-q", type: "text", inputmode: "search", maxlength: "100", value: state.query.q, placeholder: "title, words or language" });
  const language = h("input", { id: "lib-language", type: "text", maxlength: "12", value: state.query.language, placeholder: "any" });
  const difficulty = select("lib-difficulty", [["", "any"], ...DIFFICULTIES.map((d) => [d, d])], state.query.difficulty);
  const age = select("lib-age", [["", "any"], ["all", "all ages"], ["10+", "up to 10 and up"], ["adults", "up to adults"]], state.query.max_age);
  const sort = select("lib-sort", [["rating", "best rated"], ["newest", "newest"]], state.query.sort);
  const form = h(
    "form",
    { class: "filters", role: "search" },
    field("Search", q),
    field("Language", language),
    field("Difficulty", difficulty),
    field("Age", age),
    field("Sort", sort),
    h("button", { type: "submit", class: "btn btn-primary", id: "lib-search" }, "Search"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    state.query = { q: q.value, language: language.value.trim(), difficulty: difficulty.value, max_age: age.value, sort: sort.value };
    state.shown = 20;
    search();
  });
  const found = state.found;
  return h(
    "section",
    { class: "panel", "aria-labelledby": "lib-title" },
    h("h2", { id: "lib-title" }, "Community library"),
    form,
    found
      ? h("div", {},
          h("p", { class: "muted", role: "status" }, `${found.total} list${found.total === 1 ? "" : "s"} found`),
          h("ul", { class: "list-items", id: "library" }, found.lists.map(libraryItem)),
          found.total > found.lists.length && state.shown < 100
            ? h("button", { type: "button", class: "btn", on: { click: () => { state.shown += 20; search(); } } }, "Show more")
            : null)
      : null,
  );
}

// -- a room's word sources (for its host) ----------------------------------------------------

function roomIdentity() {
  return state.room ? identity(state.room.toUpperCase(), "r") : null;
}

function addToRoom(source, id, name, difficulty) {
  state.choice.lists.push({ source, id, name, difficulty });
  render();
  document.getElementById("room-title").scrollIntoView();
}

async function loadRoom() {
  const ident = roomIdentity();
  if (!ident) return;
  try {
    const current = await call("GET", `/api/rooms/${state.room}/words`);
    state.categories = current.categories;
    const sel = current.selection;
    state.choice = sel
      ? { categories: sel.categories, builtin: sel.builtin, max_age: sel.max_age, lists: sel.lists }
      : { categories: [], builtin: [...DIFFICULTIES], max_age: "adults", lists: [] };
  } catch (err) {
    toast(err.message);
  }
}

function roomSection() {
  if (!state.room) return null;
  const ident = roomIdentity();
  if (!ident || !state.choice) return h("section", { class: "panel" }, h("h2", {}, `Room ${state.room}`), h("p", {}, "Only the room's host, on the device that made the room, chooses its word lists."));
  const c = state.choice;
  const box = (name, value, checked, label) => h("label", {}, h("input", { type: "checkbox", name, value, checked }), label);
  const cats = h("div", { class: "checks" }, state.categories.map((cat) => box("room-cat", cat.id, c.categories.includes(cat.id), cat.title)));
  const builtin = h("div", { class: "checks" }, DIFFICULTIES.map((d) => box("room-builtin", d, c.builtin.includes(d), d)));
  const age = select("room-age", AGES, c.max_age);
  let err = errorBox(null);
  const apply = async () => {
    c.categories = [...cats.querySelectorAll("input:checked")].map((i) => i.value);
    c.builtin = [...builtin.querySelectorAll("input:checked")].map((i) => i.value);
    c.max_age = age.value;
    const body = { categories: c.categories, builtin: c.builtin, max_age: c.max_age, lists: c.lists.map((l) => ({ source: l.source, id: l.id, difficulty: l.difficulty })) };
    const headers = state.profile ? { "X-Profile-Key": state.profile.key } : {};
    try {
      const done = await call("PUT", `/api/rooms/${state.room}/words`, { key: ident.token, body, headers });
      const sizes = DIFFICULTIES.map((d) => `${d}: ${done.sizes[d] || "built-in"}`).join(", ");
      err = showError(err, null);
      toast(`The room's words are set (${sizes}).`, "info");
    } catch (e) {
      err = showError(err, e);
    }
  };
  return h(
    "section",
    { class: "panel", "aria-labelledby": "room-title" },
    h("h2", { id: "room-title" }, `Words for room ${state.room}`),
    h("p", { class: "help" }, "Each chosen list feeds the Mayor's choices at the difficulty you give it. A difficulty with a list keeps the built-in words only if ticked below; a difficulty with no list uses the built-in words."),
    h("fieldset", {}, h("legend", {}, "Built-in categories (none ticked = all)"), cats),
    h("fieldset", {}, h("legend", {}, "Keep built-in words beside the lists for"), builtin),
    field("Highest age rating", age),
    h("h3", {}, "Chosen lists"),
    c.lists.length
      ? h("ul", { class: "list-items" }, c.lists.map((l, i) => {
          const diff = select(`room-list-${i}`, DIFFICULTIES.map((d) => [d, d]), l.difficulty);
          diff.setAttribute("aria-label", `Difficulty ${l.name} feeds`);
          diff.addEventListener("change", () => { l.difficulty = diff.value; });
          return h("li", { class: "list-item chosen-list" }, h("span", {}, `${l.name} (${l.source === "mine" ? "mine" : "community"})`), diff,
            h("button", { type: "button", class: "btn btn-small btn-quiet", on: { click: () => { c.lists.splice(i, 1); render(); } } }, "Remove"));
        }))
      : h("p", { class: "muted" }, "None yet: use “Add to the room” on my lists or in the library."),
    err,
    h("div", { class: "row" },
      h("button", { type: "button", class: "btn btn-primary", id: "room-apply", on: { click: apply } }, "Use these words in the room"),
      h("a", { class: "btn btn-link", href: `/#/r/${state.room}` }, "Back to the room")),
  );
}

// -- moderation ------------------------------------------------------------------------------

function moderationSection() {
  const token = h("input", { id: "admin-token", type: "password", value: state.adminToken, autocomplete: "off" });
  const load = async () => {
    state.adminToken = token.value.trim();
    try {
      state.reports = await call("GET", "/api/admin/reports", { key: state.adminToken });
    } catch (err) {
      toast(err.message);
    }
    render();
  };
  const act = async (path) => {
    try {
      await call("POST", path, { key: state.adminToken });
      await load();
    } catch (err) {
      toast(err.message);
    }
  };
  return h(
    "details",
    { class: "panel" },
    h("summary", {}, "Moderators"),
    field("Admin token (printed when the server first started)", token),
    h("button", { type: "button", class: "btn", on: { click: load } }, "Show reported lists"),
    state.reports
      ? state.reports.length
        ? h("ul", { class: "list-items" }, state.reports.map((r) =>
            h("li", { class: "list-item" },
              h("h3", {}, `${r.title}${r.hidden ? " (hidden)" : ""}`),
              h("p", { class: "muted" }, `by ${r.author.name} · ${r.sample.join(", ")}`),
              h("ul", {}, r.reports.map((x) => h("li", {}, `${x.name}: ${x.reason}`))),
              h("div", { class: "row" },
                r.hidden
                  ? h("button", { type: "button", class: "btn btn-small", on: { click: () => act(`/api/admin/library/${r.id}/restore`) } }, "Restore")
                  : h("button", { type: "button", class: "btn btn-small btn-danger", on: { click: () => act(`/api/admin/library/${r.id}/hide`) } }, "Hide"),
                h("button", { type: "button", class: "btn btn-small btn-danger", on: { click: () => act(`/api/admin/profiles/${r.author.id}/ban`) } }, "Ban the author from publishing")))))
        : h("p", { class: "muted" }, "No reported lists.")
      : null,
  );
}

// -- the page --------------------------------------------------------------------------------

function render() {
  const main = document.getElementById("main");
  clear(main);
  const parts = [h("h1", {}, "Word lists"), profileSection(), roomSection(), myListsSection(), librarySection(), moderationSection()];
  main.append(...parts.filter(Boolean));
}

async function start() {
  const saved = readProfile();
  if (saved && saved.key) state.profile = { key: saved.key, name: saved.name, banned: false };
  await adoptKeyFromLink();
  await loadLists();
  await loadRoom();
  await search();
}

start();
