// The ported proximity index against brute force where covers are hard: across the antimeridian, near the
// poles, at high latitudes, on the equator and the prime meridian, and for large radii.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distance, geohash } from '../citypack.js';
import { geohashCell, packFromParts } from '../internal.js';
import { random } from '../test-support/support.mjs';

function syntheticPack(points) {
  const rows = points
    .map(([lat, lon], k) => ({ id: (k + 1) * 4, lat, lon, cell: geohash(lat, lon, 8) }))
    .sort((a, b) => (a.cell < b.cell ? -1 : a.cell > b.cell ? 1 : a.id - b.id));
  const cells = [];
  const counts = [];
  for (const r of rows) {
    if (cells[cells.length - 1] !== r.cell) {
      cells.push(r.cell);
      counts.push(0);
    }
    counts[counts.length - 1] += 1;
  }
  const col = (f) => rows.map(f);
  const places = {
    format: 1, city: 'synthetic', defaultLocale: 'en', locales: ['en'], precision: 8, cells, counts,
    id: col((r) => r.id), lat: col((r) => r.lat), lon: col((r) => r.lon), osm: col((r) => `n${r.id / 4}`),
    category: col(() => 'bench'), name: col(() => null), names: col(() => ({})), tags: col(() => ({})), stopId: col(() => null),
  };
  return packFromParts({ city: { defaultLocale: 'en' }, web: { format: 1, parts: [] } }, { places });
}

test('geohash strings and cells agree with known values', () => {
  assert.equal(geohash(57.64911, 10.40744, 8), 'u4pruydq');
  assert.equal(geohash(57.64911, 10.40744, 10), 'u4pruydqqv');
  assert.equal(geohashCell('00000001'), 1);
  assert.equal(geohashCell('zzzzzzzz'), 2 ** 40 - 1);
});

test('nearby equals brute force at the antimeridian, the poles, high latitudes and large radii', () => {
  const rand = random(8);
  const centres = [[0, 179.9999], [0, -179.9999], [89.999, 0], [-89.999, 120], [70.1, 25.3], [0, 0], [-33.86, 151.2], [64.15, -21.94]];
  let compared = 0;
  let found = 0;
  for (const [clat, clon] of centres) {
    const points = [];
    for (let k = 0; k < 400; k++) {
      const lat = Math.max(-90, Math.min(90, clat + (rand() - 0.5) * 0.02));
      let lon = clon + (rand() - 0.5) * 0.05;
      if (lon > 180) lon -= 360;
      if (lon < -180) lon += 360;
      points.push([Number(lat.toFixed(7)), Number(lon.toFixed(7))]);
    }
    const pack = syntheticPack(points);
    const p = pack._part('places');
    for (let q = 0; q < 60; q++) {
      const lat = Math.max(-90, Math.min(90, clat + (rand() - 0.5) * 0.02));
      const lon = clon + (rand() - 0.5) * 0.05; // may be beyond ±180: wrapped by the cover, not by distance
      const radius = [10, 25, 80, 200, 1000, 5000][q % 6];
      const got = pack.nearby(lat, lon, radius, { limit: 1e9 }).map((r) => r.id);
      const expected = [];
      for (let i = 0; i < p.id.length; i++) {
        const d = distance(lat, lon, p.lat[i], p.lon[i]);
        if (d <= radius) expected.push({ id: p.id[i], d });
      }
      expected.sort((a, b) => a.d - b.d || a.id - b.id);
      assert.deepEqual(got, expected.map((e) => e.id), `${lat},${lon} r=${radius}`);
      compared += 1;
      found += got.length;
    }
  }
  assert.ok(found > compared, 'the queries find places');
});
