// Kill tests of the pack library on Milan (OSM PBF + ATM's GTFS from ../shared/data), as library-kills.test.mjs
// does on Monaco (the campaign is test-support/library-kills.mjs): Milan's first download (through the web bundle)
// and its update from version 1 to version 2 (one café added: a delta, a manifest patch and the web chunks that
// changed) are each killed at least 30 times at seeded random steps, a new PackLibrary restarting on the same
// storage after every kill. After every restart: the bytes fetched again stay within the bytes not yet verified at
// the kill plus one file, the installed version opens and answers, and the state says where the download stands.
// Prints one KILLS line per campaign.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { cloneStore, seeded, setup } from '../test-support/library-kit.mjs';
import { killCampaign, killSubject, statesLine } from '../test-support/library-kills.mjs';
import { milanAdded, milanReleases } from '../test-support/releases.mjs';
import { needsBinary, needsSharedData } from '../test-support/support.mjs';

const skip = needsSharedData || needsBinary;
const KILLS = 30; // per campaign
const CHECKPOINT = 1500; // bytes of a file in flight kept at a time (the fake server sends 4096-byte chunks)

let releases;
let subject;
let changed; // version 2's web files version 1 has not
before(async () => {
  if (skip) return;
  releases = milanReleases();
  const entry = JSON.parse(readFileSync(releases.catalogV2, 'utf8')).packs.find((p) => p.id === 'milan');
  assert.ok(entry.deltas?.some((d) => d.from === 1 && d.to === 2), 'version 2 is offered with a delta from 1');
  assert.ok(entry.manifestPatches?.some((p) => p.from === 1 && p.to === 2), 'version 2 is offered with a manifest patch from 1');
  subject = await killSubject(releases, 'milan');
  // What the campaigns kill: a first download through the web bundle; an update through the manifest patch and the
  // web chunks that changed (not the manifest, not the bundle).
  const first = setup(releases);
  assert.equal((await first.library.download('milan')).version, 2);
  assert.ok(first.server.log.some((e) => e.path.includes('/web/bundle-')), 'a first download fetches the bundle');
  const update = setup(releases, { storage: cloneStore(subject.installedV1) });
  assert.equal((await update.library.update('milan')).version, 2);
  const paths = update.server.log.map((e) => e.path);
  assert.ok(paths.some((p) => p.endsWith('.manifest-patch.json')) && !paths.some((p) => p.endsWith('manifest.json') || p.includes('/web/bundle-')), paths.join(' '));
  changed = subject.target.slice(1).filter((f) => !subject.installedV1.files.has(f.sha256));
  assert.ok(changed.length > 0 && changed.length < subject.target.length - 1, `an update fetches some web chunks, not all (${changed.length} of ${subject.target.length - 1})`);
});

/** What the installed version must answer: the added café in version 2 only, and the Duomo in both. */
function answers(pack, version) {
  assert.equal(pack.search(milanAdded).some((r) => r.name === milanAdded), version === 2, `version ${version}: ${milanAdded}`);
  assert.ok(pack.search('duomo').length > 0);
}

function report(phase, figures) {
  const worst = `${figures.worst > 0 ? '+' : ''}${figures.worst}`;
  const what = phase === 'update' ? `update: manifest patch + ${changed.length} changed web file${changed.length === 1 ? '' : 's'} of ${changed.reduce((n, f) => n + f.bytes, 0)} bytes` : `first download: ${subject.target.reduce((n, f) => n + f.bytes, 0)} bytes in ${subject.target.length} files`;
  console.log(`KILLS web milan ${what}: ${figures.kills} kills over ${figures.lives} lives (kill steps drawn from ${figures.steps[phase]} per run), ${figures.completed} ${phase === 'update' ? 'updates' : 'downloads'} completed; bytes fetched again after the restarts ${figures.refetched} of ${figures.allowed} allowed (not yet verified + one file of ${subject.largestFile} each; worst restart ${worst} against not-yet-verified); ${figures.resumed} resumed from kept bytes (206); states after restart: ${statesLine(figures)}`);
}

for (const [phase, seed] of [['first download', 2015], ['update', 2016]]) {
  test(`${KILLS} seeded kills during Milan's ${phase === 'update' ? 'update 1 → 2 (delta, manifest patch, changed chunks)' : 'first download'}: refetch bounded, installed version intact, state right`, { skip, timeout: 600000 }, async () => {
    const figures = await killCampaign({ releases, city: 'milan', phase, kills: KILLS, random: seeded(seed), subject, answers, checkpoint: CHECKPOINT });
    report(phase, figures);
    assert.ok(figures.kills >= KILLS);
    assert.ok(figures.states.paused > 0, 'some restart found the download paused');
  });
}
