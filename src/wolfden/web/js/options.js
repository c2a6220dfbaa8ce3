// A game's options as a form in plain words, generated from the metadata the server exposes
// (GET /api/games: name, type in words, default, help, choices, min, max).

import { h } from "./dom.js";

export function humanize(name) {
  const text = name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function sentence(help) {
  if (!help) return "";
  const text = help.charAt(0).toUpperCase() + help.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function kindOf(opt) {
  if (opt.choices) return "choice";
  const t = opt.type || "";
  if (t === "true or false") return "bool";
  if (t.startsWith("a whole number")) return "int";
  if (t.startsWith("a number")) return "float";
  if (t === "text" || t === "text or null") return "text";
  if (t.startsWith("a list")) return "list";
  return "json";
}

function show(value, kind) {
  if (value === null || value === undefined) return "";
  if (kind === "list") return value.map(String).join(", ");
  if (kind === "json") return JSON.stringify(value);
  return String(value);
}

function parseList(text) {
  return text
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "")
    .map((x) => (/^-?\d+$/.test(x) ? Number(x) : x));
}

/**
 * Build the form fields for `game` (a /api/games entry) showing `config`.
 * `spec` (from the game's renderer) may give `labels`, `hidden` (names not shown), `advanced`
 * (names put under "More options") and `describe(opt)` overrides.
 * Returns {node, read} where read() gives the config or throws an Error saying what is wrong.
 */
export function optionsForm(game, config, spec = {}, idPrefix = "opt") {
  const labels = spec.labels || {};
  const hidden = new Set(spec.hidden || []);
  const advanced = new Set(spec.advanced || []);
  const readers = [];
  const basic = [];
  const more = [];
  for (const opt of game.options) {
    if (hidden.has(opt.name)) continue;
    const kind = kindOf(opt);
    const nullable = (opt.type || "").endsWith("or null");
    const id = `${idPrefix}-${opt.name}`;
    const helpId = `${id}-help`;
    const current = config && opt.name in config ? config[opt.name] : opt.default;
    const label = labels[opt.name] || humanize(opt.name);
    const help = h("p", { class: "help", id: helpId }, sentence(opt.help), nullable ? " Leave empty for the usual." : "");
    let input;
    if (kind === "bool") {
      input = h("input", { type: "checkbox", id, name: opt.name, checked: Boolean(current), "aria-describedby": helpId, "data-key": id });
      (advanced.has(opt.name) ? more : basic).push(
        h("div", { class: "field field-check" }, input, h("label", { for: id }, label), help),
      );
      readers.push(() => [opt.name, input.checked]);
      continue;
    }
    if (kind === "choice") {
      input = h(
        "select",
        { id, name: opt.name, "aria-describedby": helpId, "data-key": id },
        opt.choices.map((c) => h("option", { value: String(c), selected: c === current }, humanize(String(c)))),
      );
      readers.push(() => {
        const raw = input.value;
        const match = opt.choices.find((c) => String(c) === raw);
        return [opt.name, match === undefined ? raw : match];
      });
    } else {
      const attrs = { id, name: opt.name, "aria-describedby": helpId, value: show(current, kind), autocomplete: "off", "data-key": id };
      if (kind === "int" || kind === "float") {
        Object.assign(attrs, { type: "number", inputmode: kind === "int" ? "numeric" : "decimal", step: kind === "int" ? "1" : "any" });
        if (opt.min !== undefined) attrs.min = opt.min;
        if (opt.max !== undefined) attrs.max = opt.max;
        if (nullable) attrs.placeholder = "usual";
      } else {
        attrs.type = "text";
        if (kind === "list") attrs.placeholder = "comma-separated";
      }
      input = h("input", attrs);
      readers.push(() => {
        const raw = input.value.trim();
        if (raw === "") {
          if (nullable) return [opt.name, null];
          if (kind === "list") return [opt.name, []];
          if (kind === "text") return [opt.name, ""];
          throw new Error(`${label}: please fill this in.`);
        }
        if (kind === "int" || kind === "float") {
          const n = Number(raw);
          if (!Number.isFinite(n) || (kind === "int" && !Number.isInteger(n)))
            throw new Error(`${label}: "${raw}" is not ${kind === "int" ? "a whole number" : "a number"}.`);
          if (opt.min !== undefined && n < opt.min) throw new Error(`${label}: at least ${opt.min}.`);
          if (opt.max !== undefined && n > opt.max) throw new Error(`${label}: at most ${opt.max}.`);
          return [opt.name, n];
        }
        if (kind === "list") return [opt.name, parseList(raw)];
        if (kind === "json") {
          try {
            return [opt.name, JSON.parse(raw)];
          } catch {
            throw new Error(`${label}: this is not readable; write it as JSON.`);
          }
        }
        return [opt.name, raw];
      });
    }
    (advanced.has(opt.name) ? more : basic).push(h("div", { class: "field" }, h("label", { for: id }, label), input, help));
  }
  const node = h(
    "div",
    { class: "options" },
    basic,
    more.length ? h("details", { class: "more-options", "data-key": `${idPrefix}-more` }, h("summary", {}, "More options"), more) : null,
  );
  function read() {
    const out = { ...(config || {}) };
    for (const r of readers) {
      const [name, value] = r();
      out[name] = value;
    }
    return out;
  }
  return { node, read };
}
