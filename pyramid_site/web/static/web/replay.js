// The replay: a finished game stepped through position by position (buttons, ← / →, a slider), with the
// post-game analysis beside it: the solver's verdict on each position, a chart of the best result still
// reachable after every move, where the win slipped away and what cost cards; and the solver's best line
// from any position, played over the board as a ghost that leaves the game's own place alone.
// Read only: nothing here sends a move.

import { analysisWhenReady, opensText, verdictWords } from "./analysis.js";
import { api, ApiError } from "./api.js";
import { capital, moveLocations, moveWords } from "./cards.js";
import { calm, ghosts, leave } from "./feel.js";
import { formatDate, gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { html } from "./markup.js";
import { drawBoard } from "./board.js";
import { isAbort } from "./page.js";

const SVG = "http://www.w3.org/2000/svg";
const GHOST_STEP_MS = 650;

function svg(tag, attributes = {}, text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  if (text !== null) el.textContent = text;
  return el;
}

const cards = (count) => interpolate(ngettext("%(count)s card", "%(count)s cards", count), { count });
const moves = (count) => interpolate(ngettext("%(count)s move", "%(count)s moves", count), { count });

// the step buttons' pictures, drawn here rather than taken from a font that may lack them
const icon = (shapes) => html([`<svg viewBox="0 0 16 16" width="18" height="18" aria-hidden="true" focusable="false" fill="currentColor">${shapes}</svg>`]);
const ICONS = {
  first: icon('<rect x="2" y="3" width="2.2" height="10"/><path d="M14 3v10L5.5 8z"/>'),
  prev: icon('<path d="M12.5 3v10L4 8z"/>'),
  next: icon('<path d="M3.5 3v10L12 8z"/>'),
  last: icon('<path d="M2 3v10l8.5-5z"/><rect x="11.8" y="3" width="2.2" height="10"/>'),
};

export class Replay {
  constructor(root, gameId, ply, page) {
    this.root = root;
    this.page = page;
    page.signal.addEventListener("abort", () => this.close(), { once: true });
    this.gameId = gameId;
    this.wanted = ply;
    this.game = null;
    this.plies = [];  // the replay's: {ply, move, position}
    this.analysis = null;  // null until it is in (pending, refused or ready)
    this.ply = 0;
    this.ghost = null;  // the best line on show: {line, step, from}
    this.lines = new Map();  // best lines already fetched, by ply
  }

  /** The page has closed: nothing more is drawn or asked for. */
  get closed() {
    return this.page.closed;
  }

  async open() {
    this.root.innerHTML = html`<p class="loading">${gettext("Laying out the game…")}</p>`;
    let replay;
    try {
      this.game = await api("GET", `games/${this.gameId}/`, undefined, { signal: this.page.signal });
      replay = await api("GET", `games/${this.gameId}/replay/`, undefined, { signal: this.page.signal });
    } catch (error) {
      if (this.closed || isAbort(error)) return;
      this.root.innerHTML = html`<section class="replay"><h1>${gettext("Replay")}</h1><p class="page-message error"></p>
        <p><a href="#/game/${this.gameId}">${gettext("Back to the game")}</a></p></section>`;
      this.root.querySelector(".page-message").textContent = error instanceof ApiError && error.code === "not_yet"
        ? opensText(error.body.opens_at, this.game) : error.message;
      return;
    }
    if (this.closed) return;
    this.plies = replay.plies;
    this.ply = Math.min(Math.max(this.wanted ?? 0, 0), this.last);
    this.page.listen(document, "keydown", (event) => this.key(event));
    this.page.listen(window, "resize", () => this.drawChart());
    this.render();
    this.loadAnalysis();
  }

  close() {
    this.stopGhost({ redraw: false });
  }

  get last() {
    return this.plies.length - 1;
  }

  get ready() {
    return this.analysis?.status === "ready" && this.analysis.plies.length === this.plies.length;
  }

  // --- the analysis ----------------------------------------------------------------------------

  async loadAnalysis() {
    try {
      this.analysis = await analysisWhenReady(this.gameId, {
        signal: this.page.signal,
        stop: () => this.closed,
        onPending: (pending) => {
          this.analysis = pending;
          this.drawAnalysis();
        },
      });
    } catch (error) {
      if (this.closed || isAbort(error)) return;
      this.analysis = { status: "refused", message: error instanceof ApiError && error.code === "not_yet"
        ? opensText(error.body.opens_at, this.game) : error.message };
    }
    if (this.closed) return;
    this.drawAnalysis();
    if (!this.ghost) this.show();  // a best line on show keeps the board
  }

  // The move that led to ply `ply`, in players' words, worded from the position before it.
  moveAt(ply, tense = "done") {
    return moveWords(this.plies[ply].move, this.plies[ply - 1].position, { tense });
  }

  // --- moving along -----------------------------------------------------------------------------

  go(ply) {
    if (this.ghost) return;
    this.ply = Math.min(Math.max(ply, 0), this.last);
    history.replaceState(null, "", `#/game/${this.gameId}/replay/${this.ply}`);
    this.show();
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape" && this.ghost) {
      this.stopGhost();
      event.preventDefault();
      return;
    }
    // the slider moves itself with the arrow keys; text fields keep theirs
    if (event.target.closest?.("input, textarea, select")) return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (step) this.go(this.ply + step);
    else if (event.key === "Home") this.go(0);
    else if (event.key === "End") this.go(this.last);
    else return;
    event.preventDefault();
  }

  // --- drawing ----------------------------------------------------------------------------------

  render() {
    if (this.closed) return;  // nothing is drawn after the page closed
    const game = this.game;
    const title = game.daily ? interpolate(gettext("Daily %(date)s"), { date: formatDate(game.daily.date) })
      : game.deal.number_text === null ? gettext("Tournament game") : interpolate(gettext("Deal #%(number)s"), { number: game.deal.number_text });
    const [moveBefore, moveBetween, moveAfter] = gettext("Move %(ply)s of %(last)s").split(/%\((?:ply|last)\)s/);
    const faceDown = game.position.rules.stock_top !== "live";
    this.root.innerHTML = html`
      <section class="replay ${game.mode}">
        <h1 class="sr-only">${interpolate(gettext("Replay of %(title)s"), { title })}</h1>
        <div class="status-line">
          <span class="title">${gettext("Replay")} · ${title} · ${game.deal.preset}</span>
          <span class="tag">${game.mode === "ranked" ? gettext("Ranked") : gettext("Practice")}</span>
          <span>${moveBefore}<b id="replay-ply">0</b>${moveBetween}<b id="replay-last">${this.last}</b>${moveAfter}</span>
          <span>${gettext("Left")} <b id="cards-left"></b></span>
          <a href="#/game/${this.gameId}">${gettext("Back to the result")}</a>
        </div>
        <div class="replay-main">
          <div class="replay-board">
            <div id="ghost-banner" class="ghost-banner" hidden>
              <p id="ghost-text" aria-live="polite"></p>
              <button type="button" id="ghost-stop">${gettext("Back to my game")}</button>
            </div>
            <div class="board read-only"></div>
          </div>
          <div class="replay-side">
            <p id="replay-move" class="replay-move" aria-live="polite"></p>
            <p id="replay-verdict" class="replay-verdict"></p>
            <p id="replay-next" class="small"></p>
            <div class="replay-controls" role="group" aria-label="${gettext("step through the game")}">
              <button type="button" id="replay-first" aria-label="${gettext("First position")}">${ICONS.first}</button>
              <button type="button" id="replay-prev" aria-label="${gettext("Previous move")}">${ICONS.prev}</button>
              <input type="range" id="replay-slider" min="0" max="${this.last}" step="1" value="0"
                aria-label="${gettext("Move")}" aria-valuetext="">
              <button type="button" id="replay-next-move" aria-label="${gettext("Next move")}">${ICONS.next}</button>
              <button type="button" id="replay-last-move" aria-label="${gettext("Last position")}">${ICONS.last}</button>
            </div>
            <p class="small keys">${gettext("Keys:")} <kbd>←</kbd> <kbd>→</kbd> ${gettext("a move,")} <kbd>${pgettext("keyboard key", "Home")}</kbd> <kbd>${pgettext("keyboard key", "End")}</kbd> ${gettext("the start and the end.")}</p>
            <div class="ghost-controls">
              <button type="button" id="best-line">${gettext("Show the best line from here")}</button>
            </div>
            <ol id="ghost-moves" class="ghost-moves" hidden aria-label="${gettext("the best line")}"></ol>
          </div>
        </div>
        <section class="analysis" aria-labelledby="analysis-title">
          <h2 id="analysis-title">${gettext("The best result still reachable, move by move")}</h2>
          <div id="chart" class="chart"></div>
          <ul id="analysis-summary" class="analysis-summary"><li class="loading">${gettext("Asking for the analysis…")}</li></ul>
          <p id="face-down-note" class="small">${faceDown
            ? gettext("The stock was face down while you played, but the solver saw the whole deal, the order of the stock included, as any analysis after the game does: its verdicts and best lines count on cards you could not see at the time.")
            : gettext("Only the stock's top card was face up while you played, but the solver saw the whole deal, the order of the stock included, as any analysis after the game does: its verdicts and best lines count on cards you could not see at the time.")}</p>
        </section>
      </section>`;
    const on = (id, fn) => this.root.querySelector(`#${id}`).addEventListener("click", fn);
    on("replay-first", () => this.go(0));
    on("replay-prev", () => this.go(this.ply - 1));
    on("replay-next-move", () => this.go(this.ply + 1));
    on("replay-last-move", () => this.go(this.last));
    on("best-line", () => this.bestLine());
    on("ghost-stop", () => this.stopGhost());
    this.root.querySelector("#replay-slider").addEventListener("input", (event) => this.go(Number(event.target.value)));
    this.drawAnalysis();
    this.show();
  }

  // the position of the current ply on the board, and everything said about it
  show() {
    if (this.closed || !this.root.querySelector(".replay")) return;
    const ply = this.ply;
    const here = this.plies[ply];
    const $ = (selector) => this.root.querySelector(selector);
    drawBoard($(".board"), here.position, { readOnly: true });
    $("#replay-ply").textContent = ply;
    $("#cards-left").textContent = here.position.cards_left;
    const slider = $("#replay-slider");
    slider.value = String(ply);
    slider.setAttribute("aria-valuetext", ply ? interpolate(gettext("move %(ply)s of %(last)s"), { ply, last: this.last }) : gettext("the start"));
    $("#replay-first").disabled = $("#replay-prev").disabled = ply === 0;
    $("#replay-next-move").disabled = $("#replay-last-move").disabled = ply === this.last;
    $("#replay-move").textContent = ply === 0 ? gettext("The start: the deal as it was dealt.")
      : interpolate(gettext("Move %(ply)s of %(last)s: %(move)s."), { ply, last: this.last, move: this.moveAt(ply) });

    const verdict = $("#replay-verdict");
    if (this.ready) {
      const { kind, text } = verdictWords(this.analysis.plies, ply);
      verdict.textContent = text;
      verdict.className = `replay-verdict ${kind}`;
    } else {
      verdict.textContent = this.analysis?.status === "refused" ? "" : gettext("The solver's verdict comes with the analysis…");
      verdict.className = "replay-verdict pending";
    }

    // what comes next, outlined on the board; where the win slipped away, the move that would have kept it
    const next = $("#replay-next");
    next.textContent = "";
    if (ply < this.last) {
      const move = this.plies[ply + 1].move;
      next.textContent = interpolate(gettext("Next: %(move)s."), { move: this.moveAt(ply + 1) });
      this.outline(moveLocations(move), "next-move");
      if (this.ready && this.analysis.lost_at === ply + 1 && this.analysis.keep_move) {
        const keep = moveWords(this.analysis.keep_move, here.position, { tense: "doing" });
        next.textContent += ` ${interpolate(gettext("It threw the win away: %(keep)s would have kept it."), { keep })}`;
        this.outline(moveLocations(this.analysis.keep_move), "hinted");
      }
    } else if (here.position.status !== "won") {
      next.textContent = {
        resigned: gettext("The game was resigned here."),
        stuck: gettext("The game ended here: no move could help any more."),
        closed: this.game.daily ? gettext("The game was closed here when its day ended.")
          : gettext("The game was closed here when its tournament ended."),
      }[this.game.status] || gettext("The game ended here.");
    }
    const best = $("#best-line");
    const done = here.position.status !== "playing" || (this.ready && this.analysis.plies[ply].best_move === null);
    best.disabled = done;
    best.title = done ? gettext("Nothing better can be played from here") : "";
    this.drawCursor();
  }

  outline(locations, className) {
    for (const location of locations) {
      const el = location === "stock" ? this.root.querySelector("#stock-pile .card")
        : this.root.querySelector(`.board [data-loc="${location}"]`);
      el?.classList.add(className);
    }
  }

  drawAnalysis() {
    if (this.closed) return;  // nothing is drawn after the page closed
    const summary = this.root.querySelector("#analysis-summary");
    if (!summary) return;
    const a = this.analysis;
    const item = (text, ply = null, label = "") => {
      const li = document.createElement("li");
      li.append(Object.assign(document.createElement("span"), { textContent: text }));
      if (ply !== null) {
        const button = Object.assign(document.createElement("button"), { type: "button", className: "go-to",
          textContent: ply ? interpolate(gettext("Go to move %(ply)s"), { ply }) : gettext("Go to the start") });
        if (label) button.dataset.kind = label;
        button.addEventListener("click", () => this.go(ply));
        li.append(" ", button);
      }
      summary.append(li);
    };
    summary.innerHTML = "";
    if (!a || a.status === "pending") {
      item(gettext("The solver is going through every position of the game…"));
      summary.firstChild.className = "loading";
    } else if (a.status === "refused") {
      item(a.message);
    } else if (this.ready) {
      const start = a.plies[0];
      item(start.verdict === "winnable" ? interpolate(gettext("At the start the deal could be won in %(moves)s."), { moves: moves(start.moves_to_win) })
        : start.verdict === "unwinnable" ? interpolate(gettext("The deal could not be won: the best play leaves %(cards)s."), { cards: cards(start.best_cards_left) })
          : gettext("The solver could not decide the deal in its time limit."));
      if (a.lost_at !== null) {
        const keep = a.keep_move ? ` ${interpolate(gettext("%(keep)s would have kept it."), { keep: capital(moveWords(a.keep_move, this.plies[a.lost_at - 1].position, { tense: "doing" })) })}` : "";
        item(`${interpolate(gettext("Move %(ply)s, %(move)s: the win slipped away here."), { ply: a.lost_at, move: this.moveAt(a.lost_at) })}${keep}`, a.lost_at, "lost");
      }
      for (const { ply, cost } of a.costly) {
        if (ply === a.lost_at) continue;
        item(interpolate(gettext("Move %(ply)s, %(move)s: it cost %(cards)s."), { ply, move: this.moveAt(ply), cards: cards(cost) }), ply, "costly");
      }
      if (a.lost_at === null && !a.costly.length && start.verdict !== "unknown") {
        item(this.game.status === "won" ? gettext("No move of yours cost anything: the win was never in doubt.")
          : gettext("No move of yours made the result worse than the deal allowed."));
      }
      const unknown = a.plies.filter((p) => p.verdict === "unknown").length;
      if (unknown) {
        item(interpolate(ngettext("The solver ran out of time on %(count)s position: it shows as a gap.",
          "The solver ran out of time on %(count)s positions: they show as a gap.", unknown), { count: unknown }));
      }
    } else {
      item(gettext("The analysis does not match this game's moves: ask again later."));
    }
    this.drawChart();
  }

  // --- the chart --------------------------------------------------------------------------------

  // x: the ply; y: the fewest cards left reachable from it (0 at the bottom: a win still possible)
  drawChart() {
    if (this.closed) return;  // nothing is drawn after the page closed
    const box = this.root.querySelector("#chart");
    if (!box) return;
    box.innerHTML = "";
    if (!this.ready) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const a = this.analysis;
    const width = Math.max(260, Math.round(box.clientWidth || 600));
    const height = width < 500 ? 170 : 210;
    const pad = { left: 42, right: 14, top: 18, bottom: 30 };
    const plotW = width - pad.left - pad.right;
    const plotH = height - pad.top - pad.bottom;
    const values = a.plies.map((p) => p.best_cards_left);
    const top = Math.max(2, ...values.filter((v) => v !== null));
    const x = (ply) => pad.left + (this.last ? ply / this.last : 0.5) * plotW;
    const y = (v) => pad.top + (1 - v / top) * plotH;
    this.chartX = x;

    const lost = a.lost_at;
    const desc = [interpolate(gettext("Best cards left reachable after each of the %(last)s moves, 0 meaning the deal can still be won."), { last: this.last }),
      lost !== null ? interpolate(gettext("The win slipped away at move %(ply)s."), { ply: lost }) : "",
      a.costly.length ? interpolate(gettext("Moves that cost cards: %(plies)s."), { plies: a.costly.map((c) => c.ply).join(", ") }) : gettext("No move cost cards.")].join(" ");
    const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "group",
      "aria-labelledby": "chart-title", "aria-describedby": "chart-desc", class: "chart-svg" });
    chart.append(svg("title", { id: "chart-title" }, gettext("Best result still reachable after each move")));
    chart.append(svg("desc", { id: "chart-desc" }, desc));

    // the frame: the win line at 0, the y ticks, the x ticks
    const axes = svg("g", { class: "axes", "aria-hidden": "true" });
    for (const v of [...new Set([0, Math.round(top / 2), top])]) {
      axes.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: v ? "grid" : "grid win" }));
      axes.append(svg("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)));
    }
    axes.append(svg("text", { x: width - pad.right, y: y(0) - 5, "text-anchor": "end", class: "win-label" }, gettext("a win")));
    const every = Math.max(1, Math.ceil(this.last / Math.max(2, Math.floor(plotW / 50))));
    for (let ply = 0; ply <= this.last; ply += every) {
      if (ply === this.last || x(this.last) - x(ply) >= 30) {
        axes.append(svg("text", { x: x(ply), y: height - 10, "text-anchor": "middle" }, String(ply)));
      }
    }
    if (this.last % every) axes.append(svg("text", { x: x(this.last), y: height - 10, "text-anchor": "middle" }, String(this.last)));
    axes.append(svg("text", { x: pad.left, y: 11, class: "axis-label" }, gettext("cards left at best")));
    axes.append(svg("text", { x: pad.left - 8, y: height - 10, "text-anchor": "end", class: "axis-label" }, "move"));
    chart.append(axes);

    // the line, with gaps where the solver ran out of time; winnable stretches in green
    const line = svg("g", { class: "series", "aria-hidden": "true" });
    for (let ply = 1; ply <= this.last; ply += 1) {
      const [before, after] = [values[ply - 1], values[ply]];
      if (before === null || after === null) continue;
      line.append(svg("line", { x1: x(ply - 1), y1: y(before), x2: x(ply), y2: y(after),
        class: after === 0 && before === 0 ? "seg winnable" : "seg" }));
    }
    if (this.last <= 120) {
      values.forEach((v, ply) => {
        if (v !== null) line.append(svg("circle", { cx: x(ply), cy: y(v), r: 2.5, class: v ? "dot" : "dot winnable" }));
      });
    }
    chart.append(line);

    // where the current ply is
    chart.append(svg("line", { class: "cursor", x1: x(this.ply), x2: x(this.ply), y1: pad.top - 6, y2: pad.top + plotH,
      "aria-hidden": "true" }));

    // the markers: the move that lost the win, and every costly move; each a labelled button
    const marker = (ply, kind, label) => {
      const g = svg("g", { class: `marker ${kind}`, role: "button", tabindex: "0", "aria-label": label,
        "data-ply": ply, "data-kind": kind });
      g.append(svg("title", {}, label));
      const cx = x(ply);
      const cy = y(values[ply] ?? 0);
      g.append(svg("circle", { cx, cy, r: 20, class: "hit" }));
      if (kind === "lost") {
        g.append(svg("circle", { cx, cy, r: 7, class: "mark" }));
        chart.append(svg("text", { x: Math.min(Math.max(cx, pad.left + 40), width - pad.right - 40),
          y: cy - 13 < 24 ? cy + 24 : cy - 13, "text-anchor": "middle", class: "marker-label", "aria-hidden": "true" },
        gettext("win lost")));
      } else {
        g.append(svg("path", { d: `M${cx - 6},${cy - 6} L${cx + 6},${cy - 6} L${cx},${cy + 5} Z`, class: "mark" }));
      }
      const jump = (event) => {
        event.stopPropagation();
        this.go(ply);
      };
      g.addEventListener("click", jump);
      g.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          jump(event);
        }
      });
      chart.append(g);
    };
    for (const { ply, cost } of a.costly) {
      if (ply !== lost) marker(ply, "costly", interpolate(gettext("Move %(ply)s: %(move)s; it cost %(cards)s"), { ply, move: this.moveAt(ply), cards: cards(cost) }));
    }
    if (lost !== null) {
      const keep = a.keep_move ? `; ${interpolate(gettext("%(keep)s would have kept it"), { keep: moveWords(a.keep_move, this.plies[lost - 1].position, { tense: "doing" }) })}` : "";
      marker(lost, "lost", `${interpolate(gettext("Move %(ply)s: %(move)s; the win slipped away here"), { ply: lost, move: this.moveAt(lost) })}${keep}`);
    }

    // a click anywhere on the chart goes to the nearest ply
    chart.addEventListener("click", (event) => {
      const bounds = chart.getBoundingClientRect();
      const at = ((event.clientX - bounds.left) * (width / bounds.width) - pad.left) / plotW;
      this.go(Math.round(Math.min(Math.max(at, 0), 1) * this.last));
    });
    box.append(chart);
  }

  drawCursor() {
    if (this.closed) return;  // nothing is drawn after the page closed
    const cursor = this.root.querySelector("#chart .cursor");
    if (!cursor || !this.chartX) return;
    cursor.setAttribute("x1", this.chartX(this.ply));
    cursor.setAttribute("x2", this.chartX(this.ply));
    for (const el of this.root.querySelectorAll("#chart .marker")) {
      el.classList.toggle("current", Number(el.dataset.ply) === this.ply);
    }
  }

  // --- the best line, as a ghost ------------------------------------------------------------------

  async bestLine() {
    if (this.ghost) return;
    const from = this.ply;
    const button = this.root.querySelector("#best-line");
    button.disabled = true;
    button.textContent = gettext("Asking the solver…");
    let line = this.lines.get(from);
    try {
      if (!line) {
        line = (await api("GET", `games/${this.gameId}/replay/?best_from=${from}`, undefined, { signal: this.page.signal })).best_line;
        this.lines.set(from, line);
      }
    } catch (error) {
      if (this.closed || isAbort(error)) return;
      button.textContent = gettext("Show the best line from here");
      button.disabled = false;
      this.root.querySelector("#replay-next").textContent = error.message;
      return;
    }
    button.textContent = gettext("Show the best line from here");
    if (this.closed || this.ply !== from) return;
    if (!line || !line.moves.length) {
      button.disabled = false;
      this.root.querySelector("#replay-next").textContent = gettext("The solver has no better move than to stop here.");
      return;
    }
    this.ghost = { line, step: 0, from };
    this.root.querySelector(".replay").classList.add("ghosting");
    for (const id of ["replay-first", "replay-prev", "replay-next-move", "replay-last-move", "replay-slider"]) {
      this.root.querySelector(`#${id}`).disabled = true;
    }
    button.hidden = true;
    this.root.querySelector("#ghost-banner").hidden = false;
    this.root.querySelector("#ghost-stop").focus();
    const list = this.root.querySelector("#ghost-moves");
    list.innerHTML = "";
    let before = this.plies[from].position;
    line.moves.forEach((move, i) => {
      list.append(Object.assign(document.createElement("li"), { textContent: capital(moveWords(move, before)) }));
      before = line.positions[i];
    });
    list.hidden = false;
    if (calm()) this.ghostStep(line.moves.length);  // no animation: straight to where the line ends
    else this.ghostStep(1);
  }

  ghostStep(step) {
    const ghost = this.ghost;
    if (!ghost || this.closed) return;
    const { line, from } = ghost;
    const before = step > 1 ? line.positions[step - 2] : this.plies[from].position;
    const fading = ghosts(moveLocations(line.moves[step - 1]).map((loc) =>
      this.root.querySelector(loc === "stock" ? "#stock-pile .card" : `.board [data-loc="${loc}"]`)).filter(Boolean));
    ghost.step = step;
    const position = line.positions[step - 1];
    const board = this.root.querySelector(".board");
    drawBoard(board, position, { readOnly: true });
    board.classList.add("ghost");
    leave(fading);
    this.root.querySelector("#cards-left").textContent = position.cards_left;
    const items = this.root.querySelectorAll("#ghost-moves li");
    items.forEach((li, i) => li.classList.toggle("current", i === step - 1));
    const end = step === line.moves.length;
    const banner = this.root.querySelector("#ghost-banner");
    banner.hidden = false;
    banner.dataset.status = position.status;
    const whole = line.verdict === "winnable"
      ? interpolate(from ? gettext("The solver's best line from move %(from)s wins in %(moves)s:") : gettext("The solver's best line from the start wins in %(moves)s:"),
        { from, moves: moves(line.moves.length) })
      : interpolate(from ? gettext("The solver's best line from move %(from)s leaves %(cards)s:") : gettext("The solver's best line from the start leaves %(cards)s:"),
        { from, cards: cards(line.positions.at(-1).cards_left) });
    const where = end ? (position.status === "won" ? gettext("won, the deal is cleared.")
      : interpolate(gettext("the end, %(cards)s left."), { cards: cards(position.cards_left) }))
      : interpolate(gettext("move %(step)s of %(count)s."), { step, count: line.moves.length });
    this.root.querySelector("#ghost-text").textContent = `${whole} ${where}`;
    if (!end) this.page.after(() => { if (this.ghost === ghost) this.ghostStep(step + 1); }, GHOST_STEP_MS);
  }

  stopGhost({ redraw = true } = {}) {
    if (!this.ghost) return;
    this.ghost = null;  // its next step, waiting on the page's timer, finds it gone
    if (!redraw || this.closed) return;
    const $ = (selector) => this.root.querySelector(selector);
    $(".replay").classList.remove("ghosting");
    $(".board").classList.remove("ghost");
    $("#ghost-banner").hidden = true;
    $("#ghost-moves").hidden = true;
    $("#replay-slider").disabled = false;
    const best = $("#best-line");
    best.hidden = false;
    this.show();
    best.focus();
  }
}
