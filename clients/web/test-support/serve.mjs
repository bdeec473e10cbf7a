// A tiny static file server for the demo test (and for trying the demo by hand):
//   node clients/web/test-support/serve.mjs OUTPUT_DIR [PORT]
// serves clients/web at /client/ and OUTPUT_DIR (a build's outputs folder) at /pack/, on 127.0.0.1 only.
import { createServer } from 'node:http';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.gz': 'application/gzip' };

/** Starts the server; resolves to { server, port, url }. */
export function serve(outputDir, port = 0) {
  const roots = { client: resolve(dirname(fileURLToPath(import.meta.url)), '..'), pack: resolve(outputDir) };
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const [, top, ...rest] = path.split('/');
    const root = roots[top];
    const file = root && normalize(join(root, ...rest));
    if (!file || !(file === root || file.startsWith(root + sep))) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      const ext = Object.keys(types).find((e) => file.endsWith(e));
      // Served as stored: the .gz parts are bytes the client verifies and gunzips itself (no Content-Encoding).
      res.writeHead(200, { 'content-type': types[ext] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok({ server, port: server.address().port, url: `http://127.0.0.1:${server.address().port}` })));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // As a command: one line and a non-zero exit for bad input (a missing folder, a bad port, a port in use).
  const fail = (message, code) => {
    console.error(`serve.mjs: error: ${message}`);
    process.exit(code);
  };
  const dir = process.argv[2] ?? 'outputs';
  const port = Number(process.argv[3] ?? 8000);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) fail(`${dir}: no such folder (build a city first: citypack build inputs/<city>)`, 66);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`${process.argv[3]}: not a port number`, 64);
  process.on('uncaughtException', (e) => fail(e.code === 'EADDRINUSE' ? `port ${port} is in use` : e.message, 1));
  const { url } = await serve(dir, port);
  console.log(`${url}/client/demo.html?manifest=/pack/<city>/manifest.json`);
}
