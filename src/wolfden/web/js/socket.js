// The play WebSocket: hello with the stored token, then views, room summaries and answers.
// It reconnects by itself (after sleep, a network change or a server restart) without asking.

const PROTOCOL = 3;
const FINAL = new Set(["kicked", "token_replaced", "left", "refused"]);
const PROBE_MS = 2500;

export class Connection {
  constructor({ code, token, onMessage, onStatus }) {
    this.code = code;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.retry = 0;
    this.timer = null;
    this.pinger = null;
    this.stopped = false;
    this.ready = false;
    this.probe = null;
    // Back on screen (a phone unlocked, a tab shown again): reconnect at once. A socket that
    // looks open may have died while the phone slept (iOS Safari drops it without a word), so
    // it must answer a ping within a moment or it is replaced.
    this.wake = () => {
      if (document.visibilityState !== "visible" || this.stopped) return;
      if (!this.ready) return this.connectNow();
      if (this.probe) return;
      const ws = this.ws;
      this.probe = setTimeout(() => {
        this.probe = null;
        if (this.ws !== ws || !ws) return;
        ws.onclose = null;
        ws.close();
        this.lost(ws, { now: true });
      }, PROBE_MS);
      this.send({ type: "ping" });
    };
    document.addEventListener("visibilitychange", this.wake);
    window.addEventListener("online", this.wake);
    window.addEventListener("pageshow", this.wake);
  }

  start() {
    this.connectNow();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.probe);
    clearInterval(this.pinger);
    document.removeEventListener("visibilitychange", this.wake);
    window.removeEventListener("online", this.wake);
    window.removeEventListener("pageshow", this.wake);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    for (const { reject } of this.pending.values()) reject(new Error("The connection was closed."));
    this.pending.clear();
  }

  connectNow() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    if (this.ws && (this.ws.readyState === WebSocket.CONNECTING || this.ws.readyState === WebSocket.OPEN)) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.onStatus(this.retry ? "reconnecting" : "connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", v: PROTOCOL, room: this.code, token: this.token }));
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.handle(msg);
    };
    ws.onclose = () => this.lost(ws);
  }

  /** The socket is gone: try again after a growing pause (or at once). */
  lost(ws, { now = false } = {}) {
    this.ready = false;
    clearInterval(this.pinger);
    if (this.ws !== ws) return;
    this.ws = null;
    for (const { reject } of this.pending.values()) reject(new Error("The connection dropped; try again."));
    this.pending.clear();
    if (this.stopped) return;
    this.retry += 1;
    this.onStatus("reconnecting");
    if (now) return this.connectNow();
    const delay = Math.min(8000, 250 * 2 ** Math.min(this.retry, 5)) * (0.75 + Math.random() * 0.5);
    this.timer = setTimeout(() => this.connectNow(), delay);
  }

  handle(msg) {
    clearTimeout(this.probe); // the socket is alive
    this.probe = null;
    if (msg.type === "welcome") {
      this.ready = true;
      this.retry = 0;
      this.onStatus("online");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    } else if (msg.type === "accepted" || msg.type === "rejected") {
      const waiting = this.pending.get(msg.id);
      if (waiting) {
        this.pending.delete(msg.id);
        waiting.resolve(msg);
      }
    } else if (msg.type === "view" && msg.answer != null && this.pending.has(msg.answer)) {
      // protocol 3: the view an action brought this client is also its answer
      const waiting = this.pending.get(msg.answer);
      this.pending.delete(msg.answer);
      waiting.resolve({ type: "accepted", id: msg.answer, version: msg.version });
    } else if (msg.type === "error" && msg.id !== undefined && this.pending.has(msg.id)) {
      const waiting = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      waiting.resolve({ type: "rejected", id: msg.id, error: msg.error });
      return;
    } else if (msg.type === "error" && !this.ready && msg.error && msg.error.code === "unavailable") {
      // the room is moving between servers, or the database is away for a moment: try again
      if (this.ws) this.ws.close();
      return;
    } else if (msg.type === "error" && !this.ready) {
      // hello was refused (a retired token, a room that no longer exists): do not retry.
      this.stopped = true;
      this.onStatus("refused", msg.error);
    } else if (msg.type === "closed" && FINAL.has(msg.reason)) {
      this.stopped = true;
      this.onStatus("closed", { code: msg.reason });
    }
    this.onMessage(msg);
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send an action (or a host action); resolves with the accepted/rejected answer. */
  act(action, { version, host = false } = {}) {
    const msg = { type: host ? "host_action" : "action", action };
    if (version !== undefined && version !== null) msg.version = version;
    return this.request(msg);
  }

  /** Send a message that the server answers with accepted/rejected (or an error). */
  request(body) {
    const id = this.nextId++;
    const msg = { ...body, id };
    return new Promise((resolve, reject) => {
      if (!this.ready || !this.send(msg)) {
        reject(new Error("Not connected right now; wait a moment and try again."));
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
  }
}
