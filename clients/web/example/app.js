// The example offline screen: only wiring between the pack library and the page (counted by
// clients/web/test/package.test.mjs; rendering lives in library.js).
import { IndexedDBStore, PackLibrary, renderCityList, renderPlaces, searchOrigin } from '../library.js';
const q = new URLSearchParams(location.search);
const library = new PackLibrary({ catalogURL: q.get('catalog') ?? '../../packs/catalog.json', publicKey: q.get('key') ?? undefined, storage: new IndexedDBStore(),
  stallTimeoutMs: Number(q.get('stall') ?? 15000), retries: Number(q.get('retries') ?? 3), backoffMs: Number(q.get('backoff') ?? 500) });
navigator.serviceWorker?.register('sw.js', { type: 'module' });
let pack;
const open = async (city) => {
  pack = await library.open(city);
  Object.assign(document.getElementById('search'), { hidden: false }).dataset.city = city;
  document.getElementById('opened').textContent = pack.manifest.city.name;
};
const show = (rows) => renderPlaces(document.getElementById('results'), rows);
// Search from where the user is (when geolocation is granted), else from the city centre: nearest first.
for (const b of document.querySelectorAll('[data-search]')) b.onclick = async () => show(pack.search(b.dataset.search, navigator.language, { near: await searchOrigin(pack) }));
document.getElementById('nearby').onclick = () => navigator.geolocation.getCurrentPosition((p) => show(pack.nearby(p.coords.latitude, p.coords.longitude, 500)));
await renderCityList(library, { list: document.getElementById('cities'), chips: document.getElementById('chips'), heading: document.getElementById('heading') }, { locale: navigator.language, onOpen: open });
await library.refresh().catch(() => {}); // offline or refused: the stored catalog and cities stay, states say why
document.body.dataset.ready = 'true';
