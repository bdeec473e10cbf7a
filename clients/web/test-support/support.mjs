// Test support for the web reader: builds real packs with the citypack binary into a temporary folder, reads
// them through a file-backed fetch, and runs `citypack query --format json` for the Swift answers.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The package root (clients/web/test → ../../..). */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The shared real data beside the clone (../shared/data), as the Swift tests find it. */
export const sharedData = process.env.CITYPACK_SHARED_DATA ?? resolve(root, '../shared/data');
/**
 * The `skip` option of a test that needs the shared data: false when it is there, else the reason (as the Swift
 * tests report it). Monaco and the hand-written feed need nothing outside the repository.
 */
export const needsSharedData = existsSync(sharedData) ? false : 'needs ../shared/data beside the clone (CI provides it)';

const binaryCandidates = [process.env.CITYPACK_BIN, join(root, '.build/release/citypack'), join(root, '.build/debug/citypack')];

/** The `skip` option of a test that builds with the citypack binary: false when there is one, else the reason. */
export const needsBinary = binaryCandidates.some((p) => p && existsSync(p)) ? false : 'needs the citypack binary (swift build)';

/** The citypack binary: $CITYPACK_BIN, else the release build, else the debug build. */
export function citypackBinary() {
  const found = binaryCandidates.find((p) => p && existsSync(p));
  if (!found) throw new Error('no citypack binary: run `swift build` first (or set CITYPACK_BIN)');
  return found;
}

/** A fetch over file: URLs (Node's fetch has none), with the shape openPack needs. */
export async function fileFetch(url) {
  try {
    const bytes = await readFile(fileURLToPath(url));
    return { ok: true, status: 200, arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) };
  } catch {
    return { ok: false, status: 404, arrayBuffer: async () => new ArrayBuffer(0) };
  }
}

/**
 * A small hand-written GTFS feed exercising what real feeds here do not: frequencies (exact and not), a station
 * with platforms, trips past midnight, calendar_dates adding and removing days, equal times on several lines.
 */
const tinyFeed = {
  'agency.txt': `agency_id,agency_name,agency_url,agency_timezone
X,Tiny Transit,https://example.org,Europe/Rome`,
  'stops.txt': `stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
ST,Central,45.46,9.19,1,
ST1,Central platform 1,45.4601,9.1901,0,ST
ST2,Central platform 2,45.4599,9.1899,0,ST
A,Alpha,45.47,9.20,0,
B,Beta,45.48,9.21,0,
C,Gamma,45.49,9.22,0,
FAR,Faraway Terminal,46.2,10.2,0,`,
  'routes.txt': `route_id,agency_id,route_short_name,route_long_name,route_type,route_color
R1,X,1,One,3,FF0000
R2,X,,Two long,0,
R3,X,N,Night,3,000080`,
  'calendar.txt': `service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
WD,1,1,1,1,1,0,0,20240101,20241231
WE,0,0,0,0,0,1,1,20240101,20241231`,
  'calendar_dates.txt': `service_id,date,exception_type
WD,20240501,2
WE,20240501,1
HOL,20240815,1`,
  'trips.txt': `route_id,service_id,trip_id,trip_headsign
R1,WD,r1a,Beta
R1,WD,r1b,Beta
R2,WD,r2a,Gamma
R2,WE,r2w,Gamma weekend
R3,WD,r3n,Night Gamma
R1,WD,f1,Frequent Beta
R2,WE,f2,Frequent Gamma
R1,HOL,h1,Holiday`,
  'stop_times.txt': `trip_id,arrival_time,departure_time,stop_id,stop_sequence
r1a,07:00:00,07:00:00,ST1,1
r1a,07:10:00,07:10:00,A,2
r1a,07:20:00,07:20:00,B,3
r1a,08:20:00,08:20:00,FAR,4
r1b,07:10:00,07:10:00,ST2,1
r1b,07:20:00,07:20:00,A,2
r1b,07:30:00,07:30:00,B,3
r2a,07:10:00,07:10:00,ST1,1
r2a,07:25:00,07:25:00,A,2
r2a,07:40:00,07:40:00,C,3
r2w,09:00:00,09:00:00,ST2,1
r2w,09:15:00,09:15:00,C,2
r3n,23:50:00,23:50:00,ST1,1
r3n,24:20:00,24:20:00,A,2
r3n,25:05:00,25:05:00,B,3
r3n,26:10:00,26:10:00,C,4
f1,06:00:00,06:00:00,ST1,1
f1,06:04:00,06:04:00,A,2
f1,06:09:00,06:09:00,B,3
f2,10:00:00,10:00:00,ST2,1
f2,10:07:00,10:07:00,C,2
h1,12:00:00,12:00:00,A,1
h1,12:30:00,12:30:00,B,2`,
  'frequencies.txt': `trip_id,start_time,end_time,headway_secs,exact_times
f1,06:00:00,09:00:00,600,1
f1,17:00:00,19:00:00,900,0
f2,10:00:00,22:00:00,1800,1`,
};

const built = new Map();

/**
 * Builds a city (once per process) and returns its manifest path and its decompressed pack database (the
 * fastest input for `citypack query`).
 * @param {'monaco'|'vaduz'|'milan'|'nyc'|'tiny'|'cjk'|'taveuni'|'journeys'|'fold'} city
 */
export function buildCity(city) {
  if (built.has(city)) return built.get(city);
  const bin = citypackBinary();
  // The cities of ../shared/data take seconds to build (Milan ~10 s of CPU in a debug build), and every test file
  // is a process of its own: those are built once per binary and shared between processes through a folder named
  // by the binary's identity. The tests only read it; a process that loses the race to publish it uses the
  // winner's copy.
  const sharedKey = SHARED_CITIES.has(city) ? binaryIdentity(bin, city) : null;
  const sharedDir = sharedKey && join(tmpdir(), `citypack-web-shared-${city}-${sharedKey}`);
  if (sharedDir && existsSync(join(sharedDir, 'complete'))) return remember(city, resultIn(sharedDir, city));
  const dir = mkdtempSync(join(tmpdir(), `citypack-web-${city}-`));
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
  let input;
  if (city === 'monaco') {
    input = join(root, 'inputs/monaco');
  } else if (city === 'taveuni') {
    // Across the antimeridian (Tests/Fixtures/antimeridian): init derives a box with minLon > maxLon.
    input = join(dir, 'inputs', city);
    const fixture = join(root, 'Tests/Fixtures/antimeridian');
    const args = ['init', input, '--osm', join(fixture, 'map.osm'), '--gtfs', join(fixture, 'gtfs'), '--id', city];
    execFileSync(bin, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  } else if (city === 'journeys') {
    // The language-neutral journey cases' feed (Tests/Fixtures/journeys/gtfs, cases.json beside it).
    input = join(dir, 'inputs', city);
    const feed = join(root, 'Tests/Fixtures/journeys/gtfs');
    execFileSync(bin, ['init', input, '--gtfs', feed, '--id', city, '--locales', 'en'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  } else if (city === 'fold') {
    // One café per letter of SEARCH_FOLDS, named Kaf<letter>wort (Tests/Fixtures/fold/map.osm).
    input = join(dir, 'inputs', city);
    const osm = join(root, 'Tests/Fixtures/fold/map.osm');
    execFileSync(bin, ['init', input, '--osm', osm, '--id', city, '--locales', 'de,en'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  } else if (city === 'cjk') {
    // Chinese, Japanese and Korean names (Tests/Fixtures/cjk), indexed as bigrams.
    input = join(dir, 'inputs', city);
    const osm = join(root, 'Tests/Fixtures/cjk/map.osm');
    execFileSync(bin, ['init', input, '--osm', osm, '--id', city, '--locales', 'ja,zh,ko,en'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  } else if (city === 'nyc' || city === 'tiny') {
    input = join(dir, 'inputs', city);
    let feed = join(sharedData, 'gtfs/nyc-subway-2025.zip');
    if (city === 'tiny') {
      feed = join(dir, 'feed');
      mkdirSync(feed, { recursive: true });
      for (const [name, text] of Object.entries(tinyFeed)) writeFileSync(join(feed, name), `${text.trim()}\n`);
    }
    // The tiny city's bbox leaves stop FAR outside: kept (below), searchable, but not in the proximity index.
    const bbox = city === 'tiny' ? ['--bbox', '9.0,45.3,9.5,45.6'] : [];
    execFileSync(bin, ['init', input, '--gtfs', feed, '--id', city, '--locales', 'en', ...bbox], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    // Stops outside the box are left out of packs by default; the tiny city keeps FAR to test that case.
    if (city === 'tiny') appendFileSync(join(input, 'city.yaml'), 'stops_outside_bbox: keep\n');
  } else {
    input = join(dir, 'inputs', city);
    const args =
      city === 'vaduz'
        ? ['init', input, '--osm', join(sharedData, 'osm/liechtenstein-2024.osm.gz'), '--locales', 'de,en', '--id', 'vaduz']
        : ['init', input, '--osm', join(sharedData, 'osm/milan-2015.osm.gz'), '--gtfs', join(sharedData, 'gtfs/milan-atm-2015.zip'), '--locales', 'it,en', '--id', 'milan'];
    execFileSync(bin, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  }
  const output = join(dir, 'outputs');
  execFileSync(bin, ['build', input, '--output', output, '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const manifest = join(output, city, 'manifest.json');
  const m = JSON.parse(readFileSync(manifest, 'utf8'));
  execFileSync('sh', ['-c', `gunzip -c "$1" > "$2"`, 'sh', join(output, city, m.artifact.path), join(dir, `${city}.sqlite`)]);
  if (!sharedDir) return remember(city, resultIn(dir, city));
  writeFileSync(join(dir, 'complete'), '');
  removeStaleShared(city, sharedKey);
  try {
    renameSync(dir, sharedDir);
  } catch {
    // Another process published the same build first: use it, drop this one.
    if (!existsSync(join(sharedDir, 'complete'))) return remember(city, resultIn(dir, city));
    rmSync(dir, { recursive: true, force: true });
  }
  return remember(city, resultIn(sharedDir, city));
}

/** The cities built from ../shared/data, shared between test processes (see buildCity). */
const SHARED_CITIES = new Set(['milan', 'vaduz', 'nyc']);

function remember(city, result) {
  built.set(city, result);
  return result;
}

/** The paths of a built city in `dir` (as buildCity leaves them). */
function resultIn(dir, city) {
  const output = join(dir, 'outputs');
  const manifest = join(output, city, 'manifest.json');
  return { manifest, manifestURL: pathToFileURL(manifest).href, database: join(dir, `${city}.sqlite`), output, dir };
}

/** A short hash of what a shared build depends on: the binary (path, size, time) and the city. */
function binaryIdentity(bin, city) {
  const s = statSync(bin);
  const real = existsSync(`${bin}.real`) ? statSync(`${bin}.real`) : s;
  return createHash('sha256').update([bin, s.size, s.mtimeMs, real.size, real.mtimeMs, city].join('\0')).digest('hex').slice(0, 16);
}

/** Removes shared builds of `city` by other binaries that are over an hour old (earlier runs' leftovers). */
function removeStaleShared(city, key) {
  const prefix = `citypack-web-shared-${city}-`;
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(prefix) || name === `${prefix}${key}`) continue;
    const path = join(tmpdir(), name);
    try {
      if (Date.now() - statSync(path).mtimeMs > 3600_000) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
}

/** `citypack query <database> <args> --format json`, parsed. */
export async function swiftQuery(database, args) {
  const { stdout } = await run(citypackBinary(), ['query', database, ...args, '--format', 'json'], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout);
}

/** Runs async jobs with at most `width` at a time; results in input order. */
export async function pooled(items, width, job) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await job(items[i], i);
      }
    }),
  );
  return out;
}

/** A seeded PRNG (mulberry32), so the random points are the same on every run. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Word → the category it must find, per language (food words: any food category, comma-joined). */
export const NEAREST_WORDS = {
  en: { toilet: 'toilet', ATM: 'atm', food: 'cafe,fast_food,restaurant', metro: 'metro', pharmacy: 'pharmacy' },
  it: { bagno: 'toilet', bancomat: 'atm', mangiare: 'cafe,fast_food,restaurant', metropolitana: 'metro', farmacia: 'pharmacy' },
  de: { Toilette: 'toilet', Geldautomat: 'atm', Essen: 'cafe,fast_food,restaurant', 'U-Bahn': 'metro', Apotheke: 'pharmacy' },
  fr: { toilettes: 'toilet', distributeur: 'atm', restaurant: 'restaurant', métro: 'metro', pharmacie: 'pharmacy' },
};

/** Random points in the pack's box (seeded). */
export function randomPoints(pack, count, seed) {
  const rand = random(seed);
  const [minLon, minLat, maxLon, maxLat] = pack.manifest.bbox;
  return Array.from({ length: count }, () => [minLat + rand() * (maxLat - minLat), minLon + rand() * (maxLon - minLon)]);
}

/**
 * For the command-line tools (bench*.mjs, serve.mjs): any failure prints one line, `<tool>: error: <message>`
 * (the file named, never a stack trace), and exits non-zero: 66 when an input named on the command line does not
 * exist, else 1.
 */
export function failInOneLine(tool) {
  const fail = (error) => {
    const message = error && typeof error === 'object' && 'message' in error ? error.message : String(error);
    const missing = error && (error.code === 'ENOENT' || /not found|no such file|404/i.test(message));
    console.error(`${tool}: error: ${message.split('\n')[0]}`);
    process.exit(missing ? 66 : 1);
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
}

/** Exits 66 with one line when a file named on the command line does not exist. */
export function requireInput(tool, path) {
  if (!existsSync(path)) {
    console.error(`${tool}: error: ${path}: no such file (build the city first, e.g. citypack build inputs/<city>)`);
    process.exit(66);
  }
}
