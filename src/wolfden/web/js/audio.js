// Sounds and mood music made in the browser with Web Audio: nothing is downloaded.
// Sounds: rooster (day), howl (night), tick (last seconds), chime (a ballot, an ending), knock.

import { prefs } from "./store.js";

let ctx = null;
let sfxGain = null;
let musicGain = null;
let music = null;

function context() {
  if (ctx) return ctx;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  ctx = new AC();
  sfxGain = ctx.createGain();
  musicGain = ctx.createGain();
  sfxGain.connect(ctx.destination);
  musicGain.connect(ctx.destination);
  applyVolumes();
  return ctx;
}

/** Browsers start audio only after a tap; call this from any user gesture. */
export function unlock() {
  const c = context();
  if (c && c.state === "suspended") c.resume().catch(() => {});
}

export function applyVolumes() {
  if (!ctx) return;
  const p = prefs();
  sfxGain.gain.value = p.sounds ? Number(p.soundVolume) : 0;
  musicGain.gain.value = p.music ? Number(p.musicVolume) * 0.5 : 0;
  if (!p.music) stopMusic();
}

function ready() {
  const p = prefs();
  const c = context();
  return c && c.state === "running" && p.sounds ? c : null;
}

function envelope(gain, t, attack, hold, release, peak) {
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(peak, t + attack);
  gain.gain.setValueAtTime(peak, t + attack + hold);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + attack + hold + release);
}

function voice(c, type, freq, t, dur, peak = 0.3) {
  const osc = c.createOscillator();
  const g = c.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  osc.connect(g);
  g.connect(sfxGain);
  envelope(g, t, 0.02, Math.max(0, dur - 0.1), 0.08, peak);
  osc.start(t);
  osc.stop(t + dur + 0.1);
  return osc;
}

const SOUNDS = {
  howl(c) {
    const t = c.currentTime;
    const osc = c.createOscillator();
    const vib = c.createOscillator();
    const vibGain = c.createGain();
    const g = c.createGain();
    const filter = c.createBiquadFilter();
    osc.type = "sawtooth";
    filter.type = "lowpass";
    filter.frequency.value = 1200;
    vib.frequency.value = 5;
    vibGain.gain.value = 6;
    vib.connect(vibGain);
    vibGain.connect(osc.frequency);
    osc.frequency.setValueAtTime(300, t);
    osc.frequency.exponentialRampToValueAtTime(620, t + 0.7);
    osc.frequency.setValueAtTime(620, t + 1.6);
    osc.frequency.exponentialRampToValueAtTime(380, t + 2.6);
    osc.connect(filter);
    filter.connect(g);
    g.connect(sfxGain);
    envelope(g, t, 0.5, 1.4, 0.8, 0.18);
    osc.start(t);
    vib.start(t);
    osc.stop(t + 2.9);
    vib.stop(t + 2.9);
  },
  rooster(c) {
    const t = c.currentTime;
    const notes = [
      [520, 0.12],
      [780, 0.14],
      [880, 0.45],
      [700, 0.3],
    ];
    let at = t;
    for (const [f, d] of notes) {
      const o = voice(c, "square", f, at, d, 0.08);
      o.frequency.exponentialRampToValueAtTime(f * 1.08, at + d * 0.6);
      at += d * 0.9;
    }
  },
  tick(c) {
    const t = c.currentTime;
    const o = voice(c, "square", 1800, t, 0.03, 0.12);
    o.frequency.exponentialRampToValueAtTime(900, t + 0.03);
  },
  chime(c) {
    const t = c.currentTime;
    [659.25, 987.77, 1318.5].forEach((f, i) => voice(c, "sine", f, t + i * 0.12, 0.9, 0.15));
  },
  knock(c) {
    const t = c.currentTime;
    [0, 0.18].forEach((d) => {
      const o = voice(c, "triangle", 160, t + d, 0.08, 0.4);
      o.frequency.exponentialRampToValueAtTime(70, t + d + 0.08);
    });
  },
  dice(c) {
    const t = c.currentTime;
    for (let i = 0; i < 6; i++) voice(c, "square", 300 + Math.random() * 900, t + i * 0.05, 0.03, 0.06);
  },
  win(c) {
    const t = c.currentTime;
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => voice(c, "triangle", f, t + i * 0.15, 0.5, 0.15));
  },
};

export function play(name) {
  const c = ready();
  const sound = SOUNDS[name];
  if (c && sound) sound(c);
}

// -- mood music: slow pads from a chord progression, different for night and day ----------------

const MOODS = {
  night: { chords: [[110, 130.81, 164.81], [98, 116.54, 146.83], [87.31, 110, 130.81], [98, 123.47, 146.83]], type: "sine", cutoff: 700 },
  day: { chords: [[130.81, 164.81, 196], [146.83, 174.61, 220], [110, 130.81, 164.81], [123.47, 146.83, 196]], type: "triangle", cutoff: 1500 },
};

function stopMusic() {
  if (!music) return;
  const { nodes, timer, gain } = music;
  clearInterval(timer);
  const t = ctx.currentTime;
  gain.gain.cancelScheduledValues(t);
  gain.gain.setValueAtTime(gain.gain.value, t);
  gain.gain.linearRampToValueAtTime(0, t + 1.5);
  setTimeout(() => nodes.forEach((n) => n.stop()), 1700);
  music = null;
}

export function setMood(mood) {
  const p = prefs();
  if (!p.music || !MOODS[mood]) {
    stopMusic();
    return;
  }
  const c = context();
  if (!c || c.state !== "running") return;
  if (music && music.mood === mood) return;
  stopMusic();
  const spec = MOODS[mood];
  const gain = c.createGain();
  const filter = c.createBiquadFilter();
  filter.type = "lowpass";
  filter.frequency.value = spec.cutoff;
  gain.gain.value = 0;
  gain.gain.linearRampToValueAtTime(0.12, c.currentTime + 3);
  filter.connect(gain);
  gain.connect(musicGain);
  const nodes = spec.chords[0].map((f) => {
    const o = c.createOscillator();
    o.type = spec.type;
    o.frequency.value = f;
    o.connect(filter);
    o.start();
    return o;
  });
  let step = 0;
  const timer = setInterval(() => {
    step = (step + 1) % spec.chords.length;
    const t = c.currentTime;
    nodes.forEach((o, i) => o.frequency.linearRampToValueAtTime(spec.chords[step][i], t + 2.5));
  }, 8000);
  music = { mood, nodes, timer, gain };
}
