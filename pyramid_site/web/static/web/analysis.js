// The post-game analysis as the page words it: when it opens (a ranked game's once its day or tournament
// is over), the solver's verdict on a position, and a note on the result card that leads to the replay.

import { api, ApiError } from "./api.js";

/** "5 hours 12 minutes", "3 minutes", "less than a minute": how long until `date`, in players' words. */
export function timeUntil(date) {
  const minutes = Math.ceil((new Date(date) - Date.now()) / 60000);
  if (minutes <= 1) return "less than a minute";
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const part = (n, word) => (n ? `${n} ${word}${n === 1 ? "" : "s"}` : "");
  const parts = days ? [part(days, "day"), part(hours, "hour")] : [part(hours, "hour"), part(mins, "minute")];
  return parts.filter(Boolean).join(" ");
}

/** When a refused analysis opens (the 409 `not_yet` answer's `opens_at`), in players' words. */
export function opensText(opensAt, game) {
  if (!opensAt) return "The analysis opens when the game is over.";
  const when = new Date(opensAt);
  const time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const tomorrow = new Date();
  tomorrow.setDate(tomorrow.getDate() + 1);
  const day = when.toDateString() === new Date().toDateString() ? "today"
    : when.toDateString() === tomorrow.toDateString() ? "tomorrow"
      : when.toLocaleDateString([], { weekday: "long", day: "numeric", month: "long" });
  const what = game?.daily ? "the day is over" : game?.mode === "ranked" ? "the tournament is over" : "the game is over";
  return `The analysis opens when ${what}, so that it cannot give the deal away: in ${timeUntil(when)} ` +
    `(${day} at ${time}, your time).`;
}

/**
 * The solver's verdict on the position of ply `ply`, in players' words: "Still winnable: 23 moves to win",
 * "No longer winnable: best 3 cards left". `plies` are the analysis' answers, for "still" and "no longer".
 */
export function verdictWords(plies, ply) {
  const here = plies[ply];
  if (!here) return { kind: "pending", text: "" };
  const before = plies.slice(0, ply).some((p) => p.verdict === "winnable");
  const cards = (n) => `${n} card${n === 1 ? "" : "s"}`;
  if (here.verdict === "winnable") {
    if (here.moves_to_win === 0) return { kind: "won", text: "Won: the deal is cleared." };
    const moves = here.moves_to_win === null ? "" : `: ${here.moves_to_win} move${here.moves_to_win === 1 ? "" : "s"} to win`;
    return { kind: "winnable", text: `${ply === 0 ? "Winnable" : "Still winnable"}${moves}` };
  }
  if (here.verdict === "unwinnable") {
    const best = here.best_cards_left === null ? "" : `: best ${cards(here.best_cards_left)} left`;
    return { kind: "unwinnable", text: `${before ? "No longer winnable" : "Cannot be won"}${best}` };
  }
  return { kind: "unknown", text: "Not known: the solver ran out of time on this position" };
}

/**
 * The game's analysis, asked for again every `every` ms while the solver works on it (`pending`), until
 * it is ready, `stop()` says to give up, or about three minutes have passed. `onPending` hears each wait.
 */
export async function analysisWhenReady(gameId, { stop = () => false, onPending = () => null, every = 1500 } = {}) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const analysis = await api("GET", `games/${gameId}/analysis/`);
    if (analysis.status === "ready" || stop()) return analysis;
    if (Date.now() > deadline) return analysis;
    onPending(analysis);
    await new Promise((done) => setTimeout(done, every));
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
    return `The win slipped away at move ${analysis.lost_at} of ${last}. See which move would have kept it.`;
  }
  if (plies[0].verdict === "winnable" && game.status === "won") {
    const par = plies[0].moves_to_win;
    return par !== null && last > par ? `You never lost the win; the shortest line took ${par} moves to your ${last}.`
      : "You never lost the win, and took no more moves than the solver.";
  }
  if (plies[0].verdict === "unwinnable") {
    return cost ? `The deal could not be won: the best play leaves ${plies[0].best_cards_left} cards, and ${analysis.costly.length} of your moves cost ${cost} more.`
      : `The deal could not be won: the best play leaves ${plies[0].best_cards_left} cards, as you did.`;
  }
  return cost ? `${analysis.costly.length} of your moves cost cards.` : "No move of yours cost any cards.";
}

/**
 * The analysis on a finished game's result card (`box`): the link to the replay, and, once the solver has
 * been through the game, where it slipped; a ranked game's shows when it opens instead, until its day or
 * tournament is over. `alive()` is false once the card has left the page.
 */
export async function resultAnalysis(box, game, alive) {
  const link = `<a class="button" id="analyse" href="#/game/${game.id}/replay">Analyse this game</a>`;
  const note = () => box.querySelector("#analysis-note");
  try {
    const analysis = await analysisWhenReady(game.id, {
      stop: () => !alive(),
      onPending: () => {
        box.innerHTML = `${link} <span id="analysis-note" class="small">The solver is going through your game…</span>`;
      },
    });
    if (!alive()) return;
    box.innerHTML = `${link} <span id="analysis-note" class="small"></span>`;
    note().textContent = analysis.status === "ready" ? analysisHeadline(analysis, game)
      : "The solver is still going through your game: the replay shows its answers when they are in.";
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
