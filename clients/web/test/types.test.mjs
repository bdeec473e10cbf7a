// Types from the source: the modules' JSDoc passes `tsc --checkJs --strict` (tsconfig.json), and the declarations
// in types/ are what `tsc --declaration --emitDeclarationOnly` makes of it, byte for byte (after a change, run
// `tsc -p tsconfig.json --noEmit false --declaration --emitDeclarationOnly --declarationDir types` in clients/web).
// Without tsc (Debian's node-typescript, /usr/bin/tsc) both tests are skipped and say why.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = ['/usr/bin/tsc', '/usr/local/bin/tsc'].find((p) => existsSync(p));
const why = 'needs tsc (Debian node-typescript, /usr/bin/tsc; scripts/install-deps.sh --tests)';

test('the modules type-check: tsc -p tsconfig.json (--checkJs --strict, no emit)', (t) => {
  if (!tsc) {
    t.skip(why);
    return;
  }
  const config = JSON.parse(readFileSync(join(web, 'tsconfig.json'), 'utf8')).compilerOptions;
  assert.equal(config.strict, true);
  assert.equal(config.checkJs, true);
  const r = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: web });
  assert.equal(r.status, 0, `tsc -p tsconfig.json:\n${r.stdout}${r.stderr}`);
});

test('types/ is what tsc generates from the JSDoc (regenerated: the same files, byte for byte)', (t) => {
  if (!tsc) {
    t.skip(why);
    return;
  }
  const out = mkdtempSync(join(tmpdir(), 'citypack-types-'));
  try {
    const args = ['-p', 'tsconfig.json', '--noEmit', 'false', '--declaration', '--emitDeclarationOnly', '--declarationDir', out];
    const r = spawnSync(tsc, args, { cwd: web });
    assert.equal(r.status, 0, `tsc ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
    const made = readdirSync(out).sort();
    const committed = readdirSync(join(web, 'types')).sort();
    assert.deepEqual(committed, made, 'types/ holds the files tsc makes');
    for (const f of made) assert.ok(readFileSync(join(out, f)).equals(readFileSync(join(web, 'types', f))), `types/${f} differs from tsc's output: regenerate it`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
