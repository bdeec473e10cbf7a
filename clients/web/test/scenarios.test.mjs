// The language-neutral journey cases of Tests/Fixtures/journeys/ (cases.json and its hand-made feed): change
// times from transfers.txt and the default, a one-way transfer, a footpath, tomorrow's service, a round limit.
// Each answer was worked out by hand; the JS planner must give exactly it, as `citypack query` must in
// Tests/CityPackCLITests/JourneyScenarioTests.swift. Needs nothing outside the repository but the binary.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPack } from '../citypack.js';
import { buildCity, fileFetch, root } from '../test-support/support.mjs';

const { cases } = JSON.parse(readFileSync(join(root, 'Tests/Fixtures/journeys/cases.json'), 'utf8'));

/** `departure arrival transfers | mode from→to trip, …` of one journey (the Swift test's summary). */
function summary(j) {
  const legs = j.legs.map((l) => `${l.mode} ${l.from.stop_id ?? '•'}→${l.to.stop_id ?? '•'}${l.trip_id ? ` ${l.trip_id}` : ''}`);
  return `${j.departure} ${j.arrival} ${j.transfers} | ${legs.join(', ')}`;
}

test('every journey case answers as worked out by hand (JS planner)', async () => {
  assert.ok(cases.length >= 12);
  const built = buildCity('journeys');
  const pack = await openPack(fileFetch, built.manifestURL, { parts: ['transit'] });
  for (const c of cases) {
    const [date, time] = c.at.split(' ');
    const journeys = pack.journeys(c.from, c.to, date, time, c.options);
    assert.deepEqual(journeys.map(summary), c.expect, c.name);
  }
});
