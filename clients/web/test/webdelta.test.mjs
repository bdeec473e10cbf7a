// What an app downloads to update a city's web flavour after a one-POI edit: the files whose SHA-256 is new in
// the second manifest (webFiles), against the whole flavour. Monaco is built, one POI of a copy of its OSM input is
// renamed, moved, added or removed (nothing editorial changes), and it is built again. Also the whole flavour
// against the same data in the web format 1 layout (one gzip'd JSON file per part, rebuilt here from the chunks
// as the format 1 writer wrote it: sorted keys, gzip level 9).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { geohash, openPack, webFiles } from '../citypack.js';
import { ROW_CHUNKING } from '../internal.js';
import { buildCity, citypackBinary, fileFetch, needsSharedData, root } from '../test-support/support.mjs';

const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
const POI = 'Pharmacie des Moulins'; // node 280489587 (the rename the native delta tests measure)

/** The OSM XML with one edit applied to the node named POI (or a node added beside it). */
const edits = {
  rename: (xml) => xml.replace(`v="${POI}"`, `v="${POI} Neuve"`),
  move: (xml) => nodeOf(xml, (node) => node.replace(/ lat="([0-9.]+)"/, (_, lat) => ` lat="${(Number(lat) + 0.0004).toFixed(7)}"`)),
  add: (xml) =>
    nodeOf(xml, (node) =>
      `${node}\n  <node id="99000000001" version="1" timestamp="2021-05-01T00:00:00Z" lat="43.7437" lon="7.4285">` +
      `\n    <tag k="amenity" v="cafe"/>\n    <tag k="name" v="Café des Moulins"/>\n  </node>`),
  remove: (xml) => nodeOf(xml, (node) => node.replace(/\n {4}<tag [^\n]*/g, '').replace(/>\n {2}<\/node>$/, '/>')),
};

/** Applies `change` to the whole `<node …>…</node>` element holding the tag name=POI. */
function nodeOf(xml, change) {
  const at = xml.indexOf(`v="${POI}"`);
  const start = xml.lastIndexOf('<node ', at);
  const end = xml.indexOf('</node>', at) + '</node>'.length;
  assert.ok(start >= 0 && end > at, `no node named ${POI}`);
  return xml.slice(0, start) + change(xml.slice(start, end)) + xml.slice(end);
}

function build(input, output) {
  execFileSync(citypackBinary(), ['build', input, '--output', output, '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  return JSON.parse(readFileSync(join(output, 'monaco', 'manifest.json'), 'utf8'));
}

/**
 * Bytes of the files of `after` whose SHA-256 no file of `before` has: what an app holding `before` fetches; out
 * of the parts' files (`total`, the figure compared with 5 %) and of every file including the string tables
 * (`all`).
 */
function newBytes(before, after) {
  const held = new Set(webFiles(before).map((f) => f.sha256));
  const files = webFiles(after);
  const fetched = files.filter((f) => !held.has(f.sha256));
  return { bytes: fetched.reduce((a, f) => a + f.bytes, 0), files: fetched.length, total: partBytes(after), all: files.reduce((a, f) => a + f.bytes, 0) };
}

/** Bytes of the parts (head and chunks; not the string tables, which format 1 also listed apart). */
function partBytes(manifest) {
  return manifest.web.parts.reduce((a, p) => a + [p, ...(p.chunks ?? [])].reduce((b, f) => b + f.bytes, 0), 0);
}

test('a one-POI edit of Monaco downloads at most 5 % of the web flavour', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'citypack-webdelta-'));
  try {
    const input = join(dir, 'monaco');
    cpSync(join(root, 'inputs/monaco'), input, { recursive: true });
    const osm = join(input, 'monaco-2021.osm.gz');
    const original = gunzipSync(readFileSync(osm)).toString('utf8');
    const before = build(input, join(dir, 'base'));
    for (const [name, edit] of Object.entries(edits)) {
      const xml = edit(original);
      assert.notEqual(xml, original, `${name} changed nothing`);
      writeFileSync(osm, gzipSync(xml));
      const after = build(input, join(dir, name));
      assert.equal(after.counts.pois, before.counts.pois + (name === 'add' ? 1 : name === 'remove' ? -1 : 0), name);
      const d = newBytes(before, after);
      const percent = (100 * d.bytes) / d.total;
      const line =
        `WEBDELTA monaco ${name}: ${d.bytes} of ${d.total} bytes (${percent.toFixed(1)} %) in ${d.files} files; ` +
        `${((100 * d.bytes) / d.all).toFixed(1)} % of ${d.all} with the string tables`;
      console.log(line);
      t.diagnostic(line);
      assert.ok(d.files >= 1, `${name}: some file must change`);
      if (name === 'rename') assert.ok(percent <= 5, line);
      else assert.ok(percent <= 10, line);
    }
    writeFileSync(osm, readFileSync(join(root, 'inputs/monaco/monaco-2021.osm.gz')));
    // Same inputs, same files: a rebuild downloads nothing.
    const again = build(input, join(dir, 'again'));
    assert.deepEqual(again.web, before.web);
    assert.equal(newBytes(before, again).bytes, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The places and search parts of a pack in the web format 1 layout, gzip'd at level 9 as the format 1 writer did
 * (SortedJSON: keys in byte order, no spaces): its byte counts, to compare the chunked layout with.
 */
async function formatOneBytes(manifestPath, manifestURL) {
  const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const pack = await openPack(fileFetch, manifestURL, { parts: ['places', 'search'], strings: [] });
  const p = pack._parts.places;
  const s = pack._parts.search;
  const cells = [];
  const counts = [];
  const indexed = p.cells.length;
  for (let i = 0; i < indexed; i++) {
    const cell = geohash(p.lat[i], p.lon[i], p.precision);
    if (cells[cells.length - 1] === cell) counts[counts.length - 1] += 1;
    else {
      cells.push(cell);
      counts.push(1);
    }
  }
  const places = {
    also: p.also, category: p.category, cells, city: m.city.id, counts, defaultLocale: pack.defaultLocale,
    format: 1, id: p.id, lat: p.lat, locales: m.locales ?? m.city.locales, lon: p.lon, name: p.name,
    names: p.names, osm: p.osm, precision: p.precision, stopId: p.stopId, tags: p.tags,
    // What issue 32 added to the one-file layout: category labels, linked places and shared places.
    labels: p.labels, links: Object.fromEntries(p.links ?? []), groups: Object.fromEntries(p.groups ?? []),
    // And issues 34 and 37: wheelchair access and compact opening hours by row.
    wheelchair: p.wheelchair, hours: p.hours,
  };
  const utf8 = (x) => Buffer.from(x, 'utf8');
  const order = s.vocab.map((_, i) => i).sort((a, b) => Buffer.compare(utf8(s.vocab[a]), utf8(s.vocab[b])));
  const renumber = new Array(order.length);
  order.forEach((old, i) => (renumber[old] = i));
  const rows = s.rowid.map((id, r) => ({ id, r })).sort((a, b) => a.id - b.id);
  const search = {
    format: 1, name: rows.map(({ r }) => s.name[r].map((k) => renumber[k])), rowid: rows.map(({ id }) => id),
    terms: rows.map(({ r }) => s.terms[r].map((k) => renumber[k])), vocab: order.map((k) => s.vocab[k]), weights: s.weights,
    categoryTerms: s.categoryTerms,
  };
  const gz = (value) => gzipSync(sortedJSON(value), { level: 9 }).length;
  return { places: gz(places), search: gz(search) };
}

/** JSON with object keys sorted (by UTF-16 code units; the keys here are ASCII or digits), no spaces. */
function sortedJSON(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(sortedJSON).join(',')}]`;
  return `{${Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${sortedJSON(value[k])}`)
    .join(',')}}`;
}

async function compareWithFormatOne(t, city) {
  const built = buildCity(city);
  const m = JSON.parse(readFileSync(built.manifest, 'utf8'));
  const old = await formatOneBytes(built.manifest, built.manifestURL);
  const other = m.web.parts.filter((p) => p.name !== 'places' && p.name !== 'search');
  // Format 1 had editorial and transit as one file each: the head's bytes stand in for the file's (editorial is
  // one file in both; transit's pieces are counted against the format 1 file they were cut from, gzip'd whole).
  let oldOther = 0;
  for (const p of other) {
    if (!p.chunks) oldOther += p.bytes;
    else {
      const text = p.chunks.map((c) => gunzipSync(readFileSync(join(built.output, city, c.path))).toString('utf8')).join('');
      oldOther += gzipSync(text, { level: 9 }).length;
    }
  }
  const before = old.places + old.search + oldOther;
  const now = partBytes(m);
  const ratio = now / before;
  const line = `WEBSIZE ${city}: ${now} bytes in ${webFiles(m).length - Object.keys(m.web.strings ?? {}).length} files; format 1 layout ${before} (places ${old.places}, search ${old.search}) → ${ratio.toFixed(3)}×`;
  console.log(line);
  t.diagnostic(line);
  // Row chunks of 1 000 to 2 500 estimated bytes (docs/WEB.md) make a one-POI update cheap (under 5 % of Monaco's
  // install, every request counted) and cost gzip overhead per file: measured 1.07× on Monaco, 1.05× on Milan,
  // 1.17× on Liechtenstein (all under 1.05× with chunks of 1 500 to 4 000). The bound catches growth past that.
  assert.ok(ratio <= 1.2, line);
}

test('the chunked web flavour is at most 1.2× the one-file-per-part layout (Monaco)', async (t) => {
  await compareWithFormatOne(t, 'monaco');
});

test('the chunked web flavour is at most 1.2× the one-file-per-part layout (Liechtenstein, Milan + GTFS)', { skip: needsSharedData }, async (t) => {
  await compareWithFormatOne(t, 'vaduz');
  await compareWithFormatOne(t, 'milan');
});

/** FNV-1a (32 bits) of a string's UTF-8 bytes, as WebWriter.fnv1a. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/** The writer's row chunking (docs/WEB.md) over rows `{key, bytes, id}`: the chunks as lists of ids. */
function chunkRows(rows) {
  const out = [];
  let current = [];
  let size = 0;
  rows.forEach((row, i) => {
    current.push(row.id);
    size += row.bytes;
    const last = i + 1 === rows.length;
    if (!last && rows[i + 1].key === row.key) return;
    if (last || (size >= ROW_CHUNKING.minBytes && (size >= ROW_CHUNKING.maxBytes || fnv1a(row.key) % ROW_CHUNKING.divisor === 0))) {
      out.push(current.join(','));
      current = [];
      size = 0;
    }
  });
  return out;
}

/**
 * Locality of the chunk boundaries: the rule (reproduced here from docs/WEB.md and checked against the chunks the
 * writer made) applied to the rows without each one in turn — a POI removed, or, read backwards, added — and how
 * many chunks that changes.
 */
async function boundaryLocality(t, city) {
  const built = buildCity(city);
  const m = JSON.parse(readFileSync(built.manifest, 'utf8'));
  const pack = await openPack(fileFetch, built.manifestURL, { parts: ['places'], strings: [] });
  const p = pack._parts.places;
  const utf8 = (x) => Buffer.byteLength(x ?? '', 'utf8');
  const pairs = (o) => Object.entries(o ?? {}).reduce((a, [k, v]) => a + utf8(k) + utf8(v), 0);
  const rows = p.id.map((id, i) => ({
    id,
    key: i < p.cells.length ? geohash(p.lat[i], p.lon[i], p.precision) : `~${id}`,
    bytes: ROW_CHUNKING.rowBytes + utf8(p.name[i]) + utf8(p.tokens[i]) + pairs(p.names[i]) + pairs(p.tags[i]),
  }));
  const written = m.web.parts
    .find((x) => x.name === 'places')
    .chunks.map((c) => JSON.parse(gunzipSync(readFileSync(join(built.output, city, c.path))).toString('utf8'))[1].join(','));
  const chunks = chunkRows(rows);
  assert.deepEqual(chunks, written, `${city}: the rule of docs/WEB.md makes the writer's chunks`);
  const before = new Set(chunks);
  const changed = new Map();
  for (let i = 0; i < rows.length; i++) {
    const after = chunkRows(rows.filter((_, k) => k !== i));
    const n = after.filter((c) => !before.has(c)).length;
    changed.set(n, (changed.get(n) ?? 0) + 1);
  }
  const spread = [...changed.entries()].sort((a, b) => a[0] - b[0]).map(([n, k]) => `${n} chunk${n === 1 ? '' : 's'}: ${k}`);
  const line = `WEBCHUNKS ${city}: ${chunks.length} chunks; one row removed (or added) changes ${spread.join(', ')} of ${rows.length} cases`;
  console.log(line);
  t.diagnostic(line);
  const mean = [...changed.entries()].reduce((a, [n, k]) => a + n * k, 0) / rows.length;
  assert.ok(mean <= 1.5, line);
}

test('chunk boundaries are local: one row more or less changes few chunks (Monaco)', async (t) => {
  await boundaryLocality(t, 'monaco');
});

test('chunk boundaries are local (Liechtenstein)', { skip: needsSharedData }, async (t) => {
  await boundaryLocality(t, 'vaduz');
});
