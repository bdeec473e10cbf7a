// First downloads through the web bundle (issue 42) in the pack library, in Node over the two signed Monaco releases
// as issue 42 publishes them (test-support/published-releases.mjs) and the fake server: one bundle request instead
// of one per file; a bundle cut mid-way keeps its completed members and the next run resumes with a Range from the
// first missing one; a server that ignores Range (200) still installs; a member with a flipped byte is never
// stored and comes file by file; and the same cut and resume over HTTP (nginx, Node's fetch).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { bundleMembers, bundlePlan } from '../library-bundle.js';
import { bundledReleases } from '../test-support/published-releases.mjs';
import { findNginx, startFaultServer } from '../test-support/fault-server.mjs';
import { opensOffline, setup } from '../test-support/library-kit.mjs';
import { monacoReleases, renamed } from '../test-support/releases.mjs';
import { root } from '../test-support/support.mjs';

const binary = [process.env.CITYPACK_BIN, join(root, '.build/release/citypack'), join(root, '.build/debug/citypack')].some((p) => p && existsSync(p));
const skip = binary ? false : 'needs the citypack binary (swift build)';
const skipHTTP = skip || (findNginx() ? false : 'needs nginx (Debian nginx-light; scripts/install-deps.sh --tests)');
let published;
let manifest;
let members;
before(() => {
  if (skip) return;
  published = bundledReleases(monacoReleases());
  manifest = JSON.parse(published.manifests[2].toString('utf8'));
  members = bundleMembers(manifest).members;
});

const hex = (bytes) => createHash('sha256').update(bytes).digest('hex');
const isBundle = (path) => path.includes('/web/bundle-');
const isDataFile = (path) => /\/monaco\/web\//.test(path) && !isBundle(path); // a part or chunk fetched on its own
const bundlePath = () => `/monaco/${manifest.web.bundle.path}`;

/** Storage whose every putFile is checked: a file key's bytes must hash to it (pieces of files in flight aside). */
function checkedStorage(storage) {
  const puts = [];
  const put = storage.putFile.bind(storage);
  storage.putFile = async (key, bytes) => {
    if (!key.startsWith('partial:')) {
      puts.push(key);
      assert.equal(hex(bytes), key, 'only verified bytes are stored under a SHA-256');
    }
    return put(key, bytes);
  };
  return puts;
}


test('the bundle of the fixture: the members of the manifest in order, each at the sum of the bytes before it', { skip }, () => {
  assert.equal(manifest.web.bundle.bytes, members.reduce((n, m) => n + m.bytes, 0));
  assert.ok(members.length > 12, `${members.length} members`);
  const plan = bundlePlan(manifest, 'https://packs.example/monaco/manifest.json', members, 6);
  assert.equal(plan.start, 0);
  assert.equal(plan.url, `https://packs.example${bundlePath()}`);
  assert.equal(bundlePlan(manifest, 'https://packs.example/m.json', members.slice(0, 6), 6), null, 'at most `concurrency` members missing: no bundle');
  assert.equal(bundlePlan(manifest, 'https://packs.example/m.json', members.slice(3), 6).start, members[3].offset, 'a tail missing: from its first member');
  assert.equal(bundlePlan(manifest, 'https://packs.example/m.json', members.filter((m, i) => i % 4 === 0), 6), null, 'scattered members missing (an update): one by one');
  assert.equal(bundlePlan(manifest, 'https://packs.example/m.json', members.filter((m, i) => i !== 1), 6).start, 0, 'a member held amid many missing: the bundle');
  assert.equal(bundlePlan({ web: { ...manifest.web, bundle: undefined } }, 'https://packs.example/m.json', members, 6), null);
  assert.equal(bundlePlan({ web: { ...manifest.web, bundle: { ...manifest.web.bundle, bytes: 1 } } }, 'https://packs.example/m.json', members, 6), null, 'members that do not add up: no bundle');
});

test('a first download with a bundle: one bundle request instead of one per file; progress as bytes arrive', { skip }, async () => {
  published.publish(2);
  const { library, storage, server } = setup(published);
  const puts = checkedStorage(storage);
  const progress = [];
  library.addEventListener('progress', (e) => progress.push(e.detail.bytes));
  assert.deepEqual(await library.download('monaco'), { kind: 'on_disk', version: 2 });
  const bundle = server.log.filter((e) => isBundle(e.path));
  assert.deepEqual(bundle.map((e) => [e.path, e.range, e.status, e.bytes]), [[bundlePath(), null, 200, manifest.web.bundle.bytes]]);
  assert.deepEqual(server.log.filter((e) => isDataFile(e.path)), [], 'no part or chunk fetched on its own');
  const record = await storage.getRecord('city:monaco');
  const tables = record.files.filter((f) => f.path.startsWith('copy/'));
  assert.equal(server.log.length, 3 + tables.length, 'catalog, manifest, bundle and the string tables');
  assert.ok(members.every((m) => puts.includes(m.sha256)), 'every member stored');
  assert.ok(progress.length > 10 && progress.every((b, i) => i === 0 || b >= progress[i - 1]), 'progress grows as the bundle streams');
  assert.equal(progress.at(-1), record.manifest.bytes + record.files.reduce((n, f) => n + f.bytes, 0));
  await opensOffline(published, storage, renamed.after);
  console.log(`BUNDLE web: first download in ${server.log.length} requests (catalog, manifest, a ${manifest.web.bundle.bytes}-byte bundle of ${members.length} files, ${tables.length} string table) instead of ${2 + members.length + tables.length}`);
});

test('a bundle cut mid-way keeps its completed members; the next run asks Range from the first missing one and refetches none', { skip }, async () => {
  published.publish(2);
  const k = Math.floor(members.length / 3);
  const at = members[k].offset + Math.floor(members[k].bytes / 2); // mid-member k
  const first = setup(published);
  // The bundle is cut; then files fail on their own too (the network is gone): the run ends with the bundle cut.
  first.server.faults.push({ path: '/web/bundle-', fault: 'cut', at, times: 1 }, { path: '.json.gz', fault: 'offline' });
  const failed = await first.library.download('monaco');
  assert.equal(failed.kind, 'failed');
  assert.equal(failed.reason, 'offline');
  const kept = members.filter((m) => first.storage.files.has(m.sha256));
  assert.deepEqual(kept.map((m) => m.path), members.slice(0, k).map((m) => m.path), 'the members before the cut are stored, none after');

  const second = setup(published, { storage: first.storage });
  await second.library.ready();
  assert.equal(second.library.state('monaco').kind, 'paused');
  const puts = checkedStorage(second.storage);
  assert.deepEqual(await second.library.download('monaco'), { kind: 'on_disk', version: 2 });
  const bundle = second.server.log.filter((e) => isBundle(e.path));
  assert.deepEqual(bundle.map((e) => [e.range, e.status, e.bytes]), [[`bytes=${members[k].offset}-`, 206, manifest.web.bundle.bytes - members[k].offset]]);
  assert.deepEqual(second.server.log.filter((e) => isDataFile(e.path)), [], 'no file on its own');
  assert.ok(kept.every((m) => !puts.includes(m.sha256)), 'no completed member stored again');
  await opensOffline(published, second.storage, renamed.after);
});

test('a server that ignores Range answers 200: the bundle is read up to the first missing member, and installs', { skip }, async () => {
  published.publish(2);
  const k = Math.floor(members.length / 2);
  const first = setup(published);
  first.server.faults.push({ path: '/web/bundle-', fault: 'cut', at: members[k].offset + 1, times: 1 }, { path: '.json.gz', fault: 'offline' });
  assert.equal((await first.library.download('monaco')).reason, 'offline');
  const asked = [];
  const second = setup(published, {
    storage: first.storage,
    wrap: (f) => (url, init) => {
      asked.push(new Headers(init?.headers).get('range'));
      return f(url, { ...init, headers: {} }); // the range is dropped on the way: a whole-file answer
    },
  });
  const puts = checkedStorage(second.storage);
  assert.deepEqual(await second.library.download('monaco'), { kind: 'on_disk', version: 2 });
  const bundle = second.server.log.filter((e) => isBundle(e.path));
  assert.deepEqual(bundle.map((e) => e.status), [200]);
  assert.ok(asked.includes(`bytes=${members[k].offset}-`), JSON.stringify(asked));
  assert.deepEqual(second.server.log.filter((e) => isDataFile(e.path)), []);
  assert.deepEqual(puts.filter((sha) => members.slice(0, k).some((m) => m.sha256 === sha)), [], 'the members before the offset are skipped');
  await opensOffline(published, second.storage, renamed.after);
});

test('a bundle member with a flipped byte is refused and never stored; it and the rest come file by file', { skip }, async () => {
  published.publish(2);
  const k = Math.floor(members.length / 2);
  const { library, storage, server } = setup(published);
  const puts = checkedStorage(storage);
  server.faults.push({ path: '/web/bundle-', fault: 'flip', at: members[k].offset + 7, times: 1 });
  assert.deepEqual(await library.download('monaco'), { kind: 'on_disk', version: 2 });
  assert.match(library._bundleFailure.message, new RegExp(`${members[k].path} in the bundle: SHA-256`));
  const single = server.log.filter((e) => isDataFile(e.path)).map((e) => e.path.replace('/monaco/', ''));
  assert.deepEqual(single.sort(), members.slice(k).map((m) => m.path).filter((p, i, all) => all.indexOf(p) === i).sort(), 'the refused member and those after it, each on its own');
  assert.equal(puts.filter((sha) => sha === members[k].sha256).length, 1, 'the member stored once: the verified copy');
  await opensOffline(published, storage, renamed.after);
});

test('a 206 from another offset, a 404 or a bundle shorter than its members: the files come one by one', { skip }, async () => {
  published.publish(2);
  for (const [name, fault, wrap] of [
    ['404', { path: '/web/bundle-', fault: 'status', status: 404 }],
    ['truncated', { path: '/web/bundle-', fault: 'truncate', at: members[3].offset + 2 }],
    ['206 elsewhere', null, (f) => (url, init) => f(url, isBundle(String(url)) ? { ...init, headers: { range: 'bytes=5-' } } : init)],
  ]) {
    const { library, storage, server } = setup(published, wrap ? { wrap } : {});
    if (fault) server.faults.push(fault);
    const puts = checkedStorage(storage);
    assert.deepEqual(await library.download('monaco'), { kind: 'on_disk', version: 2 }, name);
    assert.ok(library._bundleFailure, name);
    assert.equal(new Set(puts).size, puts.length, `${name}: no file stored twice`);
    await opensOffline(published, storage, renamed.after);
  }
});

test('over HTTP (nginx behind the fault server, Node\'s fetch): a bundle cut mid-way, then resumed with Range (206)', { skip: skipHTTP, timeout: 60000 }, async () => {
  published.publish(2);
  const server = await startFaultServer({ root: published.output });
  const control = async (method, path, body) => assert.equal((await fetch(`${server.proxy}${path}`, { method, body: body && JSON.stringify(body) })).status, 200);
  const log = async () => (await (await fetch(`${server.proxy}/__log`)).json()).filter((e) => isBundle(e.path));
  const http = { base: `${server.proxy}/`, fetch: (url, init) => fetch(url, init) };
  try {
    const k = Math.floor(members.length / 3);
    await control('PUT', '/__faults', [{ path: '/web/bundle-', fault: 'cut', at: members[k].offset + 10, times: 1 }, { path: '.json.gz', fault: 'status', status: 404 }]);
    const first = setup(published, { server: http });
    assert.equal((await first.library.download('monaco')).reason, 'server_error');
    assert.deepEqual(members.filter((m) => first.storage.files.has(m.sha256)).map((m) => m.path), members.slice(0, k).map((m) => m.path));
    await control('DELETE', '/__faults');
    await control('DELETE', '/__log');
    const second = setup(published, { server: http, storage: first.storage });
    assert.deepEqual(await second.library.download('monaco'), { kind: 'on_disk', version: 2 });
    assert.deepEqual((await log()).map((e) => [e.range, e.status]), [[`bytes=${members[k].offset}-`, 206]]);
    await opensOffline(published, second.storage, renamed.after);
  } finally {
    await server.stop();
  }
});
