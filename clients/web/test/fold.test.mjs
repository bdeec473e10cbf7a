// The web reader folds words as SQLite's FTS5 unicode61 tokenizer (remove_diacritics 2) does, for every script:
// every code point between two letters against sqlite3 itself, then phrase searches
// (words that marks split into several tokens: Arabic, Hebrew, Devanagari) ranked as SQLite ranks them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { unicode61Tokens, searchWords, packFromParts } from '../internal.js';

const TOKENIZER = "tokenize = 'unicode61 remove_diacritics 2'";

function sqlite(script) {
  return execFileSync('sqlite3', [':memory:'], { input: script, maxBuffer: 1 << 28 }).toString();
}

function hasSqlite() {
  try {
    execFileSync('sqlite3', ['-version']);
    return true;
  } catch {
    return false;
  }
}

const quote = (text) => `'${text.replace(/'/g, "''")}'`;

test('every code point splits and folds as SQLite unicode61 does', { skip: hasSqlite() ? false : 'needs sqlite3 (apt-get install sqlite3; .ci/run installs it)' }, () => {
  // Every code point but the surrogates and the quote (planes 3–16 hold few assigned ones, but all are checked).
  const points = [];
  for (let cp = 1; cp <= 0x10ffff; cp++) if ((cp < 0xd800 || cp > 0xdfff) && cp !== 0x27) points.push(cp);
  const lines = [`CREATE VIRTUAL TABLE t USING fts5(x, ${TOKENIZER});`, 'BEGIN;'];
  for (const cp of points) lines.push(`INSERT INTO t(rowid, x) VALUES (${cp}, ${quote('a' + String.fromCodePoint(cp) + 'b')});`);
  lines.push('COMMIT;', 'CREATE VIRTUAL TABLE v USING fts5vocab(t, instance);', 'SELECT doc, hex(term) FROM v ORDER BY doc, offset;');
  const expected = new Map();
  for (const line of sqlite(lines.join('\n')).trim().split('\n')) {
    const [doc, hex] = line.split('|');
    const list = expected.get(Number(doc)) ?? [];
    list.push(Buffer.from(hex, 'hex').toString('utf8'));
    expected.set(Number(doc), list);
  }
  const wrong = [];
  for (const cp of points) {
    const text = 'a' + String.fromCodePoint(cp) + 'b';
    const js = unicode61Tokens(text);
    const sq = expected.get(cp) ?? [];
    if (JSON.stringify(js) !== JSON.stringify(sq)) wrong.push(`U+${cp.toString(16)}: ${JSON.stringify(js)} ≠ ${JSON.stringify(sq)}`);
  }
  assert.ok(points.length > 1_100_000, `${points.length} code points checked`);
  assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} code points fold differently`);
});

test('searches of words in many scripts rank as SQLite ranks them', { skip: hasSqlite() ? false : 'needs sqlite3 (apt-get install sqlite3; .ci/run installs it)' }, () => {
  const names = [
    'Αθήνα Κεντρική', 'ΟΔΟΣ ΕΡΜΟΥ', 'Σίσυφος', 'Москва Сити', 'Ёлка', 'Йошкар-Ола', 'مَدرسة النور', 'مدرسة الأمل', 'مَدرسة مَدرسة',
    'שָׁלוֹם עליכם', 'שלום', 'हिन्दी भवन', 'हिन्दी', '東京駅', 'İstanbul Kebap', 'Straße der Einheit', 'Łódź Kaliska', 'Hà Nội', 'Phở Hà Nội',
    'Café Ōsaka', 'Ǡ test ǡ', 'µ-Bar', 'ſtraße',
  ];
  const terms = names.map((_, i) => (i % 3 === 0 ? 'restaurant | café' : i % 3 === 1 ? 'school | école | مدرسة' : 'station'));
  const lines = [`CREATE VIRTUAL TABLE t USING fts5(name, terms, ${TOKENIZER});`];
  names.forEach((n, i) => lines.push(`INSERT INTO t(rowid, name, terms) VALUES (${i + 1}, ${quote(n)}, ${quote(terms[i])});`));
  const table = lines.join('\n');
  lines.push('CREATE VIRTUAL TABLE v USING fts5vocab(t, instance);', 'SELECT term, doc, col, offset FROM v;');
  // The search part as WebWriter makes it, from the same index.
  const vocab = [];
  const index = new Map();
  const rows = names.map(() => ({ name: [], terms: [] }));
  for (const line of sqlite(lines.join('\n')).trim().split('\n')) {
    const parts = line.split('|');
    const [offset, col, doc] = [Number(parts.pop()), parts.pop(), Number(parts.pop())];
    const term = parts.join('|');
    if (!index.has(term)) {
      index.set(term, vocab.length);
      vocab.push(term);
    }
    rows[doc - 1][col === 'name' ? 'name' : 'terms'].push([offset, index.get(term)]);
  }
  const order = vocab.map((_, i) => i).sort((a, b) => Buffer.compare(Buffer.from(vocab[a]), Buffer.from(vocab[b])));
  const renumber = new Map(order.map((old, i) => [old, i]));
  const list = (pairs) => pairs.sort((a, b) => a[0] - b[0]).map(([, t]) => renumber.get(t));
  const search = {
    format: 1, weights: [10, 1], vocab: order.map((i) => vocab[i]), rowid: names.map((_, i) => i + 1),
    name: rows.map((r) => list(r.name)), terms: rows.map((r) => list(r.terms)),
  };
  const places = {
    format: 1, city: 't', defaultLocale: 'en', locales: ['en'], precision: 8, cells: [], counts: [],
    id: names.map((_, i) => i + 1), lat: names.map(() => 0), lon: names.map(() => 0), osm: names.map(() => ''),
    category: names.map(() => 'x'), name: names, names: names.map(() => ({})), tags: names.map(() => ({})), stopId: names.map(() => null),
  };
  const pack = packFromParts({ city: { id: 't', defaultLocale: 'en', locales: ['en'] } }, { places, search });
  const queries = [
    'مَدرسة', 'مدرسة', 'مَد', 'שָׁלוֹם', 'שלום', 'हिन्दी', 'हिन', 'σίσυφος', 'ΣΙΣΥΦΟΣ', 'Σίσυφος', 'οδος', 'ёлка', 'елка', 'йошкар',
    'istanbul', 'İSTANBUL', 'strasse', 'straße', 'lodz', 'ha noi', 'pho', 'osaka', 'µ', 'μ', 'ǡ', 'a', 'school', 'école', 'cafe',
    '東京', 'москва сити', 'αθήνα', 'αθηνα',
  ];
  const matchExpression = (text) => {
    const words = searchWords(text);
    return words.map((w, i) => `"${w.replace(/"/g, '""')}"` + (i === words.length - 1 ? '*' : '')).join(' ');
  };
  const script = table + '\n' + queries
    .flatMap((q) => [
      `SELECT '#', ${quote(q)};`,
      `SELECT rowid FROM t WHERE t MATCH ${quote(matchExpression(q).replace(/\*$/, ''))} ORDER BY bm25(t, 10.0, 1.0), rowid;`,
      `SELECT rowid FROM t WHERE t MATCH ${quote(matchExpression(q))} ORDER BY bm25(t, 10.0, 1.0), rowid;`,
      `SELECT '-';`,
    ])
    .join('\n');
  // Swift's search: exact words first, then the last as a prefix, without repeats (PackReader.search).
  const expected = new Map();
  let current = null;
  for (const line of sqlite(script).trim().split('\n')) {
    if (line.startsWith('#|')) current = line.slice(2);
    else if (line === '-') current = null;
    else {
      const list = expected.get(current) ?? [];
      if (!list.includes(Number(line))) list.push(Number(line));
      expected.set(current, list);
    }
  }
  let found = 0;
  for (const q of queries) {
    const js = pack.search(q).map((r) => r.id);
    assert.deepEqual(js, expected.get(q) ?? [], `search '${q}'`);
    if (js.length) found++;
  }
  // Several queries rightly find nothing (SQLite keeps ё, Greek accents and ß): agreement is the point.
  assert.ok(found >= 20, `${found} of ${queries.length} queries find something`);
});

test('every folded letter is found by both spellings (the pack of Tests/Fixtures/fold, as the Swift suite searches it)', async () => {
  const { openPack } = await import('../citypack.js');
  const { SEARCH_FOLDS } = await import('../internal.js');
  const { buildCity, fileFetch } = await import('../test-support/support.mjs');
  const built = buildCity('fold');
  const pack = await openPack(fileFetch, built.manifestURL);
  const letters = Object.entries(SEARCH_FOLDS);
  assert.ok(letters.length >= 25);
  letters.forEach(([letter, folded], index) => {
    const osm = `n${1000 + index}`;
    for (const query of [`kaf${folded}wort`, `Kaf${letter}wort`]) {
      const found = pack.search(query, 'de').map((p) => p.osm);
      assert.ok(found.includes(osm), `searching ${query} does not find Kaf${letter}wort (${osm}): ${found}`);
    }
  });
});

test('every letter of a text is folded, not only the first (the table Swift generates)', async () => {
  const { SEARCH_FOLDS, searchFold } = await import('../internal.js');
  const letters = Object.entries(SEARCH_FOLDS);
  assert.equal(searchFold(letters.map(([l]) => `x${l}`).join('')), letters.map(([, f]) => `x${f}`).join(''));
  assert.equal(searchFold('Straßenstraße'), 'Strassenstrasse');
});
