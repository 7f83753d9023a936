// The pages around the table: home with today's deals, accounts, practice, rules, boards and clubs.

import { api, currentUser, login, signup, startGame } from "./api.js";
import { cardElement } from "./cards.js";

export const PRESETS = JSON.parse(document.getElementById("presets").textContent);

class Markup extends String {}

/** A template tag that escapes what it interpolates, except markup made by itself. */
export function html(strings, ...values) {
  const escape = (value) => value instanceof Markup ? value
    : Array.isArray(value) ? value.map(escape).join("")
      : String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return new Markup(strings.reduce((out, s, i) => out + s + (i < values.length ? escape(values[i]) : ""), ""));
}

function errorText(root, selector, error) {
  const el = root.querySelector(selector);
  el.textContent = error.message;
  el.hidden = false;
}

function stars(difficulty) {
  return difficulty ? "★".repeat(difficulty) + "☆".repeat(5 - difficulty) : "not rated";
}

// --- home ----------------------------------------------------------------------------------------

export async function home(root) {
  const user = currentUser();
  root.innerHTML = html`
    <section class="home">
      <h1>Today's deals</h1>
      <p class="lead">Everyone plays the same deal today. The server checks every move.</p>
      <ul id="dailies" class="dailies"><li class="loading">Loading…</li></ul>
      <p id="daily-error" class="error" hidden></p>
      <p id="streak" hidden></p>
      <div id="continue"></div>
      <p id="next-daily" class="small"></p>
      <h2>Coming days</h2>
      <p class="small">Each deal is fixed in advance: the server publishes the SHA-256 of the deal and a
        secret salt now, and the salt when the day is over, so anyone can check it.</p>
      <ul id="coming" class="coming"></ul>
    </section>`;
  if (!user) root.querySelector(".home").append(accountForms());
  countdown(root.querySelector("#next-daily"), () => {
    const now = new Date();
    return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  }, "The next daily deal in");
  const last = localStorage.getItem("pyramid.lastGame");
  if (user && last) {
    root.querySelector("#continue").innerHTML = html`<p><a href="#/game/${last}">Continue your last game</a></p>`;
  }
  try {
    const dailies = (await api("GET", "daily/")).results;
    const list = root.querySelector("#dailies");
    list.innerHTML = dailies.length ? "" : "<li>Today's deals are still being prepared.</li>";
    for (const daily of dailies) list.append(dailyItem(daily));
  } catch (error) {
    errorText(root, "#daily-error", error);
  }
  if (user) {
    const player = await api("GET", `players/${encodeURIComponent(user.username)}/`).catch(() => null);
    if (player) {
      const streak = root.querySelector("#streak");
      const days = player.streak.current;
      streak.innerHTML = html`Your streak: <b id="streak-days">${days}</b> day${days === 1 ? "" : "s"}
        (longest ${player.streak.longest}) · <a href="#/players/${encodeURIComponent(user.username)}">your page</a>`;
      streak.hidden = false;
    }
  }
  const today = new Date();
  const coming = root.querySelector("#coming");
  const days = [1, 2, 3, 4, 5, 6].map((n) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(),
    today.getUTCDate() + n)).toISOString().slice(0, 10));
  const answers = await Promise.all(days.map((day) => api("GET", `daily/${day}/`).then((page) => page.results).catch(() => [])));
  for (const rows of answers) {
    for (const row of rows) {
      const li = document.createElement("li");
      li.innerHTML = html`<span class="date">${row.date}</span> <span class="preset">${row.preset}</span>
        <code title="${row.commitment}">${row.commitment.slice(0, 16)}…</code>`;
      coming.append(li);
    }
  }
  if (!coming.children.length) coming.innerHTML = "<li>No deals committed yet.</li>";
}

function dailyItem(daily) {
  const li = document.createElement("li");
  li.className = "daily";
  const mine = daily.my_game;
  const finished = mine && mine.status !== "playing";
  li.innerHTML = html`
    <div><b class="preset">${daily.preset}</b> <span class="date">${daily.date}</span>
      <a href="#/rules/${daily.preset}" class="small">rules</a></div>
    <div class="difficulty" title="difficulty">${stars(daily.difficulty)}</div>
    ${finished ? html`<div class="played">Played: ${mine.status === "won" ? "won" : `${mine.cards_left} cards left`}
      in ${mine.moves} moves · par ${daily.par_moves ?? "—"}</div>` : ""}
    <div class="actions"></div>`;
  const actions = li.querySelector(".actions");
  if (mine) {
    actions.innerHTML = html`<a class="button" href="#/game/${mine.id}">${finished ? "See your result" : "Continue"}</a>`;
  } else {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "play-daily";
    button.dataset.preset = daily.preset;
    button.textContent = "Play today's deal";
    button.addEventListener("click", () => startGame({ daily: daily.id }).catch((error) => alert(error.message)));
    actions.append(button);
  }
  return li;
}

// --- accounts ------------------------------------------------------------------------------------

export function accountForms() {
  const box = document.createElement("div");
  box.className = "accounts";
  box.innerHTML = `
    <form id="login-form" class="form">
      <h2>Log in</h2>
      <label>Username <input name="username" autocomplete="username" required></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit">Log in</button>
      <p class="error" hidden></p>
    </form>
    <form id="signup-form" class="form">
      <h2>Sign up</h2>
      <label>Username <input name="username" autocomplete="username" required minlength="3" maxlength="30"></label>
      <label>Email (optional) <input name="email" type="email" autocomplete="email"></label>
      <label>Password <input name="password" type="password" autocomplete="new-password" required></label>
      <button type="submit">Create account</button>
      <p class="error" hidden></p>
    </form>`;
  const wire = (id, act) => box.querySelector(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
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

export function loginPage(root) {
  root.innerHTML = "<section><h1>Log in or sign up</h1></section>";
  root.querySelector("section").append(accountForms());
}

/** Sign up; a guest's sign-up keeps its games, results, streak and board places under the new name. */
export function signupPage(root) {
  const user = currentUser();
  if (!user?.guest) {
    loginPage(root);
    return;
  }
  root.innerHTML = html`<section class="signup"><h1>Sign up to keep your games</h1>
    <p class="lead">You are playing as <b>${user.username}</b>, a guest kept by this browser alone. Choose a name
      and a password: your games, results, streak and places on the boards stay yours, under your new name.</p>
    </section>`;
  const forms = accountForms();
  forms.querySelector("#login-form").remove();
  root.querySelector("section").append(forms);
}

// --- practice ------------------------------------------------------------------------------------

export function practice(root) {
  const options = Object.entries(PRESETS).map(([name, p]) => html`<option value="${name}">${name}: ${p.describe}</option>`);
  root.innerHTML = `
    <section class="practice">
      <h1>Practice</h1>
      <p class="lead">Any deal, any rules: hints, undo as often as you like, and the solver to ask.</p>
      <form id="practice-form" class="form">
        <label>Rules <select name="rules">${options.join("")}</select></label>
        <label>Deal <select name="kind">
          <option value="winnable">a random deal the solver has proved winnable</option>
          <option value="1">winnable, difficulty ★ (easy)</option>
          <option value="2">winnable, difficulty ★★</option>
          <option value="3">winnable, difficulty ★★★</option>
          <option value="4">winnable, difficulty ★★★★</option>
          <option value="5">winnable, difficulty ★★★★★ (only look-ahead finds the win)</option>
          <option value="any">any random deal (it may not be winnable)</option>
        </select></label>
        <label>Deal number <input name="number" inputmode="numeric" pattern="[0-9]*" placeholder="random"
          aria-describedby="number-note"></label>
        <p id="number-note" class="small">A number, when given, is dealt whatever the choice above.</p>
        <button type="submit">Deal</button>
        <p class="error" hidden></p>
      </form>
    </section>`;
  root.querySelector("#practice-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.target));
    const body = { rules: data.rules };
    if (data.number.trim()) body.number = data.number.trim();  // as digits: numbers run to 2**64
    else if (data.kind === "winnable") body.winnable = true;
    else if (/^[1-5]$/.test(data.kind)) body.difficulty = Number(data.kind);
    try {
      await startGame(body);
    } catch (error) {
      errorText(event.target, ".error", error);
    }
  });
}

// --- rules ---------------------------------------------------------------------------------------

const PAIRS = [["A", "Q"], ["2", "J"], ["3", "T"], ["4", "9"], ["5", "8"], ["6", "7"]];
const VALUE = { A: 1, T: 10, J: 11, Q: 12, K: 13 };
const value = (rank) => VALUE[rank] || Number(rank);

export function rulesSections(rules) {
  const passes = rules.passes === "unlimited" ? "as many times as you like"
    : rules.passes === 1 ? "once: there is no redeal" : `${rules.passes} times (${rules.passes - 1} redeal${rules.passes > 2 ? "s" : ""})`;
  const tops = [];
  tops.push(rules.stock_top === "live"
    ? "The top card of the stock lies face up and may be paired before you draw it."
    : "The stock is face down: draw to turn its top card onto the waste.");
  tops.push(rules.waste_top === "live"
    ? "The top card of the waste is available."
    : "The waste is dead: a card drawn onto it can no longer be played.");
  if (rules.stock_top === "live" && rules.waste_top === "live") tops.push("The stock top and the waste top may pair with each other.");
  return {
    goal: rules.goal === "pyramid" ? "Clear the 28 cards of the pyramid; the stock need not be used up."
      : "Clear all 52 cards: the pyramid, the stock and the waste.",
    passes: `You go through the stock ${passes}. A draw turns ${rules.draw === 1 ? "one card" : "three cards (only the last lands on top)"} onto the waste.`,
    tops,
    extras: [
      rules.covered_pairs === "yes" ? "A free card may pair with the card it covers, when nothing else covers that card." : null,
      rules.reserve ? `${rules.reserve} reserve cards lie face up in a row below the pyramid; all of them are always available.` : null,
    ].filter(Boolean),
  };
}

/** Questions in the manner of the practice page's quiz: each answer says why, under these rules. */
function quizQuestions(rules) {
  const passes = rules.passes === "unlimited" ? "As many times as you like"
    : rules.passes === 1 ? "Once" : `${rules.passes} times in all`;
  return [
    {
      ask: "Which card pairs with a free jack?",
      options: ["A free queen", "A free 2", "Another free jack"],
      answer: "A free 2",
      why: "A jack counts 11, and 11 + 2 = 13. A pair is two cards that add up to 13, not two of a rank.",
    },
    {
      ask: "When is a card in the pyramid free?",
      options: ["When it is in the bottom row", "When one of the two cards on it is gone",
        "When both cards on it are gone"],
      answer: "When both cards on it are gone",
      why: "Every card is covered by the two cards just below it; it is free once both have been taken away.",
    },
    {
      ask: "A king is free. What do you do with it?",
      options: ["Take it away on its own", "Pair it with an ace", "Leave it in the pyramid"],
      answer: "Take it away on its own",
      why: "A king counts 13 by itself. Nothing pairs with it, so taking it at once only uncovers cards.",
    },
    {
      ask: "A 6 lies on a 7 in the pyramid, covering it. Can they be paired with each other?",
      options: ["Yes", "No"],
      answer: rules.covered_pairs === "yes" ? "Yes" : "No",
      why: rules.covered_pairs === "yes"
        ? "Under these rules a free card may pair with the card it covers, when nothing else covers that card."
        : "Both cards of a pair must be free, and the 7 is covered while the 6 is on it.",
    },
    {
      ask: "Which card of the waste can you use?",
      options: ["Any of them", "Only the top one", "None of them"],
      answer: rules.waste_top === "live" ? "Only the top one" : "None of them",
      why: rules.waste_top === "live"
        ? "Each card turned over covers the one before it: use the top card, and the one under it comes free."
        : "Under these rules the waste is dead: use the stock's top card before you draw the next.",
    },
    {
      ask: "How many times may you go through the stock?",
      options: [...new Set(["Once", "3 times in all", "As many times as you like", passes])],
      answer: passes,
      why: rules.passes === 1 ? "There is no redeal under these rules."
        : rules.passes === "unlimited" ? "Turn the waste over into the stock whenever the stock is empty."
          : `The first time, and ${rules.passes - 1} more after turning the waste over without shuffling.`,
    },
  ];
}

export function rulesPage(root, name) {
  const rules = PRESETS[name];
  if (!rules) {
    root.innerHTML = html`<p class="error">There is no preset called ${name}.</p>`;
    return;
  }
  const sections = rulesSections(rules);
  root.innerHTML = html`
    <section class="rules">
      <nav class="tabs">${""}</nav>
      <h1>Rules: ${name}</h1>
      <p class="lead">${rules.describe}</p>
      <h2>The goal</h2><p id="rules-goal">${sections.goal}</p>
      <h2>Passes</h2><p id="rules-passes">${sections.passes}</p>
      <h2>Which cards are live</h2>
      <ul id="rules-tops"></ul>
      <h2>Pairs</h2>
      <p>A card is free when no card lies on it. Remove two free cards whose values add up to 13, or a king alone.
        Ace counts 1, jack 11, queen 12, king 13.</p>
      <table class="pairs"><tbody id="pairs-table"></tbody></table>
      <h2>Quiz</h2>
      <div id="quiz" class="quiz"></div>
      <p id="quiz-score" class="message"></p>
    </section>`;
  root.querySelector(".tabs").innerHTML = Object.keys(PRESETS)
    .map((p) => html`<a href="#/rules/${p}" class="${p === name ? "current" : ""}">${p}</a>`).join(" ");
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
    row.append(cell(a, "H"), Object.assign(document.createElement("td"), { textContent: b ? "+" : "alone" }), cell(b, "S"),
      Object.assign(document.createElement("td"), { textContent: b ? `${value(a)} + ${value(b)} = 13` : "13" }));
    table.append(row);
  }
  const quiz = root.querySelector("#quiz");
  const questions = quizQuestions(rules);
  const score = root.querySelector("#quiz-score");
  questions.forEach((q, i) => {
    const fieldset = document.createElement("fieldset");
    fieldset.innerHTML = html`<legend>${i + 1}. ${q.ask}</legend>
      ${q.options.map((option) => html`<label><input type="radio" name="q${i}" value="${option}"> ${option}</label>`)}
      <p class="why" hidden></p>`;
    fieldset.addEventListener("change", (event) => {
      const right = event.target.value === q.answer;
      fieldset.className = right ? "right" : "wrong";
      const why = fieldset.querySelector(".why");
      why.textContent = `${right ? "Right" : `Not quite: ${q.answer}`}. ${q.why}`;
      why.hidden = false;
      const answered = quiz.querySelectorAll("fieldset.right, fieldset.wrong").length;
      const correct = quiz.querySelectorAll("fieldset.right").length;
      score.textContent = `${correct} of ${answered} right so far, ${questions.length - answered} to go.`;
      if (answered === questions.length) {
        score.textContent = `${correct} of ${questions.length} right.` +
          (correct === questions.length ? " You know the rules: go and play!" : " Read the ones in red again.");
      }
    });
    quiz.append(fieldset);
  });
}

// "The next daily deal in 5:04:31": counts down each second while the element is on the page
export function countdown(el, target, words) {
  const tick = () => {
    if (!el.isConnected) return clearInterval(timer);
    const seconds = Math.max(0, Math.floor((target() - Date.now()) / 1000));
    const h = Math.floor(seconds / 3600);
    const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
    el.textContent = `${words} ${h}:${mm}:${String(seconds % 60).padStart(2, "0")}`;
  };
  const timer = setInterval(tick, 1000);
  tick();
}
