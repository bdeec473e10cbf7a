// The demo page in a real headless browser: served from a local static server, it opens the Monaco web pack,
// runs a nearby query and a search from its URL parameters, and renders the same results as citypack query.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { buildCity, swiftQuery } from '../test-support/support.mjs';
import { serve } from '../test-support/serve.mjs';

const chromium = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p && existsSync(p));

async function dumpDOM(url) {
  assert.ok(chromium, 'needs chromium (apt-get install chromium; .ci/run installs it)');
  const profile = mkdtempSync(join(tmpdir(), 'citypack-web-chromium-'));
  const { stdout } = await promisify(execFile)(
    chromium,
    ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-extensions', `--user-data-dir=${profile}`, '--virtual-time-budget=20000', '--dump-dom', url],
    { timeout: 90000, maxBuffer: 1 << 26 },
  );
  return stdout;
}

const ids = (html, list) => {
  const section = html.split(`<ol id="${list}">`)[1]?.split('</ol>')[0] ?? '';
  return [...section.matchAll(/<li data-id="(\d+)"/g)].map((m) => Number(m[1]));
};

test('demo.html shows nearby POIs and search results in headless chromium', { skip: chromium ? false : 'needs chromium (apt-get install chromium; .ci/run installs it)' }, async () => {
  const monaco = buildCity('monaco');
  const { server, url } = await serve(monaco.output);
  try {
    const page = `${url}/client/demo.html?manifest=/pack/monaco/manifest.json&lat=43.7384&lon=7.4246&radius=100&q=pharmacie&locale=fr`;
    const html = await dumpDOM(page);
    assert.match(html, /<body data-ready="true">/, html.slice(0, 3000));
    assert.match(html, /<output id="status">Monaco: \d+ places, opened in \d+ ms/);
    const nearby = (await swiftQuery(monaco.database, ['--near', '43.7384,7.4246', '--radius', '100'])).results;
    const search = (await swiftQuery(monaco.database, ['--search', 'pharmacie', '--locale', 'fr'])).results;
    assert.ok(nearby.length > 3 && search.length > 3);
    assert.deepEqual(ids(html, 'nearby-results'), nearby.map((r) => r.id));
    assert.deepEqual(ids(html, 'search-results'), search.map((r) => r.id));
    // The rendered text: distance and the name in the page's locale.
    assert.ok(html.includes(`${nearby[0].distance_m.toFixed(1)} m · ${nearby[0].name}`));
    // A click on the map (synthetic, at a point near the harbour): the page turns it into a position and lists
    // what Swift lists there.
    const clicked = await dumpDOM(`${url}/client/demo.html?manifest=/pack/monaco/manifest.json&radius=150&click=43.7347,7.4206`);
    const query = /<small id="nearby-at" data-query="([^"]+)"/.exec(clicked);
    assert.ok(query, clicked.slice(0, 3000));
    const [lat, lon, radius] = JSON.parse(query[1].replaceAll('&quot;', '"'));
    // Mouse events carry whole CSS pixels: the position is the clicked one to within a pixel or two.
    assert.ok(Math.abs(lat - 43.7347) < 2e-3 && Math.abs(lon - 7.4206) < 2e-3, `clicked at ${lat},${lon}`);
    const atClick = (await swiftQuery(monaco.database, ['--near', `${lat},${lon}`, '--radius', String(radius)])).results;
    assert.ok(atClick.length > 0);
    assert.deepEqual(ids(clicked, 'nearby-results'), atClick.map((r) => r.id));
  } finally {
    server.close();
  }
});
