// Cards as the API writes them ("TC", "AS", "KD") drawn as HTML: rank and suit in the corners, red or black.
// The codes never change; the ranks are printed as the player's decks print them (Kn, D, K in Swedish; B, D, K
// in German) and the cards named in the player's words.

import { gettext, interpolate, pgettext } from "./i18n.js";

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function rankLabel(card) {
  const labels = { T: "10", A: pgettext("card rank: ace", "A"), J: pgettext("card rank: jack", "J"),
    Q: pgettext("card rank: queen", "Q"), K: pgettext("card rank: king", "K") };
  return labels[card[0]] || card[0];
}

export function cardName(card) {
  const suit = { C: gettext("clubs"), D: gettext("diamonds"), H: gettext("hearts"), S: gettext("spades") }[card[1]];
  const rank = { A: gettext("ace"), T: "10", J: gettext("jack"), Q: gettext("queen"), K: gettext("king") }[card[0]] || card[0];
  return interpolate(gettext("%(rank)s of %(suit)s"), { rank, suit });
}

export function cardLabel(card) {
  return `${rankLabel(card)}${SUITS[card[1]]}`;
}

/**
 * Where a card lies, as a player says it: ", row 3, card 2" of the pyramid (rows from the top).
 * @param {string | null} location
 */
function placeName(location) {
  if (location === null) return "";
  if (/^R\d$/.test(location)) return interpolate(gettext(", reserve card %(number)s"), { number: Number(location[1]) + 1 });
  if (location === "S") return gettext(", stock top");
  if (location === "W") return gettext(", waste top");
  const p = Number(location);
  const row = Math.floor((Math.sqrt(8 * p + 1) - 1) / 2);
  return interpolate(gettext(", row %(row)s, card %(card)s"), { row: row + 1, card: p - (row * (row + 1)) / 2 + 1 });
}

/**
 * A card as a screen reader names it: "seven of clubs, row 3, card 2, covered".
 * @param {string} card
 * @param {string | null} location
 * @param {boolean} free
 */
export function cardAccessibleName(card, location, free) {
  return `${cardName(card)}${placeName(location)}${free ? "" : gettext(", covered")}`;
}

/** A card face; `location` is the engine's location it stands at (0..27, R0..R6, S, W), if any. */
export function cardElement(card, { location = null, free = true, tag = "button" } = {}) {
  const el = document.createElement(tag);
  el.className = `card ${"DH".includes(card[1]) ? "red" : "black"} ${free ? "free" : "covered"}`;
  el.dataset.card = card;
  if (location !== null) el.dataset.loc = location;
  if (tag === "button") el.setAttribute("type", "button");
  else el.setAttribute("role", "img");  // a picture of a card, named by its label
  const label = cardAccessibleName(card, location, free);
  el.setAttribute("aria-label", label);
  el.title = label;
  // the face is drawn by the style sheet from data-t (no text in the page), so the label alone names the card
  const corner = `<span class="rank" data-t="${rankLabel(card)}"></span><span class="suit" data-t="${SUITS[card[1]]}"></span>`;
  el.innerHTML = `<span class="corner top">${corner}</span><span class="pip" data-t="${SUITS[card[1]]}"></span>` +
    `<span class="corner bottom">${corner}</span>`;
  return el;
}

export function cardBack({ location = null, label = gettext("stock"), tag = "button" } = {}) {
  const el = document.createElement(tag);
  el.className = "card back";
  if (tag === "button") el.setAttribute("type", "button");
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
  let where = "%(card)s";
  if (/^\d+$/.test(location)) card = v.pyramid[Number(location)]?.card;
  else if (/^R\d$/.test(location)) [card, where] = [v.reserve[Number(location[1])], gettext("the reserve's %(card)s")];
  else if (location === "S") [card, where] = [v.stock.top, gettext("the stock's %(card)s")];
  else if (location === "W") [card, where] = [v.waste.at(-1), gettext("the waste's %(card)s")];
  return card ? interpolate(where, { card: cardLabel(card) }) : null;
}

/**
 * A move in the notation of docs/rules.md, in players' words, as played from the position `v` (the
 * view before it): "paired 7♣ with the waste's 6♦", "took K♠ away", "drew a card", "turned the waste over
 * (redeal)". `tense: "doing"` says it as what might have been done ("pairing 7♣ with …", "taking K♠
 * away", "drawing a card"). The notation itself when the view cannot name the cards.
 */
export function moveWords(move, v, { tense = "done" } = {}) {
  const done = tense === "done";
  if (move === "draw") {
    if (v?.rules?.draw === 3) return done ? gettext("drew three cards") : gettext("drawing three cards");
    return done ? gettext("drew a card") : gettext("drawing a card");
  }
  if (move === "redeal") return done ? gettext("turned the waste over (redeal)") : gettext("turning the waste over (redeal)");
  const names = v ? move.split("+").map((location) => placedCard(location, v)) : [null];
  if (names.some((name) => name === null)) {
    return interpolate(done ? gettext("played %(move)s") : gettext("playing %(move)s"), { move });
  }
  if (names.length === 1) return interpolate(done ? gettext("took %(card)s away") : gettext("taking %(card)s away"), { card: names[0] });
  return interpolate(done ? gettext("paired %(first)s with %(second)s") : gettext("pairing %(first)s with %(second)s"),
    { first: names[0], second: names[1] });
}

/** The places a move takes cards from, as locations on the board ("stock" for a draw or a redeal). */
export function moveLocations(move) {
  return move === "draw" || move === "redeal" ? ["stock"] : move.split("+");
}

export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
