// Search (docs/WEB.md, "Search"): the search part assembled from the places rows, its postings, SQLite FTS5's
// bm25 ranking, category words (category-words.js and the part's own terms) and the query itself, with the same
// results as Swift's PackReader.search.

import { CATEGORY_WORDS } from './category-words.js';
import { PackError, compareStrings } from './format.js';
import { DEFAULT_SEARCH_LIMIT, byListing, categoryIndex, distance, foldLinked, isNamed, nearest } from './proximity.js';
import { instant, rows } from './places.js';
import { cjkBigrams, searchFold, searchWords, unicode61Tokens } from './tokens.js';

/** @typedef {import('./pack.js').CityPack} CityPack */
/** @typedef {import('./places.js').Place} Place */
/** @typedef {import('./places.js').PlacesPart} PlacesPart */
/**
 * Options of `search`: near (a position: nearest first, with distances), limit (default DEFAULT_SEARCH_LIMIT),
 * offset for paging, openAt to keep only the places open then.
 * @typedef {{near?: {lat: number, lon: number} | [number, number], limit?: number, offset?: number, openAt?: Date|number}} SearchOptions
 */
/**
 * The search part as `loadSearch` takes it: per searchable row its id and its name and terms tokens (indexes into
 * `vocab`), the column weights, and the part's own category words.
 * @typedef {object} SearchColumns
 * @property {number} [format]
 * @property {[number, number]} weights
 * @property {string[]} vocab
 * @property {number[]} rowid
 * @property {number[][]} name
 * @property {number[][]} terms
 * @property {Record<string, string[]>} [categoryTerms]
 */
/**
 * The loaded search part: the columns, postings per term (row, hits in name, hits in terms), row sizes.
 * @typedef {object} SearchPart
 * @property {string[]} vocab
 * @property {[number, number]} weights
 * @property {number[]} rowid
 * @property {number[][]} name
 * @property {number[][]} terms
 * @property {Record<string, string[]>} categoryTerms
 * @property {Float64Array} size
 * @property {number} rows
 * @property {number} avgdl
 * @property {number[][]} postings
 * @property {Map<string, number>} termIndex
 * @property {number[]} sorted vocab indexes in string order
 * @property {Map<string, {category: string, language: string | null}[]>} [categoryWordMap] built on first use
 */

/**
 * The search part from its head and the places part's rows (web format 2), as the columns `loadSearch` takes:
 * rows are the places with a search row, tokens numbered by a vocabulary made of them.
 * @param {any} head the part's head file (weights, terms texts, category terms)
 * @param {{id: number[], tokens: (string|null)[], terms: (string|number)[]}} places the places part (its rows' search tokens)
 * @returns {SearchColumns}
 */
export function assembleSearch(head, places) {
  /** @type {string[]} */
  const vocab = [];
  /** @type {Map<string, number>} */
  const index = new Map();
  const number = (/** @type {string} */ text) =>
    text === '' ? [] : text.split(' ').map((t) => {
      let i = index.get(t);
      if (i === undefined) {
        i = vocab.length;
        index.set(t, i);
        vocab.push(t);
      }
      return i;
    });
  /** @type {SearchColumns & {rowid: number[], name: number[][], terms: number[][]}} */
  const out = { format: head.format, weights: head.weights, vocab, rowid: [], name: [], terms: [], categoryTerms: head.categoryTerms ?? {} };
  for (let i = 0; i < places.id.length; i++) {
    const tokens = places.tokens[i];
    if (tokens == null) continue;
    const terms = head.terms[places.terms[i]];
    if (terms === undefined) throw new PackError('part', `search: no terms '${places.terms[i]}' in the head`);
    out.rowid.push(places.id[i]);
    out.name.push(number(tokens));
    out.terms.push(number(terms));
  }
  return out;
}

/**
 * @param {SearchColumns} json
 * @returns {SearchPart}
 */
export function loadSearch(json) {
  const rows = json.rowid.length;
  const size = new Float64Array(rows);
  let total = 0;
  // Postings per term: rows (ascending) with hits per column.
  const postings = json.vocab.map(() => /** @type {number[]} */ ([]));
  for (let r = 0; r < rows; r++) {
    /** @type {Map<number, [number, number]>} */
    const counts = new Map();
    for (const [column, list] of /** @type {[number, number[]][]} */ ([[0, json.name[r]], [1, json.terms[r]]])) {
      for (const term of list) {
        let c = counts.get(term);
        if (!c) counts.set(term, (c = [0, 0]));
        c[column] += 1;
      }
    }
    for (const [term, c] of counts) postings[term].push(r, c[0], c[1]);
    size[r] = json.name[r].length + json.terms[r].length;
    total += size[r];
  }
  const termIndex = new Map(json.vocab.map((t, i) => [t, i]));
  const sorted = json.vocab.map((_, i) => i).sort((a, b) => compareStrings(json.vocab[a], json.vocab[b]));
  return {
    vocab: json.vocab,
    weights: json.weights,
    rowid: json.rowid,
    name: json.name,
    terms: json.terms,
    categoryTerms: json.categoryTerms ?? {},
    size,
    rows,
    avgdl: total / rows,
    postings,
    termIndex,
    sorted,
  };
}

/**
 * Vocab indexes of the terms equal to `token`, or (prefix) starting with it.
 * @param {SearchPart} s
 * @param {string} token
 * @param {boolean} prefix
 * @returns {number[]}
 */
function termsFor(s, token, prefix) {
  if (!prefix) {
    const i = s.termIndex.get(token);
    return i === undefined ? [] : [i];
  }
  let lo = 0;
  let hi = s.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.vocab[s.sorted[mid]] < token) lo = mid + 1;
    else hi = mid;
  }
  const out = [];
  for (let k = lo; k < s.sorted.length && s.vocab[s.sorted[k]].startsWith(token); k++) out.push(s.sorted[k]);
  return out;
}

/**
 * Row ids matching every token (the last as a prefix when `prefixLast`), ordered as SQLite's
 * `ORDER BY bm25(search, 10.0, 1.0), rowid LIMIT limit` (FTS5's bm25: k1 1.2, b 0.75).
 * @param {SearchPart} s
 * @param {string[][]} tokens phrases of tokens
 * @param {boolean} prefixLast
 * @param {number} limit
 * @returns {number[]}
 */
function rankBM25(s, tokens, prefixLast, limit) {
  const k1 = 1.2;
  const b = 0.75;
  const [w0, w1] = s.weights;
  // Per phrase: row → weighted frequency (of the phrase's tokens in a row, consecutive, per column).
  const freqs = tokens.map((phrase, i) => {
    const prefix = prefixLast && i === tokens.length - 1;
    /** @type {Map<number, number>} */
    const freq = new Map();
    if (phrase.length === 1) {
      for (const term of termsFor(s, phrase[0], prefix)) {
        const p = s.postings[term];
        for (let k = 0; k < p.length; k += 3) freq.set(p[k], (freq.get(p[k]) ?? 0) + (w0 * p[k + 1] + w1 * p[k + 2]));
      }
      return freq;
    }
    // Several tokens: FTS5's phrase, the prefix (if any) on its last token.
    const sets = phrase.map((token, j) => new Set(termsFor(s, token, prefix && j === phrase.length - 1)));
    /** @type {Set<number>} */
    const rows = new Set();
    for (const term of sets[0]) {
      const p = s.postings[term];
      for (let k = 0; k < p.length; k += 3) rows.add(p[k]);
    }
    const occurrences = (/** @type {number[]} */ list) => {
      let n = 0;
      for (let at = 0; at + phrase.length <= list.length; at++) {
        let j = 0;
        while (j < phrase.length && sets[j].has(list[at + j])) j++;
        if (j === phrase.length) n++;
      }
      return n;
    };
    for (const row of rows) {
      const inName = occurrences(s.name[row]);
      const inTerms = occurrences(s.terms[row]);
      if (inName + inTerms > 0) freq.set(row, w0 * inName + w1 * inTerms);
    }
    return freq;
  });
  const idf = freqs.map((f) => {
    const nHit = f.size;
    const v = Math.log((s.rows - nHit + 0.5) / (nHit + 0.5));
    return v <= 0 ? 1e-6 : v;
  });
  let smallest = 0;
  for (let i = 1; i < freqs.length; i++) if (freqs[i].size < freqs[smallest].size) smallest = i;
  const scored = [];
  for (const row of freqs[smallest].keys()) {
    if (!freqs.every((f) => f.has(row))) continue;
    const D = s.size[row];
    let score = 0;
    for (let i = 0; i < freqs.length; i++) {
      const f = /** @type {number} */ (freqs[i].get(row));
      score += idf[i] * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * D) / s.avgdl)));
    }
    scored.push({ id: s.rowid[row], rank: -1.0 * score });
  }
  scored.sort((x, y) => x.rank - y.rank || x.id - y.id);
  return scored.slice(0, limit).map((x) => x.id);
}

/**
 * `CityPack.search` (see there).
 * @param {CityPack} pack
 * @param {string} text
 * @param {string | undefined} locale
 * @param {SearchOptions & {evaluatedAt?: number}} options
 * @returns {Place[]}
 */
export function search(pack, text, locale, options) {
  const at = instant(options.openAt);
  if (at !== undefined && (options.limit ?? DEFAULT_SEARCH_LIMIT) > 0) {
    // The open places of ever longer pages of all results, until the page is full or the results run out (as Swift).
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const wanted = Math.max(0, options.offset ?? 0) + limit;
    for (let asked = Math.max(wanted * 4, 64); ; asked *= 4) {
      /** @type {Place[]} */
      const all = search(pack, text, locale, { near: options.near, limit: asked, offset: 0, evaluatedAt: at });
      const open = all.filter((r) => r.open === 'open');
      if (open.length >= wanted || all.length < asked) return open.slice(Math.max(0, options.offset ?? 0)).slice(0, limit);
    }
  }
  const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
  const s = pack._part('search');
  const places = pack._part('places');
  const words = searchWords(text);
  if (!(limit > 0) || words.length === 0) return [];
  const near = options.near == null ? null : Array.isArray(options.near) ? { lat: options.near[0], lon: options.near[1] } : options.near;
  const wanted = Math.max(0, options.offset ?? 0) + limit;
  // Each word is a phrase of unicode61 tokens (one, unless marks or symbols split it; CJK runs as bigrams), as
  // in Swift's query.
  const phrases = words.map((w) => unicode61Tokens(cjkBigrams(w)));
  const categories = categoriesNamed(pack, places, s, phrases.flat().join(' '), locale);
  /** @type {number[]} */
  let ids = [];
  /** @type {Map<number, number>} */
  const distances = new Map();
  if (categories.length > 0) {
    if (near) {
      for (const h of nearest(places, categories, near.lat, near.lon, wanted)) {
        distances.set(h.id, h.d);
        ids.push(h.id);
      }
    } else {
      /** @type {Set<number>} */
      const members = new Set();
      for (const c of categories) for (const id of categoryIndex(places, c).ids) members.add(id);
      ids = byListing(places, [...members]);
    }
  }
  // A name query; after a category's places (all of them, when fewer than the page needs), its name matches.
  if ((categories.length === 0 || foldLinked(places, ids).length < wanted) && !phrases.some((p) => p.length === 0)) {
    const seen = new Set(ids);
    for (const prefixLast of [false, true]) {
      const tier = rankBM25(s, phrases, prefixLast, Infinity).filter((id) => !seen.has(id) && seen.add(id));
      if (near) {
        /** @type {{id: number, d: number}[]} */
        const measured = [];
        for (const id of tier) {
          const i = places.rowOf.get(id);
          if (i === undefined) continue;
          const d = distance(near.lat, near.lon, places.lat[i], places.lon[i]);
          distances.set(id, d);
          measured.push({ id, d });
        }
        measured.sort((a, b) => a.d - b.d || a.id - b.id);
        ids.push(...measured.map((m) => m.id));
      } else {
        const named = (/** @type {number} */ id) => isNamed(places, places.rowOf.get(id));
        ids.push(...tier.filter(named), ...tier.filter((id) => !named(id)));
      }
    }
  }
  const page = foldLinked(places, ids).slice(Math.max(0, options.offset ?? 0)).slice(0, limit);
  return rows(pack, places, page, locale, near ? distances : null, options.evaluatedAt);
}

/**
 * The categories a query's folded tokens (joined by a space) name, ascending (Swift `categoryQuery`): the
 * built-in words of category-words.js for the pack's categories, in every locale (folded on first use as the
 * search part's words are), and the search part's own `categoryTerms` (the words the table lacks).
 * @param {CityPack} pack
 * @param {PlacesPart} places
 * @param {SearchPart} s
 * @param {string} key
 * @param {string | undefined} locale
 * @returns {string[]}
 */
function categoriesNamed(pack, places, s, key, locale) {
  if (!s.categoryWordMap) {
    // Folded word → [{category, language}] (language null: the search part's own terms, in the city's locales).
    /** @type {Map<string, {category: string, language: string | null}[]>} */
    const map = new Map();
    const add = (/** @type {string} */ k, /** @type {string} */ c, /** @type {string | null} */ language) => {
      if (k === '') return;
      const list = map.get(k) ?? [];
      if (!list.some((e) => e.category === c && e.language === language)) list.push({ category: c, language });
      map.set(k, list);
    };
    for (const line of CATEGORY_WORDS.split('\n')) {
      const tab = line.indexOf('\t');
      const category = line.slice(0, tab);
      if (tab < 0 || !Object.prototype.hasOwnProperty.call(places.labels, category)) continue;
      for (const group of line.slice(tab + 1).split('\t')) {
        const language = languageOf(group.slice(0, group.indexOf('=')));
        for (const word of group.slice(group.indexOf('=') + 1).split('|')) add(unicode61Tokens(cjkBigrams(searchFold(word))).join(' '), category, language);
      }
    }
    for (const [k, list] of Object.entries(s.categoryTerms ?? {})) for (const c of list) add(k, c, null);
    s.categoryWordMap = map;
  }
  // Tiers (Swift `categoryQuery`): a word of the reader's language (or the id, or the pack's own terms), else of
  // the city's languages, else of any — in English "bar" is a bar, not the Italian café.
  const reader = new Set([languageOf(locale ?? pack.defaultLocale), 'und']);
  const city = new Set((places.locales ?? []).map(languageOf));
  /** @type {Set<string>[]} */
  const tiers = [new Set(), new Set(), new Set()];
  for (const { category, language } of s.categoryWordMap.get(key) ?? []) {
    const tier = language === null || reader.has(language) ? 0 : city.has(language) ? 1 : 2;
    for (let t = tier; t < 3; t++) tiers[t].add(category);
  }
  return [...(tiers.find((t) => t.size > 0) ?? [])].sort(compareStrings);
}

/**
 * The language of a BCP 47 tag, lower-cased (`pt-PT` → `pt`), as Swift `PackReader.language`.
 * @param {string | null | undefined} tag
 * @returns {string}
 */
function languageOf(tag) {
  return String(tag ?? '').split(/[-_]/)[0].toLowerCase();
}
