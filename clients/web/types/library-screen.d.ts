/** @typedef {import('./library-model.js').PackState} PackState */
/** @typedef {import('./library-model.js').CopyFunction} CopyFunction */
/** @typedef {import('./pack-library.js').PackLibrary} PackLibrary */
/** @typedef {import('./places.js').Place} Place */
/**
 * Where to search from: the device's position when the page may read it (geolocation permission granted; it never
 * asks), else the city's centre (the middle of its manifest's bbox). Resolves to {lat, lon, source: 'device' |
 * 'city'}; `search(text, locale, {near})` then lists the nearest first.
 * @param {{manifest: {bbox?: number[]}}} pack an opened CityPack
 * @param {{geolocation?: Geolocation, permissions?: Permissions, timeoutMs?: number}} options
 * @returns {Promise<{lat: number, lon: number, source: 'device' | 'city'}>}
 */
export function searchOrigin(pack: {
    manifest: {
        bbox?: number[];
    };
}, { geolocation, permissions, timeoutMs }?: {
    geolocation?: Geolocation;
    permissions?: Permissions;
    timeoutMs?: number;
}): Promise<{
    lat: number;
    lon: number;
    source: 'device' | 'city';
}>;
/**
 * A byte count for people: "30 KB", "1.2 MB" (SI units, the locale's digits).
 * @param {number} bytes
 * @param {string} [locale]
 * @returns {string}
 */
export function formatBytes(bytes: number, locale?: string | undefined): string;
/**
 * The screen copy the library ships for `locale` (else its language, else English): keys pack.* and
 * download_error.* of the templates (library-copy.js, generated from templates/copy; CityPackKit's
 * PackStateCopy.defaults holds the same).
 * @param {string} [locale]
 * @returns {Record<string, string>}
 */
export function libraryCopy(locale?: string | undefined): Record<string, string>;
/**
 * Copy syntax: `{name}` placeholders filled from `params` (unknown ones stay as written).
 * @param {string} text
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function fillCopy(text: string, params?: Record<string, string | number> | undefined): string;
/**
 * What to show for a state, from the pack's copy (keys `pack.state.*` and `download_error.<reason>.*`):
 * {text, headline, action} (headline: "Update failed" when a failed update left the installed version; action:
 * the copy's next step for a failure; null when none). `t(key, params)` looks a key up (PackLibrary#copy).
 * @param {PackState} packState
 * @param {CopyFunction} t
 * @param {{name?: string, locale?: string}} context the city's display name, the locale for sizes
 * @returns {{text: string, headline: string | null, action: string | null}}
 */
export function describeState(packState: PackState, t: CopyFunction, { name, locale }?: {
    name?: string;
    locale?: string;
}): {
    text: string;
    headline: string | null;
    action: string | null;
};
/**
 * Renders the catalog's cities into `list` (a <ul>: name, state text, progress, one button for the next step)
 * and the downloaded ones into `chips` (buttons calling `onOpen(city)`; "No cities downloaded yet" when none),
 * and keeps both current as states change. Elements carry `data-city`, `data-state` and `data-reason` for styling
 * and tests. Returns a function that re-renders (e.g. after the locale changed) and the copy function in use.
 * @param {PackLibrary} library
 * @param {{list: HTMLElement, chips: HTMLElement, heading?: HTMLElement}} elements
 * @param {{locale?: string, onOpen?: (city: string) => void}} options
 * @returns {Promise<{render(): void, t: CopyFunction}>}
 */
export function renderCityList(library: PackLibrary, { list, chips, heading }: {
    list: HTMLElement;
    chips: HTMLElement;
    heading?: HTMLElement;
}, { locale, onOpen }?: {
    locale?: string | undefined;
    onOpen?: ((city: string) => void) | undefined;
}): Promise<{
    render(): void;
    t: CopyFunction;
}>;
/**
 * Renders places (rows of pack.search or pack.nearby) into a list: name (or category), category, distance.
 * Each item carries `data-id`. Shows `empty` when there are none.
 * @param {HTMLElement} list @param {Place[]} rows @param {{empty?: string}} options
 */
export function renderPlaces(list: HTMLElement, rows: Place[], { empty }?: {
    empty?: string;
}): void;
export type PackState = import('./library-model.js').PackState;
export type CopyFunction = import('./library-model.js').CopyFunction;
export type PackLibrary = import('./pack-library.js').PackLibrary;
export type Place = import('./places.js').Place;
