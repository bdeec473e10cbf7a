import { openPack } from '/citypack.js';

const $ = (id) => document.getElementById(id);
const svgNS = 'http://www.w3.org/2000/svg';
const map = $('map');
const K = 100000; // map units per degree of latitude
let proj = null; // { lat0, lon0, kx }
let view = null; // viewBox { x, y, w, h }
let state = null;
let pack = null;
let packBuild = null;
let shownBuild = -1;
let lastQuery = null; // [lat, lon, radius] of the last nearby query
let selected = null;

const project = (lat, lon) => [(lon - proj.lon0) * proj.kx * K, -(lat - proj.lat0) * K];
const unproject = (x, y) => [proj.lat0 - y / K, proj.lon0 + x / (proj.kx * K)];
const el = (name, attrs = {}, parent) => {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.append(e);
  return e;
};
const titled = (e, text) => { el('title', {}, e).textContent = text; return e; };
const html = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; };

// -- view: pan and zoom keep their place across rebuilds -----------------------------------------------------

function pixelsPerUnit() {
  const r = map.getBoundingClientRect();
  return Math.min(r.width / view.w, r.height / view.h) || 1;
}
function applyView() {
  map.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  const u = 1 / pixelsPerUnit();
  $('zoom-style').textContent =
    `#map .poi{r:${(3.2 * u).toFixed(3)}px}#map .waypoint{r:${(4.5 * u).toFixed(3)}px}#map .ring{r:${(9 * u).toFixed(3)}px}` +
    `#map .found{r:${(8 * u).toFixed(3)}px}#map .stop{width:${(6 * u).toFixed(3)}px;height:${(6 * u).toFixed(3)}px}`;
  document.body.dataset.view = [view.x, view.y, view.w, view.h].map((v) => v.toFixed(2)).join(' ');
}
function fit(points) {
  if (!points.length) return;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lat, lon] of points) {
    const [x, y] = project(lat, lon);
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  const w = Math.max(maxX - minX, 200), h = Math.max(maxY - minY, 200);
  view = { x: minX - w * 0.05, y: minY - h * 0.05, w: w * 1.1, h: h * 1.1 };
  applyView();
}
function zoom(factor, cx, cy) {
  if (!view) return;
  if (cx == null) { cx = view.x + view.w / 2; cy = view.y + view.h / 2; }
  view = { x: cx - (cx - view.x) * factor, y: cy - (cy - view.y) * factor, w: view.w * factor, h: view.h * factor };
  applyView();
}
function centreOn(lat, lon, span) {
  const [x, y] = project(lat, lon);
  const w = span ?? view.w, h = span ? (span * view.h) / view.w : view.h;
  view = { x: x - w / 2, y: y - h / 2, w, h };
  applyView();
}
function toMap(event) {
  const p = map.createSVGPoint();
  p.x = event.clientX; p.y = event.clientY;
  return p.matrixTransform(map.getScreenCTM().inverse());
}
map.addEventListener('wheel', (e) => {
  e.preventDefault();
  const p = toMap(e);
  zoom(e.deltaY > 0 ? 1.25 : 0.8, p.x, p.y);
}, { passive: false });
let drag = null;
map.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY, view: { ...view }, moved: false }; map.setPointerCapture(e.pointerId); });
map.addEventListener('pointermove', (e) => {
  if (!drag || !view) return;
  const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
  if (!drag.moved) return;
  const u = 1 / pixelsPerUnit();
  view = { ...drag.view, x: drag.view.x - dx * u, y: drag.view.y - dy * u };
  applyView();
});
map.addEventListener('pointerup', (e) => {
  const d = drag;
  drag = null;
  if (!d || d.moved || !proj) return;
  const p = toMap(e);
  const [lat, lon] = unproject(p.x, p.y);
  nearby(lat, lon);
});
$('zoom-in').onclick = () => zoom(0.66);
$('zoom-out').onclick = () => zoom(1.5);
$('zoom-fit').onclick = () => fitCity();
window.addEventListener('resize', () => view && applyView());

function fitCity() {
  if (pack && pack.has('places')) {
    const p = pack._part('places');
    const pts = [];
    for (let i = 0; i < p.lat.length; i++) pts.push([p.lat[i], p.lon[i]]);
    if (pts.length) return fit(pts);
  }
  const b = state?.city?.bbox;
  if (b) fit([[b[1], b[0]], [b[3], b[2]]]);
}

// -- drawing --------------------------------------------------------------------------------------------------

function colour(i) {
  return `hsl(${((i * 137.508) % 360).toFixed(0)},70%,${[46, 34, 58][i % 3]}%)`;
}

function drawPack() {
  const layer = $('layer-places');
  layer.replaceChildren();
  const legend = $('legend');
  legend.replaceChildren();
  if (!pack || !pack.has('places')) return;
  const p = pack._part('places');
  const categories = [...new Set(p.category.filter((c, i) => p.id[i] % 4 !== 3))].sort();
  const colours = new Map(categories.map((c, i) => [c, colour(i)]));
  const counts = new Map();
  const stops = el('g', { id: 'stops' });
  for (let i = 0; i < p.id.length; i++) {
    const [x, y] = project(p.lat[i], p.lon[i]);
    const name = p.name[i] ?? '';
    if (p.id[i] % 4 === 3) {
      titled(el('rect', { class: 'stop', x: x.toFixed(1), y: y.toFixed(1), width: 6, height: 6, transform: 'translate(-3,-3)', 'data-id': p.id[i] }, stops), `stop ${p.stopId[i] ?? ''} ${name}`);
    } else {
      counts.set(p.category[i], (counts.get(p.category[i]) ?? 0) + 1);
      titled(el('circle', { class: 'poi', cx: x.toFixed(1), cy: y.toFixed(1), r: 3, fill: colours.get(p.category[i]), 'data-id': p.id[i], 'data-category': p.category[i] }, layer), `${p.category[i]} ${p.osm[i] ?? ''} ${name}`);
    }
  }
  layer.append(stops);
  for (const c of categories) {
    const item = html('span', null);
    const sw = html('span', 'swatch');
    sw.style.background = colours.get(c);
    item.append(sw, `${c} ${counts.get(c) ?? 0}`);
    legend.append(item);
  }
  // Walking routes, from the editorial part.
  const routes = $('layer-routes');
  routes.replaceChildren();
  if (pack.has('editorial')) {
    const palette = ['#8e24aa', '#d81b60', '#00897b', '#ef6c00', '#3949ab', '#6d4c41'];
    pack.routes().forEach((r, i) => {
      const route = pack.route(r.id);
      const g = el('g', { class: 'route', 'data-route': r.id }, routes);
      const pts = route.waypoints.map((w) => (w.lat != null ? [w.lat, w.lon] : pack.place(w.poi) && [pack.place(w.poi).lat, pack.place(w.poi).lon])).filter(Boolean);
      const xy = pts.map(([lat, lon]) => project(lat, lon).map((v) => v.toFixed(1)).join(','));
      if (xy.length >= 2) titled(el('polyline', { class: 'walk', stroke: palette[i % palette.length], points: xy.join(' '), 'vector-effect': 'non-scaling-stroke' }, g), `walking route ${r.id} — ${r.name}`);
      pts.forEach(([lat, lon], k) => {
        const [x, y] = project(lat, lon);
        titled(el('circle', { class: 'waypoint', cx: x.toFixed(1), cy: y.toFixed(1), r: 4.5, stroke: palette[i % palette.length], 'vector-effect': 'non-scaling-stroke' }, g), `${r.id} waypoint ${route.waypoints[k]?.sequence ?? k + 1} ${route.waypoints[k]?.name ?? ''}`);
      });
      const sw = html('span', 'swatch');
      sw.style.background = palette[i % palette.length];
      const item = html('span', null);
      item.append(sw, `walk: ${r.name}`);
      $('legend').append(item);
    });
  }
}

function drawState(s) {
  const bbox = $('layer-bbox');
  bbox.replaceChildren();
  const b = s.city.bbox;
  if (b) {
    const [x0, y0] = project(b[3], b[0]);
    const [x1, y1] = project(b[1], b[2]);
    titled(el('rect', { class: 'bbox', x: x0, y: y0, width: x1 - x0, height: y1 - y0, 'vector-effect': 'non-scaling-stroke' }, bbox), 'city bbox');
  }
  const lines = $('layer-lines');
  lines.replaceChildren();
  for (const line of s.lines) {
    const pts = line.points.map(([lat, lon]) => project(lat, lon).map((v) => v.toFixed(1)).join(',')).join(' ');
    titled(el('polyline', { class: 'line', stroke: line.colour, points: pts, 'vector-effect': 'non-scaling-stroke' }, lines), line.name);
  }
  const rings = $('layer-problems');
  rings.replaceChildren();
  s.problems.forEach((p, i) => {
    if (p.lat == null) return;
    const [x, y] = project(p.lat, p.lon);
    titled(el('circle', { class: `ring ${p.severity}`, cx: x.toFixed(1), cy: y.toFixed(1), r: 9, 'data-problem': i, 'vector-effect': 'non-scaling-stroke' }, rings), `${p.severity} [${p.code}] ${p.message}`);
  });
}

function renderProblems(s) {
  const list = $('problems');
  list.replaceChildren();
  s.problems.forEach((p, i) => {
    const li = html('li', `problem ${p.severity}${p.lat != null ? ' placed' : ''}`);
    li.dataset.code = p.code;
    li.dataset.index = i;
    if (p.lat != null) { li.dataset.lat = p.lat; li.dataset.lon = p.lon; }
    const head = html('div', 'head');
    head.append(html('span', 'sev', p.severity), ' ', html('span', 'loc', p.location ?? ''), ' ', html('span', 'code', `[${p.code}]`));
    if (p.isNew) head.append(html('span', 'new', 'new'));
    li.append(head, html('div', 'msg', p.message));
    for (const n of p.notes) li.append(html('div', 'note', `note: ${n}`));
    if (p.excerpt.length) {
      const width = String(p.excerpt[p.excerpt.length - 1].number).length;
      const text = p.excerpt.map((l) => `${String(l.number).padStart(width)} | ${l.text}` + (l.marker ? `\n${' '.repeat(width)} | ${l.marker}` : '')).join('\n');
      li.append(html('pre', 'excerpt', text));
    }
    li.addEventListener('click', () => selectProblem(i));
    list.append(li);
  });
  $('problem-count').textContent = s.summary;
}

function selectProblem(i) {
  selected = i;
  for (const li of $('problems').children) li.classList.toggle('selected', Number(li.dataset.index) === i);
  for (const c of $('layer-problems').children) c.classList.toggle('selected', Number(c.dataset.problem) === i);
  const p = state.problems[i];
  if (p && p.lat != null && proj) {
    centreOn(p.lat, p.lon, Math.min(view.w, 1500));
    document.body.dataset.focus = `${p.lat},${p.lon}`;
  }
}

// -- the reader: search and nearby ----------------------------------------------------------------------

function renderResults(list, rows) {
  list.replaceChildren(...rows.map((r) => {
    const li = html('li', null, `${r.distance_m != null ? `${r.distance_m.toFixed(1)} m · ` : ''}${r.name ?? '(no name)'} — ${r.category}`);
    li.dataset.id = String(r.id);
    li.addEventListener('click', () => showFound(r));
    return li;
  }));
}
function showFound(r) {
  const layer = $('layer-query');
  layer.querySelectorAll('.found').forEach((e) => e.remove());
  const [x, y] = project(r.lat, r.lon);
  el('circle', { class: 'found', cx: x, cy: y, r: 8, 'vector-effect': 'non-scaling-stroke' }, layer);
  centreOn(r.lat, r.lon);
}
function search() {
  const q = $('q').value.trim();
  $('search-for').textContent = q ? `“${q}”` : '';
  renderResults($('search-results'), q && pack && pack.has('search') ? pack.search(q) : []);
}
function nearby(lat, lon) {
  const radius = Number($('radius').value) || 100;
  lastQuery = [lat, lon, radius];
  $('nearby-at').textContent = `${lat.toFixed(5)}, ${lon.toFixed(5)} within ${radius} m`;
  $('nearby-at').dataset.query = JSON.stringify(lastQuery);
  const layer = $('layer-query');
  layer.querySelectorAll('.query').forEach((e) => e.remove());
  const [x, y] = project(lat, lon);
  el('circle', { class: 'query', cx: x, cy: y, r: radius * (K / 111320), 'vector-effect': 'non-scaling-stroke' }, layer);
  renderResults($('nearby-results'), pack && pack.has('places') ? pack.nearby(lat, lon, radius) : []);
}
$('search-form').addEventListener('submit', (e) => { e.preventDefault(); search(); });

// -- following builds -----------------------------------------------------------------------------------

function renderStatus(s, packError) {
  $('title').textContent = `${s.city.name} — CityPack preview`;
  document.title = `${s.status === 'failed' ? '✗' : '✓'} ${s.city.name} — CityPack preview`;
  const status = $('status');
  status.className = s.status;
  status.textContent = `build ${s.build} ${s.status} in ${s.seconds.toFixed(2)} s: ${s.summary}` + (s.build > 1 ? ` (${s.newCount} new, ${s.fixedCount} fixed)` : '');
  let note = '';
  if (packError) note = `cannot open the pack: ${packError.message}`;
  else if (!s.pack) note = 'no pack yet: fix the errors to build one';
  else if (s.status === 'failed') note = `showing the last good pack (${s.pack.build ? `build ${s.pack.build}` : 'from before this preview'}, data version ${pack?.manifest?.dataVersion ?? '?'})`;
  else note = `pack data version ${pack?.manifest?.dataVersion ?? '?'}`;
  $('pack-note').textContent = note;
}

async function show(s) {
  state = s;
  if (!proj && s.city.bbox) {
    const [minLon, minLat, maxLon, maxLat] = s.city.bbox;
    const lat0 = (minLat + maxLat) / 2;
    proj = { lat0, lon0: (minLon + maxLon) / 2, kx: Math.cos((lat0 * Math.PI) / 180) };
  }
  let packError = null;
  if (s.pack && s.pack.build !== packBuild && proj) {
    try {
      pack = await openPack(fetch, `${s.pack.manifest}?build=${s.pack.build}`);
      packBuild = s.pack.build;
      drawPack();
    } catch (e) {
      packError = e;
    }
  }
  if (!view && proj) fitCity();
  if (proj) drawState(s);
  renderProblems(s);
  renderStatus(s, packError);
  search();
  if (lastQuery) nearby(lastQuery[0], lastQuery[1]);
  if (selected != null && selected < s.problems.length) {
    for (const li of $('problems').children) li.classList.toggle('selected', Number(li.dataset.index) === selected);
  }
  shownBuild = s.build;
  document.body.dataset.build = String(s.build);
  document.body.dataset.packBuild = String(packBuild ?? '');
  document.body.dataset.ready = 'true';
}

let busy = false;
let again = false;
async function refresh() {
  if (busy) { again = true; return; }
  busy = true;
  try {
    do {
      again = false;
      const s = await (await fetch('/state.json', { cache: 'no-store' })).json();
      if (!s.build || (s.build === shownBuild && (!s.pack || s.pack.build === packBuild))) continue;
      await show(s);
    } while (again);
  } catch (e) {
    $('status').textContent = `preview: ${e.message}`;
  } finally {
    busy = false;
  }
}

const events = new EventSource('/events');
events.addEventListener('hello', () => { if (state) renderStatus(state); refresh(); });
events.addEventListener('build', refresh);
events.addEventListener('error', () => { $('status').className = 'building'; $('status').textContent = 'reconnecting to citypack preview…'; });
refresh();
