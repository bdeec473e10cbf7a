// Benchmark of a city's first download over HTTP, by both pack libraries: the web one (library.js `PackLibrary`,
// in Node, in-memory storage, default concurrency) and the Swift one (CityPackKit's, through `citypack install`).
//
//   node clients/web/bench-install.mjs --site SITE --city CITY [--delay-ms 100] [--runs 5] [--citypack PATH]
//                                      [--public-key FILE.pub] [--json]
//
// SITE is a folder written by `citypack publish OUTPUT --site SITE`. It is served by Debian's nginx configured with
// docs/HOSTING.md's ```nginx block as written (test-support/hosting.mjs: JSON gzip-compressed in transit, ETag,
// CORS), behind test-support/fault-server.mjs's proxy holding every request --delay-ms before passing it on (a
// network's round trip; default 100). Both run on free loopback ports with their files in a temporary folder, and
// are stopped and removed at the end. Each run is a first download into an empty store, timed from the request
// for catalog.json until the city is installed and open: for the web library refresh(), download(city) and
// open(city) in this process; for the Swift one a `citypack install CATALOG CITY --store NEW` process to its exit
// 0 (the city on disk at the catalog's version, verified; checked afterwards, untimed, with `citypack installed`).
// The runs alternate (web, Swift, web, …). Printed: each run and the median per client, the requests each made and
// the bytes of the response bodies as the proxy sent them (JSON compressed as nginx sent it), the ratios web/Swift,
// and how long starting the citypack process alone takes (`citypack --version`; part of the Swift figures). No
// figure is checked against a target. Usage errors exit 64, a missing site, city, binary or key 66, other failures 1.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { MemoryStore, PackLibrary } from './library.js';
import { findNginx, startFaultServer } from './test-support/fault-server.mjs';
import { hostingConfig } from './test-support/hosting.mjs';
import { citypackBinary } from './test-support/support.mjs';

const tool = 'bench-install.mjs';
const usage = 'usage: node clients/web/bench-install.mjs --site SITE --city CITY [--delay-ms 100] [--runs 5] [--citypack PATH] [--public-key FILE.pub] [--json]';
const run = promisify(execFile);

function exit(message, code) {
  console.error(message);
  process.exit(code);
}

// --- Arguments -------------------------------------------------------------------------------------------------

const valued = new Set(['--site', '--city', '--delay-ms', '--runs', '--citypack', '--public-key']);
const options = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--json') options.json = true;
  else if (a === '-h' || a === '--help') { console.log(usage); process.exit(0); }
  else if (valued.has(a) && i + 1 < argv.length && !argv[i + 1].startsWith('--')) options[a.slice(2)] = argv[++i];
  else exit(usage, 64);
}
if (!options.site || !options.city) exit(usage, 64);
const delayMs = options['delay-ms'] === undefined ? 100 : Number(options['delay-ms']);
if (!(Number.isFinite(delayMs) && delayMs >= 0)) exit(`${tool}: error: --delay-ms needs a number of milliseconds ≥ 0, not ${options['delay-ms']}`, 64);
const runs = options.runs === undefined ? 5 : Number(options.runs);
if (!(Number.isInteger(runs) && runs >= 1)) exit(`${tool}: error: --runs needs a whole number ≥ 1, not ${options.runs}`, 64);

const site = resolve(options.site);
const catalogPath = join(site, 'catalog.json');
if (!existsSync(catalogPath)) exit(`${tool}: error: ${catalogPath}: no such file (write a site with citypack publish OUTPUT --site SITE)`, 66);
let catalog;
try {
  catalog = JSON.parse(readFileSync(catalogPath, 'utf8'));
} catch (e) {
  exit(`${tool}: error: ${catalogPath}: not a catalog (${e.message})`, 1);
}
const city = options.city;
const entry = catalog.packs?.find((p) => p.id === city);
if (!entry) exit(`${tool}: error: ${catalogPath} lists no city ${city} (it lists: ${(catalog.packs ?? []).map((p) => p.id).join(', ') || 'none'})`, 66);
let binary;
try {
  binary = resolve(options.citypack ?? citypackBinary());
} catch (e) {
  exit(`${tool}: error: ${e.message}`, 66);
}
if (!existsSync(binary)) exit(`${tool}: error: ${binary}: no such file (the citypack binary; swift build makes it)`, 66);
let publicKey;
if (options['public-key']) {
  if (!existsSync(options['public-key'])) exit(`${tool}: error: ${options['public-key']}: no such file (a public key from citypack keygen)`, 66);
  publicKey = readFileSync(options['public-key'], 'utf8').trim();
}
if (!findNginx()) exit(`${tool}: error: needs nginx (Debian nginx-light; scripts/install-deps.sh --tests)`, 1);

// --- Measuring -------------------------------------------------------------------------------------------------

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

let server;
const work = mkdtempSync(join(tmpdir(), 'citypack-bench-install-'));
let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  await server?.stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
}
async function fail(error) {
  const message = error && typeof error === 'object' && 'message' in error ? error.message : String(error);
  console.error(`${tool}: error: ${message.split('\n')[0]}`);
  await cleanUp();
  process.exit(1);
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) process.on(signal, () => cleanUp().then(() => process.exit(code)));

/** The proxy's log since the last call: requests and body bytes sent. */
async function traffic() {
  const log = await (await fetch(`${server.proxy}/__log`)).json();
  await (await fetch(`${server.proxy}/__log`, { method: 'DELETE' })).arrayBuffer();
  return { requests: log.length, bytes: log.reduce((n, e) => n + e.bytes, 0) };
}

let concurrency;
async function webRun() {
  const library = new PackLibrary({ catalogURL: `${server.proxy}/catalog.json`, storage: new MemoryStore(), publicKey });
  concurrency = library.concurrency;
  const t0 = performance.now();
  await library.refresh();
  const state = await library.download(city);
  const t1 = performance.now();
  if (state?.kind !== 'on_disk') throw new Error(`the web library's download of ${city} ended ${state?.kind}${state?.reason ? ` (${state.reason}: ${state.message})` : ''}`);
  const pack = await library.open(city);
  const t2 = performance.now();
  if (typeof pack?.search !== 'function') throw new Error(`the web library's open(${city}) gave no pack`);
  return { ms: t2 - t0, downloadMs: t1 - t0, openMs: t2 - t1, ...(await traffic()) };
}

async function swiftRun(n) {
  const store = join(work, `store-${n}`);
  const args = ['install', `${server.proxy}/catalog.json`, city, '--store', store, '--format', 'json'];
  if (options['public-key']) args.push('--public-key', resolve(options['public-key']));
  const t0 = performance.now();
  const result = await run(binary, args, { maxBuffer: 1 << 24 }).catch((e) => e);
  const ms = performance.now() - t0;
  let report;
  try { report = JSON.parse(result.stdout); } catch { throw new Error(`citypack install exited ${result.code ?? 0}: ${String(result.stderr || result.stdout).trim()}`); }
  if (report.state !== 'on_disk') throw new Error(`citypack install of ${city} ended ${report.state} (${report.reason}: ${report.message})`);
  // Untimed: the store lists the city at the catalog's version.
  const installed = JSON.parse((await run(binary, ['installed', '--store', store, '--format', 'json'])).stdout);
  const mine = installed.installed?.find((c) => c.city === city);
  if (mine?.version !== entry.dataVersion) throw new Error(`citypack installed lists ${city} at version ${mine?.version}, the catalog ${entry.dataVersion}`);
  rmSync(store, { recursive: true, force: true });
  return { ms, ...(await traffic()) };
}

server = await startFaultServer({ root: site, delayMs, config: hostingConfig });
const web = [];
const swift = [];
for (let n = 1; n <= runs; n++) {
  web.push(await webRun());
  swift.push(await swiftRun(n));
}
const starts = [];
for (let n = 0; n < Math.max(3, runs); n++) {
  const t0 = performance.now();
  await run(binary, ['--version']);
  starts.push(performance.now() - t0);
}
await cleanUp();

// --- Figures ---------------------------------------------------------------------------------------------------

const summary = (list, keys) => Object.fromEntries(keys.map((k) => [k, median(list.map((r) => r[k]))]));
const webMedian = summary(web, ['ms', 'downloadMs', 'openMs', 'requests', 'bytes']);
const swiftMedian = summary(swift, ['ms', 'requests', 'bytes']);
// `download` ends with the city installed and opened once from storage (the library opens a new version before it
// switches), as `citypack install` ends with the pack verified and opened: downloadTime compares those two; time adds
// the app's own open(city) after it on the web side.
const ratio = {
  time: webMedian.ms / swiftMedian.ms, downloadTime: webMedian.downloadMs / swiftMedian.ms,
  requests: webMedian.requests / swiftMedian.requests, bytes: webMedian.bytes / swiftMedian.bytes,
};
const result = {
  site, city, version: entry.dataVersion, delayMs, runs, node: process.version,
  web: { concurrency, storage: 'MemoryStore', runs: web, median: webMedian },
  swift: { binary, runs: swift, median: swiftMedian, processStartMs: median(starts) },
  ratio,
};
if (options.json) {
  console.log(JSON.stringify(result));
} else {
  const ms = (x) => `${x.toFixed(0).padStart(6)} ms`;
  const counts = (r) => `${String(r.requests).padStart(4)} requests ${String(r.bytes).padStart(10)} bytes`;
  console.log(`${entry.name ?? city} (${city} version ${entry.dataVersion}), first download from ${site}`);
  console.log(`served by nginx with docs/HOSTING.md's block, behind a proxy adding ${delayMs} ms per request; ${runs} run${runs === 1 ? '' : 's'} each, alternating`);
  console.log(`web    PackLibrary (library.js, Node ${process.version}, MemoryStore, concurrency ${concurrency}): refresh, download, open`);
  web.forEach((r, i) => console.log(`  run ${String(i + 1).padEnd(3)}${ms(r.ms)}  (download ${r.downloadMs.toFixed(0)} ms, open ${r.openMs.toFixed(0)} ms)  ${counts(r)}`));
  console.log(`  median ${ms(webMedian.ms)}  (download ${webMedian.downloadMs.toFixed(0)} ms, open ${webMedian.openMs.toFixed(0)} ms)  ${counts(webMedian)}`);
  console.log(`Swift  citypack install (${binary}), a new process per run`);
  swift.forEach((r, i) => console.log(`  run ${String(i + 1).padEnd(3)}${ms(r.ms)}  ${counts(r)}`));
  console.log(`  median ${ms(swiftMedian.ms)}  ${counts(swiftMedian)}`);
  console.log(`  (starting the process alone: ${result.swift.processStartMs.toFixed(0)} ms median, citypack --version; included above)`);
  console.log(`web/Swift (medians): download ${ratio.downloadTime.toFixed(2)}× (installed and opened once, both), with the app's open ${ratio.time.toFixed(2)}×, requests ${ratio.requests.toFixed(2)}×, bytes ${ratio.bytes.toFixed(2)}×`);
}
