// Search text as the pack indexes it: words, CJK bigrams, the search folds (ß → ss, …) and SQLite's FTS5
// unicode61 tokenizer (ports of CJKBigrams, SearchFold and what PackReader.matchExpression does).

import { SEARCH_FOLDS } from './constants.js';

/**
 * Whether a code point is CJK as `CJKBigrams.isCJK` (Swift) says: ideographs, kana, Hangul.
 * @param {number} v a code point
 */
function isCJK(v) {
  return (
    (v >= 0x3040 && v <= 0x30ff) || (v >= 0x31f0 && v <= 0x31ff) || (v >= 0xff66 && v <= 0xff9f) ||
    (v >= 0x3400 && v <= 0x4dbf) || (v >= 0x4e00 && v <= 0x9fff) || (v >= 0xf900 && v <= 0xfaff) ||
    (v >= 0x20000 && v <= 0x2fa1f) || (v >= 0xac00 && v <= 0xd7af) || (v >= 0x1100 && v <= 0x11ff) ||
    (v >= 0x3130 && v <= 0x318f)
  );
}

/**
 * Each run of CJK characters as its space-separated bigrams ("海洋博物館" → "海洋 洋博 博物 物館"; one character stays
 * itself), other text unchanged: how the pack indexes names (Swift `CJKBigrams.expand`), so a query word becomes
 * the phrase of its bigrams.
 * @param {string} text
 * @returns {string}
 */
export function cjkBigrams(text) {
  const out = [];
  /** @type {string[]} */
  let run = [];
  const flush = () => {
    if (run.length === 0) return;
    out.push(' ');
    if (run.length === 1) out.push(run[0]);
    else for (let i = 0; i + 1 < run.length; i++) out.push(i > 0 ? ' ' : '', run[i], run[i + 1]);
    out.push(' ');
    run = [];
  };
  for (const ch of String(text)) {
    if (isCJK(/** @type {number} */ (ch.codePointAt(0)))) run.push(ch);
    else {
      flush();
      out.push(ch);
    }
  }
  flush();
  return out.join('').trim();
}

/**
 * Words as PackReader.matchExpression splits them: runs of letters and digits (marks stay with their letter), folded.
 * @param {string} text
 * @param {number} [maxWords]
 * @returns {string[]}
 */
export function searchWords(text, maxWords = 16) {
  const words = String(text).match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? [];
  return words.slice(0, maxWords).map((w) => searchFold(Array.from(w).slice(0, 64).join('')));
}

// SEARCH_FOLDS (constants.js, generated from Swift's SearchFold.table): letters users type without,
// folded in the indexed text (by the writer) and in every query; SQLite's unicode61 keeps ß, æ, ø, … as they are.
const SEARCH_FOLD_PATTERN = new RegExp(`[${Object.keys(SEARCH_FOLDS).join('')}]`, 'gu');

/**
 * `text` with every letter of SEARCH_FOLDS replaced (Swift `SearchFold.apply`).
 * @param {string} text
 * @returns {string}
 */
export function searchFold(text) {
  return String(text).replace(SEARCH_FOLD_PATTERN, (ch) => /** @type {Record<string, string>} */ (SEARCH_FOLDS)[ch]);
}

// SQLite's FTS5 `unicode61` tokenizer (remove_diacritics 2), which folds the pack's search table and every query
// the Swift reader runs. It uses Unicode 6.1: code points that were letters, numbers or private use then, and every
// code point unassigned then, are token characters; the rest separate tokens. A token character is lower-cased
// with Unicode 6.1's mappings plus a few case foldings, Latin letters lose their diacritics, and some combining
// diacritics vanish. JavaScript's Unicode tables are newer, so the tables below (made with sqlite3 itself; ranges
// as base-36 "gap+length" from the previous end; scripts/unicode61-tables.mjs remakes them) say where SQLite
// differs; clients/web/test/fold.test.mjs checks every code point against sqlite3.

/**
 * @param {string} text
 * @returns {[number, number][]}
 */
function decodeRanges(text) {
  /** @type {[number, number][]} */
  const out = [];
  let previous = 0;
  for (const item of text.split(',')) {
    const [gap, length] = item.split('+');
    const start = previous + parseInt(gap, 36);
    previous = start + (length ? parseInt(length, 36) : 0);
    out.push([start, previous]);
  }
  return out;
}

/** Separators: code points that were neither letters, numbers nor private use in Unicode 6.1. */
const UNICODE61_SEPARATORS = decodeRanges(
  "1+11,2+7,b+6,r+5,r+1a,2+6,3,2+2,3,4,o,w,cr+3,d+d,6+6,2,2+g,6,8+1,2,2+8,2+6,7+3,3,3+1p,6,9,6+1,2,33,3w+7,5t+5,16+1,5,2+1i,18+1,c+4,2+l,3+1,18+k,b+3,3,2s,2+e,3+6,g+1,2+d,2,2,v+q,2k+a,1n+8,3+3,t+3,2+8,2+2,2+4,3+e,r+2,3,3q+q,2+3,1j+2,2+h,2+6,b+3,b,h+2,1l,2+6,3+1,3+2,a,b+1,f+1,7+1,6+2,1l,2+4,5+1,3+2,4,v+1,4,c+2,1l,2+7,2+2,2+2,l+1,d+1,g+2,1l,2+6,3+1,3+2,9+1,b+1,d,i,1o+4,4+2,2+3,a,s+7,7+2,1n+6,2+2,2+3,8+1,c+1,s,3+1,1l,2+6,2+2,2+3,8+1,c+1,v+1,1n+6,2+2,2+3,a,b+1,m,9+1,1z,5+5,2,2+7,j+2,1p,3+6,5,8+8,b+1,2e,3+5,2+1,c+5,1g+u,l+b,1e+m,6+a,2+z,2+e,2+c,29+j,c+5,7+3,5+2,2+2,3+6,4+3,e+b,2,b+5,2k,gy+b,14+9,2v,h9+1,i,r+1,27+2,11+2,u+4,s+1,v+1,1t+y,2+3,2,z+e,4b,3b+b,5+b,5,4+1,2z+g,8+1,l+x,o+4,3+1,1i+9,2+s,3,x+6,2+5,2b+4,1c+g,m+y,4+2,v+c,1l+d,9+3,11+j,4+4,1r+1,1t+7,9+o,5,5+2,5o+12,m+3,ce,2+2,c+2,e+2,e+2,e+1,2+2s,6+5,b+4,c+4,i+p,n+w,g+1,2+3,2+1,b,2+2,6+5,2,2,2,5,c+1,5+4,6+3,2,1t+gz,d+12,q+a,2a+25,n+e7,2+38,v+qg,4+9,b0+5,5+2,8+3,2+1,35,f,2p+26,2+b,1x+p,2+2g,d+5x,r+b,5+4,4+o,a+6,6+1,6+2,2i+3,4,2j,45+1,5+9,x+z,t+u,c+t,9,g+v,b+12,g+1q,2+73,535+1r,h3l+1i,1k+1,7i+2,2o+f,x,29+7,9+m,a+1,2w+1,3c,4,5,o+8,b+3,1n+3,9+1,1f+g,a+1,h+h,7+2,18+9,o+c,c,x+3,1c+q,h+1,22+d,d,9+1,f+3,o+2,2,1h,2+2,3+1,6+1,2,t+1,c+6,4+1,6l+a,fn5,b,3t+f,al+1,59+1,3+p,7+6,a+y,2+i,2+3,44,2+e,b+6,r+5,r+a,3f+6,2+6,b+6,75+2,1h+8,1m+g,7+b,1h+19,bm,1d,w7,5k,w,5e+2,2+1,6+3,15+2,5,h+8,13,56+6,xt+2,1i+l,1f+2,1a+h,1r+2,11+d,c+3,1p+2,1d+d,5+3,yr+c,2pl+3,ese+19,h+3,j1q+6t,b+12,3+50,z+1x,57+2e,ob,q,w,q,w,q,w,q,w,q,4kt+1,7j+17,5+2r,d+e,3+d,3+e,2+e,1d+u,2+1n,5+16,24+s,e+16,6+8,8+1,4v+w,g+5,2+1x,4+j,d+10,2+4,m+g,g+1q,2,2+51,2+3,4+1p,3+3,d+n,44+1x,5+a,1d+1x,1n+37,gwi6,v+2n,3l+6n",
);
/** Combining diacritics that unicode61 drops inside a token. */
const UNICODE61_VANISH = decodeRanges("lc+4,2+6,3,2,a,8+5,5+1,2+1");
/** Token characters SQLite leaves as they are (case mappings added after Unicode 6.1; Latin letters it keeps whole). */
const UNICODE61_KEEP = decodeRanges(
  "dd,2,c,e,2,ao,bt,2,2,2,2uq+2d,1p0,7+16,3+2,31s,o6h,2,70,2,2,2,2,d+3,2+4,2,2,2,2,2,2,2,2+3,2,2+1,2,2,2,2,2,2,2,2,p,ibf+z,4d+a,2+e,2+6,2+1,1d7+1e,4e+l,27v+v,gw1+v,1t+o,o5k+x",
);
/** Case foldings SQLite applies where lower-casing does not (µ → μ, ſ → s, ς → σ, …). */
const UNICODE61_FOLD = new Map(
  "51:qk,an:37,dc:dd,de:df,dq:dr,e4:e5,e6:e7,qq:qr,r4:qa,r5:qg,r9:qu,ra:qo,s0:qi,s1:qp,s5:qd,61n:37,69q:qh"
    .split(',')
    .map((pair) => pair.split(':').map((v) => parseInt(v, 36)))
    .map(([cp, folded]) => [cp, String.fromCodePoint(folded)]),
);

/**
 * @param {[number, number][]} ranges
 * @param {number} cp
 */
function inRanges(ranges, cp) {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ranges[mid][1] < cp) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranges.length && ranges[lo][0] <= cp;
}

/** @param {number} cp */
function isLatin(cp) {
  return (cp >= 0xc0 && cp <= 0x24f) || (cp >= 0x1e00 && cp <= 0x1eff);
}

/** @param {string} text */
function stripMarks(text) {
  return text.normalize('NFD').replace(/\p{Mn}/gu, '');
}

/**
 * One token character as unicode61 folds it.
 * @param {string} ch
 * @param {number} cp
 */
function foldChar(ch, cp) {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 32) : ch;
  const folded = UNICODE61_FOLD.get(cp);
  if (folded !== undefined) return folded;
  if (inRanges(UNICODE61_VANISH, cp)) return '';
  if (inRanges(UNICODE61_KEEP, cp)) return ch;
  let lower = ch.toLowerCase();
  if ([...lower].length !== 1) lower = stripMarks(lower); // İ → i̇ → i
  if ([...lower].length !== 1) lower = ch;
  if (isLatin(cp) || isLatin(/** @type {number} */ (lower.codePointAt(0)))) {
    const base = stripMarks(lower);
    if ([...base].length === 1) return base;
  }
  return lower;
}

/**
 * The tokens unicode61 makes of `text`, folded: what the pack's search table holds for it.
 * @param {string} text
 * @returns {string[]}
 */
export function unicode61Tokens(text) {
  const out = [];
  let current = '';
  for (const ch of String(text)) {
    const cp = /** @type {number} */ (ch.codePointAt(0));
    if (!inRanges(UNICODE61_SEPARATORS, cp)) {
      current += foldChar(ch, cp);
    } else if (current) {
      out.push(current);
      current = '';
    }
  }
  if (current) out.push(current);
  return out;
}

/**
 * A word as the FTS5 unicode61 tokenizer folds it (its tokens joined; most words are one token).
 * @param {string} word
 * @returns {string}
 */
export function foldToken(word) {
  return unicode61Tokens(word).join('');
}
