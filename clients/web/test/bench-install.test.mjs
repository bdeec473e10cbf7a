// bench-install.mjs once, on a small published site (Monaco built with the citypack binary, then `citypack
// publish`): it starts nginx with docs/HOSTING.md's block and the delaying proxy, times one first download by the
// web pack library and one by `citypack install`, prints both clients' figures, stops what it started and exits 0.
// No timing is checked.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { findNginx } from '../test-support/fault-server.mjs';
import { citypackBinary, root } from '../test-support/support.mjs';

const skip = findNginx() ? false : 'needs nginx (Debian nginx-light; scripts/install-deps.sh --tests)';
const dir = mkdtempSync(join(tmpdir(), 'citypack-bench-install-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('bench-install.mjs --runs 1 --delay-ms 20 on Monaco: exits 0 with both clients\' figures', { skip }, async () => {
  const bin = citypackBinary();
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
  const output = join(dir, 'outputs');
  const site = join(dir, 'site');
  execFileSync(bin, ['build', join(root, 'inputs/monaco'), '--output', output, '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  execFileSync(bin, ['publish', output, '--site', site], { stdio: ['ignore', 'ignore', 'pipe'] });

  const bench = join(root, 'clients/web/bench-install.mjs');
  const args = [bench, '--site', site, '--city', 'monaco', '--runs', '1', '--delay-ms', '20', '--citypack', bin];
  const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 120000 });
  const lines = stdout.split('\n');
  assert.match(lines[1], /adding 20 ms per request; 1 run each/);
  const web = lines.indexOf(lines.find((l) => l.startsWith('web ')));
  const swift = lines.indexOf(lines.find((l) => l.startsWith('Swift ')));
  assert.ok(web > 0 && swift > web, stdout);
  assert.match(lines[web], /PackLibrary .*MemoryStore, concurrency \d+/);
  assert.match(lines[swift], /citypack install/);
  // Each client: a run line and a median line, with a time, the requests (at least the catalog, the manifest and
  // one data file) and the bytes it was sent.
  for (const at of [web, swift]) {
    for (const line of [lines[at + 1], lines[at + 2]]) {
      const m = /^ {2}(run 1|median) +(\d+) ms .* (\d+) requests +(\d+) bytes$/.exec(line);
      assert.ok(m, `a figures line: ${line}\n${stdout}`);
      assert.ok(Number(m[3]) >= 3 && Number(m[4]) > 0, line);
    }
  }
  assert.match(stdout, /^web\/Swift \(medians\): download \d+\.\d\d× \(installed and opened once, both\), with the app's open \d+\.\d\d×, requests \d+\.\d\d×, bytes \d+\.\d\d×$/m);

  // --json: the same figures as one line.
  const json = JSON.parse((await promisify(execFile)(process.execPath, [...args, '--json'], { timeout: 120000 })).stdout);
  assert.equal(json.web.runs.length, 1);
  assert.equal(json.swift.runs.length, 1);
  assert.ok(json.web.median.ms > 0 && json.swift.median.ms > 0 && json.ratio.time > 0 && json.ratio.downloadTime > 0);
});

test('bench-install.mjs: one-line usage errors (64), a missing site or city (66)', async () => {
  const bench = join(root, 'clients/web/bench-install.mjs');
  const fails = async (args) => {
    const e = await promisify(execFile)(process.execPath, [bench, ...args]).then(() => null, (x) => x);
    assert.ok(e, `${args.join(' ')} should fail`);
    assert.equal(e.stderr.trim().split('\n').length, 1, e.stderr);
    return e.code;
  };
  assert.equal(await fails([]), 64);
  assert.equal(await fails(['--site', dir, '--city', 'monaco', '--runs', '0']), 64);
  assert.equal(await fails(['--site', dir, '--city', 'monaco', '--no-such-flag']), 64);
  assert.equal(await fails(['--site', join(dir, 'nowhere'), '--city', 'monaco']), 66);
});
