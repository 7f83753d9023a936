// Wide tables on narrow screens: each sits in a box that scrolls sideways on its own (the page never does), and
// says so when it overflows: a visible "scroll sideways" line above it, and the box takes keyboard focus.

import { gettext } from "./i18n.js";
import { html } from "./markup.js";

/**
 * A table's markup in a sideways-scrolling box named `label` (for screen readers).
 * @param {unknown} table
 * @param {string} label
 */
export function scrollBox(table, label) {
  return html`<div class="scroll-wrap"><p class="scroll-cue small" hidden><span aria-hidden="true">↔ </span>${gettext("Scroll sideways to see more")}</p><div class="table-scroll" role="region" aria-label="${label}">${table}</div></div>`;
}

/** @type {WeakSet<object>} */
const watched = new WeakSet();

/**
 * Shows the cue of each box under `root` that overflows (and lets the keyboard scroll it), now and whenever the
 * window is resized while `page` is open.
 * @param {Element} root
 * @param {{closed: boolean, listen: (target: EventTarget, type: string, fn: (event: any) => void) => void}} page
 */
export function markScrollers(root, page) {
  const check = () => {
    for (const box of root.querySelectorAll(".table-scroll")) {
      const over = box.scrollWidth > box.clientWidth + 1;
      const cue = /** @type {HTMLElement} */ (box.previousElementSibling);
      if (cue) cue.hidden = !over;
      if (over) box.setAttribute("tabindex", "0");
      else box.removeAttribute("tabindex");
    }
  };
  check();
  if (!watched.has(page) && !page.closed) {
    watched.add(page);
    page.listen(window, "resize", check);
  }
}
