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
export const COVER_CELLS: 4;
export const EARTH_RADIUS: 6371008.8;
export const GEOHASH_ALPHABET: "0123456789bcdefghjkmnpqrstuvwxyz";
export const PAD_DEGREES: 1e-7;
