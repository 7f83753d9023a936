// A page's lifecycle: the router opens one page per address and closes it when the address changes. Whatever
// the page started through it ends with it: requests are aborted, timers cleared, listeners removed, and a
// draw asked for after closing never reaches the screen.

export class Page {
  constructor() {
    this.controller = new AbortController();
  }

  /** Aborts when the page closes: hand it to `api()`, `fetch()` and `addEventListener()`. */
  get signal() {
    return this.controller.signal;
  }

  get closed() {
    return this.controller.signal.aborted;
  }

  close() {
    this.controller.abort();
  }

  /**
   * `fn` every `ms` milliseconds while the page is open.
   * @param {() => void} fn
   * @param {number} ms
   */
  every(fn, ms) {
    if (this.closed) return;
    const timer = setInterval(fn, ms);
    this.signal.addEventListener("abort", () => clearInterval(timer), { once: true });
  }

  /**
   * `fn` once after `ms` milliseconds, unless the page closed first.
   * @param {() => void} fn
   * @param {number} ms
   */
  after(fn, ms) {
    if (this.closed) return;
    const timer = setTimeout(fn, ms);
    this.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  }

  /**
   * A listener that is removed when the page closes (on `document` or `window`, say).
   * @param {EventTarget} target
   * @param {string} type
   * @param {(event: any) => void} listener
   */
  listen(target, type, listener) {
    target.addEventListener(type, listener, { signal: this.signal });
  }

  /** A wait the page's closing cuts short (it then rejects with the signal's AbortError). */
  sleep(ms) {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(this.signal.reason);
      const timer = setTimeout(resolve, ms);
      this.signal.addEventListener("abort", () => { clearTimeout(timer); reject(this.signal.reason); }, { once: true });
    });
  }
}

/** True for the rejection of work cut short because its page closed: nothing to show or report. */
export function isAbort(error) {
  return error?.name === "AbortError";
}
