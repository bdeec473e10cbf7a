// Updates through manifest patches (issue 42) in the pack library, in Node over the two signed Monaco releases as
// issue 42 publishes them (test-support/published-releases.mjs: a manifest patch 1 → 2 pinned by the catalog, and
// bundles) and the fake server: an update fetches the patch, never the manifest, and ends as an update that
// fetched the manifest; the size shown counts the patch, the same online and offline; a patch that fails in any
// way falls back to the manifest and installs; a cancel stays a cancel.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { PackLibrary } from '../library.js';
import { applyCheckedManifestPatch } from '../manifest-patch.js';
import { bundledReleases } from '../test-support/published-releases.mjs';
import { opensOffline, setup } from '../test-support/library-kit.mjs';
import { monacoReleases, renamed } from '../test-support/releases.mjs';
import { root } from '../test-support/support.mjs';

const binary = [process.env.CITYPACK_BIN, join(root, '.build/release/citypack'), join(root, '.build/debug/citypack')].some((p) => p && existsSync(p));
const skip = binary ? false : 'needs the citypack binary (swift build)';
let releases;
let published;
before(() => {
  if (skip) return;
  releases = monacoReleases();
  published = bundledReleases(releases);
});

const hex = (bytes) => createHash('sha256').update(bytes).digest('hex');
const isManifest = (path) => path.endsWith('.manifest.json');
const isPatch = (path) => path.endsWith('.manifest-patch.json');
const bytesOf = (log, filter = () => true) => log.filter((e) => filter(e.path)).reduce((n, e) => n + (e.bytes ?? 0), 0);

/** Version 1 installed from `fixture`, then version 2 published; the server's log cleared. */
async function installV1(fixture, options) {
  fixture.publish(1);
  const s = setup(fixture, options);
  await s.library.refresh();
  assert.deepEqual(await s.library.download('monaco'), { kind: 'on_disk', version: 1 });
  fixture.publish(2);
  s.server.log.length = 0;
  return s;
}

/** What an installed city is in storage: its record (but the install time) and every stored file with its bytes. */
async function installedState(storage) {
  const { installedAt: _t, ...record } = await storage.getRecord('city:monaco');
  const files = {};
  for (const key of (await storage.fileKeys()).sort()) files[key] = Buffer.from(await storage.getFile(key)).toString('base64');
  return { record, files };
}

test('an update through the manifest patch: no request for the manifest; the same installed state as fetching it', { skip }, async () => {
  const { storage, server, library } = await installV1(published);
  assert.deepEqual(await library.update('monaco'), { kind: 'on_disk', version: 2 });
  assert.deepEqual(server.log.filter((e) => isManifest(e.path)), [], 'the manifest is never requested');
  const patches = server.log.filter((e) => isPatch(e.path));
  assert.deepEqual(patches.map((e) => [e.path, e.status, e.bytes]), [[`/${published.patch.path}`, 200, published.patch.bytes]]);
  assert.equal(library._patchFailure, undefined);
  assert.ok(!server.log.some((e) => e.path.includes('/web/bundle-')), 'an update of a few files does not take the bundle');
  const record = await storage.getRecord('city:monaco');
  assert.deepEqual(Buffer.from(await storage.getFile(record.manifest.sha256)), published.manifests[2], 'the stored manifest is the published one, byte for byte');
  await opensOffline(published, storage, renamed.after);

  // The same update with the patch unavailable (404): the manifest is fetched, and the outcome is the same.
  const without = await installV1(published);
  without.server.faults.push({ path: '.manifest-patch.json', fault: 'status', status: 404 });
  assert.deepEqual(await without.library.update('monaco'), { kind: 'on_disk', version: 2 });
  assert.equal(without.server.log.filter((e) => isManifest(e.path)).length, 1);
  assert.deepEqual(await installedState(without.storage), await installedState(storage));
  const saved = bytesOf(without.server.log, isManifest) - published.patch.bytes;
  console.log(`PATCH web: update 1 → 2 fetched a ${published.patch.bytes}-byte manifest patch instead of the ${published.manifests[2].length}-byte manifest (${saved} bytes saved)`);
});

test('the update size counts the patch, not the manifest: the same online, offline after a restart, and as fetched', { skip }, async () => {
  const { storage, library, server } = await installV1(published);
  await library.refresh();
  const online = library.state('monaco');
  assert.equal(online.kind, 'on_disk_out_of_date');
  assert.deepEqual(server.log.filter((e) => e.path !== '/catalog.json').map((e) => e.path), [`/${published.patch.path}`], 'learning the update fetched the patch only');
  const record = await storage.getRecord('city:monaco');
  const stage = await storage.getRecord('stage:monaco');
  const have = new Set(await storage.fileKeys());
  const fresh = stage.files.filter((f, i, all) => !have.has(f.sha256) && all.findIndex((g) => g.sha256 === f.sha256) === i);
  assert.equal(online.updateBytes, published.patch.bytes + fresh.reduce((n, f) => n + f.bytes, 0), 'the patch and the new files');
  assert.ok(record.manifest.bytes > published.patch.bytes);
  // A restart with the network off: the same number, from storage.
  const offline = new PackLibrary({ catalogURL: `${server.base}catalog.json`, storage, publicKey: published.publicKey, fetch: () => Promise.reject(new TypeError('offline')) });
  await offline.ready();
  assert.deepEqual(offline.state('monaco'), online, 'offline after a restart');
  // Online again, a new start: the update fetches exactly that.
  const next = setup(published, { storage });
  const progress = [];
  next.library.addEventListener('progress', (e) => progress.push(e.detail));
  assert.equal((await next.library.update('monaco')).version, 2);
  const fetched = bytesOf(next.server.log, (p) => p !== '/catalog.json');
  assert.equal(fetched, online.updateBytes);
  assert.equal(next.server.log.filter((e) => isManifest(e.path)).length, 0);
  assert.equal(progress.at(-1).total, online.updateBytes, 'the download\'s total is the size shown');
});

/** The patch with one ASCII digit of its inserted text changed: a result of the right size, not the manifest. */
function sameSizeOtherResult(patch) {
  const edits = structuredClone(patch.edits);
  const pair = edits.find((e) => Array.isArray(e) && /\d/.test(e[1]));
  pair[1] = pair[1].replace(/\d/, (d) => String((Number(d) + 1) % 10));
  return { ...patch, edits };
}

/** Damaged patches, each pinned by the catalog or served damaged: the library falls back to the manifest. */
const damaged = [
  ['a flipped byte (SHA-256 not the catalog\'s)', {}, { path: '.manifest-patch.json', fault: 'flip', times: 1 }, /SHA-256/],
  ['a body cut short (bytes not the catalog\'s)', {}, { path: '.manifest-patch.json', fault: 'truncate', at: 100 }, /bytes, the catalog says/],
  ['a 404', {}, { path: '.manifest-patch.json', fault: 'status', status: 404 }, /HTTP 404/],
  ['too many lines consumed', { transformPatch: (p) => ({ ...p, edits: [...p.edits, 1] }) }, null, /consumes line/],
  ['too few lines consumed', { transformPatch: (p) => ({ ...p, edits: p.edits.slice(0, -1) }) }, null, /consume \d+ of the base's/],
  ['a malformed edit', { transformPatch: (p) => ({ ...p, edits: [[1], ...p.edits] }) }, null, /neither a line count/],
  ['another result', { transformPatch: (p) => ({ ...p, edits: [...p.edits.slice(0, -1), [p.edits.at(-1)?.[0] ?? p.edits.at(-1), '']] }) }, null, /the patch names|SHA-256/],
  ['a result of the right size the catalog does not name', { transformPatch: sameSizeOtherResult }, null, /is not the catalog's/],
  ['a result naming another SHA-256', { transformPatch: (p) => ({ ...p, result: { ...p.result, sha256: '0'.repeat(64) } }) }, null, /the catalog names/],
  ['another base size', { transformPatch: (p) => ({ ...p, base: { ...p.base, bytes: p.base.bytes + 1 } }) }, null, /the base is \d+ bytes/],
  ['another base SHA-256', { transformPatch: (p) => ({ ...p, base: { ...p.base, sha256: '0'.repeat(64) } }) }, null, /the base is manifest/],
  ['another format', { transformPatch: (p) => ({ ...p, format: 2 }) }, null, /format 2/],
];
for (const [name, options, fault, why] of damaged) {
  test(`a damaged patch falls back to the manifest and installs: ${name}`, { skip }, async () => {
    const fixture = Object.keys(options).length ? bundledReleases(releases, options) : published;
    const { storage, server, library } = await installV1(fixture);
    if (fault) server.faults.push(fault);
    assert.deepEqual(await library.update('monaco'), { kind: 'on_disk', version: 2 });
    assert.match(String(library._patchFailure?.message), why);
    const order = server.log.filter((e) => isPatch(e.path) || isManifest(e.path)).map((e) => (isPatch(e.path) ? 'patch' : 'manifest'));
    assert.equal(order.at(-1), 'manifest', JSON.stringify(order));
    assert.equal(order.filter((k) => k === 'manifest').length, 1);
    const record = await storage.getRecord('city:monaco');
    assert.deepEqual(Buffer.from(await storage.getFile(record.manifest.sha256)), fixture.manifests[2]);
    await opensOffline(fixture, storage, renamed.after);
  });
}

test('without the installed manifest\'s bytes, or from another installed version, the manifest is fetched (no patch request)', { skip }, async () => {
  const { storage, server, library } = await installV1(published);
  const record = await storage.getRecord('city:monaco');
  const real = storage.getFile.bind(storage);
  storage.getFile = async (sha) => (sha === record.manifest.sha256 ? undefined : real(sha));
  assert.deepEqual(await library.update('monaco'), { kind: 'on_disk', version: 2 });
  assert.equal(server.log.filter((e) => isPatch(e.path)).length, 0);
  assert.equal(server.log.filter((e) => isManifest(e.path)).length, 1);

  // A first download (nothing installed) fetches the manifest.
  const first = setup(published);
  assert.deepEqual(await first.library.download('monaco'), { kind: 'on_disk', version: 2 });
  assert.equal(first.server.log.filter((e) => isPatch(e.path)).length, 0);
});

test('a cancel while the patch is fetched stays a cancel: no fallback, version 1 kept', { skip }, async () => {
  const { storage, server, library } = await installV1(published, { stallTimeoutMs: 60000 });
  server.faults.push({ path: '.manifest-patch.json', fault: 'stall', at: 10 });
  const running = library.update('monaco');
  for (let waited = 0; !server.log.some((e) => isPatch(e.path)); waited += 2) {
    assert.ok(waited < 5000, 'the update asks for the patch');
    await new Promise((ok) => setTimeout(ok, 2));
  }
  library.cancel('monaco');
  const state = await running;
  assert.notEqual(state.kind, 'failed', JSON.stringify(state));
  assert.equal(state.version, 1);
  assert.deepEqual(server.log.filter((e) => isManifest(e.path)), [], 'no fallback after a cancel');
  assert.equal(library._patchFailure, undefined);
  await opensOffline(published, storage, renamed.before);
});

test('the fixture is what the spec publishes: the catalog pins the patch\'s bytes, the patch gives the catalog\'s manifest', { skip }, async () => {
  const catalog = JSON.parse(readFileSync(join(published.dir, 'catalog-2.json'), 'utf8'));
  const entry = catalog.packs.find((p) => p.id === 'monaco');
  const body = readFileSync(join(published.output, published.patch.path));
  assert.equal(body.length, published.patch.bytes);
  assert.equal(hex(body), published.patch.sha256);
  const patch = JSON.parse(body.toString('utf8'));
  assert.deepEqual({ format: patch.format, city: patch.city, from: patch.from, to: patch.to }, { format: 1, city: 'monaco', from: 1, to: 2 });
  assert.deepEqual([patch.base.bytes, patch.result.bytes], [published.manifests[1].length, entry.manifestBytes]);
  const result = await applyCheckedManifestPatch(published.manifests[1], patch, entry.manifestSha256);
  assert.deepEqual(Buffer.from(result), published.manifests[2]);
  assert.ok(published.patch.bytes < entry.manifestBytes / 2, `the patch (${published.patch.bytes} bytes) is under half the manifest (${entry.manifestBytes})`);
});
