// Werwölfe Kids: the village of houses with doors (easy: each its own colour and shape;
// difficult: all alike), placing people by tapping, doors that open and close again, reachable
// houses for a werewolf's move, the missing row, caught werewolves, the dice-duel race with
// tumbling dice, hand-over screens for one shared device, day and night, English and German.

import { act, coverDevice, deviceState, handOver, render as redraw } from "../js/app.js";
import { h, s } from "../js/dom.js";
import { button } from "../js/ui.js";

const WORDS = {
  en: {
    setup: "Getting ready", day: "Day", night: "Night", duel: "Dice duel!", handover: "Hand over", over: "The end",
    village: "Village team", werewolves: "Werewolf team", you: "You are the", watching: "You are watching.",
    missing: "Missing people", caught: "Caught werewolves", of: "of", house: "House", door: "door",
    empty: "empty", werewolf: "a werewolf!", discovered: "a discovered werewolf!", reachable: "can go here",
    scatter: "Place the rest for me", undo: "Take the last one back", done: "Put the doors on",
    close: "Close the door", stay: "Stay here", roll: "Roll the dice!", wake: "We are awake!",
    pick: "Who moves in?", set: "set aside", left: "dice left", symbol: "moon", livesIn: "in",
    won: { village: "The Village team wins!", werewolves: "The Werewolf team wins!" },
    rollFor: { village: "Village team: roll!", werewolves: "Werewolf team: roll!" },
    results: "Results", team: "Team", playedBy: "Played by", result: "Result", goal: "Goal", bot: "bot",
    wonLost: { true: "won", false: "lost" },
    goals: { village: (n, of) => `${n} of ${of} werewolves caught`, werewolves: (n, of) => `${n} of ${of} people driven out` },
    colours: { red: "red", blue: "blue", green: "green", yellow: "yellow" },
    shapes: { round: "round", square: "square", arched: "arched", pointed: "pointed", plain: "plain" },
    closeEyes: "Close your eyes and turn around.", notebook: "Notebook", saw: "saw", onDay: "day",
  },
  de: {
    setup: "Vorbereitung", day: "Tag", night: "Nacht", duel: "Würfelduell!", handover: "Übergabe", over: "Spielende",
    village: "Dorf-Team", werewolves: "Werwolf-Team", you: "Ihr seid das", watching: "Du schaust zu.",
    missing: "Vermisste", caught: "Gefangene Werwölfe", of: "von", house: "Haus", door: "Tür",
    empty: "leer", werewolf: "ein Werwolf!", discovered: "ein entdeckter Werwolf!", reachable: "erreichbar",
    scatter: "Die übrigen verteilen", undo: "Letzten zurücknehmen", done: "Türen davor",
    close: "Tür schließen", stay: "Hier bleiben", roll: "Würfeln!", wake: "Wir sind wach!",
    pick: "Wer zieht ein?", set: "beiseite", left: "Würfel übrig", symbol: "Mond", livesIn: "in",
    won: { village: "Das Dorf-Team gewinnt!", werewolves: "Das Werwolf-Team gewinnt!" },
    rollFor: { village: "Dorf-Team: würfeln!", werewolves: "Werwolf-Team: würfeln!" },
    results: "Ergebnis", team: "Team", playedBy: "Gespielt von", result: "Ergebnis", goal: "Ziel", bot: "Bot",
    wonLost: { true: "gewonnen", false: "verloren" },
    goals: { village: (n, of) => `${n} von ${of} Werwölfen gefangen`, werewolves: (n, of) => `${n} von ${of} Personen vertrieben` },
    colours: { red: "rote", blue: "blaue", green: "grüne", yellow: "gelbe" },
    shapes: { round: "runde", square: "eckige", arched: "Bogen-", pointed: "spitze", plain: "schlichte" },
    closeEyes: "Augen zu und umdrehen.", notebook: "Notizbuch", saw: "gesehen", onDay: "Tag",
    device: {
      passTo: (name) => `Gebt das Gerät ${teamArticle(name, "dem ", "an ")}${name}`,
      passOn: "Gebt das Gerät weiter",
      lookAway: "Das andere Team dreht sich um und macht die Augen zu. Wenn ihr das Gerät habt:",
      several: "Beide Teams dürfen jetzt. Wer das Gerät nimmt, tippt auf sein Team.",
      passAround: "Gebt das Gerät reihum: Jedes Team tippt auf seinen Namen, schaut, ist dran, wenn es etwas zu tun gibt, und verdeckt den Bildschirm wieder.",
      iAm: (name) => `Wir sind ${teamArticle(name, "das ")}${name}, zeig es uns`,
      onlyFor: (name) => `Dieser Bildschirm ist nur für ${teamArticle(name, "das ")}${name}.`,
      hide: "Fertig, Bildschirm verdecken",
      handOver: "Übergabe",
    },
  },
};

/** An article before a team's name ("dem Dorf-Team"), nothing (or ``other``) before a person's. */
function teamArticle(name, article, other = "") {
  return /team$/i.test(name) ? article : other;
}

function words(view) {
  return WORDS[view.language] || WORDS.en;
}

const DOOR_FILL = { red: "#c0392b", blue: "#2563eb", green: "#15803d", yellow: "#d4a017" };

/** A door: its shape and colour drawn, and said in words (never colour alone). */
function door(view, id) {
  const [colour, shape] = id.split("-");
  const w = words(view);
  const plain = view.doors === "difficult" || shape === "plain";
  const fill = plain ? "#8b5e3c" : DOOR_FILL[colour] || "#888";
  const body = {
    round: s("rect", { x: "10", y: "8", width: "40", height: "52", rx: "20", fill }),
    square: s("rect", { x: "10", y: "12", width: "40", height: "48", fill }),
    arched: s("path", { d: "M10 60 V28 A20 20 0 0 1 50 28 V60 Z", fill }),
    pointed: s("path", { d: "M10 60 V26 L30 6 L50 26 V60 Z", fill }),
    plain: s("rect", { x: "10", y: "10", width: "40", height: "50", rx: "3", fill }),
  }[plain ? "plain" : shape] || s("rect", { x: "10", y: "10", width: "40", height: "50", fill });
  const label = plain ? (view.language === "de" ? "eine Tür wie alle" : "a door like every other") : `${w.colours[colour] || colour} ${w.shapes[shape] || shape} ${w.door}`;
  return {
    node: s("svg", { viewBox: "0 0 60 64", class: "door-svg", "aria-hidden": "true" }, body, s("circle", { cx: "40", cy: "40", r: "3", fill: "#fff" }), plain ? null : s("rect", { x: "10", y: "58", width: "40", height: "4", fill: "#0004" })),
    label,
  };
}

function personOf(view, id) {
  return (view.cast || []).find((p) => p.id === id) || { id, name: id, look: "" };
}

function contentNode(view, content) {
  const w = words(view);
  if (content === "empty") return h("span", { class: "content content-empty" }, w.empty);
  if (content === "werewolf") return h("span", { class: "content content-wolf" }, h("span", { "aria-hidden": "true", class: "big-glyph" }, "☾"), w.werewolf);
  if (content === "werewolf-discovered") return h("span", { class: "content content-wolf discovered" }, h("span", { "aria-hidden": "true", class: "big-glyph" }, "☾!"), w.discovered);
  const p = personOf(view, content);
  return h("span", { class: "content content-person" }, h("span", { class: "avatar", "aria-hidden": "true" }, p.name.charAt(0)), h("strong", {}, p.name), h("span", { class: "look" }, p.look));
}

/** Which action (if any) a tap on this house does now. */
function houseAction(ctx, house) {
  for (const name of ["put", "haunt", "open", "move"]) {
    const a = ctx.legal.find((x) => x.name === name && x.args[0] === house);
    if (a) return a;
  }
  return null;
}

function villageGrid(ctx) {
  const view = ctx.view;
  const w = words(view);
  const targets = new Set(view.move ? view.move.targets : []);
  const grid = h("div", { class: "kids-village", role: "grid", "aria-label": view.language === "de" ? "Das Dorf" : "The village" });
  grid.style.setProperty("--cols", String(view.cols));
  for (let r = 0; r < view.rows; r++) {
    const row = h("div", { class: "kids-row", role: "row" });
    for (let c = 0; c < view.cols; c++) {
      const house = view.houses[r * view.cols + c];
      const d = door(view, house.door);
      const action = houseAction(ctx, house.house);
      const reachable = targets.has(house.house);
      const shown = house.content !== undefined;
      const inner = [
        h("span", { class: "house-name" }, house.house),
        shown ? h("span", { class: "house-inside" }, contentNode(view, house.content)) : h("span", { class: "door-wrap" }, d.node),
        h("span", { class: "visually-hidden" }, `${w.house} ${house.house}, ${d.label}${house.open ? ", open" : ""}`),
        reachable ? h("span", { class: "reach-note" }, w.reachable) : null,
      ];
      const cls = ["house", house.open && "open", reachable && "reachable", action && "tappable", shown && "shown", view.move && view.move.from === house.house && "origin"];
      row.append(
        h("div", { role: "gridcell", class: "cell" },
          action
            ? h("button", { type: "button", class: cls, disabled: ctx.busy, "data-action": `${action.name} ${house.house}`, "data-key": `house-${house.house}`, on: { click: () => ctx.act(action) } }, inner)
            : h("div", { class: cls }, inner)),
      );
    }
    grid.append(row);
  }
  return h("section", { class: "panel kids-board" }, grid);
}

/** Who lives where while the Village team places its people: person id -> house name. */
function homes(view) {
  const people = new Set((view.cast || []).map((p) => p.id));
  const out = {};
  for (const house of view.houses) if (people.has(house.content)) out[house.content] = house.house;
  return out;
}

/** The people to place: all 13 always in the same order (a list that reorders after every
 * pick makes children search again), the chosen one pressed, the placed ones marked with
 * their house. Compact, so that the village and the whole list fit one phone screen. */
function castPicker(ctx) {
  const view = ctx.view;
  const picks = ctx.legalNamed("pick");
  if (!picks.length && !view.selected) return null;
  const w = words(view);
  const placed = homes(view);
  return h(
    "section",
    { class: "panel kids-cast", "aria-labelledby": "kids-cast" },
    h("h2", { id: "kids-cast" }, w.pick),
    h(
      "div",
      { class: "cast-grid" },
      (view.cast || []).map((p) => {
        const chosen = view.selected === p.id;
        const home = placed[p.id];
        const can = picks.some((a) => a.args[0] === p.id);
        return h(
          "button",
          { type: "button", class: ["btn", "person-btn", chosen && "chosen", home && "placed"], disabled: !can || ctx.busy, title: p.look, "aria-pressed": String(chosen), "data-action": can ? `pick ${p.id}` : null, "data-key": `pick-${p.id}`, on: { click: () => ctx.act({ name: "pick", args: [p.id] }) } },
          h("span", { class: "avatar", "aria-hidden": "true" }, p.name.charAt(0)),
          h("strong", {}, p.name),
          home ? h("span", { class: "home" }, `${w.livesIn} ${home}`) : null,
        );
      }),
    ),
  );
}

function controls(ctx) {
  const w = words(ctx.view);
  const labels = { scatter: w.scatter, undo: w.undo, done: w.done, close: w.close, stay: w.stay };
  const list = ctx.legal.filter((a) => labels[a.name]);
  if (!list.length) return null;
  return h("div", { class: "row kids-controls" }, list.map((a) => button(labels[a.name], () => ctx.act(a), { cls: ["btn-big", a.name === "done" || a.name === "close" ? "btn-primary" : ""].join(" "), key: `kids-${a.name}`, action: a.name, disabled: ctx.busy })));
}

function dieFace(isSymbol, tumble, i) {
  return h("span", { class: ["die", isSymbol && "symbol", tumble && "tumble", tumble && `t${i % 3}`], "aria-hidden": "true" }, isSymbol ? "☾" : "");
}

function duelPanel(ctx) {
  const view = ctx.view;
  const duel = view.duel;
  if (!duel) return null;
  const w = words(view);
  const per = view.rules.dice_per_team;
  // Everyone on one device: both teams are awake in a duel, so both roll on this screen.
  const both = holdsBothTeams(ctx);
  const prev = ctx.local.lastRolls || {};
  const teams = ["village", "werewolves"].map((team) => {
    const left = duel.dice[team];
    const roll = duel.last_roll[team];
    const key = `${roll.dice}-${roll.symbols}-${left}`;
    const fresh = prev[team] !== undefined && prev[team] !== key;
    prev[team] = key;
    const set = per - left;
    const dice = [];
    for (let i = 0; i < set; i++) dice.push(dieFace(true, fresh && i >= set - roll.symbols, i));
    for (let i = 0; i < left; i++) dice.push(dieFace(false, fresh, i));
    const mayRoll = both && (duel.mode === "race" || !(duel.ready && duel.ready[team]));
    return h(
      "div",
      { class: ["duel-team", view.you === team && "mine"], "data-team": team },
      h("h3", {}, w[team]),
      h("div", { class: "dice" }, dice),
      h("p", {}, `${set} ${w.set} · ${left} ${w.left}`),
      mayRoll ? button(w.roll, () => rollAs(team), { cls: "btn-primary btn-big btn-wide", key: `kids-roll-${team}`, action: `roll ${team}`, aria: w.rollFor[team] }) : null,
    );
  });
  ctx.local.lastRolls = prev;
  return h(
    "section",
    { class: "panel duel", "aria-labelledby": "kids-duel", "aria-busy": both && rollsPending ? "true" : null },
    h("h2", { id: "kids-duel" }, `${w.duel} ${w.house} ${duel.house}`),
    h("div", { class: "duel-teams" }, teams),
    !both && ctx.can("roll") ? button(w.roll, () => ctx.act({ name: "roll", args: [] }), { cls: "btn-primary btn-huge", key: "kids-roll", action: "roll" }) : null,
    h("p", { class: "visually-hidden", role: "status" }, teams.map((t) => t.textContent).join(". ")),
  );
}

/** A shared device that holds both teams' seats ("Everyone on this device"). */
function holdsBothTeams(ctx) {
  const device = ctx.device;
  if (!device) return false;
  const held = new Set(device.seats.map((x) => x.seat));
  return held.has(0) && held.has(1);
}

const TEAM_SEAT = { village: 0, werewolves: 1 };
let rolling = Promise.resolve();
let rollsPending = 0;

/** Roll for a team on a shared device: the device is handed to that team's seat first (the
 * server acts only for the seat a device shows), one roll after the other in tap order. */
function rollAs(team) {
  const seat = TEAM_SEAT[team];
  rollsPending += 1;
  const panel = document.querySelector(".kids .duel");
  if (panel) panel.setAttribute("aria-busy", "true");
  rolling = rolling.then(async () => {
    try {
      const device = deviceState();
      if (!device) return;
      if (device.shown !== seat && !(await handOver(seat))) return;
      await act({ name: "roll", args: [] });
    } finally {
      rollsPending -= 1;
      if (!rollsPending) redraw();
    }
  });
  return rolling;
}

/** After a duel on a shared device both teams were looking at the screen: the device is
 * covered before the next team's turn shows anything (the server keeps it on a seat that acts
 * on, which is right only when one team alone was looking). */
function afterDuel(ctx) {
  if (!ctx.device || ctx.device.shown === null) return null;
  const view = ctx.view;
  if (view.phase === "duel") {
    ctx.local.duelOnScreen = true;
    return null;
  }
  if (!ctx.local.duelOnScreen || view.phase === "over") return null;
  if (!ctx.local.covering) {
    ctx.local.covering = true;
    setTimeout(() => coverDevice(), 0);
  }
  const w = words(view);
  return h("div", { class: ["kids", "handover"], lang: view.language }, h("h1", { class: "phase-title" }, w.handover), h("p", { class: "big" }, w.closeEyes));
}

/** The end: one row per team (each a seat), who played it, won or lost, and its goal. */
function results(ctx) {
  const view = ctx.view;
  if (view.phase !== "over") return null;
  const w = words(view);
  const seats = (ctx.room && ctx.room.seats) || [];
  const row = (team) => {
    const seat = seats[TEAM_SEAT[team]] || {};
    const by = seat.bot && !seat.participant ? `${w.bot} (${seat.bot})` : seat.name || w[team];
    const goal = team === "village" ? w.goals.village(view.caught, view.werewolves) : w.goals.werewolves(view.missing.length, view.missing_to_win);
    return h("tr", { class: view.winner === team && "winner" }, h("th", { scope: "row" }, w[team]), h("td", {}, by), h("td", {}, w.wonLost[view.winner === team]), h("td", {}, goal));
  };
  return h(
    "table",
    { class: "kids-results" },
    h("caption", {}, w.results),
    h("thead", {}, h("tr", {}, [w.team, w.playedBy, w.result, w.goal].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, ["village", "werewolves"].map(row)),
  );
}

function rows(ctx) {
  const view = ctx.view;
  const w = words(view);
  const slots = [];
  for (let i = 0; i < view.missing_to_win; i++) {
    const id = view.missing[i];
    slots.push(h("li", { class: ["missing-slot", id && "filled"] }, id ? [h("span", { class: "avatar", "aria-hidden": "true" }, personOf(view, id).name.charAt(0)), h("span", {}, personOf(view, id).name)] : h("span", { class: "visually-hidden" }, "—")));
  }
  const wolves = [];
  for (let i = 0; i < view.werewolves; i++) wolves.push(h("li", { class: ["wolf-slot", i < view.caught && "caught"] }, h("span", { "aria-hidden": "true" }, "☾"), h("span", { class: "visually-hidden" }, i < view.caught ? "caught" : "free")));
  return h(
    "section",
    { class: "panel kids-rows" },
    h("h2", {}, `${w.missing}: ${view.missing.length} ${w.of} ${view.missing_to_win}`),
    h("ol", { class: "missing-row" }, slots),
    h("h2", {}, `${w.caught}: ${view.caught} ${w.of} ${view.werewolves}`),
    h("ol", { class: "caught-row" }, wolves),
  );
}

function notebook(ctx) {
  const view = ctx.view;
  if (!view.notebook || !view.notebook.length) return null;
  const w = words(view);
  return h("details", { class: "panel", "data-key": "notebook" }, h("summary", {}, w.notebook),
    h("ul", {}, view.notebook.map((n) => h("li", {}, `${n.house}: `, contentNode(view, n.saw), ` (${w.onDay} ${n.day})`))));
}

function render(ctx) {
  const view = ctx.view;
  const w = words(view);
  const covering = afterDuel(ctx);
  if (covering) return covering;
  const title = view.phase === "day" || view.phase === "night" ? `${w[view.phase]} ${view.day}` : w[view.phase] || view.phase;
  const me = view.you ? `${w.you} ${w[view.you]}.` : ctx.isTable ? "" : w.watching;
  if (view.phase === "handover") {
    return h(
      "div",
      { class: ["kids", "handover"], lang: view.language },
      h("h1", { class: "phase-title" }, title),
      h("p", { class: "prompt big" }, view.prompt),
      ctx.can("wake") ? button(w.wake, () => ctx.act({ name: "wake", args: [] }), { cls: "btn-primary btn-huge", key: "kids-wake", action: "wake" }) : h("p", { class: "big" }, w.closeEyes),
      rows(ctx),
    );
  }
  return h(
    "div",
    { class: ["kids", `kids-${view.phase}`, view.step === "place" && "kids-placing"], lang: view.language },
    h("h1", { class: "phase-title" }, title),
    me ? h("p", { class: "lead" }, me) : null,
    h("p", { class: "prompt", role: "status" }, view.prompt),
    view.phase === "over" ? h("section", { class: "panel ending" }, h("h2", {}, w.won[view.winner]), results(ctx)) : null,
    duelPanel(ctx),
    villageGrid(ctx),
    controls(ctx),
    castPicker(ctx),
    rows(ctx),
    notebook(ctx),
  );
}

const CUE_SOUNDS = { rooster: "rooster", howl: "howl", found: "chime", caught: "win", hides: "howl", missing: "knock", win: "win" };

export default {
  id: "werwoelfe-kids",
  render,
  // A shared device's hand-over screens in the game's language (they carry no view); in
  // English the platform's own words serve.
  deviceWords: (room) => (room && room.config && room.config.language === "de" ? { ...WORDS.de.device, lang: "de" } : {}),
  cues: (prev, view, events) => events.filter((e) => e.type === "cue" && CUE_SOUNDS[e.cue]).map((e) => CUE_SOUNDS[e.cue]).concat(events.some((e) => e.type === "roll") ? ["dice"] : []),
  mood: (view) => (view.phase === "night" || view.phase === "setup" ? "night" : view.phase === "over" ? "dusk" : "day"),
  lang: (view) => view.language || "en",
  // The door's timer belongs to the team whose door is open: anyone else seeing a timer would
  // learn that the werewolves found no werewolf tonight.
  showDeadline: (ctx) => Boolean(ctx.view.peek),
  timerLabel: (deadline, ctx) => (ctx.view.language === "de" ? "Die Tür schließt sich in" : "The door closes in"),
};
