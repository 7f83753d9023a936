// The page's router: `#/...` addresses, so a reload lands on the same page and the same game.

import { api, currentUser, forget } from "./api.js";
import { boardsPage, clubPage, clubsPage, playerPage, TournamentPage, tournamentsPage } from "./boards.js";
import { home, loginPage, practice, rulesPage, signupPage } from "./pages.js";
import { Replay } from "./replay.js";
import { Table } from "./table.js";

const view = document.getElementById("view");
let open = null;  // the table on screen, closed when the page changes

function drawAccount() {
  const user = currentUser();
  const account = document.getElementById("account");
  if (!user) {
    account.innerHTML = `<a href="#/login" id="login-link">Log in / Sign up</a>`;
    return;
  }
  if (user.guest) {
    // a guest's only key is the token in this browser: the way to keep its games is to sign up
    account.innerHTML = `<span id="guest-badge">Guest: <a id="me" href="#/players/${encodeURIComponent(user.username)}"></a></span>
      <a id="keep-games" class="button" href="#/signup">Sign up to keep your games</a> <a href="#/login" id="login-link">Log in</a>`;
    account.querySelector("#me").textContent = user.username;
    return;
  }
  account.innerHTML = `<a id="me" href="#/players/${encodeURIComponent(user.username)}"></a> <button type="button" id="logout" class="quiet">Log out</button>`;
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

const routes = [
  [/^\/?$/, () => home(view)],
  [/^\/login$/, () => loginPage(view)],
  [/^\/signup$/, () => signupPage(view)],
  [/^\/practice$/, () => practice(view)],  // a visitor's first deal makes them a guest
  [/^\/game\/(\d+)$/, async (id) => {
    if (needsLogin()) return;
    open = new Table(view, Number(id));
    await open.open();
  }],
  [/^\/game\/(\d+)\/replay(?:\/(\d+))?$/, async (id, ply) => {
    if (needsLogin()) return;
    open = new Replay(view, Number(id), ply === undefined ? null : Number(ply));
    await open.open();
  }],
  [/^\/rules\/([\w-]+)$/, (name) => rulesPage(view, name)],
  [/^\/boards$/, () => needsLogin() || boardsPage(view)],
  [/^\/boards\/daily\/([\d-]+)\/([\w-]+)$/, (date, preset) => needsLogin() || boardsPage(view, "daily", date, preset)],
  [/^\/boards\/(weekly|all-time)\/([\w-]+)$/, (kind, preset) => needsLogin() || boardsPage(view, kind, undefined, preset)],
  [/^\/players\/([^/]+)$/, (name) => needsLogin() || playerPage(view, decodeURIComponent(name))],
  [/^\/clubs$/, () => needsLogin() || clubsPage(view)],
  [/^\/clubs\/(\d+)$/, (id) => needsLogin() || clubPage(view, Number(id))],
  [/^\/tournaments$/, () => needsLogin() || tournamentsPage(view)],
  [/^\/tournaments\/(\d+)$/, async (id) => {
    if (needsLogin()) return;
    open = new TournamentPage(view, Number(id));
    await open.open();
  }],
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
  open?.close();
  open = null;
  showMenu(false);
  const path = location.hash.replace(/^#/, "") || "/";
  for (const link of document.querySelectorAll("#menu a")) {
    link.classList.toggle("current", path.startsWith(link.getAttribute("href").slice(1)) && link.getAttribute("href") !== "#/" || (path === "/" && link.getAttribute("href") === "#/"));
  }
  const match = routes.map(([pattern, show]) => [path.match(pattern), show]).find(([found]) => found);
  if (match) await match[1](...match[0].slice(1));
  else view.innerHTML = `<p class="error">There is no such page.</p>`;
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

window.addEventListener("hashchange", route);
window.addEventListener("account", drawAccount);
drawAccount();
route();
