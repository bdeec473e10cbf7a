// Journeys (clients/web/journeys.js) agree with the Swift reader (`citypack query --journey --format json`) on
// the same packs: depart-at, range and arrive-by queries between random stops and points, with and without
// walking, overnight included; ids the Swift reader gives resolve to the same journeys here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPack } from '../citypack.js';
import { buildCity, fileFetch, needsSharedData, pooled, random, swiftQuery } from '../test-support/support.mjs';

const WIDTH = 2;

function cases(pack, count, seed) {
  const t = pack._part('transit');
  const json = t.json;
  const served = new Set();
  for (const pattern of t.timetable) if (pattern.stops.length >= 2) for (const id of pattern.stops) served.add(id);
  const codes = [...served].sort((a, b) => a - b).map((id) => json.stops.stopId[t.stopIndex.get(id)]);
  const days = [...json.services.start.filter((x) => x != null), ...json.serviceDates.date].sort();
  const day = String(days[Math.floor(days.length / 2)]);
  const base = Date.parse(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}T00:00:00Z`);
  const rand = random(seed);
  const out = [];
  for (let n = 0; n < count; n++) {
    const date = new Date(base + (n % 3) * 86400000).toISOString().slice(0, 10);
    const minutes = n % 4 === 0 ? (22 * 60 + Math.floor(rand() * 300)) % 1440 : Math.floor(rand() * 1440);
    const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    const pick = () => codes[Math.floor(rand() * codes.length)];
    let from = pick();
    let to = pick();
    while (to === from) to = pick();
    if (n % 7 === 3) {
      // A point near a stop (within ~150 m).
      const i = json.stops.stopId.indexOf(from);
      from = `${(json.stops.lat[i] + (rand() - 0.5) * 0.002).toFixed(6)},${(json.stops.lon[i] + (rand() - 0.5) * 0.002).toFixed(6)}`;
    }
    const flags = [];
    const options = {};
    if (n % 5 === 1) {
      flags.push('--window', '30');
      options.window = 30;
    } else if (n % 5 === 2) {
      flags.push('--arrive-by');
      options.arriveBy = true;
    }
    if (n % 6 === 4) {
      flags.push('--max-walk', '0');
      options.maxWalk = 0;
    }
    if (n % 9 === 7) {
      flags.push('--wheelchair');
      options.wheelchair = true;
    }
    if (n % 8 === 5) {
      flags.push('--max-transfers', '1', '--min-change', '0');
      options.maxTransfers = 1;
      options.minChange = 0;
    }
    out.push({ from, to, date, time, flags, options });
  }
  return out;
}

async function journeyAgreement(t, city, count, seed) {
  const built = buildCity(city);
  const pack = await openPack(fileFetch, built.manifestURL, { parts: ['transit'] });
  const list = cases(pack, count, seed);
  const swift = await pooled(list, WIDTH, (c) =>
    swiftQuery(built.database, ['--journey', c.from, '--to', c.to, '--at', `${c.date} ${c.time}`, ...c.flags]),
  );
  const diffs = [];
  let nonEmpty = 0;
  let resolved = 0;
  list.forEach((c, i) => {
    const js = pack.journeys(c.from, c.to, c.date, c.time, c.options);
    try {
      assert.deepStrictEqual(js, swift[i].journeys);
      assert.deepStrictEqual(pack.timetable(c.date), swift[i].timetable);
    } catch {
      diffs.push(`${c.from} → ${c.to} ${c.date} ${c.time} ${c.flags.join(' ')}\n  js:    ${JSON.stringify(js).slice(0, 500)}\n  swift: ${JSON.stringify(swift[i].journeys).slice(0, 500)}`);
    }
    if (swift[i].journeys.length > 0) nonEmpty += 1;
    // The Swift reader's ids resolve here to the same journeys.
    for (const j of swift[i].journeys.slice(0, 2)) {
      const back = pack.journey(j.id, c.options);
      try {
        assert.equal(back.status, 'found');
        assert.deepStrictEqual(back.journey, j);
        resolved += 1;
      } catch {
        diffs.push(`id ${j.id} of ${c.from} → ${c.to}: ${JSON.stringify(back).slice(0, 300)}`);
      }
    }
  });
  const agreeing = list.length - diffs.filter((d) => !d.startsWith('id ')).length;
  t.diagnostic(`journeys ${city}: ${agreeing}/${list.length} agree, ${nonEmpty} with journeys, ${resolved} ids resolved`);
  console.log(`AGREEMENT journeys ${city}: ${agreeing}/${list.length} (${nonEmpty} with journeys, ${resolved} ids resolved)`);
  assert.equal(diffs.length, 0, `${diffs.length} differences:\n${diffs.slice(0, 4).join('\n')}`);
  assert.ok(nonEmpty >= list.length / 2, `${nonEmpty} of ${list.length} queries have journeys`);
}

test('journeys agree with Swift on Milan (depart-at, range, arrive-by, points, no walking, overnight)', { skip: needsSharedData }, async (t) => {
  await journeyAgreement(t, 'milan', 60, 31);
});

test('journeys agree with Swift on NYC subway (stations with platforms, transfers.txt)', { skip: needsSharedData }, async (t) => {
  await journeyAgreement(t, 'nyc', 40, 1904);
});

test('journey ids: invalid and gone are told apart', { skip: needsSharedData }, async () => {
  const built = buildCity('milan');
  const pack = await openPack(fileFetch, built.manifestURL, { parts: ['transit'] });
  assert.deepEqual(pack.journey('not-an-id'), { status: 'invalid' });
  const [first] = pack.journeys('11515', '10796', '2014-10-20', '07:45');
  assert.ok(first, 'a journey from Missori');
  // The same id with another digest (its last characters): the journey is gone; the nearest is offered.
  const altered = first.id.slice(0, -2) + (first.id.endsWith('AA') ? 'BB' : 'AA');
  const gone = pack.journey(altered);
  assert.equal(gone.status, 'gone');
  assert.ok(gone.nearest && gone.nearest.legs.length > 0);
});

test('journey ids are canonical: no one-character change of an id resolves as found (the hand-written feed)', async () => {
  const built = buildCity('tiny');
  const pack = await openPack(fileFetch, built.manifestURL, { parts: ['transit'] });
  const [first] = pack.journeys('ST', 'B', '2024-01-08', '06:55');
  assert.ok(first, 'a journey from Central to Beta on a weekday');
  assert.equal(pack.journey(first.id).status, 'found');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let tried = 0;
  for (let i = 0; i < first.id.length; i++) {
    for (const letter of alphabet) {
      if (letter === first.id[i]) continue;
      const changed = first.id.slice(0, i) + letter + first.id.slice(i + 1);
      assert.notEqual(pack.journey(changed).status, 'found', `${changed} (position ${i} changed) resolves as found`);
      tried++;
    }
  }
  assert.equal(tried, first.id.length * 63);
  // Another spelling of the same bytes (unused low bits of the last character set) is not an id: invalid.
  const bytesOf = (id) => Buffer.from(id.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('hex');
  let spellings = 0;
  for (const [from, time] of [['ST', '06:55'], ['A', '07:05'], ['ST1', '06:50'], ['B', '07:30']]) {
    for (const j of pack.journeys(from, 'FAR', '2024-01-08', time).concat(pack.journeys(from, 'B', '2024-01-08', time))) {
      for (const letter of alphabet) {
        const other = j.id.slice(0, -1) + letter;
        if (other === j.id || bytesOf(other) !== bytesOf(j.id)) continue;
        assert.equal(pack.journey(other).status, 'invalid', `${other} spells ${j.id}'s bytes`);
        spellings++;
      }
    }
  }
  assert.ok(spellings > 0, 'no journey id here has a second spelling to try');
});
