// The match screen: the game's own renderer in the middle, with what every game shares around
// it — the phase timer, what happened, who is here, and the host's controls.

import { act, app, coverDevice, deviceState, handOver, isHost, isShared, render, serverNow, showsTable } from "./app.js";
import { lobbyControls } from "./controls.js";
import * as pacer from "./pacer.js";
import { narratorPicker, tableRequests } from "./lobby.js";
import { h } from "./dom.js";
import { prefs } from "./store.js";
import { button, countdown, presenceTag } from "./ui.js";

// -- the privacy model ----------------------------------------------------------------------------
// On a player's own phone the screen is "hidden" by default: nothing on it names or pictures the
// player's role, team, pack, word or hand. A tap on "Show" opens it; it hides again by itself a
// few seconds after the last touch. A renderer that draws secrets declares `privacy: true` and
// draws its hidden form when `ctx.hidden` is set.

export const SHOW_SECONDS = 10;
let revealUntil = 0;
let hideTimer = null;

function privacyApplies(renderer) {
  const you = app.you;
  if (!renderer || !renderer.privacy || !you || showsTable() || isShared()) return false;
  if (you.seat === undefined || you.seat === null) return false;
  const msg = app.msg;
  if (!msg || msg.outcome || (app.room && app.room.status !== "live")) return false;
  return prefs().hideByDefault !== false;
}

function revealed() {
  return Date.now() < revealUntil;
}

function keepOpen() {
  revealUntil = Date.now() + SHOW_SECONDS * 1000;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hideNow, SHOW_SECONDS * 1000 + 50);
}

/** Show the screen for a few seconds (again from now). */
export function reveal() {
  keepOpen();
  render();
}

export function hideNow() {
  revealUntil = 0;
  clearTimeout(hideTimer);
  hideTimer = null;
  render();
}

// While the screen is shown, every touch or key keeps it open a little longer (without
// redrawing: a redraw between a finger going down and the click would lose the tap).
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => { if (revealed()) keepOpen(); }, { passive: true, capture: true });
}

function privacyBar(ctx) {
  if (!ctx.private) return null;
  if (ctx.hidden)
    return h(
      "div",
      { class: "panel privacy-bar is-hidden", role: "status" },
      button("Show my screen", () => reveal(), { cls: "btn-primary btn-wide", key: "reveal" }),
      h("p", { class: "hint" }, "Your screen is hidden: nothing on it shows your role. Tap to see it; it hides again by itself a few seconds after you last touch it."),
    );
  return h(
    "div",
    { class: "panel privacy-bar is-shown", role: "status" },
    h("p", { class: "hint" }, "Shown to you: it hides by itself in a few seconds."),
    button("Hide now", () => hideNow(), { cls: "btn-small", key: "hide" }),
  );
}

/** What a renderer gets: the view and everything it may need to draw it and to act. */
export function context() {
  const msg = app.msg;
  const legal = msg.legal || [];
  const you = app.you;
  const device = deviceState();
  return {
    view: msg.view,
    legal,
    hostActions: msg.host_actions || [],
    deadline: msg.deadline,
    paused: msg.paused,
    outcome: msg.outcome,
    version: msg.version,
    match: msg.match,
    events: msg.events || [],
    log: app.log,
    you,
    seat: device ? device.shown : you && you.seat !== undefined ? you.seat : null,
    isTable: showsTable(),
    device,
    isHost: isHost(),
    room: app.room,
    busy: app.busy,
    local: app.local,
    ended: Boolean(msg.outcome) || app.room.status !== "live",
    act: (action) => act(action),
    hostAct: (action) => act(action, { host: true }),
    /** Legal actions with this name. */
    legalNamed: (name) => legal.filter((a) => a.name === name),
    can: (name, ...args) => legal.some((a) => a.name === name && args.every((x, i) => a.args[i] === x)),
    seatInfo: (seat) => app.room.seats[seat],
    rerender: render,
    /** The line of a paced script (the renderer's ``script``) shown now: see js/pacer.js. */
    paced: (script) => pacer.position(script),
    serverNow,
    /** Tell the room this person is typing a free-text action (the bots keep off the floor). */
    drafting: (on) => Boolean(app.conn && app.conn.send({ type: "drafting", on })),
    /** This screen follows the privacy model (a player's own phone, a game with secrets). */
    private: privacyApplies(app.renderer),
    /** ... and is hidden now: draw nothing of the player's role, team, pack, word or hand. */
    hidden: privacyApplies(app.renderer) && !revealed(),
    reveal,
    hideNow,
  };
}

function hostBar(ctx, renderer) {
  if (!ctx.isHost) return null;
  const ctl = lobbyControls();
  const live = app.room.status === "live";
  const items = renderer.hostPanel ? renderer.hostPanel(ctx) : [];
  for (const a of renderer.hostPanel ? [] : ctx.hostActions) {
    const label = renderer.hostLabel ? renderer.hostLabel(a, ctx) : `${a.name} ${a.args.join(" ")}`;
    items.push(button(label, () => ctx.hostAct(a), { cls: "btn-primary", key: `host-${a.name}-${a.args.join("-")}`, disabled: ctx.busy }));
  }
  if (live) {
    // A renderer may keep the controls that seldom matter behind "More", with Pause and End.
    const more = renderer.hostMore ? renderer.hostMore(ctx) : [];
    if (ctx.paused) items.push(button("Resume", () => ctl.resume(), { cls: "btn-primary", key: "resume" }));
    const rare = [
      ctx.paused ? null : button("Pause", () => ctl.pause(), { key: "pause" }),
      button("End the match", () => ctl.end(), { cls: "btn-danger", key: "end-match" }),
    ].filter(Boolean);
    if (more.length) items.push(h("details", { class: "host-more", "data-key": "host-more" }, h("summary", {}, "More"), h("div", { class: "row" }, more, rare)));
    else items.push(...rare);
    items.push(h("details", { class: "host-more host-voice", "data-key": "host-voice" }, h("summary", {}, "Who reads aloud"), narratorPicker(app, ctl, { titled: false })));
  } else {
    items.push(button("Play again", () => ctl.again(), { cls: "btn-primary", key: "again" }));
    items.push(
      button("Back to the lobby", () => {
        app.showLobby = true;
        render();
      }, { key: "to-lobby" }),
    );
  }
  return h("section", { class: "panel host-bar", "aria-label": "Host controls" }, h("h2", { class: "visually-hidden" }, "Host controls"), items);
}

function logPanel(ctx) {
  if (!app.log.length) return null;
  const recent = app.log.slice(ctx.isTable ? -8 : -40).reverse();
  return h(
    "details",
    { class: "panel log", open: ctx.isTable ? true : null, "data-key": "log" },
    h("summary", {}, "What happened"),
    h("ol", { class: "log-list", reversed: true }, recent.map((e) => h("li", {}, e.text))),
  );
}

function presencePanel() {
  const away = app.room.seats.filter((s) => s.participant && (!s.connected || s.stand_in));
  if (!away.length) return null;
  return h(
    "p",
    { class: "away-line", role: "status" },
    "Away: ",
    away.map((s, i) => [i ? ", " : "", h("span", { class: "seat-name" }, s.name), " ", presenceTag(s)]),
  );
}

const DEVICE_WORDS = {
  passTo: (name) => `Pass the device to ${name}`,
  passOn: "Pass the device on",
  lookAway: "Everyone else looks away. When you hold the device:",
  passAround: "Pass the device around: each player in turn taps their name, looks, acts if there is something to do, and hides the screen again.",
  several: "Several players may act now. Whoever takes the device taps their name; everyone else looks away.",
  iAm: (name) => `I am ${name}, show me`,
  onlyFor: (name) => `This screen is for ${name} only.`,
  hide: "Done, hide my screen",
  handOver: "Hand-over",
  lang: null,
};

/** A shared device's words, in the game's language where its renderer gives them. */
function deviceWords() {
  const r = app.renderer;
  return { ...DEVICE_WORDS, ...(r && r.deviceWords ? r.deviceWords(app.room) : {}) };
}

function seatName(device, seat) {
  const entry = device.seats.find((s) => s.seat === seat);
  return entry && entry.name ? entry.name : `Seat ${seat + 1}`;
}

/** A shared device between two players: nothing of anyone's secrets is on it (the server sent
 * none) until the next player confirms who they are. */
export function handoverScreen(app_) {
  const msg = app_.msg;
  const device = msg.device;
  const waiting = device.waiting || [];
  const one = waiting.length === 1 && !device.secret_turns;
  const timer = msg.deadline && !msg.outcome ? countdown(msg.deadline, { big: true }) : null;
  if (timer) timer.classList.add("phase-timer");
  const t = deviceWords();
  return h(
    "div",
    { class: "match handover-screen", "data-handover": waiting.join(","), lang: t.lang },
    msg.paused ? h("p", { class: "notice paused", role: "status" }, "The host has paused the game.") : null,
    h("h1", { class: "phase-title" }, one ? t.passTo(seatName(device, waiting[0])) : t.passOn),
    timer,
    h(
      "section",
      { class: "panel handover", "aria-labelledby": "handover-title" },
      h("h2", { id: "handover-title", class: "visually-hidden" }, t.handOver),
      h("p", { class: "lead" }, one ? t.lookAway : device.secret_turns ? t.passAround : t.several),
      h(
        "div",
        { class: "handover-buttons" },
        waiting.map((seat) =>
          button(t.iAm(seatName(device, seat)), () => handOver(seat), { cls: "btn-primary btn-wide btn-huge", key: `reveal-${seat}`, disabled: app_.busy }),
        ),
      ),
    ),
    logPanel({ isTable: true }),
  );
}

/** On a shared device handed to one player: whose screen this is, and a way to hide it. */
function deviceBar(ctx) {
  const device = ctx.device;
  if (!device || device.shown === null) return null;
  const t = deviceWords();
  return h(
    "p",
    { class: "notice device-bar", role: "status", lang: t.lang },
    h("span", {}, t.onlyFor(seatName(device, device.shown))),
    " ",
    button(t.hide, () => coverDevice(), { cls: "btn-small", key: "cover" }),
  );
}

export function matchScreen(app_) {
  const ctx = context();
  const renderer = app_.renderer;
  const body = renderer.render(ctx);
  const showTimer = ctx.deadline && !ctx.ended && (!renderer.showDeadline || renderer.showDeadline(ctx));
  const timer = showTimer ? countdown(ctx.deadline, { big: true, label: renderer.timerLabel ? renderer.timerLabel(ctx.deadline, ctx) : undefined }) : null;
  if (timer) timer.classList.add("phase-timer");
  const title = body.querySelector("h1");
  if (timer && title) title.after(timer);
  // A renderer may ask for the host's controls first while the host has a move of the game's
  // to make (Werewolf: "End the discussion now", not three screens down a phone).
  const host = hostBar(ctx, renderer);
  const hostFirst = Boolean(renderer.hostFirst && ctx.hostActions.length && title);
  if (hostFirst) (timer || title).after(host);
  return h(
    "div",
    { class: ["match", `game-${app_.room.game}`, ctx.isTable && "is-table"] },
    ctx.paused ? h("p", { class: "notice paused", role: "status" }, "The host has paused the game.") : null,
    deviceBar(ctx),
    timer && !title ? timer : null,
    privacyBar(ctx),
    presencePanel(),
    ctx.isHost ? tableRequests(app_, lobbyControls()) : null,
    body,
    hostFirst ? null : host,
    logPanel(ctx),
  );
}
