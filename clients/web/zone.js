// Wall-clock time in an IANA time zone with Intl (no tz data of our own): the offset at an instant, the local
// minute of an instant, and an ISO 8601 local time with its offset. Used by journeys (feed's zone) and opening hours
// (city's zone).

/** @type {Map<string, Intl.DateTimeFormat | null>} */
const offsetCache = new Map();

/**
 * @param {string} timeZone
 * @returns {Intl.DateTimeFormat | null}
 */
function formatter(timeZone) {
  let format = offsetCache.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric',
        minute: 'numeric', second: 'numeric',
      });
    } catch {
      format = null;
    }
    offsetCache.set(timeZone, format);
  }
  return format;
}

/**
 * The wall-clock parts of a UTC instant (milliseconds) in the zone, or null for an unknown zone.
 * @param {string} timeZone
 * @param {number} utcMillis
 * @returns {{year: number, month: number, day: number, hour: number, minute: number, second: number} | null}
 */
export function localParts(timeZone, utcMillis) {
  const format = formatter(timeZone);
  if (!format) return null;
  const parts = Object.fromEntries(format.formatToParts(new Date(utcMillis)).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour),
    minute: Number(parts.minute), second: Number(parts.second),
  };
}

/**
 * The zone's UTC offset in seconds at a UTC instant (milliseconds); null for an unknown zone.
 * @param {string} timeZone
 * @param {number} utcMillis
 * @returns {number | null}
 */
export function zoneOffset(timeZone, utcMillis) {
  const p = localParts(timeZone, utcMillis);
  if (!p) return null;
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((wall - Math.floor(utcMillis / 1000) * 1000) / 1000);
}

/**
 * The UTC instant (milliseconds) of a wall-clock time in the zone (the later side of a gap), or null.
 * @param {string} timeZone
 * @param {number} year
 * @param {number} month
 * @param {number} day
 * @param {number} minute of the day
 * @returns {number | null}
 */
export function instantOf(timeZone, year, month, day, minute) {
  const wall = Date.UTC(year, month - 1, day, Math.floor(minute / 60), minute % 60);
  const first = zoneOffset(timeZone, wall);
  if (first == null) return null;
  const offset = /** @type {number} */ (zoneOffset(timeZone, wall - first * 1000));
  return wall - offset * 1000;
}

/**
 * ISO 8601 local time to the minute with the zone's offset at a UTC instant: `2026-11-28T19:00+01:00`.
 * @param {string} timeZone a zone Intl knows
 * @param {number} utcMillis
 * @returns {string}
 */
export function isoMinute(timeZone, utcMillis) {
  const p = /** @type {NonNullable<ReturnType<typeof localParts>>} */ (localParts(timeZone, utcMillis));
  const offset = /** @type {number} */ (zoneOffset(timeZone, utcMillis));
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  const minutes = Math.floor(Math.abs(offset) / 60);
  return `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`
    + `${offset < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}
