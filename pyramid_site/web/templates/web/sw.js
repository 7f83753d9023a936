// The page's service worker (served at /sw.js by pyramid_site/web/views.py, which fills in CONFIG).
//
// It keeps one release's shell (the HTML page, its modules, style sheet, icons, catalogues and manifest) in a
// cache named by that release's digest. Collected, every static file is named by its content (app.3f9c0e1a2b4d.js),
// so a cache holds one release whole and a page never runs a mix of two releases' modules. A new release is a new
// worker (this file changes with the digest): it fetches the whole new shell, takes over, and deletes the old
// caches. The API is never cached: its requests go to the network alone. Navigations go to the network first;
// offline they get the cached shell, which shows the page and its offline banner instead of the browser's error.
const CONFIG = {{ config|safe }};
const CACHE = `pyramid-shell-${CONFIG.version}`;
const SHELL = new Set(CONFIG.shell);
const NAMED = new Set(CONFIG.named);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(CONFIG.shell.map(async (url) => {
      const response = await fetch(url, { cache: "reload", credentials: "same-origin" });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      // the page and its catalogues come from the release this worker belongs to, or the install fails (and
      // the browser tries again at the next visit): never a newer page over this release's modules
      const version = response.headers.get("X-Shell-Version");
      if (version && version !== CONFIG.version) throw new Error(`${url} is of release ${version}`);
      await cache.put(url, response);
    }));
    // every file is named by its content and pages load all their modules at start: taking over at once
    // cannot mix releases in a page already running
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("pyramid-shell-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** The cached copy of `path` in this release's cache, or the network's answer. */
async function cachedFirst(request, path) {
  const cache = await caches.open(CACHE);
  return (await cache.match(path)) || fetch(request);
}

/** The network's answer, or this release's cached copy of `path` when the network fails. */
async function networkFirst(request, path) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await (await caches.open(CACHE)).match(path);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;  // network only
  if (request.mode === "navigate") {
    if (url.pathname === "/") event.respondWith(networkFirst(request, "/"));
    return;
  }
  if (!SHELL.has(url.pathname)) return;
  // a file named by its content never changes: the cached copy; the rest (the catalogues, the manifest, and every
  // file where nothing was collected, DJANGO_DEBUG on say) may change under its name: the network first, so an
  // online page never mixes this release's copy with the server's newer one
  event.respondWith(NAMED.has(url.pathname) ? cachedFirst(request, url.pathname) : networkFirst(request, url.pathname));
});
