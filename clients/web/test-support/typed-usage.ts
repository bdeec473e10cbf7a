// How a TypeScript app (a Capacitor app's web build, a plain page) uses the package: checked with
// `tsc --strict` (test-support/tsconfig.typed-usage.json) by clients/web/test/types.test.mjs against the declarations tsc
// generates from the JSDoc of the modules (types/), resolved through package.json's exports as an app resolves them.
import { openPack, webFiles, PackError, type CityPack, type Place, type StopNameMatch } from '@citypack/web';
import { PackLibrary, IndexedDBStore, MemoryStore, describeState, renderCityList, type PackState, type FailureReason } from '@citypack/web/library';

export async function offlineScreen(list: HTMLElement, chips: HTMLElement): Promise<Place[]> {
  const library = new PackLibrary({ catalogURL: '/packs/catalog.json', storage: new IndexedDBStore(), publicKey: 'AAAA', retries: 2 });
  library.addEventListener('statechange', (e) => {
    const state: PackState = e.detail.state;
    if (state.kind === 'failed') {
      const reason: FailureReason = state.reason;
      console.log(reason, state.installedVersion ?? 'none', state.status ?? 0);
    } else if (state.kind === 'downloading') {
      console.log(Math.round((100 * state.bytes) / state.total));
    }
  });
  library.addEventListener('progress', (e) => console.log(e.detail.bytes, e.detail.total));
  const { t } = await renderCityList(library, { list, chips }, { locale: 'en', onOpen: (city: string) => void library.open(city) });
  try {
    await library.refresh();
  } catch {
    // offline: the stored catalog stays
  }
  for (const { city, name, state } of library.cities()) console.log(name, describeState(state, t, { name }).text, city);
  const result = await library.download('monaco');
  if (result.kind !== 'on_disk') return [];
  const pack: CityPack = await library.open('monaco');
  const sizes: number[] = (await library.installed()).map((c) => c.bytes);
  console.log(sizes, webFiles(pack.manifest).length, new MemoryStore());
  return [...pack.search('toilet', 'en'), ...pack.nearby(43.73, 7.42, 500, { limit: 10 })];
}

export async function plainReader(): Promise<number> {
  try {
    const pack = await openPack(fetch, 'https://example.org/packs/monaco/manifest.json', { parts: ['places'] });
    return pack.nearby(43.73, 7.42).length;
  } catch (e) {
    if (e instanceof PackError && e.code === 'fetch') return -1;
    throw e;
  }
}

export function journeyFromName(pack: CityPack, typed: string): string | null {
  const match: StopNameMatch = pack.stopsNamed(typed, 'en');
  if (match.kind === 'ambiguous') return match.candidates.map((c) => c.stop_id ?? c.name).join(', ');
  if (match.kind === 'place') console.log(match.name, match.lat, match.lon, match.stops.length);
  if (match.kind === 'stop') console.log(match.stop.name);
  return match.endpoint === null ? null : pack.journeys(match.endpoint, '43.73,7.42', '2026-01-05', '08:00')[0]?.id ?? null;
}
