// Kill tests of the pack library (issue 42: "a city download survives a phone's life"): a first download and an
// update of the real Monaco releases are killed at seeded random steps (a fetch, a body chunk, a storage write:
// from that step on nothing the instance does completes, then its fetches are aborted) and a new PackLibrary starts
// on the same storage, maybe to be killed again. After every restart: the bytes fetched again stay within the bytes
// not yet verified at the kill plus one file, the installed version opens and answers, and the state says where
// the download stands. Prints one KILLS line with the figures. The campaign is test-support/library-kills.mjs (Milan's
// kill test, library-kills-milan.test.mjs, runs it too).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { seeded } from '../test-support/library-kit.mjs';
import { killCampaign, killFigures, killSubject, statesLine } from '../test-support/library-kills.mjs';
import { monacoReleases, renamed } from '../test-support/releases.mjs';
import { needsBinary } from '../test-support/support.mjs';

const skip = needsBinary;
let releases;
before(() => { if (!skip) releases = monacoReleases(); });

const KILLS_PER_PHASE = 18;
const CHECKPOINT = 1500; // bytes of a file in flight kept at a time (the fake server sends 4096-byte chunks)

/** What the installed version must answer: the renamed POI under its name in that version, and toilets. */
function answers(pack, version) {
  assert.equal(pack.search(version === 1 ? renamed.before : renamed.after).length, 1);
  assert.ok(pack.search('toilet').length > 0);
}

test(`${2 * KILLS_PER_PHASE} seeded kills during a first download and an update of Monaco: refetch bounded, installed version intact, state right`, { skip, timeout: 300000 }, async () => {
  const random = seeded(4242);
  // Version 1 installed (the update phase's starting point), and the files version 2 needs (the bound's "one file").
  const subject = await killSubject(releases, 'monaco');
  const { largestFile } = subject;
  const figures = killFigures();
  for (const phase of ['first download', 'update']) {
    await killCampaign({ releases, city: 'monaco', phase, kills: KILLS_PER_PHASE, random, subject, answers, checkpoint: CHECKPOINT, figures });
  }
  const states = statesLine(figures);
  console.log(`KILLS web resume: ${figures.kills} kills (${figures.phases['first download']} in first downloads, ${figures.phases.update} in updates of Monaco) over ${figures.lives} lives, ${figures.completed} downloads completed; bytes fetched again after the restarts ${figures.refetched} of ${figures.allowed} allowed (not yet verified + one file of ${largestFile} each; worst restart ${figures.worst > 0 ? '+' : ''}${figures.worst} against not-yet-verified); ${figures.resumed} files resumed from kept bytes (206); states after restart: ${states}`);
  assert.ok(figures.kills >= 30);
  assert.ok(figures.resumed > 0, 'some restart resumed a file from its kept bytes');
});
