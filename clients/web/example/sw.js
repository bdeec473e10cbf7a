// The example's service worker: keeps the app shell for offline starts (network first, the cached copy when the
// network is gone) and serves downloaded cities from the library's storage at ./offline/<city>/<path> — the same
// IndexedDB the page writes — so even code that only knows openPack(fetch, './offline/monaco/manifest.json') works
// offline. A module worker (register with {type: 'module'}).
import { IndexedDBStore, storageFetch } from '../library.js';

const SHELL = 'citypack-example-shell';
const shell = ['./', './index.html', './app.js', './sw.js', '../category-words.js', '../citypack.js', '../constants.js', '../dates.js', '../editorial.js', '../format.js', '../journey-id.js', '../journey-json.js', '../journeys.js', '../library-bundle.js', '../library-catalog.js', '../library-copy.js', '../library-files.js', '../library-install.js', '../library-model.js', '../library-net.js', '../library-patch.js', '../library-screen.js', '../library-storage.js', '../library-tables.js', '../library.js', '../manifest-patch.js', '../opening-hours.js', '../pack-library.js', '../pack.js', '../places.js', '../proximity.js', '../raptor.js', '../search.js', '../stop-names.js', '../timetable.js', '../tokens.js', '../zone.js'].map((p) => new URL(p, self.location).href);
const storage = new IndexedDBStore();

self.addEventListener('install', (event) => event.waitUntil(caches.open(SHELL).then((c) => c.addAll(shell)).then(() => self.skipWaiting())));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

async function fromStorage(city, path) {
  const record = await storage.getRecord(`city:${city}`);
  if (!record) return new Response(null, { status: 404 });
  const response = await storageFetch(storage, record)(`https://citypack.invalid/${encodeURIComponent(city)}/${path}`);
  return new Response(response.ok ? await response.arrayBuffer() : null, { status: response.status });
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(SHELL)).put(request.url.split('?')[0], response.clone());
    return response;
  } catch (e) {
    const cached = await caches.match(request, { ignoreSearch: true, cacheName: SHELL });
    if (cached) return cached;
    throw e;
  }
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const scope = new URL(self.registration.scope);
  const offline = url.href.startsWith(`${scope.href}offline/`) && /^offline\/([^/]+)\/(.+)$/.exec(url.pathname.slice(scope.pathname.length));
  if (offline) event.respondWith(fromStorage(decodeURIComponent(offline[1]), offline[2]));
  else if (event.request.method === 'GET' && shell.includes(url.href.split('?')[0])) event.respondWith(networkFirst(event.request));
});
