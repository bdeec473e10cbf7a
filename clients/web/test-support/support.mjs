// Test support for the web reader: builds real packs with the citypack binary into a temporary folder, reads
// them through a file-backed fetch, and runs `citypack query --format json` for the Swift answers.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
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

/** The citypack binary: $CITYPACK_BIN, else the release build, else the debug build. */
export function citypackBinary() {
  const candidates = [process.env.CITYPACK_BIN, join(root, '.build/release/citypack'), join(root, '.build/debug/citypack')];
  const found = candidates.find((p) => p && existsSync(p));
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

const built = new Map();

/**
 * Builds a city (once per process) and returns its manifest path and its decompressed pack database (the
 * fastest input for `citypack query`).
 * @param {'monaco'|'vaduz'|'milan'} city
 */
export function buildCity(city) {
  if (built.has(city)) return built.get(city);
  const bin = citypackBinary();
  const dir = mkdtempSync(join(tmpdir(), `citypack-web-${city}-`));
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
  let input;
  if (city === 'monaco') {
    input = join(root, 'inputs/monaco');
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
  const database = join(dir, `${city}.sqlite`);
  execFileSync('sh', ['-c', `gunzip -c "$1" > "$2"`, 'sh', join(output, city, m.artifact.path), database]);
  const result = { manifest, manifestURL: pathToFileURL(manifest).href, database, output, dir };
  built.set(city, result);
  return result;
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
