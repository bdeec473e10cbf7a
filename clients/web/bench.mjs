// Benchmark of the web reader in Node: open time and nearby(25 m) latency.
//
//   node clients/web/bench.mjs outputs/vaduz/manifest.json [--queries 20000] [--json]
//
// Open: openPack with every part (fetch from disk, SHA-256, gunzip, JSON.parse, index build), median of 5 runs,
// and with only the places part. Nearby: random points within ~150 m of the pack's places (so most queries have
// results), timed in batches of 100 after a warm-up; the median batch time / 100 is the per-query figure.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { openPack } from './citypack.js';
import { failInOneLine, fileFetch, random, requireInput } from './test-support/support.mjs';

failInOneLine('bench.mjs');

const args = process.argv.slice(2);
const manifest = args.find((a) => !a.startsWith('--'));
if (!manifest) {
  console.error('usage: node clients/web/bench.mjs <manifest.json> [--queries N] [--json]');
  process.exit(64);
}
requireInput('bench.mjs', manifest);
const queries = Number(args[args.indexOf('--queries') + 1]) || 20000;
const url = pathToFileURL(resolve(manifest)).href;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timeOpen(options) {
  const runs = [];
  let pack;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    pack = await openPack(fileFetch, url, options);
    runs.push(performance.now() - t0);
  }
  return { ms: median(runs), pack };
}

const all = await timeOpen({});
const placesOnly = await timeOpen({ parts: ['places'] });
const pack = all.pack;
const places = pack._part('places');
const rand = random(25);
const points = [];
for (let k = 0; k < queries; k++) {
  const i = Math.floor(rand() * places.cells.length);
  points.push([places.lat[i] + (rand() - 0.5) * 0.0027, places.lon[i] + (rand() - 0.5) * 0.004]);
}
let found = 0;
for (let k = 0; k < Math.min(2000, queries); k++) found += pack.nearby(points[k][0], points[k][1], 25).length; // warm-up
const batches = [];
const batch = 100;
for (let k = 0; k + batch <= points.length; k += batch) {
  const t0 = performance.now();
  for (let j = k; j < k + batch; j++) found += pack.nearby(points[j][0], points[j][1], 25).length;
  batches.push(((performance.now() - t0) * 1000) / batch);
}
// search(word, near): "where is the nearest …?" — the category words of the pack (toilet, ATM, food, metro,
// pharmacy where it has them) at 1 000 random points, each query timed alone.
const searchTimes = [];
const [minLon, minLat, maxLon, maxLat] = pack.manifest.bbox;
const words = ['toilet', 'ATM', 'food', 'metro', 'pharmacy'].filter((w) => pack.search(w, undefined, { near: [minLat, minLon], limit: 1 }).length > 0);
for (let k = 0; k < 1000 && words.length > 0; k++) {
  const near = [minLat + rand() * (maxLat - minLat), minLon + rand() * (maxLon - minLon)];
  const t0 = performance.now();
  found += pack.search(words[k % words.length], undefined, { near }).length * 0;
  searchTimes.push((performance.now() - t0) * 1000);
}
const result = {
  manifest,
  searchNearMedianMicroseconds: searchTimes.length ? Number(median(searchTimes).toFixed(1)) : null,
  searchWords: words,
  places: places.cells.length,
  openAllPartsMs: Number(all.ms.toFixed(1)),
  openPlacesMs: Number(placesOnly.ms.toFixed(1)),
  nearby25mMedianMicroseconds: Number(median(batches).toFixed(2)),
  queries: batches.length * batch,
  resultsPerQuery: Number((found / (batches.length * batch + Math.min(2000, queries))).toFixed(2)),
};
if (args.includes('--json')) console.log(JSON.stringify(result));
else {
  console.log(`${manifest}: ${result.places} places`);
  console.log(`open (all parts): ${result.openAllPartsMs} ms median of 5; places only: ${result.openPlacesMs} ms`);
  console.log(`nearby(25 m): ${result.nearby25mMedianMicroseconds} µs median per query (${result.queries} queries, ${result.resultsPerQuery} results each)`);
  console.log(`search(word, near): ${result.searchNearMedianMicroseconds} µs median (1000 random points; ${words.join(', ')})`);
}
