// The Werewolves bEat Robbers' Horror: your hand (tap to play), the trick with each card's
// effective suit and rank, the last trick, piles, chips, the deal's scoring and the scoreboard.

import { h } from "../js/dom.js";
import { button, countdown } from "../js/ui.js";

const SPECIAL = { W: "Werewolf", S: "Seer", K: "Knife", T: "Traitor" };
const SPECIAL_MARK = { W: "☾", S: "◉", K: "⚔", T: "⚑" };
const SUIT_NAMES = { C: "Chest", R: "Robber" };
const SUIT_MARK = { C: "◆", R: "♣" };
const ROLE_NAMES = { robber: "Robber", werewolf: "Werewolf", traitor: "Traitor" };
const TEAM_NAMES = { robbers: "the robber team", werewolves: "the werewolf team" };

function nameOf(ctx, seat) {
  const entry = ctx.seatInfo(seat);
  return (entry && entry.name) || `Seat ${seat + 1}`;
}

function cardWords(card) {
  if (SPECIAL[card]) return SPECIAL[card];
  return `${SUIT_NAMES[card[0]] || card[0]} ${card.slice(1)}`;
}

/** "Chest 17" for the rules' "C17", or "trump 16" as it stands. */
function countedWords(text) {
  const m = /^([CR])(\d+)$/.exec(text || "");
  return m ? `${SUIT_NAMES[m[1]]} ${m[2]}` : text;
}

function namesList(name, seats) {
  const names = seats.map(name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0] || "nobody";
}

const LEAD_WORDS = { C: "chests led, robbers trump", R: "robbers led, chests trump" };

/** A scored deal, every step of its arithmetic, in people's names and the cards' names. */
function scoreLines(d, name, iconTable) {
  const lines = [];
  const robbers = d.seats.filter((s) => s.team === "robbers").map((s) => s.seat);
  const wolves = d.seats.filter((s) => s.team !== "robbers").map((s) => s.seat);
  for (const s of d.seats) {
    const wolf = s.role === "werewolf";
    const scored = wolf ? "R" : "C";
    const terms = (s.pile || []).filter((c) => c[0] === scored && /^\w\d+$/.test(c)).map((c) => `${cardWords(c)}: ${iconTable[Number(c.slice(1)) - 1] ?? 0}`);
    let line = `${name(s.seat)}, ${ROLE_NAMES[s.role] || s.role}: ${wolf ? "robber" : "chest"} icons ${terms.length ? `${terms.join(" + ")} = ${s.icons}` : "none = 0"}`;
    if (s.halved) line += `; took ${wolf ? "a Knife" : "a Werewolf"}, halved (rounded down) to ${s.points}`;
    lines.push(line);
  }
  const team = (label, seats, t, others, what) => {
    const pts = seats.map((x) => d.seats[x].points);
    const sum = pts.length > 1 ? `${pts.join(" + ")} = ${t.sum}` : String(t.sum);
    return `${label} (${namesList(name, seats)}): ${sum} × ${others} ${what}${others === 1 ? "" : "s"} = ${t.total}`;
  };
  lines.push(team("Robber team", robbers, d.robbers, wolves.length, "werewolf-team player"));
  lines.push(team("Werewolf team", wolves, d.werewolves, robbers.length, "robber-team player"));
  if (!d.winner) lines.push(`Tie at ${d.robbers.total}: nobody wins deal ${d.deal}, no game points.`);
  else {
    const won = d.winner === "robbers" ? robbers : wolves;
    lines.push(`${TEAM_NAMES[d.winner].replace(/^t/, "T")} wins deal ${d.deal}: ${namesList(name, won)} ${won.length === 1 ? "scores" : "score"} 1 game point.`);
  }
  return lines;
}

/** What happened, told with people's names and the cards' names (the rules' own texts speak
 * of 0-based seats and card codes). Null: the rules' text as it is. */
function describe(e, { name, view }) {
  const d = e;
  const iconTable = (view && view.icons) || [];
  switch (e.type) {
    case "deal":
      return `Deal ${d.deal} of ${d.deals}: ${name(d.dealer)} deals ${d.hand_size} cards each; ${name(d.leader)} leads.`;
    case "play":
      return `${name(d.seat)} plays ${cardWords(d.card)}.`;
    case "chip":
      return d.chip === "werewolf"
        ? `${name(d.seat)} takes a Werewolf chip: ${name(d.seat)} is a Werewolf.`
        : `${name(d.seat)} takes the Traitor chip: ${name(d.seat)} is on the werewolf team.`;
    case "trick": {
      const place = (d.winner - d.leader + d.cards.length) % d.cards.length;
      const card = d.winning_card || d.cards[place];
      const counted = d.effective ? d.effective[place] : card;
      const counting = counted && counted !== card ? ` (counting as ${countedWords(counted)})` : "";
      return `Trick ${d.number}, ${LEAD_WORDS[d.lead_suit] || "special cards only"}: ${name(d.winner)} takes it with ${cardWords(card)}${counting}.`;
    }
    case "score":
      return d.seats ? scoreLines(d, name, iconTable).join("\n") : null;
    case "match_over": {
      const winners = d.winners || [];
      const top = winners.length ? d.points[winners[0]] : 0;
      const pts = `${top} game point${top === 1 ? "" : "s"}`;
      return winners.length === 1 ? `${name(winners[0])} wins the match with ${pts}.` : `${namesList(name, winners)} share the win with ${pts} each.`;
    }
    default:
      return null;
  }
}

function icons(ctx, card) {
  const table = ctx.view.icons || [];
  if (SPECIAL[card]) return null;
  const n = table[Number(card.slice(1)) - 1];
  return n === undefined ? null : n;
}

/** A card face: suit shape and rank in text, never colour alone. */
function face(ctx, card, { small = false } = {}) {
  const special = Boolean(SPECIAL[card]);
  const n = icons(ctx, card);
  return h(
    "span",
    { class: ["card-face", special ? `card-special card-${card}` : `card-suit-${card[0]}`, small && "card-small"] },
    h("span", { class: "card-mark", "aria-hidden": "true" }, special ? SPECIAL_MARK[card] : SUIT_MARK[card[0]]),
    h("span", { class: "card-rank" }, special ? SPECIAL[card] : card.slice(1)),
    special ? null : h("span", { class: "card-suit" }, SUIT_NAMES[card[0]]),
    n ? h("span", { class: "card-icons", title: `${n} icons` }, "✦".repeat(n), h("span", { class: "visually-hidden" }, ` ${n} icons`)) : null,
  );
}

function effective(c) {
  if (c.rank === null || c.rank === undefined || c.suit === null || c.suit === undefined) return "counts as: not known yet";
  const suit = c.suit === "C" || c.suit === "R" ? SUIT_NAMES[c.suit] : c.suit === "trump" ? "the strong suit" : "the weak suit";
  return `counts as ${suit} ${c.rank}${c.trump ? " (trump)" : ""}`;
}

function trickPanel(ctx, trick, title, { last = false } = {}) {
  if (!trick) return null;
  const cards = trick.cards || [];
  return h(
    "section",
    { class: ["panel", "trick-panel", last && "last-trick"], "aria-labelledby": `trick-${last ? "last" : "now"}` },
    h("h2", { id: `trick-${last ? "last" : "now"}` }, title, ` (trick ${trick.number})`),
    trick.lead_suit ? h("p", { class: "muted" }, `Led suit: ${SUIT_NAMES[trick.lead_suit]}; the other suit is trump.`) : null,
    cards.length
      ? h(
          "ol",
          { class: "trick" },
          cards.map((c) =>
            h(
              "li",
              { class: ["trick-card", trick.winner === c.seat && "winner"] },
              h("span", { class: "trick-seat" }, nameOf(ctx, c.seat)),
              face(ctx, c.card),
              h("span", { class: "effective" }, effective(c)),
              trick.winner === c.seat ? h("span", { class: "tag" }, "takes the trick") : null,
            ),
          ),
        )
      : h("p", { class: "muted" }, `${nameOf(ctx, trick.leader)} leads.`),
  );
}

function handPanel(ctx) {
  const view = ctx.view;
  if (!view.hand || view.phase === "over") return null;
  const playable = new Set(ctx.legalNamed("play").map((a) => a.args[0]));
  const yourTurn = view.turn === view.seat;
  if (ctx.hidden)
    return h(
      "section",
      { class: ["panel", "hand-panel", yourTurn && "your-turn"], "aria-labelledby": "hand-title" },
      h("h2", { id: "hand-title" }, yourTurn ? "Your turn: show your hand to play" : "Your hand"),
      h("p", { class: "role-hidden" }, `Your ${view.hand.length} cards, your role and your team are hidden. Show them when nobody else can see your screen.`),
      button("Show my hand", () => ctx.reveal(), { cls: "btn-primary", key: "card-toggle" }),
    );
  return h(
    "section",
    { class: ["panel", "hand-panel", yourTurn && "your-turn"], "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title" }, yourTurn ? "Your turn: tap a card to play it" : "Your hand"),
    h("p", { class: "role-line" }, `You are a ${ROLE_NAMES[view.role] || view.role}, on ${TEAM_NAMES[view.team] || view.team} (for now: it can change as cards are played).`),
    h(
      "div",
      { class: "hand" },
      view.hand.map((card, i) =>
        h(
          "button",
          {
            type: "button",
            class: "card-button",
            disabled: !playable.has(card) || ctx.busy,
            "data-action": `play ${card}`,
            "data-key": `card-${card}-${i}`,
            "aria-label": `Play ${cardWords(card)}${icons(ctx, card) ? `, ${icons(ctx, card)} icons` : ""}`,
            on: { click: () => ctx.act({ name: "play", args: [card] }) },
          },
          face(ctx, card),
        ),
      ),
    ),
  );
}

function scoreboard(ctx) {
  const view = ctx.view;
  const chips = view.chips || {};
  const wolfChips = chips.werewolf || [];
  return h(
    "section",
    { class: "panel scoreboard", "aria-labelledby": "score-title" },
    h("h2", { id: "score-title" }, `Deal ${view.deal} of ${view.deals}`),
    h(
      "div",
      { class: "table-wrap" },
      h(
      "table",
      { class: "score-table" },
      h("caption", { class: "visually-hidden" }, "Players, cards in hand, piles, chips and game points"),
      h("thead", {}, h("tr", {}, ["Player", "Cards", "Tricks", "Chips", "Points"].map((t) => h("th", { scope: "col" }, t)))),
      h(
        "tbody",
        {},
        Array.from({ length: view.players }, (_, s) =>
          h(
            "tr",
            { class: [view.turn === s && "turn", view.seat === s && "me"] },
            h("th", { scope: "row" }, nameOf(ctx, s), view.seat === s ? " (you)" : "", view.dealer === s ? h("span", { class: "tag" }, "dealer") : null, view.turn === s ? h("span", { class: "tag tag-you" }, "to play") : null),
            h("td", {}, String(view.hand_sizes[s])),
            h("td", {}, String(view.tricks_won[s]), h("span", { class: "visually-hidden" }, ` (${view.piles[s]} cards in the pile)`)),
            h("td", {}, wolfChips.filter((x) => x === s).map(() => h("span", { class: "chip chip-werewolf" }, "Werewolf")), chips.traitor === s ? h("span", { class: "chip chip-traitor" }, "Traitor") : null),
            h("td", { class: "points" }, String(view.points[s])),
          ),
        ),
      ),
    ),
    ),
    view.undealt_cards ? h("p", { class: "muted" }, "One card lies face down, undealt, until the deal is scored.") : null,
  );
}

function lastDeal(ctx) {
  const d = ctx.view.last_deal;
  if (!d) return null;
  return h(
    "details",
    { class: "panel deal-score", open: ctx.view.phase === "over" || null, "data-key": `deal-${d.deal}` },
    h("summary", {}, `Deal ${d.deal} scored: ${d.winner ? `${TEAM_NAMES[d.winner]} wins` : "a tie"}`),
    h(
      "table",
      { class: "score-table compact" },
      h("thead", {}, h("tr", {}, ["Player", "Role", "Team", "Icons", "Points"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, d.seats.map((s) => h("tr", {}, h("th", { scope: "row" }, nameOf(ctx, s.seat)), h("td", {}, ROLE_NAMES[s.role] || s.role), h("td", {}, s.team === "robbers" ? "robbers" : "werewolves"), h("td", {}, String(s.icons), s.halved ? " (halved)" : ""), h("td", {}, String(s.points))))),
    ),
    h("p", {}, `Robbers: ${d.robbers.sum} × ${d.robbers.multiplier} = ${d.robbers.total}. Werewolves: ${d.werewolves.sum} × ${d.werewolves.multiplier} = ${d.werewolves.total}.`),
    d.undealt ? h("p", {}, "The undealt card was ", face(ctx, d.undealt, { small: true }), ".") : null,
    h("ol", { class: "steps" }, scoreLines(d, (seat) => nameOf(ctx, seat), ctx.view.icons || []).map((line) => h("li", {}, line))),
  );
}

/** How long a scored deal stays on a screen by itself before the next deal shows. */
export const HOLD_SECONDS = 30;

function now(ctx) {
  return ctx.serverNow ? ctx.serverNow() : Date.now() / 1000;
}

/** A deal just scored: it stays on this screen, with a visible countdown, until the player
 * continues (or the countdown ends); the next deal's hand waits below it. */
function heldDeal(ctx) {
  const d = ctx.view.last_deal;
  if (!d || ctx.view.phase === "over") return null;
  const local = ctx.local;
  if (local.continuedDeal === d.deal) return null;
  if (!local.held || local.held.deal !== d.deal) {
    local.held = { deal: d.deal, at: now(ctx) + HOLD_SECONDS };
    clearTimeout(local.holdTimer);
    local.holdTimer = setTimeout(() => {
      if (ctx.local.held && ctx.local.held.deal === d.deal) ctx.local.continuedDeal = d.deal;
      ctx.rerender();
    }, HOLD_SECONDS * 1000);
  }
  if (now(ctx) >= local.held.at) return null;
  const goOn = () => {
    local.continuedDeal = d.deal;
    clearTimeout(local.holdTimer);
    ctx.rerender();
  };
  return h(
    "section",
    { class: "panel deal-held", "aria-labelledby": "held-title" },
    h("h2", { id: "held-title" }, `Deal ${d.deal} scored: ${d.winner ? `${TEAM_NAMES[d.winner]} wins` : "a tie"}`),
    countdown({ at: local.held.at, seconds: HOLD_SECONDS, label: `Deal ${ctx.view.deal} shows in` }),
    h(
      "table",
      { class: "score-table compact" },
      h("caption", { class: "visually-hidden" }, `How deal ${d.deal} was scored`),
      h("thead", {}, h("tr", {}, ["Player", "Role", "Points", "Game points"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, d.seats.map((s) => h("tr", {}, h("th", { scope: "row" }, nameOf(ctx, s.seat)), h("td", {}, ROLE_NAMES[s.role] || s.role), h("td", {}, String(s.points)), h("td", {}, String((d.game_points || [])[s.seat] ?? ""))))),
    ),
    h("ol", { class: "steps" }, scoreLines(d, (seat) => nameOf(ctx, seat), ctx.view.icons || []).map((line) => h("li", {}, line))),
    button(`Continue to deal ${ctx.view.deal}`, goOn, { cls: "btn-primary btn-wide", key: "continue-deal" }),
  );
}

function ending(ctx) {
  const view = ctx.view;
  if (view.phase !== "over" || !view.ranking) return null;
  const winners = new Set(view.winners || []);
  return h(
    "section",
    { class: "panel ending", "aria-labelledby": "rh-end" },
    h("h2", { id: "rh-end" }, winners.size > 1 ? "Shared win" : `${nameOf(ctx, [...winners][0])} wins`),
    view.seat !== null && view.seat !== undefined ? h("p", { class: "verdict" }, winners.has(view.seat) ? "You won!" : "Not this time.") : null,
    h(
      "table",
      { class: "score-table" },
      h("caption", {}, "Final standings"),
      h("thead", {}, h("tr", {}, ["Place", "Player", "Game points"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, view.ranking.map((r) => h("tr", { class: winners.has(r.seat) ? "winner" : null }, h("td", {}, String(r.place)), h("th", { scope: "row" }, nameOf(ctx, r.seat)), h("td", {}, String(r.points))))),
    ),
  );
}

function render(ctx) {
  const view = ctx.view;
  const over = view.phase === "over";
  const turnLine = !over && view.turn !== null ? h("p", { class: "lead" }, view.turn === view.seat ? "Your turn." : `${nameOf(ctx, view.turn)} is playing.`) : null;
  const held = heldDeal(ctx);
  if (held)
    return h(
      "div",
      { class: "robbers" },
      h("h1", { class: "phase-title" }, `Deal ${view.last_deal.deal} is scored`),
      held,
      view.turn === view.seat ? h("p", { class: "lead" }, "Your turn waits in the next deal.") : null,
      scoreboard(ctx),
    );
  return h(
    "div",
    { class: "robbers" },
    h("h1", { class: "phase-title" }, over ? "The match is over" : `Deal ${view.deal}, trick ${view.trick.number}`),
    turnLine,
    ending(ctx),
    over ? null : trickPanel(ctx, view.trick, "On the table"),
    handPanel(ctx),
    view.last_trick ? trickPanel(ctx, view.last_trick, "Last trick", { last: true }) : null,
    scoreboard(ctx),
    lastDeal(ctx),
  );
}

function cues(prev, view, events) {
  const types = new Set(events.map((e) => e.type));
  const out = [];
  if (types.has("score")) out.push("chime");
  else if (types.has("trick")) out.push("knock");
  if (view.phase === "over" && prev && prev.phase !== "over") out.push("win");
  return out;
}

export default {
  id: "robbers-horror",
  render,
  privacy: true,
  cues,
  describe,
  mood: (view) => (view.phase === "over" ? "dusk" : "night"),
};
