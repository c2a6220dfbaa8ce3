// The lobby: who sits where, who is here, bots, the host's controls, and the rules in brief.

import { api } from "./api.js";
import { defaultNarratorId, narratorId } from "./app.js";
import { lobbyControls } from "./controls.js";
import { h } from "./dom.js";
import { optionsForm } from "./options.js";
import { setupEditor } from "./setups.js";
import { button, presenceTag, toast } from "./ui.js";
import { FAIR_PLAY, RULES, specOf } from "../games/meta.js";

// Where phones open the room: the server answers with this computer's address on the local
// network when this page came through 127.0.0.1, or says phones cannot reach it. Asked once.
let phoneBase = null;

function phoneAddress(ctl) {
  if (phoneBase === null) {
    phoneBase = { url: `${location.origin}/`, reachable: true, fix: null, pending: true };
    api("GET", "/api/address")
      .then((answer) => {
        phoneBase = answer;
        ctl.rerender();
      })
      .catch(() => {});
  }
  return phoneBase;
}

function joinLink(base, code) {
  return `${base.url}#/r/${code}`;
}

function addressLine(base) {
  if (base.pending) return null;
  if (base.reachable) return h("p", { class: "phone-address" }, "Address for phones: ", h("strong", {}, base.url));
  return h(
    "div",
    { class: "notice notice-warn address-warning" },
    h("p", {}, h("strong", {}, "Phones cannot open this link."), ` It points at this computer itself (${new URL(base.url).host}): the server answers only this computer.`),
    h("p", {}, "Stop the server (Ctrl+C in its window) and start it again with:"),
    h("p", {}, h("code", { class: "fix-command" }, base.fix)),
  );
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Link copied.", "info");
  } catch {
    toast("Copy did not work here; select the link and copy it by hand.", "info");
  }
}

function invitePanel(app, ctl) {
  const code = app.room.code;
  const base = phoneAddress(ctl);
  const link = joinLink(base, code);
  const host = ctl.isHost();
  // The code shows where people look: the host's phone, and the table screen (large).
  const table = ctl.you().role === "table";
  return h(
    "section",
    { class: ["panel", "invite", table && "invite-table"], "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, "Invite"),
    h("p", { class: "big-code" }, h("span", { class: "visually-hidden" }, "Room code "), h("strong", { class: "code" }, code)),
    addressLine(base),
    h("p", {}, "Others open this link, or type the code on the home page:"),
    h("p", { class: "link-line" }, h("a", { href: `#/r/${code}`, class: "join-link" }, link), " ", button("Copy link", () => copy(link), { cls: "btn-small" })),
    host || table
      ? h("figure", { class: "qr" }, h("img", { src: `/api/rooms/${code}/qr.svg`, alt: `QR code of the join link for room ${code}`, width: table ? "320" : "220", height: table ? "320" : "220" }), h("figcaption", {}, "Scan with a phone camera to join."))
      : null,
    ctl.you().role !== "table"
      ? h("p", { class: "hint" }, "For a shared screen (a TV or laptop everyone sees, which also narrates aloud), open ", h("a", { href: `#/t/${code}` }, "the table screen"), " on that device", host ? ": you approve it here, or open your table-screen link on it." : " (the host approves it).")
      : null,
    host ? tableLinkPart(app, ctl) : null,
  );
}

// The host's table-screen link: its key lets one screen in without asking. Kept in the page
// only (a reload asks for a new one), never in the address bar.
let tableLink = null;

function tableLinkPart(app, ctl) {
  const shown = tableLink && tableLink.code === app.room.code ? tableLink : null;
  const ask = async () => {
    const data = await ctl.tableLink();
    if (data && data.link) {
      tableLink = { code: app.room.code, link: data.link, qr: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data.qr)}` };
      ctl.rerender();
    }
  };
  if (!shown) return h("p", {}, button("Table screen link", ask, { cls: "btn-small", key: "table-link" }));
  return h(
    "div",
    { class: "table-link" },
    h("p", {}, "Open this link on the table screen: it comes in without asking. It lets one screen in; share it with no one else."),
    h("p", { class: "link-line" }, h("a", { href: shown.link, class: "table-link-url" }, shown.link), " ", button("Copy link", () => copy(shown.link), { cls: "btn-small" })),
    h("figure", { class: "qr" }, h("img", { src: shown.qr, alt: "QR code of the table-screen link", width: "180", height: "180" }), h("figcaption", {}, "Or scan it with the table screen's camera.")),
    h("p", {}, button("A new table screen link", ask, { cls: "btn-small", key: "table-link-again" })),
  );
}

/** What a table screen shows while it waits for the host to let it in: its name, and no more. */
export function pendingScreen(app) {
  const me = app.you;
  return h(
    "div",
    { class: "pending-table" },
    h("h1", {}, `Room ${app.room.code}`),
    h("p", { class: "lead", role: "status" }, "Waiting for the host to let this screen in."),
    h("p", {}, "The host sees this screen as ", h("strong", { class: "seat-name" }, me.name), " and approves it on their phone. Nothing of the game shows here until then."),
    h("p", {}, button("Cancel", () => lobbyControls().cancelRequest(), { cls: "btn-quiet", key: "cancel-request" })),
  );
}

/** Table screens asking to join, on the host's screen (in the lobby and during a match): each
 * named, with Approve and Refuse. */
export function tableRequests(app, ctl) {
  if (!ctl.isHost()) return null;
  const waiting = app.room.participants.filter((p) => p.pending);
  if (!waiting.length) return null;
  return h(
    "section",
    { class: "panel table-requests", "aria-labelledby": "requests-title" },
    h("h2", { id: "requests-title" }, waiting.length === 1 ? "A screen asks to be the table screen" : `${waiting.length} screens ask to be the table screen`),
    h("p", { class: "help" }, "A table screen shows the room to everyone and reads the narration aloud. Approve only a screen you can see at your table."),
    h(
      "ul",
      { class: "plain requests" },
      waiting.map((p) =>
        h(
          "li",
          { class: "request", "data-participant": p.id },
          h("span", { class: "request-name" }, h("strong", { class: "seat-name" }, p.name), p.connected ? "" : " (away)"),
          h(
            "span",
            { class: "row" },
            button("Approve", () => ctl.admit(p.id, true), { cls: "btn-primary", key: `admit-${p.id}`, aria: `Approve ${p.name} as the table screen` }),
            button("Refuse", () => ctl.admit(p.id, false), { cls: "btn-danger", key: `refuse-${p.id}`, aria: `Refuse ${p.name}` }),
          ),
        ),
      ),
    ),
  );
}

const DEVICE_KIND = { table: "table screen", shared: "shared device", spectator: "watching", player: "phone" };

function deviceLabel(app, p) {
  const kind = p.id === app.you.id ? "this device" : DEVICE_KIND[p.role] || p.role;
  return `${p.name} (${kind}${p.connected ? "" : ", away"})`;
}

/** The host picks the device that reads the narration aloud (the room keeps the choice);
 * "Automatic" is the table screen if there is one, else a shared device, else the host's. */
export function narratorPicker(app, ctl, { titled = true } = {}) {
  if (!ctl.isHost()) return null;
  const room = app.room;
  const devices = room.participants.filter((p) => !p.pending);
  const fallback = room.participants.find((p) => p.id === defaultNarratorId(room));
  const chosen = room.narrator && room.participants.find((p) => p.id === room.narrator);
  const speaking = room.participants.find((p) => p.id === narratorId(room));
  const select = h(
    "select",
    { id: "narrator", "data-key": "narrator", "data-keep-value": "no" },
    h("option", { value: "", selected: !room.narrator }, `Automatic${fallback ? `: now ${fallback.name}` : ""}`),
    devices.map((p) => h("option", { value: p.id, selected: room.narrator === p.id }, deviceLabel(app, p))),
  );
  select.addEventListener("change", () => ctl.setNarrator(select.value || null));
  return h(
    "div",
    { class: "field narrator-field" },
    h("label", { for: "narrator", class: titled ? null : "visually-hidden" }, "Which device reads the narration aloud"),
    select,
    h(
      "p",
      { class: "help narrator-now", role: "status" },
      chosen && !chosen.connected && speaking
        ? `${chosen.name} is away: ${speaking.name} reads aloud until it is back.`
        : speaking
          ? `${speaking.name} reads aloud; every other device stays silent.`
          : "",
    ),
  );
}

function seatRow(app, ctl, seat) {
  const room = app.room;
  const me = ctl.you();
  const host = ctl.isHost();
  const mine = seat.participant && seat.participant === me.id;
  const villagerOnly = (room.config.villager_only || []).includes(seat.seat);
  const who = seat.participant
    ? room.participants.find((p) => p.id === seat.participant)
    : null;
  const tags = [];
  if (mine) tags.push(h("span", { class: "tag tag-you" }, "you"));
  if (who && who.host) tags.push(h("span", { class: "tag" }, "host"));
  if (seat.bot) tags.push(h("span", { class: "tag tag-bot" }, `bot: ${seat.bot}`));
  if (villagerOnly) tags.push(h("span", { class: "tag" }, "villager only"));
  const controls = [];
  const canChange = room.status !== "live";
  if (canChange) {
    if (mine) controls.push(button("Sit out", () => ctl.seat(me.id, null), { cls: "btn-small", key: `sitout-${seat.seat}` }));
    if (!seat.participant && !seat.bot) {
      if (me.role === "player" && me.seat === null) controls.push(button("Sit here", () => ctl.seat(me.id, seat.seat), { cls: "btn-small", key: `sit-${seat.seat}` }));
      if (host) {
        const pick = h(
          "select",
          { "aria-label": `Bot kind for seat ${seat.seat + 1}`, class: "small-select", "data-key": `botkind-${seat.seat}` },
          ctl.game().bots.map((k) => h("option", { value: k, selected: k === (room.settings.stand_in_bot || "rules") }, k)),
        );
        controls.push(pick, button("Add bot", () => ctl.addBot(seat.seat, pick.value), { cls: "btn-small", key: `addbot-${seat.seat}` }));
      }
    }
    if (seat.bot && host) controls.push(button("Remove bot", () => ctl.removeBot(seat.seat), { cls: "btn-small", key: `rmbot-${seat.seat}` }));
    if (host && room.game === "werewolf" && (seat.participant || seat.bot))
      controls.push(
        button(villagerOnly ? "Allow any role" : "Villager only", () => ctl.villagerOnly(seat.seat, !villagerOnly), {
          cls: "btn-small",
          pressed: villagerOnly,
          key: `vonly-${seat.seat}`,
          aria: `Villager only for seat ${seat.seat + 1}`,
        }),
      );
  }
  if (host && who && !mine) {
    controls.push(button("Make host", () => ctl.handOver(who.id), { cls: "btn-small", key: `host-${who.id}` }));
    controls.push(button("Remove", () => ctl.kick(who), { cls: "btn-small btn-danger", key: `kick-${who.id}` }));
  }
  return h(
    "li",
    { class: ["seat-row", mine && "mine"], "data-seat": String(seat.seat) },
    h("span", { class: "seat-no" }, `Seat ${seat.seat + 1}`),
    h("span", { class: ["seat-name", !seat.name && "open-seat"] }, seat.name || "open seat"),
    seat.participant || seat.bot ? presenceTag(seat) : null,
    tags,
    controls.length ? h("span", { class: "seat-controls" }, controls) : null,
  );
}

function othersPanel(app, ctl) {
  const others = app.room.participants.filter((p) => p.seat === null && !p.pending);
  if (!others.length) return null;
  const me = ctl.you();
  const words = { player: "sits out", spectator: "watches", table: "table screen", shared: "shared device" };
  return h(
    "section",
    { class: "panel", "aria-labelledby": "others-title" },
    h("h2", { id: "others-title" }, "Not in a seat"),
    h(
      "ul",
      { class: "plain people" },
      others.map((p) =>
        h(
          "li",
          {},
          h("span", { class: "seat-name" }, p.name),
          " · ",
          words[p.role] || p.role,
          " ",
          h("span", { class: `presence presence-${p.connected ? "here" : "away"}` }, h("span", { class: "dot", "aria-hidden": "true" }), p.connected ? "here" : "away"),
          p.id === me.id ? h("span", { class: "tag tag-you" }, "you") : null,
          p.id === me.id && p.role === "player" && app.room.status !== "live" ? button("Take a seat", () => ctl.seat(me.id, "any"), { cls: "btn-small", key: "take-seat" }) : null,
          ctl.isHost() && p.id !== me.id ? button("Remove", () => ctl.kick(p), { cls: "btn-small btn-danger", key: `kick-${p.id}` }) : null,
        ),
      ),
    ),
  );
}

function hostPanel(app, ctl) {
  const room = app.room;
  const game = ctl.game();
  const spec = specOf(game);
  const opts = optionsForm(game, room.config, spec, `room-${room.game}`);
  const settings = room.settings;
  const absent = h(
    "select",
    { id: "absent", "data-key": "absent" },
    [
      ["bot", "a bot plays for them until they are back"],
      ["wait", "the game pauses until they are back"],
      ["timeout", "the game's own timers decide for them"],
    ].map(([v, t]) => h("option", { value: v, selected: settings.absent === v }, t)),
  );
  const grace = h("input", { id: "grace", type: "number", min: "0", max: "3600", step: "1", value: String(settings.grace_seconds), "data-key": "grace" });
  const delay = h("input", { id: "bot-delay", type: "number", min: "0", max: "60", step: "0.1", value: String(settings.bot_delay), "data-key": "bot-delay" });
  return h(
    "section",
    { class: "panel host-panel", "aria-labelledby": "host-title" },
    h("h2", { id: "host-title" }, "You are the host"),
    room.game === "werewords" ? h("a", { class: "btn btn-link", href: `/words.html?room=${room.code}` }, "Choose the word lists") : null,
    narratorPicker(app, ctl),
    h(
      "details",
      { class: "host-options", "data-key": "host-options" },
      h("summary", {}, "Game options"),
      opts.node,
      button("Save options", async () => {
        try {
          await ctl.setConfig(opts.read());
        } catch (err) {
          toast(err.message);
        }
      }, { key: "save-options" }),
    ),
    h(
      "details",
      { class: "host-options", "data-key": "room-settings" },
      h("summary", {}, "If someone drops out"),
      h("div", { class: "field" }, h("label", { for: "absent" }, "When a player stays away"), absent),
      h("div", { class: "field" }, h("label", { for: "grace" }, "Seconds to wait before that (grace)"), grace),
      h("div", { class: "field" }, h("label", { for: "bot-delay" }, "Seconds a bot thinks before acting"), delay),
      button("Save", () => ctl.setSettings({ absent: absent.value, grace_seconds: Number(grace.value), bot_delay: Number(delay.value) }), { key: "save-settings" }),
    ),
    sharedPanel(app, ctl),
  );
}

// The host's start comes first on the screen, above the invitation and the seats: on a phone the
// lobby is three screens long, and starting is what the host does there.
function startLine(app, ctl) {
  const room = app.room;
  const game = ctl.game();
  const empty = room.seats.filter((s) => !s.participant && !s.bot).length;
  const fill = h(
    "select",
    { id: "fill-with", "data-key": "fill-with" },
    game.bots.map((k) => h("option", { value: k, selected: k === (room.settings.stand_in_bot || "rules") }, k)),
  );
  return h(
    "section",
    { class: "panel start-line", "aria-label": "Start the match" },
    empty ? h("label", { for: "fill-with" }, `${empty} empty seat${empty === 1 ? "" : "s"} will get bots of kind`) : null,
    empty ? fill : null,
    button(room.status === "lobby" ? "Deal and start" : "Start a new match", () => ctl.start(empty ? fill.value : undefined), { cls: "btn-primary btn-wide", key: "start" }),
  );
}

const DEFAULT_SEAT_NAMES = {
  "werwoelfe-kids": (config) => (config && config.language === "de" ? ["Dorf-Team", "Werwolf-Team"] : ["Village team", "Werewolf team"]),
};
let deviceLink = null;

function defaultSeatName(room, seat) {
  const fixed = DEFAULT_SEAT_NAMES[room.game] && DEFAULT_SEAT_NAMES[room.game](room.config);
  if (fixed && fixed[seat.seat]) return fixed[seat.seat];
  return seat.participant && seat.name ? seat.name : `Player ${seat.seat + 1}`;
}

/** One device for several seats: "everyone on this device" (a whole local game on the host's
 * device), or a new shared device for the ticked seats, opened by a link on that device. */
function sharedPanel(app, ctl) {
  const room = app.room;
  const me = ctl.you();
  const rows = room.seats.map((seat) => {
    const holder = seat.participant && room.participants.find((p) => p.id === seat.participant);
    const free = !holder || holder.id === me.id || holder.role === "shared";
    const tick = h("input", { type: "checkbox", id: `share-${seat.seat}`, checked: free && (!holder || holder.role !== "shared" || holder.id === me.id), disabled: !free, "data-key": `share-${seat.seat}` });
    const name = h("input", { type: "text", id: `share-name-${seat.seat}`, maxlength: "24", value: defaultSeatName(room, seat), "aria-label": `Name of the player at seat ${seat.seat + 1}`, "data-key": `share-name-${seat.seat}` });
    return { seat, tick, name, node: h("li", { class: "share-row" }, tick, h("label", { for: `share-${seat.seat}` }, `Seat ${seat.seat + 1}`), name, free ? null : h("span", { class: "help" }, ` (${holder.name}'s seat)`)) };
  });
  const names = (list) => list.map((r) => r.name.value.trim() || `Player ${r.seat.seat + 1}`);
  // Whose turn it is is public in these games; elsewhere (a Werewolf night) it is a secret.
  const open = room.game === "werwoelfe-kids" || room.game === "robbers-horror" || (room.game === "werewords" && room.config.mode === "companion");
  const secret = h("input", { type: "checkbox", id: "share-secret", checked: !open, "data-key": `share-secret-${open}` });
  const everyone = async () => {
    await ctl.shareDevice({ seats: "all", names: names(rows), this_device: true, secret_turns: secret.checked });
  };
  const newDevice = async () => {
    const ticked = rows.filter((r) => r.tick.checked);
    if (!ticked.length) {
      toast("Tick the seats the shared device holds.");
      return;
    }
    const data = await ctl.shareDevice({ seats: ticked.map((r) => r.seat.seat), names: names(ticked), secret_turns: secret.checked });
    if (data && data.token) {
      deviceLink = `${phoneAddress(ctl).url}#/d/${room.code}/${encodeURIComponent(data.token)}`;
      ctl.rerender();
    }
  };
  return h(
    "details",
    { class: "host-options shared-device", "data-key": "shared-device" },
    h("summary", {}, "One device for several players"),
    h("p", { class: "help" }, "A shared device is handed from player to player. Before each turn it shows \u201cpass the device to \u2026\u201d and a player's secrets appear only after they confirm who they are."),
    h("ul", { class: "plain share-list" }, rows.map((r) => r.node)),
    h("div", { class: "field field-check" }, secret, h("label", { for: "share-secret" }, "Who acts is secret (a night with hidden roles): offer the device to every player in turn, not only to those who act")),
    h("div", { class: "row" },
      button("Everyone on this device", everyone, { cls: "btn-primary", key: "share-all" }),
      button("A new shared device for the ticked seats", newDevice, { key: "share-new" }),
    ),
    deviceLink
      ? h("p", { class: "link-line" }, "Open this link on the shared device (it is its key; share it with no one else): ", h("a", { href: deviceLink, class: "device-link" }, deviceLink), " ", button("Copy link", () => copy(deviceLink), { cls: "btn-small" }))
      : null,
  );
}

function rulesPanel(app) {
  const rules = RULES[app.room.game];
  const fair = FAIR_PLAY[app.room.game];
  if (!rules && !fair) return null;
  return h(
    "section",
    { class: "panel rules", "aria-labelledby": "rules-title" },
    h("h2", { id: "rules-title" }, "The rules in brief"),
    rules ? h("ul", {}, rules.map((r) => h("li", {}, r))) : null,
    fair ? h("p", { class: "fair-play" }, h("strong", {}, "Before the deal: "), fair) : null,
  );
}

export function lobbyScreen(app) {
  const ctl = lobbyControls();
  const room = app.room;
  const game = ctl.game();
  const me = ctl.you();
  const seated = me.seat !== null && me.seat !== undefined;
  const status = room.status === "live" ? "A match is being played." : room.status === "finished" ? "The last match has ended." : "Waiting for players.";
  return h(
    "div",
    { class: "lobby" },
    h("h1", {}, `${game ? game.title : room.game}`, h("span", { class: "sub" }, ` · room ${room.code}`)),
    h("p", { class: "lead" }, status, " ", seated ? `You are in seat ${me.seat + 1}.` : me.role === "shared" ? `This device is shared by seats ${(me.seats || []).map((s) => s + 1).join(", ")}: pass it from player to player.` : me.role === "table" ? "This device is the table screen." : me.role === "spectator" ? "You are watching." : "You are sitting out."),
    FAIR_PLAY[room.game] && room.status === "lobby" ? h("p", { class: "notice fair-play-note" }, FAIR_PLAY[room.game]) : null,
    ctl.isHost() ? startLine(app, ctl) : null,
    h(
      "div",
      { class: "lobby-grid" },
      tableRequests(app, ctl),
      (ctl.isHost() || me.role === "table") && room.status !== "live" ? invitePanel(app, ctl) : null,
      h(
        "section",
        { class: "panel seats-panel", "aria-labelledby": "seats-title" },
        h("h2", { id: "seats-title" }, "Seats"),
        h("ol", { class: "seats" }, room.seats.map((s) => seatRow(app, ctl, s))),
      ),
      othersPanel(app, ctl),
      ctl.isHost() && room.game === "werewolf" && room.status !== "live" ? setupEditor(() => ctl.rerender()) : null,
      ctl.isHost() ? hostPanel(app, ctl) : h("p", { class: "panel waiting" }, room.status === "live" ? "The match is on." : "Waiting for the host to start the match."),
      (ctl.isHost() || me.role === "table") && room.status !== "live" ? null : invitePanel(app, ctl),
      rulesPanel(app),
      h("p", {}, button("Leave this room", () => ctl.leave(), { cls: "btn-quiet", key: "leave" })),
    ),
  );
}
