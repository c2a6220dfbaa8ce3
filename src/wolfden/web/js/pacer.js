// A script told as a moderator tells it (Werewolf's night): one line at a time, each with its
// pause, the line being said shown large. The same pacer drives the display and, on the device
// that reads aloud, the voice: a line is spoken when it is shown, and the next one is shown
// only when the voice has finished it and the line's pause is over, so the voice and the
// screen never drift apart. A new script (a new phase) stops the old one's lines at once.

import * as voice from "./voice.js";

/** The shortest breath between two lines when saying a line took longer than its pause. */
const BREATH = 0.8;

let cur = null;
let redraw = () => {};

function now() {
  return performance.now() / 1000;
}

/** What to call when the line shown changes (the app's render). */
export function onChange(fn) {
  redraw = fn;
}

/** Follow ``script`` ({key, lines, pace}: a key that changes with the script, its lines, the
 * seconds each line is given). ``speak``: read it aloud here, from the line shown now on. */
export function follow(script, { speak = false, lang = "en" } = {}) {
  if (!script || !script.lines || !script.lines.length) {
    stop();
    return;
  }
  if (cur && cur.key === script.key) {
    if (speak && !cur.speak) {
      cur.speak = true;
      cur.lang = lang;
      sayCurrent(cur);
    }
    return;
  }
  stop();
  cur = { key: script.key, lines: script.lines.slice(), pace: script.pace, at: 0, since: now(), heard: -1, heardAt: 0, speak, lang, timer: null };
  if (speak) sayCurrent(cur);
  plan(cur);
}

/** The index of the line shown now of ``script``: it starts following it (silently) when it
 * is not the script being followed. */
export function position(script) {
  if (!cur || cur.key !== script.key) follow(script);
  return cur ? cur.at : 0;
}

/** Keep following the script on screen, but no longer aloud (another device reads now). */
export function silence() {
  if (!cur || !cur.speak) return;
  cur.speak = false;
  voice.drop(cur.key);
  plan(cur);
}

/** Stop the script being followed, and its voice. */
export function stop() {
  if (!cur) return;
  clearTimeout(cur.timer);
  voice.drop(cur.key);
  cur = null;
}

// A line is handed to the voice once the screen shows it (the page draws first).
function sayCurrent(c) {
  const at = c.at;
  setTimeout(() => sayLine(c, at), 0);
}

function sayLine(c, at) {
  if (cur !== c || c.at !== at || !c.speak) return;
  voice.say(c.lines[at], {
    lang: c.lang,
    tag: c.key,
    onend: () => {
      if (cur !== c || c.at !== at) return;
      c.heard = at;
      c.heardAt = now();
      plan(c);
    },
  });
}

// When the next line is due: its pause after the line was shown, and (read aloud) not before
// the voice has said the line, with a breath after it.
function plan(c) {
  clearTimeout(c.timer);
  if (c.at >= c.lines.length - 1) return;
  if (c.speak && c.heard < c.at) return; // the voice's end of the line plans the next one
  let due = c.since + c.pace;
  if (c.speak) due = Math.max(due, c.heardAt + BREATH);
  c.timer = setTimeout(() => advance(c), Math.max(0, (due - now()) * 1000));
}

function advance(c) {
  if (cur !== c) return;
  c.at += 1;
  c.since = now();
  if (c.speak) sayCurrent(c);
  plan(c);
  redraw();
}
