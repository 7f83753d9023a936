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

export function cardBack({ location = null, label = "stock", tag = "button" } = {}) {
  const el = document.createElement(tag);
  el.className = "card back";
  if (tag === "button") el.type = "button";
  else el.setAttribute("role", "img");
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

/** The card at a location of a position, as a player names it: pyramid cards by themselves (`7♣`), the
 * others by where they lie (`the reserve's 5♦`, `the stock's 9♥`, `the waste's 4♣`), as the engine's
 * refusals do. Null when the view does not show it. */
function placedCard(location, v) {
  let card = null;
  let where = "";
  if (/^\d+$/.test(location)) card = v.pyramid[Number(location)]?.card;
  else if (/^R\d$/.test(location)) [card, where] = [v.reserve[Number(location[1])], "the reserve's "];
  else if (location === "S") [card, where] = [v.stock.top, "the stock's "];
  else if (location === "W") [card, where] = [v.waste.at(-1), "the waste's "];
  return card ? `${where}${cardLabel(card)}` : null;
}

/**
 * A move in the notation of docs/rules.md, in players' words, as played from the position `v` (the
 * view before it): "paired 7♣ with the waste's 6♦", "took K♠ away", "drew a card", "turned the waste over
 * (redeal)". `tense: "doing"` says it as what might have been done ("pairing 7♣ with …", "taking K♠
 * away", "drawing a card"). The notation itself when the view cannot name the cards.
 */
export function moveWords(move, v, { tense = "done" } = {}) {
  const done = tense === "done";
  if (move === "draw") return `${done ? "drew" : "drawing"}${v?.rules?.draw === 3 ? " three cards" : " a card"}`;
  if (move === "redeal") return `${done ? "turned" : "turning"} the waste over (redeal)`;
  const names = v ? move.split("+").map((location) => placedCard(location, v)) : [null];
  if (names.some((name) => name === null)) return `${done ? "played" : "playing"} ${move}`;
  if (names.length === 1) return `${done ? "took" : "taking"} ${names[0]} away`;
  return `${done ? "paired" : "pairing"} ${names[0]} with ${names[1]}`;
}

/** The places a move takes cards from, as locations on the board ("stock" for a draw or a redeal). */
export function moveLocations(move) {
  return move === "draw" || move === "redeal" ? ["stock"] : move.split("+");
}

export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
