/**
 * Reads a compact opening-hours string; throws an Error when it is not in the grammar.
 * @param {string} text
 * @returns {OpeningHours}
 */
export function parseCompact(text: string): OpeningHours;
/**
 * The state at `time` (the place's wall-clock time) and the first later minute where it differs; nextChange is null
 * when it does not change within 8 days (366 days when a rule has year, date or week selectors).
 * @param {string|OpeningHours} compactOrParsed
 * @param {LocalTime} time
 * @returns {OpeningState}
 */
export function openingState(compactOrParsed: string | OpeningHours, { year, month, day, minute }: LocalTime): OpeningState;
/**
 * Whether a place with these compact hours is open at a UTC instant in the city's time zone, as Swift
 * `PlaceResult.openState(at:timeZone:)` and `citypack query` say it: `open` ('open', 'closed' or 'unknown': no
 * hours) and `next_change` (ISO 8601 local minute with the offset) or null.
 * @param {string|null|undefined} compact the row's `hours`
 * @param {string} timeZone IANA zone
 * @param {number} utcMillis the instant
 * @returns {{open: 'open'|'closed'|'unknown', next_change: string|null}}
 */
export function openAt(compact: string | null | undefined, timeZone: string, utcMillis: number): {
    open: 'open' | 'closed' | 'unknown';
    next_change: string | null;
};
export type YearRange = {
    from: number;
    to: number;
};
export type DateRange = {
    fromMonth: number;
    fromDay: number;
    toMonth: number;
    toDay: number;
};
export type WeekRange = {
    from: number;
    to: number;
    step: number;
};
/**
 * minutes after midnight, end up to 2880
 */
export type Span = {
    start: number;
    end: number;
    openEnd: boolean;
};
export type Rule = {
    combinator: 'normal' | 'additional' | 'fallback';
    years: YearRange[];
    dates: DateRange[];
    weeks: WeekRange[];
    dayMask: number;
    spans: Span[];
    state: 'open' | 'closed' | 'unknown';
    comment: string | null;
};
export type OpeningHours = {
    rules: Rule[];
};
/**
 * month 1-12, minute 0-1439
 */
export type LocalTime = {
    year: number;
    month: number;
    day: number;
    minute: number;
};
export type OpeningState = {
    state: 'open' | 'closed' | 'unknown';
    nextChange: LocalTime | null;
};
