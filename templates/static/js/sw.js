// The service worker (served at /sw.js by service/pages/offline.py, which puts this release's
// ASSETS, SHELL and OFFLINE before it). It keeps the static files of its own release: a file
// asked with its version (?v=, service/pages/assets.py) or by its bare path (the scripts'
// imports) comes from the cache, fetched once; a newer release is a new worker, which drops every
// file of another version. Pages are always asked of the network: a navigation that fails (no
// network) gets the offline page kept at install. The API, a table's live stream and every other
// request are never touched: they go to the network as if there were no worker.
/* global ASSETS, SHELL, OFFLINE */

const FILES = "pikdame-static";
const PAGES = "pikdame-offline";
const STATIC = "/static/";

const versioned = (path) => `${STATIC}${path}?v=${ASSETS[path]}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    // asked with the player's cookie: the offline page in their language
    const pages = await caches.open(PAGES);
    await pages.add(new Request(OFFLINE, { credentials: "same-origin" }));
    const files = await caches.open(FILES);
    await files.addAll(SHELL.map(versioned));
    await self.skipWaiting();
  })());
});

// Every kept file of another release goes: the new one is fetched once when first asked.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const files = await caches.open(FILES);
    for (const request of await files.keys()) {
      const url = new URL(request.url);
      const path = url.pathname.slice(STATIC.length);
      if (ASSETS[path] !== url.searchParams.get("v")) await files.delete(request);
    }
    await self.clients.claim();
  })());
});

const file = async (path) => {
  const files = await caches.open(FILES);
  const key = versioned(path);
  const kept = await files.match(key);
  if (kept) return kept;
  const response = await fetch(key);
  if (response.ok) await files.put(key, response.clone());
  return response;
};

const page = async (request) => {
  try {
    return await fetch(request);
  } catch (e) {
    const offline = await caches.match(OFFLINE, { cacheName: PAGES });
    return offline || Response.error();
  }
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
    return;
  }
  if (!url.pathname.startsWith(STATIC)) return; // the API, streams, replays: the network's
  const path = url.pathname.slice(STATIC.length);
  const asked = url.searchParams.get("v");
  if (!(path in ASSETS) || (asked !== null && asked !== ASSETS[path])) return;
  event.respondWith(file(path));
});
