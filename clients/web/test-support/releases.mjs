// Two signed releases of Monaco in one output folder, as a publisher makes them: version 1, then version 2 with one
// POI renamed (Terrazino → Zanzibarino), built with the citypack binary (see support.mjs: CITYPACK_BIN, else
// .build/release, else .build/debug). Used by the pack library's Node and browser tests.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { citypackBinary, root } from './support.mjs';

/** The renamed POI: its name in version 1 and in version 2. */
export const renamed = { before: 'Terrazino', after: 'Zanzibarino' };

/**
 * Builds the releases once per process. Resolves to {dir, output, publicKey, catalogV1, catalogV2} where
 * `output/catalog.json` is version 2's catalog, `catalogV1` a copy of version 1's (the "older signed catalog"),
 * and `publish(version)` puts that version's catalog.json and <city>/manifest.json in place.
 */
let built;
export function monacoReleases() {
  if (built) return built;
  const bin = citypackBinary();
  const dir = mkdtempSync(join(tmpdir(), 'citypack-releases-'));
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
  const input = join(dir, 'monaco');
  cpSync(join(root, 'inputs/monaco'), input, { recursive: true });
  const key = join(dir, 'release.key');
  execFileSync(bin, ['keygen', '--output', key], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const output = join(dir, 'outputs');
  const build = () => execFileSync(bin, ['build', input, '--output', output, '--sign-key', key, '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  build();
  const save = (version) => {
    copyFileSync(join(output, 'catalog.json'), join(dir, `catalog-${version}.json`));
    copyFileSync(join(output, 'monaco/manifest.json'), join(dir, `manifest-${version}.json`));
  };
  save(1);
  const osmPath = join(input, 'monaco-2021.osm.gz');
  const osm = gunzipSync(readFileSync(osmPath)).toString('utf8');
  if (osm.split(`v="${renamed.before}"`).length !== 2) throw new Error(`expected one POI named ${renamed.before} in inputs/monaco`);
  writeFileSync(osmPath, gzipSync(osm.replace(`v="${renamed.before}"`, `v="${renamed.after}"`)));
  build();
  save(2);
  const publish = (version) => {
    copyFileSync(join(dir, `catalog-${version}.json`), join(output, 'catalog.json'));
    copyFileSync(join(dir, `manifest-${version}.json`), join(output, 'monaco/manifest.json'));
  };
  built = { dir, output, publicKey: readFileSync(`${key}.pub`, 'utf8').trim(), catalogV1: join(dir, 'catalog-1.json'), catalogV2: join(dir, 'catalog-2.json'), publish };
  return built;
}
