// docs/HOSTING.md's nginx block, as written, in Debian's nginx, serving what `citypack publish` wrote for a real
// Monaco build (two releases, so a delta): the policy the page tells hosts to use must load and must answer what
// the pack libraries rely on (no transfer compression on .gz, JSON compressed and intact after decoding, ranges,
// revalidation with the server's own ETag, CORS preflight for the conditional headers, cache lifetimes per kind
// of file), and the site must hold exactly what the catalog and its manifests name: no build cache, no report.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { findNginx, freePort, waitForPort } from '../test-support/fault-server.mjs';
import { hostingConfig } from '../test-support/hosting.mjs';
import { citypackBinary } from '../test-support/support.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const skip = findNginx() ? false : 'needs nginx (Debian nginx-light; scripts/install-deps.sh --tests)';
const prefix = mkdtempSync(join(tmpdir(), 'citypack-hosting-'));
const root = join(prefix, 'site');
let nginx;
let base;
/** The published catalog's Monaco entry and manifest (set in before()). */
let entry;
let manifest;

/** The ```nginx block of docs/HOSTING.md with a loopback listen and the test's root. */
before(async () => {
  if (skip) return;
  mkdirSync(join(prefix, 'tmp'), { recursive: true });
  // Two releases of Monaco (one place renamed in between), then `citypack publish` into the site folder.
  const bin = citypackBinary();
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
  const city = join(prefix, 'monaco');
  cpSync(join(repo, 'inputs', 'monaco'), city, { recursive: true });
  const outputs = join(prefix, 'outputs');
  execFileSync(bin, ['build', city, '--output', outputs, '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const osm = join(city, 'monaco-2021.osm.gz');
  const text = gunzipSync(readFileSync(osm)).toString('utf8').replace(/k="name" v="[^"]*"/, 'k="name" v="Renamed place"');
  writeFileSync(osm, (await import('node:zlib')).gzipSync(Buffer.from(text)));
  execFileSync(bin, ['build', city, '--output', outputs, '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  execFileSync(bin, ['publish', outputs, '--site', root], { stdio: ['ignore', 'ignore', 'pipe'] });
  entry = JSON.parse(readFileSync(join(root, 'catalog.json'), 'utf8')).packs.find((p) => p.id === 'monaco');
  manifest = JSON.parse(readFileSync(join(root, entry.manifest), 'utf8'));
  const port = await freePort();
  // docs/HOSTING.md's block as written, made runnable (test-support/hosting.mjs).
  const conf = hostingConfig(prefix, root, port);
  writeFileSync(join(prefix, 'nginx.conf'), conf);
  nginx = spawn(findNginx(), ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  nginx.stderr.on('data', (d) => { stderr += d; });
  nginx.once('exit', (code) => { if (code) console.error(`nginx exited ${code}: ${stderr}`); });
  await waitForPort(port);
  base = `http://127.0.0.1:${port}`;
});

after(() => {
  nginx?.kill('SIGTERM');
  rmSync(prefix, { recursive: true, force: true });
});

/** Every file under a folder, relative, sorted. */
function walk(folder, prefixPath = '') {
  const out = [];
  for (const name of readdirSync(join(folder, prefixPath))) {
    const rel = prefixPath ? `${prefixPath}/${name}` : name;
    if (statSync(join(folder, rel)).isDirectory()) out.push(...walk(folder, rel));
    else out.push(rel);
  }
  return out.sort();
}

test('the published site holds exactly what the catalog and its manifests name, as they say', { skip }, async () => {
  const named = new Map([['catalog.json', null], [entry.manifest, entry.manifestSha256], [entry.path, entry.sha256]]);
  const folder = entry.manifest.split('/').slice(0, -1).join('/');
  const add = (file) => named.set(`${folder}/${file.path}`, file.sha256);
  for (const d of manifest.deltas ?? []) add(d);
  for (const c of manifest.copy ?? []) add(c);
  for (const part of manifest.web.parts) [part, ...(part.chunks ?? [])].forEach(add);
  if (manifest.web.bundle) add(manifest.web.bundle);
  for (const p of entry.manifestPatches ?? []) named.set(p.path, p.sha256); // relative to the catalog
  named.set(`${folder}/manifest.json`, entry.manifestSha256);
  assert.ok((manifest.deltas ?? []).length >= 1, 'the second release has a delta');
  assert.deepEqual(walk(root), [...named.keys()].sort());
  for (const [path, sha256] of named) {
    if (sha256) assert.equal(createHash('sha256').update(readFileSync(join(root, path))).digest('hex'), sha256, path);
  }
  // The build's own files are not served: the cache, the reports, the statistics, the lock.
  for (const path of ['/.cache/monaco/emit.entry', '/monaco/report.html', '/monaco/report.json', '/monaco/build-stats.json', '/.lock']) {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 404, path);
    await res.arrayBuffer();
  }
  // No path of the build machine in anything published.
  for (const path of walk(root).filter((p) => p.endsWith('.json') || p.endsWith('.xml') || p.endsWith('.xcstrings'))) {
    assert.ok(!readFileSync(join(root, path), 'utf8').includes(prefix), `${path} names the build folder`);
  }
});

test('JSON arrives compressed when the client accepts gzip, and is the published bytes after decoding', { skip }, async () => {
  for (const path of ['catalog.json', entry.manifest]) {
    const res = await fetch(`${base}/${path}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-encoding'), 'gzip', path);
    // fetch decodes; the bytes are the file's (its hash is checked after decoding).
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), readFileSync(join(root, path)), path);
  }
});

test('a pack arrives as written: no Content-Encoding even when the client accepts gzip; immutable', { skip }, async () => {
  const pack = readFileSync(join(root, entry.path));
  const res = await fetch(`${base}/${entry.path}`, { headers: { 'accept-encoding': 'gzip, br' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-encoding'), null);
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.match(res.headers.get('access-control-expose-headers'), /ETag/);
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), pack);
  const rows = manifest.web.parts.find((p) => p.chunks).chunks[0].path;
  const web = await fetch(`${base}/monaco/${rows}`);
  assert.equal(web.headers.get('content-encoding'), null);
  assert.equal(web.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  await web.arrayBuffer();
  const versioned = await fetch(`${base}/${entry.manifest}`);
  assert.equal(versioned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(versioned.headers.get('content-type'), 'application/json');
  await versioned.arrayBuffer();
});

test('a dropped download resumes: 206 for Range with the right If-Range, 200 for a changed validator', { skip }, async () => {
  const pack = readFileSync(join(root, entry.path));
  const whole = await fetch(`${base}/${entry.path}`);
  const etag = whole.headers.get('etag');
  await whole.arrayBuffer();
  const part = await fetch(`${base}/${entry.path}`, { headers: { range: 'bytes=1000-', 'if-range': etag } });
  assert.equal(part.status, 206);
  assert.deepEqual(Buffer.from(await part.arrayBuffer()), pack.subarray(1000));
  const changed = await fetch(`${base}/${entry.path}`, { headers: { range: 'bytes=1000-', 'if-range': '"elsewhere"' } });
  assert.equal(changed.status, 200);
  await changed.arrayBuffer();
});

test('the catalog and the current manifest revalidate with the server\'s own ETag (304), no-cache', { skip }, async () => {
  for (const path of ['/catalog.json', '/monaco/manifest.json']) {
    const first = await fetch(`${base}${path}`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-cache');
    assert.equal(first.headers.get('content-type'), 'application/json');
    await first.arrayBuffer();
    const again = await fetch(`${base}${path}`, { headers: { 'if-none-match': first.headers.get('etag') } });
    assert.equal(again.status, 304, path);
    const since = await fetch(`${base}${path}`, { headers: { 'if-modified-since': first.headers.get('last-modified') } });
    assert.equal(since.status, 304, path);
  }
});

test('CORS preflight (a Capacitor origin) allows the range and conditional headers', { skip }, async () => {
  for (const path of ['/catalog.json', `/${entry.path}`]) {
    const res = await fetch(`${base}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'capacitor://localhost', 'access-control-request-method': 'GET', 'access-control-request-headers': 'range, if-range, if-none-match' },
    });
    assert.equal(res.status, 204, path);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    for (const header of ['Range', 'If-Range', 'If-None-Match', 'If-Modified-Since']) {
      assert.match(res.headers.get('access-control-allow-headers'), new RegExp(header));
    }
  }
});
