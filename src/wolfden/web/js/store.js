// What this device remembers: who it is in each room (the token, kept to come back after a
// reload or a phone's sleep) and the person's sound, voice and display preferences.

const ID_PREFIX = "wolfden.id.";
const PREFS_KEY = "wolfden.prefs";

function read(key) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing without storage: the page still works, it just cannot come back.
  }
}

/** kind "r": this device's person (player or spectator); kind "t": this device as a table screen. */
export function identity(code, kind) {
  return read(`${ID_PREFIX}${code}${kind === "t" ? ".table" : ""}`);
}

export function saveIdentity(code, kind, ident) {
  write(`${ID_PREFIX}${code}${kind === "t" ? ".table" : ""}`, { ...ident, saved: Date.now() });
}

export function forgetIdentity(code, kind) {
  write(`${ID_PREFIX}${code}${kind === "t" ? ".table" : ""}`, null);
}

/** Rooms this device has been in, newest first. */
export function knownRooms() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(ID_PREFIX)) continue;
      const rest = key.slice(ID_PREFIX.length);
      const table = rest.endsWith(".table");
      const ident = read(key);
      if (ident) out.push({ code: table ? rest.slice(0, -6) : rest, kind: table ? "t" : "r", ...ident });
    }
  } catch {
    return [];
  }
  return out.sort((a, b) => (b.saved || 0) - (a.saved || 0));
}

const DEFAULT_PREFS = {
  name: "",
  voice: true,
  hostVoice: true,
  voiceName: "",
  voiceVolume: 1,
  voiceRate: 0.95,
  sounds: true,
  soundVolume: 0.6,
  music: false,
  musicVolume: 0.3,
  lang: "",
  hideByDefault: true,
};

export function prefs() {
  return { ...DEFAULT_PREFS, ...(read(PREFS_KEY) || {}) };
}

export function setPrefs(changes) {
  const next = { ...prefs(), ...changes };
  write(PREFS_KEY, next);
  return next;
}
