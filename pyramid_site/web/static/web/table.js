// The table: one game drawn from the API's player view, played move by move through the API.
// No rules here: what may be played comes from the view's `legal_moves`, and refusals carry the
// engine's reason from the server. One exception: a pyramid card the view itself shows as covered
// is refused on the page, in the engine's own words (`7♣ is covered by Q♦ and 2♠`), without a request.
//
// Input is read from the table's model: a tap means the location it began on (the board's elements stay
// in place; what moves on screen are copies nothing can click), and every tap, key and button is done in
// the order it came, one at a time, through the table's work queue (moves.js). A request the network lost
// is sent again with the same ply until the server answers; the server answers a repeat of a move it has
// already played with the game as it stands (`applied: false`), so nothing is played twice.

import { api, ApiError, currentUser, startGame } from "./api.js";
import { arrive, calm, celebrate, ghosts, leave, sound, soundOn, soundToggle } from "./feel.js";
import { resultAnalysis } from "./analysis.js";
import { coveringPositions } from "./board.js";
import { cardLabel } from "./cards.js";
import { formatDate, gettext, interpolate, ngettext } from "./i18n.js";
import { html } from "./markup.js";
import { untilAnswered, WorkQueue } from "./moves.js";
import { followWhileOpen } from "./live.js";
import { isAbort } from "./page.js";
import { boardTemplate } from "./table-board.js";
import { clock } from "./time.js";
import { html as lit, nothing, render } from "./vendor/lit-html/lit-html.js";

/**
 * @typedef {import("./table-board.js").PlayerView} PlayerView
 *
 * @typedef {object} Game  the API's game (docs/api.md, "games")
 * @property {number} id
 * @property {"practice" | "ranked"} mode
 * @property {string} status
 * @property {{number: number | string | null, number_text: string | null, preset: string, par_moves: number | null}} deal
 * @property {{date: string, preset: string} | null} daily
 * @property {number} moves
 * @property {number} next_ply
 * @property {number} cards_left
 * @property {number} undo_count
 * @property {string} started_at
 * @property {string | null} finished_at
 * @property {string | null} closes_at
 * @property {number} version
 * @property {PlayerView} position
 * @property {boolean} [applied]  on a move's answer: false when the server had played it already
 *
 * @typedef {{text: string, kind: string, move: string | null}} Message
 * @typedef {import("./page.js").Page} Page
 */

/** @param {Game} game */
function closesIn(game) {
  return game.closes_at && game.status === "playing" ? (Date.parse(game.closes_at) - Date.now()) / 1000 : null;
}

/** @param {Game} game */
function elapsed(game) {
  const end = game.finished_at ? Date.parse(game.finished_at) : Date.now();
  return (end - Date.parse(game.started_at)) / 1000;
}

/** @param {Game} game */
export function shareLine(game) {
  const what = game.daily ? interpolate(gettext("Pyramid daily %(date)s (%(preset)s)"), { date: game.daily.date, preset: game.deal.preset })
    : interpolate(gettext("Pyramid deal #%(number)s (%(preset)s)"), { number: game.deal.number_text, preset: game.deal.preset });
  const result = game.status === "won" ? gettext("cleared ▲")
    : interpolate(ngettext("%(count)s card left", "%(count)s cards left", game.cards_left), { count: game.cards_left });
  const words = { what, result, moves: game.moves, par: game.deal.par_moves, time: clock(elapsed(game)) };
  return interpolate(game.deal.par_moves ? gettext("%(what)s: %(result)s in %(moves)s moves, par %(par)s, %(time)s")
    : gettext("%(what)s: %(result)s in %(moves)s moves, %(time)s"), words);
}

/**
 * The keys of the table's buttons, from their labels in the player's language: each takes the first letter
 * of its label not taken already ("Dra", "Tips", "Ångra" → D, T, Å; "Ziehen", "Tipp", "Zurück" → Z, T, U).
 * The English letters (D, H, U) keep working where no other button took them.
 * @param {[string, string][]} labels  [action, label] in order of importance
 * @returns {{keys: Map<string, string>, shown: Record<string, string>}}
 */
export function keysFor(labels) {
  const keys = new Map();
  /** @type {Record<string, string>} */
  const shown = {};
  for (const [action, label] of labels) {
    const letter = [...label.toLowerCase()].find((c) => /\p{L}/u.test(c) && !keys.has(c));
    if (!letter) continue;
    keys.set(letter, action);
    shown[action] = letter.toUpperCase();
  }
  for (const [letter, action] of [["d", "stock"], ["h", "hint"], ["u", "undo"]]) {
    if (!keys.has(letter)) keys.set(letter, action);
  }
  return { keys, shown };
}

const FINISH_PAUSE_MS = 700;  // before finishing by itself: long enough to see the last move land
const FINISH_STEP_MS = 220;  // between the moves of a finish, to watch them go
// a ranked finish keeps to a human pace whatever the motion setting: the speed rule of fair play
// (docs/fair-play.md) looks at the time a ranked win took per move, Finish included
const RANKED_FINISH_STEP_MS = 350;

export class Table {
  /**
   * @param {HTMLElement} root
   * @param {number} gameId
   * @param {Page} page
   */
  constructor(root, gameId, page) {
    this.root = root;
    this.page = page;
    this.gameId = gameId;
    /** @type {Game | null} */
    this.game = null;
    /** @type {string | null} */
    this.selected = null;
    /** @type {string[]} */
    this.hinted = [];
    this.queue = new WorkQueue(page.signal);
    /** @type {{loc: string, x: number, y: number, el: HTMLElement, moving: boolean, draggable: boolean} | null} */
    this.press = null;
    /** @type {string | null} the card being dragged */
    this.dragging = null;
    /** @type {Message} */
    this.message = { text: "", kind: "", move: null };
    this.announce = "";
    this.reconnecting = false;
    this.finishing = false;
    /** @type {number | null} the game's version a finish by itself was planned for */
    this.autoFinishFor = null;
    /** @type {HTMLElement | null} where lit-html draws (a child of root: the router redraws root itself) */
    this.host = null;
    /** what the result card learns after the game: the daily rank, the par, the server's share line */
    this.extra = { rank: /** @type {string | null} */ (null), par: /** @type {string | null} */ (null),
      share: /** @type {string | null} */ (null), asked: false };
  }

  async open() {
    this.root.innerHTML = String(html`<p class="loading">${gettext("Dealing…")}</p>`);
    try {
      this.game = /** @type {Game} */ (await api("GET", `games/${this.gameId}/`, undefined, { signal: this.page.signal }));
    } catch (error) {
      if (isAbort(error) || this.page.closed) return;
      this.root.innerHTML = `<p class="error"></p>`;
      this.root.querySelector(".error").textContent = error.message;
      return;
    }
    if (this.page.closed) return;
    localStorage.setItem("pyramid.lastGame", String(this.gameId));
    this.root.replaceChildren();
    this.host = document.createElement("div");
    this.host.className = "table-host";
    this.root.append(this.host);
    this.page.listen(document, "keydown", (event) => this.key(event));
    this.page.every(() => this.render(), 1000);  // the clocks
    this.render();
    this.afterChange();
    this.followElsewhere();
  }

  /**
   * The same game played in another tab or on another device: its moves come on the game's stream (polled when
   * the stream is down), and the table catches up once it is idle. Its own moves come back on the stream too,
   * with a `game_version` the table already has by the time it looks.
   */
  followElsewhere() {
    if (!this.playing) return;
    followWhileOpen(this.page, `/api/games/${this.gameId}/events/`, {
      readAlready: true,
      onEvent: (type, payload) => {
        if (typeof payload?.game_version === "number" && payload.game_version > this.game.version) this.catchUp(payload.game_version);
      },
      poll: async () => {
        if (this.queue.pending > 0 || this.press) return;  // the player is at it: the next turn looks again
        const now = await api("GET", `games/${this.gameId}/`, undefined, { signal: this.page.signal });
        if (now.version > this.game.version) this.catchUp(now.version);
      },
    });
  }

  /**
   * The game as the server has it, once what the player asked for here is done, if it is still behind `version`.
   * @param {number} version
   */
  catchUp(version) {
    this.later(async () => {
      if (this.game.version >= version) return;
      const now = /** @type {Game} */ (await api("GET", `games/${this.gameId}/`, undefined, { signal: this.page.signal }));
      if (this.page.closed || now.version <= this.game.version) return;
      this.game = now;
      this.selected = null;
      this.hinted = [];
      this.say(gettext("The game moved on in another tab or device: this table now shows it."));
      this.afterChange();
    }).catch(() => undefined);
  }

  /** Kept for the router's older calls: the page's closing ends everything the table started. */
  close() {}

  get view() {
    return this.game.position;
  }

  get practice() {
    return this.game.mode === "practice";
  }

  get playing() {
    return this.game.status === "playing";
  }

  /** The moves left when all of them are forced (the player view's `forced`), else null. */
  get forced() {
    const forced = this.game?.position.forced;
    return this.playing && Array.isArray(forced) && forced.length ? forced : null;
  }

  // --- what the legal moves allow ------------------------------------------------------------

  /** @param {string} location */
  partners(location) {
    const found = [];
    for (const move of this.view.legal_moves) {
      const [a, b] = move.split("+");
      if (b === undefined) continue;
      if (a === location) found.push(b);
      if (b === location) found.push(a);
    }
    return found;
  }

  /**
   * @param {string} a
   * @param {string} b
   */
  legalPair(a, b) {
    const legal = this.view.legal_moves;
    if (legal.includes(`${a}+${b}`)) return `${a}+${b}`;
    if (legal.includes(`${b}+${a}`)) return `${b}+${a}`;
    return null;
  }

  /** @param {string} location */
  cardAt(location) {
    const v = this.view;
    if (location === "W") return v.waste.at(-1) || null;
    if (location === "S") return v.stock.top;
    if (location.startsWith("R")) return v.reserve[Number(location.slice(1))];
    return v.pyramid[Number(location)]?.card || null;
  }

  /**
   * Why the pyramid card at `location` cannot be taken when the view already shows it covered, in the
   * engine's words: `7♣ is covered by Q♦ and 2♠`. Null when the view cannot tell: not a covered pyramid
   * card, or `partner` lies on it (whether a card pairs with the card it covers depends on the rules, and
   * the server says).
   * @param {string} location
   * @param {string | null} [partner]
   */
  coveredReason(location, partner = null) {
    if (!this.playing || !/^\d+$/.test(location)) return null;
    const pyramid = this.view.pyramid;
    const slot = pyramid[Number(location)];
    if (!slot || slot.free) return null;
    const on = coveringPositions(Number(location)).filter((q) => pyramid[q]);
    if (!on.length || on.map(String).includes(partner)) return null;
    const names = on.map((q) => cardLabel(pyramid[q].card));
    const by = names.length === 1 ? names[0] : interpolate(gettext("%(cards)s and %(last)s"), { cards: names[0], last: names[1] });
    return interpolate(gettext("%(card)s is covered by %(covered_by)s"), { card: cardLabel(slot.card), covered_by: by });
  }

  // --- what the player asks for: in order, one at a time ---------------------------------------

  /**
   * @param {() => Promise<any> | any} task
   */
  later(task) {
    return this.queue.push(async () => {
      try {
        return await task();
      } catch (error) {
        if (!isAbort(error)) throw error;
        return undefined;
      }
    });
  }

  /** A tap (or Enter) on the card or pile at `location`, as the board stood when it began. */
  tap(location) {
    return this.later(() => this.tapAt(location));
  }

  stockAction() {
    return this.later(() => this.drawOrRedeal());
  }

  // --- choosing cards (run in the queue: the model is up to date) ------------------------------

  /** @param {string} location */
  async tapAt(location) {
    if (!this.playing) return;
    if (location === "stock") return this.drawOrRedeal();
    if (location !== "stock" && this.cardAt(location) === null) return this.select(null);  // gone meanwhile
    const legal = this.view.legal_moves;
    const chosen = this.selected;
    if (chosen === null) {
      if (legal.includes(location)) return this.play(location);  // a king goes with one click
      if (this.coveredReason(location) !== null) return this.refuseHere(location);  // refused: say why
      this.select(location);
      if (!this.partners(location).length) {
        this.say(interpolate(gettext("%(card)s has no partner among the free cards right now."), { card: cardLabel(this.cardAt(location)) }));
      }
      return;
    }
    this.select(null);
    if (chosen === location) return;
    const pair = this.legalPair(chosen, location);
    if (pair) return this.play(pair);
    if (legal.includes(location) && !this.partners(chosen).includes(location)) return this.play(location);
    const reason = this.coveredReason(location, chosen);
    if (reason !== null) return this.refuseHere(location, chosen);
    return this.play(`${chosen}+${location}`);  // refused by the server, with the engine's reason
  }

  /**
   * @param {string} location
   * @param {string | null} [partner]
   */
  refuseHere(location, partner = null) {
    this.selected = null;
    sound("refusal");
    this.say(`${this.coveredReason(location, partner)}.`, "refusal");
  }

  /** @param {string | null} location */
  select(location) {
    this.selected = location;
    this.render();
  }

  drawOrRedeal() {
    if (!this.playing) return;
    const legal = this.view.legal_moves;
    if (legal.includes("draw")) return this.play("draw");
    if (legal.includes("redeal")) return this.play("redeal");
    return this.play(this.view.stock.count ? "draw" : "redeal");
  }

  // --- talking to the server --------------------------------------------------------------------

  /** What a request that must reach the server hears while it tries: the table says it is reconnecting. */
  retrying() {
    return {
      signal: this.page.signal,
      onWaiting: () => {
        if (this.reconnecting) return;
        this.reconnecting = true;
        this.render();
      },
      onAnswered: () => {
        this.reconnecting = false;
        this.render();
      },
    };
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {any} [body]
   * @param {Partial<import("./moves.js").RetryHooks>} [hooks]
   * @returns {Promise<any>}
   */
  request(method, path, body, hooks = {}) {
    return untilAnswered(() => api(method, path, body, { signal: this.page.signal }), { ...this.retrying(), ...hooks });
  }

  /**
   * Play `move` as the next ply, sent again (the same ply) until the server answers. True when played.
   * @param {string} move
   * @returns {Promise<boolean>}
   */
  async play(move) {
    if (!this.playing) return false;
    const ply = this.game.next_ply;
    const turned = move === "draw" || move === "redeal";
    const named = turned ? [] : move.split("+").map((loc) => this.cardAt(loc)).filter(Boolean).map(cardLabel);
    /** @type {Game} */
    let game;
    try {
      game = await this.request("POST", `games/${this.gameId}/moves/`, { ply, move });
    } catch (error) {
      if (isAbort(error)) throw error;
      sound("refusal");
      await this.refused(error);
      return false;
    }
    if (this.page.closed) return false;
    const fading = ghosts(turned ? [] : move.split("+").map((loc) => this.host.querySelector(`.board [data-loc="${loc}"]`))
      .filter(Boolean));
    this.game = game;
    this.hinted = [];
    this.selected = null;
    const left = interpolate(ngettext("%(count)s card left.", "%(count)s cards left.", game.cards_left), { count: game.cards_left });
    const done = turned ? (move === "draw" ? gettext("Drew.") : gettext("Redealt."))
      : interpolate(named.length === 1 ? gettext("%(card)s removed.") : gettext("%(card)s and %(other)s removed."),
        { card: named[0], other: named[1] });
    this.announce = `${done} ${left}`;
    if (this.message.kind !== "won") this.message = { text: "", kind: "", move: null };
    this.render();
    leave(fading);
    if (move === "draw") arrive(this.host.querySelector('#waste-pile [data-loc="W"]'), this.host.querySelector("#stock-pile .card"));
    sound(this.game.status === "won" ? "win" : turned ? "draw" : "removal");
    if (this.game.status === "won") celebrate(this.host.querySelector(".board"));
    else if (this.practice && this.playing && liveVerdictOn() && !this.finishing) this.verdict();
    this.afterChange();
    return true;
  }

  /**
   * The server's refusal: said in its words. A move that was not the next one (`wrong_ply`: the game moved
   * on elsewhere) or a game already over brings the table back in step with the server, and what was
   * still waiting in the queue is dropped, with a word to the player.
   * @param {any} error
   */
  async refused(error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "wrong_ply" || error.code === "game_over" || error.code === "window_over") {
      const dropped = this.queue.clear();
      await this.resync();
      if (error.code === "wrong_ply") {
        const words = gettext("This table was behind the game: it now shows the game as the server has it.");
        const lost = dropped ? interpolate(ngettext("%(count)s move you asked for was not played.",
          "%(count)s moves you asked for were not played.", dropped), { count: dropped }) : "";
        this.say(`${words} ${lost}`.trim(), "refusal");
        return;
      }
      if (!this.playing) return;  // the result card says it
    }
    // the engine's reason names the cards as the player sees them; the move's notation adds nothing
    this.say(`${error.message}.`.replace(/\.\.$/, "."), "refusal");
  }

  /** The game as the server has it now. */
  async resync() {
    this.game = await this.request("GET", `games/${this.gameId}/`);
    this.selected = null;
    this.hinted = [];
    this.render();
    this.afterChange();
  }

  undo() {
    if (!this.practice && this.playing) return this.say(gettext("A ranked game has no undo: every move counts."));
    return this.later(async () => {
      if (!this.practice || !this.playing) return;
      const before = this.game.undo_count;
      try {
        // an undo is not a move with a ply: before sending it again, ask whether the lost one went through
        this.game = await this.request("POST", `games/${this.gameId}/undo/`, undefined, {
          beforeRetry: async () => {
            const now = await api("GET", `games/${this.gameId}/`, undefined, { signal: this.page.signal });
            return now.undo_count > before ? { done: now } : null;
          },
        });
      } catch (error) {
        if (isAbort(error)) throw error;
        return this.refused(error);
      }
      this.hinted = [];
      this.selected = null;
      this.say(gettext("Move taken back."));
      this.afterChange();
    });
  }

  hint() {
    if (!this.practice && this.playing) return this.say(gettext("A ranked game is played without hints."));
    return this.later(async () => {
      if (!this.practice || !this.playing) return;
      this.say(gettext("Thinking…"));
      let advice;
      try {
        advice = await this.request("GET", `games/${this.gameId}/hint/`);
      } catch (error) {
        if (isAbort(error)) throw error;
        return this.refused(error);
      }
      if (!advice.move) {
        this.say(advice.verdict === "unknown" ? gettext("No hint this time: the solver ran out of time on this position.")
          : advice.explanation, "hint");
        return;
      }
      this.hinted = advice.move === "draw" || advice.move === "redeal" ? ["stock"] : advice.locations;
      // the explanation names the cards; the notation stays on the message for scripts and tests
      this.say(interpolate(gettext("Hint: %(explanation)s"), { explanation: advice.explanation }), "hint", advice.move);
    });
  }

  /** Whether the position can still be won: not a hint, nothing is counted on the game. */
  verdict() {
    return this.later(async () => {
      if (!this.practice || !this.playing) return;
      this.say(gettext("Asking the solver…"));
      try {
        this.say(verdictText(await this.request("GET", `games/${this.gameId}/verdict/`)), "verdict");
      } catch (error) {
        if (isAbort(error)) throw error;
        return this.refused(error);
      }
    });
  }

  resign() {
    if (!this.playing || !confirm(gettext("Resign this game?"))) return;
    return this.later(async () => {
      if (!this.playing) return;
      try {
        this.game = await this.request("POST", `games/${this.gameId}/resign/`);
      } catch (error) {
        if (isAbort(error)) throw error;
        return this.refused(error);
      }
      this.render();
    });
  }

  /** Play out the forced moves the server listed, one after another, with the usual animation. */
  finish() {
    const moves = this.forced;
    if (!moves || this.finishing) return;
    this.finishing = true;
    this.render();
    return this.later(async () => {
      try {
        for (const [i, move] of moves.entries()) {
          if (!this.playing || !this.view.legal_moves.includes(move)) break;
          if (!(await this.play(move))) break;
          if (i === moves.length - 1) break;
          if (!this.practice) await this.page.sleep(RANKED_FINISH_STEP_MS);
          else if (!calm()) await this.page.sleep(FINISH_STEP_MS);
        }
      } finally {
        this.finishing = false;
        if (!this.page.closed) this.render();
      }
    });
  }

  /** After the game changed: finish by itself, when the player asked for that and every move left is forced. */
  afterChange() {
    if (!this.forced || !autoFinishOn() || this.finishing || this.autoFinishFor === this.game.version) return;
    const version = this.game.version;
    this.autoFinishFor = version;
    this.page.after(() => {
      if (this.game.version === version && this.queue.pending === 0) this.finish();
    }, FINISH_PAUSE_MS);
  }

  /**
   * @param {string} text
   * @param {string} [kind]
   * @param {string | null} [move]
   */
  say(text, kind = "", move = null) {
    this.message = { text, kind, move };
    this.render();
  }

  // --- keyboard and pointer ---------------------------------------------------------------------

  /** @param {KeyboardEvent} event */
  key(event) {
    const target = /** @type {Element} */ (event.target);
    if (target.closest?.("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    const action = this.keys().keys.get(key);
    if (action === "stock") this.stockAction();
    else if (action === "hint") this.hint();
    else if (action === "undo") this.undo();
    else if (key === "escape") this.later(() => this.select(null));
    else if (key.startsWith("arrow")) this.moveFocus(key.slice(5));
    else return;
    event.preventDefault();
  }

  keys() {
    const labels = /** @type {[string, string][]} */ ([[
      "stock", this.game && this.view.legal_moves.includes("redeal") ? gettext("Redeal") : gettext("Draw")]]);
    if (this.game && this.practice) labels.push(["hint", gettext("Hint")], ["undo", gettext("Undo")]);
    return keysFor(labels);
  }

  /** @param {string} direction */
  moveFocus(direction) {
    const candidates = /** @type {HTMLElement[]} */ ([...this.host.querySelectorAll(".board [data-loc]:not(.covered)")]);
    if (!candidates.length) return;
    const active = /** @type {HTMLElement} */ (document.activeElement);
    const current = candidates.includes(active) ? active : null;
    if (!current) return candidates[0].focus();
    /** @param {Element} el */
    const centre = (el) => {
      const r = el.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    };
    const [x0, y0] = centre(current);
    let best = null;
    let bestScore = Infinity;
    for (const el of candidates) {
      if (el === current) continue;
      const [x, y] = centre(el);
      const [ahead, aside] = {
        left: [x0 - x, y - y0], right: [x - x0, y - y0], up: [y0 - y, x - x0], down: [y - y0, x - x0],
      }[direction];
      if (ahead <= 4) continue;
      const score = ahead + 2 * Math.abs(aside);
      if (score < bestScore) [best, bestScore] = [el, score];
    }
    best?.focus();
  }

  /**
   * The place a press means is the one it began on: decided here, from the board as the model draws it.
   * @param {PointerEvent} event
   */
  pointerDown(event) {
    const el = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-loc]"));
    if (!el || event.button !== 0 || !this.game) return;
    const loc = el.dataset.loc;
    const draggable = this.playing && loc !== "stock" && !el.classList.contains("covered");
    this.press = { loc, x: event.clientX, y: event.clientY, el, moving: false, draggable };
    if (draggable && event.pointerType !== "touch") el.setPointerCapture?.(event.pointerId);
  }

  /** @param {PointerEvent} event */
  pointerMove(event) {
    const drag = this.press;
    if (!drag?.draggable) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < 8) return;
    if (!drag.moving) {
      drag.moving = true;
      this.dragging = drag.loc;
      this.later(() => this.select(drag.loc));
    }
    drag.el.style.translate = `${dx}px ${dy}px`;
  }

  /** @param {PointerEvent} event */
  pointerUp(event) {
    const press = this.press;
    this.press = null;
    /** @type {string | null} the card being dragged */
    this.dragging = null;
    if (!press) return;
    if (!press.moving) {
      this.tap(press.loc);
      return;
    }
    this.dragging = null;
    press.el.style.translate = "";
    this.render();
    const target = /** @type {HTMLElement | undefined} */ (document.elementsFromPoint(event.clientX, event.clientY)
      .map((el) => el.closest("[data-loc]")).find((el) => el && el !== press.el));
    const to = target?.dataset.loc;
    this.later(async () => {
      if (!to || to === "stock") return this.select(null);
      this.selected = press.loc;
      return this.tapAt(to);
    });
  }

  /**
   * A click: from the keyboard (Enter, Space: `detail` 0) it is the press itself; a pointer's click (a
   * mouse's or a finger's) was done on pointerup already.
   * @param {MouseEvent} event
   */
  clicked(event) {
    if (event.detail !== 0) return;
    const el = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-loc]"));
    if (el) this.tap(el.dataset.loc);
  }

  // --- drawing --------------------------------------------------------------------------------

  render() {
    if (this.page.closed || !this.host || !this.game) return;
    if (!this.playing && !this.extra.asked) {  // the game has just ended (or was over when opened)
      this.extra.asked = true;
      this.message = { text: this.headline(), kind: this.game.status, move: null };
      this.page.after(() => this.learnResult(), 0);
    }
    const hadFocus = this.host.contains(document.activeElement);
    render(this.template(), this.host);
    // keyboard players keep their place: the same card, or the nearest free one when theirs has gone
    if (hadFocus && !this.host.contains(document.activeElement)) {
      /** @type {HTMLElement | null} */ (this.host.querySelector(".board [data-loc]:not(.covered)"))?.focus();
    }
  }

  template() {
    const game = this.game;
    const v = this.view;
    const passes = v.passes === null ? "∞" : v.passes;
    // a tournament's deal number stays secret until the tournament is over
    const title = game.daily ? interpolate(gettext("Daily %(date)s"), { date: formatDate(game.daily.date) })
      : game.deal.number_text === null ? gettext("Tournament game") : interpolate(gettext("Deal #%(number)s"), { number: game.deal.number_text });
    const closing = game.daily ? gettext("the game is closed as it stands when its day ends")
      : gettext("the game is closed as it stands when its tournament ends");
    const closes = closesIn(game);
    const partners = this.selected === null ? [] : this.partners(this.selected);
    const { shown } = this.keys();
    /** @param {string} action */
    const kbd = (action) => (shown[action] ? lit`<kbd class="key" aria-hidden="true">${shown[action]}</kbd> ` : nothing);
    const redeal = v.legal_moves.includes("redeal");
    return lit`
      <section class="table ${game.mode} ${this.playing ? "" : "over"}">
        <div class="status-line">
          <h1 class="title">${title} · ${game.deal.preset}</h1>
          <span class="tag">${game.mode === "ranked" ? gettext("Ranked") : gettext("Practice")}</span>
          <span>${gettext("Moves")} <b id="moves">${game.moves}</b></span>
          <span>${gettext("Time")} <b id="time">${clock(elapsed(game))}</b></span>
          <span>${gettext("Pass")} <b id="pass">${v.pass}/${passes}</b></span>
          <span>${gettext("Left")} <b id="cards-left">${v.cards_left}</b></span>
          ${closes !== null ? lit`<span title=${closing}>${gettext("Closes in")} <b id="closes-in">${clock(closes)}</b></span>` : nothing}
        </div>
        ${this.playing ? nothing : lit`${this.messagesTemplate()}<div id="result">${this.resultTemplate()}</div>`}
        <div class="board" @pointerdown=${(/** @type {PointerEvent} */ e) => this.pointerDown(e)}
          @pointermove=${(/** @type {PointerEvent} */ e) => this.pointerMove(e)}
          @pointerup=${(/** @type {PointerEvent} */ e) => this.pointerUp(e)}
          @pointercancel=${() => { this.press = null; }}
          @click=${(/** @type {MouseEvent} */ e) => this.clicked(e)}>${boardTemplate(v, { selected: this.selected, partners, hinted: this.hinted, dragging: this.dragging })}</div>
        ${this.playing ? this.messagesTemplate() : nothing}
        <div class="controls" ?hidden=${!this.playing}>
          <button type="button" id="draw" aria-keyshortcuts=${shown.stock ?? nothing} @click=${() => this.stockAction()}>${kbd("stock")}${redeal ? gettext("Redeal") : gettext("Draw")}</button>
          ${this.forced ? lit`<button type="button" id="finish" ?disabled=${this.finishing} @click=${() => this.finish()}>${gettext("Finish")}</button>` : nothing}
          ${this.practice ? lit`<button type="button" id="hint" aria-keyshortcuts=${shown.hint ?? nothing} @click=${() => this.hint()}>${kbd("hint")}${gettext("Hint")}</button>
          <button type="button" id="undo" aria-keyshortcuts=${shown.undo ?? nothing} @click=${() => this.undo()}>${kbd("undo")}${gettext("Undo")}</button>
          <button type="button" id="can-win" @click=${() => this.verdict()}>${gettext("Can this still be won?")}</button>
          <button type="button" id="live-verdict" class="quiet" aria-pressed=${String(liveVerdictOn())} @click=${() => {
            const now = liveVerdictToggle();
            this.render();
            if (now && this.playing) this.verdict();
          }}>${liveVerdictWords(liveVerdictOn())}</button>` : nothing}
          <button type="button" id="auto-finish" class="quiet" aria-pressed=${String(autoFinishOn())} @click=${() => {
            autoFinishToggle();
            this.autoFinishFor = null;
            this.render();
            this.afterChange();
          }}>${autoFinishWords(autoFinishOn())}</button>
          <button type="button" id="resign" class="quiet" @click=${() => this.resign()}>${gettext("Resign")}</button>
          <button type="button" id="sound" class="quiet" aria-pressed=${String(soundOn())} @click=${() => {
            soundToggle();
            this.render();
          }}>${soundWords(soundOn())}</button>
        </div>
        <p id="announce" class="sr-only" aria-live="polite">${this.announce}</p>
      </section>`;
  }

  /**
   * What the table says: reconnecting, and the last message; under the cards while the game is played, over
   * the result card once it is over (the result's headline itself is said there, and shown by the card).
   */
  messagesTemplate() {
    const message = this.message;
    return lit`<div class="table-messages">
      <p id="connection" class="connection ${this.reconnecting ? "on" : ""}" role="status">${this.reconnecting
        ? gettext("Reconnecting… Your moves are kept and will be sent in order.") : ""}</p>
      <p id="message" class="message ${message.kind} ${this.playing || message.kind !== this.game.status ? "" : "sr-only"}"
        role="alert" data-move=${message.move ?? nothing}>${message.text}</p>
    </div>`;
  }

  /** The headline of a finished game. */
  headline() {
    const game = this.game;
    const count = game.cards_left;
    return interpolate({
      won: gettext("Cleared! The deal is won."),
      stuck: ngettext("Stuck: no move can help any more. %(count)s card left.", "Stuck: no move can help any more. %(count)s cards left.", count),
      resigned: ngettext("Resigned with %(count)s card left.", "Resigned with %(count)s cards left.", count),
      closed: game.daily
        ? ngettext("The day ended with this game still open: it counts as it stood, %(count)s card left.",
          "The day ended with this game still open: it counts as it stood, %(count)s cards left.", count)
        : ngettext("The tournament ended with this game still open: it counts as it stood, %(count)s card left.",
          "The tournament ended with this game still open: it counts as it stood, %(count)s cards left.", count),
    }[game.status] ?? "", { count });
  }

  resultTemplate() {
    const game = this.game;
    const line = this.extra.share ?? shareLine(game);
    const guest = Boolean(currentUser()?.guest);
    const canShare = typeof navigator.share === "function";
    const rules = game.deal.preset === "custom" ? undefined : game.deal.preset;
    return lit`
      <div class="result-card ${game.status}">
        <h2>${this.headline()}</h2>
        <dl class="stats">
          <div><dt>${gettext("Cards left")}</dt><dd id="result-cards-left">${game.cards_left}</dd></div>
          <div><dt>${gettext("Moves")}</dt><dd id="result-moves">${game.moves}</dd></div>
          <div><dt>${gettext("Time")}</dt><dd id="result-time">${clock(elapsed(game))}</dd></div>
          <div><dt>${gettext("Par")}</dt><dd id="result-par">${this.extra.par ?? game.deal.par_moves ?? "—"}</dd></div>
          ${game.daily ? lit`<div><dt>${gettext("Your rank")}</dt><dd id="result-rank">${this.extra.rank ?? "…"}</dd></div>` : nothing}
        </dl>
        ${guest ? lit`<p class="keep-game">${gettext("You are playing as a guest.")}
          <a class="button" id="keep-game" href="#/signup">${gettext("Sign up to keep this game")}</a></p>` : nothing}
        <p id="result-analysis" class="result-analysis"></p>
        <div class="share">
          <textarea id="share-line" readonly rows="2" aria-label=${gettext("share line")} .value=${line}></textarea>
          ${canShare ? lit`<button type="button" id="share" @click=${() => this.share()}>${gettext("Share")}</button>`
            : lit`<button type="button" id="copy-share" @click=${() => this.copy()}>${gettext("Copy")}</button>`}
        </div>
        <p class="next">${game.daily ? lit`<a href="#/boards/daily/${game.daily.date}/${game.daily.preset}">${gettext("See the daily board")}</a> · ` : nothing}
          ${game.mode === "practice" ? lit`<button type="button" id="play-again" @click=${() => startGame({ number: game.deal.number_text, rules })}>${gettext("Play this deal again")}</button>
          <button type="button" id="new-deal" @click=${() => startGame({ rules, winnable: true })}>${gettext("New deal")}</button> · `
            : lit`<a href="#/practice">${gettext("Practise another deal")}</a> · `}
          <a href="#/">${gettext("Home")}</a></p>
      </div>`;
  }

  shareText() {
    const box = /** @type {HTMLTextAreaElement | null} */ (this.host.querySelector("#share-line"));
    return box?.value ?? this.extra.share ?? shareLine(this.game);
  }

  async share() {
    try {
      await navigator.share({ text: this.shareText() });
    } catch (error) {
      if (error?.name === "AbortError") return;  // the player closed the share sheet
      await this.copy();
    }
  }

  async copy() {
    const text = this.shareText();
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const box = /** @type {HTMLTextAreaElement | null} */ (this.host.querySelector("#share-line"));
      box?.select();
      document.execCommand("copy");
    }
    this.say(gettext("Share line copied."));
  }

  /** What the result card learns after the game ends: the analysis, the par, the daily rank and share line. */
  async learnResult() {
    const game = this.game;
    const signal = this.page.signal;
    const box = this.host?.querySelector("#result-analysis");
    if (box) resultAnalysis(/** @type {HTMLElement} */ (box), game, () => !this.page.closed && box.isConnected, signal);
    try {
      if (game.mode === "practice") {
        const rules = game.deal.preset === "custom" ? null : game.deal.preset;
        // the deal's par, asked for at the end of the game (solved in milliseconds) when nobody had asked before
        if (game.deal.par_moves != null || !rules) return;
        const path = `deals/${game.deal.number_text}/solve/?rules=${encodeURIComponent(rules)}`;
        let deal = await api("POST", path, undefined, { signal }).catch((e) => (isAbort(e) ? Promise.reject(e) : null));
        for (let wait = 0; deal?.status === "pending" && wait < 10; wait += 1) {  // a worker is solving it
          this.extra.par = gettext("being solved");
          this.render();
          await this.page.sleep(1000);
          deal = await api("GET", path.replace("/solve/", "/"), undefined, { signal }).catch((e) => (isAbort(e) ? Promise.reject(e) : null));
        }
        if (deal) this.extra.par = String(deal.par_moves ?? "—");
        else this.extra.par = null;
        this.render();
        return;
      }
      if (!game.daily) return;
      // the daily board and the server's share line, once the result is recorded
      const quiet = (/** @type {any} */ e) => (isAbort(e) ? Promise.reject(e) : null);
      const [board, share] = await Promise.all([
        api("GET", `boards/daily/${game.daily.date}/${game.daily.preset}/`, undefined, { signal }).catch(quiet),
        api("GET", `games/${game.id}/share/`, undefined, { signal }).catch(quiet),
      ]);
      this.extra.rank = board?.me ? interpolate(gettext("#%(rank)s of %(total)s"), { rank: board.me.rank, total: board.total }) : "—";
      if (share?.share) this.extra.share = share.share;
      this.render();
    } catch (error) {
      if (!isAbort(error)) throw error;
    }
  }
}

// a practice player's choice, kept in the browser: whether each move is followed by "can this still be won?"
const LIVE_VERDICT_KEY = "pyramid.liveVerdict";
const liveVerdictOn = () => localStorage.getItem(LIVE_VERDICT_KEY) === "on";
function liveVerdictToggle() {
  localStorage.setItem(LIVE_VERDICT_KEY, liveVerdictOn() ? "off" : "on");
  return liveVerdictOn();
}

// the player's choice, kept in the browser: whether the table plays out the forced moves left by itself
const AUTO_FINISH_KEY = "pyramid.autoFinish";
const autoFinishOn = () => localStorage.getItem(AUTO_FINISH_KEY) === "on";
function autoFinishToggle() {
  localStorage.setItem(AUTO_FINISH_KEY, autoFinishOn() ? "off" : "on");
  return autoFinishOn();
}

/** @param {boolean} on */
const liveVerdictWords = (on) => (on ? gettext("After every move: on") : gettext("After every move: off"));
/** @param {boolean} on */
const soundWords = (on) => (on ? gettext("Sound on") : gettext("Sound off"));
/** @param {boolean} on */
const autoFinishWords = (on) => (on ? gettext("Finish forced moves by itself: on") : gettext("Finish forced moves by itself: off"));

/** @param {any} advice */
function verdictText(advice) {
  if (advice.verdict === "winnable") {
    return advice.moves_to_win
      ? interpolate(gettext("Yes: this position can still be won in %(moves)s more moves with best play."), { moves: advice.moves_to_win })
      : gettext("Yes: this position can still be won.");
  }
  if (advice.verdict === "unwinnable") {
    return interpolate(ngettext("No: this position cannot be won any more; the best play leaves %(count)s card.",
      "No: this position cannot be won any more; the best play leaves %(count)s cards.", advice.best_cards_left),
    { count: advice.best_cards_left });
  }
  return gettext("The solver could not decide in its time limit: it is not proved either way.");
}
