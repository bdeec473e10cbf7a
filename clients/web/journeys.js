// CityPack web reader: journey planning (a port of CityPackKit's JourneyPlanner and TransitReader.journeys; same
// journeys, same ids), over RAPTOR (raptor.js) with ids of journey-id.js. Used by pack.js (`pack.journeys`,
// `pack.journey`).

import { dayNumber, localDayAndSeconds } from './dates.js';
import { decodeId, encodeId, fnv1a, legsText } from './journey-id.js';
import { journeyJSON } from './journey-json.js';
import { JOURNEY_DEFAULTS, Search, access, buildRouting } from './raptor.js';

/** @typedef {import('./raptor.js').Routing} Routing */
/** @typedef {import('./raptor.js').Endpoint} Endpoint */
/** @typedef {import('./raptor.js').PlanOptions} PlanOptions */
/** @typedef {import('./raptor.js').Access} Access */
/** @typedef {import('./raptor.js').Arrival} Arrival */
/** @typedef {import('./timetable.js').TransitPart} TransitPart */
/** @typedef {{stop_id: string | null, name: string | null, lat: number, lon: number}} LegPlace */
/**
 * A leg as planned, with times as seconds of the query date.
 * @typedef {object} PlannedLeg
 * @property {'walk'|'ride'} mode
 * @property {LegPlace} from
 * @property {LegPlace} to
 * @property {number} departure
 * @property {number} arrival
 * @property {number | null} [metres]
 * @property {string} [trip_id]
 * @property {string} [route_id]
 * @property {string} [line]
 * @property {string | null} [headsign]
 * @property {number} [serviceDay]
 * @property {{place: LegPlace, arrival: number, departure: number}[]} [stops]
 */
/** @typedef {{id: string, day: number, departure: number, arrival: number, transfers: number, legs: PlannedLeg[]}} PlannedJourney */
/** @typedef {{kind: 'departAt'} | {kind: 'range', window: number} | {kind: 'arriveBy', window: number}} PlanMode */
/** @typedef {import('./journey-json.js').Journey} Journey */
/** @typedef {import('./journey-json.js').JourneyOptions} JourneyOptions */
/** @typedef {import('./journey-json.js').JourneyLookup} JourneyLookup */
/** @typedef {import('./journey-json.js').JourneyPlace} JourneyPlace */
/** @typedef {import('./journey-json.js').JourneyLeg} JourneyLeg */

/**
 * @param {Routing} r
 * @param {number} s a stop index
 * @returns {LegPlace}
 */
function place(r, s) {
  const st = r.t.json.stops;
  return { stop_id: st.stopId[s], name: st.name[s] ?? null, lat: st.lat[s] ?? 0, lon: st.lon[s] ?? 0 };
}
/**
 * @param {Routing} r
 * @param {Endpoint} endpoint
 * @param {number} s
 * @returns {LegPlace}
 */
function endpointPlace(r, endpoint, s) {
  return endpoint.stop === undefined ? { stop_id: null, name: null, lat: endpoint.lat, lon: endpoint.lon } : place(r, s);
}
const isCoordinate = (/** @type {Endpoint} */ e) => e.stop === undefined;

/**
 * The journey of a destination label (JourneyPlanner.build): legs with times as seconds of the query date.
 * @param {import('./raptor.js').Search} search
 * @param {Arrival} arrival
 * @param {Endpoint} origin
 * @param {Endpoint} destination
 * @param {number} departure
 * @returns {PlannedJourney | null}
 */
function build(search, arrival, origin, destination, departure) {
  const r = search.r;
  const j = r.t.json;
  /** @type {PlannedLeg[]} */
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
    /** @type {{place: LegPlace, arrival: number, departure: number}[]} */
    const calls = [];
    for (let i = b + 1; i < a; i++) {
      calls.push({ place: place(r, pattern.stops[i]), arrival: pattern.arrivals[i * m + tk] + shift,
        departure: pattern.departures[i * m + tk] + shift });
    }
    const l = j.lines;
    legs.push({
      mode: 'ride', from: place(r, pattern.stops[b]), to: place(r, pattern.stops[a]),
      departure: pattern.departures[b * m + tk] + shift, arrival: pattern.arrivals[a * m + tk] + shift,
      trip_id: j.trips.tripId[trip], route_id: l.routeId[/** @type {number} */ (line)], line: l.shortName[/** @type {number} */ (line)] ?? l.longName[/** @type {number} */ (line)] ?? l.routeId[/** @type {number} */ (line)],
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
  /** @type {PlannedJourney} */
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



// -- planning (JourneyPlanner) ---------------------------------------------------------------------------------

/**
 * @param {Routing} r
 * @param {import('./raptor.js').Search} search
 * @param {Access[]} origins
 * @param {number} start
 * @param {number} end
 * @returns {number[]}
 */
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

/**
 * @param {PlannedJourney[]} journeys
 * @returns {PlannedJourney[]}
 */
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

/**
 * @param {Routing} r
 * @param {Endpoint} origin
 * @param {Endpoint} destination
 * @param {number} day
 * @param {number} seconds
 * @param {number} rides
 * @param {PlanOptions} o
 * @returns {PlannedJourney | null}
 */
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

/**
 * @param {PlannedJourney} journey
 * @param {Routing} r
 * @param {Endpoint} origin
 * @param {Endpoint} destination
 * @param {number} day
 * @param {PlanOptions} o
 * @returns {PlannedJourney}
 */
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
 * @param {Routing} r
 * @param {Endpoint} origin
 * @param {Endpoint} destination
 * @param {number} day a day number
 * @param {number} seconds
 * @param {PlanMode} mode
 * @param {PlanOptions} o
 * @returns {PlannedJourney[]}
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
 * @param {Routing} r
 * @param {string} id
 * @param {PlanOptions} o
 * @returns {{status: 'found', journey: PlannedJourney} | {status: 'gone', nearest: PlannedJourney | null} | {status: 'invalid'}}
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

/**
 * `stop_id` or `lat,lon` → an endpoint (JourneyEndpoint).
 * @param {string} text
 * @returns {Endpoint}
 */
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


// -- the pack's queries ------------------------------------------------------------------------------------------

/**
 * `CityPack.journeys` over a loaded transit part `t` (see there).
 * @param {TransitPart} t
 * @param {string} from
 * @param {string} to
 * @param {string} date
 * @param {string|number} time
 * @param {JourneyOptions} options
 * @returns {Journey[]}
 */
export function journeysBetween(t, from, to, date, time, options) {
  const { r, o, day, seconds } = journeyQuery(t, date, time, options);
  /** @type {PlanMode} */
  const mode = options.arriveBy
    ? { kind: 'arriveBy', window: (options.window ?? 120) * 60 }
    : options.window != null
      ? { kind: 'range', window: options.window * 60 }
      : { kind: 'departAt' };
  const zone = t.json.timezones?.[0] ?? '';
  return plan(r, endpoint(from), endpoint(to), day, seconds, mode, o).map((j) => journeyJSON(j, zone));
}

/**
 * `CityPack.journey` over a loaded transit part `t` (see there).
 * @param {TransitPart} t
 * @param {string} id
 * @param {JourneyOptions} options
 * @returns {JourneyLookup}
 */
export function journeyById(t, id, options) {
  const { r, o } = journeyQuery(t, '1970-01-01', 0, options);
  const zone = t.json.timezones?.[0] ?? '';
  const found = resolve(r, id, o);
  if (found.status === 'found') return { status: 'found', journey: journeyJSON(found.journey, zone) };
  if (found.status === 'gone') return { status: 'gone', nearest: found.nearest ? journeyJSON(found.nearest, zone) : null };
  return found;
}

/**
 * The routing view (built once per part), the options with their defaults, the day number and the seconds of a query.
 * @param {TransitPart} t
 * @param {string} date
 * @param {string|number} time
 * @param {JourneyOptions} options
 * @returns {{r: Routing, o: PlanOptions, day: number, seconds: number}}
 */
function journeyQuery(t, date, time, options) {
  const { day, seconds } = localDayAndSeconds(date, time);
  if (!t._routing) t._routing = buildRouting(t);
  const o = {
    maxTransfers: options.maxTransfers ?? JOURNEY_DEFAULTS.maxTransfers,
    walkSpeed: options.walkSpeed ?? JOURNEY_DEFAULTS.walkSpeed,
    maxWalkMetres: options.maxWalk ?? JOURNEY_DEFAULTS.maxWalkMetres,
    minChangeSeconds: options.minChange ?? JOURNEY_DEFAULTS.minChangeSeconds,
    wheelchair: options.wheelchair ?? JOURNEY_DEFAULTS.wheelchair,
  };
  return { r: t._routing, o, day: dayNumber(day), seconds };
}
