// Kill tests of the pack library (issue 42: "a city download survives a phone's life"): a first download and an
// update of the real Monaco releases are killed at seeded random steps (a fetch, a body chunk, a storage write:
// from that step on nothing the instance does completes, then its fetches are aborted) and a new PackLibrary starts
// on the same storage, maybe to be killed again. After every restart: the bytes fetched again stay within the bytes
// not yet verified at the kill plus one file, the installed version opens and answers, and the state says where
// the download stands. Prints one KILLS line with the figures.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { MemoryStore, PackLibrary } from '../library.js';
import { fakeServer } from '../test-support/fake-fetch.mjs';
import { cloneStore, hang, seeded, setup, wrapFetch, wrapStorage } from '../test-support/library-kit.mjs';
import { monacoReleases, renamed } from '../test-support/releases.mjs';
import { root } from '../test-support/support.mjs';

const binary = [process.env.CITYPACK_BIN, join(root, '.build/release/citypack'), join(root, '.build/debug/citypack')].some((p) => p && existsSync(p));
const skip = binary ? false : 'needs the citypack binary (swift build)';
let releases;
before(() => { if (!skip) releases = monacoReleases(); });

const KILLS_PER_PHASE = 18;
const CHECKPOINT = 1500; // bytes of a file in flight kept at a time (the fake server sends 4096-byte chunks)

/** The state a new library must show for what storage holds (computed here from the records, independently). */
function expectedState(storage, phase) {
  const record = storage.records.get('city:monaco');
  const stage = storage.records.get('stage:monaco');
  const catalog = storage.records.get('catalog')?.document;
  if (record?.version === 2) return { kind: 'on_disk', version: 2 };
  if (stage?.started && stage.version === 2) {
    let remaining = 0;
    const seen = new Set();
    // A manifest not stored yet costs its patch's bytes when it came through one and the patch's base is still
    // installed and stored (the next run fetches the patch again), else its own.
    const patched = stage.patch && record?.version === stage.patch.from && storage.files.has(record.manifest.sha256);
    for (const f of [stage.manifest, ...stage.files]) {
      if (storage.files.has(f.sha256) || seen.has(f.sha256)) continue;
      seen.add(f.sha256);
      const partial = storage.records.get(`partial:${f.sha256}`);
      let held = 0;
      for (let i = 0; i < (partial?.pieces.length ?? 0) && storage.files.has(`partial:${f.sha256}:${i}`); i++) held += partial.pieces[i];
      remaining += (f === stage.manifest && patched ? stage.patch.bytes : f.bytes) - held;
    }
    return { kind: 'paused', version: 2, installedVersion: record?.version ?? null, bytes: stage.total - remaining, total: stage.total };
  }
  if (phase === 'first download') return { kind: 'not_downloaded' };
  const offered = catalog?.packs.find((p) => p.id === 'monaco')?.dataVersion ?? 1;
  return offered > 1 ? { kind: 'on_disk_out_of_date', version: 1, update: 2 } : { kind: 'on_disk', version: 1 };
}

/** The installed version opens from storage alone and answers (or, before the first install, there is none). */
async function installedIntact(storage, phase) {
  const offline = new PackLibrary({ catalogURL: 'https://packs.example/catalog.json', storage, publicKey: releases.publicKey, fetch: () => Promise.reject(new TypeError('offline')) });
  const record = storage.records.get('city:monaco');
  if (!record) {
    assert.equal(phase, 'first download', 'an update never loses the installed version');
    await assert.rejects(offline.open('monaco'), TypeError);
    return 0;
  }
  const pack = await offline.open('monaco');
  assert.equal(pack.manifest.dataVersion, record.version);
  assert.equal(pack.search(record.version === 1 ? renamed.before : renamed.after).length, 1);
  assert.ok(pack.search('toilet').length > 0);
  return record.version;
}

test(`${2 * KILLS_PER_PHASE} seeded kills during a first download and an update of Monaco: refetch bounded, installed version intact, state right`, { skip, timeout: 300000 }, async () => {
  const random = seeded(4242);
  // Version 1 installed (the update phase's starting point), and the files version 2 needs (the bound's "one file").
  releases.publish(1);
  const base = setup(releases);
  assert.equal((await base.library.download('monaco')).version, 1);
  releases.publish(2);
  const installedV1 = cloneStore(base.storage);
  const full = setup(releases, { storage: new MemoryStore() });
  assert.equal((await full.library.download('monaco')).version, 2);
  const v2 = full.storage.records.get('city:monaco');
  const target = [v2.manifest, ...v2.files].filter((f, i, all) => all.findIndex((g) => g.sha256 === f.sha256) === i);
  const largestFile = Math.max(...target.map((f) => f.bytes));

  const figures = { phases: {}, kills: 0, refetched: 0, allowed: 0, worst: 0, states: {}, resumed: 0, lives: 0, completed: 0 };
  for (const phase of ['first download', 'update']) {
    // Steps of one whole run (requests, body chunks, storage writes): the range kill points are drawn from.
    let steps = 0;
    const counting = setup(releases, { storage: phase === 'update' ? cloneStore(installedV1) : new MemoryStore(), checkpointBytes: CHECKPOINT, wrap: (f) => wrapFetch(f, { step: () => { steps++; return false; } }) });
    counting.library.storage = wrapStorage(counting.storage, () => { steps++; return false; });
    assert.equal((await (phase === 'update' ? counting.library.update('monaco') : counting.library.download('monaco'))).version, 2);

    let kills = 0;
    while (kills < KILLS_PER_PHASE) {
      const storage = phase === 'update' ? cloneStore(installedV1) : new MemoryStore();
      let unverified = null; // bytes of version 2 not stored at the last kill (null: no kill yet)
      for (let life = 0; ; life++) {
        figures.lives++;
        // Kill this life at a seeded step (the first life always; later ones half the time), or let it finish.
        const killAt = life === 0 || random() < 0.5 ? Math.floor(random() * steps) : Infinity;
        let step = 0;
        let killed = false;
        const gate = () => { if (killed || step++ >= killAt) { killed = true; return true; } return false; };
        let fetched = 0;
        const server = fakeServer(releases.output);
        const run = setup(releases, {
          server, storage, checkpointBytes: CHECKPOINT, stallTimeoutMs: 2 ** 30,
          wrap: (f) => wrapFetch(f, { step: gate, hang, onBody: (url, n) => { fetched += n; } }),
        });
        run.library.storage = wrapStorage(storage, gate, hang);
        if (unverified != null) {
          // A restart after a kill: the state says where the download stands.
          await run.library.ready();
          const expected = expectedState(storage, phase);
          const shown = run.library.state('monaco');
          if (expected.kind === 'on_disk_out_of_date') {
            assert.equal(shown.kind, expected.kind, JSON.stringify(shown));
            assert.equal(shown.update, 2);
          } else {
            assert.deepEqual(shown, expected, `${phase}, life ${life}`);
          }
          figures.states[shown.kind] = (figures.states[shown.kind] ?? 0) + 1;
        }
        let finished = null;
        const job = phase === 'update' ? run.library.update('monaco') : run.library.download('monaco');
        job.then((s) => { finished = s; });
        while (!killed && !finished) await new Promise((ok) => setTimeout(ok, 1));
        if (unverified != null) {
          // What this life fetched again stays within what was not verified at the kill, plus one file.
          figures.refetched += fetched;
          figures.allowed += unverified + largestFile;
          figures.worst = Math.max(figures.worst, fetched - unverified);
          figures.resumed += server.log.filter((e) => e.status === 206).length;
          assert.ok(fetched <= unverified + largestFile, `${phase}, life ${life}: fetched ${fetched} bytes again, ${unverified} were not verified (+ ${largestFile})`);
        }
        if (!killed) {
          assert.deepEqual(finished, { kind: 'on_disk', version: 2 }, `${phase}, life ${life}`);
          figures.completed++;
          await installedIntact(storage, phase);
          break;
        }
        // Killed: its fetches are abandoned (its writes never complete); the next start is a new instance.
        kills++;
        figures.kills++;
        figures.phases[phase] = kills;
        run.library.cancel('monaco');
        await new Promise((ok) => setTimeout(ok, 1));
        unverified = target.filter((f) => !storage.files.has(f.sha256)).reduce((n, f) => n + f.bytes, 0);
        await installedIntact(storage, phase);
        if (life > 6) throw new Error('too many lives');
      }
    }
  }
  const states = Object.entries(figures.states).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`KILLS web resume: ${figures.kills} kills (${figures.phases['first download']} in first downloads, ${figures.phases.update} in updates of Monaco) over ${figures.lives} lives, ${figures.completed} downloads completed; bytes fetched again after the restarts ${figures.refetched} of ${figures.allowed} allowed (not yet verified + one file of ${largestFile} each; worst restart ${figures.worst > 0 ? '+' : ''}${figures.worst} against not-yet-verified); ${figures.resumed} files resumed from kept bytes (206); states after restart: ${states}`);
  assert.ok(figures.kills >= 30);
  assert.ok(figures.resumed > 0, 'some restart resumed a file from its kept bytes');
});
