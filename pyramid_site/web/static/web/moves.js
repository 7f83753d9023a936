// The table's line of work: what the player asks for (taps, keys, undo, hint, resign, finish) is done in the
// order it was asked, one at a time, and a request the network lost is sent again, the same request, until
// the server answers. The server stays the authority: nothing is shown as played before it says so.

import { ApiError } from "./api.js";
import { isAbort } from "./page.js";

/** The waits between tries of a request that did not reach the server, in milliseconds (the last repeats). */
export const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

/**
 * A failure worth trying again: no answer at all (offline, the connection dropped), a server error (5xx,
 * 503 while the database restarts), or 429 (wait as long as the server says). A 4xx is the server's answer.
 * @param {any} error
 * @returns {boolean}
 */
export function transient(error) {
  if (isAbort(error)) return false;
  if (!(error instanceof ApiError)) return error instanceof TypeError;  // fetch's "Failed to fetch"
  return error.status >= 500 || error.status === 429 || error.status === 408;
}

/**
 * How long the server asked us to wait before trying again, in milliseconds, or null: a `Retry-After` the
 * request helper kept on the error (`retryAfter`, seconds), or the body's `retry_after_seconds`.
 * @param {any} error
 * @returns {number | null}
 */
export function retryAfterMs(error) {
  const seconds = error?.retryAfter ?? error?.body?.retry_after_seconds;
  const number = Number(seconds);
  return seconds != null && Number.isFinite(number) && number >= 0 ? Math.min(number, 60) * 1000 : null;
}

/**
 * A wait of `ms` that ends early when the browser comes back online, and rejects when `signal` aborts.
 * @param {number} ms
 * @param {AbortSignal} signal
 * @returns {Promise<void>}
 */
export function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      signal.removeEventListener("abort", stop);
      resolve();
    };
    const stop = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      reject(signal.reason);
    };
    const timer = setTimeout(done, ms);
    window.addEventListener("online", done);
    signal.addEventListener("abort", stop, { once: true });
  });
}

/**
 * @typedef {object} RetryHooks
 * @property {AbortSignal} signal  the page's: aborting ends the tries
 * @property {(error: any, attempt: number, waitMs: number) => void} [onWaiting]  a try failed, the next waits
 * @property {() => void} [onAnswered]  the server answered (a success or a refusal) after a failed try
 * @property {(attempt: number) => Promise<any> | void} [beforeRetry]  before each try after the first: may
 *   check whether the last try went through after all (it then returns `{done: value}`)
 */

/**
 * `send()` until the server answers: its result, or the server's refusal (a 4xx ApiError) thrown. A failure
 * of the network or the server is tried again after a wait (`BACKOFF_MS`, or the server's `Retry-After`, cut
 * short by the `online` event) for as long as the page is open.
 * @template T
 * @param {(attempt: number) => Promise<T>} send
 * @param {RetryHooks} hooks
 * @returns {Promise<T>}
 */
export async function untilAnswered(send, { signal, onWaiting, onAnswered, beforeRetry }) {
  let failed = false;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (attempt > 0 && beforeRetry) {
        const checked = await beforeRetry(attempt);
        if (checked && "done" in checked) {
          onAnswered?.();
          return checked.done;
        }
      }
      const result = await send(attempt);
      if (failed) onAnswered?.();
      return result;
    } catch (error) {
      if (!transient(error)) {
        if (failed && !isAbort(error)) onAnswered?.();
        throw error;
      }
      failed = true;
      const offline = typeof navigator !== "undefined" && navigator.onLine === false;
      const wait = retryAfterMs(error) ?? (offline ? 30_000 : BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]);
      onWaiting?.(error, attempt, wait);
      await pause(wait, signal);
    }
  }
}

/**
 * Work done in order, one piece at a time: `push(task)` runs `task` once every task pushed before it has
 * ended (whether it succeeded or not). `pending` counts what is waiting or running.
 */
export class WorkQueue {
  /** @param {AbortSignal} signal  nothing starts after it aborts */
  constructor(signal) {
    this.signal = signal;
    /** @type {Promise<any>} */
    this.tail = Promise.resolve();
    this.pending = 0;
    /** @type {number} bumped by `clear()`: tasks pushed before it are dropped */
    this.generation = 0;
  }

  /**
   * @template T
   * @param {() => Promise<T> | T} task
   * @returns {Promise<T | undefined>}
   */
  push(task) {
    const generation = this.generation;
    this.pending += 1;
    const run = this.tail.then(async () => {
      if (this.signal.aborted || generation !== this.generation) return undefined;
      return task();
    });
    this.tail = run.catch(() => undefined).finally(() => { this.pending -= 1; });
    return run;
  }

  /** From inside a running task: drop every task not started yet. Returns how many were dropped. */
  clear() {
    this.generation += 1;
    return Math.max(0, this.pending - 1);
  }

  /** Resolves when everything pushed so far has ended. */
  idle() {
    return this.tail;
  }
}
