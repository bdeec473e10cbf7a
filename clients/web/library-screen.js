// CityPack pack library: what every offline screen would otherwise write — where to search from, sizes and copy
// for people (the copy the library ships, library-copy.js), a state's text, the city list and result rows.
// Re-exported by library.js.
import { LIBRARY_COPY } from './library-copy.js';

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
export async function searchOrigin(pack, { geolocation = globalThis.navigator?.geolocation, permissions = globalThis.navigator?.permissions, timeoutMs = 3000 } = {}) {
  const granted = await permissions?.query?.({ name: 'geolocation' }).then((s) => s.state === 'granted', () => false);
  if (granted && geolocation) {
    /** @type {GeolocationCoordinates | null} */
    const here = await new Promise((ok) => geolocation.getCurrentPosition((p) => ok(p.coords), () => ok(null), { timeout: timeoutMs, maximumAge: 60000 }));
    if (here) return { lat: here.latitude, lon: here.longitude, source: 'device' };
  }
  const [minLon, minLat, maxLon, maxLat] = pack.manifest.bbox ?? [0, 0, 0, 0];
  return { lat: (minLat + maxLat) / 2, lon: (minLon + maxLon) / 2, source: 'city' };
}

// ---------------------------------------------------------------------------------------------------------------
// Copy and rendering: what every offline screen would otherwise write

/**
 * A byte count for people: "30 KB", "1.2 MB" (SI units, the locale's digits).
 * @param {number} bytes
 * @param {string} [locale]
 * @returns {string}
 */
export function formatBytes(bytes, locale) {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit > 0 && value < 10 ? 1 : 0;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** @type {Record<string, Record<string, string>> | null} */
let libraryTables = null;

/**
 * The screen copy the library ships for `locale` (else its language, else English): keys pack.* and
 * download_error.* of the templates (library-copy.js, generated from templates/copy; CityPackKit's
 * PackStateCopy.defaults holds the same).
 * @param {string} [locale]
 * @returns {Record<string, string>}
 */
export function libraryCopy(locale) {
  if (!libraryTables) {
    /** @type {Record<string, Record<string, string>>} */
    const tables = (libraryTables = {});
    for (const line of LIBRARY_COPY.split('\n')) {
      const [l, key, text] = line.split('\t');
      if (text !== undefined) (tables[l] ??= {})[key] = text;
    }
  }
  const tables = libraryTables;
  const chosen = [locale, locale?.split(/[-_]/)[0], 'en'].find((l) => l && tables[l]);
  return tables[/** @type {string} */ (chosen)] ?? {};
}

/**
 * Copy syntax: `{name}` placeholders filled from `params` (unknown ones stay as written).
 * @param {string} text
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function fillCopy(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (/** @type {string} */ m, /** @type {string} */ name) => (params[name] === undefined ? m : String(params[name])));
}

/**
 * What to show for a state, from the pack's copy (keys `pack.state.*` and `download_error.<reason>.*`):
 * {text, headline, action} (headline: "Update failed" when a failed update left the installed version; action:
 * the copy's next step for a failure; null when none). `t(key, params)` looks a key up (PackLibrary#copy).
 * @param {PackState} packState
 * @param {CopyFunction} t
 * @param {{name?: string, locale?: string}} context the city's display name, the locale for sizes
 * @returns {{text: string, headline: string | null, action: string | null}}
 */
export function describeState(packState, t, { name, locale } = {}) {
  /** @type {any} */
  const state = packState;
  const size = (/** @type {number | null | undefined} */ n) => (n == null ? '…' : formatBytes(n, locale));
  const percent = state.total ? Math.floor((100 * state.bytes) / state.total) : 0;
  // Keys newer than a pack's copy fall back to the nearest older key's text.
  const either = (/** @type {string} */ key, /** @type {string} */ fallback, /** @type {Record<string, string | number>} */ params = {}) => {
    const text = t(key, params);
    return text === key ? t(fallback, params) : text;
  };
  switch (state.kind) {
    case 'downloading':
      return { text: t('pack.state.downloading', { percent, size: size(state.total) }), headline: null, action: null };
    case 'paused': {
      // As CityPackKit's: "Paused at {percent}% of {size}", "Updating" over an installed version, "Continue download".
      const headline = state.evicted ? either('pack.state.evicted', 'pack.state.not_downloaded', { city: name ?? '' }) : state.installedVersion == null ? null : t('pack.state.updating');
      return { text: either('pack.state.paused', 'pack.state.downloading', { percent, size: size(state.total), city: name ?? '' }), headline, action: either('pack.state.resume', 'download_error.offline.action') };
    }
    case 'not_downloaded':
      return { text: state.evicted ? either('pack.state.evicted', 'pack.state.not_downloaded', { city: name ?? '' }) : t('pack.state.not_downloaded'), headline: null, action: null };
    case 'applying':
      return { text: t(state.installedVersion == null ? 'pack.state.installing' : 'pack.state.updating'), headline: null, action: null };
    case 'on_disk_out_of_date':
      return { text: t('pack.state.update_available', { size: size(state.updateBytes) }), headline: null, action: null };
    case 'failed': {
      const params = { status: state.status ?? '', size: size(state.bytes), city: name ?? '' };
      return {
        text: t(`download_error.${state.reason}.message`, params),
        headline: state.installedVersion == null ? null : t('pack.state.update_failed'),
        action: t(`download_error.${state.reason}.action`, params),
      };
    }
    default:
      return { text: t(`pack.state.${state.kind}`), headline: null, action: null };
  }
}

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
export async function renderCityList(library, { list, chips, heading }, { locale, onOpen } = {}) {
  let t = await library.copy(locale);
  const doc = list.ownerDocument;
  /** @type {(tag: string, props: Record<string, any>, ...children: (Node | string | null)[]) => HTMLElement} */
  const make = (tag, props, ...children) => {
    const node = Object.assign(doc.createElement(tag), props);
    node.append(.../** @type {(Node | string)[]} */ (children.filter((c) => c != null)));
    return node;
  };
  /** @type {(city: string, state: any) => [string | null, () => unknown] | null} */
  const step = (city, state) => {
    const installed = state.installedVersion != null || state.kind === 'on_disk' || state.kind === 'on_disk_out_of_date';
    if (state.kind === 'queued' || state.kind === 'downloading') return ['Cancel', () => library.cancel(city)];
    if (state.kind === 'on_disk_out_of_date') return ['Update', () => library.update(city)];
    if (state.kind === 'failed') return [describeState(state, t).action, () => (installed ? library.update(city) : library.download(city))];
    if (state.kind === 'not_downloaded') return ['Download', () => library.download(city)];
    if (state.kind === 'paused') return [describeState(state, t).action, () => library.download(city)];
    if (state.kind === 'on_disk') return ['Remove', () => library.remove(city)];
    return null;
  };
  const render = () => {
    /** @type {{city: string, name: string, state: any}[]} */
    const cities = library.cities();
    list.replaceChildren(
      ...cities.map(({ city, name, state }) => {
        const shown = describeState(state, t, { name, locale });
        const action = step(city, state);
        const row = make('li', { className: 'city' },
          make('span', { className: 'name', textContent: name }),
          shown.headline ? make('strong', { className: 'headline', textContent: shown.headline }) : null,
          make('span', { className: 'state', textContent: shown.text }),
          state.kind === 'downloading' || state.kind === 'paused' ? make('progress', { max: state.total || 1, value: state.bytes }) : null,
          action ? make('button', { type: 'button', className: 'step', textContent: action[0], onclick: action[1] }) : null);
        Object.assign(row.dataset, { city, state: state.kind, reason: state.reason ?? (state.evicted ? 'evicted' : '') });
        if (state.message) row.title = state.message; // the technical detail, for support and tests
        return row;
      }),
    );
    const saved = cities.filter(({ city }) => library.installedVersion(city) != null);
    if (heading) heading.textContent = t('pack.choose_city');
    chips.replaceChildren(
      ...(saved.length
        ? saved.map(({ city, name }) => {
            const chip = make('button', { type: 'button', className: 'chip', textContent: name, onclick: () => onOpen?.(city) });
            chip.dataset.city = city;
            return chip;
          })
        : [make('p', { className: 'empty', textContent: t('pack.no_cities') })]),
    );
  };
  library.addEventListener('statechange', async (/** @type {any} */ e) => {
    // A city just installed (or a first catalog) may bring the first copy tables, or newer ones.
    if (['on_disk', 'not_downloaded', 'paused', 'failed'].includes(e.detail.state.kind)) t = await library.copy(locale);
    render();
  });
  render();
  return { render, t: (/** @type {string} */ key, /** @type {Record<string, string | number> | undefined} */ params) => t(key, params) };
}

/**
 * Renders places (rows of pack.search or pack.nearby) into a list: name (or category), category, distance.
 * Each item carries `data-id`. Shows `empty` when there are none.
 * @param {HTMLElement} list @param {Place[]} rows @param {{empty?: string}} options
 */
export function renderPlaces(list, rows, { empty = '' } = {}) {
  const doc = list.ownerDocument;
  const item = (/** @type {Place} */ row) => {
    const li = doc.createElement('li');
    li.dataset.id = /** @type {any} */ (row.id);
    const distance = row.distance_m == null ? '' : ` · ${Math.round(row.distance_m)} m`;
    li.textContent = `${row.name ?? row.category} (${row.category})${distance}`;
    return li;
  };
  list.replaceChildren(...(rows.length ? rows.map(item) : [Object.assign(doc.createElement('li'), { className: 'empty', textContent: empty })]));
}
