/**
 * A query's local date (`YYYY-MM-DD`, as a day number) and time (`HH:MM[:SS]` or seconds since midnight).
 * @param {string} date `YYYY-MM-DD`
 * @param {string|number} time `HH:MM[:SS]`, or seconds since midnight
 * @returns {{day: number, seconds: number}} day as yyyymmdd
 */
export function localDayAndSeconds(date: string, time: string | number): {
    day: number;
    seconds: number;
};
/**
 * @param {number} yyyymmdd
 * @returns {number} days since 1970-01-01
 */
export function dayNumber(yyyymmdd: number): number;
/**
 * @param {number} n days since 1970-01-01
 * @returns {number} yyyymmdd
 */
export function dateOfDayNumber(n: number): number;
/**
 * @param {number} yyyymmdd
 * @returns {string} YYYY-MM-DD
 */
export function dateText(yyyymmdd: number): string;
/**
 * @param {string} text `YYYY-MM-DD` or `YYYYMMDD`
 * @returns {number|null} yyyymmdd, null when not a date
 */
export function parseDate(text: string): number | null;
/** @param {number} n */
export function two(n: number): string;
export function weekdayOf(n: number): number;
