// Following a stream of the API's live updates (Server-Sent Events), or polling when a stream cannot be had.
// A small stand-in with the contract of the full module: follow(path, {onEvent, onState, poll, pollMs}).

import { language } from "./i18n.js";

const TOKEN_KEY = "pyramid.token";

/**
 * Follow `path` (under /api/, such as `tournaments/7/events/`): each event to `onEvent(type, payload, id)`, the
 * state to `onState`: "connecting", "live" while the stream is open, "polling" (then `poll()` every `pollMs`) once
 * it failed. Resumes after the last id seen.
 * @param {string} path
 * @param {{onEvent: (type: string, payload: any, id: string) => void, onState?: (state: string) => void,
 *   poll?: () => unknown, pollMs?: number}} options
 * @returns {{close: () => void}}
 */
export function follow(path, { onEvent, onState = () => {}, poll, pollMs = 10000 }) {
  const stop = new AbortController();
  let lastId = "";
  let timer = 0;
  const polling = () => {
    onState("polling");
    if (!poll) return;
    const again = () => {
      if (stop.signal.aborted) return;
      Promise.resolve(poll()).catch(() => {}).finally(() => { timer = window.setTimeout(again, pollMs); });
    };
    timer = window.setTimeout(again, pollMs);
  };
  const run = async () => {
    onState("connecting");
    /** @type {Record<string, string>} */
    const headers = { Accept: "text/event-stream", "Accept-Language": language };
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = `Token ${token}`;
    if (lastId) headers["Last-Event-ID"] = lastId;
    const response = await fetch(`/api/${path}`, { headers, credentials: "omit", signal: stop.signal });
    if (!response.ok || !response.body) throw new Error(String(response.status));
    onState("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("closed");
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let type = "message", data = "", id = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) type = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
          else if (line.startsWith("id:")) id = line.slice(3).trim();
        }
        if (id) lastId = id;
        if (data) onEvent(type, JSON.parse(data), id);
      }
    }
  };
  run().catch(() => { if (!stop.signal.aborted) polling(); });
  return { close: () => { stop.abort(); window.clearTimeout(timer); } };
}
