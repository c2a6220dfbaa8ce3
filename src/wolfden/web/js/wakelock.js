// A phone that locks its screen drops its connection (iOS Safari does), and a player who looks
// away for a minute misses their turn. While a match is being played this device holds a
// Screen Wake Lock where the browser allows it; the browser lets go of it whenever the page is
// hidden, so it is asked for again when the page shows.

let wanted = false;
let sentinel = null;
let asking = false;

async function acquire() {
  if (!wanted || sentinel || asking || document.visibilityState !== "visible") return;
  if (!("wakeLock" in navigator)) return;
  asking = true;
  try {
    const lock = await navigator.wakeLock.request("screen");
    if (wanted) {
      sentinel = lock;
      lock.addEventListener("release", () => {
        if (sentinel === lock) sentinel = null;
      });
    } else lock.release();
  } catch {
    // Not allowed here (battery saver, a browser without it): the screen may sleep.
  } finally {
    asking = false;
  }
}

/** Hold the screen awake (true) or let it sleep again (false). */
export function keepAwake(on) {
  wanted = Boolean(on);
  if (wanted) acquire();
  else if (sentinel) {
    const lock = sentinel;
    sentinel = null;
    lock.release().catch(() => {});
  }
}

document.addEventListener("visibilitychange", acquire);
window.addEventListener("pageshow", acquire);
