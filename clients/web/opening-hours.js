// Opening hours for the web reader: reads the compact form the pack stores (Swift `OpeningHours.compact`, grammar in
// Sources/CityPackSupport/OpeningHours.swift) and answers "open now, and until when?" exactly as Swift
// `OpeningHours.state(at:)` does (this file mirrors OpeningHours+Evaluate.swift). No Date objects: plain civil-date
// arithmetic on the place's wall-clock time, so the answer never depends on the browser's zone.

import { instantOf, isoMinute, localParts } from './zone.js';

/**
 * @typedef {{from: number, to: number}} YearRange
 * @typedef {{fromMonth: number, fromDay: number, toMonth: number, toDay: number}} DateRange
 * @typedef {{from: number, to: number, step: number}} WeekRange
 * @typedef {{start: number, end: number, openEnd: boolean}} Span  minutes after midnight, end up to 2880
 * @typedef {{combinator: 'normal'|'additional'|'fallback', years: YearRange[], dates: DateRange[], weeks: WeekRange[],
 *   dayMask: number, spans: Span[], state: 'open'|'closed'|'unknown', comment: string|null}} Rule
 * @typedef {{rules: Rule[]}} OpeningHours
 * @typedef {{year: number, month: number, day: number, minute: number}} LocalTime  month 1-12, minute 0-1439
 * @typedef {{state: 'open'|'closed'|'unknown', nextChange: LocalTime|null}} OpeningState
 */

const PUBLIC_HOLIDAY = 1 << 7;
const SCHOOL_HOLIDAY = 1 << 8;
const HOLIDAYS_AND_WEEKDAYS = 1 << 9;
const CLOSED = 0;
const OPEN = 1;
const UNKNOWN = 2;
const STATE_NAMES = /** @type {const} */ (['closed', 'open', 'unknown']);
const STATE_CODES = { closed: CLOSED, open: OPEN, unknown: UNKNOWN };

/**
 * Reads a compact opening-hours string; throws an Error when it is not in the grammar.
 * @param {string} text
 * @returns {OpeningHours}
 */
export function parseCompact(text) {
  const fail = () => {
    throw new Error(`not a compact opening-hours string: ${JSON.stringify(text)}`);
  };
  let i = 0;
  /** @param {number} width */
  const number = (width) => {
    const digits = text.slice(i, i + width);
    if (digits.length !== width || !/^[0-9]+$/.test(digits)) fail();
    i += width;
    return Number(digits);
  };
  const time = () => {
    const h = number(2);
    const m = number(2);
    if (m >= 60) fail();
    return h * 60 + m;
  };
  /** @returns {Rule} */
  const newRule = (/** @type {Rule['combinator']} */ combinator) => ({
    combinator, years: [], dates: [], weeks: [], dayMask: 0, spans: [], state: 'open', comment: null,
  });
  /** @type {Rule[]} */
  const rules = [];
  let rule = newRule('normal');
  let tokens = 0;
  for (;;) {
    const c = text[i];
    if (c === undefined || c === ';' || c === ',' || c === '|') {
      if (tokens === 0) fail();
      rules.push(rule);
      if (c === undefined) break;
      rule = newRule(c === ';' ? 'normal' : c === ',' ? 'additional' : 'fallback');
      tokens = 0;
      i += 1;
      continue;
    }
    tokens += 1;
    if (c === 'a') {
      i += 1;
    } else if (c === 'y') {
      i += 1;
      rule.years.push({ from: number(4), to: number(4) });
    } else if (c === 'd') {
      i += 1;
      const [a, b, x, y] = [number(2), number(2), number(2), number(2)];
      if (a < 1 || a > 12 || b < 1 || b > 31 || x < 1 || x > 12 || y < 1 || y > 31) fail();
      rule.dates.push({ fromMonth: a, fromDay: b, toMonth: x, toDay: y });
    } else if (c === 'k') {
      i += 1;
      const [from, to, step] = [number(2), number(2), number(2)];
      if (from < 1 || from > 53 || to < 1 || to > 53 || step < 1) fail();
      rule.weeks.push({ from, to, step });
    } else if (c === 'w') {
      const hex = text.slice(i + 1, i + 4);
      if (!/^[0-9a-f]{3}$/.test(hex)) fail();
      const mask = parseInt(hex, 16);
      if (mask <= 0 || mask >= 1024) fail();
      rule.dayMask = mask;
      i += 4;
    } else if (c === 'x' || c === 'u') {
      rule.state = c === 'x' ? 'closed' : 'unknown';
      i += 1;
    } else if (c === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) fail();
      const body = text.slice(i + 1, close);
      if (/%(?![0-9A-F]{2})/.test(body)) fail();
      try {
        rule.comment = decodeURIComponent(body);
      } catch {
        fail();
      }
      i = close + 1;
    } else {
      const openEnd = c === '+';
      if (openEnd) i += 1;
      const start = time();
      const end = time();
      if (start >= 1440 || end > 2880 || (openEnd ? end < start : end <= start)) fail();
      rule.spans.push({ start, end, openEnd });
    }
  }
  return { rules };
}

/**
 * The state at `time` (the place's wall-clock time) and the first later minute where it differs; nextChange is null
 * when it does not change within 8 days (366 days when a rule has year, date or week selectors).
 * @param {string|OpeningHours} compactOrParsed
 * @param {LocalTime} time
 * @returns {OpeningState}
 */
export function openingState(compactOrParsed, { year, month, day, minute }) {
  const hours = typeof compactOrParsed === 'string' ? parseCompact(compactOrParsed) : compactOrParsed;
  const start = daysFromCivil(year, month, day);
  const at = Math.min(Math.max(minute, 0), 1439);
  const horizon = hours.rules.some((r) => r.years.length || r.dates.length || r.weeks.length) ? 366 : 8;
  const first = combinedDay(hours, start);
  const current = first[at];
  for (let offset = 0; offset <= horizon; offset += 1) {
    const schedule = offset === 0 ? first : combinedDay(hours, start + offset);
    for (let m = offset === 0 ? at + 1 : 0; m < 1440; m += 1) {
      if (schedule[m] !== current) {
        const [y, mo, d] = civilFromDays(start + offset);
        return { state: STATE_NAMES[current], nextChange: { year: y, month: mo, day: d, minute: m } };
      }
    }
  }
  return { state: STATE_NAMES[current], nextChange: null };
}

/**
 * The day's 1440 minute states, unknown where the holiday possibilities disagree.
 * @param {OpeningHours} hours
 * @param {number} days
 */
function combinedDay(hours, days) {
  const usesPH = hours.rules.some((r) => (r.dayMask & PUBLIC_HOLIDAY) !== 0);
  const usesSH = hours.rules.some((r) => (r.dayMask & SCHOOL_HOLIDAY) !== 0);
  // World bits: 1 PH yesterday, 2 SH yesterday, 4 PH today, 8 SH today; only the flags some rule reads vary.
  const used = (usesPH ? 5 : 0) | (usesSH ? 10 : 0);
  /** @type {Uint8Array|null} */
  let result = null;
  for (let world = 0; world < 16; world += 1) {
    if ((world & ~used) !== 0) continue;
    const schedule = daySchedule(hours, days, world);
    if (result === null) {
      result = schedule;
      continue;
    }
    for (let m = 0; m < 1440; m += 1) if (result[m] !== schedule[m]) result[m] = UNKNOWN;
  }
  return /** @type {Uint8Array} */ (result);
}

/**
 * The day's minute states when the holidays are as `world` says.
 * @param {OpeningHours} hours
 * @param {number} days
 * @param {number} world
 */
function daySchedule(hours, days, world) {
  const schedule = new Uint8Array(1440); // CLOSED
  const today = dayFacts(days);
  const yesterday = dayFacts(days - 1);
  let anyToday = false;
  let anyYesterday = false;
  for (const rule of hours.rules) {
    const matchesToday = matches(rule, today, (world & 4) !== 0, (world & 8) !== 0);
    const matchesYesterday = matches(rule, yesterday, (world & 1) !== 0, (world & 2) !== 0);
    let appliesToday = matchesToday;
    let appliesYesterday = matchesYesterday;
    if (rule.combinator === 'fallback') {
      appliesToday = matchesToday && !anyToday;
      appliesYesterday = matchesYesterday && !anyYesterday;
    }
    anyToday = anyToday || matchesToday;
    anyYesterday = anyYesterday || matchesYesterday;
    const state = STATE_CODES[rule.state];
    if (appliesToday) {
      if (rule.combinator !== 'additional' && !(rule.state === 'closed' && rule.spans.length > 0)) {
        schedule.fill(CLOSED, 0, 1440);
      }
      if (rule.spans.length === 0) schedule.fill(state, 0, 1440);
      for (const span of rule.spans) {
        if (span.start < Math.min(span.end, 1440)) schedule.fill(state, span.start, Math.min(span.end, 1440));
        if (span.openEnd && span.end < 1440) schedule.fill(UNKNOWN, span.end, 1440);
      }
    }
    if (appliesYesterday) {
      for (const span of rule.spans) if (span.end > 1440) schedule.fill(state, 0, span.end - 1440);
    }
  }
  return schedule;
}

/** @param {number} days */
function dayFacts(days) {
  const [year, month, day] = civilFromDays(days);
  return { year, month, day, weekday: weekday(days), week: isoWeek(days) };
}

/**
 * @param {Rule} rule
 * @param {ReturnType<typeof dayFacts>} day
 * @param {boolean} ph
 * @param {boolean} sh
 */
function matches(rule, day, ph, sh) {
  if (rule.years.length && !rule.years.some((r) => r.from <= day.year && day.year <= r.to)) return false;
  if (rule.dates.length) {
    const key = day.month * 100 + day.day;
    const hit = rule.dates.some((r) => {
      const from = r.fromMonth * 100 + r.fromDay;
      const to = r.toMonth * 100 + r.toDay;
      return from <= to ? from <= key && key <= to : key >= from || key <= to;
    });
    if (!hit) return false;
  }
  if (rule.weeks.length) {
    const w = day.week;
    const hit = rule.weeks.some((r) => {
      const inside = r.from <= r.to ? r.from <= w && w <= r.to : w >= r.from || w <= r.to;
      return inside && ((w - r.from + 53) % 53) % r.step === 0;
    });
    if (!hit) return false;
  }
  const mask = rule.dayMask;
  if (mask === 0) return true;
  const weekdayHit = (mask & (1 << day.weekday)) !== 0;
  const holidayHit = (ph && (mask & PUBLIC_HOLIDAY) !== 0) || (sh && (mask & SCHOOL_HOLIDAY) !== 0);
  return (mask & HOLIDAYS_AND_WEEKDAYS) !== 0 ? weekdayHit && holidayHit : weekdayHit || holidayHit;
}

// Civil dates (proleptic Gregorian; day 0 is 1970-01-01), as in OpeningHours+Evaluate.swift.

/** @param {number} a @param {number} b */
const floorDiv = (a, b) => Math.floor(a / b);
/** @param {number} a @param {number} b  truncating division of non-negative numbers */
const div = (a, b) => Math.trunc(a / b);

/** @param {number} year @param {number} month @param {number} day */
function daysFromCivil(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = floorDiv(y, 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = (month + 9) % 12;
  const dayOfYear = div(153 * monthFromMarch + 2, 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + div(yearOfEra, 4) - div(yearOfEra, 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** @param {number} days @returns {[number, number, number]} */
function civilFromDays(days) {
  const z = days + 719468;
  const era = floorDiv(z, 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = div(dayOfEra - div(dayOfEra, 1460) + div(dayOfEra, 36524) - div(dayOfEra, 146096), 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + div(yearOfEra, 4) - div(yearOfEra, 100));
  const monthFromMarch = div(5 * dayOfYear + 2, 153);
  const day = dayOfYear - div(153 * monthFromMarch + 2, 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/**
 * 0 Monday … 6 Sunday.
 * @param {number} days
 */
const weekday = (days) => (((days % 7) + 7 + 3) % 7);

/**
 * ISO 8601 week number: the week of the year that holds its Thursday.
 * @param {number} days
 */
function isoWeek(days) {
  const thursday = days - weekday(days) + 3;
  const [year] = civilFromDays(thursday);
  return div(thursday - daysFromCivil(year, 1, 1), 7) + 1;
}

/**
 * Whether a place with these compact hours is open at a UTC instant in the city's time zone, as Swift
 * `PlaceResult.openState(at:timeZone:)` and `citypack query` say it: `open` ('open', 'closed' or 'unknown': no
 * hours) and `next_change` (ISO 8601 local minute with the offset) or null.
 * @param {string|null|undefined} compact the row's `hours`
 * @param {string} timeZone IANA zone
 * @param {number} utcMillis the instant
 * @returns {{open: 'open'|'closed'|'unknown', next_change: string|null}}
 */
export function openAt(compact, timeZone, utcMillis) {
  if (!compact) return { open: 'unknown', next_change: null };
  let parsed;
  try {
    parsed = parseCompact(compact);
  } catch {
    return { open: 'unknown', next_change: null };
  }
  const p = localParts(timeZone, utcMillis);
  if (!p) return { open: 'unknown', next_change: null };
  const { state, nextChange } = openingState(parsed, { year: p.year, month: p.month, day: p.day, minute: p.hour * 60 + p.minute });
  if (!nextChange) return { open: state, next_change: null };
  const instant = instantOf(timeZone, nextChange.year, nextChange.month, nextChange.day, nextChange.minute);
  return { open: state, next_change: instant == null ? null : isoMinute(timeZone, instant) };
}
