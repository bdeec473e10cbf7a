// RAPTOR over the transit part (a port of CityPackKit's RoutingData and RaptorSearch): the routing view of a
// loaded transit part, the walks to and from an endpoint's stops, and one search's rounds of labels.
//
// Times count seconds from the query date's 00:00 in the feed's time zone; service days from
// date − ⌊latest / 86 400⌋ to date + 1 run. See docs/WEB.md and Sources/CityPackKit/Raptor.swift for the model.

import { dateOfDayNumber, weekdayOf } from './dates.js';
import { DETOUR, INF, JOURNEY_DEFAULTS } from './constants.js';
import { distance } from './proximity.js';

/** @typedef {import('./timetable.js').TransitPart} TransitPart */
/**
 * A journey's end: a GTFS stop_id, or a position (JourneyEndpoint).
 * @typedef {{stop: string, lat?: undefined, lon?: undefined} | {stop?: undefined, lat: number, lon: number}} Endpoint
 */
/** @typedef {{maxTransfers: number, walkSpeed: number, maxWalkMetres: number, minChangeSeconds: number, wheelchair: boolean}} PlanOptions */
/** @typedef {{to: number, metres: number, seconds: number | null}} Footpath A footpath to stop `to` (seconds: given by the feed, else walked). */
/** @typedef {{stop: number, seconds: number, metres: number, via: number}} Access A stop of an endpoint and the walk to it (via: the base stop, -1 from a position). */
/** @typedef {{stops: number[], trips: number[], arrivals: Int32Array, departures: Int32Array, latest: number}} RoutingPattern */
/** @typedef {{round: number, stop: number, byFoot: boolean, time: number, egress: Access}} Arrival A destination label. */
/**
 * The routing view of a transit part (RoutingData): stops, trips and services by dense index.
 * @typedef {object} Routing
 * @property {TransitPart} t
 * @property {RoutingPattern[]} patterns
 * @property {number} latest
 * @property {Uint8Array} served
 * @property {number[][]} lists (pattern, position) pairs per stop, flat
 * @property {Footpath[][]} footpaths
 * @property {(number|null)[]} sameStopChange
 * @property {Map<string, number[]>} byCode
 * @property {Map<number, number[]>} children
 * @property {number[]} tripService
 * @property {Map<number, number>[]} exceptions per service: yyyymmdd → 1 added, 2 removed
 * @property {Map<number, number>} lineIndex
 * @property {number} stopCount
 * @property {boolean[]} blockedStop
 * @property {boolean[]} blockedTrip
 */

// INF (RaptorSearch.infinity), DETOUR (TransitWalking.detour) and the journey defaults (JourneyOptions) are
// generated from Swift's ReaderDefaults and TransitWalking into constants.js.
export { JOURNEY_DEFAULTS };

/** @type {(lat1: number, lon1: number, lat2: number, lon2: number) => number} */
const walkMetres = (lat1, lon1, lat2, lon2) => Math.ceil(distance(lat1, lon1, lat2, lon2) * DETOUR);
/** @type {(metres: number, speed: number) => number} */
const walkSeconds = (metres, speed) => Math.ceil(metres / speed);
/** Swift's `.rounded()` (half away from zero). */
export const roundHalfAway = (/** @type {number} */ x) => Math.sign(x) * Math.round(Math.abs(x));

/**
 * The routing view of a loaded transit part (`t` from citypack.js's loadTransit): frequency trips expanded,
 * per-stop (pattern, position) lists, footpaths and services by dense index (RoutingData).
 * @param {TransitPart} t
 * @returns {Routing}
 */
export function buildRouting(t) {
  const j = t.json;
  const st = j.stops;
  const stopCount = st.id.length;
  const serviceIndex = new Map(j.services.id.map((id, i) => [id, i]));
  const tripIndex = new Map(j.trips.id.map((id, i) => [id, i]));
  const lineIndex = new Map(j.lines.id.map((id, i) => [id, i]));
  const tripService = /** @type {number[]} */ (j.trips.service.map((s) => serviceIndex.get(s)));
  const exceptions = j.services.id.map(() => /** @type {Map<number, number>} */ (new Map()));
  j.serviceDates.service.forEach((s, i) => exceptions[/** @type {number} */ (serviceIndex.get(s))]?.set(j.serviceDates.date[i], j.serviceDates.type[i]));
  /** @type {Map<number, {start: number, end: number, headway: number}[]>} */
  const windows = new Map();
  j.frequencies.trip.forEach((trip, i) => {
    const k = tripIndex.get(trip);
    if (k === undefined) return;
    if (!windows.has(k)) windows.set(k, []);
    /** @type {{start: number, end: number, headway: number}[]} */ (windows.get(k)).push({ start: j.frequencies.start[i], end: j.frequencies.end[i], headway: j.frequencies.headway[i] });
  });
  // Stored patterns: stops and trips as dense indices, times stop-major (decodePatterns' layout).
  /** @type {RoutingPattern[]} */
  const patterns = [];
  let latest = 0;
  for (const pattern of t.timetable) {
    const n = pattern.stops.length;
    const stops = pattern.stops.map((id) => t.stopIndex.get(id) ?? -1);
    const trips = pattern.trips.map((id) => tripIndex.get(id) ?? -1);
    if (n < 2 || stops.includes(-1) || trips.includes(-1)) continue;
    let arrivals = pattern.arrivals;
    let departures = pattern.departures;
    let tripList = trips;
    if (pattern.frequency) {
      /** @type {Set<number>} */
      const set = new Set();
      for (const w of windows.get(trips[0]) ?? []) {
        if (!(w.headway > 0 && w.end > w.start)) continue;
        for (let x = w.start; x < w.end; x += w.headway) set.add(x);
      }
      const starts = [...set].sort((a, b) => a - b);
      const m = starts.length;
      if (m === 0) continue;
      arrivals = new Int32Array(n * m);
      departures = new Int32Array(n * m);
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < m; k++) {
          arrivals[i * m + k] = pattern.arrivals[i] + starts[k];
          departures[i * m + k] = pattern.departures[i] + starts[k];
        }
      }
      tripList = new Array(m).fill(trips[0]);
    }
    let top = 0;
    for (let x = 0; x < arrivals.length; x++) top = Math.max(top, arrivals[x], departures[x]);
    latest = Math.max(latest, top);
    patterns.push({ stops, trips: tripList, arrivals, departures, latest: top });
  }
  const served = new Uint8Array(stopCount);
  const lists = Array.from({ length: stopCount }, () => /** @type {number[]} */ ([]));
  patterns.forEach((p, pi) => {
    p.stops.forEach((s, i) => {
      served[s] = 1;
      if (i < p.stops.length - 1) lists[s].push(pi, i);
    });
  });
  const footpaths = Array.from({ length: stopCount }, () => /** @type {Footpath[]} */ ([]));
  const sameStopChange = new Array(stopCount).fill(null);
  const fp = j.footpaths;
  for (let i = 0; i < fp.from.length; i++) {
    const from = t.stopIndex.get(fp.from[i]);
    const to = t.stopIndex.get(fp.to[i]);
    if (from === undefined || to === undefined) continue;
    if (from === to) sameStopChange[from] = fp.seconds[i];
    else footpaths[from].push({ to, metres: fp.metres[i], seconds: fp.seconds[i] });
  }
  // Stop rows by stop_id in (feed, id) order, and children in id order (Timetable).
  /** @type {Map<string, number[]>} */
  const byCode = new Map();
  for (const [code, rows] of t.byCode) byCode.set(code, rows);
  /** @type {Map<number, number[]>} */
  const children = new Map();
  st.parent.forEach((parent, i) => {
    if (parent == null) return;
    const p = t.stopIndex.get(parent);
    if (p === undefined) return;
    if (!children.has(p)) children.set(p, []);
    /** @type {number[]} */ (children.get(p)).push(i);
  });
  // Wheelchair: stops marked 2 (a platform without information inherits its station's) and trips marked 2.
  const wheel = st.wheelchair ?? [];
  const blockedStop = st.id.map((_, i) => {
    const own = wheel[i] ?? 0;
    const parent = st.parent[i] == null ? undefined : t.stopIndex.get(/** @type {number} */ (st.parent[i]));
    return own === 2 || (own === 0 && parent !== undefined && (wheel[parent] ?? 0) === 2);
  });
  const blockedTrip = (j.trips.wheelchair ?? []).map((w) => w === 2);
  return {
    t, patterns, latest, served, lists, footpaths, sameStopChange, byCode, children, tripService, exceptions,
    lineIndex, stopCount, blockedStop, blockedTrip,
  };
}

/**
 * @param {Routing} r
 * @param {number} service
 * @param {number} day a day number
 */
function serviceRuns(r, service, day) {
  const date = dateOfDayNumber(day);
  const type = r.exceptions[service]?.get(date);
  if (type !== undefined) return type === 1;
  const sv = r.t.json.services;
  if (sv.start[service] == null || sv.end[service] == null || sv.days[service] == null) return false;
  return /** @type {number} */ (sv.start[service]) <= date && date <= /** @type {number} */ (sv.end[service]) && (/** @type {number} */ (sv.days[service]) & (1 << weekdayOf(day))) !== 0;
}

/**
 * @param {Footpath} path
 * @param {PlanOptions} o
 * @returns {number | null}
 */
function footpathSeconds(path, o) {
  if (path.seconds != null && path.seconds < 0) return null;
  if (!(o.maxWalkMetres > 0) || path.metres > o.maxWalkMetres) return null;
  if (path.seconds != null) return path.seconds;
  return walkSeconds(path.metres, o.walkSpeed);
}

/**
 * The endpoint's stops with the walk to each (JourneyPlanner.access), sorted by stop index.
 * @param {Routing} r
 * @param {Endpoint} endpoint
 * @param {PlanOptions} o
 * @param {boolean} isOrigin
 * @returns {Access[]}
 */
export function access(r, endpoint, o, isOrigin) {
  /** @type {Map<number, Access>} */
  const best = new Map();
  const offer = (/** @type {Access} */ a) => {
    if (o.wheelchair && r.blockedStop[a.stop]) return;
    const known = best.get(a.stop);
    if (known && known.seconds <= a.seconds) return;
    best.set(a.stop, a);
  };
  const st = r.t.json.stops;
  if (endpoint.stop !== undefined) {
    /** @type {number[]} */
    const bases = [];
    for (const row of r.byCode.get(endpoint.stop) ?? []) {
      bases.push(row);
      for (const c of r.children.get(row) ?? []) bases.push(c);
    }
    for (const b of bases) offer({ stop: b, seconds: 0, metres: 0, via: b });
    if (isOrigin) {
      for (const b of bases) {
        for (const path of r.footpaths[b]) {
          const seconds = footpathSeconds(path, o);
          if (seconds == null) continue;
          offer({ stop: path.to, seconds, metres: path.metres, via: b });
        }
      }
    }
  } else {
    if (!(o.maxWalkMetres > 0)) return [];
    for (let s = 0; s < r.stopCount; s++) {
      if (!r.served[s] || st.lat[s] == null || st.lon[s] == null) continue;
      const metres = walkMetres(endpoint.lat, endpoint.lon, /** @type {number} */ (st.lat[s]), /** @type {number} */ (st.lon[s]));
      if (metres > o.maxWalkMetres) continue;
      offer({ stop: s, seconds: walkSeconds(metres, o.walkSpeed), metres, via: -1 });
    }
  }
  return [...best.values()].sort((a, b) => a.stop - b.stop);
}

/** One RAPTOR search (RaptorSearch): labels per round, reusable over runs of one date. */
export class Search {
  /**
   * @param {Routing} r
   * @param {number} day a day number
   * @param {PlanOptions} o
   */
  constructor(r, day, o) {
    this.r = r;
    this.o = o;
    this.day = day;
    const back = Math.floor(r.latest / 86400);
    this.dayOffsets = [];
    for (let d = -back; d <= 1; d++) this.dayOffsets.push(d);
    this.runs = this.dayOffsets.map((d) => r.exceptions.map((_, s) => serviceRuns(r, s, day + d)));
    this.rounds = Math.max(0, o.maxTransfers) + 2;
    const S = r.stopCount;
    /** @type {<T>(C: new (length: number) => T) => T[]} */
    const make = (C) => Array.from({ length: this.rounds }, () => new C(S));
    this.rideArrival = make(Int32Array);
    this.footArrival = make(Int32Array);
    this.footFrom = make(Int32Array);
    this.ready = make(Int32Array);
    this.readyByFoot = make(Uint8Array);
    this.ridePattern = make(Int32Array);
    this.rideDay = make(Int32Array);
    this.rideTrip = make(Int32Array);
    this.rideBoard = make(Int32Array);
    this.rideAlight = make(Int32Array);
    this.bestRide = new Int32Array(S);
    this.bestReady = new Int32Array(S);
    this.firstPosition = new Int32Array(r.patterns.length).fill(2147483647);
  }

  /**
   * @param {number} departure seconds of the day
   * @param {Access[]} origins
   * @param {Access[]} targets
   * @returns {Arrival[]} one per round that improved on the last
   */
  run(departure, origins, targets) {
    const r = this.r;
    const S = r.stopCount;
    this.runDeparture = departure;
    for (let k = 0; k < this.rounds; k++) {
      this.rideArrival[k].fill(INF);
      this.footArrival[k].fill(INF);
      this.footFrom[k].fill(-1);
      this.ready[k].fill(INF);
      this.readyByFoot[k].fill(0);
      this.ridePattern[k].fill(-1);
    }
    this.bestRide.fill(INF);
    this.bestReady.fill(INF);
    /** @type {Arrival[]} */
    const results = [];
    let bound = INF;
    /** @type {number[]} */
    let marked = [];
    for (const a of origins) {
      const s = a.stop;
      const t = departure + a.seconds;
      if (t < this.footArrival[0][s]) {
        this.footArrival[0][s] = t;
        this.footFrom[0][s] = -1;
        if (t < this.bestReady[s]) {
          if (this.ready[0][s] === INF) marked.push(s);
          this.ready[0][s] = t;
          this.readyByFoot[0][s] = 1;
          this.bestReady[s] = t;
        }
      }
    }
    let arrival = this.destination(0, targets, bound);
    if (arrival) {
      results.push(arrival);
      bound = arrival.time;
    }
    for (let k = 1; k < this.rounds; k++) {
      if (marked.length === 0) break;
      /** @type {number[]} */
      const touched = [];
      for (const s of marked) {
        const list = r.lists[s];
        for (let x = 0; x < list.length; x += 2) {
          const p = list[x];
          if (this.firstPosition[p] === 2147483647) touched.push(p);
          this.firstPosition[p] = Math.min(this.firstPosition[p], list[x + 1]);
        }
      }
      touched.sort((a, b) => a - b);
      /** @type {number[]} */
      const improved = [];
      for (const p of touched) {
        const from = this.firstPosition[p];
        this.firstPosition[p] = 2147483647;
        this.scan(p, from, k, bound, improved);
      }
      improved.sort((a, b) => a - b);
      marked = [];
      const rideK = this.rideArrival[k];
      for (const s of improved) {
        const a = rideK[s];
        const given = r.sameStopChange[s];
        const change = given == null ? this.o.minChangeSeconds : given < 0 ? null : given;
        if (change != null && a + change < this.bestReady[s]) {
          if (this.ready[k][s] === INF) marked.push(s);
          this.ready[k][s] = a + change;
          this.readyByFoot[k][s] = 0;
          this.bestReady[s] = a + change;
        }
        for (const path of r.footpaths[s]) {
          const seconds = footpathSeconds(path, this.o);
          if (seconds == null) continue;
          const t = path.to;
          const w = a + seconds;
          if (!(w < this.footArrival[k][t])) continue;
          this.footArrival[k][t] = w;
          this.footFrom[k][t] = s;
          if (w < this.bestReady[t]) {
            if (this.ready[k][t] === INF) marked.push(t);
            this.ready[k][t] = w;
            this.readyByFoot[k][t] = 1;
            this.bestReady[t] = w;
          }
        }
      }
      arrival = this.destination(k, targets, bound);
      if (arrival) {
        results.push(arrival);
        bound = arrival.time;
      }
    }
    return results;
  }

  /**
   * @param {number} k
   * @param {Access[]} targets
   * @param {number} bound
   * @returns {Arrival | null}
   */
  destination(k, targets, bound) {
    /** @type {Arrival | null} */
    let best = null;
    let bestTime = bound;
    for (const byFoot of [false, true]) {
      const arr = byFoot ? this.footArrival[k] : this.rideArrival[k];
      for (const target of targets) {
        const base = arr[target.stop];
        if (!(base < INF)) continue;
        const t = base + target.seconds;
        if (t < bestTime) {
          bestTime = t;
          best = { round: k, stop: target.stop, byFoot, time: t, egress: target };
        }
      }
    }
    return best;
  }

  /**
   * @param {number} p
   * @param {number} from
   * @param {number} k
   * @param {number} bound
   * @param {number[]} improved
   */
  scan(p, from, k, bound, improved) {
    const pattern = this.r.patterns[p];
    const n = pattern.stops.length;
    const m = pattern.trips.length;
    const { arrivals, departures, stops, trips } = pattern;
    const tripService = this.r.tripService;
    const ready = this.ready[k - 1];
    const rideK = this.rideArrival[k];
    const wheelchair = !!this.o.wheelchair;
    for (let dayIndex = 0; dayIndex < this.dayOffsets.length; dayIndex++) {
      const shift = this.dayOffsets[dayIndex] * 86400;
      if (pattern.latest + shift < /** @type {number} */ (this.runDeparture)) continue;
      const running = this.runs[dayIndex];
      let trip = -1;
      let board = -1;
      for (let i = from; i < n; i++) {
        const s = stops[i];
        const blocked = wheelchair && this.r.blockedStop[s];
        if (trip >= 0 && !blocked) {
          const a = arrivals[i * m + trip] + shift;
          if (a < this.bestRide[s] && a < bound) {
            if (rideK[s] === INF) improved.push(s);
            this.bestRide[s] = a;
            rideK[s] = a;
            this.ridePattern[k][s] = p;
            this.rideDay[k][s] = dayIndex;
            this.rideTrip[k][s] = trip;
            this.rideBoard[k][s] = board;
            this.rideAlight[k][s] = i;
          }
        }
        if (i >= n - 1) break;
        const rr = ready[s];
        if (!(rr < INF) || blocked) continue;
        if (trip >= 0 && rr > departures[i * m + trip] + shift) continue;
        let lo = 0;
        let hi = trip >= 0 ? trip + 1 : m;
        const column = i * m;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (departures[column + mid] + shift < rr) lo = mid + 1;
          else hi = mid;
        }
        const limit = trip >= 0 ? trip : m;
        for (let x = lo; x < limit; x++) {
          if (running[tripService[trips[x]]] && !(wheelchair && this.r.blockedTrip[trips[x]])) {
            trip = x;
            board = i;
            break;
          }
        }
      }
    }
  }
}
