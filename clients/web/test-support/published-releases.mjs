// The two Monaco releases (releases.mjs) published with or without what issue 42 added: each manifest's
// `web.bundle` (the version's part and chunk files concatenated, web/bundle-<16 hex>.gz) and version 2's catalog
// entry's `manifestPatches` (monaco/monaco-1-2.manifest-patch.json, written by manifest-diff.mjs). What the citypack
// binary wrote is used as it is when it is what a test asks for; otherwise it is added or taken away here, the
// changed manifests and catalogs signed again with the release key (the library checks signatures as ever).
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { canonicalJSON } from '../internal.js';
import { bundleMembers } from '../library-bundle.js';
import { manifestPatch } from './manifest-diff.mjs';

const hex = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** JSON as the citypack binary writes it: sorted keys, two-space indent, `"key" : value`. */
export function pretty(value, indent = '') {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length ? `[\n${value.map((v) => inner + pretty(v, inner)).join(',\n')}\n${indent}]` : '[\n\n' + indent + ']';
  const keys = Object.keys(value).sort();
  return keys.length ? `{\n${keys.map((k) => `${inner}${JSON.stringify(k)} : ${pretty(value[k], inner)}`).join(',\n')}\n${indent}}` : '{\n\n' + indent + '}';
}

/**
 * A copy of `releases` (monacoReleases()) in a new folder, published as asked: with or without each manifest's
 * `web.bundle` (`bundle`), with or without version 2's manifest patch from version 1 (`patches`). What the binary
 * wrote is kept when it is what is asked; otherwise the manifests and catalogs are rewritten and signed again (a
 * patch is written again whenever a manifest changed). Returns {dir, output, publicKey, publish(version),
 * catalogV1, catalogV2, manifests: {1, 2} (the published bytes), patch (version 2's manifestPatches entry from 1,
 * or undefined), sign(document)}, version 2 published. `transformPatch(patch)` alters the patch before it is
 * written and pinned by the catalog (a damaged patch the catalog vouches for).
 * @param {object} releases
 * @param {{bundle?: boolean, patches?: boolean, transformPatch?: (patch: object) => object}} [options]
 */
export function publishedReleases(releases, { bundle: bundled = true, patches = true, transformPatch } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'citypack-published-'));
  const output = join(dir, 'outputs');
  cpSync(releases.output, output, { recursive: true });
  const seed = Buffer.from(readFileSync(join(releases.dir, 'release.key'), 'utf8').trim(), 'base64');
  const key = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
  const signDocument = (document) => {
    const { signature: _old, ...unsigned } = document;
    return { ...unsigned, signature: sign(null, Buffer.from(canonicalJSON(unsigned)), key).toString('base64') };
  };
  const catalogs = {};
  const manifests = {};
  let changed = false;
  for (const version of [1, 2]) {
    const catalog = JSON.parse(readFileSync(join(releases.dir, `catalog-${version}.json`), 'utf8'));
    const entry = catalog.packs.find((p) => p.id === 'monaco');
    let bytes = readFileSync(join(releases.dir, `manifest-${version}.json`));
    const manifest = JSON.parse(bytes.toString('utf8'));
    catalogs[version] = catalog;
    if (Boolean(manifest.web.bundle) !== bundled) {
      const { bundle: _b, ...web } = manifest.web;
      if (bundled) {
        const folder = join(output, dirname(entry.manifest));
        const content = Buffer.concat(bundleMembers(manifest).members.map((m) => readFileSync(join(folder, m.path))));
        const sha256 = hex(content);
        web.bundle = { bytes: content.length, path: `web/bundle-${sha256.slice(0, 16)}.gz`, sha256 };
        writeFileSync(join(folder, web.bundle.path), content);
      }
      bytes = Buffer.from(`${pretty(signDocument({ ...manifest, web }))}\n`);
      writeFileSync(join(output, entry.manifest), bytes);
      Object.assign(entry, { manifestBytes: bytes.length, manifestSha256: hex(bytes) });
      catalogs[version] = signDocument(catalog);
      changed = true;
    }
    manifests[version] = bytes;
  }
  const entry = catalogs[2].packs.find((p) => p.id === 'monaco');
  if (!patches && entry.manifestPatches) {
    delete entry.manifestPatches;
    catalogs[2] = signDocument(catalogs[2]);
  } else if (patches && (changed || transformPatch || !entry.manifestPatches?.some((p) => p.from === 1))) {
    let patch = manifestPatch(manifests[1], manifests[2], { city: 'monaco', from: 1, to: 2 });
    if (transformPatch) patch = transformPatch(patch);
    const body = Buffer.from(JSON.stringify(patch));
    const path = 'monaco/monaco-1-2.manifest-patch.json';
    writeFileSync(join(output, path), body);
    entry.manifestPatches = [{ bytes: body.length, from: 1, path, sha256: hex(body), to: 2 }];
    catalogs[2] = signDocument(catalogs[2]);
  }
  for (const version of [1, 2]) {
    writeFileSync(join(dir, `catalog-${version}.json`), `${pretty(catalogs[version])}\n`);
    writeFileSync(join(dir, `manifest-${version}.json`), manifests[version]);
  }
  const publish = (version) => {
    copyFileSync(join(dir, `catalog-${version}.json`), join(output, 'catalog.json'));
    copyFileSync(join(dir, `manifest-${version}.json`), join(output, 'monaco/manifest.json'));
  };
  publish(2);
  return {
    dir, output, publicKey: releases.publicKey, publish, catalogV1: join(dir, 'catalog-1.json'), catalogV2: join(dir, 'catalog-2.json'),
    manifests, patch: entry.manifestPatches?.find((p) => p.from === 1), sign: signDocument,
  };
}

/** The releases as issue 42 publishes them: bundles and a manifest patch 1 → 2 (see publishedReleases). */
export const bundledReleases = (releases, options = {}) => publishedReleases(releases, { ...options, bundle: true, patches: true });

/**
 * The releases as published before issue 42: no bundle, no manifest patch (see publishedReleases). For the tests of
 * what fetches files one by one (a first download's per-file resume, concurrency, evictions).
 */
export const plainReleases = (releases) => publishedReleases(releases, { bundle: false, patches: false });
