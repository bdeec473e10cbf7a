// Manifest patches (manifest-patch.js, issue 42): applying the published edit format to a manifest's bytes —
// copies, skips, insertions, every base line consumed exactly, the result's size and SHA-256 checked — and the
// tests' line diff (test-support/manifest-diff.mjs) round-trips through it. No binary needed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { ManifestPatchError, applyCheckedManifestPatch, applyManifestPatch } from '../manifest-patch.js';
import { seeded } from '../test-support/library-kit.mjs';
import { lineEdits, lines, manifestPatch } from '../test-support/manifest-diff.mjs';

const bytes = (text) => new TextEncoder().encode(text);
const text = (b) => new TextDecoder().decode(b);
const hex = (b) => createHash('sha256').update(b).digest('hex');
const patch = (edits, extra = {}) => ({ format: 1, city: 'x', from: 1, to: 2, edits, ...extra });
const invalid = (fn, pattern) => assert.throws(fn, (e) => e instanceof ManifestPatchError && pattern.test(e.message));

test('copy, skip and insert: numbers copy base lines, [d, text] skips d and appends text (UTF-8)', () => {
  const base = bytes('a\nb\nc\nd');
  assert.equal(text(applyManifestPatch(base, patch([1, [1, 'B\n'], [0, 'inserted é\n'], 2]))), 'a\nB\ninserted é\nc\nd');
  assert.equal(text(applyManifestPatch(base, patch([4]))), 'a\nb\nc\nd', 'all copied: the same bytes (the last line without "\\n")');
  assert.equal(text(applyManifestPatch(base, patch([[4, '']]))), '', 'all skipped');
  assert.equal(text(applyManifestPatch(base, patch([0, [2, ''], [0, ''], 0, 2, [0, 'e']]))), 'c\nde', 'zero counts and empty texts are no-ops');
  assert.equal(text(applyManifestPatch(bytes(''), patch([[0, 'new\n']]))), 'new\n', 'an empty base has no lines');
  assert.equal(text(applyManifestPatch(bytes('x\n\ny\n'), patch([1, [1, 'blank\n'], 1]))), 'x\nblank\ny\n', 'an empty line is a line');
  const utf8 = bytes('名前\nvalue\n');
  assert.deepEqual(applyManifestPatch(utf8, patch([1, [1, 'välue\n']])), bytes('名前\nvälue\n'));
});

test('invalid edits: too few or too many lines consumed, malformed edits, another format', () => {
  const base = bytes('a\nb\nc\nd\n');
  invalid(() => applyManifestPatch(base, patch([3])), /consume 3 of the base's 4 lines/);
  invalid(() => applyManifestPatch(base, patch([])), /consume 0 of the base's 4 lines/);
  invalid(() => applyManifestPatch(base, patch([2, [1, 'x\n']])), /consume 3 of/);
  invalid(() => applyManifestPatch(base, patch([5])), /consumes line 5 of a base of 4 lines/);
  invalid(() => applyManifestPatch(base, patch([4, 1])), /consumes line 5/);
  invalid(() => applyManifestPatch(base, patch([3, [2, '']])), /consumes line 5/);
  for (const bad of [-1, 1.5, NaN, '2', null, [1], [1, 2], ['1', 'x'], [-1, 'x'], [1, 'x', 3], { 0: 1, 1: 'x' }]) {
    invalid(() => applyManifestPatch(base, patch([bad, 4])), /edit 0/);
  }
  invalid(() => applyManifestPatch(base, patch([4], { format: 2 })), /format 2/);
  invalid(() => applyManifestPatch(base, { format: 1 }), /no edits/);
  invalid(() => applyManifestPatch(base, null), /not a manifest patch/);
});

test('result mismatch: the size in applyManifestPatch; the catalog\'s SHA-256 (and the patch\'s, when named) in applyCheckedManifestPatch', async () => {
  const base = bytes('a\nb\n');
  const result = bytes('a\nB\n');
  const good = patch([1, [1, 'B\n']], { base: { bytes: 4 }, result: { bytes: 4 } }); // as writers write it: no hashes
  assert.deepEqual(await applyCheckedManifestPatch(base, good, hex(result)), result);
  const named = { ...good, base: { bytes: 4, sha256: hex(base) }, result: { bytes: 4, sha256: hex(result) } };
  assert.deepEqual(await applyCheckedManifestPatch(base, named, hex(result)), result, 'hashes in the patch are checked when given');
  assert.deepEqual(await applyCheckedManifestPatch(base, { ...good, edits: [[2, 'a\nB\n']] }, hex(result)), result, 'other edits with the same result apply');
  invalid(() => applyManifestPatch(base, { ...good, result: { bytes: 5 } }), /result is 4 bytes, the patch names 5/);
  invalid(() => applyManifestPatch(bytes('a\nb\nc\n'), { ...good, edits: [1, [2, 'B\n']] }), /base is 6 bytes, the patch names 4/);
  const rejects = (promise, pattern) => assert.rejects(promise, (e) => e instanceof ManifestPatchError && pattern.test(e.message));
  await rejects(applyCheckedManifestPatch(base, good, hex(base)), /the result's SHA-256 \w+ is not the catalog's/, 'the right size, not the catalog\'s manifest');
  await rejects(applyCheckedManifestPatch(base, { ...good, edits: [[2, 'a\nb\n']] }, hex(result)), /is not the catalog's/);
  await rejects(applyCheckedManifestPatch(base, { ...good, result: { bytes: 5 } }, hex(result)), /result is 4 bytes/);
  await rejects(applyCheckedManifestPatch(base, { ...named, result: { bytes: 4, sha256: hex(base) } }, hex(result)), /the catalog names/);
  await rejects(applyCheckedManifestPatch(bytes('a\nc\n'), named, hex(result)), /the base is manifest/);
  await rejects(applyCheckedManifestPatch(bytes('x\nb\n'), good, hex(result)), /is not the catalog's/, 'another base of the same size: the result tells');
  assert.deepEqual(await applyCheckedManifestPatch(bytes('a\nc\n'), good, hex(result)), result, 'a base differing only in skipped lines gives the same result');
  await rejects(applyCheckedManifestPatch(base, { ...good, result: undefined }, hex(result)), /names no base or result size/);
  await rejects(applyCheckedManifestPatch(base, good), /no SHA-256 to check/);
});

test('the tests\' line diff: patches that rebuild the result exactly, from random edits of random line lists', async () => {
  const random = seeded(42);
  const word = () => ['{', '}', '"a" : 1,', '"b" : 2,', '  "path" : "web/x.gz",', 'é', ''][Math.floor(random() * 7)];
  let checked = 0;
  for (let round = 0; round < 300; round++) {
    const base = Array.from({ length: Math.floor(random() * 30) }, () => `${word()}\n`);
    const result = [];
    for (const line of base) {
      const r = random();
      if (r < 0.1) continue;
      if (r < 0.2) result.push(`${word()} changed\n`);
      else result.push(line);
      if (random() < 0.1) result.push(`${word()} new\n`);
    }
    const cut = (list) => (list.length && random() < 0.3 ? [...list.slice(0, -1), list.at(-1).slice(0, -1)] : list); // no final "\n"
    const [a, b] = [bytes(cut(base).join('')), bytes(cut(result).join(''))];
    const p = manifestPatch(a, b, { city: 'x', from: 1, to: 2 });
    assert.deepEqual([p.base, p.result], [{ bytes: a.length }, { bytes: b.length }]);
    assert.deepEqual(await applyCheckedManifestPatch(a, p, hex(b)), b, `round ${round}`);
    checked++;
  }
  assert.equal(checked, 300);
  assert.deepEqual(lines('a\n\nb'), ['a\n', '\n', 'b']);
  assert.deepEqual(lineEdits(['a\n', 'b\n', 'c\n'], ['a\n', 'x\n', 'c\n']), [1, [1, 'x\n'], 1], 'a change is one pair between copies');
});
