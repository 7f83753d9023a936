// The table: one game drawn from the API's player view, played move by move through the API.
// No rules here: what may be played comes from the view's `legal_moves`, and refusals carry the
// engine's reason from the server. One exception: a pyramid card the view itself shows as covered
// is refused on the page, in the engine's own words (`7♣ is covered by Q♦ and 2♠`), without a request.

import { api, ApiError, startGame } from "./api.js";
import { arrive, celebrate, ghosts, leave, sound, soundOn, soundToggle } from "./feel.js";
import { resultAnalysis } from "./analysis.js";
import { coveringPositions, drawBoard } from "./board.js";
import { cardLabel } from "./cards.js";
import { formatDate, gettext, interpolate, ngettext } from "./i18n.js";
import { html } from "./markup.js";
import { clock } from "./time.js";

function closesIn(game) {
  return game.closes_at && game.status === "playing" ? (new Date(game.closes_at) - new Date()) / 1000 : null;
}

function elapsed(game) {
  const end = game.finished_at ? new Date(game.finished_at) : new Date();
  return (end - new Date(game.started_at)) / 1000;
}

export function shareLine(game) {
  const what = game.daily ? interpolate(gettext("Pyramid daily %(date)s (%(preset)s)"), { date: game.daily.date, preset: game.deal.preset })
    : interpolate(gettext("Pyramid deal #%(number)s (%(preset)s)"), { number: game.deal.number, preset: game.deal.preset });
  const result = game.status === "won" ? gettext("cleared ▲")
    : interpolate(ngettext("%(count)s card left", "%(count)s cards left", game.cards_left), { count: game.cards_left });
  const words = { what, result, moves: game.moves, par: game.deal.par_moves, time: clock(elapsed(game)) };
  return interpolate(game.deal.par_moves ? gettext("%(what)s: %(result)s in %(moves)s moves, par %(par)s, %(time)s")
    : gettext("%(what)s: %(result)s in %(moves)s moves, %(time)s"), words);
}

export class Table {
  constructor(root, gameId, page) {
    this.root = root;
    this.page = page;
    page.signal.addEventListener("abort", () => this.close(), { once: true });
    this.gameId = gameId;
    this.game = null;
    this.selected = null;
    this.hinted = [];
    this.queue = Promise.resolve();
    this.drag = null;
    this.suppressClick = false;
    this.onKey = (event) => this.key(event);
    this.timer = null;
  }

  async open() {
    this.root.innerHTML = html`<p class="loading">${gettext("Dealing…")}</p>`;
    try {
      this.game = await api("GET", `games/${this.gameId}/`);
    } catch (error) {
      this.root.innerHTML = `<p class="error"></p>`;
      this.root.querySelector(".error").textContent = error.message;
      return;
    }
    localStorage.setItem("pyramid.lastGame", String(this.gameId));
    document.addEventListener("keydown", this.onKey);
    this.timer = setInterval(() => this.tick(), 1000);
    this.render();
  }

  close() {
    document.removeEventListener("keydown", this.onKey);
    clearInterval(this.timer);
  }

  get view() {
    return this.game.position;
  }

  get practice() {
    return this.game.mode === "practice";
  }

  get playing() {
    return this.game.status === "playing";
  }

  // --- what the legal moves allow ------------------------------------------------------------

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

  legalPair(a, b) {
    const legal = this.view.legal_moves;
    if (legal.includes(`${a}+${b}`)) return `${a}+${b}`;
    if (legal.includes(`${b}+${a}`)) return `${b}+${a}`;
    return null;
  }

  cardAt(location) {
    const v = this.view;
    if (location === "W") return v.waste.at(-1) || null;
    if (location === "S") return v.stock.top;
    if (location.startsWith("R")) return v.reserve[Number(location.slice(1))];
    return v.pyramid[Number(location)]?.card || null;
  }

  // Why the pyramid card at `location` cannot be taken when the view already shows it covered, in
  // the engine's words: `7♣ is covered by Q♦ and 2♠`. Null when the view cannot tell: not a covered
  // pyramid card, or `partner` lies on it (whether a card pairs with the card it covers depends on
  // the rules, and the server says).
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

  // --- choosing cards -------------------------------------------------------------------------

  pick(location) {
    if (!this.playing) return;
    const legal = this.view.legal_moves;
    const chosen = this.selected;
    if (chosen === null) {
      if (legal.includes(location)) return this.play(location);  // a king goes with one click
      const element = this.root.querySelector(`[data-loc="${location}"]`);
      if (element?.classList.contains("covered")) return this.attempt(location, location);  // refused: say why
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
    return this.attempt(`${chosen}+${location}`, location, chosen);  // refused, with the engine's reason
  }

  select(location) {
    this.selected = location;
    this.drawOutlines();
  }

  drawOutlines() {
    const partners = this.selected === null ? [] : this.partners(this.selected);
    for (const el of this.root.querySelectorAll("[data-loc]")) {
      el.classList.toggle("selected", el.dataset.loc === this.selected);
      if (el.tagName === "BUTTON") el.setAttribute("aria-pressed", String(el.dataset.loc === this.selected));
      el.classList.toggle("partner", partners.includes(el.dataset.loc));
      el.classList.toggle("hinted", this.hinted.includes(el.dataset.loc));
    }
  }

  stockAction() {
    const legal = this.view.legal_moves;
    if (legal.includes("draw")) return this.play("draw");
    if (legal.includes("redeal")) return this.play("redeal");
    return this.play(this.view.stock.count ? "draw" : "redeal");
  }

  // --- talking to the server --------------------------------------------------------------------

  play(move) {
    this.queue = this.queue.then(() => this.send(move));
    return this.queue;
  }

  // A move naming the pyramid card at `location` (with `partner`): once the moves before it are in,
  // refused here when the view shows that card covered, else sent and the server answers.
  attempt(move, location, partner = null) {
    this.queue = this.queue.then(() => {
      const reason = this.coveredReason(location, partner);
      if (reason === null) return this.send(move);
      this.select(null);
      this.say(`${reason}.`, "refusal");
    });
    return this.queue;
  }

  async send(move) {
    if (!this.playing) return;
    const turned = move === "draw" || move === "redeal";
    const named = turned ? [] : move.split("+").map((loc) => this.cardAt(loc)).filter(Boolean).map(cardLabel);
    try {
      this.game = await api("POST", `games/${this.gameId}/moves/`, { ply: this.game.next_ply, move });
      this.hinted = [];
      this.selected = null;
      const fading = ghosts(turned ? [] : move.split("+").map((loc) => this.root.querySelector(`.board [data-loc="${loc}"]`))
        .filter(Boolean));
      this.render();
      leave(fading);
      const left = interpolate(ngettext("%(count)s card left.", "%(count)s cards left.", this.game.cards_left), { count: this.game.cards_left });
      const done = turned ? (move === "draw" ? gettext("Drew.") : gettext("Redealt."))
        : interpolate(named.length === 1 ? gettext("%(card)s removed.") : gettext("%(card)s and %(other)s removed."),
          { card: named[0], other: named[1] });
      this.root.querySelector("#announce").textContent = `${done} ${left}`;
      if (move === "draw") arrive(this.root.querySelector("#waste-pile [data-loc]"), this.root.querySelector("#stock-pile"));
      sound(this.game.status === "won" ? "win" : turned ? "draw" : "removal");
      if (this.game.status === "won") celebrate(this.root.querySelector(".board"));
      else if (this.practice && this.playing && liveVerdictOn()) this.hint({ verdictOnly: true });
    } catch (error) {
      sound("refusal");
      await this.refused(error);
    }
  }

  async refused(error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "wrong_ply" || error.code === "game_over") {
      this.game = await api("GET", `games/${this.gameId}/`);
      this.render();
    }
    // the engine's reason names the cards as the player sees them; the move's notation adds nothing
    this.say(`${error.message}.`.replace(/\.\.$/, "."), "refusal");
  }

  async undo() {
    if (!this.practice && this.playing) return this.say(gettext("A ranked game has no undo: every move counts."));
    if (!this.practice || !this.playing) return;
    this.queue = this.queue.then(async () => {
      try {
        this.game = await api("POST", `games/${this.gameId}/undo/`);
        this.hinted = [];
        this.selected = null;
        this.render();
        this.say(gettext("Move taken back."));
      } catch (error) {
        await this.refused(error);
      }
    });
    return this.queue;
  }

  async hint({ verdictOnly = false } = {}) {
    if (!this.practice && this.playing) return this.say(gettext("A ranked game is played without hints."));
    if (!this.practice || !this.playing) return;
    this.say(verdictOnly ? gettext("Asking the solver…") : gettext("Thinking…"));
    try {
      if (verdictOnly) {  // not a hint: nothing is counted on the game
        this.say(verdictText(await api("GET", `games/${this.gameId}/verdict/`)), "verdict");
        return;
      }
      const advice = await api("GET", `games/${this.gameId}/hint/`);
      if (!advice.move) {
        this.say(advice.verdict === "unknown" ? gettext("No hint this time: the solver ran out of time on this position.")
          : advice.explanation, "hint");
        return;
      }
      this.hinted = advice.move === "draw" || advice.move === "redeal" ? ["stock"] : advice.locations;
      this.drawOutlines();
      // the explanation names the cards; the notation stays on the message for scripts and tests
      this.say(interpolate(gettext("Hint: %(explanation)s"), { explanation: advice.explanation }), "hint", advice.move);
    } catch (error) {
      await this.refused(error);
    }
  }

  async resign() {
    if (!this.playing || !confirm(gettext("Resign this game?"))) return;
    try {
      this.game = await api("POST", `games/${this.gameId}/resign/`);
      this.render();
    } catch (error) {
      await this.refused(error);
    }
  }

  say(text, kind = "", move = null) {
    const message = this.root.querySelector("#message");
    if (!message) return;
    message.textContent = text;
    message.className = `message ${kind}`;
    if (move) message.dataset.move = move;
    else delete message.dataset.move;
  }

  tick() {
    const time = this.root.querySelector("#time");
    if (time && this.game) time.textContent = clock(elapsed(this.game));
    const closes = this.root.querySelector("#closes-in");
    if (closes && this.game) closes.textContent = clock(closesIn(this.game));
  }

  // --- keyboard and drag ------------------------------------------------------------------------

  key(event) {
    if (event.target.closest?.("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "d") this.stockAction();
    else if (key === "h") this.hint();
    else if (key === "u") this.undo();
    else if (key === "escape") this.select(null);
    else if (key.startsWith("arrow")) this.moveFocus(key.slice(5));
    else return;
    event.preventDefault();
  }

  moveFocus(direction) {
    const candidates = [...this.root.querySelectorAll(".board [data-loc]:not(.covered)")];
    if (!candidates.length) return;
    const current = candidates.includes(document.activeElement) ? document.activeElement : null;
    if (!current) return candidates[0].focus();
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

  pointerDown(event, el) {
    if (!this.playing || el.classList.contains("covered") || el.dataset.loc === "stock") return;
    this.drag = { el, loc: el.dataset.loc, x: event.clientX, y: event.clientY, moving: false };
    el.setPointerCapture?.(event.pointerId);
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < 8) return;
    if (!drag.moving) {
      drag.moving = true;
      drag.el.classList.add("dragging");
      this.select(drag.loc);
    }
    drag.el.style.translate = `${dx}px ${dy}px`;
  }

  pointerUp(event) {
    const drag = this.drag;
    this.drag = null;
    if (!drag?.moving) return;
    drag.el.classList.remove("dragging");
    drag.el.style.translate = "";
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const target = document.elementsFromPoint(event.clientX, event.clientY)
      .map((el) => el.closest("[data-loc]")).find((el) => el && el !== drag.el);
    if (!target || target.dataset.loc === "stock") return this.select(null);
    this.selected = drag.loc;
    this.pick(target.dataset.loc);
  }

  // --- drawing --------------------------------------------------------------------------------

  render() {
    const focused = this.root.contains(document.activeElement) ? document.activeElement.dataset?.loc : undefined;
    const game = this.game;
    const v = this.view;
    const passes = v.passes === null ? "∞" : v.passes;
    // a tournament's deal number stays secret until the tournament is over
    const title = game.daily ? interpolate(gettext("Daily %(date)s"), { date: formatDate(game.daily.date) })
      : game.deal.number === null ? gettext("Tournament game") : interpolate(gettext("Deal #%(number)s"), { number: game.deal.number });
    const closing = game.daily ? gettext("the game is closed as it stands when its day ends")
      : gettext("the game is closed as it stands when its tournament ends");
    this.root.innerHTML = html`
      <section class="table ${game.mode}">
        <div class="status-line">
          <span class="title"></span>
          <span class="tag">${game.mode === "ranked" ? gettext("Ranked") : gettext("Practice")}</span>
          <span>${gettext("Moves")} <b id="moves">${game.moves}</b></span>
          <span>${gettext("Time")} <b id="time">${clock(elapsed(game))}</b></span>
          <span>${gettext("Pass")} <b id="pass">${v.pass}/${passes}</b></span>
          <span>${gettext("Left")} <b id="cards-left">${v.cards_left}</b></span>
          ${closesIn(game) !== null ? html`<span title="${closing}">${gettext("Closes in")} <b id="closes-in">${clock(closesIn(game))}</b></span>` : ""}
        </div>
        <div class="board"></div>
        <div class="controls">
          <button type="button" id="draw"><kbd>D</kbd> ${v.legal_moves.includes("redeal") ? gettext("Redeal") : gettext("Draw")}</button>
          ${this.practice ? html`<button type="button" id="hint"><kbd>H</kbd> ${gettext("Hint")}</button>
          <button type="button" id="undo"><kbd>U</kbd> ${gettext("Undo")}</button>
          <button type="button" id="can-win">${gettext("Can this still be won?")}</button>
          <button type="button" id="live-verdict" class="quiet" aria-pressed="${liveVerdictOn()}">${liveVerdictWords(liveVerdictOn())}</button>` : ""}
          <button type="button" id="resign" class="quiet">${gettext("Resign")}</button>
          <button type="button" id="sound" class="quiet" aria-pressed="${soundOn()}">${soundWords(soundOn())}</button>
        </div>
        <p id="message" class="message" role="alert"></p>
        <p id="announce" class="sr-only" aria-live="polite"></p>
        <div id="result"></div>
      </section>`;
    this.root.querySelector(".title").textContent = `${title} · ${game.deal.preset}`;
    drawBoard(this.root.querySelector(".board"), v);
    const on = (id, fn) => this.root.querySelector(`#${id}`)?.addEventListener("click", fn);
    on("draw", () => this.stockAction());
    on("hint", () => this.hint());
    on("undo", () => this.undo());
    on("can-win", () => this.hint({ verdictOnly: true }));
    on("live-verdict", (event) => {
      const now = liveVerdictToggle();
      event.target.textContent = liveVerdictWords(now);
      event.target.setAttribute("aria-pressed", String(now));
      if (now && this.playing) this.hint({ verdictOnly: true });
    });
    on("resign", () => this.resign());
    on("sound", (event) => {
      const now = soundToggle();
      event.target.textContent = soundWords(now);
      event.target.setAttribute("aria-pressed", String(now));
    });
    const board = this.root.querySelector(".board");
    board.addEventListener("click", (event) => {
      const el = event.target.closest("[data-loc]");
      if (!el || this.suppressClick) return;
      if (el.dataset.loc === "stock") this.stockAction();
      else this.pick(el.dataset.loc);
    });
    board.addEventListener("pointerdown", (event) => {
      const el = event.target.closest("[data-loc]");
      if (el && event.button === 0) this.pointerDown(event, el);
    });
    board.addEventListener("pointermove", (event) => this.pointerMove(event));
    board.addEventListener("pointerup", (event) => this.pointerUp(event));
    board.addEventListener("pointercancel", () => { this.drag = null; });
    this.drawOutlines();
    // keyboard players keep their place: focus returns to the same spot, or the nearest free card
    if (focused !== undefined) {
      const again = this.root.querySelector(`.board [data-loc="${focused}"]:not(.covered)`)
        || this.root.querySelector(".board [data-loc]:not(.covered)");
      again?.focus();
    }
    if (!this.playing) {
      // the result goes first, and the table stays below it to look at
      this.root.querySelector(".status-line").after(this.root.querySelector("#result"));
      this.root.querySelector(".controls").hidden = true;
      this.drawResult();
    }
  }

  async drawResult() {
    const game = this.game;
    const result = this.root.querySelector("#result");
    const count = game.cards_left;
    const headline = interpolate({
      won: gettext("Cleared! The deal is won."),
      stuck: ngettext("Stuck: no move can help any more. %(count)s card left.", "Stuck: no move can help any more. %(count)s cards left.", count),
      resigned: ngettext("Resigned with %(count)s card left.", "Resigned with %(count)s cards left.", count),
      closed: game.daily
        ? ngettext("The day ended with this game still open: it counts as it stood, %(count)s card left.",
          "The day ended with this game still open: it counts as it stood, %(count)s cards left.", count)
        : ngettext("The tournament ended with this game still open: it counts as it stood, %(count)s card left.",
          "The tournament ended with this game still open: it counts as it stood, %(count)s cards left.", count),
    }[game.status], { count });
    const line = shareLine(game);
    result.innerHTML = html`
      <div class="result-card ${game.status}">
        <h2></h2>
        <dl class="stats">
          <div><dt>${gettext("Cards left")}</dt><dd id="result-cards-left">${game.cards_left}</dd></div>
          <div><dt>${gettext("Moves")}</dt><dd id="result-moves">${game.moves}</dd></div>
          <div><dt>${gettext("Time")}</dt><dd id="result-time">${clock(elapsed(game))}</dd></div>
          <div><dt>${gettext("Par")}</dt><dd id="result-par">${game.deal.par_moves ?? "—"}</dd></div>
          ${game.daily ? html`<div><dt>${gettext("Your rank")}</dt><dd id="result-rank">…</dd></div>` : ""}
        </dl>
        <p id="result-analysis" class="result-analysis"></p>
        <div class="share"><input id="share-line" readonly aria-label="${gettext("share line")}">
          <button type="button" id="copy-share">${gettext("Copy")}</button></div>
        <p class="next">${game.daily ? html`<a href="#/boards/daily/${game.daily.date}/${game.daily.preset}">${gettext("See the daily board")}</a> · ` : ""}
          ${game.mode === "practice" ? html`<button type="button" id="play-again">${gettext("Play this deal again")}</button>
          <button type="button" id="new-deal">${gettext("New deal")}</button> · ` : html`<a href="#/practice">${gettext("Practise another deal")}</a> · `}
          <a href="#/">${gettext("Home")}</a></p>
      </div>`;
    result.querySelector("h2").textContent = headline;
    result.querySelector("#share-line").value = line;
    result.querySelector("#copy-share").addEventListener("click", async () => {
      const input = result.querySelector("#share-line");
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        input.select();
        document.execCommand("copy");
      }
      this.say(gettext("Share line copied."));
    });
    this.say(headline, game.status);
    const analysis = result.querySelector("#result-analysis");
    resultAnalysis(analysis, game, () => analysis.isConnected);
    if (game.mode === "practice") {
      const rules = game.deal.preset === "custom" ? null : game.deal.preset;
      result.querySelector("#play-again").addEventListener("click", () => startGame({ number: game.deal.number, rules: rules ?? undefined }));
      result.querySelector("#new-deal").addEventListener("click", () => startGame({ rules: rules ?? undefined, winnable: true }));
      // the deal's par, asked for at the end of the game (solved in milliseconds) when nobody had asked before
      if (game.deal.par_moves == null && rules) {
        const path = `deals/${game.deal.number}/solve/?rules=${encodeURIComponent(rules)}`;
        let deal = await api("POST", path).catch(() => null);
        for (let wait = 0; deal?.status === "pending" && wait < 10; wait += 1) {  // a worker is solving it
          this.root.querySelector("#result-par").textContent = gettext("being solved");
          await new Promise((done) => setTimeout(done, 1000));
          deal = await api("GET", path.replace("/solve/", "/")).catch(() => null);
        }
        const par = this.root.querySelector("#result-par");
        if (par && deal) par.textContent = deal.par_moves ?? "—";
      }
      return;
    }
    if (!game.daily) return;
    // the daily board and the server's share line, once the result is recorded
    const [board, share] = await Promise.all([
      api("GET", `boards/daily/${game.daily.date}/${game.daily.preset}/`).catch(() => null),
      api("GET", `games/${game.id}/share/`).catch(() => null),
    ]);
    const rank = this.root.querySelector("#result-rank");
    if (rank) rank.textContent = board?.me ? interpolate(gettext("#%(rank)s of %(total)s"), { rank: board.me.rank, total: board.total }) : "—";
    if (share?.share) this.root.querySelector("#share-line").value = share.share;
  }
}

// a practice player's choice, kept in the browser: whether each move is followed by "can this still be won?"
const LIVE_VERDICT_KEY = "pyramid.liveVerdict";
const liveVerdictOn = () => localStorage.getItem(LIVE_VERDICT_KEY) === "on";
function liveVerdictToggle() {
  localStorage.setItem(LIVE_VERDICT_KEY, liveVerdictOn() ? "off" : "on");
  return liveVerdictOn();
}

const liveVerdictWords = (on) => (on ? gettext("After every move: on") : gettext("After every move: off"));
const soundWords = (on) => (on ? gettext("Sound on") : gettext("Sound off"));

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
