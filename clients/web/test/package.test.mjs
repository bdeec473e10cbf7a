// The npm-ready package: package.json exports resolve to the modules, the hand-written declarations cover every
// export and type-check a typed app with Debian's tsc (`tsc --noEmit --strict`), the browser path imports nothing
// from node:, and the example app's wiring stays small (its line count is printed).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = ['/usr/bin/tsc', '/usr/local/bin/tsc'].find((p) => existsSync(p)) ?? (spawnSync('sh', ['-c', 'command -v tsc']).stdout.toString().trim() || undefined);

test('package.json: type module, exports "." and "./library" with their declarations', async () => {
  const pkg = JSON.parse(readFileSync(join(web, 'package.json'), 'utf8'));
  assert.equal(pkg.type, 'module');
  for (const [subpath, js, dts] of [['.', 'citypack.js', 'citypack.d.ts'], ['./library', 'library.js', 'library.d.ts']]) {
    assert.deepEqual(pkg.exports[subpath], { types: `./${dts}`, default: `./${js}` });
    for (const f of [js, dts]) assert.ok(existsSync(join(web, f)) && pkg.files.includes(f), f);
  }
  // Node resolves the package by name through its exports (a self-reference).
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `import { openPack } from '${pkg.name}'; import { PackLibrary } from '${pkg.name}/library'; console.log(typeof openPack, typeof PackLibrary)`], { cwd: web }).toString().trim();
  assert.equal(out, 'function function');
});

test('the declarations name every export of the modules', async () => {
  for (const [js, dts] of [['citypack.js', 'citypack.d.ts'], ['library.js', 'library.d.ts']]) {
    const exported = Object.keys(await import(join(web, js))).sort();
    const text = readFileSync(join(web, dts), 'utf8');
    const declared = [...text.matchAll(/^export (?:const|class|function) (\w+)/gm)].map((m) => m[1]);
    assert.deepEqual([...new Set(declared)].sort(), exported, dts);
  }
});

test('the declarations type-check a typed app with tsc --strict', { skip: tsc ? false : 'needs tsc (Debian node-typescript; scripts/install-deps.sh --tests)' }, () => {
  const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'es2022', '--moduleResolution', 'node', '--lib', 'es2022,dom', 'citypack.d.ts', 'library.d.ts', 'test-support/typed-usage.ts'];
  const r = spawnSync(tsc, args, { cwd: web });
  assert.equal(r.status, 0, `tsc ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
});

test('the browser path imports nothing from node: (a plain page and a Capacitor WebView load it as is)', () => {
  for (const f of ['citypack.js', 'library.js', 'library-bundle.js', 'library-patch.js', 'manifest-patch.js', 'example/app.js', 'example/sw.js']) {
    const text = readFileSync(join(web, f), 'utf8');
    const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    assert.ok(imports.every((s) => s.startsWith('./') || s.startsWith('../')), `${f}: ${imports}`);
  }
  // citypack.js reaches node:crypto only where Web Crypto is missing (Node 18), through a dynamic import.
  assert.ok(!/^import .*node:/m.test(readFileSync(join(web, 'citypack.js'), 'utf8')));
});

test('the example app: wiring only (lines of code counted and printed)', () => {
  const text = readFileSync(join(web, 'example/app.js'), 'utf8');
  const code = text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('//'));
  console.log(`EXAMPLE web app.js: ${code.length} lines of code (non-blank, non-comment) for the offline screen flow`);
  assert.ok(code.length <= 20, `${code.length} lines: move generic rendering into library.js`);
  assert.ok(!/createElement|innerHTML/.test(text), 'rendering belongs in the library');
});

test('every module citypack.js and library.js import is in package.json files and the example service worker\'s shell', () => {
  const pkg = JSON.parse(readFileSync(join(web, 'package.json'), 'utf8'));
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
