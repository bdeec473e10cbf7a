// Opening: SHA-256 and size checks of every part, Ed25519 signatures (Web Crypto), and the editorial and strings
// API on Monaco against `citypack inspect`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openPack, webFiles } from '../citypack.js';
import { canonicalJSON } from '../internal.js';
import { buildCity, citypackBinary, fileFetch, root } from '../test-support/support.mjs';

function copyOf(city) {
  const dir = mkdtempSync(join(tmpdir(), 'citypack-web-copy-'));
  cpSync(join(buildCity(city).output, city), dir, { recursive: true });
  return { dir, manifest: join(dir, 'manifest.json'), url: pathToFileURL(join(dir, 'manifest.json')).href };
}

async function rejects(promise, code) {
  await assert.rejects(promise, (e) => e.code === code || assert.fail(`expected ${code}, got ${e.code}: ${e.message}`));
}

test('a part whose bytes differ from the manifest is refused (hash, size)', async () => {
  const c = copyOf('monaco');
  const search = JSON.parse(readFileSync(c.manifest, 'utf8')).web.parts.find((p) => p.name === 'search');
  const file = join(c.dir, search.path);
  const bytes = readFileSync(file);
  bytes[bytes.length - 5] ^= 1;
  writeFileSync(file, bytes);
  await rejects(openPack(fileFetch, c.url), 'hash');
  await openPack(fileFetch, c.url, { parts: ['places'] }); // the other parts are fine
  writeFileSync(file, Buffer.concat([bytes, Buffer.from([0])]));
  await rejects(openPack(fileFetch, c.url, { parts: ['search'] }), 'size');
});

test('a damaged row chunk is refused; a manifest of another web format is refused', async () => {
  const c = copyOf('monaco');
  const m = JSON.parse(readFileSync(c.manifest, 'utf8'));
  const places = m.web.parts.find((p) => p.name === 'places');
  const chunk = places.chunks[places.chunks.length >> 1];
  const file = join(c.dir, chunk.path);
  const bytes = readFileSync(file);
  bytes[10] ^= 1;
  writeFileSync(file, bytes);
  await rejects(openPack(fileFetch, c.url, { parts: ['places'] }), 'hash');
  await rejects(openPack(fileFetch, c.url, { parts: ['search'] }), 'hash'); // search rows live in the places chunks
  await openPack(fileFetch, c.url, { parts: ['editorial'] });
  writeFileSync(c.manifest, JSON.stringify({ ...m, web: { ...m.web, format: 1 } }));
  await rejects(openPack(fileFetch, c.url, { parts: [] }), 'format');
});

test('webFiles lists every file of the flavour once; loading a part fetches its files only', async () => {
  const c = copyOf('monaco');
  const m = JSON.parse(readFileSync(c.manifest, 'utf8'));
  const files = webFiles(m);
  // The bundle (web.bundle: the parts' and chunks' bytes in one file) is beside them, not one of them.
  const onDisk = readdirSync(join(c.dir, 'web')).map((f) => `web/${f}`).filter((p) => p !== m.web.bundle?.path);
  const strings = Object.values(m.web.strings).sort();
  assert.deepEqual(files.map((f) => f.path).sort(), [...onDisk, ...strings].sort());
  if (m.web.bundle) assert.equal(readFileSync(join(c.dir, m.web.bundle.path)).length, m.web.bundle.bytes);
  assert.equal(new Set(files.map((f) => f.path)).size, files.length);
  for (const f of files) {
    const bytes = readFileSync(join(c.dir, f.path));
    assert.equal(bytes.length, f.bytes, f.path);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), f.sha256, f.path);
  }
  const fetched = [];
  const counting = (url) => {
    fetched.push(url.slice(pathToFileURL(c.dir).href.length + 1));
    return fileFetch(url);
  };
  const pack = await openPack(counting, c.url, { parts: ['places'], strings: [] });
  const places = m.web.parts.find((p) => p.name === 'places');
  assert.deepEqual(fetched.slice(1).sort(), [places.path, ...places.chunks.map((x) => x.path)].sort());
  fetched.length = 0;
  await pack.load('search');
  assert.deepEqual(fetched, [m.web.parts.find((p) => p.name === 'search').path]);
  fetched.length = 0;
  await Promise.all([pack.load('editorial'), pack.load('editorial')]);
  assert.deepEqual(fetched, [m.web.parts.find((p) => p.name === 'editorial').path]);
});

test('signed manifests: verified with the right key, refused when tampered or signed by another key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'citypack-web-sign-'));
  const bin = citypackBinary();
  execFileSync(bin, ['keygen', '--output', join(dir, 'release')], { stdio: 'ignore' });
  execFileSync(bin, ['keygen', '--output', join(dir, 'other')], { stdio: 'ignore' });
  const out = join(dir, 'outputs');
  execFileSync(bin, ['build', join(root, 'inputs/monaco'), '--output', out, '--quiet', '--sign-key', join(dir, 'release')], {
    env: { ...process.env, SOURCE_DATE_EPOCH: '1700000000' },
    stdio: 'ignore',
  });
  const manifest = join(out, 'monaco/manifest.json');
  const url = pathToFileURL(manifest).href;
  const key = readFileSync(join(dir, 'release.pub'), 'utf8');
  const pack = await openPack(fileFetch, url, { publicKey: key, parts: [] });
  assert.equal(pack.signature, 'verified');
  assert.equal((await openPack(fileFetch, url, { parts: [] })).signature, 'unverified');
  await rejects(openPack(fileFetch, url, { publicKey: readFileSync(join(dir, 'other.pub'), 'utf8'), parts: [] }), 'signature');
  // The signature covers the web member: a part's hash swapped in the manifest breaks it.
  const m = JSON.parse(readFileSync(manifest, 'utf8'));
  m.web.parts[0].sha256 = '0'.repeat(64);
  writeFileSync(manifest, JSON.stringify(m, null, 2));
  await rejects(openPack(fileFetch, url, { publicKey: key, parts: [] }), 'signature');
  // Unsigned manifests are refused when a signature is required.
  await rejects(openPack(fileFetch, buildCity('monaco').manifestURL, { publicKey: key, requireSignature: true }), 'signature');
});

test('canonical JSON is RFC 8785 for the values manifests hold', () => {
  assert.equal(canonicalJSON({ b: [1, 2.5, 'é\n'], a: { d: null, c: true }, '\u00e9': 1e21 }), '{"a":{"c":true,"d":null},"b":[1,2.5,"é\\n"],"é":1e+21}');
});

test('cards, situations, actions, routes and strings match citypack inspect (Monaco)', async () => {
  const monaco = buildCity('monaco');
  const pack = await openPack(fileFetch, monaco.manifestURL);
  const inspect = (args) => JSON.parse(execFileSync(citypackBinary(), ['inspect', monaco.manifest, ...args, '--format', 'json'], { maxBuffer: 1 << 26 }));
  for (const locale of ['en', 'fr', 'de']) {
    const cards = inspect(['--cards', '--locale', locale]);
    const jsCards = pack.cards(locale).map((c) => ({
      ...c,
      // inspect prints a situation without its card and position (they are implied by where it is listed).
      situations: pack.situations(c.id, locale).map(({ card, position, ...s }) => ({ ...s, actions: pack.actions(s.id, locale) })),
    }));
    assert.ok(jsCards.length >= 5);
    assert.deepEqual(normalize(jsCards), normalize(cards.cards ?? cards), `cards ${locale}`);
  }
  const routes = inspect(['--routes']);
  const swiftRoutes = routes.routes ?? routes;
  const jsRoutes = pack.routes().map((r) => pack.route(r.id));
  assert.equal(jsRoutes.length, swiftRoutes.length);
  assert.deepEqual(normalize(jsRoutes), normalize(swiftRoutes));
  for (const locale of ['de', 'fr', 'it', 'en']) {
    await pack.loadStrings(locale);
    const strings = inspect(['--strings', locale]);
    const table = strings.strings ?? strings;
    for (const [key, value] of Object.entries(table)) assert.deepEqual(pack.string(key, locale), value, `${locale} ${key}`);
  }
});

/** Compares on shared members only, so extra presentation fields of either side do not matter. */
function normalize(value) {
  return JSON.parse(JSON.stringify(value));
}

test('bench.mjs runs and reports open time and nearby latency (no timing asserted)', () => {
  const out = execFileSync(process.execPath, [join(root, 'clients/web/bench.mjs'), buildCity('monaco').manifest, '--queries', '2000', '--json']);
  const r = JSON.parse(out);
  assert.ok(r.places > 400 && r.openAllPartsMs > 0 && r.nearby25mMedianMicroseconds > 0 && r.queries === 2000, JSON.stringify(r));
});
