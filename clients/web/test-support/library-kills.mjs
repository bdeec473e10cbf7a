// Kill campaigns of the pack library (issue 42: "a city download survives a phone's life"), shared by the kill
// tests (library-kills.test.mjs on Monaco, library-kills-milan.test.mjs on Milan from ../shared/data): a first
// download or an update of two real releases (releases.mjs) is killed at seeded random steps (a fetch, a body
// chunk, a storage write: from that step on nothing the instance does completes, then its fetches are aborted)
// and a new PackLibrary starts on the same storage, maybe to be killed again. After every restart: the bytes
// fetched again stay within the bytes not yet verified at the kill plus one file, the installed version opens and
// answers, and the state says where the download stands.
import assert from 'node:assert/strict';
import { MemoryStore, PackLibrary } from '../library.js';
import { fakeServer } from './fake-fetch.mjs';
import { cloneStore, hang, setup, wrapFetch, wrapStorage } from './library-kit.mjs';

/**
 * `{timetableEnded: last}` when the installed record's timetable ended before today (UTC: the releases' feeds ended
 * years ago, so the city's zone cannot matter), else nothing: the mark the library's on-disk states carry.
 */
export function endedMark(record) {
  const last = record?.timetable?.last;
  return last && new Date().toISOString().slice(0, 10) > last ? { timetableEnded: last } : {};
}

/** The state a new library must show for what storage holds (computed here from the records, independently). */
export function expectedState(storage, city, phase) {
  const record = storage.records.get(`city:${city}`);
  const stage = storage.records.get(`stage:${city}`);
  const catalog = storage.records.get('catalog')?.document;
  if (record?.version === 2) return { kind: 'on_disk', version: 2, ...endedMark(record) };
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
  const offered = catalog?.packs.find((p) => p.id === city)?.dataVersion ?? 1;
  return offered > 1 ? { kind: 'on_disk_out_of_date', version: 1, update: 2 } : { kind: 'on_disk', version: 1, ...endedMark(record) };
}

/**
 * The installed version opens from storage alone and answers — `answers(pack, version)` asserts what it must find
 * — or, before the first install, there is none. Returns the installed version (0: none).
 */
export async function installedIntact(releases, storage, city, phase, answers) {
  const offline = new PackLibrary({ catalogURL: 'https://packs.example/catalog.json', storage, publicKey: releases.publicKey, fetch: () => Promise.reject(new TypeError('offline')) });
  const record = storage.records.get(`city:${city}`);
  if (!record) {
    assert.equal(phase, 'first download', 'an update never loses the installed version');
    await assert.rejects(offline.open(city), TypeError);
    return 0;
  }
  const pack = await offline.open(city);
  assert.equal(pack.manifest.dataVersion, record.version);
  answers(pack, record.version);
  return record.version;
}

/**
 * What the campaigns of `city` start from, `releases` having versions 1 and 2 (version 2 published at the end):
 * a store with version 1 installed (an update's starting point), version 2's files (manifest first, each once) and
 * the largest of them (the bound's "one file").
 */
export async function killSubject(releases, city) {
  releases.publish(1);
  const base = setup(releases);
  assert.equal((await base.library.download(city)).version, 1);
  releases.publish(2);
  const installedV1 = cloneStore(base.storage);
  const full = setup(releases, { storage: new MemoryStore() });
  assert.equal((await full.library.download(city)).version, 2);
  const v2 = full.storage.records.get(`city:${city}`);
  const target = [v2.manifest, ...v2.files].filter((f, i, all) => all.findIndex((g) => g.sha256 === f.sha256) === i);
  return { installedV1, target, largestFile: Math.max(...target.map((f) => f.bytes)) };
}

/** Empty figures for killCampaign to add to (one object may gather several campaigns). */
export const killFigures = () => ({ phases: {}, kills: 0, refetched: 0, allowed: 0, worst: 0, states: {}, resumed: 0, lives: 0, completed: 0, steps: {} });

/**
 * One campaign: chains of lives of `phase` ('first download' from an empty store, or 'update' from `subject`'s
 * version 1) until at least `kills` kills, each chain's first life killed at a step drawn by `random` from the
 * steps of a whole run (requests, body chunks of the fake server's 4096 bytes, storage writes: kills land
 * mid-download whatever the machine's speed), later lives killed half the time, until one finishes. Every restart
 * is checked (state, refetched bytes, installed version: `answers`); the figures are added to `figures`.
 * `checkpoint`: the library's checkpointBytes (bytes of a file in flight kept at a time).
 */
export async function killCampaign({ releases, city, phase, kills: wanted, random, subject, answers, checkpoint, figures = killFigures(), maxLives = 7 }) {
  const { installedV1, target, largestFile } = subject;
  const fresh = () => (phase === 'update' ? cloneStore(installedV1) : new MemoryStore());
  const go = (library) => (phase === 'update' ? library.update(city) : library.download(city));
  // Steps of one whole run (requests, body chunks, storage writes): the range kill points are drawn from.
  let steps = 0;
  const counting = setup(releases, { storage: fresh(), checkpointBytes: checkpoint, wrap: (f) => wrapFetch(f, { step: () => { steps++; return false; } }) });
  counting.library.storage = wrapStorage(counting.storage, () => { steps++; return false; });
  assert.equal((await go(counting.library)).version, 2);
  figures.steps[phase] = steps;

  let kills = 0;
  while (kills < wanted) {
    const storage = fresh();
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
        server, storage, checkpointBytes: checkpoint, stallTimeoutMs: 2 ** 30,
        wrap: (f) => wrapFetch(f, { step: gate, hang, onBody: (url, n) => { fetched += n; } }),
      });
      run.library.storage = wrapStorage(storage, gate, hang);
      if (unverified != null) {
        // A restart after a kill: the state says where the download stands.
        await run.library.ready();
        const expected = expectedState(storage, city, phase);
        const shown = run.library.state(city);
        if (expected.kind === 'on_disk_out_of_date') {
          assert.equal(shown.kind, expected.kind, JSON.stringify(shown));
          assert.equal(shown.update, 2);
        } else {
          assert.deepEqual(shown, expected, `${phase}, life ${life}`);
        }
        figures.states[shown.kind] = (figures.states[shown.kind] ?? 0) + 1;
      }
      let finished = null;
      const job = go(run.library);
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
        assert.deepEqual(finished, { kind: 'on_disk', version: 2, ...endedMark(storage.records.get(`city:${city}`)) }, `${phase}, life ${life}`);
        figures.completed++;
        await installedIntact(releases, storage, city, phase, answers);
        break;
      }
      // Killed: its fetches are abandoned (its writes never complete); the next start is a new instance.
      kills++;
      figures.kills++;
      figures.phases[phase] = (figures.phases[phase] ?? 0) + 1;
      run.library.cancel(city);
      await new Promise((ok) => setTimeout(ok, 1));
      unverified = target.filter((f) => !storage.files.has(f.sha256)).reduce((n, f) => n + f.bytes, 0);
      await installedIntact(releases, storage, city, phase, answers);
      if (life >= maxLives) throw new Error('too many lives');
    }
  }
  return figures;
}

/** "paused 29, not_downloaded 2, …": the states shown after the restarts. */
export const statesLine = (figures) => Object.entries(figures.states).map(([k, n]) => `${k} ${n}`).join(', ');
