// Where the pack library keeps cities in a browser: IndexedDB or Cache Storage, measured in headless Chromium with
// the library's own adapters (IndexedDBStore, CacheStore).
//   node clients/web/bench-storage.mjs [--runs N]
// Writes and reads a Milan-size web flavour (the part sizes of docs/WEB.md's table — places, search, editorial,
// transit — plus two string tables: 573 542 bytes in 6 files) N times (default 7) per store, prints the median and
// range in milliseconds, whether each API exists in a service worker, and whether a multi-record switch can be
// one atomic operation (IndexedDB: one transaction over two records, then an aborted one that must leave both
// unchanged; Cache Storage has no multi-entry transaction).
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPath, launchChromium, until } from './test-support/chromium.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;
if (!chromiumPath) {
  console.error('bench-storage: needs chromium (apt-get install chromium)');
  process.exit(1);
}

const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { IndexedDBStore, CacheStore } from '/library.js';
const sizes = [122366, 43354, 66, 397187, 5004, 5565];
const files = sizes.map((n, i) => { const b = new Uint8Array(n); for (let j = 0; j < n; j++) b[j] = (j * 2654435761 + i) >>> 24; return ['f' + i + '-' + n, b]; });
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
async function measure(make, runs) {
  const write = [], read = [];
  for (let r = 0; r < runs; r++) {
    const store = make('bench-' + r);
    let t = performance.now();
    await Promise.all(files.map(([k, b]) => store.putFile(k, b)));
    await store.putRecord('city:milan', { files: files.map(([k]) => k) });
    write.push(performance.now() - t);
    t = performance.now();
    const got = await Promise.all(files.map(([k]) => store.getFile(k)));
    read.push(performance.now() - t);
    if (got.some((g, i) => g.length !== sizes[i])) throw new Error('read back wrong sizes');
  }
  return { write: [median(write), Math.min(...write), Math.max(...write)], read: [median(read), Math.min(...read), Math.max(...read)] };
}
async function idbAtomic() {
  const store = new IndexedDBStore('bench-atomic');
  const db = await store._open();
  const two = (mode, body) => new Promise((ok) => { const tx = db.transaction('records', 'readwrite'); body(tx.objectStore('records'), tx); tx.oncomplete = () => ok('committed'); tx.onabort = () => ok('aborted'); });
  await two('w', (s) => { s.put('v1', 'city:a'); s.put('v1', 'city:b'); });
  await two('w', (s, tx) => { s.put('v2', 'city:a'); s.put('v2', 'city:b'); tx.abort(); });
  return (await store.getRecord('city:a')) === 'v1' && (await store.getRecord('city:b')) === 'v1';
}
const sw = await navigator.serviceWorker.register('/bench-sw.js');
await navigator.serviceWorker.ready;
const inWorker = await new Promise((ok) => { navigator.serviceWorker.onmessage = (e) => ok(e.data); (sw.active ?? sw.installing ?? sw.waiting).postMessage('probe'); });
window.result = { runs: ${runs}, bytes: sizes.reduce((a, b) => a + b, 0), indexedDB: await measure((n) => new IndexedDBStore(n), ${runs}), cacheStorage: await measure((n) => new CacheStore(n), ${runs}), inWorker, idbAtomic: await idbAtomic() };
</script>`;
const worker = `self.addEventListener('message', (e) => e.source.postMessage({ indexedDB: typeof indexedDB === 'object', caches: typeof caches === 'object' }));
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));`;

const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  const js = { 'content-type': 'text/javascript' };
  if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  if (path === '/bench-sw.js') return res.writeHead(200, js).end(worker);
  // The reader's modules (library.js and what it imports), by file name.
  if (/^\/[a-z0-9-]+\.js$/.test(path) && existsSync(join(here, path.slice(1)))) return res.writeHead(200, js).end(readFileSync(join(here, path.slice(1))));
  res.writeHead(404).end();
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const profile = mkdtempSync(join(tmpdir(), 'citypack-bench-storage-'));
const browser = await launchChromium(profile);
try {
  await browser.navigate(`http://127.0.0.1:${server.address().port}/`);
  const r = await until('the measurements', 120, () => browser.evaluate('window.result ?? null').catch(() => null), 100);
  const ms = ([median, min, max]) => `${median.toFixed(1)} ms (${min.toFixed(1)}–${max.toFixed(1)})`;
  const version = (await browser.send('Browser.getVersion')).product;
  console.log(`storage for one Milan-size web flavour (${r.bytes} bytes in 6 files), ${version}, median of ${r.runs} runs (min–max):`);
  console.log(`  IndexedDB      write ${ms(r.indexedDB.write)}  read ${ms(r.indexedDB.read)}  in a service worker: ${r.inWorker.indexedDB ? 'yes' : 'no'}  multi-record atomic switch: ${r.idbAtomic ? 'yes (aborted transaction left both records)' : 'NO'}`);
  console.log(`  Cache Storage  write ${ms(r.cacheStorage.write)}  read ${ms(r.cacheStorage.read)}  in a service worker: ${r.inWorker.caches ? 'yes' : 'no'}  multi-record atomic switch: no (one entry per put)`);
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
