// Log-in only where acting needs it: a visitor reads every public page; when they act (join a club or a
// tournament, create one) the page asks, at that place, to log in, sign up, or go on as a guest where a guest may.

import { ensurePlayer } from "./api.js";
import { draw } from "./draw.js";
import { gettext } from "./i18n.js";
import { html } from "./markup.js";

/**
 * Asks for an account in `el`, and comes back to this address after logging in or signing up.
 * @param {HTMLElement} el
 * @param {{closed: boolean}} page
 * @param {{why: string, asGuest?: () => Promise<unknown>}} options  `asGuest`: the action, done as a new guest
 */
export function askForAccount(el, page, { why, asGuest }) {
  sessionStorage.setItem("pyramid.after", location.hash);
  draw(page, el, html`<div class="ask-account" role="status"><p>${why}</p>
    <p class="actions"><a class="button" href="#/login" id="ask-login">${gettext("Log in")}</a>
      <a class="button quiet" href="#/signup" id="ask-signup">${gettext("Sign up")}</a>
      ${asGuest ? html`<button type="button" class="quiet" id="ask-guest">${gettext("Go on as a guest")}</button>` : ""}</p></div>`);
  el.hidden = false;
  el.querySelector("#ask-guest")?.addEventListener("click", async () => {
    await ensurePlayer();
    sessionStorage.removeItem("pyramid.after");
    el.hidden = true;
    await asGuest();
  });
}
