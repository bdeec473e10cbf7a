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
export function plan(r: Routing, origin: Endpoint, destination: Endpoint, day: number, seconds: number, mode: PlanMode, o: PlanOptions): PlannedJourney[];
/** Resolves an id (TransitReader.journey(id:)): `{ status: 'found', journey }`, `{ status: 'gone', nearest }`
 * @param {Routing} r
 * @param {string} id
 * @param {PlanOptions} o
 * @returns {{status: 'found', journey: PlannedJourney} | {status: 'gone', nearest: PlannedJourney | null} | {status: 'invalid'}}
 * or `{ status: 'invalid' }`. */
export function resolve(r: Routing, id: string, o: PlanOptions): {
    status: 'found';
    journey: PlannedJourney;
} | {
    status: 'gone';
    nearest: PlannedJourney | null;
} | {
    status: 'invalid';
};
/**
 * `stop_id` or `lat,lon` → an endpoint (JourneyEndpoint).
 * @param {string} text
 * @returns {Endpoint}
 */
export function endpoint(text: string): Endpoint;
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
export function journeysBetween(t: TransitPart, from: string, to: string, date: string, time: string | number, options: JourneyOptions): Journey[];
/**
 * `CityPack.journey` over a loaded transit part `t` (see there).
 * @param {TransitPart} t
 * @param {string} id
 * @param {JourneyOptions} options
 * @returns {JourneyLookup}
 */
export function journeyById(t: TransitPart, id: string, options: JourneyOptions): JourneyLookup;
export type Routing = import('./raptor.js').Routing;
export type Endpoint = import('./raptor.js').Endpoint;
export type PlanOptions = import('./raptor.js').PlanOptions;
export type Access = import('./raptor.js').Access;
export type Arrival = import('./raptor.js').Arrival;
export type TransitPart = import('./timetable.js').TransitPart;
export type LegPlace = {
    stop_id: string | null;
    name: string | null;
    lat: number;
    lon: number;
};
/**
 * A leg as planned, with times as seconds of the query date.
 */
export type PlannedLeg = {
    mode: 'walk' | 'ride';
    from: LegPlace;
    to: LegPlace;
    departure: number;
    arrival: number;
    metres?: number | null | undefined;
    trip_id?: string | undefined;
    route_id?: string | undefined;
    line?: string | undefined;
    headsign?: string | null | undefined;
    serviceDay?: number | undefined;
    stops?: {
        place: LegPlace;
        arrival: number;
        departure: number;
    }[] | undefined;
};
export type PlannedJourney = {
    id: string;
    day: number;
    departure: number;
    arrival: number;
    transfers: number;
    legs: PlannedLeg[];
};
export type PlanMode = {
    kind: 'departAt';
} | {
    kind: 'range';
    window: number;
} | {
    kind: 'arriveBy';
    window: number;
};
export type Journey = import('./journey-json.js').Journey;
export type JourneyOptions = import('./journey-json.js').JourneyOptions;
export type JourneyLookup = import('./journey-json.js').JourneyLookup;
export type JourneyPlace = import('./journey-json.js').JourneyPlace;
export type JourneyLeg = import('./journey-json.js').JourneyLeg;
