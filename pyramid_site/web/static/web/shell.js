// The page's shell, around whatever page the router shows: the theme switch, the offline banner and the
// service worker that keeps the shell for offline use. Loaded by index.html before app.js; it imports no page.

import { gettext } from "./i18n.js";
import { watchNetwork } from "./network.js";
import { applyTheme, chooseTheme, chosenTheme, THEME_KEY } from "./theme.js";

const themeSwitch = /** @type {HTMLSelectElement} */ (document.getElementById("theme"));
themeSwitch.value = chosenTheme();
applyTheme(chosenTheme());
themeSwitch.addEventListener("change", () => chooseTheme(/** @type {any} */ (themeSwitch.value)));
// a choice made in another tab of this site shows here too
window.addEventListener("storage", (event) => {
  if (event.key !== THEME_KEY && event.key !== null) return;
  themeSwitch.value = chosenTheme();
  applyTheme(chosenTheme());
});

const banner = /** @type {HTMLElement} */ (document.getElementById("network"));
/** @type {import("./network.js").NetworkState} */
let networkState = "online";

function drawBanner() {
  banner.dataset.state = networkState;
  if (networkState === "online") {
    banner.replaceChildren();
    return;
  }
  const text = document.createElement("p");
  text.className = "offline-banner";
  text.textContent = networkState === "offline"
    ? gettext("You are offline. The page carries on when the network is back.")
    : gettext("The server cannot be reached. The page carries on when it answers again.");
  banner.replaceChildren(text);
}

watchNetwork((state) => {
  networkState = state;
  drawBanner();
});

// The shell's words in the page's language: app.js labels the header once the catalogue is in (the HTML comes
// in the server's guess of the language, or from the service worker's copy), and the shell's words follow.
function labelShell() {
  themeSwitch.previousElementSibling.textContent = gettext("Theme");
  const names = { system: gettext("System"), light: gettext("Light"), dark: gettext("Dark") };
  for (const option of themeSwitch.options) option.textContent = names[option.value];
  drawBanner();
}
new MutationObserver(labelShell).observe(document.getElementById("menu-button"), { childList: true });

// The service worker: the shell for offline use (pyramid_site/web/templates/web/sw.js).
// Registered once the page has loaded, so its fetching of the shell never competes with the page's own.
function registerWorker() {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // no worker (a private window, say): the page works as before, only not offline
  });
}
if ("serviceWorker" in navigator) {
  if (document.readyState === "complete") registerWorker();
  else window.addEventListener("load", registerWorker, { once: true });
}
