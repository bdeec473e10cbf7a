// Journey ids (a port of CityPackKit's JourneyID): a journey's endpoints, date, times, rides and a digest of its
// legs, base64url; the same ids as the Swift reader.

import { dateOfDayNumber } from './dates.js';
import { roundHalfAway } from './raptor.js';

/**
 * @param {import('./journeys.js').PlannedJourney} journey
 * @returns {string}
 */
export function legsText(journey) {
  const micro = (/** @type {number} */ v) => roundHalfAway(v * 1e6);
  return journey.legs
    .map((leg) => {
      const from = leg.from.stop_id ?? `${micro(leg.from.lat)},${micro(leg.from.lon)}`;
      const to = leg.to.stop_id ?? `${micro(leg.to.lat)},${micro(leg.to.lon)}`;
      const times = `${leg.departure}|${leg.arrival}`;
      if (leg.mode === 'ride') return `R|${leg.trip_id}|${dateOfDayNumber(/** @type {number} */ (leg.serviceDay))}|${from}|${to}|${times}`;
      return `W|${from}|${to}|${times}`;
    })
    .join(';');
}

/**
 * @param {string} text
 * @returns {bigint}
 */
export function fnv1a(text) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash;
}

/**
 * @param {number[]} out
 * @param {number} value
 */
function pushVarint(out, value) {
  let v = value >= 0 ? BigInt(value) * 2n : BigInt(-value) * 2n - 1n;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

/** @param {Iterable<number>} bytes */
function base64url(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * @param {import('./journeys.js').PlannedJourney} journey
 * @param {import('./raptor.js').Endpoint} origin
 * @param {import('./raptor.js').Endpoint} destination
 * @returns {string}
 */
export function encodeId(journey, origin, destination) {
  const out = [1];
  for (const e of [origin, destination]) {
    if (e.stop !== undefined) {
      out.push(0);
      const utf8 = new TextEncoder().encode(e.stop);
      pushVarint(out, utf8.length);
      for (const b of utf8) out.push(b);
    } else {
      out.push(1);
      pushVarint(out, roundHalfAway(e.lat * 1e6));
      pushVarint(out, roundHalfAway(e.lon * 1e6));
    }
  }
  pushVarint(out, journey.day);
  pushVarint(out, journey.departure);
  pushVarint(out, journey.arrival - journey.departure);
  out.push(Math.min(255, journey.legs.filter((x) => x.mode === 'ride').length));
  const digest = fnv1a(legsText(journey));
  for (let shift = 40n; shift >= 0n; shift -= 8n) out.push(Number((digest >> shift) & 0xffn));
  return base64url(out);
}

/**
 * @param {string} id
 * @returns {{origin: import('./raptor.js').Endpoint, destination: import('./raptor.js').Endpoint, day: number, departure: number, arrival: number, rides: number, digest: bigint} | null}
 */
export function decodeId(id) {
  let text = String(id).replace(/-/g, '+').replace(/_/g, '/');
  while (text.length % 4) text += '=';
  /** @type {Uint8Array} */
  let bytes;
  try {
    bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  if (bytes.length <= 8 || bytes[0] !== 1) return null;
  // Canonical only: base64's last character carries unused low bits, so several texts decode to the same bytes;
  // an id is accepted only as the library writes it (a changed character is never `found`).
  if (base64url(bytes) !== String(id)) return null;
  let at = 1;
  const varint = () => {
    let value = 0n;
    let shift = 0n;
    while (at < bytes.length && shift < 64n) {
      const b = bytes[at++];
      value |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0 && b === 0 && shift > 0n) return null; // over-long: another spelling of a shorter varint
      if ((b & 0x80) === 0) return Number(value & 1n ? -((value + 1n) >> 1n) : value >> 1n);
      shift += 7n;
    }
    return null;
  };
  const endpoint = () => {
    if (at >= bytes.length) return null;
    const tag = bytes[at++];
    if (tag === 0) {
      const count = varint();
      if (count == null || count < 0 || at + count > bytes.length) return null;
      let stop;
      try {
        stop = new TextDecoder('utf-8', { fatal: true }).decode(bytes.slice(at, at + count));
      } catch {
        return null;
      }
      at += count;
      return { stop };
    }
    if (tag !== 1) return null;
    const lat = varint();
    const lon = varint();
    if (lat == null || lon == null) return null;
    return { lat: lat / 1e6, lon: lon / 1e6 };
  };
  const origin = endpoint();
  const destination = endpoint();
  const day = varint();
  const departure = varint();
  const span = varint();
  if (!origin || !destination || day == null || departure == null || span == null || at + 7 !== bytes.length) return null;
  if (Math.abs(day) >= 3000000) return null;
  let digest = 0n;
  for (const b of bytes.slice(at + 1)) digest = (digest << 8n) | BigInt(b);
  return { origin, destination, day, departure, arrival: departure + span, rides: bytes[at], digest };
}
