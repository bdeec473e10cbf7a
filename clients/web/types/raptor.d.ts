/**
 * The routing view of a loaded transit part (`t` from citypack.js's loadTransit): frequency trips expanded,
 * per-stop (pattern, position) lists, footpaths and services by dense index (RoutingData).
 * @param {TransitPart} t
 * @returns {Routing}
 */
export function buildRouting(t: TransitPart): Routing;
/**
 * The endpoint's stops with the walk to each (JourneyPlanner.access), sorted by stop index.
 * @param {Routing} r
 * @param {Endpoint} endpoint
 * @param {PlanOptions} o
 * @param {boolean} isOrigin
 * @returns {Access[]}
 */
export function access(r: Routing, endpoint: Endpoint, o: PlanOptions, isOrigin: boolean): Access[];
export { JOURNEY_DEFAULTS };
export function roundHalfAway(x: number): number;
/** One RAPTOR search (RaptorSearch): labels per round, reusable over runs of one date. */
export class Search {
    /**
     * @param {Routing} r
     * @param {number} day a day number
     * @param {PlanOptions} o
     */
    constructor(r: Routing, day: number, o: PlanOptions);
    r: Routing;
    o: PlanOptions;
    day: number;
    dayOffsets: number[];
    runs: boolean[][];
    rounds: number;
    rideArrival: Int32Array[];
    footArrival: Int32Array[];
    footFrom: Int32Array[];
    ready: Int32Array[];
    readyByFoot: Uint8Array[];
    ridePattern: Int32Array[];
    rideDay: Int32Array[];
    rideTrip: Int32Array[];
    rideBoard: Int32Array[];
    rideAlight: Int32Array[];
    bestRide: Int32Array;
    bestReady: Int32Array;
    firstPosition: Int32Array;
    /**
     * @param {number} departure seconds of the day
     * @param {Access[]} origins
     * @param {Access[]} targets
     * @returns {Arrival[]} one per round that improved on the last
     */
    run(departure: number, origins: Access[], targets: Access[]): Arrival[];
    runDeparture: number | undefined;
    /**
     * @param {number} k
     * @param {Access[]} targets
     * @param {number} bound
     * @returns {Arrival | null}
     */
    destination(k: number, targets: Access[], bound: number): Arrival | null;
    /**
     * @param {number} p
     * @param {number} from
     * @param {number} k
     * @param {number} bound
     * @param {number[]} improved
     */
    scan(p: number, from: number, k: number, bound: number, improved: number[]): void;
}
export type TransitPart = import('./timetable.js').TransitPart;
/**
 * A journey's end: a GTFS stop_id, or a position (JourneyEndpoint).
 */
export type Endpoint = {
    stop: string;
    lat?: undefined;
    lon?: undefined;
} | {
    stop?: undefined;
    lat: number;
    lon: number;
};
export type PlanOptions = {
    maxTransfers: number;
    walkSpeed: number;
    maxWalkMetres: number;
    minChangeSeconds: number;
    wheelchair: boolean;
};
/**
 * A footpath to stop `to` (seconds: given by the feed, else walked).
 */
export type Footpath = {
    to: number;
    metres: number;
    seconds: number | null;
};
/**
 * A stop of an endpoint and the walk to it (via: the base stop, -1 from a position).
 */
export type Access = {
    stop: number;
    seconds: number;
    metres: number;
    via: number;
};
export type RoutingPattern = {
    stops: number[];
    trips: number[];
    arrivals: Int32Array;
    departures: Int32Array;
    latest: number;
};
/**
 * A destination label.
 */
export type Arrival = {
    round: number;
    stop: number;
    byFoot: boolean;
    time: number;
    egress: Access;
};
/**
 * The routing view of a transit part (RoutingData): stops, trips and services by dense index.
 */
export type Routing = {
    t: TransitPart;
    patterns: RoutingPattern[];
    latest: number;
    served: Uint8Array;
    /**
     * (pattern, position) pairs per stop, flat
     */
    lists: number[][];
    footpaths: Footpath[][];
    sameStopChange: (number | null)[];
    byCode: Map<string, number[]>;
    children: Map<number, number[]>;
    tripService: number[];
    /**
     * per service: yyyymmdd → 1 added, 2 removed
     */
    exceptions: Map<number, number>[];
    lineIndex: Map<number, number>;
    stopCount: number;
    blockedStop: boolean[];
    blockedTrip: boolean[];
};
import { JOURNEY_DEFAULTS } from "./constants.js";
