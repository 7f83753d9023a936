// The page's router: `#/...` addresses, so a reload lands on the same page and the same game.

import { api, currentUser, forget, rememberUser } from "./api.js";
import { chosenLanguage, gettext, language, loadLanguage, rememberLanguage, resolveLanguage } from "./i18n.js";
import { boardsPage, clubPage, clubsPage, playerPage, TournamentPage, tournamentsPage } from "./boards.js";
import { html } from "./markup.js";
import { home, loginPage, practice, rulesPage, signupPage } from "./pages.js";
import { isAbort, Page } from "./page.js";
import { Replay } from "./replay.js";
import { Table } from "./table.js";

const view = document.getElementById("view");
/** The page on screen: closed (its requests, timers and listeners ended) when the address changes. */
let page = new Page();

function drawAccount() {
  const user = currentUser();
  const account = document.getElementById("account");
  if (!user) {
    account.innerHTML = html`<a href="#/login" id="login-link">${gettext("Log in / Sign up")}</a>`;
    return;
  }
  if (user.guest) {
    // a guest's only key is the token in this browser: the way to keep its games is to sign up
    account.innerHTML = html`<span id="guest-badge">${gettext("Guest:")} <a id="me" href="#/players/${encodeURIComponent(user.username)}"></a></span>
      <a id="keep-games" class="button" href="#/signup"><span class="wide">${gettext("Sign up to keep your games")}</span><span class="narrow">${gettext("Sign up")}</span></a> <a href="#/login" id="login-link">${gettext("Log in")}</a>`;
    account.querySelector("#me").textContent = user.username;
    return;
  }
  account.innerHTML = html`<a id="me" href="#/players/${encodeURIComponent(user.username)}"></a> <button type="button" id="logout" class="quiet">${gettext("Log out")}</button>`;
  account.querySelector("#me").textContent = user.username;
  account.querySelector("#logout").addEventListener("click", async () => {
    await api("DELETE", "accounts/session/").catch(() => null);
    forget();
    localStorage.removeItem("pyramid.lastGame");
    drawAccount();
    location.hash = "#/";
  });
}

function needsLogin() {
  if (currentUser()) return false;
  sessionStorage.setItem("pyramid.after", location.hash);
  location.hash = "#/login";
  return true;
}

// Each page is shown into `view` and given the page's lifecycle (`page.js`): what it starts ends with it.
const routes = [
  [/^\/?$/, () => home(view, page)],
  [/^\/login$/, () => loginPage(view, page)],
  [/^\/signup$/, () => signupPage(view, page)],
  [/^\/practice$/, () => practice(view, page)],  // a visitor's first deal makes them a guest
  [/^\/game\/(\d+)$/, (id) => needsLogin() || new Table(view, Number(id), page).open()],
  [/^\/game\/(\d+)\/replay(?:\/(\d+))?$/, (id, ply) => needsLogin()
    || new Replay(view, Number(id), ply === undefined ? null : Number(ply), page).open()],
  [/^\/rules\/([\w-]+)$/, (name) => rulesPage(view, name, page)],
  [/^\/boards$/, () => needsLogin() || boardsPage(view, page)],
  [/^\/boards\/daily\/([\d-]+)\/([\w-]+)$/, (date, preset) => needsLogin() || boardsPage(view, page, "daily", date, preset)],
  [/^\/boards\/(weekly|all-time)\/([\w-]+)$/, (kind, preset) => needsLogin() || boardsPage(view, page, kind, undefined, preset)],
  [/^\/players\/([^/]+)$/, (name) => needsLogin() || playerPage(view, decodeURIComponent(name), page)],
  [/^\/clubs$/, () => needsLogin() || clubsPage(view, page)],
  [/^\/clubs\/(\d+)$/, (id) => needsLogin() || clubPage(view, Number(id), page)],
  [/^\/tournaments$/, () => needsLogin() || tournamentsPage(view, page)],
  [/^\/tournaments\/(\d+)$/, (id) => needsLogin() || new TournamentPage(view, Number(id), page).open()],
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
  showMenu(false);
  const path = location.hash.replace(/^#/, "") || "/";
  for (const link of document.querySelectorAll("#menu a")) {
    link.classList.toggle("current", path.startsWith(link.getAttribute("href").slice(1)) && link.getAttribute("href") !== "#/" || (path === "/" && link.getAttribute("href") === "#/"));
  }
  const match = routes.map(([pattern, show]) => [path.match(pattern), show]).find(([found]) => found);
  try {
    if (match) await match[1](...match[0].slice(1));
    else view.innerHTML = html`<p class="error">${gettext("There is no such page.")}</p>`;
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
    view.focus({ preventScroll: true });
  }
}

// The header's words, in the page's language (the shell comes in the server's guess of it).
function labelHeader() {
  const names = { "#/": gettext("Today"), "#/practice": gettext("Practice"), "#/boards": gettext("Boards"),
    "#/clubs": gettext("Clubs"), "#/tournaments": gettext("Tournaments"), "#/rules/classic": gettext("Rules") };
  for (const link of document.querySelectorAll("#menu a")) link.textContent = names[link.getAttribute("href")];
  menuButton.textContent = gettext("Menu");
  document.getElementById("menu").setAttribute("aria-label", gettext("Pages"));
  const switcher = document.getElementById("language");
  switcher.value = language;
  switcher.previousElementSibling.textContent = gettext("Language");
}

// A choice made here is this browser's, and the account's too when someone is logged in.
document.getElementById("language").addEventListener("change", async (event) => {
  const chosen = event.target.value;
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
