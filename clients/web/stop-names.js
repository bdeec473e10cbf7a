// Stop names: what a typed name means as a journey's end — a port of Swift's `PackReader.stops(named:locale:)`
// (Sources/CityPackKit/PackReader+StopNames.swift), which `citypack query --journey NAME --to NAME` uses. One station
// (standing for its same-named platforms) or one stop; same-named stops side by side without a station (the point
// between them); several distinct places (the person chooses); or none. docs/WEB.md, "Stop names".
//
// The module imports nothing: CityPack.stopsNamed (citypack.js) passes in its search, its stop lookup, the
// great-circle distance and SearchFold, so there is no import cycle.

/** Stops of one name closer than this (metres) are one place: platforms, the two sides of a street (Swift `sameStopMetres`). */
export const SAME_STOP_METRES = 400;
/** How many search results a name is resolved from (Swift: `search(text, locale:, limit: 100_000)`). */
export const NAME_SEARCH_LIMIT = 100000;

// -- nameKey ----------------------------------------------------------------------------------------------------
// Swift compares names by `nameKey`: Foundation's `folding(options: [.caseInsensitive, .diacriticInsensitive],
// locale: nil)` (CFStringFold in swift-corelibs-foundation), then SearchFold, then runs of whitespace and
// punctuation collapsed to one space. CFStringFold works cluster by cluster: a character, then the non-base
// characters (Grapheme_Extend: combining marks, ZWNJ, emoji modifiers, …) after it.
//  * A canonically decomposable character whose decomposition starts below U+0510 (Latin, Greek, Cyrillic) is
//    replaced by that first character (é → e, ΐ → ι, İ → I); others stay whole (क़, 가).
//  * The character is case-folded (full folding: ß → ss, ﬁ → fi; CASE_FOLDS where it differs from toLowerCase);
//    below U+0510 the non-base characters the folding yields are dropped.
//  * When the (folded) character is below U+0510 the non-base characters after it are dropped; otherwise they
//    stay (decomposed), except a first one up to U+050F (a Latin, Greek or Cyrillic combining mark).
//  * The non-base characters at the end of a changed cluster are put in order of combining class (a bubble sort
//    that moves class 0 before the others, unlike Unicode's canonical order).
// clients/web/test/stop-names.test.mjs checks keys Swift computed.

const GRAPHEME_EXTEND = /^\p{Grapheme_Extend}$/u;
const emojiModifier = (/** @type {string} */ ch) => /** @type {number} */ (ch.codePointAt(0)) >= 0x1f3fb && /** @type {number} */ (ch.codePointAt(0)) <= 0x1f3ff;
/** CFStringFold's non-base characters: Grapheme_Extend and the emoji modifiers. */
const nonBase = (/** @type {string} */ ch) => GRAPHEME_EXTEND.test(ch) || emojiModifier(ch);

/** Case foldings (CaseFolding.txt, C and F) that differ from toLowerCase, for characters that do not decompose. */
const CASE_FOLDS = new Map(
  [
    [0xb5, 'μ'], [0xdf, 'ss'], [0x149, 'ʼn'], [0x17f, 's'], [0x345, 'ι'], [0x3c2, 'σ'], [0x3d0, 'β'], [0x3d1, 'θ'],
    [0x3d5, 'φ'], [0x3d6, 'π'], [0x3f0, 'κ'], [0x3f1, 'ρ'], [0x3f5, 'ε'], [0x587, 'եւ'], [0x1e9a, 'aʾ'], [0x1e9b, 's'],
    [0x1e9e, 'ss'], [0xfb00, 'ff'], [0xfb01, 'fi'], [0xfb02, 'fl'], [0xfb03, 'ffi'], [0xfb04, 'ffl'], [0xfb05, 'st'],
    [0xfb06, 'st'], [0xfb13, 'մն'], [0xfb14, 'մե'], [0xfb15, 'մի'], [0xfb16, 'վն'], [0xfb17, 'մխ'],
  ],
);

const below = (/** @type {string} */ ch, /** @type {number} */ limit) => /** @type {number} */ (ch.codePointAt(0)) < limit;

/**
 * Whether a character's canonical combining class is above 0 (it moves behind U+0345, class 240, in NFD).
 * @param {string} ch
 */
function combines(ch) {
  return ch === '\u0345' || !`a\u0345${ch}`.normalize('NFD').startsWith('a\u0345');
}

/**
 * Whether CF's priority sort swaps x and y (class of x above class of y).
 * @param {string} x
 * @param {string} y
 */
function outranks(x, y) {
  if (!combines(x)) return false;
  if (!combines(y)) return true;
  return `a${x}${y}`.normalize('NFD') !== `a${x}${y}`;
}

/**
 * CFUniCharPrioritySort over `list` from `start`: leading class-0 characters stay, the rest bubble by class.
 * @param {string[]} list
 * @param {number} start
 */
function prioritySort(list, start) {
  let from = start;
  while (from < list.length && !combines(list[from])) from++;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = from; i + 1 < list.length; i++) {
      if (outranks(list[i], list[i + 1])) {
        [list[i], list[i + 1]] = [list[i + 1], list[i]];
        changed = true;
      }
    }
  }
}

/**
 * `text` folded as Foundation folds it case- and diacritic-insensitively (CFStringFold), in NFC.
 * @param {string} text
 * @returns {string}
 */
export function foldName(text) {
  const chars = [...String(text)];
  let out = '';
  let i = 0;
  while (i < chars.length) {
    let ch = chars[i++];
    let parts = null; // null: unchanged so far
    if (/** @type {number} */ (ch.codePointAt(0)) < 0x80) {
      if (ch >= 'A' && ch <= 'Z') parts = [(ch = ch.toLowerCase())];
    } else {
      const first = [...ch.normalize('NFD')][0];
      if (first !== ch && below(first, 0x510)) parts = [(ch = first)];
      const folded = CASE_FOLDS.get(/** @type {number} */ (ch.codePointAt(0))) ?? ch.toLowerCase();
      if (folded !== ch) {
        const filter = below(ch, 0x510);
        const mapped = [...folded];
        ch = mapped[mapped.length - 1];
        parts = filter ? mapped.filter((c) => !nonBase(c)) : mapped;
      }
    }
    let fill = !below(ch, 0x510);
    let changed = parts !== null;
    if (parts === null) {
      parts = [ch];
      if (fill && i < chars.length && nonBase(chars[i])) {
        changed = true;
        const mark = chars[i++];
        if (!below(mark, 0x510)) parts.push(...mark.normalize('NFD'));
      } else {
        fill = false;
      }
    }
    while (i < chars.length && nonBase(chars[i])) {
      const mark = chars[i++];
      if (fill) parts.push(...mark.normalize('NFD'));
      changed = true;
    }
    if (changed && parts.length > 1) {
      let start = parts.length - 1;
      while (start > 0 && nonBase(parts[start])) start--;
      prioritySort(parts, start);
    }
    out += parts.join('');
  }
  return out.normalize('NFC');
}

// Swift applies SearchFold to whole Characters (ł, not ł followed by a spacing mark) and splits at Characters
// whose first scalar is whitespace or punctuation: a separator and the extending characters after it (marks, ZWJ,
// spacing marks, emoji modifiers) go together, except after a control (tab, line break: a Character of its own).
const SEPARATOR = /^[\p{White_Space}\p{P}]$/u;
const CONTROL = /^[\p{Cc}\u2028\u2029]$/u;
// What extends a Character: Grapheme_Extend, ZWJ, emoji modifiers and SpacingMark (Mc and Thai/Lao AM, less the
// UAX #29 exceptions).
const SPACING_MARK = /^(?:[\u0e33\u0eb3]|(?![\u102b\u102c\u1038\u1062-\u1064\u1067-\u106d\u1083\u1087-\u108c\u108f\u109a-\u109c\u1a61\u1a63\u1a64\uaa7b\uaa7d\u{11720}\u{11721}])\p{Mc})$/u;
const extending = (/** @type {string} */ ch) => nonBase(ch) || ch === '\u200d' || SPACING_MARK.test(ch);

/**
 * A name as compared (Swift `PackReader.nameKey`): folded like search (case, diacritics, SearchFold), whitespace
 * and punctuation collapsed to single spaces, none at either end.
 * @param {string} text
 * @param {(text: string) => string} searchFold SearchFold (citypack.js `searchFold`)
 */
export function nameKey(text, searchFold) {
  const chars = [...foldName(text)];
  const words = [];
  let word = '';
  for (let i = 0; i < chars.length; i++) {
    const separator = SEPARATOR.test(chars[i]);
    let end = i + 1;
    if (!CONTROL.test(chars[i])) while (end < chars.length && extending(chars[end])) end++;
    if (separator) {
      if (word !== '') words.push(word);
      word = '';
    } else {
      word += end === i + 1 ? searchFold(chars[i]) : chars.slice(i, end).join('');
    }
    i = end - 1;
  }
  if (word !== '') words.push(word);
  return words.join(' ').normalize('NFC');
}

/**
 * Swift's String order: Unicode scalar values of the NFC forms.
 * @param {string} a
 * @param {string} b
 */
function compareText(a, b) {
  const x = [...a.normalize('NFC')];
  const y = [...b.normalize('NFC')];
  for (let i = 0; i < x.length && i < y.length; i++) {
    const d = /** @type {number} */ (x[i].codePointAt(0)) - /** @type {number} */ (y[i].codePointAt(0));
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

// -- stopsNamed -------------------------------------------------------------------------------------------------

const STATION = 'transit_station';

/** @typedef {import('./places.js').Place} Place */
/**
 * What a typed stop name names as a journey's end (`pack.stopsNamed`, Swift `stops(named:locale:)`): one station
 * (standing for its platforms) or stop; same-named stops side by side without a station (the point between
 * them); several places (stations first, then by name and id); or none. `endpoint` is what `journeys()` takes.
 * @typedef {{kind: 'stop', stop: Place, endpoint: string | null}
 *   | {kind: 'place', name: string, lat: number, lon: number, stops: Place[], endpoint: string}
 *   | {kind: 'ambiguous', candidates: Place[], endpoint: null}
 *   | {kind: 'none', endpoint: null}} StopNameMatch
 */
/** @typedef {{stop: Place, key: string, station: boolean}} Candidate */

/**
 * The stop or station a name means (Swift `stops(named:locale:)`), through search over the stops' names (any
 * locale; case, diacritics and SearchFold ignored). Names equal to the text win over names that only contain it;
 * a station stands for the same-named stops around it (its platforms); same-named stops side by side without a
 * station are one place; distinct places are ambiguous.
 * @param {string} text what the person typed
 * @param {{search: (text: string) => Place[], stop: (stopId: string) => Place | null,
 *   distance: (lat1: number, lon1: number, lat2: number, lon2: number) => number,
 *   searchFold: (text: string) => string}} reader search: every result of a name query (NAME_SEARCH_LIMIT) in the
 *   locale; stop: a stop by stop_id as search gives it, in the locale
 * @returns {StopNameMatch} endpoint: what CityPack.journeys takes (a stop_id, or `lat,lon`)
 */
export function stopsNamed(text, reader) {
  const keyOf = (/** @type {string | null | undefined} */ s) => nameKey(s ?? '', reader.searchFold);
  const key = keyOf(text);
  if (key === '') return { kind: 'none', endpoint: null };
  const near = (/** @type {Place} */ a, /** @type {Place} */ b) => reader.distance(a.lat, a.lon, b.lat, b.lon) <= SAME_STOP_METRES;
  // Every place the name query finds (POIs named like a stop come first in many cities), then its stops: a stop,
  // or an OSM feature linked to one (one result, carrying the stop's id), as the stop itself with the name the
  // search matched.
  /** @type {Candidate[]} */
  let found = [];
  /** @type {Set<string>} */
  const seen = new Set();
  for (const result of reader.search(String(text))) {
    const code = result.stop_id;
    if (code == null || seen.has(code)) continue;
    seen.add(code);
    const row = result.kind === 'stop' ? result : reader.stop(code);
    if (row == null) continue;
    const stop = { ...row };
    if (keyOf(stop.name) !== key && keyOf(result.name) === key) stop.name = result.name;
    found.push({ stop, key: keyOf(stop.name), station: stop.category === STATION });
  }
  // Whole words only: the search's prefix tier ("roma" finding "romana") is for typing, not for naming a stop.
  const words = new Set(key.split(' '));
  found = found.filter((c) => {
    const own = new Set(c.key.split(' '));
    return [...words].every((w) => own.has(w));
  });
  const exact = found.filter((c) => c.key === key);
  let candidates = exact.length === 0 ? found : exact;
  // A station stands for the same-named stops near it.
  const stations = candidates.filter((c) => c.station);
  candidates = candidates.filter((c) => c.station || !stations.some((s) => s.key === c.key && near(s.stop, c.stop)));
  // Same-named stops side by side: one place.
  /** @type {Candidate[][]} */
  let groups = [];
  for (const c of candidates) {
    const group = groups.find((g) => g.some((o) => o.key === c.key && !o.station && !c.station && near(o.stop, c.stop)));
    if (group) group.push(c);
    else groups.push([c]);
  }
  // Without an exact name, the stops whose names start with the text are what was meant ("Cadorna" →
  // "CADORNA F.N." and "cadorna m1 m2", not "via cadorna (buccinasco)"), and those side by side are one place.
  const sideBySide = (/** @type {Candidate[][]} */ list) => {
    const all = list.flat();
    return all.every((a) => all.every((b) => near(a.stop, b.stop)));
  };
  if (exact.length === 0 && groups.length > 1) {
    let starting = groups.filter((g) => g[0].key.startsWith(`${key} `));
    if (starting.length > 1 && sideBySide(starting)) starting = [starting.flat()];
    if (starting.length === 1) groups = starting;
  }
  // Every place the name fits side by side ("Genova": "P.TA GENOVA F.S." and "p.ta genova m2"): one place.
  if (groups.length > 1 && sideBySide(groups)) groups = [groups.flat()];
  if (groups.length === 0) return { kind: 'none', endpoint: null };
  if (groups.length === 1 && groups[0].length === 1) {
    const stop = groups[0][0].stop;
    return { kind: 'stop', stop, endpoint: stop.stop_id ?? null };
  }
  if (groups.length === 1) {
    const stops = groups[0].map((c) => c.stop);
    /** @type {string[]} */
    const names = [];
    for (const s of stops) {
      if (s.name != null && !names.some((n) => n.normalize('NFC') === s.name.normalize('NFC'))) names.push(s.name);
    }
    const lat = stops.reduce((sum, s) => sum + s.lat, 0) / stops.length;
    const lon = stops.reduce((sum, s) => sum + s.lon, 0) / stops.length;
    return { kind: 'place', name: names.join(', '), lat, lon, stops, endpoint: `${lat},${lon}` };
  }
  const rank = (/** @type {Place} */ s) => (s.category === STATION ? 0 : 1);
  const candidatesSorted = groups
    .map((g) => g[0].stop)
    .sort((a, b) => rank(a) - rank(b) || compareText(a.name ?? '', b.name ?? '') || a.id - b.id);
  return { kind: 'ambiguous', candidates: candidatesSorted, endpoint: null };
}
