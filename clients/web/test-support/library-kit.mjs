// What the pack library's Node tests share (library-resume.test.mjs, library-kills.test.mjs): a library on an
// in-memory store over the fake server (fake-fetch.mjs) with fast retries, fetch and storage wrappers that count,
// delay or "kill" (a step after which nothing completes), a seeded random source, and the offline-open check.
import assert from 'node:assert/strict';
import { MemoryStore, PackLibrary } from '../library.js';
import { fakeServer } from './fake-fetch.mjs';

/** A deterministic random source in [0, 1) (a linear congruential generator): the same seed, the same points. */
export function seeded(seed) {
  let x = seed >>> 0;
  return () => (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

/**
 * A library over a fresh fake server of `releases.output` (or `options.server`), on `options.storage` (default a
 * new MemoryStore). Retries are fast; `states` lists the kinds Monaco took.
 */
export function setup(releases, options = {}) {
  const server = options.server ?? fakeServer(releases.output);
  const storage = options.storage ?? new MemoryStore();
  const { server: _s, storage: _st, wrap, ...rest } = options;
  const library = new PackLibrary({ catalogURL: `${server.base}catalog.json`, fetch: wrap ? wrap(server.fetch) : server.fetch, storage, publicKey: releases.publicKey, retries: 2, backoffMs: 1, stallTimeoutMs: 150, ...rest });
  const states = [];
  library.addEventListener('statechange', (e) => { if (e.detail.city === 'monaco') states.push(e.detail.state); });
  return { server, storage, library, states };
}

/** A copy of a MemoryStore (files and records), as a second device or a snapshot would hold it. */
export function cloneStore(from) {
  return Object.assign(new MemoryStore(), { files: new Map(from.files), records: new Map([...from.records].map(([k, v]) => [k, structuredClone(v)])) });
}

/**
 * A fetch around `fetchImpl`: `delayMs` before each answer (a slow network), `onBody(url, n)` for every body byte
 * delivered, `step()` before each request and each body chunk — when it returns true and `hang` is given, that
 * request or chunk never completes (a killed process's request), and `inFlight` is tracked (`peak`).
 */
export function wrapFetch(fetchImpl, { delayMs = 0, onBody, step, hang } = {}) {
  const counters = { inFlight: 0, peak: 0, requests: 0 };
  const wrapped = async (url, init) => {
    if (step?.() && hang) return hang(init?.signal);
    counters.requests++;
    counters.inFlight++;
    counters.peak = Math.max(counters.peak, counters.inFlight);
    let done = false;
    const finish = () => { if (!done) { done = true; counters.inFlight--; } };
    try {
      if (delayMs) await new Promise((ok) => setTimeout(ok, delayMs));
      const r = await fetchImpl(url, init);
      if (!r.body) { finish(); return r; }
      const reader = r.body.getReader();
      const body = new ReadableStream({
        async pull(controller) {
          if (step?.() && hang) return hang(init?.signal);
          try {
            const { done: end, value } = await reader.read();
            if (end) { finish(); controller.close(); return; }
            onBody?.(String(url), value.length);
            controller.enqueue(value);
          } catch (e) {
            finish();
            controller.error(e);
          }
        },
        cancel() { finish(); },
      });
      return new Response(body, { status: r.status, headers: r.headers });
    } catch (e) {
      finish();
      throw e;
    }
  };
  return Object.assign(wrapped, { counters });
}

/** Storage whose writes call `step()` first; when it returns true the write never completes (`hang`). */
export function wrapStorage(storage, step, hang) {
  const wrapped = Object.create(storage);
  for (const m of ['putFile', 'deleteFile', 'putRecord', 'deleteRecord']) {
    wrapped[m] = (...a) => (step() && hang ? hang() : storage[m](...a));
  }
  return wrapped;
}

/** A promise that never resolves; rejects when `signal` aborts (a dead process's request, abandoned). */
export const hang = (signal) => new Promise((ok, fail) => signal?.addEventListener('abort', () => fail(signal.reason), { once: true }));

/** The installed city opens from storage alone (fetch throws) and search finds `expectName`. */
export async function opensOffline(releases, storage, expectName) {
  const offline = new PackLibrary({ catalogURL: 'https://packs.example/catalog.json', storage, publicKey: releases.publicKey, fetch: () => Promise.reject(new TypeError('offline')) });
  const pack = await offline.open('monaco');
  assert.ok(pack.search(expectName).some((r) => r.name === expectName), `search finds ${expectName}`);
  return pack;
}
