// "How we keep it fair": the daily deals' commitments, in plain words, with the fingerprints (SHA-256 hex) and
// the steps to check a day that is over (docs/fair-play.md).

import { api } from "./api.js";
import { draw, orNull } from "./draw.js";
import { formatDate, gettext } from "./i18n.js";
import { html } from "./markup.js";
import { scrollBox, markScrollers } from "./scrolling.js";

/**
 * A day's deal checked against its commitment (`GET /api/daily/{date}/{preset}/verify/`).
 * @typedef {{date: string, preset: string, commitment: string, revealed: boolean, salt?: string, deal_text?: string,
 *   commitment_matches?: boolean, check?: string}} Verified
 */

/** @param {number} offset days from today (UTC) */
const utcDay = (offset) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset)).toISOString().slice(0, 10);
};

/**
 * @param {HTMLElement} root
 * @param {import("./page.js").Page} page
 */
export async function fairPage(root, page) {
  draw(page, root, html`
    <section class="fair">
      <h1>${gettext("How we keep it fair")}</h1>
      <p class="lead">${gettext("Everyone gets the same daily deal, and nobody, not even we, can pick or change it once the day is announced.")}</p>
      <ol class="fair-steps">
        <li>${gettext("Before a day begins, its deal is fixed, and we publish a fingerprint of it: a code computed from the deal and a secret random word (the salt). The fingerprint says nothing about the cards, but no other deal gives the same one.")}</li>
        <li>${gettext("During the day the server checks every move of every game: a result on the board is a game really played.")}</li>
        <li>${gettext("When the day is over, we reveal the salt and the deal. Anyone can compute the fingerprint again and see that it is the one published before the day.")}</li>
      </ol>
      <h2>${gettext("The fingerprints of today and the coming days")}</h2>
      <p class="small">${gettext("Each fingerprint is the SHA-256 of the deal and its salt, written in hexadecimal.")}</p>
      <div id="commitments" class="loading">${gettext("Loading…")}</div>
      <h2>${gettext("Check a day yourself")}</h2>
      <ol class="fair-steps">
        <li>${gettext("Note a day's fingerprint here before the day begins.")}</li>
        <li>${gettext("When the day is over, copy the command shown below for it: it holds the revealed deal and salt.")}</li>
        <li>${gettext("Run it in a terminal (Linux or macOS): the code it prints must be the fingerprint you noted.")}</li>
      </ol>
      <div id="verified" class="loading">${gettext("Loading…")}</div>
    </section>`);
  const days = [0, 1, 2, 3, 4, 5, 6].map(utcDay);
  const answers = await Promise.all(days.map((day) => api("GET", `daily/${day}/`, undefined, { signal: page.signal })
    .then((answer) => answer.results).catch(orNull)));
  const rows = answers.flat().filter(Boolean);
  const commitments = root.querySelector("#commitments");
  commitments.classList.remove("loading");
  draw(page, commitments, rows.length ? html`<ul id="coming" class="coming">${rows.map((row) => html`<li>
      <span class="date">${formatDate(row.date)}</span> <span class="preset">${row.preset}</span>
      <code class="hex">${row.commitment}</code></li>`)}</ul>`
    : html`<p>${gettext("No deals committed yet.")}</p>`);
  const yesterday = utcDay(-1);
  const past = await api("GET", `daily/${yesterday}/`, undefined, { signal: page.signal })
    .then((answer) => answer.results).catch(orNull) ?? [];
  /** @type {Verified[]} */
  const checks = (await Promise.all(past.map((daily) => api("GET", `daily/${daily.date}/${daily.preset}/verify/`, undefined,
    { signal: page.signal }).catch(orNull)))).filter(Boolean);
  const verified = root.querySelector("#verified");
  verified.classList.remove("loading");
  draw(page, verified, checks.length ? checks.map((check) => html`<div class="verified">
      <h3>${formatDate(check.date)} · ${check.preset}</h3>
      <p>${check.commitment_matches ? gettext("The revealed deal and salt give the published fingerprint: it matches.")
        : check.revealed ? gettext("The revealed deal and salt do not give the published fingerprint.") : gettext("Not revealed yet.")}</p>
      <p class="small">${gettext("Fingerprint published before the day:")} <code class="hex">${check.commitment}</code></p>
      ${check.check ? scrollBox(html`<pre class="check"><code>${check.check}</code></pre>`, gettext("The command to check it")) : ""}
    </div>`) : html`<p>${gettext("There was no daily deal yesterday to check.")}</p>`);
  markScrollers(root, page);
}
