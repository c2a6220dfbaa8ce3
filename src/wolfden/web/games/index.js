// One renderer per game. A game without its own renderer is played through the generic one,
// which lists the view and offers the legal actions as buttons.

const RENDERERS = {
  werewolf: () => import("./werewolf.js"),
  werewords: () => import("./werewords.js"),
  "robbers-horror": () => import("./robbers-horror.js"),
  "werwoelfe-kids": () => import("./werwoelfe-kids.js"),
};

const cache = new Map();

export async function loadRenderer(gameId, available = RENDERERS) {
  if (cache.has(gameId)) return cache.get(gameId);
  let mod;
  if (available[gameId]) {
    try {
      mod = (await available[gameId]()).default;
    } catch {
      mod = null;
    }
  }
  if (!mod) mod = (await import("./generic.js")).default;
  cache.set(gameId, mod);
  return mod;
}

export function hasRenderer(gameId) {
  return gameId in RENDERERS;
}
