// The service worker (scope /app/): after the first visit the app opens and works with no network.
// - Every file the page loads is precached; app files are served cache-first. APP_FILES is the
//   single list of them: every file of the app but the source modules under js/, which the page
//   runs as the bundle made from them, bundle/ (Tests/WebApp/assets.test.mjs checks it against
//   the folder). The server still serves the modules; offline they are not there.
// - GET /v1/catalog goes to the network and its last good answer is kept, to answer when offline.
// - GET /app/config.json (the server's offer of raster tiles) likewise, network first, its last
//   good answer kept (fetched at install too); with nothing kept, offline it answers no tiles. When
//   the answer changes, index.html is fetched again into the app's cache: the server's
//   Content-Security-Policy, which admits the tile server's origin, comes with it, and the next
//   load has it (Schemas/map.md "Raster tiles"; js/tileConfig.js reads the cached policy).
//   Tiles themselves are another origin's, never handled here (js/tileStore.js keeps them).
// - Every other API request is network-only (never cached: the sync must see the server).
// VERSION is a digest of the other files, written into this line by the server as it serves it
// (WebAppAssets.serviceWorkerVersion, Schemas/phone-app.md "The service worker"): a change to any
// file changes it, so browsers install the new version, with no edit here.

const VERSION = 'unstamped';
const APP_CACHE = `oritsubushi-app-${VERSION}`;
const CATALOG_CACHE = 'oritsubushi-catalog';
const CONFIG_CACHE = 'oritsubushi-config';
const APP_FILES = [
  'app.css',
  'bundle/chunk.js',
  'bundle/main.js',
  'bundle/otherScreens.js',
  'geo/LICENSE-japanmap.txt',
  'geo/LICENSE.txt',
  'geo/japan.json',
  'icons/icon-192.png',
  'icons/icon-512.png',
  'index.html',
  'js/messages.json',
  'manifest.webmanifest',
  'sw.js',
];

/** @type {ServiceWorkerGlobalScope} */
const worker = /** @type {any} */ (self);
const scope = new URL('./', worker.location.href); // …/app/
const configUrl = new URL('config.json', scope);
const indexUrl = new URL('index.html', scope);

worker.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(APP_CACHE);
    // Fetched past the HTTP cache, so that a new version never precaches an old file.
    await cache.addAll(APP_FILES.map((file) => new Request(new URL(file, scope), { cache: 'reload' })));
    // The offer that goes with the index.html just cached; the app opens offline without it too.
    try {
      const offer = await fetch(new Request(configUrl, { cache: 'reload' }));
      if (offer.status === 200) await (await caches.open(CONFIG_CACHE)).put(configUrl.href, offer);
    } catch {
      // Offline or refused: the app's first request keeps it.
    }
    await worker.skipWaiting();
  })());
});

worker.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('oritsubushi-app-') && name !== APP_CACHE) await caches.delete(name);
    }
    await worker.clients.claim();
  })());
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== scope.origin) return;
  if (url.pathname === '/v1/catalog') {
    event.respondWith(catalog(request));
    return;
  }
  if (url.pathname === configUrl.pathname) {
    event.respondWith(config(request));
    return;
  }
  if (url.pathname.startsWith(scope.pathname)) event.respondWith(appFile(request, url));
  // Anything else (the sync API) is left to the network.
});

/**
 * An app file from the cache, else from the network; /app/ itself is index.html.
 * @param {Request} request @param {URL} url
 */
async function appFile(request, url) {
  const cache = await caches.open(APP_CACHE);
  const cached = url.pathname === scope.pathname ? undefined : await cache.match(url.href, { ignoreSearch: true });
  if (cached) return cached;
  if (url.pathname === scope.pathname || request.mode === 'navigate') {
    const index = await cache.match(new URL('index.html', scope).href);
    if (index) return index;
  }
  return fetch(request);
}

/**
 * The catalogue from the network (keeping the last good 200), or the kept copy when offline.
 * @param {Request} request
 */
async function catalog(request) {
  const cache = await caches.open(CATALOG_CACHE);
  try {
    const response = await fetch(request);
    if (response.status === 200) await cache.put('/v1/catalog', response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match('/v1/catalog');
    if (!cached) throw error;
    // The app asks with the ETag of the copy it holds: when the kept copy is that one, answer as
    // the server would (304), so that the app does not parse, store and redraw it again.
    const held = request.headers.get('If-None-Match');
    const tag = cached.headers.get('ETag');
    if (held && tag && held === tag) return new Response(null, { status: 304, headers: { ETag: tag } });
    return cached;
  }
}

/**
 * The server's offer of tiles from the network (keeping the last good 200, and refreshing the
 * cached index.html when it changed), or the kept copy when offline; with none kept, no tiles.
 * @param {Request} request
 */
async function config(request) {
  const cache = await caches.open(CONFIG_CACHE);
  try {
    const response = await fetch(request);
    if (response.status === 200) {
      const kept = await cache.match(configUrl.href);
      const body = await response.clone().text();
      // Kept only once index.html is, so that a failed refresh is tried again next time.
      if (!kept || (await kept.text()) !== body) {
        if (await refreshIndex()) await cache.put(configUrl.href, response.clone());
      }
    }
    return response;
  } catch {
    const kept = await cache.match(configUrl.href);
    return kept ?? new Response('{"tiles":null}', { headers: { 'Content-Type': 'application/json' } });
  }
}

/**
 * index.html again from the server into the app's cache, with the headers it is sent with now.
 * Only the same bytes with new headers: another index.html is another version of the app, which
 * its own service worker installs whole.
 */
async function refreshIndex() {
  try {
    const response = await fetch(new Request(indexUrl, { cache: 'reload' }));
    if (response.status !== 200) return false;
    const cache = await caches.open(APP_CACHE);
    const cached = await cache.match(indexUrl.href);
    if (cached && (await cached.text()) !== (await response.clone().text())) return false;
    await cache.put(indexUrl.href, response);
    return true;
  } catch {
    return false;
  }
}
