// Local dates as the timetable counts them: yyyymmdd numbers, day numbers (days since 1970-01-01), the text of
// a query's date and time.

import { PackError } from './format.js';

/**
 * A query's local date (`YYYY-MM-DD`, as a day number) and time (`HH:MM[:SS]` or seconds since midnight).
 * @param {string} date `YYYY-MM-DD`
 * @param {string|number} time `HH:MM[:SS]`, or seconds since midnight
 * @returns {{day: number, seconds: number}} day as yyyymmdd
 */
export function localDayAndSeconds(date, time) {
  const day = parseDate(date);
  if (day == null) throw new PackError('part', `not a date: ${date}`);
  if (typeof time !== 'string') return { day, seconds: time };
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time.trim());
  if (!m) throw new PackError('part', `not a time: ${time}`);
  return { day, seconds: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0) };
}

/**
 * @param {number} yyyymmdd
 * @returns {number} days since 1970-01-01
 */
export function dayNumber(yyyymmdd) {
  const y = Math.floor(yyyymmdd / 10000);
  const m = Math.floor(yyyymmdd / 100) % 100;
  const d = yyyymmdd % 100;
  return Math.round(Date.UTC(y, m - 1, d) / 86400000);
}

/**
 * @param {number} n days since 1970-01-01
 * @returns {number} yyyymmdd
 */
export function dateOfDayNumber(n) {
  const t = new Date(n * 86400000);
  return t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
}

/**
 * @param {number} yyyymmdd
 * @returns {string} YYYY-MM-DD
 */
export function dateText(yyyymmdd) {
  const s = String(yyyymmdd).padStart(8, '0');
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}

/**
 * @param {string} text `YYYY-MM-DD` or `YYYYMMDD`
 * @returns {number|null} yyyymmdd, null when not a date
 */
export function parseDate(text) {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(String(text).trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1 || t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null;
  return y * 10000 + mo * 100 + d;
}

/** @param {number} n */
export function two(n) {
  return String(n).padStart(2, '0');
}

/**
 * The weekday of a day number: 0 Monday … 6 Sunday.
 * @param {number} n a day number
 */
export const weekdayOf = (n) => (((n + 3) % 7) + 7) % 7;
