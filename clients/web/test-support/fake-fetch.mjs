// A fetch over a folder for the pack library's Node tests: real Response objects with streamed bodies, ETag,
// Range + If-Range and If-None-Match as a static server answers them, a request log, and faults by path
// substring (the fault server's vocabulary, without sockets: fast and deterministic).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * @param {string} dir the folder served at `base`
 * @param {string} [base]
 * @returns {{fetch: typeof fetch, log: object[], faults: object[], base: string, etagSalt: string}}
 *   Push rules onto `faults` ({path, fault: cut|stall|flip|truncate|encoding|status|offline, at, status, times});
 *   change `etagSalt` to make the "server" answer with other validators (a republished file).
 */
export function fakeServer(dir, base = 'https://packs.example/') {
  const server = { log: [], faults: [], base, etagSalt: '' };
  server.fetch = async (url, init = {}) => {
    const headers = new Headers(init.headers ?? {});
    const path = new URL(url).pathname;
    const entry = { path, range: headers.get('range'), ifRange: headers.get('if-range'), ifNoneMatch: headers.get('if-none-match'), status: 0 };
    server.log.push(entry);
    const rule = server.faults.find((r) => path.includes(r.path) && (r.times === undefined || r.times > 0));
    if (rule && rule.times !== undefined) rule.times -= 1;
    if (rule?.fault === 'offline') throw new TypeError('fetch failed');
    if (rule?.fault === 'status') return new Response(null, { status: (entry.status = rule.status) });
    let body;
    try {
      body = readFileSync(join(dir, decodeURIComponent(path.slice(new URL(base).pathname.length))));
    } catch {
      return new Response(null, { status: (entry.status = 404) });
    }
    const etag = `"${createHash('sha256').update(server.etagSalt).update(body).digest('hex').slice(0, 12)}"`;
    if (entry.ifNoneMatch === etag) return new Response(null, { status: (entry.status = 304), headers: { etag } });
    let status = 200;
    const out = { etag, 'content-type': 'application/octet-stream' };
    const m = /^bytes=(\d+)-$/.exec(entry.range ?? '');
    if (m && (!entry.ifRange || entry.ifRange === etag)) {
      status = 206;
      out['content-range'] = `bytes ${m[1]}-${body.length - 1}/${body.length}`;
      body = body.subarray(Number(m[1]));
    }
    entry.status = status;
    const at = rule?.at ?? Math.floor(body.length / 2);
    if (rule?.fault === 'flip') {
      body = Buffer.from(body);
      body[at] ^= 0xff;
    }
    if (rule?.fault === 'truncate') body = body.subarray(0, at);
    if (rule?.fault === 'encoding') {
      // What a client sees: the stored gzip bytes decoded on the way in, the header still there.
      out['content-encoding'] = 'gzip';
      body = gunzipSync(body);
    }
    const signal = init.signal;
    const stream = new ReadableStream({
      start(controller) {
        if (rule?.fault === 'cut' || rule?.fault === 'stall') {
          controller.enqueue(new Uint8Array(body.subarray(0, at)));
          if (rule.fault === 'cut') setTimeout(() => controller.error(new TypeError('terminated')), 1);
          else signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
          return;
        }
        for (let i = 0; i < body.length; i += 4096) controller.enqueue(new Uint8Array(body.subarray(i, i + 4096)));
        controller.close();
      },
    });
    entry.bytes = rule?.fault === 'cut' || rule?.fault === 'stall' ? at : body.length;
    return new Response(stream, { status, headers: out });
  };
  return server;
}
