// The language-neutral scenarios of Tests/Scenarios/ (issue 41): each names a tiny fixture city (a folder of
// Tests/Fixtures/ with map.osm and/or gtfs/), a query — nearby, search, places in a box, departures or journeys —
// and the answer worked out by hand from the fixture data. The web reader must give exactly it on the city's web
// flavour, as PackReader must in Tests/CityPackCLITests/ScenarioTests.swift. Ids and distances (0.1 m) are
// compared, not whole rows. Needs nothing outside the repository but the binary.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { openPack } from '../citypack.js';
import { citypackBinary, fileFetch, needsBinary, root } from '../test-support/support.mjs';

const folder = join(root, 'Tests/Scenarios');
const scenarios = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .flatMap((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')).scenarios.map((s) => ({ ...s, file: name })));

/** Builds a fixture city (Tests/Fixtures/<city>: map.osm and/or gtfs/) with `init` + `build`, once per process. */
const cities = new Map();
function cityManifest(city) {
  if (cities.has(city)) return cities.get(city);
  const bin = citypackBinary();
  const fixture = join(root, 'Tests/Fixtures', city);
  const dir = mkdtempSync(join(tmpdir(), `citypack-scenarios-${city}-`));
  const input = join(dir, 'inputs', city);
  const sources = [];
  if (existsSync(join(fixture, 'map.osm'))) sources.push('--osm', join(fixture, 'map.osm'));
  if (existsSync(join(fixture, 'gtfs'))) sources.push('--gtfs', join(fixture, 'gtfs'));
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
  const quiet = { env, stdio: /** @type {const} */ (['ignore', 'ignore', 'pipe']) };
  execFileSync(bin, ['init', input, ...sources, '--id', city, '--locales', 'en'], quiet);
  execFileSync(bin, ['build', input, '--output', join(dir, 'outputs'), '--quiet'], quiet);
  const url = pathToFileURL(join(dir, 'outputs', city, 'manifest.json')).href;
  cities.set(city, url);
  return url;
}

/** A result's id as the scenarios write it: the OSM reference of a POI (`n3`), `stop:<stop_id>` of a stop. */
const placeKey = (p) => (p.kind === 'stop' ? `stop:${p.stop_id}` : p.osm);
const tenth = (m) => Math.round(m * 10) / 10;
const hhmm = (s) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}`;

/** `departure arrival transfers | mode from→to trip, …` of one journey (as Tests/Fixtures/journeys/cases.json). */
function summary(j) {
  const legs = j.legs.map((l) => `${l.mode} ${l.from.stop_id ?? '•'}→${l.to.stop_id ?? '•'}${l.trip_id ? ` ${l.trip_id}` : ''}`);
  return `${j.departure} ${j.arrival} ${j.transfers} | ${legs.join(', ')}`;
}

/** The scenario's answer from the web reader, in the shape of its `expect`. */
function answer(pack, s) {
  const q = s.query;
  const openAt = q.openAt ? new Date(q.openAt) : undefined;
  const places = (rows) => {
    const out = { ids: rows.map(placeKey) };
    if ('distances' in s.expect) out.distances = rows.map((r) => tenth(r.distance_m));
    return out;
  };
  switch (s.kind) {
    case 'nearby':
      return places(pack.nearby(q.lat, q.lon, q.radius, { category: q.category, limit: q.limit, offset: q.offset, openAt }));
    case 'search': {
      const near = q.near ? { lat: q.near[0], lon: q.near[1] } : undefined;
      return places(pack.search(q.text, q.locale, { near, limit: q.limit, offset: q.offset, openAt }));
    }
    case 'places':
      return places(pack.places(q.box, { category: q.category, limit: q.limit, offset: q.offset }));
    case 'departures':
      return { departures: pack.departures(q.stop, q.date, q.time, q.limit).map((d) => `${d.date} ${hhmm(d.seconds)} ${d.trip}`) };
    case 'journeys':
      return { journeys: pack.journeys(q.from, q.to, q.date, q.time, q.options ?? {}).map(summary) };
    default:
      throw new Error(`${s.id}: unknown kind ${s.kind}`);
  }
}

test('the scenario files hold at least 20 scenarios of every kind, ids unique', () => {
  assert.ok(scenarios.length >= 20, `${scenarios.length} scenarios`);
  const kinds = new Set(scenarios.map((s) => s.kind));
  assert.deepEqual([...kinds].sort(), ['departures', 'journeys', 'nearby', 'places', 'search']);
  assert.equal(new Set(scenarios.map((s) => s.id)).size, scenarios.length);
});

/** The opened web pack of a city, once per process. */
const packs = new Map();
function cityPack(city) {
  if (!packs.has(city)) packs.set(city, openPack(fileFetch, cityManifest(city)));
  return packs.get(city);
}

for (const s of scenarios) {
  test(`${s.file} ${s.id} answers as worked out by hand (web reader)`, { skip: needsBinary }, async () => {
    assert.deepEqual(answer(await cityPack(s.city), s), s.expect, s.about);
  });
}
