// "Where is the nearest toilet?" (issue 32): for random points in a city, the first result of
// search(word, {near: point}) must be the place of that category nearest to the point, found here by measuring the
// distance to every place of the pack (brute force over the places part, independent of the reader's index and
// rings). Words in English and in the city's language. Prints `NEAREST city word: agreeing/points` and the median
// search time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distance, openPack } from '../citypack.js';
import { NEAREST_WORDS, buildCity, fileFetch, needsSharedData, randomPoints } from '../test-support/support.mjs';

/** The nearest place of a category (or of any of comma-joined ones) by measuring every place (ties by id); null when the pack has none. */
function bruteNearest(places, category, lat, lon) {
  const wanted = category.split(',');
  let best = null;
  for (let i = 0; i < places.cells.length; i++) {
    const id = places.id[i];
    if (!wanted.includes(places.category[i]) && !(places.also[id] ?? []).some((c) => wanted.includes(c))) continue;
    const d = distance(lat, lon, places.lat[i], places.lon[i]);
    if (best === null || d < best.d || (d === best.d && id < best.id)) best = { id, d };
  }
  return best;
}

async function nearestAgreement(t, city, languages, points, seed) {
  const built = buildCity(city);
  const pack = await openPack(fileFetch, built.manifestURL, { parts: ['places', 'search'] });
  const places = pack._part('places');
  const at = randomPoints(pack, points, seed);
  let checked = 0;
  let agreeing = 0;
  const times = [];
  for (const language of languages) {
    for (const [word, category] of Object.entries(NEAREST_WORDS[language])) {
      if (bruteNearest(places, category, at[0][0], at[0][1]) === null) {
        console.log(`NEAREST ${city} ${word} (${category}): no such place in the pack`);
        continue;
      }
      let ok = 0;
      const misses = [];
      for (const [lat, lon] of at) {
        const t0 = performance.now();
        const first = pack.search(word, undefined, { near: [lat, lon] })[0];
        times.push(performance.now() - t0);
        const truth = bruteNearest(places, category, lat, lon);
        if (first && (first.id === truth.id || Math.round(truth.d * 100) / 100 === first.distance_m)) ok += 1;
        else if (misses.length < 3) misses.push(`${lat},${lon}: ${first?.id}@${first?.distance_m} vs ${truth.id}@${truth.d}`);
      }
      console.log(`NEAREST ${city} ${word} (${category}): ${ok}/${at.length}${misses.length ? ` misses ${misses.join('; ')}` : ''}`);
      checked += at.length;
      agreeing += ok;
    }
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)];
  console.log(`NEAREST ${city}: ${agreeing}/${checked}; search(word, near) p50 ${(p50 * 1000).toFixed(1)} µs over ${times.length} queries`);
  t.diagnostic(`${city}: ${agreeing}/${checked} first results are the brute-force nearest`);
  assert.ok(checked > 0, `${city}: no word of the list names a category with places`);
  assert.ok(agreeing >= 0.99 * checked, `${city}: ${agreeing}/${checked} first results are the nearest (need ≥ 99 %)`);
}

test('search(word, near) finds the nearest place of the category: Monaco, 300 points, en + fr', async (t) => {
  await nearestAgreement(t, 'monaco', ['en', 'fr'], 300, 32);
});

test('search(word, near) finds the nearest place: Liechtenstein, 1000 points, en + de', { skip: needsSharedData }, async (t) => {
  await nearestAgreement(t, 'vaduz', ['en', 'de'], 1000, 3201);
});

test('search(word, near) finds the nearest place: Milan + ATM GTFS, 1000 points, en + it', { skip: needsSharedData }, async (t) => {
  await nearestAgreement(t, 'milan', ['en', 'it'], 1000, 3202);
});

test('search(word, near) finds the nearest place: NYC subway (stops by their mode), 1000 points, en', { skip: needsSharedData }, async (t) => {
  await nearestAgreement(t, 'nyc', ['en'], 1000, 3203);
});
