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
export function iso8601(day: number, seconds: number, timeZone: string): string;
/**
 * A journey as the CLI's JSON prints it.
 * @param {PlannedJourney} journey
 * @param {string} timeZone
 * @returns {Journey}
 */
export function journeyJSON(journey: PlannedJourney, timeZone: string): Journey;
export type PlannedJourney = import('./journeys.js').PlannedJourney;
export type LegPlace = import('./journeys.js').LegPlace;
/**
 * A place to go from or to in a journey leg.
 */
export type JourneyPlace = {
    stop_id?: string;
    name?: string;
    lat: number;
    lon: number;
};
/**
 * One leg of a journey: a walk, or a ride on one trip.
 */
export type JourneyLeg = {
    mode: 'walk' | 'ride';
    from: JourneyPlace;
    to: JourneyPlace;
    /**
     * ISO 8601 local date-time with the feed's UTC offset.
     */
    departure: string;
    arrival: string;
    trip_id?: string | undefined;
    route_id?: string | undefined;
    line?: string | undefined;
    headsign?: string | undefined;
    /**
     * Walk legs: metres walked.
     */
    metres?: number | undefined;
    /**
     * Ride legs: the calls between boarding and alighting.
     */
    stops?: {
        stop_id?: string | undefined;
        name?: string | undefined;
        arrival?: string | undefined;
        departure?: string | undefined;
    }[] | undefined;
};
export type Journey = {
    id: string;
    departure: string;
    arrival: string;
    transfers: number;
    legs: JourneyLeg[];
};
/**
 * Options of `journeys` and `journey`: window in minutes; maxWalk metres (0: no walking); minChange seconds;
 * walkSpeed metres per second; wheelchair: avoid trips and stops marked not accessible.
 */
export type JourneyOptions = {
    arriveBy?: boolean | undefined;
    window?: number | undefined;
    maxTransfers?: number | undefined;
    maxWalk?: number | undefined;
    minChange?: number | undefined;
    walkSpeed?: number | undefined;
    wheelchair?: boolean | undefined;
};
export type JourneyLookup = {
    status: 'found';
    journey: Journey;
} | {
    status: 'gone';
    nearest: Journey | null;
} | {
    status: 'invalid';
};
