// A city across the antimeridian (issue 21 point 4): Taveuni, Fiji, with places metres apart on both sides of 180°.
// The JS reader's nearby must give exactly `citypack query --near`'s answers on a grid of points straddling 180°,
// and find the places on the other side.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPack } from '../citypack.js';
import { buildCity, fileFetch, pooled, swiftQuery } from '../test-support/support.mjs';

test('nearby across the antimeridian agrees with Swift and reaches both sides', async (t) => {
  const built = buildCity('taveuni');
  const pack = await openPack(fileFetch, built.manifestURL, { parts: ['places'] });
  const [minLon, , maxLon] = pack.manifest.bbox;
  assert.ok(minLon > maxLon, `the derived box crosses 180°: ${pack.manifest.bbox}`);
  const cases = [];
  for (const lat of [-16.8003, -16.8001, -16.7999]) {
    for (const lon of [179.9996, 179.9999, 180, -180, -179.9999, -179.9996]) {
      for (const radius of [15, 30, 60]) cases.push({ lat, lon, radius });
    }
  }
  const swift = await pooled(cases, 2, (c) => swiftQuery(built.database, ['--near', `${c.lat},${c.lon}`, '--radius', String(c.radius)]));
  let bothSides = 0;
  cases.forEach((c, i) => {
    const js = { results: pack.nearby(c.lat, c.lon, c.radius) };
    assert.deepStrictEqual(js, swift[i], `near ${c.lat},${c.lon} r=${c.radius}`);
    const lons = js.results.map((r) => r.lon);
    if (lons.some((l) => l > 0) && lons.some((l) => l < 0)) bothSides++;
  });
  // From 180° itself every place within 60 m lies on one side or the other: both sides must be found.
  const atMeridian = pack.nearby(-16.8, 180, 60).map((r) => r.name).sort();
  assert.deepStrictEqual(atMeridian, ['Dateline East', 'Dateline Toilets', 'Dateline West', 'Waiyevo ATM']);
  assert.ok(bothSides >= 10, `${bothSides} queries found places on both sides`);
  t.diagnostic(`${cases.length} queries agree; ${bothSides} reach both sides of 180°`);
});
