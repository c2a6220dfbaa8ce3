// wolfden in the browser: routes, the connection to the room, and drawing the current screen.

import { api, ApiError, isCode, normalizeCode } from "./api.js";
import * as audio from "./audio.js";
import { h, swap } from "./dom.js";
import { homeScreen, joinScreen } from "./home.js";
import { lobbyScreen, pendingScreen } from "./lobby.js";
import { handoverScreen, matchScreen } from "./match.js";
import { openSettings } from "./settings.js";
import { Connection } from "./socket.js";
import { forgetIdentity, identity, prefs, saveIdentity } from "./store.js";
import { clockText, toast } from "./ui.js";
import * as pacer from "./pacer.js";
import * as voice from "./voice.js";
import { keepAwake } from "./wakelock.js";
import { loadRenderer } from "../games/index.js";

export const app = {
  games: null,
  route: { name: "home" },
  ident: null,
  conn: null,
  status: "idle",
  room: null,
  you: null,
  msg: null,
  offset: 0,
  log: [],
  renderer: null,
  local: {},
  busy: false,
  showLobby: false,
  lastTick: null,
  spokenMatch: null,
  problem: null,
  phaseKey: null,
};

// -- time -------------------------------------------------------------------------------------

export function serverNow() {
  return Date.now() / 1000 + app.offset;
}

function tick() {
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const at = el.dataset.deadline;
    if (at === "paused") continue;
    const left = Number(at) - serverNow();
    const text = clockText(left);
    if (el.textContent !== text) el.textContent = text;
    const total = Number(el.dataset.seconds) || 1;
    const box = el.closest(".countdown");
    if (box) {
      box.classList.toggle("countdown-low", left <= 10 && total > 20);
      const fill = box.querySelector(".countdown-fill");
      if (fill) fill.style.setProperty("--left", String(Math.max(0, Math.min(1, left / total))));
    }
    const whole = Math.ceil(left);
    if (soundDevice() && whole <= 5 && whole > 0 && app.lastTick !== whole && el.closest(".countdown-big, .phase-timer")) {
      app.lastTick = whole;
      audio.play("tick");
    }
  }
}

// -- who this device is ----------------------------------------------------------------------

export function isTable() {
  return Boolean(app.you && app.you.role === "table");
}

export function isHost() {
  return Boolean(app.you && app.you.host);
}

/** A shared device: one device handed from player to player, holding several seats. */
export function isShared() {
  return Boolean(app.you && app.you.role === "shared");
}

/** The shared device's hand-over state from its last view: seats, the one shown, who waits. */
export function deviceState() {
  return (isShared() && app.msg && app.msg.device) || null;
}

/** A table screen, or a shared device while it shows the table's public view. */
export function showsTable() {
  if (isTable()) return true;
  const d = deviceState();
  return Boolean(d && d.shown === null);
}

/** A table screen waiting for the host to let it in: it is sent nothing of the match. */
export function isPending() {
  return Boolean(app.you && app.you.pending);
}

/** The device that narrates when the host has chosen none (or the chosen one is away): the
 * table screen if one is here; else a shared device the group passes round; else the host's
 * own phone (where its owner keeps "read it aloud" on). */
export function defaultNarratorId(room = app.room) {
  if (!room) return null;
  const number = (p) => Number(String(p.id).replace(/\D/g, "")) || 0;
  const first = (role) => room.participants.filter((p) => p.role === role && p.connected && !p.pending).sort((a, b) => number(a) - number(b))[0];
  const chosen = first("table") || first("shared") || room.participants.find((p) => p.host);
  return chosen ? chosen.id : null;
}

/** The one device that narrates aloud and plays the shared sounds, so nothing is heard twice:
 * the device the host chose (the room keeps the choice) while it is here, else the default.
 * Every device works it out the same way from the room summary. */
export function narratorId(room = app.room) {
  if (!room) return null;
  const chosen = room.narrator && room.participants.find((p) => p.id === room.narrator && !p.pending);
  return chosen && chosen.connected ? chosen.id : defaultNarratorId(room);
}

function isNarrator() {
  return Boolean(app.you && app.you.id === narratorId());
}

/** The host picked this very device to read aloud (not the default choice). */
function chosenNarrator() {
  return Boolean(app.room && app.you && app.room.narrator === app.you.id && isNarrator());
}

/** The device that plays the shared sounds: the narrating device. */
export function soundDevice() {
  if (!app.room || !app.you) return false;
  return isNarrator();
}

// -- routes ------------------------------------------------------------------------------------

function parseRoute() {
  const hash = location.hash.replace(/^#\/?/, "");
  const parts = hash.split("/").filter(Boolean);
  if (parts[0] === "d" && parts[1] && parts[2]) {
    // a shared device's link: its token travels in the fragment, which is never sent anywhere
    const code = normalizeCode(parts[1]);
    if (isCode(code)) return { name: "device", code, token: decodeURIComponent(parts[2]) };
  }
  if (parts[0] === "t" && parts[1] && parts[2]) {
    // the host's table-screen link: its key lets this screen in without asking (it travels
    // in the fragment, which is never sent anywhere; the page keeps it for the join form)
    const code = normalizeCode(parts[1]);
    if (isCode(code)) return { name: "tablekey", code, key: decodeURIComponent(parts[2]) };
  }
  if ((parts[0] === "r" || parts[0] === "t") && parts[1]) {
    const code = normalizeCode(parts[1]);
    if (isCode(code)) return { name: "room", code, kind: parts[0] };
  }
  return { name: "home" };
}

export function go(hash) {
  if (location.hash === hash) onRoute();
  else location.hash = hash;
}

function leaveRoom() {
  if (app.conn) app.conn.stop();
  pacer.stop();
  Object.assign(app, { conn: null, ident: null, room: null, you: null, msg: null, log: [], renderer: null, local: {}, status: "idle", showLobby: false, problem: null });
  document.documentElement.dataset.mood = "dusk";
  audio.setMood(null);
}

async function onRoute() {
  const route = parseRoute();
  if (route.name === "tablekey") {
    app.tableKey = { code: route.code, key: route.key };
    location.replace(`#/t/${route.code}`);
    return;
  }
  if (route.name === "device") {
    saveIdentity(route.code, "r", { token: route.token, participant: null, name: "" });
    location.replace(`#/r/${route.code}`);
    return;
  }
  const same = app.route.name === "room" && route.name === "room" && route.code === app.route.code && route.kind === app.route.kind;
  app.route = route;
  if (!same) leaveRoom();
  if (route.name === "room" && !app.conn) {
    const ident = identity(route.code, route.kind);
    if (ident) enterRoom(route.code, route.kind, ident);
  }
  render();
  const main = document.getElementById("main");
  if (main && !same) main.focus({ preventScroll: true });
}

/** Remember who we are in a room and connect. */
export function enterRoom(code, kind, ident) {
  saveIdentity(code, kind, ident);
  app.ident = ident;
  app.conn = new Connection({
    code,
    token: ident.token,
    onMessage,
    onStatus,
  });
  app.conn.start();
}

function onStatus(status, error) {
  app.status = status;
  if (status === "refused" || status === "closed") {
    const code = error && error.code;
    if (code === "unauthorized" || code === "room_not_found" || code === "kicked" || code === "token_replaced" || code === "left" || code === "refused") {
      forgetIdentity(app.route.code, app.route.kind);
      app.problem =
        code === "kicked"
          ? "The host removed you from this room."
          : code === "token_replaced"
            ? "Your seat moved to another device."
            : code === "room_not_found"
              ? "This room no longer exists."
              : code === "left"
                ? "You left this room."
                : code === "refused"
                  ? "The host did not let this screen in."
                : "This device is no longer in the room. Join again below.";
      if (app.conn) app.conn.stop();
      app.conn = null;
      app.ident = null;
    } else if (error) {
      app.problem = error.message;
    }
  }
  renderNet();
  render();
}

function renderNet() {
  const net = document.getElementById("net");
  if (!net) return;
  const words = { connecting: "Connecting…", reconnecting: "Reconnecting…", online: "", idle: "", refused: "", closed: "" };
  net.textContent = words[app.status] ?? "";
  net.dataset.status = app.status;
}

// -- messages ----------------------------------------------------------------------------------

async function onMessage(msg) {
  if (msg.server_time) app.offset = msg.server_time - Date.now() / 1000;
  if (msg.type === "welcome") {
    app.you = msg.you;
    app.seen = 0; // view versions count the frames of one connection: a new one starts again
  } else if (msg.type === "room") {
    const first = !app.room;
    const before = app.room && app.room.match ? app.room.match.id : null;
    app.room = msg.room;
    // a match that starts while this screen is here: its first view opens the narration
    if (!first && msg.room.status === "live" && msg.room.match && msg.room.match.id !== before) {
      app.startedMatch = msg.room.match.id;
    }
    const me = app.room.participants.find((p) => app.you && p.id === app.you.id);
    if (me) app.you = { ...app.you, ...me, pending: Boolean(me.pending) };
    // the host chose another device to read aloud: this one falls silent at once
    const narrating = isNarrator();
    if (app.narrating && !narrating) {
      pacer.silence();
      voice.hush();
    }
    app.narrating = narrating;
    if (first || !app.renderer || app.renderer.id !== app.room.game) {
      app.renderer = await loadRenderer(app.room.game);
    }
    if (app.room.status === "live") app.showLobby = false;
    if (app.msg && app.room.match && app.msg.match !== app.room.match.id) app.msg = null;
  } else if (msg.type === "view") {
    if (!app.renderer && app.room) app.renderer = await loadRenderer(app.room.game);
    onView(msg);
  } else if (msg.type === "rejected") {
    toast(msg.error.message);
  } else if (msg.type === "error") {
    if (msg.error && msg.error.code !== "rate_limited") toast(msg.error.message);
  }
  render();
}

/** The name people know a seat by. */
function seatName(seat) {
  const entry = app.room && app.room.seats[seat];
  return (entry && entry.name) || `Seat ${Number(seat) + 1}`;
}

/** An event's line as people read and hear it: the renderer may tell it with people's names
 * and the cards' names from the event's data; otherwise the rules' own text. */
export function eventText(e, view) {
  const r = app.renderer;
  if (r && r.describe) {
    try {
      const text = r.describe(e, { name: seatName, view });
      if (text) return text;
    } catch (err) {
      console.warn("could not tell an event", e.type, err);
    }
  }
  return e.text;
}

function onView(msg) {
  const prev = app.msg && app.msg.match === msg.match ? app.msg : null;
  if (!prev) {
    app.log = restoreLog(msg.match);
    app.local = {};
  }
  if (msg.version <= (app.seen || 0)) return;
  app.seen = msg.version;
  const shared = isShared();
  // A shared device forgets one player's screen state (an open role card) before the next one.
  if (shared && prev && (prev.device && prev.device.shown) !== (msg.device && msg.device.shown)) app.local = {};
  app.msg = msg;
  const events = msg.events || [];
  if (events.length) {
    // ... and its log keeps only what everyone at the table may read.
    const view = msg.view || (prev && prev.view);
    for (const e of events) if (e.text && (!shared || e.public === true)) app.log.push({ v: msg.version, text: eventText(e, view), type: e.type });
    app.log = app.log.slice(-200);
    saveLog(msg.match, app.log);
  }
  const r = app.renderer;
  if (msg.view === null) {
    // a shared device waiting for its hand-over: nothing of any seat's view was sent
    narrate(prev, msg);
    return;
  }
  // A shared device plays a view's sounds only between two views of the same viewer, and, when
  // who acts is secret, only the table's: a sound from one player's screen is heard by all.
  const shownNow = msg.device ? msg.device.shown : null;
  const sameViewer =
    !shared ||
    !prev ||
    (prev.view !== null && (prev.device ? prev.device.shown : null) === shownNow && (shownNow === null || !msg.device.secret_turns));
  if (r && r.cues && soundDevice() && sameViewer) {
    for (const name of r.cues(prev ? prev.view : null, msg.view, events, msg)) audio.play(name);
  }
  if (r && r.mood) {
    const mood = r.mood(msg.view, msg);
    document.documentElement.dataset.mood = mood;
    if (soundDevice()) audio.setMood(mood);
  }
  narrate(prev, msg);
}

/** Speech: public narration only. A table screen's connection carries nothing else; a shared
 * device or the host's phone (when no table screen is here) speaks only the lines the server
 * marked `public` — private prompts are never spoken. */
function narrate(prev, msg) {
  if (!isNarrator()) {
    pacer.silence();
    return;
  }
  const table = isTable();
  const shared = isShared();
  const hostPhone = !table && !shared;
  // The host's own phone as the default narrator speaks only while its owner keeps "read it
  // aloud" on; a device the host picked to read aloud speaks (its voice switch still holds).
  if (hostPhone && !chosenNarrator() && !prefs().hostVoice) {
    pacer.silence();
    return;
  }
  const view = msg.view || (prev && prev.view);
  const lang = (app.renderer && app.renderer.lang && view && app.renderer.lang(view)) || "en";
  const lines = [];
  const tableView = table || (shared && msg.view && msg.device && msg.device.shown === null);
  // The host's phone reads a match's opening lines from its own view only where the game
  // gives every viewer the same narration (the renderer says so: Werewolf's night script).
  const opensHere = tableView || (hostPhone && msg.view && app.renderer && app.renderer.narrationIsPublic);
  if (opensHere && !prev && app.startedMatch === msg.match && app.spokenMatch !== msg.match) {
    app.spokenMatch = msg.match;
    // The view's own script (Werewolf), or the renderer's telling of where the first view
    // stands (Werewords: its first round starts before any event is sent).
    const r = app.renderer;
    const opening = msg.view && (msg.view.narration || (r && r.opening ? r.opening(msg.view, { name: seatName }) : null));
    if (Array.isArray(opening)) lines.push(...opening);
  }
  // A paced script (Werewolf's night) is read one line at a time, in step with the line the
  // table screen shows (js/pacer.js): its lines are not queued all at once with the events'.
  const r = app.renderer;
  const script = msg.view && r && r.script && (tableView || (hostPhone && r.narrationIsPublic)) ? r.script(msg.view, { match: msg.match, deadline: msg.deadline }) : null;
  const inScript = new Set(script ? script.lines : []);
  let fresh = lines.length > 0 && script !== null && lines.every((line) => inScript.has(line));
  for (const e of msg.events || []) {
    if (!e.text || !(table ? e.public !== false : e.public === true)) continue;
    const text = eventText(e, view);
    if (inScript.has(e.text)) fresh = true;
    else lines.push(text);
  }
  if (script) {
    if (fresh) lines.splice(0, lines.length, ...lines.filter((line) => !inScript.has(line)));
    if (lines.length) voice.speak(lines, { lang });
    pacer.follow(script, { speak: fresh, lang });
  } else {
    pacer.stop(); // the script of the phase before (the night cut short by the end) stops
    if (lines.length) voice.speak(lines, { lang });
  }
}

function restoreLog(matchId) {
  try {
    const raw = sessionStorage.getItem(`wolfden.log.${matchId}`);
    return raw ? JSON.parse(raw) : [];
  } catch {
    return [];
  }
}

function saveLog(matchId, log) {
  try {
    sessionStorage.setItem(`wolfden.log.${matchId}`, JSON.stringify(log));
  } catch {
    // No session storage: the log simply starts fresh after a reload.
  }
}

// -- acting -------------------------------------------------------------------------------------

export async function act(action, { host = false } = {}) {
  if (!app.conn) return false;
  audio.unlock();
  app.busy = true;
  render();
  try {
    // No version is sent: night actions are simultaneous, and the server checks legality anyway.
    return await answered(() => app.conn.act(action, { host }));
  } finally {
    app.busy = false;
    render();
  }
}

/** A shared device: the player confirmed the hand-over ("I am ..., show me"), or is done. */
export async function handOver(seat) {
  return deviceRequest({ type: "reveal", seat });
}

export async function coverDevice() {
  return deviceRequest({ type: "cover" });
}

async function deviceRequest(body) {
  if (!app.conn) return false;
  audio.unlock();
  return answered(() => app.conn.request(body));
}

/** Send a request over the socket; a refusal or a lost connection becomes a toast. */
async function answered(send) {
  try {
    const answer = await send();
    if (answer.type === "rejected") {
      toast(answer.error.message);
      return false;
    }
    return true;
  } catch (err) {
    toast(err.message);
    return false;
  }
}

/** A REST call as this device's participant; errors become a toast. */
export async function call(method, path, body) {
  try {
    const data = await api(method, path, { body, token: app.ident && app.ident.token });
    if (data && data.room) {
      app.room = data.room;
      render();
    }
    return data;
  } catch (err) {
    toast(err instanceof ApiError ? err.message : String(err));
    return null;
  }
}

// -- drawing ------------------------------------------------------------------------------------

let scheduled = false;
let pressing = false;
let pressedAt = 0;
let deferred = false;
export function render() {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    // Never swap the page between a finger going down and the click: the tap would be lost.
    if (pressing && Date.now() - pressedAt < 1500) {
      deferred = true;
      setTimeout(released, 1600);
    } else draw();
  });
}

function released() {
  pressing = false;
  if (deferred) {
    deferred = false;
    setTimeout(render, 0);
  }
}

function draw() {
  const main = document.getElementById("main");
  const badge = document.getElementById("room-badge");
  let screen;
  if (app.route.name === "home") {
    screen = homeScreen(app);
    badge.hidden = true;
  } else if (!app.conn) {
    screen = joinScreen(app);
    badge.hidden = true;
  } else if (!app.room || !app.renderer) {
    screen = h("p", { class: "loading" }, app.status === "reconnecting" ? "Reconnecting to the room…" : "Connecting to the room…");
  } else if (isPending()) {
    badge.hidden = false;
    badge.textContent = `Room ${app.room.code}`;
    screen = pendingScreen(app);
  } else {
    badge.hidden = false;
    badge.textContent = `Room ${app.room.code}`;
    const inMatch = app.msg && app.room.match && app.msg.match === app.room.match.id;
    if (inMatch && !(app.showLobby && app.room.status !== "live")) screen = app.msg.view === null ? handoverScreen(app) : matchScreen(app);
    else screen = lobbyScreen(app);
  }
  document.body.dataset.screen = app.route.name === "home" ? "home" : app.msg && app.room && app.room.status !== "lobby" && !app.showLobby ? "match" : "lobby";
  document.body.dataset.device = isTable() ? "table" : isShared() ? "shared" : "phone";
  // The screen stays awake while this device is in a match being played.
  keepAwake(Boolean(app.conn && app.room && app.room.status === "live" && app.msg && !app.msg.outcome));
  if (!app.msg || app.showLobby) document.documentElement.dataset.mood = "dusk";
  // An update that changes nothing on screen leaves the page (and the reader's place) alone.
  if (main.childNodes.length !== 1 || !main.firstChild.isEqualNode(screen)) swap(main, screen);
  // A new phase starts at the top of the page, where its title and choices are.
  const v = app.msg && app.msg.view;
  const phaseKey = v ? [app.msg.match, v.phase, v.round, v.step, v.day, v.deal].join("|") : document.body.dataset.screen;
  if (phaseKey !== app.phaseKey) {
    if (app.phaseKey !== null) window.scrollTo(0, 0);
    app.phaseKey = phaseKey;
  }
  tick();
}

// -- start ---------------------------------------------------------------------------------------

async function loadGames() {
  try {
    app.games = await api("GET", "/api/games");
  } catch (err) {
    app.games = [];
    app.problem = err.message;
  }
  render();
}

function start() {
  document.getElementById("open-settings").addEventListener("click", () => openSettings(app));
  document.addEventListener(
    "pointerdown",
    () => {
      pressing = true;
      pressedAt = Date.now();
      audio.unlock();
    },
    { passive: true, capture: true },
  );
  document.addEventListener("pointerup", released, { capture: true });
  document.addEventListener("pointercancel", released, { capture: true });
  document.addEventListener("keydown", () => audio.unlock());
  window.addEventListener("hashchange", onRoute);
  window.addEventListener("wolfden:prefs", () => render());
  pacer.onChange(render);
  setInterval(tick, 250);
  voice.onVoicesChanged(() => {});
  if (prefs().music) document.addEventListener("pointerdown", () => audio.setMood(document.documentElement.dataset.mood), { once: true });
  loadGames();
  onRoute();
}

start();
