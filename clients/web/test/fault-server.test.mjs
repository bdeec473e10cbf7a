// The fault server (test-support/fault-server.mjs) as the Swift and browser tests use it: started as a child
// process, every fault once through Node's fetch, then a clean stop.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { findNginx, spawnFaultServer } from '../test-support/fault-server.mjs';

const skip = findNginx() ? false : 'needs nginx (Debian nginx-light; scripts/install-deps.sh --tests)';
const dir = mkdtempSync(join(tmpdir(), 'citypack-fault-test-'));
const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
writeFileSync(join(dir, 'part.json.gz'), body);
writeFileSync(join(dir, 'catalog.json'), '{"v":2}');
writeFileSync(join(dir, 'old.json'), '{"v":1}');
let server;

before(async () => { if (!skip) server = await spawnFaultServer({ root: dir }); });
after(async () => {
  if (server) assert.equal(await server.stop(), 0, 'the fault server exits 0 when its stdin closes');
  rmSync(dir, { recursive: true, force: true });
});

const faults = (rules) => fetch(`${server.proxy}/__faults`, { method: 'PUT', body: JSON.stringify(rules) }).then((r) => assert.equal(r.status, 200));

test('passes through nginx: types, ETag, Range with If-Range, conditional requests, no gzip', { skip }, async () => {
  await fetch(`${server.proxy}/__log`, { method: 'DELETE' });
  const whole = await fetch(`${server.proxy}/part.json.gz`, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get('content-type'), 'application/octet-stream');
  assert.equal(whole.headers.get('content-encoding'), null);
  assert.deepEqual(Buffer.from(await whole.arrayBuffer()), body);
  const etag = whole.headers.get('etag');
  assert.match(etag, /^"/);
  const part = await fetch(`${server.proxy}/part.json.gz`, { headers: { range: 'bytes=600-', 'if-range': etag } });
  assert.equal(part.status, 206);
  assert.deepEqual(Buffer.from(await part.arrayBuffer()), body.subarray(600));
  const stale = await fetch(`${server.proxy}/part.json.gz`, { headers: { range: 'bytes=600-', 'if-range': '"other"' } });
  assert.equal(stale.status, 200, 'a changed validator restarts with the whole file');
  await stale.arrayBuffer();
  const json = await fetch(`${server.proxy}/catalog.json`);
  assert.equal(json.headers.get('content-type'), 'application/json');
  const again = await fetch(`${server.proxy}/catalog.json`, { headers: { 'if-none-match': json.headers.get('etag') } });
  assert.equal(again.status, 304);
  const log = await (await fetch(`${server.proxy}/__log`)).json();
  assert.deepEqual(log.map((e) => [e.path, e.status, e.bytes]), [['/part.json.gz', 200, 1000], ['/part.json.gz', 206, 400], ['/part.json.gz', 200, 1000], ['/catalog.json', 200, 7], ['/catalog.json', 304, 0]]);
  assert.equal(log[1].range, 'bytes=600-');
  assert.equal(log[1].ifRange, etag);
  assert.equal(log[4].ifNoneMatch, json.headers.get('etag'));
});

test('cut: real Content-Length, `at` bytes, then the connection drops', { skip }, async () => {
  await faults([{ path: 'part', fault: 'cut', at: 300, times: 1 }]);
  const res = await fetch(`${server.proxy}/part.json.gz`);
  assert.equal(res.headers.get('content-length'), '1000');
  await assert.rejects(res.arrayBuffer());
  const next = await fetch(`${server.proxy}/part.json.gz`);
  assert.equal((await next.arrayBuffer()).byteLength, 1000, 'times: 1 affects one request only');
});

test('truncate: a short but clean response', { skip }, async () => {
  await faults([{ path: 'part', fault: 'truncate' }]);
  const res = await fetch(`${server.proxy}/part.json.gz`);
  assert.equal(res.headers.get('content-length'), '500');
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), body.subarray(0, 500));
});

test('flip: one byte XOR 0xFF, same length', { skip }, async () => {
  await faults([{ path: 'part', fault: 'flip', at: 10 }]);
  const got = Buffer.from(await (await fetch(`${server.proxy}/part.json.gz`)).arrayBuffer());
  assert.equal(got.length, 1000);
  assert.deepEqual([...got].map((b, i) => (b === body[i] ? 0 : i)).filter(Boolean), [10]);
});

test('stall: headers and `at` bytes, then silence', { skip }, async () => {
  await faults([{ path: 'part', fault: 'stall', at: 100 }]);
  const res = await fetch(`${server.proxy}/part.json.gz`);
  const reader = res.body.getReader();
  let got = 0;
  while (got < 100) got += (await reader.read()).value.length;
  const outcome = await Promise.race([reader.read().then(() => 'more'), new Promise((ok) => setTimeout(() => ok('stalled'), 300))]);
  assert.equal(outcome, 'stalled');
  await reader.cancel();
});

test('encoding: Content-Encoding: gzip added over the stored bytes', { skip }, async () => {
  await faults([{ path: 'part', fault: 'encoding' }]);
  const res = await fetch(`${server.proxy}/part.json.gz`);
  assert.equal(res.headers.get('content-encoding'), 'gzip');
  await assert.rejects(res.arrayBuffer(), 'the stored bytes are not gzip, so a decoding client fails');
});

test('status: the given status with an empty body', { skip }, async () => {
  await faults([{ path: 'part', fault: 'status', status: 404 }, { path: 'catalog', fault: 'status', status: 500 }]);
  assert.equal((await fetch(`${server.proxy}/part.json.gz`)).status, 404);
  assert.equal((await fetch(`${server.proxy}/catalog.json`)).status, 500);
});

test('replace: another file with another ETag', { skip }, async () => {
  const real = await fetch(`${server.proxy}/catalog.json`, { method: 'HEAD' });
  await faults([{ path: 'catalog', fault: 'replace', file: join(dir, 'old.json') }]);
  const res = await fetch(`${server.proxy}/catalog.json`);
  assert.equal(await res.text(), '{"v":1}');
  assert.notEqual(res.headers.get('etag'), real.headers.get('etag'));
});

test('stop and start the upstream: requests fail while it is down', { skip }, async () => {
  await fetch(`${server.proxy}/__faults`, { method: 'DELETE' });
  assert.equal((await fetch(`${server.proxy}/__stop-upstream`, { method: 'POST' })).status, 200);
  await assert.rejects(fetch(`${server.proxy}/catalog.json`));
  assert.equal((await fetch(`${server.proxy}/__start-upstream`, { method: 'POST' })).status, 200);
  assert.equal((await fetch(`${server.proxy}/catalog.json`)).status, 200);
});

test('HEAD keeps the real Content-Length', { skip }, async () => {
  await fetch(`${server.proxy}/__faults`, { method: 'DELETE' });
  const head = await fetch(`${server.proxy}/part.json.gz`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-length'), '1000');
});

test('CORS as docs/HOSTING.md has it: preflight 204 allowing the libraries\' headers, exposed validators', { skip }, async () => {
  const preflight = await fetch(`${server.proxy}/part.json.gz`, { method: 'OPTIONS', headers: { origin: 'capacitor://localhost', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-range, range' } });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
  assert.match(preflight.headers.get('access-control-allow-headers'), /If-Range/);
  const get = await fetch(`${server.proxy}/catalog.json`, { headers: { origin: 'http://localhost' } });
  assert.equal(get.headers.get('access-control-allow-origin'), '*');
  assert.match(get.headers.get('access-control-expose-headers'), /ETag/);
  assert.equal(get.headers.get('cache-control'), 'no-cache');
  const part = await fetch(`${server.proxy}/part.json.gz`);
  assert.match(part.headers.get('cache-control'), /immutable/);
});
