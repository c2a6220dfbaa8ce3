// The Werewolf setup editor in the host's lobby: role counts (or a built-in or saved setup),
// the reason a setup cannot be dealt, and its balance with one suggested change, estimated by
// the server while the host edits. The server parses every setup; this module only writes the
// counts as text ("werewolf=2,seer,villager=4") and shows what the server answers.

import { api, ApiError } from "./api.js";
import { app } from "./app.js";
import { h, setVar } from "./dom.js";
import { button, toast } from "./ui.js";

const state = {
  room: null,
  counts: null,
  sheriff: false,
  roles: null,
  library: null,
  result: null,
  error: "",
  waiting: false,
  seq: 0,
  timer: null,
  saved: null,
};

function token() {
  return app.ident && app.ident.token;
}

function setupText() {
  const items = state.roles.filter((r) => state.counts[r.role] > 0).map((r) => (state.counts[r.role] === 1 ? r.role : `${r.role}=${state.counts[r.role]}`));
  if (state.sheriff) items.push("sheriff");
  return items.join(",");
}

function players() {
  return Object.values(state.counts || {}).reduce((a, b) => a + b, 0);
}

async function load(rerender) {
  const code = app.room.code;
  state.room = code;
  try {
    const [lib, current] = await Promise.all([api("GET", "/api/setups"), api("GET", `/api/rooms/${code}/setup`, { token: token() })]);
    state.roles = lib.roles;
    state.library = lib.library;
    take(current);
    const shared = new URLSearchParams(window.location.search).get("setup");
    if (shared) await loadCode(shared, rerender);
  } catch (err) {
    state.error = err instanceof ApiError ? err.message : String(err);
  }
  changed(rerender, { apply: false });
}

function take(found) {
  state.counts = { ...found.counts };
  state.sheriff = Boolean(found.sheriff);
}

async function loadCode(code, rerender) {
  try {
    const found = await api("GET", `/api/setups/${encodeURIComponent(code.trim())}`);
    take(found);
    state.saved = { code: found.code, name: found.name };
    changed(rerender);
  } catch (err) {
    toast(err instanceof ApiError ? err.message : String(err));
  }
}

/** The counts changed: after a short pause, deal the setup in the room and estimate it. */
function changed(rerender, { apply = true } = {}) {
  const seq = ++state.seq;
  state.waiting = true;
  state.error = "";
  rerender();
  clearTimeout(state.timer);
  state.timer = setTimeout(() => run(seq, apply, rerender), 250);
}

async function run(seq, apply, rerender) {
  const text = setupText();
  const code = state.room;
  try {
    const check = await api("POST", "/api/setups/check", { body: { setup: text } });
    if (seq !== state.seq) return;
    if (!check.ok) {
      state.result = null;
      state.error = `This setup cannot be dealt: ${check.reason}`;
      state.waiting = false;
      rerender();
      return;
    }
    if (apply) {
      const dealt = await api("PUT", `/api/rooms/${code}/setup`, { body: { setup: text }, token: token() });
      if (seq !== state.seq) return;
      app.room = dealt.room;
    }
    const result = await api("POST", `/api/rooms/${code}/estimate`, { body: { setup: text }, token: token() });
    if (seq !== state.seq || result.superseded) return;
    state.result = result;
  } catch (err) {
    if (seq !== state.seq) return;
    state.result = null;
    state.error = err instanceof ApiError ? err.message : String(err);
  }
  state.waiting = false;
  rerender();
}

function pct(x) {
  return `${Math.round(100 * x)} %`;
}

function stepper(role, rerender) {
  const n = state.counts[role.role] || 0;
  const id = `setup-${role.role}`;
  return h(
    "li",
    { class: "setup-role" },
    h("span", { class: "setup-role-name", id }, role.title),
    button("−", () => {
      state.counts[role.role] = Math.max(0, n - 1);
      changed(rerender);
    }, { key: `${id}-less`, disabled: n === 0, aria: `One ${role.title} fewer`, cls: "btn-step" }),
    h("output", { class: "setup-count", "aria-labelledby": id, "data-testid": `count-${role.role}` }, String(n)),
    button("+", () => {
      state.counts[role.role] = n + 1;
      changed(rerender);
    }, { key: `${id}-more`, disabled: players() >= 16, aria: `One more ${role.title}`, cls: "btn-step" }),
  );
}

function balanceBox(rerender) {
  const r = state.result;
  if (state.error) return h("p", { class: "setup-error", role: "alert" }, state.error);
  if (!r) return h("p", { class: "setup-estimate muted" }, "Estimating the balance…");
  const hint = r.suggestion;
  return h(
    "div",
    { class: "setup-balance" },
    h("p", { class: "setup-estimate", "data-testid": "estimate" }, h("strong", {}, "Balance: "), r.estimate.text, state.waiting ? " (updating…)" : ""),
    h("div", { class: "setup-meter", role: "img", "aria-label": `Town ${pct(r.estimate.town)}, Werewolves and others ${pct(1 - r.estimate.town)}` },
      setVar(h("span", { class: "setup-meter-town" }), "--town", `${(100 * r.estimate.town).toFixed(1)}%`)),
    hint
      ? h(
          "div",
          { class: "setup-hint", "data-testid": "suggestion" },
          h("p", {}, h("strong", {}, "Closest to even: "), `${hint.change}. `, hint.estimate.text, "."),
          button(`Use it: ${hint.describe}`, () => {
            take(hint);
            changed(rerender);
          }, { key: "setup-use-hint" }),
        )
      : h("p", { class: "setup-hint", "data-testid": "suggestion" }, "No change of one role brings this setup closer to even."),
  );
}

export function setupEditor(rerender) {
  if (state.room !== app.room.code) {
    state.room = app.room.code;
    state.counts = null;
    state.result = null;
    state.saved = null;
    load(rerender);
  }
  if (!state.counts || !state.roles) return h("section", { class: "panel setup-editor" }, h("h2", {}, "Roles"), h("p", {}, state.error || "Loading the roles…"));
  const pick = h(
    "select",
    { id: "setup-library", "data-key": "setup-library", "data-keep-value": "no" },
    h("option", { value: "" }, "Choose a built-in setup…"),
    state.library.map((s) => h("option", { value: s.key }, `${s.name} (${s.players} players)${s.balance ? ` · Town ${pct(s.balance.town)}` : ""}`)),
  );
  pick.addEventListener("change", () => {
    const found = state.library.find((s) => s.key === pick.value);
    if (!found) return;
    take(found);
    state.saved = null;
    changed(rerender);
  });
  const sheriff = h("input", { type: "checkbox", id: "setup-sheriff", checked: state.sheriff, "data-key": "setup-sheriff" });
  sheriff.addEventListener("change", () => {
    state.sheriff = sheriff.checked;
    changed(rerender);
  });
  const name = h("input", { id: "setup-name", type: "text", maxlength: "40", autocomplete: "off", placeholder: "Friday night", "data-key": "setup-name" });
  const code = h("input", { id: "setup-code", type: "text", maxlength: "12", autocomplete: "off", placeholder: "ABC234", "data-key": "setup-code" });
  const link = state.saved ? `${window.location.origin}/?setup=${state.saved.code}#/` : null;
  return h(
    "section",
    { class: "panel setup-editor", "aria-labelledby": "setup-title" },
    h("h2", { id: "setup-title" }, `Roles · ${players()} players`),
    h("div", { class: "field" }, h("label", { for: "setup-library" }, "Start from"), pick),
    h("ul", { class: "setup-roles" }, state.roles.map((r) => stepper(r, rerender))),
    h("div", { class: "field field-check" }, sheriff, h("label", { for: "setup-sheriff" }, "Elect a Sheriff on the first day")),
    h("div", { "aria-live": "polite" }, balanceBox(rerender)),
    h(
      "details",
      { class: "host-options", "data-key": "setup-share" },
      h("summary", {}, "Save or load a setup"),
      h("div", { class: "field" }, h("label", { for: "setup-name" }, "Name"), name),
      button("Save this setup", async () => {
        try {
          const saved = await api("POST", "/api/setups", { body: { name: name.value, setup: setupText() } });
          state.saved = { code: saved.code, name: saved.name };
          rerender();
        } catch (err) {
          toast(err instanceof ApiError ? err.message : String(err));
        }
      }, { key: "setup-save" }),
      state.saved
        ? h("p", { class: "setup-saved", "data-testid": "saved" }, `“${state.saved.name}”: code `, h("strong", {}, state.saved.code), " · ", h("a", { href: link }, "link to share"))
        : null,
      h("div", { class: "field" }, h("label", { for: "setup-code" }, "Load by code"), code),
      button("Load", () => loadCode(code.value, rerender), { key: "setup-load" }),
    ),
  );
}

