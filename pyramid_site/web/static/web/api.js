// The public REST API, as any client sees it: JSON in and out, a token for who you are, the page's language as
// Accept-Language (the server's messages come in it).

import { chosenLanguage, gettext, interpolate, language } from "./i18n.js";
import { reportNetwork } from "./network.js";
import { isAbort } from "./page.js";

const TOKEN_KEY = "pyramid.token";
const USER_KEY = "pyramid.user";
const DEVICE_KEY = "pyramid.device";

// A random id this browser keeps (not the account's: it stays through log-out and sign-up), sent with every
// request as X-Device-ID. Fair play links ranked games of one deal played by different accounts from one
// browser (docs/fair-play.md, "Fair play"); the server ignores a malformed id.
function deviceId() {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {any} body  the answer's JSON, `{code, message, ...}`
   * @param {number | null} [retryAfter]  seconds, from a 429's or 503's `Retry-After` header
   */
  constructor(status, body, retryAfter = null) {
    super(body.message || interpolate(gettext("the server answered %(status)s"), { status }));
    this.status = status;
    this.code = body.code || "error";
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

export function currentUser() {
  const text = localStorage.getItem(USER_KEY);
  return text ? JSON.parse(text) : null;
}

function remember(user) {
  localStorage.setItem(TOKEN_KEY, user.token);
  const { token, ...rest } = user;
  localStorage.setItem(USER_KEY, JSON.stringify(rest));
  // a language chosen in this browser before there was an account becomes the account's, if it has none
  const chosen = chosenLanguage();
  if (chosen && !user.language) {
    api("PATCH", "accounts/me/", { language: chosen }).then(rememberUser).catch(() => null);
  }
}

/** The account as the server has it now (its language chosen elsewhere, say). */
export function rememberUser(user) {
  const { token, ...rest } = user;
  localStorage.setItem(USER_KEY, JSON.stringify(rest));
}

export function forget() {
  kept.clear();
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}

// Deal numbers run to 2**64, past what a JavaScript number holds exactly: keep those as their digits.
function exactNumbers(key, value, context) {
  return typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value) && context?.source
    ? context.source : value;
}

/** The headers every request of the page sends: the language, this browser's device id, the token if any. */
export function requestHeaders() {
  /** @type {Record<string, string>} */
  const headers = { "Accept-Language": language, "X-Device-ID": deviceId() };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Token ${token}`;
  return headers;
}

// The last answer to each GET that carried an ETag, by path: asked again with If-None-Match, the server answers
// 304 with no body while nothing changed (the polled reads: pyramid_site/api/caching.py) and the kept body is
// read instead. The ETag is made from the body itself, so a kept body is never another account's.
const ANSWERS_KEPT = 64;
/** @type {Map<string, {etag: string, text: string}>} */
const kept = new Map();

/** @param {string} path @param {string} etag @param {string} text */
function keep(path, etag, text) {
  kept.delete(path);
  kept.set(path, { etag, text });
  if (kept.size > ANSWERS_KEPT) kept.delete(kept.keys().next().value);
}

/**
 * One request to the API. `signal` (a page's) aborts it when the page closes: the promise then rejects with an
 * AbortError, so nothing after the `await` runs for a page no longer on screen.
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {{signal?: AbortSignal}} [options]
 */
export async function api(method, path, body, { signal } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", ...requestHeaders() };
  const token = headers.Authorization;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const previous = method === "GET" ? kept.get(path) : undefined;
  if (previous) headers["If-None-Match"] = previous.etag;
  let response, text;
  try {
    response = await fetch(`/api/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (!isAbort(error)) reportNetwork(false);  // the shell's banner: the server could not be reached
    throw error;
  }
  reportNetwork(true);
  if (response.status === 304 && previous) {
    text = previous.text;
  } else if (method === "GET") {
    const etag = response.headers.get("ETag");
    if (response.ok && etag) keep(path, etag, text);
    else kept.delete(path);
  }
  let data = {};
  try {
    data = text ? JSON.parse(text, exactNumbers) : {};
  } catch {
    data = { message: interpolate(gettext("the server answered %(status)s"), { status: response.status }) };
  }
  if (!response.ok && !(response.status === 304 && previous)) {
    if (response.status === 401 && token) forget();
    const retryAfter = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
    throw new ApiError(response.status, data, Number.isFinite(retryAfter) ? retryAfter : null);
  }
  return data;
}

// Signed in as a guest, sign-up names the guest account (its token goes with the request): its games stay.
export async function signup(username, password, email) {
  const user = await api("POST", "accounts/signup/", { username, password, email });
  remember(user);
  return user;
}

/** Whoever plays: the account logged in, or a guest account the server makes now (a visitor's first game). */
export async function ensurePlayer() {
  const user = currentUser();
  if (user) return user;
  const guest = await api("POST", "accounts/guest/");
  remember(guest);
  window.dispatchEvent(new Event("account"));
  return guest;
}

export async function login(username, password) {
  const user = await api("POST", "accounts/login/", { username, password });
  remember(user);
  return user;
}

export async function startGame(body) {
  await ensurePlayer();
  const game = await api("POST", "games/", body);
  location.hash = `#/game/${game.id}`;
}
