// The Werewolves bEat Robbers' Horror: your hand (tap to play), the trick with each card's
// effective suit and rank, the last trick, piles, chips, the deal's scoring and the scoreboard.

import { h } from "../js/dom.js";
import { button } from "../js/ui.js";

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
    d.steps && d.steps.length ? h("ol", { class: "steps" }, d.steps.map((line) => h("li", {}, line))) : null,
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
  mood: (view) => (view.phase === "over" ? "dusk" : "night"),
};
