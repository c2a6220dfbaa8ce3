// Pieces shared by every screen: countdowns, toasts, presence, player chips, buttons.

import { h } from "./dom.js";

/** Seconds → "2:05" (or "0:07"). */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A countdown to a server deadline; the app's ticker keeps its text current. */
export function countdown(deadline, { big = false, label } = {}) {
  if (!deadline) return null;
  const text = label || deadline.label || "time left";
  const node = h(
    "div",
    { class: ["countdown", big && "countdown-big"], role: "timer", "aria-label": `${text}: time left` },
    h("span", { class: "countdown-label" }, text),
    h("span", { class: "countdown-time", "data-deadline": deadline.at === null ? "paused" : String(deadline.at), "data-seconds": String(deadline.seconds) }, deadline.at === null ? "paused" : ""),
    h("span", { class: "countdown-bar", "aria-hidden": "true" }, h("span", { class: "countdown-fill" })),
  );
  return node;
}

export function toast(text, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("p", { class: `toast toast-${kind}` }, text);
  box.appendChild(item);
  setTimeout(() => item.remove(), kind === "error" ? 7000 : 4000);
}

/** How a seat's presence reads, in words (never by colour alone). */
export function presence(seatEntry) {
  if (!seatEntry) return null;
  if (seatEntry.bot) return { cls: "bot", text: "bot" };
  if (!seatEntry.participant) return { cls: "empty", text: "empty seat" };
  if (seatEntry.stand_in) return { cls: "stand-in", text: "away · a bot plays for now" };
  if (!seatEntry.connected) return { cls: "away", text: "away" };
  return { cls: "here", text: "here" };
}

export function presenceTag(seatEntry) {
  const p = presence(seatEntry);
  if (!p) return null;
  return h("span", { class: `presence presence-${p.cls}` }, h("span", { class: "dot", "aria-hidden": "true" }), p.text);
}

export function button(label, onClick, { cls = "", disabled = false, key, pressed, describedBy, aria, action } = {}) {
  return h(
    "button",
    {
      type: "button",
      class: ["btn", cls],
      disabled,
      "data-key": key,
      "data-action": action,
      "aria-pressed": pressed === undefined ? null : String(pressed),
      "aria-describedby": describedBy,
      "aria-label": aria,
      on: { click: onClick },
    },
    label,
  );
}

export function section(title, { cls = "", level = 2, id } = {}, ...children) {
  return h("section", { class: ["panel", cls], "aria-labelledby": id }, h(`h${level}`, { id }, title), children);
}

let uid = 0;
export function nextId(prefix = "id") {
  uid += 1;
  return `${prefix}-${uid}`;
}
