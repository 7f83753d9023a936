// The post-game analysis as the page words it: when it opens (a ranked game's once its day or tournament
// is over), the solver's verdict on a position, and a note on the result card that leads to the replay.

import { api, ApiError } from "./api.js";
import { gettext, interpolate, language, ngettext } from "./i18n.js";

const counted = (text, count) => interpolate(text, { count });

/** "5 hours 12 minutes", "3 minutes", "less than a minute": how long until `date`, in players' words. */
export function timeUntil(date) {
  const minutes = Math.ceil((Date.parse(date) - Date.now()) / 60000);
  if (minutes <= 1) return gettext("less than a minute");
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const day = (n) => (n ? counted(ngettext("%(count)s day", "%(count)s days", n), n) : "");
  const hour = (n) => (n ? counted(ngettext("%(count)s hour", "%(count)s hours", n), n) : "");
  const minute = (n) => (n ? counted(ngettext("%(count)s minute", "%(count)s minutes", n), n) : "");
  const parts = days ? [day(days), hour(hours)] : [hour(hours), minute(mins)];
  return parts.filter(Boolean).join(" ");
}

/** When a refused analysis opens (the 409 `not_yet` answer's `opens_at`), in players' words. */
export function opensText(opensAt, game) {
  if (!opensAt) return gettext("The analysis opens when the game is over.");
  const when = new Date(opensAt);
  const time = when.toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit" });
  const tomorrow = new Date();
  tomorrow.setDate(tomorrow.getDate() + 1);
  const day = when.toDateString() === new Date().toDateString() ? gettext("today")
    : when.toDateString() === tomorrow.toDateString() ? gettext("tomorrow")
      : when.toLocaleDateString(language, { weekday: "long", day: "numeric", month: "long" });
  const text = game?.daily
    ? gettext("The analysis opens when the day is over, so that it cannot give the deal away: in %(wait)s (%(day)s at %(time)s, your time).")
    : game?.mode === "ranked"
      ? gettext("The analysis opens when the tournament is over, so that it cannot give the deal away: in %(wait)s (%(day)s at %(time)s, your time).")
      : gettext("The analysis opens when the game is over, so that it cannot give the deal away: in %(wait)s (%(day)s at %(time)s, your time).");
  return interpolate(text, { wait: timeUntil(when), day, time });
}

/**
 * The solver's verdict on the position of ply `ply`, in players' words: "Still winnable: 23 moves to win",
 * "No longer winnable: best 3 cards left". `plies` are the analysis' answers, for "still" and "no longer".
 */
export function verdictWords(plies, ply) {
  const here = plies[ply];
  if (!here) return { kind: "pending", text: "" };
  const before = plies.slice(0, ply).some((p) => p.verdict === "winnable");
  if (here.verdict === "winnable") {
    if (here.moves_to_win === 0) return { kind: "won", text: gettext("Won: the deal is cleared.") };
    const state = ply === 0 ? gettext("Winnable") : gettext("Still winnable");
    const moves = here.moves_to_win === null ? ""
      : `: ${counted(ngettext("%(count)s move to win", "%(count)s moves to win", here.moves_to_win), here.moves_to_win)}`;
    return { kind: "winnable", text: `${state}${moves}` };
  }
  if (here.verdict === "unwinnable") {
    const state = before ? gettext("No longer winnable") : gettext("Cannot be won");
    const best = here.best_cards_left === null ? ""
      : `: ${counted(ngettext("best %(count)s card left", "best %(count)s cards left", here.best_cards_left), here.best_cards_left)}`;
    return { kind: "unwinnable", text: `${state}${best}` };
  }
  return { kind: "unknown", text: gettext("Not known: the solver ran out of time on this position") };
}

/**
 * The game's analysis, asked for again every `every` ms while the solver works on it (`pending`), until
 * it is ready, `stop()` says to give up, `signal` aborts, or about three minutes have passed. `onPending`
 * hears each wait.
 * @param {number} gameId
 * @param {{stop?: () => boolean, onPending?: (pending: any) => any, every?: number, signal?: AbortSignal}} [options]
 */
export async function analysisWhenReady(gameId, { stop = () => false, onPending = (/** @type {any} */ _pending) => null, every = 1500,
  signal = /** @type {AbortSignal | undefined} */ (undefined) } = {}) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const analysis = await api("GET", `games/${gameId}/analysis/`, undefined, { signal });
    if (analysis.status === "ready" || stop()) return analysis;
    if (Date.now() > deadline) return analysis;
    onPending(analysis);
    await new Promise((done, fail) => {
      if (signal?.aborted) return fail(signal.reason);
      const timer = setTimeout(done, every);
      signal?.addEventListener("abort", () => { clearTimeout(timer); fail(signal.reason); }, { once: true });
    });
    if (stop()) return analysis;
  }
}

/** The short story of an analysis, for the result card: where the win slipped away, what cost cards. */
export function analysisHeadline(analysis, game) {
  const plies = analysis.plies;
  if (!plies.length) return "";
  const last = plies.length - 1;
  const cost = analysis.costly.reduce((sum, c) => sum + c.cost, 0);
  if (analysis.lost_at !== null) {
    return interpolate(gettext("The win slipped away at move %(move)s of %(last)s. See which move would have kept it."),
      { move: analysis.lost_at, last });
  }
  if (plies[0].verdict === "winnable" && game.status === "won") {
    const par = plies[0].moves_to_win;
    return par !== null && last > par
      ? interpolate(gettext("You never lost the win; the shortest line took %(par)s moves to your %(last)s."), { par, last })
      : gettext("You never lost the win, and took no more moves than the solver.");
  }
  const best = plies[0].best_cards_left;
  if (plies[0].verdict === "unwinnable") {
    return cost ? interpolate(gettext("The deal could not be won: the best play leaves %(best)s cards, and %(costly)s of your moves cost %(cost)s more."),
      { best, costly: analysis.costly.length, cost })
      : interpolate(gettext("The deal could not be won: the best play leaves %(best)s cards, as you did."), { best });
  }
  return cost ? counted(ngettext("%(count)s of your moves cost cards.", "%(count)s of your moves cost cards.", analysis.costly.length), analysis.costly.length)
    : gettext("No move of yours cost any cards.");
}

/**
 * The analysis on a finished game's result card (`box`): the link to the replay, and, once the solver has
 * been through the game, where it slipped; a ranked game's shows when it opens instead, until its day or
 * tournament is over. `alive()` is false once the card has left the page; `signal` (the page's) ends it.
 * @param {HTMLElement} box
 * @param {any} game
 * @param {() => boolean} alive
 * @param {AbortSignal} [signal]
 */
export async function resultAnalysis(box, game, alive, signal = undefined) {
  const link = `<a class="button" id="analyse" href="#/game/${game.id}/replay">${gettext("Analyse this game")}</a>`;
  const note = () => box.querySelector("#analysis-note");
  try {
    const analysis = await analysisWhenReady(game.id, {
      signal,
      stop: () => !alive(),
      onPending: () => {
        box.innerHTML = `${link} <span id="analysis-note" class="small">${gettext("The solver is going through your game…")}</span>`;
      },
    });
    if (!alive()) return;
    box.innerHTML = `${link} <span id="analysis-note" class="small"></span>`;
    note().textContent = analysis.status === "ready" ? analysisHeadline(analysis, game)
      : gettext("The solver is still going through your game: the replay shows its answers when they are in.");
  } catch (error) {
    if (!alive()) return;
    if (error instanceof ApiError && error.code === "not_yet") {
      box.innerHTML = `<span id="analysis-note" class="small"></span>`;
      note().textContent = opensText(error.body.opens_at, game);
    } else {
      box.innerHTML = "";
    }
  }
}
