// The pages around the table: home with today's deals, accounts, practice, rules, boards and clubs.

import { api, ApiError, currentUser, login, signup, startGame } from "./api.js";
import { cardElement } from "./cards.js";
import { formatDate, gettext, interpolate, ngettext } from "./i18n.js";
import { asError, draw, orNull } from "./draw.js";
import { html } from "./markup.js";
import { isAbort } from "./page.js";
import { countdown } from "./time.js";

export const PRESETS = JSON.parse(document.getElementById("presets").textContent);


/**
 * @param {Element} root
 * @param {string} selector
 * @param {Error} error
 */
function errorText(root, selector, error) {
  const el = /** @type {HTMLElement} */ (root.querySelector(selector));
  el.textContent = error.message;
  el.hidden = false;
}

function stars(difficulty) {
  return difficulty ? "★".repeat(difficulty) + "☆".repeat(5 - difficulty) : gettext("not rated");
}

// --- home ----------------------------------------------------------------------------------------

/**
 * A daily deal as `GET /api/daily/` answers it (the fields the page uses).
 * @typedef {{id: number, date: string, preset: string, difficulty: number | null, par_moves: number | null,
 *   commitment: string, my_game: null | {id: number, status: string, moves: number, cards_left: number}}} Daily
 */

/**
 * Home leads with today's deals and a big Play button, and says where the player stands today in plain words
 * (played? the result, the streak); how the deals are kept fair is a page of its own (`#/fair`).
 * @param {HTMLElement} root
 * @param {import("./page.js").Page} page
 */
export async function home(root, page) {
  const user = currentUser();
  draw(page, root, html`
    <section class="home">
      <h1>${gettext("Today's deals")}</h1>
      <p class="lead">${gettext("Everyone plays the same deal today. The server checks every move.")}</p>
      <p id="my-day" class="my-day" hidden></p>
      <ul id="dailies" class="dailies"><li class="loading">${gettext("Loading…")}</li></ul>
      <p id="daily-error" class="error" hidden></p>
      <p id="streak" hidden></p>
      <div id="continue"></div>
      <p id="next-daily" class="small"></p>
      ${user ? "" : html`<p id="visitor-note">${gettext("No account needed: play now, and sign up afterwards to keep your games.")}
        <a href="#/login" id="home-login">${gettext("Log in")}</a></p>`}
      <p class="small home-links"><a href="#/fair" id="fair-link">${gettext("How we keep it fair")}</a> ·
        <a href="#/boards">${gettext("Today's board")}</a> · <a href="#/rules/classic">${gettext("How to play")}</a></p>
    </section>`);
  countdown(root.querySelector("#next-daily"), () => {
    const now = new Date();
    return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  }, gettext("The next daily deal in"), page.signal);
  const [dailies, player, last] = await Promise.all([
    api("GET", "daily/", undefined, { signal: page.signal }).then((answer) => /** @type {Daily[]} */ (answer.results)).catch(asError),
    user ? api("GET", `players/${encodeURIComponent(user.username)}/`, undefined, { signal: page.signal }).catch(orNull) : null,
    lastGame(page),
  ]);
  if (page.closed) return;
  if (dailies instanceof Error) {
    root.querySelector("#dailies").textContent = "";
    errorText(root, "#daily-error", dailies);
  } else {
    const list = root.querySelector("#dailies");
    draw(page, list, dailies.length ? "" : html`<li>${gettext("Today's deals are still being prepared.")}</li>`);
    for (const daily of dailies) list.append(dailyItem(daily));
    if (user) myDay(root.querySelector("#my-day"), dailies);
  }
  if (last && !(Array.isArray(dailies) && dailies.some((daily) => daily.my_game?.id === last))) {
    draw(page, root.querySelector("#continue"), html`<p><a class="button quiet" id="continue-game" href="#/game/${last}">${gettext("Continue your last game")}</a></p>`);
  }
  if (player) {
    const streak = /** @type {HTMLElement} */ (root.querySelector("#streak"));
    const days = player.streak.current;
    const [before, after] = ngettext("Your streak: %(days)s day", "Your streak: %(days)s days", days).split("%(days)s");
    draw(page, streak, html`${before}<b id="streak-days">${days}</b>${after}
      (${interpolate(gettext("longest %(days)s"), { days: player.streak.longest })}) · <a href="#/players/${encodeURIComponent(user.username)}">${gettext("your page")}</a>`);
    streak.hidden = false;
  }
}

/**
 * The game kept as "the last one" by this browser, when it is still being played; else the key is cleared.
 * @param {import("./page.js").Page} page
 * @returns {Promise<number | null>}
 */
async function lastGame(page) {
  const last = localStorage.getItem("pyramid.lastGame");
  if (!last) return null;
  if (!currentUser() || !/^\d+$/.test(last)) {
    localStorage.removeItem("pyramid.lastGame");
    return null;
  }
  try {
    const game = await api("GET", `games/${last}/`, undefined, { signal: page.signal });
    if (game.status === "playing") return game.id;
  } catch (error) {
    if (isAbort(error)) throw error;
    if (!(error instanceof ApiError) || error.status >= 500) return null;  // offline, or the server's trouble: ask again later
  }
  localStorage.removeItem("pyramid.lastGame");  // over, or not this player's
  return null;
}

/**
 * The player's day in words: not played yet, a game under way, or played (and won).
 * @param {HTMLElement} el
 * @param {Daily[]} dailies
 */
function myDay(el, dailies) {
  if (!dailies.length) return;
  const games = dailies.map((daily) => daily.my_game).filter(Boolean);
  const finished = games.filter((game) => game.status !== "playing");
  el.textContent = !games.length ? gettext("You have not played today's deal yet.")
    : finished.length < games.length ? gettext("You have a game of today's deal under way: go on with it.")
      : finished.some((game) => game.status === "won") ? gettext("You won today's deal. The next one comes at midnight (UTC).")
        : gettext("You have played today's deal. The next one comes at midnight (UTC).");
  el.hidden = false;
}

/** @param {Daily} daily */
function dailyItem(daily) {
  const li = document.createElement("li");
  li.className = "daily";
  const mine = daily.my_game;
  const finished = mine && mine.status !== "playing";
  li.innerHTML = String(html`
    <div><b class="preset">${daily.preset}</b> <span class="date">${formatDate(daily.date)}</span>
      <a href="#/rules/${daily.preset}" class="small">${gettext("rules")}</a></div>
    <div class="difficulty" title="${gettext("difficulty")}">${stars(daily.difficulty)}</div>
    ${finished ? html`<div class="played">${interpolate(mine.status === "won"
      ? gettext("Played: won in %(moves)s moves · par %(par)s")
      : ngettext("Played: %(cards)s card left in %(moves)s moves · par %(par)s",
        "Played: %(cards)s cards left in %(moves)s moves · par %(par)s", mine.cards_left),
    { cards: mine.cards_left, moves: mine.moves, par: daily.par_moves ?? "—" })}</div>` : ""}
    <div class="actions"></div>`);
  const actions = li.querySelector(".actions");
  if (mine) {
    actions.innerHTML = String(html`<a class="button" href="#/game/${mine.id}">${finished ? gettext("See your result") : gettext("Continue")}</a>`);
  } else {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "play-daily big";
    button.dataset.preset = daily.preset;
    button.textContent = gettext("Play today's deal");
    button.addEventListener("click", () => startGame({ daily: daily.id }).catch((error) => alert(error.message)));
    actions.append(button);
  }
  return li;
}

// --- accounts ------------------------------------------------------------------------------------

export function accountForms() {
  const box = document.createElement("div");
  box.className = "accounts";
  box.innerHTML = String(html`
    <form id="login-form" class="form">
      <h2>${gettext("Log in")}</h2>
      <label>${gettext("Username")} <input name="username" autocomplete="username" required></label>
      <label>${gettext("Password")} <input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit">${gettext("Log in")}</button>
      <p class="error" hidden></p>
    </form>
    <form id="signup-form" class="form">
      <h2>${gettext("Sign up")}</h2>
      <label>${gettext("Username")} <input name="username" autocomplete="username" required minlength="3" maxlength="30"></label>
      <label>${gettext("Email (optional)")} <input name="email" type="email" autocomplete="email"></label>
      <label>${gettext("Password")} <input name="password" type="password" autocomplete="new-password" required></label>
      <button type="submit">${gettext("Create account")}</button>
      <p class="error" hidden></p>
    </form>`);
  const wire = (id, act) => box.querySelector(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.target);
    const data = Object.fromEntries(new FormData(form));
    try {
      await act(data);
      window.dispatchEvent(new Event("account"));
      location.hash = sessionStorage.getItem("pyramid.after") || "#/";
      sessionStorage.removeItem("pyramid.after");
    } catch (error) {
      errorText(form, ".error", error);
    }
  });
  wire("#login-form", (d) => login(d.username, d.password));
  wire("#signup-form", (d) => signup(d.username, d.password, d.email || ""));
  return box;
}

/**
 * @param {HTMLElement} root
 * @param {import("./page.js").Page} page
 */
export function loginPage(root, page) {
  draw(page, root, html`<section><h1>${gettext("Log in or sign up")}</h1>
    <p class="lead">${gettext("You need no account to play: the first game makes you a guest. An account keeps your games, results and streak on any device.")}</p></section>`);
  root.querySelector("section").append(accountForms());
}

/** Sign up; a guest's sign-up keeps its games, results, streak and board places under the new name. */
/**
 * @param {HTMLElement} root
 * @param {import("./page.js").Page} page
 */
export function signupPage(root, page) {
  const user = currentUser();
  if (!user?.guest) {
    loginPage(root, page);
    return;
  }
  const [before, after] = gettext("You are playing as %(name)s, a guest kept by this browser alone. Choose a name and a password: your games, results, streak and places on the boards stay yours, under your new name.").split("%(name)s");
  draw(page, root, html`<section class="signup"><h1>${gettext("Sign up to keep your games")}</h1>
    <p class="lead">${before}<b>${user.username}</b>${after}</p>
    </section>`);
  const forms = accountForms();
  forms.querySelector("#login-form").remove();
  root.querySelector("section").append(forms);
}

// --- practice ------------------------------------------------------------------------------------

/**
 * @param {HTMLElement} root
 * @param {import("./page.js").Page} page
 */
export function practice(root, page) {
  const options = Object.entries(PRESETS).map(([name, p]) => html`<option value="${name}">${name}: ${describe(p)}</option>`);
  const difficulty = (stars) => interpolate(gettext("winnable, difficulty %(stars)s"), { stars });
  draw(page, root, html`
    <section class="practice">
      <h1>${gettext("Practice")}</h1>
      <p class="lead">${gettext("Any deal, any rules: hints, undo as often as you like, and the solver to ask.")}</p>
      <form id="practice-form" class="form">
        <label>${gettext("Rules")} <select name="rules">${options}</select></label>
        <label>${gettext("Deal")} <select name="kind">
          <option value="winnable">${gettext("a random deal the solver has proved winnable")}</option>
          <option value="1">${interpolate(gettext("winnable, difficulty %(stars)s (easy)"), { stars: "★" })}</option>
          <option value="2">${difficulty("★★")}</option>
          <option value="3">${difficulty("★★★")}</option>
          <option value="4">${difficulty("★★★★")}</option>
          <option value="5">${interpolate(gettext("winnable, difficulty %(stars)s (only look-ahead finds the win)"), { stars: "★★★★★" })}</option>
          <option value="any">${gettext("any random deal (it may not be winnable)")}</option>
        </select></label>
        <label>${gettext("Deal number")} <input name="number" inputmode="numeric" pattern="[0-9]*" placeholder="${gettext("random")}"
          aria-describedby="number-note"></label>
        <p id="number-note" class="small">${gettext("A number, when given, is dealt whatever the choice above.")}</p>
        <button type="submit">${gettext("Deal")}</button>
        <p class="error" hidden></p>
      </form>
    </section>`);
  root.querySelector("#practice-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.target);
    const data = /** @type {Record<string, string>} */ (Object.fromEntries(new FormData(form)));
    /** @type {Record<string, any>} */
    const body = { rules: data.rules };
    if (data.number.trim()) body.number = data.number.trim();  // as digits: numbers run to 2**64
    else if (data.kind === "winnable") body.winnable = true;
    else if (/^[1-5]$/.test(data.kind)) body.difficulty = Number(data.kind);
    try {
      await startGame(body);
    } catch (error) {
      errorText(form, ".error", error);
    }
  });
}

// --- rules ---------------------------------------------------------------------------------------

/** A preset's options in a few plain words (as the engine's `Rules.describe`, in the page's language). */
export function describe(rules) {
  const passes = rules.passes === "unlimited" ? gettext("unlimited passes")
    : interpolate(ngettext("%(count)s pass", "%(count)s passes", rules.passes), { count: rules.passes });
  const parts = [
    interpolate(gettext("draw %(count)s"), { count: rules.draw }),
    passes,
    rules.stock_top === "live" ? gettext("stock top live") : gettext("stock top hidden"),
    rules.waste_top === "live" ? gettext("waste top live") : gettext("waste top dead"),
    rules.goal === "pyramid" ? gettext("clear the pyramid") : gettext("clear all 52 cards"),
  ];
  if (rules.covered_pairs === "yes") parts.push(gettext("a card may pair with the card it covers"));
  if (rules.reserve) parts.push(gettext("7 reserve cards"));
  return parts.join(", ");
}

const PAIRS = [["A", "Q"], ["2", "J"], ["3", "T"], ["4", "9"], ["5", "8"], ["6", "7"]];
const VALUE = { A: 1, T: 10, J: 11, Q: 12, K: 13 };
const value = (rank) => VALUE[rank] || Number(rank);

export function rulesSections(rules) {
  const redeals = rules.passes === "unlimited" ? 0 : rules.passes - 1;
  const through = rules.passes === "unlimited" ? gettext("You go through the stock as many times as you like.")
    : rules.passes === 1 ? gettext("You go through the stock once: there is no redeal.")
      : interpolate(ngettext("You go through the stock %(passes)s times (%(redeals)s redeal).",
        "You go through the stock %(passes)s times (%(redeals)s redeals).", redeals), { passes: rules.passes, redeals });
  const tops = [];
  tops.push(rules.stock_top === "live"
    ? gettext("The top card of the stock lies face up and may be paired before you draw it.")
    : gettext("The stock is face down: draw to turn its top card onto the waste."));
  tops.push(rules.waste_top === "live"
    ? gettext("The top card of the waste is available.")
    : gettext("The waste is dead: a card drawn onto it can no longer be played."));
  if (rules.stock_top === "live" && rules.waste_top === "live") tops.push(gettext("The stock top and the waste top may pair with each other."));
  return {
    goal: rules.goal === "pyramid" ? gettext("Clear the 28 cards of the pyramid; the stock need not be used up.")
      : gettext("Clear all 52 cards: the pyramid, the stock and the waste."),
    passes: `${through} ${rules.draw === 1 ? gettext("A draw turns one card onto the waste.")
      : gettext("A draw turns three cards onto the waste (only the last lands on top).")}`,
    tops,
    extras: [
      rules.covered_pairs === "yes" ? gettext("A free card may pair with the card it covers, when nothing else covers that card.") : null,
      rules.reserve ? interpolate(gettext("%(count)s reserve cards lie face up in a row below the pyramid; all of them are always available."), { count: rules.reserve }) : null,
    ].filter(Boolean),
  };
}

/** Questions in the manner of the practice page's quiz: each answer says why, under these rules. */
function quizQuestions(rules) {
  const times = (count) => interpolate(gettext("%(count)s times in all"), { count });
  const passes = rules.passes === "unlimited" ? gettext("As many times as you like")
    : rules.passes === 1 ? gettext("Once") : times(rules.passes);
  const [yes, no] = [gettext("Yes"), gettext("No")];
  return [
    {
      ask: gettext("Which card pairs with a free jack?"),
      options: [gettext("A free queen"), gettext("A free 2"), gettext("Another free jack")],
      answer: gettext("A free 2"),
      why: gettext("A jack counts 11, and 11 + 2 = 13. A pair is two cards that add up to 13, not two of a rank."),
    },
    {
      ask: gettext("When is a card in the pyramid free?"),
      options: [gettext("When it is in the bottom row"), gettext("When one of the two cards on it is gone"),
        gettext("When both cards on it are gone")],
      answer: gettext("When both cards on it are gone"),
      why: gettext("Every card is covered by the two cards just below it; it is free once both have been taken away."),
    },
    {
      ask: gettext("A king is free. What do you do with it?"),
      options: [gettext("Take it away on its own"), gettext("Pair it with an ace"), gettext("Leave it in the pyramid")],
      answer: gettext("Take it away on its own"),
      why: gettext("A king counts 13 by itself. Nothing pairs with it, so taking it at once only uncovers cards."),
    },
    {
      ask: gettext("A 6 lies on a 7 in the pyramid, covering it. Can they be paired with each other?"),
      options: [yes, no],
      answer: rules.covered_pairs === "yes" ? yes : no,
      why: rules.covered_pairs === "yes"
        ? gettext("Under these rules a free card may pair with the card it covers, when nothing else covers that card.")
        : gettext("Both cards of a pair must be free, and the 7 is covered while the 6 is on it."),
    },
    {
      ask: gettext("Which card of the waste can you use?"),
      options: [gettext("Any of them"), gettext("Only the top one"), gettext("None of them")],
      answer: rules.waste_top === "live" ? gettext("Only the top one") : gettext("None of them"),
      why: rules.waste_top === "live"
        ? gettext("Each card turned over covers the one before it: use the top card, and the one under it comes free.")
        : gettext("Under these rules the waste is dead: use the stock's top card before you draw the next."),
    },
    {
      ask: gettext("How many times may you go through the stock?"),
      options: [...new Set([gettext("Once"), times(3), gettext("As many times as you like"), passes])],
      answer: passes,
      why: rules.passes === 1 ? gettext("There is no redeal under these rules.")
        : rules.passes === "unlimited" ? gettext("Turn the waste over into the stock whenever the stock is empty.")
          : interpolate(gettext("The first time, and %(more)s more after turning the waste over without shuffling."), { more: rules.passes - 1 }),
    },
  ];
}

/**
 * @param {HTMLElement} root
 * @param {string} name
 * @param {import("./page.js").Page} page
 */
export function rulesPage(root, name, page) {
  const rules = PRESETS[name];
  if (!rules) {
    draw(page, root, html`<section><h1>${gettext("Rules")}</h1><p class="error">${interpolate(gettext("There is no preset called %(name)s."), { name })}</p></section>`);
    return;
  }
  const sections = rulesSections(rules);
  draw(page, root, html`
    <section class="rules">
      <nav class="tabs">${""}</nav>
      <h1>${interpolate(gettext("Rules: %(name)s"), { name })}</h1>
      <p class="lead">${describe(rules)}</p>
      <h2>${gettext("The goal")}</h2><p id="rules-goal">${sections.goal}</p>
      <h2>${gettext("Passes")}</h2><p id="rules-passes">${sections.passes}</p>
      <h2>${gettext("Which cards are live")}</h2>
      <ul id="rules-tops"></ul>
      <h2>${gettext("Pairs")}</h2>
      <p>${gettext("A card is free when no card lies on it. Remove two free cards whose values add up to 13, or a king alone. Ace counts 1, jack 11, queen 12, king 13.")}</p>
      <table class="pairs"><caption class="sr-only">${gettext("The pairs that make 13")}</caption><tbody id="pairs-table"></tbody></table>
      <h2>${gettext("Quiz")}</h2>
      <div id="quiz" class="quiz"></div>
      <p id="quiz-score" class="message"></p>
    </section>`);
  draw(page, root.querySelector(".tabs"), Object.keys(PRESETS)
    .map((p) => html`<a href="#/rules/${p}" class="${p === name ? "current" : ""}">${p}</a>`).join(" "));
  const tops = root.querySelector("#rules-tops");
  for (const line of [...sections.tops, ...sections.extras]) tops.append(Object.assign(document.createElement("li"), { textContent: line }));
  const table = root.querySelector("#pairs-table");
  for (const [a, b] of [...PAIRS, ["K", null]]) {
    const row = document.createElement("tr");
    const cell = (rank, suit) => {
      const td = document.createElement("td");
      if (rank) td.append(cardElement(`${rank}${suit}`, { tag: "div" }));
      return td;
    };
    row.append(cell(a, "H"), Object.assign(document.createElement("td"), { textContent: b ? "+" : gettext("alone") }), cell(b, "S"),
      Object.assign(document.createElement("td"), { textContent: b ? `${value(a)} + ${value(b)} = 13` : "13" }));
    table.append(row);
  }
  const quiz = root.querySelector("#quiz");
  const questions = quizQuestions(rules);
  const score = root.querySelector("#quiz-score");
  questions.forEach((q, i) => {
    const fieldset = document.createElement("fieldset");
    fieldset.innerHTML = String(html`<legend>${i + 1}. ${q.ask}</legend>
      ${q.options.map((option) => html`<label><input type="radio" name="q${i}" value="${option}"> ${option}</label>`)}
      <p class="why" hidden></p>`);
    fieldset.addEventListener("change", (event) => {
      const right = /** @type {HTMLInputElement} */ (event.target).value === q.answer;
      fieldset.className = right ? "right" : "wrong";
      const why = /** @type {HTMLElement} */ (fieldset.querySelector(".why"));
      why.textContent = `${right ? gettext("Right.") : interpolate(gettext("Not quite: %(answer)s."), { answer: q.answer })} ${q.why}`;
      why.hidden = false;
      const answered = quiz.querySelectorAll("fieldset.right, fieldset.wrong").length;
      const correct = quiz.querySelectorAll("fieldset.right").length;
      score.textContent = interpolate(gettext("%(correct)s of %(answered)s right so far, %(left)s to go."),
        { correct, answered, left: questions.length - answered });
      if (answered === questions.length) {
        score.textContent = `${interpolate(gettext("%(correct)s of %(total)s right."), { correct, total: questions.length })} ${
          correct === questions.length ? gettext("You know the rules: go and play!") : gettext("Read the ones in red again.")}`;
      }
    });
    quiz.append(fieldset);
  });
}

