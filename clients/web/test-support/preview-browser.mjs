// `citypack preview` in a real headless browser, driven through the DevTools protocol over a pipe
// (chromium --remote-debugging-pipe: NUL-separated JSON on file descriptors 3 and 4; no WebSocket needed).
//
//   node clients/web/test-support/preview-browser.mjs
//
// Starts `citypack preview` ($CITYPACK_BIN, else .build/release/citypack, else .build/debug/citypack) on a temporary
// copy of inputs/monaco with --port 0, opens the printed URL in chromium ($CHROMIUM, else Debian's), then edits the
// city's sources the way an editor saves (write a temporary file, rename it over the original) and checks that the
// page follows without a reload: a renamed POI's new name appears in the search results, then a new error (a walking
// route waypoint naming an unknown POI) appears in the problem list while the last good pack stays open. It prints
// the time from each save to the page showing it, and the path of a screenshot. Exits non-zero on any failure.
// Tests/CityPackCLITests/PreviewTests.swift runs it under `swift test`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = [process.env.CITYPACK_BIN, join(root, '.build/release/citypack'), join(root, '.build/debug/citypack')].find((p) => p && existsSync(p));
const chromium = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p && existsSync(p));
assert.ok(bin, 'no citypack binary: swift build first, or set CITYPACK_BIN');
assert.ok(chromium, 'needs chromium (apt-get install chromium)');

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
/** Polls `probe` every `every` ms until it returns a truthy value or `seconds` pass (then throws `what`). */
async function until(what, seconds, probe, every = 25) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${seconds} s waiting for ${what}`);
    await sleep(every);
  }
}
/** Writes `bytes` as editors save: a temporary (hidden) file beside it, renamed over the original. */
function save(path, bytes) {
  const temporary = join(dirname(path), `.${basename(path)}.tmp-save`);
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

const work = mkdtempSync(join(tmpdir(), 'citypack-preview-browser-'));
const city = join(work, 'monaco');
cpSync(join(root, 'inputs/monaco'), city, { recursive: true });
const output = join(work, 'outputs');

// 1. The preview, on a free port.
const preview = spawn(bin, ['preview', city, '--output', output, '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
let previewOut = '';
let previewErr = '';
preview.stdout.on('data', (d) => { previewOut += d; });
preview.stderr.on('data', (d) => { previewErr += d; });
let chrome;
const cleanup = () => {
  try { chrome?.kill('SIGKILL'); } catch {}
  try { preview.kill('SIGTERM'); } catch {}
};
process.on('exit', cleanup);

try {
  const [, cityName, url] = await until('the preview URL on stdout', 300, () => /Previewing (.+) at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(previewOut), 50);
  assert.equal(cityName, 'Monaco');

  // 2. Chromium, driven over the pipe.
  const profile = mkdtempSync(join(tmpdir(), 'citypack-preview-chromium-'));
  chrome = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-extensions', `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const [toChrome, fromChrome] = [chrome.stdio[3], chrome.stdio[4]];
  let nextId = 1;
  const waiting = new Map();
  let buffer = '';
  fromChrome.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    let end;
    while ((end = buffer.indexOf('\0')) >= 0) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      const w = message.id && waiting.get(message.id);
      if (w) {
        waiting.delete(message.id);
        message.error ? w.reject(new Error(`${w.method}: ${message.error.message}`)) : w.resolve(message.result);
      }
    }
  });
  // Every call answers within 120 s or fails (a chromium that died must not hang the test).
  const send = (method, params = {}, sessionId) => new Promise((resolveCall, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => { waiting.delete(id); reject(new Error(`${method}: no answer from chromium in 120 s`)); }, 120000);
    waiting.set(id, { resolve: (v) => { clearTimeout(timer); resolveCall(v); }, reject: (e) => { clearTimeout(timer); reject(e); }, method });
    toChrome.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
  });
  const { targetInfos } = await until('a chromium page', 60, () => send('Target.getTargets').then((r) => r.targetInfos.some((t) => t.type === 'page') && r), 100);
  const { sessionId } = await send('Target.attachToTarget', { targetId: targetInfos.find((t) => t.type === 'page').targetId, flatten: true });
  const page = (method, params) => send(method, params, sessionId);
  const evaluate = async (expression) => {
    const r = await page('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  };
  await page('Page.enable');
  await page('Runtime.enable');
  await page('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false });
  await page('Page.navigate', { url });
  await until('the page to show the first build', 90, () => evaluate(`document.body?.dataset.ready === 'true'`), 50);

  // What the first build shows: POIs by category, the two walking routes, the bbox, the warnings with excerpts.
  const first = await evaluate(`({
    build: document.body.dataset.build, packBuild: document.body.dataset.packBuild,
    pois: document.querySelectorAll('#layer-places circle.poi').length,
    categories: new Set([...document.querySelectorAll('#layer-places circle.poi')].map((c) => c.dataset.category)).size,
    routes: document.querySelectorAll('#layer-routes g.route polyline.walk').length,
    bbox: document.querySelectorAll('#layer-bbox rect.bbox').length,
    problems: document.querySelectorAll('#problems li.problem').length,
    excerpts: document.querySelectorAll('#problems li.problem pre.excerpt').length,
    status: document.getElementById('status').className,
  })`);
  assert.equal(first.build, '1');
  assert.equal(first.packBuild, '1');
  assert.ok(first.pois > 300 && first.categories > 10, JSON.stringify(first));
  assert.equal(first.routes, 2, JSON.stringify(first));
  assert.equal(first.bbox, 1);
  assert.ok(first.problems > 5 && first.excerpts === first.problems, JSON.stringify(first));
  assert.equal(first.status, 'passed');

  // Search and nearby are the reader's answers: compare with citypack.js on the same files in Node.
  const { openPack } = await import(join(root, 'clients/web/citypack.js'));
  const nodeFetch = async (href) => fetch(href);
  const reference = await openPack(nodeFetch, `${url}pack/manifest.json`);
  await evaluate(`(() => { document.getElementById('q').value = 'Terrazino'; document.getElementById('search-form').requestSubmit(); })()`);
  const found = await evaluate(`[...document.querySelectorAll('#search-results li')].map((li) => Number(li.dataset.id))`);
  assert.deepEqual(found, reference.search('Terrazino').map((r) => r.id));
  assert.ok(found.length >= 1);
  // A click on the map near the harbour: nearby results, as the reader answers them.
  await evaluate(`(() => {
    const map = document.getElementById('map');
    const r = map.getBoundingClientRect();
    const at = { clientX: r.left + r.width * 0.5, clientY: r.top + r.height * 0.5, bubbles: true, pointerId: 1 };
    map.dispatchEvent(new PointerEvent('pointerdown', at));
    map.dispatchEvent(new PointerEvent('pointerup', at));
  })()`);
  const query = JSON.parse(await evaluate(`document.getElementById('nearby-at').dataset.query ?? 'null'`));
  assert.ok(query, 'the click gave a nearby query');
  const near = await evaluate(`[...document.querySelectorAll('#nearby-results li')].map((li) => Number(li.dataset.id))`);
  assert.deepEqual(near, reference.nearby(query[0], query[1], query[2]).map((r) => r.id));

  // Zoom in and pan a little: the view must survive the rebuilds below.
  await evaluate(`(() => { document.getElementById('zoom-in').click(); document.getElementById('zoom-in').click(); })()`);
  const view = await evaluate('document.body.dataset.view');

  // 3. Rename a POI in the OSM source; search for the new name first (no result yet).
  await evaluate(`(() => { document.getElementById('q').value = 'Zanzibarino'; document.getElementById('search-form').requestSubmit(); })()`);
  assert.equal(await evaluate(`document.querySelectorAll('#search-results li').length`), 0);
  const osmPath = join(city, 'monaco-2021.osm.gz');
  const osm = gunzipSync(readFileSync(osmPath)).toString('utf8');
  assert.equal(osm.split('v="Terrazino"').length, 2, 'one POI named Terrazino');
  const beforeRename = Number(await evaluate('document.body.dataset.build'));
  save(osmPath, gzipSync(osm.replace('v="Terrazino"', 'v="Zanzibarino Preview"')));
  const savedRename = Date.now();
  await until('the renamed POI in the search results', 180, () => evaluate(`[...document.querySelectorAll('#search-results li')].some((li) => li.textContent.includes('Zanzibarino Preview'))`));
  const shownRename = Date.now();
  const rename = await (await fetch(`${url}state.json`)).json();
  assert.ok(rename.build > beforeRename && rename.status === 'passed', JSON.stringify({ build: rename.build, status: rename.status }));
  assert.equal(await evaluate('document.body.dataset.view'), view, 'the map kept its view');
  const packAfterRename = await evaluate('document.body.dataset.packBuild');

  // 4. A new error: a walking-route waypoint naming a POI that does not exist.
  const waypoints = join(city, 'editorial/route_waypoints.csv');
  const csv = readFileSync(waypoints, 'utf8');
  save(waypoints, csv + (csv.endsWith('\n') ? '' : '\n') + 'rocher,6,n999999999,,,,,,,\n');
  const savedError = Date.now();
  const errorItem = await until('the new error in the problem list', 180, () => evaluate(`(() => {
    const li = [...document.querySelectorAll('#problems li.problem.error')].find((li) => li.textContent.includes('n999999999'));
    return li ? { code: li.dataset.code, text: li.textContent, isNew: !!li.querySelector('.new'), excerpt: li.querySelector('pre')?.textContent ?? '' } : null;
  })()`));
  const shownError = Date.now();
  const failed = await (await fetch(`${url}state.json`)).json();
  assert.equal(failed.status, 'failed');
  assert.ok(errorItem.isNew, JSON.stringify(errorItem));
  assert.match(errorItem.text, /route_waypoints\.csv:\d+/);
  assert.match(errorItem.excerpt, /n999999999/);
  // The last good pack stays: same pack, the renamed POI still found, the map still drawn, the status says so.
  assert.equal(await evaluate('document.body.dataset.packBuild'), packAfterRename);
  assert.ok(await evaluate(`[...document.querySelectorAll('#search-results li')].some((li) => li.textContent.includes('Zanzibarino Preview'))`));
  assert.ok((await evaluate(`document.querySelectorAll('#layer-places circle.poi').length`)) > 300);
  assert.match(await evaluate(`document.getElementById('pack-note').textContent`), /last good pack/);
  assert.equal(await evaluate('document.body.dataset.view'), view, 'the map kept its view');

  // 5. Clicking a problem that has a place moves the map there.
  const placed = await evaluate(`(() => { const li = document.querySelector('#problems li.problem.placed'); if (!li) return null; li.click(); return [Number(li.dataset.lat), Number(li.dataset.lon)]; })()`);
  assert.ok(placed, 'a problem with a place on the map');
  assert.equal(await evaluate('document.body.dataset.focus'), `${placed[0]},${placed[1]}`);
  // Bring the new error back into view for the screenshot.
  await evaluate(`[...document.querySelectorAll('#problems li.problem.error')].find((li) => li.textContent.includes('n999999999')).scrollIntoView()`);

  const shot = await page('Page.captureScreenshot', { format: 'png' });
  const png = join(process.env.CITYPACK_SCREENSHOT_DIR ?? work, 'citypack-preview.png');
  writeFileSync(png, Buffer.from(shot.data, 'base64'));

  const after = (state, shown) => `${shown - state.finishedAt} ms after the rebuild ended (state ready after ${state.publishedAt - state.finishedAt} ms)`;
  console.log(`PREVIEW save→page (renamed POI in the search results): ${shownRename - savedRename} ms; rebuild ${rename.seconds.toFixed(2)} s; page updated ${after(rename, shownRename)}`);
  console.log(`PREVIEW save→page (new error in the problem list [${errorItem.code}]): ${shownError - savedError} ms; rebuild ${failed.seconds.toFixed(2)} s; page updated ${after(failed, shownError)}`);
  console.log(`PREVIEW screenshot: ${png}`);
  // Generous bounds for a loaded 2-core machine; the figures above are the measurement.
  assert.ok(!rename.finishedAt || shownRename - rename.finishedAt < 10000, 'the page followed the rebuild within 10 s');
  assert.ok(!failed.finishedAt || shownError - failed.finishedAt < 10000, 'the page followed the rebuild within 10 s');

  // 6. SIGTERM stops the preview cleanly.
  preview.kill('SIGTERM');
  const code = await until('the preview to exit', 60, () => (preview.exitCode != null ? { code: preview.exitCode } : null), 50);
  assert.equal(code.code, 0, previewErr.slice(-2000));
  console.log('PREVIEW ok');
  process.exit(0);
} catch (e) {
  console.error(`FAILED: ${e.stack ?? e}`);
  console.error(`--- citypack preview stderr (last 3000 chars):\n${previewErr.slice(-3000)}`);
  process.exit(1);
}
