// The feel of the table: cards that leave and arrive, a win that is celebrated, and sounds made in the
// browser (Web Audio: no file is downloaded), off until the player turns them on. Nothing moves for a
// player who asks the system for reduced motion.

const SOUND_KEY = "pyramid.sound";

export function calm() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// cards taken away lift and fade. What fades is a copy laid over the page, which nothing can click: the
// table itself is drawn again at once, so a quick player's next click always lands on the new table.
/**
 * @param {Element[]} elements
 * @returns {HTMLElement[]}
 */
export function ghosts(elements) {
  if (calm()) return [];
  return elements.map((el) => {
    const box = el.getBoundingClientRect();
    const copy = /** @type {HTMLElement} */ (el.cloneNode(true));
    copy.removeAttribute("data-loc");
    copy.setAttribute("aria-hidden", "true");
    Object.assign(copy.style, { position: "fixed", left: `${box.left}px`, top: `${box.top}px`, margin: "0",
      pointerEvents: "none", zIndex: "50" });
    return copy;
  });
}

/** @param {HTMLElement[]} copies */
export function leave(copies) {
  for (const copy of copies) {
    document.body.append(copy);
    copy.animate([{ opacity: 1, transform: "translateY(0) scale(1)" }, { opacity: 0, transform: "translateY(-14px) scale(.7)" }],
      { duration: 170, easing: "ease-in", fill: "forwards" }).finished.catch(() => null).then(() => copy.remove());
  }
}

// a card turned onto the waste slides over from the stock. What slides is a copy nothing can click: the card
// itself waits unseen in its place, so a quick second tap on the stock lands on the stock, not on it.
/**
 * @param {Element | null} element
 * @param {Element | null} from
 */
export function arrive(element, from) {
  if (calm() || !element || !from) return;
  const a = from.getBoundingClientRect();
  const b = element.getBoundingClientRect();
  const copy = /** @type {HTMLElement} */ (element.cloneNode(true));
  copy.removeAttribute("data-loc");
  copy.removeAttribute("id");
  copy.setAttribute("aria-hidden", "true");
  copy.tabIndex = -1;
  Object.assign(copy.style, { position: "fixed", left: `${b.left}px`, top: `${b.top}px`, margin: "0",
    pointerEvents: "none", zIndex: "50" });
  document.body.append(copy);
  const duration = 180;
  copy.animate([{ transform: `translate(${a.left - b.left}px, ${a.top - b.top}px)`, opacity: .4 },
    { transform: "none", opacity: 1 }], { duration, easing: "ease-out" }).finished.catch(() => null).then(() => copy.remove());
  element.animate([{ opacity: 0 }, { opacity: 0 }], { duration });
}

// the deal is won: what is left of the board bounces once, card after card
export function celebrate(board) {
  if (calm() || !board) return;
  board.querySelectorAll(".card").forEach((card, i) => card.animate(
    [{ transform: "translateY(0)" }, { transform: "translateY(-18px) rotate(-4deg)" }, { transform: "translateY(0)" }],
    { duration: 420, delay: 40 * i, easing: "ease-in-out" }));
}

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

export function soundToggle() {
  localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
  return soundOn();
}

let audio = null;

// a short tone: a removal rises, a draw ticks, a win plays three notes
export function sound(kind) {
  if (!soundOn()) return;
  audio = audio || new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)();
  const notes = { removal: [660, 880], draw: [330], refusal: [180], win: [523, 659, 784] }[kind] || [];
  notes.forEach((frequency, i) => {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    const start = audio.currentTime + i * 0.09;
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.08, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + 0.12);
    tone.connect(gain).connect(audio.destination);
    tone.start(start);
    tone.stop(start + 0.13);
  });
}
