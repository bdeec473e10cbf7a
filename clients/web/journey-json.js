// Journeys as `citypack query --journey --format json` prints them (TransitReader's output): ISO 8601 local
// date-times with the feed's UTC offset, legs and calls; the public journey types.

import { dateOfDayNumber } from './dates.js';
import { zoneOffset } from './zone.js';

/** @typedef {import('./journeys.js').PlannedJourney} PlannedJourney */
/** @typedef {import('./journeys.js').LegPlace} LegPlace */
/** @typedef {{stop_id?: string, name?: string, lat: number, lon: number}} JourneyPlace A place to go from or to in a journey leg. */
/**
 * One leg of a journey: a walk, or a ride on one trip.
 * @typedef {object} JourneyLeg
 * @property {'walk'|'ride'} mode
 * @property {JourneyPlace} from
 * @property {JourneyPlace} to
 * @property {string} departure ISO 8601 local date-time with the feed's UTC offset.
 * @property {string} arrival
 * @property {string} [trip_id]
 * @property {string} [route_id]
 * @property {string} [line]
 * @property {string} [headsign]
 * @property {number} [metres] Walk legs: metres walked.
 * @property {Array<{stop_id?: string, name?: string, arrival?: string, departure?: string}>} [stops] Ride legs: the calls between boarding and alighting.
 */
/** @typedef {{id: string, departure: string, arrival: string, transfers: number, legs: JourneyLeg[]}} Journey */
/**
 * Options of `journeys` and `journey`: window in minutes; maxWalk metres (0: no walking); minChange seconds;
 * walkSpeed metres per second; wheelchair: avoid trips and stops marked not accessible.
 * @typedef {object} JourneyOptions
 * @property {boolean} [arriveBy]
 * @property {number} [window]
 * @property {number} [maxTransfers]
 * @property {number} [maxWalk]
 * @property {number} [minChange]
 * @property {number} [walkSpeed]
 * @property {boolean} [wheelchair]
 */
/** @typedef {{status: 'found', journey: Journey} | {status: 'gone', nearest: Journey | null} | {status: 'invalid'}} JourneyLookup */

/**
 * ISO 8601 local date-time of `seconds` from `day`'s 00:00 with the zone's offset (TransitReader.iso8601).
 * @param {number} day a day number
 * @param {number} seconds
 * @param {string} timeZone
 * @returns {string}
 */
export function iso8601(day, seconds, timeZone) {
  const days = Math.floor(seconds / 86400);
  const rest = seconds - days * 86400;
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  const date = dateOfDayNumber(day + days);
  const ds = String(date).padStart(8, '0');
  const text = `${ds.slice(0, 4)}-${ds.slice(4, 6)}-${ds.slice(6, 8)}T${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}`;
  if (!timeZone) return text;
  const wall = ((day + days) * 86400 + rest) * 1000;
  const first = zoneOffset(timeZone, wall);
  if (first == null) return text;
  const offset = /** @type {number} */ (zoneOffset(timeZone, wall - first * 1000));
  const minutes = Math.floor(Math.abs(offset) / 60);
  return `${text}${offset < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}

/**
 * A journey as the CLI's JSON prints it.
 * @param {PlannedJourney} journey
 * @param {string} timeZone
 * @returns {Journey}
 */
export function journeyJSON(journey, timeZone) {
  const iso = (/** @type {number} */ s) => iso8601(journey.day, s, timeZone);
  const placeJSON = (/** @type {LegPlace} */ p) => {
    /** @type {JourneyPlace} */
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
      /** @type {JourneyLeg} */
      const out = { arrival: iso(leg.arrival), departure: iso(leg.departure), from: placeJSON(leg.from), mode: leg.mode,
        to: placeJSON(leg.to) };
      if (leg.mode === 'walk') out.metres = leg.metres ?? 0;
      else {
        if (leg.headsign != null) out.headsign = leg.headsign;
        out.line = leg.line;
        out.route_id = leg.route_id;
        out.stops = /** @type {{place: LegPlace, arrival: number, departure: number}[]} */ (leg.stops).map((c) => {
          /** @type {{stop_id?: string, name?: string, arrival?: string, departure?: string}} */
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
