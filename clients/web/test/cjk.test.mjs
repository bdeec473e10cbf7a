// Words inside Chinese, Japanese and Korean names (issue 21 point 7): the pack indexes CJK runs as bigrams and both
// readers turn a query word into the phrase of its bigrams. The JS reader must give exactly `citypack query`'s
// answers, and the expected places.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPack } from '../citypack.js';
import { cjkBigrams } from '../internal.js';
import { buildCity, fileFetch, pooled, swiftQuery } from '../test-support/support.mjs';

test('cjkBigrams splits CJK runs into overlapping pairs, as Swift CJKBigrams.expand', () => {
  assert.equal(cjkBigrams('海洋博物館'), '海洋 洋博 博物 物館');
  assert.equal(cjkBigrams('館'), '館');
  assert.equal(cjkBigrams('Café Tokyo駅前'), 'Café Tokyo 駅前');
  assert.equal(cjkBigrams('국립중앙박물관'), '국립 립중 중앙 앙박 박물 물관');
  assert.equal(cjkBigrams('museum'), 'museum');
});

// query → OSM refs that must be among the results (CJK words inside names, and the scripts side by side).
const expected = {
  博物館: ['n1', 'n4'],
  博物: ['n1', 'n4'],
  海洋: ['n1'],
  東京駅: ['n2'],
  駅前: ['n6'],
  박물관: ['n3'],
  중앙: ['n3'],
  博物馆: ['n4'],
  上海: ['n4'],
  トイレ: ['n5'],
  'Tokyo駅': ['n6'],
  museum: ['n1', 'n3', 'n4', 'n7'],
};

test('CJK search: the JS reader agrees with Swift and finds words inside names', async (t) => {
  const built = buildCity('cjk');
  const pack = await openPack(fileFetch, built.manifestURL, { parts: ['places', 'search'] });
  const terms = [...Object.keys(expected), '館', '物', '東', '公衆', 'トイ', '厕所', '화장실', 'station'];
  const swift = await pooled(terms, 2, (term) => swiftQuery(built.database, ['--search', term]));
  terms.forEach((term, i) => {
    const js = { results: pack.search(term) };
    assert.deepStrictEqual(js, swift[i], `'${term}' differs`);
    const found = new Set(js.results.map((r) => r.osm));
    for (const ref of expected[term] ?? []) assert.ok(found.has(ref), `'${term}' must find ${ref}: ${[...found]}`);
  });
  t.diagnostic(`${terms.length} CJK queries agree`);
});
