// Boards, player pages, clubs and tournaments: pages over the leaderboards API.

import { api, currentUser } from "./api.js";
import { clock } from "./table.js";
import { countdown, html, PRESETS } from "./pages.js";
import { calendarMonths, figuresTable } from "./stats.js";

const todayUtc = () => new Date().toISOString().slice(0, 10);

function say(root, text, kind = "error") {
  const el = root.querySelector(".page-message");
  el.textContent = text;
  el.className = `page-message ${kind}`;
  el.hidden = !text;
}

function rowsTable(rows, columns, { mine = null, className = "" } = {}) {
  if (!rows.length) return html`<p>Nobody here yet.</p>`;
  const head = columns.map(([label]) => html`<th>${label}</th>`);
  const body = rows.map((row) => html`<tr class="${mine && row.player?.username === mine ? "me" : ""}">${
    columns.map(([, value]) => html`<td>${value(row)}</td>`)}</tr>`);
  return html`<table class="board-table ${className}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const playerLink = (row) => html`<a href="#/players/${encodeURIComponent(row.player.username)}">${row.player.username}</a>`;
const resultText = (row) => (row.won ? "won" : `${row.cards_left} left`);

// --- boards --------------------------------------------------------------------------------------

export async function boardsPage(root, kind = "daily", date = todayUtc(), preset = "classic") {
  const tabs = [["daily", `#/boards/daily/${date}/${preset}`, "Daily"], ["weekly", `#/boards/weekly/${preset}`, "This week"],
    ["all-time", `#/boards/all-time/${preset}`, "All time"]];
  root.innerHTML = html`
    <section class="boards">
      <h1>Boards</h1>
      <nav class="tabs">${tabs.map(([k, href, label]) => html`<a href="${href}" class="${k === kind ? "current" : ""}">${label}</a> `)}</nav>
      <p class="small">${kind === "daily" ? html`${preset} daily deal of ${date}` : preset}</p>
      <p class="page-message" hidden></p>
      <div id="board" class="loading">Loading…</div>
    </section>`;
  const board = root.querySelector("#board");
  const me = currentUser()?.username;
  try {
    if (kind === "daily") {
      const data = await api("GET", `boards/daily/${date}/${preset}/`);
      board.innerHTML = html`
        <p>${data.total} finished · par ${data.daily.par_moves ?? "—"}${data.me ? html` · you are <b id="my-rank">#${data.me.rank}</b>` : ""}</p>
        ${rowsTable([...data.top, ...data.around.filter((row) => !data.top.some((top) => top.game === row.game))], [
          ["Rank", (r) => r.rank], ["Player", playerLink], ["Result", resultText], ["Moves", (r) => r.moves],
          ["Par", (r) => r.par_text ?? "—"], ["Time", (r) => clock(r.seconds)]], { mine: me })}`;
    } else {
      const data = await api("GET", `boards/${kind}/?preset=${encodeURIComponent(preset)}`);
      board.innerHTML = rowsTable(data.results, [["Rank", (r) => r.rank], ["Player", playerLink], ["Played", (r) => r.played],
        ["Cleared", (r) => r.cleared], ["Cards left", (r) => r.cards_left_total], ["At par", (r) => r.at_par],
        ["Streak", (r) => r.streak.current]], { mine: me });
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
        <div><dt>Streak</dt><dd id="player-streak">${data.streak.current}</dd></div>
        <div><dt>Longest</dt><dd id="player-longest">${data.streak.longest}</dd></div>
        <div><dt>Played</dt><dd>${s.played}</dd></div>
        <div><dt>Cleared</dt><dd>${s.cleared}</dd></div>
        <div><dt>At par</dt><dd>${s.at_par}</dd></div>
        <div><dt>Average left</dt><dd>${s.cards_left_average}</dd></div>
      </dl>
      <h2>Statistics</h2>
      ${figuresTable(stats.ranked, "Ranked", "ranked-figures")}
      ${stats.practice ? figuresTable(stats.practice, "Practice", "practice-figures")
        : html`<p class="small" id="practice-figures">Practice figures are private to each player.</p>`}
      <p class="small">Won: the goal reached, with the win rate. Cleared: the pyramid gone. Best: the fewest moves and
        the shortest time of a win.</p>
      <div class="calendar-head"><h2 id="calendar-title">Daily calendar</h2>
        <label>Show <select id="calendar-months"><option value="3">3 months</option><option value="6">6 months</option>
          <option value="12">12 months</option></select></label></div>
      <div id="calendar" class="loading" aria-labelledby="calendar-title" role="region">Loading…</div>
      <h2>Clubs</h2>
      <p>${data.clubs.length ? data.clubs.map((c) => html`<a href="#/clubs/${c.id}">${c.name}</a> (${c.role}) `) : "None yet."}</p>
      <h2>Daily results</h2>
      ${rowsTable(data.history, [["Day", (r) => r.date], ["Preset", (r) => r.preset], ["Result", resultText],
        ["Moves", (r) => r.moves], ["Par", (r) => r.par_text ?? "—"], ["Time", (r) => clock(r.seconds)]],
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
  const kind = (g) => g.daily ? `daily ${g.daily.date}` : g.mode === "practice" ? `practice #${g.deal.number_text}` : "tournament";
  const status = (g) => g.status === "won" ? "won" : g.status === "playing" ? "playing" : `${g.status}, ${g.cards_left} left`;
  box.innerHTML = html`<h2>Your games</h2>${games.length ? html`<table class="board-table" id="my-games-table">
    <thead><tr><th>Game</th><th>Deal</th><th>Rules</th><th>Result</th><th>Moves</th></tr></thead>
    <tbody>${games.map((g) => html`<tr data-game="${g.id}"><td><a href="#/game/${g.id}">#${g.id}</a></td><td>${kind(g)}</td>
      <td>${g.deal.preset}</td><td>${status(g)}</td><td>${g.moves}</td></tr>`)}</tbody></table>` : html`<p>No games yet.</p>`}`;
}

// --- clubs ---------------------------------------------------------------------------------------

export async function clubsPage(root) {
  root.innerHTML = html`
    <section class="clubs">
      <h1>Clubs</h1>
      <p class="page-message" hidden></p>
      <div id="club-list" class="loading">Loading…</div>
      <div class="accounts">
        <form id="club-create" class="form">
          <h2>Create a club</h2>
          <label>Name <input name="name" required maxlength="60"></label>
          <label>Description <input name="description" maxlength="2000"></label>
          <label class="check"><input type="checkbox" name="is_private"> Private: members only</label>
          <button type="submit">Create club</button>
        </form>
        <form id="club-join" class="form">
          <h2>Join by code</h2>
          <label>Invite code <input name="invite_code" required maxlength="64"></label>
          <button type="submit">Join club</button>
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
    root.querySelector("#club-create").innerHTML = html`<h2>Create a club</h2>
      <p><a href="#/signup">Sign up</a> to create a club: your games stay yours.</p>`;
  }
  submit("#club-join", (d) => api("POST", "clubs/join/", { invite_code: d.invite_code.trim() }));
  try {
    const clubs = (await api("GET", "clubs/?limit=200")).results;
    const list = root.querySelector("#club-list");
    list.classList.remove("loading");
    list.innerHTML = rowsTable(clubs, [["Club", (c) => html`<a href="#/clubs/${c.id}">${c.name}</a>`],
      ["Members", (c) => c.members ?? "—"], ["You", (c) => c.my_role ?? "—"], ["", (c) => (c.is_private ? "private" : "public")]]);
  } catch (error) {
    say(root, error.message);
  }
}

function localInput(date) {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  return shifted.toISOString().slice(0, 16);
}

export async function clubPage(root, clubId) {
  root.innerHTML = html`<section class="club"><p class="page-message" hidden></p><div id="club" class="loading">Loading…</div></section>`;
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
    <p>${club.members ?? "?"} members · ${club.is_private ? "private" : "public"} · you: ${club.my_role ?? "not a member"}</p>
    ${club.invite_code ? html`<p>Invite code: <code id="invite-code">${club.invite_code}</code></p>` : ""}
    ${club.my_role ? "" : html`<p>Ask a member for the invite code to join.</p>`}
    <h2>Tournaments</h2>
    <div id="tournaments">Loading…</div>
    ${manager ? html`
    <form id="tournament-create" class="form">
      <h2>New tournament</h2>
      <label>Name <input name="name" required maxlength="80"></label>
      <label>Play on <select name="source"><option value="daily">today's daily deal</option><option value="secret">deals the server picks</option></select></label>
      <label>Rules <select name="rules">${presets}</select></label>
      <label>Format <select name="format"><option value="arena">arena: deal after deal</option><option value="match">match: a fixed set of deals</option></select></label>
      <label>Number of deals <input name="deal_count" type="number" min="1" max="100" value="1"></label>
      <label>Starts <input name="starts_at" type="datetime-local" value="${localInput(now)}" required></label>
      <label>Ends <input name="ends_at" type="datetime-local" value="${localInput(endOfDay)}" required></label>
      <button type="submit">Create tournament</button>
    </form>` : ""}
    ${club.my_role ? html`<h2>Members</h2><div id="members">Loading…</div>
      <p><button type="button" id="leave" class="quiet">Leave the club</button></p>` : ""}`;
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
    ["Tournament", (x) => html`<a href="#/tournaments/${x.id}">${x.name}</a>`], ["Format", (x) => x.format],
    ["Rules", (x) => x.preset], ["Ends", (x) => new Date(x.ends_at).toLocaleString()]]);
  const m = root.querySelector("#members");
  if (m) {
    m.innerHTML = members instanceof Error ? html`${members.message}` : rowsTable(members, [
      ["Member", (x) => html`<a href="#/players/${encodeURIComponent(x.user.username)}">${x.user.username}</a>`],
      ["Role", (x) => x.role]]);
  }
}

// --- tournaments ---------------------------------------------------------------------------------

export async function tournamentsPage(root) {
  root.innerHTML = html`<section><h1>Tournaments</h1><p class="page-message" hidden></p><div id="list" class="loading">Loading…</div></section>`;
  try {
    const clubs = (await api("GET", "clubs/?mine=1&limit=200")).results;
    const lists = await Promise.all(clubs.map((c) => api("GET", `clubs/${c.id}/tournaments/`)
      .then((page) => page.results.map((t) => ({ ...t, clubName: c.name })))));
    const all = lists.flat();
    const list = root.querySelector("#list");
    list.classList.remove("loading");
    list.innerHTML = clubs.length ? rowsTable(all, [["Tournament", (x) => html`<a href="#/tournaments/${x.id}">${x.name}</a>`],
      ["Club", (x) => html`<a href="#/clubs/${x.club}">${x.clubName}</a>`], ["Format", (x) => x.format],
      ["Ends", (x) => new Date(x.ends_at).toLocaleString()]])
      : html`<p>Tournaments are held by clubs: <a href="#/clubs">create or join a club</a>.</p>`;
  } catch (error) {
    say(root, error.message);
  }
}

export class TournamentPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.timer = null;
  }

  close() {
    clearInterval(this.timer);
  }

  async open() {
    const root = this.root;
    root.innerHTML = html`<section class="tournament"><p class="page-message" hidden></p><div id="tournament" class="loading">Loading…</div></section>`;
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
      <p><a href="#/clubs/${t.club}">the club</a> · ${t.format}, ${t.deal_count} deal${t.deal_count === 1 ? "" : "s"} ·
        <a href="#/rules/${t.preset}">${t.preset}</a> · ${t.source === "daily" ? "today's daily deal" : "deals the server picks"}
        · ${t.status}</p>
      <p>${new Date(t.starts_at).toLocaleString()} to ${new Date(t.ends_at).toLocaleString()}
        <span id="tournament-clock" class="small"></span></p>
      <p class="actions"><span id="entry"></span>
        <button type="button" id="play-next">Play the next deal</button></p>
      <h2>Standings <span class="small" id="standings-kind"></span></h2>
      <div id="standings">Loading…</div>`;
    const starts = Date.parse(t.starts_at), ends = Date.parse(t.ends_at);
    if (Date.now() < ends) {
      countdown(box.querySelector("#tournament-clock"), () => (Date.now() < starts ? starts : ends),
        Date.now() < starts ? "· starts in" : "· ends in");
    }
    // Join, then Leave until the tournament starts; from then "You are in."
    const entry = box.querySelector("#entry");
    const drawEntry = (joined) => {
      entry.innerHTML = !joined ? html`<button type="button" id="join">Join</button>`
        : Date.now() < starts ? html`<span id="joined">You are in.</span> <button type="button" id="leave" class="quiet">Leave</button>`
          : html`<span id="joined">You are in.</span>`;
    };
    drawEntry(Boolean(t.me));
    entry.addEventListener("click", async (event) => {
      const joining = event.target.id === "join";
      if (!joining && event.target.id !== "leave") return;
      try {
        await api("POST", `tournaments/${this.id}/${joining ? "join" : "leave"}/`);
        say(root, joining ? "You are in. Good luck!" : "You have left the tournament.", "ok");
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
      this.root.querySelector("#standings-kind").textContent = data.final ? "(final)" : "(live)";
      el.innerHTML = rowsTable(data.results, [["Rank", (r) => r.rank ?? "—"], ["Player", playerLink],
        ["Score", (r) => r.score], ["Games", (r) => r.games], ["Cleared", (r) => r.cleared],
        ["Cards left", (r) => r.cards_left], ["Moves", (r) => r.moves]], { mine: currentUser()?.username });
    } catch (error) {
      el.textContent = error.message;
    }
  }
}
