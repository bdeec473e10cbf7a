/** Web format version this reader understands (manifest `web.format` and each part's `format`). */
export const WEB_FORMAT: 2;
export namespace ROW_CHUNKING {
    const minBytes: number;
    const maxBytes: number;
    const divisor: number;
    const rowBytes: number;
}
export namespace SEARCH_FOLDS {
    const ß: string;
    const ẞ: string;
    const æ: string;
    const Æ: string;
    const œ: string;
    const Œ: string;
    const ø: string;
    const Ø: string;
    const đ: string;
    const Đ: string;
    const ð: string;
    const Ð: string;
    const ł: string;
    const Ł: string;
    const þ: string;
    const Þ: string;
    const ı: string;
    const ħ: string;
    const Ħ: string;
    const ŧ: string;
    const Ŧ: string;
    const ĳ: string;
    const Ĳ: string;
    const ﬁ: string;
    const ﬂ: string;
}
/** Radius of `nearby`, metres (ReaderDefaults.nearbyRadiusMetres). */
export const DEFAULT_RADIUS: 25;
/** Results `search` returns when no limit is given (ReaderDefaults.searchLimit). */
export const DEFAULT_SEARCH_LIMIT: 20;
/** Results `nearby` returns when no limit is given (ReaderDefaults.nearbyLimit). */
export const DEFAULT_NEARBY_LIMIT: 50;
/** Places `places(box)` returns when no limit is given (ReaderDefaults.listingLimit). */
export const DEFAULT_LISTING_LIMIT: 1000;
/** Departures `departures` returns when no limit is given (ReaderDefaults.departuresLimit). */
export const DEFAULT_DEPARTURES_LIMIT: 10;
/** Journey options when none are given (ReaderDefaults, TransitWalking.speed). */
export const JOURNEY_DEFAULTS: Readonly<{
    maxTransfers: 5;
    walkSpeed: 1.25;
    maxWalkMetres: 800;
    minChangeSeconds: 60;
    wheelchair: false;
}>;
export const COVER_CELLS: 4;
export const DETOUR: 1.3;
export const EARTH_RADIUS: 6371008.8;
export const FIRST_RING_METRES: 250;
export const GEOHASH_ALPHABET: "0123456789bcdefghjkmnpqrstuvwxyz";
export const INF: 1073741823;
export const PAD_DEGREES: 1e-7;
