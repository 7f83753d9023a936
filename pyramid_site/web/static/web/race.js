// A race on its tournament page: the lobby with a countdown to the start (by the server's clock), every entrant's
// progress as it is made (counts only, from the stream's race_progress), then the final standings and the
// winner's finish (race_finished).

import { api } from "./api.js";
import { draw } from "./draw.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { follow } from "./live.js";
import { html } from "./markup.js";
import { isAbort } from "./page.js";
import { clock } from "./time.js";

/** @typedef {{id: number, username: string}} PlayerRef */
/** @typedef {{player: PlayerRef, cards_left: number | null, moves: number, state: string, seconds: number}} Runner */

const stateWords = (state) => ({
  waiting: gettext("waiting"), playing: gettext("playing"), cleared: gettext("cleared"), stuck: gettext("stuck"),
  resigned: gettext("resigned"), closed: gettext("closed at the end"), finished: gettext("finished"),
}[state] ?? state);

const liveWords = (state) => ({ live: gettext("live"), connecting: gettext("connecting…"),
  polling: interpolate(gettext("updated every %(seconds)s s"), { seconds: 10 }) }[state] ?? "");

/** How far the server's clock is ahead of this browser's, in milliseconds (its Date header: to the second). */
async function serverSkew(signal) {
  try {
    const sent = Date.now();
    const response = await fetch("/health/", { credentials: "omit", signal });
    const date = Date.parse(response.headers.get("Date") ?? "");
    return Number.isFinite(date) ? date - (sent + Date.now()) / 2 : 0;
  } catch (error) {
    if (isAbort(error)) throw error;
    return 0;
  }
}

/**
 * Draw the race of tournament `t` into `el` and follow it while `page` is open.
 * @param {HTMLElement} el
 * @param {any} t  the tournament, as the API answers it
 * @param {import("./page.js").Page} page
 */
export async function raceView(el, t, page) {
  const total = /goal=all/.test(t.rules) ? 52 : 28;
  const starts = Date.parse(t.starts_at);
  /** @type {Map<number, Runner>} */
  const runners = new Map();
  /** @type {any} */
  let finished = null;
  let liveState = "connecting";
  const skew = await serverSkew(page.signal);
  const now = () => Date.now() + skew;

  const runnerRow = (/** @type {Runner} */ r) => html`<li class="race-runner" data-player="${r.player.id}">
      <span class="race-name">${r.player.username}</span>
      <progress max="${total}" value="${r.cards_left === null ? 0 : total - r.cards_left}"
        aria-label="${interpolate(gettext("%(name)s's progress"), { name: r.player.username })}"></progress>
      <span class="small">${r.cards_left === null ? stateWords("waiting") : html`${interpolate(gettext("%(count)s left"), { count: r.cards_left })}
        · ${interpolate(ngettext("%(count)s move", "%(count)s moves", r.moves), { count: r.moves })}
        · ${stateWords(r.state)} · ${clock(r.seconds)}`}</span></li>`;

  const render = () => {
    const before = now() < starts;
    const ordered = [...runners.values()].sort((a, b) => (a.cards_left ?? total + 1) - (b.cards_left ?? total + 1)
      || a.seconds - b.seconds);
    draw(page, el, html`
      <h2>${gettext("Race")} <span class="small" id="race-live">${liveWords(liveState)}</span></h2>
      <p id="race-clock">${finished ? gettext("The race is over.") : before
        ? interpolate(gettext("The race starts in %(time)s: everyone gets the same deal then."), { time: clock((starts - now()) / 1000) })
        : gettext("The race is on.")}</p>
      <ol class="race-runners">${ordered.map(runnerRow)}</ol>
      ${finished ? html`<h3>${gettext("Final standings")}</h3>
        <ol id="race-standings">${finished.standings.map((row) => html`<li>${row.rank}. ${row.player.username}:
          ${interpolate(gettext("%(count)s left"), { count: row.cards_left })} · ${clock(row.seconds)}</li>`)}</ol>
        ${finished.finish ? html`<h3>${gettext("The finish")}</h3>
          <ol id="race-finish">${finished.finish.moves.map((m) => html`<li>${m.ply}. <code>${m.move}</code>
            ${m.cards.length ? html`(${m.cards.join(" + ")})` : ""}</li>`)}</ol>` : ""}` : ""}`);
  };

  const readStandings = async () => {
    const data = await api("GET", `tournaments/${t.id}/standings/?limit=1000`, undefined, { signal: page.signal });
    if (data.tournament.finished_at && !finished) {  // over before the page came, or its event missed while polling
      finished = { standings: data.results.slice(0, 10), finish: null };
    }
    for (const row of data.results) {
      if (!runners.has(row.player.id)) {
        runners.set(row.player.id, { player: row.player, cards_left: row.games ? row.cards_left : null,
          moves: row.moves, state: row.games ? (row.cleared ? "cleared" : "finished") : "playing", seconds: row.seconds });
      }
    }
    render();
  };

  const stream = follow(`tournaments/${t.id}/events/`, {
    onEvent: (type, event) => {
      if (type === "joined" && !runners.has(event.player.id)) {
        runners.set(event.player.id, { player: event.player, cards_left: null, moves: 0, state: "playing", seconds: 0 });
      } else if (type === "left") {
        runners.delete(event.player.id);
      } else if (type === "race_progress") {
        runners.set(event.player.id, { player: event.player, cards_left: event.cards_left, moves: event.moves,
          state: event.state, seconds: event.seconds });
      } else if (type === "race_finished") {
        finished = event;
      } else {
        return;
      }
      render();
    },
    onState: (state) => {
      liveState = state;
      render();
    },
    poll: readStandings,
  });
  page.signal.addEventListener("abort", () => stream.close(), { once: true });
  page.every(() => { if (!finished && now() < starts + 1000) render(); }, 1000);  // the countdown
  try {
    await readStandings();
  } catch (error) {
    if (isAbort(error)) throw error;
    render();
  }
}
