// Stop names (stop-names.js, CityPack.stopsNamed) resolve a typed name into a journey's end as the Swift reader's
// `stops(named:locale:)` does behind `citypack query --journey NAME --to TO`. The CLI shows the resolution: a
// name that fits several places lists them (exit 1), one no stop has is an error, same-named stops side by side
// print a note with their stop_ids and the journeys start at the point between them; one stop or station prints
// nothing but every journey id encodes its origin (the stop_id, or the point in micro-degrees). Each name is
// compared on that, and on the journeys themselves (CityPack.journeys from the JS endpoint). A hand-written feed
// gives each kind a known answer; nameKey is checked against keys Swift's nameKey computed.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { openPack } from '../citypack.js';
import { searchFold } from '../internal.js';
import { nameKey, SAME_STOP_METRES } from '../stop-names.js';
import { buildCity, citypackBinary, fileFetch, needsSharedData, pooled } from '../test-support/support.mjs';

const run = promisify(execFile);
const WIDTH = 2; // concurrent citypack processes

/** The origin a journey id encodes (journeys.js encodeId): `{stop}` or `{lat, lon}` in micro-degrees. */
function idOrigin(id) {
  const bytes = Buffer.from(id.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  let at = 2;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const b = bytes[at++];
      value |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return Number(value & 1n ? -((value + 1n) >> 1n) : value >> 1n);
    }
  };
  if (bytes[1] === 0) {
    const length = varint();
    return { stop: bytes.subarray(at, at + length).toString('utf8') };
  }
  return { lat: varint(), lon: varint() };
}

const micro = (v) => Math.sign(v) * Math.round(Math.abs(v) * 1e6);
/** A Double as Swift prints it ("45.45", "9.0"). */
const swiftDouble = (v) => (Number.isInteger(v) ? v.toFixed(1) : String(v));

/**
 * What `query --journey NAME` shows of the resolution (exit status, stderr, the journeys' origin), at the first of
 * `queries` with journeys (a stop served only at night has none by day).
 */
async function swiftResolution(database, name, queries, locale) {
  let answer;
  for (const query of queries) {
    answer = await swiftQueryOnce(database, name, query, locale);
    if (!answer.journeys || answer.journeys.length > 0) break;
  }
  return answer;
}

async function swiftQueryOnce(database, name, query, locale) {
  const args = ['query', database, '--journey', name, '--to', query.to, '--at', query.at, '--window', String(query.window), '--format', 'json'];
  if (locale) args.push('--locale', locale);
  let status = 0;
  let stdout;
  let stderr;
  try {
    ({ stdout, stderr } = await run(citypackBinary(), args, { maxBuffer: 1 << 26 }));
  } catch (e) {
    if (e.code !== 1) throw e;
    ({ stdout, stderr } = e);
    status = 1;
  }
  if (status === 1 && stderr.includes('no stop with stop_id or name')) return { kind: 'none' };
  const listed = /names (\d+) places; give the stop_id of one of them/.exec(stderr);
  if (status === 1 && listed) {
    const lines = stderr.split('\n').filter((l) => l.startsWith('  ') && !l.startsWith('  … and'));
    return { kind: 'ambiguous', count: Number(listed[1]), lines };
  }
  assert.equal(status, 0, `${name}: ${stderr}`);
  const journeys = JSON.parse(stdout).journeys;
  const origin = journeys.length > 0 ? idOrigin(journeys[0].id) : null;
  const note = /note: '.*' is (\d+) stops side by side \((.*): stop_id (.*)\); the journey uses the point between them/.exec(stderr);
  if (note) return { kind: 'place', count: Number(note[1]), name: note[2], stops: note[3].split(', '), at: query.at, origin, journeys };
  return { kind: 'stop', at: query.at, origin, journeys };
}

/** The same view of a JS resolution (journeys from its endpoint, as the CLI plans them). */
function jsResolution(pack, name, queries, locale) {
  const r = pack.stopsNamed(name, locale);
  let journeys = [];
  let query;
  for (query of queries) {
    const [date, time] = query.at.split(' ');
    journeys = r.endpoint == null ? [] : pack.journeys(r.endpoint, query.to, date, time, { window: query.window });
    if (journeys.length > 0) break;
  }
  const origin = journeys.length > 0 ? (r.kind === 'stop' ? { stop: r.stop.stop_id } : { lat: micro(r.lat), lon: micro(r.lon) }) : null;
  switch (r.kind) {
    case 'none':
      return { kind: 'none' };
    case 'ambiguous':
      return {
        kind: 'ambiguous',
        count: r.candidates.length,
        lines: r.candidates.slice(0, 20).map((c) => `  ${c.stop_id ?? ''}\t${c.name ?? ''}\t${c.category === 'transit_station' ? 'station' : 'stop'}\t${swiftDouble(c.lat)},${swiftDouble(c.lon)}`),
      };
    case 'place':
      return { kind: 'place', count: r.stops.length, name: r.name, stops: r.stops.map((s) => s.stop_id), at: query.at, origin, journeys };
    default:
      return { kind: 'stop', at: query.at, origin, journeys };
  }
}

/** Compares every name; returns the tally per kind. */
async function compare(t, what, database, pack, names, queries) {
  assert.equal(new Set(names.map((n) => JSON.stringify(n))).size, names.length, 'names are distinct');
  for (const [name] of names) {
    // A stop_id or LAT,LON never reaches stops(named:) in the CLI: such a name would compare nothing.
    assert.equal(pack.stop(name), null, `${name} is a stop_id`);
    assert.ok(!/^\s*-?[\d.]+\s*,\s*-?[\d.]+\s*$/.test(name), `${name} is a coordinate`);
  }
  const swift = await pooled(names, WIDTH, ([name, locale]) => swiftResolution(database, name, queries, locale));
  const diffs = [];
  const kinds = {};
  let withOrigin = 0;
  names.forEach(([name, locale], i) => {
    const js = jsResolution(pack, name, queries, locale);
    kinds[swift[i].kind] = (kinds[swift[i].kind] ?? 0) + 1;
    if (swift[i].origin) withOrigin++;
    try {
      assert.deepStrictEqual(js, swift[i]);
    } catch {
      const brief = (x) => JSON.stringify({ ...x, journeys: x.journeys?.length }).slice(0, 700);
      diffs.push(`${JSON.stringify(name)}${locale ? ` (${locale})` : ''}\n  js:    ${brief(js)}\n  swift: ${brief(swift[i])}`);
    }
  });
  const agreeing = names.length - diffs.length;
  const summary = Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(', ');
  t.diagnostic(`${what}: ${agreeing}/${names.length} agree (${summary}; ${withOrigin} with a journey origin)`);
  console.log(`AGREEMENT ${what}: ${agreeing}/${names.length} (${summary}; ${withOrigin} with a journey origin)`);
  assert.equal(diffs.length, 0, `${diffs.length} of ${names.length} names resolve differently:\n${diffs.slice(0, 6).join('\n')}`);
  return { kinds, withOrigin };
}

// -- nameKey ----------------------------------------------------------------------------------------------------

// [text, Swift's PackReader.nameKey(text)] — computed by the Swift function (Foundation on Linux, Swift 6.3).
const NAME_KEYS = [
  ["Sant'Ambrogio", 'sant ambrogio'],
  ['P.TA GENOVA F.S.', 'p ta genova f s'],
  ['  Cadorna   F.N.  ', 'cadorna f n'],
  ['Straße', 'strasse'],
  ['ẞTRASSE', 'sstrasse'],
  ['ÆRØ', 'aero'],
  ['İstanbul', 'istanbul'],
  ['Łódź', 'lodz'],
  ['São Paulo – Centro', 'sao paulo centro'],
  ['Ελληνικό', 'ελληνικο'],
  ['ΣΊΣΥΦΟΣ', 'σισυφοσ'],
  ['Йошкар-Ола', 'иошкар ола'],
  ['東京駅', '東京駅'],
  ['Café ﬁnal', 'cafe final'],
  ['ǅ', 'ǆ'],
  ['क़ुतुब', 'कु़तुब'],
  ['Tel Aviv-Yafo (מרכז)', 'tel aviv yafo מרכז'],
  ['Dvořákova, 5', 'dvorakova 5'],
  ['Hôtel‑de‑Ville', 'hotel de ville'],
  ['«Piazza»…Duomo', 'piazza duomo'],
  ['Cafe\u0301 \u0301x', 'cafe x'],
  ['\t!!! ', ''],
];

test('nameKey folds as Swift: case, diacritics, SearchFold, whitespace and punctuation', () => {
  for (const [text, key] of NAME_KEYS) assert.equal(nameKey(text, searchFold), key.normalize('NFC'), JSON.stringify(text));
  assert.equal(SAME_STOP_METRES, 400);
});

test('stop-names.js imports nothing (citypack.js passes search, stop, distance and searchFold in)', () => {
  const text = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../stop-names.js'), 'utf8');
  assert.deepEqual([...text.matchAll(/^\s*import\b.*$/gm)].map((m) => m[0]), []);
});

// -- a hand-written feed: one known answer per kind --------------------------------------------------------------

const NAMES_FEED = {
  'agency.txt': `agency_id,agency_name,agency_url,agency_timezone
N,Names Transit,https://example.org,Europe/Rome`,
  // Duomo: a station and its two platforms; Via Roma: two stops 50 m apart, no station; Garibaldi: a station and
  // two stops kilometres apart; Cadorna FN (a station) and Cadorna M1 70 m apart, Via Cadorna far off; Lanza: a
  // station and a same-named stop beside it that is not its platform; San Bàbila with a diacritic.
  'stops.txt': `stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
DUOMO,Duomo,45.4642,9.1900,1,
D1,Duomo,45.4643,9.1902,0,DUOMO
D2,Duomo,45.4641,9.1898,0,DUOMO
VR1,Via Roma,45.4700,9.2000,0,
VR2,Via Roma,45.4704,9.2003,0,
GST,Garibaldi,45.4850,9.1880,1,
G1,Garibaldi,45.4500,9.1500,0,
G2,Garibaldi,45.4400,9.2300,0,
CFN,Cadorna FN,45.4680,9.1760,1,
CM,Cadorna M1,45.4684,9.1766,0,
VC,Via Cadorna,45.4300,9.1000,0,
LZ,Lanza,45.4720,9.1850,1,
LZ1,Lanza,45.4722,9.1852,0,
SB,San Bàbila,45.4668,9.1980,0,`,
  'routes.txt': `route_id,agency_id,route_short_name,route_long_name,route_type
R,N,1,One,3`,
  'calendar.txt': `service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
WD,1,1,1,1,1,0,0,20240101,20241231`,
  'trips.txt': `route_id,service_id,trip_id
R,WD,T1
R,WD,T2`,
  'stop_times.txt': `trip_id,arrival_time,departure_time,stop_id,stop_sequence
T1,08:00:00,08:00:00,VR1,1
T1,08:05:00,08:05:00,D1,2
T1,08:08:00,08:08:00,LZ1,3
T1,08:10:00,08:10:00,SB,4
T1,08:15:00,08:15:00,CM,5
T1,08:20:00,08:20:00,G1,6
T1,08:30:00,08:30:00,VC,7
T2,08:02:00,08:02:00,VR2,1
T2,08:07:00,08:07:00,D2,2
T2,08:12:00,08:12:00,G2,3
T2,08:40:00,08:40:00,VC,4`,
};

let namesPack;
/** The hand-written feed built with the citypack binary (once): manifest URL and decompressed database. */
function buildNames() {
  if (namesPack) return namesPack;
  const bin = citypackBinary();
  const dir = mkdtempSync(join(tmpdir(), 'citypack-web-names-'));
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
  const feed = join(dir, 'feed');
  mkdirSync(feed);
  for (const [file, text] of Object.entries(NAMES_FEED)) writeFileSync(join(feed, file), `${text.trim()}\n`);
  const input = join(dir, 'inputs', 'names');
  execFileSync(bin, ['init', input, '--gtfs', feed, '--id', 'names', '--locales', 'en', '--bbox', '9.0,45.3,9.5,45.6'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const output = join(dir, 'outputs');
  execFileSync(bin, ['build', input, '--output', output, '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const artifact = readdirSync(join(output, 'names')).find((f) => f.endsWith('.citypack.gz'));
  const database = join(dir, 'names.sqlite');
  execFileSync('sh', ['-c', 'gunzip -c "$1" > "$2"', 'sh', join(output, 'names', artifact), database]);
  namesPack = { manifestURL: pathToFileURL(join(output, 'names', 'manifest.json')).href, database };
  return namesPack;
}

test('each kind on a hand-written feed: a station, stops side by side, an interchange, ambiguous, none', async () => {
  const built = buildNames();
  const pack = await openPack(fileFetch, built.manifestURL);
  const ids = (list) => list.map((s) => s.stop_id);
  // Exact name: the station's group (search gives a station and its same-named platforms as one result).
  const duomo = pack.stopsNamed('duomo');
  assert.equal(duomo.kind, 'stop');
  assert.ok(['DUOMO', 'D1', 'D2'].includes(duomo.stop.stop_id), duomo.stop.stop_id);
  assert.equal(duomo.endpoint, duomo.stop.stop_id);
  // A station stands for a same-named stop beside it that is not its platform.
  const lanza = pack.stopsNamed('LANZA');
  assert.equal(lanza.kind, 'stop');
  assert.equal(lanza.stop.stop_id, 'LZ');
  assert.equal(lanza.stop.category, 'transit_station');
  // Case and diacritics do not matter.
  for (const typed of ['san babila', 'SAN BÀBILA', 'San  Bàbila!']) assert.equal(pack.stopsNamed(typed).stop?.stop_id, 'SB', typed);
  // Same-named stops 50 m apart, no station: the point between them.
  const roma = pack.stopsNamed('Via Roma');
  assert.equal(roma.kind, 'place');
  assert.deepEqual(ids(roma.stops).sort(), ['VR1', 'VR2']);
  assert.equal(roma.name, 'Via Roma');
  assert.ok(Math.abs(roma.lat - 45.4702) < 1e-9 && Math.abs(roma.lon - 9.20015) < 1e-9, `${roma.lat},${roma.lon}`);
  assert.equal(roma.endpoint, `${roma.lat},${roma.lon}`);
  const [first] = pack.journeys(roma.endpoint, 'VC', '2024-01-08', '07:55');
  assert.ok(first && first.legs[0].mode === 'walk', 'a journey walks from the point between them');
  // No exact name: the names starting with it, side by side (a station and a stop 70 m apart), are one place;
  // "Via Cadorna" far off is not meant.
  const cadorna = pack.stopsNamed('Cadorna');
  assert.equal(cadorna.kind, 'place');
  assert.deepEqual(ids(cadorna.stops).sort(), ['CFN', 'CM']);
  assert.equal(cadorna.name.split(', ').sort().join(', '), 'Cadorna FN, Cadorna M1');
  // Places far apart: ambiguous, stations first, then by name and id.
  const garibaldi = pack.stopsNamed('Garibaldi');
  assert.equal(garibaldi.kind, 'ambiguous');
  assert.equal(garibaldi.endpoint, null);
  assert.deepEqual(ids(garibaldi.candidates), ['GST', ...['G1', 'G2'].sort((a, b) => pack.stop(a).id - pack.stop(b).id)]);
  const via = pack.stopsNamed('via');
  assert.equal(via.kind, 'ambiguous');
  assert.deepEqual(via.candidates.map((c) => c.name), ['Via Cadorna', 'Via Roma']);
  // Whole words only, and names no stop has.
  for (const typed of ['Rom', 'Atlantis', '!!!', '']) assert.deepEqual(pack.stopsNamed(typed), { kind: 'none', endpoint: null }, typed);
});

test('the hand-written feed resolves as Swift (query --journey NAME)', async (t) => {
  const built = buildNames();
  const pack = await openPack(fileFetch, built.manifestURL);
  const names = ['duomo', 'Duomo', 'LANZA', 'san babila', 'SAN BÀBILA', 'Via Roma', 'via  roma', 'Cadorna', 'Cadorna FN', 'cadorna m1', 'Garibaldi', 'Via', 'Rom', 'Atlantis', '!!!'];
  const { kinds } = await compare(t, 'stop names (hand-written feed)', built.database, pack, names.map((n) => [n]), [{ to: '45.43,9.1', at: '2024-01-08 07:50', window: 60 }]);
  assert.ok(kinds.stop >= 3 && kinds.place >= 2 && kinds.ambiguous >= 2 && kinds.none >= 2, JSON.stringify(kinds));
});

// -- Milan: ATM's feed and OpenStreetMap (stops linked to OSM stations and platforms) ----------------------------

// JourneyByNameTests' names, then stops and platforms as typed (other case, accents added or left out), names
// of several stops side by side and prefixes ("Cadorna", "Genova", "Cordusio"), names that fit many places, and
// names no stop has (nonsense, "Rom" only a prefix of "Roma…", "Cadorna FN" where the stop is "CADORNA F.N."). None
// is a stop_id (checked). ATM's 2015 feed has no stations (location_type 1): its stops stand alone.
const MILAN_NAMES = [
  'loreto m2', 'Genova', 'Via', 'Loreto', 'Atlantis Central',
  'Duomo', 'Centrale', 'Garibaldi', 'San Babila', 'SAN BABILA', 'san bàbila', 'Lanza', 'Moscova', 'Palestro',
  'Lambrate', 'Famagosta', 'Romolo', 'Piola', 'Udine', 'S. Ambrogio', 'cadorna m1 m2', 'Centrale FS', 'Pagano',
  'Conciliazione', 'Amendola', 'Precotto', 'Gorla', 'Turro', 'Pasteur', 'pàstèur', 'Caiazzo', 'gioia',
  'Abbiategrasso', 'Venezia', 'Monte Velino',
  'Cadorna', 'Cordusio', 'CORDÙSIO', 'Missori', 'Crocetta', 'Lodi', 'Isola', 'p.ta genova m2', 'P.TA GENOVA',
  'duomo m1 m3', 'De Angeli', 'Lotto', 'Romolo m2', 'Vittoria',
  'Sesto', 'm1', 'F.S.', 'v.le', 'p.le', 'c.so',
  'Porta Garibaldi', "Sant'Ambrogio", 'Rom', 'Cadorna FN', 'Stazione', 'Xyzzy Plugh', '!!!',
].map((n) => [n]);
const MILAN_EN = ['Duomo', 'Centrale', 'Genova', 'Cadorna', 'Sesto', 'Atlantis'].map((n) => [n, 'en']);

test('stop names resolve as Swift on Milan (ATM GTFS + OSM): stops, stations, side by side, ambiguous, none', { skip: needsSharedData }, async (t) => {
  const built = buildCity('milan');
  const pack = await openPack(fileFetch, built.manifestURL, { parts: ['places', 'search', 'transit'] });
  const { kinds, withOrigin } = await compare(t, 'stop names Milan', built.database, pack, [...MILAN_NAMES, ...MILAN_EN], [
    { to: '45.4855,9.2045', at: '2014-10-21 09:00', window: 60 },
    { to: '45.4855,9.2045', at: '2014-10-21 23:50', window: 60 },
  ]);
  assert.ok(kinds.stop >= 25 && kinds.place >= 12 && kinds.ambiguous >= 6 && kinds.none >= 6, JSON.stringify(kinds));
  assert.equal(withOrigin, kinds.stop + kinds.place, 'every stop and place has journeys that show their origin');
  // JourneyByNameTests' answers.
  assert.equal(pack.stopsNamed('loreto m2').endpoint, 'LORETO M2');
  const genova = pack.stopsNamed('Genova');
  assert.equal(genova.kind, 'place');
  assert.equal(genova.stops.length, 3);
  assert.ok(genova.stops.some((s) => s.stop_id === 'P.TA GENOVA F.S.') && genova.stops.some((s) => s.stop_id === '11178'));
  assert.ok(pack.stopsNamed('Via').candidates.length >= 10);
  assert.equal(pack.stopsNamed('Atlantis Central').kind, 'none');
});
