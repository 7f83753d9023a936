// The page's router: `#/...` addresses, so a reload lands on the same page and the same game.

import { api, currentUser, forget, rememberUser } from "./api.js";
import { chosenLanguage, gettext, language, loadLanguage, rememberLanguage, resolveLanguage } from "./i18n.js";
import { startBell } from "./bell.js";
import { boardsPage, clubPage, clubsPage, playerPage, TournamentPage, tournamentsPage } from "./boards.js";
import { draw } from "./draw.js";
import { fairPage } from "./fair.js";
import { html } from "./markup.js";
import { home, loginPage, practice, rulesPage, signupPage } from "./pages.js";
import { isAbort, Page } from "./page.js";
import { Replay } from "./replay.js";
import { Table } from "./table.js";

const main = document.getElementById("view");
/** The page on screen draws into a box of its own, taken off the screen when the page closes: whatever a closed
 * page still draws (an answer that came late) lands in a detached box nobody sees. */
let view = document.createElement("div");
/** The header is drawn outside any page: with a page that never closes. */
const always = { closed: false };
/** The page on screen: closed (its requests, timers and listeners ended) when the address changes. */
let page = new Page();

/** The header's bell, for the account signed in now (started again when the account changes). */
let bell = { stop() {} };
/** @type {string | null} */
let bellFor = null;

function drawBell() {
  const user = currentUser();
  const key = user ? `${user.id}:${user.guest ? "guest" : "player"}` : null;
  if (key === bellFor) return;
  bellFor = key;
  bell.stop();
  bell = startBell(/** @type {HTMLElement} */ (document.getElementById("bell")));
}

function drawAccount() {
  drawBell();
  const user = currentUser();
  const account = document.getElementById("account");
  if (!user) {
    draw(always, account, html`<a href="#/login" id="login-link">${gettext("Log in / Sign up")}</a>`);
    return;
  }
  if (user.guest) {
    // a guest's only key is the token in this browser: the way to keep its games is to sign up
    draw(always, account, html`<span id="guest-badge">${gettext("Guest:")} <a id="me" href="#/players/${encodeURIComponent(user.username)}"></a></span>
      <a id="keep-games" class="button" href="#/signup"><span class="wide">${gettext("Sign up to keep your games")}</span><span class="narrow">${gettext("Sign up")}</span></a> <a href="#/login" id="login-link">${gettext("Log in")}</a>`);
    account.querySelector("#me").textContent = user.username;
    return;
  }
  draw(always, account, html`<a id="me" href="#/players/${encodeURIComponent(user.username)}"></a> <button type="button" id="logout" class="quiet">${gettext("Log out")}</button>`);
  account.querySelector("#me").textContent = user.username;
  account.querySelector("#logout").addEventListener("click", async () => {
    await api("DELETE", "accounts/session/").catch(() => null);
    forget();
    localStorage.removeItem("pyramid.lastGame");
    drawAccount();
    location.hash = "#/";
  });
}

/** A game and its replay are a player's own: a visitor logs in first (everything else reads without an account). */
function needsLogin() {
  if (currentUser()) return false;
  sessionStorage.setItem("pyramid.after", location.hash);
  location.hash = "#/login";
  return true;
}

/**
 * Each page is shown into `view` and given the page's lifecycle (`page.js`): what it starts ends with it.
 * @type {Array<[RegExp, (...parts: string[]) => unknown]>}
 */
const routes = [
  [/^\/?$/, () => home(view, page)],
  [/^\/login$/, () => loginPage(view, page)],
  [/^\/signup$/, () => signupPage(view, page)],
  [/^\/practice$/, () => practice(view, page)],  // a visitor's first deal makes them a guest
  [/^\/game\/(\d+)$/, (id) => needsLogin() || new Table(view, Number(id), page).open()],
  [/^\/game\/(\d+)\/replay(?:\/(\d+))?$/, (id, ply) => needsLogin()
    || new Replay(view, Number(id), ply === undefined ? null : Number(ply), page).open()],
  [/^\/rules\/([\w-]+)$/, (name) => rulesPage(view, name, page)],
  [/^\/fair$/, () => fairPage(view, page)],
  // boards, players, public clubs and their tournaments: a visitor reads them all; acting asks for an account
  [/^\/boards$/, () => boardsPage(view, page)],
  [/^\/boards\/daily\/([\d-]+)\/([\w-]+)$/, (date, preset) => boardsPage(view, page, "daily", date, preset)],
  [/^\/boards\/(weekly|all-time)\/([\w-]+)$/, (kind, preset) => boardsPage(view, page, kind, undefined, preset)],
  [/^\/players\/([^/]+)$/, (name) => playerPage(view, decodeURIComponent(name), page)],
  [/^\/clubs$/, () => clubsPage(view, page)],
  [/^\/clubs\/(\d+)$/, (id) => clubPage(view, Number(id), page)],
  [/^\/tournaments$/, () => tournamentsPage(view, page)],
  [/^\/tournaments\/(\d+)$/, (id) => new TournamentPage(view, Number(id), page).open()],
];

const bar = document.querySelector("header.bar");
const menuButton = document.getElementById("menu-button");
function showMenu(shown) {
  bar.classList.toggle("open", shown);
  menuButton.setAttribute("aria-expanded", String(shown));
}
menuButton.addEventListener("click", () => showMenu(!bar.classList.contains("open")));

let navigated = false;
async function route() {
  page.close();
  page = new Page();
  const shown = page;
  view = document.createElement("div");
  view.className = "page-box";
  main.replaceChildren(view);
  showMenu(false);
  const path = location.hash.replace(/^#/, "") || "/";
  for (const link of document.querySelectorAll("#menu a")) {
    link.classList.toggle("current", path.startsWith(link.getAttribute("href").slice(1)) && link.getAttribute("href") !== "#/" || (path === "/" && link.getAttribute("href") === "#/"));
  }
  const found = routes.find(([pattern]) => pattern.test(path));
  try {
    if (found) await found[1](...path.match(found[0]).slice(1));
    else draw(shown, view, html`<section><h1>${gettext("There is no such page.")}</h1></section>`);
  } catch (error) {
    if (!isAbort(error)) throw error;
  }
  if (shown.closed) return;  // another address was asked for while this page loaded
  // after a page change (not the first load) focus goes to the new page's heading, as a page load would put
  // a screen reader there; unless the player has already moved into the page
  const first = !navigated;
  navigated = true;
  if (first || (document.activeElement !== document.body && !bar.contains(document.activeElement))) return;
  const heading = view.querySelector("h1");
  if (heading) {
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  } else {
    main.focus({ preventScroll: true });
  }
}

// The header's words, in the page's language (the shell comes in the server's guess of it).
function labelHeader() {
  const names = { "#/": gettext("Today"), "#/practice": gettext("Practice"), "#/boards": gettext("Boards"),
    "#/clubs": gettext("Clubs"), "#/tournaments": gettext("Tournaments"), "#/rules/classic": gettext("Rules") };
  for (const link of document.querySelectorAll("#menu a")) link.textContent = names[link.getAttribute("href")];
  menuButton.textContent = gettext("Menu");
  document.getElementById("menu").setAttribute("aria-label", gettext("Pages"));
  const switcher = /** @type {HTMLSelectElement} */ (document.getElementById("language"));
  switcher.value = language;
  switcher.previousElementSibling.textContent = gettext("Language");
}

// A choice made here is this browser's, and the account's too when someone is logged in.
document.getElementById("language").addEventListener("change", async (event) => {
  const chosen = /** @type {HTMLSelectElement} */ (event.target).value;
  rememberLanguage(chosen);
  if (currentUser()) {
    const user = await api("PATCH", "accounts/me/", { language: chosen }).catch(() => null);
    if (user) rememberUser(user);
  }
  location.reload();
});

// Logged in (or out) with no choice in this browser: the account's language may differ from the page's.
async function accountChanged() {
  if (!chosenLanguage() && resolveLanguage(currentUser()) !== language) {
    location.reload();
    return;
  }
  drawAccount();
}

await loadLanguage(resolveLanguage(currentUser())).catch(() => loadLanguage("en"));
labelHeader();
window.addEventListener("hashchange", route);
window.addEventListener("account", accountChanged);
drawAccount();
route();
