// The example app (clients/web/example/) in headless Chromium against Debian's nginx behind the fault server:
// nothing but catalog.json fetched before a city is picked; install Monaco version 1 through a page reload
// mid-download (the row shows `paused`, Resume goes on without fetching the kept files again); search lists
// the nearest first from the (emulated) device position; publish version 2 (one POI renamed), attempt the update
// through every fault and record
// the state and copy the page shows and that version 1 still opens; then the update with a connection cut
// mid-body (resumed); then the server gone and the browser restarted on the same profile: the app starts from its
// service worker and the installed city opens and answers search offline.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { webFiles } from '../citypack.js';
import { chromiumPath, launchChromium, until } from '../test-support/chromium.mjs';
import { findNginx, spawnFaultServer } from '../test-support/fault-server.mjs';
import { monacoReleases, renamed } from '../test-support/releases.mjs';
import { root } from '../test-support/support.mjs';

const binary = [process.env.CITYPACK_BIN, join(root, '.build/release/citypack'), join(root, '.build/debug/citypack')].some((p) => p && existsSync(p));
const skip = !chromiumPath ? 'needs chromium (apt-get install chromium; .ci/run installs it)'
  : !findNginx() ? 'needs nginx (Debian nginx-light; scripts/install-deps.sh --tests)'
  : !binary ? 'needs the citypack binary (swift build)' : false;

test('example app: install, every fault on update, resume, then offline after a browser restart', { skip, timeout: 180000 }, async () => {
  const releases = monacoReleases();
  releases.publish(1);
  const site = mkdtempSync(join(tmpdir(), 'citypack-site-'));
  symlinkSync(join(root, 'clients/web'), join(site, 'web'));
  symlinkSync(releases.output, join(site, 'packs'));
  const profile = mkdtempSync(join(tmpdir(), 'citypack-chromium-'));
  mkdirSync(join(profile, 'Default'), { recursive: true });
  let server = await spawnFaultServer({ root: site });
  let browser;
  const control = (method, path, body) => fetch(`${server.proxy}${path}`, { method, body: body && JSON.stringify(body) }).then((r) => assert.equal(r.status, 200, `${method} ${path}`));
  const query = new URLSearchParams({ catalog: '../../packs/catalog.json', key: releases.publicKey, stall: '1500', retries: '1', backoff: '50' });
  const appURL = `${server.proxy}/web/example/index.html?${query}`;
  const origin = server.proxy;

  async function start() {
    browser = await launchChromium(profile);
    await browser.send('Browser.grantPermissions', { origin, permissions: ['geolocation'] });
    await browser.page('Emulation.setGeolocationOverride', { latitude: 43.7396, longitude: 7.4275, accuracy: 10 });
    await browser.navigate(appURL);
    await until('the app to be ready', 30, () => browser.evaluate(`document.body?.dataset.ready === 'true'`).catch(() => false));
  }
  const row = () => browser.evaluate(`(() => { const li = document.querySelector('#cities li[data-city="monaco"]');
    return li && { state: li.dataset.state, reason: li.dataset.reason, text: li.querySelector('.state').textContent,
      headline: li.querySelector('.headline')?.textContent ?? null, step: li.querySelector('.step')?.textContent ?? null, detail: li.title }; })()`);
  const settled = (kinds) => until(`monaco in ${kinds}`, 60, async () => { const r = await row(); return r && kinds.includes(r.state) && r; });
  /** Records every state the monaco row shows from now on (window.__states), however fast it changes. */
  const watchStates = () => browser.evaluate(`(() => {
    window.__states = [];
    window.__observer?.disconnect();
    window.__observer = new MutationObserver(() => {
      const s = document.querySelector('#cities li[data-city="monaco"]')?.dataset.state;
      if (s && s !== window.__states.at(-1)) window.__states.push(s);
    });
    window.__observer.observe(document.getElementById('cities'), { childList: true, subtree: true, attributes: true });
  })()`);
  /** Clicks the element once the page shows it: the list renders on the library's events, after its copy tables load
   * (asynchronously), so "ready" can come a moment before the row's button. */
  const click = async (selector) => {
    await until(`${selector} to be shown`, 30, () => browser.evaluate(`document.querySelector(${JSON.stringify(selector)}) != null`));
    await browser.evaluate(`document.querySelector(${JSON.stringify(selector)}).click()`);
  };
  /** The UI path: the chip opens the city, Toilets lists places; and a second library on the same storage opens it. */
  async function installedOpens() {
    await click('#chips button.chip[data-city="monaco"]');
    await until('the opened city', 10, () => browser.evaluate(`document.getElementById('search').dataset.city === 'monaco'`));
    await browser.evaluate(`document.getElementById('results').replaceChildren()`);
    await click('[data-search="toilet"]');
    const toilets = await until('toilet results', 10, () => browser.evaluate(`document.querySelectorAll('#results li[data-id]').length`));
    // Searched from the device's position (granted, emulated): distances shown, nearest first.
    const distances = await browser.evaluate(`[...document.querySelectorAll('#results li[data-id]')].map((li) => Number(/· (\\d+) m$/.exec(li.textContent)?.[1]))`);
    assert.ok(distances.length > 1 && distances.every((d, i) => Number.isFinite(d) && (i === 0 || d >= distances[i - 1])), `nearest first: ${distances.join(', ')}`);
    await click('#nearby');
    const nearby = await until('nearby results', 10, () => browser.evaluate(`document.querySelectorAll('#results li[data-id]').length`));
    const direct = await browser.evaluate(`(async () => {
      const m = await import('/web/library.js');
      const l = new m.PackLibrary({ catalogURL: 'unused.json', storage: new m.IndexedDBStore(), publicKey: ${JSON.stringify(releases.publicKey)} });
      const p = await l.open('monaco');
      await l.ready();
      await new Promise((ok) => setTimeout(ok, 50));
      return { version: p.manifest.dataVersion, before: p.search('${renamed.before}').length, after: p.search('${renamed.after}').length,
        atm: p.search('ATM').length, food: p.search('food').length, persisted: l.persisted };
    })()`);
    return { toilets, nearby, ...direct };
  }

  try {
    await start();
    // The list renders on the library's events after its copy loads: it may come a moment after "ready".
    assert.equal((await settled(['not_downloaded', 'queued', 'downloading', 'paused', 'on_disk', 'failed'])).state, 'not_downloaded');
    // Before the user picks a city the app fetches catalog.json and nothing else from the packs.
    const beforePick = (await (await fetch(`${server.proxy}/__log`)).json()).filter((e) => e.path.startsWith('/packs/'));
    console.log(`REQUESTS web browser before a pick: ${beforePick.map((e) => `${e.method} ${e.path} ${e.status}`).join(', ')}; chips show "${await browser.evaluate(`document.getElementById('chips').textContent`)}"`);
    assert.deepEqual(beforePick.map((e) => e.path), ['/packs/catalog.json']);
    // Its screen reads in words before any city is stored: the copy the library ships.
    assert.equal(await browser.evaluate(`document.getElementById('chips').textContent`), "No cities downloaded yet. Add one when you're back online.");

    // The first download, with the page reloaded mid-way (one file stalled so the reload catches it in flight: the
    // bundle when the manifest has one, else a row chunk).
    await control('PUT', '/__faults', [{ path: '/web/bundle-', fault: 'stall', at: 300, times: 1 }, { path: '/web/rows-', fault: 'stall', at: 300, times: 1 }]);
    await click('#cities li[data-city="monaco"] .step');
    await until('a file stalled mid-download', 20, async () => (await (await fetch(`${server.proxy}/__log`)).json()).some((e) => /\/web\/(rows|bundle)-/.test(e.path) && e.bytes === 300));
    await browser.navigate(appURL);
    await until('the app to be ready after the reload', 30, () => browser.evaluate(`document.body?.dataset.ready === 'true'`).catch(() => false));
    const paused = await settled(['paused']);
    const pausedBar = await browser.evaluate(`(() => { const p = document.querySelector('#cities li[data-city="monaco"] progress'); return p && { value: p.value, max: p.max }; })()`);
    await control('DELETE', '/__faults');
    await control('DELETE', '/__log');
    await click('#cities li[data-city="monaco"] .step');
    const installed = await settled(['on_disk', 'failed']);
    const resumedLog = (await (await fetch(`${server.proxy}/__log`)).json()).filter((e) => e.path.startsWith('/packs/monaco/'));
    const v1Manifest = JSON.parse(readFileSync(join(releases.output, 'monaco/monaco-1.manifest.json'), 'utf8'));
    const v1Size = statSync(join(releases.output, 'monaco/monaco-1.manifest.json')).size + webFiles(v1Manifest).reduce((n, f) => n + f.bytes, 0);
    const resumedBytes = resumedLog.reduce((n, e) => n + e.bytes, 0);
    console.log(`RESUME web browser: reload mid-download → ${paused.state} "${paused.text}" (${pausedBar?.value} of ${pausedBar?.max} bytes kept; step "${paused.step}"); Resume fetched ${resumedLog.length} files, ${resumedBytes} bytes (manifest not again: ${!resumedLog.some((e) => e.path.endsWith('.manifest.json'))}) of the flavour's ${v1Size}`);
    assert.ok(paused.step && !paused.step.startsWith('pack.state.resume'), `the step to go on: ${paused.step}`);
    assert.ok(pausedBar && pausedBar.value > 0 && pausedBar.value < pausedBar.max, JSON.stringify(pausedBar));
    assert.ok(!resumedLog.some((e) => e.path.endsWith('.manifest.json')), 'the staged manifest is not fetched again');
    assert.ok(resumedBytes <= pausedBar.max - pausedBar.value, `Resume fetched ${resumedBytes} bytes, ${pausedBar.max - pausedBar.value} were not kept`);
    assert.equal(installed.state, 'on_disk', JSON.stringify(installed));
    assert.equal(installed.text, 'Saved for offline');
    assert.equal(await browser.evaluate(`document.getElementById('heading').textContent`), 'Choose a downloaded city');
    const v1 = await installedOpens();
    console.log(`PERSIST web browser: library.persisted = ${v1.persisted} (navigator.storage.persist() asked on the download)`);
    assert.ok(v1.persisted === true || v1.persisted === false, 'the browser\'s answer is known');
    assert.equal(v1.version, 1);
    assert.ok(v1.toilets > 0 && v1.nearby > 0 && v1.before === 1, JSON.stringify(v1));

    // Version 2 is published: the app learns it on its next start.
    releases.publish(2);
    await control('DELETE', '/__log');
    await browser.navigate(appURL);
    await until('the app to be ready', 30, () => browser.evaluate(`document.body?.dataset.ready === 'true'`).catch(() => false));
    const available = await settled(['on_disk_out_of_date']);
    assert.match(available.text, /^Update available \(\d+(\.\d)? KB\)$/);
    const learned = await (await fetch(`${server.proxy}/__log`)).json();
    const manifestBytes = learned.filter((e) => e.path.endsWith('.manifest.json') || e.path.endsWith('.manifest-patch.json')).reduce((n, e) => n + e.bytes, 0);
    console.log(`web update offered: "${available.text}"`);

    const faults = [
      ['truncate', [{ path: '/web/rows-', fault: 'truncate' }], 'damaged'],
      ['flip', [{ path: '/web/rows-', fault: 'flip' }], 'damaged'],
      ['stall', [{ path: '/web/rows-', fault: 'stall', at: 100 }], 'timeout'], // at 100: row chunks are small (a few hundred bytes)
      ['encoding', [{ path: '/web/rows-', fault: 'encoding' }], 'damaged'],
      ['older-catalog', [{ path: '/packs/catalog.json', fault: 'replace', file: releases.catalogV1 }], 'older_release'],
      ['404', [{ path: '/web/rows-', fault: 'status', status: 404 }], 'server_error'],
      ['500', [{ path: '/web/rows-', fault: 'status', status: 500 }], 'server_error'],
      ['server-stopped', 'stop', 'offline'],
    ];
    for (const [name, rules, reason] of faults) {
      if (rules === 'stop') await control('POST', '/__stop-upstream');
      else await control('PUT', '/__faults', rules);
      await watchStates();
      await click('#cities li[data-city="monaco"] .step');
      const shown = await until(`${name}: the update to end`, 60, async () => {
        const seen = await browser.evaluate('window.__states');
        return seen.includes('queued') && ['failed', 'on_disk'].includes(seen.at(-1)) && (await row());
      });
      if (rules === 'stop') await control('POST', '/__start-upstream');
      else await control('DELETE', '/__faults');
      const opens = await installedOpens();
      console.log(`FAULT web ${name}: state=${shown.state}(${shown.reason}) copy="${[shown.headline, shown.text, shown.step].filter(Boolean).join(' | ')}" installed-opens=${opens.version === 1 && opens.toilets > 0 ? 'yes' : 'NO'}`);
      assert.equal(shown.state, 'failed', `${name}: ${JSON.stringify(shown)}`);
      assert.equal(shown.reason, reason, `${name}: ${shown.detail}`);
      assert.equal(shown.headline, 'Update failed');
      assert.ok(!shown.text.startsWith('download_error.'), `${name}: copy from the pack, not the key (${shown.text})`);
      if (name === 'encoding') assert.match(shown.detail, /Content-Encoding: gzip/);
      if (name === '404' || name === '500') assert.match(shown.text, new RegExp(`\\(${name}\\)`));
      assert.equal(opens.version, 1, `${name}: version 1 stays installed`);
      assert.ok(opens.toilets > 0 && opens.before === 1, `${name}: ${JSON.stringify(opens)}`);
    }

    // The connection cut mid-body once: the download resumes with Range + If-Range and the update completes.
    await control('DELETE', '/__log');
    await control('PUT', '/__faults', [{ path: '/web/rows-', fault: 'cut', times: 1 }]);
    await watchStates();
    await click('#cities li[data-city="monaco"] .step');
    const updated = await until('the resumed update to end', 60, async () => {
      const seen = await browser.evaluate('window.__states');
      return seen.includes('queued') && ['failed', 'on_disk'].includes(seen.at(-1)) && (await row());
    });
    const log = await (await fetch(`${server.proxy}/__log`)).json();
    await control('DELETE', '/__faults');
    const places = log.filter((e) => e.path.includes('/web/rows-'));
    const v2 = await installedOpens();
    console.log(`FAULT web cut: state=${updated.state} copy="${updated.text}" resumed=${places[1]?.status === 206 ? `yes (${places[1].range})` : 'no'} installed-opens=${v2.version === 2 && v2.toilets > 0 ? 'yes' : 'NO'}`);
    assert.equal(updated.state, 'on_disk', updated.detail);
    assert.equal(places.length, 2);
    assert.equal(places[1].status, 206);
    assert.match(places[1].range, /^bytes=\d+-$/);
    assert.ok(places[1].ifRange);
    assert.equal(v2.version, 2);
    assert.ok(v2.after === 1 && v2.before === 0, JSON.stringify(v2));
    const data = log.filter((e) => !e.path.startsWith('/web/'));
    const fetched = manifestBytes + data.reduce((n, e) => n + e.bytes, 0);
    const cut = places[0].bytes;
    const v2Manifest = JSON.parse(readFileSync(join(releases.output, 'monaco/monaco-2.manifest.json'), 'utf8'));
    const flavour = statSync(join(releases.output, 'monaco/monaco-2.manifest.json')).size + webFiles(v2Manifest).reduce((n, f) => n + f.bytes, 0);
    console.log(`web update v1→v2 bytes fetched: ${fetched} of ${flavour} (manifest + web files of version 2; the cut attempt's ${cut} bytes were kept and resumed): manifest ${manifestBytes}, ${data.map((e) => `${e.path.split('/').pop()} ${e.status} ${e.bytes}`).join(', ')}`);

    // Another origin (as a Capacitor app's capacitor://localhost or http://localhost): the page from nginx's port,
    // the packs through the proxy's. Installing and revalidating (If-None-Match: a CORS preflight) work with
    // docs/HOSTING.md's CORS headers.
    await control('DELETE', '/__log');
    const crossQuery = new URLSearchParams({ catalog: `${server.proxy}/packs/catalog.json`, key: releases.publicKey, stall: '1500', retries: '1', backoff: '50' });
    const crossURL = `${server.nginx}/web/example/index.html?${crossQuery}`;
    await browser.navigate(crossURL);
    await until('the cross-origin app to be ready', 30, () => browser.evaluate(`location.origin === ${JSON.stringify(server.nginx)} && document.body?.dataset.ready === 'true'`).catch(() => false));
    await click('#cities li[data-city="monaco"] .step');
    const crossInstalled = await settled(['on_disk', 'failed']);
    await browser.navigate(crossURL);
    await until('the cross-origin app to be ready again', 30, () => browser.evaluate(`document.body?.dataset.ready === 'true'`).catch(() => false));
    const crossLog = await (await fetch(`${server.proxy}/__log`)).json();
    const revalidated = crossLog.filter((e) => e.path === '/packs/catalog.json').map((e) => `${e.method} ${e.status}`);
    console.log(`CORS web: page at ${server.nginx}, packs at ${server.proxy}: install ${crossInstalled.state}, catalog requests ${revalidated.join(', ')}`);
    assert.equal(crossInstalled.state, 'on_disk', crossInstalled.detail);
    assert.ok(revalidated.includes('OPTIONS 204') && revalidated.includes('GET 304'), revalidated.join(', '));

    // Everything gone: the server stopped, the browser restarted on the same profile.
    await server.stop();
    server = null;
    await browser.close();
    await start();
    const offline = await settled(['on_disk', 'failed']);
    const opens = await installedOpens();
    const viaWorker = await browser.evaluate(`fetch('offline/monaco/manifest.json').then((r) => r.json()).then((m) => m.dataVersion)`);
    console.log(`FAULT web offline-restart: state=${offline.state} copy="${offline.text}" installed-opens=${opens.version === 2 && opens.toilets > 0 ? 'yes' : 'NO'} toilets=${opens.toilets} atm=${opens.atm} food=${opens.food} nearby=${opens.nearby} service-worker-manifest=v${viaWorker}`);
    assert.equal(offline.state, 'on_disk');
    assert.equal(opens.version, 2);
    assert.ok(opens.toilets > 0 && opens.nearby > 0 && opens.after === 1, JSON.stringify(opens));
    assert.equal(viaWorker, 2);
  } catch (e) {
    if (browser) console.log(`browser console:\n${browser.console.slice(-20).join('\n')}`);
    throw e;
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(profile, { recursive: true, force: true });
    rmSync(site, { recursive: true, force: true });
  }
});
