// What the lobby and match screens can ask of the server, as this device's participant.

import { act, app, call, go, render } from "./app.js";
import { forgetIdentity } from "./store.js";

export function lobbyControls() {
  const code = () => app.room.code;
  return {
    you: () => app.you,
    isHost: () => Boolean(app.you && app.you.host),
    game: () => (app.games || []).find((g) => g.id === app.room.game) || { id: app.room.game, title: app.room.game, bots: ["random"], options: [] },
    seat: (pid, seat) => call("POST", `/api/rooms/${code()}/participants/${pid}/seat`, { seat }),
    addBot: (seat, kind) => call("POST", `/api/rooms/${code()}/seats/${seat}/bot`, { kind }),
    removeBot: (seat) => call("DELETE", `/api/rooms/${code()}/seats/${seat}/bot`),
    kick: (p) => {
      if (window.confirm(`Remove ${p.name} from the room?`)) return call("POST", `/api/rooms/${code()}/participants/${p.id}/kick`);
      return null;
    },
    shareDevice: (body) => call("POST", `/api/rooms/${code()}/devices`, body),
    admit: (pid, yes) => call("POST", `/api/rooms/${code()}/participants/${pid}/admit`, { admit: yes }),
    tableLink: () => call("POST", `/api/rooms/${code()}/table-link`),
    setNarrator: (pid) => call("PUT", `/api/rooms/${code()}/narrator`, { participant: pid }),
    rerender: () => render(),
    handOver: (pid) => call("POST", `/api/rooms/${code()}/host`, { participant: pid }),
    setConfig: (config) => call("PUT", `/api/rooms/${code()}/config`, { config }),
    setSettings: (settings) => call("PUT", `/api/rooms/${code()}/settings`, settings),
    villagerOnly: (seat, on) => {
      const current = new Set(app.room.config.villager_only || []);
      if (on) current.add(seat);
      else current.delete(seat);
      return call("PUT", `/api/rooms/${code()}/config`, { config: { ...app.room.config, villager_only: [...current].sort((a, b) => a - b) } });
    },
    start: async (fill) => {
      const data = await call("POST", `/api/rooms/${code()}/start`, fill === undefined ? {} : { fill_with: fill });
      if (data) app.showLobby = false;
      return data;
    },
    again: async () => {
      const data = await call("POST", `/api/rooms/${code()}/again`, {});
      if (data) app.showLobby = false;
      return data;
    },
    end: () => {
      if (window.confirm("End this match now, without a result?")) return call("POST", `/api/rooms/${code()}/end`);
      return null;
    },
    pause: () => call("POST", `/api/rooms/${code()}/pause`),
    resume: () => call("POST", `/api/rooms/${code()}/resume`),
    hostAction: (action) => act(action, { host: true }),
    /** A table screen that waits for the host gives up asking. */
    cancelRequest: async () => {
      const data = await call("POST", `/api/rooms/${code()}/participants/${app.you.id}/leave`);
      if (data) {
        forgetIdentity(app.route.code, app.route.kind);
        go("#/");
      }
    },
    leave: async () => {
      if (!window.confirm("Leave this room? Your seat is given up.")) return;
      const data = await call("POST", `/api/rooms/${code()}/participants/${app.you.id}/leave`);
      if (data) {
        forgetIdentity(app.route.code, app.route.kind);
        go("#/");
      }
    },
  };
}
