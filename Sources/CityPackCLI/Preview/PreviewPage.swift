import Foundation

/// The page `citypack preview` serves (`/`) and its script (`/preview.js`). No framework, no network beyond the
/// preview server: the map is SVG (drawn from the web pack's places and routes, the state's bbox and GTFS lines),
/// search and nearby are `CityPack.search` / `CityPack.nearby` of `clients/web/citypack.js` on the web flavour
/// just built, and `/events` (server-sent events) tells the page when a build ended: it then reads
/// `/state.json`, reopens the pack when a new one was written, redraws in place (the map keeps its view) and
/// repeats the current search and nearby query.
///
/// For tests and people alike, `<body>` carries `data-build` (the build shown), `data-pack-build` (the build whose
/// pack is open) and `data-ready`.
enum PreviewPage {
    /// `clients/web/citypack.js`, looked for above the templates folder, the working directory and the executable
    /// (a checkout's layout; the reader is not compiled in, so the page always runs the file the JS tests test).
    static func locateReader(templates: String?) -> String? {
        var starts: [URL] = []
        if let templates { starts.append(URL(fileURLWithPath: templates).standardizedFileURL) }
        starts.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        if let exe = Bundle.main.executableURL { starts.append(exe.resolvingSymlinksInPath()) }
        for start in starts {
            var dir = start
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent("clients/web/citypack.js")
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }

    static let html = #"""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>CityPack preview</title>
        <style>
        *{box-sizing:border-box}
        html,body{height:100%;margin:0}
        body{font:14px/1.4 system-ui,sans-serif;color:#222;background:#fafafa;display:flex;flex-direction:column}
        header{background:#20303f;color:#fff;padding:8px 14px;display:flex;gap:14px;align-items:baseline;flex-wrap:wrap}
        header h1{font-size:18px;margin:0}
        #status{font-weight:600}#status.passed{color:#a8f0b0}#status.failed{color:#ff9e9e}#status.building{color:#ffe08a}
        #pack-note{color:#d5dee6;font-size:13px}
        main{flex:1;display:flex;min-height:0}
        #map-wrap{flex:1;position:relative;min-width:0;border-right:1px solid #ccc}
        #map{width:100%;height:100%;display:block;background:#f4f7fa;cursor:crosshair;touch-action:none}
        #map-tools{position:absolute;top:8px;left:8px;display:flex;gap:4px}
        #map-tools button{width:30px;height:30px;font-size:16px}
        #legend{position:absolute;bottom:6px;left:8px;right:8px;font-size:12px;display:flex;flex-wrap:wrap;gap:4px 10px;pointer-events:none;text-shadow:0 0 3px #fff}
        .swatch{display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:4px;vertical-align:middle}
        aside{width:440px;max-width:45%;overflow:auto;padding:8px 12px}
        h2{font-size:15px;margin:12px 0 4px;border-bottom:1px solid #ccc}
        h2 small{font-weight:400;color:#666}
        form{display:flex;gap:6px;flex-wrap:wrap;align-items:center}
        ol{padding-left:1.4em;margin:4px 0}
        #search-results li,#nearby-results li{cursor:pointer}
        #search-results li:hover,#nearby-results li:hover{background:#eef}
        #problems{list-style:none;padding:0}
        .problem{border:1px solid #ddd;border-left:4px solid #999;margin:4px 0;padding:4px 6px;background:#fff;cursor:default}
        .problem.error{border-left-color:#d00}.problem.warning{border-left-color:#e08a00}
        .problem.placed{cursor:pointer}.problem.placed:hover{background:#f3f6ff}.problem.selected{outline:2px solid #3366cc}
        .problem .sev{font-weight:700;text-transform:uppercase;font-size:11px}
        .problem.error .sev{color:#b00}.problem.warning .sev{color:#a05a00}
        .problem .loc{font-family:monospace;font-size:12px;word-break:break-all}
        .problem .code{font-family:monospace;font-size:12px;color:#555}
        .problem .new{background:#ffe08a;border-radius:3px;padding:0 4px;font-size:11px;margin-left:4px}
        .problem pre{margin:4px 0 0;font-size:11.5px;background:#f6f6f6;padding:3px 5px;overflow-x:auto}
        .problem .note{color:#555;font-size:12px}
        .sea{fill:#f4f7fa}.bbox{fill:none;stroke:#7a8a99;stroke-dasharray:6 4}
        .line{fill:none;stroke-width:3;opacity:.8}
        .poi{stroke:#fff;stroke-width:.6;vector-effect:non-scaling-stroke}
        .stop{fill:#fff;stroke:#222;stroke-width:1.2;vector-effect:non-scaling-stroke}
        .walk{fill:none;stroke-width:3;stroke-dasharray:8 5;stroke-linecap:round}
        .waypoint{fill:#fff;stroke-width:2}
        .ring{fill:none;stroke-width:2}.ring.error{stroke:#d00}.ring.warning{stroke:#e08a00}.ring.info{stroke:#3366cc}
        .ring.selected{stroke-width:4}
        .query{fill:rgba(230,100,0,.08);stroke:#e60;stroke-width:2}
        .found{fill:none;stroke:#3366cc;stroke-width:3}
        </style></head>
        <body data-ready="false">
        <header><h1 id="title">CityPack preview</h1><span id="status" class="building">building…</span><span id="pack-note"></span></header>
        <main>
        <div id="map-wrap">
        <svg id="map" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Map of the city; click for nearby places">
        <style id="zoom-style"></style>
        <g id="layer-bbox"></g><g id="layer-lines"></g><g id="layer-routes"></g><g id="layer-places"></g>
        <g id="layer-problems"></g><g id="layer-query"></g>
        </svg>
        <div id="map-tools"><button id="zoom-in" title="Zoom in">+</button><button id="zoom-out" title="Zoom out">−</button><button id="zoom-fit" title="Show the whole city">⤢</button></div>
        <div id="legend"></div>
        </div>
        <aside>
        <form id="search-form"><input id="q" type="search" placeholder="Search: toilet, café, museum…" size="26"><button>Search</button>
        <label>radius <input id="radius" type="number" min="1" max="5000" value="100" style="width:5em"> m</label></form>
        <h2>Search <small id="search-for"></small></h2><ol id="search-results"></ol>
        <h2>Nearby <small id="nearby-at">click the map</small></h2><ol id="nearby-results"></ol>
        <h2>Problems <small id="problem-count"></small></h2><ol id="problems"></ol>
        </aside>
        </main>
        <script type="module" src="/preview.js"></script>
        </body></html>

        """#

    static let script = #"""
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

        """#
}
