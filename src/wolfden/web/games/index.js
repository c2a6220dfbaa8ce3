// One renderer per game: the module the game's registry entry names (GET /api/games/{id} gives
// it as `client`). A game without one is played through the generic renderer, which lists the
// view and offers the legal actions as buttons. A named module that fails to load is reported
// as an error on the console, and the generic renderer stands in so that the match can go on.

import { api } from "../js/api.js";

const cache = new Map();
const CLIENT = /^[a-z0-9][a-z0-9_-]*\.js$/;

async function clientOf(gameId) {
  const info = await api("GET", `/api/games/${encodeURIComponent(gameId)}`);
  return info && typeof info.client === "string" && CLIENT.test(info.client) ? info.client : null;
}

export async function loadRenderer(gameId) {
  if (cache.has(gameId)) return cache.get(gameId);
  let mod = null;
  const client = await clientOf(gameId);
  if (client) {
    try {
      mod = (await import(`./${client}`)).default;
    } catch (err) {
      console.error(`the renderer of ${gameId} (${client}) did not load`, err);
    }
  }
  if (!mod) mod = (await import("./generic.js")).default;
  cache.set(gameId, mod);
  return mod;
}
