// The first screens: start a room, join one by code or link, come back to a room.

import { api, ApiError, isCode, normalizeCode } from "./api.js";
import { h } from "./dom.js";
import { optionsForm } from "./options.js";
import { knownRooms, prefs, setPrefs } from "./store.js";

import { BLURBS, specOf } from "../games/meta.js";

const ROLES = [
  ["player", "A player (my own phone)"],
  ["table", "The table screen everyone can see (it narrates aloud)"],
  ["spectator", "Just watching"],
];

function roleChoice(name, selected, keyPrefix) {
  return h(
    "fieldset",
    { class: "field roles" },
    h("legend", {}, "This device is"),
    ROLES.map(([value, label]) =>
      h(
        "label",
        { class: "radio" },
        h("input", { type: "radio", name, value, checked: value === selected, "data-key": `${keyPrefix}-${value}` }),
        " ",
        label,
      ),
    ),
  );
}

function nameField(id) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, "Your name"),
    h("input", { id, type: "text", maxlength: "24", autocomplete: "nickname", required: true, value: prefs().name, "data-key": id, placeholder: "how the others call you" }),
  );
}

function errorBox(id) {
  return h("p", { class: "form-error", id, role: "alert", hidden: true });
}

function showError(form, id, text) {
  const box = form.querySelector(`#${id}`);
  box.textContent = text;
  box.hidden = false;
}

function chosenRole(form, name) {
  const checked = form.querySelector(`input[name="${name}"]:checked`);
  return checked ? checked.value : "player";
}

function roomHash(code, role) {
  return `#/${role === "table" ? "t" : "r"}/${code}`;
}

async function joinRoom(app, code, name, role) {
  const { enterRoom, go } = await import("./app.js");
  // a table screen opened from the host's table-screen link comes in without asking
  const key = role === "table" && app.tableKey && app.tableKey.code === code ? app.tableKey.key : null;
  const data = await api("POST", `/api/rooms/${code}/join`, { body: key ? { name, role, table_key: key } : { name, role } });
  if (key) app.tableKey = null;
  setPrefs({ name });
  const kind = role === "table" ? "t" : "r";
  app.problem = null;
  if (location.hash === roomHash(code, role)) enterRoom(code, kind, { token: data.token, participant: data.participant, name });
  else {
    const { saveIdentity } = await import("./store.js");
    saveIdentity(code, kind, { token: data.token, participant: data.participant, name });
    go(roomHash(code, role));
  }
}

function joinForm(app, presetCode, presetRole = "player") {
  const form = h("form", { class: "panel join", "aria-labelledby": "join-title", novalidate: true });
  const codeField = presetCode
    ? h("p", { class: "room-code-line" }, "Room ", h("strong", { class: "code" }, presetCode))
    : h(
        "div",
        { class: "field" },
        h("label", { for: "join-code" }, "Room code"),
        h("input", { id: "join-code", type: "text", inputmode: "text", autocapitalize: "characters", autocomplete: "off", maxlength: "9", placeholder: "e.g. 7KQ2XA", "data-key": "join-code", class: "code-input" }),
      );
  form.append(
    h("h2", { id: "join-title" }, presetCode ? "Join this game" : "Join a game"),
    codeField,
    nameField("join-name"),
    roleChoice("join-role", presetRole, "join-role"),
    errorBox("join-error"),
    h("button", { type: "submit", class: "btn btn-primary btn-wide" }, "Join"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = presetCode || normalizeCode(form.querySelector("#join-code").value);
    const name = form.querySelector("#join-name").value.trim();
    if (!isCode(code)) return showError(form, "join-error", "A room code has 6 letters and digits, for example 7KQ2XA.");
    if (!name) return showError(form, "join-error", "Please type your name: the others will see it.");
    try {
      await joinRoom(app, code, name, chosenRole(form, "join-role"));
    } catch (err) {
      const extra = err instanceof ApiError && err.code === "room_full" ? " You can still join to watch." : "";
      showError(form, "join-error", (err.message || String(err)) + extra);
    }
  });
  return form;
}

/** How many play, from the server's own bounds on the game's options (the one source). */
function playersText(g) {
  const opt = (g.options || []).find((o) => o.name === "players");
  if (!opt || opt.min === undefined || opt.max === undefined) return `${g.seats} seats.`;
  return `${opt.min}–${opt.max} players (${g.seats} by default).`;
}

function createForm(app) {
  const games = app.games || [];
  if (!games.length) return h("section", { class: "panel" }, h("h2", {}, "Start a game"), h("p", {}, app.problem || "Loading the games…"));
  const selected = games.find((g) => g.id === app.local.homeGame) || games[0];
  const spec = specOf(selected);
  const opts = optionsForm(selected, selected.default_config, spec, `opt-${selected.id}`);
  const form = h("form", { class: "panel create", "aria-labelledby": "create-title", novalidate: true });
  const picker = h(
    "fieldset",
    { class: "game-picker" },
    h("legend", {}, "Which game?"),
    games.map((g) =>
      h(
        "label",
        { class: ["game-card", g.id === selected.id && "selected"] },
        h("input", {
          type: "radio",
          name: "game",
          value: g.id,
          checked: g.id === selected.id,
          "data-key": `game-${g.id}`,
          "data-keep-value": "no",
          "aria-labelledby": `game-title-${g.id}`,
          "aria-describedby": `game-blurb-${g.id}`,
          on: {
            change: async () => {
              app.local.homeGame = g.id;
              (await import("./app.js")).render();
            },
          },
        }),
        h("span", { class: "game-title", id: `game-title-${g.id}` }, g.title),
        h("span", { class: "game-blurb", id: `game-blurb-${g.id}` }, BLURBS[g.id] || "", " ", h("span", { class: "game-players" }, playersText(g)), ` Bots: ${g.bots.join(", ")}.`),
      ),
    ),
  );
  form.append(
    h("h2", { id: "create-title" }, "Start a game"),
    picker,
    h("h3", {}, `${selected.title}: options`),
    opts.node,
    nameField("create-name"),
    roleChoice("create-role", "player", "create-role"),
    errorBox("create-error"),
    h("button", { type: "submit", class: "btn btn-primary btn-wide" }, "Create the room"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = form.querySelector("#create-name").value.trim();
    if (!name) return showError(form, "create-error", "Please type your name: the others will see it.");
    let config;
    try {
      config = opts.read();
    } catch (err) {
      return showError(form, "create-error", err.message);
    }
    const role = chosenRole(form, "create-role");
    try {
      const data = await api("POST", "/api/rooms", { body: { game: selected.id, config, name, role } });
      setPrefs({ name });
      const { saveIdentity } = await import("./store.js");
      saveIdentity(data.code, role === "table" ? "t" : "r", { token: data.token, participant: data.participant, name });
      (await import("./app.js")).go(roomHash(data.code, role));
    } catch (err) {
      showError(form, "create-error", err.message || String(err));
    }
  });
  return form;
}

function recentRooms() {
  const rooms = knownRooms().slice(0, 6);
  if (!rooms.length) return null;
  return h(
    "section",
    { class: "panel recent", "aria-labelledby": "recent-title" },
    h("h2", { id: "recent-title" }, "Back to a room"),
    h(
      "ul",
      { class: "plain" },
      rooms.map((r) => h("li", {}, h("a", { href: `#/${r.kind}/${r.code}`, class: "btn btn-link" }, `Room ${r.code}`, " · ", r.kind === "t" ? "as the table screen" : `as ${r.name || "you"}`))),
    ),
  );
}

export function homeScreen(app) {
  return h(
    "div",
    { class: "home" },
    h("div", { class: "hero" }, h("h1", {}, "wolfden"), h("p", { class: "lead" }, "The moderator for werewolf games: everyone plays on their own phone, one screen can be the table, bots fill empty seats."), h("a", { class: "btn btn-link", href: "/words.html" }, "Word lists for Werewords: yours and the community's")),
    h("div", { class: "home-grid" }, joinForm(app, null), recentRooms(), createForm(app)),
  );
}

export function joinScreen(app) {
  const code = app.route.code;
  const role = app.route.kind === "t" ? "table" : "player";
  if (!app.local.peek || app.local.peek.code !== code) {
    app.local.peek = { code, room: null, error: null };
    api("GET", `/api/rooms/${code}`)
      .then((room) => {
        app.local.peek.room = room;
      })
      .catch((err) => {
        app.local.peek.error = err.message;
      })
      .finally(async () => (await import("./app.js")).render());
  }
  const peek = app.local.peek;
  const room = peek.room;
  const why = room && role === "player" ? noSeatReason(room) : null;
  const about = room
    ? h("p", { class: "lead" }, `A game of ${(app.games || []).find((g) => g.id === room.game)?.title || room.game}`, room.status === "live" ? " is being played." : ".")
    : peek.error
      ? h("p", { class: "form-error", role: "alert" }, peek.error)
      : null;
  // The form waits for the room: its choice of what this device is depends on a free seat.
  const form = room || peek.error ? joinForm(app, code, why ? "spectator" : role) : h("p", { class: "loading" }, "Looking up the room…");
  return h(
    "div",
    { class: "join-page" },
    app.problem ? h("p", { class: "notice", role: "alert" }, app.problem) : null,
    h("h1", {}, `Room ${code}`),
    about,
    why ? h("p", { class: "notice join-why", role: "status" }, why) : null,
    role === "table" ? h("p", { class: "hint table-join-hint" }, app.tableKey && app.tableKey.code === code ? "This is the host's table-screen link: this screen comes in as the table screen at once." : "A table screen comes in when the host approves it on their phone (or open the host's table-screen link on this device).") : null,
    form,
    h("p", {}, h("a", { href: "#/", class: "btn btn-link" }, "Start or join another game")),
  );
}

/** Why a latecomer cannot take a seat now (so the join form offers watching), or null. */
function noSeatReason(room) {
  if (room.status === "live") return "A match is being played, so no seat is free now: watch it, and take a seat in the next match.";
  const free = (room.seats || []).some((s) => !s.participant);
  return free ? null : "Every seat is taken, so this device can watch (or be the table screen).";
}

