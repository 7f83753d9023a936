// The API's live streams (Server-Sent Events, docs/api.md "Live updates"), read over fetch(): EventSource cannot
// send the page's `Authorization: Token ...` header. `follow()` keeps one stream open while its page is, and falls
// back to polling the resource (cheap: api.js sends If-None-Match) whenever the stream is down:
//
//   const live = follow(`/api/tournaments/${id}/events/`, {
//     onEvent: (type, payload, id) => ...,   // each event of the stream (a `reset` calls `poll` instead)
//     onState: (state) => ...,               // "live" | "connecting" | "polling"
//     poll: async () => ...,                 // re-reads the resource: at start, after a reset, every pollMs while
//     pollMs: 10_000,                        // the stream is down
//   });
//   live.close();
//
// The stream resumes with Last-Event-ID after the server's `retry:` (nothing missed, or a `reset`); a failed
// attempt is tried again after a jittered back-off, polling meanwhile. A server that serves no streams here
// (503 live_unavailable, the WSGI workers) or has too many open for this account or address (429
// too_many_streams) is asked again only rarely: the page polls until then.

import { requestHeaders } from "./api.js";
import { gettext, interpolate } from "./i18n.js";

/** The wait before reconnecting until the server says otherwise (`retry:`), as EventSource's default. */
export const DEFAULT_RETRY_MS = 3000;
/** The longest back-off between failed attempts. */
export const MAX_BACKOFF_MS = 60_000;
/** How long a server that refused streams (429 too_many_streams, 503 live_unavailable) is left alone. */
export const REFUSED_RETRY_MS = 300_000;

/**
 * @typedef {object} StreamEvent  one event as the event-stream format dispatches it
 * @property {string} type  the `event:` field, else "message"
 * @property {string} data  the `data:` lines, joined by "\n"
 * @property {string} id  the last event id when it was dispatched
 */

/**
 * The event-stream format, parsed as the HTML standard's "Server-sent events" says: lines end in CRLF, LF or CR;
 * a blank line dispatches the event gathered so far; `:` starts a comment; `field: value` (one space after the
 * colon dropped); `data` lines are joined with "\n"; `id` (without NUL) sets the last event id, kept from one
 * event to the next; `retry` (ASCII digits only) sets the reconnection time; a block without data dispatches
 * nothing (its id still counts); unknown fields and an event left unfinished at the end are ignored.
 */
export class EventStreamParser {
  /**
   * @param {(event: StreamEvent) => void} onEvent
   * @param {(ms: number) => void} [onRetry]
   */
  constructor(onEvent, onRetry = () => {}) {
    this.onEvent = onEvent;
    this.onRetry = onRetry;
    this.buffer = "";
    this.data = "";
    this.type = "";
    this.lastEventId = "";
    this.started = false;
    /** a chunk ended in CR: an LF opening the next one belongs to that line end */
    this.afterCR = false;
  }

  /** @param {string} text  the stream's next piece, decoded */
  push(text) {
    if (!text) return;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.afterCR && text.startsWith("\n")) text = text.slice(1);
    this.afterCR = false;
    this.buffer += text;
    const lineEnd = /\r\n|\r|\n/g;
    let start = 0;
    let found;
    while ((found = lineEnd.exec(this.buffer)) !== null) {
      // a CR at the very end may be half of a CRLF split across pieces: the line ends here either way
      if (found[0] === "\r" && found.index === this.buffer.length - 1) this.afterCR = true;
      this.line(this.buffer.slice(start, found.index));
      start = lineEnd.lastIndex;
    }
    this.buffer = this.buffer.slice(start);
  }

  /** @param {string} line */
  line(line) {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return;  // a comment: the server's keep-alive
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.type = value;
    else if (field === "data") this.data += `${value}\n`;
    else if (field === "id") {
      if (!value.includes("\0")) this.lastEventId = value;
    } else if (field === "retry") {
      if (/^[0-9]+$/.test(value)) this.onRetry(Number.parseInt(value, 10));
    }
  }

  dispatch() {
    if (this.data === "") {
      this.type = "";
      return;
    }
    const event = { type: this.type || "message", data: this.data.slice(0, -1), id: this.lastEventId };
    this.data = "";
    this.type = "";
    this.onEvent(event);
  }
}

/**
 * Everything the stream's text dispatches, at once: for tests, and for a whole answer already read.
 * @param {string | string[]} text  the stream, or its pieces as they arrived
 * @returns {{events: StreamEvent[], retry: number[], lastEventId: string}}
 */
export function parseEventStream(text) {
  /** @type {StreamEvent[]} */
  const events = [];
  /** @type {number[]} */
  const retry = [];
  const parser = new EventStreamParser((event) => events.push(event), (ms) => retry.push(ms));
  for (const piece of Array.isArray(text) ? text : [text]) parser.push(piece);
  return { events, retry, lastEventId: parser.lastEventId };
}

/** @typedef {"live" | "connecting" | "polling"} LiveState */

/**
 * @typedef {object} FollowOptions
 * @property {(type: string, payload: any, id: string) => void} [onEvent]
 * @property {(state: LiveState) => void} [onState]
 * @property {() => Promise<unknown> | unknown} [poll]
 * @property {number} [pollMs]
 */

// A server that serves no streams (503 live_unavailable) serves none on any page: every stream of this tab waits
// until then before asking again (each refusal is a line in the browser's console and the server's log).
let unavailableUntil = 0;

/** A wait of about `ms`: between half and one and a half times it, so that clients cut off together come back apart. */
const jittered = (ms) => Math.round(ms * (0.5 + Math.random()));

/**
 * Follows one stream of the API for as long as it is not closed (see the top of this file).
 * @param {string} path  "/api/..." (or a path under /api/)
 * @param {FollowOptions} options
 * @returns {{close: () => void}}
 */
export function follow(path, { onEvent = () => {}, onState = () => {}, poll = () => undefined, pollMs = 10_000 }) {
  const url = path.startsWith("/") ? path : `/api/${path}`;
  let closed = false;
  /** @type {AbortController | null} */
  let controller = null;
  let lastEventId = "";
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  let everLive = false;
  /** @type {LiveState | null} */
  let state = null;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let pollTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retryTimer;
  /** @type {Promise<unknown> | null} */
  let reading = null;

  // one read at a time: a poll due while the last one is still out waits for the next turn
  const read = () => {
    if (closed || reading) return;
    reading = Promise.resolve().then(poll).catch(() => undefined).finally(() => { reading = null; });
  };

  /** @param {LiveState} next */
  const set = (next) => {
    if (closed || next === state) return;
    state = next;
    if (next === "polling") {
      if (pollTimer === undefined) pollTimer = setInterval(read, pollMs);
    } else {
      clearInterval(pollTimer);
      pollTimer = undefined;
    }
    onState(next);
  };

  /** @param {number} ms */
  const again = (ms) => {
    if (closed) return;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, ms);
  };

  // back online: the stream is tried at once rather than at the end of its back-off
  const online = () => {
    if (retryTimer !== undefined && !controller) again(0);
  };
  window.addEventListener("online", online);

  /** @param {StreamEvent} event */
  const dispatch = (event) => {
    if (closed) return;
    let payload = event.data;
    try {
      payload = JSON.parse(event.data);
    } catch {
      // not JSON: handed over as it came
    }
    if (event.type === "reset") read();  // the events since our last id are gone: read the resource again
    else onEvent(event.type, payload, event.id);
  };

  async function connect() {
    retryTimer = undefined;
    if (closed) return;
    const refusedFor = unavailableUntil - Date.now();
    if (refusedFor > 0) {
      set("polling");
      return again(refusedFor + jittered(DEFAULT_RETRY_MS));
    }
    if (state !== "polling") set("connecting");
    controller = new AbortController();
    const wasPolling = state === "polling";
    let received = false;
    /** @type {"ended" | "failed" | "refused" | "final"} */
    let outcome = "failed";
    let waitMs = 0;
    try {
      const headers = { ...requestHeaders(), Accept: "text/event-stream" };
      if (lastEventId) headers["Last-Event-ID"] = lastEventId;
      const response = await fetch(url, { headers, credentials: "omit", cache: "no-store", signal: controller.signal });
      const type = response.headers.get("Content-Type") || "";
      if (!response.ok || !type.startsWith("text/event-stream") || !response.body) {
        const body = await response.json().catch(() => ({}));
        const retryAfter = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
        if (body.code === "too_many_streams" || body.code === "live_unavailable") {
          outcome = "refused";
          waitMs = Math.max(REFUSED_RETRY_MS, Number.isFinite(retryAfter) ? retryAfter * 1000 : 0);
          if (body.code === "live_unavailable") unavailableUntil = Date.now() + waitMs;
        } else if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
          outcome = "final";  // not ours to follow (gone, or no longer signed in): polling tells the caller the rest
        } else if (Number.isFinite(retryAfter)) {
          waitMs = retryAfter * 1000;
        }
      } else {
        failures = 0;
        everLive = true;
        set("live");
        // the resource may have changed while the stream was down and nothing is replayed without an id
        if (wasPolling && !lastEventId) read();
        const parser = new EventStreamParser((event) => {
          lastEventId = parser.lastEventId;
          dispatch(event);
        }, (ms) => { retryMs = ms; });
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          received = true;
          parser.push(decoder.decode(value, { stream: true }));
          if (parser.lastEventId) lastEventId = parser.lastEventId;  // an id without an event counts too
        }
        parser.push(decoder.decode());
        if (parser.lastEventId) lastEventId = parser.lastEventId;
        outcome = received ? "ended" : "failed";
      }
    } catch {
      outcome = "failed";  // the network, or the connection cut mid-stream
    }
    controller = null;
    if (closed) return;
    if (outcome === "ended") {
      // the server ended it (restarting, its bus out of reach) after `retry:`: back after that, with our id
      set("connecting");
      return again(jittered(retryMs));
    }
    const falling = state !== "polling";
    set("polling");
    // what happened since the stream fell is read now, not at the next turn (at the start it was just read)
    if (falling && everLive) read();
    if (outcome === "final") return;
    if (outcome === "refused") return again(jittered(waitMs));
    failures += 1;
    again(Math.max(waitMs, jittered(Math.min(retryMs * 2 ** (failures - 1), MAX_BACKOFF_MS))));
  }

  read();
  connect();
  return {
    close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(pollTimer);
      window.removeEventListener("online", online);
      controller?.abort();
    },
  };
}

/**
 * Shows a stream's state in `el`: a dot and "live" while it is live, how often the page reads again while it
 * polls, nothing while it connects (a moment, most of the time: no flicker of words).
 * @param {Element | null} el
 * @param {LiveState} state
 * @param {number} [pollMs]
 */
export function showLiveState(el, state, pollMs = 10_000) {
  if (!el) return;
  const box = /** @type {HTMLElement} */ (el);
  box.dataset.state = state;
  box.textContent = state === "live" ? gettext("live")
    : state === "polling" ? interpolate(gettext("updated every %(seconds)s s"), { seconds: Math.round(pollMs / 1000) }) : "";
}

/**
 * `follow()` for as long as `page` is open, its state shown in `indicator` (if any). `readAlready`: the page has
 * just read the resource itself, so the read at the start is skipped.
 * @param {import("./page.js").Page} page
 * @param {string} path
 * @param {FollowOptions & {indicator?: Element | null, readAlready?: boolean}} options
 */
export function followWhileOpen(page, path, { indicator = null, onState, poll = () => undefined, pollMs = 10_000,
  readAlready = false, ...rest }) {
  if (page.closed) return { close() {} };
  let skip = readAlready;
  const live = follow(path, {
    ...rest,
    pollMs,
    poll: () => {
      if (skip) {
        skip = false;
        return undefined;
      }
      return poll();
    },
    onState: (state) => {
      if (page.closed) return;
      showLiveState(indicator, state, pollMs);
      onState?.(state);
    },
  });
  page.signal.addEventListener("abort", () => live.close(), { once: true });
  return live;
}
