// The page's router: `#/...` addresses, so a reload lands on the same page and the same game.

import { api, currentUser, forget } from "./api.js";
import { fromBoards, home, loginPage, practice, rulesPage, table } from "./pages.js";
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
  [/^\/practice$/, () => needsLogin() || practice(view)],
  [/^\/game\/(\d+)$/, async (id) => {
    if (needsLogin()) return;
    open = new Table(view, Number(id));
    await open.open();
  }],
  [/^\/rules\/([\w-]+)$/, (name) => rulesPage(view, name)],
  [/^\/boards$/, () => fromBoards(view, "Boards", "boards/", (content, data) =>
    table(content, data.results || data, [["Rank", "rank"], ["Player", "username"], ["Score", "score"]]))],
  [/^\/boards\/daily\/(\d+)$/, (id) => fromBoards(view, "Daily board", `boards/daily/${id}/`, (content, data) =>
    table(content, data.results || data, [["Rank", "rank"], ["Player", "username"], ["Cards left", "cards_left"],
      ["Moves", "moves"], ["Time", "seconds"]]))],
  [/^\/players\/([^/]+)$/, (name) => fromBoards(view, `Player ${decodeURIComponent(name)}`, `players/${name}/`,
    (content, data) => table(content, [data], [["Player", "username"], ["Streak", "streak"], ["Games", "games"]]))],
  [/^\/clubs$/, () => fromBoards(view, "Clubs", "clubs/", (content, data) =>
    table(content, data.results || data, [["Club", "name"], ["Members", "member_count"]]))],
  [/^\/tournaments$/, () => fromBoards(view, "Tournaments", "tournaments/", (content, data) =>
    table(content, data.results || data, [["Tournament", "name"], ["Club", "club"], ["Status", "status"]]))],
];

async function route() {
  open?.close();
  open = null;
  const path = location.hash.replace(/^#/, "") || "/";
  for (const link of document.querySelectorAll("#menu a")) {
    link.classList.toggle("current", path.startsWith(link.getAttribute("href").slice(1)) && link.getAttribute("href") !== "#/" || (path === "/" && link.getAttribute("href") === "#/"));
  }
  for (const [pattern, show] of routes) {
    const match = path.match(pattern);
    if (match) return show(...match.slice(1));
  }
  view.innerHTML = `<p class="error">There is no such page.</p>`;
}

window.addEventListener("hashchange", route);
window.addEventListener("account", drawAccount);
drawAccount();
route();
