// Narration aloud through the browser's speech synthesis. Only ever called with PUBLIC lines
// (on a table screen, whose connection receives nothing private); private prompts are never spoken.

import { prefs } from "./store.js";

const synth = typeof window !== "undefined" && "speechSynthesis" in window ? window.speechSynthesis : null;

export function available() {
  return synth !== null;
}

export function voices() {
  return synth ? synth.getVoices() : [];
}

function pickVoice(p, lang) {
  const all = voices();
  if (p.voiceName) {
    const chosen = all.find((v) => v.name === p.voiceName);
    if (chosen) return chosen;
  }
  return all.find((v) => v.lang && v.lang.toLowerCase().startsWith(lang)) || null;
}

// One line is handed to the synthesizer at a time, the next only when it has ended: so a
// paced script (js/pacer.js) knows when its line has been said, and can stop its own lines
// without cutting anything else.
const queue = [];
let current = null;

function utterance(text, lang) {
  const p = prefs();
  const u = new SpeechSynthesisUtterance(text);
  u.volume = Number(p.voiceVolume);
  u.rate = Number(p.voiceRate) || 1;
  u.lang = lang;
  const voice = pickVoice(p, lang);
  if (voice) u.voice = voice;
  return u;
}

function pump() {
  while (!current && queue.length) {
    const item = queue.shift();
    if (!synth || !prefs().voice) {
      if (item.onend) item.onend();
      continue;
    }
    const u = utterance(item.text, item.lang);
    const entry = { item, u, guard: null };
    const finish = () => ended(entry);
    u.onend = finish;
    u.onerror = finish;
    // Some engines never say a line has ended (or stop after about 15 s): do not wait for
    // such a line longer than it could take to say.
    const rate = Number(prefs().voiceRate) || 1;
    entry.guard = setTimeout(finish, (6 + item.text.length * 0.12 / rate) * 1000);
    current = entry;
    synth.speak(u);
  }
}

function ended(entry) {
  if (current !== entry) return;
  clearTimeout(entry.guard);
  current = null;
  if (entry.item.onend) entry.item.onend();
  pump();
}

/** Say one line after whatever is being said; ``onend`` when it has been said (or could not
 * be). ``tag`` names the script it belongs to, for ``drop``. */
export function say(line, { lang = "en", tag = null, onend = null } = {}) {
  const text = String(line || "").trim();
  if (!text) {
    if (onend) onend();
    return;
  }
  queue.push({ text, lang, tag, onend });
  pump();
}

/** Speak public narration lines, in order, after whatever is being said. */
export function speak(lines, { lang = "en" } = {}) {
  if (!synth || !prefs().voice) return;
  for (const line of lines) say(line, { lang });
}

/** Stop the lines of one script: the one being said, if it is one of them, and those waiting. */
export function drop(tag) {
  for (let i = queue.length - 1; i >= 0; i--) if (queue[i].tag === tag) queue.splice(i, 1);
  if (current && current.item.tag === tag) {
    const entry = current;
    clearTimeout(entry.guard);
    current = null;
    entry.u.onend = entry.u.onerror = null;
    if (synth) synth.cancel();
    pump();
  }
}

export function hush() {
  queue.length = 0;
  if (current) {
    clearTimeout(current.guard);
    current.u.onend = current.u.onerror = null;
    current = null;
  }
  if (synth) synth.cancel();
}

export function onVoicesChanged(fn) {
  if (synth && "addEventListener" in synth) synth.addEventListener("voiceschanged", fn);
}
