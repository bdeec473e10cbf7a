// CityPack pack library for web apps: the cities of a catalog, each in one state, downloaded into browser storage
// with progress, resume, retries and a stall timeout, verified file by file, switched in atomically, and opened
// offline with citypack.js. An ES module with no dependencies beyond citypack.js; runs in pages, service workers,
// WebViews (Capacitor) and Node ≥ 20 (tests pass an in-memory store). See docs/WEB.md, "The pack library".
//
//   import { PackLibrary, IndexedDBStore } from './library.js';
//   const library = new PackLibrary({ catalogURL: '/packs/catalog.json', storage: new IndexedDBStore() });
//   library.addEventListener('statechange', (e) => render(e.detail.city, e.detail.state));
//   await library.refresh();
//   await library.download('monaco');
//   const pack = await library.open('monaco');      // works with the network off
//
// This module is the package's `./library` entry: what an app uses. The class is in pack-library.js; the work is
// done by library-catalog.js, library-install.js, library-files.js, library-net.js, library-tables.js,
// library-bundle.js and library-patch.js.

export { CATALOG_FORMAT, LibraryError, REASONS } from './library-model.js';
export { CacheStore, IndexedDBStore, MemoryStore, storageFetch } from './library-storage.js';
export { describeState, fillCopy, formatBytes, libraryCopy, renderCityList, renderPlaces, searchOrigin } from './library-screen.js';
export { PackLibrary } from './pack-library.js';

// The types an app names (declarations: types/library.d.ts, generated from these modules by tsc).
/** @typedef {import('./library-model.js').FailureReason} FailureReason */
/** @typedef {import('./library-model.js').PackState} PackState */
/** @typedef {import('./library-model.js').PackStorage} PackStorage */
/** @typedef {import('./library-model.js').InstalledRecord} InstalledRecord */
/** @typedef {import('./library-model.js').LibraryOptions} LibraryOptions */
/** @typedef {import('./library-model.js').CatalogEntry} CatalogEntry */
/** @typedef {import('./library-model.js').Catalog} Catalog */
/** @typedef {import('./library-model.js').CityListing} CityListing */
/** @typedef {import('./library-model.js').StateChangeDetail} StateChangeDetail */
/** @typedef {import('./library-model.js').ProgressDetail} ProgressDetail */
/** @typedef {import('./library-model.js').PersistenceDetail} PersistenceDetail */
/** @typedef {import('./library-model.js').CopyFunction} CopyFunction */
/** @typedef {import('./pack-library.js').InstalledCity} InstalledCity */
/** @typedef {import('./pack-library.js').LibraryEventMap} LibraryEventMap */
