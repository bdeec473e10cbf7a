/**
 * @param {import('./journeys.js').PlannedJourney} journey
 * @returns {string}
 */
export function legsText(journey: import('./journeys.js').PlannedJourney): string;
/**
 * @param {string} text
 * @returns {bigint}
 */
export function fnv1a(text: string): bigint;
/**
 * @param {import('./journeys.js').PlannedJourney} journey
 * @param {import('./raptor.js').Endpoint} origin
 * @param {import('./raptor.js').Endpoint} destination
 * @returns {string}
 */
export function encodeId(journey: import('./journeys.js').PlannedJourney, origin: import('./raptor.js').Endpoint, destination: import('./raptor.js').Endpoint): string;
/**
 * @param {string} id
 * @returns {{origin: import('./raptor.js').Endpoint, destination: import('./raptor.js').Endpoint, day: number, departure: number, arrival: number, rides: number, digest: bigint} | null}
 */
export function decodeId(id: string): {
    origin: import('./raptor.js').Endpoint;
    destination: import('./raptor.js').Endpoint;
    day: number;
    departure: number;
    arrival: number;
    rides: number;
    digest: bigint;
} | null;
