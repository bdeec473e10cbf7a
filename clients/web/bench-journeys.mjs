// Benchmark of the web reader's journey planner in Node (journeys.js): routing data build time, and the latency
// of earliest-arrival (depart-at, Pareto set, ≤ 5 transfers) and 60-minute range queries between random served
// stops at random times 06:00–22:00 of a weekday in the middle of the feed. Target (Milan): p50 ≤ 25 ms.
//
//   node clients/web/bench-journeys.mjs outputs/milan/manifest.json [--queries 500]
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { openPack } from './citypack.js';
import { failInOneLine, fileFetch, random, requireInput } from './test-support/support.mjs';

failInOneLine('bench-journeys.mjs');

const args = process.argv.slice(2);
const manifest = args.find((a) => !a.startsWith('--'));
if (!manifest) {
  console.error('usage: node clients/web/bench-journeys.mjs <manifest.json> [--queries N]');
  process.exit(64);
}
requireInput('bench-journeys.mjs', manifest);
const queries = Number(args[args.indexOf('--queries') + 1]) || 500;
const pack = await openPack(fileFetch, pathToFileURL(resolve(manifest)).href, { parts: ['transit'] });
const t = pack._part('transit');
const json = t.json;

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.round((s.length - 1) * p))] ?? 0;
};

// Routing data: built on the first journey query; timed here on its own.
const t0 = performance.now();
pack.journeys('', '', '2000-01-03', 0);
const buildMs = performance.now() - t0;

const served = new Set();
for (const pattern of t.timetable) if (pattern.stops.length >= 2) for (const id of pattern.stops) served.add(id);
const codes = [...served].sort((a, b) => a - b).map((id) => json.stops.stopId[t.stopIndex.get(id)]);
const days = [...json.services.start.filter((x) => x != null), ...json.services.end.filter((x) => x != null), ...json.serviceDates.date].sort();
const dayOf = (v) => Date.UTC(Math.floor(v / 10000), (Math.floor(v / 100) % 100) - 1, v % 100) / 86400000;
let day = Math.floor((dayOf(days[0]) + dayOf(days[days.length - 1])) / 2);
while ((((day + 3) % 7) + 7) % 7 > 4) day += 1;
const date = new Date(day * 86400000).toISOString().slice(0, 10);
const rand = random(2015);
const cases = [];
while (cases.length < queries) {
  const a = codes[Math.floor(rand() * codes.length)];
  const b = codes[Math.floor(rand() * codes.length)];
  if (a !== b) cases.push([a, b, 6 * 3600 + Math.floor(rand() * 16 * 3600)]);
}
for (const [a, b, s] of cases.slice(0, 20)) pack.journeys(a, b, date, s); // warm-up
const earliest = [];
const range = [];
let withJourneys = 0;
cases.forEach(([a, b, s], n) => {
  const q0 = performance.now();
  const found = pack.journeys(a, b, date, s);
  earliest.push(performance.now() - q0);
  if (found.length) withJourneys += 1;
  if (n % 5 === 0) {
    const r0 = performance.now();
    pack.journeys(a, b, date, s, { window: 60 });
    range.push(performance.now() - r0);
  }
});
const f = (x) => x.toFixed(2);
console.log(`journeys (Node ${process.versions.node}) on ${date}, ${cases.length} random stop pairs, 06:00–22:00, ≤ 5 transfers:`);
console.log(`  routing data build              ${f(buildMs)} ms`);
console.log(`  earliest arrival (Pareto set)   p50 ${f(percentile(earliest, 0.5))} ms   p99 ${f(percentile(earliest, 0.99))} ms   (${withJourneys} with journeys)`);
console.log(`  60-minute range query (${range.length})     p50 ${f(percentile(range, 0.5))} ms   p99 ${f(percentile(range, 0.99))} ms`);
