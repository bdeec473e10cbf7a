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
export function decodePatterns(pt: PackedPatterns): Pattern[];
/**
 * @param {TransitJSON} json
 * @returns {TransitPart}
 */
export function loadTransit(json: TransitJSON): TransitPart;
/**
 * @param {TransitPart} t
 * @param {number} i a stop row
 * @returns {StopRow}
 */
export function stopRow(t: TransitPart, i: number): StopRow;
/**
 * @param {TransitPart} t
 * @param {string} code a stop_id
 * @param {number} date yyyymmdd
 * @param {number} seconds
 * @param {number} limit
 * @returns {Departure[]}
 */
export function departures(t: TransitPart, code: string, date: number, seconds: number, limit: number): Departure[];
/**
 * `CityPack.timetable` (see there): the dates the timetable covers and where `date` lies, or null.
 * @param {TransitPart} t
 * @param {string} date `YYYY-MM-DD`
 * @returns {TimetableCoverage | null}
 */
export function coverage(t: TransitPart, date: string): TimetableCoverage | null;
/**
 * The transit part as the pack holds it (docs/schemas/web-transit.schema.json): columns of stops, trips, lines,
 * services, service dates, frequencies, footpaths, and the packed trip patterns.
 */
export type TransitJSON = {
    /**
     * the latest time of any trip (seconds after its service day's 00:00)
     */
    maxSeconds: number;
    timezones?: string[] | undefined;
    stops: {
        id: number[];
        feed: number[];
        stopId: string[];
        name: (string | null)[];
        lat: (number | null)[];
        lon: (number | null)[];
        parent: (number | null)[];
        locationType: number[];
        wheelchair?: number[];
    };
    trips: {
        id: number[];
        tripId: string[];
        service: number[];
        headsign: (string | null)[];
        line: number[];
        wheelchair?: number[];
    };
    lines: {
        id: number[];
        routeId: string[];
        shortName: (string | null)[];
        longName: (string | null)[];
        type: number[];
        colour: (string | null)[];
    } & Record<string, any>;
    services: {
        id: number[];
        start: (number | null)[];
        end: (number | null)[];
        days: (number | null)[];
    };
    serviceDates: {
        service: number[];
        date: number[];
        type: number[];
    };
    frequencies: {
        trip: number[];
        start: number[];
        end: number[];
        headway: number[];
    };
    footpaths: {
        from: number[];
        to: number[];
        metres: number[];
        seconds: (number | null)[];
    };
    patterns: PackedPatterns;
};
/**
 * The packed trip patterns (TimetableCoding): per pattern its flags, stop and trip counts; stop and trip ids and
 * times delta-coded.
 */
export type PackedPatterns = {
    flags: number[];
    stopCounts: number[];
    tripCounts: number[];
    stops: number[];
    trips: number[];
    times: number[];
};
/**
 * A decoded trip pattern: stop ids, trip ids, times stop-major (`departures[i * tripCount + k]`).
 */
export type Pattern = {
    stops: number[];
    trips: number[];
    arrivals: Int32Array;
    departures: Int32Array;
    through: boolean;
    frequency: boolean;
};
/**
 * The loaded transit part: the JSON, stop rows by stop_id and station, the decoded patterns per stop, lookups.
 */
export type TransitPart = {
    json: TransitJSON;
    maxSeconds: number;
    /**
     * stop rows by stop_id, in (feed, id) order
     */
    byCode: Map<string, number[]>;
    stopIndex: Map<number, number>;
    /**
     * a station's stop rows
     */
    children: Map<number, number[]>;
    timetable: Pattern[];
    /**
     * (pattern, position) pairs per stop id
     */
    stopPatterns: Map<number, [number, number][]>;
    tripIndex: Map<number, number>;
    lineIndex: Map<number, number>;
    serviceIndex: Map<number, number>;
    freqByTrip: Map<number, number[]>;
    /**
     * `service:date` → 1 added, 2 removed
     */
    exceptions: Map<string, number>;
    /**
     * the service range, once asked
     */
    coverage?: {
        first: number;
        last: number;
    } | null | undefined;
    /**
     * the routing view, once built
     */
    _routing?: import("./raptor.js").Routing | undefined;
};
/**
 * A departure, as `citypack query --departures --format json` prints it.
 */
export type Departure = {
    line: string;
    headsign?: string | undefined;
    time: string;
    date: string;
    seconds: number;
    trip: string;
    route_type: number;
    colour?: string | undefined;
    stop_id: string;
};
/**
 * `citypack query --departures/--journey`'s "timetable": a date outside has no trips because the data ends.
 */
export type TimetableCoverage = {
    first: string;
    last: string;
    date: string;
    position: 'before' | 'within' | 'after';
};
export type StopRow = {
    id: number;
    kind: 'stop';
    osm: string;
    stop_id: string;
    name: string | null;
    named?: boolean;
    category: string;
    lat: number;
    lon: number;
};
export type TripInfo = {
    tripId: string;
    service: number;
    headsign: string | null;
    routeId: string;
    shortName: string | null;
    longName: string | null;
    type: number;
    colour: string | null;
    lineName: string;
};
