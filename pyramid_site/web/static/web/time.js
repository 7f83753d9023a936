// Times as players read them: a clock's 4:05 or 1:02:03, and a countdown that stops with its page.

/** @param {number} seconds */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/**
 * "The next daily deal in 5:04:31": counts down each second into `el` until `signal` (the page's) aborts.
 * @param {HTMLElement} el
 * @param {() => number} target  the moment counted down to, in milliseconds since the epoch
 * @param {string} words
 * @param {AbortSignal} [signal]
 */
export function countdown(el, target, words, signal) {
  const tick = () => {
    if (!el.isConnected || signal?.aborted) return clearInterval(timer);
    const seconds = Math.max(0, Math.floor((target() - Date.now()) / 1000));
    const h = Math.floor(seconds / 3600);
    const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
    el.textContent = `${words} ${h}:${mm}:${String(seconds % 60).padStart(2, "0")}`;
  };
  const timer = setInterval(tick, 1000);
  signal?.addEventListener("abort", () => clearInterval(timer));
  tick();
}
