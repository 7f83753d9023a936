// The header's bell: my notifications (a tournament of my club starts soon, or started), read from
// /api/accounts/me/notifications/ and followed live on /api/accounts/me/events/ (docs/api.md, "Live updates").
// A count of the ones not seen yet on the button; opening the list marks them seen (in this browser's
// localStorage). A server without the notifications (404) shows no bell at all.

import { api, ApiError, currentUser } from "./api.js";
import { formatDateTime, gettext, interpolate, ngettext } from "./i18n.js";
import { follow } from "./live.js";

const SEEN_KEY = "pyramid.notices.seen";
const KEPT = 50;  // the newest notices the list shows (and whose seen marks it keeps)

/**
 * @typedef {object} Notice  one of my notifications, as the list and the stream's events carry it (newest first)
 * @property {string} [type]  "tournament_soon" | "tournament_started"
 * @property {number} tournament
 * @property {string} name
 * @property {number} club
 * @property {string} club_name
 * @property {string} format
 * @property {string} starts_at
 * @property {string} ends_at
 * @property {string} [server_time]
 */

/** @param {Notice} notice */
function kindOf(notice) {
  if (notice.type === "tournament_soon" || notice.type === "tournament_started") return notice.type;
  const now = notice.server_time ? Date.parse(notice.server_time) : Date.now();
  return Date.parse(notice.starts_at) <= now ? "tournament_started" : "tournament_soon";
}

/** When the server told of it (its clock, else the tournament's start): the newest first. @param {Notice} notice */
const told = (notice) => Date.parse(notice.server_time || notice.starts_at) || 0;

/** @param {Notice} notice */
const keyOf = (notice) => `${kindOf(notice)}:${notice.tournament}`;

function seenKeys() {
  try {
    const list = JSON.parse(localStorage.getItem(SEEN_KEY) || "[]");
    return new Set(Array.isArray(list) ? list.map(String) : []);
  } catch {
    return new Set();
  }
}

const SVG = "http://www.w3.org/2000/svg";

function bellIcon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "20");
  svg.setAttribute("height", "20");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M12 3a6 6 0 0 0-6 6v3.6L4.3 16a.7.7 0 0 0 .6 1h14.2a.7.7 0 0 0 .6-1L18 12.6V9a6 6 0 0 0-6-6zm-2.2 15.5a2.3 2.3 0 0 0 4.4 0z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

/** @param {Notice} notice */
function noticeText(notice) {
  return kindOf(notice) === "tournament_started"
    ? interpolate(gettext("%(name)s has started"), { name: notice.name })
    : interpolate(gettext("%(name)s starts %(when)s"), { name: notice.name, when: formatDateTime(notice.starts_at) });
}

/**
 * The bell, in `box`, for the account signed in now; `stop()` when the account changes. Guests have no bell:
 * the header has no room to spare for them, and their clubs are seen from the tournaments page.
 * @param {HTMLElement} box
 * @returns {{stop: () => void}}
 */
export function startBell(box) {
  const user = currentUser();
  box.hidden = true;
  box.replaceChildren();
  if (!user || user.guest) return { stop() {} };
  const controller = new AbortController();
  const signal = controller.signal;
  /** @type {Notice[]} the newest first */
  let notices = [];
  /** @type {{close: () => void} | null} */
  let live = null;
  let gone = false;

  const button = document.createElement("button");
  button.type = "button";
  button.id = "bell-button";
  button.className = "quiet";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "bell-list");
  const badge = document.createElement("span");
  badge.className = "bell-count";
  badge.setAttribute("aria-hidden", "true");
  const list = document.createElement("div");
  list.id = "bell-list";
  list.className = "bell-list";
  list.hidden = true;
  button.append(bellIcon(), badge);
  box.append(button, list);

  const unseen = () => {
    const seen = seenKeys();
    return notices.filter((notice) => !seen.has(keyOf(notice))).length;
  };

  const drawButton = () => {
    const count = unseen();
    button.setAttribute("aria-label", count
      ? interpolate(ngettext("Notifications: %(count)s new", "Notifications: %(count)s new", count), { count })
      : gettext("Notifications"));
    badge.textContent = count > 9 ? "9+" : String(count);
    badge.hidden = !count;
  };

  const drawList = () => {
    const heading = document.createElement("h2");
    heading.id = "bell-heading";
    heading.textContent = gettext("Notifications");
    list.setAttribute("aria-labelledby", "bell-heading");
    if (!notices.length) {
      const empty = document.createElement("p");
      empty.className = "small";
      empty.textContent = gettext("Nothing new. A tournament of your clubs about to start shows here.");
      list.replaceChildren(heading, empty);
      return;
    }
    const seen = seenKeys();
    const items = notices.map((notice) => {
      const item = document.createElement("li");
      if (!seen.has(keyOf(notice))) item.className = "new";
      const link = document.createElement("a");
      link.href = `#/tournaments/${notice.tournament}`;
      link.textContent = noticeText(notice);
      const club = document.createElement("span");
      club.className = "small";
      club.textContent = notice.club_name;
      item.append(link, document.createElement("br"), club);
      return item;
    });
    const ul = document.createElement("ul");
    ul.append(...items);
    list.replaceChildren(heading, ul);
  };

  const markSeen = () => {
    const seen = seenKeys();
    for (const notice of notices) seen.add(keyOf(notice));
    localStorage.setItem(SEEN_KEY, JSON.stringify([...seen].slice(-4 * KEPT)));
    drawButton();
  };

  /** @param {boolean} open */
  const show = (open) => {
    if (open) drawList();  // drawn before marking, so the new ones stand out this once
    list.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) markSeen();
  };

  /** @param {Notice[]} fresh */
  const add = (fresh) => {
    const byKey = new Map(notices.map((notice) => [keyOf(notice), notice]));
    for (const notice of fresh) {
      if (notice && typeof notice.tournament === "number") byKey.set(keyOf(notice), notice);
    }
    notices = [...byKey.values()].sort((a, b) => told(b) - told(a)).slice(0, KEPT);
    drawButton();
    if (!list.hidden) drawList();
  };

  const hide = () => {
    gone = true;
    live?.close();
    box.hidden = true;
    box.replaceChildren();
  };

  const read = async () => {
    try {
      const answer = await api("GET", "accounts/me/notifications/", undefined, { signal });
      const items = Array.isArray(answer) ? answer : Array.isArray(answer?.results) ? answer.results : [];
      add(items);
      if (!gone) box.hidden = false;
    } catch (error) {
      // a server without notifications (404) or an account that cannot have them: no bell, and no word of it
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) hide();
    }
  };

  button.addEventListener("click", () => show(list.hidden), { signal });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !list.hidden) {
      show(false);
      button.focus();
    }
  }, { signal });
  document.addEventListener("click", (event) => {
    if (!list.hidden && !event.composedPath().includes(box)) show(false);
  }, { signal });
  // a link of the list followed, or any other page opened: the list closes
  window.addEventListener("hashchange", () => {
    if (!list.hidden) show(false);
  }, { signal });
  // seen in another tab: the count here follows
  window.addEventListener("storage", (event) => {
    if (event.key === SEEN_KEY) drawButton();
  }, { signal });
  drawButton();

  // the list first: a server without it (404) gets no stream opened at all
  read().then(() => {
    if (gone || signal.aborted) return;
    let first = true;
    live = follow("/api/accounts/me/events/", {
      pollMs: 60_000,
      poll: () => {
        if (first) {
          first = false;  // just read
          return undefined;
        }
        return read();
      },
      onEvent: (type, payload) => {
        if (type === "tournament_soon" || type === "tournament_started") add([{ ...payload, type }]);
      },
    });
  });

  return {
    stop() {
      controller.abort();
      hide();
    },
  };
}
