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

/** Speak public narration lines, in order, after whatever is being said. */
export function speak(lines, { lang = "en" } = {}) {
  const p = prefs();
  if (!synth || !p.voice) return;
  for (const line of lines) {
    const text = String(line || "").trim();
    if (!text) continue;
    const u = new SpeechSynthesisUtterance(text);
    u.volume = Number(p.voiceVolume);
    u.rate = Number(p.voiceRate) || 1;
    u.lang = lang;
    const voice = pickVoice(p, lang);
    if (voice) u.voice = voice;
    synth.speak(u);
  }
}

export function hush() {
  if (synth) synth.cancel();
}

export function onVoicesChanged(fn) {
  if (synth && "addEventListener" in synth) synth.addEventListener("voiceschanged", fn);
}
