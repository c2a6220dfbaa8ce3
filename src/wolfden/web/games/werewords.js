// Werewords: the Mayor's word choice, each role's night screen, the day with the question log,
// the Mayor's tokens with what remains, both endings with their timers, Whoops and Play Again,
// and the shared device's screens in companion mode.

import { h, setVar } from "../js/dom.js";
import { humanize } from "../js/options.js";
import { button } from "../js/ui.js";

const ROLE_NAMES = {
  villager: "Villager",
  seer: "Seer",
  fortune_teller: "Fortune Teller",
  apprentice: "Apprentice",
  werewolf: "Werewolf",
  minion: "Minion",
  mason: "Mason",
  thing: "Thing",
  beholder: "Beholder",
  doppelganger: "Doppelgänger",
};
const STEP_TITLES = {
  doppelganger: "the Doppelgänger",
  mayor_role: "the Mayor's secret role",
  mayor_word: "the Mayor chooses the word",
  mayor_confirm: "the Mayor confirms the word",
  seer: "the Seer",
  fortune_teller: "the Fortune Teller",
  apprentice: "the Apprentice",
  werewolves: "the Werewolves",
  minion: "the Minion",
  masons: "the Masons",
  beholder: "the Beholder",
  thing: "the Thing",
};
const TOKEN_NAMES = { yes: "Yes", no: "No", maybe: "Maybe", so_close: "So close", way_off: "Way way off", correct: "Correct" };
const TOKEN_MARKS = { yes: "✓", no: "✗", maybe: "?", so_close: "≈", way_off: "⇹", correct: "★" };
const SUPPLY_OF = { yes: "yes_no", no: "yes_no", maybe: "maybe", so_close: "so_close", way_off: "way_off", correct: "correct" };
const SUPPLY_NAMES = { yes_no: "Yes/No", maybe: "Maybe", so_close: "So close", way_off: "Way way off", correct: "Correct" };
const TEAM_NAMES = { village: "The village wins", werewolves: "The Werewolf team wins", werewolf: "The Werewolf team wins" };

function roleName(role) {
  return ROLE_NAMES[role] || humanize(String(role));
}

function nameOf(ctx, seat) {
  if (seat === null || seat === undefined) return "nobody";
  const entry = ctx.seatInfo(seat);
  return (entry && entry.name) || `Seat ${seat + 1}`;
}

function tokenBadge(token) {
  return h("span", { class: `token token-${token}` }, h("span", { "aria-hidden": "true" }, TOKEN_MARKS[token] || "•"), " ", TOKEN_NAMES[token] || token);
}

function title(view) {
  switch (view.phase) {
    case "claim_mayor":
      return "Who holds the Mayor card?";
    case "night":
      return `Night: ${STEP_TITLES[view.step] || view.step}`;
    case "day":
      return "Day: ask the Mayor";
    case "pointing":
      return "The word was found!";
    case "discussion":
      return "The word stayed hidden";
    case "voting":
      return "Point at a Werewolf";
    case "report":
      return "Who was found?";
    case "result":
      return `Round ${view.round} is over`;
    default:
      return "The game is over";
  }
}

function noteLine(ctx, note, you) {
  const v = note.value;
  const names = (seats) => (seats.length ? seats.map((s) => nameOf(ctx, s)).join(", ") : "nobody");
  switch (note.kind) {
    case "word":
      return ["The Magic Word: ", h("strong", { class: "magic-word" }, String(v))];
    case "letters":
      return ["The Magic Word begins: ", h("strong", { class: "magic-word" }, String(v))];
    case "werewolves":
      return you && (you.role_now || you.role) === "werewolf" ? (v.length ? `The other Werewolves: ${names(v)}.` : "You are the only Werewolf.") : `The Werewolves: ${names(v)}.`;
    case "masons":
      return v.length ? `The other Mason: ${names(v)}.` : "You are the only Mason.";
    case "seers":
      return v.length ? v.map(([s, role]) => `${nameOf(ctx, s)} is the ${roleName(role)}.`).join(" ") : "Nobody holds the Seer's knowledge.";
    case "mayor_is_seer":
      return v ? "The Mayor is the Seer: the word is yours, and you count as the Seer." : "The Mayor is not the Seer: you are a Villager this round.";
    case "thing":
      return `${nameOf(ctx, v)} bumped you: they are the Thing.`;
    case "bumped":
      return `You bumped ${nameOf(ctx, v)}.`;
    case "copied":
      return `You looked at ${nameOf(ctx, v[0])}'s card: you are now the ${roleName(v[1])}.`;
    default:
      return `${humanize(note.kind)}: ${JSON.stringify(v)}`;
  }
}

function cardPanel(ctx) {
  const view = ctx.view;
  const you = view.you;
  if (!you) return null;
  const role = you.role_now || you.role;
  if (ctx.hidden)
    return h(
      "section",
      { class: "panel card-panel", "aria-labelledby": "ww-card" },
      h("div", { class: "panel-head" }, h("h2", { id: "ww-card" }, "Your card"), button("Show my card", () => ctx.reveal(), { cls: "btn-small", key: "card-toggle" })),
      you.mayor ? h("p", { class: "role-kind" }, "You are the Mayor.") : null,
      h("div", { class: "role-card role-hidden" }, h("p", {}, "Your card and what you know are hidden. Show them when nobody else can see your screen.")),
    );
  return h(
    "section",
    { class: "panel card-panel", "aria-labelledby": "ww-card" },
    h("h2", { id: "ww-card" }, "Your card"),
    h(
      "div",
      { class: `role-card role-${role || "unknown"}` },
      h(
        "div",
        { class: "role-card-text" },
        you.mayor ? h("p", { class: "role-kind" }, "You are the Mayor.", you.role ? " Your secret role:" : "") : null,
        role ? h("p", { class: "role-name" }, roleName(role)) : h("p", {}, "Your card is the one in your hand."),
        you.role_now && you.role && you.role_now !== you.role ? h("p", { class: "hint" }, `Dealt as ${roleName(you.role)}.`) : null,
        you.notes && you.notes.length ? h("ul", { class: "notes" }, you.notes.map((n) => h("li", {}, noteLine(ctx, n, you)))) : null,
      ),
    ),
  );
}

function wordPanel(ctx) {
  const view = ctx.view;
  const parts = [];
  if (view.word && !ctx.hidden && !(view.you && view.you.notes && view.you.notes.some((n) => n.kind === "word")))
    parts.push(h("p", { class: "word-line" }, "The Magic Word: ", h("strong", { class: "magic-word" }, view.word)));
  if (view.pattern) parts.push(h("p", { class: "pattern", "aria-label": `The word's letter pattern: ${view.pattern.length} characters` }, view.pattern.split("").join(" ")));
  if (view.clues && view.clues.length) parts.push(h("p", {}, "The Werewolves' clues: ", view.clues.join(", ")));
  if (!parts.length) return null;
  return h("section", { class: "panel word-panel" }, parts);
}

function actionButtons(ctx, actions, label, { cls = "", describe, grid = "" } = {}) {
  return h(
    "div",
    { class: ["target-grid", grid] },
    actions.map((a) =>
      h(
        "button",
        {
          type: "button",
          class: ["btn", "target", cls],
          disabled: ctx.busy,
          "data-action": [a.name, ...a.args].join(" "),
          "data-key": `ww-${a.name}-${a.args.join("-")}`,
          on: { click: () => ctx.act(a) },
        },
        label(a),
        describe ? h("span", { class: "target-note" }, describe(a)) : null,
      ),
    ),
  );
}

function nightPanel(ctx) {
  const view = ctx.view;
  const you = view.you || {};
  const steps = h(
    "ol",
    { class: "night-steps" },
    view.night.map((s) => h("li", { class: s === view.step ? "current" : null, "aria-current": s === view.step ? "step" : null }, STEP_TITLES[s] || s)),
  );
  const legal = ctx.legal;
  let body;
  if (ctx.hidden) body = h("p", {}, "Show your screen when nobody can see it: it tells you when you are called.");
  else if (!legal.length) body = h("p", {}, "Close your eyes until you are called.");
  else {
    const name = legal[0].name;
    if (name === "choose")
      body = [h("p", {}, "Choose the Magic Word:"), actionButtons(ctx, legal, (a) => h("span", { class: "target-name magic-word" }, (you.choices || [])[a.args[0]] || `word ${a.args[0] + 1}`), { grid: "word-choices" })];
    else if (name === "confirm" || name === "back")
      body = [h("p", {}, "Your Magic Word: ", h("strong", { class: "magic-word" }, view.word || "")), actionButtons(ctx, legal, (a) => (a.name === "confirm" ? "Keep this word" : "Choose again"))];
    else if (name === "secret")
      body = [h("p", {}, "Tap your secret role (the card you drew):"), actionButtons(ctx, legal, (a) => roleName(a.args[0]))];
    else if (name === "copy")
      body = [h("p", {}, "Look at another player's card; you become that role:"), actionButtons(ctx, legal, (a) => nameOf(ctx, a.args[0]))];
    else if (name === "bump")
      body = [
        h("p", {}, "Bump one neighbour: they learn that you are the Thing."),
        actionButtons(ctx, legal, (a) => `${a.args[0] === "left" ? "Left" : "Right"}: ${nameOf(ctx, (you.seat + (a.args[0] === "left" ? view.players - 1 : 1)) % view.players)}`),
      ];
    else if (name === "clue" || name === "no_clue") body = cluePanel(ctx);
    else if (name === "ok") body = [h("p", {}, "This is what the night shows you (see your card). Then close your eyes."), actionButtons(ctx, legal, () => "I have seen it")];
    else body = actionButtons(ctx, legal, (a) => humanize(a.name));
  }
  return h("section", { class: "panel action-panel", "aria-labelledby": "ww-night" }, h("h2", { id: "ww-night" }, "The night"), steps, body);
}

function cluePanel(ctx) {
  if (!ctx.can("clue", "?")) {
    const samples = ctx.legalNamed("clue");
    return [
      h("p", {}, "Choose a clue word for the village (not the Magic Word), or give none."),
      actionButtons(ctx, [...samples, ...ctx.legalNamed("no_clue")], (a) => (a.name === "clue" ? a.args[0] : "No clue")),
    ];
  }
  const form = h("form", { class: "ask-form" });
  const input = h("input", { type: "text", id: "clue-text", maxlength: "40", autocomplete: "off", "data-key": "clue-text", required: true });
  form.append(
    h("label", { for: "clue-text" }, "Your clue: one word, not the Magic Word"),
    input,
    h("div", { class: "row" }, h("button", { type: "submit", class: "btn btn-primary", disabled: ctx.busy }, "Give this clue"), ctx.can("no_clue") ? button("No clue", () => ctx.act({ name: "no_clue", args: [] }), { key: "no-clue" }) : null),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) ctx.act({ name: "clue", args: [text] }).then((ok) => ok && (input.value = ""));
  });
  return form;
}

function tokensPanel(ctx) {
  const view = ctx.view;
  const t = view.tokens;
  return h(
    "section",
    { class: "panel tokens-panel", "aria-labelledby": "ww-tokens" },
    h("h2", { id: "ww-tokens" }, "Tokens left"),
    h("ul", { class: "token-counts" }, Object.entries(t).map(([k, n]) => h("li", { class: n === 0 ? "empty" : null }, SUPPLY_NAMES[k] || k, ": ", h("strong", {}, String(n))))),
    t.yes_no === 0 ? h("p", { class: "notice" }, "No more Yes/No tokens.") : null,
    view.table_way_off ? h("p", {}, `Way way off on the table: ${view.table_way_off}`) : null,
  );
}

function questionLog(ctx) {
  const view = ctx.view;
  const questions = view.questions || [];
  const mayor = view.you && view.you.mayor;
  const answers = ctx.legalNamed("answer");
  return h(
    "section",
    { class: "panel questions", "aria-labelledby": "ww-q" },
    h("h2", { id: "ww-q" }, "Questions"),
    questions.length
      ? h(
          "ol",
          { class: "question-list", reversed: true },
          [...questions].reverse().map((q) => {
            const mine = answers.filter((a) => a.args[0] === q.id);
            return h(
              "li",
              { class: ["question", q.answer ? "answered" : "open"] },
              h("span", { class: "asker" }, nameOf(ctx, q.seat), ": "),
              h("span", { class: "q-text" }, q.text),
              " ",
              q.answer ? tokenBadge(q.answer) : h("span", { class: "waiting" }, mayor && mine.length ? "on your token pad" : "waiting for the Mayor"),
            );
          }),
        )
      : h("p", { class: "muted" }, view.typed_questions && view.mode !== "companion" ? "No questions yet." : "Questions are asked aloud."),
  );
}

function remaining(ctx, token) {
  return ctx.view.tokens[SUPPLY_OF[token]];
}

function tokenButton(ctx, action, token) {
  const left = remaining(ctx, token);
  return h(
    "button",
    {
      type: "button",
      class: ["btn", "token-btn", `token-${token}`],
      disabled: ctx.busy,
      "data-action": [action.name, ...action.args].join(" "),
      "data-key": `ww-${action.name}-${action.args.join("-")}`,
      on: { click: () => ctx.act(action) },
    },
    h("span", { class: "pad-mark", "aria-hidden": "true" }, TOKEN_MARKS[token]),
    h("span", { class: "pad-name" }, TOKEN_NAMES[token]),
    h("span", { class: "count", "aria-label": `${left} left` }, String(left)),
  );
}

/** The Mayor's screen, like the physical tokens: the question being answered on top (the oldest
 * typed question waiting, or a spoken question from the player chosen), one large pad of tokens
 * below with what is left of each on its button. */
function mayorPanel(ctx) {
  const view = ctx.view;
  const gives = ctx.legalNamed("give");
  const answers = ctx.legalNamed("answer");
  const wayoff = ctx.legalNamed("wayoff");
  const companionCorrect = ctx.legalNamed("correct");
  if (!gives.length && !answers.length && !wayoff.length && !ctx.can("no_more_tokens") && !companionCorrect.length) return null;
  const waiting = (view.questions || []).filter((q) => !q.answer && answers.some((a) => a.args[0] === q.id));
  const question = waiting[0];
  const players = [...new Set(gives.map((a) => a.args[0]))];
  const chosen = players.includes(ctx.local.giveTo) ? ctx.local.giveTo : players[0];
  // A question asked aloud can be answered while typed ones wait: the Mayor switches the pad.
  const spoken = players.length && (!question || ctx.local.spokenPad);
  const switchTo = (on) => () => { ctx.local.spokenPad = on; ctx.rerender(); };
  let top = null;
  let keys = [];
  let switcher = null;
  if (question && !spoken) {
    top = h(
      "div",
      { class: "pad-question", role: "status" },
      h("p", { class: "pad-asker" }, `${nameOf(ctx, question.seat)} asks`, waiting.length > 1 ? h("span", { class: "muted" }, ` · ${waiting.length - 1} more waiting`) : null),
      h("p", { class: "pad-text" }, question.text),
    );
    if (players.length) switcher = button("Answer a question asked aloud instead", switchTo(true), { cls: "btn-small", key: "pad-spoken" });
    keys = answers.filter((a) => a.args[0] === question.id);
    const unclear = ctx.legalNamed("unclear").find((a) => a.args[0] === question.id);
    if (unclear && !switcher) switcher = button("Unclear: a Maybe, and ask from the list", () => ctx.act(unclear), { cls: "btn-small", key: "pad-unclear", disabled: ctx.busy });
  } else if (spoken) {
    const select = h(
      "select",
      { id: "give-to", "data-key": "give-to", on: { change: () => { ctx.local.giveTo = Number(select.value); ctx.rerender(); } } },
      players.map((s) => h("option", { value: String(s), selected: s === chosen }, nameOf(ctx, s))),
    );
    top = h(
      "div",
      { class: "pad-question field" },
      h("label", { for: "give-to" }, "A question asked aloud by"),
      select,
    );
    if (question) switcher = button(`Back to ${nameOf(ctx, question.seat)}'s typed question`, switchTo(false), { cls: "btn-small", key: "pad-typed" });
    keys = gives.filter((a) => a.args[0] === chosen);
  }
  const target = question && !spoken ? question.seat : chosen;
  return h(
    "section",
    { class: "panel action-panel mayor-panel", "aria-labelledby": "ww-mayor" },
    h("h2", { id: "ww-mayor" }, "Mayor: answer with a token"),
    top,
    keys.length ? h("div", { class: "token-pad", role: "group", "aria-label": "Tokens" }, keys.map((a) => tokenButton(ctx, a, a.args[a.args.length - 1]))) : null,
    switcher,
    wayoff.length
      ? h("div", { class: "wayoff" }, h("p", {}, `Way way off (${remaining(ctx, "way_off")} left): when the guesses are far from the word.`),
          h("div", { class: "row" }, wayoff.filter((a) => a.args[0] === "table" || a.args[0] === target).map((a) =>
            h("button", { type: "button", class: "btn", disabled: ctx.busy, "data-action": `wayoff ${a.args[0]}`, "data-key": `ww-wayoff-${a.args[0]}`, on: { click: () => ctx.act(a) } }, a.args[0] === "table" ? "Way way off: to the table" : `Way way off: to ${nameOf(ctx, a.args[0])}`))))
      : null,
    companionCorrect.length ? [h("p", {}, "Correct! Who guessed it?"), actionButtons(ctx, companionCorrect, (a) => nameOf(ctx, a.args[0]))] : null,
    ctx.can("no_more_tokens") ? button("No more Yes/No tokens", () => ctx.act({ name: "no_more_tokens", args: [] }), { key: "no-more" }) : null,
  );
}

/** A person typing holds a place on the floor: the room hears of it now and then while the
 * draft grows, and when it is gone. */
function holdPlace(ctx, text) {
  if (!ctx.drafting) return;
  const now = Date.now();
  const local = ctx.local;
  if (text.trim()) {
    if (!local.draftSentAt || now - local.draftSentAt > 10000) {
      local.draftSentAt = now;
      ctx.drafting(true);
    }
  } else if (local.draftSentAt) {
    local.draftSentAt = 0;
    ctx.drafting(false);
  }
}

// The questions from the list (games/werewords/questions.py): each kind, its action, the label
// of its button and the question as the log words it. A bot Mayor answers these by their truth.
const CATEGORY_TITLES = {
  animals: "Animals",
  food: "Food and drink",
  screen: "Movies and TV",
  sports: "Sports and games",
  places: "Places",
  home: "Things at home",
  jobs: "Jobs and people",
  nature: "Nature and weather",
  science: "Science and technology",
  music: "Music",
  transport: "Transport",
  clothing: "Clothing",
  actions: "Actions and ideas",
  body: "Body and health",
  fantasy: "Fairy tales and fantasy",
  school: "School and office",
};
const ASK_KINDS = [
  { kind: "text", label: "Own words" },
  { kind: "word", label: "Is it …?" },
  { kind: "category", label: "Category" },
  { kind: "starts", label: "Starts with" },
  { kind: "contains", label: "Contains" },
  { kind: "more", label: "More than" },
  { kind: "fewer", label: "Fewer than" },
  { kind: "one_word", label: "One word?" },
];
const LETTERS = "abcdefghijklmnopqrstuvwxyz".split("");
const LENGTHS = Array.from({ length: 20 }, (_, i) => i + 1);
const MAX_GUESS = 40;

function categoryTitle(id) {
  return CATEGORY_TITLES[id] || humanize(String(id));
}

/** The question as the log will show it (the rules' own wording), or null while incomplete. */
function askText(kind, arg) {
  switch (kind) {
    case "word":
      return arg ? `Is it "${arg}"?` : null;
    case "category":
      return arg ? `Is it in the category "${categoryTitle(arg)}"?` : null;
    case "starts":
      return arg ? `Does it start with "${arg}"?` : null;
    case "contains":
      return arg ? `Does it contain "${arg}"?` : null;
    case "more":
      return `Has it more than ${arg} letters?`;
    case "fewer":
      return `Has it fewer than ${arg} letters?`;
    case "one_word":
      return "Is it one word?";
    default:
      return arg ? String(arg) : null;
  }
}

/** What the person is putting together: kept in the page's local state, so a new view, a
 * question from someone else or a switch between kinds never throws it away. */
function askDraft(ctx) {
  // one draft per seat: on a device several players share, nobody finds another's draft
  const drafts = (ctx.local.asks = ctx.local.asks || {});
  const seat = ctx.view.you.seat;
  if (!drafts[seat]) drafts[seat] = { kind: "text", text: "", word: "", category: null, starts: null, contains: null, more: 5, fewer: 8 };
  return drafts[seat];
}

/** The arguments the rules offer for each kind (remembered, so the choices stay on screen
 * while another question waits for the Mayor and nothing may be asked). */
function askOptions(ctx) {
  const legal = (name) => ctx.legalNamed(name).map((a) => a.args[0]);
  const fresh = { category: legal("ask_category"), starts: legal("ask_starts"), contains: legal("ask_contains"), more: legal("ask_more"), fewer: legal("ask_fewer") };
  if (fresh.category.length) ctx.local.askOptions = fresh;
  return ctx.local.askOptions || { category: Object.keys(CATEGORY_TITLES), starts: LETTERS, contains: LETTERS, more: LENGTHS, fewer: LENGTHS };
}

function choiceGrid(ctx, draft, kind, values, label, grid) {
  return h(
    "div",
    { class: ["ask-choices", grid], role: "group", "aria-label": kind === "category" ? "Categories" : kind === "starts" || kind === "contains" ? "Letters" : "Choices" },
    values.map((v) =>
      h(
        "button",
        {
          type: "button",
          class: ["btn", "ask-choice", draft[kind] === v ? "chosen" : null],
          "aria-pressed": String(draft[kind] === v),
          "data-key": `ask-${kind}-${v}`,
          "data-choice": String(v),
          on: { click: () => { draft[kind] = v; holdPlace(ctx, "x"); ctx.rerender(); } },
        },
        label(v),
      ),
    ),
  );
}

function stepper(ctx, draft, kind, values) {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const n = Math.min(hi, Math.max(lo, Number(draft[kind]) || lo));
  draft[kind] = n;
  const step = (d) => () => { draft[kind] = Math.min(hi, Math.max(lo, n + d)); holdPlace(ctx, "x"); ctx.rerender(); };
  return h(
    "div",
    { class: "ask-stepper", role: "group", "aria-label": "Number of letters" },
    h("button", { type: "button", class: "btn step", disabled: n <= lo, "data-key": `ask-${kind}-less`, "aria-label": "One letter less", on: { click: step(-1) } }, "−"),
    h("output", { class: "step-value", "aria-live": "polite", "data-value": String(n) }, `${n} letters`),
    h("button", { type: "button", class: "btn step", disabled: n >= hi, "data-key": `ask-${kind}-more`, "aria-label": "One letter more", on: { click: step(1) } }, "+"),
  );
}

/** This player's latest question, when the Mayor called it unclear (a Maybe, and "ask from the
 * list"): the asking screen says so until the next question is sent. */
function unclearMine(ctx) {
  const view = ctx.view;
  const questions = view.questions || [];
  for (const e of ctx.events || []) {
    if (e.type !== "unclear") continue;
    const q = questions.find((x) => x.id === e.question);
    if (q && q.seat === view.you.seat) ctx.local.unclearId = q.id;
  }
  const mine = questions.filter((q) => q.seat === view.you.seat);
  const last = mine[mine.length - 1];
  return last && last.id === ctx.local.unclearId ? last : null;
}

function askForm(ctx) {
  const view = ctx.view;
  if (!view.you || view.you.mayor || !view.typed_questions || view.mode === "companion") return null;
  // The form stays while another question waits for its answer: a draft is never thrown away.
  const open = ctx.can("ask", "?");
  const mayorSeat = ctx.seatInfo(view.mayor);
  const botMayor = Boolean(mayorSeat && (mayorSeat.bot || mayorSeat.stand_in));
  const draft = askDraft(ctx);
  const options = askOptions(ctx);
  const kind = draft.kind;
  const unclear = unclearMine(ctx);

  let action = null; // what "Ask" sends for the kind chosen
  let body;
  if (kind === "text") {
    const input = h("input", {
      type: "text", id: "ask-text", maxlength: "140", autocomplete: "off", "data-key": `ask-text-${view.you.seat}`,
      placeholder: "Is it an animal?",
      value: draft.text || "",
      on: { input: () => { draft.text = input.value; holdPlace(ctx, input.value); sync(); } },
    });
    body = [
      h("label", { for: "ask-text" }, "Your yes/no question (up to 140 characters)"),
      input,
      botMayor
        ? h("p", { class: "hint bot-mayor-hint" }, "The Mayor is a bot. In your own words it understands a guess of the word (",
            h("q", {}, "Is it peach?"), ", ", h("q", {}, "peach?"), ") and a category (", h("q", {}, "Is it an animal?"),
            "); for anything else pick a question above. What it cannot judge gets Maybe.")
        : null,
    ];
    action = () => { const t = (draft.text || "").trim(); return t ? { name: "ask", args: [t] } : null; };
  } else if (kind === "word") {
    const input = h("input", {
      type: "text", id: "ask-guess", maxlength: String(MAX_GUESS), autocomplete: "off", autocapitalize: "none", "data-key": `ask-guess-${view.you.seat}`,
      placeholder: "peach",
      value: draft.word || "",
      on: { input: () => { draft.word = input.value; holdPlace(ctx, input.value); sync(); } },
    });
    body = [h("label", { for: "ask-guess" }, "Your guess of the word"), input];
    action = () => { const w = (draft.word || "").trim(); return w ? { name: "ask_word", args: [w] } : null; };
  } else if (kind === "category") {
    body = choiceGrid(ctx, draft, "category", options.category, categoryTitle, "ask-categories");
    action = () => (draft.category ? { name: "ask_category", args: [draft.category] } : null);
  } else if (kind === "starts" || kind === "contains") {
    body = choiceGrid(ctx, draft, kind, options[kind], (l) => l.toUpperCase(), "ask-letters");
    action = () => (draft[kind] ? { name: `ask_${kind}`, args: [draft[kind]] } : null);
  } else if (kind === "more" || kind === "fewer") {
    body = stepper(ctx, draft, kind, options[kind].length ? options[kind] : LENGTHS);
    action = () => ({ name: `ask_${kind}`, args: [draft[kind]] });
  } else {
    body = h("p", { class: "muted" }, "Whether the word is a single word, with no space in it.");
    action = () => ({ name: "ask_one_word", args: [] });
  }

  const preview = h("p", { class: "ask-preview", "aria-live": "polite" });
  const send = h("button", { type: "submit", class: "btn btn-primary ask-send", "data-key": "ask-send" }, "Ask");
  function sync() {
    const a = action();
    const text = a ? askText(kind, kind === "text" ? a.args[0] : a.args[0]) : null;
    preview.textContent = text ? `You ask: ${text}` : kind === "text" ? "Type your question." : "Choose what to ask.";
    // "Ask" is greyed only while the floor is not this player's (or the choice is not
    // offered); a question not yet complete says so when "Ask" is pressed.
    send.disabled = ctx.busy || !open || Boolean(a && !(a.name === "ask" || a.name === "ask_word" ? ctx.can(a.name, "?") : ctx.can(a.name, ...a.args)));
  }
  sync();

  const kinds = h(
    "div",
    { class: "ask-kinds", role: "group", "aria-label": "Kind of question" },
    ASK_KINDS.map(({ kind: k, label }) =>
      h("button", {
        type: "button",
        class: ["btn", "ask-kind", k === kind ? "chosen" : null],
        "aria-pressed": String(k === kind),
        "data-key": `ask-kind-${k}`,
        "data-kind": k,
        // a kind whose question is complete at once holds a place on the floor, as typing does
        on: { click: () => { draft.kind = k; if (["more", "fewer", "one_word"].includes(k)) holdPlace(ctx, "x"); ctx.rerender(); } },
      }, label),
    ),
  );
  const form = h(
    "form",
    { class: "panel ask-form", "aria-labelledby": "ww-ask" },
    h("h2", { id: "ww-ask" }, "Ask the Mayor"),
    h("p", { class: "hint" }, botMayor
      ? "Pick a question from the list: the bot Mayor answers each by its truth. Or ask in your own words."
      : "Pick a question from the list, or ask in your own words."),
    unclear
      ? h("p", { class: "notice ask-unclear", role: "status" }, "The Mayor could not judge ", h("q", {}, unclear.text),
          " and gave Maybe. A question from the list gets a true answer.")
      : null,
    kinds,
    h("div", { class: "ask-body" }, body),
    h("div", { class: "ask-send-row" }, preview, send),
    open ? null : h("p", { class: "muted", role: "status" }, "One question at a time: you can send yours when the Mayor has answered. What you type stays here, and so does what you pick."),
    h("p", { class: "hint" }, "While you choose or type, the bots wait: your question holds its place."),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const a = action();
    if (!a) {
      preview.textContent = kind === "text" ? "Type your question first." : kind === "word" ? "Type your guess first." : "Choose what to ask first.";
      return;
    }
    if (send.disabled) return;
    ctx.act(a).then((ok) => {
      if (!ok) return;
      if (kind === "text") {
        draft.text = "";
        const input = document.getElementById("ask-text"); // the one on screen now
        if (input) input.value = "";
      } else if (kind === "word") draft.word = "";
      else if (kind in draft && typeof draft[kind] === "string") draft[kind] = null;
      ctx.local.draftSentAt = 0; // the question sent ends the hold
      ctx.rerender();
    });
  });
  return form;
}

function receivedPanel(ctx) {
  const view = ctx.view;
  const rows = view.received.map((r, seat) => [seat, Object.entries(r).filter(([, n]) => n > 0)]).filter(([, list]) => list.length);
  if (!rows.length) return null;
  return h(
    "section",
    { class: "panel", "aria-labelledby": "ww-recv" },
    h("h2", { id: "ww-recv" }, "Tokens in front of players"),
    h("ul", { class: "plain" }, rows.map(([seat, list]) => h("li", {}, h("strong", {}, nameOf(ctx, seat)), ": ", list.map(([t, n], i) => [i ? ", " : "", tokenBadge(t), ` ×${n}`])))),
  );
}

function pointsPanel(ctx) {
  const view = ctx.view;
  const legal = ctx.legal;
  const parts = [];
  if (view.phase === "pointing") {
    parts.push(h("p", {}, `${nameOf(ctx, view.ending && view.ending.guesser)} found the word. The Werewolves now show their cards and point at who they think is the Seer.`));
    if (legal.length) parts.push(actionButtons(ctx, legal, (a) => nameOf(ctx, a.args[0])));
    const pointed = Object.entries(view.pointed || {});
    if (pointed.length) parts.push(h("ul", {}, pointed.map(([w, t]) => h("li", {}, `${nameOf(ctx, Number(w))} points at ${nameOf(ctx, t)}`))));
  } else if (view.phase === "discussion") {
    parts.push(h("p", {}, "Who is a Werewolf? Talk it over; the vote opens when the time is up or everyone is ready."));
    if (ctx.can("ready")) parts.push(button("I am ready to vote", () => ctx.act({ name: "ready", args: [] }), { cls: "btn-primary btn-wide", key: "ready" }));
    parts.push(h("p", { class: "muted" }, `Ready: ${(view.ready || []).map((s) => nameOf(ctx, s)).join(", ") || "nobody yet"}`));
  } else if (view.phase === "voting") {
    parts.push(h("p", {}, "Everyone, the Mayor too, points at one player. The most-pointed reveal their cards."));
    if (legal.length) parts.push(actionButtons(ctx, legal, (a) => nameOf(ctx, a.args[0])));
    else if (view.you) parts.push(h("p", { class: "result" }, "Your vote is in."));
    parts.push(h("p", { class: "muted" }, `Voted: ${(view.voted || []).length} of ${view.players}`));
  } else if (view.phase === "report") {
    const guessed = Boolean(view.ending && view.ending.guessed);
    parts.push(h("p", {}, guessed ? "The Werewolves pointed: did they find the Seer? Tap who was found." : "The village pointed: did they find a Werewolf? Tap who was found."));
    // The Mayor's own secret role is known here: a Mayor who is not the one sought (the Seer
    // when the word was found, else a Werewolf) cannot be the one found.
    const you = view.you || {};
    const mayorRole = you.mayor ? you.role_now || you.role : null;
    const sought = guessed ? "seer" : "werewolf";
    const offered = legal.filter((a) => !(a.name === "found" && mayorRole && a.args[0] === view.mayor && mayorRole !== sought));
    if (offered.length) parts.push(actionButtons(ctx, offered, (a) => (a.name === "found" ? nameOf(ctx, a.args[0]) : "Nobody was found")));
  } else if (view.phase === "claim_mayor") {
    parts.push(h("p", {}, "Whoever holds the Mayor card: show it and tap below."));
    if (ctx.can("claim")) parts.push(button("I have the Mayor card", () => ctx.act({ name: "claim", args: [] }), { cls: "btn-primary btn-wide", key: "claim" }));
  }
  if (!parts.length) return null;
  return h("section", { class: "panel action-panel", "aria-labelledby": "ww-end" }, h("h2", { id: "ww-end" }, view.phase === "pointing" ? "Werewolves: find the Seer" : view.phase === "claim_mayor" ? "The Mayor" : "Your part"), parts);
}

function resultPanel(ctx) {
  const view = ctx.view;
  const r = view.result;
  if (!r) return null;
  const legal = ctx.legal;
  return h(
    "section",
    { class: ["panel", "ending"], "aria-labelledby": "ww-result" },
    h("h2", { id: "ww-result" }, TEAM_NAMES[r.winning_team] || humanize(String(r.winning_team))),
    h("p", { class: "summary" }, r.reason ? r.reason.charAt(0).toUpperCase() + r.reason.slice(1) + "." : ""),
    view.word ? h("p", {}, "The Magic Word was ", h("strong", { class: "magic-word" }, view.word), ".") : null,
    r.found && r.found.length ? h("p", {}, `Found: ${r.found.map((s) => nameOf(ctx, s)).join(", ")}`) : null,
    resultsTable(ctx, r),
    legal.length ? h("div", { class: "row" }, legal.map((a) => button(againLabel(a), () => ctx.act(a), { cls: a.name === "play_again" && !a.args.length ? "btn-primary" : "", key: `ww-${a.name}-${a.args.join("-")}` }))) : null,
  );
}

const WEREWOLF_TEAM = new Set(["werewolf", "minion"]);

/** The round's results: one row per player, with the card as the view reveals it and whether
 * that player won. In companion mode the app knows only the cards it was told (the Mayor's):
 * the others are turned over at the table, and their rows say so. */
function resultsTable(ctx, r) {
  const view = ctx.view;
  const revealed = view.revealed || {};
  const winners = r.winning_team === "village" ? "village" : "werewolves";
  const rows = view.seats.map(({ seat }) => {
    const role = revealed[String(seat)];
    const team = role ? (WEREWOLF_TEAM.has(role) ? "werewolves" : "village") : null;
    return h(
      "tr",
      { "data-seat": String(seat) },
      h("th", { scope: "row" }, nameOf(ctx, seat), seat === view.mayor ? [" ", h("span", { class: "mayor-mark" }, "(Mayor)")] : null),
      h("td", { class: role ? null : "muted" }, role ? roleName(role) : "card not told to the app"),
      h("td", { class: team ? `outcome-${team === winners ? "won" : "lost"}` : "muted" }, team ? (team === winners ? "won" : "lost") : "see their card"),
    );
  });
  return h(
    "table",
    { class: "roles-table" },
    h("caption", {}, "Every card"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Card"), h("th", { scope: "col" }, "Result"))),
    h("tbody", {}, rows),
  );
}

function againLabel(a) {
  if (a.name === "play_again") return a.args.length ? `Play again: ${humanize(String(a.args[0]))}` : "Play again";
  if (a.name === "finish") return "Finish";
  return humanize(a.name);
}

/** A word as large as the screen allows, smaller the longer its longest word is: a phrase
 * may wrap between its words, a word is never broken. */
function bigWord(content, text) {
  const node = h("p", { class: "big-word" }, content);
  setVar(node, "--len", Math.max(...String(text).split(/\s+/).map((w) => w.length)));
  return node;
}

function companionScreen(ctx) {
  const screen = ctx.view.screen;
  if (!screen || !screen.for) return null;
  const who = STEP_TITLES[screen.for] || screen.for;
  const secret = screen.word || screen.letters || screen.mayor_is_seer !== undefined;
  const key = `comp-${ctx.view.round}-${ctx.view.step}`;
  if (ctx.device && secret && !ctx.local[key]) {
    // one shared device in the middle of the table: the secret waits for a tap with eyes open
    return h(
      "section",
      { class: "panel companion-screen", "aria-labelledby": "ww-comp" },
      h("h2", { id: "ww-comp" }, `${who.charAt(0).toUpperCase()}${who.slice(1)}: open your eyes`),
      h("p", {}, "Everyone else keeps their eyes closed."),
      button(`Show it (${who} only)`, () => { ctx.local[key] = true; ctx.rerender(); }, { cls: "btn-primary btn-wide", key: `comp-show-${key}` }),
    );
  }
  return h(
    "section",
    { class: "panel companion-screen", "aria-labelledby": "ww-comp" },
    h("h2", { id: "ww-comp" }, `Only ${who}: look now`),
    screen.word ? bigWord(h("strong", { class: "magic-word" }, screen.word), screen.word) : null,
    screen.letters ? bigWord(screen.letters, screen.letters) : null,
    screen.mayor_is_seer === false ? h("p", {}, "The Mayor is not the Seer.") : null,
    screen.choices ? h("p", {}, "The Mayor chooses on their phone.") : null,
  );
}

const SHOW_SECONDS = 10;

/** Companion mode's day: the shared device lies on the table where everyone sees it, so the
 * Mayor's word and card stay hidden until the Mayor taps to see them, and hide again by
 * themselves a few seconds later. */
function guardedDay(ctx) {
  const view = ctx.view;
  if (!ctx.device || view.mode !== "companion" || view.phase !== "day" || !(view.you && view.you.mayor)) return ctx;
  const local = ctx.local;
  const shown = (local.dayShownUntil || 0) > Date.now();
  return {
    ...ctx,
    hidden: !shown,
    reveal: () => {
      local.dayShownUntil = Date.now() + SHOW_SECONDS * 1000;
      clearTimeout(local.dayTimer);
      local.dayTimer = setTimeout(() => ctx.rerender(), SHOW_SECONDS * 1000 + 50);
      ctx.rerender();
    },
  };
}

function render(ctx) {
  const view = ctx.view;
  const parts = [
    h("h1", { class: "phase-title" }, title(view)),
    view.mayor !== null && view.mayor !== undefined ? h("p", { class: "lead" }, `Mayor: ${nameOf(ctx, view.mayor)} · difficulty: ${humanize(view.difficulty)}${view.mode === "companion" ? " · companion mode" : ""}`) : null,
  ];
  if (view.phase === "result" || view.phase === "over") {
    parts.push(resultPanel(ctx), cardPanel(ctx), questionLog(ctx));
    return h("div", { class: "werewords" }, parts);
  }
  if (ctx.isTable) parts.push(companionScreen(ctx));
  ctx = guardedDay(ctx);
  // By day the token pad and the questions come first, the card after them.
  parts.push(wordPanel(ctx), view.phase === "day" ? null : cardPanel(ctx));
  if (view.phase === "night" && !ctx.isTable) parts.push(nightPanel(ctx));
  if (view.phase === "night" && ctx.isTable) parts.push(h("section", { class: "panel" }, h("ol", { class: "night-steps" }, view.night.map((s) => h("li", { class: s === view.step ? "current" : null, "aria-current": s === view.step ? "step" : null }, STEP_TITLES[s] || s)))));
  parts.push(pointsPanel(ctx));
  if (view.phase === "day") parts.push(mayorPanel(ctx), askForm(ctx), cardPanel(ctx), tokensPanel(ctx), questionLog(ctx), receivedPanel(ctx));
  else if (view.phase !== "night") parts.push(tokensPanel(ctx), questionLog(ctx));
  return h("div", { class: "werewords" }, parts);
}

/** The host's controls: "Whoops" naming a guesser is one choice, not a button per player. */
function hostPanel(ctx) {
  const named = ctx.hostActions.filter((a) => a.name === "whoops" && a.args.length);
  const rest = ctx.hostActions.filter((a) => !(a.name === "whoops" && a.args.length) && !isMore(a));
  const out = rest.map((a) => button(hostLabel(a, ctx), () => ctx.hostAct(a), { cls: a.name === "next" ? "btn-primary" : "", key: `host-${a.name}-${a.args.join("-")}`, disabled: ctx.busy }));
  if (named.length) {
    const select = h("select", { id: "whoops-who", "data-key": "whoops-who", class: "small-select" }, named.map((a) => h("option", { value: String(a.args[0]) }, nameOf(ctx, a.args[0]))));
    out.push(
      h("span", { class: "row" },
        h("label", { for: "whoops-who" }, "Whoops, the word was guessed by"),
        select,
        button("Switch ending", () => ctx.hostAct({ name: "whoops", args: [Number(select.value)] }), { key: "whoops-named", disabled: ctx.busy })),
    );
  }
  return out;
}

/** A host action kept behind "More": playing again at another difficulty. */
function isMore(a) {
  return a.name === "play_again" && a.args.length > 0;
}

function hostMore(ctx) {
  return ctx.hostActions.filter(isMore).map((a) => button(hostLabel(a, ctx), () => ctx.hostAct(a), { key: `host-${a.name}-${a.args.join("-")}`, disabled: ctx.busy }));
}

function hostLabel(action, ctx) {
  switch (action.name) {
    case "next":
      return ctx.view.phase === "discussion" ? "Start the vote now" : "Next role";
    case "whoops":
      return action.args.length ? `Whoops: ${nameOf(ctx, action.args[0])} guessed it` : "Whoops: the word was not guessed";
    case "play_again":
    case "finish":
      return againLabel(action);
    case "clue":
      return `Clue: ${action.args[0]}`;
    default:
      return humanize(action.name);
  }
}

// The narrator's lines for the start of a round, as the rules say them when a round starts
// after another (games/werewords/narration.py); the first round's view comes without them.
const NIGHT_FALLS = "Night falls on the village. Everyone, close your eyes.";
const CLAIM = "Whoever holds the Mayor card, reveal it and tap to become the Mayor.";
const STEP_CALL = {
  doppelganger: "Doppelgänger, wake up and look at another player's role card. You become that role.",
  mayor_role: "Mayor, wake up and tap your secret role.",
  mayor_word: "Mayor, choose the Magic Word.",
  mayor_confirm: "Mayor, this is your Magic Word. Remember it, then close your eyes.",
  seer: "Seer, wake up and learn the Magic Word.",
  fortune_teller: "Fortune Teller, wake up and see how the Magic Word begins.",
  apprentice: "Apprentice, wake up. If the Mayor is the Seer, the Magic Word is yours.",
  werewolves: "Werewolves, wake up, find each other and learn the Magic Word.",
  minion: "Minion, wake up and see who the Werewolves are.",
  masons: "Masons, wake up and find each other.",
  beholder: "Beholder, wake up and see who knows the secret.",
  thing: "Thing, wake up and give a neighbour a bump.",
};

/** What the narrator says as the first round opens, from the first view. */
function opening(view, { name }) {
  if (view.phase === "claim_mayor") return [CLAIM];
  if (view.phase !== "night" || view.mayor === null || view.mayor === undefined) return null;
  const lines = [`${name(view.mayor)} holds the Mayor card and is the Mayor.`, NIGHT_FALLS];
  if (STEP_CALL[view.step]) lines.push(STEP_CALL[view.step]);
  return lines;
}

function cues(prev, view, events) {
  const out = [];
  const types = new Set(events.map((e) => e.type));
  if (view.phase === "night" && (!prev || prev.phase !== "night")) out.push("howl");
  if (prev && prev.phase === "night" && view.phase === "day") out.push("rooster");
  if (view.phase === "pointing" && prev && prev.phase !== "pointing") out.push("chime");
  if (view.phase === "result" && prev && prev.phase !== "result") out.push("win");
  if (types.has("question") || types.has("asked")) out.push("knock");
  return out;
}

export default {
  id: "werewords",
  render,
  privacy: true,
  cues,
  hostLabel,
  hostPanel,
  hostMore,
  opening,
  mood: (view) => (view.phase === "night" || view.phase === "claim_mayor" ? "night" : view.phase === "result" || view.phase === "over" ? "dusk" : "day"),
  timerLabel: (deadline) => humanize(String(deadline.label || "time left")),
};
