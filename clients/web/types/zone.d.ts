/**
 * The wall-clock parts of a UTC instant (milliseconds) in the zone, or null for an unknown zone.
 * @param {string} timeZone
 * @param {number} utcMillis
 * @returns {{year: number, month: number, day: number, hour: number, minute: number, second: number} | null}
 */
export function localParts(timeZone: string, utcMillis: number): {
    year: number;
    month: number;
    day: number;
    hour: number;
    minute: number;
    second: number;
} | null;
/**
 * The zone's UTC offset in seconds at a UTC instant (milliseconds); null for an unknown zone.
 * @param {string} timeZone
 * @param {number} utcMillis
 * @returns {number | null}
 */
export function zoneOffset(timeZone: string, utcMillis: number): number | null;
/**
 * The UTC instant (milliseconds) of a wall-clock time in the zone (the later side of a gap), or null.
 * @param {string} timeZone
 * @param {number} year
 * @param {number} month
 * @param {number} day
 * @param {number} minute of the day
 * @returns {number | null}
 */
export function instantOf(timeZone: string, year: number, month: number, day: number, minute: number): number | null;
/**
 * ISO 8601 local time to the minute with the zone's offset at a UTC instant: `2026-11-28T19:00+01:00`.
 * @param {string} timeZone a zone Intl knows
 * @param {number} utcMillis
 * @returns {string}
 */
export function isoMinute(timeZone: string, utcMillis: number): string;
