// Werewolf: role card, the night's private pickers, the day's announcements, ballot and tally,
// the eliminated players' open-eyes view, and the ending with every card.

import { h, s } from "../js/dom.js";
import { button, presenceTag } from "../js/ui.js";

const ROLE_NAMES = {
  werewolf: "Werewolf", seer: "Seer", guardian: "Guardian", villager: "Villager",
  // The variant roles (docs/games/werewolf.md, "Variant roles").
  lycan: "Lycan", tanner: "Tanner", minion: "Minion", hunter: "Hunter", village_idiot: "Village Idiot", witch: "Witch", cupid: "Cupid",
};
const WIN_TITLES = { town: "The Town wins", werewolves: "The Werewolves win" };

export function roleIcon(role, size = 48) {
  const common = { viewBox: "0 0 64 64", width: String(size), height: String(size), "aria-hidden": "true", class: `role-icon role-icon-${role}` };
  if (role === "werewolf")
    return s("svg", common,
      s("circle", { cx: "32", cy: "32", r: "30", class: "ri-bg" }),
      s("path", { d: "M14 50 L19 16 L28 30 L36 30 L45 16 L50 50 Z", class: "ri-fg" }),
      s("path", { d: "M23 40 l5 -2 M41 40 l-5 -2", class: "ri-line" }),
      s("path", { d: "M28 47 L32 52 L36 47 Z", class: "ri-bg" }));
  if (role === "seer")
    return s("svg", common,
      s("circle", { cx: "32", cy: "32", r: "30", class: "ri-bg" }),
      s("path", { d: "M8 32 Q32 10 56 32 Q32 54 8 32 Z", class: "ri-fg" }),
      s("circle", { cx: "32", cy: "32", r: "9", class: "ri-bg" }),
      s("circle", { cx: "32", cy: "32", r: "4", class: "ri-fg" }));
  if (role === "guardian")
    return s("svg", common,
      s("circle", { cx: "32", cy: "32", r: "30", class: "ri-bg" }),
      s("path", { d: "M32 10 L50 17 V31 Q50 47 32 55 Q14 47 14 31 V17 Z", class: "ri-fg" }),
      s("path", { d: "M32 19 V46 M22 29 H42", class: "ri-line" }));
  if (role === "villager")
    return s("svg", common,
      s("circle", { cx: "32", cy: "32", r: "30", class: "ri-bg" }),
      s("path", { d: "M14 34 L32 16 L50 34 V50 H14 Z", class: "ri-fg" }),
      s("rect", { x: "28", y: "38", width: "8", height: "12", class: "ri-bg" }));
  return s("svg", common, s("circle", { cx: "32", cy: "32", r: "30", class: "ri-bg" }), s("text", { x: "32", y: "42", "text-anchor": "middle", class: "ri-q" }, "?"));
}

function seatName(view, seat) {
  const entry = view.seats[seat];
  return entry ? entry.name : `Seat ${seat + 1}`;
}

// The variant roles a setup adds to the seed's deal ("lycans": 1 → ", 1 Lycans").
const SEED_DEAL = new Set(["werewolves", "seers", "guardians", "villagers"]);
function variantDeal(deal) {
  return Object.entries(deal).filter(([k]) => !SEED_DEAL.has(k)).map(([k, n]) => `, ${n} ${k.charAt(0).toUpperCase()}${k.slice(1).replace(/_/g, " ")}`).join("");
}

function phaseTitle(view) {
  switch (view.phase) {
    case "night":
      return `Night ${view.round}`;
    case "discussion":
      return `Day ${view.round}: discussion`;
    case "vote":
      return `Day ${view.round}: the ballot`;
    case "revote":
      return `Day ${view.round}: the revote`;
    case "hunt":
      return `Round ${view.round}: the Hunter's shot`;
    case "election":
      return `Day ${view.round}: the Sheriff's election`;
    case "badge":
      return `Round ${view.round}: the Sheriff's badge`;
    default:
      return "The game is over";
  }
}

// -- pieces ---------------------------------------------------------------------------------------

function roleCard(ctx, you) {
  // On a phone the privacy model decides (hidden until "Show", hidden again by itself);
  // elsewhere (the privacy setting off) the card has its own show/hide button.
  const open = ctx.private ? !ctx.hidden : ctx.local.cardOpen !== false && (ctx.local.cardOpen === true || ctx.view.phase === "end" || !ctx.private);
  const toggle = button(open ? "Hide my card" : "Show my card", () => {
    if (ctx.private) return open ? ctx.hideNow() : ctx.reveal();
    ctx.local.cardOpen = !open;
    ctx.rerender();
  }, { cls: "btn-small", key: "card-toggle", aria: open ? "Hide my card" : "Show my card" });
  toggle.setAttribute("aria-expanded", String(open));
  toggle.setAttribute("aria-controls", "role-card");
  const body = open
    ? h(
        "div",
        { class: `role-card role-${you.role}`, id: "role-card" },
        roleIcon(you.role, 72),
        h("div", { class: "role-card-text" },
          h("p", { class: "role-name" }, you.card_label, " ", h("span", { class: "role-kind" }, `(${ROLE_NAMES[you.role] || you.role})`)),
          h("p", { class: "card-id" }, "Card ", h("code", {}, you.card)),
          h("p", { class: "card-text" }, you.card_text),
          you.deal_note ? h("p", { class: "deal-note" }, you.deal_note) : null,
          you.pack && you.pack.length > 1
            ? h("p", { class: "pack-line" }, "Your pack: ", you.pack.map((w, i) => [i ? ", " : "", seatName(ctx.view, w), w === you.seat ? " (you)" : ""]))
            : null,
          variantLines(ctx.view, you),
        ),
      )
    : h("div", { class: "role-card role-hidden", id: "role-card" }, h("p", {}, "Your card is hidden. Show it when nobody else can see your screen."));
  return h("section", { class: "panel card-panel", "aria-labelledby": "card-title" }, h("div", { class: "panel-head" }, h("h2", { id: "card-title" }, "Your card"), toggle), body);
}

// What a variant role knows (docs/games/werewolf.md, "Variant roles"), on the card.
function variantLines(view, you) {
  const names = (seats) => seats.map((s) => seatName(view, s)).join(", ");
  const lines = [];
  if (you.werewolves) lines.push(`The Werewolves: ${names(you.werewolves)}.`);
  if (you.lover !== undefined) lines.push(`You are in love with ${seatName(view, you.lover)}.`);
  if (you.lovers && you.lovers.length) lines.push(`Your Lovers: ${names(you.lovers)}.`);
  if (you.potions) lines.push(`Potions left: ${[you.potions.heal && "healing", you.potions.poison && "poison"].filter(Boolean).join(", ") || "none"}.`);
  return lines.map((line) => h("p", { class: "variant-line" }, line));
}

function village(ctx) {
  const view = ctx.view;
  const you = view.you;
  // hidden: only what everyone knows (the cards of the eliminated), no pack, not even your own
  const pack = new Set(you && you.pack && !ctx.hidden ? you.pack : []);
  return h(
    "section",
    { class: "panel village", "aria-labelledby": "village-title" },
    h("h2", { id: "village-title" }, "The village"),
    h("p", { class: "deal-line" }, `The deal: ${view.deal.werewolves} Werewolves, ${view.deal.seers} Seer${view.deal.seers === 1 ? "" : "s"}, ${view.deal.guardians} Guardian${view.deal.guardians === 1 ? "" : "s"}, ${view.deal.villagers} Villagers${variantDeal(view.deal)}.`),
    h(
      "ul",
      { class: "village-grid" },
      view.seats.map((seat) => {
        const me = you && seat.seat === you.seat;
        const role = ctx.hidden && seat.alive ? null : seat.role;
        return h(
          "li",
          { class: ["villager-tile", seat.alive ? "alive" : "dead", me && "me", pack.has(seat.seat) && "packmate"], "data-seat": String(seat.seat) },
          roleIcon(role || "unknown", 40),
          h("span", { class: "tile-name" }, seat.name, me ? " (you)" : ""),
          h("span", { class: "tile-state" }, seat.alive ? "alive" : "out"),
          role ? h("span", { class: "tile-role" }, ROLE_NAMES[role] || role, seat.card && role === seat.role ? h("span", { class: "visually-hidden" }, ` card ${seat.card}`) : null) : h("span", { class: "tile-role unknown" }, "role hidden"),
          presenceTag(ctx.seatInfo(seat.seat)),
        );
      }),
    ),
  );
}

function announcements(ctx) {
  const view = ctx.view;
  const items = [];
  if (view.phase !== "night" && view.night_result) {
    const r = view.night_result;
    if (r.eliminated === null || r.eliminated === undefined) items.push(h("p", { class: "announce" }, h("strong", {}, "Dawn: "), "no one was eliminated during the night."));
    else {
      // With a Witch in the deal a death may be her poison: the day is not told whose.
      const how = view.deal.witches ? "did not survive the night" : "was taken by the Werewolves";
      for (const lost of [r, ...(r.also || [])]) {
        const seat = view.seats[lost.eliminated];
        items.push(h("p", { class: "announce" }, h("strong", {}, "Dawn: "), `${seat.name} ${how}. Their card: ${ROLE_NAMES[seat.role] || seat.role} (${lost.card}).`));
      }
    }
  }
  const tally = lastTally(view);
  if (tally) items.push(tallyBlock(view, tally));
  if (!items.length) return null;
  return h("section", { class: "panel announcements", "aria-labelledby": "ann-title" }, h("h2", { id: "ann-title" }, "Announcements"), items);
}

function lastTally(view) {
  const tallies = view.tallies || [];
  const t = tallies[tallies.length - 1];
  if (!t) return null;
  if (view.phase === "end" || t.round === view.round) return t;
  return null;
}

function tallyBlock(view, tally) {
  const counts = Object.entries(tally.counts).map(([seat, n]) => [Number(seat), n]).sort((a, b) => b[1] - a[1]);
  const top = counts.length ? counts[0][1] : 0;
  const votes = tally.votes || null;
  return h(
    "div",
    { class: "tally" },
    h("h3", {}, tally.revote ? "The revote" : "The ballot", ` of day ${tally.round}`),
    h(
      "table",
      { class: "tally-table" },
      h("caption", { class: "visually-hidden" }, "Votes per player"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Votes"), votes ? h("th", { scope: "col" }, "Voted by") : null)),
      h(
        "tbody",
        {},
        counts.map(([seat, n]) =>
          h(
            "tr",
            { class: n === top && n > 0 ? "most" : null },
            h("th", { scope: "row" }, seatName(view, seat)),
            h("td", {}, h("span", { class: "bar" }, h("span", { class: `bar-fill w${Math.min(12, n)}` })), " ", String(n), n === top && n > 0 ? h("span", { class: "visually-hidden" }, " (most)") : null),
            votes
              ? h("td", {}, Object.entries(votes).filter(([, c]) => c === seat).map(([v]) => seatName(view, Number(v))).join(", ") || "—")
              : null,
          ),
        ),
      ),
    ),
    h("p", {}, `Abstained: ${tally.abstained}`,
      votes ? ` (${Object.entries(votes).filter(([, c]) => c === null).map(([v]) => seatName(view, Number(v))).join(", ") || "nobody"})` : ""),
  );
}

function targetButtons(ctx, name, players, { chosen, note, disabledNote } = {}) {
  return h(
    "div",
    { class: "target-grid", role: "group", "aria-label": "Players" },
    players.map((seat) => {
      const legal = ctx.can(name, seat);
      const extra = note ? note(seat) : null;
      return h(
        "button",
        {
          type: "button",
          class: ["btn", "target", chosen === seat && "chosen", !legal && "forbidden"],
          disabled: !legal || ctx.busy,
          "aria-pressed": String(chosen === seat),
          "data-key": `${name}-${seat}`,
          "data-action": `${name} ${seat}`,
          on: { click: () => ctx.act({ name, args: [seat] }) },
        },
        h("span", { class: "target-name" }, seatName(ctx.view, seat)),
        chosen === seat ? h("span", { class: "target-note" }, "your choice") : null,
        extra ? h("span", { class: "target-note" }, extra) : null,
        !legal && disabledNote ? h("span", { class: "target-note" }, disabledNote(seat)) : null,
      );
    }),
  );
}

function living(view) {
  return view.seats.filter((s) => s.alive).map((s) => s.seat);
}

// -- the night ----------------------------------------------------------------------------------------

function wolfPanel(ctx, you) {
  const view = ctx.view;
  const pack = new Set(you.pack);
  const picks = you.pack_picks || {};
  const prev = you.pack_previous_picks || {};
  const pickers = (target, table) => Object.entries(table).filter(([, t]) => t === target).map(([w]) => (Number(w) === you.seat ? "you" : seatName(view, Number(w))));
  const targets = living(view).filter((s) => !pack.has(s));
  const locked = you.locked;
  return h(
    "section",
    { class: "panel action-panel", "aria-labelledby": "act-title" },
    h("h2", { id: "act-title" }, "Werewolves: choose a target"),
    locked !== null && locked !== undefined
      ? h("p", { class: "result" }, `The pack agreed: ${seatName(view, locked)} is tonight's target.`)
      : h("p", {}, `Pick round ${you.pick_round} of ${you.pick_rounds}. The target locks when every living Werewolf picks the same player; your pack sees your pick at once.`),
    targetButtons(ctx, "pick", targets, {
      chosen: picks[String(you.seat)],
      note: (seat) => {
        const now = pickers(seat, picks).filter((x) => x !== "you");
        const before = pickers(seat, prev);
        const parts = [];
        if (now.length) parts.push(`picked by ${now.join(", ")}`);
        if (before.length) parts.push(`last round: ${before.join(", ")}`);
        return parts.join(" · ") || null;
      },
    }),
  );
}

function seerPanel(ctx, you) {
  const view = ctx.view;
  const tonight = (you.checks || []).find((c) => c.round === view.round);
  const candidates = living(view).filter((s) => s !== you.seat);
  return h(
    "section",
    { class: "panel action-panel", "aria-labelledby": "act-title" },
    h("h2", { id: "act-title" }, "Seer: look into one player"),
    tonight
      ? h("p", { class: ["result", "seer-answer", tonight.werewolf ? "is-wolf" : "not-wolf"], role: "status" },
          roleIcon(tonight.werewolf ? "werewolf" : "villager", 32),
          `${seatName(view, tonight.target)} ${tonight.werewolf ? "is a Werewolf." : "is not a Werewolf."}`)
      : ctx.legalNamed("check").length
        ? targetButtons(ctx, "check", candidates)
        : h("p", {}, "Close your eyes."),
  );
}

function guardianPanel(ctx, you) {
  const view = ctx.view;
  const protecting = you.protecting;
  const barred = you.cannot_protect;
  return h(
    "section",
    { class: "panel action-panel", "aria-labelledby": "act-title" },
    h("h2", { id: "act-title" }, "Guardian: protect one player"),
    protecting !== null && protecting !== undefined
      ? h("p", { class: "result" }, `You protect ${protecting === you.seat ? "yourself" : seatName(view, protecting)} tonight.`)
      : h("p", {}, barred !== null && barred !== undefined ? `You may protect yourself, but not ${seatName(view, barred)} again: you protected them last night.` : "You may protect yourself."),
    protecting === null || protecting === undefined
      ? targetButtons(ctx, "protect", living(view), { disabledNote: (seat) => (seat === barred ? "protected last night" : null) })
      : null,
  );
}

// The variant roles' actions (docs/games/werewolf.md, "Variant roles"), drawn from the legal
// actions: one button per action, a seat argument shown by name.
const HANDLED = new Set(["pick", "check", "protect", "vote", "abstain", "claim_role", "claim_check", "suspect", "trust", "claim_protect", "quiet"]);
const VERBS = { shoot: "Take with you:", heal: "Heal tonight's target", poison: "Poison", no_potion: "Use no potion tonight", link: "Link as Lovers:", elect: "Elect as Sheriff:", pass_badge: "Pass the badge to", abstain: "Abstain" };

function otherActions(ctx) {
  // The Sheriff's election has no ballot panel: its abstention is drawn here too.
  const actions = ctx.legal.filter((a) => !HANDLED.has(a.name) || (a.name === "abstain" && ctx.view.phase === "election"));
  if (!actions.length) return null;
  const label = (a) => [VERBS[a.name] || a.name.replace(/_/g, " "), a.args.map((x) => (typeof x === "number" ? seatName(ctx.view, x) : String(x))).join(" and ")].join(" ");
  return h(
    "section",
    { class: "panel action-panel", "aria-labelledby": "other-title" },
    h("h2", { id: "other-title" }, "Your move"),
    ctx.view.you && ctx.view.you.victim !== undefined && ctx.view.you.victim !== null
      ? h("p", { class: "result" }, `The Werewolves have chosen ${seatName(ctx.view, ctx.view.you.victim)}.`)
      : null,
    h("div", { class: "target-grid", role: "group", "aria-label": "Actions" }, actions.map((a) =>
      h("button", { type: "button", class: "btn target", disabled: ctx.busy, "data-action": [a.name, ...a.args].join(" "), "data-key": `other-${a.name}-${a.args.join("-")}`, on: { click: () => ctx.act(a) } }, label(a)))),
  );
}

function sleepPanel(ctx) {
  return h(
    "section",
    { class: "panel sleep-panel", "aria-labelledby": "act-title" },
    h("h2", { id: "act-title" }, "Close your eyes"),
    h("p", {}, "The night passes. Your phone will wake you at dawn."),
  );
}

function openEyes(ctx) {
  const view = ctx.view;
  const t = view.tonight;
  const rows = [];
  if (t) {
    for (const [w, target] of Object.entries(t.picks || {})) rows.push(h("li", {}, `${seatName(view, Number(w))} (Werewolf) picks ${seatName(view, target)}`));
    if (t.locked !== null && t.locked !== undefined) rows.push(h("li", {}, `The pack's target is locked: ${seatName(view, t.locked)}`));
    for (const [seer, target] of Object.entries(t.checked || {})) rows.push(h("li", {}, `${seatName(view, Number(seer))} (Seer) looks into ${seatName(view, target)}`));
    for (const [g, target] of Object.entries(t.protected || {})) rows.push(h("li", {}, `${seatName(view, Number(g))} (Guardian) protects ${seatName(view, target)}`));
  }
  return h(
    "section",
    { class: "panel open-eyes", "aria-labelledby": "eyes-title" },
    h("h2", { id: "eyes-title" }, "You are out: you watch with open eyes"),
    h("p", {}, "You cannot act or speak in the game any more, but you see every card and every night action."),
    rows.length ? h("ul", {}, rows) : view.phase === "night" ? h("p", {}, "Nobody has acted yet tonight.") : null,
    view.ballot && view.ballot.votes
      ? h("ul", {}, Object.entries(view.ballot.votes).map(([v, c]) => h("li", {}, `${seatName(view, Number(v))} votes ${c === null ? "to abstain" : `for ${seatName(view, c)}`}`)))
      : null,
  );
}

// -- the day ---------------------------------------------------------------------------------------------

function ballotPanel(ctx, you) {
  const view = ctx.view;
  const ballot = view.ballot;
  const revote = ballot.revote;
  const voted = you && you.voted;
  const candidates = ballot.candidates.filter((c) => !you || c !== you.seat);
  let inner;
  if (!you || !you.alive) inner = null;
  else if (voted)
    inner = h("p", { class: "result" }, you.vote === null || you.vote === undefined ? "You abstained." : `Your vote: ${seatName(view, you.vote)}.`, " It stays secret until the ballot closes.");
  else
    inner = [
      targetButtons(ctx, "vote", candidates),
      button("Abstain", () => ctx.act({ name: "abstain", args: [] }), { cls: "btn-quiet btn-wide", disabled: !ctx.can("abstain") || ctx.busy, key: "abstain" }),
    ];
  return h(
    "section",
    { class: "panel action-panel ballot", "aria-labelledby": "ballot-title" },
    h("h2", { id: "ballot-title" }, revote ? "Revote between the tied players" : "Vote to eliminate a player"),
    revote ? h("p", {}, "Tied: ", ballot.candidates.map((c) => seatName(view, c)).join(", "), ".") : null,
    inner,
    h("p", { class: "progress" }, h("progress", { max: String(ballot.voters), value: String(ballot.cast), "aria-label": "Votes cast" }), ` ${ballot.cast} of ${ballot.voters} have voted.`),
  );
}

function discussionPanel(ctx) {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "disc-title" },
    h("h2", { id: "disc-title" }, "Talk it over"),
    h("p", {}, "Who do you suspect? When the time is up, every living player votes or abstains."),
    ctx.isHost ? h("p", { class: "hint" }, "As the host you can end the discussion early with the button below.") : null,
  );
}

// Structured talk (the talk option): today's public claims, and the buttons to make one.
const CLAIM_KINDS = [
  ["suspect", "I suspect…", []],
  ["trust", "I trust…", []],
  ["claim_check", "I checked…: a Werewolf", ["werewolf"]],
  ["claim_check", "I checked…: not a Werewolf", ["clear"]],
  ["claim_protect", "I protected…", []],
];
let talkKind = 0;

function claimWords(view, c) {
  const target = c.target === undefined ? "" : seatName(view, c.target);
  if (c.claim === "claim_role") return `I am the ${ROLE_NAMES[c.role] || c.role}.`;
  if (c.claim === "claim_check") return `I checked ${target}: ${c.werewolf ? "a Werewolf" : "not a Werewolf"}.`;
  if (c.claim === "suspect") return `I suspect ${target}.`;
  if (c.claim === "trust") return `I trust ${target}.`;
  return `I protected ${target}.`;
}

function talkPanel(ctx) {
  const view = ctx.view;
  const today = (view.claims || []).filter((c) => c.round === view.round);
  const parts = [];
  if (today.length) parts.push(h("ul", { class: "claims" }, today.map((c) => h("li", {}, h("strong", {}, seatName(view, c.seat)), `: “${claimWords(view, c)}”`))));
  if (ctx.can("quiet")) {
    const left = view.you.claims_left;
    parts.push(h("p", {}, `You may make ${left} more claim${left === 1 ? "" : "s"} today. Claims change nothing in the rules; anyone may lie.`));
    parts.push(h("div", { class: "target-grid", role: "group", "aria-label": "Claim a role" },
      ctx.legalNamed("claim_role").map((a) => button(`I am the ${ROLE_NAMES[a.args[0]] || a.args[0]}`, () => ctx.act(a), { cls: "target", key: `claim-role-${a.args[0]}`, disabled: ctx.busy }))));
    const [name, label, extra] = CLAIM_KINDS[talkKind];
    parts.push(h("div", { class: "target-grid", role: "group", "aria-label": "What to say about a player" },
      CLAIM_KINDS.map(([, text], i) => button(text, () => { talkKind = i; ctx.rerender(); }, { cls: i === talkKind ? "target chosen" : "target", pressed: i === talkKind, key: `claim-kind-${i}` }))));
    const targets = living(view).filter((seat) => ctx.can(name, seat, ...extra));
    parts.push(h("div", { class: "target-grid", role: "group", "aria-label": label },
      targets.map((seat) => button(seatName(view, seat), () => ctx.act({ name, args: [seat, ...extra] }), { cls: "target", key: `claim-${name}-${extra.join("")}-${seat}`, action: [name, seat, ...extra].join(" "), disabled: ctx.busy }))));
    parts.push(button("Nothing more to say today", () => ctx.act({ name: "quiet", args: [] }), { cls: "btn-quiet btn-wide", key: "quiet", disabled: ctx.busy }));
  }
  if (!parts.length) return null;
  return h("section", { class: "panel talk", "aria-labelledby": "talk-title" }, h("h2", { id: "talk-title" }, "Claims"), parts);
}

function ending(ctx) {
  const view = ctx.view;
  const outcome = ctx.outcome || {};
  if (outcome.ended_by_host)
    return h("section", { class: "panel ending" }, h("h2", {}, "The host ended the match"), h("p", {}, "No result."));
  const winner = view.winner;
  const you = view.you;
  let verdict = "";
  if (you && outcome.winners) verdict = outcome.winners.includes(you.seat) ? "You won!" : outcome.draw ? "A draw." : "You lost this time.";
  return h(
    "section",
    { class: ["panel", "ending", winner ? `won-${winner}` : "draw"], "aria-labelledby": "end-title" },
    h("h2", { id: "end-title" }, winner ? WIN_TITLES[winner] || `${winner} win` : "A draw"),
    h("p", { class: "summary" }, view.summary),
    verdict ? h("p", { class: "verdict" }, verdict) : null,
    h(
      "table",
      { class: "roles-table" },
      h("caption", {}, "Every card"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Role"), h("th", { scope: "col" }, "Card"), h("th", { scope: "col" }, "At the end"))),
      h("tbody", {}, view.seats.map((seat) =>
        h("tr", { class: seat.role === "werewolf" ? "wolf-row" : null },
          h("th", { scope: "row" }, seat.name),
          h("td", {}, roleIcon(seat.role, 24), " ", ROLE_NAMES[seat.role] || seat.role),
          h("td", {}, h("code", {}, seat.card || "")),
          h("td", {}, seat.alive ? "alive" : "out")))),
    ),
  );
}

// The table screen tells the night's script as a moderator would: one line at a time, each
// with its pause (the phase's time shared out, between 3 and 8 seconds a line), the line being
// said large, the lines said before it small, the lines still to come not yet shown. In the
// app the pacer (js/pacer.js) keeps the line shown and the voice in step.
const PACE_MIN = 3;
const PACE_MAX = 8;

/** The phase's script as the pacer follows it: a key, the lines, the seconds each line gets. */
function script(view, { match, deadline }) {
  const lines = view.narration || [];
  if (!lines.length || view.phase === "end") return null;
  const key = [match, view.phase, view.day, view.round, lines.join("\n")].join("|");
  const total = deadline && deadline.seconds ? deadline.seconds : lines.length * PACE_MIN;
  return { key, lines, pace: Math.min(PACE_MAX, Math.max(PACE_MIN, total / (lines.length + 1))) };
}

function pacedNarration(ctx, lines) {
  const view = ctx.view;
  const paced = script(view, ctx);
  if (!paced) return h("ol", { class: "narration" });
  let at;
  if (ctx.paced) at = ctx.paced(paced);
  else {
    // drawn on its own (no app around it): the time alone paces the lines
    const local = ctx.local;
    const now = Date.now() / 1000;
    if (!local.narr || local.narr.key !== paced.key) local.narr = { key: paced.key, start: now };
    at = Math.min(lines.length - 1, Math.floor((now - local.narr.start) / paced.pace));
    clearTimeout(local.narrTimer);
    if (at < lines.length - 1) local.narrTimer = setTimeout(() => ctx.rerender(), Math.max(50, (local.narr.start + (at + 1) * paced.pace - now) * 1000 + 20));
  }
  return h(
    "ol",
    { class: "narration paced", "aria-live": "polite" },
    lines.slice(0, at + 1).map((line, i) => h("li", { class: i === at ? "current" : "said", "aria-current": i === at ? "step" : null }, line)),
  );
}

function tablePanel(ctx) {
  const view = ctx.view;
  return h(
    "section",
    { class: "panel table-narration", "aria-labelledby": "narr-title" },
    h("h2", { id: "narr-title", class: "visually-hidden" }, "Narration"),
    pacedNarration(ctx, view.narration || []),
    view.ballot ? h("p", { class: "progress big" }, `${view.ballot.cast} of ${view.ballot.voters} have voted.`) : null,
  );
}

// -- the renderer --------------------------------------------------------------------------------------------

function render(ctx) {
  const view = ctx.view;
  const you = view.you;
  const parts = [h("h1", { class: "phase-title" }, phaseTitle(view))];
  if (view.phase === "end") {
    parts.push(ending(ctx), announcements(ctx), village(ctx));
    return h("div", { class: "werewolf" }, parts);
  }
  if (ctx.isTable || !you) {
    parts.push(tablePanel(ctx), announcements(ctx), view.phase === "discussion" ? talkPanel(ctx) : null, village(ctx));
    if (!ctx.isTable) parts.splice(1, 0, h("p", { class: "lead" }, "You are watching: you see only what is public."));
    return h("div", { class: "werewolf" }, parts);
  }
  if (ctx.hidden) {
    // The same screen for every role: what is private waits behind "Show my screen".
    parts.push(roleCard(ctx, you));
    if (view.phase === "night")
      parts.push(h("section", { class: "panel sleep-panel", "aria-labelledby": "act-title" }, h("h2", { id: "act-title" }, "The night"),
        h("p", {}, you.alive ? "Show your screen when nobody can see it: to see your card and whether you have something to do tonight." : "You are out.")));
    else {
      if (!you.alive) parts.push(h("p", { class: "lead" }, "You are out."));
      parts.push(announcements(ctx));
      if (view.phase === "discussion") parts.push(discussionPanel(ctx), talkPanel(ctx));
      if (view.ballot) parts.push(ballotPanel(ctx, you));
    }
    parts.push(village(ctx));
    return h("div", { class: "werewolf" }, parts);
  }
  // What you must do now comes first; your card follows.
  const card = roleCard(ctx, you);
  if (!ctx.legal.length) parts.push(card);
  const other = otherActions(ctx);
  if (other) parts.push(other);
  if (!you.alive) parts.push(openEyes(ctx));
  else if (view.phase === "night") {
    if (you.role === "werewolf" && (ctx.legalNamed("pick").length || you.locked !== null)) parts.push(wolfPanel(ctx, you));
    else if (you.role === "seer") parts.push(seerPanel(ctx, you));
    else if (you.role === "guardian") parts.push(guardianPanel(ctx, you));
    else if (!other) parts.push(sleepPanel(ctx));
  }
  if (view.phase !== "night") parts.push(announcements(ctx));
  if (view.phase === "discussion") parts.push(discussionPanel(ctx), talkPanel(ctx));
  if (view.ballot) parts.push(ballotPanel(ctx, you));
  if (ctx.legal.length) parts.push(card);
  parts.push(village(ctx));
  return h("div", { class: "werewolf" }, parts);
}

function cues(prev, view, events) {
  const out = [];
  const types = new Set(events.map((e) => e.type));
  if (view.phase === "night" && (!prev || prev.phase !== "night")) out.push("howl");
  if (prev && prev.phase === "night" && view.phase !== "night") out.push("rooster");
  if (types.has("ballot_open")) out.push("chime");
  if (types.has("game_over")) out.push("win");
  return out;
}

export default {
  id: "werewolf",
  render,
  privacy: true,
  cues,
  mood: (view) => (view.phase === "night" ? "night" : view.phase === "end" ? "dusk" : "day"),
  // view.narration is the same for every viewer (tested in tests/games/werewolf), so the
  // host's phone may read the opening night script aloud from its own view.
  narrationIsPublic: true,
  script,
  // The host's one move of the game, ending the discussion, comes before the village.
  hostFirst: true,
  hostLabel: (action) => (action.name === "end_discussion" ? "End the discussion now" : `${action.name} ${action.args.join(" ")}`),
  timerLabel: (deadline) => ({ night: "Dawn in", discussion: "Discussion ends in", vote: "The ballot closes in", revote: "The revote closes in", hunt: "The Hunter's shot ends in", election: "The election closes in", badge: "The badge is lost in" })[deadline.label] || deadline.label,
};
