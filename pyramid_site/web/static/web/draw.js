// Drawing into a page that may have closed meanwhile: what a closed page asks to draw never reaches the screen.

import { isAbort } from "./page.js";

/**
 * Markup (from `markup.js`'s `html`) into `el`, unless `page` has closed (its address is no longer shown).
 * @param {{closed: boolean}} page
 * @param {Element} el
 * @param {unknown} markup
 * @returns {boolean} whether it was drawn
 */
export function draw(page, el, markup) {
  if (page.closed || !el) return false;
  el.innerHTML = String(markup);
  return true;
}

/**
 * For `.catch()`: a request that failed is null, but one cut short because its page closed stays a rejection,
 * so nothing after it runs.
 * @param {any} error
 * @returns {null}
 */
export function orNull(error) {
  if (isAbort(error)) throw error;
  return null;
}

/**
 * For `.catch()` where the failure is shown: the error itself, an abort still a rejection.
 * @param {any} error
 * @returns {Error}
 */
export function asError(error) {
  if (isAbort(error)) throw error;
  return error;
}
