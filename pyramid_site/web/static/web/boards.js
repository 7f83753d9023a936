// Boards, player pages, clubs and tournaments: pages over the leaderboards API.

import { api, currentUser } from "./api.js";
import { html } from "./markup.js";
import { PRESETS } from "./pages.js";
import { clock, countdown } from "./time.js";
import { calendarMonths, figuresTable } from "./stats.js";
import { formatDate, formatDateTime, gettext, interpolate, ngettext } from "./i18n.js";

const todayUtc = () => new Date().toISOString().slice(0, 10);

function say(root, text, kind = "error") {
  const el = root.querySelector(".page-message");
  el.textContent = text;
  el.className = `page-message ${kind}`;
  el.hidden = !text;
}

function rowsTable(rows, columns, { mine = null, className = "" } = {}) {
  if (!rows.length) return html`<p>${gettext("Nobody here yet.")}</p>`;
  const head = columns.map(([label]) => html`<th>${label}</th>`);
  const body = rows.map((row) => html`<tr class="${mine && row.player?.username === mine ? "me" : ""}">${
    columns.map(([, value]) => html`<td>${value(row)}</td>`)}</tr>`);
  return html`<table class="board-table ${className}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const playerLink = (row) => html`<a href="#/players/${encodeURIComponent(row.player.username)}">${row.player.username}</a>`;
const resultText = (row) => (row.won ? gettext("won") : interpolate(gettext("%(count)s left"), { count: row.cards_left }));
// a club role, a tournament's format, source or status: the API's words, said in the page's language
const roleWords = (role) => ({ owner: gettext("owner"), admin: gettext("admin"), member: gettext("member") }[role] ?? role);
const formatWords = (format) => ({ arena: gettext("arena"), match: gettext("match") }[format] ?? format);
const statusWords = (status) => ({ preparing: gettext("preparing"), ready: gettext("ready"), failed: gettext("failed") }[status] ?? status);

// --- boards --------------------------------------------------------------------------------------

export async function boardsPage(root, page, kind = "daily", date = todayUtc(), preset = "classic") {
  const tabs = [["daily", `#/boards/daily/${date}/${preset}`, gettext("Daily")], ["weekly", `#/boards/weekly/${preset}`, gettext("This week")],
    ["all-time", `#/boards/all-time/${preset}`, gettext("All time")]];
  root.innerHTML = html`
    <section class="boards">
      <h1>${gettext("Boards")}</h1>
      <nav class="tabs">${tabs.map(([k, href, label]) => html`<a href="${href}" class="${k === kind ? "current" : ""}">${label}</a> `)}</nav>
      <p class="small">${kind === "daily" ? interpolate(gettext("%(preset)s daily deal of %(date)s"), { preset, date: formatDate(date) }) : preset}</p>
      <p class="page-message" hidden></p>
      <div id="board" class="loading">${gettext("Loading…")}</div>
    </section>`;
  const board = root.querySelector("#board");
  const me = currentUser()?.username;
  try {
    if (kind === "daily") {
      const data = await api("GET", `boards/daily/${date}/${preset}/`);
      board.innerHTML = html`
        <p>${interpolate(gettext("%(count)s finished · par %(par)s"), { count: data.total, par: data.daily.par_moves ?? "—" })}${data.me ? html` · ${gettext("you are")} <b id="my-rank">#${data.me.rank}</b>` : ""}</p>
        ${rowsTable([...data.top, ...data.around.filter((row) => !data.top.some((top) => top.game === row.game))], [
          [gettext("Rank"), (r) => r.rank], [gettext("Player"), playerLink], [gettext("Result"), resultText], [gettext("Moves"), (r) => r.moves],
          [gettext("Par"), (r) => r.par_text ?? "—"], [gettext("Time"), (r) => clock(r.seconds)]], { mine: me })}`;
    } else {
      const data = await api("GET", `boards/${kind}/?preset=${encodeURIComponent(preset)}`);
      board.innerHTML = rowsTable(data.results, [[gettext("Rank"), (r) => r.rank], [gettext("Player"), playerLink], [gettext("Played"), (r) => r.played],
        [gettext("Cleared"), (r) => r.cleared], [gettext("Cards left"), (r) => r.cards_left_total], [gettext("At par"), (r) => r.at_par],
        [gettext("Streak"), (r) => r.streak.current]], { mine: me });
    }
    board.classList.remove("loading");
  } catch (error) {
    board.textContent = "";
    say(root, error.message);
  }
}

/** The player's row on a daily board, or null. */
export async function dailyRank(date, preset) {
  const data = await api("GET", `boards/daily/${date}/${preset}/`);
  return data.me?.rank ?? null;
}

// --- players -------------------------------------------------------------------------------------

export async function playerPage(root, username) {
  root.innerHTML = html`<section class="player"><h1>${username}</h1><p class="page-message" hidden></p><div id="player"></div></section>`;
  const name = encodeURIComponent(username);
  try {
    const [data, stats] = await Promise.all([api("GET", `players/${name}/`), api("GET", `players/${name}/stats/`)]);
    const s = data.stats;
    root.querySelector("#player").innerHTML = html`
      <dl class="stats">
        <div><dt>${gettext("Streak")}</dt><dd id="player-streak">${data.streak.current}</dd></div>
        <div><dt>${gettext("Longest")}</dt><dd id="player-longest">${data.streak.longest}</dd></div>
        <div><dt>${gettext("Played")}</dt><dd>${s.played}</dd></div>
        <div><dt>${gettext("Cleared")}</dt><dd>${s.cleared}</dd></div>
        <div><dt>${gettext("At par")}</dt><dd>${s.at_par}</dd></div>
        <div><dt>${gettext("Average left")}</dt><dd>${s.cards_left_average}</dd></div>
      </dl>
      <h2>${gettext("Statistics")}</h2>
      ${figuresTable(stats.ranked, gettext("Ranked"), "ranked-figures")}
      ${stats.practice ? figuresTable(stats.practice, gettext("Practice"), "practice-figures")
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
        { className: "compact" })}
      <div id="my-games"></div>`;
    if (currentUser()?.id === data.player.id) await myGames(root.querySelector("#my-games"));
  } catch (error) {
    return say(root, error.message);
  }
  const box = root.querySelector("#calendar");
  const show = async (months) => {
    try {
      const calendar = await api("GET", `players/${name}/calendar/?months=${months}`);
      box.innerHTML = calendarMonths(calendar);
      box.classList.remove("loading");
    } catch (error) {
      box.textContent = "";
      say(root, error.message);
    }
  };
  root.querySelector("#calendar-months").addEventListener("change", (event) => show(event.target.value));
  await show(3);
}

/** My own games, practice and ranked, the latest first: shown on my page only. */
async function myGames(box) {
  const games = (await api("GET", "games/?limit=20")).results;
  const kind = (g) => g.daily ? interpolate(gettext("daily %(date)s"), { date: formatDate(g.daily.date) })
    : g.mode === "practice" ? interpolate(gettext("practice #%(number)s"), { number: g.deal.number_text }) : gettext("tournament");
  const ended = { stuck: gettext("stuck"), resigned: gettext("resigned"), closed: gettext("closed") };
  const status = (g) => g.status === "won" ? gettext("won") : g.status === "playing" ? gettext("playing")
    : interpolate(gettext("%(status)s, %(count)s left"), { status: ended[g.status] ?? g.status, count: g.cards_left });
  box.innerHTML = html`<h2>${gettext("Your games")}</h2>${games.length ? html`<table class="board-table" id="my-games-table">
    <thead><tr><th>${gettext("Game")}</th><th>${gettext("Deal")}</th><th>${gettext("Rules")}</th><th>${gettext("Result")}</th><th>${gettext("Moves")}</th></tr></thead>
    <tbody>${games.map((g) => html`<tr data-game="${g.id}"><td><a href="#/game/${g.id}">#${g.id}</a></td><td>${kind(g)}</td>
      <td>${g.deal.preset}</td><td>${status(g)}</td><td>${g.moves}</td></tr>`)}</tbody></table>` : html`<p>${gettext("No games yet.")}</p>`}`;
}

// --- clubs ---------------------------------------------------------------------------------------

export async function clubsPage(root) {
  root.innerHTML = html`
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
        </form>
        <form id="club-join" class="form">
          <h2>${gettext("Join by code")}</h2>
          <label>${gettext("Invite code")} <input name="invite_code" required maxlength="64"></label>
          <button type="submit">${gettext("Join club")}</button>
        </form>
      </div>
    </section>`;
  const submit = (id, act) => root.querySelector(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.target));
    try {
      const club = await act(data);
      location.hash = `#/clubs/${club.id}`;
    } catch (error) {
      say(root, error.message);
    }
  });
  submit("#club-create", (d) => api("POST", "clubs/", { name: d.name, description: d.description, is_private: !!d.is_private }));
  if (currentUser()?.guest) {  // guests join clubs; founding one waits for sign-up
    const [before, after] = gettext("%(sign_up)s to create a club: your games stay yours.").split("%(sign_up)s");
    root.querySelector("#club-create").innerHTML = html`<h2>${gettext("Create a club")}</h2>
      <p>${before}<a href="#/signup">${gettext("Sign up")}</a>${after}</p>`;
  }
  submit("#club-join", (d) => api("POST", "clubs/join/", { invite_code: d.invite_code.trim() }));
  try {
    const clubs = (await api("GET", "clubs/?limit=200")).results;
    const list = root.querySelector("#club-list");
    list.classList.remove("loading");
    list.innerHTML = rowsTable(clubs, [[gettext("Club"), (c) => html`<a href="#/clubs/${c.id}">${c.name}</a>`],
      [gettext("Members"), (c) => c.members ?? "—"], [gettext("You"), (c) => (c.my_role ? roleWords(c.my_role) : "—")],
      ["", (c) => (c.is_private ? gettext("private") : gettext("public"))]]);
  } catch (error) {
    say(root, error.message);
  }
}

function localInput(date) {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  return shifted.toISOString().slice(0, 16);
}

export async function clubPage(root, clubId) {
  root.innerHTML = html`<section class="club"><p class="page-message" hidden></p><div id="club" class="loading">${gettext("Loading…")}</div></section>`;
  let club;
  try {
    club = await api("GET", `clubs/${clubId}/`);
  } catch (error) {
    root.querySelector("#club").textContent = "";
    return say(root, error.message);
  }
  const manager = club.my_role === "owner" || club.my_role === "admin";
  const now = new Date();
  const endOfDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 23, 59));
  const presets = Object.keys(PRESETS).map((p) => html`<option value="${p}">${p}</option>`);
  const box = root.querySelector("#club");
  box.classList.remove("loading");
  box.innerHTML = html`
    <h1 id="club-name">${club.name}</h1>
    <p>${club.description}</p>
    <p>${interpolate(ngettext("%(count)s member", "%(count)s members", club.members ?? 0), { count: club.members ?? "?" })} · ${club.is_private ? gettext("private") : gettext("public")} · ${interpolate(gettext("you: %(role)s"), { role: club.my_role ? roleWords(club.my_role) : gettext("not a member") })}</p>
    ${club.invite_code ? html`<p>${gettext("Invite code:")} <code id="invite-code">${club.invite_code}</code></p>` : ""}
    ${club.my_role ? "" : html`<p>${gettext("Ask a member for the invite code to join.")}</p>`}
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
      <p><button type="button" id="leave" class="quiet">${gettext("Leave the club")}</button></p>` : ""}`;
  root.querySelector("#tournament-create")?.addEventListener("submit", async (event) => {
    event.preventDefault();
    const d = Object.fromEntries(new FormData(event.target));
    try {
      const tournament = await api("POST", `clubs/${clubId}/tournaments/`, {
        name: d.name, source: d.source, rules: d.rules, format: d.format, deal_count: Number(d.deal_count),
        starts_at: new Date(d.starts_at).toISOString(), ends_at: new Date(d.ends_at).toISOString(),
      });
      location.hash = `#/tournaments/${tournament.id}`;
    } catch (error) {
      say(root, error.message);
    }
  });
  root.querySelector("#leave")?.addEventListener("click", async () => {
    try {
      await api("POST", `clubs/${clubId}/leave/`);
      location.hash = "#/clubs";
    } catch (error) {
      say(root, error.message);
    }
  });
  const [tournaments, members] = await Promise.all([
    api("GET", `clubs/${clubId}/tournaments/?limit=200`).then((page) => page.results).catch((error) => error),
    club.my_role ? api("GET", `clubs/${clubId}/members/?limit=200`).then((page) => page.results).catch((error) => error) : null,
  ]);
  const t = root.querySelector("#tournaments");
  t.innerHTML = tournaments instanceof Error ? html`${tournaments.message}` : rowsTable(tournaments, [
    [gettext("Tournament"), (x) => html`<a href="#/tournaments/${x.id}">${x.name}</a>`], [gettext("Format"), (x) => formatWords(x.format)],
    [gettext("Rules"), (x) => x.preset], [gettext("Ends"), (x) => formatDateTime(x.ends_at)]]);
  const m = root.querySelector("#members");
  if (m) {
    m.innerHTML = members instanceof Error ? html`${members.message}` : rowsTable(members, [
      [gettext("Member"), (x) => html`<a href="#/players/${encodeURIComponent(x.user.username)}">${x.user.username}</a>`],
      [gettext("Role"), (x) => roleWords(x.role)]]);
  }
}

// --- tournaments ---------------------------------------------------------------------------------

export async function tournamentsPage(root) {
  root.innerHTML = html`<section><h1>${gettext("Tournaments")}</h1><p class="page-message" hidden></p><div id="list" class="loading">${gettext("Loading…")}</div></section>`;
  try {
    const clubs = (await api("GET", "clubs/?mine=1&limit=200")).results;
    const lists = await Promise.all(clubs.map((c) => api("GET", `clubs/${c.id}/tournaments/`)
      .then((page) => page.results.map((t) => ({ ...t, clubName: c.name })))));
    const all = lists.flat();
    const list = root.querySelector("#list");
    list.classList.remove("loading");
    const [before, after] = gettext("Tournaments are held by clubs: %(link)s.").split("%(link)s");
    list.innerHTML = clubs.length ? rowsTable(all, [[gettext("Tournament"), (x) => html`<a href="#/tournaments/${x.id}">${x.name}</a>`],
      [gettext("Club"), (x) => html`<a href="#/clubs/${x.club}">${x.clubName}</a>`], [gettext("Format"), (x) => formatWords(x.format)],
      [gettext("Ends"), (x) => formatDateTime(x.ends_at)]])
      : html`<p>${before}<a href="#/clubs">${gettext("create or join a club")}</a>${after}</p>`;
  } catch (error) {
    say(root, error.message);
  }
}

export class TournamentPage {
  constructor(root, id, page) {
    this.root = root;
    this.page = page;
    page.signal.addEventListener("abort", () => this.close(), { once: true });
    this.id = id;
    this.timer = null;
  }

  close() {
    clearInterval(this.timer);
  }

  async open() {
    const root = this.root;
    root.innerHTML = html`<section class="tournament"><p class="page-message" hidden></p><div id="tournament" class="loading">${gettext("Loading…")}</div></section>`;
    let t;
    try {
      t = await api("GET", `tournaments/${this.id}/`);
    } catch (error) {
      root.querySelector("#tournament").textContent = "";
      return say(root, error.message);
    }
    const box = root.querySelector("#tournament");
    box.classList.remove("loading");
    box.innerHTML = html`
      <h1 id="tournament-name">${t.name}</h1>
      <p><a href="#/clubs/${t.club}">${gettext("the club")}</a> · ${formatWords(t.format)}, ${interpolate(ngettext("%(count)s deal", "%(count)s deals", t.deal_count), { count: t.deal_count })} ·
        <a href="#/rules/${t.preset}">${t.preset}</a> · ${t.source === "daily" ? gettext("today's daily deal") : gettext("deals the server picks")}
        · ${statusWords(t.status)}</p>
      <p>${interpolate(gettext("%(start)s to %(end)s"), { start: formatDateTime(t.starts_at), end: formatDateTime(t.ends_at) })}
        <span id="tournament-clock" class="small"></span></p>
      <p class="actions"><span id="entry"></span>
        <button type="button" id="play-next">${gettext("Play the next deal")}</button></p>
      <h2>${gettext("Standings")} <span class="small" id="standings-kind"></span></h2>
      <div id="standings">${gettext("Loading…")}</div>`;
    const starts = Date.parse(t.starts_at), ends = Date.parse(t.ends_at);
    if (Date.now() < ends) {
      countdown(box.querySelector("#tournament-clock"), () => (Date.now() < starts ? starts : ends),
        Date.now() < starts ? gettext("· starts in") : gettext("· ends in"));
    }
    // Join, then Leave until the tournament starts; from then "You are in."
    const entry = box.querySelector("#entry");
    const drawEntry = (joined) => {
      entry.innerHTML = !joined ? html`<button type="button" id="join">${gettext("Join")}</button>`
        : Date.now() < starts ? html`<span id="joined">${gettext("You are in.")}</span> <button type="button" id="leave" class="quiet">${gettext("Leave")}</button>`
          : html`<span id="joined">${gettext("You are in.")}</span>`;
    };
    drawEntry(Boolean(t.me));
    entry.addEventListener("click", async (event) => {
      const joining = event.target.id === "join";
      if (!joining && event.target.id !== "leave") return;
      try {
        await api("POST", `tournaments/${this.id}/${joining ? "join" : "leave"}/`);
        say(root, joining ? gettext("You are in. Good luck!") : gettext("You have left the tournament."), "ok");
        drawEntry(joining);
        entry.querySelector("button")?.focus();
        await this.standings();
      } catch (error) {
        say(root, error.message);
      }
    });
    box.querySelector("#play-next").addEventListener("click", async () => {
      try {
        const game = await api("POST", `tournaments/${this.id}/games/`, {});
        location.hash = `#/game/${game.id}`;
      } catch (error) {
        if (error.body.game) location.hash = `#/game/${error.body.game}`;  // the game already under way
        else say(root, error.message);
      }
    });
    await this.standings();
    this.timer = setInterval(() => this.standings(), 10_000);
  }

  async standings() {
    const el = this.root.querySelector("#standings");
    if (!el) return;
    try {
      const data = await api("GET", `tournaments/${this.id}/standings/`);
      this.root.querySelector("#standings-kind").textContent = data.final ? gettext("(final)") : gettext("(live)");
      el.innerHTML = rowsTable(data.results, [[gettext("Rank"), (r) => r.rank ?? "—"], [gettext("Player"), playerLink],
        [gettext("Score"), (r) => r.score], [gettext("Games"), (r) => r.games], [gettext("Cleared"), (r) => r.cleared],
        [gettext("Cards left"), (r) => r.cards_left], [gettext("Moves"), (r) => r.moves]], { mine: currentUser()?.username });
    } catch (error) {
      el.textContent = error.message;
    }
  }
}
