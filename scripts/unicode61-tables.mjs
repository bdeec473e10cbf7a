#!/usr/bin/env node
// Prints the tables clients/web/tokens.js uses to tokenize like SQLite's FTS5 unicode61 tokenizer
// (remove_diacritics 2), made by asking sqlite3 how it tokenizes "a<code point>b" for every code point:
//   node scripts/unicode61-tables.mjs        (needs sqlite3 on the PATH; about 10 s)
// Paste the four constants over UNICODE61_SEPARATORS, UNICODE61_VANISH, UNICODE61_KEEP and UNICODE61_FOLD;
// clients/web/test/fold.test.mjs then checks the result against sqlite3.
import { execFileSync } from 'node:child_process';

const quote = (t) => `'${t.replace(/'/g, "''")}'`;
const points = [];
const lines = ["CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61 remove_diacritics 2');", 'BEGIN;'];
for (let cp = 1; cp <= 0x10ffff; cp++) {
  if ((cp >= 0xd800 && cp <= 0xdfff) || cp === 0x27) continue;
  points.push(cp);
  lines.push(`INSERT INTO t(rowid, x) VALUES (${cp}, ${quote('a' + String.fromCodePoint(cp) + 'b')});`);
}
lines.push('COMMIT;', 'CREATE VIRTUAL TABLE v USING fts5vocab(t, instance);', 'SELECT doc, hex(term) FROM v ORDER BY doc, offset;');
const tokens = new Map();
for (const line of execFileSync('sqlite3', [':memory:'], { input: lines.join('\n'), maxBuffer: 1 << 30 }).toString().trim().split('\n')) {
  const [doc, hex] = line.split('|');
  const list = tokens.get(Number(doc)) ?? [];
  list.push(Buffer.from(hex, 'hex').toString('utf8'));
  tokens.set(Number(doc), list);
}

// The reader's rule before its tables: lower-case, then strip marks from Latin letters.
const isLatin = (cp) => (cp >= 0xc0 && cp <= 0x24f) || (cp >= 0x1e00 && cp <= 0x1eff);
const strip = (t) => t.normalize('NFD').replace(/\p{Mn}/gu, '');
function rule(ch) {
  const cp = ch.codePointAt(0);
  let lower = ch.toLowerCase();
  if ([...lower].length !== 1) lower = strip(lower);
  if ([...lower].length !== 1) lower = ch;
  if (isLatin(cp) || isLatin(lower.codePointAt(0))) {
    const base = strip(lower);
    if ([...base].length === 1) return base;
  }
  return lower;
}

const separators = [], vanish = [], keep = [], fold = [];
for (const cp of points) {
  const list = tokens.get(cp) ?? [];
  if (list.length === 2 && list[0] === 'a' && list[1] === 'b') separators.push(cp);
  else if (list.length === 1 && list[0] === 'ab') vanish.push(cp);
  else if (list.length === 1) {
    const ch = String.fromCodePoint(cp);
    const folded = list[0].slice(1, -1);
    if (cp >= 0x80 && folded !== rule(ch)) (folded === ch ? keep : fold).push(folded === ch ? cp : [cp, folded]);
  } else throw new Error(`U+${cp.toString(16)}: unexpected tokens ${JSON.stringify(list)}`);
}
function ranges(list) {
  const out = [];
  for (const cp of list) {
    if (out.length && out[out.length - 1][1] === cp - 1) out[out.length - 1][1] = cp;
    else out.push([cp, cp]);
  }
  return out;
}
function encode(list) {
  let previous = 0;
  return ranges(list).map(([a, b]) => {
    const item = (a - previous).toString(36) + (b > a ? '+' + (b - a).toString(36) : '');
    previous = b;
    return item;
  }).join(',');
}
console.log(`UNICODE61_SEPARATORS '${encode(separators)}'`);
console.log(`UNICODE61_VANISH '${encode(vanish)}'`);
console.log(`UNICODE61_KEEP '${encode(keep)}'`);
console.log(`UNICODE61_FOLD '${fold.map(([cp, f]) => cp.toString(36) + ':' + f.codePointAt(0).toString(36)).join(',')}'`);
