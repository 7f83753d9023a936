// A player's statistics and calendar of daily results, drawn from /api/players/{name}/stats/ and /calendar/.

import { html } from "./markup.js";
import { clock } from "./time.js";
import { formatNumber, gettext, interpolate, language, ngettext } from "./i18n.js";

const percent = (rate) => (rate === null ? "—" : formatNumber(rate, { style: "percent", maximumFractionDigits: 0 }));

/** One mode's figures as a compact table: a row per preset played, the total at the foot. */
export function figuresTable(mode, caption, id) {
  if (!mode.presets.length) return html`<p id="${id}">${interpolate(gettext("%(mode)s: no games finished yet."), { mode: caption })}</p>`;
  const row = (r) => html`<tr><th scope="row">${r.preset}</th><td>${r.played}</td><td>${r.won} <span class="rate">${percent(r.win_rate)}</span></td>
    <td>${r.cleared}</td><td>${r.best_moves ?? "—"}</td><td>${r.best_seconds === null ? "—" : clock(r.best_seconds)}</td></tr>`;
  const t = mode.total;
  return html`<table class="figures" id="${id}">
    <caption>${caption}</caption>
    <thead><tr><th scope="col">${gettext("Preset")}</th><th scope="col">${gettext("Played")}</th><th scope="col">${gettext("Won")}</th><th scope="col">${gettext("Cleared")}</th>
      <th scope="col">${gettext("Best moves")}</th><th scope="col">${gettext("Best time")}</th></tr></thead>
    <tbody>${mode.presets.map(row)}</tbody>
    ${mode.presets.length > 1 ? html`<tfoot><tr><th scope="row">${gettext("All")}</th><td>${t.played}</td>
      <td>${t.won} <span class="rate">${percent(t.win_rate)}</span></td><td>${t.cleared}</td><td></td><td></td></tr></tfoot>` : ""}
  </table>`;
}

const pad = (n) => String(n).padStart(2, "0");
const MARKS = { won: "✓", lost: "✗", missed: "–" };
// Monday first: 2024-01-01 was a Monday
const weekdays = () => Array.from({ length: 7 }, (_, i) => new Date(Date.UTC(2024, 0, 1 + i)).toLocaleDateString(language, { weekday: "long", timeZone: "UTC" }));

function dealWords(deal, today) {
  const words = { preset: deal.preset, moves: deal.moves, count: deal.cards_left };
  if (deal.outcome === "won") return interpolate(gettext("%(preset)s won in %(moves)s moves"), words);
  if (deal.outcome === "lost") {
    return interpolate(deal.cleared
      ? ngettext("%(preset)s lost, pyramid cleared, %(count)s card left", "%(preset)s lost, pyramid cleared, %(count)s cards left", deal.cards_left)
      : ngettext("%(preset)s lost, %(count)s card left", "%(preset)s lost, %(count)s cards left", deal.cards_left), words);
  }
  return interpolate(today ? gettext("%(preset)s not played yet") : gettext("%(preset)s not played"), words);
}

/** A day of the calendar: what kind of day it was for the player, and the words a screen reader says. */
function dayOf(day, today) {
  if (!day) return { kind: "future", words: gettext("to come") };
  if (!day.deals.length) return { kind: "none", words: gettext("no daily deal") };
  const played = day.deals.filter((deal) => deal.outcome !== "not_played");
  const kind = played.some((deal) => deal.outcome === "won") ? "won"
    : played.length ? "lost" : day.date === today ? "open" : "missed";
  return { kind, words: day.deals.map((deal) => dealWords(deal, day.date === today)).join("; ") };
}

function monthTable(year, month, byDate, today) {
  const title = new Date(Date.UTC(year, month - 1, 1)).toLocaleDateString(language, { month: "long", year: "numeric", timeZone: "UTC" });
  const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const lead = (new Date(Date.UTC(year, month - 1, 1)).getUTCDay() + 6) % 7; // weeks start on Monday
  const cells = [...Array(lead).fill(null), ...Array.from({ length }, (_, i) => i + 1)];
  while (cells.length % 7) cells.push(null);
  const weeks = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  const cell = (d) => {
    if (d === null) return html`<td></td>`;
    const date = `${year}-${pad(month)}-${pad(d)}`;
    const { kind, words } = dayOf(byDate.get(date), today);
    const label = `${d} ${title}: ${words}`;
    return html`<td class="day ${kind}" data-date="${date}" data-kind="${kind}" title="${label}"><span aria-hidden="true">${d}<span class="mark">${MARKS[kind] ?? ""}</span></span><span class="sr-only">${label}</span></td>`;
  };
  return html`<table class="month">
    <caption>${title}</caption>
    <thead><tr>${weekdays().map((name) => html`<th scope="col"><span aria-hidden="true">${name[0]}</span><span class="sr-only">${name}</span></th>`)}</tr></thead>
    <tbody>${weeks.map((week) => html`<tr>${week.map(cell)}</tr>`)}</tbody>
  </table>`;
}

/** The calendar's months, the latest first, each a grid of weeks (Monday first). */
export function calendarMonths(calendar) {
  const byDate = new Map(calendar.days.map((day) => [day.date, day]));
  const [firstYear, firstMonth] = calendar.first.split("-").map(Number);
  let [year, month] = calendar.last.split("-").map(Number);
  const months = [];
  while (year > firstYear || (year === firstYear && month >= firstMonth)) {
    months.push(monthTable(year, month, byDate, calendar.last));
    month -= 1;
    if (month === 0) [year, month] = [year - 1, 12];
  }
  return html`<ul class="legend" aria-label="${gettext("Key to the calendar")}">
      <li><span class="day won" aria-hidden="true">✓</span> ${gettext("won")}</li><li><span class="day lost" aria-hidden="true">✗</span> ${gettext("lost")}</li>
      <li><span class="day missed" aria-hidden="true">–</span> ${gettext("not played")}</li><li><span class="day none" aria-hidden="true"></span> ${gettext("no daily deal")}</li>
    </ul>
    <div class="months">${months}</div>`;
}
