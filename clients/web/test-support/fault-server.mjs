// A real static server with faults on demand, for the pack library tests (JS and Swift):
//   node clients/web/test-support/fault-server.mjs --root DIR [--delay-ms N]
// starts Debian's nginx (config, pid and logs in a temporary prefix; 127.0.0.1; a free port; `etag on`; no gzip;
// docs/HOSTING.md's CORS and caching policy, with .gz/.delta/.sqlite served as application/octet-stream)
// serving DIR, and in front of it a fault-injecting HTTP proxy (node:http) on another free port. Prints one JSON
// line to stdout, {"proxy":"http://127.0.0.1:P","nginx":"http://127.0.0.1:N"}, then runs until stdin closes or
// SIGTERM/SIGINT arrives, stops nginx and exits 0. Exits 1 with a message on stderr when nginx is missing or does
// not start. `--delay-ms N` (option `delayMs`; default 0) holds every proxied request N milliseconds before it goes
// to nginx, a network's round trip (the control endpoints are not delayed); in-process, option `config(prefix,
// root, port)` replaces the nginx.conf written (bench-install.mjs uses docs/HOSTING.md's block, hosting.mjs).
//
// Control endpoints (on the proxy):
//   PUT /__faults          JSON array of rules; replaces the list       DELETE /__faults  clears it
//   GET /__log             JSON array of the proxied requests            DELETE /__log     clears it
//   POST /__stop-upstream  stops nginx (requests then fail as a refused connection would)
//   POST /__start-upstream starts nginx again on the same port
// A rule: {"path": substring of the URL path, "fault": F, "at": byte offset (default half the body),
//          "times": requests affected (default all), "status": for `status`, "file": for `replace`}, F one of
//   cut       headers (the real Content-Length) and `at` bytes, then the socket is destroyed
//   truncate  the first `at` bytes only, Content-Length set to that (short but clean)
//   flip      the byte at `at` XOR 0xFF (same length)
//   stall     headers and `at` bytes, then nothing (the socket stays open until the client gives up)
//   encoding  the upstream bytes unchanged with `Content-Encoding: gzip` added
//   status    `status` (404, 500, …) with an empty body
//   replace   the bytes of `file` instead (e.g. an older signed catalog), 200, with a different ETag
// Range, If-Range, If-None-Match and If-Modified-Since pass through to nginx and its status (206/304/200) passes
// back; body faults apply to the (possibly partial) body the client receives. Only the first matching rule with
// requests left applies; a body fault on an empty body (a 304, a HEAD) passes through and is not counted.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** What nginx adds to every response (docs/HOSTING.md), added to the responses the proxy makes itself. */
const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag, Last-Modified, Content-Length, Content-Range, Content-Encoding, Accept-Ranges' };
const bodyFaults = new Set(['cut', 'truncate', 'flip', 'stall', 'encoding']);
const allFaults = new Set([...bodyFaults, 'status', 'replace']);

/** The nginx executable: $NGINX, else the first of the usual Debian places that exists, else undefined. */
export function findNginx() {
  const candidates = [process.env.NGINX, '/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'];
  return candidates.find((p) => p && existsSync(p));
}

/** A free TCP port on 127.0.0.1 (bound, read and released; nginx takes it right after). */
export function freePort() {
  return new Promise((ok, fail) => {
    const server = createNetServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

/** Resolves once something accepts connections on the port, rejects after `ms` milliseconds. */
export async function waitForPort(port, ms = 5000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const open = await new Promise((ok) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); ok(true); });
      socket.once('error', () => ok(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await new Promise((ok) => setTimeout(ok, 25));
  }
}

const exposed = 'ETag, Last-Modified, Content-Length, Content-Range, Content-Encoding, Accept-Ranges';
const preflight = `if ($request_method = OPTIONS) {
        add_header Access-Control-Allow-Origin "*";
        add_header Access-Control-Allow-Methods "GET, HEAD, OPTIONS";
        add_header Access-Control-Allow-Headers "Range, If-Range, If-None-Match, If-Modified-Since";
        add_header Access-Control-Max-Age 86400;
        return 204;
      }`;

function nginxConfig(prefix, root, port) {
  // As root, nginx would hand requests to `nobody`, who cannot read a private temporary folder.
  const user = process.getuid?.() === 0 ? 'user root root;\n' : '';
  return `${user}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  types {
    application/json json;
    application/octet-stream gz delta sqlite;
    text/html html;
    text/javascript js mjs;
    text/css css;
    image/svg+xml svg;
  }
  default_type application/octet-stream;
  sendfile on;
  etag on;
  gzip off;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    # docs/HOSTING.md's policy: CORS for any origin (Capacitor's included), validators exposed, preflights for the
    # conditional and range headers the libraries send, no-cache for what changes, immutable for versioned files.
    # (add_header is not allowed in a server-level "if", so each location answers preflights itself.)
    location ~ /catalog\.json$|/manifest\.json$|/copy/ {
      ${preflight}
      add_header Cache-Control "no-cache" always;
      add_header Access-Control-Allow-Origin "*" always;
      add_header Access-Control-Expose-Headers "${exposed}" always;
    }
    location ~ \.(gz|delta)$|-[0-9]+\.manifest\.json$ {
      ${preflight}
      add_header Cache-Control "public, max-age=31536000, immutable" always;
      add_header Access-Control-Allow-Origin "*" always;
      add_header Access-Control-Expose-Headers "${exposed}" always;
    }
    location / {
      ${preflight}
      add_header Access-Control-Allow-Origin "*" always;
      add_header Access-Control-Expose-Headers "${exposed}" always;
    }
  }
}
`;
}

/**
 * Starts nginx and the proxy. Resolves to { proxy, nginx, stop() } (URLs without a trailing slash); rejects when
 * nginx is missing or does not start. Used in-process by the JS tests and by the command line entry below.
 */
export async function startFaultServer({ root, delayMs = 0, config = nginxConfig }) {
  const nginxPath = findNginx();
  if (!nginxPath) throw new Error('nginx not found (install Debian\'s nginx-light; scripts/install-deps.sh --tests)');
  const docRoot = resolve(root);
  const prefix = mkdtempSync(join(tmpdir(), 'citypack-fault-'));
  mkdirSync(join(prefix, 'tmp'));
  const nginxPort = await freePort();
  writeFileSync(join(prefix, 'nginx.conf'), config(prefix, docRoot, nginxPort));

  let nginx; // the running child, or undefined while stopped
  async function startNginx() {
    if (nginx) return;
    const child = spawn(nginxPath, ['-p', prefix, '-e', join(prefix, 'error.log'), '-c', join(prefix, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const exited = new Promise((ok) => child.once('exit', (code) => ok(code)));
    nginx = child;
    child.once('exit', () => { if (nginx === child) nginx = undefined; });
    const started = await Promise.race([waitForPort(nginxPort).then(() => true), exited.then(() => false)]);
    if (!started) {
      let log = '';
      try { log = readFileSync(join(prefix, 'error.log'), 'utf8'); } catch { /* none written */ }
      throw new Error(`nginx did not start: ${stderr}${log}`.trim());
    }
  }
  async function stopNginx() {
    const child = nginx;
    if (!child) return;
    nginx = undefined;
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill('SIGTERM'); // fast shutdown: open connections are closed
    await exited;
  }

  let rules = [];
  let log = [];
  const openSockets = new Set();

  function matchRule(path) {
    return rules.find((r) => path.includes(r.path ?? '') && (r.times === undefined || r.times > 0));
  }
  function consume(rule) {
    if (rule.times !== undefined) rule.times -= 1;
  }

  async function readBody(req) {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    return Buffer.concat(chunks);
  }

  async function control(req, res, path) {
    const reply = (status, value) => {
      const body = value === undefined ? '' : JSON.stringify(value);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    };
    if (path === '/__faults' && req.method === 'PUT') {
      let parsed;
      try { parsed = JSON.parse((await readBody(req)).toString('utf8')); } catch (e) { return reply(400, { error: `not JSON: ${e.message}` }); }
      if (!Array.isArray(parsed)) return reply(400, { error: 'expected a JSON array of rules' });
      const bad = parsed.find((r) => !allFaults.has(r?.fault));
      if (bad) return reply(400, { error: `unknown fault ${JSON.stringify(bad?.fault)}` });
      rules = parsed.map((r) => ({ ...r }));
      return reply(200, rules);
    }
    if (path === '/__faults' && req.method === 'DELETE') { rules = []; return reply(200, []); }
    if (path === '/__faults' && req.method === 'GET') return reply(200, rules);
    if (path === '/__log' && req.method === 'GET') return reply(200, log);
    if (path === '/__log' && req.method === 'DELETE') { log = []; return reply(200, []); }
    if (path === '/__stop-upstream' && req.method === 'POST') { await stopNginx(); return reply(200, { upstream: 'stopped' }); }
    if (path === '/__start-upstream' && req.method === 'POST') {
      try { await startNginx(); } catch (e) { return reply(500, { error: e.message }); }
      return reply(200, { upstream: 'started' });
    }
    return reply(404, { error: `no control endpoint ${req.method} ${path}` });
  }

  function record(req, path, status, bytes) {
    const h = req.headers;
    log.push({ method: req.method, path, range: h.range ?? null, ifRange: h['if-range'] ?? null, ifNoneMatch: h['if-none-match'] ?? null, ifModifiedSince: h['if-modified-since'] ?? null, status, bytes });
  }

  async function proxied(req, res, path) {
    if (delayMs > 0) await new Promise((ok) => setTimeout(ok, delayMs));
    const rule = matchRule(path);
    if (rule?.fault === 'status') {
      consume(rule);
      const status = Number(rule.status ?? 500);
      res.writeHead(status, { 'content-length': 0, ...cors }).end();
      return record(req, path, status, 0);
    }
    if (rule?.fault === 'replace') {
      consume(rule);
      let body;
      try { body = readFileSync(resolve(rule.file)); } catch (e) { res.writeHead(500).end(); return record(req, path, 500, 0); }
      const etag = `"replaced-${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
      const type = path.endsWith('.json') ? 'application/json' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, 'content-length': body.length, etag, 'last-modified': new Date(0).toUTCString(), ...cors });
      res.end(req.method === 'HEAD' ? undefined : body);
      return record(req, path, 200, req.method === 'HEAD' ? 0 : body.length);
    }

    const headers = { ...req.headers, host: `127.0.0.1:${nginxPort}`, connection: 'close' };
    const upstream = await new Promise((ok) => {
      const up = request({ host: '127.0.0.1', port: nginxPort, method: req.method, path: req.url, headers }, (r) => ok({ r }));
      up.once('error', (error) => ok({ error }));
      req.pipe(up);
    });
    if (upstream.error) {
      // The server is gone: the client sees its connection dropped, as with a refused one.
      record(req, path, 0, 0);
      req.socket.destroy();
      return;
    }
    const up = upstream.r;
    const body = await readBody(up);
    const out = { ...up.headers };
    delete out.connection;
    delete out['keep-alive'];
    delete out['transfer-encoding'];
    const apply = rule && bodyFaults.has(rule.fault) && (rule.fault === 'encoding' || body.length > 0);
    if (!apply) {
      if (req.method !== 'HEAD') out['content-length'] = body.length; // HEAD keeps the upstream's
      res.writeHead(up.statusCode, out).end(body);
      return record(req, path, up.statusCode, body.length);
    }
    consume(rule);
    const at = Math.max(0, Math.min(body.length, Number.isInteger(rule.at) ? rule.at : Math.floor(body.length / 2)));
    switch (rule.fault) {
      case 'cut': {
        out['content-length'] = body.length;
        res.writeHead(up.statusCode, out);
        res.write(body.subarray(0, at), () => setTimeout(() => res.socket?.destroy(), 20));
        return record(req, path, up.statusCode, at);
      }
      case 'truncate': {
        out['content-length'] = at;
        res.writeHead(up.statusCode, out).end(body.subarray(0, at));
        return record(req, path, up.statusCode, at);
      }
      case 'flip': {
        const copy = Buffer.from(body);
        if (at < copy.length) copy[at] ^= 0xff;
        out['content-length'] = copy.length;
        res.writeHead(up.statusCode, out).end(copy);
        return record(req, path, up.statusCode, copy.length);
      }
      case 'stall': {
        out['content-length'] = body.length;
        res.writeHead(up.statusCode, out);
        res.write(body.subarray(0, at));
        return record(req, path, up.statusCode, at);
      }
      case 'encoding': {
        out['content-encoding'] = 'gzip';
        out['content-length'] = body.length;
        res.writeHead(up.statusCode, out).end(body);
        return record(req, path, up.statusCode, body.length);
      }
    }
  }

  const proxyServer = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const handler = path.startsWith('/__') ? control : proxied;
    handler(req, res, path).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e?.stack ?? e));
      else res.socket?.destroy();
    });
  });
  proxyServer.on('connection', (s) => { openSockets.add(s); s.once('close', () => openSockets.delete(s)); });

  try {
    await startNginx();
  } catch (e) {
    rmSync(prefix, { recursive: true, force: true });
    throw e;
  }
  await new Promise((ok) => proxyServer.listen(0, '127.0.0.1', ok));
  const proxyPort = proxyServer.address().port;

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    for (const s of openSockets) s.destroy();
    await new Promise((ok) => proxyServer.close(ok));
    await stopNginx();
    rmSync(prefix, { recursive: true, force: true });
  }
  return { proxy: `http://127.0.0.1:${proxyPort}`, nginx: `http://127.0.0.1:${nginxPort}`, stop };
}

/**
 * Runs the command line server as a child process (the way the Swift tests do). Resolves to { proxy, nginx,
 * stop() }; stop() closes its stdin and waits for it to exit.
 */
export async function spawnFaultServer({ root, delayMs = 0 }) {
  const delay = delayMs > 0 ? ['--delay-ms', String(delayMs)] : [];
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--root', root, ...delay], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const line = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) ok(out.slice(0, nl));
    });
    child.once('exit', (code) => fail(new Error(`fault server exited ${code}: ${stderr}`)));
  });
  const urls = JSON.parse(line);
  const exited = new Promise((ok) => child.once('exit', (code) => ok(code)));
  return { ...urls, child, stop: async () => { child.stdin.end(); return exited; } };
}

if (process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const i = process.argv.indexOf('--root');
  const root = i > 0 ? process.argv[i + 1] : undefined;
  const d = process.argv.indexOf('--delay-ms');
  const delayMs = d > 0 ? Number(process.argv[d + 1]) : 0;
  if (!root || !(Number.isFinite(delayMs) && delayMs >= 0)) {
    process.stderr.write('usage: node fault-server.mjs --root DIR [--delay-ms N]\n');
    process.exit(64);
  }
  let server;
  try {
    server = await startFaultServer({ root, delayMs });
  } catch (e) {
    process.stderr.write(`fault-server: ${e.message}\n`);
    process.exit(1);
  }
  process.stdout.write(JSON.stringify({ proxy: server.proxy, nginx: server.nginx }) + '\n');
  let stopping = false;
  const finish = async () => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    process.exit(0);
  };
  process.stdin.on('end', finish);
  process.stdin.on('close', finish);
  process.stdin.resume();
  process.on('SIGTERM', finish);
  process.on('SIGINT', finish);
}

// Not used by the server itself; kept so a quick `node -e` can check for nginx the way the tests do.
export const nginxAvailable = () => findNginx() !== undefined && spawnSync(findNginx(), ['-v']).status === 0;
