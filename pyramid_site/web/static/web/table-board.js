// The table's board as lit-html templates: the pyramid, the reserve, the stock and the waste, each card an
// element that stays the same element from one position to the next (keyed by its location), so a tap that
// began on the stock ends on the stock, and focus stays where the player left it.

import { html as lit, nothing } from "./vendor/lit-html/lit-html.js";
import { rowColumn } from "./board.js";
import { cardAccessibleName, cardName, rankLabel, SUITS } from "./cards.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

/**
 * @typedef {object} Slot
 * @property {string} card
 * @property {boolean} free
 *
 * @typedef {object} PlayerView  the API's view of a position (docs/api.md, "the player view")
 * @property {(Slot | null)[]} pyramid
 * @property {(string | null)[]} reserve
 * @property {{count: number, top: string | null}} stock
 * @property {string[]} waste
 * @property {string[]} legal_moves
 * @property {number} pass
 * @property {number | null} passes
 * @property {number} cards_left
 * @property {number} pyramid_left
 * @property {string} status
 * @property {{reserve: boolean, waste_top: string, draw: number}} rules
 * @property {string[] | null} [forced]  the moves that play the game out when every move left is forced (docs/rules.md,
 *   section 19), else null (or absent, from a server before API 3.1.0)
 *
 * @typedef {object} Marks  what the table outlines
 * @property {string | null} selected
 * @property {string[]} partners
 * @property {string[]} hinted
 * @property {string | null} [dragging]  the card being dragged
 */

/** @param {string} card */
const face = (card) => {
  const corner = lit`<span class="rank" data-t=${rankLabel(card)}></span><span class="suit" data-t=${SUITS[card[1]]}></span>`;
  return lit`<span class="corner top">${corner}</span><span class="pip" data-t=${SUITS[card[1]]}></span><span class="corner bottom">${corner}</span>`;
};

/**
 * @param {Marks} marks
 * @param {string} location
 */
function markClasses(marks, location) {
  return [marks.selected === location ? "selected" : "", marks.partners.includes(location) ? "partner" : "",
    marks.hinted.includes(location) ? "hinted" : "", marks.dragging === location ? "dragging" : ""].filter(Boolean).join(" ");
}

/**
 * A card the player can press: a button at an engine location.
 * @param {string} card
 * @param {string} location
 * @param {boolean} free
 * @param {Marks} marks
 * @param {string} [place]  custom properties that place it (the pyramid's row and column)
 */
function cardButton(card, location, free, marks, place = undefined) {
  const label = cardAccessibleName(card, location, free);
  return lit`<button type="button" class="card ${"DH".includes(card[1]) ? "red" : "black"} ${free ? "free" : "covered"} ${markClasses(marks, location)}"
    data-card=${card} data-loc=${location} aria-label=${label} title=${label} aria-pressed=${String(marks.selected === location)}
    tabindex=${free ? nothing : "-1"} style=${place ?? nothing}>${face(card)}</button>`;
}

/** @param {string} card */
function cardPicture(card) {
  const label = cardName(card);
  return lit`<div class="card ${"DH".includes(card[1]) ? "red" : "black"} covered" data-card=${card} role="img"
    aria-label=${label} title=${label}>${face(card)}</div>`;
}

/**
 * The stock: face down (pressed to draw or redeal), or its top card face up where the rules show it.
 * @param {PlayerView} v
 * @param {Marks} marks
 */
function stockTemplate(v, marks) {
  if (v.stock.top) return cardButton(v.stock.top, "S", true, marks);
  const count = v.stock.count;
  const label = count ? interpolate(ngettext("stock, %(count)s card: draw", "stock, %(count)s cards: draw", count), { count })
    : v.legal_moves.includes("redeal") ? gettext("redeal") : gettext("stock empty");
  return lit`<button type="button" class="card back ${count ? "" : "spent"} ${markClasses(marks, "stock")}" data-loc="stock"
    aria-label=${label} title=${label}></button>`;
}

/**
 * @param {PlayerView} v
 * @param {Marks} marks
 */
export function boardTemplate(v, marks) {
  const top = v.waste.at(-1);
  const under = v.waste.at(-2);
  return lit`
    <div class="pyramid" role="group" aria-label=${gettext("pyramid")}>
      ${v.pyramid.map((slot, position) => {
        // one part per position, 0 to 27, empty once its card is gone: a card keeps its element by its place
        if (!slot) return nothing;
        const [row, column] = rowColumn(position);
        return cardButton(slot.card, String(position), slot.free, marks, `--row: ${row}; --col: ${column}`);
      })}
      ${v.pyramid_left === 0 ? lit`<p class="cleared">${gettext("Pyramid cleared")}</p>` : nothing}
    </div>
    ${v.rules.reserve ? lit`<div class="reserve" role="group" aria-label=${gettext("reserve")}>
      ${v.reserve.map((card, i) => (card ? cardButton(card, `R${i}`, true, marks) : lit`<div class="card empty"></div>`))}
    </div>` : nothing}
    <div class="piles">
      <div class="pile" id="stock-pile">${stockTemplate(v, marks)}<span class="pile-label">${gettext("Stock")} <b id="stock-count">${v.stock.count}</b></span></div>
      <div class="pile" id="waste-pile">${top ? lit`<div class="fan">${under ? cardPicture(under) : nothing}${cardButton(top, "W", v.rules.waste_top === "live", marks)}</div>`
        : lit`<div class="card empty">${gettext("empty")}</div>`}<span class="pile-label">${gettext("Waste")} <b id="waste-count">${v.waste.length}</b></span></div>
    </div>`;
}
