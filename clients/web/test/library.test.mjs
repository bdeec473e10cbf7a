// The pack library (library.js) in Node: two real signed Monaco releases, an in-memory store and a fake fetch
// (test-support/fake-fetch.mjs) with the fault server's faults. Fast; the real-server and browser run is
// library-browser.test.mjs.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { PackError, openPack, webFiles } from '../citypack.js';
import { MemoryStore, PackLibrary, describeState, formatBytes, libraryCopy } from '../library.js';
import { fakeServer } from '../test-support/fake-fetch.mjs';
import { monacoReleases, renamed } from '../test-support/releases.mjs';
import { root } from '../test-support/support.mjs';

const binary = [process.env.CITYPACK_BIN, join(root, '.build/release/citypack'), join(root, '.build/debug/citypack')].some((p) => p && existsSync(p));
const skip = binary ? false : 'needs the citypack binary (swift build)';
let releases;
before(() => { if (!skip) releases = monacoReleases(); });

/** A library on a fresh in-memory store and fake server, with fast retries; `log` lists every state it took. */
function setup(options = {}) {
  const server = fakeServer(releases.output);
  const storage = options.storage ?? new MemoryStore();
  const library = new PackLibrary({ catalogURL: `${server.base}catalog.json`, fetch: server.fetch, storage, publicKey: releases.publicKey, retries: 2, backoffMs: 1, stallTimeoutMs: 150, ...options });
  const states = [];
  library.addEventListener('statechange', (e) => { if (e.detail.city === 'monaco') states.push(e.detail.state.kind); });
  return { server, storage, library, states };
}

async function installV1(options) {
  releases.publish(1);
  const s = setup(options);
  await s.library.refresh();
  const state = await s.library.download('monaco');
  assert.deepEqual(state, { kind: 'on_disk', version: 1 });
  releases.publish(2);
  s.server.log.length = 0;
  return s;
}

/** The installed city opens from storage alone (fetch throws) and its search answers. */
async function opensOffline(storage, expectName) {
  const offline = new PackLibrary({ catalogURL: 'https://packs.example/catalog.json', storage, publicKey: releases.publicKey, fetch: () => Promise.reject(new TypeError('offline')) });
  const pack = await offline.open('monaco');
  assert.ok(pack.search(expectName).some((r) => r.name === expectName), `search finds ${expectName}`);
  return pack;
}

test('install: queued, downloading, applying, on disk; opens offline; installed() counts every stored byte', { skip }, async () => {
  const { library, storage, states } = await installV1();
  assert.deepEqual([...new Set(states)], ['not_downloaded', 'queued', 'downloading', 'applying', 'on_disk']);
  const record = await storage.getRecord('city:monaco');
  const manifest = JSON.parse(new TextDecoder().decode(await storage.getFile(record.manifest.sha256)));
  const tables = webFiles(manifest).filter((f) => f.path.startsWith('copy/web/'));
  assert.ok(tables.length > 1, 'the city has string tables for several locales');
  // No locale named and no device locale (Node): the city's first locale's table only.
  assert.deepEqual(record.locales, [manifest.city.locales[0]]);
  assert.deepEqual(record.files.filter((f) => f.path.startsWith('copy/web/')).map((f) => f.path), [manifest.web.strings[manifest.city.locales[0]]]);
  assert.deepEqual(new Set(await storage.fileKeys()), new Set([record.manifest.sha256, ...record.files.map((f) => f.sha256)]), 'exactly the record\'s files are stored');
  const [installed] = await library.installed();
  assert.deepEqual(installed, { city: 'monaco', version: 1, bytes: record.manifest.bytes + record.files.reduce((n, f) => n + f.bytes, 0) });
  const pack = await opensOffline(storage, renamed.before);
  assert.ok(pack.search('toilet').length > 0);
  assert.equal(pack.signature, 'verified');
});

test('update: conditional refresh, the size of what is new, only changed files fetched, old files gone after the switch', { skip }, async () => {
  const { library, storage, server } = await installV1();
  const v1Files = new Set(await storage.fileKeys());
  server.log.length = 0;
  assert.equal(await library.refresh(), true);
  assert.ok(server.log[0].ifNoneMatch, 'the catalog request carries the ETag the server sent');
  const state = library.state('monaco');
  assert.equal(state.kind, 'on_disk_out_of_date');
  assert.equal(state.version, 1);
  assert.equal(state.update, 2);
  server.log.length = 0;
  assert.deepEqual(await library.update('monaco'), { kind: 'on_disk', version: 2 });
  assert.equal(server.log[0].path, '/catalog.json');
  assert.equal(server.log[0].status, 304, 'unchanged catalog: 304');
  const fetched = server.log.filter((e) => e.path.includes('/web/') || e.path.includes('/copy/'));
  assert.ok(fetched.length > 0 && fetched.every((e) => /\/web\/rows-/.test(e.path)), JSON.stringify(fetched.map((e) => e.path)));
  const record = await storage.getRecord('city:monaco');
  // The manifest costs its bytes, or its patch's when the catalog lists one from version 1 (learned on refresh).
  const patch = library.entry('monaco').manifestPatches?.find((p) => p.from === 1 && p.bytes < record.manifest.bytes);
  assert.equal(state.updateBytes, fetched.reduce((n, e) => n + e.bytes, 0) + (patch?.bytes ?? record.manifest.bytes), 'updateBytes is what the update fetched');
  const kept = new Set(await storage.fileKeys());
  assert.deepEqual(kept, new Set([record.manifest.sha256, ...record.files.map((f) => f.sha256)]), 'only the installed version is stored');
  assert.ok([...v1Files].some((f) => !kept.has(f)), 'files only version 1 used were deleted');
  await opensOffline(storage, renamed.after);
  console.log(`update v1→v2 fetched ${state.updateBytes} of ${record.manifest.bytes + record.files.reduce((n, f) => n + f.bytes, 0)} bytes`);
});

test('a connection cut mid-body resumes with Range + If-Range (206); a changed validator restarts (200)', { skip }, async () => {
  const { library, storage, server } = await installV1();
  server.faults.push({ path: '/web/rows-', fault: 'cut', at: 500, times: 1 });
  assert.deepEqual(await library.update('monaco'), { kind: 'on_disk', version: 2 });
  const places = server.log.filter((e) => e.path.includes('/web/rows-'));
  assert.equal(places.length, 2);
  assert.equal(places[1].range, 'bytes=500-');
  assert.match(places[1].ifRange, /^"/);
  assert.equal(places[1].status, 206);
  await opensOffline(storage, renamed.after);

  const again = await installV1();
  again.server.faults.push({ path: '/web/rows-', fault: 'cut', at: 500, times: 1 });
  const changeValidator = again.server.fetch;
  let first = true;
  again.server.fetch = async (url, init) => {
    const r = await changeValidator(url, init);
    if (String(url).includes('/web/rows-') && first) { first = false; again.server.etagSalt = 'republished'; }
    return r;
  };
  again.library._fetch = again.server.fetch;
  assert.deepEqual(await again.library.update('monaco'), { kind: 'on_disk', version: 2 });
  const log = again.server.log.filter((e) => e.path.includes('/web/rows-'));
  assert.equal(log[1].range, 'bytes=500-');
  assert.equal(log[1].status, 200, 'If-Range no longer matches: the whole file again');
  await opensOffline(again.storage, renamed.after);
});

test('a flipped byte fails verification of that file; the next try fetches it again and installs', { skip }, async () => {
  const { library, storage, server } = await installV1();
  server.faults.push({ path: '/web/rows-', fault: 'flip', times: 1 });
  const failed = await library.update('monaco');
  assert.equal(failed.kind, 'failed', JSON.stringify(failed));
  assert.equal(failed.reason, 'damaged');
  // The damaged bytes were never kept under the file's SHA-256: the retry fetches the file again and succeeds.
  assert.deepEqual(await library.update('monaco'), { kind: 'on_disk', version: 2 });
  await opensOffline(storage, renamed.after);
});

const faultCases = [
  ['truncate', { path: '/web/rows-', fault: 'truncate' }, 'damaged'],
  ['flip', { path: '/web/rows-', fault: 'flip' }, 'damaged'],
  ['stall', { path: '/web/rows-', fault: 'stall', at: 100 }, 'timeout'],
  ['encoding', { path: '/web/rows-', fault: 'encoding' }, 'damaged'],
  ['404', { path: '/web/rows-', fault: 'status', status: 404 }, 'server_error'],
  ['500', { path: '/web/rows-', fault: 'status', status: 500 }, 'server_error'],
  ['cut every time', { path: '/web/rows-', fault: 'cut' }, 'offline'],
  ['offline', { path: '/', fault: 'offline' }, 'offline'],
];
for (const [name, rule, reason] of faultCases) {
  test(`fault ${name}: failed(${reason}), version 1 kept and opens`, { skip }, async () => {
    const { library, storage, server } = await installV1();
    server.faults.push(rule);
    const state = await library.update('monaco');
    assert.equal(state.kind, 'failed', JSON.stringify(state));
    assert.equal(state.reason, reason, state.message);
    assert.equal(state.installedVersion, 1);
    if (rule.fault === 'status') assert.equal(state.status, rule.status);
    if (name === 'encoding') assert.match(state.message, /Content-Encoding: gzip/);
    if (name === '500') assert.equal(server.log.filter((e) => e.path.includes('/web/rows-')).length, 3, 'a 5xx is retried (2 retries)');
    if (name === '404') assert.equal(server.log.filter((e) => e.path.includes('/web/rows-')).length, 1, 'a 404 is not retried');
    await opensOffline(storage, renamed.before);
    assert.deepEqual((await library.installed()).map((c) => c.version), [1]);
  });
}

test('an older signed catalog is refused (older_release); so is an entry older than the installed version', { skip }, async () => {
  const { library, storage } = await installV1();
  assert.equal(await library.refresh(), true);
  releases.publish(1);
  await assert.rejects(library.refresh(), (e) => e.reason === 'older_release');
  const state = await library.update('monaco');
  assert.equal(state.reason, 'older_release');
  assert.equal(library.catalog.packs[0].dataVersion, 2, 'the accepted catalog stays');
  releases.publish(2);

  const fresh = setup({ storage });
  releases.publish(1);
  await assert.rejects(fresh.library.refresh(), (e) => e.reason === 'older_release', 'the stored catalog is version 2\'s');
  await fresh.library.update('monaco');
  assert.equal(fresh.library.state('monaco').reason, 'older_release');
  releases.publish(2);
});

test('a catalog or manifest not signed by the trusted key is tampered', { skip }, async () => {
  releases.publish(1);
  const other = setup({ publicKey: Buffer.alloc(32, 7).toString('base64') });
  await assert.rejects(other.library.refresh(), (e) => e.reason === 'tampered');
  assert.equal((await other.library.update('monaco')).reason, 'tampered');
  releases.publish(2);
});

test('cancel keeps the installed version; remove deletes every stored file', { skip }, async () => {
  const { library, storage, server } = await installV1();
  server.faults.push({ path: '/web/rows-', fault: 'stall', at: 100 });
  library.stallTimeoutMs = 60000;
  const running = library.update('monaco');
  while (library.state('monaco').kind !== 'downloading' || library.state('monaco').bytes < 100) await new Promise((ok) => setTimeout(ok, 5));
  library.cancel('monaco');
  const state = await running;
  assert.equal(state.kind, 'on_disk_out_of_date', JSON.stringify(state));
  await opensOffline(storage, renamed.before);
  await library.remove('monaco');
  assert.deepEqual(library.state('monaco'), { kind: 'not_downloaded' });
  assert.deepEqual(await storage.fileKeys(), []);
  assert.deepEqual(await library.installed(), []);
});

test('states read from the pack copy; the shipped copy stands in before any city is downloaded', { skip }, async () => {
  const { library } = await installV1();
  const t = await library.copy('en');
  assert.equal(describeState({ kind: 'failed', reason: 'offline', installedVersion: 1 }, t).text, "Download didn't finish. Check your connection and try again.");
  assert.equal(describeState({ kind: 'failed', reason: 'offline', installedVersion: 1 }, t).headline, 'Update failed');
  assert.equal(describeState({ kind: 'on_disk_out_of_date', version: 1, update: 2, updateBytes: 31234 }, t).text, 'Update available (31 KB)');
  assert.equal(describeState({ kind: 'downloading', bytes: 500, total: 2000 }, t, { locale: 'en' }).text, 'Downloading… 25% of 2 KB');
  assert.equal(describeState({ kind: 'failed', reason: 'server_error', status: 500, installedVersion: null }, t).text, 'The server answered with an error (500).');
  const none = new PackLibrary({ catalogURL: 'https://x/catalog.json', storage: new MemoryStore(), fetch: () => Promise.reject(new TypeError('x')) });
  assert.equal((await none.copy('en'))('pack.no_cities'), "No cities downloaded yet. Add one when you're back online.");
  assert.equal((await none.copy('fr-CA'))('download_error.offline.action'), libraryCopy('fr')['download_error.offline.action']);
  assert.equal((await none.copy('en'))('card.no_such_key'), 'card.no_such_key');
  assert.equal(formatBytes(1_234_567, 'en'), '1.2 MB');
});

test('citypack.js: a body cut mid-way is PackError(fetch); a re-encoded part names Content-Encoding', { skip }, async () => {
  releases.publish(2);
  const server = fakeServer(releases.output);
  const manifestURL = `${server.base}monaco/manifest.json`;
  server.faults.push({ path: '/web/rows-', fault: 'cut', times: 1 });
  await assert.rejects(openPack(server.fetch, manifestURL), (e) => e instanceof PackError && e.code === 'fetch' && /connection was lost/.test(e.message));
  server.faults.push({ path: '/web/rows-', fault: 'encoding' });
  await assert.rejects(openPack(server.fetch, manifestURL), (e) => e.code === 'size' && /Content-Encoding: gzip/.test(e.message));
});

test('50 kills at random points of an update: the next start finds version 1 or 2 openable and no debris', { skip }, async () => {
  const { storage: installed } = await installV1();
  const seeded = (() => { let x = 20261126; return () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32); })();
  const clone = (from) => Object.assign(new MemoryStore(), { files: new Map(from.files), records: new Map(from.records) });
  // One full update counts its steps (fetch chunks and storage writes): the kill points to choose from.
  let steps = 0;
  const counting = setup({ storage: clone(installed) });
  counting.library.storage = wrapStorage(counting.storage, () => { steps++; });
  counting.library._fetch = wrapFetch(counting.server.fetch, () => { steps++; });
  assert.equal((await counting.library.update('monaco')).version, 2);
  const found = { 1: 0, 2: 0 };
  let debris = 0;
  for (let i = 0; i < 50; i++) {
    const storage = clone(installed);
    const killAt = Math.floor(seeded() * steps);
    let step = 0;
    let killed = false;
    // A dead process's request never ends; it is only abandoned (aborted) when the test is done with it.
    const hang = (signal) => new Promise((ok, fail) => signal?.addEventListener('abort', () => fail(signal.reason), { once: true }));
    const gate = () => { if (killed || step++ >= killAt) { killed = true; return true; } return false; };
    const dying = setup({ storage, stallTimeoutMs: 2 ** 30 });
    dying.library.storage = wrapStorage(storage, gate, hang);
    dying.library._fetch = wrapFetch(dying.server.fetch, gate, hang);
    let finished = false;
    dying.library.update('monaco').then(() => { finished = true; }); // the process "dies" at step killAt
    while (!killed && !finished) await new Promise((ok) => setTimeout(ok, 1));
    assert.ok(killed, `the update finished before step ${killAt} of ${steps}`);
    // The next start, on what storage holds at that moment.
    const after = clone(storage);
    const next = new PackLibrary({ catalogURL: 'https://packs.example/catalog.json', storage: after, publicKey: releases.publicKey, fetch: () => Promise.reject(new TypeError('offline')) });
    const before = after.files.size;
    await next.ready();
    debris += before - after.files.size;
    const record = await after.getRecord('city:monaco');
    // What stays: the installed version, the staged version 2 (its verified files, and the kept pieces of a file
    // cut mid-body) for the next start to go on with; nothing else.
    const stage = await after.getRecord('stage:monaco');
    const referenced = new Set([record.manifest.sha256, ...record.files.map((f) => f.sha256)]);
    if (stage?.started) for (const f of [stage.manifest, ...stage.files]) referenced.add(f.sha256);
    for (const key of after.records.keys()) {
      if (key.startsWith('partial:')) (await after.getRecord(key)).pieces.forEach((_, n) => referenced.add(`${key}:${n}`));
    }
    assert.ok([...after.files.keys()].every((k) => referenced.has(k)), `kill at step ${killAt}: only the installed and staged versions' files remain`);
    const pack = await next.open('monaco');
    assert.equal(pack.search(record.version === 1 ? renamed.before : renamed.after).length, 1);
    found[record.version]++;
    dying.library.cancel('monaco');
  }
  console.log(`KILLS web: 50 kills at random steps of ${steps}; next start found version 1 ${found[1]}×, version 2 ${found[2]}×; ${debris} unreferenced files cleaned`);
  assert.equal(found[1] + found[2], 50);
});

/** Storage whose writes call `step()` first; when it returns true the write never completes (`hang`). */
function wrapStorage(storage, step, hang) {
  const wrapped = Object.create(storage);
  for (const m of ['putFile', 'deleteFile', 'putRecord', 'deleteRecord']) {
    wrapped[m] = (...a) => (step() && hang ? hang() : storage[m](...a));
  }
  return wrapped;
}

/** A fetch whose every body chunk calls `step()` first; when it returns true the stream stops for good. */
function wrapFetch(fetchImpl, step, hang) {
  return async (url, init) => {
    if (step() && hang) return hang(init?.signal);
    const r = await fetchImpl(url, init);
    if (!r.body) return r;
    const reader = r.body.getReader();
    const body = new ReadableStream({
      async pull(controller) {
        if (step() && hang) return hang(init?.signal);
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    });
    return new Response(body, { status: r.status, headers: r.headers });
  };
}

test('a newer catalog format is unsupported; a full storage is not_enough_space (with the bytes needed)', { skip }, async () => {
  releases.publish(2);
  const newer = setup();
  const real = newer.server.fetch;
  newer.library._fetch = async (url, init) => {
    if (!String(url).endsWith('/catalog.json')) return real(url, init);
    const catalog = JSON.parse(readFileSync(join(releases.output, 'catalog.json'), 'utf8'));
    return new Response(JSON.stringify({ ...catalog, formatVersion: 99 }), { status: 200 });
  };
  await assert.rejects(newer.library.refresh(), (e) => e.reason === 'unsupported');
  assert.equal((await newer.library.download('monaco')).reason, 'unsupported');

  const full = new MemoryStore();
  full.putFile = async () => { throw new DOMException('the quota has been exceeded', 'QuotaExceededError'); };
  const { library } = setup({ storage: full });
  const state = await library.download('monaco');
  assert.equal(state.reason, 'not_enough_space', state.message);
  assert.ok(state.bytes > 0);
  assert.equal(state.installedVersion, null);
  assert.deepEqual(library.state('monaco'), state);
});

test('the shipped screen copy is the templates\' pack.* and download_error.* strings, every template locale (scripts/embed-templates.py)', () => {
  const folder = join(root, 'templates', 'copy');
  const pattern = /^((?:pack|download_error)\.[a-z_.]+): "((?:[^"\\]|\\.)*)"\s*$/;
  let checked = 0;
  for (const name of readdirSync(folder).filter((n) => n.endsWith('.yaml'))) {
    const locale = name.slice(0, -5);
    const expected = {};
    for (const line of readFileSync(join(folder, name), 'utf8').split('\n')) {
      const m = pattern.exec(line);
      if (m) expected[m[1]] = m[2].replace(/\\"/g, '"');
    }
    assert.deepEqual(libraryCopy(locale), expected, `${locale}: clients/web/library-copy.js is stale; run scripts/embed-templates.py`);
    checked += Object.keys(expected).length;
  }
  assert.ok(checked > 80, `${checked}`);
});

test('an installed city whose timetable has ended is marked in its state and in installed()', { skip }, async () => {
  const { storage } = await installV1();
  const record = storage.records.get('city:monaco');
  assert.equal(record.timetable, undefined, 'Monaco has no transit: no timetable, no mark');
  // The record as a city with transit stores it (the manifest's timetable and the city's zone).
  storage.records.set('city:monaco', { ...record, timetable: { first: '2014-01-01', last: '2014-11-01' }, timeZone: 'Europe/Monaco' });
  const ended = setup({ storage });
  await ended.library.ready();
  assert.deepEqual(ended.library.state('monaco'), { kind: 'on_disk', version: 1, timetableEnded: '2014-11-01' });
  const [listed] = await ended.library.installed();
  assert.deepEqual([listed.timetable, listed.timetableEnded], [{ first: '2014-01-01', last: '2014-11-01' }, '2014-11-01']);
  storage.records.set('city:monaco', { ...record, timetable: { first: '2014-01-01', last: '2999-12-31' }, timeZone: 'Europe/Monaco' });
  const current = setup({ storage });
  await current.library.ready();
  assert.deepEqual(current.library.state('monaco'), { kind: 'on_disk', version: 1 }, 'a timetable still running is not marked');
});
