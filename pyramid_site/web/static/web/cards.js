// Cards as the API writes them ("TC", "AS", "KD") drawn as HTML: rank and suit in the corners, red or black.

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

export function rankLabel(card) {
  return card[0] === "T" ? "10" : card[0];
}

export function cardName(card) {
  const rank = RANK_NAMES[card[0]] || card[0];
  return `${rank} of ${SUIT_NAMES[card[1]]}`;
}

export function cardLabel(card) {
  return `${rankLabel(card)}${SUITS[card[1]]}`;
}

/** Where a card lies, as a player says it: ", row 3, card 2" of the pyramid (rows from the top). */
function placeName(location) {
  if (location === null) return "";
  if (/^R\d$/.test(location)) return `, reserve card ${Number(location[1]) + 1}`;
  if (location === "S") return ", stock top";
  if (location === "W") return ", waste top";
  const p = Number(location);
  const row = Math.floor((Math.sqrt(8 * p + 1) - 1) / 2);
  return `, row ${row + 1}, card ${p - (row * (row + 1)) / 2 + 1}`;
}

/** A card face; `location` is the engine's location it stands at (0..27, R0..R6, S, W), if any. */
export function cardElement(card, { location = null, free = true, tag = "button" } = {}) {
  const el = document.createElement(tag);
  el.className = `card ${"DH".includes(card[1]) ? "red" : "black"} ${free ? "free" : "covered"}`;
  el.dataset.card = card;
  if (location !== null) el.dataset.loc = location;
  if (tag === "button") el.type = "button";
  else el.setAttribute("role", "img");  // a picture of a card, named by its label
  const label = `${cardName(card)}${placeName(location)}${free ? "" : ", covered"}`;
  el.setAttribute("aria-label", label);
  el.title = label;
  // the face is drawn by the style sheet from data-t (no text in the page), so the label alone names the card
  const corner = `<span class="rank" data-t="${rankLabel(card)}"></span><span class="suit" data-t="${SUITS[card[1]]}"></span>`;
  el.innerHTML = `<span class="corner top">${corner}</span><span class="pip" data-t="${SUITS[card[1]]}"></span>` +
    `<span class="corner bottom">${corner}</span>`;
  return el;
}

export function cardBack({ location = null, label = "stock" } = {}) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = "card back";
  if (location !== null) el.dataset.loc = location;
  el.setAttribute("aria-label", label);
  el.title = label;
  return el;
}

export function emptySlot(label) {
  const el = document.createElement("div");
  el.className = "card empty";
  el.textContent = label;
  return el;
}
