// CityPack web reader: journey planning (a port of CityPackKit's RoutingData, RaptorSearch, JourneyPlanner and
// JourneyID; same journeys, same ids). Used by citypack.js (`pack.journeys`, `pack.journey`); no dependencies.
//
// Times count seconds from the query date's 00:00 in the feed's time zone; service days from
// date − ⌊latest / 86 400⌋ to date + 1 run. See docs/WEB.md and Sources/CityPackKit/Raptor.swift for the model.

// The great-circle distance of the reader (a function declaration: usable although citypack.js imports this module).
import { distance } from './citypack.js';
import { zoneOffset } from './zone.js';

const INF = 1073741823; // Int32.max / 2, as RaptorSearch.infinity
const DETOUR = 1.3; // TransitWalking.detour

/** Journey defaults (JourneyOptions): 5 transfers, 1.25 m/s, 800 m per walk, 60 s to change at one stop. */
export const JOURNEY_DEFAULTS = Object.freeze({ maxTransfers: 5, walkSpeed: 1.25, maxWalkMetres: 800, minChangeSeconds: 60, wheelchair: false });

const walkMetres = (lat1, lon1, lat2, lon2) => Math.ceil(distance(lat1, lon1, lat2, lon2) * DETOUR);
const walkSeconds = (metres, speed) => Math.ceil(metres / speed);
/** Swift's `.rounded()` (half away from zero). */
const roundHalfAway = (x) => Math.sign(x) * Math.round(Math.abs(x));

function dayNumber(yyyymmdd) {
  const y = Math.floor(yyyymmdd / 10000);
  const m = Math.floor(yyyymmdd / 100) % 100;
  return Math.round(Date.UTC(y, m - 1, yyyymmdd % 100) / 86400000);
}
function dateOfDayNumber(n) {
  const t = new Date(n * 86400000);
  return t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
}
const weekdayOf = (n) => (((n + 3) % 7) + 7) % 7;

/**
 * The routing view of a loaded transit part (`t` from citypack.js's loadTransit): frequency trips expanded,
 * per-stop (pattern, position) lists, footpaths and services by dense index (RoutingData).
 */
export function buildRouting(t) {
  const j = t.json;
  const st = j.stops;
  const stopCount = st.id.length;
  const serviceIndex = new Map(j.services.id.map((id, i) => [id, i]));
  const tripIndex = new Map(j.trips.id.map((id, i) => [id, i]));
  const lineIndex = new Map(j.lines.id.map((id, i) => [id, i]));
  const tripService = j.trips.service.map((s) => serviceIndex.get(s));
  const exceptions = j.services.id.map(() => new Map());
  j.serviceDates.service.forEach((s, i) => exceptions[serviceIndex.get(s)]?.set(j.serviceDates.date[i], j.serviceDates.type[i]));
  const windows = new Map();
  j.frequencies.trip.forEach((trip, i) => {
    const k = tripIndex.get(trip);
    if (k === undefined) return;
    if (!windows.has(k)) windows.set(k, []);
    windows.get(k).push({ start: j.frequencies.start[i], end: j.frequencies.end[i], headway: j.frequencies.headway[i] });
  });
  // Stored patterns: stops and trips as dense indices, times stop-major (decodePatterns' layout).
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
  const lists = Array.from({ length: stopCount }, () => []);
  patterns.forEach((p, pi) => {
    p.stops.forEach((s, i) => {
      served[s] = 1;
      if (i < p.stops.length - 1) lists[s].push(pi, i);
    });
  });
  const footpaths = Array.from({ length: stopCount }, () => []);
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
  const byCode = new Map();
  for (const [code, rows] of t.byCode) byCode.set(code, rows);
  const children = new Map();
  st.parent.forEach((parent, i) => {
    if (parent == null) return;
    const p = t.stopIndex.get(parent);
    if (p === undefined) return;
    if (!children.has(p)) children.set(p, []);
    children.get(p).push(i);
  });
  // Wheelchair: stops marked 2 (a platform without information inherits its station's) and trips marked 2.
  const wheel = st.wheelchair ?? [];
  const blockedStop = st.id.map((_, i) => {
    const own = wheel[i] ?? 0;
    const parent = st.parent[i] == null ? undefined : t.stopIndex.get(st.parent[i]);
    return own === 2 || (own === 0 && parent !== undefined && (wheel[parent] ?? 0) === 2);
  });
  const blockedTrip = (j.trips.wheelchair ?? []).map((w) => w === 2);
  return {
    t, patterns, latest, served, lists, footpaths, sameStopChange, byCode, children, tripService, exceptions,
    lineIndex, stopCount, blockedStop, blockedTrip,
  };
}

function serviceRuns(r, service, day) {
  const date = dateOfDayNumber(day);
  const type = r.exceptions[service]?.get(date);
  if (type !== undefined) return type === 1;
  const sv = r.t.json.services;
  if (sv.start[service] == null || sv.end[service] == null || sv.days[service] == null) return false;
  return sv.start[service] <= date && date <= sv.end[service] && (sv.days[service] & (1 << weekdayOf(day))) !== 0;
}

function footpathSeconds(path, o) {
  if (path.seconds != null && path.seconds < 0) return null;
  if (!(o.maxWalkMetres > 0) || path.metres > o.maxWalkMetres) return null;
  if (path.seconds != null) return path.seconds;
  return walkSeconds(path.metres, o.walkSpeed);
}

/** The endpoint's stops with the walk to each (JourneyPlanner.access), sorted by stop index. */
function access(r, endpoint, o, isOrigin) {
  const best = new Map();
  const offer = (a) => {
    if (o.wheelchair && r.blockedStop[a.stop]) return;
    const known = best.get(a.stop);
    if (known && known.seconds <= a.seconds) return;
    best.set(a.stop, a);
  };
  const st = r.t.json.stops;
  if (endpoint.stop !== undefined) {
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
      const metres = walkMetres(endpoint.lat, endpoint.lon, st.lat[s], st.lon[s]);
      if (metres > o.maxWalkMetres) continue;
      offer({ stop: s, seconds: walkSeconds(metres, o.walkSpeed), metres, via: -1 });
    }
  }
  return [...best.values()].sort((a, b) => a.stop - b.stop);
}

/** One RAPTOR search (RaptorSearch): labels per round, reusable over runs of one date. */
class Search {
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
    const results = [];
    let bound = INF;
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

  destination(k, targets, bound) {
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
      if (pattern.latest + shift < this.runDeparture) continue;
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

function place(r, s) {
  const st = r.t.json.stops;
  return { stop_id: st.stopId[s], name: st.name[s] ?? null, lat: st.lat[s] ?? 0, lon: st.lon[s] ?? 0 };
}
function endpointPlace(r, endpoint, s) {
  return endpoint.stop === undefined ? { stop_id: null, name: null, lat: endpoint.lat, lon: endpoint.lon } : place(r, s);
}
const isCoordinate = (e) => e.stop === undefined;

/** The journey of a destination label (JourneyPlanner.build): legs with times as seconds of the query date. */
function build(search, arrival, origin, destination, departure) {
  const r = search.r;
  const j = r.t.json;
  const legs = [];
  let k = arrival.round;
  let stop = arrival.stop;
  let byFoot = arrival.byFoot;
  const end = byFoot ? search.footArrival[k][stop] : search.rideArrival[k][stop];
  if (arrival.egress.metres > 0 || isCoordinate(destination)) {
    legs.push({ mode: 'walk', from: place(r, stop), to: endpointPlace(r, destination, stop), departure: end,
      arrival: end + arrival.egress.seconds, metres: arrival.egress.metres });
  }
  let steps = 0;
  for (;;) {
    if (++steps > 4 * search.rounds + 4) return null;
    if (byFoot) {
      const from = search.footFrom[k][stop];
      if (k === 0 || from < 0) {
        const a = access(r, origin, search.o, true).find((x) => x.stop === stop);
        if (!a) return null;
        if (a.via !== stop) {
          const arrive = search.footArrival[0][stop];
          const fromPlace = a.via >= 0 ? place(r, a.via) : endpointPlace(r, origin, stop);
          legs.push({ mode: 'walk', from: fromPlace, to: place(r, stop), departure: arrive - a.seconds, arrival: arrive,
            metres: a.metres });
        }
        break;
      }
      const path = r.footpaths[from].find((x) => x.to === stop);
      const start = search.rideArrival[k][from];
      legs.push({ mode: 'walk', from: place(r, from), to: place(r, stop), departure: start,
        arrival: search.footArrival[k][stop], metres: path ? path.metres : null });
      stop = from;
      byFoot = false;
      continue;
    }
    const p = search.ridePattern[k][stop];
    if (p < 0) return null;
    const pattern = r.patterns[p];
    const m = pattern.trips.length;
    const dayIndex = search.rideDay[k][stop];
    const shift = search.dayOffsets[dayIndex] * 86400;
    const tk = search.rideTrip[k][stop];
    const trip = pattern.trips[tk];
    const line = r.lineIndex.get(j.trips.line[trip]);
    const b = search.rideBoard[k][stop];
    const a = search.rideAlight[k][stop];
    const calls = [];
    for (let i = b + 1; i < a; i++) {
      calls.push({ place: place(r, pattern.stops[i]), arrival: pattern.arrivals[i * m + tk] + shift,
        departure: pattern.departures[i * m + tk] + shift });
    }
    const l = j.lines;
    legs.push({
      mode: 'ride', from: place(r, pattern.stops[b]), to: place(r, pattern.stops[a]),
      departure: pattern.departures[b * m + tk] + shift, arrival: pattern.arrivals[a * m + tk] + shift,
      trip_id: j.trips.tripId[trip], route_id: l.routeId[line], line: l.shortName[line] ?? l.longName[line] ?? l.routeId[line],
      headsign: j.trips.headsign[trip] ?? null, serviceDay: search.day + search.dayOffsets[dayIndex], stops: calls,
    });
    stop = pattern.stops[b];
    k -= 1;
    byFoot = search.readyByFoot[k][stop] === 1;
    if (k === 0 && !byFoot) return null;
  }
  legs.reverse();
  if (legs.length === 0) return null;
  if (legs.length >= 2 && legs[0].mode === 'walk' && legs[1].mode === 'ride') {
    const span = legs[0].arrival - legs[0].departure;
    legs[0].arrival = legs[1].departure;
    legs[0].departure = legs[1].departure - span;
  }
  const rides = legs.filter((x) => x.mode === 'ride').length;
  const journey = { id: '', day: search.day, departure: rides === 0 ? departure : legs[0].departure,
    arrival: legs[legs.length - 1].arrival, transfers: Math.max(0, rides - 1), legs };
  if (rides === 0) {
    let clock = departure;
    for (const leg of legs) {
      const span = leg.arrival - leg.departure;
      leg.departure = clock;
      leg.arrival = clock + span;
      clock += span;
    }
    journey.arrival = clock;
  }
  journey.id = encodeId(journey, origin, destination);
  return journey;
}

// -- ids (JourneyID) -------------------------------------------------------------------------------------------

function legsText(journey) {
  const micro = (v) => roundHalfAway(v * 1e6);
  return journey.legs
    .map((leg) => {
      const from = leg.from.stop_id ?? `${micro(leg.from.lat)},${micro(leg.from.lon)}`;
      const to = leg.to.stop_id ?? `${micro(leg.to.lat)},${micro(leg.to.lon)}`;
      const times = `${leg.departure}|${leg.arrival}`;
      if (leg.mode === 'ride') return `R|${leg.trip_id}|${dateOfDayNumber(leg.serviceDay)}|${from}|${to}|${times}`;
      return `W|${from}|${to}|${times}`;
    })
    .join(';');
}

function fnv1a(text) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash;
}

function pushVarint(out, value) {
  let v = value >= 0 ? BigInt(value) * 2n : BigInt(-value) * 2n - 1n;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

function base64url(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function encodeId(journey, origin, destination) {
  const out = [1];
  for (const e of [origin, destination]) {
    if (e.stop !== undefined) {
      out.push(0);
      const utf8 = new TextEncoder().encode(e.stop);
      pushVarint(out, utf8.length);
      for (const b of utf8) out.push(b);
    } else {
      out.push(1);
      pushVarint(out, roundHalfAway(e.lat * 1e6));
      pushVarint(out, roundHalfAway(e.lon * 1e6));
    }
  }
  pushVarint(out, journey.day);
  pushVarint(out, journey.departure);
  pushVarint(out, journey.arrival - journey.departure);
  out.push(Math.min(255, journey.legs.filter((x) => x.mode === 'ride').length));
  const digest = fnv1a(legsText(journey));
  for (let shift = 40n; shift >= 0n; shift -= 8n) out.push(Number((digest >> shift) & 0xffn));
  return base64url(out);
}

function decodeId(id) {
  let text = String(id).replace(/-/g, '+').replace(/_/g, '/');
  while (text.length % 4) text += '=';
  let bytes;
  try {
    bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  if (bytes.length <= 8 || bytes[0] !== 1) return null;
  // Canonical only: base64's last character carries unused low bits, so several texts decode to the same bytes;
  // an id is accepted only as the library writes it (a changed character is never `found`).
  if (base64url(bytes) !== String(id)) return null;
  let at = 1;
  const varint = () => {
    let value = 0n;
    let shift = 0n;
    while (at < bytes.length && shift < 64n) {
      const b = bytes[at++];
      value |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0 && b === 0 && shift > 0n) return null; // over-long: another spelling of a shorter varint
      if ((b & 0x80) === 0) return Number(value & 1n ? -((value + 1n) >> 1n) : value >> 1n);
      shift += 7n;
    }
    return null;
  };
  const endpoint = () => {
    if (at >= bytes.length) return null;
    const tag = bytes[at++];
    if (tag === 0) {
      const count = varint();
      if (count == null || count < 0 || at + count > bytes.length) return null;
      let stop;
      try {
        stop = new TextDecoder('utf-8', { fatal: true }).decode(bytes.slice(at, at + count));
      } catch {
        return null;
      }
      at += count;
      return { stop };
    }
    if (tag !== 1) return null;
    const lat = varint();
    const lon = varint();
    if (lat == null || lon == null) return null;
    return { lat: lat / 1e6, lon: lon / 1e6 };
  };
  const origin = endpoint();
  const destination = endpoint();
  const day = varint();
  const departure = varint();
  const span = varint();
  if (!origin || !destination || day == null || departure == null || span == null || at + 7 !== bytes.length) return null;
  if (Math.abs(day) >= 3000000) return null;
  let digest = 0n;
  for (const b of bytes.slice(at + 1)) digest = (digest << 8n) | BigInt(b);
  return { origin, destination, day, departure, arrival: departure + span, rides: bytes[at], digest };
}

// -- planning (JourneyPlanner) ---------------------------------------------------------------------------------

function candidateTimes(r, search, origins, start, end) {
  const times = new Set([start]);
  for (const a of origins) {
    const list = r.lists[a.stop];
    for (let x = 0; x < list.length; x += 2) {
      const pattern = r.patterns[list[x]];
      const i = list[x + 1];
      const m = pattern.trips.length;
      search.dayOffsets.forEach((offset, dayIndex) => {
        const shift = offset * 86400;
        for (let k = 0; k < m; k++) {
          const t = pattern.departures[i * m + k] + shift - a.seconds;
          if (t < start || t > end || !search.runs[dayIndex][r.tripService[pattern.trips[k]]]) continue;
          times.add(t);
        }
      });
    }
  }
  return [...times].sort((a, b) => b - a);
}

function pareto(journeys) {
  const unique = new Map();
  for (const j of journeys) if (!unique.has(j.id)) unique.set(j.id, j);
  const all = [...unique.values()];
  const kept = all.filter(
    (j) =>
      !all.some(
        (o) =>
          o.id !== j.id && o.departure >= j.departure && o.arrival <= j.arrival && o.transfers <= j.transfers &&
          (o.departure > j.departure || o.arrival < j.arrival || o.transfers < j.transfers),
      ),
  );
  // Swift sorts ids by Unicode scalars; base64url ids are ASCII, so code-unit order is the same.
  return kept.sort((a, b) => a.departure - b.departure || a.arrival - b.arrival || a.transfers - b.transfers ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function rerun(r, origin, destination, day, seconds, rides, o) {
  const narrowed = { ...o, maxTransfers: Math.max(0, rides - 1) };
  const origins = access(r, origin, narrowed, true);
  const targets = access(r, destination, narrowed, false);
  const search = new Search(r, day, narrowed);
  for (const arrival of search.run(seconds, origins, targets)) {
    if (arrival.round === rides) return build(search, arrival, origin, destination, seconds);
  }
  return null;
}

function canonical(journey, r, origin, destination, day, o) {
  let current = journey;
  const rides = current.legs.filter((x) => x.mode === 'ride').length;
  if (rides === 0) return current;
  for (let n = 0; n < 3; n++) {
    const t = current.departure;
    const again = rerun(r, origin, destination, day, t, rides, o);
    if (!again) break;
    current = again;
    if (again.departure === t) break;
  }
  return current;
}

/**
 * Plans journeys (JourneyPlanner.plan). `mode`: `{ kind: 'departAt' }`, `{ kind: 'range', window }` or
 * `{ kind: 'arriveBy', window }` (window in seconds). Returns journeys with times in seconds of `day`.
 */
export function plan(r, origin, destination, day, seconds, mode, o) {
  const origins = access(r, origin, o, true);
  const targets = access(r, destination, o, false);
  if (origins.length === 0 || targets.length === 0) return [];
  const search = new Search(r, day, o);
  let found = [];
  if (mode.kind === 'departAt') {
    for (const arrival of search.run(seconds, origins, targets)) {
      const journey = build(search, arrival, origin, destination, seconds);
      if (journey) found.push(canonical(journey, r, origin, destination, day, o));
    }
  } else {
    const start = mode.kind === 'arriveBy' ? seconds - mode.window : seconds;
    const end = start + mode.window;
    for (const t of candidateTimes(r, search, origins, start, end)) {
      for (const arrival of search.run(t, origins, targets)) {
        const journey = build(search, arrival, origin, destination, t);
        if (!journey) continue;
        if (journey.departure !== t && !journey.legs.every((x) => x.mode === 'walk')) continue;
        found.push(journey);
      }
    }
    if (mode.kind === 'arriveBy') {
      found = found.filter((j) => j.arrival <= seconds);
      const all = found;
      found = all.filter(
        (j) =>
          !all.some(
            (o2) =>
              o2.transfers <= j.transfers && o2.departure >= j.departure && o2.id !== j.id &&
              (o2.transfers < j.transfers || o2.departure > j.departure || o2.arrival < j.arrival),
          ),
      );
    }
  }
  return pareto(found);
}

/** Resolves an id (TransitReader.journey(id:)): `{ status: 'found', journey }`, `{ status: 'gone', nearest }`
 * or `{ status: 'invalid' }`. */
export function resolve(r, id, o) {
  const d = decodeId(id);
  if (!d) return { status: 'invalid' };
  const again = rerun(r, d.origin, d.destination, d.day, d.departure, d.rides, o);
  // Found only when the journey found again spells this very id: a changed departure or span that leads to the
  // same legs is another text, not this journey's id.
  if (again && (fnv1a(legsText(again)) & 0xffffffffffffn) === d.digest && encodeId(again, d.origin, d.destination) === String(id)) {
    return { status: 'found', journey: again };
  }
  if (d.rides === 0) {
    const walk = plan(r, d.origin, d.destination, d.day, d.departure, { kind: 'departAt' }, o).find((j) => j.id === id);
    if (walk) return { status: 'found', journey: walk };
  }
  const around = plan(r, d.origin, d.destination, d.day, d.departure - 3600, { kind: 'range', window: 7200 }, o);
  let nearest = null;
  for (const j of around) {
    if (!nearest) {
      nearest = j;
      continue;
    }
    const a = [Math.abs(j.departure - d.departure), j.transfers, j.arrival];
    const b = [Math.abs(nearest.departure - d.departure), nearest.transfers, nearest.arrival];
    if (a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))) nearest = j;
  }
  return { status: 'gone', nearest };
}

// -- output (as `citypack query --journey --format json`) ---------------------------------------------------------

/** ISO 8601 local date-time of `seconds` from `day`'s 00:00 with the zone's offset (TransitReader.iso8601). */
export function iso8601(day, seconds, timeZone) {
  const days = Math.floor(seconds / 86400);
  const rest = seconds - days * 86400;
  const two = (n) => String(n).padStart(2, '0');
  const date = dateOfDayNumber(day + days);
  const ds = String(date).padStart(8, '0');
  const text = `${ds.slice(0, 4)}-${ds.slice(4, 6)}-${ds.slice(6, 8)}T${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}`;
  if (!timeZone) return text;
  const wall = ((day + days) * 86400 + rest) * 1000;
  const first = zoneOffset(timeZone, wall);
  if (first == null) return text;
  const offset = zoneOffset(timeZone, wall - first * 1000);
  const minutes = Math.floor(Math.abs(offset) / 60);
  return `${text}${offset < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}

/** A journey as the CLI's JSON prints it. */
export function journeyJSON(journey, timeZone) {
  const iso = (s) => iso8601(journey.day, s, timeZone);
  const placeJSON = (p) => {
    const out = { lat: p.lat, lon: p.lon };
    if (p.name != null) out.name = p.name;
    if (p.stop_id != null) out.stop_id = p.stop_id;
    return out;
  };
  return {
    arrival: iso(journey.arrival),
    departure: iso(journey.departure),
    id: journey.id,
    legs: journey.legs.map((leg) => {
      const out = { arrival: iso(leg.arrival), departure: iso(leg.departure), from: placeJSON(leg.from), mode: leg.mode,
        to: placeJSON(leg.to) };
      if (leg.mode === 'walk') out.metres = leg.metres ?? 0;
      else {
        if (leg.headsign != null) out.headsign = leg.headsign;
        out.line = leg.line;
        out.route_id = leg.route_id;
        out.stops = leg.stops.map((c) => {
          const call = { arrival: iso(c.arrival), departure: iso(c.departure) };
          if (c.place.name != null) call.name = c.place.name;
          if (c.place.stop_id != null) call.stop_id = c.place.stop_id;
          return call;
        });
        out.trip_id = leg.trip_id;
      }
      return out;
    }),
    transfers: journey.transfers,
  };
}

/** `stop_id` or `lat,lon` → an endpoint (JourneyEndpoint). */
export function endpoint(text) {
  const parts = String(text).split(',');
  if (parts.length === 2) {
    const lat = Number(parts[0].trim());
    const lon = Number(parts[1].trim());
    if (parts[0].trim() !== '' && parts[1].trim() !== '' && Number.isFinite(lat) && Number.isFinite(lon) &&
      Math.abs(lat) <= 90 && Math.abs(lon) <= 180) return { lat, lon };
  }
  return { stop: String(text) };
}

export { dayNumber as journeyDayNumber };
