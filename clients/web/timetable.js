// The transit part: stops, trip patterns (decoded), services and the next departures from a stop (ports of
// TimetableCoding and TransitReader.departures/coverage).

import { dateOfDayNumber, dateText, dayNumber, two } from './dates.js';
import { compareStrings, omitNull } from './format.js';

/**
 * The transit part as the pack holds it (docs/schemas/web-transit.schema.json): columns of stops, trips, lines,
 * services, service dates, frequencies, footpaths, and the packed trip patterns.
 * @typedef {object} TransitJSON
 * @property {number} maxSeconds the latest time of any trip (seconds after its service day's 00:00)
 * @property {string[]} [timezones]
 * @property {{id: number[], feed: number[], stopId: string[], name: (string|null)[], lat: (number|null)[], lon: (number|null)[], parent: (number|null)[], locationType: number[], wheelchair?: number[]}} stops
 * @property {{id: number[], tripId: string[], service: number[], headsign: (string|null)[], line: number[], wheelchair?: number[]}} trips
 * @property {{id: number[], routeId: string[], shortName: (string|null)[], longName: (string|null)[], type: number[], colour: (string|null)[]} & Record<string, any>} lines
 * @property {{id: number[], start: (number|null)[], end: (number|null)[], days: (number|null)[]}} services
 * @property {{service: number[], date: number[], type: number[]}} serviceDates
 * @property {{trip: number[], start: number[], end: number[], headway: number[]}} frequencies
 * @property {{from: number[], to: number[], metres: number[], seconds: (number|null)[]}} footpaths
 * @property {PackedPatterns} patterns
 */
/**
 * The packed trip patterns (TimetableCoding): per pattern its flags, stop and trip counts; stop and trip ids and
 * times delta-coded.
 * @typedef {{flags: number[], stopCounts: number[], tripCounts: number[], stops: number[], trips: number[], times: number[]}} PackedPatterns
 */
/**
 * A decoded trip pattern: stop ids, trip ids, times stop-major (`departures[i * tripCount + k]`).
 * @typedef {{stops: number[], trips: number[], arrivals: Int32Array, departures: Int32Array, through: boolean, frequency: boolean}} Pattern
 */
/**
 * The loaded transit part: the JSON, stop rows by stop_id and station, the decoded patterns per stop, lookups.
 * @typedef {object} TransitPart
 * @property {TransitJSON} json
 * @property {number} maxSeconds
 * @property {Map<string, number[]>} byCode stop rows by stop_id, in (feed, id) order
 * @property {Map<number, number>} stopIndex
 * @property {Map<number, number[]>} children a station's stop rows
 * @property {Pattern[]} timetable
 * @property {Map<number, [number, number][]>} stopPatterns (pattern, position) pairs per stop id
 * @property {Map<number, number>} tripIndex
 * @property {Map<number, number>} lineIndex
 * @property {Map<number, number>} serviceIndex
 * @property {Map<number, number[]>} freqByTrip
 * @property {Map<string, number>} exceptions `service:date` → 1 added, 2 removed
 * @property {{first: number, last: number} | null} [coverage] the service range, once asked
 * @property {import('./raptor.js').Routing} [_routing] the routing view, once built
 */
/**
 * A departure, as `citypack query --departures --format json` prints it.
 * @typedef {object} Departure
 * @property {string} line
 * @property {string} [headsign]
 * @property {string} time
 * @property {string} date
 * @property {number} seconds
 * @property {string} trip
 * @property {number} route_type
 * @property {string} [colour]
 * @property {string} stop_id
 */
/**
 * `citypack query --departures/--journey`'s "timetable": a date outside has no trips because the data ends.
 * @typedef {{first: string, last: string, date: string, position: 'before'|'within'|'after'}} TimetableCoverage
 */
/** @typedef {{id: number, kind: 'stop', osm: string, stop_id: string, name: string | null, named?: boolean, category: string, lat: number, lon: number}} StopRow */
/** @typedef {{tripId: string, service: number, headsign: string|null, routeId: string, shortName: string|null, longName: string|null, type: number, colour: string|null, lineName: string}} TripInfo */

/**
 * Decodes the transit part's `patterns` (TimetableCoding in the Swift sources): per pattern its stop ids, trip
 * ids, times stop-major (`departures[i * tripCount + k]`, Int32Array), and its `through` and `frequency` flags.
 * @param {PackedPatterns} pt
 * @returns {Pattern[]}
 */
export function decodePatterns(pt) {
  const out = [];
  let s = 0;
  let tr = 0;
  let tm = 0;
  for (let p = 0; p < pt.flags.length; p++) {
    const n = pt.stopCounts[p];
    const m = pt.tripCounts[p];
    const stops = new Array(n);
    let acc = 0;
    for (let i = 0; i < n; i++) stops[i] = acc += pt.stops[s++];
    const trips = new Array(m);
    acc = 0;
    for (let k = 0; k < m; k++) trips[k] = acc += pt.trips[tr++];
    const arrivals = new Int32Array(n * m);
    const departures = new Int32Array(n * m);
    const row = new Array(2 * n).fill(0);
    for (let k = 0; k < m; k++) {
      for (let j = 0; j < 2 * n; j++) row[j] += pt.times[tm++];
      departures[k] = row[0];
      arrivals[k] = row[0] - row[1];
      for (let i = 1; i < n; i++) {
        arrivals[i * m + k] = departures[(i - 1) * m + k] + row[2 * i];
        departures[i * m + k] = arrivals[i * m + k] + row[2 * i + 1];
      }
    }
    out.push({ stops, trips, arrivals, departures, through: (pt.flags[p] & 1) !== 0, frequency: (pt.flags[p] & 2) !== 0 });
  }
  return out;
}

/**
 * @param {TransitJSON} json
 * @returns {TransitPart}
 */
export function loadTransit(json) {
  const st = json.stops;
  /** @type {Map<string, number[]>} */
  const byCode = new Map();
  /** @type {Map<number, number>} */
  const stopIndex = new Map();
  /** @type {Map<number, number[]>} */
  const children = new Map();
  st.id.forEach((id, i) => stopIndex.set(id, i));
  // Rows with the same stop_id in (feed, id) order; children of a station in id order.
  const order = st.id.map((_, i) => i).sort((a, b) => st.feed[a] - st.feed[b] || st.id[a] - st.id[b]);
  for (const i of order) {
    const code = st.stopId[i];
    if (!byCode.has(code)) byCode.set(code, []);
    /** @type {number[]} */ (byCode.get(code)).push(i);
  }
  for (let i = 0; i < st.id.length; i++) {
    const parent = st.parent[i];
    if (parent == null) continue;
    if (!children.has(parent)) children.set(parent, []);
    /** @type {number[]} */ (children.get(parent)).push(i);
  }
  for (const list of children.values()) list.sort((a, b) => st.id[a] - st.id[b]);
  // The timetable: patterns decoded once (journeys.js reads the same), and each stop's (pattern, position) pairs.
  const timetable = decodePatterns(json.patterns);
  /** @type {Map<number, [number, number][]>} */
  const stopPatterns = new Map();
  timetable.forEach((pattern, p) => {
    pattern.stops.forEach((stop, i) => {
      if (!stopPatterns.has(stop)) stopPatterns.set(stop, []);
      /** @type {[number, number][]} */ (stopPatterns.get(stop)).push([p, i]);
    });
  });
  const index = (/** @type {number[]} */ ids) => {
    /** @type {Map<number, number>} */
    const m = new Map();
    ids.forEach((id, i) => m.set(id, i));
    return m;
  };
  /** @type {Map<number, number[]>} */
  const freqByTrip = new Map();
  json.frequencies.trip.forEach((trip, i) => {
    if (!freqByTrip.has(trip)) freqByTrip.set(trip, []);
    /** @type {number[]} */ (freqByTrip.get(trip)).push(i);
  });
  const exceptions = new Map();
  json.serviceDates.service.forEach((service, i) => exceptions.set(`${service}:${json.serviceDates.date[i]}`, json.serviceDates.type[i]));
  return {
    json,
    maxSeconds: json.maxSeconds,
    byCode,
    stopIndex,
    children,
    timetable,
    stopPatterns,
    tripIndex: index(json.trips.id),
    lineIndex: index(json.lines.id),
    serviceIndex: index(json.services.id),
    freqByTrip,
    exceptions,
  };
}

/**
 * @param {TransitPart} t
 * @param {number} i a stop row
 * @returns {StopRow}
 */
export function stopRow(t, i) {
  const st = t.json.stops;
  const type = st.locationType[i];
  return omitNull({
    id: st.id[i],
    kind: 'stop',
    osm: '',
    stop_id: st.stopId[i],
    name: st.name[i],
    category: type === 1 ? 'transit_station' : type === 2 ? 'transit_entrance' : 'transit_stop',
    lat: st.lat[i] ?? 0,
    lon: st.lon[i] ?? 0,
  });
}

/**
 * @param {TransitPart} t
 * @param {number} id
 * @param {Map<number, TripInfo | null>} cache
 * @returns {TripInfo | null}
 */
function tripInfo(t, id, cache) {
  if (cache.has(id)) return /** @type {TripInfo | null} */ (cache.get(id));
  const i = t.tripIndex.get(id);
  /** @type {TripInfo | null} */
  let info = null;
  if (i !== undefined) {
    const tr = t.json.trips;
    const li = t.lineIndex.get(tr.line[i]);
    if (li !== undefined) {
      const l = t.json.lines;
      const fields = {
        tripId: tr.tripId[i],
        service: tr.service[i],
        headsign: tr.headsign[i],
        routeId: l.routeId[li],
        shortName: l.shortName[li],
        longName: l.longName[li],
        type: l.type[li],
        colour: l.colour[li],
      };
      info = { ...fields, lineName: fields.shortName ?? fields.longName ?? fields.routeId };
    }
  }
  cache.set(id, info);
  return info;
}

/**
 * The first and last yyyymmdd any service may run (calendar ranges, added dates), or null.
 * @param {TransitJSON} json
 * @returns {{first: number, last: number} | null}
 */
function serviceRange(json) {
  let first = Infinity;
  let last = -Infinity;
  const sv = json.services;
  sv.start.forEach((start, i) => {
    const end = sv.end[i];
    if (start != null && end != null && start <= end) {
      first = Math.min(first, start);
      last = Math.max(last, end);
    }
  });
  json.serviceDates.date.forEach((date, i) => {
    if (json.serviceDates.type[i] === 1) {
      first = Math.min(first, date);
      last = Math.max(last, date);
    }
  });
  return first <= last ? { first, last } : null;
}

/**
 * @param {TransitPart} t
 * @param {number} service
 * @param {number} date yyyymmdd
 * @param {number} weekday
 * @param {Map<string, boolean>} cache
 */
function serviceRuns(t, service, date, weekday, cache) {
  const key = `${service}:${date}`;
  if (cache.has(key)) return cache.get(key);
  let runs = false;
  const type = t.exceptions.get(key);
  if (type !== undefined) runs = type === 1;
  else {
    const i = t.serviceIndex.get(service);
    const sv = t.json.services;
    if (i !== undefined && sv.start[i] != null && sv.days[i] != null) {
      runs = /** @type {number} */ (sv.start[i]) <= date && date <= /** @type {number} */ (sv.end[i]) && (/** @type {number} */ (sv.days[i]) & (1 << weekday)) !== 0;
    }
  }
  cache.set(key, runs);
  return runs;
}

/**
 * @param {TransitPart} t
 * @param {string} code a stop_id
 * @param {number} date yyyymmdd
 * @param {number} seconds
 * @param {number} limit
 * @returns {Departure[]}
 */
export function departures(t, code, date, seconds, limit) {
  if (!(limit > 0)) return [];
  const st = t.json.stops;
  const serving = [];
  for (const i of t.byCode.get(code) ?? []) {
    serving.push(i);
    for (const c of t.children.get(st.id[i]) ?? []) serving.push(c);
  }
  if (serving.length === 0) return [];
  /** @type {Map<number, TripInfo | null>} */
  const trips = new Map();
  /** @type {Map<string, boolean>} */
  const runsCache = new Map();
  /** @type {(Departure & {_key?: number})[]} */
  const found = [];
  const base = dayNumber(date);
  const daysBack = Math.floor(t.maxSeconds / 86400);
  /** @type {(trip: TripInfo, stopCode: string, serviceDate: number, secs: number, shift: number) => Departure & {_key?: number}} */
  const make = (trip, stopCode, serviceDate, secs, shift) =>
    /** @type {any} */ ({
      line: trip.lineName,
      headsign: trip.headsign,
      time: `${two(Math.floor((((secs % 86400) + 86400) % 86400) / 3600))}:${two(Math.floor(((((secs % 86400) + 86400) % 86400) % 3600) / 60))}`,
      date: dateText(serviceDate),
      seconds: secs,
      trip: trip.tripId,
      route_type: trip.type,
      colour: trip.colour,
      stop_id: stopCode,
      _key: secs + shift,
    });
  const seen = new Set();
  /** @type {(trip: TripInfo, tripId: number, stopCode: string, stopId: number, serviceDate: number, secs: number, shift: number) => void} */
  const add = (trip, tripId, stopCode, stopId, serviceDate, secs, shift) => {
    const key = `${tripId}:${stopId}:${serviceDate}:${secs}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push(make(trip, stopCode, serviceDate, secs, shift));
  };
  for (let dayOffset = -daysBack; dayOffset <= 1; dayOffset++) {
    const serviceDate = dateOfDayNumber(base + dayOffset);
    const weekday = ((((base + dayOffset + 3) % 7) + 7) % 7);
    const shift = dayOffset * 86400;
    const threshold = Math.max(0, seconds - shift);
    if (dayOffset < 0 && threshold > t.maxSeconds) continue;
    for (const i of serving) {
      const stopId = st.id[i];
      const code2 = st.stopId[i];
      // Each pattern's column at the stop is ascending: up to `limit` running trips per pattern (and those
      // sharing the last one's time); frequency patterns from their windows.
      for (const [p, i] of t.stopPatterns.get(stopId) ?? []) {
        const pattern = t.timetable[p];
        const n = pattern.stops.length;
        const m = pattern.trips.length;
        if (!(i < n - 1 || pattern.through)) continue;
        if (pattern.frequency) {
          const offset = pattern.departures[i * m];
          const tripId = pattern.trips[0];
          for (const f of t.freqByTrip.get(tripId) ?? []) {
            const fr = t.json.frequencies;
            const start = fr.start[f];
            const end = fr.end[f];
            const headway = fr.headway[f];
            if (!(headway > 0)) continue;
            const earliest = Math.max(start, threshold - offset);
            let tt = start + Math.trunc((earliest - start + headway - 1) / headway) * headway;
            if (!(tt < end)) continue;
            const trip = tripInfo(t, tripId, trips);
            if (!trip || !serviceRuns(t, trip.service, serviceDate, weekday, runsCache)) continue;
            let produced = 0;
            while (tt < end && produced < limit) {
              add(trip, tripId, code2, stopId, serviceDate, tt + offset, shift);
              produced += 1;
              tt += headway;
            }
          }
          continue;
        }
        let lo = 0;
        let hi = m;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (pattern.departures[i * m + mid] < threshold) lo = mid + 1;
          else hi = mid;
        }
        let accepted = 0;
        let lastSeconds = -Infinity;
        for (let k = lo; k < m; k++) {
          const secs = pattern.departures[i * m + k];
          if (accepted >= limit && secs > lastSeconds) break;
          const trip = tripInfo(t, pattern.trips[k], trips);
          if (!trip || !serviceRuns(t, trip.service, serviceDate, weekday, runsCache)) continue;
          add(trip, pattern.trips[k], code2, stopId, serviceDate, secs, shift);
          accepted += 1;
          lastSeconds = secs;
        }
      }
    }
  }
  found.sort(
    (a, b) => /** @type {number} */ (a._key) - /** @type {number} */ (b._key) || compareStrings(a.line, b.line) || compareStrings(a.trip, b.trip) || compareStrings(a.stop_id, b.stop_id),
  );
  return found.slice(0, limit).map((d) => {
    delete d._key;
    return omitNull(d);
  });
}

/**
 * `CityPack.timetable` (see there): the dates the timetable covers and where `date` lies, or null.
 * @param {TransitPart} t
 * @param {string} date `YYYY-MM-DD`
 * @returns {TimetableCoverage | null}
 */
export function coverage(t, date) {
  if (t.coverage === undefined) t.coverage = serviceRange(t.json);
  if (!t.coverage) return null;
  const day = Number(String(date).replaceAll('-', ''));
  const text = (/** @type {number} */ v) => `${String(Math.floor(v / 10000)).padStart(4, '0')}-${String(Math.floor(v / 100) % 100).padStart(2, '0')}-${String(v % 100).padStart(2, '0')}`;
  const { first, last } = t.coverage;
  return { first: text(first), last: text(last), date: text(day), position: day < first ? 'before' : day > last ? 'after' : 'within' };
}
