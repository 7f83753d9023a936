// Whether the page can reach the server. The browser's `online` / `offline` events say when the device has no
// network; a request that fails for the network's sake (fetch rejected, not an HTTP error) says so too, through
// one event on `window`:
//
//   window.dispatchEvent(new CustomEvent("network", { detail: { online: false } }))  // a request failed
//   window.dispatchEvent(new CustomEvent("network", { detail: { online: true } }))   // a request got an answer
//
// (`reportNetwork(online)` sends it.) The shell shows its offline banner from these (shell.js); any module that
// talks to the server may send them.

export const NETWORK_EVENT = "network";

/**
 * @typedef {object} NetworkDetail
 * @property {boolean} online  false: a request failed for the network's sake; true: a request was answered
 */

/**
 * Tells the page whether the last request reached the server.
 * @param {boolean} online
 */
export function reportNetwork(online) {
  window.dispatchEvent(new CustomEvent(NETWORK_EVENT, { detail: /** @type {NetworkDetail} */ ({ online }) }));
}

/** @typedef {"online" | "offline" | "unreachable"} NetworkState */

/**
 * Calls `onChange` with the page's network state whenever it changes (and once now): "offline" (the device has
 * no network), "unreachable" (it has, but a request failed: the server or the way to it is down), or "online".
 * While unreachable it asks the server every few seconds, without a page's request to tell it, whether it
 * answers again.
 * @param {(state: NetworkState) => void} onChange
 * @param {{ probeMs?: number }} [options]
 */
export function watchNetwork(onChange, { probeMs = 5000 } = {}) {
  /** @type {NetworkState} */
  let state = navigator.onLine ? "online" : "offline";
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let probe;
  /** @param {NetworkState} next */
  const set = (next) => {
    if (next === state) return;
    state = next;
    clearInterval(probe);
    if (state === "unreachable") probe = setInterval(ask, probeMs);
    onChange(state);
  };
  const ask = () => {
    // HEAD passes by the service worker's cache: only the server answers it
    fetch("/manifest.webmanifest", { method: "HEAD", cache: "no-store" })
      .then(() => set("online"), () => set(navigator.onLine ? "unreachable" : "offline"));
  };
  window.addEventListener("offline", () => set("offline"));
  window.addEventListener("online", () => set("online"));
  window.addEventListener(NETWORK_EVENT, (event) => {
    const { online } = /** @type {CustomEvent<NetworkDetail>} */ (event).detail;
    if (online) set("online");
    else if (state !== "offline") set(navigator.onLine ? "unreachable" : "offline");
  });
  onChange(state);
}
