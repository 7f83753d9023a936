// The page's words in the player's language: English, Swedish or German (docs/api.md, "Languages").
//
// The language is this browser's explicit choice (the switch in the header, kept in localStorage), else the
// account's (`language` of /api/accounts/me/), else the first of the browser's languages the page speaks, else
// English. The strings come from the djangojs catalogues (pyramid_site/web/locale), as JSON; every API call
// sends the language as Accept-Language, so the server's messages match the page.

const KEY = "pyramid.language";
export const LANGUAGES = { en: "English", sv: "Svenska", de: "Deutsch" };

let catalog = {};
let pluralIndex = (n) => (n === 1 ? 0 : 1);
export let language = "en";

function spoken(code) {
  const base = String(code || "").toLowerCase().split("-")[0];
  return base in LANGUAGES ? base : null;
}

export function chosenLanguage() {
  return spoken(localStorage.getItem(KEY));
}

/** The language of this page: the browser's choice, the account's, the browser's languages, English. */
export function resolveLanguage(user) {
  return chosenLanguage() || spoken(user?.language) || (navigator.languages || [navigator.language]).map(spoken)
    .find(Boolean) || "en";
}

export async function loadLanguage(code) {
  language = code in LANGUAGES ? code : "en";
  document.documentElement.lang = language;
  if (language === "en") {
    catalog = {};
    return;
  }
  const response = await fetch(`/i18n/${language}.json`, { credentials: "omit" });
  const data = await response.json();
  catalog = data.catalog || {};
  // the three languages' plural rule is the same ("n != 1", the catalogues' Plural-Forms)
  pluralIndex = (n) => (n === 1 ? 0 : 1);
}

/** The player's explicit choice: remembered by this browser (and by the server's page cookie). */
export function rememberLanguage(code) {
  localStorage.setItem(KEY, code);
  document.cookie = `pyramid_language=${code}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
}

export function gettext(msgid) {
  const found = catalog[msgid];
  if (found === undefined) return msgid;
  return Array.isArray(found) ? found[0] : found;
}

export function ngettext(singular, plural, count) {
  const found = catalog[singular];
  if (found === undefined) return count === 1 ? singular : plural;
  return Array.isArray(found) ? found[pluralIndex(count)] ?? found[0] : found;
}

export function pgettext(context, msgid) {
  const found = catalog[`${context}\x04${msgid}`];
  if (found === undefined) return msgid;
  return Array.isArray(found) ? found[0] : found;
}

/** "%(name)s" filled from `values`, as Python's %-formatting (and Django's interpolate) does. */
export function interpolate(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}

/**
 * @param {number} value
 * @param {Intl.NumberFormatOptions} [options]
 */
export function formatNumber(value, options) {
  return new Intl.NumberFormat(language, options).format(value);
}

/**
 * A day ("2026-12-01", read as UTC) or a moment, as a date in the page's language.
 * @param {string | number | Date} value
 * @param {Intl.DateTimeFormatOptions} [options]
 */
export function formatDate(value, options = { dateStyle: "medium" }) {
  const date = typeof value === "string" && /^\d{4}-\d\d-\d\d$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  return new Intl.DateTimeFormat(language, { timeZone: "UTC", ...options }).format(date);
}

/** @param {string | number | Date} value */
export function formatDateTime(value) {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(value));
}
