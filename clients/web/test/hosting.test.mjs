// docs/HOSTING.md's nginx block, as written, in Debian's nginx: the policy the page tells hosts to use must load
// and must answer what the pack libraries rely on (no transfer compression on .gz, ranges, revalidation with the
// server's own ETag, CORS preflight for the conditional headers, cache lifetimes per kind of file).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { findNginx, freePort, waitForPort } from '../test-support/fault-server.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const skip = findNginx() ? false : 'needs nginx (Debian nginx-light; scripts/install-deps.sh --tests)';
const prefix = mkdtempSync(join(tmpdir(), 'citypack-hosting-'));
const root = join(prefix, 'outputs');
const pack = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7) % 256));
let nginx;
let base;

/** The ```nginx block of docs/HOSTING.md with a loopback listen and the test's root. */
function documentedServer(port) {
  const text = readFileSync(join(repo, 'docs', 'HOSTING.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(text)?.[1];
  assert.ok(block, 'HOSTING.md has an ```nginx block');
  assert.match(block, /listen 443 ssl;/);
  assert.match(block, /root \/srv\/citypack\/outputs;/);
  return block.replace('listen 443 ssl;', `listen 127.0.0.1:${port};`).replace('root /srv/citypack/outputs;', `root ${root};`);
}

before(async () => {
  if (skip) return;
  mkdirSync(join(root, 'monaco', 'web'), { recursive: true });
  mkdirSync(join(prefix, 'tmp'), { recursive: true });
  writeFileSync(join(root, 'catalog.json'), '{"formatVersion":1,"packs":[]}');
  writeFileSync(join(root, 'monaco', 'manifest.json'), '{"dataVersion":2}');
  writeFileSync(join(root, 'monaco', 'monaco-2.manifest.json'), '{"dataVersion":2}');
  writeFileSync(join(root, 'monaco', 'monaco-2.citypack.gz'), pack);
  writeFileSync(join(root, 'monaco', 'web', 'rows-0123456789abcdef.json.gz'), pack.subarray(0, 500));
  const port = await freePort();
  const user = process.getuid?.() === 0 ? 'user root root;\n' : '';
  const conf = `${user}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
${documentedServer(port)}
}
`;
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

test('a pack arrives as written: no Content-Encoding even when the client accepts gzip; immutable', { skip }, async () => {
  const res = await fetch(`${base}/monaco/monaco-2.citypack.gz`, { headers: { 'accept-encoding': 'gzip, br' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-encoding'), null);
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.match(res.headers.get('access-control-expose-headers'), /ETag/);
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), pack);
  const web = await fetch(`${base}/monaco/web/rows-0123456789abcdef.json.gz`);
  assert.equal(web.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  await web.arrayBuffer();
  const versioned = await fetch(`${base}/monaco/monaco-2.manifest.json`);
  assert.equal(versioned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(versioned.headers.get('content-type'), 'application/json');
  await versioned.arrayBuffer();
});

test('a dropped download resumes: 206 for Range with the right If-Range, 200 for a changed validator', { skip }, async () => {
  const whole = await fetch(`${base}/monaco/monaco-2.citypack.gz`);
  const etag = whole.headers.get('etag');
  await whole.arrayBuffer();
  const part = await fetch(`${base}/monaco/monaco-2.citypack.gz`, { headers: { range: 'bytes=1000-', 'if-range': etag } });
  assert.equal(part.status, 206);
  assert.deepEqual(Buffer.from(await part.arrayBuffer()), pack.subarray(1000));
  const changed = await fetch(`${base}/monaco/monaco-2.citypack.gz`, { headers: { range: 'bytes=1000-', 'if-range': '"elsewhere"' } });
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
  for (const path of ['/catalog.json', '/monaco/monaco-2.citypack.gz']) {
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
