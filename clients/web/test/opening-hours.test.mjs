// OSM opening_hours in the web reader: the same cases as Tests/CityPackFormatTests/OpeningHoursTests.swift (keep the
// tables in step), against clients/web/opening-hours.js reading the compact form Swift writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openingState, parseCompact } from '../opening-hours.js';

// [value, compact (as Swift writes it), local time, state, next change]
const STATES = [
  // every construct: 24/7, weekday ranges and lists, wrapping ranges, time lists
  ['24/7', 'a', '2024-06-03T10:00', 'open', null],
  ['Mo-Fr 08:00-19:00; Sa 09:00-13:00', 'w01f08001900;w02009001300', '2024-06-08T10:00', 'open', '2024-06-08T13:00'],
  ['Mo-Fr 08:00-19:00; Sa 09:00-13:00', 'w01f08001900;w02009001300', '2024-06-08T13:00', 'closed', '2024-06-10T08:00'], // across the week end
  ['Mo,We,Fr 10:00-12:00', 'w01510001200', '2024-06-04T11:00', 'closed', '2024-06-05T10:00'],
  ['Sa-Mo 10:00-12:00', 'w06110001200', '2024-06-09T11:00', 'open', '2024-06-09T12:00'],
  ['Sa-Mo 10:00-12:00', 'w06110001200', '2024-06-04T11:00', 'closed', '2024-06-08T10:00'],
  ['Mo-Fr 08:00-12:00,13:00-18:00', 'w01f0800120013001800', '2024-06-03T12:30', 'closed', '2024-06-03T13:00'],
  // past midnight: 22:00-02:00, 18:00-24:00, -26:00
  ['Fr 22:00-02:00', 'w01022002600', '2024-06-08T01:00', 'open', '2024-06-08T02:00'],
  ['Fr 22:00-02:00', 'w01022002600', '2024-06-07T21:00', 'closed', '2024-06-07T22:00'],
  ['Fr 22:00-02:00', 'w01022002600', '2024-06-07T23:59', 'open', '2024-06-08T02:00'], // across midnight
  ['Mo-Su 18:00-24:00', '18002400', '2024-06-03T23:00', 'open', '2024-06-04T00:00'],
  ['Su 20:00-26:00', 'w04020002600', '2024-06-09T23:00', 'open', '2024-06-10T02:00'], // across midnight and the week end
  // off / closed / open, overriding and additional rules, fallback
  ['Mo-Fr 09:00-18:00; We off', 'w01f09001800;w004x', '2024-06-05T10:00', 'closed', '2024-06-06T09:00'],
  ['Mo-Fr 09:00-18:00; We closed', 'w01f09001800;w004x', '2024-06-05T10:00', 'closed', '2024-06-06T09:00'],
  ['open', 'a', '2024-06-05T10:00', 'open', null],
  ['off', 'x', '2024-06-05T10:00', 'closed', null],
  ['Mo-Fr 08:00-18:00; We 12:00-14:00 off', 'w01f08001800;w00412001400x', '2024-06-05T13:00', 'closed', '2024-06-05T14:00'],
  ['Mo-Sa 10:00-20:00; Sa 10:00-14:00', 'w03f10002000;w02010001400', '2024-06-08T15:00', 'closed', '2024-06-10T10:00'],
  ['Mo-Fr 08:00-12:00, We 14:00-16:00', 'w01f08001200,w00414001600', '2024-06-05T15:00', 'open', '2024-06-05T16:00'],
  ['Mo-Fr 10:00-20:00 || "by appointment"', 'w01f10002000|u"by appointment"', '2024-06-08T11:00', 'unknown', '2024-06-10T00:00'],
  ['Mo-Fr 10:00-20:00 || "by appointment"', 'w01f10002000|u"by appointment"', '2024-06-03T21:00', 'closed', '2024-06-04T10:00'],
  // months, dates, weeks, years
  ['Jan-Mar 10:00-16:00; Apr-Dec 09:00-18:00', 'd0101033110001600;d0401123109001800', '2024-03-31T17:00', 'closed', '2024-04-01T09:00'],
  ['Mo-Su 09:00-18:00; Dec 24-26 off', '09001800;d12241226x', '2024-12-23T17:00', 'open', '2024-12-23T18:00'],
  ['Mo-Su 09:00-18:00; Dec 24-26 off', '09001800;d12241226x', '2024-12-23T18:00', 'closed', '2024-12-27T09:00'],
  ['Dec 10:00-12:00', 'd1201123110001200', '2024-11-30T09:00', 'closed', '2024-12-01T10:00'],
  ['week 01-26 10:00-12:00', 'k01260110001200', '2024-06-30T13:00', 'closed', '2024-12-30T10:00'],
  ['2024 10:00-12:00', 'y2024202410001200', '2024-12-31T13:00', 'closed', null],
  // holidays: unknown only when the answer depends on them
  ['Mo-Fr 09:00-18:00; PH off', 'w01f09001800;w080x', '2024-06-03T10:00', 'unknown', '2024-06-03T18:00'],
  ['Mo-Fr 09:00-18:00; PH off', 'w01f09001800;w080x', '2024-06-03T20:00', 'closed', '2024-06-04T09:00'],
  ['Mo-Fr 09:00-18:00; PH off', 'w01f09001800;w080x', '2024-06-09T12:00', 'closed', '2024-06-10T09:00'],
  // comments, open end, case and whitespace tolerance
  ['Sa,Su "by appointment"', 'w060u"by appointment"', '2024-06-08T10:00', 'unknown', '2024-06-10T00:00'],
  ['Fr-Sa 18:00+', 'w030+18001800', '2024-06-07T19:00', 'unknown', '2024-06-08T00:00'],
  ['mo-fr 8:00-19:00', 'w01f08001900', '2024-06-03T07:59', 'closed', '2024-06-03T08:00'],
  ['Mo-Fr 08:00-12:00;', 'w01f08001200', '2024-06-03T11:00', 'open', '2024-06-03T12:00'],
];

/** @param {string} text */
function time(text) {
  const [year, month, day, h, m] = text.split(/[-T:]/).map(Number);
  return { year, month, day, minute: h * 60 + m };
}

/** @param {{year: number, month: number, day: number, minute: number} | null} t */
function show(t) {
  if (!t) return null;
  const pad = (x, w) => String(x).padStart(w, '0');
  return `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(Math.floor(t.minute / 60), 2)}:${pad(t.minute % 60, 2)}`;
}

for (const [value, compact, at, state, next] of STATES) {
  test(`${value} at ${at}: ${state}, next change ${next}`, () => {
    const answer = openingState(compact, time(at));
    assert.equal(answer.state, state);
    assert.equal(show(answer.nextChange), next);
    assert.deepEqual(openingState(parseCompact(compact), time(at)), answer);
  });
}

test('parseCompact reads every construct of the grammar', () => {
  assert.deepEqual(parseCompact('w01f08001900;w02009001300'), {
    rules: [
      { combinator: 'normal', years: [], dates: [], weeks: [], dayMask: 0x1f, spans: [{ start: 480, end: 1140, openEnd: false }], state: 'open', comment: null },
      { combinator: 'normal', years: [], dates: [], weeks: [], dayMask: 0x20, spans: [{ start: 540, end: 780, openEnd: false }], state: 'open', comment: null },
    ],
  });
  const all = parseCompact('y20212022d12241226k012602w29f+18001800u"%C3%BCber %25",a|x');
  assert.deepEqual(all.rules[0], {
    combinator: 'normal',
    years: [{ from: 2021, to: 2022 }],
    dates: [{ fromMonth: 12, fromDay: 24, toMonth: 12, toDay: 26 }],
    weeks: [{ from: 1, to: 26, step: 2 }],
    dayMask: 0x29f,
    spans: [{ start: 1080, end: 1080, openEnd: true }],
    state: 'unknown',
    comment: 'über %',
  });
  assert.equal(all.rules[1].combinator, 'additional');
  assert.equal(all.rules[2].combinator, 'fallback');
  assert.equal(all.rules[2].state, 'closed');
});

test('parseCompact rejects what Swift OpeningHours(compact:) rejects', () => {
  for (const text of ['', 'w01', 'zz', '0800', 'w01f;', 'w01f08001900;', 'd13011301', '1800090', 'u"open']) {
    assert.throws(() => parseCompact(text), /not a compact opening-hours string/, text);
  }
});

test('24/7 never changes; a date rule looks up to a year ahead', () => {
  assert.deepEqual(openingState('a', time('2024-02-29T12:00')), { state: 'open', nextChange: null });
  assert.deepEqual(openingState('a;d12251225x', time('2024-12-26T00:00')), { state: 'open', nextChange: { year: 2025, month: 12, day: 25, minute: 0 } });
});
