// The npm-ready package: package.json exports resolve to the modules, the generated declarations (types/, made by
// tsc from the modules' JSDoc; types.test.mjs checks they are current) cover every export and type-check a typed
// app with Debian's tsc, the browser path imports nothing from node:, the entries stay small, and the example
// app's wiring stays small (its line count is printed).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = ['/usr/bin/tsc', '/usr/local/bin/tsc'].find((p) => existsSync(p)) ?? (spawnSync('sh', ['-c', 'command -v tsc']).stdout.toString().trim() || undefined);
const pkg = JSON.parse(readFileSync(join(web, 'package.json'), 'utf8'));
const entries = [['.', 'citypack.js'], ['./library', 'library.js'], ['./internal', 'internal.js']];
const declarations = (js) => `types/${js.replace(/\.js$/, '.d.ts')}`;

test('package.json: type module, exports ".", "./library" and "./internal" with their generated declarations', async () => {
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.types, './types/citypack.d.ts');
  for (const [subpath, js] of entries) {
    assert.deepEqual(pkg.exports[subpath], { types: `./${declarations(js)}`, default: `./${js}` });
    assert.ok(existsSync(join(web, js)) && pkg.files.includes(js), js);
    assert.ok(existsSync(join(web, declarations(js))), declarations(js));
  }
  assert.ok(pkg.files.includes('types/'), 'package.json files: the declarations folder');
  // Node resolves the package by name through its exports (a self-reference).
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `import { openPack } from '${pkg.name}'; import { PackLibrary } from '${pkg.name}/library'; import { packFromParts } from '${pkg.name}/internal'; console.log(typeof openPack, typeof PackLibrary, typeof packFromParts)`], { cwd: web }).toString().trim();
  assert.equal(out, 'function function function');
});

test('the entries export what an app uses: at most 15 names each ("." and "./library"); tools use "./internal"', async () => {
  const app = Object.keys(await import(join(web, 'citypack.js'))).sort();
  const library = Object.keys(await import(join(web, 'library.js'))).sort();
  const internal = Object.keys(await import(join(web, 'internal.js'))).sort();
  console.log(`ENTRIES .: ${app.length} (${app.join(', ')}); ./library: ${library.length}; ./internal: ${internal.length}`);
  assert.ok(app.length <= 15, `citypack.js exports ${app.length} names`);
  assert.ok(library.length <= 15, `library.js exports ${library.length} names`);
  for (const name of ['openPack', 'CityPack', 'PackError', 'verifySignature', 'distance', 'WEB_FORMAT']) assert.ok(app.includes(name), name);
  for (const name of ['decodePatterns', 'unicode61Tokens', 'ROW_CHUNKING', 'SEARCH_FOLDS', 'packFromParts', 'canonicalJSON', 'geohashCell']) {
    assert.ok(internal.includes(name) && !app.includes(name), `${name}: in ./internal only`);
  }
});

test('the declarations name every export of the entries', async () => {
  for (const [, js] of entries) {
    const exported = Object.keys(await import(join(web, js))).sort();
    const text = readFileSync(join(web, declarations(js)), 'utf8');
    const declared = [
      ...[...text.matchAll(/^export (?:declare )?(?:const|class|function) (\w+)/gm)].map((m) => m[1]),
      ...[...text.matchAll(/^export \{([^}]*)\} from/gm)].flatMap((m) => m[1].split(',').map((n) => n.trim().split(/\s+as\s+/).pop())),
    ];
    assert.deepEqual([...new Set(declared)].sort(), exported, declarations(js));
  }
  // The type names apps use are declared by the entries.
  const app = readFileSync(join(web, 'types/citypack.d.ts'), 'utf8');
  for (const name of ['Place', 'Manifest', 'WebFile', 'FetchLike', 'OpenOptions', 'Journey', 'JourneyOptions', 'JourneyLookup', 'StopNameMatch', 'Departure', 'TimetableCoverage', 'Route', 'Card', 'Box', 'PackErrorCode', 'SignatureState']) {
    assert.match(app, new RegExp(`^export type ${name} = `, 'm'), name);
  }
  const library = readFileSync(join(web, 'types/library.d.ts'), 'utf8');
  for (const name of ['PackState', 'FailureReason', 'PackStorage', 'InstalledRecord', 'LibraryOptions', 'CatalogEntry', 'Catalog', 'CityListing', 'CopyFunction', 'StateChangeDetail', 'ProgressDetail', 'PersistenceDetail']) {
    assert.match(library, new RegExp(`^export type ${name} = `, 'm'), name);
  }
});

test('the declarations type-check a typed app with tsc --strict (resolved through the package exports)', (t) => {
  if (!tsc) {
    t.skip('needs tsc (Debian node-typescript; scripts/install-deps.sh --tests)');
    return;
  }
  const args = ['-p', 'test-support/tsconfig.typed-usage.json'];
  const r = spawnSync(tsc, args, { cwd: web });
  assert.equal(r.status, 0, `tsc ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
});

test('the browser path imports nothing from node: (a plain page and a Capacitor WebView load it as is)', () => {
  for (const f of [...pkg.files.filter((f) => f.endsWith('.js')), 'example/app.js', 'example/sw.js']) {
    const text = readFileSync(join(web, f), 'utf8');
    const imports = [...text.matchAll(/^(?:import|export) [^;]* from '([^']+)';$/gm)].map((m) => m[1]);
    assert.ok(imports.every((s) => s.startsWith('./') || s.startsWith('../')), `${f}: ${imports}`);
    // format.js reaches node:crypto only where Web Crypto is missing (Node 18), through a dynamic import.
    assert.ok(!/^import .*node:/m.test(text), f);
  }
});

test('the example app: wiring only (lines of code counted and printed)', () => {
  const text = readFileSync(join(web, 'example/app.js'), 'utf8');
  const code = text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('//'));
  console.log(`EXAMPLE web app.js: ${code.length} lines of code (non-blank, non-comment) for the offline screen flow`);
  assert.ok(code.length <= 20, `${code.length} lines: move generic rendering into library.js`);
  assert.ok(!/createElement|innerHTML/.test(text), 'rendering belongs in the library');
});

test('every module citypack.js and library.js import is in package.json files and the example service worker\'s shell', () => {
  const sw = readFileSync(join(web, 'example/sw.js'), 'utf8');
  const shell = JSON.parse(/const shell = (\[[^\]]*\])/.exec(sw)[1].replaceAll("'", '"'));
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(join(web, file), 'utf8').matchAll(/^(?:import|export) [^;]* from '\.\/([^']+)';$/gm)) visit(spec);
  };
  visit('citypack.js');
  visit('library.js');
  for (const file of seen) {
    assert.ok(pkg.files.includes(file), `package.json files: ${file}`);
    assert.ok(shell.includes(`../${file}`), `example/sw.js shell (the app offline): ${file}`);
  }
  assert.ok(seen.has('library-bundle.js') && seen.has('manifest-patch.js'), [...seen].join(', '));
});
