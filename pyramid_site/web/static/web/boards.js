// Boards, player pages, clubs and tournaments: pages over the leaderboards API.

import { api, currentUser } from "./api.js";
import { askForAccount } from "./ask-account.js";
import { asError, draw } from "./draw.js";
import { html } from "./markup.js";
import { followWhileOpen } from "./live.js";
import { isAbort } from "./page.js";
import { markScrollers, scrollBox } from "./scrolling.js";
import { PRESETS } from "./pages.js";
import { raceView } from "./race.js";
import { clock, countdown } from "./time.js";
import { calendarMonths, figuresTable } from "./stats.js";
import { formatDate, formatDateTime, gettext, interpolate, ngettext } from "./i18n.js";

const todayUtc = () => new Date().toISOString().slice(0, 10);

/** @typedef {import("./page.js").Page} Page */

/**
 * @param {Element} root
 * @param {string} text
 */
function say(root, text, kind = "error") {
  const el = /** @type {HTMLElement} */ (root.querySelector(".page-message"));
  if (!el) return;
  el.textContent = text;
  el.className = `page-message ${kind}`;
  el.hidden = !text;
}

/**
 * Rows as a table in a box that scrolls sideways on a narrow screen (and says so), named `label`.
 * @param {any[]} rows
 * @param {Array<[string, (row: any) => unknown]>} columns
 * @param {{mine?: string | null, className?: string, label?: string, id?: string}} [options]
 */
function rowsTable(rows, columns, { mine = null, className = "", label = "", id = "" } = {}) {
  if (!rows.length) return html`<p>${gettext("Nobody here yet.")}</p>`;
  const head = columns.map(([title]) => html`<th scope="col">${title}</th>`);
  const body = rows.map((row) => html`<tr class="${mine && row.player?.username === mine ? "me" : ""}">${
    columns.map(([, value]) => html`<td>${value(row)}</td>`)}</tr>`);
  return scrollBox(html`<table class="board-table ${className}"${id ? html` id="${id}"` : ""}><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`,
    label || gettext("Table"));
}

const playerLink = (row) => html`<a href="#/players/${encodeURIComponent(row.player.username)}">${row.player.username}</a>`;
const resultText = (row) => (row.won ? gettext("won") : interpolate(gettext("%(count)s left"), { count: row.cards_left }));
// a club role, a tournament's format, source or status: the API's words, said in the page's language
const roleWords = (role) => ({ owner: gettext("owner"), admin: gettext("admin"), member: gettext("member") }[role] ?? role);
const formatWords = (format) => ({ arena: gettext("arena"), match: gettext("match"), race: gettext("race") }[format] ?? format);
const statusWords = (status) => ({ preparing: gettext("preparing"), ready: gettext("ready"), failed: gettext("failed") }[status] ?? status);

// --- boards --------------------------------------------------------------------------------------

/**
 * @param {HTMLElement} root
 * @param {Page} page
 */
export async function boardsPage(root, page, kind = "daily", date = todayUtc(), preset = "classic") {
  const tabs = [["daily", `#/boards/daily/${date}/${preset}`, gettext("Daily")], ["weekly", `#/boards/weekly/${preset}`, gettext("This week")],
    ["all-time", `#/boards/all-time/${preset}`, gettext("All time")]];
  draw(page, root, html`
    <section class="boards">
      <h1>${gettext("Boards")}</h1>
      <nav class="tabs">${tabs.map(([k, href, label]) => html`<a href="${href}" class="${k === kind ? "current" : ""}">${label}</a> `)}</nav>
      <div class="section-head"><p class="small">${kind === "daily" ? interpolate(gettext("%(preset)s daily deal of %(date)s"), { preset, date: formatDate(date) }) : preset}</p>
        <span class="live-state" id="live-state"></span></div>
      <p class="page-message" hidden></p>
      <div id="board" class="loading">${gettext("Loading…")}</div>
      ${kind === "daily" ? html`<p class="small"><a href="#/fair" id="fair-link">${gettext("How we keep it fair")}</a></p>` : ""}
    </section>`);
  const board = root.querySelector("#board");
  const signal = page.signal;
  const me = currentUser()?.username;
  try {
    if (kind === "daily") {
      await dailyBoard(board, page, date, preset, me);
      if (date === todayUtc()) {
        // results land all day: each one on the stream reads the board again (its ranks move under it)
        followWhileOpen(page, `/api/boards/daily/${date}/${preset}/events/`, {
          indicator: root.querySelector("#live-state"),
          readAlready: true,
          poll: () => dailyBoard(board, page, date, preset, me),
          onEvent: (type) => {
            if (type === "result") dailyBoard(board, page, date, preset, me).catch(() => undefined);
          },
        });
      }
    } else {
      const data = await api("GET", `boards/${kind}/?preset=${encodeURIComponent(preset)}`, undefined, { signal });
      draw(page, board, rowsTable(data.results, [[gettext("Rank"), (r) => r.rank], [gettext("Player"), playerLink], [gettext("Played"), (r) => r.played],
        [gettext("Cleared"), (r) => r.cleared], [gettext("Cards left"), (r) => r.cards_left_total], [gettext("At par"), (r) => r.at_par],
        [gettext("Streak"), (r) => r.streak.current]], { mine: me, label: gettext("Board") }));
    }
    board.classList.remove("loading");
    markScrollers(root, page);
  } catch (error) {
    if (isAbort(error)) throw error;
    board.textContent = "";
    say(root, error.message);
  }
}

/** @type {WeakMap<Element, string>} each board box's answer on screen */
const shownBoards = new WeakMap();

/**
 * A daily board read and drawn into `board`; drawn again only when it changed (a 304 leaves it as it is).
 * @param {Element} board
 * @param {Page} page
 * @param {string} date
 * @param {string} preset
 * @param {string | undefined} me
 */
async function dailyBoard(board, page, date, preset, me) {
  const data = await api("GET", `boards/daily/${date}/${preset}/`, undefined, { signal: page.signal });
  const seen = JSON.stringify(data);
  if (page.closed || shownBoards.get(board) === seen) return;
  shownBoards.set(board, seen);
  draw(page, board, html`
    <p>${interpolate(gettext("%(count)s finished · par %(par)s"), { count: data.total, par: data.daily.par_moves ?? "—" })}${data.me ? html` · ${gettext("you are")} <b id="my-rank">#${data.me.rank}</b>` : ""}</p>
    ${rowsTable([...data.top, ...data.around.filter((row) => !data.top.some((top) => top.game === row.game))], [
      [gettext("Rank"), (r) => r.rank], [gettext("Player"), playerLink], [gettext("Result"), resultText], [gettext("Moves"), (r) => r.moves],
      [gettext("Par"), (r) => r.par_text ?? "—"], [gettext("Time"), (r) => clock(r.seconds)]], { mine: me, label: gettext("Daily board") })}`);
  markScrollers(board, page);
}

/**
 * The player's row on a daily board, or null.
 * @param {string} date
 * @param {string} preset
 * @param {AbortSignal} [signal]
 */
export async function dailyRank(date, preset, signal) {
  const data = await api("GET", `boards/daily/${date}/${preset}/`, undefined, { signal });
  return data.me?.rank ?? null;
}

// --- players -------------------------------------------------------------------------------------

/**
 * @param {HTMLElement} root
 * @param {string} username
 * @param {Page} page
 */
export async function playerPage(root, username, page) {
  draw(page, root, html`<section class="player"><h1>${username}</h1><p class="page-message" hidden></p><div id="player"></div></section>`);
  const name = encodeURIComponent(username);
  const signal = page.signal;
  try {
    const [data, stats] = await Promise.all([api("GET", `players/${name}/`, undefined, { signal }),
      api("GET", `players/${name}/stats/`, undefined, { signal })]);
    const s = data.stats;
    draw(page, root.querySelector("#player"), html`
      <dl class="stats">
        <div><dt>${gettext("Streak")}</dt><dd id="player-streak">${data.streak.current}</dd></div>
        <div><dt>${gettext("Longest")}</dt><dd id="player-longest">${data.streak.longest}</dd></div>
        <div><dt>${gettext("Played")}</dt><dd>${s.played}</dd></div>
        <div><dt>${gettext("Cleared")}</dt><dd>${s.cleared}</dd></div>
        <div><dt>${gettext("At par")}</dt><dd>${s.at_par}</dd></div>
        <div><dt>${gettext("Average left")}</dt><dd>${s.cards_left_average}</dd></div>
      </dl>
      <h2>${gettext("Statistics")}</h2>
      ${scrollBox(figuresTable(stats.ranked, gettext("Ranked"), "ranked-figures"), gettext("Ranked"))}
      ${stats.practice ? scrollBox(figuresTable(stats.practice, gettext("Practice"), "practice-figures"), gettext("Practice"))
        : html`<p class="small" id="practice-figures">${gettext("Practice figures are private to each player.")}</p>`}
      <p class="small">${gettext("Won: the goal reached, with the win rate. Cleared: the pyramid gone. Best: the fewest moves and the shortest time of a win.")}</p>
      <div class="calendar-head"><h2 id="calendar-title">${gettext("Daily calendar")}</h2>
        <label>${gettext("Show")} <select id="calendar-months">${[3, 6, 12].map((n) => html`<option value="${n}">${interpolate(gettext("%(count)s months"), { count: n })}</option>`)}</select></label></div>
      <div id="calendar" class="loading" aria-labelledby="calendar-title" role="region">${gettext("Loading…")}</div>
      <h2>${gettext("Clubs")}</h2>
      <p>${data.clubs.length ? data.clubs.map((c) => html`<a href="#/clubs/${c.id}">${c.name}</a> (${roleWords(c.role)}) `) : gettext("None yet.")}</p>
      <h2>${gettext("Daily results")}</h2>
      ${rowsTable(data.history, [[gettext("Day"), (r) => formatDate(r.date)], [gettext("Preset"), (r) => r.preset], [gettext("Result"), resultText],
        [gettext("Moves"), (r) => r.moves], [gettext("Par"), (r) => r.par_text ?? "—"], [gettext("Time"), (r) => clock(r.seconds)]],
        { className: "compact", label: gettext("Daily results") })}
      <div id="my-games"></div>`);
    markScrollers(root, page);
    if (currentUser()?.id === data.player.id) await myGames(root.querySelector("#my-games"), page);
  } catch (error) {
    if (isAbort(error)) throw error;
    return say(root, error.message);
  }
  const box = root.querySelector("#calendar");
  /** @param {string | number} months */
  const show = async (months) => {
    try {
      const calendar = await api("GET", `players/${name}/calendar/?months=${months}`, undefined, { signal });
      draw(page, box, calendarMonths(calendar));
      box.classList.remove("loading");
    } catch (error) {
      if (isAbort(error)) return;
      box.textContent = "";
      say(root, error.message);
    }
  };
  page.listen(root.querySelector("#calendar-months"), "change",
    (event) => show(/** @type {HTMLSelectElement} */ (event.target).value));
  await show(3);
}

/**
 * My own games, practice and ranked, the latest first: shown on my page only.
 * @param {Element} box
 * @param {Page} page
 */
async function myGames(box, page) {
  const games = (await api("GET", "games/?limit=20", undefined, { signal: page.signal })).results;
  const kind = (g) => g.daily ? interpolate(gettext("daily %(date)s"), { date: formatDate(g.daily.date) })
    : g.mode === "practice" ? interpolate(gettext("practice #%(number)s"), { number: g.deal.number_text }) : gettext("tournament");
  const ended = { stuck: gettext("stuck"), resigned: gettext("resigned"), closed: gettext("closed") };
  const status = (g) => g.status === "won" ? gettext("won") : g.status === "playing" ? gettext("playing")
    : interpolate(gettext("%(status)s, %(count)s left"), { status: ended[g.status] ?? g.status, count: g.cards_left });
  draw(page, box, html`<h2>${gettext("Your games")}</h2>${games.length ? scrollBox(html`<table class="board-table" id="my-games-table">
    <thead><tr><th scope="col">${gettext("Game")}</th><th scope="col">${gettext("Deal")}</th><th scope="col">${gettext("Rules")}</th><th scope="col">${gettext("Result")}</th><th scope="col">${gettext("Moves")}</th></tr></thead>
    <tbody>${games.map((g) => html`<tr data-game="${g.id}"><td><a href="#/game/${g.id}">#${g.id}</a></td><td>${kind(g)}</td>
      <td>${g.deal.preset}</td><td>${status(g)}</td><td>${g.moves}</td></tr>`)}</tbody></table>`, gettext("Your games")) : html`<p>${gettext("No games yet.")}</p>`}`);
  markScrollers(box, page);
}

// --- clubs ---------------------------------------------------------------------------------------

/**
 * The public clubs (and mine); forms to create one and to join by code. A visitor reads the list and is asked
 * to log in (or go on as a guest, for joining) when they use a form.
 * @param {HTMLElement} root
 * @param {Page} page
 */
export async function clubsPage(root, page) {
  draw(page, root, html`
    <section class="clubs">
      <h1>${gettext("Clubs")}</h1>
      <p class="page-message" hidden></p>
      <div id="club-list" class="loading">${gettext("Loading…")}</div>
      <div class="accounts">
        <form id="club-create" class="form">
          <h2>${gettext("Create a club")}</h2>
          <label>${gettext("Name")} <input name="name" required maxlength="60"></label>
          <label>${gettext("Description")} <input name="description" maxlength="2000"></label>
          <label class="check"><input type="checkbox" name="is_private"> ${gettext("Private: members only")}</label>
          <button type="submit">${gettext("Create club")}</button>
          <div class="ask" hidden></div>
        </form>
        <form id="club-join" class="form">
          <h2>${gettext("Join by code")}</h2>
          <label>${gettext("Invite code")} <input name="invite_code" required maxlength="64"></label>
          <button type="submit">${gettext("Join club")}</button>
          <div class="ask" hidden></div>
        </form>
      </div>
    </section>`);
  /**
   * @param {string} id
   * @param {(data: Record<string, string>) => Promise<any>} act
   * @param {boolean} guests  whether a guest account may do it
   */
  const submit = (id, act, guests) => page.listen(root.querySelector(id), "submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.target);
    const data = /** @type {Record<string, string>} */ (Object.fromEntries(new FormData(form)));
    const done = async () => {
      const club = await act(data);
      location.hash = `#/clubs/${club.id}`;
    };
    if (!currentUser()) {
      askForAccount(form.querySelector(".ask"), page, guests
        ? { why: gettext("Joining a club needs an account: log in, sign up, or go on as a guest."),
          asGuest: () => done().catch((error) => { if (!isAbort(error)) say(root, error.message); }) }
        : { why: gettext("Creating a club needs an account: log in or sign up.") });
      return;
    }
    try {
      await done();
    } catch (error) {
      if (!isAbort(error)) say(root, error.message);
    }
  });
  submit("#club-create", (d) => api("POST", "clubs/", { name: d.name, description: d.description, is_private: !!d.is_private },
    { signal: page.signal }), false);
  if (currentUser()?.guest) {  // guests join clubs; founding one waits for sign-up
    const [before, after] = gettext("%(sign_up)s to create a club: your games stay yours.").split("%(sign_up)s");
    draw(page, root.querySelector("#club-create"), html`<h2>${gettext("Create a club")}</h2>
      <p>${before}<a href="#/signup">${gettext("Sign up")}</a>${after}</p>`);
  }
  submit("#club-join", (d) => api("POST", "clubs/join/", { invite_code: d.invite_code.trim() }, { signal: page.signal }), true);
  try {
    const clubs = (await api("GET", "clubs/?limit=200", undefined, { signal: page.signal })).results;
    const list = root.querySelector("#club-list");
    list.classList.remove("loading");
    const signedIn = Boolean(currentUser());
    /** @type {Array<[string, (club: any) => unknown]>} */
    const columns = [[gettext("Club"), (c) => html`<a href="#/clubs/${c.id}">${c.name}</a>`], [gettext("Members"), (c) => c.members ?? "—"]];
    if (signedIn) columns.push([gettext("You"), (c) => (c.my_role ? roleWords(c.my_role) : "—")]);
    columns.push([gettext("Privacy"), (c) => (c.is_private ? gettext("private") : gettext("public"))]);
    draw(page, list, rowsTable(clubs, columns, { label: gettext("Clubs") }));
    markScrollers(root, page);
  } catch (error) {
    if (isAbort(error)) throw error;
    say(root, error.message);
  }
}

/** @param {Date} date */
function localInput(date) {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  return shifted.toISOString().slice(0, 16);
}

/**
 * A club: its tournaments to everyone who sees it, its members to its members, forms to its managers.
 * @param {HTMLElement} root
 * @param {number} clubId
 * @param {Page} page
 */
export async function clubPage(root, clubId, page) {
  draw(page, root, html`<section class="club"><p class="page-message" hidden></p><div id="club" class="loading">${gettext("Loading…")}</div></section>`);
  const signal = page.signal;
  let club;
  try {
    club = await api("GET", `clubs/${clubId}/`, undefined, { signal });
  } catch (error) {
    if (isAbort(error)) throw error;
    draw(page, root.querySelector("#club"), html`<h1>${gettext("Club")}</h1>`);
    return say(root, error.message);
  }
  const signedIn = Boolean(currentUser());
  const manager = club.my_role === "owner" || club.my_role === "admin";
  const now = new Date();
  const endOfDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 23, 59));
  const presets = Object.keys(PRESETS).map((p) => html`<option value="${p}">${p}</option>`);
  const box = root.querySelector("#club");
  box.classList.remove("loading");
  draw(page, box, html`
    <h1 id="club-name">${club.name}</h1>
    <p>${club.description}</p>
    <p>${interpolate(ngettext("%(count)s member", "%(count)s members", club.members ?? 0), { count: club.members ?? "?" })} · ${club.is_private ? gettext("private") : gettext("public")}${signedIn ? html` · ${interpolate(gettext("you: %(role)s"), { role: club.my_role ? roleWords(club.my_role) : gettext("not a member") })}` : ""}</p>
    ${club.invite_code ? html`<p>${gettext("Invite code:")} <code id="invite-code">${club.invite_code}</code></p>` : ""}
    ${club.my_role ? "" : html`<p>${gettext("Ask a member for the invite code to join.")}${signedIn ? "" : html` <a href="#/clubs" id="join-by-code">${gettext("Join by code")}</a>`}</p>`}
    <h2>${gettext("Tournaments")}</h2>
    <div id="tournaments">${gettext("Loading…")}</div>
    ${manager ? html`
    <form id="tournament-create" class="form">
      <h2>${gettext("New tournament")}</h2>
      <label>${gettext("Name")} <input name="name" required maxlength="80"></label>
      <label>${gettext("Play on")} <select name="source"><option value="daily">${gettext("today's daily deal")}</option><option value="secret">${gettext("deals the server picks")}</option></select></label>
      <label>${gettext("Rules")} <select name="rules">${presets}</select></label>
      <label>${gettext("Format")} <select name="format"><option value="arena">${gettext("arena: deal after deal")}</option><option value="match">${gettext("match: a fixed set of deals")}</option></select></label>
      <label>${gettext("Number of deals")} <input name="deal_count" type="number" min="1" max="100" value="1"></label>
      <label>${gettext("Starts")} <input name="starts_at" type="datetime-local" value="${localInput(now)}" required></label>
      <label>${gettext("Ends")} <input name="ends_at" type="datetime-local" value="${localInput(endOfDay)}" required></label>
      <button type="submit">${gettext("Create tournament")}</button>
    </form>` : ""}
    ${club.my_role ? html`<h2>${gettext("Members")}</h2><div id="members">${gettext("Loading…")}</div>
      <p><button type="button" id="leave" class="quiet">${gettext("Leave the club")}</button></p>` : ""}`);
  const create = root.querySelector("#tournament-create");
  if (create) {
    page.listen(create, "submit", async (event) => {
      event.preventDefault();
      const d = /** @type {Record<string, string>} */ (Object.fromEntries(new FormData(/** @type {HTMLFormElement} */ (event.target))));
      try {
        const tournament = await api("POST", `clubs/${clubId}/tournaments/`, {
          name: d.name, source: d.source, rules: d.rules, format: d.format, deal_count: Number(d.deal_count),
          starts_at: new Date(d.starts_at).toISOString(), ends_at: new Date(d.ends_at).toISOString(),
        }, { signal });
        location.hash = `#/tournaments/${tournament.id}`;
      } catch (error) {
        if (!isAbort(error)) say(root, error.message);
      }
    });
  }
  const leave = root.querySelector("#leave");
  if (leave) {
    page.listen(leave, "click", async () => {
      try {
        await api("POST", `clubs/${clubId}/leave/`, undefined, { signal });
        location.hash = "#/clubs";
      } catch (error) {
        if (!isAbort(error)) say(root, error.message);
      }
    });
  }
  const [tournaments, members] = await Promise.all([
    api("GET", `clubs/${clubId}/tournaments/?limit=200`, undefined, { signal }).then((answer) => answer.results).catch(asError),
    club.my_role ? api("GET", `clubs/${clubId}/members/?limit=200`, undefined, { signal }).then((answer) => answer.results).catch(asError) : null,
  ]);
  draw(page, root.querySelector("#tournaments"), tournaments instanceof Error ? html`${tournaments.message}` : rowsTable(tournaments, [
    [gettext("Tournament"), (x) => html`<a href="#/tournaments/${x.id}">${x.name}</a>`], [gettext("Format"), (x) => formatWords(x.format)],
    [gettext("Rules"), (x) => x.preset], [gettext("Ends"), (x) => formatDateTime(x.ends_at)]], { label: gettext("Tournaments") }));
  const m = root.querySelector("#members");
  if (m) {
    draw(page, m, members instanceof Error ? html`${members.message}` : rowsTable(members, [
      [gettext("Member"), (x) => html`<a href="#/players/${encodeURIComponent(x.user.username)}">${x.user.username}</a>`],
      [gettext("Role"), (x) => roleWords(x.role)]], { label: gettext("Members") }));
  }
  markScrollers(root, page);
}

// --- tournaments ---------------------------------------------------------------------------------

/**
 * The tournaments of my clubs; to a visitor (or a player in no club), those of the public clubs.
 * @param {HTMLElement} root
 * @param {Page} page
 */
export async function tournamentsPage(root, page) {
  draw(page, root, html`<section><h1>${gettext("Tournaments")}</h1><p class="page-message" hidden></p><div id="list" class="loading">${gettext("Loading…")}</div></section>`);
  const signal = page.signal;
  try {
    const mine = currentUser() ? (await api("GET", "clubs/?mine=1&limit=200", undefined, { signal })).results : [];
    // a visitor (or a player in no club) sees the tournaments of the first public clubs
    const clubs = mine.length ? mine : (await api("GET", "clubs/?limit=20", undefined, { signal })).results;
    const lists = await Promise.all(clubs.map((c) => api("GET", `clubs/${c.id}/tournaments/`, undefined, { signal })
      .then((answer) => answer.results.map((t) => ({ ...t, clubName: c.name })))));
    const all = lists.flat().sort((a, b) => Date.parse(b.starts_at) - Date.parse(a.starts_at));
    const list = root.querySelector("#list");
    list.classList.remove("loading");
    const [before, after] = gettext("Tournaments are held by clubs: %(link)s.").split("%(link)s");
    draw(page, list, html`${all.length ? rowsTable(all, [[gettext("Tournament"), (x) => html`<a href="#/tournaments/${x.id}">${x.name}</a>`],
      [gettext("Club"), (x) => html`<a href="#/clubs/${x.club}">${x.clubName}</a>`], [gettext("Format"), (x) => formatWords(x.format)],
      [gettext("Ends"), (x) => formatDateTime(x.ends_at)]], { label: gettext("Tournaments") }) : ""}
      ${!mine.length ? html`<p>${before}<a href="#/clubs">${gettext("create or join a club")}</a>${after}</p>` : ""}`);
    markScrollers(root, page);
  } catch (error) {
    if (isAbort(error)) throw error;
    say(root, error.message);
  }
}

// a visitor cannot be in the club yet: no guest to go on as, but an account and the club's code
const tournamentNeeds = () => gettext("Playing in a tournament needs an account and a place in its club: log in, or sign up and ask a member for the club's invite code.");

// what a tournament's stream says changed: its standings (a join, a leave, a finished game), or its status too
const STANDINGS_EVENTS = new Set(["joined", "left", "standing", "soon", "started", "ended"]);
const STATUS_EVENTS = new Set(["soon", "started", "ended"]);

/** A tournament: its standings, followed live while the page is open (polled when the stream is down), and joining it. */
export class TournamentPage {
  /**
   * @param {HTMLElement} root
   * @param {number} id
   * @param {Page} page
   */
  constructor(root, id, page) {
    this.root = root;
    this.page = page;
    this.id = id;
    /** @type {Promise<void> | null} the standings' read under way */
    this.reading = null;
    this.readAgain = false;
    /** @type {string | null} the standings on screen, as read */
    this.shown = null;
    /** @type {((joined: boolean) => void) | null} */
    this.drawEntry = null;
  }

  async open() {
    const { root, page } = this;
    const signal = page.signal;
    draw(page, root, html`<section class="tournament"><p class="page-message" hidden></p><div id="tournament" class="loading">${gettext("Loading…")}</div></section>`);
    let t;
    try {
      t = await api("GET", `tournaments/${this.id}/`, undefined, { signal });
    } catch (error) {
      if (isAbort(error)) throw error;
      draw(page, root.querySelector("#tournament"), html`<h1>${gettext("Tournament")}</h1>`);
      return say(root, error.message);
    }
    const box = root.querySelector("#tournament");
    box.classList.remove("loading");
    draw(page, box, html`
      <h1 id="tournament-name">${t.name}</h1>
      <p><a href="#/clubs/${t.club}">${gettext("the club")}</a> · ${formatWords(t.format)}, ${interpolate(ngettext("%(count)s deal", "%(count)s deals", t.deal_count), { count: t.deal_count })} ·
        <a href="#/rules/${t.preset}">${t.preset}</a> · ${t.source === "daily" ? gettext("today's daily deal") : gettext("deals the server picks")}
        · <span id="tournament-status">${statusWords(t.status)}</span></p>
      <p>${interpolate(gettext("%(start)s to %(end)s"), { start: formatDateTime(t.starts_at), end: formatDateTime(t.ends_at) })}
        <span id="tournament-clock" class="small"></span></p>
      <p class="actions"><span id="entry"></span>
        <button type="button" id="play-next">${gettext("Play the next deal")}</button></p>
      <div class="ask" id="tournament-ask" hidden></div>
      ${t.format === "race" ? html`<section id="race" aria-live="polite"></section>` : ""}
      <div class="section-head"><h2>${gettext("Standings")} <span class="small" id="standings-kind"></span></h2>
        <span class="live-state" id="live-state"></span></div>
      <div id="standings">${gettext("Loading…")}</div>`);
    const starts = Date.parse(t.starts_at), ends = Date.parse(t.ends_at);
    if (Date.now() < ends) {
      countdown(box.querySelector("#tournament-clock"), () => (Date.now() < starts ? starts : ends),
        Date.now() < starts ? gettext("· starts in") : gettext("· ends in"), signal);
    }
    const ask = /** @type {HTMLElement} */ (box.querySelector("#tournament-ask"));
    // Join, then Leave until the tournament starts; from then "You are in."
    const entry = box.querySelector("#entry");
    /** @param {boolean} joined */
    const drawEntry = (joined) => {
      draw(page, entry, !joined ? html`<button type="button" id="join">${gettext("Join")}</button>`
        : Date.now() < starts ? html`<span id="joined">${gettext("You are in.")}</span> <button type="button" id="leave" class="quiet">${gettext("Leave")}</button>`
          : html`<span id="joined">${gettext("You are in.")}</span>`);
    };
    drawEntry(Boolean(t.me));
    this.drawEntry = drawEntry;
    /** @param {boolean} joining */
    const act = async (joining) => {
      try {
        await api("POST", `tournaments/${this.id}/${joining ? "join" : "leave"}/`, undefined, { signal });
        say(root, joining ? gettext("You are in. Good luck!") : gettext("You have left the tournament."), "ok");
        drawEntry(joining);
        /** @type {HTMLElement} */ (entry.querySelector("button"))?.focus();
        await this.standings();
      } catch (error) {
        if (!isAbort(error)) say(root, error.message);
      }
    };
    page.listen(entry, "click", (event) => {
      const target = /** @type {HTMLElement} */ (event.target);
      const joining = target.id === "join";
      if (!joining && target.id !== "leave") return;
      if (!currentUser()) {
        askForAccount(ask, page, { why: tournamentNeeds() });
        return;
      }
      act(joining);
    });
    const playNext = async () => {
      try {
        const game = await api("POST", `tournaments/${this.id}/games/`, {}, { signal });
        location.hash = `#/game/${game.id}`;
      } catch (error) {
        if (isAbort(error)) return;
        if (error.body?.game) location.hash = `#/game/${error.body.game}`;  // the game already under way
        else say(root, error.message);
      }
    };
    const playButton = /** @type {HTMLButtonElement} */ (box.querySelector("#play-next"));
    if (t.status === "preparing") {
      // the solver proves its deals after it is made: no game until they are ready, so look again until then
      playButton.disabled = true;
      const watch = async () => {
        const now = await api("GET", `tournaments/${this.id}/`, undefined, { signal }).catch(() => null);
        if (page.closed) return;
        if (!now || now.status === "preparing") return page.after(watch, 2_000);
        box.querySelector("#tournament-status").textContent = statusWords(now.status);
        playButton.disabled = now.status !== "ready";
      };
      page.after(watch, 2_000);
    }
    page.listen(playButton, "click", () => {
      if (!currentUser()) {
        askForAccount(ask, page, { why: tournamentNeeds() });
        return;
      }
      playNext();
    });
    if (t.format === "race") raceView(/** @type {HTMLElement} */ (box.querySelector("#race")), t, page).catch((error) => {
      if (!isAbort(error)) say(root, error.message);
    });
    await this.standings();
    // a standing's event carries no rank (one result moves others' ranks): any change reads the standings again,
    // which costs a 304 when another event already brought them up to date
    followWhileOpen(page, `/api/tournaments/${this.id}/events/`, {
      indicator: box.querySelector("#live-state"),
      readAlready: true,
      poll: () => this.standings(),
      onEvent: (type) => {
        if (STATUS_EVENTS.has(type)) this.status();
        if (STANDINGS_EVENTS.has(type)) this.standings();
      },
    });
  }

  /** The tournament's status and my entry, read again (it started, or ended). */
  async status() {
    const { root, page } = this;
    try {
      const t = await api("GET", `tournaments/${this.id}/`, undefined, { signal: page.signal });
      if (page.closed) return;
      root.querySelector("#tournament-status").textContent = statusWords(t.status);
      const play = /** @type {HTMLButtonElement | null} */ (root.querySelector("#play-next"));
      if (play) play.disabled = t.status === "preparing" || t.status === "failed";
      this.drawEntry?.(Boolean(t.me));
    } catch {
      // the next event or poll tries again; the page shows what it had
    }
  }

  /** The standings read again: one read at a time, and one more after it when asked meanwhile. */
  async standings() {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = this.readStandings();
    try {
      await this.reading;
    } finally {
      this.reading = null;
    }
    if (this.readAgain) {
      this.readAgain = false;
      await this.standings();
    }
  }

  async readStandings() {
    const { root, page } = this;
    const el = root.querySelector("#standings");
    if (!el || page.closed) return;
    try {
      const data = await api("GET", `tournaments/${this.id}/standings/`, undefined, { signal: page.signal });
      if (page.closed) return;
      // unchanged (a 304, most of the time): the table stays as it is, its scroll and focus with it
      const seen = JSON.stringify(data);
      if (seen === this.shown && el.querySelector("table, p")) return;
      this.shown = seen;
      root.querySelector("#standings-kind").textContent = data.final ? gettext("(final)") : "";
      draw(page, el, rowsTable(data.results, [[gettext("Rank"), (r) => r.rank ?? "—"], [gettext("Player"), playerLink],
        [gettext("Score"), (r) => r.score], [gettext("Games"), (r) => r.games], [gettext("Cleared"), (r) => r.cleared],
        [gettext("Cards left"), (r) => r.cards_left], [gettext("Moves"), (r) => r.moves]], { mine: currentUser()?.username, label: gettext("Standings") }));
      markScrollers(root, page);
    } catch (error) {
      // a read that failed while the table is on screen leaves it there (the shell says the server is away)
      if (!isAbort(error) && !page.closed && this.shown === null) el.textContent = error.message;
    }
  }
}
