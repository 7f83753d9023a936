// The page's colours: the light or the dark theme, as the system says (prefers-color-scheme), or as chosen in this
// browser with the switch in the header (kept in localStorage). index.html's first script applies a choice before
// anything is drawn; style.css holds both themes' colours (`light-dark()` under `color-scheme`).

/** @typedef {"system" | "light" | "dark"} ThemeChoice */

export const THEME_KEY = "pyramid.theme";
const THEMES = ["light", "dark"];

/**
 * The choice kept in this browser: "light", "dark", or "system" (none kept).
 * @returns {ThemeChoice}
 */
export function chosenTheme() {
  let kept = null;
  try {
    kept = localStorage.getItem(THEME_KEY);
  } catch {
    // storage refused (a private window's settings): the system's theme
  }
  return kept === "light" || kept === "dark" ? kept : "system";
}

/**
 * The theme the page shows now: the choice, or the system's.
 * @returns {"light" | "dark"}
 */
export function shownTheme() {
  const choice = chosenTheme();
  if (choice !== "system") return choice;
  return matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

/**
 * Shows the page in `choice`: `data-theme` on the root element (style.css follows it), and the browser's own
 * colours (the address bar's `theme-color`) to match.
 * @param {ThemeChoice} choice
 */
export function applyTheme(choice) {
  const root = document.documentElement;
  if (THEMES.includes(choice)) root.dataset.theme = choice;
  else delete root.dataset.theme;
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
    const element = /** @type {HTMLMetaElement} */ (meta);
    // each meta keeps its own scheme's colour; a chosen theme puts its colour in both
    element.dataset.colour ??= element.content;
    const scheme = element.media.includes("light") ? "light" : "dark";
    const wanted = choice === "system" ? scheme : choice;
    const source = document.querySelector(`meta[name="theme-color"][media*="${wanted}"]`);
    element.content = /** @type {HTMLMetaElement} */ (source)?.dataset.colour ?? source?.getAttribute("content")
      ?? element.content;
  }
}

/**
 * The player's choice: remembered by this browser and shown at once.
 * @param {ThemeChoice} choice
 */
export function chooseTheme(choice) {
  try {
    if (THEMES.includes(choice)) localStorage.setItem(THEME_KEY, choice);
    else localStorage.removeItem(THEME_KEY);
  } catch {
    // not kept, but shown
  }
  applyTheme(choice);
}
