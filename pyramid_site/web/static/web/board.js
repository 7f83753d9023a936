// A position drawn: the pyramid's geometry and the board of cards, shared by the table and the replay.

import { cardBack, cardElement, emptySlot } from "./cards.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

const ROWS = 7;

export function rowColumn(position) {
  let row = 0;
  while ((row + 1) * (row + 2) / 2 <= position) row += 1;
  return [row, position - row * (row + 1) / 2];
}

// The two pyramid positions lying on `position` (docs/rules.md, section 2), none for the bottom row.
export function coveringPositions(position) {
  const [row, column] = rowColumn(position);
  if (row === ROWS - 1) return [];
  const left = (row + 1) * (row + 2) / 2 + column;
  return [left, left + 1];
}


/**
 * Draw the player's view `v` of a position into `board` (a `.board` element): the pyramid, the reserve,
 * the stock and the waste. The table's cards are buttons; a read-only board (the replay's) draws pictures
 * of cards that nothing can click, and the stock as a picture too.
 */
export function drawBoard(board, v, { readOnly = false } = {}) {
  board.innerHTML = `
    <div class="pyramid" role="group" aria-label="${gettext("pyramid")}"></div>
    <div class="reserve" role="group" aria-label="${gettext("reserve")}"></div>
    <div class="piles">
      <div class="pile" id="stock-pile"><span class="pile-label">${gettext("Stock")} <b id="stock-count">${v.stock.count}</b></span></div>
      <div class="pile" id="waste-pile"><span class="pile-label">${gettext("Waste")} <b id="waste-count">${v.waste.length}</b></span></div>
    </div>`;
  const tag = readOnly ? "div" : "button";
  const pyramid = board.querySelector(".pyramid");
  v.pyramid.forEach((slot, position) => {
    if (!slot) return;
    const [row, column] = rowColumn(position);
    const el = cardElement(slot.card, { location: String(position), free: slot.free, tag });
    el.style.setProperty("--row", String(row));
    el.style.setProperty("--col", String(column));
    if (!slot.free && !readOnly) el.tabIndex = -1;
    pyramid.append(el);
  });
  if (v.pyramid_left === 0) {
    pyramid.append(Object.assign(document.createElement("p"), { className: "cleared", textContent: gettext("Pyramid cleared") }));
  }
  const reserve = board.querySelector(".reserve");
  if (!v.rules.reserve) reserve.remove();
  else {
    v.reserve.forEach((card, i) => {
      reserve.append(card ? cardElement(card, { location: `R${i}`, tag }) : emptySlot(""));
    });
  }
  const stock = board.querySelector("#stock-pile");
  const waste = board.querySelector("#waste-pile");
  if (v.stock.top) stock.prepend(cardElement(v.stock.top, { location: "S", tag }));
  else if (v.stock.count) {
    const count = v.stock.count;
    const label = readOnly ? ngettext("stock, %(count)s card", "stock, %(count)s cards", count)
      : ngettext("stock, %(count)s card: draw", "stock, %(count)s cards: draw", count);
    stock.prepend(cardBack({ location: "stock", label: interpolate(label, { count }), tag }));
  } else {
    const el = cardBack({ location: "stock", label: v.legal_moves.includes("redeal") ? gettext("redeal") : gettext("stock empty"), tag });
    el.classList.add("spent");
    stock.prepend(el);
  }
  const top = v.waste.at(-1);
  if (top) {
    const under = v.waste.at(-2);
    const fan = document.createElement("div");
    fan.className = "fan";
    if (under) fan.append(cardElement(under, { free: false, tag: "div" }));
    fan.append(cardElement(top, { location: "W", free: v.rules.waste_top === "live", tag }));
    waste.prepend(fan);
  } else waste.prepend(emptySlot(gettext("empty")));
}

