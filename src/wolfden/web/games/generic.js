// Any game without its own renderer: its view as a readable list, its legal actions as buttons.
// Everything shown comes from this viewer's view, so it shows nothing the viewer may not know.

import { h } from "../js/dom.js";
import { humanize } from "../js/options.js";

function valueNode(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (typeof value !== "object") return String(value);
  if (depth > 3) return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return value.map(String).join(", ") || "—";
    return h("ol", {}, value.map((v) => h("li", {}, valueNode(v, depth + 1))));
  }
  return h("dl", { class: "kv" }, Object.entries(value).map(([k, v]) => [h("dt", {}, humanize(k)), h("dd", {}, valueNode(v, depth + 1))]));
}

export function actionLabel(action) {
  return [humanize(action.name), ...action.args.map(String)].join(" ");
}

function render(ctx) {
  const view = ctx.view || {};
  return h(
    "div",
    { class: "generic" },
    h("h1", { class: "phase-title" }, view.phase ? humanize(String(view.phase)) : "The game"),
    ctx.legal.length
      ? h(
          "section",
          { class: "panel action-panel", "aria-labelledby": "gen-act" },
          h("h2", { id: "gen-act" }, "Your move"),
          h("div", { class: "target-grid" }, ctx.legal.map((a) =>
            h("button", { type: "button", class: "btn target", disabled: ctx.busy, "data-action": [a.name, ...a.args].join(" "), "data-key": `g-${a.name}-${a.args.join("-")}`, on: { click: () => ctx.act(a) } }, actionLabel(a)))),
        )
      : null,
    h("section", { class: "panel", "aria-labelledby": "gen-view" }, h("h2", { id: "gen-view" }, "What you see"), valueNode(view)),
  );
}

export default {
  id: "generic",
  render,
  hostLabel: actionLabel,
  mood: (view) => (view && /night/.test(String(view.phase || view.time || "")) ? "night" : "day"),
};
