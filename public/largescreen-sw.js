/**
 * The wall screen's service worker, so that a screen rebooted while the server or the network is down
 * still shows its display (with the banner saying updates have stopped) and reconnects by itself. It is
 * registered by entries/largescreen.tsx with the scope /largescreen.html: it controls that page alone,
 * never the teacher portal (its /largescreen included) or the scan station. It keeps the page's HTML
 * (network first, the cached copy when the server cannot be reached) and the built assets it loads
 * (hashed names under /assets/: cache first). API calls and the socket always go to the network.
 * Plain JavaScript in public/: served as it is, at the root, so its scope may name the page.
 */
const CACHE = 'largescreen-v1';
const PAGE = '/largescreen.html';
/** A navigation that has no answer by then is served from the cache (a cut cable can hang a fetch). */
const NETWORK_WAIT_MS = 5000;

const assetsOf = (html) => [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);

/** Stores a fresh copy of the page and the assets it names; on a new version, drops the old assets. */
async function keepPage(response) {
  const cache = await caches.open(CACHE);
  const html = await response.clone().text();
  const previous = await cache.match(PAGE, { ignoreVary: true });
  const changed = !previous || (await previous.text()) !== html;
  await cache.put(PAGE, response);
  if (!changed) return;
  const assets = assetsOf(html);
  const keep = new Set(assets.map((asset) => new URL(asset, self.location.origin).href));
  for (const request of await cache.keys()) {
    if (new URL(request.url).pathname.startsWith('/assets/') && !keep.has(request.url)) await cache.delete(request);
  }
  await Promise.all(assets.map((asset) => cache.add(asset).catch(() => undefined)));
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    fetch(PAGE, { cache: 'no-cache' })
      .then((response) => (response.ok ? keepPage(response) : undefined))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

async function page(request, event) {
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), NETWORK_WAIT_MS)),
    ]);
    if (response.ok) {
      const copy = response.clone();
      // Kept in the background: the page is not held up by the assets' download.
      event.waitUntil(keepPage(copy).catch(() => undefined));
      return response;
    }
    return (await caches.match(PAGE, { ignoreVary: true })) ?? response;
  } catch (error) {
    const cached = await caches.match(PAGE, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

async function asset(request) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && url.pathname === PAGE) event.respondWith(page(request, event));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(asset(request));
});
