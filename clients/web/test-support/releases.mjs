// Two signed releases of a city in one output folder, as a publisher makes them, built with the citypack binary
// (see support.mjs: CITYPACK_BIN, else .build/release, else .build/debug): Monaco's version 1, then version 2 with
// one POI renamed (Terrazino → Zanzibarino), used by the pack library's Node and browser tests; Milan's (from
// ../shared/data) version 1, then version 2 with one café added, used by its kill test.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { citypackBinary, root, sharedData } from './support.mjs';

/** The renamed POI: its name in version 1 and in version 2. */
export const renamed = { before: 'Terrazino', after: 'Zanzibarino' };

/**
 * Builds the releases once per process. Resolves to {dir, output, publicKey, catalogV1, catalogV2} where
 * `output/catalog.json` is version 2's catalog, `catalogV1` a copy of version 1's (the "older signed catalog"),
 * and `publish(version)` puts that version's catalog.json and <city>/manifest.json in place.
 */
let built;
export function monacoReleases() {
  built ??= twoReleases('monaco', (input) => cpSync(join(root, 'inputs/monaco'), input, { recursive: true }), (input) => {
    const osmPath = join(input, 'monaco-2021.osm.gz');
    const osm = gunzipSync(readFileSync(osmPath)).toString('utf8');
    if (osm.split(`v="${renamed.before}"`).length !== 2) throw new Error(`expected one POI named ${renamed.before} in inputs/monaco`);
    writeFileSync(osmPath, gzipSync(osm.replace(`v="${renamed.before}"`, `v="${renamed.after}"`)));
  });
  return built;
}

/** The café Milan's version 2 adds (and version 1 has not). */
export const milanAdded = 'Caffè della Prova';

/**
 * Two signed releases of Milan from ../shared/data (support.mjs `sharedData`: OSM PBF and ATM's GTFS), built as
 * Tests/CityPackKitTests/MilanReleases.swift builds them: version 1 from the PBF and the feed, version 2 with a
 * second OSM source `extra.osm` of one café (`milanAdded`), into the same output folder, so version 2's catalog
 * entry lists the delta 1 → 2 and the manifest patch 1 → 2 and a few web chunks change. Once per process; the same
 * shape as monacoReleases().
 */
let builtMilan;
export function milanReleases() {
  const cityFile = (osm) => `id: milan
name: "Milan"
locales: [it, en]
bbox: [9.0655990, 45.3587156, 9.4390028, 45.5749858]
sources:
  osm: [${osm.map((p) => JSON.stringify(p)).join(', ')}]
  gtfs: [${JSON.stringify(join(sharedData, 'gtfs/milan-atm-2015.zip'))}]
attribution: "© OpenStreetMap contributors, ODbL 1.0"
`;
  const pbf = join(sharedData, 'osm/milan-2015.osm.pbf');
  builtMilan ??= twoReleases('milan', (input) => {
    mkdirSync(input, { recursive: true });
    writeFileSync(join(input, 'city.yaml'), cityFile([pbf]));
  }, (input) => {
    writeFileSync(join(input, 'extra.osm'), `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
  <node id="99000000001" version="1" lat="45.4642" lon="9.1900">
    <tag k="amenity" v="cafe"/>
    <tag k="name" v="${milanAdded}"/>
  </node>
</osm>
`);
    writeFileSync(join(input, 'city.yaml'), cityFile([pbf, 'extra.osm']));
  });
  return builtMilan;
}

/**
 * Version 1 of `city` built from the folder `make(input)` writes, then version 2 after `change(input)`, into one
 * output folder, signed with a new key; each version's catalog.json and manifest kept to `publish` again.
 */
function twoReleases(city, make, change) {
  const bin = citypackBinary();
  const dir = mkdtempSync(join(tmpdir(), 'citypack-releases-'));
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
  const input = join(dir, city);
  make(input);
  const key = join(dir, 'release.key');
  execFileSync(bin, ['keygen', '--output', key], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const output = join(dir, 'outputs');
  const build = () => execFileSync(bin, ['build', input, '--output', output, '--sign-key', key, '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  build();
  const save = (version) => {
    copyFileSync(join(output, 'catalog.json'), join(dir, `catalog-${version}.json`));
    copyFileSync(join(output, `${city}/manifest.json`), join(dir, `manifest-${version}.json`));
  };
  save(1);
  change(input);
  build();
  save(2);
  const publish = (version) => {
    copyFileSync(join(dir, `catalog-${version}.json`), join(output, 'catalog.json'));
    copyFileSync(join(dir, `manifest-${version}.json`), join(output, `${city}/manifest.json`));
  };
  return { dir, output, publicKey: readFileSync(`${key}.pub`, 'utf8').trim(), catalogV1: join(dir, 'catalog-1.json'), catalogV2: join(dir, 'catalog-2.json'), publish };
}
